//! Sandtable's editor: the designer's window onto a game folder.
//!
//! The app is a plain struct ([`EditorApp`]) that both eframe and the GUI tests drive through
//! [`EditorApp::show`]. It holds the folder's files as a [`doc::Document`] (texts, what is on
//! disk, undo and redo) and the content checked from those texts, so every panel shows the
//! edits made and their problems before they are saved. Panels change the content only
//! through [`EditorApp::edit`], which reads a file into its type, changes it and writes it back
//! in the canonical layout as one undoable step. Ctrl+S saves atomically.
//!
//! The folder is followed on disk (notify, debounced): a file changed by another program is
//! taken (or becomes a conflict when it has unsaved edits), and a running playtest replays
//! its log on what is now on disk, so a save in the editor reaches the playtest too.

pub mod balance;
pub mod board;
pub mod branches;
pub mod cards;
pub mod doc;
pub mod examples;
pub mod fields;
pub mod map;
pub mod playtest;
mod problems;
mod prompt;
mod reloads;
pub mod roster;
pub mod scenario;
pub mod tables;
mod watch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use egui::{Color32, RichText, Ui};
use sandtable_engine::diag::Place;
use sandtable_engine::load::{load, load_dir, Loaded};
use sandtable_engine::session::{Playtest, Reload, Setup};
use serde::de::DeserializeOwned;
use serde::Serialize;

pub use playtest::{space_answer, MapAnswer, PlayCommand};
pub use watch::Watch;

/// The bundled game the editor opens when given no folder.
pub const BUNDLED_GAME: &str = "content/barbarossa-to-berlin";

/// Finds the bundled content: beside the working directory, or in the source tree the editor
/// was built from.
pub fn bundled_content() -> PathBuf {
    let local = PathBuf::from(BUNDLED_GAME);
    if local.is_dir() {
        return local;
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(BUNDLED_GAME)
}

/// Where a problem is: the file (relative to the folder) and the JSON pointer in it.
type ProblemPlace = (String, String);

/// What the central area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Overview,
    Game,
    Map,
    Counters,
    Cards,
    Tables,
    Scenarios,
    Playtest,
    Examples,
    Balance,
    Problems,
}

impl Section {
    pub const ALL: [Section; 11] = [
        Section::Overview,
        Section::Game,
        Section::Map,
        Section::Counters,
        Section::Cards,
        Section::Tables,
        Section::Scenarios,
        Section::Playtest,
        Section::Examples,
        Section::Balance,
        Section::Problems,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Section::Overview => "Overview",
            Section::Game => "Game",
            Section::Map => "Map",
            Section::Counters => "Counters",
            Section::Cards => "Cards",
            Section::Tables => "Tables",
            Section::Scenarios => "Scenarios",
            Section::Playtest => "Playtest",
            Section::Examples => "Examples",
            Section::Balance => "Balance",
            Section::Problems => "Problems",
        }
    }
}

/// Where quitting stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Quit {
    #[default]
    No,
    /// The window was asked to close with unsaved changes: the designer is asked.
    Asking,
    /// Close now.
    Confirmed,
}

pub struct EditorApp {
    pub folder: PathBuf,
    /// The files as the editor holds them (with unsaved edits).
    pub doc: doc::Document,
    /// The content checked from the document's texts.
    pub loaded: Loaded,
    checked: u64,
    pub section: Section,
    /// What the last command did (saved, undone, an edit refused).
    pub status: String,
    pub quit: Quit,
    /// The playtest's setup, and the playtest once started.
    pub setup: Setup,
    pub playtest: Option<Playtest>,
    /// What the playtest last said: an illegal action, or what a reload found.
    pub report: String,
    /// The options ticked for a prompt that asks to pick several.
    pub picks: Vec<String>,
    /// The watch on the folder, when the editor follows changes on disk.
    pub watch: Option<Watch>,
    /// The space clicked on the playtest map, whose actions alone are shown.
    pub focus: Option<String>,
    /// Die results typed for the playtest's next rolls.
    pub dice: String,
    /// The file a playtest is saved to and loaded from.
    pub save_path: String,
    pub(crate) commands: Vec<PlayCommand>,
    /// What each action of the playtest's log did, told in words under it.
    pub(crate) chronicle: sandtable_engine::narrate::Chronicle,
    /// The playtest's what-if branches: the step picked, names, the last comparison.
    pub branching: branches::Branching,
    /// The playtest's board: zoom, pan, the stack spread out, the unit picked.
    pub board: board::BoardView,
    /// The words the playtest's list of actions is searched for.
    pub search: String,
    pub map: map::MapView,
    pub cards: cards::CardsView,
    pub tables: tables::TablesView,
    pub roster: roster::RosterView,
    pub scenario: scenario::ScenarioView,
    pub fields: fields::FieldsView,
    pub balance: balance::BalanceView,
    pub examples: examples::ExamplesView,
    /// Where each diagnostic points, found once per check (see [`EditorApp::place_of`]).
    places: std::cell::RefCell<(Option<u64>, Vec<Option<ProblemPlace>>)>,
}

impl EditorApp {
    pub fn open(folder: impl Into<PathBuf>) -> EditorApp {
        let folder = folder.into();
        let doc = doc::Document::read(&folder);
        let loaded = if doc.files.is_empty() {
            load_dir(&folder)
        } else {
            load(&doc.source())
        };
        let scenario = loaded
            .content
            .scenarios
            .first()
            .map(|s| s.id.clone())
            .unwrap_or_default();
        let save_path = folder.join("..").join("playtest.ron").display().to_string();
        let mut examples = examples::ExamplesView::default();
        examples.run(&loaded);
        EditorApp {
            folder,
            checked: doc.generation,
            doc,
            loaded,
            section: Section::Overview,
            status: String::new(),
            quit: Quit::No,
            setup: Setup {
                scenario,
                options: Vec::new(),
                seed: 1,
                dice: Vec::new(),
                position: None,
            },
            playtest: None,
            report: String::new(),
            picks: Vec::new(),
            watch: None,
            focus: None,
            dice: String::new(),
            save_path,
            commands: Vec::new(),
            chronicle: Default::default(),
            branching: Default::default(),
            board: Default::default(),
            search: String::new(),
            map: map::MapView::default(),
            cards: cards::CardsView::default(),
            tables: tables::TablesView::default(),
            roster: roster::RosterView::default(),
            scenario: scenario::ScenarioView::default(),
            fields: fields::FieldsView::default(),
            balance: balance::BalanceView::default(),
            examples,
            places: Default::default(),
        }
    }

    /// Follows the folder: a content file changed on disk reloads it (and replays a running
    /// playtest), a fraction of a second after the save.
    pub fn watch_folder(&mut self) {
        match Watch::folder(&self.folder) {
            Ok(w) => self.watch = Some(w),
            Err(e) => self.report = format!("Changes on disk are not followed: {e}"),
        }
    }

    /// Checks the document's texts again if they changed since the last check.
    pub fn recheck(&mut self) {
        if self.checked != self.doc.generation {
            self.loaded = load(&self.doc.source());
            self.checked = self.doc.generation;
            self.examples.run(&self.loaded);
        }
    }

    /// Changes one content file through its type (see [`doc::Document::edit`]) and checks the
    /// content again. A refused change leaves everything as it was and says why.
    pub fn edit<T: DeserializeOwned + Serialize>(
        &mut self,
        file: &str,
        label: &str,
        change: impl FnOnce(&mut T) -> Result<(), String>,
    ) -> bool {
        match self.doc.edit(file, label, change) {
            Ok(()) => {
                self.status.clear();
                self.recheck();
                true
            }
            Err(e) => {
                self.status = format!("Not changed: {e}");
                false
            }
        }
    }

    /// The file of the content a kind of thing lives in (`map.ron`), if the folder has one.
    pub fn file_of(&self, kind: sandtable_engine::schema::FileKind) -> Option<String> {
        self.loaded
            .content
            .files
            .iter()
            .find(|f| f.kind == kind)
            .map(|f| f.relative.clone())
    }

    pub fn undo(&mut self) {
        if let Some(label) = self.doc.undo() {
            self.status = format!("Undone: {label}");
            self.recheck();
        }
    }

    pub fn redo(&mut self) {
        if let Some(label) = self.doc.redo() {
            self.status = format!("Redone: {label}");
            self.recheck();
        }
    }

    /// Saves every unsaved file atomically in the canonical layout.
    pub fn save(&mut self) {
        self.status = match self.doc.save() {
            Ok(written) if written.is_empty() && self.doc.conflicts.is_empty() => {
                "Nothing to save.".into()
            }
            Ok(written) => {
                let mut s = format!("Saved {}.", written.join(", "));
                if !self.doc.conflicts.is_empty() {
                    s.push_str(" Conflicts are not saved until resolved.");
                }
                s
            }
            Err(e) => e,
        };
    }

    /// The window is asked to close: close unless there are unsaved changes, then ask.
    pub fn request_quit(&mut self) {
        if self.quit != Quit::Confirmed {
            self.quit = if self.doc.is_dirty() {
                Quit::Asking
            } else {
                Quit::Confirmed
            };
        }
    }

    /// Looks at the disk again: takes changed files (or marks conflicts), checks the content,
    /// and replays a running playtest on the content on disk.
    pub fn reload(&mut self) -> Option<Reload> {
        let change = self.doc.sync_from_disk();
        if !change.conflicts.is_empty() {
            self.status = format!(
                "Changed on disk while edited here: {}. Keep yours or take the disk's.",
                change.conflicts.join(", ")
            );
        }
        self.recheck();
        if let Some(p) = &mut self.playtest {
            // The report of what the reload took and found stays in the playtest until
            // dismissed; identical files change nothing.
            let outcome = p.reload(load_dir(&self.folder));
            if outcome != Reload::Unchanged {
                self.report.clear();
            }
            return Some(outcome);
        }
        None
    }

    fn title(&self) -> String {
        self.loaded
            .content
            .game
            .as_ref()
            .map_or_else(|| "(no game.ron)".to_string(), |g| g.title.clone())
    }

    fn shortcuts(&mut self, ui: &Ui) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        let save = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
        if ui.ctx().input_mut(|i| i.consume_shortcut(&save)) {
            self.save();
        }
        // Text fields keep Ctrl+Z for their own text; elsewhere it undoes edits.
        if ui.ctx().memory(|m| m.focused().is_some()) {
            return;
        }
        let redo = KeyboardShortcut::new(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        let redo_y = KeyboardShortcut::new(Modifiers::COMMAND, Key::Y);
        let undo = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        if ui
            .ctx()
            .input_mut(|i| i.consume_shortcut(&redo) || i.consume_shortcut(&redo_y))
        {
            self.redo();
        } else if ui.ctx().input_mut(|i| i.consume_shortcut(&undo)) {
            self.undo();
        }
    }

    /// Draws the whole editor into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        if self.watch.as_ref().is_some_and(Watch::changed) {
            self.reload();
        }
        if self.watch.is_some() {
            ui.ctx().request_repaint_after(Watch::DEBOUNCE);
        }
        self.shortcuts(ui);
        egui::Panel::top("top").show(ui, |ui| self.top_bar(ui));
        egui::Panel::left("files")
            .default_size(200.0)
            .show(ui, |ui| self.side_bar(ui));
        egui::CentralPanel::default().show(ui, |ui| {
            problems::banner(self, ui);
            self.section_panel(ui);
        });
        if self.quit == Quit::Asking {
            self.quit_dialog(ui);
        }
        self.apply_commands();
    }

    fn section_panel(&mut self, ui: &mut Ui) {
        match self.section {
            Section::Overview => self.overview(ui),
            Section::Game => self.game(ui),
            Section::Map => map::show(self, ui),
            Section::Counters => roster::show(self, ui),
            Section::Cards => cards::show(self, ui),
            Section::Tables => tables::show(self, ui),
            Section::Scenarios => scenario::show(self, ui),
            Section::Problems => problems::show(self, ui),
            Section::Playtest => self.playtest(ui),
            Section::Examples => examples::show(self, ui),
            Section::Balance => balance::show(self, ui),
        }
    }

    fn top_bar(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            let dirty = self.doc.is_dirty();
            let title = if dirty {
                format!("{} *", self.title())
            } else {
                self.title()
            };
            ui.heading(title);
            ui.label(RichText::new(self.folder.display().to_string()).weak());
            if ui
                .add_enabled(dirty, egui::Button::new("Save"))
                .on_hover_text("Ctrl+S: write the unsaved files")
                .clicked()
            {
                self.save();
            }
            let undo = self.doc.undo_label().map(|l| format!("Undo {l}"));
            if ui
                .add_enabled(
                    undo.is_some(),
                    egui::Button::new(undo.unwrap_or_else(|| "Undo".into())),
                )
                .clicked()
            {
                self.undo();
            }
            let redo = self.doc.redo_label().map(|l| format!("Redo {l}"));
            if ui
                .add_enabled(
                    redo.is_some(),
                    egui::Button::new(redo.unwrap_or_else(|| "Redo".into())),
                )
                .clicked()
            {
                self.redo();
            }
            if ui.button("Reload").clicked() && self.reload() == Some(Reload::Unchanged) {
                self.status = "The playtest already runs on the files as they are.".into();
            }
            if !self.status.is_empty() {
                ui.label(RichText::new(&self.status).color(Color32::from_rgb(200, 140, 0)));
            }
        });
        let conflicts: Vec<String> = self.doc.conflicts.keys().cloned().collect();
        for file in conflicts {
            ui.horizontal(|ui| {
                ui.label(
                    RichText::new(format!(
                        "{file} changed on disk while it has unsaved edits here."
                    ))
                    .color(Color32::RED),
                );
                if ui.button(format!("Keep mine: {file}")).clicked() {
                    self.doc.resolve(&file, true);
                    self.status = format!("{file}: your edits are kept; save to write them.");
                }
                if ui.button(format!("Take the disk's: {file}")).clicked() {
                    self.doc.resolve(&file, false);
                    self.recheck();
                    self.status = format!("{file}: taken from disk.");
                }
            });
        }
    }

    fn side_bar(&mut self, ui: &mut Ui) {
        for section in Section::ALL {
            let label = match section {
                Section::Problems => format!("Problems ({})", self.loaded.diagnostics.len()),
                Section::Examples if self.examples.failed() > 0 => {
                    format!("Examples ({} failing)", self.examples.failed())
                }
                _ => section.label().to_string(),
            };
            ui.selectable_value(&mut self.section, section, label);
        }
        ui.separator();
        ui.label(RichText::new("Files").strong());
        // The game's own files, then a folder's files under its name (folded when it holds many,
        // as a game's rulebook examples do).
        let dirty = |relative: &str| {
            self.doc
                .files
                .get(relative)
                .is_some_and(doc::FileBuf::is_dirty)
        };
        let mut folders: std::collections::BTreeMap<&str, Vec<_>> = Default::default();
        for file in &self.loaded.content.files {
            match file.relative.split_once('/') {
                Some((folder, name)) => folders.entry(folder).or_default().push((file, name)),
                None => {
                    let mark = if dirty(&file.relative) { " *" } else { "" };
                    ui.label(format!("{}  ({}){mark}", file.relative, file.kind.name()));
                }
            }
        }
        for (folder, files) in folders {
            let changed = files.iter().filter(|(f, _)| dirty(&f.relative)).count();
            let mark = if changed > 0 { " *" } else { "" };
            let count = match files.len() {
                1 => "1 file".to_string(),
                n => format!("{n} files"),
            };
            egui::CollapsingHeader::new(format!("{folder}/  ({count}){mark}"))
                .id_salt(("files", folder))
                .default_open(files.len() <= 6)
                .show(ui, |ui| {
                    for (file, name) in files {
                        let mark = if dirty(&file.relative) { " *" } else { "" };
                        ui.label(format!("{name}  ({}){mark}", file.kind.name()));
                    }
                });
        }
    }

    fn quit_dialog(&mut self, ui: &mut Ui) {
        egui::Modal::new(egui::Id::new("quit")).show(ui.ctx(), |ui| {
            ui.heading("Unsaved changes");
            ui.label(format!(
                "These files have changes that are not saved: {}.",
                self.doc.dirty().join(", ")
            ));
            ui.horizontal(|ui| {
                if ui.button("Save and quit").clicked() {
                    self.save();
                    if !self.doc.is_dirty() {
                        self.quit = Quit::Confirmed;
                    }
                }
                if ui.button("Quit without saving").clicked() {
                    self.quit = Quit::Confirmed;
                }
                if ui.button("Cancel").clicked() {
                    self.quit = Quit::No;
                }
            });
        });
    }

    /// game.ron, every field: sides, nations, regions, terrains, connection kinds, stats,
    /// unit types, markers, tracks, decks, turns, stacking, the sequence of play, play rules.
    fn game(&mut self, ui: &mut Ui) {
        let Some(file) = self.file_of(sandtable_engine::schema::FileKind::Game) else {
            ui.label("The folder has no game.ron.");
            return;
        };
        ui.heading("Game");
        ui.label(
            RichText::new(
                "Everything true of the game whatever the scenario. Open a part to edit it; \
                 hover a field's name for what it means.",
            )
            .weak(),
        );
        egui::ScrollArea::vertical()
            .auto_shrink([false; 2])
            .show(ui, |ui| {
                fields::edit_tree::<sandtable_engine::model::GameFile>(
                    self,
                    ui,
                    &file,
                    sandtable_engine::schema::FileKind::Game,
                    &[],
                )
            });
    }

    fn overview(&self, ui: &mut Ui) {
        let c = &self.loaded.content;
        let errors = self.loaded.errors().count();
        if errors == 0 {
            ui.label(RichText::new("The content checks.").color(Color32::DARK_GREEN));
        } else {
            ui.label(RichText::new(format!("{errors} errors: see Problems.")).color(Color32::RED));
        }
        egui::Grid::new("overview").striped(true).show(ui, |ui| {
            let rows = [
                ("Spaces", c.graph.spaces.len()),
                ("Connections", c.graph.edges.len()),
                ("Counters", c.counters.len()),
                ("Cards", c.cards().count()),
                ("Tables", c.tables.len()),
                ("Scenarios", c.scenarios.len()),
            ];
            for (name, count) in rows {
                ui.label(name);
                ui.label(count.to_string());
                ui.end_row();
            }
        });
    }

    /// Where a diagnostic points: its file (relative) and the JSON pointer of the value there.
    pub fn place_of(&self, index: usize) -> Option<(String, String)> {
        let mut places = self.places.borrow_mut();
        if places.0 != Some(self.checked) {
            *places = (Some(self.checked), self.find_places());
        }
        places.1.get(index).cloned().flatten()
    }

    /// The places of all the diagnostics, each file parsed once.
    fn find_places(&self) -> Vec<Option<ProblemPlace>> {
        let mut spans = BTreeMap::new();
        self.loaded
            .diagnostics
            .iter()
            .map(|d| {
                let Place::Span(span) = &d.place else {
                    return None;
                };
                let file = self
                    .loaded
                    .content
                    .files
                    .iter()
                    .find(|f| f.id == span.file)?;
                let map = spans.entry(span.file).or_insert_with(|| {
                    let text = &self.loaded.sources.get(span.file).text;
                    let node = sandtable_engine::ron_syntax::parse(text).ok()?;
                    Some(sandtable_engine::ron_syntax::SpanMap::new(node))
                });
                let pointer = map.as_ref()?.pointer_at(span.start as usize);
                Some((file.relative.clone(), pointer.unwrap_or_default()))
            })
            .collect()
    }

    /// The optional rules of the playtest's scenario: id and name.
    pub fn scenario_options(&self) -> Vec<(String, String)> {
        self.loaded
            .content
            .scenario(&self.setup.scenario)
            .map(|s| {
                s.options
                    .iter()
                    .map(|o| (o.id.clone(), o.name.clone()))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Opens the place of a problem: the panel that edits it, with the thing selected.
    pub fn open_problem(&mut self, index: usize) {
        let Some((file, pointer)) = self.place_of(index) else {
            return;
        };
        let parts: Vec<&str> = pointer.split('/').skip(1).collect();
        let number = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
        use sandtable_engine::schema::FileKind;
        match FileKind::of_path(&file) {
            Some(FileKind::Map) => {
                self.section = Section::Map;
                self.map.select_pointer(&self.loaded.content, &parts);
            }
            Some(FileKind::Counters) => {
                self.section = Section::Counters;
                self.roster.selected = number(1);
            }
            Some(FileKind::Cards) => {
                self.section = Section::Cards;
                self.cards.open(&file, number(1), parts.get(2).copied());
            }
            Some(FileKind::Tables) => {
                self.section = Section::Tables;
                self.tables.selected = number(1);
            }
            Some(FileKind::Scenario) => {
                self.section = Section::Scenarios;
                if let Ok(s) = self
                    .doc
                    .parse::<sandtable_engine::model::ScenarioFile>(&file)
                {
                    self.scenario.selected = s.id;
                }
                self.scenario.line = if parts.first() == Some(&"setup") {
                    number(1)
                } else {
                    None
                };
            }
            Some(FileKind::Game) => {
                self.section = Section::Game;
                self.fields.reveal = Some(fields::path_of_pointer(&pointer));
            }
            Some(FileKind::Example) => {
                self.section = Section::Examples;
                self.examples.selected = self
                    .doc
                    .parse::<sandtable_engine::model::ExampleFile>(&file)
                    .ok()
                    .map(|e| e.id);
            }
            None => {}
        }
        self.status = format!("Opened {file} at {pointer}");
    }
}

/// A colour written `#rrggbb` in the content.
pub fn parse_color(text: Option<&str>) -> Option<Color32> {
    let hex = text?.strip_prefix('#')?;
    if hex.len() != 6 {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
    Some(Color32::from_rgb(byte(0)?, byte(2)?, byte(4)?))
}

/// A tick box for each (id, name); returns the id the designer ticked or unticked and whether
/// it is now ticked.
pub(crate) fn ticks<'a>(
    ui: &mut Ui,
    items: impl IntoIterator<Item = (&'a str, &'a str)>,
    ticked: &[String],
) -> Option<(String, bool)> {
    let mut changed = None;
    for (id, name) in items {
        let mut on = ticked.iter().any(|t| t == id);
        if ui.checkbox(&mut on, name).changed() {
            changed = Some((id.to_string(), on));
        }
    }
    changed
}

/// A row of a form grid: a label and a one-line text field; the new text when it was changed.
pub(crate) fn text_row(ui: &mut Ui, label: &str, value: &str) -> Option<String> {
    ui.label(label);
    let mut text = value.to_string();
    let changed = ui.text_edit_singleline(&mut text).changed();
    ui.end_row();
    changed.then_some(text)
}

/// Puts an id in a list or takes it out.
pub(crate) fn set_member(list: &mut Vec<String>, id: String, on: bool) {
    if on {
        if !list.contains(&id) {
            list.push(id);
        }
    } else {
        list.retain(|x| *x != id);
    }
}
