//! The session's properties: replay equals live play, the same seed gives the same game, undo,
//! die overrides, illegal actions change nothing, saved games, hot reload, random campaigns end.

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::rules::Rules;
use sandtable_engine::session::{Playtest, SavedGame, Session};
use sandtable_engine::state::Loc;

use super::setup;
use crate::cards::b2b;

/// Plays `n` random actions (or to the end); returns the session.
pub(super) fn random_walk(seed: u64, n: usize) -> Session {
    let mut s = Session::new(b2b(), setup(seed)).unwrap();
    let mut agent = RandomAgent::new(seed);
    for _ in 0..n {
        let Some(p) = s.prompt().cloned() else { break };
        let a = agent.act(&p);
        s.apply(b2b(), &a.to_string()).unwrap_or_else(|e| {
            panic!("seed {seed}: `{a}` was offered but refused: {}", e.message)
        });
    }
    s
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
            s.apply(content, &agent.act(&p).to_string()).unwrap();
            // Between actions no space holds both sides' units.
            let mut sides: std::collections::BTreeMap<&str, std::collections::BTreeSet<&str>> =
                Default::default();
            for u in &s.state().units {
                if let Loc::Space(sp) = &u.at {
                    sides.entry(sp).or_default().insert(rules.side(u).as_str());
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
