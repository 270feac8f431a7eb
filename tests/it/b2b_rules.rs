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
    s.prompt().map(|p| p.options.clone()).unwrap_or_default()
}

pub(crate) fn place_of(s: &Session, unit: &str) -> String {
    let u = s
        .state()
        .units
        .iter()
        .find(|u| u.name(b2b()) == unit)
        .unwrap_or_else(|| panic!("no unit {unit}"));
    match &u.at {
        sandtable_engine::state::Loc::Space(x) | sandtable_engine::state::Loc::Box(x) => x.clone(),
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
        p.options.contains(&"rebuild us_1st_army".to_string()),
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
