//! Supply levels kept across flags: a trace reads only the flags that open or shut a source and
//! those of the `limited_while` rules, so a flag of another rule leaves the levels kept, and a
//! flag a trace reads has them traced again.

use sandtable_engine::content::Content;
use sandtable_engine::rules::supply::{levels_kept, view_kept, without_kept, Level};
use sandtable_engine::rules::{start, Rules};
use sandtable_engine::state::State;

/// The B2B campaign's first state, with its content.
fn campaign_start() -> (&'static Content, State) {
    let content = crate::cards::b2b();
    let rules = Rules::new(content, "campaign").unwrap();
    (content, start(&rules, 1, &[], &[]).unwrap())
}

/// The German levels of every space, for the Axis, kept or traced.
fn german(content: &Content, state: &State) -> std::rc::Rc<[Level]> {
    levels_kept(content, state, &view_kept(content, state, "axis"), "ge")
}

#[test]
fn rule_8_2_a_mandated_offensive_flag_leaves_the_supply_levels_kept() {
    // B2B 8.2: the OKW Offensive flag (set by the Axis Orders) reads nothing of supply. Levels
    // asked again after it is set are the ones kept before it, not traced anew, and they are
    // the levels a trace gives.
    let (content, mut state) = campaign_start();
    let before = german(content, &state);
    state.flags.insert("okw_offensive".into());
    let after = german(content, &state);
    assert!(
        std::rc::Rc::ptr_eq(&before, &after),
        "the German levels traced again for a flag no trace reads"
    );
    let traced = without_kept(|| german(content, &state));
    assert_eq!(after, traced);
}

#[test]
fn rule_15_2_the_winter_1942_flag_has_the_german_levels_in_the_soviet_union_traced_again() {
    // B2B 15.2 (play rule `limited_while`): while the Winter 1942 flag is set, German units in
    // the Soviet Union are at best in Limited Supply. The flag is read by every German trace:
    // levels kept from before it was set are not taken, and the Soviet spaces in German Full
    // Supply before it are in Limited Supply after, as a trace says.
    let (content, mut state) = campaign_start();
    let before = german(content, &state);
    let g = &content.graph;
    let soviet: Vec<usize> = (0..g.spaces.len())
        .filter(|&i| g.spaces[i].country.as_deref() == Some("soviet_union"))
        .filter(|&i| before[i] == Level::Full)
        .collect();
    assert!(
        !soviet.is_empty(),
        "no Soviet space in German Full Supply at the start"
    );
    state.flags.insert("winter_42".into());
    let after = german(content, &state);
    for &i in &soviet {
        assert_eq!(
            after[i],
            Level::Limited,
            "{} under the Winter 1942 flag",
            g.spaces[i].id
        );
    }
    let traced = without_kept(|| german(content, &state));
    assert_eq!(after, traced);
}
