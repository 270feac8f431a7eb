//! The text forms of a script's tree: the canonical printer (what `sandtable fmt` and the
//! editor write) and the highlighter (what an editor colours). Split from [`super::syntax`],
//! whose tokens and tree they read.
//!
//! Both recurse at most as deep as the parser lets a tree grow ([`super::syntax::MAX_DEPTH`]).

use std::fmt::Write as _;

use super::syntax::{is_keyword, lex, Expr, ExprKind, Range, Stmt, Tok, UnaryOp};

/// What a piece of script text is, for an editor's colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Highlight {
    Keyword,
    /// A name followed by `(`: a builtin.
    Call,
    Name,
    Number,
    Text,
    Symbol,
    Comment,
}

/// The pieces of a script's text with what each is, in order (white space and characters the
/// lexer rejects are left out).
pub fn highlight(text: &str) -> Vec<(Range, Highlight)> {
    let tokens = lex(text, &mut Vec::new());
    let mut out = Vec::with_capacity(tokens.len());
    let mut gap_start = 0usize;
    let comments = |from: usize, to: usize, out: &mut Vec<(Range, Highlight)>| {
        let mut from = from;
        while let Some(at) = text.get(from..to).and_then(|gap| gap.find("//")) {
            let start = from + at;
            let end = text[start..to].find('\n').map_or(to, |n| start + n);
            out.push((Range::new(start, end), Highlight::Comment));
            from = end;
        }
    };
    for (i, t) in tokens.iter().enumerate() {
        let (start, end) = (t.range.start as usize, t.range.end as usize);
        comments(gap_start, start, &mut out);
        gap_start = gap_start.max(end);
        let class = match &t.tok {
            Tok::Int(_) => Highlight::Number,
            Tok::Str(_) => Highlight::Text,
            Tok::Name(n) if is_keyword(n) => Highlight::Keyword,
            Tok::Name(_) if matches!(tokens.get(i + 1), Some(n) if n.tok == Tok::Sym("(")) => {
                Highlight::Call
            }
            Tok::Name(_) => Highlight::Name,
            Tok::Sym(_) => Highlight::Symbol,
            Tok::Newline | Tok::Eof => continue,
        };
        out.push((t.range, class));
    }
    out
}

// ---------------------------------------------------------------------------------------------
// The canonical printer
// ---------------------------------------------------------------------------------------------

/// The canonical text of a script: one statement per line, blocks indented by four spaces,
/// single spaces around binary operators, the fewest parentheses that keep the meaning.
pub fn print(stmts: &[Stmt]) -> String {
    let mut out = String::new();
    print_stmts(stmts, 0, &mut out);
    out
}

/// The canonical text of one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut out = String::new();
    expr_text(e, 0, &mut out);
    out
}

fn print_stmts(stmts: &[Stmt], indent: usize, out: &mut String) {
    for s in stmts {
        out.push_str(&" ".repeat(indent));
        print_stmt(s, indent, out);
        out.push('\n');
    }
}

fn print_block(stmts: &[Stmt], indent: usize, out: &mut String) {
    out.push_str("{\n");
    print_stmts(stmts, indent + 4, out);
    out.push_str(&" ".repeat(indent));
    out.push('}');
}

fn print_stmt(s: &Stmt, indent: usize, out: &mut String) {
    match s {
        Stmt::Let { name, value } => {
            let _ = write!(out, "let {} = ", name.name);
            expr_text(value, 0, out);
        }
        Stmt::If {
            cond,
            then,
            otherwise,
        } => {
            out.push_str("if ");
            expr_text(cond, 0, out);
            out.push(' ');
            print_block(then, indent, out);
            match otherwise.as_slice() {
                [] => {}
                [nested @ Stmt::If { .. }] => {
                    out.push_str(" else ");
                    print_stmt(nested, indent, out);
                }
                other => {
                    out.push_str(" else ");
                    print_block(other, indent, out);
                }
            }
        }
        Stmt::For { var, set, body } => {
            let _ = write!(out, "for {} in ", var.name);
            expr_text(set, 0, out);
            out.push(' ');
            print_block(body, indent, out);
        }
        Stmt::Expr(e) => expr_text(e, 0, out),
    }
}

/// Writes `e`, parenthesised if its precedence is below `min`.
fn expr_text(e: &Expr, min: u8, out: &mut String) {
    match &e.kind {
        ExprKind::Int(n) => {
            let _ = write!(out, "{n}");
        }
        ExprKind::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        ExprKind::Text(s) => {
            let _ = write!(out, "\"{s}\"");
        }
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Error => out.push_str("<error>"),
        ExprKind::Call { name, args } => {
            out.push_str(&name.name);
            out.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Some(n) = &a.name {
                    let _ = write!(out, "{}: ", n.name);
                }
                expr_text(&a.value, 0, out);
            }
            out.push(')');
        }
        ExprKind::Field { target, field } => {
            expr_text(target, 9, out);
            let _ = write!(out, ".{}", field.name);
        }
        ExprKind::Unary { op, operand } => {
            let (text, prec) = match op {
                UnaryOp::Not => ("not ", 3),
                UnaryOp::Neg => ("-", 7),
                UnaryOp::Plus => ("+", 7),
            };
            wrap(prec < min, out, |out| {
                out.push_str(text);
                expr_text(operand, prec, out);
            });
        }
        ExprKind::Binary { op, left, right } => {
            let prec = op.precedence();
            // Comparisons do not chain, so a comparison's left operand is bracketed too.
            let left_min = if prec == 4 { prec + 1 } else { prec };
            wrap(prec < min, out, |out| {
                expr_text(left, left_min, out);
                let _ = write!(out, " {} ", op.symbol());
                expr_text(right, prec + 1, out);
            });
        }
        ExprKind::List(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                expr_text(item, 0, out);
            }
            out.push(']');
        }
        ExprKind::Lambda { param, body } => {
            wrap(min > 0, out, |out| {
                let _ = write!(out, "|{}| ", param.name);
                expr_text(body, 0, out);
            });
        }
    }
}

fn wrap(paren: bool, out: &mut String, f: impl FnOnce(&mut String)) {
    if paren {
        out.push('(');
    }
    f(out);
    if paren {
        out.push(')');
    }
}
