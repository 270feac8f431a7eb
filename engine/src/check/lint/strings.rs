//! A walk over the strings of a serializable value, each with its JSON pointer (where
//! `serde_json::to_value` would put it), without building the JSON value: the lint looks for
//! ids in every string of `game.ron`, the tables and the cards, and making their JSON trees
//! first cost more than the search.
//!
//! What counts as a string is what serde_json makes one: a text, a character, a unit variant
//! (its name). A map's key is a step of the pointer (as serde_json writes it: a text, a
//! number, a unit variant), never a string looked at; an entry whose key serde_json could not
//! write is passed over.

use serde::ser::{self, Serialize};
use std::fmt::Write as _;

/// Calls `visit` with the pointer and the text of each string of `value`, in order, until it
/// returns false.
pub(super) fn each_string<T: Serialize + ?Sized>(
    value: &T,
    visit: &mut dyn FnMut(&str, &str) -> bool,
) {
    let mut walk = Walk {
        at: String::new(),
        visit,
    };
    // The walk ends early only when `visit` has found what it looked for.
    let _ = value.serialize(&mut walk);
}

struct Walk<'v> {
    at: String,
    visit: &'v mut dyn FnMut(&str, &str) -> bool,
}

impl Walk<'_> {
    fn text(&mut self, s: &str) -> Result<(), Stop> {
        if (self.visit)(&self.at, s) {
            Ok(())
        } else {
            Err(Stop::Done)
        }
    }

    /// Walks `value` one step down the pointer, at `step`.
    fn under<T: Serialize + ?Sized>(&mut self, step: &str, value: &T) -> Result<(), Stop> {
        let len = self.at.len();
        self.at.push('/');
        self.at.push_str(step);
        let r = value.serialize(&mut *self);
        self.at.truncate(len);
        r
    }

    /// Walks the `i`th item of a list.
    fn item<T: Serialize + ?Sized>(&mut self, i: usize, value: &T) -> Result<(), Stop> {
        let len = self.at.len();
        let _ = write!(self.at, "/{i}");
        let r = value.serialize(&mut *self);
        self.at.truncate(len);
        r
    }
}

/// Why a walk stopped.
#[derive(Debug)]
enum Stop {
    /// `visit` found what it looked for.
    Done,
    /// A map's key that is not a text, a number or a unit variant.
    Key,
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stop::Done => "found",
            Stop::Key => "a key that is not a string",
        })
    }
}

impl std::error::Error for Stop {}

impl ser::Error for Stop {
    fn custom<T: std::fmt::Display>(_: T) -> Stop {
        Stop::Key
    }
}

/// A list, a tuple or a map being walked: the pointer's length before it (to come back to,
/// for a variant's), the next item's index, and a map's key.
struct Items<'w, 'v> {
    walk: &'w mut Walk<'v>,
    back: usize,
    next: usize,
    key: Option<String>,
}

impl<'w, 'v> Items<'w, 'v> {
    fn new(walk: &'w mut Walk<'v>, back: usize) -> Items<'w, 'v> {
        Items {
            walk,
            back,
            next: 0,
            key: None,
        }
    }

    fn item<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        self.next += 1;
        self.walk.item(self.next - 1, value)
    }

    fn end(self) -> Result<(), Stop> {
        self.walk.at.truncate(self.back);
        Ok(())
    }
}

macro_rules! nothing {
    ($($name:ident: $t:ty),*) => {
        $(fn $name(self, _: $t) -> Result<(), Stop> {
            Ok(())
        })*
    };
}

impl<'w, 'v> ser::Serializer for &'w mut Walk<'v> {
    type Ok = ();
    type Error = Stop;
    type SerializeSeq = Items<'w, 'v>;
    type SerializeTuple = Items<'w, 'v>;
    type SerializeTupleStruct = Items<'w, 'v>;
    type SerializeTupleVariant = Items<'w, 'v>;
    type SerializeMap = Items<'w, 'v>;
    type SerializeStruct = Items<'w, 'v>;
    type SerializeStructVariant = Items<'w, 'v>;

    nothing!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_bytes: &[u8], serialize_unit_struct: &'static str);

    fn serialize_char(self, c: char) -> Result<(), Stop> {
        self.text(c.encode_utf8(&mut [0; 4]))
    }

    fn serialize_str(self, s: &str) -> Result<(), Stop> {
        self.text(s)
    }

    fn serialize_none(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Stop> {
        Ok(())
    }

    fn serialize_unit_variant(self, _: &'static str, _: u32, v: &'static str) -> Result<(), Stop> {
        self.text(v)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Stop> {
        self.under(variant, value)
    }

    fn serialize_seq(self, _: Option<usize>) -> Result<Items<'w, 'v>, Stop> {
        let back = self.at.len();
        Ok(Items::new(self, back))
    }

    fn serialize_tuple(self, len: usize) -> Result<Items<'w, 'v>, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Items<'w, 'v>, Stop> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Items<'w, 'v>, Stop> {
        let back = self.at.len();
        self.at.push('/');
        self.at.push_str(variant);
        Ok(Items::new(self, back))
    }

    fn serialize_map(self, _: Option<usize>) -> Result<Items<'w, 'v>, Stop> {
        self.serialize_seq(None)
    }

    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Items<'w, 'v>, Stop> {
        self.serialize_seq(None)
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Items<'w, 'v>, Stop> {
        self.serialize_tuple_variant(name, index, variant, len)
    }
}

/// The walk of a list's items (each under its index) and of a struct's fields (each under its
/// name), for each of serde's kinds of them.
macro_rules! items {
    ($($kind:ident: $method:ident),*) => {
        $(impl ser::$kind for Items<'_, '_> {
            type Ok = ();
            type Error = Stop;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
                self.item(value)
            }
            fn end(self) -> Result<(), Stop> {
                Items::end(self)
            }
        })*
    };
}

macro_rules! fields {
    ($($kind:ident),*) => {
        $(impl ser::$kind for Items<'_, '_> {
            type Ok = ();
            type Error = Stop;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Stop> {
                self.walk.under(key, value)
            }
            fn end(self) -> Result<(), Stop> {
                Items::end(self)
            }
        })*
    };
}

items!(SerializeSeq: serialize_element, SerializeTuple: serialize_element,
    SerializeTupleStruct: serialize_field, SerializeTupleVariant: serialize_field);
fields!(SerializeStruct, SerializeStructVariant);

impl ser::SerializeMap for Items<'_, '_> {
    type Ok = ();
    type Error = Stop;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Stop> {
        self.key = key.serialize(KeyText).ok();
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Stop> {
        match self.key.take() {
            Some(key) => self.walk.under(&key, value),
            None => Ok(()),
        }
    }
    fn end(self) -> Result<(), Stop> {
        Items::end(self)
    }
}

/// A map's key as serde_json writes it: a text, a character, a number, a truth value or a unit
/// variant; anything else is no key.
struct KeyText;

macro_rules! shown {
    ($($name:ident: $t:ty),*) => {
        $(fn $name(self, v: $t) -> Result<String, Stop> {
            Ok(v.to_string())
        })*
    };
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = Stop;
    type SerializeSeq = ser::Impossible<String, Stop>;
    type SerializeTuple = ser::Impossible<String, Stop>;
    type SerializeTupleStruct = ser::Impossible<String, Stop>;
    type SerializeTupleVariant = ser::Impossible<String, Stop>;
    type SerializeMap = ser::Impossible<String, Stop>;
    type SerializeStruct = ser::Impossible<String, Stop>;
    type SerializeStructVariant = ser::Impossible<String, Stop>;

    shown!(serialize_bool: bool, serialize_i8: i8, serialize_i16: i16, serialize_i32: i32,
        serialize_i64: i64, serialize_i128: i128, serialize_u8: u8, serialize_u16: u16,
        serialize_u32: u32, serialize_u64: u64, serialize_u128: u128, serialize_f32: f32,
        serialize_f64: f64, serialize_char: char, serialize_str: &str);

    fn serialize_bytes(self, _: &[u8]) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_none(self) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_unit(self) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, Stop> {
        Ok(variant.to_string())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, Stop> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, Stop> {
        Err(Stop::Key)
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Stop> {
        Err(Stop::Key)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Stop> {
        Err(Stop::Key)
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, Stop> {
        Err(Stop::Key)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, Stop> {
        Err(Stop::Key)
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Stop> {
        Err(Stop::Key)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self::SerializeStruct, Stop> {
        Err(Stop::Key)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, Stop> {
        Err(Stop::Key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every string serde_json's tree holds, with its pointer, in the tree's order.
    fn by_json(value: &serde_json::Value, at: &mut String, out: &mut Vec<(String, String)>) {
        let len = at.len();
        match value {
            serde_json::Value::String(s) => out.push((at.clone(), s.clone())),
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    let _ = write!(at, "/{i}");
                    by_json(x, at, out);
                    at.truncate(len);
                }
            }
            serde_json::Value::Object(m) => {
                for (k, x) in m {
                    at.push('/');
                    at.push_str(k);
                    by_json(x, at, out);
                    at.truncate(len);
                }
            }
            _ => {}
        }
    }

    #[derive(serde::Serialize, PartialEq, Eq, PartialOrd, Ord)]
    enum Kind {
        Road,
        Rail,
    }

    #[derive(serde::Serialize)]
    struct Wrapped(String);

    #[derive(serde::Serialize)]
    enum Shape {
        Plain,
        New(String),
        Pair(u8, String),
        Fields { a: String, b: Vec<char> },
    }

    /// Every shape serde gives a value: structs, lists, tuples, maps keyed by texts, numbers
    /// and variants, options, newtypes and each kind of variant.
    #[derive(serde::Serialize)]
    struct Outer {
        name: String,
        some: Option<String>,
        none: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        skipped: Option<String>,
        shapes: Vec<Shape>,
        by_text: std::collections::BTreeMap<String, Vec<String>>,
        by_number: std::collections::BTreeMap<u32, String>,
        by_variant: std::collections::BTreeMap<Kind, Kind>,
        pair: (String, i64),
        wrapped: Wrapped,
        nothing: (),
        flag: bool,
    }

    fn outer() -> Outer {
        let text = |s: &str| s.to_string();
        Outer {
            name: text("minsk and riga"),
            some: Some(text("kiev")),
            none: None,
            skipped: None,
            shapes: vec![
                Shape::Plain,
                Shape::New(text("rail")),
                Shape::Pair(3, text("sea")),
                Shape::Fields {
                    a: text("a text"),
                    b: vec!['x', 'é'],
                },
            ],
            by_text: [(text("west"), vec![text("rome"), text("paris")])].into(),
            by_number: [(7, text("seven"))].into(),
            by_variant: [(Kind::Rail, Kind::Road)].into(),
            pair: (text("left"), -4),
            wrapped: Wrapped(text("inside")),
            nothing: (),
            flag: true,
        }
    }

    #[test]
    fn the_walk_finds_the_strings_and_pointers_serde_json_gives() {
        let value = outer();
        let mut walked = Vec::new();
        each_string(&value, &mut |at, s| {
            walked.push((at.to_string(), s.to_string()));
            true
        });
        let mut by_tree = Vec::new();
        let tree = serde_json::to_value(&value).expect("serializable");
        by_json(&tree, &mut String::new(), &mut by_tree);
        assert_eq!(walked.len(), 14, "{walked:?}");
        walked.sort();
        by_tree.sort();
        assert_eq!(walked, by_tree);
    }

    #[test]
    fn the_walk_stops_when_asked() {
        let mut seen = 0;
        each_string(&outer(), &mut |_, _| {
            seen += 1;
            seen < 3
        });
        assert_eq!(seen, 3);
    }
}
