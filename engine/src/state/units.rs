//! The pieces of a state, stamped: every change takes a fresh stamp, as the control table does
//! (see [`super::Control`]), so what was worked out from the pieces (their index by space, a
//! side's view of the map for supply) is known to hold while the stamp is the same, without
//! comparing every piece.
//!
//! Reads go through `Deref` to the list as before; anything that may change a piece (`&mut`
//! through `DerefMut`: an index, `push`, `iter_mut`) takes a fresh stamp first. A copy keeps
//! the stamp: it holds the same pieces.

use super::control::fresh_stamp;
use super::Unit;

/// The pieces, with their stamp. See the module's documentation.
#[derive(Clone)]
pub struct Units {
    list: Vec<Unit>,
    /// A number no other list of pieces had with other contents.
    stamp: u64,
}

impl Units {
    /// See the module's documentation.
    pub fn stamp(&self) -> u64 {
        self.stamp
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
            list,
            stamp: fresh_stamp(),
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
        &mut self.list
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
