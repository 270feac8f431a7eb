//! Fuzz the loader: arbitrary bytes as each content file kind of a small game.
//! Run with `cargo +nightly fuzz run load` from the repository root.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandtable_engine::load::{load, MemSource};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let base = include_str!("../../tests/fixtures/zone-mini/game.ron");
    for name in [
        "game.ron",
        "map.ron",
        "counters.ron",
        "tables.ron",
        "cards/a.ron",
        "scenarios/s.ron",
    ] {
        let mut source = MemSource {
            name: "fuzz".into(),
            ..MemSource::default()
        };
        source.files.insert("game.ron".into(), base.into());
        source.files.insert(name.into(), text.clone());
        let loaded = load(&source);
        for d in &loaded.diagnostics {
            let _ = loaded.sources.render(d);
        }
    }
});
