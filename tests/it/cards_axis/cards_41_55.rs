//! Axis cards 41 to 55 but 51, each played from a prepared state.

use sandtable_engine::state::{ModifierEffect, State};

use super::{at_turn, fight, no_trenches, put, put_marker, unit, FIVE};
use crate::cards::*;

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
