//! The parser: tokens to a tree with ranges, recovering at statement boundaries so one pass
//! reports every error, its recursion and every tree's height bounded by [`MAX_DEPTH`].

use super::*;

/// Parses a script. Always returns a tree; `errors` lists every problem found.
pub fn parse(text: &str) -> Script {
    let mut errors = Vec::new();
    let tokens = lex(text, &mut errors);
    let mut p = Parser {
        tokens,
        pos: 0,
        errors,
        depth: 0,
        height: 0,
        too_deep: false,
    };
    let stmts = p.stmts(true);
    Script {
        stmts,
        errors: p.errors,
    }
}

/// Parses a single expression (a condition), reporting trailing statements as errors.
pub fn parse_expr(text: &str) -> (Option<Expr>, Vec<ScriptError>) {
    let script = parse(text);
    let mut errors = script.errors;
    let mut stmts = script.stmts.into_iter();
    let first = match stmts.next() {
        Some(Stmt::Expr(e)) => Some(e),
        Some(_) => {
            errors.push(ScriptError {
                code: "E0302",
                message: "a condition is one expression, not a statement".into(),
                range: Range::new(0, text.len()),
                hint: Some("write the condition alone, for example `played(us_build_up)`".into()),
            });
            None
        }
        None => None,
    };
    if stmts.next().is_some() {
        errors.push(ScriptError {
            code: "E0302",
            message: "a condition is one expression; combine several with `and`".into(),
            range: Range::new(0, text.len()),
            hint: None,
        });
    }
    (first, errors)
}

pub(super) struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    errors: Vec<ScriptError>,
    /// Blocks and expressions open on the parser's own call stack.
    depth: usize,
    /// The height of the expression tree last returned by an expression rule.
    height: usize,
    /// Set when a statement went past [`MAX_DEPTH`]: every rule returns at once until the
    /// statement loop recovers, so the parser neither recurses nor loops any further in it.
    too_deep: bool,
}

/// How deeply blocks and expressions may nest. It bounds both the parser's recursion and the
/// height of every tree it returns (a chain `1 + 1 + ...` or `a.b.c...` is as tall as it is
/// long), so the checker, the printer, the interpreter and `Drop` recurse at most this deep.
pub const MAX_DEPTH: usize = 64;

impl Parser {
    fn peek(&self) -> &Tok {
        &self.tokens[self.pos].tok
    }

    fn range(&self) -> Range {
        self.tokens[self.pos].range
    }

    fn prev_range(&self) -> Range {
        self.tokens[self.pos.saturating_sub(1)].range
    }

    /// Moves past the token read, giving its place.
    fn bump(&mut self) -> Range {
        let range = self.tokens[self.pos].range;
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        range
    }

    /// Moves past a text token, taking its text (the token is not read again).
    fn take_text(&mut self) -> String {
        let text = match &mut self.tokens[self.pos].tok {
            Tok::Str(s) => std::mem::take(s),
            _ => String::new(),
        };
        self.bump();
        text
    }

    fn is_sym(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Sym(x) if *x == s)
    }

    fn is_name(&self, s: &str) -> bool {
        matches!(self.peek(), Tok::Name(x) if x == s)
    }

    fn skip_newlines(&mut self) {
        while *self.peek() == Tok::Newline {
            self.bump();
        }
    }

    fn error(&mut self, message: impl Into<String>, hint: Option<&str>) {
        let range = self.range();
        self.errors.push(ScriptError {
            code: "E0302",
            message: message.into(),
            range,
            hint: hint.map(str::to_string),
        });
    }

    /// Reports that the statement nests deeper than [`MAX_DEPTH`], once, and stops reading it.
    fn too_deep(&mut self, range: Range) -> Expr {
        if !self.too_deep {
            self.errors.push(ScriptError {
                code: "E0307",
                message: format!("this nests more than {MAX_DEPTH} deep"),
                range,
                hint: Some(
                    "split the expression with `let`, or the blocks into several statements".into(),
                ),
            });
            self.too_deep = true;
        }
        self.height = 1;
        Expr {
            found: Default::default(),
            kind: ExprKind::Error,
            range,
        }
    }

    /// Records the height of a node over children of height `below`; false when too tall.
    fn grow(&mut self, below: usize) -> bool {
        self.height = below + 1;
        self.height <= MAX_DEPTH
    }

    fn describe(&self) -> String {
        match self.peek() {
            Tok::Int(n) => format!("`{n}`"),
            Tok::Str(_) => "text".into(),
            Tok::Name(n) => format!("`{n}`"),
            Tok::Sym(s) => format!("`{s}`"),
            Tok::Newline => "the end of the line".into(),
            Tok::Eof => "the end of the script".into(),
        }
    }

    fn expect_sym(&mut self, s: &str) -> bool {
        if self.is_sym(s) {
            self.bump();
            true
        } else {
            let found = self.describe();
            self.error(format!("expected `{s}`, found {found}"), None);
            false
        }
    }

    fn ident(&mut self) -> Option<Ident> {
        match *self.peek() {
            Tok::Name(name) if !is_keyword(&name) => {
                let range = self.bump();
                Some(Ident { name, range })
            }
            _ => {
                let found = self.describe();
                self.error(format!("expected a name, found {found}"), None);
                None
            }
        }
    }

    /// Skips to the end of the current statement (error recovery).
    fn recover(&mut self) {
        self.too_deep = false;
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Newline if depth == 0 => return,
                Tok::Sym("(" | "{" | "[") => depth += 1,
                Tok::Sym(")" | "]") => depth = depth.saturating_sub(1),
                Tok::Sym("}") => {
                    if depth == 0 {
                        return;
                    }
                    depth -= 1;
                }
                _ => {}
            }
            self.bump();
        }
    }

    /// Skips the rest of the top-level statement that began at token `start`, past every
    /// bracket it opened (recovery from a statement nested too deeply).
    fn skip_statement(&mut self, start: usize) {
        self.too_deep = false;
        let mut open = 0usize;
        for t in &self.tokens[start..self.pos] {
            match t.tok {
                Tok::Sym("(" | "{" | "[") => open += 1,
                Tok::Sym(")" | "]" | "}") => open = open.saturating_sub(1),
                _ => {}
            }
        }
        loop {
            match self.peek() {
                Tok::Eof => return,
                Tok::Newline if open == 0 => return,
                Tok::Sym("(" | "{" | "[") => open += 1,
                Tok::Sym(")" | "]" | "}") => open = open.saturating_sub(1),
                _ => {}
            }
            self.bump();
        }
    }

    fn stmts(&mut self, top: bool) -> Vec<Stmt> {
        let mut stmts = Vec::new();
        loop {
            self.skip_newlines();
            match self.peek() {
                Tok::Eof => {
                    if !top {
                        self.error("expected `}` to close the block", None);
                    }
                    return stmts;
                }
                Tok::Sym("}") if !top => return stmts,
                Tok::Sym("}") => {
                    // One error for a run of them.
                    self.error("`}` without a matching `{`", None);
                    while matches!(self.peek(), Tok::Sym("}")) {
                        self.bump();
                    }
                    continue;
                }
                _ => {}
            }
            let errors_before = self.errors.len();
            let stmt_start = self.pos;
            if let Some(stmt) = self.stmt() {
                stmts.push(stmt);
            }
            if self.too_deep {
                if !top {
                    // Unwind to the statement loop at the top, which recovers.
                    return stmts;
                }
                self.skip_statement(stmt_start);
                continue;
            }
            if self.errors.len() > errors_before {
                self.recover();
                continue;
            }
            match self.peek() {
                Tok::Newline | Tok::Eof => {}
                Tok::Sym("}") => {}
                _ => {
                    let found = self.describe();
                    self.error(
                        format!("expected the end of the statement, found {found}"),
                        Some("put each statement on a line of its own, or separate them with `;`"),
                    );
                    self.recover();
                }
            }
        }
    }

    fn block(&mut self) -> Vec<Stmt> {
        if self.too_deep {
            return Vec::new();
        }
        self.skip_newlines();
        if !self.expect_sym("{") {
            return Vec::new();
        }
        self.depth += 1;
        let stmts = if self.depth > MAX_DEPTH {
            self.too_deep(self.prev_range());
            Vec::new()
        } else {
            self.stmts(false)
        };
        self.depth -= 1;
        if self.too_deep {
            return stmts;
        }
        self.expect_sym("}");
        stmts
    }

    fn stmt(&mut self) -> Option<Stmt> {
        if self.is_name("let") {
            self.bump();
            let name = self.ident()?;
            if !self.expect_sym("=") {
                return None;
            }
            let value = self.expr();
            return Some(Stmt::Let { name, value });
        }
        if self.is_name("if") {
            return Some(self.if_stmt());
        }
        if self.is_name("for") {
            self.bump();
            let var = self.ident()?;
            if !self.is_name("in") {
                let found = self.describe();
                self.error(format!("expected `in`, found {found}"), None);
                return None;
            }
            self.bump();
            let set = self.expr();
            let body = self.block();
            return Some(Stmt::For { var, set, body });
        }
        Some(Stmt::Expr(self.expr()))
    }

    fn if_stmt(&mut self) -> Stmt {
        self.bump(); // if
        let cond = self.expr();
        let then = self.block();
        let save = self.pos;
        self.skip_newlines();
        let otherwise = if self.too_deep {
            Vec::new()
        } else if self.is_name("else") {
            self.bump();
            if self.is_name("if") {
                // `else if` nests like a block.
                self.depth += 1;
                let nested = if self.depth > MAX_DEPTH {
                    self.too_deep(self.range());
                    Vec::new()
                } else {
                    vec![self.if_stmt()]
                };
                self.depth -= 1;
                nested
            } else {
                self.block()
            }
        } else {
            self.pos = save;
            Vec::new()
        };
        Stmt::If {
            cond,
            then,
            otherwise,
        }
    }

    fn expr(&mut self) -> Expr {
        if self.too_deep {
            return self.too_deep(self.range());
        }
        self.depth += 1;
        let e = if self.depth > MAX_DEPTH {
            self.too_deep(self.range())
        } else {
            self.binary(1)
        };
        self.depth -= 1;
        e
    }

    fn binary_op(&self) -> Option<BinaryOp> {
        Some(match self.peek() {
            Tok::Name(n) if n == "or" => BinaryOp::Or,
            Tok::Name(n) if n == "and" => BinaryOp::And,
            Tok::Sym("==") => BinaryOp::Eq,
            Tok::Sym("!=") => BinaryOp::Ne,
            Tok::Sym("<") => BinaryOp::Lt,
            Tok::Sym("<=") => BinaryOp::Le,
            Tok::Sym(">") => BinaryOp::Gt,
            Tok::Sym(">=") => BinaryOp::Ge,
            Tok::Sym("+") => BinaryOp::Add,
            Tok::Sym("-") => BinaryOp::Sub,
            Tok::Sym("*") => BinaryOp::Mul,
            Tok::Sym("/") => BinaryOp::Div,
            _ => return None,
        })
    }

    /// Precedence climbing; `not` sits between `and` and comparisons.
    fn binary(&mut self, min: u8) -> Expr {
        if self.too_deep {
            return self.too_deep(self.range());
        }
        let mut left = if min <= 3 && self.is_name("not") {
            let start = self.bump();
            self.depth += 1;
            let operand = if self.depth > MAX_DEPTH {
                self.too_deep(start)
            } else {
                self.binary(3)
            };
            self.depth -= 1;
            if self.too_deep || !self.grow(self.height) {
                return self.too_deep(start);
            }
            let range = start.to(operand.range);
            Expr {
                found: Default::default(),
                kind: ExprKind::Unary {
                    op: UnaryOp::Not,
                    operand: Box::new(operand),
                },
                range,
            }
        } else {
            self.unary()
        };
        while let Some(op) = self.binary_op() {
            if self.too_deep {
                return self.too_deep(self.range());
            }
            let prec = op.precedence();
            if prec < min {
                break;
            }
            let left_height = self.height;
            let op_range = self.bump();
            self.skip_newlines();
            let right = self.binary(prec + 1);
            if self.too_deep || !self.grow(left_height.max(self.height)) {
                return self.too_deep(op_range);
            }
            let range = left.range.to(right.range);
            left = Expr {
                found: Default::default(),
                kind: ExprKind::Binary {
                    op,
                    left: Box::new(left),
                    right: Box::new(right),
                },
                range,
            };
            if matches!(
                op,
                BinaryOp::Eq
                    | BinaryOp::Ne
                    | BinaryOp::Lt
                    | BinaryOp::Le
                    | BinaryOp::Gt
                    | BinaryOp::Ge
            ) && matches!(self.binary_op(), Some(next) if next.precedence() == 4)
            {
                self.error("comparisons do not chain; join them with `and`", None);
            }
        }
        left
    }

    fn unary(&mut self) -> Expr {
        let op = match self.peek() {
            Tok::Sym("-") => UnaryOp::Neg,
            Tok::Sym("+") => UnaryOp::Plus,
            _ => return self.postfix(),
        };
        let start = self.bump();
        self.depth += 1;
        let operand = if self.depth > MAX_DEPTH {
            self.too_deep(start)
        } else {
            self.unary()
        };
        self.depth -= 1;
        if self.too_deep || !self.grow(self.height) {
            return self.too_deep(start);
        }
        let range = start.to(operand.range);
        Expr {
            found: Default::default(),
            kind: ExprKind::Unary {
                op,
                operand: Box::new(operand),
            },
            range,
        }
    }

    fn postfix(&mut self) -> Expr {
        let mut e = self.primary();
        while self.is_sym(".") && !self.too_deep {
            let dot = self.bump();
            if !self.grow(self.height) {
                return self.too_deep(dot);
            }
            let Some(field) = self.ident() else { break };
            let range = e.range.to(field.range);
            e = Expr {
                found: Default::default(),
                kind: ExprKind::Field {
                    target: Box::new(e),
                    field,
                },
                range,
            };
        }
        e
    }

    /// A value; sets [`Parser::height`] to the height of the tree it returns.
    fn primary(&mut self) -> Expr {
        let start = self.range();
        if self.too_deep {
            return self.too_deep(start);
        }
        // Leaves; the rules below raise it over their children.
        self.height = 1;
        let kind = match *self.peek() {
            Tok::Int(n) => {
                self.bump();
                ExprKind::Int(n)
            }
            Tok::Str(_) => ExprKind::Text(self.take_text()),
            Tok::Name(n) if n == "true" || n == "false" => {
                self.bump();
                ExprKind::Bool(n == "true")
            }
            Tok::Name(n) if !is_keyword(&n) => {
                let name = Ident {
                    name: n,
                    range: self.bump(),
                };
                if self.is_sym("(") {
                    self.bump();
                    let (args, below) = self.args();
                    if self.too_deep || !self.grow(below) {
                        return self.too_deep(start);
                    }
                    ExprKind::Call { name, args }
                } else {
                    ExprKind::Name(name.name)
                }
            }
            Tok::Sym("(") => {
                self.bump();
                self.skip_newlines();
                let inner = self.expr();
                if self.too_deep {
                    return inner;
                }
                self.skip_newlines();
                self.expect_sym(")");
                return Expr {
                    found: Default::default(),
                    kind: inner.kind,
                    range: start.to(self.prev_range()),
                };
            }
            Tok::Sym("[") => {
                self.bump();
                let mut items = Vec::new();
                let mut below = 0;
                loop {
                    self.skip_newlines();
                    if self.is_sym("]") {
                        self.bump();
                        break;
                    }
                    items.push(self.expr());
                    if self.too_deep {
                        return self.too_deep(start);
                    }
                    below = below.max(self.height);
                    self.skip_newlines();
                    if self.is_sym(",") {
                        self.bump();
                    } else if self.is_sym("]") {
                        self.bump();
                        break;
                    } else {
                        let found = self.describe();
                        self.error(format!("expected `,` or `]`, found {found}"), None);
                        self.height = 1;
                        return Expr {
                            found: Default::default(),
                            kind: ExprKind::Error,
                            range: start,
                        };
                    }
                }
                if !self.grow(below) {
                    return self.too_deep(start);
                }
                ExprKind::List(items)
            }
            Tok::Sym("|") => {
                self.bump();
                let Some(param) = self.ident() else {
                    return Expr {
                        found: Default::default(),
                        kind: ExprKind::Error,
                        range: start,
                    };
                };
                self.expect_sym("|");
                let body = self.expr();
                if self.too_deep || !self.grow(self.height) {
                    return self.too_deep(start);
                }
                let range = start.to(body.range);
                return Expr {
                    found: Default::default(),
                    kind: ExprKind::Lambda {
                        param,
                        body: Box::new(body),
                    },
                    range,
                };
            }
            _ => {
                let found = self.describe();
                self.error(format!("expected a value, found {found}"), None);
                return Expr {
                    found: Default::default(),
                    kind: ExprKind::Error,
                    range: start,
                };
            }
        };
        Expr {
            found: Default::default(),
            kind,
            range: start.to(self.prev_range()),
        }
    }

    /// A call's arguments, with the height of the tallest.
    fn args(&mut self) -> (Vec<Arg>, usize) {
        let mut args = Vec::new();
        let mut below = 0;
        loop {
            self.skip_newlines();
            if self.is_sym(")") {
                self.bump();
                return (args, below);
            }
            // An argument's name may be any word, keywords included (`in: moscow`).
            let named = matches!(self.peek(), Tok::Name(_))
                && matches!(
                    self.tokens.get(self.pos + 1).map(|t| &t.tok),
                    Some(Tok::Sym(":"))
                );
            let name = match *self.peek() {
                Tok::Name(name) if named => {
                    let range = self.bump();
                    self.bump(); // :
                    Some(Ident { name, range })
                }
                _ => None,
            };
            let value = self.expr();
            if self.too_deep {
                return (args, below);
            }
            below = below.max(self.height);
            let is_error = value.kind == ExprKind::Error;
            args.push(Arg { name, value });
            self.skip_newlines();
            if self.is_sym(",") {
                self.bump();
            } else if self.is_sym(")") {
                self.bump();
                return (args, below);
            } else {
                if !is_error {
                    let found = self.describe();
                    self.error(format!("expected `,` or `)`, found {found}"), None);
                }
                return (args, below);
            }
        }
    }
}

pub(in crate::script) fn is_keyword(name: &str) -> bool {
    matches!(
        name,
        "let" | "if" | "else" | "for" | "in" | "and" | "or" | "not" | "true" | "false"
    )
}
