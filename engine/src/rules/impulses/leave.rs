//! Operations in impulses: units that must leave where they stand, or may only be activated to
//! leave it (the operations' `leave` rules: a Soviet unit forced across the front boundary,
//! 7.3.2, or among the other camp's units, 7.3.3; one in an American zone, 2.2.8). When an
//! impulse begins, each unit of its side and nations for which a rule's `when` holds is
//! leaving by that rule: it may only be activated in movement mode, and then only step into a
//! space where the rule's `to` holds, where it stops. A rule that says `must` has its units
//! activated first, and the move may not end before they have left, when they can.

use super::*;

/// The units of the impulse leaving where they stand, each with the rule it leaves by.
pub(super) fn leavers(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<(usize, usize)> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    let Some(imp) = s.impulses.get(t.impulse) else {
        return Vec::new();
    };
    if s.leave.is_empty() {
        return Vec::new();
    }
    // The rules' conditions, by where they stand in the content, found once (a missing one
    // holds for no unit); the context made once, its unit changed from one to the next.
    let whens: Vec<_> = (0..s.leave.len())
        .map(|k| rules.condition_at(&format!("{}/leave/{k}/when", pointer(t.at))))
        .collect();
    let mut ctx = Context {
        names: vec![crate::rules::hooks::unit("u", 0)],
        ..side_context(rules, &imp.side)
    };
    let mut out = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        if on_map(state, i).is_none()
            || rules.side(u) != imp.side
            || !imp.nations.iter().any(|n| n == rules.nation(u))
            || state.flow.activated.contains(&i)
        {
            continue;
        }
        ctx.names[0] = crate::rules::hooks::unit("u", i);
        let holding = |when: &Option<_>| {
            (when.as_ref())
                .is_some_and(|w: &crate::rules::PreparedCondition| w.holds(rules, state, &ctx))
        };
        if let Some(k) = whens.iter().position(holding) {
            out.push((i, k));
        }
    }
    out
}

/// The rule a unit of the impulse leaves by, if it is leaving.
pub(super) fn leaving(t: &ImpulseTask, unit: usize) -> Option<usize> {
    t.leaving.iter().find(|(u, _)| *u == unit).map(|(_, k)| *k)
}

/// The spaces (graph indexes) a leaving unit may step into now: where its rule's `to` holds,
/// across connections its rule lets it cross, within what it has left to move.
pub(super) fn leave_steps(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    unit: usize,
) -> Vec<usize> {
    let Some(k) = leaving(t, unit) else {
        return Vec::new();
    };
    let rule = &s.leave[k];
    let g = &rules.content.graph;
    let Some(from) = on_map(state, unit) else {
        return Vec::new();
    };
    let used = t.used.get(&unit).copied().unwrap_or(0);
    let allowed = t.allowed.get(&unit).copied().unwrap_or(2);
    let lifted = lifted_kinds(state, s, unit);
    let to_rule = rules.condition_at(&format!("{}/leave/{k}/to", pointer(t.at)));
    let side = rules.side(&state.units[unit]);
    let may = |n: usize, e: usize| {
        let to = &g.spaces[n].id;
        let ctx = Context {
            names: vec![
                crate::rules::hooks::unit("u", unit),
                crate::rules::hooks::space("to", to),
            ],
            ..side_context(rules, &side)
        };
        // It steps once and stops.
        may_step_across(rules, state, s, unit, (from, n, e), &rule.crossing)
            && may_stop(rules, state, unit, to)
            && (to_rule.as_ref()).is_some_and(|r| r.holds(rules, state, &ctx))
    };
    movement::destinations(rules, state, unit, ((used, allowed), &lifted), may)
}

/// Whether a unit must leave by a rule that says `must`, and has a way out.
fn must_leave(rules: &Rules, state: &State, (s, t): (&Impulses, &ImpulseTask), u: usize) -> bool {
    leaving(t, u).is_some_and(|k| s.leave[k].must)
        && !leave_steps(rules, state, (s, t), u).is_empty()
}

/// The units that must leave and are not activated yet: their side activates them first.
pub(super) fn must_activate(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    t: &ImpulseTask,
) -> Vec<usize> {
    t.leaving
        .iter()
        .map(|(u, _)| *u)
        .filter(|u| !t.units.iter().any(|(x, _)| x == u))
        .filter(|&u| must_leave(rules, state, (s, t), u))
        .collect()
}

/// Whether a unit activated to move must still leave (it has not moved, and can): the move
/// may not end yet.
pub(super) fn must_move(rules: &Rules, state: &State, s: &Impulses, t: &ImpulseTask) -> bool {
    t.units.iter().any(|&(u, m)| {
        m == Mode::Move
            && t.used.get(&u).copied().unwrap_or(0) == 0
            && must_leave(rules, state, (s, t), u)
    })
}
