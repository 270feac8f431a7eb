//! The pieces of a state, stamped: every change takes a fresh stamp, as the control table does
//! (see [`super::Control`]), so what was worked out from the pieces (a side's view of the map
//! for supply) is known to hold while the stamp is the same, without comparing every piece.
//!
//! Reads go through `Deref` to the list as before; anything that may change a piece (`&mut`
//! through `DerefMut`: an index, `push`, `iter_mut`) takes a fresh stamp first. A copy keeps
//! the stamp: it holds the same pieces.
//!
//! The pieces also keep an index of themselves by space ([`Units::on`]), brought up to date
//! when it is next read after a change: only the pieces whose space changed are moved in it.

use std::sync::{Arc, Mutex, OnceLock};

use super::control::fresh_stamp;
use super::{Loc, Unit};
use crate::Id;

/// The pieces on the map by space. See [`Units::on`].
#[derive(Clone, Default)]
struct BySpace {
    /// The space each piece stood on when the index was last brought up to date (`None` off
    /// the map).
    at: Vec<Option<Id>>,
    /// Each space's pieces, in their order, by the address of the space's id (looked up,
    /// never iterated).
    spaces: ByAddr,
}

type ByAddr = std::collections::HashMap<
    usize,
    (Id, Vec<usize>),
    std::hash::BuildHasherDefault<crate::content::AddrHash>,
>;

fn space_of(u: &Unit) -> Option<Id> {
    match &u.at {
        Loc::Space(s) => Some(*s),
        _ => None,
    }
}

impl BySpace {
    fn new(list: &[Unit]) -> BySpace {
        let mut index = BySpace {
            at: list.iter().map(space_of).collect(),
            spaces: ByAddr::default(),
        };
        for (i, u) in list.iter().enumerate() {
            if let Some(s) = space_of(u) {
                index.pieces_of(s).push(i);
            }
        }
        index
    }

    /// The index of `list`, from this one of the same pieces as they stood before: only the
    /// pieces whose space changed move. A list that grew or shrank is indexed anew.
    fn update(mut self, list: &[Unit]) -> BySpace {
        if list.len() != self.at.len() {
            return BySpace::new(list);
        }
        for (i, u) in list.iter().enumerate() {
            let now = space_of(u);
            if now == self.at[i] {
                continue;
            }
            if let Some(was) = self.at[i] {
                if let Some((_, pieces)) = self.spaces.get_mut(&was.addr()) {
                    pieces.retain(|&p| p != i);
                }
            }
            if let Some(s) = now {
                let pieces = self.pieces_of(s);
                let k = pieces.partition_point(|&p| p < i);
                pieces.insert(k, i);
            }
            self.at[i] = now;
        }
        self
    }

    fn pieces_of(&mut self, space: Id) -> &mut Vec<usize> {
        &mut (self.spaces.entry(space.addr()))
            .or_insert_with(|| (space, Vec::new()))
            .1
    }

    /// The pieces on a space: found by the address of its text when that is the id's own
    /// (as the rules nearly always ask), else by the id of the text.
    fn on(&self, space: &str) -> &[usize] {
        let by_addr = |addr: usize| {
            self.spaces
                .get(&addr)
                .filter(|(id, _)| id.len() == space.len())
                .map(|(_, pieces)| pieces.as_slice())
        };
        if let Some(pieces) = by_addr(space.as_ptr() as usize) {
            return pieces;
        }
        // Another copy of an id's text, or an id's own text with no piece on it.
        match Id::known(space) {
            Some(id) if id.addr() != space.as_ptr() as usize => by_addr(id.addr()).unwrap_or(&[]),
            _ => &[],
        }
    }
}

/// The pieces, with their stamp. See the module's documentation.
pub struct Units {
    /// Shared between copies until one changes (a script's copy of the state that moves no
    /// piece copies none).
    list: Arc<Vec<Unit>>,
    /// A number no other list of pieces had with other contents.
    stamp: u64,
    /// The index by space of the pieces as they are, once asked for.
    index: OnceLock<Arc<BySpace>>,
    /// The index as it was before the last change, to bring up to date when next asked for.
    stale: Mutex<Option<Arc<BySpace>>>,
}

impl Clone for Units {
    fn clone(&self) -> Units {
        Units {
            list: self.list.clone(),
            stamp: self.stamp,
            index: self.index.clone(),
            stale: Mutex::new(self.stale_slot().clone()),
        }
    }
}

impl Units {
    /// See the module's documentation.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    /// The list of pieces, shared (copied by the next change to these pieces).
    pub(crate) fn shared_list(&self) -> Arc<Vec<Unit>> {
        Arc::clone(&self.list)
    }

    /// The pieces on a space, in their order.
    pub fn on(&self, space: &str) -> &[usize] {
        self.by_space().on(space)
    }

    fn by_space(&self) -> &BySpace {
        self.index.get_or_init(|| {
            let before = self.stale_slot().take();
            Arc::new(match before {
                Some(before) => Arc::unwrap_or_clone(before).update(&self.list),
                None => BySpace::new(&self.list),
            })
        })
    }

    fn stale_slot(&self) -> std::sync::MutexGuard<'_, Option<Arc<BySpace>>> {
        self.stale.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Default for Units {
    fn default() -> Units {
        Units::from(Vec::new())
    }
}

impl From<Vec<Unit>> for Units {
    fn from(list: Vec<Unit>) -> Units {
        Units {
            list: Arc::new(list),
            stamp: fresh_stamp(),
            index: OnceLock::new(),
            stale: Mutex::new(None),
        }
    }
}

impl FromIterator<Unit> for Units {
    fn from_iter<I: IntoIterator<Item = Unit>>(items: I) -> Units {
        Units::from(items.into_iter().collect::<Vec<_>>())
    }
}

impl std::ops::Deref for Units {
    type Target = Vec<Unit>;

    fn deref(&self) -> &Vec<Unit> {
        &self.list
    }
}

impl std::ops::DerefMut for Units {
    /// The list, to change: stamped afresh (whether or not it then changes).
    fn deref_mut(&mut self) -> &mut Vec<Unit> {
        self.stamp = fresh_stamp();
        if let Some(index) = self.index.take() {
            *self.stale.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(index);
        }
        Arc::make_mut(&mut self.list)
    }
}

impl PartialEq for Units {
    fn eq(&self, other: &Units) -> bool {
        self.list == other.list
    }
}

impl std::fmt::Debug for Units {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.list.fmt(f)
    }
}

impl<'a> IntoIterator for &'a Units {
    type Item = &'a Unit;
    type IntoIter = std::slice::Iter<'a, Unit>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(counter: &str) -> Unit {
        Unit {
            counter: counter.into(),
            piece: 0,
            at: super::super::Loc::Unplaced,
            reduced: false,
            serves: None,
            hint: 0,
        }
    }

    #[test]
    fn the_pieces_are_stamped_anew_at_every_change_and_a_copy_keeps_the_stamp() {
        let mut a = Units::from(vec![piece("ge_4th_army")]);
        let copy = a.clone();
        assert_eq!(copy.stamp(), a.stamp(), "a copy holds the same pieces");
        let _ = a.len();
        let _ = &a[0];
        assert_eq!(a.stamp(), copy.stamp(), "read only");
        a[0].reduced = true;
        assert_ne!(a.stamp(), copy.stamp(), "a piece changed");
        let after = a.stamp();
        a.push(piece("su_5th_army"));
        assert_ne!(a.stamp(), after, "a piece added");
        assert_ne!(Units::default().stamp(), Units::default().stamp());
        assert_eq!(
            Units::default(),
            Units::from(Vec::new()),
            "compared by their pieces"
        );
    }
}
