//! Movement, the toolkit's procedure every way of giving turns calls: a unit's allowance, what
//! a step costs (the connection's kinds, the terrain entered, the hooks), the minimum move,
//! whether the hooks allow a step, and what follows a move.
//!
//! Movement points are counted in halves (a road costs half a point).

use super::hook_memo;
use super::hooks::{self, space, unit};
use super::Rules;
use crate::model::HookPoint;
use crate::script::eval::{Context, Value};
use crate::script::types::Kind;
use crate::state::State;

/// A unit's movement allowance in whole points: its printed movement `printed`, changed by
/// the `Movement` hooks.
pub fn allowance(rules: &Rules, state: &State, u: usize, printed: i32) -> u32 {
    let side = rules.side(&state.units[u]);
    let ma = hooks::modify(
        rules.content,
        state,
        HookPoint::Movement,
        &side,
        printed as i64,
        || vec![unit("u", u)],
    );
    ma.clamp(0, u32::MAX as i64 / 4) as u32
}

/// What a unit's step across `edge` into the space `to` (graph indexes) costs, in half
/// points: the connection's kinds (but those in `lifted`), the terrain entered unless a kind
/// sets the whole cost, then the `MoveCost` hooks.
pub fn step_cost(
    rules: &Rules,
    state: &State,
    u: usize,
    step: (usize, usize),
    lifted: &[&String],
) -> u32 {
    UnitSteps::new(rules, state, u).cost(step, lifted)
}

/// A unit's steps asked one after another in one state (each neighbour of a space, a search
/// of its moves): the hooks' context is built once and its `from` and `to` changed from step
/// to step; the part of the `MoveCost` hooks' key that does not change is read once; and the
/// `MayMove` hooks' verdicts are kept by step, as an SR route keeps the `MayRedeploy` hooks'
/// (see [`hooks::StepVerdicts`]), so a step asked again, in this search or a later one where
/// the hooks' parts read the same besides `from` and `to`, costs a look. Each step built a
/// context of its own for each point and worked out its keys whole.
///
/// **Invariant:** it answers as [`step_cost`] and the `MayMove` hooks asked one step at a
/// time ([`hooks::may`]) answer.
pub struct UnitSteps<'a, 'c> {
    rules: &'a Rules<'c>,
    state: &'a State,
    u: usize,
    /// The hooks' context (`u`, `from`, `to`), made at the first step asked.
    ctx: Option<Context>,
    /// The part of the `MoveCost` hooks' key that does not change from step to step, read at
    /// the first step asked (the inner none: they cannot be remembered).
    cost_key: Option<Option<hook_memo::PointKey>>,
    /// The numbers those hooks made by step, shared with the unit's searches in later
    /// prompts whose fixed part reads the same (see [`hook_memo::PointKey::by_step`]).
    costs: Option<Option<hook_memo::NumberTable>>,
    /// The `MayMove` hooks' verdicts by step, made at the first step asked.
    may: Option<hooks::StepVerdicts<'c>>,
    /// What the zones of control cost the unit, worked out at the first step asked.
    zones: Option<ZoneCosts>,
}

impl<'a, 'c> UnitSteps<'a, 'c> {
    pub fn new(rules: &'a Rules<'c>, state: &'a State, u: usize) -> UnitSteps<'a, 'c> {
        UnitSteps {
            rules,
            state,
            u,
            ctx: None,
            cost_key: None,
            costs: None,
            may: None,
            zones: None,
        }
    }

    /// The unit whose steps these are.
    pub fn unit(&self) -> usize {
        self.u
    }

    /// What the unit's step across `edge` into `to` costs (see [`step_cost`]).
    pub fn cost(&mut self, (edge, to): (usize, usize), lifted: &[&String]) -> u32 {
        let (rules, state, u) = (self.rules, self.state, self.u);
        let content = rules.content;
        let base = if lifted.is_empty() {
            content.enter_cost(edge, to)
        } else {
            let kinds: Vec<String> = content.graph.edges[edge]
                .kinds
                .iter()
                .filter(|k| !lifted.contains(k))
                .cloned()
                .collect();
            let (cost, whole) = crate::model::move_cost_parts(rules.game, &kinds);
            if whole {
                cost
            } else {
                cost + content.terrain_cost(to)
            }
        };
        let g = &content.graph;
        let e = &g.edges[edge];
        let from = if e.a == to { e.b } else { e.a };
        let zones = self
            .zones
            .get_or_insert_with(|| ZoneCosts::of(rules, state, u));
        let base = base + zone_cost_of(rules, state, zones, (from, to));
        let at = HookPoint::MoveCost;
        if !hooks::any_at(content, at) {
            return base;
        }
        let ctx = self
            .ctx
            .get_or_insert_with(|| step_context(rules, state, u, from));
        name_step(ctx, g.spaces[from].id, g.spaces[to].id);
        let fixed = self
            .cost_key
            .get_or_insert_with(|| hook_memo::point_key(content, state, at, ctx, &step_names()));
        let value = (base as i64, 2);
        let step = hooks::step_number(edge, from, to);
        let costs = self.costs.get_or_insert_with(|| {
            (fixed.as_ref()).and_then(|k| k.by_step(content, value.1, g.edges.len() * 2))
        });
        let kept = costs.as_ref().and_then(|t| t.get(step, value.0));
        let cost = kept.unwrap_or_else(|| {
            let cost = hook_memo::modified_step(
                content,
                state,
                (fixed.as_ref(), value.0, value.1),
                ctx,
                |ctx| hooks::modify_in(content, state, at, value, ctx, None),
            );
            if let Some(t) = costs {
                t.put(step, value.0, cost);
            }
            cost
        });
        cost.clamp(0, u32::MAX as i64 / 4) as u32
    }

    /// Whether the `MayMove` hooks allow the unit's step from `from` across `edge` into `to`
    /// (graph indexes).
    pub fn may(&mut self, (from, to, edge): (usize, usize, usize)) -> bool {
        let (rules, state, u) = (self.rules, self.state, self.u);
        let content = rules.content;
        if !hooks::any_at(content, HookPoint::MayMove) {
            return true;
        }
        let g = &content.graph;
        let ctx = self
            .ctx
            .get_or_insert_with(|| step_context(rules, state, u, from));
        let verdicts = self.may.get_or_insert_with(|| {
            // The parts that name neither `from` nor `to` read the same at every step.
            let varying = step_names();
            let still = hooks::still_asked(content, state, HookPoint::MayMove, ctx, &varying);
            // A connection crossed one way or the other, numbered as an SR route numbers it.
            let steps = g.edges.len() * 2;
            hooks::StepVerdicts::new(content, state, still, ctx, (&varying, steps), None)
        });
        if verdicts.is_empty() {
            return true;
        }
        // Named only when a hook's part is asked, not when every result is kept.
        let name = |ctx: &mut Context| name_step(ctx, g.spaces[from].id, g.spaces[to].id);
        verdicts.may(
            content,
            state,
            (ctx, name),
            hooks::step_number(edge, from, to),
        )
    }
}

/// The hooks a prompt's moves ask of a side's units in one state, each asked through a
/// [`hooks::Gate`]: the `Movement` hooks of every unit (`u` changing), the `MayStop` hooks of
/// every space a unit's move may end in (`u` and `space`). A hook whose condition has a part
/// naming neither and not holding now (`played(tito) and ...`, `flag(mud) and ...`) is left
/// out once for the whole prompt.
///
/// **Invariant:** it answers as [`allowance`] and [`may_end`] answer.
pub struct MoveGates<'c> {
    movement: hooks::Gate<'c>,
    stop: hooks::Gate<'c>,
}

impl<'c> MoveGates<'c> {
    /// The gates of `side`'s units.
    pub fn new(rules: &Rules<'c>, state: &State, side: &str) -> MoveGates<'c> {
        let content = rules.content;
        let some_space = content
            .graph
            .spaces
            .first()
            .map(|s| s.id)
            .unwrap_or_default();
        let (u, at) = (crate::Id::of_static("u"), crate::Id::of_static("space"));
        MoveGates {
            movement: hooks::Gate::new(
                content,
                state,
                (HookPoint::Movement, side),
                vec![unit("u", 0)],
                &[u],
            ),
            stop: hooks::Gate::new(
                content,
                state,
                (HookPoint::MayStop, side),
                vec![unit("u", 0), space("space", some_space)],
                &[u, at],
            ),
        }
    }

    /// [`allowance`] of unit `u`, one of the side's.
    pub fn allowance(&mut self, rules: &Rules, state: &State, u: usize, printed: i32) -> u32 {
        let named = [(0, Value::Unit(u))];
        let ma = (self.movement).modify(rules.content, state, (printed as i64, 1), &named);
        ma.clamp(0, u32::MAX as i64 / 4) as u32
    }

    /// [`may_end`] of unit `u`, one of the side's, in `space` (a graph index).
    pub fn may_end(&mut self, rules: &Rules, state: &State, u: usize, space: usize) -> bool {
        if self.stop.is_empty() {
            return true;
        }
        let id = rules.content.graph.spaces[space].id;
        let named = [(0, Value::Unit(u)), (1, Value::Id(Kind::Space, id))];
        self.stop.may(rules.content, state, &named)
    }
}

/// The names of a step that change from one to the next.
fn step_names() -> [crate::Id; 2] {
    [crate::Id::of_static("from"), crate::Id::of_static("to")]
}

/// The hooks' context of a unit's step (`u`, `from`, `to`), from and to `at` until a step
/// names them.
fn step_context(rules: &Rules, state: &State, u: usize, at: usize) -> Context {
    let at = rules.content.graph.spaces[at].id;
    let side = rules.side(&state.units[u]);
    hooks::context_for(
        rules.content,
        &side,
        vec![unit("u", u), space("from", at), space("to", at)],
    )
}

/// Names a step's `from` and `to` in its context (see [`step_context`]).
fn name_step(ctx: &mut Context, from: crate::Id, to: crate::Id) {
    ctx.names[1].1 = Value::Id(Kind::Space, from);
    ctx.names[2].1 = Value::Id(Kind::Space, to);
}

/// What entering and leaving an enemy zone of control cost a unit, in half points, and its
/// side: the same at every step it takes.
struct ZoneCosts {
    enter: u32,
    leave: u32,
    side: crate::Id,
    /// The zones of the prompt being worked out ([`with_zones`]) with the side's bit, when
    /// there are.
    zones: Option<(std::rc::Rc<Zones>, u8)>,
}

impl ZoneCosts {
    fn of(rules: &Rules, state: &State, u: usize) -> ZoneCosts {
        let unit = &state.units[u];
        let side = rules.side(unit);
        let Some(zoc) = &rules.game.zones_of_control else {
            return ZoneCosts {
                enter: 0,
                leave: 0,
                side,
                zones: None,
            };
        };
        let ty = rules.unit_type(unit);
        let cost = |costs: &[crate::model::ZocCost]| {
            costs
                .iter()
                .find(|c| c.types.is_empty() || c.types.iter().any(|t| t == ty))
                .map_or(0, |c| c.cost * 2)
        };
        let zones =
            side_bit(rules, side).and_then(|bit| Some((ZONES.with(|z| z.borrow().clone())?, bit)));
        ZoneCosts {
            enter: cost(&zoc.enter),
            leave: cost(&zoc.leave),
            side,
            zones,
        }
    }

    /// Whether the unit's side has an enemy zone on `space`.
    fn enemy_zone(&self, rules: &Rules, state: &State, space: usize) -> bool {
        match &self.zones {
            Some((zones, bit)) => zones.hostile_to(&rules.content.graph, *bit, space),
            None => in_enemy_zone(rules, state, self.side, space),
        }
    }
}

/// What the game's zones of control add to a unit's step from `from` into `to` (graph
/// indexes), in half points, with its costs worked out: the entry cost when `to` lies in an
/// enemy zone, the leaving cost when `from` does.
fn zone_cost_of(rules: &Rules, state: &State, z: &ZoneCosts, (from, to): (usize, usize)) -> u32 {
    let mut extra = 0;
    if z.enter > 0 && z.enemy_zone(rules, state, to) {
        extra += z.enter;
    }
    if z.leave > 0 && z.enemy_zone(rules, state, from) {
        extra += z.leave;
    }
    extra
}

thread_local! {
    /// While a prompt's options are worked out on a state that does not change: where zones
    /// of control lie (see [`with_zones`]).
    static ZONES: std::cell::RefCell<Option<std::rc::Rc<Zones>>> =
        const { std::cell::RefCell::new(None) };
}

/// The zones of control of one state: for each space (by graph index), the sides whose units
/// there exert a zone, a bit for each (by the side's place in the game's sides).
struct Zones {
    exerting: Vec<u8>,
}

impl Zones {
    /// None when a bit cannot stand for each side: more than eight, or a unit of a side the
    /// game does not list.
    fn of(rules: &Rules, state: &State) -> Option<Zones> {
        let g = &rules.content.graph;
        let mut exerting = vec![0u8; g.spaces.len()];
        for u in state.units.iter() {
            let crate::state::Loc::Space(at) = &u.at else {
                continue;
            };
            let Some(x) = g.index_of(at) else { continue };
            if exerts_zone(rules, u) {
                exerting[x] |= side_bit(rules, rules.side(u))?;
            }
        }
        Some(Zones { exerting })
    }

    /// Whether `space` lies in a zone exerted by a side other than `side`.
    fn hostile_to(&self, g: &crate::content::MapGraph, side: u8, space: usize) -> bool {
        g.neighbours(space)
            .iter()
            .any(|&(n, _)| self.exerting.get(n).is_some_and(|&ex| ex & !side != 0))
    }
}

/// Whether a unit exerts a zone of control: every unit does, but those of the types the
/// game's `zones_of_control` says do not (and every unit of a game without zones).
pub(in crate::rules) fn exerts_zone(rules: &Rules, u: &crate::state::Unit) -> bool {
    rules.facts(u).zone
}

/// A side's bit in [`Zones`], if it has one.
fn side_bit(rules: &Rules, side: crate::Id) -> Option<u8> {
    let k = rules.game.sides.iter().position(|s| s.id == side)?;
    (k < 8).then(|| 1 << k)
}

/// Runs `f` (which must not change `state`) with the zones of control of `state` worked out
/// once, so that the many steps a prompt's moves look at do not each look for the units
/// around them.
pub fn with_zones<R>(rules: &Rules, state: &State, f: impl FnOnce() -> R) -> R {
    if rules.game.zones_of_control.is_none() {
        return f();
    }
    struct Restore(Option<std::rc::Rc<Zones>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            ZONES.with(|z| *z.borrow_mut() = before);
        }
    }
    // None (each question looked up anew) when bits cannot stand for the sides.
    let zones = Zones::of(rules, state).map(std::rc::Rc::new);
    let _restore = Restore(ZONES.with(|z| std::mem::replace(&mut *z.borrow_mut(), zones)));
    f()
}

/// Whether a space (a graph index) lies in the zone of control of a unit hostile to `side`:
/// next to one that exerts a zone.
pub fn in_enemy_zone(rules: &Rules, state: &State, side: crate::Id, space: usize) -> bool {
    if rules.game.zones_of_control.is_none() {
        return false;
    }
    let g = &rules.content.graph;
    let cached = side_bit(rules, side)
        .and_then(|bit| ZONES.with(|z| z.borrow().as_ref().map(|z| z.hostile_to(g, bit, space))));
    if let Some(found) = cached {
        return found;
    }
    g.neighbours(space).iter().any(|&(n, _)| {
        state
            .units_at(&g.spaces[n].id)
            .any(|(_, x)| rules.side(x) != side && exerts_zone(rules, x))
    })
}

/// The spaces (graph indexes) unit `u` may move into next, having used `used` of its
/// `allowed` half points: the neighbours the game's rules allow (`may(space, edge)`), whose
/// cost fits what it has left, and the `MayMove` hooks allow; in the map's order.
pub fn destinations(
    rules: &Rules,
    state: &State,
    u: usize,
    budget: ((u32, u32), &[&String]),
    may: impl Fn(usize, usize) -> bool,
) -> Vec<usize> {
    let crate::state::Loc::Space(at) = &state.units[u].at else {
        return Vec::new();
    };
    let Some(from) = rules.content.graph.index_of(at) else {
        return Vec::new();
    };
    steps_from(rules, state, u, from, budget, may)
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// [`destinations`] from the space `from` (a graph index), wherever the unit stands, each with
/// what the step costs.
pub fn steps_from(
    rules: &Rules,
    state: &State,
    u: usize,
    from: usize,
    budget: ((u32, u32), &[&String]),
    may: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, u32)> {
    steps_from_with(&mut UnitSteps::new(rules, state, u), from, budget, may)
}

/// [`steps_from`], asking the unit's steps through `steps` (see [`UnitSteps`]).
pub fn steps_from_with(
    steps: &mut UnitSteps,
    from: usize,
    ((used, allowed), lifted): ((u32, u32), &[&String]),
    may: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, u32)> {
    steps
        .rules
        .content
        .graph
        .neighbours(from)
        .iter()
        .filter(|&&(n, e)| may(n, e))
        .filter_map(|&(n, e)| {
            let cost = steps.cost((e, n), lifted);
            (fits(used, cost, allowed) && steps.may((from, n, e))).then_some((n, cost))
        })
        .collect()
}

/// Whether a unit that has stepped into `start` (a graph index), a space where it may pass
/// but not stop, having used `used` half points, can go on from there to a space where it may
/// stop: a search over the steps `next(space, used)` gives (each with its cost), through
/// spaces `goes_on` allows it to leave again (not a space where its move must end), to one
/// `stops` allows. A space is searched again only with fewer points used, so the search ends
/// whatever the costs.
pub fn reaches_stop(
    (start, used): (usize, u32),
    mut next: impl FnMut(usize, u32) -> Vec<(usize, u32)>,
    mut stops: impl FnMut(usize) -> bool,
    mut goes_on: impl FnMut(usize) -> bool,
) -> bool {
    let mut best = std::collections::BTreeMap::from([(start, used)]);
    let mut frontier = vec![(start, used)];
    while let Some((x, spent)) = frontier.pop() {
        if best.get(&x).is_some_and(|&b| b < spent) {
            continue;
        }
        for (n, cost) in next(x, spent) {
            if stops(n) {
                return true;
            }
            let now = spent.saturating_add(cost);
            if best.get(&n).is_some_and(|&b| b <= now) || !goes_on(n) {
                continue;
            }
            best.insert(n, now);
            frontier.push((n, now));
        }
    }
    false
}

/// Whether a step of `cost` fits what a unit has left: it does when the unit has not moved
/// yet (a unit may always move one space) or has the points.
pub fn fits(used: u32, cost: u32, allowed: u32) -> bool {
    used == 0 || used + cost <= allowed
}

/// Whether the `MayStop` hooks let a unit's move end in `space`.
pub fn may_end(rules: &Rules, state: &State, u: usize, at: &str) -> bool {
    let side = rules.side(&state.units[u]);
    hooks::may(rules.content, state, HookPoint::MayStop, &side, || {
        vec![unit("u", u), space("space", at)]
    })
}

/// Whether the hooks at a condition point about a unit's step (`MayMove`, `MayRetreat`,
/// `MayAdvance`) allow it.
pub fn may(
    rules: &Rules,
    state: &State,
    at: HookPoint,
    u: usize,
    (from, to): (&str, &str),
) -> bool {
    let side = rules.side(&state.units[u]);
    hooks::may(rules.content, state, at, &side, || {
        vec![unit("u", u), space("from", from), space("to", to)]
    })
}

/// Queues what follows a unit's step (`AfterMove`, `AfterRetreat`, and `AfterCapture` when it
/// took its space).
pub fn after_step(
    rules: &Rules,
    state: &mut State,
    at: HookPoint,
    u: usize,
    (from, to): (&str, &str),
) {
    let side = rules.side(&state.units[u]).to_string();
    hooks::after(
        rules,
        state,
        at,
        &side,
        vec![unit("u", u), space("from", from), space("to", to)],
    );
}

/// Queues what follows a side's taking control of a space (`AfterCapture`).
pub fn after_capture(rules: &Rules, state: &mut State, side: &str, at: &str) {
    hooks::after(
        rules,
        state,
        HookPoint::AfterCapture,
        side,
        vec![space("space", at)],
    );
}

#[cfg(test)]
mod tests {
    use super::reaches_stop;

    /// Spaces 0-1-2-3 in a line, each step costing 2 half points out of `allowed`; spaces
    /// in `full` may only be passed through.
    fn line(start: usize, used: u32, allowed: u32, full: &[usize]) -> bool {
        let next = |x: usize, spent: u32| {
            [x.wrapping_sub(1), x + 1]
                .into_iter()
                .filter(|&n| n <= 3 && spent + 2 <= allowed)
                .map(|n| (n, 2))
                .collect()
        };
        reaches_stop((start, used), next, |n| !full.contains(&n), |_| true)
    }

    #[test]
    fn a_unit_passing_through_full_spaces_reaches_a_stop_only_with_the_points_to_get_there() {
        // Into 1 (full) having used 2: 0 is free behind it, 2 beyond it.
        assert!(line(1, 2, 4, &[1]));
        // No points left in 1.
        assert!(!line(1, 4, 4, &[1]));
        // 0, 1 and 2 full: 3 lies two steps on.
        assert!(line(1, 2, 6, &[0, 1, 2]));
        assert!(!line(1, 2, 4, &[0, 1, 2]));
        // Nowhere to stop: the search ends.
        assert!(!line(1, 0, 100, &[0, 1, 2, 3]));
    }
}
