//! Who controls each space: a table looked up by an id's hash and compared by its address, so
//! the rules' many questions of control cost no string comparisons. It iterates, prints and
//! serializes in the spaces' order (by id), as the ordered map it replaces did.

use std::borrow::Borrow;
use std::hash::Hash;

use std::sync::{Arc, Mutex};

use crate::content::{Content, IdMap};
use crate::id::Id;

/// The controller of each space (or none), by the space's graph index.
pub type ByIndex = Arc<Vec<Option<Id>>>;

/// The controller of each space that is not neutral. See the module's documentation.
#[derive(Default)]
pub struct Control {
    /// Shared between copies until one changes (a script's copy of the state copies no table).
    map: Arc<IdMap<Id>>,
    /// The controller of each space by its graph index, for the content of that number (see
    /// [`Control::by_index`]): made when first asked for after a change.
    by_index: Mutex<Option<(u64, ByIndex)>>,
    /// A number no other table of control had with other contents: taken afresh from one
    /// counter of the process at every change, and copied with the table. Two tables with the
    /// same stamp hold the same control, so what was worked out from one holds for the other.
    stamp: u64,
}

/// The last stamp given out (to a table of control or a list of pieces).
static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

pub(crate) fn fresh_stamp() -> u64 {
    STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1
}

impl Clone for Control {
    fn clone(&self) -> Control {
        Control {
            map: self.map.clone(),
            by_index: Mutex::new(self.by_index_slot().clone()),
            stamp: self.stamp,
        }
    }
}

impl PartialEq for Control {
    fn eq(&self, other: &Control) -> bool {
        self.map == other.map
    }
}

impl Eq for Control {}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Control").field(&self.map).finish()
    }
}

impl Control {
    /// See the field's documentation; a table never changed has stamp 0 only when empty.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    pub fn get<Q>(&self, space: &Q) -> Option<&Id>
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.map.get(space)
    }

    pub fn contains_key<Q>(&self, space: &Q) -> bool
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.map.contains_key(space)
    }

    /// The controller of each space (or none) by the space's graph index in `content`: one
    /// lookup of every space after a change, then an array for every question until the next.
    pub fn by_index(&self, content: &Content) -> ByIndex {
        let mut slot = self.by_index_slot();
        let of = content.memo_id();
        if let Some((made_for, holders)) = &*slot {
            if *made_for == of {
                return Arc::clone(holders);
            }
        }
        let holders: ByIndex = Arc::new(
            (content.graph.spaces.iter())
                .map(|s| self.map.get(&s.id).copied())
                .collect(),
        );
        *slot = Some((of, Arc::clone(&holders)));
        holders
    }

    fn by_index_slot(&self) -> std::sync::MutexGuard<'_, Option<(u64, ByIndex)>> {
        self.by_index.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A change: a fresh stamp, and the table by index made again when next asked for.
    fn changed(&mut self) {
        self.stamp = fresh_stamp();
        *self.by_index.get_mut().unwrap_or_else(|e| e.into_inner()) = None;
    }

    pub fn insert(&mut self, space: Id, side: Id) -> Option<Id> {
        if self.map.get(&space) == Some(&side) {
            return Some(side);
        }
        let was = Arc::make_mut(&mut self.map).insert(space, side);
        self.changed();
        was
    }

    pub fn remove<Q>(&mut self, space: &Q) -> Option<Id>
    where
        Id: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.map.get(space)?;
        let was = Arc::make_mut(&mut self.map).remove(space);
        self.changed();
        was
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Each controlled space and its controller, in the spaces' order.
    pub fn iter(&self) -> impl Iterator<Item = (&Id, &Id)> {
        let mut all: Vec<(&Id, &Id)> = self.map.iter().collect();
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
        self.map.iter()
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
        Control {
            map: Arc::new(items.into_iter().collect()),
            by_index: Mutex::default(),
            stamp: fresh_stamp(),
        }
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
        &self.map[space]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_table_is_stamped_anew_at_every_change_and_its_copy_keeps_the_stamp() {
        let (warsaw, moscow) = (Id::new("warsaw"), Id::new("moscow"));
        let (axis, allied) = (Id::new("axis"), Id::new("allied"));
        let mut a = Control::default();
        a.insert(warsaw, axis);
        let copy = a.clone();
        assert_eq!(copy.stamp(), a.stamp(), "a copy holds the same control");
        a.insert(warsaw, axis);
        assert_eq!(a.stamp(), copy.stamp(), "nothing changed");
        a.insert(moscow, allied);
        assert_ne!(a.stamp(), copy.stamp(), "a space taken");
        let after_moscow = a.stamp();
        a.remove(&moscow);
        assert_ne!(a.stamp(), after_moscow, "a space lost");
        assert_ne!(
            a.stamp(),
            copy.stamp(),
            "the same control again, by another way"
        );
        assert_eq!(a, copy, "tables compare by their control, not their stamps");
        let mut b = copy.clone();
        b.insert(warsaw, allied);
        let mut c = copy.clone();
        c.insert(warsaw, allied);
        assert_ne!(b.stamp(), c.stamp(), "no two changes give one stamp");
        assert_eq!(a.remove(&moscow), None);
    }
}
