//! The playtest's open decision: who decides what (in names), the one-word actions and the
//! Choose button first, then the actions as buttons (their text form on hover) or the things
//! to pick as boxes, in a list of their own that scrolls and, when long, is searched; narrowed
//! to a space clicked on the map or a unit picked there.

use egui::{RichText, ScrollArea, Ui};
use sandtable_engine::content::Content;
use sandtable_engine::state::State;

use crate::playtest::{mentions, units_on, PlayCommand};

/// What the prompt's widgets change.
pub(crate) struct Asking<'a> {
    pub picks: &'a mut Vec<String>,
    pub focus: &'a mut Option<String>,
    /// The unit picked on the board.
    pub unit: &'a mut Option<String>,
    /// The words the list is searched for.
    pub search: &'a mut String,
    pub commands: &'a mut Vec<PlayCommand>,
}

/// A button for a legal action, labelled in words, its text form on hover; whether it was
/// clicked.
fn action_button(ui: &mut Ui, content: &Content, option: &str) -> bool {
    ui.button(content.names().action(option))
        .on_hover_text(option)
        .clicked()
}

/// The decision open, or how the game ended.
pub(crate) fn show(ui: &mut Ui, content: &Content, state: &State, a: Asking) {
    let names = content.names();
    let prompt = match (&state.flow.prompt, &state.flow.result) {
        (Some(prompt), _) => prompt,
        (None, Some(r)) => {
            ui.label(
                RichText::new(format!(
                    "Game over: {} wins ({}, turn {}).",
                    names.or_id(&r.winner),
                    r.how,
                    r.turn
                ))
                .strong(),
            );
            return;
        }
        (None, None) => {
            ui.label("No decision is open.");
            return;
        }
    };
    ui.label(
        RichText::new(format!(
            "{} decides: {}",
            names.or_id(&prompt.side),
            names.words(&prompt.question)
        ))
        .strong(),
    );
    // Actions of one word (go, pass, done, stop) above the list, so a long list does not
    // hide them; the Choose button too.
    if prompt.pick.is_none() {
        ui.horizontal_wrapped(|ui| {
            for option in prompt.options().iter().filter(|o| !o.contains(' ')) {
                if action_button(ui, content, option) {
                    a.commands.push(PlayCommand::Act(option.clone()));
                }
            }
        });
    }
    if let Some((min, max)) = prompt.pick {
        ui.horizontal(|ui| {
            ui.label(format!("Choose {min} to {max}:"));
            let fits = (min..=max).contains(&a.picks.len());
            if ui.add_enabled(fits, egui::Button::new("Choose")).clicked() {
                let action = format!("choose {}", a.picks.join(" "));
                a.commands
                    .push(PlayCommand::Act(action.trim_end().to_string()));
            }
        });
    }
    // What the list is narrowed to: a unit picked on the board, or a space clicked.
    let (unit, focus) = (a.unit.clone(), a.focus.clone());
    let about: Option<Vec<String>> = match (unit, focus) {
        (Some(u), _) => {
            ui.horizontal(|ui| {
                ui.label(format!("Actions of {}:", names.or_id(&u)));
                if ui.small_button("Show all").clicked() {
                    *a.unit = None;
                }
            });
            Some(vec![u])
        }
        (None, Some(space)) => {
            ui.horizontal(|ui| {
                ui.label(format!(
                    "Actions about {} and its units:",
                    names.or_id(&space)
                ));
                if ui.small_button("Show all").clicked() {
                    *a.focus = None;
                }
            });
            let mut n = units_on(state, &space);
            n.push(space);
            Some(n)
        }
        _ => None,
    };
    if prompt.options().len() > 12 {
        ui.horizontal(|ui| {
            ui.label("Find:");
            ui.add(
                egui::TextEdit::singleline(a.search)
                    .hint_text("a unit, a space ...")
                    .desired_width(160.0),
            );
        });
    }
    let search = a.search.to_lowercase();
    let found = |o: &String| {
        search.is_empty() || names.action(o).to_lowercase().contains(&search) || o.contains(&search)
    };
    ScrollArea::vertical()
        .max_height((ui.available_height() * 0.5).max(120.0))
        .id_salt("prompt")
        .show(ui, |ui| match prompt.pick {
            None => {
                let options = prompt.options();
                let shown = options.iter().filter(|o| {
                    o.contains(' ') && about.as_ref().is_none_or(|n| mentions(o, n)) && found(o)
                });
                for option in shown {
                    if action_button(ui, content, option) {
                        a.commands.push(PlayCommand::Act(option.clone()));
                    }
                }
            }
            Some(_) => {
                for option in prompt.options().iter().filter(|o| found(o)) {
                    let mut on = a.picks.contains(option);
                    if ui
                        .checkbox(&mut on, names.action(option))
                        .on_hover_text(option)
                        .changed()
                    {
                        if on {
                            a.picks.push(option.clone());
                        } else {
                            a.picks.retain(|x| x != option);
                        }
                    }
                }
            }
        });
}
