//! `sandtable examples`: runs a game's rulebook examples (`examples/*.ron`) through the
//! prompts and says which pass and where the others part from the print.

use std::path::Path;
use std::process::ExitCode;

use sandtable_engine::examples::{self, Outcome};
use sandtable_engine::load::load_dir;

use crate::commands::print_diagnostics;
use crate::out::{errln, game_folder, outln, PROBLEMS};

pub fn run(dir: &Path, json: bool, only: Option<&str>) -> ExitCode {
    if let Err(code) = game_folder(dir) {
        return code;
    }
    let loaded = load_dir(dir);
    if loaded.has_errors() {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
        errln!(
            "{}: the content has errors; run `sandtable validate {}`",
            dir.display(),
            dir.display()
        );
        return ExitCode::from(PROBLEMS);
    }
    let content = &loaded.content;
    let chosen: Vec<_> = content
        .examples
        .iter()
        .filter(|e| only.is_none_or(|o| e.data.id == o || e.data.rule == o))
        .collect();
    let outcomes: Vec<Outcome> = chosen.iter().map(|e| examples::run(content, e)).collect();
    let failed = outcomes.iter().filter(|o| !o.passed()).count();
    if json {
        let rows: Vec<serde_json::Value> = chosen
            .iter()
            .zip(&outcomes)
            .map(|(e, o)| {
                let problem = o
                    .diagnostic()
                    .map(|d| loaded.sources.to_json(std::slice::from_ref(d))[0].clone());
                serde_json::json!({
                    "id": e.data.id,
                    "rule": e.data.rule,
                    "title": e.data.title,
                    "passed": o.passed(),
                    "problem": problem,
                })
            })
            .collect();
        outln!(
            "{}",
            serde_json::to_string_pretty(&rows).unwrap_or_default()
        );
    } else {
        for (e, o) in chosen.iter().zip(&outcomes) {
            let mark = if o.passed() { "passed" } else { "FAILED" };
            outln!("{mark}  {:<8} {}: {}", e.data.rule, e.data.id, e.data.title);
            if let Some(d) = o.diagnostic() {
                errln!("{}\n", loaded.sources.render(d));
            }
        }
        outln!(
            "{}: {} of {} examples passed",
            dir.display(),
            outcomes.len() - failed,
            outcomes.len()
        );
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(PROBLEMS)
    }
}
