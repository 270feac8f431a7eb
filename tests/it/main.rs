//! Sandtable's integration tests: one binary, a module per area.

mod b2b_content;
mod berlin;
mod berlin_play;
mod cards;
mod cards_allied;
mod cards_axis;
mod cli;
mod docs;
mod golden;
mod graph_model;
mod play;
mod robustness;
mod script_builtins;
mod sim;

use std::path::{Path, PathBuf};

/// The repository root (tests run with it as the working directory).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn b2b() -> PathBuf {
    root().join("content/barbarossa-to-berlin")
}

/// Copies a folder tree (content only) into `to`.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
