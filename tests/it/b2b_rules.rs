//! Barbarossa to Berlin's rules that play got wrong, each tried through the prompts from a set
//! position (a session started where the rule bites), named after its rule.

use sandtable_engine::model::{
    CardPlayedOn, ExampleHand, MarkerAt, PlayAt, Position, TrackValue, UnitAt,
};
use sandtable_engine::session::{Session, Setup};

use crate::cards::b2b;

/// A campaign session started from a position, seed 1.
pub(crate) fn from(position: Position) -> Session {
    let setup = Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed: 1,
        dice: Vec::new(),
        position: Some(position),
    };
    Session::new(b2b(), setup).unwrap_or_else(|e| panic!("{}", e.0))
}

pub(crate) fn unit_at(unit: &str, at: &str) -> UnitAt {
    UnitAt {
        unit: unit.into(),
        at: at.into(),
        reduced: false,
        due: None,
        serves: None,
        theatres: Vec::new(),
    }
}

pub(crate) fn hand(side: &str, cards: &[&str]) -> ExampleHand {
    ExampleHand {
        side: side.into(),
        cards: cards.iter().map(|c| c.to_string()).collect(),
    }
}

pub(crate) fn at_round(round: u32, side: &str) -> Option<PlayAt> {
    Some(PlayAt {
        phase: "action".into(),
        round: Some(round),
        side: Some(side.into()),
        impulse: None,
    })
}

/// Plays each action; panics with the prompt if one is refused.
pub(crate) fn play(s: &mut Session, actions: &[&str]) {
    for a in actions {
        if let Err(e) = s.apply(b2b(), a) {
            panic!("`{a}` refused: {} ({:?})", e.message, s.prompt());
        }
    }
}

pub(crate) fn options(s: &Session) -> Vec<String> {
    s.prompt().map(|p| p.options().clone()).unwrap_or_default()
}

pub(crate) fn place_of(s: &Session, unit: &str) -> String {
    let u = s
        .state()
        .units
        .iter()
        .find(|u| u.name(b2b()) == unit)
        .unwrap_or_else(|| panic!("no unit {unit}"));
    match &u.at {
        sandtable_engine::state::Loc::Space(x) | sandtable_engine::state::Loc::Box(x) => {
            x.to_string()
        }
        other => format!("{other:?}"),
    }
}

#[test]
fn rule_12_4_and_12_5_a_british_corps_redeploys_out_of_the_reserve_box_to_basra_suez_or_alexandria()
{
    let mut s = from(Position {
        turn: Some(6),
        units: vec![unit_at("br_corps.2", "allied_reserve")],
        hands: vec![hand("allied", &["lend_lease"]), hand("axis", &[])],
        at: at_round(1, "allied"),
        ..Position::default()
    });
    play(&mut s, &["sr lend_lease"]);
    assert!(options(&s).contains(&"redeploy br_corps.2".to_string()));
    play(&mut s, &["redeploy br_corps.2"]);
    assert_eq!(
        options(&s),
        ["to basra", "to suez", "to alexandria", "back"],
        "7.62: the British Home Country Full Supply sources"
    );
    play(&mut s, &["to suez"]);
    assert_eq!(place_of(&s, "br_corps.2"), "suez");
}

#[test]
fn rule_14_3_an_eliminated_us_army_is_offered_for_rebuild_at_basra_or_a_us_beach_head() {
    let mut s = from(Position {
        turn: Some(10),
        units: vec![unit_at("us_1st_army", "allied_eliminated")],
        control: vec![sandtable_engine::model::ControlSetting {
            side: Some("allied".into()),
            regions: Vec::new(),
            spaces: vec!["beach_n".into()],
        }],
        markers: vec![MarkerAt {
            marker: "beach_head_us".into(),
            space: "beach_n".into(),
            level: 1,
        }],
        flags: vec!["us_at_war".into()],
        tracks: vec![TrackValue {
            track: "rp_us".into(),
            value: 4,
        }],
        played_on: vec![CardPlayedOn {
            card: "fdr_declares_war".into(),
            turn: 4,
        }],
        at: Some(PlayAt {
            phase: "replacement".into(),
            ..PlayAt::default()
        }),
        ..Position::default()
    });
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("allied", "replace"));
    assert!(
        p.options().contains(&"rebuild us_1st_army".to_string()),
        "{p:?}"
    );
    play(&mut s, &["rebuild us_1st_army"]);
    let places = options(&s);
    assert!(places.contains(&"place basra".to_string()), "{places:?}");
    assert!(places.contains(&"place beach_n".to_string()), "{places:?}");
    assert!(!places.contains(&"place suez".to_string()), "{places:?}");
    play(&mut s, &["place beach_n"]);
    assert_eq!(place_of(&s, "us_1st_army"), "beach_n");
}

#[test]
fn rule_4_3_the_axis_player_chooses_barbarossa_or_von_paulus_pause_and_the_other_goes_into_the_deck_once(
) {
    for (take, other) in [
        ("barbarossa", "von_paulus_pause"),
        ("von_paulus_pause", "barbarossa"),
    ] {
        let setup = Setup {
            scenario: "campaign".into(),
            options: Vec::new(),
            seed: 1,
            dice: Vec::new(),
            position: None,
        };
        let mut s = Session::new(b2b(), setup).unwrap();
        let p = s.prompt().unwrap().clone();
        assert_eq!((p.side.as_str(), p.kind.as_str()), ("axis", "start_card"));
        // The choice belongs to the set-up, before the first phase (the Weather's) starts.
        assert_eq!(p.question, "Set-up: Choose the card your hand starts with");
        assert_eq!(p.options(), ["take barbarossa", "take von_paulus_pause"]);
        play(&mut s, &[&format!("take {take}")]);
        let st = s.state();
        let hand = &st.hands["axis"];
        assert_eq!(hand.len(), 7, "the chosen card and six drawn: {hand:?}");
        assert!(hand.contains(&take.to_string()));
        let everywhere = |card: &str| {
            st.hands
                .values()
                .chain(st.draw_piles.values())
                .chain(st.discards.values())
                .chain(st.set_aside.values())
                .flatten()
                .filter(|c| *c == card)
                .count()
        };
        assert_eq!(everywhere(take), 1);
        assert_eq!(everywhere(other), 1, "{other} is in the deck once");
        assert_eq!(st.hands["allied"].len(), 7);
    }
}

#[test]
fn rule_4_4_bomber_command_may_not_be_played_as_an_event_on_turn_1_which_is_round_6() {
    let offered = |turn: u32| {
        let s = from(Position {
            turn: Some(turn),
            hands: vec![hand("allied", &["bomber_command"]), hand("axis", &[])],
            at: at_round(1, "allied"),
            ..Position::default()
        });
        options(&s).contains(&"event bomber_command".to_string())
    };
    assert!(!offered(1), "turn 1 is round 6 of Spring 41");
    assert!(offered(2));
}

#[test]
fn rule_4_4_an_allied_hand_without_card_2_or_24_may_be_redrawn_all_but_one_card() {
    let wanted = ["soviet_reinforcements_2", "soviet_reinforcements_24"];
    let mut tried = 0;
    for seed in 1..40 {
        let setup = Setup {
            scenario: "campaign".into(),
            options: Vec::new(),
            seed,
            dice: Vec::new(),
            position: None,
        };
        let mut s = Session::new(b2b(), setup).unwrap();
        play(&mut s, &["take barbarossa"]);
        let hand: Vec<String> = s.state().hands["allied"].clone();
        let p = s.prompt().unwrap().clone();
        if hand.iter().any(|c| wanted.contains(&c.as_str())) {
            // With card 2 or 24, no redraw is offered: the Orders come next.
            assert_eq!((p.side.as_str(), p.pick), ("axis", Some((3, 3))), "{p:?}");
            continue;
        }
        tried += 1;
        assert_eq!(p.side, "allied");
        assert!(p.question.contains("refill your hand"), "{p:?}");
        let keep = hand[0].clone();
        play(&mut s, &["choose yes", &format!("choose {keep}")]);
        if s.prompt().is_some_and(|p| p.question.contains("card 24")) {
            // Still without either: a 3 OPS card may go for card 24.
            play(&mut s, &["choose yes"]);
            let bigs = options(&s);
            let big = bigs
                .iter()
                .find(|c| **c != keep)
                .unwrap_or(&bigs[0])
                .clone();
            play(&mut s, &[&format!("choose {big}")]);
            assert!(!s.state().hands["allied"].contains(&big));
            assert!(s.state().hands["allied"].contains(&wanted[1].to_string()));
        }
        let after = &s.state().hands["allied"];
        assert_eq!(after.len(), 7, "{after:?}");
        assert!(after.contains(&keep) || after.contains(&wanted[1].to_string()));
        assert_eq!(s.prompt().unwrap().side, "axis", "then the Orders");
    }
    assert!(
        tried > 0,
        "no seed dealt an Allied hand without card 2 or 24"
    );
}

#[test]
fn rule_11_51_after_a_two_space_retreat_infantry_may_follow_into_the_spaces_the_retreat_left() {
    // Turn 1: the Northwest Front, hit for 3 against 1, retreats Kaunas - Vilna - Minsk.
    let mut s = from(Position {
        hands: vec![hand("allied", &[])],
        ..Position::default()
    });
    play(
        &mut s,
        &[
            "take barbarossa",
            "choose no",
            "choose brest_litovsk kovel lwow",
            "event barbarossa",
            "choose memel insterburg warsaw lublin tarnow",
            "attack kaunas",
            "with ge_16th_army",
            "with ge_4th_pz_army",
            "dice 1 1",
            "fight",
            "lose su_northwest_front",
            "retreat su_northwest_front vilna",
            "retreat su_northwest_front minsk",
        ],
    );
    let advance = options(&s);
    assert!(
        advance.contains(&"advance ge_16th_army kaunas".to_string()),
        "{advance:?}"
    );
    assert!(
        !advance.contains(&"advance ge_16th_army vilna".to_string()),
        "{advance:?}"
    );
    play(&mut s, &["advance ge_16th_army kaunas"]);
    let advance = options(&s);
    // On into Vilna, which the Front vacated; not into Riga or Dvinsk, which it never entered.
    assert!(
        advance.contains(&"advance ge_16th_army vilna".to_string()),
        "{advance:?}"
    );
    for other in ["riga", "dvinsk", "memel"] {
        assert!(
            !advance.contains(&format!("advance ge_16th_army {other}")),
            "{other}: {advance:?}"
        );
    }
    play(&mut s, &["advance ge_16th_army vilna"]);
    assert_eq!(place_of(&s, "ge_16th_army"), "vilna");
    assert!(
        !options(&s)
            .iter()
            .any(|o| o.starts_with("advance ge_16th_army")),
        "no further than the retreat went"
    );
}

#[test]
fn rule_6_c_the_axis_attrition_segment_ends_the_sixth_axis_round_before_the_sixth_allied_round() {
    // An out-of-supply German corps deep in the Soviet Union, on an Axis-held Gorki.
    let mut s = from(Position {
        turn: Some(3),
        units: vec![unit_at("ge_corps.11", "gorki")],
        control: vec![sandtable_engine::model::ControlSetting {
            side: Some("axis".into()),
            regions: Vec::new(),
            spaces: vec!["gorki".into()],
        }],
        hands: vec![hand("allied", &[]), hand("axis", &[])],
        at: at_round(5, "axis"),
        ..Position::default()
    });
    // Round 5: nothing happens at the end of the Axis action.
    play(&mut s, &["auto_ops", "done"]);
    assert_eq!(place_of(&s, "ge_corps.11"), "gorki");
    play(&mut s, &["auto_ops", "done"]);
    // Round 6: the Axis action ends, the Axis Attrition Segment follows at once.
    assert_eq!(s.state().round, 6);
    play(&mut s, &["auto_ops", "done"]);
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), s.state().round), ("allied", 6), "{p:?}");
    assert_eq!(place_of(&s, "ge_corps.11"), "axis_eliminated");
    assert_eq!(
        s.state().control.get("gorki").map(|x| x.as_str()),
        Some("allied"),
        "13.5: the space no Axis unit could be supplied in changes hands"
    );
}

#[test]
fn rule_13_44_an_oos_german_army_waits_three_turns_and_takes_a_corps_from_the_reserve() {
    let corps_in_reserve = |s: &Session| {
        s.state()
            .units
            .iter()
            .filter(|u| {
                u.counter == "ge_corps"
                    && u.at == sandtable_engine::state::Loc::Box("axis_reserve".into())
            })
            .count()
    };
    // Spring 42: the 4th Army cut off at Gorki; the Axis Attrition Segment ends round 6 (6.C).
    let mut s = from(Position {
        turn: Some(5),
        units: vec![unit_at("ge_4th_army", "gorki")],
        hands: vec![hand("allied", &[]), hand("axis", &[])],
        at: at_round(6, "axis"),
        ..Position::default()
    });
    let reserve = corps_in_reserve(&s);
    play(&mut s, &["auto_ops", "done"]);
    assert_eq!(place_of(&s, "ge_4th_army"), "axis_turn_track");
    let army = s
        .state()
        .units
        .iter()
        .position(|u| u.counter == "ge_4th_army")
        .unwrap();
    assert_eq!(s.state().delayed.get(&army), Some(&8));
    assert_eq!(
        corps_in_reserve(&s),
        reserve - 1,
        "a matching corps goes with it"
    );
    // Turn 8's Axis Attrition Segment puts it in the Eliminated Units Box.
    let mut s = from(Position {
        turn: Some(8),
        units: vec![UnitAt {
            due: Some(8),
            ..unit_at("ge_4th_army", "axis_turn_track")
        }],
        hands: vec![hand("allied", &[]), hand("axis", &[])],
        at: at_round(6, "axis"),
        ..Position::default()
    });
    play(&mut s, &["auto_ops", "done"]);
    assert_eq!(place_of(&s, "ge_4th_army"), "axis_eliminated");
    assert!(s.state().delayed.is_empty());
}

/// Where a card is: `kept`, `hand`, `discard` or `elsewhere`, for a side.
fn card_place(s: &Session, side: &str, card: &str) -> &'static str {
    let st = s.state();
    let has = |m: &std::collections::BTreeMap<String, Vec<String>>| {
        m.get(side).is_some_and(|c| c.iter().any(|x| x == card))
    };
    if has(&st.kept_cards) {
        "kept"
    } else if has(&st.hands) {
        "hand"
    } else if has(&st.discards) {
        "discard"
    } else {
        "elsewhere"
    }
}

#[test]
fn rule_7_64_a_combat_card_is_kept_face_up_after_a_won_combat_used_again_and_discarded_after_a_lost_one(
) {
    let mut s = from(Position {
        turn: Some(10),
        hands: vec![
            hand("allied", &[]),
            hand("axis", &["speer", "fall_blau", "panther"]),
        ],
        at: at_round(1, "axis"),
        ..Position::default()
    });
    // Round 1: Panther helps the 1st Panzer Army win at Brest-Litovsk; it is kept face up.
    play(
        &mut s,
        &[
            "ops speer",
            "activate lublin combat",
            "activate warsaw combat",
            "done",
            "attack brest_litovsk",
            "with ge_6th_army",
            "with ge_1st_pz_army",
            "dice 6 1",
            "fight",
            "card panther",
            "lose su_army.5",
            "lose su_army.5",
        ],
    );
    assert_eq!(card_place(&s, "axis", "panther"), "kept");
    // Not twice in one action round: the next combat of this action is fought without it.
    play(
        &mut s,
        &[
            "done",
            "attack bialystok",
            "with ge_2nd_pz_army",
            "dice 6 1",
            "fight",
        ],
    );
    assert_eq!(
        s.prompt().unwrap().kind,
        "losses",
        "no card step: {:?}",
        s.prompt()
    );
    play(
        &mut s,
        &["lose su_west_front", "retreat su_west_front vilna", "done"],
    );
    // The Allied round, then the Axis round 2: the kept card is offered again.
    play(
        &mut s,
        &[
            "auto_ops",
            "done",
            "ops fall_blau",
            "activate lublin combat",
            "done",
            "attack kovel",
            "with ge_1st_pz_army",
            "dice 1 6",
            "fight",
        ],
    );
    assert!(
        options(&s).contains(&"card panther".to_string()),
        "{:?}",
        s.prompt()
    );
    assert_eq!(card_place(&s, "axis", "panther"), "kept");
    // Both sides inflict a Loss Number of 2: both lose, and the card is discarded.
    play(
        &mut s,
        &["card panther", "lose su_army.7", "lose su_army.7"],
    );
    assert_eq!(card_place(&s, "axis", "panther"), "discard");
}

#[test]
fn rule_7_64_combat_cards_kept_face_up_are_discarded_at_the_end_of_the_turn() {
    let s = from(Position {
        turn: Some(10),
        kept: vec![hand("axis", &["panther"])],
        at: Some(PlayAt {
            phase: "end".into(),
            ..PlayAt::default()
        }),
        ..Position::default()
    });
    assert_eq!(card_place(&s, "axis", "panther"), "kept");
    let mut s = s;
    while s.state().turn == 10 {
        let p = s.prompt().unwrap().clone();
        let a = match p.pick {
            Some((min, _)) => format!("choose {}", p.options()[..min].join(" ")),
            None => p.options()[0].clone(),
        };
        play(&mut s, &[&a]);
    }
    assert_eq!(card_place(&s, "axis", "panther"), "discard");
}

/// 7.2, 14 and the cards' events: with every card of a side in its hand, in a round where
/// nothing restricts the actions (turn 6, round 3), the Action prompt offers each card for
/// its operations and SR when it has operations points, for replacements when it gives some
/// pool points, and its event when it has one whose `playable` condition holds (evaluated
/// here directly, not through the prompt's remembered results or its table of cards).
#[test]
fn rule_7_2_every_card_of_a_hand_is_offered_as_its_values_and_condition_say() {
    let content = b2b();
    let play = content.game.as_ref().and_then(|g| g.play.as_ref()).unwrap();
    for (side, other) in [("allied", "axis"), ("axis", "allied")] {
        let deck: Vec<&sandtable_engine::model::Card> = (content.decks.iter())
            .filter(|d| d.deck == side)
            .flat_map(|d| d.cards.iter())
            .collect();
        let ids: Vec<&str> = deck.iter().map(|c| c.id.as_str()).collect();
        let s = from(Position {
            turn: Some(6),
            hands: vec![hand(side, &ids), hand(other, &[])],
            at: at_round(3, side),
            ..Position::default()
        });
        let offered = options(&s);
        let offers = |verb: &str, id: &str| offered.contains(&format!("{verb} {id}"));
        for card in deck {
            let id = card.id.as_str();
            let value = |name: &str| card.values.get(name).copied().unwrap_or(0);
            let ops = value(&play.ops_value) > 0;
            let rp = (play.replacements.iter())
                .any(|p| value(p.value.as_deref().unwrap_or(&p.track)) > 0);
            let event = content.scripts.get(id).is_some_and(|x| x.effect.is_some())
                && crate::cards::playable(id, s.state());
            assert_eq!(offers("ops", id), ops, "ops {id}: {offered:?}");
            assert_eq!(offers("sr", id), ops, "sr {id}: {offered:?}");
            assert_eq!(offers("rp", id), rp, "rp {id}: {offered:?}");
            assert_eq!(offers("event", id), event, "event {id}: {offered:?}");
        }
    }
}
