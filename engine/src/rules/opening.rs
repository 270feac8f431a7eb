//! The opening: the restrictions of a scenario's first turn in its action rounds (fewer
//! rounds, some kinds of action or some cards only).
//!
//! `game.ron`'s `first_turn_rounds` and `first_turn_actions` are the restrictions of the
//! game's own opening: they hold on the game's first turn (the first of its `turns`), and only
//! when the scenario starts there. A scenario's `opening` may replace them on its own first
//! turn, or lift them.

use super::Rules;
use crate::model::{ActionRounds, AllowedActions, Opening};
use crate::state::State;

/// The restrictions in force now on an action-rounds step: the number of rounds (if it is not
/// the step's) and what each side may do. None on any turn but the scenario's first.
pub(super) fn restrictions<'a>(
    rules: &Rules<'a>,
    state: &State,
    spec: &'a ActionRounds,
) -> Option<(Option<u32>, &'a [AllowedActions])> {
    let scenario = rules.scenario;
    if state.turn != scenario.start_turn(&state.flags) {
        return None;
    }
    match &scenario.opening {
        Opening::FromGame => {
            let game_first = rules.game.turns.first().map_or(1, |t| t.number);
            (state.turn == game_first)
                .then_some((spec.first_turn_rounds, spec.first_turn_actions.as_slice()))
        }
        Opening::Unrestricted => None,
        Opening::Restricted(o) => Some((o.rounds, o.actions.as_slice())),
    }
}
