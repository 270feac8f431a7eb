//! Replay a 1,000-action log of Barbarossa to Berlin's campaign, as a hot reload or a loaded
//! game does, and take one action with the undo checkpoints kept.
//!
//! Run: `cargo bench --bench replay`. The budget (DESIGN.md) is under 50 ms for 1,000 actions.

use criterion::{criterion_group, criterion_main, Criterion};

/// As in the `sandtable` and `sandtable-editor` binaries.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use sandtable_engine::agent::RandomAgent;
use sandtable_engine::session::{Session, Setup};

fn setup(seed: u64) -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
    }
}

/// The first 1,000 actions of the first random campaign (by seed) that lasts that long.
fn long_game(content: &sandtable_engine::content::Content) -> (u64, Vec<String>) {
    for seed in 1.. {
        let mut live = Session::new(content, setup(seed)).expect("the campaign starts");
        let mut agent = RandomAgent::new(seed);
        while let Some(prompt) = live.prompt().cloned() {
            live.apply(content, &agent.act(&prompt))
                .expect("a legal action");
            if live.log().len() == 1000 {
                return (seed, live.log().to_vec());
            }
        }
    }
    unreachable!("some random campaign lasts 1,000 actions")
}

fn bench_replay(c: &mut Criterion) {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/barbarossa-to-berlin");
    let content = sandtable_engine::load::load_dir(&root).content;
    let (seed, log) = long_game(&content);
    c.bench_function("replay_1000_actions_b2b", |b| {
        b.iter(|| {
            let (session, err) = Session::replay(&content, setup(seed), &log).expect("replays");
            assert!(err.is_none());
            session
        })
    });
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
