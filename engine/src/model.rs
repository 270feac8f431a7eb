//! The content model: the Rust types of every content file kind.
//!
//! These types are the single source of truth for the content format. The JSON Schemas in
//! `schemas/` are generated from them (see [`crate::schema`]), the loader deserialises into them,
//! and `sandtable fmt` and the editor write them back in one canonical layout.
//!
//! Invariant: these are *plain data* as authored. References between them are strings (ids) and
//! are not guaranteed to resolve; [`crate::check`] verifies meaning and builds the checked
//! [`crate::content::Content`], which is what the rest of the engine uses.
//!
//! Every struct denies unknown fields, so a misspelt field name is a schema error with a place,
//! not a silently ignored line. Fields with a default are omitted by the canonical writer when
//! they hold it, which keeps files short and diffs small.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod cards_tables;
mod example;
mod hooks;
mod map;
mod play;
mod scenario;
mod sequence;
pub use cards_tables::*;
pub use example::*;
pub use hooks::*;
pub use map::*;
pub use play::*;
pub use scenario::*;
pub use sequence::*;
mod start;
mod untagged;
pub use start::{Opening, OpeningRules, PlayedCard, RuleSetting};

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

fn is_one(value: &u32) -> bool {
    *value == 1
}

fn one() -> u32 {
    1
}

/// Where a piece of data comes from. Data the rulebook does not print (a map drawn only on the
/// board, a chart lost from the text) is reconstructed and says so, with the reasoning.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Provenance {
    /// Printed in the rulebook (the default).
    #[default]
    Printed,
    /// Not printed; reconstructed as plausibly as the rules and geography allow.
    Reconstructed(String),
}

/// A name declared once in `game.ron` and referred to by id elsewhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Named {
    pub id: crate::id::Id,
    pub name: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// A drawing position on the map, in map units (the editor's canvas coordinates).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Pos {
    pub x: f32,
    pub y: f32,
}

// ---------------------------------------------------------------------------------------------
// game.ron
// ---------------------------------------------------------------------------------------------

/// `game.ron`: everything that is true of the game whatever the scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    /// The players (Axis and Allied; Koniev and Zhukov).
    pub sides: Vec<Named>,
    /// Nationalities of pieces. Who commands a piece is its nation's side unless the counter
    /// or the scenario says otherwise.
    pub nations: Vec<Nation>,
    /// Countries and other named areas (Greater Germany, Wehrkreis, Caucasus ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region>,
    pub terrains: Vec<Terrain>,
    /// Symbols a space may carry besides its terrain: fort, urban, capital, oil, beach ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<Named>,
    pub connection_kinds: Vec<ConnectionKind>,
    /// The kind of a connection that names none.
    pub default_connection_kind: String,
    /// Typed properties a space may carry beyond the built-in ones (zone index, garrison ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub properties: Vec<PropertyDecl>,
    /// Names of the numbers printed on a counter, in order (CS, LF, MA).
    pub stats: Vec<Named>,
    pub unit_types: Vec<UnitType>,
    /// Unit sizes (LCU, SCU; army, division).
    pub sizes: Vec<Named>,
    /// Flags a counter may carry (for example a non-replaceable dot).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counter_flags: Vec<Named>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerKind>,
    /// Game-state switches that events set and rules test ("US entered the war").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<Named>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<Track>,
    /// Off-map holding boxes: reserve boxes, eliminated units, turn record track.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<HoldingBox>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<Deck>,
    /// Kinds of card (event, combat card, dual action ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub card_kinds: Vec<Named>,
    /// Numbers a card may print (OPS value, replacement points per nation ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub card_values: Vec<Named>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub dice: Dice,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seasons: Vec<Named>,
    /// The turn record track, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub stacking: Stacking,
    /// Zones of control: the spaces next to a unit hinder its enemies' movement.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zones_of_control: Option<ZonesOfControl>,
    /// The sequence of play: the phases of every turn, in order. A game without one can be
    /// loaded and edited but not played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sequence: Vec<Phase>,
    /// The names and numbers the general procedures of play read (which stat is the combat
    /// strength, which tables are the fire tables ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub play: Option<PlayRules>,
    /// Rules hooked into the general procedures: conditions, modifiers and after-effects in
    /// the effect language, each at a named point (see [`HookPoint`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hooks: Vec<Hook>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Nation {
    pub id: crate::id::Id,
    pub name: String,
    /// The side that commands this nation's pieces at the start; none for a neutral.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Nations in one group count as one nationality where the rules say so (activation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<crate::id::Id>,
    /// The regions that are this nation's home country.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub home: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub id: String,
    pub name: String,
    /// Larger regions this one lies in (Algeria lies in French North Africa).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terrain {
    pub id: String,
    pub name: String,
    /// Fill colour in the editor, as `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// Movement points more than a connection costs, to enter a space of this terrain (a
    /// marsh: 1). A connection whose kind sets the whole cost (a road) ignores it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub move_cost: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum LineStyle {
    #[default]
    Solid,
    Dotted,
    Dashed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConnectionKind {
    pub id: String,
    pub name: String,
    /// Line colour in the editor, as `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub line: LineStyle,
    /// The supply that can be traced across a connection of this kind.
    #[serde(default, skip_serializing_if = "is_default")]
    pub supply: TraceSupply,
    /// What moving across it costs, if not the one movement point of entering a space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_cost: Option<MoveCost>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// What moving across a connection of a kind costs (7.1.2 of Berlin 1945: +1 across a river;
/// 1/2 along a main road, which cancels the river).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum MoveCost {
    /// This many movement points more than entering the space (a river: 1).
    Extra(f32),
    /// This many movement points in all, whatever the connection's other kinds add (a road:
    /// 0.5). The lowest such cost wins.
    Along(f32),
}

/// The movement points, in halves, of moving across a connection of these kinds: 2 (one
/// point) for entering the space, plus the kinds' extras, unless a kind sets the whole cost.
pub fn move_cost_halves(game: &GameFile, kinds: &[String]) -> u32 {
    move_cost_parts(game, kinds).0
}

/// [`move_cost_halves`], and whether a kind set the whole cost (then the terrain entered adds
/// nothing).
pub fn move_cost_parts(game: &GameFile, kinds: &[String]) -> (u32, bool) {
    let halves = |x: f32| (x * 2.0).round().max(0.0) as u32;
    let costs = kinds
        .iter()
        .filter_map(|k| game.connection_kinds.iter().find(|c| c.id == *k))
        .filter_map(|c| c.move_cost);
    let mut extra = 0;
    let mut along: Option<u32> = None;
    for c in costs {
        match c {
            MoveCost::Extra(x) => extra += halves(x),
            MoveCost::Along(x) => along = Some(along.map_or(halves(x), |a| a.min(halves(x)))),
        }
    }
    match along {
        Some(a) => (a, true),
        None => (2 + extra, false),
    }
}

/// How supply traces across a connection kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum TraceSupply {
    /// Full Supply traces across it.
    #[default]
    Full,
    /// Only Limited Supply traces across it (a sea line).
    Limited,
    /// No supply traces across it (a link between invasion beaches).
    Blocked,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PropertyType {
    Int,
    Bool,
    Text,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PropertyDecl {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub ty: PropertyType,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// A value of a declared space property.
// Read by a visitor of its own (`model/untagged.rs`), not serde's buffering derive.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum PropertyValue {
    Bool(bool),
    Int(i64),
    Text(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    pub id: String,
    pub name: String,
    /// The pieces of this type do not count for stacking (leaders, markers on legs).
    #[serde(default, skip_serializing_if = "is_default")]
    pub no_stacking: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerKind {
    pub id: String,
    pub name: String,
    /// How many of this marker the countersheet provides (a design limit), if limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// Markers with levels (trench level 1 and 2) carry a level from 1 to this.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub levels: u32,
    /// The side that owns markers of this kind, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Track {
    pub id: String,
    pub name: String,
    pub min: i32,
    pub max: i32,
    /// The side this track belongs to, if any (a hand size, a side's replacement points).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// What a holding box is for, where the rules need to know.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum BoxRole {
    /// Where a side's units wait to be redeployed onto the map.
    Reserve,
    /// Where a side's eliminated units go (and may be rebuilt from).
    Eliminated,
    /// Units out of the game for good.
    Removed,
    /// Units waiting on the turn record track (eliminated out of supply) to reach the
    /// eliminated box.
    Delayed,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HoldingBox {
    pub id: String,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<BoxRole>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deck {
    pub id: String,
    pub name: String,
    /// The side that draws from this deck; none for a shared deck or cup of chits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Parts of the deck that enter play at different times (Blitzkrieg, Total War).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<Named>,
    /// Played and discarded cards go back into the draw pile at once, at a random place (a cup
    /// of chits), rather than onto a discard pile.
    #[serde(default, skip_serializing_if = "is_default")]
    pub return_played: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dice {
    /// Faces of the game's die.
    pub faces: u32,
}

impl Default for Dice {
    fn default() -> Self {
        Dice { faces: 6 }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    pub number: u32,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<i32>,
}

/// The declared stacking rules, checked against every setup.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stacking {
    /// Most pieces (that count for stacking) in one space, if limited.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// Pieces of these nations may never share a space with pieces of the `from` nations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apart: Vec<Apart>,
    /// Counters that may not stack with any other piece.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alone: Vec<crate::id::Id>,
    /// Limits for some nations only, or in some regions only (2 Soviet units or 3 German ones in
    /// a zone, 1 German unit in a Berlin zone); each holds besides `limit`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<StackLimit>,
    /// Which of these rules a moving unit may break in a space it passes through: a move must
    /// end within all of them (`Never`, the default: they hold at every step of a move).
    #[serde(default, skip_serializing_if = "is_default")]
    pub pass_through: PassThrough,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// What a moving unit may pass through: a space where the stacking rules would not let it
/// stop. Wherever a move ends, every rule holds; a step into a space the unit may only pass
/// through is offered when it can go on from there, with the points it has left, to a space
/// where it may stop, and it must go on at once.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PassThrough {
    /// Nothing: the stacking rules hold at each step of a move.
    #[default]
    Never,
    /// A space where the unit would exceed a limit (`limit`, `limits`); the rules that keep
    /// pieces `apart` or `alone` hold at each step (Berlin 1945, 6.1.1 with 6.1.2 and 7.4.5).
    OverLimits,
    /// A space where any stacking rule would not let it stop: no stacking rule holds during a
    /// move (Barbarossa to Berlin, 9.1).
    Always,
}

/// A stacking limit on some nations' pieces, in some spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackLimit {
    /// The nations whose pieces it counts; none: every piece that counts for stacking.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<crate::id::Id>,
    pub limit: u32,
    /// Only in spaces of these regions; none: everywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    /// Not in spaces of these regions (the zones east of the Oder-Neisse line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    /// How many a piece of a size counts for (an army as three corps); one when not listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<SizeWeight>,
    /// It holds only while this flag is set, or only while that one is not (a limit that
    /// changes on a date of the game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub while_flag: Option<crate::id::Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<crate::id::Id>,
}

/// A piece of this size counts for `count` pieces in a stacking limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeWeight {
    pub size: crate::id::Id,
    pub count: u32,
}

impl StackLimit {
    /// Whether it holds with these flags set.
    pub fn in_force(&self, set: impl Fn(crate::id::Id) -> bool) -> bool {
        self.while_flag.is_none_or(&set) && self.unless_flag.is_none_or(|f| !set(f))
    }

    /// How many pieces a piece of this size counts for (ids compared by address).
    pub fn weight(&self, size: crate::id::Id) -> u32 {
        self.weights
            .iter()
            .find(|w| w.size == size)
            .map_or(1, |w| w.count)
    }

    /// Whether the limit holds in a space.
    pub fn applies(&self, game: &GameFile, space: &Space) -> bool {
        let lies_in = |r: &String| space_lies_in(game, space, r);
        (self.within.is_empty() || self.within.iter().any(lies_in))
            && !self.except.iter().any(lies_in)
    }

    /// Whether it counts a piece of this nation (ids compared by address).
    pub fn counts(&self, nation: crate::id::Id) -> bool {
        self.nations.is_empty() || self.nations.contains(&nation)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Apart {
    pub nations: Vec<crate::id::Id>,
    /// The nations they may not stack with; empty means every other nation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<crate::id::Id>,
    /// Regions where they may stack together after all (a Berlin city zone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
    /// A retreat may end among them all the same, when no space the retreat rules rank as
    /// well is free of them (a Soviet unit forced among the other camp's units, 7.3.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub retreat: bool,
}

/// The deck a side draws from: its own, else the shared one (a deck of no side).
pub fn deck_of<'g>(game: &'g GameFile, side: &str) -> Option<&'g Deck> {
    game.decks
        .iter()
        .find(|d| d.side.as_deref() == Some(side))
        .or_else(|| game.decks.iter().find(|d| d.side.is_none()))
}

/// Whether `region` is `start` or a region `start` lies within, through the regions' `within`.
fn region_within(regions: &[Region], start: Option<&str>, region: &str) -> bool {
    let mut stack: Vec<&str> = start.into_iter().collect();
    let mut seen = std::collections::BTreeSet::new();
    while let Some(r) = stack.pop() {
        if r == region {
            return true;
        }
        if seen.insert(r) {
            if let Some(def) = regions.iter().find(|x| x.id == r) {
                stack.extend(def.within.iter().map(String::as_str));
            }
        }
    }
    false
}

/// `start` and every region it lies within, through the regions' `within` (as
/// [`region_within`] walks them).
pub(crate) fn regions_within<'r>(regions: &'r [Region], start: &'r str) -> Vec<&'r str> {
    let mut stack = vec![start];
    let mut seen: Vec<&str> = Vec::new();
    while let Some(r) = stack.pop() {
        if seen.contains(&r) {
            continue;
        }
        seen.push(r);
        if let Some(def) = regions.iter().find(|x| x.id == r) {
            stack.extend(def.within.iter().map(String::as_str));
        }
    }
    seen
}

/// Whether a space lies in a region of the game: its country, its further regions, or regions
/// those lie in.
pub fn space_lies_in(game: &GameFile, s: &Space, region: &str) -> bool {
    region_within(&game.regions, s.country.as_deref(), region)
        || s.regions
            .iter()
            .any(|r| region_within(&game.regions, Some(r), region))
}
