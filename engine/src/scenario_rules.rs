//! A scenario's rules: the values of `game.ron` a scenario sets for itself (`rules` in its
//! file), applied on top of `game.ron` whenever that scenario is played.
//!
//! Each setting is checked where it is written (its pointer names a place of `game.ron`, its
//! value is of the type that place holds); then the game with the settings applied is loaded
//! and checked like any folder (its scripts parsed again, its references resolved), and kept
//! in [`Content::scenario_rules`], which [`crate::rules::Rules::new`] plays that scenario on.
//! The trade-off: such a scenario costs a second load of the folder, and only such a scenario
//! does (a folder of n of them loads n + 1 times).
//!
//! Invariant: a scenario has an entry in `scenario_rules` only when the content and the game
//! with its rules both check. In the entry no scenario has rules (so it has no entries of its
//! own): the other scenarios stay, for the flags their optional rules declare, and their own
//! problems with this scenario's rules are not reported.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::Value;

use crate::content::Content;
use crate::diag::{Diagnostic, Place};
use crate::format::canonical;
use crate::load::{Files, Loaded, MemSource, Parsed};
use crate::model::{GameFile, ScenarioFile};
use crate::schema::{self, FileKind};

/// Most problems of the game with a scenario's rules reported at the scenario.
const MAX_REPORTED: usize = 5;

/// Checks every scenario's rule settings and builds the content each such scenario is played
/// on. When the content already has errors the settings are checked but nothing is built
/// (nothing would be played on it).
pub(crate) fn build(root: &str, files: &Files, loaded: &mut Loaded) {
    if files.scenarios.iter().all(|f| f.data.rules.is_empty()) {
        return;
    }
    let clean = !loaded.has_errors();
    let Some(game) = &files.game else { return };
    let Ok(base) = serde_json::to_value(&game.data) else {
        return;
    };
    let texts: BTreeMap<String, String> = loaded
        .content
        .files
        .iter()
        .map(|f| (f.relative.clone(), loaded.sources.get(f.id).text.clone()))
        .collect();
    for f in files.scenarios.iter().filter(|f| !f.data.rules.is_empty()) {
        let mut problems = Vec::new();
        let overlaid = overlay(f, &base, &mut problems).filter(|_| clean);
        let built = overlaid.and_then(|game| {
            let (content, errors) = play_content(root, &texts, loaded, &files.scenarios, f, &game);
            for d in errors.iter().take(MAX_REPORTED) {
                problems.push(
                    Diagnostic::error(
                        "E0210",
                        f.span("/rules"),
                        format!(
                            "with this scenario's rules the game does not check: {}",
                            d.message
                        ),
                    )
                    .with_hint("the problem is in game.ron with the rules applied"),
                );
            }
            errors.is_empty().then_some(content)
        });
        loaded.diagnostics.extend(problems);
        if let Some(content) = built {
            loaded
                .content
                .scenario_rules
                .insert(f.data.id.clone(), Arc::new(content));
        }
    }
}

/// `game.ron`'s JSON with a scenario's settings applied in order, read back into its type;
/// none if a setting does not fit (each problem reported at its setting).
fn overlay(
    f: &Parsed<ScenarioFile>,
    base: &Value,
    problems: &mut Vec<Diagnostic>,
) -> Option<GameFile> {
    let mut json = base.clone();
    let mut fits = true;
    for (i, r) in f.data.rules.iter().enumerate() {
        let at = format!("/rules/{i}");
        let mut next = json.clone();
        let placed = if r.pointer.starts_with('/') {
            crate::variant::set_in_json(&mut next, &r.pointer, r.value.clone())
        } else {
            Err("a pointer starts with `/`".to_string())
        };
        if let Err(e) = placed {
            fits = false;
            problems.push(
                Diagnostic::error(
                    "E0210",
                    f.span(&format!("{at}/pointer")),
                    format!("`{}` names no place in game.ron: {e}", r.pointer),
                )
                .with_hint("write a JSON pointer into game.ron: /play/max_retreat"),
            );
            continue;
        }
        let unfit = match serde_json::from_value::<GameFile>(next.clone()) {
            Err(e) => Some(e.to_string()),
            Ok(_) => schema::validate(FileKind::Game, &next)
                .into_iter()
                .next()
                .map(|v| v.message),
        };
        if let Some(message) = unfit {
            fits = false;
            let message: String = message.chars().take(300).collect();
            let (field, message) = if message.starts_with("unknown field") {
                (
                    "pointer",
                    format!("`{}` names no place in game.ron: {message}", r.pointer),
                )
            } else {
                (
                    "value",
                    format!("the value does not fit `{}`: {message}", r.pointer),
                )
            };
            problems.push(Diagnostic::error(
                "E0210",
                f.span(&format!("{at}/{field}")),
                message,
            ));
            continue;
        }
        json = next;
    }
    if !fits {
        return None;
    }
    match serde_json::from_value::<GameFile>(json) {
        Ok(game) => Some(game),
        Err(e) => {
            problems.push(Diagnostic::error(
                "E0210",
                f.span("/rules"),
                format!("with this scenario's rules game.ron does not read: {e}"),
            ));
            None
        }
    }
}

/// The folder with `game.ron` replaced by the overlaid game and only this scenario (without
/// its rules), loaded and checked: the content and its errors.
fn play_content(
    root: &str,
    texts: &BTreeMap<String, String>,
    loaded: &Loaded,
    scenarios: &[Parsed<ScenarioFile>],
    f: &Parsed<ScenarioFile>,
    game: &GameFile,
) -> (Content, Vec<Diagnostic>) {
    let relative = loaded
        .content
        .files
        .iter()
        .find(|c| c.id == f.file)
        .map(|c| c.relative.clone());
    let scenario = ScenarioFile {
        rules: Vec::new(),
        ..f.data.clone()
    };
    let (Some(relative), Ok(game_text), Ok(scenario_text)) =
        (relative, canonical(game), canonical(&scenario))
    else {
        let d = Diagnostic::error(
            "E0210",
            f.span("/rules"),
            "the game with this scenario's rules cannot be written out",
        );
        return (Content::default(), vec![d]);
    };
    let mut files = texts.clone();
    // The other scenarios stay (their optional rules declare flags the game's scripts read),
    // without their rules; their own problems with these rules are not this scenario's.
    for other in scenarios.iter().filter(|o| o.file != f.file) {
        let path = loaded.content.files.iter().find(|c| c.id == other.file);
        let text = canonical(&ScenarioFile {
            rules: Vec::new(),
            ..other.data.clone()
        });
        if let (Some(path), Ok(text)) = (path, text) {
            files.insert(path.relative.clone(), text);
        }
    }
    files.insert("game.ron".into(), game_text);
    files.insert(relative.clone(), scenario_text);
    let nested = crate::load::load(&MemSource {
        name: root.to_string(),
        files,
    });
    let elsewhere = |d: &&Diagnostic| {
        nested.content.files.iter().any(|c| {
            matches!(d.place, Place::Span(s) if s.file == c.id)
                && c.kind == FileKind::Scenario
                && c.relative != relative
        })
    };
    let errors = nested.errors().filter(|d| !elsewhere(d)).cloned().collect();
    (nested.content, errors)
}
