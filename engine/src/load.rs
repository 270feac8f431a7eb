//! Loading: a game folder's files → text → span-keeping RON tree → JSON checked against the
//! schema → typed model, then [`crate::check`] for meaning.
//!
//! All outside access goes through [`ContentSource`], so loading can run on a folder on disk, on
//! files held in memory (tests, the fuzz target, the editor's unsaved buffers) or anything else.
//!
//! Invariant: loading always finishes and never panics: it returns what it could build plus
//! every problem it found, in every file, not only the first.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::check;
use crate::content::{Content, ContentFile};
use crate::diag::{self, Diagnostic, FileId, Sources, Span};
use crate::model::{CardsFile, CountersFile, GameFile, MapFile, ScenarioFile, TablesFile};
use crate::ron_syntax::{self, SpanMap};
use crate::schema::{self, FileKind};

/// Where content files come from.
pub trait ContentSource {
    /// The folder's name as shown in diagnostics (`content/barbarossa-to-berlin`).
    fn root(&self) -> String;
    /// Paths of every file below the folder, relative to it, with `/` separators, sorted.
    fn list(&self) -> Result<Vec<String>, String>;
    /// The text of one file.
    fn read(&self, relative: &str) -> Result<String, String>;
}

/// A game folder on disk.
#[derive(Debug, Clone)]
pub struct DirSource {
    pub root: PathBuf,
}

impl DirSource {
    pub fn new(root: impl Into<PathBuf>) -> DirSource {
        DirSource { root: root.into() }
    }

    fn walk(&self, dir: &Path, prefix: &str, out: &mut Vec<String>) -> Result<(), String> {
        let entries = std::fs::read_dir(dir).map_err(|e| e.to_string())?;
        for entry in entries {
            let entry = entry.map_err(|e| e.to_string())?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let relative = format!("{prefix}{name}");
            let kind = entry.file_type().map_err(|e| e.to_string())?;
            if kind.is_dir() {
                self.walk(&entry.path(), &format!("{relative}/"), out)?;
            } else {
                out.push(relative);
            }
        }
        Ok(())
    }
}

impl ContentSource for DirSource {
    fn root(&self) -> String {
        self.root
            .display()
            .to_string()
            .trim_end_matches('/')
            .to_string()
    }

    fn list(&self) -> Result<Vec<String>, String> {
        let mut out = Vec::new();
        self.walk(&self.root, "", &mut out)?;
        out.sort();
        Ok(out)
    }

    fn read(&self, relative: &str) -> Result<String, String> {
        std::fs::read_to_string(self.root.join(relative)).map_err(|e| e.to_string())
    }
}

/// Files held in memory, by relative path.
#[derive(Debug, Clone, Default)]
pub struct MemSource {
    pub name: String,
    pub files: BTreeMap<String, String>,
}

impl ContentSource for MemSource {
    fn root(&self) -> String {
        self.name.clone()
    }

    fn list(&self) -> Result<Vec<String>, String> {
        Ok(self.files.keys().cloned().collect())
    }

    fn read(&self, relative: &str) -> Result<String, String> {
        self.files
            .get(relative)
            .cloned()
            .ok_or_else(|| format!("no file `{relative}`"))
    }
}

/// A content file that parsed and matched its schema: its data, and where each value is.
#[derive(Debug, Clone)]
pub struct Parsed<T> {
    pub file: FileId,
    pub spans: SpanMap,
    pub data: T,
}

impl<T> Parsed<T> {
    /// The span of the value at a JSON pointer (or its nearest ancestor).
    pub fn span(&self, pointer: &str) -> Span {
        let (start, end) = self.spans.value(pointer);
        Span::new(self.file, start, end)
    }

    /// The span of a struct field's name.
    pub fn key_span(&self, pointer: &str) -> Span {
        let (start, end) = self.spans.key(pointer);
        Span::new(self.file, start, end)
    }
}

/// The typed files of a folder, before meaning is checked.
#[derive(Debug, Clone, Default)]
pub struct Files {
    pub game: Option<Parsed<GameFile>>,
    pub map: Option<Parsed<MapFile>>,
    pub counters: Option<Parsed<CountersFile>>,
    pub tables: Option<Parsed<TablesFile>>,
    pub cards: Vec<Parsed<CardsFile>>,
    pub scenarios: Vec<Parsed<ScenarioFile>>,
}

/// What loading a folder gives: the text of its files, the checked content, every problem.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    pub sources: Sources,
    pub content: Content,
    pub diagnostics: Vec<Diagnostic>,
}

impl Loaded {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics.iter().filter(|d| d.is_error())
    }
}

/// Loads and checks a game folder on disk.
pub fn load_dir(root: impl Into<PathBuf>) -> Loaded {
    load(&DirSource::new(root))
}

/// Loads and checks a game folder from any source.
pub fn load(source: &dyn ContentSource) -> Loaded {
    let mut loaded = Loaded::default();
    let root = source.root();
    let files = read_files(source, &root, &mut loaded);
    check::check(
        &files,
        &loaded.sources,
        &mut loaded.content,
        &mut loaded.diagnostics,
    );
    diag::sort(&mut loaded.diagnostics);
    loaded.content.hash = content_hash(&loaded);
    loaded
}

/// A stable fingerprint of the content's files (their paths and texts), FNV-1a 64 in hex: a
/// saved game names the content it was played on by it.
fn content_hash(loaded: &Loaded) -> String {
    let mut files: Vec<_> = loaded.content.files.iter().collect();
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in files {
        let text = &loaded.sources.get(f.id).text;
        for b in f.relative.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

fn read_files(source: &dyn ContentSource, root: &str, loaded: &mut Loaded) -> Files {
    let mut files = Files::default();
    let list = match source.list() {
        Ok(list) => list,
        Err(e) => {
            loaded.diagnostics.push(Diagnostic::at_path(
                "E0002",
                root,
                format!("cannot read the content folder: {e}"),
            ));
            return files;
        }
    };
    for relative in list {
        if !relative.ends_with(".ron") {
            continue;
        }
        let display = format!("{root}/{relative}");
        let Some(kind) = FileKind::of_path(&relative) else {
            loaded.diagnostics.push(
                Diagnostic::at_path("W0001", display, "not a content file kind; it is ignored")
                    .warn()
                    .with_hint(
                        "content files are game.ron, map.ron, counters.ron, tables.ron, \
                         cards/*.ron and scenarios/*.ron",
                    ),
            );
            continue;
        };
        let text = match source.read(&relative) {
            Ok(text) => text,
            Err(e) => {
                loaded.diagnostics.push(Diagnostic::at_path(
                    "E0002",
                    display,
                    format!("cannot read the file: {e}"),
                ));
                continue;
            }
        };
        let id = loaded.sources.add(display, text);
        loaded.content.files.push(ContentFile {
            kind,
            relative: relative.clone(),
            id,
        });
        let text = &loaded.sources.get(id).text;
        let diags = &mut loaded.diagnostics;
        match kind {
            FileKind::Game => files.game = parse_file(kind, id, text, diags),
            FileKind::Map => files.map = parse_file(kind, id, text, diags),
            FileKind::Counters => files.counters = parse_file(kind, id, text, diags),
            FileKind::Tables => files.tables = parse_file(kind, id, text, diags),
            FileKind::Cards => files.cards.extend(parse_file(kind, id, text, diags)),
            FileKind::Scenario => files.scenarios.extend(parse_file(kind, id, text, diags)),
        }
    }
    if files.game.is_none()
        && !loaded
            .content
            .files
            .iter()
            .any(|f| f.kind == FileKind::Game)
    {
        loaded.diagnostics.push(
            Diagnostic::at_path(
                "E0003",
                format!("{root}/game.ron"),
                "the folder has no game.ron",
            )
            .with_hint("every game folder needs a game.ron declaring its sides, nations and kinds"),
        );
    }
    files
}

/// Parses one file's text into its kind's type, reporting syntax and schema problems.
pub fn parse_file<T: DeserializeOwned>(
    kind: FileKind,
    file: FileId,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Parsed<T>> {
    let syntax_error = |e: ron_syntax::SyntaxError| {
        let mut d = Diagnostic::error("E0001", Span::new(file, e.start, e.end), e.message);
        if let Some(hint) = e.hint {
            d = d.with_hint(hint);
        }
        d
    };
    let node = match ron_syntax::parse(text) {
        Ok(node) => node,
        Err(e) => {
            diags.push(syntax_error(e));
            return None;
        }
    };
    let (json, spans) = match ron_syntax::to_json(&node) {
        Ok(pair) => pair,
        Err(e) => {
            diags.push(syntax_error(e));
            return None;
        }
    };
    let violations = schema::validate(kind, &json);
    if !violations.is_empty() {
        for v in violations {
            let span = match &v.unexpected_field {
                Some(field) => {
                    let pointer = format!("{}/{}", v.pointer, ron_syntax::pointer_segment(field));
                    let (s, e) = spans.key(&pointer);
                    Span::new(file, s, e)
                }
                None => {
                    let (s, e) = spans.value(&v.pointer);
                    // Point at the opening of a struct missing a field, not at all of it.
                    let e = if v.missing_field.is_some() { s + 1 } else { e };
                    Span::new(file, s, e)
                }
            };
            let mut d = Diagnostic::error("E0100", span, v.message);
            if let Some(field) = &v.unexpected_field {
                d = d.with_hint(format!(
                    "see schemas/{} for the fields a {} file may hold",
                    kind.file_name(),
                    kind.name()
                ));
                let _ = field;
            }
            diags.push(d);
        }
        return None;
    }
    match serde_json::from_value::<T>(json) {
        Ok(data) => Some(Parsed { file, spans, data }),
        Err(e) => {
            diags.push(Diagnostic::error(
                "E0100",
                Span::new(file, 0, 1),
                format!("the file does not match the {} format: {e}", kind.name()),
            ));
            None
        }
    }
}
