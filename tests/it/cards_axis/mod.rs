//! Axis cards of Barbarossa to Berlin, each played from a prepared state: a module per range of
//! card numbers. This module holds the helpers they share.

mod cards_01_20;
mod cards_21_40;
mod cards_41_55;

use sandtable_engine::script::eval::Combat;
use sandtable_engine::state::{Loc, MarkerOnMap, ModifierEffect, State};

use crate::cards::*;

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
