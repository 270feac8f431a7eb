//! The Examples panel: a game's rulebook examples run at every change, the ones a change broke
//! named at once, and an example opened as a playtest at its position.

mod common;

use egui_kittest::kittest::Queryable as _;
use egui_kittest::Harness;
use sandtable_editor::{EditorApp, Section};
use sandtable_engine::model::{Cell, RowKey, Scalar, TablesFile};
use sandtable_engine::state::Loc;

fn berlin_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../content/berlin-1945"),
        dir.path(),
    );
    dir
}

fn harness(folder: &std::path::Path) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::open(folder),
        )
}

#[test]
fn the_examples_panel_runs_rule_8s_example_and_opens_it_as_a_playtest_at_its_position() {
    let dir = berlin_copy();
    let mut h = harness(dir.path());
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Examples")
        .click();
    h.run();
    assert_eq!(h.state().section, Section::Examples);
    let n = h.state().loaded.content.examples.len();
    h.get_by_label_contains(&format!("{n} of {n} pass"));
    assert_eq!(h.get_all_by_label("passed").count(), n);
    // The rows are in the rulebook's order: rule 8's button is its row's.
    let rules: Vec<String> = h
        .state()
        .examples
        .runs
        .iter()
        .map(|r| r.rule.clone())
        .collect();
    let i10 = rules.iter().position(|r| r == "10.2.1").unwrap();
    let i2 = rules.iter().position(|r| r == "2.1.1").unwrap();
    assert!(i2 < i10, "2.1.1 comes before 10.2.1: {rules:?}");
    let row = h
        .state()
        .examples
        .runs
        .iter()
        .position(|r| r.id == "rule_8_combat_at_lebus")
        .unwrap();
    h.get_all_by_role_and_label(egui::accesskit::Role::Button, "Open in playtest")
        .nth(row)
        .unwrap()
        .click();
    h.run();
    assert_eq!(h.state().section, Section::Playtest);
    let p = h
        .state()
        .playtest
        .as_ref()
        .expect("a playtest at the example's start");
    let state = p.session.state();
    let goeritz = state
        .units
        .iter()
        .find(|u| u.name(&p.content) == "su_8ga.2")
        .unwrap();
    assert_eq!(goeritz.at, Loc::Space("goeritz".into()));
    assert_eq!(p.session.prompt().unwrap().kind, "activate");
}

#[test]
fn a_combat_table_cell_changed_in_the_editor_names_the_example_it_broke() {
    let dir = berlin_copy();
    let mut h = harness(dir.path());
    h.run();
    h.state_mut().section = Section::Examples;
    h.run();
    assert_eq!(h.state().examples.failed(), 0);
    // The CRT's 3:1 column on a 5: D2R in the printed example, made D1.
    let changed = h.state_mut().edit::<TablesFile>("tables.ron", "cell", |f| {
        let crt = f.tables.iter_mut().find(|t| t.id == "crt").unwrap();
        let row = crt
            .rows
            .iter_mut()
            .find(|r| r.key == RowKey::One(5))
            .unwrap();
        row.cells[4] = Cell::Record([("defender".to_string(), Scalar::Int(1))].into());
        Ok(())
    });
    assert!(changed);
    h.run();
    assert_eq!(h.state().examples.failed(), 1);
    h.get_by_label_contains("The last change broke: 8 (rule_8_combat_at_lebus)");
    h.get_by_label("FAILED");
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Examples (1 failing)");
    // Undone, it passes again, and the panel says the undo mended it.
    h.state_mut().undo();
    h.run();
    assert_eq!(h.state().examples.failed(), 0);
    h.get_by_label_contains("The last change mended: 8");
}
