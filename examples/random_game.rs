//! Plays random campaigns and prints how each ended: `cargo run --release --example
//! random_game -- [games] [first seed]`.

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
        println!(
            "seed {seed}: {:?} after {} actions, vp {}",
            st.flow.result,
            s.log().len(),
            st.track("vp")
        );
    }
    eprintln!("{games} games, {actions} actions in {:?}", start.elapsed());
}
