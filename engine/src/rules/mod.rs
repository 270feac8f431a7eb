//! The rules: the sequence of play, read from the game's data, driven as a stack of tasks,
//! and the general procedures its steps call (action rounds, operations, movement, combat,
//! strategic redeployment, replacements, attrition, drawing cards, victory).
//!
//! Every game is played through one interface: after each action the engine runs every
//! automatic step until somebody must decide, and leaves a [`Prompt`] in the state: who
//! decides, what about, and every legal action in its stable text form. [`apply`] takes one of
//! those texts. Nothing here knows a game by name: what differs between games is the
//! [`crate::model::PlayRules`] and the sequence in `game.ron`, the tables and the scripts.
//!
//! Invariant: [`apply`] either performs a legal action and runs on to the next prompt, or
//! returns an error and leaves the state untouched. The state after any sequence of actions
//! is a function of the content, the scenario, the seed and those actions.

pub mod action;
pub mod activation;
pub mod battle;
pub mod combat;
pub(crate) use conditions::PreparedCondition;
mod conditions;
mod control;
mod facts;
mod given;
pub mod hook_memo;
pub mod hooks;
pub mod impulses;
mod kept;
pub mod losses;
pub mod movement;
mod opening;
pub mod position;
mod procedures;
mod prompt;
pub mod retreat;
mod stacking;
pub mod supply;
pub mod theatres;
pub mod why;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::content::Content;
use crate::model::{ActionKind, Counter, GameFile, PlayRules, ScenarioFile, Step};
use crate::script::eval::Answer;
use crate::state::{Loc, State, Unit};

pub use action::{Action, Word};
pub use combat::CombatTask;
pub use given::Given;
pub(crate) use kept::SpaceCosts;
pub use kept::{KeptCosts, KeptReplay, KeptSettled};
pub use procedures::space_activation_cost;
pub use prompt::Prompt;
pub use stacking::{may_enter, may_operate};

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameResult {
    pub winner: String,
    /// `automatic` or `end_of_game`.
    pub how: String,
    pub turn: u32,
}

/// What units did in the current action: movement points used, combats fought, retreats,
/// redeployments, spaces attacked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    pub moved: BTreeMap<usize, u32>,
    pub fought: BTreeSet<usize>,
    pub retreated: BTreeSet<usize>,
    pub redeployed: BTreeSet<usize>,
    /// How many units entered each space by SR out of a box in this action.
    pub entered_from_box: BTreeMap<String, u32>,
    pub attacked: BTreeSet<String>,
    /// Spaces where a unit tries to entrench when movement ends.
    pub entrenching: BTreeSet<String>,
    /// Combat cards kept face up that were used again in this action.
    pub kept_used: BTreeSet<String>,
    /// The unit passing through a space where it may not stop: it moves on before anything
    /// else is done.
    pub passing: Option<usize>,
}

/// Where play stands: the place in the sequence, the tasks under way, the current prompt.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flow {
    pub phase: usize,
    pub step: usize,
    pub tasks: Vec<Task>,
    pub prompt: Option<Prompt>,
    pub result: Option<GameResult>,
    pub marks: Marks,
    /// Each side's previous action this turn (SR and RP may not be played twice running).
    pub last_action: BTreeMap<String, ActionKind>,
    /// What happened that a player should read (an event that could not be carried out).
    pub messages: Vec<String>,
    /// Cards each side played for replacement points this turn.
    pub rp_cards: BTreeMap<String, u32>,
    /// Steps rebuilt this turn under each replacement cap (by its index in the play rules).
    pub capped_steps: BTreeMap<usize, u32>,
    /// Units activated in an impulse this turn.
    pub activated: BTreeSet<usize>,
    /// Units out of supply until the next supply step of a zone game.
    pub oos: BTreeSet<usize>,
    /// The impulse under way (from 1), 0 outside the impulses.
    pub impulse: u32,
    /// Hooks' after-effects due, first to run first: they go on top of the tasks before play
    /// goes on, so the procedure that caused them finishes its own change first.
    pub hooks_due: Vec<Task>,
    /// What the script of the task on top read before the question it asks (see
    /// [`KeptReplay`]).
    pub replay: KeptReplay,
    /// The answer a replay gave the prompt before it was worked out, which may then offer
    /// only the options that may be it (see [`Given`]); none in play.
    pub given: Given,
}

/// A procedure under way.
#[derive(Debug, Clone, PartialEq)]
pub enum Task {
    /// Action rounds: whose turn is next, and whether a side's action is under way.
    Rounds {
        /// The sequence step (phase, step) that says how the rounds go.
        at: (usize, usize),
        rounds: u32,
        next: usize,
        acting: bool,
    },
    /// A side chooses its action.
    Action {
        side: crate::Id,
    },
    /// A card's event, with the answers given so far.
    Event {
        side: crate::Id,
        card: String,
        answers: Vec<Answer>,
        /// Operations of these points after the event (a card played for both); none in games
        /// without action rounds.
        then_ops: Option<u32>,
    },
    /// A script of the sequence of play, with the answers given so far.
    Script {
        side: crate::Id,
        phase: usize,
        step: usize,
        answers: Vec<Answer>,
    },
    /// Operations: activation points left, and the stage.
    Ops {
        side: crate::Id,
        points: u32,
        stage: OpsStage,
        /// What the last Activate prompt worked out, for the next one (see [`KeptCosts`]).
        kept: KeptCosts,
    },
    Combat(Box<CombatTask>),
    /// Strategic redeployment: points left, and the unit (or the marker that moves by SR)
    /// chosen, if one is.
    Sr {
        side: crate::Id,
        points: u32,
        unit: Option<usize>,
        marker: Option<String>,
    },
    /// Replacements: half points left in each pool, and the unit being placed, if one is.
    Replace {
        side: crate::Id,
        halves: BTreeMap<String, u32>,
        placing: Option<usize>,
    },
    /// A free action of the action rounds (at phase, step, action), with the answers so far.
    Free {
        side: crate::Id,
        at: (usize, usize, usize),
        answers: Vec<Answer>,
    },
    /// Discarding before the draw.
    Discard {
        side: crate::Id,
    },
    /// At the start of play, a side chooses one of some cards for its hand; the others go
    /// into the deck's draw pile and the hand then draws (a scenario's `choose_one_of`). The
    /// hand dealt for now with the first card (`dealt`) goes back first.
    StartCard {
        side: crate::Id,
        deck: String,
        cards: Vec<String>,
        draw: u32,
        dealt: Vec<String>,
    },
    /// Operations in impulses.
    Impulses(Box<impulses::ImpulseTask>),
    /// A free set-up (the sequence step at `at`): the units still to be set up, each with the
    /// space it was set up on.
    Deploy {
        at: (usize, usize),
        pending: Vec<(usize, String)>,
    },
    /// A hook's after-effect (by its place in `game.ron`'s `hooks`), with the names its point
    /// gave and the answers so far.
    Hook {
        side: crate::Id,
        hook: usize,
        names: hooks::Names,
        answers: Vec<Answer>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpsStage {
    Activate,
    Move,
    Attack,
}

/// Why the game cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RulesError(pub String);

impl std::fmt::Display for RulesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The content and scenario the rules read, with the indexes they use.
pub struct Rules<'c> {
    pub content: &'c Content,
    pub game: &'c GameFile,
    pub play: &'c PlayRules,
    pub scenario: &'c ScenarioFile,
    strength: usize,
    loss: usize,
    movement: usize,
    /// Whether an Activate prompt's costs may be kept for the next (see [`KeptCosts`]).
    pub(crate) keeps_activation_costs: bool,
    /// Whether units may move across each edge (by index): every kind of it is one of the
    /// play rules' `move_kinds`.
    movable: Vec<bool>,
    /// What the rules say of each counter, in the content's order (see [`facts`]).
    facts: Vec<facts::Facts>,
    /// Where the stacking rules that depend on regions hold.
    stack: stacking::Tables,
    /// Each `counts_as` rule of the victory rules: its marker, and its condition when it has
    /// one (none inside when it is missing: it never holds), found once for the many spaces
    /// asked about before every step.
    counts_as: Vec<(crate::Id, Option<Option<conditions::PreparedCondition<'c>>>)>,
    /// Whether every `counts_as` condition reads only the state's stamped parts: then what
    /// the rules settle stands while those stamps, the turn and the round do
    /// ([`control::SettledAt`]).
    counts_as_stamped: bool,
    /// Whether, besides, every `counts_as` condition reads no piece but those in the space it
    /// is asked about: then what the rules settle stands while no piece came to a counted
    /// space or left it, and the other stamps, the turn and the round are the same.
    counts_as_by_space: bool,
    /// Whether, besides being stamped, no `counts_as` condition reads a marker: then what the
    /// rules settle stands while only markers that are not theirs came or went.
    counts_as_markerless: bool,
    /// The scenario's start before any die is rolled ([`State::laid_out`]), laid out by the
    /// first game to start and copied by the rest of a batch.
    laid_out: std::sync::OnceLock<Result<State, crate::state::SetupError>>,
    /// The cards as the Action prompt asks of them.
    hand_cards: procedures::HandCards<'c>,
}

impl<'c> Rules<'c> {
    pub fn new(content: &'c Content, scenario: &str) -> Result<Rules<'c>, RulesError> {
        let game = content
            .game
            .as_ref()
            .ok_or_else(|| RulesError("the content has no game.ron".into()))?;
        if game.sequence.is_empty() {
            return Err(RulesError("game.ron has no sequence of play".into()));
        }
        // A game played by impulses needs none of the action rounds' parameters.
        static NO_PLAY: std::sync::OnceLock<PlayRules> = std::sync::OnceLock::new();
        let by_impulses = game
            .sequence
            .iter()
            .flat_map(|p| &p.steps)
            .any(|s| matches!(s, Step::Impulses(_)));
        let play = match &game.play {
            Some(play) => play,
            None if by_impulses => NO_PLAY.get_or_init(PlayRules::default),
            None => {
                return Err(RulesError(
                    "game.ron has no `play` rules: the game cannot be played yet".into(),
                ))
            }
        };
        // A scenario that sets rules of game.ron for itself is played on the game with them.
        if let Some(own) = content.scenario_rules.get(scenario) {
            if !own.scenario_rules.contains_key(scenario) {
                return Rules::new(own, scenario);
            }
        }
        let scenario = content.scenario(scenario).ok_or_else(|| {
            let known: Vec<&str> = content.scenarios.iter().map(|s| s.id.as_str()).collect();
            RulesError(format!(
                "no scenario `{scenario}` (there are: {})",
                known.join(", ")
            ))
        })?;
        let stat = |id: &str| match game.stats.iter().position(|s| s.id == id) {
            Some(i) => Ok(i),
            // Without play rules, the action rounds' stats are not used.
            None if game.play.is_none() => Ok(usize::MAX),
            None => Err(RulesError(format!("no stat `{id}` in game.ron"))),
        };
        let counts_as: Vec<_> = (play.victory.counts_as.iter().enumerate())
            .map(|(i, c)| {
                let at = format!("/play/victory/counts_as/{i}/when");
                let when = c
                    .when
                    .as_ref()
                    .map(|_| conditions::PreparedCondition::at(content, &at));
                (crate::Id::new(&c.marker), when)
            })
            .collect();
        // A rule without a condition, or whose condition never holds, reads nothing.
        let every = |holds: &dyn Fn(&conditions::PreparedCondition<'c>) -> bool| {
            (counts_as.iter()).all(|(_, when)| when.iter().flatten().all(holds))
        };
        let counts_as_stamped = every(&|w| w.reads_only_stamped_parts());
        let counts_as_by_space = counts_as_stamped && every(&|w| w.reads_pieces_only_in_space());
        let counts_as_markerless = counts_as_stamped && every(&|w| w.reads_no_markers());
        let mut rules = Rules {
            content,
            game,
            play,
            scenario,
            strength: stat(&play.strength)?,
            loss: stat(&play.loss_factor)?,
            movement: stat(&play.movement)?,
            keeps_activation_costs: procedures::activation_costs_keep(content, play),
            movable: (content.graph.edges.iter())
                .map(|e| e.kinds.iter().all(|k| play.move_kinds.contains(k)))
                .collect(),
            facts: facts::all(game, play, &content.counters),
            stack: stacking::Tables::new(content, (&game.stacking, play)),
            counts_as,
            counts_as_stamped,
            counts_as_by_space,
            counts_as_markerless,
            laid_out: std::sync::OnceLock::new(),
            hand_cards: Default::default(),
        };
        rules.hand_cards = procedures::hand_cards(&rules);
        Ok(rules)
    }

    /// The state at the start of the scenario with the seed of its dice (see
    /// [`State::new`]): the layout, the same for every seed, made once for these rules.
    fn new_state(&self, seed: u64) -> Result<State, crate::state::SetupError> {
        let laid_out = self
            .laid_out
            .get_or_init(|| State::laid_out(self.content, self.scenario));
        laid_out.clone()?.dealt(self.content, self.scenario, seed)
    }

    /// The `counts_as` rules' markers and conditions (see the field's documentation).
    pub(crate) fn counts_as(
        &self,
    ) -> &[(crate::Id, Option<Option<conditions::PreparedCondition<'c>>>)] {
        &self.counts_as
    }

    /// Whether every `counts_as` condition reads only the state's stamped parts (see the
    /// field's documentation).
    pub(crate) fn counts_as_stamped(&self) -> bool {
        self.counts_as_stamped
    }

    /// Whether every `counts_as` condition reads no piece but those of its space (see the
    /// field's documentation).
    pub(crate) fn counts_as_by_space(&self) -> bool {
        self.counts_as_by_space
    }

    /// Whether no `counts_as` condition reads a marker (see the field's documentation).
    pub(crate) fn counts_as_markerless(&self) -> bool {
        self.counts_as_markerless
    }

    /// Whether a connection (by edge index) may be crossed by a move, a retreat or an advance:
    /// every kind of it is one of the play rules' `move_kinds`, worked out once.
    pub(crate) fn movable(&self, edge: usize) -> bool {
        self.movable.get(edge).copied().unwrap_or(false)
    }

    pub fn counter(&self, unit: &Unit) -> Option<&'c Counter> {
        self.content.counter_of(unit)
    }

    fn stat(&self, unit: &Unit, i: usize) -> i32 {
        let Some(c) = self.counter(unit) else {
            return 0;
        };
        let values = if unit.reduced {
            c.back.as_ref().unwrap_or(&c.front)
        } else {
            &c.front
        };
        values.get(i).copied().unwrap_or(0)
    }

    pub fn strength(&self, unit: &Unit) -> i32 {
        self.stat(unit, self.strength)
    }

    pub fn loss_factor(&self, unit: &Unit) -> i32 {
        self.stat(unit, self.loss).max(1)
    }

    pub fn movement(&self, unit: &Unit) -> i32 {
        self.stat(unit, self.movement)
    }

    pub fn side(&self, unit: &Unit) -> crate::Id {
        unit.side(self.content)
    }

    pub fn nation(&self, unit: &Unit) -> &'c str {
        self.counter(unit).map_or("", |c| c.nation.as_str())
    }

    /// [`Rules::nation`] as an id (the empty one for an unknown counter).
    pub fn nation_id(&self, unit: &Unit) -> crate::Id {
        self.counter(unit)
            .map_or_else(crate::Id::default, |c| c.nation)
    }

    pub fn size(&self, unit: &Unit) -> &'c str {
        self.counter(unit).map_or("", |c| c.size.as_str())
    }

    /// [`Rules::size`] as an id (the empty one for an unknown counter).
    pub fn size_id(&self, unit: &Unit) -> crate::Id {
        self.counter(unit)
            .map_or_else(crate::Id::default, |c| c.size)
    }

    pub fn unit_type(&self, unit: &Unit) -> &'c str {
        self.counter(unit).map_or("", |c| c.unit_type.as_str())
    }

    pub fn is_mech(&self, unit: &Unit) -> bool {
        self.facts(unit).mech
    }

    /// Whether a unit is mechanized now: of a mechanized type, and not under a rule that takes
    /// that away while a flag is set (Winter 42).
    pub fn is_mech_now(&self, state: &State, unit: &Unit) -> bool {
        self.is_mech(unit)
            && !self.play.demechanized.iter().any(|d| {
                state.flags.contains(d.flag.as_str())
                    && d.nations.iter().any(|n| n == self.nation(unit))
                    && matches!(&unit.at, Loc::Space(s)
                        if crate::state::space_in_region(self.content, s, &d.region))
            })
    }

    pub fn is_large(&self, unit: &Unit) -> bool {
        self.facts(unit).large
    }

    /// Steps a unit has left (a unit without a back has one).
    pub fn steps(&self, unit: &Unit) -> u32 {
        match self.counter(unit) {
            Some(c) if c.back.is_some() && !unit.reduced => 2,
            _ => 1,
        }
    }

    /// The activation group of a nation: its group, else itself.
    /// The group a nation counts in (its own id when it has none); ids compared by address.
    pub fn group(&self, nation: crate::Id) -> crate::Id {
        self.game
            .nations
            .iter()
            .find(|n| n.id == nation)
            .map_or_else(crate::Id::default, |n| n.group.unwrap_or(n.id))
    }

    pub fn other_side(&self, side: &str) -> &'c str {
        self.game
            .sides
            .iter()
            .find(|s| s.id != side)
            .map_or("", |s| s.id.as_str())
    }

    /// The deck a side draws from: its own, else the shared one.
    pub fn deck_of(&self, side: &str) -> &'c str {
        crate::model::deck_of(self.game, side).map_or("", |d| d.id.as_str())
    }

    /// The box of a role (reserve, eliminated) that belongs to a side.
    pub fn box_of(&self, side: &str, role: crate::model::BoxRole) -> Option<&'c str> {
        self.game
            .boxes
            .iter()
            .find(|b| b.side.as_deref() == Some(side) && b.role == Some(role))
            .map(|b| b.id.as_str())
    }

    /// The cards as the Action prompt asks of them ([`procedures::HandCard`]).
    pub(in crate::rules) fn hand_cards(&self) -> &procedures::HandCards<'c> {
        &self.hand_cards
    }

    pub fn card(&self, id: &str) -> Option<&'c crate::model::Card> {
        self.content.card(id).map(|(_, c)| c)
    }

    pub fn season(&self, turn: u32) -> Option<&'c str> {
        self.game
            .turns
            .iter()
            .find(|t| t.number == turn)
            .and_then(|t| t.season.as_deref())
    }
}

/// Sets up a scenario's state (with its optional rules switched on as flags named by their ids,
/// which scripts read with `flag(id)`; and
/// die results to use before the seeded dice) and runs play on to the first prompt.
pub fn start(
    rules: &Rules,
    seed: u64,
    options: &[String],
    dice: &[i64],
) -> Result<State, RulesError> {
    start_from(rules, (seed, options, dice), None)
}

/// [`start`], from a position set up by hand (a rulebook example's): the scenario's start
/// changed, and play put where the position says.
pub fn start_from(
    rules: &Rules,
    (seed, options, dice): (u64, &[String], &[i64]),
    position: Option<&crate::model::Position>,
) -> Result<State, RulesError> {
    check_dice(rules, dice)?;
    let mut state = rules.new_state(seed).map_err(|e| RulesError(e.0))?;
    state.forced_dice = dice.to_vec();
    for o in options {
        if !rules.scenario.options.iter().any(|x| &x.id == o) {
            return Err(RulesError(format!(
                "scenario `{}` has no optional rule `{o}`",
                rules.scenario.id
            )));
        }
        state.flags.insert(o.as_str().into());
    }
    for o in rules.scenario.options.iter().filter(|o| o.default) {
        state.flags.insert(o.id.as_str().into());
    }
    state.turn = rules.scenario.start_turn(&state.flags);
    if let Some(p) = position {
        position::apply(rules, &mut state, p)?;
        control::count_vp_as_set(rules, &mut state);
    }
    procedures::advance(rules, &mut state);
    Ok(state)
}

/// Runs every automatic step until a player must decide, and sets the prompt: for a state
/// prepared by hand (a test's position, a setup edited in the editor).
pub fn resume(rules: &Rules, state: &mut State) {
    state.flow.prompt = None;
    procedures::advance(rules, state);
}

/// Performs one action, given in its text form, and runs on to the next prompt. An action that
/// is not legal now changes nothing and returns why, with the legal alternatives.
pub fn apply(rules: &Rules, state: &mut State, action: &str) -> Result<(), IllegalAction> {
    let before = state.clone();
    apply_unguarded(rules, state, action).inspect_err(|_| *state = before)
}

/// Like [`apply`] without keeping a copy of the state: an action the prompt does not offer
/// changes nothing, but one it offers that then fails (which a well-formed prompt never
/// allows) may leave the state half-changed, and the caller must restore it. The session does,
/// from its checkpoints, and so saves a copy of the whole state on every action.
pub fn apply_unguarded(
    rules: &Rules,
    state: &mut State,
    action: &str,
) -> Result<(), IllegalAction> {
    apply_before(rules, state, action, None)
}

/// [`apply_unguarded`], with the answer to the prompt it runs on to already known (`next`, a
/// replay's next action): that prompt may then offer only the options that may be it (see
/// [`Given`]; it offers `next` exactly when the whole prompt does), and the state keeps the
/// answer with it ([`Flow::given`]), so the caller knows.
pub fn apply_before(
    rules: &Rules,
    state: &mut State,
    action: &str,
    next: Option<&str>,
) -> Result<(), IllegalAction> {
    let given = next.map_or_else(Given::default, Given::of);
    let action = action.trim();
    if let Some(results) = action.strip_prefix("dice ") {
        // No prompt is answered: the one standing was worked out for the answer after this.
        return force_dice(rules, state, results);
    }
    let Some(prompt) = state.flow.prompt.take() else {
        return Err(game_over());
    };
    match prompt.parse(action) {
        // Parsed from the prompt's options: allowed, not asked again.
        Some(typed) => perform(rules, state, (prompt, given), &typed),
        None => Err(not_legal(state, prompt, action)),
    }
}

/// Performs one typed action (one the prompt offers), and runs on to the next prompt; what
/// agents and the engine's own loops call. An action that is not legal now changes nothing.
pub fn act(rules: &Rules, state: &mut State, action: &Action) -> Result<(), IllegalAction> {
    let before = state.clone();
    act_unguarded(rules, state, action).inspect_err(|_| *state = before)
}

/// [`act`] without keeping a copy of the state, as [`apply_unguarded`] is to [`apply`].
pub fn act_unguarded(
    rules: &Rules,
    state: &mut State,
    action: &Action,
) -> Result<(), IllegalAction> {
    let Some(prompt) = state.flow.prompt.take() else {
        return Err(game_over());
    };
    if !prompt.allows(action) {
        return Err(not_legal(state, prompt, action));
    }
    perform(rules, state, (prompt, Given::default()), action)
}

/// An agent's answer to the prompt: one of its options by place, or an action made for it
/// (a multiple choice's `choose ...`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Option(usize),
    Action(Action),
}

impl Choice {
    /// The action this choice answers `prompt` with, if it names one.
    pub fn action<'a>(&'a self, prompt: &'a Prompt) -> Option<&'a Action> {
        match self {
            Choice::Option(i) => prompt.actions.get(*i),
            Choice::Action(a) => Some(a),
        }
    }
}

/// [`act_unguarded`] of an agent's [`Choice`]: an option taken by its place in the prompt's
/// list is not looked for in that list again.
pub fn act_choice(rules: &Rules, state: &mut State, choice: &Choice) -> Result<(), IllegalAction> {
    match choice {
        Choice::Action(action) => act_unguarded(rules, state, action),
        Choice::Option(i) => {
            let Some(prompt) = state.flow.prompt.take() else {
                return Err(game_over());
            };
            match prompt.actions.get(*i).filter(|_| prompt.pick.is_none()) {
                Some(action) => {
                    let action = action.clone();
                    perform(rules, state, (prompt, Given::default()), &action)
                }
                None => Err(not_legal(state, prompt, format!("option {}", i + 1))),
            }
        }
    }
}

/// Why `action` does not answer `prompt`, which goes back to the state unchanged.
fn not_legal(state: &mut State, prompt: Prompt, action: impl std::fmt::Display) -> IllegalAction {
    let err = IllegalAction {
        message: format!("`{action}` is not legal now: {}", prompt.question),
        legal: prompt.examples(),
    };
    state.flow.prompt = Some(prompt);
    err
}

/// Performs an action `prompt` (taken from the state) allows, and runs on to the next prompt,
/// worked out for the answer `given`, if one is.
fn perform(
    rules: &Rules,
    state: &mut State,
    (prompt, given): (Prompt, Given),
    action: &Action,
) -> Result<(), IllegalAction> {
    state.flow.given = Given::default();
    if let Err(message) = procedures::act(rules, state, &prompt, action) {
        return Err(IllegalAction {
            message,
            legal: prompt.examples(),
        });
    }
    state.flow.given = given;
    procedures::advance(rules, state);
    Ok(())
}

fn game_over() -> IllegalAction {
    IllegalAction {
        message: "the game is over".into(),
        legal: Vec::new(),
    }
}

/// A die override, `dice 6 1`: the next rolls give these results, then the seeded dice go on.
/// It is an action of the log like any other, so a replay rolls the same. Each result must be
/// a face of the game's die.
fn force_dice(rules: &Rules, state: &mut State, results: &str) -> Result<(), IllegalAction> {
    let faces = i64::from(rules.game.dice.faces.max(1));
    let parsed: Result<Vec<i64>, _> = results.split_whitespace().map(str::parse).collect();
    match parsed {
        Ok(dice) if !dice.is_empty() && dice.iter().all(|d| (1..=faces).contains(d)) => {
            state.forced_dice.extend(dice);
            Ok(())
        }
        _ => Err(IllegalAction {
            message: format!(
                "`dice {results}` is not a die override: give die results from 1 to {faces} (the \
                 faces of the game's die), as in `dice {faces} 1`"
            ),
            legal: Vec::new(),
        }),
    }
}

/// Die results given before play (`--dice`) that are not faces of the game's die.
fn check_dice(rules: &Rules, dice: &[i64]) -> Result<(), RulesError> {
    let faces = i64::from(rules.game.dice.faces.max(1));
    match dice.iter().find(|d| !(1..=faces).contains(*d)) {
        Some(d) => Err(RulesError(format!(
            "die result {d} is not a face of the game's die (1 to {faces})"
        ))),
        None => Ok(()),
    }
}

/// An action that may not be taken now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalAction {
    pub message: String,
    pub legal: Vec<String>,
}

/// The spaces a unit stands on, by graph index.
pub fn space_of(rules: &Rules, unit: &Unit) -> Option<usize> {
    match &unit.at {
        Loc::Space(s) => rules.content.graph.index_of(s),
        _ => None,
    }
}

/// The sequence step the flow stands at, if any.
pub fn current_step<'c>(rules: &Rules<'c>, state: &State) -> Option<&'c Step> {
    rules
        .game
        .sequence
        .get(state.flow.phase)
        .and_then(|p| p.steps.get(state.flow.step))
}

/// The name of the phase the flow stands in.
pub fn phase_name<'c>(rules: &Rules<'c>, state: &State) -> &'c str {
    rules
        .game
        .sequence
        .get(state.flow.phase)
        .map_or("", |p| p.name.as_str())
}
