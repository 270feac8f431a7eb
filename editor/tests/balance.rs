//! The Balance panel: a batch run in the background with progress and cancel, the statistics
//! plotted, and a variant B played on the same seeds beside A.

use egui::accesskit::Role;
use egui_kittest::kittest::Queryable as _;
use egui_kittest::Harness;
use sandtable_editor::balance::Variant;
use sandtable_editor::{bundled_content, EditorApp, Section};

fn harness() -> Harness<'static, EditorApp> {
    Harness::builder()
        .with_size(egui::vec2(1400.0, 1000.0))
        .build_ui_state(
            |ui, app: &mut EditorApp| app.show(ui),
            EditorApp::open(bundled_content()),
        )
}

/// Steps frames until the batch is over (at most a minute).
fn wait(h: &mut Harness<'static, EditorApp>) {
    for _ in 0..600 {
        h.run_steps(1);
        if !h.state().balance.is_running() {
            h.run_steps(2);
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the batch did not finish");
}

#[test]
fn the_balance_panel_runs_a_and_b_on_the_same_seeds_and_plots_both() {
    let mut h = harness();
    h.state_mut().section = Section::Balance;
    h.state_mut().balance.games = 6;
    h.state_mut().balance.variant = Variant::Set;
    h.state_mut().balance.b_set = "scenarios/campaign.ron:/last_turn=2".into();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.run_steps(1);
    wait(&mut h);
    let app = h.state();
    assert!(app.balance.error.is_empty(), "{}", app.balance.error);
    let outcome = app.balance.outcome.as_ref().expect("a result");
    assert_eq!(outcome.a.games, 6);
    let (_, b, c) = outcome.b.as_ref().expect("a B");
    assert_eq!(b.games, 6);
    assert!(c.length.difference < 0.0, "B ends on turn 2 at the latest");
    h.get_by_label("Win rate by side, with its interval");
    h.get_by_label("Turn games ended on");
    h.get_by_label_contains("against A on the same 6 seeds");
    // Sides and tracks by their names (issue 19).
    h.get_by_label("Axis (random)");
    h.get_by_label("Victory Points at the end of each turn (mean)");
}

#[test]
fn a_running_batch_shows_its_progress_and_can_be_cancelled() {
    let mut h = harness();
    h.state_mut().section = Section::Balance;
    h.state_mut().balance.games = 5000;
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.run_steps(2);
    assert!(h.state().balance.is_running());
    assert_eq!(h.state().balance.progress().map(|p| p.1), Some(5000));
    h.get_by_role_and_label(Role::Button, "Cancel").click();
    wait(&mut h);
    assert!(
        h.state().balance.error.starts_with("Cancelled"),
        "{}",
        h.state().balance.error
    );
    assert!(h.state().balance.outcome.is_none());
}

#[test]
fn a_sweep_in_the_balance_panel_gives_a_batch_and_a_point_per_value() {
    let mut h = harness();
    h.state_mut().section = Section::Balance;
    h.state_mut().balance.games = 3;
    h.state_mut().balance.variant = Variant::Sweep;
    h.state_mut().balance.sweep = "scenarios/campaign.ron:/last_turn=2..4".into();
    h.run_steps(2);
    h.get_by_role_and_label(Role::Button, "Run").click();
    h.run_steps(1);
    assert_eq!(h.state().balance.progress().map(|p| p.1), Some(9));
    wait(&mut h);
    assert!(
        h.state().balance.error.is_empty(),
        "{}",
        h.state().balance.error
    );
    let outcome = h.state().balance.outcome.clone().expect("a result");
    let (place, points) = outcome.sweep.expect("a sweep");
    assert_eq!(place, "scenarios/campaign.ron:/last_turn");
    let values: Vec<i64> = points.iter().map(|(v, _)| *v).collect();
    assert_eq!(values, [2, 3, 4]);
    // A campaign cut at turn 2 ends by turn 2.
    assert!(points[0].1.victory_turns.keys().all(|t| *t <= 2));
    h.get_by_label("Win rate by the value of scenarios/campaign.ron:/last_turn");
}
