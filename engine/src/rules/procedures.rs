//! The general procedures the sequence of play calls, and the loop that runs them until a
//! player must decide.

use std::collections::BTreeMap;

use super::combat::{self, CombatTask};
use super::supply::{self, Level};
use super::{GameResult, OpsStage, Prompt, Rules, Task};
use crate::model::{ActionKind, BoxRole, Scalar, Step};
use crate::script::eval::{self, Context, Outcome};
use crate::script::syntax;
use crate::state::{Loc, MarkerOnMap, ModifierEffect, State};

/// Most automatic steps between two decisions before play is declared stalled.
const STEP_GUARD: u32 = 100_000;

/// Runs every automatic step until a player must decide or the game ends.
pub(super) fn advance(rules: &Rules, state: &mut State) {
    for _ in 0..STEP_GUARD {
        if state.flow.result.is_some() {
            state.flow.prompt = None;
            return;
        }
        match state.flow.tasks.last().cloned() {
            Some(task) => {
                if let Some(p) = step_task(rules, state, task) {
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

/// Starts the next step of the sequence of play.
fn next_step(rules: &Rules, state: &mut State) {
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
            side: side.clone(),
            phase: at.0,
            step: at.1,
            answers: Vec::new(),
        }),
        Step::Attrition(side) => attrition(rules, state, side),
        Step::Replacements(side) => {
            let mut halves = BTreeMap::new();
            for pool in &rules.play.replacements {
                if pool_side(rules, &pool.nations) == side.as_str() {
                    let points = state.track(&pool.track).max(0) as u32;
                    halves.insert(pool.track.clone(), points * 2);
                }
            }
            state.flow.tasks.push(Task::Replace {
                side: side.clone(),
                halves,
                placing: None,
            });
        }
        Step::Draw(side) => state.flow.tasks.push(Task::Discard { side: side.clone() }),
        Step::CheckVictory => check_victory(rules, state),
        Step::EndTurn => end_turn(rules, state),
        Step::Impulses(_) => super::impulses::start(rules, state, at),
        Step::TraceSupply(spec) => super::impulses::trace_supply(rules, state, spec),
    }
}

fn pool_side<'c>(rules: &Rules<'c>, nations: &[String]) -> &'c str {
    nations
        .first()
        .map_or("", |n| supply::nation_side(rules.content, n))
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
                side: spec.sides[next].clone(),
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
            let name = free_action(rules, at).map_or("", |a| a.name.as_str());
            let stmts = rules.content.sequence.actions.get(&at).map(|x| &x.effect);
            run_script(rules, state, &side, stmts, &answers, name)
        }
        Task::Ops {
            side,
            points,
            stage,
        } => ops_prompt(rules, state, &side, points, stage),
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
        Task::Discard { side } => {
            let mut options: Vec<String> = state
                .hands
                .get(&side)
                .map(|h| h.iter().map(|c| format!("discard {c}")).collect())
                .unwrap_or_default();
            options.push("done".into());
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
    action: &str,
) -> Result<(), String> {
    let words: Vec<&str> = action.split_whitespace().collect();
    let task = state
        .flow
        .tasks
        .last()
        .cloned()
        .ok_or("no task is under way")?;
    match task {
        Task::Action { side } => take_action(rules, state, &side, &words),
        Task::Event { .. } | Task::Script { .. } | Task::Free { .. } => {
            let picked: Vec<String> = words.iter().skip(1).map(|w| w.to_string()).collect();
            match state.flow.tasks.last_mut() {
                Some(Task::Event { answers, .. })
                | Some(Task::Script { answers, .. })
                | Some(Task::Free { answers, .. }) => {
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
        } => ops_act(rules, state, &side, points, stage, &words),
        Task::Combat(c) => combat::act(rules, state, *c, prompt, &words),
        Task::Sr {
            side,
            points,
            unit,
            marker,
        } => sr_act(rules, state, &side, points, (unit, marker), &words),
        Task::Replace {
            side,
            halves,
            placing,
        } => replace_act(rules, state, &side, halves, placing, &words),
        Task::Discard { side } => {
            if words[0] == "done" {
                state.flow.tasks.pop();
                draw_to_hand(rules, state, &side);
            } else {
                let card = words.get(1).ok_or("which card?")?;
                if let Some(hand) = state.hands.get_mut(&side) {
                    hand.retain(|c| c != card);
                }
                discard(rules, state, &side, card);
            }
            Ok(())
        }
        Task::Impulses(t) => super::impulses::act(rules, state, *t, prompt, &words),
        Task::Rounds { .. } => Err("no decision is open".into()),
    }
}

// ---------------------------------------------------------------------------------------------
// Action rounds
// ---------------------------------------------------------------------------------------------

fn action_prompt(rules: &Rules, state: &State, side: &str) -> Prompt {
    let spec = rounds_at(state).and_then(|at| rounds_spec(rules, at));
    let allowed = spec
        .and_then(|s| super::opening::restrictions(rules, state, s))
        .and_then(|(_, actions)| actions.iter().find(|a| a.side == side));
    let may = |k: ActionKind| allowed.is_none_or(|a| a.actions.contains(&k));
    let card_ok =
        |c: &str| allowed.is_none_or(|a| a.cards.is_empty() || a.cards.iter().any(|x| x == c));
    let season = rules.season(state.turn);
    let no_ops = spec.is_some_and(|s| {
        s.no_ops_rounds
            .iter()
            .any(|r| Some(r.season.as_str()) == season && r.rounds.contains(&state.round))
    });
    let last = state.flow.last_action.get(side).copied();
    let rp_played = state.flow.rp_cards.get(side).copied().unwrap_or(0);
    let rp_room = rules
        .play
        .rp_card_limits
        .iter()
        .filter(|l| l.side == side && (l.from..=l.to).contains(&state.turn))
        .all(|l| rp_played < l.max);
    let mut options = Vec::new();
    let ctx = side_context(rules, side);
    for card_id in state.hands.get(side).into_iter().flatten() {
        let Some(card) = rules.card(card_id) else {
            continue;
        };
        if !card_ok(card_id) {
            continue;
        }
        let ops = card_ops(rules, card_id);
        if ops > 0 && may(ActionKind::Ops) && !no_ops {
            options.push(format!("ops {card_id}"));
        }
        if ops > 0 && may(ActionKind::Sr) && last != Some(ActionKind::Sr) {
            options.push(format!("sr {card_id}"));
        }
        let gives_rp = rules.play.replacements.iter().any(|p| {
            card.values
                .get(p.value.as_deref().unwrap_or(&p.track))
                .is_some_and(|v| *v > 0)
        });
        if gives_rp && may(ActionKind::Rp) && last != Some(ActionKind::Rp) && rp_room {
            options.push(format!("rp {card_id}"));
        }
        if may(ActionKind::Event) {
            if let Some(scripts) = rules.content.scripts.get(card_id) {
                if scripts.effect.is_some() {
                    let ctx = Context {
                        card: Some(card_id.clone()),
                        ..ctx.clone()
                    };
                    let playable = match &scripts.playable {
                        Some(cond) => {
                            eval::condition(cond, rules.content, state, &ctx).unwrap_or(false)
                        }
                        None => true,
                    };
                    if playable {
                        options.push(format!("event {card_id}"));
                    }
                }
            }
        }
    }
    if rules.play.auto_ops.is_some_and(|n| n > 0) && may(ActionKind::AutoOps) {
        options.push("auto_ops".into());
    }
    if let (Some(at), Some(spec)) = (rounds_at(state), spec) {
        for (a, action) in spec.free_actions.iter().enumerate() {
            if !action.sides.iter().any(|s| s == side) || !may(ActionKind::Free) {
                continue;
            }
            let condition = rules
                .content
                .sequence
                .actions
                .get(&(at.0, at.1, a))
                .and_then(|x| x.playable.as_ref());
            let ok = condition
                .is_none_or(|c| eval::condition(c, rules.content, state, &ctx).unwrap_or(false));
            if ok {
                options.push(action.id.clone());
            }
        }
    }
    if options.is_empty() {
        options.push("pass".into());
    }
    Prompt::one_of(
        side,
        "action",
        format!(
            "Round {}: play a card or take automatic operations",
            state.round
        ),
        options,
    )
}

pub(super) fn card_ops(rules: &Rules, card: &str) -> u32 {
    rules
        .card(card)
        .and_then(|c| c.values.get(&rules.play.ops_value))
        .map_or(0, |v| (*v).max(0) as u32)
}

/// Where the action rounds under way stand in the sequence: (phase, step).
fn rounds_at(state: &State) -> Option<(usize, usize)> {
    state.flow.tasks.iter().rev().find_map(|t| match t {
        Task::Rounds { at, .. } => Some(*at),
        _ => None,
    })
}

/// The action rounds step at a place of the sequence.
fn rounds_spec<'c>(
    rules: &Rules<'c>,
    (phase, step): (usize, usize),
) -> Option<&'c crate::model::ActionRounds> {
    match rules.game.sequence.get(phase)?.steps.get(step)? {
        Step::ActionRounds(spec) => Some(spec),
        _ => None,
    }
}

/// A free action of the action rounds at a place.
fn free_action<'c>(
    rules: &Rules<'c>,
    (phase, step, action): (usize, usize, usize),
) -> Option<&'c crate::model::FreeAction> {
    rounds_spec(rules, (phase, step))?.free_actions.get(action)
}

fn take_action(rules: &Rules, state: &mut State, side: &str, words: &[&str]) -> Result<(), String> {
    state.flow.tasks.pop();
    let kind = match words[0] {
        "ops" => ActionKind::Ops,
        "sr" => ActionKind::Sr,
        "rp" => ActionKind::Rp,
        "event" => ActionKind::Event,
        "auto_ops" => ActionKind::AutoOps,
        "pass" => {
            state.flow.last_action.remove(side);
            return Ok(());
        }
        free => {
            let at = rounds_at(state).ok_or("no action rounds are under way")?;
            let spec = rounds_spec(rules, at).ok_or("no action rounds are under way")?;
            let a = spec
                .free_actions
                .iter()
                .position(|x| x.id == free && x.sides.iter().any(|s| s == side))
                .ok_or_else(|| format!("no action `{free}`"))?;
            if spec.free_actions[a].before_action {
                // The side then takes its action.
                state.flow.tasks.push(Task::Action { side: side.into() });
            } else {
                state
                    .flow
                    .last_action
                    .insert(side.to_string(), ActionKind::Free);
            }
            state.flow.tasks.push(Task::Free {
                side: side.into(),
                at: (at.0, at.1, a),
                answers: Vec::new(),
            });
            return Ok(());
        }
    };
    state.flow.last_action.insert(side.to_string(), kind);
    if kind == ActionKind::AutoOps {
        state.flow.tasks.push(Task::Ops {
            side: side.into(),
            points: rules.play.auto_ops.unwrap_or(0),
            stage: OpsStage::Activate,
        });
        return Ok(());
    }
    let card = words.get(1).ok_or("which card?")?.to_string();
    if let Some(hand) = state.hands.get_mut(side) {
        hand.retain(|c| *c != card);
    }
    let ops = card_ops(rules, &card);
    match kind {
        ActionKind::Ops => {
            discard(rules, state, side, &card);
            state.flow.tasks.push(Task::Ops {
                side: side.into(),
                points: ops,
                stage: OpsStage::Activate,
            });
        }
        ActionKind::Sr => {
            discard(rules, state, side, &card);
            state.flow.tasks.push(Task::Sr {
                side: side.into(),
                points: ops,
                unit: None,
                marker: None,
            });
        }
        ActionKind::Rp => {
            discard(rules, state, side, &card);
            *state.flow.rp_cards.entry(side.to_string()).or_default() += 1;
            let values = rules
                .card(&card)
                .map(|c| c.values.clone())
                .unwrap_or_default();
            for (i, pool) in rules.play.replacements.iter().enumerate() {
                let value = pool.value.as_deref().unwrap_or(&pool.track);
                let open = pool.flag.as_ref().is_none_or(|f| state.flags.contains(f));
                let Some(v) = values.get(value).filter(|_| open) else {
                    continue;
                };
                let at = format!("/play/replacements/{i}/less_one_unless");
                let less = rules.content.sequence.conditions.get(&at).is_some_and(|c| {
                    !eval::condition(c, rules.content, state, &side_context(rules, side))
                        .unwrap_or(true)
                });
                let v = if less { (*v - 1).max(0) } else { *v };
                add_track(rules, state, &pool.track, i64::from(v));
            }
        }
        ActionKind::Event => {
            let dual = rules.card(&card).is_some_and(|c| c.kind == "dual");
            state.flow.tasks.push(Task::Event {
                side: side.into(),
                card,
                answers: Vec::new(),
                then_ops: Some(if dual { ops } else { 0 }),
            });
        }
        ActionKind::AutoOps | ActionKind::Free => {}
    }
    Ok(())
}

/// What ends with a side's action: markers of activation, the marks of what units did.
fn end_action(rules: &Rules, state: &mut State, side: &str) {
    let (m, c) = (&rules.play.move_marker, &rules.play.combat_marker);
    state.markers.retain(|x| x.marker != *m && x.marker != *c);
    state.flow.marks = Default::default();
    state.end("this_combat");
    // Automatic victories checked at the end of the side's actions.
    for (i, a) in rules.play.victory.automatic.iter().enumerate() {
        if a.side != side
            || a.unless_flag
                .as_ref()
                .is_some_and(|f| state.flags.contains(f))
        {
            continue;
        }
        let at = format!("/play/victory/automatic/{i}/when");
        let Some(condition) = rules.content.sequence.conditions.get(&at) else {
            continue;
        };
        if eval::condition(condition, rules.content, state, &side_context(rules, side))
            .unwrap_or(false)
        {
            state.flow.result = Some(GameResult {
                winner: side.to_string(),
                how: "automatic".into(),
                turn: state.turn,
            });
            return;
        }
    }
}

fn run_event(
    rules: &Rules,
    state: &mut State,
    side: &str,
    card: &str,
    answers: &[Vec<String>],
    then_ops: Option<u32>,
) -> Option<Prompt> {
    let ctx = Context {
        card: Some(card.to_string()),
        ..side_context(rules, side)
    };
    let Some(effect) = rules
        .content
        .scripts
        .get(card)
        .and_then(|s| s.effect.as_ref())
    else {
        state.flow.tasks.pop();
        discard(rules, state, side, card);
        return None;
    };
    match eval::run(effect, rules.content, state, &ctx, answers) {
        Ok((Outcome::Asks(d), _)) => Some(Prompt {
            side: d.by,
            kind: "decision".into(),
            question: d.question,
            options: d.options,
            pick: Some((d.min, d.max)),
        }),
        Ok((Outcome::Done, _)) => {
            state.flow.tasks.pop();
            card_played(rules, state, side, card);
            if let Some(points) = then_ops {
                state.flow.tasks.push(Task::Ops {
                    side: side.into(),
                    points,
                    stage: OpsStage::Activate,
                });
            }
            None
        }
        Err(e) => {
            state.flow.tasks.pop();
            state.flow.messages.push(format!(
                "the event of `{card}` could not be carried out: {}",
                e.message
            ));
            discard(rules, state, side, card);
            None
        }
    }
}

fn run_sequence_script(
    rules: &Rules,
    state: &mut State,
    side: &str,
    at: (usize, usize),
    answers: &[Vec<String>],
) -> Option<Prompt> {
    let name = rules
        .game
        .sequence
        .get(at.0)
        .map_or("", |p| p.name.as_str());
    let stmts = rules.content.sequence.steps.get(&at);
    run_script(rules, state, side, stmts, answers, name)
}

/// Runs a script of the game's sequence (a step's, or a free action's) for a side: asks its
/// next decision, or finishes the task. A script that fails is reported and skipped.
fn run_script(
    rules: &Rules,
    state: &mut State,
    side: &str,
    stmts: Option<&Vec<syntax::Stmt>>,
    answers: &[Vec<String>],
    name: &str,
) -> Option<Prompt> {
    let Some(stmts) = stmts else {
        state.flow.tasks.pop();
        return None;
    };
    let ctx = side_context(rules, side);
    match eval::run(stmts, rules.content, state, &ctx, answers) {
        Ok((Outcome::Asks(d), _)) => Some(Prompt {
            side: d.by,
            kind: "decision".into(),
            question: d.question,
            options: d.options,
            pick: Some((d.min, d.max)),
        }),
        Ok((Outcome::Done, _)) => {
            state.flow.tasks.pop();
            None
        }
        Err(e) => {
            state.flow.tasks.pop();
            state
                .flow
                .messages
                .push(format!("a script of the {name} failed: {}", e.message));
            None
        }
    }
}

/// The context of a script run for a side, outside any card or combat.
pub(super) fn side_context(rules: &Rules, side: &str) -> Context {
    Context {
        me: side.to_string(),
        enemy: rules.other_side(side).to_string(),
        ..Context::default()
    }
}

/// A card played: recorded, then discarded unless it leaves the game or handed itself to a
/// player (Heinrici).
pub(super) fn card_played(rules: &Rules, state: &mut State, side: &str, card: &str) {
    state.record_played(card);
    let held = state.hands.values().any(|h| h.iter().any(|c| c == card));
    if !held && !rules.card(card).is_some_and(|c| c.remove) {
        discard(rules, state, side, card);
    }
}

/// Puts a played card on its deck's discard pile.
pub(super) fn discard(rules: &Rules, state: &mut State, side: &str, card: &str) {
    let deck = rules.deck_of(side);
    state.put_discarded(rules.game, deck, card.to_string());
}

// ---------------------------------------------------------------------------------------------
// Operations: activation, movement, attacks
// ---------------------------------------------------------------------------------------------

/// Supply levels by nation, computed once per question.
#[derive(Default)]
pub(super) struct SupplyCache {
    views: Vec<supply::SideView>,
    /// (nation, side, level of every space); few entries, found without allocating.
    levels: Vec<(String, String, Vec<Level>)>,
}

impl SupplyCache {
    pub(super) fn unit(&mut self, rules: &Rules, state: &State, unit: usize) -> Level {
        let u = &state.units[unit];
        let Some(i) = super::space_of(rules, u) else {
            return Level::Out;
        };
        let (nation, side) = (rules.nation(u), rules.side(u));
        self.at(rules, state, i, nation, side)
    }

    pub(super) fn at(
        &mut self,
        rules: &Rules,
        state: &State,
        space: usize,
        nation: &str,
        side: &str,
    ) -> Level {
        let found = self
            .levels
            .iter()
            .position(|(n, s, _)| n == nation && s == side);
        let i = found.unwrap_or_else(|| {
            let v = match self.views.iter().position(|v| v.side() == side) {
                Some(v) => v,
                None => {
                    self.views
                        .push(supply::SideView::new(rules.content, state, side));
                    self.views.len() - 1
                }
            };
            let levels = supply::levels_seen(rules.content, state, &self.views[v], nation);
            self.levels
                .push((nation.to_string(), side.to_string(), levels));
            self.levels.len() - 1
        });
        self.levels[i].2.get(space).copied().unwrap_or(Level::Out)
    }
}

/// A side's units on a space.
pub(super) fn own_units(rules: &Rules, state: &State, space: &str, side: &str) -> Vec<usize> {
    state
        .units_at(space)
        .filter(|(_, u)| rules.side(u) == side)
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn enemy_in(rules: &Rules, state: &State, space: &str, side: &str) -> bool {
    state.units_at(space).any(|(_, u)| rules.side(u) != side)
}

fn has_marker(state: &State, space: &str, marker: &str) -> bool {
    state
        .markers
        .iter()
        .any(|m| m.marker == marker && m.space == space)
}

/// The cost to activate a space: its nationality groups, or one per unit when any is not in
/// Full Supply.
fn activation_cost(rules: &Rules, state: &State, cache: &mut SupplyCache, units: &[usize]) -> u32 {
    let base = if units
        .iter()
        .any(|&u| cache.unit(rules, state, u) != Level::Full)
    {
        units.len() as u32
    } else {
        let groups: std::collections::BTreeSet<&str> = units
            .iter()
            .map(|&u| rules.group(rules.nation(&state.units[u])))
            .collect();
        groups.len() as u32
    };
    let extra: u32 = rules
        .play
        .activation_extra
        .iter()
        .map(|x| {
            let mut applies = |u: usize| {
                let unit = &state.units[u];
                let Loc::Space(at) = &unit.at else {
                    return false;
                };
                let in_region = |r: &String| crate::state::space_in_region(rules.content, at, r);
                let named = x.counters.contains(&unit.counter)
                    || x.nations.iter().any(|n| n == rules.nation(unit))
                        && (x.sizes.is_empty() || x.sizes.iter().any(|s| s == rules.size(unit)));
                named
                    && x.outside.as_ref().is_none_or(|r| !in_region(r))
                    && x.within.as_ref().is_none_or(in_region)
                    && (!x.unless_full_supply || cache.unit(rules, state, u) != Level::Full)
                    && (x.tracing_through.is_empty()
                        || traces_through(rules, state, cache, u, &x.tracing_through))
            };
            let count = units.iter().filter(|&&u| applies(u)).count() as u32;
            let cost = match (count, x.per_unit) {
                (0, _) => 0,
                (n, true) => x.cost * n,
                (_, false) => x.cost,
            };
            x.max.map_or(cost, |m| cost.min(m))
        })
        .sum();
    base + extra
}

/// Whether a unit's supply traces through one of some spaces: without them it would trace
/// less.
fn traces_through(
    rules: &Rules,
    state: &State,
    cache: &mut SupplyCache,
    unit: usize,
    spaces: &[String],
) -> bool {
    let u = &state.units[unit];
    let Some(at) = super::space_of(rules, u) else {
        return false;
    };
    let with = cache.unit(rules, state, unit);
    if with == Level::Out {
        return false;
    }
    let mut view = supply::SideView::new(rules.content, state, rules.side(u));
    for s in spaces {
        if let Some(i) = rules.content.graph.index_of(s) {
            view.close(i);
        }
    }
    let without = supply::levels_seen(rules.content, state, &view, rules.nation(u));
    without[at] < with
}

/// The cost to activate a space for a side now (what the prompt offers).
pub fn space_activation_cost(rules: &Rules, state: &State, space: &str, side: &str) -> u32 {
    let units = own_units(rules, state, space, side);
    activation_cost(rules, state, &mut SupplyCache::default(), &units)
}

/// Spaces a side has units on, in map order.
fn occupied_spaces(rules: &Rules, state: &State, side: &str) -> Vec<String> {
    let mut seen = std::collections::BTreeSet::new();
    for u in &state.units {
        if let Loc::Space(s) = &u.at {
            if rules.side(u) == side {
                seen.insert(s.clone());
            }
        }
    }
    seen.into_iter().collect()
}

fn ops_prompt(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    stage: OpsStage,
) -> Option<Prompt> {
    let (mv, cb) = (&rules.play.move_marker, &rules.play.combat_marker);
    match stage {
        OpsStage::Activate => {
            let mut options = Vec::new();
            if points > 0 {
                let mut cache = SupplyCache::default();
                for space in occupied_spaces(rules, state, side) {
                    if has_marker(state, &space, mv) || has_marker(state, &space, cb) {
                        continue;
                    }
                    let units = own_units(rules, state, &space, side);
                    if activation_cost(rules, state, &mut cache, &units) <= points {
                        options.push(format!("activate {space} move"));
                        options.push(format!("activate {space} combat"));
                    }
                }
            }
            if options.is_empty() {
                set_stage(state, OpsStage::Move);
                return None;
            }
            options.push("done".into());
            Some(Prompt::one_of(
                side,
                "activate",
                format!("Activate spaces for movement or combat ({points} points left)"),
                options,
            ))
        }
        OpsStage::Move => {
            let mut options = move_options(rules, state, side);
            options.extend(entrench_options(rules, state, side));
            if options.is_empty() {
                end_movement(rules, state, side);
                set_stage(state, OpsStage::Attack);
                return None;
            }
            options.push("done".into());
            Some(Prompt::one_of(
                side,
                "move",
                "Move units one space at a time, then done",
                options,
            ))
        }
        OpsStage::Attack => {
            let options = combat::targets(rules, state, side);
            if options.is_empty() {
                state.flow.tasks.pop();
                return None;
            }
            let mut options: Vec<String> =
                options.into_iter().map(|t| format!("attack {t}")).collect();
            options.push("done".into());
            Some(Prompt::one_of(
                side,
                "attack",
                "Choose a space to attack, or done",
                options,
            ))
        }
    }
}

fn set_stage(state: &mut State, to: OpsStage) {
    if let Some(Task::Ops { stage, .. }) = state.flow.tasks.last_mut() {
        *stage = to;
    }
}

fn ops_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    stage: OpsStage,
    words: &[&str],
) -> Result<(), String> {
    match (stage, words[0]) {
        (OpsStage::Activate, "done") => set_stage(state, OpsStage::Move),
        (OpsStage::Move, "done") => {
            end_movement(rules, state, side);
            set_stage(state, OpsStage::Attack);
        }
        (OpsStage::Move, "entrench") => {
            let space = words.get(1).ok_or("which space?")?.to_string();
            let unit = entrencher(rules, state, &space).ok_or("no unit there may entrench")?;
            // The unit tries instead of moving.
            let ma = rules.movement(&state.units[unit]).max(1) as u32;
            state.flow.marks.moved.insert(unit, ma * 2);
            state.flow.marks.entrenching.insert(space);
        }
        (OpsStage::Attack, "done") => {
            state.flow.tasks.pop();
        }
        (OpsStage::Activate, "activate") => {
            let space = words.get(1).ok_or("which space?")?.to_string();
            let units = own_units(rules, state, &space, side);
            let cost = activation_cost(rules, state, &mut SupplyCache::default(), &units);
            let marker = if words.get(2) == Some(&"combat") {
                &rules.play.combat_marker
            } else {
                &rules.play.move_marker
            };
            state.markers.push(MarkerOnMap {
                marker: marker.clone(),
                space,
                level: 1,
                until: Some("end_of_round".into()),
            });
            if let Some(Task::Ops { points: p, .. }) = state.flow.tasks.last_mut() {
                *p = points.saturating_sub(cost);
            }
        }
        (OpsStage::Move, "move") => {
            let unit = find_unit(rules, state, words.get(1).copied().unwrap_or(""))?;
            let to = words.get(2).ok_or("where to?")?.to_string();
            let cost = step_cost(rules, state, unit, &to);
            *state.flow.marks.moved.entry(unit).or_insert(0) += cost;
            leave_stand_fast(rules, state, unit, &to, false);
            if has_marker(state, &to, &rules.play.combat_marker) {
                // A mechanized unit that ends its move on a Combat marker fights instead.
                let ma = rules.movement(&state.units[unit]).max(0) as u32;
                state.flow.marks.moved.insert(unit, ma * 2);
            }
            enter(rules, state, unit, &to);
        }
        (OpsStage::Attack, "attack") => {
            let target = words.get(1).ok_or("which space?")?.to_string();
            state
                .flow
                .tasks
                .push(Task::Combat(Box::new(CombatTask::new(side, &target))));
        }
        _ => return Err(format!("`{}` does not fit this step", words.join(" "))),
    }
    Ok(())
}

/// The unit of a space that may try to entrench: of the nations and sizes that may, and not
/// moved this action.
fn entrencher(rules: &Rules, state: &State, space: &str) -> Option<usize> {
    let e = rules.play.entrench.as_ref()?;
    state.units_at(space).map(|(i, _)| i).find(|&i| {
        let u = &state.units[i];
        e.nations.iter().any(|n| n == rules.nation(u))
            && (e.sizes.is_empty() || e.sizes.iter().any(|s| s == rules.size(u)))
            && !state.flow.marks.moved.contains_key(&i)
    })
}

/// `entrench <space>` for each space activated for movement where a unit may try (the game's
/// condition, with `space` bound, says where).
fn entrench_options(rules: &Rules, state: &State, side: &str) -> Vec<String> {
    let Some(e) = rules.play.entrench.as_ref().filter(|e| e.side == side) else {
        return Vec::new();
    };
    let condition = rules
        .content
        .sequence
        .conditions
        .get("/play/entrench/playable");
    let mut out = Vec::new();
    for m in state
        .markers
        .iter()
        .filter(|m| m.marker == rules.play.move_marker)
    {
        if state.flow.marks.entrenching.contains(&m.space)
            || entrencher(rules, state, &m.space).is_none()
            || out
                .iter()
                .any(|o: &String| o.ends_with(&format!(" {}", m.space)))
        {
            continue;
        }
        let ctx = Context {
            space: Some(m.space.clone()),
            ..side_context(rules, &e.side)
        };
        if condition
            .is_some_and(|c| eval::condition(c, rules.content, state, &ctx).unwrap_or(false))
        {
            out.push(format!("entrench {}", m.space));
        }
    }
    out
}

/// Movement is over: every space where a unit tries to entrench runs the game's entrenchment
/// script (a die roll, a trench).
fn end_movement(rules: &Rules, state: &mut State, side: &str) {
    for space in std::mem::take(&mut state.flow.marks.entrenching) {
        let at = "/play/entrench/effect";
        run_rule_script(rules, state, at, side, (Some(&space), Vec::new()));
    }
}

/// Runs a script of the rules kept at `at` (a JSON pointer into `game.ron`) for a side, with
/// the space and the names its place gives it; a script that fails or asks is reported and
/// changes nothing.
pub(super) fn run_rule_script(
    rules: &Rules,
    state: &mut State,
    at: &str,
    side: &str,
    (space, names): (Option<&str>, Vec<(String, eval::Value)>),
) {
    let Some(stmts) = rules.content.sequence.effects.get(at) else {
        return;
    };
    let ctx = Context {
        space: space.map(str::to_string),
        names,
        ..side_context(rules, side)
    };
    match eval::run(stmts, rules.content, state, &ctx, &[]) {
        Ok((Outcome::Done, _)) => {}
        Ok((Outcome::Asks(_), _)) => state.flow.messages.push(format!(
            "the script at {at} asked a question; it was not run"
        )),
        Err(e) => state
            .flow
            .messages
            .push(format!("the script at {at} failed: {}", e.message)),
    }
}

/// Finds a unit by its text form.
pub(super) fn find_unit(rules: &Rules, state: &State, name: &str) -> Result<usize, String> {
    state
        .units
        .iter()
        .position(|u| u.name(rules.content) == name)
        .ok_or_else(|| format!("no unit `{name}`"))
}

/// Whether a connection may be crossed by a move, a retreat or an advance.
pub(super) fn movable(rules: &Rules, edge: usize) -> bool {
    rules.content.graph.edges[edge]
        .kinds
        .iter()
        .all(|k| rules.play.move_kinds.contains(k))
}

/// Whether a side may ever enter a space (terrain and spaces it may not enter; neutral
/// territory stays closed until its country enters the war).
pub fn may_enter(rules: &Rules, state: &State, side: &str, space: usize) -> bool {
    let s = &rules.content.graph.spaces[space];
    if !state.control.contains_key(&s.id) {
        // A neutral space, open only under a rule whose flag is set.
        return rules.play.open_neutrals.iter().any(|o| {
            state.flags.contains(&o.flag)
                && o.regions
                    .iter()
                    .any(|r| crate::state::space_in_region(rules.content, &s.id, r))
        });
    }
    !rules.play.no_entry.iter().any(|n| {
        n.side == side
            && (n.spaces.contains(&s.id)
                || s.terrain.as_ref().is_some_and(|t| n.terrains.contains(t)))
    })
}

/// Whether a unit may operate in a space: every national restriction that binds it allows
/// the space (a rule lifted by its flag binds no one).
pub fn may_operate(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    let u = &state.units[unit];
    rules.play.operate_in.iter().all(|r| {
        let binds = (r.nations.iter().any(|n| n == rules.nation(u))
            || r.counters.contains(&u.counter))
            && !r.except_counters.contains(&u.counter)
            && (r.sizes.is_empty() || r.sizes.iter().any(|s| s == rules.size(u)))
            && r.unless_flag
                .as_ref()
                .is_none_or(|f| !state.flags.contains(f));
        let within = |regions: &[String]| {
            regions
                .iter()
                .any(|reg| crate::state::space_in_region(rules.content, space, reg))
        };
        !binds || (r.regions.is_empty() || within(&r.regions)) && !within(&r.not_regions)
    })
}

/// Whether a unit may end its move in a space: where it may operate, without breaking the
/// stacking rules.
pub(super) fn may_stack(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    if !may_operate(rules, state, unit, space) {
        return false;
    }
    let side = rules.side(&state.units[unit]);
    if state
        .units_at(space)
        .any(|(i, x)| i != unit && rules.side(x) != side)
    {
        return false;
    }
    stacking_allows(rules, state, unit, space)
}

/// Whether the game's stacking rules (limits by nation and region, units that must stay
/// apart or alone) let a unit stand in a space with the units already there.
pub(super) fn stacking_allows(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    let u = &state.units[unit];
    let nation = rules.nation(u);
    let st = &rules.game.stacking;
    let others: Vec<&crate::state::Unit> = state
        .units_at(space)
        .filter(|(i, _)| *i != unit)
        .map(|(_, x)| x)
        .collect();
    let counts = |x: &crate::state::Unit| {
        !rules
            .game
            .unit_types
            .iter()
            .any(|t| t.id == rules.unit_type(x) && t.no_stacking)
    };
    if let Some(limit) = st.limit {
        if counts(u) && others.iter().filter(|x| counts(x)).count() as u32 >= limit {
            return false;
        }
    }
    // The space itself, only for the limits and exceptions that depend on where it lies.
    let by_region = !st.limits.is_empty() || st.apart.iter().any(|a| !a.except.is_empty());
    let here = if by_region {
        rules.content.graph.space(space)
    } else {
        None
    };
    for l in &st.limits {
        if here.is_some_and(|h| l.applies(rules.game, h))
            && counts(u)
            && l.counts(nation)
            && others
                .iter()
                .filter(|x| counts(x) && l.counts(rules.nation(x)))
                .count() as u32
                >= l.limit
        {
            return false;
        }
    }
    if st.alone.contains(&u.counter) && !others.is_empty()
        || others.iter().any(|x| st.alone.contains(&x.counter))
    {
        return false;
    }
    let together_here = |ap: &crate::model::Apart| {
        here.is_some_and(|h| {
            ap.except
                .iter()
                .any(|r| crate::state::space_lies_in(rules.game, h, r))
        })
    };
    let clash = |a: &str, b: &str| {
        st.apart.iter().any(|ap| {
            !together_here(ap)
                && ap.nations.iter().any(|n| n == a)
                && !ap.nations.iter().any(|n| n == b)
                && (ap.from.is_empty() || ap.from.iter().any(|n| n == b))
        })
    };
    !others.iter().any(|x| {
        let n = rules.nation(x);
        clash(nation, n) || clash(n, nation)
    })
}

fn move_options(rules: &Rules, state: &State, side: &str) -> Vec<String> {
    let g = &rules.content.graph;
    let (mv, cb) = (&rules.play.move_marker, &rules.play.combat_marker);
    let mut cache = SupplyCache::default();
    let mut options = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        let Loc::Space(at) = &u.at else { continue };
        if rules.side(u) != side
            || !has_marker(state, at, mv) && !state.flow.marks.moved.contains_key(&i)
        {
            continue;
        }
        let level = cache.unit(rules, state, i);
        let mut ma = rules.movement(u).max(0) as u32;
        if level == Level::Out {
            ma = ma.min(2);
        }
        if let Some((cap, _)) = rules.movement_cap(state, u) {
            ma = ma.min(cap);
        }
        // Movement points are counted in halves (a road costs half a point).
        let used = state.flow.marks.moved.get(&i).copied().unwrap_or(0);
        let ma = ma * 2;
        if used >= ma {
            continue;
        }
        let mech = rules.is_mech_now(state, u) && level != Level::Out;
        let Some(from) = g.index_of(at) else { continue };
        for &(n, e) in g.neighbours(from) {
            let to = &g.spaces[n].id;
            if !movable(rules, e)
                || !may_enter(rules, state, side, n)
                || enemy_in(rules, state, to, side)
            {
                continue;
            }
            if has_marker(state, to, cb) && !mech {
                continue;
            }
            if !may_stack(rules, state, i, to) {
                continue;
            }
            // A unit may always make a move of one space (7.1.3 of Berlin 1945).
            let cost = rules.content.edge_move_cost(e);
            if used + cost > ma && used > 0 {
                continue;
            }
            options.push(format!("move {} {to}", u.name(rules.content)));
        }
    }
    options
}

/// The movement points, in halves, of a unit's move from where it is to a neighbouring space.
fn step_cost(rules: &Rules, state: &State, unit: usize, to: &str) -> u32 {
    let g = &rules.content.graph;
    let from = match &state.units[unit].at {
        Loc::Space(s) => g.index_of(s),
        _ => None,
    };
    from.zip(g.index_of(to))
        .and_then(|(a, b)| g.edge_between(a, b))
        .map_or(2, |e| rules.content.edge_move_cost(e))
}

/// A unit enters a space: it takes control of it (which may meet an offensive its side owes).
pub(super) fn enter(rules: &Rules, state: &mut State, unit: usize, space: &str) {
    state.units[unit].at = Loc::Space(space.to_string());
    let side = rules.side(&state.units[unit]).to_string();
    if state.control.get(space) != Some(&side) {
        take_control(rules, state, space, &side);
        offensive_made(rules, state, &[unit], space, false);
    }
}

/// A unit leaves a space under Stand Fast orders: the marker comes off, and the side pays its
/// price unless the unit is forced out (a retreat), advances after combat, or first enters a
/// space the enemy controls.
pub(super) fn leave_stand_fast(
    rules: &Rules,
    state: &mut State,
    unit: usize,
    to: &str,
    free: bool,
) {
    let Some(sf) = &rules.play.stand_fast else {
        return;
    };
    let Loc::Space(from) = &state.units[unit].at else {
        return;
    };
    let Some(i) = state
        .markers
        .iter()
        .position(|m| m.marker == sf.marker && m.space == *from)
    else {
        return;
    };
    let from = from.clone();
    let side = rules.side(&state.units[unit]);
    let per_unit = sf.per_unit_after.as_ref().is_some_and(|(card, nations)| {
        state.played.contains_key(card)
            && nations
                .iter()
                .any(|n| n == rules.nation(&state.units[unit]))
    });
    if !per_unit || free {
        state.markers.remove(i);
    }
    let into_enemy = state.control.get(to).is_some_and(|c| c != side);
    if !free && !into_enemy && sf.exit_vp > 0 {
        pay_vp(rules, state, side, sf.exit_vp);
        state.flow.messages.push(format!(
            "{side} leaves {from} against Stand Fast orders: {} VP",
            sf.exit_vp
        ));
    }
}

/// A side pays victory points: the victory track moves against it.
pub(super) fn pay_vp(rules: &Rules, state: &mut State, side: &str, vp: u32) {
    let v = &rules.play.victory;
    let by = if side == v.raised_by {
        -i64::from(vp)
    } else {
        i64::from(vp)
    };
    add_track(rules, state, &v.track, by);
}

/// Units attacked a space, or captured it: a mandated offensive their side owes is met if one
/// of them is of the offensive's nations (and, for an attack, sizes) and the space lies where
/// the offensive asks.
pub(super) fn offensive_made(
    rules: &Rules,
    state: &mut State,
    units: &[usize],
    space: &str,
    attack: bool,
) {
    for o in &rules.play.offensives {
        if !state.flags.contains(&o.flag)
            || o.outside
                .as_ref()
                .is_some_and(|r| crate::state::space_in_region(rules.content, space, r))
        {
            continue;
        }
        let meets = units.iter().any(|&u| {
            let x = &state.units[u];
            rules.side(x) == o.side
                && o.nations.iter().any(|n| n == rules.nation(x))
                && (!attack
                    || o.attack_sizes.is_empty()
                    || o.attack_sizes.iter().any(|s| s == rules.size(x)))
        });
        if meets {
            state.clear_flag(&o.flag);
        }
    }
}

/// A side takes control of a space; its victory points change hands.
pub(super) fn take_control(rules: &Rules, state: &mut State, space: &str, side: &str) {
    let before = state.control.get(space).cloned();
    if before.as_deref() == Some(side) {
        return;
    }
    state.set_control(space, Some(side));
    if before.is_some() {
        // Trenches do not survive a change of hands (10.2), nor do forts (10.3).
        state
            .markers
            .retain(|m| m.space != space || !rules.play.trench_markers.contains(&m.marker));
        let fort = rules
            .play
            .fort
            .as_ref()
            .zip(rules.play.fort_destroyed.as_ref());
        if let Some((fort, destroyed)) = fort {
            let has_fort = rules
                .content
                .graph
                .space(space)
                .is_some_and(|s| s.features.contains(fort));
            if has_fort && !has_marker(state, space, destroyed) {
                state.markers.push(MarkerOnMap {
                    marker: destroyed.clone(),
                    space: space.to_string(),
                    level: 1,
                    until: None,
                });
            }
        }
    }
    for c in rules.play.captured_markers.iter().filter(|c| c.by == side) {
        if let Some(i) = state
            .markers
            .iter()
            .position(|m| m.marker == c.marker && m.space == space)
        {
            state.markers.remove(i);
            add_track(rules, state, &rules.play.victory.track, i64::from(c.vp));
            state.flow.messages.push(format!(
                "{side} captures the {} marker in {space}",
                c.marker
            ));
        }
    }
    let vp = rules.content.graph.space(space).map_or(0, |s| s.vp);
    if vp != 0 {
        let v = &rules.play.victory;
        if side == v.raised_by {
            add_track(rules, state, &v.track, i64::from(vp));
        } else if before.as_deref() == Some(v.raised_by.as_str()) {
            add_track(rules, state, &v.track, -i64::from(vp));
        }
    }
}

pub(super) fn add_track(rules: &Rules, state: &mut State, track: &str, by: i64) {
    let (min, max) = rules
        .game
        .tracks
        .iter()
        .find(|t| t.id == track)
        .map_or((i64::MIN, i64::MAX), |t| {
            (i64::from(t.min), i64::from(t.max))
        });
    let v = state.track(track).saturating_add(by).clamp(min, max);
    state.tracks.insert(track.to_string(), v);
}

// ---------------------------------------------------------------------------------------------
// Strategic redeployment
// ---------------------------------------------------------------------------------------------

fn sr_cost(rules: &Rules, state: &State, unit: usize) -> u32 {
    let size = rules.size(&state.units[unit]);
    rules
        .play
        .sr_costs
        .iter()
        .find(|c| c.size == size)
        .map_or(u32::MAX, |c| c.cost)
}

fn sr_prompt(
    rules: &Rules,
    state: &State,
    side: &str,
    points: u32,
    unit: Option<usize>,
) -> Option<Prompt> {
    match unit {
        None => {
            let reserve = rules.box_of(side, BoxRole::Reserve);
            let mut cache = SupplyCache::default();
            let mut options = Vec::new();
            for (i, u) in state.units.iter().enumerate() {
                if rules.side(u) != side
                    || state.flow.marks.redeployed.contains(&i)
                    || sr_cost(rules, state, i) > points
                {
                    continue;
                }
                let ok = match &u.at {
                    Loc::Space(_) => cache.unit(rules, state, i) != Level::Out,
                    Loc::Box(b) => Some(b.as_str()) == reserve,
                    _ => false,
                };
                if ok {
                    options.push(format!("redeploy {}", u.name(rules.content)));
                }
            }
            for r in rules.play.sr_markers.iter().filter(|r| r.side == side) {
                // Offered while it is on the map; where it may go is asked next (and may be
                // nowhere: then `back`).
                let on_map = state.markers.iter().any(|m| m.marker == r.marker);
                if on_map && r.cost <= points {
                    options.push(format!("move_marker {}", r.marker));
                }
            }
            options.push("done".into());
            Some(Prompt::one_of(
                side,
                "redeploy",
                format!("Choose a unit to redeploy ({points} SR points left), or done"),
                options,
            ))
        }
        Some(u) => Some(destination_prompt(
            side,
            sr_destinations(rules, state, u),
            &state.units[u].name(rules.content),
        )),
    }
}

/// Where a marker that moves by SR may go: the spaces its rule's condition allows.
fn sr_marker_destinations(rules: &Rules, state: &State, side: &str, marker: &str) -> Vec<String> {
    let Some(i) = rules
        .play
        .sr_markers
        .iter()
        .position(|r| r.marker == marker)
    else {
        return Vec::new();
    };
    let Some(condition) = rules
        .content
        .sequence
        .conditions
        .get(&format!("/play/sr_markers/{i}/to"))
    else {
        return Vec::new();
    };
    rules
        .content
        .graph
        .spaces
        .iter()
        .filter(|s| {
            let ctx = Context {
                space: Some(s.id.clone()),
                ..side_context(rules, side)
            };
            eval::condition(condition, rules.content, state, &ctx).unwrap_or(false)
        })
        .map(|s| s.id.clone())
        .collect()
}

fn sr_marker_prompt(rules: &Rules, state: &State, side: &str, marker: &str) -> Option<Prompt> {
    let destinations = sr_marker_destinations(rules, state, side, marker);
    Some(destination_prompt(
        side,
        destinations,
        &format!("the {marker} marker"),
    ))
}

/// Where a redeployed unit or marker goes: `to <place>` for each destination, or `back`.
fn destination_prompt(side: &str, destinations: Vec<String>, what: &str) -> Prompt {
    let mut options: Vec<String> = destinations
        .into_iter()
        .map(|d| format!("to {d}"))
        .collect();
    options.push("back".into());
    Prompt::one_of(
        side,
        "redeploy_to",
        format!("Where does {what} go?"),
        options,
    )
}

/// Spaces (and the reserve box) a unit may redeploy to.
fn sr_destinations(rules: &Rules, state: &State, unit: usize) -> Vec<String> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let side = rules.side(u);
    let nation = rules.nation(u);
    let levels = supply::levels(rules.content, state, nation, side);
    let large = rules.is_large(u);
    let mut out = Vec::new();
    let reserve = rules.box_of(side, BoxRole::Reserve);
    match &u.at {
        Loc::Space(at) => {
            let Some(start) = g.index_of(at) else {
                return out;
            };
            let friendly = |i: usize| {
                state.control.get(&g.spaces[i].id).map(String::as_str) == Some(side)
                    && !enemy_in(rules, state, &g.spaces[i].id, side)
            };
            let blocked = |i: usize| {
                rules.play.hindering_markers.iter().any(|h| {
                    h.blocks_sr && h.side == side && has_marker(state, &g.spaces[i].id, &h.marker)
                })
            };
            if blocked(start) {
                return out;
            }
            let mut seen = vec![false; g.spaces.len()];
            seen[start] = true;
            let mut stack = vec![start];
            while let Some(i) = stack.pop() {
                for &(n, e) in g.neighbours(i) {
                    if seen[n] || !friendly(n) || !may_enter(rules, state, side, n) || blocked(n) {
                        continue;
                    }
                    let kinds = &g.edges[e].kinds;
                    if !kinds.iter().all(|k| rules.play.sr_kinds.contains(k)) {
                        continue;
                    }
                    let sea = kinds.iter().any(|k| rules.play.sea_kinds.contains(k));
                    if sea && large {
                        continue;
                    }
                    seen[n] = true;
                    if !sea {
                        stack.push(n);
                    }
                }
            }
            for (i, s) in g.spaces.iter().enumerate() {
                if i != start
                    && seen[i]
                    && levels[i] != Level::Out
                    && may_stack(rules, state, unit, &s.id)
                {
                    out.push(s.id.clone());
                }
            }
            if !large && levels[start] == Level::Full {
                if let Some(r) = reserve {
                    out.push(r.to_string());
                }
            }
        }
        Loc::Box(_) => out = home_spaces(rules, state, unit, &levels),
        _ => {}
    }
    out
}

/// Where a unit enters from a box (a rebuilt or redeployed unit): a space of its nation's home
/// country with a capital, an urban centre or a supply source of its nation, that its side
/// controls, in Full Supply, with room.
fn home_spaces(rules: &Rules, state: &State, unit: usize, levels: &[Level]) -> Vec<String> {
    let u = &state.units[unit];
    let side = rules.side(u);
    let nation = rules.nation(u);
    let homes: Vec<&String> = rules
        .game
        .nations
        .iter()
        .find(|n| n.id == nation)
        .map(|n| n.home.iter().collect())
        .unwrap_or_default();
    let mut out = Vec::new();
    for (i, s) in rules.content.graph.spaces.iter().enumerate() {
        let home = homes
            .iter()
            .any(|h| crate::state::space_in_region(rules.content, &s.id, h));
        let place = s.features.iter().any(|f| f == "capital" || f == "urban")
            || s.supply
                .iter()
                .any(|x| x.nations.iter().any(|n| n == nation));
        if home
            && place
            && levels[i] == Level::Full
            && state.control.get(&s.id).map(String::as_str) == Some(side)
            && may_stack(rules, state, unit, &s.id)
        {
            out.push(s.id.clone());
        }
    }
    out
}

fn sr_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    (unit, marker): (Option<usize>, Option<String>),
    words: &[&str],
) -> Result<(), String> {
    let set = |state: &mut State, p: u32, u: Option<usize>| {
        if let Some(Task::Sr { points, unit, .. }) = state.flow.tasks.last_mut() {
            *points = p;
            *unit = u;
        }
    };
    let set_marker = |state: &mut State, m: Option<String>| {
        if let Some(Task::Sr { marker, .. }) = state.flow.tasks.last_mut() {
            *marker = m;
        }
    };
    if let Some(m) = marker {
        match words[0] {
            "back" => set_marker(state, None),
            "to" => {
                let to = words.get(1).ok_or("where to?")?.to_string();
                let rule = rules.play.sr_markers.iter().find(|r| r.marker == m);
                let cost = rule.map_or(0, |r| r.cost);
                if let Some(on) = state.markers.iter_mut().find(|x| x.marker == m) {
                    on.space = to;
                }
                set_marker(state, None);
                set(state, points.saturating_sub(cost), None);
            }
            _ => return Err(format!("`{}` does not fit this step", words.join(" "))),
        }
        return Ok(());
    }
    match (unit, words[0]) {
        (None, "done") => {
            state.flow.tasks.pop();
        }
        (None, "move_marker") => {
            let m = words.get(1).ok_or("which marker?")?.to_string();
            set_marker(state, Some(m));
        }
        (None, "redeploy") => {
            let u = find_unit(rules, state, words.get(1).copied().unwrap_or(""))?;
            set(state, points, Some(u));
        }
        (Some(_), "back") => set(state, points, None),
        (Some(u), "to") => {
            let to = words.get(1).ok_or("where to?")?.to_string();
            let cost = sr_cost(rules, state, u);
            if rules.content.graph.space(&to).is_some() {
                enter(rules, state, u, &to);
            } else {
                state.units[u].at = Loc::Box(to);
            }
            state.flow.marks.redeployed.insert(u);
            set(state, points.saturating_sub(cost), None);
            let _ = side;
        }
        _ => return Err(format!("`{}` does not fit this step", words.join(" "))),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Replacements
// ---------------------------------------------------------------------------------------------

fn rp_cost(rules: &Rules, state: &State, unit: usize) -> u32 {
    let size = rules.size(&state.units[unit]);
    rules
        .play
        .rp_half_costs
        .iter()
        .find(|c| c.size == size)
        .map_or(u32::MAX, |c| c.cost)
}

fn pool_of<'c>(rules: &Rules<'c>, state: &State, unit: usize) -> Option<&'c str> {
    let nation = rules.nation(&state.units[unit]);
    rules
        .play
        .replacements
        .iter()
        .find(|p| p.nations.iter().any(|n| n == nation))
        .map(|p| p.track.as_str())
}

fn replace_prompt(
    rules: &Rules,
    state: &mut State,
    side: &str,
    halves: &BTreeMap<String, u32>,
    placing: Option<usize>,
) -> Option<Prompt> {
    if let Some(u) = placing {
        let levels = supply::levels(rules.content, state, rules.nation(&state.units[u]), side);
        let options: Vec<String> = home_spaces(rules, state, u, &levels)
            .into_iter()
            .map(|s| format!("place {s}"))
            .collect();
        return Some(Prompt::one_of(
            side,
            "place",
            format!(
                "Where does the rebuilt {} enter?",
                state.units[u].name(rules.content)
            ),
            options,
        ));
    }
    let eliminated = rules.box_of(side, BoxRole::Eliminated);
    let reserve = rules.box_of(side, BoxRole::Reserve);
    let mut cache = SupplyCache::default();
    let mut options = Vec::new();
    for (i, u) in state.units.iter().enumerate() {
        if rules.side(u) != side {
            continue;
        }
        let dot = rules
            .play
            .non_replaceable
            .as_ref()
            .is_some_and(|f| rules.counter(u).is_some_and(|c| c.flags.contains(f)));
        let Some(pool) = pool_of(rules, state, i) else {
            continue;
        };
        if dot || halves.get(pool).copied().unwrap_or(0) < rp_cost(rules, state, i) {
            continue;
        }
        if replacement_cap(rules, state, i).is_some_and(|(cap, limit)| {
            state.flow.capped_steps.get(&cap).copied().unwrap_or(0) >= limit
        }) {
            continue;
        }
        let ok = match &u.at {
            Loc::Space(_) => u.reduced && cache.unit(rules, state, i) == Level::Full,
            Loc::Box(b) if Some(b.as_str()) == reserve => u.reduced,
            Loc::Box(b) if Some(b.as_str()) == eliminated => {
                if rules.is_large(u) {
                    let levels = supply::levels(rules.content, state, rules.nation(u), side);
                    !home_spaces(rules, state, i, &levels).is_empty()
                } else {
                    reserve.is_some()
                }
            }
            _ => false,
        };
        if ok {
            options.push(format!("rebuild {}", u.name(rules.content)));
        }
    }
    if options.is_empty() {
        finish_replacements(rules, state);
        return None;
    }
    options.push("done".into());
    Some(Prompt::one_of(
        side,
        "replace",
        "Spend replacement points, then done",
        options,
    ))
}

/// The replacement cap a unit falls under, if any: its index, and the steps it allows this
/// turn.
fn replacement_cap(rules: &Rules, state: &State, unit: usize) -> Option<(usize, u32)> {
    let u = &state.units[unit];
    rules
        .play
        .replacement_caps
        .iter()
        .enumerate()
        .find(|(_, c)| {
            c.nations.iter().any(|n| n == rules.nation(u))
                && c.types.iter().any(|t| t == rules.unit_type(u))
        })
        .map(|(i, c)| {
            let raised = c.after_card.as_ref().and_then(|(card, steps)| {
                state
                    .played
                    .get(card)
                    .is_some_and(|&t| t < state.turn)
                    .then_some(*steps)
            });
            (i, raised.unwrap_or(c.steps))
        })
}

fn finish_replacements(rules: &Rules, state: &mut State) {
    if let Some(Task::Replace { halves, .. }) = state.flow.tasks.pop() {
        for track in halves.keys() {
            let v = state.track(track);
            add_track(rules, state, track, -v);
        }
    }
}

fn replace_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    mut halves: BTreeMap<String, u32>,
    placing: Option<usize>,
    words: &[&str],
) -> Result<(), String> {
    let mut next_placing = None;
    match (placing, words[0]) {
        (None, "done") => {
            finish_replacements(rules, state);
            return Ok(());
        }
        (None, "rebuild") => {
            let u = find_unit(rules, state, words.get(1).copied().unwrap_or(""))?;
            let pool = pool_of(rules, state, u).ok_or("no pool rebuilds this unit")?;
            let cost = rp_cost(rules, state, u);
            if let Some(h) = halves.get_mut(pool) {
                *h = h.saturating_sub(cost);
            }
            if let Some((cap, _)) = replacement_cap(rules, state, u) {
                *state.flow.capped_steps.entry(cap).or_default() += 1;
            }
            let eliminated = rules.box_of(side, BoxRole::Eliminated);
            let unit = &mut state.units[u];
            match &unit.at {
                Loc::Box(b) if Some(b.as_str()) == eliminated => {
                    unit.reduced = rules.counter(unit).is_some_and(|c| c.back.is_some());
                    if rules.is_large(&state.units[u]) {
                        next_placing = Some(u);
                    } else if let Some(r) = rules.box_of(side, BoxRole::Reserve) {
                        state.units[u].at = Loc::Box(r.to_string());
                    }
                }
                _ => unit.reduced = false,
            }
        }
        (Some(u), "place") => {
            let to = words.get(1).ok_or("where?")?.to_string();
            enter(rules, state, u, &to);
        }
        _ => return Err(format!("`{}` does not fit this step", words.join(" "))),
    }
    if let Some(Task::Replace {
        halves: h,
        placing: p,
        ..
    }) = state.flow.tasks.last_mut()
    {
        *h = halves;
        *p = next_placing;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Attrition, drawing, victory, the end of the turn
// ---------------------------------------------------------------------------------------------

fn attrition(rules: &Rules, state: &mut State, side: &str) {
    let mut cache = SupplyCache::default();
    let out: Vec<usize> = (0..state.units.len())
        .filter(|&i| {
            rules.side(&state.units[i]) == side
                && matches!(state.units[i].at, Loc::Space(_))
                && cache.unit(rules, state, i) == Level::Out
        })
        .collect();
    let eliminated = rules.box_of(side, BoxRole::Eliminated);
    let to_eliminated = eliminated.map_or(Loc::Removed, |b| Loc::Box(b.to_string()));
    // Units whose wait on the turn track is over reach the eliminated box (6.C).
    let due: Vec<usize> = state
        .delayed
        .iter()
        .filter(|&(&u, &turn)| turn <= state.turn && rules.side(&state.units[u]) == side)
        .map(|(&u, _)| u)
        .collect();
    for u in due {
        state.delayed.remove(&u);
        state.units[u].at = to_eliminated.clone();
    }
    let delay = rules.play.oos_delay.as_ref();
    let waiting = rules.box_of(side, BoxRole::Delayed);
    for u in out {
        state.units[u].reduced = false;
        if !rules.is_large(&state.units[u]) || delay.is_none() {
            state.units[u].at = to_eliminated.clone();
            continue;
        }
        // A large unit takes a small unit of its own from the reserve with it; with none
        // there, it leaves the game (13.44).
        match combat::step_down_unit(rules, state, u) {
            Some(small) => {
                state.units[small].reduced = false;
                state.units[small].at = to_eliminated.clone();
            }
            None => {
                state.units[u].at = Loc::Removed;
                continue;
            }
        }
        let d = delay.expect("checked above");
        match waiting {
            Some(b)
                if !d
                    .except_nations
                    .iter()
                    .any(|n| n == rules.nation(&state.units[u])) =>
            {
                state.units[u].at = Loc::Box(b.to_string());
                state.delayed.insert(u, state.turn + d.turns);
            }
            _ => state.units[u].at = to_eliminated.clone(),
        }
    }
    // Spaces the side controls that no nation of it could trace supply from pass to the
    // enemy, unless a friendly fort holds them or friendly units stand there.
    let nations: Vec<&str> = rules
        .game
        .nations
        .iter()
        .filter(|n| n.side.as_deref() == Some(side))
        .map(|n| n.id.as_str())
        .collect();
    let enemy = rules.other_side(side).to_string();
    let g = &rules.content.graph;
    let mut lost = Vec::new();
    for (i, s) in g.spaces.iter().enumerate() {
        if state.control.get(&s.id).map(String::as_str) != Some(side) {
            continue;
        }
        if supply::intact_fort(rules.content, state, &s.id)
            || state.units_at(&s.id).next().is_some()
            || s.supply.iter().any(|x| {
                !x.nations.is_empty() && x.nations.iter().any(|n| nations.contains(&n.as_str()))
            })
        {
            continue;
        }
        if nations
            .iter()
            .all(|n| cache.at(rules, state, i, n, side) == Level::Out)
        {
            lost.push(s.id.clone());
        }
    }
    for s in lost {
        take_control(rules, state, &s, &enemy);
    }
    // A supply-source marker (a beach head) none of the side's units traces to comes off (6.C).
    for (marker, space) in supply::unused_marker_sources(rules.content, state, side) {
        state
            .markers
            .retain(|m| !(m.marker == marker && m.space == space));
        state.flow.messages.push(format!(
            "the {marker} in {space} supplies no unit and is removed"
        ));
    }
}

/// The hand a side draws up to: its hand track, changed by the modifiers in force, within the
/// limits of the turn.
fn hand_size(rules: &Rules, state: &State, side: &str) -> Option<usize> {
    let rule = rules.play.hands.iter().find(|h| h.side == side)?;
    let in_force =
        |m: &&crate::state::Modifier| m.side == side && m.from_turn.is_none_or(|t| state.turn >= t);
    let mut size = state.track(&rule.track);
    for m in state.modifiers.iter().filter(in_force) {
        if let ModifierEffect::HandLimit(n) = m.effect {
            size += n;
        }
    }
    if let Some(table) = rule.limits.as_ref().and_then(|t| rules.content.table(t)) {
        let limit = |col: &str| {
            table
                .lookup(
                    crate::tables::ColumnInput::Name(col),
                    0,
                    crate::tables::RowInput::Number(state.turn as i32),
                    rules.game.dice.faces,
                )
                .ok()
                .and_then(|c| match c {
                    crate::model::Cell::Scalar(Scalar::Int(n)) => Some(*n),
                    _ => None,
                })
        };
        if let Some(max) = limit("max") {
            size = size.min(max);
        }
        if let Some(min) = limit("min") {
            size = size.max(min);
        }
    }
    for m in state.modifiers.iter().filter(in_force) {
        if let ModifierEffect::HandSize(n) = m.effect {
            size = n;
        }
    }
    Some(size.max(0) as usize)
}

fn draw_to_hand(rules: &Rules, state: &mut State, side: &str) {
    let Some(size) = hand_size(rules, state, side) else {
        return;
    };
    let deck = rules.deck_of(side).to_string();
    loop {
        let held = state.hands.get(side).map_or(0, Vec::len);
        if held >= size {
            break;
        }
        let pile = state.draw_piles.entry(deck.clone()).or_default();
        if pile.is_empty() {
            let mut discards = std::mem::take(state.discards.entry(deck.clone()).or_default());
            if discards.is_empty() {
                break;
            }
            state.shuffle(&mut discards);
            state.draw_piles.insert(deck.clone(), discards);
            continue;
        }
        let card = pile.remove(0);
        state.hands.entry(side.to_string()).or_default().push(card);
    }
    let turn = state.turn;
    state.modifiers.retain(|m| {
        !(m.until == "next_draw" && m.side == side && m.from_turn.is_none_or(|t| turn >= t))
    });
}

fn check_victory(rules: &Rules, state: &mut State) {
    let v = &rules.play.victory;
    let vp = state.track(&v.track);
    for a in &v.automatic {
        if a.unless_flag
            .as_ref()
            .is_some_and(|f| state.flags.contains(f))
        {
            continue;
        }
        let won = a.at_least.is_some_and(|n| vp >= i64::from(n))
            || a.at_most.is_some_and(|n| vp <= i64::from(n));
        if won {
            state.flow.result = Some(GameResult {
                winner: a.side.clone(),
                how: "automatic".into(),
                turn: state.turn,
            });
            return;
        }
    }
}

fn end_turn(rules: &Rules, state: &mut State) {
    state.end("end_of_turn");
    state.flow.activated.clear();
    state.played_this_turn.clear();
    state.revealed_cards.clear();
    state.flow.last_action.clear();
    state.flow.rp_cards.clear();
    state.flow.capped_steps.clear();
    state.flow.phase = 0;
    state.flow.step = 0;
    if state.turn >= rules.scenario.last_turn {
        state.flow.result = Some(GameResult {
            winner: rules.play.victory.at_end.clone(),
            how: "end_of_game".into(),
            turn: state.turn,
        });
        return;
    }
    state.turn += 1;
    state.round = 1;
}
