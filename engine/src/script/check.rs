//! Name resolution and type checking of scripts against a game's content.
//!
//! A bare name is a variable if one is in scope; otherwise it is the id of something in the
//! content, and *what* it names comes from where it stands: `add(vp, 1)` wants a track, so `vp`
//! must be a track's id; `u.nation == ge` wants a nation, so `ge` must be a nation's id. A name
//! that could be several things and stands where nothing says which is reported as ambiguous.
//! Checking reports every problem and goes on (a wrong part gets the type `Error`, which fits
//! anything, so one mistake gives one message).

use std::collections::BTreeSet;

use super::syntax::{
    Arg, BinaryOp, Binding, Expr, ExprKind, Ident, Range, ScriptError, Stmt, UnaryOp,
};
use super::types::{builtin, field, Builtin, Ctx, Kind, Type, BUILTINS, P, R};
use crate::diag::did_you_mean;

mod names;
pub use names::{context_names, Names, ScriptKind};

struct Checker<'a> {
    names: &'a Names,
    kind: ScriptKind,
    scopes: Vec<Vec<(String, Type)>>,
    errors: Vec<ScriptError>,
}

/// Checks a script of statements (an event or a combat card).
pub fn check_stmts(stmts: &[Stmt], kind: ScriptKind, names: &Names) -> Vec<ScriptError> {
    check_stmts_with(stmts, kind, names, &[])
}

/// Checks a script of statements that may also use some names its place gives it (`space`).
pub fn check_stmts_with(
    stmts: &[Stmt],
    kind: ScriptKind,
    names: &Names,
    given: &[(&str, Type)],
) -> Vec<ScriptError> {
    let mut c = Checker::new(names, kind);
    c.give(given);
    c.stmts(stmts);
    c.errors
}

/// Checks a condition: one read-only expression that is true or false.
pub fn check_condition(expr: &Expr, names: &Names) -> Vec<ScriptError> {
    check_condition_with(expr, names, &[])
}

/// Checks a condition that may also use some names its place gives it (`space`).
pub fn check_condition_with(
    expr: &Expr,
    names: &Names,
    given: &[(&str, Type)],
) -> Vec<ScriptError> {
    let mut c = Checker::new(names, ScriptKind::Condition);
    c.give(given);
    c.expect(expr, &Type::Bool);
    c.errors
}

/// Checks an expression that gives a number (a hook's modifier), read-only, with the names
/// its place gives it.
pub fn check_number_with(expr: &Expr, names: &Names, given: &[(&str, Type)]) -> Vec<ScriptError> {
    let mut c = Checker::new(names, ScriptKind::Condition);
    c.give(given);
    c.expect(expr, &Type::Int);
    c.errors
}

impl<'a> Checker<'a> {
    fn new(names: &'a Names, kind: ScriptKind) -> Checker<'a> {
        let context = context_names(kind)
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect();
        Checker {
            names,
            kind,
            scopes: vec![context],
            errors: Vec::new(),
        }
    }

    fn give(&mut self, given: &[(&str, Type)]) {
        if let Some(scope) = self.scopes.first_mut() {
            scope.extend(given.iter().map(|(n, t)| (n.to_string(), t.clone())));
        }
    }

    fn error(&mut self, code: &'static str, range: Range, message: String, hint: Option<String>) {
        self.errors.push(ScriptError {
            code,
            message,
            range,
            hint,
        });
    }

    fn var(&self, name: &str) -> Option<&Type> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
    }

    fn stmts(&mut self, stmts: &[Stmt]) {
        self.scopes.push(Vec::new());
        for s in stmts {
            self.stmt(s);
        }
        self.scopes.pop();
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Let { name, value } => {
                let ty = self.infer(value);
                if ty == Type::Void {
                    self.error(
                        "E0304",
                        value.range,
                        "this gives no value to keep".into(),
                        None,
                    );
                }
                self.bind(name, ty);
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                self.expect(cond, &Type::Bool);
                self.stmts(then);
                self.stmts(otherwise);
            }
            Stmt::For { var, set, body } => {
                let ty = self.infer(set);
                let element = match ty {
                    Type::Set(t) => *t,
                    Type::Error => Type::Error,
                    other => {
                        self.error(
                            "E0304",
                            set.range,
                            format!("`for` goes through a set, not a {other}"),
                            None,
                        );
                        Type::Error
                    }
                };
                self.scopes.push(Vec::new());
                self.bind(var, element);
                self.stmts(body);
                self.scopes.pop();
            }
            Stmt::Expr(e) => {
                let ty = self.infer(e);
                if !matches!(ty, Type::Void | Type::Error) {
                    self.error(
                        "E0305",
                        e.range,
                        format!("this {ty} is worked out and then thrown away"),
                        Some("a statement should do something, such as `add(vp, 1)`; keep a value with `let`".into()),
                    );
                }
            }
        }
    }

    /// Keeps on a name's node that it is an id of the content, when it checked as one: not a
    /// variable, nor a name a script's place may give it at run time (which the interpreter
    /// looks for first).
    fn found_content(&self, e: &Expr, name: &str, ty: &Type) {
        let given = crate::script::eval::GIVEN_NAMES.contains(&name);
        if !given && self.var(name).is_none() && matches!(ty, Type::Entity(_)) {
            let space = self.names.is(Kind::Space, name);
            e.found.set(Binding::Content { space });
        }
    }

    fn bind(&mut self, name: &Ident, ty: Type) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push((name.name.to_string(), ty));
        }
    }

    /// Checks `e` where a value of type `want` is expected.
    fn expect(&mut self, e: &Expr, want: &Type) -> Type {
        let got = self.expr(e, Some(want));
        if !fits(&got, want) {
            self.error(
                "E0304",
                e.range,
                format!("expected a {want}, found a {got}"),
                None,
            );
        }
        got
    }

    fn infer(&mut self, e: &Expr) -> Type {
        self.expr(e, None)
    }

    fn expr(&mut self, e: &Expr, want: Option<&Type>) -> Type {
        match &e.kind {
            ExprKind::Int(_) => Type::Int,
            ExprKind::Bool(_) => Type::Bool,
            ExprKind::Text(_) => Type::Text,
            ExprKind::Error => Type::Error,
            ExprKind::Name(name) => {
                let ty = self.name(name, e.range, want);
                self.found_content(e, name, &ty);
                ty
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => {
                    self.expect(operand, &Type::Bool);
                    Type::Bool
                }
                UnaryOp::Neg | UnaryOp::Plus => {
                    self.expect(operand, &Type::Int);
                    Type::Int
                }
            },
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right),
            ExprKind::Field { target, field: f } => {
                let ty = self.infer(target);
                match ty {
                    Type::Entity(kind) => {
                        match field(kind, &f.name, &self.names.stats, &self.names.props) {
                            Some(t) => t,
                            None => {
                                self.error(
                                    "E0303",
                                    f.range,
                                    format!("a {} has no field `{}`", kind.name(), f.name),
                                    None,
                                );
                                Type::Error
                            }
                        }
                    }
                    Type::Error => Type::Error,
                    other => {
                        self.error("E0303", f.range, format!("a {other} has no fields"), None);
                        Type::Error
                    }
                }
            }
            ExprKind::Lambda { param, body } => match want {
                Some(Type::Fn(arg, ret)) => {
                    let (arg, ret) = ((**arg).clone(), (**ret).clone());
                    self.scopes
                        .push(vec![(param.name.to_string(), arg.clone())]);
                    self.expect(body, &ret);
                    self.scopes.pop();
                    Type::Fn(Box::new(arg), Box::new(ret))
                }
                _ => {
                    self.error(
                        "E0304",
                        e.range,
                        "a test `|x| ...` is only allowed as the last argument of `any`, `all` or `filter`".into(),
                        None,
                    );
                    Type::Error
                }
            },
            ExprKind::Call { name, args } => {
                let ty = self.call(name, args, e.range);
                let at = builtin(&name.name)
                    .and_then(|b| BUILTINS.iter().position(|x| std::ptr::eq(x, b)));
                if let Some(at) = at.and_then(|i| u16::try_from(i).ok()) {
                    e.found.set(Binding::Builtin(at));
                }
                ty
            }
            ExprKind::List(items) => {
                let mut element = match want {
                    Some(Type::Set(t)) => Some((**t).clone()),
                    _ => None,
                };
                for item in items {
                    match &element {
                        Some(t) if *t != Type::Error => {
                            let t = t.clone();
                            self.expect(item, &t);
                        }
                        _ => element = Some(self.infer(item)),
                    }
                }
                match element {
                    Some(t) => Type::set(t),
                    None => {
                        self.error(
                            "E0304",
                            e.range,
                            "an empty list has no type here".into(),
                            None,
                        );
                        Type::Error
                    }
                }
            }
        }
    }

    fn name(&mut self, name: &str, range: Range, want: Option<&Type>) -> Type {
        if let Some(t) = self.var(name) {
            return t.clone();
        }
        match want {
            Some(Type::Entity(kind)) => {
                if self.names.is(*kind, name) {
                    return Type::Entity(*kind);
                }
                let suggestion = did_you_mean(name, self.names.ids(*kind))
                    .map(|s| format!("did you mean `{s}`?"));
                let other = self.names.kinds_of(name);
                let hint = suggestion.or_else(|| {
                    other.first().map(|k| {
                        format!(
                            "`{name}` is a {}, but a {} is wanted here",
                            k.name(),
                            kind.name()
                        )
                    })
                });
                self.error(
                    "E0303",
                    range,
                    format!("unknown {} `{name}`", kind.name()),
                    hint,
                );
                Type::Error
            }
            _ => {
                let kinds = self.names.kinds_of(name);
                match kinds.as_slice() {
                    [kind] => Type::Entity(*kind),
                    [] => {
                        let vars: Vec<String> = self
                            .scopes
                            .iter()
                            .flatten()
                            .map(|(n, _)| n.clone())
                            .collect();
                        let hint = did_you_mean(name, vars.iter().map(String::as_str))
                            .map(|s| format!("did you mean `{s}`?"));
                        self.error("E0303", range, format!("unknown name `{name}`"), hint);
                        Type::Error
                    }
                    several => {
                        let list: Vec<&str> = several.iter().map(|k| k.name()).collect();
                        self.error(
                            "E0306",
                            range,
                            format!("`{name}` could be a {}; nothing here says which", list.join(" or a ")),
                            Some("use it where the kind is clear, for example compare it with a field: `u.nation == ge`".into()),
                        );
                        Type::Error
                    }
                }
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr) -> Type {
        match op {
            BinaryOp::And | BinaryOp::Or => {
                self.expect(left, &Type::Bool);
                self.expect(right, &Type::Bool);
                Type::Bool
            }
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div => {
                self.expect(left, &Type::Int);
                self.expect(right, &Type::Int);
                Type::Int
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.expect(left, &Type::Int);
                self.expect(right, &Type::Int);
                Type::Bool
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                // A bare id on the left takes its kind from the right.
                let left_is_bare_id =
                    matches!(&left.kind, ExprKind::Name(n) if self.var(n).is_none());
                let (first, second) = if left_is_bare_id {
                    (right, left)
                } else {
                    (left, right)
                };
                let ty = self.infer(first);
                if matches!(ty, Type::Void | Type::Fn(..)) {
                    self.error(
                        "E0304",
                        first.range,
                        format!("a {ty} cannot be compared"),
                        None,
                    );
                    return Type::Bool;
                }
                self.expect(second, &ty);
                Type::Bool
            }
        }
    }

    fn call(&mut self, name: &Ident, args: &[Arg], range: Range) -> Type {
        let Some(b) = builtin(&name.name) else {
            let hint = did_you_mean(&name.name, BUILTINS.iter().map(|b| b.name))
                .map(|s| format!("did you mean `{s}`?"));
            self.error(
                "E0303",
                name.range,
                format!("unknown function `{}`", name.name),
                hint,
            );
            for a in args {
                self.infer_arg(&a.value);
            }
            return Type::Error;
        };
        match (b.ctx, self.kind) {
            (Ctx::Effect | Ctx::Combat, ScriptKind::Condition) => self.error(
                "E0305",
                name.range,
                format!(
                    "`{}` changes the game or asks a player; a condition may only read it",
                    b.name
                ),
                None,
            ),
            (Ctx::Combat, ScriptKind::Event) => self.error(
                "E0305",
                name.range,
                format!("`{}` is only for combat cards", b.name),
                None,
            ),
            _ => {}
        }
        self.args(b, args, range)
    }

    fn infer_arg(&mut self, e: &Expr) {
        if !matches!(e.kind, ExprKind::Lambda { .. }) {
            self.infer(e);
        }
    }

    fn args(&mut self, b: &'static Builtin, args: &[Arg], range: Range) -> Type {
        let positional: Vec<_> = b.params.iter().filter(|p| !p.named).collect();
        let mut t: Option<Type> = None;
        let mut given = 0;
        let mut seen: BTreeSet<&str> = BTreeSet::new();
        let mut table: Option<String> = None;
        for arg in args {
            let param = match &arg.name {
                None => {
                    if seen
                        .iter()
                        .any(|n| b.params.iter().any(|p| p.named && p.name == *n))
                    {
                        self.error(
                            "E0305",
                            arg.value.range,
                            "positional arguments come before named ones".into(),
                            None,
                        );
                    }
                    let p = positional.get(given).copied();
                    given += 1;
                    if p.is_none() {
                        self.error(
                            "E0305",
                            arg.value.range,
                            format!(
                                "`{}` takes {} ({})",
                                b.name,
                                match positional.len() {
                                    0 => "no arguments".to_string(),
                                    1 => "1 argument".to_string(),
                                    n => format!("{n} arguments"),
                                },
                                signature(b)
                            ),
                            None,
                        );
                        self.infer_arg(&arg.value);
                        continue;
                    }
                    p
                }
                Some(n) => {
                    let p = b.params.iter().find(|p| p.named && p.name == n.name);
                    if p.is_none() {
                        let names: Vec<&str> = b
                            .params
                            .iter()
                            .filter(|p| p.named)
                            .map(|p| p.name)
                            .collect();
                        let hint = if names.is_empty() {
                            format!("`{}` takes no named arguments", b.name)
                        } else {
                            format!("its named arguments are: {}", names.join(", "))
                        };
                        self.error(
                            "E0305",
                            n.range,
                            format!("`{}` has no argument `{}`", b.name, n.name),
                            Some(hint),
                        );
                        self.infer_arg(&arg.value);
                        continue;
                    }
                    if !seen.insert(p.map_or("", |p| p.name)) {
                        self.error(
                            "E0305",
                            n.range,
                            format!("`{}` is given twice", n.name),
                            None,
                        );
                    }
                    p
                }
            };
            let Some(param) = param else { continue };
            if param.name == "table" {
                if let ExprKind::Name(id) = &arg.value.kind {
                    table = Some(id.to_string());
                }
            }
            self.arg(param.ty, &arg.value, &mut t);
        }
        if given < positional.len() {
            let missing: Vec<&str> = positional[given..].iter().map(|p| p.name).collect();
            self.error(
                "E0305",
                range,
                format!("`{}` is missing {}", b.name, missing.join(", ")),
                Some(format!("it takes ({})", signature(b))),
            );
        }
        let element = t.unwrap_or(Type::Error);
        match b.ret {
            R::Int => Type::Int,
            R::Bool => Type::Bool,
            R::Void => Type::Void,
            R::E(k) => Type::Entity(k),
            R::SetOf(k) => Type::set(Type::Entity(k)),
            R::SetT => match element {
                Type::Error => Type::Error,
                e => Type::set(e),
            },
            R::T => element,
            R::TableResult => match table.and_then(|id| self.names.table_results.get(&id).cloned())
            {
                Some(Type::Error) => {
                    self.error(
                        "E0304",
                        range,
                        "this table's results are records, which scripts cannot read yet".into(),
                        None,
                    );
                    Type::Error
                }
                Some(t) => t,
                None => Type::Error,
            },
        }
    }

    fn arg(&mut self, ty: P, value: &Expr, t: &mut Option<Type>) {
        match ty {
            P::Int => {
                self.expect(value, &Type::Int);
            }
            P::Bool => {
                self.expect(value, &Type::Bool);
            }
            P::Text => {
                self.expect(value, &Type::Text);
            }
            P::E(k) => {
                self.expect(value, &Type::Entity(k));
            }
            P::SetOf(k) => {
                self.expect(value, &Type::set(Type::Entity(k)));
            }
            P::SetT => match self.infer(value) {
                Type::Set(e) => *t = Some(*e),
                Type::Error => {}
                other => self.error(
                    "E0304",
                    value.range,
                    format!("expected a set, found a {other}"),
                    None,
                ),
            },
            P::SameSet => {
                let want = Type::set(t.clone().unwrap_or(Type::Error));
                self.expect(value, &want);
            }
            P::T => {
                let want = t.clone().unwrap_or(Type::Error);
                if want == Type::Error {
                    self.infer(value);
                } else {
                    self.expect(value, &want);
                }
            }
            P::Pred => {
                let arg = t.clone().unwrap_or(Type::Error);
                self.expect(value, &Type::Fn(Box::new(arg), Box::new(Type::Bool)));
            }
            P::Place => {
                let ty = match &value.kind {
                    ExprKind::Name(n)
                        if self.var(n).is_none()
                            && self.names.is(Kind::Box, n)
                            && !self.names.is(Kind::Space, n) =>
                    {
                        let ty = Type::Entity(Kind::Box);
                        self.found_content(value, n, &ty);
                        ty
                    }
                    ExprKind::Name(n) if self.var(n).is_none() => {
                        let ty = self.name(n, value.range, Some(&Type::Entity(Kind::Space)));
                        self.found_content(value, n, &ty);
                        ty
                    }
                    _ => self.infer(value),
                };
                if !matches!(ty, Type::Entity(Kind::Space | Kind::Box) | Type::Error) {
                    self.error(
                        "E0304",
                        value.range,
                        format!("expected a space or a box, found a {ty}"),
                        None,
                    );
                }
            }
        }
    }
}

/// Whether a value of type `got` may stand where `want` is expected.
fn fits(got: &Type, want: &Type) -> bool {
    match (got, want) {
        (Type::Error, _) | (_, Type::Error) => true,
        (Type::Set(a), Type::Set(b)) => fits(a, b),
        (Type::Fn(a1, r1), Type::Fn(a2, r2)) => fits(a1, a2) && fits(r1, r2),
        (a, b) => a == b,
    }
}

/// The positional parameters of a builtin, for messages.
pub fn signature(b: &Builtin) -> String {
    let mut parts: Vec<String> = b
        .params
        .iter()
        .filter(|p| !p.named)
        .map(|p| format!("{}: {}", p.name, param_name(p.ty)))
        .collect();
    let named: Vec<String> = b
        .params
        .iter()
        .filter(|p| p.named)
        .map(|p| format!("{}: {}", p.name, param_name(p.ty)))
        .collect();
    if !named.is_empty() {
        parts.push(format!("optional {}", named.join(", ")));
    }
    parts.join(", ")
}

pub fn param_name(ty: P) -> String {
    match ty {
        P::Int => "number".into(),
        P::Bool => "true/false".into(),
        P::Text => "text".into(),
        P::E(k) => k.name().into(),
        P::SetOf(k) => format!("set of {}", k.name()),
        P::SetT => "set".into(),
        P::SameSet => "set of the same kind".into(),
        P::T => "member".into(),
        P::Pred => "test".into(),
        P::Place => "space or box".into(),
    }
}

/// The reference table of every builtin, in Markdown, as `docs/effect-language.md` holds it.
pub fn reference_table() -> String {
    let mut out = String::from(
        "| builtin | arguments | named (optional) | gives | where | what it does |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for b in BUILTINS {
        let list = |named: bool| {
            let parts: Vec<String> = b
                .params
                .iter()
                .filter(|p| p.named == named)
                .map(|p| format!("{}: {}", p.name, param_name(p.ty)))
                .collect();
            if parts.is_empty() {
                "—".to_string()
            } else {
                parts.join(", ")
            }
        };
        let positional: Vec<&str> = b
            .params
            .iter()
            .filter(|p| !p.named)
            .map(|p| p.name)
            .collect();
        let gives = match b.ret {
            R::Int => "number".to_string(),
            R::Bool => "true/false".to_string(),
            R::Void => "—".to_string(),
            R::E(k) => k.name().to_string(),
            R::SetOf(k) => format!("set of {}", k.name()),
            R::SetT => "set (same kind)".to_string(),
            R::T => "member".to_string(),
            R::TableResult => "number or symbol".to_string(),
        };
        let place = match b.ctx {
            Ctx::Query => "anywhere",
            Ctx::Effect => "events, combat cards",
            Ctx::Combat => "combat cards",
        };
        out.push_str(&format!(
            "| `{}({})` | {} | {} | {gives} | {place} | {} |\n",
            b.name,
            positional.join(", "),
            list(false),
            list(true),
            b.doc
        ));
    }
    out
}
