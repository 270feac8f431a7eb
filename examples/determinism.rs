//! The same games from the same seeds: plays seeded random games of a scenario and writes, for
//! each, a digest of every state it went through, or checks those digests against a file
//! written before (`tests/golden/`). What changes how the engine is built (the state by index,
//! typed actions) must leave every digest as it was; a rule knowingly fixed changes them, and
//! the file is written again in the same commit.
//!
//! `cargo run --release --example determinism -- check|write FILE [games] [first seed] [game
//! folder] [scenario]` (200 campaigns of Barbarossa to Berlin from seed 1 by default); `check
//! FILE` alone plays the games the file records.
//!
//! A state is seen as the rules' edges show it, in ids: `sandtable play --state json`'s view
//! (turn, round, phase, tracks, flags, control, every unit's place and steps, markers, hands,
//! cards played, the result, the last messages, the prompt with every legal action), with the
//! draw piles, the discards and how far the dice have gone. A game's digest chains the FNV-1a
//! hashes of its states after every action, so one state that differs changes it.
//!
//! Each game is played twice side by side, by the typed actions and by their texts read back
//! through the prompt, and every state of the two must be the same: the typed path plays the
//! games the text path always played (the digests were first written by the text path).

use std::fmt::Write as _;

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::content::Content;
use sandtable_engine::rules::{self, Rules};
use sandtable_engine::session::state_json;
use sandtable_engine::state::State;

mod common;

/// As in the `sandtable` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The hash of one state, as the edges show it.
fn state_hash(content: &Content, state: &State) -> u64 {
    let view = serde_json::json!({
        "state": state_json(content, state),
        "draw_piles": state.draw_piles,
        "discards": state.discards,
        "dice_drawn": state.dice_drawn().to_string(),
    });
    fnv(FNV_OFFSET, view.to_string().as_bytes())
}

/// One random game, played twice side by side: by the typed actions the agent picks, and by
/// their texts read back through the prompt (the path of logs, saved games and the command
/// line). Every state of the two must be the same; the game's actions and the digest of its
/// states are returned.
fn game(content: &Content, rules: &Rules, seed: u64) -> Result<(usize, u64), String> {
    let mut state = rules::start(rules, seed, &[], &[]).map_err(|e| e.0)?;
    let mut by_text = state.clone();
    let mut agent = RandomAgent::new(seed);
    let mut digest = state_hash(content, &state);
    let mut actions = 0;
    while let Some(prompt) = &state.flow.prompt {
        let action = agent.act(prompt);
        let text = action.to_string();
        let at = |e: rules::IllegalAction| {
            format!(
                "seed {seed}, action {}: `{text}`: {}",
                actions + 1,
                e.message
            )
        };
        rules::act(rules, &mut state, &action).map_err(at)?;
        rules::apply(rules, &mut by_text, &text).map_err(at)?;
        actions += 1;
        let hash = state_hash(content, &state);
        if hash != state_hash(content, &by_text) {
            return Err(format!(
                "seed {seed}, action {actions}: `{text}` gives another state typed than as text"
            ));
        }
        digest = fnv(digest, &hash.to_le_bytes());
        if actions >= 20_000 {
            break;
        }
    }
    Ok((actions, digest))
}

/// The games a file of digests records: how many, the first seed, the folder, the scenario.
fn of_file(file: &str) -> Option<(u64, u64, String, String)> {
    let text = std::fs::read_to_string(file).ok()?;
    let mut lines = text.lines();
    let head = lines
        .next()?
        .strip_prefix("# ")?
        .split(':')
        .next()?
        .to_string();
    let (dir, scenario) = head.split_once(' ')?;
    let seeds: Vec<u64> = lines
        .filter_map(|l| l.split(' ').next()?.parse().ok())
        .collect();
    let first = *seeds.first()?;
    Some((
        seeds.len() as u64,
        first,
        dir.to_string(),
        scenario.to_string(),
    ))
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(mode), Some(file)) = (args.next(), args.next()) else {
        eprintln!("usage: determinism check|write FILE [games] [first seed] [folder] [scenario]");
        std::process::exit(2);
    };
    let rest: Vec<String> = args.collect();
    // `check FILE` alone: the games the file records, of the folder and scenario it names.
    let recorded = (mode == "check" && rest.is_empty()).then(|| of_file(&file));
    let (games, first, dir, scenario) = match recorded {
        Some(Some(x)) => x,
        Some(None) => {
            eprintln!("{file}: not a file of digests (`# FOLDER SCENARIO: ...`, then `SEED ...`)");
            std::process::exit(2);
        }
        None => (
            rest.first().and_then(|a| a.parse().ok()).unwrap_or(200),
            rest.get(1).and_then(|a| a.parse().ok()).unwrap_or(1),
            rest.get(2)
                .cloned()
                .unwrap_or_else(|| "content/barbarossa-to-berlin".into()),
            rest.get(3).cloned().unwrap_or_else(|| "campaign".into()),
        ),
    };
    let content = common::content(&dir);
    let rules = common::rules(&content, &dir, &scenario);
    let mut out = format!("# {dir} {scenario}: seed, actions, digest of every state\n");
    for seed in first..first + games {
        match game(&content, &rules, seed) {
            Ok((actions, digest)) => {
                let _ = writeln!(out, "{seed} {actions} {digest:016x}");
            }
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }
    match mode.as_str() {
        "write" => {
            if let Err(e) = std::fs::write(&file, &out) {
                eprintln!("cannot write {file}: {e}");
                std::process::exit(2);
            }
            println!("{games} games written to {file}");
        }
        "check" => {
            let recorded = std::fs::read_to_string(&file).unwrap_or_else(|e| {
                eprintln!("cannot read {file}: {e}");
                std::process::exit(2);
            });
            // Each game played against the line of its seed.
            let seed_of = |line: &str| line.split(' ').next().map(str::to_string);
            let lines: std::collections::BTreeMap<String, &str> = recorded
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| Some((seed_of(l)?, l)))
                .collect();
            let differ: Vec<(&str, &str)> = out
                .lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|now| {
                    let was = seed_of(now).and_then(|s| lines.get(&s).copied());
                    let was = was.unwrap_or("(not recorded)");
                    (was != now).then_some((was, now))
                })
                .collect();
            if !differ.is_empty() {
                for (was, now) in differ.iter().take(10) {
                    eprintln!("recorded `{was}`, played `{now}`");
                }
                eprintln!(
                    "{} of {games} games went otherwise than {file} recorded",
                    differ.len()
                );
                std::process::exit(1);
            }
            println!("{games} games: every state as {file} recorded");
        }
        _ => {
            eprintln!(
                "usage: determinism check|write FILE [games] [first seed] [folder] [scenario]"
            );
            std::process::exit(2);
        }
    }
}
