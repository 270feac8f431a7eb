//! Playing Berlin 1945 through the rules: the impulse system (the double pass, the
//! end-of-phase roll, the German movement test, the end-of-turn move), shared losses (8.2.2),
//! Hitler's orders, army cohesion, reserves following an advance, retreats into an American
//! zone, and many random games. The rulebook's worked examples are content
//! (`examples/*.ron`, run by `tests/it/examples.rs`).
//!
//! Each test prepares its position by hand at the start of an impulse (hands emptied so no
//! event chit interrupts, every unit in supply) and then plays it by the prompts' own texts.

use std::sync::OnceLock;

use sandtable_engine::agent::{Agent, RandomAgent};
use sandtable_engine::content::Content;
use sandtable_engine::load::load_dir;
use sandtable_engine::rules::{self, impulses, Rules};
use sandtable_engine::state::{set_marker_level, Loc, State};

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

fn unit(state: &State, name: &str) -> usize {
    state
        .units
        .iter()
        .position(|u| u.name(berlin()) == name)
        .unwrap_or_else(|| panic!("no unit {name}"))
}

fn at(state: &State, name: &str) -> Loc {
    state.units[unit(state, name)].at.clone()
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

/// A game on turn 1 at the start of impulse `k` (0: Soviet Zhukov, 1: Soviet Koniev, 2:
/// German Koniev camp, 3: German Zhukov camp), with units moved (`place`) or taken off the
/// map (`clear`), and no order of Hitler's in force.
fn position(k: usize, place: &[(&str, &str)], clear: &[&str]) -> (Rules<'static>, State) {
    let r = rules();
    let mut state = rules::start(&r, 7, &[], &[]).expect("the game starts");
    // The Logistics Phase's questions: no unit placed out of supply on purpose.
    while state
        .flow
        .prompt
        .as_ref()
        .is_some_and(|p| p.kind != "activate")
    {
        let p = state.flow.prompt.clone().unwrap();
        let answer = if p.kind == "decision" {
            "choose"
        } else {
            "no card"
        };
        act(&r, &mut state, answer);
    }
    state.hands.clear();
    state.flow.oos.clear();
    // No order of Hitler's binds the German impulses (the seed's turn-1 roll may give one).
    for order in ["hitler_counterattack_north", "hitler_counterattack_south"] {
        state.clear_flag(order);
    }
    for name in clear {
        let u = unit(&state, name);
        state.units[u].at = Loc::Removed;
    }
    for (name, space) in place {
        let u = unit(&state, name);
        state.units[u].at = Loc::Space((*space).into());
    }
    impulses::start_impulse(&r, &mut state, k);
    (r, state)
}

fn last_message(state: &State) -> String {
    state.flow.messages.last().cloned().unwrap_or_default()
}

/// The position of rule 8's example (the retreat of 2.2.7 starts from it): 1GTA and one counter of 8GA in the bridgehead, the
/// other in Göritz; 606 and 5 Jäger alone in Lebus.
fn lebus_position() -> (Rules<'static>, State) {
    position(
        0,
        &[
            ("su_1gta.1", "bridgehead"),
            ("su_1gta.2", "bridgehead"),
            ("su_8ga.1", "bridgehead"),
            ("su_8ga.2", "goeritz"),
            ("ge_606", "lebus"),
            ("ge_5jaeger", "lebus"),
        ],
        &["ge_712", "ge_169"],
    )
}

#[test]
fn rule_4_1_5_both_soviet_impulses_passed_end_the_operations_without_the_end_roll() {
    let (r, mut s) = position(0, &[], &[]);
    for _ in 0..4 {
        act(&r, &mut s, "pass");
    }
    assert_eq!(s.track("operations"), 1);
    assert!(
        !s.record
            .table_rolls
            .keys()
            .any(|(t, _)| t == "end_of_operations"),
        "no end-of-phase roll"
    );
    let p = s.flow.prompt.clone().unwrap();
    assert!(p.question.contains("End of turn"), "{}", p.question);
}

#[test]
fn rule_4_3_1_on_turn_1_the_end_roll_has_plus_2_a_1_goes_on_twice_then_ends_the_third_phase() {
    let (r, mut s) = position(0, &[], &[]);
    let phase = |r: &Rules, s: &mut State, die: &str| {
        // Zhukov activates a unit that does nothing; the others pass.
        let mover = options(s)
            .into_iter()
            .find(|o| o.ends_with(" reserve"))
            .expect("a unit to activate");
        act(r, s, &mover);
        act(r, s, "go");
        while options(s).iter().any(|o| o == "done") {
            act(r, s, "done");
        }
        act(r, s, "pass");
        act(r, s, "pass");
        act(r, s, die);
        act(r, s, "pass");
    };
    phase(&r, &mut s, "dice 1");
    assert_eq!(s.track("operations"), 2, "1 + 2 = 3 is more than 1");
    phase(&r, &mut s, "dice 1");
    assert_eq!(s.track("operations"), 3, "1 + 2 = 3 is more than 2");
    phase(&r, &mut s, "dice 1");
    assert_eq!(s.track("operations"), 3, "1 + 2 = 3 is not more than 3");
    assert!(s
        .flow
        .prompt
        .as_ref()
        .unwrap()
        .question
        .contains("End of turn"));
}

/// The move options of a unit, as zone ids.
fn moves_of(state: &State, name: &str) -> Vec<String> {
    let prefix = format!("move {name} ");
    options(state)
        .iter()
        .filter_map(|o| o.strip_prefix(&prefix).map(str::to_string))
        .collect()
}

fn index(zone: &str) -> i64 {
    match berlin().graph.space(zone).unwrap().props.get("index") {
        Some(sandtable_engine::model::PropertyValue::Int(n)) => *n,
        _ => 0,
    }
}

#[test]
fn rule_7_2_2_a_german_unit_failing_its_movement_test_on_turn_1_may_not_move_to_a_lower_index() {
    let free_or_not = |die: &str| {
        let (r, mut s) = position(2, &[], &[]);
        act(&r, &mut s, "activate ge_286 move");
        act(&r, &mut s, die);
        act(&r, &mut s, "go");
        moves_of(&s, "ge_286")
    };
    let here = index("frankfurt");
    let restricted = free_or_not("dice 3");
    assert!(!restricted.is_empty());
    assert!(
        restricted.iter().all(|z| index(z) >= here),
        "{restricted:?}"
    );
    let free = free_or_not("dice 4");
    assert!(free.iter().any(|z| index(z) < here), "{free:?}");
}

#[test]
fn rule_5_1_end_of_turn_units_not_activated_move_one_zone_never_into_berlin() {
    let (r, mut s) = position(0, &[("su_61.1", "zossen")], &[]);
    for _ in 0..4 {
        act(&r, &mut s, "pass");
    }
    let zones = moves_of(&s, "su_61.1");
    assert!(!zones.is_empty(), "Zossen's unit may move one zone");
    let berlin_zones: Vec<&str> = berlin()
        .graph
        .spaces
        .iter()
        .filter(|z| z.regions.iter().any(|x| x == "berlin"))
        .map(|z| z.id.as_str())
        .collect();
    assert!(zones.iter().all(|z| !berlin_zones.contains(&z.as_str())));
    act(&r, &mut s, &format!("move su_61.1 {}", zones[0]));
    assert!(moves_of(&s, "su_61.1").is_empty(), "one zone only");
}

#[test]
fn rule_8_2_2_german_defenders_of_both_camps_share_losses_the_camp_not_attacking_first() {
    // A clear zone outside Berlin, attacked from a neighbour across no river or defence line.
    let c = berlin();
    let g = &c.graph;
    let plain = |kinds: &[String]| {
        kinds.iter().all(|k| {
            ![
                "river",
                "defence_line",
                "oder_neisse",
                "front_boundary",
                "nexus",
            ]
            .contains(&k.as_str())
        })
    };
    let (from, target) = g
        .edges
        .iter()
        .find_map(|e| {
            let (a, b) = (&g.spaces[e.a], &g.spaces[e.b]);
            let ok = |x: &sandtable_engine::model::Space| {
                x.terrain.as_deref() == Some("clear")
                    && !x
                        .regions
                        .iter()
                        .any(|r| r == "berlin" || r == "oder_bridgehead")
            };
            (plain(&e.kinds) && ok(a) && ok(b)).then_some((a.id, b.id))
        })
        .expect("two clear zones");
    let (r, mut s) = position(
        0,
        &[
            ("su_61.1", &from),
            ("su_47.1", &from),
            ("ge_606", &target),
            ("ge_615", &target),
        ],
        // The armies' other pieces off the map, so that none is apart from its army.
        &["su_61.2", "su_47.2"],
    );
    // Clear both zones of anything else.
    for (i, u) in s.units.clone().iter().enumerate() {
        let name = u.name(c);
        if matches!(&u.at, Loc::Space(x) if *x == from || *x == target)
            && !["su_61.1", "su_47.1", "ge_606", "ge_615"].contains(&name.as_str())
        {
            s.units[i].at = Loc::Removed;
        }
    }
    rules::resume(&r, &mut s);
    act(&r, &mut s, "activate su_61.1 combat");
    act(&r, &mut s, "activate su_47.1 combat");
    act(&r, &mut s, "go");
    // 32 against 9 is 3:1; a 3 there is D1.
    act(&r, &mut s, "dice 3");
    act(&r, &mut s, &format!("attack {target}"));
    act(&r, &mut s, "choose su_47.1 su_61.1");
    assert!(
        last_message(&s).contains("32 against 9 (3:1), rolls 3 (drm +0): attacker 0, defender 1"),
        "{}",
        last_message(&s)
    );
    assert!(
        s.units[unit(&s, "ge_606")].reduced,
        "the Koniev camp's unit loses first"
    );
    assert!(!s.units[unit(&s, "ge_615")].reduced);
}

#[test]
/// Random games in the test build (CI plays 1,000 of each game in a release build with
/// `examples/random_game.rs`; `BERLIN_GAMES=1000` plays them here).
fn random_games_of_berlin_1945_finish_without_error() {
    let r = rules();
    let games = std::env::var("BERLIN_GAMES")
        .ok()
        .and_then(|x| x.parse().ok())
        .unwrap_or(200u64);
    std::thread::scope(|scope| {
        let workers = 4u64;
        for w in 0..workers {
            let r = &r;
            scope.spawn(move || {
                for seed in (w..games).step_by(workers as usize) {
                    let mut s = rules::start(r, seed, &[], &[]).expect("starts");
                    let mut agent = RandomAgent::new(seed);
                    let mut actions = 0;
                    while s.flow.prompt.is_some() {
                        let a = agent.choose(r, &s).expect("a prompt");
                        rules::act_unguarded(r, &mut s, &a).unwrap_or_else(|e| {
                            panic!("seed {seed}: `{a}` was offered but refused: {}", e.message)
                        });
                        actions += 1;
                        assert!(actions < 20_000, "seed {seed}: the game does not end");
                    }
                    let result = s.flow.result.clone().expect("the game has a result");
                    assert_ne!(result.how, "stalled", "seed {seed}: {:?}", s.flow.messages);
                    let failures: Vec<&String> = s
                        .flow
                        .messages
                        .iter()
                        .filter(|m| m.contains("failed") || m.contains("could not"))
                        .collect();
                    assert!(failures.is_empty(), "seed {seed}: {failures:?}");
                }
            });
        }
    });
}

#[test]
fn rule_2_3_2_hitlers_order_binds_the_next_german_impulse_to_attack_with_two_units_one_armoured() {
    let (r, mut s) = position(2, &[], &[]);
    let c = berlin();
    let fortified = |z: &str| {
        matches!(
            c.graph.space(z).unwrap().props.get("fortified"),
            Some(sandtable_engine::model::PropertyValue::Bool(true))
        )
    };
    // Two German divisions of the north (one armoured) in a zone that is not fortified, and a
    // Soviet army next to them (the front's zones all hold defence lines at the start).
    let open = |z: &sandtable_engine::model::Space| {
        !fortified(&z.id)
            && !z
                .regions
                .iter()
                .any(|x| x == "berlin" || x.starts_with("oder"))
    };
    let (zone, next) = c
        .graph
        .spaces
        .iter()
        .filter(|z| open(z))
        .find_map(|z| {
            let n = c
                .graph
                .neighbour_ids(&z.id)
                .into_iter()
                .find(|n| open(c.graph.space(n).unwrap()))?;
            Some((z.id.to_string(), n.to_string()))
        })
        .expect("two open zones side by side");
    let there: Vec<usize> = s
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| matches!(&u.at, Loc::Space(x) if *x == zone || *x == next))
        .map(|(i, _)| i)
        .collect();
    for i in there {
        s.units[i].at = Loc::Removed;
    }
    for (g, z) in [("ge_kurmark", &zone), ("ge_156", &zone), ("su_61.1", &next)] {
        let u = unit(&s, g);
        s.units[u].at = Loc::Space(z.into());
    }
    s.flags.insert("hitler_counterattack_north".into());
    impulses::start_impulse(&r, &mut s, 2);
    // The units the order binds: the Koniev camp's Germans next to Soviet units, outside
    // fortified zones and Berlin.
    let soviet_at = |zone: &str| {
        s.units_at(zone).any(|(_, u)| {
            let n = &c.counter(&u.counter).unwrap().nation;
            n == "su_zhukov" || n == "su_koniev"
        })
    };
    let able: Vec<String> = s
        .units
        .iter()
        .filter(|u| c.counter(&u.counter).unwrap().nation == "ge_koniev")
        .filter_map(|u| match &u.at {
            Loc::Space(z) => Some((u.name(c), *z)),
            _ => None,
        })
        .filter(|(_, z)| !fortified(z) && c.graph.neighbour_ids(z).iter().any(|n| soviet_at(n)))
        .map(|(name, _)| name)
        .collect();
    assert!(able.len() >= 2, "{able:?}");
    assert!(
        !options(&s).contains(&"pass".to_string()),
        "no pass under the order"
    );
    let armoured = |name: &str| {
        let t = &c
            .counter(name.split('.').next().unwrap())
            .unwrap()
            .unit_type;
        t == "armour" || t == "mechanised"
    };
    let first = able.iter().find(|n| armoured(n)).unwrap_or(&able[0]);
    let second = able.iter().find(|n| *n != first).unwrap();
    let picks = [first, second];
    act(&r, &mut s, &format!("activate {} combat", picks[0]));
    assert!(
        !options(&s).contains(&"go".to_string()),
        "one unit is not enough"
    );
    act(&r, &mut s, &format!("activate {} combat", picks[1]));
    act(&r, &mut s, "go");
    let p = s.flow.prompt.clone().unwrap();
    assert_eq!(p.kind, "attack");
    assert!(
        !p.options().contains(&"done".to_string()),
        "the order must be carried out"
    );
}

#[test]
fn rule_7_3_1_a_piece_apart_from_its_army_may_only_move_back_towards_it() {
    // 61st Army: one piece in Bärwalde, the other two zones away in Reppen.
    let (r, mut s) = position(0, &[("su_61.2", "reppen")], &[]);
    assert_eq!(at(&s, "su_61.1"), Loc::Space("baerwalde".into()));
    let o = options(&s);
    assert!(o.contains(&"activate su_61.2 move".to_string()));
    assert!(!o.contains(&"activate su_61.2 combat".to_string()), "{o:?}");
    assert!(!o.contains(&"activate su_61.2 reserve".to_string()));
    assert!(
        !o.contains(&"activate su_61.1 combat".to_string()),
        "both pieces are apart from each other"
    );
    assert!(
        o.contains(&"activate su_47.1 combat".to_string()),
        "an army together is free"
    );
    act(&r, &mut s, "activate su_61.2 move");
    act(&r, &mut s, "go");
    let zones = moves_of(&s, "su_61.2");
    assert!(zones.contains(&"kuestrin".to_string()), "{zones:?}");
    assert!(
        !zones.contains(&"ziebingen".to_string()),
        "not away from its army: {zones:?}"
    );
    act(&r, &mut s, "move su_61.2 kuestrin");
    assert!(moves_of(&s, "su_61.2").is_empty(), "rejoined: it stops");
}

#[test]
fn rule_8_4_2_a_reserve_unit_in_an_attackers_zone_may_follow_the_advance() {
    let (r, mut s) = position(
        0,
        &[
            ("su_1gta.1", "bridgehead"),
            ("su_1gta.2", "bridgehead"),
            ("su_8ga.1", "bridgehead"),
            ("ge_606", "lebus"),
        ],
        &["ge_712", "ge_169", "ge_5jaeger", "su_8ga.2"],
    );
    for u in ["su_1gta.1", "su_1gta.2", "su_8ga.1"] {
        act(&r, &mut s, &format!("activate {u} combat"));
    }
    act(&r, &mut s, "activate su_5sha.1 reserve");
    act(&r, &mut s, "go");
    // 64 against 10 is 6:1: a 6 (drm -1) takes Lebus.
    act(&r, &mut s, "dice 6");
    act(&r, &mut s, "attack lebus");
    act(&r, &mut s, "choose su_1gta.1 su_1gta.2 su_8ga.1");
    while !options(&s).iter().any(|o| o.starts_with("advance")) {
        let first = options(&s)[0].clone();
        assert!(
            first.starts_with("lose") || first.starts_with("retreat"),
            "{first}"
        );
        act(&r, &mut s, &first);
    }
    assert!(
        !options(&s).iter().any(|o| o.starts_with("follow")),
        "only once one advanced"
    );
    act(&r, &mut s, "advance su_8ga.1");
    assert!(
        options(&s).contains(&"follow su_5sha.1".to_string()),
        "{:?}",
        options(&s)
    );
    act(&r, &mut s, "follow su_5sha.1");
    assert_eq!(at(&s, "su_5sha.1"), Loc::Space("lebus".into()));
}

#[test]
fn a_full_game_of_berlin_1945_plays_through_sandtable_play_to_its_end() {
    // A whole game's actions, chosen at random, replayed by the command line.
    let r = rules();
    let mut s = rules::start(&r, 11, &[], &[]).expect("starts");
    let mut agent = RandomAgent::new(11);
    let mut log = Vec::new();
    while s.flow.prompt.is_some() {
        let a = agent.choose(&r, &s).expect("a prompt").to_string();
        rules::apply(&r, &mut s, &a).unwrap();
        log.push(a);
    }
    let result = s.flow.result.clone().expect("the game ended");
    let dir = tempfile::tempdir().unwrap();
    let actions = dir.path().join("game.log");
    std::fs::write(&actions, log.join("\n")).unwrap();
    let out = crate::cli::sandtable(&[
        "play",
        "content/berlin-1945",
        "--scenario",
        "standard",
        "--seed",
        "11",
        "--actions",
        actions.to_str().unwrap(),
    ]);
    let said = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.contains("game over"), "{said}");
    assert!(said.contains(&format!("turn {}", result.turn)), "{said}");
}

#[test]
fn event_2_rybalko_frees_the_chosen_army_both_counters_from_river_penalties_for_the_impulse() {
    let (r, mut s) = position(0, &[], &[]);
    s.hands
        .insert("zhukov".into(), vec!["rybalko_crosses_the_spree".into()]);
    rules::resume(&r, &mut s);
    act(&r, &mut s, "event rybalko_crosses_the_spree");
    let p = s.flow.prompt.clone().unwrap();
    assert!(p.question.contains("Which army"), "{}", p.question);
    act(&r, &mut s, "choose su_8ga.1");
    for u in ["su_8ga.1", "su_8ga.2"] {
        assert!(s.unit_flag(unit(&s, u), "rybalko_crossing"), "{u}");
    }
    assert!(!s.unit_flag(unit(&s, "su_1gta.1"), "rybalko_crossing"));
    // Back to the activation; when the impulse ends, so does the event.
    assert_eq!(s.flow.prompt.as_ref().unwrap().kind, "activate");
    act(&r, &mut s, "pass");
    assert!(!s.unit_flag(unit(&s, "su_8ga.1"), "rybalko_crossing"));
}

#[test]
fn rule_2_2_7_a_german_unit_that_can_only_retreat_into_an_american_zone_is_withdrawn() {
    let (r, mut s) = lebus_position();
    // Every other way out of Lebus is American.
    for z in berlin().graph.neighbour_ids("lebus") {
        if z != "bridgehead" && z != "goeritz" {
            set_marker_level(&mut s, "us_control", z, 1);
        }
    }
    rules::resume(&r, &mut s);
    for u in ["su_1gta.1", "su_1gta.2", "su_8ga.1", "su_8ga.2"] {
        act(&r, &mut s, &format!("activate {u} combat"));
    }
    act(&r, &mut s, "go");
    act(&r, &mut s, "dice 5");
    act(&r, &mut s, "attack lebus");
    act(&r, &mut s, "choose su_1gta.1 su_1gta.2 su_8ga.1 su_8ga.2");
    act(&r, &mut s, "lose ge_606");
    for g in ["ge_606", "ge_5jaeger"] {
        let o = options(&s);
        assert!(
            !o.is_empty() && o.iter().all(|x| x.starts_with(&format!("retreat {g} "))),
            "{o:?}"
        );
        act(&r, &mut s, &o[0]);
        assert!(
            !matches!(at(&s, g), Loc::Space(_)),
            "{g} is withdrawn, not on the map"
        );
    }
}
