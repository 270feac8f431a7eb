//! Combat: designate the attack, combat cards, fire on the fire tables with terrain shifts and
//! die-roll modifiers, losses against loss factors (large units stepping down to small ones
//! from the reserve), the winner, retreat or the no-retreat step loss, and advance.
//!
//! Losses are chosen by the side that takes them, one step at a time, and only steps that
//! keep the largest total the loss number allows are offered: a player can never take fewer
//! losses than required when the exact number could be taken, nor more than the number.

use std::collections::BTreeMap;

use super::losses::eliminate;
mod fire;

pub use super::losses::{lose_step, loss_options};
use super::procedures::{
    discard, enemy_in, enter, find_unit, leave_stand_fast, may_enter, may_operate, may_stack,
    movable, offensive_made, SupplyCache,
};
use super::supply::Level;
use super::{battle, hooks, movement, retreat, Prompt, Rules, Task};
use crate::model::{Cell, HookPoint, Scalar};
use crate::script::eval::{self, Combat, Context, Outcome};
use crate::state::{space_in_region, Loc, Modifier, ModifierEffect, State};
use crate::tables::{ColumnInput, RowInput};
pub use fire::terrain_rows;
use fire::*;

/// A combat under way.
#[derive(Debug, Clone, PartialEq)]
pub struct CombatTask {
    /// The attacking side.
    pub side: String,
    pub target: String,
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    pub stage: Stage,
    /// Combat cards played, by side.
    pub cards: Vec<(String, String)>,
    /// Modifiers the combat cards gave this combat.
    pub modifiers: Vec<Modifier>,
    /// The loss numbers each side inflicted: on the defender, on the attacker.
    pub on_defender: u32,
    pub on_attacker: u32,
    /// Loss still to take in the current losses stage.
    pub remaining: u32,
    pub retreat: u32,
    /// Units still to retreat, and the spaces left for the one retreating.
    pub retreating: Vec<usize>,
    pub retreat_left: u32,
    /// Spaces each advancing unit may still advance.
    pub advance: BTreeMap<usize, u32>,
    /// The steps of the attackers and of the defenders when they began to fight.
    pub steps_before: (u32, u32),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    Commit,
    Cards(String),
    Losses(String),
    NoRetreat,
    Retreat,
    Advance,
}

impl CombatTask {
    pub fn new(side: &str, target: &str) -> CombatTask {
        CombatTask {
            side: side.to_string(),
            target: target.to_string(),
            attackers: Vec::new(),
            defenders: Vec::new(),
            stage: Stage::Commit,
            cards: Vec::new(),
            modifiers: Vec::new(),
            on_defender: 0,
            on_attacker: 0,
            remaining: 0,
            retreat: 0,
            retreating: Vec::new(),
            retreat_left: 0,
            advance: BTreeMap::new(),
            steps_before: (0, 0),
        }
    }
}

fn put(state: &mut State, c: CombatTask) {
    if let Some(Task::Combat(top)) = state.flow.tasks.last_mut() {
        **top = c;
    }
}

/// Spaces a side may attack now: enemy-occupied, next to one of its spaces marked for combat
/// with units that have not fought, not yet attacked this action, not banned.
pub fn targets(rules: &Rules, state: &State, side: &str) -> Vec<String> {
    let g = &rules.content.graph;
    let mut out = std::collections::BTreeSet::new();
    for m in state
        .markers
        .iter()
        .filter(|m| m.marker == rules.play.combat_marker)
    {
        let ready = state
            .units_at(&m.space)
            .any(|(i, u)| rules.side(u) == side && !state.flow.marks.fought.contains(&i));
        let Some(from) = g.index_of(&m.space) else {
            continue;
        };
        if !ready {
            continue;
        }
        for &(n, e) in g.neighbours(from) {
            let id = &g.spaces[n].id;
            if movable(rules, e)
                && enemy_in(rules, state, id, side)
                && !state.flow.marks.attacked.contains(id)
                && !banned(rules, state, side, id)
                && may_enter_or_attack(rules, side, n)
            {
                out.insert(id.clone());
            }
        }
    }
    out.into_iter().collect()
}

fn may_enter_or_attack(rules: &Rules, side: &str, space: usize) -> bool {
    let s = &rules.content.graph.spaces[space];
    !rules.play.no_entry.iter().any(|n| {
        n.side == side
            && (n.spaces.contains(&s.id)
                || s.terrain.as_ref().is_some_and(|t| n.terrains.contains(t)))
    })
}

fn banned(rules: &Rules, state: &State, side: &str, space: &str) -> bool {
    rules.play.attack_bans.iter().any(|b| {
        b.side == side
            && !state.flags.contains(&b.until_flag)
            && (b.spaces.iter().any(|s| s == space)
                || b.regions
                    .iter()
                    .any(|r| space_in_region(rules.content, space, r)))
    })
}

/// Units that may join the attack on the target.
fn eligible(rules: &Rules, state: &State, c: &CombatTask) -> Vec<usize> {
    let g = &rules.content.graph;
    let Some(t) = g.index_of(&c.target) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(n, e) in g.neighbours(t) {
        let space = &g.spaces[n].id;
        if !movable(rules, e)
            || !state
                .markers
                .iter()
                .any(|m| m.marker == rules.play.combat_marker && m.space == *space)
        {
            continue;
        }
        for (i, u) in state.units_at(space) {
            if rules.side(u) == c.side
                && !state.flow.marks.fought.contains(&i)
                && !c.attackers.contains(&i)
                && battle::may_attack(rules, state, i, space, &c.target)
            {
                out.push(i);
            }
        }
    }
    out
}

/// Whether the committed attackers may fight: besides one space, every space they attack from
/// holds an attacking mechanized unit.
pub fn may_fight(rules: &Rules, state: &State, attackers: &[usize]) -> bool {
    let mut spaces: BTreeMap<&Loc, bool> = BTreeMap::new();
    for &a in attackers {
        let u = &state.units[a];
        *spaces.entry(&u.at).or_insert(false) |= rules.is_mech_now(state, u);
    }
    !attackers.is_empty() && spaces.values().filter(|m| !**m).count() <= 1
}

/// Runs the combat on: a prompt, or an automatic step.
pub(super) fn step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let defender = rules.other_side(&c.side).to_string();
    match c.stage.clone() {
        Stage::Commit => {
            let mut options: Vec<String> = eligible(rules, state, &c)
                .into_iter()
                .map(|i| format!("with {}", state.units[i].name(rules.content)))
                .collect();
            if may_fight(rules, state, &c.attackers) {
                options.push("fight".into());
            }
            options.push("cancel".into());
            Some(Prompt::one_of(
                &c.side,
                "commit",
                format!("Attack {}: add units, then fight", c.target),
                options,
            ))
        }
        Stage::Cards(side) => {
            let attacking = side == c.side;
            let oos_defence = !attacking && {
                let mut cache = SupplyCache::default();
                c.defenders
                    .iter()
                    .any(|&d| cache.unit(rules, state, d) == Level::Out)
            };
            let mut options: Vec<String> = if oos_defence {
                Vec::new()
            } else {
                playable_cards(rules, state, &c, &side)
                    .into_iter()
                    .map(|card| format!("card {card}"))
                    .collect()
            };
            if options.is_empty() {
                c.stage = if attacking {
                    Stage::Cards(defender)
                } else {
                    resolve(rules, state, &mut c);
                    Stage::Losses(rules.other_side(&c.side).to_string())
                };
                put(state, c);
                return None;
            }
            options.push("no_card".into());
            Some(Prompt::one_of(
                &side,
                "combat_card",
                format!("Combat at {}: play combat cards, then no_card", c.target),
                options,
            ))
        }
        Stage::Losses(side) => {
            let units = if side == c.side {
                c.attackers.clone()
            } else {
                c.defenders.clone()
            };
            let units: Vec<usize> = units
                .into_iter()
                .filter(|&u| matches!(state.units[u].at, Loc::Space(_)))
                .collect();
            let options = loss_options(rules, state, &units, c.remaining);
            if options.is_empty() {
                if side != c.side {
                    c.stage = Stage::Losses(c.side.clone());
                    c.remaining = c.on_attacker;
                } else {
                    after_losses(rules, state, &mut c);
                }
                put(state, c);
                return None;
            }
            let options = options
                .into_iter()
                .map(|u| format!("lose {}", state.units[u].name(rules.content)))
                .collect();
            Some(Prompt::one_of(
                &side,
                "losses",
                format!("Take losses at {} ({} left)", c.target, c.remaining),
                options,
            ))
        }
        Stage::NoRetreat => {
            let mut options: Vec<String> = alive(state, &c.defenders)
                .into_iter()
                .map(|u| format!("hold {}", state.units[u].name(rules.content)))
                .collect();
            options.push("retreat".into());
            Some(Prompt::one_of(
                &defender,
                "no_retreat",
                format!(
                    "Retreat {} spaces from {}, or hold by losing a step",
                    c.retreat, c.target
                ),
                options,
            ))
        }
        Stage::Retreat => {
            let Some(&u) = c.retreating.first() else {
                start_advance(rules, state, &mut c);
                put(state, c);
                return None;
            };
            let options = retreat_options(rules, state, &c, u);
            if options.is_empty() {
                // No way back: the unit is eliminated (11.43).
                eliminate(rules, state, u);
                c.retreating.remove(0);
                c.retreat_left = c.retreat;
                put(state, c);
                return None;
            }
            let name = state.units[u].name(rules.content);
            let options = options
                .into_iter()
                .map(|s| format!("retreat {name} {s}"))
                .collect();
            Some(Prompt::one_of(
                &defender,
                "retreat",
                format!("Retreat {name} ({} spaces left)", c.retreat_left),
                options,
            ))
        }
        Stage::Advance => {
            let options = advance_options(rules, state, &c);
            if options.is_empty() {
                finish(rules, state, &c);
                return None;
            }
            let mut options = options;
            options.push("done".into());
            Some(Prompt::one_of(
                &c.side,
                "advance",
                format!("Advance after the combat at {}, then done", c.target),
                options,
            ))
        }
    }
}

/// Performs a combat action.
pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    _prompt: &Prompt,
    words: &[&str],
) -> Result<(), String> {
    let arg = words.get(1).copied().unwrap_or("");
    match (&c.stage, words[0]) {
        (Stage::Commit, "with") => {
            let u = find_unit(rules, state, arg)?;
            c.attackers.push(u);
        }
        (Stage::Commit, "cancel") => {
            state.flow.tasks.pop();
            return Ok(());
        }
        (Stage::Commit, "fight") => {
            c.defenders = state
                .units_at(&c.target)
                .filter(|(_, u)| rules.side(u) != c.side)
                .map(|(i, _)| i)
                .collect();
            state.flow.marks.attacked.insert(c.target.clone());
            offensive_made(rules, state, &c.attackers, &c.target, true);
            for &a in &c.attackers {
                state.flow.marks.fought.insert(a);
            }
            c.steps_before = (
                battle::steps_on_map(rules, state, &c.attackers),
                battle::steps_on_map(rules, state, &c.defenders),
            );
            c.stage = Stage::Cards(c.side.clone());
        }
        (Stage::Cards(side), "card") => {
            let side = side.clone();
            if let Some(hand) = state.hands.get_mut(&side) {
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
        (Stage::Cards(side), "no_card") => {
            if *side == c.side {
                c.stage = Stage::Cards(rules.other_side(&c.side).to_string());
            } else {
                resolve(rules, state, &mut c);
                c.stage = Stage::Losses(rules.other_side(&c.side).to_string());
            }
        }
        (Stage::Losses(_), "lose") => {
            let u = find_unit(rules, state, arg)?;
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
        (Stage::NoRetreat, "hold") => {
            let u = find_unit(rules, state, arg)?;
            lose_step(rules, state, u);
            finish(rules, state, &c);
            return Ok(());
        }
        (Stage::NoRetreat, "retreat") => {
            c.retreating = alive(state, &c.defenders);
            c.retreat_left = c.retreat;
            c.stage = Stage::Retreat;
        }
        (Stage::Retreat, "retreat") => {
            let u = find_unit(rules, state, arg)?;
            let to = words.get(2).ok_or("where to?")?.to_string();
            leave_stand_fast(rules, state, u, &to, true);
            let from = match &state.units[u].at {
                Loc::Space(s) => s.clone(),
                _ => String::new(),
            };
            enter(rules, state, u, &to);
            movement::after_step(rules, state, HookPoint::AfterRetreat, u, (&from, &to));
            state.flow.marks.retreated.insert(u);
            c.retreat_left = c.retreat_left.saturating_sub(1);
            if c.retreat_left == 0 {
                c.retreating.retain(|&x| x != u);
                c.retreat_left = c.retreat;
            }
        }
        (Stage::Advance, "advance") => {
            let u = find_unit(rules, state, arg)?;
            let to = words.get(2).ok_or("where to?")?.to_string();
            leave_stand_fast(rules, state, u, &to, true);
            enter(rules, state, u, &to);
            let stop = stops_mech(rules, state, &to);
            if let Some(left) = c.advance.get_mut(&u) {
                *left = if stop { 0 } else { left.saturating_sub(1) };
            }
        }
        (Stage::Advance, "done") => {
            finish(rules, state, &c);
            return Ok(());
        }
        _ => return Err(format!("`{}` does not fit this step", words.join(" "))),
    }
    put(state, c);
    Ok(())
}

fn alive(state: &State, units: &[usize]) -> Vec<usize> {
    units
        .iter()
        .copied()
        .filter(|&u| matches!(state.units[u].at, Loc::Space(_)))
        .collect()
}

fn after_losses(rules: &Rules, state: &mut State, c: &mut CombatTask) {
    let attacker_won = c.on_defender > c.on_attacker;
    for (side, card) in std::mem::take(&mut c.cards) {
        if !rules.card(&card).is_some_and(|x| x.remove) {
            discard(rules, state, &side, &card);
        }
    }
    let left = alive(state, &c.defenders);
    if left.is_empty() {
        start_advance(rules, state, c);
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

fn start_advance(rules: &Rules, state: &State, c: &mut CombatTask) {
    c.advance.clear();
    if alive(state, &c.defenders)
        .iter()
        .any(|&u| state.units[u].at == Loc::Space(c.target.clone()))
    {
        c.stage = Stage::Advance;
        return;
    }
    let mech_far = if c.retreat == 1 {
        rules.play.mech_advance.saturating_sub(1)
    } else {
        rules.play.mech_advance
    };
    for u in alive(state, &c.attackers) {
        let unit = &state.units[u];
        let far = if rules
            .play
            .short_advance
            .iter()
            .any(|t| t == rules.unit_type(unit))
        {
            1
        } else if rules.is_mech_now(state, unit) {
            mech_far
        } else {
            1
        };
        let far = rules
            .movement_cap(state, unit)
            .map_or(far, |(_, cap)| far.min(cap));
        c.advance.insert(u, far);
    }
    c.stage = Stage::Advance;
}

fn advance_options(rules: &Rules, state: &State, c: &CombatTask) -> Vec<String> {
    let g = &rules.content.graph;
    let mut out = Vec::new();
    for (&u, &left) in &c.advance {
        let unit = &state.units[u];
        let Loc::Space(at) = &unit.at else { continue };
        if left == 0 {
            continue;
        }
        let Some(from) = g.index_of(at) else { continue };
        let mech = rules.is_mech_now(state, unit);
        for &(n, e) in g.neighbours(from) {
            let to = &g.spaces[n].id;
            if !mech && *to != c.target {
                continue;
            }
            if !movable(rules, e)
                || !may_enter(rules, state, &c.side, n)
                || enemy_in(rules, state, to, &c.side)
                || !may_stack(rules, state, u, to)
                || (mech
                    && state
                        .markers
                        .iter()
                        .any(|m| m.marker == rules.play.combat_marker && m.space == *to))
                || !movement::may(rules, state, HookPoint::MayAdvance, u, (at, to))
            {
                continue;
            }
            out.push(format!("advance {} {to}", unit.name(rules.content)));
        }
    }
    out
}

pub fn retreat_options(rules: &Rules, state: &State, c: &CombatTask, unit: usize) -> Vec<String> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let side = rules.side(u);
    let last = c.retreat_left <= 1;
    // A full-length retreat that may not end next to the defended space (B2B 4.4).
    let away = last
        && c.retreat > 1
        && rules.play.retreat_away.iter().any(|r| {
            r.turns.contains(&state.turn) && r.nations.iter().any(|n| n == rules.nation(u))
        });
    let target = g.index_of(&c.target);
    retreat::options(rules, state, unit, |n, e| {
        let to = &g.spaces[n].id;
        if *to == c.target
            || !movable(rules, e)
            || !may_enter(rules, state, side, n)
            || enemy_in(rules, state, to, side)
            || !may_operate(rules, state, unit, to)
            || (last && !may_stack(rules, state, unit, to))
            || (away && target.is_some_and(|t| g.neighbours(t).iter().any(|&(x, _)| x == n)))
        {
            return None;
        }
        // Into a friendly space if there is one.
        Some(u8::from(
            state.control.get(to).map(String::as_str) != Some(side),
        ))
    })
}

fn finish(rules: &Rules, state: &mut State, c: &CombatTask) {
    state.end("this_combat");
    state.flow.tasks.pop();
    let fight = fight_of(c);
    battle::after_combat(rules, state, &fight, c.steps_before);
}

fn fight_of(c: &CombatTask) -> battle::Fight<'_> {
    battle::Fight {
        attacker: &c.side,
        attackers: &c.attackers,
        defenders: &c.defenders,
        space: &c.target,
    }
}
