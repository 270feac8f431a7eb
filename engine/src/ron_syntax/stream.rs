//! A file's text read straight into a Rust type, without building its tree: what loading does
//! first, since the tree (and the spans it keeps) is wanted only when something must be placed.
//!
//! It reads as [`super::from_tree`] reads the tree [`super::parse`] gives, with the same
//! dispatch (`Some(x)` is `x`, a struct or a map is an object, an enum's variant is its name or
//! an object of one key), and it refuses what `parse` refuses (bad syntax, a field given twice,
//! values nested too deeply, text after the value).
//!
//! **Invariant:** a text this reads gives the value `from_tree(parse(text))` gives. One it
//! refuses is read again the tree's way (`load::parse_file`), whose diagnostics say where and
//! why; so only the path that succeeds must agree, and tests check it on every bundled file and
//! on random trees and texts.

use std::borrow::Cow;

use serde::de::value::{Error, StrDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::access::{alike, under_variant, OneKey, Tagged, NOT_AN_ENUM};
use super::{Parser, SyntaxError, Value, MAX_DEPTH};

/// Reads a whole text into `T`.
pub fn from_text<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
    let mut stream = Stream {
        p: Parser {
            text,
            pos: 0,
            depth: 0,
            offsets: false,
        },
        names: Vec::new(),
    };
    stream.trivia()?;
    if text[stream.p.pos..].starts_with("#!") {
        return Err(de::Error::custom(
            "RON extensions are not used in content files",
        ));
    }
    let value = T::deserialize(Val(&mut stream))?;
    stream.trivia()?;
    if stream.p.pos < text.len() {
        return Err(de::Error::custom("text after the end of the value"));
    }
    Ok(value)
}

fn syntax(e: SyntaxError) -> Error {
    de::Error::custom(e.message)
}

struct Stream<'t> {
    p: Parser<'t>,
    /// The field names of the struct bodies open, outermost first (a name given twice in one
    /// body is refused, as `parse` refuses it).
    names: Vec<&'t str>,
}

/// What a `(` opens.
enum Paren {
    Unit,
    Struct,
    Tuple,
}

impl<'t> Stream<'t> {
    fn trivia(&mut self) -> Result<(), Error> {
        self.p.skip_trivia().map_err(syntax)
    }

    fn peek(&self) -> Option<char> {
        self.p.peek()
    }

    fn fail<R>(&self, message: &str) -> Result<R, Error> {
        Err(de::Error::custom(message))
    }

    /// The next value's start (after trivia), counted against the depth `parse` allows.
    fn enter(&mut self) -> Result<(), Error> {
        self.trivia()?;
        if self.p.depth > MAX_DEPTH {
            return self.fail("values are nested too deeply");
        }
        self.p.depth += 1;
        Ok(())
    }

    /// An identifier at the position, taken.
    fn ident(&mut self) -> &'t str {
        let start = self.p.pos;
        self.p.ident();
        &self.p.text[start..self.p.pos]
    }

    /// The identifier at the position, left in place.
    fn ident_ahead(&mut self) -> &'t str {
        let save = self.p.pos;
        let ident = self.ident();
        self.p.pos = save;
        ident
    }

    /// Takes `c` after trivia, or fails.
    fn expect(&mut self, c: char) -> Result<(), Error> {
        self.trivia()?;
        if self.peek() == Some(c) {
            self.p.pos += 1;
            Ok(())
        } else {
            self.fail("unexpected character")
        }
    }

    /// Takes the `Some(` that open the value (each one more level of depth): how many.
    fn somes(&mut self) -> Result<usize, Error> {
        let mut count = 0;
        loop {
            self.trivia()?;
            if self.p.text.as_bytes().get(self.p.pos) != Some(&b'S') || self.ident_ahead() != "Some"
            {
                return Ok(count);
            }
            self.ident();
            self.expect('(')?;
            self.enter()?;
            count += 1;
        }
    }

    /// Closes `count` `Some(`: an optional comma and `)` each.
    fn close_somes(&mut self, count: usize) -> Result<(), Error> {
        for _ in 0..count {
            self.close(')')?;
            self.p.depth -= 1;
        }
        Ok(())
    }

    /// After a value that stands alone between brackets: an optional comma, then `close`.
    fn close(&mut self, close: char) -> Result<(), Error> {
        self.trivia()?;
        if self.peek() == Some(',') {
            self.p.pos += 1;
        }
        self.expect(close)
    }

    /// After an item or a field: a comma, or the closing bracket left for the caller.
    fn separator(&mut self, close: char) -> Result<(), Error> {
        self.trivia()?;
        match self.peek() {
            Some(',') => {
                self.p.pos += 1;
                Ok(())
            }
            Some(c) if c == close => Ok(()),
            _ => self.fail("expected a comma or the closing bracket"),
        }
    }

    /// After `(`: a unit (taken whole), a struct body or a tuple body.
    fn paren(&mut self) -> Result<Paren, Error> {
        self.trivia()?;
        if self.peek() == Some(')') {
            self.p.pos += 1;
            return Ok(Paren::Unit);
        }
        let save = self.p.pos;
        let named = !self.ident().is_empty();
        let _ = self.p.skip_trivia();
        let is_struct = named && self.peek() == Some(':');
        self.p.pos = save;
        Ok(if is_struct {
            Paren::Struct
        } else {
            Paren::Tuple
        })
    }

    /// Whether a tuple body holds exactly one item (`(x)` or `(x,)`), read ahead.
    fn single(&mut self) -> Result<bool, Error> {
        let save = self.p.pos;
        let depth = self.p.depth;
        self.skip_value()?;
        self.trivia()?;
        if self.peek() == Some(',') {
            self.p.pos += 1;
            self.trivia()?;
        }
        let single = self.peek() == Some(')');
        self.p.pos = save;
        self.p.depth = depth;
        Ok(single)
    }

    /// Whether the value at the position is `None` or `()`; if so it is taken.
    fn none(&mut self) -> Result<bool, Error> {
        self.trivia()?;
        match self.peek() {
            Some('(') => {
                let save = self.p.pos;
                self.p.pos += 1;
                self.trivia()?;
                if self.peek() == Some(')') {
                    self.p.pos += 1;
                    return Ok(true);
                }
                self.p.pos = save;
                Ok(false)
            }
            _ if self.ident_ahead() == "None" => {
                self.ident();
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// A string literal, borrowed from the text when it has no escape.
    fn string(&mut self) -> Result<Cow<'t, str>, Error> {
        let text = self.p.text;
        if self.peek() == Some('r') {
            let (start, end) = self.p.raw_string_range().map_err(syntax)?;
            return Ok(Cow::Borrowed(&text[start..end]));
        }
        let open = self.p.pos;
        let rest = &text[open + 1..];
        // Both bytes are ASCII, so neither is part of a longer character: the text splits there.
        if let Some(run) = memchr::memchr2(b'"', b'\\', rest.as_bytes()) {
            if rest.as_bytes()[run] == b'"' {
                self.p.pos = open + 1 + run + 1;
                return Ok(Cow::Borrowed(&rest[..run]));
            }
        }
        Ok(Cow::Owned(self.p.string().map_err(syntax)?.value))
    }

    fn is_string_start(&self) -> bool {
        match self.peek() {
            Some('"') => true,
            Some('r') => matches!(
                self.p.text[self.p.pos + 1..].chars().next(),
                Some('"' | '#')
            ),
            _ => false,
        }
    }

    /// A struct body's field name and its colon; a name given twice in the body is refused.
    fn field_name(&mut self, body: usize) -> Result<&'t str, Error> {
        self.trivia()?;
        let name = self.ident();
        if name.is_empty() {
            return self.fail("expected a field name");
        }
        if self.names[body..].contains(&name) {
            return self.fail("a field is given twice");
        }
        self.names.push(name);
        self.expect(':')?;
        Ok(name)
    }

    /// Passes over one value, checked as `parse` checks it.
    fn skip_value(&mut self) -> Result<(), Error> {
        self.enter()?;
        self.skip_inner()?;
        self.p.depth -= 1;
        Ok(())
    }

    fn skip_inner(&mut self) -> Result<(), Error> {
        if self.is_string_start() {
            return self.string().map(drop);
        }
        match self.peek() {
            Some('[') => {
                self.p.pos += 1;
                self.skip_items(']')
            }
            Some('{') => {
                self.p.pos += 1;
                loop {
                    self.trivia()?;
                    if self.peek() == Some('}') {
                        self.p.pos += 1;
                        return Ok(());
                    }
                    self.skip_value()?;
                    self.expect(':')?;
                    self.skip_value()?;
                    self.separator('}')?;
                }
            }
            Some('(') => {
                self.p.pos += 1;
                self.skip_paren()
            }
            Some('-' | '+' | '0'..='9' | '.') => self.p.number().map(drop).map_err(syntax),
            Some(c) if c.is_alphabetic() || c == '_' => match self.ident() {
                "true" | "false" | "None" => Ok(()),
                "Some" => {
                    self.expect('(')?;
                    self.skip_value()?;
                    self.close(')')
                }
                _ => {
                    self.trivia()?;
                    if self.peek() == Some('(') {
                        self.p.pos += 1;
                        self.skip_paren()?;
                    }
                    Ok(())
                }
            },
            _ => self.fail("expected a value"),
        }
    }

    fn skip_paren(&mut self) -> Result<(), Error> {
        match self.paren()? {
            Paren::Unit => Ok(()),
            Paren::Tuple => self.skip_items(')'),
            Paren::Struct => {
                let body = self.names.len();
                loop {
                    self.trivia()?;
                    if self.peek() == Some(')') {
                        self.p.pos += 1;
                        self.names.truncate(body);
                        return Ok(());
                    }
                    self.field_name(body)?;
                    self.skip_value()?;
                    self.separator(')')?;
                }
            }
        }
    }

    fn skip_items(&mut self, close: char) -> Result<(), Error> {
        loop {
            self.trivia()?;
            if self.peek() == Some(close) {
                self.p.pos += 1;
                return Ok(());
            }
            self.skip_value()?;
            self.separator(close)?;
        }
    }
}

/// A value at the stream's position.
struct Val<'s, 't>(&'s mut Stream<'t>);

impl<'t> Val<'_, 't> {
    /// Reads the value with `read`, inside its `Some(`s and its level of depth.
    fn around<R>(self, read: impl FnOnce(&mut Stream<'t>) -> Result<R, Error>) -> Result<R, Error> {
        let s = self.0;
        s.enter()?;
        let somes = s.somes()?;
        let value = read(s)?;
        s.close_somes(somes)?;
        s.p.depth -= 1;
        Ok(value)
    }
}

/// The value under an enum variant's name, after its `(`: `Name(x)` is `x`, `Name(x, y)` a
/// list, `Name(a: ..)` an object, `Name()` an empty list; or the value of a struct's or a map's
/// one key, closed by `close`.
enum Under<'s, 't> {
    Val(&'s mut Stream<'t>, char),
    Items(&'s mut Stream<'t>),
    Fields(&'s mut Stream<'t>),
    Empty,
}

impl<'s, 't> Under<'s, 't> {
    /// The payload after `Name(`.
    fn payload(s: &'s mut Stream<'t>) -> Result<Under<'s, 't>, Error> {
        Ok(match s.paren()? {
            Paren::Unit => Under::Empty,
            Paren::Struct => Under::Fields(s),
            Paren::Tuple if s.single()? => Under::Val(s, ')'),
            Paren::Tuple => Under::Items(s),
        })
    }
}

fn seq<'de, V: Visitor<'de>>(
    s: &mut Stream<'_>,
    close: char,
    visitor: V,
) -> Result<V::Value, Error> {
    let value = visitor.visit_seq(Items { s: &mut *s, close })?;
    s.trivia()?;
    match s.peek() {
        Some(c) if c == close => {
            s.p.pos += 1;
            Ok(value)
        }
        _ => Err(de::Error::custom("more elements than expected")),
    }
}

fn fields<'de, V: Visitor<'de>>(s: &mut Stream<'_>, visitor: V) -> Result<V::Value, Error> {
    let body = s.names.len();
    let value = visitor.visit_map(Fields { s: &mut *s, body })?;
    s.trivia()?;
    if s.peek() != Some(')') {
        return Err(de::Error::custom("more fields than expected"));
    }
    s.p.pos += 1;
    s.names.truncate(body);
    Ok(value)
}

fn map<'de, V: Visitor<'de>>(s: &mut Stream<'_>, visitor: V) -> Result<V::Value, Error> {
    let value = visitor.visit_map(Entries { s: &mut *s })?;
    s.trivia()?;
    if s.peek() != Some('}') {
        return Err(de::Error::custom("more entries than expected"));
    }
    s.p.pos += 1;
    Ok(value)
}

/// What [`Val::deserialize_any`] reads, its `Some(`s taken.
fn any<'de, V: Visitor<'de>>(s: &mut Stream<'_>, visitor: V) -> Result<V::Value, Error> {
    if s.is_string_start() {
        return match s.string()? {
            Cow::Borrowed(text) => visitor.visit_str(text),
            Cow::Owned(text) => visitor.visit_str(&text),
        };
    }
    match s.peek() {
        Some('[') => {
            s.p.pos += 1;
            seq(s, ']', visitor)
        }
        Some('{') => {
            s.p.pos += 1;
            map(s, visitor)
        }
        Some('(') => {
            s.p.pos += 1;
            match s.paren()? {
                Paren::Unit => visitor.visit_unit(),
                Paren::Struct => fields(s, visitor),
                Paren::Tuple => seq(s, ')', visitor),
            }
        }
        Some('-' | '+' | '0'..='9' | '.') => match s.p.number().map_err(syntax)? {
            Value::Int(i) if i >= 0 => visitor.visit_u64(i.unsigned_abs()),
            Value::Int(i) => visitor.visit_i64(i),
            Value::Float(f) => visitor.visit_f64(f),
            _ => s.fail("a number"),
        },
        Some(c) if c.is_alphabetic() || c == '_' => match s.ident() {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            "None" => visitor.visit_unit(),
            "Some" => s.fail("expected `(` after `Some`"),
            name => {
                s.trivia()?;
                if s.peek() != Some('(') {
                    return visitor.visit_str(name);
                }
                s.p.pos += 1;
                let under = Under::payload(s)?;
                visitor.visit_map(OneKey {
                    key: Some(name),
                    value: Some(under),
                })
            }
        },
        _ => s.fail("expected a value"),
    }
}

/// What [`Val::deserialize_enum`] reads, its `Some(`s taken.
fn variant<'de, V: Visitor<'de>>(s: &mut Stream<'_>, visitor: V) -> Result<V::Value, Error> {
    if s.is_string_start() {
        let name = s.string()?;
        return visitor.visit_enum(StrDeserializer::<Error>::new(&name));
    }
    match s.peek() {
        Some('(') => {
            s.p.pos += 1;
            match s.paren()? {
                Paren::Struct => {
                    let body = s.names.len();
                    let name = s.field_name(body)?;
                    let value = visitor.visit_enum(Tagged(name, Under::Val(&mut *s, ')')))?;
                    s.names.truncate(body);
                    Ok(value)
                }
                _ => s.fail(NOT_AN_ENUM),
            }
        }
        Some('{') => {
            s.p.pos += 1;
            s.enter()?;
            if !s.is_string_start() {
                return s.fail("map keys must be strings");
            }
            let name = s.string()?;
            s.p.depth -= 1;
            s.expect(':')?;
            visitor.visit_enum(Tagged(&name, Under::Val(s, '}')))
        }
        Some(c) if c.is_alphabetic() || c == '_' => match s.ident() {
            "true" | "false" | "None" | "Some" => s.fail(NOT_AN_ENUM),
            name => {
                s.trivia()?;
                if s.peek() != Some('(') {
                    return visitor.visit_enum(StrDeserializer::<Error>::new(name));
                }
                s.p.pos += 1;
                let under = Under::payload(s)?;
                visitor.visit_enum(Tagged(name, under))
            }
        },
        _ => s.fail(NOT_AN_ENUM),
    }
}

impl<'de> de::Deserializer<'de> for Val<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.around(|s| any(s, visitor))
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.around(|s| {
            if s.none()? {
                visitor.visit_none()
            } else {
                visitor.visit_some(Val(s))
            }
        })
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.around(|s| variant(s, visitor))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.0.skip_value()?;
        visitor.visit_unit()
    }

    alike!();
}

impl<'de> de::Deserializer<'de> for Under<'_, '_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Under::Val(s, close) => {
                let value = Val(&mut *s).deserialize_any(visitor)?;
                s.close(close)?;
                Ok(value)
            }
            Under::Items(s) => seq(s, ')', visitor),
            Under::Fields(s) => fields(s, visitor),
            Under::Empty => visitor.visit_seq(Nothing),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Under::Val(s, close) => {
                let value = Val(&mut *s).deserialize_option(visitor)?;
                s.close(close)?;
                Ok(value)
            }
            under => visitor.visit_some(under),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Under::Val(s, close) => {
                let value = Val(&mut *s).deserialize_enum(name, variants, visitor)?;
                s.close(close)?;
                Ok(value)
            }
            // A struct body of one field names the variant.
            Under::Fields(s) => {
                let body = s.names.len();
                let field = s.field_name(body)?;
                let value = visitor.visit_enum(Tagged(field, Under::Val(&mut *s, ')')))?;
                s.names.truncate(body);
                Ok(value)
            }
            _ => Err(de::Error::custom(NOT_AN_ENUM)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Under::Val(s, close) => {
                s.skip_value()?;
                s.close(close)?;
            }
            Under::Items(s) => s.skip_items(')')?,
            Under::Fields(s) => {
                // `(` was taken: the body is skipped as a struct's.
                let body = s.names.len();
                loop {
                    s.trivia()?;
                    if s.peek() == Some(')') {
                        s.p.pos += 1;
                        s.names.truncate(body);
                        break;
                    }
                    s.field_name(body)?;
                    s.skip_value()?;
                    s.separator(')')?;
                }
            }
            Under::Empty => {}
        }
        visitor.visit_unit()
    }

    alike!();
}

under_variant!(Under<'_, '_>);

/// The items of a list or a tuple body, up to `close` (left for [`seq`]).
struct Items<'s, 't> {
    s: &'s mut Stream<'t>,
    close: char,
}

impl<'de> SeqAccess<'de> for Items<'_, '_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.s.trivia()?;
        if self.s.peek() == Some(self.close) {
            return Ok(None);
        }
        let item = seed.deserialize(Val(self.s))?;
        self.s.separator(self.close)?;
        Ok(Some(item))
    }
}

/// No items: `Name()`.
struct Nothing;

impl<'de> SeqAccess<'de> for Nothing {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        _seed: T,
    ) -> Result<Option<T::Value>, Error> {
        Ok(None)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(0)
    }
}

/// A struct body's fields, up to `)` (left for [`fields`]); `body` is where its names start.
struct Fields<'s, 't> {
    s: &'s mut Stream<'t>,
    body: usize,
}

impl<'de> MapAccess<'de> for Fields<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        self.s.trivia()?;
        if self.s.peek() == Some(')') {
            return Ok(None);
        }
        let name = self.s.field_name(self.body)?;
        seed.deserialize(StrDeserializer::<Error>::new(name))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = seed.deserialize(Val(self.s))?;
        self.s.separator(')')?;
        Ok(value)
    }
}

/// A map's entries, whose keys must all be strings, up to `}` (left for [`map`]).
struct Entries<'s, 't> {
    s: &'s mut Stream<'t>,
}

impl<'de> MapAccess<'de> for Entries<'_, '_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let s = &mut *self.s;
        s.trivia()?;
        if s.peek() == Some('}') {
            return Ok(None);
        }
        s.enter()?;
        if !s.is_string_start() {
            return s.fail("map keys must be strings");
        }
        let key = s.string()?;
        s.p.depth -= 1;
        s.expect(':')?;
        seed.deserialize(StrDeserializer::<Error>::new(&key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let value = seed.deserialize(Val(self.s))?;
        self.s.separator('}')?;
        Ok(value)
    }
}

#[cfg(test)]
mod tests;
