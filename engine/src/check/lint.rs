//! Silent mistakes: content that checks but cannot mean what its author wanted. A terrain or
//! connection kind that spaces and connections use but nothing gives an effect (no table row,
//! movement cost, supply rule, play rule or script names it), a capture rule whose marker
//! nothing places, an offensive whose flag nothing sets. Warnings, each at its declaration.

use super::*;
use std::fmt::Write as _;

/// Every string of a JSON value, with its JSON pointer (`at` is the value's).
fn strings<'v>(v: &'v serde_json::Value, at: &mut String, out: &mut Vec<(String, &'v str)>) {
    let len = at.len();
    match v {
        serde_json::Value::String(s) => out.push((at.clone(), s)),
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                let _ = write!(at, "/{i}");
                strings(x, at, out);
                at.truncate(len);
            }
        }
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                at.push('/');
                at.push_str(k);
                strings(x, at, out);
                at.truncate(len);
            }
        }
        _ => {}
    }
}

/// Whether the value at `pointer` lies at or under the value at `place`.
fn under(pointer: &str, place: &str) -> bool {
    pointer
        .strip_prefix(place)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// Whether `id` stands in a text as a whole word (an id, a name in a script).
fn names(text: &str, id: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(id).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + id.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
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
        let texts: Vec<serde_json::Value> = [
            serde_json::to_value(g).ok(),
            files
                .tables
                .as_ref()
                .and_then(|t| serde_json::to_value(&t.data).ok()),
        ]
        .into_iter()
        .flatten()
        .chain(
            files
                .cards
                .iter()
                .filter_map(|c| serde_json::to_value(&c.data).ok()),
        )
        .collect();
        // The strings of each text, gathered once for the many ids asked about.
        let texts: Vec<Vec<(String, &str)>> = texts
            .iter()
            .map(|v| {
                let mut out = Vec::new();
                strings(v, &mut String::new(), &mut out);
                out
            })
            .collect();
        let mentioned = |skip: &[String], id: &str| {
            texts.iter().enumerate().any(|(i, text)| {
                // The places skipped are places of game.ron.
                let skip = if i == 0 { skip } else { &[] };
                text.iter()
                    .any(|(at, s)| names(s, id) && !skip.iter().any(|place| under(at, place)))
            })
        };
        let spaces = &content.graph.spaces;
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for s in spaces {
            if let Some(t) = &s.terrain {
                *count.entry(t.as_str()).or_default() += 1;
            }
        }
        let commonest = count.iter().max_by_key(|(_, n)| **n).map(|(t, _)| *t);
        for (i, t) in g.terrains.iter().enumerate() {
            let used = count.get(t.id.as_str()).copied().unwrap_or(0);
            if used == 0 || Some(t.id.as_str()) == commonest || t.move_cost != 0.0 {
                continue;
            }
            if !mentioned(&[format!("/terrains/{i}")], &t.id) {
                let example = spaces
                    .iter()
                    .find(|s| s.terrain.as_deref() == Some(t.id.as_str()))
                    .map_or("", |s| s.id.as_str());
                self.diags.push(
                    Diagnostic::warning(
                        "W0021",
                        game.at(&format!("/terrains/{i}/id")),
                        format!(
                            "no table, movement cost, rule or script gives terrain `{}` an effect: its {used} spaces (`{example}` …) play as any other",
                            t.id
                        ),
                    )
                    .with_hint("give it a row in the terrain table, a `move_cost`, or a hook that names it"),
                );
            }
        }
        let mut kinds: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &content.graph.edges {
            for k in &e.kinds {
                *kinds.entry(k.as_str()).or_default() += 1;
            }
        }
        // Where the play rules list the kinds moves cross, a kind in none of their lists that
        // nothing else names can never be crossed, silently.
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
                if used == 0
                    || has_effect
                    || listed(&k.id)
                    || k.id == g.default_connection_kind
                    || mentioned(&[format!("/connection_kinds/{i}")], &k.id)
                {
                    continue;
                }
                self.diags.push(
                    Diagnostic::warning(
                        "W0022",
                        game.at(&format!("/connection_kinds/{i}/id")),
                        format!(
                            "connection kind `{}` is in none of the play rules' move, SR or sea kinds and no rule or script names it: units can never cross its {used} connections, though supply does",
                            k.id
                        ),
                    )
                    .with_hint("add it to `move_kinds` (or `sr_kinds`), or name it where it has an effect"),
                );
            }
        }
        self.capture_rules(files, game, &mentioned);
    }

    /// Capture rules whose marker nothing places, offensives whose flag nothing sets.
    fn capture_rules(
        &mut self,
        files: &Files,
        game: &Parsed<GameFile>,
        mentioned: &dyn Fn(&[String], &str) -> bool,
    ) {
        let g = &game.data;
        let Some(play) = &g.play else {
            return;
        };
        // A rule's own place and the id's declarations do not place or set it.
        let skips = |own: &str, id: &str| -> Vec<String> {
            let mut v = vec![own.to_string()];
            v.extend(
                g.markers
                    .iter()
                    .position(|m| m.id == id)
                    .map(|j| format!("/markers/{j}")),
            );
            v.extend(
                g.flags
                    .iter()
                    .position(|f| f.id == id)
                    .map(|j| format!("/flags/{j}")),
            );
            v
        };
        let placed = |marker: &str| {
            files.scenarios.iter().any(|s| {
                s.data.markers.iter().any(|m| m.marker == marker)
                    || s.data.flags.iter().any(|f| f == marker)
            })
        };
        for (i, c) in play.captured_markers.iter().enumerate() {
            let own = format!("/play/captured_markers/{i}");
            if !placed(&c.marker) && !mentioned(&skips(&own, &c.marker), &c.marker) {
                self.diags.push(
                    Diagnostic::warning(
                        "W0023",
                        game.at(&format!("{own}/marker")),
                        format!(
                            "this capture rule can never fire: no scenario or script places marker `{}`",
                            c.marker
                        ),
                    )
                    .with_hint("place the marker in a scenario, or from a script"),
                );
            }
        }
        for (i, o) in play.offensives.iter().enumerate() {
            let own = format!("/play/offensives/{i}");
            if !placed(&o.flag) && !mentioned(&skips(&own, &o.flag), &o.flag) {
                self.diags.push(
                    Diagnostic::warning(
                        "W0023",
                        game.at(&format!("{own}/flag")),
                        format!(
                            "this offensive can never be owed: no scenario or script sets flag `{}`",
                            o.flag
                        ),
                    )
                    .with_hint("set the flag from a script (`set_flag`) or a scenario"),
                );
            }
        }
    }
}
