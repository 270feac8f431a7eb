//! The Cards panel: the decks' cards with search and filters, a form for every field, the
//! scripts (condition, event, combat) in a code editor with syntax highlighting and live
//! diagnostics, and a preview of the card as printed.
//!
//! A script is checked as it is typed, on its own against the open content (the same parser
//! and checker the loader runs), so its problems are underlined where they are and listed
//! beside it; a click on one puts the cursor there.

use std::sync::Arc;

use egui::text::{CCursor, CCursorRange, LayoutJob};
use egui::{Color32, FontId, RichText, Stroke, TextFormat, Ui};
use sandtable_engine::content::Content;
use sandtable_engine::model::{Card, CardsFile};
use sandtable_engine::script::check::{self, Names, ScriptKind};
use sandtable_engine::script::syntax::{self, Highlight, ScriptError};

use crate::EditorApp;

#[derive(Default)]
pub struct CardsView {
    /// The cards file and the index of the card shown.
    pub selected: Option<(String, usize)>,
    pub search: String,
    /// Show only this deck's cards.
    pub deck: Option<String>,
    /// Show only cards of this kind (event, combat ...).
    pub kind: Option<String>,
    /// A script field to put the cursor in on the next frame, with the byte offset.
    jump: Option<(&'static str, usize)>,
    names: Option<(u64, Arc<Names>)>,
}

impl CardsView {
    /// Opens a card (from a diagnostic's place): the file, the card's index, and the field.
    pub fn open(&mut self, file: &str, card: Option<usize>, field: Option<&str>) {
        if let Some(i) = card {
            self.selected = Some((file.to_string(), i));
        }
        self.jump = match field {
            Some("playable") => Some(("playable", 0)),
            Some("effect") => Some(("effect", 0)),
            Some("combat") => Some(("combat", 0)),
            _ => None,
        };
        self.search.clear();
        self.deck = None;
        self.kind = None;
    }

    fn names(&mut self, generation: u64, content: &Content) -> Arc<Names> {
        match &self.names {
            Some((g, n)) if *g == generation => n.clone(),
            _ => {
                let n = Arc::new(Names::from_content(content));
                self.names = Some((generation, n.clone()));
                n
            }
        }
    }
}

/// The problems of one script, checked on its own against the content.
pub fn script_problems(text: &str, kind: ScriptKind, names: &Names) -> Vec<ScriptError> {
    if kind == ScriptKind::Condition {
        let (expr, mut errors) = syntax::parse_expr(text);
        if let Some(e) = expr {
            errors.extend(check::check_condition(&e, names));
        }
        errors
    } else {
        let script = syntax::parse(text);
        let mut errors = script.errors;
        errors.extend(check::check_stmts(&script.stmts, kind, names));
        errors
    }
}

/// The script's text laid out in colours, with its problems underlined in red.
pub fn highlighted(text: &str, problems: &[ScriptError], wrap: f32) -> LayoutJob {
    let font = FontId::monospace(13.0);
    let color = |h: Option<Highlight>| match h {
        Some(Highlight::Keyword) => Color32::from_rgb(200, 120, 220),
        Some(Highlight::Call) => Color32::from_rgb(100, 170, 240),
        Some(Highlight::Name) => Color32::from_rgb(220, 220, 220),
        Some(Highlight::Number) => Color32::from_rgb(180, 210, 120),
        Some(Highlight::Text) => Color32::from_rgb(230, 170, 100),
        Some(Highlight::Symbol) => Color32::from_gray(160),
        Some(Highlight::Comment) => Color32::from_gray(110),
        None => Color32::from_gray(200),
    };
    // The class of every byte, then runs of equal class and underline.
    let mut class: Vec<Option<Highlight>> = vec![None; text.len()];
    for (r, h) in syntax::highlight(text) {
        for c in class
            .iter_mut()
            .take((r.end as usize).min(text.len()))
            .skip(r.start as usize)
        {
            *c = Some(h);
        }
    }
    let mut wrong = vec![false; text.len()];
    for p in problems {
        let (s, e) = (p.range.start as usize, p.range.end as usize);
        // An empty range (a missing token) underlines the character before it.
        let (s, e) = if e > s {
            (s, e)
        } else {
            (s.saturating_sub(1), s)
        };
        for w in wrong.iter_mut().take(e.min(text.len())).skip(s) {
            *w = true;
        }
    }
    let mut job = LayoutJob::default();
    job.wrap.max_width = wrap;
    let mut start = 0;
    while start < text.len() {
        let mut end = start + 1;
        while end < text.len() && class[end] == class[start] && wrong[end] == wrong[start] {
            end += 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        let mut format = TextFormat::simple(font.clone(), color(class[start]));
        if wrong[start] {
            format.underline = Stroke::new(1.5, Color32::RED);
        }
        job.append(&text[start..end], 0.0, format);
        start = end;
    }
    job
}

/// A code editor for one script field; returns the new text when it was edited.
fn code_editor(
    ui: &mut Ui,
    id: egui::Id,
    text: &str,
    kind: ScriptKind,
    names: &Names,
    jump: Option<usize>,
    hint: &str,
) -> Option<String> {
    let mut buffer = text.to_string();
    let problems = script_problems(&buffer, kind, names);
    if let Some(offset) = jump {
        let chars = buffer[..offset.min(buffer.len())].chars().count();
        let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
        state
            .cursor
            .set_char_range(Some(CCursorRange::one(CCursor::new(chars))));
        state.store(ui.ctx(), id);
        ui.ctx().memory_mut(|m| m.request_focus(id));
    }
    let mut layouter = |ui: &Ui, buf: &dyn egui::TextBuffer, wrap: f32| {
        let problems = script_problems(buf.as_str(), kind, names);
        let job = highlighted(buf.as_str(), &problems, wrap);
        ui.fonts_mut(|f| f.layout_job(job))
    };
    let response = ui.add(
        egui::TextEdit::multiline(&mut buffer)
            .id(id)
            .code_editor()
            .desired_rows(3)
            .desired_width(f32::INFINITY)
            .hint_text(hint.to_string())
            .layouter(&mut layouter),
    );
    let mut jump_to = None;
    for p in &problems {
        let line = buffer[..(p.range.start as usize).min(buffer.len())]
            .matches('\n')
            .count()
            + 1;
        let label = format!("line {line}: {}", p.message);
        if ui
            .add(
                egui::Label::new(RichText::new(label).color(Color32::RED).monospace())
                    .sense(egui::Sense::click()),
            )
            .on_hover_text(p.hint.clone().unwrap_or_default())
            .clicked()
        {
            jump_to = Some(p.range.start as usize);
        }
    }
    if let Some(offset) = jump_to {
        let chars = buffer[..offset.min(buffer.len())].chars().count();
        let mut state = egui::TextEdit::load_state(ui.ctx(), id).unwrap_or_default();
        state
            .cursor
            .set_char_range(Some(CCursorRange::one(CCursor::new(chars))));
        state.store(ui.ctx(), id);
        ui.ctx().memory_mut(|m| m.request_focus(id));
    }
    response.changed().then_some(buffer)
}

/// The cards that pass the search and filters: (file, index, label).
pub fn listed(app: &EditorApp) -> Vec<(String, usize, String)> {
    let needle = app.cards.search.trim().to_lowercase();
    let mut out = Vec::new();
    for f in &app.loaded.content.files {
        if f.kind != sandtable_engine::schema::FileKind::Cards {
            continue;
        }
        let Ok(deck) = app.doc.parsed::<CardsFile>(&f.relative) else {
            continue;
        };
        if app.cards.deck.as_ref().is_some_and(|d| *d != deck.deck) {
            continue;
        }
        for (i, c) in deck.cards.iter().enumerate() {
            if app.cards.kind.as_ref().is_some_and(|k| *k != c.kind) {
                continue;
            }
            let hay = format!("{} {} {} {}", c.number, c.title, c.id, c.text).to_lowercase();
            if !needle.is_empty() && !hay.contains(&needle) {
                continue;
            }
            out.push((
                f.relative.clone(),
                i,
                format!("{} {}: {}", deck.deck, c.number, c.title),
            ));
        }
    }
    out
}

pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let decks: Vec<String> = app
        .loaded
        .content
        .decks
        .iter()
        .map(|d| d.deck.clone())
        .collect();
    let mut kinds: Vec<String> = app
        .loaded
        .content
        .cards()
        .map(|(_, c)| c.kind.clone())
        .collect();
    kinds.sort();
    kinds.dedup();
    ui.horizontal(|ui| {
        ui.label("Find:");
        ui.add(egui::TextEdit::singleline(&mut app.cards.search).desired_width(160.0));
        egui::ComboBox::from_label("Deck")
            .selected_text(app.cards.deck.clone().unwrap_or_else(|| "all".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.cards.deck, None, "all");
                for d in &decks {
                    ui.selectable_value(&mut app.cards.deck, Some(d.clone()), d);
                }
            });
        egui::ComboBox::from_label("Kind")
            .selected_text(app.cards.kind.clone().unwrap_or_else(|| "all".into()))
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut app.cards.kind, None, "all");
                for k in &kinds {
                    ui.selectable_value(&mut app.cards.kind, Some(k.clone()), k);
                }
            });
    });
    let list = listed(app);
    egui::Panel::left("card-list")
        .default_size(260.0)
        .show(ui, |ui| {
            ui.label(format!("{} cards", list.len()));
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (file, i, label) in &list {
                    let on = app.cards.selected.as_ref() == Some(&(file.clone(), *i));
                    if ui.selectable_label(on, label).clicked() {
                        app.cards.selected = Some((file.clone(), *i));
                    }
                }
            });
        });
    let Some((file, index)) = app.cards.selected.clone() else {
        ui.label("Choose a card.");
        return;
    };
    let Ok(deck) = app.doc.parsed::<CardsFile>(&file) else {
        ui.label(format!("{file} does not read: see Problems."));
        return;
    };
    let Some(card) = deck.cards.get(index).cloned() else {
        ui.label("No such card.");
        return;
    };
    egui::ScrollArea::vertical().show(ui, |ui| {
        preview(ui, &deck.deck, &card);
        ui.separator();
        form(app, ui, &file, index, &card);
        ui.separator();
        use crate::fields::Step;
        crate::fields::every_field::<CardsFile>(
            app,
            ui,
            "Every field of this card (values, group, provenance …)",
            &file,
            sandtable_engine::schema::FileKind::Cards,
            &[Step::Key("cards"), Step::Index(index)],
        );
    });
}

/// The card as printed: number, title, OPS value, type, text.
fn preview(ui: &mut Ui, deck: &str, card: &Card) {
    egui::Frame::new()
        .fill(Color32::from_rgb(236, 228, 205))
        .stroke(Stroke::new(1.0, Color32::from_gray(60)))
        .inner_margin(10.0)
        .corner_radius(6.0)
        .show(ui, |ui| {
            ui.set_width(320.0);
            let ink = Color32::from_gray(20);
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!("{} #{}", deck.to_uppercase(), card.number))
                        .color(ink)
                        .small(),
                );
                if let Some(ops) = card.values.get("ops") {
                    ui.label(RichText::new(format!("OPS {ops}")).color(ink).strong());
                }
            });
            ui.label(
                RichText::new(format!(
                    "{}{}",
                    card.title,
                    if card.remove { " *" } else { "" }
                ))
                .color(ink)
                .heading(),
            );
            ui.label(RichText::new(card.kind.to_uppercase()).color(ink).italics());
            ui.label(RichText::new(&card.text).color(ink));
            let others: Vec<String> = card
                .values
                .iter()
                .filter(|(k, _)| k.as_str() != "ops")
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            if !others.is_empty() {
                ui.label(RichText::new(others.join("  ")).color(ink).small());
            }
        });
}

fn edit_card(
    app: &mut EditorApp,
    file: &str,
    index: usize,
    label: &str,
    change: impl FnOnce(&mut Card),
) {
    app.edit::<CardsFile>(file, label, |d| {
        let card = d
            .cards
            .get_mut(index)
            .ok_or_else(|| "the card is gone".to_string())?;
        change(card);
        Ok(())
    });
}

fn form(app: &mut EditorApp, ui: &mut Ui, file: &str, index: usize, card: &Card) {
    let id = card.id.clone();
    egui::Grid::new("card-form").num_columns(2).show(ui, |ui| {
        ui.label("Id");
        ui.label(RichText::new(&id).monospace());
        ui.end_row();
        ui.label("Number");
        let mut number = card.number;
        if ui.add(egui::DragValue::new(&mut number)).changed() {
            edit_card(app, file, index, &format!("number of {id}"), |c| {
                c.number = number
            });
        }
        ui.end_row();
        if let Some(title) = crate::text_row(ui, "Title", &card.title) {
            edit_card(app, file, index, &format!("title of {id}"), |c| {
                c.title = title
            });
        }
        if let Some(kind) = crate::text_row(ui, "Kind", &card.kind) {
            edit_card(app, file, index, &format!("kind of {id}"), |c| {
                c.kind = kind
            });
        }
        let group = card.group.as_deref().unwrap_or_default();
        if let Some(group) = crate::text_row(ui, "Group", group) {
            let g = group.trim().to_string();
            edit_card(app, file, index, &format!("group of {id}"), |c| {
                c.group = (!g.is_empty()).then_some(g)
            });
        }
        for (key, value) in &card.values {
            ui.label(key);
            let mut v = *value;
            if ui.add(egui::DragValue::new(&mut v)).changed() {
                let k = key.clone();
                edit_card(app, file, index, &format!("{key} of {id}"), |c| {
                    c.values.insert(k, v);
                });
            }
            ui.end_row();
        }
        ui.label("Removed when played (*)");
        let mut remove = card.remove;
        if ui.checkbox(&mut remove, "").changed() {
            edit_card(app, file, index, &format!("asterisk of {id}"), |c| {
                c.remove = remove
            });
        }
        ui.end_row();
    });
    ui.label("Printed text");
    let mut text = card.text.clone();
    if ui
        .add(
            egui::TextEdit::multiline(&mut text)
                .desired_rows(3)
                .desired_width(f32::INFINITY),
        )
        .changed()
    {
        edit_card(app, file, index, &format!("text of {id}"), |c| {
            c.text = text
        });
    }
    let names = app.cards.names(app.doc.generation, &app.loaded.content);
    let jump = app.cards.jump.take();
    let fields: [(&'static str, &str, ScriptKind); 3] = [
        (
            "playable",
            "When it may be played (a condition)",
            ScriptKind::Condition,
        ),
        ("effect", "Event effect", ScriptKind::Event),
        ("combat", "Combat card", ScriptKind::Combat),
    ];
    for (field, heading, kind) in fields {
        ui.label(RichText::new(heading).strong());
        let current = match field {
            "playable" => card.playable.clone(),
            "effect" => card.effect.clone(),
            _ => card.combat.clone(),
        }
        .unwrap_or_default();
        let editor_id = egui::Id::new(("card-script", file, index, field));
        let at = jump.filter(|(f, _)| *f == field).map(|(_, o)| o);
        if let Some(new) = code_editor(ui, editor_id, &current, kind, &names, at, heading) {
            let value = (!new.trim().is_empty()).then_some(new);
            edit_card(
                app,
                file,
                index,
                &format!("{field} of {id}"),
                |c| match field {
                    "playable" => c.playable = value,
                    "effect" => c.effect = value,
                    _ => c.combat = value,
                },
            );
        }
    }
    ui.label("Notes");
    let mut notes = card.notes.clone();
    if ui.text_edit_multiline(&mut notes).changed() {
        edit_card(app, file, index, &format!("notes of {id}"), |c| {
            c.notes = notes
        });
    }
}
