//! Fuzz the effect language's interpreter: arbitrary text that parses and checks is run as
//! an Axis event on Barbarossa to Berlin's campaign (loaded once), answering its decisions
//! (the first options it may take) until it ends, fails or has asked eight times; and as a
//! condition. It must return (no panic, no overflow), within the step budget.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sandtable_engine::content::Content;
use sandtable_engine::script::check::{check_condition, check_stmts, Names, ScriptKind};
use sandtable_engine::script::eval::{self, Answer, Context, Outcome};
use sandtable_engine::script::syntax::{parse, parse_expr};
use sandtable_engine::state::State;

struct Game {
    content: Content,
    names: Names,
    state: State,
}

fn game() -> &'static Game {
    static GAME: OnceLock<Game> = OnceLock::new();
    GAME.get_or_init(|| {
        let root = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../content/barbarossa-to-berlin"
        );
        let loaded = sandtable_engine::load::load_dir(root);
        assert!(!loaded.has_errors(), "the bundled game loads");
        let content = loaded.content;
        let state = State::new(&content, content.scenario("campaign").unwrap(), 7).unwrap();
        let names = Names::from_content(&content);
        Game {
            content,
            names,
            state,
        }
    })
}

fn axis() -> Context {
    Context {
        me: "axis".into(),
        enemy: "allied".into(),
        card: Some("taifun".into()),
        combat: None,
        space: None,
        names: Vec::new(),
    }
}

fuzz_target!(|data: &[u8]| {
    let g = game();
    let text = String::from_utf8_lossy(data);
    let script = parse(&text);
    if script.errors.is_empty()
        && check_stmts(&script.stmts, ScriptKind::Event, &g.names).is_empty()
    {
        let mut answers: Vec<Answer> = Vec::new();
        for _ in 0..8 {
            let mut state = g.state.clone();
            match eval::run(&script.stmts, &g.content, &mut state, &axis(), &answers) {
                Ok((Outcome::Asks(d), _)) => answers.push(
                    d.options
                        .iter()
                        .take(d.min.max(1).min(d.max))
                        .cloned()
                        .collect(),
                ),
                Ok((Outcome::Done, _)) | Err(_) => break,
            }
        }
    }
    if let (Some(expr), errors) = parse_expr(&text) {
        if errors.is_empty() && check_condition(&expr, &g.names).is_empty() {
            let _ = eval::condition(&expr, &g.content, &g.state, &axis());
        }
    }
});
