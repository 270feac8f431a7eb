//! Operations in impulses: combat by odds and in the city, losses, retreat and advance.

use super::*;

pub(super) fn attacker_pool(
    rules: &Rules,
    state: &State,
    t: &ImpulseTask,
    b: &Battle,
) -> Vec<usize> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    t.units
        .iter()
        .filter(|(u, m)| {
            fights(state, s, *u, *m) && !t.fought.contains(u) && on_map(state, *u).is_some()
        })
        .map(|(u, _)| *u)
        .filter(|&u| {
            let at = on_map(state, u).unwrap_or_default();
            if b.city {
                let helper = s.city.as_ref().is_some_and(|c| {
                    c.helpers_from_outside
                        && !is_besieger(rules, state, c, u)
                        && !in_region(rules, at, &c.region)
                        && rules.content.graph.index_of(at).is_some_and(|i| {
                            rules
                                .content
                                .graph
                                .neighbours(i)
                                .iter()
                                .any(|&(n, _)| rules.content.graph.spaces[n].id == b.space)
                        })
                });
                (at == b.space
                    && s.city
                        .as_ref()
                        .is_some_and(|c| may_siege(rules, state, c, u)))
                    || helper
            } else {
                attack_targets(rules, state, s, u).contains(&b.space)
            }
        })
        .collect()
}

pub(super) fn defenders_of(
    rules: &Rules,
    state: &State,
    b: &Battle,
    attacker: usize,
) -> Vec<usize> {
    state
        .units_at(&b.space)
        .filter(|(i, _)| hostile(rules, state, attacker, *i))
        .map(|(i, _)| i)
        .collect()
}

pub(super) fn battle_step(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    mut b: Battle,
) -> Option<Prompt> {
    let s = spec(rules, t.at)?;
    let side = s.impulses[t.impulse].side.clone();
    if !b.chosen {
        let pool = attacker_pool(rules, state, &t, &b);
        if pool.is_empty() {
            t.battle = None;
            put(state, t);
            return None;
        }
        let names: Vec<String> = pool
            .iter()
            .map(|&u| state.units[u].name(rules.content))
            .collect();
        let max = names.len();
        return Some(Prompt {
            side,
            kind: "attackers".into(),
            question: format!("Which units attack {}?", b.space),
            options: names,
            pick: Some((1, max)),
        });
    }
    if b.city && b.extra.is_none() {
        if let Some(city) = &s.city {
            let besieging = b
                .attackers
                .first()
                .is_some_and(|&u| is_besieger(rules, state, city, u));
            if besieging && support(state, city, &side) >= 2 {
                return Some(Prompt::one_of(
                    &side,
                    "support",
                    "Spend a second support point for a +1 DRM?",
                    vec!["support yes".into(), "support no".into()],
                ));
            }
        }
        b.extra = Some(false);
    }
    if !b.resolved {
        if let Some(p) = reaction_step(rules, state, s, &t, &mut b) {
            t.battle = Some(Box::new(b));
            put(state, t);
            return Some(p);
        }
        if b.card.is_some() || b.offered.len() < combat_sides(rules, state, &b, &side).len() {
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        resolve(rules, state, &t, &mut b);
        b.resolved = true;
    }
    // Losses, the defender's first.
    if b.defender_losses > 0 || b.attacker_losses > 0 {
        let defending = b.defender_losses > 0;
        let (units, attacking_side) = if defending {
            (b.defenders.clone(), side.as_str())
        } else {
            (b.attackers.clone(), "")
        };
        let alive: Vec<usize> = units
            .iter()
            .copied()
            .filter(|&u| on_map(state, u).is_some())
            .collect();
        if alive.is_empty() {
            b.defender_losses = if defending { 0 } else { b.defender_losses };
            b.attacker_losses = if defending { b.attacker_losses } else { 0 };
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        let candidates = losses::spread(rules, state, (&b.taken, b.turn), &alive, attacking_side);
        if candidates.len() == 1 {
            take_loss(rules, state, &mut b, candidates[0], defending);
            t.battle = Some(Box::new(b));
            put(state, t);
            return None;
        }
        let owner = rules.side(&state.units[candidates[0]]).to_string();
        let options = candidates
            .iter()
            .map(|&u| format!("lose {}", state.units[u].name(rules.content)))
            .collect();
        t.battle = Some(Box::new(b));
        put(state, t);
        return Some(Prompt::one_of(
            &owner,
            "losses",
            "Which unit takes the next step loss?",
            options,
        ));
    }
    // Retreats.
    if b.retreat && !b.city {
        let staying: Vec<usize> = b
            .defenders
            .iter()
            .copied()
            .filter(|&u| on_map(state, u) == Some(b.space.as_str()))
            .collect();
        if let Some(&u) = staying.first() {
            let options = retreat_options(rules, state, s, u);
            if options.is_empty() {
                // No retreat: every defender left takes another step loss and stays (8.3.4).
                for &d in &staying {
                    losses::lose_step(rules, state, d);
                }
                b.retreat = false;
                t.battle = Some(Box::new(b));
                put(state, t);
                return None;
            }
            let owner = rules.side(&state.units[u]).to_string();
            let name = state.units[u].name(rules.content);
            t.battle = Some(Box::new(b));
            put(state, t);
            return Some(Prompt::one_of(
                &owner,
                "retreat",
                format!("Where does {name} retreat?"),
                options
                    .iter()
                    .map(|x| format!("retreat {name} {x}"))
                    .collect(),
            ));
        }
        b.retreat = false;
    }
    // Advance after combat (8.4): at least one attacker into an emptied space.
    if !b.city {
        let emptied = b
            .attackers
            .first()
            .is_some_and(|&a| !hostile_in(rules, state, &b.space, a));
        if emptied {
            let may_enter = |u: usize| {
                on_map(state, u).is_some_and(|at| {
                    at != b.space
                        && movement::may(rules, state, HookPoint::MayAdvance, u, (at, &b.space))
                }) && stacking_allows(rules, state, u, &b.space)
            };
            let mut options: Vec<String> = b
                .attackers
                .iter()
                .copied()
                .filter(|&u| may_enter(u))
                .map(|u| format!("advance {}", state.units[u].name(rules.content)))
                .collect();
            // Reserves in the attackers' spaces may follow those who advanced (4.2.3, 8.4.2).
            if b.advanced > 0 {
                options.extend(
                    t.units
                        .iter()
                        .filter(|(u, m)| {
                            *m == Mode::Reserve
                                && on_map(state, *u)
                                    .is_some_and(|at| b.from.iter().any(|f| f == at))
                                && may_enter(*u)
                        })
                        .map(|(u, _)| format!("follow {}", state.units[*u].name(rules.content))),
                );
            }
            if !options.is_empty() {
                let mut options = options;
                if b.advanced > 0 {
                    options.push("stop".into());
                }
                t.battle = Some(Box::new(b));
                put(state, t);
                return Some(Prompt::one_of(
                    &side,
                    "advance",
                    "Advance after combat (at least one unit)",
                    options,
                ));
            }
        }
    }
    finish_battle(rules, state, t, b);
    None
}

/// The sides in a combat, the attacker first.
pub(super) fn combat_sides(
    rules: &Rules,
    state: &State,
    b: &Battle,
    attacker: &str,
) -> Vec<String> {
    let mut sides = vec![attacker.to_string()];
    let defenders = match b.attackers.first() {
        Some(&a) => defenders_of(rules, state, b, a),
        None => Vec::new(),
    };
    for d in defenders {
        let side = rules.side(&state.units[d]).to_string();
        if !sides.contains(&side) {
            sides.push(side);
        }
    }
    sides
}

/// Whether the condition kept at `at` in `game.ron` holds (a missing or failing one does not).
pub(super) fn holds(rules: &Rules, state: &State, at: &str, ctx: &Context) -> bool {
    rules
        .content
        .sequence
        .conditions
        .get(at)
        .is_some_and(|c| eval::condition(c, rules.content, state, ctx).unwrap_or(false))
}

pub(super) fn combat_context(rules: &Rules, b: &Battle, side: &str, attacking: bool) -> Context {
    Context {
        me: side.to_string(),
        enemy: rules.other_side(side).to_string(),
        combat: Some(Combat {
            attacking,
            attackers: b.attackers.clone(),
            defenders: b.defenders.clone(),
            defending_space: b.space.clone(),
        }),
        ..Context::default()
    }
}

/// Combat cards before the roll: each side in turn, the attacker first, may play a card its
/// reactions allow; a card's script runs in the combat and may ask.
pub(super) fn reaction_step(
    rules: &Rules,
    state: &mut State,
    s: &Impulses,
    t: &ImpulseTask,
    b: &mut Battle,
) -> Option<Prompt> {
    let attacker = s.impulses[t.impulse].side.clone();
    if let Some(&a) = b.attackers.first() {
        b.defenders = defenders_of(rules, state, b, a);
    }
    if let Some((side, card, answers)) = b.card.clone() {
        let ctx = Context {
            card: Some(card.clone()),
            ..combat_context(rules, b, &side, side == attacker)
        };
        let script = rules
            .content
            .scripts
            .get(&card)
            .and_then(|x| x.combat.as_ref());
        let outcome = script.map(|stmts| eval::run(stmts, rules.content, state, &ctx, &answers));
        match outcome {
            Some(Ok((Outcome::Asks(d), _))) => {
                return Some(Prompt {
                    side: d.by,
                    kind: "decision".into(),
                    question: d.question,
                    options: d.options,
                    pick: Some((d.min, d.max)),
                })
            }
            Some(Err(e)) => state.flow.messages.push(format!(
                "the combat card `{card}` could not be carried out: {}",
                e.message
            )),
            _ => super::super::procedures::card_played(rules, state, &side, &card),
        }
        b.card = None;
        return None;
    }
    let sides = combat_sides(rules, state, b, &attacker);
    let side = sides.iter().find(|x| !b.offered.contains(x))?.clone();
    let place = pointer(t.at);
    let role = if side == attacker {
        CombatRole::Attackers
    } else {
        CombatRole::Defenders
    };
    let ctx = combat_context(rules, b, &side, side == attacker);
    let held = state.hands.get(&side).cloned().unwrap_or_default();
    let cards: Vec<String> = s
        .reactions
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r.by == role
                && held.contains(&r.card)
                && holds(rules, state, &format!("{place}/reactions/{i}/when"), &ctx)
        })
        .map(|(_, r)| r.card.clone())
        .collect();
    if cards.is_empty() {
        b.offered.push(side);
        return None;
    }
    let mut options: Vec<String> = cards.iter().map(|c| format!("card {c}")).collect();
    options.push("no card".into());
    Some(Prompt::one_of(
        &side,
        "combat_card",
        format!("Combat at {}: play a card before the roll?", b.space),
        options,
    ))
}

pub(super) fn finish_battle(rules: &Rules, state: &mut State, mut t: ImpulseTask, b: Battle) {
    t.fought.extend(b.attackers.iter().copied());
    t.acted.extend(b.attackers.iter().copied());
    t.battle = None;
    state.end("this_combat");
    let side = spec(rules, t.at).map_or(String::new(), |s| s.impulses[t.impulse].side.clone());
    put(state, t);
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
    battle::after_combat(rules, state, &fight, b.steps_before);
}

pub(super) fn take_loss(
    rules: &Rules,
    state: &mut State,
    b: &mut Battle,
    unit: usize,
    defending: bool,
) {
    *b.taken.entry(unit).or_insert(0) += 1;
    b.turn += 1;
    losses::lose_step(rules, state, unit);
    if defending {
        b.defender_losses = b.defender_losses.saturating_sub(1);
    } else {
        b.attacker_losses = b.attacker_losses.saturating_sub(1);
    }
}

/// Where a defender may retreat, in the order of 8.3.2: towards the property's favoured
/// direction and free of hostile units; else anywhere free of hostile units. Stacking must
/// allow it.
pub(super) fn retreat_options(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
) -> Vec<String> {
    let g = &rules.content.graph;
    let Some((from, _)) = placed(rules, state, unit) else {
        return Vec::new();
    };
    let nation = rules.nation(&state.units[unit]);
    let lower = s.combat.retreat_lower.iter().any(|n| n == nation);
    let here = prop(rules, from, &s.combat.retreat_by);
    retreat::options(rules, state, unit, |n, e| {
        let to = &g.spaces[n].id;
        if is_closed(state, s, to) {
            // Into a closed space only when nothing else is left (2.2.7, 2.2.8).
            let open = !s.combat.into_closed.is_empty()
                && !hostile_in(rules, state, to, unit)
                && !barred(rules, state, s, unit, e);
            return open.then_some(2);
        }
        if !may_step(rules, state, s, unit, from, n, e) || hostile_in(rules, state, to, unit) {
            return None;
        }
        if let Some(city) = &s.city {
            // Besiegers retreat into a city space only if they hold it (8.3.5).
            if in_region(rules, to, &city.region)
                && is_besieger(rules, state, city, unit)
                && marker_level(state, &city.marker, to) < city.control_level
            {
                return None;
            }
        }
        let there = prop(rules, to, &s.combat.retreat_by);
        let favoured = if lower { there <= here } else { there >= here };
        Some(u8::from(!favoured))
    })
}

/// Whether a space is closed to every unit by a marker.
pub(super) fn is_closed(state: &State, s: &Impulses, space: &str) -> bool {
    s.movement_rules
        .closed_markers
        .iter()
        .any(|m| marker_level(state, m, space) > 0)
}

/// Whether a unit's nation may not cross a connection.
pub(super) fn barred(rules: &Rules, state: &State, s: &Impulses, unit: usize, edge: usize) -> bool {
    let nation = rules.nation(&state.units[unit]);
    let kinds = &rules.content.graph.edges[edge].kinds;
    s.movement_rules
        .barred
        .iter()
        .any(|b| b.nations.iter().any(|n| n == nation) && kinds.iter().any(|k| b.kinds.contains(k)))
}

/// The JSON pointer of a sequence step's impulse rules in `game.ron`.
pub fn pointer(at: (usize, usize)) -> String {
    format!("/sequence/{}/steps/{}/Impulses", at.0, at.1)
}

pub(super) fn drm_total(
    rules: &Rules,
    state: &State,
    drms: &[CombatDrm],
    place: &str,
    side: &str,
    b: &Battle,
) -> i32 {
    let ctx = combat_context(rules, b, side, true);
    drms.iter()
        .enumerate()
        .filter(|(i, _)| holds(rules, state, &format!("{place}/{i}/when"), &ctx))
        .map(|(_, d)| d.drm)
        .sum()
}

pub(super) fn resolve(rules: &Rules, state: &mut State, t: &ImpulseTask, b: &mut Battle) {
    let Some(s) = spec(rules, t.at) else { return };
    let side = s.impulses[t.impulse].side.clone();
    let Some(&first) = b.attackers.first() else {
        return;
    };
    b.defenders = defenders_of(rules, state, b, first);
    b.from = b
        .attackers
        .iter()
        .filter_map(|&u| on_map(state, u).map(str::to_string))
        .collect();
    let place = pointer(t.at);
    b.steps_before = (
        battle::steps_on_map(rules, state, &b.attackers),
        battle::steps_on_map(rules, state, &b.defenders),
    );
    let mut acted = battle::Acted::new();
    let mut strength = |u: usize, attacking: bool| {
        let printed = i64::from(stat(rules, state, u, &s.strength).max(0));
        battle::strength(
            rules,
            state,
            (u, &mut acted),
            (&b.space, attacking),
            printed,
        )
    };
    let attack: i64 = b
        .attackers
        .iter()
        .map(|&u| strength(u, true))
        .fold(0i64, |a, x| a.saturating_add(x));
    let mut defence: i64 = b
        .defenders
        .iter()
        .map(|&u| strength(u, false))
        .fold(0i64, |a, x| a.saturating_add(x));
    let (table_id, drm) = match (&s.city, b.city) {
        (Some(city), true) => {
            let besieging = is_besieger(rules, state, city, first);
            if besieging {
                defence += garrison(rules, state, city, &b.space);
                if let Some(track) = support_track(city, &side) {
                    let cost = if b.extra == Some(true) { 2 } else { 1 };
                    *state.tracks.entry(track.to_string()).or_insert(0) -= cost;
                }
            }
            let mut drm = if besieging {
                drm_total(
                    rules,
                    state,
                    &city.drms,
                    &format!("{place}/city/drms"),
                    &side,
                    b,
                )
            } else {
                0
            };
            if b.extra == Some(true) {
                drm += 1;
            }
            (city.table.clone(), drm)
        }
        // Outside a city, the die-roll modifiers are all hooks.
        _ => (s.combat.table.clone(), 0),
    };
    if !b.city && s.evade_flags.iter().any(|f| state.flags.contains(f)) {
        // The defenders slip away before the roll (Heinrici).
        state.flow.messages.push(format!(
            "the defenders of {} retreat before combat without losses",
            b.space
        ));
        b.retreat = true;
        return;
    }
    let Some(table) = rules.content.tables.iter().find(|x| x.id == table_id) else {
        return;
    };
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
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
    let (a, d, r, p) = match &cell {
        Ok(c) => {
            let int = |k: &str| match get(c, k) {
                Some(Scalar::Int(n)) => n.max(0) as u32,
                _ => 0,
            };
            let retreat = matches!(get(c, "retreat"), Some(Scalar::Bool(true)));
            (int("attacker"), int("defender"), retreat, int("progress"))
        }
        Err(e) => {
            state.flow.messages.push(format!(
                "the combat at {} could not be read on {}: {e}",
                b.space, table.id
            ));
            (0, 0, false, 0)
        }
    };
    let fight = battle::Fight {
        attacker: &side,
        attackers: &b.attackers,
        defenders: &b.defenders,
        space: &b.space,
    };
    let a = battle::loss(rules, state, (&fight, true, &mut acted), a);
    let d = battle::loss(rules, state, (&fight, false, &mut acted), d);
    state.flow.messages.push(format!(
        "{side} attacks {}: {attack} against {defence} ({label}), rolls {roll} (drm {drm:+}): attacker {a}, defender {d}{}{}{}",
        b.space,
        if r { ", retreat" } else { "" },
        if p > 0 { format!(", progress {p}") } else { String::new() },
        hooks::cited(rules.content, &acted),
    ));
    b.attacker_losses = a;
    b.defender_losses = d;
    b.retreat = r;
    if b.city {
        if let Some(city) = &s.city {
            city_progress(rules, state, (city, &place), b, first, p);
        }
    }
}

/// The city table's progress: raised by besiegers, lowered by defenders; at 0, a defenders'
/// progress costs the besiegers a step (9.3.3); control follows the level.
pub(super) fn city_progress(
    rules: &Rules,
    state: &mut State,
    (city, place): (&CityCombat, &str),
    b: &mut Battle,
    attacker: usize,
    progress: u32,
) {
    if progress == 0 {
        return;
    }
    let level = marker_level(state, &city.marker, &b.space);
    let side = rules.side(&state.units[attacker]).to_string();
    let new = if is_besieger(rules, state, city, attacker) {
        if level == 0 && !city.on_progress.is_empty() {
            run_rule_script(
                rules,
                state,
                &format!("{place}/city/on_progress"),
                &side,
                (Some(&b.space), level_name(0)),
            );
        }
        level + progress
    } else {
        if level == 0 {
            b.defender_losses += 1;
        }
        level.saturating_sub(progress)
    };
    set_marker_level(state, &city.marker, &b.space, i64::from(new));
    let holder = state
        .units_at(&b.space)
        .find(|(i, _)| is_besieger(rules, state, city, *i))
        .map(|(_, u)| rules.side(u).to_string());
    if new >= city.control_level {
        if let Some(h) = holder {
            state.set_control(&b.space, Some(&h));
        }
    } else if state.control.contains_key(&b.space) {
        state.set_control(&b.space, None);
    }
}

pub(super) fn level_name(level: u32) -> Vec<(String, Value)> {
    vec![("level".into(), Value::Int(i64::from(level)))]
}

pub(super) fn battle_act(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    prompt: &Prompt,
    words: &[&str],
) -> Result<(), String> {
    let mut b = *t.battle.take().ok_or("no combat is under way")?;
    let s = spec(rules, t.at).ok_or("no operations")?;
    match words {
        ["choose", picked @ ..] if prompt.kind == "attackers" => {
            let units: Result<Vec<usize>, String> =
                picked.iter().map(|p| find_unit(rules, state, p)).collect();
            let units = units?;
            if b.city {
                // Helpers come from one space outside the city (9.2.4).
                let outside: BTreeSet<&str> = units
                    .iter()
                    .filter_map(|&u| on_map(state, u))
                    .filter(|at| *at != b.space)
                    .collect();
                if outside.len() > 1 {
                    return Err("units from outside the city may come from one space only".into());
                }
                if !units
                    .iter()
                    .any(|&u| on_map(state, u) == Some(b.space.as_str()))
                {
                    return Err("at least one unit in the city space must attack".into());
                }
            }
            b.attackers = units;
            b.chosen = true;
        }
        ["support", answer] => b.extra = Some(*answer == "yes"),
        ["card", card] if prompt.kind == "combat_card" => {
            let side = prompt.side.clone();
            if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|c| c != card);
            }
            b.offered.push(side.clone());
            b.card = Some((side, card.to_string(), Vec::new()));
        }
        ["no", "card"] => b.offered.push(prompt.side.clone()),
        ["choose", picked @ ..] if prompt.kind == "decision" => {
            if let Some((_, _, answers)) = &mut b.card {
                answers.push(picked.iter().map(|p| p.to_string()).collect());
            }
        }
        ["lose", unit] => {
            let u = find_unit(rules, state, unit)?;
            let defending = b.defender_losses > 0;
            take_loss(rules, state, &mut b, u, defending);
        }
        ["retreat", unit, to] => {
            let u = find_unit(rules, state, unit)?;
            let from = on_map(state, u).unwrap_or_default().to_string();
            enter(rules, state, s, u, to);
            movement::after_step(rules, state, HookPoint::AfterRetreat, u, (&from, to));
            if is_closed(state, s, to) {
                let side = rules.side(&state.units[u]).to_string();
                let at = format!("{}/combat/into_closed", pointer(t.at));
                let names = vec![("u".to_string(), Value::Unit(u))];
                run_rule_script(rules, state, &at, &side, (None, names));
            }
        }
        ["advance", unit] => {
            let u = find_unit(rules, state, unit)?;
            let space = b.space.clone();
            enter(rules, state, s, u, &space);
            b.advanced += 1;
        }
        ["follow", unit] => {
            let u = find_unit(rules, state, unit)?;
            let space = b.space.clone();
            enter(rules, state, s, u, &space);
            t.acted.insert(u);
        }
        ["stop"] => {
            finish_battle(rules, state, t, b);
            return Ok(());
        }
        _ => return Err("not an action of this combat".into()),
    }
    t.battle = Some(Box::new(b));
    put(state, t);
    Ok(())
}
