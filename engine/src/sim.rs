//! Self-play: many games of one scenario between agents, their statistics, and the paired
//! comparison of two variants.
//!
//! Game `i` of a batch is a function of the batch's seed and `i` alone (its own dice seed and
//! agent seeds, see [`game_seed`]), and the games are gathered in order, so a batch gives the
//! same records and the same report whatever the number of threads. Variants are compared on
//! the same game seeds (paired), which takes the luck of the seeds out of their difference.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

mod report;
mod shard;
pub use report::*;
pub use shard::*;

use crate::agent::AgentKind;
use crate::content::Content;
use crate::rules::{self, Rules, RulesError};
use crate::state::Record;

/// What a batch plays.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plan {
    pub scenario: String,
    pub options: Vec<String>,
    pub games: u32,
    pub seed: u64,
    /// The agent of each side; sides not named play `default_agent`.
    pub agents: BTreeMap<String, AgentKind>,
    pub default_agent: AgentKind,
    /// A game still going after this many actions is stopped and counted unfinished.
    pub max_actions: usize,
}

impl Plan {
    pub fn new(scenario: &str, games: u32, seed: u64) -> Plan {
        Plan {
            scenario: scenario.to_string(),
            options: Vec::new(),
            games,
            seed,
            agents: BTreeMap::new(),
            default_agent: AgentKind::Random,
            max_actions: 20_000,
        }
    }

    fn agent(&self, side: &str) -> AgentKind {
        self.agents.get(side).copied().unwrap_or(self.default_agent)
    }
}

/// How a card was played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Way {
    Event,
    Ops,
    Sr,
    Rp,
    Combat,
}

/// One game of a batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    pub index: u32,
    pub seed: u64,
    pub winner: Option<String>,
    /// How it was won (`automatic`, `end_of_game`).
    pub how: Option<String>,
    /// The turn it ended on (or was stopped on).
    pub turn: u32,
    pub actions: usize,
    /// Each shared track (one no side owns, such as victory points) at the end of each turn.
    pub tracks: BTreeMap<String, Vec<(u32, i64)>>,
    /// Cards played: side, card, way.
    pub plays: Vec<(String, String, Way)>,
    /// Cards whose event was carried out.
    pub events: BTreeSet<String>,
    /// In a shard's file, only what the report reads of it.
    #[serde(with = "shard::kept")]
    pub record: Record,
    /// An action an agent chose that failed: the game stopped there.
    pub error: Option<String>,
}

impl GameRecord {
    /// Whether a side won it (a game that ended with no winner is undecided, like one stopped
    /// before its end).
    pub fn decided(&self) -> bool {
        self.winner.as_deref().is_some_and(|w| !w.is_empty())
    }
}

/// The seed of game `index` of a batch with seed `seed` (SplitMix64 of the two).
pub fn game_seed(seed: u64, index: u32) -> u64 {
    let mut z = seed
        .wrapping_add(0x9E37_79B9_7F4A_7C15u64.wrapping_mul(index as u64 + 1))
        .wrapping_add(0x5851_F42D_4C95_7F2D);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn way_of(kind: &str, action: &crate::rules::Action) -> Option<(Way, String)> {
    let way = match action.verb() {
        "card" if kind == "combat_card" => Way::Combat,
        "event" => Way::Event,
        "ops" => Way::Ops,
        "sr" => Way::Sr,
        "rp" => Way::Rp,
        _ => return None,
    };
    Some((way, action.text(1)?.to_string()))
}

/// Plays game `index` of the plan.
pub fn play_game(rules: &Rules, plan: &Plan, index: u32) -> GameRecord {
    let seed = game_seed(plan.seed, index);
    let mut rec = GameRecord {
        index,
        seed,
        winner: None,
        how: None,
        turn: 0,
        actions: 0,
        tracks: BTreeMap::new(),
        plays: Vec::new(),
        events: BTreeSet::new(),
        record: Record::default(),
        error: None,
    };
    let mut state = match rules::start(rules, seed, &plan.options, &[]) {
        Ok(s) => s,
        Err(e) => {
            rec.error = Some(e.0);
            return rec;
        }
    };
    let shared: Vec<&str> = rules
        .game
        .tracks
        .iter()
        .filter(|t| t.side.is_none())
        .map(|t| t.id.as_str())
        .collect();
    let mut agents: BTreeMap<&str, Box<dyn crate::agent::Agent>> = BTreeMap::new();
    for (i, side) in rules.game.sides.iter().enumerate() {
        let agent_seed = game_seed(seed, 1000 + i as u32);
        agents.insert(&side.id, plan.agent(&side.id).make(agent_seed));
    }
    let mut turn = state.turn;
    while let Some(prompt) = &state.flow.prompt {
        if rec.actions >= plan.max_actions {
            break;
        }
        let choice = match agents.get_mut(prompt.side.as_str()) {
            Some(agent) => agent.choose_option(rules, &state),
            None => Some(crate::agent::RandomAgent::new(seed ^ rec.actions as u64).pick(prompt)),
        };
        let Some(choice) = choice else { break };
        // The action (a copy: no text is made), and a card played, told by the prompt it
        // answers: read before the action changes it.
        let action = choice.action(prompt).cloned();
        let play = (action.as_ref())
            .and_then(|action| way_of(&prompt.kind, action))
            .map(|(way, card)| (prompt.side.to_string(), card, way));
        if let Err(e) = rules::act_choice(rules, &mut state, &choice) {
            let action = action.map_or_else(String::new, |a| a.to_string());
            rec.error = Some(format!(
                "action {} `{action}`: {}",
                rec.actions + 1,
                e.message
            ));
            break;
        }
        rec.actions += 1;
        rec.plays.extend(play);
        if state.turn != turn {
            for t in &shared {
                rec.tracks
                    .entry(t.to_string())
                    .or_default()
                    .push((turn, state.track(t)));
            }
            turn = state.turn;
        }
    }
    for t in &shared {
        let series = rec.tracks.entry(t.to_string()).or_default();
        if series.last().is_none_or(|(last, _)| *last != state.turn) {
            series.push((state.turn, state.track(t)));
        }
    }
    rec.turn = state.turn;
    if let Some(r) = &state.flow.result {
        rec.winner = Some(r.winner.clone());
        rec.how = Some(r.how.clone());
        rec.turn = r.turn;
    }
    // The cards played in the game, not those the scenario records as played before it.
    let before: std::collections::BTreeSet<&str> = rules
        .scenario
        .played
        .iter()
        .map(|p| p.card.as_str())
        .collect();
    rec.events = state
        .played
        .keys()
        .filter(|c| !before.contains(c.as_str()))
        .map(|c| c.to_string())
        .collect();
    rec.record = std::mem::take(&mut state.record);
    rec
}

/// Plays the plan's games of `part` (every game for [`Part::ALL`]) on `jobs` threads, calling
/// `progress` with the number done after each game; stops early (returning the games finished
/// before the first one missing, in order) when `cancel` is set.
///
/// The games are shared out by work stealing (rayon), so that long and short games balance
/// over the threads; each game depends only on its index, so the records do not depend on the
/// threads.
pub fn run(
    content: &Content,
    plan: &Plan,
    part: Part,
    jobs: usize,
    progress: &(dyn Fn(usize) + Sync),
    cancel: &AtomicBool,
) -> Result<Vec<GameRecord>, RulesError> {
    let rules = Rules::new(content, &plan.scenario)?;
    // A scenario that cannot start fails the batch, not each game.
    rules::start(&rules, plan.seed, &plan.options, &[])?;
    let indices: Vec<u32> = part.games(plan.games).collect();
    let jobs = jobs.clamp(1, indices.len().max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| RulesError(format!("cannot start {jobs} threads: {e}")))?;
    let done = AtomicUsize::new(0);
    let games: Vec<Option<GameRecord>> = pool.install(|| {
        indices
            .par_iter()
            .with_max_len(1)
            .map(|&i| {
                if cancel.load(Ordering::Relaxed) {
                    return None;
                }
                let rec = play_game(&rules, plan, i);
                progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                Some(rec)
            })
            .collect()
    });
    // Cancelled: the games finished before the first one missing, so that a report is still
    // of the first games of the part.
    Ok(games.into_iter().map_while(|g| g).collect())
}

/// A mean difference over paired games with its 95% confidence interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Difference {
    pub a: f64,
    pub b: f64,
    /// b − a.
    pub difference: f64,
    pub low: f64,
    pub high: f64,
}

impl Difference {
    /// From pairs (a, b) of one measure in the same game seeds.
    pub fn paired(pairs: &[(f64, f64)]) -> Difference {
        let n = pairs.len() as f64;
        if pairs.is_empty() {
            return Difference {
                a: 0.0,
                b: 0.0,
                difference: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let a = pairs.iter().map(|p| p.0).sum::<f64>() / n;
        let b = pairs.iter().map(|p| p.1).sum::<f64>() / n;
        let d = b - a;
        let var = if pairs.len() > 1 {
            pairs.iter().map(|p| (p.1 - p.0 - d).powi(2)).sum::<f64>() / (n - 1.0)
        } else {
            0.0
        };
        let half = 1.96 * (var / n).sqrt();
        Difference {
            a,
            b,
            difference: d,
            low: d - half,
            high: d + half,
        }
    }

    /// Whether the interval leaves out zero.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// Two variants on the same seeds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Comparison {
    pub a: String,
    pub b: String,
    pub games: u32,
    /// Each side's win rate in A and in B, and the difference.
    pub wins: BTreeMap<String, Difference>,
    /// The turn games ended on.
    pub length: Difference,
    /// Each shared track's final value.
    pub tracks: BTreeMap<String, Difference>,
}

/// Compares the games of two variants played on the same seeds (the first `min(len)` of each).
pub fn compare(
    a_name: &str,
    b_name: &str,
    sides: &[String],
    a: &[GameRecord],
    b: &[GameRecord],
) -> Comparison {
    let pairs: Vec<(&GameRecord, &GameRecord)> = a.iter().zip(b).collect();
    let measure = |f: &dyn Fn(&GameRecord) -> f64| -> Difference {
        Difference::paired(&pairs.iter().map(|(x, y)| (f(x), f(y))).collect::<Vec<_>>())
    };
    let wins = sides
        .iter()
        .map(|s| {
            let won = |g: &GameRecord| f64::from(g.winner.as_deref() == Some(s.as_str()));
            (s.clone(), measure(&won))
        })
        .collect();
    let mut names: BTreeSet<&String> = BTreeSet::new();
    for (x, y) in &pairs {
        names.extend(x.tracks.keys());
        names.extend(y.tracks.keys());
    }
    let tracks = names
        .into_iter()
        .map(|t| {
            let last = |g: &GameRecord| {
                g.tracks
                    .get(t)
                    .and_then(|s| s.last())
                    .map_or(0.0, |(_, v)| *v as f64)
            };
            (t.clone(), measure(&last))
        })
        .collect();
    Comparison {
        a: a_name.to_string(),
        b: b_name.to_string(),
        games: pairs.len() as u32,
        wins,
        length: measure(&|g: &GameRecord| g.turn as f64),
        tracks,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_holds_the_rate_and_stays_in_zero_to_one() {
        let r = Rate::new(50, 100);
        assert!((r.rate - 0.5).abs() < 1e-12);
        assert!((r.low - 0.404).abs() < 0.002 && (r.high - 0.596).abs() < 0.002);
        let none = Rate::new(0, 20);
        assert_eq!(none.low, 0.0);
        assert!(none.high > 0.1 && none.high < 0.2);
        assert_eq!(Rate::new(20, 20).high, 1.0);
    }

    #[test]
    fn a_paired_difference_of_identical_games_is_zero_with_no_width() {
        let d = Difference::paired(&[(1.0, 1.0), (0.0, 0.0), (1.0, 1.0)]);
        assert_eq!((d.difference, d.low, d.high), (0.0, 0.0, 0.0));
        let d = Difference::paired(&[(0.0, 1.0), (0.0, 1.0), (0.0, 0.0), (1.0, 1.0)]);
        assert!((d.difference - 0.5).abs() < 1e-12);
        assert!(d.low < 0.5 && d.high > 0.5);
    }

    #[test]
    fn game_seeds_differ_by_index_and_by_batch_seed() {
        let seeds: BTreeSet<u64> = (0..1000).map(|i| game_seed(7, i)).collect();
        assert_eq!(seeds.len(), 1000);
        assert_ne!(game_seed(7, 0), game_seed(8, 0));
    }
}
