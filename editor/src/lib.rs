//! Sandtable's editor: the designer's window onto a game folder.
//!
//! The app is a plain struct ([`EditorApp`]) that both eframe and the GUI tests drive through
//! [`EditorApp::show`]. It owns the loaded content and never writes a file in this version: it
//! opens a folder, shows what the folder holds and every problem the checker found, and reloads
//! on request.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText, ScrollArea, Ui};
use sandtable_engine::diag::Severity;
use sandtable_engine::load::{load_dir, Loaded};

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
    Problems,
}

impl Section {
    pub const ALL: [Section; 7] = [
        Section::Overview,
        Section::Spaces,
        Section::Counters,
        Section::Cards,
        Section::Tables,
        Section::Scenarios,
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
}

impl EditorApp {
    pub fn open(folder: impl Into<PathBuf>) -> EditorApp {
        let folder = folder.into();
        let loaded = load_dir(&folder);
        EditorApp {
            folder,
            loaded,
            section: Section::Overview,
            filter: String::new(),
        }
    }

    /// Loads the folder again from disk.
    pub fn reload(&mut self) {
        self.loaded = load_dir(&self.folder);
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
            section => self.list(ui, section),
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
            Section::Overview | Section::Problems => Vec::new(),
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
