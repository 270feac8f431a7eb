//! The interpreter's guards: the step budget, with builtins charged by the work they do, and
//! checked arithmetic. Split from [`super`], the interpreter.
//!
//! A builtin's arguments are evaluated before its own (large) frame is entered, so nested
//! calls recurse through small frames only; with the parser's bound on a tree's height
//! ([`crate::script::syntax::MAX_DEPTH`]) evaluation cannot overflow the stack.

use super::quick::Quick;
use super::{fail, Eval, Res, Stop, Value, STEP_BUDGET, VISITS_PER_STEP};
use crate::script::syntax::{Arg, Binding, Expr, ExprKind, Range, ScriptError};
use crate::script::types::{Builtin, Ctx, BUILTINS};

/// The result of checked arithmetic, or the error that stops the script at `range`.
pub(super) fn checked(range: Range, value: Option<i64>, what: &str) -> Res<i64> {
    value.ok_or_else(|| {
        Stop::Error(Box::new(ScriptError {
            code: "E0311",
            message: format!("{what} overflows the range of numbers"),
            range,
            hint: Some(format!("numbers lie between {} and {}", i64::MIN, i64::MAX)),
        }))
    })
}

/// A script's number as a table's, clamped (tables are small; no lookup wraps around).
pub(super) fn narrow(n: i64) -> i32 {
    n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// What a builtin walks before it answers, charged to the budget by the size of the map, the
/// pieces or the markers (see [`Eval::walk_cost`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Nothing,
    /// The map and the markers on it: `spaces`.
    MapAndMarkers,
    /// The map: `distance`, `path`.
    Map,
    /// The pieces: `units`, `place`, `replace`.
    Units,
    /// The markers: the builtins that look for a marker or change one.
    Markers,
    /// `needed_for_supply`: a copy of the state, then traces for every nation.
    SupplyNeeds,
}

/// A builtin as the interpreter calls it: what it walks, and whether it runs a test on each
/// member of a set (`any`, `all`, `filter`), worked out once from its name.
pub(super) struct Resolved {
    pub(super) builtin: &'static Builtin,
    walk: Walk,
    tests: bool,
    /// What the call is: `exists` and `filter` are told apart for `exists(filter(...))`.
    role: Role,
    /// Whether it is answered from its evaluated arguments where they lie, and how many
    /// positional arguments it then takes (see [`super::quick`]).
    quick: (Quick, usize),
}

/// The builtins [`Eval::call`] treats apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Exists,
    Filter,
    Other,
}

/// Every builtin as the interpreter calls it, in the order of [`BUILTINS`], and the place of
/// each in it by the address of its interned name.
struct Table {
    resolved: Vec<Resolved>,
    by_addr: std::collections::HashMap<
        usize,
        usize,
        std::hash::BuildHasherDefault<crate::content::AddrHash>,
    >,
}

fn table() -> &'static Table {
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let resolved: Vec<Resolved> = BUILTINS.iter().map(resolve).collect();
        // The first of a name, as the checker finds it.
        let by_addr = (BUILTINS.iter().enumerate().rev())
            .map(|(i, b)| (crate::id::Id::new(b.name).addr(), i))
            .collect();
        Table { resolved, by_addr }
    })
}

/// The builtin a call names, found by the address of its interned name (one lookup per call,
/// no text compared).
pub(super) fn resolved(name: crate::id::Id) -> Option<&'static Resolved> {
    let t = table();
    t.by_addr
        .get(&name.addr())
        .map(|&i| &t.resolved[i])
        // The same address is the same text (ids' texts are never freed), but for the empty
        // text, which no builtin has.
        .filter(|r| r.builtin.name.len() == name.len())
}

/// The builtin of a call's node: the one the checker found (see [`Binding::Builtin`]), else
/// the one its name names.
pub(super) fn resolved_call(e: &Expr, name: crate::id::Id) -> Option<&'static Resolved> {
    match e.found.get() {
        Some(Binding::Builtin(i)) => table().resolved.get(usize::from(i)),
        _ => resolved(name),
    }
}

/// How the interpreter calls a builtin, worked out once from its name.
fn resolve(b: &'static Builtin) -> Resolved {
    let walk = match b.name {
        "spaces" => Walk::MapAndMarkers,
        "distance" | "path" => Walk::Map,
        "units" | "place" | "replace" => Walk::Units,
        "has_marker" | "marker_level" | "place_marker" | "remove_marker" | "set_marker_level" => {
            Walk::Markers
        }
        "needed_for_supply" => Walk::SupplyNeeds,
        _ => Walk::Nothing,
    };
    let role = match b.name {
        "exists" => Role::Exists,
        "filter" => Role::Filter,
        _ => Role::Other,
    };
    let quick = match b.ctx {
        Ctx::Query => Quick::of(b.name),
        _ => (Quick::No, 0),
    };
    Resolved {
        builtin: b,
        walk,
        tests: matches!(b.name, "any" | "all" | "filter"),
        role,
        quick,
    }
}

/// The error of a script that spent its budget: out of line, so that the steps that spend it
/// keep small frames.
#[cold]
#[inline(never)]
fn over_budget(range: Range) -> Res<()> {
    fail(
        range,
        format!("the script ran more than {STEP_BUDGET} steps"),
    )
}

impl Eval<'_> {
    #[inline]
    pub(super) fn step(&mut self, range: Range) -> Res<()> {
        self.spend(range, 1)
    }

    /// Spends `steps` of the budget; stops the script at `range` once it is spent.
    #[inline]
    pub(super) fn spend(&mut self, range: Range, steps: u64) -> Res<()> {
        self.steps = self.steps.saturating_add(steps);
        if self.steps > STEP_BUDGET {
            return over_budget(range);
        }
        Ok(())
    }

    /// Charges the budget for a builtin's work: `visits` spaces, edges, units, markers or
    /// members of a set looked at. A visit takes about a quarter of the time of an evaluation
    /// step (as measured on Barbarossa to Berlin), so four visits cost one step.
    pub(super) fn charge(&mut self, range: Range, visits: u64) -> Res<()> {
        self.spend(range, visits / VISITS_PER_STEP)
    }

    /// What a builtin walks before it answers, in visits: the spaces and edges of the map, the
    /// units or the markers it scans, and the supply traces it makes.
    fn walk_cost(&self, walk: Walk) -> u64 {
        let map = (self.content.graph.spaces.len() + self.content.graph.edges.len()) as u64;
        let units = self.state.units.len() as u64;
        let markers = self.state.markers.len() as u64;
        match walk {
            Walk::Nothing => 0,
            Walk::MapAndMarkers => map + markers,
            Walk::Map => map,
            Walk::Units => units,
            Walk::Markers => markers,
            Walk::SupplyNeeds => {
                // A copy of the state, then two traces for every nation on the map.
                let nations = self.content.game.as_ref().map_or(1, |g| g.nations.len()) as u64;
                units + markers + 2 * nations.max(1) * self.trace_cost()
            }
        }
    }

    /// The visits of one supply trace: the map, its markers and its units.
    pub(super) fn trace_cost(&self) -> u64 {
        (self.content.graph.spaces.len()
            + self.content.graph.edges.len()
            + self.state.markers.len()
            + self.state.units.len()) as u64
    }

    /// Calls a builtin, charging the budget for the work it does: what it walks, the set it
    /// returns, and the supply traces it had to make.
    pub(super) fn call(&mut self, e: &Expr, id: crate::id::Id, args: &[Arg]) -> Res<Value> {
        let range = e.range;
        let Some(b) = resolved_call(e, id) else {
            return fail(range, format!("unknown function `{id}`"));
        };
        if b.role == Role::Exists {
            let only_reads = |test: &Expr| self.reads_only || super::replay::only_reads(test);
            let filter = filter_call(args).filter(|(_, _, test)| only_reads(test));
            if let (Some((inner, range, _)), Some(any)) = (filter, any_builtin()) {
                // `exists(filter(s, test))` is `any(s, test)`: it stops at the first member
                // that passes. Only for a test that only reads, so that no member's test
                // changes the state (a die rolled) whether it is run or not.
                return self.call_resolved(any, inner, range);
            }
        }
        self.call_resolved(b, args, range)
    }

    /// [`Self::call`] of the builtin found.
    fn call_resolved(&mut self, b: &'static Resolved, args: &[Arg], range: Range) -> Res<Value> {
        self.charge(range, self.walk_cost(b.walk))?;
        // The arguments first, in order, before the builtin's own (large) frame is on the
        // stack: so a nesting of calls recurses through small frames only.
        // They go on the one stack of evaluated arguments; what the builtin leaves of them is
        // dropped when it returns, or when an argument fails.
        let start = self.evaluated.len();
        for a in args {
            if !matches!(a.value.kind, ExprKind::Lambda { .. }) {
                match self.expr(&a.value) {
                    Ok(v) => self.evaluated.push((&a.value as *const Expr, v)),
                    Err(e) => {
                        self.evaluated.truncate(start);
                        return Err(e);
                    }
                }
            }
        }
        let caller = std::mem::replace(&mut self.frame, start);
        let (quick, arity) = b.quick;
        let value = if b.tests {
            self.test_each(b.builtin.name, args, range)
        } else if quick != Quick::No
            && args.len() == arity
            && super::quick::on()
            && self.evaluated.len() - start == arity
            && args.iter().all(|a| a.name.is_none())
        {
            self.quick(quick, (args, start), range)
        } else {
            self.call_builtin((b.builtin, quick), args, range)
        };
        self.frame = caller;
        self.evaluated.truncate(start);
        let value = value?;
        if let Value::Set(items) = &value {
            self.charge(range, items.len() as u64)?;
        }
        let traced = self.traced.take();
        self.charge(range, traced)?;
        Ok(value)
    }

    /// `any`, `all` and `filter`: a test run on each member of a set.
    fn test_each(&mut self, name: &str, args: &[Arg], range: Range) -> Res<Value> {
        let Value::Set(items) = self.expr(
            args.first()
                .map(|a| &a.value)
                .ok_or(())
                .or_else(|_| fail(range, "expected a set"))?,
        )?
        else {
            return fail(range, "expected a set");
        };
        let ExprKind::Lambda { param, body } =
            &args.get(1).map_or(&ExprKind::Error, |a| &a.value.kind)
        else {
            return fail(range, "expected a test");
        };
        // Which test, read once, not again for every member.
        let (any, all) = (name == "any", name == "all");
        let mut kept = Vec::with_capacity(if any || all { 0 } else { items.len() });
        for item in items.iter() {
            self.scopes.push((param.name, item.clone()));
            let r = self.bool(body);
            self.scopes.pop();
            if r? {
                if any {
                    return Ok(Value::Bool(true));
                }
                if !all {
                    kept.push(item.clone());
                }
            } else if all {
                return Ok(Value::Bool(false));
            }
        }
        Ok(if any {
            Value::Bool(false)
        } else if all {
            Value::Bool(true)
        } else {
            Value::Set(kept.into())
        })
    }
}

/// The arguments, place and test of `filter(s, test)` when it is the one argument of a call.
fn filter_call(args: &[Arg]) -> Option<(&[Arg], Range, &Expr)> {
    let [Arg { name: None, value }] = args else {
        return None;
    };
    let ExprKind::Call { name, args: inner } = &value.kind else {
        return None;
    };
    let test = inner.get(1).map(|a| &a.value)?;
    let is_filter = resolved_call(value, name.name).is_some_and(|r| r.role == Role::Filter);
    (is_filter && matches!(test.kind, ExprKind::Lambda { .. })).then_some((
        inner.as_slice(),
        value.range,
        test,
    ))
}

/// The builtin `any`, resolved once.
fn any_builtin() -> Option<&'static Resolved> {
    static ANY: std::sync::OnceLock<Option<&'static Resolved>> = std::sync::OnceLock::new();
    *ANY.get_or_init(|| resolved(crate::id::Id::new("any")))
}
