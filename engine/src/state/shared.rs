//! A part of the state that a copy of the state shares until one of them changes it.
//!
//! A script that changes the state works on a copy (it must leave the state untouched when it
//! stops to ask), and so does every playout of an agent. The cards, the record of play and the
//! cards played change far less often than the state is copied: each is kept behind a counted
//! pointer, so a copy costs a count, and the part is copied only when a state that shares it
//! changes it (`DerefMut`).

use std::sync::Arc;

/// A value shared by the copies of a state until one of them changes it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Shared<T>(Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Arc::clone(&self.0))
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
