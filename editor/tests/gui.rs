//! GUI tests: the editor driven through egui_kittest, widgets found by label.

mod common;

use common::click_at;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::Harness;
use sandtable_editor::{bundled_content, EditorApp, Section};

fn harness(folder: std::path::PathBuf) -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1200.0, 800.0))
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::open(folder),
        )
}

/// A section of the left panel: a selectable button with that label.
fn section_button<'h>(
    h: &'h Harness<'static, EditorApp>,
    label: &'h str,
) -> egui_kittest::Node<'h> {
    h.get_by_role_and_label(egui::accesskit::Role::Button, label)
}

#[test]
fn editor_opens_the_bundled_game_and_shows_what_it_holds() {
    let mut h = harness(bundled_content());
    h.run();
    h.get_by_label("WWII: Barbarossa to Berlin");
    h.get_by_label("The content checks.");
    section_button(&h, "Map");
    h.get_by_label("map.ron  (map)");
    assert!(h.state().loaded.content.graph.spaces.len() > 300);
}

#[test]
fn the_files_list_folds_a_folder_of_many_files_under_its_name() {
    let mut h = harness(bundled_content());
    h.run();
    let examples = std::fs::read_dir(bundled_content().join("examples"))
        .expect("the bundled game has examples")
        .count();
    assert!(examples > 6);
    // The rulebook examples are folded under their folder; the one scenario is shown.
    h.get_by_label_contains(&format!("examples/  ({examples} files)"));
    assert!(h
        .query_by_label("rule_4_4_kaunas_retreat.ron  (example)")
        .is_none());
    h.get_by_label_contains("scenarios/  (1 file)");
    h.get_by_label("campaign.ron  (scenario)");
}

#[test]
fn the_cards_panel_lists_the_decks_and_the_search_narrows_them() {
    let mut h = harness(bundled_content());
    h.run();
    section_button(&h, "Cards").click();
    h.run();
    assert_eq!(h.state().section, Section::Cards);
    h.get_by_label("allied 1: Torch");
    h.state_mut().cards.search = "taifun".into();
    h.run();
    let listed: Vec<String> = sandtable_editor::cards::listed(h.state())
        .into_iter()
        .map(|(_, _, label)| label)
        .collect();
    // The search reads titles and printed texts: OKH Conference names Taifun.
    assert_eq!(listed, ["axis 3: OKH Conference", "axis 4: Taifun"]);
}

#[test]
fn problems_of_broken_content_are_listed_with_their_place() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/golden/diagnostics/unknown-reference");
    let mut h = harness(dir);
    h.run();
    section_button(&h, "Problems (3)").click();
    h.run();
    let line = h
        .state()
        .loaded
        .sources
        .render_line(&h.state().loaded.diagnostics[0]);
    assert!(
        line.contains("map.ron:38:27: error[E0201]: unknown terrain `urbn`"),
        "{line}"
    );
    h.get_by_label(&line);
}

#[test]
fn starting_without_a_display_prints_a_clear_message_not_a_backtrace() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandtable-editor"))
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env("RUST_BACKTRACE", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("no display to open a window on"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("backtrace"),
        "{err}"
    );
}

#[test]
fn help_lists_the_editor_options() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sandtable-editor"))
        .arg("--help")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success()
            && text.contains("--screenshot")
            && text.contains("--playtest")
            && text.contains("[DIR]"),
        "{text}"
    );
}

/// An action as the playtest labels it: in words, its ids written as names.
fn said(h: &Harness<'static, EditorApp>, action: &str) -> String {
    h.state().loaded.content.names().action(action)
}

#[test]
fn a_playtest_starts_takes_the_prompts_choices_as_clicks_undoes_and_replays_on_reload() {
    let mut h = harness(bundled_content());
    h.run();
    section_button(&h, "Playtest").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Start")
        .click();
    h.run();
    assert!(h.state().playtest.is_some());
    // The opening: the Axis player takes Barbarossa (4.3), a button; the Allied player
    // declines the redraws of 4.4 (a yes or no question: tick, then Choose).
    h.get_by_role_and_label(egui::accesskit::Role::Button, &said(&h, "take barbarossa"))
        .click();
    h.run();
    let asks = |h: &Harness<'static, EditorApp>| {
        h.state()
            .playtest
            .as_ref()
            .unwrap()
            .session
            .prompt()
            .is_some_and(|p| p.options() == ["yes", "no"])
    };
    while asks(&h) {
        h.get_by_label("no").click();
        h.run();
        h.get_by_role_and_label(egui::accesskit::Role::Button, "Choose")
            .click();
        h.run();
    }
    let opening = h.state().playtest.as_ref().unwrap().session.log().len();
    // Turn 1: the Axis places three Stand Fast markers (a choice of several): tick three.
    let options = h
        .state()
        .playtest
        .as_ref()
        .unwrap()
        .session
        .prompt()
        .unwrap()
        .options()
        .clone();
    for option in options.iter().take(3) {
        h.get_by_label(&said(&h, option)).click();
        h.run();
    }
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Choose")
        .click();
    h.run();
    assert_eq!(
        h.state().playtest.as_ref().unwrap().session.log().len(),
        opening + 1
    );
    // The log tells what the choice did, in names.
    h.get_by_label_contains("Stand Fast placed in");
    // The hands and decks are shown: the Axis holds Barbarossa.
    h.get_by_label("Hands and decks").click();
    h.run();
    h.get_by_label_contains("Axis hand (");
    h.get_by_label_contains("1 Barbarossa");
    h.get_by_label("Hands and decks").click();
    h.run();
    // Then the Axis round: Barbarossa as an event, a button.
    h.get_by_role_and_label(egui::accesskit::Role::Button, &said(&h, "event barbarossa"))
        .click();
    h.run();
    let log = h.state().playtest.as_ref().unwrap().session.log().to_vec();
    assert_eq!(log.len(), opening + 2);
    assert_eq!(log[opening + 1], "event barbarossa");
    // Undo drops it.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Undo action")
        .click();
    h.run();
    assert_eq!(
        h.state().playtest.as_ref().unwrap().session.log().len(),
        opening + 1
    );
    // Reloading files that did not change says so and changes nothing.
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Reload")
        .click();
    h.run();
    h.get_by_label("The playtest already runs on the files as they are.");
    assert_eq!(
        h.state().playtest.as_ref().unwrap().session.log().len(),
        opening + 1
    );
}

#[test]
fn a_content_file_changed_on_disk_reloads_the_editor_and_replays_the_playtest() {
    // A copy of the bundled game, followed on disk.
    let tmp = common::copy_of_bundled();
    let dir = tmp.path().to_path_buf();
    let mut h = harness(dir.clone());
    h.state_mut().watch_folder();
    // Following the folder repaints on a timer: the frames are stepped, not run to rest.
    h.state_mut().section = Section::Playtest;
    h.run_steps(3);
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Start")
        .click();
    h.run_steps(3);
    assert!(h.state().playtest.is_some());
    // Another program breaks a table: the editor reloads, lists the problem, and the playtest
    // keeps the last good rules.
    let tables = dir.join("tables.ron");
    let text = std::fs::read_to_string(&tables).unwrap();
    std::fs::write(
        &tables,
        text.replacen("id: \"lcu_fire\"", "id: \"lcu_fire\" oops", 1),
    )
    .unwrap();
    let mut reloaded = false;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(30));
        h.run_steps(3);
        if h.state().loaded.has_errors() {
            reloaded = true;
            break;
        }
    }
    assert!(reloaded, "the change on disk was picked up");
    let headline = h.state().playtest.as_ref().unwrap().reports[0].headline();
    assert!(headline.contains("does not check"), "{headline}");
    h.get_by_label_contains("tables.ron: the changed content does not check");
}

#[test]
fn a_click_on_a_space_of_the_playtest_map_answers_the_prompt_about_that_space() {
    use sandtable_editor::{space_answer, MapAnswer};
    use sandtable_engine::rules::Prompt;
    let prompt = |options: &[&str], pick: Option<(usize, usize)>| Prompt {
        side: "axis".into(),
        kind: "test".into(),
        question: String::new(),
        actions: options
            .iter()
            .map(|o| sandtable_engine::rules::Action::of_text(o))
            .collect(),
        pick,
    };
    // A choice of spaces: the click ticks the space.
    let pick = prompt(&["kaunas", "riga", "minsk"], Some((3, 3)));
    assert_eq!(
        space_answer(&pick, "riga"),
        MapAnswer::Toggle("riga".into())
    );
    assert_eq!(space_answer(&pick, "moscow"), MapAnswer::Nothing);
    // One action about the space: taken; several: narrowed to them.
    let act = prompt(
        &[
            "activate warsaw move",
            "activate warsaw combat",
            "move ge_4th_army brest_litovsk",
            "done",
        ],
        None,
    );
    assert_eq!(
        space_answer(&act, "brest_litovsk"),
        MapAnswer::Act("move ge_4th_army brest_litovsk".into())
    );
    assert_eq!(space_answer(&act, "warsaw"), MapAnswer::Narrow);
    assert_eq!(space_answer(&act, "riga"), MapAnswer::Nothing);
}

#[test]
fn the_berlin_1945_zone_game_opens_with_its_zones_and_is_playtested_by_impulses() {
    let folder = bundled_content().join("../berlin-1945");
    let mut h = harness(folder);
    h.run();
    h.get_by_label("Berlin 1945");
    h.get_by_label("The content checks.");
    assert_eq!(h.state().loaded.content.graph.spaces.len(), 92);
    h.state_mut().section = Section::Map;
    h.run_steps(3);
    assert!(h.state().map.rect.is_some(), "the zone map is drawn");
    section_button(&h, "Playtest").click();
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Start")
        .click();
    h.run();
    assert!(h.state().playtest.is_some(), "{}", h.state().report);
    let prompt = |h: &Harness<'static, EditorApp>| {
        h.state()
            .playtest
            .as_ref()
            .unwrap()
            .session
            .prompt()
            .cloned()
            .expect("a prompt")
    };
    // The Logistics Phase: no unit put out of supply on purpose (an empty choice), and no
    // event chit played before the first impulse.
    for _ in 0..10 {
        if prompt(&h).kind == "activate" {
            break;
        }
        let label = if prompt(&h).pick.is_some() {
            "Choose"
        } else {
            "no card"
        };
        h.get_by_role_and_label(egui::accesskit::Role::Button, label)
            .click();
        h.run();
    }
    assert_eq!(prompt(&h).kind, "activate", "{:?}", prompt(&h));
    // C.1, the Zhukov player's Soviet impulse: two armies of the bridgehead in combat mode,
    // found by narrowing the list to the bridgehead as a click on the map does.
    h.state_mut().focus = Some("bridgehead".into());
    h.run();
    for action in ["activate su_8ga.1 combat", "activate su_8ga.2 combat", "go"] {
        h.get_by_role_and_label(egui::accesskit::Role::Button, &said(&h, action))
            .click();
        h.run();
    }
    let log = h.state().playtest.as_ref().unwrap().session.log().to_vec();
    assert_eq!(log.last().map(String::as_str), Some("go"));
    assert_eq!(prompt(&h).kind, "attack", "{:?}", prompt(&h));
}

#[test]
fn a_panel_whose_file_does_not_load_says_why_and_leads_to_the_problem() {
    let dir = common::copy_of_bundled();
    let map = dir.path().join("map.ron");
    let text = std::fs::read_to_string(&map).unwrap();
    // A missing comma after the second space's name.
    std::fs::write(&map, text.replacen("name: \"Caen\",", "name: \"Caen\"", 1)).unwrap();
    let mut h = harness(dir.path().to_path_buf());
    h.state_mut().section = Section::Map;
    h.run_steps(3);
    h.get_by_label_contains("This panel's file does not load");
    h.get_by_label_contains("error[E0001]");
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Open the problem")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().section, Section::Problems);
    // Other panels, whose files load, say nothing of it.
    h.state_mut().section = Section::Tables;
    h.run_steps(3);
    assert!(h
        .query_by_label_contains("This panel's file does not load")
        .is_none());
}

#[test]
fn a_click_on_an_action_of_the_log_branches_there_and_the_lines_compare_at_a_step() {
    let mut h = harness(bundled_content());
    h.state_mut().start_playtest();
    h.run();
    // Barbarossa to Berlin's opening, to the Northwest Front's first move (action 12).
    let opening = include_str!("../../tests/fixtures/b2b-opening.log")
        .lines()
        .take(12);
    for a in opening {
        h.state_mut().playtest.as_mut().unwrap().apply(a).unwrap();
    }
    h.run();
    // Action 12, the Northwest Front's move, picked in the log; then Branch here.
    let row = format!("{:>4}  {}", 12, said(&h, "move su_northwest_front riga"));
    h.get_by_label(&row).click();
    h.run();
    h.get_by_label_contains("Play on differently from before action 12");
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Branch here")
        .click();
    h.run();
    let p = h.state().playtest.as_ref().unwrap();
    assert_eq!((p.name.as_str(), p.session.log().len()), ("branch 1", 11));
    assert_eq!(p.lines[0].name, "main line");
    // The branch moves the West Front instead, by its button.
    h.get_by_role_and_label(
        egui::accesskit::Role::Button,
        &said(&h, "move su_west_front brest_litovsk"),
    )
    .click();
    h.run();
    // The lines compared after step 12.
    h.state_mut().branching.step = 12;
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Compare main line")
        .click();
    h.run();
    h.get_by_label("Northwest Front: Kaunas in \"branch 1\", Riga in \"main line\".");
    // Renamed, the running line keeps its actions.
    h.state_mut().branching.rename = "west front first".into();
    h.get_by_role_and_label(egui::accesskit::Role::Button, "Rename line")
        .click();
    h.run();
    assert_eq!(
        h.state().playtest.as_ref().unwrap().name,
        "west front first"
    );
    h.get_by_label("Line: west front first");
}

#[test]
fn a_move_is_played_by_clicking_a_counter_then_a_highlighted_space_of_the_board() {
    let mut h = harness(bundled_content());
    h.state_mut().start_playtest();
    h.run_steps(2);
    // Barbarossa to Berlin's opening, to the Soviet moves out of Kaunas and Bialystok.
    for a in include_str!("../../tests/fixtures/b2b-opening.log")
        .lines()
        .take(11)
    {
        h.state_mut().playtest.as_mut().unwrap().apply(a).unwrap();
    }
    h.run_steps(2);
    // The Northwest Front's counter (the first click on a stack spreads it out).
    for _ in 0..2 {
        let counter = h
            .state()
            .board
            .counters
            .iter()
            .find(|(_, u)| u == "su_northwest_front")
            .map(|(r, _)| r.center())
            .expect("the Northwest Front is drawn");
        click_at(&mut h, counter);
        if h.state().board.unit.is_some() {
            break;
        }
    }
    assert_eq!(h.state().board.unit.as_deref(), Some("su_northwest_front"));
    // Its actions alone are listed, in names.
    h.get_by_label_contains("Actions of Northwest Front");
    // Riga, one of the spaces it may move to, is clicked.
    let riga = h
        .state()
        .board
        .spaces
        .iter()
        .find(|(_, id)| id == "riga")
        .map(|(c, _)| *c)
        .expect("Riga is on the board");
    click_at(&mut h, riga);
    let log = h.state().playtest.as_ref().unwrap().session.log().to_vec();
    assert_eq!(
        log.last().map(String::as_str),
        Some("move su_northwest_front riga")
    );
    assert!(h.state().board.unit.is_none());
}
