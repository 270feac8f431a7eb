//! GUI tests of hot reload: a rule change that makes an action play differently keeps every
//! action of the game reachable (the running line and the kept one), the report of what the
//! reload took stays on screen until dismissed, and a change that makes no difference says so
//! visibly, naming what it took. Whether the change comes from another program or from the
//! Cards panel with Ctrl+S.

mod common;

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::Harness;
use sandtable_editor::{EditorApp, Section};

fn harness(folder: &std::path::Path) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::open(folder),
        )
}

/// The actions that open the campaign before its first turn's Orders: Barbarossa for the Axis
/// hand (4.3), and the two Allied redraws of 4.4 declined.
const OPENING: usize = 3;

/// Starts a playtest followed on disk and plays the opening and five actions: the Stand Fast
/// markers, Barbarossa as an event, its Combat markers, then the first option twice.
fn five_actions(h: &mut Harness<'static, EditorApp>) -> Vec<String> {
    h.state_mut().watch_folder();
    h.state_mut().start_playtest();
    h.run_steps(2);
    let p = h.state_mut().playtest.as_mut().expect("a playtest");
    for action in ["take barbarossa", "choose no", "choose no"] {
        p.apply(action).unwrap();
    }
    for i in 0..5 {
        let p = h.state_mut().playtest.as_mut().expect("a playtest");
        let prompt = p.session.prompt().cloned().expect("a decision");
        let action = match (i, prompt.pick) {
            (1, _) => "event barbarossa".to_string(),
            (_, Some((min, _))) => format!("choose {}", prompt.options()[..min].join(" ")),
            (_, None) => prompt.options()[0].clone(),
        };
        p.apply(&action).unwrap();
    }
    h.run_steps(1);
    h.state().playtest.as_ref().unwrap().session.log().to_vec()
}

/// Another program changes a file of the folder: the first `from` becomes `to`.
fn change_on_disk(dir: &std::path::Path, file: &str, from: &str, to: &str) {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
}

/// Steps frames until a reload has reported, then a while longer, so that every event the
/// save caused (several, for one save) has been taken.
fn until_reported(h: &mut Harness<'static, EditorApp>) {
    let reported = |h: &Harness<'static, EditorApp>| {
        h.state()
            .playtest
            .as_ref()
            .is_some_and(|p| !p.reports.is_empty())
    };
    for _ in 0..150 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(1);
        if reported(h) {
            break;
        }
    }
    assert!(reported(h), "no reload: {}", h.state().report);
    for _ in 0..25 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        h.run_steps(1);
    }
}

/// The whole game stays reachable after a reload that diverged at the Barbarossa event: the
/// actions before it go on, all are listed in the kept line, and returning to it plays them
/// all again.
fn the_whole_log_stays_reachable(h: &mut Harness<'static, EditorApp>, before: &[String]) {
    let p = h.state().playtest.as_ref().unwrap();
    assert_eq!(p.session.log(), &before[..OPENING + 1]);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].actions, before);
    assert_eq!(p.reports.len(), 1, "one save, one report");
    // The report names the action and the card, and stays on screen.
    let event = format!(
        "action {} (`event barbarossa`) now plays differently",
        OPENING + 2
    );
    h.get_by_label_contains(&event);
    h.get_by_label_contains("barbarossa › effect");
    // Every action of the kept line is listed.
    h.get_by_label("The actions of before reload 1").click();
    h.run_steps(1);
    // (Those before the event are in the running log too.)
    for (n, action) in before.iter().enumerate() {
        let said = h.state().loaded.content.names().action(action);
        let label = format!("{:>4}  {said}", n + 1);
        let shown = h.query_all_by_label(&label).count();
        assert_eq!(shown, if n <= OPENING { 2 } else { 1 }, "{label}");
    }
    h.get_by_role_and_label(Role::Button, "Return to before reload 1")
        .click();
    h.run_steps(2);
    let p = h.state().playtest.as_ref().unwrap();
    assert_eq!(
        p.session.log(),
        before,
        "all are played again: {}",
        h.state().report
    );
    h.get_by_label_contains("runs on the rules of an earlier line");
    // The report stays until dismissed.
    h.get_by_label_contains(&event);
    h.get_by_role_and_label(Role::Button, "Dismiss").click();
    h.run_steps(2);
    assert!(h.query_by_label_contains("now plays differently").is_none());
}

#[test]
fn a_rule_changed_on_disk_that_diverges_keeps_every_action_and_the_report_on_screen() {
    let dir = common::copy_of_bundled();
    let mut h = harness(dir.path());
    let before = five_actions(&mut h);
    change_on_disk(
        dir.path(),
        "cards/axis.ron",
        "place_markers(combat, choose(5,",
        "place_markers(combat, choose(4,",
    );
    until_reported(&mut h);
    the_whole_log_stays_reachable(&mut h, &before);
}

#[test]
fn a_rule_changed_in_the_cards_panel_and_saved_keeps_every_action_and_the_report_on_screen() {
    let dir = common::copy_of_bundled();
    let mut h = harness(dir.path());
    let before = five_actions(&mut h);
    h.state_mut().section = Section::Cards;
    h.state_mut().cards.search = "barbarossa".into();
    h.run_steps(1);
    h.get_by_label("axis 1: Barbarossa").click();
    h.run_steps(1);
    let effect = h
        .get_by(|n| n.data().placeholder() == Some("Event effect"))
        .value()
        .unwrap();
    let changed = effect.replacen("choose(5,", "choose(4,", 1);
    assert_ne!(changed, effect);
    h.get_by(|n| n.data().placeholder() == Some("Event effect"))
        .focus();
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(|n| n.data().placeholder() == Some("Event effect"))
        .type_text(&changed);
    h.run_steps(1);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(1);
    assert!(!h.state().doc.is_dirty(), "{}", h.state().status);
    h.state_mut().section = Section::Playtest;
    until_reported(&mut h);
    the_whole_log_stays_reachable(&mut h, &before);
}

#[test]
fn a_table_cell_changed_on_disk_says_visibly_that_it_made_no_difference_and_where_it_was() {
    let dir = common::copy_of_bundled();
    let mut h = harness(dir.path());
    let before = five_actions(&mut h);
    change_on_disk(
        dir.path(),
        "tables.ron",
        "(key: 8, cells: [6])",
        "(key: 8, cells: [7])",
    );
    until_reported(&mut h);
    assert_eq!(h.state().playtest.as_ref().unwrap().session.log(), before);
    h.get_by_label_contains(&format!(
        "took tables.ron: replayed all {} actions on the changed rules, no difference",
        OPENING + 5
    ));
    h.get_by_label_contains("winter_vp_requirement › rows › 4 › cells › 1: 6 → 7");
}

#[test]
fn reading_the_folder_is_not_a_change_so_a_reload_does_not_cause_the_next() {
    let dir = common::copy_of_bundled();
    let watch = sandtable_editor::Watch::folder(dir.path()).unwrap();
    let settle = |watch: &sandtable_editor::Watch| {
        (0..20).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(20));
            watch.changed()
        })
    };
    // A reload reads every file of the folder.
    let loaded = sandtable_engine::load::load_dir(dir.path());
    assert!(!loaded.has_errors());
    assert!(!settle(&watch), "reading is not a change");
    change_on_disk(
        dir.path(),
        "tables.ron",
        "(key: 8, cells: [6])",
        "(key: 8, cells: [7])",
    );
    assert!(settle(&watch), "writing is");
    assert!(!settle(&watch), "and is reported once");
}
