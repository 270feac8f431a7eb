//! Slow crossings (`movement_rules.slow_crossings`): a connection of their kinds (a strait) is
//! crossed only as the whole move of a phase of movement, by a unit that stayed put in its
//! side's last `rest` phases of movement; it then stays put in the next `rest`. The state keeps,
//! by unit, how many of its side's phases of movement in a row it has not moved in (`still`)
//! and how many more it must stay put (`resting`).

use super::*;
use crate::model::SlowCrossing;

/// The slow crossing a connection falls under, if any.
pub(super) fn slow<'s>(rules: &Rules, s: &'s Impulses, edge: usize) -> Option<&'s SlowCrossing> {
    let kinds = &rules.content.graph.edges[edge].kinds;
    s.movement_rules
        .slow_crossings
        .iter()
        .find(|c| c.kinds.iter().any(|k| kinds.contains(k)))
}

/// Whether a unit that has used `used` half points in this phase may cross a connection.
pub(super) fn may_cross(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
    (edge, used): (usize, u32),
) -> bool {
    match slow(rules, s, edge) {
        None => true,
        Some(c) => {
            is_phase(rules, t) && used == 0 && state.still.get(&u).copied().unwrap_or(0) >= c.rest
        }
    }
}

/// A unit crossed a slow connection: its move ends, and it stays put for the rule's rest.
pub(super) fn crossed(state: &mut State, t: &mut ImpulseTask, c: &SlowCrossing, u: usize) {
    let allowed = t.allowed.get(&u).copied().unwrap_or(0);
    t.used.insert(u, allowed.max(1));
    // One more than the rest: the end of this phase counts one off.
    state.resting.insert(u, c.rest + 1);
}

/// At the start of a phase of movement, units resting after a crossing may not move.
pub(super) fn hold_resting(state: &State, t: &mut ImpulseTask) {
    for (&u, _) in state.resting.iter().filter(|(_, &n)| n > 0) {
        if let Some(&allowed) = t.allowed.get(&u) {
            t.used.insert(u, allowed.max(1));
        }
    }
}

/// At the end of a phase of movement: each unit of its side and nations on the map moved or
/// stayed put, and a rest goes by.
pub(super) fn end_phase(rules: &Rules, state: &mut State, t: &ImpulseTask) {
    let Some(s) = spec(rules, t.at) else { return };
    let Some(imp) = s.impulses.get(t.impulse) else {
        return;
    };
    if s.movement_rules.slow_crossings.is_empty() || imp.every != Some(PhaseMode::Move) {
        return;
    }
    for i in 0..state.units.len() {
        let u = &state.units[i];
        if on_map(state, i).is_none()
            || rules.side(u) != imp.side
            || !imp.nations.iter().any(|n| n == rules.nation(u))
        {
            continue;
        }
        if t.acted.contains(&i) {
            state.still.insert(i, 0);
        } else {
            let n = state.still.get(&i).copied().unwrap_or(0);
            state.still.insert(i, (n + 1).min(99));
        }
        if let Some(r) = state.resting.get_mut(&i) {
            *r = r.saturating_sub(1);
            if *r == 0 {
                state.resting.remove(&i);
            }
        }
    }
}
