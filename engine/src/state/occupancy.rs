//! An index of the units by space, kept while a state is only read: a prompt's options look
//! at the units of many spaces, and without it each look goes through every piece.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use super::{Loc, State, Unit};

type Index = Rc<BTreeMap<String, Vec<usize>>>;

thread_local! {
    /// The state being read (its address) and its units by space.
    static INDEX: RefCell<Option<(usize, Index)>> = const { RefCell::new(None) };
}

impl State {
    /// Runs `f`, which reads this state and does not change it (the borrow guarantees it),
    /// with [`State::units_at`] answered from an index of the units by space.
    pub fn with_units_indexed<R>(&self, f: impl FnOnce() -> R) -> R {
        let mut by_space: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, u) in self.units.iter().enumerate() {
            if let Loc::Space(s) = &u.at {
                by_space.entry(s.clone()).or_default().push(i);
            }
        }
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
                .map(|(_, index)| index.get(space).cloned().unwrap_or_default())
        });
        UnitsAt {
            state: self,
            space,
            listed: listed.map(Vec::into_iter),
            next: 0,
        }
    }
}

/// The units on a space, in the order of the state's pieces: see [`State::units_at`].
pub struct UnitsAt<'a> {
    state: &'a State,
    space: &'a str,
    /// From the index, when one is kept for this state.
    listed: Option<std::vec::IntoIter<usize>>,
    /// Else the next piece to look at.
    next: usize,
}

impl<'a> Iterator for UnitsAt<'a> {
    type Item = (usize, &'a Unit);

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(listed) = &mut self.listed {
            return listed.next().map(|i| (i, &self.state.units[i]));
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
