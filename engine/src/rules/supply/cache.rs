//! Supply levels asked once per question: a prompt's options, or a script's run, ask many
//! pieces' supply of one state, and each nation of a side is traced (or found kept) once.

use std::rc::Rc;

use super::{levels_kept_reaching, signature, view_kept, Level, SideView, Signature};
use crate::content::Content;
use crate::rules::Rules;
use crate::state::State;
use crate::Id;

/// Supply levels by nation and side, asked once per question of one state. A nation whose
/// supply reads the same as one asked already ([`signature`]) shares its levels.
#[derive(Default)]
pub(crate) struct SupplyCache<'c> {
    views: Vec<Rc<SideView>>,
    /// (nation, side, what its supply reads, level of every space); few entries, found by the
    /// ids' addresses without allocating.
    levels: Vec<(Id, Id, Signature<'c>, Rc<[Level]>)>,
}

impl<'c> SupplyCache<'c> {
    /// The supply level of a unit where it stands (Out off the map).
    pub(crate) fn unit(&mut self, rules: &Rules<'c>, state: &State, unit: usize) -> Level {
        let u = &state.units[unit];
        let Some(i) = crate::rules::space_of(rules, u) else {
            return Level::Out;
        };
        self.at(rules, state, i, rules.nation_id(u), rules.side(u))
    }

    /// The supply level of the space of graph index `space` for a piece of `nation` serving
    /// `side`.
    pub(crate) fn at(
        &mut self,
        rules: &Rules<'c>,
        state: &State,
        space: usize,
        nation: Id,
        side: Id,
    ) -> Level {
        let (levels, _) = self.levels(rules.content, state, nation, side);
        levels.get(space).copied().unwrap_or(Level::Out)
    }

    /// The levels of every space for a piece of `nation` serving `side`, and whether this
    /// question asks them for the first time.
    pub(crate) fn levels(
        &mut self,
        content: &'c Content,
        state: &State,
        nation: Id,
        side: Id,
    ) -> (&Rc<[Level]>, bool) {
        let found = self
            .levels
            .iter()
            .position(|(n, s, _, _)| *n == nation && *s == side);
        let i = found.unwrap_or_else(|| {
            let signature = signature(content, state, nation, &side);
            let same = self
                .levels
                .iter()
                .position(|(_, s, read, _)| *s == side && *read == signature);
            let levels = match same {
                Some(k) => Rc::clone(&self.levels[k].3),
                None => {
                    let view = self.view(content, state, side);
                    levels_kept_reaching(content, state, &view, &nation, signature.reach())
                }
            };
            self.levels.push((nation, side, signature, levels));
            self.levels.len() - 1
        });
        (&self.levels[i].3, found.is_none())
    }

    /// The side's view of the map, asked once per question.
    fn view(&mut self, content: &Content, state: &State, side: Id) -> Rc<SideView> {
        let v = match self.views.iter().position(|v| v.side == side) {
            Some(v) => v,
            None => {
                self.views.push(view_kept(content, state, &side));
                self.views.len() - 1
            }
        };
        Rc::clone(&self.views[v])
    }
}
