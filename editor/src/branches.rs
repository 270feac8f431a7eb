//! The playtest's log and its what-if branches: each action in names with what it did told
//! under it; a click on an action picks the step to play on differently from, and *Branch
//! here* starts a new line there, the old one kept. The running line's name, and each kept
//! line compared with it at a step (tracks, victory points, control, units).

use egui::{Color32, RichText, ScrollArea, Ui};
use sandtable_engine::playtest::Playtest;

use crate::playtest::PlayCommand;

/// What the branch widgets hold between frames.
#[derive(Debug, Clone, Default)]
pub struct Branching {
    /// The action clicked in the log: a branch keeps the actions before it.
    pub from: Option<usize>,
    /// The name the next branch gets (a fresh one when empty).
    pub name: String,
    /// The step to compare lines at.
    pub step: usize,
    /// The last comparison: the kept line's name, the step, and what differs.
    pub compared: Option<(String, usize, Vec<String>)>,
    /// The running line's name being edited.
    pub rename: String,
}

/// The running line's name, editable.
pub(crate) fn line_name(ui: &mut Ui, p: &Playtest, b: &mut Branching) -> Vec<PlayCommand> {
    let mut asked = Vec::new();
    ui.horizontal(|ui| {
        ui.label(RichText::new(format!("Line: {}", p.name)).strong());
        ui.add(
            egui::TextEdit::singleline(&mut b.rename)
                .hint_text("new name")
                .desired_width(140.0),
        );
        if ui
            .add_enabled(
                !b.rename.trim().is_empty(),
                egui::Button::new("Rename line"),
            )
            .clicked()
        {
            asked.push(PlayCommand::Rename(None, std::mem::take(&mut b.rename)));
        }
    });
    asked
}

/// The log: each action in names (its text form on hover) with what it did under it; a click
/// picks it as the step to branch from. Above it, the branch bar once an action is picked.
pub(crate) fn log(
    ui: &mut Ui,
    p: &Playtest,
    told: &[sandtable_engine::narrate::Happened],
    b: &mut Branching,
) -> Vec<PlayCommand> {
    let mut asked = Vec::new();
    let names = p.content.names();
    let log = p.session.log();
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new("Log").strong());
        match b.from.filter(|&i| i < log.len()) {
            None => {
                ui.label(RichText::new("(click an action to play on differently from before it)").weak());
            }
            Some(i) => {
                ui.label(format!("Play on differently from before action {}:", i + 1));
                ui.add(
                    egui::TextEdit::singleline(&mut b.name)
                        .hint_text(p.new_branch_name())
                        .desired_width(120.0),
                );
                if ui
                    .button("Branch here")
                    .on_hover_text("Keep this line as it is and play on from before the picked action in a new line")
                    .clicked()
                {
                    let name = match b.name.trim() {
                        "" => p.new_branch_name(),
                        n => n.to_string(),
                    };
                    asked.push(PlayCommand::Branch(i, name));
                    b.name.clear();
                    b.from = None;
                }
                if ui.button("Cancel").clicked() {
                    b.from = None;
                }
            }
        }
    });
    ScrollArea::vertical()
        .id_salt("log")
        .stick_to_bottom(true)
        .show(ui, |ui| {
            for (i, action) in log.iter().enumerate() {
                let picked = b.from == Some(i);
                let text = RichText::new(format!("{:>4}  {}", i + 1, names.action(action)));
                let text = if picked {
                    text.background_color(Color32::from_rgb(60, 80, 120))
                } else {
                    text
                };
                if ui
                    .add(egui::Label::new(text).sense(egui::Sense::click()))
                    .on_hover_text(action)
                    .clicked()
                {
                    b.from = if picked { None } else { Some(i) };
                }
                for line in told.get(i).into_iter().flat_map(|t| t.lines()) {
                    ui.label(RichText::new(format!("        {line}")).weak());
                }
            }
        });
    asked
}

/// Beside a kept line: compare it with the running line at a step, and what the last
/// comparison of it found.
pub(crate) fn compare(
    ui: &mut Ui,
    p: &Playtest,
    line: usize,
    b: &mut Branching,
) -> Vec<PlayCommand> {
    let mut asked = Vec::new();
    let Some(l) = p.lines.get(line) else {
        return asked;
    };
    let longest = l.actions.len().max(p.session.log().len());
    ui.horizontal(|ui| {
        ui.label("Compare with the running line after step");
        ui.add(egui::DragValue::new(&mut b.step).range(0..=longest));
        if ui
            .button(format!("Compare {}", l.name))
            .on_hover_text("Turn, tracks and victory points, the result, control and units of both lines after that many actions")
            .clicked()
        {
            asked.push(PlayCommand::Compare(line, b.step));
        }
    });
    if let Some((name, step, said)) = &b.compared {
        if *name == l.name {
            ui.label(RichText::new(format!("After step {step}:")).strong());
            for s in said {
                ui.label(s);
            }
        }
    }
    asked
}
