//! Why an action is not legal now, for a person (`sandtable play --why ACTION`): the decision
//! that is open, how far the action agrees with the legal ones and what they go on with, and
//! what the rules say about the units and spaces it names (where a unit stands, what the step
//! costs, zones of control, stacking, and the hooks that forbid it, with their rules).

use std::collections::BTreeSet;

use super::hooks::{self, space, unit};
use super::{movement, position, stacking, Rules};
use crate::model::HookPoint;
use crate::state::{Loc, State};

/// The reasons, one a line.
pub fn why(rules: &Rules, state: &State, action: &str) -> Vec<String> {
    let names = rules.content.names();
    let action = action.trim();
    let Some(p) = &state.flow.prompt else {
        return vec!["The game is over: no action is legal.".into()];
    };
    if p.parse(action).is_some() {
        return vec![format!("`{action}` is legal now.")];
    }
    let mut out = vec![format!(
        "{} decides now ({}): {}",
        names.or_id(&p.side),
        p.kind,
        names.words(&p.question)
    )];
    let words: Vec<&str> = action.split_whitespace().collect();
    if let Some((min, max)) = p.pick {
        out.extend(why_not_picked(rules, p, &words, (min, max)));
        return out;
    }
    // How many words the action shares with the legal action closest to it.
    let agree = |o: &String| {
        o.split_whitespace()
            .zip(&words)
            .take_while(|(a, b)| a == *b)
            .count()
    };
    let options = p.options();
    let best = options.iter().map(agree).max().unwrap_or(0);
    let then: BTreeSet<&str> = options
        .iter()
        .filter(|o| agree(o) == best)
        .filter_map(|o| o.split_whitespace().nth(best))
        .collect();
    let said = |w: &&str| match names.of(w) {
        Some(n) if n != *w => format!("{w} ({n})"),
        _ => w.to_string(),
    };
    let then: Vec<String> = then.iter().map(said).collect();
    if best == 0 {
        out.push(format!(
            "No legal action begins with `{}`; they begin with: {}.",
            words.first().unwrap_or(&""),
            then.join(", ")
        ));
    } else if best < words.len() {
        out.push(format!(
            "Legal actions begin with `{}` but go on with {}, not `{}`.",
            words[..best].join(" "),
            short_list(&then),
            words[best]
        ));
    } else {
        out.push(format!(
            "`{action}` is not a whole action: it goes on with {}.",
            short_list(&then)
        ));
    }
    out.extend(facts(rules, state, &words));
    out
}

/// At most twelve of a list, and how many more.
fn short_list(items: &[String]) -> String {
    if items.len() <= 12 {
        items.join(", ")
    } else {
        format!("{} and {} more", items[..12].join(", "), items.len() - 12)
    }
}

/// Why a `choose …` answer does not fit a multiple choice.
fn why_not_picked(
    rules: &Rules,
    p: &super::Prompt,
    words: &[&str],
    (min, max): (usize, usize),
) -> Vec<String> {
    let names = rules.content.names();
    let mut out = Vec::new();
    if words.first() != Some(&"choose") {
        out.push(format!(
            "This decision is answered `choose` with {min} to {max} of: {}.",
            short_list(&p.options())
        ));
        return out;
    }
    let picked = &words[1..];
    if !(min..=max).contains(&picked.len()) {
        out.push(format!(
            "{} picked; this decision takes {min} to {max}.",
            picked.len()
        ));
    }
    for w in picked {
        if !p.actions.iter().any(|o| o == w) {
            out.push(format!(
                "`{w}` ({}) is not among the things to pick.",
                names.or_id(w)
            ));
        }
    }
    let distinct: BTreeSet<&&str> = picked.iter().collect();
    if distinct.len() < picked.len() {
        out.push("Something is picked twice.".into());
    }
    out
}

/// What the rules say about the units the action names and the spaces it names after them.
fn facts(rules: &Rules, state: &State, words: &[&str]) -> Vec<String> {
    let content = rules.content;
    let names = content.names();
    let g = &content.graph;
    let mut out = Vec::new();
    let Some((u, i)) = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| position::unit_named(rules, state, w).map(|u| (u, i)))
    else {
        return out;
    };
    let unit_name = names.or_id(words[i]);
    let side = rules.side(&state.units[u]).to_string();
    let from = match &state.units[u].at {
        Loc::Space(s) => {
            out.push(format!("{unit_name} stands in {}.", names.or_id(s)));
            g.index_of(s)
        }
        Loc::Box(b) => {
            out.push(format!(
                "{unit_name} is in {}, not on the map.",
                names.or_id(b)
            ));
            None
        }
        Loc::Unplaced => {
            out.push(format!("{unit_name} is not in play yet."));
            None
        }
        Loc::Removed => {
            out.push(format!("{unit_name} is out of play."));
            None
        }
    };
    for w in &words[i + 1..] {
        let Some(to) = g.index_of(*w) else {
            continue;
        };
        let to_name = names.or_id(w);
        if let Some(from) = from.filter(|&f| f != to) {
            let from_id = g.spaces[from].id.as_str();
            match g.neighbours(from).iter().find(|&&(n, _)| n == to) {
                Some(&(_, edge)) => {
                    let cost = movement::step_cost(rules, state, u, (edge, to), &[]);
                    out.push(format!(
                        "{to_name} is next to {}: the step costs {} movement points.",
                        names.or_id(from_id),
                        f64::from(cost) / 2.0
                    ));
                }
                None => out.push(format!(
                    "{to_name} is not next to {}.",
                    names.or_id(from_id)
                )),
            }
            let forbid = hooks::forbidding(
                content,
                state,
                HookPoint::MayMove,
                &side,
                vec![unit("u", u), space("from", from_id), space("to", *w)],
            );
            if !forbid.is_empty() {
                out.push(format!(
                    "A step from {} to {to_name} is forbidden{}.",
                    names.or_id(from_id),
                    hooks::cited(content, &forbid)
                ));
            }
        }
        if movement::in_enemy_zone(rules, state, crate::Id::new(&side), to) {
            out.push(format!("{to_name} is in an enemy zone of control."));
        }
        let enemies: Vec<String> = state
            .units_at(w)
            .filter(|(_, x)| rules.side(x) != side)
            .map(|(_, x)| names.or_id(&x.name(content)))
            .collect();
        if !enemies.is_empty() {
            out.push(format!(
                "Enemy units stand in {to_name}: {}.",
                enemies.join(", ")
            ));
        } else if !stacking::may_enter(rules, state, &side, to) {
            out.push(format!("{} may not enter {to_name}.", names.or_id(&side)));
        } else if !stacking::stacking_allows(rules, state, u, w) {
            out.push(format!(
                "{unit_name} would break the stacking limits in {to_name}."
            ));
        }
        let forbid = hooks::forbidding(
            content,
            state,
            HookPoint::MayStop,
            &side,
            vec![unit("u", u), space("space", *w)],
        );
        if !forbid.is_empty() {
            out.push(format!(
                "{unit_name} may not end a move in {to_name}{}.",
                hooks::cited(content, &forbid)
            ));
        }
    }
    out
}
