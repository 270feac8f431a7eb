//! A file saved while a playtest runs: the folder is loaded and checked again, and the game's
//! log is replayed on the new content in step with the old, up to the first difference. This is
//! the engine's part of "file saved to playtest updated" (DESIGN.md: under 150 ms); the editor
//! adds its watcher's debounce (`Watch::DEBOUNCE`).
//!
//! Run: `cargo bench --bench reload`. The game is the first 300 and the first 1,000 actions of
//! a random campaign; the saved change is a card's text (no difference in play), the worst case
//! for the replay, which then runs to the end of the log.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::load::load_dir;
use sandtable_engine::playtest::{Playtest, Reload};

/// A playtest of the first `length` actions of a random campaign.
fn playtest(length: usize) -> Playtest {
    let loaded = load_dir(common::b2b());
    let (seed, log) = common::random_log(&loaded.content, length);
    let campaign = common::campaign(seed);
    let (p, err) = Playtest::replayed(loaded.content, loaded.sources, campaign, &log, "bench")
        .expect("replays");
    assert!(err.is_none());
    p
}

fn bench_reload(c: &mut Criterion) {
    let root = common::b2b();
    let dir = std::env::temp_dir().join(format!("sandtable-reload-bench-{}", std::process::id()));
    copy_tree(&root, &dir);
    let cards = dir.join("cards/axis.ron");
    let text = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(&cards, text.replacen("text: \"", "text: \"(edited) ", 1)).unwrap();
    let mut group = c.benchmark_group("reload");
    group.sample_size(20);
    for length in [300, 1000] {
        let base = playtest(length);
        group.bench_function(format!("save_to_replayed_{length}_actions_b2b"), |b| {
            b.iter_batched(
                || base.clone(),
                |mut p| {
                    let r = p.reload(load_dir(&dir));
                    assert!(matches!(r, Reload::Replayed(None)), "no difference");
                    p
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    sandtable_engine::format::copy_folder(from, to).unwrap();
}

criterion_group!(benches, bench_reload);
criterion_main!(benches);
