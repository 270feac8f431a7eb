//! The tree read straight into a Rust type, as serde reads the tree's JSON ([`super::to_json`])
//! but without building it: `Some(x)` is `x`, a struct or a map is an object, an enum's variant
//! is its name or an object of one key.
//!
//! **Invariant:** a tree this reads gives the value `serde_json::from_value(to_json(tree))`
//! gives. One it refuses is read again the JSON way (`load::parse_file`), whose diagnostics
//! say why; so only the path that succeeds must agree, and a test checks it on every bundled
//! file.

use serde::de::value::{Error, StrDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::access::{alike, under_variant, OneKey, Tagged, NOT_AN_ENUM};
use super::{Field, Node, Payload, Value};

/// Reads a tree into `T`.
pub fn from_tree<T: DeserializeOwned>(node: &Node) -> Result<T, Error> {
    T::deserialize(Tree(node))
}

/// A value of the tree, as JSON sees it.
#[derive(Clone, Copy)]
struct Tree<'a>(&'a Node);

impl<'a> Tree<'a> {
    /// `Some(x)` is `x`.
    fn value(self) -> &'a Value {
        let mut node = self.0;
        while let Value::Option(Some(inner)) = &node.value {
            node = inner;
        }
        &node.value
    }
}

fn seq<'de, V: Visitor<'de>>(items: &[Node], visitor: V) -> Result<V::Value, Error> {
    let mut access = Items(items.iter());
    let value = visitor.visit_seq(&mut access)?;
    match access.0.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(items.len(), &"fewer elements")),
    }
}

fn fields<'de, V: Visitor<'de>>(fs: &[Field], visitor: V) -> Result<V::Value, Error> {
    let entries = fs.iter().map(|f| (f.name.as_str(), &f.value));
    object(entries.collect(), visitor)
}

fn object<'de, V: Visitor<'de>>(
    entries: Vec<(&str, &Node)>,
    visitor: V,
) -> Result<V::Value, Error> {
    let len = entries.len();
    let mut access = Entries {
        entries: entries.into_iter(),
        value: None,
    };
    let value = visitor.visit_map(&mut access)?;
    match access.entries.len() {
        0 => Ok(value),
        _ => Err(de::Error::invalid_length(len, &"fewer elements in map")),
    }
}

/// A map's entries, whose keys must all be strings.
fn map_entries(entries: &[(Node, Node)]) -> Result<Vec<(&str, &Node)>, Error> {
    entries
        .iter()
        .map(|(k, v)| match &k.value {
            Value::Str(key) => Ok((key.value.as_str(), v)),
            _ => Err(de::Error::custom("map keys must be strings")),
        })
        .collect()
}

/// The value under an enum variant's name: `Name(x)` is `x`, `Name(x, y)` a list, `Name(a: ..)`
/// an object; or the value of an object's one key.
#[derive(Clone, Copy)]
enum Under<'a> {
    Tree(Tree<'a>),
    Items(&'a [Node]),
    Fields(&'a [Field]),
}

impl<'a> Under<'a> {
    fn of(payload: &'a Payload) -> Under<'a> {
        match payload {
            Payload::Tuple(items) if items.len() == 1 => Under::Tree(Tree(&items[0])),
            Payload::Tuple(items) => Under::Items(items),
            Payload::Struct(fs) => Under::Fields(fs),
            Payload::None => Under::Items(&[]),
        }
    }
}

impl<'de> de::Deserializer<'de> for Tree<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value() {
            Value::Unit | Value::Option(_) => visitor.visit_unit(),
            Value::Bool(b) => visitor.visit_bool(*b),
            Value::Int(i) if *i >= 0 => visitor.visit_u64(i.unsigned_abs()),
            Value::Int(i) => visitor.visit_i64(*i),
            Value::Float(f) if f.is_finite() => visitor.visit_f64(*f),
            Value::Float(_) => visitor.visit_unit(),
            Value::Str(s) => visitor.visit_str(&s.value),
            Value::List(items) | Value::Tuple(items) => seq(items, visitor),
            Value::Struct(fs) => fields(fs, visitor),
            Value::Map(entries) => object(map_entries(entries)?, visitor),
            Value::Enum(name, Payload::None) => visitor.visit_str(name),
            Value::Enum(name, payload) => visitor.visit_map(OneKey {
                key: Some(name),
                value: Some(Under::of(payload)),
            }),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.value() {
            Value::Unit | Value::Option(_) => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.value() {
            Value::Str(s) => visitor.visit_enum(StrDeserializer::<Error>::new(&s.value)),
            Value::Enum(name, Payload::None) => {
                visitor.visit_enum(StrDeserializer::<Error>::new(name))
            }
            Value::Enum(name, payload) => visitor.visit_enum(Tagged(name, Under::of(payload))),
            Value::Struct(fs) if fs.len() == 1 => {
                visitor.visit_enum(Tagged(&fs[0].name, Under::Tree(Tree(&fs[0].value))))
            }
            Value::Map(entries) if entries.len() == 1 => match map_entries(entries)?[..] {
                [(name, value)] => visitor.visit_enum(Tagged(name, Under::Tree(Tree(value)))),
                _ => Err(de::Error::custom(NOT_AN_ENUM)),
            },
            _ => Err(de::Error::custom(NOT_AN_ENUM)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    alike!();
}

impl<'de> de::Deserializer<'de> for Under<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Under::Tree(t) => t.deserialize_any(visitor),
            Under::Items(items) => seq(items, visitor),
            Under::Fields(fs) => fields(fs, visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self {
            Under::Tree(t) => t.deserialize_option(visitor),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self {
            Under::Tree(t) => t.deserialize_enum(name, variants, visitor),
            Under::Fields([f]) => visitor.visit_enum(Tagged(&f.name, Under::Tree(Tree(&f.value)))),
            _ => Err(de::Error::custom(NOT_AN_ENUM)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_unit()
    }

    alike!();
}

under_variant!(Under<'_>);

struct Items<'a>(std::slice::Iter<'a, Node>);

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0.next().map(|n| seed.deserialize(Tree(n))).transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}

/// An object's entries.
struct Entries<'a> {
    entries: std::vec::IntoIter<(&'a str, &'a Node)>,
    /// The value of the key just read.
    value: Option<&'a Node>,
}

impl<'de> MapAccess<'de> for Entries<'_> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.value = Some(value);
        seed.deserialize(StrDeserializer::<Error>::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(node) => seed.deserialize(Tree(node)),
            None => Err(de::Error::custom("a value without its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.entries.len())
    }
}
