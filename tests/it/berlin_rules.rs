//! Rules of Berlin 1945 that are not printed as worked examples, each played on the engine's
//! prompts from a position set up as an example's is (`rules::start_from`): the end-of-turn
//! move from turn 7 (5.1 with 7.2.2), support points from units put out of supply (3.2.2),
//! reinforcements whose zone another nationality holds (2.1.3), forced retreats across the
//! front boundary (7.3.2), into the other camp's zone (7.3.3) or through a full friendly zone
//! (8.3.3), leaving an American zone (2.2.8), and Hitler's order to move next to Soviet units
//! (2.3.2).

use std::sync::OnceLock;

use sandtable_engine::content::Content;
use sandtable_engine::load::load_dir;
use sandtable_engine::model::{PlayAt, Position, UnitAt};
use sandtable_engine::rules::{self, position, Rules};
use sandtable_engine::state::{Loc, State};

use crate::root;

fn berlin() -> &'static Content {
    static C: OnceLock<Content> = OnceLock::new();
    C.get_or_init(|| {
        let loaded = load_dir(root().join("content/berlin-1945"));
        assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
        loaded.content
    })
}

fn rules() -> Rules<'static> {
    Rules::new(berlin(), "standard").expect("Berlin 1945 plays")
}

/// Units put somewhere (`removed` takes one off the map).
fn units(list: &[(&str, &str)]) -> Vec<UnitAt> {
    list.iter()
        .map(|(u, at)| crate::b2b_rules::unit_at(u, at))
        .collect()
}

/// A position on `turn` at the start of a phase, or of an impulse of the operations; hands
/// emptied so that no event chit interrupts.
fn position(turn: u32, phase: &str, impulse: Option<u32>, place: &[(&str, &str)]) -> Position {
    Position {
        turn: Some(turn),
        at: Some(PlayAt {
            phase: phase.into(),
            impulse,
            ..PlayAt::default()
        }),
        units: units(place),
        hands: ["zhukov", "koniev"]
            .iter()
            .map(|s| sandtable_engine::model::ExampleHand {
                side: s.to_string(),
                cards: Vec::new(),
            })
            .collect(),
        ..Position::default()
    }
}

fn start(p: &Position) -> (Rules<'static>, State) {
    start_with(p, &[])
}

fn start_with(p: &Position, dice: &[i64]) -> (Rules<'static>, State) {
    let r = rules();
    let s = rules::start_from(&r, (1, &[], dice), Some(p)).expect("the position starts");
    (r, s)
}

fn act(r: &Rules, state: &mut State, action: &str) {
    rules::apply(r, state, action).unwrap_or_else(|e| {
        panic!(
            "`{action}` refused: {} (prompt: {:?})",
            e.message, state.flow.prompt
        )
    });
}

fn options(state: &State) -> Vec<String> {
    state
        .flow
        .prompt
        .as_ref()
        .map(|p| p.options().clone())
        .unwrap_or_default()
}

fn question(state: &State) -> String {
    state
        .flow
        .prompt
        .as_ref()
        .map(|p| p.question.clone())
        .unwrap_or_default()
}

fn at(r: &Rules, state: &State, name: &str) -> Loc {
    let i = position::unit_named(r, state, name).unwrap_or_else(|| panic!("no unit {name}"));
    state.units[i].at.clone()
}

fn index(zone: &str) -> i64 {
    match berlin().graph.space(zone).unwrap().props.get("index") {
        Some(sandtable_engine::model::PropertyValue::Int(n)) => *n,
        _ => 0,
    }
}

/// The zones a unit is offered to move to.
fn moves_of(state: &State, name: &str) -> Vec<String> {
    let prefix = format!("move {name} ");
    options(state)
        .iter()
        .filter_map(|o| o.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

/// The zones the 286th Division (Frankfurt, German, Koniev camp) may reach in the end-of-turn
/// move of a turn: the four impulses pass, then each impulse's side is done until its turn.
fn end_of_turn_moves_of_the_286th(turn: u32) -> Vec<String> {
    let (r, mut s) = start(&position(turn, "operations", Some(1), &[]));
    for _ in 0..4 {
        act(&r, &mut s, "pass");
    }
    for _ in 0..4 {
        assert!(question(&s).contains("End of turn"), "{}", question(&s));
        let zones = moves_of(&s, "ge_286");
        if !zones.is_empty() {
            return zones;
        }
        act(&r, &mut s, "done");
    }
    panic!("the 286th is never offered an end-of-turn move");
}

#[test]
fn rule_5_1_with_7_2_2_the_end_of_turn_move_may_go_west_from_turn_7() {
    let here = index("frankfurt");
    let turn_6 = end_of_turn_moves_of_the_286th(6);
    assert!(turn_6.iter().all(|z| index(z) >= here), "{turn_6:?}");
    let turn_7 = end_of_turn_moves_of_the_286th(7);
    assert!(turn_7.iter().any(|z| index(z) < here), "{turn_7:?}");
}

#[test]
fn rule_3_2_2_every_supplied_unit_may_be_put_out_of_supply_for_a_support_point() {
    let (r, mut s) = start(&position(2, "logistics", None, &[]));
    // No unit to replace: the replacement point is a support point.
    let q = question(&s);
    assert!(q.contains("out of supply for a support point"), "{q}");
    let p = s.flow.prompt.clone().unwrap();
    assert_eq!(p.side, "zhukov");
    let picks: Vec<String> = p
        .options()
        .iter()
        .filter(|o| o.starts_with("su_"))
        .take(6)
        .cloned()
        .collect();
    assert_eq!(picks.len(), 6, "{:?}", p.options());
    act(&r, &mut s, &format!("choose {}", picks.join(" ")));
    assert_eq!(
        s.track("support_zhukov"),
        7,
        "1 for the replacement point, 6 for the units"
    );
}

#[test]
fn rule_2_1_3_a_reinforcement_whose_zone_the_soviets_hold_is_placed_by_its_player_at_the_nearest_supply_zone(
) {
    // Only the 11th SS rolls (the others have arrived or are taken as rolled for): a 6 on
    // turn 2 brings it to Joachimsthal, where the 61st Army stands.
    let mut p = position(
        2,
        "administrative",
        None,
        &[("su_61.1", "joachimsthal"), ("su_61.2", "joachimsthal")],
    );
    p.flags = [
        "reinf_su_3",
        "reinf_ge_1_falsch",
        "reinf_su_28",
        "reinf_su_31",
        "reinf_ge_23ss",
        "reinf_ge_18pzgr",
    ]
    .map(String::from)
    .to_vec();
    let (r, mut s) = start_with(&p, &[6]);
    // Zehdenick and Angermünde, supply zones at the edge, are both one zone away: the Koniev
    // player, who commands the 11th SS, chooses.
    let prompt = s.flow.prompt.clone().expect("a prompt");
    assert_eq!(prompt.side, "koniev");
    assert!(prompt.question.contains("(2.1.3)"), "{}", prompt.question);
    let mut zones = prompt.options().clone();
    zones.sort();
    assert_eq!(zones, ["angermuende", "zehdenick"]);
    act(&r, &mut s, "choose zehdenick");
    assert!(s.flags.contains("reinf_ge_11ss"));
    assert_eq!(at(&r, &s, "ge_11ss"), Loc::Space("zehdenick".into()));
    assert_eq!(at(&r, &s, "su_61.1"), Loc::Space("joachimsthal".into()));
}

fn prompt_side(state: &State) -> String {
    state
        .flow
        .prompt
        .as_ref()
        .map(|p| p.side.to_string())
        .unwrap_or_default()
}

/// The 61st Army's first counter alone in Königs Wusterhausen, attacked in the Koniev camp's
/// German impulse (C.3) from Storkow by Kurmark, the 20th and the 25th Panzergrenadier (20
/// against 16, 1:1; a 6 is D1R), with these other units placed. Every attacker advances.
fn koenigs_wusterhausen_attacked(place: &[(&str, &str)]) -> (Rules<'static>, State) {
    let mut all = vec![
        ("su_61.1", "koenigs_wusterhausen"),
        ("su_61.2", "removed"),
        ("ge_kurmark", "storkow"),
        ("ge_20pzgr", "storkow"),
        ("ge_25pzgr", "storkow"),
    ];
    all.extend_from_slice(place);
    let (r, mut s) = start(&position(2, "operations", Some(3), &all));
    for u in ["ge_kurmark", "ge_20pzgr", "ge_25pzgr"] {
        act(&r, &mut s, &format!("activate {u} combat"));
    }
    act(&r, &mut s, "go");
    act(&r, &mut s, "dice 6");
    act(&r, &mut s, "attack koenigs_wusterhausen");
    act(&r, &mut s, "choose ge_kurmark ge_20pzgr ge_25pzgr");
    let said = s.flow.messages.join("\n");
    assert!(said.contains("20 against 16 (1:1)"), "{said}");
    assert!(said.contains("defender 1, retreat"), "{said}");
    (r, s)
}

/// The attackers of [`koenigs_wusterhausen_attacked`] all advance, the Zhukov camp's German
/// impulse passes, the end-of-phase roll (a 6) brings a new Operations Phase: the Zhukov
/// player's Soviet impulse begins.
fn advance_and_go_on_to_the_next_soviet_impulse(r: &Rules, s: &mut State) {
    for u in ["ge_kurmark", "ge_20pzgr", "ge_25pzgr"] {
        act(r, s, &format!("advance {u}"));
    }
    assert_eq!(prompt_side(s), "zhukov", "{}", question(s));
    act(r, s, "dice 6");
    act(r, s, "pass");
    assert!(question(s).contains(": C.1"), "{}", question(s));
}

#[test]
fn rule_7_3_2_a_soviet_unit_forced_across_the_front_boundary_returns_at_its_next_activation() {
    // Its own front's zones next to it are held by Germans (Erkner, and Storkow by the
    // attackers), Berlin's are not its camp's: the only way out is across the boundary, into
    // Teupitz (index 10) before Zossen (9), the Soviets retreating towards higher indexes.
    let (r, mut s) = koenigs_wusterhausen_attacked(&[("ge_712", "erkner")]);
    let retreats = options(&s);
    assert_eq!(retreats, ["retreat su_61.1 teupitz"]);
    act(&r, &mut s, "retreat su_61.1 teupitz");
    assert_eq!(at(&r, &s, "su_61.1"), Loc::Space("teupitz".into()));
    advance_and_go_on_to_the_next_soviet_impulse(&r, &mut s);
    // It must be activated first, to move, and may not stay.
    assert_eq!(options(&s), ["activate su_61.1 move"]);
    act(&r, &mut s, "activate su_61.1 move");
    assert!(options(&s).contains(&"activate su_47.1 combat".to_string()));
    act(&r, &mut s, "go");
    let o = options(&s);
    assert!(!o.contains(&"done".to_string()), "it must leave: {o:?}");
    assert_eq!(
        moves_of(&s, "su_61.1"),
        ["storkow"],
        "back to its front: {o:?}"
    );
    act(&r, &mut s, "move su_61.1 storkow");
    let i = position::unit_named(&r, &s, "su_61.1").unwrap();
    assert!(!s.unit_flag(i, "forced_across_front"));
    assert!(moves_of(&s, "su_61.1").is_empty(), "it stops on its return");
}

/// [`koenigs_wusterhausen_attacked`] with the Koniev camp's 2nd Polish Army in Erkner (the only
/// zone left to retreat into: Zossen and Teupitz held by Germans); the retreat made.
fn forced_among_the_poles() -> (Rules<'static>, State) {
    let (r, mut s) = koenigs_wusterhausen_attacked(&[
        ("su_2pol.1", "erkner"),
        ("su_2pol.2", "removed"),
        ("ge_712", "zossen"),
        ("ge_169", "teupitz"),
    ]);
    assert_eq!(options(&s), ["retreat su_61.1 erkner"]);
    act(&r, &mut s, "retreat su_61.1 erkner");
    let i = position::unit_named(&r, &s, "su_61.1").unwrap();
    assert!(s.unit_flag(i, "forced_among_other_camp"));
    (r, s)
}

#[test]
fn rule_7_3_3_a_soviet_unit_forced_among_the_other_camps_units_may_only_be_activated_to_leave() {
    let (r, mut s) = forced_among_the_poles();
    advance_and_go_on_to_the_next_soviet_impulse(&r, &mut s);
    let o = options(&s);
    assert!(o.contains(&"activate su_61.1 move".to_string()), "{o:?}");
    for mode in ["combat", "reserve"] {
        assert!(!o.contains(&format!("activate su_61.1 {mode}")), "{o:?}");
    }
    assert!(
        o.contains(&"pass".to_string()),
        "not bound to leave at once: {o:?}"
    );
    act(&r, &mut s, "activate su_61.1 move");
    act(&r, &mut s, "go");
    // Out of Erkner, to any zone free of the other camp's units it may enter.
    let zones = moves_of(&s, "su_61.1");
    assert!(zones.contains(&"storkow".to_string()), "{zones:?}");
    assert!(
        !zones.contains(&"koenigs_wusterhausen".to_string()),
        "{zones:?}"
    );
    act(&r, &mut s, "move su_61.1 storkow");
    assert!(moves_of(&s, "su_61.1").is_empty(), "it stops once out");
    let i = position::unit_named(&r, &s, "su_61.1").unwrap();
    assert!(!s.unit_flag(i, "forced_among_other_camp"));
}

#[test]
fn rule_7_3_3_a_soviet_unit_forced_among_the_other_camps_units_does_not_defend_and_is_eliminated_when_they_retreat(
) {
    let (r, mut s) = forced_among_the_poles();
    // The Zhukov camp's German impulse: four divisions attack Erkner (forest: the Poles'
    // 14 doubled) from Strausberg and Fürstenwalde; the 61st's counter does not count.
    for (u, z) in [
        ("ge_1sspz", "strausberg"),
        ("ge_10sspz", "strausberg"),
        ("ge_21pz", "strausberg"),
        ("ge_brandenburg", "fuerstenwalde"),
    ] {
        let i = position::unit_named(&r, &s, u).unwrap();
        s.units[i].at = Loc::Space(z.into());
    }
    for u in ["ge_kurmark", "ge_20pzgr", "ge_25pzgr"] {
        act(&r, &mut s, &format!("advance {u}"));
    }
    rules::resume(&r, &mut s);
    assert!(question(&s).contains(": C.4"), "{}", question(&s));
    for u in ["ge_1sspz", "ge_10sspz", "ge_21pz", "ge_brandenburg"] {
        act(&r, &mut s, &format!("activate {u} combat"));
    }
    act(&r, &mut s, "go");
    act(&r, &mut s, "dice 6");
    act(&r, &mut s, "attack erkner");
    act(
        &r,
        &mut s,
        "choose ge_1sspz ge_10sspz ge_21pz ge_brandenburg",
    );
    let said = s.flow.messages.join("\n");
    assert!(said.contains("30 against 28"), "{said}");
    assert!(said.contains("retreat"), "{said}");
    assert_eq!(options(&s), ["retreat su_2pol.1 storkow"]);
    act(&r, &mut s, "retreat su_2pol.1 storkow");
    assert!(
        matches!(at(&r, &s, "su_61.1"), Loc::Box(_)),
        "{:?}",
        at(&r, &s, "su_61.1")
    );
    let i = position::unit_named(&r, &s, "su_61.1").unwrap();
    assert!(!s.units[i].reduced, "eliminated without step losses");
}

#[test]
fn rule_8_3_3_a_german_unit_with_every_friendly_zone_around_full_retreats_through_one() {
    // Rule 8's example, with Seelow, Falkenhagen and Frankfurt each holding three German
    // divisions: the 606th and the 5th Jäger pass through one into a zone beyond.
    let place = [
        ("su_1gta.1", "bridgehead"),
        ("su_1gta.2", "bridgehead"),
        ("su_8ga.1", "bridgehead"),
        ("su_8ga.2", "goeritz"),
        ("ge_606", "lebus"),
        ("ge_5jaeger", "lebus"),
        ("ge_712", "seelow"),
        ("ge_169", "falkenhagen"),
        ("ge_391", "frankfurt"),
        ("ge_32ss", "frankfurt"),
    ];
    let (r, mut s) = start(&position(1, "operations", Some(1), &place));
    let g = &berlin().graph;
    for full in ["seelow", "falkenhagen", "frankfurt"] {
        assert_eq!(s.units_at(full).count(), 3, "{full}");
    }
    for u in ["su_1gta.1", "su_1gta.2", "su_8ga.1", "su_8ga.2"] {
        act(&r, &mut s, &format!("activate {u} combat"));
    }
    act(&r, &mut s, "go");
    act(&r, &mut s, "dice 5");
    act(&r, &mut s, "attack lebus");
    act(&r, &mut s, "choose su_1gta.1 su_1gta.2 su_8ga.1 su_8ga.2");
    act(&r, &mut s, "lose ge_606");
    let zones: Vec<String> = options(&s)
        .iter()
        .filter_map(|o| o.strip_prefix("retreat ge_606 ").map(str::to_string))
        .collect();
    assert!(!zones.is_empty(), "{:?}", options(&s));
    let next_to = |a: &str, b: &str| g.neighbour_ids(a).contains(&b);
    for z in &zones {
        assert!(!next_to("lebus", z), "{z} is next to Lebus");
        assert!(
            ["seelow", "falkenhagen", "frankfurt"]
                .iter()
                .any(|full| next_to(full, z)),
            "{z} is beyond a full zone"
        );
        assert!(index(z) <= index("lebus"), "towards the west first: {z}");
    }
    act(&r, &mut s, &format!("retreat ge_606 {}", zones[0]));
    assert_eq!(at(&r, &s, "ge_606"), Loc::Space(zones[0].as_str().into()));
}

#[test]
fn rule_2_2_8_a_soviet_unit_in_an_american_zone_must_leave_it_at_its_next_activation() {
    // The 61st Army's counters in Kyritz and Neuruppin, Kyritz taken by the Americans.
    let mut p = position(
        2,
        "operations",
        Some(1),
        &[("su_61.1", "kyritz"), ("su_61.2", "neuruppin")],
    );
    p.markers = vec![sandtable_engine::model::MarkerAt {
        marker: "us_control".into(),
        space: "kyritz".into(),
        level: 1,
    }];
    let (r, mut s) = start(&p);
    assert_eq!(options(&s), ["activate su_61.1 move"]);
    act(&r, &mut s, "activate su_61.1 move");
    act(&r, &mut s, "go");
    let o = options(&s);
    assert!(!o.contains(&"done".to_string()), "{o:?}");
    let zones = moves_of(&s, "su_61.1");
    assert!(zones.contains(&"neuruppin".to_string()), "{zones:?}");
    act(&r, &mut s, "move su_61.1 neuruppin");
    assert!(moves_of(&s, "su_61.1").is_empty());
    // Gone from the American zone, it is bound no more.
    assert_eq!(at(&r, &s, "su_61.1"), Loc::Space("neuruppin".into()));
}

#[test]
fn rule_2_3_2_hitlers_order_when_no_unit_can_attack_binds_two_to_move_next_to_soviet_units() {
    // The Koniev camp's Germans: Kurmark (armour) and the 156th in Neuruppin, the others off
    // the map; the 61st Army in Oranienburg, two zones away.
    let koniev_germans = [
        "ge_391",
        "ge_32ss",
        "ge_raegener",
        "ge_286",
        "ge_712",
        "ge_169",
        "ge_303",
        "ge_20pzgr",
        "ge_606",
        "ge_5jaeger",
        "ge_9falsch",
        "ge_309",
        "ge_muencheberg",
        "ge_25pzgr",
        "ge_541",
    ];
    let mut place: Vec<(&str, &str)> = koniev_germans.iter().map(|u| (*u, "removed")).collect();
    place.extend([
        ("ge_kurmark", "neuruppin"),
        ("ge_156", "neuruppin"),
        ("su_61.1", "oranienburg"),
        ("su_61.2", "oranienburg"),
    ]);
    let mut p = position(2, "operations", Some(3), &place);
    p.flags = vec!["hitler_counterattack_north".into()];
    let (r, mut s) = start(&p);
    let o = options(&s);
    assert!(!o.contains(&"pass".to_string()), "{o:?}");
    // In combat mode, the order is not obeyed: none of them can attack.
    act(&r, &mut s, "activate ge_kurmark combat");
    act(&r, &mut s, "activate ge_156 combat");
    assert!(!options(&s).contains(&"go".to_string()));
    let (r, mut s) = start(&p);
    act(&r, &mut s, "activate ge_156 move");
    assert!(!options(&s).contains(&"go".to_string()), "two must go");
    act(&r, &mut s, "activate ge_kurmark move");
    act(&r, &mut s, "dice 4 4");
    act(&r, &mut s, "go");
    assert!(!options(&s).contains(&"done".to_string()));
    let zones = moves_of(&s, "ge_156");
    assert!(zones.contains(&"kremmen".to_string()), "{zones:?}");
    assert!(
        !zones.contains(&"kyritz".to_string()),
        "not away from them: {zones:?}"
    );
    act(&r, &mut s, "move ge_156 kremmen");
    assert!(!options(&s).contains(&"done".to_string()), "one is there");
    act(&r, &mut s, "move ge_kurmark kremmen");
    assert!(
        options(&s).contains(&"done".to_string()),
        "{:?}",
        options(&s)
    );
    act(&r, &mut s, "done");
    // No attack is bound: the units moved as ordered.
    assert!(
        !question(&s).contains("the order to attack"),
        "{}",
        question(&s)
    );
}
