//! The command-line contract of DESIGN.md, from outside: exit codes and the
//! `path:line:col: error[CODE]: message` form at the exact place of each problem.

use std::process::{Command, Output};

use crate::{b2b, copy_tree, root};

pub(crate) fn sandtable(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the sandtable binary runs")
}

/// `sandtable play` of the B2B campaign from `seed` on the actions `lines`, written to a file
/// of a temporary folder, with `more` arguments: the run, the file, and the folder (removed
/// when dropped).
fn play_campaign(
    lines: &[String],
    seed: &str,
    more: &[&str],
) -> (Output, std::path::PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let actions = dir.path().join("game.log");
    std::fs::write(&actions, lines.join("\n")).unwrap();
    let path = actions.to_str().unwrap();
    let mut args = vec![
        "play",
        "content/barbarossa-to-berlin",
        "--scenario",
        "campaign",
    ];
    args.extend(["--seed", seed, "--actions", path]);
    args.extend(more);
    let out = sandtable(&args);
    (out, actions, dir)
}

pub(crate) fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn bundled_barbarossa_to_berlin_validates() {
    let out = sandtable(&["validate", "content/barbarossa-to-berlin"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stderr(&out).contains(": ok ("), "{}", stderr(&out));
}

#[test]
fn bundled_content_and_fixtures_are_in_canonical_layout() {
    for dir in [
        "content/barbarossa-to-berlin",
        "tests/fixtures/hex-mini",
        "tests/fixtures/zone-mini",
    ] {
        let out = sandtable(&["fmt", "--check", dir]);
        assert!(
            out.status.success(),
            "{dir}: {}{}",
            stderr(&out),
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

#[test]
fn committed_schemas_match_the_rust_types() {
    let out = sandtable(&["schema", "--check"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Copies the bundled content, replaces the first `find` in `file` by `replace`, validates,
/// and returns the output with the path, line and column where `point` (a part of `replace`)
/// now stands.
fn mutate(file: &str, find: &str, replace: &str, point: &str) -> (Output, String, usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("b2b");
    copy_tree(&b2b(), &copy);
    let path = copy.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let at = text
        .find(find)
        .unwrap_or_else(|| panic!("`{find}` not in {file}"));
    let mutated = text.replacen(find, replace, 1);
    std::fs::write(&path, &mutated).unwrap();
    let before = &mutated[..at + replace.find(point).expect("point lies in replace")];
    let line = before.matches('\n').count() + 1;
    let col = before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .count()
        + 1;
    let out = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(["validate", copy.to_str().unwrap()])
        .output()
        .unwrap();
    (out, format!("{}/{file}", copy.display()), line, col)
}

fn assert_reported(out: &Output, path: &str, line: usize, col: usize, code: &str) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    let expected = format!("{path}:{line}:{col}: error[{code}]:");
    assert!(
        err.lines().any(|l| l.starts_with(&expected)),
        "expected `{expected}` in:\n{err}"
    );
}

#[test]
fn dangling_reference_is_reported_at_its_value() {
    let (out, path, line, col) =
        mutate("map.ron", "a: \"kaunas\"", "a: \"kaunass\"", "\"kaunass\"");
    assert_reported(&out, &path, line, col, "E0201");
    assert!(
        stderr(&out).contains("did you mean `kaunas`?"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn duplicate_id_is_reported_at_the_second_one() {
    let (out, path, line, col) = mutate(
        "cards/axis.ron",
        "id: \"taifun\"",
        "id: \"barbarossa\"",
        "\"barbarossa\"",
    );
    assert_reported(&out, &path, line, col, "E0200");
}

#[test]
fn the_placement_rules_names_are_checked_where_written() {
    // A box entry's counter, a theatre's nation, an example's theatre.
    let (out, path, line, col) = mutate(
        "game.ron",
        "counters: [\"br_desert_army\"]",
        "counters: [\"br_desert_armyy\"]",
        "\"br_desert_armyy\"",
    );
    assert_reported(&out, &path, line, col, "E0201");
    let (out, path, line, col) = mutate(
        "game.ron",
        "nations: [\"br\", \"cw\", \"ca\", \"us\", \"ff\"],\n                sizes: [\"lcu\"],",
        "nations: [\"br\", \"cw\", \"ca\", \"uss\", \"ff\"],\n                sizes: [\"lcu\"],",
        "\"uss\"",
    );
    assert_reported(&out, &path, line, col, "E0201");
    let (out, path, line, col) = mutate(
        "examples/rule_14_2_an_army_eliminated_tracing_supply_to_naples_is_lost_in_the_mediterranean.ron",
        "theatres: Some([\"mediterranean\"])",
        "theatres: Some([\"med\"])",
        "\"med\"",
    );
    assert_reported(&out, &path, line, col, "E0201");
    // An entry that names no unit opens nothing.
    let (out, path, line, col) = mutate(
        "game.ron",
        "(\n                counters: [\"br_desert_army\"],",
        "(\n                counters: [],",
        "(",
    );
    assert_reported(&out, &path, line, col, "E0207");
}

#[test]
fn schema_violation_is_reported_at_its_value() {
    let (out, path, line, col) = mutate(
        "game.ron",
        "min: 2, max: 8",
        "min: \"two\", max: 8",
        "\"two\"",
    );
    assert_reported(&out, &path, line, col, "E0100");
}

#[test]
fn misspelt_field_is_reported_at_its_name() {
    let (out, path, line, col) = mutate("tables.ron", "rows_by:", "rows_bye:", "rows_bye");
    assert_reported(&out, &path, line, col, "E0100");
    assert!(stderr(&out).contains("unknown field `rows_bye`"));
}

#[test]
fn ron_syntax_error_is_reported_where_the_comma_is_missing() {
    let (out, path, line, col) = mutate(
        "map.ron",
        ",\n            name: ",
        "\n            name: ",
        "name",
    );
    assert_reported(&out, &path, line, col, "E0001");
}

#[test]
fn problems_in_several_files_are_all_reported() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("b2b");
    copy_tree(&b2b(), &copy);
    for (file, find, replace) in [
        (
            "map.ron",
            "terrain: Some(\"clear\")",
            "terrain: Some(\"claer\")",
        ),
        ("tables.ron", "rows_by:", "rows_bye:"),
        ("cards/allied.ron", "kind: \"combat\"", "kind: \"combta\""),
    ] {
        let path = copy.join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen(find, replace, 1)).unwrap();
    }
    let out = sandtable(&["validate", copy.to_str().unwrap()]);
    let err = stderr(&out);
    for file in ["map.ron", "tables.ron", "cards/allied.ron"] {
        assert!(
            err.contains(&format!("{file}:")),
            "no problem reported in {file}:\n{err}"
        );
    }
}

#[test]
fn validate_json_lists_diagnostics_for_tools() {
    let out = sandtable(&[
        "validate",
        "--json",
        "tests/golden/diagnostics/unknown-reference",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &json[0];
    assert_eq!(first["code"], "E0201");
    assert!(first["line"].as_u64().unwrap() > 0 && first["column"].as_u64().unwrap() > 0);
}

#[test]
fn fmt_rewrites_a_file_into_the_canonical_layout_and_keeps_its_meaning() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("zone");
    copy_tree(&root().join("tests/fixtures/zone-mini"), &copy);
    let path = copy.join("counters.ron");
    let canonical = std::fs::read_to_string(&path).unwrap();
    let messy = canonical
        .replace("\n", "\n\n  ")
        .replace("count: 4", "count: /* four */ 4 // a comment\n");
    std::fs::write(&path, &messy).unwrap();
    assert!(!sandtable(&["fmt", "--check", copy.to_str().unwrap()])
        .status
        .success());
    assert!(sandtable(&["fmt", copy.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), canonical);
}

#[test]
fn each_command_has_help() {
    for command in ["validate", "fmt", "schema"] {
        let out = sandtable(&[command, "--help"]);
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    }
}

#[test]
fn odds_rounds_for_the_defender_and_clamps_the_modified_roll() {
    // 7:3 rounds down to 2:1; with -1 the rolls 1..6 read rows 1, 1, 2, 3, 4, 5.
    let out = sandtable(&[
        "odds",
        "tests/fixtures/hex-mini",
        "--table",
        "crt",
        "--attacker",
        "7",
        "--defender",
        "3",
        "--drm",
        "-1",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["column"], "2:1");
    let ways: Vec<(String, u64)> = json["outcomes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            (
                o["result"].as_str().unwrap().to_string(),
                o["ways"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ways,
        [
            ("de".into(), 2),
            ("dr".into(), 1),
            ("ex".into(), 2),
            ("ar".into(), 1)
        ]
    );
}

#[test]
fn odds_column_shift_stops_at_the_last_column() {
    let out = sandtable(&[
        "odds",
        "tests/fixtures/hex-mini",
        "--table",
        "crt",
        "--attacker",
        "9",
        "--defender",
        "3",
        "--shift",
        "4",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("column 3:1"));
}

/// A full random campaign, as a log of actions, and how it ended.
fn random_campaign(seed: u64) -> (Vec<String>, sandtable_engine::rules::GameResult) {
    use sandtable_engine::agent::RandomAgent;
    use sandtable_engine::session::{Session, Setup};
    let content = crate::cards::b2b();
    let setup = Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
        position: None,
    };
    let mut s = Session::new(content, setup).unwrap();
    let mut agent = RandomAgent::new(seed);
    while let Some(p) = s.prompt().cloned() {
        s.apply(content, &agent.act(&p).to_string()).unwrap();
    }
    let result = s.state().flow.result.clone().unwrap();
    (s.log().to_vec(), result)
}

#[test]
fn play_replays_a_full_campaign_from_a_log_and_prints_the_state_as_json() {
    let (log, result) = random_campaign(12);
    let mut lines = vec!["# a random campaign, seed 12".to_string(), String::new()];
    lines.extend(log);
    let (out, _, _dir) = play_campaign(&lines, "12", &["--state", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let state: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(state["result"]["winner"], result.winner.as_str());
    assert_eq!(state["result"]["turn"], result.turn);
    assert!(state["prompt"].is_null());
}

#[test]
fn play_reports_an_illegal_action_at_its_line_with_the_legal_alternatives() {
    let (log, _) = random_campaign(13);
    let mut lines: Vec<String> = log[..4].to_vec();
    lines.push("attack moscow".into());
    let (out, actions, _dir) = play_campaign(&lines, "13", &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}:5: error: illegal action `attack moscow`",
            actions.display()
        )),
        "{err}"
    );
    assert!(err.contains("legal actions now:"), "{err}");
}

#[test]
fn play_names_the_units_of_the_question_an_illegal_action_was_given_to_as_the_prompt_does() {
    let lines = [
        "take barbarossa",
        "choose no",
        "choose no",
        "choose bialystok brest_litovsk chernovitsi",
        "event barbarossa",
        "choose albania athens belgrade benghazi bergen",
        "sr enigma",
        "redeploy su_leningrad_front",
        "to nowhere",
    ]
    .map(String::from);
    let (out, _, _dir) = play_campaign(&lines, "1", &[]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("error: illegal action `to nowhere`: `to nowhere` is not legal now:")
            && err.contains("Where does Leningrad Front go?"),
        "{err}"
    );
    assert!(
        err.contains("    to kaunas"),
        "the action as written: {err}"
    );
}

#[test]
fn play_prints_the_pending_prompt_as_json_and_names_an_unknown_scenario() {
    let out = sandtable(&[
        "play",
        "content/barbarossa-to-berlin",
        "--scenario",
        "campaign",
        "--prompt",
        "json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let prompt: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(prompt["side"], "axis");
    assert!(prompt["options"].as_array().is_some_and(|o| !o.is_empty()));
    // An unknown scenario is a clear error, of usage.
    let out = sandtable(&["play", "content/barbarossa-to-berlin", "--scenario", "nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no scenario `nope`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn play_uses_the_given_die_results_before_the_seeded_dice() {
    use sandtable_engine::agent::RandomAgent;
    use sandtable_engine::session::{state_json, Session, Setup};
    // 300 actions played with thirty sixes before the seeded dice.
    let content = crate::cards::b2b();
    let sixes = vec![6; 30];
    let setup = Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed: 14,
        dice: sixes.clone(),
        position: None,
    };
    let mut s = Session::new(content, setup).unwrap();
    let mut agent = RandomAgent::new(14);
    for _ in 0..300 {
        let Some(p) = s.prompt().cloned() else { break };
        s.apply(content, &agent.act(&p).to_string()).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let actions = dir.path().join("sixes.log");
    std::fs::write(&actions, s.log().join("\n")).unwrap();
    let dice: Vec<String> = sixes.iter().map(i64::to_string).collect();
    let dice = dice.join(",");
    let actions = actions.to_str().unwrap();
    let mut args = vec![
        "play",
        "content/barbarossa-to-berlin",
        "--scenario",
        "campaign",
        "--seed",
        "14",
        "--actions",
        actions,
        "--state",
        "json",
    ];
    let without = sandtable(&args);
    args.extend(["--dice", dice.as_str()]);
    let with = sandtable(&args);
    assert!(with.status.success(), "{}", stderr(&with));
    let state: serde_json::Value = serde_json::from_slice(&with.stdout).unwrap();
    assert_eq!(state, state_json(content, s.state()));
    // Without the sixes the same log plays another game, or stops at an action it no longer
    // allows.
    assert!(!without.status.success() || without.stdout != with.stdout);
}
