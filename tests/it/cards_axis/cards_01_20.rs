//! Axis cards 1 to 20, each played from a prepared state (39 East Wall too, beside 7 Hedgehogs).

use sandtable_engine::state::{Loc, ModifierEffect, State};

use super::{at_turn, drms, fight, in_box, no_trenches, put, put_marker, unit, FIVE};
use crate::cards::*;

/// Takes every unit off a space (to the Allied eliminated box) and gives the space to a side.
fn take(s: &mut State, space: &str, side: &str) {
    for u in s.units.iter_mut() {
        if u.at == Loc::Space(space.into()) {
            u.at = Loc::Box("allied_eliminated".into());
        }
    }
    s.control.insert(space.into(), side.into());
}

// --- 1 Barbarossa

#[test]
fn axis_1_barbarossa_marks_five_spaces_adds_a_german_drm_and_cancels_soviet_trenches_this_turn() {
    let mut s = campaign();
    assert!(playable("barbarossa", &s));
    let d = play("barbarossa", &mut s, &[]).expect("asks for five spaces");
    assert_eq!((d.min, d.max), (5, 5));
    assert_eq!(play("barbarossa", &mut s, &[answer(&FIVE)]), None);
    assert_eq!(
        marked(&s, "combat"),
        ["insterburg", "lublin", "memel", "tarnow", "warsaw"]
    );
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
    s.end("end_of_round");
    assert!(s.modifiers.is_empty());
    assert!(s.flags.contains("soviet_trench_no_retreat_cancelled"));
    assert!(s.flags.contains("soviet_trench_shift_cancelled"));
    s.end("end_of_turn");
    assert!(!s.flags.contains("soviet_trench_no_retreat_cancelled"));
    assert!(!s.flags.contains("soviet_trench_shift_cancelled"));
}

#[test]
fn axis_1_barbarossa_may_be_played_on_turn_1_only_and_not_after_von_paulus_pause() {
    assert!(!playable("barbarossa", &at_turn(2, 1)));
    let mut s = campaign();
    s.record_played("von_paulus_pause");
    assert!(!playable("barbarossa", &s));
}

// --- 2 Von Paulus Pause

#[test]
fn axis_2_von_paulus_pause_marks_four_spaces_and_cancels_winter_42() {
    let mut s = campaign();
    assert!(playable("von_paulus_pause", &s));
    assert_eq!(
        play("von_paulus_pause", &mut s, &[answer(&FIVE[..4])]),
        None
    );
    assert_eq!(
        marked(&s, "combat"),
        ["insterburg", "lublin", "memel", "warsaw"]
    );
    assert!(s.modifiers.is_empty(), "no DRM");
    assert!(s.flags.contains("soviet_trench_no_retreat_cancelled"));
    s.end("end_of_round");
    assert!(!s.flags.contains("soviet_trench_no_retreat_cancelled"));
    s.end("end_of_turn");
    assert!(s.flags.contains("winter_42_cancelled"));
    assert!(s.flags.contains("von_paulus_rounds_owed"));
}

#[test]
fn axis_2_von_paulus_pause_may_not_be_played_after_barbarossa_or_after_turn_1() {
    assert!(!playable("von_paulus_pause", &at_turn(2, 1)));
    let mut s = campaign();
    s.record_played("barbarossa");
    assert!(!playable("von_paulus_pause", &s));
}

// --- 3 OKH Conference, 4 Taifun (more tests in cards.rs)

#[test]
fn axis_3_okh_conference_changes_nothing_but_is_recorded() {
    let mut s = at_turn(3, 1);
    let before = s.clone();
    assert_eq!(play("okh_conference", &mut s, &[]), None);
    assert_eq!(
        (s.markers.clone(), s.flags.clone()),
        (before.markers, before.flags)
    );
    assert!(s.played.contains_key("okh_conference"));
}

#[test]
fn axis_4_taifun_allows_attacks_on_moscow_for_the_rest_of_the_game() {
    let mut s = at_turn(3, 1);
    play("taifun", &mut s, &[answer(&FIVE[..4])]);
    s.end("end_of_turn");
    assert!(s.flags.contains("moscow_attackable"));
}

// --- 5 Panzergruppe Guderian

#[test]
fn axis_5_panzergruppe_guderian_gives_the_2nd_pz_army_a_second_attack_this_round() {
    let mut s = at_turn(2, 3);
    assert!(playable("panzergruppe_guderian", &s));
    assert_eq!(play("panzergruppe_guderian", &mut s, &[]), None);
    assert!(s.flags.contains("guderian_second_attack"));
    s.end("end_of_round");
    assert!(!s.flags.contains("guderian_second_attack"));
}

#[test]
fn axis_5_panzergruppe_guderian_may_not_be_played_after_hitler_takes_command_or_in_spring_thaw() {
    let mut s = at_turn(3, 1);
    s.record_played("hitler_takes_command");
    assert!(!playable("panzergruppe_guderian", &s));
    assert!(!playable("panzergruppe_guderian", &at_turn(5, 2)));
    assert!(playable("panzergruppe_guderian", &at_turn(5, 3)));
}

// --- 6 Panzer Refit

#[test]
fn axis_6_panzer_refit_restores_three_supplied_reduced_panzers_and_marks_their_spaces() {
    let mut s = at_turn(3, 1);
    for c in [
        "ge_1st_pz_army",
        "ge_2nd_pz_army",
        "ge_3rd_pz_army",
        "ge_4th_pz_army",
    ] {
        let i = unit(&s, c);
        s.units[i].reduced = true;
    }
    let d = play("panzer_refit", &mut s, &[]).expect("four candidates: the Axis picks three");
    assert_eq!(d.options.len(), 4);
    let pick = answer(&["ge_1st_pz_army", "ge_2nd_pz_army", "ge_3rd_pz_army"]);
    assert_eq!(play("panzer_refit", &mut s, &[pick]), None);
    for c in ["ge_1st_pz_army", "ge_2nd_pz_army", "ge_3rd_pz_army"] {
        assert!(!s.units[unit(&s, c)].reduced, "{c}");
    }
    assert!(s.units[unit(&s, "ge_4th_pz_army")].reduced);
    assert!(
        s.units[unit(&s, "ge_11th_army")].reduced,
        "infantry is no Panzer"
    );
    assert_eq!(
        marked(&s, "panzer_refit"),
        ["insterburg", "lublin", "warsaw"]
    );
    s.end("end_of_round");
    assert!(
        marked(&s, "panzer_refit").is_empty(),
        "the markers come off at the end of the round"
    );
}

#[test]
fn axis_6_panzer_refit_leaves_out_of_supply_panzers_reduced() {
    let mut s = at_turn(3, 1);
    let oos = put(&mut s, "ge_4th_pz_army", "minsk");
    s.units[oos].reduced = true;
    let ok = unit(&s, "ge_2nd_pz_army");
    s.units[ok].reduced = true;
    assert_eq!(play("panzer_refit", &mut s, &[]), None);
    assert!(!s.units[ok].reduced);
    assert!(s.units[oos].reduced);
    assert_eq!(marked(&s, "panzer_refit"), ["warsaw"]);
}

#[test]
fn axis_6_panzer_refit_may_not_be_played_during_spring_thaw() {
    assert!(!playable("panzer_refit", &at_turn(5, 1)));
    assert!(playable("panzer_refit", &at_turn(5, 3)));
}

// --- 7 Hedgehogs and 39 East Wall

/// German armies in three Soviet spaces next to the border, Axis controlled.
fn eastern_front() -> State {
    let mut s = no_trenches(at_turn(4, 1));
    take(&mut s, "bialystok", "axis");
    take(&mut s, "lwow", "axis");
    take(&mut s, "kaunas", "axis");
    take(&mut s, "vilna", "axis");
    put(&mut s, "ge_4th_army", "bialystok");
    put(&mut s, "ge_6th_army", "lwow");
    put(&mut s, "ge_16th_army", "kaunas");
    put(&mut s, "ge_corps", "vilna");
    s
}

#[test]
fn axis_7_hedgehogs_entrenches_german_armies_in_the_soviet_union_and_allows_no_retreat() {
    let mut s = eastern_front();
    assert_eq!(play("hedgehogs", &mut s, &[]), None);
    assert_eq!(marked(&s, "trench"), ["bialystok", "kaunas", "lwow"]);
    assert_eq!(s.modifiers.len(), 1);
    let m = &s.modifiers[0];
    assert_eq!(
        (
            &m.effect,
            m.defender_nation.as_deref(),
            m.region.as_deref(),
            m.until.as_str()
        ),
        (
            &ModifierEffect::AllowNoRetreat,
            Some("ge"),
            Some("soviet_union"),
            "end_of_turn"
        )
    );
}

#[test]
fn axis_7_hedgehogs_keeps_to_three_axis_trenches() {
    let mut s = eastern_front();
    put_marker(&mut s, "trench", "berlin");
    put_marker(&mut s, "trench", "vienna");
    let d = play("hedgehogs", &mut s, &[]).expect("room for one trench only");
    assert_eq!((d.min, d.max), (1, 1));
    assert_eq!(play("hedgehogs", &mut s, &[answer(&["lwow"])]), None);
    assert_eq!(marked(&s, "trench"), ["berlin", "lwow", "vienna"]);
    put_marker(&mut s, "trench", "ruhr");
    let mut full = s.clone();
    assert_eq!(play("hedgehogs", &mut full, &[]), None);
    assert_eq!(
        marked(&full, "trench").len(),
        4,
        "no room: no trench placed"
    );
}

#[test]
fn axis_39_east_wall_entrenches_three_german_army_spaces_in_the_soviet_union() {
    let mut s = eastern_front();
    assert_eq!(play("east_wall", &mut s, &[]), None);
    assert_eq!(marked(&s, "trench"), ["bialystok", "kaunas", "lwow"]);
    assert!(s.modifiers.is_empty());
}

#[test]
fn axis_39_east_wall_skips_out_of_supply_armies() {
    let mut s = eastern_front();
    take(&mut s, "minsk", "axis");
    put(&mut s, "ge_9th_army", "smolensk");
    s.control.insert("smolensk".into(), "axis".into());
    // Smolensk is cut off by the Soviet spaces around it
    assert_eq!(play("east_wall", &mut s, &[]), None);
    assert!(!marked(&s, "trench").contains(&"smolensk".to_string()));
}

// --- 8 Hitler Declares War

#[test]
fn axis_8_hitler_declares_war_adds_a_vp_and_brings_the_us_in() {
    let mut s = at_turn(3, 1);
    assert!(playable("hitler_declares_war", &s));
    assert_eq!(play("hitler_declares_war", &mut s, &[]), None);
    assert_eq!(s.track("vp"), 8);
    assert!(s.flags.contains("us_at_war"));
}

#[test]
fn axis_8_hitler_declares_war_may_not_be_played_in_41_summer_or_after_fdr_declares_war() {
    assert!(!playable("hitler_declares_war", &at_turn(2, 1)));
    let mut s = at_turn(4, 1);
    s.record_played("fdr_declares_war");
    s.flags.insert("us_at_war".into());
    assert!(!playable("hitler_declares_war", &s));
}

// --- 9 Hitler Takes Command

#[test]
fn axis_9_hitler_takes_command_sets_the_orders_drm_and_unlocks_the_later_cards() {
    let mut s = at_turn(5, 3);
    assert!(!playable("fall_blau", &s));
    assert!(playable("panzergruppe_guderian", &s));
    assert_eq!(play("hitler_takes_command", &mut s, &[]), None);
    let m = &s.modifiers[0];
    assert_eq!(
        (&m.effect, m.side.as_str(), m.until.as_str()),
        (
            &ModifierEffect::RollDrm {
                table: "axis_orders".into(),
                amount: 2
            },
            "axis",
            "rest_of_game"
        ),
        "+2 to the Axis orders rolls"
    );
    assert!(playable("fall_blau", &s));
    assert!(playable("totaler_krieg", &s));
    assert!(!playable("panzergruppe_guderian", &s));
}

// --- 10 Desert Fox

#[test]
fn axis_10_desert_fox_helps_german_panzers_in_a_desert_space() {
    let mut s = campaign();
    let pz = put(&mut s, "ge_pz_corps", "sidi_suleiman");
    let cw = units_of(&s, "cw_corps", "buq_buq");
    assert_eq!(
        play_combat(
            "desert_fox",
            &mut s,
            fight(true, vec![pz], cw.clone(), "buq_buq")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert_eq!(
        play_combat(
            "desert_fox",
            &mut s,
            fight(false, cw.clone(), vec![pz], "sidi_suleiman")
        ),
        [ModifierEffect::Drm(1)]
    );
    // Hellfire Pass is a mountain
    assert!(play_combat(
        "desert_fox",
        &mut s,
        fight(false, cw.clone(), vec![pz], "hellfire_pass")
    )
    .is_empty());
    let it = units_of(&s, "it_corps", "gazala");
    assert!(
        play_combat("desert_fox", &mut s, fight(true, it, cw, "buq_buq")).is_empty(),
        "Italians are no German Panzers"
    );
}

// --- 11 Italian Naval Sortie

#[test]
fn axis_11_italian_naval_sortie_gives_sea_supply_this_turn_and_may_place_a_marker() {
    let mut s = at_turn(3, 1);
    let d = play("italian_naval_sortie", &mut s, &[]).expect("may place a marker");
    assert_eq!((d.min, d.max), (0, 1));
    let answers = [answer(&["tripoli"]), answer(&["no"])];
    assert_eq!(play("italian_naval_sortie", &mut s, &answers), None);
    assert_eq!(marked(&s, "move"), ["tripoli"]);
    assert!(s.flags.contains("sortie_full_supply_by_sea"));
    s.end("end_of_turn");
    assert!(!s.flags.contains("sortie_full_supply_by_sea"));

    let mut s = at_turn(3, 1);
    assert_eq!(play("italian_naval_sortie", &mut s, &[answer(&[])]), None);
    assert!(marked(&s, "move").is_empty() && marked(&s, "combat").is_empty());
}

// --- 12 Nordlicht

#[test]
fn axis_12_nordlicht_allows_attacks_on_leningrad_only_this_round() {
    let mut s = at_turn(3, 2);
    assert_eq!(play("nordlicht", &mut s, &[]), None);
    assert!(s.flags.contains("leningrad_attackable"));
    assert!(s.flags.contains("axis_attacks_leningrad_only"));
    s.end("end_of_round");
    assert!(!s.flags.contains("axis_attacks_leningrad_only"));
    assert!(
        s.flags.contains("leningrad_attackable"),
        "for the rest of the game"
    );
}

#[test]
fn axis_12_nordlicht_may_not_be_played_during_spring_thaw() {
    assert!(!playable("nordlicht", &at_turn(9, 1)));
    assert!(!playable("nordlicht", &at_turn(9, 2)));
    assert!(playable("nordlicht", &at_turn(9, 3)));
}

// --- 13 Krim

#[test]
fn axis_13_krim_cancels_the_sevastopol_fort_for_an_attack() {
    let mut s = at_turn(6, 1);
    s.control.insert("sevastopol".into(), "axis".into());
    assert!(playable("krim", &s), "playable even if Sevastopol is Axis");
    assert_eq!(play("krim", &mut s, &[]), None);
    let m = &s.modifiers[0];
    assert_eq!(
        (&m.effect, m.space.as_deref(), m.until.as_str()),
        (
            &ModifierEffect::IgnoreFeature("fort".into()),
            Some("sevastopol"),
            "next_combat"
        )
    );
}

// --- 14 Fall Blau

#[test]
fn axis_14_fall_blau_marks_five_spaces_adds_a_drm_and_opens_the_blau_spaces() {
    let mut s = at_turn(6, 1);
    s.record_played("hitler_takes_command");
    assert!(playable("fall_blau", &s));
    assert_eq!(play("fall_blau", &mut s, &[answer(&FIVE)]), None);
    assert_eq!(marked(&s, "combat").len(), 5);
    assert!(s.flags.contains("blau_attackable"));
    let m = &s.modifiers[0];
    assert_eq!(
        (
            &m.effect,
            m.attacker.as_deref(),
            m.defender_nation.as_deref(),
            m.until.as_str()
        ),
        (
            &ModifierEffect::Drm(1),
            Some("axis"),
            Some("su"),
            "end_of_round"
        )
    );
}

#[test]
fn axis_14_fall_blau_may_be_played_only_after_hitler_takes_command() {
    assert!(!playable("fall_blau", &at_turn(6, 1)));
}

// --- 15 Wolfpacks

#[test]
fn axis_15_wolfpacks_cuts_the_allied_hand_and_before_us_entry_makes_fdr_yellow() {
    let mut s = at_turn(3, 1);
    assert!(playable("wolfpacks", &s));
    assert_eq!(play("wolfpacks", &mut s, &[]), None);
    let m = &s.modifiers[0];
    assert_eq!(
        (&m.effect, m.side.as_str(), m.until.as_str()),
        (&ModifierEffect::HandLimit(-2), "allied", "next_draw")
    );
    assert!(s.flags.contains("fdr_declares_war_yellow"));

    let mut s = at_turn(6, 1);
    s.flags.insert("us_at_war".into());
    play("wolfpacks", &mut s, &[]);
    assert!(!s.flags.contains("fdr_declares_war_yellow"));
}

#[test]
fn axis_15_wolfpacks_may_not_be_played_after_asw_victory() {
    let mut s = at_turn(10, 1);
    s.record_played("asw_victory");
    assert!(!playable("wolfpacks", &s));
}

// --- 16 Speer

#[test]
fn axis_16_speer_allows_the_panzer_reinforcements_and_not_after_totaler_krieg() {
    let mut s = at_turn(10, 1);
    assert!(!playable("german_reinforcements_35", &s));
    assert!(playable("speer", &s));
    assert_eq!(play("speer", &mut s, &[]), None);
    assert!(playable("german_reinforcements_35", &s));
    assert!(playable("final_production_surge", &s));
    let mut s = at_turn(10, 1);
    s.record_played("totaler_krieg");
    assert!(!playable("speer", &s));
}

// --- 17 Banzai!

#[test]
fn axis_17_banzai_removes_two_cw_corps_from_the_map_first() {
    let mut s = at_turn(4, 1);
    assert!(playable("banzai", &s));
    let d = play("banzai", &mut s, &[]).expect("the Allied player picks two of four");
    assert_eq!(
        (d.by.as_str(), d.min, d.max, d.options.len()),
        ("allied", 2, 2, 4)
    );
    let pick: Vec<&str> = d.options.iter().take(2).map(String::as_str).collect();
    assert_eq!(play("banzai", &mut s, &[answer(&pick)]), None);
    let gone = s
        .units
        .iter()
        .filter(|u| u.counter == "cw_corps" && u.at == Loc::Removed)
        .count();
    assert_eq!(gone, 2);
}

#[test]
fn axis_17_banzai_takes_from_the_reserve_box_when_the_map_has_too_few() {
    let mut s = at_turn(4, 1);
    let corps: Vec<usize> = (0..s.units.len())
        .filter(|&i| s.units[i].counter == "cw_corps" && matches!(s.units[i].at, Loc::Space(_)))
        .collect();
    for &i in &corps[1..] {
        s.units[i].at = Loc::Box("allied_reserve".into());
    }
    let d = play("banzai", &mut s, &[]).expect("one from the map, one of three in reserve");
    assert_eq!((d.by.as_str(), d.options.len()), ("allied", 3));
    let pick = d.options[0].clone();
    assert_eq!(play("banzai", &mut s, &[answer(&[pick.as_str()])]), None);
    assert_eq!(s.units[corps[0]].at, Loc::Removed);
    assert_eq!(in_box(&s, "cw_corps", "allied_reserve"), 2);
}

#[test]
fn axis_17_banzai_may_not_be_played_before_winter_42() {
    assert!(!playable("banzai", &at_turn(3, 6)));
}

// --- 18 Devil's Gardens

#[test]
fn axis_18_devils_gardens_treats_a_defended_desert_space_as_a_mountain() {
    let mut s = campaign();
    let it = units_of(&s, "it_corps", "benghazi");
    let cw = units_of(&s, "cw_corps", "tobruk");
    assert_eq!(
        play_combat(
            "devils_gardens",
            &mut s,
            fight(false, cw.clone(), it.clone(), "benghazi")
        ),
        [ModifierEffect::Terrain("mountain".into())]
    );
    assert!(play_combat(
        "devils_gardens",
        &mut s,
        fight(true, it.clone(), cw.clone(), "tobruk")
    )
    .is_empty());
    assert!(
        play_combat(
            "devils_gardens",
            &mut s,
            fight(false, cw, it, "hellfire_pass")
        )
        .is_empty(),
        "no desert"
    );
}

// --- 19 Luftwaffe Supply

#[test]
fn axis_19_luftwaffe_supply_marks_a_space_of_out_of_supply_axis_units() {
    let mut s = at_turn(4, 1);
    assert_eq!(play("luftwaffe_supply", &mut s, &[]), None);
    assert!(
        marked(&s, "luftwaffe_supply").is_empty(),
        "no Axis unit is out of supply"
    );
    let mut s = at_turn(4, 1);
    put(&mut s, "ge_6th_army", "minsk");
    put(&mut s, "ge_9th_army", "smolensk");
    put_marker(&mut s, "luftwaffe_supply", "berlin");
    let d = play("luftwaffe_supply", &mut s, &[]).expect("two spaces of OOS units");
    assert_eq!(d.options, ["minsk", "smolensk"]);
    assert_eq!(
        play("luftwaffe_supply", &mut s, &[answer(&["minsk"])]),
        None
    );
    assert_eq!(
        marked(&s, "luftwaffe_supply"),
        ["minsk"],
        "the earlier one comes off"
    );
}

// --- 20 Kammhuber Line

#[test]
fn axis_20_kammhuber_line_cancels_bomber_command_played_this_turn() {
    let mut s = at_turn(8, 2);
    assert!(!playable("kammhuber_line", &s));
    play("bomber_command", &mut s, &[]);
    assert_eq!(s.modifiers.len(), 1);
    assert!(playable("kammhuber_line", &s));
    assert_eq!(play("kammhuber_line", &mut s, &[]), None);
    assert!(s.modifiers.is_empty());
}

#[test]
fn axis_20_kammhuber_line_may_not_be_played_after_turn_14() {
    let mut s = at_turn(15, 2);
    s.record_played("bomber_command");
    assert!(!playable("kammhuber_line", &s));
}
