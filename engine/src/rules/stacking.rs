//! Where a unit may stand, the toolkit's rule every procedure asks: spaces a side may enter,
//! national restrictions (where a unit may operate), the stacking limits.

use super::Rules;
use crate::state::State;

/// Whether a side may ever enter a space (terrain and spaces it may not enter; neutral
/// territory stays closed until its country enters the war).
pub fn may_enter(rules: &Rules, state: &State, side: &str, space: usize) -> bool {
    let s = &rules.content.graph.spaces[space];
    if !state.control.contains_key(&s.id) {
        // A neutral space, open only under a rule whose flag is set.
        return rules.play.open_neutrals.iter().any(|o| {
            state.flags.contains(&o.flag)
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
    rules.play.operate_in.iter().all(|r| {
        let binds = (r.nations.iter().any(|n| n == rules.nation(u))
            || r.counters.contains(&u.counter))
            && !r.except_counters.contains(&u.counter)
            && (r.sizes.is_empty() || r.sizes.iter().any(|s| s == rules.size(u)))
            && r.unless_flag
                .as_ref()
                .is_none_or(|f| !state.flags.contains(f));
        let within = |regions: &[String]| {
            regions
                .iter()
                .any(|reg| crate::state::space_in_region(rules.content, space, reg))
        };
        let allowed = r.regions.is_empty() && r.spaces.is_empty()
            || within(&r.regions)
            || r.spaces.iter().any(|s| s == space);
        !binds || allowed && !within(&r.not_regions)
    })
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
    let u = &state.units[unit];
    let nation = rules.nation(u);
    let st = &rules.game.stacking;
    let others: Vec<&crate::state::Unit> = state
        .units_at(space)
        .filter(|(i, _)| *i != unit)
        .map(|(_, x)| x)
        .collect();
    let counts = |x: &crate::state::Unit| {
        !rules
            .game
            .unit_types
            .iter()
            .any(|t| t.id == rules.unit_type(x) && t.no_stacking)
    };
    if let Some(limit) = st.limit {
        if counts(u) && others.iter().filter(|x| counts(x)).count() as u32 >= limit {
            return false;
        }
    }
    // The space itself, only for the limits and exceptions that depend on where it lies.
    let by_region = !st.limits.is_empty() || st.apart.iter().any(|a| !a.except.is_empty());
    let here = if by_region {
        rules.content.graph.space(space)
    } else {
        None
    };
    for l in &st.limits {
        if here.is_some_and(|h| l.applies(rules.game, h))
            && counts(u)
            && l.counts(nation)
            && others
                .iter()
                .filter(|x| counts(x) && l.counts(rules.nation(x)))
                .count() as u32
                >= l.limit
        {
            return false;
        }
    }
    if st.alone.contains(&u.counter) && !others.is_empty()
        || others.iter().any(|x| st.alone.contains(&x.counter))
    {
        return false;
    }
    let together_here = |ap: &crate::model::Apart| {
        here.is_some_and(|h| {
            ap.except
                .iter()
                .any(|r| crate::state::space_lies_in(rules.game, h, r))
        })
    };
    // In a retreat, the rules that say a retreat may break them do not hold.
    let holds = |ap: &crate::model::Apart| !(together_here(ap) || in_retreat && ap.retreat);
    let clash = |a: &str, b: &str| {
        st.apart.iter().any(|ap| {
            holds(ap)
                && ap.nations.iter().any(|n| n == a)
                && !ap.nations.iter().any(|n| n == b)
                && (ap.from.is_empty() || ap.from.iter().any(|n| n == b))
        })
    };
    !others.iter().any(|x| {
        let n = rules.nation(x);
        clash(nation, n) || clash(n, nation)
    })
}
