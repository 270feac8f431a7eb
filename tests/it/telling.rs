//! Issue 19, from outside: `sandtable play` tells what each action did in names, not ids
//! (moves, combats with their odds and rolls, eliminations, markers, tracks), prints the
//! prompt in words beside the actions' text forms, and `--why ACTION` says why an action is
//! not legal, citing the hook and rule that forbid it.

use std::path::Path;

use crate::cli::{sandtable as run, stderr};

fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What `play` told on stderr, with the actions file's folder taken off its places.
fn told(out: &std::process::Output, dir: &Path) -> String {
    stderr(out).replace(&format!("{}/", dir.display()), "")
}

/// Plays `actions` (one a line) on a scenario, with extra arguments.
fn play(
    dir: &Path,
    game: &str,
    scenario: &str,
    actions: &[&str],
    extra: &[&str],
) -> std::process::Output {
    let log = dir.join("game.log");
    std::fs::write(&log, actions.join("\n") + "\n").unwrap();
    let content = format!("content/{game}");
    let args = [
        &[
            "play",
            content.as_str(),
            "--scenario",
            scenario,
            "--actions",
        ][..],
        &[log.to_str().unwrap()],
        extra,
    ]
    .concat();
    run(&args)
}

/// Barbarossa to Berlin's opening, to the Soviet fronts' moves (seed 1), one action a line.
const B2B_OPENING_LOG: &str = include_str!("../fixtures/b2b-opening.log");

/// The opening's actions.
pub(crate) fn b2b_opening() -> Vec<&'static str> {
    B2B_OPENING_LOG.lines().collect()
}

#[test]
fn play_tells_each_actions_moves_markers_and_victory_points_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let out = play(
        dir.path(),
        "barbarossa-to-berlin",
        "campaign",
        &b2b_opening(),
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = told(&out, dir.path());
    for line in [
        "game.log:4: choose kovel kolomyja courland",
        "    Stand Fast placed in Courland, Kolomyja and Kovel.",
        "    Barbarossa is played.",
        "    Northwest Front moves from Kaunas to Riga.",
        // Leaving a Stand Fast space costs a victory point (the rules' own message).
        "game.log:14: note: Allied leaves Courland against Stand Fast orders: 1 VP.",
        "    Victory Points: 8 (was 7).",
        "    Stand Fast removed from Courland.",
    ] {
        assert!(
            err.lines().any(|l| l == line),
            "no line `{line}` in:\n{err}"
        );
    }
}

#[test]
fn play_tells_a_combat_with_its_table_odds_roll_and_result_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let actions = [
        "move ge_pz_army.3 0625",
        "done",
        "attack 0724",
        "choose ge_pz_army.3",
    ];
    let out = play(
        dir.path(),
        "spi-barbarossa",
        "barbarossa",
        &actions,
        &["--dice", "6"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The defender's choice of table, each action in its text form and in words.
    let said = stdout(&out);
    assert!(
        said.contains("Soviet decides: ")
            && said.contains("Combat at 0724: the defender chooses the results table"),
        "{said}"
    );
    assert!(
        said.lines().any(|l| l.starts_with("  table crt_yield ")
            && l.ends_with("table Combat Results Table II (the defender gives ground)")),
        "{said}"
    );
    let out = play(
        dir.path(),
        "spi-barbarossa",
        "barbarossa",
        &[&actions[..], &["table crt_yield"]].concat(),
        &["--dice", "6"],
    );
    let err = told(&out, dir.path());
    let note = err
        .lines()
        .find(|l| l.starts_with("game.log:5: note: "))
        .unwrap_or_else(|| panic!("no note of the combat in:\n{err}"));
    assert!(
        note.contains("attacks 0724 on Combat Results Table II (the defender gives ground): 13 against 8 (1:1), rolls 6"),
        "{note}"
    );
    assert!(
        err.lines()
            .any(|l| l == "    Panzer Army (11-8-8) #3 is eliminated in 0625."),
        "{err}"
    );
}

#[test]
fn why_cites_the_hook_and_rule_that_forbid_a_finnish_move_movement_k() {
    let dir = tempfile::tempdir().unwrap();
    let actions = [
        "move ge_inf_army.6 0528",
        "move ge_inf_army.6 0429",
        "move ge_luftwaffe.3 0328",
        "move ro_army.1 1036",
        "move ge_pz_army.3 0625",
        "move ge_pz_army.1 0618",
        "break ge_pz_army.4",
        "move ge_luftwaffe.1 0419",
        "break fi_army.1",
    ];
    let why = |action: &str| {
        let out = play(
            dir.path(),
            "spi-barbarossa",
            "barbarossa",
            &actions,
            &["--why", action],
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    // Beyond the Finns' six hexes (Movement K).
    let said = why("move fi_corps.4 1802");
    for line in [
        "Finnish Corps (1-2-2) #4 stands in 1902.",
        "1802 is next to 1902: the step costs 3 movement points.",
        "A step from 1902 to 1802 is forbidden (hooks: finns_six_hexes (Movement K)).",
    ] {
        assert!(said.lines().any(|l| l == line), "no `{line}` in:\n{said}");
    }
    assert!(
        said.contains("Legal actions begin with `move fi_corps.4` but go on with"),
        "{said}"
    );
    // Into a hex the enemy holds.
    let said = why("move fi_corps.4 1903");
    assert!(
        said.contains("Enemy units stand in 1903: Soviet Rifle Army (2-4-2) #2."),
        "{said}"
    );
    // A verb the decision does not take.
    let said = why("attack 1903");
    assert!(
        said.contains("No legal action begins with `attack`"),
        "{said}"
    );
    // A legal action is said to be legal.
    assert!(why("move fi_corps.4 2003").contains("is legal now"));
}

#[test]
fn why_says_what_a_multiple_choice_takes() {
    let dir = tempfile::tempdir().unwrap();
    let actions = ["move ge_pz_army.3 0625", "done", "attack 0724"];
    let out = play(
        dir.path(),
        "spi-barbarossa",
        "barbarossa",
        &actions,
        &["--why", "choose ge_pz_army.3 ge_pz_army.1"],
    );
    let said = stdout(&out);
    assert!(said.contains("Which units attack 0724?"), "{said}");
    assert!(
        said.contains("`ge_pz_army.1` (Panzer Army (11-8-8) #1) is not among the things to pick."),
        "{said}"
    );
}
