//! The canonical writer.

use super::*;

/// Widest line the writer puts a value on before breaking it over several lines.
pub const WIDTH: usize = 100;
const INDENT: usize = 4;

/// Writes a tree in the canonical layout: four-space indent, a value on one line when it fits
/// in [`WIDTH`] columns, otherwise one item per line with trailing commas; the top-level value
/// always broken; multi-line strings as raw strings.
pub fn write_canonical(node: &Node) -> String {
    let mut out = String::new();
    write_node(node, 0, 0, true, &mut out);
    out.push('\n');
    out
}

/// Writes `node` starting at `column` on a line indented by `indent`.
fn write_node(node: &Node, indent: usize, column: usize, force_break: bool, out: &mut String) {
    if !force_break {
        if let Some(flat) = flat(node) {
            if column + flat.chars().count() < WIDTH {
                out.push_str(&flat);
                return;
            }
        }
    }
    let (open, close, prefix) = match &node.value {
        Value::List(_) => ("[", "]", String::new()),
        Value::Map(_) => ("{", "}", String::new()),
        Value::Tuple(_) | Value::Struct(_) => ("(", ")", String::new()),
        Value::Enum(name, Payload::Tuple(_) | Payload::Struct(_)) => ("(", ")", name.clone()),
        Value::Option(Some(inner)) => {
            out.push_str("Some(");
            write_node(inner, indent, column + 5, false, out);
            out.push(')');
            return;
        }
        Value::Str(s) => {
            write_string(&s.value, out);
            return;
        }
        _ => {
            out.push_str(&flat(node).unwrap_or_default());
            return;
        }
    };
    out.push_str(&prefix);
    out.push_str(open);
    out.push('\n');
    let inner = indent + INDENT;
    let pad = " ".repeat(inner);
    let item = |out: &mut String, label: Option<String>, value: &Node| {
        out.push_str(&pad);
        let label_width = label.as_ref().map_or(0, String::len);
        if let Some(label) = label {
            out.push_str(&label);
        }
        write_node(value, inner, inner + label_width, false, out);
        out.push_str(",\n");
    };
    match &node.value {
        Value::List(items) | Value::Tuple(items) | Value::Enum(_, Payload::Tuple(items)) => {
            for value in items {
                item(out, None, value);
            }
        }
        Value::Struct(fields) | Value::Enum(_, Payload::Struct(fields)) => {
            for field in fields {
                item(out, Some(format!("{}: ", field.name)), &field.value);
            }
        }
        Value::Map(entries) => {
            for (key, value) in entries {
                let mut label = String::new();
                match &key.value {
                    Value::Str(s) => write_string(&s.value, &mut label),
                    _ => label = flat(key).unwrap_or_default(),
                }
                label.push_str(": ");
                item(out, Some(label), value);
            }
        }
        _ => {}
    }
    out.push_str(&" ".repeat(indent));
    out.push_str(close);
}

/// The one-line form, or none if the value must be broken (it holds a multi-line string).
fn flat(node: &Node) -> Option<String> {
    let join = |items: &[Node]| -> Option<String> {
        let parts: Option<Vec<String>> = items.iter().map(flat).collect();
        Some(parts?.join(", "))
    };
    let fields = |fields: &[Field]| -> Option<String> {
        let parts: Option<Vec<String>> = fields
            .iter()
            .map(|f| flat(&f.value).map(|v| format!("{}: {v}", f.name)))
            .collect();
        Some(parts?.join(", "))
    };
    Some(match &node.value {
        Value::Unit => "()".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => float(*f),
        Value::Str(s) => {
            if s.value.contains('\n') {
                return None;
            }
            quote(&s.value)
        }
        Value::Option(None) => "None".into(),
        Value::Option(Some(inner)) => format!("Some({})", flat(inner)?),
        Value::List(items) => format!("[{}]", join(items)?),
        Value::Tuple(items) => format!("({})", join(items)?),
        Value::Struct(fs) => format!("({})", fields(fs)?),
        Value::Map(entries) => {
            let parts: Option<Vec<String>> = entries
                .iter()
                .map(|(k, v)| Some(format!("{}: {}", flat(k)?, flat(v)?)))
                .collect();
            format!("{{{}}}", parts?.join(", "))
        }
        Value::Enum(name, Payload::None) => name.clone(),
        Value::Enum(name, Payload::Tuple(items)) => format!("{name}({})", join(items)?),
        Value::Enum(name, Payload::Struct(fs)) => format!("{name}({})", fields(fs)?),
    })
}

fn float(f: f64) -> String {
    let mut s = format!("{f}");
    if !s.contains(['.', 'e', 'E', 'N', 'i']) {
        s.push_str(".0");
    }
    s
}

/// A string literal: escaped on one line, or raw when it spans lines.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A raw string literal with enough `#` to hold `s`.
fn write_raw(s: &str, out: &mut String) {
    let mut hashes = 1;
    while s.contains(&format!("\"{}", "#".repeat(hashes))) {
        hashes += 1;
    }
    let h = "#".repeat(hashes);
    let _ = write!(out, "r{h}\"{s}\"{h}");
}

/// Canonical text of a string value: raw when it spans lines.
fn write_string(s: &str, out: &mut String) {
    if s.contains('\n') {
        write_raw(s, out);
    } else {
        out.push_str(&quote(s));
    }
}
