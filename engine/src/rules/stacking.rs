//! Where a unit may stand, the toolkit's rule every procedure asks: spaces a side may enter,
//! national restrictions (where a unit may operate), the stacking limits.

use super::Rules;
use crate::model::{Apart, PassThrough};
use crate::state::{State, Unit};

/// Whether a side may ever enter a space (terrain and spaces it may not enter; neutral
/// territory stays closed until its country enters the war).
pub fn may_enter(rules: &Rules, state: &State, side: &str, space: usize) -> bool {
    let s = &rules.content.graph.spaces[space];
    if state.control.by_index(rules.content)[space].is_none() {
        // A neutral space, open only under a rule whose flag is set.
        return rules.play.open_neutrals.iter().any(|o| {
            state.flags.contains(o.flag.as_str())
                && o.regions
                    .iter()
                    .any(|r| crate::state::space_in_region(rules.content, &s.id, r))
        });
    }
    !rules.play.no_entry.iter().any(|n| {
        n.side == side
            && (n.spaces.contains(&s.id)
                || s.terrain.as_ref().is_some_and(|t| n.terrains.contains(t)))
    })
}

/// Whether a unit may operate in a space: every national restriction that binds it allows
/// the space (a rule lifted by its flag binds no one).
pub fn may_operate(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    let u = &state.units[unit];
    if rules.play.operate_in.is_empty() {
        return true;
    }
    let at = rules.content.graph.index_of(space);
    // Which rules name the unit's counter and allow each space, found once per content.
    let table = rules.content.operate_binds(|| operate_table(rules));
    let binds = |r: &crate::model::OperateIn| {
        r.unless_flag
            .as_ref()
            .is_none_or(|f| !state.flags.contains(f.as_str()))
    };
    let allowed = |k: usize, r: &crate::model::OperateIn| match at {
        Some(i) => table.allows[k][i],
        // Off the map: no region holds it; only the spaces listed by id.
        None => r.regions.is_empty() && r.spaces.is_empty() || r.spaces.iter().any(|s| s == space),
    };
    let operate = &rules.play.operate_in;
    let counter = (rules.content.counters.get(u.hint)).filter(|c| c.id == u.counter);
    match counter {
        // Only the rules that name the counter can bind it.
        Some(_) => table.naming[u.hint]
            .iter()
            .all(|&k| !binds(&operate[k]) || allowed(k, &operate[k])),
        None => operate.iter().enumerate().all(|(k, r)| {
            let named = rules.counter(u).is_some_and(|c| names_counter(r, c));
            !(named && binds(r)) || allowed(k, r)
        }),
    }
}

/// Which `operate_in` rules name each counter, and allow which spaces (in a region or
/// listed, and in none of the regions they rule out).
fn operate_table(rules: &Rules) -> crate::content::OperateTable {
    let content = rules.content;
    let spaces = &content.graph.spaces;
    let in_region = |i: usize, reg: &String| crate::content::space_at_in_region(content, i, reg);
    let operate = &rules.play.operate_in;
    crate::content::OperateTable {
        naming: content
            .counters
            .iter()
            .map(|c| {
                (operate.iter().enumerate())
                    .filter(|(_, r)| names_counter(r, c))
                    .map(|(k, _)| k)
                    .collect()
            })
            .collect(),
        allows: operate
            .iter()
            .map(|r| {
                (0..spaces.len())
                    .map(|i| {
                        let within = |regions: &[String]| regions.iter().any(|g| in_region(i, g));
                        (r.regions.is_empty() && r.spaces.is_empty()
                            || within(&r.regions)
                            || r.spaces.iter().any(|s| *s == spaces[i].id))
                            && !within(&r.not_regions)
                    })
                    .collect()
            })
            .collect(),
    }
}

/// Whether a national restriction names a counter (by its nation, its id or its size).
fn names_counter(r: &crate::model::OperateIn, c: &crate::model::Counter) -> bool {
    (r.nations.iter().any(|x| *x == c.nation) || r.counters.iter().any(|x| *x == c.id))
        && !r.except_counters.iter().any(|x| *x == c.id)
        && (r.sizes.is_empty() || r.sizes.iter().any(|x| *x == c.size))
}

/// Whether a unit may end its move in a space: where it may operate, without breaking the
/// stacking rules.
pub(super) fn may_stack(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    if !may_operate(rules, state, unit, space) {
        return false;
    }
    let side = rules.side(&state.units[unit]);
    if state
        .units_at(space)
        .any(|(i, x)| i != unit && rules.side(x) != side)
    {
        return false;
    }
    stacking_allows(rules, state, unit, space)
}

/// Whether the game's stacking rules (limits by nation and region, units that must stay
/// apart or alone) let a unit stand in a space with the units already there.
pub(super) fn stacking_allows(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    stacking_allows_with(rules, state, unit, space, false)
}

/// [`stacking_allows`] for the end of a retreat, which may break the rules that keep nations
/// apart where they say a retreat may (`retreat`), when `in_retreat`.
pub(super) fn stacking_allows_with(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: &str,
    in_retreat: bool,
) -> bool {
    let others = others_at(state, unit, space);
    within_limits(rules, state, unit, space, &others)
        && may_be_together(rules, state, unit, space, (&others, in_retreat))
}

/// [`stacking_allows`] as if the units `gone` were not there (units about to be overrun).
pub(super) fn allows_without(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: &str,
    gone: &[usize],
) -> bool {
    let others: Vec<&Unit> = state
        .units_at(space)
        .filter(|(i, _)| *i != unit && !gone.contains(i))
        .map(|(_, u)| u)
        .collect();
    within_limits(rules, state, unit, space, &others)
        && may_be_together(rules, state, unit, space, (&others, false))
}

/// Whether a moving unit may pass through a space, stopping there or not: the stacking rules
/// that hold at each step of a move, by the game's `pass_through` (all of them, those that
/// keep pieces apart or alone, or none). Where it may stop is [`stacking_allows`].
pub(super) fn may_pass(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    match rules.game.stacking.pass_through {
        PassThrough::Never => stacking_allows(rules, state, unit, space),
        PassThrough::OverLimits => {
            let others = others_at(state, unit, space);
            may_be_together(rules, state, unit, space, (&others, false))
        }
        PassThrough::Always => true,
    }
}

/// Whether the game lets a moving unit pass through spaces where it may not stop.
pub(super) fn passes_through(rules: &Rules) -> bool {
    rules.game.stacking.pass_through != PassThrough::Never
}

/// The other units in a space.
fn others_at<'s>(state: &'s State, unit: usize, space: &'s str) -> Vec<&'s Unit> {
    state
        .units_at(space)
        .filter(|(i, _)| *i != unit)
        .map(|(_, x)| x)
        .collect()
}

/// Whether a unit counts for stacking.
fn counts(rules: &Rules, x: &Unit) -> bool {
    !rules
        .game
        .unit_types
        .iter()
        .any(|t| t.no_stacking && t.id == rules.unit_type(x))
}

/// Whether a unit in a space with `others` stays within the stacking limits (`limit`, and the
/// `limits` by nation and region).
fn within_limits(rules: &Rules, state: &State, unit: usize, space: &str, others: &[&Unit]) -> bool {
    let u = &state.units[unit];
    if !counts(rules, u) {
        return true;
    }
    let st = &rules.game.stacking;
    if let Some(limit) = st.limit {
        if others.iter().filter(|x| counts(rules, x)).count() as u32 >= limit {
            return false;
        }
    }
    if st.limits.is_empty() {
        return true;
    }
    let Some(here) = rules.content.graph.index_of(space) else {
        return true;
    };
    let lies_in = |r: &String| crate::content::space_at_in_region(rules.content, here, r);
    let applies = |l: &crate::model::StackLimit| {
        (l.within.is_empty() || l.within.iter().any(lies_in)) && !l.except.iter().any(lies_in)
    };
    let nation = rules.nation_id(u);
    !st.limits.iter().any(|l| {
        l.counts(nation)
            && l.in_force(|f| state.flags.contains(&f))
            && applies(l)
            && others
                .iter()
                .filter(|x| counts(rules, x) && l.counts(rules.nation_id(x)))
                .map(|x| l.weight(rules.size_id(x)))
                .sum::<u32>()
                + l.weight(rules.size_id(u))
                > l.limit
    })
}

/// Whether a unit may be in a space with `others` by the rules that keep pieces alone or
/// nations apart (in a retreat, those that say a retreat may break them do not hold).
fn may_be_together(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: &str,
    (others, in_retreat): (&[&Unit], bool),
) -> bool {
    let u = &state.units[unit];
    let st = &rules.game.stacking;
    if st.alone.contains(&u.counter) && !others.is_empty()
        || others.iter().any(|o| st.alone.contains(&o.counter))
    {
        return false;
    }
    if st.apart.is_empty() || others.is_empty() {
        return true;
    }
    // The space itself, only for the exceptions that depend on where it lies.
    let here = if st.apart.iter().any(|a| !a.except.is_empty()) {
        rules.content.graph.index_of(space)
    } else {
        None
    };
    let together_here = |ap: &Apart| {
        here.is_some_and(|h| {
            ap.except
                .iter()
                .any(|r| crate::content::space_at_in_region(rules.content, h, r))
        })
    };
    let holds = |ap: &Apart| !(together_here(ap) || in_retreat && ap.retreat);
    // Ids compared by address.
    let clash = |a: crate::Id, b: crate::Id| {
        st.apart.iter().any(|ap| {
            holds(ap)
                && ap.nations.contains(&a)
                && !ap.nations.contains(&b)
                && (ap.from.is_empty() || ap.from.contains(&b))
        })
    };
    let nation = rules.nation_id(u);
    !others.iter().any(|x| {
        let n = rules.nation_id(x);
        clash(nation, n) || clash(n, nation)
    })
}
