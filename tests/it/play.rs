//! Playing Barbarossa to Berlin through the session: the rulebook's worked examples of play,
//! the turn-1 special rules, and the properties of the session (replay equals live play, the
//! same seed gives the same game, undo, illegal actions change nothing, random campaigns end).

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::rules::{self, combat, Rules};
use sandtable_engine::script::eval::{self, Context, Outcome};
use sandtable_engine::script::syntax;
use sandtable_engine::session::{Playtest, SavedGame, Session, Setup};
use sandtable_engine::state::{Loc, State};

use crate::cards::b2b;

fn setup(seed: u64) -> Setup {
    Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed,
        dice: Vec::new(),
        position: None,
    }
}

/// Plays `n` random actions (or to the end); returns the session.
fn random_walk(seed: u64, n: usize) -> Session {
    let mut s = Session::new(b2b(), setup(seed)).unwrap();
    let mut agent = RandomAgent::new(seed);
    for _ in 0..n {
        let Some(p) = s.prompt().cloned() else { break };
        let a = agent.act(&p);
        s.apply(b2b(), &a).unwrap_or_else(|e| {
            panic!("seed {seed}: `{a}` was offered but refused: {}", e.message)
        });
    }
    s
}

fn unit(state: &State, name: &str) -> usize {
    state
        .units
        .iter()
        .position(|u| u.name(b2b()) == name)
        .unwrap_or_else(|| panic!("no unit {name}"))
}

/// Answers the turn-1 Orders (4.4): the Axis player's three Stand Fast markers, after his
/// choice of Barbarossa for his hand (4.3).
fn past_turn_1_orders(s: &mut Session) {
    if s.prompt().is_some_and(|p| p.kind == "start_card") {
        s.apply(b2b(), "take barbarossa").unwrap();
    }
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("axis", "decision"));
    assert_eq!(p.pick, Some((3, 3)));
    let picks: Vec<&str> = p.options.iter().take(3).map(String::as_str).collect();
    s.apply(b2b(), &format!("choose {}", picks.join(" ")))
        .unwrap();
}

#[test]
fn rule_4_4_turn_1_no_orders_roll_the_axis_places_three_stand_fast_markers_on_soviet_spaces() {
    let mut s = Session::new(b2b(), setup(3)).unwrap();
    s.apply(b2b(), "take barbarossa").unwrap();
    let p = s.prompt().unwrap().clone();
    // Every option holds Soviet units next to a supplied Axis unit.
    assert!(
        p.options
            .iter()
            .any(|o| o == "brest_litovsk" || o == "kaunas"),
        "{:?}",
        p.options
    );
    past_turn_1_orders(&mut s);
    let marked: Vec<&str> = s
        .state()
        .markers
        .iter()
        .filter(|m| m.marker == "stand_fast")
        .map(|m| m.space.as_str())
        .collect();
    assert_eq!(marked.len(), 3);
    assert!(!s.state().flags.contains("okw_offensive"));
}

#[test]
fn rule_4_4_turn_1_the_axis_opens_with_barbarossa_or_von_paulus_pause_as_an_event() {
    let mut s = Session::new(b2b(), setup(3)).unwrap();
    past_turn_1_orders(&mut s);
    let p = s.prompt().unwrap();
    assert_eq!(p.side, "axis");
    assert!(p.options.contains(&"event barbarossa".to_string()));
    assert!(
        p.options
            .iter()
            .all(|o| o == "event barbarossa" || o == "event von_paulus_pause"),
        "{:?}",
        p.options
    );
}

#[test]
fn rule_4_4_turn_1_has_one_round_each_and_the_allies_may_not_play_replacements() {
    let mut s = Session::new(b2b(), setup(3)).unwrap();
    let mut agent = RandomAgent::new(3);
    // Play the Axis round through.
    while s.prompt().is_some_and(|p| p.side == "axis") {
        let a = agent.act(&s.prompt().cloned().unwrap());
        s.apply(b2b(), &a).unwrap();
    }
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("allied", "action"));
    assert!(
        !p.options.iter().any(|o| o.starts_with("rp ")),
        "{:?}",
        p.options
    );
    // After the Allied round, the turn goes on to the later phases, not to a second round.
    while s.state().turn == 1 && s.state().round == 1 && s.prompt().is_some() {
        let a = agent.act(&s.prompt().cloned().unwrap());
        s.apply(b2b(), &a).unwrap();
    }
    assert!(
        s.state().turn > 1
            || s.state().round == 2 && s.state().flow.tasks.is_empty()
            || s.prompt().is_none_or(|p| p.kind != "action")
    );
}

/// Runs the End of Turn Phase's winter script of game.ron on a state.
fn run_winter_check(state: &mut State) {
    let script = sequence_script("winter_vp_requirement");
    let (outcome, _) = eval::run(&script, b2b(), state, &side_ctx("axis"), &[]).unwrap();
    assert_eq!(outcome, Outcome::Done);
}

/// The statements of the sequence-of-play script whose text contains `marker`.
fn sequence_script(marker: &str) -> Vec<syntax::Stmt> {
    let game = b2b().game.as_ref().unwrap();
    let text = game
        .sequence
        .iter()
        .flat_map(|p| &p.steps)
        .find_map(|s| match s {
            sandtable_engine::model::Step::Script { effect, .. } if effect.contains(marker) => {
                Some(effect.clone())
            }
            _ => None,
        })
        .unwrap_or_else(|| panic!("no sequence script mentions {marker}"));
    let parsed = syntax::parse(&text);
    assert!(parsed.errors.is_empty());
    parsed.stmts
}

/// The context of a script run for a side.
fn side_ctx(side: &str) -> Context {
    Context {
        me: side.into(),
        enemy: if side == "axis" { "allied" } else { "axis" }.into(),
        ..Context::default()
    }
}

/// A state in which the Axis controls exactly `n` VP spaces of the Soviet Union, Egypt and Iraq.
fn axis_holding(turn: u32, n: usize) -> State {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.turn = turn;
    let targets: Vec<String> = content
        .graph
        .spaces
        .iter()
        .filter(|s| {
            s.vp > 0
                && ["soviet_union", "egypt", "iraq"]
                    .iter()
                    .any(|r| sandtable_engine::state::space_in_region(content, &s.id, r))
        })
        .map(|s| s.id.clone())
        .collect();
    assert!(targets.len() > n);
    for (i, s) in targets.iter().enumerate() {
        let side = if i < n { "axis" } else { "allied" };
        state.control.insert(s.clone(), side.into());
    }
    state.tracks.insert("vp".into(), 10);
    state
}

#[test]
fn rule_5_2_no_vp_check_outside_winter_turns() {
    let mut s = axis_holding(6, 0);
    run_winter_check(&mut s);
    assert_eq!(s.track("vp"), 10);
}

#[test]
fn replay_of_a_log_equals_live_play() {
    for seed in [1, 2] {
        let live = random_walk(seed, 400);
        let (replayed, err) = Session::replay(b2b(), setup(seed), live.log()).unwrap();
        assert_eq!(err, None);
        assert!(replayed.state() == live.state(), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let a = random_walk(5, 300);
    let b = random_walk(5, 300);
    assert_eq!(a.log(), b.log());
    assert!(a.state() == b.state());
    let c = random_walk(6, 300);
    assert_ne!(a.log(), c.log());
}

#[test]
fn undo_drops_the_last_action_and_gives_the_state_before_it() {
    let mut s = random_walk(8, 70);
    let (before, _) = Session::replay(b2b(), setup(8), &s.log()[..69]).unwrap();
    let last = s.log()[69].clone();
    assert_eq!(s.undo(b2b()), Some(last));
    assert!(s.state() == before.state());
    assert_eq!(s.log().len(), 69);
}

#[test]
fn a_die_override_in_the_log_fixes_the_next_rolls_and_replays_the_same() {
    let mut s = random_walk(9, 20);
    s.apply(b2b(), "dice 6 1").unwrap();
    assert_eq!(s.state().forced_dice, [6, 1]);
    assert_eq!(s.log().last().map(String::as_str), Some("dice 6 1"));
    let (replayed, err) = Session::replay(b2b(), setup(9), s.log()).unwrap();
    assert_eq!(err, None);
    assert!(replayed.state() == s.state());
    // Not a die result: refused, nothing changes.
    let before = s.state().clone();
    for bad in ["dice", "dice 0", "dice six", "dice 101"] {
        assert!(s.apply(b2b(), bad).is_err(), "{bad}");
    }
    assert!(s.state() == &before);
}

#[test]
fn an_illegal_action_changes_nothing_and_names_the_legal_ones() {
    let mut s = random_walk(9, 20);
    let before = s.state().clone();
    let err = s.apply(b2b(), "move nobody nowhere").unwrap_err();
    assert!(!err.legal.is_empty());
    assert!(s.state() == &before);
    assert_eq!(s.log().len(), 20);
}

#[test]
fn a_replayed_log_stops_at_its_first_illegal_action_keeping_those_before() {
    let s = random_walk(4, 30);
    let mut log = s.log().to_vec();
    log.insert(10, "attack berlin".into());
    let (partial, err) = Session::replay(b2b(), setup(4), &log).unwrap();
    let err = err.expect("the inserted action is illegal");
    assert_eq!(err.index, 10);
    assert_eq!(partial.log(), &s.log()[..10]);
}

#[test]
fn a_saved_game_round_trips_and_a_corrupt_one_gives_its_place() {
    let s = random_walk(2, 25);
    let saved = s.save(b2b());
    assert_eq!(saved.content_hash, b2b().hash);
    let back = SavedGame::from_ron(&saved.to_ron()).unwrap();
    assert_eq!(back, saved);
    let err = SavedGame::from_ron("(game: \"x\", content_hash: 3").unwrap_err();
    assert!(err.starts_with("1:"), "{err}");
}

#[test]
fn hot_reload_with_content_that_does_not_check_keeps_the_last_good_rules() {
    let s = random_walk(3, 15);
    let mut p = Playtest::new(b2b().clone(), setup(3)).unwrap();
    for a in s.log() {
        p.apply(a).unwrap();
    }
    let mut broken = sandtable_engine::load::load_dir(crate::b2b());
    broken
        .diagnostics
        .push(sandtable_engine::diag::Diagnostic::at_path(
            "E9999", "x", "broken",
        ));
    let r = p.reload(broken);
    assert!(matches!(r, sandtable_engine::session::Reload::Rejected(_)));
    assert_eq!(p.session.log().len(), 15);
}

#[test]
fn hot_reload_of_the_same_files_changes_nothing_and_keeps_the_whole_log() {
    let s = random_walk(3, 60);
    let mut p = Playtest::new(b2b().clone(), setup(3)).unwrap();
    for a in s.log() {
        p.apply(a).unwrap();
    }
    let r = p.reload(sandtable_engine::load::load_dir(crate::b2b()));
    assert_eq!(r, sandtable_engine::session::Reload::Unchanged);
    assert_eq!(p.session.log(), s.log());
    assert!(p.reports.is_empty());
}

#[test]
fn hot_reload_after_a_rule_change_reports_the_first_action_whose_outcome_changed() {
    // Play until the first combat (of the first random game from seed 11 on that fights),
    // then make every fire table cell one higher.
    let (seed, s, fight) = (11..40)
        .find_map(|seed| {
            let s = random_walk(seed, 2000);
            let fight = s.log().iter().position(|a| a == "fight")?;
            (s.log().len() > fight + 3).then_some((seed, s, fight))
        })
        .expect("a random game fights");
    let log = s.log()[..=fight + 3].to_vec();
    let mut p = Playtest::new(b2b().clone(), setup(seed)).unwrap();
    for a in &log {
        p.apply(a).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    let tables = dir.path().join("tables.ron");
    let text = std::fs::read_to_string(&tables).unwrap();
    let bumped = text
        .replace(
            "(key: 1, cells: [0, 0, 1, 1, 2, 2, 3, 3, 4])",
            "(key: 1, cells: [3, 3, 3, 3, 3, 3, 3, 3, 4])",
        )
        .replace(
            "(key: 2, cells: [0, 1, 1, 2, 2, 3, 3, 4, 4])",
            "(key: 2, cells: [3, 3, 3, 3, 3, 3, 3, 4, 4])",
        )
        .replace(
            "(key: 1, cells: [0, 0, 0, 0, 1, 1, 1, 1, 2])",
            "(key: 1, cells: [2, 2, 2, 2, 2, 2, 2, 2, 2])",
        )
        .replace(
            "(key: 2, cells: [0, 0, 1, 1, 1, 1, 1, 2, 2])",
            "(key: 2, cells: [2, 2, 2, 2, 2, 2, 2, 2, 2])",
        );
    assert_ne!(bumped, text);
    std::fs::write(&tables, bumped).unwrap();
    let r = p.reload(sandtable_engine::load::load_dir(dir.path()));
    match r {
        sandtable_engine::session::Reload::Replayed(Some(d)) => {
            assert!(d.index <= fight + 3, "{d:?}");
            assert_eq!(
                p.session.log().len(),
                d.index,
                "the actions before it go on"
            );
            assert_eq!(p.lines[0].actions, log, "the whole log is kept as a line");
        }
        other => {
            // Only possible when every roll in that combat fell on rows 3-6.
            assert_eq!(other, sandtable_engine::session::Reload::Replayed(None));
        }
    }
}

#[test]
fn random_campaigns_play_to_a_result_without_error() {
    for seed in 1..=3 {
        let s = random_walk(seed, 100_000);
        let r = s.state().flow.result.clone().expect("the game ended");
        assert!(["axis", "allied"].contains(&r.winner.as_str()), "{r:?}");
        assert!(r.turn <= 18);
    }
}

#[test]
fn random_walks_never_leave_units_overstacked_or_with_enemies() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    for seed in [21, 22] {
        let mut s = Session::new(content, setup(seed)).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..1500 {
            let Some(p) = s.prompt().cloned() else { break };
            s.apply(content, &agent.act(&p)).unwrap();
            // Between actions no space holds both sides' units.
            let mut sides: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> =
                Default::default();
            for u in &s.state().units {
                if let Loc::Space(sp) = &u.at {
                    sides.entry(sp).or_default().insert(rules.side(u));
                }
            }
            assert!(
                sides.values().all(|v| v.len() == 1),
                "seed {seed}: {sides:?}"
            );
            // At the start of each action, no space holds more units than the stacking limit
            // (9.1: units that do not count for stacking aside).
            if s.prompt().is_some_and(|p| p.kind == "action") {
                let mut stacks: std::collections::BTreeMap<&str, u32> = Default::default();
                for u in &s.state().units {
                    let counts = !content
                        .game
                        .as_ref()
                        .unwrap()
                        .unit_types
                        .iter()
                        .any(|t| t.id == rules.unit_type(u) && t.no_stacking);
                    if let (Loc::Space(sp), true) = (&u.at, counts) {
                        *stacks.entry(sp).or_default() += 1;
                    }
                }
                let over: Vec<_> = stacks.iter().filter(|(_, n)| **n > 3).collect();
                assert!(over.is_empty(), "seed {seed}: overstacked {over:?}");
            }
        }
    }
}

/// Runs the sequence script whose text contains `marker` on a state, answering each decision
/// with the first options it asks for (`yes` to a question); returns the answers given.
fn run_sequence_script(state: &mut State, side: &str, marker: &str) -> Vec<Vec<String>> {
    let script = sequence_script(marker);
    let ctx = side_ctx(side);
    let mut answers: Vec<Vec<String>> = Vec::new();
    loop {
        match eval::run(&script, b2b(), state, &ctx, &answers).unwrap() {
            (Outcome::Done, _) => return answers,
            (Outcome::Asks(d), _) => {
                answers.push(d.options.iter().take(d.min.max(1)).cloned().collect())
            }
        }
    }
}

#[test]
fn rule_19_hungarian_units_may_never_enter_romania_and_western_allies_never_the_soviet_union() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let hu = unit(&state, "hu_2nd_army");
    let br = state
        .units
        .iter()
        .position(|u| u.counter.starts_with("br_"))
        .unwrap();
    let ro_space = content
        .graph
        .spaces
        .iter()
        .find(|s| s.country.as_deref() == Some("romania"))
        .unwrap();
    assert!(!rules::may_operate(&rules, &state, hu, &ro_space.id));
    assert!(rules::may_operate(&rules, &state, hu, "kiev"));
    assert!(!rules::may_operate(&rules, &state, br, "kiev"));
    assert!(rules::may_operate(&rules, &state, br, "cairo"));
}

/// The campaign's rules and its state at the start (seed 1).
fn campaign() -> (Rules<'static>, State) {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    (rules, state)
}

/// A marker of a kind on a space, for good.
fn marker(kind: &str, space: &str) -> sandtable_engine::state::MarkerOnMap {
    sandtable_engine::state::MarkerOnMap {
        marker: kind.into(),
        space: space.into(),
        level: 1,
        until: None,
    }
}

/// Play set to a side's Move stage with `space` activated for movement.
fn move_stage(rules: &Rules, state: &mut State, side: &str, space: &str) {
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![rules::Task::Ops {
        side: side.into(),
        points: 0,
        stage: rules::OpsStage::Move,
    }];
    state.markers.push(marker("move", space));
    rules::resume(rules, state);
}

/// The index of the Action Phase in the sequence of play.
fn action_phase() -> usize {
    let game = b2b().game.as_ref().unwrap();
    game.sequence.iter().position(|p| p.id == "action").unwrap()
}

/// The campaign's start, with play set to a side's operations at a stage (the spaces given
/// marked for it) so that moves and attacks can be tried from a prepared position.
fn operations(
    side: &str,
    stage: rules::OpsStage,
    marked: &[(&str, &str)],
) -> (Rules<'static>, State) {
    let (rules, mut state) = campaign();
    state.turn = 3;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![rules::Task::Ops {
        side: side.into(),
        points: 0,
        stage,
    }];
    for (kind, space) in marked {
        state.markers.push(marker(kind, space));
    }
    rules::resume(&rules, &mut state);
    (rules, state)
}

/// A German unit on `space`, with `own` emptied and held by the Axis and `enemy` emptied and
/// held by the Allies: the unit's name.
fn german_front(state: &mut State, space: &str, own: &str, enemy: &str) -> String {
    for u in state.units.iter_mut() {
        if u.at == Loc::Space(own.into()) || u.at == Loc::Space(enemy.into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.control.insert(own.into(), "axis".into());
    state.control.insert(enemy.into(), "allied".into());
    let ge = state
        .units
        .iter()
        .position(|u| u.counter.starts_with("ge_") && u.at == Loc::Space(space.into()))
        .unwrap_or_else(|| panic!("no German unit in {space}"));
    state.units[ge].name(b2b())
}

#[test]
fn rule_8_4_leaving_a_stand_fast_space_costs_the_axis_1_vp_unless_it_enters_enemy_territory() {
    let (space, own, enemy) = ("hellfire_pass", "gazala", "buq_buq");
    for (to, vp_change) in [(own, -1), (enemy, 0)] {
        let (rules, mut state) = operations(
            "axis",
            rules::OpsStage::Move,
            &[("move", space), ("stand_fast", space)],
        );
        let name = german_front(&mut state, space, own, enemy);
        rules::resume(&rules, &mut state);
        let vp = state.track("vp");
        rules::apply(&rules, &mut state, &format!("move {name} {to}")).unwrap();
        assert_eq!(state.track("vp"), vp + vp_change, "into {to}");
        assert!(
            !state
                .markers
                .iter()
                .any(|m| m.marker == "stand_fast" && m.space == space),
            "the marker comes off"
        );
    }
}

#[test]
fn rule_8_2_an_okw_offensive_is_met_by_a_german_capture_outside_the_soviet_union_or_costs_1_vp() {
    // Outside the Soviet Union (Egypt) the capture meets it; inside (Brest-Litovsk) it does not.
    for (space, own, enemy, met) in [
        ("hellfire_pass", "gazala", "buq_buq", true),
        ("warsaw", "radom", "brest_litovsk", false),
    ] {
        let (rules, mut state) = operations("axis", rules::OpsStage::Move, &[("move", space)]);
        let name = german_front(&mut state, space, own, enemy);
        state.flags.insert("okw_offensive".into());
        rules::resume(&rules, &mut state);
        rules::apply(&rules, &mut state, &format!("move {name} {enemy}")).unwrap();
        assert_eq!(
            !state.flags.contains("okw_offensive"),
            met,
            "capture of {enemy}"
        );
    }
    // At the end of the turn an offensive still owed costs its side a VP.
    let mut owed = axis_holding(6, 0);
    owed.flags.insert("okw_offensive".into());
    owed.flags.insert("soviet_offensive".into());
    run_sequence_script(&mut owed, "axis", "okw_offensive");
    assert_eq!(owed.track("vp"), 10 - 1 + 1);
    let mut met = axis_holding(6, 0);
    run_sequence_script(&mut met, "axis", "okw_offensive");
    assert_eq!(met.track("vp"), 10);
}

#[test]
fn rule_16_2_partisans_are_placed_as_an_allied_action_after_the_partisans_event() {
    let content = b2b();
    let (rules, mut state) = campaign();
    state.turn = 3;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![
        rules::Task::Rounds {
            at: (action_phase(), 0),
            rounds: 6,
            next: 2,
            acting: true,
        },
        rules::Task::Action {
            side: "allied".into(),
        },
    ];
    rules::resume(&rules, &mut state);
    assert!(!state
        .flow
        .prompt
        .as_ref()
        .unwrap()
        .options
        .contains(&"partisans".to_string()));
    state.played.insert("partisans".into(), 2);
    rules::resume(&rules, &mut state);
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options.contains(&"partisans".to_string()),
        "{:?}",
        p.options
    );
    rules::apply(&rules, &mut state, "partisans").unwrap();
    let choice = state.flow.prompt.clone().unwrap();
    assert_eq!(choice.pick, Some((1, 1)), "one marker in 1941-42");
    for s in &choice.options {
        assert_eq!(state.control[s], "axis");
        assert!(state.units_at(s).next().is_none());
        assert!(
            sandtable_engine::state::space_in_region(content, s, "soviet_union")
                || ["yugoslavia", "greece", "turkey"]
                    .iter()
                    .any(|r| sandtable_engine::state::space_in_region(content, s, r))
        );
    }
    let at = choice.options[0].clone();
    rules::apply(&rules, &mut state, &format!("choose {at}")).unwrap();
    assert!(state
        .markers
        .iter()
        .any(|m| m.marker == "partisan" && m.space == at));
}

#[test]
fn rule_16_3_axis_units_trace_only_limited_supply_through_a_partisan_space() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let space = "warsaw";
    assert_eq!(level_at(content, &state, space, "ge", "axis"), Level::Full);
    let soviet = level_at(content, &state, space, "su", "allied");
    state.markers.push(marker("partisan", space));
    assert_eq!(
        level_at(content, &state, space, "ge", "axis"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, space, "su", "allied"),
        soviet,
        "no effect on the Allies"
    );
}

#[test]
fn rule_5_5_the_axis_taking_stalins_space_eliminates_him_for_4_vp() {
    let (before, after) = german_move("ge_4th_army", "mozhaik", "moscow");
    let moscow_vp = i64::from(b2b().graph.space("moscow").unwrap().vp);
    assert!(before.markers.iter().any(|m| m.marker == "stalin"));
    assert!(!after.markers.iter().any(|m| m.marker == "stalin"));
    assert_eq!(after.track("vp"), before.track("vp") + moscow_vp + 4);
}

/// The campaign's start at a side's action in the Action Phase of a turn.
fn action_of(side: &str, turn: u32) -> (Rules<'static>, State) {
    let (rules, mut state) = campaign();
    state.turn = turn;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    // The rounds task stands after the side whose action it is (the Axis acts first).
    let next = if side == "axis" { 1 } else { 2 };
    state.flow.tasks = vec![
        rules::Task::Rounds {
            at: (action_phase(), 0),
            rounds: 6,
            next,
            acting: true,
        },
        rules::Task::Action { side: side.into() },
    ];
    rules::resume(&rules, &mut state);
    (rules, state)
}

#[test]
fn rule_7_5_on_turns_8_to_11_the_axis_plays_at_most_two_rp_cards_a_turn() {
    let offers_rp = |state: &State| {
        state
            .flow
            .prompt
            .as_ref()
            .unwrap()
            .options
            .iter()
            .any(|o| o.starts_with("rp "))
    };
    for (turn, played, allowed) in [(7, 2, true), (8, 1, true), (8, 2, false), (12, 1, false)] {
        let (rules, mut state) = action_of("axis", turn);
        state.flow.rp_cards.insert("axis".into(), played);
        rules::resume(&rules, &mut state);
        assert_eq!(offers_rp(&state), allowed, "turn {turn}, {played} played");
    }
}

#[test]
fn rule_14_52_two_panzer_steps_a_turn_are_rebuilt_three_after_totaler_krieg() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let setup = |capped: u32, krieg: Option<u32>| {
        let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
        state.turn = 9;
        if let Some(t) = krieg {
            state.played.insert("totaler_krieg".into(), t);
        }
        let pz = unit(&state, "ge_1st_pz_army");
        state.units[pz].reduced = true;
        state.flow.capped_steps.insert(0, capped);
        state.flow.tasks = vec![rules::Task::Replace {
            side: "axis".into(),
            halves: [("rp_ge".to_string(), 20), ("rp_axis".to_string(), 0)].into(),
            placing: None,
        }];
        rules::resume(&rules, &mut state);
        state
            .flow
            .prompt
            .unwrap()
            .options
            .contains(&"rebuild ge_1st_pz_army".to_string())
    };
    assert!(setup(1, None));
    assert!(!setup(2, None));
    assert!(
        !setup(2, Some(9)),
        "not on the turn Totaler Krieg is played"
    );
    assert!(setup(2, Some(8)), "three from the turn after");
    assert!(!setup(3, Some(8)));
}

#[test]
fn rule_15_2_in_winter_42_german_panzers_in_the_soviet_union_are_not_mechanized() {
    let content = b2b();
    let (rules, mut state) = campaign();
    state.turn = 4;
    let pz = unit(&state, "ge_1st_pz_army");
    state.units[pz].at = Loc::Space("kiev".into());
    run_sequence_script(&mut state, "axis", "winter_42");
    assert!(state.flags.contains("winter_42"));
    assert!(!rules.is_mech_now(&state, &state.units[pz]));
    state.units[pz].at = Loc::Space("warsaw".into());
    assert!(
        rules.is_mech_now(&state, &state.units[pz]),
        "outside the Soviet Union"
    );
    // Von Paulus Pause cancels it.
    let mut paused = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    paused.turn = 4;
    paused.flags.insert("winter_42_cancelled".into());
    run_sequence_script(&mut paused, "axis", "winter_42");
    assert!(!paused.flags.contains("winter_42"));
}

#[test]
fn rule_14_53_each_wehrkreis_space_not_held_in_full_supply_costs_a_german_rp() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.tracks.insert("rp_ge".into(), 3);
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 3);
    let wehrkreis: Vec<String> = content
        .graph
        .spaces
        .iter()
        .filter(|s| sandtable_engine::state::space_in_region(content, &s.id, "wehrkreis"))
        .map(|s| s.id.clone())
        .collect();
    state.control.insert(wehrkreis[0].clone(), "allied".into());
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 2);
    for w in &wehrkreis {
        state.control.insert(w.clone(), "allied".into());
    }
    run_sequence_script(&mut state, "axis", "wehrkreis");
    assert_eq!(state.track("rp_ge"), 0, "never below 0");
}

/// The campaign's start with a British beach head on beach A and the path inland from it (one,
/// two and three spaces away) emptied and Allied.
fn beach_head_a() -> (State, [String; 3]) {
    let content = b2b();
    let g = &content.graph;
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let beach = "beach_a";
    // A neighbour of `from` that is no beach and lies next to none of the spaces nearer the beach.
    let inland = |from: &str, nearer: &[&str]| -> String {
        g.neighbour_ids(from)
            .into_iter()
            .find(|n| {
                !n.starts_with("beach_")
                    && nearer
                        .iter()
                        .all(|x| x != n && !g.neighbour_ids(x).contains(n))
            })
            .unwrap()
            .to_string()
    };
    let one = inland(beach, &[]);
    let two = inland(&one, &[beach]);
    let three = inland(&two, &[beach, &one]);
    for s in [&one, &two, &three] {
        state.control.insert(s.clone(), "allied".into());
        for u in state.units.iter_mut() {
            if u.at == Loc::Space(s.clone()) {
                u.at = Loc::Unplaced;
            }
        }
    }
    (state, [one, two, three])
}

fn put_beach_head(state: &mut State) {
    state.markers.push(marker("beach_head_br", "beach_a"));
}

#[test]
fn rule_13_1_units_tracing_to_a_beach_head_are_in_full_supply_within_two_spaces_and_limited_beyond()
{
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let (mut state, [one, two, three]) = beach_head_a();
    let before = level_at(content, &state, &three, "br", "allied");
    assert_eq!(before, Level::Out, "no supply there without the beach head");
    put_beach_head(&mut state);
    assert_eq!(level_at(content, &state, &one, "br", "allied"), Level::Full);
    assert_eq!(level_at(content, &state, &two, "br", "allied"), Level::Full);
    assert_eq!(
        level_at(content, &state, &three, "br", "allied"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, &one, "us", "allied"),
        Level::Out,
        "a British beach head"
    );
}

/// A German unit moved from `from` into `to` (emptied first) in a prepared Move stage; the
/// state before and after.
fn german_move(counter: &str, from: &str, to: &str) -> (State, State) {
    let (rules, mut state) = campaign();
    for u in state.units.iter_mut() {
        if u.at == Loc::Space(to.into()) || u.at == Loc::Space(from.into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.control.insert(from.into(), "axis".into());
    let ge = unit(&state, counter);
    state.units[ge].at = Loc::Space(from.into());
    move_stage(&rules, &mut state, "axis", from);
    let before = state.clone();
    rules::apply(&rules, &mut state, &format!("move {counter} {to}")).unwrap();
    (before, state)
}

#[test]
fn rule_10_2_a_soviet_trench_is_removed_when_its_space_becomes_axis_controlled() {
    let (before, after) = german_move("ge_4th_army", "warsaw", "bialystok");
    let trench = |s: &State| {
        s.markers
            .iter()
            .any(|m| m.marker == "trench" && m.space == "bialystok")
    };
    assert!(trench(&before));
    assert!(!trench(&after));
    assert_eq!(after.control["bialystok"], "axis");
}

/// A Soviet front alone in `space`, marked for movement, at the Allied Move stage of a turn.
fn soviet_move_stage(turn: u32, space: &str) -> (Rules<'static>, State) {
    let (rules, mut state) = campaign();
    state.turn = turn;
    for u in state.units.iter_mut() {
        if u.at == Loc::Space(space.into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.markers.retain(|m| m.space != space);
    let front = unit(&state, "su_northwest_front");
    state.units[front].at = Loc::Space(space.into());
    move_stage(&rules, &mut state, "allied", space);
    (rules, state)
}

#[test]
fn rule_10_2_a_soviet_lcu_entrenches_instead_of_moving_on_a_roll_of_1_to_3() {
    let content = b2b();
    let urban = content
        .graph
        .spaces
        .iter()
        .find(|s| {
            s.features.iter().any(|f| f == "urban")
                && s.id != "moscow"
                && sandtable_engine::state::space_in_region(content, &s.id, "soviet_union")
        })
        .unwrap()
        .id
        .clone();
    let offers = |state: &State| {
        state
            .flow
            .prompt
            .as_ref()
            .is_some_and(|p| p.options.contains(&format!("entrench {urban}")))
    };
    // Not on turns 1 and 2.
    assert!(!offers(&soviet_move_stage(2, &urban).1));
    for (roll, trench) in [(3, true), (4, false)] {
        let (rules, mut state) = soviet_move_stage(3, &urban);
        assert!(offers(&state));
        state.forced_dice = vec![roll];
        rules::apply(&rules, &mut state, &format!("entrench {urban}")).unwrap();
        // The front does not move: movement is over, and the try is made.
        let p = state.flow.prompt.clone().unwrap();
        let moves = |o: &String| o.starts_with("move su_northwest_front");
        assert!(!p.options.iter().any(moves));
        if p.kind == "move" {
            rules::apply(&rules, &mut state, "done").unwrap();
        }
        assert!(state.forced_dice.is_empty(), "the die was rolled");
        let placed = state
            .markers
            .iter()
            .any(|m| m.marker == "trench" && m.space == urban);
        assert_eq!(placed, trench, "roll {roll}");
    }
}

#[test]
fn rule_10_2_soviet_trenches_outside_urban_spaces_only_from_1943() {
    let content = b2b();
    let open = content
        .graph
        .spaces
        .iter()
        .find(|s| {
            s.features.is_empty()
                && s.terrain.as_deref() == Some("clear")
                && sandtable_engine::state::space_in_region(content, &s.id, "soviet_union")
        })
        .unwrap()
        .id
        .clone();
    let offers = |turn| {
        soviet_move_stage(turn, &open)
            .1
            .flow
            .prompt
            .is_some_and(|p| p.options.contains(&format!("entrench {open}")))
    };
    assert!(!offers(7));
    assert!(offers(8));
}

#[test]
fn rule_14_55_with_stalin_out_of_moscow_an_allied_rp_card_gives_one_soviet_rp_less() {
    for (stalin_home, expected) in [(true, 0), (false, -1)] {
        let (rules, mut state) = action_of("allied", 3);
        if !stalin_home {
            state.markers.retain(|m| m.marker != "stalin");
        }
        let card = sandtable_engine::rules::Rules::new(b2b(), "campaign").unwrap();
        let hand = state.hands["allied"].clone();
        let Some((id, value)) = hand.iter().find_map(|c| {
            card.card(c)
                .and_then(|k| k.values.get("rp_su"))
                .filter(|v| **v > 0)
                .map(|v| (c.clone(), *v))
        }) else {
            panic!("the Allied hand has a card with Soviet RPs: {hand:?}");
        };
        rules::apply(&rules, &mut state, &format!("rp {id}")).unwrap();
        assert_eq!(
            state.track("rp_su"),
            i64::from(value) + expected,
            "Stalin in Moscow: {stalin_home}"
        );
    }
}

#[test]
fn rule_15_2_in_winter_42_german_units_in_the_soviet_union_are_at_best_in_limited_supply() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.control.insert("brest_litovsk".into(), "axis".into());
    for u in state.units.iter_mut() {
        if u.at == Loc::Space("brest_litovsk".into()) {
            u.at = Loc::Unplaced;
        }
    }
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ge", "axis"),
        Level::Full
    );
    state.flags.insert("winter_42".into());
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ge", "axis"),
        Level::Limited
    );
    assert_eq!(
        level_at(content, &state, "warsaw", "ge", "axis"),
        Level::Full
    );
    assert_eq!(
        level_at(content, &state, "brest_litovsk", "ro", "axis"),
        Level::Full
    );
}

#[test]
fn rule_17_4_a_declaration_of_war_on_turkey_gives_its_forces_to_the_other_side_and_the_round_goes_on(
) {
    let (rules, mut state) = action_of("axis", 5);
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options.contains(&"war_on_turkey".to_string()),
        "{:?}",
        p.options
    );
    let vp = state.track("vp");
    rules::apply(&rules, &mut state, "war_on_turkey").unwrap();
    assert!(state.flags.contains("turkey_at_war"));
    let army = unit(&state, "tu_1st_army");
    assert_eq!(state.units[army].at, Loc::Space("istanbul".into()));
    assert_eq!(rules.side(&state.units[army]), "allied");
    assert_eq!(state.control["ankara"], "allied");
    assert_eq!(state.track("vp"), vp - 3, "5.1: before Casablanca");
    // The Axis still takes its action, and may not declare again.
    let p = state.flow.prompt.clone().unwrap();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("axis", "action"));
    assert!(!p.options.contains(&"war_on_turkey".to_string()));
    // Turkish units are in Full Supply at home, and may not leave Turkey.
    let level =
        sandtable_engine::rules::supply::level_at(b2b(), &state, "istanbul", "tu", "allied");
    assert_eq!(level, sandtable_engine::rules::supply::Level::Full);
    assert!(!rules::may_operate(&rules, &state, army, "sofia"));
}

#[test]
fn rule_17_4_when_the_allies_declare_war_on_sweden_its_corps_go_to_the_axis_reserve() {
    let (rules, mut state) = action_of("allied", 5);
    let vp = state.track("vp");
    rules::apply(&rules, &mut state, "war_on_sweden").unwrap();
    let corps = state
        .units
        .iter()
        .find(|u| u.counter == "sw_corps" && u.at != Loc::Unplaced)
        .expect("the Swedish corps entered");
    assert_eq!(corps.at, Loc::Box("axis_reserve".into()));
    assert_eq!(rules.side(corps), "axis");
    assert_eq!(state.track("vp"), vp, "no VP for an Allied declaration");
}

#[test]
fn rule_13_6_an_axis_lcu_in_the_caucasus_supplied_through_maikop_or_armavir_costs_one_more_op() {
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let g = &content.graph;
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    // The Axis holds the whole map and the Soviets are gone: many roads lead to Grozny.
    for u in state.units.iter_mut() {
        if rules.nation(u) == "su" {
            u.at = Loc::Unplaced;
        }
    }
    for s in &g.spaces {
        state.control.insert(s.id.clone(), "axis".into());
    }
    let army = unit(&state, "ge_4th_army");
    state.units[army].at = Loc::Space("grozny".into());
    let cost = |state: &State| {
        sandtable_engine::rules::space_activation_cost(&rules, state, "grozny", "axis")
    };
    assert_eq!(cost(&state), 1);
    // Now every way into the Caucasus but through Maikop and Armavir is Allied.
    let caucasus = |s: &str| sandtable_engine::state::space_in_region(content, s, "caucasus");
    let gates = ["maikop", "armavir"];
    for s in g
        .spaces
        .iter()
        .filter(|s| caucasus(&s.id) && !gates.contains(&s.id.as_str()))
    {
        for n in g.neighbour_ids(&s.id) {
            if !caucasus(n) {
                state.control.insert(n.to_string(), "allied".into());
            }
        }
    }
    let level = sandtable_engine::rules::supply::level_at(content, &state, "grozny", "ge", "axis");
    assert_ne!(
        level,
        sandtable_engine::rules::supply::Level::Out,
        "supplied through Maikop or Armavir"
    );
    assert_eq!(cost(&state), 2);
}

#[test]
fn rule_15_2_and_16_3_german_defenders_in_winter_42_or_in_a_partisan_space_keep_only_trenches() {
    let content = b2b();
    let (rules, mut state) = campaign();
    let forest = content
        .graph
        .spaces
        .iter()
        .find(|s| {
            s.terrain.as_deref() == Some("forest")
                && sandtable_engine::state::space_in_region(content, &s.id, "soviet_union")
        })
        .unwrap()
        .id
        .clone();
    let army = unit(&state, "ge_4th_army");
    state.units[army].at = Loc::Space(forest.clone());
    let mut c = combat::CombatTask::new("allied", &forest);
    c.defenders = vec![army];
    assert!(combat::terrain_rows(&rules, &state, &c).contains(&"forest".to_string()));
    state.flags.insert("winter_42".into());
    assert!(combat::terrain_rows(&rules, &state, &c).is_empty());
    state.markers.push(marker("trench", &forest));
    assert_eq!(
        combat::terrain_rows(&rules, &state, &c),
        vec!["trench_1".to_string(), "trench".to_string()],
        "trenches still count"
    );
    // A partisan marker does the same outside winter.
    state.flags.remove("winter_42");
    state.markers.retain(|m| m.space != forest);
    state.markers.push(marker("partisan", &forest));
    assert!(combat::terrain_rows(&rules, &state, &c).is_empty());
}

#[test]
fn rule_16_2_the_allied_player_may_remove_partisans_at_the_end_of_the_turn() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.markers.push(marker("partisan", "minsk"));
    let script = sequence_script("6.H.2");
    let ctx = side_ctx("axis");
    let mut answers: Vec<Vec<String>> = Vec::new();
    let mut asked_allies = false;
    loop {
        let mut trial = state.clone();
        match eval::run(&script, content, &mut trial, &ctx, &answers).unwrap() {
            (Outcome::Done, _) => {
                state = trial;
                break;
            }
            (Outcome::Asks(d), _) => {
                if d.options.contains(&"minsk".to_string()) {
                    assert_eq!(d.by, "allied");
                    asked_allies = true;
                    answers.push(vec!["minsk".into()]);
                } else {
                    answers.push(Vec::new());
                }
            }
        }
    }
    assert!(asked_allies);
    assert!(!state.markers.iter().any(|m| m.marker == "partisan"));
}

#[test]
fn rule_5_5_stalin_moves_by_sr_for_1_point_first_to_kuibishev_then_anywhere_in_the_ussr() {
    let (rules, mut state) = campaign();
    state.turn = 3;
    state.flow.phase = action_phase();
    state.flow.step = 1;
    state.flow.tasks = vec![rules::Task::Sr {
        side: "allied".into(),
        points: 3,
        unit: None,
        marker: None,
    }];
    rules::resume(&rules, &mut state);
    rules::apply(&rules, &mut state, "move_marker stalin").unwrap();
    let p = state.flow.prompt.clone().unwrap();
    assert_eq!(
        p.options,
        vec!["to kuibishev".to_string(), "back".to_string()]
    );
    rules::apply(&rules, &mut state, "to kuibishev").unwrap();
    assert!(state
        .markers
        .iter()
        .any(|m| m.marker == "stalin" && m.space == "kuibishev"));
    match state.flow.tasks.last() {
        Some(rules::Task::Sr { points, .. }) => assert_eq!(*points, 2),
        other => panic!("{other:?}"),
    }
    // From Kuibishev, anywhere in the Soviet Union the Allies hold.
    rules::apply(&rules, &mut state, "move_marker stalin").unwrap();
    let p = state.flow.prompt.clone().unwrap();
    assert!(
        p.options.contains(&"to moscow".to_string()),
        "{:?}",
        p.options
    );
    assert!(!p.options.contains(&"to cairo".to_string()));
}

#[test]
fn rule_8_4_after_the_bomb_plot_each_german_unit_leaving_a_stand_fast_space_costs_1_vp() {
    let (space, own, enemy) = ("hellfire_pass", "gazala", "buq_buq");
    let (rules, mut state) = operations(
        "axis",
        rules::OpsStage::Move,
        &[("move", space), ("stand_fast", space)],
    );
    let first = german_front(&mut state, space, own, enemy);
    let second = state
        .units
        .iter()
        .position(|u| u.counter == "ge_corps" && u.at == Loc::Box("axis_reserve".into()))
        .unwrap();
    state.units[second].at = Loc::Space(space.into());
    let second = state.units[second].name(b2b());
    state.played.insert("bomb_plot".into(), 2);
    rules::resume(&rules, &mut state);
    let vp = state.track("vp");
    rules::apply(&rules, &mut state, &format!("move {first} {own}")).unwrap();
    assert_eq!(state.track("vp"), vp - 1);
    assert!(state
        .markers
        .iter()
        .any(|m| m.marker == "stand_fast" && m.space == space));
    rules::apply(&rules, &mut state, &format!("move {second} {own}")).unwrap();
    assert_eq!(state.track("vp"), vp - 2, "one VP per unit");
}

/// Whether a card's event may be played now, by its condition.
fn playable(state: &State, card: &str, side: &str) -> bool {
    let cond = b2b().scripts[card].playable.as_ref().unwrap();
    let ctx = Context {
        me: side.into(),
        enemy: if side == "axis" { "allied" } else { "axis" }.into(),
        card: Some(card.into()),
        ..Context::default()
    };
    eval::condition(cond, b2b(), state, &ctx).unwrap()
}

#[test]
fn optional_rules_are_switched_on_for_a_session_as_flags() {
    let mut with = setup(1);
    with.options = vec!["sunny_italy".into(), "time_of_mud".into()];
    let s = Session::new(b2b(), with).unwrap();
    assert!(s.state().flags.contains("sunny_italy") && s.state().flags.contains("time_of_mud"));
    assert!(!Session::new(b2b(), setup(1))
        .unwrap()
        .state()
        .flags
        .contains("sunny_italy"));
    let mut unknown = setup(1);
    unknown.options = vec!["sunny_france".into()];
    assert!(Session::new(b2b(), unknown).is_err());
}

/// Whether an option changes a card's condition: playable without it, and with it.
fn with_and_without(state: &mut State, option: &str, card: &str) -> (bool, bool) {
    state.flags.remove(option);
    let without = playable(state, card, "allied");
    state.flags.insert(option.into());
    let with = playable(state, card, "allied");
    (without, with)
}

#[test]
fn optional_rule_7_62_no_invasions_before_summer_42() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.played.insert("us_build_up".into(), 3);
    state.turn = 5;
    let option = "no_invasions_before_summer_42";
    assert!(
        !with_and_without(&mut state, option, "husky").1,
        "Spring 42"
    );
    state.turn = 6;
    let (without, with) = with_and_without(&mut state, option, "husky");
    assert_eq!(with, without, "from Summer 42 the option changes nothing");
}

#[test]
fn optional_rule_7_62_only_one_of_allied_2_and_24_in_1941() {
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.turn = 3;
    state.played.insert("soviet_reinforcements_2".into(), 2);
    let option = "one_soviet_reinforcement_1941";
    assert!(!with_and_without(&mut state, option, "soviet_reinforcements_24").1);
    state.turn = 4;
    let (without, with) = with_and_without(&mut state, option, "soviet_reinforcements_24");
    assert_eq!(with, without, "in 1942 the option changes nothing");
}

#[test]
fn optional_rule_15_4_sunny_italy_makes_naples_a_limited_source_in_fall_and_winter() {
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.control.insert("naples".into(), "allied".into());
    for u in state.units.iter_mut() {
        if u.at == Loc::Space("naples".into()) {
            u.at = Loc::Unplaced;
        }
    }
    state.flags.insert("sunny_italy".into());
    state.turn = 3; // Fall 41
    assert_eq!(
        level_at(content, &state, "naples", "br", "allied"),
        Level::Full
    );
    run_sequence_script(&mut state, "axis", "sunny_italy");
    assert_eq!(
        level_at(content, &state, "naples", "br", "allied"),
        Level::Limited
    );
}

#[test]
fn optional_rule_15_5_time_of_mud_caps_panzers_in_the_ussr_in_rounds_2_and_3_of_fall_41() {
    use sandtable_engine::rules::{battle::advance_reach, movement::allowance};
    let (rules, mut state) = campaign();
    state.flags.insert("time_of_mud".into());
    state.turn = 3;
    run_sequence_script(&mut state, "axis", "time_of_mud");
    let pz = unit(&state, "ge_1st_pz_army");
    state.units[pz].at = Loc::Space("kiev".into());
    let printed = rules.movement(&state.units[pz]);
    assert!(printed > 3);
    // The game's Time of Mud hooks: movement at most 3, an advance at most one space.
    let caps = |state: &State| {
        (
            allowance(&rules, state, pz, printed),
            advance_reach(&rules, state, pz, "kursk", 2),
        )
    };
    for (round, cap) in [
        (1, (printed as u32, 2)),
        (2, (3, 1)),
        (3, (3, 1)),
        (4, (printed as u32, 2)),
    ] {
        state.round = round;
        assert_eq!(caps(&state), cap, "round {round}");
    }
    state.round = 2;
    state.units[pz].at = Loc::Space("warsaw".into());
    assert_eq!(caps(&state), (printed as u32, 2), "outside the USSR");
}

#[test]
fn rule_5_3_the_allies_win_at_once_holding_every_axis_supply_source_in_germany_after_their_action()
{
    let (rules, mut state) = action_of("allied", 10);
    for s in ["ruhr", "breslau", "berlin"] {
        state.control.insert(s.into(), "allied".into());
    }
    rules::resume(&rules, &mut state);
    rules::apply(&rules, &mut state, "auto_ops").unwrap();
    // Finish the operation without doing anything.
    while state
        .flow
        .prompt
        .as_ref()
        .is_some_and(|p| p.side == "allied" && p.options.contains(&"done".to_string()))
    {
        rules::apply(&rules, &mut state, "done").unwrap();
    }
    let result = state.flow.result.clone().expect("an automatic victory");
    assert_eq!(
        (result.winner.as_str(), result.how.as_str()),
        ("allied", "automatic")
    );
}

#[test]
fn rule_10_3_a_fort_entered_by_the_enemy_is_destroyed_and_13_1_an_intact_one_gives_limited_supply()
{
    use sandtable_engine::rules::supply::{level_at, Level};
    let content = b2b();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    // Sevastopol cut off: every space of the Soviet Union but it is the Axis's.
    for s in &content.graph.spaces {
        if s.id != "sevastopol" && state.control.get(&s.id).is_some_and(|c| c == "allied") {
            state.control.insert(s.id.clone(), "axis".into());
        }
    }
    assert_eq!(
        level_at(content, &state, "sevastopol", "su", "allied"),
        Level::Limited
    );
    // The Axis takes it: the fort is destroyed, and gives nothing any more.
    let (_, after) = german_move("ge_4th_army", "perekop", "sevastopol");
    assert!(after
        .markers
        .iter()
        .any(|m| m.marker == "fort_destroyed" && m.space == "sevastopol"));
    assert!(!sandtable_engine::rules::supply::intact_fort(
        content,
        &after,
        "sevastopol"
    ));
}

#[test]
fn rule_17_3_vichy_france_may_be_entered_only_once_it_is_in_the_war() {
    let content = b2b();
    let (rules, mut state) = campaign();
    let lyon = content.graph.index_of("lyon").unwrap();
    assert!(!state.control.contains_key("lyon"), "Vichy is neutral");
    assert!(!rules::may_enter(&rules, &state, "axis", lyon));
    state.flags.insert("vichy_at_war".into());
    assert!(rules::may_enter(&rules, &state, "axis", lyon));
    assert!(rules::may_enter(&rules, &state, "allied", lyon));
}

#[test]
fn rule_6_c_a_beach_head_no_allied_unit_traces_to_is_removed_and_7_63_one_that_supplies_stays() {
    use sandtable_engine::rules::supply::{marker_needed, unused_marker_sources};
    let content = b2b();
    let (mut state, [one, _, _]) = beach_head_a();
    put_beach_head(&mut state);
    let unused = unused_marker_sources(content, &state, "allied");
    assert_eq!(
        unused,
        vec![("beach_head_br".to_string(), "beach_a".to_string())]
    );
    assert!(!marker_needed(content, &state, "beach_head_br", "beach_a"));
    // A British corps inland, supplied only through the beach head.
    let corps = state
        .units
        .iter()
        .position(|u| u.counter == "br_corps" && u.at == Loc::Unplaced)
        .unwrap();
    state.units[corps].at = Loc::Space(one.clone());
    assert!(unused_marker_sources(content, &state, "allied").is_empty());
    assert!(marker_needed(content, &state, "beach_head_br", "beach_a"));
    assert!(
        unused_marker_sources(content, &state, "axis").is_empty(),
        "not the Axis's to lose"
    );
}

/// The B2B content with regular connections and river crossings costing `extra` movement
/// points more.
fn with_move_cost(extra: f32) -> sandtable_engine::content::Content {
    use sandtable_engine::variant::{self, Setting};
    let source = sandtable_engine::load::DirSource::new(crate::b2b());
    let costly: Vec<Setting> = ["regular", "river"]
        .iter()
        .map(|k| {
            let place = format!("game.ron:/connection_kinds/{k}/move_cost");
            Setting::parse(&format!("{place}={{\"Extra\": {extra:.1}}}")).unwrap()
        })
        .collect();
    let loaded = sandtable_engine::load::load(&variant::apply(&source, &costly).unwrap());
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    loaded.content
}

/// A German unit of 3 MA in Warsaw, activated: whether it is offered a first move, and after
/// that move another.
fn warsaw_moves(content: &sandtable_engine::content::Content) -> (bool, bool) {
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    state.turn = 3;
    let mover = state
        .units_at("warsaw")
        .map(|(i, _)| i)
        .find(|&i| rules.movement(&state.units[i]) == 3)
        .expect("a unit of 3 MA in Warsaw");
    move_stage(&rules, &mut state, "axis", "warsaw");
    let name = state.units[mover].name(content);
    let own_move = |state: &State| {
        state.flow.prompt.as_ref().and_then(|p| {
            p.options
                .iter()
                .find(|o| o.starts_with(&format!("move {name} ")))
                .cloned()
        })
    };
    let Some(first) = own_move(&state) else {
        return (false, false);
    };
    rules::apply(&rules, &mut state, &first).unwrap();
    (true, own_move(&state).is_some())
}

#[test]
fn a_connection_kind_that_costs_more_movement_shortens_moves_but_a_unit_may_always_move_one_space()
{
    // One point a space: three moves.
    assert_eq!(warsaw_moves(b2b()), (true, true));
    // Two points a space: one move, then 1 point left, not enough for another.
    assert_eq!(warsaw_moves(&with_move_cost(1.0)), (true, false));
    // Six points a space, more than the unit has: still one move (7.1.3 of Berlin 1945).
    assert_eq!(warsaw_moves(&with_move_cost(5.0)), (true, false));
}
