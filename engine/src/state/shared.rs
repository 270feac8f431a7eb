//! A part of the state that a copy of the state shares until one of them changes it.
//!
//! A script that changes the state works on a copy (it must leave the state untouched when it
//! stops to ask), and so does every playout of an agent. The cards, the record of play and the
//! cards played change far less often than the state is copied: each is kept behind a counted
//! pointer, so a copy costs a count, and the part is copied only when a state that shares it
//! changes it (`DerefMut`).
//!
//! Each part is stamped as the pieces are (see [`super::Units`]): every change takes a fresh
//! stamp, so two parts with the same stamp hold the same value, known without keeping it.

use std::sync::Arc;

use super::control::fresh_stamp;

/// A value shared by the copies of a state until one of them changes it.
#[derive(Debug)]
pub struct Shared<T>(Arc<T>, u64);

impl<T: Default> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared(Arc::default(), fresh_stamp())
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0), self.1)
    }
}

/// Compared by value: two states that hold the same are the same, whatever their stamps.
impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        self.1 == other.1 || Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared(Arc::new(value), fresh_stamp())
    }
}

impl<T> Shared<T> {
    /// A number no other part with another value had: taken afresh at every change.
    pub fn stamp(&self) -> u64 {
        self.1
    }
}

impl<T> std::ops::Deref for Shared<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

/// Changing a shared part copies it first, unless no other state holds it.
impl<T: Clone> std::ops::DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        self.1 = fresh_stamp();
        Arc::make_mut(&mut self.0)
    }
}

impl<'a, T> IntoIterator for &'a Shared<T>
where
    &'a T: IntoIterator,
{
    type Item = <&'a T as IntoIterator>::Item;
    type IntoIter = <&'a T as IntoIterator>::IntoIter;

    fn into_iter(self) -> Self::IntoIter {
        self.0.as_ref().into_iter()
    }
}

/// Written as the value it holds.
impl<T: serde::Serialize> serde::Serialize for Shared<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_ref().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;

    #[test]
    fn a_shared_part_is_stamped_anew_at_every_change_and_its_copy_keeps_the_stamp() {
        let mut flags: Shared<Vec<&str>> = Shared::from(vec!["mud"]);
        let copy = flags.clone();
        assert_eq!(copy.stamp(), flags.stamp(), "a copy holds the same");
        flags.push("snow");
        assert_ne!(flags.stamp(), copy.stamp(), "a flag set");
        assert_eq!(*copy, vec!["mud"], "the copy is not changed");
        flags.pop();
        assert_ne!(flags.stamp(), copy.stamp(), "stamps are never given back");
        assert_eq!(
            flags, copy,
            "parts compare by their values, not their stamps"
        );
    }
}
