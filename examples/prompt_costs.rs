//! Where self-play's time goes, by prompt: plays the random games `sandtable sim` plays (batch
//! seed 1, random agents) and times each action with the prompt it leads to, since working out
//! the next prompt is most of an action's cost. Prints, for each pair (the prompt answered, the
//! prompt made next), how many actions, their mean time and their share of the whole, the
//! costliest first:
//! `cargo run --release --example prompt_costs -- [games] [game folder] [scenario]`
//! (50 games of Barbarossa to Berlin's campaign by default). The measure that picks what to
//! make faster next; README's performance section quotes it.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use sandtable_engine::agent::{Agent, AgentKind};
use sandtable_engine::rules;
use sandtable_engine::sim::game_seed;

mod common;

/// As in the `sandtable` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How many pairs of prompts are printed.
const SHOWN: usize = 25;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(50);
    let dir = args
        .next()
        .unwrap_or_else(|| "content/barbarossa-to-berlin".into());
    let scenario = args.next().unwrap_or_else(|| "campaign".into());
    let content = common::content(&dir);
    let rules = common::rules(&content, &dir, &scenario);
    let mut costs: BTreeMap<(String, String), (u64, Duration)> = BTreeMap::new();
    let mut actions = 0u64;
    for index in 0..games {
        // The seeds `sandtable sim` gives game `index` of batch 1 and its sides' agents.
        let seed = game_seed(1, index);
        let mut state = match rules::start(&rules, seed, &[], &[]) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{dir}: {}", e.0);
                std::process::exit(1);
            }
        };
        let mut agents: BTreeMap<&str, Box<dyn Agent>> = (rules.game.sides.iter().enumerate())
            .map(|(i, side)| {
                let agent_seed = game_seed(seed, 1000 + i as u32);
                (side.id.as_str(), AgentKind::Random.make(agent_seed))
            })
            .collect();
        while let Some(prompt) = &state.flow.prompt {
            let answered = prompt.kind.to_string();
            let Some(agent) = agents.get_mut(prompt.side.as_str()) else {
                break;
            };
            let Some(action) = agent.choose(&rules, &state) else {
                break;
            };
            let start = Instant::now();
            if let Err(e) = rules::act_unguarded(&rules, &mut state, &action) {
                eprintln!("game {index}: `{action}`: {}", e.message);
                break;
            }
            let spent = start.elapsed();
            let next = state
                .flow
                .prompt
                .as_ref()
                .map_or("(end)", |p| p.kind.as_str());
            let cost = costs.entry((answered, next.to_string())).or_default();
            cost.0 += 1;
            cost.1 += spent;
            actions += 1;
        }
    }
    let total: Duration = costs.values().map(|c| c.1).sum();
    println!(
        "{games} games of {scenario}, {actions} actions in {:.2} s ({:.0} actions a second)",
        total.as_secs_f64(),
        actions as f64 / total.as_secs_f64().max(1e-9)
    );
    println!(
        "{:>16}  {:<16} {:>8} {:>9} {:>6}",
        "made", "after", "actions", "mean", "share"
    );
    let mut rows: Vec<_> = costs.into_iter().collect();
    rows.sort_by_key(|row| std::cmp::Reverse(row.1 .1));
    for ((answered, next), (n, spent)) in rows.into_iter().take(SHOWN) {
        println!(
            "{next:>16}  {answered:<16} {n:>8} {:>7.1} µs {:>5.1}%",
            spent.as_secs_f64() * 1e6 / n as f64,
            100.0 * spent.as_secs_f64() / total.as_secs_f64().max(1e-9)
        );
    }
}
