//! Action rounds: whose action is next, the actions a side may take (a card for its operations,
//! strategic redeployment, replacements or event; a free action), the event and sequence
//! scripts, cards played and discarded.

use super::*;

pub(super) fn action_prompt(rules: &Rules, state: &State, side: &str) -> Prompt {
    let spec = rounds_at(state).and_then(|at| rounds_spec(rules, at));
    let allowed = spec
        .and_then(|s| crate::rules::opening::restrictions(rules, state, s))
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
    // With a replay's answer given (`rules::Given`), the events of the other cards are asked
    // whether they may be played only if nothing else is offered (`pass` stands alone).
    let given = &state.flow.given;
    let mut unasked = Vec::new();
    // The cards' context, made once: only the card named in it changes from card to card.
    let mut card_ctx = ctx.clone();
    let mut playable = |card_id: &String, facts: &HandCard| {
        facts.event
            && facts.playable.is_none_or(|cond| {
                card_ctx
                    .card
                    .get_or_insert_with(String::new)
                    .clone_from(card_id);
                crate::rules::hook_memo::condition(
                    rules.content,
                    state,
                    facts.memo,
                    cond,
                    &card_ctx,
                )
            })
    };
    let hand_cards = rules.hand_cards();
    for card_id in state.hands.get(side).into_iter().flatten() {
        let Some(facts) = hand_cards.get(card_id.as_str()) else {
            continue;
        };
        if !card_ok(card_id) {
            continue;
        }
        if facts.ops > 0 && may(ActionKind::Ops) && !no_ops {
            options.push(Action::new("ops").and(facts.id));
        }
        if facts.ops > 0 && may(ActionKind::Sr) && last != Some(ActionKind::Sr) {
            options.push(Action::new("sr").and(facts.id));
        }
        if facts.gives_rp && may(ActionKind::Rp) && last != Some(ActionKind::Rp) && rp_room {
            options.push(Action::new("rp").and(facts.id));
        }
        if may(ActionKind::Event) {
            let event = Action::new("event").and(facts.id);
            if !given.admits(&event) {
                unasked.push((card_id, facts, event));
            } else if playable(card_id, facts) {
                options.push(event);
            }
        }
    }
    if rules.play.auto_ops.is_some_and(|n| n > 0) && may(ActionKind::AutoOps) {
        options.push(Action::new("auto_ops"));
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
                options.push(Action::new(Word::id(&action.id)));
            }
        }
    }
    if options.is_empty() {
        let events = (unasked.into_iter()).filter(|(card_id, facts, _)| playable(card_id, facts));
        options.extend(events.map(|(_, _, event)| event));
    }
    if options.is_empty() {
        options.push(Action::new("pass"));
    }
    Prompt::one_of(
        side,
        "action",
        numbered(
            "Round ",
            state.round,
            &[": play a card or take automatic operations"],
        ),
        options,
    )
}

pub(in crate::rules) fn card_ops(rules: &Rules, card: &str) -> u32 {
    rules
        .card(card)
        .and_then(|c| c.values.get(&rules.play.ops_value))
        .map_or(0, |v| (*v).max(0) as u32)
}

/// What an Action prompt asks of a card in a hand, found once per rules (see
/// [`Rules::hand_cards`]): a prompt asks it of every card in the hand, and each card's deck,
/// values and scripts were looked up by its id apart, some five searches of a text a card.
pub(in crate::rules) struct HandCard<'c> {
    /// Its id, for the words of the actions that name it.
    id: crate::Id,
    /// Its operations points ([`card_ops`]).
    ops: u32,
    /// Whether it gives replacement points to some pool of the play rules.
    gives_rp: bool,
    /// Whether it has an event.
    event: bool,
    /// The condition its event may be played under, if it has one, and how it is remembered.
    playable: Option<&'c crate::script::syntax::Expr>,
    memo: (usize, Option<&'c crate::script::reads::Memo>),
}

/// The cards of the content by id, as the Action prompt asks of them ([`HandCard`]).
pub(in crate::rules) type HandCards<'c> = std::collections::HashMap<
    &'c str,
    HandCard<'c>,
    std::hash::BuildHasherDefault<crate::content::IdHash>,
>;

/// [`HandCards`] of a content and its play rules.
pub(in crate::rules) fn hand_cards<'c>(rules: &Rules<'c>) -> HandCards<'c> {
    let content = rules.content;
    let decks = content.decks.iter().flat_map(|d| d.cards.iter());
    let mut all = HandCards::default();
    for card in decks {
        // The first card of an id, as `Content::card` finds it.
        if all.contains_key(card.id.as_str()) {
            continue;
        }
        let gives_rp = rules.play.replacements.iter().any(|p| {
            card.values
                .get(p.value.as_deref().unwrap_or(&p.track))
                .is_some_and(|v| *v > 0)
        });
        let scripts = content.scripts.get(&card.id);
        let facts = HandCard {
            id: crate::Id::new(&card.id),
            ops: card_ops(rules, &card.id),
            gives_rp,
            event: scripts.is_some_and(|s| s.effect.is_some()),
            playable: scripts.and_then(|s| s.playable.as_ref()),
            memo: content.playable_memo(&card.id),
        };
        all.insert(card.id.as_str(), facts);
    }
    all
}

/// Where the action rounds under way stand in the sequence: (phase, step).
pub(super) fn rounds_at(state: &State) -> Option<(usize, usize)> {
    state.flow.tasks.iter().rev().find_map(|t| match t {
        Task::Rounds { at, .. } => Some(*at),
        _ => None,
    })
}

/// The action rounds step at a place of the sequence.
pub(super) fn rounds_spec<'c>(
    rules: &Rules<'c>,
    (phase, step): (usize, usize),
) -> Option<&'c crate::model::ActionRounds> {
    match rules.game.sequence.get(phase)?.steps.get(step)? {
        Step::ActionRounds(spec) => Some(spec),
        _ => None,
    }
}

/// A free action of the action rounds at a place.
pub(super) fn free_action<'c>(
    rules: &Rules<'c>,
    (phase, step, action): (usize, usize, usize),
) -> Option<&'c crate::model::FreeAction> {
    rounds_spec(rules, (phase, step))?.free_actions.get(action)
}

pub(super) fn take_action(
    rules: &Rules,
    state: &mut State,
    side: &str,
    action: &Action,
) -> Result<(), String> {
    state.flow.tasks.pop();
    let kind = match action.verb() {
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
            kept: Default::default(),
        });
        return Ok(());
    }
    let card = action.text(1).ok_or("which card?")?.to_string();
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
                kept: Default::default(),
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
                let open = pool
                    .flag
                    .as_ref()
                    .is_none_or(|f| state.flags.contains(f.as_str()));
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
pub(super) fn end_action(rules: &Rules, state: &mut State, side: &str) {
    let (m, c) = (&rules.play.move_marker, &rules.play.combat_marker);
    state.markers.retain(|x| x.marker != *m && x.marker != *c);
    state.flow.marks = Default::default();
    state.end("this_combat");
    // Automatic victories checked at the end of the side's actions.
    for (i, a) in rules.play.victory.automatic.iter().enumerate() {
        if a.side != side
            || a.unless_flag
                .as_ref()
                .is_some_and(|f| state.flags.contains(f.as_str()))
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

pub(super) fn run_event(
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
    match replayed(rules, state, effect, (&ctx, answers)) {
        Ok((Outcome::Asks(d), _)) => Some(Prompt::decision(d, &card_title(rules, card))),
        Ok((Outcome::Done, _)) => {
            state.flow.tasks.pop();
            card_played(rules, state, side, card);
            if let Some(points) = then_ops {
                state.flow.tasks.push(Task::Ops {
                    side: side.into(),
                    points,
                    stage: OpsStage::Activate,
                    kept: Default::default(),
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

pub(super) fn run_sequence_script(
    rules: &Rules,
    state: &mut State,
    side: &str,
    at: (usize, usize),
    answers: &[Vec<String>],
) -> Option<Prompt> {
    // The phase, with the rule that describes it: written only when the script asks or fails.
    let name = || {
        rules
            .game
            .sequence
            .get(at.0)
            .map_or(String::new(), |p| match p.rule.as_str() {
                "" => p.name.clone(),
                rule => format!("{} ({rule})", p.name),
            })
    };
    let stmts = rules.content.sequence.steps.get(&at);
    run_script(rules, state, side, stmts, answers, name)
}

/// Runs a script of the game's sequence (a step's, or a free action's) for a side: asks its
/// next decision, or finishes the task. A script that fails is reported and skipped.
pub(super) fn run_script(
    rules: &Rules,
    state: &mut State,
    side: &str,
    stmts: Option<&Vec<syntax::Stmt>>,
    answers: &[Vec<String>],
    name: impl FnOnce() -> String,
) -> Option<Prompt> {
    let Some(stmts) = stmts else {
        state.flow.tasks.pop();
        return None;
    };
    let ctx = side_context(rules, side);
    match replayed(rules, state, stmts, (&ctx, answers)) {
        Ok((Outcome::Asks(d), _)) => Some(Prompt::decision(d, &name())),
        Ok((Outcome::Done, _)) => {
            state.flow.tasks.pop();
            None
        }
        Err(e) => {
            state.flow.tasks.pop();
            state
                .flow
                .messages
                .push(format!("a script of the {} failed: {}", name(), e.message));
            None
        }
    }
}

/// Runs the script of the task on top with its answers, taking what its last run read before
/// the question now answered; when it asks, what it read is kept for its next run (see
/// [`super::super::KeptReplay`]).
fn replayed(
    rules: &Rules,
    state: &mut State,
    stmts: &[syntax::Stmt],
    (ctx, answers): (&Context, &[Vec<String>]),
) -> Result<(Outcome, Vec<crate::state::Modifier>), syntax::ScriptError> {
    let (content, depth) = (rules.content.memo_id(), state.flow.tasks.len());
    let kept = match std::mem::take(&mut state.flow.replay).0 {
        Some(((c, at, given), read)) if (c, at, given + 1) == (content, depth, answers.len()) => {
            read
        }
        _ => Default::default(),
    };
    let (outcome, modifiers, read) =
        eval::run_replayed(stmts, rules.content, state, (ctx, answers), kept)?;
    if matches!(outcome, Outcome::Asks(_)) && !read.is_empty() {
        let key = (content, depth, answers.len());
        state.flow.replay = KeptReplay(Some((key, std::sync::Arc::new(read))));
    }
    Ok((outcome, modifiers))
}

/// A card's title, for the questions its event asks.
pub(in crate::rules) fn card_title(rules: &Rules, card: &str) -> String {
    rules
        .content
        .card(card)
        .map_or(String::new(), |(_, c)| c.title.clone())
}

/// The context of a script run for a side, outside any card or combat.
pub(in crate::rules) fn side_context(rules: &Rules, side: &str) -> Context {
    Context {
        me: side.into(),
        enemy: rules.other_side(side).into(),
        ..Context::default()
    }
}

/// A card played: recorded, then discarded unless it leaves the game or handed itself to a
/// player (Heinrici).
pub(in crate::rules) fn card_played(rules: &Rules, state: &mut State, side: &str, card: &str) {
    state.record_played(card);
    let held = state.hands.values().any(|h| h.iter().any(|c| c == card));
    if !held && !rules.card(card).is_some_and(|c| c.remove) {
        discard(rules, state, side, card);
    }
}

/// Puts a played card on its deck's discard pile.
pub(in crate::rules) fn discard(rules: &Rules, state: &mut State, side: &str, card: &str) {
    let deck = rules.deck_of(side);
    state.put_discarded(rules.game, deck, card.to_string());
}
