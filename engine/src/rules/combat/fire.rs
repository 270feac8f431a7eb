//! Fire: combat cards and the modifiers in force, the terrain effects table (shifts, no
//! retreat, mechanized stop), each side's fire on its table, and the loss numbers.

use super::*;

pub(super) fn card_context(rules: &Rules, c: &CombatTask, side: &str, card: &str) -> Context {
    Context {
        me: side.into(),
        enemy: rules.other_side(side).into(),
        card: Some(card.to_string()),
        combat: Some(Combat {
            attacking: side == c.side,
            attackers: c.attackers.clone(),
            defenders: c.defenders.clone(),
            defending_space: c.target.clone(),
        }),
        space: None,
        names: Vec::new(),
    }
}

/// Combat cards a side holds that would change this combat.
pub(super) fn playable_cards(
    rules: &Rules,
    state: &State,
    c: &CombatTask,
    side: &str,
) -> Vec<String> {
    let mut out = Vec::new();
    // The side's hand, and the combat cards it keeps face up not yet used this action (7.64).
    let kept = state
        .kept_cards
        .get(side)
        .into_iter()
        .flatten()
        .filter(|k| !state.flow.marks.kept_used.contains(*k));
    let played: Vec<&String> = c.cards.iter().map(|(_, card)| card).collect();
    for card in state.hands.get(side).into_iter().flatten().chain(kept) {
        if played.contains(&card) {
            continue;
        }
        let Some(script) = rules
            .content
            .scripts
            .get(card)
            .and_then(|s| s.combat.as_ref())
        else {
            continue;
        };
        let mut scratch = state.clone();
        let ctx = card_context(rules, c, side, card);
        if let Ok((Outcome::Done, mods)) = eval::run(script, rules.content, &mut scratch, &ctx, &[])
        {
            if !mods.is_empty() || scratch != *state {
                out.push(card.clone());
            }
        }
    }
    out
}

/// Whether a modifier bears on this combat.
pub(super) fn applies(rules: &Rules, state: &State, c: &CombatTask, m: &Modifier) -> bool {
    let defender = rules.other_side(&c.side);
    let nation_in =
        |units: &[usize], n: &str| units.iter().any(|&u| rules.nation(&state.units[u]) == n);
    m.from_turn.is_none_or(|t| state.turn >= t)
        && m.attacker.as_ref().is_none_or(|a| *a == c.side)
        && m.defender.as_ref().is_none_or(|d| d == defender)
        && m.attacker_nation
            .as_ref()
            .is_none_or(|n| nation_in(&c.attackers, n))
        && m.defender_nation
            .as_ref()
            .is_none_or(|n| nation_in(&c.defenders, n))
        && m.except_defender_nation
            .as_ref()
            .is_none_or(|n| !nation_in(&c.defenders, n))
        && m.region
            .as_ref()
            .is_none_or(|r| space_in_region(rules.content, &c.target, r))
        && m.space.as_ref().is_none_or(|s| *s == c.target)
        && m.attacker_counter
            .as_ref()
            .is_none_or(|k| c.attackers.iter().any(|&u| state.units[u].counter == *k))
}

pub(super) fn in_force<'a>(
    rules: &'a Rules,
    state: &'a State,
    c: &'a CombatTask,
) -> impl Iterator<Item = &'a Modifier> + 'a {
    state
        .modifiers
        .iter()
        .chain(c.modifiers.iter())
        .filter(move |m| applies(rules, state, c, m))
}

/// The rows of the terrain table that bear on the defending space: its terrain (or the one a
/// modifier puts in its place), its fort, its trench markers.
pub fn terrain_rows(rules: &Rules, state: &State, c: &CombatTask) -> Vec<String> {
    let Some(space) = rules.content.graph.space(&c.target) else {
        return Vec::new();
    };
    let mut rows = Vec::new();
    // Defenders that keep only their trenches (Winter 42, a partisan space).
    let bare = rules.play.terrain_lost.iter().any(|t| {
        t.flag
            .as_ref()
            .is_none_or(|f| state.flags.contains(f.as_str()))
            && t.region
                .as_ref()
                .is_none_or(|r| crate::state::space_in_region(rules.content, &c.target, r))
            && t.marker.as_ref().is_none_or(|m| {
                state
                    .markers
                    .iter()
                    .any(|x| x.marker == *m && x.space == c.target)
            })
            && !c.defenders.is_empty()
            && c.defenders
                .iter()
                .all(|&d| t.nations.iter().any(|n| n == rules.nation(&state.units[d])))
    });
    if bare {
        for m in state.markers.iter().filter(|m| m.space == c.target) {
            if rules.play.trench_markers.iter().any(|x| *x == m.marker) {
                rows.push(format!("{}_{}", m.marker, m.level));
                rows.push(m.marker.to_string());
            }
        }
        return rows;
    }
    let terrain = in_force(rules, state, c)
        .find_map(|m| match &m.effect {
            ModifierEffect::Terrain(t) => Some(t.clone()),
            _ => None,
        })
        .or_else(|| space.terrain.clone());
    rows.extend(terrain);
    let ignored: Vec<String> = in_force(rules, state, c)
        .filter_map(|m| match &m.effect {
            ModifierEffect::IgnoreFeature(f) => Some(f.clone()),
            _ => None,
        })
        .collect();
    if let Some(fort) = &rules.play.fort {
        if crate::rules::supply::intact_fort(rules.content, state, &c.target)
            && !ignored.contains(fort)
        {
            rows.push(fort.clone());
        }
    }
    if trenches_count(rules, state, c) {
        for m in state.markers.iter().filter(|m| m.space == c.target) {
            if rules.play.trench_markers.iter().any(|x| *x == m.marker) {
                rows.push(format!("{}_{}", m.marker, m.level));
                rows.push(m.marker.to_string());
            }
        }
    }
    rows
}

/// Whether the defenders receive the benefit of trenches: not when every one is of a nation
/// that needs supply for them and is out of supply (13.42).
fn trenches_count(rules: &Rules, state: &State, c: &CombatTask) -> bool {
    let need = &rules.play.trenches_need_supply;
    if need.is_empty() || c.defenders.is_empty() {
        return true;
    }
    let mut cache = SupplyCache::default();
    !c.defenders.iter().all(|&d| {
        need.iter().any(|n| n == rules.nation(&state.units[d]))
            && cache.unit(rules, state, d) == Level::Out
    })
}

pub(super) fn terrain_field(rules: &Rules, row: &str, field: &str) -> Option<Scalar> {
    let table = rules.content.table(rules.play.terrain_table.as_deref()?)?;
    let cell = table
        .lookup(
            ColumnInput::Single,
            0,
            RowInput::Name(row),
            rules.game.dice.faces,
        )
        .ok()?;
    match cell {
        Cell::Record(fields) => fields.get(field).cloned(),
        Cell::Scalar(_) => None,
    }
}

pub(super) fn terrain_shift(rules: &Rules, state: &State, c: &CombatTask, field: &str) -> i32 {
    terrain_rows(rules, state, c)
        .iter()
        .filter_map(|r| match terrain_field(rules, r, field) {
            Some(Scalar::Int(n)) => Some(n as i32),
            _ => None,
        })
        .sum()
}

/// Whether the defenders may cancel a retreat with a step loss.
pub(super) fn no_retreat_allowed(rules: &Rules, state: &State, c: &CombatTask) -> bool {
    let cancelled = in_force(rules, state, c).any(|m| m.effect == ModifierEffect::CancelNoRetreat);
    let allowed = in_force(rules, state, c).any(|m| m.effect == ModifierEffect::AllowNoRetreat);
    if cancelled {
        return false;
    }
    allowed
        || terrain_rows(rules, state, c)
            .iter()
            .any(|r| terrain_field(rules, r, "no_retreat") == Some(Scalar::Bool(true)))
        || holds_also(rules, state, c)
}

/// The game's other places where defenders may hold (the play rules' `hold_also`, 11.42).
fn holds_also(rules: &Rules, state: &State, c: &CombatTask) -> bool {
    let Some(cond) = rules.content.sequence.conditions.get("/play/hold_also") else {
        return false;
    };
    let defender = rules.other_side(&c.side);
    let ctx = eval::Context {
        me: defender.into(),
        enemy: c.side.as_str().into(),
        names: vec![
            hooks::units("attackers", &c.attackers),
            hooks::units("defenders", &c.defenders),
            hooks::space("defending_space", &c.target),
        ],
        ..eval::Context::default()
    };
    eval::condition(cond, rules.content, state, &ctx).unwrap_or(false)
}

pub(super) fn stops_mech(rules: &Rules, state: &State, space: &str) -> bool {
    let probe = CombatTask::new("", space);
    terrain_rows(rules, state, &probe)
        .iter()
        .any(|r| terrain_field(rules, r, "mech_stop") == Some(Scalar::Bool(true)))
}

/// One side's fire: its loss number on the other.
pub(super) fn fire(rules: &Rules, state: &mut State, c: &CombatTask, side: &str) -> u32 {
    let attacking = side == c.side;
    let units: Vec<usize> = if attacking {
        c.attackers.clone()
    } else {
        c.defenders
            .iter()
            .copied()
            .filter(|u| !state.flow.marks.retreated.contains(u))
            .collect()
    };
    let units = alive(state, &units);
    let mut acted = battle::Acted::new();
    let strength: i32 = units
        .iter()
        .map(|&u| {
            let printed = rules.strength(&state.units[u]) as i64;
            battle::strength(
                rules,
                state,
                (u, &mut acted),
                (&c.target, attacking, &c.attackers),
                printed,
            )
        })
        .sum::<i64>()
        .clamp(0, 100_000) as i32;
    let table_id = rules.play.fire_tables.iter().find(|t| {
        t.size
            .as_ref()
            .is_none_or(|s| units.iter().any(|&u| rules.size(&state.units[u]) == s))
    });
    let Some(table) = table_id.and_then(|t| rules.content.table(&t.table)) else {
        return 0;
    };
    let mut shift = terrain_shift(
        rules,
        state,
        c,
        if attacking {
            "attacker_shift"
        } else {
            "defender_shift"
        },
    );
    let mut drm = 0i32;
    for m in in_force(rules, state, c).filter(|m| m.side == side) {
        match m.effect {
            // Saturating: a script may give any number (no wrap, no overflow).
            ModifierEffect::Shift(n) => shift = shift.saturating_add(n.clamp(-1000, 1000) as i32),
            ModifierEffect::Drm(n) => drm = drm.saturating_add(n.clamp(-1000, 1000) as i32),
            _ => {}
        }
    }
    let mut cache = SupplyCache::default();
    if units
        .iter()
        .any(|&u| cache.unit(rules, state, u) == Level::Out)
    {
        shift = shift.saturating_add(rules.play.oos_shift);
    }
    let fight = fight_of(c);
    let side_of = (&fight, attacking);
    shift = battle::roll_modifier(rules, state, (HookPoint::Shift, &mut acted), side_of, shift);
    drm = battle::roll_modifier(rules, state, (HookPoint::Drm, &mut acted), side_of, drm);
    let input = ColumnInput::Strength(strength);
    let r = battle::roll_on(rules, state, table, input, (shift, drm));
    match r.cell {
        Ok(Cell::Scalar(Scalar::Int(n))) => {
            state.flow.messages.push(format!(
                "{side} fires at {} on {} column {} (shift {shift:+}), rolls {} (drm {drm:+}): loss {n}{}",
                c.target, table.id, r.label, r.roll, hooks::cited(rules.content, &acted),
            ));
            (*n).max(0) as u32
        }
        _ => 0,
    }
}

pub(super) fn resolve(rules: &Rules, state: &mut State, c: &mut CombatTask) {
    let defender = rules.other_side(&c.side).to_string();
    c.on_defender = fire(rules, state, c, &c.side.clone());
    c.on_attacker = fire(rules, state, c, &defender);
    let fight = fight_of(c);
    let mut acted = battle::Acted::new();
    let on_defender = battle::loss(rules, state, (&fight, false, &mut acted), c.on_defender);
    let on_attacker = battle::loss(rules, state, (&fight, true, &mut acted), c.on_attacker);
    if (on_defender, on_attacker) != (c.on_defender, c.on_attacker) {
        state.flow.messages.push(format!(
            "loss numbers {} on the defender, {} on the attacker{}",
            on_defender,
            on_attacker,
            hooks::cited(rules.content, &acted)
        ));
    }
    (c.on_defender, c.on_attacker) = (on_defender, on_attacker);
    // Units that retreated into the space this action add nothing and are eliminated by any
    // loss (11.45).
    if c.on_defender >= 1 {
        for &u in &c.defenders.clone() {
            if state.flow.marks.retreated.contains(&u) {
                eliminate(rules, state, u);
            }
        }
    }
    c.remaining = c.on_defender;
}
