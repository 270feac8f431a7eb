//! An index of the units by space, kept while a state is only read: a prompt's options look
//! at the units of many spaces, and without it each look goes through every piece.

use std::cell::RefCell;
use std::rc::Rc;

use super::{Loc, State, Unit};
use crate::content::IdMap;

/// The units of each space, in the order of the state's pieces (a hash map: looked up, never
/// iterated).
type Index = Rc<IdMap<Rc<[usize]>>>;

thread_local! {
    /// The state being read (its address) and its units by space.
    static INDEX: RefCell<Option<(usize, Index)>> = const { RefCell::new(None) };
}

impl State {
    /// Runs `f`, which reads this state and does not change it (the borrow guarantees it),
    /// with [`State::units_at`] answered from an index of the units by space.
    pub fn with_units_indexed<R>(&self, f: impl FnOnce() -> R) -> R {
        let mut lists: IdMap<Vec<usize>> = IdMap::default();
        for (i, u) in self.units.iter().enumerate() {
            if let Loc::Space(s) = &u.at {
                match lists.get_mut(s.as_str()) {
                    Some(list) => list.push(i),
                    None => {
                        lists.insert(*s, vec![i]);
                    }
                }
            }
        }
        let by_space: IdMap<Rc<[usize]>> =
            lists.into_iter().map(|(s, l)| (s, Rc::from(l))).collect();
        struct Restore(Option<(usize, Index)>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let before = self.0.take();
                INDEX.with(|x| *x.borrow_mut() = before);
            }
        }
        let key = std::ptr::from_ref(self) as usize;
        let _restore = Restore(INDEX.with(|x| x.borrow_mut().replace((key, Rc::new(by_space)))));
        f()
    }

    /// Units on a space.
    pub fn units_at<'a>(&'a self, space: &'a str) -> UnitsAt<'a> {
        let key = std::ptr::from_ref(self) as usize;
        let listed = INDEX.with(|x| {
            x.borrow()
                .as_ref()
                .filter(|(at, _)| *at == key)
                .map(|(_, index)| index.get(space).cloned())
        });
        UnitsAt {
            state: self,
            space,
            listed,
            next: 0,
        }
    }
}

/// The units on a space, in the order of the state's pieces: see [`State::units_at`].
pub struct UnitsAt<'a> {
    state: &'a State,
    space: &'a str,
    /// From the index, when one is kept for this state (none there: no units).
    listed: Option<Option<Rc<[usize]>>>,
    /// Else the next piece to look at.
    next: usize,
}

impl<'a> Iterator for UnitsAt<'a> {
    type Item = (usize, &'a Unit);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(listed) = &self.listed {
            let i = *listed.as_deref()?.get(self.next)?;
            self.next += 1;
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
