//! Operations in impulses: orders that bind a side's impulse (Hitler's counter-attacks, 2.3.2).
//! The side must activate in combat mode, and attack with, as many of the units the order
//! binds as it asks (fewer if fewer can); when none of them can attack and the order says so,
//! as many must be activated in movement mode and moved next to a hostile unit instead.

use super::*;

/// Where an order stands at activation.
pub(super) struct OrderStatus {
    /// The units it binds that may obey it (attack, or reach a space next to a hostile unit),
    /// and how many of them must.
    pub(super) able: Vec<usize>,
    pub(super) need: usize,
    /// The mode they must be activated in: combat, or movement to approach.
    pub(super) mode: Mode,
    /// Whether the units activated in that mode meet it.
    pub(super) met: bool,
}

/// The order that binds this impulse, if its flag is set.
pub(super) fn order_now<'c>(
    state: &State,
    s: &'c Impulses,
    t: &ImpulseTask,
) -> Option<(usize, &'c AttackOrder)> {
    s.orders
        .iter()
        .enumerate()
        .find(|(_, o)| o.impulse == t.impulse && state.flags.contains(o.flag.as_str()))
}

pub(super) fn order_status(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    t: &ImpulseTask,
) -> Option<OrderStatus> {
    let (k, order) = order_now(state, s, t)?;
    let imp = &s.impulses[t.impulse];
    let exempt = format!("{}/orders/{k}/exempt", pointer(t.at));
    let bound: Vec<usize> = state
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| {
            on_map(state, *i).is_some()
                && rules.side(u) == imp.side
                && imp.nations.iter().any(|n| n == rules.nation(u))
                && !state.flow.activated.contains(i)
                && !{
                    let ctx = Context {
                        names: vec![crate::rules::hooks::unit("u", *i)],
                        ..side_context(rules, &imp.side)
                    };
                    holds(rules, state, &exempt, &ctx)
                }
        })
        .map(|(i, _)| i)
        .collect();
    let attackers: Vec<usize> = bound
        .iter()
        .copied()
        .filter(|&u| !attack_targets(rules, state, s, u).is_empty())
        .collect();
    // None can attack and none stands next to a hostile unit: those that can get there must.
    let approach = attackers.is_empty()
        && order.approach
        && !bound
            .iter()
            .any(|&u| next_to_hostile(rules, state, u, None));
    let (able, mode) = if approach {
        let movers = bound
            .into_iter()
            .filter(|&u| activation(rules, state, t, u, Mode::Move).is_some())
            .filter(|&u| {
                let ma = movement::allowance(rules, state, u, stat(rules, state, u, &s.movement));
                let allowed = if state.flow.oos.contains(&u) {
                    1
                } else {
                    ma * 2
                };
                placed(rules, state, u).is_some_and(|(_, at)| {
                    can_approach(rules, state, (s, t), (u, at), (0, allowed))
                })
            })
            .collect();
        (movers, Mode::Move)
    } else {
        (attackers, Mode::Combat)
    };
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
        .filter(|(u, m)| *m == mode && able.contains(u))
        .map(|(u, _)| *u)
        .collect();
    let met = chosen.len() >= need && (!able.iter().any(preferred) || chosen.iter().any(preferred));
    Some(OrderStatus {
        able,
        need,
        mode,
        met,
    })
}

/// Whether units bound by an order must still attack: fewer than needed have fought and one
/// that has not can still attack a space not attacked yet.
pub(super) fn order_pending(rules: &Rules, state: &State, s: &Impulses, t: &ImpulseTask) -> bool {
    if t.approach {
        return false;
    }
    let fought = t.ordered.iter().filter(|u| t.fought.contains(u)).count();
    fought < t.order_need
        && t.ordered.iter().any(|&u| {
            !t.fought.contains(&u)
                && attack_targets(rules, state, s, u)
                    .iter()
                    .any(|x| !t.attacked.contains(x))
        })
}

/// Whether a unit stands (or would stand, in `space`) next to a space holding units hostile
/// to it.
pub(super) fn next_to_hostile(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: Option<usize>,
) -> bool {
    let g = &rules.content.graph;
    let Some(here) = space.or_else(|| placed(rules, state, unit).map(|(_, i)| i)) else {
        return false;
    };
    g.neighbours(here)
        .iter()
        .any(|&(n, _)| hostile_in(rules, state, &g.spaces[n].id, unit))
}

/// Whether a unit, from the space `start` (a graph index), having used `used` of its `allowed`
/// half points, can still end a move next to a hostile unit: a search over the steps its movement allows (the restrictions of its
/// movement test, the costs, the spaces where it must stop).
pub(super) fn can_approach(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    (unit, start): (usize, usize),
    (used, allowed): (u32, u32),
) -> bool {
    let g = &rules.content.graph;
    let lifted = lifted_kinds(state, s, unit);
    let floor = t.restricted.get(&unit).copied();
    let property = restricted_property(s);
    let mut best: BTreeMap<usize, u32> = BTreeMap::from([(start, used)]);
    let mut frontier = vec![(start, used)];
    let mut steps = movement::UnitSteps::new(rules, state, unit);
    while let Some((x, spent)) = frontier.pop() {
        if best.get(&x).is_some_and(|&b| b < spent) {
            continue;
        }
        let from = &g.spaces[x].id;
        for &(n, e) in g.neighbours(x) {
            let to = &g.spaces[n].id;
            let cost = steps.cost((e, n), &lifted);
            if !movement::fits(spent, cost, allowed)
                || floor.is_some_and(|f| prop(rules, to, &property) < f)
                || !may_step(rules, state, s, unit, from, n, e)
                || !steps.may((x, n, e))
            {
                continue;
            }
            // Its move may end there, or pass on (the stacking rules hold where it ends).
            if next_to_hostile(rules, state, unit, Some(n)) && may_stop(rules, state, unit, to) {
                return true;
            }
            let now = spent + cost.max(1);
            if stops_in(rules, state, s, unit, to) || best.get(&n).is_some_and(|&b| b <= now) {
                continue;
            }
            best.insert(n, now);
            frontier.push((n, now));
        }
    }
    false
}

/// The units under an order to approach that still must, and can, get next to a hostile unit:
/// while fewer than needed stand there.
pub(super) fn approach_pending(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    t: &ImpulseTask,
) -> bool {
    if !t.approach {
        return false;
    }
    let there = t
        .ordered
        .iter()
        .filter(|&&u| next_to_hostile(rules, state, u, None))
        .count();
    there < t.order_need
        && t.ordered.iter().any(|&u| {
            !next_to_hostile(rules, state, u, None) && {
                let used = t.used.get(&u).copied().unwrap_or(0);
                let allowed = t.allowed.get(&u).copied().unwrap_or(0);
                (used < allowed || used == 0)
                    && placed(rules, state, u).is_some_and(|(_, at)| {
                        can_approach(rules, state, (s, t), (u, at), (used, allowed))
                    })
            }
        })
}

/// Whether a step into `n`, costing `cost` after `used` half points, keeps a unit under an
/// order to approach able to end next to a hostile unit (always, for a unit the order does not
/// bind or that needs not move).
pub(super) fn keeps_approach(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    unit: usize,
    (n, used, cost): (usize, u32, impl Fn() -> u32),
) -> bool {
    if !t.approach || !t.ordered.contains(&unit) || !approach_pending(rules, state, s, t) {
        return true;
    }
    let g = &rules.content.graph;
    let to = &g.spaces[n].id;
    if next_to_hostile(rules, state, unit, Some(n)) && may_stop(rules, state, unit, to) {
        return true;
    }
    if stops_in(rules, state, s, unit, to) {
        return false;
    }
    // From there, with what it would have left.
    let used = used + cost().max(1);
    let allowed = t.allowed.get(&unit).copied().unwrap_or(0);
    used < allowed && can_approach(rules, state, (s, t), (unit, n), (used, allowed))
}
