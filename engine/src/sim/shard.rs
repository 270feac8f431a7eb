//! A batch played in parts, on many machines: part K of N plays games K, K+N, K+2N … and
//! writes them to a file ([`Shard`]); `sim merge` reads the parts back and reports them as the
//! single run would (the same games in the same order, so the same report to the byte).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::{Context, GameRecord, Plan};

/// Which games of a batch to play: those whose index is `k` modulo `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub k: u32,
    pub n: u32,
}

impl Part {
    /// The whole batch.
    pub const ALL: Part = Part { k: 0, n: 1 };

    /// `K/N`, with K from 0 to N − 1 (as Slurm's array task ids and a Kubernetes Indexed
    /// Job's completion indexes count).
    pub fn parse(text: &str) -> Result<Part, String> {
        let bad = || format!("`{text}` is not a shard: write K/N, with K from 0 to N - 1 (0/4)");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if n == 0 || k >= n {
            return Err(bad());
        }
        Ok(Part { k, n })
    }

    /// The indexes of this part's games in a batch of `games`.
    pub fn games(self, games: u32) -> impl Iterator<Item = u32> {
        (self.k..games).step_by(self.n.max(1) as usize)
    }
}

impl std::fmt::Display for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// A game's record as a shard keeps it: what the report reads of it (the tables' rolls and the
/// spaces' changes of control), with the tables' rolls as a list since JSON keys are text.
pub(super) mod kept {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use crate::state::Record;

    #[derive(Serialize, Deserialize)]
    struct Kept {
        /// (table, column, result, how often).
        table_rolls: Vec<(String, usize, String, u32)>,
        control_changes: BTreeMap<String, u32>,
    }

    pub fn serialize<S: Serializer>(record: &Record, s: S) -> Result<S::Ok, S::Error> {
        let table_rolls = record
            .table_rolls
            .iter()
            .flat_map(|((table, column), results)| {
                results
                    .iter()
                    .map(move |(r, k)| (table.clone(), *column, r.clone(), *k))
            })
            .collect();
        Kept {
            table_rolls,
            control_changes: record.control_changes.clone(),
        }
        .serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Record, D::Error> {
        let kept = Kept::deserialize(d)?;
        let mut record = Record {
            control_changes: kept.control_changes,
            ..Record::default()
        };
        for (table, column, result, k) in kept.table_rolls {
            *record
                .table_rolls
                .entry((table, column))
                .or_default()
                .entry(result)
                .or_default() += k;
        }
        Ok(record)
    }
}

/// The file one part of a batch writes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Shard {
    /// The format of this file (1).
    pub sandtable_shard: u32,
    pub part: Part,
    pub plan: Plan,
    pub context: Context,
    pub games: Vec<GameRecord>,
}

impl Shard {
    pub const FORMAT: u32 = 1;

    pub fn new(part: Part, plan: &Plan, context: Context, games: Vec<GameRecord>) -> Shard {
        Shard {
            sandtable_shard: Shard::FORMAT,
            part,
            plan: plan.clone(),
            context,
            games,
        }
    }
}

/// The parts of one batch put back together: its plan, its context and every game in order.
/// Each shard is named (by its file) for the messages. Fails when the parts are of different
/// batches or content, when one is given twice, or when one is missing or incomplete.
pub fn merge(shards: Vec<(String, Shard)>) -> Result<(Plan, Context, Vec<GameRecord>), String> {
    let Some((first_name, first)) = shards.first() else {
        return Err("no shards to merge".into());
    };
    let (plan, context, n) = (first.plan.clone(), first.context.clone(), first.part.n);
    let mut seen: BTreeMap<u32, &str> = BTreeMap::new();
    for (name, s) in &shards {
        if s.sandtable_shard != Shard::FORMAT {
            return Err(format!(
                "{name}: a shard of format {}, and this sandtable reads format {}",
                s.sandtable_shard,
                Shard::FORMAT
            ));
        }
        if s.plan != plan {
            return Err(format!(
                "{name}: another batch than {first_name} (scenario, options, games, seed, agents \
                 or action limit differ)"
            ));
        }
        if s.context != context {
            return Err(format!(
                "{name}: played on other content than {first_name} (content {} and {})",
                s.context.content, context.content
            ));
        }
        if s.part.n != n {
            return Err(format!(
                "{name}: shard {} of a batch cut in {}, and {first_name} is of one cut in {n}",
                s.part, s.part.n
            ));
        }
        if let Some(other) = seen.insert(s.part.k, name) {
            return Err(format!("{name}: shard {} again (also {other})", s.part));
        }
        let expected: Vec<u32> = s.part.games(plan.games).collect();
        let got: Vec<u32> = s.games.iter().map(|g| g.index).collect();
        if got != expected {
            return Err(format!(
                "{name}: shard {} has {} of its {} games (was it cancelled?)",
                s.part,
                got.len(),
                expected.len()
            ));
        }
    }
    let missing: Vec<String> = (0..n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shard(s): {}", missing.join(", ")));
    }
    let mut games: Vec<GameRecord> = shards.into_iter().flat_map(|(_, s)| s.games).collect();
    games.sort_by_key(|g| g.index);
    Ok((plan, context, games))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shard_is_k_of_n_with_k_below_n() {
        assert_eq!(Part::parse("2/8"), Ok(Part { k: 2, n: 8 }));
        assert!(Part::parse("8/8").is_err());
        assert!(Part::parse("1/0").is_err());
        assert!(Part::parse("x").is_err());
        let games: Vec<u32> = Part { k: 1, n: 3 }.games(8).collect();
        assert_eq!(games, [1, 4, 7]);
        assert_eq!(Part::ALL.games(3).count(), 3);
    }
}
