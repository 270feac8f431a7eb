//! Scenarios own their start: a scenario of Barbarossa to Berlin that begins on the Summer 42
//! turn (`tests/fixtures/b2b-scenarios/summer_42.ron`, data only, added to a copy of the game)
//! with cards already played, removed and in hand, and a rule of `game.ron` switched; and the
//! checks of what a scenario places at its start and the rules it sets.

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::content::Content;
use sandtable_engine::load::{load_dir, Loaded};
use sandtable_engine::rules::{self, Rules};
use sandtable_engine::script::check::{check_condition, Names};
use sandtable_engine::script::eval;
use sandtable_engine::script::syntax::parse_expr;
use sandtable_engine::state::State;

use crate::script_builtins::axis;

/// The summer 1942 scenario, as written.
fn summer_42() -> String {
    std::fs::read_to_string(crate::root().join("tests/fixtures/b2b-scenarios/summer_42.ron"))
        .unwrap()
}

/// A copy of the game with a scenario file `summer_42.ron` of this text, loaded.
fn load_with(scenario: &str) -> Loaded {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    std::fs::write(dir.path().join("scenarios/summer_42.ron"), scenario).unwrap();
    load_dir(dir.path())
}

/// The copy with the summer 1942 scenario, checked without error.
fn content() -> &'static Content {
    static CONTENT: std::sync::OnceLock<Content> = std::sync::OnceLock::new();
    CONTENT.get_or_init(|| {
        let loaded = load_with(&summer_42());
        let errors: Vec<String> = loaded
            .errors()
            .map(|d| loaded.sources.render_line(d))
            .collect();
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        loaded.content
    })
}

fn holds(content: &Content, state: &State, condition: &str) -> bool {
    let (expr, mut errors) = parse_expr(condition);
    let expr = expr.expect("an expression");
    errors.extend(check_condition(&expr, &Names::from_content(content)));
    assert!(errors.is_empty(), "{condition}: {errors:?}");
    eval::condition(&expr, content, state, &axis()).unwrap()
}

/// Plays with the random agent until `stop` holds or the game ends.
fn play_until(
    rules: &Rules,
    state: &mut State,
    agent: &mut RandomAgent,
    mut stop: impl FnMut(&State) -> bool,
) {
    for _ in 0..200_000 {
        if stop(state) {
            return;
        }
        let Some(p) = state.flow.prompt.clone() else {
            return;
        };
        let a = agent.act(&p);
        rules::act(rules, state, &a)
            .unwrap_or_else(|e| panic!("`{a}` was offered but refused: {}", e.message));
    }
    panic!("play did not get there");
}

#[test]
fn scenario_may_start_in_1942_with_cards_played_and_in_hand() {
    let content = content();
    let rules = Rules::new(content, "summer_42").unwrap();
    let mut state = rules::start(&rules, 7, &[], &[]).unwrap();
    assert_eq!(state.turn, 6, "the first turn is Summer 42");

    // The hands hold the given cards (and what was drawn, to the hand size).
    let hand = |state: &State, side: &str| state.hands.get(side).cloned().unwrap_or_default();
    let axis_hand = hand(&state, "axis");
    assert!(
        axis_hand.contains(&"fall_blau".to_string()),
        "{axis_hand:?}"
    );
    assert!(axis_hand.contains(&"krim".to_string()), "{axis_hand:?}");
    assert_eq!(axis_hand.len(), 7, "{axis_hand:?}");
    let allied_hand = hand(&state, "allied");
    assert!(allied_hand.contains(&"lend_lease".to_string()));
    assert_eq!(allied_hand.len(), 7, "{allied_hand:?}");

    // Barbarossa, Taifun (removed on play) and Von Paulus Pause (removed) are in no pile;
    // Guderian is on the Axis discard pile; none is drawn again.
    let everywhere: Vec<&String> = state
        .hands
        .values()
        .chain(state.draw_piles.values())
        .chain(state.set_aside.values())
        .chain(state.discards.values())
        .flatten()
        .collect();
    for gone in ["barbarossa", "taifun", "von_paulus_pause"] {
        assert!(
            !everywhere.iter().any(|c| *c == gone),
            "{gone} is still in play"
        );
    }
    let discards = state.discards.get("axis").cloned().unwrap_or_default();
    assert_eq!(discards, ["panzergruppe_guderian"]);
    assert_eq!(
        everywhere
            .iter()
            .filter(|c| **c == "panzergruppe_guderian")
            .count(),
        1
    );

    // Scripts read the cards played before the start.
    assert!(holds(
        content,
        &state,
        "played(barbarossa) and turn_played(barbarossa) == 1 and played(taifun) and turn_played(taifun) == 3"
    ));
    assert!(holds(
        content,
        &state,
        "not played(von_paulus_pause) and not played(panzergruppe_guderian) and not played(fall_blau)"
    ));

    // The switched rule is in force in this scenario, and only there.
    assert_eq!(rules.play.max_retreat, 1);
    let campaign = Rules::new(content, "campaign").unwrap();
    assert_eq!(campaign.play.max_retreat, 2);

    // Turn 1's restrictions (4.4) do not hold: the Axis may play for OPS in its first round,
    // and six rounds are played.
    let mut agent = RandomAgent::new(7);
    play_until(&rules, &mut state, &mut agent, |s| {
        s.flow
            .prompt
            .as_ref()
            .is_some_and(|p| p.side == "axis" && p.kind == "action")
    });
    let p = state.flow.prompt.clone().unwrap();
    assert_eq!((state.turn, state.round), (6, 1));
    assert!(
        p.options().iter().any(|o| o.starts_with("ops ")),
        "{:?}",
        p.options()
    );
    assert!(
        p.options().iter().any(|o| o == "ops fall_blau"),
        "{:?}",
        p.options()
    );
    assert!(
        p.options().iter().any(|o| o.starts_with("sr ")),
        "{:?}",
        p.options()
    );
    let mut last_round = 0;
    play_until(&rules, &mut state, &mut agent, |s| {
        if s.turn == 6 && s.flow.prompt.as_ref().is_some_and(|p| p.kind == "action") {
            last_round = last_round.max(s.round);
        }
        s.turn > 6
    });
    assert_eq!(last_round, 6, "the Summer 42 turn has six action rounds");
}

#[test]
fn the_campaign_keeps_its_turn_1_opening_while_a_later_scenario_has_none() {
    let content = content();
    let rules = Rules::new(content, "campaign").unwrap();
    let state = rules::start(&rules, 3, &[], &[]).unwrap();
    let mut state = state;
    let mut agent = RandomAgent::new(3);
    play_until(&rules, &mut state, &mut agent, |s| {
        s.flow.prompt.as_ref().is_some_and(|p| p.kind == "action")
    });
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options()
            .iter()
            .all(|o| o == "event barbarossa" || o == "event von_paulus_pause"),
        "{:?}",
        p.options()
    );
}

#[test]
fn random_games_of_a_scenario_starting_in_1942_finish() {
    let content = content();
    let rules = Rules::new(content, "summer_42").unwrap();
    for seed in 1..=3 {
        let mut state = rules::start(&rules, seed, &[], &[]).unwrap();
        let mut agent = RandomAgent::new(seed);
        play_until(&rules, &mut state, &mut agent, |_| false);
        let r = state.flow.result.clone().expect("the game ended");
        assert!(["axis", "allied"].contains(&r.winner.as_str()), "{r:?}");
        assert!((6..=18).contains(&r.turn), "{r:?}");
    }
}

/// The rendered errors of the summer 1942 scenario with `from` replaced by `to`.
fn errors_with(from: &str, to: &str) -> Vec<String> {
    let text = summer_42();
    assert!(text.contains(from), "{from}");
    let loaded = load_with(&text.replacen(from, to, 1));
    loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect()
}

/// The line of the scenario file on which a text first stands, once `from` is replaced.
fn line_of(from: &str, to: &str, needle: &str) -> usize {
    let text = summer_42().replacen(from, to, 1);
    text[..text.find(needle).unwrap()].matches('\n').count() + 1
}

fn assert_one_error_at(errors: &[String], code: &str, line: usize) {
    assert_eq!(errors.len(), 1, "{errors:?}");
    let at = format!("scenarios/summer_42.ron:{line}:");
    assert!(
        errors[0].contains(&at) && errors[0].contains(code),
        "expected {code} at {at}: {errors:?}"
    );
}

#[test]
fn a_card_placed_twice_at_the_start_is_an_error_at_its_second_place() {
    let (from, to) = (r#"removed: ["von_paulus_pause"]"#, r#"removed: ["krim"]"#);
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0209", line_of(from, to, r#"removed: ["krim"]"#));
    assert!(errors[0].contains("in a hand and removed"), "{errors:?}");
}

#[test]
fn an_unknown_card_at_the_start_is_an_error_at_its_place() {
    let (from, to) = (
        r#"discarded: ["panzergruppe_guderian"]"#,
        r#"discarded: ["guderian"]"#,
    );
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0201", line_of(from, to, "discarded"));
}

#[test]
fn a_rule_setting_that_names_no_place_or_does_not_fit_is_an_error_at_the_setting() {
    let from = r#"(pointer: "/play/max_retreat", value: 1)"#;
    let to = r#"(pointer: "/play/max_retreats", value: 1)"#;
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0210", line_of(from, to, "max_retreats"));
    assert!(errors[0].contains("max_retreats"), "{errors:?}");

    let to = r#"(pointer: "/play/nothing/max_retreat", value: 1)"#;
    assert_one_error_at(
        &errors_with(from, to),
        "E0210",
        line_of(from, to, "/nothing"),
    );

    let to = r#"(pointer: "/play/max_retreat", value: "far")"#;
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0210", line_of(from, to, "\"far\""));
    assert!(errors[0].contains("does not fit"), "{errors:?}");

    // A value of the right type with which the game no longer checks: a script of the play
    // rules naming a flag the game does not have.
    let to = r#"(pointer: "/play/entrench/playable", value: "flag(no_such_flag)")"#;
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0210", line_of(from, to, "rules:"));
    assert!(errors[0].contains("no_such_flag"), "{errors:?}");
}

/// The copy's content with the summer 1942 scenario given an `opening`, or the campaign's
/// (when `campaign` is set) given one.
fn with_opening(opening: &str, campaign: bool) -> Content {
    let add = |text: &str| {
        text.replacen(
            "    last_turn: 18,\n",
            &format!("    last_turn: 18,\n    opening: {opening},\n"),
            1,
        )
    };
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    let scenarios = dir.path().join("scenarios");
    std::fs::write(scenarios.join("summer_42.ron"), add(&summer_42())).unwrap();
    if campaign {
        let path = scenarios.join("campaign.ron");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, add(&text)).unwrap();
    }
    let loaded = load_dir(dir.path());
    let errors: Vec<String> = loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    loaded.content
}

/// The first action prompt of a scenario, and the most rounds its first turn reaches.
fn first_turn(content: &Content, scenario: &str) -> (Vec<String>, u32) {
    let rules = Rules::new(content, scenario).unwrap();
    let mut state = rules::start(&rules, 5, &[], &[]).unwrap();
    let first = state.turn;
    let mut agent = RandomAgent::new(5);
    play_until(&rules, &mut state, &mut agent, |s| {
        s.flow.prompt.as_ref().is_some_and(|p| p.kind == "action")
    });
    let options = state.flow.prompt.clone().unwrap().options();
    let mut last_round = 0;
    play_until(&rules, &mut state, &mut agent, |s| {
        if s.turn == first && s.flow.prompt.as_ref().is_some_and(|p| p.kind == "action") {
            last_round = last_round.max(s.round);
        }
        s.turn > first
    });
    (options, last_round)
}

#[test]
fn a_scenario_opening_of_its_own_restricts_its_first_turn_whatever_turn_it_is() {
    let content = with_opening(
        "Restricted((rounds: Some(2), actions: [(side: \"axis\", actions: [Event])]))",
        false,
    );
    let (options, rounds) = first_turn(&content, "summer_42");
    assert!(
        options.iter().all(|o| o.starts_with("event ")),
        "{options:?}"
    );
    assert_eq!(rounds, 2);
}

#[test]
fn an_unrestricted_opening_lifts_the_games_turn_1_restrictions() {
    let content = with_opening("Unrestricted", true);
    let (options, rounds) = first_turn(&content, "campaign");
    assert!(options.iter().any(|o| o.starts_with("ops ")), "{options:?}");
    assert_eq!(rounds, 6);
}

#[test]
fn a_hand_card_of_another_deck_or_a_card_played_after_the_start_is_an_error_at_its_place() {
    let from = r#"cards: ["fall_blau", "krim"]"#;
    let to = r#"cards: ["fall_blau", "stavka"]"#;
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0209", line_of(from, to, "stavka"));
    assert!(errors[0].contains("of deck `allied`"), "{errors:?}");

    let (from, to) = (r#"turn: Some(3)"#, r#"turn: Some(6)"#);
    let errors = errors_with(from, to);
    assert_one_error_at(&errors, "E0207", line_of(from, to, "turn: Some(6)"));
}

#[test]
fn a_rule_setting_is_checked_even_when_the_content_has_other_errors() {
    let text = summer_42()
        .replacen(
            r#"discarded: ["panzergruppe_guderian"]"#,
            r#"discarded: ["guderian"]"#,
            1,
        )
        .replacen("/play/max_retreat", "/play/max_retreats", 1);
    let loaded = load_with(&text);
    let codes: Vec<&str> = loaded.errors().map(|d| d.code).collect();
    assert_eq!(codes, ["E0201", "E0210"]);
}

/// One `Rules` lays a scenario's start out once and deals every game of a batch from it: each
/// game starts as it would alone, its decks shuffled and hands dealt by its own seed, and the
/// layout kept is not changed by a game dealt from it.
#[test]
fn every_game_of_a_batch_starts_as_it_would_alone() {
    let content = content();
    let shared = Rules::new(content, "summer_42").unwrap();
    let mut starts = Vec::new();
    for seed in [7, 8, 7] {
        let alone = Rules::new(content, "summer_42").unwrap();
        let own = rules::start(&alone, seed, &[], &[]).unwrap();
        let from_batch = rules::start(&shared, seed, &[], &[]).unwrap();
        assert_eq!(from_batch, own, "seed {seed}");
        starts.push(from_batch);
    }
    assert_eq!(starts[0], starts[2], "the same seed, the same start");
    assert_ne!(
        starts[0].hands, starts[1].hands,
        "another seed, other hands"
    );
}
