//! Conditions asked of every space through one evaluation: [`Asker`]. Split from [`super`],
//! the interpreter.

use std::borrow::Cow;

use super::{Context, Eval};
use crate::content::Content;
use crate::script::syntax::{BinaryOp, Expr, ExprKind, ScriptError, UnaryOp};
use crate::state::State;

/// Conditions asked one after another of the same state, in a context where only `space`
/// changes between questions (a play rule's condition asked of every space): what an
/// evaluation works out from the state alone, the supply traced, is shared by all of them,
/// and so is the truth of each part of a condition that does not name `space` (each operand
/// of its `and`s, `or`s and `not`s: `controls(allied, kuibishev)` in a test of every space),
/// asked at the first question that reaches it. Each question has the step budget of its
/// own.
pub struct Asker<'a> {
    e: Eval<'a>,
    /// The parts of the conditions asked, by address: whether each names `space`, and the
    /// truth of one that does not once it was asked.
    parts: Vec<(*const Expr, Part)>,
}

/// A part of a condition an [`Asker`] asks (see [`Asker::parts`]).
#[derive(Clone, Copy)]
enum Part {
    /// It names `space`: asked at every question.
    Varies,
    /// It does not: asked once (none until then, or while it cannot be evaluated).
    Fixed(Option<bool>),
}

impl<'a> Asker<'a> {
    pub fn new(content: &'a Content, state: &'a State, ctx: Context) -> Asker<'a> {
        Asker {
            e: Eval::with_context(content, state, Cow::Owned(ctx), &[]),
            parts: Vec::new(),
        }
    }

    pub fn ctx(&self) -> &Context {
        &self.e.ctx
    }

    /// The space the next question is about: the one name that changes between questions.
    pub fn set_space(&mut self, space: crate::id::Id) {
        self.e.ctx.to_mut().space = Some(space);
    }

    /// Whether `expr` holds in the context as it is now.
    pub fn condition(&mut self, expr: &Expr) -> Result<bool, ScriptError> {
        self.e.steps = 0;
        self.holds(expr)
    }

    /// [`Self::condition`] through the condition's `and`s, `or`s and `not`s, as the
    /// interpreter evaluates them (left first, the right only when it decides), its parts
    /// that do not name `space` asked once.
    fn holds(&mut self, e: &Expr) -> Result<bool, ScriptError> {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                left,
                right,
            } => Ok(self.holds(left)? && self.holds(right)?),
            ExprKind::Binary {
                op: BinaryOp::Or,
                left,
                right,
            } => Ok(self.holds(left)? || self.holds(right)?),
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => Ok(!self.holds(operand)?),
            _ => self.part(e),
        }
    }

    /// An operand of a condition's `and`s, `or`s and `not`s.
    fn part(&mut self, e: &Expr) -> Result<bool, ScriptError> {
        let at = std::ptr::from_ref(e);
        let found = self.parts.iter().position(|(p, _)| *p == at);
        let i = found.unwrap_or_else(|| {
            static SPACE: std::sync::OnceLock<crate::id::Id> = std::sync::OnceLock::new();
            let space = *SPACE.get_or_init(|| crate::id::Id::new("space"));
            let part = if crate::script::reads::names_any(e, &[space]) {
                Part::Varies
            } else {
                Part::Fixed(None)
            };
            self.parts.push((at, part));
            self.parts.len() - 1
        });
        match self.parts[i].1 {
            Part::Varies => self.e.condition(e),
            Part::Fixed(Some(known)) => Ok(known),
            Part::Fixed(None) => {
                let holds = self.e.condition(e)?;
                self.parts[i].1 = Part::Fixed(Some(holds));
                Ok(holds)
            }
        }
    }
}
