//! Theatres of war (the play rule `theatres`): where a unit was eliminated, told by the supply
//! sources it traced to then, says where it may be rebuilt.
//!
//! A unit leaving the map for its side's eliminated box, or for a turn track on its way there,
//! is marked with the theatres that name it and to whose sources it traces supply; eliminated
//! out of supply (tracing to none, or treated as if it were), with every theatre that names
//! it. The mark stays with it in the boxes; a rebuilt unit enters only where a theatre of its
//! mark allows, and when the mark holds several, its side chooses among their places then.
//! Nothing here names a game: the theatres, their sources and their places are data.

use crate::content::Content;
use crate::model::{PlayRules, Theatre};
use crate::rules::{hooks, supply};
use crate::script::eval;
use crate::state::{Loc, State};

fn play(content: &Content) -> Option<&PlayRules> {
    content.game.as_ref()?.play.as_ref()
}

/// The theatres that name a unit: its nation, and its size if they give sizes.
fn naming<'c>(content: &'c Content, state: &State, unit: usize) -> Vec<(usize, &'c Theatre)> {
    let (Some(play), Some(c)) = (play(content), content.counter_of(&state.units[unit])) else {
        return Vec::new();
    };
    play.theatres
        .iter()
        .enumerate()
        .filter(|(_, t)| {
            t.nations.iter().any(|x| *x == c.nation)
                && (t.sizes.is_empty() || t.sizes.iter().any(|x| *x == c.size))
        })
        .collect()
}

/// Marks a unit that is being eliminated with the theatres it was eliminated in: those whose
/// sources it traces supply to from its space, or, `out_of_supply` (or tracing to none of
/// them), every theatre that names it. Call it while the unit still stands where it was
/// eliminated; a unit already off the map keeps its mark, unless `out_of_supply`.
pub fn record(content: &Content, state: &mut State, unit: usize, out_of_supply: bool) {
    let Some(u) = state.units.get(unit) else {
        return;
    };
    let theatres = naming(content, state, unit);
    if theatres.is_empty() {
        state.theatres.remove(&unit);
        return;
    }
    let at = match &u.at {
        Loc::Space(s) => content.graph.index_of(s),
        _ => None,
    };
    if at.is_none() && !out_of_supply {
        return;
    }
    let mut marks = Vec::new();
    if let (Some(at), false) = (at, out_of_supply) {
        let side = u.side(content).to_string();
        let nation = content.counter_of(u).map(|c| c.nation).unwrap_or_default();
        let view = supply::SideView::new(content, state, &side);
        let mut ctx = hooks::context_for(content, &side, Vec::new());
        for (i, t) in &theatres {
            let Some(sources) = content
                .sequence
                .conditions
                .get(&format!("/play/theatres/{i}/sources"))
            else {
                continue;
            };
            let st: &State = state;
            let mut keep = |space: usize| {
                ctx.space = Some(content.graph.spaces[space].id);
                eval::condition(sources, content, st, &ctx).unwrap_or(false)
            };
            if supply::traces_to(content, st, &view, (&nation, at), &mut keep) {
                marks.push(t.id.clone());
            }
        }
    }
    if marks.is_empty() {
        marks = theatres.iter().map(|(_, t)| t.id.clone()).collect();
    }
    state.theatres.insert(unit, marks);
}

/// Whether a rebuilt unit may enter a space as far as its theatres go: it has no mark, or the
/// places of one of the theatres of its mark allow the space.
pub fn allows(content: &Content, state: &State, unit: usize, space: &str) -> bool {
    let Some(marks) = state.theatres.get(&unit) else {
        return true;
    };
    let Some(play) = play(content) else {
        return true;
    };
    let side = state
        .units
        .get(unit)
        .map(|u| u.side(content).to_string())
        .unwrap_or_default();
    let ctx = eval::Context {
        space: Some(space.into()),
        ..hooks::context_for(content, &side, Vec::new())
    };
    play.theatres.iter().enumerate().any(|(i, t)| {
        marks.contains(&t.id)
            && content
                .sequence
                .conditions
                .get(&format!("/play/theatres/{i}/places"))
                .is_some_and(|c| eval::condition(c, content, state, &ctx).unwrap_or(false))
    })
}
