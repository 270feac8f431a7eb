//! Designating an attack: the spaces a side may attack, and the attackers, committed one by
//! one from the spaces marked for combat or picked together from the units the turn allows.

use std::collections::BTreeSet;

use super::*;

/// Spaces a side may attack now: enemy-occupied, next to one of its spaces marked for combat
/// with units that have not fought, not yet attacked this action, not banned.
pub fn targets(rules: &Rules, state: &State, side: &str) -> Vec<String> {
    let g = &rules.content.graph;
    let side_id = crate::Id::new(side);
    let mut out = BTreeSet::new();
    for m in state
        .markers
        .iter()
        .filter(|m| m.marker == rules.play.combat_marker)
    {
        let ready = state
            .units_at(&m.space)
            .any(|(i, u)| rules.side(u) == side_id && !state.flow.marks.fought.contains(&i));
        let Some(from) = g.index_of(m.space) else {
            continue;
        };
        if !ready {
            continue;
        }
        for &(n, e) in g.neighbours(from) {
            let id = &g.spaces[n].id;
            if rules.movable(e)
                && enemy_in(rules, state, id, side)
                && !state.flow.marks.attacked.contains(id.as_str())
                && !banned(rules, state, side, id)
                && !crate::rules::stacking::closed_to(rules, side, n)
            {
                out.insert(*id);
            }
        }
    }
    out.into_iter().map(String::from).collect()
}

fn banned(rules: &Rules, state: &State, side: &str, space: &str) -> bool {
    rules.play.attack_bans.iter().any(|b| {
        b.side == side
            && !state.flags.contains(b.until_flag.as_str())
            && (b.spaces.iter().any(|s| s == space)
                || b.regions
                    .iter()
                    .any(|r| space_in_region(rules.content, space, r)))
    })
}

/// Units that may join the attack on the target from the spaces marked for combat.
fn eligible(rules: &Rules, state: &State, c: &CombatTask) -> Vec<usize> {
    let g = &rules.content.graph;
    let Some(t) = g.index_of(&c.target) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &(n, e) in g.neighbours(t) {
        let space = &g.spaces[n].id;
        if !rules.movable(e)
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

pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    match c.how.designate {
        Designate::Commit => {
            let mut options: Vec<Action> = eligible(rules, state, &c)
                .into_iter()
                .map(|i| Action::new("with").and_unit(rules.content, state, i))
                .collect();
            if may_fight(rules, state, &c.attackers) {
                options.push(Action::new("fight"));
            }
            options.push(Action::new("cancel"));
            Some(Prompt::one_of(
                &c.side,
                "commit",
                format!("Attack {}: add units, then fight", c.target),
                options,
            ))
        }
        Designate::Pick => {
            if c.pool.is_empty() {
                state.flow.tasks.pop();
                return None;
            }
            let names: Vec<Action> = c
                .pool
                .iter()
                .map(|&u| Action::new(Word::unit(rules.content, state, u)))
                .collect();
            let max = names.len();
            Some(Prompt {
                side: crate::Id::new(&c.side),
                kind: "attackers".into(),
                question: format!("Which units attack {}?", c.target),
                actions: names,
                pick: Some((1, max)),
            })
        }
    }
}

pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    action: &Action,
) -> Result<(), String> {
    match (c.how.designate, action.verb()) {
        (Designate::Commit, "with") => {
            let u = action.unit(1)?;
            c.attackers.push(u);
        }
        (Designate::Commit, "cancel") => {
            state.flow.tasks.pop();
            return Ok(());
        }
        (Designate::Commit, "fight") => {
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
        (Designate::Pick, "choose") => {
            let units: Result<Vec<usize>, String> =
                (1..action.words().len()).map(|i| action.unit(i)).collect();
            let units = units?;
            if c.how.resolve == Resolve::City {
                odds::city_assault_allowed(state, &c, &units)?;
            }
            c.attackers = units;
            c.stage = Stage::Support;
        }
        _ => return misfit(action),
    }
    put(state, c);
    Ok(())
}
