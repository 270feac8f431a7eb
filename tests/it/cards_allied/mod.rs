//! Allied cards of Barbarossa to Berlin, each played from a prepared state: a module per range of
//! card numbers. This module holds the helpers they share.

mod cards_01_20;
mod cards_21_40;
mod cards_41_55;

use sandtable_engine::script::eval::Decision;
use sandtable_engine::state::{Loc, State};

use crate::cards::*;

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

/// Ids of the spaces of a country (the country's own id, not its sub-regions).
fn spaces_of(country: &str) -> Vec<String> {
    b2b()
        .graph
        .spaces
        .iter()
        .filter(|s| s.country.as_deref() == Some(country))
        .map(|s| s.id.to_string())
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
        s.control.insert(x.as_str().into(), side.into());
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
