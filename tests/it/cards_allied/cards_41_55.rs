//! Allied cards 41 to 55, each played from a prepared state.

use sandtable_engine::state::{Loc, ModifierEffect, State};

use super::{
    africa_cleared, after_build_up, at, country_of, locs, piece, pieces, played_on, reserve, space,
    spaces_of, units_on, us_reinforcements,
};
use crate::cards::*;

fn hand(s: &State, side: &str) -> usize {
    s.hands.get(side).map_or(0, Vec::len)
}

#[test]
fn allied_41_us_reinforcements_place_the_9th_army_and_a_corps() {
    us_reinforcements("us_reinforcements_41", "us_9th_army");
}

#[test]
fn allied_41_us_reinforcements_may_enter_at_an_opened_antwerp() {
    let mut s = after_build_up(16, 1);
    s.control.insert("antwerp".into(), "allied".into());
    let mut shut = s.clone();
    assert_eq!(
        play("us_reinforcements_41", &mut shut, &[]),
        None,
        "Basra only"
    );
    assert_eq!(locs(&shut, "us_9th_army"), [space("basra")]);
    s.flags.insert("antwerp_open".into());
    let d = play("us_reinforcements_41", &mut s, &[]).unwrap();
    assert!(d.options.contains(&"antwerp".to_string()));
}

#[test]
fn allied_42_tito_places_the_ypa_on_a_partisan_space_without_axis_units() {
    let mut s = at(11, 1);
    assert!(!playable("tito", &s));
    let target = spaces_of("yugoslavia")
        .into_iter()
        .find(|x| units_on(&s, x).is_empty())
        .expect("an empty Yugoslav space");
    s.markers.push(sandtable_engine::state::MarkerOnMap {
        marker: "partisan".into(),
        space: target.as_str().into(),
        level: 1,
        until: None,
    });
    assert!(playable("tito", &s));
    let mut held = s.clone();
    let german = piece(&held, "ge_16th_army");
    held.units[german].at = space(&target);
    assert!(!playable("tito", &held), "an Axis unit holds the space");
    assert_eq!(play("tito", &mut s, &[]), None);
    assert_eq!(locs(&s, "yu_ypa"), [space(&target)]);
}

#[test]
fn allied_43_operation_strangle_after_p_51_mustang() {
    let mut s = at(13, 1);
    assert!(!playable("operation_strangle", &s));
    played_on(&mut s, "p_51_mustang", 12);
    assert!(playable("operation_strangle", &s));
    assert_eq!(play("operation_strangle", &mut s, &[]), None);
    assert!(s.flags.contains("operation_strangle"));
}

#[test]
fn allied_44_thunderclap_discards_an_axis_card_at_random_after_yalta() {
    let mut s = at(16, 1);
    assert!(!playable("thunderclap", &s));
    played_on(&mut s, "yalta", 15);
    assert!(playable("thunderclap", &s));
    let n = hand(&s, "axis");
    assert!(n > 0);
    assert_eq!(play("thunderclap", &mut s, &[]), None);
    assert_eq!(hand(&s, "axis"), n - 1);
}

#[test]
fn allied_45_avalanche_lands_the_us_5th_army_reduced_unless_7th_army_on_map() {
    let mut s = after_build_up(11, 1);
    assert!(playable("avalanche", &s));
    let mut seventh = s.clone();
    let u = piece(&seventh, "us_7th_army");
    seventh.units[u].at = space("palermo");
    assert!(!playable("avalanche", &seventh));
    seventh.units[u].at = reserve();
    assert!(
        playable("avalanche", &seventh),
        "in the Reserve Box is fine"
    );
    let br = pieces(&s, "br_corps", &reserve());
    assert_eq!(play("avalanche", &mut s, &[]), None, "only Beach S is open");
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_s"]);
    assert_eq!(marked(&s, "combat"), ["beach_s"]);
    let a = piece(&s, "us_5th_army");
    assert_eq!(s.units[a].at, space("beach_s"));
    assert!(s.units[a].reduced);
    assert_eq!(pieces(&s, "br_corps", &reserve()), br + 1);
}

#[test]
fn allied_46_shingle_lands_two_corps_and_marks_the_shingle_beach_head() {
    let mut s = after_build_up(12, 1);
    assert!(playable("shingle", &s));
    let d = play("shingle", &mut s, &[]).unwrap();
    let mut options = d.options.clone();
    options.sort();
    assert_eq!(
        options,
        ["beach_k", "beach_l", "beach_s"],
        "Axis still in Libya"
    );
    assert_eq!(play("shingle", &mut s, &[answer(&["beach_l"])]), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_l"]);
    assert_eq!(pieces(&s, "us_corps", &space("beach_l")), 1);
    assert_eq!(pieces(&s, "br_corps", &space("beach_l")), 1);
    assert!(s.flags.contains("allied_beach_head_shingle"));
    let mut seventh = after_build_up(12, 1);
    let u = piece(&seventh, "us_7th_army");
    seventh.units[u].at = space("palermo");
    assert!(!playable("shingle", &seventh));
}

#[test]
fn allied_47_the_big_three_needs_casablanca_and_no_axis_in_africa_or_the_middle_east() {
    let mut s = at(12, 1);
    played_on(&mut s, "casablanca", 9);
    assert!(!playable("the_big_three", &s), "Axis in Libya");
    africa_cleared(&mut s);
    assert!(playable("the_big_three", &s));
    let mut no_casablanca = s.clone();
    no_casablanca.played.remove("casablanca");
    assert!(!playable("the_big_three", &no_casablanca));
    let vp = s.track("vp");
    assert_eq!(play("the_big_three", &mut s, &[]), None);
    assert_eq!(s.track("vp"), vp - 1);
}

#[test]
fn allied_48_bomb_plot_discards_an_axis_card_at_random() {
    let mut s = at(14, 1);
    let n = hand(&s, "axis");
    assert_eq!(play("bomb_plot", &mut s, &[]), None);
    assert_eq!(hand(&s, "axis"), n - 1);
    assert!(s.played.contains_key("bomb_plot"));
}

#[test]
fn allied_49_maquis_places_a_partisan_in_france_or_norway_italy_only_after_it_defects() {
    let mut s = at(13, 1);
    let d = play("maquis", &mut s, &[]).unwrap();
    assert!(!d.options.is_empty());
    for o in &d.options {
        let c = country_of(o);
        assert!(
            ["occupied_france", "vichy_france", "norway", "sweden"].contains(&c.as_str()),
            "{o} in {c}"
        );
    }
    played_on(&mut s, "italy_defects", 12);
    let mut s2 = s.clone();
    let milan_units = units_on(&s2, "milan");
    for u in milan_units {
        s2.units[u].at = Loc::Removed;
    }
    let d = play("maquis", &mut s2, &[]).unwrap();
    assert!(d.options.contains(&"milan".to_string()));
    let pick = d.options[0].clone();
    assert_eq!(play("maquis", &mut s, &[answer(&[&pick])]), None);
    assert_eq!(marked(&s, "partisan"), [pick]);
}

#[test]
fn allied_50_round_up_lands_reduced_armies_on_british_and_us_beach_heads() {
    let s = after_build_up(6, 1);
    assert!(playable("round_up", &s));
    assert!(!playable("round_up", &after_build_up(8, 1)), "Winter");
    let mut overlord = s.clone();
    played_on(&mut overlord, "overlord", 5);
    assert!(!playable("round_up", &overlord));
    let mut s = s;
    let us = pieces(&s, "us_corps", &reserve());
    assert_eq!(play("round_up", &mut s, &[answer(&["beach_d"])]), None);
    assert_eq!(marked(&s, "beach_head_br"), ["beach_d"]);
    assert_eq!(marked(&s, "beach_head_us"), ["beach_e"]);
    let (b2, u1) = (piece(&s, "br_2nd_army"), piece(&s, "us_1st_army"));
    assert_eq!(
        (s.units[b2].at.clone(), s.units[b2].reduced),
        (space("beach_d"), true)
    );
    assert_eq!(
        (s.units[u1].at.clone(), s.units[u1].reduced),
        (space("beach_e"), true)
    );
    assert_eq!(pieces(&s, "us_corps", &reserve()), us + 2);
    assert_eq!(
        pieces(&s, "br_corps", &reserve()),
        1 + pieces(&campaign(), "br_corps", &reserve())
    );
}

#[test]
fn allied_51_yalta_cancels_axis_no_retreat_vs_us_attacks_and_subtracts_a_vp() {
    let mut s = at(16, 1);
    assert!(!playable("yalta", &s), "no Greater German VP space held");
    s.control.insert("berlin".into(), "allied".into());
    assert!(playable("yalta", &s));
    let mut lost = s.clone();
    lost.control.insert("moscow".into(), "axis".into());
    assert!(!playable("yalta", &lost));
    let vp = s.track("vp");
    assert_eq!(play("yalta", &mut s, &[]), None);
    assert_eq!(s.track("vp"), vp - 1);
    let m = &s.modifiers[0];
    assert_eq!(
        (
            m.effect.clone(),
            m.attacker_nation.as_deref(),
            m.until.as_str()
        ),
        (ModifierEffect::CancelNoRetreat, Some("us"), "end_of_round")
    );
    assert!(playable("thunderclap", &s));
}

#[test]
fn allied_52_anvil_dragoon_lands_at_j_with_the_us_7th_and_french_1st_armies() {
    let mut s = after_build_up(14, 1);
    assert!(!playable("anvil_dragoon", &s), "Axis in Libya and Syracuse");
    africa_cleared(&mut s);
    assert!(!playable("anvil_dragoon", &s), "Axis holds Syracuse");
    s.control.insert("syracuse".into(), "allied".into());
    assert!(playable("anvil_dragoon", &s));
    let mut norway = s.clone();
    norway.markers.push(sandtable_engine::state::MarkerOnMap {
        marker: "beach_head_br".into(),
        space: "beach_a".into(),
        level: 1,
        until: None,
    });
    assert!(!playable("anvil_dragoon", &norway), "a Beach Head at A");
    let (us, ff) = (
        pieces(&s, "us_corps", &reserve()),
        pieces(&s, "ff_corps", &reserve()),
    );
    assert_eq!(play("anvil_dragoon", &mut s, &[]), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_j"]);
    for lcu in ["us_7th_army", "ff_1st_army"] {
        let u = piece(&s, lcu);
        assert_eq!(
            (s.units[u].at.clone(), s.units[u].reduced),
            (space("beach_j"), true)
        );
    }
    assert_eq!(pieces(&s, "us_corps", &reserve()), us + 1);
    assert_eq!(pieces(&s, "ff_corps", &reserve()), ff + 1);
}

#[test]
fn allied_53_p_51_mustang_allows_strangle_and_ix_tac_air() {
    let mut s = at(10, 1);
    assert!(!playable("operation_strangle", &s));
    assert_eq!(play("p_51_mustang", &mut s, &[]), None);
    assert!(playable("operation_strangle", &s));
    assert!(playable("ix_tac_air", &s));
}

#[test]
fn allied_54_finland_withdraws_subtracts_a_vp_if_the_soviets_hold_the_three_cities() {
    let mut s = at(14, 1);
    let vp = s.track("vp");
    assert_eq!(play("finland_withdraws", &mut s, &[]), None);
    assert_eq!(s.track("vp"), vp - 1);
    let mut lost = at(14, 1);
    lost.control.insert("riga".into(), "axis".into());
    play("finland_withdraws", &mut lost, &[]);
    assert_eq!(lost.track("vp"), vp);
}

#[test]
fn allied_55_patton_lets_the_us_3rd_army_attack_twice_this_round() {
    let mut s = at(15, 1);
    assert!(!playable("patton", &s));
    let u = piece(&s, "us_3rd_army");
    s.units[u].at = space("reims");
    assert!(playable("patton", &s));
    assert_eq!(play("patton", &mut s, &[]), None);
    assert!(s.flags.contains("patton_second_attack"));
    s.end("end_of_round");
    assert!(!s.flags.contains("patton_second_attack"));
}

#[test]
fn allied_54_finland_withdraws_needs_the_three_spaces_in_full_supply() {
    let mut s = campaign();
    for id in ["leningrad", "tallinn", "riga"] {
        s.control.insert(id.into(), "allied".into());
    }
    // Riga cut off: every neighbour in Axis hands.
    for n in b2b().graph.neighbour_ids("riga") {
        s.control.insert(n.into(), "axis".into());
    }
    let vp = s.track("vp");
    play("finland_withdraws", &mut s, &[]);
    assert_eq!(s.track("vp"), vp, "no VP while Riga is out of supply");
}
