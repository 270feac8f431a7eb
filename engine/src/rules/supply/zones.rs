//! Supply traced through a map of zones or hexes (the `TraceSupply` step): a unit is out of
//! supply until the next such step when no line reaches it from its nation's sources (spaces
//! whose supply lists name the nation, and the units of the `source_units` types of its side)
//! through spaces free of hostile units and of their zones (an empty space next to a hostile
//! unit is not free, for the nations `zones_block` names; a contested space only where own
//! units contest it), along the same `trace` (and so the same `SupplyReach` hooks) as every
//! game's supply. With `eliminate`, a unit out at the side's previous trace and still out is
//! eliminated: out of supply for a whole player-turn.

use std::collections::{BTreeMap, BTreeSet};

use super::super::Rules;
use crate::model::ZoneSupply;
use crate::state::{marker_level, space_in_region, Loc, State};

/// Marks the units on the map of the traced sides that cannot trace supply as out of supply,
/// until the next such step; with `eliminate`, those that were out already are eliminated.
pub(in crate::rules) fn trace_supply(rules: &Rules, state: &mut State, spec: &ZoneSupply) {
    let g = &rules.content.graph;
    let traced = |side: &str| spec.sides.is_empty() || spec.sides.iter().any(|s| s == side);
    let before = state.flow.oos.clone();
    let mut oos: BTreeSet<usize> = before
        .iter()
        .copied()
        .filter(|&i| !traced(&rules.side(&state.units[i])))
        .collect();
    let occupancy = Occupancy::of(rules, state);
    // One search per (nation, side): the spaces a line reaches.
    let mut reached: BTreeMap<(String, String), Vec<bool>> = BTreeMap::new();
    for (i, u) in state.units.iter().enumerate() {
        let Loc::Space(at) = &u.at else { continue };
        let nation = rules.nation(u).to_string();
        let side = rules.side(u).to_string();
        if !traced(&side)
            || spec.always.iter().any(|a| {
                a.nations.contains(&nation) && space_in_region(rules.content, at, &a.region)
            })
        {
            continue;
        }
        let key = (nation.clone(), side.clone());
        if !reached.contains_key(&key) {
            let r = supply_reach(rules, state, (spec, &occupancy), i);
            reached.insert(key.clone(), r);
        }
        let ok = g
            .index_of(at)
            .is_some_and(|x| reached[&key].get(x).copied().unwrap_or(false));
        if !ok {
            oos.insert(i);
        }
    }
    let doomed: Vec<usize> = if spec.eliminate {
        oos.iter()
            .copied()
            .filter(|i| before.contains(i) && traced(&rules.side(&state.units[*i])))
            .collect()
    } else {
        Vec::new()
    };
    state.flow.oos = oos;
    for u in doomed {
        let name = state.units[u].name(rules.content);
        state.flow.messages.push(format!(
            "{name} has been out of supply for a whole player-turn and is eliminated"
        ));
        state.flow.oos.remove(&u);
        crate::rules::losses::eliminate_out_of_supply(rules, state, u);
    }
}

/// Who stands where, by space index: the sides present, and the sides whose units there
/// exert a zone of control (every unit, when the game has no `zones_of_control`).
pub(in crate::rules) struct Occupancy {
    pub present: Vec<Vec<usize>>,
    /// By id: compared by address.
    pub exerting: Vec<Vec<crate::Id>>,
}

impl Occupancy {
    pub(in crate::rules) fn of(rules: &Rules, state: &State) -> Occupancy {
        let g = &rules.content.graph;
        let mut present = vec![Vec::new(); g.spaces.len()];
        let mut exerting: Vec<Vec<crate::Id>> = vec![Vec::new(); g.spaces.len()];
        for (i, u) in state.units.iter().enumerate() {
            let Loc::Space(at) = &u.at else { continue };
            let Some(x) = g.index_of(at) else { continue };
            present[x].push(i);
            let exerts = crate::rules::movement::exerts_zone(rules, u);
            let side = rules.side(u);
            if exerts && !exerting[x].contains(&side) {
                exerting[x].push(side);
            }
        }
        Occupancy { present, exerting }
    }

    /// Whether an empty space lies in the zone of a unit of a side other than `side`.
    pub(in crate::rules) fn in_zone_against(
        &self,
        rules: &Rules,
        space: usize,
        side: &str,
    ) -> bool {
        let side = crate::Id::new(side);
        rules
            .content
            .graph
            .neighbours(space)
            .iter()
            .any(|&(n, _)| self.exerting[n].iter().any(|s| *s != side))
    }
}

/// The spaces a unit's supply line reaches from its nation's sources.
fn supply_reach(
    rules: &Rules,
    state: &State,
    (spec, occ): (&ZoneSupply, &Occupancy),
    unit: usize,
) -> Vec<bool> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let (nation, side) = (rules.nation(u), rules.side(u));
    let group = rules.group(rules.nation_id(u));
    let blocked_by_friends = spec.blocked_by_other_sides.iter().any(|n| n == nation);
    let zones_block = spec.zones_block.is_empty() || spec.zones_block.iter().any(|n| n == nation);
    let by_zones = rules.game.zones_of_control.is_some();
    let units = |s: usize| occ.present[s].iter().map(|&i| &state.units[i]);
    let holds_hostile = |s: usize| units(s).any(|x| rules.group(rules.nation_id(x)) != group);
    let holds_own = |s: usize| units(s).any(|x| rules.side(x) == side);
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
                && units(i)
                    .any(|x| rules.side(x) != side && rules.group(rules.nation_id(x)) == group)
            {
                return false;
            }
            if holds_hostile(i) {
                // A contested space: only if own units contest it (3.1.2).
                return holds_own(i);
            }
            if occ.present[i].is_empty() && zones_block {
                // An empty space next to a hostile unit (that exerts a zone) is not free.
                return if by_zones {
                    !occ.in_zone_against(rules, i, &side)
                } else {
                    !g.neighbours(i).iter().any(|&(n, _)| holds_hostile(n))
                };
            }
            true
        })
        .collect();
    let is_source = |i: usize, s: &crate::model::Space| {
        s.supply
            .iter()
            .any(|x| x.nations.iter().any(|n| n == nation))
            || units(i).any(|x| {
                rules.side(x) == side && spec.source_units.iter().any(|t| t == rules.unit_type(x))
            })
    };
    let mut reached = vec![false; g.spaces.len()];
    let mut queue: Vec<usize> = g
        .spaces
        .iter()
        .enumerate()
        .filter(|(i, s)| passable[*i] && is_source(*i, s))
        .map(|(i, _)| i)
        .collect();
    for &q in &queue {
        reached[q] = true;
    }
    let reach = super::max_reach(rules.content, state, nation, &side);
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
