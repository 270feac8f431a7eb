//! The `sandtable` command line: check, format and describe game content.
//!
//! A thin shell over the engine: it parses arguments, calls the engine, renders diagnostics and
//! chooses the exit code (0 success, 1 the content or the actions have problems, 2 a usage or
//! I/O error; see `out.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

mod commands;
mod examples;
mod out;
mod play;
mod sim;

/// Self-play allocates and frees many small strings (ids, actions): mimalloc does that faster
/// than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{Parser, Subcommand};
use commands::{fmt, odds, schema_cmd, validate};
use play::{play, PlayOutput};
use sandtable_engine::session::Setup;

#[derive(Parser)]
#[command(
    name = "sandtable",
    version,
    about = "A workbench for designing and playtesting board wargames",
    after_help = "Exit codes, for every command: 0 success; 1 the content or the actions have \
                  problems; 2 a usage or I/O error. A closed output pipe ends a command quietly \
                  with 0."
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
    /// printed as text, in words. What each action did (moves, combats with their odds and
    /// rolls, control, tracks) is told on stderr under its line.
    Play {
        dir: PathBuf,
        #[arg(long, required_unless_present = "example")]
        scenario: Option<String>,
        /// Start from a rulebook example's position (`examples/<id>.ron`: its scenario,
        /// options, seed and position) instead of a scenario's start.
        #[arg(long, conflicts_with = "scenario")]
        example: Option<String>,
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
        /// Say why this action is not legal after the actions (the decision open, what the
        /// legal actions go on with, and what the rules say about the units and spaces it
        /// names), instead of printing the prompt.
        #[arg(long, value_name = "ACTION")]
        why: Option<String>,
    },
    /// Self-play: many games between agents, with their statistics; two variants compared on
    /// the same seeds; or one number swept over a range.
    ///
    /// Game i of a batch depends on --seed and i alone, so the results are the same whatever
    /// --jobs is. A variant B is another folder (--variant), the same content with other
    /// optional rules (--variant-options), or the same content with values changed (--set
    /// FILE:POINTER=VALUE, repeatable). A place is a file and a JSON pointer into it whose steps
    /// into lists may name an element by id: cards/axis.ron:/cards/taifun/values/ops.
    ///
    /// A batch can be played in parts on many machines: --shard K/N plays games K, K+N, K+2N ...
    /// and prints them as JSON; `sandtable sim merge FILES...` reports the parts as one run
    /// would (deploy/ holds a Slurm job array and a Kubernetes Indexed Job).
    Sim(sim::SimArgs),
    /// Run a game's rulebook examples (`examples/*.ron`) through the prompts.
    ///
    /// Each example starts from its position, plays its actions and checks its expected
    /// outcomes; each is reported as passed or where it diverged (the step, what was expected,
    /// what play gave). Exits 1 if any failed or the content has errors.
    Examples {
        dir: PathBuf,
        /// Only the example with this id, or those of this rule.
        #[arg(long)]
        only: Option<String>,
        /// Print the outcomes as a JSON array on stdout instead.
        #[arg(long)]
        json: bool,
    },
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
        Command::Examples { dir, only, json } => examples::run(&dir, json, only.as_deref()),
        Command::Fmt { dir, check } => fmt(&dir, check),
        Command::Schema { check, dir } => schema_cmd(&dir, check),
        Command::Sim(args) => sim::run(args),
        Command::Play {
            dir,
            scenario,
            example,
            seed,
            options,
            actions,
            dice,
            state,
            prompt,
            save,
            why,
        } => play(
            &dir,
            Setup {
                scenario: scenario.unwrap_or_default(),
                options,
                seed,
                dice,
                position: None,
            },
            actions.as_deref(),
            PlayOutput {
                state: state.is_some(),
                prompt: prompt.is_some(),
                save,
                example,
                why,
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
