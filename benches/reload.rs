//! A file saved while a playtest runs: the folder is loaded and checked again, and the game's
//! log is replayed on the new content in step with the old, up to the first difference. This is
//! the engine's part of "file saved to playtest updated" (DESIGN.md: under 150 ms); the editor
//! adds its watcher's debounce (`Watch::DEBOUNCE`).
//!
//! Run: `cargo bench --bench reload`. The game is the first 300 and the first 1,000 actions of
//! a random campaign; the saved change is a card's text (no difference in play), the worst case
//! for the replay, which then runs to the end of the log.

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::agent::RandomAgent;
use sandtable_engine::load::load_dir;
use sandtable_engine::session::{Playtest, Reload, Setup};

/// As in the `sandtable` and `sandtable-editor` binaries.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn setup(seed: u64) -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
    }
}

/// A playtest of `length` actions (of the first random campaign that lasts that long).
fn playtest(dir: &std::path::Path, length: usize) -> Playtest {
    for seed in 1.. {
        let mut p = Playtest::new(load_dir(dir).content, setup(seed)).expect("starts");
        let mut agent = RandomAgent::new(seed);
        while let Some(prompt) = p.session.prompt().cloned() {
            p.apply(&agent.act(&prompt)).expect("a legal action");
            if p.session.log().len() == length {
                return p;
            }
        }
    }
    unreachable!("some random campaign lasts that long")
}

fn bench_reload(c: &mut Criterion) {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/barbarossa-to-berlin");
    let dir = std::env::temp_dir().join(format!("sandtable-reload-bench-{}", std::process::id()));
    copy_tree(&root, &dir);
    let cards = dir.join("cards/axis.ron");
    let text = std::fs::read_to_string(&cards).unwrap();
    std::fs::write(&cards, text.replacen("text: \"", "text: \"(edited) ", 1)).unwrap();
    let mut group = c.benchmark_group("reload");
    group.sample_size(20);
    for length in [300, 1000] {
        let base = playtest(&root, length);
        group.bench_function(format!("save_to_replayed_{length}_actions_b2b"), |b| {
            b.iter_batched(
                || Playtest {
                    content: base.content.clone(),
                    session: base.session.clone(),
                },
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
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

criterion_group!(benches, bench_reload);
criterion_main!(benches);
