//! What the playtest remembers of hot reloads: the report of each reload (the files and things
//! it took, what the replay found) until the designer dismisses it, and the lines of play a
//! reload set aside, each with every one of its actions, to return to, replay on the running
//! rules, or discard. Nothing here changes the playtest: its buttons emit [`PlayCommand`]s.

use egui::{Color32, RichText, Ui};
use sandtable_engine::playtest::{Playtest, Reload};

use crate::playtest::PlayCommand;

/// The colour of a report: orange where play changed or the files were refused, green where
/// the change made no difference.
fn colour(outcome: &Reload) -> Color32 {
    match outcome {
        Reload::Replayed(None) | Reload::Unchanged => Color32::from_rgb(60, 150, 60),
        _ => Color32::from_rgb(200, 120, 0),
    }
}

/// Draws the reports (newest first) and the kept lines; returns what was asked.
pub(crate) fn show(
    ui: &mut Ui,
    p: &Playtest,
    branching: &mut crate::branches::Branching,
) -> Vec<PlayCommand> {
    let mut asked = Vec::new();
    if !p.on_latest_rules() {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(
                    "This playtest runs on the rules of an earlier line, not on the files as they are now.",
                )
                .color(Color32::from_rgb(200, 120, 0)),
            );
            if ui
                .button("Take the files' rules")
                .on_hover_text("Replay this line on the content on disk (the line is kept if it diverges)")
                .clicked()
            {
                asked.push(PlayCommand::TakeFiles);
            }
        });
    }
    for (i, report) in p.reports.iter().enumerate().rev() {
        egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(report.headline()).color(colour(&report.outcome)));
                if ui.small_button("Dismiss").clicked() {
                    asked.push(PlayCommand::Dismiss(i));
                }
            });
            let details = report.details();
            if !details.is_empty() {
                egui::CollapsingHeader::new(format!("What reload {} found", report.number))
                    .id_salt(("reload", report.number))
                    .default_open(i + 1 == p.reports.len())
                    .show(ui, |ui| {
                        for line in details {
                            ui.label(RichText::new(line).monospace());
                        }
                    });
            }
        });
    }
    if p.lines.is_empty() {
        return asked;
    }
    egui::CollapsingHeader::new(format!(
        "Other lines ({}): branches, and lines a reload set aside",
        p.lines.len()
    ))
        .id_salt("kept lines")
        .default_open(true)
        .show(ui, |ui| {
            for (i, line) in p.lines.iter().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(
                        RichText::new(format!("{}: {} actions", line.name, line.actions.len()))
                            .strong(),
                    );
                    if ui
                        .button(format!("Return to {}", line.name))
                        .on_hover_text("Play this line again on the rules it was played on")
                        .clicked()
                    {
                        asked.push(PlayCommand::ReturnTo(i));
                    }
                    if ui
                        .button(format!("Replay {} here", line.name))
                        .on_hover_text(
                            "Play this line's actions on the running rules, up to the first that no longer plays",
                        )
                        .clicked()
                    {
                        asked.push(PlayCommand::ReplayHere(i));
                    }
                    if ui.button(format!("Discard {}", line.name)).clicked() {
                        asked.push(PlayCommand::Discard(i));
                    }
                });
                asked.extend(crate::branches::compare(ui, p, i, branching));
                egui::CollapsingHeader::new(format!("The actions of {}", line.name))
                    .id_salt(("line", i))
                    .show(ui, |ui| {
                        let names = p.content.names();
                        for (n, action) in line.actions.iter().enumerate() {
                            ui.label(RichText::new(format!(
                                "{:>4}  {}",
                                n + 1,
                                names.action(action)
                            )))
                            .on_hover_text(action);
                        }
                    });
            }
        });
    asked
}

/// What replaying a line as far as it goes says.
pub(crate) fn replay_said(
    name: &str,
    result: Result<
        Option<sandtable_engine::session::ReplayError>,
        sandtable_engine::rules::RulesError,
    >,
) -> String {
    match result {
        Ok(None) => format!("Replayed every action of \"{name}\"."),
        Ok(Some(e)) => format!(
            "\"{name}\": action {} (`{}`) does not play here: {}. The {} actions before it are played; the line stays kept.",
            e.index + 1,
            e.action,
            e.illegal.message,
            e.index
        ),
        Err(e) => format!("\"{name}\" cannot be played: {e}"),
    }
}
