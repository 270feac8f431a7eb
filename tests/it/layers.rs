//! The engine's layers (ARCHITECTURE.md): the content layer (model, loading, checking, the
//! checked content, tables, the map's geometry) imports nothing of play (rules, state,
//! sessions, self-play, the interpreter).

use std::path::Path;

/// The content layer's files, and the folders of their submodules.
const CONTENT_LAYER: &[&str] = &[
    "model.rs",
    "model",
    "content.rs",
    "content",
    "check.rs",
    "check",
    "load.rs",
    "schema.rs",
    "diag.rs",
    "ron_syntax.rs",
    "ron_syntax",
    "tables.rs",
    "hex.rs",
    "format.rs",
];

/// What the content layer may not name.
const PLAY: &[&str] = &[
    "crate::rules",
    "crate::state",
    "crate::session",
    "crate::playtest",
    "crate::sim",
    "crate::agent",
    "script::eval",
];

fn rust_files(path: &Path, out: &mut Vec<std::path::PathBuf>) {
    if path.is_dir() {
        for entry in std::fs::read_dir(path).unwrap() {
            rust_files(&entry.unwrap().path(), out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_path_buf());
    }
}

#[test]
fn the_content_layer_does_not_import_the_rules_or_the_state() {
    let src = crate::root().join("engine/src");
    let mut files = Vec::new();
    for part in CONTENT_LAYER {
        rust_files(&src.join(part), &mut files);
    }
    assert!(files.len() >= 20, "{files:?}");
    let mut found = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            if let Some(name) = PLAY.iter().find(|p| code.contains(*p)) {
                found.push(format!("{}:{}: {name}", f.display(), n + 1));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
