//! Self-play: determinism whatever the threads, the agents, the statistics of `sandtable sim`,
//! paired A/B comparisons and sweeps.

use std::sync::atomic::AtomicBool;

use sandtable_engine::agent::AgentKind;
use sandtable_engine::load::load_dir;
use sandtable_engine::sim::{self, Plan};

use crate::b2b;
use crate::cli::sandtable;

/// `sandtable sim` on the bundled campaign with `games` games, these arguments and `--json`.
fn sim_json(games: &str, extra: &[&str]) -> serde_json::Value {
    json(&campaign(games, &[&["--json"], extra].concat()))
}

/// The arguments of `sandtable sim` on the bundled campaign with `games` games and these.
fn campaign<'a>(games: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "sim",
        "content/barbarossa-to-berlin",
        "--scenario",
        "campaign",
        "--games",
        games,
    ];
    args.extend(extra);
    args
}

fn json(args: &[&str]) -> serde_json::Value {
    let out = sandtable(args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the report is JSON")
}

#[test]
fn a_batch_gives_the_same_games_on_one_thread_and_on_three() {
    let content = load_dir(b2b()).content;
    let mut plan = Plan::new("campaign", 6, 42);
    plan.max_actions = 300;
    let cancel = AtomicBool::new(false);
    let one = sim::run(&content, &plan, sim::Part::ALL, 1, &|_| {}, &cancel).unwrap();
    let three = sim::run(&content, &plan, sim::Part::ALL, 3, &|_| {}, &cancel).unwrap();
    assert_eq!(one.len(), 6);
    assert_eq!(one, three);
    // Different games from different seeds.
    assert_ne!(one[0].seed, one[1].seed);
    assert!(one.iter().all(|g| g.error.is_none()), "{:?}", one[0].error);
}

#[test]
fn a_cancelled_batch_returns_no_games_and_no_error() {
    let content = load_dir(b2b()).content;
    let plan = Plan::new("campaign", 50, 1);
    let cancel = AtomicBool::new(true);
    assert!(
        sim::run(&content, &plan, sim::Part::ALL, 2, &|_| {}, &cancel)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn the_monte_carlo_agent_plays_legal_actions_and_is_deterministic() {
    let content = load_dir(b2b()).content;
    let mut plan = Plan::new("campaign", 1, 3);
    plan.max_actions = 60;
    plan.agents.insert(
        "axis".into(),
        AgentKind::MonteCarlo {
            playouts: 4,
            depth: 8,
        },
    );
    let cancel = AtomicBool::new(false);
    let a = sim::run(&content, &plan, sim::Part::ALL, 1, &|_| {}, &cancel).unwrap();
    let b = sim::run(&content, &plan, sim::Part::ALL, 1, &|_| {}, &cancel).unwrap();
    assert_eq!(a, b);
    assert!(a[0].error.is_none(), "{:?}", a[0].error);
    assert_eq!(a[0].actions, 60);
}

#[test]
fn agents_are_named_random_or_mc_with_playouts_and_depth() {
    assert_eq!("random".parse::<AgentKind>(), Ok(AgentKind::Random));
    assert_eq!(
        "mc:16:40".parse::<AgentKind>(),
        Ok(AgentKind::MonteCarlo {
            playouts: 16,
            depth: 40
        })
    );
    assert!("mc:0".parse::<AgentKind>().is_err());
    assert!("minimax".parse::<AgentKind>().is_err());
}

#[test]
fn sim_reports_win_rates_with_intervals_cards_tables_spaces_and_tracks() {
    let r = sim_json("8", &["--jobs", "2"]);
    assert_eq!(r["games"], 8);
    let sides = r["sides"].as_array().unwrap();
    assert_eq!(sides.len(), 2);
    let total: f64 = sides
        .iter()
        .map(|s| s["wins"]["rate"].as_f64().unwrap())
        .sum::<f64>()
        + r["undecided"]["rate"].as_f64().unwrap();
    assert!((total - 1.0).abs() < 1e-9);
    for s in sides {
        let w = &s["wins"];
        assert!(
            w["low"].as_f64() <= w["rate"].as_f64() && w["rate"].as_f64() <= w["high"].as_f64()
        );
    }
    let played: u64 = r["cards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| c["played"].as_object().unwrap().values())
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert!(played > 0, "cards were played");
    assert!(r["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["table"] == "lcu_fire" && t["rolls"].as_u64() > Some(0)));
    assert!(!r["spaces"].as_array().unwrap().is_empty());
    assert!(r["tracks"]["vp"].as_array().is_some_and(|v| !v.is_empty()));
    assert!(r["events_never_fired"].as_array().is_some());
    // The same seed gives the same report, whatever the threads.
    let again = sim_json("8", &["--jobs", "1"]);
    assert_eq!(r, again);
}

#[test]
fn a_paired_comparison_reports_a_shorter_game_as_a_significant_difference() {
    let r = sim_json("8", &["--set", "scenarios/campaign.ron:/last_turn=2"]);
    let length = &r["comparison"]["length"];
    assert!(length["b"].as_f64().unwrap() <= 2.0);
    assert!(length["difference"].as_f64().unwrap() < 0.0);
    assert!(length["high"].as_f64().unwrap() < 0.0, "{length}");
    assert_eq!(r["comparison"]["games"], 8);
    assert!(r["comparison"]["wins"]["axis"]["low"].is_number());
}

#[test]
fn a_sweep_reports_one_point_per_value() {
    let r = sim_json("4", &["--sweep", "scenarios/campaign.ron:/last_turn=1..3"]);
    let points = r["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    assert_eq!(points[2]["value"], 3);
    assert!(points[0]["mean_turn"].as_f64().unwrap() <= 1.0);
}

#[test]
fn sim_refuses_an_unknown_scenario_agent_or_place_with_a_message() {
    for (args, says) in [
        (vec!["--scenario", "nope"], "no scenario `nope`"),
        (
            vec!["--scenario", "campaign", "--agent", "smart"],
            "no agent `smart`",
        ),
        (
            vec![
                "--scenario",
                "campaign",
                "--set",
                "cards/axis.ron:/cards/nope/values/ops=3",
            ],
            "nothing at `nope`",
        ),
    ] {
        let mut all = vec!["sim", "content/barbarossa-to-berlin", "--games", "1"];
        all.extend(args);
        let out = sandtable(&all);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{err}");
    }
}

/// A game that ends with no winner (Berlin 1945's end-of-game roll can leave the camps level)
/// is undecided, so the win rates and the undecided add up to every game of the batch.
#[test]
fn win_rates_and_undecided_games_add_up_to_the_whole_batch() {
    let r = json(&[
        "sim",
        "content/berlin-1945",
        "--scenario",
        "standard",
        "--games",
        "60",
        "--json",
    ]);
    let count = |v: &serde_json::Value| v["count"].as_u64().unwrap();
    let sides: u64 = r["sides"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| count(&s["wins"]))
        .sum();
    assert_eq!(sides + count(&r["undecided"]), 60, "{r}");
}

/// `sandtable sim` on the bundled campaign, short games, with these arguments: its stdout.
fn short_batch(extra: &[&str]) -> Vec<u8> {
    let args = campaign(
        "5",
        &[&["--seed", "9", "--max-actions", "400"], extra].concat(),
    );
    let out = sandtable(&args);
    assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    out.stdout
}

#[test]
fn shards_played_apart_merge_to_the_single_runs_report_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    // Shard 1/2 (games 1 and 3) as a task of a Slurm job array runs it, shard 0/2 (games 0, 2
    // and 4) as a pod of a Kubernetes Indexed Job does: through deploy/shard.sh.
    let shard = |env: &[(&str, &str)]| {
        let out = std::process::Command::new("sh")
            .arg("deploy/shard.sh")
            .current_dir(crate::root())
            .envs(env.iter().copied())
            .env("SANDTABLE", env!("CARGO_BIN_EXE_sandtable"))
            .env("GAME", "content/barbarossa-to-berlin")
            .env("SCENARIO", "campaign")
            .env("GAMES", "5")
            .env("SEED", "9")
            .env("SIM_ARGS", "--max-actions 400")
            .env("JOBS", "1")
            .env("OUT", dir.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", crate::cli::stderr(&out));
    };
    shard(&[
        ("SLURM_ARRAY_TASK_ID", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "2"),
    ]);
    shard(&[("JOB_COMPLETION_INDEX", "0"), ("SHARDS", "2")]);
    let files: Vec<String> = ["shard-1.json", "shard-0.json"]
        .iter()
        .map(|f| dir.path().join(f).display().to_string())
        .collect();
    let merge = |json: bool| {
        let mut args = vec!["sim", "merge", &files[0], &files[1]];
        if json {
            args.push("--json");
        }
        let out = sandtable(&args);
        assert!(out.status.success(), "{}", crate::cli::stderr(&out));
        out.stdout
    };
    let single_text = short_batch(&["--jobs", "2"]);
    assert!(String::from_utf8_lossy(&single_text).contains("5 games from seed 9"));
    assert_eq!(
        String::from_utf8_lossy(&merge(false)),
        String::from_utf8_lossy(&single_text)
    );
    assert_eq!(
        String::from_utf8_lossy(&merge(true)),
        String::from_utf8_lossy(&short_batch(&["--json"]))
    );
    // A shard missing, or given twice, is refused with the shard named.
    let out = sandtable(&["sim", "merge", &files[0]]);
    assert_eq!(out.status.code(), Some(1));
    assert!(crate::cli::stderr(&out).contains("missing shard(s): 0/2"));
    let out = sandtable(&["sim", "merge", &files[0], &files[0], &files[1]]);
    assert!(crate::cli::stderr(&out).contains("shard 1/2 again"));
}

/// An agent's pick by place (`rules::act_choice`, which self-play and the Monte Carlo
/// playouts use) plays as the same action looked for among the options (`act_unguarded`):
/// a B2B campaign's first 300 actions give the same state both ways, and an option the
/// prompt does not have is an illegal action that leaves the state as it was.
#[test]
fn an_option_taken_by_its_place_plays_as_the_same_action_taken_by_its_words() {
    use sandtable_engine::agent::RandomAgent;
    use sandtable_engine::rules::{self, Choice, Rules};
    let content = load_dir(b2b()).content;
    let rules = Rules::new(&content, "campaign").unwrap();
    let mut by_place = rules::start(&rules, 11, &[], &[]).unwrap();
    let mut by_words = by_place.clone();
    let (mut a, mut b) = (RandomAgent::new(5), RandomAgent::new(5));
    let mut places = 0;
    for _ in 0..300 {
        let (Some(p), Some(q)) = (&by_place.flow.prompt, &by_words.flow.prompt) else {
            break;
        };
        let choice = a.pick(p);
        places += usize::from(matches!(choice, Choice::Option(_)));
        let action = b.act(q);
        rules::act_choice(&rules, &mut by_place, &choice).unwrap();
        rules::act_unguarded(&rules, &mut by_words, &action).unwrap();
        assert_eq!(by_place, by_words, "after `{action}`");
    }
    assert!(places > 200, "{places} options taken by place");
    let before = by_place.clone();
    let options = before.flow.prompt.as_ref().unwrap().actions.len();
    let err = rules::act_choice(&rules, &mut by_place, &Choice::Option(options)).unwrap_err();
    assert!(err.message.contains("is not legal now"), "{}", err.message);
    assert_eq!(by_place, before);
}
