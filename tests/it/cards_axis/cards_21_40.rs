//! Axis cards 21 to 40 but 39, each played from a prepared state (51, the second Anti-Partisan
//! Sweep, too, beside 40).

use sandtable_engine::state::{Loc, ModifierEffect, State};

use super::{at_turn, drms, fight, in_box, put, put_marker};
use crate::cards::*;

// --- 21 Herkules

#[test]
fn axis_21_herkules_takes_malta_and_eliminates_the_allied_units_there() {
    let mut s = at_turn(3, 1);
    let br = put(&mut s, "br_corps", "malta");
    assert!(playable("herkules", &s));
    assert_eq!(play("herkules", &mut s, &[]), None);
    assert_eq!(s.control["malta"], "axis");
    assert_eq!(s.units[br].at, Loc::Box("allied_eliminated".into()));
    assert!(s.flags.contains("herkules_full_supply_by_sea"));
}

#[test]
fn axis_21_herkules_may_not_be_played_if_the_allies_control_benghazi_or_algiers() {
    let mut s = at_turn(3, 1);
    s.control.insert("benghazi".into(), "allied".into());
    assert!(!playable("herkules", &s));
    let mut s = at_turn(3, 1);
    s.control.insert("algiers".into(), "allied".into());
    assert!(!playable("herkules", &s));
}

// --- 22 German Reinforcements (PanzerArmee Afrika)

#[test]
fn axis_22_german_reinforcements_place_panzerarmee_afrika_and_send_a_panzer_corps_to_reserve() {
    let mut s = at_turn(2, 1);
    let pz = units_of(&s, "ge_pz_corps", "hellfire_pass")[0];
    let reserve = in_box(&s, "ge_pz_corps", "axis_reserve");
    assert!(playable("german_reinforcements_22", &s));
    assert_eq!(play("german_reinforcements_22", &mut s, &[]), None);
    assert_eq!(units_of(&s, "ge_pzaa", "tripoli").len(), 1);
    assert_eq!(s.units[pz].at, Loc::Box("axis_reserve".into()));
    assert_eq!(in_box(&s, "ge_pz_corps", "axis_reserve"), reserve + 1);
}

#[test]
fn axis_22_german_reinforcements_need_a_panzer_corps_in_africa_and_not_on_turn_1() {
    assert!(!playable("german_reinforcements_22", &campaign()));
    let mut s = at_turn(2, 1);
    let pz = units_of(&s, "ge_pz_corps", "hellfire_pass")[0];
    s.units[pz].at = Loc::Box("axis_reserve".into());
    assert!(!playable("german_reinforcements_22", &s));
    let mut s = at_turn(2, 1);
    s.record_played("german_reinforcements_24");
    assert!(
        !playable("german_reinforcements_22", &s),
        "one German reinforcement a turn"
    );
}

// --- 23 Axis Satellites

#[test]
fn axis_23_axis_satellites_place_the_italian_8th_at_odessa_and_hungarian_2nd_at_kiev() {
    let mut s = at_turn(4, 1);
    assert!(!playable("axis_satellites", &s));
    // The Axis has overrun the Soviet Union west of the Dnepr: the Soviet armies are gone east.
    for space in &b2b().graph.spaces {
        if space.country.as_deref() == Some("soviet_union")
            && space.pos.is_some_and(|p| p.x < 1350.0)
        {
            s.control.insert(space.id, "axis".into());
        }
    }
    for unit in s.units.iter_mut() {
        if b2b()
            .counter(&unit.counter)
            .is_some_and(|c| c.nation == "su")
            && matches!(unit.at, Loc::Space(_))
        {
            unit.at = Loc::Box("allied_reserve".into());
        }
    }
    assert!(
        playable("axis_satellites", &s),
        "Kiev and Odessa Axis and in supply"
    );
    let mut cut = s.clone();
    for n in b2b().graph.neighbour_ids("kiev") {
        cut.control.insert(n.into(), "allied".into());
    }
    assert!(!playable("axis_satellites", &cut), "Kiev out of supply");
    s.control.insert("kiev".into(), "allied".into());
    assert!(!playable("axis_satellites", &s), "Kiev must be Axis");
    s.control.insert("kiev".into(), "axis".into());
    assert_eq!(play("axis_satellites", &mut s, &[]), None);
    assert_eq!(units_of(&s, "it_8th_army", "odessa").len(), 1);
    assert_eq!(units_of(&s, "hu_2nd_army", "kiev").len(), 1);
}

// --- 24 German Reinforcements (Panzer corps)

#[test]
fn axis_24_german_reinforcements_place_a_panzer_and_an_ss_panzer_corps_in_reserve() {
    let mut s = at_turn(2, 1);
    let pz = in_box(&s, "ge_pz_corps", "axis_reserve");
    assert!(playable("german_reinforcements_24", &s));
    assert_eq!(play("german_reinforcements_24", &mut s, &[]), None);
    assert_eq!(in_box(&s, "ge_pz_corps", "axis_reserve"), pz + 1);
    assert_eq!(in_box(&s, "ge_ss_pz_corps", "axis_reserve"), 1);
    assert!(
        !playable("german_reinforcements_24", &campaign()),
        "not on turn 1"
    );
}

// --- 25 Stuka

#[test]
fn axis_25_stuka_gives_german_attacks_on_soviets_a_drm_this_round() {
    let mut s = at_turn(3, 1);
    assert!(playable("stuka", &s));
    assert_eq!(play("stuka", &mut s, &[]), None);
    assert_eq!(
        drms(&s),
        [(
            ModifierEffect::Drm(1),
            "axis".into(),
            Some("ge".into()),
            Some("su".into()),
            "end_of_round".into()
        )]
    );
}

#[test]
fn axis_25_stuka_may_be_played_in_summer_and_fall_41_to_43_only() {
    assert!(playable("stuka", &at_turn(11, 1)), "Fall 43");
    assert!(!playable("stuka", &at_turn(4, 1)), "Winter 42");
    assert!(!playable("stuka", &at_turn(9, 3)), "Spring 43");
    assert!(!playable("stuka", &at_turn(14, 1)), "Summer 44");
}

// --- 26 Totaler Krieg!

#[test]
fn axis_26_totaler_krieg_adds_20_vp_from_11_and_ends_automatic_victory() {
    let mut s = at_turn(9, 1);
    s.record_played("hitler_takes_command");
    s.tracks.insert("vp".into(), 11);
    assert!(playable("totaler_krieg", &s));
    assert_eq!(play("totaler_krieg", &mut s, &[]), None);
    assert_eq!(s.track("vp"), 31);
    assert!(s.flags.contains("axis_automatic_victory_lost"));

    let mut s = at_turn(9, 1);
    s.tracks.insert("vp".into(), 10);
    play("totaler_krieg", &mut s, &[]);
    assert_eq!(s.track("vp"), 10);
}

#[test]
fn axis_26_totaler_krieg_may_be_played_only_after_hitler_takes_command() {
    assert!(!playable("totaler_krieg", &at_turn(9, 1)));
}

// --- 27 Fall Zitadelle

#[test]
fn axis_27_fall_zitadelle_marks_two_spaces_gives_soviet_defenders_plus_two_and_costs_a_vp_unless_it_succeeds(
) {
    let mut s = at_turn(10, 1);
    s.record_played("hitler_takes_command");
    assert!(playable("fall_zitadelle", &s));
    assert_eq!(
        play("fall_zitadelle", &mut s, &[answer(&["warsaw", "lublin"])]),
        None
    );
    assert_eq!(marked(&s, "combat"), ["lublin", "warsaw"]);
    let m = &s.modifiers[0];
    assert_eq!(
        (
            &m.effect,
            m.side.as_str(),
            m.defender_nation.as_deref(),
            m.until.as_str()
        ),
        (
            &ModifierEffect::Drm(2),
            "allied",
            Some("su"),
            "end_of_round"
        )
    );
    assert_eq!(s.track("vp"), 6);
    assert!(s.flags.contains("zitadelle_advance_pending"));
    s.end("end_of_round");
    assert!(!s.flags.contains("zitadelle_advance_pending"));
    assert!(!playable("fall_zitadelle", &at_turn(10, 1)));
}

// --- 28 Skorzeny

#[test]
fn axis_28_skorzeny_adds_a_vp_after_achse_or_allied_rome() {
    let mut s = at_turn(11, 1);
    assert!(!playable("skorzeny", &s));
    s.record_played("achse");
    assert!(playable("skorzeny", &s));
    assert_eq!(play("skorzeny", &mut s, &[]), None);
    assert_eq!(s.track("vp"), 8);
    let mut s = at_turn(11, 1);
    s.control.insert("rome".into(), "allied".into());
    assert!(playable("skorzeny", &s));
}

// --- 29 FW-190

#[test]
fn axis_29_fw_190_cancels_the_8th_air_force_and_adds_a_vp() {
    let mut s = at_turn(10, 2);
    assert!(!playable("fw_190", &s));
    play("us_8th_air_force", &mut s, &[]);
    assert_eq!(s.modifiers.len(), 1);
    assert!(playable("fw_190", &s));
    assert_eq!(play("fw_190", &mut s, &[]), None);
    assert!(s.modifiers.is_empty());
    assert_eq!(s.track("vp"), 8);
    let mut s = at_turn(10, 2);
    s.record_played("us_8th_air_force");
    s.record_played("p_51_mustang");
    assert!(!playable("fw_190", &s), "not after P-51 Mustang");
}

// --- 30 Kesselring

#[test]
fn axis_30_kesselring_helps_german_defenders_in_italy_and_sicily() {
    let mut s = campaign();
    let ge = put(&mut s, "ge_corps", "messina");
    let us = put(&mut s, "us_corps", "palermo");
    assert_eq!(
        play_combat(
            "kesselring",
            &mut s,
            fight(false, vec![us], vec![ge], "messina")
        ),
        [ModifierEffect::Drm(1)]
    );
    let ge2 = put(&mut s, "ge_10th_army", "rome");
    assert_eq!(
        play_combat(
            "kesselring",
            &mut s,
            fight(false, vec![us], vec![ge2], "rome")
        ),
        [ModifierEffect::Drm(1)]
    );
    let it = units_of(&s, "it_corps", "naples");
    assert!(play_combat("kesselring", &mut s, fight(false, vec![us], it, "naples")).is_empty());
    let nl = units_of(&s, "ge_corps", "holland");
    assert!(play_combat("kesselring", &mut s, fight(false, vec![us], nl, "holland")).is_empty());
    assert!(play_combat(
        "kesselring",
        &mut s,
        fight(true, vec![ge], vec![us], "palermo")
    )
    .is_empty());
}

// --- 31 Achse

#[test]
fn axis_31_achse_lets_german_armies_into_southern_italy() {
    let mut s = at_turn(10, 1);
    assert!(!playable("achse", &s));
    s.control.insert("messina".into(), "allied".into());
    assert!(playable("achse", &s));
    assert_eq!(play("achse", &mut s, &[]), None);
    assert!(s.flags.contains("german_lcus_south_italy"));
    assert!(playable("skorzeny", &s));
}

#[test]
fn axis_31_achse_may_be_played_after_an_invasion_at_m_o_r_or_t() {
    let mut s = at_turn(10, 1);
    put_marker(&mut s, "beach_head_allied", "beach_n");
    assert!(!playable("achse", &s));
    put_marker(&mut s, "beach_head_us", "beach_o");
    assert!(playable("achse", &s));
}

// --- 32-37 German Reinforcements

#[test]
fn axis_32_german_reinforcements_place_the_reduced_10th_and_14th_armies_and_two_corps() {
    let mut s = at_turn(10, 1);
    let corps = in_box(&s, "ge_corps", "axis_reserve");
    assert!(playable("german_reinforcements_32", &s));
    let d = play("german_reinforcements_32", &mut s, &[]).expect("where the 10th goes");
    assert!(
        d.options.contains(&"berlin".to_string()) && !d.options.contains(&"vienna".to_string())
    );
    let answers = [answer(&["berlin"]), answer(&["ruhr"])];
    assert_eq!(play("german_reinforcements_32", &mut s, &answers), None);
    let a = units_of(&s, "ge_10th_army", "berlin")[0];
    let b = units_of(&s, "ge_14th_army", "ruhr")[0];
    assert!(s.units[a].reduced && s.units[b].reduced);
    assert_eq!(in_box(&s, "ge_corps", "axis_reserve"), corps + 2);
    assert!(
        !playable("german_reinforcements_33", &s),
        "one German reinforcement a turn"
    );
}

#[test]
fn axis_33_german_reinforcements_place_the_reduced_15th_and_19th_armies_and_two_corps() {
    let mut s = at_turn(10, 1);
    let corps = in_box(&s, "ge_corps", "axis_reserve");
    let answers = [answer(&["breslau"]), answer(&["berlin"])];
    assert_eq!(play("german_reinforcements_33", &mut s, &answers), None);
    let a = units_of(&s, "ge_15th_army", "breslau")[0];
    let b = units_of(&s, "ge_19th_army", "berlin")[0];
    assert!(s.units[a].reduced && s.units[b].reduced);
    assert_eq!(in_box(&s, "ge_corps", "axis_reserve"), corps + 2);
}

#[test]
fn axis_34_german_reinforcements_place_the_8th_army_at_full_strength_and_a_corps() {
    let mut s = at_turn(10, 1);
    let corps = in_box(&s, "ge_corps", "axis_reserve");
    assert!(playable("german_reinforcements_34", &s));
    assert_eq!(
        play("german_reinforcements_34", &mut s, &[answer(&["berlin"])]),
        None
    );
    let a = units_of(&s, "ge_8th_army", "berlin")[0];
    assert!(!s.units[a].reduced);
    assert_eq!(in_box(&s, "ge_corps", "axis_reserve"), corps + 1);
    let mut s = at_turn(10, 1);
    s.control.insert("berlin".into(), "allied".into());
    assert_eq!(
        play("german_reinforcements_34", &mut s, &[answer(&["ruhr"])]),
        None
    );
}

#[test]
fn axis_35_german_reinforcements_place_the_reduced_5th_pz_army_and_a_panzer_corps_after_speer() {
    let mut s = at_turn(12, 1);
    assert!(!playable("german_reinforcements_35", &s));
    s.record_played("speer");
    assert!(playable("german_reinforcements_35", &s));
    let pz = in_box(&s, "ge_pz_corps", "axis_reserve");
    assert_eq!(
        play("german_reinforcements_35", &mut s, &[answer(&["berlin"])]),
        None
    );
    let a = units_of(&s, "ge_5th_pz_army", "berlin")[0];
    assert!(s.units[a].reduced);
    assert_eq!(in_box(&s, "ge_pz_corps", "axis_reserve"), pz + 1);
}

#[test]
fn axis_36_german_reinforcements_place_the_6th_ss_pz_army_and_an_ss_panzer_corps_after_speer() {
    let mut s = at_turn(12, 1);
    assert!(!playable("german_reinforcements_36", &s));
    s.record_played("speer");
    assert!(playable("german_reinforcements_36", &s));
    assert_eq!(
        play("german_reinforcements_36", &mut s, &[answer(&["ruhr"])]),
        None
    );
    let a = units_of(&s, "ge_6th_ss_pz_army", "ruhr")[0];
    assert!(!s.units[a].reduced);
    assert_eq!(in_box(&s, "ge_ss_pz_corps", "axis_reserve"), 1);
}

#[test]
fn axis_37_german_reinforcements_place_the_1st_fj_army() {
    let mut s = at_turn(12, 1);
    assert!(playable("german_reinforcements_37", &s));
    assert_eq!(
        play("german_reinforcements_37", &mut s, &[answer(&["munich"])]),
        None
    );
    assert_eq!(units_of(&s, "ge_1st_fj_army", "munich").len(), 1);
    s.record_played("german_reinforcements_37");
    assert!(
        !playable("german_reinforcements_34", &s),
        "one German reinforcement a turn"
    );
}

// --- 38 Atlantic Wall

#[test]
fn axis_38_atlantic_wall_places_two_wall_trenches_next_to_beaches_a_to_i() {
    let mut s = at_turn(12, 1);
    assert!(playable("atlantic_wall", &s));
    let d = play("atlantic_wall", &mut s, &[]).expect("two spaces");
    assert!(d.options.contains(&"calais".to_string()));
    assert!(d.options.contains(&"bergen".to_string()));
    assert!(
        !d.options.contains(&"paris".to_string()),
        "not on the coast"
    );
    assert!(
        !d.options.contains(&"marseilles".to_string()),
        "beach J is not in A-I"
    );
    assert!(!d.options.iter().any(|o| o.starts_with("beach_")));
    assert_eq!(
        play("atlantic_wall", &mut s, &[answer(&["calais", "caen"])]),
        None
    );
    assert_eq!(marked(&s, "atlantic_wall"), ["caen", "calais"]);
}

#[test]
fn axis_38_atlantic_wall_may_not_be_played_after_round_up_or_overlord() {
    let mut s = at_turn(14, 1);
    s.record_played("overlord");
    assert!(!playable("atlantic_wall", &s));
    let mut s = at_turn(14, 1);
    s.record_played("round_up");
    assert!(!playable("atlantic_wall", &s));
}

// --- 40 and 51 Anti-Partisan Sweep

fn partisans() -> State {
    let mut s = at_turn(9, 1);
    for p in ["kiev", "minsk", "belgrade"] {
        put_marker(&mut s, "partisan", p);
    }
    s
}

#[test]
fn axis_40_anti_partisan_sweep_removes_two_partisan_markers() {
    let mut s = partisans();
    let d = play("anti_partisan_sweep_40", &mut s, &[]).expect("two of three");
    assert_eq!((d.by.as_str(), d.min, d.max), ("axis", 2, 2));
    assert_eq!(
        play(
            "anti_partisan_sweep_40",
            &mut s,
            &[answer(&["kiev", "belgrade"])]
        ),
        None
    );
    assert_eq!(marked(&s, "partisan"), ["minsk"]);
}

#[test]
fn axis_51_anti_partisan_sweep_removes_two_partisan_markers() {
    let mut s = partisans();
    assert_eq!(
        play(
            "anti_partisan_sweep_51",
            &mut s,
            &[answer(&["kiev", "minsk"])]
        ),
        None
    );
    assert_eq!(marked(&s, "partisan"), ["belgrade"]);
    assert_eq!(
        play("anti_partisan_sweep_51", &mut s, &[]),
        None,
        "the last one goes"
    );
    assert!(marked(&s, "partisan").is_empty());
}
