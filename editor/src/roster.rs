//! The Counters panel: the roster with both steps of every counter, and a form for the one
//! chosen (nation, commanding side, type, size, front and reduced stats, flags, count).

use egui::{RichText, Ui};
use sandtable_engine::model::{Counter, CountersFile};
use sandtable_engine::schema::FileKind;

use crate::EditorApp;

#[derive(Default)]
pub struct RosterView {
    /// The index of the counter shown in the form.
    pub selected: Option<usize>,
    pub search: String,
    /// The id typed for a new counter.
    pub new_id: String,
}

/// A step's numbers, as printed (`4-3-3`).
pub fn step_text(stats: &[i32]) -> String {
    stats
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join("-")
}

fn parse_step(text: &str) -> Option<Vec<i32>> {
    text.split('-')
        .map(|n| n.trim().parse().ok())
        .collect::<Option<Vec<i32>>>()
        .filter(|v| !v.is_empty())
}

fn edit_counter(
    app: &mut EditorApp,
    file: &str,
    index: usize,
    label: &str,
    change: impl FnOnce(&mut Counter),
) {
    app.edit::<CountersFile>(file, label, |f| {
        change(f.counters.get_mut(index).ok_or("the counter is gone")?);
        Ok(())
    });
}

pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let Some(file) = app.file_of(FileKind::Counters) else {
        ui.label("The folder has no counters.ron.");
        return;
    };
    let Ok(roster) = app.doc.parsed::<CountersFile>(&file) else {
        ui.label("counters.ron does not read: see Problems.");
        return;
    };
    let stats: Vec<String> = app
        .loaded
        .content
        .game
        .as_ref()
        .map(|g| g.stats.iter().map(|s| s.id.to_uppercase()).collect())
        .unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Find:");
        ui.add(egui::TextEdit::singleline(&mut app.roster.search).desired_width(160.0));
        ui.separator();
        ui.label("New counter id:");
        ui.add(egui::TextEdit::singleline(&mut app.roster.new_id).desired_width(120.0));
        let id = app.roster.new_id.trim().to_string();
        if ui
            .add_enabled(!id.is_empty(), egui::Button::new("Add counter"))
            .clicked()
        {
            add_counter(app, &file, &id, &roster);
        }
    });
    if let Some(index) = app.roster.selected {
        if let Some(c) = roster.counters.get(index).cloned() {
            egui::Panel::right("counter-form")
                .default_size(320.0)
                .show(ui, |ui| form(app, ui, &file, index, &c, &stats));
        }
    }
    let needle = app.roster.search.trim().to_lowercase();
    let shown: Vec<(usize, &Counter)> = roster
        .counters
        .iter()
        .enumerate()
        .filter(|(_, c)| {
            needle.is_empty()
                || format!("{} {} {} {}", c.id, c.name, c.nation, c.unit_type)
                    .to_lowercase()
                    .contains(&needle)
        })
        .collect();
    ui.label(format!(
        "{} counters; steps read {}",
        shown.len(),
        stats.join("-")
    ));
    egui::ScrollArea::vertical().show(ui, |ui| {
        egui::Grid::new("roster").striped(true).show(ui, |ui| {
            for h in [
                "Counter", "Name", "Nation", "Type", "Size", "Full", "Reduced", "Count",
            ] {
                ui.label(RichText::new(h).strong());
            }
            ui.end_row();
            for (i, c) in shown {
                crate::board::counter::image(ui, &app.loaded.content, c, 34.0);
                if ui
                    .selectable_label(app.roster.selected == Some(i), &c.name)
                    .clicked()
                {
                    app.roster.selected = Some(i);
                }
                ui.label(match &c.side {
                    Some(side) => format!("{} ({side})", c.nation),
                    None => c.nation.to_string(),
                });
                ui.label(&*c.unit_type);
                ui.label(&*c.size);
                ui.label(step_text(&c.front));
                ui.label(c.back.as_deref().map_or("–".into(), step_text));
                ui.label(c.count.to_string());
                ui.end_row();
            }
        });
    });
}

fn add_counter(app: &mut EditorApp, file: &str, id: &str, roster: &CountersFile) {
    // A new counter starts as a copy of the one chosen (or the first), with the new id.
    let Some(mut c) = app
        .roster
        .selected
        .and_then(|i| roster.counters.get(i))
        .or(roster.counters.first())
        .cloned()
    else {
        app.status = "There is no counter to copy from.".into();
        return;
    };
    c.id = id.into();
    c.name = id.to_string();
    c.count = 1;
    let id = id.to_string();
    let added = app.edit::<CountersFile>(file, &format!("add counter {id}"), |f| {
        if f.counters.iter().any(|x| x.id == id) {
            return Err(format!("a counter `{id}` already exists"));
        }
        f.counters.push(c);
        Ok(())
    });
    if added {
        app.roster.selected = Some(roster.counters.len());
        app.roster.new_id.clear();
    }
}

fn form(app: &mut EditorApp, ui: &mut Ui, file: &str, index: usize, c: &Counter, stats: &[String]) {
    let id = c.id;
    let Some(game) = app.loaded.content.game.clone() else {
        ui.label("The folder has no game.ron.");
        return;
    };
    ui.heading(&c.name);
    ui.label(RichText::new(format!("id {id}")).weak());
    // The counter as the playtest draws it: its full side, and its reduced side.
    crate::board::counter::image(ui, &app.loaded.content, c, 72.0);
    egui::Grid::new("counter-form")
        .num_columns(2)
        .show(ui, |ui| {
            if let Some(name) = crate::text_row(ui, "Name", &c.name) {
                edit_counter(app, file, index, &format!("name of {id}"), |c| {
                    c.name = name
                });
            }
            ui.label("Nation");
            let mut nation = c.nation;
            egui::ComboBox::from_id_salt("nation")
                .selected_text(nation.as_str())
                .show_ui(ui, |ui| {
                    for n in &game.nations {
                        if ui.selectable_value(&mut nation, n.id, &n.name).changed() {
                            let v = nation;
                            edit_counter(app, file, index, &format!("nation of {id}"), |c| {
                                c.nation = v
                            });
                        }
                    }
                });
            ui.end_row();
            ui.label("Commanded by");
            let mut side = c.side.clone();
            egui::ComboBox::from_id_salt("side")
                .selected_text(side.clone().unwrap_or_else(|| "its nation's side".into()))
                .show_ui(ui, |ui| {
                    let mut changed = ui
                        .selectable_value(&mut side, None, "its nation's side")
                        .changed();
                    for s in &game.sides {
                        changed |= ui
                            .selectable_value(&mut side, Some(s.id.to_string()), &s.name)
                            .changed();
                    }
                    if changed {
                        let v = side.clone();
                        edit_counter(app, file, index, &format!("side of {id}"), |c| c.side = v);
                    }
                });
            ui.end_row();
            ui.label("Unit type");
            let mut ty = c.unit_type;
            egui::ComboBox::from_id_salt("type")
                .selected_text(ty.as_str())
                .show_ui(ui, |ui| {
                    for t in &game.unit_types {
                        if ui
                            .selectable_value(&mut ty, t.id.as_str().into(), &t.name)
                            .changed()
                        {
                            let v = ty;
                            edit_counter(app, file, index, &format!("type of {id}"), |c| {
                                c.unit_type = v
                            });
                        }
                    }
                });
            ui.end_row();
            ui.label("Size");
            let mut size = c.size;
            egui::ComboBox::from_id_salt("size")
                .selected_text(size.as_str())
                .show_ui(ui, |ui| {
                    for s in &game.sizes {
                        if ui.selectable_value(&mut size, s.id, &s.name).changed() {
                            let v = size;
                            edit_counter(app, file, index, &format!("size of {id}"), |c| {
                                c.size = v
                            });
                        }
                    }
                });
            ui.end_row();
            ui.label(format!("Full ({})", stats.join("-")));
            let mut front = step_text(&c.front);
            if ui.text_edit_singleline(&mut front).changed() {
                match parse_step(&front) {
                    Some(v) => edit_counter(app, file, index, &format!("full step of {id}"), |c| {
                        c.front = v
                    }),
                    None => app.status = format!("`{front}`: write the numbers as 4-3-3"),
                }
            }
            ui.end_row();
            ui.label("Reduced");
            let mut back = c.back.as_deref().map(step_text).unwrap_or_default();
            if ui.text_edit_singleline(&mut back).changed() {
                if back.trim().is_empty() {
                    edit_counter(app, file, index, &format!("reduced step of {id}"), |c| {
                        c.back = None
                    });
                } else {
                    match parse_step(&back) {
                        Some(v) => {
                            edit_counter(app, file, index, &format!("reduced step of {id}"), |c| {
                                c.back = Some(v)
                            })
                        }
                        None => {
                            app.status = format!("`{back}`: write the numbers as 2-3-3, or nothing")
                        }
                    }
                }
            }
            ui.end_row();
            ui.label("Count");
            let mut count = c.count;
            if ui
                .add(egui::DragValue::new(&mut count).range(1..=99))
                .changed()
            {
                edit_counter(app, file, index, &format!("count of {id}"), |c| {
                    c.count = count
                });
            }
            ui.end_row();
        });
    ui.label(RichText::new("Flags").strong());
    let flags = game
        .counter_flags
        .iter()
        .map(|f| (f.id.as_str(), f.name.as_str()));
    if let Some((fid, on)) = crate::ticks(ui, flags, &c.flags) {
        edit_counter(app, file, index, &format!("flags of {id}"), |c| {
            crate::set_member(&mut c.flags, fid, on)
        });
    }
    ui.label("Notes");
    let mut notes = c.notes.clone();
    if ui.text_edit_multiline(&mut notes).changed() {
        edit_counter(app, file, index, &format!("notes of {id}"), |c| {
            c.notes = notes
        });
    }
    if ui.button("Delete counter").clicked() {
        let done = app.edit::<CountersFile>(file, &format!("delete counter {id}"), |f| {
            f.counters.retain(|x| x.id != id);
            Ok(())
        });
        if done {
            app.roster.selected = None;
        }
    }
}
