//! A playtest session, event-sourced: (content, scenario, options, seed, die results, log of
//! actions) determines the state by replay.
//!
//! The session keeps the log and a checkpoint of the state every [`CHECKPOINT_EVERY`] actions,
//! so undo replays at most that many actions. A saved game is its log with the content's
//! fingerprint ([`SavedGame`], a RON file). The hot-reload core the editor uses,
//! [`Playtest`], is in [`crate::playtest`] (re-exported here).
//!
//! Invariant: a session's state is always the replay of its log; an action that is not legal
//! leaves both untouched.

use serde::{Deserialize, Serialize};

use crate::content::Content;
use crate::rules::{self, IllegalAction, Prompt, Rules, RulesError};
use crate::state::{Loc, State};

pub use crate::playtest::{Divergence, DivergenceKind, Playtest, Reload};

/// How many actions lie between two checkpoints.
pub const CHECKPOINT_EVERY: usize = 32;

/// What starts a session: everything but the actions.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Setup {
    pub scenario: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<String>,
    pub seed: u64,
    /// Die results used before the seeded dice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<i64>,
    /// A position set up by hand to start from (a rulebook example's), instead of the
    /// scenario's start as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<crate::model::Position>,
}

#[derive(Debug, Clone)]
pub struct Session {
    pub setup: Setup,
    log: Vec<String>,
    /// (number of actions applied, state after them), ascending; the first is the start.
    checkpoints: Vec<(usize, State)>,
    state: State,
}

/// An action of a log that could not be replayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// The action's index in the log (0-based).
    pub index: usize,
    pub action: String,
    pub illegal: IllegalAction,
}

impl Session {
    pub fn new(content: &Content, setup: Setup) -> Result<Session, RulesError> {
        let rules = Rules::new(content, &setup.scenario)?;
        let state = start_state(&rules, &setup)?;
        Ok(Session {
            setup,
            log: Vec::new(),
            checkpoints: vec![(0, state.clone())],
            state,
        })
    }

    /// Replays a log. On an illegal action returns the session as far as it got, and the error.
    pub fn replay(
        content: &Content,
        setup: Setup,
        actions: &[String],
    ) -> Result<(Session, Option<ReplayError>), RulesError> {
        let mut session = Session::new(content, setup)?;
        let rules = Rules::new(content, &session.setup.scenario)?;
        for (index, action) in actions.iter().enumerate() {
            let next = actions.get(index + 1).map(String::as_str);
            if let Err(illegal) = session.apply_before(&rules, action, next) {
                return Ok((
                    session,
                    Some(ReplayError {
                        index,
                        action: action.clone(),
                        illegal,
                    }),
                ));
            }
        }
        Ok((session, None))
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn prompt(&self) -> Option<&Prompt> {
        self.state.flow.prompt.as_ref()
    }

    pub fn log(&self) -> &[String] {
        &self.log
    }

    /// Takes one action (its text form); an illegal one changes nothing.
    pub fn apply(&mut self, content: &Content, action: &str) -> Result<(), IllegalAction> {
        let rules = Rules::new(content, &self.setup.scenario).map_err(|e| IllegalAction {
            message: e.0,
            legal: Vec::new(),
        })?;
        self.apply_with(&rules, action)
    }

    /// [`Session::apply`] on rules made once for many actions (a log applied action by
    /// action): the same result, without making the rules again for each.
    pub fn apply_with(&mut self, rules: &Rules, action: &str) -> Result<(), IllegalAction> {
        self.apply_before(rules, action, None)
    }

    /// [`Session::apply_with`], with the action after it known (a replay's): the prompt
    /// between them is then worked out for it ([`rules::Given`]), unless the state after this
    /// action is kept as a checkpoint. An action a prompt worked out so refuses is asked
    /// again of the whole prompt, which gives the message and the alternatives.
    fn apply_before(
        &mut self,
        rules: &Rules,
        action: &str,
        next: Option<&str>,
    ) -> Result<(), IllegalAction> {
        let kept = (self.log.len() + 1) % CHECKPOINT_EVERY == 0;
        let next = next.filter(|_| !kept);
        if let Err(e) = rules::apply_before(rules, &mut self.state, action, next) {
            let partial = self.state.flow.given.is_some();
            if self.state.flow.prompt.is_none() || partial {
                // The action failed half-way, or was asked of a partial prompt: the state is
                // the replay of the log again, with the whole prompt.
                self.restore(rules);
            }
            if partial {
                return self.apply_with(rules, action);
            }
            return Err(e);
        }
        self.log.push(action.trim().to_string());
        if self.log.len() % CHECKPOINT_EVERY == 0 {
            self.checkpoints.push((self.log.len(), self.state.clone()));
        }
        Ok(())
    }

    /// Drops the last action; returns it.
    pub fn undo(&mut self, content: &Content) -> Option<String> {
        let last = self.log.pop()?;
        if let Ok(rules) = Rules::new(content, &self.setup.scenario) {
            self.restore(&rules);
        }
        Some(last)
    }

    /// Drops the last action on the given rules (a reload that found it plays differently).
    pub(crate) fn drop_last(&mut self, rules: &Rules) {
        if self.log.pop().is_some() {
            self.restore(rules);
        }
    }

    /// Makes the state the replay of the log again, from the last checkpoint within it.
    fn restore(&mut self, rules: &Rules) {
        self.checkpoints.retain(|(n, _)| *n <= self.log.len());
        let (n, state) = self.checkpoints.last().cloned().expect("the start is kept");
        self.state = state;
        for action in &self.log[n..] {
            // The log replayed before; it replays again on the same content.
            let _ = rules::apply_unguarded(rules, &mut self.state, action);
        }
    }

    pub fn save(&self, content: &Content) -> SavedGame {
        SavedGame {
            game: content
                .game
                .as_ref()
                .map(|g| g.id.clone())
                .unwrap_or_default(),
            content_hash: content.hash.clone(),
            setup: self.setup.clone(),
            actions: self.log.clone(),
            name: String::new(),
            branches: Vec::new(),
        }
    }
}

fn start_state(rules: &Rules, setup: &Setup) -> Result<State, RulesError> {
    rules::start_from(
        rules,
        (setup.seed, &setup.options, &setup.dice),
        setup.position.as_ref(),
    )
}

/// A saved game: the setup, the actions, and the content they were played on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedGame {
    pub game: String,
    /// The fingerprint of the content when the game was saved.
    pub content_hash: String,
    pub setup: Setup,
    pub actions: Vec<String>,
    /// The running line's name, when the playtest named it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The other lines of play kept with the game (what-if branches, lines a reload set
    /// aside), oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<SavedLine>,
}

/// A line of play kept with a saved game: its name, setup and actions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SavedLine {
    pub name: String,
    pub setup: Setup,
    pub actions: Vec<String>,
}

impl SavedGame {
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }

    /// Reads a saved game; a corrupt file gives its line and column.
    pub fn from_ron(text: &str) -> Result<SavedGame, String> {
        ron::from_str(text)
            .map_err(|e| format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code))
    }
}

/// What differs between two states reached by the same actions on the old rules and on the
/// changed ones, for a person, in names: turn, tracks, the result, control and units (as
/// `what: this on the old rules, that on the changed rules`), then hands, flags, the next
/// decision and the last message.
pub fn differences(content: &Content, old: &State, new: &State) -> Vec<String> {
    let names = content.names();
    let mut out: Vec<String> = crate::narrate::compare(
        content,
        ("the old rules", old),
        ("the changed rules", new),
        12,
    )
    .into_iter()
    .filter(|l| !l.contains(" stand the same "))
    .collect();
    if old.hands != new.hands {
        out.push("The hands differ.".into());
    }
    if old.flags != new.flags {
        let only = |a: &State, b: &State| -> Vec<String> {
            a.flags
                .difference(&b.flags)
                .map(|f| names.or_id(f))
                .collect()
        };
        let (was, now) = (only(old, new), only(new, old));
        if !was.is_empty() {
            out.push(format!(
                "In force on the old rules only: {}.",
                was.join(", ")
            ));
        }
        if !now.is_empty() {
            out.push(format!(
                "In force on the changed rules only: {}.",
                now.join(", ")
            ));
        }
    }
    if old.flow.prompt != new.flow.prompt {
        out.push(format!(
            "The next decision: {} on the old rules, {} on the changed rules.",
            decision(content, &old.flow.prompt),
            decision(content, &new.flow.prompt)
        ));
    }
    if old.flow.messages != new.flow.messages {
        if let Some(m) = new.flow.messages.last() {
            out.push(format!("The rules now say: {}", names.words(m)));
        }
    }
    if out.is_empty() {
        out.push("The dice or the piles differ.".into());
    }
    out
}

/// A decision as a person reads it: who decides what, and how many to pick.
pub(crate) fn decision(content: &Content, prompt: &Option<Prompt>) -> String {
    let names = content.names();
    let Some(p) = prompt else {
        return "no decision".into();
    };
    let pick = match p.pick {
        Some((min, max)) if min == max => format!(", pick {min} of {}", p.actions.len()),
        Some((min, max)) => format!(", pick {min} to {max} of {}", p.actions.len()),
        None => format!(", {} choices", p.actions.len()),
    };
    format!(
        "\"{} decides: {}{pick}\"",
        names.or_id(&p.side),
        names.words(&p.question)
    )
}

/// The state as JSON, for tools: where play stands, tracks, control, units, markers, hands,
/// flags, the result, the latest messages, and the prompt.
pub fn state_json(content: &Content, state: &State) -> serde_json::Value {
    use serde_json::json;
    let place = |at: &Loc| match at {
        Loc::Space(s) => json!({"space": s}),
        Loc::Box(b) => json!({"box": b}),
        Loc::Unplaced => json!("unplaced"),
        Loc::Removed => json!("removed"),
    };
    let units: Vec<serde_json::Value> = state
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.at != Loc::Unplaced)
        .map(|(i, u)| {
            let mut v = json!({"unit": u.name(content), "at": place(&u.at), "reduced": u.reduced});
            // Where an eliminated unit was lost, when the game has theatres (14.2).
            if let (Some(marks), Some(o)) = (state.theatres.get(&i), v.as_object_mut()) {
                o.insert("theatres".into(), json!(marks));
            }
            v
        })
        .collect();
    let markers: Vec<serde_json::Value> = state
        .markers
        .iter()
        .map(|m| json!({"marker": m.marker, "space": m.space, "level": m.level}))
        .collect();
    let phase = content
        .game
        .as_ref()
        .and_then(|g| g.sequence.get(state.flow.phase))
        .map_or("", |p| p.id.as_str());
    let recent: Vec<&String> = state.flow.messages.iter().rev().take(20).rev().collect();
    json!({
        "turn": state.turn,
        "round": state.round,
        "phase": phase,
        "tracks": state.tracks,
        "flags": state.flags,
        "control": state.control,
        "units": units,
        "markers": markers,
        "hands": state.hands,
        "kept_cards": state.kept_cards,
        "played": state.played,
        "result": state.flow.result,
        "messages": recent,
        "prompt": state.flow.prompt,
    })
}
