//! Overrun: in a movement impulse or phase, units of the game's overrun types in supply may
//! move onto a space held only by hostile units when their attack strength is at least
//! `ratio` times their defence strength (both through the `Strength` hooks, so the terrain
//! counts), paying the step's cost and `cost` more, with no minimum move, where the stacking
//! limits hold without the overrun units. One unit alone (`overrun UNIT SPACE`) or several
//! together (`overrun SPACE`, then `join UNIT` for each, then `overrun`). The overrun units
//! are destroyed, and the overrunning units move no further in the phase (they may still
//! attack in the combat that follows). The rules remove the overrun units at the end of the
//! phase and treat their space as empty until then; here they go at once, which comes to the
//! same.

use super::*;
use crate::model::Overrun;
use crate::rules::combat::odds_printed;

/// The overruns a unit may make now, as actions.
pub(super) fn overrun_options(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
) -> Vec<Action> {
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
    let Some((_, at)) = placed(rules, state, u) else {
        return Vec::new();
    };
    let g = &rules.content.graph;
    let name = Word::unit(rules.content, state, u);
    // Its steps asked through one `UnitSteps` (as `overruns` asks one step).
    let mut asked = movement::UnitSteps::new(rules, state, u);
    let lifted = lifted_kinds(state, s, u);
    g.neighbours(at)
        .iter()
        .filter(|&&(n, e)| {
            let cost = asked.cost((e, n), &lifted) + 2 * o.cost;
            used + cost <= allowed
                && overruns(rules, state, (s, o), &mut asked, (at, n, e)).is_some()
        })
        .map(|&(n, _)| Action::new("overrun").and(name).and(g.spaces[n].id))
        .collect()
}

/// The units a unit (whose steps `asked` asks) would overrun stepping from `at` into `to`
/// across `edge` (graph indexes), with the strengths compared, if it may.
fn overruns(
    rules: &Rules,
    state: &State,
    (s, o): (&Impulses, &Overrun),
    asked: &mut movement::UnitSteps,
    (at, to, edge): (usize, usize, usize),
) -> Option<(Vec<usize>, i64, i64)> {
    let u = asked.unit();
    if barred(rules, state, s, u, edge) || !asked.may((at, to, edge)) {
        return None;
    }
    overrun_by(
        rules,
        state,
        (s, o),
        &[u],
        &rules.content.graph.spaces[to].id,
    )
}

/// The units a group would overrun moving into `to` together, with the strengths compared
/// (the group's attack, through the `Strength` hooks with the group as the attackers, so a
/// river crossed by all of them counts), if they may: the space holds only units hostile to
/// them, and they fit the stacking limits there without the overrun units (Overrun B, C).
fn overrun_by(
    rules: &Rules,
    state: &State,
    (s, o): (&Impulses, &Overrun),
    group: &[usize],
    to: &str,
) -> Option<(Vec<usize>, i64, i64)> {
    let first = *group.first()?;
    let defenders: Vec<usize> = state.units_at(to).map(|(i, _)| i).collect();
    if defenders.is_empty() || defenders.iter().any(|&d| !hostile(rules, state, first, d)) {
        return None;
    }
    if !fit(rules, state, group, to, &defenders) {
        return None;
    }
    let mut acted = battle::Acted::new();
    let mut strength = |x: usize, attacking: bool| {
        let printed = i64::from(odds_printed(rules, state, s, x, attacking));
        battle::strength(
            rules,
            state,
            (x, &mut acted),
            (to, attacking, group),
            printed,
        )
    };
    let attack: i64 = group.iter().map(|&u| strength(u, true)).sum();
    let defence: i64 = defenders.iter().map(|&d| strength(d, false)).sum();
    (attack >= defence.max(1).saturating_mul(i64::from(o.ratio)))
        .then_some((defenders, attack, defence))
}

/// Whether a group of units fits the stacking limits of `to` once the `gone` units are out.
fn fit(rules: &Rules, state: &State, group: &[usize], to: &str, gone: &[usize]) -> bool {
    if let [u] = group {
        return crate::rules::stacking::allows_without(rules, state, *u, to, gone);
    }
    let mut after = state.clone();
    for &d in gone {
        after.units[d].at = Loc::Removed;
    }
    group.iter().all(|&u| {
        let fits = crate::rules::stacking::stacking_allows(rules, &after, u, to);
        after.units[u].at = Loc::Space(to.into());
        fits
    })
}

/// The units of this phase that could join an overrun of `to` now: of the overrun types, in
/// General Supply, next to it with the movement points for the step and the overrun's cost,
/// across a connection they may cross; a group's first unit must be hostile to its units.
/// `placed` holds the phase's units of the mode with where they stand ([`placed_units`]).
fn could_join(
    rules: &Rules,
    state: &State,
    (s, t, o): (&Impulses, &ImpulseTask, &Overrun),
    placed: &[(usize, &str, usize)],
    to: &str,
) -> Vec<usize> {
    let g = &rules.content.graph;
    let Some(ti) = g.index_of(to) else {
        return Vec::new();
    };
    placed
        .iter()
        .filter(|&&(u, from, at)| {
            let unit = &state.units[u];
            // Next to it first: most units of a phase are not.
            let Some(&(_, e)) = g.neighbours(at).iter().find(|&&(n, _)| n == ti) else {
                return false;
            };
            let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
                return false;
            };
            o.types.iter().any(|x| x == rules.unit_type(unit))
                && !state.flow.oos.contains(&u)
                && !t.rail.contains(&u)
                && used + move_cost(rules, state, s, u, (e, ti)) + 2 * o.cost <= allowed
                && !barred(rules, state, s, u, e)
                && movement::may(rules, state, HookPoint::MayMove, u, (from, to))
        })
        .map(|&(u, _, _)| u)
        .collect()
}

/// The units of the phase that may join an overrun (those of its stage's mode) on the map,
/// each with its space's id and graph index, in the phase's order.
fn placed_units<'s>(
    rules: &Rules,
    state: &'s State,
    t: &ImpulseTask,
) -> Vec<(usize, &'s str, usize)> {
    let mode = if t.stage == Stage::Reserve {
        Mode::Reserve
    } else {
        Mode::Move
    };
    t.units
        .iter()
        .filter(|&&(_, m)| m == mode)
        .filter_map(|&(u, _)| placed(rules, state, u).map(|(from, at)| (u, from, at)))
        .collect()
}

/// Overruns by several units together (Overrun: "move units whose total Attack Strength is at
/// least nine times ..."): `overrun SPACE` for each space next to two units or more that
/// could join, which together (the strongest first, as many as fit) could overrun it; with
/// every space asked and its answer, for the next prompt. A space far from every change since
/// the prompt before (`carried`, see [`super::kept_moves::Carried`]) is asked, and answered,
/// as it was then.
pub(super) fn stack_overrun_options(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    carried: Option<&super::kept_moves::Carried>,
) -> (Vec<Action>, Vec<(usize, bool)>) {
    let Some(o) = &s.movement_rules.overrun else {
        return Default::default();
    };
    if t.passing.is_some() {
        return Default::default();
    }
    let g = &rules.content.graph;
    let near = carried.and_then(|c| c.near.as_ref());
    // The spaces asked: those far from every change that were asked before, and the others
    // next to a unit of the phase whose first unit is hostile to it.
    let mut asked: BTreeMap<usize, Option<bool>> = BTreeMap::new();
    if let (Some(c), Some(near)) = (carried, near) {
        asked.extend(
            (c.overruns.iter())
                .filter(|(n, _)| !near[*n])
                .map(|&(n, offered)| (n, Some(offered))),
        );
    }
    for &(u, _) in &t.units {
        let Some((_, at)) = placed(rules, state, u) else {
            continue;
        };
        for &(n, _) in g.neighbours(at) {
            if near.is_some_and(|near| !near[n]) || asked.contains_key(&n) {
                continue;
            }
            let mut there = state.units_at(&g.spaces[n].id);
            if there
                .next()
                .is_some_and(|(d, _)| hostile(rules, state, u, d))
            {
                asked.insert(n, None);
            }
        }
    }
    let placed = placed_units(rules, state, t);
    let may_overrun = |n: usize| {
        let to = &g.spaces[n].id;
        let mut able = could_join(rules, state, (s, t, o), &placed, to);
        if able.len() < 2 {
            return false;
        }
        able.sort_by_key(|&u| std::cmp::Reverse(odds_printed(rules, state, s, u, true)));
        let mut group = Vec::new();
        let defenders: Vec<usize> = state.units_at(to).map(|(i, _)| i).collect();
        for u in able {
            group.push(u);
            if !fit(rules, state, &group, to, &defenders) {
                group.pop();
            }
        }
        group.len() >= 2 && overrun_by(rules, state, (s, o), &group, to).is_some()
    };
    super::kept_moves::count_overruns_kept(asked.values().filter(|a| a.is_some()).count());
    let answered: Vec<(usize, bool)> = (asked.into_iter())
        .map(|(n, kept)| (n, kept.unwrap_or_else(|| may_overrun(n))))
        .collect();
    let options = (answered.iter())
        .filter(|(_, offered)| *offered)
        .map(|&(n, _)| Action::new("overrun").and(g.spaces[n].id))
        .collect();
    (options, answered)
}

/// The prompt of an overrun by several units under way: which unit joins next (`join UNIT`),
/// carry it out once they are strong enough (`overrun`), or give it up (`cancel`).
pub(super) fn joining_options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<Action> {
    let Some((to, group)) = &t.overrunning else {
        return Vec::new();
    };
    let mut out = vec![Action::new("cancel")];
    let Some(s) = spec(rules, t.at) else {
        return out;
    };
    let Some(o) = &s.movement_rules.overrun else {
        return out;
    };
    let defenders: Vec<usize> = state.units_at(to).map(|(i, _)| i).collect();
    let placed = placed_units(rules, state, t);
    for u in could_join(rules, state, (s, t, o), &placed, to) {
        let mut with = group.clone();
        with.push(u);
        if !group.contains(&u) && fit(rules, state, &with, to, &defenders) {
            out.push(Action::new("join").and_unit(rules.content, state, u));
        }
    }
    if !group.is_empty() && overrun_by(rules, state, (s, o), group, to).is_some() {
        out.push(Action::new("overrun"));
    }
    out
}

/// Several units overrun the units in a space next to them: they are destroyed, and the
/// group moves in, paying the step and the overrun's cost, and moves no further this phase.
pub(super) fn overrun_together(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
) -> Result<(), String> {
    let (to, group) = t.overrunning.take().ok_or("no overrun is under way")?;
    let s = spec(rules, t.at).ok_or("the operations have no parameters")?;
    let o = s.movement_rules.overrun.as_ref().ok_or("no overrun here")?;
    let (defenders, attack, defence) =
        overrun_by(rules, state, (s, o), &group, &to).ok_or("this overrun is not allowed")?;
    let names = |state: &State, us: &[usize]| -> String {
        let n: Vec<String> = us
            .iter()
            .map(|&u| state.units[u].name(rules.content))
            .collect();
        n.join(", ")
    };
    state.flow.messages.push(format!(
        "{} overrun {} at {to}: {attack} against {defence} ({}:1); destroyed",
        names(state, &group),
        names(state, &defenders),
        attack / defence.max(1)
    ));
    for d in defenders {
        crate::rules::losses::eliminate(rules, state, d);
    }
    for &u in &group {
        let from = on_map(state, u).unwrap_or_default().to_string();
        takes_hand(rules, &mut t, u);
        t.acted.insert(u);
        enter(rules, state, s, u, &to);
        movement::after_step(rules, state, HookPoint::AfterMove, u, (&from, &to));
        let allowed = t.allowed.get(&u).copied().unwrap_or(0);
        t.used.insert(u, allowed.max(1));
    }
    put(state, t);
    Ok(())
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
    let &(n, edge) = g
        .neighbours(at)
        .iter()
        .find(|&&(n, _)| g.spaces[n].id == to)
        .ok_or("not adjacent")?;
    let mut asked = movement::UnitSteps::new(rules, state, u);
    let (defenders, attack, defence) = overruns(rules, state, (s, o), &mut asked, (at, n, edge))
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
