//! The supply trace's search (`rules::supply::trace`), the parts of a view it runs through
//! (`rules/supply/parts.rs`) and the supply a script asks for
//! (`in_supply`), against what they must give at states of random games.

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::content::Content;
use sandtable_engine::rules::supply::{self, Level, SideView};
use sandtable_engine::rules::{act, start, Rules};
use sandtable_engine::script::eval::{condition, Context, Value};
use sandtable_engine::script::syntax::parse_expr;
use sandtable_engine::script::types::Kind;
use sandtable_engine::state::{Loc, State};
use sandtable_engine::Id;

/// The states a random game of a scenario goes through, every `every` actions, `most` of them.
fn states(
    content: &Content,
    scenario: &str,
    seed: u64,
    (every, most): (usize, usize),
) -> Vec<State> {
    let rules = Rules::new(content, scenario).unwrap();
    let mut state = start(&rules, seed, &[], &[]).unwrap();
    let mut agent = RandomAgent::new(seed);
    let mut out = Vec::new();
    let mut n = 0;
    while let Some(prompt) = &state.flow.prompt {
        if out.len() >= most {
            break;
        }
        if n % every == 0 {
            out.push(state.clone());
        }
        let action = agent.act(prompt);
        act(&rules, &mut state, &action).unwrap();
        n += 1;
    }
    out
}

/// The spaces a trace reaches from `starts`, passing on from a side's free spaces only and
/// across the connections that `open` lets through, at most `reach` connections long.
fn reached(content: &Content, view: &SideView, starts: &[usize], reach: u32) -> Vec<bool> {
    let mut seen = vec![false; content.graph.spaces.len()];
    for &s in starts {
        seen[s] = true;
    }
    // Some connections closed, and some spaces reached but not passed on from, so that what
    // the trace may and may not do both count.
    let open = |e: usize, to: usize| e % 5 != 0 || to % 3 == 0;
    let passes = |i: usize| view.friendly(i);
    supply::trace(content, (&mut seen, starts.to_vec()), reach, passes, open);
    seen
}

#[test]
fn a_supply_trace_that_no_length_stops_reaches_what_a_search_by_levels_reaches() {
    // A trace as long as the map has spaces, or longer, stops no line: its spaces are found by
    // a stack, in no order. A search by levels one connection shorter is stopped by no line
    // either (a line of n - 1 connections already holds every space), so both reach the same.
    let mut compared = 0;
    for (game, scenario) in [
        ("barbarossa-to-berlin", "campaign"),
        ("spi-barbarossa", "barbarossa"),
    ] {
        let content = crate::rule_changes::variant(game, "", &[]);
        let n = content.graph.spaces.len() as u32;
        let sides: Vec<&str> = content
            .game
            .as_ref()
            .unwrap()
            .sides
            .iter()
            .map(|s| s.id.as_str())
            .collect();
        for state in states(content, scenario, 5, (20, 12)) {
            for side in &sides {
                let view = SideView::new(content, &state, side);
                for k in [3, 7, 11] {
                    let starts: Vec<usize> = (0..n as usize)
                        .filter(|&i| view.friendly(i) && i % k == 0)
                        .collect();
                    let by_levels = reached(content, &view, &starts, n - 1);
                    assert_eq!(
                        reached(content, &view, &starts, n),
                        by_levels,
                        "{game} {side}"
                    );
                    assert_eq!(reached(content, &view, &starts, u32::MAX), by_levels);
                    compared += by_levels.iter().filter(|&&s| s).count();
                }
            }
        }
    }
    assert!(compared > 10_000, "only {compared} spaces reached");
}

#[test]
fn a_scripts_supply_questions_give_each_nations_levels_of_the_state_asked_and_no_other() {
    // A script's run asks each nation's supply once, and a nation whose supply reads the same
    // as one asked already shares its levels. At states of a random campaign, `in_supply(u)`
    // and `full_supply(u)` of every unit on the map, asked one after another in one run, are
    // its nation's levels for its side traced on their own, and `full_supply_at` of every space
    // for every nation is where its levels are Full. Each state is asked again in Winter 42
    // (15.2), when German supply in the Soviet Union is at best Limited and the other Axis
    // nations' is not (their levels differ): the same pieces and control with a flag more, which
    // the levels kept from the first asking must not answer.
    let content = crate::cards::b2b();
    let (expr, errors) = parse_expr(
        "all(units(), |u| not contains(on_map, u) or (in_supply(u) == contains(supplied, u) and full_supply(u) == contains(full, u)))",
    );
    assert!(errors.is_empty(), "{errors:?}");
    let expr = expr.unwrap();
    let (mut units_asked, mut spaces_full) = (0, 0);
    let asked = states(content, "campaign", 3, (15, 20))
        .into_iter()
        .flat_map(|state| {
            let mut winter = state.clone();
            winter.flags.insert(Id::new("winter_42"));
            [state, winter]
        });
    for state in asked {
        let (mut on_map, mut supplied, mut full) = (Vec::new(), Vec::new(), Vec::new());
        for (i, u) in state.units.iter().enumerate() {
            let Loc::Space(at) = &u.at else { continue };
            let counter = content.counter_of(u).unwrap();
            let side = u.side(content);
            let level = supply::level_at(content, &state, at, &counter.nation, &side);
            on_map.push(Value::Unit(i));
            if level != Level::Out {
                supplied.push(Value::Unit(i));
            }
            if level == Level::Full {
                full.push(Value::Unit(i));
            }
        }
        units_asked += on_map.len();
        let set = |v: Vec<Value>| Value::Set(v.into());
        let ctx = Context {
            me: Id::new("axis"),
            enemy: Id::new("allied"),
            names: vec![
                (Id::new("on_map"), set(on_map)),
                (Id::new("supplied"), set(supplied)),
                (Id::new("full"), set(full)),
            ],
            ..Context::default()
        };
        assert!(condition(&expr, content, &state, &ctx).unwrap());
        // And `full_supply_at` of every space for every nation: its levels everywhere.
        for nation in &content.game.as_ref().unwrap().nations {
            let side = supply::nation_side(content, &nation.id);
            let levels = supply::levels(content, &state, &nation.id, side);
            let mut full: Vec<Value> = (0..levels.len())
                .filter(|&i| levels[i] == Level::Full)
                .map(|i| Value::Id(Kind::Space, content.graph.spaces[i].id))
                .collect();
            full.sort();
            spaces_full += full.len();
            let text = format!(
                "all(spaces(), |s| full_supply_at(s, {}) == contains(full, s))",
                nation.id
            );
            let (every, errors) = parse_expr(&text);
            assert!(errors.is_empty(), "{errors:?}");
            let ctx = Context {
                names: vec![(Id::new("full"), set(full))],
                ..ctx.clone()
            };
            let held = condition(&every.unwrap(), content, &state, &ctx).unwrap();
            assert!(held, "turn {}: {}", state.turn, nation.id);
        }
    }
    assert!(
        spaces_full > 10_000,
        "only {spaces_full} spaces in Full Supply"
    );
    assert!(units_asked > 1000, "only {units_asked} units asked");
}

#[test]
fn supply_traced_through_a_views_parts_gives_the_levels_a_search_of_the_map_gives() {
    // A trace whose reach is the whole map marks what the parts of its sources reach, the
    // parts found once per view (rules/supply/parts.rs). At states of a random campaign, every
    // nation's levels for each side are those a search gives; and again on a view with spaces
    // closed (as `needed_for_supply` and the Caucasus rule of 13.6 ask), and in Winter 42
    // (15.2, a rule's flag).
    use sandtable_engine::rules::supply::{levels_seen, without_parts};
    let content = crate::cards::b2b();
    let game = content.game.as_ref().unwrap();
    let (mut traced, mut differ_from_closed) = (0, 0);
    for state in states(content, "campaign", 13, (6, 40)) {
        let mut winter = state.clone();
        winter.flags.insert(Id::new("winter_42"));
        for state in [state, winter] {
            for side in &game.sides {
                let mut closed = SideView::new(content, &state, &side.id);
                for i in (0..content.graph.spaces.len()).filter(|i| i % 7 == 3) {
                    closed.close(i);
                }
                let whole = SideView::new(content, &state, &side.id);
                for nation in &game.nations {
                    let by_parts = levels_seen(content, &state, &whole, &nation.id);
                    let searched =
                        without_parts(|| levels_seen(content, &state, &whole, &nation.id));
                    assert!(by_parts == searched, "{} for {}", nation.id, side.id);
                    let by_parts_closed = levels_seen(content, &state, &closed, &nation.id);
                    let searched_closed =
                        without_parts(|| levels_seen(content, &state, &closed, &nation.id));
                    assert!(by_parts_closed == searched_closed, "{} closed", nation.id);
                    traced += 1;
                    differ_from_closed += usize::from(by_parts != by_parts_closed);
                }
            }
        }
    }
    assert!(traced > 1000, "only {traced} traces");
    assert!(
        differ_from_closed > 100,
        "closing changed {differ_from_closed}"
    );
}
