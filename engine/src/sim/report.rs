//! A batch's statistics: win rates with their intervals, tracks by turn, cards, tables and
//! spaces, read from the games' records and from what the report needs of the content
//! ([`Context`]), so that shards played apart report as one batch.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::{GameRecord, Plan, Way};
use crate::content::Content;

/// What a report needs of the content: the game's title, its sides, cards and tables, and the
/// names of what the report names. Kept in a shard's file, so that `sim merge` needs no
/// content folder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    pub title: String,
    /// The fingerprint of the content's files: shards of other content do not merge.
    pub content: String,
    pub sides: Vec<String>,
    pub cards: Vec<CardInfo>,
    /// Each table's column labels, by column.
    pub columns: BTreeMap<String, Vec<String>>,
    /// Space id → name.
    pub spaces: BTreeMap<String, String>,
    /// Sides, tracks and tables → their names.
    pub names: BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardInfo {
    pub id: String,
    pub title: String,
    /// Whether it has an event to carry out.
    pub event: bool,
}

impl Context {
    pub fn of(content: &Content) -> Context {
        let names = content.names();
        let game = content.game.as_ref();
        let sides: Vec<String> = game
            .map(|g| g.sides.iter().map(|s| s.id.to_string()).collect())
            .unwrap_or_default();
        let tracks = game
            .into_iter()
            .flat_map(|g| g.tracks.iter().map(|t| &t.id));
        let tables = content.tables.iter().map(|t| &t.id);
        Context {
            title: game.map_or(String::new(), |g| g.title.clone()),
            content: content.hash.clone(),
            cards: content
                .cards()
                .map(|(_, card)| CardInfo {
                    id: card.id.clone(),
                    title: card.title.clone(),
                    event: content
                        .scripts
                        .get(&card.id)
                        .is_some_and(|s| s.effect.is_some()),
                })
                .collect(),
            columns: content
                .tables
                .iter()
                .rev()
                .map(|t| {
                    let labels = (0..t.width()).map(|c| t.column_label(c)).collect();
                    (t.id.clone(), labels)
                })
                .collect(),
            spaces: content
                .graph
                .spaces
                .iter()
                .rev()
                .map(|s| (s.id.to_string(), s.name.clone()))
                .collect(),
            names: sides
                .iter()
                .chain(tracks)
                .chain(tables)
                .map(|id| (id.clone(), names.or_id(id)))
                .collect(),
            sides,
        }
    }

    /// The name of a side, track or table, or its id.
    pub fn name(&self, id: &str) -> String {
        self.names
            .get(id)
            .cloned()
            .unwrap_or_else(|| id.to_string())
    }
}
/// A proportion with its 95% confidence interval (Wilson score).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Rate {
    pub count: u32,
    pub of: u32,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Rate {
    pub fn new(count: u32, of: u32) -> Rate {
        if of == 0 {
            return Rate {
                count,
                of,
                rate: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (k, n, z) = (count as f64, of as f64, 1.96f64);
        let p = k / n;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        Rate {
            count,
            of,
            rate: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideStats {
    pub side: String,
    pub agent: String,
    pub wins: Rate,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TrackPoint {
    pub turn: u32,
    /// Games that reached the end of this turn.
    pub games: u32,
    pub mean: f64,
    pub min: i64,
    pub max: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardStats {
    pub card: String,
    pub title: String,
    /// How often it was played each way, over all games.
    pub played: BTreeMap<Way, u32>,
    /// Games in which the side that played it as an event won, of those it was.
    pub wins_as_event: Rate,
    /// Games in which its event was carried out.
    pub fired: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TableColumnStats {
    pub table: String,
    pub column: String,
    pub rolls: u32,
    /// Result as printed → how often.
    pub results: BTreeMap<String, u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpaceStats {
    pub space: String,
    pub name: String,
    /// Changes of controller over all games.
    pub changes: u32,
    /// Games in which it changed hands at least once.
    pub games: u32,
}

/// What a batch shows.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    pub scenario: String,
    pub options: Vec<String>,
    pub seed: u64,
    pub games: u32,
    pub finished: u32,
    /// Games stopped by an action that failed (a bug in the rules or content), with the first.
    pub errors: u32,
    pub first_error: Option<String>,
    pub sides: Vec<SideStats>,
    /// Games that ended with no winner (a draw, a stall) or were stopped at the action limit:
    /// with the sides' wins, every game of the batch.
    pub undecided: Rate,
    pub mean_actions: f64,
    /// Turn a game ended on → how many.
    pub victory_turns: BTreeMap<u32, u32>,
    /// How games were won (`automatic`, `end_of_game`) → how many.
    pub victory_kinds: BTreeMap<String, u32>,
    /// Each shared track over the turns.
    pub tracks: BTreeMap<String, Vec<TrackPoint>>,
    pub cards: Vec<CardStats>,
    /// Cards with an event that was never carried out in any game.
    pub events_never_fired: Vec<String>,
    pub tables: Vec<TableColumnStats>,
    /// Spaces that changed hands, most often first.
    pub spaces: Vec<SpaceStats>,
}

/// The statistics of a batch's games.
pub fn report(context: &Context, plan: &Plan, games: &[GameRecord]) -> Report {
    let n = games.len() as u32;
    let side_stats = context
        .sides
        .iter()
        .map(|s| SideStats {
            side: s.clone(),
            agent: plan.agent(s).to_string(),
            wins: Rate::new(
                games
                    .iter()
                    .filter(|g| g.winner.as_deref() == Some(s))
                    .count() as u32,
                n,
            ),
        })
        .collect();
    let mut victory_turns = BTreeMap::new();
    let mut victory_kinds = BTreeMap::new();
    for g in games.iter().filter(|g| g.winner.is_some()) {
        *victory_turns.entry(g.turn).or_default() += 1;
        if let Some(how) = &g.how {
            *victory_kinds.entry(how.clone()).or_default() += 1;
        }
    }
    // Tracks by turn.
    let mut points: BTreeMap<String, BTreeMap<u32, Vec<i64>>> = BTreeMap::new();
    for g in games {
        for (t, series) in &g.tracks {
            for (turn, v) in series {
                points
                    .entry(t.clone())
                    .or_default()
                    .entry(*turn)
                    .or_default()
                    .push(*v);
            }
        }
    }
    let tracks = points
        .into_iter()
        .map(|(t, by_turn)| {
            let series = by_turn
                .into_iter()
                .map(|(turn, vs)| TrackPoint {
                    turn,
                    games: vs.len() as u32,
                    mean: vs.iter().sum::<i64>() as f64 / vs.len().max(1) as f64,
                    min: vs.iter().copied().min().unwrap_or(0),
                    max: vs.iter().copied().max().unwrap_or(0),
                })
                .collect();
            (t, series)
        })
        .collect();
    // Cards.
    let mut played: BTreeMap<&str, BTreeMap<Way, u32>> = BTreeMap::new();
    let mut as_event: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut fired: BTreeMap<&str, u32> = BTreeMap::new();
    for g in games {
        let mut seen = BTreeSet::new();
        for (side, card, way) in &g.plays {
            *played.entry(card).or_default().entry(*way).or_default() += 1;
            if *way == Way::Event && seen.insert((side, card)) {
                let e = as_event.entry(card).or_default();
                e.1 += 1;
                if g.winner.as_ref() == Some(side) {
                    e.0 += 1;
                }
            }
        }
        for c in &g.events {
            *fired.entry(c).or_default() += 1;
        }
    }
    let mut cards = Vec::new();
    let mut events_never_fired = Vec::new();
    for card in &context.cards {
        let id = card.id.as_str();
        let (w, of) = as_event.get(id).copied().unwrap_or((0, 0));
        let has_event = card.event;
        let f = fired.get(id).copied().unwrap_or(0);
        if has_event && f == 0 {
            events_never_fired.push(id.to_string());
        }
        cards.push(CardStats {
            card: id.to_string(),
            title: card.title.clone(),
            played: played.get(id).cloned().unwrap_or_default(),
            wins_as_event: Rate::new(w, of),
            fired: f,
        });
    }
    // Tables.
    let mut rolls: BTreeMap<(String, usize), BTreeMap<String, u32>> = BTreeMap::new();
    for g in games {
        for (key, results) in &g.record.table_rolls {
            let into = rolls.entry(key.clone()).or_default();
            for (r, k) in results {
                *into.entry(r.clone()).or_default() += k;
            }
        }
    }
    let tables = rolls
        .into_iter()
        .map(|((table, column), results)| TableColumnStats {
            column: context
                .columns
                .get(&table)
                .map(|c| c.get(column).cloned().unwrap_or_default())
                .unwrap_or_else(|| column.to_string()),
            table,
            rolls: results.values().sum(),
            results,
        })
        .collect();
    // Spaces.
    let mut changes: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for g in games {
        for (space, k) in &g.record.control_changes {
            let e = changes.entry(space).or_default();
            e.0 += k;
            e.1 += 1;
        }
    }
    let mut spaces: Vec<SpaceStats> = changes
        .into_iter()
        .map(|(space, (changes, games))| SpaceStats {
            space: space.to_string(),
            name: context
                .spaces
                .get(space)
                .map_or(space.to_string(), Clone::clone),
            changes,
            games,
        })
        .collect();
    spaces.sort_by(|a, b| b.changes.cmp(&a.changes).then(a.space.cmp(&b.space)));
    let errors: Vec<&GameRecord> = games.iter().filter(|g| g.error.is_some()).collect();
    Report {
        scenario: plan.scenario.clone(),
        options: plan.options.clone(),
        seed: plan.seed,
        games: n,
        finished: games.iter().filter(|g| g.winner.is_some()).count() as u32,
        errors: errors.len() as u32,
        first_error: errors.first().and_then(|g| {
            g.error
                .as_ref()
                .map(|e| format!("game {} (seed {}): {e}", g.index, g.seed))
        }),
        sides: side_stats,
        undecided: Rate::new(games.iter().filter(|g| !g.decided()).count() as u32, n),
        mean_actions: games.iter().map(|g| g.actions as f64).sum::<f64>() / n.max(1) as f64,
        victory_turns,
        victory_kinds,
        tracks,
        cards,
        events_never_fired,
        tables,
        spaces,
    }
}
