//! Load and check each bundled game's full content, from disk as `sandtable validate` does,
//! and from memory (the editor's edits, a variant).
//!
//! Run: `cargo bench --bench load`. The budget is in README's performance table.

use criterion::{criterion_group, criterion_main, Criterion};

mod common;
use sandtable_engine::load::{load, ContentSource, DirSource, MemSource};

const GAMES: [&str; 3] = ["barbarossa-to-berlin", "berlin-1945", "spi-barbarossa"];

fn folder(game: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("content")
        .join(game)
}

fn files(game: &str) -> MemSource {
    let source = DirSource::new(folder(game));
    let mut mem = MemSource {
        name: game.to_string(),
        ..MemSource::default()
    };
    for relative in source.list().expect("the bundled content is readable") {
        let text = source.read(&relative).expect("readable");
        mem.files.insert(relative, text);
    }
    mem
}

fn bench_load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load_and_check");
    for game in GAMES {
        let root = folder(game);
        group.bench_function(format!("{game}_from_disk"), |b| {
            b.iter(|| {
                let loaded = sandtable_engine::load::load_dir(&root);
                assert!(!loaded.has_errors());
                loaded
            })
        });
        let mem = files(game);
        group.bench_function(format!("{game}_in_memory"), |b| b.iter(|| load(&mem)));
    }
    group.finish();
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
