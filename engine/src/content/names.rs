//! Names for people: what the ids of a game's content are called, so the prompts, the log,
//! the tracks and the messages read `4th Army moves from Warsaw to Brest` and not
//! `ge_4 warsaw brest`. The ids stay the actions' text form (logs and saved games keep them);
//! this is only how they are shown.

use super::{Content, IdMap};

/// The names of everything a text of play may mention by id: sides, nations, spaces, units,
/// cards, regions, tracks, markers, boxes, decks, flags and tables.
#[derive(Debug, Clone, Default)]
pub struct Names {
    names: IdMap<String>,
    /// Counters with several identical pieces (named `counter.2` in actions).
    pieces: IdMap<()>,
    /// Ids that are plain words (`combat`, `victory`) of the things a sentence rarely means by
    /// them: markers, tracks, boxes, decks, flags and tables. [`Names::words`] leaves them
    /// as written ("movement or combat", not "movement or Combat" for B2B's Combat marker);
    /// an action names them.
    plain: IdMap<()>,
}

impl Names {
    /// Built from the content; when two kinds of thing share an id, the first kind listed
    /// above gives the name (regions come before tracks).
    pub fn new(content: &Content) -> Names {
        fn add(names: &mut IdMap<String>, id: &str, name: &str) {
            if !id.is_empty() && !name.is_empty() {
                names.entry(id.into()).or_insert_with(|| name.to_string());
            }
        }
        let mut names = IdMap::default();
        let game = content.game.as_ref();
        if let Some(g) = game {
            g.sides.iter().for_each(|s| add(&mut names, &s.id, &s.name));
            g.nations
                .iter()
                .for_each(|n| add(&mut names, &n.id, &n.name));
        }
        content
            .map
            .spaces
            .iter()
            .for_each(|s| add(&mut names, &s.id, &s.name));
        // A counter's name, with its nation's when another counter has the same name (the
        // German and the Soviet 1st Army).
        let mut seen: IdMap<u32> = IdMap::default();
        for c in &content.counters {
            *seen.entry(c.name.as_str().into()).or_default() += 1;
        }
        let nation = |id: &str| {
            game.and_then(|g| g.nations.iter().find(|n| n.id == id))
                .map_or(id.to_string(), |n| n.name.clone())
        };
        let mut pieces = IdMap::default();
        for c in &content.counters {
            if seen.get(c.name.as_str()).copied().unwrap_or(0) > 1 {
                add(
                    &mut names,
                    &c.id,
                    &format!("{} {}", nation(&c.nation), c.name),
                );
            } else {
                add(&mut names, &c.id, &c.name);
            }
            if c.count > 1 {
                pieces.insert(c.id, ());
            }
        }
        for (_, card) in content.cards() {
            add(&mut names, &card.id, &card.title);
        }
        if let Some(g) = game {
            g.regions
                .iter()
                .for_each(|r| add(&mut names, &r.id, &r.name));
        }
        // What is named so far is named in sentences too, plain word or not.
        let before: IdMap<()> = names.keys().map(|id| (*id, ())).collect();
        if let Some(g) = game {
            g.tracks
                .iter()
                .for_each(|t| add(&mut names, &t.id, &t.name));
            g.markers
                .iter()
                .for_each(|m| add(&mut names, &m.id, &m.name));
            g.boxes.iter().for_each(|b| add(&mut names, &b.id, &b.name));
            g.decks.iter().for_each(|d| add(&mut names, &d.id, &d.name));
            g.flags.iter().for_each(|f| add(&mut names, &f.id, &f.name));
        }
        content
            .tables
            .iter()
            .for_each(|t| add(&mut names, &t.id, &t.name));
        let plain = names
            .keys()
            .filter(|id| !before.contains_key(*id))
            .filter(|id| id.chars().all(|c| c.is_ascii_lowercase()))
            .map(|id| (*id, ()))
            .collect();
        Names {
            names,
            pieces,
            plain,
        }
    }

    /// The name of an id, or of a piece of a counter (`su_61.2` is `61st Army #2`).
    pub fn of(&self, id: &str) -> Option<String> {
        if let Some(n) = self.names.get(id) {
            return Some(n.clone());
        }
        let (counter, piece) = id.rsplit_once('.')?;
        if !piece.chars().all(|c| c.is_ascii_digit()) || !self.pieces.contains_key(counter) {
            return None;
        }
        Some(format!("{} #{piece}", self.names.get(counter)?))
    }

    /// The name of an id, or the id itself.
    pub fn or_id(&self, id: &str) -> String {
        self.of(id).unwrap_or_else(|| id.to_string())
    }

    /// A text with every word that is an id written as its name, but a plain word that is
    /// only a marker's, a track's, a box's, a deck's, a flag's or a table's id; punctuation
    /// around a word (`kiev:`, `(ge_4)`) stays.
    pub fn words(&self, text: &str) -> String {
        self.named(text, false)
    }

    /// [`Names::words`], naming the plain words too when `all`.
    fn named(&self, text: &str, all: bool) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while !rest.is_empty() {
            let start = rest
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len());
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            out.push_str(&self.word(&rest[..end], all));
            rest = &rest[end..];
        }
        out
    }

    /// An action's text form in words: its first word is the verb (`move`, `activate`) and
    /// stays, though a marker or a flag may share its id; a one-word action, an option to pick,
    /// is all id.
    pub fn action(&self, text: &str) -> String {
        match text.trim().split_once(' ') {
            Some((verb, rest)) => format!("{verb} {}", self.named(rest, true)),
            None => self.named(text, true),
        }
    }

    fn word(&self, word: &str, all: bool) -> String {
        let is_id = |c: char| c.is_alphanumeric() || c == '_' || c == '.' || c == '-';
        let core_start = word.find(is_id).unwrap_or(word.len());
        // An id ends in a letter, a digit or `_` (not in a full stop).
        let core_end = word
            .char_indices()
            .rev()
            .find(|(_, c)| c.is_alphanumeric() || *c == '_')
            .map_or(core_start, |(i, c)| i + c.len_utf8())
            .max(core_start);
        let core = &word[core_start..core_end];
        if !all && (self.plain.contains_key(core) || PROSE.contains(&core)) {
            return word.to_string();
        }
        match self.of(core) {
            Some(name) => format!(
                "{}{name}{}",
                &word[..core_start],
                &word[core_start + core.len()..]
            ),
            None => word.to_string(),
        }
    }
}

/// The little words of English prose that a game may also use as ids (`it` for Italy, `us`
/// for the United States): in a sentence they stay words ("a space where it may not stop");
/// in an action's text, where every word after the verb is an id, they are named.
const PROSE: &[&str] = &[
    "a", "an", "and", "as", "at", "be", "by", "for", "if", "in", "is", "it", "no", "not", "of",
    "on", "or", "so", "the", "to", "up", "us", "we",
];

impl Content {
    /// The names of the content's ids, built on first use.
    pub fn names(&self) -> &Names {
        self.names.get_or_init(|| Names::new(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        let mut names = IdMap::default();
        names.insert("kiev".into(), "Kiev".to_string());
        names.insert("su_61".into(), "61st Army".to_string());
        names.insert("orel".into(), "Orël".to_string());
        names.insert("combat".into(), "Combat".to_string());
        names.insert("it".into(), "Italy".to_string());
        let mut pieces = IdMap::default();
        pieces.insert("su_61".into(), ());
        let mut plain = IdMap::default();
        plain.insert("combat".into(), ());
        Names {
            names,
            pieces,
            plain,
        }
    }

    #[test]
    fn words_write_ids_as_names_but_leave_marker_words_and_little_words_of_prose() {
        let n = names();
        assert_eq!(
            n.words("axis attacks kiev: 9 (su_61.2)."),
            "axis attacks Kiev: 9 (61st Army #2)."
        );
        assert_eq!(n.action("move su_61.1 kiev"), "move 61st Army #1 Kiev");
        // A marker's id that is a plain word stays one in a sentence, not in an action.
        assert_eq!(
            n.words("Activate kiev for movement or combat."),
            "Activate Kiev for movement or combat."
        );
        assert_eq!(n.action("activate kiev combat"), "activate Kiev Combat");
        // A little word of prose that is also an id (Italy's `it`) stays a word in a sentence,
        // and is named in an action.
        assert_eq!(
            n.words("a space where it may not stop"),
            "a space where it may not stop"
        );
        assert_eq!(n.action("choose it"), "choose Italy");
        // A word that ends in a letter of several bytes, and one that is all punctuation.
        assert_eq!(n.words("Orël, ... orel."), "Orël, ... Orël.");
        assert_eq!(n.words("  spaced   out  "), "  spaced   out  ");
        // Any text at all: never a panic, and a text without ids comes back as it was.
        for text in ["", "é", "(", "ü.", "a..", "…", "(ü)", "-", "ß_", "\u{301}x"] {
            assert_eq!(n.words(text), text);
            assert_eq!(n.action(text), text.trim());
        }
    }
}
