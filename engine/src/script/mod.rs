//! The effect language: card effects, event conditions and combat-card modifiers, written as
//! text in content files and checked when the content loads.
//!
//! Stages, each its own module: `lex` (tokens), [`syntax`] (tree, parser with error recovery;
//! knows nothing of games), [`print`](mod@print) (canonical printer, highlighter), [`types`] (the types
//! and every builtin's signature), [`check`] (names resolved against the content, types
//! checked), [`eval`] (the interpreter, with a step budget that charges builtins by their work,
//! checked arithmetic, and decisions that suspend and resume from recorded answers).
//!
//! Invariant: no input makes a stage panic, overflow the stack or run for long. The parser
//! bounds the height of every tree at [`syntax::MAX_DEPTH`] (E0307 otherwise), so everything
//! that walks a tree recurses at most that deep; a run stops at its step budget (E0310) or at
//! an arithmetic overflow or division by zero (E0311).
//!
//! Invariant: a script that checked refers only to ids the content declares and calls builtins
//! with arguments of the right types; the interpreter can still fail at run time (choosing from
//! an empty set, a reinforcement with no piece left), and then reports a runtime error with the
//! place in the script and leaves the state as it was.

pub mod check;
pub mod eval;
mod lex;
pub mod print;
pub mod reads;
pub mod syntax;
pub mod types;

use std::collections::BTreeMap;

use syntax::{Expr, Stmt};

/// The parsed scripts of one card.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CardScripts {
    pub playable: Option<Expr>,
    pub effect: Option<Vec<Stmt>>,
    pub combat: Option<Vec<Stmt>>,
}

/// Every card's scripts, by card id.
pub type Scripts = BTreeMap<String, CardScripts>;

/// The parsed scripts of the sequence of play in `game.ron`: a Script step's by (phase, step);
/// a free action's condition and effect by (phase, step, action).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SequenceScripts {
    pub steps: BTreeMap<(usize, usize), Vec<Stmt>>,
    pub actions: BTreeMap<(usize, usize, usize), FreeActionScripts>,
    /// The conditions and effects of the play rules, by the JSON pointer of their place in
    /// `game.ron` (`/play/entrench/playable`).
    pub conditions: BTreeMap<String, Expr>,
    pub effects: BTreeMap<String, Vec<Stmt>>,
    /// The hooks' scripts, in the order of `game.ron`'s `hooks`.
    pub hooks: Vec<HookScripts>,
}

/// A hook's scripts, parsed: its condition, and its number, condition or script.
#[derive(Debug, Clone, PartialEq)]
pub struct HookScripts {
    /// Its place in `game.ron`'s `hooks`.
    pub index: usize,
    pub at: crate::model::HookPoint,
    pub when: Option<Expr>,
    /// A modifier's number, or a `May` condition.
    pub value: Option<Expr>,
    /// An after-effect's script.
    pub run: Vec<Stmt>,
}

/// A free action's condition (if it has one) and effect.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FreeActionScripts {
    pub playable: Option<Expr>,
    pub effect: Vec<Stmt>,
}
