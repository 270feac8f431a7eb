//! The game state: where every piece is, who controls what, the tracks, flags, markers, cards
//! and active modifiers, and the seeded dice.
//!
//! Invariant: the state is plain ordered data plus a seeded RNG, so the same content, scenario,
//! seed and actions give a byte-identical state on every machine. Scripts change it only
//! through [`crate::script::eval`]; the rules engine (the play issue) will drive it through the
//! sequence of play.

use std::collections::{BTreeMap, BTreeSet};

mod control;
mod occupancy;
mod same;
mod shared;
mod start;
mod units;
pub(crate) use control::fresh_stamp;
pub use control::{ByIndex as ControlByIndex, Control};
pub use occupancy::UnitsAt;
pub(crate) use same::Snapshot;
pub use shared::Shared;
pub use units::Units;

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::content::space_in_region;
use crate::content::Content;
pub use crate::model::space_lies_in;
use crate::model::{Location, Placement, ScenarioFile};

/// Where a unit is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Loc {
    Space(crate::id::Id),
    Box(crate::id::Id),
    /// Not yet in play (reinforcements to come).
    Unplaced,
    /// Out of the game for good.
    Removed,
}

/// One piece on the map or off it: a piece of a counter of the countersheet.
#[derive(Debug, Clone)]
pub struct Unit {
    pub counter: crate::id::Id,
    /// Which of the counter's identical pieces (0 for a unique counter).
    pub piece: u32,
    pub at: Loc,
    pub reduced: bool,
    /// The side the unit serves when it is not its counter's or nation's (the index of a side
    /// in `game.ron`): a neutral nation's units, once it is in the war.
    pub serves: Option<usize>,
    /// Where the counter stood in the content the state was set up from: a hint that spares
    /// a lookup by id, checked against the id before use, and no part of the unit's identity.
    pub(crate) hint: usize,
}

impl PartialEq for Unit {
    fn eq(&self, other: &Unit) -> bool {
        self.counter == other.counter
            && self.piece == other.piece
            && self.at == other.at
            && self.reduced == other.reduced
            && self.serves == other.serves
    }
}

impl Eq for Unit {}

impl Unit {
    /// The side the unit serves: its own allegiance, else its counter's side, else its
    /// nation's.
    #[inline]
    pub fn side(&self, content: &Content) -> crate::Id {
        // The counter's side, found once per loaded content, for a unit that serves no other.
        if self.serves.is_none() {
            if let Some(side) = content.counter_side(self.hint, self.counter) {
                return side;
            }
        }
        self.side_otherwise(content)
    }

    /// [`Unit::side`] of a unit that serves a side of its own, or whose counter is not where
    /// its hint says or names no side of the game.
    #[inline(never)]
    fn side_otherwise(&self, content: &Content) -> crate::Id {
        if let Some(i) = self.serves {
            if let Some(s) = content.game.as_ref().and_then(|g| g.sides.get(i)) {
                return s.id;
            }
            // A side the game does not have: the counter's (asked already when it serves none).
            if let Some(side) = content.counter_side(self.hint, self.counter) {
                return side;
            }
        }
        match content.counter_of(self) {
            Some(c) => match &c.side {
                Some(s) => s.into(),
                None => crate::rules::supply::nation_side(content, &c.nation).into(),
            },
            None => crate::Id::default(),
        }
    }

    /// The stable text form of a unit: `counter` or `counter.piece` for generic counters.
    pub fn name(&self, content: &Content) -> String {
        match content.counter_of(self) {
            Some(c) if c.count > 1 => format!("{}.{}", self.counter, self.piece + 1),
            _ => self.counter.to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarkerOnMap {
    pub marker: crate::id::Id,
    pub space: crate::id::Id,
    pub level: u32,
    /// The duration at whose end the marker comes off, if it is not there for good.
    pub until: Option<String>,
}

/// What a modifier changes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModifierEffect {
    Drm(i64),
    Shift(i64),
    CancelNoRetreat,
    AllowNoRetreat,
    /// The hand limit changes by this much.
    HandLimit(i64),
    /// The hand is this many cards whatever the limits.
    HandSize(i64),
    /// The combat's defending space fights as this terrain.
    Terrain(String),
    /// A feature of the defending space (a fort) has no effect on the combat.
    IgnoreFeature(String),
    /// Rolls on a table are modified by this much.
    RollDrm {
        table: String,
        amount: i64,
    },
}

/// A modifier in force: whose, on what, and until when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Modifier {
    pub effect: ModifierEffect,
    /// The side that played it (whose fire a DRM or shift changes; whose hand a hand limit).
    pub side: String,
    pub attacker: Option<String>,
    pub defender: Option<String>,
    pub attacker_nation: Option<String>,
    pub defender_nation: Option<String>,
    /// Only for combats whose defending space lies in this region.
    pub region: Option<String>,
    /// Only for combats whose defending space is this one.
    pub space: Option<String>,
    /// Only for attacks in which a unit of this counter takes part.
    pub attacker_counter: Option<String>,
    /// Not against defenders of this nation.
    pub except_defender_nation: Option<String>,
    /// In force only from this turn on (an effect that starts later).
    pub from_turn: Option<u32>,
    /// One of the durations (`this_combat`, `end_of_round`, ...).
    pub until: String,
    /// The card that made it.
    pub card: Option<String>,
}

/// What happened in play that statistics read and rules never do: the results rolled on each
/// table, by column, and how often each space changed hands.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Record {
    /// (table, column index after shifts) → result as printed → how often.
    pub table_rolls: BTreeMap<(String, usize), BTreeMap<String, u32>>,
    /// Space → how often its controller changed (a neutral space taken counts).
    pub control_changes: BTreeMap<String, u32>,
    /// Table → the column of its last roll (after shifts) and the result as printed: what a
    /// rulebook example checks.
    pub last_rolls: BTreeMap<String, (usize, String)>,
    /// What the rules said of the last combat resolved (its table, odds or column, modifiers,
    /// roll and result): what the playtest shows until the next.
    pub last_combat: Vec<String>,
}

impl Record {
    pub fn roll(&mut self, table: &str, column: usize, result: String) {
        match self.last_rolls.get_mut(table) {
            Some(last) => {
                last.0 = column;
                last.1.clone_from(&result);
            }
            None => {
                self.last_rolls
                    .insert(table.to_string(), (column, result.clone()));
            }
        }
        *self
            .table_rolls
            .entry((table.to_string(), column))
            .or_default()
            .entry(result)
            .or_default() += 1;
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// The scenario it was set up from.
    pub scenario: String,
    pub turn: u32,
    pub round: u32,
    pub tracks: BTreeMap<crate::id::Id, i64>,
    /// Stamped and shared between copies as the cards are (see [`Shared`]).
    pub flags: Shared<BTreeSet<crate::id::Id>>,
    /// Flags set only for a while: the flag, the duration that clears it, the card that set it.
    pub timed_flags: Vec<(String, String, Option<String>)>,
    /// Flags set on single units for a while (an event's chosen army): the unit, the flag,
    /// the duration that clears it.
    pub unit_flags: Vec<(usize, String, String)>,
    /// Controller of each space that is not neutral.
    pub control: Control,
    /// The pieces, stamped at every change (see [`Units`]).
    pub units: Units,
    /// Stamped and shared between copies as the cards are (see [`Shared`]).
    pub markers: Shared<Vec<MarkerOnMap>>,
    /// Cards played as events, with the turn each was first played; and those of this turn.
    pub played: Shared<BTreeMap<crate::id::Id, u32>>,
    pub played_this_turn: Shared<BTreeSet<crate::id::Id>>,
    pub hands: Shared<BTreeMap<String, Vec<String>>>,
    pub draw_piles: Shared<BTreeMap<String, Vec<String>>>,
    pub discards: Shared<BTreeMap<String, Vec<String>>>,
    /// Cards set aside (groups not yet in play).
    pub set_aside: Shared<BTreeMap<String, Vec<String>>>,
    /// Combat cards a side won a combat with, kept face up for later combats, by side.
    pub kept_cards: Shared<BTreeMap<String, Vec<String>>>,
    pub revealed: Shared<BTreeSet<String>>,
    /// Cards a side must show, by side, until the end of the turn.
    pub revealed_cards: Shared<BTreeMap<String, BTreeSet<String>>>,
    pub modifiers: Vec<Modifier>,
    /// Die results to use before the seeded dice (playtests with fixed rolls).
    pub forced_dice: Vec<i64>,
    /// Units waiting on the turn track, with the turn they reach the eliminated box.
    pub delayed: BTreeMap<usize, u32>,
    /// For games with slow crossings: how many of its side's phases of movement in a row each
    /// unit has not moved in, and how many more it must stay put after a crossing.
    pub still: BTreeMap<usize, u32>,
    pub resting: BTreeMap<usize, u32>,
    /// The theatres (of the play rule `theatres`) each eliminated unit was eliminated in, in
    /// the order the game lists them: where it may be rebuilt.
    pub theatres: BTreeMap<usize, Vec<String>>,
    /// Spaces whose victory points count for another side than their controller's (the play
    /// rule `counts_as`), with that side: what the victory track has been changed by.
    pub vp_counted: BTreeMap<String, String>,
    /// The stamps at which `vp_counted` was last brought up to date (see
    /// [`crate::rules::KeptSettled`]).
    pub vp_settled: crate::rules::KeptSettled,
    /// Where play stands in the sequence of play, and the prompt it waits on.
    pub flow: crate::rules::Flow,
    /// For statistics (see [`Record`]).
    pub record: Shared<Record>,
    rng: ChaCha8Rng,
}

/// A problem setting up a scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError(pub String);

impl State {
    /// A space's controller is now `side` (none for neutral); counted if it changed.
    pub fn set_control(&mut self, space: &str, side: Option<&str>) {
        let before = self.control.get(space).map(|s| s.as_str());
        if before == side {
            return;
        }
        *self
            .record
            .control_changes
            .entry(space.to_string())
            .or_default() += 1;
        match side {
            Some(side) => self.control.insert(space.into(), side.into()),
            None => self.control.remove(space),
        };
    }

    /// Gives the dice a new seed: for an agent's look-ahead on a copy of the state, so its
    /// playouts do not all roll the same. Play itself never reseeds.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// How far the seeded dice have gone (words drawn): the same in two states that rolled and
    /// shuffled alike, whatever the state is made of.
    pub fn dice_drawn(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// Rolls one die of `faces` faces: a forced result first, then the seeded dice.
    pub fn roll(&mut self, faces: u32) -> i64 {
        if !self.forced_dice.is_empty() {
            return self.forced_dice.remove(0);
        }
        i64::from(self.rng.next_u32() % faces.max(1)) + 1
    }

    /// A deterministic shuffle (Fisher-Yates with the seeded dice).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = (self.rng.next_u64() % (i as u64 + 1)) as usize;
            items.swap(i, j);
        }
    }

    /// A number in `0..n` from the seeded dice.
    pub fn random_index(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    /// Ends a duration: drops the modifiers and timed flags that last until it. Ending a turn
    /// also ends its rounds and combats.
    pub fn end(&mut self, duration: &str) {
        let ends: Vec<&str> = match duration {
            "end_of_turn" => vec!["this_combat", "end_of_round", "end_of_turn"],
            "end_of_round" => vec!["this_combat", "end_of_round"],
            other => vec![other],
        };
        self.modifiers.retain(|m| !ends.contains(&m.until.as_str()));
        self.markers
            .retain(|m| !m.until.as_deref().is_some_and(|u| ends.contains(&u)));
        self.drop_timed_flags(|(_, until, _)| ends.contains(&until.as_str()));
        self.unit_flags
            .retain(|(_, _, until)| !ends.contains(&until.as_str()));
    }

    /// Whether a flag is set on a unit.
    pub fn unit_flag(&self, unit: usize, flag: &str) -> bool {
        self.unit_flags
            .iter()
            .any(|(u, f, _)| *u == unit && f == flag)
    }

    /// Ends every modifier and timed flag a card made.
    pub fn cancel_effects(&mut self, card: &str) {
        self.modifiers.retain(|m| m.card.as_deref() != Some(card));
        self.drop_timed_flags(|(_, _, by)| by.as_deref() == Some(card));
    }

    fn drop_timed_flags(&mut self, gone: impl Fn(&(String, String, Option<String>)) -> bool) {
        let (dropped, kept): (Vec<_>, Vec<_>) = std::mem::take(&mut self.timed_flags)
            .into_iter()
            .partition(|f| gone(f));
        self.timed_flags = kept;
        for (flag, _, _) in dropped {
            if !self.timed_flags.iter().any(|(f, _, _)| *f == flag) {
                self.flags.remove(flag.as_str());
            }
        }
    }

    /// Records a card played as an event.
    /// Clears a flag, timed or not.
    pub fn clear_flag(&mut self, flag: &str) {
        self.timed_flags.retain(|(x, _, _)| x != flag);
        self.flags.remove(flag);
    }

    pub fn record_played(&mut self, card: &str) {
        let card = crate::id::Id::new(card);
        self.played.entry(card).or_insert(self.turn);
        self.played_this_turn.insert(card);
    }

    pub fn track(&self, id: &str) -> i64 {
        self.tracks.get(id).copied().unwrap_or(0)
    }
}

/// Sets the level of a marker on a space: placed if missing, taken off at 0 (levels below 0
/// count as 0).
pub fn set_marker_level(state: &mut State, marker: &str, space: &str, level: i64) {
    let level = level.max(0) as u32;
    state
        .markers
        .retain(|m| !(m.marker == marker && m.space == space));
    if level > 0 {
        state.markers.push(MarkerOnMap {
            marker: marker.into(),
            space: space.into(),
            level,
            until: None,
        });
    }
}

/// The level of a marker on a space (0 when none is there).
pub fn marker_level(state: &State, marker: &str, space: &str) -> u32 {
    state
        .markers
        .iter()
        .filter(|m| m.marker == marker && m.space == space)
        .map(|m| m.level)
        .max()
        .unwrap_or(0)
}

impl State {
    /// Puts a card a side no longer holds on its deck's discard pile, or back into the draw
    /// pile at a random place when the deck returns played cards (a cup of chits).
    pub fn put_discarded(&mut self, game: &crate::model::GameFile, deck: &str, card: String) {
        if game.decks.iter().any(|d| d.id == deck && d.return_played) {
            let len = self.draw_piles.get(deck).map_or(0, Vec::len);
            let at = self.random_index(len + 1);
            let pile = self.draw_piles.entry(deck.to_string()).or_default();
            pile.insert(at.min(pile.len()), card);
        } else {
            self.discards
                .entry(deck.to_string())
                .or_default()
                .push(card);
        }
    }
}

impl Content {
    /// The counter of a unit (by the unit's hint when it still holds).
    pub fn counter_of(&self, unit: &Unit) -> Option<&crate::model::Counter> {
        match self.counters.get(unit.hint) {
            Some(c) if c.id == unit.counter => Some(c),
            _ => self.counter(&unit.counter),
        }
    }
}
