//! Allied cards 21 to 40, each played from a prepared state.

use sandtable_engine::state::{Loc, ModifierEffect, State};

use super::{
    africa_cleared, after_build_up, at, country_of, give, locs, piece, pieces, play_auto,
    played_on, reserve, space, spaces_of, us_reinforcements,
};
use crate::cards::*;

fn nation_of(s: &State, u: usize) -> String {
    b2b()
        .counter(&s.units[u].counter)
        .unwrap()
        .nation
        .to_string()
}

#[test]
fn allied_21_british_8th_army_replaces_the_desert_army_after_build_up() {
    let mut s = after_build_up(6, 1);
    let desert = piece(&s, "br_desert_army");
    s.units[desert].at = space("cairo");
    assert!(!playable("british_reinforcement_21", &s), "needs card 5");
    played_on(&mut s, "british_reinforcements_5", 6);
    assert!(
        !playable("british_reinforcement_21", &s),
        "on a following turn"
    );
    played_on(&mut s, "british_reinforcements_5", 4);
    assert!(playable("british_reinforcement_21", &s));
    assert_eq!(play("british_reinforcement_21", &mut s, &[]), None);
    assert_eq!(locs(&s, "br_8th_army"), [space("cairo")]);
    assert_eq!(s.units[desert].at, Loc::Removed);
    let mut none = after_build_up(6, 1);
    played_on(&mut none, "british_reinforcements_5", 4);
    assert!(
        !playable("british_reinforcement_21", &none),
        "Desert Army not on the map"
    );
}

#[test]
fn allied_22_operation_uranus_plus_one_for_soviet_attacks_not_in_spring_thaw() {
    assert!(!playable("operation_uranus", &at(5, 2)));
    assert!(playable("operation_uranus", &at(5, 3)));
    let mut s = at(7, 1);
    assert!(playable("operation_uranus", &s));
    assert_eq!(play("operation_uranus", &mut s, &[]), None);
    let m = &s.modifiers[0];
    assert_eq!(
        (
            m.effect.clone(),
            m.attacker_nation.as_deref(),
            m.until.as_str()
        ),
        (ModifierEffect::Drm(1), Some("su"), "end_of_round")
    );
}

#[test]
fn allied_23_clearing_the_scheldt_opens_antwerp_when_allied() {
    let mut s = at(14, 1);
    assert!(!playable("clearing_the_scheldt", &s));
    s.control.insert("antwerp".into(), "allied".into());
    assert!(playable("clearing_the_scheldt", &s));
    assert_eq!(play("clearing_the_scheldt", &mut s, &[]), None);
    assert!(s.flags.contains("antwerp_open"));
}

#[test]
fn allied_24_soviet_reinforcements_place_three_fronts_and_three_armies_in_reserve() {
    assert!(!playable("soviet_reinforcements_24", &at(1, 1)));
    let mut s = at(2, 1);
    let mut second = s.clone();
    second.record_played("soviet_reinforcements_2");
    assert!(
        !playable("soviet_reinforcements_24", &second),
        "one Soviet Reinforcement card per turn"
    );
    let before = pieces(&s, "su_army", &reserve());
    play_auto("soviet_reinforcements_24", &mut s);
    for front in ["su_bryansk_front", "su_kalinin_front", "su_volkhov_front"] {
        let Loc::Space(x) = &s.units[piece(&s, front)].at else {
            panic!("{front} not on the map")
        };
        assert_eq!(country_of(x), "soviet_union");
    }
    assert_eq!(pieces(&s, "su_army", &reserve()), before + 3);
}

#[test]
fn allied_25_enigma_reveals_the_axis_hand_unless_allies_hold_greater_germany_or_thaw() {
    let mut s = at(3, 1);
    assert!(playable("enigma", &s));
    assert!(!playable("enigma", &at(5, 1)), "Spring Thaw");
    let mut berlin = s.clone();
    berlin.control.insert("berlin".into(), "allied".into());
    assert!(!playable("enigma", &berlin));
    assert_eq!(play("enigma", &mut s, &[]), None);
    assert!(s.revealed.contains("axis"));
}

#[test]
fn allied_26_british_reinforcements_place_the_canadian_army_and_a_cw_corps() {
    let mut s = at(12, 1);
    s.markers.push(sandtable_engine::state::MarkerOnMap {
        marker: "beach_head_allied".into(),
        space: "beach_s".into(),
        level: 1,
        until: None,
    });
    s.flags.insert("allied_beach_head_shingle".into());
    assert!(playable("british_reinforcements_26", &s));
    let mut second = s.clone();
    second.record_played("british_reinforcements_5");
    assert!(
        !playable("british_reinforcements_26", &second),
        "one per turn"
    );
    let d = play("british_reinforcements_26", &mut s, &[]).unwrap();
    assert!(d.options.contains(&"basra".to_string()));
    assert!(
        !d.options.contains(&"beach_s".to_string()),
        "not Shingle's Beach Head"
    );
    assert!(!d.options.contains(&"naples".to_string()), "Naples is Axis");
    let cw = pieces(&s, "cw_corps", &reserve());
    assert_eq!(
        play("british_reinforcements_26", &mut s, &[answer(&["basra"])]),
        None
    );
    assert_eq!(locs(&s, "ca_1st_army"), [space("basra")]);
    assert_eq!(pieces(&s, "cw_corps", &reserve()), cw + 1);
}

#[test]
fn allied_27_italy_defects_removes_italian_units_and_frees_empty_italian_spaces() {
    let mut s = at(11, 1);
    assert!(!playable("italy_defects", &s));
    let italy: Vec<String> = spaces_of("italy");
    give(&mut s, &italy[..3], "allied");
    assert!(!playable("italy_defects", &s));
    give(&mut s, &spaces_of("sicily")[..1], "allied");
    assert!(playable("italy_defects", &s), "Sicily counts");
    let german = piece(&s, "ge_16th_army");
    s.units[german].at = space("rome");
    let in_box = s
        .units
        .iter()
        .position(|u| nation_of_counter(&u.counter) == "it")
        .unwrap();
    s.units[in_box].at = Loc::Box("axis_reserve".into());
    assert_eq!(play("italy_defects", &mut s, &[]), None);
    for (i, u) in s.units.iter().enumerate() {
        if nation_of(&s, i) == "it" {
            assert!(
                matches!(u.at, Loc::Removed | Loc::Unplaced),
                "{} still at {:?}",
                u.counter,
                u.at
            );
        }
    }
    assert_eq!(s.control["rome"], "axis", "a German unit holds Rome");
    assert_eq!(s.control["milan"], "allied");
    assert_eq!(s.control["syracuse"], "allied");
}

fn nation_of_counter(counter: &str) -> String {
    b2b().counter(counter).unwrap().nation.to_string()
}

#[test]
fn allied_28_us_8th_air_force_cuts_the_axis_hand_after_build_up() {
    assert!(!playable("us_8th_air_force", &at(10, 1)));
    let s = after_build_up(10, 1);
    assert!(playable("us_8th_air_force", &s));
    assert!(!playable("us_8th_air_force", &after_build_up(10, 6)));
    let mut mustang = after_build_up(10, 6);
    played_on(&mut mustang, "p_51_mustang", 9);
    assert!(playable("us_8th_air_force", &mustang));
    let mut s = s;
    assert_eq!(play("us_8th_air_force", &mut s, &[]), None);
    assert_eq!(s.modifiers[0].effect, ModifierEffect::HandLimit(-2));
    assert_eq!(s.modifiers[0].side, "axis");
}

#[test]
fn allied_29_romania_defects_removes_romanian_units_and_adds_a_soviet_army() {
    let mut s = at(12, 1);
    assert!(!playable("romania_defects", &s));
    s.control.insert("yassi".into(), "allied".into());
    assert!(playable("romania_defects", &s));
    let german = piece(&s, "ge_16th_army");
    s.units[german].at = space("bucharest");
    let armies = pieces(&s, "su_army", &reserve());
    assert_eq!(play("romania_defects", &mut s, &[]), None);
    assert_eq!(in_play_of_nation(&s, "ro"), 0);
    assert_eq!(s.control["bucharest"], "axis");
    for x in spaces_of("romania") {
        if x != "bucharest" {
            assert_eq!(s.control[x.as_str()], "allied", "{x}");
        }
    }
    assert_eq!(pieces(&s, "su_army", &reserve()), armies + 1);
    assert!(playable("bulgaria_defects", &s));
}

fn in_play_of_nation(s: &State, nation: &str) -> usize {
    (0..s.units.len())
        .filter(|&i| {
            nation_of(s, i) == nation && matches!(s.units[i].at, Loc::Space(_) | Loc::Box(_))
        })
        .count()
}

#[test]
fn allied_30_bulgaria_defects_after_romania() {
    let mut s = at(13, 1);
    assert!(!playable("bulgaria_defects", &s));
    played_on(&mut s, "romania_defects", 12);
    assert!(playable("bulgaria_defects", &s));
    let armies = pieces(&s, "su_army", &reserve());
    assert_eq!(play("bulgaria_defects", &mut s, &[]), None);
    assert_eq!(in_play_of_nation(&s, "bu"), 0);
    for x in spaces_of("bulgaria") {
        assert_eq!(s.control[x.as_str()], "allied", "{x}");
    }
    assert_eq!(pieces(&s, "su_army", &reserve()), armies + 1);
}

/// Full-strength 3-3-3 infantry Fronts on the map.
fn fronts(s: &State) -> Vec<usize> {
    (0..s.units.len())
        .filter(|&i| {
            let c = b2b().counter(&s.units[i].counter).unwrap();
            c.nation == "su"
                && c.size == "lcu"
                && c.unit_type == "infantry"
                && !s.units[i].reduced
                && matches!(s.units[i].at, Loc::Space(_))
        })
        .collect()
}

fn mechanized_fronts(card: &str, new: &[&str]) {
    let mut s = at(10, 1);
    assert!(!playable(card, &s), "needs Lend-Lease");
    played_on(&mut s, "lend_lease", 6);
    assert!(playable(card, &s));
    assert!(!playable(card, &at_with(5, 1, &s)), "Spring Thaw");
    let before = fronts(&s);
    let met = play_auto(card, &mut s);
    assert_eq!(met.len(), new.len(), "one choice per new Front");
    for c in new {
        assert!(matches!(s.units[piece(&s, c)].at, Loc::Space(_)), "{c}");
    }
    let removed = before
        .iter()
        .filter(|&&i| s.units[i].at == Loc::Removed)
        .count();
    assert_eq!(removed, new.len());
    // Too few eligible Fronts: all but new.len()-1 reduced
    let mut few = at(10, 1);
    played_on(&mut few, "lend_lease", 6);
    for &i in fronts(&few).iter().skip(new.len() - 1) {
        few.units[i].reduced = true;
    }
    assert!(!playable(card, &few));
}

fn at_with(turn: u32, round: u32, s: &State) -> State {
    let mut s = s.clone();
    s.turn = turn;
    s.round = round;
    s
}

#[test]
fn allied_31_soviet_reinforcements_replace_four_fronts_with_the_ukrainian_fronts() {
    mechanized_fronts(
        "soviet_reinforcements_31",
        &[
            "su_1st_ukrainian_front",
            "su_2nd_ukrainian_front",
            "su_3rd_ukrainian_front",
            "su_4th_ukrainian_front",
        ],
    );
}

#[test]
fn allied_32_ix_tac_air_plus_one_for_british_and_us_attacks_in_spring_or_summer() {
    let mut s = at(10, 1);
    assert!(!playable("ix_tac_air", &s));
    played_on(&mut s, "p_51_mustang", 9);
    assert!(playable("ix_tac_air", &s));
    assert!(!playable("ix_tac_air", &at_with(11, 1, &s)), "Fall");
    assert_eq!(play("ix_tac_air", &mut s, &[]), None);
    let nations: Vec<_> = s
        .modifiers
        .iter()
        .map(|m| (m.effect.clone(), m.attacker_nation.clone().unwrap()))
        .collect();
    assert_eq!(
        nations,
        [
            (ModifierEffect::Drm(1), "br".to_string()),
            (ModifierEffect::Drm(1), "us".to_string())
        ]
    );
}

#[test]
fn allied_33_overlord_lands_full_strength_armies_on_british_and_us_beach_heads() {
    assert!(
        !playable("overlord", &after_build_up(12, 1)),
        "before turn 13 (and Winter)"
    );
    let s = after_build_up(13, 1);
    assert!(playable("overlord", &s));
    let mut round_up = s.clone();
    played_on(&mut round_up, "round_up", 10);
    assert!(!playable("overlord", &round_up));
    assert!(!playable("overlord", &after_build_up(16, 1)), "Winter 45");
    let mut s = s;
    let (br, us) = (
        pieces(&s, "br_corps", &reserve()),
        pieces(&s, "us_corps", &reserve()),
    );
    let answers = [answer(&["yes"]), answer(&["beach_g"]), answer(&["beach_f"])];
    assert_eq!(play("overlord", &mut s, &answers), None);
    assert_eq!(marked(&s, "beach_head_br"), ["beach_g"]);
    assert_eq!(marked(&s, "beach_head_us"), ["beach_f"]);
    assert_eq!(marked(&s, "combat"), ["beach_f", "beach_g"]);
    let (b2, u1) = (piece(&s, "br_2nd_army"), piece(&s, "us_1st_army"));
    assert_eq!(s.units[b2].at, space("beach_g"));
    assert_eq!(s.units[u1].at, space("beach_f"));
    assert!(
        !s.units[b2].reduced && !s.units[u1].reduced,
        "full strength in Overlord"
    );
    assert_eq!(pieces(&s, "br_corps", &reserve()), br + 1);
    assert_eq!(pieces(&s, "us_corps", &reserve()), us + 2);
    assert!(s.flags.contains("vichy_at_war"));
}

#[test]
fn allied_33_overlord_may_use_one_allied_beach_head() {
    let mut s = after_build_up(14, 1);
    let answers = [answer(&["no"]), answer(&["beach_a"])];
    assert_eq!(play("overlord", &mut s, &answers), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_a"]);
    assert!(marked(&s, "beach_head_br").is_empty());
    assert_eq!(pieces(&s, "br_2nd_army", &space("beach_a")), 1);
    assert_eq!(pieces(&s, "us_1st_army", &space("beach_a")), 1);
    assert!(!s.flags.contains("vichy_at_war"));
}

#[test]
fn allied_34_husky_brings_the_8th_army_from_reserve_and_the_us_7th_army() {
    let mut s = after_build_up(10, 1);
    assert!(!playable("husky", &s), "8th Army not in the Reserve Box");
    let eighth = piece(&s, "br_8th_army");
    s.units[eighth].at = reserve();
    assert!(playable("husky", &s));
    // Axis in Libya: only Beach S is open, and S has no open partner, so one Allied Beach Head.
    let corps = pieces(&s, "us_corps", &reserve());
    assert_eq!(play("husky", &mut s, &[]), None);
    assert_eq!(marked(&s, "beach_head_allied"), ["beach_s"]);
    assert_eq!(s.units[eighth].at, space("beach_s"));
    assert!(s.units[eighth].reduced);
    assert_eq!(locs(&s, "us_7th_army"), [space("beach_s")]);
    assert!(s.units[piece(&s, "us_7th_army")].reduced);
    assert_eq!(pieces(&s, "us_corps", &reserve()), corps + 1);
}

#[test]
fn allied_34_husky_on_british_and_us_beach_heads_once_africa_is_clear() {
    let mut s = after_build_up(10, 1);
    let eighth = piece(&s, "br_8th_army");
    s.units[eighth].at = reserve();
    let seventh = piece(&s, "us_7th_army");
    s.units[seventh].at = reserve();
    africa_cleared(&mut s);
    let d = play("husky", &mut s, &[answer(&["yes"])]).unwrap();
    assert!(
        !d.options.contains(&"beach_o".to_string()),
        "O is shut while the Axis holds Syracuse"
    );
    let answers = [answer(&["yes"]), answer(&["beach_p"]), answer(&["beach_q"])];
    assert_eq!(play("husky", &mut s, &answers), None);
    assert_eq!(marked(&s, "beach_head_br"), ["beach_p"]);
    assert_eq!(marked(&s, "beach_head_us"), ["beach_q"]);
    assert_eq!(s.units[eighth].at, space("beach_p"));
    assert_eq!(s.units[seventh].at, space("beach_q"));
}

#[test]
fn allied_35_bagration_plus_one_and_no_axis_no_retreat_vs_soviet_attacks() {
    assert!(!playable("bagration", &at(13, 1)));
    let mut s = at(14, 1);
    assert!(playable("bagration", &s));
    assert_eq!(play("bagration", &mut s, &[]), None);
    let got: Vec<_> = s
        .modifiers
        .iter()
        .map(|m| {
            (
                m.effect.clone(),
                m.attacker_nation.as_deref(),
                m.until.as_str(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (ModifierEffect::Drm(1), Some("su"), "end_of_round"),
            (ModifierEffect::CancelNoRetreat, Some("su"), "end_of_round")
        ]
    );
    assert_eq!(s.modifiers[1].defender.as_deref(), Some("axis"));
}

#[test]
fn allied_36_asw_victory_subtracts_a_vp() {
    let mut s = at(10, 1);
    let vp = s.track("vp");
    assert_eq!(play("asw_victory", &mut s, &[]), None);
    assert_eq!(s.track("vp"), vp - 1);
    assert!(s.played.contains_key("asw_victory"));
}

#[test]
fn allied_37_soviet_reinforcements_replace_three_fronts_with_the_baltic_fronts() {
    mechanized_fronts(
        "soviet_reinforcements_37",
        &[
            "su_1st_baltic_front",
            "su_2nd_baltic_front",
            "su_3rd_baltic_front",
        ],
    );
}

#[test]
fn allied_38_us_reinforcements_place_the_15th_army_and_a_corps() {
    us_reinforcements("us_reinforcements_38", "us_15th_army");
}

#[test]
fn allied_39_soviet_reinforcements_replace_three_fronts_with_the_belorussian_fronts() {
    mechanized_fronts(
        "soviet_reinforcements_39",
        &[
            "su_1st_belorussian_front",
            "su_2nd_belorussian_front",
            "su_3rd_belorussian_front",
        ],
    );
}

#[test]
fn allied_40_us_reinforcements_place_the_3rd_army_and_a_corps() {
    us_reinforcements("us_reinforcements_40", "us_3rd_army");
}
