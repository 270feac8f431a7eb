//! GUI tests of editing: each step a designer takes without a text editor (move a space,
//! change a connection, edit a card's effect and a table cell, change a setup, save) done
//! through the editor's widgets, with its result asserted on the files and the model.

mod common;

use common::{click_at, copy_of_bundled};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::Harness;
use sandtable_editor::map::Selected;
use sandtable_editor::{bundled_content, EditorApp, Quit, Section};
use sandtable_engine::model::{MapFile, ScenarioFile, TablesFile};

fn harness(folder: &std::path::Path) -> Harness<'static, EditorApp> {
    tall_harness(folder, 900.0)
}

/// A window tall enough to show a long panel whole (a space's inspector).
fn tall_harness(folder: &std::path::Path, height: f32) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, height))
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::open(folder),
        )
}

/// Presses the mouse at `from`, moves it to `to` in steps, and lets go.
fn drag(h: &mut Harness<'static, EditorApp>, from: egui::Pos2, to: egui::Pos2) {
    h.hover_at(from);
    h.run_steps(1);
    h.drag_at(from);
    h.run_steps(1);
    for k in 1..=5 {
        h.hover_at(from + (to - from) * (k as f32 / 5.0));
        h.run_steps(1);
    }
    h.drop_at(to);
    h.run_steps(2);
}

/// Opens the Problems panel and clicks the first problem (the content has one); its line.
fn open_first_problem(h: &mut Harness<'static, EditorApp>) -> String {
    h.run();
    assert!(h.state().loaded.has_errors());
    h.state_mut().section = Section::Problems;
    h.run();
    let line = h
        .state()
        .loaded
        .sources
        .render_line(&h.state().loaded.diagnostics[0]);
    h.get_by_label(&line).click();
    h.run();
    line
}

fn space_pos(h: &Harness<'static, EditorApp>, id: &str) -> sandtable_engine::model::Pos {
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    map.spaces.iter().find(|s| s.id == id).unwrap().pos.unwrap()
}

#[test]
fn a_space_dragged_on_the_map_keeps_its_new_position_and_undo_puts_it_back() {
    let dir = copy_of_bundled();
    let mut h = harness(dir.path());
    h.state_mut().section = Section::Map;
    // The graph view repaints on every frame: frames are stepped, not run to rest.
    h.run_steps(4);
    let before = space_pos(&h, "kiev");
    let from = h
        .state()
        .map
        .screen_pos(&h.ctx, "kiev")
        .expect("Kiev is drawn");
    drag(&mut h, from, from + egui::vec2(40.0, 25.0));
    let after = space_pos(&h, "kiev");
    assert!(
        after.x > before.x + 5.0 && after.y > before.y + 5.0,
        "Kiev moved from {before:?} to {after:?}"
    );
    assert!(h.state().doc.is_dirty());
    assert_eq!(h.state().doc.undo_label(), Some("move space Kiev"));
    assert!(h.state().loaded.errors().next().is_none());
    h.get_by_role_and_label(Role::Button, "Undo move space Kiev")
        .click();
    h.run_steps(2);
    assert_eq!(space_pos(&h, "kiev"), before);
    assert!(!h.state().doc.is_dirty());
}

#[test]
fn a_connection_made_a_river_crossing_in_the_inspector_is_written_to_the_map() {
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Map;
    h.state_mut().map.selected = Some(Selected::Connection("kiev".into(), "zhitomir".into()));
    h.run_steps(3);
    h.get_by_label("River crossing").click();
    h.run_steps(2);
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    let c = map
        .connections
        .iter()
        .find(|c| c.a == "kiev" && c.b == "zhitomir")
        .unwrap();
    assert_eq!(c.kinds, ["river"]);
    // The checked content follows the unsaved edit.
    let g = &h.state().loaded.content.graph;
    let (k, z) = (g.index_of("kiev").unwrap(), g.index_of("zhitomir").unwrap());
    assert_eq!(g.edges[g.edge_between(k, z).unwrap()].kinds, ["river"]);
    // Nothing is written until saved.
    let disk = std::fs::read_to_string(bundled_content().join("map.ron")).unwrap();
    assert!(disk.contains("(a: \"kiev\", b: \"zhitomir\", provenance"));
}

#[test]
fn spaces_and_connections_are_added_and_deleted_from_the_map_panel() {
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Map;
    h.state_mut().map.new_id = "test_town".into();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Add space").click();
    h.run_steps(2);
    assert!(h.state().loaded.content.graph.space("test_town").is_some());
    assert_eq!(
        h.state().map.selected,
        Some(Selected::Space("test_town".into()))
    );
    sandtable_editor::map::connect(h.state_mut(), "map.ron", "test_town", "kiev");
    h.run_steps(2);
    let g = &h.state().loaded.content.graph;
    assert_eq!(g.neighbour_ids("test_town"), ["kiev"]);
    h.get_by_role_and_label(Role::Button, "Delete connection")
        .click();
    h.run_steps(2);
    assert!(h
        .state()
        .loaded
        .content
        .graph
        .neighbour_ids("test_town")
        .is_empty());
    h.state_mut().map.selected = Some(Selected::Space("test_town".into()));
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Delete space")
        .click();
    h.run_steps(2);
    assert!(h.state().loaded.content.graph.space("test_town").is_none());
    assert!(!h.state().loaded.has_errors());
}

#[test]
fn a_typo_in_a_cards_effect_is_underlined_and_listed_with_its_line_then_fixed() {
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Cards;
    h.state_mut().cards.search = "taifun".into();
    h.run();
    h.get_by_label("axis 4: Taifun").click();
    h.run();
    // The card as printed.
    h.get_by_label("OPS 4");
    let effect = h
        .get_by(|n| n.data().placeholder() == Some("Event effect"))
        .value()
        .unwrap();
    let typo = effect.replace("set_flag(moscow_attackable)", "set_flag(moscow_atackable)");
    let editor = h.get_by(|n| n.data().placeholder() == Some("Event effect"));
    editor.focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(|n| n.data().placeholder() == Some("Event effect"))
        .type_text(&typo);
    h.run();
    // Listed beside the editor, with its line in the script ...
    h.get_by_label_contains("line 4: unknown");
    // ... and among the content's problems, at its line and column in the file.
    let problems: Vec<String> = h
        .state()
        .loaded
        .errors()
        .map(|d| h.state().loaded.sources.render_line(d))
        .collect();
    assert!(
        problems
            .iter()
            .any(|p| p.contains("cards/axis.ron:79:10") && p.contains("moscow_atackable")),
        "{problems:?}"
    );
    // Fixed by typing the right name back.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(|n| n.data().placeholder() == Some("Event effect"))
        .type_text(&effect);
    h.run();
    assert!(!h.state().loaded.has_errors());
    assert!(h.query_by_label_contains("line 4: unknown").is_none());
}

#[test]
fn a_table_cell_is_checked_as_it_is_typed() {
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Tables;
    h.run();
    h.get_by_label("LCU Fire Table").click();
    h.run();
    h.get_by_label("3+");
    let cell = |h: &Harness<'static, EditorApp>| {
        h.get_by(|n| n.data().placeholder() == Some("row 1, column 3"))
            .value()
            .unwrap()
    };
    assert_eq!(cell(&h), "1");
    h.get_by(|n| n.data().placeholder() == Some("row 1, column 3"))
        .focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(|n| n.data().placeholder() == Some("row 1, column 3"))
        .type_text("DR");
    h.run();
    // A symbol in a table of numbers: the checker says so.
    assert!(h.state().loaded.has_errors());
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(|n| n.data().placeholder() == Some("row 1, column 3"))
        .type_text("2");
    h.run();
    assert!(!h.state().loaded.has_errors());
    let tables: TablesFile = h.state().doc.parse("tables.ron").unwrap();
    let t = tables.tables.iter().find(|t| t.id == "lcu_fire").unwrap();
    assert_eq!(
        serde_json::to_value(&t.rows[0].cells[2]).unwrap(),
        serde_json::json!(2)
    );
    assert_eq!(cell(&h), "2");
}

#[test]
fn a_counter_dragged_onto_a_space_of_the_setup_map_is_set_up_there() {
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Scenarios;
    h.state_mut().scenario.search = "1st Panzer".into();
    h.run_steps(3);
    let before: ScenarioFile = h.state().doc.parse("scenarios/campaign.ron").unwrap();
    let source = h.get_by_label_contains("1st Panzer Army").rect().center();
    // Where Odessa is drawn on the setup map: the mini map spans the left column.
    let content = h.state().loaded.content.clone();
    let target = setup_map_pos(&h, &content, "odessa");
    drag(&mut h, source, target);
    let after: ScenarioFile = h.state().doc.parse("scenarios/campaign.ron").unwrap();
    assert_eq!(after.setup.len(), before.setup.len() + 1);
    let last = after.setup.last().unwrap();
    assert_eq!(
        last.at,
        sandtable_engine::model::Location::Space("odessa".into())
    );
    assert_eq!(last.counter, "ge_1st_pz_army");
    assert_eq!(h.state().scenario.space.as_deref(), Some("odessa"));
}

/// The screen position of a space on the Scenarios panel's setup map, found by clicking the
/// map's spaces' positions as the mini map lays them out (the left half of the panel).
fn setup_map_pos(
    h: &Harness<'static, EditorApp>,
    content: &sandtable_engine::content::Content,
    id: &str,
) -> egui::Pos2 {
    h.state()
        .scenario
        .map_pos(&content.graph, id)
        .expect("the setup map was drawn")
}

#[test]
fn ctrl_s_saves_canonically_and_the_running_playtest_replays_against_the_change() {
    let dir = copy_of_bundled();
    let mut h = harness(dir.path());
    h.state_mut().watch_folder();
    h.state_mut().start_playtest();
    h.run_steps(2);
    assert!(h.state().playtest.is_some());
    // An edit of the rules the playtest runs on: a fire table cell.
    let set = sandtable_editor::tables::set_cell(
        h.state_mut(),
        "tables.ron",
        0,
        0,
        0,
        sandtable_engine::model::Cell::Scalar(sandtable_engine::model::Scalar::Int(1)),
    );
    assert!(set);
    h.run_steps(1);
    h.get_by_label_contains("tables.ron  (tables) *");
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run_steps(1);
    assert!(!h.state().doc.is_dirty(), "{}", h.state().status);
    // The file on disk is what `sandtable fmt` would write.
    let disk = std::fs::read_to_string(dir.path().join("tables.ron")).unwrap();
    let canonical = sandtable_engine::format::format_text(
        sandtable_engine::schema::FileKind::Tables,
        sandtable_engine::diag::FileId(0),
        &disk,
    )
    .unwrap();
    assert_eq!(disk, canonical);
    // The save reaches the playtest through the watch on the folder.
    let mut replayed = false;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(30));
        h.run_steps(1);
        if let Some(r) = h.state().playtest.as_ref().unwrap().reports.first() {
            assert!(
                r.headline().starts_with("Reload 1 took tables.ron"),
                "{r:?}"
            );
            replayed = true;
            break;
        }
    }
    assert!(replayed, "report: {}", h.state().report);
}

#[test]
fn quitting_with_unsaved_changes_asks_and_cancel_keeps_them() {
    let mut h = harness(&bundled_content());
    h.run();
    h.state_mut().request_quit();
    assert_eq!(h.state().quit, Quit::Confirmed, "nothing unsaved: it quits");
    h.state_mut().quit = Quit::No;
    sandtable_editor::map::move_space(h.state_mut(), "map.ron", "kiev", egui::pos2(1.0, 2.0));
    h.state_mut().request_quit();
    h.run();
    assert_eq!(h.state().quit, Quit::Asking);
    h.get_by_label_contains("changes that are not saved: map.ron");
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    h.run();
    assert_eq!(h.state().quit, Quit::No);
    assert!(h.state().doc.is_dirty());
    h.state_mut().request_quit();
    h.run();
    h.get_by_role_and_label(Role::Button, "Quit without saving")
        .click();
    h.run();
    assert_eq!(h.state().quit, Quit::Confirmed);
}

#[test]
fn a_file_changed_on_disk_while_edited_here_is_a_conflict_the_designer_resolves() {
    let dir = copy_of_bundled();
    let mut h = harness(dir.path());
    h.run();
    sandtable_editor::map::move_space(h.state_mut(), "map.ron", "kiev", egui::pos2(1.0, 2.0));
    let path = dir.path().join("map.ron");
    let theirs =
        std::fs::read_to_string(&path)
            .unwrap()
            .replacen("name: \"Kiev\"", "name: \"Kyiv\"", 1);
    std::fs::write(&path, &theirs).unwrap();
    h.run();
    h.get_by_role_and_label(Role::Button, "Reload").click();
    h.run();
    assert!(
        h.state().doc.conflicts.contains_key("map.ron"),
        "{}",
        h.state().status
    );
    h.get_by_label_contains("map.ron changed on disk while it has unsaved edits here.");
    // Saving leaves the conflict alone: the other program's file is not overwritten.
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), theirs);
    h.get_by_role_and_label(Role::Button, "Keep mine: map.ron")
        .click();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    h.run();
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("name: \"Kiev\"") && saved.contains("x: 1.0, y: 2.0"));
}

#[test]
fn a_click_on_a_problem_opens_the_panel_and_the_thing_it_is_about() {
    let dir = copy_of_bundled();
    let tables = dir.path().join("tables.ron");
    let text = std::fs::read_to_string(&tables).unwrap();
    std::fs::write(
        &tables,
        text.replacen("(key: 1, cells: [0, 0, 1,", "(key: 1, cells: [0, 0, x,", 1),
    )
    .unwrap();
    let mut h = harness(dir.path());
    open_first_problem(&mut h);
    assert_eq!(h.state().section, Section::Tables);
    assert_eq!(h.state().tables.selected, Some(0));
    h.get_by_label_contains("row 1, column 3:");
}

#[test]
fn a_supply_source_added_in_the_inspector_names_its_nation_and_level() {
    let mut h = tall_harness(&bundled_content(), 2400.0);
    h.state_mut().section = Section::Map;
    h.state_mut().map.selected = Some(Selected::Space("kiev".into()));
    h.run_steps(3);
    h.get_by_role_and_label(Role::Button, "Add source").click();
    h.run_steps(2);
    h.get_by_label("Commonwealth").click();
    h.run_steps(2);
    h.get_by_label("Limited").click();
    h.run_steps(2);
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    let kiev = map.spaces.iter().find(|s| s.id == "kiev").unwrap();
    assert_eq!(kiev.supply.len(), 1);
    assert_eq!(kiev.supply[0].nations, ["cw"]);
    assert_eq!(
        kiev.supply[0].level,
        sandtable_engine::model::SupplyLevel::Limited
    );
    assert!(!h.state().loaded.has_errors());
    h.get_by_role_and_label(Role::Button, "Remove source")
        .click();
    h.run_steps(2);
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    assert!(map
        .spaces
        .iter()
        .find(|s| s.id == "kiev")
        .unwrap()
        .supply
        .is_empty());
}

#[test]
fn the_game_panel_edits_any_field_of_game_ron_as_one_undoable_step() {
    use sandtable_engine::model::GameFile;
    let mut h = harness(&bundled_content());
    h.state_mut().section = Section::Game;
    h.run();
    h.get_by_label("sides").click();
    h.run();
    h.get_by_label("2: allied").click();
    h.run();
    let field = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.data().placeholder() == Some("sides[1].name")
    };
    h.get_by(field).focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(field).type_text("Soviet");
    h.run();
    let game: GameFile = h.state().doc.parse("game.ron").unwrap();
    assert_eq!(game.sides[1].name, "Soviet");
    assert_eq!(h.state().doc.undo_label(), Some("edit sides[1].name"));
    // A field that may be left out is added from the list of the missing ones.
    assert!(game.nations[5].group.is_none());
    h.state_mut().fields.reveal = Some("nations[5].home".into());
    h.run();
    h.get_by_label("Add a field to nations[5]…").click();
    h.run();
    h.get_by_role_and_label(Role::Button, "group").click();
    h.run();
    let game: GameFile = h.state().doc.parse("game.ron").unwrap();
    assert_eq!(game.nations[5].group.as_deref(), Some(""));
    h.state_mut().undo();
    h.state_mut().undo();
    h.run();
    let game: GameFile = h.state().doc.parse("game.ron").unwrap();
    assert_eq!(game.sides[1].name, "Allied");
    assert!(!h.state().doc.is_dirty());
}

/// A copy of the small hex game, open on its Map panel (the folder lives as long as it).
fn hex_mini_on_the_map() -> (tempfile::TempDir, Harness<'static, EditorApp>) {
    let dir = tempfile::tempdir().unwrap();
    let fixture =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/hex-mini");
    common::copy_tree(&fixture, dir.path());
    let mut h = harness(dir.path());
    h.state_mut().section = Section::Map;
    h.run_steps(3);
    (dir, h)
}

#[test]
fn a_hexside_clicked_on_the_hex_map_is_made_a_river_in_the_inspector() {
    let (_dir, mut h) = hex_mini_on_the_map();
    // A click on a hex selects it.
    let content = h.state().loaded.content.clone();
    let wood = h
        .state()
        .map
        .hex_screen_pos(&content, "wood")
        .expect("drawn");
    click_at(&mut h, wood);
    h.run_steps(2);
    assert_eq!(h.state().map.selected, Some(Selected::Space("wood".into())));
    // A click on the middle of a side selects the side.
    let north = h
        .state()
        .map
        .hex_screen_pos(&content, "0202")
        .expect("drawn");
    click_at(&mut h, wood + (north - wood) / 2.0);
    h.run_steps(2);
    let Some(Selected::Connection(a, b)) = h.state().map.selected.clone() else {
        panic!("a side is selected: {:?}", h.state().map.selected)
    };
    let mut ends = [a, b];
    ends.sort();
    assert_eq!(ends, ["0202", "wood"]);
    h.get_by_label("River hexside").click();
    h.run_steps(2);
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    let sides = &map.hex_grid.unwrap().hexsides;
    assert_eq!(sides.len(), 3);
    assert_eq!(sides[2].kinds, ["river"]);
    let g = &h.state().loaded.content.graph;
    let (w, n) = (g.index_of("wood").unwrap(), g.index_of("0202").unwrap());
    assert_eq!(g.edges[g.edge_between(w, n).unwrap()].kinds, ["river"]);
    assert!(!h.state().loaded.has_errors());
}

#[test]
fn a_right_click_on_a_hole_of_the_hex_grid_adds_a_hex_there_and_undo_takes_it_away() {
    let (_dir, mut h) = hex_mini_on_the_map();
    let content = h.state().loaded.content.clone();
    assert!(content.graph.index_of("0504").is_none());
    let hole = h
        .state()
        .map
        .hex_cell_screen_pos(&content, (5, 4))
        .expect("drawn");
    // A right click on the empty cell.
    h.hover_at(hole);
    h.run_steps(1);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: hole,
            button: egui::PointerButton::Secondary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.run_steps(1);
    }
    h.run_steps(1);
    let map: MapFile = h.state().doc.parse("map.ron").unwrap();
    assert!(map.hex_grid.unwrap().holes.is_empty());
    assert!(h.state().loaded.content.graph.index_of("0504").is_some());
    assert_eq!(h.state().map.selected, Some(Selected::Space("0504".into())));
    assert!(!h.state().loaded.has_errors());
    h.state_mut().undo();
    h.run_steps(2);
    assert!(h.state().loaded.content.graph.index_of("0504").is_none());
}

#[test]
fn a_click_on_a_problem_in_game_ron_opens_the_game_panel_at_the_field() {
    let dir = copy_of_bundled();
    let game = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&game).unwrap();
    std::fs::write(
        &game,
        text.replacen(
            "(id: \"it\", name: \"Italy\", side: Some(\"axis\")",
            "(id: \"it\", name: \"Italy\", side: Some(\"axes\")",
            1,
        ),
    )
    .unwrap();
    let mut h = harness(dir.path());
    let line = open_first_problem(&mut h);
    assert!(line.contains("axes"), "{line}");
    assert_eq!(h.state().section, Section::Game);
    // The nations list and Italy are opened, and the field is there to fix.
    let field = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
        n.data().placeholder() == Some("nations[1].side")
    };
    assert_eq!(h.get_by(field).value().as_deref(), Some("axes"));
    h.get_by(field).focus();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.get_by(field).type_text("axis");
    h.run();
    assert!(!h.state().loaded.has_errors());
}
