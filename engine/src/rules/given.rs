//! The answer a replay already has for the prompt play runs on to: the log's next action.
//!
//! A replay checks each action of its log against the prompt before it, and most of a
//! prompt's cost is working out options the log does not take: every unit's moves, every
//! unit's and every space's redeployments, every space's activation costs, every card's
//! event condition. With the answer
//! given, the prompts that cost most work out only the options that may be it, and enough of
//! the rest to be empty exactly when the whole prompt would be. So play reaches the same
//! prompt (a step that finds no option goes on as it would), and the answer is offered
//! exactly when the whole prompt offers it. The session never keeps such a prompt: a
//! checkpoint's and the replay's last prompt are worked out whole, and an answer the partial
//! prompt refuses is asked again of the whole one, for the message and its alternatives.

use std::sync::Arc;

use super::Action;

/// The answer given to the prompt being worked out (none outside a replay, and then every
/// option is worked out). Derived data: two flows that differ only in it are the same, and it
/// prints as nothing.
#[derive(Clone, Default)]
pub struct Given(Option<Arc<[Box<str>]>>);

super::kept::derived_data!(Given);

impl Given {
    /// The answer `text` (a die override answers no prompt, so it gives none).
    pub(crate) fn of(text: &str) -> Given {
        let words: Vec<Box<str>> = text.split_whitespace().map(Into::into).collect();
        match words.first() {
            Some(verb) if &**verb != "dice" => Given(Some(words.into())),
            _ => Given::default(),
        }
    }

    /// Whether an answer is given: the prompt worked out with it may be partial.
    pub(crate) fn is_some(&self) -> bool {
        self.0.is_some()
    }

    /// The given answer's word at place `at` (its verb at 0).
    pub(crate) fn word(&self, at: usize) -> Option<&str> {
        self.0.as_deref()?.get(at).map(|w| &**w)
    }

    /// Whether the answer given, if any, is `verb`'s.
    pub(crate) fn may_be(&self, verb: &str) -> bool {
        self.0.as_deref().is_none_or(|w| &*w[0] == verb)
    }

    /// Whether the answer given, if any, names `id` as its word at place `at`.
    pub(crate) fn names(&self, at: usize, id: crate::Id) -> bool {
        self.0.is_none() || self.word(at) == Some(id.as_str())
    }

    /// Whether an option that begins with `prefix`'s words may be the answer given: always
    /// when none is given; else when each word of the prefix is written as the answer's word
    /// in its place (as [`super::Prompt::parse`] compares).
    pub(crate) fn admits(&self, prefix: &Action) -> bool {
        let Some(words) = &self.0 else { return true };
        prefix.words().len() <= words.len()
            && prefix
                .words()
                .iter()
                .zip(words.iter())
                .all(|(w, t)| w.is_written(t))
    }
}
