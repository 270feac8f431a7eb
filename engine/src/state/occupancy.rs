//! An index of the units by space, kept while a state is only read: a prompt's options look
//! at the units of many spaces, and without it each look goes through every piece.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Loc, State, Unit};
use crate::content::IdMap;

/// The units of each space, in the order of the state's pieces: the pieces on the map grouped
/// by space, and where each space's run is in that list (a hash map: looked up, never
/// iterated).
type Index = Rc<(IdMap<(usize, usize)>, Vec<usize>)>;

thread_local! {
    /// The state being read (its address) and its units by space.
    static INDEX: RefCell<Option<(usize, Index)>> = const { RefCell::new(None) };
    /// The last index built, with the stamp of the pieces it was built from: taken again for
    /// a state whose pieces have that stamp (one prompt after another that changed no piece).
    static LAST: RefCell<Option<(u64, Index)>> = const { RefCell::new(None) };
}

impl State {
    /// Runs `f`, which reads this state and does not change it (the borrow guarantees it),
    /// with [`State::units_at`] answered from an index of the units by space.
    pub fn with_units_indexed<R>(&self, f: impl FnOnce() -> R) -> R {
        let stamp = self.units.stamp();
        let kept = LAST.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|(at, _)| *at == stamp)
                .map(|(_, index)| Rc::clone(index))
        });
        let index = kept.unwrap_or_else(|| {
            let index = self.index_units();
            LAST.with(|last| *last.borrow_mut() = Some((stamp, Rc::clone(&index))));
            index
        });
        struct Restore(Option<(usize, Index)>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                INDEX.with(|x| *x.borrow_mut() = before);
            }
        }
        let key = std::ptr::from_ref(self) as usize;
        let _restore = Restore(INDEX.with(|x| x.borrow_mut().replace((key, index))));
        f()
    }

    /// The pieces on the map grouped by space, in their order within each space.
    fn index_units(&self) -> Index {
        // By their space's address, then in their order.
        let mut placed: Vec<(usize, crate::Id, usize)> = self
            .units
            .iter()
            .enumerate()
            .filter_map(|(i, u)| match &u.at {
                Loc::Space(s) => Some((s.addr(), *s, i)),
                _ => None,
            })
            .collect();
        placed.sort_unstable_by_key(|&(space, _, i)| (space, i));
        let mut runs = IdMap::with_capacity_and_hasher(placed.len(), Default::default());
        let mut pieces = Vec::with_capacity(placed.len());
        for run in placed.chunk_by(|a, b| a.0 == b.0) {
            let start = pieces.len();
            pieces.extend(run.iter().map(|&(_, _, i)| i));
            runs.insert(run[0].1, (start, pieces.len()));
        }
        Rc::new((runs, pieces))
    }

    /// Units on a space.
    pub fn units_at<'a>(&'a self, space: &'a str) -> UnitsAt<'a> {
        let key = std::ptr::from_ref(self) as usize;
        let listed = INDEX.with(|x| {
            x.borrow()
                .as_ref()
                .filter(|(at, _)| *at == key)
                .map(|(_, index)| {
                    let (next, end) = index.0.get(space).copied().unwrap_or((0, 0));
                    Listed {
                        index: Rc::clone(index),
                        next,
                        end,
                    }
                })
        });
        UnitsAt {
            state: self,
            space,
            listed,
            next: 0,
        }
    }
}

/// A space's run in the index: the next of its pieces, and where the run ends.
struct Listed {
    index: Index,
    next: usize,
    end: usize,
}

/// The units on a space, in the order of the state's pieces: see [`State::units_at`].
pub struct UnitsAt<'a> {
    state: &'a State,
    space: &'a str,
    /// From the index, when one is kept for this state.
    listed: Option<Listed>,
    /// Else the next piece to look at.
    next: usize,
}

impl<'a> Iterator for UnitsAt<'a> {
    type Item = (usize, &'a Unit);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(listed) = &mut self.listed {
            if listed.next == listed.end {
                return None;
            }
            let i = listed.index.1[listed.next];
            listed.next += 1;
            return Some((i, &self.state.units[i]));
        }
        while let Some(u) = self.state.units.get(self.next) {
            let i = self.next;
            self.next += 1;
            if matches!(&u.at, Loc::Space(s) if s == self.space) {
                return Some((i, u));
            }
        }
        None
    }
}
