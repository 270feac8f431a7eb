//! Issue 19's what-if branches: from any step of the log a new line plays on differently, the
//! old one kept whole; lines are named and renamed, compared at the same step (tracks,
//! control, units in names), and saved with the game, and a game saved before branches
//! existed still loads.

use sandtable_engine::load::load_dir;
use sandtable_engine::playtest::Playtest;
use sandtable_engine::session::{SavedGame, Setup};

use crate::telling::b2b_opening;

fn opening_played() -> Playtest {
    let loaded = load_dir(crate::b2b());
    let setup = Setup {
        scenario: "campaign".into(),
        seed: 1,
        ..Setup::default()
    };
    let mut p = Playtest::with_sources(loaded.content, loaded.sources, setup).unwrap();
    for a in b2b_opening() {
        p.apply(a).unwrap();
    }
    p
}

#[test]
fn a_branch_plays_on_differently_from_any_step_and_keeps_the_old_line_whole() {
    let mut p = opening_played();
    assert_eq!(p.name, "main line");
    // Before the Northwest Front's first move (action 12), move the West Front instead.
    p.branch(11, "west front first").unwrap();
    assert_eq!(p.name, "west front first");
    assert_eq!(p.session.log(), &b2b_opening()[..11]);
    assert_eq!(p.lines.len(), 1);
    assert_eq!(p.lines[0].name, "main line");
    assert_eq!(p.lines[0].actions, b2b_opening());
    p.apply("move su_west_front brest_litovsk").unwrap();
    // Compared after step 12: the two fronts stand differently.
    let said = p.compare(0, 12).unwrap();
    let text = said.join("\n");
    assert!(
        text.contains("Northwest Front: Kaunas in \"west front first\", Riga in \"main line\"."),
        "{text}"
    );
    assert!(
        text.contains(
            "West Front: Brest-Litovsk in \"west front first\", Bialystok in \"main line\"."
        ),
        "{text}"
    );
    // After step 11 they stand the same.
    let same = p.compare(0, 11).unwrap();
    assert!(same[0].contains("stand the same"), "{same:?}");
    // A step past the log is refused, and changes nothing.
    assert!(p.branch(99, "too far").is_err());
    assert_eq!(p.name, "west front first");
}

#[test]
fn lines_are_renamed_but_never_to_another_lines_name() {
    let mut p = opening_played();
    p.branch(5, &p.new_branch_name()).unwrap();
    assert_eq!(p.name, "branch 1");
    assert!(p.rename(None, "main line").is_err(), "the kept line's name");
    assert!(p.rename(None, "  ").is_err());
    p.rename(None, "no Barbarossa").unwrap();
    p.rename(Some(0), "historical").unwrap();
    assert_eq!(
        (p.name.as_str(), p.lines[0].name.as_str()),
        ("no Barbarossa", "historical")
    );
    assert_eq!(p.new_branch_name(), "branch 1");
}

#[test]
fn branches_are_saved_with_the_game_and_come_back_when_it_is_loaded() {
    let mut p = opening_played();
    p.branch(11, "west front first").unwrap();
    p.apply("move su_west_front brest_litovsk").unwrap();
    let text = p.save().to_ron();
    let saved = SavedGame::from_ron(&text).unwrap();
    assert_eq!(saved.name, "west front first");
    assert_eq!(saved.branches.len(), 1);
    assert_eq!(saved.branches[0].name, "main line");
    let loaded = load_dir(crate::b2b());
    let (mut back, stop) = Playtest::replayed(
        loaded.content,
        loaded.sources,
        saved.setup.clone(),
        &saved.actions,
        "saved",
    )
    .unwrap();
    assert!(stop.is_none());
    back.restore_lines(&saved);
    assert_eq!(back.name, "west front first");
    assert_eq!(back.lines[0].actions, b2b_opening());
    assert_eq!(back.compare(0, 12).unwrap(), p.compare(0, 12).unwrap());
    // A game saved without branches (before they existed) still reads.
    let old = "(game: \"b2b\", content_hash: \"x\", setup: (scenario: \"campaign\", seed: 1), actions: [\"take barbarossa\"])";
    let old = SavedGame::from_ron(old).unwrap();
    assert!(old.branches.is_empty() && old.name.is_empty());
}
