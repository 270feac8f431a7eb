//! Replay a 1,000-action log of Barbarossa to Berlin's campaign, as a hot reload or a loaded
//! game does, and take one action with the undo checkpoints kept.
//!
//! Run: `cargo bench --bench replay`. The budget (DESIGN.md) is under 50 ms for 1,000 actions.

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::session::Session;

fn bench_replay(c: &mut Criterion) {
    let content = sandtable_engine::load::load_dir(common::b2b()).content;
    let (seed, log) = common::random_log(&content, 1000);
    c.bench_function("replay_1000_actions_b2b", |b| {
        b.iter(|| {
            let (session, err) =
                Session::replay(&content, common::campaign(seed), &log).expect("replays");
            assert!(err.is_none());
            session
        })
    });
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
