//! The units on a space, from the index the pieces keep of themselves by space (see
//! [`super::Units::on`]): a prompt's options look at the units of many spaces.

use super::{State, Unit};

impl State {
    /// Units on a space, in the order of the state's pieces.
    pub fn units_at<'a>(&'a self, space: &str) -> UnitsAt<'a> {
        UnitsAt {
            state: self,
            pieces: self.units.on(space).iter(),
        }
    }
}

/// The units on a space, in the order of the state's pieces: see [`State::units_at`].
pub struct UnitsAt<'a> {
    state: &'a State,
    pieces: std::slice::Iter<'a, usize>,
}

impl<'a> Iterator for UnitsAt<'a> {
    type Item = (usize, &'a Unit);

    fn next(&mut self) -> Option<Self::Item> {
        let &i = self.pieces.next()?;
        Some((i, &self.state.units[i]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.pieces.size_hint()
    }
}
