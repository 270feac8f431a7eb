//! The Examples panel: the game's rulebook examples (`examples/*.ron`), run again each time the
//! content checks anew (every edit and every save), each shown as passed or where it diverged;
//! those the last change broke (or mended) are named at the top, and an example opens as a
//! playtest at its start.

use std::collections::{BTreeMap, BTreeSet};

use egui::{Color32, RichText, Ui};
use sandtable_engine::examples::{self, Outcome};
use sandtable_engine::load::Loaded;

use crate::EditorApp;

/// One example's last run.
#[derive(Debug, Clone, PartialEq)]
pub struct ExampleRun {
    pub id: String,
    pub rule: String,
    pub title: String,
    pub passed: bool,
    /// Where it diverged and why, rendered as `sandtable examples` does.
    pub report: Option<String>,
}

#[derive(Default)]
pub struct ExamplesView {
    pub runs: Vec<ExampleRun>,
    /// Examples that passed before the last change and fail now; and those mended by it.
    pub broken: BTreeSet<String>,
    pub mended: BTreeSet<String>,
    /// The content had errors at the last check: the runs shown are those before.
    pub stale: bool,
    pub selected: Option<String>,
}

impl ExamplesView {
    /// Runs every example on the content just checked, and notes what the change did to them.
    pub fn run(&mut self, loaded: &Loaded) {
        if loaded.has_errors() {
            self.stale = true;
            return;
        }
        let content = &loaded.content;
        let runs: Vec<ExampleRun> = content
            .examples
            .iter()
            .map(|e| {
                let outcome = examples::run(content, e);
                ExampleRun {
                    id: e.data.id.clone(),
                    rule: e.data.rule.clone(),
                    title: e.data.title.clone(),
                    passed: outcome.passed(),
                    report: outcome_report(loaded, &outcome),
                }
            })
            .collect();
        let mut runs = runs;
        // In the rulebook's order: 4.4 before 11.1, 11.3 before 11.42.
        runs.sort_by(|a, b| {
            rule_key(&a.rule)
                .cmp(&rule_key(&b.rule))
                .then(a.id.cmp(&b.id))
        });
        let before: BTreeMap<&str, bool> = self
            .runs
            .iter()
            .map(|r| (r.id.as_str(), r.passed))
            .collect();
        let mut broken = BTreeSet::new();
        let mut mended = BTreeSet::new();
        for r in &runs {
            match before.get(r.id.as_str()) {
                Some(true) if !r.passed => {
                    broken.insert(r.id.clone());
                }
                Some(false) if r.passed => {
                    mended.insert(r.id.clone());
                }
                _ => {}
            }
        }
        // A change that changes nothing for the examples keeps the last change's news.
        if runs != self.runs {
            self.broken = broken;
            self.mended = mended;
        }
        self.runs = runs;
        self.stale = false;
    }

    pub fn failed(&self) -> usize {
        self.runs.iter().filter(|r| !r.passed).count()
    }
}

/// A rule number as numbers (`11.42` is 11 then 42), words after them.
fn rule_key(rule: &str) -> (Vec<u32>, String) {
    let numbers = rule
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.parse().ok())
        .collect();
    (numbers, rule.to_string())
}

fn outcome_report(loaded: &Loaded, outcome: &Outcome) -> Option<String> {
    outcome.diagnostic().map(|d| loaded.sources.render(d))
}

/// The panel.
pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let view = &app.examples;
    ui.heading("Rulebook examples");
    if view.runs.is_empty() {
        ui.label(
            "This game has no examples yet. An example is a file examples/<id>.ron: a position, \
             the actions and die rolls played from it, and the outcome the rulebook prints \
             (see docs/content-format.md).",
        );
        return;
    }
    let passed = view.runs.len() - view.failed();
    ui.label(format!(
        "{passed} of {} pass, run again at every change.",
        view.runs.len()
    ));
    if view.stale {
        ui.label(
            RichText::new("The content has errors: these are the runs before them.")
                .color(Color32::from_rgb(200, 120, 0)),
        );
    }
    let names = |ids: &BTreeSet<String>| {
        view.runs
            .iter()
            .filter(|r| ids.contains(&r.id))
            .map(|r| format!("{} ({})", r.rule, r.id))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !view.broken.is_empty() {
        ui.label(
            RichText::new(format!("The last change broke: {}", names(&view.broken)))
                .color(Color32::RED)
                .strong(),
        );
    }
    if !view.mended.is_empty() {
        ui.label(
            RichText::new(format!("The last change mended: {}", names(&view.mended)))
                .color(Color32::from_rgb(0, 140, 60)),
        );
    }
    ui.separator();
    let mut open = None;
    let mut select = None;
    egui::ScrollArea::vertical()
        .auto_shrink([false, true])
        .max_height(ui.available_height() * 0.5)
        .show(ui, |ui| {
            egui::Grid::new("examples").striped(true).show(ui, |ui| {
                for r in &view.runs {
                    let (mark, colour) = if r.passed {
                        ("passed", Color32::from_rgb(0, 140, 60))
                    } else {
                        ("FAILED", Color32::RED)
                    };
                    ui.label(RichText::new(mark).color(colour).strong());
                    ui.label(&r.rule);
                    let chosen = view.selected.as_deref() == Some(r.id.as_str());
                    if ui.selectable_label(chosen, &r.title).clicked() {
                        select = Some(r.id.clone());
                    }
                    if ui
                        .button("Open in playtest")
                        .on_hover_text("Start a playtest at the example's position")
                        .clicked()
                    {
                        open = Some(r.id.clone());
                    }
                    ui.end_row();
                }
            });
        });
    if let Some(id) = select {
        app.examples.selected = Some(id);
    }
    // The first failing example is shown unless another was chosen.
    let shown = app.examples.selected.clone().or_else(|| {
        app.examples
            .runs
            .iter()
            .find(|r| !r.passed)
            .map(|r| r.id.clone())
    });
    if let Some(id) = shown {
        selected(app, ui, &id);
    }
    if let Some(id) = open {
        open_in_playtest(app, &id);
    }
}

fn selected(app: &EditorApp, ui: &mut Ui, id: &str) {
    let Some(e) = app.loaded.content.examples.iter().find(|e| e.data.id == id) else {
        return;
    };
    ui.separator();
    ui.label(RichText::new(format!("{} ({})", e.data.title, e.data.rule)).strong());
    if !e.data.text.is_empty() {
        ui.label(RichText::new(&e.data.text).italics());
    }
    let run = app.examples.runs.iter().find(|r| r.id == id);
    if let Some(report) = run.and_then(|r| r.report.as_ref()) {
        ui.label(RichText::new(report).monospace().color(Color32::RED));
    }
    ui.label(format!(
        "{} steps from scenario `{}`, seed {}.",
        e.data.steps.len(),
        e.data.scenario,
        e.data.seed
    ));
}

/// Starts a playtest at an example's position.
pub fn open_in_playtest(app: &mut EditorApp, id: &str) {
    let Some(e) = app.loaded.content.examples.iter().find(|e| e.data.id == id) else {
        return;
    };
    app.setup = examples::setup(&e.data);
    app.start_playtest();
}
