//! Hot reload keeps every game: a change of rules that makes an action play differently keeps
//! the whole log as a line (to return to, replay as far as it goes, or discard), a second
//! reload of the same files changes nothing, and every reload names what it took.

use sandtable_engine::load::load_dir;
use sandtable_engine::playtest::{DivergenceKind, Playtest, Reload};
use sandtable_engine::session::Setup;

fn campaign() -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed: 1,
        dice: Vec::new(),
        position: None,
    }
}

/// The actions that open the campaign before its first turn's Orders: Barbarossa for the Axis
/// hand (4.3), and the Allied redraws of 4.4 declined.
const OPENING: usize = 3;

/// A playtest of a copy of Barbarossa to Berlin, with the opening (`OPENING` actions) and five
/// actions played: the Stand Fast markers, Barbarossa as an event, its Combat markers, and two
/// more first options.
fn five_actions_played() -> (tempfile::TempDir, Playtest) {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    let loaded = load_dir(dir.path());
    assert!(!loaded.has_errors());
    let mut p = Playtest::with_sources(loaded.content, loaded.sources, campaign()).unwrap();
    p.apply("take barbarossa").unwrap();
    p.apply("choose no").unwrap();
    p.apply("choose no").unwrap();
    assert_eq!(p.session.log().len(), OPENING);
    for i in 0..5 {
        let prompt = p.session.prompt().cloned().expect("a decision");
        let action = match (i, prompt.pick) {
            (1, _) => "event barbarossa".to_string(),
            (_, Some((min, _))) => format!("choose {}", prompt.options()[..min].join(" ")),
            (_, None) => prompt.options()[0].clone(),
        };
        p.apply(&action).unwrap();
    }
    assert_eq!(p.session.log().len(), OPENING + 5);
    (dir, p)
}

fn edit(dir: &std::path::Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

#[test]
fn a_reload_that_changes_an_action_keeps_the_whole_log_as_a_line_and_a_second_reload_loses_nothing()
{
    let (dir, mut p) = five_actions_played();
    let before: Vec<String> = p.session.log().to_vec();
    edit(
        dir.path(),
        "cards/axis.ron",
        "place_markers(combat, choose(5,",
        "place_markers(combat, choose(4,",
    );
    let r = p.reload(load_dir(dir.path()));
    let Reload::Replayed(Some(d)) = &r else {
        panic!("{r:?}")
    };
    assert_eq!(
        (d.index, d.action.as_str()),
        (OPENING + 1, "event barbarossa")
    );
    assert!(matches!(d.kind, DivergenceKind::Changed(_)));
    assert_eq!(
        p.session.log(),
        &before[..OPENING + 1],
        "the action before it goes on"
    );
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].actions, before, "every action is kept");
    let report = &p.reports[0];
    let headline = report.headline();
    assert!(headline.contains("cards/axis.ron"), "{headline}");
    assert!(
        headline.contains(&format!("action {} (`event barbarossa`)", OPENING + 2)),
        "{headline}"
    );
    let details = report.details().join("\n");
    assert!(
        details.contains("barbarossa › effect: line 2: `place_markers(combat, choose(5,"),
        "{details}"
    );
    assert!(details.contains("choose(4,"), "{details}");
    // What the action did, and what differs after it, in names (issue 19).
    assert!(
        details.contains("before the change it did: it led to the decision \"Axis decides: ")
            && details.contains("Barbarossa: choose 5 of 38 spaces"),
        "{details}"
    );
    assert!(
        details.contains("Barbarossa: choose 4 of 38 spaces, pick 4 of 38\" on the changed rules."),
        "{details}"
    );

    // The watcher sees the same save again: nothing changes, nothing is lost.
    assert_eq!(p.reload(load_dir(dir.path())), Reload::Unchanged);
    assert_eq!(p.session.log(), &before[..OPENING + 1]);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.reports.len(), 1, "the report stays");

    // The kept line replays on the new rules up to its third action (five markers where four
    // are asked for); the line stays kept.
    let stop = p
        .replay_here(0)
        .unwrap()
        .expect("the choice of five no longer fits");
    assert_eq!(stop.index, OPENING + 2);
    assert_eq!(p.session.log(), &before[..OPENING + 2]);
    assert_eq!(p.lines.len(), 1);

    // Returning to it plays all five on the old rules; the line on the new rules is kept.
    assert!(p.return_to(0).unwrap().is_none());
    assert_eq!(p.session.log(), &before[..]);
    assert!(!p.on_latest_rules());
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].actions, &before[..OPENING + 2]);

    // Taking the files' rules again diverges again, and keeps the five once more.
    let r = p.reload(load_dir(dir.path()));
    assert!(matches!(r, Reload::Replayed(Some(_))), "{r:?}");
    assert!(p.on_latest_rules());
    assert!(p.lines.iter().any(|l| l.actions == before));

    p.dismiss(0);
    assert_eq!(p.reports.len(), 1);
    p.discard(0);
    assert_eq!(p.lines.len(), 1);
}

#[test]
fn a_table_cell_changed_on_disk_is_reported_by_its_place_when_play_does_not_change() {
    let (dir, mut p) = five_actions_played();
    edit(
        dir.path(),
        "tables.ron",
        "(key: 8, cells: [6])",
        "(key: 8, cells: [7])",
    );
    assert_eq!(p.reload(load_dir(dir.path())), Reload::Replayed(None));
    assert_eq!(p.session.log().len(), OPENING + 5);
    assert!(p.lines.is_empty());
    let report = &p.reports[0];
    assert_eq!(
        report.headline(),
        format!(
            "Reload 1 took tables.ron: replayed all {} actions on the changed rules, no difference.",
            OPENING + 5
        )
    );
    assert_eq!(
        report.details(),
        ["changed: tables.ron: tables › winter_vp_requirement › rows › 4 › cells › 1: 6 → 7"]
    );
}

#[test]
fn content_that_does_not_check_is_reported_and_keeps_the_last_good_rules_and_the_log() {
    let (dir, mut p) = five_actions_played();
    edit(
        dir.path(),
        "tables.ron",
        "id: \"lcu_fire\"",
        "id: \"lcu_fire\" oops",
    );
    assert!(matches!(
        p.reload(load_dir(dir.path())),
        Reload::Rejected(_)
    ));
    assert_eq!(p.session.log().len(), OPENING + 5);
    assert!(p.reports[0].headline().contains("does not check"));
}

#[test]
fn a_saved_game_that_no_longer_plays_is_kept_whole_as_a_line() {
    let loaded = load_dir(crate::b2b());
    let (_, p) = five_actions_played();
    let mut actions = p.session.log().to_vec();
    actions[OPENING + 2] = "choose nowhere".into();
    let (p, stop) = Playtest::replayed(
        loaded.content,
        loaded.sources,
        campaign(),
        &actions,
        "saved game",
    )
    .unwrap();
    assert_eq!(stop.unwrap().index, OPENING + 2);
    assert_eq!(p.session.log().len(), OPENING + 2);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].actions, actions);
}

#[test]
fn loading_a_saved_game_over_a_running_one_keeps_the_running_one_as_a_line() {
    let (_dir, running) = five_actions_played();
    let played = running.session.log().to_vec();
    let loaded = load_dir(crate::b2b());
    let (mut p, stop) = Playtest::replayed(
        loaded.content,
        loaded.sources,
        campaign(),
        &played[..2],
        "saved game",
    )
    .unwrap();
    assert!(stop.is_none());
    p.keep_lines_of(running, "the game before loading");
    assert_eq!(p.session.log(), &played[..2]);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].actions, played);
    assert!(p.return_to(0).unwrap().is_none());
    assert_eq!(p.session.log(), played);
}
