//! The builtins asked most often inside tests and conditions (`contains(held, t)`,
//! `has_marker(s, m)`, `in_supply(u)`, `flag(f)` ...), answered from their evaluated
//! arguments where they lie, by a code found once with the builtin: without looking the
//! builtin up again by its name among the rest, or each argument again among those evaluated.
//! A call with named arguments, or with another number of them, finds its arguments the
//! usual way; both ways the builtin's one body here answers, fails and charges the budget.

use std::borrow::Cow;

use super::{fail, set_contains, Context, Eval, Outcome, Res, Stop, Value};
use crate::content::Content;
use crate::script::syntax::{Arg, Expr, Range, ScriptError, Stmt};
use crate::state::State;

thread_local! {
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every builtin's arguments found the usual way, none taken where they lie: to
/// show that taking them there changes nothing in play, nor in what a script costs.
pub fn without_quick<R>(f: impl FnOnce() -> R) -> R {
    crate::rules::hook_memo::switched_on(&OFF, f)
}

/// [`super::run`], with the steps of the budget the run spent (until it stopped, when it asked or
/// failed).
pub fn run_counted(
    stmts: &[Stmt],
    content: &Content,
    state: &mut State,
    ctx: &Context,
) -> (Result<Outcome, ScriptError>, u64) {
    let mut e = Eval::new(content, state, ctx, &[]);
    let outcome = match e.stmts(stmts) {
        Ok(()) => Ok(Outcome::Done),
        Err(Stop::Ask(d)) => Ok(Outcome::Asks(*d)),
        Err(Stop::Error(err)) => Err(*err),
    };
    let steps = e.steps;
    if let (Ok(Outcome::Done), Cow::Owned(changed)) = (&outcome, e.state) {
        *state = changed;
    }
    (outcome, steps)
}

/// [`super::condition`], with the steps of the budget its evaluation spent.
pub fn condition_counted(
    expr: &Expr,
    content: &Content,
    state: &State,
    ctx: &Context,
) -> (Result<bool, ScriptError>, u64) {
    let mut e = Eval::new(content, state, ctx, &[]);
    (e.condition(expr), e.steps)
}

/// Whether builtins are answered here on this thread.
pub(super) fn on() -> bool {
    !OFF.with(std::cell::Cell::get)
}

/// A builtin answered here.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Quick {
    No,
    Contains,
    HasMarker,
    InSupply,
    FullSupply,
    Exists,
    Count,
    Controls,
    Neutral,
    Adjacent,
    HasFeature,
    Flag,
    Played,
    PlayedThisTurn,
    TurnPlayed,
    Turn,
    Round,
    Track,
    InRegion,
    Min,
    Max,
}

impl Quick {
    /// The code of a builtin by its name, and how many positional arguments it takes.
    pub(super) fn of(name: &str) -> (Quick, usize) {
        match name {
            "contains" => (Quick::Contains, 2),
            "has_marker" => (Quick::HasMarker, 2),
            "in_supply" => (Quick::InSupply, 1),
            "full_supply" => (Quick::FullSupply, 1),
            "exists" => (Quick::Exists, 1),
            "count" => (Quick::Count, 1),
            "controls" => (Quick::Controls, 2),
            "neutral" => (Quick::Neutral, 1),
            "adjacent" => (Quick::Adjacent, 2),
            "has_feature" => (Quick::HasFeature, 2),
            "flag" => (Quick::Flag, 1),
            "played" => (Quick::Played, 1),
            "played_this_turn" => (Quick::PlayedThisTurn, 1),
            "turn_played" => (Quick::TurnPlayed, 1),
            "turn" => (Quick::Turn, 0),
            "round" => (Quick::Round, 0),
            "track" => (Quick::Track, 1),
            "in_region" => (Quick::InRegion, 2),
            "min" => (Quick::Min, 2),
            "max" => (Quick::Max, 2),
            _ => (Quick::No, 0),
        }
    }
}

/// Where a [`Quick`] builtin's positional arguments come from.
#[derive(Clone, Copy)]
enum Given<'c, 'e> {
    /// The call's `args` (all positional, none a test), evaluated from `start` on: each taken
    /// where it lies.
    Lying(&'e [Arg], usize),
    /// A call made the usual way: each found among the call's arguments and evaluated then (a
    /// missing one fails as [`super::Call::pos`] says).
    Call(&'c super::Call<'e>),
}

impl Eval<'_> {
    /// A [`Quick`] builtin of a call whose `args` (all positional, none a test) are evaluated
    /// from `start` on.
    pub(super) fn quick(
        &mut self,
        q: Quick,
        (args, start): (&[Arg], usize),
        range: Range,
    ) -> Res<Value> {
        self.answer_quick(q, Given::Lying(args, start), range)
    }

    /// A [`Quick`] builtin of a call made the usual way.
    pub(super) fn answer_call(&mut self, q: Quick, c: &super::Call) -> Res<Value> {
        self.answer_quick(q, Given::Call(c), c.range)
    }

    /// The `i`th positional argument `from` where it is given: its value, and where it is
    /// written.
    #[inline(always)]
    fn given_arg(&mut self, from: Given, i: usize) -> Res<(Value, Range)> {
        match from {
            Given::Lying(args, start) => {
                let value = std::mem::replace(&mut self.evaluated[start + i].1, Value::Void);
                Ok((value, args[i].value.range))
            }
            Given::Call(c) => self.call_arg(c, i),
        }
    }

    /// [`Self::given_arg`] of a call made the usual way.
    #[inline(never)]
    fn call_arg(&mut self, c: &super::Call, i: usize) -> Res<(Value, Range)> {
        let x = c.pos(i)?;
        Ok((self.expr(x)?, x.range))
    }

    /// What a [`Quick`] builtin answers, its arguments `from` where they are given: the one
    /// body of each, whichever way it is called.
    fn answer_quick(&mut self, q: Quick, from: Given, range: Range) -> Res<Value> {
        // An argument as a name or a number, failing where it is written as `Eval::id` and
        // `Eval::int` do.
        fn id(given: (Value, Range)) -> Res<crate::Id> {
            match given {
                (Value::Id(_, id), _) => Ok(id),
                (_, at) => fail(at, "expected a name"),
            }
        }
        fn int(given: (Value, Range)) -> Res<i64> {
            match given {
                (Value::Int(n), _) => Ok(n),
                (_, at) => fail(at, "expected a number"),
            }
        }
        Ok(match q {
            Quick::Contains => {
                let (Value::Set(items), _) = self.given_arg(from, 0)? else {
                    return fail(range, "expected a set");
                };
                self.charge(range, items.len() as u64)?;
                let (x, _) = self.given_arg(from, 1)?;
                Value::Bool(set_contains(&items, &x))
            }
            Quick::HasMarker => {
                let (s, m) = (id(self.given_arg(from, 0)?)?, id(self.given_arg(from, 1)?)?);
                Value::Bool((self.state.markers.iter()).any(|x| x.space == s && x.marker == m))
            }
            Quick::InSupply | Quick::FullSupply => {
                let (Value::Unit(u), _) = self.given_arg(from, 0)? else {
                    return fail(range, "expected a unit");
                };
                Value::Bool(self.supplied(u, q == Quick::FullSupply))
            }
            Quick::Exists | Quick::Count => {
                let (Value::Set(items), _) = self.given_arg(from, 0)? else {
                    return fail(range, "expected a set");
                };
                if q == Quick::Count {
                    Value::Int(items.len() as i64)
                } else {
                    Value::Bool(!items.is_empty())
                }
            }
            Quick::Controls => {
                let (side, s) = (id(self.given_arg(from, 0)?)?, id(self.given_arg(from, 1)?)?);
                Value::Bool(self.state.control.get(&s) == Some(&side))
            }
            Quick::Neutral => {
                let s = id(self.given_arg(from, 0)?)?;
                Value::Bool(!self.state.control.contains_key(&s))
            }
            Quick::Adjacent => {
                let (a, b) = (id(self.given_arg(from, 0)?)?, id(self.given_arg(from, 1)?)?);
                let g = &self.content.graph;
                Value::Bool(
                    matches!((g.index_of(a), g.index_of(b)), (Some(x), Some(y)) if g.edge_between(x, y).is_some()),
                )
            }
            Quick::HasFeature => {
                let (s, f) = (id(self.given_arg(from, 0)?)?, id(self.given_arg(from, 1)?)?);
                Value::Bool(
                    (self.content.graph.space(s))
                        .is_some_and(|x| x.features.iter().any(|x| *x == f)),
                )
            }
            Quick::Flag => {
                let f = id(self.given_arg(from, 0)?)?;
                Value::Bool(self.state.flags.contains(f.as_str()))
            }
            Quick::Played => {
                let c = id(self.given_arg(from, 0)?)?;
                Value::Bool(self.state.played.contains_key(&c))
            }
            Quick::PlayedThisTurn => {
                let c = id(self.given_arg(from, 0)?)?;
                Value::Bool(self.state.played_this_turn.contains(&c))
            }
            Quick::TurnPlayed => {
                let c = id(self.given_arg(from, 0)?)?;
                Value::Int(i64::from(self.state.played.get(&c).copied().unwrap_or(0)))
            }
            Quick::Turn => Value::Int(i64::from(self.state.turn)),
            Quick::Round => Value::Int(i64::from(self.state.round)),
            Quick::Track => {
                let t = id(self.given_arg(from, 0)?)?;
                Value::Int(self.state.track(&t))
            }
            Quick::InRegion => {
                let (s, r) = (id(self.given_arg(from, 0)?)?, id(self.given_arg(from, 1)?)?);
                Value::Bool(crate::state::space_in_region(self.content, &s, &r))
            }
            Quick::Min | Quick::Max => {
                let (a, b) = (
                    int(self.given_arg(from, 0)?)?,
                    int(self.given_arg(from, 1)?)?,
                );
                Value::Int(if q == Quick::Min { a.min(b) } else { a.max(b) })
            }
            Quick::No => return fail(range, "a builtin called out of turn"),
        })
    }
}
