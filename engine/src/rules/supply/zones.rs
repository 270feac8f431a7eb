//! Supply in zone games (Berlin 1945's `TraceSupply` step): a unit is out of supply until the
//! next such step when no line reaches it from its nation's sources through spaces free of
//! hostile units and of their zones (an empty space next to a hostile unit is not free; a
//! contested space only where own units contest it), along the same `trace` (and so the same
//! `SupplyReach` hooks) as every game's supply.

use std::collections::{BTreeMap, BTreeSet};

use super::super::Rules;
use crate::model::ZoneSupply;
use crate::state::{marker_level, space_in_region, Loc, State};

/// Marks the units on the map that cannot trace supply as out of supply, until the next such
/// step.
pub(in crate::rules) fn trace_supply(rules: &Rules, state: &mut State, spec: &ZoneSupply) {
    let g = &rules.content.graph;
    let mut oos = BTreeSet::new();
    // One search per (nation, side): the spaces a line reaches.
    let mut reached: BTreeMap<(String, String), Vec<bool>> = BTreeMap::new();
    for (i, u) in state.units.iter().enumerate() {
        let Loc::Space(at) = &u.at else { continue };
        let nation = rules.nation(u).to_string();
        let side = rules.side(u).to_string();
        if spec
            .always
            .iter()
            .any(|a| a.nations.contains(&nation) && space_in_region(rules.content, at, &a.region))
        {
            continue;
        }
        let key = (nation.clone(), side.clone());
        if !reached.contains_key(&key) {
            let r = supply_reach(rules, state, spec, i);
            reached.insert(key.clone(), r);
        }
        let ok = g
            .index_of(at)
            .is_some_and(|x| reached[&key].get(x).copied().unwrap_or(false));
        if !ok {
            oos.insert(i);
        }
    }
    state.flow.oos = oos;
}

/// The spaces a unit's supply line reaches from its nation's sources.
fn supply_reach(rules: &Rules, state: &State, spec: &ZoneSupply, unit: usize) -> Vec<bool> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let (nation, side) = (rules.nation(u), rules.side(u));
    let group = rules.group(nation);
    let blocked_by_friends = spec.blocked_by_other_sides.iter().any(|n| n == nation);
    let holds_hostile = |s: &str| {
        state
            .units_at(s)
            .any(|(_, x)| rules.group(rules.nation(x)) != group)
    };
    let holds_own = |s: &str| state.units_at(s).any(|(_, x)| rules.side(x) == side);
    let passable: Vec<bool> = g
        .spaces
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if spec
                .closed_markers
                .iter()
                .any(|m| marker_level(state, m, &s.id) > 0)
            {
                return false;
            }
            if blocked_by_friends
                && state
                    .units_at(&s.id)
                    .any(|(_, x)| rules.side(x) != side && rules.group(rules.nation(x)) == group)
            {
                return false;
            }
            if holds_hostile(&s.id) {
                // A contested space: only if own units contest it (3.1.2).
                return holds_own(&s.id);
            }
            if state.units_at(&s.id).next().is_none() {
                // An empty space next to a hostile unit is not free.
                return !g
                    .neighbours(i)
                    .iter()
                    .any(|&(n, _)| holds_hostile(&g.spaces[n].id));
            }
            true
        })
        .collect();
    let mut reached = vec![false; g.spaces.len()];
    let mut queue: Vec<usize> = g
        .spaces
        .iter()
        .enumerate()
        .filter(|(i, s)| {
            passable[*i]
                && s.supply
                    .iter()
                    .any(|x| x.nations.iter().any(|n| n == nation))
        })
        .map(|(i, _)| i)
        .collect();
    for &q in &queue {
        reached[q] = true;
    }
    let reach = super::max_reach(rules.content, state, nation, side);
    let open = |e: usize, n: usize| {
        passable[n] && !g.edges[e].kinds.iter().any(|k| spec.not_across.contains(k))
    };
    super::trace(
        rules.content,
        (&mut reached, std::mem::take(&mut queue)),
        reach,
        |_| true,
        open,
    );
    // A unit's own space counts when it can reach a passable neighbour or is a source.
    let mut out = reached.clone();
    for (i, r) in out.iter_mut().enumerate() {
        if !*r
            && g.neighbours(i).iter().any(|&(n, e)| {
                reached[n] && !g.edges[e].kinds.iter().any(|k| spec.not_across.contains(k))
            })
        {
            *r = true;
        }
    }
    out
}
