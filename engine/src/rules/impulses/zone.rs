//! What the combat procedure needs from a zone game's operations: who is hostile to whom,
//! the printed strength, the city's support and garrison, where a unit may retreat, how a
//! unit enters a space, and the units the impulse gives an attack.

pub(in crate::rules) use super::is_besieger;
pub(in crate::rules) use super::prompts::{garrison, support, support_track};
use super::*;
pub(in crate::rules) use super::{hostile, hostile_in, on_map, spec, stat};
pub(in crate::rules) use crate::rules::procedures::stacking_allows;

/// The units of this impulse that may attack a space (in a city space, on the city table).
pub(super) fn attacker_pool(
    rules: &Rules,
    state: &State,
    t: &ImpulseTask,
    space: &str,
    city: bool,
) -> Vec<usize> {
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
            if city {
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
                                .any(|&(n, _)| rules.content.graph.spaces[n].id == space)
                        })
                });
                (at == space
                    && s.city
                        .as_ref()
                        .is_some_and(|c| may_siege(rules, state, c, u)))
                    || helper
            } else {
                attack_targets(rules, state, s, u).contains(&space.to_string())
            }
        })
        .collect()
}

/// Starts a combat of this impulse at a space: a combat task on top of the operations.
pub(super) fn start_combat(
    rules: &Rules,
    state: &mut State,
    t: &ImpulseTask,
    space: &str,
    city: bool,
) {
    let Some(s) = spec(rules, t.at) else { return };
    let side = &s.impulses[t.impulse].side;
    let mut c = CombatTask::with(side, space, How::odds(t.at, city));
    c.pool = attacker_pool(rules, state, t, space, city);
    c.reserves = t
        .units
        .iter()
        .filter(|(_, m)| *m == Mode::Reserve)
        .map(|(u, _)| *u)
        .collect();
    state.flow.tasks.push(Task::Combat(Box::new(c)));
}

/// The operations learn who fought in a combat that ended: the attackers fought and acted,
/// the reserves that followed them acted.
pub(in crate::rules) fn fought(state: &mut State, attackers: &[usize], followed: &[usize]) {
    if let Some(Task::Impulses(t)) = state.flow.tasks.last_mut() {
        t.fought.extend(attackers.iter().copied());
        t.acted.extend(attackers.iter().copied());
        t.acted.extend(followed.iter().copied());
    }
}

/// Whether the condition kept at `at` in `game.ron` holds (a missing or failing one does not).
pub(in crate::rules) fn holds(rules: &Rules, state: &State, at: &str, ctx: &Context) -> bool {
    rules
        .content
        .sequence
        .conditions
        .get(at)
        .is_some_and(|c| eval::condition(c, rules.content, state, ctx).unwrap_or(false))
}

/// Where a defender may retreat, in the order of 8.3.2: towards the property's favoured
/// direction and free of hostile units; else anywhere free of hostile units. Stacking must
/// allow it.
pub(in crate::rules) fn retreat_options(
    rules: &Rules,
    state: &State,
    at: Option<(usize, usize)>,
    unit: usize,
) -> Vec<String> {
    let Some(s) = at.and_then(|at| spec(rules, at)) else {
        return Vec::new();
    };
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

/// A retreat into a space: the `AfterRetreat` hooks, and the game's script for a retreat
/// into a closed space.
pub(in crate::rules) fn retreat_into(
    rules: &Rules,
    state: &mut State,
    at: Option<(usize, usize)>,
    unit: usize,
    to: &str,
) {
    let Some((at, s)) = at.and_then(|at| Some((at, spec(rules, at)?))) else {
        return;
    };
    let from = on_map(state, unit).unwrap_or_default().to_string();
    super::enter(rules, state, s, unit, to);
    movement::after_step(rules, state, HookPoint::AfterRetreat, unit, (&from, to));
    if is_closed(state, s, to) {
        let side = rules.side(&state.units[unit]).to_string();
        let place = format!("{}/combat/into_closed", pointer(at));
        let names = vec![("u".to_string(), Value::Unit(unit))];
        run_rule_script(rules, state, &place, &side, (None, names));
    }
}

/// A unit enters a space after combat.
pub(in crate::rules) fn advance_into(
    rules: &Rules,
    state: &mut State,
    at: Option<(usize, usize)>,
    unit: usize,
    space: &str,
) {
    if let Some(s) = at.and_then(|at| spec(rules, at)) {
        super::enter(rules, state, s, unit, space);
    }
}

/// Whether a space is closed to every unit by a marker.
pub(super) fn is_closed(state: &State, s: &Impulses, space: &str) -> bool {
    s.movement_rules
        .closed_markers
        .iter()
        .any(|m| marker_level(state, m, space) > 0)
}

/// Whether a unit's nation may not cross a connection.
pub(super) fn barred(rules: &Rules, state: &State, s: &Impulses, unit: usize, edge: usize) -> bool {
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

/// The names a city script is given: the level the progress marker stood at.
pub(in crate::rules) fn level_name(level: u32) -> Vec<(String, Value)> {
    vec![("level".into(), Value::Int(i64::from(level)))]
}
