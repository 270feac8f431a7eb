//! Axis cards of Barbarossa to Berlin, each played from a prepared state.

#[allow(unused_imports)]
use crate::cards::*;
use sandtable_engine::script::eval::Combat;
use sandtable_engine::state::{Loc, MarkerOnMap, ModifierEffect, State};

/// The spaces holding a marker, sorted.
fn marked(s: &State, marker: &str) -> Vec<String> {
    let mut v: Vec<String> = s
        .markers
        .iter()
        .filter(|m| m.marker == marker)
        .map(|m| m.space.clone())
        .collect();
    v.sort();
    v
}

fn put_marker(s: &mut State, marker: &str, space: &str) {
    s.markers.push(MarkerOnMap {
        marker: marker.into(),
        space: space.into(),
        level: 1,
        until: None,
    });
}

/// The first piece of a counter.
fn unit(s: &State, counter: &str) -> usize {
    s.units
        .iter()
        .position(|u| u.counter == counter)
        .unwrap_or_else(|| panic!("no {counter}"))
}

/// Moves the first piece of a counter onto a space; returns its index.
fn put(s: &mut State, counter: &str, space: &str) -> usize {
    let i = unit(s, counter);
    s.units[i].at = Loc::Space(space.into());
    i
}

/// Takes every unit off a space (to the Allied eliminated box) and gives the space to a side.
fn take(s: &mut State, space: &str, side: &str) {
    for u in s.units.iter_mut() {
        if u.at == Loc::Space(space.into()) {
            u.at = Loc::Box("allied_eliminated".into());
        }
    }
    s.control.insert(space.into(), side.into());
}

fn in_box(s: &State, counter: &str, b: &str) -> usize {
    s.units
        .iter()
        .filter(|u| u.counter == counter && u.at == Loc::Box(b.into()))
        .count()
}

/// A modifier in short: effect, whose fire, attacker nation, defender nation, duration.
type Drm = (
    ModifierEffect,
    String,
    Option<String>,
    Option<String>,
    String,
);

fn drms(s: &State) -> Vec<Drm> {
    s.modifiers
        .iter()
        .map(|m| {
            (
                m.effect.clone(),
                m.side.clone(),
                m.attacker_nation.clone(),
                m.defender_nation.clone(),
                m.until.clone(),
            )
        })
        .collect()
}

fn at_turn(turn: u32, round: u32) -> State {
    let mut s = campaign();
    s.turn = turn;
    s.round = round;
    s
}

/// The state without the setup's trenches (Tobruk and the Soviet ones).
fn no_trenches(mut s: State) -> State {
    s.markers.retain(|m| m.marker != "trench");
    s
}

const FIVE: [&str; 5] = ["warsaw", "lublin", "memel", "insterburg", "tarnow"];

fn fight(attacking: bool, attackers: Vec<usize>, defenders: Vec<usize>, space: &str) -> Combat {
    Combat {
        attacking,
        attackers,
        defenders,
        defending_space: space.into(),
    }
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
            s.control.insert(space.id.clone(), "axis".into());
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
        cut.control.insert(n.to_string(), "allied".into());
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

// --- 41-44, 47-49 combat cards

fn ge_vs_su() -> (State, usize, usize, usize) {
    let s = campaign();
    let pz = units_of(&s, "ge_2nd_pz_army", "warsaw")[0];
    let inf = units_of(&s, "ge_4th_army", "warsaw")[0];
    let su = units_of(&s, "su_army", "brest_litovsk")[0];
    (s, pz, inf, su)
}

#[test]
fn axis_41_panther_helps_german_panzers_attacking_or_defending() {
    let (mut s, pz, inf, su) = ge_vs_su();
    assert_eq!(
        play_combat(
            "panther",
            &mut s,
            fight(true, vec![pz, inf], vec![su], "brest_litovsk")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert_eq!(
        play_combat(
            "panther",
            &mut s,
            fight(false, vec![su], vec![pz], "warsaw")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert!(play_combat(
        "panther",
        &mut s,
        fight(true, vec![inf], vec![su], "brest_litovsk")
    )
    .is_empty());
}

#[test]
fn axis_42_tiger_helps_german_panzers_defending_only() {
    let (mut s, pz, inf, su) = ge_vs_su();
    assert_eq!(
        play_combat(
            "tiger",
            &mut s,
            fight(false, vec![su], vec![pz, inf], "warsaw")
        ),
        [ModifierEffect::Drm(1)]
    );
    assert!(play_combat(
        "tiger",
        &mut s,
        fight(true, vec![pz], vec![su], "brest_litovsk")
    )
    .is_empty());
    assert!(play_combat("tiger", &mut s, fight(false, vec![su], vec![inf], "warsaw")).is_empty());
}

#[test]
fn axis_43_panzerfaust_takes_a_step_from_an_attacking_soviet_mechanized_unit() {
    let (mut s, _, inf, su) = ge_vs_su();
    let tank = put(&mut s, "su_1st_tank_army", "brest_litovsk");
    assert!(play_combat(
        "panzerfaust",
        &mut s,
        fight(false, vec![su, tank], vec![inf], "warsaw")
    )
    .is_empty());
    assert!(s.units[tank].reduced);
    assert!(!s.units[su].reduced, "infantry is not hit");
    let mut t = s.clone();
    play_combat(
        "panzerfaust",
        &mut t,
        fight(false, vec![su], vec![inf], "warsaw"),
    );
    assert_eq!(t, s, "no mechanized attacker: nothing");
    play_combat(
        "panzerfaust",
        &mut t,
        fight(true, vec![inf], vec![tank], "brest_litovsk"),
    );
    assert_eq!(t, s, "only when the Soviets attack");
}

#[test]
fn axis_44_volkssturm_helps_defenders_in_greater_germany() {
    let (mut s, _, inf, su) = ge_vs_su();
    for space in ["berlin", "memel", "vienna"] {
        assert_eq!(
            play_combat(
                "volkssturm",
                &mut s,
                fight(false, vec![su], vec![inf], space)
            ),
            [ModifierEffect::Drm(1)],
            "{space}"
        );
    }
    assert!(play_combat(
        "volkssturm",
        &mut s,
        fight(false, vec![su], vec![inf], "warsaw")
    )
    .is_empty());
    assert!(play_combat(
        "volkssturm",
        &mut s,
        fight(true, vec![inf], vec![su], "berlin")
    )
    .is_empty());
}

#[test]
fn axis_47_model_helps_any_german_defender() {
    let (mut s, _, inf, su) = ge_vs_su();
    assert_eq!(
        play_combat("model", &mut s, fight(false, vec![su], vec![inf], "warsaw")),
        [ModifierEffect::Drm(1)]
    );
    let it = units_of(&s, "it_corps", "naples");
    assert!(play_combat("model", &mut s, fight(false, vec![su], it, "naples")).is_empty());
    assert!(play_combat(
        "model",
        &mut s,
        fight(true, vec![inf], vec![su], "brest_litovsk")
    )
    .is_empty());
}

#[test]
fn axis_48_heinrici_helps_german_defenders_against_soviet_attackers() {
    let (mut s, _, inf, su) = ge_vs_su();
    assert_eq!(
        play_combat(
            "heinrici",
            &mut s,
            fight(false, vec![su], vec![inf], "warsaw")
        ),
        [ModifierEffect::Drm(1)]
    );
    let cw = units_of(&s, "cw_corps", "tobruk");
    assert!(play_combat("heinrici", &mut s, fight(false, cw, vec![inf], "warsaw")).is_empty());
}

#[test]
fn axis_49_weichs_helps_german_attackers_against_soviet_units() {
    let (mut s, _, inf, su) = ge_vs_su();
    assert_eq!(
        play_combat(
            "weichs",
            &mut s,
            fight(true, vec![inf], vec![su], "brest_litovsk")
        ),
        [ModifierEffect::Drm(1)]
    );
    let cw = units_of(&s, "cw_corps", "tobruk");
    assert!(play_combat("weichs", &mut s, fight(true, vec![inf], cw, "tobruk")).is_empty());
    assert!(play_combat(
        "weichs",
        &mut s,
        fight(false, vec![su], vec![inf], "warsaw")
    )
    .is_empty());
}

// --- 45 Vergeltungs-Waffe

#[test]
fn axis_45_vergeltungs_waffe_adds_a_vp() {
    let mut s = at_turn(14, 1);
    assert!(playable("vergeltungs_waffe", &s));
    assert_eq!(play("vergeltungs_waffe", &mut s, &[]), None);
    assert_eq!(s.track("vp"), 8);
}

// --- 46 Manstein

#[test]
fn axis_46_manstein_cancels_the_axis_orders_this_turn() {
    let mut s = at_turn(9, 1);
    put_marker(&mut s, "stand_fast", "warsaw");
    put_marker(&mut s, "stand_fast", "riga");
    assert_eq!(play("manstein", &mut s, &[]), None);
    assert!(s.flags.contains("axis_orders_cancelled"));
    assert_eq!(
        marked(&s, "stand_fast"),
        ["riga"],
        "Soviet Stand Fast markers stay"
    );
    s.end("end_of_turn");
    assert!(!s.flags.contains("axis_orders_cancelled"));
}

// --- 50 Foreign Armies East

#[test]
fn axis_50_foreign_armies_east_shows_the_listed_allied_cards_this_turn() {
    let mut s = at_turn(6, 1);
    s.hands.insert(
        "allied".into(),
        vec!["stavka".into(), "zhukov".into(), "torch".into()],
    );
    assert_eq!(play("foreign_armies_east", &mut s, &[]), None);
    let shown: Vec<&str> = s.revealed_cards["allied"]
        .iter()
        .map(String::as_str)
        .collect();
    assert_eq!(
        shown,
        ["stavka", "zhukov"],
        "only the listed cards in the hand"
    );
    assert!(s.flags.contains("foreign_armies_east"));
    s.end("end_of_turn");
    assert!(!s.flags.contains("foreign_armies_east"));
}

#[test]
fn axis_50_foreign_armies_east_may_not_be_played_during_spring_thaw() {
    assert!(!playable("foreign_armies_east", &at_turn(5, 2)));
    assert!(playable("foreign_armies_east", &at_turn(5, 3)));
}

// --- 52 Final Production Surge

#[test]
fn axis_52_final_production_surge_restores_reduced_panzer_armies_and_fixes_a_seven_card_hand() {
    let mut s = at_turn(13, 1);
    s.record_played("speer");
    assert!(playable("final_production_surge", &s));
    let armies: Vec<usize> = ["ge_1st_pz_army", "ge_2nd_pz_army"]
        .iter()
        .map(|c| unit(&s, c))
        .collect();
    for &a in &armies {
        s.units[a].reduced = true;
    }
    let corps = put(&mut s, "ge_pz_corps", "berlin");
    s.units[corps].reduced = true;
    assert_eq!(play("final_production_surge", &mut s, &[]), None);
    assert!(armies.iter().all(|&a| !s.units[a].reduced));
    assert!(s.units[corps].reduced, "corps are no Armies");
    assert!(s
        .modifiers
        .iter()
        .any(|m| m.effect == ModifierEffect::HandSize(7)
            && m.side == "axis"
            && m.until == "next_draw"));
    assert!(s.flags.contains("panzers_not_rebuilt"));
    s.end("next_draw");
    assert!(s.modifiers.is_empty());
    assert!(s.flags.contains("panzers_not_rebuilt"));
}

#[test]
fn axis_52_final_production_surge_may_be_played_after_speer_and_before_turn_15() {
    assert!(!playable("final_production_surge", &at_turn(13, 1)));
    let mut s = at_turn(15, 1);
    s.record_played("speer");
    assert!(!playable("final_production_surge", &s));
}

// --- 53 Wacht am Rhein

#[test]
fn axis_53_wacht_am_rhein_marks_four_spaces_and_boosts_the_panzer_armies_this_round() {
    let mut s = at_turn(15, 1);
    s.record_played("hitler_takes_command");
    assert!(playable("wacht_am_rhein", &s));
    assert_eq!(play("wacht_am_rhein", &mut s, &[answer(&FIVE[..4])]), None);
    assert_eq!(marked(&s, "combat").len(), 4);
    let boosted: Vec<(&str, &str)> = s
        .modifiers
        .iter()
        .filter(|m| m.effect == ModifierEffect::Drm(2))
        .map(|m| {
            (
                m.attacker_counter.as_deref().unwrap(),
                m.except_defender_nation.as_deref().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        boosted,
        [("ge_5th_pz_army", "su"), ("ge_6th_ss_pz_army", "su")]
    );
    s.end("end_of_round");
    assert!(s.modifiers.is_empty());
}

#[test]
fn axis_53_wacht_am_rhein_may_be_played_in_fall_or_winter_after_hitler_takes_command() {
    assert!(!playable("wacht_am_rhein", &at_turn(15, 1)));
    let mut s = at_turn(14, 1);
    s.record_played("hitler_takes_command");
    assert!(!playable("wacht_am_rhein", &s), "Summer 44");
    s.turn = 16;
    assert!(playable("wacht_am_rhein", &s), "Winter 45");
}

// --- 54 The Bunker, 55 National Redoubt

#[test]
fn axis_54_the_bunker_entrenches_berlin() {
    let mut s = no_trenches(at_turn(16, 1));
    assert!(playable("the_bunker", &s));
    assert_eq!(play("the_bunker", &mut s, &[]), None);
    assert_eq!(marked(&s, "trench"), ["berlin"]);
    assert_eq!(
        s.markers
            .iter()
            .find(|m| m.marker == "trench")
            .unwrap()
            .level,
        1
    );
    let mut s = at_turn(16, 1);
    s.record_played("national_redoubt");
    assert!(!playable("the_bunker", &s));
}

#[test]
fn axis_54_the_bunker_keeps_to_three_axis_trenches() {
    let mut s = at_turn(16, 1);
    assert!(
        marked(&s, "trench").contains(&"tobruk".to_string()),
        "Allied trenches do not count"
    );
    for t in ["vienna", "ruhr", "breslau"] {
        put_marker(&mut s, "trench", t);
    }
    assert_eq!(play("the_bunker", &mut s, &[]), None);
    assert!(!marked(&s, "trench").contains(&"berlin".to_string()));
}

#[test]
fn axis_55_national_redoubt_makes_munich_a_supply_source() {
    let mut s = at_turn(16, 1);
    assert!(playable("national_redoubt", &s));
    assert_eq!(play("national_redoubt", &mut s, &[]), None);
    assert_eq!(marked(&s, "national_redoubt"), ["munich"]);
    assert!(s.flags.contains("national_redoubt"));
    let mut s = at_turn(16, 1);
    s.record_played("the_bunker");
    assert!(!playable("national_redoubt", &s));
}
