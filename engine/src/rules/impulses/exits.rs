//! Ways off the map (`movement_rules.exits`): a unit of the nations of an exit standing in a
//! space of its region may leave the map in place of the rest of its move, into the exit's box
//! (`exit UNIT`), for good: armies sent off the west edge, which victory scripts count.

use super::*;

/// `exit UNIT`, when the unit may leave the map now.
pub(super) fn exit_option(
    rules: &Rules,
    state: &State,
    (s, t): (&Impulses, &ImpulseTask),
    u: usize,
) -> Option<Action> {
    let at = on_map(state, u)?;
    let (Some(&used), Some(&allowed)) = (t.used.get(&u), t.allowed.get(&u)) else {
        return None;
    };
    if used >= allowed && used > 0 {
        return None;
    }
    let nation = rules.nation(&state.units[u]);
    s.movement_rules
        .exits
        .iter()
        .any(|x| opens(state, x, nation) && in_region(rules, at, &x.region))
        .then(|| Action::new("exit").and_unit(rules.content, state, u))
}

/// `exit UNIT`: the unit leaves the map into the box of the first exit that lets it.
pub(super) fn exit(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    u: usize,
) -> Result<(), String> {
    let s = spec(rules, t.at).ok_or("the operations have no parameters")?;
    let at = on_map(state, u)
        .ok_or("the unit is not on the map")?
        .to_string();
    let nation = rules.nation(&state.units[u]);
    let x = s
        .movement_rules
        .exits
        .iter()
        .find(|x| opens(state, x, nation) && in_region(rules, &at, &x.region))
        .ok_or("the unit may not leave the map here")?;
    let name = state.units[u].name(rules.content);
    state
        .flow
        .messages
        .push(format!("{name} leaves the map from {at} ({})", x.to));
    state.units[u].at = Loc::Box(x.to.as_str().into());
    t.units.retain(|(x, _)| *x != u);
    t.acted.insert(u);
    put(state, t);
    Ok(())
}

/// Whether an exit is open to a unit of a nation now.
fn opens(state: &State, x: &crate::model::MapExit, nation: &str) -> bool {
    x.nations.iter().any(|n| n == nation)
        && x.flag
            .as_ref()
            .is_none_or(|f| state.flags.contains(f.as_str()))
}
