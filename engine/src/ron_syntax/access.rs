//! What the tree's and the text's deserializers share: an enum variant named with the value
//! under its name, that value seen as JSON's object of one key, and the requests both read as
//! any value.

use serde::de::value::{Error, StrDeserializer};
use serde::de::{self, DeserializeSeed, EnumAccess, MapAccess, VariantAccess};

pub(super) const NOT_AN_ENUM: &str =
    "an enum's value is its variant's name or an object of one key";

/// A variant named, with the value under its name.
pub(super) struct Tagged<'n, U>(pub &'n str, pub U);

impl<'de, U: VariantAccess<'de, Error = Error>> EnumAccess<'de> for Tagged<'_, U> {
    type Error = Error;
    type Variant = U;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, U), Error> {
        let name = seed.deserialize(StrDeserializer::<Error>::new(self.0))?;
        Ok((name, self.1))
    }
}

/// An enum variant with a payload seen as JSON's object of one key.
pub(super) struct OneKey<'n, U> {
    pub key: Option<&'n str>,
    pub value: Option<U>,
}

impl<'de, U: de::Deserializer<'de, Error = Error>> MapAccess<'de> for OneKey<'_, U> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        self.key
            .take()
            .map(|k| seed.deserialize(StrDeserializer::<Error>::new(k)))
            .transpose()
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        match self.value.take() {
            Some(under) => seed.deserialize(under),
            None => Err(de::Error::custom("a value without its key")),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(usize::from(self.key.is_some()))
    }
}

/// The value under a variant's name, read as the variant asks: a unit is `()`, a newtype its
/// value, a tuple or a struct the value for what it is.
macro_rules! under_variant {
    ($under:ty) => {
        impl<'de> serde::de::VariantAccess<'de> for $under {
            type Error = serde::de::value::Error;

            fn unit_variant(self) -> Result<(), Self::Error> {
                <() as serde::Deserialize>::deserialize(self)
            }

            fn newtype_variant_seed<S: serde::de::DeserializeSeed<'de>>(
                self,
                seed: S,
            ) -> Result<S::Value, Self::Error> {
                seed.deserialize(self)
            }

            fn tuple_variant<V: serde::de::Visitor<'de>>(
                self,
                _len: usize,
                visitor: V,
            ) -> Result<V::Value, Self::Error> {
                serde::de::Deserializer::deserialize_any(self, visitor)
            }

            fn struct_variant<V: serde::de::Visitor<'de>>(
                self,
                _fields: &'static [&'static str],
                visitor: V,
            ) -> Result<V::Value, Self::Error> {
                serde::de::Deserializer::deserialize_any(self, visitor)
            }
        }
    };
}

/// What both deserializers do alike: a newtype is its inner value, and every other request
/// reads the value for what it is (`deserialize_any`).
macro_rules! alike {
    () => {
        fn deserialize_newtype_struct<V: serde::de::Visitor<'de>>(
            self,
            _name: &'static str,
            visitor: V,
        ) -> Result<V::Value, Self::Error> {
            visitor.visit_newtype_struct(self)
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            unit unit_struct seq tuple tuple_struct map struct identifier
        }
    };
}

pub(super) use {alike, under_variant};
