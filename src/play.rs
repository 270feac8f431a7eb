//! `sandtable play`: replay an actions file and print the state, the prompt and every message
//! the rules and scripts produced.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use sandtable_engine::format::write_atomic;
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
    let mut shown = print_messages(session.state(), 0, None);
    let mut failed = false;
    if let Some(path) = actions {
        let text = match read_input(path) {
            Ok(t) => t,
            Err(code) => return code,
        };
        for (n, line) in text.lines().enumerate() {
            let action = line.trim();
            if action.is_empty() || action.starts_with('#') {
                continue;
            }
            let applied = session.apply(&content, action);
            shown = print_messages(session.state(), shown, Some((path, n + 1)));
            if let Err(e) = applied {
                errln!(
                    "{}:{}: error: illegal action `{action}`: {}",
                    path.display(),
                    n + 1,
                    e.message
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
    if !out.state && !out.prompt {
        match (&st.flow.prompt, &st.flow.result) {
            (Some(p), _) => {
                outln!(
                    "turn {} round {}: {} decides: {}",
                    st.turn,
                    st.round,
                    p.side,
                    p.question
                );
                match p.pick {
                    Some((min, max)) => {
                        outln!("  choose {min} to {max} of: {}", p.options.join(" "))
                    }
                    None => p.options.iter().for_each(|o| outln!("  {o}")),
                }
            }
            (None, Some(r)) => {
                outln!("game over: {} wins ({}, turn {})", r.winner, r.how, r.turn)
            }
            (None, None) => outln!("no decision is open"),
        }
    }
    if failed {
        ExitCode::from(PROBLEMS)
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints on stderr the messages the rules and scripts left in the state since the first
/// `shown` (an event that could not be carried out, a script stopped by its step budget or by
/// a runtime error), each at the line of the action that produced it; returns how many there
/// are now.
fn print_messages(state: &State, shown: usize, at: Option<(&Path, usize)>) -> usize {
    let messages = &state.flow.messages;
    for m in messages.iter().skip(shown) {
        match at {
            Some((path, line)) => errln!("{}:{line}: note: {m}", path.display()),
            None => errln!("note: {m}"),
        }
    }
    messages.len()
}
