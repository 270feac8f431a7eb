//! Rule changes a designer makes in data and scripts only (issue 16): each is a copy of a
//! bundled game with hooks or values added to its files, played through the prompts against
//! the unchanged game.

use std::collections::BTreeSet;

use sandtable_engine::content::Content;
use sandtable_engine::load::load_dir;
use sandtable_engine::rules::{self, supply, OpsStage, Rules, Task};
use sandtable_engine::script::eval::{self, Context, Value};
use sandtable_engine::script::syntax;
use sandtable_engine::state::{Loc, MarkerOnMap, State};

use crate::cards::b2b;

/// A copy of a bundled game with `hooks` (RON list items) added to `game.ron` and each
/// `(file, old, new)` text replacement made, loaded and checked.
pub fn variant(game: &str, hooks: &str, edits: &[(&str, &str, &str)]) -> &'static Content {
    let loaded = load_variant(game, hooks, edits);
    let errors: Vec<String> = loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect();
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    Box::leak(Box::new(loaded.content))
}

/// [`variant`], loaded with whatever problems it has.
fn load_variant(
    game: &str,
    hooks: &str,
    edits: &[(&str, &str, &str)],
) -> sandtable_engine::load::Loaded {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::root().join("content").join(game), dir.path());
    let game_ron = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&game_ron).unwrap();
    let text = match text.find("\n    hooks: [\n") {
        // Before the game's own hooks, so these act first.
        Some(at) => {
            let at = at + "\n    hooks: [\n".len();
            format!("{}{hooks}\n{}", &text[..at], &text[at..])
        }
        None => {
            let end = text.trim_end().rfind(')').expect("game.ron ends with `)`");
            format!("{}    hooks: [{hooks}],\n)\n", &text[..end])
        }
    };
    std::fs::write(&game_ron, text).unwrap();
    for (file, old, new) in edits {
        let path = dir.path().join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.contains(old), "{file} holds `{old}`");
        std::fs::write(&path, text.replacen(old, new, 1)).unwrap();
    }
    load_dir(dir.path())
}

/// The campaign on turn 3 (past turn 1's restrictions), play set to a side's operations at a
/// stage, with markers put on spaces (`(marker, space)`).
fn operations(
    content: &'static Content,
    side: &str,
    stage: OpsStage,
    marked: &[(&str, &str)],
) -> (Rules<'static>, State) {
    prepared(content, (side, stage), marked, |_| {})
}

/// [`operations`], with the position changed by `prepare` before play resumes.
pub(crate) fn prepared(
    content: &'static Content,
    (side, stage): (&str, OpsStage),
    marked: &[(&str, &str)],
    prepare: impl FnOnce(&mut State),
) -> (Rules<'static>, State) {
    let rules = Rules::new(content, "campaign").unwrap();
    let mut state = State::new(content, content.scenario("campaign").unwrap(), 1).unwrap();
    let game = content.game.as_ref().unwrap();
    state.turn = 3;
    state.flow.phase = game.sequence.iter().position(|p| p.id == "action").unwrap();
    state.flow.step = 1;
    state.flow.tasks = vec![Task::Ops {
        side: side.into(),
        points: 0,
        stage,
        kept: Default::default(),
    }];
    for (kind, space) in marked {
        state.markers.push(MarkerOnMap {
            marker: (*kind).into(),
            space: (*space).into(),
            level: 1,
            until: None,
        });
    }
    prepare(&mut state);
    rules::resume(&rules, &mut state);
    (rules, state)
}

pub(crate) fn act(rules: &Rules, state: &mut State, action: &str) {
    rules::apply(rules, state, action).unwrap_or_else(|e| {
        panic!(
            "`{action}` refused: {} (prompt: {:?})",
            e.message, state.flow.prompt
        )
    });
}

/// A number the effect language computes about unit `u` (`mp_left(u)` ...).
fn number_of(content: &Content, state: &State, u: usize, expr: &str) -> i64 {
    let (e, errors) = syntax::parse_expr(expr);
    assert!(errors.is_empty(), "{errors:?}");
    let ctx = Context {
        me: "axis".into(),
        enemy: "allied".into(),
        names: vec![("u".into(), Value::Unit(u))],
        ..Context::default()
    };
    eval::number(&e.unwrap(), content, state, &ctx).unwrap()
}

/// The first unit of a nation and type standing on a space.
fn first_on_map(content: &Content, state: &State, nation: &str, ty: &str) -> usize {
    state
        .units
        .iter()
        .position(|u| {
            let c = content.counter_of(u).unwrap();
            c.nation == nation && c.unit_type == ty && matches!(u.at, Loc::Space(_))
        })
        .unwrap_or_else(|| panic!("a {nation} {ty} unit on the map"))
}

fn space_of(state: &State, u: usize) -> String {
    match &state.units[u].at {
        Loc::Space(s) => s.to_string(),
        other => panic!("unit {u} is not on the map: {other:?}"),
    }
}

/// Moves a unit on through the prompts, always to the first space offered that it has not
/// stood in, until it is offered no move: the number of moves.
fn walk(rules: &Rules, state: &mut State, u: usize) -> usize {
    let name = state.units[u].name(rules.content);
    let prefix = format!("move {name} ");
    let mut seen = BTreeSet::from([space_of(state, u)]);
    let mut moves = 0;
    loop {
        let options = state.flow.prompt.as_ref().unwrap().options().clone();
        let next = options
            .iter()
            .filter_map(|o| o.strip_prefix(&prefix))
            .find(|to| !seen.contains(*to))
            .map(str::to_string);
        let Some(to) = next else { return moves };
        act(rules, state, &format!("move {name} {to}"));
        seen.insert(to);
        moves += 1;
    }
}

const PANZER_PLUS_ONE: &str = r#"
        (
            id: "panzer_plus_one",
            rule: "variant: faster Panzers",
            at: Movement,
            when: "u.type == panzer",
            then: Add("1"),
        ),
"#;

#[test]
fn rule_change_plus_one_movement_to_every_panzer_unit_is_one_hook() {
    let changed = variant("barbarossa-to-berlin", PANZER_PLUS_ONE, &[]);
    let mut walked = Vec::new();
    for content in [b2b(), changed] {
        let (_, state) = operations(content, "axis", OpsStage::Move, &[]);
        let pz = first_on_map(content, &state, "ge", "panzer");
        let start = space_of(&state, pz);
        let (rules, mut state) = operations(content, "axis", OpsStage::Move, &[("move", &start)]);
        let printed = rules.movement(&state.units[pz]) as i64;
        let left = number_of(content, &state, pz, "mp_left(u)");
        walked.push((left - printed, walk(&rules, &mut state, pz)));
        // Infantry is not a Panzer unit: its allowance is as printed.
        let inf = first_on_map(content, &state, "ge", "infantry");
        let printed = rules.movement(&state.units[inf]) as i64;
        assert_eq!(number_of(content, &state, inf, "mp_left(u)"), printed);
    }
    let [(base, base_moves), (plus, plus_moves)] = walked[..] else {
        unreachable!()
    };
    assert_eq!((base, plus), (0, 1), "mp_left before moving");
    assert_eq!(
        plus_moves,
        base_moves + 1,
        "one space further through the prompts"
    );
}

#[test]
fn rule_change_a_marsh_costs_one_more_to_enter_and_nothing_more_to_leave_as_terrain_data() {
    // Barbarossa to Berlin's marsh is its swamp terrain.
    let changed = variant(
        "barbarossa-to-berlin",
        "",
        &[(
            "game.ron",
            r##"(id: "swamp", name: "Swamp", color: Some("#9cc0b4"))"##,
            r##"(id: "swamp", name: "Swamp", color: Some("#9cc0b4"), move_cost: 1.0)"##,
        )],
    );
    let g = &changed.graph;
    let swamp = g
        .spaces
        .iter()
        .position(|s| s.terrain.as_deref() == Some("swamp"))
        .expect("a swamp space");
    let swamp_id = g.spaces[swamp].id.to_string();
    let mut spent = Vec::new();
    for content in [b2b(), changed] {
        // A German infantry unit next to the swamp, in a space activated for movement, with the
        // swamp and its other neighbours Axis-held and empty.
        let g = &content.graph;
        let s = g.index_of(&swamp_id).unwrap();
        // Neighbours across plain land connections (no beach, no river).
        let default = &content.game.as_ref().unwrap().default_connection_kind;
        let near: Vec<String> = g
            .neighbours(s)
            .iter()
            .filter(|&&(_, e)| g.edges[e].kinds.iter().all(|k| k == default))
            .map(|&(n, _)| g.spaces[n].id.to_string())
            .collect();
        let (from, out) = (near[0].clone(), near[1].clone());
        let start = empty_state(content);
        let inf = first_on_map(content, &start, "ge", "infantry");
        let (rules, mut state) = prepared(
            content,
            ("axis", OpsStage::Move),
            &[("move", &from)],
            |state| {
                for sp in near.iter().chain([&swamp_id]) {
                    state.control.insert(sp.as_str().into(), "axis".into());
                    for u in state.units.iter_mut() {
                        if u.at == Loc::Space(sp.as_str().into()) {
                            u.at = Loc::Unplaced;
                        }
                    }
                }
                state.units[inf].at = Loc::Space(from.as_str().into());
            },
        );
        let name = state.units[inf].name(content);
        let before = number_of(content, &state, inf, "mp_left(u)");
        act(&rules, &mut state, &format!("move {name} {swamp_id}"));
        let inside = number_of(content, &state, inf, "mp_left(u)");
        act(&rules, &mut state, &format!("move {name} {out}"));
        let after = number_of(content, &state, inf, "mp_left(u)");
        spent.push((before - inside, inside - after));
    }
    // Into the swamp: 1 point, then 2; out of it: 1 point either way (the space's own
    // connection kinds aside, which both games share).
    assert_eq!(spent[1].0, spent[0].0 + 1, "{spent:?}");
    assert_eq!(spent[1].1, spent[0].1, "{spent:?}");
}

const AXIS_SUPPLY_SIX: &str = r#"
        (
            id: "axis_supply_six",
            rule: "variant: short Axis supply lines",
            at: SupplyReach,
            when: "me == axis",
            then: AtMost("6"),
        ),
"#;

#[test]
fn rule_change_axis_supply_may_not_be_traced_further_than_six_spaces_is_one_hook() {
    let changed = variant("barbarossa-to-berlin", AXIS_SUPPLY_SIX, &[]);
    // The whole map Axis-held and free of Allied units; a German unit goes to the space
    // farthest from every German supply source.
    let g = &changed.graph;
    let sources: Vec<usize> = (0..g.spaces.len())
        .filter(|&i| {
            g.spaces[i]
                .supply
                .iter()
                .any(|x| x.nations.iter().any(|n| n == "ge"))
        })
        .collect();
    let far = g
        .spaces
        .iter()
        .max_by_key(|s| {
            let d = sources
                .iter()
                .map(|src| {
                    number_of(
                        changed,
                        &empty_state(changed),
                        0,
                        &format!("distance({}, {})", g.spaces[*src].id, s.id),
                    )
                })
                .filter(|d| *d >= 0)
                .min()
                .unwrap_or(-1);
            (d, s.id)
        })
        .unwrap()
        .id;
    let mut levels = Vec::new();
    let mut level_there = Vec::new();
    for content in [b2b(), changed] {
        let (rules, mut state) = operations(content, "axis", OpsStage::Move, &[]);
        for s in &content.graph.spaces {
            state.control.insert(s.id, "axis".into());
        }
        for u in state.units.iter_mut() {
            if rules.side(u) != "axis" {
                u.at = Loc::Unplaced;
            }
        }
        let ge = first_on_map(content, &state, "ge", "infantry");
        state.units[ge].at = Loc::Space(far);
        levels.push(supply::levels(content, &state, "ge", "axis"));
        level_there.push(number_of(content, &state, ge, "supply_level(u)"));
    }
    assert_eq!(
        level_there,
        vec![2, 0],
        "a German unit in {far}: Full, then Out"
    );
    let out = |l: &[supply::Level]| l.iter().filter(|x| **x == supply::Level::Out).count();
    assert!(out(&levels[1]) > out(&levels[0]));
    // A Full source's own neighbours keep their supply.
    let full_sources = sources.iter().filter(|&&i| {
        g.spaces[i].supply.iter().any(|x| {
            x.nations.iter().any(|n| n == "ge")
                && x.level == sandtable_engine::model::SupplyLevel::Full
                && x.flag.is_none()
        })
    });
    for &src in full_sources {
        for &(n, _) in g.neighbours(src) {
            assert_eq!(levels[1][n], levels[0][n], "{}", g.spaces[n].id);
        }
    }
}

/// The campaign's start, for questions about the map.
fn empty_state(content: &Content) -> State {
    State::new(content, content.scenario("campaign").unwrap(), 1).unwrap()
}

const FORTRESS_TOLL: &str = r#"
        (
            id: "fortress_toll",
            rule: "variant: fortress assault",
            at: AfterCombat,
            when: "has_feature(defending_space, fort) and attacker_steps_lost == 0 and exists(attackers)",
            then: Run("reduce(choose_one(attackers, question: \"Fortress assault: which attacker loses a step?\"))"),
        ),
"#;

/// The steps of the units on the map among some.
fn steps(rules: &Rules, state: &State, us: &[usize]) -> u32 {
    us.iter()
        .filter(|&&u| matches!(state.units[u].at, Loc::Space(_)))
        .map(|&u| rules.steps(&state.units[u]))
        .sum()
}

#[test]
fn rule_change_an_attack_on_a_fortress_costs_the_attacker_at_least_one_step_is_one_hook() {
    let changed = variant("barbarossa-to-berlin", FORTRESS_TOLL, &[]);
    // Die rolls (the attacker's, then the defender's) with which the unchanged game's defender
    // inflicts no loss; one attacker, then two (the attacking player chooses which loses it).
    for attackers in [1, 2] {
        let dice = (1..=6)
            .flat_map(|a| (1..=6).map(move |d| format!("{a} {d}")))
            .find(|dice| fortress_assault(b2b(), dice, attackers).0 == 0)
            .expect("some roll costs the attacker nothing");
        let lost: Vec<(u32, bool)> = [b2b(), changed]
            .into_iter()
            .map(|content| fortress_assault(content, &dice, attackers))
            .collect();
        // With one unit there is nothing to choose; with two the hook asks through a prompt.
        let asked = attackers > 1;
        assert_eq!(
            lost,
            vec![(0, false), (1, asked)],
            "{attackers} attackers: steps lost, hook asked, with dice {dice}"
        );
    }
}

/// German infantry units attack Sevastopol (a fort), with these die rolls; the steps they lost,
/// and whether the fortress hook asked which attacker loses a step.
fn fortress_assault(content: &'static Content, dice: &str, attackers: usize) -> (u32, bool) {
    {
        let g = &content.graph;
        let fort = g.index_of("sevastopol").unwrap();
        let from = g.spaces[g.neighbours(fort)[0].0].id;
        let start = empty_state(content);
        let ges: Vec<usize> = (0..start.units.len())
            .filter(|&i| {
                let c = content.counter_of(&start.units[i]).unwrap();
                c.nation == "ge"
                    && c.unit_type == "infantry"
                    && matches!(start.units[i].at, Loc::Space(_))
            })
            .take(attackers)
            .collect();
        let (rules, mut state) =
            prepared(
                content,
                ("axis", OpsStage::Attack),
                &[("combat", &from)],
                |state| {
                    // The rest of the map Axis-held and free of Allied units, so the attacker is
                    // in supply and play stops at the Allies' next decision.
                    let sevastopol = Loc::Space("sevastopol".into());
                    for u in state.units.iter_mut() {
                        let allied =
                            content.counter_of(u).is_some_and(|c| {
                                content.game.as_ref().unwrap().nations.iter().any(|n| {
                                    n.id == c.nation && n.side.as_deref() == Some("allied")
                                })
                            });
                        if u.at == Loc::Space(from) || allied && u.at != sevastopol {
                            u.at = Loc::Unplaced;
                        }
                    }
                    for sp in &content.graph.spaces {
                        state.control.insert(sp.id, "axis".into());
                    }
                    state.control.insert("sevastopol".into(), "allied".into());
                    for &ge in &ges {
                        state.units[ge].at = Loc::Space(from);
                    }
                },
            );
        let before = steps(&rules, &state, &ges);
        act(&rules, &mut state, &format!("dice {dice}"));
        act(&rules, &mut state, "attack sevastopol");
        for &ge in &ges {
            let name = state.units[ge].name(content);
            act(&rules, &mut state, &format!("with {name}"));
        }
        act(&rules, &mut state, "fight");
        let mut asked = false;
        while let Some(p) = state.flow.prompt.clone() {
            if !state
                .flow
                .tasks
                .iter()
                .any(|t| matches!(t, Task::Combat(_) | Task::Hook { .. }))
            {
                break;
            }
            let action = match p.kind.as_str() {
                "combat_card" => "no_card".to_string(),
                "advance" => "done".to_string(),
                "decision" => {
                    asked = true;
                    assert!(p.question.contains("Fortress assault"), "{p:?}");
                    format!("choose {}", p.options()[0])
                }
                _ => p.options()[0].clone(),
            };
            act(&rules, &mut state, &action);
        }
        (before - steps(&rules, &state, &ges), asked)
    }
}

#[test]
fn a_hook_whose_effect_does_not_fit_its_point_or_whose_script_is_wrong_is_reported_in_place() {
    let loaded = load_variant(
        "barbarossa-to-berlin",
        r#"
        (id: "wrong_kind", at: MayMove, then: Add("1")),
        (id: "wrong_type", at: Movement, then: Add("u.type")),
        (id: "wrong_name", at: MoveCost, when: "too.terrain == swamp", then: Add("1")),
"#,
        &[],
    );
    let lines: Vec<String> = loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:#?}");
    assert!(
        lines[0].contains("E0220")
            && lines[0].contains("`Add` does not fit the hook point `MayMove`"),
        "{}",
        lines[0]
    );
    assert!(lines.iter().all(|l| l.contains("game.ron:")), "{lines:#?}");
    assert!(lines[2].contains("too"), "{}", lines[2]);
}

/// The same hook in the zone game played by impulses: a unit activated to move has one point
/// more, asked through `mp_left` after activation, and it is offered the moves that point buys.
#[test]
fn the_same_movement_hook_acts_in_berlin_1945s_impulses() {
    let hook = r#"
        (id: "armour_plus_one", rule: "variant", at: Movement, when: "u.type == armour", then: Add("1")),
"#;
    let changed = variant("berlin-1945", hook, &[]);
    let base = variant("berlin-1945", "", &[]);
    let mut left = Vec::new();
    for content in [base, changed] {
        let (rules, mut state) = crate::activation_hooks::berlin_activation(content);
        let p = state.flow.prompt.clone().unwrap();
        let (u, activate) = p
            .options()
            .iter()
            .filter_map(|o| o.strip_prefix("activate ")?.strip_suffix(" move"))
            .find_map(|name| {
                let u = state.units.iter().position(|x| x.name(content) == name)?;
                let c = content.counter_of(&state.units[u])?;
                (c.unit_type == "armour").then(|| (u, format!("activate {name} move")))
            })
            .expect("an armoured unit may be activated to move");
        act(&rules, &mut state, &activate);
        act(&rules, &mut state, "go");
        left.push(number_of(content, &state, u, "mp_left(u)"));
    }
    assert_eq!(left[1], left[0] + 1, "{left:?}");
}

#[test]
fn a_hook_that_can_never_apply_is_warned_of() {
    let loaded = load_variant(
        "barbarossa-to-berlin",
        r#"
        (id: "cavalry_charge", at: Strength, when: "attacking and u.type == cavalry", then: Add("1")),
        (id: "switched_off", at: Drm, when: "false", then: Add("1")),
        (id: "fine", at: Movement, when: "u.type == panzer or u.type == cavalry", then: Add("1")),
"#,
        &[(
            "game.ron",
            r#"(id: "infantry", name: "Infantry"),"#,
            r#"(id: "infantry", name: "Infantry"), (id: "cavalry", name: "Cavalry"),"#,
        )],
    );
    assert!(!loaded.has_errors());
    let warnings: Vec<String> = loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == "W0020")
        .map(|d| loaded.sources.render_line(d))
        .collect();
    assert_eq!(warnings.len(), 2, "{warnings:#?}");
    assert!(
        warnings[0]
            .contains("`cavalry_charge` can never apply: no counter has unit type `cavalry`"),
        "{}",
        warnings[0]
    );
    assert!(warnings[1].contains("`switched_off`"), "{}", warnings[1]);
}

/// The warnings of a copy of Barbarossa to Berlin with text replacements made (no hooks).
fn warnings_with(edits: &[(&str, &str, &str)], code: &str) -> Vec<String> {
    let loaded = load_variant("barbarossa-to-berlin", "", edits);
    assert!(!loaded.has_errors(), "{:?}", loaded.errors().next());
    loaded
        .diagnostics
        .iter()
        .filter(|d| d.code == code)
        .map(|d| loaded.sources.render_line(d))
        .collect()
}

const BOG: (&str, &str, &str) = (
    "game.ron",
    r##"(id: "clear", name: "Clear", color: Some("#e8e2c8")),"##,
    r##"(id: "clear", name: "Clear", color: Some("#e8e2c8")), (id: "bog", name: "Bog"),"##,
);
const HOLLAND_BOG: (&str, &str, &str) = (
    "map.ron",
    "            name: \"Holland\",\n            terrain: Some(\"swamp\"),",
    "            name: \"Holland\",\n            terrain: Some(\"bog\"),",
);

#[test]
fn validate_warns_of_a_terrain_that_nothing_gives_an_effect() {
    let w = warnings_with(&[BOG, HOLLAND_BOG], "W0021");
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].contains("terrain `bog`") && w[0].contains("its 1 space (`holland`"),
        "{}",
        w[0]
    );
    // A movement cost, or a hook that names it, is an effect.
    let hooked = (
        "game.ron",
        "    hooks: [\n",
        "    hooks: [\n        (id: \"no_sr_into_bog\", rule: \"test\", at: MayRedeploy, when: \"to.terrain == bog\", then: Forbid),\n",
    );
    assert!(warnings_with(&[BOG, HOLLAND_BOG, hooked], "W0021").is_empty());
    let costed = (
        "game.ron",
        r##"(id: "clear", name: "Clear", color: Some("#e8e2c8")),"##,
        r##"(id: "clear", name: "Clear", color: Some("#e8e2c8")), (id: "bog", name: "Bog", move_cost: 1.0),"##,
    );
    assert!(warnings_with(&[costed, HOLLAND_BOG], "W0021").is_empty());
    // Unused, it is only declared: no warning either.
    assert!(warnings_with(&[BOG], "W0021").is_empty());
}

#[test]
fn validate_warns_of_a_connection_kind_no_move_can_cross_for_no_reason() {
    let ford = (
        "game.ron",
        r##"(id: "regular", name: "Regular", color: Some("#202020")),"##,
        r##"(id: "regular", name: "Regular", color: Some("#202020")), (id: "ford", name: "Ford"),"##,
    );
    let edge = (
        "map.ron",
        r#"(a: "reims", b: "paris", provenance: Reconstructed("geography")),"#,
        r#"(a: "reims", b: "paris", kinds: ["ford"], provenance: Reconstructed("geography")),"#,
    );
    let w = warnings_with(&[ford, edge], "W0022");
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].contains("connection kind `ford`") && w[0].contains("cross its 1 connection,"),
        "{}",
        w[0]
    );
    let movable = (
        "game.ron",
        r#"move_kinds: ["regular", "river"],"#,
        r#"move_kinds: ["regular", "river", "ford"],"#,
    );
    assert!(warnings_with(&[ford, edge, movable], "W0022").is_empty());
}

#[test]
fn validate_warns_of_a_capture_rule_or_an_offensive_that_can_never_fire() {
    let relic = (
        "game.ron",
        r#"(id: "fort_destroyed", name: "Fort destroyed"),"#,
        r#"(id: "fort_destroyed", name: "Fort destroyed"), (id: "relic", name: "Relic"),"#,
    );
    let capture = (
        "game.ron",
        r#"captured_markers: [(marker: "stalin","#,
        r#"captured_markers: [(marker: "relic","#,
    );
    let w = warnings_with(&[relic, capture], "W0023");
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].contains("capture rule can never fire") && w[0].contains("`relic`"),
        "{}",
        w[0]
    );
    let never = (
        "game.ron",
        r#"        (id: "us_at_war", name: "U.S. at war"),"#,
        r#"        (id: "us_at_war", name: "U.S. at war"), (id: "never_set", name: "Never"),"#,
    );
    let offensive = (
        "game.ron",
        r#"(flag: "okw_offensive", side: "axis""#,
        r#"(flag: "never_set", side: "axis""#,
    );
    let w = warnings_with(&[never, offensive], "W0023");
    assert_eq!(w.len(), 1, "{w:#?}");
    assert!(
        w[0].contains("offensive can never be owed") && w[0].contains("`never_set`"),
        "{}",
        w[0]
    );
    // The bundled game has none of these.
    assert!(warnings_with(&[], "W0023").is_empty());
}

const ATTACKER_TOLL: &str = r#"
        (
            id: "attacker_toll",
            rule: "variant: every attack costs the attacker a step",
            at: AfterCombat,
            when: "exists(attackers)",
            then: Run("reduce(choose_one(attackers, question: \"Toll: which attacker loses a step?\"))"),
        ),
"#;

/// Plays Berlin 1945 from its start, attacking with the first unit it may, until the first
/// combat has ended; returns the attackers, their steps on the map then, and whether the
/// toll was asked.
fn first_berlin_combat(content: &'static Content) -> (Vec<usize>, u32, bool) {
    let rules = Rules::new(content, "standard").unwrap();
    let mut state = rules::start(&rules, 3, &[], &[]).unwrap();
    let (mut attackers, mut asked) = (Vec::new(), false);
    for _ in 0..400 {
        let p = state.flow.prompt.clone().expect("the game goes on");
        if let Some(Task::Combat(c)) = state.flow.tasks.last() {
            // An impulse's combat is the same task as an action round's, in its odds form.
            assert_eq!(c.how, rules::combat::How::odds(c.how.at.unwrap(), false));
            attackers = c.attackers.clone();
        } else if !attackers.is_empty()
            && !matches!(state.flow.tasks.last(), Some(Task::Hook { .. }))
        {
            return (attackers.clone(), steps(&rules, &state, &attackers), asked);
        }
        let action = match p.kind.as_str() {
            "decision" if p.question.contains(": Toll:") => {
                asked = true;
                format!("choose {}", p.options()[0])
            }
            "decision" => "choose".to_string(),
            "event" | "combat_card" => "no card".to_string(),
            "activate" => p
                .options()
                .iter()
                .find(|o| o.ends_with(" combat") && state.flow.activated.is_empty())
                .cloned()
                .unwrap_or_else(|| p.options().last().unwrap().clone()),
            "move" => "done".to_string(),
            "attack" => p.options()[0].clone(),
            "attackers" => format!("choose {}", p.options().join(" ")),
            _ => p.options()[0].clone(),
        };
        act(&rules, &mut state, &action);
    }
    panic!("no combat ended in 400 actions");
}

#[test]
fn the_same_after_combat_hook_acts_in_berlin_1945s_combat_by_odds() {
    let (base_attackers, base_steps, base_asked) =
        first_berlin_combat(variant("berlin-1945", "", &[]));
    let (attackers, steps, asked) = first_berlin_combat(variant("berlin-1945", ATTACKER_TOLL, &[]));
    assert!(!base_asked && asked);
    assert_eq!(attackers, base_attackers);
    assert_eq!(steps + 1, base_steps);
}

#[test]
fn rule_change_zones_of_control_cost_one_more_to_enter_and_one_to_leave_as_game_data() {
    // Entering a space next to an enemy unit costs a point more, leaving one a point more:
    // a German army stepping from Minsk to Bobruisk, both next to Soviet-held Orsha-Mogilev,
    // pays 1 + 1 + 1 instead of 1.
    let changed = variant(
        "barbarossa-to-berlin",
        "",
        &[(
            "game.ron",
            "\n    hooks: [\n",
            "\n    zones_of_control: Some((enter: [(cost: 1)], leave: [(cost: 1)], rule: \"variant\")),\n    hooks: [\n",
        )],
    );
    let mut spent = Vec::new();
    for content in [b2b(), changed] {
        let start = empty_state(content);
        let inf = first_on_map(content, &start, "ge", "infantry");
        let su = first_on_map(content, &start, "su", "infantry");
        let (rules, mut state) = prepared(
            content,
            ("axis", OpsStage::Move),
            &[("move", "minsk")],
            |state| {
                for sp in ["minsk", "bobruisk", "orsha_mogilev"] {
                    for u in state.units.iter_mut() {
                        if u.at == Loc::Space(sp.into()) {
                            u.at = Loc::Unplaced;
                        }
                    }
                }
                state.control.insert("minsk".into(), "axis".into());
                state.control.insert("bobruisk".into(), "axis".into());
                state
                    .control
                    .insert("orsha_mogilev".into(), "allied".into());
                state.units[inf].at = Loc::Space("minsk".into());
                state.units[su].at = Loc::Space("orsha_mogilev".into());
            },
        );
        let name = state.units[inf].name(content);
        let before = number_of(content, &state, inf, "mp_left(u)");
        act(&rules, &mut state, &format!("move {name} bobruisk"));
        spent.push(before - number_of(content, &state, inf, "mp_left(u)"));
    }
    assert_eq!(spent, [1, 3]);
}
