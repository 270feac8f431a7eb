//! `sandtable sim`: self-play batches, their statistics, A/B comparisons and sweeps.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use sandtable_engine::agent::AgentKind;
use sandtable_engine::content::Content;
use sandtable_engine::load::{load, ContentSource, DirSource, Loaded};
use sandtable_engine::sim::{self, Comparison, GameRecord, Plan, Rate, Report};
use sandtable_engine::variant::{self, Setting, Sweep};

use crate::commands::check_setup;
use crate::out::{errln, game_folder, outln, problem, usage, PROBLEMS};

/// What `sandtable sim` was asked.
#[derive(clap::Args)]
pub struct SimArgs {
    pub dir: PathBuf,
    #[arg(long)]
    pub scenario: String,
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

/// Prints a progress bar on a terminal's stderr, at most ten times a second.
struct Progress {
    total: usize,
    label: String,
    on: bool,
    last: Mutex<Option<Instant>>,
    start: Instant,
}

impl Progress {
    fn new(total: usize, label: &str) -> Progress {
        Progress {
            total,
            label: label.to_string(),
            on: std::io::stderr().is_terminal(),
            last: Mutex::new(None),
            start: Instant::now(),
        }
    }

    fn tick(&self, done: usize) {
        if !self.on {
            return;
        }
        let Ok(mut last) = self.last.lock() else {
            return;
        };
        let now = Instant::now();
        if done < self.total && last.is_some_and(|l| now.duration_since(l).as_millis() < 100) {
            return;
        }
        *last = Some(now);
        let width = 30;
        let filled = width * done / self.total.max(1);
        let rate = done as f64 / self.start.elapsed().as_secs_f64().max(1e-9);
        let _ = write!(
            std::io::stderr(),
            "\r{} [{}{}] {done}/{} games, {rate:.1}/s ",
            self.label,
            "#".repeat(filled),
            ".".repeat(width - filled),
            self.total
        );
        if done >= self.total {
            errln!();
        }
        let _ = std::io::stderr().flush();
    }
}

fn batch(
    content: &Content,
    plan: &Plan,
    jobs: usize,
    label: &str,
) -> Result<(Vec<GameRecord>, f64), String> {
    let progress = Progress::new(plan.games as usize, label);
    let start = Instant::now();
    let cancel = AtomicBool::new(false);
    let games = sim::run(content, plan, jobs, &|d| progress.tick(d), &cancel).map_err(|e| e.0)?;
    let rate = games.len() as f64 / start.elapsed().as_secs_f64().max(1e-9);
    Ok((games, rate))
}

pub fn run(args: SimArgs) -> ExitCode {
    if let Err(code) = game_folder(&args.dir) {
        return code;
    }
    if args.games == 0 {
        return usage("--games must be 1 or more");
    }
    let source = DirSource::new(&args.dir);
    let base = match checked(load(&source), &args.dir.display().to_string()) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if let Err(code) = check_setup(&base, &args.scenario, &args.options, &[]) {
        return code;
    }
    let sides: Vec<String> = base
        .game
        .as_ref()
        .map(|g| g.sides.iter().map(|s| s.id.clone()).collect())
        .unwrap_or_default();
    let mut plan = Plan::new(&args.scenario, args.games, args.seed);
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
                if let Err(code) = check_setup(&c, &args.scenario, &args.options, &[]) {
                    return code;
                }
                Some((dir.display().to_string(), c, plan.clone()))
            }
            Err(code) => return code,
        }
    } else if let Some(options) = &args.variant_options {
        // `--variant-options ""` is no optional rule at all.
        let options: Vec<String> = options.iter().filter(|o| !o.is_empty()).cloned().collect();
        if let Err(code) = check_setup(&base, &args.scenario, &options, &[]) {
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
    let a_report = sim::report(&base, &plan, &a_games);
    let Some((b_name, b_content, b_plan)) = variant else {
        if args.json {
            outln!(
                "{}",
                serde_json::to_string_pretty(&a_report).unwrap_or_default()
            );
        } else {
            print_report(&base, &a_report);
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
    let b_report = sim::report(&b_content, &b_plan, &b_games);
    let a_name = args.dir.display().to_string();
    let comparison = sim::compare(&a_name, &b_name, &sides, &a_games, &b_games);
    if args.json {
        let out = serde_json::json!({"a": a_report, "b": b_report, "comparison": comparison});
        outln!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    } else {
        outln!("A: {a_name}");
        print_report(&base, &a_report);
        outln!("\nB: {b_name}");
        print_report(&b_content, &b_report);
        outln!();
        print_comparison(&base, &comparison);
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
        let report = sim::report(&content, plan, &games);
        points.push((v, report));
        names.get_or_insert_with(|| content.names().clone());
    }
    let names = names.unwrap_or_default();
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
                format!("{} wins", names.or_id(&s.side))
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

fn mean_turn(r: &Report) -> f64 {
    let n: u32 = r.victory_turns.values().sum();
    r.victory_turns
        .iter()
        .map(|(t, k)| (*t * *k) as f64)
        .sum::<f64>()
        / n.max(1) as f64
}

fn rate(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:.1}%, {:.1}%]",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0
    )
}

fn print_report(content: &Content, r: &Report) {
    let title = content.game.as_ref().map_or("", |g| g.title.as_str());
    let names = content.names();
    let options = if r.options.is_empty() {
        String::new()
    } else {
        format!(", options {}", r.options.join(", "))
    };
    outln!(
        "{title}: scenario {}{options}, {} games from seed {}",
        r.scenario,
        r.games,
        r.seed
    );
    outln!("Wins (95% interval):");
    for s in &r.sides {
        outln!(
            "  {:<14} {}  ({})",
            truncate(&names.or_id(&s.side), 14),
            rate(&s.wins),
            s.agent
        );
    }
    outln!("  {:<14} {}", "undecided", rate(&r.undecided));
    if r.errors > 0 {
        outln!(
            "  {} games stopped on a failed action; the first: {}",
            r.errors,
            r.first_error.as_deref().unwrap_or("")
        );
    }
    outln!("Mean actions per game: {:.0}", r.mean_actions);
    let kinds: Vec<String> = r
        .victory_kinds
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    outln!("How games were won: {}", kinds.join(", "));
    let turns: Vec<String> = r
        .victory_turns
        .iter()
        .map(|(t, n)| format!("{t}: {n}"))
        .collect();
    outln!("Turn games ended on: {}", turns.join(", "));
    for (t, series) in &r.tracks {
        let points: Vec<String> = series
            .iter()
            .map(|p| format!("{}: {:.1} [{}, {}]", p.turn, p.mean, p.min, p.max))
            .collect();
        outln!(
            "{} at the end of each turn (mean [min, max]): {}",
            names.or_id(t),
            points.join(", ")
        );
    }
    if r.cards.iter().any(|c| !c.played.is_empty()) {
        outln!(
            "Cards (times played as event / ops / sr / rp / combat; wins when played as event):"
        );
    }
    for c in &r.cards {
        if c.played.is_empty() {
            continue;
        }
        let way = |w: sim::Way| c.played.get(&w).copied().unwrap_or(0);
        let wins = if c.wins_as_event.of > 0 {
            rate(&c.wins_as_event)
        } else {
            "-".to_string()
        };
        outln!(
            "  {:<26} {:>5} {:>5} {:>5} {:>5} {:>5}  {wins}",
            truncate(&c.title, 26),
            way(sim::Way::Event),
            way(sim::Way::Ops),
            way(sim::Way::Sr),
            way(sim::Way::Rp),
            way(sim::Way::Combat),
        );
    }
    if !r.events_never_fired.is_empty() {
        outln!(
            "Events never carried out ({}): {}",
            r.events_never_fired.len(),
            r.events_never_fired.join(", ")
        );
    }
    outln!("Tables (results by column):");
    for t in &r.tables {
        let results: Vec<String> = t
            .results
            .iter()
            .map(|(res, n)| format!("{res} {:.0}%", 100.0 * *n as f64 / t.rolls.max(1) as f64))
            .collect();
        let column = if t.column.is_empty() {
            String::new()
        } else {
            format!(" column {}", t.column)
        };
        outln!(
            "  {}{column} ({} rolls): {}",
            names.or_id(&t.table),
            t.rolls,
            results.join(", ")
        );
    }
    outln!("Spaces that changed hands most (changes, share of games):");
    for s in r.spaces.iter().take(15) {
        outln!(
            "  {:<22} {:>6}  {:.0}%",
            truncate(&s.name, 22),
            s.changes,
            100.0 * s.games as f64 / r.games.max(1) as f64
        );
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

fn print_comparison(content: &Content, c: &Comparison) {
    let names = content.names();
    outln!(
        "B against A on the same {} seeds (difference B − A, 95% interval; * where it leaves out 0):",
        c.games
    );
    let line = |name: &str, d: &sim::Difference, pct: bool| {
        let k = if pct { 100.0 } else { 1.0 };
        let unit = if pct { " pts" } else { "" };
        outln!(
            "  {name:<24} A {:.2}  B {:.2}  difference {:+.2}{unit} [{:+.2}, {:+.2}]{}",
            d.a * k,
            d.b * k,
            d.difference * k,
            d.low * k,
            d.high * k,
            if d.significant() { " *" } else { "" }
        );
    };
    for (side, d) in &c.wins {
        line(&format!("{} win rate %", names.or_id(side)), d, true);
    }
    line("end turn", &c.length, false);
    for (t, d) in &c.tracks {
        line(&format!("final {}", names.or_id(t)), d, false);
    }
}
