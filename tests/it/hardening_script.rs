//! Issue 15 for scripts: never crash, never hang. Chains and nestings of any length give a
//! located error instead of a stack overflow; arithmetic overflow is a located runtime error;
//! the step budget charges builtins by their work; diagnostics stay as long as their input.

use sandtable_engine::load::{load, MemSource};
use sandtable_engine::script::check::{check_stmts, Names, ScriptKind};
use sandtable_engine::script::eval::{self, Outcome};
use sandtable_engine::script::syntax::{highlight, parse, print, ScriptError, MAX_DEPTH};
use sandtable_engine::state::State;

use crate::cards::{b2b, campaign};

use crate::script_builtins::axis;

/// A chain of `n` links of each kind the grammar can repeat, as the text of a script line.
fn chains(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("not", format!("add(vp, {}true)", "not ".repeat(n))),
        ("neg", format!("add(vp, {}1)", "-".repeat(n))),
        ("plus", format!("add(vp, {}1)", "+ ".repeat(n))),
        ("sum", format!("add(vp, 1{})", "+1".repeat(n))),
        ("product", format!("add(vp, 1{})", " * 1".repeat(n))),
        ("and", format!("if true{} {{\n}}", " and true".repeat(n))),
        ("or", format!("if false{} {{\n}}", " or false".repeat(n))),
        ("field", format!("add(vp, moscow{})", ".vp".repeat(n))),
        (
            "parens",
            format!("add(vp, {}1{})", "(".repeat(n), ")".repeat(n)),
        ),
        (
            "lists",
            format!("let x = {}1{}", "[".repeat(n), "]".repeat(n)),
        ),
        (
            "calls",
            format!("add(vp, {}1{})", "min(1, ".repeat(n), ")".repeat(n)),
        ),
        (
            "lambdas",
            format!("let x = any([1], {}true)", "|x| ".repeat(n)),
        ),
        ("unclosed", format!("add(vp, {}", "(".repeat(n))),
        (
            "blocks",
            format!("{}add(vp, 1){}", "if true {\n".repeat(n), "\n}".repeat(n)),
        ),
        (
            "else_if",
            format!("if false {{\n}}{}", " else if false {\n}".repeat(n)),
        ),
        (
            "for",
            format!(
                "{}add(vp, 1){}",
                "for s in spaces() {\n".repeat(n),
                "\n}".repeat(n)
            ),
        ),
    ]
}

fn nesting_error(errors: &[ScriptError], text: &str) -> bool {
    errors.iter().any(|e| {
        e.code == "E0307" && e.range.start <= e.range.end && e.range.end as usize <= text.len()
    })
}

/// Parses, checks, prints and highlights a script, and runs it when it checked.
fn through_every_stage(text: &str) -> Vec<ScriptError> {
    let parsed = parse(text);
    let mut errors = parsed.errors.clone();
    errors.extend(check_stmts(
        &parsed.stmts,
        ScriptKind::Event,
        &Names::from_content(b2b()),
    ));
    let _ = print(&parsed.stmts);
    let _ = highlight(text);
    if errors.is_empty() {
        let mut state = campaign();
        let _ = eval::run(&parsed.stmts, b2b(), &mut state, &axis(), &[]);
    }
    errors
}

#[test]
fn chains_of_12000_and_100000_links_of_every_construct_give_a_located_nesting_error() {
    for n in [12_000, 100_000] {
        for (kind, text) in chains(n) {
            let errors = through_every_stage(&text);
            assert!(
                nesting_error(&errors, &text),
                "{kind} x {n}: {:?}",
                errors.first()
            );
            assert!(errors.len() <= 3, "{kind} x {n}: {} errors", errors.len());
        }
    }
}

#[test]
fn a_statement_after_one_nested_too_deeply_is_still_read_and_checked() {
    let text = format!("add(vp, 1{})\nadd(vpp, 1)", "+1".repeat(1000));
    let errors = through_every_stage(&text);
    assert!(nesting_error(&errors, &text));
    assert!(
        errors
            .iter()
            .any(|e| e.code == "E0303" && e.message.contains("vpp")),
        "{errors:?}"
    );
}

#[test]
fn trees_as_deep_as_the_limit_parse_check_print_and_run_on_a_test_thread_stack() {
    // Just within the limit, each kind must get through every stage (and its drop).
    let n = MAX_DEPTH - 4;
    for (kind, text) in [
        ("not", format!("if {}true {{\n}}", "not ".repeat(n))),
        ("neg", format!("add(vp, {}1)", "-".repeat(n))),
        ("sum", format!("add(vp, 1{})", "+1".repeat(n))),
        ("and", format!("if true{} {{\n}}", " and true".repeat(n))),
        (
            "parens",
            format!("add(vp, {}1{})", "(".repeat(n), ")".repeat(n)),
        ),
        (
            "calls",
            format!("add(vp, {}1{})", "min(1, ".repeat(n), ")".repeat(n)),
        ),
        (
            "tests",
            format!(
                "if {}true{} {{\n}}",
                "any([1], |x| ".repeat(n / 2),
                ")".repeat(n / 2)
            ),
        ),
        (
            "lists",
            format!("let x = count({}1{})", "[".repeat(n), "]".repeat(n)),
        ),
        (
            "blocks",
            format!("{}add(vp, 1){}", "if true {\n".repeat(n), "\n}".repeat(n)),
        ),
    ] {
        let errors = through_every_stage(&text);
        assert!(errors.is_empty(), "{kind}: {errors:?}");
    }
}

/// Barbarossa to Berlin in memory, with `edit` applied to the text of the Axis cards.
fn b2b_with_axis_cards(edit: impl Fn(&str) -> String) -> MemSource {
    let root = crate::b2b();
    let mut source = MemSource {
        name: "b2b".into(),
        ..MemSource::default()
    };
    for entry in walk(&root) {
        let rel = entry
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&entry).unwrap();
        let text = if rel == "cards/axis.ron" {
            edit(&text)
        } else {
            text
        };
        source.files.insert(rel, text);
    }
    source
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "ron") {
            out.push(path);
        }
    }
    out
}

/// Puts one line at the start of the first effects of a card file, one line per effect.
fn prefix_effects(text: &str, lines: &[String]) -> String {
    let mut out = String::new();
    let mut rest = text;
    for line in lines {
        let at =
            rest.find("effect: Some(r#\"").expect("enough effects") + "effect: Some(r#\"".len();
        out.push_str(&rest[..at]);
        out.push('\n');
        out.push_str(line);
        rest = &rest[at..];
    }
    out.push_str(rest);
    out
}

#[test]
fn chains_in_card_effects_are_reported_by_the_loader_at_their_line() {
    for n in [12_000, 100_000] {
        let kinds = chains(n);
        let lines: Vec<String> = kinds.iter().map(|(_, t)| t.clone()).collect();
        let source = b2b_with_axis_cards(|t| prefix_effects(t, &lines));
        let loaded = load(&source);
        let deep: Vec<String> = loaded
            .diagnostics
            .iter()
            .filter(|d| d.code == "E0307")
            .map(|d| loaded.sources.render(d))
            .collect();
        assert_eq!(deep.len(), kinds.len(), "x {n}: {deep:?}");
        for rendered in &deep {
            assert!(
                rendered.starts_with("b2b/cards/axis.ron:") || rendered.contains("cards/axis.ron:"),
                "{rendered}"
            );
            assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
        }
    }
}

#[test]
fn deeply_nested_ron_values_give_a_located_syntax_error_not_a_stack_overflow() {
    for n in [200, 12_000, 100_000] {
        for open in ["[", "Some(", "(a: ", "{\"k\": "] {
            let value = open.repeat(n);
            let source = b2b_with_axis_cards(|t| {
                t.replacen("remove: true,", &format!("remove: {value}"), 1)
            });
            let loaded = load(&source);
            let error = loaded.errors().find(|d| d.code == "E0001");
            let error = error.unwrap_or_else(|| panic!("{open} x {n}: no syntax error"));
            let rendered = loaded.sources.render(error);
            assert!(rendered.contains("cards/axis.ron:"), "{rendered}");
            assert!(rendered.len() < 2_000, "{} bytes", rendered.len());
        }
    }
}

#[test]
fn ron_values_nested_just_within_the_reader_limit_convert_validate_and_deserialize() {
    // Deep but accepted by the reader: to JSON, the schema and serde must not overflow either.
    for depth in [100, 120, 126] {
        let value = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let source =
            b2b_with_axis_cards(|t| t.replacen("remove: true,", &format!("remove: {value},"), 1));
        let loaded = load(&source);
        assert!(loaded.has_errors(), "a list is no bool");
    }
}

/// Checks a script against the campaign and runs it as the Axis; the error it stops with.
fn run_error(text: &str) -> Option<ScriptError> {
    let parsed = parse(text);
    let mut errors = parsed.errors.clone();
    errors.extend(check_stmts(
        &parsed.stmts,
        ScriptKind::Event,
        &Names::from_content(b2b()),
    ));
    assert!(errors.is_empty(), "{text}: {errors:?}");
    let mut state = campaign();
    let before = state.clone();
    match eval::run(&parsed.stmts, b2b(), &mut state, &axis(), &[]) {
        Ok(_) => None,
        Err(e) => {
            assert_eq!(state, before, "a runtime error leaves the state as it was");
            Some(e)
        }
    }
}

#[test]
fn integer_overflow_and_division_by_zero_stop_the_script_at_the_operation() {
    for (text, op) in [
        (
            "add(vp, (0 - 9223372036854775807 - 1) / (0 - 1))",
            "(0 - 9223372036854775807 - 1) / (0 - 1)",
        ),
        (
            "add(vp, 9223372036854775807 + 1)",
            "9223372036854775807 + 1",
        ),
        (
            "add(vp, 0 - 9223372036854775807 - 2)",
            "0 - 9223372036854775807 - 2",
        ),
        (
            "add(vp, 3037000500 * 3037000500)",
            "3037000500 * 3037000500",
        ),
        (
            "add(vp, -(0 - 9223372036854775807 - 1))",
            "-(0 - 9223372036854775807 - 1)",
        ),
        ("add(vp, 1 / 0)", "1 / 0"),
        ("add(vp, 1 / (1 - 1))", "1 / (1 - 1)"),
    ] {
        let e = run_error(text).unwrap_or_else(|| panic!("{text} ran"));
        assert_eq!(e.code, "E0311", "{text}: {e:?}");
        let at = text.find(op).unwrap();
        assert_eq!(
            (e.range.start as usize, e.range.end as usize),
            (at, at + op.len()),
            "{text}: {e:?}"
        );
    }
    // Within the range, arithmetic is exact.
    assert_eq!(
        run_error("add(vp, 0 - 9223372036854775807 - 1 + 9223372036854775807)"),
        None
    );
}

#[test]
fn builtins_given_extreme_numbers_fail_or_clamp_without_panicking() {
    let m = i64::MAX;
    for text in [
        format!("let x = choose(0 - {m}, spaces())"),
        format!("let x = choose_up_to({m}, spaces())"),
        format!("let x = pick_random({m}, spaces())"),
        format!("let x = pick_random(0 - {m}, spaces())"),
        format!("draw(axis, {m})"),
        format!("discard_random(axis, {m})"),
        format!("set(vp, {m})\nadd(vp, {m})"),
        format!("set(vp, 0 - {m})\nadd(vp, 0 - {m})"),
        format!("drm({m})\ndrm({m})\nshift(0 - {m})"),
        format!("to_turn_track(choose_one(units(side: axis)), {m})"),
    ] {
        let parsed = parse(&text);
        let mut errors = parsed.errors.clone();
        errors.extend(check_stmts(
            &parsed.stmts,
            ScriptKind::Event,
            &Names::from_content(b2b()),
        ));
        if !errors.is_empty() {
            continue; // only what checks can run
        }
        let mut state = campaign();
        let answers = vec![vec![]; 4];
        let _ = eval::run(&parsed.stmts, b2b(), &mut state, &axis(), &answers);
    }
}

fn budget_error(text: &str) -> ScriptError {
    let e = run_error(text).unwrap_or_else(|| panic!("{text} ran to its end"));
    assert_eq!(e.code, "E0310", "{e:?}");
    assert!(e.message.contains("steps"), "{e:?}");
    e
}

#[test]
fn a_double_loop_of_supply_checks_is_stopped_by_the_budget_that_charges_builtins() {
    budget_error(
        "for a in spaces() {\n    for b in spaces() {\n        if needed_for_supply(beach_head_br, b) {\n        }\n    }\n}",
    );
    budget_error(
        "for a in spaces() {\n    for b in spaces() {\n        let n = count(spaces(controlled_by: axis))\n    }\n}",
    );
    budget_error(
        "for a in units() {\n    for b in units() {\n        let n = count(units(side: allied))\n    }\n}",
    );
    budget_error(
        "let all = spaces()\nfor a in all {\n    for b in all {\n        let c = contains(all, b)\n    }\n}",
    );
}

#[test]
fn a_normal_card_script_still_runs_within_the_budget() {
    let mut state: State = campaign();
    let script = &b2b().scripts["taifun"];
    let effect = script.effect.as_ref().unwrap();
    let (outcome, _) = eval::run(effect, b2b(), &mut state, &axis(), &[]).unwrap();
    assert!(matches!(outcome, Outcome::Asks(_)));
    assert_eq!(
        run_error("let n = count(filter([beach_k, beach_l, beach_s], |s| needed_for_supply(beach_head_br, s) or any(units(side: axis), |u| in_supply(u))))\nadd(vp, n)"),
        None
    );
}

#[test]
fn a_megabyte_line_of_bad_characters_gives_one_diagnostic_of_bounded_size() {
    let bad = "@".repeat(1 << 20);
    let errors = parse(&format!("add(vp, 1) {bad}")).errors;
    assert!(errors.len() <= 2, "{} errors", errors.len());
    let source = b2b_with_axis_cards(|t| prefix_effects(t, std::slice::from_ref(&bad)));
    let loaded = load(&source);
    let bad_chars: Vec<_> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "E0301")
        .collect();
    assert_eq!(bad_chars.len(), 1);
    let rendered: usize = loaded
        .diagnostics
        .iter()
        .map(|d| loaded.sources.render(d).len())
        .sum();
    assert!(rendered < 10_000, "{rendered} bytes of diagnostics");
}

#[test]
fn runs_of_bad_characters_are_one_error_each_and_comments_still_end_them() {
    let errors = parse("add(vp, 1) @@@ $$\nadd(vp, 2) # // comment ¤").errors;
    let bad: Vec<_> = errors.iter().filter(|e| e.code == "E0301").collect();
    assert_eq!(bad.len(), 2, "{errors:?}");
    assert_eq!((bad[0].range.start, bad[0].range.end), (11, 17));
}

#[test]
fn a_ten_megabyte_unknown_id_is_reported_without_a_hint() {
    let id = "x".repeat(10 << 20);
    let errors = through_every_stage(&format!("add({id}, 1)"));
    let unknown = errors
        .iter()
        .find(|e| e.code == "E0303")
        .expect("unknown name");
    assert_eq!(unknown.hint, None);
    let source = b2b_with_axis_cards(|t| prefix_effects(t, &[format!("add({id}, 1)")]));
    let loaded = load(&source);
    let d = loaded
        .diagnostics
        .iter()
        .find(|d| d.code == "E0303")
        .expect("reported");
    assert!(d.hints.is_empty());
    assert!(loaded.sources.render(d).len() < 2_000);
}

#[test]
fn validate_and_play_report_a_12000_link_chain_in_a_card_instead_of_crashing() {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    let cards = dir.path().join("cards/axis.ron");
    let text = std::fs::read_to_string(&cards).unwrap();
    let chain = format!("add(vp, {}true)", "not ".repeat(12_000));
    std::fs::write(&cards, prefix_effects(&text, &[chain])).unwrap();
    let game = dir.path().to_str().unwrap();
    for args in [
        vec!["validate", game],
        vec!["play", game, "--scenario", "campaign"],
    ] {
        let out = crate::cli::sandtable(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains("error[E0307]"), "{args:?}: {err}");
        assert!(err.len() < 10_000, "{} bytes", err.len());
    }
}
