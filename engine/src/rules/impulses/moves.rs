//! Operations in impulses: movement. Where the units activated to move (in movement or
//! reserve mode) may step next, what a step costs, where a move must end, and the end-of-turn
//! move.
//!
//! Where the game lets a unit pass through a space the stacking rules would not let it stop
//! in (`stacking.pass_through`), a step into one is offered when the unit can go on from there,
//! with the points it has left, to a space where it may stop; it then moves on before anything
//! else is done (the unit passing, `ImpulseTask::passing`).

use super::*;
use crate::rules::stacking::{may_pass, passes_through};

/// Whether a unit may step from `from` into a neighbouring space, by the connection `edge`,
/// moving (not retreating): stopping there or passing through (where it may stop is
/// [`may_stop`]).
pub(super) fn may_step(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    from: &str,
    to: usize,
    edge: usize,
) -> bool {
    may_step_across(rules, state, s, unit, (from, to, edge), &[])
}

/// [`may_step`], with the connection kinds in `crossing` barring nothing (a unit leaving by a
/// rule that lets it cross them).
pub(super) fn may_step_across(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    (from, to, edge): (&str, usize, usize),
    crossing: &[String],
) -> bool {
    let g = &rules.content.graph;
    let to_id = g.spaces[to].id.as_str();
    if barring(rules, state, s, unit, edge, crossing).is_some() || is_closed(state, s, to_id) {
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
    city_allows(rules, state, s, unit, from, to_id, false) && may_pass(rules, state, unit, to_id)
}

/// Whether a unit's move may end in a space it may step into: the stacking rules hold there
/// (6.1.1: stacking is checked where a move ends).
pub(super) fn may_stop(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    stacking_allows(rules, state, unit, space) && movement::may_end(rules, state, unit, space)
}

/// Whether a unit's move must end in a space (a city space it does not hold).
pub(super) fn stops_in(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    space: &str,
) -> bool {
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

/// The moves offered to the units activated in a mode: each unit's steps, or only the steps
/// of the unit passing through a space where it may not stop (`true`: it must go on).
pub(super) fn move_options(
    rules: &Rules,
    state: &State,
    t: &ImpulseTask,
    mode: Mode,
) -> (Vec<Action>, bool) {
    let Some(s) = spec(rules, t.at) else {
        return (Vec::new(), false);
    };
    if let Some(u) = t.passing {
        let options = unit_moves(rules, state, (s, t), u, &std::cell::Cell::new(false));
        // Its steps were offered only if it could go on; should it not, play goes on.
        if !options.is_empty() {
            return (options, true);
        }
    }
    // Each unit's moves kept from the prompt before where nothing near it changed.
    let (mut options, carried) = super::kept_moves::each_unit(rules, state, t, mode, |u| {
        let searched = std::cell::Cell::new(false);
        let moves = unit_moves(rules, state, (s, t), u, &searched);
        (moves, super::kept_moves::keepable(t, u, searched.get()))
    });
    options.extend(super::breakdown::options(rules, state, t));
    if mode == Mode::Move {
        let (overruns, asked) = stack_overrun_options(rules, state, (s, t), carried.as_ref());
        options.extend(overruns);
        if carried.is_some() {
            super::kept_moves::keep_overruns(asked);
        }
    }
    (options, false)
}

/// The steps a unit activated to move may take now, as actions: into a space where it may
/// stop, or one it may pass through on to such a space (`searched` is set when a search went
/// on from such a space).
fn unit_moves(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
    searched: &std::cell::Cell<bool>,
) -> Vec<Action> {
    let g = &rules.content.graph;
    let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
        return Vec::new();
    };
    if used >= allowed && used > 0 {
        return Vec::new();
    }
    let Some((_, at)) = placed(rules, state, u) else {
        return Vec::new();
    };
    let name = Word::unit(rules.content, state, u);
    if t.rail.contains(&u) {
        return rail_steps(rules, state, (s, t), u, at)
            .into_iter()
            .map(|n| Action::new("move").and(name).and(g.spaces[n].id))
            .collect();
    }
    // A unit that may not stay where it stands steps only out of it, and stops.
    let to: Vec<usize> = if leave::leaving(t, u).is_some() {
        if used > 0 {
            return Vec::new();
        }
        leave::leave_steps(rules, state, (s, t), u)
    } else {
        // The unit's steps asked through one `UnitSteps`, its search's too.
        let mut asked = movement::UnitSteps::new(rules, state, u);
        steps(rules, state, (s, t), &mut asked, (at, used))
            .into_iter()
            .filter(|&(n, cost)| {
                may_stop(rules, state, u, &g.spaces[n].id) || {
                    searched.set(true);
                    passes_on(rules, state, (s, t), &mut asked, (n, used + cost))
                }
            })
            .map(|(n, _)| n)
            .collect()
    };
    let mut out: Vec<Action> = to
        .into_iter()
        .map(|n| Action::new("move").and(name).and(g.spaces[n].id))
        .collect();
    if t.passing.is_none() && leave::leaving(t, u).is_none() {
        out.extend(overrun_options(rules, state, (s, t), u));
        out.extend(rail_option(rules, state, (s, t), u));
        out.extend(super::exits::exit_option(rules, state, (s, t), u));
    }
    out
}

/// The steps a unit activated to move may take from the space `at` (a graph index: where it
/// stands, or where a search has it) having used `used` half points, each with its cost,
/// whether it may stop where a step leads or only pass.
fn steps(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    asked: &mut movement::UnitSteps,
    (at, used): (usize, u32),
) -> Vec<(usize, u32)> {
    let u = asked.unit();
    let g = &rules.content.graph;
    let Some(&allowed) = t.allowed.get(&u) else {
        return Vec::new();
    };
    // A piece apart from its army moves only to rejoin it, and stops when it has.
    let own = t.apart.contains(&u).then(|| OwnPieces::of(rules, state, u));
    let rejoining = own.as_ref().map(|own| own.farthest(at));
    if rejoining.is_some_and(|d| d <= 1) {
        return Vec::new();
    }
    let from = g.spaces[at].id.as_str();
    let lifted = lifted_kinds(state, s, u);
    let floor = t.restricted.get(&u);
    let may = |n: usize, e: usize| {
        floor.is_none_or(|&f| prop(rules, &g.spaces[n].id, &restricted_property(s)) >= f)
            && (own.as_ref().zip(rejoining)).is_none_or(|(own, d)| own.farthest(n) < d)
            && may_step(rules, state, s, u, from, n, e)
            && super::crossing::may_cross(rules, state, (s, t), u, (e, used))
            && keeps_approach(
                rules,
                state,
                (s, t),
                u,
                (n, used, || move_cost(rules, state, s, u, (e, n))),
            )
    };
    movement::steps_from_with(asked, at, ((used, allowed), &lifted), may)
}

/// Whether a unit may step into a space `n` where it may not stop, having then used `used`
/// half points: the game lets it pass through, its move need not end there, and it can go on
/// from there to a space where it may stop.
fn passes_on(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    asked: &mut movement::UnitSteps,
    (n, used): (usize, u32),
) -> bool {
    let u = asked.unit();
    let g = &rules.content.graph;
    let goes_on = |x: usize| !stops_in(rules, state, s, u, &g.spaces[x].id);
    (passes_through(rules) || stacking_allows(rules, state, u, &g.spaces[n].id))
        && goes_on(n)
        && movement::reaches_stop(
            (n, used),
            |x, spent| steps(rules, state, (s, t), asked, (x, spent)),
            |x| may_stop(rules, state, u, &g.spaces[x].id),
            goes_on,
        )
}

/// What a step across a connection into a space costs, in half points, with the costs an
/// event lifts.
pub(super) fn move_cost(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    step: (usize, usize),
) -> u32 {
    movement::step_cost(rules, state, unit, step, &lifted_kinds(state, s, unit))
}

/// The connection kinds whose extra cost an event lifts for a unit.
pub(super) fn lifted_kinds<'s>(state: &State, s: &'s Impulses, unit: usize) -> Vec<&'s String> {
    s.movement_rules
        .ignore_costs
        .iter()
        .filter(|f| state.flags.contains(f.flag.as_str()) || state.unit_flag(unit, &f.flag))
        .flat_map(|f| &f.kinds)
        .collect()
}

pub(super) fn restricted_property(s: &Impulses) -> String {
    s.movement_rules
        .move_test
        .as_ref()
        .map_or_else(String::new, |m| m.property.clone())
}

/// The end-of-turn move (5.1): units not activated this turn may each move one space.
pub(super) fn end_move_options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<Action> {
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
                    state.flags.contains(l.flag.as_str())
                        && l.nations.iter().any(|n| n == rules.nation(u))
                })
                && test_may_fail(rules, state, m)
        });
        let name = Word::unit(rules.content, state, i);
        for &(n, e) in g.neighbours(fi) {
            let to = &g.spaces[n].id;
            if em.not_into.iter().any(|r| in_region(rules, to, r)) {
                continue;
            }
            // The westward restriction still holds, without a test, on the turns the test
            // may fail (5.1 with 7.2.2).
            if let Some(m) = test {
                if prop(rules, to, &m.property) < prop(rules, from, &m.property) {
                    continue;
                }
            }
            // One space: the move ends where it steps.
            if hostile_in(rules, state, to, i)
                || !may_step(rules, state, s, i, from, n, e)
                || !may_stop(rules, state, i, to)
            {
                continue;
            }
            options.push(Action::new("move").and(name).and(*to));
        }
    }
    options
}

/// Whether a movement test may fail on the current turn: some roll of its table, in the
/// turn's column, is not `pass` (from the turn every roll passes, the restriction is gone).
pub(super) fn test_may_fail(rules: &Rules, state: &State, test: &crate::model::MoveTest) -> bool {
    let Some(table) = rules.content.tables.iter().find(|x| x.id == test.table) else {
        return false;
    };
    let Ok(column) = table.column(ColumnInput::Strength(state.turn as i32)) else {
        return true;
    };
    table.rows.iter().any(|r| {
        !matches!(r.cells.get(column), Some(Cell::Scalar(Scalar::Symbol(x))) if *x == test.pass)
    })
}
