//! Plays random campaigns and prints how each ended, then what went wrong in play, if anything
//! (events that could not be carried out, sequence scripts that failed), with how often:
//! `cargo run --release --example random_game -- [games] [first seed]`.

use std::collections::BTreeMap;

use sandtable_engine::agent::RandomAgent;
use sandtable_engine::session::{Session, Setup};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let first: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    let loaded = sandtable_engine::load::load_dir("content/barbarossa-to-berlin");
    let content = loaded.content;
    let start = std::time::Instant::now();
    let mut actions = 0;
    let mut troubles: BTreeMap<String, u32> = BTreeMap::new();
    for seed in first..first + games {
        let setup = Setup {
            scenario: "campaign".into(),
            options: vec![],
            seed,
            dice: vec![],
        };
        let mut s = Session::new(&content, setup).unwrap();
        let mut agent = RandomAgent::new(seed);
        while let Some(p) = s.prompt().cloned() {
            let a = agent.act(&p);
            if let Err(e) = s.apply(&content, &a) {
                panic!("seed {seed}: {a}: {}", e.message);
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
            "seed {seed}: {:?} after {} actions, vp {}",
            st.flow.result,
            s.log().len(),
            st.track("vp")
        );
    }
    println!("{games} games, {actions} actions in {:?}", start.elapsed());
    for (m, n) in &troubles {
        println!("{n:>6}  {m}");
    }
}
