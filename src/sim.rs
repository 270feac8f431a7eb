//! `sandtable sim`: self-play batches, their statistics, A/B comparisons and sweeps.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use sandtable_engine::agent::AgentKind;
use sandtable_engine::content::Content;
use sandtable_engine::load::{load, ContentSource, DirSource, Loaded};
use sandtable_engine::sim::{self, Context, GameRecord, Part, Plan, Shard};
use sandtable_engine::variant::{self, Setting, Sweep};

use crate::commands::check_setup;
use crate::out::{errln, game_folder, outln, problem, read_input_up_to, usage, PROBLEMS};

mod print;
use print::{mean_turn, print_comparison, print_report, rate};

/// What `sandtable sim` was asked.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct SimArgs {
    #[command(subcommand)]
    pub command: Option<SimCommand>,
    #[arg(required = true)]
    pub dir: Option<PathBuf>,
    #[arg(long, required = true)]
    pub scenario: Option<String>,
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Optional rules to switch on, separated by commas.
    #[arg(long, value_delimiter = ',')]
    pub options: Vec<String>,
    /// The agents: `random` or `mc[:PLAYOUTS[:DEPTH]]` for every side, or SIDE=AGENT for one
    /// (repeatable).
    #[arg(long = "agent")]
    pub agents: Vec<String>,
    /// Threads (default: one per core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Play only part K of N of the batch (games K, K+N, K+2N …, K from 0) and print the
    /// part's games as JSON, for `sandtable sim merge`.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Stop a game after this many actions and count it undecided.
    #[arg(long, default_value_t = 20_000)]
    pub max_actions: usize,
    /// Variant B: another game folder, played on the same seeds.
    #[arg(long)]
    pub variant: Option<PathBuf>,
    /// Variant B: the same content with these optional rules (commas; empty for none).
    #[arg(long, value_delimiter = ',')]
    pub variant_options: Option<Vec<String>>,
    /// Variant B: the same content with FILE:POINTER=VALUE set (repeatable).
    #[arg(long)]
    pub set: Vec<String>,
    /// Sweep FILE:POINTER=FROM..TO[:STEP]: a batch at each value, reported as a curve.
    #[arg(long)]
    pub sweep: Option<String>,
}

#[derive(clap::Subcommand)]
pub enum SimCommand {
    /// Put the parts of a batch played with --shard back together, and report them as the
    /// single run would (the same text, or the same JSON with --json).
    Merge {
        /// The parts' files, every part of the batch once, in any order.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// `random` for every side, or `SIDE=KIND` for one.
fn agents(plan: &mut Plan, specs: &[String], sides: &[String]) -> Result<(), String> {
    for spec in specs {
        match spec.split_once('=') {
            Some((side, kind)) => {
                if !sides.iter().any(|s| s == side) {
                    return Err(format!(
                        "no side `{side}`: the sides are {}",
                        sides.join(", ")
                    ));
                }
                plan.agents.insert(side.to_string(), kind.parse()?);
            }
            None => plan.default_agent = spec.parse::<AgentKind>()?,
        }
    }
    Ok(())
}

fn checked(loaded: Loaded, what: &str) -> Result<Content, ExitCode> {
    if loaded.has_errors() {
        for d in loaded.errors().take(10) {
            errln!("{}\n", loaded.sources.render(d));
        }
        errln!("{what}: the content does not check");
        return Err(ExitCode::from(PROBLEMS));
    }
    Ok(loaded.content)
}

/// A progress bar on stderr (drawn only on a terminal).
fn progress_bar(total: usize, label: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{prefix} [{bar:30}] {pos}/{len} games, {rate} games/s, {eta} left ",
    )
    .map(|s| {
        s.progress_chars("#>.").with_key(
            "rate",
            |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}", state.per_sec());
            },
        )
    });
    if let Ok(style) = style {
        bar.set_style(style);
    }
    bar.set_prefix(label.to_string());
    bar
}

fn batch(
    content: &Content,
    plan: &Plan,
    jobs: usize,
    label: &str,
) -> Result<(Vec<GameRecord>, f64), String> {
    batch_part(content, plan, Part::ALL, jobs, label)
}

fn batch_part(
    content: &Content,
    plan: &Plan,
    part: Part,
    jobs: usize,
    label: &str,
) -> Result<(Vec<GameRecord>, f64), String> {
    let bar = progress_bar(part.games(plan.games).count(), label);
    let start = Instant::now();
    let cancel = AtomicBool::new(false);
    let games = sim::run(
        content,
        plan,
        part,
        jobs,
        &|d| bar.set_position(d as u64),
        &cancel,
    )
    .map_err(|e| e.0)?;
    bar.finish_and_clear();
    let rate = games.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
    Ok((games, rate))
}

pub fn run(args: SimArgs) -> ExitCode {
    if let Some(SimCommand::Merge { files, json }) = &args.command {
        return merge(files, *json);
    }
    let (Some(dir), Some(scenario)) = (&args.dir, &args.scenario) else {
        return usage("sim needs a game folder and --scenario");
    };
    if let Err(code) = game_folder(dir) {
        return code;
    }
    if args.games == 0 {
        return usage("--games must be 1 or more");
    }
    let source = DirSource::new(dir);
    let base = match checked(load(&source), &dir.display().to_string()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Err(code) = check_setup(&base, scenario, &args.options, &[]) {
        return code;
    }
    let sides: Vec<String> = base
        .game
        .as_ref()
        .map(|g| g.sides.iter().map(|s| s.id.to_string()).collect())
        .unwrap_or_default();
    let mut plan = Plan::new(scenario, args.games, args.seed);
    plan.options = args.options.clone();
    plan.max_actions = args.max_actions;
    if let Err(e) = agents(&mut plan, &args.agents, &sides) {
        return usage(e);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));

    // The variant B, if any: another folder, other options, or settings.
    let settings: Vec<Setting> = match args.set.iter().map(|s| Setting::parse(s)).collect() {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    if let Some(shard) = &args.shard {
        let part = match Part::parse(shard) {
            Ok(p) => p,
            Err(e) => return usage(e),
        };
        if args.sweep.is_some() || args.variant.is_some() || args.variant_options.is_some() {
            return usage(
                "--shard plays one batch: not with --sweep, --variant or --variant-options",
            );
        }
        if !settings.is_empty() {
            return usage("--shard plays one batch: not with --set");
        }
        return run_shard(&base, &plan, part, jobs);
    }
    if let Some(sweep) = &args.sweep {
        let sweep = match Sweep::parse(sweep) {
            Ok(s) => s,
            Err(e) => return usage(e),
        };
        return run_sweep(&args, &source, &plan, &sweep, jobs);
    }
    let variant: Option<(String, Content, Plan)> = if let Some(dir) = &args.variant {
        if let Err(code) = game_folder(dir) {
            return code;
        }
        match checked(load(&DirSource::new(dir)), &dir.display().to_string()) {
            Ok(c) => {
                if let Err(code) = check_setup(&c, scenario, &args.options, &[]) {
                    return code;
                }
                Some((dir.display().to_string(), c, plan.clone()))
            }
            Err(code) => return code,
        }
    } else if let Some(options) = &args.variant_options {
        // `--variant-options ""` is no optional rule at all.
        let options: Vec<String> = options.iter().filter(|o| !o.is_empty()).cloned().collect();
        if let Err(code) = check_setup(&base, scenario, &options, &[]) {
            return code;
        }
        let mut b = plan.clone();
        b.options.clone_from(&options);
        Some((format!("options [{}]", options.join(", ")), base.clone(), b))
    } else if !settings.is_empty() {
        let mem = match variant::apply(&source, &settings) {
            Ok(m) => m,
            Err(e) => return usage(e),
        };
        let names: Vec<String> = settings.iter().map(|s| s.to_string()).collect();
        match checked(load(&mem), "the variant") {
            Ok(c) => Some((names.join(", "), c, plan.clone())),
            Err(code) => return code,
        }
    } else {
        None
    };

    let (a_games, a_rate) = match batch(&base, &plan, jobs, "A") {
        Ok(x) => x,
        Err(e) => return problem(e),
    };
    let a_context = Context::of(&base);
    let a_report = sim::report(&a_context, &plan, &a_games);
    let Some((b_name, b_content, b_plan)) = variant else {
        if args.json {
            outln!(
                "{}",
                serde_json::to_string_pretty(&a_report).unwrap_or_default()
            );
        } else {
            print_report(&a_context, &a_report);
        }
        errln!(
            "{:.1} games per second on {jobs} thread(s) (the games do not depend on the threads)",
            a_rate
        );
        return ExitCode::SUCCESS;
    };
    let (b_games, _) = match batch(&b_content, &b_plan, jobs, "B") {
        Ok(x) => x,
        Err(e) => return problem(e),
    };
    let b_context = Context::of(&b_content);
    let b_report = sim::report(&b_context, &b_plan, &b_games);
    let a_name = dir.display().to_string();
    let comparison = sim::compare(&a_name, &b_name, &sides, &a_games, &b_games);
    if args.json {
        let out = serde_json::json!({"a": a_report, "b": b_report, "comparison": comparison});
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        outln!("A: {a_name}");
        print_report(&a_context, &a_report);
        outln!("\nB: {b_name}");
        print_report(&b_context, &b_report);
        outln!();
        print_comparison(&a_context, &comparison);
    }
    ExitCode::SUCCESS
}

fn run_sweep(
    args: &SimArgs,
    source: &DirSource,
    plan: &Plan,
    sweep: &Sweep,
    jobs: usize,
) -> ExitCode {
    let mut points = Vec::new();
    let mut names = None;
    let from = source
        .read(&sweep.file)
        .ok()
        .and_then(|t| variant::get_in_text(&t, &sweep.pointer).ok());
    for &v in &sweep.values {
        let mem = match variant::apply(source, &[sweep.setting(v)]) {
            Ok(m) => m,
            Err(e) => return usage(e),
        };
        let content = match checked(load(&mem), &format!("{}:{}={v}", sweep.file, sweep.pointer)) {
            Ok(c) => c,
            Err(code) => return code,
        };
        let (games, _) = match batch(&content, plan, jobs, &format!("{v:>4}")) {
            Ok(x) => x,
            Err(e) => return problem(e),
        };
        let context = Context::of(&content);
        let report = sim::report(&context, plan, &games);
        points.push((v, report));
        names.get_or_insert(context);
    }
    let Some(names) = names else {
        return usage("the sweep has no values");
    };
    if args.json {
        let out = serde_json::json!({
            "file": sweep.file,
            "pointer": sweep.pointer,
            "value_in_content": from,
            "points": points.iter().map(|(v, r)| serde_json::json!({
                "value": v,
                "sides": r.sides,
                "undecided": r.undecided,
                "mean_turn": mean_turn(r),
            })).collect::<Vec<_>>(),
        });
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
        return ExitCode::SUCCESS;
    }
    outln!(
        "Sweep of {}:{} (now {}), {} games each, seed {}",
        sweep.file,
        sweep.pointer,
        from.map_or("unset".to_string(), |v| v.to_string()),
        plan.games,
        plan.seed
    );
    if let Some((_, first)) = points.first() {
        let mut head = format!("{:>7}", "value");
        for s in &first.sides {
            head.push_str(&format!(
                "  {:<30}",
                format!("{} wins", names.name(&s.side))
            ));
        }
        outln!("{head}  mean end turn");
    }
    for (v, r) in &points {
        let mut line = format!("{v:>7}");
        for s in &r.sides {
            line.push_str(&format!("  {:<30}", rate(&s.wins)));
        }
        outln!("{line}  {:.1}", mean_turn(r));
    }
    ExitCode::SUCCESS
}

/// `sim --shard K/N`: plays the part's games and prints them, with the plan and what the report
/// needs of the content, as JSON.
fn run_shard(content: &Content, plan: &Plan, part: Part, jobs: usize) -> ExitCode {
    let (games, rate) = match batch_part(content, plan, part, jobs, &format!("shard {part}")) {
        Ok(x) => x,
        Err(e) => return problem(e),
    };
    let played = games.len();
    let shard = Shard::new(part, plan, Context::of(content), games);
    match serde_json::to_string(&shard) {
        Ok(text) => outln!("{text}"),
        Err(e) => return problem(format_args!("cannot write the shard: {e}")),
    }
    errln!("shard {part}: {played} games, {rate:.1} games per second on {jobs} thread(s)");
    ExitCode::SUCCESS
}

/// The longest shard read: about 300,000 games of a card-driven campaign.
const SHARD_BYTES: u64 = 1 << 30;

/// `sim merge FILES...`: the report of the batch the shards are parts of.
fn merge(files: &[PathBuf], json: bool) -> ExitCode {
    let mut shards = Vec::new();
    for file in files {
        let name = file.display().to_string();
        let text = match read_input_up_to(file, SHARD_BYTES) {
            Ok(t) => t,
            Err(code) => return code,
        };
        match serde_json::from_str::<Shard>(&text) {
            Ok(s) => shards.push((name, s)),
            Err(e) => {
                return problem(format_args!(
                    "{name}:{}:{}: not a shard of `sandtable sim --shard`: {e}",
                    e.line(),
                    e.column()
                ))
            }
        }
    }
    let (plan, context, games) = match sim::merge(shards) {
        Ok(x) => x,
        Err(e) => return problem(e),
    };
    let report = sim::report(&context, &plan, &games);
    if json {
        outln!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    } else {
        print_report(&context, &report);
    }
    ExitCode::SUCCESS
}
