//! Advance after combat, each space asked of the `MayAdvance` hooks: a pursuit (into the
//! emptied space and on along the retreat's path, mechanized units on up to the game's
//! distance, stopped by the terrain), or
//! into the emptied space with at least one attacker and reserves following those who did.

use super::*;
use crate::rules::impulses::zone;

/// Sets up a pursuit: how far each surviving attacker may go (none while a defender stays).
pub(super) fn start(rules: &Rules, state: &State, c: &mut CombatTask) {
    c.advance.clear();
    c.stage = Stage::Advance;
    if alive(state, &c.defenders)
        .iter()
        .any(|&u| matches!(&state.units[u].at, Loc::Space(s) if *s == c.target))
    {
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
            // Into the defending space, and on into the spaces the retreat left (11.51).
            1 + c.vacated.len().min(c.retreat.saturating_sub(1) as usize) as u32
        };
        c.advance
            .insert(u, battle::advance_reach(rules, state, u, &c.target, far));
    }
}

pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    let options = match c.how.advance {
        Advance::Pursuit => pursuit_options(rules, state, &c),
        Advance::Emptied => emptied_options(rules, state, &c),
        Advance::None => Vec::new(),
    };
    if options.is_empty() {
        finish(rules, state, &c);
        return None;
    }
    let mut options = options;
    let question = match c.how.advance {
        Advance::Pursuit => {
            options.push(Action::new("done"));
            format!("Advance after the combat at {}, then done", c.target)
        }
        _ => {
            let optional = odds::spec_of(rules, &c).is_some_and(|(s, _)| s.combat.advance_optional);
            if c.advanced > 0 || optional {
                options.push(Action::new("stop"));
            }
            "Advance after combat (at least one unit)".to_string()
        }
    };
    Some(Prompt::one_of(&c.side, "advance", question, options))
}

fn pursuit_options(rules: &Rules, state: &State, c: &CombatTask) -> Vec<Action> {
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
            // Non-mechanized units advance into the defending space, and from it into a
            // space the retreating units vacated (11.51).
            if !mech && *to != c.target && !(*at == c.target && c.vacated.iter().any(|x| *x == *to))
            {
                continue;
            }
            if !rules.movable(e)
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
            out.push(
                Action::new("advance")
                    .and_unit(rules.content, state, u)
                    .and(g.spaces[n].id),
            );
        }
    }
    out
}

/// Into the emptied space (8.4): the attackers, and once one has gone, the reserves in the
/// spaces the attack came from (4.2.3, 8.4.2).
fn emptied_options(rules: &Rules, state: &State, c: &CombatTask) -> Vec<Action> {
    let emptied = c
        .attackers
        .first()
        .is_some_and(|&a| !zone::hostile_in(rules, state, &c.target, a));
    if !emptied {
        return Vec::new();
    }
    // Attackers by the reach set at the start of the advance; reserves asked now.
    let reach = |u: usize| {
        c.advance
            .get(&u)
            .copied()
            .unwrap_or_else(|| battle::advance_reach(rules, state, u, &c.target, 1))
    };
    let may_enter = |u: usize| {
        reach(u) > 0
            && zone::on_map(state, u).is_some_and(|at| {
                at != c.target
                    && movement::may(rules, state, HookPoint::MayAdvance, u, (at, &c.target))
            })
            && zone::stacking_allows(rules, state, u, &c.target)
    };
    let mut options: Vec<Action> = c
        .attackers
        .iter()
        .copied()
        .filter(|&u| may_enter(u))
        .map(|u| Action::new("advance").and_unit(rules.content, state, u))
        .collect();
    if c.advanced > 0 {
        options.extend(
            c.reserves
                .iter()
                .copied()
                .filter(|&u| {
                    zone::on_map(state, u).is_some_and(|at| c.from.iter().any(|f| f == at))
                        && may_enter(u)
                })
                .map(|u| Action::new("follow").and_unit(rules.content, state, u)),
        );
    }
    options
}

pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    action: &Action,
) -> Result<(), String> {
    match (c.how.advance, action.words()) {
        (Advance::Pursuit, [Text("advance"), Unit { index, .. }, Text(to)]) => {
            let u = *index as usize;
            leave_stand_fast(rules, state, u, to, true);
            enter(rules, state, u, to);
            let stop = stops_mech(rules, state, to);
            if let Some(left) = c.advance.get_mut(&u) {
                *left = if stop { 0 } else { left.saturating_sub(1) };
            }
        }
        (Advance::Pursuit, [Text("done")]) | (Advance::Emptied, [Text("stop")]) => {
            finish(rules, state, &c);
            return Ok(());
        }
        (Advance::Emptied, [Text("advance"), Unit { index, .. }]) => {
            let u = *index as usize;
            zone::advance_into(rules, state, c.how.at, u, &c.target);
            c.advanced += 1;
        }
        (Advance::Emptied, [Text("follow"), Unit { index, .. }]) => {
            let u = *index as usize;
            zone::advance_into(rules, state, c.how.at, u, &c.target);
            c.followed.push(u);
        }
        _ => return misfit(action),
    }
    put(state, c);
    Ok(())
}
