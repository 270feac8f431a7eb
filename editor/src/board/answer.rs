//! What a click on the board answers: a click on a counter picks the unit (its actions are
//! listed and the spaces they name highlighted; a stack not yet spread out is spread first); a
//! click on a highlighted space then plays the one action about that unit and space. Without a
//! unit picked, a click on a space answers as before ([`crate::playtest::click_answer`]).

use sandtable_engine::rules::Prompt;

use super::{BoardClick, BoardView};
use crate::playtest::{click_answer, mentions, MapAnswer};

/// The spaces to highlight: with a unit picked, those its actions name; else the spaces the
/// actions are about (their first word after the verb, or the space of the unit it is), and
/// the spaces to pick. `space_of` says where a unit (its text form) stands.
pub fn highlighted(
    prompt: &Prompt,
    view: &BoardView,
    is_space: impl Fn(&str) -> bool,
    space_of: impl Fn(&str) -> Option<String>,
) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |w: &str| {
        if is_space(w) && !out.iter().any(|x| x == w) {
            out.push(w.to_string());
        }
    };
    match (&view.unit, prompt.pick) {
        (Some(u), None) => {
            for o in prompt
                .options()
                .iter()
                .filter(|o| mentions(o, std::slice::from_ref(u)))
            {
                o.split_whitespace().skip(1).for_each(&mut add);
            }
        }
        (_, Some(_)) => prompt.options().iter().for_each(|o| add(o)),
        (None, None) => {
            for o in &prompt.options() {
                if let Some(w) = o.split_whitespace().nth(1) {
                    match space_of(w) {
                        Some(s) => add(&s),
                        None => add(w),
                    }
                }
            }
        }
    }
    out
}

/// What a click answers, given the units on the clicked space (their text forms). With a
/// unit picked, a click on a space its actions name plays the one about that space, even on
/// the counters standing there.
pub fn answer(
    prompt: &Prompt,
    click: &BoardClick,
    view: &mut BoardView,
    stack: &[String],
) -> MapAnswer {
    if let (Some(unit), Some(space), None) = (&view.unit, &click.space, prompt.pick) {
        let options = prompt.options();
        let both: Vec<&String> = options
            .iter()
            .filter(|o| {
                mentions(o, std::slice::from_ref(unit))
                    && o.split_whitespace().skip(1).any(|w| w == space)
                    && !stack.contains(unit)
            })
            .collect();
        match both.as_slice() {
            [one] => {
                let action = (*one).clone();
                view.unit = None;
                view.spread = None;
                return MapAnswer::Act(action);
            }
            [] => {}
            _ => return MapAnswer::Narrow,
        }
    }
    if let Some(unit) = &click.unit {
        if prompt.pick.is_some() && prompt.options().contains(unit) {
            return MapAnswer::Toggle(unit.clone());
        }
        let spread = view.spread.is_some() && view.spread == click.space;
        if stack.len() > 1 && !spread {
            view.spread = click.space.clone();
            return MapAnswer::Nothing;
        }
        let about = prompt
            .options()
            .iter()
            .any(|o| mentions(o, std::slice::from_ref(unit)));
        view.unit = about.then(|| unit.clone());
        return MapAnswer::Nothing;
    }
    let Some(space) = &click.space else {
        view.unit = None;
        return MapAnswer::Nothing;
    };
    view.unit = None;
    click_answer(prompt, space, stack)
}
