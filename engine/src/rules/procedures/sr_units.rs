//! The units a side may redeploy, asked again after each unit of an SR card has gone: kept
//! from the last list while only the units redeployed since changed, so that the next list
//! looks again at none of the side's other units nor their supply.

use std::cell::RefCell;

use super::*;
use crate::rules::hooks;

/// What a list read besides the side's units: when each is as it was, and no unit changed
/// but the side's own redeployed since, each unit listed then may still be redeployed now,
/// and no other may, except for the points left and the units marked redeployed (asked
/// again). A unit's supply reads its side's view of the map (the control of the map, where
/// the enemy's pieces are and the markers that hinder the side: the side's own pieces moving
/// leave it as it was), the markers and the flags.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Reads {
    content: u64,
    scenario: usize,
    side: crate::Id,
    control: u64,
    markers: u64,
    flags: u64,
    turn: u32,
    round: u32,
}

/// A list made: what it read, the pieces' stamp then, the points it was made for, the units
/// marked redeployed then, and the units it offered, each with its SR's cost and its action.
struct Kept {
    reads: Reads,
    units: u64,
    points: u32,
    redeployed: Vec<usize>,
    offered: Vec<(usize, u32, Action)>,
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// How many changes of pieces since the list was made are looked at before it is made anew.
const MOST_CHANGED: usize = 16;

/// The `redeploy` actions of a side's units with `points` to spend: each unit of the side on
/// the map in supply, or in its reserve box, not yet redeployed, whose SR costs no more than
/// the points left. `offered` makes the list anew (the units in the order of the state, each
/// with its SR's cost).
pub(super) fn redeployable(
    rules: &Rules,
    state: &State,
    side: &str,
    points: u32,
    offered: impl FnOnce() -> Vec<(usize, u32, Action)>,
) -> Vec<Action> {
    // Not kept for a replay's answer (only its own unit is asked), nor when supply is
    // traced anew every time, nor in a game whose supply reach hooks may read the pieces.
    let keep = !state.flow.given.is_some()
        && !supply::kept_off()
        && !hooks::any_at(rules.content, HookPoint::SupplyReach);
    if !keep {
        return offered().into_iter().map(|(_, _, a)| a).collect();
    }
    let reads = Reads {
        content: rules.content.memo_id(),
        scenario: std::ptr::from_ref(rules.scenario) as usize,
        side: crate::Id::new(side),
        control: state.control.stamp(),
        markers: state.markers.stamp(),
        flags: state.flags.stamp(),
        turn: state.turn,
        round: state.round,
    };
    let redeployed = &state.flow.marks.redeployed;
    // A unit changed since: one of the side's, redeployed (its side asked as it is now).
    let own = |i: usize| redeployed.contains(&i) && rules.side(&state.units[i]) == reads.side;
    let kept = KEPT.with(|k| {
        let mut k = k.borrow_mut();
        let kept = k.as_mut()?;
        let changed = state.units.changed_since(kept.units, MOST_CHANGED)?;
        let holds = kept.reads == reads
            && points <= kept.points
            && kept.redeployed.iter().all(|i| redeployed.contains(i))
            && changed.iter().all(|&(i, _)| own(i));
        if !holds {
            return None;
        }
        kept.units = state.units.stamp();
        let offered = (kept.offered.iter())
            .filter(|&&(i, cost, _)| cost <= points && !redeployed.contains(&i));
        Some(offered.map(|(_, _, a)| a.clone()).collect())
    });
    if let Some(actions) = kept {
        return actions;
    }
    let offered = offered();
    let actions = offered.iter().map(|(_, _, a)| a.clone()).collect();
    KEPT.with(|k| {
        *k.borrow_mut() = Some(Kept {
            reads,
            units: state.units.stamp(),
            points,
            redeployed: redeployed.iter().copied().collect(),
            offered,
        });
    });
    actions
}
