//! The pieces of a state, stamped: every change takes a fresh stamp, as the control table does
//! (see [`super::Control`]), so what was worked out from the pieces (a side's view of the map
//! for supply) is known to hold while the stamp is the same, without comparing every piece.
//!
//! Reads go through `Deref` to the list as before; anything that may change a piece (`&mut`
//! through `DerefMut`: an index, `push`, `iter_mut`) takes a fresh stamp first. A copy keeps
//! the stamp: it holds the same pieces.
//!
//! A change made through the index of one piece (`units[i].at = ...`) is also written in a
//! short journal, with the stamps before and after it and the space the piece stood on: what
//! was worked out at an earlier stamp is brought up to date by looking again at those pieces
//! only ([`Units::changed_since`]), not by comparing every piece. A change of the whole list
//! (`push`, `iter_mut` ...) empties the journal: nothing earlier can then be brought up to
//! date that way.
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
    /// The stamp of the pieces it indexes.
    stamp: u64,
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
    fn new(list: &[Unit], stamp: u64) -> BySpace {
        let mut index = BySpace {
            at: list.iter().map(space_of).collect(),
            spaces: ByAddr::default(),
            stamp,
        };
        for (i, u) in list.iter().enumerate() {
            if let Some(s) = space_of(u) {
                index.pieces_of(s).push(i);
            }
        }
        index
    }

    /// The index of `units`, from this one of the same pieces as they stood before: only the
    /// pieces whose space changed move, and only those the journal names when it reaches back
    /// to this index's stamp. A list that grew or shrank is indexed anew.
    fn update(mut self, units: &Units) -> BySpace {
        let list = &units.list[..];
        if list.len() != self.at.len() {
            return BySpace::new(list, units.stamp);
        }
        match units.changed_since(self.stamp, JOURNAL) {
            Some(changed) => {
                for (i, _) in changed {
                    self.look_again(list, i);
                }
            }
            None => {
                for i in 0..list.len() {
                    self.look_again(list, i);
                }
            }
        }
        self.stamp = units.stamp;
        self
    }

    /// Moves piece `i` in the index to the space it stands on now, if it changed.
    fn look_again(&mut self, list: &[Unit], i: usize) {
        let now = space_of(&list[i]);
        if now == self.at[i] {
            return;
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

    fn pieces_of(&mut self, space: Id) -> &mut Vec<usize> {
        &mut (self.spaces.entry(space.addr()))
            .or_insert_with(|| (space, Vec::new()))
            .1
    }

    /// The pieces on a space by its id: every piece on it is kept under the id's address.
    fn on_id(&self, space: Id) -> &[usize] {
        (self.spaces.get(&space.addr())).map_or(&[], |(_, pieces)| pieces.as_slice())
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
    /// The last changes of single pieces, oldest first (see the module's documentation).
    journal: Vec<Change>,
}

/// A change of one piece through its index: the stamps before and after it, the piece, and
/// the space it stood on before (`None` off the map).
#[derive(Clone, Copy)]
struct Change {
    before: u64,
    after: u64,
    unit: usize,
    was: Option<Id>,
}

/// The pieces [`Units::changed_since`] names, each with the space it stood on.
pub(crate) type Changed = smallvec::SmallVec<[(usize, Option<Id>); 8]>;

/// How many changes the journal keeps: an action changes a few pieces (a move, a combat's
/// losses and retreats); when it is full, the older half goes.
const JOURNAL: usize = 32;

impl Clone for Units {
    fn clone(&self) -> Units {
        Units {
            list: self.list.clone(),
            stamp: self.stamp,
            index: self.index.clone(),
            stale: Mutex::new(self.stale_slot().clone()),
            journal: self.journal.clone(),
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

    /// [`Self::on`] of a space's id: found by its address alone (an empty space too, without
    /// looking its text up).
    pub fn on_id(&self, space: Id) -> &[usize] {
        self.by_space().on_id(space)
    }

    /// The pieces changed since the list had the stamp `since`, each (once, in no set order)
    /// with the space it stood on then (`None` off the map); `None` when the journal does not
    /// reach back to that stamp (it was emptied or went past it, or the list never had it) or
    /// names more than `most` pieces.
    pub(crate) fn changed_since(&self, since: u64, most: usize) -> Option<Changed> {
        let mut changed = Changed::new();
        let mut now = self.stamp;
        let mut back = self.journal.iter().rev();
        while now != since {
            let c = back.next().filter(|c| c.after == now)?;
            // The oldest change of a piece tells where it stood at `since`.
            match changed.iter().position(|(u, _)| *u == c.unit) {
                Some(k) => changed[k].1 = c.was,
                None if changed.len() < most => changed.push((c.unit, c.was)),
                None => return None,
            }
            now = c.before;
        }
        Some(changed)
    }

    fn by_space(&self) -> &BySpace {
        self.index.get_or_init(|| {
            let before = self.stale_slot().take();
            Arc::new(match before {
                Some(before) => Arc::unwrap_or_clone(before).update(self),
                None => BySpace::new(&self.list, self.stamp),
            })
        })
    }

    /// A fresh stamp before a change, the index kept to be brought up to date.
    fn changing(&mut self) {
        self.stamp = fresh_stamp();
        if let Some(index) = self.index.take() {
            *self.stale.get_mut().unwrap_or_else(|e| e.into_inner()) = Some(index);
        }
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
            journal: Vec::new(),
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
    /// Any piece may change, or the list's length: the journal is emptied.
    fn deref_mut(&mut self) -> &mut Vec<Unit> {
        self.changing();
        self.journal.clear();
        Arc::make_mut(&mut self.list)
    }
}

impl std::ops::Index<usize> for Units {
    type Output = Unit;

    fn index(&self, i: usize) -> &Unit {
        &self.list[i]
    }
}

impl std::ops::IndexMut<usize> for Units {
    /// One piece, to change: stamped afresh, and the change written in the journal.
    fn index_mut(&mut self, i: usize) -> &mut Unit {
        let before = self.stamp;
        self.changing();
        if self.journal.len() >= JOURNAL {
            self.journal.drain(..JOURNAL / 2);
        }
        let was = self.list.get(i).and_then(space_of);
        self.journal.push(Change {
            before,
            after: self.stamp,
            unit: i,
            was,
        });
        &mut Arc::make_mut(&mut self.list)[i]
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

    #[test]
    fn the_journal_names_each_piece_changed_through_its_index_with_where_it_stood() {
        let space = |s: &str| super::super::Loc::Space(s.into());
        let mut a = Units::from(vec![piece("ge_4th_army"), piece("su_5th_army")]);
        a[0].at = space("lvov");
        a[1].at = space("kiev");
        assert_eq!(a.on("lvov"), &[0]);
        let since = a.stamp();
        assert_eq!(a.changed_since(since, 8).map(|c| c.len()), Some(0));
        a[0].at = space("tarnopol");
        a[0].at = space("kiev");
        a[1].reduced = true;
        let mut changed = a.changed_since(since, 8).expect("the journal reaches back");
        changed.sort_by_key(|(u, _)| *u);
        let was: Vec<(usize, Option<&str>)> =
            changed.iter().map(|(u, s)| (*u, s.as_deref())).collect();
        assert_eq!(
            was,
            vec![(0, Some("lvov")), (1, Some("kiev"))],
            "each piece once, with the space it stood on at the stamp asked about"
        );
        assert_eq!(
            a.changed_since(since, 1),
            None,
            "more pieces than asked for"
        );
        assert_eq!(
            a.on("kiev"),
            &[0, 1],
            "the index brought up to date from the journal"
        );
        assert!(a.on("lvov").is_empty() && a.on("tarnopol").is_empty());
        let copy = a.clone();
        a.push(piece("ro_3rd_army"));
        assert_eq!(a.changed_since(since, 8), None, "the whole list changed");
        assert!(
            copy.changed_since(since, 8).is_some(),
            "a copy keeps its journal"
        );
        assert_eq!(a.changed_since(a.stamp(), 8).map(|c| c.len()), Some(0));
    }
}
