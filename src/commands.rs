//! `sandtable validate`, `fmt`, `schema` and `odds`.

use std::path::Path;
use std::process::ExitCode;

use sandtable_engine::content::Content;
use sandtable_engine::diag::{Diagnostic, Sources};
use sandtable_engine::format::{format_text, write_atomic};
use sandtable_engine::load::MAX_FILE_BYTES;
use sandtable_engine::load::{load_dir, read_text, ContentSource, DirSource, ReadError};
use sandtable_engine::schema::{self, FileKind};

use crate::out::{errln, game_folder, outln, usage, PROBLEMS, USAGE};

pub fn print_diagnostics(sources: &Sources, diags: &[Diagnostic]) {
    for d in diags {
        errln!("{}\n", sources.render(d));
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

pub fn validate(dir: &Path, json: bool) -> ExitCode {
    if let Err(code) = game_folder(dir) {
        return code;
    }
    let loaded = load_dir(dir);
    let errors = loaded.errors().count();
    let warnings = loaded.diagnostics.len() - errors;
    if json {
        let out = loaded.sources.to_json(&loaded.diagnostics);
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
        let c = &loaded.content;
        if errors == 0 {
            errln!(
                "{}: ok ({} spaces, {} connections, {} counters, {} cards, {} tables, {} scenarios{})",
                dir.display(),
                c.graph.spaces.len(),
                c.graph.edges.len(),
                c.counters.len(),
                c.cards().count(),
                c.tables.len(),
                c.scenarios.len(),
                if warnings > 0 {
                    format!("; {}", plural(warnings, "warning"))
                } else {
                    String::new()
                }
            );
        } else {
            errln!(
                "{}: {}, {}",
                dir.display(),
                plural(errors, "error"),
                plural(warnings, "warning")
            );
        }
    }
    if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(PROBLEMS)
    }
}

pub fn fmt(dir: &Path, check: bool) -> ExitCode {
    if let Err(code) = game_folder(dir) {
        return code;
    }
    let source = DirSource::new(dir);
    let files = match source.list() {
        Ok(files) => files,
        Err(e) => return usage(format_args!("cannot read `{}`: {e}", dir.display())),
    };
    let mut sources = Sources::default();
    // A file that does not parse (1); a file that cannot be read or written (2).
    let (mut problems, mut io_failed) = (false, false);
    let mut changed = Vec::new();
    for relative in files {
        let Some(kind) = FileKind::of_path(&relative) else {
            continue;
        };
        let path = dir.join(&relative);
        let text = match read_text(&path, MAX_FILE_BYTES) {
            Ok(text) => text,
            Err(e @ ReadError::NotText { line, column, .. }) => {
                errln!("{}:{line}:{column}: error: {e}", path.display());
                problems = true;
                continue;
            }
            // What the folder holds is wrong, as `validate` reports it (E0005, E0002).
            Err(e @ (ReadError::NotAFile | ReadError::TooLarge(_))) => {
                errln!("{}: error: {e}", path.display());
                problems = true;
                continue;
            }
            Err(e) => {
                errln!("error: cannot read `{}`: {e}", path.display());
                io_failed = true;
                continue;
            }
        };
        let id = sources.add(path.display().to_string(), text.clone());
        match format_text(kind, id, &text) {
            Err(diags) => {
                print_diagnostics(&sources, &diags);
                problems = true;
            }
            Ok(canonical) if canonical != text => {
                if check {
                    outln!("{}", path.display());
                } else if let Err(e) = write_atomic(&path, &canonical) {
                    errln!("error: cannot write `{}`: {e}", path.display());
                    io_failed = true;
                    continue;
                }
                changed.push(path);
            }
            Ok(_) => {}
        }
    }
    if check && !changed.is_empty() {
        errln!(
            "{} files are not in the canonical layout; run `sandtable fmt {}`",
            changed.len(),
            dir.display()
        );
        problems = true;
    }
    if !check {
        errln!("formatted {} files", changed.len());
    }
    if io_failed {
        ExitCode::from(USAGE)
    } else if problems {
        ExitCode::from(PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads a game folder that must check: a folder that is missing is exit code 2, content that
/// does not check is 1 (its errors are printed).
pub fn load_checked(dir: &Path, what: &str) -> Result<sandtable_engine::load::Loaded, ExitCode> {
    game_folder(dir)?;
    let loaded = load_dir(dir);
    if loaded.has_errors() {
        let errors: Vec<Diagnostic> = loaded.errors().cloned().collect();
        print_diagnostics(&loaded.sources, &errors);
        errln!("{}: the content does not check; {what}", dir.display());
        return Err(ExitCode::from(PROBLEMS));
    }
    Ok(loaded)
}

#[allow(clippy::too_many_arguments)]
pub fn odds(
    dir: &Path,
    table_id: &str,
    attacker: Option<i32>,
    defender: Option<u32>,
    column: Option<&str>,
    drm: i32,
    shift: i32,
    json: bool,
) -> ExitCode {
    use sandtable_engine::model::Columns;
    use sandtable_engine::tables::ColumnInput;
    let loaded = match load_checked(dir, "no table was read") {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let content = &loaded.content;
    let Some(table) = content.table(table_id) else {
        let ids: Vec<&str> = content.tables.iter().map(|t| t.id.as_str()).collect();
        return usage(format_args!(
            "no table `{table_id}`; the tables are: {}",
            ids.join(", ")
        ));
    };
    if attacker.is_some_and(|a| a < 0) {
        return usage("--attacker must be 0 or more: a strength is not negative");
    }
    if matches!(table.columns, Columns::Odds(_)) && (attacker == Some(0) || defender == Some(0)) {
        return usage(
            "--attacker and --defender must be 1 or more: odds need a strength on each side",
        );
    }
    let input = match (&table.columns, attacker, defender, column) {
        (Columns::Single, ..) => ColumnInput::Single,
        (Columns::Named(_), _, _, Some(name)) => ColumnInput::Name(name),
        (Columns::Bands(_), Some(a), _, _) => ColumnInput::Strength(a),
        (Columns::Odds(_), Some(a), Some(d), _) => ColumnInput::Odds {
            attacker: a.unsigned_abs(),
            defender: d,
        },
        (columns, ..) => {
            let needs = match columns {
                Columns::Named(_) => "--column <name>",
                Columns::Bands(_) => "--attacker <strength>",
                _ => "--attacker <n> --defender <n>",
            };
            return usage(format_args!("table `{table_id}` needs {needs}"));
        }
    };
    let faces = content.game.as_ref().map_or(6, |g| g.dice.faces);
    let dist = match table.distribution(input, shift, drm, faces) {
        Ok(dist) => dist,
        Err(e) => return usage(e),
    };
    let label = table.column_label(dist.column);
    if json {
        let outcomes: Vec<serde_json::Value> = dist
            .outcomes
            .iter()
            .map(|(cell, ways)| {
                serde_json::json!({
                    "result": serde_json::to_value(cell).unwrap_or_default(),
                    "ways": ways,
                    "probability": *ways as f64 / dist.total as f64,
                })
            })
            .collect();
        let out = serde_json::json!({
            "table": table.id,
            "column": label,
            "total": dist.total,
            "mean": dist.mean(),
            "outcomes": outcomes,
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        outln!(
            "{} ({}), column {label}, drm {drm:+}, shift {shift:+}",
            table.name,
            table.id
        );
        for (cell, ways) in &dist.outcomes {
            outln!(
                "  {cell:<12} {ways:>4}/{:<4} {:>6.2}%",
                dist.total,
                100.0 * *ways as f64 / dist.total as f64
            );
        }
        if let Some(mean) = dist.mean() {
            outln!("  mean {mean:.3}");
        }
    }
    ExitCode::SUCCESS
}

pub fn schema_cmd(dir: &Path, check: bool) -> ExitCode {
    let mut stale = Vec::new();
    for kind in FileKind::ALL {
        let path = dir.join(kind.file_name());
        let text = schema::generate_text(kind);
        let current = read_text(&path, MAX_FILE_BYTES).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path);
        } else {
            if let Err(e) = std::fs::create_dir_all(dir).and_then(|_| write_atomic(&path, &text)) {
                return usage(format_args!("cannot write `{}`: {e}", path.display()));
            }
            errln!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        for path in &stale {
            errln!("{}: stale or missing", path.display());
        }
        errln!("run `sandtable schema` to regenerate the schemas");
        return ExitCode::from(PROBLEMS);
    }
    ExitCode::SUCCESS
}

/// Checks what a command was asked to play against the content: an unknown scenario or optional
/// rule, or die results that are not faces of the game's die, are usage errors (exit code 2).
pub fn check_setup(
    content: &Content,
    scenario: &str,
    options: &[String],
    dice: &[i64],
) -> Result<(), ExitCode> {
    let Some(s) = content.scenario(scenario) else {
        let ids: Vec<&str> = content.scenarios.iter().map(|s| s.id.as_str()).collect();
        return Err(usage(format_args!(
            "no scenario `{scenario}`; the scenarios are: {}",
            ids.join(", ")
        )));
    };
    if let Some(o) = options
        .iter()
        .find(|o| !s.options.iter().any(|x| &x.id == *o))
    {
        let ids: Vec<&str> = s.options.iter().map(|o| o.id.as_str()).collect();
        return Err(usage(format_args!(
            "scenario `{scenario}` has no optional rule `{o}`; its optional rules are: {}",
            if ids.is_empty() {
                "none".to_string()
            } else {
                ids.join(", ")
            }
        )));
    }
    let faces = content.game.as_ref().map_or(6, |g| g.dice.faces);
    if let Some(d) = dice.iter().find(|&&d| d < 1 || d > i64::from(faces)) {
        return Err(usage(format_args!(
            "--dice: {d} is not a face of the game's die (1 to {faces})"
        )));
    }
    Ok(())
}
