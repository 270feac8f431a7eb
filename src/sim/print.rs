//! `sandtable sim`'s report, comparison and sweep as text, in names.

use sandtable_engine::sim::{self, Comparison, Context, Rate, Report};

use crate::out::outln;

pub fn mean_turn(r: &Report) -> f64 {
    let n: u32 = r.victory_turns.values().sum();
    r.victory_turns
        .iter()
        .map(|(t, k)| (*t * *k) as f64)
        .sum::<f64>()
        / n.max(1) as f64
}

pub fn rate(r: &Rate) -> String {
    format!(
        "{:5.1}% [{:.1}%, {:.1}%]",
        r.rate * 100.0,
        r.low * 100.0,
        r.high * 100.0
    )
}

pub fn print_report(context: &Context, r: &Report) {
    let title = context.title.as_str();
    let options = if r.options.is_empty() {
        String::new()
    } else {
        format!(", options {}", r.options.join(", "))
    };
    outln!(
        "{title}: scenario {}{options}, {} games from seed {}",
        r.scenario,
        r.games,
        r.seed
    );
    outln!("Wins (95% interval):");
    for s in &r.sides {
        outln!(
            "  {:<14} {}  ({})",
            truncate(&context.name(&s.side), 14),
            rate(&s.wins),
            s.agent
        );
    }
    outln!("  {:<14} {}", "undecided", rate(&r.undecided));
    if r.errors > 0 {
        outln!(
            "  {} games stopped on a failed action; the first: {}",
            r.errors,
            r.first_error.as_deref().unwrap_or("")
        );
    }
    outln!("Mean actions per game: {:.0}", r.mean_actions);
    let kinds: Vec<String> = r
        .victory_kinds
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    outln!("How games were won: {}", kinds.join(", "));
    let turns: Vec<String> = r
        .victory_turns
        .iter()
        .map(|(t, n)| format!("{t}: {n}"))
        .collect();
    outln!("Turn games ended on: {}", turns.join(", "));
    for (t, series) in &r.tracks {
        let points: Vec<String> = series
            .iter()
            .map(|p| format!("{}: {:.1} [{}, {}]", p.turn, p.mean, p.min, p.max))
            .collect();
        outln!(
            "{} at the end of each turn (mean [min, max]): {}",
            context.name(t),
            points.join(", ")
        );
    }
    if r.cards.iter().any(|c| !c.played.is_empty()) {
        outln!(
            "Cards (times played as event / ops / sr / rp / combat; wins when played as event):"
        );
    }
    for c in &r.cards {
        if c.played.is_empty() {
            continue;
        }
        let way = |w: sim::Way| c.played.get(&w).copied().unwrap_or(0);
        let wins = if c.wins_as_event.of > 0 {
            rate(&c.wins_as_event)
        } else {
            "-".to_string()
        };
        outln!(
            "  {:<26} {:>5} {:>5} {:>5} {:>5} {:>5}  {wins}",
            truncate(&c.title, 26),
            way(sim::Way::Event),
            way(sim::Way::Ops),
            way(sim::Way::Sr),
            way(sim::Way::Rp),
            way(sim::Way::Combat),
        );
    }
    if !r.events_never_fired.is_empty() {
        outln!(
            "Events never carried out ({}): {}",
            r.events_never_fired.len(),
            r.events_never_fired.join(", ")
        );
    }
    outln!("Tables (results by column):");
    for t in &r.tables {
        let results: Vec<String> = t
            .results
            .iter()
            .map(|(res, n)| format!("{res} {:.0}%", 100.0 * *n as f64 / t.rolls.max(1) as f64))
            .collect();
        let column = if t.column.is_empty() {
            String::new()
        } else {
            format!(" column {}", t.column)
        };
        outln!(
            "  {}{column} ({} rolls): {}",
            context.name(&t.table),
            t.rolls,
            results.join(", ")
        );
    }
    outln!("Spaces that changed hands most (changes, share of games):");
    for s in r.spaces.iter().take(15) {
        outln!(
            "  {:<22} {:>6}  {:.0}%",
            truncate(&s.name, 22),
            s.changes,
            100.0 * s.games as f64 / r.games.max(1) as f64
        );
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

pub fn print_comparison(context: &Context, c: &Comparison) {
    outln!(
        "B against A on the same {} seeds (difference B − A, 95% interval; * where it leaves out 0):",
        c.games
    );
    let line = |name: &str, d: &sim::Difference, pct: bool| {
        let k = if pct { 100.0 } else { 1.0 };
        let unit = if pct { " pts" } else { "" };
        outln!(
            "  {name:<24} A {:.2}  B {:.2}  difference {:+.2}{unit} [{:+.2}, {:+.2}]{}",
            d.a * k,
            d.b * k,
            d.difference * k,
            d.low * k,
            d.high * k,
            if d.significant() { " *" } else { "" }
        );
    };
    for (side, d) in &c.wins {
        line(&format!("{} win rate %", context.name(side)), d, true);
    }
    line("end turn", &c.length, false);
    for (t, d) in &c.tracks {
        line(&format!("final {}", context.name(t)), d, false);
    }
}
