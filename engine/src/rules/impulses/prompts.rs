//! Operations in impulses: the prompts of each stage and the options they offer (activation,
//! orders, attacks; the moves are `moves.rs`'s).

use super::*;
use crate::rules::supply::attack;
use crate::rules::supply::zones::Occupancy;

/// Runs the operations on: the prompt they ask, or none when the state moved on.
pub(in crate::rules) fn step(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
) -> Option<Prompt> {
    let Some(s) = spec(rules, t.at) else {
        state.flow.tasks.pop();
        return None;
    };
    let Some(imp) = s.impulses.get(t.impulse) else {
        state.flow.tasks.pop();
        return None;
    };
    let side = imp.side.as_str();
    match t.stage {
        Stage::Activate => {
            if t.units.is_empty() {
                // Before the side acts, the others may play what may be played now.
                for other in &rules.game.sides {
                    if other.id == side || t.window.iter().any(|x| *x == other.id) {
                        continue;
                    }
                    let cards: Vec<Action> = playable_chits(rules, state, &other.id)
                        .map(|c| Action::new("event").and(Word::id(c)))
                        .collect();
                    if cards.is_empty() {
                        continue;
                    }
                    let mut options = cards;
                    options.push(Action::new("no").and("card"));
                    return Some(Prompt::one_of(
                        &other.id,
                        "event",
                        format!("Start of {}: play an event chit?", imp.name),
                        options,
                    ));
                }
            }
            Some(activate_prompt(rules, state, s, &t))
        }
        Stage::Move | Stage::Reserve if t.overrunning.is_some() => {
            let to = t.overrunning.as_ref().map_or("", |(to, _)| to.as_str());
            Some(Prompt::one_of(
                side,
                "overrun",
                format!(
                    "{}: overrun {to} together: add units until their attack is enough, then \
                     overrun (or cancel)",
                    imp.name
                ),
                joining_options(rules, state, &t),
            ))
        }
        Stage::Move | Stage::Reserve => {
            let mode = if t.stage == Stage::Move {
                Mode::Move
            } else {
                Mode::Reserve
            };
            let (options, passing) =
                movement::with_zones(rules, state, || move_options(rules, state, &t, mode));
            if options.is_empty() {
                if t.stage == Stage::Move {
                    t.stage = Stage::Combat;
                    put(state, t);
                } else {
                    end_impulse(rules, state, t);
                }
                return None;
            }
            let question = if passing {
                format!(
                    "{}: move on the unit passing through a space where it may not stop",
                    imp.name
                )
            } else {
                format!(
                    "{}: move the units activated in {} mode, then done",
                    imp.name,
                    mode.word()
                )
            };
            // A unit passing through a space where it may not stop goes on; units that must
            // leave, or approach under an order, move before the move ends.
            if passing
                || mode == Mode::Move
                    && (leave::must_move(rules, state, s, &t)
                        || approach_pending(rules, state, s, &t))
            {
                return Some(Prompt::one_of(side, "move", question, options));
            }
            Some(with_done(side, "move", question, options))
        }
        Stage::Combat => {
            let options = attack_options(rules, state, &t);
            if options.is_empty() {
                t.stage = Stage::Reserve;
                prepare_moves(rules, state, &mut t, Mode::Reserve);
                put(state, t);
                return None;
            }
            if order_pending(rules, state, s, &t) {
                return Some(Prompt::one_of(
                    side,
                    "attack",
                    format!(
                        "{}: the order to attack binds these units: attack",
                        imp.name
                    ),
                    options,
                ));
            }
            Some(with_done(
                side,
                "attack",
                format!(
                    "{}: attack with the units activated in combat mode, then done",
                    imp.name
                ),
                options,
            ))
        }
        Stage::EndMove => {
            let options = end_move_options(rules, state, &t);
            if options.is_empty() {
                next_end_move(rules, state, t);
                return None;
            }
            Some(with_done(
                side,
                "move",
                format!(
                    "End of turn ({}): units not activated may move one space, then done",
                    imp.name
                ),
                options,
            ))
        }
    }
}

/// A prompt of these options and `done`.
pub(super) fn with_done(
    side: &str,
    kind: &'static str,
    question: String,
    mut options: Vec<Action>,
) -> Prompt {
    options.push(Action::new("done"));
    Prompt::one_of(side, kind, question, options)
}

pub(super) fn max_units(state: &State, s: &Impulses) -> usize {
    s.more_units
        .iter()
        .filter(|m| state.flags.contains(m.flag.as_str()))
        .map(|m| m.units)
        .fold(s.units, u32::max) as usize
}

pub(super) fn activate_prompt(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    t: &ImpulseTask,
) -> Prompt {
    let imp = &s.impulses[t.impulse];
    let mut options = Vec::new();
    let allowance = max_units(state, s) as u32;
    // Units that must leave where they stand are activated first, to move (7.3.2, 2.2.8).
    let must = leave::must_activate(rules, state, s, t);
    if !must.is_empty() {
        let options: Vec<Action> = must
            .iter()
            .filter(|&&u| {
                activation(rules, state, t, u, Mode::Move).is_some_and(|c| t.spent + c <= allowance)
            })
            .map(|&u| {
                Action::new("activate")
                    .and_unit(rules.content, state, u)
                    .and("move")
            })
            .collect();
        if !options.is_empty() {
            return Prompt::one_of(
                &imp.side,
                "activate",
                format!(
                    "{}: activate first, to move, the units that must leave where they stand",
                    imp.name
                ),
                options,
            );
        }
    }
    if t.spent < allowance {
        for (i, u) in state.units.iter().enumerate() {
            if on_map(state, i).is_none()
                || rules.side(u) != imp.side
                || !imp.nations.iter().any(|n| n == rules.nation(u))
                || state.flow.activated.contains(&i)
                || t.units.iter().any(|(x, _)| *x == i)
            {
                continue;
            }
            for mode in [Mode::Move, Mode::Combat, Mode::Reserve] {
                // Apart from its army, a unit may only move back to it (7.3.1); a unit out of
                // supply may not go into reserve.
                // A unit that may not stay where it stands may only be activated to leave.
                let leaving = leave::leaving(t, i).is_some();
                let barred = match mode {
                    Mode::Move => false,
                    Mode::Combat => t.apart.contains(&i) || leaving,
                    Mode::Reserve => t.apart.contains(&i) || state.flow.oos.contains(&i) || leaving,
                };
                if !barred
                    && activation(rules, state, t, i, mode)
                        .is_some_and(|cost| t.spent + cost <= allowance)
                {
                    options.push(
                        Action::new("activate")
                            .and_unit(rules.content, state, i)
                            .and(mode.word()),
                    );
                }
            }
        }
    }
    let order = order_status(rules, state, s, t);
    let full = t.spent >= allowance;
    if t.units.is_empty() {
        options.extend(
            playable_chits(rules, state, &imp.side).map(|c| Action::new("event").and(Word::id(c))),
        );
    }
    match order {
        // An order to attack: no pass, and go once it is met (or nothing more can be done).
        Some(o) if o.need > 0 => {
            if o.met || full {
                options.push(Action::new("go"));
            }
        }
        _ if t.units.is_empty() => options.push(Action::new("pass")),
        _ => options.push(Action::new("go")),
    }
    Prompt::one_of(
        &imp.side,
        "activate",
        format!(
            "{}: activate up to {} units (movement, combat or reserve), then go; or pass",
            imp.name,
            max_units(state, s)
        ),
        options,
    )
}

/// What activating a unit in a mode costs of the impulse's allowance (one, changed by the
/// game's `ActivationCost` hooks), if the game's `MayActivate` hooks allow it.
pub(super) fn activation(
    rules: &Rules,
    state: &State,
    t: &ImpulseTask,
    unit: usize,
    mode: Mode,
) -> Option<u32> {
    let s = spec(rules, t.at)?;
    let side = s.impulses.get(t.impulse)?.side.as_str();
    let space = on_map(state, unit)?;
    crate::rules::activation::Activation {
        side,
        space: space.into(),
        units: &[unit],
        for_combat: mode.for_combat(),
    }
    .offered(rules, state, 1)
}

/// The event chits a side holds whose condition allows them now.
pub(super) fn playable_chits<'s>(
    rules: &'s Rules,
    state: &'s State,
    side: &'s str,
) -> impl Iterator<Item = &'s String> + 's {
    let ctx = side_context(rules, side);
    state
        .hands
        .get(side)
        .into_iter()
        .flatten()
        .filter(move |card| {
            let scripts = rules.content.scripts.get(card.as_str());
            scripts.is_some_and(|s| s.effect.is_some())
                && scripts.and_then(|s| s.playable.as_ref()).is_none_or(|c| {
                    let memo = rules.content.playable_memo(card);
                    crate::rules::hook_memo::condition(rules.content, state, memo, c, &ctx)
                })
        })
}

/// Sets each unit of a mode its movement allowance, in half points: all of it in movement
/// mode, half in reserve; one space only when out of supply.
pub(super) fn prepare_moves(rules: &Rules, state: &mut State, t: &mut ImpulseTask, mode: Mode) {
    let Some(s) = spec(rules, t.at) else { return };
    t.used.clear();
    t.allowed.clear();
    t.passing = None;
    let faces = rules.game.dice.faces;
    for &(u, m) in &t.units.clone() {
        if m != mode || on_map(state, u).is_none() {
            continue;
        }
        let ma = movement::allowance(rules, state, u, stat(rules, state, u, &s.movement));
        let halves = if mode == Mode::Reserve { ma } else { ma * 2 };
        let halves = if state.flow.oos.contains(&u) {
            1
        } else {
            halves
        };
        t.allowed.insert(u, halves);
        t.used.insert(u, 0);
        if mode != Mode::Move {
            continue;
        }
        // The movement test (7.2.2).
        let Some(test) = &s.movement_rules.move_test else {
            continue;
        };
        let nation = rules.nation(&state.units[u]).to_string();
        if !test.nations.contains(&nation)
            || test
                .lifted_by
                .iter()
                .any(|l| state.flags.contains(l.flag.as_str()) && l.nations.contains(&nation))
        {
            continue;
        }
        let Some(table) = rules.content.tables.iter().find(|x| x.id == test.table) else {
            continue;
        };
        let roll = state.roll(faces) as i32;
        let column = ColumnInput::Strength(state.turn as i32);
        let cell = table.lookup(column, 0, RowInput::Roll { roll, drm: 0 }, faces);
        let passed =
            matches!(cell, Ok(Cell::Scalar(Scalar::Symbol(r))) if *r == test.pass) || cell.is_err();
        if let Ok(c) = cell {
            let col = table.column(column).unwrap_or(0);
            state.record.roll(&table.id, col, c.to_string());
        }
        let name = state.units[u].name(rules.content);
        if !passed {
            let at = on_map(state, u).unwrap_or_default().to_string();
            t.restricted.insert(u, prop(rules, &at, &test.property));
            state.flow.messages.push(format!(
                "{name} rolls {roll} on {}: it may not move to a lower {}",
                table.id, test.property
            ));
        }
    }
}

pub(super) fn attack_options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<Action> {
    let Some(s) = spec(rules, t.at) else {
        return Vec::new();
    };
    let mut targets = BTreeSet::new();
    let mut sieges = BTreeSet::new();
    let supply = AttackLines::new(rules, state, s);
    for &(u, m) in &t.units {
        if !fights(state, s, u, m) || t.fought.contains(&u) || !supply.allows(rules, state, u) {
            continue;
        }
        let Some(at) = on_map(state, u) else { continue };
        for target in attack_targets(rules, state, s, u) {
            if !t.attacked.contains(&target) {
                targets.insert(target);
            }
        }
        if let Some(city) = city_of(rules, t.at, at) {
            if may_siege(rules, state, city, u) && !t.attacked.iter().any(|x| x == at) {
                sieges.insert(at.to_string());
            }
        }
    }
    // Defenders of a city may bring in units from one adjacent space outside it (9.2.4).
    targets
        .into_iter()
        .map(|x| Action::new("attack").and(Word::id(&x)))
        .chain(
            sieges
                .into_iter()
                .map(|x| Action::new("city").and(Word::id(&x))),
        )
        .collect()
}

/// The game's attack supply, where it has one, with who stands where.
pub(super) struct AttackLines<'c> {
    spec: Option<(&'c crate::model::AttackSupply, Occupancy)>,
}

impl<'c> AttackLines<'c> {
    pub(super) fn new(rules: &Rules, state: &State, s: &'c Impulses) -> AttackLines<'c> {
        AttackLines {
            spec: s
                .combat
                .attack_supply
                .as_ref()
                .map(|a| (a, Occupancy::of(rules, state))),
        }
    }

    /// Whether a unit has the attack supply it needs (or needs none).
    pub(super) fn allows(&self, rules: &Rules, state: &State, unit: usize) -> bool {
        self.sources(rules, state, unit)
            .is_none_or(|found| !found.is_empty())
    }

    /// The supply units that can supply a unit's attack; `None` when it needs none.
    pub(super) fn sources(&self, rules: &Rules, state: &State, unit: usize) -> Option<Vec<usize>> {
        let (spec, occ) = self.spec.as_ref()?;
        attack::sources(rules, state, (spec, occ), unit)
    }
}

/// Whether units of a mode may attack: combat mode, or movement mode under an event that
/// lets them do both.
pub(super) fn fights(state: &State, s: &Impulses, unit: usize, mode: Mode) -> bool {
    mode == Mode::Combat
        || mode == Mode::Move
            && s.move_and_attack
                .iter()
                .any(|f| state.flags.contains(f.as_str()) || state.unit_flag(unit, f))
}

/// The spaces a unit may attack from where it stands.
pub(super) fn attack_targets(
    rules: &Rules,
    state: &State,
    s: &Impulses,
    unit: usize,
) -> Vec<String> {
    let g = &rules.content.graph;
    let Some((at, fi)) = placed(rules, state, unit) else {
        return Vec::new();
    };
    // A unit sharing its space with hostile units fights only there (a city); one in a closed
    // space does not attack (2.2.8).
    if hostile_in(rules, state, at, unit) || is_closed(state, s, at) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &(n, e) in g.neighbours(fi) {
        let to = &g.spaces[n].id;
        if g.edges[e]
            .kinds
            .iter()
            .any(|k| s.combat.not_across.contains(k))
            || s.combat.not_into.iter().any(|r| in_region(rules, to, r))
            || !hostile_in(rules, state, to, unit)
            || !battle::may_attack(rules, state, unit, at, to)
        {
            continue;
        }
        out.push(to.to_string());
    }
    out
}

/// Whether a unit in a city space may fight there on the city table.
pub(super) fn may_siege(rules: &Rules, state: &State, city: &CityCombat, unit: usize) -> bool {
    let Some(at) = on_map(state, unit) else {
        return false;
    };
    if is_besieger(rules, state, city, unit) {
        let side = rules.side(&state.units[unit]);
        !state.flow.oos.contains(&unit)
            && support(state, city, &side) >= 1
            && (hostile_in(rules, state, at, unit) || garrison(rules, state, city, at) > 0)
    } else {
        besieged_by(rules, state, city, at)
    }
}

pub(in crate::rules) fn support_track<'c>(city: &'c CityCombat, side: &str) -> Option<&'c str> {
    city.support
        .iter()
        .find(|x| x.side == side)
        .map(|x| x.track.as_str())
}

pub(in crate::rules) fn support(state: &State, city: &CityCombat, side: &str) -> i64 {
    support_track(city, side).map_or(0, |t| state.track(t))
}

pub(in crate::rules) fn garrison(
    rules: &Rules,
    state: &State,
    city: &CityCombat,
    space: &str,
) -> i64 {
    match &city.garrison_override {
        Some((flag, value)) if state.flags.contains(flag.as_str()) => i64::from(*value),
        _ => prop(rules, space, &city.garrison),
    }
}
