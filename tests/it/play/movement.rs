//! Movement and fortifications: Soviet trenches (10.2), forts (10.3), where nations may
//! operate (19), and what a connection costs to move through.

use sandtable_engine::rules::{self, Rules};
use sandtable_engine::state::{Loc, State};

use super::{campaign, german_move, move_stage, unit};
use crate::cards::b2b;

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

#[test]
fn rule_7_63_and_13_2_axis_units_never_enter_an_invasion_beach_nor_sverdlovsk_or_chelyabinsk() {
    let (rules, mut state) = campaign();
    let index = |id: &str| rules.content.graph.index_of(id).unwrap();
    let (beach, sverdlovsk, chelyabinsk) =
        (index("beach_a"), index("sverdlovsk"), index("chelyabinsk"));
    // A beach held by the Allies, as after an invasion: closed to the Axis by its terrain.
    state.control.insert("beach_a".into(), "allied".into());
    for space in [beach, sverdlovsk, chelyabinsk] {
        assert!(!rules::may_enter(&rules, &state, "axis", space), "{space}");
        assert!(rules::may_enter(&rules, &state, "allied", space), "{space}");
    }
    // Another Soviet space is open to both.
    let moscow = index("moscow");
    assert!(rules::may_enter(&rules, &state, "axis", moscow));
    assert!(rules::may_enter(&rules, &state, "allied", moscow));
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
        .id;
    let offers = |state: &State| {
        state
            .flow
            .prompt
            .as_ref()
            .is_some_and(|p| p.options().contains(&format!("entrench {urban}")))
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
        assert!(!p.options().iter().any(moves));
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
        .id;
    let offers = |turn| {
        soviet_move_stage(turn, &open)
            .1
            .flow
            .prompt
            .is_some_and(|p| p.options().contains(&format!("entrench {open}")))
    };
    assert!(!offers(7));
    assert!(offers(8));
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
            state.control.insert(s.id, "axis".into());
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
            p.options()
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

/// The Move prompt after the opening's first operations moved the Northwest Front from Kaunas
/// to Riga and then on to `to`, in a game made from `content`: its question and options.
fn after_northwest_front_to(
    content: &'static sandtable_engine::content::Content,
    to: &str,
) -> (String, Vec<String>) {
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = rules::start(&rules, 1, &[], &[]).unwrap();
    let log = std::fs::read_to_string(crate::root().join("tests/fixtures/b2b-opening.log"));
    for action in log.unwrap().lines().take(12) {
        crate::rule_changes::act(&rules, &mut state, action);
    }
    crate::rule_changes::act(&rules, &mut state, &format!("move su_northwest_front {to}"));
    let prompt = state.flow.prompt.as_ref().expect("the Move prompt");
    let options = prompt.actions.iter().map(|o| o.to_string()).collect();
    (prompt.question.clone(), options)
}

#[test]
fn rule_9_1_a_stacking_limit_a_unit_breaks_alone_keeps_it_from_stopping_in_an_empty_space() {
    // A rule changed in a copy: in Tallinn (a region of its own) Soviet pieces count for one,
    // an LCU for two. The Northwest Front would stand alone there and still break the limit:
    // it may pass through (the game's `pass_through: Always`) but not stop.
    let limited = crate::rule_changes::variant(
        "barbarossa-to-berlin",
        "",
        &[
            (
                "game.ron",
                "        limit: Some(3),\n",
                "        limit: Some(3),\n        limits: [(nations: [\"su\"], limit: 1, weights: [(size: \"lcu\", count: 2)], within: [\"estonia\"])],\n",
            ),
            (
                "game.ron",
                "        (id: \"finland\", name: \"Finland\"),\n",
                "        (id: \"finland\", name: \"Finland\"),\n        (id: \"estonia\", name: \"Estonia\"),\n",
            ),
            (
                "map.ron",
                "            id: \"tallinn\",\n",
                "            id: \"tallinn\",\n            regions: [\"estonia\"],\n",
            ),
        ],
    );
    let done = "done".to_string();
    let (_, bundled) = after_northwest_front_to(b2b(), "tallinn");
    assert!(
        bundled.contains(&done),
        "it may stop in Tallinn: {bundled:?}"
    );
    let (question, passing) = after_northwest_front_to(limited, "tallinn");
    assert!(question.contains("passing through"), "{question}");
    assert!(!passing.contains(&done), "{passing:?}");
    assert!(passing
        .iter()
        .all(|o| o.starts_with("move su_northwest_front ")));
    let (_, pskov) = after_northwest_front_to(limited, "pskov");
    assert!(
        pskov.contains(&done),
        "the limit holds in Estonia only: {pskov:?}"
    );
}
