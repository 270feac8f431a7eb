//! A RON reader that keeps spans, and the canonical RON writer.
//!
//! Content files are RON, but the `ron` crate's values forget where they came from. This module
//! reads RON into a [`Node`] tree in which every value carries its byte span, converts that tree
//! to JSON (for schema validation and deserialisation) together with a map from JSON pointer to
//! span, so that any later problem found at a path such as `/spaces/12/terrain` can be reported
//! at its line and column. It also writes the one canonical layout used by `sandtable fmt` and
//! the editor.
//!
//! Conventions of content files (all plain RON): structs are written without their name,
//! `(id: "x")`; `Name(...)` and bare `Name` are enum variants; `Some(x)` and `None` are options.
//!
//! Invariant: reading never panics, whatever the bytes; a syntax error is returned with its span.

use std::collections::HashMap;
use std::fmt::Write as _;

/// A RON value with the byte range it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Unit,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(StrLit),
    Option(Option<Box<Node>>),
    List(Vec<Node>),
    Tuple(Vec<Node>),
    Struct(Vec<Field>),
    Map(Vec<(Node, Node)>),
    Enum(String, Payload),
}

/// A string literal: its value, and how to map an offset in the value back to the file.
#[derive(Debug, Clone, PartialEq)]
pub struct StrLit {
    pub value: String,
    /// Byte offset in the file of the first character of the value.
    pub content_start: usize,
    /// For an escaped string, file offsets of each character of the value; empty for a raw
    /// string, whose characters sit in the file as they are.
    pub offsets: Vec<(usize, usize)>,
}

impl StrLit {
    /// File offset of a byte offset within the string's value.
    pub fn file_offset(&self, value_offset: usize) -> usize {
        if self.offsets.is_empty() {
            return self.content_start + value_offset;
        }
        match self
            .offsets
            .binary_search_by_key(&value_offset, |&(v, _)| v)
        {
            Ok(i) => self.offsets[i].1,
            Err(0) => self.content_start,
            Err(i) => self.offsets[i - 1].1 + (value_offset - self.offsets[i - 1].0),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Field {
    pub name: String,
    pub name_start: usize,
    pub name_end: usize,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Payload {
    None,
    Tuple(Vec<Node>),
    Struct(Vec<Field>),
}

/// A syntax error at a byte range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub start: usize,
    pub end: usize,
    pub hint: Option<String>,
}

const MAX_DEPTH: usize = 128;

/// The string literal that starts at byte `start` of `text`, with the map from offsets in its
/// value back to the file (to place problems found inside a string, such as a script's).
pub fn string_at(text: &str, start: usize) -> Option<StrLit> {
    let mut parser = Parser {
        text,
        pos: start,
        depth: 0,
        offsets: true,
    };
    match text.get(start..)?.chars().next()? {
        '"' => parser.string().ok(),
        'r' => parser.raw_string().ok(),
        _ => None,
    }
}

/// Reads one RON value (the whole text).
pub fn parse(text: &str) -> Result<Node, SyntaxError> {
    let mut parser = Parser {
        text,
        pos: 0,
        depth: 0,
        offsets: false,
    };
    parser.skip_trivia()?;
    if parser.text[parser.pos..].starts_with("#!") {
        return Err(parser.error_here(
            "RON extensions (`#![enable(...)]`) are not used in content files",
            Some("remove the line; write options as `Some(x)`".into()),
        ));
    }
    let node = parser.value()?;
    parser.skip_trivia()?;
    if parser.pos < text.len() {
        return Err(parser.error_here("unexpected text after the end of the value", None));
    }
    Ok(node)
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
    depth: usize,
    /// Whether string literals record where each character came from (only needed to place a
    /// problem inside a string, so only [`string_at`] asks for it).
    offsets: bool,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.text[self.pos..].chars().next()
    }

    fn error_here(&self, message: &str, hint: Option<String>) -> SyntaxError {
        let end = self.pos + self.peek().map_or(0, char::len_utf8);
        SyntaxError {
            message: message.to_string(),
            start: self.pos,
            end,
            hint,
        }
    }

    fn skip_trivia(&mut self) -> Result<(), SyntaxError> {
        loop {
            let rest = &self.text[self.pos..];
            if let Some(c) = rest.chars().next().filter(|c| c.is_whitespace()) {
                self.pos += c.len_utf8();
            } else if rest.starts_with("//") {
                self.pos += rest.find('\n').unwrap_or(rest.len());
            } else if rest.starts_with("/*") {
                let start = self.pos;
                let mut depth = 0usize;
                loop {
                    let rest = &self.text[self.pos..];
                    if rest.starts_with("/*") {
                        depth += 1;
                        self.pos += 2;
                    } else if rest.starts_with("*/") {
                        depth -= 1;
                        self.pos += 2;
                        if depth == 0 {
                            break;
                        }
                    } else if let Some(c) = rest.chars().next() {
                        self.pos += c.len_utf8();
                    } else {
                        return Err(SyntaxError {
                            message: "unterminated block comment".into(),
                            start,
                            end: start + 2,
                            hint: None,
                        });
                    }
                }
            } else {
                return Ok(());
            }
        }
    }

    fn expect(&mut self, c: char, what: &str) -> Result<(), SyntaxError> {
        self.skip_trivia()?;
        if self.peek() == Some(c) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error_here(&format!("expected {what}"), None))
        }
    }

    fn value(&mut self) -> Result<Node, SyntaxError> {
        self.skip_trivia()?;
        if self.depth > MAX_DEPTH {
            return Err(self.error_here("values are nested too deeply", None));
        }
        self.depth += 1;
        let result = self.value_inner();
        self.depth -= 1;
        result
    }

    fn value_inner(&mut self) -> Result<Node, SyntaxError> {
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Err(self.error_here("expected a value, found the end of the file", None));
        };
        let value = match c {
            '"' => Value::Str(self.string()?),
            'r' if matches!(self.text[self.pos + 1..].chars().next(), Some('"' | '#')) => {
                Value::Str(self.raw_string()?)
            }
            '[' => {
                self.pos += 1;
                Value::List(self.sequence(']')?)
            }
            '{' => {
                self.pos += 1;
                Value::Map(self.map()?)
            }
            '(' => {
                self.pos += 1;
                self.parenthesised()?
            }
            '-' | '+' | '0'..='9' | '.' => self.number()?,
            c if c.is_alphabetic() || c == '_' => {
                let ident = self.ident();
                match ident {
                    "true" => Value::Bool(true),
                    "false" => Value::Bool(false),
                    "None" => Value::Option(None),
                    "Some" => {
                        self.expect('(', "`(` after `Some`")?;
                        let inner = self.value()?;
                        self.skip_trivia()?;
                        if self.peek() == Some(',') {
                            self.pos += 1;
                        }
                        self.expect(')', "`)` closing `Some(`")?;
                        Value::Option(Some(Box::new(inner)))
                    }
                    _ => {
                        let name = ident.to_string();
                        self.skip_trivia()?;
                        if self.peek() == Some('(') {
                            self.pos += 1;
                            match self.parenthesised()? {
                                Value::Unit => Value::Enum(name, Payload::Tuple(Vec::new())),
                                Value::Tuple(items) => Value::Enum(name, Payload::Tuple(items)),
                                Value::Struct(fields) => Value::Enum(name, Payload::Struct(fields)),
                                _ => unreachable!("parenthesised returns unit, tuple or struct"),
                            }
                        } else {
                            Value::Enum(name, Payload::None)
                        }
                    }
                }
            }
            _ => return Err(self.error_here(&format!("unexpected character `{c}`"), None)),
        };
        Ok(Node {
            value,
            start,
            end: self.pos,
        })
    }

    fn ident(&mut self) -> &str {
        let start = self.pos;
        while let Some(c) = self.peek().filter(|c| c.is_alphanumeric() || *c == '_') {
            self.pos += c.len_utf8();
        }
        &self.text[start..self.pos]
    }

    /// After `(`: a unit, a struct body `a: 1, b: 2`, or a tuple body `1, 2`.
    fn parenthesised(&mut self) -> Result<Value, SyntaxError> {
        self.skip_trivia()?;
        if self.peek() == Some(')') {
            self.pos += 1;
            return Ok(Value::Unit);
        }
        // A struct body starts with an identifier followed by a colon.
        let save = self.pos;
        let is_struct = {
            let ident = self.ident().to_string();
            let _ = self.skip_trivia();
            let result = !ident.is_empty() && self.peek() == Some(':');
            self.pos = save;
            result
        };
        if !is_struct {
            return Ok(Value::Tuple(self.sequence(')')?));
        }
        let mut fields: Vec<Field> = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek() == Some(')') {
                self.pos += 1;
                break;
            }
            let name_start = self.pos;
            let name = self.ident().to_string();
            if name.is_empty() {
                return Err(self.error_here("expected a field name or `)`", None));
            }
            let name_end = self.pos;
            if fields.iter().any(|f| f.name == name) {
                return Err(SyntaxError {
                    message: format!("field `{name}` is given twice"),
                    start: name_start,
                    end: name_end,
                    hint: None,
                });
            }
            self.expect(':', &format!("`:` after field name `{name}`"))?;
            let value = self.value()?;
            fields.push(Field {
                name,
                name_start,
                name_end,
                value,
            });
            self.skip_trivia()?;
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(')') => {}
                _ => {
                    return Err(self.error_here(
                        "expected `,` or `)` after a field",
                        Some("fields are separated by commas".into()),
                    ))
                }
            }
        }
        Ok(Value::Struct(fields))
    }

    fn sequence(&mut self, close: char) -> Result<Vec<Node>, SyntaxError> {
        let mut items = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            self.skip_trivia()?;
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(c) if c == close => {}
                _ => {
                    return Err(self.error_here(
                        &format!("expected `,` or `{close}`"),
                        Some("items are separated by commas".into()),
                    ))
                }
            }
        }
    }

    fn map(&mut self) -> Result<Vec<(Node, Node)>, SyntaxError> {
        let mut entries = Vec::new();
        loop {
            self.skip_trivia()?;
            if self.peek() == Some('}') {
                self.pos += 1;
                return Ok(entries);
            }
            let key = self.value()?;
            self.expect(':', "`:` after a map key")?;
            let value = self.value()?;
            entries.push((key, value));
            self.skip_trivia()?;
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}') => {}
                _ => return Err(self.error_here("expected `,` or `}`", None)),
            }
        }
    }

    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.pos;
        if matches!(self.peek(), Some('-' | '+')) {
            self.pos += 1;
        }
        let mut is_float = false;
        while let Some(c) = self.peek() {
            match c {
                '0'..='9' | '_' => self.pos += 1,
                '.' | 'e' | 'E' => {
                    is_float = true;
                    self.pos += 1;
                    if matches!(c, 'e' | 'E') && matches!(self.peek(), Some('-' | '+')) {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
        }
        let literal: String = self.text[start..self.pos]
            .chars()
            .filter(|&c| c != '_')
            .collect();
        let bad = || SyntaxError {
            message: format!("`{}` is not a number", &self.text[start..self.pos]),
            start,
            end: self.pos,
            hint: None,
        };
        if is_float {
            match literal.parse::<f64>() {
                Ok(f) if f.is_finite() => Ok(Value::Float(f)),
                _ => Err(bad()),
            }
        } else {
            literal.parse::<i64>().map(Value::Int).map_err(|_| bad())
        }
    }

    fn string(&mut self) -> Result<StrLit, SyntaxError> {
        let open = self.pos;
        self.pos += 1;
        let content_start = self.pos;
        let mut value = String::new();
        let mut offsets = Vec::new();
        loop {
            let Some(c) = self.peek() else {
                return Err(SyntaxError {
                    message: "unterminated string".into(),
                    start: open,
                    end: open + 1,
                    hint: Some("close it with `\"`".into()),
                });
            };
            if self.offsets && c != '"' {
                offsets.push((value.len(), self.pos));
            }
            match c {
                '"' => {
                    self.pos += 1;
                    return Ok(StrLit {
                        value,
                        content_start,
                        offsets,
                    });
                }
                '\\' => {
                    let escape_start = self.pos;
                    self.pos += 1;
                    let e = self
                        .peek()
                        .ok_or_else(|| self.error_here("unterminated escape", None))?;
                    self.pos += e.len_utf8();
                    let decoded = match e {
                        'n' => '\n',
                        't' => '\t',
                        'r' => '\r',
                        '0' => '\0',
                        '\\' => '\\',
                        '"' => '"',
                        '\'' => '\'',
                        'u' => self.unicode_escape(escape_start)?,
                        _ => {
                            return Err(SyntaxError {
                                message: format!("unknown escape `\\{e}`"),
                                start: escape_start,
                                end: self.pos,
                                hint: Some(
                                    "for text with backslashes use a raw string r#\"...\"#".into(),
                                ),
                            })
                        }
                    };
                    value.push(decoded);
                }
                c => {
                    self.pos += c.len_utf8();
                    value.push(c);
                }
            }
        }
    }

    fn unicode_escape(&mut self, escape_start: usize) -> Result<char, SyntaxError> {
        let bad = |p: &Parser| SyntaxError {
            message: "bad unicode escape; write `\\u{...}`".into(),
            start: escape_start,
            end: p.pos,
            hint: None,
        };
        if self.peek() != Some('{') {
            return Err(bad(self));
        }
        self.pos += 1;
        let digits_start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_hexdigit()) {
            self.pos += 1;
        }
        let digits = &self.text[digits_start..self.pos];
        if self.peek() != Some('}') {
            return Err(bad(self));
        }
        self.pos += 1;
        u32::from_str_radix(digits, 16)
            .ok()
            .and_then(char::from_u32)
            .ok_or_else(|| bad(self))
    }

    fn raw_string(&mut self) -> Result<StrLit, SyntaxError> {
        let open = self.pos;
        self.pos += 1; // r
        let hashes = self.text[self.pos..]
            .chars()
            .take_while(|&c| c == '#')
            .count();
        self.pos += hashes;
        if self.peek() != Some('"') {
            return Err(self.error_here("expected `\"` to open the raw string", None));
        }
        self.pos += 1;
        let content_start = self.pos;
        let close = format!("\"{}", "#".repeat(hashes));
        match self.text[self.pos..].find(&close) {
            Some(len) => {
                let value = self.text[self.pos..self.pos + len].to_string();
                self.pos += len + close.len();
                Ok(StrLit {
                    value,
                    content_start,
                    offsets: Vec::new(),
                })
            }
            None => Err(SyntaxError {
                message: "unterminated raw string".into(),
                start: open,
                end: content_start,
                hint: Some(format!("close it with `{close}`")),
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// To JSON, with a map from JSON pointer to span
// ---------------------------------------------------------------------------------------------

/// Where each JSON value (and each struct field's name) came from.
///
/// Only looked up, never iterated, so hashing cannot make any output depend on it.
#[derive(Debug, Clone, Default)]
pub struct SpanMap {
    /// JSON pointer of a value -> byte range of that value.
    pub values: HashMap<String, (usize, usize)>,
    /// JSON pointer of a struct field -> byte range of the field's name.
    pub keys: HashMap<String, (usize, usize)>,
}

impl SpanMap {
    /// The span of the value at `pointer`, or of its nearest recorded ancestor.
    pub fn value(&self, pointer: &str) -> (usize, usize) {
        let mut p = pointer;
        loop {
            if let Some(&span) = self.values.get(p) {
                return span;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return (0, 0),
            }
        }
    }

    /// The JSON pointer of the innermost value whose span holds `offset` (the editor opens
    /// the place of a diagnostic by it).
    pub fn pointer_at(&self, offset: usize) -> Option<String> {
        self.values
            .iter()
            .filter(|(_, &(s, e))| s <= offset && offset < e.max(s + 1))
            .min_by(|a, b| {
                let len = |(s, e): (usize, usize)| e - s;
                len(*a.1)
                    .cmp(&len(*b.1))
                    .then_with(|| b.0.len().cmp(&a.0.len()))
                    .then_with(|| a.0.cmp(b.0))
            })
            .map(|(p, _)| p.clone())
    }

    /// The span of the field name at `pointer`, falling back to its value.
    pub fn key(&self, pointer: &str) -> (usize, usize) {
        self.keys
            .get(pointer)
            .copied()
            .unwrap_or_else(|| self.value(pointer))
    }
}

/// Escapes one JSON pointer segment.
pub fn pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Converts a tree to JSON, recording spans. Fails on a map key that is not a string.
pub fn to_json(node: &Node) -> Result<(serde_json::Value, SpanMap), SyntaxError> {
    let mut map = SpanMap::default();
    let mut path = String::new();
    let value = convert(node, &mut path, &mut map)?;
    Ok((value, map))
}

/// Converts `node`, whose JSON pointer is `path` (restored on return).
fn convert(
    node: &Node,
    path: &mut String,
    map: &mut SpanMap,
) -> Result<serde_json::Value, SyntaxError> {
    use serde_json::Value as J;
    if let Value::Option(Some(inner)) = &node.value {
        // `Some(x)` is `x` in JSON: the pointer names the inner value.
        return convert(inner, path, map);
    }
    map.values
        .entry(path.clone())
        .or_insert((node.start, node.end));
    let len = path.len();
    let fields =
        |fields: &[Field], path: &mut String, map: &mut SpanMap| -> Result<J, SyntaxError> {
            let len = path.len();
            let mut object = serde_json::Map::new();
            for field in fields {
                path.push('/');
                push_segment(path, &field.name);
                map.keys
                    .insert(path.clone(), (field.name_start, field.name_end));
                let value = convert(&field.value, path, map);
                path.truncate(len);
                object.insert(field.name.clone(), value?);
            }
            Ok(J::Object(object))
        };
    let items = |items: &[Node], path: &mut String, map: &mut SpanMap| -> Result<J, SyntaxError> {
        let len = path.len();
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let _ = write!(path, "/{i}");
            let value = convert(item, path, map);
            path.truncate(len);
            out.push(value?);
        }
        Ok(J::Array(out))
    };
    Ok(match &node.value {
        Value::Unit | Value::Option(None) => J::Null,
        Value::Option(Some(_)) => unreachable!("handled above"),
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.value.clone()),
        Value::List(list) | Value::Tuple(list) => items(list, path, map)?,
        Value::Struct(fs) => fields(fs, path, map)?,
        Value::Map(entries) => {
            let mut object = serde_json::Map::new();
            for (key, value) in entries {
                let Value::Str(k) = &key.value else {
                    return Err(SyntaxError {
                        message: "map keys must be strings".into(),
                        start: key.start,
                        end: key.end,
                        hint: Some("write the key in double quotes".into()),
                    });
                };
                path.push('/');
                push_segment(path, &k.value);
                map.keys.insert(path.clone(), (key.start, key.end));
                let converted = convert(value, path, map);
                path.truncate(len);
                object.insert(k.value.clone(), converted?);
            }
            J::Object(object)
        }
        Value::Enum(name, payload) => {
            let inner = match payload {
                Payload::None => return Ok(J::String(name.clone())),
                _ => {
                    path.push('/');
                    push_segment(path, name);
                    let inner = match payload {
                        Payload::Tuple(list) if list.len() == 1 => convert(&list[0], path, map),
                        Payload::Tuple(list) => {
                            map.values.insert(path.clone(), (node.start, node.end));
                            items(list, path, map)
                        }
                        Payload::Struct(fs) => {
                            map.values.insert(path.clone(), (node.start, node.end));
                            fields(fs, path, map)
                        }
                        Payload::None => unreachable!("returned above"),
                    };
                    path.truncate(len);
                    inner?
                }
            };
            let mut object = serde_json::Map::new();
            object.insert(name.clone(), inner);
            J::Object(object)
        }
    })
}

fn push_segment(path: &mut String, segment: &str) {
    if segment.contains(['~', '/']) {
        path.push_str(&pointer_segment(segment));
    } else {
        path.push_str(segment);
    }
}

// ---------------------------------------------------------------------------------------------
// The canonical writer
// ---------------------------------------------------------------------------------------------

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

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> serde_json::Value {
        to_json(&parse(text).unwrap()).unwrap().0
    }

    #[test]
    fn structs_enums_and_options_map_to_serde_json_shapes() {
        assert_eq!(
            json(
                r#"(a: 1, b: Some("x"), c: None, d: Unit, e: New(2), f: Pair(1, 2), g: S(k: true))"#
            ),
            serde_json::json!({"a": 1, "b": "x", "c": null, "d": "Unit", "e": {"New": 2},
                "f": {"Pair": [1, 2]}, "g": {"S": {"k": true}}})
        );
        assert_eq!(
            json(r#"{"k": [1.5, (2, 3)]}"#),
            serde_json::json!({"k": [1.5, [2, 3]]})
        );
    }

    #[test]
    fn spans_are_recorded_for_values_and_field_names() {
        let text = "(\n  spaces: [(id: \"a\"), (id: 5)],\n)";
        let (_, map) = to_json(&parse(text).unwrap()).unwrap();
        let (s, e) = map.value("/spaces/1/id");
        assert_eq!(&text[s..e], "5");
        let (s, e) = map.key("/spaces/0/id");
        assert_eq!(&text[s..e], "id");
    }

    #[test]
    fn spans_inside_enum_payloads_carry_the_variant_name() {
        let text = "(at: Pair(1, 22), s: V(k: 333), o: Some(New(4444)))";
        let (_, map) = to_json(&parse(text).unwrap()).unwrap();
        let span = |p: &str| {
            let (s, e) = map.value(p);
            &text[s..e]
        };
        assert_eq!(span("/at/Pair/1"), "22");
        assert_eq!(span("/s/V/k"), "333");
        assert_eq!(span("/o/New"), "4444");
    }

    #[test]
    fn syntax_errors_point_at_the_offending_character() {
        let text = "(a: 1 b: 2)";
        let err = parse(text).unwrap_err();
        assert_eq!(err.start, 6);
        let err = parse("(a: \"open)").unwrap_err();
        assert_eq!(err.message, "unterminated string");
        assert!(parse("1e999").is_err(), "numbers must be finite");
    }

    #[test]
    fn escaped_string_offsets_map_back_to_the_file() {
        let text = r#""a\nb""#;
        let lit = string_at(text, 0).unwrap();
        assert_eq!(lit.value, "a\nb");
        assert_eq!(&text[lit.file_offset(2)..lit.file_offset(2) + 1], "b");
    }

    #[test]
    fn canonical_writer_breaks_only_what_does_not_fit() {
        let node = parse(r#"(a: [1, 2], b: (x: 1.0, y: -2.5), t: "one\ntwo")"#).unwrap();
        let text = write_canonical(&node);
        assert_eq!(
            text,
            "(\n    a: [1, 2],\n    b: (x: 1.0, y: -2.5),\n    t: r#\"one\ntwo\"#,\n)\n"
        );
        assert_eq!(
            to_json(&parse(&text).unwrap()).unwrap().0,
            to_json(&node).unwrap().0
        );
    }
}
