//! The hot-reload core the editor uses: a session on the last good content, the lines of play
//! a reload set aside, and the reports of what each reload took and found.
//!
//! On new content a [`Playtest`] either keeps running the old rules (the new ones do not check,
//! or cannot play the scenario), or replays the log on the new rules in step with the old ones
//! and stops at the first action that became illegal or whose outcome changed. The actions
//! before it go on on the new rules; the whole log as it was, with the rules it was played on,
//! is kept as a [`Line`] the designer can return to, replay on the new rules as far as it goes,
//! or discard. Each reload leaves a [`ReloadReport`] (the files and things it took, what the
//! replay found) until the designer dismisses it.
//!
//! Invariant: no action of a game is ever dropped but by the designer (undo, discard): every
//! action played is in the running session's log or in a kept line. Content identical to the
//! running one changes nothing and reports nothing.

mod branch;

use crate::content::Content;
use crate::content_diff::{self, Changes};
use crate::diag::{Diagnostic, Sources};
use crate::load::Loaded;
use crate::rules::{self, IllegalAction, Rules, RulesError};
use crate::session::{differences, ReplayError, Session, Setup};

/// Where a replay against new content first parts from the old one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The action's index in the log (0-based).
    pub index: usize,
    pub action: String,
    pub kind: DivergenceKind,
    /// What the action did on the rules before the change (empty for the setup).
    pub was: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DivergenceKind {
    /// The action is no longer legal.
    Illegal(IllegalAction),
    /// The action is legal but leads to another state: what differs, each as before and after.
    Changed(Vec<String>),
}

/// What a reload did.
#[derive(Debug, Clone, PartialEq)]
pub enum Reload {
    /// The files are the ones the playtest runs on: nothing to do.
    Unchanged,
    /// The new content does not check: the last good content keeps running.
    Rejected(Vec<Diagnostic>),
    /// The new content cannot play the session's scenario at all.
    Unplayable(String),
    /// The log replayed on the new content; where it diverged, if it did (the session keeps
    /// the actions before that, and the whole log is kept as a line).
    Replayed(Option<Divergence>),
}

/// What one reload took and found, kept until the designer dismisses it.
#[derive(Debug, Clone, PartialEq)]
pub struct ReloadReport {
    /// The reload's number in this playtest, from 1.
    pub number: usize,
    /// What changed in the files, against the rules that were running.
    pub changes: Changes,
    /// How many actions the log held when the reload came.
    pub actions: usize,
    pub outcome: Reload,
}

impl ReloadReport {
    /// One line saying what happened.
    pub fn headline(&self) -> String {
        let files = self.changes.files().join(", ");
        let took = if files.is_empty() {
            format!("Reload {}", self.number)
        } else {
            format!("Reload {} took {files}", self.number)
        };
        match &self.outcome {
            Reload::Unchanged => {
                format!("{took}: the files are again the ones the playtest runs on.")
            }
            Reload::Rejected(d) => format!(
                "{took}: the changed content does not check ({} problems); the playtest goes on with the last good rules.",
                d.len()
            ),
            Reload::Unplayable(why) => {
                format!("{took}: the changed rules cannot play this scenario ({why}); the playtest goes on with the last good rules.")
            }
            Reload::Replayed(None) => format!(
                "{took}: replayed {} on the changed rules, no difference.",
                if self.actions == 1 { "the 1 action".to_string() } else { format!("all {} actions", self.actions) }
            ),
            Reload::Replayed(Some(d)) => {
                let what = match &d.kind {
                    DivergenceKind::Illegal(_) => "is no longer legal",
                    DivergenceKind::Changed(_) => "now plays differently",
                };
                if d.action == "(setup)" {
                    format!("{took}: the scenario now starts differently. All {} actions are kept as the line \"before reload {}\".", self.actions, self.number)
                } else {
                    format!(
                        "{took}: action {} (`{}`) {what}. {} before it {} on on the changed rules; all {} are kept as the line \"before reload {}\".",
                        d.index + 1,
                        d.action,
                        actions(d.index),
                        if d.index == 1 { "goes" } else { "go" },
                        self.actions,
                        self.number
                    )
                }
            }
        }
    }

    /// The details: each change taken, then what the replay found (both outcomes).
    pub fn details(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .changes
            .listed
            .iter()
            .map(|c| format!("changed: {c}"))
            .collect();
        if self.changes.more > 0 {
            out.push(format!("and {} more changes", self.changes.more));
        }
        match &self.outcome {
            Reload::Replayed(Some(d)) => {
                let did = d
                    .was
                    .iter()
                    .map(|w| format!("before the change it did: {w}"));
                out.extend(did);
                match &d.kind {
                    DivergenceKind::Illegal(i) => {
                        out.push(format!("now it is not legal: {}", i.message));
                    }
                    DivergenceKind::Changed(diff) => {
                        let now = diff
                            .iter()
                            .map(|d| format!("after it, on the changed rules: {d}"));
                        out.extend(now);
                    }
                }
            }
            Reload::Rejected(d) => {
                out.extend(d.iter().take(5).map(|d| format!("problem: {}", d.message)));
            }
            _ => {}
        }
        out
    }
}

/// "The 1 action", "The 3 actions", "No action".
fn actions(n: usize) -> String {
    match n {
        0 => "No action".into(),
        1 => "The 1 action".into(),
        n => format!("The {n} actions"),
    }
}

/// A line of play set aside: its actions and the rules they were played on.
#[derive(Debug, Clone)]
pub struct Line {
    pub name: String,
    pub setup: Setup,
    pub actions: Vec<String>,
    content: Box<Content>,
    sources: Sources,
}

impl Line {
    /// The fingerprint of the rules the line was played on.
    pub fn rules_hash(&self) -> &str {
        &self.content.hash
    }
}

/// A session on the last good content: the hot-reload core.
#[derive(Clone)]
pub struct Playtest {
    pub content: Content,
    /// The texts `content` was loaded from (empty when not known), to say what a reload took.
    sources: Sources,
    pub session: Session,
    /// The running line's name (`main line` until renamed, or a branch's).
    pub name: String,
    /// The lines of play set aside, oldest first.
    pub lines: Vec<Line>,
    /// What each reload took and found, oldest first, until dismissed.
    pub reports: Vec<ReloadReport>,
    reloads: usize,
    /// The fingerprint of the newest good content given to [`Playtest::reload`].
    latest: String,
    /// The fingerprint of the newest content given, good or not: the same files again (a
    /// watcher reports one save several times) change nothing.
    /// (And whether it had errors.)
    seen: (String, bool),
}

impl Playtest {
    pub fn new(content: Content, setup: Setup) -> Result<Playtest, RulesError> {
        Playtest::with_sources(content, Sources::default(), setup)
    }

    /// A playtest that knows the texts of its content, so a reload can name what changed.
    pub fn with_sources(
        content: Content,
        sources: Sources,
        setup: Setup,
    ) -> Result<Playtest, RulesError> {
        let session = Session::new(&content, setup)?;
        Ok(Playtest::running(content, sources, session))
    }

    /// A playtest of a recorded game (a saved game, a benchmark's log): the actions are replayed
    /// as far as they go; when one does not, the whole game is kept as a line named `name`.
    pub fn replayed(
        content: Content,
        sources: Sources,
        setup: Setup,
        actions: &[String],
        name: &str,
    ) -> Result<(Playtest, Option<ReplayError>), RulesError> {
        let (session, stop) = Session::replay(&content, setup.clone(), actions)?;
        let mut p = Playtest::running(content, sources, session);
        if stop.is_some() {
            p.keep_line(name.to_string(), setup, actions.to_vec());
        }
        Ok((p, stop))
    }

    fn running(content: Content, sources: Sources, session: Session) -> Playtest {
        Playtest {
            latest: content.hash.clone(),
            seen: (content.hash.clone(), false),
            content,
            sources,
            session,
            name: "main line".into(),
            lines: Vec::new(),
            reports: Vec::new(),
            reloads: 0,
        }
    }

    pub fn apply(&mut self, action: &str) -> Result<(), IllegalAction> {
        self.session.apply(&self.content, action)
    }

    pub fn undo(&mut self) -> Option<String> {
        self.session.undo(&self.content)
    }

    /// Whether the playtest runs on the newest good content it was given (false after a
    /// return to a line played on older rules).
    pub fn on_latest_rules(&self) -> bool {
        self.content.hash == self.latest
    }

    pub fn dismiss(&mut self, report: usize) {
        if report < self.reports.len() {
            self.reports.remove(report);
        }
    }

    pub fn discard(&mut self, line: usize) {
        if line < self.lines.len() {
            self.lines.remove(line);
        }
    }

    fn keep_line(&mut self, name: String, setup: Setup, actions: Vec<String>) {
        self.lines.push(Line {
            name,
            setup,
            actions,
            content: Box::new(self.content.clone()),
            sources: self.sources.clone(),
        });
    }

    /// Keeps the running line (its actions and rules), unless a kept line already holds it.
    fn keep_running_line(&mut self, name: String) {
        let log = self.session.log();
        let held = self.lines.iter().any(|l| {
            l.content.hash == self.content.hash
                && l.setup == self.session.setup
                && l.actions.starts_with(log)
        });
        if !log.is_empty() && !held {
            let (setup, actions) = (self.session.setup.clone(), log.to_vec());
            self.keep_line(name, setup, actions);
        }
    }

    /// Takes over another playtest's lines (the one this replaces: a game loaded over it), its
    /// running line first, under `name`, so that loading a game loses none.
    pub fn keep_lines_of(&mut self, other: Playtest, name: &str) {
        let mut lines = Vec::new();
        if !other.session.log().is_empty() {
            lines.push(Line {
                name: name.to_string(),
                setup: other.session.setup.clone(),
                actions: other.session.log().to_vec(),
                content: Box::new(other.content),
                sources: other.sources,
            });
        }
        lines.extend(other.lines);
        lines.append(&mut self.lines);
        self.lines = lines;
    }

    /// Makes a kept line the running one, on the rules it was played on, replayed as far as it
    /// goes. The line that was running is kept in its place, so nothing is lost either way.
    pub fn return_to(&mut self, line: usize) -> Result<Option<ReplayError>, RulesError> {
        let Some(l) = self.lines.get(line).cloned() else {
            return Ok(None);
        };
        let (session, stop) = Session::replay(&l.content, l.setup.clone(), &l.actions)?;
        let name = format!("left for \"{}\"", l.name);
        self.keep_running_line(name);
        // The files on disk are news again to the older rules.
        self.seen = Default::default();
        self.content = *l.content;
        self.sources = l.sources;
        self.session = session;
        self.name = l.name.clone();
        if stop.is_none() {
            self.lines.retain(|k| {
                !(k.name == l.name && k.actions == l.actions && k.content.hash == self.content.hash)
            });
        }
        Ok(stop)
    }

    /// Plays a kept line's actions on the running rules as far as they go. The running line is
    /// kept first when the kept one does not continue it; the kept line stays until discarded.
    pub fn replay_here(&mut self, line: usize) -> Result<Option<ReplayError>, RulesError> {
        let Some(l) = self.lines.get(line).cloned() else {
            return Ok(None);
        };
        if l.setup != self.session.setup || !l.actions.starts_with(self.session.log()) {
            self.keep_running_line(format!("left for a replay of \"{}\"", l.name));
        }
        let (session, stop) = Session::replay(&self.content, l.setup, &l.actions)?;
        self.session = session;
        Ok(stop)
    }

    /// Takes newly loaded content: keeps the last good one if it has errors, else replays the
    /// log on it in step with the old content and stops at the first difference, keeping the
    /// whole log as a line. Every reload but an unchanged one leaves a report.
    pub fn reload(&mut self, loaded: Loaded) -> Reload {
        let seen = (loaded.content.hash.clone(), loaded.has_errors());
        if seen == self.seen {
            return Reload::Unchanged;
        }
        self.seen = seen;
        let old_texts = content_diff::texts(&self.content, &self.sources);
        let new_texts = content_diff::texts(&loaded.content, &loaded.sources);
        let same = if old_texts.is_empty() {
            loaded.content.hash == self.content.hash
        } else {
            old_texts == new_texts
        };
        if same && !loaded.has_errors() {
            self.latest = loaded.content.hash.clone();
            // Files put back as they were after a refused change: say so, since the refusal
            // is still on screen.
            if matches!(
                self.reports.last().map(|r| &r.outcome),
                Some(Reload::Rejected(_) | Reload::Unplayable(_))
            ) {
                self.reloads += 1;
                self.reports.push(ReloadReport {
                    number: self.reloads,
                    changes: Changes::default(),
                    actions: self.session.log().len(),
                    outcome: Reload::Unchanged,
                });
            }
            return Reload::Unchanged;
        }
        let changes = if old_texts.is_empty() {
            Changes::default()
        } else {
            content_diff::compare(&old_texts, &new_texts)
        };
        self.reloads += 1;
        let actions = self.session.log().len();
        let outcome = self.take(loaded);
        self.reports.push(ReloadReport {
            number: self.reloads,
            changes,
            actions,
            outcome: outcome.clone(),
        });
        outcome
    }

    fn take(&mut self, loaded: Loaded) -> Reload {
        if loaded.has_errors() {
            return Reload::Rejected(loaded.diagnostics);
        }
        let (new, new_sources) = (loaded.content, loaded.sources);
        let scenario = &self.session.setup.scenario;
        let (old_rules, new_rules) = match (
            Rules::new(&self.content, scenario),
            Rules::new(&new, scenario),
        ) {
            (Ok(o), Ok(n)) => (o, n),
            (_, Err(e)) | (Err(e), _) => return Reload::Unplayable(e.0),
        };
        let setup = self.session.setup.clone();
        let (mut old_state, mut fresh) = match (
            rules::start(&old_rules, setup.seed, &setup.options, &setup.dice),
            Session::new(&new, setup.clone()),
        ) {
            (Ok(o), Ok(n)) => (o, n),
            (_, Err(e)) | (Err(e), _) => return Reload::Unplayable(e.0),
        };
        let mut divergence = None;
        if old_state != *fresh.state() {
            divergence = Some(Divergence {
                index: 0,
                action: "(setup)".into(),
                kind: DivergenceKind::Changed(differences(&new, &old_state, fresh.state())),
                was: Vec::new(),
            });
        }
        if divergence.is_none() {
            for (index, action) in self.session.log().iter().enumerate() {
                // The log replayed on the old content before; it replays again.
                let _ = rules::apply_unguarded(&old_rules, &mut old_state, action);
                match fresh.apply_with(&new_rules, action) {
                    Err(illegal) => {
                        // An illegal action leaves the state as it was before it.
                        divergence = Some(Divergence {
                            index,
                            action: action.clone(),
                            kind: DivergenceKind::Illegal(illegal),
                            was: did(&self.content, fresh.state(), &old_state),
                        });
                        break;
                    }
                    Ok(()) if *fresh.state() != old_state => {
                        let changed = differences(&new, &old_state, fresh.state());
                        // The running line keeps the actions before this one only.
                        fresh.drop_last(&new_rules);
                        divergence = Some(Divergence {
                            index,
                            action: action.clone(),
                            kind: DivergenceKind::Changed(changed),
                            was: did(&self.content, fresh.state(), &old_state),
                        });
                        break;
                    }
                    Ok(()) => {}
                }
            }
        }
        if divergence.is_some() {
            self.keep_running_line(format!("before reload {}", self.reloads));
        }
        self.latest = new.hash.clone();
        self.content = new;
        self.sources = new_sources;
        self.session = fresh;
        Reload::Replayed(divergence)
    }
}

/// What an action did on the old rules (the state before it and after it there), in names.
fn did(
    content: &Content,
    before: &crate::state::State,
    after: &crate::state::State,
) -> Vec<String> {
    let happened = crate::narrate::what_happened(content, before, after);
    let lines: Vec<String> = happened.lines().cloned().collect();
    if lines.is_empty() {
        vec![format!(
            "it led to the decision {}",
            crate::session::decision(content, &after.flow.prompt)
        )]
    } else {
        lines
    }
}
