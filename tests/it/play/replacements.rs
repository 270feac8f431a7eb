//! Replacements: the Axis's RP cards on turns 8 to 11 (7.5), Panzer steps rebuilt (14.52),
//! the Wehrkreis (14.53), and Soviet RPs with Stalin out of Moscow (14.55).

use sandtable_engine::rules::{self, Rules};
use sandtable_engine::state::State;

use super::{action_of, run_sequence_script, unit};
use crate::cards::b2b;

#[test]
fn rule_7_5_on_turns_8_to_11_the_axis_plays_at_most_two_rp_cards_a_turn() {
    let offers_rp = |state: &State| {
        state
            .flow
            .prompt
            .as_ref()
            .unwrap()
            .options()
            .iter()
            .any(|o| o.starts_with("rp "))
    };
    for (turn, played, allowed) in [(7, 2, true), (8, 1, true), (8, 2, false), (12, 1, false)] {
        let (rules, mut state) = action_of("axis", turn);
        state.flow.rp_cards.insert("axis".into(), played);
        rules::resume(&rules, &mut state);
        assert_eq!(offers_rp(&state), allowed, "turn {turn}, {played} played");
    }
}

#[test]
fn rule_14_52_two_panzer_steps_a_turn_are_rebuilt_three_after_totaler_krieg() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let setup = |capped: u32, krieg: Option<u32>| {
        let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
        state.turn = 9;
        if let Some(t) = krieg {
            state.played.insert("totaler_krieg".into(), t);
        }
        let pz = unit(&state, "ge_1st_pz_army");
        state.units[pz].reduced = true;
        state.flow.capped_steps.insert(0, capped);
        state.flow.tasks = vec![rules::Task::Replace {
            side: "axis".into(),
            halves: [("rp_ge".to_string(), 20), ("rp_axis".to_string(), 0)].into(),
            placing: None,
        }];
        rules::resume(&rules, &mut state);
        state
            .flow
            .prompt
            .unwrap()
            .options()
            .contains(&"rebuild ge_1st_pz_army".to_string())
    };
    assert!(setup(1, None));
    assert!(!setup(2, None));
    assert!(
        !setup(2, Some(9)),
        "not on the turn Totaler Krieg is played"
    );
    assert!(setup(2, Some(8)), "three from the turn after");
    assert!(!setup(3, Some(8)));
}

#[test]
fn rule_14_53_each_wehrkreis_space_not_held_in_full_supply_costs_a_german_rp() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.tracks.insert("rp_ge".into(), 3);
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 3);
    let wehrkreis: Vec<String> = content
        .graph
        .spaces
        .iter()
        .filter(|s| sandtable_engine::state::space_in_region(content, &s.id, "wehrkreis"))
        .map(|s| s.id.to_string())
        .collect();
    state
        .control
        .insert(wehrkreis[0].as_str().into(), "allied".into());
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 2);
    for w in &wehrkreis {
        state.control.insert(w.as_str().into(), "allied".into());
    }
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 0, "never below 0");
}

#[test]
fn rule_14_55_with_stalin_out_of_moscow_an_allied_rp_card_gives_one_soviet_rp_less() {
    for (stalin_home, expected) in [(true, 0), (false, -1)] {
        let (rules, mut state) = action_of("allied", 3);
        if !stalin_home {
            state.markers.retain(|m| m.marker != "stalin");
        }
        let card = sandtable_engine::rules::Rules::new(b2b(), "campaign").unwrap();
        let hand = state.hands["allied"].clone();
        let Some((id, value)) = hand.iter().find_map(|c| {
            card.card(c)
                .and_then(|k| k.values.get("rp_su"))
                .filter(|v| **v > 0)
                .map(|v| (c.clone(), *v))
        }) else {
            panic!("the Allied hand has a card with Soviet RPs: {hand:?}");
        };
        rules::apply(&rules, &mut state, &format!("rp {id}")).unwrap();
        assert_eq!(
            state.track("rp_su"),
            i64::from(value) + expected,
            "Stalin in Moscow: {stalin_home}"
        );
    }
}
