//! Diagnostics: the one type every stage reports problems with, and the one place they are
//! rendered.
//!
//! A [`Span`] is a small `Copy` value (file and byte range) stored wherever a problem may be
//! found; line and column are computed only when a diagnostic is rendered, from the
//! [`Sources`] that own the text. Rendering is the caller's business (the CLI prints, the
//! editor lists); the engine never prints.

/// Index of a file in [`Sources`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end.max(start) as u32,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Where a diagnostic points: a span in a loaded file, or a whole path that could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Span(Span),
    Path(String),
}

/// One problem: what, where, and how to fix it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short stable code, such as `E0201`; see `docs/diagnostics.md`.
    pub code: &'static str,
    pub message: String,
    pub place: Place,
    pub hints: Vec<String>,
}

impl Diagnostic {
    pub fn error(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            place: Place::Span(span),
            hints: Vec::new(),
        }
    }

    pub fn warning(code: &'static str, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    pub fn at_path(
        code: &'static str,
        path: impl Into<String>,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            place: Place::Path(path.into()),
            hints: Vec::new(),
        }
    }

    pub fn warn(mut self) -> Diagnostic {
        self.severity = Severity::Warning;
        self
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A loaded source file: its path as shown to the designer, and its text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    pub path: String,
    pub text: String,
    /// Where each line starts, and whether the text is ASCII (where a column is a byte count,
    /// found at once, not by counting the characters of a long line for every diagnostic on
    /// it): worked out when a place is first asked for.
    lines: std::sync::OnceLock<(Vec<usize>, bool)>,
}

impl SourceFile {
    pub fn new(path: String, text: String) -> SourceFile {
        SourceFile {
            path,
            text,
            lines: std::sync::OnceLock::new(),
        }
    }

    fn lines(&self) -> (&[usize], bool) {
        let (starts, ascii) = self.lines.get_or_init(|| {
            let mut starts = vec![0];
            starts.extend(self.text.match_indices('\n').map(|(i, _)| i + 1));
            (starts, self.text.is_ascii())
        });
        (starts, *ascii)
    }

    /// One-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let (line_starts, ascii) = self.lines();
        let line = line_starts.partition_point(|&start| start <= offset) - 1;
        let start = line_starts[line];
        if ascii {
            return (line + 1, offset - start + 1);
        }
        let col = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line + 1, col + 1)
    }

    /// The text of a one-based line, without its line break.
    pub fn line_text(&self, line: usize) -> &str {
        let (line_starts, _) = self.lines();
        let start = line_starts
            .get(line - 1)
            .copied()
            .unwrap_or(self.text.len());
        let end = line_starts
            .get(line)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        self.text
            .get(start..end.max(start))
            .unwrap_or("")
            .trim_end_matches('\r')
    }
}

/// All the files of one load, addressed by [`FileId`].
#[derive(Debug, Clone, Default)]
pub struct Sources {
    files: Vec<SourceFile>,
}

impl Sources {
    pub fn add(&mut self, path: String, text: String) -> FileId {
        self.files.push(SourceFile::new(path, text));
        FileId(self.files.len() as u32 - 1)
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn iter(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// Path, line and column where a diagnostic points.
    pub fn locate(&self, place: &Place) -> (String, usize, usize) {
        match place {
            Place::Span(span) => {
                let file = self.get(span.file);
                let (line, col) = file.line_col(span.start as usize);
                (file.path.clone(), line, col)
            }
            Place::Path(path) => (path.clone(), 1, 1),
        }
    }

    /// The one-line form `path:line:col: error[CODE]: message`.
    pub fn render_line(&self, diag: &Diagnostic) -> String {
        let (path, line, col) = self.locate(&diag.place);
        format!(
            "{path}:{line}:{col}: {}[{}]: {}",
            diag.severity.as_str(),
            diag.code,
            clip(&diag.message, MAX_MESSAGE)
        )
    }

    /// The one-line form followed by the source line with the place underlined, and hints,
    /// drawn by annotate-snippets (as rustc draws its diagnostics) in plain text; a long line is
    /// cut to an [`EXCERPT`] around the place.
    pub fn render(&self, diag: &Diagnostic) -> String {
        use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};
        let mut out = self.render_line(diag);
        let hints: Vec<std::borrow::Cow<'_, str>> =
            diag.hints.iter().map(|h| clip(h, MAX_MESSAGE)).collect();
        let level = match diag.severity {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARNING,
        };
        let hint =
            |h: &std::borrow::Cow<'_, str>| Level::HELP.with_name("hint").message(h.to_string());
        let group = match &diag.place {
            Place::Span(span) => {
                let file = self.get(span.file);
                let (line, col) = file.line_col(span.start as usize);
                let (end_line, end_col) = file.line_col(span.end as usize);
                let width = if end_line == line && end_col > col {
                    end_col - col
                } else {
                    1
                };
                let (text, col, width) = excerpt(file.line_text(line), col - 1, width);
                let byte = |chars: usize| {
                    text.char_indices()
                        .nth(chars)
                        .map_or(text.len(), |(b, _)| b)
                };
                let (start, end) = (byte(col), byte(col + width.min(80)));
                let snippet = Snippet::source(text.clone())
                    .line_start(line)
                    .fold(false)
                    .annotation(AnnotationKind::Primary.span(start..end.max(start)));
                let mut group = Group::with_level(level).element(snippet);
                for h in &hints {
                    group = group.element(hint(h));
                }
                group
            }
            Place::Path(_) if !hints.is_empty() => {
                let mut group = Group::with_level(level);
                for h in &hints {
                    group = group.element(hint(h));
                }
                group
            }
            Place::Path(_) => return out,
        };
        let drawn = Renderer::plain().render(&[group]);
        let drawn = drawn.trim_end_matches('\n');
        if !drawn.is_empty() {
            out.push('\n');
            out.push_str(drawn);
        }
        out
    }

    /// Diagnostics as JSON objects, for tools.
    pub fn to_json(&self, diags: &[Diagnostic]) -> serde_json::Value {
        serde_json::Value::Array(
            diags
                .iter()
                .map(|d| {
                    let (path, line, col) = self.locate(&d.place);
                    serde_json::json!({
                        "severity": d.severity.as_str(),
                        "code": d.code,
                        "message": d.message,
                        "path": path,
                        "line": line,
                        "column": col,
                        "hints": d.hints,
                    })
                })
                .collect(),
        )
    }
}

/// Sorts diagnostics by file, position and code, so output is stable.
pub fn sort(diags: &mut [Diagnostic]) {
    fn key(d: &Diagnostic) -> (u8, String, u32, u32, &'static str) {
        match &d.place {
            Place::Path(p) => (0, p.clone(), 0, 0, d.code),
            Place::Span(s) => (1, String::new(), s.file.0, s.start, d.code),
        }
    }
    diags.sort_by_key(key);
}

/// Most characters of a source line the renderer shows: a longer line is cut to a window
/// around the place, with `…` on each cut side.
pub const EXCERPT: usize = 120;

/// Most characters of a message or hint the renderer shows (an id may be megabytes long).
const MAX_MESSAGE: usize = 400;

/// `text` cut to at most [`EXCERPT`] characters around the zero-based character column `col`;
/// returns the excerpt, the column of `col` in it and the width of the underline left in it.
fn excerpt(text: &str, col: usize, width: usize) -> (String, usize, usize) {
    let len = text.chars().count();
    if len <= EXCERPT {
        return (text.to_string(), col, width);
    }
    let col = col.min(len);
    let mut start = col.saturating_sub(EXCERPT / 3);
    let end = (start + EXCERPT).min(len);
    start = start.min(end.saturating_sub(EXCERPT));
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    out.extend(text.chars().skip(start).take(end - start));
    if end < len {
        out.push('…');
    }
    let at = col - start + usize::from(start > 0);
    (out, at, width.min(end.saturating_sub(col)).max(1))
}

/// `text` cut to `max` characters, with `…` for the rest.
fn clip(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &text[..at]).into(),
        None => text.into(),
    }
}

/// Longest name the did-you-mean hint considers: a longer one is no typo of an id.
const MAX_HINTED: usize = 64;

/// The closest of `candidates` to `name`, if close enough to be a likely typo. Costs at most
/// `MAX_HINTED²` per candidate: longer names, and candidates whose length alone puts them too
/// far, are not compared.
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    if name.len() > MAX_HINTED {
        return None;
    }
    let allowed = (name.len().max(3) / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        // The distance is at least the difference of the lengths (in characters, which the
        // byte lengths bound from above only, so compare generously).
        if candidate.len() > MAX_HINTED * 4
            || candidate.chars().count().abs_diff(name.chars().count()) > allowed
        {
            continue;
        }
        let distance = edit_distance(name, candidate);
        if distance <= allowed && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (previous + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(current + 1);
            previous = current;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_count_characters_not_bytes() {
        let file = SourceFile::new("f".into(), "ab\nÄö x\n".into());
        assert_eq!(file.line_col(0), (1, 1));
        assert_eq!(file.line_col(3), (2, 1));
        let x = file.text.find('x').unwrap();
        assert_eq!(file.line_col(x), (2, 4));
        assert_eq!(file.line_text(2), "Äö x");
    }

    #[test]
    fn did_you_mean_skips_names_too_long_to_be_typos() {
        let long = "m".repeat(10_000_000);
        assert_eq!(did_you_mean(&long, ["moscow", "minsk"]), None);
        assert_eq!(
            did_you_mean("moscow", [long.as_str(), "moscw"]),
            Some("moscw")
        );
    }

    #[test]
    fn long_source_lines_are_cut_to_a_window_with_the_caret_under_the_place() {
        let line = format!("{}X{}", "a".repeat(5000), "b".repeat(5000));
        let (text, col, width) = excerpt(&line, 5000, 1);
        assert!(text.chars().count() <= EXCERPT + 2, "{}", text.len());
        assert!(text.starts_with('…') && text.ends_with('…'));
        assert_eq!(text.chars().nth(col), Some('X'));
        assert_eq!(width, 1);
        let (text, col, _) = excerpt(&line, 0, 3);
        assert_eq!((col, text.chars().next()), (0, Some('a')));
        let (text, col, _) = excerpt(&line, 10_000, 1);
        assert_eq!(text.chars().nth(col), Some('b'));
        assert!(text.starts_with('…') && !text.ends_with('…'));
        assert_eq!(excerpt("short", 2, 1), ("short".to_string(), 2, 1));
    }

    #[test]
    fn did_you_mean_finds_a_near_miss_only() {
        let names = ["moscow", "minsk", "kiev"];
        assert_eq!(did_you_mean("moskow", names), Some("moscow"));
        assert_eq!(did_you_mean("berlin", names), None);
    }
}
