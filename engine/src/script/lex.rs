//! The effect language's tokens and lexer. Split from [`super::syntax`], which parses them.
//!
//! The lexer's work is linear in the text: one token or one error per run of characters (a run
//! of characters the language does not have is one error, however long).

use super::syntax::{Range, ScriptError};

#[derive(Debug, Clone, PartialEq)]
pub enum Tok {
    Int(i64),
    Str(String),
    /// A word (a name, a keyword), interned as it is read: the parser makes names ids.
    Name(crate::id::Id),
    Sym(&'static str),
    Newline,
    Eof,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Token {
    pub(super) tok: Tok,
    pub(super) range: Range,
}

const SYMBOLS: [&str; 21] = [
    "==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "(", ")", "{", "}", "[", "]", ",", ":",
    ".", "|", "=",
];

pub(super) fn lex(text: &str, errors: &mut Vec<ScriptError>) -> Vec<Token> {
    // Room for a token every few bytes, so that a long script's list is not copied as it grows.
    let mut tokens = Vec::with_capacity(text.len() / 4 + 1);
    let bytes = text.as_bytes();
    let mut i = 0;
    // Open brackets: inside `(` and `[` a line break is only white space; inside `{` (a block)
    // it ends a statement.
    let mut open: Vec<u8> = Vec::new();
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        if c == b'\n' {
            if matches!(open.last(), None | Some(b'{')) {
                tokens.push(Token {
                    tok: Tok::Newline,
                    range: Range::new(i, i + 1),
                });
            }
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if c == b'/' && bytes.get(i + 1) == Some(&b'/') {
            i = memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n);
        } else if c == b';' {
            tokens.push(Token {
                tok: Tok::Newline,
                range: Range::new(i, i + 1),
            });
            i += 1;
        } else if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            match text[start..i].parse() {
                Ok(n) => tokens.push(Token {
                    tok: Tok::Int(n),
                    range: Range::new(start, i),
                }),
                Err(_) => errors.push(ScriptError {
                    code: "E0301",
                    message: "number too large".into(),
                    range: Range::new(start, i),
                    hint: None,
                }),
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push(Token {
                tok: Tok::Name(crate::id::Id::new(&text[start..i])),
                range: Range::new(start, i),
            });
        } else if c == b'"' {
            i += 1;
            while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += 1;
            }
            if i < bytes.len() && bytes[i] == b'"' {
                tokens.push(Token {
                    tok: Tok::Str(text[start + 1..i].to_string()),
                    range: Range::new(start, i + 1),
                });
                i += 1;
            } else {
                errors.push(ScriptError {
                    code: "E0301",
                    message: "unterminated text".into(),
                    range: Range::new(start, i),
                    hint: Some("close it with `\"` on the same line".into()),
                });
            }
        } else if let Some(sym) = symbol_at(bytes, i) {
            match sym {
                "(" | "[" | "{" => open.push(c),
                ")" | "]" | "}" => {
                    open.pop();
                }
                _ => {}
            }
            tokens.push(Token {
                tok: Tok::Sym(sym),
                range: Range::new(i, i + sym.len()),
            });
            i += sym.len();
        } else {
            // One error for a whole run of characters the language does not have, so the
            // report stays as long as the text, not its square.
            let ch = text[i..].chars().next().unwrap_or('?');
            let mut end = i + ch.len_utf8();
            let mut count = 1usize;
            // The run goes on over spaces between such characters.
            loop {
                let gap = text[end..].len() - text[end..].trim_start_matches([' ', '\t']).len();
                match text[end + gap..].chars().next() {
                    Some(next) if is_stray(next) => {
                        end += gap + next.len_utf8();
                        count += 1;
                    }
                    _ => break,
                }
            }
            let message = if count == 1 {
                format!("unexpected character `{ch}`")
            } else {
                format!("{count} unexpected characters, the first `{ch}`")
            };
            errors.push(ScriptError {
                code: "E0301",
                message,
                range: Range::new(i, end),
                hint: None,
            });
            i = end;
        }
    }
    tokens.push(Token {
        tok: Tok::Eof,
        range: Range::new(text.len(), text.len()),
    });
    tokens
}

/// The symbol that starts at byte `i`, the longest (`<=` before `<`).
fn symbol_at(bytes: &[u8], i: usize) -> Option<&'static str> {
    let two = bytes.get(i..i + 2);
    SYMBOLS
        .iter()
        .find(|s| match s.len() {
            1 => bytes[i] == s.as_bytes()[0],
            _ => two == Some(s.as_bytes()),
        })
        .copied()
}

/// Whether the lexer rejects `c` wherever it stands (it starts no token and is no white space).
fn is_stray(c: char) -> bool {
    !(c.is_ascii_alphanumeric()
        || c.is_ascii_whitespace()
        || matches!(c, '_' | '"' | ';')
        || SYMBOLS.iter().any(|s| s.starts_with(c)))
}
