//! The sequence of play: the first turn (4.4), victory and Stalin (5.2, 5.3, 5.5: his capture
//! and his moves by SR), and the orders of 8: OKW offensives (8.2) and Stand Fast (8.4).

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::rules::{self, Rules};
use sandtable_engine::script::eval::{self, Outcome};
use sandtable_engine::session::Session;
use sandtable_engine::state::{Loc, State};

use super::{
    action_of, action_phase, campaign, german_move, marker, run_sequence_script, sequence_script,
    setup, side_ctx,
};
use crate::cards::b2b;

/// Answers the turn-1 Orders (4.4): the Axis player's three Stand Fast markers, after his
/// choice of Barbarossa for his hand (4.3).
fn past_turn_1_orders(s: &mut Session) {
    if s.prompt().is_some_and(|p| p.kind == "start_card") {
        s.apply(b2b(), "take barbarossa").unwrap();
    }
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("axis", "decision"));
    assert_eq!(p.pick, Some((3, 3)));
    let options = p.options();
    let picks: Vec<&str> = options.iter().take(3).map(String::as_str).collect();
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
        p.options()
            .iter()
            .any(|o| o == "brest_litovsk" || o == "kaunas"),
        "{:?}",
        p.options()
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
    assert!(p.options().contains(&"event barbarossa".to_string()));
    assert!(
        p.options()
            .iter()
            .all(|o| o == "event barbarossa" || o == "event von_paulus_pause"),
        "{:?}",
        p.options()
    );
}

#[test]
fn rule_4_4_turn_1_has_one_round_each_and_the_allies_may_not_play_replacements() {
    let mut s = Session::new(b2b(), setup(3)).unwrap();
    let mut agent = RandomAgent::new(3);
    // Play the Axis round through.
    while s.prompt().is_some_and(|p| p.side == "axis") {
        let a = agent.act(&s.prompt().cloned().unwrap());
        s.apply(b2b(), &a.to_string()).unwrap();
    }
    let p = s.prompt().unwrap().clone();
    assert_eq!((p.side.as_str(), p.kind.as_str()), ("allied", "action"));
    assert!(
        !p.options().iter().any(|o| o.starts_with("rp ")),
        "{:?}",
        p.options()
    );
    // After the Allied round, the turn goes on to the later phases, not to a second round.
    while s.state().turn == 1 && s.state().round == 1 && s.prompt().is_some() {
        let a = agent.act(&s.prompt().cloned().unwrap());
        s.apply(b2b(), &a.to_string()).unwrap();
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
        .map(|s| s.id.to_string())
        .collect();
    assert!(targets.len() > n);
    for (i, s) in targets.iter().enumerate() {
        let side = if i < n { "axis" } else { "allied" };
        state.control.insert(s.as_str().into(), side.into());
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
        kept: Default::default(),
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
fn rule_5_5_the_axis_taking_stalins_space_eliminates_him_for_4_vp() {
    let (before, after) = german_move("ge_4th_army", "mozhaik", "moscow");
    let moscow_vp = i64::from(b2b().graph.space("moscow").unwrap().vp);
    assert!(before.markers.iter().any(|m| m.marker == "stalin"));
    assert!(!after.markers.iter().any(|m| m.marker == "stalin"));
    assert_eq!(after.track("vp"), before.track("vp") + moscow_vp + 4);
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
        p.options(),
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
        p.options().contains(&"to moscow".to_string()),
        "{:?}",
        p.options()
    );
    assert!(!p.options().contains(&"to cairo".to_string()));
    // Every space of the Soviet Union the Allies control, but the one Stalin stands on: the
    // condition is asked only of the country it names (`space.country == soviet_union`).
    let g = &b2b().graph;
    let expected: Vec<String> = (g.spaces.iter())
        .filter(|s| s.country.as_deref() == Some("soviet_union") && s.id != "kuibishev")
        .filter(|s| {
            state
                .control
                .get(s.id.as_str())
                .is_some_and(|c| c == "allied")
        })
        .map(|s| format!("to {}", s.id))
        .chain(["back".to_string()])
        .collect();
    assert!(expected.len() > 10, "{expected:?}");
    assert_eq!(p.options(), expected);
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
        .is_some_and(|p| p.side == "allied" && p.options().contains(&"done".to_string()))
    {
        rules::apply(&rules, &mut state, "done").unwrap();
    }
    let result = state.flow.result.clone().expect("an automatic victory");
    assert_eq!(
        (result.winner.as_str(), result.how.as_str()),
        ("allied", "automatic")
    );
}

/// 8.3: a Soviet (roll 3) or Western (roll 6) Mandated Offensive is owed only when a unit of
/// its nations stands next to a space the Axis controls; with none, it is treated as None.
#[test]
fn rule_8_3_a_mandated_offensive_is_owed_only_next_to_an_axis_controlled_space() {
    let content = b2b();
    let start = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let g = &content.graph;
    let axis_next_to = |i: usize| {
        g.neighbours(i).iter().any(|&(n, _)| {
            start
                .control
                .get(&*g.spaces[n].id)
                .is_some_and(|s| s == "axis")
        })
    };
    let allied = |i: usize| {
        start
            .control
            .get(&*g.spaces[i].id)
            .is_some_and(|s| s == "allied")
    };
    let front = (0..g.spaces.len()).find(|&i| allied(i) && axis_next_to(i));
    let rear =
        (0..g.spaces.len()).find(|&i| allied(i) && !axis_next_to(i) && !g.neighbours(i).is_empty());
    let (front, rear) = (front.expect("a front"), rear.expect("a rear"));
    for (roll, nation, flag) in [(3, "su", "soviet_offensive"), (6, "br", "allied_offensive")] {
        for (at, owed) in [(front, true), (rear, false)] {
            let mut state = start.clone();
            state.turn = 2;
            for u in state.units.iter_mut() {
                u.at = Loc::Unplaced;
            }
            let unit = (0..state.units.len())
                .find(|&i| {
                    content
                        .counter_of(&state.units[i])
                        .is_some_and(|c| c.nation == nation)
                })
                .expect("a unit of the nation");
            state.units[unit].at = Loc::Space(g.spaces[at].id);
            state.forced_dice = vec![roll];
            run_sequence_script(&mut state, "allied", "result == \"soviet_offensive\"");
            assert_eq!(
                state.flags.contains(flag),
                owed,
                "{flag} with the {nation} unit on {}",
                g.spaces[at].id
            );
        }
    }
}
