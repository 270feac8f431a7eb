//! A position set up by hand: a scenario's start changed (units, control, markers, tracks,
//! flags, hands, cards played, on this turn or an earlier one) and play put at the start of a phase of the sequence, a round
//! and a side's turn, or an impulse. A rulebook example starts from one; so may a playtest.
//!
//! Nothing here names a game: the phases, rounds and impulses are those of `game.ron`'s
//! sequence of play.

use super::{impulses, Rules};
use super::{procedures, RulesError, Task};
use crate::model::{PlayAt, Position, Step};
use crate::state::{space_in_region, Loc, MarkerOnMap, State};

/// Where a piece named as the prompts name it (`su_8ga.2`) is in the state's units.
pub fn unit_named(rules: &Rules, state: &State, name: &str) -> Option<usize> {
    state
        .units
        .iter()
        .position(|u| u.name(rules.content) == name)
}

/// A place as an example writes it: a space, a box, `removed` or `unplaced`.
pub fn place(rules: &Rules, at: &str) -> Option<Loc> {
    match at {
        "removed" => Some(Loc::Removed),
        "unplaced" => Some(Loc::Unplaced),
        _ if rules.content.graph.index_of(at).is_some() => Some(Loc::Space(at.into())),
        _ if rules.game.boxes.iter().any(|b| b.id == at) => Some(Loc::Box(at.into())),
        _ => None,
    }
}

/// Changes a state at a scenario's start into the position (its changes, in the order they
/// are listed; play is put in place by [`begin_at`]).
pub fn apply(rules: &Rules, state: &mut State, p: &Position) -> Result<(), RulesError> {
    let err = |m: String| RulesError(m);
    if let Some(turn) = p.turn {
        state.turn = turn;
    }
    for unit in state.units.iter_mut() {
        if matches!(&unit.at, Loc::Space(s) if p.clear.iter().any(|x| *x == *s)) {
            unit.at = Loc::Removed;
        }
    }
    for u in &p.units {
        let i = unit_named(rules, state, &u.unit)
            .ok_or_else(|| err(format!("no unit `{}` in the scenario", u.unit)))?;
        let at = place(rules, &u.at).ok_or_else(|| err(format!("no place `{}`", u.at)))?;
        state.units[i].at = at;
        state.units[i].reduced = u.reduced;
        if let Some(side) = &u.serves {
            let index = rules.game.sides.iter().position(|s| s.id == *side);
            state.units[i].serves = Some(index.ok_or_else(|| err(format!("no side `{side}`")))?);
        }
        match u.due {
            Some(turn) => state.delayed.insert(i, turn),
            None => state.delayed.remove(&i),
        };
        if u.theatres.is_empty() {
            state.theatres.remove(&i);
        } else {
            state.theatres.insert(i, u.theatres.clone());
        }
    }
    for c in &p.control {
        let mut spaces = c.spaces.clone();
        for r in &c.regions {
            spaces.extend(
                rules
                    .content
                    .graph
                    .spaces
                    .iter()
                    .filter(|s| space_in_region(rules.content, &s.id, r))
                    .map(|s| s.id.to_string()),
            );
        }
        for s in spaces {
            state.set_control(&s, c.side.as_deref());
        }
    }
    state
        .markers
        .retain(|m| !p.clear_markers.iter().any(|x| *x == m.marker));
    for m in &p.markers {
        state.markers.push(MarkerOnMap {
            marker: m.marker.as_str().into(),
            space: m.space.as_str().into(),
            level: m.level,
            until: None,
        });
    }
    for t in &p.tracks {
        state
            .tracks
            .insert(t.track.as_str().into(), i64::from(t.value));
    }
    for f in &p.flags {
        state.flags.insert(f.as_str().into());
    }
    for f in &p.clear_flags {
        state.flags.remove(f.as_str());
    }
    for h in &p.hands {
        for card in &h.cards {
            take_card(state, card);
        }
        state.hands.insert(h.side.clone(), h.cards.clone());
    }
    for h in &p.kept {
        for card in &h.cards {
            take_card(state, card);
        }
        state.kept_cards.insert(h.side.clone(), h.cards.clone());
    }
    for card in &p.played {
        take_card(state, card);
        state.played.insert(card.into(), state.turn);
    }
    for c in &p.played_on {
        take_card(state, &c.card);
        state.played.insert((&c.card).into(), c.turn);
    }
    if let Some(at) = &p.at {
        begin_at(rules, state, at)?;
    }
    Ok(())
}

/// Takes a card from wherever it lies (a pile, a hand, set aside).
fn take_card(state: &mut State, card: &str) {
    for pile in state
        .draw_piles
        .values_mut()
        .chain(state.discards.values_mut())
        .chain(state.set_aside.values_mut())
        .chain(state.kept_cards.values_mut())
        .chain(state.hands.values_mut())
    {
        pile.retain(|c| c != card);
    }
}

/// Puts play at the start of a phase of the sequence of play, and within it at a round and a
/// side's turn, or at an impulse (counted from 1). Play then runs on from there.
pub fn begin_at(rules: &Rules, state: &mut State, at: &PlayAt) -> Result<(), RulesError> {
    let err = |m: String| RulesError(m);
    let seq = &rules.game.sequence;
    let phase = seq
        .iter()
        .position(|p| p.id == at.phase)
        .ok_or_else(|| err(format!("the sequence of play has no phase `{}`", at.phase)))?;
    state.flow.phase = phase;
    state.flow.step = 0;
    state.flow.tasks.clear();
    state.flow.prompt = None;
    state.flow.impulse = 0;
    if at.round.is_none() && at.side.is_none() && at.impulse.is_none() {
        return Ok(());
    }
    let turns = |s: &Step| matches!(s, Step::ActionRounds(_) | Step::Impulses(_));
    let step = seq[phase].steps.iter().position(turns).ok_or_else(|| {
        err(format!(
            "phase `{}` has no action rounds or impulses to start in",
            at.phase
        ))
    })?;
    state.flow.step = step;
    procedures::next_step(rules, state);
    match &seq[phase].steps[step] {
        Step::ActionRounds(spec) => {
            if at.impulse.is_some() {
                return Err(err(format!(
                    "phase `{}` is played in action rounds, not impulses",
                    at.phase
                )));
            }
            state.round = at.round.unwrap_or(1).max(1);
            let next = match &at.side {
                Some(side) => spec.sides.iter().position(|s| s == side).ok_or_else(|| {
                    err(format!(
                        "no side `{side}` acts in the rounds of `{}`",
                        at.phase
                    ))
                })?,
                None => 0,
            };
            if let Some(Task::Rounds { next: n, .. }) = state.flow.tasks.last_mut() {
                *n = next;
            }
        }
        Step::Impulses(spec) => {
            if at.round.is_some() || at.side.is_some() {
                return Err(err(format!(
                    "phase `{}` is played in impulses, not rounds",
                    at.phase
                )));
            }
            let k = at.impulse.unwrap_or(1).max(1) as usize;
            if k > spec.impulses.len() {
                return Err(err(format!(
                    "phase `{}` has {} impulses, not {k}",
                    at.phase,
                    spec.impulses.len()
                )));
            }
            impulses::start_impulse(rules, state, k - 1);
        }
        _ => {}
    }
    Ok(())
}
