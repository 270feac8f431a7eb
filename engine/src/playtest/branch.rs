//! What-if branches: from any step of the log, play on differently in a new line; the line
//! left is kept with the others (those a reload set aside are lines too). Lines are named,
//! renamed, saved with the game, and compared with the running one at the same step.

use super::{Line, Playtest};
use crate::narrate;
use crate::rules::RulesError;
use crate::session::{SavedGame, SavedLine, Session};

impl Playtest {
    /// Plays on from before action `at` + 1 (the first `at` actions kept) in a new line named
    /// `name`; the running line is kept whole under its own name first, unless a kept line
    /// already holds it.
    pub fn branch(&mut self, at: usize, name: &str) -> Result<(), RulesError> {
        let log = self.session.log().to_vec();
        if at > log.len() {
            return Err(RulesError(format!(
                "the log has {} actions: there is no step {at} to play on from",
                log.len()
            )));
        }
        let (session, _) = Session::replay(&self.content, self.session.setup.clone(), &log[..at])?;
        self.keep_running_line(self.name.clone());
        self.session = session;
        self.name = name.to_string();
        Ok(())
    }

    /// A name no line has yet: `branch 1`, `branch 2` ...
    pub fn new_branch_name(&self) -> String {
        (1..)
            .map(|n| format!("branch {n}"))
            .find(|n| *n != self.name && self.lines.iter().all(|l| l.name != *n))
            .unwrap_or_default()
    }

    /// Renames a kept line (`Some(index)`) or the running one (`None`); an empty name or one
    /// another line has is refused.
    pub fn rename(&mut self, line: Option<usize>, name: &str) -> Result<(), String> {
        let name = name.trim();
        if name.is_empty() {
            return Err("a line needs a name".into());
        }
        let taken = (line.is_some() && self.name == name)
            || self
                .lines
                .iter()
                .enumerate()
                .any(|(i, l)| Some(i) != line && l.name == name);
        if taken {
            return Err(format!("another line is already named \"{name}\""));
        }
        match line {
            None => self.name = name.to_string(),
            Some(i) => match self.lines.get_mut(i) {
                Some(l) => l.name = name.to_string(),
                None => return Err(format!("there is no kept line {i}")),
            },
        }
        Ok(())
    }

    /// How a kept line and the running one stand after `step` actions each (or after all of
    /// a line's actions, when it has fewer): turn, tracks, result, control, units, in names.
    pub fn compare(&self, line: usize, step: usize) -> Result<Vec<String>, RulesError> {
        let Some(l) = self.lines.get(line) else {
            return Err(RulesError(format!("there is no kept line {line}")));
        };
        let upto = |n: usize| step.min(n);
        let kept = &l.actions[..upto(l.actions.len())];
        let (theirs, _) = Session::replay(&l.content, l.setup.clone(), kept)?;
        let log = self.session.log();
        let (ours, _) = Session::replay(
            &self.content,
            self.session.setup.clone(),
            &log[..upto(log.len())],
        )?;
        let mut said = Vec::new();
        if upto(l.actions.len()) != upto(log.len()) {
            said.push(format!(
                "At step {} of \"{}\" and step {} of \"{}\" (the shorter line ends there).",
                upto(log.len()),
                self.name,
                upto(l.actions.len()),
                l.name
            ));
        }
        said.extend(narrate::compare(
            &self.content,
            (&format!("\"{}\"", self.name), ours.state()),
            (&format!("\"{}\"", l.name), theirs.state()),
            20,
        ));
        Ok(said)
    }

    /// The running game as a saved game, with its name and every kept line.
    pub fn save(&self) -> SavedGame {
        let mut saved = self.session.save(&self.content);
        saved.name = self.name.clone();
        saved.branches = self
            .lines
            .iter()
            .map(|l| SavedLine {
                name: l.name.clone(),
                setup: l.setup.clone(),
                actions: l.actions.clone(),
            })
            .collect();
        saved
    }

    /// Takes back a saved game's name and kept lines, on the running content (a line saved
    /// on other rules is kept on these: comparing or returning replays it as far as it goes).
    pub fn restore_lines(&mut self, saved: &SavedGame) {
        if !saved.name.is_empty() {
            self.name = saved.name.clone();
        }
        for b in &saved.branches {
            self.lines.push(Line {
                name: b.name.clone(),
                setup: b.setup.clone(),
                actions: b.actions.clone(),
                content: Box::new(self.content.clone()),
                sources: self.sources.clone(),
            });
        }
    }
}
