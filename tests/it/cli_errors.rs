//! Issue 15 from outside: never crash, never hang, never lose a file. Missing, unreadable and
//! wrong-kind files each get their own diagnostic; `play` shows what scripts said; bad numbers
//! and endless or binary inputs are refused; one exit-code rule for every command; a closed
//! output pipe ends a command quietly; `fmt` keeps links and modes.

use std::os::unix::fs::{symlink, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::{copy_tree, root};

use crate::cli::{sandtable as run, stderr};

fn game(name: &str) -> PathBuf {
    root().join("content").join(name)
}

/// A copy of a game folder in a temporary folder (kept alive by the returned guard).
fn copy(from: &Path) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("game");
    copy_tree(from, &to);
    (dir, to)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The `error[...]` lines of a validate run.
fn error_lines(out: &Output) -> Vec<String> {
    stderr(out)
        .lines()
        .filter(|l| l.contains(": error["))
        .map(str::to_string)
        .collect()
}

const GAMES: [&str; 2] = ["barbarossa-to-berlin", "berlin-1945"];

#[test]
fn a_missing_required_file_is_one_error_naming_it_and_silences_its_cascade() {
    for g in GAMES {
        for file in ["game.ron", "map.ron", "counters.ron"] {
            let (_guard, dir) = copy(&game(g));
            std::fs::remove_file(dir.join(file)).unwrap();
            let out = run(&["validate", s(&dir)]);
            assert_eq!(out.status.code(), Some(1), "{g} without {file}");
            let errors = error_lines(&out);
            assert_eq!(errors.len(), 1, "{g} without {file}:\n{}", stderr(&out));
            let path = format!("{}/{file}:", dir.display());
            assert!(errors[0].starts_with(&path), "{}", errors[0]);
            assert!(errors[0].contains(": error[E0003]:"), "{}", errors[0]);
        }
    }
}

#[test]
fn a_game_folder_without_a_scenario_is_an_error() {
    for g in GAMES {
        let (_guard, dir) = copy(&game(g));
        std::fs::remove_dir_all(dir.join("scenarios")).unwrap();
        let out = run(&["validate", s(&dir)]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let errors = error_lines(&out);
        assert_eq!(errors.len(), 1, "{g}:\n{}", stderr(&out));
        assert!(errors[0].contains("error[E0004]"), "{}", errors[0]);
        assert!(!stderr(&out).contains("0 scenarios"), "{}", stderr(&out));
    }
}

#[test]
fn a_folder_where_a_content_file_should_be_is_its_own_error() {
    let (_guard, dir) = copy(&game("berlin-1945"));
    std::fs::remove_file(dir.join("map.ron")).unwrap();
    std::fs::create_dir(dir.join("map.ron")).unwrap();
    let out = run(&["validate", s(&dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let errors = error_lines(&out);
    assert_eq!(errors.len(), 1, "{}", stderr(&out));
    assert!(
        errors[0].starts_with(&format!("{}/map.ron:", dir.display())),
        "{}",
        errors[0]
    );
    assert!(errors[0].contains(": error[E0005]:"), "{}", errors[0]);
}

#[test]
fn a_content_file_that_is_not_utf8_is_reported_at_its_first_bad_byte() {
    let (_guard, dir) = copy(&game("berlin-1945"));
    let path = dir.join("counters.ron");
    let mut bytes = std::fs::read(&path).unwrap();
    let lines = bytes.iter().filter(|&&b| b == b'\n').count();
    bytes.extend_from_slice(b"  ab\xff\xfe\n");
    std::fs::write(&path, bytes).unwrap();
    let out = run(&["validate", s(&dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let errors = error_lines(&out);
    assert_eq!(errors.len(), 1, "{}", stderr(&out));
    let at = format!("{}:{}:5: error[E0006]:", path.display(), lines + 1);
    assert!(errors[0].starts_with(&at), "{at} in {}", errors[0]);
}

/// Whether this process runs as root, where permissions do not stop reads or writes.
fn running_as_root() -> bool {
    let probe = tempfile::NamedTempFile::new().unwrap();
    probe.as_file().metadata().unwrap().uid() == 0
}

#[test]
fn an_unreadable_content_file_is_reported_by_itself() {
    if running_as_root() {
        // Root reads a file whatever its mode; nothing to test here.
        return;
    }
    let (_guard, dir) = copy(&game("berlin-1945"));
    let path = dir.join("map.ron");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = run(&["validate", s(&dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let errors = error_lines(&out);
    assert_eq!(errors.len(), 1, "{}", stderr(&out));
    assert!(errors[0].contains("map.ron: error[E0002]"), "{}", errors[0]);
}

/// A copy of Barbarossa to Berlin whose weather script (run at the start of every turn) begins
/// with `line`.
fn b2b_with_weather_line(line: &str) -> (tempfile::TempDir, PathBuf) {
    let (guard, dir) = copy(&game("barbarossa-to-berlin"));
    let path = dir.join("game.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let anchor = "// 15.2: in Winter 42, unless";
    assert!(text.contains(anchor));
    std::fs::write(
        &path,
        text.replacen(anchor, &format!("{line}\n{anchor}"), 1),
    )
    .unwrap();
    (guard, dir)
}

#[test]
fn play_prints_the_messages_of_scripts_that_fail_or_run_out_of_steps() {
    let cases = [
        ("let boom = 1 / (turn() - turn())", "division by zero"),
        (
            "for a in spaces() { for b in spaces() { for c in spaces() { set_flag(winter_42_cancelled) } } }",
            "steps",
        ),
    ];
    for (line, said) in cases {
        let (_guard, dir) = b2b_with_weather_line(line);
        // The Axis player's first decision (4.3), then the first turn's weather runs.
        let actions = dir.join("start.log");
        std::fs::write(&actions, "take barbarossa\n").unwrap();
        let opening = ["--actions", s(&actions)];
        let out = run(&[&["play", s(&dir), "--scenario", "campaign"][..], &opening].concat());
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let err = stderr(&out);
        let note = err
            .lines()
            .find(|l| l.contains("note: ") && l.contains("Weather"))
            .unwrap_or_else(|| panic!("no note of the weather script in:\n{err}"));
        assert!(note.contains(said), "{note}");
        // The prompt on stdout stays JSON with --prompt json.
        let out = run(&[
            &[
                "play",
                s(&dir),
                "--scenario",
                "campaign",
                "--prompt",
                "json",
            ][..],
            &opening,
        ]
        .concat());
        assert!(serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok());
        assert!(stderr(&out).contains(said));
    }
}

#[test]
fn odds_refuses_strengths_of_zero_or_below() {
    let berlin = game("berlin-1945");
    for (a, d) in [("0", "0"), ("0", "3"), ("3", "0"), ("-2", "3")] {
        let out = run(&[
            "odds",
            s(&berlin),
            "--table",
            "crt",
            "--attacker",
            a,
            "--defender",
            d,
        ]);
        assert_eq!(out.status.code(), Some(2), "{a}:{d}: {}", stderr(&out));
        assert!(stderr(&out).contains("--attacker"), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{a}:{d}");
    }
}

#[test]
fn die_results_outside_the_faces_are_refused_in_arguments_and_in_the_log() {
    let b2b = game("barbarossa-to-berlin");
    for dice in ["0", "7", "3,7"] {
        let out = run(&["play", s(&b2b), "--scenario", "campaign", "--dice", dice]);
        assert_eq!(out.status.code(), Some(2), "--dice {dice}");
        assert!(stderr(&out).contains("not a face"), "{}", stderr(&out));
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("dice.log");
    std::fs::write(&log, "# a die override out of range\ndice 7 7\n").unwrap();
    let out = run(&[
        "play",
        s(&b2b),
        "--scenario",
        "campaign",
        "--actions",
        s(&log),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!(
            "{}:2: error: illegal action `dice 7 7`",
            log.display()
        )),
        "{}",
        stderr(&out)
    );
}

#[test]
fn play_stops_reading_an_endless_actions_file_at_the_limit() {
    let out = run(&[
        "play",
        "content/berlin-1945",
        "--scenario",
        "standard",
        "--actions",
        "/dev/zero",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("longer than 16 MiB"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_binary_actions_file_is_reported_at_its_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    for (bytes, at) in [
        (&b"# fine\nab\x00cd\n"[..], ":2:3:"),
        (&b"\n\n\xc3\x28\n"[..], ":3:1:"),
    ] {
        let log = dir.path().join("binary.log");
        std::fs::write(&log, bytes).unwrap();
        let out = run(&[
            "play",
            "content/berlin-1945",
            "--scenario",
            "standard",
            "--actions",
            s(&log),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        let expected = format!("{}{at} error: ", log.display());
        assert!(
            stderr(&out).starts_with(&expected),
            "{expected} in {}",
            stderr(&out)
        );
    }
}

#[test]
fn the_rules_refuse_a_die_override_outside_the_die_faces_and_change_nothing() {
    use sandtable_engine::rules::{self, Rules};
    let content = crate::cards::b2b();
    let r = Rules::new(content, "campaign").unwrap();
    assert!(rules::start(&r, 1, &[], &[7]).is_err());
    assert!(rules::start(&r, 1, &[], &[0]).is_err());
    let mut state = rules::start(&r, 1, &[], &[6, 1]).unwrap();
    let before = state.clone();
    for bad in ["dice 7", "dice 0", "dice 6 7", "dice -1"] {
        assert!(rules::apply(&r, &mut state, bad).is_err(), "{bad}");
        assert!(state == before, "{bad}");
    }
    assert!(rules::apply(&r, &mut state, "dice 6 1").is_ok());
}

/// What a row of the exit-code table needs prepared.
struct Fixture {
    _guard: tempfile::TempDir,
    /// A copy of Berlin 1945.
    game: PathBuf,
    /// A copy of Berlin 1945 with a syntax error in counters.ron.
    broken: PathBuf,
    /// A plain file.
    file: PathBuf,
    /// A folder that does not exist.
    missing: PathBuf,
    /// A file of actions that is not text.
    binary: PathBuf,
    /// A file whose second action is not legal.
    illegal: PathBuf,
    /// A copy of Berlin 1945 whose map.ron is not canonical and cannot be replaced (a folder
    /// stands where fmt writes its temporary file: this stops root too).
    unwritable: PathBuf,
}

fn fixture() -> Fixture {
    let guard = tempfile::tempdir().unwrap();
    let base = guard.path();
    let game = base.join("berlin");
    copy_tree(&crate::root().join("content/berlin-1945"), &game);
    let broken = base.join("broken");
    copy_tree(&game, &broken);
    let counters = broken.join("counters.ron");
    let text = std::fs::read_to_string(&counters).unwrap();
    std::fs::write(&counters, text.replacen('[', "[ ,,", 1)).unwrap();
    let file = base.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let binary = base.join("binary.log");
    std::fs::write(&binary, b"\x00\x01\x02").unwrap();
    let illegal = base.join("illegal.log");
    std::fs::write(&illegal, "# first\nno such action\n").unwrap();
    let unwritable = base.join("unwritable");
    copy_tree(&game, &unwritable);
    let map = unwritable.join("map.ron");
    let text = std::fs::read_to_string(&map).unwrap();
    std::fs::write(&map, format!("\n\n{text}")).unwrap();
    std::fs::create_dir(unwritable.join(".map.ron.sandtable-tmp")).unwrap();
    Fixture {
        missing: base.join("missing"),
        _guard: guard,
        game,
        broken,
        file,
        binary,
        illegal,
        unwritable,
    }
}

#[test]
fn every_command_exits_0_ok_1_for_content_or_actions_problems_2_for_usage_or_io() {
    let f = fixture();
    let (game, broken, file, missing) = (s(&f.game), s(&f.broken), s(&f.file), s(&f.missing));
    let sim = |dir: &str| -> Vec<String> {
        [
            "sim",
            dir,
            "--scenario",
            "standard",
            "--games",
            "1",
            "--max-actions",
            "50",
        ]
        .map(String::from)
        .to_vec()
    };
    let odds = |dir: &str| -> Vec<String> {
        [
            "odds",
            dir,
            "--table",
            "crt",
            "--attacker",
            "6",
            "--defender",
            "2",
        ]
        .map(String::from)
        .to_vec()
    };
    let play = |dir: &str| -> Vec<String> {
        ["play", dir, "--scenario", "standard"]
            .map(String::from)
            .to_vec()
    };
    let with = |mut base: Vec<String>, extra: &[&str]| {
        base.extend(extra.iter().map(|e| e.to_string()));
        base
    };
    let args = |a: &[&str]| a.iter().map(|e| e.to_string()).collect::<Vec<_>>();
    let mut rows: Vec<(&str, Vec<String>, i32)> = vec![
        ("validate ok", args(&["validate", game]), 0),
        ("validate missing folder", args(&["validate", missing]), 2),
        ("validate folder is a file", args(&["validate", file]), 2),
        ("validate broken content", args(&["validate", broken]), 1),
        ("fmt --check ok", args(&["fmt", "--check", game]), 0),
        ("fmt missing folder", args(&["fmt", missing]), 2),
        ("fmt folder is a file", args(&["fmt", file]), 2),
        ("fmt broken content", args(&["fmt", broken]), 1),
        ("fmt cannot write", args(&["fmt", s(&f.unwritable)]), 2),
        (
            "fmt --check not canonical",
            args(&["fmt", "--check", s(&f.unwritable)]),
            1,
        ),
        ("schema --check ok", args(&["schema", "--check"]), 0),
        (
            "schema --check stale",
            args(&["schema", "--check", "--dir", game]),
            1,
        ),
        ("schema cannot write", args(&["schema", "--dir", file]), 2),
        ("odds ok", odds(game), 0),
        ("odds missing folder", odds(missing), 2),
        ("odds folder is a file", odds(file), 2),
        ("odds broken content", odds(broken), 1),
        (
            "odds unknown table",
            args(&["odds", game, "--table", "nope", "--attacker", "1"]),
            2,
        ),
        (
            "odds zero strength",
            with(odds(game), &["--defender", "0"]),
            2,
        ),
        (
            "odds not a number",
            with(odds(game), &["--attacker", "six"]),
            2,
        ),
        ("play ok", play(game), 0),
        ("play missing folder", play(missing), 2),
        ("play folder is a file", play(file), 2),
        ("play broken content", play(broken), 1),
        (
            "play unknown scenario",
            args(&["play", game, "--scenario", "nope"]),
            2,
        ),
        (
            "play unknown option",
            with(play(game), &["--options", "nope"]),
            2,
        ),
        ("play bad seed", with(play(game), &["--seed", "-1"]), 2),
        (
            "play die off the die",
            with(play(game), &["--dice", "7"]),
            2,
        ),
        (
            "play missing actions",
            with(play(game), &["--actions", missing]),
            2,
        ),
        (
            "play actions are a folder",
            with(play(game), &["--actions", game]),
            2,
        ),
        (
            "play binary actions",
            with(play(game), &["--actions", s(&f.binary)]),
            1,
        ),
        (
            "play illegal action",
            with(play(game), &["--actions", s(&f.illegal)]),
            1,
        ),
        ("play cannot save", with(play(game), &["--save", game]), 2),
        ("sim missing folder", sim(missing), 2),
        ("sim folder is a file", sim(file), 2),
        ("sim broken content", sim(broken), 1),
        (
            "sim unknown scenario",
            args(&["sim", game, "--scenario", "nope"]),
            2,
        ),
        (
            "sim unknown option",
            with(sim(game), &["--options", "nope"]),
            2,
        ),
        ("sim no games", with(sim(game), &["--games", "0"]), 2),
        ("sim not a number", with(sim(game), &["--games", "many"]), 2),
        (
            "sim unknown agent",
            with(sim(game), &["--agent", "genius"]),
            2,
        ),
        (
            "sim --variant missing",
            with(sim(game), &["--variant", missing]),
            2,
        ),
        (
            "sim --variant a file",
            with(sim(game), &["--variant", file]),
            2,
        ),
        (
            "sim --variant broken",
            with(sim(game), &["--variant", broken]),
            1,
        ),
        (
            "sim --variant-options unknown",
            with(sim(game), &["--variant-options", "nope"]),
            2,
        ),
        (
            "sim --set unknown file",
            with(sim(game), &["--set", "nope.ron:/x=1"]),
            2,
        ),
        (
            "sim --set bad form",
            with(sim(game), &["--set", "no-equals"]),
            2,
        ),
        (
            "sim --sweep bad form",
            with(sim(game), &["--sweep", "map.ron:/x=a..b"]),
            2,
        ),
        (
            "sim --sweep broken content",
            with(sim(broken), &["--sweep", "map.ron:/x=1..2"]),
            1,
        ),
    ];
    let base = f.game.parent().unwrap().to_path_buf();
    // A folder where map.ron should be: the folder's content is wrong, for fmt as for validate.
    let wrong_kind = base.join("wrong-kind");
    copy_tree(&f.game, &wrong_kind);
    std::fs::remove_file(wrong_kind.join("map.ron")).unwrap();
    std::fs::create_dir(wrong_kind.join("map.ron")).unwrap();
    rows.push((
        "validate map.ron a folder",
        args(&["validate", s(&wrong_kind)]),
        1,
    ));
    rows.push(("fmt map.ron a folder", args(&["fmt", s(&wrong_kind)]), 1));
    rows.push((
        "sim --variant-options empty",
        with(sim(game), &["--variant-options", ""]),
        0,
    ));
    // Permissions stop a reader or a writer only when it is not root.
    let (unreadable, readonly) = (base.join("unreadable.log"), base.join("readonly"));
    let as_root = running_as_root();
    if !as_root {
        std::fs::write(&unreadable, "# nothing\n").unwrap();
        std::fs::set_permissions(&unreadable, std::fs::Permissions::from_mode(0o000)).unwrap();
        rows.push((
            "play unreadable actions",
            with(play(game), &["--actions", s(&unreadable)]),
            2,
        ));
        copy_tree(&f.unwritable, &readonly);
        std::fs::remove_dir(readonly.join(".map.ron.sandtable-tmp")).unwrap();
        std::fs::set_permissions(&readonly, std::fs::Permissions::from_mode(0o555)).unwrap();
        rows.push(("fmt read-only folder", args(&["fmt", s(&readonly)]), 2));
    }
    let mut wrong = Vec::new();
    for (what, args, code) in &rows {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&args);
        let err = stderr(&out);
        if out.status.code() != Some(*code) {
            wrong.push(format!(
                "{what}: exit {:?}, expected {code}: {err}",
                out.status.code()
            ));
        } else if err.contains("panicked") {
            wrong.push(format!("{what}: panicked: {err}"));
        } else if *code != 0 && err.trim().is_empty() {
            wrong.push(format!("{what}: no message on stderr"));
        }
    }
    if !as_root {
        // So that the temporary folder can be removed.
        std::fs::set_permissions(&readonly, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Runs a command whose stdout is a pipe closed before it writes: it must end quietly.
fn ends_quietly_when_its_output_closes(args: &[&str]) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sandtable"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the reading end at once: the command loads content first, so every line it
    // writes meets a closed pipe.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert_ne!(out.status.code(), Some(101), "{args:?}: {err}");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
}

#[test]
fn commands_end_quietly_when_their_output_pipe_closes() {
    let b2b = "content/barbarossa-to-berlin";
    ends_quietly_when_its_output_closes(&["sim", b2b, "--scenario", "campaign", "--games", "2"]);
    ends_quietly_when_its_output_closes(&["play", b2b, "--scenario", "campaign"]);
    ends_quietly_when_its_output_closes(&[
        "play",
        b2b,
        "--scenario",
        "campaign",
        "--state",
        "json",
    ]);
    ends_quietly_when_its_output_closes(&["validate", b2b, "--json"]);
    ends_quietly_when_its_output_closes(&[
        "odds",
        "content/berlin-1945",
        "--table",
        "crt",
        "--attacker",
        "6",
        "--defender",
        "2",
    ]);
}

/// A copy of Berlin 1945 whose map.ron is not in the canonical layout.
fn unformatted_copy() -> (tempfile::TempDir, PathBuf, String) {
    let (guard, dir) = copy(&game("berlin-1945"));
    let canonical = std::fs::read_to_string(dir.join("map.ron")).unwrap();
    std::fs::write(dir.join("map.ron"), format!("\n\n{canonical}")).unwrap();
    (guard, dir, canonical)
}

#[test]
fn fmt_formats_a_symlinked_file_through_the_link_and_keeps_the_link() {
    let (_guard, dir, canonical) = unformatted_copy();
    let elsewhere = dir.parent().unwrap().join("shared-map.ron");
    std::fs::rename(dir.join("map.ron"), &elsewhere).unwrap();
    symlink(&elsewhere, dir.join("map.ron")).unwrap();
    let out = run(&["fmt", s(&dir)]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let link = std::fs::symlink_metadata(dir.join("map.ron")).unwrap();
    assert!(
        link.file_type().is_symlink(),
        "the link was replaced by a file"
    );
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), canonical);
}

#[test]
fn fmt_keeps_each_file_mode() {
    for mode in [0o600, 0o755, 0o640] {
        let (_guard, dir, canonical) = unformatted_copy();
        let path = dir.join("map.ron");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
        let out = run(&["fmt", s(&dir)]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), canonical);
        let now = std::fs::metadata(&path).unwrap().permissions().mode() & 0o7777;
        assert_eq!(now, mode, "mode {mode:o} became {now:o}");
    }
}
