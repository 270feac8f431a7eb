//! Operations in impulses: the general procedure of a zone game's Operations Phase (Berlin
//! 1945 is the bundled example), and zone supply.
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

use super::procedures::{find_unit, run_rule_script, side_context, stacking_allows};
use super::{battle, losses, movement, retreat, Prompt, Rules, Task};
use crate::model::{
    AttackOrder, Cell, CityCombat, CombatDrm, CombatRole, HookPoint, Impulses, Scalar, Step,
    ZoneSupply,
};
use crate::script::eval::{self, Combat, Context, Outcome, Value};
use crate::state::{marker_level, set_marker_level, Loc, State};
use crate::tables::{ColumnInput, RowInput};

/// The mode a unit is activated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Mode {
    Move,
    Combat,
    Reserve,
}

impl Mode {
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
    /// Under an order to attack: the units bound to attack, and how many of them must.
    pub ordered: Vec<usize>,
    pub order_need: usize,
    pub battle: Option<Box<Battle>>,
    /// City spaces the besiegers contested or held when the impulse began, with their side.
    pub held: Vec<(String, String)>,
    /// Units that made their end-of-turn move.
    pub end_moved: BTreeSet<usize>,
    /// The other sides that were offered, at the start of this impulse, to play a card their
    /// conditions allow then (a chit played at the start of the opponent's impulse).
    pub window: Vec<String>,
}

/// One combat being resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Battle {
    pub space: String,
    pub city: bool,
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    /// Whether the attackers have been chosen.
    pub chosen: bool,
    /// A besieger's extra support point for +1, once asked.
    pub extra: Option<bool>,
    pub resolved: bool,
    /// Step losses still to take.
    pub attacker_losses: u32,
    pub defender_losses: u32,
    /// Losses taken in this combat, by unit; and how many were taken in turn by the sides.
    pub taken: BTreeMap<usize, u32>,
    pub turn: usize,
    pub retreat: bool,
    pub advanced: u32,
    /// The spaces the attackers attacked from.
    pub from: Vec<String>,
    /// Sides that were offered their combat cards; the card being played, with its player
    /// and the answers given so far.
    pub offered: Vec<String>,
    pub card: Option<(String, String, Vec<Vec<String>>)>,
    /// The steps of the attackers and of the defenders when the combat was resolved.
    pub steps_before: (u32, u32),
}

fn spec<'c>(rules: &Rules<'c>, at: (usize, usize)) -> Option<&'c Impulses> {
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
    state.tracks.insert(s.track.clone(), 1);
    let mut t = ImpulseTask {
        at,
        impulse: 0,
        passes: Vec::new(),
        stage: Stage::Activate,
        units: Vec::new(),
        used: BTreeMap::new(),
        allowed: BTreeMap::new(),
        restricted: BTreeMap::new(),
        attacked: Vec::new(),
        fought: BTreeSet::new(),
        acted: BTreeSet::new(),
        apart: Vec::new(),
        ordered: Vec::new(),
        order_need: 0,
        battle: None,
        held: Vec::new(),
        end_moved: BTreeSet::new(),
        window: Vec::new(),
    };
    if s.impulses.is_empty() {
        return;
    }
    begin_impulse(rules, state, &mut t);
    state.flow.tasks.push(Task::Impulses(Box::new(t)));
}

/// How many connections apart two spaces are (any connection counts), if they are joined.
fn hops(rules: &Rules, from: usize, to: usize) -> Option<usize> {
    let g = &rules.content.graph;
    let mut seen = vec![false; g.spaces.len()];
    let mut frontier = vec![from];
    seen[from] = true;
    for d in 0..g.spaces.len() {
        if frontier.contains(&to) {
            return Some(d);
        }
        let mut next = Vec::new();
        for x in frontier {
            for &(n, _) in g.neighbours(x) {
                if !seen[n] {
                    seen[n] = true;
                    next.push(n);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        frontier = next;
    }
    None
}

/// The farthest, in connections, a piece stands from another piece of its counter on the map
/// (0 when it is alone or with them).
fn apart_from_its_own(rules: &Rules, state: &State, unit: usize) -> usize {
    match placed(rules, state, unit) {
        Some((_, here)) => farthest_own(rules, state, unit, here),
        None => 0,
    }
}

/// The farthest, in connections, a space is from the other pieces of a unit's counter.
fn farthest_own(rules: &Rules, state: &State, unit: usize, here: usize) -> usize {
    let counter = &state.units[unit].counter;
    state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| *i != unit && u.counter == *counter)
        .filter_map(|(i, _)| placed(rules, state, i))
        .filter_map(|(_, there)| hops(rules, here, there))
        .max()
        .unwrap_or(0)
}

/// The pieces of the cohesion nations more than one space from another piece of their counter.
fn apart_pieces(rules: &Rules, state: &State, nations: &[String]) -> Vec<usize> {
    if nations.is_empty() {
        return Vec::new();
    }
    (0..state.units.len())
        .filter(|&i| nations.iter().any(|n| n == rules.nation(&state.units[i])))
        .filter(|&i| apart_from_its_own(rules, state, i) > 1)
        .collect()
}

/// Puts the operations under way at the start of impulse `k` of the current phase (a
/// position prepared by hand: a test's, or a designer's in the playtest) and runs on to the
/// next prompt. Does nothing when no operations are under way.
pub fn start_impulse(rules: &Rules, state: &mut State, k: usize) {
    let Some(Task::Impulses(t)) = state
        .flow
        .tasks
        .iter()
        .rev()
        .find(|t| matches!(t, Task::Impulses(_)))
        .cloned()
    else {
        return;
    };
    let mut t = *t;
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

fn begin_impulse(rules: &Rules, state: &mut State, t: &mut ImpulseTask) {
    state.flow.impulse = t.impulse as u32 + 1;
    t.stage = Stage::Activate;
    t.units.clear();
    t.used.clear();
    t.allowed.clear();
    t.restricted.clear();
    t.attacked.clear();
    t.fought.clear();
    t.acted.clear();
    t.ordered.clear();
    t.order_need = 0;
    t.apart = match spec(rules, t.at) {
        Some(s) => apart_pieces(rules, state, &s.cohesion),
        None => Vec::new(),
    };
    t.battle = None;
    t.held.clear();
    t.window.clear();
    if let Some(city) = spec(rules, t.at).and_then(|s| s.city.as_ref()) {
        for s in &rules.content.graph.spaces {
            if !in_region(rules, &s.id, &city.region) {
                continue;
            }
            if let Some(u) = state
                .units_at(&s.id)
                .find(|(_, u)| city.besiegers.iter().any(|n| n == rules.nation(u)))
            {
                t.held.push((s.id.clone(), rules.side(u.1).to_string()));
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Small facts
// ---------------------------------------------------------------------------------------------

fn in_region(rules: &Rules, space: &str, region: &str) -> bool {
    crate::state::space_in_region(rules.content, space, region)
}

fn on_map(state: &State, unit: usize) -> Option<&str> {
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
fn hostile(rules: &Rules, state: &State, a: usize, b: usize) -> bool {
    let (x, y) = (&state.units[a], &state.units[b]);
    rules.group(rules.nation(x)) != rules.group(rules.nation(y))
}

fn hostile_in(rules: &Rules, state: &State, space: &str, unit: usize) -> bool {
    state
        .units_at(space)
        .any(|(i, _)| hostile(rules, state, unit, i))
}

fn stat(rules: &Rules, state: &State, unit: usize, id: &str) -> i32 {
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

fn is_besieger(rules: &Rules, state: &State, city: &CityCombat, unit: usize) -> bool {
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

/// Marks the units on the map that cannot trace supply as out of supply, until the next such
/// step.
pub(super) fn trace_supply(rules: &Rules, state: &mut State, spec: &ZoneSupply) {
    let g = &rules.content.graph;
    let mut oos = BTreeSet::new();
    // One search per (nation, side): the spaces a line reaches.
    let mut reached: BTreeMap<(String, String), Vec<bool>> = BTreeMap::new();
    for (i, u) in state.units.iter().enumerate() {
        let Loc::Space(at) = &u.at else { continue };
        let nation = rules.nation(u).to_string();
        let side = rules.side(u).to_string();
        if spec
            .always
            .iter()
            .any(|a| a.nations.contains(&nation) && in_region(rules, at, &a.region))
        {
            continue;
        }
        let key = (nation.clone(), side.clone());
        if !reached.contains_key(&key) {
            let r = supply_reach(rules, state, spec, i);
            reached.insert(key.clone(), r);
        }
        let ok = g
            .index_of(at)
            .is_some_and(|x| reached[&key].get(x).copied().unwrap_or(false));
        if !ok {
            oos.insert(i);
        }
    }
    state.flow.oos = oos;
}

/// The spaces a unit's supply line reaches from its nation's sources.
fn supply_reach(rules: &Rules, state: &State, spec: &ZoneSupply, unit: usize) -> Vec<bool> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let (nation, side) = (rules.nation(u), rules.side(u));
    let group = rules.group(nation);
    let blocked_by_friends = spec.blocked_by_other_sides.iter().any(|n| n == nation);
    let holds_hostile = |s: &str| {
        state
            .units_at(s)
            .any(|(_, x)| rules.group(rules.nation(x)) != group)
    };
    let holds_own = |s: &str| state.units_at(s).any(|(_, x)| rules.side(x) == side);
    let passable: Vec<bool> = g
        .spaces
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if spec
                .closed_markers
                .iter()
                .any(|m| marker_level(state, m, &s.id) > 0)
            {
                return false;
            }
            if blocked_by_friends
                && state
                    .units_at(&s.id)
                    .any(|(_, x)| rules.side(x) != side && rules.group(rules.nation(x)) == group)
            {
                return false;
            }
            if holds_hostile(&s.id) {
                // A contested space: only if own units contest it (3.1.2).
                return holds_own(&s.id);
            }
            if state.units_at(&s.id).next().is_none() {
                // An empty space next to a hostile unit is not free.
                return !g
                    .neighbours(i)
                    .iter()
                    .any(|&(n, _)| holds_hostile(&g.spaces[n].id));
            }
            true
        })
        .collect();
    let mut reached = vec![false; g.spaces.len()];
    let mut queue: Vec<usize> = g
        .spaces
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            passable[*i]
                && s.supply
                    .iter()
                    .any(|x| x.nations.iter().any(|n| n == nation))
        })
        .map(|(i, _)| i)
        .collect();
    for &q in &queue {
        reached[q] = true;
    }
    let reach = super::supply::max_reach(rules.content, state, nation, side);
    let open = |e: usize, n: usize| {
        passable[n] && !g.edges[e].kinds.iter().any(|k| spec.not_across.contains(k))
    };
    super::supply::trace(
        rules.content,
        (&mut reached, std::mem::take(&mut queue)),
        reach,
        |_| true,
        open,
    );
    // A unit's own space counts when it can reach a passable neighbour or is a source.
    let mut out = reached.clone();
    for (i, r) in out.iter_mut().enumerate() {
        if !*r
            && g.neighbours(i).iter().any(|&(n, e)| {
                reached[n] && !g.edges[e].kinds.iter().any(|k| spec.not_across.contains(k))
            })
        {
            *r = true;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Prompts
// ---------------------------------------------------------------------------------------------

/// Runs the operations on: the prompt they ask, or none when the state moved on.
pub(super) fn step(rules: &Rules, state: &mut State, mut t: ImpulseTask) -> Option<Prompt> {
    let Some(s) = spec(rules, t.at) else {
        state.flow.tasks.pop();
        return None;
    };
    let Some(imp) = s.impulses.get(t.impulse) else {
        state.flow.tasks.pop();
        return None;
    };
    let side = imp.side.as_str();
    match t.stage {
        Stage::Activate => {
            if t.units.is_empty() {
                // Before the side acts, the others may play what may be played now.
                for other in &rules.game.sides {
                    if other.id == side || t.window.contains(&other.id) {
                        continue;
                    }
                    let cards: Vec<String> = playable_chits(rules, state, &other.id)
                        .map(|c| format!("event {c}"))
                        .collect();
                    if cards.is_empty() {
                        continue;
                    }
                    let mut options = cards;
                    options.push("no card".into());
                    return Some(Prompt::one_of(
                        &other.id,
                        "event",
                        format!("Start of {}: play an event chit?", imp.name),
                        options,
                    ));
                }
            }
            Some(activate_prompt(rules, state, s, &t))
        }
        Stage::Move | Stage::Reserve => {
            let mode = if t.stage == Stage::Move {
                Mode::Move
            } else {
                Mode::Reserve
            };
            let options = move_options(rules, state, &t, mode);
            if options.is_empty() {
                if t.stage == Stage::Move {
                    t.stage = Stage::Combat;
                    put(state, t);
                } else {
                    end_impulse(rules, state, t);
                }
                return None;
            }
            Some(with_done(
                side,
                "move",
                format!(
                    "{}: move the units activated in {} mode, then done",
                    imp.name,
                    mode.word()
                ),
                options,
            ))
        }
        Stage::Combat => {
            if let Some(b) = t.battle.clone() {
                return battle_step(rules, state, t, *b);
            }
            let options = attack_options(rules, state, &t);
            if options.is_empty() {
                t.stage = Stage::Reserve;
                prepare_moves(rules, state, &mut t, Mode::Reserve);
                put(state, t);
                return None;
            }
            if order_pending(rules, state, s, &t) {
                return Some(Prompt::one_of(
                    side,
                    "attack",
                    format!(
                        "{}: the order to attack binds these units: attack",
                        imp.name
                    ),
                    options,
                ));
            }
            Some(with_done(
                side,
                "attack",
                format!(
                    "{}: attack with the units activated in combat mode, then done",
                    imp.name
                ),
                options,
            ))
        }
        Stage::EndMove => {
            let options = end_move_options(rules, state, &t);
            if options.is_empty() {
                next_end_move(rules, state, t);
                return None;
            }
            Some(with_done(
                side,
                "move",
                format!(
                    "End of turn ({}): units not activated may move one space, then done",
                    imp.name
                ),
                options,
            ))
        }
    }
}

/// A prompt of these options and `done`.
fn with_done(side: &str, kind: &str, question: String, mut options: Vec<String>) -> Prompt {
    options.push("done".into());
    Prompt::one_of(side, kind, question, options)
}

fn max_units(state: &State, s: &Impulses) -> usize {
    s.more_units
        .iter()
        .filter(|m| state.flags.contains(&m.flag))
        .map(|m| m.units)
        .fold(s.units, u32::max) as usize
}

fn activate_prompt(rules: &Rules, state: &State, s: &Impulses, t: &ImpulseTask) -> Prompt {
    let imp = &s.impulses[t.impulse];
    let mut options = Vec::new();
    if t.units.len() < max_units(state, s) {
        for (i, u) in state.units.iter().enumerate() {
            if on_map(state, i).is_none()
                || rules.side(u) != imp.side
                || !imp.nations.iter().any(|n| n == rules.nation(u))
                || state.flow.activated.contains(&i)
                || t.units.iter().any(|(x, _)| *x == i)
            {
                continue;
            }
            let name = u.name(rules.content);
            options.push(format!("activate {name} move"));
            if t.apart.contains(&i) {
                // Apart from its army: it may only move back to it (7.3.1).
                continue;
            }
            options.push(format!("activate {name} combat"));
            if !state.flow.oos.contains(&i) {
                options.push(format!("activate {name} reserve"));
            }
        }
    }
    let order = order_status(rules, state, s, t);
    let full = t.units.len() >= max_units(state, s);
    if t.units.is_empty() {
        options.extend(playable_chits(rules, state, &imp.side).map(|c| format!("event {c}")));
    }
    match order {
        // An order to attack: no pass, and go once it is met (or nothing more can be done).
        Some(o) if o.need > 0 => {
            if o.met || full {
                options.push("go".into());
            }
        }
        _ if t.units.is_empty() => options.push("pass".into()),
        _ => options.push("go".into()),
    }
    Prompt::one_of(
        &imp.side,
        "activate",
        format!(
            "{}: activate up to {} units (movement, combat or reserve), then go; or pass",
            imp.name,
            max_units(state, s)
        ),
        options,
    )
}

/// Where an order to attack stands at activation.
struct OrderStatus {
    /// The units it binds that may attack, and how many of them must.
    able: Vec<usize>,
    need: usize,
    /// Whether the units activated in combat mode meet it.
    met: bool,
}

/// The order to attack that binds this impulse, if its flag is set.
fn order_now<'c>(
    state: &State,
    s: &'c Impulses,
    t: &ImpulseTask,
) -> Option<(usize, &'c AttackOrder)> {
    s.orders
        .iter()
        .enumerate()
        .find(|(_, o)| o.impulse == t.impulse && state.flags.contains(&o.flag))
}

fn order_status(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    t: &ImpulseTask,
) -> Option<OrderStatus> {
    let (k, order) = order_now(state, s, t)?;
    let imp = &s.impulses[t.impulse];
    let exempt = format!("{}/orders/{k}/exempt", pointer(t.at));
    let able: Vec<usize> = state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| {
            on_map(state, *i).is_some()
                && rules.side(u) == imp.side
                && imp.nations.iter().any(|n| n == rules.nation(u))
                && !state.flow.activated.contains(i)
                && !attack_targets(rules, state, s, *i).is_empty()
                && !{
                    let ctx = Context {
                        names: vec![("u".into(), Value::Unit(*i))],
                        ..side_context(rules, &imp.side)
                    };
                    holds(rules, state, &exempt, &ctx)
                }
        })
        .map(|(i, _)| i)
        .collect();
    let need = (order.units as usize).min(able.len());
    let preferred = |u: &usize| {
        order
            .prefer_types
            .iter()
            .any(|x| x == rules.unit_type(&state.units[*u]))
    };
    let chosen: Vec<usize> = t
        .units
        .iter()
        .filter(|(u, m)| *m == Mode::Combat && able.contains(u))
        .map(|(u, _)| *u)
        .collect();
    let met = chosen.len() >= need && (!able.iter().any(preferred) || chosen.iter().any(preferred));
    Some(OrderStatus { able, need, met })
}

/// Whether units bound by an order must still attack: fewer than needed have fought and one
/// that has not can still attack a space not attacked yet.
fn order_pending(rules: &Rules, state: &State, s: &Impulses, t: &ImpulseTask) -> bool {
    let fought = t.ordered.iter().filter(|u| t.fought.contains(u)).count();
    fought < t.order_need
        && t.ordered.iter().any(|&u| {
            !t.fought.contains(&u)
                && attack_targets(rules, state, s, u)
                    .iter()
                    .any(|x| !t.attacked.contains(x))
        })
}

/// The event chits a side holds whose condition allows them now.
fn playable_chits<'s>(
    rules: &'s Rules,
    state: &'s State,
    side: &'s str,
) -> impl Iterator<Item = &'s String> + 's {
    let ctx = side_context(rules, side);
    state
        .hands
        .get(side)
        .into_iter()
        .flatten()
        .filter(move |card| {
            let scripts = rules.content.scripts.get(card.as_str());
            scripts.is_some_and(|s| s.effect.is_some())
                && scripts
                    .and_then(|s| s.playable.as_ref())
                    .is_none_or(|c| eval::condition(c, rules.content, state, &ctx).unwrap_or(false))
        })
}

/// Sets each unit of a mode its movement allowance, in half points: all of it in movement
/// mode, half in reserve; one space only when out of supply.
fn prepare_moves(rules: &Rules, state: &mut State, t: &mut ImpulseTask, mode: Mode) {
    let Some(s) = spec(rules, t.at) else { return };
    t.used.clear();
    t.allowed.clear();
    let faces = rules.game.dice.faces;
    for &(u, m) in &t.units.clone() {
        if m != mode || on_map(state, u).is_none() {
            continue;
        }
        let ma = movement::allowance(rules, state, u, stat(rules, state, u, &s.movement));
        let halves = if mode == Mode::Reserve { ma } else { ma * 2 };
        let halves = if state.flow.oos.contains(&u) {
            1
        } else {
            halves
        };
        t.allowed.insert(u, halves);
        t.used.insert(u, 0);
        if mode != Mode::Move {
            continue;
        }
        // The movement test (7.2.2).
        let Some(test) = &s.movement_rules.move_test else {
            continue;
        };
        let nation = rules.nation(&state.units[u]).to_string();
        if !test.nations.contains(&nation)
            || test
                .lifted_by
                .iter()
                .any(|l| state.flags.contains(&l.flag) && l.nations.contains(&nation))
        {
            continue;
        }
        let Some(table) = rules.content.tables.iter().find(|x| x.id == test.table) else {
            continue;
        };
        let roll = state.roll(faces) as i32;
        let column = ColumnInput::Strength(state.turn as i32);
        let cell = table.lookup(column, 0, RowInput::Roll { roll, drm: 0 }, faces);
        let passed =
            matches!(cell, Ok(Cell::Scalar(Scalar::Symbol(r))) if *r == test.pass) || cell.is_err();
        if let Ok(c) = cell {
            let col = table.column(column).unwrap_or(0);
            state.record.roll(&table.id, col, c.to_string());
        }
        let name = state.units[u].name(rules.content);
        if !passed {
            let at = on_map(state, u).unwrap_or_default().to_string();
            t.restricted.insert(u, prop(rules, &at, &test.property));
            state.flow.messages.push(format!(
                "{name} rolls {roll} on {}: it may not move to a lower {}",
                table.id, test.property
            ));
        }
    }
}

/// Whether a unit may step from where it is into a neighbouring space, by the connection
/// `edge`, moving (not retreating).
fn may_step(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    from: &str,
    to: usize,
    edge: usize,
) -> bool {
    let g = &rules.content.graph;
    let to_id = g.spaces[to].id.as_str();
    if barred(rules, state, s, unit, edge) || is_closed(state, s, to_id) {
        return false;
    }
    if hostile_in(rules, state, to_id, unit)
        && !s
            .movement_rules
            .enter_hostile_in
            .iter()
            .any(|r| in_region(rules, to_id, r))
    {
        return false;
    }
    if let Some(city) = &s.city {
        let (from_city, to_city) = (
            in_region(rules, from, &city.region),
            in_region(rules, to_id, &city.region),
        );
        if !is_besieger(rules, state, city, unit) {
            // Defenders may not enter a contested or held city space from outside, nor leave
            // the city from one (7.4.1, 7.4.2).
            if to_city && !from_city && contested_or_held(rules, state, city, to_id) {
                return false;
            }
            if from_city && !to_city && contested_or_held(rules, state, city, from) {
                return false;
            }
        }
    }
    stacking_allows(rules, state, unit, to_id)
}

/// Whether a unit's move must end in a space (a city space it does not hold).
fn stops_in(rules: &Rules, state: &State, s: &Impulses, unit: usize, space: &str) -> bool {
    if hostile_in(rules, state, space, unit) {
        return true;
    }
    match &s.city {
        Some(city) if in_region(rules, space, &city.region) => {
            if is_besieger(rules, state, city, unit) {
                marker_level(state, &city.marker, space) < city.control_level
            } else {
                contested_or_held(rules, state, city, space)
            }
        }
        _ => false,
    }
}

fn move_options(rules: &Rules, state: &State, t: &ImpulseTask, mode: Mode) -> Vec<String> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    let g = &rules.content.graph;
    let mut options = Vec::new();
    for &(u, m) in &t.units {
        if m != mode {
            continue;
        }
        let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
            continue;
        };
        if used >= allowed && used > 0 {
            continue;
        }
        let Some(from) = on_map(state, u) else {
            continue;
        };
        let name = state.units[u].name(rules.content);
        // A piece apart from its army moves only to rejoin it, and stops when it has.
        let rejoining = t
            .apart
            .contains(&u)
            .then(|| apart_from_its_own(rules, state, u));
        if rejoining.is_some_and(|d| d <= 1) {
            continue;
        }
        let lifted = lifted_kinds(state, s, u);
        let may = |n: usize, e: usize| {
            let floor = t.restricted.get(&u);
            floor.is_none_or(|&f| prop(rules, &g.spaces[n].id, &restricted_property(s)) >= f)
                && rejoining.is_none_or(|d| farthest_own(rules, state, u, n) < d)
                && may_step(rules, state, s, u, from, n, e)
        };
        for n in movement::destinations(rules, state, u, ((used, allowed), &lifted), may) {
            options.push(format!("move {name} {}", g.spaces[n].id));
        }
    }
    options
}

/// What a step across a connection into a space costs, in half points, with the costs an
/// event lifts.
fn move_cost(rules: &Rules, state: &State, s: &Impulses, unit: usize, step: (usize, usize)) -> u32 {
    movement::step_cost(rules, state, unit, step, &lifted_kinds(state, s, unit))
}

/// The connection kinds whose extra cost an event lifts for a unit.
fn lifted_kinds<'s>(state: &State, s: &'s Impulses, unit: usize) -> Vec<&'s String> {
    s.movement_rules
        .ignore_costs
        .iter()
        .filter(|f| state.flags.contains(&f.flag) || state.unit_flag(unit, &f.flag))
        .flat_map(|f| &f.kinds)
        .collect()
}

fn restricted_property(s: &Impulses) -> String {
    s.movement_rules
        .move_test
        .as_ref()
        .map_or_else(String::new, |m| m.property.clone())
}

fn attack_options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<String> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    let mut targets = BTreeSet::new();
    let mut sieges = BTreeSet::new();
    for &(u, m) in &t.units {
        if !fights(state, s, u, m) || t.fought.contains(&u) {
            continue;
        }
        let Some(at) = on_map(state, u) else { continue };
        for target in attack_targets(rules, state, s, u) {
            if !t.attacked.contains(&target) {
                targets.insert(target);
            }
        }
        if let Some(city) = city_of(rules, t.at, at) {
            if may_siege(rules, state, city, u) && !t.attacked.iter().any(|x| x == at) {
                sieges.insert(at.to_string());
            }
        }
    }
    // Defenders of a city may bring in units from one adjacent space outside it (9.2.4).
    targets
        .into_iter()
        .map(|x| format!("attack {x}"))
        .chain(sieges.into_iter().map(|x| format!("city {x}")))
        .collect()
}

/// Whether units of a mode may attack: combat mode, or movement mode under an event that
/// lets them do both.
fn fights(state: &State, s: &Impulses, unit: usize, mode: Mode) -> bool {
    mode == Mode::Combat
        || mode == Mode::Move
            && s.move_and_attack
                .iter()
                .any(|f| state.flags.contains(f) || state.unit_flag(unit, f))
}

/// The spaces a unit may attack from where it stands.
fn attack_targets(rules: &Rules, state: &State, s: &Impulses, unit: usize) -> Vec<String> {
    let g = &rules.content.graph;
    let Some((at, fi)) = placed(rules, state, unit) else {
        return Vec::new();
    };
    // A unit sharing its space with hostile units fights only there (a city); one in a closed
    // space does not attack (2.2.8).
    if hostile_in(rules, state, at, unit) || is_closed(state, s, at) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &(n, e) in g.neighbours(fi) {
        let to = &g.spaces[n].id;
        if g.edges[e]
            .kinds
            .iter()
            .any(|k| s.combat.not_across.contains(k))
            || s.combat.not_into.iter().any(|r| in_region(rules, to, r))
            || !hostile_in(rules, state, to, unit)
            || !battle::may_attack(rules, state, unit, at, to)
        {
            continue;
        }
        out.push(to.clone());
    }
    out
}

/// Whether a unit in a city space may fight there on the city table.
fn may_siege(rules: &Rules, state: &State, city: &CityCombat, unit: usize) -> bool {
    let Some(at) = on_map(state, unit) else {
        return false;
    };
    if is_besieger(rules, state, city, unit) {
        let side = rules.side(&state.units[unit]);
        !state.flow.oos.contains(&unit)
            && support(state, city, side) >= 1
            && (hostile_in(rules, state, at, unit) || garrison(rules, state, city, at) > 0)
    } else {
        besieged_by(rules, state, city, at)
    }
}

fn support_track<'c>(city: &'c CityCombat, side: &str) -> Option<&'c str> {
    city.support
        .iter()
        .find(|x| x.side == side)
        .map(|x| x.track.as_str())
}

fn support(state: &State, city: &CityCombat, side: &str) -> i64 {
    support_track(city, side).map_or(0, |t| state.track(t))
}

fn garrison(rules: &Rules, state: &State, city: &CityCombat, space: &str) -> i64 {
    match &city.garrison_override {
        Some((flag, value)) if state.flags.contains(flag) => i64::from(*value),
        _ => prop(rules, space, &city.garrison),
    }
}

fn end_move_options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<String> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    let Some(em) = &s.end_move else {
        return Vec::new();
    };
    let imp = &s.impulses[t.impulse];
    let g = &rules.content.graph;
    let mut options = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Some(from) = on_map(state, i) else {
            continue;
        };
        if rules.side(u) != imp.side
            || !imp.nations.iter().any(|n| n == rules.nation(u))
            || state.flow.activated.contains(&i)
            || state.flow.oos.contains(&i)
            || t.end_moved.contains(&i)
            || hostile_in(rules, state, from, i)
        {
            continue;
        }
        let Some(fi) = g.index_of(from) else { continue };
        let test = s.movement_rules.move_test.as_ref().filter(|m| {
            m.nations.iter().any(|n| n == rules.nation(u))
                && !m.lifted_by.iter().any(|l| {
                    state.flags.contains(&l.flag) && l.nations.iter().any(|n| n == rules.nation(u))
                })
        });
        let name = u.name(rules.content);
        for &(n, e) in g.neighbours(fi) {
            let to = &g.spaces[n].id;
            if em.not_into.iter().any(|r| in_region(rules, to, r)) {
                continue;
            }
            // The westward restriction still holds, without a test (5.1).
            if let Some(m) = test {
                if prop(rules, to, &m.property) < prop(rules, from, &m.property) {
                    continue;
                }
            }
            if hostile_in(rules, state, to, i) || !may_step(rules, state, s, i, from, n, e) {
                continue;
            }
            options.push(format!("move {name} {to}"));
        }
    }
    options
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

/// Performs a legal action of the operations.
pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    prompt: &Prompt,
    words: &[&str],
) -> Result<(), String> {
    let s = spec(rules, t.at).ok_or("the operations have no parameters")?;
    match (t.stage, words) {
        (Stage::Activate, ["pass"]) => {
            end_impulse(rules, state, t);
            Ok(())
        }
        (Stage::Activate, ["go"]) => {
            if let Some(o) = order_status(rules, state, s, &t) {
                t.ordered = t
                    .units
                    .iter()
                    .filter(|(u, m)| *m == Mode::Combat && o.able.contains(u))
                    .map(|(u, _)| *u)
                    .collect();
                t.order_need = o.need;
            }
            t.stage = Stage::Move;
            prepare_moves(rules, state, &mut t, Mode::Move);
            put(state, t);
            Ok(())
        }
        (Stage::Activate, ["activate", unit, mode]) => {
            let u = find_unit(rules, state, unit)?;
            let mode = match *mode {
                "move" => Mode::Move,
                "combat" => Mode::Combat,
                _ => Mode::Reserve,
            };
            t.units.push((u, mode));
            put(state, t);
            Ok(())
        }
        (Stage::Activate, ["event", card]) => {
            let side = prompt.side.clone();
            if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|c| c != card);
            }
            if side != s.impulses[t.impulse].side {
                t.window.push(side.clone());
                put(state, t);
            }
            play_chit(state, &side, card);
            Ok(())
        }
        (Stage::Activate, ["no", "card"]) => {
            t.window.push(prompt.side.clone());
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve | Stage::EndMove, ["done"]) => {
            match t.stage {
                Stage::Move => t.stage = Stage::Combat,
                Stage::Reserve => {
                    end_impulse(rules, state, t);
                    return Ok(());
                }
                _ => {
                    next_end_move(rules, state, t);
                    return Ok(());
                }
            }
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve | Stage::EndMove, ["move", unit, to]) => {
            let u = find_unit(rules, state, unit)?;
            let g = &rules.content.graph;
            let from = on_map(state, u)
                .ok_or("the unit is not on the map")?
                .to_string();
            let (fi, ti) = (
                g.index_of(&from).ok_or("no such space")?,
                g.index_of(to).ok_or("no such space")?,
            );
            let edge = g
                .neighbours(fi)
                .iter()
                .find(|&&(n, _)| n == ti)
                .map(|&(_, e)| e)
                .ok_or("not adjacent")?;
            let cost = move_cost(rules, state, s, u, (edge, ti));
            if t.stage == Stage::EndMove {
                t.end_moved.insert(u);
            } else {
                t.acted.insert(u);
                let used = t.used.entry(u).or_insert(0);
                *used += cost;
            }
            enter(rules, state, s, u, to);
            movement::after_step(rules, state, HookPoint::AfterMove, u, (&from, to));
            if t.stage != Stage::EndMove && stops_in(rules, state, s, u, to) {
                let allowed = t.allowed.get(&u).copied().unwrap_or(0);
                t.used.insert(u, allowed.max(1));
            }
            put(state, t);
            Ok(())
        }
        (Stage::Combat, ["done"]) if t.battle.is_none() => {
            t.stage = Stage::Reserve;
            prepare_moves(rules, state, &mut t, Mode::Reserve);
            put(state, t);
            Ok(())
        }
        (Stage::Combat, ["attack", space]) if t.battle.is_none() => {
            t.attacked.push(space.to_string());
            t.battle = Some(Box::new(new_battle(space, false)));
            put(state, t);
            Ok(())
        }
        (Stage::Combat, ["city", space]) if t.battle.is_none() => {
            t.attacked.push(space.to_string());
            t.battle = Some(Box::new(new_battle(space, true)));
            put(state, t);
            Ok(())
        }
        (Stage::Combat, _) => battle_act(rules, state, t, prompt, words),
        _ => Err("not an action of the operations".into()),
    }
}

fn new_battle(space: &str, city: bool) -> Battle {
    Battle {
        space: space.to_string(),
        city,
        attackers: Vec::new(),
        defenders: Vec::new(),
        chosen: false,
        extra: None,
        resolved: false,
        attacker_losses: 0,
        defender_losses: 0,
        taken: BTreeMap::new(),
        turn: 0,
        retreat: false,
        advanced: 0,
        from: Vec::new(),
        offered: Vec::new(),
        card: None,
        steps_before: (0, 0),
    }
}

/// Puts a unit in a space it moved, retreated or advanced into: control of a space with
/// victory points passes to a capturer, or back to no one when a hostile unit enters.
fn enter(rules: &Rules, state: &mut State, s: &Impulses, unit: usize, space: &str) {
    state.units[unit].at = Loc::Space(space.to_string());
    let vp = rules.content.graph.space(space).map_or(0, |x| x.vp);
    let in_city = s
        .city
        .as_ref()
        .is_some_and(|c| in_region(rules, space, &c.region));
    if vp == 0 || in_city || s.capturers.is_empty() {
        return;
    }
    let u = &state.units[unit];
    let (nation, side) = (rules.nation(u).to_string(), rules.side(u).to_string());
    let controller = state.control.get(space).cloned();
    if s.capturers.contains(&nation) {
        // The first capturing side keeps it against the other capturers (7.3.4).
        if controller.is_none() {
            state.set_control(space, Some(&side));
            movement::after_capture(rules, state, &side, space);
        }
    } else if controller.is_some() {
        state.set_control(space, None);
    }
}

/// An event chit played: its script runs as an event task, answered like any other decision.
fn play_chit(state: &mut State, side: &str, card: &str) {
    state.flow.tasks.push(Task::Event {
        side: side.to_string(),
        card: card.to_string(),
        answers: Vec::new(),
        then_ops: None,
    });
}

// ---------------------------------------------------------------------------------------------
// Combat
// ---------------------------------------------------------------------------------------------

fn attacker_pool(rules: &Rules, state: &State, t: &ImpulseTask, b: &Battle) -> Vec<usize> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    t.units
        .iter()
        .filter(|(u, m)| {
            fights(state, s, *u, *m) && !t.fought.contains(u) && on_map(state, *u).is_some()
        })
        .map(|(u, _)| *u)
        .filter(|&u| {
            let at = on_map(state, u).unwrap_or_default();
            if b.city {
                let helper = s.city.as_ref().is_some_and(|c| {
                    c.helpers_from_outside
                        && !is_besieger(rules, state, c, u)
                        && !in_region(rules, at, &c.region)
                        && rules.content.graph.index_of(at).is_some_and(|i| {
                            rules
                                .content
                                .graph
                                .neighbours(i)
                                .iter()
                                .any(|&(n, _)| rules.content.graph.spaces[n].id == b.space)
                        })
                });
                (at == b.space
                    && s.city
                        .as_ref()
                        .is_some_and(|c| may_siege(rules, state, c, u)))
                    || helper
            } else {
                attack_targets(rules, state, s, u).contains(&b.space)
            }
        })
        .collect()
}

fn defenders_of(rules: &Rules, state: &State, b: &Battle, attacker: usize) -> Vec<usize> {
    state
        .units_at(&b.space)
        .filter(|(i, _)| hostile(rules, state, attacker, *i))
        .map(|(i, _)| i)
        .collect()
}

fn battle_step(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    mut b: Battle,
) -> Option<Prompt> {
    let s = spec(rules, t.at)?;
    let side = s.impulses[t.impulse].side.clone();
    if !b.chosen {
        let pool = attacker_pool(rules, state, &t, &b);
        if pool.is_empty() {
            t.battle = None;
            put(state, t);
            return None;
        }
        let names: Vec<String> = pool
            .iter()
            .map(|&u| state.units[u].name(rules.content))
            .collect();
        let max = names.len();
        return Some(Prompt {
            side,
            kind: "attackers".into(),
            question: format!("Which units attack {}?", b.space),
            options: names,
            pick: Some((1, max)),
        });
    }
    if b.city && b.extra.is_none() {
        if let Some(city) = &s.city {
            let besieging = b
                .attackers
                .first()
                .is_some_and(|&u| is_besieger(rules, state, city, u));
            if besieging && support(state, city, &side) >= 2 {
                return Some(Prompt::one_of(
                    &side,
                    "support",
                    "Spend a second support point for a +1 DRM?",
                    vec!["support yes".into(), "support no".into()],
                ));
            }
        }
        b.extra = Some(false);
    }
    if !b.resolved {
        if let Some(p) = reaction_step(rules, state, s, &t, &mut b) {
            t.battle = Some(Box::new(b));
            put(state, t);
            return Some(p);
        }
        if b.card.is_some() || b.offered.len() < combat_sides(rules, state, &b, &side).len() {
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        resolve(rules, state, &t, &mut b);
        b.resolved = true;
    }
    // Losses, the defender's first.
    if b.defender_losses > 0 || b.attacker_losses > 0 {
        let defending = b.defender_losses > 0;
        let (units, attacking_side) = if defending {
            (b.defenders.clone(), side.as_str())
        } else {
            (b.attackers.clone(), "")
        };
        let alive: Vec<usize> = units
            .iter()
            .copied()
            .filter(|&u| on_map(state, u).is_some())
            .collect();
        if alive.is_empty() {
            b.defender_losses = if defending { 0 } else { b.defender_losses };
            b.attacker_losses = if defending { b.attacker_losses } else { 0 };
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        let candidates = losses::spread(rules, state, (&b.taken, b.turn), &alive, attacking_side);
        if candidates.len() == 1 {
            take_loss(rules, state, &mut b, candidates[0], defending);
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        let owner = rules.side(&state.units[candidates[0]]).to_string();
        let options = candidates
            .iter()
            .map(|&u| format!("lose {}", state.units[u].name(rules.content)))
            .collect();
        t.battle = Some(Box::new(b));
        put(state, t);
        return Some(Prompt::one_of(
            &owner,
            "losses",
            "Which unit takes the next step loss?",
            options,
        ));
    }
    // Retreats.
    if b.retreat && !b.city {
        let staying: Vec<usize> = b
            .defenders
            .iter()
            .copied()
            .filter(|&u| on_map(state, u) == Some(b.space.as_str()))
            .collect();
        if let Some(&u) = staying.first() {
            let options = retreat_options(rules, state, s, u);
            if options.is_empty() {
                // No retreat: every defender left takes another step loss and stays (8.3.4).
                for &d in &staying {
                    losses::lose_step(rules, state, d);
                }
                b.retreat = false;
                t.battle = Some(Box::new(b));
                put(state, t);
                return None;
            }
            let owner = rules.side(&state.units[u]).to_string();
            let name = state.units[u].name(rules.content);
            t.battle = Some(Box::new(b));
            put(state, t);
            return Some(Prompt::one_of(
                &owner,
                "retreat",
                format!("Where does {name} retreat?"),
                options
                    .iter()
                    .map(|x| format!("retreat {name} {x}"))
                    .collect(),
            ));
        }
        b.retreat = false;
    }
    // Advance after combat (8.4): at least one attacker into an emptied space.
    if !b.city {
        let emptied = b
            .attackers
            .first()
            .is_some_and(|&a| !hostile_in(rules, state, &b.space, a));
        if emptied {
            let may_enter = |u: usize| {
                on_map(state, u).is_some_and(|at| {
                    at != b.space
                        && movement::may(rules, state, HookPoint::MayAdvance, u, (at, &b.space))
                }) && stacking_allows(rules, state, u, &b.space)
            };
            let mut options: Vec<String> = b
                .attackers
                .iter()
                .copied()
                .filter(|&u| may_enter(u))
                .map(|u| format!("advance {}", state.units[u].name(rules.content)))
                .collect();
            // Reserves in the attackers' spaces may follow those who advanced (4.2.3, 8.4.2).
            if b.advanced > 0 {
                options.extend(
                    t.units
                        .iter()
                        .filter(|(u, m)| {
                            *m == Mode::Reserve
                                && on_map(state, *u)
                                    .is_some_and(|at| b.from.iter().any(|f| f == at))
                                && may_enter(*u)
                        })
                        .map(|(u, _)| format!("follow {}", state.units[*u].name(rules.content))),
                );
            }
            if !options.is_empty() {
                let mut options = options;
                if b.advanced > 0 {
                    options.push("stop".into());
                }
                t.battle = Some(Box::new(b));
                put(state, t);
                return Some(Prompt::one_of(
                    &side,
                    "advance",
                    "Advance after combat (at least one unit)",
                    options,
                ));
            }
        }
    }
    finish_battle(rules, state, t, b);
    None
}

/// The sides in a combat, the attacker first.
fn combat_sides(rules: &Rules, state: &State, b: &Battle, attacker: &str) -> Vec<String> {
    let mut sides = vec![attacker.to_string()];
    let defenders = match b.attackers.first() {
        Some(&a) => defenders_of(rules, state, b, a),
        None => Vec::new(),
    };
    for d in defenders {
        let side = rules.side(&state.units[d]).to_string();
        if !sides.contains(&side) {
            sides.push(side);
        }
    }
    sides
}

/// Whether the condition kept at `at` in `game.ron` holds (a missing or failing one does not).
fn holds(rules: &Rules, state: &State, at: &str, ctx: &Context) -> bool {
    rules
        .content
        .sequence
        .conditions
        .get(at)
        .is_some_and(|c| eval::condition(c, rules.content, state, ctx).unwrap_or(false))
}

fn combat_context(rules: &Rules, b: &Battle, side: &str, attacking: bool) -> Context {
    Context {
        me: side.to_string(),
        enemy: rules.other_side(side).to_string(),
        combat: Some(Combat {
            attacking,
            attackers: b.attackers.clone(),
            defenders: b.defenders.clone(),
            defending_space: b.space.clone(),
        }),
        ..Context::default()
    }
}

/// Combat cards before the roll: each side in turn, the attacker first, may play a card its
/// reactions allow; a card's script runs in the combat and may ask.
fn reaction_step(
    rules: &Rules,
    state: &mut State,
    s: &Impulses,
    t: &ImpulseTask,
    b: &mut Battle,
) -> Option<Prompt> {
    let attacker = s.impulses[t.impulse].side.clone();
    if let Some(&a) = b.attackers.first() {
        b.defenders = defenders_of(rules, state, b, a);
    }
    if let Some((side, card, answers)) = b.card.clone() {
        let ctx = Context {
            card: Some(card.clone()),
            ..combat_context(rules, b, &side, side == attacker)
        };
        let script = rules
            .content
            .scripts
            .get(&card)
            .and_then(|x| x.combat.as_ref());
        let outcome = script.map(|stmts| eval::run(stmts, rules.content, state, &ctx, &answers));
        match outcome {
            Some(Ok((Outcome::Asks(d), _))) => {
                return Some(Prompt {
                    side: d.by,
                    kind: "decision".into(),
                    question: d.question,
                    options: d.options,
                    pick: Some((d.min, d.max)),
                })
            }
            Some(Err(e)) => state.flow.messages.push(format!(
                "the combat card `{card}` could not be carried out: {}",
                e.message
            )),
            _ => super::procedures::card_played(rules, state, &side, &card),
        }
        b.card = None;
        return None;
    }
    let sides = combat_sides(rules, state, b, &attacker);
    let side = sides.iter().find(|x| !b.offered.contains(x))?.clone();
    let place = pointer(t.at);
    let role = if side == attacker {
        CombatRole::Attackers
    } else {
        CombatRole::Defenders
    };
    let ctx = combat_context(rules, b, &side, side == attacker);
    let held = state.hands.get(&side).cloned().unwrap_or_default();
    let cards: Vec<String> = s
        .reactions
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.by == role
                && held.contains(&r.card)
                && holds(rules, state, &format!("{place}/reactions/{i}/when"), &ctx)
        })
        .map(|(_, r)| r.card.clone())
        .collect();
    if cards.is_empty() {
        b.offered.push(side);
        return None;
    }
    let mut options: Vec<String> = cards.iter().map(|c| format!("card {c}")).collect();
    options.push("no card".into());
    Some(Prompt::one_of(
        &side,
        "combat_card",
        format!("Combat at {}: play a card before the roll?", b.space),
        options,
    ))
}

fn finish_battle(rules: &Rules, state: &mut State, mut t: ImpulseTask, b: Battle) {
    t.fought.extend(b.attackers.iter().copied());
    t.acted.extend(b.attackers.iter().copied());
    t.battle = None;
    state.end("this_combat");
    let side = spec(rules, t.at).map_or(String::new(), |s| s.impulses[t.impulse].side.clone());
    put(state, t);
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
    battle::after_combat(rules, state, &fight, b.steps_before);
}

fn take_loss(rules: &Rules, state: &mut State, b: &mut Battle, unit: usize, defending: bool) {
    *b.taken.entry(unit).or_insert(0) += 1;
    b.turn += 1;
    losses::lose_step(rules, state, unit);
    if defending {
        b.defender_losses = b.defender_losses.saturating_sub(1);
    } else {
        b.attacker_losses = b.attacker_losses.saturating_sub(1);
    }
}

/// Where a defender may retreat, in the order of 8.3.2: towards the property's favoured
/// direction and free of hostile units; else anywhere free of hostile units. Stacking must
/// allow it.
fn retreat_options(rules: &Rules, state: &State, s: &Impulses, unit: usize) -> Vec<String> {
    let g = &rules.content.graph;
    let Some((from, _)) = placed(rules, state, unit) else {
        return Vec::new();
    };
    let nation = rules.nation(&state.units[unit]);
    let lower = s.combat.retreat_lower.iter().any(|n| n == nation);
    let here = prop(rules, from, &s.combat.retreat_by);
    retreat::options(rules, state, unit, |n, e| {
        let to = &g.spaces[n].id;
        if is_closed(state, s, to) {
            // Into a closed space only when nothing else is left (2.2.7, 2.2.8).
            let open = !s.combat.into_closed.is_empty()
                && !hostile_in(rules, state, to, unit)
                && !barred(rules, state, s, unit, e);
            return open.then_some(2);
        }
        if !may_step(rules, state, s, unit, from, n, e) || hostile_in(rules, state, to, unit) {
            return None;
        }
        if let Some(city) = &s.city {
            // Besiegers retreat into a city space only if they hold it (8.3.5).
            if in_region(rules, to, &city.region)
                && is_besieger(rules, state, city, unit)
                && marker_level(state, &city.marker, to) < city.control_level
            {
                return None;
            }
        }
        let there = prop(rules, to, &s.combat.retreat_by);
        let favoured = if lower { there <= here } else { there >= here };
        Some(u8::from(!favoured))
    })
}

/// Whether a space is closed to every unit by a marker.
fn is_closed(state: &State, s: &Impulses, space: &str) -> bool {
    s.movement_rules
        .closed_markers
        .iter()
        .any(|m| marker_level(state, m, space) > 0)
}

/// Whether a unit's nation may not cross a connection.
fn barred(rules: &Rules, state: &State, s: &Impulses, unit: usize, edge: usize) -> bool {
    let nation = rules.nation(&state.units[unit]);
    let kinds = &rules.content.graph.edges[edge].kinds;
    s.movement_rules
        .barred
        .iter()
        .any(|b| b.nations.iter().any(|n| n == nation) && kinds.iter().any(|k| b.kinds.contains(k)))
}

/// The JSON pointer of a sequence step's impulse rules in `game.ron`.
pub fn pointer(at: (usize, usize)) -> String {
    format!("/sequence/{}/steps/{}/Impulses", at.0, at.1)
}

fn drm_total(
    rules: &Rules,
    state: &State,
    drms: &[CombatDrm],
    place: &str,
    side: &str,
    b: &Battle,
) -> i32 {
    let ctx = combat_context(rules, b, side, true);
    drms.iter()
        .enumerate()
        .filter(|(i, _)| holds(rules, state, &format!("{place}/{i}/when"), &ctx))
        .map(|(_, d)| d.drm)
        .sum()
}

fn resolve(rules: &Rules, state: &mut State, t: &ImpulseTask, b: &mut Battle) {
    let Some(s) = spec(rules, t.at) else { return };
    let side = s.impulses[t.impulse].side.clone();
    let Some(&first) = b.attackers.first() else {
        return;
    };
    b.defenders = defenders_of(rules, state, b, first);
    b.from = b
        .attackers
        .iter()
        .filter_map(|&u| on_map(state, u).map(str::to_string))
        .collect();
    let place = pointer(t.at);
    b.steps_before = (
        battle::steps_on_map(rules, state, &b.attackers),
        battle::steps_on_map(rules, state, &b.defenders),
    );
    let strength = |u: usize, attacking: bool| {
        let printed = i64::from(stat(rules, state, u, &s.strength).max(0));
        battle::strength(rules, state, u, (&b.space, attacking), printed)
    };
    let attack: i64 = b
        .attackers
        .iter()
        .map(|&u| strength(u, true))
        .fold(0i64, |a, x| a.saturating_add(x));
    let mut defence: i64 = b
        .defenders
        .iter()
        .map(|&u| strength(u, false))
        .fold(0i64, |a, x| a.saturating_add(x));
    let (table_id, drm) = match (&s.city, b.city) {
        (Some(city), true) => {
            let besieging = is_besieger(rules, state, city, first);
            if besieging {
                defence += garrison(rules, state, city, &b.space);
                if let Some(track) = support_track(city, &side) {
                    let cost = if b.extra == Some(true) { 2 } else { 1 };
                    *state.tracks.entry(track.to_string()).or_insert(0) -= cost;
                }
            }
            let mut drm = if besieging {
                drm_total(
                    rules,
                    state,
                    &city.drms,
                    &format!("{place}/city/drms"),
                    &side,
                    b,
                )
            } else {
                0
            };
            if b.extra == Some(true) {
                drm += 1;
            }
            (city.table.clone(), drm)
        }
        // Outside a city, the die-roll modifiers are all hooks.
        _ => (s.combat.table.clone(), 0),
    };
    if !b.city && s.evade_flags.iter().any(|f| state.flags.contains(f)) {
        // The defenders slip away before the roll (Heinrici).
        state.flow.messages.push(format!(
            "the defenders of {} retreat before combat without losses",
            b.space
        ));
        b.retreat = true;
        return;
    }
    let Some(table) = rules.content.tables.iter().find(|x| x.id == table_id) else {
        return;
    };
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
    let drm = battle::roll_modifier(rules, state, HookPoint::Drm, (&fight, true), drm);
    let shift = battle::roll_modifier(rules, state, HookPoint::Shift, (&fight, true), 0);
    let faces = rules.game.dice.faces;
    let roll = state.roll(faces) as i32;
    let column = ColumnInput::Odds {
        attacker: attack.clamp(0, u32::MAX as i64) as u32,
        defender: defence.clamp(1, u32::MAX as i64) as u32,
    };
    let cell = table.lookup(column, shift, RowInput::Roll { roll, drm }, faces);
    let col = table.shift(table.column(column).unwrap_or(0), shift);
    let label = table.column_label(col);
    let get = |c: &Cell, k: &str| match c {
        Cell::Record(r) => r.get(k).cloned(),
        Cell::Scalar(x) => Some(x.clone()),
    };
    let (a, d, r, p) = match &cell {
        Ok(c) => {
            state.record.roll(&table.id, col, c.to_string());
            let int = |k: &str| match get(c, k) {
                Some(Scalar::Int(n)) => n.max(0) as u32,
                _ => 0,
            };
            let retreat = matches!(get(c, "retreat"), Some(Scalar::Bool(true)));
            (int("attacker"), int("defender"), retreat, int("progress"))
        }
        Err(e) => {
            state.flow.messages.push(format!(
                "the combat at {} could not be read on {}: {e}",
                b.space, table.id
            ));
            (0, 0, false, 0)
        }
    };
    state.flow.messages.push(format!(
        "{side} attacks {}: {attack} against {defence} ({label}), rolls {roll} (drm {drm:+}): attacker {a}, defender {d}{}{}",
        b.space,
        if r { ", retreat" } else { "" },
        if p > 0 { format!(", progress {p}") } else { String::new() },
    ));
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
    let a = battle::loss(rules, state, (&fight, true), a);
    let d = battle::loss(rules, state, (&fight, false), d);
    b.attacker_losses = a;
    b.defender_losses = d;
    b.retreat = r;
    if b.city {
        if let Some(city) = &s.city {
            city_progress(rules, state, (city, &place), b, first, p);
        }
    }
}

/// The city table's progress: raised by besiegers, lowered by defenders; at 0, a defenders'
/// progress costs the besiegers a step (9.3.3); control follows the level.
fn city_progress(
    rules: &Rules,
    state: &mut State,
    (city, place): (&CityCombat, &str),
    b: &mut Battle,
    attacker: usize,
    progress: u32,
) {
    if progress == 0 {
        return;
    }
    let level = marker_level(state, &city.marker, &b.space);
    let side = rules.side(&state.units[attacker]).to_string();
    let new = if is_besieger(rules, state, city, attacker) {
        if level == 0 && !city.on_progress.is_empty() {
            run_rule_script(
                rules,
                state,
                &format!("{place}/city/on_progress"),
                &side,
                (Some(&b.space), level_name(0)),
            );
        }
        level + progress
    } else {
        if level == 0 {
            b.defender_losses += 1;
        }
        level.saturating_sub(progress)
    };
    set_marker_level(state, &city.marker, &b.space, i64::from(new));
    let holder = state
        .units_at(&b.space)
        .find(|(i, _)| is_besieger(rules, state, city, *i))
        .map(|(_, u)| rules.side(u).to_string());
    if new >= city.control_level {
        if let Some(h) = holder {
            state.set_control(&b.space, Some(&h));
        }
    } else if state.control.contains_key(&b.space) {
        state.set_control(&b.space, None);
    }
}

fn level_name(level: u32) -> Vec<(String, Value)> {
    vec![("level".into(), Value::Int(i64::from(level)))]
}

fn battle_act(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    prompt: &Prompt,
    words: &[&str],
) -> Result<(), String> {
    let mut b = *t.battle.take().ok_or("no combat is under way")?;
    let s = spec(rules, t.at).ok_or("no operations")?;
    match words {
        ["choose", picked @ ..] if prompt.kind == "attackers" => {
            let units: Result<Vec<usize>, String> =
                picked.iter().map(|p| find_unit(rules, state, p)).collect();
            let units = units?;
            if b.city {
                // Helpers come from one space outside the city (9.2.4).
                let outside: BTreeSet<&str> = units
                    .iter()
                    .filter_map(|&u| on_map(state, u))
                    .filter(|at| *at != b.space)
                    .collect();
                if outside.len() > 1 {
                    return Err("units from outside the city may come from one space only".into());
                }
                if !units
                    .iter()
                    .any(|&u| on_map(state, u) == Some(b.space.as_str()))
                {
                    return Err("at least one unit in the city space must attack".into());
                }
            }
            b.attackers = units;
            b.chosen = true;
        }
        ["support", answer] => b.extra = Some(*answer == "yes"),
        ["card", card] if prompt.kind == "combat_card" => {
            let side = prompt.side.clone();
            if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|c| c != card);
            }
            b.offered.push(side.clone());
            b.card = Some((side, card.to_string(), Vec::new()));
        }
        ["no", "card"] => b.offered.push(prompt.side.clone()),
        ["choose", picked @ ..] if prompt.kind == "decision" => {
            if let Some((_, _, answers)) = &mut b.card {
                answers.push(picked.iter().map(|p| p.to_string()).collect());
            }
        }
        ["lose", unit] => {
            let u = find_unit(rules, state, unit)?;
            let defending = b.defender_losses > 0;
            take_loss(rules, state, &mut b, u, defending);
        }
        ["retreat", unit, to] => {
            let u = find_unit(rules, state, unit)?;
            let from = on_map(state, u).unwrap_or_default().to_string();
            enter(rules, state, s, u, to);
            movement::after_step(rules, state, HookPoint::AfterRetreat, u, (&from, to));
            if is_closed(state, s, to) {
                let side = rules.side(&state.units[u]).to_string();
                let at = format!("{}/combat/into_closed", pointer(t.at));
                let names = vec![("u".to_string(), Value::Unit(u))];
                run_rule_script(rules, state, &at, &side, (None, names));
            }
        }
        ["advance", unit] => {
            let u = find_unit(rules, state, unit)?;
            let space = b.space.clone();
            enter(rules, state, s, u, &space);
            b.advanced += 1;
        }
        ["follow", unit] => {
            let u = find_unit(rules, state, unit)?;
            let space = b.space.clone();
            enter(rules, state, s, u, &space);
            t.acted.insert(u);
        }
        ["stop"] => {
            finish_battle(rules, state, t, b);
            return Ok(());
        }
        _ => return Err("not an action of this combat".into()),
    }
    t.battle = Some(Box::new(b));
    put(state, t);
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The end of an impulse, of a phase, of the operations
// ---------------------------------------------------------------------------------------------

fn end_impulse(rules: &Rules, state: &mut State, mut t: ImpulseTask) {
    let Some(s) = spec(rules, t.at) else {
        state.flow.tasks.pop();
        return;
    };
    // City spaces the besiegers left empty (9.1.5).
    if let Some(city) = &s.city {
        let place = format!("{}/city/on_abandon", pointer(t.at));
        for (space, side) in t.held.clone() {
            if besieged_by(rules, state, city, &space) {
                continue;
            }
            let level = marker_level(state, &city.marker, &space);
            run_rule_script(
                rules,
                state,
                &place,
                &side,
                (Some(&space), level_name(level)),
            );
            set_marker_level(state, &city.marker, &space, 0);
            if state.control.contains_key(&space) {
                state.set_control(&space, None);
            }
        }
    }
    if !s.idle.is_empty() {
        let place = format!("{}/idle", pointer(t.at));
        let side = s.impulses[t.impulse].side.clone();
        for &(u, _) in &t.units {
            if t.acted.contains(&u) || on_map(state, u).is_none() {
                continue;
            }
            run_rule_script(
                rules,
                state,
                &place,
                &side,
                (None, vec![("u".into(), Value::Unit(u))]),
            );
        }
    }
    if let Some((_, order)) = order_now(state, s, &t) {
        state.clear_flag(&order.flag);
    }
    if t.units.is_empty() {
        t.passes.push(t.impulse);
    }
    state.flow.activated.extend(t.units.iter().map(|(u, _)| *u));
    state.end("end_of_round");
    state.round += 1;
    t.impulse += 1;
    if t.impulse < s.impulses.len() {
        begin_impulse(rules, state, &mut t);
        put(state, t);
        return;
    }
    // The end of an operations phase.
    let all_passed = !s.pass_ends.is_empty() && s.pass_ends.iter().all(|i| t.passes.contains(i));
    let mut over = all_passed;
    if !over {
        let side = s.impulses[0].side.clone();
        let at = format!("{}/end_test", pointer(t.at));
        if let Some(stmts) = rules.content.sequence.effects.get(&at) {
            let ctx = side_context(rules, &side);
            match eval::run(stmts, rules.content, state, &ctx, &[]) {
                Ok(_) => {}
                Err(e) => state
                    .flow
                    .messages
                    .push(format!("the end-of-phase test failed: {}", e.message)),
            }
        }
        if state.flags.contains(&s.end_flag) {
            state.clear_flag(&s.end_flag);
            over = true;
        }
    }
    if !over {
        let phase = state.track(&s.track) + 1;
        if phase > i64::from(s.max_phases) {
            over = true;
        } else {
            state.tracks.insert(s.track.clone(), phase);
        }
    }
    if over {
        state.flow.impulse = 0;
        t.impulse = 0;
        t.units.clear();
        if s.end_move.is_some() {
            t.stage = Stage::EndMove;
            put(state, t);
        } else {
            state.flow.tasks.pop();
        }
        return;
    }
    t.impulse = 0;
    t.passes.clear();
    begin_impulse(rules, state, &mut t);
    put(state, t);
}

fn next_end_move(rules: &Rules, state: &mut State, mut t: ImpulseTask) {
    let n = spec(rules, t.at).map_or(0, |s| s.impulses.len());
    t.impulse += 1;
    if t.impulse >= n {
        state.flow.tasks.pop();
    } else {
        put(state, t);
    }
}
