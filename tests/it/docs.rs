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

/// The reference section is generated from the builtins' signatures.
/// Regenerate with `UPDATE_GOLDEN=1 cargo test every_builtin`.
#[test]
fn every_builtin_is_in_the_reference_as_generated() {
    let path = crate::root().join("docs/effect-language.md");
    let doc = doc();
    let heading = "## Reference: every builtin\n\n";
    let at = doc.find(heading).expect("the reference heading") + heading.len();
    let table = sandtable_engine::script::check::reference_table();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, format!("{}{table}", &doc[..at])).unwrap();
        return;
    }
    assert_eq!(
        &doc[at..],
        table,
        "run UPDATE_GOLDEN=1 cargo test every_builtin"
    );
    let missing: Vec<&str> = BUILTINS
        .iter()
        .map(|b| b.name)
        .filter(|n| !doc.contains(&format!("| `{n}(")))
        .collect();
    assert!(missing.is_empty(), "not documented: {missing:?}");
}

/// For every card script of the bundled content: misspell its first builtin call and check
/// that loading reports an unknown function at exactly that line and column.
#[test]
fn a_typo_in_any_card_script_is_reported_at_its_line_and_column() {
    use sandtable_engine::load::{load, ContentSource, DirSource, MemSource};
    let dir = DirSource::new(crate::b2b());
    let mut files = MemSource {
        name: "b2b".into(),
        ..MemSource::default()
    };
    for relative in dir.list().unwrap() {
        files
            .files
            .insert(relative.clone(), dir.read(&relative).unwrap());
    }
    let mut checked = 0;
    for file in ["cards/axis.ron", "cards/allied.ron"] {
        let text = files.files[file].clone();
        // Each script field, and the first call in it: `name(` after the field's opening.
        for field in ["effect: Some(", "combat: Some(", "playable: Some("] {
            let mut from = 0;
            while let Some(at) = text[from..].find(field).map(|i| i + from) {
                from = at + field.len();
                let script_end = text[from..].find("),\n").map_or(text.len(), |i| i + from);
                let Some(call) = find_call(&text[from..script_end]).map(|i| i + from) else {
                    continue;
                };
                let mut mutated = text.clone();
                mutated.insert_str(call, "zz");
                let mut source = files.clone();
                source.files.insert(file.into(), mutated.clone());
                let loaded = load(&source);
                let line = mutated[..call].matches('\n').count() + 1;
                let col = mutated[..call].rsplit('\n').next().unwrap().chars().count() + 1;
                let expected =
                    format!("b2b/{file}:{line}:{col}: error[E0303]: unknown function `zz");
                let rendered: Vec<String> = loaded
                    .errors()
                    .map(|d| loaded.sources.render_line(d))
                    .collect();
                assert!(
                    rendered.iter().any(|r| r.starts_with(&expected)),
                    "expected `{expected}` in {rendered:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked >= 3, "checked {checked} scripts");
}

/// The offset of the first `name(` call in a script's text, skipping comments.
fn find_call(script: &str) -> Option<usize> {
    let bytes = script.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if script[i..].starts_with("//") {
            i += script[i..].find('\n').unwrap_or(script.len() - i);
            continue;
        }
        if bytes[i].is_ascii_alphabetic()
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
        {
            let end = i + script[i..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(script.len() - i);
            let word = &script[i..end];
            if script[end..].starts_with('(') && !matches!(word, "r" | "Some") {
                return Some(i);
            }
            i = end;
            continue;
        }
        i += 1;
    }
    None
}

/// Every hook point is in both references, and the example of each in the effect language's
/// reference loads into a copy of Barbarossa to Berlin.
#[test]
fn every_hook_point_is_documented_with_an_example_that_loads() {
    use sandtable_engine::model::HookPoint;
    let doc = doc();
    let format = std::fs::read_to_string(crate::root().join("docs/content-format.md")).unwrap();
    let block: String = {
        let start = doc.find("```ron hooks\n").expect("the hooks' examples") + 13;
        let len = doc[start..].find("```").unwrap();
        doc[start..start + len].to_string()
    };
    for point in HookPoint::ALL {
        let name = format!("`{point:?}`");
        assert!(doc.contains(&format!("| {name} |")), "{name} in the table");
        assert!(format.contains(&name), "{name} in content-format.md");
        assert!(
            block.contains(&format!("at: {point:?},")),
            "an example at {name}"
        );
    }
    let content = crate::rule_changes::variant("barbarossa-to-berlin", &block, &[]);
    let hooks = &content.game.as_ref().unwrap().hooks;
    assert!(hooks.len() >= HookPoint::ALL.len());
    assert_eq!(content.sequence.hooks.len(), hooks.len(), "all checked");
}
