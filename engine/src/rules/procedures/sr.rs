//! Strategic redeployment: costs, destinations (by land, by sea, from the reserve box to a home
//! space), markers that move by SR.

use super::*;
use crate::rules::stacking::UnitStack;
use crate::script::eval::Asker;

pub(super) fn sr_cost(rules: &Rules, state: &State, unit: usize) -> u32 {
    let size = rules.size_id(&state.units[unit]);
    rules
        .play
        .sr_costs
        .iter()
        .find(|c| c.size == size)
        .map_or(u32::MAX, |c| c.cost)
}

pub(super) fn sr_prompt(
    rules: &Rules,
    state: &State,
    side: &str,
    points: u32,
    unit: Option<usize>,
) -> Option<Prompt> {
    match unit {
        None => {
            // The side's units, made anew only when more changed than the units redeployed
            // since the last list (see `sr_units`).
            let mut options = sr_units::redeployable(rules, state, side, points, || {
                redeployable_units(rules, state, side, points)
            });
            for r in rules.play.sr_markers.iter().filter(|r| r.side == side) {
                // Offered while it is on the map; where it may go is asked next (and may be
                // nowhere: then `back`).
                let on_map = state.markers.iter().any(|m| m.marker == r.marker);
                if on_map && r.cost <= points {
                    options.push(Action::new("move_marker").and(Word::id(&r.marker)));
                }
            }
            options.push(Action::new("done"));
            Some(Prompt::one_of(
                side,
                "redeploy",
                counted(
                    "Choose a unit to redeploy (",
                    (points, "SR point"),
                    " left), or done",
                ),
                options,
            ))
        }
        Some(u) => Some(destination_prompt(
            side,
            sr_destinations(rules, state, u),
            &state.units[u].name(rules.content),
        )),
    }
}

/// The `redeploy` action of each unit of a side that may be redeployed with `points` left
/// (see [`sr_units::redeployable`]), with the unit's index and its SR's cost.
fn redeployable_units(
    rules: &Rules,
    state: &State,
    side: &str,
    points: u32,
) -> Vec<(usize, u32, Action)> {
    let reserve = rules.box_of(side, BoxRole::Reserve);
    let mut cache = SupplyCache::default();
    // Room for a side's units on the map.
    let mut options = Vec::with_capacity(64);
    // Sides compared as ids, by address, not as texts.
    let side_id = crate::Id::new(side);
    // `done` is always offered: a replay's answer needs only its own unit's supply.
    let given = &state.flow.given;
    let any_unit = given.may_be("redeploy");
    // The reserve box's id, compared by address with each piece's box.
    let reserve_id = reserve.map(crate::Id::new);
    for (i, u) in state.units.iter().enumerate() {
        // Where it is first: most pieces are off the map and out of the reserve.
        let on_map = match &u.at {
            Loc::Space(_) => true,
            Loc::Box(b) if Some(*b) == reserve_id => false,
            _ => continue,
        };
        if !any_unit || rules.side(u) != side_id || state.flow.marks.redeployed.contains(&i) {
            continue;
        }
        let cost = sr_cost(rules, state, i);
        if cost > points {
            continue;
        }
        let option = Action::new("redeploy").and_unit(rules.content, state, i);
        if given.admits(&option) && (!on_map || cache.unit(rules, state, i) != Level::Out) {
            options.push((i, cost, option));
        }
    }
    options
}

/// Where a marker that moves by SR may go: the spaces its rule's condition allows.
pub(super) fn sr_marker_destinations(
    rules: &Rules,
    state: &State,
    side: &str,
    marker: &str,
) -> Vec<crate::Id> {
    let Some(i) = rules
        .play
        .sr_markers
        .iter()
        .position(|r| r.marker == marker)
    else {
        return Vec::new();
    };
    // Found once by its pointer, then asked of every space.
    let Some(to) = rules.condition_at(&format!("/play/sr_markers/{i}/to")) else {
        return Vec::new();
    };
    let mut asker = Asker::new(rules.content, state, side_context(rules, side));
    // `back` is always offered: a replay's answer needs only its own destination.
    let given = &state.flow.given;
    // Asked only of the spaces of the country the condition requires, if it names one.
    let country = to.country_of_space();
    let in_country =
        |s: &crate::model::Space| country.is_none_or(|c| s.country.as_deref() == Some(c.as_str()));
    rules
        .content
        .graph
        .spaces
        .iter()
        .filter(|s| in_country(s) && given.may_be("to") && given.names(1, s.id))
        .filter(|s| {
            asker.set_space(s.id);
            to.asked(rules, state, &mut asker)
        })
        .map(|s| s.id)
        .collect()
}

pub(super) fn sr_marker_prompt(
    rules: &Rules,
    state: &State,
    side: &str,
    marker: &str,
) -> Option<Prompt> {
    let destinations = sr_marker_destinations(rules, state, side, marker);
    Some(destination_prompt(
        side,
        destinations,
        &format!("the {marker} marker"),
    ))
}

/// Where a redeployed unit or marker goes: `to <place>` for each destination, or `back`.
pub(super) fn destination_prompt(side: &str, destinations: Vec<crate::Id>, what: &str) -> Prompt {
    let mut options: Vec<Action> = Vec::with_capacity(destinations.len() + 1);
    options.extend(destinations.into_iter().map(|d| Action::new("to").and(d)));
    options.push(Action::new("back"));
    Prompt::one_of(
        side,
        "redeploy_to",
        ["Where does ", what, " go?"].concat(),
        options,
    )
}

/// Spaces (and the reserve box) a unit may redeploy to.
pub(super) fn sr_destinations(rules: &Rules, state: &State, unit: usize) -> Vec<crate::Id> {
    // `back` is always offered: a replay's answer needs only its own destination.
    let given = &state.flow.given;
    if !given.may_be("to") {
        return Vec::new();
    }
    let wanted = |id: crate::Id| given.names(1, id);
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let side = rules.side(u);
    let nation = rules.nation(u);
    let levels = supply::levels(rules.content, state, nation, &side);
    let large = rules.is_large(u);
    let mut out = Vec::new();
    let reserve = rules.box_of(&side, BoxRole::Reserve);
    match &u.at {
        Loc::Space(at) => {
            // A replay's answer (`to <space>`) needs the route only as far as its space.
            let until = given.word(1).and_then(|to| g.index_of(to));
            let Some(reach) = sr_route::reach(rules, state, unit, (at, until)) else {
                return out;
            };
            let stack = UnitStack::new(rules, state, unit);
            for (i, s) in g.spaces.iter().enumerate() {
                if i != reach.start
                    && reach.seen[i]
                    && wanted(s.id)
                    && levels[i] != Level::Out
                    && stack.may_stack(state, i)
                {
                    out.push(s.id);
                }
            }
            for &i in reach.neutral.keys() {
                let id = &g.spaces[i].id;
                if wanted(*id)
                    && sr_route::may_end(rules, state, &side, id)
                    && stack.may_stack(state, i)
                {
                    out.push(*id);
                }
            }
            if !large && levels[reach.start] == Level::Full {
                if let Some(r) = reserve.filter(|&r| wanted(r.into())) {
                    out.push(r.into());
                }
            }
        }
        Loc::Box(_) => out = home_spaces(rules, state, unit, (&levels, wanted), false),
        _ => {}
    }
    out
}

/// Where a unit enters from a box (a rebuilt or redeployed unit): a space of its nation's home
/// country with a capital, an urban centre or a supply source of its nation, or one the play
/// rule `box_entries` opens to it, that its side controls, in Full Supply (or the supply the
/// entry asks), with room. An entry marked `only` replaces the rest for the units it names;
/// one marked `rebuilt` holds only for a unit `rebuilt` out of the eliminated box. Only the
/// spaces `wanted` are looked at.
pub(super) fn home_spaces(
    rules: &Rules,
    state: &State,
    unit: usize,
    (levels, wanted): (&[Level], impl Fn(crate::Id) -> bool),
    rebuilt: bool,
) -> Vec<crate::Id> {
    let u = &state.units[unit];
    let side = rules.side(u);
    let nation = rules.nation(u);
    // Each home region's members found once, then asked of every space by its index.
    let homes: Vec<_> = rules
        .game
        .nations
        .iter()
        .find(|n| n.id == nation)
        .map(|n| {
            (n.home.iter())
                .map(|h| crate::content::in_region(rules.content, h))
                .collect()
        })
        .unwrap_or_default();
    let size = rules.size(u);
    // Each entry's condition found once by its pointer, then asked of every space.
    let entries: Vec<(&crate::model::BoxEntry, _)> = rules
        .play
        .box_entries
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            (e.nations.iter().any(|n| n == nation) || e.counters.iter().any(|x| *x == u.counter))
                && (e.sizes.is_empty() || e.sizes.iter().any(|s| s == size))
                && (rebuilt || !e.rebuilt)
        })
        .filter_map(|(i, e)| Some((e, rules.condition_at(&format!("/play/box_entries/{i}/to"))?)))
        .collect();
    let only = entries.iter().any(|(e, _)| e.only);
    // An entry limited to some units a round opens a space only until that many came in.
    let mut asker = Asker::new(rules.content, state, side_context(rules, &side));
    let mut opened = |space: &str, level: Level| {
        asker.set_space(space.into());
        let came = state.flow.marks.entered_from_box.get(space).copied();
        entries.iter().any(|(e, to)| {
            let least = match e.supply {
                crate::model::SupplyLevel::Full => Level::Full,
                crate::model::SupplyLevel::Limited => Level::Limited,
            };
            (e.only || !only)
                && level >= least
                && e.per_round.is_none_or(|n| came.unwrap_or(0) < n)
                && to.asked(rules, state, &mut asker)
        })
    };
    let mut out = Vec::new();
    let holders = state.control.by_index(rules.content);
    let stack = UnitStack::new(rules, state, unit);
    for (i, s) in rules.content.graph.spaces.iter().enumerate() {
        if levels[i] == Level::Out || holders[i] != Some(side) || !wanted(s.id) {
            continue;
        }
        let home = !only
            && levels[i] == Level::Full
            && homes.iter().any(|in_home| in_home(i))
            && (s.features.iter().any(|f| f == "capital" || f == "urban")
                || s.supply
                    .iter()
                    .any(|x| x.nations.iter().any(|n| n == nation)));
        if (home || opened(&s.id, levels[i])) && stack.may_stack(state, i) {
            out.push(s.id);
        }
    }
    out
}

pub(super) fn sr_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    (unit, marker): (Option<usize>, Option<String>),
    action: &Action,
) -> Result<(), String> {
    let set = |state: &mut State, p: u32, u: Option<usize>| {
        if let Some(Task::Sr { points, unit, .. }) = state.flow.tasks.last_mut() {
            *points = p;
            *unit = u;
        }
    };
    let set_marker = |state: &mut State, m: Option<String>| {
        if let Some(Task::Sr { marker, .. }) = state.flow.tasks.last_mut() {
            *marker = m;
        }
    };
    if let Some(m) = marker {
        match action.verb() {
            "back" => set_marker(state, None),
            "to" => {
                let to = action.text(1).ok_or("where to?")?.to_string();
                let rule = rules.play.sr_markers.iter().find(|r| r.marker == m);
                let cost = rule.map_or(0, |r| r.cost);
                if let Some(on) = state.markers.iter_mut().find(|x| x.marker == m) {
                    on.space = to.into();
                }
                set_marker(state, None);
                set(state, points.saturating_sub(cost), None);
            }
            _ => return Err(format!("`{action}` does not fit this step")),
        }
        return Ok(());
    }
    match (unit, action.verb()) {
        (None, "done") => {
            state.flow.tasks.pop();
        }
        (None, "move_marker") => {
            let m = action.text(1).ok_or("which marker?")?.to_string();
            set_marker(state, Some(m));
        }
        (None, "redeploy") => {
            let u = action.unit(1)?;
            set(state, points, Some(u));
        }
        (Some(_), "back") => set(state, points, None),
        (Some(u), "to") => {
            let to = action.text(1).ok_or("where to?")?.to_string();
            let cost = sr_cost(rules, state, u);
            if rules.content.graph.space(&to).is_some() {
                if !state.control.contains_key(to.as_str()) {
                    // Into a neutral space (`sr_neutrals`): the route takes the neutral spaces
                    // it crosses.
                    take_neutral_route(rules, state, u, &to);
                }
                if matches!(state.units[u].at, Loc::Box(_)) {
                    *state
                        .flow
                        .marks
                        .entered_from_box
                        .entry(to.clone())
                        .or_default() += 1;
                }
                enter(rules, state, u, &to);
            } else {
                state.units[u].at = Loc::Box(to.into());
            }
            state.flow.marks.redeployed.insert(u);
            set(state, points.saturating_sub(cost), None);
            let _ = side;
        }
        _ => return Err(format!("`{action}` does not fit this step")),
    }
    Ok(())
}

/// The neutral spaces a unit's SR route crosses into the neutral space `to` become its side's.
fn take_neutral_route(rules: &Rules, state: &mut State, u: usize, to: &str) {
    let Loc::Space(at) = state.units[u].at.clone() else {
        return;
    };
    let g = &rules.content.graph;
    let Some(end) = g.index_of(to) else {
        return;
    };
    let Some(reach) = sr_route::reach(rules, state, u, (&at, None)) else {
        return;
    };
    let side = rules.side(&state.units[u]).to_string();
    for i in sr_route::crossed(&reach, end) {
        let id = g.spaces[i].id;
        take_control(rules, state, &id, &side);
        state
            .flow
            .messages
            .push(format!("{side} takes neutral {id} on the way to {to}"));
    }
}
