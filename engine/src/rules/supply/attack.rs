//! Attack supply: a unit attacks only within reach of a supply unit of its side, along a line
//! free of hostile units (and, for the nations `zones_block` names, of empty spaces in a
//! hostile zone of control). The reach is the nation's, as the `SupplyReach` hooks change it
//! (given `attack` true: the weather may bring it down to the next space).

use std::collections::VecDeque;

use super::super::Rules;
use super::zones::Occupancy;
use crate::model::AttackSupply;
use crate::state::{Loc, State};

/// The units that can give a unit attack supply, nearest first; `None` when the unit needs
/// none (an exempt type).
pub(in crate::rules) fn sources(
    rules: &Rules,
    state: &State,
    (spec, occ): (&AttackSupply, &Occupancy),
    unit: usize,
) -> Option<Vec<usize>> {
    let u = &state.units[unit];
    if spec.exempt.iter().any(|t| t == rules.unit_type(u)) {
        return None;
    }
    let g = &rules.content.graph;
    let Loc::Space(at) = &u.at else {
        return Some(Vec::new());
    };
    let Some(start) = g.index_of(at) else {
        return Some(Vec::new());
    };
    let (nation, side) = (rules.nation(u), rules.side(u));
    let base = spec
        .reach
        .iter()
        .find(|r| r.nations.iter().any(|n| n == nation))
        .map_or(0, |r| i64::from(r.spaces));
    let reach = super::reach_from(rules.content, state, (nation, &side), base, true);
    let zones_block = spec.zones_block.iter().any(|n| n == nation);
    let group = rules.group(rules.nation_id(u));
    let hostile_in = |s: usize| {
        occ.present[s]
            .iter()
            .any(|&i| rules.group(rules.nation_id(&state.units[i])) != group)
    };
    let zone_blocks =
        |s: usize| zones_block && occ.present[s].is_empty() && occ.in_zone_against(rules, s, &side);
    let passable = |s: usize| !(hostile_in(s) || zone_blocks(s));
    let source_here = |s: usize| -> Vec<usize> {
        occ.present[s]
            .iter()
            .copied()
            .filter(|&i| {
                let x = &state.units[i];
                i != unit
                    && rules.side(x) == side
                    && spec.sources.iter().any(|t| t == rules.unit_type(x))
            })
            .collect()
    };
    let mut found = source_here(start);
    let mut seen = vec![false; g.spaces.len()];
    seen[start] = true;
    let mut queue = VecDeque::from([(start, 0u32)]);
    while let Some((i, d)) = queue.pop_front() {
        if d >= reach {
            continue;
        }
        for &(n, _) in g.neighbours(i) {
            if seen[n] || !passable(n) {
                continue;
            }
            seen[n] = true;
            found.extend(source_here(n));
            queue.push_back((n, d + 1));
        }
    }
    Some(found)
}
