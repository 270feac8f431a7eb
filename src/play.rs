//! `sandtable play`: replay an actions file and print the state, the prompt and every message
//! the rules and scripts produced.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sandtable_engine::content::Content;
use sandtable_engine::format::write_atomic;
use sandtable_engine::narrate;
use sandtable_engine::rules::{why, Rules};
use sandtable_engine::session::{state_json, Session, Setup};
use sandtable_engine::state::State;

use crate::commands::{check_setup, load_checked};
use crate::out::{errln, outln, read_input, usage, PROBLEMS};

pub struct PlayOutput {
    pub state: bool,
    pub prompt: bool,
    pub save: Option<PathBuf>,
    /// Start from this rulebook example's position.
    pub example: Option<String>,
    /// Say why this action is not legal once the actions are played.
    pub why: Option<String>,
}

pub fn play(dir: &Path, mut setup: Setup, actions: Option<&Path>, out: PlayOutput) -> ExitCode {
    let loaded = match load_checked(dir, "nothing was played") {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let content = loaded.content;
    if let Some(id) = &out.example {
        let Some(e) = content.examples.iter().find(|e| e.data.id == *id) else {
            let known: Vec<&str> = content
                .examples
                .iter()
                .map(|e| e.data.id.as_str())
                .collect();
            return usage(format_args!(
                "no example `{id}` in {} (examples: {})",
                dir.display(),
                known.join(", ")
            ));
        };
        let mut from = sandtable_engine::examples::setup(&e.data);
        from.dice = std::mem::take(&mut setup.dice);
        if setup.seed != 1 {
            from.seed = setup.seed;
        }
        from.options.append(&mut setup.options);
        setup = from;
    }
    if let Err(code) = check_setup(&content, &setup.scenario, &setup.options, &setup.dice) {
        return code;
    }
    // What the arguments ask checks: a scenario that cannot start is the content's problem.
    let mut session = match Session::new(&content, setup) {
        Ok(s) => s,
        Err(e) => {
            errln!("error: {e}");
            return ExitCode::from(PROBLEMS);
        }
    };
    print_messages(&content, session.state(), 0);
    let mut failed = false;
    if let Some(path) = actions {
        let text = match read_input(path) {
            Ok(t) => t,
            Err(code) => return code,
        };
        // The rules made once for the whole log (the session's scenario started, so they can
        // be made; should they not, each action makes them and says why).
        let rules = Rules::new(&content, &session.setup.scenario).ok();
        for (n, line) in text.lines().enumerate() {
            let action = line.trim();
            if action.is_empty() || action.starts_with('#') {
                continue;
            }
            let before = session.state().clone();
            let applied = match &rules {
                Some(rules) => session.apply_with(rules, action),
                None => session.apply(&content, action),
            };
            if applied.is_ok() {
                let at = format!("{}:{}", path.display(), n + 1);
                tell(
                    &at,
                    action,
                    &narrate::what_happened(&content, &before, session.state()),
                );
            }
            if let Err(e) = applied {
                // The question in words, as the prompt prints it; the action as written.
                let message = match e.message.split_once(" is not legal now: ") {
                    Some((written, question)) => format!(
                        "{written} is not legal now: {}",
                        content.names().words(question)
                    ),
                    None => e.message.clone(),
                };
                errln!(
                    "{}:{}: error: illegal action `{action}`: {message}",
                    path.display(),
                    n + 1,
                );
                if !e.legal.is_empty() {
                    errln!("  legal actions now:");
                    for l in &e.legal {
                        errln!("    {l}");
                    }
                }
                failed = true;
                break;
            }
        }
    }
    if let Some(path) = &out.save {
        let text = session.save(&content).to_ron();
        if let Err(e) = write_atomic(path, &text) {
            return usage(format_args!("cannot write `{}`: {e}", path.display()));
        }
    }
    let st = session.state();
    if out.state {
        outln!(
            "{}",
            serde_json::to_string_pretty(&state_json(&content, st)).unwrap_or_default()
        );
    }
    if out.prompt {
        outln!(
            "{}",
            serde_json::to_string_pretty(&st.flow.prompt).unwrap_or_default()
        );
    }
    if let Some(action) = &out.why {
        match Rules::new(&content, &session.setup.scenario) {
            Ok(rules) => why::why(&rules, st, action)
                .iter()
                .for_each(|l| outln!("{l}")),
            Err(e) => errln!("error: {e}"),
        }
    } else if !out.state && !out.prompt {
        print_prompt(&content, st);
    }
    if failed {
        ExitCode::from(PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

/// The pending decision in words, each action with its text form (what an actions file says)
/// and, where they differ, its words; or how the game ended.
fn print_prompt(content: &Content, st: &State) {
    let names = content.names();
    match (&st.flow.prompt, &st.flow.result) {
        (Some(p), _) => {
            let turn = content
                .game
                .as_ref()
                .and_then(|g| g.turns.iter().find(|t| t.number == st.turn))
                .map_or(String::new(), |t| format!(" ({})", t.name));
            outln!(
                "turn {}{turn} round {}: {} decides: {}",
                st.turn,
                st.round,
                names.or_id(&p.side),
                names.words(&p.question)
            );
            let width = p
                .options()
                .iter()
                .map(String::len)
                .max()
                .unwrap_or(0)
                .min(40);
            let line = |o: &String| match names.action(o) {
                w if w == *o => format!("  {o}"),
                w => format!("  {o:width$}   {w}"),
            };
            match p.pick {
                Some((min, max)) => {
                    outln!("  choose {min} to {max} of:");
                    p.options().iter().for_each(|o| outln!("  {}", line(o)));
                }
                None => p.options().iter().for_each(|o| outln!("{}", line(o))),
            }
        }
        (None, Some(r)) => outln!(
            "game over: {} wins ({}, turn {})",
            names.or_id(&r.winner),
            r.how,
            r.turn
        ),
        (None, None) => outln!("no decision is open"),
    }
}

/// Prints on stderr what an action did, under its place in the actions file: the rules' and
/// scripts' messages as notes (a combat's odds and roll, an event that could not be carried
/// out, a script stopped by its step budget or by a runtime error), then what changed.
fn tell(at: &str, action: &str, happened: &narrate::Happened) {
    errln!("{at}: {action}");
    for m in &happened.messages {
        errln!("{at}: note: {m}");
    }
    for c in &happened.changes {
        errln!("    {c}");
    }
}

/// Prints on stderr the messages the rules and scripts left in the state from the first
/// `shown` on (those of the scenario's start).
fn print_messages(content: &Content, state: &State, shown: usize) {
    let names = content.names();
    for m in state.flow.messages.iter().skip(shown) {
        errln!("note: {}", names.words(m));
    }
}
