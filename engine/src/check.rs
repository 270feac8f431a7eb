//! Checking meaning: ids are unique, every reference resolves, the map graph has no stray edge,
//! hexes lie on their grid, tables are complete and well typed, setups respect the declared
//! stacking and counter mix. Builds the [`Content`] (with its map graph) as it goes.
//!
//! Every problem is a diagnostic at the exact value it concerns (through the JSON pointer of
//! that value and the file's [`SpanMap`](crate::ron_syntax::SpanMap)); checking never stops
//! at the first problem.

use std::collections::{BTreeMap, BTreeSet};

mod combat;
mod examples;
mod game;
mod hooks;
mod lint;
mod map;
mod scenario;
mod scripts;
mod start;
mod tables_cards;

use crate::content::{Content, MapGraph};
use crate::diag::{did_you_mean, Diagnostic, Sources, Span};
use crate::load::{Files, Parsed};
use crate::model::*;
use crate::schema::FileKind;
use crate::script::check::{
    check_condition, check_condition_with, check_stmts, check_stmts_with, Names, ScriptKind,
};
use crate::script::syntax::{self, ScriptError};
use crate::script::types::{Kind, Type};
use crate::script::CardScripts;

/// A script of `game.ron`: its place (a JSON pointer), its source, and the names the place
/// gives it.
type ScriptPlace<'s> = (String, &'s String, &'s [(&'s str, Type)]);

/// Ids declared in `game.ron` (and the counters file), by namespace.
#[derive(Default)]
struct Ids {
    sides: BTreeSet<String>,
    nations: BTreeSet<String>,
    regions: BTreeSet<String>,
    terrains: BTreeSet<String>,
    features: BTreeSet<String>,
    connection_kinds: BTreeSet<String>,
    properties: BTreeMap<String, PropertyType>,
    unit_types: BTreeSet<String>,
    sizes: BTreeSet<String>,
    counter_flags: BTreeSet<String>,
    markers: BTreeSet<String>,
    flags: BTreeSet<String>,
    tracks: BTreeSet<String>,
    boxes: BTreeSet<String>,
    decks: BTreeMap<String, BTreeSet<String>>,
    card_kinds: BTreeSet<String>,
    card_values: BTreeSet<String>,
    seasons: BTreeSet<String>,
    turns: BTreeSet<u32>,
    counters: BTreeSet<String>,
    theatres: BTreeSet<String>,
    cards: BTreeSet<String>,
    /// Each card's deck.
    card_decks: BTreeMap<String, String>,
    /// How many numbers a counter prints, once game.ron is known.
    stat_count: Option<usize>,
}

struct Checker<'a> {
    diags: &'a mut Vec<Diagnostic>,
    ids: Ids,
    /// Kinds of file that exist but did not load: references into them are not checked, so
    /// one broken file does not bury its own error under a cascade of unknown ids.
    broken: BTreeSet<FileKind>,
}

/// The file kind that declares the ids a reference of this kind names.
fn declared_in(what: &str) -> FileKind {
    match what {
        "counter" => FileKind::Counters,
        "card" => FileKind::Cards,
        "space" => FileKind::Map,
        "table" => FileKind::Tables,
        "scenario" => FileKind::Scenario,
        _ => FileKind::Game,
    }
}

/// Where a value sits: a file and a JSON pointer into it.
trait At {
    fn at(&self, pointer: &str) -> Span;
    fn at_key(&self, pointer: &str) -> Span;
}

impl<T> At for Parsed<T> {
    fn at(&self, pointer: &str) -> Span {
        self.span(pointer)
    }
    fn at_key(&self, pointer: &str) -> Span {
        self.key_span(pointer)
    }
}

impl Checker<'_> {
    fn error(&mut self, span: Span, code: &'static str, message: String) -> &mut Diagnostic {
        self.diags.push(Diagnostic::error(code, span, message));
        self.diags.last_mut().expect("just pushed")
    }

    /// Declares ids of one namespace, reporting duplicates.
    fn declare<'i>(
        &mut self,
        file: &dyn At,
        what: &str,
        items: impl IntoIterator<Item = (String, &'i str)>,
    ) -> BTreeSet<String> {
        let mut set = BTreeSet::new();
        for (pointer, id) in items {
            if id.is_empty() {
                self.error(file.at(&pointer), "E0204", format!("empty {what} id"));
            } else if !set.insert(id.to_string()) {
                self.error(
                    file.at(&pointer),
                    "E0200",
                    format!("duplicate {what} id `{id}`"),
                )
                .hints
                .push(format!("each {what} needs an id of its own"));
            }
        }
        set
    }

    /// Checks that `id` names a declared thing.
    fn reference(
        &mut self,
        file: &dyn At,
        pointer: &(impl Pointer + ?Sized),
        what: &str,
        id: &str,
        set: &BTreeSet<String>,
    ) {
        if !set.contains(id) && !self.broken.contains(&declared_in(what)) {
            let span = file.at(&pointer.write());
            let suggestion = did_you_mean(id, set.iter().map(String::as_str)).map(str::to_string);
            let d = self.error(span, "E0201", format!("unknown {what} `{id}`"));
            match suggestion {
                Some(s) => d.hints.push(format!("did you mean `{s}`?")),
                None if set.is_empty() => d.hints.push(format!("no {what} is declared")),
                None => {}
            }
        }
    }

    fn references(
        &mut self,
        file: &dyn At,
        pointer: &(impl Pointer + ?Sized),
        what: &str,
        ids: &[impl AsRef<str>],
        set: &BTreeSet<String>,
    ) {
        for (i, id) in ids.iter().enumerate() {
            let item = || format!("{}/{i}", pointer.write());
            self.reference(file, &item, what, id.as_ref(), set);
        }
    }
}

/// A JSON pointer, written out only when a problem is to be placed: a text, or what writes it.
trait Pointer {
    fn write(&self) -> String;
}

impl Pointer for str {
    fn write(&self) -> String {
        self.to_string()
    }
}

impl Pointer for String {
    fn write(&self) -> String {
        self.clone()
    }
}

impl<F: Fn() -> String> Pointer for F {
    fn write(&self) -> String {
        self()
    }
}

fn ids<'a, T: 'a>(
    prefix: &'a str,
    items: &'a [T],
    id: impl Fn(&'a T) -> &'a str + 'a,
) -> impl Iterator<Item = (String, &'a str)> + 'a {
    items
        .iter()
        .enumerate()
        .map(move |(i, item)| (format!("{prefix}/{i}/id"), id(item)))
}

/// Checks the meaning of all files and fills `content`.
pub(crate) fn check(
    files: &mut Files,
    sources: &Sources,
    content: &mut Content,
    diags: &mut Vec<Diagnostic>,
) {
    let loaded = |kind: FileKind| match kind {
        FileKind::Game => usize::from(files.game.is_some()),
        FileKind::Map => usize::from(files.map.is_some()),
        FileKind::Counters => usize::from(files.counters.is_some()),
        FileKind::Tables => usize::from(files.tables.is_some()),
        FileKind::Cards => files.cards.len(),
        FileKind::Scenario => files.scenarios.len(),
        FileKind::Example => files.examples.len(),
    };
    let broken = FileKind::ALL
        .into_iter()
        .filter(|&kind| content.files.iter().filter(|f| f.kind == kind).count() > loaded(kind))
        .chain(files.unavailable.iter().copied())
        .collect();
    let mut c = Checker {
        diags,
        ids: Ids::default(),
        broken,
    };
    if let Some(game) = &files.game {
        c.game(game);
        content.game = Some(game.data.clone());
    }
    if let Some(counters) = &files.counters {
        c.counters(counters);
        content.counters = counters.data.counters.clone();
        content.index_counters();
    }
    if let (Some(game), Some(_)) = (&files.game, &files.counters) {
        let counter_ids = c.ids.counters.clone();
        c.references(
            game,
            "/stacking/alone",
            "counter",
            &game.data.stacking.alone,
            &counter_ids,
        );
        for (i, e) in game
            .data
            .play
            .iter()
            .flat_map(|p| &p.box_entries)
            .enumerate()
        {
            c.references(
                game,
                &format!("/play/box_entries/{i}/counters"),
                "counter",
                &e.counters,
                &counter_ids,
            );
        }
    }
    if let Some(map) = &mut files.map {
        content.graph = c.map(map, files.game.as_ref().map(|g| &g.data));
        // Nothing checks the map's file after its graph: its data moves to the content.
        content.map = std::mem::take(&mut map.data);
        if let Some(play) = files
            .game
            .as_ref()
            .and_then(|g| g.data.play.as_ref().map(|p| (g, p)))
        {
            let (game, play) = play;
            for (i, r) in play.operate_in.iter().enumerate() {
                for (j, space) in r.spaces.iter().enumerate() {
                    let at = format!("/play/operate_in/{i}/spaces/{j}");
                    c.space_ref(game, &at, space, &content.graph);
                }
            }
        }
    }
    if let Some(tables) = &files.tables {
        c.tables(tables, files.game.as_ref().map_or(6, |g| g.data.dice.faces));
        content.tables = tables.data.tables.clone();
    }
    c.cards(&files.cards);
    content.decks = files.cards.iter().map(|f| f.data.clone()).collect();
    c.declare_files(&files.scenarios);
    for scenario in &files.scenarios {
        c.scenario(
            scenario,
            &content.graph,
            &content.counters,
            files.game.as_ref().map(|g| &g.data),
        );
    }
    if let Some(game) = &files.game {
        c.deploy_flags(game, &files.scenarios);
    }
    content.scenarios = files.scenarios.iter().map(|f| f.data.clone()).collect();
    content.examples = c.examples(&files.examples, sources, content);
    if files.game.is_some() {
        let before = c.diags.len();
        c.scripts(files, sources, content);
        // A script's names resolve into every file: when one is missing or did not load, only
        // the scripts' own syntax errors are worth reporting, not the names it would declare.
        let scenarios_missing = files.unavailable.contains(&FileKind::Scenario);
        if scenarios_missing || c.broken.iter().any(|&kind| kind != FileKind::Scenario) {
            let mut index = 0;
            c.diags.retain(|d| {
                index += 1;
                index <= before || matches!(d.code, "E0301" | "E0302")
            });
        } else if c.broken.contains(&FileKind::Scenario) {
            // A scenario that did not load declares no flags of its optional rules: the
            // scripts that read them are not at fault.
            let mut index = 0;
            c.diags.retain(|d| {
                index += 1;
                index <= before || !(d.code == "E0303" && d.message.starts_with("unknown flag"))
            });
        }
    }
    c.silent_mistakes(files, content);
}

/// Most problems reported in one script.
const MAX_SCRIPT_ERRORS: usize = 50;

fn ids_of_options(options: &[OptionalRule]) -> impl Iterator<Item = (String, &str)> {
    options
        .iter()
        .enumerate()
        .map(|(i, o)| (format!("/options/{i}/id"), o.id.as_str()))
}

fn field_name(field: &FieldType) -> &'static str {
    match field {
        FieldType::Int => "a whole number",
        FieldType::Bool => "true or false",
        FieldType::Symbol(_) => "a symbol",
    }
}

fn scalar_name(s: &Scalar) -> &'static str {
    match s {
        Scalar::Int(_) => "a number",
        Scalar::Bool(_) => "a boolean",
        Scalar::Symbol(_) => "a symbol",
    }
}

/// `1, 2, 5 to 9`: a short list of numbers.
fn list(numbers: &[i32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let start = numbers[i];
        let mut end = start;
        while i + 1 < numbers.len() && numbers[i + 1] == end + 1 {
            i += 1;
            end += 1;
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start} to {end}")
        });
        i += 1;
    }
    parts.join(", ")
}
