//! Retreat, the toolkit's procedure both ways of fighting call: of the spaces next to a
//! retreating unit, those the game's retreat rules rank and the `MayRetreat` hooks allow, in the
//! best rank any of them has (a friendly space before another; towards the rear before
//! sideways; a closed space only when nothing else is left).

use super::{movement, Rules};
use crate::model::HookPoint;
use crate::state::{Loc, State};

/// The spaces unit `u` may retreat into: `rank(space, edge)` ranks each neighbour by the
/// game's rules (graph indexes; `None`: not allowed there, lower ranks first).
pub fn options(
    rules: &Rules,
    state: &State,
    u: usize,
    rank: impl Fn(usize, usize) -> Option<u8>,
) -> Vec<String> {
    best(ranked(rules, state, u, rank))
}

/// Every space next to unit `u` that the game's rules rank and the `MayRetreat` hooks allow,
/// with its rank, in the map's order.
pub fn ranked(
    rules: &Rules,
    state: &State,
    u: usize,
    rank: impl Fn(usize, usize) -> Option<u8>,
) -> Vec<(u8, String)> {
    let g = &rules.content.graph;
    let Loc::Space(at) = &state.units[u].at else {
        return Vec::new();
    };
    let Some(from) = g.index_of(at) else {
        return Vec::new();
    };
    g.neighbours(from)
        .iter()
        .filter_map(|&(n, e)| Some((rank(n, e)?, g.spaces[n].id.as_str())))
        .filter(|(_, to)| movement::may(rules, state, HookPoint::MayRetreat, u, (at, to)))
        .map(|(r, to)| (r, to.to_string()))
        .collect()
}

/// The spaces of the best rank, once each, in their order.
pub fn best(mut ranked: Vec<(u8, String)>) -> Vec<String> {
    let Some(best) = ranked.iter().map(|(r, _)| *r).min() else {
        return Vec::new();
    };
    ranked.retain(|(r, _)| *r == best);
    let mut out: Vec<String> = Vec::new();
    for (_, to) in ranked {
        if !out.contains(&to) {
            out.push(to);
        }
    }
    out
}
