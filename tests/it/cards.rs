//! Barbarossa to Berlin's cards played from prepared states: each test plays one card's event
//! or combat modifier and checks what it changes, and where it may not be played.

use std::sync::OnceLock;

use sandtable_engine::content::Content;
use sandtable_engine::script::eval::{self, Answer, Combat, Context, Outcome};
use sandtable_engine::state::{Loc, ModifierEffect, State};

pub fn b2b() -> &'static Content {
    static CONTENT: OnceLock<Content> = OnceLock::new();
    CONTENT.get_or_init(|| {
        let loaded = sandtable_engine::load::load_dir(crate::b2b());
        let errors: Vec<String> = loaded
            .errors()
            .map(|d| loaded.sources.render_line(d))
            .collect();
        assert!(errors.is_empty(), "{}", errors.join("\n"));
        loaded.content
    })
}

/// The campaign's opening state with a fixed seed.
pub fn campaign() -> State {
    State::new(b2b(), b2b().scenario("campaign").unwrap(), 7).unwrap()
}

/// The context of a card: its player and the other side.
pub fn ctx(card: &str) -> Context {
    let axis = b2b()
        .decks
        .iter()
        .any(|d| d.deck == "axis" && d.cards.iter().any(|c| c.id == card));
    let (me, enemy) = if axis {
        ("axis", "allied")
    } else {
        ("allied", "axis")
    };
    Context {
        me: me.into(),
        enemy: enemy.into(),
        card: Some(card.into()),
        combat: None,
        space: None,
        names: Vec::new(),
    }
}

/// Whether a card's event may be played now (no condition: always).
pub fn playable(card: &str, state: &State) -> bool {
    match &b2b().scripts[card].playable {
        Some(cond) => eval::condition(cond, b2b(), state, &ctx(card)).unwrap(),
        None => true,
    }
}

/// Plays a card's event with the given answers; returns the decision it still needs, if any.
pub fn play(card: &str, state: &mut State, answers: &[Answer]) -> Option<eval::Decision> {
    let effect = b2b().scripts[card]
        .effect
        .as_ref()
        .unwrap_or_else(|| panic!("{card} has no effect"));
    let (outcome, _) = eval::run(effect, b2b(), state, &ctx(card), answers).unwrap();
    match outcome {
        Outcome::Done => {
            state.record_played(card);
            None
        }
        Outcome::Asks(d) => Some(d),
    }
}

/// Plays a combat card in a combat; returns the modifiers it gives that combat.
pub fn play_combat(card: &str, state: &mut State, combat: Combat) -> Vec<ModifierEffect> {
    let script = b2b().scripts[card]
        .combat
        .as_ref()
        .unwrap_or_else(|| panic!("{card} is no combat card"));
    let ctx = Context {
        combat: Some(combat),
        space: None,
        names: Vec::new(),
        ..ctx(card)
    };
    let (outcome, modifiers) = eval::run(script, b2b(), state, &ctx, &[]).unwrap();
    assert_eq!(outcome, Outcome::Done);
    modifiers.into_iter().map(|m| m.effect).collect()
}

/// Units of a counter on a space.
pub fn units_of(state: &State, counter: &str, space: &str) -> Vec<usize> {
    state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.counter == counter && u.at == Loc::Space(space.into()))
        .map(|(i, _)| i)
        .collect()
}

/// An answer naming options by their text forms.
pub fn answer(options: &[&str]) -> Answer {
    options.iter().map(|s| s.to_string()).collect()
}

/// The spaces holding a marker, sorted.
pub fn marked(s: &State, marker: &str) -> Vec<String> {
    let mut v: Vec<String> = s
        .markers
        .iter()
        .filter(|m| m.marker == marker)
        .map(|m| m.space.to_string())
        .collect();
    v.sort();
    v
}

#[test]
fn axis_4_taifun_marks_four_spaces_adds_a_drm_and_costs_a_vp_without_okh_conference() {
    let mut s = campaign();
    let d = play("taifun", &mut s, &[]).expect("Taifun asks for four spaces");
    assert_eq!((d.by.as_str(), d.min, d.max), ("axis", 4, 4));
    assert!(
        d.options.contains(&"warsaw".to_string()) && !d.options.contains(&"moscow".to_string())
    );
    let picks = answer(&["warsaw", "lublin", "memel", "insterburg"]);
    assert_eq!(play("taifun", &mut s, &[picks]), None);
    let combat: Vec<&str> = s
        .markers
        .iter()
        .filter(|m| m.marker == "combat")
        .map(|m| m.space.as_str())
        .collect();
    assert_eq!(combat, ["insterburg", "lublin", "memel", "warsaw"]);
    assert!(s.flags.contains("moscow_attackable"));
    assert_eq!(
        s.track("vp"),
        6,
        "-1 VP unless OKH Conference has been played"
    );
    let drm = &s.modifiers[0];
    assert_eq!(
        (
            drm.effect.clone(),
            drm.defender_nation.as_deref(),
            drm.until.as_str()
        ),
        (ModifierEffect::Drm(1), Some("su"), "end_of_round")
    );
    s.end("end_of_round");
    assert!(s.modifiers.is_empty(), "the DRM lasts this round only");
}

#[test]
fn axis_4_taifun_costs_no_vp_after_okh_conference() {
    let mut s = campaign();
    s.record_played("okh_conference");
    play(
        "taifun",
        &mut s,
        &[answer(&["warsaw", "lublin", "memel", "insterburg"])],
    );
    assert_eq!(s.track("vp"), 7);
}

#[test]
fn a_wrong_answer_is_refused_and_the_state_is_left_as_it_was() {
    let mut s = campaign();
    let before = s.clone();
    let effect = b2b().scripts["taifun"].effect.as_ref().unwrap();
    let err = eval::run(
        effect,
        b2b(),
        &mut s,
        &ctx("taifun"),
        &[answer(&["moscow", "warsaw", "memel", "lublin"])],
    )
    .unwrap_err();
    assert!(err.message.contains("does not fit"), "{}", err.message);
    assert_eq!(s, before);
}

#[test]
fn allied_10_nkvd_boosts_morale_gives_soviet_defenders_plus_one() {
    let mut s = campaign();
    let soviet = units_of(&s, "su_army", "riga");
    let german = units_of(&s, "ge_16th_army", "memel");
    let defending = Combat {
        attacking: false,
        attackers: german.clone(),
        defenders: soviet.clone(),
        defending_space: "riga".into(),
    };
    assert_eq!(
        play_combat("nkvd_boosts_morale", &mut s, defending),
        [ModifierEffect::Drm(1)]
    );
    let attacking = Combat {
        attacking: true,
        attackers: soviet,
        defenders: german,
        defending_space: "memel".into(),
    };
    assert!(
        play_combat("nkvd_boosts_morale", &mut s, attacking).is_empty(),
        "only when defending"
    );
}

#[test]
fn axis_3_okh_conference_may_not_be_played_after_taifun() {
    let mut s = campaign();
    assert!(playable("okh_conference", &s));
    assert_eq!(play("okh_conference", &mut s, &[]), None);
    assert!(s.played.contains_key("okh_conference"));
    let mut s = campaign();
    s.record_played("taifun");
    assert!(!playable("okh_conference", &s));
}
