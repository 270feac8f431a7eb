//! The prompt: who decides, about what, and every legal action, as [`super::Rules`] leaves it in
//! the state after each action (split from the rules' module, whose entry points make it).

use serde::Serialize;

use super::*;

/// What the engine asks: who decides, about what, and the legal actions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Prompt {
    /// The side that decides.
    pub side: crate::Id,
    /// What kind of decision (`action`, `activate`, `move`, `attack`, `losses` ...).
    pub kind: crate::Id,
    /// The question, for a person.
    pub question: String,
    /// The legal actions (written in their text forms); or, when `pick` is given, the things
    /// to pick from, one word each, answered as `choose a b c`.
    #[serde(rename = "options")]
    pub actions: Vec<Action>,
    /// How many options to pick (at least, at most), for a multiple choice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<(usize, usize)>,
}

impl Prompt {
    pub(super) fn one_of(
        side: &str,
        kind: &'static str,
        question: impl Into<String>,
        actions: Vec<Action>,
    ) -> Self {
        Prompt {
            // Ids, not texts: made at every prompt without allocating.
            side: crate::Id::new(side),
            kind: crate::Id::of_static(kind),
            question: question.into(),
            actions,
            pick: None,
        }
    }

    /// A script's question as a prompt, with what asks it first (a card's title, a phase's or
    /// an action's name, a rule) unless the question names it already.
    pub(crate) fn decision(d: crate::script::eval::Decision, source: &str) -> Self {
        let question = if source.is_empty() || d.question.contains(source) {
            d.question
        } else {
            format!("{source}: {}", d.question)
        };
        Prompt {
            side: crate::Id::new(&d.by),
            kind: crate::Id::of_static("decision"),
            question,
            actions: d.options.iter().map(|o| Action::new(Word::id(o))).collect(),
            pick: Some((d.min, d.max)),
        }
    }

    /// The legal actions' (or the things to pick's) text forms.
    pub fn options(&self) -> Vec<String> {
        self.actions.iter().map(Action::to_string).collect()
    }

    /// Whether an action answers this prompt.
    pub fn allows(&self, action: &Action) -> bool {
        match self.pick {
            None => self.actions.contains(action),
            Some((min, max)) => {
                let words = action.words();
                if action.verb() != "choose" {
                    return false;
                }
                let picked = &words[1..];
                (min..=max).contains(&picked.len())
                    && picked
                        .iter()
                        .enumerate()
                        .all(|(i, w)| !picked[..i].contains(w))
                    && picked
                        .iter()
                        .all(|w| self.actions.iter().any(|o| o.words() == [*w]))
            }
        }
    }

    /// The legal action a text names, if it names one: an option written so, or for a
    /// multiple choice `choose` and options written so.
    pub fn parse(&self, text: &str) -> Option<Action> {
        match self.pick {
            // The text split once, and compared with each option of as many words: an option
            // found is allowed.
            None => {
                let words: smallvec::SmallVec<[&str; 6]> = text.split_whitespace().collect();
                let written = |a: &&Action| {
                    a.words().len() == words.len() && a.written_as(words.iter().copied())
                };
                self.actions.iter().find(written).cloned()
            }
            Some(_) => {
                let mut words = text.split_whitespace();
                if words.next() != Some("choose") {
                    return None;
                }
                let mut action = Action::new("choose");
                for w in words {
                    let option = self.actions.iter().find(|a| a.is_written(w))?;
                    action = action.and(option.words()[0]);
                }
                self.allows(&action).then_some(action)
            }
        }
    }

    /// Some legal actions, to show as alternatives: every option; for a choice of one (a yes
    /// or no), every pick; for a multiple choice, the first picks that fit.
    pub fn examples(&self) -> Vec<String> {
        match self.pick {
            None => self.options(),
            Some((_, 1)) => self
                .actions
                .iter()
                .map(|a| Action::new("choose").and(a.words()[0]).to_string())
                .collect(),
            Some((min, _)) => {
                let mut choose = Action::new("choose");
                for a in self.actions.iter().take(min) {
                    choose = choose.and(a.words()[0]);
                }
                vec![choose.to_string()]
            }
        }
    }
}
