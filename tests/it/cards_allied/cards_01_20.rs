//! Allied cards 1 to 20, each played from a prepared state.

use sandtable_engine::script::eval::Combat;
use sandtable_engine::state::{Loc, ModifierEffect};

use super::{
    africa_cleared, after_build_up, at, country_of, locs, piece, pieces, play_auto, played_on,
    reserve, space, units_on,
};
use crate::cards::*;

fn combat(attacking: bool, attackers: Vec<usize>, defenders: Vec<usize>, at: &str) -> Combat {
    Combat {
        attacking,
        attackers,
        defenders,
        defending_space: at.into(),
    }
}

#[test]
fn allied_1_torch_needs_build_up_and_not_sledgehammer() {
    assert!(!playable("torch", &at(6, 1)));
    let s = after_build_up(6, 1);
    assert!(playable("torch", &s));
    let mut same_turn = at(6, 1);
    same_turn.flags.insert("us_at_war".into());
    same_turn.record_played("us_build_up");
    assert!(
        !playable("torch", &same_turn),
        "not on the turn of U.S. Build-Up"
    );
    let mut after = s.clone();
    played_on(&mut after, "sledgehammer", 5);
    assert!(!playable("torch", &after));
    let mut second = s.clone();
    second.record_played("husky");
    assert!(!playable("torch", &second), "one invasion per turn");
}

#[test]
fn allied_1_torch_lands_british_1st_army_and_two_us_corps_on_linked_beaches() {
    let mut s = after_build_up(6, 1);
    let answers = [
        answer(&["beach_k"]),
        answer(&["beach_l"]),
        answer(&["beach_k"]),
    ];
    assert_eq!(play("torch", &mut s, &answers), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_k"]);
    assert_eq!(marked(&s, "beach_head_us"), ["beach_l"]);
    assert_eq!(marked(&s, "combat"), ["beach_k", "beach_l"]);
    let br = piece(&s, "br_1st_army");
    assert_eq!(s.units[br].at, space("beach_k"));
    assert!(s.units[br].reduced, "LCUs land reduced");
    assert_eq!(pieces(&s, "us_corps", &space("beach_l")), 1);
    assert_eq!(pieces(&s, "us_corps", &space("beach_k")), 1);
    assert!(s.flags.contains("vichy_at_war"));
}

#[test]
fn allied_2_soviet_reinforcements_place_four_fronts_and_four_armies_in_reserve() {
    assert!(
        !playable("soviet_reinforcements_2", &at(1, 1)),
        "not on June 41"
    );
    let mut s = at(2, 1);
    assert!(playable("soviet_reinforcements_2", &s));
    let before = pieces(&s, "su_army", &reserve());
    play_auto("soviet_reinforcements_2", &mut s);
    for front in [
        "su_don_front",
        "su_stalingrad_front",
        "su_steppe_front",
        "su_voronezh_front",
    ] {
        let Loc::Space(x) = &s.units[piece(&s, front)].at else {
            panic!("{front} not on the map")
        };
        assert_eq!(country_of(x), "soviet_union");
        // 7.62: the capital, a Full Supply source or an Urban Center in the home country.
        let space = b2b().graph.space(x).unwrap();
        let eligible = space
            .features
            .iter()
            .any(|f| f == "urban" || f == "capital")
            || ["sverdlovsk", "chelyabinsk"].contains(&x.as_str());
        assert!(eligible, "{x}");
    }
    assert_eq!(pieces(&s, "su_army", &reserve()), before + 4);
}

#[test]
fn allied_3_stavka_cancels_soviet_orders_for_this_turn() {
    let mut s = at(3, 1);
    assert!(playable("stavka", &s));
    assert_eq!(play("stavka", &mut s, &[]), None);
    assert!(s.flags.contains("soviet_orders_cancelled"));
    s.end("end_of_turn");
    assert!(!s.flags.contains("soviet_orders_cancelled"));
}

#[test]
fn allied_4_soviet_reinforcements_place_six_tank_armies_four_turns_after_industrial_evacuation() {
    let mut s = at(8, 1);
    assert!(!playable("soviet_reinforcements_4", &s));
    played_on(&mut s, "industrial_evacuation", 5);
    assert!(
        !playable("soviet_reinforcements_4", &s),
        "three turns later"
    );
    s.turn = 9;
    assert!(playable("soviet_reinforcements_4", &s));
    play_auto("soviet_reinforcements_4", &mut s);
    for n in ["1st", "2nd", "3rd", "4th", "5th", "6th"] {
        let Loc::Space(x) = &s.units[piece(&s, &format!("su_{n}_tank_army"))].at else {
            panic!("{n} Tank Army not on the map")
        };
        assert_eq!(country_of(x), "soviet_union");
    }
}

#[test]
fn allied_5_british_reinforcements_place_desert_army_and_a_cw_corps() {
    assert!(!playable("british_reinforcements_5", &at(1, 1)));
    let mut s = at(3, 1);
    assert!(playable("british_reinforcements_5", &s));
    let d = play("british_reinforcements_5", &mut s, &[]).unwrap();
    let mut options = d.options.clone();
    options.sort();
    assert_eq!(options, ["alexandria", "basra", "cairo"]);
    let cw = pieces(&s, "cw_corps", &reserve());
    assert_eq!(
        play("british_reinforcements_5", &mut s, &[answer(&["cairo"])]),
        None
    );
    assert_eq!(locs(&s, "br_desert_army"), [space("cairo")]);
    assert_eq!(pieces(&s, "cw_corps", &reserve()), cw + 1);
}

#[test]
fn allied_6_fdr_declares_war_brings_the_us_in_after_summer_41() {
    assert!(!playable("fdr_declares_war", &at(2, 1)));
    let mut s = at(3, 1);
    assert!(playable("fdr_declares_war", &s));
    assert_eq!(play("fdr_declares_war", &mut s, &[]), None);
    assert!(s.flags.contains("us_at_war"));
    let mut other = at(4, 1);
    played_on(&mut other, "hitler_declares_war", 3);
    assert!(!playable("fdr_declares_war", &other));
}

#[test]
fn allied_7_industrial_evacuation_not_after_moscow_fell_and_enables_card_4() {
    let mut s = at(3, 1);
    assert!(playable("industrial_evacuation", &s));
    let mut fallen = s.clone();
    fallen.flags.insert("moscow_ever_axis".into());
    assert!(!playable("industrial_evacuation", &fallen));
    assert_eq!(play("industrial_evacuation", &mut s, &[]), None);
    assert_eq!(s.played.get("industrial_evacuation"), Some(&3));
    // One more Allied card from turn 3 + 8 = 11 on, for the rest of the game.
    let extra = &s.modifiers[0];
    assert_eq!(
        (
            &extra.effect,
            extra.side.as_str(),
            extra.from_turn,
            extra.until.as_str()
        ),
        (
            &ModifierEffect::HandLimit(1),
            "allied",
            Some(11),
            "rest_of_game"
        )
    );
    s.turn = 7;
    assert!(playable("soviet_reinforcements_4", &s));
}

#[test]
fn allied_8_fortified_boxes_plus_one_for_allied_defenders_in_the_desert() {
    let mut s = campaign();
    let br = piece(&s, "cw_corps");
    let ge = piece(&s, "ge_16th_army");
    assert_eq!(
        play_combat(
            "fortified_boxes",
            &mut s,
            combat(false, vec![ge], vec![br], "buq_buq")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert!(play_combat(
        "fortified_boxes",
        &mut s,
        combat(false, vec![ge], vec![br], "riga")
    )
    .is_empty());
    assert!(play_combat(
        "fortified_boxes",
        &mut s,
        combat(true, vec![br], vec![ge], "buq_buq")
    )
    .is_empty());
}

#[test]
fn allied_9_us_build_up_needs_us_entry_on_an_earlier_turn() {
    let mut s = at(4, 1);
    assert!(!playable("us_build_up", &s));
    s.flags.insert("us_at_war".into());
    played_on(&mut s, "fdr_declares_war", 4);
    assert!(!playable("us_build_up", &s), "not on the turn of entry");
    s.turn = 5;
    assert!(playable("us_build_up", &s));
    assert_eq!(play("us_build_up", &mut s, &[]), None);
    s.turn = 6;
    assert!(playable("torch", &s));
}

#[test]
fn allied_10_nkvd_boosts_morale_not_for_non_soviet_defenders() {
    let mut s = campaign();
    let br = piece(&s, "cw_corps");
    let ge = piece(&s, "ge_16th_army");
    assert!(play_combat(
        "nkvd_boosts_morale",
        &mut s,
        combat(false, vec![ge], vec![br], "cairo")
    )
    .is_empty());
}

#[test]
fn allied_11_sorge_marks_two_soviet_spaces_and_allows_siberians() {
    let mut s = at(3, 1);
    let d = play("sorge", &mut s, &[]).unwrap();
    assert_eq!((d.min, d.max), (0, 2));
    assert!(d.options.contains(&"riga".to_string()));
    assert!(!d.options.contains(&"memel".to_string()));
    let answers = [
        answer(&["riga", "leningrad"]),
        answer(&["no"]),
        answer(&["yes"]),
    ];
    // The spaces are asked about in their order: Leningrad, then Riga.
    assert_eq!(play("sorge", &mut s, &answers), None);
    assert_eq!(marked(&s, "move"), ["leningrad"]);
    assert_eq!(marked(&s, "combat"), ["riga"]);
    assert!(playable("siberians", &s));
}

#[test]
fn allied_12_bomber_command_cuts_the_axis_hand_by_two_in_rounds_1_to_5() {
    assert!(playable("bomber_command", &at(5, 5)));
    assert!(!playable("bomber_command", &at(5, 6)));
    assert!(!playable("bomber_command", &at(1, 6)));
    assert!(
        playable("bomber_command", &at(15, 6)),
        "from Fall 44 any round"
    );
    let mut s = at(5, 1);
    assert_eq!(play("bomber_command", &mut s, &[]), None);
    let m = &s.modifiers[0];
    assert_eq!(
        (m.effect.clone(), m.side.as_str(), m.until.as_str()),
        (ModifierEffect::HandLimit(-2), "axis", "next_draw")
    );
}

#[test]
fn allied_13_siberians_place_five_shock_armies_after_sorge() {
    let mut s = at(4, 1);
    assert!(!playable("siberians", &s));
    played_on(&mut s, "sorge", 3);
    assert!(playable("siberians", &s));
    play_auto("siberians", &mut s);
    for n in ["1st", "2nd", "3rd", "4th", "5th"] {
        let Loc::Space(x) = &s.units[piece(&s, &format!("su_{n}_shock_army"))].at else {
            panic!("{n} Shock Army not on the map")
        };
        assert_eq!(country_of(x), "soviet_union");
    }
}

#[test]
fn allied_14_lend_lease_allows_the_mechanized_fronts() {
    let mut s = at(10, 3);
    assert!(!playable("soviet_reinforcements_31", &s));
    assert_eq!(play("lend_lease", &mut s, &[]), None);
    assert!(s.played.contains_key("lend_lease"));
    assert!(playable("soviet_reinforcements_31", &s));
}

#[test]
fn allied_15_casablanca_needs_north_africa_and_subtracts_a_vp_per_neutral_vp_space() {
    let mut s = at(8, 1);
    assert!(!playable("casablanca", &s));
    s.control.insert("oran".into(), "allied".into());
    s.control.insert("algiers".into(), "allied".into());
    assert!(!playable("casablanca", &s), "Axis still in Libya");
    africa_cleared(&mut s);
    assert!(playable("casablanca", &s));
    let neutral_vp = b2b()
        .graph
        .spaces
        .iter()
        .filter(|x| x.vp > 0 && !s.control.contains_key(&x.id))
        .count() as i64;
    assert!(neutral_vp > 0);
    let vp = s.track("vp");
    assert_eq!(play("casablanca", &mut s, &[]), None);
    assert_eq!(s.track("vp"), vp - neutral_vp);
    assert!(s.flags.contains("neutrals_allied_for_vp"));
}

#[test]
fn allied_16_sledgehammer_lands_on_one_allied_beach_head_not_in_winter_nor_after_torch() {
    let s = after_build_up(6, 1);
    assert!(playable("sledgehammer", &s));
    assert!(
        !playable("sledgehammer", &after_build_up(8, 1)),
        "Winter: no A-I"
    );
    let mut torch = s.clone();
    played_on(&mut torch, "torch", 5);
    assert!(!playable("sledgehammer", &torch));
    let mut s = s;
    assert_eq!(play("sledgehammer", &mut s, &[answer(&["beach_d"])]), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_d"]);
    assert_eq!(marked(&s, "combat"), ["beach_d"]);
    let br = piece(&s, "br_1st_army");
    assert_eq!(s.units[br].at, space("beach_d"));
    assert!(s.units[br].reduced);
    assert_eq!(pieces(&s, "us_corps", &space("beach_d")), 2);
    assert!(s.flags.contains("vichy_at_war"), "D is among C-U");
    let mut north = after_build_up(6, 1);
    play("sledgehammer", &mut north, &[answer(&["beach_a"])]);
    assert!(!north.flags.contains("vichy_at_war"), "A is not among C-U");
}

#[test]
fn allied_17_zhukov_plus_one_for_soviet_fire_attacking_or_defending() {
    let mut s = campaign();
    let su = units_of(&s, "su_army", "riga");
    let ge = units_of(&s, "ge_16th_army", "memel");
    let br = vec![piece(&s, "cw_corps")];
    assert_eq!(
        play_combat(
            "zhukov",
            &mut s,
            combat(true, su.clone(), ge.clone(), "memel")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert_eq!(
        play_combat("zhukov", &mut s, combat(false, ge.clone(), su, "riga")),
        [ModifierEffect::Drm(1)]
    );
    assert!(play_combat("zhukov", &mut s, combat(false, ge, br, "cairo")).is_empty());
}

#[test]
fn allied_18_t_34_plus_one_only_with_a_soviet_mechanized_unit() {
    let mut s = campaign();
    let su = units_of(&s, "su_army", "riga");
    let ge = units_of(&s, "ge_16th_army", "memel");
    assert!(play_combat(
        "t_34",
        &mut s,
        combat(true, su.clone(), ge.clone(), "memel")
    )
    .is_empty());
    let tank = piece(&s, "su_1st_tank_army");
    s.units[tank].at = space("riga");
    let mut with_tank = su.clone();
    with_tank.push(tank);
    assert_eq!(
        play_combat(
            "t_34",
            &mut s,
            combat(true, with_tank.clone(), ge.clone(), "memel")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert_eq!(
        play_combat("t_34", &mut s, combat(false, ge, with_tank, "riga")),
        [ModifierEffect::Drm(1)]
    );
}

#[test]
fn allied_19_partisans_place_one_marker_in_an_axis_space_of_the_listed_countries() {
    let mut s = at(3, 1);
    let d = play("partisans", &mut s, &[]).unwrap();
    assert_eq!((d.min, d.max), (0, 1));
    for o in &d.options {
        let c = country_of(o);
        assert!(
            ["soviet_union", "greece", "albania", "yugoslavia"].contains(&c.as_str()),
            "{o} in {c}"
        );
        assert_eq!(s.control.get(o.as_str()).map(|x| x.as_str()), Some("axis"));
        assert!(units_on(&s, o).is_empty(), "{o} holds a unit");
    }
    let pick = d.options[0].clone();
    assert_eq!(play("partisans", &mut s, &[answer(&[&pick])]), None);
    assert_eq!(marked(&s, "partisan"), [pick]);
    let mut full = at(3, 1);
    for x in ["moscow", "kiev", "riga", "minsk", "odessa", "kharkov"] {
        full.markers.push(sandtable_engine::state::MarkerOnMap {
            marker: "partisan".into(),
            space: x.into(),
            level: 1,
            until: None,
        });
    }
    assert_eq!(play("partisans", &mut full, &[]), None, "six already out");
    assert_eq!(marked(&full, "partisan").len(), 6);
}

#[test]
fn allied_20_paradrop_plus_one_offensive_fire_once_per_turn() {
    let mut s = campaign();
    let su = units_of(&s, "su_army", "riga");
    let ge = units_of(&s, "ge_16th_army", "memel");
    assert!(play_combat(
        "paradrop",
        &mut s,
        combat(false, ge.clone(), su.clone(), "riga")
    )
    .is_empty());
    assert_eq!(
        play_combat(
            "paradrop",
            &mut s,
            combat(true, su.clone(), ge.clone(), "memel")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert!(
        play_combat(
            "paradrop",
            &mut s,
            combat(true, su.clone(), ge.clone(), "memel")
        )
        .is_empty(),
        "once per turn"
    );
    s.end("end_of_turn");
    assert_eq!(
        play_combat("paradrop", &mut s, combat(true, su, ge, "memel")),
        [ModifierEffect::Drm(1)]
    );
}
