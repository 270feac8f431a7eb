//! Fuzz the RON reader and the canonical writer: whatever parses must write and read back to
//! the same JSON. Run with `cargo +nightly fuzz run ron_syntax`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandtable_engine::ron_syntax::{parse, to_json, write_canonical};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(node) = parse(text) else { return };
    let Ok(json) = to_json(&node) else {
        return;
    };
    let written = write_canonical(&node);
    let again = parse(&written).expect("canonical text parses");
    assert_eq!(to_json(&again).expect("converts"), json);
});
