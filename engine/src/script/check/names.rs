//! What a script may name: the kinds of script, every id of the content by kind, and the
//! names each kind of script is given without declaring them.

use std::collections::{BTreeMap, BTreeSet};

use super::super::types::{Kind, Type, DURATIONS};
use crate::content::Content;
use crate::id::Id;
use crate::model::ResultType;

/// What kind of script is being checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptKind {
    /// A condition (when an event may be played): one expression, true or false, read-only.
    Condition,
    /// An event's effect: statements that may change the game and ask players.
    Event,
    /// A combat card: statements run in a combat, with the combat's context names.
    Combat,
}

/// Every id of the content, by kind, and what the checker needs to know of tables and stats.
#[derive(Debug, Clone, Default)]
pub struct Names {
    pub(super) ids: BTreeMap<Kind, BTreeSet<&'static str>>,
    pub(super) table_results: BTreeMap<String, Type>,
    pub(super) stats: Vec<String>,
    pub(super) props: Vec<(String, Type)>,
}

impl Names {
    pub fn from_content(content: &Content) -> Names {
        // Gathered by kind, then each set built at once (from ids kept for the process, so
        // nothing is copied).
        let mut by_kind: BTreeMap<Kind, Vec<&'static str>> = BTreeMap::new();
        by_kind.insert(
            Kind::Space,
            content.graph.spaces.iter().map(|s| s.id.as_str()).collect(),
        );
        let mut add = |kind: Kind, id: &str| {
            by_kind.entry(kind).or_default().push(Id::new(id).as_str());
        };
        for c in &content.counters {
            add(Kind::Counter, &c.id);
        }
        for (_, card) in content.cards() {
            add(Kind::Card, &card.id);
        }
        for t in &content.tables {
            add(Kind::Table, &t.id);
        }
        if let Some(g) = &content.game {
            g.nations.iter().for_each(|x| add(Kind::Nation, &x.id));
            g.sides.iter().for_each(|x| add(Kind::Side, &x.id));
            g.regions.iter().for_each(|x| add(Kind::Region, &x.id));
            g.terrains.iter().for_each(|x| add(Kind::Terrain, &x.id));
            g.features.iter().for_each(|x| add(Kind::Feature, &x.id));
            g.decks.iter().for_each(|x| add(Kind::Deck, &x.id));
            g.tracks.iter().for_each(|x| add(Kind::Track, &x.id));
            g.flags.iter().for_each(|x| add(Kind::Flag, &x.id));
            // A scenario's optional rules are flags while they are switched on.
            content
                .scenarios
                .iter()
                .flat_map(|s| &s.options)
                .for_each(|o| add(Kind::Flag, &o.id));
            g.markers.iter().for_each(|x| add(Kind::Marker, &x.id));
            g.boxes.iter().for_each(|x| add(Kind::Box, &x.id));
            g.unit_types.iter().for_each(|x| add(Kind::UnitType, &x.id));
            g.sizes.iter().for_each(|x| add(Kind::Size, &x.id));
            g.seasons.iter().for_each(|x| add(Kind::Season, &x.id));
            g.connection_kinds
                .iter()
                .for_each(|x| add(Kind::Connection, &x.id));
        }
        for d in DURATIONS {
            add(Kind::Duration, d);
        }
        let ids = by_kind
            .into_iter()
            .filter(|(_, list)| !list.is_empty())
            .map(|(kind, list)| (kind, list.into_iter().collect()))
            .collect();
        let table_results = content
            .tables
            .iter()
            .map(|t| {
                let ty = match t.result {
                    ResultType::Int => Type::Int,
                    ResultType::Symbol(_) => Type::Text,
                    ResultType::Record(_) => Type::Error,
                };
                (t.id.clone(), ty)
            })
            .collect();
        let stats = content
            .game
            .as_ref()
            .map(|g| g.stats.iter().map(|s| s.id.to_string()).collect())
            .unwrap_or_default();
        let props = content
            .game
            .as_ref()
            .map(|g| {
                g.properties
                    .iter()
                    .map(|p| {
                        let ty = match p.ty {
                            crate::model::PropertyType::Int => Type::Int,
                            crate::model::PropertyType::Bool => Type::Bool,
                            crate::model::PropertyType::Text => Type::Text,
                        };
                        (p.id.clone(), ty)
                    })
                    .collect()
            })
            .unwrap_or_default();
        Names {
            ids,
            table_results,
            stats,
            props,
        }
    }

    pub fn is(&self, kind: Kind, id: &str) -> bool {
        self.ids.get(&kind).is_some_and(|s| s.contains(id))
    }

    pub(super) fn kinds_of(&self, id: &str) -> Vec<Kind> {
        self.ids
            .iter()
            .filter(|(_, s)| s.contains(id))
            .map(|(k, _)| *k)
            .collect()
    }

    pub(super) fn ids(&self, kind: Kind) -> impl Iterator<Item = &str> {
        self.ids
            .get(&kind)
            .into_iter()
            .flat_map(|s| s.iter().copied())
    }
}

/// Names every script of a kind may use without declaring them.
pub fn context_names(kind: ScriptKind) -> Vec<(&'static str, Type)> {
    let mut names = vec![
        ("me", Type::Entity(Kind::Side)),
        ("enemy", Type::Entity(Kind::Side)),
    ];
    if kind == ScriptKind::Combat {
        names.extend([
            ("attacking", Type::Bool),
            ("defending", Type::Bool),
            ("attackers", Type::set(Type::Entity(Kind::Unit))),
            ("defenders", Type::set(Type::Entity(Kind::Unit))),
            ("defending_space", Type::Entity(Kind::Space)),
        ]);
    }
    names
}
