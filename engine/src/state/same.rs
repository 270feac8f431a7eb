//! What a state held but for its pieces: what a prompt worked out unit by unit may be kept for
//! the next prompt when the rest of the state is the same and the pieces that changed are far
//! from the unit (`rules::impulses::kept_moves`).

use std::collections::{BTreeMap, BTreeSet};

use rand_chacha::ChaCha8Rng;

use super::{Modifier, State};
use crate::model::ActionKind;
use crate::rules::{Flow, GameResult, KeptReplay, Marks, Task};
use crate::Id;

/// A state but for its pieces, its prompt, the messages for the player, the task on top and
/// the record of play (statistics, which no rule reads). The parts a state shares with its
/// copies are kept as their stamps, not their values: a kept copy of a shared part would make
/// the state copy it at its next change.
pub(crate) struct Snapshot {
    scenario: String,
    turn: u32,
    round: u32,
    tracks: BTreeMap<Id, i64>,
    /// The stamps of the flags and of the markers on the map (shared parts, as the cards are).
    flags: u64,
    timed_flags: Vec<(String, String, Option<String>)>,
    unit_flags: Vec<(usize, String, String)>,
    control: u64,
    markers: u64,
    /// The stamps of the shared parts: the cards played (ever and this turn), the hands, draw
    /// piles, discards, cards set aside and kept, and the cards revealed.
    shared: [u64; 9],
    modifiers: Vec<Modifier>,
    forced_dice: Vec<i64>,
    delayed: BTreeMap<usize, u32>,
    still: BTreeMap<usize, u32>,
    resting: BTreeMap<usize, u32>,
    theatres: BTreeMap<usize, Vec<String>>,
    vp_counted: BTreeMap<String, String>,
    rng: ChaCha8Rng,
    flow: FlowSnapshot,
}

/// A flow but for its prompt, its messages and its task on top.
struct FlowSnapshot {
    phase: usize,
    step: usize,
    below: Vec<Task>,
    tasks: usize,
    result: Option<GameResult>,
    marks: Marks,
    last_action: BTreeMap<String, ActionKind>,
    rp_cards: BTreeMap<String, u32>,
    capped_steps: BTreeMap<usize, u32>,
    activated: BTreeSet<usize>,
    oos: BTreeSet<usize>,
    impulse: u32,
    hooks_due: Vec<Task>,
    replay: KeptReplay,
}

impl State {
    /// This state but for its pieces and what else [`Snapshot`] leaves out. Every part is
    /// taken or named as left out: a part added to the state is taken too, or this does not
    /// build.
    pub(crate) fn snapshot(&self) -> Snapshot {
        let State {
            scenario,
            turn,
            round,
            tracks,
            flags,
            timed_flags,
            unit_flags,
            control,
            units: _,
            markers,
            played,
            played_this_turn,
            hands,
            draw_piles,
            discards,
            set_aside,
            kept_cards,
            revealed,
            revealed_cards,
            modifiers,
            forced_dice,
            delayed,
            still,
            resting,
            theatres,
            vp_counted,
            // Derived from the stamps of the parts it reads.
            vp_settled: _,
            flow,
            record: _,
            rng,
        } = self;
        Snapshot {
            scenario: scenario.clone(),
            turn: *turn,
            round: *round,
            tracks: tracks.clone(),
            flags: flags.stamp(),
            timed_flags: timed_flags.clone(),
            unit_flags: unit_flags.clone(),
            control: control.stamp(),
            markers: markers.stamp(),
            shared: [
                played.stamp(),
                played_this_turn.stamp(),
                hands.stamp(),
                draw_piles.stamp(),
                discards.stamp(),
                set_aside.stamp(),
                kept_cards.stamp(),
                revealed.stamp(),
                revealed_cards.stamp(),
            ],
            modifiers: modifiers.clone(),
            forced_dice: forced_dice.clone(),
            delayed: delayed.clone(),
            still: still.clone(),
            resting: resting.clone(),
            theatres: theatres.clone(),
            vp_counted: vp_counted.clone(),
            rng: rng.clone(),
            flow: FlowSnapshot::of(flow),
        }
    }
}

impl FlowSnapshot {
    fn of(flow: &Flow) -> FlowSnapshot {
        let Flow {
            phase,
            step,
            tasks,
            prompt: _,
            result,
            marks,
            last_action,
            messages: _,
            rp_cards,
            capped_steps,
            activated,
            oos,
            impulse,
            hooks_due,
            replay,
            // Only a replay's prompts are worked out for an answer, and no kept moves are.
            given: _,
        } = flow;
        FlowSnapshot {
            phase: *phase,
            step: *step,
            below: tasks.split_last().map_or(Vec::new(), |(_, b)| b.to_vec()),
            tasks: tasks.len(),
            result: result.clone(),
            marks: marks.clone(),
            last_action: last_action.clone(),
            rp_cards: rp_cards.clone(),
            capped_steps: capped_steps.clone(),
            activated: activated.clone(),
            oos: oos.clone(),
            impulse: *impulse,
            hooks_due: hooks_due.clone(),
            replay: replay.clone(),
        }
    }

    fn same(&self, flow: &Flow, top: impl FnOnce(&Task) -> bool) -> bool {
        let tasks_same = self.tasks == flow.tasks.len()
            && match flow.tasks.split_last() {
                Some((last, below)) => self.below == below && top(last),
                None => true,
            };
        self.phase == flow.phase
            && self.step == flow.step
            && self.impulse == flow.impulse
            && self.result == flow.result
            && self.marks == flow.marks
            && self.last_action == flow.last_action
            && self.rp_cards == flow.rp_cards
            && self.capped_steps == flow.capped_steps
            && self.activated == flow.activated
            && self.oos == flow.oos
            && self.hooks_due == flow.hooks_due
            && self.replay == flow.replay
            && tasks_same
    }
}

impl Snapshot {
    /// Whether `state` is the same as the state this was taken of but for its pieces, its
    /// prompt, its messages, its record and its task on top (which `top` compares).
    pub(crate) fn same_but_pieces(&self, state: &State, top: impl FnOnce(&Task) -> bool) -> bool {
        let shared = [
            state.played.stamp(),
            state.played_this_turn.stamp(),
            state.hands.stamp(),
            state.draw_piles.stamp(),
            state.discards.stamp(),
            state.set_aside.stamp(),
            state.kept_cards.stamp(),
            state.revealed.stamp(),
            state.revealed_cards.stamp(),
        ];
        self.turn == state.turn
            && self.round == state.round
            && self.control == state.control.stamp()
            && self.shared == shared
            && self.scenario == state.scenario
            && self.flags == state.flags.stamp()
            && self.tracks == state.tracks
            && self.markers == state.markers.stamp()
            && self.timed_flags == state.timed_flags
            && self.unit_flags == state.unit_flags
            && self.modifiers == state.modifiers
            && self.forced_dice == state.forced_dice
            && self.delayed == state.delayed
            && self.still == state.still
            && self.resting == state.resting
            && self.theatres == state.theatres
            && self.vp_counted == state.vp_counted
            && self.rng == state.rng
            && self.flow.same(&state.flow, top)
    }
}
