//! Control, the toolkit's procedure: a unit enters a space and takes control of it (victory
//! points, forts and trenches, offensives met, markers captured, the `AfterCapture` hooks);
//! Stand Fast orders; tracks moved.

use super::procedures::*;
use super::{movement, Rules};
use crate::state::{Loc, MarkerOnMap, State};

/// A unit enters a space: it takes control of it (which may meet an offensive its side owes).
pub(super) fn enter(rules: &Rules, state: &mut State, unit: usize, space: &str) {
    state.units[unit].at = Loc::Space(space.to_string());
    let side = rules.side(&state.units[unit]).to_string();
    if state.control.get(space) != Some(&side) {
        take_control(rules, state, space, &side);
        offensive_made(rules, state, &[unit], space, false);
    }
}

/// A unit leaves a space under Stand Fast orders: the marker comes off, and the side pays its
/// price unless the unit is forced out (a retreat), advances after combat, or first enters a
/// space the enemy controls.
pub(super) fn leave_stand_fast(
    rules: &Rules,
    state: &mut State,
    unit: usize,
    to: &str,
    free: bool,
) {
    let Some(sf) = &rules.play.stand_fast else {
        return;
    };
    let Loc::Space(from) = &state.units[unit].at else {
        return;
    };
    let Some(i) = state
        .markers
        .iter()
        .position(|m| m.marker == sf.marker && m.space == *from)
    else {
        return;
    };
    let from = from.clone();
    let side = rules.side(&state.units[unit]);
    let per_unit = sf.per_unit_after.as_ref().is_some_and(|(card, nations)| {
        state.played.contains_key(card)
            && nations
                .iter()
                .any(|n| n == rules.nation(&state.units[unit]))
    });
    if !per_unit || free {
        state.markers.remove(i);
    }
    let into_enemy = state.control.get(to).is_some_and(|c| c != side);
    if !free && !into_enemy && sf.exit_vp > 0 {
        pay_vp(rules, state, side, sf.exit_vp);
        state.flow.messages.push(format!(
            "{side} leaves {from} against Stand Fast orders: {} VP",
            sf.exit_vp
        ));
    }
}

/// A side pays victory points: the victory track moves against it.
pub(super) fn pay_vp(rules: &Rules, state: &mut State, side: &str, vp: u32) {
    let v = &rules.play.victory;
    let by = if side == v.raised_by {
        -i64::from(vp)
    } else {
        i64::from(vp)
    };
    add_track(rules, state, &v.track, by);
}

/// Units attacked a space, or captured it: a mandated offensive their side owes is met if one
/// of them is of the offensive's nations (and, for an attack, sizes) and the space lies where
/// the offensive asks.
pub(super) fn offensive_made(
    rules: &Rules,
    state: &mut State,
    units: &[usize],
    space: &str,
    attack: bool,
) {
    for o in &rules.play.offensives {
        if !state.flags.contains(&o.flag)
            || o.outside
                .as_ref()
                .is_some_and(|r| crate::state::space_in_region(rules.content, space, r))
        {
            continue;
        }
        let meets = units.iter().any(|&u| {
            let x = &state.units[u];
            rules.side(x) == o.side
                && o.nations.iter().any(|n| n == rules.nation(x))
                && (!attack
                    || o.attack_sizes.is_empty()
                    || o.attack_sizes.iter().any(|s| s == rules.size(x)))
        });
        if meets {
            state.clear_flag(&o.flag);
        }
    }
}

/// A side takes control of a space; its victory points change hands.
pub(super) fn take_control(rules: &Rules, state: &mut State, space: &str, side: &str) {
    let before = state.control.get(space).cloned();
    if before.as_deref() == Some(side) {
        return;
    }
    state.set_control(space, Some(side));
    movement::after_capture(rules, state, side, space);
    if before.is_some() {
        // Trenches do not survive a change of hands (10.2), nor do forts (10.3).
        state
            .markers
            .retain(|m| m.space != space || !rules.play.trench_markers.contains(&m.marker));
        let fort = rules
            .play
            .fort
            .as_ref()
            .zip(rules.play.fort_destroyed.as_ref());
        if let Some((fort, destroyed)) = fort {
            let has_fort = rules
                .content
                .graph
                .space(space)
                .is_some_and(|s| s.features.contains(fort));
            if has_fort && !has_marker(state, space, destroyed) {
                state.markers.push(MarkerOnMap {
                    marker: destroyed.clone(),
                    space: space.to_string(),
                    level: 1,
                    until: None,
                });
            }
        }
    }
    for c in rules.play.captured_markers.iter().filter(|c| c.by == side) {
        if let Some(i) = state
            .markers
            .iter()
            .position(|m| m.marker == c.marker && m.space == space)
        {
            state.markers.remove(i);
            add_track(rules, state, &rules.play.victory.track, i64::from(c.vp));
            state.flow.messages.push(format!(
                "{side} captures the {} marker in {space}",
                c.marker
            ));
        }
    }
    let vp = rules.content.graph.space(space).map_or(0, |s| s.vp);
    if vp != 0 {
        let v = &rules.play.victory;
        if side == v.raised_by {
            add_track(rules, state, &v.track, i64::from(vp));
        } else if before.as_deref() == Some(v.raised_by.as_str()) {
            add_track(rules, state, &v.track, -i64::from(vp));
        }
    }
}

pub(super) fn add_track(rules: &Rules, state: &mut State, track: &str, by: i64) {
    let (min, max) = rules
        .game
        .tracks
        .iter()
        .find(|t| t.id == track)
        .map_or((i64::MIN, i64::MAX), |t| {
            (i64::from(t.min), i64::from(t.max))
        });
    let v = state.track(track).saturating_add(by).clamp(min, max);
    state.tracks.insert(track.to_string(), v);
}
