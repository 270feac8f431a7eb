//! `scenarios/*.ron`: setups, control, markers, tracks, decks and hands, optional and special
//! rules.

use super::*;

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
    /// The turn the game starts on while the option is on, instead of the scenario's
    /// `first_turn` (an invasion a month earlier); the first such option switched on counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_turn: Option<u32>,
}

impl ScenarioFile {
    /// The turn play starts on with these flags set: an optional rule's `first_turn` when one
    /// of them is on, else the scenario's.
    pub fn start_turn(&self, flags: &std::collections::BTreeSet<crate::Id>) -> u32 {
        self.options
            .iter()
            .filter(|o| flags.contains(o.id.as_str()))
            .find_map(|o| o.first_turn)
            .unwrap_or(self.first_turn)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SpecialRule {
    pub id: String,
    pub rule: String,
    pub text: String,
}
