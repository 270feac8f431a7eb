//! Resolution by odds: one roll on the odds table of the operations (or a city's table), the
//! strengths and die-roll modifiers through the hooks, the ratio rounded for the defender;
//! the results are step losses, a retreat and, in a city, the besiegers' progress.

use super::*;
use crate::model::{CityCombat, CombatDrm, Impulses};
use crate::rules::impulses::zone;
use crate::rules::procedures::run_rule_script;
use crate::state::{marker_level, set_marker_level};

/// The operations' parameters the combat reads, with their place in `game.ron`.
pub(super) fn spec_of<'c>(rules: &Rules<'c>, c: &CombatTask) -> Option<(&'c Impulses, String)> {
    let at = c.how.at?;
    Some((zone::spec(rules, at)?, zone::pointer(at)))
}

/// The units in the attacked space hostile to the first attacker, but the bystanders.
pub(super) fn defenders_of(rules: &Rules, state: &State, c: &CombatTask) -> Vec<usize> {
    let Some(&a) = c.attackers.first() else {
        return Vec::new();
    };
    state
        .units_at(&c.target)
        .filter(|(i, _)| zone::hostile(rules, state, a, *i) && !bystander(rules, state, c, *i))
        .map(|(i, _)| i)
        .collect()
}

/// Whether a unit in the attacked space stands by without defending it (the operations'
/// `bystanders` condition holds of it).
pub(super) fn bystander(rules: &Rules, state: &State, c: &CombatTask, unit: usize) -> bool {
    let Some((s, place)) = spec_of(rules, c) else {
        return false;
    };
    if s.combat.bystanders.is_empty() {
        return false;
    }
    let side = rules.side(&state.units[unit]);
    let ctx = Context {
        names: vec![crate::rules::hooks::unit("u", unit)],
        ..crate::rules::procedures::side_context(rules, &side)
    };
    holds(rules, state, &format!("{place}/combat/bystanders"), &ctx)
}

/// The units in the attacked space that stand by.
fn bystanders_of(rules: &Rules, state: &State, c: &CombatTask) -> Vec<usize> {
    let Some(&a) = c.attackers.first() else {
        return Vec::new();
    };
    state
        .units_at(&c.target)
        .filter(|(i, _)| zone::hostile(rules, state, a, *i) && bystander(rules, state, c, *i))
        .map(|(i, _)| i)
        .collect()
}

/// The bystanders the defenders' retreat left alone in the attacked space are eliminated.
pub(super) fn eliminate_bystanders(rules: &Rules, state: &mut State, c: &CombatTask) {
    let Some(&a) = c.attackers.first() else {
        return;
    };
    let left: Vec<usize> = state
        .units_at(&c.target)
        .filter(|(i, _)| zone::hostile(rules, state, a, *i))
        .map(|(i, _)| i)
        .collect();
    if !left.is_empty() && left.iter().all(|u| c.bystanders.contains(u)) {
        for u in left {
            let name = state.units[u].name(rules.content);
            state.flow.messages.push(format!(
                "{name}, left alone in {} by the defenders' retreat, is eliminated",
                c.target
            ));
            eliminate(rules, state, u);
        }
    }
}

pub(super) fn combat_context(rules: &Rules, c: &CombatTask, side: &str) -> Context {
    Context {
        me: side.into(),
        enemy: rules.other_side(side).into(),
        combat: Some(Combat {
            attacking: side == c.side,
            attackers: c.attackers.clone(),
            defenders: c.defenders.clone(),
            defending_space: c.target.clone(),
        }),
        ..Context::default()
    }
}

pub(super) use zone::holds;

fn city<'c>(rules: &Rules<'c>, c: &CombatTask) -> Option<&'c CityCombat> {
    spec_of(rules, c)?.0.city.as_ref()
}

/// Whether the besiegers may spend a second support point.
pub(super) fn may_buy_support(rules: &Rules, state: &State, c: &CombatTask) -> bool {
    let Some(city) = city(rules, c) else {
        return false;
    };
    let besieging = c
        .attackers
        .first()
        .is_some_and(|&u| zone::is_besieger(rules, state, city, u));
    besieging && zone::support(state, city, &c.side) >= 2
}

/// A city assault: at least one unit in the city space, helpers from one space outside
/// (9.2.4).
pub(super) fn city_assault_allowed(
    state: &State,
    c: &CombatTask,
    units: &[usize],
) -> Result<(), String> {
    let outside: std::collections::BTreeSet<&str> = units
        .iter()
        .filter_map(|&u| zone::on_map(state, u))
        .filter(|at| *at != c.target)
        .collect();
    if outside.len() > 1 {
        return Err("units from outside the city may come from one space only".into());
    }
    if !units
        .iter()
        .any(|&u| zone::on_map(state, u) == Some(c.target.as_str()))
    {
        return Err("at least one unit in the city space must attack".into());
    }
    Ok(())
}

fn drm_total(
    rules: &Rules,
    state: &State,
    (drms, place): (&[CombatDrm], &str),
    c: &CombatTask,
) -> i32 {
    let ctx = combat_context(rules, c, &c.side);
    drms.iter()
        .enumerate()
        .filter(|(i, _)| holds(rules, state, &format!("{place}/{i}/when"), &ctx))
        .map(|(_, d)| d.drm)
        .sum()
}

pub(super) fn resolve(rules: &Rules, state: &mut State, c: &mut CombatTask) {
    let Some((s, place)) = spec_of(rules, c) else {
        return;
    };
    let side = c.side.clone();
    let Some(&first) = c.attackers.first() else {
        return;
    };
    let in_city = c.how.resolve == Resolve::City;
    c.defenders = defenders_of(rules, state, c);
    c.bystanders = bystanders_of(rules, state, c);
    c.from = c
        .attackers
        .iter()
        .filter_map(|&u| zone::on_map(state, u).map(str::to_string))
        .collect();
    c.steps_before = (
        battle::steps_on_map(rules, state, &c.attackers),
        battle::steps_on_map(rules, state, &c.defenders),
    );
    let mut acted = battle::Acted::new();
    let attackers = c.attackers.clone();
    let mut strength = |u: usize, attacking: bool| {
        let printed = i64::from(printed(rules, state, s, u, attacking));
        battle::strength(
            rules,
            state,
            (u, &mut acted),
            (&c.target, attacking, &attackers),
            printed,
        )
    };
    let attack: i64 = c
        .attackers
        .iter()
        .map(|&u| strength(u, true))
        .fold(0i64, |a, x| a.saturating_add(x));
    c.supporters = supporters(rules, state, s, c);
    let attack = c.supporters.iter().fold(attack, |a, &u| {
        let extra = s
            .combat
            .support
            .iter()
            .find(|r| {
                r.types
                    .iter()
                    .any(|t| t == rules.unit_type(&state.units[u]))
            })
            .map_or(0, |r| {
                let strength = r
                    .while_flag
                    .iter()
                    .find(|f| state.flags.contains(f.flag.as_str()))
                    .map_or(r.strength, |f| f.strength);
                i64::from(strength.max(0))
            });
        a.saturating_add(extra)
    });
    let mut defence: i64 = c
        .defenders
        .iter()
        .map(|&u| strength(u, false))
        .fold(0i64, |a, x| a.saturating_add(x));
    let (table_id, drm) = match (&s.city, in_city) {
        (Some(city), true) => {
            let besieging = zone::is_besieger(rules, state, city, first);
            if besieging {
                defence += zone::garrison(rules, state, city, &c.target);
                if let Some(track) = zone::support_track(city, &side) {
                    let cost = if c.extra == Some(true) { 2 } else { 1 };
                    *state.tracks.entry(track.into()).or_insert(0) -= cost;
                }
            }
            let mut drm = if besieging {
                let place = format!("{place}/city/drms");
                drm_total(rules, state, (&city.drms, &place), c)
            } else {
                0
            };
            if c.extra == Some(true) {
                drm += 1;
            }
            (city.table.clone(), drm)
        }
        // Outside a city, the die-roll modifiers are all hooks.
        _ => (c.table.clone().unwrap_or_else(|| s.combat.table.clone()), 0),
    };
    if !in_city
        && s.evade_flags
            .iter()
            .any(|f| state.flags.contains(f.as_str()))
    {
        // The defenders slip away before the roll (Heinrici).
        state.flow.messages.push(format!(
            "the defenders of {} retreat before combat without losses",
            c.target
        ));
        c.retreat = 1;
        return;
    }
    let Some(table) = rules.content.tables.iter().find(|x| x.id == table_id) else {
        return;
    };
    let fight = fight_of(c);
    let drm = battle::roll_modifier(
        rules,
        state,
        (HookPoint::Drm, &mut acted),
        (&fight, true),
        drm,
    );
    let shift = battle::roll_modifier(
        rules,
        state,
        (HookPoint::Shift, &mut acted),
        (&fight, true),
        0,
    );
    let column = ColumnInput::Odds {
        attacker: attack.clamp(0, u32::MAX as i64) as u32,
        defender: defence.clamp(1, u32::MAX as i64) as u32,
    };
    let rolled = battle::roll_on(rules, state, table, column, (shift, drm));
    let (cell, roll, label) = (rolled.cell, rolled.roll, rolled.label);
    let get = |c: &Cell, k: &str| match c {
        Cell::Record(r) => r.get(k).cloned(),
        Cell::Scalar(x) => Some(x.clone()),
    };
    let mut result = Outcome::default();
    match &cell {
        Ok(cell) => {
            let int = |k: &str| match get(cell, k) {
                Some(Scalar::Int(n)) => n.max(0) as u32,
                _ => 0,
            };
            let yes = |k: &str| matches!(get(cell, k), Some(Scalar::Bool(true)));
            let all = |units: &[usize]| -> u32 {
                alive(state, units)
                    .iter()
                    .map(|&u| rules.steps(&state.units[u]))
                    .sum()
            };
            result.attacker = int("attacker");
            result.defender = int("defender");
            result.retreat = yes("retreat");
            result.progress = int("progress");
            result.attacker_retreat = yes("attacker_retreat");
            if yes("attacker_eliminated") {
                result.attacker = result.attacker.max(all(&c.attackers));
            }
            if yes("defender_eliminated") || yes("exchange") {
                result.defender = result.defender.max(all(&c.defenders));
            }
            if yes("exchange") {
                c.exchange = c
                    .defenders
                    .iter()
                    .map(|&u| printed(rules, state, s, u, false).max(0) as u32)
                    .sum();
            }
        }
        Err(e) => {
            state.flow.messages.push(format!(
                "the combat at {} could not be read on {}: {e}",
                c.target, table.id
            ));
        }
    }
    let (a, d, r, p) = (
        result.attacker,
        result.defender,
        result.retreat,
        result.progress,
    );
    let fight = fight_of(c);
    let a = battle::loss(rules, state, (&fight, true, &mut acted), a);
    let d = battle::loss(rules, state, (&fight, false, &mut acted), d);
    let on = if table_id == s.combat.table && s.combat.defender_chooses.is_empty() {
        String::new()
    } else {
        format!(" on {table_id}")
    };
    state.flow.messages.push(format!(
        "{side} attacks {}{on}: {attack} against {defence} ({label}), rolls {roll} (drm {drm:+}): attacker {a}, defender {d}{}{}{}{}",
        c.target,
        if r { ", retreat" } else { "" },
        if result.attacker_retreat { ", the attackers retreat" } else { "" },
        if p > 0 { format!(", progress {p}") } else { String::new() },
        hooks::cited(rules.content, &acted),
    ));
    c.on_attacker = a;
    c.on_defender = d;
    c.retreat = u32::from(r);
    c.attacker_retreat = result.attacker_retreat;
    if in_city {
        if let Some(city) = &s.city {
            city_progress(rules, state, (city, &place), c, first, p);
        }
    }
}

/// What one roll on an odds table gave.
#[derive(Default)]
struct Outcome {
    attacker: u32,
    defender: u32,
    retreat: bool,
    progress: u32,
    attacker_retreat: bool,
}

/// A unit's printed strength in a combat: its strength stat, or its defence stat where the
/// operations give one and it defends.
pub(in crate::rules) fn printed(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
    attacking: bool,
) -> i32 {
    let stat = if attacking || s.defence.is_empty() {
        &s.strength
    } else {
        &s.defence
    };
    zone::stat(rules, state, unit, stat).max(0)
}

/// The units that support an attack from a distance (`support`): for each kind, one of the
/// attacker's side not yet used this impulse, within reach of an attacker.
fn supporters(rules: &Rules, state: &State, s: &Impulses, c: &CombatTask) -> Vec<usize> {
    let Some(t) = crate::rules::impulses::under_way(state) else {
        return Vec::new();
    };
    let g = &rules.content.graph;
    let from: Vec<usize> = c
        .attackers
        .iter()
        .filter_map(|&u| zone::on_map(state, u).and_then(|at| g.index_of(at)))
        .collect();
    let mut out = Vec::new();
    for r in &s.combat.support {
        let near = crate::rules::supply::within(rules.content, &from, r.within);
        let found = state.units.iter().enumerate().find(|(i, u)| {
            rules.side(u) == c.side
                && r.types.iter().any(|x| x == rules.unit_type(u))
                && !t.supported.contains(i)
                && !c.attackers.contains(i)
                && zone::on_map(state, *i)
                    .and_then(|at| g.index_of(at))
                    .is_some_and(|x| near[x])
        });
        if let Some((i, _)) = found {
            out.push(i);
        }
    }
    out
}

/// The city table's progress: raised by besiegers, lowered by defenders; at 0, a defenders'
/// progress costs the besiegers a step (9.3.3); control follows the level.
fn city_progress(
    rules: &Rules,
    state: &mut State,
    (city, place): (&CityCombat, &str),
    c: &mut CombatTask,
    attacker: usize,
    progress: u32,
) {
    if progress == 0 {
        return;
    }
    let level = marker_level(state, &city.marker, &c.target);
    let side = rules.side(&state.units[attacker]).to_string();
    let new = if zone::is_besieger(rules, state, city, attacker) {
        if level == 0 && !city.on_progress.is_empty() {
            run_rule_script(
                rules,
                state,
                &format!("{place}/city/on_progress"),
                &side,
                (Some(&c.target), zone::level_name(0)),
            );
        }
        level + progress
    } else {
        if level == 0 {
            c.on_defender += 1;
        }
        level.saturating_sub(progress)
    };
    set_marker_level(state, &city.marker, &c.target, i64::from(new));
    let holder = state
        .units_at(&c.target)
        .find(|(i, _)| zone::is_besieger(rules, state, city, *i))
        .map(|(_, u)| rules.side(u).to_string());
    if new >= city.control_level {
        if let Some(h) = holder {
            state.set_control(&c.target, Some(&h));
        }
    } else if state.control.contains_key(c.target.as_str()) {
        state.set_control(&c.target, None);
    }
}
