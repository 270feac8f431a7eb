//! The interpreter's guards: the step budget, with builtins charged by the work they do, and
//! checked arithmetic. Split from [`super`], the interpreter.
//!
//! A builtin's arguments are evaluated before its own (large) frame is entered, so nested
//! calls recurse through small frames only; with the parser's bound on a tree's height
//! ([`crate::script::syntax::MAX_DEPTH`]) evaluation cannot overflow the stack.

use super::{fail, Eval, Res, Stop, Value, STEP_BUDGET, VISITS_PER_STEP};
use crate::script::syntax::{Arg, Expr, ExprKind, Range, ScriptError};

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

impl Eval<'_> {
    pub(super) fn step(&mut self, range: Range) -> Res<()> {
        self.spend(range, 1)
    }

    /// Spends `steps` of the budget; stops the script at `range` once it is spent.
    pub(super) fn spend(&mut self, range: Range, steps: u64) -> Res<()> {
        self.steps = self.steps.saturating_add(steps);
        if self.steps > STEP_BUDGET {
            return fail(
                range,
                format!("the script ran more than {STEP_BUDGET} steps"),
            );
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
    fn walk_cost(&self, name: &str) -> u64 {
        let map = (self.content.graph.spaces.len() + self.content.graph.edges.len()) as u64;
        let units = self.state.units.len() as u64;
        let markers = self.state.markers.len() as u64;
        match name {
            "spaces" => map + markers,
            "distance" | "path" => map,
            "units" | "place" | "replace" => units,
            "has_marker" | "marker_level" | "place_marker" | "remove_marker"
            | "set_marker_level" => markers,
            "needed_for_supply" => {
                // A copy of the state, then two traces for every nation on the map.
                let nations = self.content.game.as_ref().map_or(1, |g| g.nations.len()) as u64;
                units + markers + 2 * nations.max(1) * self.trace_cost()
            }
            _ => 0,
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
    pub(super) fn call(&mut self, id: crate::id::Id, args: &[Arg], range: Range) -> Res<Value> {
        let name = id.as_str();
        self.charge(range, self.walk_cost(name))?;
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
        self.frames.push(start);
        let value = if matches!(name, "any" | "all" | "filter") {
            self.test_each(name, args, range)
        } else {
            self.call_builtin(id, args, range)
        };
        self.frames.pop();
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
        let mut kept = Vec::new();
        for item in items.iter() {
            self.scopes.push((param.name, item.clone()));
            let r = self.bool(body);
            self.scopes.pop();
            if r? {
                kept.push(item.clone());
            } else if name == "all" {
                return Ok(Value::Bool(false));
            }
            if name == "any" && !kept.is_empty() {
                return Ok(Value::Bool(true));
            }
        }
        Ok(match name {
            "any" => Value::Bool(false),
            "all" => Value::Bool(true),
            _ => Value::Set(kept.into()),
        })
    }
}
