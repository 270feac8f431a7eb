//! The `sandtable` command line: check, format and describe game content.
//!
//! A thin shell over the engine: it parses arguments, calls the engine, renders diagnostics and
//! chooses the exit code (0 success, 1 the content has problems, 2 a usage or I/O error).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

mod sim;

/// Self-play allocates and frees many small strings (ids, actions): mimalloc does that faster
/// than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use sandtable_engine::diag::{Diagnostic, Sources};
use sandtable_engine::format::{format_text, write_atomic};
use sandtable_engine::load::{load_dir, ContentSource, DirSource};
use sandtable_engine::schema::{self, FileKind};
use sandtable_engine::session::{state_json, Session, Setup};

#[derive(Parser)]
#[command(
    name = "sandtable",
    version,
    about = "A workbench for designing and playtesting board wargames"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check a game folder: syntax, schema, references, map graph, tables, setups.
    ///
    /// Prints each problem as `path:line:col: error[CODE]: message` on stderr, with the source
    /// line and hints; exits 0 when the content checks, 1 when it has errors.
    Validate {
        /// The game folder (for example content/barbarossa-to-berlin).
        dir: PathBuf,
        /// Print the diagnostics as a JSON array on stdout instead.
        #[arg(long)]
        json: bool,
    },
    /// Rewrite a game folder's files in the canonical layout.
    ///
    /// With --check, rewrite nothing: list the files that are not canonical and exit 1 if any.
    Fmt {
        dir: PathBuf,
        #[arg(long)]
        check: bool,
    },
    /// The exact distribution of a table's results over the dice.
    ///
    /// The column comes from --attacker (a strength band), --attacker and --defender (odds,
    /// rounded in the defender's favour) or --column (a named column); --shift moves it, and
    /// --drm modifies every roll (clamped to the table).
    Odds {
        dir: PathBuf,
        #[arg(long)]
        table: String,
        #[arg(long, allow_negative_numbers = true)]
        attacker: Option<i32>,
        #[arg(long)]
        defender: Option<u32>,
        #[arg(long)]
        column: Option<String>,
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        drm: i32,
        #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
        shift: i32,
        /// Print the distribution as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Play a scenario: replay actions, then print the state and/or the pending prompt.
    ///
    /// Actions are read one per line, in the text form the prompt prints (blank lines and lines
    /// starting with `#` are skipped). Die results given with --dice are used first, then the
    /// seeded dice. An illegal action is reported with its line number and the legal
    /// alternatives, and the exit code is 1. With neither --state nor --prompt, the prompt is
    /// printed as text.
    Play {
        dir: PathBuf,
        #[arg(long)]
        scenario: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Optional rules to switch on, separated by commas.
        #[arg(long, value_delimiter = ',')]
        options: Vec<String>,
        /// A file of actions, one per line.
        #[arg(long)]
        actions: Option<PathBuf>,
        /// Die results to use first, separated by commas (for example 3,5,1).
        #[arg(long, value_delimiter = ',')]
        dice: Vec<i64>,
        /// Print the state (`json`).
        #[arg(long, value_parser = ["json"])]
        state: Option<String>,
        /// Print the pending prompt (`json`).
        #[arg(long, value_parser = ["json"])]
        prompt: Option<String>,
        /// Also write the game (setup, actions, content fingerprint) to this RON file.
        #[arg(long)]
        save: Option<PathBuf>,
    },
    /// Self-play: many games between agents, with their statistics; two variants compared on
    /// the same seeds; or one number swept over a range.
    ///
    /// Game i of a batch depends on --seed and i alone, so the results are the same whatever
    /// --jobs is. A variant B is another folder (--variant), the same content with other
    /// optional rules (--variant-options), or the same content with values changed (--set
    /// FILE:POINTER=VALUE, repeatable). A place is a file and a JSON pointer into it whose steps
    /// into lists may name an element by id: cards/axis.ron:/cards/taifun/values/ops.
    Sim(sim::SimArgs),
    /// Regenerate the JSON Schemas of the content file kinds from the Rust types.
    ///
    /// With --check, write nothing: exit 1 if a committed schema differs from the generated one.
    Schema {
        #[arg(long)]
        check: bool,
        /// Where the schemas live.
        #[arg(long, default_value = "schemas")]
        dir: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Validate { dir, json } => validate(&dir, json),
        Command::Fmt { dir, check } => fmt(&dir, check),
        Command::Schema { check, dir } => schema_cmd(&dir, check),
        Command::Sim(args) => sim::run(args),
        Command::Play {
            dir,
            scenario,
            seed,
            options,
            actions,
            dice,
            state,
            prompt,
            save,
        } => play(
            &dir,
            Setup {
                scenario,
                options,
                seed,
                dice,
            },
            actions.as_deref(),
            PlayOutput {
                state: state.is_some(),
                prompt: prompt.is_some(),
                save,
            },
        ),
        Command::Odds {
            dir,
            table,
            attacker,
            defender,
            column,
            drm,
            shift,
            json,
        } => odds(
            &dir,
            &table,
            attacker,
            defender,
            column.as_deref(),
            drm,
            shift,
            json,
        ),
    }
}

fn print_diagnostics(sources: &Sources, diags: &[Diagnostic]) {
    for d in diags {
        eprintln!("{}\n", sources.render(d));
    }
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

fn validate(dir: &Path, json: bool) -> ExitCode {
    if !dir.is_dir() {
        eprintln!("error: `{}` is not a folder", dir.display());
        return ExitCode::from(2);
    }
    let loaded = load_dir(dir);
    let errors = loaded.errors().count();
    let warnings = loaded.diagnostics.len() - errors;
    if json {
        let out = loaded.sources.to_json(&loaded.diagnostics);
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
        let c = &loaded.content;
        if errors == 0 {
            eprintln!(
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
            eprintln!(
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
        ExitCode::FAILURE
    }
}

fn fmt(dir: &Path, check: bool) -> ExitCode {
    let source = DirSource::new(dir);
    let files = match source.list() {
        Ok(files) => files,
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", dir.display());
            return ExitCode::from(2);
        }
    };
    let mut sources = Sources::default();
    let mut failed = false;
    let mut changed = Vec::new();
    for relative in files {
        let Some(kind) = FileKind::of_path(&relative) else {
            continue;
        };
        let path = dir.join(&relative);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                failed = true;
                continue;
            }
        };
        let id = sources.add(path.display().to_string(), text.clone());
        match format_text(kind, id, &text) {
            Err(diags) => {
                print_diagnostics(&sources, &diags);
                failed = true;
            }
            Ok(canonical) if canonical != text => {
                if check {
                    println!("{}", path.display());
                } else if let Err(e) = write_atomic(&path, &canonical) {
                    eprintln!("error: cannot write `{}`: {e}", path.display());
                    failed = true;
                    continue;
                }
                changed.push(path);
            }
            Ok(_) => {}
        }
    }
    if check && !changed.is_empty() {
        eprintln!(
            "{} files are not in the canonical layout; run `sandtable fmt {}`",
            changed.len(),
            dir.display()
        );
        return ExitCode::FAILURE;
    }
    if !check {
        eprintln!("formatted {} files", changed.len());
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Loads a folder that must check, printing its problems when it does not.
fn load_checked(dir: &Path) -> Option<sandtable_engine::load::Loaded> {
    let loaded = load_dir(dir);
    if loaded.has_errors() {
        print_diagnostics(&loaded.sources, &loaded.diagnostics);
        eprintln!("{}: the content does not check", dir.display());
        return None;
    }
    Some(loaded)
}

#[allow(clippy::too_many_arguments)]
fn odds(
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
    let Some(loaded) = load_checked(dir) else {
        return ExitCode::FAILURE;
    };
    let content = &loaded.content;
    let Some(table) = content.table(table_id) else {
        let ids: Vec<&str> = content.tables.iter().map(|t| t.id.as_str()).collect();
        eprintln!(
            "error: no table `{table_id}`; the tables are: {}",
            ids.join(", ")
        );
        return ExitCode::from(2);
    };
    let input = match (&table.columns, attacker, defender, column) {
        (Columns::Single, ..) => ColumnInput::Single,
        (Columns::Named(_), _, _, Some(name)) => ColumnInput::Name(name),
        (Columns::Bands(_), Some(a), _, _) => ColumnInput::Strength(a),
        (Columns::Odds(_), Some(a), Some(d), _) => ColumnInput::Odds {
            attacker: a.max(0) as u32,
            defender: d,
        },
        (columns, ..) => {
            let needs = match columns {
                Columns::Named(_) => "--column <name>",
                Columns::Bands(_) => "--attacker <strength>",
                _ => "--attacker <n> --defender <n>",
            };
            eprintln!("error: table `{table_id}` needs {needs}");
            return ExitCode::from(2);
        }
    };
    let faces = content.game.as_ref().map_or(6, |g| g.dice.faces);
    let dist = match table.distribution(input, shift, drm, faces) {
        Ok(dist) => dist,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
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
        println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        println!(
            "{} ({}), column {label}, drm {drm:+}, shift {shift:+}",
            table.name, table.id
        );
        for (cell, ways) in &dist.outcomes {
            println!(
                "  {cell:<12} {ways:>4}/{:<4} {:>6.2}%",
                dist.total,
                100.0 * *ways as f64 / dist.total as f64
            );
        }
        if let Some(mean) = dist.mean() {
            println!("  mean {mean:.3}");
        }
    }
    ExitCode::SUCCESS
}

fn schema_cmd(dir: &Path, check: bool) -> ExitCode {
    let mut stale = Vec::new();
    for kind in FileKind::ALL {
        let path = dir.join(kind.file_name());
        let text = schema::generate_text(kind);
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        if current == text {
            continue;
        }
        if check {
            stale.push(path);
        } else {
            if let Err(e) = std::fs::create_dir_all(dir).and_then(|_| write_atomic(&path, &text)) {
                eprintln!("error: cannot write `{}`: {e}", path.display());
                return ExitCode::from(2);
            }
            eprintln!("wrote {}", path.display());
        }
    }
    if !stale.is_empty() {
        for path in &stale {
            eprintln!("{}: stale or missing", path.display());
        }
        eprintln!("run `sandtable schema` to regenerate the schemas");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

struct PlayOutput {
    state: bool,
    prompt: bool,
    save: Option<PathBuf>,
}

fn play(dir: &Path, setup: Setup, actions: Option<&Path>, out: PlayOutput) -> ExitCode {
    let loaded = load_dir(dir);
    if loaded.has_errors() {
        let errors: Vec<Diagnostic> = loaded.errors().cloned().collect();
        print_diagnostics(&loaded.sources, &errors);
        eprintln!(
            "{}: the content does not check; nothing was played",
            dir.display()
        );
        return ExitCode::from(1);
    }
    let content = loaded.content;
    let mut session = match Session::new(&content, setup) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    let mut failed = false;
    if let Some(path) = actions {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        for (n, line) in text.lines().enumerate() {
            let action = line.trim();
            if action.is_empty() || action.starts_with('#') {
                continue;
            }
            if let Err(e) = session.apply(&content, action) {
                eprintln!(
                    "{}:{}: error: illegal action `{action}`: {}",
                    path.display(),
                    n + 1,
                    e.message
                );
                if !e.legal.is_empty() {
                    eprintln!("  legal actions now:");
                    for l in &e.legal {
                        eprintln!("    {l}");
                    }
                }
                failed = true;
                break;
            }
        }
    }
    if let Some(path) = &out.save {
        let text = session.save(&content).to_ron();
        if let Err(e) = write_atomic(path, &text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
    }
    let st = session.state();
    if out.state {
        println!(
            "{}",
            serde_json::to_string_pretty(&state_json(&content, st)).unwrap_or_default()
        );
    }
    if out.prompt {
        println!(
            "{}",
            serde_json::to_string_pretty(&st.flow.prompt).unwrap_or_default()
        );
    }
    if !out.state && !out.prompt {
        match (&st.flow.prompt, &st.flow.result) {
            (Some(p), _) => {
                println!(
                    "turn {} round {}: {} decides: {}",
                    st.turn, st.round, p.side, p.question
                );
                match p.pick {
                    Some((min, max)) => {
                        println!("  choose {min} to {max} of: {}", p.options.join(" "))
                    }
                    None => p.options.iter().for_each(|o| println!("  {o}")),
                }
            }
            (None, Some(r)) => {
                println!("game over: {} wins ({}, turn {})", r.winner, r.how, r.turn)
            }
            (None, None) => println!("no decision is open"),
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
