//! Attrition, the draw and hand sizes, victory, the end of the turn.

use super::*;

pub(super) fn attrition(rules: &Rules, state: &mut State, side: &str) {
    let mut cache = SupplyCache::default();
    // Sides compared as ids, by address, not as texts.
    let side_id = crate::Id::new(side);
    let out: Vec<usize> = (0..state.units.len())
        .filter(|&i| {
            // Where it is first: it costs less to ask than its side.
            matches!(state.units[i].at, Loc::Space(_))
                && rules.side(&state.units[i]) == side_id
                && cache.unit(rules, state, i) == Level::Out
        })
        .collect();
    let eliminated = rules.box_of(side, BoxRole::Eliminated);
    let to_eliminated = eliminated.map_or(Loc::Removed, |b| Loc::Box(b.into()));
    // Units whose wait on the turn track is over reach the eliminated box (6.C).
    let due: Vec<usize> = state
        .delayed
        .iter()
        .filter(|&(&u, &turn)| turn <= state.turn && rules.side(&state.units[u]) == side)
        .map(|(&u, _)| u)
        .collect();
    for u in due {
        state.delayed.remove(&u);
        crate::rules::losses::put_eliminated(rules, state, u, to_eliminated.clone());
    }
    for u in out {
        crate::rules::losses::eliminate_out_of_supply(rules, state, u);
    }
    // Spaces the side controls that no nation of it with units on the map could trace supply
    // from (a unit of it there would be eliminated, 13.5) pass to the enemy, unless a friendly
    // fort holds them or friendly units stand there.
    let mut nations: Vec<crate::Id> = state
        .units
        .iter()
        .filter(|u| matches!(u.at, Loc::Space(_)) && rules.side(u) == side_id)
        .map(|u| rules.nation_id(u))
        .collect();
    nations.sort_unstable();
    nations.dedup();
    let enemy = rules.other_side(side).to_string();
    let g = &rules.content.graph;
    // The side's nations by the game's list, whose sources on a space hold it.
    let ours: Vec<&crate::Id> = (rules.game.nations.iter())
        .filter(|m| m.side.as_deref() == Some(side))
        .map(|m| &m.id)
        .collect();
    let lost = {
        let state: &State = state;
        let mut lost = Vec::new();
        let holders = state.control.by_index(rules.content);
        // Each nation's levels of every space, asked of the first space that needs them.
        let mut levels: Vec<Option<std::rc::Rc<[Level]>>> = vec![None; nations.len()];
        for (i, s) in g.spaces.iter().enumerate() {
            if holders[i] != Some(side_id) {
                continue;
            }
            if !state.units.on_id(s.id).is_empty()
                || supply::intact_fort_at(rules.content, state, i)
                || s.supply
                    .iter()
                    .any(|x| x.nations.iter().any(|n| ours.iter().any(|&m| m == n)))
            {
                continue;
            }
            let mut out_of_supply = |k: usize| {
                let of = levels[k].get_or_insert_with(|| {
                    std::rc::Rc::clone(cache.levels(rules.content, state, nations[k], side_id).0)
                });
                of.get(i).copied().unwrap_or(Level::Out) == Level::Out
            };
            if (0..nations.len()).all(&mut out_of_supply)
                && crate::rules::hooks::may(
                    rules.content,
                    state,
                    HookPoint::MayLoseControl,
                    side,
                    || vec![crate::rules::hooks::space("space", s.id)],
                )
            {
                lost.push(s.id);
            }
        }
        lost
    };
    for s in lost {
        take_control(rules, state, &s, &enemy);
    }
    // A supply-source marker (a beach head) none of the side's units traces to comes off (6.C).
    for (marker, space) in supply::unused_marker_sources(rules.content, state, side) {
        state
            .markers
            .retain(|m| !(m.marker == marker && m.space == space));
        state.flow.messages.push(format!(
            "the {marker} in {space} supplies no unit and is removed"
        ));
    }
}

/// The hand a side draws up to: its hand track, changed by the modifiers in force, within the
/// limits of the turn.
pub(super) fn hand_size(rules: &Rules, state: &State, side: &str) -> Option<usize> {
    let rule = rules.play.hands.iter().find(|h| h.side == side)?;
    let in_force =
        |m: &&crate::state::Modifier| m.side == side && m.from_turn.is_none_or(|t| state.turn >= t);
    let mut size = state.track(&rule.track);
    for m in state.modifiers.iter().filter(in_force) {
        if let ModifierEffect::HandLimit(n) = m.effect {
            size += n;
        }
    }
    if let Some(table) = rule.limits.as_ref().and_then(|t| rules.content.table(t)) {
        let limit = |col: &str| {
            table
                .lookup(
                    crate::tables::ColumnInput::Name(col),
                    0,
                    crate::tables::RowInput::Number(state.turn as i32),
                    rules.game.dice.faces,
                )
                .ok()
                .and_then(|c| match c {
                    crate::model::Cell::Scalar(Scalar::Int(n)) => Some(*n),
                    _ => None,
                })
        };
        if let Some(max) = limit("max") {
            size = size.min(max);
        }
        if let Some(min) = limit("min") {
            size = size.max(min);
        }
    }
    for m in state.modifiers.iter().filter(in_force) {
        if let ModifierEffect::HandSize(n) = m.effect {
            size = n;
        }
    }
    Some(size.max(0) as usize)
}

pub(super) fn draw_to_hand(rules: &Rules, state: &mut State, side: &str) {
    let Some(size) = hand_size(rules, state, side) else {
        return;
    };
    let deck = rules.deck_of(side).to_string();
    loop {
        let held = state.hands.get(side).map_or(0, Vec::len);
        if held >= size {
            break;
        }
        let pile = state.draw_piles.entry(deck.clone()).or_default();
        if pile.is_empty() {
            let mut discards = std::mem::take(state.discards.entry(deck.clone()).or_default());
            if discards.is_empty() {
                break;
            }
            state.shuffle(&mut discards);
            state.draw_piles.insert(deck.clone(), discards);
            continue;
        }
        let card = pile.remove(0);
        state.hands.entry(side.to_string()).or_default().push(card);
    }
    let turn = state.turn;
    state.modifiers.retain(|m| {
        !(m.until == "next_draw" && m.side == side && m.from_turn.is_none_or(|t| turn >= t))
    });
}

pub(super) fn check_victory(rules: &Rules, state: &mut State) {
    let v = &rules.play.victory;
    let vp = state.track(&v.track);
    for a in &v.automatic {
        if a.unless_flag
            .as_ref()
            .is_some_and(|f| state.flags.contains(f.as_str()))
        {
            continue;
        }
        let won = a.at_least.is_some_and(|n| vp >= i64::from(n))
            || a.at_most.is_some_and(|n| vp <= i64::from(n));
        if won {
            state.flow.result = Some(GameResult {
                winner: a.side.clone(),
                how: "automatic".into(),
                turn: state.turn,
            });
            return;
        }
    }
}

pub(super) fn end_turn(rules: &Rules, state: &mut State) {
    state.end("end_of_turn");
    // Combat cards kept face up are discarded at the end of the turn (7.64).
    for (side, cards) in std::mem::take(&mut *state.kept_cards) {
        for card in cards {
            discard(rules, state, &side, &card);
        }
    }
    state.flow.activated.clear();
    state.played_this_turn.clear();
    state.revealed_cards.clear();
    state.flow.last_action.clear();
    state.flow.rp_cards.clear();
    state.flow.capped_steps.clear();
    state.flow.phase = 0;
    state.flow.step = 0;
    if state.turn >= rules.scenario.last_turn {
        state.flow.result = Some(GameResult {
            winner: rules.play.victory.at_end.clone(),
            how: "end_of_game".into(),
            turn: state.turn,
        });
        return;
    }
    state.turn += 1;
    state.round = 1;
}
