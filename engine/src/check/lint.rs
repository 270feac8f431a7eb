//! Silent mistakes: content that checks but cannot mean what its author wanted. A terrain or
//! connection kind that spaces and connections use but nothing gives an effect (no table row,
//! movement cost, supply rule, play rule or script names it), a capture rule whose marker
//! nothing places, an offensive whose flag nothing sets. Warnings, each at its declaration.
//!
//! The ids in question are gathered first, then looked for in one walk over the strings of
//! `game.ron`, the tables and the cards ([`strings`]: as serde_json would write them, without
//! making the JSON), word by word (an id is named where it stands as a whole word); the JSON
//! pointer of a string is read only to skip the places that do not count.

use super::*;

mod strings;

/// A rule's place in `game.ron`, with the id it asks about.
type Placed = (String, Asked);

/// An id asked about: whether some string of the content names it, but for the places of
/// `game.ron` skipped (its own declaration, the rule that asks).
#[derive(Clone)]
struct Asked {
    id: String,
    skip: Vec<String>,
    found: bool,
}

impl Asked {
    fn new(id: &str, skip: Vec<String>) -> Asked {
        Asked {
            id: id.to_string(),
            skip,
            found: false,
        }
    }
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Looks for the ids asked about in every string of a file's content (`game` for
/// `game.ron`), until all are found.
fn look_in<T: serde::Serialize + ?Sized>(value: &T, game: bool, asked: &mut [Asked]) {
    if asked.iter().all(|a| a.found) {
        return;
    }
    strings::each_string(value, &mut |at, s| {
        find_named(s, game, at, asked);
        !asked.iter().all(|a| a.found)
    });
}

/// Marks found the ids asked about that a string names (`at`, its JSON pointer, counts in
/// `game.ron` only, for the places each id skips).
fn find_named(s: &str, game: bool, at: &str, asked: &mut [Asked]) {
    let skipped = |a: &Asked| game && a.skip.iter().any(|place| under(at, place));
    // An id of word characters is named when it is one of the string's words.
    let bytes = s.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if !is_word_byte(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_word_byte(bytes[i]) {
            i += 1;
        }
        let word = &bytes[start..i];
        for a in asked.iter_mut() {
            if !a.found && a.id.as_bytes() == word && !skipped(a) {
                a.found = true;
            }
        }
    }
    for a in asked.iter_mut() {
        if !a.found && !a.id.bytes().all(is_word_byte) && names(s, &a.id) && !skipped(a) {
            a.found = true;
        }
    }
}

/// `its 1 space`, `its 3 spaces`.
fn its(n: usize, one: &str, many: &str) -> String {
    format!("its {n} {}", if n == 1 { one } else { many })
}

/// Whether the value at `pointer` lies at or under the value at `place`.
fn under(pointer: &str, place: &str) -> bool {
    pointer
        .strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether `id` stands in a text as a whole word (an id, a name in a script).
fn names(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}

impl Checker<'_> {
    /// Runs when every file loaded and checked; reports what no rule can reach.
    pub(super) fn silent_mistakes(&mut self, files: &Files, content: &Content) {
        // Only in content without errors: a warning should not bury the cause of an error.
        let clean = self.broken.is_empty() && !self.diags.iter().any(|d| d.is_error());
        let (Some(game), true) = (&files.game, clean) else {
            return;
        };
        let g = &game.data;
        let spaces = &content.graph.spaces;
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for s in spaces {
            if let Some(t) = &s.terrain {
                *count.entry(t.as_str()).or_default() += 1;
            }
        }
        let commonest = count.iter().max_by_key(|(_, n)| **n).map(|(t, _)| *t);
        // The terrains that have no effect of their own, with how many spaces they cover.
        let terrains: Vec<(usize, usize)> = g
            .terrains
            .iter()
            .enumerate()
            .filter_map(|(i, t)| {
                let used = count.get(t.id.as_str()).copied().unwrap_or(0);
                let plain = used > 0 && Some(t.id.as_str()) != commonest && t.move_cost == 0.0;
                plain.then_some((i, used))
            })
            .collect();
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &content.graph.edges {
            for k in &e.kinds {
                *kinds.entry(k.as_str()).or_default() += 1;
            }
        }
        // Where the play rules list the kinds moves cross, a kind in none of their lists that
        // nothing else names can never be crossed, silently.
        let mut crossings: Vec<(usize, usize)> = Vec::new();
        if let Some(play) = g.play.as_ref().filter(|p| !p.move_kinds.is_empty()) {
            let listed = |id: &str| {
                [&play.move_kinds, &play.sr_kinds, &play.sea_kinds]
                    .iter()
                    .any(|l| l.iter().any(|k| k == id))
            };
            for (i, k) in g.connection_kinds.iter().enumerate() {
                let used = kinds.get(k.id.as_str()).copied().unwrap_or(0);
                // A kind that blocks or limits supply, or costs movement, says what it is for.
                let has_effect = k.move_cost.is_some() || k.supply != TraceSupply::default();
                if used > 0 && !has_effect && !listed(&k.id) && k.id != g.default_connection_kind {
                    crossings.push((i, used));
                }
            }
        }
        let (captures, offensives) = self.unplaced(files, game);
        // Every id asked about, looked for in one walk over the content's strings.
        let mut asked: Vec<Asked> = Vec::new();
        for &(i, _) in &terrains {
            asked.push(Asked::new(
                &g.terrains[i].id,
                vec![format!("/terrains/{i}")],
            ));
        }
        for &(i, _) in &crossings {
            let own = format!("/connection_kinds/{i}");
            asked.push(Asked::new(&g.connection_kinds[i].id, vec![own]));
        }
        asked.extend(captures.iter().chain(&offensives).map(|(_, a)| a.clone()));
        if !asked.is_empty() {
            look_in(g, true, &mut asked);
            if let Some(t) = &files.tables {
                look_in(&t.data, false, &mut asked);
            }
            for c in &files.cards {
                look_in(&c.data, false, &mut asked);
            }
        }
        let mut found = asked.iter().map(|a| a.found);
        let mut warn = |code, at: String, message: String, hint: &str| {
            if found.next() != Some(true) {
                let d = Diagnostic::warning(code, game.at(&at), message).with_hint(hint);
                self.diags.push(d);
            }
        };
        for (i, used) in terrains {
            let t = &g.terrains[i];
            let example = spaces
                .iter()
                .find(|s| s.terrain.as_deref() == Some(t.id.as_str()))
                .map_or("", |s| s.id.as_str());
            warn(
                "W0021",
                format!("/terrains/{i}/id"),
                format!(
                    "no table, movement cost, rule or script gives terrain `{}` an effect: {} (`{example}` …) play as any other",
                    t.id,
                    its(used, "space", "spaces")
                ),
                "give it a row in the terrain table, a `move_cost`, or a hook that names it",
            );
        }
        for (i, used) in crossings {
            warn(
                "W0022",
                format!("/connection_kinds/{i}/id"),
                format!(
                    "connection kind `{}` is in none of the play rules' move, SR or sea kinds and no rule or script names it: units can never cross {}, though supply does",
                    g.connection_kinds[i].id,
                    its(used, "connection", "connections")
                ),
                "add it to `move_kinds` (or `sr_kinds`), or name it where it has an effect",
            );
        }
        for (own, a) in captures {
            warn(
                "W0023",
                format!("{own}/marker"),
                format!(
                    "this capture rule can never fire: no scenario or script places marker `{}`",
                    a.id
                ),
                "place the marker in a scenario, or from a script",
            );
        }
        for (own, a) in offensives {
            warn(
                "W0023",
                format!("{own}/flag"),
                format!(
                    "this offensive can never be owed: no scenario or script sets flag `{}`",
                    a.id
                ),
                "set the flag from a script (`set_flag`) or a scenario",
            );
        }
    }

    /// The capture rules whose marker no scenario places, and the offensives whose flag no
    /// scenario sets (each with its place): whether a script does is asked of their ids.
    fn unplaced(&self, files: &Files, game: &Parsed<GameFile>) -> (Vec<Placed>, Vec<Placed>) {
        let g = &game.data;
        let Some(play) = &g.play else {
            return Default::default();
        };
        // A rule's own place and the id's declarations do not place or set it.
        let asked = |own: &str, id: &str| {
            let mut skip = vec![own.to_string()];
            skip.extend(
                g.markers
                    .iter()
                    .position(|m| m.id == id)
                    .map(|j| format!("/markers/{j}")),
            );
            skip.extend(
                g.flags
                    .iter()
                    .position(|f| f.id == id)
                    .map(|j| format!("/flags/{j}")),
            );
            (own.to_string(), Asked::new(id, skip))
        };
        let placed = |marker: &str| {
            files.scenarios.iter().any(|s| {
                s.data.markers.iter().any(|m| m.marker == marker)
                    || s.data.flags.iter().any(|f| f == marker)
            })
        };
        let captures = play.captured_markers.iter().enumerate();
        let offensives = play.offensives.iter().enumerate();
        (
            captures
                .filter(|(_, c)| !placed(&c.marker))
                .map(|(i, c)| asked(&format!("/play/captured_markers/{i}"), &c.marker))
                .collect(),
            offensives
                .filter(|(_, o)| !placed(&o.flag))
                .map(|(i, o)| asked(&format!("/play/offensives/{i}"), &o.flag))
                .collect(),
        )
    }
}
