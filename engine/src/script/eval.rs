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
use super::types::{builtin, Kind};
use crate::content::Content;
use crate::model::{Cell, Scalar};
use crate::state::{space_in_region, Loc, MarkerOnMap, Modifier, ModifierEffect, State};
use crate::tables::{ColumnInput, RowInput};
use budget::{checked, narrow};

mod budget;

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
    Id(Kind, String),
    /// A unit, by its index in the state.
    Unit(usize),
    /// A set: sorted, without repeats.
    Set(Vec<Value>),
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
    pub me: String,
    pub enemy: String,
    pub card: Option<String>,
    pub combat: Option<Combat>,
    /// The space a script of a space is about (named `space` in it).
    pub space: Option<String>,
    /// More names the script's place gives it (`u`, `level` ...).
    pub names: Vec<(String, Value)>,
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
    ctx: &'a Context,
    answers: &'a [Answer],
    next_answer: usize,
    steps: u64,
    scopes: Vec<Vec<(String, Value)>>,
    /// Modifiers a combat card adds to its combat.
    pub combat_modifiers: Vec<Modifier>,
    /// Supply levels traced so far (nation, side, level of every space), kept until the script
    /// next changes the state.
    supply: std::cell::RefCell<Vec<(String, String, Vec<crate::rules::supply::Level>)>>,
    /// The cost of the supply traces made since the budget was last charged.
    traced: std::cell::Cell<u64>,
    /// For each builtin being called, innermost last: its arguments, evaluated.
    evaluated: Vec<Vec<(*const Expr, Value)>>,
}

/// Stops evaluation: a runtime error, or a decision that has no answer yet.
enum Stop {
    Error(ScriptError),
    Ask(Decision),
}

type Res<T> = Result<T, Stop>;

fn fail<T>(range: Range, message: impl Into<String>) -> Res<T> {
    Err(Stop::Error(ScriptError {
        code: "E0310",
        message: message.into(),
        range,
        hint: None,
    }))
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
    let mut e = Eval::new(content, state, ctx, answers);
    match e.stmts(stmts) {
        Ok(()) => {
            let modifiers = std::mem::take(&mut e.combat_modifiers);
            if let Cow::Owned(changed) = e.state {
                *state = changed;
            }
            Ok((Outcome::Done, modifiers))
        }
        Err(Stop::Ask(d)) => Ok((Outcome::Asks(d), Vec::new())),
        Err(Stop::Error(err)) => Err(err),
    }
}

/// Evaluates a condition.
pub fn condition(
    expr: &Expr,
    content: &Content,
    state: &State,
    ctx: &Context,
) -> Result<bool, ScriptError> {
    let mut e = Eval::new(content, state, ctx, &[]);
    match e.expr(expr) {
        Ok(Value::Bool(b)) => Ok(b),
        Ok(other) => Err(ScriptError {
            code: "E0310",
            message: format!("a condition gave {other:?}"),
            range: expr.range,
            hint: None,
        }),
        Err(Stop::Error(err)) => Err(err),
        Err(Stop::Ask(_)) => Err(ScriptError {
            code: "E0310",
            message: "a condition may not ask".into(),
            range: expr.range,
            hint: None,
        }),
    }
}

/// Evaluates an expression that gives a number (a hook's modifier).
pub fn number(
    expr: &Expr,
    content: &Content,
    state: &State,
    ctx: &Context,
) -> Result<i64, ScriptError> {
    let mut e = Eval::new(content, state, ctx, &[]);
    match e.expr(expr) {
        Ok(Value::Int(n)) => Ok(n),
        Ok(other) => Err(ScriptError {
            code: "E0310",
            message: format!("a number gave {other:?}"),
            range: expr.range,
            hint: None,
        }),
        Err(Stop::Error(err)) => Err(err),
        Err(Stop::Ask(_)) => Err(ScriptError {
            code: "E0310",
            message: "a modifier may not ask".into(),
            range: expr.range,
            hint: None,
        }),
    }
}

impl<'a> Eval<'a> {
    fn new(
        content: &'a Content,
        state: &'a State,
        ctx: &'a Context,
        answers: &'a [Answer],
    ) -> Eval<'a> {
        let mut names = vec![
            ("me".to_string(), Value::Id(Kind::Side, ctx.me.clone())),
            (
                "enemy".to_string(),
                Value::Id(Kind::Side, ctx.enemy.clone()),
            ),
        ];
        if let Some(space) = &ctx.space {
            names.push(("space".to_string(), Value::Id(Kind::Space, space.clone())));
        }
        names.extend(ctx.names.iter().cloned());
        if let Some(c) = &ctx.combat {
            let set = |units: &[usize]| {
                let mut v: Vec<Value> = units.iter().map(|&u| Value::Unit(u)).collect();
                v.sort();
                Value::Set(v)
            };
            names.extend([
                ("attacking".to_string(), Value::Bool(c.attacking)),
                ("defending".to_string(), Value::Bool(!c.attacking)),
                ("attackers".to_string(), set(&c.attackers)),
                ("defenders".to_string(), set(&c.defenders)),
                (
                    "defending_space".to_string(),
                    Value::Id(Kind::Space, c.defending_space.clone()),
                ),
            ]);
        }
        Eval {
            content,
            state: Cow::Borrowed(state),
            ctx,
            answers,
            next_answer: 0,
            steps: 0,
            scopes: vec![names],
            combat_modifiers: Vec::new(),
            supply: Default::default(),
            traced: Default::default(),
            evaluated: Vec::new(),
        }
    }

    fn stmts(&mut self, stmts: &[Stmt]) -> Res<()> {
        self.scopes.push(Vec::new());
        let result = stmts.iter().try_for_each(|s| self.stmt(s));
        self.scopes.pop();
        result
    }

    fn stmt(&mut self, s: &Stmt) -> Res<()> {
        match s {
            Stmt::Let { name, value } => {
                let v = self.expr(value)?;
                if let Some(scope) = self.scopes.last_mut() {
                    scope.push((name.name.clone(), v));
                }
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
                for item in items {
                    self.step(set.range)?;
                    self.scopes.push(vec![(var.name.clone(), item)]);
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

    fn id(&mut self, e: &Expr) -> Res<String> {
        match self.expr(e)? {
            Value::Id(_, id) => Ok(id),
            _ => fail(e.range, "expected a name"),
        }
    }

    fn var(&self, name: &str) -> Option<&Value> {
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    }

    fn expr(&mut self, e: &Expr) -> Res<Value> {
        // An argument of the builtin being called was evaluated already.
        if let Some(done) = self.evaluated.last_mut() {
            if let Some(i) = done.iter().position(|(x, _)| std::ptr::eq(*x, e)) {
                return Ok(done.swap_remove(i).1);
            }
        }
        self.step(e.range)?;
        Ok(match &e.kind {
            ExprKind::Int(n) => Value::Int(*n),
            ExprKind::Bool(b) => Value::Bool(*b),
            ExprKind::Text(s) => Value::Text(s.clone()),
            ExprKind::Error => return fail(e.range, "this part of the script did not check"),
            ExprKind::Lambda { .. } => {
                return fail(e.range, "a test can only be given to any, all or filter")
            }
            ExprKind::Name(n) => match self.var(n) {
                Some(v) => v.clone(),
                // Checked content ids: the checker knows the kind; at run time an id is an id.
                None => Value::Id(self.kind_of(n), n.clone()),
            },
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => Value::Bool(!self.bool(operand)?),
                UnaryOp::Neg => {
                    let n = self.int(operand)?;
                    Value::Int(checked(e.range, n.checked_neg(), "the negation")?)
                }
                UnaryOp::Plus => Value::Int(self.int(operand)?),
            },
            ExprKind::Binary { op, left, right } => self.binary(*op, left, right, e.range)?,
            ExprKind::Field { target, field } => {
                let v = self.expr(target)?;
                self.field(&v, &field.name, e.range)?
            }
            ExprKind::Call { name, args } => self.call(&name.name, args, e.range)?,
            ExprKind::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for item in items {
                    values.push(self.expr(item)?);
                }
                Self::set(values)
            }
        })
    }

    /// The kind of a bare content id (only used to tag values; comparisons use the id).
    fn kind_of(&self, id: &str) -> Kind {
        if self.content.graph.space(id).is_some() {
            Kind::Space
        } else {
            Kind::Flag
        }
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
                        return Err(Stop::Error(ScriptError {
                            code: "E0311",
                            message: "division by zero".into(),
                            range,
                            hint: None,
                        }))
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
                    "nation" => Value::Id(Kind::Nation, counter.nation.clone()),
                    "side" => Value::Id(Kind::Side, self.side_of(*i)),
                    "type" => Value::Id(
                        Kind::UnitType,
                        if unit.reduced {
                            counter
                                .back_type
                                .clone()
                                .unwrap_or(counter.unit_type.clone())
                        } else {
                            counter.unit_type.clone()
                        },
                    ),
                    "size" => Value::Id(Kind::Size, counter.size.clone()),
                    "counter" => Value::Id(Kind::Counter, counter.id.clone()),
                    "reduced" => Value::Bool(unit.reduced),
                    "space" => match &unit.at {
                        Loc::Space(s) => Value::Id(Kind::Space, s.clone()),
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
                    "country" => Value::Id(Kind::Region, s.country.clone().unwrap_or_default()),
                    "terrain" => Value::Id(Kind::Terrain, s.terrain.clone().unwrap_or_default()),
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
                    "nation" => Value::Id(Kind::Nation, c.nation.clone()),
                    "type" => Value::Id(Kind::UnitType, c.unit_type.clone()),
                    "size" => Value::Id(Kind::Size, c.size.clone()),
                    "pieces" => Value::Int(i64::from(c.count)),
                    _ => return fail(range, format!("a counter has no `{name}`")),
                })
            }
            Value::Id(Kind::Card, id) => match (name, content.cards().find(|(_, c)| c.id == *id)) {
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

    fn side_of(&self, unit: usize) -> String {
        self.state.units[unit].side(self.content).to_string()
    }

    fn units_on_map(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.state.units.len())
            .filter(|&i| matches!(self.state.units[i].at, Loc::Space(_) | Loc::Box(_)))
    }

    fn set(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(items)
    }

    fn call_builtin(&mut self, name: &str, args: &[Arg], range: Range) -> Res<Value> {
        let Some(b) = builtin(name) else {
            return fail(range, format!("unknown function `{name}`"));
        };
        // Positional and named arguments, unevaluated.
        let positional: Vec<&Expr> = args
            .iter()
            .filter(|a| a.name.is_none())
            .map(|a| &a.value)
            .collect();
        let named = |key: &str| {
            args.iter()
                .find(|a| a.name.as_ref().is_some_and(|n| n.name == key))
                .map(|a| &a.value)
        };
        let pos = |i: usize| {
            positional
                .get(i)
                .copied()
                .ok_or(())
                .or_else(|_| fail(range, format!("`{name}` is missing an argument")))
        };
        if b.ctx != super::types::Ctx::Query {
            // An effect may change what supply traces through.
            self.supply.borrow_mut().clear();
        }
        let faces = self.content.game.as_ref().map_or(6, |g| g.dice.faces);
        Ok(match name {
            "turn" => Value::Int(i64::from(self.state.turn)),
            "impulse" => Value::Int(i64::from(self.state.flow.impulse)),
            "flag_unit" | "unit_flag" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, format!("`{name}` wants a unit"));
                };
                let flag = self.id(pos(1)?)?;
                if name == "unit_flag" {
                    Value::Bool(self.state.unit_flag(u, &flag))
                } else {
                    let until = match named("until") {
                        Some(e) => self.id(e)?,
                        None => "end_of_round".to_string(),
                    };
                    self.state.to_mut().unit_flags.push((u, flag, until));
                    Value::Void
                }
            }
            "hand" => {
                let side = self.id(pos(0)?)?;
                let mut cards: Vec<Value> = self
                    .state
                    .hands
                    .get(&side)
                    .into_iter()
                    .flatten()
                    .map(|c| Value::Id(Kind::Card, c.clone()))
                    .collect();
                cards.sort();
                cards.dedup();
                Value::Set(cards)
            }
            "pick_random" => {
                let n = self.int(pos(0)?)?;
                let Value::Set(mut items) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set");
                };
                // Each pick shifts the rest of the set.
                let picks = n.clamp(0, items.len() as i64) as u64;
                self.charge(range, picks.saturating_mul(items.len() as u64))?;
                let mut picked = Vec::new();
                for _ in 0..n.max(0) {
                    if items.is_empty() {
                        break;
                    }
                    let i = self.state.to_mut().random_index(items.len());
                    picked.push(items.remove(i));
                }
                picked.sort();
                Value::Set(picked)
            }
            "clear_control" => {
                let space = self.id(pos(0)?)?;
                self.state.to_mut().set_control(&space, None);
                Value::Void
            }
            "marker_level" => {
                let (space, marker) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let level = self
                    .state
                    .markers
                    .iter()
                    .filter(|m| m.space == space && m.marker == marker)
                    .map(|m| m.level)
                    .max()
                    .unwrap_or(0);
                Value::Int(i64::from(level))
            }
            "distance" | "path" => {
                let (a, b) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let way = self.way(&a, &b);
                if name == "distance" {
                    Value::Int(way.as_ref().map_or(-1, |w| w.len() as i64 - 1))
                } else {
                    let mut spaces: Vec<Value> = way
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| Value::Id(Kind::Space, s))
                        .collect();
                    spaces.sort();
                    spaces.dedup();
                    Value::Set(spaces)
                }
            }
            "supply_level" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a unit");
                };
                Value::Int(if self.supplied(u, true) {
                    2
                } else if self.supplied(u, false) {
                    1
                } else {
                    0
                })
            }
            "mp_left" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a unit");
                };
                Value::Int(self.mp_left(u))
            }
            "connected_by" => {
                let (a, b, kind) = (self.id(pos(0)?)?, self.id(pos(1)?)?, self.id(pos(2)?)?);
                let g = &self.content.graph;
                let joined = match (g.index_of(&a), g.index_of(&b)) {
                    (Some(x), Some(y)) => g
                        .neighbours(x)
                        .iter()
                        .any(|&(n, e)| n == y && g.edges[e].kinds.contains(&kind)),
                    _ => false,
                };
                Value::Bool(joined)
            }
            "out_of_supply" | "activated" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, format!("`{name}` wants a unit"));
                };
                let flow = &self.state.flow;
                Value::Bool(if name == "activated" {
                    flow.activated.contains(&u)
                } else {
                    flow.oos.contains(&u)
                })
            }
            "set_out_of_supply" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "`set_out_of_supply` wants a unit");
                };
                self.state.to_mut().flow.oos.insert(u);
                Value::Void
            }
            "set_marker_level" => {
                let (marker, space) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let Value::Int(level) = self.expr(pos(2)?)? else {
                    return fail(range, "`set_marker_level` wants a number");
                };
                crate::state::set_marker_level(self.state.to_mut(), &marker, &space, level);
                Value::Void
            }
            "end_game" => {
                let winner = match named("winner") {
                    Some(e) => self.id(e)?,
                    None => String::new(),
                };
                let turn = self.state.turn;
                self.state.to_mut().flow.result = Some(crate::rules::GameResult {
                    winner,
                    how: "end_of_game".into(),
                    turn,
                });
                Value::Void
            }
            "round" => Value::Int(i64::from(self.state.round)),
            "season" | "year" => {
                let turn = self
                    .content
                    .game
                    .as_ref()
                    .and_then(|g| g.turns.iter().find(|t| t.number == self.state.turn));
                if name == "season" {
                    Value::Id(
                        Kind::Season,
                        turn.and_then(|t| t.season.clone()).unwrap_or_default(),
                    )
                } else {
                    Value::Int(i64::from(turn.and_then(|t| t.year).unwrap_or(0)))
                }
            }
            "track" => {
                let t = self.id(pos(0)?)?;
                Value::Int(self.state.track(&t))
            }
            "flag" => {
                let f = self.id(pos(0)?)?;
                Value::Bool(self.state.flags.contains(&f))
            }
            "played" => {
                let c = self.id(pos(0)?)?;
                Value::Bool(self.state.played.contains_key(&c))
            }
            "played_this_turn" => {
                let c = self.id(pos(0)?)?;
                Value::Bool(self.state.played_this_turn.contains(&c))
            }
            "turn_played" => {
                let c = self.id(pos(0)?)?;
                Value::Int(i64::from(self.state.played.get(&c).copied().unwrap_or(0)))
            }
            "available" => {
                let c = self.id(pos(0)?)?;
                Value::Int(
                    self.state
                        .units
                        .iter()
                        .filter(|u| u.counter == c && u.at == Loc::Unplaced)
                        .count() as i64,
                )
            }
            "hand_size" => {
                let s = self.id(pos(0)?)?;
                Value::Int(self.state.hands.get(&s).map_or(0, Vec::len) as i64)
            }
            "needed_for_supply" => {
                let (marker, space) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                Value::Bool(crate::rules::supply::marker_needed(
                    self.content,
                    &self.state,
                    &marker,
                    &space,
                ))
            }
            "pile_cards" => {
                let deck = self.id(pos(0)?)?;
                let mut cards: Vec<String> = [&self.state.draw_piles, &self.state.discards]
                    .iter()
                    .filter_map(|piles| piles.get(&deck))
                    .flatten()
                    .cloned()
                    .collect();
                cards.sort();
                Value::Set(
                    cards
                        .into_iter()
                        .map(|c| Value::Id(Kind::Card, c))
                        .collect(),
                )
            }
            "spaces" => self.spaces(args, range)?,
            "units" => self.units(args)?,
            "controller" => {
                let s = self.id(pos(0)?)?;
                match self.state.control.get(&s) {
                    Some(side) => Value::Id(Kind::Side, side.clone()),
                    None => return fail(range, format!("`{s}` is neutral: no side controls it")),
                }
            }
            "controls" => {
                let side = self.id(pos(0)?)?;
                let s = self.id(pos(1)?)?;
                Value::Bool(self.state.control.get(&s) == Some(&side))
            }
            "neutral" => {
                let s = self.id(pos(0)?)?;
                Value::Bool(!self.state.control.contains_key(&s))
            }
            "adjacent" => {
                let (a, b) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let g = &self.content.graph;
                Value::Bool(
                    matches!((g.index_of(&a), g.index_of(&b)), (Some(x), Some(y)) if g.edge_between(x, y).is_some()),
                )
            }
            "has_marker" => {
                let (s, m) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                Value::Bool(
                    self.state
                        .markers
                        .iter()
                        .any(|x| x.space == s && x.marker == m),
                )
            }
            "in_supply" | "full_supply" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a unit");
                };
                Value::Bool(self.supplied(u, name == "full_supply"))
            }
            "count" | "exists" => {
                let Value::Set(items) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a set");
                };
                if name == "count" {
                    Value::Int(items.len() as i64)
                } else {
                    Value::Bool(!items.is_empty())
                }
            }
            "union" => {
                let (Value::Set(mut a), Value::Set(b)) = (self.expr(pos(0)?)?, self.expr(pos(1)?)?)
                else {
                    return fail(range, "expected two sets");
                };
                a.extend(b);
                Self::set(a)
            }
            "has_feature" => {
                let (s, f) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                Value::Bool(
                    self.content
                        .graph
                        .space(&s)
                        .is_some_and(|x| x.features.contains(&f)),
                )
            }
            "full_supply_at" => {
                let (s, nation) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let side = crate::rules::supply::nation_side(self.content, &nation).to_string();
                Value::Bool(self.traces_supply(&s, &nation, &side, true))
            }
            "contains" => {
                let Value::Set(items) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a set");
                };
                self.charge(range, items.len() as u64)?;
                let x = self.expr(pos(1)?)?;
                Value::Bool(items.iter().any(|i| same(i, &x)))
            }
            "min" | "max" => {
                let (a, b) = (self.int(pos(0)?)?, self.int(pos(1)?)?);
                Value::Int(if name == "min" { a.min(b) } else { a.max(b) })
            }
            "roll" => Value::Int(self.state.to_mut().roll(faces)),
            "lookup" => self.lookup(args, range)?,
            "choose" | "choose_up_to" | "choose_one" => {
                let (n, set_expr) = if name == "choose_one" {
                    (1, pos(0)?)
                } else {
                    (self.int(pos(0)?)?.max(0) as usize, pos(1)?)
                };
                let Value::Set(items) = self.expr(set_expr)? else {
                    return fail(range, "expected a set");
                };
                self.charge(range, items.len() as u64)?;
                let by = match named("by") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me.clone(),
                };
                if name == "choose_one" && items.is_empty() {
                    return fail(range, "there is nothing to choose from");
                }
                let (min, max) = match name {
                    "choose" => (n.min(items.len()), n.min(items.len())),
                    "choose_up_to" => (0, n.min(items.len())),
                    _ => (1, 1),
                };
                let chosen = if max == 0 {
                    Vec::new()
                } else if min == items.len() && max == items.len() {
                    items.clone()
                } else {
                    let options: Vec<String> = items.iter().map(|v| self.text(v)).collect();
                    let how_many = format!(
                        "choose {} of {}",
                        if min == max {
                            min.to_string()
                        } else {
                            format!("up to {max}")
                        },
                        options.len()
                    );
                    let question = match named("question") {
                        Some(e) => match self.expr(e)? {
                            Value::Text(q) => format!("{q} ({how_many})"),
                            _ => how_many,
                        },
                        None => how_many,
                    };
                    let answer = self.answer(
                        Decision {
                            by,
                            question,
                            options: options.clone(),
                            min,
                            max,
                        },
                        range,
                    )?;
                    items
                        .into_iter()
                        .zip(options)
                        .filter(|(_, t)| answer.contains(t))
                        .map(|(v, _)| v)
                        .collect()
                };
                if name == "choose_one" {
                    chosen.into_iter().next().unwrap_or(Value::Void)
                } else {
                    Self::set(chosen)
                }
            }
            "ask" => {
                let question = match self.expr(pos(0)?)? {
                    Value::Text(t) => t,
                    _ => String::new(),
                };
                let by = match named("by") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me.clone(),
                };
                let options = vec!["yes".to_string(), "no".to_string()];
                let answer = self.answer(
                    Decision {
                        by,
                        question,
                        options,
                        min: 1,
                        max: 1,
                    },
                    range,
                )?;
                Value::Bool(answer.first().is_some_and(|a| a == "yes"))
            }
            "add" | "set" => {
                let t = self.id(pos(0)?)?;
                let n = self.int(pos(1)?)?;
                let value = if name == "add" {
                    self.state.track(&t).saturating_add(n)
                } else {
                    n
                };
                let (lo, hi) = self
                    .content
                    .game
                    .as_ref()
                    .and_then(|g| g.tracks.iter().find(|x| x.id == t))
                    .map_or((i64::MIN, i64::MAX), |x| {
                        (i64::from(x.min), i64::from(x.max))
                    });
                self.state.to_mut().tracks.insert(t, value.clamp(lo, hi));
                Value::Void
            }
            "set_flag" => {
                let f = self.id(pos(0)?)?;
                let timed = self.state.timed_flags.iter().any(|(x, _, _)| *x == f);
                let set_for_good = self.state.flags.contains(&f) && !timed;
                match named("until") {
                    // A flag already set for good stays set for good.
                    Some(_) if set_for_good => {}
                    Some(e) => {
                        let until = self.id(e)?;
                        self.state.to_mut().timed_flags.push((
                            f.clone(),
                            until,
                            self.ctx.card.clone(),
                        ));
                    }
                    // Set for good: no duration may clear it any more.
                    None => self.state.to_mut().timed_flags.retain(|(x, _, _)| *x != f),
                }
                if self.state.to_mut().flags.insert(f.clone()) {
                    self.place_waiting(&f, range)?;
                }
                Value::Void
            }
            "clear_flag" => {
                let f = self.id(pos(0)?)?;
                self.state.to_mut().clear_flag(&f);
                Value::Void
            }
            "control" => {
                let (s, side) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                self.state.to_mut().set_control(&s, Some(&side));
                Value::Void
            }
            "place" => {
                let counter = self.id(pos(0)?)?;
                let at = self.place_of(pos(1)?)?;
                let count = match named("count") {
                    Some(e) => self.int(e)?.max(0) as usize,
                    None => 1,
                };
                let reduced = match named("reduced") {
                    Some(e) => self.bool(e)?,
                    None => false,
                };
                // A neutral's units serve the side that takes them into the war.
                let serves = match named("serving") {
                    Some(e) => {
                        let side = self.id(e)?;
                        let sides = self.content.game.as_ref().map(|g| g.sides.as_slice());
                        sides.and_then(|s| s.iter().position(|x| x.id == side))
                    }
                    None => None,
                };
                for _ in 0..count {
                    let Some(unit) = self
                        .state
                        .to_mut()
                        .units
                        .iter_mut()
                        .find(|u| u.counter == counter && u.at == Loc::Unplaced)
                    else {
                        return fail(range, format!("no piece of `{counter}` is left to place"));
                    };
                    unit.at = at.clone();
                    unit.reduced = reduced;
                    if serves.is_some() {
                        unit.serves = serves;
                    }
                }
                Value::Void
            }
            "move" => {
                let u = self.unit(pos(0)?)?;
                let at = self.place_of(pos(1)?)?;
                self.state.to_mut().units[u].at = at;
                Value::Void
            }
            "reduce" | "step_loss" => {
                let u = self.unit(pos(0)?)?;
                self.lose_step(u);
                Value::Void
            }
            "restore" => {
                let u = self.unit(pos(0)?)?;
                self.state.to_mut().units[u].reduced = false;
                Value::Void
            }
            "eliminate" => {
                let u = self.unit(pos(0)?)?;
                let to = match named("to") {
                    Some(e) => Loc::Box(self.id(e)?),
                    None => self.eliminated_box(u),
                };
                self.state.to_mut().units[u].at = to;
                self.state.to_mut().units[u].reduced = false;
                Value::Void
            }
            "to_turn_track" => {
                let (u, turns) = (self.unit(pos(0)?)?, self.int(pos(1)?)?);
                let side = self.side_of(u);
                let Some(track) = self.content.game.as_ref().and_then(|g| {
                    g.boxes.iter().find(|b| {
                        b.side.as_deref() == Some(side.as_str())
                            && b.role == Some(crate::model::BoxRole::Delayed)
                    })
                }) else {
                    return fail(range, format!("the game has no turn-track box for {side}"));
                };
                let due = self.state.turn.saturating_add(turns.clamp(0, 1000) as u32);
                let st = self.state.to_mut();
                st.units[u].at = Loc::Box(track.id.clone());
                st.units[u].reduced = false;
                st.delayed.insert(u, due);
                Value::Void
            }
            "remove_from_game" => {
                let u = self.unit(pos(0)?)?;
                self.state.to_mut().units[u].at = Loc::Removed;
                Value::Void
            }
            "replace" => {
                let u = self.unit(pos(0)?)?;
                let with = self.id(pos(1)?)?;
                let at = self.state.units[u].at.clone();
                let Some(new) = self
                    .state
                    .units
                    .iter()
                    .position(|x| x.counter == with && x.at == Loc::Unplaced)
                else {
                    return fail(range, format!("no piece of `{with}` is left to place"));
                };
                self.state.to_mut().units[new].at = at;
                self.state.to_mut().units[u].at = Loc::Removed;
                Value::Void
            }
            "place_marker" | "remove_marker" => {
                let (m, s) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                if name == "remove_marker" {
                    self.state
                        .to_mut()
                        .markers
                        .retain(|x| !(x.marker == m && x.space == s));
                } else {
                    let level = match named("level") {
                        Some(e) => self.int(e)?.clamp(1, i64::from(u32::MAX)) as u32,
                        None => 1,
                    };
                    let until = match named("until") {
                        Some(e) => Some(self.id(e)?),
                        None => None,
                    };
                    self.place_marker(&m, &s, level, until, range)?;
                }
                Value::Void
            }
            "place_markers" => {
                let m = self.id(pos(0)?)?;
                let Value::Set(spaces) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set of spaces");
                };
                for s in spaces {
                    if let Value::Id(_, s) = s {
                        self.place_marker(&m, &s, 1, None, range)?;
                    }
                }
                Value::Void
            }
            "draw" => {
                let (side, n) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let deck = self.deck_of(&side);
                for _ in 0..n.max(0) {
                    let Some(card) = self
                        .state
                        .to_mut()
                        .draw_piles
                        .get_mut(&deck)
                        .and_then(|p| (!p.is_empty()).then(|| p.remove(0)))
                    else {
                        break;
                    };
                    self.state
                        .to_mut()
                        .hands
                        .entry(side.clone())
                        .or_default()
                        .push(card);
                }
                Value::Void
            }
            "discard_random" => {
                let (side, n) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let deck = self.deck_of(&side);
                for _ in 0..n.max(0) {
                    let len = self.state.hands.get(&side).map_or(0, Vec::len);
                    if len == 0 {
                        break;
                    }
                    let i = self.state.to_mut().random_index(len);
                    let card = self
                        .state
                        .to_mut()
                        .hands
                        .get_mut(&side)
                        .expect("non-empty hand")
                        .remove(i);
                    self.discarded(&deck, card);
                }
                Value::Void
            }
            "discard_card" => {
                let (side, card) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let held = self
                    .state
                    .hands
                    .get(&side)
                    .and_then(|h| h.iter().position(|c| *c == card));
                let Some(i) = held else {
                    return fail(range, format!("{side} does not hold `{card}`"));
                };
                let deck = self.deck_of(&side);
                let card = self
                    .state
                    .to_mut()
                    .hands
                    .get_mut(&side)
                    .expect("held")
                    .remove(i);
                self.discarded(&deck, card);
                Value::Void
            }
            "shuffle_in_set_aside" => {
                let deck = self.id(pos(0)?)?;
                let mut pile = Vec::new();
                let st = self.state.to_mut();
                for piles in [&mut st.draw_piles, &mut st.discards, &mut st.set_aside] {
                    pile.extend(piles.get_mut(&deck).map(std::mem::take).unwrap_or_default());
                }
                // The order before shuffling is fixed, so the shuffle depends on the seed only.
                pile.sort();
                self.state.to_mut().shuffle(&mut pile);
                self.state.to_mut().draw_piles.insert(deck, pile);
                Value::Void
            }
            "reveal_hand" => {
                let side = self.id(pos(0)?)?;
                self.state.to_mut().revealed.insert(side);
                Value::Void
            }
            "take_card" => {
                let (card, side) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let st = self.state.to_mut();
                let piles = [&mut st.draw_piles, &mut st.discards, &mut st.set_aside];
                let mut found = false;
                for piles in piles {
                    for pile in piles.values_mut() {
                        if let Some(i) = pile.iter().position(|c| *c == card) {
                            pile.remove(i);
                            found = true;
                        }
                    }
                }
                // The card being played may hand itself over (Heinrici).
                if !found && self.ctx.card.as_deref() != Some(card.as_str()) {
                    return fail(
                        range,
                        format!("`{card}` is not in a draw pile, discard pile or set aside"),
                    );
                }
                self.state
                    .to_mut()
                    .hands
                    .entry(side)
                    .or_default()
                    .push(card);
                Value::Void
            }
            "hand_limit" => {
                let (side, change) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "next_draw".into(),
                };
                self.modifier(ModifierEffect::HandLimit(change), side, args, until)?;
                Value::Void
            }
            "drm" | "shift" | "cancel_no_retreat" | "allow_no_retreat" => {
                let effect = match name {
                    "drm" => ModifierEffect::Drm(self.int(pos(0)?)?),
                    "shift" => ModifierEffect::Shift(self.int(pos(0)?)?),
                    "cancel_no_retreat" => ModifierEffect::CancelNoRetreat,
                    _ => ModifierEffect::AllowNoRetreat,
                };
                let default = if self.ctx.combat.is_some() {
                    "this_combat"
                } else {
                    "end_of_round"
                };
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => default.into(),
                };
                let side = match named("fire") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me.clone(),
                };
                self.modifier(effect, side, args, until)?;
                Value::Void
            }
            "terrain_as" => {
                let terrain = self.id(pos(0)?)?;
                self.modifier(
                    ModifierEffect::Terrain(terrain),
                    self.ctx.me.clone(),
                    args,
                    "this_combat".into(),
                )?;
                Value::Void
            }
            "ignore_feature" => {
                let feature = self.id(pos(0)?)?;
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => {
                        if self.ctx.combat.is_some() {
                            "this_combat".into()
                        } else {
                            "next_combat".into()
                        }
                    }
                };
                self.modifier(
                    ModifierEffect::IgnoreFeature(feature),
                    self.ctx.me.clone(),
                    args,
                    until,
                )?;
                Value::Void
            }
            "roll_modifier" => {
                let (table, amount) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "rest_of_game".into(),
                };
                self.modifier(
                    ModifierEffect::RollDrm { table, amount },
                    self.ctx.me.clone(),
                    args,
                    until,
                )?;
                Value::Void
            }
            "set_hand_limit" => {
                let (side, size) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "next_draw".into(),
                };
                self.modifier(ModifierEffect::HandSize(size), side, args, until)?;
                Value::Void
            }
            "reveal_cards" => {
                let side = self.id(pos(0)?)?;
                let Value::Set(cards) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set of cards");
                };
                let hand = self.state.hands.get(&side).cloned().unwrap_or_default();
                let shown = self.state.to_mut().revealed_cards.entry(side).or_default();
                for card in cards {
                    if let Value::Id(_, c) = card {
                        if hand.contains(&c) {
                            shown.insert(c);
                        }
                    }
                }
                Value::Void
            }
            "cancel_effects" => {
                let card = self.id(pos(0)?)?;
                self.state.to_mut().cancel_effects(&card);
                Value::Void
            }
            _ => return fail(range, format!("`{name}` has no implementation")),
        })
    }

    /// A unit loses a step: a full-strength unit with a reduced side flips; a reduced unit (or
    /// one with a single step) goes to its side's eliminated box.
    fn lose_step(&mut self, u: usize) {
        let single_step = self
            .content
            .counter(&self.state.units[u].counter)
            .is_some_and(|c| c.back.is_none());
        if self.state.units[u].reduced || single_step {
            let to = self.eliminated_box(u);
            self.state.to_mut().units[u].at = to;
            self.state.to_mut().units[u].reduced = false;
        } else {
            self.state.to_mut().units[u].reduced = true;
        }
    }

    fn answer(&mut self, decision: Decision, range: Range) -> Res<Answer> {
        let Some(answer) = self.answers.get(self.next_answer) else {
            return Err(Stop::Ask(decision));
        };
        self.next_answer += 1;
        let valid = answer.iter().all(|a| decision.options.contains(a))
            && (decision.min..=decision.max).contains(&answer.len())
            && answer.iter().collect::<BTreeSet<_>>().len() == answer.len();
        if !valid {
            return fail(
                range,
                format!(
                    "the answer {answer:?} does not fit: {} from {}",
                    decision.question,
                    decision.options.join(", ")
                ),
            );
        }
        Ok(answer.clone())
    }

    fn text(&self, v: &Value) -> String {
        match v {
            Value::Unit(i) => self.state.units[*i].name(self.content),
            Value::Id(_, id) => id.clone(),
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) => t.clone(),
            Value::Set(_) | Value::Void => String::new(),
        }
    }

    fn unit(&mut self, e: &Expr) -> Res<usize> {
        match self.expr(e)? {
            Value::Unit(u) => Ok(u),
            _ => fail(e.range, "expected a unit"),
        }
    }

    fn place_of(&mut self, e: &Expr) -> Res<Loc> {
        let id = self.id(e)?;
        Ok(if self.content.graph.space(&id).is_some() {
            Loc::Space(id)
        } else {
            Loc::Box(id)
        })
    }

    /// The eliminated-units box of a unit's side (the box with that role), else out of the game.
    fn eliminated_box(&self, unit: usize) -> Loc {
        let side = self.side_of(unit);
        let boxes = self
            .content
            .game
            .as_ref()
            .map(|g| g.boxes.as_slice())
            .unwrap_or_default();
        boxes
            .iter()
            .filter(|b| b.side.as_deref() == Some(side.as_str()))
            .find(|b| b.role == Some(crate::model::BoxRole::Eliminated))
            .map_or(Loc::Removed, |b| Loc::Box(b.id.clone()))
    }

    fn discarded(&mut self, deck: &str, card: String) {
        match self.content.game.as_ref() {
            Some(g) => self.state.to_mut().put_discarded(g, deck, card),
            None => self
                .state
                .to_mut()
                .discards
                .entry(deck.to_string())
                .or_default()
                .push(card),
        }
    }

    fn deck_of(&self, side: &str) -> String {
        self.content
            .game
            .as_ref()
            .and_then(|g| crate::model::deck_of(g, side))
            .map(|d| d.id.clone())
            .unwrap_or_default()
    }

    fn place_marker(
        &mut self,
        marker: &str,
        space: &str,
        level: u32,
        until: Option<String>,
        range: Range,
    ) -> Res<()> {
        let kind = self
            .content
            .game
            .as_ref()
            .and_then(|g| g.markers.iter().find(|m| m.id == marker));
        if let Some(existing) = self
            .state
            .to_mut()
            .markers
            .iter_mut()
            .find(|x| x.marker == marker && x.space == space)
        {
            let max = kind.map_or(1, |k| k.levels);
            existing.level = existing.level.saturating_add(level).min(max);
            return Ok(());
        }
        if let Some(limit) = kind.and_then(|k| k.limit) {
            let used = self
                .state
                .markers
                .iter()
                .filter(|x| x.marker == marker)
                .count() as u32;
            if used >= limit {
                return fail(range, format!("all {limit} `{marker}` markers are in use"));
            }
        }
        self.state.to_mut().markers.push(MarkerOnMap {
            marker: marker.into(),
            space: space.into(),
            level,
            until,
        });
        Ok(())
    }

    fn modifier(
        &mut self,
        effect: ModifierEffect,
        side: String,
        args: &[Arg],
        until: String,
    ) -> Res<()> {
        let mut m = Modifier {
            effect,
            side,
            attacker: None,
            defender: None,
            attacker_nation: None,
            defender_nation: None,
            region: None,
            space: None,
            attacker_counter: None,
            except_defender_nation: None,
            from_turn: None,
            until,
            card: self.ctx.card.clone(),
        };
        for a in args {
            let Some(n) = &a.name else { continue };
            let slot = match n.name.as_str() {
                "attacker" => &mut m.attacker,
                "defender" => &mut m.defender,
                "attacker_nation" => &mut m.attacker_nation,
                "defender_nation" => &mut m.defender_nation,
                "in" => &mut m.region,
                "at" => &mut m.space,
                "attacker_counter" => &mut m.attacker_counter,
                "except_defender_nation" => &mut m.except_defender_nation,
                _ => continue,
            };
            *slot = Some(match self.expr(&a.value)? {
                Value::Id(_, id) => id,
                _ => return fail(a.value.range, "expected a name"),
            });
        }
        if let Some(a) = args
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|n| n.name == "from_turn"))
        {
            m.from_turn = Some(self.int(&a.value)?.clamp(0, i64::from(u32::MAX)) as u32);
        }
        if self.ctx.combat.is_some() && m.until == "this_combat" {
            self.combat_modifiers.push(m);
        } else {
            self.state.to_mut().modifiers.push(m);
        }
        Ok(())
    }

    fn spaces(&mut self, args: &[Arg], range: Range) -> Res<Value> {
        let mut out = Vec::new();
        let mut filters: Vec<(String, Value)> = Vec::new();
        for a in args {
            let Some(n) = &a.name else {
                return fail(range, "filters of `spaces` are named");
            };
            filters.push((n.name.clone(), self.expr(&a.value)?));
        }
        'space: for s in &self.content.graph.spaces {
            for (key, v) in &filters {
                let id = match v {
                    Value::Id(_, id) => id.as_str(),
                    _ => "",
                };
                let ok = match key.as_str() {
                    "country" => {
                        s.country.as_deref() == Some(id)
                            || region_contains(self.content, s.country.as_deref(), id)
                    }
                    "region" => space_in_region(self.content, &s.id, id),
                    "controlled_by" => {
                        self.state.control.get(&s.id).map(String::as_str) == Some(id)
                    }
                    "occupied_by" => self
                        .state
                        .units_at(&s.id)
                        .any(|(u, _)| self.side_of(u) == id),
                    "terrain" => s.terrain.as_deref() == Some(id),
                    "feature" => s.features.iter().any(|f| f == id),
                    "adjacent_to" => {
                        let g = &self.content.graph;
                        matches!((g.index_of(&s.id), g.index_of(id)), (Some(x), Some(y)) if g.edge_between(x, y).is_some())
                    }
                    "marker" => self
                        .state
                        .markers
                        .iter()
                        .any(|m| m.space == s.id && m.marker == id),
                    "empty" => {
                        (self.state.units_at(&s.id).next().is_none()) == (*v == Value::Bool(true))
                    }
                    _ => true,
                };
                if !ok {
                    continue 'space;
                }
            }
            out.push(Value::Id(Kind::Space, s.id.clone()));
        }
        Ok(Self::set(out))
    }

    fn units(&mut self, args: &[Arg]) -> Res<Value> {
        let mut filters: Vec<(String, Value)> = Vec::new();
        for a in args {
            if let Some(n) = &a.name {
                filters.push((n.name.clone(), self.expr(&a.value)?));
            }
        }
        let candidates: Vec<usize> = self.units_on_map().collect();
        let mut out = Vec::new();
        'unit: for u in candidates {
            let unit = &self.state.units[u];
            let counter = self.content.counter_of(unit);
            for (key, v) in &filters {
                let id = match v {
                    Value::Id(_, id) => id.as_str(),
                    _ => "",
                };
                let ok = match key.as_str() {
                    "side" => self.side_of(u) == id,
                    "nation" => counter.is_some_and(|c| c.nation == id),
                    "type" => counter.is_some_and(|c| {
                        let t = if unit.reduced {
                            c.back_type.as_deref().unwrap_or(&c.unit_type)
                        } else {
                            &c.unit_type
                        };
                        t == id
                    }),
                    "size" => counter.is_some_and(|c| c.size == id),
                    "counter" => unit.counter == id,
                    "in" => unit.at == Loc::Space(id.to_string()),
                    "box" => unit.at == Loc::Box(id.to_string()),
                    "region" => {
                        matches!(&unit.at, Loc::Space(s) if space_in_region(self.content, s, id))
                    }
                    "reduced" => *v == Value::Bool(unit.reduced),
                    _ => true,
                };
                if !ok {
                    continue 'unit;
                }
            }
            // Without a `box` filter, only units on the map.
            if !filters.iter().any(|(k, _)| k == "box") && !matches!(unit.at, Loc::Space(_)) {
                continue;
            }
            out.push(Value::Unit(u));
        }
        Ok(Self::set(out))
    }

    fn lookup(&mut self, args: &[Arg], range: Range) -> Res<Value> {
        let table_id = match args.first() {
            Some(a) if a.name.is_none() => self.id(&a.value)?,
            _ => return fail(range, "`lookup` needs a table"),
        };
        let get = |this: &mut Self, key: &str| -> Res<Option<Value>> {
            match args
                .iter()
                .find(|a| a.name.as_ref().is_some_and(|n| n.name == key))
            {
                Some(a) => this.expr(&a.value).map(Some),
                None => Ok(None),
            }
        };
        let int = |v: Option<Value>| match v {
            Some(Value::Int(n)) => Some(n),
            _ => None,
        };
        let text = |v: Option<Value>| match v {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        };
        let roll = int(get(self, "roll")?);
        let number = int(get(self, "number")?);
        let row_name = text(get(self, "row")?);
        let strength = int(get(self, "strength")?);
        let attacker = int(get(self, "attacker")?);
        let defender = int(get(self, "defender")?);
        let column_name = text(get(self, "column")?);
        let shift = int(get(self, "shift")?).unwrap_or(0);
        let drm = int(get(self, "drm")?).unwrap_or(0);
        let Some(table) = self.content.table(&table_id) else {
            return fail(range, format!("no table `{table_id}`"));
        };
        let column = match (strength, attacker, defender, column_name.as_deref()) {
            (Some(s), ..) => ColumnInput::Strength(narrow(s)),
            (_, Some(a), Some(d), _) => ColumnInput::Odds {
                attacker: narrow(a).max(0) as u32,
                defender: narrow(d).max(0) as u32,
            },
            (_, _, _, Some(c)) => ColumnInput::Name(c),
            _ => ColumnInput::Single,
        };
        // A roll on the table takes the roll modifiers the player has on it (roll_modifier).
        let turn = self.state.turn;
        let standing: i64 = self
            .state
            .modifiers
            .iter()
            .filter(|m| m.side == self.ctx.me && m.from_turn.is_none_or(|t| turn >= t))
            .filter_map(|m| match &m.effect {
                ModifierEffect::RollDrm { table, amount } if *table == table_id => Some(*amount),
                _ => None,
            })
            .fold(0i64, i64::saturating_add);
        let row = match (roll, number, row_name.as_deref()) {
            (Some(r), ..) => RowInput::Roll {
                roll: narrow(r),
                drm: narrow(drm.saturating_add(standing)),
            },
            (_, Some(n), _) => RowInput::Number(narrow(n)),
            (_, _, Some(name)) => RowInput::Name(name),
            _ => return fail(range, "`lookup` needs `roll`, `number` or `row`"),
        };
        let faces = self.content.game.as_ref().map_or(6, |g| g.dice.faces);
        let result = table.lookup(column, narrow(shift), row, faces);
        if let (Ok(cell), Some(_), Ok(c)) = (&result, roll, table.column(column)) {
            let c = table.shift(c, narrow(shift));
            self.state
                .to_mut()
                .record
                .roll(&table_id, c, cell.to_string());
        }
        match result {
            Ok(Cell::Scalar(Scalar::Int(n))) => Ok(Value::Int(*n)),
            Ok(Cell::Scalar(Scalar::Symbol(s))) => Ok(Value::Text(s.clone())),
            Ok(other) => fail(
                range,
                format!("the table gave {other}, which a script cannot use"),
            ),
            Err(e) => fail(range, e.to_string()),
        }
    }

    /// Supply: a path through spaces the unit's side controls, free of enemy units, to a supply
    /// source of the unit's nation that its side controls (and whose flag, if any, is set).
    /// `full` forbids tracing across connections of a kind whose id names the sea.
    /// The spaces of a shortest way along the map from `a` to `b`, in order.
    fn way(&self, a: &str, b: &str) -> Option<Vec<String>> {
        let g = &self.content.graph;
        let (from, to) = (g.index_of(a)?, g.index_of(b)?);
        let mut before = vec![usize::MAX; g.spaces.len()];
        before[from] = from;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(i) = queue.pop_front() {
            if i == to {
                break;
            }
            for &(n, _) in g.neighbours(i) {
                if before[n] == usize::MAX {
                    before[n] = i;
                    queue.push_back(n);
                }
            }
        }
        if before[to] == usize::MAX {
            return None;
        }
        let mut way = vec![to];
        let mut at = to;
        while at != from {
            at = before[at];
            way.push(at);
        }
        way.reverse();
        Some(way.into_iter().map(|i| g.spaces[i].id.clone()).collect())
    }

    /// A unit's whole movement points left: what the impulse under way allows it, else its
    /// allowance less what it moved in the action under way.
    fn mp_left(&self, unit: usize) -> i64 {
        use crate::rules::Task;
        for t in self.state.flow.tasks.iter().rev() {
            if let Task::Impulses(t) = t {
                if let (Some(a), Some(used)) = (t.allowed.get(&unit), t.used.get(&unit)) {
                    return i64::from(a.saturating_sub(*used) / 2);
                }
            }
        }
        let Some(game) = self.content.game.as_ref() else {
            return 0;
        };
        let u = &self.state.units[unit];
        let stat = game.play.as_ref().map(|p| p.movement.as_str()).or_else(|| {
            game.sequence
                .iter()
                .flat_map(|p| &p.steps)
                .find_map(|s| match s {
                    crate::model::Step::Impulses(i) => Some(i.movement.as_str()),
                    _ => None,
                })
        });
        let Some(i) = stat.and_then(|id| game.stats.iter().position(|s| s.id == id)) else {
            return 0;
        };
        let printed = self.content.counter_of(u).map_or(0, |c| {
            let values = if u.reduced {
                c.back.as_ref().unwrap_or(&c.front)
            } else {
                &c.front
            };
            values.get(i).copied().unwrap_or(0)
        });
        let side = self.side_of(unit);
        let ma = crate::rules::hooks::modify(
            self.content,
            &self.state,
            crate::model::HookPoint::Movement,
            &side,
            i64::from(printed),
            || vec![("u".to_string(), Value::Unit(unit))],
        );
        let used = i64::from(self.state.flow.marks.moved.get(&unit).copied().unwrap_or(0));
        (ma.saturating_mul(2) - used).max(0) / 2
    }

    fn supplied(&self, unit: usize, full: bool) -> bool {
        let u = &self.state.units[unit];
        let Loc::Space(start) = &u.at else {
            return false;
        };
        let Some(nation) = self.content.counter_of(u).map(|c| c.nation.clone()) else {
            return false;
        };
        self.traces_supply(start, &nation, &self.side_of(unit), full)
    }

    /// Whether a piece of `nation` serving `side` in `start` traces supply.
    fn traces_supply(&self, start: &str, nation: &str, side: &str, full: bool) -> bool {
        let Some(space) = self.content.graph.index_of(start) else {
            return false;
        };
        let mut cache = self.supply.borrow_mut();
        let found = cache.iter().position(|(n, s, _)| n == nation && s == side);
        let i = found.unwrap_or_else(|| {
            self.traced.set(self.traced.get() + self.trace_cost());
            let levels = crate::rules::supply::levels(self.content, &self.state, nation, side);
            cache.push((nation.to_string(), side.to_string(), levels));
            cache.len() - 1
        });
        let level = cache[i].2[space];
        if full {
            level == crate::rules::supply::Level::Full
        } else {
            level != crate::rules::supply::Level::Out
        }
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
