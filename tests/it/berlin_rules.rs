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
        .map(|(u, at)| UnitAt {
            unit: u.to_string(),
            at: at.to_string(),
            reduced: false,
        })
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
        .map(|p| p.options.clone())
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
        assert!(question(&s).starts_with("End of turn"), "{}", question(&s));
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
        .options
        .iter()
        .filter(|o| o.starts_with("su_"))
        .take(6)
        .cloned()
        .collect();
    assert_eq!(picks.len(), 6, "{:?}", p.options);
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
    let mut zones = prompt.options.clone();
    zones.sort();
    assert_eq!(zones, ["angermuende", "zehdenick"]);
    act(&r, &mut s, "choose zehdenick");
    assert!(s.flags.contains("reinf_ge_11ss"));
    assert_eq!(at(&r, &s, "ge_11ss"), Loc::Space("zehdenick".into()));
    assert_eq!(at(&r, &s, "su_61.1"), Loc::Space("joachimsthal".into()));
}
