//! Allied cards of Barbarossa to Berlin, each played from a prepared state.

#[allow(unused_imports)]
use crate::cards::*;
use sandtable_engine::script::eval::{Combat, Decision};
use sandtable_engine::state::{Loc, ModifierEffect, State};

// --- helpers

/// The campaign at a turn and round.
fn at(turn: u32, round: u32) -> State {
    let mut s = campaign();
    s.turn = turn;
    s.round = round;
    s
}

/// Records a card as played on an earlier turn.
fn played_on(s: &mut State, card: &str, turn: u32) {
    s.played.insert(card.into(), turn);
}

/// U.S. Build-Up played on the turn before this one (and the U.S. at war).
fn after_build_up(turn: u32, round: u32) -> State {
    let mut s = at(turn, round);
    s.flags.insert("us_at_war".into());
    played_on(&mut s, "us_build_up", turn - 1);
    s
}

/// The first piece of a counter.
fn piece(s: &State, counter: &str) -> usize {
    s.units.iter().position(|u| u.counter == counter).unwrap()
}

/// How many pieces of a counter are at a place.
fn pieces(s: &State, counter: &str, loc: &Loc) -> usize {
    s.units
        .iter()
        .filter(|u| u.counter == counter && &u.at == loc)
        .count()
}

fn space(id: &str) -> Loc {
    Loc::Space(id.into())
}

fn reserve() -> Loc {
    Loc::Box("allied_reserve".into())
}

/// Where the pieces of a counter stand.
fn locs(s: &State, counter: &str) -> Vec<Loc> {
    s.units
        .iter()
        .filter(|u| u.counter == counter)
        .map(|u| u.at.clone())
        .collect()
}

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

/// Ids of the spaces of a country (the country's own id, not its sub-regions).
fn spaces_of(country: &str) -> Vec<String> {
    b2b()
        .graph
        .spaces
        .iter()
        .filter(|s| s.country.as_deref() == Some(country))
        .map(|s| s.id.clone())
        .collect()
}

fn country_of(space: &str) -> String {
    b2b()
        .graph
        .space(space)
        .and_then(|s| s.country.clone())
        .unwrap_or_default()
}

fn give(s: &mut State, spaces: &[String], side: &str) {
    for x in spaces {
        s.control.insert(x.clone(), side.into());
    }
}

/// No Axis control left in Libya, Egypt or French North Africa.
fn africa_cleared(s: &mut State) {
    for c in ["libya", "egypt", "tunisia", "algeria", "morocco"] {
        give(s, &spaces_of(c), "allied");
    }
    s.control.insert("hellfire_pass".into(), "allied".into());
}

/// Plays a card answering every decision with its first options; returns the decisions met.
fn play_auto(card: &str, s: &mut State) -> Vec<Decision> {
    let mut answers = Vec::new();
    let mut met = Vec::new();
    while let Some(d) = play(card, s, &answers) {
        answers.push(d.options.iter().take(d.max.max(1)).cloned().collect());
        met.push(d);
        assert!(met.len() < 50, "{card} keeps asking");
    }
    met
}

fn units_on(s: &State, space_id: &str) -> Vec<usize> {
    s.units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.at == space(space_id))
        .map(|(i, _)| i)
        .collect()
}

fn nation_of(s: &State, u: usize) -> String {
    b2b().counter(&s.units[u].counter).unwrap().nation.clone()
}

fn combat(attacking: bool, attackers: Vec<usize>, defenders: Vec<usize>, at: &str) -> Combat {
    Combat {
        attacking,
        attackers,
        defenders,
        defending_space: at.into(),
    }
}

fn hand(s: &State, side: &str) -> usize {
    s.hands.get(side).map_or(0, Vec::len)
}

// --- the cards

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
        assert_eq!(s.control.get(o).map(String::as_str), Some("axis"));
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
    b2b().counter(counter).unwrap().nation.clone()
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
            assert_eq!(s.control[&x], "allied", "{x}");
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
        assert_eq!(s.control[&x], "allied", "{x}");
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

fn us_reinforcements(card: &str, army: &str) {
    assert!(!playable(card, &at(12, 1)), "needs U.S. Build-Up");
    let mut s = after_build_up(12, 1);
    assert!(playable(card, &s));
    // Only Basra is open to U.S. units at the start: no choice to make.
    let corps = pieces(&s, "us_corps", &reserve());
    assert_eq!(play(card, &mut s, &[answer(&["basra"])]), None);
    assert_eq!(locs(&s, army), [space("basra")]);
    assert_eq!(pieces(&s, "us_corps", &reserve()), corps + 1);
    for other in [
        "us_reinforcements_38",
        "us_reinforcements_40",
        "us_reinforcements_41",
    ] {
        assert!(!playable(other, &s), "one U.S. Reinforcement card per turn");
    }
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
        space: target.clone(),
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
        s.control.insert(n.to_string(), "axis".into());
    }
    let vp = s.track("vp");
    play("finland_withdraws", &mut s, &[]);
    assert_eq!(s.track("vp"), vp, "no VP while Riga is out of supply");
}
