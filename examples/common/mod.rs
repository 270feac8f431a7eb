//! What the examples share: a game folder loaded and its scenario's rules made, or a message
//! and exit code 1.

use sandtable_engine::content::Content;
use sandtable_engine::rules::Rules;

/// The content of the game folder `dir`, checked; exits with 1 when it does not check.
pub fn content(dir: &str) -> Content {
    let loaded = sandtable_engine::load::load_dir(dir);
    if loaded.has_errors() {
        eprintln!("{dir} does not check: run `sandtable validate {dir}`");
        std::process::exit(1);
    }
    loaded.content
}

/// The rules of `scenario` in `content` (of the game folder `dir`); exits with 1 when the
/// scenario does not start.
#[allow(dead_code)] // not every example plays through the rules
pub fn rules<'c>(content: &'c Content, dir: &str, scenario: &str) -> Rules<'c> {
    match Rules::new(content, scenario) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{dir}: {}", e.0);
            std::process::exit(1);
        }
    }
}
