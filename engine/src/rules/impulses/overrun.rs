//! Overrun: in a movement impulse or phase, a unit of the game's overrun types in supply may
//! move onto a space held only by hostile units when its attack strength is at least `ratio`
//! times their defence strength (both through the `Strength` hooks, so the terrain counts),
//! paying the step's cost and `cost` more, with no minimum move, where the stacking limits
//! hold without the overrun units. They are destroyed, and the unit moves no further in the
//! phase (it may still attack in the combat that follows). The rules remove them at the end
//! of the phase and treat their space as empty until then; here they go at once, which comes
//! to the same.

use super::*;
use crate::model::Overrun;
use crate::rules::combat::odds_printed;

/// The overruns a unit may make now, as actions.
pub(super) fn overrun_options(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
) -> Vec<String> {
    let Some(o) = &s.movement_rules.overrun else {
        return Vec::new();
    };
    let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
        return Vec::new();
    };
    let unit = &state.units[u];
    if !o.types.iter().any(|x| x == rules.unit_type(unit)) || state.flow.oos.contains(&u) {
        return Vec::new();
    }
    let Some((from, at)) = placed(rules, state, u) else {
        return Vec::new();
    };
    let g = &rules.content.graph;
    let name = unit.name(rules.content);
    g.neighbours(at)
        .iter()
        .filter(|&&(n, e)| {
            let cost = move_cost(rules, state, s, u, (e, n)) + 2 * o.cost;
            used + cost <= allowed
                && overruns(rules, state, (s, o), u, (from, &g.spaces[n].id), e).is_some()
        })
        .map(|&(n, _)| format!("overrun {name} {}", g.spaces[n].id))
        .collect()
}

/// The units a unit would overrun stepping from `from` into `to` across `edge`, with the
/// strengths compared, if it may.
fn overruns(
    rules: &Rules,
    state: &State,
    (s, o): (&Impulses, &Overrun),
    u: usize,
    (from, to): (&str, &str),
    edge: usize,
) -> Option<(Vec<usize>, i64, i64)> {
    let defenders: Vec<usize> = state.units_at(to).map(|(i, _)| i).collect();
    if defenders.is_empty() || defenders.iter().any(|&d| !hostile(rules, state, u, d)) {
        return None;
    }
    if barred(rules, state, s, u, edge)
        || !movement::may(rules, state, HookPoint::MayMove, u, (from, to))
        || !crate::rules::stacking::allows_without(rules, state, u, to, &defenders)
    {
        return None;
    }
    let mut acted = battle::Acted::new();
    let attackers = [u];
    let mut strength = |x: usize, attacking: bool| {
        let printed = i64::from(odds_printed(rules, state, s, x, attacking));
        battle::strength(
            rules,
            state,
            (x, &mut acted),
            (to, attacking, &attackers),
            printed,
        )
    };
    let attack = strength(u, true);
    let defence: i64 = defenders.iter().map(|&d| strength(d, false)).sum();
    (attack >= defence.max(1).saturating_mul(i64::from(o.ratio)))
        .then_some((defenders, attack, defence))
}

/// A unit overruns the units in a space next to it: they are destroyed, it moves in and
/// moves no further this phase.
pub(super) fn overrun(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    u: usize,
    to: &str,
) -> Result<(), String> {
    let s = spec(rules, t.at).ok_or("the operations have no parameters")?;
    let o = s.movement_rules.overrun.as_ref().ok_or("no overrun here")?;
    let g = &rules.content.graph;
    let (from, at) = placed(rules, state, u).ok_or("the unit is not on the map")?;
    let from = from.to_string();
    let edge = g
        .neighbours(at)
        .iter()
        .find(|&&(n, _)| g.spaces[n].id == to)
        .map(|&(_, e)| e)
        .ok_or("not adjacent")?;
    let (defenders, attack, defence) = overruns(rules, state, (s, o), u, (&from, to), edge)
        .ok_or("this overrun is not allowed")?;
    let name = state.units[u].name(rules.content);
    let names: Vec<String> = defenders
        .iter()
        .map(|&d| state.units[d].name(rules.content))
        .collect();
    state.flow.messages.push(format!(
        "{name} overruns {} at {to}: {attack} against {defence} ({}:1); destroyed",
        names.join(", "),
        attack / defence.max(1)
    ));
    for d in defenders {
        crate::rules::losses::eliminate(rules, state, d);
    }
    takes_hand(rules, &mut t, u);
    t.acted.insert(u);
    enter(rules, state, s, u, to);
    movement::after_step(rules, state, HookPoint::AfterMove, u, (&from, to));
    let allowed = t.allowed.get(&u).copied().unwrap_or(0);
    t.used.insert(u, allowed.max(1));
    put(state, t);
    Ok(())
}
