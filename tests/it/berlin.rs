//! The Berlin 1945 zone game's content (`content/berlin-1945`): it checks, it is canonical, its
//! setup and stacking follow rules 11 and 6.1.2, its movement costs rule 7.1.2, and mistakes in
//! its impulse rules are reported where they are written. The rulebook's worked examples are
//! content (`examples/*.ron`), run by `tests/it/examples.rs`.

use sandtable_engine::content::Content;
use sandtable_engine::load::load_dir;

use crate::cli::sandtable;
use crate::root;

fn berlin() -> Content {
    let loaded = load_dir(root().join("content/berlin-1945"));
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    loaded.content
}

#[test]
fn berlin_1945_validates_and_is_in_canonical_layout() {
    let out = sandtable(&["validate", "content/berlin-1945"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = sandtable(&["fmt", "--check", "content/berlin-1945"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn rule_11_setup_puts_every_named_unit_in_its_zone() {
    let c = berlin();
    let s = c.scenario("standard").expect("the standard scenario");
    let at = |counter: &str| -> Vec<String> {
        s.setup
            .iter()
            .filter(|p| p.counter == counter)
            .map(|p| format!("{:?}", p.at))
            .collect()
    };
    // A sample of 11.1 to 11.4, each of the four lists.
    assert!(
        at("su_1gta").iter().all(|a| a.contains("goeritz")),
        "{:?}",
        at("su_1gta")
    );
    assert!(
        at("ge_21pz").iter().any(|a| a.contains("cottbus")),
        "{:?}",
        at("ge_21pz")
    );
    assert!(
        at("su_52").iter().any(|a| a.contains("penzig")),
        "{:?}",
        at("su_52")
    );
    assert!(
        at("ge_25pzgr").iter().any(|a| a.contains("proetzel")),
        "{:?}",
        at("ge_25pzgr")
    );
}

/// The standard scenario with these placements added, checked; the stacking errors found.
fn stacking_errors(extra: &[(&str, &str)]) -> Vec<String> {
    use sandtable_engine::model::{Location, Placement};
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&root().join("content/berlin-1945"), dir.path());
    let path = dir.path().join("scenarios/standard.ron");
    let mut s = berlin().scenario("standard").unwrap().clone();
    for (counter, zone) in extra {
        s.setup.push(Placement {
            counter: counter.to_string(),
            at: Location::Space(zone.to_string()),
            count: 1,
            reduced: false,
            when: None,
            notes: String::new(),
        });
    }
    std::fs::write(&path, sandtable_engine::format::canonical(&s).unwrap()).unwrap();
    let loaded = load_dir(dir.path());
    loaded
        .errors()
        .filter(|d| d.code == "E0205")
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn rule_6_1_2_stacking_by_nationality_and_zone_is_checked_in_the_setup() {
    // The setup itself keeps the limits: six Soviet units in Küstrin, east of the Oder.
    assert!(stacking_errors(&[]).is_empty());
    // A fourth German unit in Görlitz.
    let e = stacking_errors(&[("ge_404", "goerlitz")]);
    assert!(
        e.iter()
            .any(|m| m.contains("4 units") && m.contains("limit of 3")),
        "{e:?}"
    );
    // Three Soviet units west of the Oder.
    let e = stacking_errors(&[("su_3", "seelow"), ("su_3", "seelow"), ("su_28", "seelow")]);
    assert!(e.iter().any(|m| m.contains("limit of 2")), "{e:?}");
    // Soviet and German units together outside Berlin.
    let e = stacking_errors(&[("su_3", "trebbin"), ("ge_404", "trebbin")]);
    assert!(e.iter().any(|m| m.contains("may not stack with")), "{e:?}");
    // In a Berlin zone: 2 Soviet AND 1 German, but not 2 German.
    assert!(stacking_errors(&[("su_3", "tempelhof"), ("ge_404", "tempelhof")]).is_empty());
    let e = stacking_errors(&[("ge_404", "tempelhof"), ("ge_342", "tempelhof")]);
    assert!(e.iter().any(|m| m.contains("limit of 1")), "{e:?}");
}

#[test]
fn rule_7_1_2_a_river_costs_one_more_point_and_a_main_road_half_a_point_cancelling_the_river() {
    use sandtable_engine::model::move_cost_halves;
    let c = berlin();
    let game = c.game.as_ref().unwrap();
    let edge_with = |want: &[&str], without: &[&str]| {
        c.graph
            .edges
            .iter()
            .find(|e| {
                want.iter().all(|k| e.kinds.iter().any(|x| x == k))
                    && !without.iter().any(|k| e.kinds.iter().any(|x| x == k))
            })
            .map(|e| e.kinds.clone())
            .unwrap_or_else(|| panic!("an edge with {want:?} and none of {without:?}"))
    };
    // In halves of a movement point.
    let plain = edge_with(&[], &["river", "road"]);
    assert_eq!(move_cost_halves(game, &plain), 2, "{plain:?}: 1 MP");
    let river = edge_with(&["river"], &["road"]);
    assert_eq!(move_cost_halves(game, &river), 4, "{river:?}: 1 + 1 MP");
    let road = edge_with(&["road"], &["river"]);
    assert_eq!(move_cost_halves(game, &road), 1, "{road:?}: 1/2 MP");
    let both = edge_with(&["road", "river"], &[]);
    assert_eq!(
        move_cost_halves(game, &both),
        1,
        "{both:?}: the road cancels the river"
    );
}

/// `sandtable validate` on a copy of Berlin 1945 with one replacement made in game.ron: its
/// exit status and what it printed.
fn validate_edited(from: &str, to: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&root().join("content/berlin-1945"), dir.path());
    let game = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&game).unwrap();
    assert!(text.contains(from), "game.ron holds {from}");
    std::fs::write(&game, text.replacen(from, to, 1)).unwrap();
    let out = sandtable(&["validate", dir.path().to_str().unwrap()]);
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), said)
}

#[test]
fn a_wrong_id_in_the_impulse_rules_is_reported_at_its_place_with_a_suggestion() {
    let (ok, said) = validate_edited(
        "end_flag: \"operations_over\"",
        "end_flag: \"operations_overr\"",
    );
    assert!(!ok);
    assert!(said.contains("unknown flag `operations_overr`"), "{said}");
    assert!(said.contains("did you mean `operations_over`?"), "{said}");
    assert!(said.contains("game.ron:"), "{said}");
}

#[test]
fn a_combat_modifier_hook_that_does_not_type_check_is_reported_in_game_ron() {
    // A space where the condition wants a unit.
    let (ok, said) = validate_edited(
        "when: \"attacking and out_of_supply(u)\"",
        "when: \"attacking and out_of_supply(defending_space)\"",
    );
    assert!(!ok);
    assert!(said.contains("game.ron:"), "{said}");
    assert!(said.contains("E0304"), "{said}");
}
