//! Golden tests of diagnostics: each folder under `tests/golden/diagnostics/` is a small game
//! with problems, and its `expected.txt` holds every diagnostic exactly as rendered.
//!
//! Regenerate after an intended change with: `UPDATE_GOLDEN=1 cargo test golden`.

use sandtable_engine::load::load_dir;

const HEADER: &str = "# Rendered diagnostics. Regenerate: UPDATE_GOLDEN=1 cargo test golden\n";

#[test]
fn golden_diagnostics_match_their_expected_output() {
    let base = crate::root().join("tests/golden/diagnostics");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut cases: Vec<_> = std::fs::read_dir(&base)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let mut failures = Vec::new();
    for case in cases {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let loaded = load_dir(format!("tests/golden/diagnostics/{name}"));
        let mut actual = HEADER.to_string();
        for d in &loaded.diagnostics {
            actual.push_str(&loaded.sources.render(d));
            actual.push_str("\n\n");
        }
        let expected_path = case.join("expected.txt");
        if update {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if expected != actual {
            failures.push(format!(
                "--- {name}: expected\n{expected}\n--- {name}: actual\n{actual}"
            ));
        }
        assert!(
            loaded.has_errors(),
            "golden case {name} must hold at least one error"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
