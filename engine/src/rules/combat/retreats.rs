//! Retreats after combat: a unit at a time, each space through [`retreat::options`] (the
//! game's ranking, then the `MayRetreat` hooks; `AfterRetreat` after each space). A retreat by
//! the winning margin may be several spaces long, and defenders that may hold choose to lose a
//! step instead; a one-space retreat with nowhere to go costs another step.

use super::*;
use crate::rules::impulses::zone;

pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    match c.how.retreat {
        Retreat::Margin => margin_step(rules, state, c),
        Retreat::OneSpace => one_space_step(rules, state, c),
        Retreat::None => {
            let mut c = c;
            c.stage = Stage::Advance;
            put(state, c);
            None
        }
    }
}

fn margin_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let defender = rules.other_side(&c.side).to_string();
    if c.stage == Stage::NoRetreat {
        let mut options: Vec<Action> = alive(state, &c.defenders)
            .into_iter()
            .map(|u| Action::new("hold").and_unit(rules.content, state, u))
            .collect();
        options.push(Action::new("retreat"));
        return Some(Prompt::one_of(
            &defender,
            "no_retreat",
            format!(
                "Retreat {} spaces from {}, or hold by losing a step",
                c.retreat, c.target
            ),
            options,
        ));
    }
    let Some(&u) = c.retreating.first() else {
        advance::start(rules, state, &mut c);
        put(state, c);
        return None;
    };
    let options = retreat_options(rules, state, &c, u);
    if options.is_empty() {
        // No way back: the unit is eliminated, as if out of supply (11.43).
        crate::rules::losses::eliminate_out_of_supply(rules, state, u);
        c.retreating.remove(0);
        c.retreat_left = c.retreat;
        put(state, c);
        return None;
    }
    let name = state.units[u].name(rules.content);
    let options = options
        .into_iter()
        .map(|s| {
            Action::new("retreat")
                .and_unit(rules.content, state, u)
                .and(Word::id(&s))
        })
        .collect();
    Some(Prompt::one_of(
        &defender,
        "retreat",
        format!("Retreat {name} ({} spaces left)", c.retreat_left),
        options,
    ))
}

/// Where a unit may retreat by the winning margin: not into the attacked space, an enemy's or
/// a barred one; on the last space, within stacking; into a friendly space first.
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
    let nation = rules.nation_id(u);
    let mut cache = SupplyCache::default();
    let levels: Vec<Level> = if last {
        (0..g.spaces.len())
            .map(|n| cache.at(rules, state, n, nation, side))
            .collect()
    } else {
        Vec::new()
    };
    retreat::options(rules, state, unit, |n, e| {
        let to = &g.spaces[n].id;
        if *to == c.target
            || !rules.movable(e)
            || !may_enter(rules, state, &side, n)
            || enemy_in(rules, state, to, side)
            || !may_operate(rules, state, unit, to)
            || (last && !may_stack(rules, state, unit, to))
            || (away && target.is_some_and(|t| g.neighbours(t).iter().any(|&(x, _)| x == n)))
        {
            return None;
        }
        // Away from the markers that halt a retreat above all; then into a friendly space if
        // there is one; and ending in supply if it can (11.44).
        let halted = halts_retreat(rules, state, &side, to);
        let enemy = state.control.get(to).map(|x| x.as_str()) != Some(&side);
        let unsupplied = levels.get(n).is_some_and(|&l| l == Level::Out);
        Some(u8::from(halted) * 4 + u8::from(enemy) * 2 + u8::from(unsupplied))
    })
}

/// Whether a marker on a space halts a retreat of a side there (a partisan, 11.44).
pub(super) fn halts_retreat(rules: &Rules, state: &State, side: &str, space: &str) -> bool {
    rules.play.hindering_markers.iter().any(|h| {
        h.halts_retreat
            && h.side == side
            && state
                .markers
                .iter()
                .any(|m| m.marker == h.marker && m.space == space)
    })
}

/// The defenders still in the attacked space retreat one space each, or, with nowhere to go,
/// all lose another step and stay (8.3.4).
fn one_space_step(rules: &Rules, state: &mut State, mut c: CombatTask) -> Option<Prompt> {
    let mut staying: Vec<usize> = c
        .defenders
        .iter()
        .copied()
        .filter(|&u| c.retreat > 0 && zone::on_map(state, u) == Some(c.target.as_str()))
        .collect();
    // Then the attackers, where the table sent them back; one that cannot is eliminated.
    let attackers = staying.is_empty();
    if attackers {
        c.retreating.retain(|&u| zone::on_map(state, u).is_some());
        staying = c.retreating.iter().copied().take(1).collect();
    }
    // Units that may not retreat are eliminated instead.
    if let Some(&u) = staying.first() {
        if odds::spec_of(rules, &c).is_some_and(|(s, _)| {
            s.combat
                .no_retreat_types
                .iter()
                .any(|t| t == rules.unit_type(&state.units[u]))
        }) {
            crate::rules::losses::eliminate_saying(
                rules,
                state,
                u,
                "may not retreat and is eliminated",
            );
            c.retreating.retain(|&x| x != u);
            put(state, c);
            return None;
        }
    }
    let Some(&u) = staying.first() else {
        odds::eliminate_bystanders(rules, state, &c);
        c.stage = Stage::Advance;
        put(state, c);
        return None;
    };
    let options = zone::retreat_options(rules, state, c.how.at, u);
    if options.is_empty() {
        for &d in &staying {
            if attackers {
                crate::rules::losses::eliminate(rules, state, d);
            } else {
                lose_step(rules, state, d);
            }
        }
        c.retreating.retain(|x| !staying.contains(x));
        if c.retreating.is_empty() {
            c.stage = Stage::Advance;
        }
        put(state, c);
        return None;
    }
    let owner = rules.side(&state.units[u]).to_string();
    let name = state.units[u].name(rules.content);
    Some(Prompt::one_of(
        &owner,
        "retreat",
        format!("Where does {name} retreat?"),
        options
            .iter()
            .map(|x| {
                Action::new("retreat")
                    .and_unit(rules.content, state, u)
                    .and(Word::id(x))
            })
            .collect(),
    ))
}

pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    mut c: CombatTask,
    action: &Action,
) -> Result<(), String> {
    match (&c.stage, c.how.retreat, action.verb()) {
        (Stage::NoRetreat, _, "hold") => {
            let u = action.unit(1)?;
            lose_step(rules, state, u);
            finish(rules, state, &c);
            return Ok(());
        }
        (Stage::NoRetreat, _, "retreat") => {
            c.retreating = alive(state, &c.defenders);
            c.retreat_left = c.retreat;
            c.stage = Stage::Retreat;
        }
        (Stage::Retreat, Retreat::Margin, "retreat") => {
            let u = action.unit(1)?;
            let to = action.text(2).ok_or("where to?")?.to_string();
            leave_stand_fast(rules, state, u, &to, true);
            let from = match &state.units[u].at {
                Loc::Space(s) => *s,
                _ => String::new().into(),
            };
            if from != c.target && !c.vacated.iter().any(|x| *x == from) {
                c.vacated.push(from.to_string());
            }
            enter(rules, state, u, &to);
            movement::after_step(rules, state, HookPoint::AfterRetreat, u, (&from, &to));
            state.flow.marks.retreated.insert(u);
            c.retreat_left = c.retreat_left.saturating_sub(1);
            let side = rules.side(&state.units[u]).to_string();
            if halts_retreat(rules, state, &side, &to) {
                c.retreat_left = 0;
            }
            if c.retreat_left == 0 {
                c.retreating.retain(|&x| x != u);
                c.retreat_left = c.retreat;
            }
        }
        (Stage::Retreat, Retreat::OneSpace, "retreat") => {
            let u = action.unit(1)?;
            let to = action.text(2).ok_or("where to?")?;
            zone::retreat_into(rules, state, c.how.at, u, to);
            c.retreating.retain(|&x| x != u);
        }
        _ => return misfit(action),
    }
    put(state, c);
    Ok(())
}
