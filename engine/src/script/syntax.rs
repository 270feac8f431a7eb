//! The effect language's syntax: tokens, the tree, the parser and the canonical printer.
//!
//! Knows nothing of games: names are plain identifiers here; [`super::check`] resolves them.
//! The parser recovers from errors at statement boundaries, so one pass reports every
//! malformed statement, and always returns a tree (with the statements it could read).
//!
//! Grammar (newlines end statements outside brackets; `//` starts a comment):
//!
//! ```text
//! program  := stmt*
//! stmt     := "let" NAME "=" expr | "if" expr block ("else" (block | if))?
//!           | "for" NAME "in" expr block | expr
//! block    := "{" stmt* "}"
//! expr     := and ("or" and)*        and := not ("and" not)*
//! not      := "not" not | compare    compare := sum (("==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
//! sum      := product (("+" | "-") product)*    product := unary (("*" | "/") unary)*
//! unary    := ("-" | "+") unary | postfix       postfix := primary ("." NAME)*
//! primary  := INT | "true" | "false" | STRING | NAME | NAME "(" args ")" | "(" expr ")"
//!           | "|" NAME "|" expr | "[" (expr ("," expr)*)? "]"
//! args     := (arg ("," arg)*)?          arg := NAME ":" expr | expr
//! ```

pub use super::lex::Tok;
pub(super) use super::lex::{lex, Token};
pub use super::print::{highlight, print, print_expr, Highlight};

/// A byte range within a script's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Range {
    pub start: u32,
    pub end: u32,
}

impl Range {
    pub(super) fn new(start: usize, end: usize) -> Range {
        Range {
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    fn to(self, other: Range) -> Range {
        Range {
            start: self.start,
            end: other.end.max(self.start),
        }
    }
}

/// A problem in a script, at a range of its text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    pub code: &'static str,
    pub message: String,
    pub range: Range,
    pub hint: Option<String>,
}

/// A name with its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ident {
    pub name: crate::id::Id,
    pub range: Range,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub range: Range,
    /// What the checker found a name or a call to be (see [`Found`]).
    pub found: Found,
}

/// What the checker found a name or a call to be, kept on its node so that a run does not
/// look for it again: set once, when the script checks against the content it runs with
/// (a tree that did not check, or a node the checker did not resolve, holds nothing, and the
/// interpreter looks the name up as it runs). It follows from the text and the content, so
/// two trees compare equal whatever their nodes hold.
#[derive(Debug, Clone, Default)]
pub struct Found(std::sync::OnceLock<Binding>);

/// A name or a call as the checker resolved it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binding {
    /// A name that is an id of the content, not a variable nor a name the script's place
    /// gives it; `space` when it is a space of the map.
    Content { space: bool },
    /// A call of the builtin at this place in the language's list of builtins.
    Builtin(u16),
}

impl Found {
    pub fn get(&self) -> Option<Binding> {
        self.0.get().copied()
    }

    /// Keeps what the checker found (the first time it is found: a node checked again finds
    /// the same).
    pub fn set(&self, binding: Binding) {
        let _ = self.0.set(binding);
    }
}

impl PartialEq for Found {
    fn eq(&self, _: &Found) -> bool {
        true
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Text(String),
    /// A name: a variable, or the id of something in the content (resolved by the checker
    /// from what is expected where it stands).
    Name(crate::id::Id),
    Call {
        name: Ident,
        args: Vec<Arg>,
    },
    Field {
        target: Box<Expr>,
        field: Ident,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Lambda {
        param: Ident,
        body: Box<Expr>,
    },
    /// A set written out: `[alexandria, cairo, basra]`.
    List(Vec<Expr>),
    /// A place where an expression could not be read (error recovery).
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    pub name: Option<Ident>,
    pub value: Expr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Add,
    Sub,
    Mul,
    Div,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinaryOp::Or => "or",
            BinaryOp::And => "and",
            BinaryOp::Eq => "==",
            BinaryOp::Ne => "!=",
            BinaryOp::Lt => "<",
            BinaryOp::Le => "<=",
            BinaryOp::Gt => ">",
            BinaryOp::Ge => ">=",
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
        }
    }

    pub(super) fn precedence(self) -> u8 {
        match self {
            BinaryOp::Or => 1,
            BinaryOp::And => 2,
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => 4,
            BinaryOp::Add | BinaryOp::Sub => 5,
            BinaryOp::Mul | BinaryOp::Div => 6,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Stmt {
    Let {
        name: Ident,
        value: Expr,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
    },
    For {
        var: Ident,
        set: Expr,
        body: Vec<Stmt>,
    },
    Expr(Expr),
}

/// A parsed script: its statements and every syntax error found.
#[derive(Debug, Clone, PartialEq)]
pub struct Script {
    pub stmts: Vec<Stmt>,
    pub errors: Vec<ScriptError>,
}

mod parser;

pub(super) use parser::is_keyword;
pub use parser::{parse, parse_expr, MAX_DEPTH};

#[cfg(test)]
mod tests;
