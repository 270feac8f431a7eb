//! A script that asked runs again from its start with the answer (see [`super`]); what it read
//! before its question is the same the second time, since the state and the answers before
//! that point are. So a run that asks keeps, in order, the values of the calls that only read
//! ([`Replay`]), and the next run of the same script on the same state takes them instead of
//! working them out again: every call made outside any other such call, whose builtins (its
//! own, and those of its arguments and tests) all only read. Calls that change the state or
//! ask are made again, so dice, answers and changes come out as before.
//!
//! Each value is kept with the steps of the budget it took, which the replay charges again:
//! the budget runs out where it did. A run that finds another call than the one kept at a
//! place stops taking kept values there and works the rest out.

use super::{Eval, Res, Value};
use crate::script::syntax::{Arg, Expr, ExprKind};
use crate::script::types::Ctx;

thread_local! {
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static TAKEN: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Runs `f` with every script run from its start, nothing taken from its last run: to show
/// that replaying changes nothing in play.
pub fn without_replay<R>(f: impl FnOnce() -> R) -> R {
    crate::rules::hook_memo::switched_on(&OFF, f)
}

/// How many values this thread's runs have taken from their last runs so far.
pub fn values_replayed() -> u64 {
    TAKEN.with(|t| t.get())
}

/// The values a run read before it asked: by call (the address of its expression in the
/// content, which outlives the run), with the steps each took.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    calls: Vec<(usize, Value, u64)>,
}

impl Replay {
    /// Whether no value is kept.
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty()
    }
}

/// A run's replay: the values kept by the last run, the next to take, and those this run
/// reads (kept for the next, should it ask again).
#[derive(Default)]
pub(super) struct Replaying {
    kept: std::sync::Arc<Replay>,
    next: usize,
    read: Replay,
    /// Inside a call that is kept whole: its own calls are not kept apart.
    inside: u32,
}

impl Replaying {
    pub(super) fn new(kept: std::sync::Arc<Replay>) -> Replaying {
        let kept = if OFF.with(|o| o.get()) {
            Default::default()
        } else {
            kept
        };
        Replaying {
            kept,
            ..Replaying::default()
        }
    }

    pub(super) fn into_read(self) -> Replay {
        self.read
    }
}

/// Whether an expression only reads: every builtin it calls, in its arguments and tests too,
/// is a query.
pub(super) fn only_reads(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Text(_) | ExprKind::Name(_) => true,
        ExprKind::Error => false,
        ExprKind::Call { name, args } => {
            super::budget::resolved_call(e, name.name).is_some_and(|r| r.builtin.ctx == Ctx::Query)
                && args.iter().all(|a| only_reads(&a.value))
        }
        ExprKind::Field { target, .. } => only_reads(target),
        ExprKind::Unary { operand, .. } => only_reads(operand),
        ExprKind::Binary { left, right, .. } => only_reads(left) && only_reads(right),
        ExprKind::Lambda { body, .. } => only_reads(body),
        ExprKind::List(items) => items.iter().all(only_reads),
    }
}

impl Eval<'_> {
    /// A builtin's call (`e`), taken from the last run when it kept it, else made (and kept
    /// when it only reads).
    pub(super) fn call_replayed(
        &mut self,
        e: &Expr,
        name: crate::id::Id,
        args: &[Arg],
    ) -> Res<Value> {
        let outside = self.replay.as_ref().is_some_and(|r| r.inside == 0);
        if !outside || !only_reads(e) {
            return self.call(e, name, args);
        }
        let at = e as *const Expr as usize;
        let Some(r) = self.replay.as_mut() else {
            return self.call(e, name, args);
        };
        match r.kept.calls.get(r.next) {
            Some((kept_at, value, steps)) if *kept_at == at => {
                let (value, steps) = (value.clone(), *steps);
                r.next += 1;
                r.read.calls.push((at, value.clone(), steps));
                TAKEN.with(|t| t.set(t.get() + 1));
                self.spend(e.range, steps)?;
                return Ok(value);
            }
            // Another call than the last run made here: the rest is worked out.
            Some(_) => r.next = usize::MAX,
            None => {}
        }
        let before = self.steps;
        r.inside += 1;
        let value = self.call(e, name, args);
        if let Some(r) = self.replay.as_mut() {
            r.inside -= 1;
            if let Ok(v) = &value {
                r.read
                    .calls
                    .push((at, v.clone(), self.steps.saturating_sub(before)));
            }
        }
        value
    }
}
