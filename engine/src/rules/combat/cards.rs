//! Before the roll: a city assault's extra support point, then each side's combat cards, the
//! attacker first: any held card whose combat script would change this combat (several, then
//! `no_card`), or one card the operations' reactions allow, whose script may ask.

use super::*;
use crate::model::CombatRole;

/// A city assault's besiegers may spend a second support point for +1.
pub(super) fn support_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    if c.how.resolve == Resolve::City && c.extra.is_none() {
        if odds::may_buy_support(rules, state, &c) {
            return Some(Prompt::one_of(
                &c.side,
                "support",
                "Spend a second support point for a +1 DRM?",
                vec![
                    Action::new("support").and("yes"),
                    Action::new("support").and("no"),
                ],
            ));
        }
        c.extra = Some(false);
    }
    // The defender chooses the table, where the game gives a choice.
    if c.table.is_none() && c.how.resolve == Resolve::Odds {
        if let Some((s, _)) = odds::spec_of(rules, &c) {
            if !s.combat.defender_chooses.is_empty() {
                let defender = odds::defenders_of(rules, state, &c)
                    .first()
                    .map(|&d| rules.side(&state.units[d]).to_string())
                    .unwrap_or_else(|| rules.other_side(&c.side).to_string());
                let options = s
                    .combat
                    .defender_chooses
                    .iter()
                    .map(|t| Action::new("table").and(Word::id(t)))
                    .collect();
                return Some(Prompt::one_of(
                    &defender,
                    "table",
                    format!(
                        "Combat at {}: the defender chooses the results table",
                        c.target
                    ),
                    options,
                ));
            }
        }
    }
    c.stage = Stage::Cards(c.side.clone());
    put(state, c);
    None
}

pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    match c.how.cards {
        Cards::Hand => hand_step(rules, state, c),
        Cards::Reactions => reactions_step(rules, state, c),
    }
}

fn hand_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let Stage::Cards(side) = c.stage.clone() else {
        return None;
    };
    let attacking = side == c.side;
    let oos_defence = !attacking && {
        let mut cache = SupplyCache::default();
        c.defenders
            .iter()
            .any(|&d| cache.unit(rules, state, d) == Level::Out)
    };
    let mut options: Vec<Action> = if oos_defence {
        Vec::new()
    } else {
        playable_cards(rules, state, &c, &side)
            .into_iter()
            .map(|card| Action::new("card").and(Word::id(&card)))
            .collect()
    };
    if options.is_empty() {
        if attacking {
            c.stage = Stage::Cards(rules.other_side(&c.side).to_string());
        } else {
            resolve(rules, state, &mut c);
        }
        put(state, c);
        return None;
    }
    options.push(Action::new("no_card"));
    Some(Prompt::one_of(
        &side,
        "combat_card",
        format!("Combat at {}: play combat cards, then no_card", c.target),
        options,
    ))
}

/// The sides in a combat, the attacker first.
pub(super) fn combat_sides(rules: &Rules, state: &State, c: &CombatTask) -> Vec<String> {
    let mut sides = vec![c.side.clone()];
    for d in odds::defenders_of(rules, state, c) {
        let side = rules.side(&state.units[d]).to_string();
        if !sides.contains(&side) {
            sides.push(side);
        }
    }
    sides
}

/// Reactions: each side in turn may play one card the operations' reactions allow now; a
/// card's script runs in the combat and may ask. Then the combat is resolved.
fn reactions_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    if let Some(p) = reaction(rules, state, &mut c) {
        put(state, c);
        return Some(p);
    }
    if c.card.is_none() && c.offered.len() >= combat_sides(rules, state, &c).len() {
        resolve(rules, state, &mut c);
    }
    put(state, c);
    None
}

fn reaction(rules: &Rules, state: &mut State, c: &mut CombatTask) -> Option<Prompt> {
    c.defenders = odds::defenders_of(rules, state, c);
    if let Some((side, card, answers)) = c.card.clone() {
        let ctx = Context {
            card: Some(card.clone()),
            ..odds::combat_context(rules, c, &side)
        };
        let script = rules
            .content
            .scripts
            .get(&card)
            .and_then(|x| x.combat.as_ref());
        let outcome = script.map(|stmts| eval::run(stmts, rules.content, state, &ctx, &answers));
        match outcome {
            Some(Ok((Outcome::Asks(d), _))) => {
                return Some(Prompt::decision(
                    d,
                    &super::super::procedures::card_title(rules, &card),
                ))
            }
            Some(Err(e)) => state.flow.messages.push(format!(
                "the combat card `{card}` could not be carried out: {}",
                e.message
            )),
            _ => super::super::procedures::card_played(rules, state, &side, &card),
        }
        c.card = None;
        return None;
    }
    let (s, place) = odds::spec_of(rules, c)?;
    let sides = combat_sides(rules, state, c);
    let side = sides.iter().find(|x| !c.offered.contains(x))?.clone();
    let role = if side == c.side {
        CombatRole::Attackers
    } else {
        CombatRole::Defenders
    };
    let ctx = odds::combat_context(rules, c, &side);
    let held = state.hands.get(&side).cloned().unwrap_or_default();
    let cards: Vec<String> = s
        .reactions
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.by == role
                && held.contains(&r.card)
                && odds::holds(rules, state, &format!("{place}/reactions/{i}/when"), &ctx)
        })
        .map(|(_, r)| r.card.clone())
        .collect();
    if cards.is_empty() {
        c.offered.push(side);
        return None;
    }
    let mut options: Vec<Action> = cards
        .iter()
        .map(|c| Action::new("card").and(Word::id(c)))
        .collect();
    options.push(Action::new("no").and("card"));
    Some(Prompt::one_of(
        &side,
        "combat_card",
        format!("Combat at {}: play a card before the roll?", c.target),
        options,
    ))
}

pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    prompt: &Prompt,
    action: &Action,
) -> Result<(), String> {
    let arg = action.text(1).unwrap_or("");
    match (&c.stage, c.how.cards, action.words()) {
        (Stage::Support, _, [Text("support"), Text(answer)]) => c.extra = Some(*answer == "yes"),
        (Stage::Support, _, [Text("table"), Text(table)]) => c.table = Some(table.to_string()),
        (Stage::Cards(side), Cards::Hand, [Text("card"), _]) => {
            let side = side.clone();
            let kept = state
                .kept_cards
                .get(&side)
                .is_some_and(|k| k.iter().any(|x| x == arg));
            if kept {
                // A card kept face up, used again (7.64).
                state.flow.marks.kept_used.insert(arg.to_string());
            } else if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|x| x != arg);
            }
            let ctx = card_context(rules, &c, &side, arg);
            if let Some(script) = rules
                .content
                .scripts
                .get(arg)
                .and_then(|s| s.combat.as_ref())
            {
                if let Ok((Outcome::Done, mods)) =
                    eval::run(script, rules.content, state, &ctx, &[])
                {
                    c.modifiers.extend(mods);
                }
            }
            c.cards.push((side, arg.to_string()));
        }
        (Stage::Cards(side), Cards::Hand, [Text("no_card")]) => {
            if *side == c.side {
                c.stage = Stage::Cards(rules.other_side(&c.side).to_string());
            } else {
                resolve(rules, state, &mut c);
            }
        }
        (Stage::Cards(_), Cards::Reactions, [Text("card"), Text(card)])
            if prompt.kind == "combat_card" =>
        {
            let side = prompt.side.to_string();
            if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|c| c != card);
            }
            c.offered.push(side.clone());
            c.card = Some((side, card.to_string(), Vec::new()));
        }
        (Stage::Cards(_), Cards::Reactions, [Text("no"), Text("card")]) => {
            c.offered.push(prompt.side.to_string())
        }
        (Stage::Cards(_), Cards::Reactions, [Text("choose"), picked @ ..])
            if prompt.kind == "decision" =>
        {
            if let Some((_, _, answers)) = &mut c.card {
                answers.push(picked.iter().map(|p| p.to_string()).collect());
            }
        }
        _ => return misfit(action),
    }
    put(state, c);
    Ok(())
}
