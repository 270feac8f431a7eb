//! The Scenarios panel: a scenario's turns, its setup edited on the map (drag a counter from
//! the roster onto a space, or a placed counter from one space to another) and as a list, and
//! its optional rules.

use egui::{Color32, RichText, Ui};
use sandtable_engine::model::{Location, OptionalRule, Placement, ScenarioFile};
use sandtable_engine::schema::FileKind;

use crate::EditorApp;

#[derive(Default)]
pub struct ScenarioView {
    /// The id of the scenario shown.
    pub selected: String,
    /// The setup line chosen in the list.
    pub line: Option<usize>,
    /// The space chosen on the setup map.
    pub space: Option<String>,
    /// Text the roster beside the map is filtered by.
    pub search: String,
    /// Where the setup map was drawn last.
    mini: Option<crate::map::MiniMap>,
}

impl ScenarioView {
    /// Where a space is drawn on the setup map (after a frame has drawn it).
    pub fn map_pos(&self, g: &sandtable_engine::content::MapGraph, id: &str) -> Option<egui::Pos2> {
        Some(self.mini?.at(g, g.index_of(id)?))
    }
}

/// What is dragged onto the setup map.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupDrag {
    /// A counter from the roster: a new setup line.
    Counter(String),
    /// A setup line already placed: it moves.
    Line(usize),
}

fn location_text(at: &Location) -> String {
    match at {
        Location::Space(s) => s.clone(),
        Location::Box(b) => format!("box {b}"),
        Location::Region(r) => format!("region {r}"),
    }
}

fn parse_location(text: &str) -> Location {
    let t = text.trim();
    if let Some(b) = t.strip_prefix("box ") {
        Location::Box(b.trim().to_string())
    } else if let Some(r) = t.strip_prefix("region ") {
        Location::Region(r.trim().to_string())
    } else {
        Location::Space(t.to_string())
    }
}

/// The scenario files: (relative path, scenario id, title).
fn scenarios(app: &EditorApp) -> Vec<(String, String, String)> {
    app.loaded
        .content
        .files
        .iter()
        .filter(|f| f.kind == FileKind::Scenario)
        .filter_map(|f| {
            let s = app.doc.parsed::<ScenarioFile>(&f.relative).ok()?;
            Some((f.relative.clone(), s.id.clone(), s.title.clone()))
        })
        .collect()
}

/// Places a counter on a space: a new setup line.
pub fn place_counter(app: &mut EditorApp, file: &str, counter: &str, space: &str) {
    let (counter, space) = (counter.to_string(), space.to_string());
    let done = app.edit::<ScenarioFile>(file, &format!("place {counter} on {space}"), |s| {
        s.setup.push(Placement {
            counter: counter.clone(),
            at: Location::Space(space.clone()),
            count: 1,
            reduced: false,
            when: None,
            notes: String::new(),
        });
        Ok(())
    });
    if done {
        app.scenario.space = Some(space);
    }
}

/// Moves a setup line to a space.
pub fn move_line(app: &mut EditorApp, file: &str, line: usize, space: &str) {
    let space = space.to_string();
    let done = app.edit::<ScenarioFile>(
        file,
        &format!("move setup line {} to {space}", line + 1),
        |s| {
            let p = s.setup.get_mut(line).ok_or("the setup line is gone")?;
            p.at = Location::Space(space.clone());
            Ok(())
        },
    );
    if done {
        app.scenario.space = Some(space);
    }
}

fn edit_line(
    app: &mut EditorApp,
    file: &str,
    line: usize,
    label: &str,
    change: impl FnOnce(&mut Placement),
) {
    app.edit::<ScenarioFile>(file, label, |s| {
        change(s.setup.get_mut(line).ok_or("the setup line is gone")?);
        Ok(())
    });
}

pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let list = scenarios(app);
    if list.is_empty() {
        ui.label("The folder has no scenario (scenarios/*.ron).");
        return;
    }
    if !list.iter().any(|(_, id, _)| *id == app.scenario.selected) {
        app.scenario.selected = list[0].1.clone();
    }
    ui.horizontal(|ui| {
        ui.label("Scenario:");
        for (_, id, title) in &list {
            ui.selectable_value(&mut app.scenario.selected, id.clone(), title);
        }
    });
    let Some((file, _, _)) = list
        .iter()
        .find(|(_, id, _)| *id == app.scenario.selected)
        .cloned()
    else {
        return;
    };
    let Ok(scenario) = app.doc.parsed::<ScenarioFile>(&file) else {
        ui.label(format!("{file} does not read: see Problems."));
        return;
    };
    egui::ScrollArea::vertical().show(ui, |ui| {
        header(app, ui, &file, &scenario);
        ui.separator();
        egui::CollapsingHeader::new("Setup on the map")
            .default_open(true)
            .show(ui, |ui| setup_map(app, ui, &file, &scenario));
        egui::CollapsingHeader::new(format!("Setup list ({} lines)", scenario.setup.len()))
            .default_open(false)
            .show(ui, |ui| setup_list(app, ui, &file, &scenario));
        egui::CollapsingHeader::new(format!("Optional rules ({})", scenario.options.len()))
            .default_open(true)
            .show(ui, |ui| options(app, ui, &file, &scenario));
        crate::fields::every_field::<ScenarioFile>(
            app,
            ui,
            "Every field (control, markers, tracks, decks, hands, cards at the start, opening, rules, special rules)",
            &file,
            sandtable_engine::schema::FileKind::Scenario,
            &[],
        );
    });
}

fn header(app: &mut EditorApp, ui: &mut Ui, file: &str, s: &ScenarioFile) {
    ui.horizontal(|ui| {
        ui.label("Title");
        let mut title = s.title.clone();
        if ui.text_edit_singleline(&mut title).changed() {
            app.edit::<ScenarioFile>(file, &format!("title of {}", s.id), |x| {
                x.title = title;
                Ok(())
            });
        }
        ui.label("Turns");
        let (mut first, mut last) = (s.first_turn, s.last_turn);
        let a = ui.add(egui::DragValue::new(&mut first).range(1..=999));
        ui.label("to");
        let b = ui.add(egui::DragValue::new(&mut last).range(1..=999));
        if a.changed() || b.changed() {
            app.edit::<ScenarioFile>(file, &format!("turns of {}", s.id), |x| {
                x.first_turn = first;
                x.last_turn = last;
                Ok(())
            });
        }
    });
}

fn setup_map(app: &mut EditorApp, ui: &mut Ui, file: &str, s: &ScenarioFile) {
    let content = &app.loaded.content;
    let g = &content.graph;
    let mut counts = vec![0u32; g.spaces.len()];
    for p in &s.setup {
        if let Location::Space(id) = &p.at {
            if let Some(i) = g.index_of(id) {
                counts[i] += p.count;
            }
        }
    }
    ui.label(
        RichText::new(
            "Drag a counter from the roster onto a space to place it; drag a placed counter to move it.",
        )
        .weak(),
    );
    let mut dropped: Option<(SetupDrag, String)> = None;
    let mut clicked = None;
    ui.columns(2, |cols| {
        let ui = &mut cols[0];
        let selected = app.scenario.space.clone();
        let fill = |i: usize| {
            if counts[i] > 0 {
                Color32::from_rgb(200, 180, 90)
            } else {
                Color32::from_gray(80)
            }
        };
        let ring = |i: usize| {
            (selected.as_deref() == Some(g.spaces[i].id.as_str())).then_some(Color32::YELLOW)
        };
        let (response, mini) = crate::map::mini_map(ui, g, 420.0, fill, &counts, ring);
        app.scenario.mini = Some(mini);
        let pointer = ui.ctx().pointer_latest_pos();
        if let (Some(payload), Some(at)) = (response.dnd_release_payload::<SetupDrag>(), pointer) {
            if let Some(i) = mini.nearest(g, at) {
                dropped = Some(((*payload).clone(), g.spaces[i].id.to_string()));
            }
        }
        if let Some(at) = response
            .interact_pointer_pos()
            .filter(|_| response.clicked())
        {
            clicked = Some(mini.nearest(g, at).map(|i| g.spaces[i].id.to_string()));
        }
        // While a counter is dragged over the map, the space it would land on is ringed.
        if response.dnd_hover_payload::<SetupDrag>().is_some() {
            if let Some(i) = pointer.and_then(|p| mini.nearest(g, p)) {
                ui.painter().circle_stroke(
                    mini.at(g, i),
                    7.0,
                    egui::Stroke::new(2.0, Color32::GREEN),
                );
            }
        }
        let ui = &mut cols[1];
        match app.scenario.space.clone() {
            Some(space) => {
                let name = g.space(&space).map_or(space.clone(), |s| s.name.clone());
                ui.label(RichText::new(format!("On {name}")).strong());
                for (i, p) in s.setup.iter().enumerate() {
                    if p.at != Location::Space(space.clone()) {
                        continue;
                    }
                    let label = format!(
                        "{}{}{}",
                        p.counter,
                        if p.count > 1 {
                            format!(" ×{}", p.count)
                        } else {
                            String::new()
                        },
                        if p.reduced { " (reduced)" } else { "" }
                    );
                    ui.dnd_drag_source(
                        egui::Id::new(("setup-line", i)),
                        SetupDrag::Line(i),
                        |ui| {
                            ui.label(RichText::new(label).monospace());
                        },
                    );
                }
            }
            None => {
                ui.label("Click a space to see what is set up on it.");
            }
        }
        ui.separator();
        ui.horizontal(|ui| {
            ui.label("Roster:");
            ui.add(egui::TextEdit::singleline(&mut app.scenario.search).desired_width(120.0));
        });
        let needle = app.scenario.search.trim().to_lowercase();
        egui::ScrollArea::vertical()
            .id_salt("setup-roster")
            .max_height(280.0)
            .show(ui, |ui| {
                for c in &content.counters {
                    if !needle.is_empty()
                        && !format!("{} {}", c.id, c.name)
                            .to_lowercase()
                            .contains(&needle)
                    {
                        continue;
                    }
                    ui.dnd_drag_source(
                        egui::Id::new(("roster-counter", &c.id)),
                        SetupDrag::Counter(c.id.to_string()),
                        |ui| {
                            ui.label(format!("{}  ({})", c.name, c.nation));
                        },
                    );
                }
            });
    });
    if let Some(space) = clicked {
        app.scenario.space = space;
    }
    match dropped {
        Some((SetupDrag::Counter(c), space)) => place_counter(app, file, &c, &space),
        Some((SetupDrag::Line(i), space)) => move_line(app, file, i, &space),
        None => {}
    }
}

fn setup_list(app: &mut EditorApp, ui: &mut Ui, file: &str, s: &ScenarioFile) {
    egui::Grid::new("setup-list").striped(true).show(ui, |ui| {
        for h in ["", "Counter", "Where", "Count", "Reduced", "When flag", ""] {
            ui.label(RichText::new(h).strong());
        }
        ui.end_row();
        for (i, p) in s.setup.iter().enumerate() {
            let chosen = app.scenario.line == Some(i);
            // The counter as the playtest draws it (its reduced side when set up reduced).
            match app.loaded.content.counter(&p.counter) {
                Some(c) => {
                    let (rect, _) =
                        ui.allocate_exact_size(egui::Vec2::splat(30.0), egui::Sense::hover());
                    let face = crate::board::counter::Face {
                        counter: c,
                        reduced: p.reduced,
                    };
                    crate::board::counter::draw(
                        ui.painter(),
                        &app.loaded.content,
                        rect.shrink(2.0),
                        &face,
                        None,
                    );
                }
                None => {
                    ui.label("");
                }
            }
            let mut counter = p.counter.clone();
            let r = ui.add(egui::TextEdit::singleline(&mut counter).desired_width(140.0));
            let r = if chosen { r.highlight() } else { r };
            if r.changed() {
                edit_line(
                    app,
                    file,
                    i,
                    &format!("counter of setup line {}", i + 1),
                    |p| p.counter = counter.trim().to_string(),
                );
            }
            let mut at = location_text(&p.at);
            if ui
                .add(egui::TextEdit::singleline(&mut at).desired_width(140.0))
                .on_hover_text("a space id, `box <id>` or `region <id>`")
                .changed()
            {
                edit_line(
                    app,
                    file,
                    i,
                    &format!("place of setup line {}", i + 1),
                    |p| p.at = parse_location(&at),
                );
            }
            let mut count = p.count;
            if ui
                .add(egui::DragValue::new(&mut count).range(1..=99))
                .changed()
            {
                edit_line(
                    app,
                    file,
                    i,
                    &format!("count of setup line {}", i + 1),
                    |p| p.count = count,
                );
            }
            let mut reduced = p.reduced;
            if ui.checkbox(&mut reduced, "").changed() {
                edit_line(
                    app,
                    file,
                    i,
                    &format!("step of setup line {}", i + 1),
                    |p| p.reduced = reduced,
                );
            }
            let mut when = p.when.clone().unwrap_or_default();
            if ui
                .add(egui::TextEdit::singleline(&mut when).desired_width(100.0))
                .changed()
            {
                let w = when.trim().to_string();
                edit_line(
                    app,
                    file,
                    i,
                    &format!("flag of setup line {}", i + 1),
                    |p| p.when = (!w.is_empty()).then_some(w),
                );
            }
            if ui.small_button("Delete").clicked() {
                app.edit::<ScenarioFile>(file, &format!("delete setup line {}", i + 1), |s| {
                    if i < s.setup.len() {
                        s.setup.remove(i);
                    }
                    Ok(())
                });
            }
            ui.end_row();
        }
    });
}

fn options(app: &mut EditorApp, ui: &mut Ui, file: &str, s: &ScenarioFile) {
    for (i, o) in s.options.iter().enumerate() {
        ui.group(|ui| {
            ui.horizontal(|ui| {
                ui.label(RichText::new(&o.id).monospace());
                let mut name = o.name.clone();
                if ui.text_edit_singleline(&mut name).changed() {
                    app.edit::<ScenarioFile>(file, &format!("name of option {}", o.id), |s| {
                        if let Some(o) = s.options.get_mut(i) {
                            o.name = name;
                        }
                        Ok(())
                    });
                }
                let mut on = o.default;
                if ui.checkbox(&mut on, "on by default").changed() {
                    app.edit::<ScenarioFile>(file, &format!("default of option {}", o.id), |s| {
                        if let Some(o) = s.options.get_mut(i) {
                            o.default = on;
                        }
                        Ok(())
                    });
                }
                if ui.small_button("Delete").clicked() {
                    app.edit::<ScenarioFile>(file, &format!("delete option {}", o.id), |s| {
                        if i < s.options.len() {
                            s.options.remove(i);
                        }
                        Ok(())
                    });
                }
            });
            let mut text = o.text.clone();
            if ui
                .add(
                    egui::TextEdit::multiline(&mut text)
                        .desired_rows(2)
                        .desired_width(f32::INFINITY),
                )
                .changed()
            {
                app.edit::<ScenarioFile>(file, &format!("text of option {}", o.id), |s| {
                    if let Some(o) = s.options.get_mut(i) {
                        o.text = text;
                    }
                    Ok(())
                });
            }
        });
    }
    if ui.button("Add optional rule").clicked() {
        app.edit::<ScenarioFile>(file, "add optional rule", |s| {
            let n = (1..)
                .map(|k| format!("option_{k}"))
                .find(|id| !s.options.iter().any(|o| o.id == *id))
                .unwrap_or_default();
            s.options.push(OptionalRule {
                id: n.clone(),
                name: n,
                rule: String::new(),
                text: "What the rule changes.".into(),
                default: false,
                first_turn: None,
            });
            Ok(())
        });
    }
}
