//! Interned ids: the names content gives its spaces, counters, nations, sides and the rest.
//!
//! An [`Id`] is a copyable handle to the one shared copy of its text, so copying one costs
//! nothing and two are equal when they point at the same text. It orders, hashes, prints and
//! serializes as its text, so maps keyed by ids keep the order they had as strings and every
//! file, log and saved game reads and writes the same texts.
//!
//! Texts are kept for the life of the process: ids come from content, and the same content
//! loaded again finds its ids already kept.

use std::borrow::{Borrow, Cow};
use std::collections::HashSet;
use std::fmt;
use std::sync::{OnceLock, RwLock};

/// How many ids a thread remembers by address (see [`Id::new`]): room for every id of a
/// large map (a hex map has thousands of spaces), so that a search over the map does not
/// push out the ids it will ask for next.
const REMEMBERED: usize = 4096;

/// How many texts that are not ids' own a thread remembers by address.
const REMEMBERED_TEXTS: usize = 1024;

thread_local! {
    /// The ids the thread made last, by the address of their text (see [`Id::new`]).
    static RECENT: [std::cell::Cell<Option<Id>>; REMEMBERED] =
        const { [const { std::cell::Cell::new(None) }; REMEMBERED] };
    /// The ids the thread made last of texts that are not ids' own (a `String` of the
    /// content), by the address of that text: the text there may have changed since (a
    /// string freed, its memory used again), so a hit is compared as text before it is taken.
    static RECENT_TEXTS: [std::cell::Cell<Option<(usize, Id)>>; REMEMBERED_TEXTS] =
        const { [const { std::cell::Cell::new(None) }; REMEMBERED_TEXTS] };
}

/// A text's slot in a direct-mapped table of `slots` (a power of two) by its address and
/// length, mixed by one multiplication: texts side by side in memory (the literals of the
/// program, ids made one after another) spread over the whole table instead of falling
/// into slots that the next run of them shares.
fn slot_of(text: &str, slots: usize) -> usize {
    debug_assert!(slots.is_power_of_two(), "a table of {slots} slots");
    let word = (text.as_ptr() as u64) ^ (text.len() as u64) << 48;
    let mixed = word.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - slots.trailing_zeros())) as usize
}

/// A text's slot in [`RECENT`].
fn slot(text: &str) -> usize {
    slot_of(text, REMEMBERED)
}

/// A text's slot in [`RECENT_TEXTS`].
fn text_slot(text: &str) -> usize {
    slot_of(text, REMEMBERED_TEXTS)
}

/// An interned id. See the module's documentation.
#[derive(Clone, Copy)]
pub struct Id(&'static str);

type Kept = HashSet<&'static str, std::hash::BuildHasherDefault<crate::content::IdHash>>;

fn interner() -> &'static RwLock<Kept> {
    static KEPT: OnceLock<RwLock<Kept>> = OnceLock::new();
    KEPT.get_or_init(Default::default)
}

impl Id {
    /// The id of `text`, kept once for the process. A text that is an id's own (an id read
    /// as `&str` and made an id again, as the rules do all the time) is found by its address
    /// among the ids the thread made last, without hashing it: its address and length are the
    /// kept copy's, and kept copies are never freed, so the text can be no other.
    ///
    /// Another text made an id lately is found by its address too, and taken when it reads
    /// the same: one comparison instead of hashing it and looking it up among all the ids.
    pub fn new(text: &str) -> Id {
        if let Some(id) = Id::recent(text) {
            return id;
        }
        let at = text.as_ptr() as usize;
        let kept = RECENT_TEXTS.with(|r| r[text_slot(text)].get());
        if let Some((_, id)) = kept.filter(|(a, id)| *a == at && id.0 == text) {
            return id;
        }
        let id = Id::interned(text);
        RECENT.with(|r| r[slot(id.0)].set(Some(id)));
        RECENT_TEXTS.with(|r| r[text_slot(text)].set(Some((at, id))));
        id
    }

    /// The id whose own text `text` is (the same address), when the thread made it lately.
    pub fn recent(text: &str) -> Option<Id> {
        RECENT
            .with(|r| r[slot(text)].get())
            .filter(|id| std::ptr::eq(id.0, text))
    }

    /// The id of `text` if some id has that text already: [`Id::new`] without keeping a text
    /// no id has (a lookup by a text from outside).
    pub fn known(text: &str) -> Option<Id> {
        if let Some(id) = Id::recent(text) {
            return Some(id);
        }
        let kept = interner().read().unwrap_or_else(|e| e.into_inner());
        let id = kept.get(text).map(|t| Id(t))?;
        RECENT.with(|r| r[slot(id.0)].set(Some(id)));
        Some(id)
    }

    /// [`Id::new`] through the process's table of texts.
    fn interned(text: &str) -> Id {
        let kept = interner();
        if let Some(t) = kept.read().unwrap_or_else(|e| e.into_inner()).get(text) {
            return Id(t);
        }
        let mut kept = kept.write().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = kept.get(text) {
            return Id(t);
        }
        let t: &'static str = Box::leak(text.to_owned().into_boxed_str());
        kept.insert(t);
        Id(t)
    }

    /// The id of a text written in the code (a name a hook's point gives its scripts, `from`,
    /// `units`): found by the text's address in a table of the thread's, without hashing the
    /// text, since a program's literal never changes.
    pub fn of_static(text: &'static str) -> Id {
        // A table of the thread's, by the text's address, its length telling apart two
        // literals that start there; a slot taken by another literal is looked up again.
        const SLOTS: usize = 256;
        type Slot = std::cell::Cell<Option<(&'static str, Id)>>;
        thread_local! {
            static SEEN: [Slot; SLOTS] = const { [const { std::cell::Cell::new(None) }; SLOTS] };
        }
        let at = slot_of(text, SLOTS);
        SEEN.with(|seen| match seen[at].get() {
            Some((t, id)) if std::ptr::eq(t, text) => id,
            _ => {
                let id = Id::new(text);
                seen[at].set(Some((text, id)));
                id
            }
        })
    }

    /// The id's text.
    pub fn as_str(&self) -> &'static str {
        self.0
    }

    /// The address of the id's one copy: the same for the same text, for lookups by address.
    pub fn addr(&self) -> usize {
        self.0.as_ptr() as usize
    }

    /// Whether the id is the empty text.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Default for Id {
    fn default() -> Id {
        static EMPTY: OnceLock<Id> = OnceLock::new();
        *EMPTY.get_or_init(|| Id::new(""))
    }
}

impl PartialEq for Id {
    fn eq(&self, other: &Id) -> bool {
        // One copy per text: the same text is the same address.
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Id {}

impl Ord for Id {
    fn cmp(&self, other: &Id) -> std::cmp::Ordering {
        if self == other {
            std::cmp::Ordering::Equal
        } else {
            text_order(self.0, other.0)
        }
    }
}

/// Two texts in the order of their bytes, as `str`'s `cmp` orders them, compared byte by byte
/// from the start: ids most often differ within their first few bytes, where a call to
/// `memcmp` costs more than the comparison.
#[inline]
fn text_order(a: &str, b: &str) -> std::cmp::Ordering {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x.cmp(y);
        }
    }
    a.len().cmp(&b.len())
}

impl PartialOrd for Id {
    fn partial_cmp(&self, other: &Id) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::hash::Hash for Id {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl std::ops::Deref for Id {
    type Target = str;
    fn deref(&self) -> &str {
        self.0
    }
}

impl AsRef<str> for Id {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl Borrow<str> for Id {
    fn borrow(&self) -> &str {
        self.0
    }
}

impl fmt::Display for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Id {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.0, f)
    }
}

impl From<&Id> for Id {
    fn from(id: &Id) -> Id {
        *id
    }
}

impl From<&str> for Id {
    fn from(text: &str) -> Id {
        Id::new(text)
    }
}

impl From<&String> for Id {
    fn from(text: &String) -> Id {
        Id::new(text)
    }
}

impl From<String> for Id {
    fn from(text: String) -> Id {
        Id::new(&text)
    }
}

impl From<Id> for String {
    fn from(id: Id) -> String {
        id.0.to_owned()
    }
}

/// Whether an id's text is `text`: at once when `text` is the id's own copy (as it is when it
/// was read from an id), else by comparing the texts.
#[inline]
fn same_text(id: &'static str, text: &str) -> bool {
    std::ptr::eq(id, text) || id == text
}

impl PartialEq<str> for Id {
    fn eq(&self, other: &str) -> bool {
        same_text(self.0, other)
    }
}

impl PartialEq<&str> for Id {
    fn eq(&self, other: &&str) -> bool {
        same_text(self.0, other)
    }
}

impl PartialEq<String> for Id {
    fn eq(&self, other: &String) -> bool {
        same_text(self.0, other)
    }
}

impl PartialEq<Id> for str {
    fn eq(&self, other: &Id) -> bool {
        same_text(other.0, self)
    }
}

impl PartialEq<Id> for &str {
    fn eq(&self, other: &Id) -> bool {
        same_text(other.0, self)
    }
}

impl PartialEq<Id> for String {
    fn eq(&self, other: &Id) -> bool {
        same_text(other.0, self)
    }
}

impl serde::Serialize for Id {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Id {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Id, D::Error> {
        struct Text;
        impl serde::de::Visitor<'_> for Text {
            type Value = Id;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Id, E> {
                Ok(Id::new(v))
            }
        }
        d.deserialize_str(Text)
    }
}

impl schemars::JsonSchema for Id {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> Cow<'static, str> {
        String::schema_name()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::Id;

    #[test]
    fn ids_of_one_text_are_one_and_order_as_their_texts() {
        let a = Id::new("moscow");
        let b = Id::from(String::from("moscow"));
        assert_eq!(a, b);
        assert!(std::ptr::eq(a.as_str(), b.as_str()));
        let mut ids = [Id::new("riga"), Id::new("kiev"), a, Id::new("")];
        ids.sort();
        let texts: Vec<&str> = ids.iter().map(|i| i.as_str()).collect();
        assert_eq!(texts, ["", "kiev", "moscow", "riga"]);
        assert_eq!(serde_json::to_string(&a).unwrap(), "\"moscow\"");
        let back: Id = serde_json::from_str("\"moscow\"").unwrap();
        assert_eq!(back, a);
        assert_eq!(a, "moscow");
        assert_eq!("moscow", a);
    }

    #[test]
    fn a_literal_s_id_is_the_id_of_its_text_however_it_is_found() {
        let units = Id::of_static("units");
        assert_eq!(units, Id::new("units"));
        assert!(std::ptr::eq(units.as_str(), Id::new("units").as_str()));
        // Found again by address; a literal that starts at the same place but is shorter is
        // another text.
        assert_eq!(Id::of_static("units"), units);
        let whole: &'static str = "unitsx";
        assert_eq!(Id::of_static(&whole[..5]), units);
        assert_eq!(Id::of_static(whole), Id::new("unitsx"));
        assert_eq!(Id::of_static(&whole[..5]), units);
    }

    #[test]
    fn an_id_s_own_text_made_an_id_again_is_that_id_and_no_part_of_it_is() {
        let kyiv = Id::new("kiev_and_beyond");
        let again = Id::new(kyiv.as_str());
        assert!(
            std::ptr::eq(again.as_str(), kyiv.as_str()),
            "found by its address"
        );
        // A text that starts where the id's does but is shorter is another text.
        let part = Id::new(&kyiv.as_str()[..4]);
        assert_eq!(part.as_str(), "kiev");
        assert_ne!(part, kyiv);
        assert_eq!(Id::new(kyiv.as_str()), kyiv);
        // A copy of the text elsewhere is the same id, through the table of texts.
        let copy = String::from("kiev_and_beyond");
        assert_eq!(Id::new(&copy), kyiv);
    }

    #[test]
    fn ids_order_as_their_texts_do_for_prefixes_equal_starts_and_bytes_past_ascii() {
        let texts = [
            "",
            "a",
            "ab",
            "abc",
            "abd",
            "b",
            "kiev",
            "kiev_and_beyond",
            "kievan",
            "Moscow",
            "moscow",
            "z\u{e9}",
            "z\u{ff}",
            "ze",
            "riga",
            "riga_1",
            "riga1",
        ];
        for a in texts {
            for b in texts {
                assert_eq!(Id::new(a).cmp(&Id::new(b)), a.cmp(b), "`{a}` against `{b}`");
            }
        }
    }
}
