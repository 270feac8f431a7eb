//! Combat, the toolkit's part every way of giving turns calls: who may attack, strengths,
//! die-roll modifiers, column shifts and losses as the hooks change them, and what follows a
//! combat. The families of combat (fire by both sides, odds with step losses, city combat)
//! differ in data; each asks here at the same points.

use std::collections::BTreeSet;

use super::hooks::{self, flag, int, space, unit, units};
use super::Rules;
use crate::model::{Cell, HookPoint, Table};
use crate::state::{Loc, State};
use crate::tables::{ColumnInput, LookupError, RowInput};

/// The units and the space of a combat, as the hooks see them.
#[derive(Debug, Clone, Copy)]
pub struct Fight<'a> {
    pub attacker: &'a str,
    pub attackers: &'a [usize],
    pub defenders: &'a [usize],
    pub space: &'a str,
}

impl Fight<'_> {
    fn names(&self, attacking: bool) -> hooks::Names {
        vec![
            units("attackers", self.attackers),
            units("defenders", self.defenders),
            space("defending_space", self.space),
            flag("attacking", attacking),
        ]
    }

    fn defender<'r>(&self, rules: &Rules<'r>) -> &'r str {
        rules.other_side(self.attacker)
    }
}

/// Whether the `MayAttack` hooks let unit `u`, in `from`, attack `target`.
pub fn may_attack(rules: &Rules, state: &State, u: usize, from: &str, target: &str) -> bool {
    let side = rules.side(&state.units[u]);
    hooks::may(rules.content, state, HookPoint::MayAttack, &side, || {
        vec![
            unit("u", u),
            space("from", from),
            space("defending_space", target),
        ]
    })
}

/// How many spaces unit `u` may advance after the combat at `target`: `base` (the game's
/// own rule) changed by the `Advance` hooks, never below zero.
pub fn advance_reach(rules: &Rules, state: &State, u: usize, target: &str, base: u32) -> u32 {
    let side = rules.side(&state.units[u]);
    let v = hooks::modify(
        rules.content,
        state,
        HookPoint::Advance,
        &side,
        i64::from(base),
        || vec![unit("u", u), space("defending_space", target)],
    );
    u32::try_from(v.max(0)).unwrap_or(u32::MAX)
}

/// The hooks that acted in a combat, by their place in `game.ron` (cited in its message).
pub type Acted = BTreeSet<usize>;

/// A unit's combat strength, from its printed strength, changed by the `Strength` hooks.
pub fn strength(
    rules: &Rules,
    state: &State,
    (u, acted): (usize, &mut Acted),
    (target, attacking, attackers): (&str, bool, &[usize]),
    printed: i64,
) -> i64 {
    let side = rules.side(&state.units[u]);
    let (v, by) = hooks::modify_noted(
        rules.content,
        state,
        HookPoint::Strength,
        &side,
        (printed, 1),
        || {
            vec![
                unit("u", u),
                space("defending_space", target),
                flag("attacking", attacking),
                hooks::units("attackers", attackers),
            ]
        },
    );
    acted.extend(by);
    v
}

/// A side's die-roll modifier or column shift (`at` is `Drm` or `Shift`) in a fight, changed
/// by the hooks; `attacking` says whether the side rolling is the attacker.
pub fn roll_modifier(
    rules: &Rules,
    state: &State,
    (at, acted): (HookPoint, &mut Acted),
    (fight, attacking): (&Fight, bool),
    value: i32,
) -> i32 {
    let side = if attacking {
        fight.attacker
    } else {
        fight.defender(rules)
    };
    let (v, by) = hooks::modify_noted(rules.content, state, at, side, (value as i64, 1), || {
        fight.names(attacking)
    });
    acted.extend(by);
    v.clamp(-1000, 1000) as i32
}

/// The loss a fight inflicts on one side (`attacking`: on the attacker), changed by the
/// `Loss` hooks; `me` is the side that takes it.
pub fn loss(
    rules: &Rules,
    state: &State,
    (fight, attacking, acted): (&Fight, bool, &mut Acted),
    value: u32,
) -> u32 {
    let side = if attacking {
        fight.attacker
    } else {
        fight.defender(rules)
    };
    let (v, by) = hooks::modify_noted(
        rules.content,
        state,
        HookPoint::Loss,
        side,
        (value as i64, 1),
        || fight.names(attacking),
    );
    acted.extend(by);
    v.clamp(0, 1000) as u32
}

/// The steps the units of a list have on the map.
pub fn steps_on_map(rules: &Rules, state: &State, us: &[usize]) -> u32 {
    us.iter()
        .filter(|&&u| matches!(state.units[u].at, Loc::Space(_)))
        .map(|&u| rules.steps(&state.units[u]))
        .sum()
}

/// Queues what follows a combat (`AfterCombat`): the units of each side still on the map, and
/// the steps each side lost since `steps_before` (attacker's, defender's).
pub fn after_combat(rules: &Rules, state: &mut State, fight: &Fight, steps_before: (u32, u32)) {
    if !hooks::any_at(rules.content, HookPoint::AfterCombat) {
        return;
    }
    let on_map = |us: &[usize]| -> Vec<usize> {
        us.iter()
            .copied()
            .filter(|&u| matches!(state.units[u].at, Loc::Space(_)))
            .collect()
    };
    let (a, d) = (on_map(fight.attackers), on_map(fight.defenders));
    let lost = (
        steps_before
            .0
            .saturating_sub(steps_on_map(rules, state, fight.attackers)),
        steps_before
            .1
            .saturating_sub(steps_on_map(rules, state, fight.defenders)),
    );
    let names = vec![
        units("attackers", &a),
        units("defenders", &d),
        space("defending_space", fight.space),
        int("attacker_steps_lost", lost.0 as i64),
        int("defender_steps_lost", lost.1 as i64),
    ];
    let side = fight.attacker.to_string();
    hooks::after(rules, state, HookPoint::AfterCombat, &side, names);
}

/// A roll on a combat table (fire, odds, any table): the column its input gives, shifted; the
/// die rolled and modified; the result, recorded for the statistics.
pub struct TableRoll<'t> {
    pub cell: Result<&'t Cell, LookupError>,
    pub roll: i32,
    /// The column read, after the shift.
    pub column: usize,
    pub label: String,
}

/// Rolls on a combat table with a column shift and a die-roll modifier.
pub fn roll_on<'t>(
    rules: &Rules,
    state: &mut State,
    table: &'t Table,
    input: ColumnInput,
    (shift, drm): (i32, i32),
) -> TableRoll<'t> {
    let faces = rules.game.dice.faces;
    let roll = state.roll(faces) as i32;
    let cell = table.lookup(input, shift, RowInput::Roll { roll, drm }, faces);
    let column = table.shift(table.column(input).unwrap_or(0), shift);
    if let Ok(c) = cell {
        state.record.roll(&table.id, column, c.to_string());
    }
    TableRoll {
        cell,
        roll,
        column,
        label: table.column_label(column),
    }
}
