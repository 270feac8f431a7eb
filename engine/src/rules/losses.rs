//! Losses, the toolkit's procedure both ways of fighting call: which units may take the next
//! loss (by loss factors against a loss number, or step by step spread over the units), a step
//! lost (a two-step unit flipped, a large unit stepping down to a small one from the reserve,
//! elimination).

use std::collections::{BTreeMap, BTreeSet};

use super::Rules;
use crate::model::BoxRole;
use crate::state::{Loc, State};

/// The loss factors of the steps a unit can still give, in order: its face, then its back, then
/// the small unit that would replace it from the reserve.
fn step_lfs(rules: &Rules, state: &State, unit: usize) -> Vec<u32> {
    let u = &state.units[unit];
    let Some(c) = rules.counter(u) else {
        return Vec::new();
    };
    let lf = |values: &Vec<i32>| {
        values
            .get(rules_loss_index(rules))
            .copied()
            .unwrap_or(1)
            .max(1) as u32
    };
    let mut out = Vec::new();
    if !u.reduced {
        out.push(lf(&c.front));
    }
    if let Some(back) = &c.back {
        out.push(lf(back));
    }
    if u.reduced && c.back.is_none() {
        out.push(lf(&c.front));
    }
    if rules.is_large(u) {
        match step_down_unit(rules, state, unit) {
            Some(r) => {
                if let Some(rc) = rules.counter(&state.units[r]) {
                    if !state.units[r].reduced {
                        out.push(lf(&rc.front));
                    }
                    out.push(lf(rc.back.as_ref().unwrap_or(&rc.front)));
                }
            }
            // With no small unit in the reserve, losses are still taken as if one were there
            // (11.3): the large unit then leaves the game and the rest of the loss is ignored.
            None => {
                if let Some(rc) = rules
                    .content
                    .counters
                    .iter()
                    .find(|k| steps_down_to(rules, u, k))
                {
                    out.push(lf(&rc.front));
                    out.push(lf(rc.back.as_ref().unwrap_or(&rc.front)));
                }
            }
        }
    }
    out
}

fn rules_loss_index(rules: &Rules) -> usize {
    rules
        .game
        .stats
        .iter()
        .position(|s| s.id == rules.play.loss_factor)
        .unwrap_or(1)
}

/// The largest loss not above `limit` that these step sequences can give.
fn best(seqs: &[Vec<u32>], limit: u32) -> u32 {
    let mut reach = vec![false; limit as usize + 1];
    reach[0] = true;
    for seq in seqs {
        let mut next = reach.clone();
        for (start, ok) in reach.iter().enumerate() {
            if !ok {
                continue;
            }
            let mut total = start as u32;
            for &lf in seq {
                total += lf;
                if total > limit {
                    break;
                }
                next[total as usize] = true;
            }
        }
        reach = next;
    }
    reach.iter().rposition(|&r| r).unwrap_or(0) as u32
}

/// Units whose next step may be taken now: it fits in the loss left and keeps the largest
/// total the loss number allows (11.3).
pub fn loss_options(rules: &Rules, state: &State, units: &[usize], remaining: u32) -> Vec<usize> {
    if remaining == 0 {
        return Vec::new();
    }
    let seqs: Vec<Vec<u32>> = units.iter().map(|&u| step_lfs(rules, state, u)).collect();
    let target = best(&seqs, remaining);
    if target == 0 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for (k, &u) in units.iter().enumerate() {
        let Some(&first) = seqs[k].first() else {
            continue;
        };
        if first > remaining {
            continue;
        }
        let mut rest = seqs.clone();
        rest[k].remove(0);
        if first + best(&rest, remaining - first) == target {
            out.push(u);
        }
    }
    out
}

/// Whether a small counter may replace a large unit eliminated from its back: the game's
/// step-down rule for the unit's nation and type, else a small unit of its nation and type.
fn steps_down_to(rules: &Rules, unit: &crate::state::Unit, small: &crate::model::Counter) -> bool {
    let nation = rules.nation(unit);
    let ty = rules.unit_type(unit);
    if rules.play.large_size.as_deref() == Some(small.size.as_str()) {
        return false;
    }
    let rule = rules.play.step_down.iter().find(|s| {
        s.nations.iter().any(|n| n == nation)
            && (s.types.is_empty() || s.types.iter().any(|t| t == ty))
    });
    match rule {
        Some(r) => {
            r.by_nations.iter().any(|x| *x == small.nation)
                && r.by_types.iter().any(|x| *x == small.unit_type)
        }
        None => small.nation == nation && small.unit_type == ty,
    }
}

/// The small unit in the reserve that would replace a large unit eliminated from its back (a
/// full-strength one first).
pub(super) fn step_down_unit(rules: &Rules, state: &State, unit: usize) -> Option<usize> {
    let u = &state.units[unit];
    let reserve = Loc::Box(
        rules
            .box_of(&rules.side(u), BoxRole::Reserve)?
            .to_string()
            .into(),
    );
    let candidates: Vec<usize> = (0..state.units.len())
        .filter(|&i| {
            state.units[i].at == reserve
                && rules
                    .counter(&state.units[i])
                    .is_some_and(|c| steps_down_to(rules, u, c))
        })
        .collect();
    candidates
        .iter()
        .copied()
        .find(|&i| !state.units[i].reduced)
        .or_else(|| candidates.first().copied())
}

/// A unit loses a step. A large unit eliminated from its back is replaced where it stands by a
/// small unit from the reserve, whose index is returned; without one it leaves the game.
pub fn lose_step(rules: &Rules, state: &mut State, unit: usize) -> Option<usize> {
    let has_back = rules
        .counter(&state.units[unit])
        .is_some_and(|c| c.back.is_some());
    if !state.units[unit].reduced && has_back {
        state.units[unit].reduced = true;
        return None;
    }
    let at = state.units[unit].at.clone();
    if rules.is_large(&state.units[unit]) {
        super::theatres::record(rules.content, state, unit, false);
        let by = step_down_unit(rules, state, unit);
        let side = rules.side(&state.units[unit]).to_string();
        state.units[unit].reduced = false;
        let to = match by {
            Some(_) => rules
                .box_of(&side, BoxRole::Eliminated)
                .map_or(Loc::Removed, |b| Loc::Box(b.into())),
            None => Loc::Removed,
        };
        put_eliminated(rules, state, unit, to);
        if let Some(r) = by {
            state.units[r].at = at;
        }
        return by;
    }
    eliminate(rules, state, unit);
    None
}

/// A unit goes to its side's eliminated box (else the game's box of removed units, else out of
/// the game), marked with the theatres it was eliminated in.
pub fn eliminate(rules: &Rules, state: &mut State, unit: usize) {
    eliminate_marked(rules, state, unit, false);
}

/// [`eliminate`], saying why: "`name` `why`".
pub fn eliminate_saying(rules: &Rules, state: &mut State, unit: usize, why: &str) {
    let name = state.units[unit].name(rules.content);
    state.flow.messages.push(format!("{name} {why}"));
    eliminate(rules, state, unit);
}

/// [`eliminate`], the unit counted out of supply (or not) for its theatres.
fn eliminate_marked(rules: &Rules, state: &mut State, unit: usize, out_of_supply: bool) {
    super::theatres::record(rules.content, state, unit, out_of_supply);
    let side = rules.side(&state.units[unit]).to_string();
    state.units[unit].reduced = false;
    let to = rules
        .box_of(&side, BoxRole::Eliminated)
        .or_else(|| {
            rules
                .game
                .boxes
                .iter()
                .find(|x| x.role == Some(BoxRole::Removed))
                .map(|x| x.id.as_str())
        })
        .map_or(Loc::Removed, |b| Loc::Box(b.into()));
    put_eliminated(rules, state, unit, to);
}

/// Puts an eliminated unit where it goes; in its side's eliminated box, a counter that is
/// `eliminated_as` another is replaced there by a piece of that one not yet in play (14.51),
/// which takes over its theatres.
pub fn put_eliminated(rules: &Rules, state: &mut State, unit: usize, to: Loc) {
    let side = rules.side(&state.units[unit]);
    let eliminated_box = rules.box_of(&side, BoxRole::Eliminated);
    let is_box = matches!(&to, Loc::Box(b) if Some(b.as_str()) == eliminated_box);
    let stand_in = rules
        .counter(&state.units[unit])
        .and_then(|c| c.eliminated_as.as_deref())
        .filter(|_| is_box)
        .and_then(|other| {
            state
                .units
                .iter()
                .position(|u| u.counter == other && u.at == Loc::Unplaced)
        });
    match stand_in {
        Some(s) => {
            state.units[s].reduced = false;
            state.units[s].at = to;
            state.units[unit].at = Loc::Removed;
            if let Some(marks) = state.theatres.remove(&unit) {
                state.theatres.insert(s, marks);
            }
        }
        None => state.units[unit].at = to,
    }
}

/// A unit eliminated out of supply (at attrition, or as if out of supply: a large unit that
/// could not retreat, 11.43): a large unit takes a small unit of its own from the reserve to the
/// eliminated box with it (with none there, it leaves the game) and waits on the turn track for
/// the game's `oos_delay` turns, unless its nation is excepted (13.44); any other unit is
/// eliminated.
pub fn eliminate_out_of_supply(rules: &Rules, state: &mut State, u: usize) {
    let delay = rules.play.oos_delay.as_ref();
    if !rules.is_large(&state.units[u]) || delay.is_none() {
        eliminate_marked(rules, state, u, true);
        return;
    }
    state.units[u].reduced = false;
    match step_down_unit(rules, state, u) {
        Some(small) => eliminate(rules, state, small),
        None => {
            state.units[u].at = Loc::Removed;
            return;
        }
    }
    let side = rules.side(&state.units[u]).to_string();
    let excepted = delay.is_some_and(|d| {
        d.except_nations
            .iter()
            .any(|n| n == rules.nation(&state.units[u]))
    });
    match (rules.box_of(&side, BoxRole::Delayed), delay) {
        (Some(b), Some(d)) if !excepted => {
            super::theatres::record(rules.content, state, u, true);
            state.units[u].at = Loc::Box(b.into());
            state.delayed.insert(u, state.turn + d.turns);
        }
        _ => eliminate_marked(rules, state, u, true),
    }
}

/// The units that may take the next loss: every unit loses one step before any loses a
/// second; among defenders of several sides, the sides take losses in turn, the side not
/// attacking first (8.2.2).
pub fn spread(
    rules: &Rules,
    state: &State,
    (taken, turn): (&BTreeMap<usize, u32>, usize),
    alive: &[usize],
    attacking_side: &str,
) -> Vec<usize> {
    let mut sides: Vec<String> = alive
        .iter()
        .map(|&u| rules.side(&state.units[u]).to_string())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    sides.sort_by_key(|x| x == attacking_side);
    let turn_side = &sides[turn % sides.len()];
    let least = |pool: Vec<usize>| {
        let min = pool
            .iter()
            .map(|u| taken.get(u).copied().unwrap_or(0))
            .min()
            .unwrap_or(0);
        pool.into_iter()
            .filter(|u| taken.get(u).copied().unwrap_or(0) == min)
            .collect::<Vec<usize>>()
    };
    let mine: Vec<usize> = alive
        .iter()
        .copied()
        .filter(|&u| rules.side(&state.units[u]) == *turn_side)
        .collect();
    // The whole side's least-hit units, if the side's turn holds one of the least-hit overall.
    let overall = least(alive.to_vec());
    let theirs: Vec<usize> = least(mine)
        .into_iter()
        .filter(|u| overall.contains(u))
        .collect();
    if theirs.is_empty() {
        overall
    } else {
        theirs
    }
}
