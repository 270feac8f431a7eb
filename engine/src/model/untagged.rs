//! Reading the content's untagged values (a table's cells and row keys, a space's property
//! values) straight from what the text holds.
//!
//! serde's derive reads an untagged enum by buffering the value and trying each variant in
//! turn, making an error for each that fails: a table of a few hundred cells made a thousand
//! errors while loading. These visitors take the value as the reader gives it and choose the
//! variant from its kind, with the variants, their order and what each accepts unchanged (a
//! whole number is an `Int` before a text, a map is a `Record`). Writing and the JSON Schemas
//! still come from the types' derives.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;

use super::{Cell, PropertyValue, RowKey, Scalar};

/// A bool, a whole number or a text, as the three untagged enums of one value read them.
enum Plain {
    Bool(bool),
    Int(i64),
    Text(String),
}

/// Visits a plain value (a bool, a whole number or a text) and makes a `T` of it.
struct PlainVisitor<T> {
    what: &'static str,
    made: fn(Plain) -> T,
}

impl<T> PlainVisitor<T> {
    fn plain<E: de::Error>(&self, value: Plain) -> Result<T, E> {
        Ok((self.made)(value))
    }
}

/// The error of a value no variant of the untagged enum `what` takes (serde's words for it).
fn mismatch<E: de::Error>(what: &str) -> E {
    E::custom(format!(
        "data did not match any variant of untagged enum {what}"
    ))
}

impl<'de, T> Visitor<'de> for PlainVisitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "a value of {}", self.what)
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        self.plain(Plain::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        self.plain(Plain::Int(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        match i64::try_from(v) {
            Ok(v) => self.plain(Plain::Int(v)),
            Err(_) => Err(mismatch(self.what)),
        }
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        self.plain(Plain::Text(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<T, E> {
        self.plain(Plain::Text(v))
    }
}

fn scalar(value: Plain) -> Scalar {
    match value {
        Plain::Bool(b) => Scalar::Bool(b),
        Plain::Int(i) => Scalar::Int(i),
        Plain::Text(t) => Scalar::Symbol(t),
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        d.deserialize_any(PlainVisitor {
            what: "Scalar",
            made: scalar,
        })
    }
}

impl<'de> Deserialize<'de> for PropertyValue {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PropertyValue, D::Error> {
        d.deserialize_any(PlainVisitor {
            what: "PropertyValue",
            made: |value| match value {
                Plain::Bool(b) => PropertyValue::Bool(b),
                Plain::Int(i) => PropertyValue::Int(i),
                Plain::Text(t) => PropertyValue::Text(t),
            },
        })
    }
}

/// A cell: a plain value, or a record of them by field.
struct CellVisitor(PlainVisitor<Scalar>);

impl<'de> Visitor<'de> for CellVisitor {
    type Value = Cell;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value or a record of values")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Cell, E> {
        self.0.visit_bool(v).map(Cell::Scalar)
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cell, E> {
        self.0.visit_i64(v).map(Cell::Scalar)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cell, E> {
        self.0.visit_u64(v).map(Cell::Scalar)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Cell, E> {
        self.0.visit_str(v).map(Cell::Scalar)
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Cell, E> {
        self.0.visit_string(v).map(Cell::Scalar)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Cell, A::Error> {
        let mut record = BTreeMap::new();
        while let Some((field, value)) = map.next_entry::<String, Scalar>()? {
            record.insert(field, value);
        }
        Ok(Cell::Record(record))
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        d.deserialize_any(CellVisitor(PlainVisitor {
            what: "Cell",
            made: scalar,
        }))
    }
}

/// A row key: a number, a range of two numbers, or a name.
struct RowKeyVisitor;

impl RowKeyVisitor {
    fn number<E: de::Error>(v: i64) -> Result<RowKey, E> {
        i32::try_from(v)
            .map(RowKey::One)
            .map_err(|_| mismatch("RowKey"))
    }
}

impl<'de> Visitor<'de> for RowKeyVisitor {
    type Value = RowKey;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a number, a range (low, high) or a name")
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<RowKey, E> {
        RowKeyVisitor::number(v)
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<RowKey, E> {
        RowKeyVisitor::number(i64::try_from(v).unwrap_or(i64::MAX))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<RowKey, E> {
        Ok(RowKey::Name(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<RowKey, E> {
        Ok(RowKey::Name(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RowKey, A::Error> {
        let wrong = || mismatch("RowKey");
        let low = seq.next_element::<i32>()?.ok_or_else(wrong)?;
        let high = seq.next_element::<i32>()?.ok_or_else(wrong)?;
        match seq.next_element::<de::IgnoredAny>()? {
            None => Ok(RowKey::Range(low, high)),
            Some(_) => Err(wrong()),
        }
    }
}

impl<'de> Deserialize<'de> for RowKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<RowKey, D::Error> {
        d.deserialize_any(RowKeyVisitor)
    }
}
