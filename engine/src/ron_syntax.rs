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

use std::borrow::Cow;
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
        match *self.text.as_bytes().get(self.pos)? {
            b if b.is_ascii() => Some(char::from(b)),
            _ => self.text[self.pos..].chars().next(),
        }
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

    /// Passes over white space and comments.
    #[inline]
    fn skip_trivia(&mut self) -> Result<(), SyntaxError> {
        // Most often there is none: a value, a bracket or a comma is next.
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() && !matches!(b, b' ' | b'\n' | b'\r' | b'\t' | b'/') => Ok(()),
            _ => self.skip_some_trivia(),
        }
    }

    fn skip_some_trivia(&mut self) -> Result<(), SyntaxError> {
        loop {
            // Runs of ASCII white space, the most of any file, without decoding.
            let bytes = self.text.as_bytes();
            while bytes
                .get(self.pos)
                .is_some_and(|&b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'))
            {
                self.pos += 1;
            }
            // Most often a value or a bracket follows.
            match bytes.get(self.pos) {
                None => return Ok(()),
                Some(&b) if b != b'/' && b.is_ascii() => return Ok(()),
                _ => {}
            }
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
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.pos) {
            if IDENT_BYTES[usize::from(b)] {
                self.pos += 1;
            } else if b.is_ascii() {
                break;
            } else {
                match self.peek().filter(|c| c.is_alphanumeric()) {
                    Some(c) => self.pos += c.len_utf8(),
                    None => break,
                }
            }
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
            let named = !self.ident().is_empty();
            let _ = self.skip_trivia();
            let result = named && self.peek() == Some(':');
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
            self.skip_trivia()?;
            if self.peek() != Some(':') {
                return Err(
                    self.error_here(&format!("expected `:` after field name `{name}`"), None)
                );
            }
            self.pos += 1;
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
        let written = &self.text[start..self.pos];
        let literal: Cow<str> = match written.contains('_') {
            true => Cow::Owned(written.chars().filter(|&c| c != '_').collect()),
            false => Cow::Borrowed(written),
        };
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
                // Without offsets to keep, the characters up to the next quote or escape
                // at once.
                _ if !self.offsets => {
                    let rest = &self.text[self.pos..];
                    let run = rest.find(['"', '\\']).unwrap_or(rest.len());
                    value.push_str(&rest[..run]);
                    self.pos += run;
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
        let (content_start, end) = self.raw_string_range()?;
        Ok(StrLit {
            value: self.text[content_start..end].to_string(),
            content_start,
            offsets: Vec::new(),
        })
    }

    /// A raw string's value as the byte range it has in the text (taken whole).
    fn raw_string_range(&mut self) -> Result<(usize, usize), SyntaxError> {
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
                self.pos += len + close.len();
                Ok((content_start, content_start + len))
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

mod access;
mod de;
mod json;
mod stream;
mod write;

pub use de::from_tree;
pub use stream::from_text;

pub use json::{pointer_segment, to_json, SpanMap};
pub use write::{write_canonical, WIDTH};

/// The ASCII bytes an identifier is made of (letters, digits, `_`), by byte.
const IDENT_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 128 {
        table[b] = (b as u8).is_ascii_alphanumeric() || b == b'_' as usize;
        b += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> serde_json::Value {
        to_json(&parse(text).unwrap()).unwrap()
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
        let map = SpanMap::new(parse(text).unwrap());
        let (s, e) = map.value("/spaces/1/id");
        assert_eq!(&text[s..e], "5");
        let (s, e) = map.key("/spaces/0/id");
        assert_eq!(&text[s..e], "id");
    }

    #[test]
    fn spans_inside_enum_payloads_carry_the_variant_name() {
        let text = "(at: Pair(1, 22), s: V(k: 333), o: Some(New(4444)))";
        let map = SpanMap::new(parse(text).unwrap());
        let span = |p: &str| {
            let (s, e) = map.value(p);
            &text[s..e]
        };
        assert_eq!(span("/at/Pair/1"), "22");
        assert_eq!(span("/s/V/k"), "333");
        assert_eq!(span("/o/New"), "4444");
    }

    #[test]
    fn the_innermost_value_at_an_offset_names_its_pointer() {
        let text = r#"(spaces: [(id: "a", adj: {"k": Pair(1, 22)})])"#;
        let map = SpanMap::new(parse(text).unwrap());
        let at = text.find("22").unwrap();
        assert_eq!(
            map.pointer_at(at).as_deref(),
            Some("/spaces/0/adj/k/Pair/1")
        );
        assert_eq!(
            map.pointer_at(text.find("(id").unwrap()).as_deref(),
            Some("/spaces/0")
        );
        let (s, e) = map.key("/spaces/0/adj/k");
        assert_eq!(&text[s..e], "\"k\"");
        // A pointer past the tree falls back to the nearest value it names.
        let (s, e) = map.value("/spaces/0/id/nothing");
        assert_eq!(&text[s..e], "\"a\"");
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
            to_json(&parse(&text).unwrap()).unwrap(),
            to_json(&node).unwrap()
        );
    }
}
