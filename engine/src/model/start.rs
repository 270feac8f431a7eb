//! What a scenario says about its own start beyond the setup: the restrictions of its first
//! turn, the cards already played or out of the game, and the rules of `game.ron` it changes.
//!
//! These are plain data like the rest of the model; [`crate::check`] checks them and
//! [`crate::state::State::new`] and [`crate::rules::Rules::new`] apply them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::AllowedActions;

/// The restrictions of a scenario's first turn in its action rounds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Opening {
    /// The action rounds' `first_turn_rounds` and `first_turn_actions` of `game.ron`, on the
    /// game's first turn (the first of its `turns`) only: a scenario that starts later plays
    /// its first turn as any other.
    #[default]
    FromGame,
    /// No restriction: the first turn is played as any other.
    Unrestricted,
    /// These restrictions on the scenario's first turn, whatever turn it is, instead of
    /// `game.ron`'s.
    Restricted(OpeningRules),
}

/// A first turn's restrictions, for every action-rounds step of that turn.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpeningRules {
    /// The first turn has this many rounds (the step's `rounds` when none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<u32>,
    /// What each side may do on the first turn (a side not listed may do everything).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<AllowedActions>,
}

/// A card played as an event before the scenario starts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayedCard {
    pub card: String,
    /// The turn it was played on (what `turn_played` reads); the turn before the scenario's
    /// first when none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
}

/// A value of `game.ron` that the scenario sets for itself: the place as a JSON pointer into
/// `game.ron` (a step into a list may name an element by its `id`), and the value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RuleSetting {
    /// Where, in `game.ron`: `/play/max_retreat`, `/sequence/action/steps/0/...`.
    pub pointer: String,
    /// The value it takes in this scenario, of the type the place holds.
    pub value: serde_json::Value,
}
