//! Movement by rail (`movement_rules.rail`): in the impulses it lists, a unit of the types
//! they allow that has not yet moved in the impulse and stands in no hostile zone of control
//! may move by rail instead (`rail UNIT`): then each step costs one of its `spaces`, whatever
//! the terrain and the zones, and leads only into a space its side controls that holds no
//! hostile unit and lies in no hostile zone of control: behind its side's front, never where
//! the enemy passed last.

use super::*;

/// `rail UNIT`, when the unit may start a move by rail now.
pub(super) fn rail_option(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
) -> Option<Action> {
    let rail = s.movement_rules.rail.as_ref()?;
    let unit = &state.units[u];
    let ty = rules.unit_type(unit);
    let allowed = rail.impulses.iter().any(|r| {
        r.impulse == t.impulse
            && (r.types.is_empty() || r.types.iter().any(|x| x == ty))
            && !r.except.iter().any(|x| x == ty)
    });
    let (_, at) = placed(rules, state, u)?;
    let fresh = t.used.get(&u).is_some_and(|&used| used == 0) && !t.acted.contains(&u);
    (allowed
        && fresh
        && !t.rail.contains(&u)
        && !state.flow.oos.contains(&u)
        && !movement::in_enemy_zone(rules, state, rules.side(unit), at))
    .then(|| Action::new("rail").and_unit(rules.content, state, u))
}

/// The spaces a unit moving by rail may step into from `at`.
pub(super) fn rail_steps(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
    at: usize,
) -> Vec<usize> {
    let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
        return Vec::new();
    };
    if used + 2 > allowed {
        return Vec::new();
    }
    let g = &rules.content.graph;
    let side = rules.side(&state.units[u]);
    let from = g.spaces[at].id.as_str();
    g.neighbours(at)
        .iter()
        .filter(|&&(n, e)| {
            let to = g.spaces[n].id.as_str();
            state.control.get(to).map(|x| x.as_str()) == Some(&side)
                && !movement::in_enemy_zone(rules, state, side, n)
                && may_step(rules, state, s, u, from, n, e)
                && super::crossing::slow(rules, s, e).is_none()
                && movement::may(rules, state, HookPoint::MayMove, u, (from, to))
                && (may_stop(rules, state, u, to) || used + 4 <= allowed)
        })
        .map(|&(n, _)| n)
        .collect()
}
