//! Fuzz the effect language's parser, canonical printer and highlighter: whatever the text,
//! they return (no panic, no stack overflow); a script that parses without error prints to
//! text that parses to the same canonical text.
//! Run with `RUSTC_BOOTSTRAP=1 cargo fuzz run script_parse` from `fuzz/`'s parent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sandtable_engine::script::syntax::{highlight, parse, parse_expr, print};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = highlight(&text);
    let _ = parse_expr(&text);
    let script = parse(&text);
    let printed = print(&script.stmts);
    if script.errors.is_empty() {
        let again = parse(&printed);
        assert!(again.errors.is_empty(), "{printed:?}: {:?}", again.errors);
        assert_eq!(print(&again.stmts), printed);
    }
});
