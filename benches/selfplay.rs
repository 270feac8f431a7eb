//! Random self-play of Barbarossa to Berlin's full campaign on one core: the games per second
//! behind `sandtable sim` and the editor's Balance panel.
//!
//! Run: `cargo bench --bench selfplay`. The budget (DESIGN.md) is at least 200 games per
//! second per core. One iteration plays the same ten games (seeds of batch 1), so the figure is
//! the time of ten games; games per second is 10 / that time.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::rules::Rules;
use sandtable_engine::sim::{play_game, Plan};

fn bench_selfplay(c: &mut Criterion) {
    let content = sandtable_engine::load::load_dir(common::b2b()).content;
    let rules = Rules::new(&content, "campaign").expect("the campaign starts");
    let plan = Plan::new("campaign", 10, 1);
    let actions: usize = (0..10).map(|i| play_game(&rules, &plan, i).actions).sum();
    eprintln!("ten random campaigns: {actions} actions");
    let mut group = c.benchmark_group("selfplay");
    group.sample_size(20);
    group.bench_function("ten_random_campaigns_b2b_one_core", |b| {
        b.iter(|| {
            (0..10)
                .map(|i| play_game(&rules, &plan, i).actions)
                .sum::<usize>()
        })
    });
    group.finish();
}

/// Random self-play of SPI Barbarossa's Barbarossa Game (a hex-and-counter game whose every
/// step asks the movement hooks): two games, with the hooks' remembered results and without.
fn bench_selfplay_hex(c: &mut Criterion) {
    let content =
        sandtable_engine::load::load_dir(common::root().join("content/spi-barbarossa")).content;
    let rules = Rules::new(&content, "barbarossa").expect("the Barbarossa Game starts");
    let plan = Plan::new("barbarossa", 2, 1);
    let two = || {
        (0..2)
            .map(|i| play_game(&rules, &plan, i).actions)
            .sum::<usize>()
    };
    eprintln!("two random Barbarossa Games (SPI): {} actions", two());
    let mut group = c.benchmark_group("selfplay_spi");
    group.sample_size(10);
    group.bench_function("two_random_barbarossa_games_spi_one_core", |b| b.iter(two));
    group.bench_function("the_same_without_remembered_hook_results", |b| {
        b.iter(|| sandtable_engine::rules::hook_memo::without_table(two))
    });
    group.finish();
}

criterion_group!(benches, bench_selfplay, bench_selfplay_hex);
criterion_main!(benches);
