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
fn a_hook_is_remembered_only_when_it_reads_the_units_counter_the_spaces_flags_the_turn_cards_played_and_control(
) {
    for pure in [
        "u.type == armor and (to.terrain == rough or connected_by(from, to, river))",
        "not flag(frozen) and season() == winter and in_region(to, finnish_reach)",
        "has_feature(defending_space, city) and u.attack >= 3 and min(value, 2) == 2",
        // The map's spaces by region, country, terrain, feature or neighbour are the content's.
        "contains(spaces(region: wehrkreis), space) and not has_feature(space, urban)",
        "count(union(spaces(country: turkey), spaces(adjacent_to: to))) > 2",
        // A marker named on a space named: whether it lies there is a word of the key.
        "has_marker(space, beach_head_allied) and u.nation == ge",
        // Cards played (B2B 19.6's Tito, 7.63's invasions): whether, this turn, on which turn.
        "played(tito) and u.nation == su and space.country == yugoslavia",
        "turn() > turn_played(us_build_up) and not played_this_turn(torch)",
        // Control, of a space named or of the map (its table's stamp is a word of the key).
        "controls(me, to)",
        "not exists(spaces(region: greater_germany, controlled_by: allied))",
    ] {
        assert!(remembered(pure), "{pure}");
    }
    for dynamic in [
        "count(units(in: to)) > 1",
        "any(attackers, |a| a.nation == ge)",
        "track(axis_vp) > 3",
        "out_of_supply(u)",
        "controls(me, u.space)",
        "exists(spaces(occupied_by: me, region: wehrkreis))",
        "has_marker(u.space, trench)",
    ] {
        assert!(!remembered(dynamic), "{dynamic}");
    }
}

#[test]
fn a_chain_of_ands_is_remembered_by_its_longest_first_part_that_can_be() {
    use sandtable_engine::script::reads::{memo, Memo};
    let (expr, _) = parse_expr(
        "u.nation == su and u.size == lcu and count(units(in: moscow)) > 2 and turn() > 2",
    );
    match memo(&expr.unwrap()) {
        // `(u.nation == su and u.size == lcu)`, two steps down the left side.
        Some(Memo::Guard { depth: 2, reads }) => assert!(
            matches!(&reads[0], Read::Name { name, fields, whole: false } if name == "u" && fields == &["nation", "size"]),
            "{reads:?}"
        ),
        other => panic!("{other:?}"),
    }
    let (expr, _) = parse_expr("count(units(in: moscow)) > 2 and u.nation == su");
    assert_eq!(memo(&expr.unwrap()), None);
    // A unit read through its space reads more than its counter fixes: no key holds it.
    let (expr, _) = parse_expr("u.nation == su and u.space == moscow");
    match memo(&expr.unwrap()) {
        Some(Memo::Whole(reads)) => assert!(
            matches!(&reads[0], Read::Name { name, whole: true, .. } if name == "u"),
            "{reads:?}"
        ),
        other => panic!("{other:?}"),
    }
}

/// The first `actions` of a seeded random game: each prompt's options and the state after
/// each action.
pub(crate) fn trace(content: &Content, scenario: &str, seed: u64, actions: usize) -> Vec<String> {
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

#[test]
fn supply_levels_and_views_kept_from_prompt_to_prompt_are_those_made_anew() {
    // Barbarossa to Berlin asks supply at nearly every prompt (activation costs, SR, moves), so
    // the levels kept come from earlier states of the same game: at every state of a campaign's
    // first turns, every nation's levels for each side are the ones a new trace gives. A side's
    // view of the map is made from its last one when only a few pieces changed: it is the view
    // made anew.
    use sandtable_engine::rules::supply::{levels, view_kept, without_kept, SideView};
    let content = crate::cards::b2b();
    let game = content.game.as_ref().unwrap();
    let rules = sandtable_engine::rules::Rules::new(content, "campaign").unwrap();
    let mut state = sandtable_engine::rules::start(&rules, 7, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(7);
    let mut checked = 0;
    while let Some(prompt) = &state.flow.prompt {
        if checked >= 300 {
            break;
        }
        let action = agent.act(prompt);
        sandtable_engine::rules::act(&rules, &mut state, &action).unwrap();
        checked += 1;
        for side in &game.sides {
            assert!(
                *view_kept(content, &state, &side.id) == SideView::new(content, &state, &side.id),
                "action {checked} `{action}`: the view of {}",
                side.id
            );
            for nation in &game.nations {
                let kept = levels(content, &state, &nation.id, &side.id);
                let traced = without_kept(|| levels(content, &state, &nation.id, &side.id));
                assert!(
                    kept == traced,
                    "action {checked} `{action}`: {} for {}",
                    nation.id,
                    side.id
                );
            }
        }
    }
    assert_eq!(checked, 300);
}

#[test]
fn activation_costs_kept_from_one_activate_prompt_to_the_next_are_those_worked_out_anew() {
    // B2B 7.3: after a space is activated, the next Activate prompt of the same operations
    // keeps the other spaces' costs (no hook of B2B reads the activation markers). At every
    // such prompt of a campaign's first turns, the options are those worked out afresh.
    use sandtable_engine::rules::{KeptCosts, OpsStage, Task};
    let content = crate::cards::b2b();
    let rules = sandtable_engine::rules::Rules::new(content, "campaign").unwrap();
    let mut state = sandtable_engine::rules::start(&rules, 11, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(11);
    let (mut actions, mut checked) = (0, 0);
    while let Some(prompt) = &state.flow.prompt {
        if actions >= 1500 {
            break;
        }
        let action = agent.act(prompt);
        sandtable_engine::rules::act(&rules, &mut state, &action).unwrap();
        actions += 1;
        let activating = matches!(
            state.flow.tasks.last(),
            Some(Task::Ops {
                stage: OpsStage::Activate,
                ..
            })
        );
        if action.verb() != "activate" || !activating || state.flow.prompt.is_none() {
            continue;
        }
        let mut anew = state.clone();
        if let Some(Task::Ops { kept, .. }) = anew.flow.tasks.last_mut() {
            *kept = KeptCosts::default();
        }
        sandtable_engine::rules::resume(&rules, &mut anew);
        let options =
            |s: &sandtable_engine::state::State| s.flow.prompt.as_ref().unwrap().options().clone();
        assert_eq!(
            options(&state),
            options(&anew),
            "action {actions} `{action}`"
        );
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} prompts after an activation");
}

#[test]
fn a_script_answered_takes_what_it_read_before_the_question_and_plays_as_if_run_anew() {
    // B2B 6.H and 8: the End of Turn and Orders scripts ask several questions, each answer
    // running the script again from its start. What the run before the answer read (the
    // units in Full Supply, the spaces next to a front) is taken, not worked out again: a
    // campaign's first turns play the same as when every run works everything out.
    use sandtable_engine::script::eval::{values_replayed, without_replay};
    let content = crate::cards::b2b();
    let before = values_replayed();
    let with = trace(content, "campaign", 5, 700);
    assert!(values_replayed() > before, "no run took a value");
    let without = without_replay(|| trace(content, "campaign", 5, 700));
    assert_eq!(with.len(), without.len());
    for (i, (a, b)) in with.iter().zip(&without).enumerate() {
        assert!(a == b, "action {i} differs");
    }
}

#[test]
fn supply_levels_kept_from_prompt_to_prompt_change_nothing_in_play() {
    // Barbarossa to Berlin asks supply at nearly every prompt (activation costs, SR, moves):
    // a campaign's first turns played with the levels kept and with every question traced.
    same_without_kept(7, 250);
}

/// The B2B campaign's first `actions` actions of seed `seed`, played with what is kept from
/// one question to the next and with everything asked anew: the same every time.
fn same_without_kept(seed: u64, actions: usize) -> Vec<String> {
    let content = crate::cards::b2b();
    let with = trace(content, "campaign", seed, actions);
    let without =
        sandtable_engine::rules::supply::without_kept(|| trace(content, "campaign", seed, actions));
    assert_eq!(with.len(), without.len());
    for (i, (a, b)) in with.iter().zip(&without).enumerate() {
        assert!(a == b, "action {i} differs");
    }
    with
}

#[test]
fn rule_12_2_sr_routes_keep_the_spaces_they_may_enter_from_route_to_route_and_change_nothing() {
    // 12.2: an SR route runs through the side's spaces free of enemy units. Which spaces a
    // route may enter is kept for the next unit's route while the view, control, markers and
    // flags are the same: the campaign's first SR rounds played with and without it.
    let with = same_without_kept(11, 400);
    // Its SR destination prompts, whose last option is `back`.
    let destinations = with.iter().filter(|t| t.contains("\"back\"]")).count();
    assert!(
        destinations >= 5,
        "only {destinations} SR destination prompts"
    );
}

#[test]
fn rule_12_1_the_units_offered_after_a_unit_redeploys_are_those_a_list_made_anew_offers() {
    // 12.1: an SR card's points redeploy units one after another. After each, the list of the
    // side's units that may still go is kept from the list before (only the unit that went
    // changed); it must offer what a list made anew offers, and a list for more points, or
    // once the units marked redeployed are cleared, must not be the kept one.
    use sandtable_engine::rules::supply::without_kept;
    use sandtable_engine::rules::{act, resume, start, Rules, Task};
    let content = crate::cards::b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let anew = |state: &sandtable_engine::state::State| {
        let mut state = state.clone();
        without_kept(|| resume(&rules, &mut state));
        state.flow.prompt.map(|p| p.options()).unwrap_or_default()
    };
    let (mut after_sr, mut changed) = (0, 0);
    for seed in [3, 11, 19] {
        let mut state = start(&rules, seed, &[], &[]).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..900 {
            let Some(prompt) = state.flow.prompt.clone() else {
                break;
            };
            let action = agent.act(&prompt);
            act(&rules, &mut state, &action).unwrap();
            let Some(next) = &state.flow.prompt else {
                break;
            };
            if next.kind != "redeploy" || action.verb() != "to" {
                continue;
            }
            after_sr += 1;
            assert_eq!(
                next.options(),
                anew(&state),
                "seed {seed}, after `{action}`"
            );
            // The same list asked again with the units marked redeployed cleared, and with
            // more points: each as a list made anew says.
            let mut cleared = state.clone();
            cleared.flow.marks.redeployed.clear();
            let mut richer = state.clone();
            if let Some(Task::Sr { points, .. }) = richer.flow.tasks.last_mut() {
                *points += 6;
            }
            for mut other in [cleared, richer] {
                let made_anew = anew(&other);
                resume(&rules, &mut other);
                let options = other.flow.prompt.map(|p| p.options()).unwrap_or_default();
                changed += usize::from(options != next.options());
                assert_eq!(options, made_anew, "seed {seed}, after `{action}`");
            }
        }
    }
    assert!(after_sr >= 10, "only {after_sr} lists after a unit's SR");
    assert!(changed >= 10, "only {changed} lists that had to change");
}

#[test]
fn an_sr_route_asks_its_hooks_part_by_part_and_reaches_what_asking_each_connection_whole_reaches() {
    // B2B 12.3 and 12.5: `from != origin and from.terrain == desert` and its like, asked of
    // every connection of every route. Their parts keep their results by connection (the
    // terrain part once for every route, the origin part per origin) and are asked in another
    // order than written: every destination offered is the one asking without kept results
    // offers.
    let compared = b2b_prompts_with_and_without_table(&[3, 11], 900, "redeploy_to");
    assert!(compared >= 20, "only {compared} SR destinations compared");
}

/// Plays B2B campaigns of random actions (at most `actions` each) from `seeds`, every action
/// both with the remembered results and without them, and asserts that every prompt offers
/// the same options both ways; returns how many prompts of kind `kind` were compared.
fn b2b_prompts_with_and_without_table(seeds: &[u64], actions: usize, kind: &str) -> usize {
    use sandtable_engine::rules::{act, start, Rules};
    let content = crate::cards::b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let mut compared = 0;
    for &seed in seeds {
        let mut state = start(&rules, seed, &[], &[]).unwrap();
        let mut agent = RandomAgent::new(seed);
        for _ in 0..actions {
            let Some(prompt) = &state.flow.prompt else {
                break;
            };
            let action = agent.act(prompt);
            let mut plain = state.clone();
            act(&rules, &mut state, &action).unwrap();
            without_table(|| act(&rules, &mut plain, &action)).unwrap();
            if let (Some(k), Some(a)) = (&state.flow.prompt, &plain.flow.prompt) {
                if k.kind == kind {
                    compared += 1;
                }
                assert_eq!(k.options(), a.options(), "seed {seed}, after `{action}`");
            }
        }
    }
    compared
}

#[test]
fn a_units_steps_asked_together_cost_and_allow_what_each_step_asked_alone_does() {
    // The movement rules ask a unit's steps one after another with one context whose `from`
    // and `to` change, and keep the `MayMove` hooks' verdicts and the `MoveCost` hooks'
    // numbers by step, shared with later states whose hooks read the same (SPI: lakes closed
    // but frozen, the Finns' six hexes; the motorized units' costs in rough terrain and across
    // major rivers). Every step of every unit on the map, at states of random games, costs and
    // is allowed as a step asked alone, with nothing kept, says; so too in a copy of SPI whose
    // hooks tell a step from its way back (leaving rough terrain costs two more; a unit in
    // clear terrain may step into rough only where there is a city).
    use sandtable_engine::model::HookPoint;
    use sandtable_engine::rules::movement::{self, UnitSteps};
    use sandtable_engine::rules::{act, space_of, start, Rules};
    let spi = crate::rule_changes::variant("spi-barbarossa", "", &[]);
    let one_way = crate::rule_changes::variant(
        "spi-barbarossa",
        r#"
        (id: "leaving_rough", rule: "variant", at: MoveCost, when: "from.terrain == rough and to.terrain != rough", then: Add("2")),
        (id: "into_rough", rule: "variant", at: MayMove, when: "from.terrain == clear", then: May("to.terrain != rough or has_feature(to, city)")),
"#,
        &[],
    );
    let mut compared = 0;
    for (content, scenario, seed) in [
        (spi, "barbarossa", 5),
        (one_way, "barbarossa", 9),
        (crate::cards::b2b(), "campaign", 3),
    ] {
        let rules = Rules::new(content, scenario).unwrap();
        let g = &content.graph;
        let mut state = start(&rules, seed, &[], &[]).unwrap();
        let mut agent = RandomAgent::new(seed);
        for n in 0..400 {
            let Some(prompt) = &state.flow.prompt else {
                break;
            };
            if n % 10 == 0 {
                for u in 0..state.units.len() {
                    let Some(from) = space_of(&rules, &state.units[u]) else {
                        continue;
                    };
                    let mut steps = UnitSteps::new(&rules, &state, u);
                    // Twice: the second time the verdicts kept are asked.
                    for _ in 0..2 {
                        for &(to, e) in g.neighbours(from) {
                            let (a, b) = (g.spaces[from].id, g.spaces[to].id);
                            let alone = without_table(|| {
                                let cost = movement::step_cost(&rules, &state, u, (e, to), &[]);
                                let may =
                                    movement::may(&rules, &state, HookPoint::MayMove, u, (&a, &b));
                                (cost, may)
                            });
                            let together = (steps.cost((e, to), &[]), steps.may((from, to, e)));
                            assert_eq!(together, alone, "{scenario}: unit {u}, {a} to {b}");
                            compared += 1;
                        }
                    }
                }
            }
            let action = agent.act(prompt);
            act(&rules, &mut state, &action).unwrap();
        }
    }
    assert!(compared > 1000, "only {compared} steps compared");
}

#[test]
fn zones_of_control_worked_out_once_for_a_prompt_are_those_of_the_pieces_around_each_space() {
    // A prompt's moves ask whether a space lies in an enemy zone of control thousands of times
    // on one state (SPI: entering and leaving a zone cost points): the zones are worked out
    // once for the prompt (`with_zones`), the sides that exert one as a bit each. At states of
    // random games, every space answers for every side as the pieces around it say, and every
    // step of every unit on the map costs what a step asked alone costs.
    use sandtable_engine::rules::movement::{self, in_enemy_zone, with_zones, UnitSteps};
    use sandtable_engine::rules::{act, space_of, start, Rules};
    let content = crate::rule_changes::variant("spi-barbarossa", "", &[]);
    let rules = Rules::new(content, "barbarossa").unwrap();
    let g = &content.graph;
    let sides: Vec<sandtable_engine::Id> = rules.game.sides.iter().map(|s| s.id).collect();
    let mut state = start(&rules, 11, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(11);
    let (mut zoned, mut steps_compared) = (0, 0);
    for n in 0..300 {
        let Some(prompt) = &state.flow.prompt else {
            break;
        };
        if n % 25 == 0 {
            let alone: Vec<Vec<bool>> = (sides.iter())
                .map(|&s| {
                    (0..g.spaces.len())
                        .map(|i| in_enemy_zone(&rules, &state, s, i))
                        .collect()
                })
                .collect();
            let costs_alone: Vec<u32> = (0..state.units.len())
                .filter_map(|u| Some((u, space_of(&rules, &state.units[u])?)))
                .flat_map(|(u, from)| g.neighbours(from).iter().map(move |&(to, e)| (u, to, e)))
                .map(|(u, to, e)| movement::step_cost(&rules, &state, u, (e, to), &[]))
                .collect();
            with_zones(&rules, &state, || {
                for (&s, alone) in sides.iter().zip(&alone) {
                    for (i, &was) in alone.iter().enumerate() {
                        assert_eq!(in_enemy_zone(&rules, &state, s, i), was, "{s} at {i}");
                        zoned += usize::from(was);
                    }
                }
                let mut costs = Vec::new();
                for u in 0..state.units.len() {
                    let Some(from) = space_of(&rules, &state.units[u]) else {
                        continue;
                    };
                    let mut steps = UnitSteps::new(&rules, &state, u);
                    for &(to, e) in g.neighbours(from) {
                        costs.push(steps.cost((e, to), &[]));
                    }
                }
                assert_eq!(costs, costs_alone);
                steps_compared += costs.len();
            });
        }
        let action = agent.act(prompt);
        act(&rules, &mut state, &action).unwrap();
    }
    assert!(
        zoned > 100 && steps_compared > 1000,
        "{zoned} zoned, {steps_compared} steps"
    );
}

#[test]
fn a_prompts_movement_and_stop_hooks_asked_through_gates_answer_as_each_question_alone() {
    // A prompt's moves ask the `Movement` hooks of every unit and the `MayStop` hooks of every
    // space a unit's move may end in through `MoveGates`, which leaves out once the hooks whose
    // condition has a part naming neither the unit nor the space that does not hold now. In a
    // copy of B2B with hooks whose fixed part holds (no stop in Turkey, one more point for an
    // LCU), one whose fixed part never holds, and one whose first part reads the modifier's
    // `value` (which a gate must not ask before the hooks run), every unit's allowance and
    // every stop asked at states of a random campaign is what the hooks asked alone say.
    use sandtable_engine::rules::movement::{self, MoveGates};
    use sandtable_engine::rules::{act, space_of, start, Rules};
    let content = crate::rule_changes::variant(
        "barbarossa-to-berlin",
        r#"
        (id: "no_stop_in_turkey", rule: "variant", at: MayStop, when: "turn() >= 1 and space.country == turkey", then: Forbid),
        (id: "never", rule: "variant", at: MayStop, when: "turn() > 99 and space.country == germany", then: Forbid),
        (id: "lcu_faster", rule: "variant", at: Movement, when: "turn() >= 1 and u.size == lcu", then: Add("1")),
        (id: "slow_germans", rule: "variant", at: Movement, when: "value > 3 and u.nation == ge", then: AtMost("3")),
"#,
        &[],
    );
    let rules = Rules::new(content, "campaign").unwrap();
    let g = &content.graph;
    let mut state = start(&rules, 7, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(7);
    let (mut stops, mut forbidden, mut changed) = (0, 0, 0);
    for n in 0..300 {
        let Some(prompt) = &state.flow.prompt else {
            break;
        };
        if n % 20 == 0 {
            for side in rules.game.sides.iter().map(|s| s.id) {
                let mut gates = MoveGates::new(&rules, &state, &side);
                for u in 0..state.units.len() {
                    let unit = &state.units[u];
                    if rules.side(unit) != side || space_of(&rules, unit).is_none() {
                        continue;
                    }
                    let printed = rules.movement(unit);
                    let alone = without_table(|| movement::allowance(&rules, &state, u, printed));
                    assert_eq!(
                        gates.allowance(&rules, &state, u, printed),
                        alone,
                        "unit {u}"
                    );
                    changed += usize::from(alone != printed.max(0) as u32);
                    for i in (u % 5..g.spaces.len()).step_by(5) {
                        let id = g.spaces[i].id;
                        let alone = without_table(|| movement::may_end(&rules, &state, u, &id));
                        assert_eq!(
                            gates.may_end(&rules, &state, u, i),
                            alone,
                            "unit {u} in {id}"
                        );
                        stops += 1;
                        forbidden += usize::from(!alone);
                    }
                }
            }
        }
        let action = agent.act(prompt);
        act(&rules, &mut state, &action).unwrap();
    }
    assert!(
        stops > 10_000 && forbidden > 100 && changed > 100,
        "{stops} stops, {forbidden} forbidden, {changed} allowances changed"
    );
}

#[test]
fn builtins_answered_from_their_evaluated_arguments_play_and_cost_as_the_rest() {
    // `contains`, `has_marker`, `in_supply`, `flag`, `played` and the other builtins asked
    // most often are answered from their evaluated arguments by a code found with the builtin
    // (script/eval/quick.rs). B2B's campaign (whose Orders scripts ask `contains` and
    // `in_supply` of every front, 8.4 and 8.5) plays the same without; and at states along
    // it, every sequence script and every card's `playable` condition gives the same outcome
    // for the same steps of its budget.
    use sandtable_engine::script::eval::{condition_counted, run_counted, without_quick, Context};
    let content = crate::cards::b2b();
    let with = trace(content, "campaign", 9, 300);
    let without = without_quick(|| trace(content, "campaign", 9, 300));
    assert_eq!(with.len(), without.len());
    for (i, (a, b)) in with.iter().zip(&without).enumerate() {
        assert!(a == b, "action {i} differs");
    }
    let setup = Setup {
        scenario: "campaign".into(),
        options: Vec::new(),
        seed: 9,
        dice: Vec::new(),
        position: None,
    };
    let mut s = Session::new(content, setup).unwrap();
    let mut agent = RandomAgent::new(9);
    let ctx = Context {
        me: "allied".into(),
        enemy: "axis".into(),
        ..Context::default()
    };
    let (mut scripts, mut conditions) = (0, 0);
    for n in 0..400 {
        let Some(p) = s.prompt().cloned() else {
            break;
        };
        if n % 50 == 0 {
            for (at, stmts) in &content.sequence.steps {
                let (mut a, mut b) = (s.state().clone(), s.state().clone());
                let quick = run_counted(stmts, content, &mut a, &ctx);
                let slow = without_quick(|| run_counted(stmts, content, &mut b, &ctx));
                assert_eq!(format!("{quick:?}"), format!("{slow:?}"), "script {at:?}");
                assert!(a == b, "script {at:?} at action {n}");
                scripts += 1;
            }
            for (card, c) in &content.scripts {
                let Some(playable) = &c.playable else {
                    continue;
                };
                let ctx = Context {
                    card: Some(card.clone()),
                    ..ctx.clone()
                };
                let quick = condition_counted(playable, content, s.state(), &ctx);
                let slow = without_quick(|| condition_counted(playable, content, s.state(), &ctx));
                assert_eq!(
                    format!("{quick:?}"),
                    format!("{slow:?}"),
                    "{card} at action {n}"
                );
                conditions += 1;
            }
        }
        s.apply(content, &agent.act(&p).to_string()).unwrap();
    }
    assert!(
        scripts >= 40 && conditions >= 200,
        "{scripts} scripts, {conditions} conditions"
    );
}

#[test]
fn rule_13_1_a_beach_head_placed_is_a_source_at_once_though_the_levels_before_it_are_kept() {
    // B2B 13.1: a British Beach Head is a supply source for the British. Levels asked again of
    // the same view, markers and flags are found by their stamps; a marker placed takes a
    // fresh stamp, so the British levels are traced again and the space the marker stands on
    // is in Full Supply at once, as when nothing is kept.
    use sandtable_engine::rules::supply::{levels_kept, view_kept, without_kept, Level};
    use sandtable_engine::rules::{start, Rules};
    use sandtable_engine::state::MarkerOnMap;
    let content = crate::cards::b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = start(&rules, 1, &[], &[]).unwrap();
    let before = levels_kept(content, &state, &view_kept(content, &state, "allied"), "br");
    let again = levels_kept(content, &state, &view_kept(content, &state, "allied"), "br");
    assert!(
        std::rc::Rc::ptr_eq(&before, &again),
        "the same question traced twice"
    );
    // An Allied space where the British have no Full Supply yet.
    let g = &content.graph;
    let at = (0..g.spaces.len())
        .find(|&i| {
            before[i] != Level::Full
                && state
                    .control
                    .get(g.spaces[i].id.as_str())
                    .map(|s| s.as_str())
                    == Some("allied")
        })
        .expect("an Allied space out of British Full Supply");
    state.markers.push(MarkerOnMap {
        marker: "beach_head_br".into(),
        space: g.spaces[at].id,
        level: 0,
        until: None,
    });
    let after = levels_kept(content, &state, &view_kept(content, &state, "allied"), "br");
    assert_eq!(
        after[at],
        Level::Full,
        "{} with a Beach Head",
        g.spaces[at].id
    );
    let traced =
        without_kept(|| levels_kept(content, &state, &view_kept(content, &state, "allied"), "br"));
    assert_eq!(after, traced);
}

#[test]
fn rule_16_3_a_partisan_marker_that_alone_comes_or_goes_is_counted_at_once_though_other_markers_keep_the_settling(
) {
    // B2B 16.3: no counts_as condition reads a marker, so the settled victory points stand
    // while only other markers change (a Move marker); a Partisan marker placed or removed
    // with nothing else changed is counted at once, as settling anew counts it.
    use sandtable_engine::model::{ControlSetting, Position};
    use sandtable_engine::state::MarkerOnMap;
    let content = crate::cards::b2b();
    let rules = sandtable_engine::rules::Rules::new(content, "campaign").unwrap();
    let position = Position {
        turn: Some(5),
        clear: vec!["kiev".into()],
        control: vec![ControlSetting {
            side: Some("axis".into()),
            regions: Vec::new(),
            spaces: vec!["kiev".into()],
        }],
        at: crate::b2b_rules::at_round(1, "allied"),
        ..Position::default()
    };
    let mut state = sandtable_engine::rules::start_from(&rules, (1, &[], &[]), Some(&position))
        .unwrap_or_else(|e| panic!("{}", e.0));
    let vp = state.track("vp");
    let marker = |marker: &str| MarkerOnMap {
        marker: marker.into(),
        space: "kiev".into(),
        level: 1,
        until: None,
    };
    let settled = |state: &mut sandtable_engine::state::State| {
        let mut anew = state.clone();
        anew.vp_settled = Default::default();
        sandtable_engine::rules::resume(&rules, state);
        sandtable_engine::rules::resume(&rules, &mut anew);
        assert_eq!(state.track("vp"), anew.track("vp"), "kept and anew");
        state.track("vp")
    };
    state.markers.push(marker("move"));
    assert_eq!(settled(&mut state), vp, "a Move marker counts for nothing");
    state.markers.push(marker("partisan"));
    assert_eq!(settled(&mut state), vp - 1, "Kiev counts as Allied");
    state.markers.retain(|m| m.marker.as_str() != "partisan");
    assert_eq!(settled(&mut state), vp, "Kiev counts for the Axis again");
}

#[test]
fn a_condition_remembered_by_more_yes_or_no_reads_than_its_key_has_words_offers_what_asking_anew_offers(
) {
    // B2B's Soviet reinforcement cards may be played when none of seven others was played this
    // turn, and more: their conditions read more yes-or-no facts than a remembered result's
    // key holds words, so those facts share a word, a bit each. At every prompt of twelve
    // campaigns, the options are those asking every condition anew offers (seed 10 tells
    // apart keys whose bits are not in their places).
    let seeds: Vec<u64> = (1..=12).collect();
    let compared = b2b_prompts_with_and_without_table(&seeds, usize::MAX, "action");
    assert!(compared >= 300, "only {compared} action prompts compared");
}
