//! A free set-up ([`crate::model::Deploy`]): on the first turn of play a side takes up its
//! units in a region and sets each one up again where it likes in the region, one prompt a
//! unit (`deploy SPACE`), the space it was set up on offered first.

use super::*;
use crate::model::{Deploy, HookPoint};

/// Starts the step: takes up the side's units in the region (they wait off the map until
/// their turn comes), unless the step does not apply now.
pub(super) fn start(rules: &Rules, state: &mut State, at: (usize, usize), spec: &Deploy) {
    let first_turn = state.turn == rules.scenario.start_turn(&state.flags);
    let allowed = spec
        .while_flag
        .as_ref()
        .is_none_or(|f| state.flags.contains(f.as_str()));
    if !first_turn || !allowed {
        return;
    }
    let mut pending = Vec::new();
    for (i, u) in state.units.iter_mut().enumerate() {
        let Loc::Space(s) = &u.at else { continue };
        if rules.side(u) == spec.side
            && crate::state::space_in_region(rules.content, s, &spec.region)
        {
            pending.push((i, s.to_string()));
            u.at = Loc::Unplaced;
        }
    }
    if !pending.is_empty() {
        state.flow.tasks.push(Task::Deploy { at, pending });
    }
}

fn spec<'c>(rules: &Rules<'c>, at: (usize, usize)) -> Option<&'c Deploy> {
    match rules.game.sequence.get(at.0)?.steps.get(at.1)? {
        Step::Deploy(d) => Some(d),
        _ => None,
    }
}

/// The spaces of the region where the next unit may be set up, its own set-up space first.
fn spaces(rules: &Rules, state: &State, spec: &Deploy, (unit, home): (usize, &str)) -> Vec<String> {
    let content = rules.content;
    let fits = |id: &str| {
        let Some(i) = content.graph.index_of(id) else {
            return false;
        };
        may_enter(rules, state, &spec.side, i)
            && may_stack(rules, state, unit, id)
            && movement::may(rules, state, HookPoint::MayMove, unit, (id, id))
            && movement::may_end(rules, state, unit, id)
    };
    let mut out: Vec<String> = Vec::new();
    if fits(home) {
        out.push(home.to_string());
    }
    for s in &content.graph.spaces {
        if s.id != home
            && crate::state::space_in_region(content, &s.id, &spec.region)
            && fits(&s.id)
        {
            out.push(s.id.to_string());
        }
    }
    out
}

/// The prompt for the next unit to set up.
pub(super) fn prompt(
    rules: &Rules,
    state: &mut State,
    at: (usize, usize),
    pending: &[(usize, String)],
) -> Option<Prompt> {
    let (Some(spec), Some((unit, home))) = (spec(rules, at), pending.first()) else {
        state.flow.tasks.pop();
        return None;
    };
    let options: Vec<Action> = spaces(rules, state, spec, (*unit, home))
        .into_iter()
        .map(|s| Action::new("deploy").and(Word::id(&s)))
        .collect();
    if options.is_empty() {
        // No room anywhere in the region: the unit stays where it was set up.
        state.units[*unit].at = Loc::Space(home.as_str().into());
        let name = state.units[*unit].name(rules.content);
        state.flow.messages.push(format!(
            "{name} finds no room to set up in {} and stays on {home}",
            spec.region
        ));
        pop_first(state);
        return None;
    }
    let u = &state.units[*unit];
    let counter = rules.counter(u).map_or("", |c| c.name.as_str());
    let rule = if spec.rule.is_empty() {
        String::new()
    } else {
        format!(" ({})", spec.rule)
    };
    Some(Prompt::one_of(
        &spec.side,
        "deploy",
        format!(
            "Set up {} ({counter}, set up on {home}) anywhere in {}{rule}: {} left",
            u.name(rules.content),
            spec.region,
            pending.len()
        ),
        options,
    ))
}

/// Puts the next unit on the space chosen.
pub(super) fn act(
    state: &mut State,
    pending: &[(usize, String)],
    action: &Action,
) -> Result<(), String> {
    let space = action.text(1).ok_or("where?")?;
    let (unit, _) = pending.first().ok_or("no unit is waiting to be set up")?;
    state.units[*unit].at = Loc::Space((*space).into());
    pop_first(state);
    Ok(())
}

/// The next unit waiting has been set up.
fn pop_first(state: &mut State) {
    if let Some(Task::Deploy { pending, .. }) = state.flow.tasks.last_mut() {
        if !pending.is_empty() {
            pending.remove(0);
        }
    }
}
