//! A phase of movement's prompt made from the one before (`rules::impulses::kept_moves`): a
//! unit's moves, and whether a space may be overrun by several units, are kept while nothing
//! near them changed, and play is the same as when they are worked out anew.

use sandtable_engine::rules::impulses::kept_moves::{
    moves_kept, overruns_kept, without_kept_moves,
};

use crate::hook_memo::trace;

#[test]
fn a_units_moves_kept_from_the_prompt_before_are_those_worked_out_anew() {
    // SPI Barbarossa's first phases of movement (Movement A: a unit moves hex by hex; the
    // Terrain Effects Chart's costs, zones of control, stacking where a move ends, overruns):
    // dozens of German units move, one step at a time, and every prompt offers each one's next
    // steps, most of them far from the unit that moved last.
    let spi = sandtable_engine::load::load_dir(crate::root().join("content/spi-barbarossa"));
    assert!(!spi.has_errors());
    let kept_before = moves_kept();
    let with = trace(&spi.content, "barbarossa", 3, 120);
    let kept = moves_kept() - kept_before;
    assert!(kept > 500, "only {kept} units' moves were kept");
    let without = without_kept_moves(|| trace(&spi.content, "barbarossa", 3, 120));
    assert_eq!(
        moves_kept() - kept_before,
        kept,
        "none kept when turned off"
    );
    assert_eq!(with.len(), without.len());
    for (i, (a, b)) in with.iter().zip(&without).enumerate() {
        assert!(a == b, "action {i} differs");
    }
}

#[test]
fn no_moves_are_kept_when_a_movement_hook_counts_pieces_anywhere_on_the_map() {
    // A rule changed in a copy: motorized units pay one more in rough terrain only while the
    // Soviets have more than ten units on the map. A unit's step then costs what pieces far
    // from it decide, so every unit's moves are worked out anew at every prompt.
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::root().join("content/spi-barbarossa"), dir.path());
    let path = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let from = "when: \"(u.type == armor or u.type == armored_infantry) and (to.terrain == rough";
    let to = "when: \"count(units(side: soviet)) > 10 and (u.type == armor or u.type == armored_infantry) and (to.terrain == rough";
    assert!(text.contains(from));
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let changed = sandtable_engine::load::load_dir(dir.path());
    assert!(!changed.has_errors());
    let (kept_before, overruns_before) = (moves_kept(), overruns_kept());
    let with = trace(&changed.content, "barbarossa", 3, 60);
    assert_eq!(moves_kept(), kept_before, "no unit's moves kept");
    assert_eq!(overruns_kept(), overruns_before, "no overrun's answer kept");
    let without = without_kept_moves(|| trace(&changed.content, "barbarossa", 3, 60));
    assert_eq!(with, without);
}

#[test]
fn an_overrun_by_several_units_is_kept_only_while_nothing_near_its_space_changed() {
    // Overrun (SPI Barbarossa): three 3-2-8 corps in 2412 may overrun the 2-1-5 in 2413
    // together (9 to 1), two may not (6 to 1); the rulebook example's position, the rest of
    // the German set-up moving in the same phase. A step far away keeps the answer for 2413
    // from the prompt before; a corps stepping out of reach of 2413 takes the offer away.
    use sandtable_engine::session::{Session, Setup};
    let spi = sandtable_engine::load::load_dir(crate::root().join("content/spi-barbarossa"));
    assert!(!spi.has_errors());
    let content = &spi.content;
    let example = (content.examples.iter())
        .find(|e| e.data.id == "overrun_three_3_2_8s_together")
        .unwrap();
    let g = &content.graph;
    let near_2413 = |space: &str| {
        let (a, b) = (g.index_of(space).unwrap(), g.index_of("2413").unwrap());
        a == b || g.neighbours(a).iter().any(|&(n, _)| n == b)
    };
    // 2412 and the hexes behind it, away from 2413, held by the Germans: a step there takes
    // no hex (control changed would have every unit's moves and overruns worked out anew).
    let mut position = example.data.position.clone();
    let mut behind: Vec<String> = (g.neighbours(g.index_of("2412").unwrap()).iter())
        .map(|&(n, _)| g.spaces[n].id.to_string())
        .filter(|id| !near_2413(id))
        .collect();
    assert!(!behind.is_empty());
    behind.push("2412".into());
    position
        .control
        .push(sandtable_engine::model::ControlSetting {
            side: Some("axis".into()),
            regions: Vec::new(),
            spaces: behind,
        });
    let setup = Setup {
        scenario: "barbarossa".into(),
        options: Vec::new(),
        seed: 1,
        dice: Vec::new(),
        position: Some(position),
    };
    let mut s = Session::new(content, setup).unwrap_or_else(|e| panic!("{}", e.0));
    let options = |s: &Session| -> Vec<String> {
        s.prompt()
            .unwrap()
            .options()
            .iter()
            .map(|a| a.to_string())
            .collect()
    };
    assert!(options(&s).contains(&"overrun 2413".to_string()));
    // A unit far from 2413 steps (more than three connections from it, before and after).
    let around =
        sandtable_engine::rules::supply::within(content, &[g.index_of("2413").unwrap()], 4);
    let within = |x: &str| around[g.index_of(x).unwrap()];
    let far = options(&s)
        .into_iter()
        .find(|a| {
            let ["move", unit, to] = a.split(' ').collect::<Vec<_>>()[..] else {
                return false;
            };
            let from = s.state().units.iter().find(|u| u.name(content) == unit);
            let Some(sandtable_engine::state::Loc::Space(from)) = from.map(|u| &u.at) else {
                return false;
            };
            !within(from) && !within(to)
        })
        .expect("a step far from 2413");
    let before = overruns_kept();
    s.apply(content, &far).unwrap();
    assert!(
        overruns_kept() > before,
        "the answer for 2413 kept after `{far}`"
    );
    assert!(
        options(&s).contains(&"overrun 2413".to_string()),
        "after `{far}`"
    );
    // A corps steps out of 2412 to a hex its side holds already (control as it was), not next
    // to 2413: two are left, not enough.
    let held = |to: &str| {
        s.state()
            .control
            .get(to)
            .is_some_and(|c| c.as_str() == "axis")
    };
    let away = options(&s)
        .into_iter()
        .find(|a| {
            a.strip_prefix("move ge_pz_corps.1 ")
                .is_some_and(|to| !near_2413(to) && held(to))
        })
        .expect("a step of the corps away from 2413");
    s.apply(content, &away).unwrap();
    assert!(
        !options(&s).contains(&"overrun 2413".to_string()),
        "no overrun of 2413 after `{away}`"
    );
}
