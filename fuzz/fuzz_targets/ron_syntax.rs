//! Fuzz the RON reader and the canonical writer: whatever parses must write and read back to
//! the same JSON; and the reader straight from the text (`from_text`, what loading does first)
//! reads only what parses, to the same JSON. Run with `cargo +nightly fuzz run ron_syntax`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandtable_engine::ron_syntax::{from_text, parse, to_json, write_canonical};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let streamed = from_text::<serde_json::Value>(text);
    let Ok(node) = parse(text) else {
        assert!(streamed.is_err(), "read from the text, but does not parse");
        return;
    };
    let Ok(json) = to_json(&node) else {
        return;
    };
    if let Ok(value) = streamed {
        assert_eq!(value, json, "the text and its tree read differently");
    }
    let written = write_canonical(&node);
    let again = parse(&written).expect("canonical text parses");
    assert_eq!(to_json(&again).expect("converts"), json);
});
