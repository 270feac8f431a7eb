//! Activation's hooks (`MayActivate`, `ActivationCost`): the same two points in an action
//! round's operations and in an impulse, changed in data only.

use sandtable_engine::content::Content;
use sandtable_engine::rules::{self, OpsStage, Rules, Task};
use sandtable_engine::state::State;

use crate::rule_changes::{act, prepared, variant};

/// The campaign's Axis operations on turn 3 with `points` to spend.
fn b2b_operations(content: &'static Content, points: u32) -> (Rules<'static>, State) {
    b2b_operations_marked(content, points, &[])
}

/// [`b2b_operations`] with markers `marked` (kind, space) placed first.
fn b2b_operations_marked(
    content: &'static Content,
    points: u32,
    marked: &[(&str, &str)],
) -> (Rules<'static>, State) {
    prepared(content, ("axis", OpsStage::Activate), marked, |state| {
        if let Some(Task::Ops { points: p, .. }) = state.flow.tasks.last_mut() {
            *p = points;
        }
    })
}

fn options(state: &State) -> Vec<String> {
    state.flow.prompt.as_ref().unwrap().options().clone()
}

fn points_left(state: &State) -> u32 {
    state
        .flow
        .tasks
        .iter()
        .rev()
        .find_map(|t| match t {
            Task::Ops { points, .. } => Some(*points),
            _ => None,
        })
        .unwrap()
}

const COMBAT_COSTS_MORE: &str = r#"
        (id: "combat_costs_more", rule: "variant: attacks cost more", at: ActivationCost, when: "for_combat", then: Add("1")),
"#;

#[test]
fn rule_change_activating_a_space_for_combat_costs_one_point_more_is_one_hook() {
    let base = variant("barbarossa-to-berlin", "", &[]);
    let changed = variant("barbarossa-to-berlin", COMBAT_COSTS_MORE, &[]);
    // With one point, a space of one nationality group in supply is offered for movement in
    // both games, for combat only where it still costs one.
    let (_, one) = b2b_operations(base, 1);
    let (_, one_changed) = b2b_operations(changed, 1);
    let combat = |o: &Vec<String>| o.iter().filter(|a| a.ends_with(" combat")).count();
    let moves = |o: &Vec<String>| o.iter().filter(|a| a.ends_with(" move")).count();
    assert!(combat(&options(&one)) > 0);
    assert_eq!(
        combat(&options(&one_changed)),
        0,
        "{:?}",
        options(&one_changed)
    );
    assert_eq!(moves(&options(&one_changed)), moves(&options(&one)));
    // With three, activating that space for combat leaves two, or one under the change.
    let mut left = Vec::new();
    for content in [base, changed] {
        let (rules, mut state) = b2b_operations(content, 3);
        let first = options(&one)
            .into_iter()
            .find(|a| a.ends_with(" combat"))
            .unwrap();
        act(&rules, &mut state, &first);
        left.push(points_left(&state));
    }
    assert_eq!(left, vec![2, 1]);
}

#[test]
fn rule_change_romanian_units_may_not_be_activated_for_combat_is_one_hook() {
    let hook = r#"
        (id: "no_romanian_attacks", rule: "variant", at: MayActivate, when: "for_combat and any(units, |u| u.nation == ro)", then: Forbid),
"#;
    let changed = variant("barbarossa-to-berlin", hook, &[]);
    let (_, state) = b2b_operations(changed, 6);
    let romanian: Vec<String> = state
        .units
        .iter()
        .filter(|u| changed.counter_of(u).unwrap().nation == "ro")
        .filter_map(|u| match &u.at {
            sandtable_engine::state::Loc::Space(s) => Some(s.to_string()),
            _ => None,
        })
        .collect();
    assert!(!romanian.is_empty());
    let offered = options(&state);
    for space in &romanian {
        assert!(
            offered.contains(&format!("activate {space} move")),
            "{space}"
        );
        assert!(
            !offered.contains(&format!("activate {space} combat")),
            "{space}"
        );
    }
    assert!(offered.iter().any(|a| a.ends_with(" combat")));
}

/// Berlin 1945 up to the first impulse's activation.
pub(crate) fn berlin_activation(content: &'static Content) -> (Rules<'static>, State) {
    let rules = Rules::new(content, "standard").unwrap();
    let mut state = rules::start(&rules, 7, &[], &[]).unwrap();
    while let Some(p) = state.flow.prompt.clone() {
        if p.kind == "activate" {
            break;
        }
        let answer = if p.kind == "decision" {
            "choose"
        } else {
            "no card"
        };
        act(&rules, &mut state, answer);
    }
    (rules, state)
}

/// Activates the first units offered to move, as long as any is offered: how many.
fn activate_all(rules: &Rules, state: &mut State) -> usize {
    let mut n = 0;
    while let Some(a) = options(state).into_iter().find(|a| a.ends_with(" move")) {
        act(rules, state, &a);
        n += 1;
    }
    n
}

#[test]
fn the_same_activation_cost_hook_acts_on_an_impulses_allowance_in_berlin_1945() {
    let hook = r#"
        (id: "two_a_unit", rule: "variant: fewer units an impulse", at: ActivationCost, then: Set("2")),
"#;
    let base = variant("berlin-1945", "", &[]);
    let changed = variant("berlin-1945", hook, &[]);
    let (rules, mut state) = berlin_activation(base);
    let all = activate_all(&rules, &mut state);
    let (rules, mut state) = berlin_activation(changed);
    let half = activate_all(&rules, &mut state);
    assert!(all >= 2, "{all}");
    assert_eq!(half, all / 2, "{all} units at one each, {half} at two");
}

#[test]
fn the_same_may_activate_hook_acts_in_berlin_1945s_impulses() {
    let hook = r#"
        (id: "no_armoured_attacks", rule: "variant", at: MayActivate, when: "for_combat and any(units, |u| u.type == armour)", then: Forbid),
"#;
    let changed = variant("berlin-1945", hook, &[]);
    let (_, state) = berlin_activation(changed);
    let offered = options(&state);
    let armour: Vec<String> = state
        .units
        .iter()
        .filter(|u| matches!(u.at, sandtable_engine::state::Loc::Space(_)))
        .filter(|u| changed.counter_of(u).unwrap().unit_type == "armour")
        .map(|u| u.name(changed))
        .filter(|name| offered.contains(&format!("activate {name} move")))
        .collect();
    assert!(!armour.is_empty(), "{offered:?}");
    for name in &armour {
        assert!(
            !offered.contains(&format!("activate {name} combat")),
            "{name}"
        );
    }
    assert!(offered.iter().any(|a| a.ends_with(" combat")));
}

#[test]
fn rule_change_a_cost_that_reads_the_move_markers_is_worked_out_again_after_each_activation() {
    // An Activate prompt's costs are kept for the next one only while no hook names the
    // activation markers (7.3): this one makes every space dearer once one is activated.
    let hook = r#"
        (id: "second_costs_more", rule: "variant: each activation after the first costs more", at: ActivationCost, when: "exists(spaces(marker: move))", then: Add("1")),
"#;
    let base = variant("barbarossa-to-berlin", "", &[]);
    let changed = variant("barbarossa-to-berlin", hook, &[]);
    let mut moves_left = Vec::new();
    for content in [base, changed] {
        let (rules, mut state) = b2b_operations(content, 2);
        // A space that costs one point to activate for movement, when it is the first.
        let (_, one) = b2b_operations(content, 1);
        let first = options(&one)
            .into_iter()
            .find(|a| a.ends_with(" move"))
            .unwrap();
        act(&rules, &mut state, &first);
        assert_eq!(points_left(&state), 1);
        let moves = options(&state)
            .iter()
            .filter(|a| a.ends_with(" move"))
            .count();
        moves_left.push(moves);
    }
    assert!(moves_left[0] > 0, "{moves_left:?}");
    assert_eq!(moves_left[1], 0, "{moves_left:?}");
}

#[test]
fn rule_change_a_cost_that_needs_a_marker_is_asked_only_where_the_marker_lies() {
    // A hook whose condition needs a kind of marker on the map is not asked while none lies
    // there (`Content::hook_needs`); once one does, its space costs more, and no other.
    let hook = r#"
        (id: "stand_fast_costs_more", rule: "variant: a Stand Fast space costs more to activate", at: ActivationCost, when: "has_marker(space, stand_fast)", then: Add("1")),
"#;
    let base = variant("barbarossa-to-berlin", "", &[]);
    let changed = variant("barbarossa-to-berlin", hook, &[]);
    let offered =
        |content, marked: &[(&str, &str)]| options(&b2b_operations_marked(content, 1, marked).1);
    let plain = offered(base, &[]);
    assert_eq!(
        offered(changed, &[]),
        plain,
        "no Stand Fast marker on the map"
    );
    let moves: Vec<&String> = plain.iter().filter(|a| a.ends_with(" move")).collect();
    assert!(moves.len() >= 2, "{plain:?}");
    let space = |a: &str| a.split(' ').nth(1).unwrap().to_string();
    let (first, second) = (space(moves[0]), space(moves[1]));
    let marked = [("stand_fast", first.as_str())];
    assert_eq!(
        offered(base, &marked),
        plain,
        "the marker alone changes no cost"
    );
    let changed_marked = offered(changed, &marked);
    assert!(
        !changed_marked.contains(moves[0]),
        "{first} costs two: {changed_marked:?}"
    );
    assert!(
        changed_marked.contains(moves[1]),
        "{second} still costs one: {changed_marked:?}"
    );
}
