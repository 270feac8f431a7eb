//! Replacements: replacement point pools, costs, caps, rebuilding units.

use super::*;

pub(super) fn rp_cost(rules: &Rules, state: &State, unit: usize) -> u32 {
    let size = rules.size_id(&state.units[unit]);
    rules
        .play
        .rp_half_costs
        .iter()
        .find(|c| c.size == size)
        .map_or(u32::MAX, |c| c.cost)
}

pub(super) fn pool_of<'c>(rules: &Rules<'c>, state: &State, unit: usize) -> Option<&'c str> {
    let nation = rules.nation_id(&state.units[unit]);
    rules
        .play
        .replacements
        .iter()
        .find(|p| p.nations.contains(&nation))
        .map(|p| p.track.as_str())
}

pub(super) fn replace_prompt(
    rules: &Rules,
    state: &mut State,
    side: &str,
    halves: &BTreeMap<String, u32>,
    placing: Option<usize>,
) -> Option<Prompt> {
    if let Some(u) = placing {
        let options: Vec<Action> = rebuild_spaces(rules, state, u)
            .into_iter()
            .map(|s| Action::new("place").and(s))
            .collect();
        return Some(Prompt::one_of(
            side,
            "place",
            format!(
                "Where does the rebuilt {} enter?",
                state.units[u].name(rules.content)
            ),
            options,
        ));
    }
    let eliminated = rules.box_of(side, BoxRole::Eliminated);
    let reserve = rules.box_of(side, BoxRole::Reserve);
    let mut cache = SupplyCache::default();
    let mut options = Vec::new();
    // Sides compared as ids, by address, not as texts.
    let side_id = crate::Id::new(side);
    for (i, u) in state.units.iter().enumerate() {
        // Only a reduced unit (on the map or in the reserve) takes a step, and only the
        // eliminated box holds units to rebuild: the rest are passed over before their side,
        // the costs and the caps are looked up.
        let may_take = match &u.at {
            Loc::Space(_) => u.reduced,
            Loc::Box(b) if Some(b.as_str()) == reserve => u.reduced,
            Loc::Box(b) => Some(b.as_str()) == eliminated,
            _ => false,
        };
        if !may_take || rules.side(u) != side_id {
            continue;
        }
        let dot = rules
            .play
            .non_replaceable
            .as_ref()
            .is_some_and(|f| rules.counter(u).is_some_and(|c| c.flags.contains(f)));
        let Some(pool) = pool_of(rules, state, i) else {
            continue;
        };
        if dot || halves.get(pool).copied().unwrap_or(0) < rp_cost(rules, state, i) {
            continue;
        }
        if replacement_cap(rules, state, i).is_some_and(|(cap, limit)| {
            state.flow.capped_steps.get(&cap).copied().unwrap_or(0) >= limit
        }) {
            continue;
        }
        let ok = match &u.at {
            // Supply is judged as the points are spent: out of supply, no replacements; in
            // Limited Supply, yes (13.1, 13.41).
            Loc::Space(_) => u.reduced && cache.unit(rules, state, i) != Level::Out,
            Loc::Box(b) if Some(b.as_str()) == reserve => u.reduced,
            Loc::Box(b) if Some(b.as_str()) == eliminated => {
                if rules.is_large(u) {
                    !rebuild_spaces(rules, state, i).is_empty()
                } else {
                    reserve.is_some()
                }
            }
            _ => false,
        };
        if ok {
            options.push(Action::new("rebuild").and_unit(rules.content, state, i));
        }
    }
    if options.is_empty() {
        finish_replacements(rules, state);
        return None;
    }
    options.push(Action::new("done"));
    Some(Prompt::one_of(
        side,
        "replace",
        "Spend replacement points, then done",
        options,
    ))
}

/// Where a large unit rebuilt out of the eliminated box may enter: the spaces it may enter from
/// a box as a rebuilt unit, in a theatre it was eliminated in.
fn rebuild_spaces(rules: &Rules, state: &State, unit: usize) -> Vec<crate::Id> {
    let u = &state.units[unit];
    let levels = supply::levels(rules.content, state, rules.nation(u), &rules.side(u));
    let mut spaces = home_spaces(rules, state, unit, (&levels, |_| true), true);
    spaces.retain(|s| crate::rules::theatres::allows(rules.content, state, unit, s));
    spaces
}

/// The replacement cap a unit falls under, if any: its index, and the steps it allows this
/// turn.
pub(super) fn replacement_cap(rules: &Rules, state: &State, unit: usize) -> Option<(usize, u32)> {
    let u = &state.units[unit];
    rules
        .play
        .replacement_caps
        .iter()
        .enumerate()
        .find(|(_, c)| {
            // Ids compared by address.
            c.nations.contains(&rules.nation_id(u))
                && rules
                    .counter(u)
                    .is_some_and(|x| c.types.contains(&x.unit_type))
        })
        .map(|(i, c)| {
            let raised = c.after_card.as_ref().and_then(|(card, steps)| {
                state
                    .played
                    .get(card.as_str())
                    .is_some_and(|&t| t < state.turn)
                    .then_some(*steps)
            });
            (i, raised.unwrap_or(c.steps))
        })
}

pub(super) fn finish_replacements(rules: &Rules, state: &mut State) {
    if let Some(Task::Replace { halves, .. }) = state.flow.tasks.pop() {
        for track in halves.keys() {
            let v = state.track(track);
            add_track(rules, state, track, -v);
        }
    }
}

pub(super) fn replace_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    mut halves: BTreeMap<String, u32>,
    placing: Option<usize>,
    action: &Action,
) -> Result<(), String> {
    let mut next_placing = None;
    match (placing, action.verb()) {
        (None, "done") => {
            finish_replacements(rules, state);
            return Ok(());
        }
        (None, "rebuild") => {
            let u = action.unit(1)?;
            let pool = pool_of(rules, state, u).ok_or("no pool rebuilds this unit")?;
            let cost = rp_cost(rules, state, u);
            if let Some(h) = halves.get_mut(pool) {
                *h = h.saturating_sub(cost);
            }
            if let Some((cap, _)) = replacement_cap(rules, state, u) {
                *state.flow.capped_steps.entry(cap).or_default() += 1;
            }
            let eliminated = rules.box_of(side, BoxRole::Eliminated);
            let unit = &mut state.units[u];
            match &unit.at {
                Loc::Box(b) if Some(b.as_str()) == eliminated => {
                    unit.reduced = rules.counter(unit).is_some_and(|c| c.back.is_some());
                    if rules.is_large(&state.units[u]) {
                        next_placing = Some(u);
                    } else if let Some(r) = rules.box_of(side, BoxRole::Reserve) {
                        state.units[u].at = Loc::Box(r.into());
                    }
                }
                _ => unit.reduced = false,
            }
        }
        (Some(u), "place") => {
            let to = action.text(1).ok_or("where?")?.to_string();
            enter(rules, state, u, &to);
            state.theatres.remove(&u);
        }
        _ => return Err(format!("`{action}` does not fit this step")),
    }
    if let Some(Task::Replace {
        halves: h,
        placing: p,
        ..
    }) = state.flow.tasks.last_mut()
    {
        *h = halves;
        *p = next_placing;
    }
    Ok(())
}
