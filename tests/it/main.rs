//! Sandtable's integration tests: one binary, a module per area.

mod activation_hooks;
mod asker;
mod b2b_content;
mod b2b_rules;
mod berlin;
mod berlin_play;
mod berlin_rules;
mod branches;
mod cards;
mod cards_allied;
mod cards_axis;
mod cli;
mod cli_errors;
mod docs;
mod examples;
mod golden;
mod graph_model;
mod hardening_script;
mod hook_memo;
mod kept_moves;
mod layers;
mod play;
mod reload;
mod robustness;
mod rule_changes;
mod scenario_start;
mod schema_errors;
mod script_builtins;
mod sim;
mod spi_checks;
mod supply_flags;
mod supply_search;
mod telling;

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
    sandtable_engine::format::copy_folder(from, to).unwrap();
}
