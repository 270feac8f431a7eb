//! Typed actions: what the rules offer and apply, as words that are content ids, verbs and
//! units of the state, never built as text nor parsed from it.
//!
//! The text form (`move ger_4pz warsaw`, `choose su_8ga.2 yes`) is only the actions' codec for
//! logs, saved games, the command line and the editor: [`Action`]'s `Display` writes it, and
//! [`super::Prompt::parse`] reads a text back as the one legal action it names. The texts are
//! those the engine always wrote, so saved games and logs keep working.

use std::fmt;

use smallvec::SmallVec;

use crate::content::Content;
use crate::state::State;

/// One word of an action.
#[derive(Debug, Clone, Copy, Eq)]
pub enum Word {
    /// A verb (`move`, `done`) or an id the content names (a space, a card, a marker).
    Text(&'static str),
    /// A unit of the state: its index, and its name's parts (its counter, and its piece from
    /// 1 for a generic counter, 0 otherwise) for the text form.
    Unit {
        index: u32,
        counter: &'static str,
        piece: u32,
    },
}

impl PartialEq for Word {
    fn eq(&self, other: &Word) -> bool {
        match (self, other) {
            // Verbs are literals and ids are kept once: the same text is most often the same
            // address, and else the same bytes.
            (Word::Text(a), Word::Text(b)) => std::ptr::eq(*a, *b) || a == b,
            (Word::Unit { index: a, .. }, Word::Unit { index: b, .. }) => a == b,
            _ => false,
        }
    }
}

impl Word {
    /// The word of a unit of the state.
    pub fn unit(content: &Content, state: &State, index: usize) -> Word {
        let unit = &state.units[index];
        let generic = content.counter_of(unit).is_some_and(|c| c.count > 1);
        Word::Unit {
            index: index as u32,
            counter: unit.counter.as_str(),
            piece: if generic { unit.piece + 1 } else { 0 },
        }
    }

    /// The word of a text the engine holds as a `String` (kept as an id).
    pub fn id(text: &str) -> Word {
        Word::Text(crate::Id::new(text).as_str())
    }

    /// Whether this word is written `text`.
    pub(crate) fn is_written(&self, text: &str) -> bool {
        match self {
            Word::Text(t) => *t == text,
            Word::Unit { counter, piece, .. } => match text.strip_prefix(counter) {
                Some("") => *piece == 0,
                Some(rest) => {
                    *piece > 0
                        && rest
                            .strip_prefix('.')
                            .and_then(|n| n.parse::<u32>().ok())
                            .is_some_and(|n| n == *piece)
                }
                None => false,
            },
        }
    }
}

impl From<crate::Id> for Word {
    fn from(id: crate::Id) -> Word {
        Word::Text(id.as_str())
    }
}

impl From<&'static str> for Word {
    fn from(text: &'static str) -> Word {
        Word::Text(text)
    }
}

impl fmt::Display for Word {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Word::Text(t) => f.write_str(t),
            Word::Unit { counter, piece, .. } if *piece > 0 => write!(f, "{counter}.{piece}"),
            Word::Unit { counter, .. } => f.write_str(counter),
        }
    }
}

/// A legal action: a verb and its words. See the module's documentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Action(SmallVec<[Word; 3]>);

impl Action {
    /// An action of one verb, words to be added.
    pub fn new(verb: impl Into<Word>) -> Action {
        let mut words = SmallVec::new();
        words.push(verb.into());
        Action(words)
    }

    /// An action of text words only, as written (for a prompt made by hand to be shown: a
    /// unit's name stays a text, so the rules would not take it as a unit).
    pub fn of_text(text: &str) -> Action {
        Action(text.split_whitespace().map(Word::id).collect())
    }

    /// The action with one more word.
    pub fn and(mut self, word: impl Into<Word>) -> Action {
        self.0.push(word.into());
        self
    }

    /// The action with a unit of the state as its next word.
    pub fn and_unit(self, content: &Content, state: &State, unit: usize) -> Action {
        self.and(Word::unit(content, state, unit))
    }

    pub fn words(&self) -> &[Word] {
        &self.0
    }

    /// The first word's text: the verb (empty for a unit).
    pub fn verb(&self) -> &'static str {
        self.text(0).unwrap_or("")
    }

    /// The `i`th word's text, if it is a text.
    pub fn text(&self, i: usize) -> Option<&'static str> {
        match self.0.get(i) {
            Some(Word::Text(t)) => Some(t),
            _ => None,
        }
    }

    /// The `i`th word as a unit of the state; else why not (`what` the word should name).
    pub fn unit(&self, i: usize) -> Result<usize, String> {
        match self.0.get(i) {
            Some(Word::Unit { index, .. }) => Ok(*index as usize),
            Some(w) => Err(format!("no unit `{w}`")),
            None => Err("which unit?".into()),
        }
    }

    /// Whether the action is written `text` (words separated by white space).
    pub fn is_written(&self, text: &str) -> bool {
        self.written_as(text.split_whitespace())
    }

    /// Whether the action is written as these words, one for each of its own.
    pub(crate) fn written_as<'t>(&self, mut words: impl Iterator<Item = &'t str>) -> bool {
        self.0
            .iter()
            .all(|w| words.next().is_some_and(|t| w.is_written(t)))
            && words.next().is_none()
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, w) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{w}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for Action {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl PartialEq<str> for Action {
    fn eq(&self, text: &str) -> bool {
        self.is_written(text)
    }
}

impl PartialEq<&str> for Action {
    fn eq(&self, text: &&str) -> bool {
        self.is_written(text)
    }
}

impl PartialEq<String> for Action {
    fn eq(&self, text: &String) -> bool {
        self.is_written(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Prompt;

    fn unit(index: u32, counter: &'static str, piece: u32) -> Word {
        Word::Unit {
            index,
            counter,
            piece,
        }
    }

    #[test]
    fn an_action_is_written_as_the_prompts_always_wrote_it_and_read_back_only_so() {
        let generic = Action::new("move").and(unit(7, "su_8ga", 2)).and("warsaw");
        assert_eq!(generic.to_string(), "move su_8ga.2 warsaw");
        assert!(generic.is_written("move  su_8ga.2 warsaw"));
        for other in [
            "move su_8ga warsaw",
            "move su_8ga.3 warsaw",
            "move su_8ga.2",
            "",
        ] {
            assert!(!generic.is_written(other), "{other}");
        }
        let unique = Action::new("lose").and(unit(3, "ger_4pz", 0));
        assert_eq!(unique.to_string(), "lose ger_4pz");
        assert!(!unique.is_written("lose ger_4pz.1"));
        assert_eq!(generic.unit(1), Ok(7));
        assert!(generic.unit(2).is_err());
        assert_eq!(generic.text(2), Some("warsaw"));
    }

    #[test]
    fn a_multiple_choice_takes_distinct_options_within_its_bounds() {
        let prompt = Prompt {
            side: "axis".into(),
            kind: "decision".into(),
            question: "Pick".into(),
            actions: ["a", "b", "c"].map(|o| Action::new(Word::id(o))).to_vec(),
            pick: Some((1, 2)),
        };
        let picked = prompt.parse("choose c a").expect("legal");
        assert_eq!(picked.to_string(), "choose c a");
        assert!(prompt.allows(&picked));
        for illegal in ["choose a a", "choose", "choose a b c", "choose d", "a"] {
            assert_eq!(prompt.parse(illegal), None, "{illegal}");
        }
        assert_eq!(prompt.examples(), vec!["choose a".to_string()]);
    }

    #[test]
    fn an_action_typed_is_the_option_written_so_word_for_word_and_no_other() {
        let prompt = Prompt {
            side: "allied".into(),
            kind: "move".into(),
            question: "Move units one space at a time, then done".into(),
            actions: vec![
                Action::new("move").and(unit(7, "su_8ga", 2)).and("warsaw"),
                Action::new("move").and(unit(7, "su_8ga", 2)).and("lvov"),
                Action::new("move").and(unit(9, "su_8ga", 0)).and("warsaw"),
                Action::new("done"),
            ],
            pick: None,
        };
        let typed = prompt.parse("  move su_8ga.2   lvov ").expect("an option");
        assert_eq!(typed, prompt.actions[1]);
        assert_eq!(typed.unit(1), Ok(7));
        assert_eq!(
            prompt.parse("move su_8ga warsaw"),
            Some(prompt.actions[2].clone())
        );
        assert_eq!(prompt.parse("done"), Some(prompt.actions[3].clone()));
        for illegal in [
            "move su_8ga.2",
            "move su_8ga.2 lvov done",
            "move su_8ga.3 lvov",
            "done done",
            "",
        ] {
            assert_eq!(prompt.parse(illegal), None, "{illegal}");
        }
    }

    #[test]
    fn the_legal_actions_shown_for_a_choice_of_one_are_every_pick() {
        let yes_no = Prompt {
            side: "allied".into(),
            kind: "decision".into(),
            question: "Discard a card of 3 OPS or more and take card 24 (4.4)?".into(),
            actions: ["yes", "no"].map(|o| Action::new(Word::id(o))).to_vec(),
            pick: Some((1, 1)),
        };
        assert_eq!(yes_no.examples(), vec!["choose yes", "choose no"]);
    }
}
