//! The effect language's builtins, each run on Barbarossa to Berlin's opening state.

use sandtable_engine::script::check::{check_condition, check_stmts, Names, ScriptKind};
use sandtable_engine::script::eval::{self, Answer, Context, Decision, Outcome};
use sandtable_engine::script::syntax::{parse, parse_expr};
use sandtable_engine::state::{Loc, State};

use crate::cards::{answer, b2b, campaign};

/// The context of an Axis event (Taifun's), for scripts run on their own.
pub(crate) fn axis() -> Context {
    Context {
        me: "axis".into(),
        enemy: "allied".into(),
        card: Some("taifun".into()),
        combat: None,
        space: None,
        names: Vec::new(),
    }
}

/// Checks and runs a script as the Axis; panics on any problem.
fn run(state: &mut State, script: &str, answers: &[Answer]) -> Option<Decision> {
    let parsed = parse(script);
    let mut errors = parsed.errors.clone();
    errors.extend(check_stmts(
        &parsed.stmts,
        ScriptKind::Event,
        &Names::from_content(b2b()),
    ));
    assert!(errors.is_empty(), "{script}: {errors:?}");
    match eval::run(&parsed.stmts, b2b(), state, &axis(), answers).unwrap() {
        (Outcome::Done, _) => None,
        (Outcome::Asks(d), _) => Some(d),
    }
}

fn holds(state: &State, condition: &str) -> bool {
    let (expr, mut errors) = parse_expr(condition);
    let expr = expr.expect("an expression");
    errors.extend(check_condition(&expr, &Names::from_content(b2b())));
    assert!(errors.is_empty(), "{condition}: {errors:?}");
    eval::condition(&expr, b2b(), state, &axis()).unwrap()
}

#[test]
fn queries_read_the_opening_state() {
    let s = campaign();
    assert!(holds(
        &s,
        "turn() == 1 and round() == 1 and season() == summer and year() == 1941"
    ));
    assert!(holds(
        &s,
        "track(vp) == 7 and not flag(us_at_war) and not played(taifun)"
    ));
    assert!(holds(
        &s,
        "controls(axis, warsaw) and controls(allied, moscow) and neutral(stockholm)"
    ));
    assert!(holds(
        &s,
        "controller(tobruk) == allied and adjacent(kaunas, dvinsk) and not adjacent(kaunas, pskov)"
    ));
    assert!(holds(
        &s,
        "has_marker(moscow, stalin) and has_marker(lwow, trench)"
    ));
    assert!(holds(
        &s,
        "count(units(in: memel)) == 3 and count(units(nation: su, box: allied_reserve)) == 5"
    ));
    assert!(holds(&s, "count(units(side: allied, in: yassi)) == 0 and exists(units(counter: ge_11th_army, reduced: true))"));
    assert!(holds(
        &s,
        "all(units(in: warsaw), |u| u.nation == ge) and any(units(in: lwow), |u| u.ma >= 4)"
    ));
    assert!(holds(&s, "contains(spaces(country: romania), bucharest) and not contains(spaces(country: romania), sofia)"));
    assert!(holds(
        &s,
        "count(filter(spaces(region: greater_germany), |x| x.vp > 0)) > 0"
    ));
    assert!(holds(
        &s,
        "available(su_don_front) == 1 and available(ge_16th_army) == 0 and hand_size(axis) == 7"
    ));
    assert!(holds(
        &s,
        "min(2, 3) == 2 and max(2, 3) == 3 and 7 / 2 == 3 and -(2 - 5) == 3"
    ));
    assert!(holds(&s, "lookup(winter_vp_requirement, number: 4) == 5 and lookup(axis_orders, roll: 6, drm: 2) == \"hitler_orders\""));
}

#[test]
fn in_supply_traces_through_friendly_spaces_to_a_source() {
    let mut s = campaign();
    assert!(holds(
        &s,
        "all(units(in: warsaw), |u| in_supply(u) and full_supply(u))"
    ));
    // Cut Warsaw off: every neighbour Allied.
    let g = &b2b().graph;
    for n in g.neighbour_ids("warsaw") {
        s.control.insert(n.into(), "allied".into());
    }
    assert!(holds(&s, "not any(units(in: warsaw), |u| in_supply(u))"));
}

#[test]
fn effects_change_tracks_flags_control_and_markers() {
    let mut s = campaign();
    run(&mut s, "add(vp, 5)\nadd(axis_hand, 10)\nset_flag(us_at_war)\ncontrol(stockholm, axis)\nplace_marker(trench, bialystok)", &[]);
    assert_eq!(
        (s.track("vp"), s.track("axis_hand")),
        (12, 8),
        "tracks stay within their bounds"
    );
    assert!(
        s.flags.contains("us_at_war")
            && s.control.get("stockholm").map(|x| x.as_str()) == Some("axis")
    );
    let trench = s
        .markers
        .iter()
        .find(|m| m.marker == "trench" && m.space == "bialystok")
        .unwrap();
    assert_eq!(trench.level, 2, "a second trench raises the level");
    run(
        &mut s,
        "remove_marker(stalin, moscow)\nclear_flag(us_at_war)\nset(vp, 3)",
        &[],
    );
    assert!(
        !s.markers.iter().any(|m| m.marker == "stalin")
            && !s.flags.contains("us_at_war")
            && s.track("vp") == 3
    );
}

#[test]
fn timed_flags_and_modifiers_end_with_their_duration() {
    let mut s = campaign();
    run(&mut s, "set_flag(moscow_attackable, until: end_of_turn)\ndrm(+1, until: end_of_round)\nshift(-1, fire: allied, until: until_cancelled)", &[]);
    s.end("end_of_round");
    assert!(s.flags.contains("moscow_attackable") && s.modifiers.len() == 1);
    s.end("end_of_turn");
    assert!(!s.flags.contains("moscow_attackable") && s.modifiers.len() == 1);
    assert_eq!(
        s.modifiers[0].side, "allied",
        "fire: names whose fire shifts"
    );
    s.cancel_effects("taifun");
    assert!(s.modifiers.is_empty());
}

#[test]
fn units_are_placed_moved_reduced_replaced_and_eliminated() {
    let mut s = campaign();
    run(
        &mut s,
        "place(su_don_front, moscow)\nplace(su_army, allied_reserve, count: 2, reduced: true)",
        &[],
    );
    assert_eq!(
        crate::cards::units_of(&s, "su_don_front", "moscow").len(),
        1
    );
    assert_eq!(
        s.units
            .iter()
            .filter(|u| u.counter == "su_army" && u.at == Loc::Box("allied_reserve".into()))
            .count(),
        7
    );
    run(&mut s, "for u in units(in: riga) { reduce(u) }", &[]);
    let riga = crate::cards::units_of(&s, "su_army", "riga");
    assert!(s.units[riga[0]].reduced);
    run(&mut s, "for u in units(in: riga) { reduce(u) }", &[]);
    assert!(
        crate::cards::units_of(&s, "su_army", "riga").is_empty(),
        "a reduced unit that loses a step is eliminated"
    );
    assert_eq!(s.units[riga[0]].at, Loc::Box("allied_eliminated".into()));
    run(&mut s, "for u in units(in: gomel) { replace(u, su_bryansk_front) }\nfor u in units(in: vitebsk) { move(u, pskov) }", &[]);
    assert_eq!(
        crate::cards::units_of(&s, "su_bryansk_front", "gomel").len(),
        1
    );
    assert_eq!(crate::cards::units_of(&s, "su_army", "pskov").len(), 1);
    let err = eval::run(
        &parse("place(ge_16th_army, berlin)").stmts,
        b2b(),
        &mut s,
        &axis(),
        &[],
    )
    .unwrap_err();
    assert!(err.message.contains("no piece"), "{}", err.message);
}

#[test]
fn decisions_ask_once_and_replay_from_answers() {
    let mut s = campaign();
    let d = run(
        &mut s,
        "for x in choose_up_to(2, [warsaw, lublin, memel]) { control(x, allied) }",
        &[],
    )
    .unwrap();
    assert_eq!((d.min, d.max, d.options.len()), (0, 2, 3));
    run(
        &mut s,
        "for x in choose_up_to(2, [warsaw, lublin, memel]) { control(x, allied) }",
        &[answer(&["memel"])],
    );
    assert!(s.control["memel"] == "allied" && s.control["warsaw"] == "axis");
    let d = run(
        &mut s,
        "if ask(\"Blow the bridges?\", by: allied) { add(vp, 1) }",
        &[],
    )
    .unwrap();
    assert_eq!(
        (d.by.as_str(), d.options.clone()),
        ("allied", vec!["yes".to_string(), "no".to_string()])
    );
    run(
        &mut s,
        "if ask(\"Blow the bridges?\", by: allied) { add(vp, 1) }",
        &[answer(&["yes"])],
    );
    assert_eq!(s.track("vp"), 8);
    // Nothing to ask when the set holds no more than must be chosen.
    assert_eq!(
        run(
            &mut s,
            "place_markers(combat, choose(4, [warsaw, lublin]))",
            &[]
        ),
        None
    );
}

#[test]
fn cards_are_drawn_discarded_revealed_and_taken() {
    let mut s = campaign();
    let before = s.hands["allied"].len();
    run(&mut s, "draw(allied, 2)\ndiscard_random(axis, 1)\nreveal_hand(axis)\ntake_card(totaler_krieg, axis)", &[]);
    assert_eq!(s.hands["allied"].len(), before + 2);
    assert_eq!(s.hands["axis"].len(), 7 - 1 + 1);
    assert!(s.revealed.contains("axis") && s.hands["axis"].contains(&"totaler_krieg".to_string()));
}

#[test]
fn dice_are_seeded_and_forced_results_come_first() {
    let mut a = campaign();
    let mut b = campaign();
    run(&mut a, "add(vp, roll())\nadd(vp, roll())", &[]);
    run(&mut b, "add(vp, roll())\nadd(vp, roll())", &[]);
    assert_eq!(a, b, "the same seed rolls the same");
    let mut c = campaign();
    c.forced_dice = vec![6, 1];
    run(&mut c, "add(vp, roll())\nadd(vp, -roll())", &[]);
    assert_eq!(c.track("vp"), 7 + 6 - 1);
}

#[test]
fn a_script_that_loops_too_long_stops_with_an_error() {
    let mut s = campaign();
    let script = "for a in spaces() { for b in spaces() { add(vp, 0) } }";
    let parsed = parse(script);
    let err = eval::run(&parsed.stmts, b2b(), &mut s, &axis(), &[]).unwrap_err();
    assert!(err.message.contains("steps"), "{}", err.message);
}

#[test]
fn union_features_and_supply_at_a_space() {
    let s = campaign();
    assert!(holds(
        &s,
        "count(union([warsaw, lublin], [lublin, memel])) == 3"
    ));
    assert!(holds(
        &s,
        "has_feature(moscow, urban) and not has_feature(pinsk, oil)"
    ));
    assert!(holds(&s, "full_supply_at(moscow, su) and not full_supply_at(moscow, ge) and full_supply_at(berlin, ge)"));
}

#[test]
fn choosing_none_gives_nothing_and_asks_nothing() {
    let mut s = campaign();
    assert_eq!(run(&mut s, "place_markers(combat, choose(0, [warsaw, lublin]))\nplace_markers(combat, choose_up_to(0, [memel]))", &[]), None);
    assert!(!s.markers.iter().any(|m| m.marker == "combat"));
}

#[test]
fn a_flag_set_for_good_outlives_a_timed_setting() {
    let mut s = campaign();
    run(&mut s, "set_flag(us_at_war)\nset_flag(us_at_war, until: end_of_round)\nset_flag(moscow_attackable, until: end_of_round)\nset_flag(moscow_attackable)", &[]);
    s.end("end_of_turn");
    assert!(s.flags.contains("us_at_war") && s.flags.contains("moscow_attackable"));
}

#[test]
fn units_of_a_space_asked_many_times_follow_the_moves_the_script_makes() {
    // Asked often enough to be answered from an index of the pieces by space; the index is of
    // the state as given, so a script that moved a unit reads the units where they are now.
    let mut s = campaign();
    let script = "
let before = count(units(in: vitebsk)) + count(units(in: pskov)) + count(units(in: riga))
let again = count(units(in: vitebsk)) + count(units(in: pskov)) + count(units(in: riga))
if before == again and count(units(in: pskov)) == 0 {
    for u in units(in: vitebsk) { move(u, pskov) }
    if count(units(in: vitebsk)) == 0 and count(units(in: pskov)) == 1 {
        set_flag(us_at_war)
    }
}";
    run(&mut s, script, &[]);
    assert!(
        holds(&s, "flag(us_at_war)"),
        "the units read after the move"
    );
    assert_eq!(crate::cards::units_of(&s, "su_army", "pskov").len(), 1);
}

#[test]
fn the_spaces_next_to_a_space_are_its_neighbours_in_order_with_the_other_filters() {
    // `spaces(adjacent_to: x)` walks only x's neighbours: the same set, in the same order, as
    // testing every space of the map with `adjacent`, whatever other filters are given.
    let s = campaign();
    for (space, more) in [
        ("kaunas", ""),
        ("warsaw", ", occupied_by: axis"),
        ("lwow", ", controlled_by: allied"),
        ("moscow", ", empty: true"),
        ("bucharest", ", country: romania"),
    ] {
        let near = format!("spaces(adjacent_to: {space}{more})");
        let every = format!(
            "filter(spaces({}), |t| adjacent(t, {space}))",
            &more.trim_start_matches(", ")
        );
        assert!(holds(&s, &format!("{near} == {every}")), "{near}");
    }
    assert!(holds(&s, "not contains(spaces(adjacent_to: kaunas), kaunas) and contains(spaces(adjacent_to: kaunas), dvinsk)"));
}

#[test]
fn spaces_next_to_a_set_or_holding_some_units_are_the_sets_a_test_of_every_space_finds() {
    // `spaces(next_to: set)` is the spaces next to any member of the set (adjacency goes both
    // ways), `spaces(holding: units)` the spaces where any of the units stands: the same sets,
    // in the same order, as a test of every space finds, with other filters too; the Orders
    // Phase (8.4, 8.5) is written with them.
    let s = campaign();
    let same = [
        (
            "spaces(next_to: [kaunas, warsaw])",
            "filter(spaces(), |t| adjacent(t, kaunas) or adjacent(t, warsaw))",
        ),
        (
            "spaces(next_to: spaces(occupied_by: axis), controlled_by: allied)",
            "filter(spaces(controlled_by: allied), |t| any(spaces(adjacent_to: t), |x| contains(spaces(occupied_by: axis), x)))",
        ),
        (
            "spaces(holding: units(nation: su))",
            "filter(spaces(), |t| any(units(in: t), |u| u.nation == su))",
        ),
        (
            "spaces(holding: filter(units(side: axis), |u| in_supply(u)))",
            "filter(spaces(occupied_by: axis), |t| any(units(in: t, side: axis), |u| in_supply(u)))",
        ),
        (
            "spaces(occupied_by: allied, holding: units(nation: su), next_to: spaces(occupied_by: axis))",
            "filter(spaces(occupied_by: allied), |t| any(units(in: t), |u| u.nation == su) and any(spaces(adjacent_to: t), |x| contains(spaces(occupied_by: axis), x)))",
        ),
        (
            "spaces(next_to: filter(spaces(), |t| false), holding: units())",
            "filter(spaces(), |t| false)",
        ),
    ];
    for (short, long) in same {
        assert!(holds(&s, &format!("{short} == {long}")), "{short}");
    }
    // Not empty at the opening, so the comparisons above compare something.
    assert!(holds(
        &s,
        "count(spaces(occupied_by: allied, holding: units(nation: su), next_to: spaces(occupied_by: axis))) > 3"
    ));
    assert!(holds(&s, "contains(spaces(next_to: [kaunas]), dvinsk) and not contains(spaces(next_to: [kaunas]), kaunas)"));
}

#[test]
fn the_units_of_a_space_read_through_the_kept_index_follow_every_move_and_keep_their_order() {
    // The pieces keep an index of themselves by space, brought up to date after a change by
    // moving only the pieces whose space changed: after any run of moves (onto the map, off
    // it, back where a piece was) each space's units are those a look at every piece finds,
    // in the pieces' order; a copy taken before the moves keeps the units as they were.
    let mut s = campaign();
    let scanned = |s: &State, space: &str| -> Vec<usize> {
        s.units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.at == Loc::Space(space.into()))
            .map(|(i, _)| i)
            .collect()
    };
    let at = |s: &State, space: &str| -> Vec<usize> { s.units_at(space).map(|(i, _)| i).collect() };
    let spaces = ["vitebsk", "pskov", "riga", "lwow", "moscow"];
    let before: Vec<Vec<usize>> = spaces.iter().map(|x| at(&s, x)).collect();
    assert!(!before[0].is_empty());
    let copy = s.clone();
    let (n, mut moved) = (s.units.len(), 0);
    for step in 0..200usize {
        let u = step * 37 % n;
        s.units[u].at = match step % 7 {
            0 => Loc::Removed,
            1 => Loc::Unplaced,
            k => Loc::Space(spaces[k % spaces.len()].into()),
        };
        // Read now and then, so that some changes are brought up to date together.
        if step % 3 == 0 {
            for space in spaces {
                assert_eq!(
                    at(&s, space),
                    scanned(&s, space),
                    "{space} after step {step}"
                );
                // Asked by the space's id, found by its address alone: the same units.
                assert_eq!(s.units.on_id(space.into()), scanned(&s, space).as_slice());
                moved += 1;
            }
        }
    }
    assert!(moved > 0);
    for (space, was) in spaces.iter().zip(&before) {
        assert_eq!(&at(&copy, space), was, "the copy keeps {space} as it was");
        assert_eq!(at(&copy, space), scanned(&copy, space));
    }
    let first = s.units[0].clone();
    s.units.push(first);
    assert_eq!(at(&s, "riga"), scanned(&s, "riga"), "a piece added");
}

#[test]
fn the_control_table_by_space_index_follows_every_change_of_control() {
    // The rules read control by a space's graph index from a table made when first asked for
    // after a change: after every change it gives what the control table gives, a copy taken
    // before keeps the control it had, and another copy of the content gets a table of its own.
    let content = b2b();
    let mut s = campaign();
    let spaces = &content.graph.spaces;
    let agrees = |s: &State| {
        let holders = s.control.by_index(content);
        assert_eq!(holders.len(), spaces.len());
        spaces
            .iter()
            .enumerate()
            .all(|(i, sp)| holders[i] == s.control.get(&sp.id).copied())
    };
    assert!(agrees(&s));
    let copy = s.clone();
    let (axis, allied) = ("axis".into(), "allied".into());
    let mut changed = 0;
    for (k, sp) in spaces.iter().enumerate().step_by(7) {
        match k % 3 {
            0 => s.control.insert(sp.id, axis),
            1 => s.control.insert(sp.id, allied),
            _ => s.control.remove(&sp.id),
        };
        assert!(agrees(&s), "after changing {}", sp.id);
        changed += 1;
    }
    assert!(changed > 10);
    assert!(agrees(&copy));
    assert_ne!(copy.control, s.control);
    let other = content.clone();
    let holders = s.control.by_index(&other);
    assert!(spaces
        .iter()
        .enumerate()
        .all(|(i, sp)| holders[i] == s.control.get(&sp.id).copied()));
}

#[test]
fn the_spaces_of_a_country_a_side_controls_are_those_the_map_and_the_control_table_give() {
    // `spaces(country: r)` reads a table of each region's spaces made once per content, and
    // `controlled_by` asks the control table of each space that passed the other filters: the
    // same sets as the map's countries (a space's country, or one directly within r) and the
    // control table give.
    let s = campaign();
    let content = b2b();
    let regions = &content.game.as_ref().unwrap().regions;
    let within = |country: Option<&str>, r: &str| {
        country.is_some_and(|c| {
            regions
                .iter()
                .any(|x| x.id == c && x.within.iter().any(|w| w == r))
        })
    };
    let mut checked = 0;
    for r in regions {
        for side in ["axis", "allied"] {
            let mut expected: Vec<&str> = content
                .graph
                .spaces
                .iter()
                .filter(|x| {
                    let country = x.country.as_deref();
                    (country == Some(r.id.as_str()) || within(country, &r.id))
                        && s.control.get(x.id.as_str()).is_some_and(|h| h == side)
                })
                .map(|x| x.id.as_str())
                .collect();
            expected.sort_unstable();
            let listed = expected.join(", ");
            let condition = format!(
                "spaces(country: {}, controlled_by: {side}) == [{listed}]",
                r.id
            );
            assert!(holds(&s, &condition), "{condition}");
            checked += usize::from(!expected.is_empty());
        }
    }
    assert!(checked > 5, "some countries are held at the start");
}

#[test]
fn a_state_whose_tasks_hold_shared_sets_may_go_to_another_thread_and_be_shared() {
    // A set value is shared between its names; the state that holds values (a task's script
    // context) is still `Send` and `Sync`: batches hand games to threads, the fuzz targets
    // keep a state in a static.
    fn send_and_sync<T: Send + Sync>() {}
    send_and_sync::<State>();
    send_and_sync::<sandtable_engine::script::eval::Value>();
    let s = campaign();
    let moved = std::thread::spawn(move || s.units.len()).join().unwrap();
    assert_eq!(moved, campaign().units.len());
}

#[test]
fn sets_of_spaces_kept_for_the_stamps_of_control_and_of_the_pieces_are_those_of_each_state() {
    // `spaces(...)` with filters of the map, of control and of where the pieces stand keeps its
    // set while the table of control and the pieces keep their stamps. At every state of a
    // random campaign's first 300 actions (control and the pieces change as it goes), each set
    // holds the spaces its filters name, as counted from the state and tested member by member.
    use sandtable_engine::agent::RandomAgent;
    use sandtable_engine::rules::{act, start, Rules};
    use sandtable_engine::state::space_in_region;
    let content = b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = start(&rules, 3, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(3);
    let g = &content.graph;
    let (mut checked, mut counts) = (0, std::collections::BTreeSet::new());
    while let Some(prompt) = &state.flow.prompt {
        if checked >= 300 {
            break;
        }
        let action = agent.act(prompt);
        act(&rules, &mut state, &action).unwrap();
        checked += 1;
        let holds_side = |space: &sandtable_engine::Id, side: &str| {
            state
                .units
                .iter()
                .any(|u| u.at == Loc::Space(*space) && u.side(content).as_str() == side)
        };
        let controlled = |side: &str| {
            (g.spaces.iter())
                .filter(|s| state.control.get(&s.id).is_some_and(|c| c.as_str() == side))
                .count()
        };
        let sets = [
            ("spaces()", "true", g.spaces.len()),
            (
                "spaces(controlled_by: axis)",
                "controls(axis, s)",
                controlled("axis"),
            ),
            (
                "spaces(controlled_by: allied)",
                "controls(allied, s)",
                controlled("allied"),
            ),
            (
                "spaces(occupied_by: allied)",
                "exists(units(in: s, side: allied))",
                g.spaces
                    .iter()
                    .filter(|s| holds_side(&s.id, "allied"))
                    .count(),
            ),
            (
                "spaces(empty: true)",
                "not exists(units(in: s))",
                (g.spaces.iter())
                    .filter(|s| !state.units.iter().any(|u| u.at == Loc::Space(s.id)))
                    .count(),
            ),
            (
                "spaces(region: soviet_union, controlled_by: axis)",
                "controls(axis, s) and contains(spaces(region: soviet_union), s)",
                (g.spaces.iter())
                    .filter(|s| space_in_region(content, &s.id, "soviet_union"))
                    .filter(|s| {
                        state
                            .control
                            .get(&s.id)
                            .is_some_and(|c| c.as_str() == "axis")
                    })
                    .count(),
            ),
        ];
        for (set, test, count) in sets {
            let condition = format!("count({set}) == {count} and all({set}, |s| {test})");
            assert!(
                holds(&state, &condition),
                "action {checked} `{action}`: {set}"
            );
            counts.insert((set, count));
        }
    }
    assert_eq!(checked, 300);
    // Control and the pieces changed along the way: the sets were asked of different states.
    assert!(counts.len() > 12, "{counts:?}");
}

#[test]
fn exists_of_a_filter_stops_at_the_first_member_that_passes_only_when_its_test_only_reads() {
    let s = campaign();
    // A test that only reads: `exists(filter(...))` says what `any` says.
    for (set, test) in [
        ("spaces(region: soviet_union)", "controls(axis, s)"),
        ("spaces(region: soviet_union)", "controls(allied, s)"),
        ("spaces(occupied_by: axis)", "s == moscow"),
        (
            "spaces(occupied_by: axis)",
            "any(units(in: s), |u| u.nation == ge)",
        ),
    ] {
        assert_eq!(
            holds(&s, &format!("exists(filter({set}, |s| {test}))")),
            holds(&s, &format!("any({set}, |s| {test})")),
            "{set}, {test}"
        );
    }
    // A test that rolls a die is run on every member, as `count(filter(...))` runs it: the
    // dice go on as far, and further than when `any` stops at the first member that passes.
    let after = |script: &str| {
        let mut state = campaign();
        run(&mut state, script, &[]);
        state
    };
    let rolled = "spaces(region: soviet_union), |s| roll() > 0";
    let exists = after(&format!("let x = exists(filter({rolled}))"));
    assert_eq!(
        exists,
        after(&format!("let x = count(filter({rolled})) > 0"))
    );
    assert_ne!(exists, after(&format!("let x = any({rolled})")));
}

#[test]
fn names_and_calls_are_resolved_once_when_the_script_checks() {
    use sandtable_engine::script::syntax::{Binding, ExprKind};
    use sandtable_engine::script::types::BUILTINS;
    let (expr, errors) = parse_expr("controls(axis, warsaw)");
    let expr = expr.expect("an expression");
    assert!(errors.is_empty());
    let ExprKind::Call { args, .. } = &expr.kind else {
        panic!("a call")
    };
    // Nothing is resolved before the script checks.
    assert_eq!(expr.found.get(), None);
    assert_eq!(args[1].value.found.get(), None);
    let errors = check_condition(&expr, &Names::from_content(b2b()));
    assert!(errors.is_empty(), "{errors:?}");
    let Some(Binding::Builtin(i)) = expr.found.get() else {
        panic!("the call's builtin is kept: {:?}", expr.found)
    };
    assert_eq!(BUILTINS[usize::from(i)].name, "controls");
    assert_eq!(
        args[0].value.found.get(),
        Some(Binding::Content { space: false })
    );
    assert_eq!(
        args[1].value.found.get(),
        Some(Binding::Content { space: true })
    );
    let s = campaign();
    assert!(eval::condition(&expr, b2b(), &s, &axis()).unwrap());
    // A name the context gives at run time is the context's, as before the checker kept
    // anything: here `warsaw` stands for Moscow, which the Axis does not hold.
    let mut ctx = axis();
    ctx.names.push((
        "warsaw".into(),
        eval::Value::Id(
            sandtable_engine::script::types::Kind::Space,
            "moscow".into(),
        ),
    ));
    assert!(!eval::condition(&expr, b2b(), &s, &ctx).unwrap());
}

#[test]
fn a_variable_named_as_a_content_id_is_the_variable_where_it_is_in_scope() {
    let s = campaign();
    // `moscow` is a space of the map; inside the test it is the test's parameter.
    assert!(holds(
        &s,
        "controls(axis, warsaw) and any([warsaw], |moscow| controls(axis, moscow))"
    ));
    assert!(!holds(&s, "any([moscow], |warsaw| controls(axis, warsaw))"));
}
