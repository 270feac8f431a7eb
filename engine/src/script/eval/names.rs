//! How a name in a script finds its value: a variable in scope, a name the script's place gives
//! it (`me`, `space`, a combat's `attackers`, a hook point's `u` ...), else an id of the
//! content, which the checker may have resolved already (`syntax::Found`). Split from
//! [`super`], the interpreter.

use super::{Eval, Value};
use crate::script::syntax::{Binding, Expr};
use crate::script::types::Kind;

impl Eval<'_> {
    /// A name the script's place gives it, read from the context when the script uses it: the
    /// combat's names first, then the point's, then `space`, `me` and `enemy`.
    fn given(&self, id: crate::id::Id) -> Option<Value> {
        let (ctx, named) = (&*self.ctx, given_names());
        if let Some(c) = &ctx.combat {
            let set = |units: &[usize]| {
                let mut v: Vec<Value> = units.iter().map(|&u| Value::Unit(u)).collect();
                v.sort();
                Value::Set(v.into())
            };
            let [attacking, defending, attackers, defenders, defending_space, ..] = named;
            match id {
                _ if id == *attacking => return Some(Value::Bool(c.attacking)),
                _ if id == *defending => return Some(Value::Bool(!c.attacking)),
                _ if id == *attackers => return Some(set(&c.attackers)),
                _ if id == *defenders => return Some(set(&c.defenders)),
                _ if id == *defending_space => {
                    return Some(Value::Id(Kind::Space, c.defending_space.as_str().into()))
                }
                _ => {}
            }
        }
        if let Some((_, v)) = ctx.names.iter().rev().find(|(n, _)| *n == id) {
            return Some(v.clone());
        }
        let [.., space, me, enemy] = named;
        match &ctx.space {
            Some(at) if id == *space => Some(Value::Id(Kind::Space, *at)),
            _ if id == *me => Some(Value::Id(Kind::Side, ctx.me)),
            _ if id == *enemy => Some(Value::Id(Kind::Side, ctx.enemy)),
            _ => None,
        }
    }

    /// The value of a name: the innermost variable so named, else a name the script's place
    /// gives it.
    fn var(&self, name: crate::id::Id) -> Option<Value> {
        self.scopes
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
            .or_else(|| self.given(name))
    }

    /// A name's value: a variable, a name the script's place gives, else a content id. A name
    /// the checker found to be a content id is one, unless the context names it after all.
    pub(super) fn name(&self, e: &Expr, n: crate::id::Id) -> Value {
        if let Some(Binding::Content { space }) = e.found.get() {
            if !self.ctx.names.iter().any(|(k, _)| *k == n) {
                return Value::Id(if space { Kind::Space } else { Kind::Flag }, n);
            }
        }
        match self.var(n) {
            Some(v) => v,
            // Checked content ids: the checker knows the kind; at run time an id is an id.
            None => Value::Id(self.kind_of(n), n),
        }
    }

    /// The kind of a bare content id (only used to tag values; comparisons use the id).
    fn kind_of(&self, id: crate::id::Id) -> Kind {
        if self.content.graph.index_of(id).is_some() {
            Kind::Space
        } else {
            Kind::Flag
        }
    }
}

/// The names a script's place gives it ([`Eval::given`]), as ids, to be told apart by address:
/// the combat's (`attacking`, `defending`, `attackers`, `defenders`, `defending_space`), then
/// `space`, `me` and `enemy`.
fn given_names() -> &'static [crate::id::Id; 8] {
    static NAMES: std::sync::OnceLock<[crate::id::Id; 8]> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| GIVEN_NAMES.map(crate::id::Id::new))
}

/// The names [`given_names`] lists, as texts: the checker never takes one for a content id.
pub(crate) const GIVEN_NAMES: [&str; 8] = [
    "attacking",
    "defending",
    "attackers",
    "defenders",
    "defending_space",
    "space",
    "me",
    "enemy",
];
