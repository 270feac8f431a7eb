//! The Problems panel, which lists problems cause first; and the banner of a panel whose file
//! does not load, which says so with the error instead of going blank.

use egui::{Color32, RichText, ScrollArea, Ui};
use sandtable_engine::diag::{Diagnostic, Place, Severity};
use sandtable_engine::schema::FileKind;

use crate::{EditorApp, Section};

/// The kind of file a panel shows, if it shows one.
fn kind_of(section: Section) -> Option<FileKind> {
    Some(match section {
        Section::Game => FileKind::Game,
        Section::Map => FileKind::Map,
        Section::Counters => FileKind::Counters,
        Section::Cards => FileKind::Cards,
        Section::Tables => FileKind::Tables,
        Section::Scenarios => FileKind::Scenario,
        _ => return None,
    })
}

/// How early a problem comes in the list: a file that cannot be read or parsed, then one that
/// does not fit its schema, then everything checked on loaded content, then the examples;
/// errors before warnings.
pub fn cause_rank(d: &Diagnostic) -> (u8, u8) {
    let severity = u8::from(d.severity != Severity::Error);
    let cause = match d.code {
        c if c.starts_with("E000") => 0,
        "E0100" => 1,
        c if c.starts_with("E04") => 3,
        _ => 2,
    };
    (severity, cause)
}

/// Whether a problem keeps its file from loading at all.
pub(crate) fn keeps_from_loading(d: &Diagnostic) -> bool {
    d.severity == Severity::Error && cause_rank(d).1 <= 1
}

/// The first problem that keeps a file of this kind from loading: its index and its line.
fn unloaded(app: &EditorApp, kind: FileKind) -> Option<(usize, String)> {
    let loaded = &app.loaded;
    loaded
        .diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| keeps_from_loading(d))
        .find(|(_, d)| match &d.place {
            Place::Span(span) => loaded
                .content
                .files
                .iter()
                .any(|f| f.id == span.file && f.kind == kind),
            Place::Path(_) => false,
        })
        .map(|(i, d)| (i, loaded.sources.render_line(d)))
}

/// Above a panel whose file does not load: what is wrong, and a way to its place.
pub(crate) fn banner(app: &mut EditorApp, ui: &mut Ui) {
    let Some(kind) = kind_of(app.section) else {
        return;
    };
    let Some((index, line)) = unloaded(app, kind) else {
        return;
    };
    let mut open = false;
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.label(
            RichText::new(format!(
                "This panel's file does not load, so the panel cannot show it. Fix this first: {line}"
            ))
            .color(Color32::from_rgb(230, 80, 60)),
        );
        open = ui.button("Open the problem").clicked();
    });
    if open {
        app.section = Section::Problems;
        app.open_problem(index);
    }
}

/// The problems in the order to read them (see [`cause_rank`]), each with its index.
pub(crate) fn in_cause_order(diagnostics: &[Diagnostic]) -> Vec<(usize, &Diagnostic)> {
    let mut list: Vec<(usize, &Diagnostic)> = diagnostics.iter().enumerate().collect();
    list.sort_by_key(|(_, d)| cause_rank(d));
    list
}

/// The Problems panel: every problem, cause first (see [`cause_rank`]); once a file does not
/// load, the rest folded under it as possible follow-ons; a click opens a problem's place.
pub(crate) fn show(app: &mut EditorApp, ui: &mut Ui) {
    if app.loaded.diagnostics.is_empty() {
        ui.label("No problems.");
        return;
    }
    ui.label("Click a problem to open its place. Causes come first: a file that does not load, then what the checks found.");
    let mut open = None;
    let list = in_cause_order(&app.loaded.diagnostics);
    // Once a file does not load, what else is reported may follow from it: folded.
    let causes = list
        .iter()
        .take_while(|(_, d)| keeps_from_loading(d))
        .count();
    let sources = &app.loaded.sources;
    let show = |ui: &mut Ui, items: &[(usize, &sandtable_engine::diag::Diagnostic)]| {
        let mut clicked = None;
        for (i, d) in items {
            let color = match d.severity {
                Severity::Error => Color32::RED,
                Severity::Warning => Color32::from_rgb(200, 140, 0),
            };
            let line = sources.render_line(d);
            if ui
                .add(
                    egui::Label::new(RichText::new(line).color(color).monospace())
                        .sense(egui::Sense::click()),
                )
                .clicked()
            {
                clicked = Some(*i);
            }
            for hint in &d.hints {
                ui.label(RichText::new(format!("    hint: {hint}")).weak());
            }
        }
        clicked
    };
    ScrollArea::vertical().show(ui, |ui| {
        if causes == 0 {
            open = show(ui, &list);
            return;
        }
        open = show(ui, &list[..causes]);
        if list.len() > causes {
            egui::CollapsingHeader::new(format!(
                "{} more problems, which may follow from the file that does not load",
                list.len() - causes
            ))
            .id_salt("follow-on problems")
            .show(ui, |ui| {
                if let Some(i) = show(ui, &list[causes..]) {
                    open = Some(i);
                }
            });
        }
    });
    if let Some(i) = open {
        app.open_problem(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_engine::diag::{FileId, Span};

    #[test]
    fn problems_are_listed_cause_first_syntax_then_schema_then_checks_then_warnings() {
        let at = Span::new(FileId(0), 0, 1);
        let list = [
            Diagnostic::warning("W0001", at, "a warning"),
            Diagnostic::error("E0201", at, "an unknown reference"),
            Diagnostic::error("E0401", at, "an example diverged"),
            Diagnostic::error("E0100", at, "off the schema"),
            Diagnostic::error("E0001", at, "a missing comma"),
        ];
        let order: Vec<&str> = in_cause_order(&list).iter().map(|(_, d)| d.code).collect();
        assert_eq!(order, ["E0001", "E0100", "E0201", "E0401", "W0001"]);
        // The indexes stay those of the loader's list (a click opens the right place).
        assert_eq!(in_cause_order(&list)[0].0, 4);
    }
}
