//! Variants of a game's content made without touching its files: one value changed at a place
//! named like `cards/axis.ron:/cards/taifun/values/ops`, for A/B comparisons and sweeps.
//!
//! The place is a file of the folder and a JSON pointer into it, where a step into a list may
//! name an element by its `id` instead of its index (`/tables/lcu_fire/rows/0/cells/2`,
//! `/setup/3/turn`). The file is read into its type, changed, and written back canonically, so
//! the variant is checked like any content.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::format::canonical;
use crate::load::{ContentSource, MemSource};
use crate::model::{CardsFile, CountersFile, GameFile, MapFile, ScenarioFile, TablesFile};
use crate::ron_syntax;
use crate::schema::FileKind;

/// One value set at one place.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    pub file: String,
    pub pointer: String,
    pub value: Value,
}

impl Setting {
    /// `FILE:POINTER=VALUE`, the value written as JSON (`3`, `true`, `"rail"`) or a bare word.
    pub fn parse(text: &str) -> Result<Setting, String> {
        let (place, value) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}`: write FILE:POINTER=VALUE"))?;
        let (file, pointer) = split_place(place)?;
        let value = serde_json::from_str(value.trim())
            .unwrap_or_else(|_| Value::String(value.trim().to_string()));
        Ok(Setting {
            file,
            pointer,
            value,
        })
    }
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}={}", self.file, self.pointer, self.value)
    }
}

fn split_place(place: &str) -> Result<(String, String), String> {
    let (file, pointer) = place.split_once(":/").ok_or_else(|| {
        format!("`{place}`: write FILE:/POINTER (cards/axis.ron:/cards/taifun/values/ops)")
    })?;
    Ok((file.trim().to_string(), format!("/{}", pointer.trim())))
}

/// A number swept over a range: `FILE:POINTER=FROM..TO` or `...=FROM..TO:STEP`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sweep {
    pub file: String,
    pub pointer: String,
    pub values: Vec<i64>,
}

impl Sweep {
    pub fn parse(text: &str) -> Result<Sweep, String> {
        let (place, range) = text
            .split_once('=')
            .ok_or_else(|| format!("`{text}`: write FILE:POINTER=FROM..TO[:STEP]"))?;
        let (file, pointer) = split_place(place)?;
        let (range, step) = match range.split_once(':') {
            Some((r, s)) => (
                r,
                s.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("`{s}` is not a step"))?,
            ),
            None => (range, 1),
        };
        let (from, to) = range
            .split_once("..")
            .ok_or_else(|| format!("`{range}`: write FROM..TO"))?;
        let num = |t: &str| {
            t.trim()
                .parse::<i64>()
                .map_err(|_| format!("`{t}` is not a whole number"))
        };
        let (from, to) = (num(from)?, num(to)?);
        if step <= 0 || to < from || (to - from) / step > 100 {
            return Err(format!(
                "`{range}:{step}`: a sweep goes up from FROM to TO in at most 100 positive steps"
            ));
        }
        Ok(Sweep {
            file,
            pointer,
            values: (0..=(to - from) / step).map(|k| from + k * step).collect(),
        })
    }

    pub fn setting(&self, value: i64) -> Setting {
        Setting {
            file: self.file.clone(),
            pointer: self.pointer.clone(),
            value: Value::from(value),
        }
    }
}

/// The folder's files with the settings applied.
pub fn apply(source: &dyn ContentSource, settings: &[Setting]) -> Result<MemSource, String> {
    let mut files = std::collections::BTreeMap::new();
    for f in source.list()? {
        let text = source.read(&f)?;
        files.insert(f, text);
    }
    for s in settings {
        let text = files
            .get(&s.file)
            .ok_or_else(|| format!("`{}`: no such file in {}", s.file, source.root()))?;
        let kind = FileKind::of_path(&s.file)
            .ok_or_else(|| format!("`{}` is not a content file", s.file))?;
        let changed = set_in_text(kind, text, &s.pointer, s.value.clone())
            .map_err(|e| format!("{}:{}: {e}", s.file, s.pointer))?;
        files.insert(s.file.clone(), changed);
    }
    Ok(MemSource {
        name: source.root(),
        files,
    })
}

/// The value at a place of a file's text (for showing what a sweep starts from).
pub fn get_in_text(text: &str, pointer: &str) -> Result<Value, String> {
    let node = ron_syntax::parse(text).map_err(|e| e.message)?;
    let json = ron_syntax::to_json(&node).map_err(|e| e.message)?;
    let mut at = &json;
    for step in steps(pointer) {
        at = child(at, &step).ok_or_else(|| format!("nothing at `{step}`"))?;
    }
    Ok(at.clone())
}

fn steps(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// The position in a list a step names: its index, or the element whose `id` it is.
fn position(items: &[Value], step: &str) -> Option<usize> {
    step.parse::<usize>()
        .ok()
        .filter(|i| *i < items.len())
        .or_else(|| {
            items
                .iter()
                .position(|x| x.get("id").and_then(Value::as_str) == Some(step))
        })
}

fn child<'a>(v: &'a Value, step: &str) -> Option<&'a Value> {
    match v {
        Value::Object(m) => m.get(step),
        Value::Array(items) => items.get(position(items, step)?),
        _ => None,
    }
}

fn child_mut<'a>(v: &'a mut Value, step: &str) -> Option<&'a mut Value> {
    match v {
        Value::Object(m) => m.get_mut(step),
        Value::Array(items) => {
            let i = position(items, step)?;
            items.get_mut(i)
        }
        _ => None,
    }
}

/// Sets the value at a place of a file's JSON: every step but the last must exist; the last
/// may be a field left out (holding its default). Whether the value fits is for the file's
/// type to say when the JSON is read into it.
pub fn set_in_json(json: &mut Value, pointer: &str, value: Value) -> Result<(), String> {
    let steps = steps(pointer);
    let Some((last, path)) = steps.split_last() else {
        return Err("the pointer names no field".into());
    };
    let mut at = json;
    for step in path {
        at = child_mut(at, step).ok_or_else(|| format!("nothing at `{step}`"))?;
    }
    match at {
        // A field left out (a default) may be set.
        Value::Object(m) => {
            m.insert(last.clone(), value);
        }
        other => {
            *child_mut(other, last).ok_or_else(|| format!("nothing at `{last}`"))? = value;
        }
    }
    Ok(())
}

fn set_in_text(kind: FileKind, text: &str, pointer: &str, value: Value) -> Result<String, String> {
    let node = ron_syntax::parse(text).map_err(|e| e.message)?;
    let mut json = ron_syntax::to_json(&node).map_err(|e| e.message)?;
    set_in_json(&mut json, pointer, value)?;
    match kind {
        FileKind::Game => rewrite::<GameFile>(json),
        FileKind::Map => rewrite::<MapFile>(json),
        FileKind::Counters => rewrite::<CountersFile>(json),
        FileKind::Tables => rewrite::<TablesFile>(json),
        FileKind::Cards => rewrite::<CardsFile>(json),
        FileKind::Scenario => rewrite::<ScenarioFile>(json),
        FileKind::Example => rewrite::<crate::model::ExampleFile>(json),
    }
}

fn rewrite<T: DeserializeOwned + Serialize>(json: Value) -> Result<String, String> {
    let typed: T = serde_json::from_value(json).map_err(|e| e.to_string())?;
    canonical(&typed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setting_reads_its_file_pointer_and_value() {
        let s = Setting::parse("cards/axis.ron:/cards/taifun/values/ops=3").unwrap();
        assert_eq!(s.file, "cards/axis.ron");
        assert_eq!(s.pointer, "/cards/taifun/values/ops");
        assert_eq!(s.value, Value::from(3));
        let word = Setting::parse("map.ron:/spaces/kiev/terrain=swamp").unwrap();
        assert_eq!(word.value, Value::from("swamp"));
        assert!(Setting::parse("cards/axis.ron=3").is_err());
    }

    #[test]
    fn a_sweep_lists_its_values_and_refuses_a_backward_range() {
        let s = Sweep::parse("tables.ron:/tables/lcu_fire/rows/0/cells/2=0..6:2").unwrap();
        assert_eq!(s.values, [0, 2, 4, 6]);
        assert!(Sweep::parse("tables.ron:/x=5..1").is_err());
        assert!(Sweep::parse("tables.ron:/x=1..5:0").is_err());
    }

    #[test]
    fn a_list_element_is_named_by_its_id() {
        let text = "(cards: [(id: \"a\", n: 1), (id: \"b\", n: 2)])";
        assert_eq!(get_in_text(text, "/cards/b/n").unwrap(), Value::from(2));
        assert_eq!(get_in_text(text, "/cards/0/n").unwrap(), Value::from(1));
        assert!(get_in_text(text, "/cards/c/n").is_err());
    }
}
