//! The play rules' conditions (`/play/box_entries/0/to`, an impulse's `leave` rules): found
//! by their pointer in `game.ron`, their results remembered as a hook's are when what they read
//! allows (`hook_memo`).

use super::{hook_memo, Rules};
use crate::script::eval::{Asker, Context};
use crate::state::State;

/// A play rule's condition found by its pointer ([`Rules::condition_at`]).
pub(crate) struct PreparedCondition<'c> {
    expr: &'c crate::script::syntax::Expr,
    script: (usize, Option<&'c crate::script::reads::Memo>),
}

impl<'c> PreparedCondition<'c> {
    /// The play rules' condition at `pointer` in the content, if there is one.
    #[inline]
    pub(crate) fn at(content: &'c crate::content::Content, pointer: &str) -> Option<Self> {
        let expr = content.sequence.conditions.get(pointer)?;
        let memo = content.condition_memo(pointer);
        let script = memo.map_or((0, None), |(i, m)| (i, Some(m)));
        Some(PreparedCondition { expr, script })
    }

    /// Whether it reads nothing of the state but its stamped parts
    /// ([`crate::script::reads::reads_only_stamped_parts`]).
    pub(crate) fn reads_only_stamped_parts(&self) -> bool {
        crate::script::reads::reads_only_stamped_parts(self.expr)
    }

    /// Whether, asked of a space, it reads no piece but those in the space
    /// ([`crate::script::reads::reads_pieces_only_in_space`]).
    pub(crate) fn reads_pieces_only_in_space(&self) -> bool {
        crate::script::reads::reads_pieces_only_in_space(self.expr)
    }

    /// Whether it reads no marker ([`crate::script::reads::reads_no_markers`]).
    pub(crate) fn reads_no_markers(&self) -> bool {
        crate::script::reads::reads_no_markers(self.expr)
    }

    /// Whether it holds in a context (false when it fails).
    pub(crate) fn holds(&self, rules: &Rules, state: &State, ctx: &Context) -> bool {
        hook_memo::condition(rules.content, state, self.script, self.expr, ctx)
    }

    /// The country a part of its chain of `and`s requires of the space it is asked of:
    /// `space.country == c` (or `c == space.country`), `c` an id of the content. Asked of a
    /// space of another country (or of none), that part is false, and so the condition: a
    /// caller asking it of every space of the map asks it only of `c`'s.
    pub(crate) fn country_of_space(&self) -> Option<crate::Id> {
        use crate::script::syntax::{BinaryOp, Binding, Expr, ExprKind};
        let is_space_country = |e: &Expr| match &e.kind {
            ExprKind::Field { target, field } => {
                matches!(target.kind, ExprKind::Name(n) if n.as_str() == "space")
                    && target.found.get().is_none()
                    && field.name.as_str() == "country"
            }
            _ => false,
        };
        let content_id = |e: &Expr| match e.kind {
            ExprKind::Name(n) if matches!(e.found.get(), Some(Binding::Content { .. })) => Some(n),
            _ => None,
        };
        crate::script::reads::conjuncts(self.expr)
            .into_iter()
            .find_map(|part| match &part.kind {
                ExprKind::Binary {
                    op: BinaryOp::Eq,
                    left,
                    right,
                } if is_space_country(left) => content_id(right),
                ExprKind::Binary {
                    op: BinaryOp::Eq,
                    left,
                    right,
                } if is_space_country(right) => content_id(left),
                _ => None,
            })
    }

    /// [`PreparedCondition::holds`] asked through an [`Asker`] (of `state`), whose context's
    /// names change from one question to the next while the work that does not depend on them
    /// (the supply traced) is shared.
    pub(crate) fn asked(&self, rules: &Rules, state: &State, asker: &mut Asker) -> bool {
        hook_memo::condition_asked(rules.content, state, self.script, self.expr, asker)
    }
}

impl<'c> Rules<'c> {
    /// Whether the play rules' condition at `pointer` holds in a context, false when it fails;
    /// none when there is no condition there.
    pub(crate) fn condition(&self, state: &State, pointer: &str, ctx: &Context) -> Option<bool> {
        Some(self.condition_at(pointer)?.holds(self, state, ctx))
    }

    /// The play rules' condition at `pointer`, found once for the many questions a procedure
    /// puts to it (every unit of an impulse, every space a step reaches): each question then
    /// costs neither the two lookups by its pointer's text nor the pointer's making.
    pub(crate) fn condition_at(&self, pointer: &str) -> Option<PreparedCondition<'c>> {
        PreparedCondition::at(self.content, pointer)
    }
}
