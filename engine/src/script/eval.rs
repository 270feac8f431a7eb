//! The interpreter: runs a checked script against a [`State`].
//!
//! Evaluation is a deterministic function of (state, answers): a decision (`choose`, `ask`)
//! takes the next recorded answer, and when there is none the run stops and returns the
//! [`Decision`] to ask, leaving the state untouched; the caller records the answer and runs the
//! script again from the start. Every run has a step budget, so no script can loop for ever.
//! Dice come from the state's seeded dice.

use std::borrow::Cow;
use std::collections::BTreeSet;

use super::syntax::{Arg, BinaryOp, Expr, ExprKind, Range, ScriptError, Stmt, UnaryOp};
use super::types::Kind;
use crate::content::Content;
use crate::model::{Cell, Scalar};
use crate::state::{space_in_region, Loc, MarkerOnMap, Modifier, ModifierEffect, State};
use crate::tables::{ColumnInput, RowInput};
use budget::{checked, narrow};

mod asker;
mod budget;
mod effects;
mod names;
mod queries;
mod quick;
mod replay;
mod shared;
mod spaces;

pub use asker::Asker;
pub(crate) use names::GIVEN_NAMES;
pub use quick::{condition_counted, run_counted, without_quick};
pub use replay::{values_replayed, without_replay, Replay};

/// A builtin's call: its name, its arguments (positional ones apart), where it is written.
struct Call<'e> {
    name: &'e str,
    args: &'e [Arg],
    range: Range,
}

impl<'e> Call<'e> {
    /// The `i`th positional argument.
    fn pos(&self, i: usize) -> Res<&'e Expr> {
        match self.args.iter().filter(|a| a.name.is_none()).nth(i) {
            Some(a) => Ok(&a.value),
            None => fail(
                self.range,
                format!("`{}` is missing an argument", self.name),
            ),
        }
    }

    /// The argument named `key`, if given.
    fn named(&self, key: &str) -> Option<&'e Expr> {
        self.args
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|n| n.name == key))
            .map(|a| &a.value)
    }
}

/// Most evaluation steps one run may take.
pub const STEP_BUDGET: u64 = 200_000;

/// How many visits of a builtin's work (a space, an edge, a unit, a member of a set) cost one
/// step of the budget.
const VISITS_PER_STEP: u64 = 4;

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Value {
    Void,
    Bool(bool),
    Int(i64),
    Text(String),
    /// Something the content names: a space, a nation, a card ...
    Id(Kind, crate::id::Id),
    /// A unit, by its index in the state.
    Unit(usize),
    /// A set: sorted, without repeats; shared, so that naming a set again copies nothing (an
    /// `Arc`: a state, whose tasks may hold values, stays `Send` and `Sync`).
    Set(std::sync::Arc<Vec<Value>>),
}

/// A question a script asks a player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The side that decides.
    pub by: String,
    pub question: String,
    /// The options' stable text forms.
    pub options: Vec<String>,
    /// How many options to pick (`min` to `max`); a yes-or-no question has options `yes`, `no`.
    pub min: usize,
    pub max: usize,
}

/// An answer to a decision: the chosen options' text forms.
pub type Answer = Vec<String>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// The script needs this answer; nothing was changed.
    Asks(Decision),
}

/// Who runs the script, and the combat it runs in, if any.
#[derive(Debug, Clone, Default)]
pub struct Context {
    /// The side playing the card.
    pub me: crate::id::Id,
    pub enemy: crate::id::Id,
    pub card: Option<String>,
    pub combat: Option<Combat>,
    /// The space a script of a space is about (named `space` in it).
    pub space: Option<crate::id::Id>,
    /// More names the script's place gives it (`u`, `level` ...).
    pub names: Vec<(crate::id::Id, Value)>,
}

/// The combat a combat card is played in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Combat {
    pub attacking: bool,
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    pub defending_space: String,
}

struct Eval<'a> {
    content: &'a Content,
    /// The state, copied on the first change (a condition never copies it; a script that
    /// fails or asks leaves the caller's state as it was).
    state: Cow<'a, State>,
    /// Who runs it: borrowed, or owned by an [`Asker`] that changes its names between
    /// questions.
    ctx: Cow<'a, Context>,
    answers: &'a [Answer],
    next_answer: usize,
    steps: u64,
    /// The variables in scope, innermost last (a `let`, a `for`'s item, a test's parameter).
    scopes: Vec<(crate::id::Id, Value)>,
    /// Modifiers a combat card adds to its combat.
    pub combat_modifiers: Vec<Modifier>,
    /// Supply levels asked so far, kept until the script next changes the state.
    supply: std::cell::RefCell<crate::rules::supply::SupplyCache<'a>>,
    /// The cost of the supply traces made since the budget was last charged.
    traced: std::cell::Cell<u64>,
    /// The arguments of the builtins being called, evaluated, innermost call last: one stack
    /// for every call, so that a call allocates nothing for them.
    evaluated: Vec<(*const Expr, Value)>,
    /// Where the arguments of the innermost builtin being called start in `evaluated` (0
    /// outside every call); each call puts its caller's back. Above it lie that builtin's
    /// arguments not yet taken, and while a call's arguments are evaluated, those evaluated
    /// before them: an expression is looked for among them only when one lies there.
    frame: usize,
    /// What the last run of the script read before it asked, and what this one reads (see
    /// [`replay`]); none when the run keeps nothing.
    replay: Option<replay::Replaying>,
    /// Whether this is a condition's or a modifier's evaluation, which the checker lets only
    /// read (and whose copy of the state, if any, is let go).
    reads_only: bool,
}

/// Stops evaluation: a runtime error, or a decision that has no answer yet.
/// Both boxed: every evaluation step returns a `Res`, which stays the size of a value.
enum Stop {
    Error(Box<ScriptError>),
    Ask(Box<Decision>),
}

type Res<T> = Result<T, Stop>;

#[cold]
fn fail<T>(range: Range, message: impl Into<String>) -> Res<T> {
    Err(Stop::Error(Box::new(ScriptError {
        code: "E0310",
        message: message.into(),
        range,
        hint: None,
    })))
}

/// Runs an event or combat script. On success the state holds its changes; a combat card's
/// modifiers for its combat are returned.
pub fn run(
    stmts: &[Stmt],
    content: &Content,
    state: &mut State,
    ctx: &Context,
    answers: &[Answer],
) -> Result<(Outcome, Vec<Modifier>), ScriptError> {
    run_with(stmts, content, state, (ctx, answers), None).map(|(o, m, _)| (o, m))
}

/// [`run`] with what the last run of the same script read before it asked (`kept`: the same
/// script, on the same state, with the answers it had): those values are taken, not worked
/// out again. When this run asks too, what it read is returned, for its next run.
pub fn run_replayed(
    stmts: &[Stmt],
    content: &Content,
    state: &mut State,
    (ctx, answers): (&Context, &[Answer]),
    kept: std::sync::Arc<Replay>,
) -> Result<(Outcome, Vec<Modifier>, Replay), ScriptError> {
    let replaying = Some(replay::Replaying::new(kept));
    run_with(stmts, content, state, (ctx, answers), replaying)
}

fn run_with(
    stmts: &[Stmt],
    content: &Content,
    state: &mut State,
    (ctx, answers): (&Context, &[Answer]),
    replaying: Option<replay::Replaying>,
) -> Result<(Outcome, Vec<Modifier>, Replay), ScriptError> {
    let mut e = Eval::new(content, state, ctx, answers);
    e.replay = replaying;
    match e.stmts(stmts) {
        Ok(()) => {
            let modifiers = std::mem::take(&mut e.combat_modifiers);
            if let Cow::Owned(changed) = e.state {
                *state = changed;
            }
            Ok((Outcome::Done, modifiers, Replay::default()))
        }
        Err(Stop::Ask(d)) => {
            let read = e.replay.take().map(|r| r.into_read()).unwrap_or_default();
            Ok((Outcome::Asks(*d), Vec::new(), read))
        }
        Err(Stop::Error(err)) => Err(*err),
    }
}

/// Evaluates a condition.
pub fn condition(
    expr: &Expr,
    content: &Content,
    state: &State,
    ctx: &Context,
) -> Result<bool, ScriptError> {
    Eval::new(content, state, ctx, &[]).condition(expr)
}

/// Whether every one of some conditions holds (false when one cannot be evaluated), asked first
/// to last in one evaluation, each with a step budget of its own, stopping at the first that
/// does not: the parts of a chain of `and`s after a guard known to hold.
pub fn all_hold(parts: &[&Expr], content: &Content, state: &State, ctx: &Context) -> bool {
    let mut e = Eval::new(content, state, ctx, &[]);
    parts.iter().all(|p| {
        e.steps = 0;
        e.condition(p).unwrap_or(false)
    })
}

/// Evaluates an expression that gives a number (a hook's modifier).
pub fn number(
    expr: &Expr,
    content: &Content,
    state: &State,
    ctx: &Context,
) -> Result<i64, ScriptError> {
    let number = |v| match v {
        Value::Int(n) => Ok(n),
        other => Err(other),
    };
    Eval::new(content, state, ctx, &[]).value_of(expr, ("a number", "a modifier"), number)
}

impl<'a> Eval<'a> {
    fn new(
        content: &'a Content,
        state: &'a State,
        ctx: &'a Context,
        answers: &'a [Answer],
    ) -> Eval<'a> {
        Eval::with_context(content, state, Cow::Borrowed(ctx), answers)
    }

    fn with_context(
        content: &'a Content,
        state: &'a State,
        ctx: Cow<'a, Context>,
        answers: &'a [Answer],
    ) -> Eval<'a> {
        Eval {
            content,
            state: Cow::Borrowed(state),
            ctx,
            answers,
            next_answer: 0,
            steps: 0,
            scopes: Vec::new(),
            combat_modifiers: Vec::new(),
            supply: Default::default(),
            traced: Default::default(),
            evaluated: Vec::new(),
            frame: 0,
            replay: None,
            reads_only: false,
        }
    }

    /// A condition's truth (see [`condition`]).
    fn condition(&mut self, expr: &Expr) -> Result<bool, ScriptError> {
        let truth = |v| match v {
            Value::Bool(b) => Ok(b),
            other => Err(other),
        };
        self.value_of(expr, ("a condition", "a condition"), truth)
    }

    /// An expression's value as `pick` takes it, or the error that says what it gave instead
    /// (`what` it was meant to be) or that it asked (`who` may not).
    fn value_of<T>(
        &mut self,
        expr: &Expr,
        (what, who): (&str, &str),
        pick: impl FnOnce(Value) -> Result<T, Value>,
    ) -> Result<T, ScriptError> {
        let error = |message: String| ScriptError {
            code: "E0310",
            message,
            range: expr.range,
            hint: None,
        };
        self.reads_only = true;
        match self.expr(expr) {
            Ok(v) => pick(v).map_err(|other| error(format!("{what} gave {other:?}"))),
            Err(Stop::Error(err)) => Err(*err),
            Err(Stop::Ask(_)) => Err(error(format!("{who} may not ask"))),
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Res<()> {
        let mark = self.scopes.len();
        let result = stmts.iter().try_for_each(|s| self.stmt(s));
        self.scopes.truncate(mark);
        result
    }

    fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Let { name, value } => {
                let v = self.expr(value)?;
                self.scopes.push((name.name, v));
            }
            Stmt::If {
                cond,
                then,
                otherwise,
            } => {
                if self.bool(cond)? {
                    self.stmts(then)?;
                } else {
                    self.stmts(otherwise)?;
                }
            }
            Stmt::For { var, set, body } => {
                let Value::Set(items) = self.expr(set)? else {
                    return fail(set.range, "not a set");
                };
                for item in std::sync::Arc::unwrap_or_clone(items) {
                    self.step(set.range)?;
                    self.scopes.push((var.name, item));
                    let r = self.stmts(body);
                    self.scopes.pop();
                    r?;
                }
            }
            Stmt::Expr(e) => {
                self.expr(e)?;
            }
        }
        Ok(())
    }

    fn bool(&mut self, e: &Expr) -> Res<bool> {
        match self.expr(e)? {
            Value::Bool(b) => Ok(b),
            _ => fail(e.range, "expected true or false"),
        }
    }

    fn int(&mut self, e: &Expr) -> Res<i64> {
        match self.expr(e)? {
            Value::Int(n) => Ok(n),
            _ => fail(e.range, "expected a number"),
        }
    }

    fn id(&mut self, e: &Expr) -> Res<crate::id::Id> {
        match self.expr(e)? {
            Value::Id(_, id) => Ok(id),
            _ => fail(e.range, "expected a name"),
        }
    }

    fn expr(&mut self, e: &Expr) -> Res<Value> {
        // An argument of the builtin being called was evaluated already.
        // (One comparison when none is waiting, as at nearly every node.)
        if self.evaluated.len() > self.frame {
            let from = self.frame;
            let done = self.evaluated.get(from..).unwrap_or_default();
            if let Some(i) = done.iter().position(|(x, _)| std::ptr::eq(*x, e)) {
                return Ok(self.evaluated.swap_remove(from + i).1);
            }
        }
        self.step(e.range)?;
        // The kinds met most often here; the rest out of line, so this frame stays small.
        match &e.kind {
            ExprKind::Name(n) => Ok(self.name(e, *n)),
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right, e.range),
            ExprKind::Int(n) => Ok(Value::Int(*n)),
            ExprKind::Bool(b) => Ok(Value::Bool(*b)),
            ExprKind::Call { name, args } if self.replay.is_some() => {
                self.call_replayed(e, name.name, args)
            }
            ExprKind::Call { name, args } => self.call(e, name.name, args),
            ExprKind::Field { target, field } => {
                let v = self.expr(target)?;
                self.field(&v, &field.name, e.range)
            }
            _ => self.expr_rest(e),
        }
    }

    /// [`Self::expr`] of the kinds it does not handle itself, its step spent.
    #[inline(never)]
    fn expr_rest(&mut self, e: &Expr) -> Res<Value> {
        Ok(match &e.kind {
            ExprKind::Text(s) => Value::Text(s.clone()),
            ExprKind::Error => return fail(e.range, "this part of the script did not check"),
            ExprKind::Lambda { .. } => {
                return fail(e.range, "a test can only be given to any, all or filter")
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => Value::Bool(!self.bool(operand)?),
                UnaryOp::Neg => {
                    let n = self.int(operand)?;
                    Value::Int(checked(e.range, n.checked_neg(), "the negation")?)
                }
                UnaryOp::Plus => Value::Int(self.int(operand)?),
            },
            ExprKind::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.expr(item)?);
                }
                Self::set(values)
            }
            // Handled in `expr`; never asked here, and no panic if they were.
            ExprKind::Int(_)
            | ExprKind::Bool(_)
            | ExprKind::Name(_)
            | ExprKind::Binary { .. }
            | ExprKind::Call { .. }
            | ExprKind::Field { .. } => {
                return fail(e.range, "an expression evaluated out of turn")
            }
        })
    }

    fn binary(&mut self, op: BinaryOp, left: &Expr, right: &Expr, range: Range) -> Res<Value> {
        Ok(match op {
            BinaryOp::And => Value::Bool(self.bool(left)? && self.bool(right)?),
            BinaryOp::Or => Value::Bool(self.bool(left)? || self.bool(right)?),
            BinaryOp::Eq | BinaryOp::Ne => {
                let (a, b) = (self.expr(left)?, self.expr(right)?);
                let same = match (&a, &b) {
                    (Value::Id(_, x), Value::Id(_, y)) => x == y,
                    _ => a == b,
                };
                Value::Bool(same == (op == BinaryOp::Eq))
            }
            _ => {
                let (a, b) = (self.int(left)?, self.int(right)?);
                match op {
                    BinaryOp::Lt => Value::Bool(a < b),
                    BinaryOp::Le => Value::Bool(a <= b),
                    BinaryOp::Gt => Value::Bool(a > b),
                    BinaryOp::Ge => Value::Bool(a >= b),
                    BinaryOp::Add => Value::Int(checked(range, a.checked_add(b), "the sum")?),
                    BinaryOp::Sub => {
                        Value::Int(checked(range, a.checked_sub(b), "the difference")?)
                    }
                    BinaryOp::Mul => Value::Int(checked(range, a.checked_mul(b), "the product")?),
                    BinaryOp::Div if b == 0 => {
                        return Err(Stop::Error(Box::new(ScriptError {
                            code: "E0311",
                            message: "division by zero".into(),
                            range,
                            hint: None,
                        })))
                    }
                    BinaryOp::Div => Value::Int(checked(range, a.checked_div(b), "the quotient")?),
                    _ => unreachable!("logical and comparison operators are handled above"),
                }
            }
        })
    }

    fn field(&self, v: &Value, name: &str, range: Range) -> Res<Value> {
        let content = self.content;
        match v {
            Value::Unit(i) => {
                let unit = &self.state.units[*i];
                let Some(counter) = content.counter_of(unit) else {
                    return fail(range, "unknown counter");
                };
                Ok(match name {
                    "nation" => Value::Id(Kind::Nation, counter.nation),
                    "side" => Value::Id(Kind::Side, self.side_of(*i)),
                    "type" => Value::Id(
                        Kind::UnitType,
                        match counter.back_type {
                            Some(back) if unit.reduced => back,
                            _ => counter.unit_type,
                        },
                    ),
                    "size" => Value::Id(Kind::Size, counter.size),
                    "counter" => Value::Id(Kind::Counter, counter.id),
                    "reduced" => Value::Bool(unit.reduced),
                    "space" => match &unit.at {
                        Loc::Space(s) => Value::Id(Kind::Space, *s),
                        _ => return fail(range, "the unit is not on the map"),
                    },
                    stat => {
                        let stats = content.game.as_ref().map(|g| &g.stats);
                        let index = stats.and_then(|s| s.iter().position(|x| x.id == stat));
                        let step = if unit.reduced {
                            counter.back.as_ref().unwrap_or(&counter.front)
                        } else {
                            &counter.front
                        };
                        match index.and_then(|i| step.get(i)) {
                            Some(n) => Value::Int(i64::from(*n)),
                            None => return fail(range, format!("a unit has no `{stat}`")),
                        }
                    }
                })
            }
            Value::Id(Kind::Space, id) => {
                let Some(s) = content.graph.space(id) else {
                    return fail(range, format!("no space `{id}`"));
                };
                Ok(match name {
                    "country" => Value::Id(Kind::Region, s.country.as_deref().unwrap_or("").into()),
                    "terrain" => {
                        Value::Id(Kind::Terrain, s.terrain.as_deref().unwrap_or("").into())
                    }
                    "vp" => Value::Int(i64::from(s.vp)),
                    prop => {
                        let decl = content
                            .game
                            .as_ref()
                            .and_then(|g| g.properties.iter().find(|p| p.id == prop));
                        let Some(decl) = decl else {
                            return fail(range, format!("a space has no `{name}`"));
                        };
                        use crate::model::{PropertyType as T, PropertyValue as V};
                        match (s.props.get(prop), decl.ty) {
                            (Some(V::Int(n)), _) => Value::Int(*n),
                            (Some(V::Bool(b)), _) => Value::Bool(*b),
                            (Some(V::Text(t)), _) => Value::Text(t.clone()),
                            (None, T::Int) => Value::Int(0),
                            (None, T::Bool) => Value::Bool(false),
                            (None, T::Text) => Value::Text(String::new()),
                        }
                    }
                })
            }
            Value::Id(Kind::Counter, id) => {
                let Some(c) = content.counter(id) else {
                    return fail(range, format!("no counter `{id}`"));
                };
                Ok(match name {
                    "nation" => Value::Id(Kind::Nation, c.nation),
                    "type" => Value::Id(Kind::UnitType, c.unit_type),
                    "size" => Value::Id(Kind::Size, c.size),
                    "pieces" => Value::Int(i64::from(c.count)),
                    _ => return fail(range, format!("a counter has no `{name}`")),
                })
            }
            Value::Id(Kind::Card, id) => match (name, content.card(id)) {
                ("ops", Some((_, c))) => Ok(Value::Int(i64::from(
                    c.values.get("ops").copied().unwrap_or(0),
                ))),
                _ => fail(range, format!("a card has no `{name}`")),
            },
            _ => fail(range, format!("no field `{name}` here")),
        }
    }

    /// The side commanding a unit: its counter's side, else its nation's.
    /// A flag was first set: the scenario's setup lines that wait for it enter play. A
    /// neutral's pieces (of a nation no side commands) serve the side the flag was not set by:
    /// the side that did not declare war (B2B 17.4).
    fn place_waiting(&mut self, flag: &str, range: Range) -> Res<()> {
        let Some(scenario) = self.content.scenario(&self.state.scenario) else {
            return Ok(());
        };
        let sides = self.content.game.as_ref().map(|g| g.sides.as_slice());
        let other = sides.and_then(|s| s.iter().position(|x| x.id == self.ctx.enemy));
        for p in scenario
            .setup
            .iter()
            .filter(|p| p.when.as_deref() == Some(flag))
        {
            let neutral = self.content.counter(&p.counter).is_some_and(|c| {
                c.side.is_none()
                    && crate::rules::supply::nation_side(self.content, &c.nation).is_empty()
            });
            let serves = if neutral { other } else { None };
            let content = self.content;
            if let Err(e) = self.state.to_mut().place_setup(content, p, serves) {
                return fail(range, e.0);
            }
        }
        Ok(())
    }

    fn side_of(&self, unit: usize) -> crate::Id {
        self.state.units[unit].side(self.content)
    }

    fn set(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(items.into())
    }

    fn call_builtin(
        &mut self,
        (b, quick): (&'static super::types::Builtin, quick::Quick),
        args: &[Arg],
        range: Range,
    ) -> Res<Value> {
        let name = b.name;
        if b.ctx != super::types::Ctx::Query {
            // An effect may change what supply traces through.
            self.supply.take();
        }
        let call = Call { name, args, range };
        if quick != quick::Quick::No {
            return self.answer_call(quick, &call);
        }
        match self.query(&call)? {
            Some(v) => Ok(v),
            None => self.effect(&call),
        }
    }
}

/// Whether a set (sorted, as every set is) holds a value, as [`same`] compares them: by
/// halving, but for an id in a set of ids of several kinds, looked for member by member.
fn set_contains(items: &[Value], x: &Value) -> bool {
    let one_kind = match (items.first(), items.last()) {
        (Some(Value::Id(a, _)), Some(Value::Id(b, _))) => a == b,
        _ => false,
    };
    match x {
        // A sorted set of ids of one kind is in the order of the ids.
        Value::Id(_, id) if one_kind => items
            .binary_search_by(|v| match v {
                Value::Id(_, y) => y.cmp(id),
                _ => std::cmp::Ordering::Less,
            })
            .is_ok(),
        Value::Id(..) => items.iter().any(|i| same(i, x)),
        // Anything else is the same as a member only when equal to it.
        _ => items.binary_search(x).is_ok(),
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Id(_, x), Value::Id(_, y)) => x == y,
        _ => a == b,
    }
}

fn region_contains(content: &Content, country: Option<&str>, region: &str) -> bool {
    country.is_some_and(|c| {
        content
            .game
            .as_ref()
            .and_then(|g| g.regions.iter().find(|r| r.id == c))
            .is_some_and(|r| r.within.iter().any(|w| w == region))
    })
}
