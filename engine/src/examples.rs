//! Running a rulebook's worked examples: each starts from its position, plays its actions
//! through the prompts (as a player would, by the prompts' own texts) and checks each
//! expected outcome where it is written. A run that parts from the print is a diagnostic at
//! the step that failed, with what was expected and what play gave, so a rule change shows at
//! once which printed example it breaks and where.
//!
//! Invariant: running an example never panics and does not touch the content; a run is a
//! function of the content and the example (its seed and die results fix the dice).

use crate::content::{Content, ExampleEntry};
use crate::diag::Diagnostic;
use crate::model::{ExampleFile, ExampleStep, PromptCheck};
use crate::rules::{self, position, Rules};
use crate::script::eval::{self, Context};
use crate::script::syntax::Expr;
use crate::session::Setup;
use crate::state::{Loc, State};

/// What an example's run came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    Passed,
    /// It could not start (its scenario does not play, its position does not fit).
    CannotStart(Diagnostic),
    /// A step did not play or did not hold: the step's index and the report.
    Diverged(usize, Diagnostic),
}

impl Outcome {
    pub fn passed(&self) -> bool {
        *self == Outcome::Passed
    }

    pub fn diagnostic(&self) -> Option<&Diagnostic> {
        match self {
            Outcome::Passed => None,
            Outcome::CannotStart(d) | Outcome::Diverged(_, d) => Some(d),
        }
    }
}

/// The setup a session starts from to play an example (a playtest opened at its start).
pub fn setup(e: &ExampleFile) -> Setup {
    Setup {
        scenario: e.scenario.clone(),
        options: e.options.clone(),
        seed: e.seed,
        dice: e.dice.clone(),
        position: Some(e.position.clone()),
    }
}

/// Runs every example of the content, in file order.
pub fn run_all(content: &Content) -> Vec<Outcome> {
    content.examples.iter().map(|e| run(content, e)).collect()
}

/// Runs one example.
pub fn run(content: &Content, e: &ExampleEntry) -> Outcome {
    let d = &e.data;
    let start = Rules::new(content, &d.scenario).and_then(|rules| {
        let state = rules::start_from(&rules, (d.seed, &d.options, &d.dice), Some(&d.position))?;
        Ok((rules, state))
    });
    let (rules, mut state) = match start {
        Ok(pair) => pair,
        Err(err) => {
            return Outcome::CannotStart(Diagnostic::error(
                "E0400",
                e.at(),
                format!("example `{}` ({}) cannot start: {}", d.id, d.rule, err.0),
            ))
        }
    };
    for (i, step) in d.steps.iter().enumerate() {
        if let Err((message, hints)) = play_step(&rules, &mut state, step, e.conditions.get(&i)) {
            let span = e.step(i);
            let mut diag = Diagnostic::error(
                "E0401",
                span,
                format!(
                    "example `{}` ({}) diverged at step {}: {message}",
                    d.id,
                    d.rule,
                    i + 1
                ),
            );
            diag.hints = hints;
            return Outcome::Diverged(i, diag);
        }
    }
    Outcome::Passed
}

type Failure = (String, Vec<String>);

/// The legal actions' texts.
fn offered(state: &State) -> Vec<String> {
    state
        .flow
        .prompt
        .as_ref()
        .map_or_else(Vec::new, |p| p.options())
}

/// The prompt's question and its actions, as a hint (at most 30 actions).
fn prompt_hint(state: &State) -> Vec<String> {
    match &state.flow.prompt {
        None => vec!["no prompt is pending (the game is over or stalled)".into()],
        Some(p) => {
            let mut list: Vec<String> = p.actions.iter().take(30).map(|a| a.to_string()).collect();
            if p.actions.len() > 30 {
                list.push("…".into());
            }
            let form = match p.pick {
                Some((min, max)) => format!("`choose` {min} to {max} of"),
                None => "actions".into(),
            };
            vec![format!(
                "{} is asked: {} ({} {form}: {})",
                p.side,
                p.question,
                p.actions.len(),
                list.join(", ")
            )]
        }
    }
}

fn play_step(
    rules: &Rules,
    state: &mut State,
    step: &ExampleStep,
    condition: Option<&Expr>,
) -> Result<(), Failure> {
    let fail = |m: String, state: &State| Err((m, prompt_hint(state)));
    match step {
        ExampleStep::Act(action) => rules::apply(rules, state, action).map_err(|e| {
            (
                format!("`{action}` could not be played: {}", e.message),
                prompt_hint(state),
            )
        }),
        ExampleStep::ActFirst(prefix) => {
            let Some(action) = offered(state)
                .into_iter()
                .find(|o| o.starts_with(prefix.as_str()))
            else {
                return fail(format!("no action beginning `{prefix}` is offered"), state);
            };
            rules::apply(rules, state, &action).map_err(|e| {
                (
                    format!("`{action}` could not be played: {}", e.message),
                    prompt_hint(state),
                )
            })
        }
        ExampleStep::Offered(actions) => match actions.iter().find(|a| !offered(state).contains(a))
        {
            Some(a) => fail(format!("`{a}` is not offered"), state),
            None => Ok(()),
        },
        ExampleStep::NotOffered(actions) => {
            match actions.iter().find(|a| offered(state).contains(a)) {
                Some(a) => fail(
                    format!("`{a}` is offered, and the rules say it may not be"),
                    state,
                ),
                None => Ok(()),
            }
        }
        ExampleStep::Prompt(check) => prompt(state, check),
        ExampleStep::Message(text) => {
            if state
                .flow
                .messages
                .iter()
                .any(|m| m.contains(text.as_str()))
            {
                return Ok(());
            }
            let last: Vec<String> = state
                .flow
                .messages
                .iter()
                .rev()
                .take(5)
                .rev()
                .map(|m| format!("play said: {m}"))
                .collect();
            Err((format!("no message of play says `{text}`"), last))
        }
        ExampleStep::Unit(u) => {
            let i = position::unit_named(rules, state, &u.unit)
                .ok_or_else(|| (format!("no unit `{}`", u.unit), Vec::new()))?;
            let unit = &state.units[i];
            let now = place_name(&unit.at);
            if let Some(at) = &u.at {
                let holds = match at.strip_prefix("not:") {
                    Some(other) => now != other,
                    None => now == *at,
                };
                if !holds {
                    return Err((
                        format!("`{}` is in `{now}`, not {}", u.unit, wanted(at)),
                        Vec::new(),
                    ));
                }
            }
            if let Some(due) = u.due {
                match state.delayed.get(&i) {
                    Some(&turn) if turn == due => {}
                    Some(&turn) => {
                        return Err((
                            format!("`{}` is due back on turn {turn}, not {due}", u.unit),
                            Vec::new(),
                        ))
                    }
                    None => {
                        return Err((
                            format!("`{}` is not waiting to come back on a turn", u.unit),
                            Vec::new(),
                        ))
                    }
                }
            }
            if let Some(want) = &u.theatres {
                let now = state.theatres.get(&i).cloned().unwrap_or_default();
                if now != *want {
                    return Err((
                        format!(
                            "`{}` was eliminated in the theatres [{}], not [{}]",
                            u.unit,
                            now.join(", "),
                            want.join(", ")
                        ),
                        Vec::new(),
                    ));
                }
            }
            if let Some(reduced) = u.reduced {
                if unit.reduced != reduced {
                    let is = if unit.reduced {
                        "reduced"
                    } else {
                        "at full strength"
                    };
                    return Err((format!("`{}` is {is}", u.unit), Vec::new()));
                }
            }
            Ok(())
        }
        ExampleStep::Control(c) => {
            let want = c.side.as_deref();
            for s in &c.spaces {
                let now = state.control.get(s.as_str()).map(|x| x.as_str());
                if now != want {
                    return Err((
                        format!(
                            "`{s}` is controlled by {}, not by {}",
                            side_name(now),
                            side_name(want)
                        ),
                        Vec::new(),
                    ));
                }
            }
            Ok(())
        }
        ExampleStep::Track(t) => {
            let now = state.track(&t.track);
            if now == i64::from(t.value) {
                Ok(())
            } else {
                Err((
                    format!("track `{}` is at {now}, not {}", t.track, t.value),
                    Vec::new(),
                ))
            }
        }
        ExampleStep::Marker(m) => {
            let found = state
                .markers
                .iter()
                .find(|x| x.marker == m.marker && x.space == m.space);
            match (found, m.absent) {
                (Some(_), true) => Err((
                    format!("a `{}` marker is on `{}`", m.marker, m.space),
                    Vec::new(),
                )),
                (None, false) => Err((
                    format!("no `{}` marker is on `{}`", m.marker, m.space),
                    Vec::new(),
                )),
                (Some(x), false) if m.level.is_some_and(|l| l != x.level) => Err((
                    format!(
                        "the `{}` marker on `{}` is at level {}, not {}",
                        m.marker,
                        m.space,
                        x.level,
                        m.level.unwrap_or(0)
                    ),
                    Vec::new(),
                )),
                _ => Ok(()),
            }
        }
        ExampleStep::Roll(r) => {
            let Some((column, result)) = state.record.last_rolls.get(&r.table) else {
                return Err((
                    format!("nothing was rolled on table `{}`", r.table),
                    Vec::new(),
                ));
            };
            let label = rules
                .content
                .tables
                .iter()
                .find(|t| t.id == r.table)
                .map(|t| t.column_label(*column))
                .unwrap_or_default();
            if label != r.column {
                return Err((
                    format!(
                        "the last roll on `{}` was on column `{label}`, not `{}`",
                        r.table, r.column
                    ),
                    vec![format!("its result: {result}")],
                ));
            }
            // A cell as the Tables panel writes it (`defender: 2, retreat: true`).
            let bare = |t: &str| t.trim_matches(|c| c == '{' || c == '}').replace(' ', "");
            match &r.result {
                Some(want) if bare(want) != bare(result) => Err((
                    format!(
                        "the last roll on `{}` gave `{result}`, not `{want}`",
                        r.table
                    ),
                    Vec::new(),
                )),
                _ => Ok(()),
            }
        }
        ExampleStep::Flag(f) => {
            if state.flags.contains(f.flag.as_str()) == f.set {
                Ok(())
            } else if f.set {
                Err((format!("flag `{}` is not set", f.flag), Vec::new()))
            } else {
                Err((format!("flag `{}` is set", f.flag), Vec::new()))
            }
        }
        ExampleStep::Holds(text) => {
            let Some(expr) = condition else {
                return Err((
                    format!("`{text}` did not check when the content loaded"),
                    Vec::new(),
                ));
            };
            let me = rules.game.sides.first().map_or("", |s| s.id.as_str());
            let ctx = Context {
                me: me.into(),
                enemy: rules.other_side(me).into(),
                ..Context::default()
            };
            match eval::condition(expr, rules.content, state, &ctx) {
                Ok(true) => Ok(()),
                Ok(false) => Err((format!("`{text}` does not hold"), Vec::new())),
                Err(e) => Err((
                    format!("`{text}` could not be evaluated: {}", e.message),
                    Vec::new(),
                )),
            }
        }
        ExampleStep::Card(c) => {
            let places = card_places(state, &c.card, c.side.as_deref());
            let holds = match c.at.strip_prefix("not:") {
                Some(other) => !places.contains(&other),
                None => places.iter().any(|p| *p == c.at),
            };
            if holds {
                Ok(())
            } else {
                let whose = c
                    .side
                    .as_ref()
                    .map_or(String::new(), |s| format!(" of {s}"));
                Err((
                    format!(
                        "card `{}` is {}, not {}{whose}",
                        c.card,
                        places.join(", "),
                        wanted(&c.at)
                    ),
                    Vec::new(),
                ))
            }
        }
        ExampleStep::Winner(side) => match &state.flow.result {
            Some(r) if r.winner == *side => Ok(()),
            Some(r) => Err((
                format!(
                    "the game ended ({}) won by {}",
                    r.how,
                    side_name(Some(&r.winner))
                ),
                Vec::new(),
            )),
            None => fail("the game is not over".into(), state),
        },
    }
}

fn prompt(state: &State, check: &PromptCheck) -> Result<(), Failure> {
    let Some(p) = &state.flow.prompt else {
        return Err((
            "no prompt is pending (the game is over or stalled)".into(),
            Vec::new(),
        ));
    };
    let fail = |m: String| Err((m, prompt_hint(state)));
    if let Some(side) = check.side.as_ref().filter(|s| **s != p.side) {
        return fail(format!("{} is asked, not {side}", p.side));
    }
    if let Some(kind) = check.kind.as_ref().filter(|k| **k != p.kind) {
        return fail(format!(
            "the prompt is a `{}` decision, not `{kind}`",
            p.kind
        ));
    }
    if let Some(asks) = check
        .asks
        .as_ref()
        .filter(|a| !p.question.contains(a.as_str()))
    {
        return fail(format!("the question does not say `{asks}`"));
    }
    if let Some(n) = check.count.filter(|&n| n != p.actions.len()) {
        return fail(format!("{} actions are offered, not {n}", p.actions.len()));
    }
    if let Some(prefix) = &check.all_begin {
        let options = p.options();
        if let Some(o) = options.iter().find(|o| !o.starts_with(prefix.as_str())) {
            return fail(format!(
                "`{o}` is offered too: not every action begins `{prefix}`"
            ));
        }
    }
    Ok(())
}

/// Where a card is, as examples write it (of one side or deck if given): `hand`, `draw`,
/// `discard`, `set_aside`, `kept`; `out` where it is in none of them.
fn card_places(state: &State, card: &str, side: Option<&str>) -> Vec<&'static str> {
    let mine = |k: &String| side.is_none_or(|s| s == k);
    let piles: [(
        &'static str,
        &std::collections::BTreeMap<String, Vec<String>>,
    ); 5] = [
        ("hand", &state.hands),
        ("draw", &state.draw_piles),
        ("discard", &state.discards),
        ("set_aside", &state.set_aside),
        ("kept", &state.kept_cards),
    ];
    let found: Vec<&'static str> = piles
        .iter()
        .filter(|(_, pile)| {
            pile.iter()
                .any(|(k, cards)| mine(k) && cards.iter().any(|c| c == card))
        })
        .map(|(name, _)| *name)
        .collect();
    let anywhere = piles
        .iter()
        .any(|(_, pile)| pile.values().flatten().any(|c| c == card));
    if found.is_empty() && !anywhere {
        vec!["out"]
    } else if found.is_empty() {
        vec!["elsewhere"]
    } else {
        found
    }
}

/// A place as examples write it.
fn place_name(at: &Loc) -> String {
    match at {
        Loc::Space(s) | Loc::Box(s) => s.to_string(),
        Loc::Unplaced => "unplaced".into(),
        Loc::Removed => "removed".into(),
    }
}

fn wanted(at: &str) -> String {
    match at.strip_prefix("not:") {
        Some(other) => format!("anywhere but `{other}`"),
        None => format!("`{at}`"),
    }
}

fn side_name(side: Option<&str>) -> String {
    match side {
        None | Some("") => "nobody".into(),
        Some(s) => format!("`{s}`"),
    }
}
