//! A phase of movement's prompt made from the one before (`rules::impulses::kept_moves`): a
//! unit's moves are kept while nothing near it changed, and play is the same as when every
//! unit's moves are worked out anew.

use sandtable_engine::rules::impulses::kept_moves::{moves_kept, without_kept_moves};

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
    let kept_before = moves_kept();
    let with = trace(&changed.content, "barbarossa", 3, 60);
    assert_eq!(moves_kept(), kept_before, "no unit's moves kept");
    let without = without_kept_moves(|| trace(&changed.content, "barbarossa", 3, 60));
    assert_eq!(with, without);
}
