//! Winter 42 (15.2), partisans (16.2, 16.3), and neutral countries at war (17.3, 17.4).

use sandtable_engine::rules::{self, combat};
use sandtable_engine::script::eval::{self, Outcome};
use sandtable_engine::state::{Loc, State};

use super::{
    action_of, action_phase, campaign, marker, run_sequence_script, sequence_script, side_ctx, unit,
};
use crate::cards::b2b;

/// The campaign's state at the Allied player's action of turn 3's first round.
fn allied_action_on_turn_3(state: &mut State) {
    state.turn = 3;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![
        rules::Task::Rounds {
            at: (action_phase(), 0),
            rounds: 6,
            next: 2,
            acting: true,
        },
        rules::Task::Action {
            side: "allied".into(),
        },
    ];
}

#[test]
fn rule_16_2_partisans_are_placed_as_an_allied_action_after_the_partisans_event() {
    let content = b2b();
    let (rules, mut state) = campaign();
    allied_action_on_turn_3(&mut state);
    rules::resume(&rules, &mut state);
    assert!(!state
        .flow
        .prompt
        .as_ref()
        .unwrap()
        .options()
        .contains(&"partisans".to_string()));
    state.played.insert("partisans".into(), 2);
    rules::resume(&rules, &mut state);
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options().contains(&"partisans".to_string()),
        "{:?}",
        p.options()
    );
    rules::apply(&rules, &mut state, "partisans").unwrap();
    let choice = state.flow.prompt.clone().unwrap();
    assert_eq!(choice.pick, Some((1, 1)), "one marker in 1941-42");
    for s in &choice.options() {
        assert_eq!(state.control[s.as_str()], "axis");
        assert!(state.units_at(s).next().is_none());
        assert!(
            sandtable_engine::state::space_in_region(content, s, "soviet_union")
                || ["yugoslavia", "greece", "turkey"]
                    .iter()
                    .any(|r| sandtable_engine::state::space_in_region(content, s, r))
        );
    }
    let at = choice.options()[0].clone();
    rules::apply(&rules, &mut state, &format!("choose {at}")).unwrap();
    assert!(state
        .markers
        .iter()
        .any(|m| m.marker == "partisan" && m.space == at));
}

#[test]
fn rule_16_3_axis_units_trace_only_limited_supply_through_a_partisan_space() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let space = "warsaw";
    assert_eq!(level_at(content, &state, space, "ge", "axis"), Level::Full);
    let soviet = level_at(content, &state, space, "su", "allied");
    state.markers.push(marker("partisan", space));
    assert_eq!(
        level_at(content, &state, space, "ge", "axis"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, space, "su", "allied"),
        soviet,
        "no effect on the Allies"
    );
}

#[test]
fn rule_15_2_in_winter_42_german_panzers_in_the_soviet_union_are_not_mechanized() {
    let content = b2b();
    let (rules, mut state) = campaign();
    state.turn = 4;
    let pz = unit(&state, "ge_1st_pz_army");
    state.units[pz].at = Loc::Space("kiev".into());
    run_sequence_script(&mut state, "axis", "winter_42");
    assert!(state.flags.contains("winter_42"));
    assert!(!rules.is_mech_now(&state, &state.units[pz]));
    state.units[pz].at = Loc::Space("warsaw".into());
    assert!(
        rules.is_mech_now(&state, &state.units[pz]),
        "outside the Soviet Union"
    );
    // Von Paulus Pause cancels it.
    let mut paused = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    paused.turn = 4;
    paused.flags.insert("winter_42_cancelled".into());
    run_sequence_script(&mut paused, "axis", "winter_42");
    assert!(!paused.flags.contains("winter_42"));
}

#[test]
fn rule_15_2_in_winter_42_german_units_in_the_soviet_union_are_at_best_in_limited_supply() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.control.insert("brest_litovsk".into(), "axis".into());
    for u in state.units.iter_mut() {
        if u.at == Loc::Space("brest_litovsk".into()) {
            u.at = Loc::Unplaced;
        }
    }
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ge", "axis"),
        Level::Full
    );
    state.flags.insert("winter_42".into());
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ge", "axis"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, "warsaw", "ge", "axis"),
        Level::Full
    );
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ro", "axis"),
        Level::Full
    );
}

#[test]
fn rule_17_4_a_declaration_of_war_on_turkey_gives_its_forces_to_the_other_side_and_the_round_goes_on(
) {
    let (rules, mut state) = action_of("axis", 5);
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options().contains(&"war_on_turkey".to_string()),
        "{:?}",
        p.options()
    );
    let vp = state.track("vp");
    rules::apply(&rules, &mut state, "war_on_turkey").unwrap();
    assert!(state.flags.contains("turkey_at_war"));
    let army = unit(&state, "tu_1st_army");
    assert_eq!(state.units[army].at, Loc::Space("istanbul".into()));
    assert_eq!(rules.side(&state.units[army]), "allied");
    assert_eq!(state.control["ankara"], "allied");
    assert_eq!(state.track("vp"), vp - 3, "5.1: before Casablanca");
    // The Axis still takes its action, and may not declare again.
    let p = state.flow.prompt.clone().unwrap();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("axis", "action"));
    assert!(!p.options().contains(&"war_on_turkey".to_string()));
    // Turkish units are in Full Supply at home, and may not leave Turkey.
    let level =
        sandtable_engine::rules::supply::level_at(b2b(), &state, "istanbul", "tu", "allied");
    assert_eq!(level, sandtable_engine::rules::supply::Level::Full);
    assert!(!rules::may_operate(&rules, &state, army, "sofia"));
}

#[test]
fn rule_17_4_when_the_allies_declare_war_on_sweden_its_corps_go_to_the_axis_reserve() {
    let (rules, mut state) = action_of("allied", 5);
    let vp = state.track("vp");
    rules::apply(&rules, &mut state, "war_on_sweden").unwrap();
    let corps = state
        .units
        .iter()
        .find(|u| u.counter == "sw_corps" && u.at != Loc::Unplaced)
        .expect("the Swedish corps entered");
    assert_eq!(corps.at, Loc::Box("axis_reserve".into()));
    assert_eq!(rules.side(corps), "axis");
    assert_eq!(state.track("vp"), vp, "no VP for an Allied declaration");
}

#[test]
fn rule_15_2_and_16_3_german_defenders_in_winter_42_or_in_a_partisan_space_keep_only_trenches() {
    let content = b2b();
    let (rules, mut state) = campaign();
    let forest = content
        .graph
        .spaces
        .iter()
        .find(|s| {
            s.terrain.as_deref() == Some("forest")
                && sandtable_engine::state::space_in_region(content, &s.id, "soviet_union")
        })
        .unwrap()
        .id;
    let army = unit(&state, "ge_4th_army");
    state.units[army].at = Loc::Space(forest);
    let mut c = combat::CombatTask::new("allied", &forest);
    c.defenders = vec![army];
    assert!(combat::terrain_rows(&rules, &state, &c).contains(&"forest".to_string()));
    state.flags.insert("winter_42".into());
    assert!(combat::terrain_rows(&rules, &state, &c).is_empty());
    state.markers.push(marker("trench", &forest));
    assert_eq!(
        combat::terrain_rows(&rules, &state, &c),
        vec!["trench_1".to_string(), "trench".to_string()],
        "trenches still count"
    );
    // A partisan marker does the same outside winter.
    state.flags.remove("winter_42");
    state.markers.retain(|m| m.space != forest);
    state.markers.push(marker("partisan", &forest));
    assert!(combat::terrain_rows(&rules, &state, &c).is_empty());
}

#[test]
fn rule_16_2_the_allied_player_may_remove_partisans_at_the_end_of_the_turn() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.markers.push(marker("partisan", "minsk"));
    let script = sequence_script("6.H.2");
    let ctx = side_ctx("axis");
    let mut answers: Vec<Vec<String>> = Vec::new();
    let mut asked_allies = false;
    loop {
        let mut trial = state.clone();
        match eval::run(&script, content, &mut trial, &ctx, &answers).unwrap() {
            (Outcome::Done, _) => {
                state = trial;
                break;
            }
            (Outcome::Asks(d), _) => {
                if d.options.contains(&"minsk".to_string()) {
                    assert_eq!(d.by, "allied");
                    asked_allies = true;
                    answers.push(vec!["minsk".into()]);
                } else {
                    answers.push(Vec::new());
                }
            }
        }
    }
    assert!(asked_allies);
    assert!(!state.markers.iter().any(|m| m.marker == "partisan"));
}

#[test]
fn rule_17_3_vichy_france_may_be_entered_only_once_it_is_in_the_war() {
    let content = b2b();
    let (rules, mut state) = campaign();
    let lyon = content.graph.index_of("lyon").unwrap();
    assert!(!state.control.contains_key("lyon"), "Vichy is neutral");
    assert!(!rules::may_enter(&rules, &state, "axis", lyon));
    state.flags.insert("vichy_at_war".into());
    assert!(rules::may_enter(&rules, &state, "axis", lyon));
    assert!(rules::may_enter(&rules, &state, "allied", lyon));
}

#[test]
fn rule_16_3_a_vp_space_with_a_partisan_marker_and_no_axis_unit_counts_as_allied() {
    // 16.3: unless occupied by an Axis unit, a VP space counts as Allied while a Partisan
    // marker is present. The Allied player places a Partisan marker on an Axis VP space
    // through the prompts; the victory track loses the space's points at once, and gets them
    // back when an Axis unit stands there again.
    let content = b2b();
    let (rules, mut state) = campaign();
    allied_action_on_turn_3(&mut state);
    state.played.insert("partisans".into(), 2);
    // A Soviet VP space the Axis has taken and left empty.
    let vp_of = |s: &str| content.graph.space(s).map_or(0, |x| x.vp);
    let taken = (content.graph.spaces.iter())
        .map(|s| s.id.as_str())
        .find(|s| {
            vp_of(s) > 0
                && sandtable_engine::state::space_in_region(content, s, "soviet_union")
                && state.units_at(s).next().is_none()
        })
        .unwrap();
    state.set_control(taken, Some("axis"));
    rules::resume(&rules, &mut state);
    rules::apply(&rules, &mut state, "partisans").unwrap();
    let choice = state.flow.prompt.clone().unwrap();
    let at = (choice.options().into_iter())
        .find(|s| s == taken)
        .expect("the Axis VP space open to Partisans");
    let before = state.track("vp");
    rules::apply(&rules, &mut state, &format!("choose {at}")).unwrap();
    assert_eq!(
        state.track("vp"),
        before - i64::from(vp_of(&at)),
        "{at} counts as Allied"
    );
    let axis_unit = (0..state.units.len())
        .find(|&i| {
            matches!(&state.units[i].at, Loc::Space(_)) && rules.side(&state.units[i]) == "axis"
        })
        .unwrap();
    state.units[axis_unit].at = Loc::Space(at.as_str().into());
    rules::resume(&rules, &mut state);
    assert_eq!(state.track("vp"), before, "an Axis unit in {at}");
}
