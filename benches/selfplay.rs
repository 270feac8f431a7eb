//! Self-play on one core, for each bundled game: random games per second and actions per
//! second (criterion's throughput, in actions), one decision of the Monte Carlo agent, and a
//! batch on one thread and on two (how `sandtable sim --jobs` scales).
//!
//! Run: `cargo bench --bench selfplay`. The budgets are in README's performance table. Each
//! iteration plays the same games (seeds of batch 1), so a figure is the time of those games.

mod common;

use std::sync::atomic::AtomicBool;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use sandtable_engine::agent::AgentKind;
use sandtable_engine::content::Content;
use sandtable_engine::rules::{self, Rules};
use sandtable_engine::sim::{play_game, Plan};

/// Random games `0..games` of a scenario on one core, with the actions as throughput.
fn random_games(c: &mut Criterion, game: &str, scenario: &str, games: u32, samples: usize) {
    let content = common::load(game);
    let rules = Rules::new(&content, scenario).expect("the scenario starts");
    let plan = Plan::new(scenario, games, 1);
    let play = || {
        (0..games)
            .map(|i| play_game(&rules, &plan, i).actions)
            .sum::<usize>()
    };
    let actions = play();
    eprintln!("{game} {scenario}: {games} random games, {actions} actions");
    let mut group = c.benchmark_group(format!("random_{}", game.replace('-', "_")));
    group.sample_size(samples);
    group.throughput(Throughput::Elements(actions as u64));
    group.bench_function(format!("{games}_games_of_{scenario}_one_core"), |b| {
        b.iter(play)
    });
    group.finish();
}

fn bench_random(c: &mut Criterion) {
    random_games(c, "barbarossa-to-berlin", "campaign", 10, 20);
    random_games(c, "berlin-1945", "standard", 10, 10);
    random_games(c, "spi-barbarossa", "barbarossa", 1, 10);
}

/// SPI Barbarossa's Barbarossa Game without the hooks' remembered results: what the table
/// saves a hex game, whose every step asks the movement hooks.
fn bench_without_memo(c: &mut Criterion) {
    let content = common::load("spi-barbarossa");
    let rules = Rules::new(&content, "barbarossa").expect("the Barbarossa Game starts");
    let plan = Plan::new("barbarossa", 1, 1);
    let one = || play_game(&rules, &plan, 0).actions;
    let mut group = c.benchmark_group("random_spi_barbarossa");
    group.sample_size(10);
    group.bench_function("1_games_without_remembered_hook_results", |b| {
        b.iter(|| sandtable_engine::rules::hook_memo::without_table(one))
    });
    group.finish();
}

/// One decision of the default Monte Carlo agent (`mc`: 32 playouts of at most 60 actions for
/// each of at most 12 actions) at the campaign's first prompt.
fn bench_mc_decision(c: &mut Criterion) {
    let content = common::load("barbarossa-to-berlin");
    let rules = Rules::new(&content, "campaign").expect("the campaign starts");
    let state = rules::start(&rules, 1, &[], &[]).expect("the campaign starts");
    let kind: AgentKind = "mc".parse().expect("an agent");
    let mut group = c.benchmark_group("mc");
    group.sample_size(10);
    group.bench_function("one_decision_b2b_campaign_opening_mc_32_60", |b| {
        b.iter(|| kind.make(7).choose(&rules, &state))
    });
    group.finish();
}

/// The same batch of random campaigns on one thread and on two.
fn bench_jobs(c: &mut Criterion) {
    let content: Content = common::load("barbarossa-to-berlin");
    let plan = Plan::new("campaign", 40, 1);
    let cancel = AtomicBool::new(false);
    let mut group = c.benchmark_group("sim_jobs");
    group.sample_size(10);
    for jobs in [1, 2] {
        group.bench_function(format!("40_random_campaigns_{jobs}_thread"), |b| {
            b.iter(|| common::sim_run(&content, &plan, jobs, &cancel).len())
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_random,
    bench_without_memo,
    bench_mc_decision,
    bench_jobs
);
criterion_main!(benches);
