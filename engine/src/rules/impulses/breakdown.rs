//! Break-down and recombination in a phase of movement: a unit whose counter `breaks_into`
//! smaller ones may, before it moves, be replaced by them in its space (`break UNIT`), when
//! the counter mix has the pieces; units stacked together that make up such a counter may be
//! replaced by one piece of it (`combine COUNTER SPACE`), while its `combine_when` flag (if
//! any) is set. The new units are the phase's too: they move with their whole allowance, but
//! a unit combined from units that had moved moves no further.

use super::*;
use crate::model::Counter;

/// The break-downs and recombinations the side of a phase of movement may make now.
pub(super) fn options(rules: &Rules, state: &State, t: &ImpulseTask) -> Vec<Action> {
    if !is_phase(rules, t) || t.stage != Stage::Move || t.passing.is_some() {
        return Vec::new();
    }
    // What could be done but for the counter mix, found first: most prompts then need not
    // count the mix. The units of the phase on the map that have not moved and break down,
    // and the counters that may be made now (their flag set).
    let breaking: Vec<(usize, &[crate::model::CounterPart])> = (t.units.iter())
        .filter(|&&(u, _)| on_map(state, u).is_some())
        .filter(|&&(u, _)| t.used.get(&u).is_some_and(|&x| x == 0) && !t.acted.contains(&u))
        .filter_map(|&(u, _)| {
            let parts = &rules.counter(&state.units[u])?.breaks_into;
            (!parts.is_empty()).then_some((u, parts.as_slice()))
        })
        .collect();
    let combining: Vec<&Counter> = (rules.content.counters.iter())
        .filter(|c| combinable(state, c))
        .collect();
    if breaking.is_empty() && combining.is_empty() {
        return Vec::new();
    }
    // The free pieces of each counter, by the address of its id.
    let mut free: BTreeMap<usize, usize> = BTreeMap::new();
    for u in state.units.iter().filter(|u| u.at == Loc::Unplaced) {
        *free.entry(u.counter.addr()).or_insert(0) += 1;
    }
    let has =
        |counter: crate::Id, n: u32| free.get(&counter.addr()).copied().unwrap_or(0) >= n as usize;
    let mut out = Vec::new();
    for (u, parts) in breaking {
        if parts
            .iter()
            .all(|x| has(crate::Id::new(&x.counter), x.count))
        {
            out.push(Action::new("break").and_unit(rules.content, state, u));
        }
    }
    // The counters that may be made now (a piece free), asked once, not of every stack.
    let makeable: Vec<(&Counter, Parts)> = (combining.into_iter())
        .filter(|c| has(c.id, 1))
        .map(|c| (c, parts(c)))
        .collect();
    if makeable.is_empty() {
        return out;
    }
    // The stacks of the phase's units that are parts of them, by space (the other units count
    // for no recipe).
    let is_part = |u: usize| {
        let counter = state.units[u].counter;
        makeable
            .iter()
            .any(|(_, parts)| parts.iter().any(|&(c, _)| c == counter))
    };
    let mut stacks: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &(u, _) in &t.units {
        if let Some(at) = on_map(state, u).filter(|_| is_part(u)) {
            stacks.entry(at).or_default().push(u);
        }
    }
    for (space, units) in stacks {
        for (c, parts) in &makeable {
            if may_hold(state, parts, &units) && recipe(state, parts, &units).is_some() {
                out.push(Action::new("combine").and(c.id).and(Word::id(space)));
            }
        }
    }
    out
}

/// Whether the counter mix holds the pieces of a break-down.
fn pieces_free(state: &State, parts: &[crate::model::CounterPart]) -> bool {
    parts
        .iter()
        .all(|p| free_pieces(state, &p.counter).len() >= p.count as usize)
}

/// The pieces of a counter not in play.
fn free_pieces(state: &State, counter: &str) -> Vec<usize> {
    (0..state.units.len())
        .filter(|&i| state.units[i].counter == counter && state.units[i].at == Loc::Unplaced)
        .collect()
}

/// Whether units may be combined into a counter now: it has a break-down and its flag (if
/// any) is set. (The counter mix must also have a piece of it.)
fn combinable(state: &State, c: &Counter) -> bool {
    !c.breaks_into.is_empty()
        && c.combine_when
            .as_ref()
            .is_none_or(|f| state.flags.contains(f.as_str()))
}

/// A counter's break-down: each part's counter as an id (compared by address with each
/// unit's), with how many.
type Parts = Vec<(crate::Id, usize)>;

fn parts(c: &Counter) -> Parts {
    (c.breaks_into.iter())
        .map(|p| (crate::Id::new(&p.counter), p.count as usize))
        .collect()
}

/// Whether `units` hold as many units of each part's counter as the part asks, without
/// looking whether parts share them: what [`recipe`] needs, looked at without making a list.
fn may_hold(state: &State, parts: &Parts, units: &[usize]) -> bool {
    parts.iter().all(|&(counter, count)| {
        units
            .iter()
            .filter(|&&u| state.units[u].counter == counter)
            .take(count)
            .count()
            >= count
    })
}

/// The units among `units` that make up a counter of these parts, if they do (the first of
/// each part).
fn recipe(state: &State, parts: &Parts, units: &[usize]) -> Option<Vec<usize>> {
    let mut picked = Vec::new();
    for &(counter, count) in parts {
        let found: Vec<usize> = units
            .iter()
            .copied()
            .filter(|&u| state.units[u].counter == counter && !picked.contains(&u))
            .take(count)
            .collect();
        if found.len() < count {
            return None;
        }
        picked.extend(found);
    }
    Some(picked)
}

/// Puts a free piece of a counter in a space, as a unit of the phase with its allowance (none
/// left when `moved`).
fn bring_in(rules: &Rules, state: &mut State, t: &mut ImpulseTask, piece: usize, space: &str) {
    state.units[piece].at = Loc::Space(space.into());
    state.units[piece].reduced = false;
    let Some(s) = spec(rules, t.at) else { return };
    let ma = movement::allowance(rules, state, piece, stat(rules, state, piece, &s.movement));
    t.units.push((piece, Mode::Move));
    t.allowed.insert(piece, ma * 2);
    t.used.insert(piece, 0);
}

/// `break UNIT`.
pub(super) fn break_down(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    u: usize,
) -> Result<(), String> {
    let name = state.units[u].name(rules.content);
    let parts = rules
        .counter(&state.units[u])
        .map(|c| c.breaks_into.clone())
        .filter(|p| !p.is_empty())
        .ok_or_else(|| format!("{name} does not break down"))?;
    let space = on_map(state, u)
        .ok_or("the unit is not on the map")?
        .to_string();
    if !pieces_free(state, &parts) {
        return Err("the counter mix lacks the pieces".into());
    }
    state.units[u].at = Loc::Unplaced;
    t.units.retain(|(x, _)| *x != u);
    let mut names = Vec::new();
    for part in &parts {
        for piece in free_pieces(state, &part.counter)
            .into_iter()
            .take(part.count as usize)
        {
            bring_in(rules, state, &mut t, piece, &space);
            names.push(state.units[piece].name(rules.content));
        }
    }
    state.flow.messages.push(format!(
        "{name} breaks down into {} in {space}",
        names.join(", ")
    ));
    put(state, t);
    Ok(())
}

/// `combine COUNTER SPACE`.
pub(super) fn combine(
    rules: &Rules,
    state: &mut State,
    mut t: ImpulseTask,
    counter: &str,
    space: &str,
) -> Result<(), String> {
    let c = rules
        .content
        .counters
        .iter()
        .find(|c| c.id == counter)
        .ok_or("no such counter")?;
    if !combinable(state, c) || free_pieces(state, counter).is_empty() {
        return Err(format!("no {counter} may be combined now"));
    }
    let here: Vec<usize> = t
        .units
        .iter()
        .map(|&(u, _)| u)
        .filter(|&u| on_map(state, u) == Some(space))
        .collect();
    let taken = recipe(state, &parts(c), &here).ok_or("the units there do not make it up")?;
    let moved = taken.iter().any(|u| t.acted.contains(u));
    let names: Vec<String> = taken
        .iter()
        .map(|&u| state.units[u].name(rules.content))
        .collect();
    for &u in &taken {
        state.units[u].at = Loc::Unplaced;
    }
    t.units.retain(|(x, _)| !taken.contains(x));
    let piece = free_pieces(state, counter)[0];
    bring_in(rules, state, &mut t, piece, space);
    if moved {
        let allowed = t.allowed.get(&piece).copied().unwrap_or(0);
        t.used.insert(piece, allowed.max(1));
        t.acted.insert(piece);
    }
    state.flow.messages.push(format!(
        "{} combine into {} in {space}",
        names.join(", "),
        state.units[piece].name(rules.content)
    ));
    put(state, t);
    Ok(())
}
