//! The general procedures the sequence of play calls, and the loop that runs them until a
//! player must decide.

use std::collections::BTreeMap;

use super::combat::{self, CombatTask};
use super::movement;
use super::supply::{self, Level};
use super::{
    Action, GameResult, KeptCosts, KeptReplay, OpsStage, Prompt, Rules, SpaceCosts, Task, Word,
};
use crate::model::{ActionKind, BoxRole, HookPoint, Scalar, Step};
use crate::script::eval::{self, Context, Outcome};
use crate::script::syntax;
use crate::state::{Loc, MarkerOnMap, ModifierEffect, State};

mod deploy;
mod end_of_turn;
mod operations;
mod replacements;
mod rounds;
mod sr;
mod sr_route;
mod sr_units;

pub(super) use super::control::*;
pub(super) use super::stacking::*;
use end_of_turn::*;
pub use operations::space_activation_cost;
pub(super) use operations::*;
use replacements::*;
pub(super) use rounds::*;
use sr::*;

/// Most automatic steps between two decisions before play is declared stalled.
const STEP_GUARD: u32 = 100_000;

/// Runs every automatic step until a player must decide or the game ends.
pub(super) fn advance(rules: &Rules, state: &mut State) {
    for _ in 0..STEP_GUARD {
        if state.flow.result.is_some() {
            state.flow.prompt = None;
            return;
        }
        settle_counted_vp(rules, state);
        if !state.flow.hooks_due.is_empty() {
            // The stack runs its top first: the first due goes last.
            let due = std::mem::take(&mut state.flow.hooks_due);
            state.flow.tasks.extend(due.into_iter().rev());
        }
        match state.flow.tasks.last().cloned() {
            Some(task) => {
                // The start's choices are the set-up's, asked before the first phase.
                let setup = matches!(task, Task::StartCard { .. });
                if let Some(mut p) = step_task(rules, state, task) {
                    if setup {
                        p.question = ["Set-up: ", &p.question].concat();
                    } else {
                        p = with_phase(rules, state, p);
                    }
                    state.flow.prompt = Some(p);
                    return;
                }
            }
            None => next_step(rules, state),
        }
    }
    state
        .flow
        .messages
        .push("play stalled: no decision was reached".into());
    state.flow.result = Some(GameResult {
        winner: String::new(),
        how: "stalled".into(),
        turn: state.turn,
    });
    state.flow.prompt = None;
}

/// A question that counts things: `before`, the number of things in words (`1 point`, `3
/// points`), then `after`.
fn counted(before: &str, (n, thing): (u32, &str), after: &str) -> String {
    numbered(
        before,
        n,
        &[" ", thing, if n == 1 { "" } else { "s" }, after],
    )
}

/// `before`, the number `n` in decimal, then the parts `after`, in one allocation: questions
/// that count something are made at every prompt, and `format!` costs several times as much.
fn numbered(before: &str, n: u32, after: &[&str]) -> String {
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    // ASCII digits: always text.
    let digits = std::str::from_utf8(&digits[at..]).unwrap_or_default();
    let len = before.len() + digits.len() + after.iter().map(|a| a.len()).sum::<usize>();
    let mut text = String::with_capacity(len);
    text.push_str(before);
    text.push_str(digits);
    after.iter().for_each(|a| text.push_str(a));
    text
}

/// A prompt's question with the phase that asks it and the phase's rule first, unless the
/// question names the phase already: `Action Phase (6.B, 7.2): Move units ...`. Joined in
/// one allocation, not by `format!`, which costs several times as much at every prompt.
fn with_phase(rules: &Rules, state: &State, mut p: Prompt) -> Prompt {
    if let Some(phase) = rules.game.sequence.get(state.flow.phase) {
        if !phase.name.is_empty() && !p.question.contains(&phase.name) {
            p.question = match phase.rule.as_str() {
                "" => [&phase.name, ": ", &p.question].concat(),
                rule => [&phase.name, " (", rule, "): ", &p.question].concat(),
            };
        }
    }
    p
}

/// Starts the next step of the sequence of play.
pub(super) fn next_step(rules: &Rules, state: &mut State) {
    let seq = &rules.game.sequence;
    let Some(phase) = seq.get(state.flow.phase) else {
        end_turn(rules, state);
        return;
    };
    if phase.skip_turns.contains(&state.turn) || state.flow.step >= phase.steps.len() {
        state.flow.phase += 1;
        state.flow.step = 0;
        return;
    }
    let at = (state.flow.phase, state.flow.step);
    state.flow.step += 1;
    match &phase.steps[at.1] {
        Step::ActionRounds(spec) => {
            let rounds = super::opening::restrictions(rules, state, spec)
                .and_then(|(rounds, _)| rounds)
                .unwrap_or(spec.rounds);
            state.round = 1;
            state.flow.tasks.push(Task::Rounds {
                at,
                rounds,
                next: 0,
                acting: false,
            });
        }
        Step::Script { side, .. } => state.flow.tasks.push(Task::Script {
            side: side.into(),
            phase: at.0,
            step: at.1,
            answers: Vec::new(),
        }),
        Step::Attrition(side) => attrition(rules, state, side),
        Step::Replacements(side) => {
            let mut halves = BTreeMap::new();
            for pool in &rules.play.replacements {
                if pool_side(rules, state, &pool.nations) == side.as_str() {
                    let points = state.track(&pool.track).max(0) as u32;
                    halves.insert(pool.track.clone(), points * 2);
                }
            }
            state.flow.tasks.push(Task::Replace {
                side: side.into(),
                halves,
                placing: None,
            });
        }
        Step::Draw(side) => state.flow.tasks.push(Task::Discard { side: side.into() }),
        Step::CheckVictory => check_victory(rules, state),
        Step::EndTurn => end_turn(rules, state),
        Step::Impulses(_) => super::impulses::start(rules, state, at),
        Step::TraceSupply(spec) => super::supply::zones::trace_supply(rules, state, spec),
        Step::Deploy(spec) => deploy::start(rules, state, at, spec),
    }
}

/// The side a replacement pool serves: its nations' side, or, for a neutral that went to war,
/// the side its units serve now (Turkey, 17.4).
fn pool_side<'c>(rules: &Rules<'c>, state: &State, nations: &[crate::Id]) -> &'c str {
    let declared = nations
        .first()
        .map_or("", |n| supply::nation_side(rules.content, n));
    if !declared.is_empty() {
        return declared;
    }
    state
        .units
        .iter()
        .filter(|u| u.serves.is_some() && nations.contains(&rules.nation_id(u)))
        .map(|u| rules.side(u).as_str())
        .next()
        .unwrap_or("")
}

/// Runs a task on: returns the prompt it asks, or changes the state and returns none.
fn step_task(rules: &Rules, state: &mut State, task: Task) -> Option<Prompt> {
    match task {
        Task::Rounds {
            at,
            rounds,
            mut next,
            acting,
        } => {
            let Some(spec) = rounds_spec(rules, at) else {
                state.flow.tasks.pop();
                return None;
            };
            if acting {
                let side = next.checked_sub(1).and_then(|i| spec.sides.get(i));
                end_action(rules, state, side.map_or("", String::as_str));
                // A side's attrition segment at the end of its last round's action (6.C).
                if let Some(side) =
                    side.filter(|s| state.round == rounds && spec.attrition_after_last.contains(s))
                {
                    attrition(rules, state, side);
                }
            }
            if next >= spec.sides.len() {
                state.end("end_of_round");
                state.round += 1;
                next = 0;
            }
            state.flow.tasks.pop();
            if state.round > rounds {
                return None;
            }
            state.flow.tasks.push(Task::Rounds {
                at,
                rounds,
                next: next + 1,
                acting: true,
            });
            state.flow.tasks.push(Task::Action {
                side: (&spec.sides[next]).into(),
            });
            None
        }
        Task::Action { side } => Some(action_prompt(rules, state, &side)),
        Task::Event {
            side,
            card,
            answers,
            then_ops,
        } => run_event(rules, state, &side, &card, &answers, then_ops),
        Task::Script {
            side,
            phase,
            step,
            answers,
        } => run_sequence_script(rules, state, &side, (phase, step), &answers),
        Task::Free { side, at, answers } => {
            let name = || free_action(rules, at).map_or(String::new(), |a| a.name.clone());
            let stmts = rules.content.sequence.actions.get(&at).map(|x| &x.effect);
            run_script(rules, state, &side, stmts, &answers, name)
        }
        Task::Ops {
            side,
            points,
            stage,
            kept,
        } => ops_prompt(rules, state, &side, points, (stage, kept)),
        Task::Combat(c) => combat::step(rules, state, *c),
        Task::Sr {
            side,
            points,
            unit,
            marker,
        } => match marker {
            Some(m) => sr_marker_prompt(rules, state, &side, &m),
            None => sr_prompt(rules, state, &side, points, unit),
        },
        Task::Replace {
            side,
            halves,
            placing,
        } => replace_prompt(rules, state, &side, &halves, placing),
        Task::Impulses(t) => super::impulses::step(rules, state, *t),
        Task::Deploy { at, pending } => deploy::prompt(rules, state, at, &pending),
        Task::Hook {
            side,
            hook,
            names,
            answers,
        } => super::hooks::run(rules, state, (&side, hook, &names), &answers),
        Task::StartCard { side, cards, .. } => Some(Prompt::one_of(
            &side,
            "start_card",
            "Choose the card your hand starts with",
            cards
                .iter()
                .map(|c| Action::new("take").and(Word::id(c)))
                .collect(),
        )),
        Task::Discard { side } => {
            let mut options: Vec<Action> = state
                .hands
                .get(side.as_str())
                .map(|h| {
                    h.iter()
                        .map(|c| Action::new("discard").and(Word::id(c)))
                        .collect()
                })
                .unwrap_or_default();
            options.push(Action::new("done"));
            Some(Prompt::one_of(
                &side,
                "discard",
                "Discard cards before drawing, then done",
                options,
            ))
        }
    }
}

/// Performs a legal action on the task at the top.
pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    prompt: &Prompt,
    action: &Action,
) -> Result<(), String> {
    let task = state
        .flow
        .tasks
        .last()
        .cloned()
        .ok_or("no task is under way")?;
    // What a script read before its question is kept for the answer only.
    if !matches!(
        task,
        Task::Event { .. } | Task::Script { .. } | Task::Free { .. }
    ) {
        state.flow.replay = KeptReplay::default();
    }
    match task {
        Task::Action { side } => take_action(rules, state, &side, action),
        Task::Event { .. } | Task::Script { .. } | Task::Free { .. } | Task::Hook { .. } => {
            let picked: Vec<String> = action.words()[1..].iter().map(Word::to_string).collect();
            match state.flow.tasks.last_mut() {
                Some(Task::Event { answers, .. })
                | Some(Task::Script { answers, .. })
                | Some(Task::Free { answers, .. })
                | Some(Task::Hook { answers, .. }) => {
                    answers.push(picked);
                }
                _ => {}
            }
            Ok(())
        }
        Task::Ops {
            side,
            points,
            stage,
            kept,
        } => ops_act(rules, state, &side, points, (stage, kept), action),
        Task::Combat(c) => combat::act(rules, state, *c, prompt, action),
        Task::Sr {
            side,
            points,
            unit,
            marker,
        } => sr_act(rules, state, &side, points, (unit, marker), action),
        Task::Replace {
            side,
            halves,
            placing,
        } => replace_act(rules, state, &side, halves, placing, action),
        Task::Discard { side } => {
            if action.verb() == "done" {
                state.flow.tasks.pop();
                draw_to_hand(rules, state, &side);
            } else {
                let card = action.text(1).ok_or("which card?")?;
                if let Some(hand) = state.hands.get_mut(side.as_str()) {
                    hand.retain(|c| c != card);
                }
                discard(rules, state, &side, card);
            }
            Ok(())
        }
        Task::StartCard {
            side,
            deck,
            cards,
            draw,
            dealt,
        } => {
            let card = action.text(1).ok_or("which card?")?;
            state.flow.tasks.pop();
            state.redo_start_card((&side, &deck), (&cards, &dealt), card, draw);
            Ok(())
        }
        Task::Impulses(t) => super::impulses::act(rules, state, *t, prompt, action),
        Task::Deploy { pending, .. } => deploy::act(state, &pending, action),
        Task::Rounds { .. } => Err("no decision is open".into()),
    }
}
