//! What the combat procedure needs from a zone game's operations: who is hostile to whom,
//! the printed strength, the city's support and garrison, where a unit may retreat, how a
//! unit enters a space, and the units the impulse gives an attack.

pub(in crate::rules) use super::is_besieger;
pub(in crate::rules) use super::prompts::{garrison, support, support_track};
use super::*;
pub(in crate::rules) use super::{hostile, hostile_in, on_map, spec, stat};
pub(in crate::rules) use crate::rules::procedures::stacking_allows;
use crate::rules::stacking::stacking_allows_with;

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
    let supply = AttackLines::new(rules, state, s);
    t.units
        .iter()
        .filter(|(u, m)| {
            fights(state, s, *u, *m)
                && !t.fought.contains(u)
                && on_map(state, *u).is_some()
                && supply.allows(rules, state, *u)
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
/// the reserves that followed them acted, the supply units that supplied the attack (as few
/// as supply every attacker, those that supply most first) and the units that supported it
/// from a distance were used.
pub(in crate::rules) fn fought(
    rules: &Rules,
    state: &mut State,
    (attackers, followed, supporters): (&[usize], &[usize], &[usize]),
) {
    let Some(Task::Impulses(t)) = state.flow.tasks.last() else {
        return;
    };
    let mut used = Vec::new();
    if let Some(s) = spec(rules, t.at) {
        let lines = AttackLines::new(rules, state, s);
        let mut needs: Vec<Vec<usize>> = attackers
            .iter()
            .filter_map(|&a| lines.sources(rules, state, a))
            .filter(|found| !found.is_empty())
            .collect();
        while !needs.is_empty() {
            let mut count: BTreeMap<usize, usize> = BTreeMap::new();
            for found in &needs {
                for &x in found {
                    *count.entry(x).or_insert(0) += 1;
                }
            }
            let Some((&best, _)) = count
                .iter()
                .max_by_key(|(x, n)| (**n, std::cmp::Reverse(**x)))
            else {
                break;
            };
            used.push(best);
            needs.retain(|found| !found.contains(&best));
        }
    }
    if let Some(Task::Impulses(t)) = state.flow.tasks.last_mut() {
        t.fought.extend(attackers.iter().copied());
        t.acted.extend(attackers.iter().copied());
        t.acted.extend(followed.iter().copied());
        t.sources_used.extend(used);
        t.supported.extend(supporters.iter().copied());
    }
}

/// Whether the condition kept at `at` in `game.ron` holds (a missing or failing one does not).
pub(in crate::rules) fn holds(rules: &Rules, state: &State, at: &str, ctx: &Context) -> bool {
    rules.condition(state, at, ctx) == Some(true)
}

/// How a retreat's end ranks (lower first): towards the favoured direction of the retreat
/// property, and free of other sides' units (8.3.2), then through a full friendly space
/// (8.3.3), then across a line only a forced retreat may cross (7.3.2), then into a closed
/// space (2.2.7, 2.2.8).
const THROUGH: u8 = 4;
const FORCED: u8 = 8;
const CLOSED: u8 = 12;

/// Where a defender may retreat, in the order of 8.3.2: towards the property's favoured
/// direction first, and among those free of other sides' units first (the rules that keep
/// nations apart give way where they say a retreat may break them); failing those, where the
/// combat rules allow it, through a full space of its own group into one next to it (8.3.3);
/// failing that, across a line it may cross only when forced; a closed space last. Stacking's
/// limits must allow the end.
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
    let Some((from, fi)) = placed(rules, state, unit) else {
        return Vec::new();
    };
    let nation = rules.nation(&state.units[unit]);
    let side = rules.side(&state.units[unit]);
    let lower = s.combat.retreat_lower.iter().any(|n| n == nation);
    let here = prop(rules, from, &s.combat.retreat_by);
    let tier = |to: &str| {
        let there = prop(rules, to, &s.combat.retreat_by);
        let favoured = if lower { there <= here } else { there >= here };
        let mixed = state
            .units_at(to)
            .any(|(i, x)| i != unit && rules.side(x) != side);
        2 * u8::from(!favoured) + u8::from(mixed)
    };
    // Whether a retreat may end in a space from a neighbour across a connection: not at all,
    // freely (false) or only when forced (true).
    let zones_block = s
        .combat
        .retreat_blocked_by_zones
        .iter()
        .any(|x| x == nation);
    let ends = |via: &str, n: usize, e: usize| -> Option<bool> {
        let to = &g.spaces[n].id;
        if is_closed(state, s, to) || hostile_in(rules, state, to, unit) {
            return None;
        }
        // An empty space in a hostile zone of control, for the nations it blocks.
        if zones_block
            && state.units_at(to).next().is_none()
            && movement::in_enemy_zone(rules, state, side, n)
        {
            return None;
        }
        let forced = match barring(rules, state, s, unit, e, &[]) {
            None => false,
            Some(true) => true,
            Some(false) => return None,
        };
        (city_allows(rules, state, s, unit, via, to, true)
            && stacking_allows_with(rules, state, unit, to, true))
        .then_some(forced)
    };
    let direct = retreat::ranked(rules, state, unit, |n, e| {
        let to = &g.spaces[n].id;
        if is_closed(state, s, to) {
            // Into a closed space only when nothing else is left (2.2.7, 2.2.8).
            let open = !s.combat.into_closed.is_empty()
                && !hostile_in(rules, state, to, unit)
                && !barred(rules, state, s, unit, e);
            return open.then_some(CLOSED);
        }
        let forced = ends(from, n, e)?;
        Some(if forced { FORCED } else { 0 } + tier(to))
    });
    if !s.combat.through_full || direct.iter().any(|(r, _)| *r < THROUGH) {
        return retreat::best(direct);
    }
    // Through a full space of its own nationality, into one next to it (8.3.3).
    let mut through = Vec::new();
    for &(f, e) in g.neighbours(fi) {
        let full = &g.spaces[f].id;
        let own = state
            .units_at(full)
            .any(|(i, _)| i != unit && !hostile(rules, state, unit, i));
        if !own
            || is_closed(state, s, full)
            || hostile_in(rules, state, full, unit)
            || barred(rules, state, s, unit, e)
            || !city_allows(rules, state, s, unit, from, full, true)
            || stacking_allows_with(rules, state, unit, full, true)
            || !movement::may(rules, state, HookPoint::MayRetreat, unit, (from, full))
        {
            continue;
        }
        for &(n, e2) in g.neighbours(f) {
            let to = &g.spaces[n].id;
            if n == fi
                || ends(full, n, e2) != Some(false)
                || !movement::may(rules, state, HookPoint::MayRetreat, unit, (full, to))
            {
                continue;
            }
            through.push((THROUGH + tier(to), to.to_string()));
        }
    }
    if through.is_empty() {
        retreat::best(direct)
    } else {
        retreat::best(through)
    }
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
        let names = vec![crate::rules::hooks::unit("u", unit)];
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
    barring(rules, state, s, unit, edge, &[]).is_some()
}

/// Whether a unit's nation may cross a connection: `None` freely, `Some(true)` only when a
/// retreat forces it, `Some(false)` never. The kinds in `lifted` bar nothing.
pub(super) fn barring(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    edge: usize,
    lifted: &[String],
) -> Option<bool> {
    let nation = rules.nation(&state.units[unit]);
    let kinds = &rules.content.graph.edges[edge].kinds;
    let mut rules_barring = s.movement_rules.barred.iter().filter(|b| {
        b.nations.iter().any(|n| n == nation)
            && kinds
                .iter()
                .any(|k| b.kinds.contains(k) && !lifted.contains(k))
    });
    let first = rules_barring.next()?;
    Some(first.forced && rules_barring.all(|b| b.forced))
}

/// Whether the city's rules let a unit step from a space into another: defenders may not enter
/// a contested or held city space from outside, nor leave the city from one (7.4.1, 7.4.2); in
/// a retreat, besiegers may enter a city space only if their side holds it (8.3.5).
pub(super) fn city_allows(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    from: &str,
    to: &str,
    retreating: bool,
) -> bool {
    let Some(city) = &s.city else {
        return true;
    };
    let (from_city, to_city) = (
        in_region(rules, from, &city.region),
        in_region(rules, to, &city.region),
    );
    if is_besieger(rules, state, city, unit) {
        let side = rules.side(&state.units[unit]);
        !retreating
            || !to_city
            || marker_level(state, &city.marker, to) >= city.control_level
                && state.control.get(to).map(|x| x.as_str()) == Some(&side)
    } else {
        !(to_city && !from_city && contested_or_held(rules, state, city, to)
            || from_city && !to_city && contested_or_held(rules, state, city, from))
    }
}

/// The JSON pointer of a sequence step's impulse rules in `game.ron`.
pub fn pointer(at: (usize, usize)) -> String {
    format!("/sequence/{}/steps/{}/Impulses", at.0, at.1)
}

/// The names a city script is given: the level the progress marker stood at.
pub(in crate::rules) fn level_name(level: u32) -> Vec<(crate::Id, Value)> {
    vec![crate::rules::hooks::int("level", i64::from(level))]
}
