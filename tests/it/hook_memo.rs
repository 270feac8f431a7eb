//! Hooks' results remembered by what they read (`rules::hook_memo`): which scripts are
//! remembered, and that play is the same with the table as without it.

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::content::Content;
use sandtable_engine::rules::hook_memo::{analyse, without_table, Read};
use sandtable_engine::script::syntax::parse_expr;
use sandtable_engine::session::{state_json, Session, Setup};

fn remembered(text: &str) -> bool {
    let (expr, errors) = parse_expr(text);
    assert!(errors.is_empty(), "{text}: {errors:?}");
    analyse(&expr.unwrap()).is_some()
}

#[test]
fn a_hook_is_remembered_only_when_it_reads_the_units_counter_the_spaces_flags_and_the_turn() {
    for pure in [
        "u.type == armor and (to.terrain == rough or connected_by(from, to, river))",
        "not flag(frozen) and season() == winter and in_region(to, finnish_reach)",
        "has_feature(defending_space, city) and u.attack >= 3 and min(value, 2) == 2",
        // The map's spaces by region, country, terrain, feature or neighbour are the content's.
        "contains(spaces(region: wehrkreis), space) and not has_feature(space, urban)",
        "count(union(spaces(country: turkey), spaces(adjacent_to: to))) > 2",
    ] {
        assert!(remembered(pure), "{pure}");
    }
    for dynamic in [
        "count(units(in: to)) > 1",
        "any(attackers, |a| a.nation == ge)",
        "track(axis_vp) > 3",
        "out_of_supply(u)",
        "controls(me, to)",
        "exists(spaces(controlled_by: me, region: wehrkreis))",
    ] {
        assert!(!remembered(dynamic), "{dynamic}");
    }
}

#[test]
fn a_chain_of_ands_is_remembered_by_its_longest_first_part_that_can_be() {
    use sandtable_engine::script::reads::{memo, Memo};
    let (expr, _) =
        parse_expr("u.nation == su and u.size == lcu and controls(axis, moscow) and turn() > 2");
    match memo(&expr.unwrap()) {
        // `(u.nation == su and u.size == lcu)`, two steps down the left side.
        Some(Memo::Guard { depth: 2, reads }) => assert!(
            matches!(&reads[0], Read::Name { name, fields } if name == "u" && fields == &["nation", "size"]),
            "{reads:?}"
        ),
        other => panic!("{other:?}"),
    }
    let (expr, _) = parse_expr("controls(axis, moscow) and u.nation == su");
    assert_eq!(memo(&expr.unwrap()), None);
}

/// The first `actions` of a seeded random game: each prompt's options and the state after
/// each action.
fn trace(content: &Content, scenario: &str, seed: u64, actions: usize) -> Vec<String> {
    let setup = Setup {
        scenario: scenario.into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
        position: None,
    };
    let mut s = Session::new(content, setup).unwrap();
    let mut agent = RandomAgent::new(seed);
    let mut out = Vec::new();
    while let Some(p) = s.prompt().cloned() {
        if out.len() >= actions {
            break;
        }
        let a = agent.act(&p);
        s.apply(content, &a.to_string()).unwrap();
        out.push(format!(
            "{:?} {a} {}",
            p.options(),
            state_json(content, s.state())
        ));
    }
    out
}

#[test]
fn remembered_hook_results_change_nothing_in_play() {
    let spi = sandtable_engine::load::load_dir(crate::root().join("content/spi-barbarossa"));
    assert!(!spi.has_errors());
    let berlin = sandtable_engine::load::load_dir(crate::root().join("content/berlin-1945"));
    assert!(!berlin.has_errors());
    for (content, scenario) in [
        (&spi.content, "barbarossa"),
        (&berlin.content, "standard"),
        (crate::cards::b2b(), "campaign"),
    ] {
        let with = trace(content, scenario, 5, 150);
        let without = without_table(|| trace(content, scenario, 5, 150));
        assert_eq!(with.len(), without.len(), "{scenario}");
        for (i, (a, b)) in with.iter().zip(&without).enumerate() {
            assert!(a == b, "{scenario}: action {i} differs");
        }
    }
}
