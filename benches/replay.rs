//! Replay a 1,000-action log of Barbarossa to Berlin's campaign, as a hot reload or a loaded
//! game does, and take one action with the undo checkpoints kept.
//!
//! Run: `cargo bench --bench replay`. The budget (DESIGN.md) is under 50 ms for 1,000 actions.

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::agent::RandomAgent;
use sandtable_engine::session::{Session, Setup};

fn setup() -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed: 7,
        dice: Vec::new(),
    }
}

fn bench_replay(c: &mut Criterion) {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/barbarossa-to-berlin");
    let content = sandtable_engine::load::load_dir(&root).content;
    // A log of 1,000 legal actions, played by the random agent.
    let mut live = Session::new(&content, setup()).expect("the campaign starts");
    let mut agent = RandomAgent::new(7);
    while live.log().len() < 1000 {
        let prompt = live
            .prompt()
            .cloned()
            .expect("the game lasts 1,000 actions");
        let action = agent.act(&prompt);
        live.apply(&content, &action).expect("a legal action");
    }
    let log = live.log().to_vec();
    c.bench_function("replay_1000_actions_b2b", |b| {
        b.iter(|| {
            let (session, err) = Session::replay(&content, setup(), &log).expect("replays");
            assert!(err.is_none());
            session
        })
    });
}

criterion_group!(benches, bench_replay);
criterion_main!(benches);
