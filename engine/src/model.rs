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

mod hooks;
pub use hooks::*;
mod start;
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
    pub id: String,
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
    pub id: String,
    pub name: String,
    /// The side that commands this nation's pieces at the start; none for a neutral.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// Nations in one group count as one nationality where the rules say so (activation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
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
    pub alone: Vec<String>,
    /// Limits for some nations only, or in some regions only (2 Soviet units or 3 German ones in
    /// a zone, 1 German unit in a Berlin zone); each holds besides `limit`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limits: Vec<StackLimit>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// A stacking limit on some nations' pieces, in some spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackLimit {
    /// The nations whose pieces it counts; none: every piece that counts for stacking.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<String>,
    pub limit: u32,
    /// Only in spaces of these regions; none: everywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub within: Vec<String>,
    /// Not in spaces of these regions (the zones east of the Oder-Neisse line).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
}

impl StackLimit {
    /// Whether the limit holds in a space.
    pub fn applies(&self, game: &GameFile, space: &Space) -> bool {
        let lies_in = |r: &String| crate::state::space_lies_in(game, space, r);
        (self.within.is_empty() || self.within.iter().any(lies_in))
            && !self.except.iter().any(lies_in)
    }

    /// Whether it counts a piece of this nation.
    pub fn counts(&self, nation: &str) -> bool {
        self.nations.is_empty() || self.nations.iter().any(|n| n == nation)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Apart {
    pub nations: Vec<String>,
    /// The nations they may not stack with; empty means every other nation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<String>,
    /// Regions where they may stack together after all (a Berlin city zone).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
}

/// A phase of the sequence of play: steps run in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: String,
    pub name: String,
    /// The rule that describes it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
    pub steps: Vec<Step>,
    /// Turns on which the phase is skipped (the first turn's Orders Phase).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip_turns: Vec<u32>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// One step of a phase: a general procedure with its parameters, or a script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Step {
    /// Action rounds: the sides take one action each, in this order, `rounds` times.
    ActionRounds(ActionRounds),
    /// Statements in the effect language, run for a side (its `me`).
    Script { side: String, effect: String },
    /// A side's units out of supply are eliminated, and its spaces that could not trace
    /// supply pass to the enemy (spaces with a friendly fort excepted).
    Attrition(String),
    /// A side spends the replacement points it gathered this turn; what is left is lost.
    Replacements(String),
    /// A side may discard cards, then draws up to its hand size.
    Draw(String),
    /// Automatic victory by the victory track, or the end of the scenario.
    CheckVictory,
    /// Durations that last the turn end, and the turn marker advances.
    EndTurn,
    /// Operations in impulses (a zone game's Operations Phase): in each impulse a side
    /// activates some of its units in movement, combat or reserve mode; the phase repeats until
    /// its end test says so. See [`Impulses`].
    Impulses(Box<Impulses>),
    /// Which units can trace supply, by the rules given: the others are out of supply until
    /// the next such step (their strength halved, their movement limited, as the impulse rules
    /// say).
    TraceSupply(ZoneSupply),
}

/// The parameters of operations in impulses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Impulses {
    /// The impulses of one operations phase, in order.
    pub impulses: Vec<Impulse>,
    /// How many units an impulse may activate.
    pub units: u32,
    /// More units while a flag is set (an event chit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_units: Vec<FlagUnits>,
    /// The stats of strength and movement.
    pub strength: String,
    pub movement: String,
    /// The track that counts the operations phases of the turn (set to 1 when they start).
    pub track: String,
    /// Run after each operations phase (the end-of-phase test), for the first impulse's side:
    /// the phases end when it sets `end_flag` (which is then cleared).
    pub end_test: String,
    pub end_flag: String,
    /// Impulses (counted from 0) which, when all are passed in one phase, end the operations
    /// after that phase whatever the test (4.1.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_ends: Vec<usize>,
    /// Most operations phases in a turn (a guard; the end test normally ends them sooner).
    pub max_phases: u32,
    pub movement_rules: ImpulseMovement,
    pub combat: OddsCombat,
    /// Combat inside contested spaces that cannot be attacked from outside (a city).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<CityCombat>,
    /// Nations whose counters of several pieces (a Soviet army's two) must keep their pieces
    /// in one space or next to each other: a piece apart from the others when its impulse
    /// begins may only be activated to move, and only towards them, until it rejoins (7.3.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cohesion: Vec<String>,
    /// Orders a side must obey in an impulse while a flag is set (Hitler's counter-attacks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<AttackOrder>,
    /// Cards a side may play in a combat, before the die is rolled, with their combat script.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<Reaction>,
    /// While one of these flags is set when a combat is resolved, the defenders retreat before
    /// combat without losses and the attackers advance (Heinrici).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evade_flags: Vec<String>,
    /// While one of these flags is set, units activated in movement mode may also attack
    /// after moving (an event's trucks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_and_attack: Vec<String>,
    /// Nations whose units entering a space with victory points give it to their side, until
    /// a unit of a hostile nation enters it (7.3.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capturers: Vec<String>,
    /// Run at the end of an impulse for each unit activated in it that neither moved nor
    /// fought, for its side, with the unit as `u` (the shelling of Berlin, 10.2.1).
    #[serde(default, skip_serializing_if = "is_default")]
    pub idle: String,
    /// After the last phase, every unit not activated this turn and in supply may move one
    /// space, impulse by impulse, but not into these regions (5.1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_move: Option<EndMove>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// An order to attack: while `flag` is set, in impulse `impulse` (counted from 0) the side must
/// activate in combat mode, and attack with, `units` of its units able to attack (fewer if fewer
/// can), one of them of the `prefer_types` if one can; units for which `exempt` holds (a
/// condition on `u`) are not bound. The flag is cleared when that impulse ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackOrder {
    pub flag: String,
    pub impulse: usize,
    pub units: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefer_types: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub exempt: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// A card that may be played in a combat: by the attacking side or a defending side that
/// holds it, when the condition (about `attackers`, `defenders`, `defending_space`) holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    pub card: String,
    pub by: CombatRole,
    pub when: String,
}

/// One impulse: the side that acts, with the units of these nations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Impulse {
    pub name: String,
    pub side: String,
    pub nations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagUnits {
    pub flag: String,
    pub units: u32,
}

/// How units move in impulses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpulseMovement {
    /// Connection kinds that units of some nations may not cross (the Oder-Neisse line for
    /// the Germans, the front boundary and the nexus for the Soviets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barred: Vec<Barred>,
    /// Spaces holding one of these markers are closed to every unit (US control).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_markers: Vec<String>,
    /// Units may enter a space held by a hostile nation only in these regions (a city).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enter_hostile_in: Vec<String>,
    /// A die test a unit activated to move must pass to move freely; failed, it may not enter
    /// a space whose property is lower than where it started (7.2.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_test: Option<MoveTest>,
    /// While a flag is set, crossing connections of these kinds costs nothing extra (an
    /// event that bridges a river).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore_costs: Vec<FlagKinds>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagKinds {
    pub flag: String,
    pub kinds: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Barred {
    pub kinds: Vec<String>,
    pub nations: Vec<String>,
}

/// A movement test: roll on `table` (row by the die, column by the turn); a result other
/// than `pass` restricts the unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveTest {
    pub nations: Vec<String>,
    pub table: String,
    pub pass: String,
    /// The space property that must not fall (the zone index).
    pub property: String,
    /// Flags that lift the test for some nations (Planned Retreat).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lifted_by: Vec<FlagNations>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagNations {
    pub flag: String,
    pub nations: Vec<String>,
}

/// Combat by odds: the attackers' strength against the defenders', rounded for the
/// defender, read on a table; strengths, die-roll modifiers and shifts are hooks (`Strength`,
/// `Drm`, `Shift`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OddsCombat {
    /// The table, with an odds column and a record result of `attacker` and `defender` step
    /// losses and `retreat`.
    pub table: String,
    /// Spaces in these regions may not be attacked from outside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_into: Vec<String>,
    /// Connection kinds attacks may not cross.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_across: Vec<String>,
    /// The space property that orders retreats (8.3.2): these nations retreat first towards
    /// lower or equal values, the others towards higher or equal values.
    pub retreat_by: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat_lower: Vec<String>,
    /// Run for a unit that retreats into a space closed by one of the movement rules'
    /// markers, with the unit as `u`; such a retreat is allowed only when no other is, and
    /// only when this script is given (a retreat into an American zone, 2.2.7 and 2.2.8). A
    /// unit in a closed space may not attack.
    #[serde(default, skip_serializing_if = "is_default")]
    pub into_closed: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CombatRole {
    Attackers,
    Defenders,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatDrm {
    pub drm: i32,
    pub when: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// Combat inside the spaces of a region that cannot be attacked from outside: units in such
/// a space attack the hostile units (or its garrison) there on their own table, and the
/// besiegers' progress is a marker's level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CityCombat {
    pub region: String,
    /// The table: odds columns, a record result of `attacker`, `defender` and `progress`.
    pub table: String,
    /// The nations that besiege (raise the level); the others defend.
    pub besiegers: Vec<String>,
    /// The marker whose level is the besiegers' progress; from `control_level` on the space
    /// is the besieging side's.
    pub marker: String,
    pub control_level: u32,
    /// The space property added to the defenders' strength (their only strength when none is
    /// there).
    pub garrison: String,
    /// A flag under which every garrison is this value instead (Speer and Heinrici).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison_override: Option<(String, i32)>,
    /// Each side's track of support points: a besieger's roll costs one, and one more buys a
    /// +1 die-roll modifier.
    pub support: Vec<SideTrack>,
    /// Die-roll modifiers of the besiegers' rolls, conditions as in the odds combat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drms: Vec<CombatDrm>,
    /// Defenders attacking may bring in units from one adjacent space outside the region.
    #[serde(default, skip_serializing_if = "is_default")]
    pub helpers_from_outside: bool,
    /// Run when the besiegers leave a space they contested or held (for the side that left,
    /// with the `space`; `level` is its level before it returns to 0, 9.1.5).
    pub on_abandon: String,
    /// Run when a side first raises a space's level (with the `space`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub on_progress: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideTrack {
    pub side: String,
    pub track: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndMove {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_into: Vec<String>,
}

/// Supply traced through a zone map: from a space whose supply sources list the unit's
/// nation, through spaces free of hostile units and not next to them when empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneSupply {
    /// Nations whose lines are also blocked by units of the same group serving another side
    /// (the other Soviet camp, 3.1.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by_other_sides: Vec<String>,
    /// Spaces holding these markers block every line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_markers: Vec<String>,
    /// Nations always in supply within a region (German units in Berlin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always: Vec<NationsIn>,
    /// Connection kinds a line may not cross.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_across: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationsIn {
    pub nations: Vec<String>,
    pub region: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRounds {
    /// Who acts in each round, in order.
    pub sides: Vec<String>,
    pub rounds: u32,
    /// The game's first turn (the first of `turns`) has this many rounds instead, when the
    /// scenario starts there and gives no `opening` of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_turn_rounds: Option<u32>,
    /// What each side may do on the game's first turn, when it may not do everything (when
    /// the scenario starts there and gives no `opening` of its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_turn_actions: Vec<AllowedActions>,
    /// Rounds (counted from 1) in which a side may not play a card for its OPS, in a season.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_ops_rounds: Vec<SeasonRounds>,
    /// Actions a side may take instead of playing a card, written as scripts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_actions: Vec<FreeAction>,
}

/// An action taken without a card: its text form is its id; it may be taken when its
/// condition holds, and it runs its effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FreeAction {
    pub id: String,
    /// The sides that may take it.
    pub sides: Vec<String>,
    pub name: String,
    /// A condition in the effect language (always, if none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<String>,
    /// What the action does, in the effect language.
    pub effect: String,
    /// Taken at the start of a round, before the side's action (a declaration of war), rather
    /// than as its action.
    #[serde(default, skip_serializing_if = "is_default")]
    pub before_action: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The actions a side may take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedActions {
    pub side: String,
    pub actions: Vec<ActionKind>,
    /// Only these cards may be played (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeasonRounds {
    pub season: String,
    pub rounds: Vec<u32>,
}

/// The ways to take an action in an action round.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum ActionKind {
    /// Play a card for its operations value.
    Ops,
    /// Play a card for strategic redeployment.
    Sr,
    /// Play a card for its replacement points.
    Rp,
    /// Play a card's event.
    Event,
    /// Operations of the automatic value, without a card.
    AutoOps,
    /// One of the action rounds' free actions (written as scripts).
    Free,
}

/// The parameters of the general procedures of play.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRules {
    /// The stat that is a unit's combat strength.
    pub strength: String,
    /// The stat that is a unit's loss factor (the loss a step absorbs).
    pub loss_factor: String,
    /// The stat that is a unit's movement allowance.
    pub movement: String,
    /// The card value that gives a card's operations and SR points.
    pub ops_value: String,
    /// The operations value of an action taken without a card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_ops: Option<u32>,
    /// Connection kinds a unit may move, retreat and advance across.
    pub move_kinds: Vec<String>,
    /// Connection kinds strategic redeployment may cross; `sea_kinds` among them only small
    /// units may cross, and they stop there.
    pub sr_kinds: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sea_kinds: Vec<String>,
    /// The markers that activate a space for movement and for combat.
    pub move_marker: String,
    pub combat_marker: String,
    /// Unit types that are mechanized (move then attack, advance further).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mechanized: Vec<String>,
    /// The fire tables: a side fires on the first whose size is among its units (a table
    /// with no size fits any force).
    pub fire_tables: Vec<FireTable>,
    /// The terrain effects table: a row per terrain, trench level (`<marker>_<level>`) or
    /// feature, with the fields attacker_shift, defender_shift, no_retreat, mech_stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_table: Option<String>,
    /// Markers that fortify a space (trenches); their row is `<marker>_<level>` or `<marker>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trench_markers: Vec<String>,
    /// Column shift of a side's fire when any of its units in the combat is out of supply.
    #[serde(default, skip_serializing_if = "is_default")]
    pub oos_shift: i32,
    /// Retreat length: one space when the loss numbers differ by one, else this many.
    pub max_retreat: u32,
    /// How far mechanized units may advance after a combat (non-mechanized: into the
    /// defender's space only).
    pub mech_advance: u32,
    /// Unit types that advance at most one space.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_advance: Vec<String>,
    /// SR points it costs to redeploy a unit of each size.
    pub sr_costs: Vec<SizeCost>,
    /// Replacement point pools: the track that holds them, the card value that fills them,
    /// the nations they rebuild.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<ReplacementPool>,
    /// Half replacement points a step costs, by unit size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rp_half_costs: Vec<SizeCost>,
    /// Which small unit replaces a large unit that is eliminated from its reduced step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_down: Vec<StepDown>,
    /// The size of unit that steps down to a smaller one when eliminated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_size: Option<String>,
    /// The counter flag of units that may not be rebuilt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_replaceable: Option<String>,
    /// The feature of a fort: it fortifies its space (the terrain table's row of that name)
    /// and keeps control of it through attrition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fort: Option<String>,
    /// Spaces a side may not enter or attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_entry: Vec<NoEntry>,
    /// Spaces a side may not attack until a flag is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_bans: Vec<AttackBan>,
    /// Hand size: a side's hand-limit track and the table of its minimum and maximum by turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<HandRule>,
    /// Stand Fast orders: units may leave a space holding this marker only at a price in
    /// victory points, unless they retreat, advance, or first enter an enemy-controlled space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_fast: Option<StandFast>,
    /// Mandated offensives: while its flag is set a side owes an attack, or the capture of a
    /// space, by units of the nations named; the flag clears as soon as one is made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offensives: Vec<Offensive>,
    /// Markers that hinder one side where they stand (partisans): supply traced through the
    /// space is only Limited; strategic redeployment may not enter, leave or cross it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hindering_markers: Vec<HinderingMarker>,
    /// Extra activation costs of particular units (PanzerArmee Afrika outside Libya).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activation_extra: Vec<ActivationExtra>,
    /// On the listed turns, units of these nations that retreat the full length may not end
    /// their retreat next to the space they defended (B2B 4.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat_away: Vec<RetreatAway>,
    /// Entrenchment: in a space activated for movement, a unit of some nations and sizes may
    /// try to entrench instead of moving; the try is made when movement ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrench: Option<Entrench>,
    /// While a flag is set, units of some nations in a region are at best in Limited Supply
    /// (Winter 42, 15.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limited_while: Vec<Demechanized>,
    /// Units of some nations always in Full Supply: in their home regions, or anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_supplied: Vec<AlwaysSupplied>,
    /// Defenders of some nations that keep only their trenches' benefits: while a flag is set,
    /// in a region, or in a space with a marker (Winter 42, 15.2; partisans, 16.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain_lost: Vec<TerrainLost>,
    /// Markers that move by strategic redeployment (Stalin, 5.5): the side, the SR points it
    /// costs, and a condition on the destination (named `space`), read before the marker moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sr_markers: Vec<SrMarker>,
    /// Neutral spaces of some regions that either side may enter (and so take) once a flag is
    /// set (Vichy France once it is in the war, 17.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_neutrals: Vec<OpenNeutral>,
    /// The marker that records a fort destroyed: a fort whose space changes hands gets one,
    /// and no longer fortifies its space nor holds it through attrition (10.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fort_destroyed: Option<String>,
    /// Markers that are supply sources for some nations where they stand (beach heads): Full
    /// Supply within `full_within` spaces of the marker, Limited beyond (13.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marker_sources: Vec<MarkerSource>,
    /// Markers captured with their space: when a side takes control of a space holding one,
    /// the marker comes off and the victory track moves by `vp` (Stalin, 5.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captured_markers: Vec<CapturedMarker>,
    /// How many cards a side may play for replacement points in a turn, on some turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rp_card_limits: Vec<RpCardLimit>,
    /// How many steps of some units may be rebuilt in a turn (German Panzers, 14.52).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacement_caps: Vec<ReplacementCap>,
    /// While a flag is set, in some rounds, units of some nations and types in a region move and
    /// advance at most so far (Time of Mud, optional 15.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub movement_caps: Vec<MovementCap>,
    /// While a flag is set, units of some nations in a region are not mechanized (Winter 42).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub demechanized: Vec<Demechanized>,
    /// Large units eliminated out of supply wait on the turn track for this many turns before
    /// they reach the eliminated box, and take a small unit of theirs from the reserve with
    /// them (or leave the game when there is none) (13.44).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oos_delay: Option<OosDelay>,
    /// Where units may operate: a unit a rule names may move, retreat, advance and be
    /// redeployed only into the rule's regions (national restrictions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operate_in: Vec<OperateIn>,
    pub victory: Victory,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entrench {
    pub side: String,
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// A condition in the effect language on the space (named `space`): may a unit there try?
    pub playable: String,
    /// What a try does, in the effect language (`space` is the space).
    pub effect: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerSource {
    pub marker: String,
    pub nations: Vec<String>,
    pub full_within: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapturedMarker {
    pub marker: String,
    /// The side whose taking the space captures it.
    pub by: String,
    /// The change of the victory track.
    pub vp: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RpCardLimit {
    pub side: String,
    /// From turn `from` to turn `to`, both included.
    pub from: u32,
    pub to: u32,
    pub max: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementCap {
    pub nations: Vec<String>,
    pub types: Vec<String>,
    /// Steps a turn ...
    pub steps: u32,
    /// ... or this many from the turn after a card's event was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_card: Option<(String, u32)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenNeutral {
    pub regions: Vec<String>,
    pub flag: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MovementCap {
    pub flag: String,
    pub nations: Vec<String>,
    pub types: Vec<String>,
    pub region: String,
    /// The action rounds it holds in (all, if empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds: Vec<u32>,
    pub movement: u32,
    pub advance: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SrMarker {
    pub marker: String,
    pub side: String,
    pub cost: u32,
    /// Where it may go: a condition in the effect language with the destination `space`.
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainLost {
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlwaysSupplied {
    pub nations: Vec<String>,
    /// Anywhere, not only in their home regions.
    #[serde(default, skip_serializing_if = "is_default")]
    pub anywhere: bool,
}

/// A rule in force while a flag is set, for units of some nations in a region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Demechanized {
    pub flag: String,
    pub nations: Vec<String>,
    pub region: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OosDelay {
    pub turns: u32,
    /// Nations whose large units go to the eliminated box at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_nations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HinderingMarker {
    pub marker: String,
    /// The side it hinders.
    pub side: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub limits_supply: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub blocks_sr: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActivationExtra {
    /// A space holding a unit of one of these counters, or of these nations and sizes, costs
    /// more to activate ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// ... when it lies outside this region (anywhere, if none) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
    /// ... or inside this one ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// ... and, if this is set, only when that unit is not in Full Supply ...
    #[serde(default, skip_serializing_if = "is_default")]
    pub unless_full_supply: bool,
    /// ... and, if these are given, only when its supply traces through one of these spaces
    /// (it would trace less without them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracing_through: Vec<String>,
    /// The cost: once for the space, or once for each such unit ...
    pub cost: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub per_unit: bool,
    /// ... up to this much for the space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetreatAway {
    pub nations: Vec<String>,
    pub turns: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandFast {
    pub marker: String,
    /// Victory points the owning side pays to leave such a space by a move.
    pub exit_vp: u32,
    /// After this card's event, units of these nations pay each, and the marker stays (the
    /// Bomb Plot, 8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_unit_after: Option<(String, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Offensive {
    /// Set (by the orders script) while the offensive is owed.
    pub flag: String,
    pub side: String,
    /// Units of these nations meet it.
    pub nations: Vec<String>,
    /// If given, only attacks by units of these sizes count (captures by any unit do).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_sizes: Vec<String>,
    /// If given, the attack or the capture must be outside this region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OperateIn {
    /// The units the rule binds: of these nations, or these counters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<String>,
    /// Only units of these sizes (all sizes if empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// Counters the rule does not bind (a unit with a rule of its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_counters: Vec<String>,
    /// The regions they may be in (anywhere, if empty) ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// ... and the regions they may not be in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_regions: Vec<String>,
    /// The rule is lifted while this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
    /// The rule's number, for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    pub table: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeCost {
    pub size: String,
    pub cost: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementPool {
    pub track: String,
    /// The card value that adds to the pool (defaults to the track's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub nations: Vec<String>,
    /// The pool fills only while this flag is set (U.S. RPs while the U.S. is at war).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// A condition in the effect language: while it does not hold, each card fills the pool
    /// by one point less (Moscow, 14.55).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub less_one_unless: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDown {
    /// Large units of these nations (and, if given, unit types) ...
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// ... are replaced by a small unit of one of these nations and types.
    pub by_nations: Vec<String>,
    pub by_types: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoEntry {
    pub side: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackBan {
    pub side: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// The ban is lifted when this flag is set.
    pub until_flag: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandRule {
    pub side: String,
    /// The track that holds the side's hand size.
    pub track: String,
    /// A table by turn with the columns `min` and `max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<String>,
}

/// How the game is won.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// The victory point track, and the side whose gains raise it.
    pub track: String,
    pub raised_by: String,
    /// Automatic victories checked at the end of a turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub automatic: Vec<AutomaticVictory>,
    /// Who wins when the last turn ends without an automatic victory.
    pub at_end: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutomaticVictory {
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i32>,
    /// Won when this condition (in the effect language) holds at the end of one of the side's
    /// actions (the Allies holding every Axis supply source in Germany, 5.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// No such victory once this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// map.ron
// ---------------------------------------------------------------------------------------------

/// The deck a side draws from: its own, else the shared one (a deck of no side).
pub fn deck_of<'g>(game: &'g GameFile, side: &str) -> Option<&'g Deck> {
    game.decks
        .iter()
        .find(|d| d.side.as_deref() == Some(side))
        .or_else(|| game.decks.iter().find(|d| d.side.is_none()))
}

/// `map.ron`: the map, authored in any mix of three ways that load into one graph: explicit
/// spaces and connections (point to point), spaces that list their own adjacency (zones), and a
/// hex grid whose adjacency the loader derives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapFile {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<Space>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub connections: Vec<Connection>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex_grid: Option<HexGrid>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// A supply source printed on a space.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SupplySource {
    /// The nations that may trace supply here.
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub level: SupplyLevel,
    /// The source counts only while this flag is set (Antwerp once the Scheldt is cleared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The source does not count while this flag is set (Naples in Sunny Italy's bad weather).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum SupplyLevel {
    #[default]
    Full,
    Limited,
}

/// A space, area, zone or hex: a node of the map graph.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Space {
    pub id: String,
    pub name: String,
    /// For a hex: its column and row on the grid. Hexes not listed as spaces are made from the
    /// grid's defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hex: Option<(i32, i32)>,
    /// Terrain; for a hex, the grid's default terrain when omitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain: Option<String>,
    /// The country the space lies in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// Further regions the space belongs to (Greater Germany, Wehrkreis, Caucasus ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub features: Vec<String>,
    /// Victory points for controlling the space.
    #[serde(default, skip_serializing_if = "is_default")]
    pub vp: i32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supply: Vec<SupplySource>,
    /// Values of the game's declared properties.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub props: BTreeMap<String, PropertyValue>,
    /// Zone-style adjacency: connections listed on the space itself.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub adjacent: Vec<Adjacent>,
    /// Where the editor draws it. A hex's position comes from the grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pos: Option<Pos>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

/// One neighbour of a zone, with the kinds of the edge between them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Adjacent {
    pub to: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<String>,
}

/// A point-to-point connection between two spaces.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Connection {
    pub a: String,
    pub b: String,
    /// Its kinds; the game's default connection kind when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kinds: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexOrientation {
    /// Flat-topped hexes in vertical columns (most wargame maps).
    #[default]
    FlatTop,
    /// Pointy-topped hexes in horizontal rows.
    PointyTop,
}

/// A hex grid. Columns and rows are numbered from `first`; with flat tops, odd or even columns
/// are shifted half a hex down as `shifted` says (with pointy tops, rows shifted right).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HexGrid {
    #[serde(default, skip_serializing_if = "is_default")]
    pub orientation: HexOrientation,
    pub columns: i32,
    pub rows: i32,
    /// The number of the first column and row (1 on most printed maps).
    #[serde(default = "first_hex", skip_serializing_if = "is_first_hex")]
    pub first: (i32, i32),
    #[serde(default, skip_serializing_if = "is_default")]
    pub shifted: HexShift,
    /// Distance from a hex's centre to a corner, in map units.
    pub size: f32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub origin: Pos,
    /// Terrain of every hex not listed among the spaces.
    pub terrain: String,
    /// Cells of the rectangle that are not part of the map (open sea, off the board).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub holes: Vec<(i32, i32)>,
    /// Features printed on hexsides (rivers, escarpments), as kinds of the edge they lie on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hexsides: Vec<Hexside>,
}

fn first_hex() -> (i32, i32) {
    (1, 1)
}

fn is_first_hex(value: &(i32, i32)) -> bool {
    *value == (1, 1)
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum HexShift {
    /// Odd-numbered columns (rows) sit half a hex lower (further right).
    #[default]
    Odd,
    Even,
}

/// The six directions from a hex. Flat-topped grids use N, NE, SE, S, SW, NW; pointy-topped
/// grids use NE, E, SE, SW, W, NW.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum HexDir {
    N,
    NE,
    E,
    SE,
    S,
    SW,
    W,
    NW,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hexside {
    /// Column and row of one of the two hexes.
    pub hex: (i32, i32),
    pub side: HexDir,
    pub kinds: Vec<String>,
}

// ---------------------------------------------------------------------------------------------
// counters.ron
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountersFile {
    pub counters: Vec<Counter>,
}

/// A counter of the countersheet. Identical generic counters (twelve German infantry corps)
/// are one entry with a `count`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counter {
    pub id: String,
    pub name: String,
    pub nation: String,
    /// The side that commands it when that is not its nation's side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    pub unit_type: String,
    pub size: String,
    /// The full-strength step: one number per stat of the game, in order.
    pub front: Vec<i32>,
    /// The reduced step, if the counter has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back: Option<Vec<i32>>,
    /// The unit type of the reduced step when it differs (a mechanized front that becomes
    /// infantry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub back_type: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    /// How many identical counters there are.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

// ---------------------------------------------------------------------------------------------
// scenarios/*.ron
// ---------------------------------------------------------------------------------------------

/// A scenario: the setup and the variant switches. Variants are data, not forks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    pub id: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    pub first_turn: u32,
    pub last_turn: u32,
    /// Who controls what at the start, applied in order (a later line overrides an earlier).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub control: Vec<ControlSetting>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub setup: Vec<Placement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerPlacement>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackValue>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decks: Vec<DeckSetup>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<HandSetup>,
    /// Cards played as events before the start: recorded as played (`played(card)` holds),
    /// then out of the game if the card is removed on play, else on its deck's discard pile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<PlayedCard>,
    /// Cards on their deck's discard pile at the start, not recorded as played (played for
    /// their values, or discarded).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub discarded: Vec<String>,
    /// Cards out of the game at the start, not recorded as played (list a card removed after
    /// its event under `played`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<String>,
    /// The restrictions of the scenario's first turn.
    #[serde(default, skip_serializing_if = "is_default")]
    pub opening: Opening,
    /// Values of `game.ron` this scenario sets for itself, applied in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleSetting>,
    /// Optional rules the players may switch on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<OptionalRule>,
    /// Rules that hold only in this scenario, by rule number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub special_rules: Vec<SpecialRule>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ControlSetting {
    /// The controlling side; none for neutral.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
}

/// Where a piece or marker is put.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Location {
    /// On a space of the map.
    Space(String),
    /// In an off-map holding box.
    Box(String),
    /// Anywhere in a region, the owning player's choice at setup.
    Region(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Placement {
    pub counter: String,
    pub at: Location,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: u32,
    /// Set up on the reduced step.
    #[serde(default, skip_serializing_if = "is_default")]
    pub reduced: bool,
    /// Placed only when this flag is first set (a neutral's forces when it enters the war).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerPlacement {
    pub marker: String,
    pub at: Location,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub level: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TrackValue {
    pub track: String,
    pub value: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeckSetup {
    pub deck: String,
    /// The groups shuffled into the draw pile at the start; the others are set aside.
    pub groups: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandSetup {
    pub side: String,
    pub deck: String,
    /// These cards are in the hand, taken out of the deck before anything is drawn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
    /// The player picks one of these for his hand; the others go into the draw pile.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub choose_one_of: Vec<String>,
    /// Then draws this many.
    #[serde(default, skip_serializing_if = "is_default")]
    pub draw: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionalRule {
    pub id: String,
    pub name: String,
    /// The rule number it amends.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
    pub text: String,
    /// Whether the option is on unless the players switch it off.
    #[serde(default, skip_serializing_if = "is_default")]
    pub default: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    pub id: String,
    pub rule: String,
    pub text: String,
}

// ---------------------------------------------------------------------------------------------
// cards/*.ron
// ---------------------------------------------------------------------------------------------

/// One deck's cards (or one cup's chits).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardsFile {
    pub deck: String,
    pub cards: Vec<Card>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Card {
    pub id: String,
    /// The number printed on the card.
    pub number: u32,
    pub title: String,
    /// The deck group it belongs to (Blitzkrieg, Total War).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub kind: String,
    /// Printed numbers: OPS value, replacement points per nation ...
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub values: BTreeMap<String, i32>,
    /// Removed from the game when played as an event or combat card (the asterisk).
    #[serde(default, skip_serializing_if = "is_default")]
    pub remove: bool,
    /// The text as printed.
    pub text: String,
    /// When the event may be played: a condition in the effect language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<String>,
    /// What the event does: statements in the effect language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// What the card does as a combat card: statements run in the combat.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub combat: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

// ---------------------------------------------------------------------------------------------
// tables.ron
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TablesFile {
    pub tables: Vec<Table>,
}

/// A lookup table: rows by die roll, number or name; columns by strength band, odds ratio or
/// name (or a single column). Results are typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Table {
    pub id: String,
    pub name: String,
    /// What selects the row.
    pub rows_by: RowsBy,
    pub columns: Columns,
    /// The type every cell holds.
    pub result: ResultType,
    pub rows: Vec<Row>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub provenance: Provenance,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum RowsBy {
    /// A roll of `count` dice, modified by DRMs and then clamped to `clamp` (min, max): the
    /// rows must cover that range exactly.
    Dice {
        count: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clamp: Option<(i32, i32)>,
    },
    /// A number (spaces controlled, a turn): the rows must cover `from` to `to` exactly;
    /// numbers outside are clamped to it.
    Number { from: i32, to: i32 },
    /// A name (a terrain, a season): one row per name.
    Name,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Columns {
    /// A one-dimensional table.
    Single,
    /// Strength bands, in ascending order; each band starts at `min`, the last is open.
    /// Column shifts move along them and stop at either end.
    Bands(Vec<i32>),
    /// Odds ratios (attacker, defender), ascending, such as (1, 2), (1, 1), (2, 1). The odds
    /// are rounded in the defender's favour to the highest column not above them.
    Odds(Vec<(u32, u32)>),
    /// Named columns.
    Named(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ResultType {
    Int,
    /// One of these symbols.
    Symbol(Vec<String>),
    /// A record of named fields.
    Record(Vec<FieldDecl>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FieldDecl {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: FieldType,
    /// Value of the field in a cell that omits it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default: Option<Scalar>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum FieldType {
    Int,
    Bool,
    Symbol(Vec<String>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    Bool(bool),
    Int(i64),
    Symbol(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RowKey {
    /// One die roll or number.
    One(i32),
    /// A range of rolls or numbers, both ends included.
    Range(i32, i32),
    /// A name.
    Name(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub key: RowKey,
    pub cells: Vec<Cell>,
}

/// A table cell, checked against the table's result type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Cell {
    Scalar(Scalar),
    Record(BTreeMap<String, Scalar>),
}
