//! The effect language's reference: every example in `docs/effect-language.md` parses and
//! checks against the bundled content, and every builtin is documented.

use sandtable_engine::script::check::{check_condition, check_stmts, Names, ScriptKind};
use sandtable_engine::script::syntax::{parse, parse_expr};
use sandtable_engine::script::types::BUILTINS;

fn doc() -> String {
    std::fs::read_to_string(crate::root().join("docs/effect-language.md")).unwrap()
}

/// The fenced blocks tagged `sandtable`, with their kind (`condition`, `combat` or an event).
fn examples(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        let Some(tag) = line.strip_prefix("```sandtable") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        out.push((tag.trim().to_string(), body.join("\n")));
    }
    out
}

#[test]
fn every_example_in_the_effect_language_reference_checks() {
    let names = Names::from_content(crate::cards::b2b());
    let examples = examples(&doc());
    assert!(examples.len() >= 8, "the reference has its examples");
    for (kind, text) in examples {
        let errors = match kind.as_str() {
            "condition" => {
                let (expr, mut errors) = parse_expr(&text);
                errors.extend(check_condition(&expr.expect("an expression"), &names));
                errors
            }
            _ => {
                let script = parse(&text);
                let kind = if kind == "combat" {
                    ScriptKind::Combat
                } else {
                    ScriptKind::Event
                };
                let mut errors = script.errors;
                errors.extend(check_stmts(&script.stmts, kind, &names));
                errors
            }
        };
        assert!(errors.is_empty(), "example:\n{text}\nerrors: {errors:?}");
    }
}

#[test]
fn every_builtin_is_in_the_reference() {
    let doc = doc();
    let missing: Vec<&str> = BUILTINS
        .iter()
        .map(|b| b.name)
        .filter(|n| !doc.contains(&format!("| `{n}(")))
        .collect();
    assert!(missing.is_empty(), "not documented: {missing:?}");
}
