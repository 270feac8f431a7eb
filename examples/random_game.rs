//! Plays random games of a scenario and prints how each ended, then what went wrong in play,
//! if anything (an offered action refused, a game that stalls, events that could not be carried
//! out, scripts or hooks that failed), with how often; exits with 1 if anything did:
//! `cargo run --release --example random_game -- [games] [first seed] [game folder] [scenario]
//! [optional rules, separated by commas]` (Barbarossa to Berlin's campaign by default).

use std::collections::BTreeMap;

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::session::{Session, Setup};

mod common;

/// As in the `sandtable` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let dir = args
        .next()
        .unwrap_or_else(|| "content/barbarossa-to-berlin".into());
    let scenario = args.next().unwrap_or_else(|| "campaign".into());
    let options: Vec<String> = args
        .next()
        .map(|o| o.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let content = common::content(&dir);
    let start = std::time::Instant::now();
    let mut actions = 0;
    let mut troubles: BTreeMap<String, u32> = BTreeMap::new();
    for seed in first..first + games {
        let setup = Setup {
            scenario: scenario.clone(),
            options: options.clone(),
            seed,
            dice: vec![],
            position: None,
        };
        let mut s = match Session::new(&content, setup) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{dir}: {}", e.0);
                std::process::exit(1);
            }
        };
        let mut agent = RandomAgent::new(seed);
        while let Some(p) = s.prompt().cloned() {
            let a = agent.act(&p);
            if let Err(e) = s.apply(&content, &a.to_string()) {
                *troubles
                    .entry(format!("an offered action was refused: {}", e.message))
                    .or_default() += 1;
                println!("seed {seed}: `{a}` was offered but refused: {}", e.message);
                break;
            }
        }
        actions += s.log().len();
        let st = s.state();
        for m in &st.flow.messages {
            if m.contains("could not be carried out")
                || m.contains("failed")
                || m.contains("stalled")
            {
                *troubles.entry(m.clone()).or_default() += 1;
            }
        }
        println!(
            "seed {seed}: {:?} after {} actions",
            st.flow.result,
            s.log().len(),
        );
    }
    println!("{games} games, {actions} actions in {:?}", start.elapsed());
    for (m, n) in &troubles {
        println!("{n:>6}  {m}");
    }
    if !troubles.is_empty() {
        std::process::exit(1);
    }
}
