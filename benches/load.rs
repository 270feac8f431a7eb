//! Load and check one game's full content, from disk, as `sandtable validate` does.
//!
//! Run: `cargo bench --bench load`. The budget (DESIGN.md) is under 30 ms per game.

use criterion::{criterion_group, criterion_main, Criterion};
use sandtable_engine::load::{load, MemSource};

fn files(dir: &str) -> MemSource {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let source = sandtable_engine::load::DirSource::new(&root);
    let mut mem = MemSource {
        name: dir.to_string(),
        ..MemSource::default()
    };
    use sandtable_engine::load::ContentSource;
    for relative in source.list().expect("the bundled content is readable") {
        let text = source.read(&relative).expect("readable");
        mem.files.insert(relative, text);
    }
    mem
}

fn bench_load(c: &mut Criterion) {
    let root =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content/barbarossa-to-berlin");
    c.bench_function("load_and_check_b2b_from_disk", |b| {
        b.iter(|| {
            let loaded = sandtable_engine::load::load_dir(&root);
            assert!(!loaded.has_errors());
            loaded
        })
    });
    let mem = files("content/barbarossa-to-berlin");
    c.bench_function("load_and_check_b2b_in_memory", |b| b.iter(|| load(&mem)));
}

criterion_group!(benches, bench_load);
criterion_main!(benches);
