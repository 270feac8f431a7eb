//! Loading: a game folder's files → text → typed model (read straight from the text; a file
//! that does not read goes through its span-keeping RON tree and its JSON, checked against the
//! schema, for the places of its problems), then [`crate::check`] for meaning.
//!
//! All outside access goes through [`ContentSource`], so loading can run on a folder on disk, on
//! files held in memory (tests, the fuzz target, the editor's unsaved buffers) or anything else.
//!
//! Invariant: loading always finishes and never panics: it returns what it could build plus
//! every problem it found, in every file, not only the first.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use crate::check;
use crate::content::{Content, ContentFile};
use crate::diag::{self, Diagnostic, FileId, Sources, Span};
use crate::model::{
    CardsFile, CountersFile, ExampleFile, GameFile, MapFile, ScenarioFile, TablesFile,
};
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
    /// The text of one file, with why it could not be read: loading reports a missing file, a
    /// folder or a file that is not text each in its own way.
    fn read_checked(&self, relative: &str) -> Result<String, ReadError> {
        self.read(relative).map_err(ReadError::Io)
    }
}

/// The most a content file, an actions file or a saved game may hold: anything longer is not
/// something a designer wrote, and reading it whole could exhaust the memory (`/dev/zero`).
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file could not be read as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// Nothing at the path.
    Missing,
    /// A folder where a file should be.
    NotAFile,
    /// Longer than the limit, in bytes.
    TooLarge(u64),
    /// Not UTF-8 text, or text holding a NUL byte: where the first bad byte is (its offset, and
    /// its line and column from 1; the text before it is the valid prefix).
    NotText {
        offset: usize,
        line: usize,
        column: usize,
        before: String,
    },
    /// Any other failure (permissions ...), as the system words it.
    Io(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Missing => write!(f, "no such file"),
            ReadError::NotAFile => write!(f, "it is a folder, not a file"),
            ReadError::TooLarge(limit) => {
                write!(f, "it is longer than {} MiB", limit / (1024 * 1024))
            }
            ReadError::NotText { .. } => {
                write!(
                    f,
                    "it is not UTF-8 text, or it holds a NUL byte (a binary file?)"
                )
            }
            ReadError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl From<ReadError> for String {
    fn from(e: ReadError) -> String {
        e.to_string()
    }
}

/// Reads a file as text, at most `limit` bytes: a folder, a longer file (or an endless one such
/// as `/dev/zero`), bytes that are not UTF-8 and NUL bytes are each an error of their own.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    use std::io::Read;
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => ReadError::Missing,
        _ => ReadError::Io(e.to_string()),
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if metadata.is_dir() {
        return Err(ReadError::NotAFile);
    }
    // Room for the whole file at once (a file that grows as it is read still reads, in steps).
    let room = metadata.len().min(limit).saturating_add(1);
    let mut bytes = Vec::with_capacity(usize::try_from(room).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| match e.raw_os_error() {
            // EISDIR: a folder that opened on a system that allows it.
            Some(21) => ReadError::NotAFile,
            _ => io(e),
        })?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    text_of(bytes)
}

/// Bytes as text: the first invalid UTF-8 sequence or NUL byte is reported with its place.
pub fn text_of(bytes: Vec<u8>) -> Result<String, ReadError> {
    let bad = match std::str::from_utf8(&bytes) {
        Ok(text) => text.find('\0'),
        Err(e) => {
            let valid = e.valid_up_to();
            Some(bytes[..valid].iter().position(|&b| b == 0).unwrap_or(valid))
        }
    };
    match bad {
        None => String::from_utf8(bytes).map_err(|e| ReadError::Io(e.to_string())),
        Some(offset) => {
            let before = &bytes[..offset];
            let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
            let start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let column = String::from_utf8_lossy(&before[start..]).chars().count() + 1;
            Err(ReadError::NotText {
                offset,
                line,
                column,
                before: String::from_utf8_lossy(before).into_owned(),
            })
        }
    }
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
            // A folder named like a content file (`map.ron/`) is listed as the file it stands
            // for, so that reading it reports it.
            if kind.is_dir() && FileKind::of_path(&relative).is_none() {
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
        Ok(self.read_checked(relative)?)
    }

    fn read_checked(&self, relative: &str) -> Result<String, ReadError> {
        read_text(&self.root.join(relative), MAX_FILE_BYTES)
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
    pub examples: Vec<Parsed<ExampleFile>>,
    /// Kinds of file that are required but missing, or that exist but could not be read:
    /// checks of references into them are silenced, like those into a file that did not parse.
    pub unavailable: BTreeSet<FileKind>,
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
    let mut files = read_files(source, &root, &mut loaded);
    check::check(
        &mut files,
        &loaded.sources,
        &mut loaded.content,
        &mut loaded.diagnostics,
    );
    crate::scenario_rules::build(&root, &files, &mut loaded);
    diag::sort(&mut loaded.diagnostics);
    loaded.content.hash = content_hash(&loaded);
    loaded
}

/// A stable fingerprint of the content's files (their paths and texts), 64 bits in hex: a saved
/// game names the content it was played on by it. The examples are not the game's rules, so
/// they do not count. The same on every machine (words read little-endian).
fn content_hash(loaded: &Loaded) -> String {
    let mut files: Vec<_> = loaded
        .content
        .files
        .iter()
        .filter(|f| f.kind != FileKind::Example)
        .collect();
    files.sort_by(|a, b| a.relative.cmp(&b.relative));
    let mut h = Fingerprint::default();
    for f in files {
        h.add(f.relative.as_bytes());
        h.add(loaded.sources.get(f.id).text.as_bytes());
    }
    format!("{:016x}", h.0)
}

/// A fingerprint of byte strings taken eight bytes a step (one multiply each), each string
/// closed by its length, so that no two lists of strings run together into the same bytes.
struct Fingerprint(u64);

impl Default for Fingerprint {
    fn default() -> Fingerprint {
        Fingerprint(0xcbf2_9ce4_8422_2325)
    }
}

impl Fingerprint {
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    fn add(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.word(u64::from_le_bytes(w.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..words.remainder().len()].copy_from_slice(words.remainder());
        self.word(u64::from_le_bytes(last));
        self.word(bytes.len() as u64);
    }
}

fn read_files(source: &dyn ContentSource, root: &str, loaded: &mut Loaded) -> Files {
    let mut files = Files::default();
    // Kinds of which the folder lists a file (read or not).
    let mut present = BTreeSet::new();
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
                         cards/*.ron, scenarios/*.ron and examples/*.ron",
                    ),
            );
            continue;
        };
        present.insert(kind);
        let text = match source.read_checked(&relative) {
            Ok(text) => text,
            Err(e) => {
                files.unavailable.insert(kind);
                let d = match e {
                    ReadError::NotAFile => Diagnostic::at_path(
                        "E0005",
                        display,
                        "this is a folder, not a file: the content file cannot be read",
                    )
                    .with_hint(format!(
                        "a {} file is a RON file; move the folder away",
                        kind.name()
                    )),
                    ReadError::NotText { offset, before, .. } => {
                        // The valid text before the bad byte, so the place has a line.
                        let id = loaded.sources.add(display, before);
                        Diagnostic::error(
                            "E0006",
                            Span::new(id, offset, offset),
                            "the file is not UTF-8 text (a binary file?)",
                        )
                        .with_hint("content files are RON text in UTF-8, with no NUL byte")
                    }
                    e => {
                        Diagnostic::at_path("E0002", display, format!("cannot read the file: {e}"))
                    }
                };
                loaded.diagnostics.push(d);
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
            FileKind::Example => files.examples.extend(parse_file(kind, id, text, diags)),
        }
    }
    for (kind, name, hint) in [
        (
            FileKind::Game,
            "game.ron",
            "every game folder needs a game.ron declaring its sides, nations and kinds",
        ),
        (
            FileKind::Map,
            "map.ron",
            "every game folder needs a map.ron: its spaces and connections, zones or hex grid",
        ),
        (
            FileKind::Counters,
            "counters.ron",
            "every game folder needs a counters.ron: the pieces the setups place",
        ),
    ] {
        if !present.contains(&kind) {
            files.unavailable.insert(kind);
            loaded.diagnostics.push(
                Diagnostic::at_path(
                    "E0003",
                    format!("{root}/{name}"),
                    format!("the folder has no {name}"),
                )
                .with_hint(hint),
            );
        }
    }
    if !present.contains(&FileKind::Scenario) {
        files.unavailable.insert(FileKind::Scenario);
        loaded.diagnostics.push(
            Diagnostic::at_path(
                "E0004",
                format!("{root}/scenarios"),
                "the folder has no scenario: there is nothing to play",
            )
            .with_hint("a scenario is a file scenarios/<id>.ron: its setup, turns and options"),
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
    // Read straight from the text: the tree, and the places it keeps, are wanted only when a
    // problem is to be placed.
    if let Ok(data) = ron_syntax::from_text::<T>(text) {
        return Some(Parsed {
            file,
            spans: SpanMap::of_text(text),
            data,
        });
    }
    let node = match ron_syntax::parse(text) {
        Ok(node) => node,
        Err(e) => {
            diags.push(syntax_error(e));
            return None;
        }
    };
    // Read straight from the tree; a file that does not read is read again through its JSON,
    // whose schema and serde errors say where and why.
    if let Ok(data) = ron_syntax::from_tree::<T>(&node) {
        return Some(Parsed {
            file,
            spans: SpanMap::new(node),
            data,
        });
    }
    let json = match ron_syntax::to_json(&node) {
        Ok(json) => json,
        Err(e) => {
            diags.push(syntax_error(e));
            return None;
        }
    };
    let spans = SpanMap::new(node);
    // The schemas are made from the types, so a file whose data reads as its type matches its
    // schema: only one that does not is held against the schema, for the places of its
    // problems.
    let error = match T::deserialize(&json) {
        Ok(data) => return Some(Parsed { file, spans, data }),
        Err(e) => e,
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
    diags.push(Diagnostic::error(
        "E0100",
        Span::new(file, 0, 1),
        format!(
            "the file does not match the {} format: {error}",
            kind.name()
        ),
    ));
    None
}
