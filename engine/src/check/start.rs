//! Checks of what a scenario says about its start beyond the setup: the cards it places (in
//! hands, played, discarded, removed) and the restrictions of its opening.
//!
//! A card may be placed once: in one hand, or played, discarded or removed, and not also offered
//! by a hand's `choose_one_of` (whose cards go into the draw pile), since the setup takes every
//! card it places out of the draw pile.

use std::collections::BTreeMap;

use super::{At, Checker, Ids};
use crate::load::Parsed;
use crate::model::{Opening, ScenarioFile};

impl Checker<'_> {
    pub(super) fn scenario_start(&mut self, f: &Parsed<ScenarioFile>, ids: &Ids) {
        let s = &f.data;
        let deck_of: BTreeMap<&str, &str> = ids
            .card_decks
            .iter()
            .map(|(c, d)| (c.as_str(), d.as_str()))
            .collect();
        // Every place a card is put, by its pointer.
        let mut places: Vec<(String, &str, &str)> = Vec::new();
        for (i, h) in s.hands.iter().enumerate() {
            for (j, c) in h.cards.iter().enumerate() {
                places.push((format!("/hands/{i}/cards/{j}"), c, "in a hand"));
            }
            for (j, c) in h.choose_one_of.iter().enumerate() {
                places.push((
                    format!("/hands/{i}/choose_one_of/{j}"),
                    c,
                    "offered in a hand",
                ));
            }
        }
        for (i, p) in s.played.iter().enumerate() {
            places.push((format!("/played/{i}/card"), &p.card, "played"));
        }
        for (i, c) in s.discarded.iter().enumerate() {
            places.push((format!("/discarded/{i}"), c, "discarded"));
        }
        for (i, c) in s.removed.iter().enumerate() {
            places.push((format!("/removed/{i}"), c, "removed"));
        }
        let mut first: BTreeMap<&str, (&str, &str)> = BTreeMap::new();
        for (pointer, card, how) in &places {
            if !pointer.contains("/choose_one_of/") {
                self.reference(f, pointer, "card", card, &ids.cards);
            }
            if let Some((before, how_before)) = first.get(card) {
                let d = self.error(
                    f.at(pointer),
                    "E0209",
                    format!("card `{card}` is placed twice at the start: {how_before} and {how}"),
                );
                d.hints.push(format!("it is already placed at {before}"));
            } else {
                first.insert(card, (pointer, how));
            }
        }
        for (i, h) in s.hands.iter().enumerate() {
            for (j, c) in h.cards.iter().enumerate() {
                match deck_of.get(c.as_str()) {
                    Some(deck) if *deck != h.deck => {
                        self.error(
                            f.at(&format!("/hands/{i}/cards/{j}")),
                            "E0209",
                            format!(
                                "card `{c}` is of deck `{deck}`, not of the hand's `{}`",
                                h.deck
                            ),
                        );
                    }
                    _ => {}
                }
            }
        }
        for (i, p) in s.played.iter().enumerate() {
            if let Some(turn) = p.turn.filter(|&t| t >= s.first_turn) {
                self.error(
                    f.at(&format!("/played/{i}/turn")),
                    "E0207",
                    format!(
                        "card `{}` is played before the start, on turn {turn}, but the scenario begins on turn {}",
                        p.card, s.first_turn
                    ),
                );
            }
        }
        if let Opening::Restricted(o) = &s.opening {
            for (i, a) in o.actions.iter().enumerate() {
                let p = format!("/opening/Restricted/actions/{i}");
                self.reference(f, &format!("{p}/side"), "side", &a.side, &ids.sides);
                self.references(f, &format!("{p}/cards"), "card", &a.cards, &ids.cards);
            }
        }
    }
}
