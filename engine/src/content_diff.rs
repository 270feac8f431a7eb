//! What changed between two loads of a game folder, in the designer's words: which file, which
//! thing in it (a card by its id, a table's cell), and the value before and after.
//!
//! A hot reload names what it took with this, so that a change that makes no difference in play
//! is still seen to have arrived. Files are compared as the JSON the loader reads them into
//! (comments and layout do not count), list items that carry an `id` are matched by it, so
//! inserting a card does not show every later card as changed.
//!
//! Invariant: a pure function of the two sets of texts; it never fails: a file that does not
//! read is reported as changed as a whole.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::content::Content;
use crate::diag::Sources;

/// How many changes one comparison lists at most; the rest are counted.
pub const MOST_CHANGES: usize = 20;

/// One thing that changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The file, relative to the game folder.
    pub file: String,
    /// Where in the file, as steps (`cards › barbarossa › effect`); empty for the whole file.
    pub place: String,
    /// The value before and after, shortened; `None` where there was none.
    pub before: Option<String>,
    pub after: Option<String>,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.file)?;
        if !self.place.is_empty() {
            write!(f, ": {}", self.place)?;
        }
        match (&self.before, &self.after) {
            (Some(b), Some(a)) => write!(f, ": {b} → {a}"),
            (None, Some(a)) => write!(f, ": added {a}"),
            (Some(b), None) => write!(f, ": removed {b}"),
            (None, None) => Ok(()),
        }
    }
}

/// The changes between two loads, and how many more there were than [`MOST_CHANGES`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Changes {
    pub listed: Vec<Change>,
    pub more: usize,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.listed.is_empty()
    }

    /// The files that changed, each once, in order.
    pub fn files(&self) -> Vec<&str> {
        let mut files: Vec<&str> = self.listed.iter().map(|c| c.file.as_str()).collect();
        files.dedup();
        files
    }

    fn push(&mut self, change: Change) {
        if self.listed.len() < MOST_CHANGES {
            self.listed.push(change);
        } else {
            self.more += 1;
        }
    }
}

/// The texts of a load's files by their path relative to the folder.
pub fn texts<'a>(content: &'a Content, sources: &'a Sources) -> BTreeMap<&'a str, &'a str> {
    let count = sources.iter().count();
    content
        .files
        .iter()
        .filter(|f| (f.id.0 as usize) < count)
        .map(|f| (f.relative.as_str(), sources.get(f.id).text.as_str()))
        .collect()
}

/// What changed from `old` to `new` (each a map of relative path to text).
pub fn compare(old: &BTreeMap<&str, &str>, new: &BTreeMap<&str, &str>) -> Changes {
    let mut out = Changes::default();
    let files: std::collections::BTreeSet<&str> = old.keys().chain(new.keys()).copied().collect();
    for file in files {
        match (old.get(file), new.get(file)) {
            (Some(a), Some(b)) if a == b => {}
            (Some(a), Some(b)) => match (read(a), read(b)) {
                (Some(a), Some(b)) => {
                    let before = out.listed.len() + out.more;
                    walk(file, &mut Vec::new(), &a, &b, &mut out);
                    if out.listed.len() + out.more == before {
                        out.push(whole(file, "its layout or comments only"));
                    }
                }
                _ => out.push(whole(file, "its text")),
            },
            (None, Some(_)) => out.push(whole(file, "a new file")),
            (Some(_), None) => out.push(whole(file, "removed")),
            (None, None) => {}
        }
    }
    out
}

fn whole(file: &str, what: &str) -> Change {
    Change {
        file: file.to_string(),
        place: what.to_string(),
        before: None,
        after: None,
    }
}

fn read(text: &str) -> Option<Value> {
    let node = crate::ron_syntax::parse(text).ok()?;
    crate::ron_syntax::to_json(&node).ok()
}

/// The id of a list item, when it has one.
fn id_of(v: &Value) -> Option<&str> {
    v.get("id").and_then(Value::as_str)
}

fn walk(file: &str, path: &mut Vec<String>, a: &Value, b: &Value, out: &mut Changes) {
    if a == b {
        return;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                path.push(k.clone());
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => walk(file, path, p, q, out),
                    (p, q) => leaf(file, path, p, q, out),
                }
                path.pop();
            }
        }
        (Value::Array(x), Value::Array(y))
            if x.iter().chain(y).all(|v| id_of(v).is_some()) && !(x.is_empty() && y.is_empty()) =>
        {
            for p in x {
                let id = id_of(p).unwrap_or_default();
                path.push(id.to_string());
                match y.iter().find(|q| id_of(q) == Some(id)) {
                    Some(q) => walk(file, path, p, q, out),
                    None => leaf(file, path, Some(p), None, out),
                }
                path.pop();
            }
            for q in y {
                let id = id_of(q).unwrap_or_default();
                if !x.iter().any(|p| id_of(p) == Some(id)) {
                    path.push(id.to_string());
                    leaf(file, path, None, Some(q), out);
                    path.pop();
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                path.push(format!("{}", i + 1));
                walk(file, path, p, q, out);
                path.pop();
            }
        }
        _ => leaf(file, path, Some(a), Some(b), out),
    }
}

fn leaf(file: &str, path: &[String], a: Option<&Value>, b: Option<&Value>, out: &mut Changes) {
    let (before, after) = match (a, b) {
        (Some(Value::String(x)), Some(Value::String(y))) => first_difference(x, y),
        _ => (a.map(short), b.map(short)),
    };
    out.push(Change {
        file: file.to_string(),
        place: path.join(" › "),
        before,
        after,
    });
}

/// Two texts shown by their first differing line (scripts are long).
fn first_difference(a: &str, b: &str) -> (Option<String>, Option<String>) {
    let (la, lb): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    if la.len() <= 1 && lb.len() <= 1 {
        return (
            Some(shorten(&format!("{a:?}"))),
            Some(shorten(&format!("{b:?}"))),
        );
    }
    let at = (0..la.len().max(lb.len()))
        .find(|&i| la.get(i) != lb.get(i))
        .unwrap_or(0);
    let line = |l: &[&str]| {
        Some(l.get(at).map_or_else(
            || "(no line)".to_string(),
            |s| shorten(&format!("line {}: `{}`", at + 1, s.trim())),
        ))
    };
    (line(&la), line(&lb))
}

fn short(v: &Value) -> String {
    shorten(&v.to_string())
}

/// At most 80 characters, cut at a character boundary.
fn shorten(s: &str) -> String {
    const MOST: usize = 80;
    if s.chars().count() <= MOST {
        s.to_string()
    } else {
        let cut: String = s.chars().take(MOST - 1).collect();
        format!("{cut}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(file: &str, a: &str, b: &str) -> Changes {
        compare(&BTreeMap::from([(file, a)]), &BTreeMap::from([(file, b)]))
    }

    #[test]
    fn a_table_cell_is_named_by_its_table_row_and_column() {
        let a =
            r#"(tables: [(id: "crt", rows: [(key: 1, cells: [0, 1]), (key: 2, cells: [1, 2])])])"#;
        let b =
            r#"(tables: [(id: "crt", rows: [(key: 1, cells: [0, 1]), (key: 2, cells: [1, 3])])])"#;
        let c = one("tables.ron", a, b);
        assert_eq!(c.listed.len(), 1);
        assert_eq!(
            c.listed[0].to_string(),
            "tables.ron: tables › crt › rows › 2 › cells › 2: 2 → 3"
        );
    }

    #[test]
    fn a_script_change_shows_its_first_differing_line() {
        let a = "(cards: [(id: \"b\", effect: Some(\"x()\\nchoose(5, y)\\nz()\"))])";
        let b = "(cards: [(id: \"b\", effect: Some(\"x()\\nchoose(4, y)\\nz()\"))])";
        let c = one("cards/axis.ron", a, b);
        assert_eq!(
            c.listed[0].to_string(),
            "cards/axis.ron: cards › b › effect: line 2: `choose(5, y)` → line 2: `choose(4, y)`"
        );
    }

    #[test]
    fn items_with_ids_are_matched_by_id_and_layout_alone_is_said() {
        let a = r#"(cards: [(id: "a", ops: 1), (id: "b", ops: 2)])"#;
        let b = r#"(cards: [(id: "z", ops: 3), (id: "a", ops: 1), (id: "b", ops: 2)])"#;
        let c = one("cards/x.ron", a, b);
        assert_eq!(c.listed.len(), 1, "{c:?}");
        assert!(
            c.listed[0].to_string().contains("cards › z: added"),
            "{c:?}"
        );
        let c = one("cards/x.ron", a, &a.replace(", ", ",\n  "));
        assert_eq!(c.listed[0].place, "its layout or comments only");
    }
}
