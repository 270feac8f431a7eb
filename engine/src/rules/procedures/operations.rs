//! Operations: supply for activation, activation costs, the stages of operations (activate,
//! move, attack), entrenchment, the scripts of the play rules, moving.

use super::*;
use crate::rules::activation::Activation;
use crate::rules::stacking::UnitStack;

pub(in crate::rules) use crate::rules::supply::SupplyCache;

/// A side's units on a space.
pub(in crate::rules) fn own_units(
    rules: &Rules,
    state: &State,
    space: &str,
    side: &str,
) -> Vec<usize> {
    own_units_at(rules, state, space, crate::Id::new(side)).collect()
}

/// [`own_units`], one by one.
fn own_units_at<'s>(
    rules: &'s Rules,
    state: &'s State,
    space: &str,
    side: crate::Id,
) -> impl Iterator<Item = usize> + 's {
    state
        .units_at(space)
        .filter(move |(_, u)| rules.side(u) == side)
        .map(|(i, _)| i)
}

pub(in crate::rules) fn enemy_in(
    rules: &Rules,
    state: &State,
    space: &str,
    side: impl Into<crate::Id>,
) -> bool {
    // Sides compared as ids, by address.
    let side = side.into();
    state.units_at(space).any(|(_, u)| rules.side(u) != side)
}

/// Whether a marker lies on a space (the marker's id compared by address first).
pub(in crate::rules) fn has_marker(state: &State, space: &str, marker: crate::Id) -> bool {
    state
        .markers
        .iter()
        .any(|m| m.marker == marker && m.space == space)
}

/// The cost to activate a space: its nationality groups, or one per unit when any is not in
/// Full Supply.
pub(super) fn activation_cost<'c>(
    rules: &Rules<'c>,
    state: &State,
    cache: &mut SupplyCache<'c>,
    units: &[usize],
) -> u32 {
    let base = if units
        .iter()
        .any(|&u| cache.unit(rules, state, u) != Level::Full)
    {
        units.len() as u32
    } else {
        // Counted, not ordered: the groups' ids by address.
        let mut groups: smallvec::SmallVec<[usize; 8]> = units
            .iter()
            .map(|&u| rules.group(rules.nation_id(&state.units[u])).addr())
            .collect();
        groups.sort_unstable();
        groups.dedup();
        groups.len() as u32
    };
    let extra: u32 = rules
        .play
        .activation_extra
        .iter()
        .map(|x| {
            let mut applies = |u: usize| {
                let unit = &state.units[u];
                let Loc::Space(at) = &unit.at else {
                    return false;
                };
                let in_region = |r: &String| crate::state::space_in_region(rules.content, at, r);
                // Ids compared by address.
                let named = x.counters.contains(&unit.counter)
                    || x.nations.contains(&rules.nation_id(unit))
                        && (x.sizes.is_empty() || x.sizes.contains(&rules.size_id(unit)));
                named
                    && x.outside.as_ref().is_none_or(|r| !in_region(r))
                    && x.within.as_ref().is_none_or(in_region)
                    && (!x.unless_full_supply || cache.unit(rules, state, u) != Level::Full)
                    && (x.tracing_through.is_empty()
                        || traces_through(rules, state, cache, u, &x.tracing_through))
            };
            let count = units.iter().filter(|&&u| applies(u)).count() as u32;
            let cost = match (count, x.per_unit) {
                (0, _) => 0,
                (n, true) => x.cost * n,
                (_, false) => x.cost,
            };
            x.max.map_or(cost, |m| cost.min(m))
        })
        .sum();
    base + extra
}

/// Whether a unit's supply traces through one of some spaces: without them it would trace
/// less.
pub(super) fn traces_through<'c>(
    rules: &Rules<'c>,
    state: &State,
    cache: &mut SupplyCache<'c>,
    unit: usize,
    spaces: &[String],
) -> bool {
    let u = &state.units[unit];
    let Some(at) = crate::rules::space_of(rules, u) else {
        return false;
    };
    let with = cache.unit(rules, state, unit);
    if with == Level::Out {
        return false;
    }
    let mut view = supply::SideView::new(rules.content, state, &rules.side(u));
    for s in spaces {
        if let Some(i) = rules.content.graph.index_of(s) {
            view.close(i);
        }
    }
    let without = supply::levels_seen(rules.content, state, &view, rules.nation(u));
    without[at] < with
}

/// The cost to activate a space for a side now for movement (what the prompt offers), with
/// the game's `ActivationCost` hooks.
pub fn space_activation_cost(rules: &Rules, state: &State, space: &str, side: &str) -> u32 {
    let units = own_units(rules, state, space, side);
    let base = activation_cost(rules, state, &mut SupplyCache::default(), &units);
    Activation {
        side,
        space: space.into(),
        units: &units,
        for_combat: false,
    }
    .cost(rules, state, base)
}

/// Spaces a side has units on, in the order of their ids.
pub(super) fn occupied_spaces(rules: &Rules, state: &State, side: &str) -> Vec<crate::Id> {
    // In the order of their ids, by each space's place in it (found once per content); a
    // space off the graph after them, by its id.
    let (g, ranks) = (&rules.content.graph, rules.content.space_ranks());
    let side = crate::Id::new(side);
    let mut seen: Vec<(u32, crate::Id)> = state
        .units
        .iter()
        .filter_map(|u| match &u.at {
            Loc::Space(s) if rules.side(u) == side => {
                Some((g.index_of(*s).map_or(u32::MAX, |i| ranks[i]), *s))
            }
            _ => None,
        })
        .collect();
    seen.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    seen.dedup_by_key(|x| x.1);
    seen.into_iter().map(|(_, s)| s).collect()
}

pub(super) fn ops_prompt(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    (stage, kept): (OpsStage, KeptCosts),
) -> Option<Prompt> {
    match stage {
        OpsStage::Activate => {
            let content = rules.content.memo_id();
            let (costs, whole) = match kept.0 {
                Some((c, costs)) if c == content => (costs, true),
                _ => {
                    let (costs, whole) = activation_costs(rules, state, side, points);
                    (std::sync::Arc::new(costs), whole)
                }
            };
            let options = activations(&costs, points);
            // Costs worked out only where a replay's answer may be are not kept.
            if rules.keeps_activation_costs && whole {
                if let Some(Task::Ops { kept, .. }) = state.flow.tasks.last_mut() {
                    kept.0 = Some((content, costs));
                }
            }
            if options.is_empty() {
                set_stage(state, OpsStage::Move);
                return None;
            }
            let mut options = options;
            options.push(Action::new("done"));
            Some(Prompt::one_of(
                side,
                "activate",
                counted(
                    "Activate spaces for movement or combat (",
                    (points, "point"),
                    " left)",
                ),
                options,
            ))
        }
        OpsStage::Move => {
            let (mut options, passing) = move_options(rules, state, side);
            // A unit passing through a space where it may not stop goes on at once.
            if passing {
                return Some(Prompt::one_of(
                    side,
                    "move",
                    "Move on the unit passing through a space where it may not stop",
                    options,
                ));
            }
            options.extend(entrench_options(rules, state, side));
            if options.is_empty() {
                end_movement(rules, state, side);
                set_stage(state, OpsStage::Attack);
                return None;
            }
            options.push(Action::new("done"));
            Some(Prompt::one_of(
                side,
                "move",
                "Move units one space at a time, then done",
                options,
            ))
        }
        OpsStage::Attack => {
            let options = combat::targets(rules, state, side);
            if options.is_empty() {
                state.flow.tasks.pop();
                return None;
            }
            let mut options: Vec<Action> = options
                .into_iter()
                .map(|t| Action::new("attack").and(Word::id(&t)))
                .collect();
            options.push(Action::new("done"));
            Some(Prompt::one_of(
                side,
                "attack",
                "Choose a space to attack, or done",
                options,
            ))
        }
    }
}

/// What activating each space a side may activate costs, for movement and for combat (none
/// where it is not allowed), in the order of the spaces' ids; none without points to spend.
/// With a replay's answer given (`rules::Given`), once a space may be activated only the
/// spaces that may be the answer are looked at, and the costs are not whole (`false`).
fn activation_costs(
    rules: &Rules,
    state: &State,
    side: &str,
    points: u32,
) -> (Vec<SpaceCosts>, bool) {
    let (mv, cb) = (&rules.play.move_marker, &rules.play.combat_marker);
    let mut costs = Vec::with_capacity(32);
    let (given, mut offered_any, mut whole) = (&state.flow.given, false, true);
    if points > 0 {
        let mut cache = SupplyCache::default();
        // The hooks' context, made at the first space and changed in place for the others.
        let mut ctx = None;
        // Each space's own units, gathered into one buffer.
        let mut units = Vec::with_capacity(8);
        let side_id = crate::Id::new(side);
        for space in occupied_spaces(rules, state, side) {
            if has_marker(state, &space, *mv) || has_marker(state, &space, *cb) {
                continue;
            }
            if offered_any && !given.admits(&Action::new("activate").and(space)) {
                whole = false;
                continue;
            }
            units.clear();
            units.extend(own_units_at(rules, state, &space, side_id));
            let base = activation_cost(rules, state, &mut cache, &units);
            let activation = Activation {
                side,
                space,
                units: &units,
                for_combat: false,
            };
            let offered = activation.offered_both(rules, state, base, &mut ctx);
            offered_any |= offered.iter().any(|c| c.is_some_and(|c| c <= points));
            costs.push((space, offered));
        }
    }
    (costs, whole)
}

/// The spaces a side may activate, and how, with the activation points it has left.
fn activations(costs: &[SpaceCosts], points: u32) -> Vec<Action> {
    // Both ways for each space at most, and `done`.
    let mut options = Vec::with_capacity(costs.len() * 2 + 1);
    for (space, offered) in costs.iter().filter(|_| points > 0) {
        for (mode, cost) in ["move", "combat"].into_iter().zip(offered) {
            if cost.is_some_and(|cost| cost <= points) {
                options.push(Action::new("activate").and(*space).and(mode));
            }
        }
    }
    options
}

/// Whether the costs an Activate prompt works out still hold after a space is activated:
/// when no `MayActivate` or `ActivationCost` hook names the activation markers and tracing
/// supply reads neither, placing one changes no other space's cost (nothing else changes
/// between two Activate prompts of the same operations).
pub(in crate::rules) fn activation_costs_keep(
    content: &crate::content::Content,
    play: &crate::model::PlayRules,
) -> bool {
    let markers = [play.move_marker, play.combat_marker];
    let named = [HookPoint::MayActivate, HookPoint::ActivationCost]
        .into_iter()
        .any(|at| crate::rules::hooks::any_names(content, at, &markers));
    !named && !markers.iter().any(|&m| supply::reads_marker(content, m))
}

pub(super) fn set_stage(state: &mut State, to: OpsStage) {
    if let Some(Task::Ops { stage, .. }) = state.flow.tasks.last_mut() {
        *stage = to;
    }
}

pub(super) fn ops_act(
    rules: &Rules,
    state: &mut State,
    side: &str,
    points: u32,
    (stage, kept): (OpsStage, KeptCosts),
    action: &Action,
) -> Result<(), String> {
    // What the prompt kept holds only for the state it was worked out in.
    if let Some(Task::Ops { kept, .. }) = state.flow.tasks.last_mut() {
        kept.0 = None;
    }
    match (stage, action.verb()) {
        (OpsStage::Activate, "done") => set_stage(state, OpsStage::Move),
        (OpsStage::Move, "done") => {
            end_movement(rules, state, side);
            set_stage(state, OpsStage::Attack);
        }
        (OpsStage::Move, "entrench") => {
            let space = action.text(1).ok_or("which space?")?.to_string();
            let unit = entrencher(rules, state, &space).ok_or("no unit there may entrench")?;
            // The unit tries instead of moving.
            let printed = rules.movement(&state.units[unit]);
            let ma = movement::allowance(rules, state, unit, printed).max(1);
            state.flow.marks.moved.insert(unit, ma * 2);
            state.flow.marks.entrenching.insert(space);
        }
        (OpsStage::Attack, "done") => {
            state.flow.tasks.pop();
        }
        (OpsStage::Activate, "activate") => {
            let space = action.text(1).ok_or("which space?")?.to_string();
            let for_combat = action.text(2) == Some("combat");
            let content = rules.content.memo_id();
            let costs = (kept.0)
                .filter(|(c, _)| rules.keeps_activation_costs && *c == content)
                .map(|(_, costs)| costs);
            let offered = costs.as_ref().and_then(|c| {
                let at = c.iter().position(|(s, _)| *s == space)?;
                Some((at, c[at].1[usize::from(for_combat)]?))
            });
            let cost = match offered {
                Some((_, cost)) => cost,
                None => {
                    let units = own_units(rules, state, &space, side);
                    let base = activation_cost(rules, state, &mut SupplyCache::default(), &units);
                    Activation {
                        side,
                        space: space.as_str().into(),
                        units: &units,
                        for_combat,
                    }
                    .cost(rules, state, base)
                }
            };
            // The other spaces' costs stand for the next prompt, without this one.
            let quiet = state.flow.hooks_due.is_empty();
            if let (Some(costs), Some((at, _)), true) = (costs, offered, quiet) {
                let mut rest = std::sync::Arc::unwrap_or_clone(costs);
                rest.remove(at);
                if let Some(Task::Ops { kept, .. }) = state.flow.tasks.last_mut() {
                    kept.0 = Some((content, std::sync::Arc::new(rest)));
                }
            }
            let marker = if for_combat {
                &rules.play.combat_marker
            } else {
                &rules.play.move_marker
            };
            state.markers.push(MarkerOnMap {
                marker: marker.as_str().into(),
                space: space.into(),
                level: 1,
                until: Some("end_of_round".into()),
            });
            if let Some(Task::Ops { points: p, .. }) = state.flow.tasks.last_mut() {
                *p = points.saturating_sub(cost);
            }
        }
        (OpsStage::Move, "move") => {
            let unit = action.unit(1)?;
            let to = action.text(2).ok_or("where to?")?.to_string();
            let cost = step_cost(rules, state, unit, &to);
            *state.flow.marks.moved.entry(unit).or_insert(0) += cost;
            leave_stand_fast(rules, state, unit, &to, false);
            let mech = rules.is_mech_now(state, &state.units[unit])
                && SupplyCache::default().unit(rules, state, unit) != Level::Out;
            let from = match &state.units[unit].at {
                Loc::Space(s) => *s,
                _ => String::new().into(),
            };
            enter(rules, state, unit, &to);
            // A unit that may not stop where it stepped passes through: it goes on at once.
            // A supplied mechanized unit that ends its move on a Combat marker fights from there
            // (10.1): being there is what makes it eligible to attack.
            let stacks = stacking_allows(rules, state, unit, &to);
            state.flow.marks.passing = ((passes_through(rules) || stacks)
                && !rules.content.graph.index_of(&to).is_none_or(|at| {
                    let side = rules.side(&state.units[unit]);
                    let gates = &mut movement::MoveGates::new(rules, state, &side);
                    let stack = UnitStack::new(rules, state, unit);
                    ends_in(rules, state, (&stack, mech, gates), (unit, at))
                }))
            .then_some(unit);
            movement::after_step(rules, state, HookPoint::AfterMove, unit, (&from, &to));
        }
        (OpsStage::Attack, "attack") => {
            let target = action.text(1).ok_or("which space?")?.to_string();
            state
                .flow
                .tasks
                .push(Task::Combat(Box::new(CombatTask::new(side, &target))));
        }
        _ => return Err(format!("`{action}` does not fit this step")),
    }
    Ok(())
}

/// The unit of a space that may try to entrench: of the nations and sizes that may, and not
/// moved this action.
pub(super) fn entrencher(rules: &Rules, state: &State, space: &str) -> Option<usize> {
    let e = rules.play.entrench.as_ref()?;
    state.units_at(space).map(|(i, _)| i).find(|&i| {
        let u = &state.units[i];
        e.nations.iter().any(|n| n == rules.nation(u))
            && (e.sizes.is_empty() || e.sizes.iter().any(|s| s == rules.size(u)))
            && !state.flow.marks.moved.contains_key(&i)
    })
}

/// `entrench <space>` for each space activated for movement where a unit may try (the game's
/// condition, with `space` bound, says where).
pub(super) fn entrench_options(rules: &Rules, state: &State, side: &str) -> Vec<Action> {
    let Some(e) = rules.play.entrench.as_ref().filter(|e| e.side == side) else {
        return Vec::new();
    };
    let condition = rules
        .content
        .sequence
        .conditions
        .get("/play/entrench/playable");
    let mut out = Vec::new();
    for m in state
        .markers
        .iter()
        .filter(|m| m.marker == rules.play.move_marker)
    {
        if state.flow.marks.entrenching.contains(m.space.as_str())
            || entrencher(rules, state, &m.space).is_none()
            || out
                .iter()
                .any(|o: &Action| o.words().get(1) == Some(&Word::from(m.space)))
        {
            continue;
        }
        let ctx = Context {
            space: Some(m.space.as_str().into()),
            ..side_context(rules, &e.side)
        };
        if condition
            .is_some_and(|c| eval::condition(c, rules.content, state, &ctx).unwrap_or(false))
        {
            out.push(Action::new("entrench").and(m.space));
        }
    }
    out
}

/// Movement is over: every space where a unit tries to entrench runs the game's entrenchment
/// script (a die roll, a trench).
pub(super) fn end_movement(rules: &Rules, state: &mut State, side: &str) {
    for space in std::mem::take(&mut state.flow.marks.entrenching) {
        let at = "/play/entrench/effect";
        run_rule_script(rules, state, at, side, (Some(&space), Vec::new()));
    }
}

/// Runs a script of the rules kept at `at` (a JSON pointer into `game.ron`) for a side, with
/// the space and the names its place gives it; a script that fails or asks is reported and
/// changes nothing.
pub(in crate::rules) fn run_rule_script(
    rules: &Rules,
    state: &mut State,
    at: &str,
    side: &str,
    (space, names): (Option<&str>, Vec<(crate::Id, eval::Value)>),
) {
    let Some(stmts) = rules.content.sequence.effects.get(at) else {
        return;
    };
    let ctx = Context {
        space: space.map(crate::Id::new),
        names,
        ..side_context(rules, side)
    };
    match eval::run(stmts, rules.content, state, &ctx, &[]) {
        Ok((Outcome::Done, _)) => {}
        Ok((Outcome::Asks(_), _)) => state.flow.messages.push(format!(
            "the script at {at} asked a question; it was not run"
        )),
        Err(e) => state
            .flow
            .messages
            .push(format!("the script at {at} failed: {}", e.message)),
    }
}

/// The moves offered to a side's units in spaces activated for movement: each unit's steps,
/// or only the steps of the unit passing through a space where it may not stop (`true`: it
/// must go on).
pub(super) fn move_options(rules: &Rules, state: &State, side: &str) -> (Vec<Action>, bool) {
    let mv = &rules.play.move_marker;
    let mut cache = SupplyCache::default();
    if let Some(u) = state.flow.marks.passing {
        let own = rules.side(&state.units[u]);
        let gates = &mut movement::MoveGates::new(rules, state, &own);
        let mut options = Vec::new();
        unit_moves(rules, state, (&mut cache, gates), u, &mut options);
        // Its steps were offered only if it could go on; should it not, play goes on.
        if !options.is_empty() {
            return (options, true);
        }
    }
    let mut gates = movement::MoveGates::new(rules, state, side);
    // Room for a few units' steps from the start: the prompt is made after every step.
    let mut options = Vec::with_capacity(16);
    let side_id = crate::Id::new(side);
    // With a replay's answer given (`rules::Given`), the unit it moves is looked at first;
    // else, once a unit has a move, only the unit that may be the answer is.
    let given = &state.flow.given;
    // Only the pieces that may move are looked at, in their order: those on a space with a
    // move marker (found by the index of the pieces by space) and those that moved already.
    let mut candidates: Vec<usize> = (state.markers.iter())
        .filter(|m| m.marker == *mv)
        .flat_map(|m| state.units.on_id(m.space).iter().copied())
        .chain(state.flow.marks.moved.keys().copied())
        .collect();
    candidates.sort_unstable();
    candidates.dedup();
    // Each stands on a Move marker's space or has moved: only its side and place are asked.
    let own = |i: usize| {
        let u = &state.units[i];
        matches!(u.at, Loc::Space(_)) && rules.side(u) == side_id
    };
    let named = |i: usize| given.admits(&Action::new("move").and_unit(rules.content, state, i));
    // The unit a replay's answer moves, first: with a move, the prompt is not empty, and its
    // moves are all the answer may be.
    if given.is_some() {
        if let Some(&i) = candidates.iter().find(|&&i| own(i) && named(i)) {
            unit_moves(rules, state, (&mut cache, &mut gates), i, &mut options);
            if !options.is_empty() {
                return (options, false);
            }
        }
    }
    for i in candidates {
        if !own(i) || !options.is_empty() && !named(i) {
            continue;
        }
        unit_moves(rules, state, (&mut cache, &mut gates), i, &mut options);
    }
    (options, false)
}

/// Whether a unit's move may end in a space (a graph index): within the stacking rules, where
/// the `MayStop` hooks allow (asked through `gates`, its side's), and, unless it is
/// `mech`anized (and supplied), not on a Combat marker (10.1: it may only move through such a
/// space).
fn ends_in(
    rules: &Rules,
    state: &State,
    (stack, mech, gates): (&UnitStack, bool, &mut movement::MoveGates),
    (unit, space): (usize, usize),
) -> bool {
    let id = &rules.content.graph.spaces[space].id;
    (mech || !has_marker(state, id, rules.play.combat_marker))
        && stack.allows(state, space)
        && gates.may_end(rules, state, unit, space)
}

/// A unit's steps, as actions added to `out`: into a space where it may stop, or one it may
/// pass through (where the game lets it) on to such a space with the points it has left.
fn unit_moves<'c>(
    rules: &Rules<'c>,
    state: &State,
    (cache, gates): (&mut SupplyCache<'c>, &mut movement::MoveGates),
    i: usize,
    out: &mut Vec<Action>,
) {
    let g = &rules.content.graph;
    let u = &state.units[i];
    let side = rules.side(u);
    let Some(from) = crate::rules::space_of(rules, u) else {
        return;
    };
    let level = cache.unit(rules, state, i);
    let mut ma = gates.allowance(rules, state, i, rules.movement(u));
    if level == Level::Out {
        ma = ma.min(2);
    }
    // Movement points are counted in halves (a road costs half a point).
    let used = state.flow.marks.moved.get(&i).copied().unwrap_or(0);
    let ma = ma * 2;
    if used >= ma {
        return;
    }
    let mech = rules.is_mech_now(state, u) && level != Level::Out;
    let holders = state.control.by_index(rules.content);
    let stack = UnitStack::new(rules, state, i);
    let may = |n: usize, e: usize| {
        let to = &g.spaces[n].id;
        rules.movable(e)
            && crate::rules::stacking::may_enter_among(rules, state, &side, (n, &holders))
            && !enemy_in(rules, state, to, side)
            && stack.may_operate(n)
            && stack.may_pass(state, n)
    };
    // Where its move may end (`ends_in`). It may pass through a space where it may not (a
    // Combat marker's for a unit not mechanized, one the hooks close, one over the stacking
    // rules where the game lets it), when it can go on from there to a space where it may.
    let mut stops = |n: usize| ends_in(rules, state, (&stack, mech, &mut *gates), (i, n));
    let passes = |n: usize| passes_through(rules) || stack.allows(state, n);
    // The unit's steps asked through one `UnitSteps`, its search's too.
    let mut asked = movement::UnitSteps::new(rules, state, i);
    // The unit's word, made once for all its moves.
    let word = Word::unit(rules.content, state, i);
    let steps = movement::steps_from_with(&mut asked, from, ((used, ma), &[]), may);
    let moves = (steps.into_iter())
        .filter(|&(n, cost)| {
            stops(n)
                || passes(n)
                    && movement::reaches_stop(
                        (n, used + cost),
                        |x, spent| {
                            movement::steps_from_with(&mut asked, x, ((spent, ma), &[]), may)
                        },
                        &mut stops,
                        // no space ends a move on its own: a unit goes on from any
                        |_| true,
                    )
        })
        .map(|(n, _)| Action::new("move").and(word).and(g.spaces[n].id));
    out.extend(moves);
}

/// The movement points, in halves, of a unit's move from where it is to a neighbouring space.
pub(super) fn step_cost(rules: &Rules, state: &State, unit: usize, to: &str) -> u32 {
    let g = &rules.content.graph;
    let from = match &state.units[unit].at {
        Loc::Space(s) => g.index_of(s),
        _ => None,
    };
    let Some(to) = g.index_of(to) else { return 2 };
    from.and_then(|a| g.edge_between(a, to))
        .map_or(2, |e| movement::step_cost(rules, state, unit, (e, to), &[]))
}
