//! Sandtable's editor: the designer's window onto a game folder.
//!
//! The app is a plain struct ([`EditorApp`]) that both eframe and the GUI tests drive through
//! [`EditorApp::show`]. It owns the loaded content and never writes a file in this version: it
//! opens a folder, shows what the folder holds and every problem the checker found, reloads on
//! request, and runs a playtest of a scenario: the current prompt's legal actions as buttons,
//! the log with undo, and on reload the log replayed against the new rules with the first
//! divergence reported. The playtest's buttons emit [`PlayCommand`]s, applied after the frame.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText, ScrollArea, Ui};
use sandtable_engine::diag::Severity;
use sandtable_engine::load::{load_dir, Loaded};
use sandtable_engine::session::{DivergenceKind, Playtest, Reload, Setup};

/// Watches the game folder for files changed on disk (by the editor or any other program),
/// batching the events of a save into one (a debounce of [`Watch::DEBOUNCE`]).
pub struct Watch {
    _debouncer: notify_debouncer_mini::Debouncer<notify_debouncer_mini::notify::RecommendedWatcher>,
    events: std::sync::mpsc::Receiver<notify_debouncer_mini::DebounceEventResult>,
}

impl Watch {
    pub const DEBOUNCE: std::time::Duration = std::time::Duration::from_millis(100);

    /// Starts watching a folder and everything below it.
    pub fn folder(folder: &Path) -> Result<Watch, String> {
        use notify_debouncer_mini::notify::RecursiveMode;
        let (tx, events) = std::sync::mpsc::channel();
        let mut debouncer =
            notify_debouncer_mini::new_debouncer(Self::DEBOUNCE, tx).map_err(|e| e.to_string())?;
        debouncer
            .watcher()
            .watch(folder, RecursiveMode::Recursive)
            .map_err(|e| e.to_string())?;
        Ok(Watch {
            _debouncer: debouncer,
            events,
        })
    }

    /// Whether a content file changed since the last call.
    pub fn changed(&self) -> bool {
        let mut changed = false;
        while let Ok(batch) = self.events.try_recv() {
            if let Ok(events) = batch {
                changed |= events
                    .iter()
                    .any(|e| e.path.extension().is_some_and(|x| x == "ron"));
            }
        }
        changed
    }
}

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

/// What the central area shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Overview,
    Spaces,
    Counters,
    Cards,
    Tables,
    Scenarios,
    Playtest,
    Problems,
}

impl Section {
    pub const ALL: [Section; 8] = [
        Section::Overview,
        Section::Spaces,
        Section::Counters,
        Section::Cards,
        Section::Tables,
        Section::Scenarios,
        Section::Playtest,
        Section::Problems,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Section::Overview => "Overview",
            Section::Spaces => "Spaces",
            Section::Counters => "Counters",
            Section::Cards => "Cards",
            Section::Tables => "Tables",
            Section::Scenarios => "Scenarios",
            Section::Playtest => "Playtest",
            Section::Problems => "Problems",
        }
    }
}

pub struct EditorApp {
    pub folder: PathBuf,
    pub loaded: Loaded,
    pub section: Section,
    /// Text the lists are filtered by.
    pub filter: String,
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
    commands: Vec<PlayCommand>,
}

/// What the playtest's widgets ask for; applied at the end of the frame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayCommand {
    Start,
    Act(String),
    Undo,
    Stop,
}

impl EditorApp {
    pub fn open(folder: impl Into<PathBuf>) -> EditorApp {
        let folder = folder.into();
        let loaded = load_dir(&folder);
        let scenario = loaded
            .content
            .scenarios
            .first()
            .map(|s| s.id.clone())
            .unwrap_or_default();
        EditorApp {
            folder,
            loaded,
            section: Section::Overview,
            filter: String::new(),
            setup: Setup {
                scenario,
                options: Vec::new(),
                seed: 1,
                dice: Vec::new(),
            },
            playtest: None,
            report: String::new(),
            picks: Vec::new(),
            watch: None,
            focus: None,
            commands: Vec::new(),
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

    /// Loads the folder again from disk; a running playtest replays its log on the new rules
    /// (or keeps the last good ones when the new content does not check).
    pub fn reload(&mut self) {
        self.loaded = load_dir(&self.folder);
        if let Some(p) = &mut self.playtest {
            let again = load_dir(&self.folder);
            self.report = match p.reload(again) {
                Reload::Rejected(d) => format!(
                    "The changed content does not check ({} problems): the playtest goes on with the last good rules.",
                    d.len()
                ),
                Reload::Unplayable(why) => format!("The changed rules cannot play this scenario: {why}"),
                Reload::Replayed(None) => format!(
                    "Replayed {} actions on the changed rules: no difference.",
                    p.session.log().len()
                ),
                Reload::Replayed(Some(d)) => {
                    let what = match &d.kind {
                        DivergenceKind::Illegal(i) => format!("is no longer legal: {}", i.message),
                        DivergenceKind::Changed(diff) => format!("now plays differently: {}", diff.join("; ")),
                    };
                    format!(
                        "Action {} (`{}`) {what}. The {} actions before it are kept.",
                        d.index + 1,
                        d.action,
                        d.index
                    )
                }
            };
        }
    }

    /// Starts a playtest of the current setup and shows it.
    pub fn start_playtest(&mut self) {
        self.section = Section::Playtest;
        self.commands.push(PlayCommand::Start);
        self.apply_commands();
    }

    /// Applies what the playtest's widgets asked for this frame.
    pub fn apply_commands(&mut self) {
        for command in std::mem::take(&mut self.commands) {
            match command {
                PlayCommand::Start => {
                    match Playtest::new(self.loaded.content.clone(), self.setup.clone()) {
                        Ok(p) => {
                            self.playtest = Some(p);
                            self.report.clear();
                        }
                        Err(e) => self.report = format!("The scenario cannot be played: {e}"),
                    }
                }
                PlayCommand::Act(action) => {
                    if let Some(p) = &mut self.playtest {
                        match p.apply(&action) {
                            Ok(()) => self.report.clear(),
                            Err(e) => self.report = e.message,
                        }
                    }
                    self.picks.clear();
                    self.focus = None;
                }
                PlayCommand::Undo => {
                    if let Some(p) = &mut self.playtest {
                        p.undo();
                    }
                    self.picks.clear();
                }
                PlayCommand::Stop => {
                    self.playtest = None;
                    self.report.clear();
                }
            }
        }
    }

    fn title(&self) -> String {
        self.loaded
            .content
            .game
            .as_ref()
            .map_or_else(|| "(no game.ron)".to_string(), |g| g.title.clone())
    }

    /// Draws the whole editor into `ui`.
    pub fn show(&mut self, ui: &mut Ui) {
        if self.watch.as_ref().is_some_and(Watch::changed) {
            self.reload();
        }
        if self.watch.is_some() {
            ui.ctx().request_repaint_after(Watch::DEBOUNCE);
        }
        egui::Panel::top("top").show(ui, |ui| {
            ui.horizontal(|ui| {
                ui.heading(self.title());
                ui.label(RichText::new(self.folder.display().to_string()).weak());
                if ui.button("Reload").clicked() {
                    self.reload();
                }
            });
        });
        egui::Panel::left("files")
            .default_size(220.0)
            .show(ui, |ui| {
                for section in Section::ALL {
                    let label = match section {
                        Section::Problems => {
                            format!("Problems ({})", self.loaded.diagnostics.len())
                        }
                        _ => section.label().to_string(),
                    };
                    ui.selectable_value(&mut self.section, section, label);
                }
                ui.separator();
                ui.label(RichText::new("Files").strong());
                for file in &self.loaded.content.files {
                    ui.label(format!("{}  ({})", file.relative, file.kind.name()));
                }
            });
        egui::CentralPanel::default().show(ui, |ui| match self.section {
            Section::Overview => self.overview(ui),
            Section::Problems => self.problems(ui),
            Section::Playtest => self.playtest(ui),
            section => self.list(ui, section),
        });
        self.apply_commands();
    }

    fn playtest(&mut self, ui: &mut Ui) {
        if !self.report.is_empty() {
            ui.label(RichText::new(&self.report).color(Color32::from_rgb(200, 120, 0)));
        }
        let Some(p) = &self.playtest else {
            self.playtest_setup(ui);
            return;
        };
        let state = p.session.state();
        let content = &p.content;
        let turn = content
            .game
            .as_ref()
            .and_then(|g| g.turns.iter().find(|t| t.number == state.turn))
            .map_or(String::new(), |t| t.name.clone());
        ui.horizontal(|ui| {
            ui.label(
                RichText::new(format!(
                    "Turn {} ({turn}), round {}",
                    state.turn, state.round
                ))
                .strong(),
            );
            let tracks: Vec<String> = state
                .tracks
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            ui.label(tracks.join("  "));
        });
        ui.horizontal(|ui| {
            if ui.button("Undo").clicked() {
                self.commands.push(PlayCommand::Undo);
            }
            if ui.button("Stop").clicked() {
                self.commands.push(PlayCommand::Stop);
            }
            ui.label(format!("{} actions", p.session.log().len()));
        });
        if let Some(space) = playtest_map(ui, content, state) {
            if let Some(prompt) = &state.flow.prompt {
                match space_answer(prompt, &space) {
                    MapAnswer::Act(action) => self.commands.push(PlayCommand::Act(action)),
                    MapAnswer::Toggle => {
                        if self.picks.contains(&space) {
                            self.picks.retain(|x| *x != space);
                        } else {
                            self.picks.push(space.clone());
                        }
                        self.focus = None;
                    }
                    MapAnswer::Narrow => self.focus = Some(space),
                    MapAnswer::Nothing => self.focus = None,
                }
            }
        }
        ui.separator();
        match (&state.flow.prompt, &state.flow.result) {
            (Some(prompt), _) => {
                ui.label(
                    RichText::new(format!("{} decides: {}", prompt.side, prompt.question)).strong(),
                );
                ScrollArea::vertical()
                    .max_height(360.0)
                    .id_salt("prompt")
                    .show(ui, |ui| match prompt.pick {
                        None => {
                            if let Some(space) = &self.focus {
                                ui.label(format!("Actions about {space}:"));
                            }
                            let shown = prompt.options.iter().filter(|o| {
                                self.focus
                                    .as_ref()
                                    .is_none_or(|s| o.split_whitespace().any(|w| w == s))
                            });
                            for option in shown {
                                if ui.button(option).clicked() {
                                    self.commands.push(PlayCommand::Act(option.clone()));
                                }
                            }
                        }
                        Some((min, max)) => {
                            ui.label(format!("Choose {min} to {max}:"));
                            for option in &prompt.options {
                                let mut on = self.picks.contains(option);
                                if ui.checkbox(&mut on, option).changed() {
                                    if on {
                                        self.picks.push(option.clone());
                                    } else {
                                        self.picks.retain(|x| x != option);
                                    }
                                }
                            }
                            let fits = (min..=max).contains(&self.picks.len());
                            if ui.add_enabled(fits, egui::Button::new("Choose")).clicked() {
                                let action = format!("choose {}", self.picks.join(" "));
                                self.commands
                                    .push(PlayCommand::Act(action.trim_end().to_string()));
                            }
                        }
                    });
            }
            (None, Some(r)) => {
                ui.label(
                    RichText::new(format!(
                        "Game over: {} wins ({}, turn {}).",
                        r.winner, r.how, r.turn
                    ))
                    .strong(),
                );
            }
            (None, None) => {
                ui.label("No decision is open.");
            }
        }
        ui.separator();
        ui.label(RichText::new("Log").strong());
        ScrollArea::vertical()
            .id_salt("log")
            .stick_to_bottom(true)
            .show(ui, |ui| {
                for (i, action) in p.session.log().iter().enumerate() {
                    ui.label(RichText::new(format!("{:>4}  {action}", i + 1)).monospace());
                }
            });
    }

    fn playtest_setup(&mut self, ui: &mut Ui) {
        let scenarios: Vec<(String, String)> = self
            .loaded
            .content
            .scenarios
            .iter()
            .map(|s| (s.id.clone(), s.title.clone()))
            .collect();
        ui.horizontal(|ui| {
            ui.label("Scenario:");
            for (id, title) in &scenarios {
                ui.selectable_value(&mut self.setup.scenario, id.clone(), title);
            }
        });
        ui.horizontal(|ui| {
            ui.label("Seed:");
            ui.add(egui::DragValue::new(&mut self.setup.seed));
        });
        let options: Vec<(String, String)> = self
            .loaded
            .content
            .scenario(&self.setup.scenario)
            .map(|s| {
                s.options
                    .iter()
                    .map(|o| (o.id.clone(), o.name.clone()))
                    .collect()
            })
            .unwrap_or_default();
        for (id, name) in options {
            let mut on = self.setup.options.contains(&id);
            if ui.checkbox(&mut on, name).changed() {
                if on {
                    self.setup.options.push(id);
                } else {
                    self.setup.options.retain(|x| *x != id);
                }
            }
        }
        let errors = self.loaded.errors().count();
        if errors > 0 {
            ui.label(
                RichText::new(format!(
                    "The content has {errors} errors: fix them to play."
                ))
                .color(Color32::RED),
            );
        }
        if ui
            .add_enabled(errors == 0, egui::Button::new("Start"))
            .clicked()
        {
            self.commands.push(PlayCommand::Start);
        }
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

    /// The lines a list section shows, filtered.
    pub fn lines(&self, section: Section) -> Vec<String> {
        let c = &self.loaded.content;
        let lines: Vec<String> = match section {
            Section::Spaces => c
                .graph
                .spaces
                .iter()
                .map(|s| {
                    format!(
                        "{}  ({}, {})",
                        s.name,
                        s.id,
                        s.terrain.as_deref().unwrap_or("?")
                    )
                })
                .collect(),
            Section::Counters => c
                .counters
                .iter()
                .map(|k| {
                    let back = k
                        .back
                        .as_ref()
                        .map(|b| format!(" / {b:?}"))
                        .unwrap_or_default();
                    format!(
                        "{}  {} {} {:?}{back} ×{}",
                        k.name, k.nation, k.size, k.front, k.count
                    )
                })
                .collect(),
            Section::Cards => c
                .cards()
                .map(|(deck, card)| {
                    format!("{deck} {}: {}  ({})", card.number, card.title, card.kind)
                })
                .collect(),
            Section::Tables => c
                .tables
                .iter()
                .map(|t| format!("{}  ({})", t.name, t.id))
                .collect(),
            Section::Scenarios => c
                .scenarios
                .iter()
                .map(|s| {
                    format!(
                        "{}  ({}, turns {} to {})",
                        s.title, s.id, s.first_turn, s.last_turn
                    )
                })
                .collect(),
            Section::Overview | Section::Problems | Section::Playtest => Vec::new(),
        };
        let filter = self.filter.to_lowercase();
        lines
            .into_iter()
            .filter(|l| filter.is_empty() || l.to_lowercase().contains(&filter))
            .collect()
    }

    fn list(&mut self, ui: &mut Ui, section: Section) {
        ui.horizontal(|ui| {
            ui.label("Find:");
            ui.text_edit_singleline(&mut self.filter);
        });
        let lines = self.lines(section);
        let height = ui.text_style_height(&egui::TextStyle::Body);
        ScrollArea::vertical().show_rows(ui, height, lines.len(), |ui, range| {
            for line in &lines[range] {
                ui.label(line);
            }
        });
    }

    fn problems(&self, ui: &mut Ui) {
        if self.loaded.diagnostics.is_empty() {
            ui.label("No problems.");
            return;
        }
        ScrollArea::vertical().show(ui, |ui| {
            for d in &self.loaded.diagnostics {
                let color = match d.severity {
                    Severity::Error => Color32::RED,
                    Severity::Warning => Color32::from_rgb(200, 140, 0),
                };
                ui.label(
                    RichText::new(self.loaded.sources.render_line(d))
                        .color(color)
                        .monospace(),
                );
                for hint in &d.hints {
                    ui.label(RichText::new(format!("    hint: {hint}")).weak());
                }
            }
        });
    }
}

/// What a click on a space of the playtest map answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapAnswer {
    /// The one legal action about that space.
    Act(String),
    /// The space is one of the things to pick: tick or untick it.
    Toggle,
    /// Several actions are about the space: show only those.
    Narrow,
    Nothing,
}

/// The answer a click on a space gives to a prompt.
pub fn space_answer(prompt: &sandtable_engine::rules::Prompt, space: &str) -> MapAnswer {
    if prompt.pick.is_some() {
        return if prompt.options.iter().any(|o| o == space) {
            MapAnswer::Toggle
        } else {
            MapAnswer::Nothing
        };
    }
    let about: Vec<&String> = prompt
        .options
        .iter()
        .filter(|o| o.split_whitespace().any(|w| w == space))
        .collect();
    match about.as_slice() {
        [] => MapAnswer::Nothing,
        [one] => MapAnswer::Act((*one).clone()),
        _ => MapAnswer::Narrow,
    }
}

/// The playtest's map: connections, spaces coloured by who controls them, markers of play
/// (Move, Combat, trenches ...) as rings, and the number of units on each space. Returns the
/// space clicked, if any.
fn playtest_map(
    ui: &mut Ui,
    content: &sandtable_engine::content::Content,
    state: &sandtable_engine::state::State,
) -> Option<String> {
    use sandtable_engine::state::Loc;
    let g = &content.graph;
    if g.spaces.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = (
        egui::pos2(f32::MAX, f32::MAX),
        egui::pos2(f32::MIN, f32::MIN),
    );
    for i in 0..g.spaces.len() {
        let p = g.pos(i);
        lo = lo.min(egui::pos2(p.x, p.y));
        hi = hi.max(egui::pos2(p.x, p.y));
    }
    let width = ui.available_width().max(200.0);
    let size = egui::vec2(width, 360.0);
    let (rect, response) = ui.allocate_exact_size(size, egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(24));
    let span = (hi - lo).max(egui::vec2(1.0, 1.0));
    let scale = ((rect.width() - 20.0) / span.x).min((rect.height() - 20.0) / span.y);
    let at = |i: usize| {
        let p = g.pos(i);
        rect.left_top() + egui::vec2(10.0, 10.0) + (egui::pos2(p.x, p.y) - lo) * scale
    };
    for e in &g.edges {
        painter.line_segment(
            [at(e.a), at(e.b)],
            egui::Stroke::new(0.5, Color32::from_gray(70)),
        );
    }
    let mut units = vec![0u32; g.spaces.len()];
    for u in &state.units {
        if let Loc::Space(s) = &u.at {
            if let Some(i) = g.index_of(s) {
                units[i] += 1;
            }
        }
    }
    let sides: Vec<&str> = content
        .game
        .as_ref()
        .map(|gm| gm.sides.iter().map(|s| s.id.as_str()).collect())
        .unwrap_or_default();
    let palette = [
        Color32::from_rgb(120, 120, 130),
        Color32::from_rgb(190, 70, 60),
        Color32::from_rgb(70, 130, 190),
        Color32::from_rgb(90, 160, 90),
    ];
    for (i, s) in g.spaces.iter().enumerate() {
        let color = match state.control.get(&s.id) {
            Some(side) => sides
                .iter()
                .position(|x| x == side)
                .map_or(Color32::WHITE, |k| palette[k % palette.len()]),
            None => Color32::from_gray(45),
        };
        let radius = if units[i] > 0 { 3.5 } else { 2.0 };
        painter.circle_filled(at(i), radius, color);
        if state.markers.iter().any(|m| m.space == s.id) {
            painter.circle_stroke(at(i), radius + 1.5, egui::Stroke::new(1.0, Color32::YELLOW));
        }
        if units[i] > 1 {
            painter.text(
                at(i) + egui::vec2(4.0, -4.0),
                egui::Align2::LEFT_BOTTOM,
                units[i].to_string(),
                egui::FontId::proportional(9.0),
                Color32::WHITE,
            );
        }
    }
    let clicked = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())?;
    (0..g.spaces.len())
        .map(|i| (i, at(i).distance(clicked)))
        .filter(|(_, d)| *d <= 8.0)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| g.spaces[i].id.clone())
}
