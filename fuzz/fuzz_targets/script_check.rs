//! Fuzz the effect language's checker: arbitrary text parsed and checked, as an event, a
//! combat card and a condition, against Barbarossa to Berlin's names (loaded once).
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sandtable_engine::script::check::{check_condition, check_stmts, Names, ScriptKind};
use sandtable_engine::script::syntax::{parse, parse_expr};

fn names() -> &'static Names {
    static NAMES: OnceLock<Names> = OnceLock::new();
    NAMES.get_or_init(|| {
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../content/barbarossa-to-berlin"
        );
        let loaded = sandtable_engine::load::load_dir(root);
        assert!(!loaded.has_errors(), "the bundled game loads");
        Names::from_content(&loaded.content)
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let script = parse(&text);
    for kind in [ScriptKind::Event, ScriptKind::Combat] {
        let _ = check_stmts(&script.stmts, kind, names());
    }
    if let (Some(expr), _) = parse_expr(&text) {
        let _ = check_condition(&expr, names());
    }
});
