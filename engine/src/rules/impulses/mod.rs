//! Operations in impulses: the general procedure of a zone game's Operations Phase (Berlin
//! 1945 is the bundled example).
//!
//! An operations phase is a list of impulses; in each, a side activates up to a number of its
//! units of the impulse's nations, each in one mode: movement, combat or reserve. Units move
//! first, then fight, then the reserves move half their allowance. A unit is activated once a
//! turn. After the last impulse a test (a script) says whether another phase follows; when the
//! impulses named by `pass_ends` were all passed, the operations end whatever the test.
//!
//! Who fights whom is the nations' groups, not the sides: a side may command units of two
//! groups (each Berlin 1945 player commands Soviet armies and the German divisions facing the
//! other player), and units of another group are hostile whoever commands them. Combat is by
//! odds: strengths changed by conditions, die-roll modifiers by conditions, the ratio rounded
//! for the defender, step losses shared among the defenders (every unit loses one before any
//! loses a second; units of several sides alternate, the side not attacking first), retreats
//! by a space property, advance after combat. In the spaces of a city region, units fight
//! the hostile units (or the garrison) in their own space on the city table, and the
//! besiegers' progress is a marker's level.
//!
//! Every decision is a prompt like any other, so a game played this way replays, self-plays
//! and playtests as any other.

use std::collections::{BTreeMap, BTreeSet};

use super::action::Word::{Text, Unit};
use super::combat::{CombatTask, How};
use super::procedures::{run_rule_script, side_context, stacking_allows};
use super::{battle, movement, retreat, Action, Prompt, Rules, Task, Word};
use crate::model::{AttackOrder, Cell, CityCombat, HookPoint, Impulses, PhaseMode, Scalar, Step};
use crate::script::eval::{self, Context, Value};
use crate::state::{marker_level, set_marker_level, Loc, State};
use crate::tables::{ColumnInput, RowInput};

mod actions;
mod breakdown;
mod crossing;
mod exits;
pub mod kept_moves;
mod leave;
mod moves;
mod orders;
mod overrun;
mod prompts;
mod rail;
pub(in crate::rules) mod zone;

pub(super) use actions::act;
use actions::*;
use moves::*;
use orders::*;
use overrun::*;
pub(super) use prompts::step;
use prompts::*;
use rail::*;
use zone::*;

/// The mode a unit is activated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    Move,
    Combat,
    Reserve,
}

impl Mode {
    /// Whether it activates a unit to attack (the `for_combat` of the activation hooks).
    pub fn for_combat(self) -> bool {
        self == Mode::Combat
    }

    fn word(self) -> &'static str {
        match self {
            Mode::Move => "move",
            Mode::Combat => "combat",
            Mode::Reserve => "reserve",
        }
    }
}

/// Where an impulse stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Activate,
    Move,
    Combat,
    Reserve,
    /// The end-of-turn move of units not activated, impulse by impulse.
    EndMove,
}

/// Operations in impulses under way.
#[derive(Debug, Clone, PartialEq)]
pub struct ImpulseTask {
    /// The sequence step whose parameters these are.
    pub at: (usize, usize),
    /// The impulse under way, by its index in the phase.
    pub impulse: usize,
    /// Impulses of this phase whose side activated nothing.
    pub passes: Vec<usize>,
    pub stage: Stage,
    /// The units activated in this impulse, with their modes.
    pub units: Vec<(usize, Mode)>,
    /// What their activations cost of the impulse's allowance (one each, unless the game's
    /// `ActivationCost` hooks say otherwise).
    pub spent: u32,
    /// Movement used and allowed, in half points, by unit.
    pub used: BTreeMap<usize, u32>,
    pub allowed: BTreeMap<usize, u32>,
    /// Units that failed the movement test, with the property value they may not go below.
    pub restricted: BTreeMap<usize, i64>,
    /// Spaces attacked this impulse, and the combat units that have fought.
    pub attacked: Vec<String>,
    pub fought: BTreeSet<usize>,
    /// Units of this impulse that moved, fought, retreated or advanced.
    pub acted: BTreeSet<usize>,
    /// Pieces apart from the rest of their counter when the impulse began (7.3.1).
    pub apart: Vec<usize>,
    /// Under an order: the units bound to attack (or to approach), and how many of them must.
    pub ordered: Vec<usize>,
    pub order_need: usize,
    /// Whether the order binds them to move next to hostile units rather than attack.
    pub approach: bool,
    /// Units that may not stay where they stand, each with the `leave` rule it leaves by.
    pub leaving: Vec<(usize, usize)>,
    /// City spaces the besiegers contested or held when the impulse began, with their side.
    pub held: Vec<(String, String)>,
    /// Units that made their end-of-turn move.
    pub end_moved: BTreeSet<usize>,
    /// The unit passing through a space where it may not stop: it moves on before anything
    /// else is done.
    pub passing: Option<usize>,
    /// The other sides that were offered, at the start of this impulse, to play a card their
    /// conditions allow then (a chit played at the start of the opponent's impulse).
    pub window: Vec<String>,
    /// In a phase of movement: the unit that moved last (moving another ends its move).
    pub last_mover: Option<usize>,
    /// Units moving by rail in this impulse.
    pub rail: BTreeSet<usize>,
    /// Units that gave attack supply, or supported an attack from a distance, this impulse.
    pub sources_used: BTreeSet<usize>,
    pub supported: BTreeSet<usize>,
    /// An overrun by several units under way: its space, and the units that joined so far.
    pub overrunning: Option<(String, Vec<usize>)>,
}

pub(in crate::rules) fn spec<'c>(rules: &Rules<'c>, at: (usize, usize)) -> Option<&'c Impulses> {
    match rules.game.sequence.get(at.0)?.steps.get(at.1)? {
        Step::Impulses(s) => Some(s),
        _ => None,
    }
}

fn put(state: &mut State, t: ImpulseTask) {
    if let Some(last) = state.flow.tasks.last_mut() {
        *last = Task::Impulses(Box::new(t));
    }
}

/// Starts the operations: the phase track at 1, the first impulse.
pub(super) fn start(rules: &Rules, state: &mut State, at: (usize, usize)) {
    let Some(s) = spec(rules, at) else { return };
    state.tracks.insert(s.track.as_str().into(), 1);
    let mut t = ImpulseTask {
        at,
        impulse: 0,
        passes: Vec::new(),
        stage: Stage::Activate,
        units: Vec::new(),
        spent: 0,
        used: BTreeMap::new(),
        allowed: BTreeMap::new(),
        restricted: BTreeMap::new(),
        attacked: Vec::new(),
        fought: BTreeSet::new(),
        acted: BTreeSet::new(),
        apart: Vec::new(),
        ordered: Vec::new(),
        order_need: 0,
        approach: false,
        leaving: Vec::new(),
        held: Vec::new(),
        end_moved: BTreeSet::new(),
        passing: None,
        window: Vec::new(),
        last_mover: None,
        rail: BTreeSet::new(),
        sources_used: BTreeSet::new(),
        supported: BTreeSet::new(),
        overrunning: None,
    };
    if s.impulses.is_empty() {
        return;
    }
    begin_impulse(rules, state, &mut t);
    state.flow.tasks.push(Task::Impulses(Box::new(t)));
}

/// How many spaces' searches [`hops_to`] keeps per thread.
const KEPT_SEARCHES: usize = 32;

/// How many connections apart every space (by graph index) is from `to` (any connection
/// counts, and joins both ways), `u32::MAX` where it is not joined to it: a search of the
/// whole map, kept per thread for the last [`KEPT_SEARCHES`] spaces asked with the content
/// they belong to (a piece apart from its army asks, for each step it may take, how far it
/// would stand from the pieces it rejoins, which stand still meanwhile).
fn hops_to(rules: &Rules, to: usize) -> std::rc::Rc<[u32]> {
    type Kept = std::collections::VecDeque<(u64, usize, std::rc::Rc<[u32]>)>;
    thread_local! {
        static KEPT: std::cell::RefCell<Kept> = const { std::cell::RefCell::new(Kept::new()) };
    }
    let of = rules.content.memo_id();
    let found = KEPT.with(|k| {
        (k.borrow().iter())
            .find(|(c, t, _)| *c == of && *t == to)
            .map(|(_, _, d)| std::rc::Rc::clone(d))
    });
    if let Some(d) = found {
        return d;
    }
    let g = &rules.content.graph;
    let mut hops = vec![u32::MAX; g.spaces.len()];
    let mut frontier = Vec::new();
    if let Some(start) = hops.get_mut(to) {
        *start = 0;
        frontier.push(to);
    }
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for x in frontier {
            for &(n, _) in g.neighbours(x) {
                if hops[n] == u32::MAX {
                    hops[n] = d;
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    let hops: std::rc::Rc<[u32]> = hops.into();
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.len() >= KEPT_SEARCHES {
            k.pop_front();
        }
        k.push_back((of, to, std::rc::Rc::clone(&hops)));
    });
    hops
}

/// How far every space is from each other piece of a unit's counter on the map: asked for
/// each step a piece apart from its army may take, the pieces found and their searches
/// ([`hops_to`]) taken once.
pub(super) struct OwnPieces(Vec<std::rc::Rc<[u32]>>);

impl OwnPieces {
    pub(super) fn of(rules: &Rules, state: &State, unit: usize) -> OwnPieces {
        let counter = &state.units[unit].counter;
        OwnPieces(
            (state.units.iter().enumerate())
                .filter(|(i, u)| *i != unit && u.counter == *counter)
                .filter_map(|(i, _)| placed(rules, state, i))
                .map(|(_, there)| hops_to(rules, there))
                .collect(),
        )
    }

    /// The farthest, in connections, the space `here` is from the pieces (those it is not
    /// joined to left out; 0 when there are none).
    pub(super) fn farthest(&self, here: usize) -> usize {
        (self.0.iter())
            .filter_map(|hops| hops.get(here).copied())
            .filter(|&d| d != u32::MAX)
            .max()
            .map_or(0, |d| d as usize)
    }
}

/// The pieces of the cohesion nations more than one space from another piece of their counter
/// (one the map joins them to): the pieces of each counter found once, and two spaces more
/// than one connection apart when they are neither the same nor neighbours.
fn apart_pieces(rules: &Rules, state: &State, nations: &[String]) -> Vec<usize> {
    if nations.is_empty() {
        return Vec::new();
    }
    let g = &rules.content.graph;
    let cohesive = |i: usize| nations.iter().any(|n| n == rules.nation(&state.units[i]));
    // Where the pieces of each counter of those nations stand on the map.
    let mut pieces: std::collections::HashMap<crate::Id, Vec<(usize, usize)>> = Default::default();
    let placed_pieces: Vec<(usize, usize)> = (0..state.units.len())
        .filter(|&i| cohesive(i))
        .filter_map(|i| Some((i, placed(rules, state, i)?.1)))
        .collect();
    for &(i, at) in &placed_pieces {
        pieces
            .entry(state.units[i].counter)
            .or_default()
            .push((i, at));
    }
    let joined = joined_parts(rules);
    placed_pieces
        .iter()
        .filter(|&&(i, here)| {
            let own = pieces
                .get(&state.units[i].counter)
                .map_or(&[][..], Vec::as_slice);
            own.iter().any(|&(j, there)| {
                j != i
                    && there != here
                    && g.edge_between(here, there).is_none()
                    && joined.get(here) == joined.get(there)
            })
        })
        .map(|&(i, _)| i)
        .collect()
}

/// The part of the map each space (by graph index) lies in: two spaces have the same number
/// when connections join them. Worked out once per content and thread.
fn joined_parts(rules: &Rules) -> std::rc::Rc<[usize]> {
    thread_local! {
        static KEPT: std::cell::RefCell<Option<(u64, std::rc::Rc<[usize]>)>> =
            const { std::cell::RefCell::new(None) };
    }
    let of = rules.content.memo_id();
    if let Some(parts) = KEPT.with(|k| {
        (k.borrow().as_ref())
            .filter(|(c, _)| *c == of)
            .map(|(_, p)| std::rc::Rc::clone(p))
    }) {
        return parts;
    }
    let g = &rules.content.graph;
    let mut part = vec![usize::MAX; g.spaces.len()];
    for start in 0..g.spaces.len() {
        if part[start] != usize::MAX {
            continue;
        }
        part[start] = start;
        let mut frontier = vec![start];
        while let Some(x) = frontier.pop() {
            for &(n, _) in g.neighbours(x) {
                if part[n] == usize::MAX {
                    part[n] = start;
                    frontier.push(n);
                }
            }
        }
    }
    let parts: std::rc::Rc<[usize]> = part.into();
    KEPT.with(|k| *k.borrow_mut() = Some((of, std::rc::Rc::clone(&parts))));
    parts
}

/// Puts the operations under way at the start of impulse `k` of the current phase (a
/// position prepared by hand: a test's, or a designer's in the playtest) and runs on to the
/// next prompt. Does nothing when no operations are under way.
pub fn start_impulse(rules: &Rules, state: &mut State, k: usize) {
    let Some(t) = under_way(state) else {
        return;
    };
    let mut t = t.clone();
    if spec(rules, t.at).is_none_or(|s| k >= s.impulses.len()) {
        return;
    }
    t.impulse = k;
    t.passes.retain(|&i| i < k);
    begin_impulse(rules, state, &mut t);
    if let Some(slot) = state
        .flow
        .tasks
        .iter_mut()
        .rev()
        .find(|x| matches!(x, Task::Impulses(_)))
    {
        *slot = Task::Impulses(Box::new(t));
    }
    super::resume(rules, state);
}

/// The operations under way, whatever task stands on top of them (a combat).
pub(in crate::rules) fn under_way(state: &State) -> Option<&ImpulseTask> {
    state.flow.tasks.iter().rev().find_map(|t| match t {
        Task::Impulses(t) => Some(&**t),
        _ => None,
    })
}

fn begin_impulse(rules: &Rules, state: &mut State, t: &mut ImpulseTask) {
    state.flow.impulse = t.impulse as u32 + 1;
    t.stage = Stage::Activate;
    t.units.clear();
    t.spent = 0;
    t.used.clear();
    t.allowed.clear();
    t.restricted.clear();
    t.attacked.clear();
    t.fought.clear();
    t.acted.clear();
    t.ordered.clear();
    t.order_need = 0;
    t.approach = false;
    t.leaving = leave::leavers(rules, state, t);
    t.apart = match spec(rules, t.at) {
        Some(s) => apart_pieces(rules, state, &s.cohesion),
        None => Vec::new(),
    };
    t.held.clear();
    t.window.clear();
    t.passing = None;
    t.last_mover = None;
    t.rail.clear();
    t.sources_used.clear();
    t.supported.clear();
    if let Some(city) = spec(rules, t.at).and_then(|s| s.city.as_ref()) {
        for s in &rules.content.graph.spaces {
            if !in_region(rules, &s.id, &city.region) {
                continue;
            }
            if let Some(u) = state
                .units_at(&s.id)
                .find(|(_, u)| city.besiegers.iter().any(|n| n == rules.nation(u)))
            {
                t.held.push((s.id.to_string(), rules.side(u.1).to_string()));
            }
        }
    }
    let retrace = spec(rules, t.at)
        .and_then(|s| s.impulses.get(t.impulse))
        .and_then(|i| i.supply.as_ref());
    if let Some(z) = retrace {
        crate::rules::supply::zones::trace_supply(rules, state, z);
    }
    activate_every(rules, state, t);
}

/// A phase of a player-turn (an impulse with `every`): every unit of its side and nations on
/// the map that the `MayActivate` hooks allow is activated in the phase's mode, and the phase
/// begins at once.
fn activate_every(rules: &Rules, state: &mut State, t: &mut ImpulseTask) {
    let Some(s) = spec(rules, t.at) else { return };
    let Some(imp) = s.impulses.get(t.impulse) else {
        return;
    };
    let Some(every) = imp.every else { return };
    let mode = match every {
        PhaseMode::Move => Mode::Move,
        PhaseMode::Combat => Mode::Combat,
    };
    t.units = (0..state.units.len())
        .filter(|&i| {
            let u = &state.units[i];
            on_map(state, i).is_some()
                && rules.side(u) == imp.side
                && imp.nations.iter().any(|n| n == rules.nation(u))
                && activation(rules, state, t, i, mode).is_some()
        })
        .map(|i| (i, mode))
        .collect();
    if mode == Mode::Move {
        t.stage = Stage::Move;
        prepare_moves(rules, state, t, Mode::Move);
        crossing::hold_resting(state, t);
    } else {
        t.stage = Stage::Combat;
    }
}

/// In a phase of movement, moving a unit ends the last one's move if it was another (a unit
/// once left may not move again, Movement H).
fn takes_hand(rules: &Rules, t: &mut ImpulseTask, u: usize) {
    if !is_phase(rules, t) {
        return;
    }
    if let Some(last) = t.last_mover.filter(|&l| l != u) {
        let allowed = t.allowed.get(&last).copied().unwrap_or(0);
        t.used.insert(last, allowed.max(1));
    }
    t.last_mover = Some(u);
}

/// Whether the impulse under way is a phase of a player-turn.
fn is_phase(rules: &Rules, t: &ImpulseTask) -> bool {
    spec(rules, t.at)
        .and_then(|s| s.impulses.get(t.impulse))
        .is_some_and(|i| i.every.is_some())
}

// ---------------------------------------------------------------------------------------------
// Small facts
// ---------------------------------------------------------------------------------------------

fn in_region(rules: &Rules, space: &str, region: &str) -> bool {
    crate::state::space_in_region(rules.content, space, region)
}

pub(in crate::rules) fn on_map(state: &State, unit: usize) -> Option<&str> {
    match &state.units[unit].at {
        Loc::Space(s) => Some(s.as_str()),
        _ => None,
    }
}

/// The space a unit stands on, with its index in the graph.
fn placed<'s>(rules: &Rules, state: &'s State, unit: usize) -> Option<(&'s str, usize)> {
    let at = on_map(state, unit)?;
    Some((at, rules.content.graph.index_of(at)?))
}

/// Whether two units fight each other: their nations are of different groups.
pub(in crate::rules) fn hostile(rules: &Rules, state: &State, a: usize, b: usize) -> bool {
    let (x, y) = (&state.units[a], &state.units[b]);
    rules.group(rules.nation_id(x)) != rules.group(rules.nation_id(y))
}

pub(in crate::rules) fn hostile_in(rules: &Rules, state: &State, space: &str, unit: usize) -> bool {
    state
        .units_at(space)
        .any(|(i, _)| hostile(rules, state, unit, i))
}

pub(in crate::rules) fn stat(rules: &Rules, state: &State, unit: usize, id: &str) -> i32 {
    let Some(i) = rules.game.stats.iter().position(|s| s.id == id) else {
        return 0;
    };
    let u = &state.units[unit];
    let Some(c) = rules.counter(u) else { return 0 };
    let values = if u.reduced {
        c.back.as_ref().unwrap_or(&c.front)
    } else {
        &c.front
    };
    values.get(i).copied().unwrap_or(0)
}

fn prop(rules: &Rules, space: &str, property: &str) -> i64 {
    match rules
        .content
        .graph
        .space(space)
        .and_then(|s| s.props.get(property))
    {
        Some(crate::model::PropertyValue::Int(n)) => *n,
        _ => 0,
    }
}

pub(in crate::rules) fn is_besieger(
    rules: &Rules,
    state: &State,
    city: &CityCombat,
    unit: usize,
) -> bool {
    city.besiegers
        .iter()
        .any(|n| n == rules.nation(&state.units[unit]))
}

fn besieged_by(rules: &Rules, state: &State, city: &CityCombat, space: &str) -> bool {
    state
        .units_at(space)
        .any(|(i, _)| is_besieger(rules, state, city, i))
}

/// A city space the besiegers contest (there, below the control level) or hold.
fn contested_or_held(rules: &Rules, state: &State, city: &CityCombat, space: &str) -> bool {
    marker_level(state, &city.marker, space) >= city.control_level
        || besieged_by(rules, state, city, space)
}

fn city_of<'c>(rules: &Rules<'c>, at: (usize, usize), space: &str) -> Option<&'c CityCombat> {
    spec(rules, at)?
        .city
        .as_ref()
        .filter(|c| in_region(rules, space, &c.region))
}

// ---------------------------------------------------------------------------------------------
// Supply
// ---------------------------------------------------------------------------------------------
