//! Who controls each space: a table looked up by an id's hash and compared by its address, so
//! the rules' many questions of control cost no string comparisons. It iterates, prints and
//! serializes in the spaces' order (by id), as the ordered map it replaces did.

use std::borrow::Borrow;
use std::hash::Hash;

use crate::content::IdMap;
use crate::id::Id;

/// The controller of each space that is not neutral. See the module's documentation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Control(IdMap<Id>);

impl Control {
    pub fn get<Q>(&self, space: &Q) -> Option<&Id>
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.get(space)
    }

    pub fn contains_key<Q>(&self, space: &Q) -> bool
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.contains_key(space)
    }

    pub fn insert(&mut self, space: Id, side: Id) -> Option<Id> {
        self.0.insert(space, side)
    }

    pub fn remove<Q>(&mut self, space: &Q) -> Option<Id>
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0.remove(space)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each controlled space and its controller, in the spaces' order.
    pub fn iter(&self) -> impl Iterator<Item = (&Id, &Id)> {
        let mut all: Vec<(&Id, &Id)> = self.0.iter().collect();
        all.sort_unstable_by(|a, b| a.0.cmp(b.0));
        all.into_iter()
    }

    /// The controlled spaces, in their order.
    pub fn keys(&self) -> impl Iterator<Item = &Id> {
        self.iter().map(|(space, _)| space)
    }

    /// Each controlled space and its controller, in no particular order: for what does not
    /// depend on the order (marking spaces, counting).
    pub fn iter_unordered(&self) -> impl Iterator<Item = (&Id, &Id)> {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a Control {
    type Item = (&'a Id, &'a Id);
    type IntoIter = std::vec::IntoIter<(&'a Id, &'a Id)>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter().collect::<Vec<_>>().into_iter()
    }
}

impl FromIterator<(Id, Id)> for Control {
    fn from_iter<I: IntoIterator<Item = (Id, Id)>>(items: I) -> Control {
        Control(items.into_iter().collect())
    }
}

impl serde::Serialize for Control {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<Q> std::ops::Index<&Q> for Control
where
    Id: Borrow<Q>,
    Q: Hash + Eq + ?Sized,
{
    type Output = Id;

    /// The controller of a space that has one (panics on a neutral space, as a map does).
    fn index(&self, space: &Q) -> &Id {
        &self.0[space]
    }
}
