//! Control, the toolkit's procedure: a unit enters a space and takes control of it (victory
//! points, forts and trenches, offensives met, markers captured, the `AfterCapture` hooks);
//! Stand Fast orders; tracks moved.

use super::procedures::*;
use super::{movement, Rules};
use crate::script::eval::Context;
use crate::state::{Loc, MarkerOnMap, State};

/// A unit enters a space: it takes control of it (which may meet an offensive its side owes).
pub(super) fn enter(rules: &Rules, state: &mut State, unit: usize, space: &str) {
    state.units[unit].at = Loc::Space(space.into());
    let side = rules.side(&state.units[unit]).to_string();
    if state.control.get(space).map(|x| x.as_str()) != Some(side.as_str()) {
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
    let from = *from;
    let side = rules.side(&state.units[unit]);
    let per_unit = sf.per_unit_after.as_ref().is_some_and(|(card, nations)| {
        state.played.contains_key(card.as_str())
            && nations
                .iter()
                .any(|n| n == rules.nation(&state.units[unit]))
    });
    if !per_unit || free {
        state.markers.remove(i);
    }
    let into_enemy = state.control.get(to).is_some_and(|c| *c != side);
    if !free && !into_enemy && sf.exit_vp > 0 {
        pay_vp(rules, state, &side, sf.exit_vp);
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
        if !state.flags.contains(o.flag.as_str())
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
    let before = state.control.get(space).map(|x| x.to_string());
    if before.as_deref() == Some(side) {
        return;
    }
    state.set_control(space, Some(side));
    movement::after_capture(rules, state, side, space);
    if before.is_some() {
        // Trenches do not survive a change of hands (10.2), nor do forts (10.3).
        state.markers.retain(|m| {
            m.space != space || !rules.play.trench_markers.iter().any(|x| *x == m.marker)
        });
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
            if has_fort && !has_marker(state, space, crate::Id::new(destroyed)) {
                state.markers.push(MarkerOnMap {
                    marker: destroyed.as_str().into(),
                    space: space.into(),
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
    let counted = state.vp_counted.remove(space);
    let was = counted.or(before);
    let now = counts_as(rules, state, space);
    vp_change(
        rules,
        state,
        space,
        (was.as_deref(), now.as_deref().or(Some(side))),
    );
    if let Some(now) = now {
        state.vp_counted.insert(space.to_string(), now);
    }
}

/// The side other than its controller a space's victory points count for now: the first
/// `counts_as` rule whose marker stands there and whose condition holds.
fn counts_as(rules: &Rules, state: &State, space: &str) -> Option<String> {
    CountsAs::new(rules).side(state, space)
}

/// The `counts_as` rules asked of many spaces: each with the context its condition is asked
/// in (the space changed from one question to the next), made once.
struct CountsAs<'r, 'c> {
    rules: &'r Rules<'c>,
    contexts: Vec<Context>,
}

impl<'r, 'c> CountsAs<'r, 'c> {
    fn new(rules: &'r Rules<'c>) -> CountsAs<'r, 'c> {
        let rules_for = &rules.play.victory.counts_as;
        let contexts = (rules_for.iter())
            .map(|c| side_context(rules, &c.side))
            .collect();
        CountsAs { rules, contexts }
    }

    /// See [`counts_as`].
    fn side(&mut self, state: &State, space: &str) -> Option<String> {
        let controller = state.control.get(space).map(|x| x.as_str());
        let rules = self.rules;
        let rules_for = &rules.play.victory.counts_as;
        let asked = rules_for
            .iter()
            .zip(rules.counts_as())
            .zip(&mut self.contexts);
        asked.into_iter().find_map(|((c, (marker, when)), ctx)| {
            if controller == Some(c.side.as_str()) || !has_marker(state, space, *marker) {
                return None;
            }
            let holds = match when {
                None => true,
                Some(None) => false,
                Some(Some(cond)) => {
                    ctx.space = Some(space.into());
                    cond.holds(rules, state, ctx)
                }
            };
            holds.then(|| c.side.clone())
        })
    }
}

/// The victory track follows a space's points from the side they counted for to another.
fn vp_change(
    rules: &Rules,
    state: &mut State,
    space: &str,
    (was, now): (Option<&str>, Option<&str>),
) {
    let vp = rules.content.graph.space(space).map_or(0, |s| s.vp);
    if vp == 0 || was == now {
        return;
    }
    let v = &rules.play.victory;
    if now == Some(v.raised_by.as_str()) {
        add_track(rules, state, &v.track, i64::from(vp));
    } else if was == Some(v.raised_by.as_str()) {
        add_track(rules, state, &v.track, -i64::from(vp));
    }
}

/// Records the spaces whose points count for another side than their controller's as already
/// counted on the victory track: a position set up by hand gives the track as it stands.
pub(crate) fn count_vp_as_set(rules: &Rules, state: &mut State) {
    let spaces: Vec<String> = state.markers.iter().map(|m| m.space.to_string()).collect();
    for space in spaces {
        if let Some(side) = counts_as(rules, state, &space) {
            state.vp_counted.insert(space, side);
        }
    }
}

/// Whether a marker of a `counts_as` rule is on the map. The markers found without one are
/// kept by their stamp (and the content's), since most steps of play change no marker.
fn any_counting_marker(rules: &Rules, state: &State) -> bool {
    thread_local! {
        static NONE_IN: std::cell::Cell<(u64, u64)> =
            const { std::cell::Cell::new((u64::MAX, u64::MAX)) };
    }
    let seen = (rules.content.memo_id(), state.markers.stamp());
    if NONE_IN.with(std::cell::Cell::get) == seen {
        return false;
    }
    let any = counting_markers(rules, state).next().is_some();
    if !any {
        NONE_IN.with(|n| n.set(seen));
    }
    any
}

/// What the `counts_as` rules read when their conditions read only the state's stamped parts
/// (`Rules::counts_as_stamped`): the content, the stamps of the pieces, the markers, control
/// and the flags, the turn and the round. Settling changes none of them.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct SettledAt {
    content: u64,
    units: u64,
    markers: u64,
    control: u64,
    flags: u64,
    turn: u32,
    round: u32,
}

/// Brings the victory track up to date with the spaces whose points count for another side
/// than their controller's (`counts_as`): a marker placed or removed, a unit come or gone.
/// Runs before every step of play; when the rules' conditions read only the state's stamped
/// parts, a state settled at its stamps is left as it is.
pub(super) fn settle_counted_vp(rules: &Rules, state: &mut State) {
    if rules.play.victory.counts_as.is_empty() {
        return;
    }
    let at = rules.counts_as_stamped().then(|| SettledAt {
        content: rules.content.memo_id(),
        units: state.units.stamp(),
        markers: state.markers.stamp(),
        control: state.control.stamp(),
        flags: state.flags.stamp(),
        turn: state.turn,
        round: state.round,
    });
    if at.is_some() && state.vp_settled.0 == at {
        return;
    }
    if let (Some(at), Some(was)) = (at, state.vp_settled.0) {
        if still_settled(rules, state, at, was) {
            state.vp_settled.0 = Some(at);
            return;
        }
    }
    settle(rules, state);
    // The rules' markers, compared when only markers changed (`still_settled`).
    let theirs = if at.is_some() && rules.counts_as_markerless() {
        counting_markers(rules, state).collect()
    } else {
        Default::default()
    };
    state.vp_settled = crate::rules::KeptSettled(at, theirs);
}

/// The `counts_as` rules' markers on the map, each as (marker, space), in the markers' order.
fn counting_markers<'s>(
    rules: &'s Rules,
    state: &'s State,
) -> impl Iterator<Item = (crate::Id, crate::Id)> + 's {
    (state.markers.iter())
        .filter(|m| counting(rules, &m.marker))
        .map(|m| (m.marker, m.space))
}

/// Whether what was settled at the stamps `was` stands at `at`: besides the pieces and the
/// markers, nothing changed; the pieces that changed neither stood nor stand in a counted
/// space (when the conditions find pieces only in their space); and the rules' own markers
/// are where they were (when the conditions read no marker).
fn still_settled(rules: &Rules, state: &State, at: SettledAt, was: SettledAt) -> bool {
    let theirs = &state.vp_settled.1;
    SettledAt {
        units: at.units,
        markers: at.markers,
        ..was
    } == at
        && (at.markers == was.markers
            || rules.counts_as_markerless()
                && counting_markers(rules, state).eq(theirs.iter().copied()))
        && (at.units == was.units
            || rules.counts_as_by_space() && pieces_far(rules, state, was.units))
}

/// Whether the pieces changed since the pieces' stamp `since` (a few, named by their journal)
/// neither stood nor stand in a space the `counts_as` rules count: a space with a marker of
/// theirs, or one whose points count for another side now.
fn pieces_far(rules: &Rules, state: &State, since: u64) -> bool {
    /// How many changed pieces are looked at before the rules are asked anew.
    const MOST: usize = 16;
    let Some(changed) = state.units.changed_since(since, MOST) else {
        return false;
    };
    let counted = |space: crate::Id| {
        state.vp_counted.contains_key(space.as_str())
            || counting_markers(rules, state).any(|(_, at)| at == space)
    };
    changed.iter().all(|&(i, was)| {
        let now = match &state.units[i].at {
            crate::state::Loc::Space(s) => Some(*s),
            _ => None,
        };
        !was.is_some_and(counted) && !now.is_some_and(counted)
    })
}

/// Whether a marker is a `counts_as` rule's (compared by address).
fn counting(rules: &Rules, marker: &crate::Id) -> bool {
    rules.counts_as().iter().any(|(m, _)| m == marker)
}

/// [`settle_counted_vp`], asked anew.
fn settle(rules: &Rules, state: &mut State) {
    let rules_for = &rules.play.victory.counts_as;
    // The rules' markers as ids, compared by address (this runs before every step of play,
    // and most often finds none of them on the map and no space counted: then it is done).
    if state.vp_counted.is_empty() && !any_counting_marker(rules, state) {
        return;
    }
    let mut spaces: Vec<crate::Id> = counting_markers(rules, state)
        .map(|(_, space)| space)
        .chain(state.vp_counted.keys().map(|s| crate::Id::new(s)))
        .collect();
    if spaces.is_empty() {
        return;
    }
    spaces.sort();
    spaces.dedup();
    let mut counts_as = CountsAs::new(rules);
    for space in spaces {
        let space = space.as_str();
        let now = counts_as.side(state, space);
        if state.vp_counted.get(space) == now.as_ref() {
            continue;
        }
        let controller = state.control.get(space).map(|x| x.to_string());
        let was = state.vp_counted.remove(space).or(controller.clone());
        let counted_now = now.clone().or(controller);
        vp_change(
            rules,
            state,
            space,
            (was.as_deref(), counted_now.as_deref()),
        );
        if let Some(side) = now {
            state.flow.messages.push(format!(
                "{space}'s victory points count for {side} while its {} marker stands",
                rules_for
                    .iter()
                    .find(|c| c.side == side)
                    .map_or("", |c| c.marker.as_str())
            ));
            state.vp_counted.insert(space.to_string(), side);
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
    state.tracks.insert(track.into(), v);
}
