//! The optional rules (7.62, 15.4, 15.5), switched on for a session as flags.

use sandtable_engine::script::eval::{self, Context};
use sandtable_engine::session::Session;
use sandtable_engine::state::{Loc, State};

use super::{campaign, run_sequence_script, setup, unit};
use crate::cards::b2b;

/// Whether a card's event may be played now, by its condition.
fn playable(state: &State, card: &str, side: &str) -> bool {
    let cond = b2b().scripts[card].playable.as_ref().unwrap();
    let ctx = Context {
        me: side.into(),
        enemy: if side == "axis" { "allied" } else { "axis" }.into(),
        card: Some(card.into()),
        ..Context::default()
    };
    eval::condition(cond, b2b(), state, &ctx).unwrap()
}

#[test]
fn optional_rules_are_switched_on_for_a_session_as_flags() {
    let mut with = setup(1);
    with.options = vec!["sunny_italy".into(), "time_of_mud".into()];
    let s = Session::new(b2b(), with).unwrap();
    assert!(s.state().flags.contains("sunny_italy") && s.state().flags.contains("time_of_mud"));
    assert!(!Session::new(b2b(), setup(1))
        .unwrap()
        .state()
        .flags
        .contains("sunny_italy"));
    let mut unknown = setup(1);
    unknown.options = vec!["sunny_france".into()];
    assert!(Session::new(b2b(), unknown).is_err());
}

/// Whether an option changes a card's condition: playable without it, and with it.
fn with_and_without(state: &mut State, option: &str, card: &str) -> (bool, bool) {
    state.flags.remove(option);
    let without = playable(state, card, "allied");
    state.flags.insert(option.into());
    let with = playable(state, card, "allied");
    (without, with)
}

#[test]
fn optional_rule_7_62_no_invasions_before_summer_42() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.played.insert("us_build_up".into(), 3);
    state.turn = 5;
    let option = "no_invasions_before_summer_42";
    assert!(
        !with_and_without(&mut state, option, "husky").1,
        "Spring 42"
    );
    state.turn = 6;
    let (without, with) = with_and_without(&mut state, option, "husky");
    assert_eq!(with, without, "from Summer 42 the option changes nothing");
}

#[test]
fn optional_rule_7_62_only_one_of_allied_2_and_24_in_1941() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.turn = 3;
    state.played.insert("soviet_reinforcements_2".into(), 2);
    let option = "one_soviet_reinforcement_1941";
    assert!(!with_and_without(&mut state, option, "soviet_reinforcements_24").1);
    state.turn = 4;
    let (without, with) = with_and_without(&mut state, option, "soviet_reinforcements_24");
    assert_eq!(with, without, "in 1942 the option changes nothing");
}

#[test]
fn optional_rule_15_4_sunny_italy_makes_naples_a_limited_source_in_fall_and_winter() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.control.insert("naples".into(), "allied".into());
    for u in state.units.iter_mut() {
        if u.at == Loc::Space("naples".into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.flags.insert("sunny_italy".into());
    state.turn = 3; // Fall 41
    assert_eq!(
        level_at(content, &state, "naples", "br", "allied"),
        Level::Full
    );
    run_sequence_script(&mut state, "axis", "sunny_italy");
    assert_eq!(
        level_at(content, &state, "naples", "br", "allied"),
        Level::Limited
    );
}

#[test]
fn optional_rule_15_5_time_of_mud_caps_panzers_in_the_ussr_in_rounds_2_and_3_of_fall_41() {
    use sandtable_engine::rules::{battle::advance_reach, movement::allowance};
    let (rules, mut state) = campaign();
    state.flags.insert("time_of_mud".into());
    state.turn = 3;
    run_sequence_script(&mut state, "axis", "time_of_mud");
    let pz = unit(&state, "ge_1st_pz_army");
    state.units[pz].at = Loc::Space("kiev".into());
    let printed = rules.movement(&state.units[pz]);
    assert!(printed > 3);
    // The game's Time of Mud hooks: movement at most 3, an advance at most one space.
    let caps = |state: &State| {
        (
            allowance(&rules, state, pz, printed),
            advance_reach(&rules, state, pz, "kursk", 2),
        )
    };
    for (round, cap) in [
        (1, (printed as u32, 2)),
        (2, (3, 1)),
        (3, (3, 1)),
        (4, (printed as u32, 2)),
    ] {
        state.round = round;
        assert_eq!(caps(&state), cap, "round {round}");
    }
    state.round = 2;
    state.units[pz].at = Loc::Space("warsaw".into());
    assert_eq!(caps(&state), (printed as u32, 2), "outside the USSR");
}
