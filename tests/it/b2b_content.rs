//! Barbarossa to Berlin's data against what the rulebook prints, rule by rule.

use std::sync::OnceLock;

use sandtable_engine::content::Content;
use sandtable_engine::model::{Cell, Location, Scalar};
use sandtable_engine::tables::{ColumnInput, RowInput};

fn b2b() -> &'static Content {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    CONTENT.get_or_init(|| {
        let loaded = sandtable_engine::load::load_dir(crate::b2b());
        assert!(!loaded.has_errors(), "the bundled content checks");
        loaded.content
    })
}

fn int(table: &str, column: ColumnInput, row: RowInput) -> i64 {
    match b2b()
        .table(table)
        .unwrap()
        .lookup(column, 0, row, 6)
        .unwrap()
    {
        Cell::Scalar(Scalar::Int(n)) => *n,
        other => panic!("{table}: not a number: {other:?}"),
    }
}

#[test]
fn rule_5_2_winter_vp_requirements_are_as_printed() {
    let required = |turn| {
        int(
            "winter_vp_requirement",
            ColumnInput::Single,
            RowInput::Number(turn),
        )
    };
    assert_eq!(
        [required(4), required(8), required(12), required(16)],
        [5, 6, 2, 1]
    );
    assert!((1..=18)
        .filter(|t| ![4, 8, 12, 16].contains(t))
        .all(|t| required(t) == 0));
}

#[test]
fn rule_18_3_oil_and_18_2_iron_adjust_hand_sizes_as_printed() {
    let oil = |side, n| {
        int(
            "oil_hand_adjustment",
            ColumnInput::Name(side),
            RowInput::Number(n),
        )
    };
    assert_eq!(
        [
            oil("axis", 0),
            oil("axis", 1),
            oil("axis", 2),
            oil("axis", 3)
        ],
        [-1, 0, 1, 1]
    );
    assert_eq!(
        [
            oil("allied", 0),
            oil("allied", 1),
            oil("allied", 2),
            oil("allied", 3)
        ],
        [-2, -1, 0, 1]
    );
    let iron = |n| {
        int(
            "iron_hand_adjustment",
            ColumnInput::Single,
            RowInput::Number(n),
        )
    };
    assert_eq!([iron(0), iron(1), iron(2)], [0, 0, -1]);
}

#[test]
fn rule_7_7_hand_limits_are_five_to_eight_with_an_axis_minimum_of_two_late() {
    let limit = |table, column, turn| int(table, ColumnInput::Name(column), RowInput::Number(turn));
    assert_eq!(
        (
            limit("axis_hand_limits", "min", 15),
            limit("axis_hand_limits", "min", 16)
        ),
        (5, 2)
    );
    assert_eq!(limit("axis_hand_limits", "max", 18), 8);
    assert_eq!(
        (
            limit("allied_hand_limits", "min", 17),
            limit("allied_hand_limits", "max", 1)
        ),
        (5, 8)
    );
}

#[test]
fn rule_11_2_die_rolls_are_clamped_and_lcus_fire_better_than_scus() {
    let fire = |table, strength, roll, drm| {
        int(
            table,
            ColumnInput::Strength(strength),
            RowInput::Roll { roll, drm },
        )
    };
    for table in ["lcu_fire", "scu_fire"] {
        assert_eq!(
            fire(table, 6, 6, 3),
            fire(table, 6, 6, 0),
            "{table}: above 6 reads as 6"
        );
        assert_eq!(
            fire(table, 6, 1, -2),
            fire(table, 6, 1, 0),
            "{table}: below 1 reads as 1"
        );
    }
    for strength in 1..=15 {
        let total = |t| (1..=6).map(|r| fire(t, strength, r, 0)).sum::<i64>();
        assert!(
            total("lcu_fire") > total("scu_fire"),
            "2.2: strength {strength}"
        );
    }
}

#[test]
fn rule_11_42_and_11_52_no_retreat_and_mech_stop_terrain() {
    let table = b2b().table("terrain_effects").unwrap();
    let field = |row: &str, name: &str| {
        let Cell::Record(fields) = table
            .lookup(ColumnInput::Single, 0, RowInput::Name(row), 6)
            .unwrap()
        else {
            panic!("terrain effects are records")
        };
        fields.get(name).cloned()
    };
    for row in [
        "forest", "mountain", "swamp", "fort", "trench_1", "trench_2",
    ] {
        assert_eq!(field(row, "no_retreat"), Some(Scalar::Bool(true)), "{row}");
    }
    for row in ["forest", "mountain", "swamp", "fort"] {
        assert_eq!(field(row, "mech_stop"), Some(Scalar::Bool(true)), "{row}");
    }
    assert_ne!(field("clear", "no_retreat"), Some(Scalar::Bool(true)));
}

#[test]
fn rule_2_2_units_with_movement_four_or_more_are_mechanized_types() {
    let mech_types = ["panzer", "ss_panzer", "mechanized", "tank"];
    for counter in &b2b().counters {
        let (ma, kind) = (counter.front[2], counter.unit_type.as_str());
        assert_eq!(
            ma >= 4,
            mech_types.contains(&kind),
            "{}: MA {ma}, type {kind}",
            counter.id
        );
        if let Some(back) = &counter.back {
            let back_kind = counter.back_type.as_deref().unwrap_or(kind);
            assert_eq!(
                back[2] >= 4,
                mech_types.contains(&back_kind),
                "{} reduced",
                counter.id
            );
        }
    }
}

#[test]
fn rule_14_51_southwest_front_is_5_3_4_replaced_by_a_3_3_3() {
    let c = b2b();
    let fronts: Vec<_> = c
        .counters
        .iter()
        .filter(|k| k.name.contains("Southwest Front"))
        .collect();
    assert!(fronts
        .iter()
        .any(|k| k.front == [5, 3, 4] && k.flags.contains(&"non_replaceable".to_string())));
    assert!(fronts.iter().any(|k| k.front == [3, 3, 3]));
}

#[test]
fn rule_20_2_campaign_sets_up_the_printed_forces() {
    let s = b2b().scenario("campaign").unwrap();
    let placed = |counter: &str, on_map: bool| -> u32 {
        s.setup
            .iter()
            .filter(|p| p.counter == counter && p.when.is_none())
            .filter(|p| matches!(p.at, Location::Space(_)) == on_map)
            .map(|p| p.count)
            .sum()
    };
    assert_eq!(placed("su_army", true), 13, "13 Soviet armies, one each");
    assert_eq!(placed("su_army", false), 5, "Reserve Box: 5 armies");
    assert_eq!(placed("it_corps", true), 10);
    assert_eq!(placed("bu_corps", true), 3);
    assert_eq!(
        placed("ge_corps", true),
        10 + 1,
        "10 corps one each, and one in Warsaw"
    );
    assert_eq!(placed("ge_corps", false), 4, "Reserve Box: 4 corps");
    assert_eq!(placed("ge_pz_corps", false), 4, "Reserve Box: 4 Pz corps");
    assert_eq!(s.first_turn, 1);
    assert_eq!(s.last_turn, 18);
    let lwow = s
        .markers
        .iter()
        .find(|m| m.at == Location::Space("lwow".into()))
        .unwrap();
    assert_eq!((lwow.marker.as_str(), lwow.level), ("trench", 2));
}

#[test]
fn rule_4_1_markers_start_at_seven_and_zero() {
    let s = b2b().scenario("campaign").unwrap();
    let value = |track: &str| s.tracks.iter().find(|t| t.track == track).map(|t| t.value);
    assert_eq!(
        [value("vp"), value("axis_hand"), value("allied_hand")],
        [Some(7); 3]
    );
    assert!(["rp_ge", "rp_axis", "rp_su", "rp_br", "rp_us"]
        .iter()
        .all(|t| value(t).unwrap_or(0) == 0));
}

#[test]
fn rule_2_3_each_deck_has_25_blitzkrieg_and_30_total_war_cards() {
    for deck in ["axis", "allied"] {
        let group = |g: &str| {
            b2b()
                .cards()
                .filter(|(d, c)| *d == deck && c.group.as_deref() == Some(g))
                .count()
        };
        assert_eq!(
            (group("blitzkrieg"), group("total_war")),
            (25, 30),
            "{deck}"
        );
    }
}

#[test]
fn rule_7_63_every_invasion_beach_a_to_u_lands_somewhere() {
    let g = &b2b().graph;
    for letter in 'a'..='u' {
        let id = format!("beach_{letter}");
        let space = g.index_of(&id).unwrap_or_else(|| panic!("no {id}"));
        let lands = g
            .neighbours(space)
            .iter()
            .any(|&(_, e)| g.edges[e].kinds.iter().any(|k| k == "beach"));
        assert!(lands, "{id} has no beach connection");
    }
}
