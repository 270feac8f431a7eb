//! What the benchmarks of play share: the allocator of the binaries, the bundled campaign, and
//! a random game of a given length.

// Each benchmark uses a part of it.
#![allow(dead_code)]
use sandtable_engine::agent::RandomAgent;
use sandtable_engine::content::Content;
use sandtable_engine::session::{Session, Setup};

/// As in the `sandtable` and `sandtable-editor` binaries.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// The repository's root.
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A bundled game, loaded and checked.
pub fn load(game: &str) -> Content {
    let loaded = sandtable_engine::load::load_dir(root().join("content").join(game));
    assert!(!loaded.has_errors(), "{game} checks");
    loaded.content
}

/// A whole batch on `jobs` threads, as `sandtable sim` plays it.
pub fn sim_run(
    content: &Content,
    plan: &sandtable_engine::sim::Plan,
    jobs: usize,
    cancel: &std::sync::atomic::AtomicBool,
) -> Vec<sandtable_engine::sim::GameRecord> {
    use sandtable_engine::sim;
    sim::run(content, plan, sim::Part::ALL, jobs, &|_| {}, cancel).expect("the batch runs")
}

/// The bundled Barbarossa to Berlin folder.
pub fn b2b() -> std::path::PathBuf {
    root().join("content/barbarossa-to-berlin")
}

/// The campaign with a seed.
pub fn campaign(seed: u64) -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
        position: None,
    }
}

/// The first `length` actions of the first random campaign (by seed) that lasts that long.
pub fn random_log(content: &Content, length: usize) -> (u64, Vec<String>) {
    for seed in 1.. {
        let mut live = Session::new(content, campaign(seed)).expect("the campaign starts");
        let mut agent = RandomAgent::new(seed);
        while let Some(prompt) = live.prompt().cloned() {
            live.apply(content, &agent.act(&prompt).to_string())
                .expect("a legal action");
            if live.log().len() == length {
                return (seed, live.log().to_vec());
            }
        }
    }
    unreachable!("some random campaign lasts that long")
}
