//! The rulebooks' worked examples as content (`examples/*.ron`): every one of the bundled
//! games passes through the prompts, a change of a rule an example depends on fails it with a
//! report at the step, and an example's own mistakes are reported where they are written.

use sandtable_engine::examples::{self, Outcome};
use sandtable_engine::load::load_dir;

use crate::cli::{sandtable, stderr};
use crate::{copy_tree, root};

/// Every example of a bundled game, run: (id, outcome rendered).
fn run_game(game: &str) -> Vec<(String, Option<String>)> {
    let loaded = load_dir(root().join("content").join(game));
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    let content = &loaded.content;
    content
        .examples
        .iter()
        .map(|e| {
            let o = examples::run(content, e);
            let report = o.diagnostic().map(|d| loaded.sources.render(d));
            (e.data.id.clone(), report)
        })
        .collect()
}

#[test]
fn every_worked_example_of_berlin_1945_passes_through_the_prompts() {
    let runs = run_game("berlin-1945");
    let failed: Vec<String> = runs.iter().filter_map(|(_, r)| r.clone()).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert!(runs.len() >= 10, "{runs:?}");
}

#[test]
fn every_worked_example_of_barbarossa_to_berlin_passes_through_the_prompts() {
    let runs = run_game("barbarossa-to-berlin");
    let failed: Vec<String> = runs.iter().filter_map(|(_, r)| r.clone()).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // 4.4, 5.2 (two), 7.6 (Krim), 7.8, 11.1, 11.3 (four), 13.3 and 14.54 (two) at least.
    assert!(runs.len() >= 13, "{runs:?}");
}

#[test]
fn every_example_of_spi_barbarossa_passes_through_the_prompts() {
    let runs = run_game("spi-barbarossa");
    let failed: Vec<String> = runs.iter().filter_map(|(_, r)| r.clone()).collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    // Combat G, Zones of Control J, the overrun, Supply A, rail, break-down, Kerch, the
    // Campaign Game's replacements and two bands of its victory chart.
    assert!(runs.len() >= 10, "{runs:?}");
}

/// A copy of Berlin 1945 with its combat results table's 3:1 column on a 5 made `D1`.
fn berlin_with_crt_cell_changed() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("content/berlin-1945"), dir.path());
    let path = dir.path().join("tables.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    // The row of a 5: the fifth cell (3:1) is D2R in the printed example.
    let row = text.find("key: 5,").expect("the CRT's row of a 5");
    let cells = &text[row..];
    let d2r = cells
        .find(r#"{"defender": 2, "retreat": true}"#)
        .expect("D2R in the row of a 5");
    let at = row + d2r;
    let changed = format!(
        "{}{}{}",
        &text[..at],
        r#"{"defender": 1}"#,
        &text[at + r#"{"defender": 2, "retreat": true}"#.len()..]
    );
    std::fs::write(&path, changed).unwrap();
    dir
}

#[test]
fn changing_the_crt_cell_rule_8s_example_depends_on_fails_it_at_the_step_with_what_play_gave() {
    let dir = berlin_with_crt_cell_changed();
    let loaded = load_dir(dir.path());
    assert!(!loaded.has_errors());
    let content = &loaded.content;
    let e = content
        .examples
        .iter()
        .find(|e| e.data.id == "rule_8_combat_at_lebus")
        .unwrap();
    let outcome = examples::run(content, e);
    let Outcome::Diverged(step, d) = &outcome else {
        panic!("{outcome:?}");
    };
    let report = loaded.sources.render(d);
    // The first check that fails is the combat's message: a 5 at 3:1 is now D1.
    assert!(matches!(
        e.data.steps[*step],
        sandtable_engine::model::ExampleStep::Message(_)
    ));
    assert!(report.contains("error[E0401]"), "{report}");
    assert!(
        report.contains("rule_8_combat_at_lebus` (8) diverged at step"),
        "{report}"
    );
    assert!(
        report.contains("examples/rule_8_combat_at_lebus.ron:"),
        "{report}"
    );
    assert!(report.contains("defender 1"), "what play gave: {report}");
    // And from the command line: exit 1, the failure named.
    let out = sandtable(&["examples", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("FAILED  8"), "{stdout}");
    assert!(
        stderr(&out).contains("diverged at step"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn sandtable_examples_runs_a_games_examples_and_exits_0_when_all_pass() {
    let out = sandtable(&["examples", "content/berlin-1945"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", stderr(&out));
    assert!(
        stdout.contains("passed  8        rule_8_combat_at_lebus"),
        "{stdout}"
    );
    let json = sandtable(&["examples", "content/berlin-1945", "--json", "--only", "8"]);
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(rows[0]["passed"], true, "{rows}");
}

#[test]
fn an_examples_unknown_unit_place_table_column_or_phase_is_reported_where_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("content/berlin-1945"), dir.path());
    let path = dir.path().join("examples/rule_8_combat_at_lebus.ron");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replacen(
            r#"(unit: "su_8ga.2", at: "goeritz")"#,
            r#"(unit: "su_8ga.3", at: "goritz")"#,
            1,
        )
        .replacen(r#"column: "3:1""#, r#"column: "3-1""#, 1)
        .replacen(r#"phase: "operations""#, r#"phase: "operation""#, 1);
    std::fs::write(&path, text).unwrap();
    let loaded = load_dir(dir.path());
    let lines: Vec<String> = loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:#?}");
    for (what, hint) in [
        ("unknown phase `operation`", ""),
        ("no piece `su_8ga.3`", ""),
        ("unknown space `goritz`", ""),
        ("table `crt` has no column `3-1`", ""),
    ] {
        assert!(
            lines.iter().any(|l| l.contains(what)
                && l.contains(hint)
                && l.contains("examples/rule_8_combat_at_lebus.ron:")),
            "{what}: {lines:#?}"
        );
    }
}

/// The report of an example of a bundled game run on a copy of the game whose `game.ron` has
/// `old` replaced by `new`, if it failed.
fn run_changed(game: &str, (old, new): (&str, &str), id: &str) -> Option<String> {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&root().join("content").join(game), dir.path());
    let path = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(old), "{game}'s game.ron holds `{old}`");
    std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
    let loaded = load_dir(dir.path());
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    let e = loaded
        .content
        .examples
        .iter()
        .find(|e| e.data.id == id)
        .unwrap();
    let outcome = examples::run(&loaded.content, e);
    outcome.diagnostic().map(|d| loaded.sources.render(d))
}

#[test]
fn stacking_held_at_each_step_of_a_move_fails_the_examples_of_a_move_through_a_full_space() {
    // Berlin 1945's 6.1.1 and Barbarossa to Berlin's 9.1: with `pass_through: Never` (the
    // default) a unit may not enter the full space on its way.
    let berlin = run_changed(
        "berlin-1945",
        ("pass_through: OverLimits,", ""),
        "rule_6_1_1_through_full_baruth_to_dahme",
    )
    .expect("the example fails");
    assert!(
        berlin.contains("`move su_3ga.1 baruth` is not offered"),
        "{berlin}"
    );
    let b2b = run_changed(
        "barbarossa-to-berlin",
        ("pass_through: Always,", ""),
        "rule_9_1_a_german_army_moves_through_full_berlin",
    )
    .expect("the example fails");
    assert!(
        b2b.contains("`move ge_1st_army berlin` is not offered"),
        "{b2b}"
    );
}
