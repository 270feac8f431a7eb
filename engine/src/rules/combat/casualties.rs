//! Taking the losses the resolution inflicted, the defender's first: loss numbers against loss
//! factors (the side that takes them chooses, one step at a time), or step losses spread over
//! the units (every unit loses one before any loses a second). Then the winner and the
//! retreat it imposes.

use super::*;
use crate::rules::losses;

pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    match c.how.losses {
        Losses::Numbers => numbers_step(rules, state, c),
        Losses::Spread => spread_step(rules, state, c),
    }
}

fn numbers_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let Stage::Losses(attacking) = c.stage else {
        return None;
    };
    let (side, units) = if attacking {
        (c.side.clone(), c.attackers.clone())
    } else {
        (rules.other_side(&c.side).to_string(), c.defenders.clone())
    };
    let units = alive(state, &units);
    let mut options = loss_options(rules, state, &units, c.remaining);
    // An attacker that must take its side's first loss takes it, if it can (11.32).
    if attacking && c.remaining == c.on_attacker {
        let first: Vec<usize> = options
            .iter()
            .copied()
            .filter(|&u| {
                rules
                    .play
                    .attack_first_loss
                    .iter()
                    .any(|x| *x == state.units[u].counter)
            })
            .collect();
        if !first.is_empty() {
            options = first;
        }
    }
    if options.is_empty() {
        if !attacking {
            c.stage = Stage::Losses(true);
            c.remaining = c.on_attacker;
        } else {
            after_losses(rules, state, &mut c);
        }
        put(state, c);
        return None;
    }
    let options = options
        .into_iter()
        .map(|u| Action::new("lose").and_unit(rules.content, state, u))
        .collect();
    Some(Prompt::one_of(
        &side,
        "losses",
        format!("Take losses at {} ({} left)", c.target, c.remaining),
        options,
    ))
}

/// After the losses by loss numbers: the cards go (the winner's kept face up, where the game
/// keeps them), and the winner by one imposes a retreat of one space, by more the game's
/// maximum; defenders that may hold choose.
fn after_losses(rules: &Rules, state: &mut State, c: &mut CombatTask) {
    let attacker_won = c.on_defender > c.on_attacker;
    let defender_won = c.on_attacker > c.on_defender;
    for (side, card) in std::mem::take(&mut c.cards) {
        let won = if side == c.side {
            attacker_won
        } else {
            defender_won
        };
        if let Some(kept) = state.kept_cards.get_mut(&side) {
            kept.retain(|k| *k != card);
        }
        if rules.card(&card).is_some_and(|x| x.remove) {
            // Removed from the game after the combat.
            continue;
        }
        if won && rules.play.combat_cards_kept {
            // The winner keeps its cards face up for later combats, from its next action on
            // (7.64).
            state.flow.marks.kept_used.insert(card.clone());
            state.kept_cards.entry(side).or_default().push(card);
        } else {
            discard(rules, state, &side, &card);
        }
    }
    let left = alive(state, &c.defenders);
    if left.is_empty() {
        advance::start(rules, state, c);
        return;
    }
    if !attacker_won {
        c.stage = Stage::Advance;
        c.advance.clear();
        return;
    }
    c.retreat = if c.on_defender - c.on_attacker == 1 {
        1
    } else {
        rules.play.max_retreat
    };
    let steps: u32 = left.iter().map(|&u| rules.steps(&state.units[u])).sum();
    if steps >= 2 && no_retreat_allowed(rules, state, c) {
        c.stage = Stage::NoRetreat;
    } else {
        c.retreating = left;
        c.retreat_left = c.retreat;
        c.stage = Stage::Retreat;
    }
}

fn spread_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    if c.on_defender == 0 && c.exchange > 0 {
        return exchange_step(rules, state, c);
    }
    if c.on_defender == 0 && c.on_attacker == 0 {
        if c.attacker_retreat {
            // The attackers retreat after the defenders' retreat, if any.
            c.attacker_retreat = false;
            c.retreating = alive(state, &c.attackers);
            c.stage = Stage::Retreat;
            put(state, c);
            return None;
        }
        c.stage = if c.retreat > 0 && c.how.retreat != Retreat::None {
            Stage::Retreat
        } else {
            Stage::Advance
        };
        put(state, c);
        return None;
    }
    let defending = c.on_defender > 0;
    let (units, attacking_side) = if defending {
        (c.defenders.clone(), c.side.as_str())
    } else {
        (c.attackers.clone(), "")
    };
    let units = alive(state, &units);
    if units.is_empty() {
        if defending {
            c.on_defender = 0;
        } else {
            c.on_attacker = 0;
        }
        put(state, c);
        return None;
    }
    let candidates = losses::spread(rules, state, (&c.taken, c.turn), &units, attacking_side);
    if candidates.len() == 1 {
        take_loss(rules, state, &mut c, candidates[0]);
        put(state, c);
        return None;
    }
    let owner = rules.side(&state.units[candidates[0]]).to_string();
    let options = candidates
        .iter()
        .map(|&u| Action::new("lose").and_unit(rules.content, state, u))
        .collect();
    Some(Prompt::one_of(
        &owner,
        "losses",
        "Which unit takes the next step loss?",
        options,
    ))
}

/// An exchange: the attacker loses units of at least the defenders' printed defence in
/// printed strength, choosing which (all of them when they have less).
fn exchange_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let units = alive(state, &c.attackers);
    if units.is_empty() {
        c.exchange = 0;
        put(state, c);
        return None;
    }
    if units.len() == 1 {
        exchange_loss(rules, state, &mut c, units[0]);
        put(state, c);
        return None;
    }
    let options = units
        .iter()
        .map(|&u| Action::new("lose").and_unit(rules.content, state, u))
        .collect();
    Some(Prompt::one_of(
        &c.side,
        "losses",
        format!(
            "Exchange at {}: which attacking unit is eliminated ({} strength left to lose)?",
            c.target, c.exchange
        ),
        options,
    ))
}

fn exchange_loss(rules: &Rules, state: &mut State, c: &mut CombatTask, unit: usize) {
    let lost = odds::spec_of(rules, c).map_or(0, |(s, _)| {
        odds::printed(rules, state, s, unit, true).max(0) as u32
    });
    c.exchange = c.exchange.saturating_sub(lost.max(1));
    crate::rules::losses::eliminate(rules, state, unit);
}

/// One step of a spread loss, on the side whose turn it is.
fn take_loss(rules: &Rules, state: &mut State, c: &mut CombatTask, unit: usize) {
    *c.taken.entry(unit).or_insert(0) += 1;
    c.turn += 1;
    lose_step(rules, state, unit);
    if c.on_defender > 0 {
        c.on_defender -= 1;
    } else {
        c.on_attacker = c.on_attacker.saturating_sub(1);
    }
}

pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    action: &Action,
) -> Result<(), String> {
    let [Text("lose"), Unit { index, .. }] = action.words() else {
        return misfit(action);
    };
    let u = *index as usize;
    match c.how.losses {
        Losses::Numbers => {
            let lf = rules.loss_factor(&state.units[u]) as u32;
            c.remaining = c.remaining.saturating_sub(lf);
            if let Some(by) = lose_step(rules, state, u) {
                for list in [&mut c.attackers, &mut c.defenders] {
                    if list.contains(&u) {
                        list.push(by);
                    }
                }
            }
        }
        Losses::Spread if c.on_defender == 0 && c.exchange > 0 => {
            exchange_loss(rules, state, &mut c, u)
        }
        Losses::Spread => take_loss(rules, state, &mut c, u),
    }
    put(state, c);
    Ok(())
}
