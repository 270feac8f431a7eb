//! Every field of a content file, edited as a tree laid out by the file's JSON Schema.
//!
//! The panels give forms to what a designer edits most; this editor reaches the rest (a game's
//! sides, nations, terrains and sequence of play, a scenario's control and tracks, a table's
//! columns and result type, a card's values). It shows the file as the loader reads it, a
//! `serde_json::Value` (kept by the document until the text changes), walked beside the schema the loader validates against (so it knows each
//! field's type, which fields are optional and missing, and the variants of every enum), and
//! writes a change back through [`EditorApp::edit`]: one undoable step, refused if the result
//! no longer reads as the file's type.

use std::collections::BTreeMap;
use std::rc::Rc;

use egui::{RichText, Ui};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use sandtable_engine::schema::FileKind;

use crate::EditorApp;

/// What the tree is drawn with: the schema's root, and the path of a field to open.
pub struct Cx<'a> {
    root: &'a Value,
    reveal: Option<&'a str>,
}

impl Cx<'_> {
    /// Opens a header on the way to the field to reveal.
    fn opens(&self, path: &str) -> Option<bool> {
        let r = self.reveal?;
        let on_way = r == path
            || r.strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('.') || rest.starts_with('['));
        on_way.then_some(true)
    }
}

/// A JSON pointer (`/sides/1/name`) as the tree writes paths (`sides[1].name`).
pub fn path_of_pointer(pointer: &str) -> String {
    let mut s = String::new();
    for part in pointer.split('/').skip(1) {
        match part.parse::<usize>() {
            Ok(i) => s.push_str(&format!("[{i}]")),
            Err(_) => {
                if !s.is_empty() {
                    s.push('.');
                }
                s.push_str(part);
            }
        }
    }
    s
}

/// One step from a file's root to the part shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    Key(&'static str),
    Index(usize),
}

#[derive(Default)]
pub struct FieldsView {
    schemas: BTreeMap<&'static str, Rc<Value>>,
    /// A field to open in the next tree drawn (from a problem clicked).
    pub reveal: Option<String>,
}

/// Shows the part of `file` at `at` as a tree of fields, and applies what is changed.
pub fn edit_tree<T: DeserializeOwned + Serialize>(
    app: &mut EditorApp,
    ui: &mut Ui,
    file: &str,
    kind: FileKind,
    at: &[Step],
) {
    // The file as the loader reads it (schema-checked JSON), kept by the document per change.
    let root = match app.doc.parsed::<Value>(file) {
        Ok(v) => v,
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
    };
    let schema_root = app
        .fields
        .schemas
        .entry(kind.name())
        .or_insert_with(|| Rc::new(sandtable_engine::schema::generate(kind)))
        .clone();
    let schema_root = &*schema_root;
    let Some(mut part) = pointer(&root, at).cloned() else {
        ui.label("Nothing here any more.");
        return;
    };
    let mut schema = schema_root;
    for step in at {
        schema = child_schema(schema_root, schema, step);
    }
    let mut path = path_text(at);
    let reveal = app.fields.reveal.take();
    let cx = Cx {
        root: schema_root,
        reveal: reveal.as_deref(),
    };
    let changed = node(ui, &cx, schema, &mut part, &mut path, "");
    if let Some(label) = changed {
        let mut whole = (*root).clone();
        if let Some(slot) = pointer_mut(&mut whole, at) {
            *slot = part;
        }
        app.edit::<T>(file, &format!("edit {label}"), |t| {
            *t = serde_json::from_value(whole).map_err(|e| e.to_string())?;
            Ok(())
        });
    }
}

fn path_text(at: &[Step]) -> String {
    let mut s = String::new();
    for step in at {
        push_step(&mut s, step);
    }
    s
}

fn push_step(s: &mut String, step: &Step) {
    match step {
        Step::Key(k) => {
            if !s.is_empty() {
                s.push('.');
            }
            s.push_str(k);
        }
        Step::Index(i) => s.push_str(&format!("[{i}]")),
    }
}

fn pointer<'a>(v: &'a Value, at: &[Step]) -> Option<&'a Value> {
    at.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get(*k),
        Step::Index(i) => v.get(*i),
    })
}

fn pointer_mut<'a>(v: &'a mut Value, at: &[Step]) -> Option<&'a mut Value> {
    at.iter().try_fold(v, |v, step| match step {
        Step::Key(k) => v.get_mut(*k),
        Step::Index(i) => v.get_mut(*i),
    })
}

/// The schema itself, with `$ref`s followed and a nullable wrapper (`Option<T>`) taken off.
fn resolve<'a>(root: &'a Value, mut s: &'a Value) -> &'a Value {
    for _ in 0..16 {
        if let Some(r) = s.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            match root.get("$defs").and_then(|d| d.get(name)) {
                Some(d) => s = d,
                None => return s,
            }
        } else if let Some(any) = s.get("anyOf").and_then(Value::as_array) {
            match any
                .iter()
                .find(|a| a.get("type") != Some(&Value::from("null")))
            {
                Some(a) if any.len() == 2 => s = a,
                _ => return s,
            }
        } else {
            return s;
        }
    }
    s
}

const NOTHING: Value = Value::Null;

fn child_schema<'a>(root: &'a Value, parent: &'a Value, step: &Step) -> &'a Value {
    let p = resolve(root, parent);
    let child = match step {
        Step::Key(k) => p
            .get("properties")
            .and_then(|ps| ps.get(*k))
            .or_else(|| p.get("additionalProperties").filter(|a| a.is_object())),
        Step::Index(i) => p
            .get("prefixItems")
            .and_then(|items| items.get(*i))
            .or_else(|| p.get("items")),
    };
    child.unwrap_or(&NOTHING)
}

/// The schema's type, the first that is not `null`.
fn type_of(s: &Value) -> &str {
    match s.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(ts)) => ts
            .iter()
            .filter_map(Value::as_str)
            .find(|t| *t != "null")
            .unwrap_or("null"),
        _ => "",
    }
}

/// An enum's variants: the name, and the schema of its data if it carries some.
fn variants<'a>(root: &'a Value, s: &'a Value) -> Option<Vec<(String, Option<&'a Value>)>> {
    if let Some(e) = s.get("enum").and_then(Value::as_array) {
        return Some(
            e.iter()
                .filter_map(Value::as_str)
                .map(|n| (n.to_string(), None))
                .collect(),
        );
    }
    let one = s.get("oneOf").and_then(Value::as_array)?;
    let mut out = Vec::new();
    for v in one {
        let v = resolve(root, v);
        if let Some(c) = v.get("const").and_then(Value::as_str) {
            out.push((c.to_string(), None));
        } else if let Some(e) = v.get("enum").and_then(Value::as_array) {
            out.extend(
                e.iter()
                    .filter_map(Value::as_str)
                    .map(|n| (n.to_string(), None)),
            );
        } else if let Some(props) = v.get("properties").and_then(Value::as_object) {
            if props.len() == 1 {
                let (k, inner) = props.iter().next()?;
                out.push((k.clone(), Some(inner)));
            } else {
                return None;
            }
        } else {
            return None;
        }
    }
    Some(out)
}

/// A new value of the schema's type: the first variant of an enum, an object with its
/// required fields.
pub fn default_of(root: &Value, s: &Value) -> Value {
    let s = resolve(root, s);
    if let Some(vs) = variants(root, s) {
        return match vs.first() {
            Some((name, None)) => Value::String(name.clone()),
            Some((name, Some(inner))) => {
                let mut m = Map::new();
                m.insert(name.clone(), default_of(root, inner));
                Value::Object(m)
            }
            None => Value::Null,
        };
    }
    match type_of(s) {
        "object" => {
            let mut m = Map::new();
            let required = s.get("required").and_then(Value::as_array);
            for r in required.into_iter().flatten().filter_map(Value::as_str) {
                let ps = s.get("properties").and_then(|p| p.get(r));
                m.insert(
                    r.to_string(),
                    ps.map(|p| default_of(root, p)).unwrap_or_default(),
                );
            }
            Value::Object(m)
        }
        "array" => match s.get("prefixItems").and_then(Value::as_array) {
            Some(items) => Value::Array(items.iter().map(|i| default_of(root, i)).collect()),
            None => Value::Array(Vec::new()),
        },
        "string" => Value::String(String::new()),
        "integer" => Value::from(s.get("minimum").and_then(Value::as_i64).unwrap_or(0).max(0)),
        "number" => Value::from(0.0),
        "boolean" => Value::Bool(false),
        _ => Value::Null,
    }
}

/// A short name for an element of a list: its id, name or title, else its number.
fn summary(v: &Value, i: usize) -> String {
    for key in ["id", "name", "title", "counter", "track", "marker", "side"] {
        if let Some(s) = v.get(key).and_then(Value::as_str) {
            if !s.is_empty() {
                return format!("{}: {s}", i + 1);
            }
        }
    }
    match v {
        Value::String(s) => format!("{}: {s}", i + 1),
        Value::Object(m) if m.len() == 1 => {
            let (k, inner) = m
                .iter()
                .next()
                .map(|(k, v)| (k.clone(), v))
                .unwrap_or_default();
            match inner {
                Value::String(s) => format!("{}: {k} {s}", i + 1),
                _ => format!("{}: {k}", i + 1),
            }
        }
        _ => format!("{}", i + 1),
    }
}

fn is_long_text(key: &str) -> bool {
    matches!(
        key,
        "notes" | "text" | "effect" | "playable" | "combat" | "description" | "script" | "when"
    )
}

/// Draws a value and its editor; returns the path of what was changed.
fn node(
    ui: &mut Ui,
    cx: &Cx,
    schema: &Value,
    value: &mut Value,
    path: &mut String,
    key: &str,
) -> Option<String> {
    let root = cx.root;
    let s = resolve(root, schema);
    if let Some(vs) = variants(root, s) {
        return variant_node(ui, cx, &vs, value, path);
    }
    // A value of any type (a scenario's rule setting): a scalar is edited as what it holds.
    let ty = match (type_of(s), &*value) {
        ("", Value::Number(n)) if n.is_i64() || n.is_u64() => "integer",
        ("", Value::Number(_)) => "number",
        ("", Value::String(_)) => "string",
        ("", Value::Bool(_)) => "boolean",
        (t, _) => t,
    };
    match (ty, &mut *value) {
        ("object", v @ Value::Object(_)) => object_node(ui, cx, s, v, path),
        ("array", Value::Array(items)) => array_node(ui, cx, s, items, path),
        ("string", Value::String(text)) => {
            let changed = if is_long_text(key) || text.contains('\n') {
                ui.add(
                    egui::TextEdit::multiline(text)
                        .hint_text(path.as_str())
                        .desired_rows(2)
                        .code_editor()
                        .desired_width(f32::INFINITY),
                )
                .changed()
            } else {
                ui.add(egui::TextEdit::singleline(text).hint_text(path.as_str()))
                    .changed()
            };
            changed.then(|| path.clone())
        }
        ("integer", v) => {
            let mut n = v.as_i64().unwrap_or(0);
            let min = s.get("minimum").and_then(Value::as_i64).unwrap_or(i64::MIN);
            let changed = ui
                .add(egui::DragValue::new(&mut n).range(min..=i64::MAX))
                .changed();
            if changed {
                *v = Value::from(n);
            }
            changed.then(|| path.clone())
        }
        ("number", v) => {
            let mut n = v.as_f64().unwrap_or(0.0);
            let changed = ui.add(egui::DragValue::new(&mut n).speed(0.1)).changed();
            if changed {
                if let Some(x) = serde_json::Number::from_f64(n) {
                    *v = Value::Number(x);
                }
            }
            changed.then(|| path.clone())
        }
        ("boolean", Value::Bool(b)) => ui.checkbox(b, "").changed().then(|| path.clone()),
        (_, Value::Null) => {
            let mut set = false;
            ui.horizontal(|ui| {
                ui.label(RichText::new("none").weak());
                set = ui.small_button("Set").clicked();
            });
            if set {
                *value = default_of(root, s);
                return Some(path.clone());
            }
            None
        }
        (_, v) => {
            // A value the schema does not describe: shown, not edited.
            ui.label(RichText::new(v.to_string()).monospace());
            None
        }
    }
}

fn variant_node(
    ui: &mut Ui,
    cx: &Cx,
    vs: &[(String, Option<&Value>)],
    value: &mut Value,
    path: &mut String,
) -> Option<String> {
    let root = cx.root;
    let current = match &*value {
        Value::String(s) => s.clone(),
        Value::Object(m) if m.len() == 1 => m.keys().next().cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let mut chosen = current.clone();
    let mut changed = None;
    ui.horizontal(|ui| {
        egui::ComboBox::from_id_salt(("variant", path.as_str()))
            .selected_text(&chosen)
            .show_ui(ui, |ui| {
                for (name, _) in vs {
                    ui.selectable_value(&mut chosen, name.clone(), name);
                }
            });
        if chosen != current {
            if let Some((name, data)) = vs.iter().find(|(n, _)| *n == chosen) {
                *value = match data {
                    None => Value::String(name.clone()),
                    Some(inner) => {
                        let mut m = Map::new();
                        m.insert(name.clone(), default_of(root, inner));
                        Value::Object(m)
                    }
                };
                changed = Some(path.clone());
            }
        }
    });
    if changed.is_some() {
        return changed;
    }
    let data = vs.iter().find(|(n, _)| *n == current).and_then(|(_, d)| *d);
    if let (Some(inner), Value::Object(m)) = (data, value) {
        if let Some(v) = m.get_mut(&current) {
            let len = path.len();
            path.push_str(&format!(".{current}"));
            let out = ui
                .indent(("variant data", &current), |ui| {
                    node(ui, cx, inner, v, path, &current)
                })
                .inner;
            path.truncate(len);
            return out;
        }
    }
    None
}

fn is_scalar(root: &Value, s: &Value) -> bool {
    let s = resolve(root, s);
    variants(root, s).is_some_and(|vs| vs.iter().all(|(_, d)| d.is_none()))
        || matches!(type_of(s), "string" | "integer" | "number" | "boolean")
}

fn object_node(
    ui: &mut Ui,
    cx: &Cx,
    s: &Value,
    value: &mut Value,
    path: &mut String,
) -> Option<String> {
    let root = cx.root;
    let Value::Object(m) = value else {
        return None;
    };
    let mut out = None;
    let Some(props) = s.get("properties").and_then(Value::as_object) else {
        // A map from names to values (a space's properties, a card's values).
        let inner = s.get("additionalProperties").unwrap_or(&NOTHING);
        let keys: Vec<String> = m.keys().cloned().collect();
        for k in keys {
            let len = path.len();
            path.push_str(&format!(".{k}"));
            ui.horizontal(|ui| {
                ui.label(&k);
                if let Some(v) = m.get_mut(&k) {
                    if let Some(c) = node(ui, cx, inner, v, path, &k) {
                        out = Some(c);
                    }
                }
                if ui
                    .small_button("Remove")
                    .on_hover_text(format!("Remove {k}"))
                    .clicked()
                {
                    m.remove(&k);
                    out = Some(path.clone());
                }
            });
            path.truncate(len);
        }
        let id = ui.id().with(("new key", path.as_str()));
        let mut new_key: String = ui.data_mut(|d| d.get_temp(id).unwrap_or_default());
        ui.horizontal(|ui| {
            ui.add(egui::TextEdit::singleline(&mut new_key).hint_text("new key"));
            let key = new_key.trim().to_string();
            if ui.button("Add").clicked() && !key.is_empty() && !m.contains_key(&key) {
                m.insert(key, default_of(root, inner));
                new_key.clear();
                out = Some(path.clone());
            }
        });
        ui.data_mut(|d| d.insert_temp(id, new_key));
        return out;
    };
    let required: Vec<&str> = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut missing = Vec::new();
    for (k, ps) in props {
        let Some(v) = m.get_mut(k) else {
            missing.push(k.clone());
            continue;
        };
        let len = path.len();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(k);
        let optional = !required.contains(&k.as_str());
        let hover = ps.get("description").and_then(Value::as_str).unwrap_or("");
        let mut remove = false;
        if is_scalar(root, ps) && !is_long_text(k) {
            ui.horizontal(|ui| {
                ui.label(k).on_hover_text(hover);
                if let Some(c) = ui.push_id(k, |ui| node(ui, cx, ps, v, path, k)).inner {
                    out = Some(c);
                }
                remove = optional && ui.small_button("Remove").on_hover_text("Remove").clicked();
            });
        } else if is_scalar(root, ps) {
            ui.horizontal(|ui| {
                ui.label(k).on_hover_text(hover);
                remove = optional && ui.small_button("Remove").on_hover_text("Remove").clicked();
            });
            if let Some(c) = ui.push_id(k, |ui| node(ui, cx, ps, v, path, k)).inner {
                out = Some(c);
            }
        } else {
            let header = egui::CollapsingHeader::new(k.as_str())
                .id_salt(("field", path.as_str()))
                .open(cx.opens(path))
                .show(ui, |ui| {
                    if optional && ui.small_button("Remove this field").clicked() {
                        remove = true;
                    }
                    node(ui, cx, ps, v, path, k)
                });
            header.header_response.on_hover_text(hover);
            if let Some(Some(c)) = header.body_returned {
                out = Some(c);
            }
        }
        if remove {
            m.remove(k);
            out = Some(path.clone());
        }
        path.truncate(len);
    }
    if !missing.is_empty() {
        let mut add = None;
        let title = if path.is_empty() {
            "Add a field…".to_string()
        } else {
            format!("Add a field to {path}…")
        };
        ui.menu_button(title, |ui| {
            for k in &missing {
                let hover = props[k].get("description").and_then(Value::as_str);
                if ui.button(k).on_hover_text(hover.unwrap_or("")).clicked() {
                    add = Some(k.clone());
                }
            }
        });
        if let Some(k) = add {
            let v = default_of(root, &props[&k]);
            m.insert(k, v);
            out = Some(path.clone());
        }
    }
    out
}

fn array_node(
    ui: &mut Ui,
    cx: &Cx,
    s: &Value,
    items: &mut Vec<Value>,
    path: &mut String,
) -> Option<String> {
    let root = cx.root;
    let mut out = None;
    if let Some(fixed) = s.get("prefixItems").and_then(Value::as_array) {
        // A tuple (a hex's column and row): one editor per position, none added or removed.
        ui.horizontal(|ui| {
            for (i, (v, ps)) in items.iter_mut().zip(fixed).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if let Some(c) = ui.push_id(i, |ui| node(ui, cx, ps, v, path, "")).inner {
                    out = Some(c);
                }
                path.truncate(len);
            }
        });
        return out;
    }
    let item = s.get("items").unwrap_or(&NOTHING);
    let scalar = is_scalar(root, item);
    let mut remove = None;
    let mut up = None;
    for (i, v) in items.iter_mut().enumerate() {
        let len = path.len();
        path.push_str(&format!("[{i}]"));
        if scalar {
            ui.horizontal(|ui| {
                if let Some(c) = ui.push_id(i, |ui| node(ui, cx, item, v, path, "")).inner {
                    out = Some(c);
                }
                if ui.small_button("Remove").on_hover_text("Remove").clicked() {
                    remove = Some(i);
                }
            });
        } else {
            let header = egui::CollapsingHeader::new(summary(v, i))
                .id_salt(("item", path.as_str()))
                .open(cx.opens(path))
                .show(ui, |ui| {
                    ui.horizontal(|ui| {
                        if ui.small_button("Remove").clicked() {
                            remove = Some(i);
                        }
                        if i > 0 && ui.small_button("Move up").clicked() {
                            up = Some(i);
                        }
                    });
                    node(ui, cx, item, v, path, "")
                });
            if let Some(Some(c)) = header.body_returned {
                out = Some(c);
            }
        }
        path.truncate(len);
    }
    if let Some(i) = remove {
        items.remove(i);
        out = Some(path.clone());
    }
    if let Some(i) = up {
        items.swap(i - 1, i);
        out = Some(path.clone());
    }
    if ui
        .small_button("Add")
        .on_hover_text(format!("Add to {path}"))
        .clicked()
    {
        items.push(default_of(root, item));
        out = Some(path.clone());
    }
    out
}

/// A closed section that opens onto [`edit_tree`]: the fields a panel's form does not show.
pub fn every_field<T: DeserializeOwned + Serialize>(
    app: &mut EditorApp,
    ui: &mut Ui,
    title: &str,
    file: &str,
    kind: FileKind,
    at: &[Step],
) {
    egui::CollapsingHeader::new(title)
        .id_salt(("every field", file, path_text(at)))
        .show(ui, |ui| edit_tree::<T>(app, ui, file, kind, at));
}
