//! Playing Barbarossa to Berlin through the session: the rulebook's worked examples of play,
//! a module per chapter of play, and the properties of the session (`session`). This module
//! holds the helpers they share: the campaign at a prepared stage of play, and the sequence of
//! play's scripts run on a state.

mod given;
mod movement;
mod optional_rules;
mod replacements;
mod sequence;
mod session;
mod supply;
mod winter_partisans_neutrals;

use sandtable_engine::rules::{self, Rules};
use sandtable_engine::script::eval::{self, Context, Outcome};
use sandtable_engine::script::syntax;
use sandtable_engine::session::Setup;
use sandtable_engine::state::{Loc, State};

use crate::cards::b2b;

fn setup(seed: u64) -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
        position: None,
    }
}

fn unit(state: &State, name: &str) -> usize {
    state
        .units
        .iter()
        .position(|u| u.name(b2b()) == name)
        .unwrap_or_else(|| panic!("no unit {name}"))
}

/// The statements of the sequence-of-play script whose text contains `marker`.
fn sequence_script(marker: &str) -> Vec<syntax::Stmt> {
    let game = b2b().game.as_ref().unwrap();
    let text = game
        .sequence
        .iter()
        .flat_map(|p| &p.steps)
        .find_map(|s| match s {
            sandtable_engine::model::Step::Script { effect, .. } if effect.contains(marker) => {
                Some(effect.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no sequence script mentions {marker}"));
    let parsed = syntax::parse(&text);
    assert!(parsed.errors.is_empty());
    parsed.stmts
}

/// The context of a script run for a side.
fn side_ctx(side: &str) -> Context {
    Context {
        me: side.into(),
        enemy: if side == "axis" { "allied" } else { "axis" }.into(),
        ..Context::default()
    }
}

/// Runs the sequence script whose text contains `marker` on a state, answering each decision
/// with the first options it asks for (`yes` to a question); returns the answers given.
fn run_sequence_script(state: &mut State, side: &str, marker: &str) -> Vec<Vec<String>> {
    let script = sequence_script(marker);
    let ctx = side_ctx(side);
    let mut answers: Vec<Vec<String>> = Vec::new();
    loop {
        match eval::run(&script, b2b(), state, &ctx, &answers).unwrap() {
            (Outcome::Done, _) => return answers,
            (Outcome::Asks(d), _) => {
                answers.push(d.options.iter().take(d.min.max(1)).cloned().collect())
            }
        }
    }
}

/// The campaign's rules and its state at the start (seed 1).
fn campaign() -> (Rules<'static>, State) {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    (rules, state)
}

/// A marker of a kind on a space, for good.
fn marker(kind: &str, space: &str) -> sandtable_engine::state::MarkerOnMap {
    sandtable_engine::state::MarkerOnMap {
        marker: kind.into(),
        space: space.into(),
        level: 1,
        until: None,
    }
}

/// Play set to a side's Move stage with `space` activated for movement.
fn move_stage(rules: &Rules, state: &mut State, side: &str, space: &str) {
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![rules::Task::Ops {
        side: side.into(),
        points: 0,
        stage: rules::OpsStage::Move,
        kept: Default::default(),
    }];
    state.markers.push(marker("move", space));
    rules::resume(rules, state);
}

/// The index of the Action Phase in the sequence of play.
fn action_phase() -> usize {
    let game = b2b().game.as_ref().unwrap();
    game.sequence.iter().position(|p| p.id == "action").unwrap()
}

/// The campaign's start at a side's action in the Action Phase of a turn.
fn action_of(side: &str, turn: u32) -> (Rules<'static>, State) {
    let (rules, mut state) = campaign();
    state.turn = turn;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    // The rounds task stands after the side whose action it is (the Axis acts first).
    let next = if side == "axis" { 1 } else { 2 };
    state.flow.tasks = vec![
        rules::Task::Rounds {
            at: (action_phase(), 0),
            rounds: 6,
            next,
            acting: true,
        },
        rules::Task::Action { side: side.into() },
    ];
    rules::resume(&rules, &mut state);
    (rules, state)
}

/// A German unit moved from `from` into `to` (emptied first) in a prepared Move stage; the
/// state before and after.
fn german_move(counter: &str, from: &str, to: &str) -> (State, State) {
    let (rules, mut state) = campaign();
    for u in state.units.iter_mut() {
        if u.at == Loc::Space(to.into()) || u.at == Loc::Space(from.into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.control.insert(from.into(), "axis".into());
    let ge = unit(&state, counter);
    state.units[ge].at = Loc::Space(from.into());
    move_stage(&rules, &mut state, "axis", from);
    let before = state.clone();
    rules::apply(&rules, &mut state, &format!("move {counter} {to}")).unwrap();
    (before, state)
}
