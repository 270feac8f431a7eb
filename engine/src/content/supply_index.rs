//! What the content says about supply, indexed once: each edge's trace (the most restrictive
//! of its kinds') and each nation's sources. The rules' supply procedure reads it.

use super::Content;
use crate::model::{SupplyLevel, TraceSupply};

/// The side whose pieces a nation's are (empty for a neutral nation).
pub fn nation_side<'c>(content: &'c Content, nation: &str) -> &'c str {
    content
        .game
        .as_ref()
        .and_then(|g| g.nations.iter().find(|n| n.id == nation))
        .and_then(|n| n.side.as_deref())
        .unwrap_or("")
}

/// The supply trace across an edge: the most restrictive of its kinds'.
pub fn edge_trace(content: &Content, edge: usize) -> TraceSupply {
    let kinds = content
        .game
        .as_ref()
        .map(|g| g.connection_kinds.as_slice())
        .unwrap_or_default();
    content.graph.edges[edge]
        .kinds
        .iter()
        .filter_map(|k| kinds.iter().find(|x| x.id == *k).map(|x| x.supply))
        .max_by_key(|s| match s {
            TraceSupply::Full => 0,
            TraceSupply::Limited => 1,
            TraceSupply::Blocked => 2,
        })
        .unwrap_or_default()
}

/// A supply source of a nation: its space, its level, the flag it needs and the flag that
/// shuts it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Source {
    pub(crate) space: usize,
    pub(crate) level: SupplyLevel,
    pub(crate) flag: Option<String>,
    pub(crate) unless_flag: Option<String>,
}

/// What the content says about supply, indexed once: the trace across every edge, and each
/// nation's sources (space, level, the flag that opens it).
#[derive(Debug, Clone, Default)]
pub struct SupplyIndex {
    pub(crate) edges: Vec<TraceSupply>,
    /// Each nation's sources, by the address of its id (see [`SupplyIndex::sources_of`]).
    sources: Sources,
    /// The markers a trace reads where they lie: those that are sources, and the one that
    /// marks a fort destroyed (a marker that hinders supply is read through a side's view).
    pub(crate) traced_markers: Vec<crate::Id>,
    /// The flags a trace reads: those that open or shut a source, and those of the play
    /// rules that allow at best Limited Supply somewhere while they are set. No other flag
    /// changes a level.
    pub(crate) traced_flags: Vec<crate::Id>,
    /// The spaces (graph indexes) with the play rules' fort feature, destroyed or not.
    pub(crate) forts: Vec<usize>,
    /// The play rules that name each nation, by the address of its id (see
    /// [`SupplyIndex::rules_of`]).
    rules: NationsRules,
}

/// The supply rules of the play rules that name a nation, found once per content: what a
/// question's signature reads of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct NationRules {
    /// The marker sources (by index) that supply it.
    pub(crate) markers: Vec<usize>,
    /// The `limited_while` rules (by index) for it, each with its flag.
    pub(crate) limited: Vec<(usize, crate::Id)>,
    /// Whether an `always_supplied` rule names it.
    pub(crate) always: bool,
}

type NationsRules = std::collections::HashMap<
    usize,
    NationRules,
    std::hash::BuildHasherDefault<crate::content::AddrHash>,
>;

/// Sources by the address of their nation's id: looked up, never iterated.
type Sources = std::collections::HashMap<
    usize,
    Vec<Source>,
    std::hash::BuildHasherDefault<crate::content::AddrHash>,
>;

impl SupplyIndex {
    /// A nation's sources on the map (none for a nation without any).
    pub(crate) fn sources_of(&self, nation: crate::Id) -> &[Source] {
        self.sources.get(&nation.addr()).map_or(&[], Vec::as_slice)
    }

    /// The play rules' supply rules that name a nation (none for a nation none names).
    pub(crate) fn rules_of(&self, nation: crate::Id) -> &NationRules {
        static NONE: NationRules = NationRules {
            markers: Vec::new(),
            limited: Vec::new(),
            always: false,
        };
        self.rules.get(&nation.addr()).unwrap_or(&NONE)
    }

    pub fn new(content: &Content) -> SupplyIndex {
        let g = &content.graph;
        let mut sources = Sources::default();
        for (i, s) in g.spaces.iter().enumerate() {
            for src in &s.supply {
                for nation in &src.nations {
                    let at = crate::Id::new(nation).addr();
                    sources.entry(at).or_default().push(Source {
                        space: i,
                        level: src.level,
                        flag: src.flag.clone(),
                        unless_flag: src.unless_flag.clone(),
                    });
                }
            }
        }
        let play = content.game.as_ref().and_then(|g| g.play.as_ref());
        let traced_markers = play.map_or(Vec::new(), |p| {
            let sources = p.marker_sources.iter().map(|s| crate::Id::new(&s.marker));
            sources
                .chain(p.fort_destroyed.iter().map(|d| crate::Id::new(d)))
                .collect()
        });
        let forts = play
            .and_then(|p| p.fort.as_ref())
            .map_or(Vec::new(), |fort| {
                (0..g.spaces.len())
                    .filter(|&i| g.spaces[i].features.contains(fort))
                    .collect()
            });
        let mut rules = NationsRules::default();
        if let Some(p) = play {
            for (i, m) in p.marker_sources.iter().enumerate() {
                for n in &m.nations {
                    rules.entry(n.addr()).or_default().markers.push(i);
                }
            }
            for (i, c) in p.limited_while.iter().enumerate() {
                let flag = crate::Id::new(&c.flag);
                for n in &c.nations {
                    rules.entry(n.addr()).or_default().limited.push((i, flag));
                }
            }
            for a in &p.always_supplied {
                for n in &a.nations {
                    rules.entry(n.addr()).or_default().always = true;
                }
            }
            // A rule that names a nation twice is one rule of it.
            for r in rules.values_mut() {
                r.markers.dedup();
                r.limited.dedup();
            }
        }
        let mut traced_flags: Vec<crate::Id> = (g.spaces.iter())
            .flat_map(|s| &s.supply)
            .flat_map(|src| [&src.flag, &src.unless_flag])
            .flatten()
            .map(|f| crate::Id::new(f))
            .chain(
                play.into_iter()
                    .flat_map(|p| &p.limited_while)
                    .map(|c| crate::Id::new(&c.flag)),
            )
            .collect();
        traced_flags.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        traced_flags.dedup();
        SupplyIndex {
            edges: (0..g.edges.len()).map(|e| edge_trace(content, e)).collect(),
            sources,
            traced_markers,
            traced_flags,
            forts,
            rules,
        }
    }
}
