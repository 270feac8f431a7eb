//! A replay works out each prompt for the log's next action (`rules::Given`): the prompts
//! that cost most (a unit's moves, its redeployment, a space's activation, a card's event)
//! look only where the answer may be. Play must reach the same prompt as without it, and the answer must be
//! offered exactly when the whole prompt offers it; the session never keeps such a prompt.

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::rules::{self, Rules};
use sandtable_engine::session::Session;
use sandtable_engine::state::State;

use super::session::random_walk;
use super::setup;
use crate::cards::b2b;

/// The state with no prompt, to compare the rest.
fn without_prompt(state: &State) -> State {
    let mut s = state.clone();
    s.flow.prompt = None;
    s
}

/// The prompt's options, as written.
fn options(state: &State) -> Vec<String> {
    state
        .flow
        .prompt
        .as_ref()
        .map_or(Vec::new(), |p| p.options())
}

#[test]
fn a_prompt_worked_out_for_the_next_answer_reaches_the_same_step_and_offers_it_as_the_whole_prompt_does(
) {
    let rules = Rules::new(b2b(), "campaign").unwrap();
    let log = random_walk(11, 700).log().to_vec();
    // Two plays of the log side by side: one working out whole prompts, one each prompt for
    // the log's next action, as a replay does (what a prompt keeps for the next goes on).
    let mut whole = rules::start(&rules, 11, &[], &[]).unwrap();
    let mut given = whole.clone();
    let mut partial_prompts = 0;
    for (step, action) in log.iter().enumerate() {
        let next = log.get(step + 1).map(String::as_str);
        // Other answers the log could hold next, on a copy: a sample of the options the whole
        // prompt offers, and some it does not.
        let before = given.clone();
        rules::apply_unguarded(&rules, &mut whole, action).unwrap();
        rules::apply_before(&rules, &mut given, action, next).unwrap();
        let offered = options(&whole);
        let mut answers: Vec<String> = offered.iter().step_by(7).cloned().collect();
        answers.extend(offered.last().cloned());
        answers
            .extend(["done", "back", "pass", "to berlin", "move nobody nowhere"].map(String::from));
        if let Some(first) = offered.first() {
            answers.push(format!("{first} more"));
        }
        let others = answers.iter().map(|a| {
            let mut s = before.clone();
            rules::apply_before(&rules, &mut s, action, Some(a)).unwrap();
            (a.as_str(), s)
        });
        for (next, state) in next.map(|n| (n, given.clone())).into_iter().chain(others) {
            assert!(
                without_prompt(&state) == without_prompt(&whole),
                "step {step}: `{action}` with `{next}` given reaches another state"
            );
            let partial = options(&state);
            partial_prompts += usize::from(partial.len() < offered.len());
            assert!(
                partial.iter().all(|o| offered.contains(o)),
                "step {step}: `{next}` given, the prompt offers what the whole does not"
            );
            assert_eq!(partial.is_empty(), offered.is_empty(), "step {step}");
            let parse = |s: &State| s.flow.prompt.as_ref().and_then(|p| p.parse(next));
            assert_eq!(
                parse(&state).is_some(),
                parse(&whole).is_some(),
                "step {step}: `{next}` after `{action}`"
            );
        }
    }
    // The walk met the prompts that look only where the answer may be.
    assert!(partial_prompts > 500, "{partial_prompts}");
}

#[test]
fn an_answer_a_replay_refuses_is_told_with_every_alternative_of_the_whole_prompt() {
    let live = random_walk(3, 300);
    let log = live.log();
    // Moves and redeployments: prompts worked out for their answers.
    let at = |verb: &str| log.iter().position(|a| a.starts_with(verb)).unwrap();
    for k in [at("move "), at("to "), at("redeploy "), at("activate ")] {
        let mut bad = log[..k].to_vec();
        let wrong = format!("{} nowhere", log[k]);
        bad.push(wrong.clone());
        let (replayed, err) = Session::replay(b2b(), setup(3), &bad).unwrap();
        let err = err.expect("refused");
        assert_eq!(err.index, k);
        let (mut before, _) = Session::replay(b2b(), setup(3), &log[..k]).unwrap();
        let told = before.apply(b2b(), &wrong).unwrap_err();
        assert_eq!(err.illegal, told, "`{wrong}`");
        assert!(told.legal.len() > 1, "`{wrong}`: {:?}", told.legal);
        // The session stands where the log did, with the whole prompt.
        assert!(replayed.state() == before.state());
        assert_eq!(replayed.prompt(), before.prompt());
    }
}

#[test]
fn a_replay_keeps_whole_prompts_at_its_checkpoints_and_at_its_end() {
    let every = sandtable_engine::session::CHECKPOINT_EVERY;
    // Live play, with its state at each checkpoint.
    let mut live = Session::new(b2b(), setup(8)).unwrap();
    let mut agent = RandomAgent::new(8);
    let mut at_checkpoints = Vec::new();
    while live.log().len() < 6 * every {
        let p = live.prompt().cloned().unwrap();
        live.apply(b2b(), &agent.act(&p).to_string()).unwrap();
        if live.log().len() % every == 0 {
            at_checkpoints.push(live.state().clone());
        }
    }
    let log = live.log().to_vec();
    // Some checkpoint stands before an answer whose prompt a replay would work out in part.
    let partial = ["move ", "to ", "redeploy ", "activate "];
    assert!((1..6).any(|k| partial.iter().any(|v| log[k * every].starts_with(v))));
    let (mut replayed, err) = Session::replay(b2b(), setup(8), &log).unwrap();
    assert_eq!(err, None);
    assert!(replayed.state() == live.state());
    assert_eq!(replayed.prompt(), live.prompt());
    // Undone back to each checkpoint: the state kept there is the state live play had.
    for k in (1..6).rev() {
        while replayed.log().len() > k * every {
            replayed.undo(b2b());
        }
        let at = &at_checkpoints[k - 1];
        assert!(replayed.state() == at, "checkpoint {k}");
        assert_eq!(replayed.prompt(), at.flow.prompt.as_ref(), "checkpoint {k}");
    }
}
