//! `examples/*.ron`: a rulebook's worked examples as content. Each is a position (a scenario,
//! the changes that set up the printed situation, and where play stands), the actions and die
//! rolls played through the prompts, and the outcome the rulebook prints, checked step by step.
//! `sandtable examples` and the editor run them, so a rule change shows at once which printed
//! example it breaks.

use super::*;

/// One worked example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExampleFile {
    pub id: String,
    /// The rule it illustrates, as the rulebook numbers it (`8`, `11.3`).
    pub rule: String,
    pub title: String,
    /// The example as printed, for the designer who reads the file.
    #[serde(default, skip_serializing_if = "is_default")]
    pub text: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
    /// The scenario it starts from.
    pub scenario: String,
    /// The seed of the dice the example does not fix.
    #[serde(default = "one_u64", skip_serializing_if = "is_one_u64")]
    pub seed: u64,
    /// Die results fixed from the start, in order: the rolls made before the first prompt (a
    /// reinforcement roll of the first phase); later rolls are fixed by `Act("dice N")`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<i64>,
    /// Optional rules switched on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    /// The changes to the scenario's setup that make the printed situation.
    #[serde(default, skip_serializing_if = "is_default")]
    pub position: Position,
    /// What is played and what must come of it, in order.
    pub steps: Vec<ExampleStep>,
}

fn one_u64() -> u64 {
    1
}

fn is_one_u64(v: &u64) -> bool {
    *v == 1
}

/// The situation an example starts in: the scenario's start, changed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The turn (the scenario's first if none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// Where play stands in the sequence of play (the scenario's start if none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<PlayAt>,
    /// Spaces emptied first: the units on them are taken out of the game (`removed`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clear: Vec<String>,
    /// Units put somewhere, reduced or not: a space, a box, `removed` or `unplaced`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub units: Vec<UnitAt>,
    /// Who controls a space (none: nobody).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub control: Vec<ControlSetting>,
    /// Markers of these kinds taken off the whole map first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clear_markers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<MarkerAt>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracks: Vec<TrackValue>,
    /// Flags set, and flags cleared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clear_flags: Vec<String>,
    /// Each listed side's hand, exactly (an empty list empties it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<ExampleHand>,
    /// Combat cards each listed side keeps face up, exactly (won with earlier, 7.64).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept: Vec<ExampleHand>,
    /// Cards recorded as played as events before the example (`played(card)` holds), on the
    /// example's turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<String>,
    /// Cards recorded as played as events on an earlier turn (`turn_played(card)` gives it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played_on: Vec<CardPlayedOn>,
}

/// A card played as an event on a turn before an example begins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardPlayedOn {
    pub card: String,
    pub turn: u32,
}

/// Where play stands when an example begins: at the start of a phase of the sequence of play,
/// and within it at a round and a side's turn (action rounds) or an impulse.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayAt {
    /// The phase's id in `game.ron`'s sequence.
    pub phase: String,
    /// The action round (from 1) and the side whose turn it is in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The impulse (from 1), in a phase of impulses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub impulse: Option<u32>,
}

/// A unit put somewhere by an example's position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitAt {
    /// The piece, as the prompts name it (`ge_4th_army`, `su_8ga.2`).
    pub unit: String,
    /// A space, a box, `removed` (out of the game) or `unplaced` (not yet in play).
    pub at: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub reduced: bool,
    /// The side it serves, for a neutral's piece that went to war (Turkey's, 17.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serves: Option<String>,
    /// For a unit put in a box of delayed units (a turn track), the turn it is due back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<u32>,
    /// For an eliminated unit, the theatres (of the play rule `theatres`) it was eliminated in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub theatres: Vec<String>,
}

/// A marker put on a space by an example's position.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerAt {
    pub marker: String,
    pub space: String,
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub level: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExampleHand {
    pub side: String,
    pub cards: Vec<String>,
}

/// One step of an example: something played, or something that must hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum ExampleStep {
    /// Play an action, in the text form the prompt prints (`attack lebus`, `dice 5`).
    Act(String),
    /// Play the first action offered that begins with this text (a choice the example leaves
    /// open: `retreat ge_606 `).
    ActFirst(String),
    /// Each of these actions is offered now.
    Offered(Vec<String>),
    /// None of these actions is offered now.
    NotOffered(Vec<String>),
    /// What the pending prompt is.
    Prompt(PromptCheck),
    /// A message of play since the example began holds this text (a combat's odds, DRMs, roll
    /// and result; a change of control).
    Message(String),
    /// Where a unit is and whether it is reduced.
    Unit(UnitCheck),
    /// Who controls a space (none: nobody).
    Control(ControlSetting),
    /// A track's value.
    Track(TrackValue),
    /// A marker on a space (at a level, if given), or not there.
    Marker(MarkerCheck),
    /// The last roll on a table: its column (as the table heads it) and, if given, the result.
    Roll(RollCheck),
    /// A flag is set, or not.
    Flag(FlagCheck),
    /// Where a card is: in a side's `hand`, a deck's `draw` pile or `discard` pile, `set_aside`
    /// (not yet in play), `kept` (a combat card kept face up), or `out` (none of those: played
    /// and removed from the game).
    Card(CardCheck),
    /// The game is over, won by this side (`""`: nobody).
    Winner(String),
    /// A condition in the effect language holds (`all(units(counter: ge_4th_army), |u|
    /// supply_level(u) == 0)`): anything a script can read.
    Holds(String),
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PromptCheck {
    /// The side asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The kind of decision (`activate`, `retreat`, `advance` ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The question holds this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asks: Option<String>,
    /// How many actions it offers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// Every action it offers begins with this text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_begin: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitCheck {
    pub unit: String,
    /// A space, a box, `removed` or `unplaced`; or `not:<place>` for anywhere else.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reduced: Option<bool>,
    /// The turn a unit waiting in a box of delayed units (a turn track) is due back.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<u32>,
    /// The theatres an eliminated unit was eliminated in (the play rule `theatres`), in the
    /// order the game lists them (`[]`: none recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theatres: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerCheck {
    pub marker: String,
    pub space: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u32>,
    /// There is none.
    #[serde(default, skip_serializing_if = "is_default")]
    pub absent: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RollCheck {
    pub table: String,
    pub column: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardCheck {
    pub card: String,
    /// `hand`, `draw`, `discard`, `set_aside`, `kept` or `out`; or `not:<place>` for anywhere
    /// else.
    pub at: String,
    /// Whose hand, pile or table (a side, or a deck): any if none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagCheck {
    pub flag: String,
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub set: bool,
}

fn yes() -> bool {
    true
}

fn is_yes(b: &bool) -> bool {
    *b
}
