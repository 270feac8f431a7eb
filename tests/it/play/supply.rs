//! Supply (13): beach heads as sources (13.1) and their removal (6.C), the Caucasus (13.6).

use sandtable_engine::rules::Rules;
use sandtable_engine::state::{Loc, State};

use super::{marker, unit};
use crate::cards::b2b;

/// The campaign's start with a British beach head on beach A and the path inland from it (one,
/// two and three spaces away) emptied and Allied.
fn beach_head_a() -> (State, [String; 3]) {
    let content = b2b();
    let g = &content.graph;
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let beach = "beach_a";
    // A neighbour of `from` that is no beach and lies next to none of the spaces nearer the beach.
    let inland = |from: &str, nearer: &[&str]| -> String {
        g.neighbour_ids(from)
            .into_iter()
            .find(|n| {
                !n.starts_with("beach_")
                    && nearer
                        .iter()
                        .all(|x| x != n && !g.neighbour_ids(x).contains(n))
            })
            .unwrap()
            .to_string()
    };
    let one = inland(beach, &[]);
    let two = inland(&one, &[beach]);
    let three = inland(&two, &[beach, &one]);
    for s in [&one, &two, &three] {
        state.control.insert(s.as_str().into(), "allied".into());
        for u in state.units.iter_mut() {
            if u.at == Loc::Space(s.as_str().into()) {
                u.at = Loc::Unplaced;
            }
        }
    }
    (state, [one, two, three])
}

fn put_beach_head(state: &mut State) {
    state.markers.push(marker("beach_head_br", "beach_a"));
}

#[test]
fn rule_13_1_units_tracing_to_a_beach_head_are_in_full_supply_within_two_spaces_and_limited_beyond()
{
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let (mut state, [one, two, three]) = beach_head_a();
    let before = level_at(content, &state, &three, "br", "allied");
    assert_eq!(before, Level::Out, "no supply there without the beach head");
    put_beach_head(&mut state);
    assert_eq!(level_at(content, &state, &one, "br", "allied"), Level::Full);
    assert_eq!(level_at(content, &state, &two, "br", "allied"), Level::Full);
    assert_eq!(
        level_at(content, &state, &three, "br", "allied"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, &one, "us", "allied"),
        Level::Out,
        "a British beach head"
    );
}

#[test]
fn rule_13_6_an_axis_lcu_in_the_caucasus_supplied_through_maikop_or_armavir_costs_one_more_op() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let g = &content.graph;
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    // The Axis holds the whole map and the Soviets are gone: many roads lead to Grozny.
    for u in state.units.iter_mut() {
        if rules.nation(u) == "su" {
            u.at = Loc::Unplaced;
        }
    }
    for s in &g.spaces {
        state.control.insert(s.id, "axis".into());
    }
    let army = unit(&state, "ge_4th_army");
    state.units[army].at = Loc::Space("grozny".into());
    let cost = |state: &State| {
        sandtable_engine::rules::space_activation_cost(&rules, state, "grozny", "axis")
    };
    assert_eq!(cost(&state), 1);
    // Now every way into the Caucasus but through Maikop and Armavir is Allied.
    let caucasus = |s: &str| sandtable_engine::state::space_in_region(content, s, "caucasus");
    let gates = ["maikop", "armavir"];
    for s in g
        .spaces
        .iter()
        .filter(|s| caucasus(&s.id) && !gates.contains(&s.id.as_str()))
    {
        for n in g.neighbour_ids(&s.id) {
            if !caucasus(n) {
                state.control.insert(n.into(), "allied".into());
            }
        }
    }
    let level = sandtable_engine::rules::supply::level_at(content, &state, "grozny", "ge", "axis");
    assert_ne!(
        level,
        sandtable_engine::rules::supply::Level::Out,
        "supplied through Maikop or Armavir"
    );
    assert_eq!(cost(&state), 2);
}

#[test]
fn rule_7_3_an_allied_beach_head_in_full_supply_costs_one_op_whatever_nations_stand_there() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    // A British and an American army together at Suez, a British source of Full Supply.
    for name in ["br_8th_army", "us_1st_army"] {
        let u = unit(&state, name);
        state.units[u].at = Loc::Space("suez".into());
    }
    let cost = |state: &State| {
        sandtable_engine::rules::space_activation_cost(&rules, state, "suez", "allied")
    };
    let two = cost(&state);
    assert_eq!(two, 2, "two nationalities, each paid for");
    // The hook reads the marker: asked again of the same space with the marker on it, the
    // remembered answer of the hook's first part must not be the one without the marker.
    state.markers.push(marker("beach_head_allied", "suez"));
    assert_eq!(cost(&state), 1, "treated as one nationality (7.3)");
    state.markers.pop();
    assert_eq!(cost(&state), 2, "the marker gone, both paid for again");
}

#[test]
fn rule_6_c_a_beach_head_no_allied_unit_traces_to_is_removed_and_7_63_one_that_supplies_stays() {
    use sandtable_engine::rules::supply::{marker_needed, unused_marker_sources};
    let content = b2b();
    let (mut state, [one, _, _]) = beach_head_a();
    put_beach_head(&mut state);
    let unused = unused_marker_sources(content, &state, "allied");
    assert_eq!(
        unused,
        vec![("beach_head_br".to_string(), "beach_a".to_string())]
    );
    assert!(!marker_needed(content, &state, "beach_head_br", "beach_a"));
    // A British corps inland, supplied only through the beach head.
    let corps = state
        .units
        .iter()
        .position(|u| u.counter == "br_corps" && u.at == Loc::Unplaced)
        .unwrap();
    state.units[corps].at = Loc::Space(one.as_str().into());
    assert!(unused_marker_sources(content, &state, "allied").is_empty());
    assert!(marker_needed(content, &state, "beach_head_br", "beach_a"));
    assert!(
        unused_marker_sources(content, &state, "axis").is_empty(),
        "not the Axis's to lose"
    );
}
