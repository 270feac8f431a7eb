//! Operations in impulses: the actions players take, and the end of an impulse, of a phase
//! and of the operations.

use super::*;
use crate::rules::stacking::passes_through;

/// Performs a legal action of the operations.
pub(in crate::rules) fn act(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    prompt: &Prompt,
    action: &Action,
) -> Result<(), String> {
    let s = spec(rules, t.at).ok_or("the operations have no parameters")?;
    match (t.stage, action.words()) {
        (Stage::Activate, [Text("pass")]) => {
            end_impulse(rules, state, t);
            Ok(())
        }
        (Stage::Activate, [Text("go")]) => {
            if let Some(o) = order_status(rules, state, s, &t) {
                t.ordered = t
                    .units
                    .iter()
                    .filter(|(u, m)| *m == o.mode && o.able.contains(u))
                    .map(|(u, _)| *u)
                    .collect();
                t.order_need = o.need;
                t.approach = o.mode == Mode::Move;
            }
            t.stage = Stage::Move;
            prepare_moves(rules, state, &mut t, Mode::Move);
            put(state, t);
            Ok(())
        }
        (Stage::Activate, [Text("activate"), Unit { index: unit, .. }, Text(mode)]) => {
            let u = *unit as usize;
            let mode = match *mode {
                "move" => Mode::Move,
                "combat" => Mode::Combat,
                _ => Mode::Reserve,
            };
            t.spent += activation(rules, state, &t, u, mode).unwrap_or(1);
            t.units.push((u, mode));
            put(state, t);
            Ok(())
        }
        (Stage::Activate, [Text("event"), Text(card)]) => {
            let side = prompt.side.to_string();
            if let Some(hand) = state.hands.get_mut(&side) {
                hand.retain(|c| c != card);
            }
            if side != s.impulses[t.impulse].side {
                t.window.push(side.clone());
                put(state, t);
            }
            play_chit(state, &side, card);
            Ok(())
        }
        (Stage::Activate, [Text("no"), Text("card")]) => {
            t.window.push(prompt.side.to_string());
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve | Stage::EndMove, [Text("done")]) => {
            match t.stage {
                Stage::Move => t.stage = Stage::Combat,
                Stage::Reserve => {
                    end_impulse(rules, state, t);
                    return Ok(());
                }
                _ => {
                    next_end_move(rules, state, t);
                    return Ok(());
                }
            }
            put(state, t);
            Ok(())
        }
        (
            Stage::Move | Stage::Reserve | Stage::EndMove,
            [Text("move"), Unit { index: unit, .. }, Text(to)],
        ) => {
            let u = *unit as usize;
            let g = &rules.content.graph;
            let from = on_map(state, u)
                .ok_or("the unit is not on the map")?
                .to_string();
            let (fi, ti) = (
                g.index_of(&from).ok_or("no such space")?,
                g.index_of(*to).ok_or("no such space")?,
            );
            let edge = g
                .neighbours(fi)
                .iter()
                .find(|&&(n, _)| n == ti)
                .map(|&(_, e)| e)
                .ok_or("not adjacent")?;
            let cost = if t.rail.contains(&u) {
                2
            } else {
                move_cost(rules, state, s, u, (edge, ti))
            };
            if t.passing.is_none() {
                takes_hand(rules, &mut t, u);
            }
            if t.stage == Stage::EndMove {
                t.end_moved.insert(u);
            } else {
                t.acted.insert(u);
                let used = t.used.entry(u).or_insert(0);
                *used += cost;
            }
            enter(rules, state, s, u, to);
            if let Some(c) = super::crossing::slow(rules, s, edge) {
                super::crossing::crossed(state, &mut t, c, u);
            }
            // A unit that may not stop where it stepped passes through: it goes on at once.
            t.passing = (t.stage != Stage::EndMove
                && (passes_through(rules) || stacking_allows(rules, state, u, to))
                && !may_stop(rules, state, u, to))
            .then_some(u);
            movement::after_step(rules, state, HookPoint::AfterMove, u, (&from, to));
            let left = leave::leaving(&t, u).is_some();
            if t.stage != Stage::EndMove && (left || stops_in(rules, state, s, u, to)) {
                let allowed = t.allowed.get(&u).copied().unwrap_or(0);
                t.used.insert(u, allowed.max(1));
            }
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve, [Text("exit"), Unit { index: unit, .. }]) => {
            let u = *unit as usize;
            super::exits::exit(rules, state, t, u)
        }
        (Stage::Move, [Text("break"), Unit { index: unit, .. }]) => {
            let u = *unit as usize;
            super::breakdown::break_down(rules, state, t, u)
        }
        (Stage::Move, [Text("combine"), Text(counter), Text(space)]) => {
            super::breakdown::combine(rules, state, t, counter, space)
        }
        (Stage::Move | Stage::Reserve, [Text("rail"), Unit { index: unit, .. }]) => {
            let u = *unit as usize;
            let rail = s
                .movement_rules
                .rail
                .as_ref()
                .ok_or("no rail movement here")?;
            takes_hand(rules, &mut t, u);
            t.rail.insert(u);
            t.used.insert(u, 0);
            t.allowed.insert(u, rail.spaces * 2);
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve, [Text("overrun"), Unit { index: unit, .. }, Text(to)]) => {
            let u = *unit as usize;
            overrun(rules, state, t, u, to)
        }
        (Stage::Move | Stage::Reserve, [Text("overrun"), Text(to)]) => {
            t.overrunning = Some((to.to_string(), Vec::new()));
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve, [Text("join"), Unit { index: unit, .. }]) => {
            let u = *unit as usize;
            let (_, group) = t.overrunning.as_mut().ok_or("no overrun is under way")?;
            group.push(u);
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve, [Text("cancel")]) => {
            t.overrunning = None;
            put(state, t);
            Ok(())
        }
        (Stage::Move | Stage::Reserve, [Text("overrun")]) => overrun_together(rules, state, t),
        (Stage::Combat, [Text("done")]) => {
            t.stage = Stage::Reserve;
            prepare_moves(rules, state, &mut t, Mode::Reserve);
            put(state, t);
            Ok(())
        }
        (Stage::Combat, [Text(kind @ ("attack" | "city")), Text(space)]) => {
            t.attacked.push(space.to_string());
            put(state, t.clone());
            start_combat(rules, state, &t, space, *kind == "city");
            Ok(())
        }
        _ => Err("not an action of the operations".into()),
    }
}

/// Puts a unit in a space it moved, retreated or advanced into: control of a space with
/// victory points passes to a capturer, or back to no one when a hostile unit enters.
pub(super) fn enter(rules: &Rules, state: &mut State, s: &Impulses, unit: usize, space: &str) {
    state.units[unit].at = Loc::Space(space.into());
    let vp = rules.content.graph.space(space).map_or(0, |x| x.vp);
    let in_city = s
        .city
        .as_ref()
        .is_some_and(|c| in_region(rules, space, &c.region));
    let u = &state.units[unit];
    if s.last_through_holds && !in_city {
        let side = rules.side(u).to_string();
        if state.control.get(space).map(|x| x.as_str()) != Some(side.as_str()) {
            state.set_control(space, Some(&side));
            movement::after_capture(rules, state, &side, space);
        }
        return;
    }
    if vp == 0 || in_city || s.capturers.is_empty() {
        return;
    }
    let (nation, side) = (rules.nation(u).to_string(), rules.side(u).to_string());
    let controller = state.control.get(space).cloned();
    if s.capturers.contains(&nation) {
        // The first capturing side keeps it against the other capturers (7.3.4).
        if controller.is_none() {
            state.set_control(space, Some(&side));
            movement::after_capture(rules, state, &side, space);
        }
    } else if controller.is_some() {
        state.set_control(space, None);
    }
}

/// An event chit played: its script runs as an event task, answered like any other decision.
pub(super) fn play_chit(state: &mut State, side: &str, card: &str) {
    state.flow.tasks.push(Task::Event {
        side: side.into(),
        card: card.to_string(),
        answers: Vec::new(),
        then_ops: None,
    });
}

pub(super) fn end_impulse(rules: &Rules, state: &mut State, mut t: ImpulseTask) {
    let Some(s) = spec(rules, t.at) else {
        state.flow.tasks.pop();
        return;
    };
    super::crossing::end_phase(rules, state, &t);
    // City spaces the besiegers left empty (9.1.5).
    if let Some(city) = &s.city {
        let place = format!("{}/city/on_abandon", pointer(t.at));
        for (space, side) in t.held.clone() {
            if besieged_by(rules, state, city, &space) {
                continue;
            }
            let level = marker_level(state, &city.marker, &space);
            run_rule_script(
                rules,
                state,
                &place,
                &side,
                (Some(&space), level_name(level)),
            );
            set_marker_level(state, &city.marker, &space, 0);
            if state.control.contains_key(space.as_str()) {
                state.set_control(&space, None);
            }
        }
    }
    if !s.idle.is_empty() {
        let place = format!("{}/idle", pointer(t.at));
        let side = s.impulses[t.impulse].side.clone();
        for &(u, _) in &t.units {
            if t.acted.contains(&u) || on_map(state, u).is_none() {
                continue;
            }
            run_rule_script(
                rules,
                state,
                &place,
                &side,
                (None, vec![crate::rules::hooks::unit("u", u)]),
            );
        }
    }
    if let Some((_, order)) = order_now(state, s, &t) {
        state.clear_flag(&order.flag);
    }
    if t.units.is_empty() {
        t.passes.push(t.impulse);
    }
    // Attack supply used up, at the end of the phase (or impulse) of combat.
    if s.combat.attack_supply.as_ref().is_some_and(|a| a.used_up) {
        for u in std::mem::take(&mut t.sources_used) {
            // Back to the counter mix: a later reinforcement may bring the piece in again.
            if on_map(state, u).is_some() {
                let name = state.units[u].name(rules.content);
                state
                    .flow
                    .messages
                    .push(format!("{name} is used up by the attacks it supplied"));
                state.units[u].at = Loc::Unplaced;
            }
        }
    }
    if !is_phase(rules, &t) {
        state.flow.activated.extend(t.units.iter().map(|(u, _)| *u));
    }
    state.end("end_of_round");
    state.round += 1;
    t.impulse += 1;
    if t.impulse < s.impulses.len() {
        begin_impulse(rules, state, &mut t);
        put(state, t);
        return;
    }
    // The end of an operations phase.
    let all_passed = !s.pass_ends.is_empty() && s.pass_ends.iter().all(|i| t.passes.contains(i));
    let mut over = all_passed;
    if !over {
        let side = s.impulses[0].side.clone();
        let at = format!("{}/end_test", pointer(t.at));
        if let Some(stmts) = rules.content.sequence.effects.get(&at) {
            let ctx = side_context(rules, &side);
            match eval::run(stmts, rules.content, state, &ctx, &[]) {
                Ok(_) => {}
                Err(e) => state
                    .flow
                    .messages
                    .push(format!("the end-of-phase test failed: {}", e.message)),
            }
        }
        if state.flags.contains(s.end_flag.as_str()) {
            state.clear_flag(&s.end_flag);
            over = true;
        }
    }
    if !over {
        let phase = state.track(&s.track) + 1;
        if phase > i64::from(s.max_phases) {
            over = true;
        } else {
            state.tracks.insert(s.track.as_str().into(), phase);
        }
    }
    if over {
        state.flow.impulse = 0;
        t.impulse = 0;
        t.units.clear();
        t.spent = 0;
        if s.end_move.is_some() {
            t.stage = Stage::EndMove;
            put(state, t);
        } else {
            state.flow.tasks.pop();
        }
        return;
    }
    t.impulse = 0;
    t.passes.clear();
    begin_impulse(rules, state, &mut t);
    put(state, t);
}

pub(super) fn next_end_move(rules: &Rules, state: &mut State, mut t: ImpulseTask) {
    let n = spec(rules, t.at).map_or(0, |s| s.impulses.len());
    t.impulse += 1;
    if t.impulse >= n {
        state.flow.tasks.pop();
    } else {
        put(state, t);
    }
}
