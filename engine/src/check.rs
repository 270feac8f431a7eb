//! Checking meaning: ids are unique, every reference resolves, the map graph has no stray edge,
//! hexes lie on their grid, tables are complete and well typed, setups respect the declared
//! stacking and counter mix. Builds the [`Content`] (with its map graph) as it goes.
//!
//! Every problem is a diagnostic at the exact value it concerns (through the JSON pointer of
//! that value and the file's [`SpanMap`](crate::ron_syntax::SpanMap)); checking never stops
//! at the first problem.

use std::collections::{BTreeMap, BTreeSet};

mod hooks;

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

mod start;

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
        pointer: &str,
        what: &str,
        id: &str,
        set: &BTreeSet<String>,
    ) {
        if !set.contains(id) && !self.broken.contains(&declared_in(what)) {
            let span = file.at(pointer);
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
        pointer: &str,
        what: &str,
        ids: &[String],
        set: &BTreeSet<String>,
    ) {
        for (i, id) in ids.iter().enumerate() {
            self.reference(file, &format!("{pointer}/{i}"), what, id, set);
        }
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
    files: &Files,
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
    }
    if let Some(map) = &files.map {
        content.graph = c.map(map, files.game.as_ref().map(|g| &g.data));
        content.map = map.data.clone();
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
    content.scenarios = files.scenarios.iter().map(|f| f.data.clone()).collect();
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
        }
    }
}

/// Most problems reported in one script.
const MAX_SCRIPT_ERRORS: usize = 50;

impl Checker<'_> {
    /// Parses and checks every card's scripts against the whole content, and keeps them.
    fn scripts(&mut self, files: &Files, sources: &Sources, content: &mut Content) {
        let names = Names::from_content(content);
        for f in &files.cards {
            let text = &sources.get(f.file).text;
            for (i, card) in f.data.cards.iter().enumerate() {
                let mut scripts = CardScripts::default();
                let place = |field: &str| format!("/cards/{i}/{field}");
                if let Some(src) = &card.playable {
                    let (expr, mut errors) = syntax::parse_expr(src);
                    if let Some(e) = &expr {
                        errors.extend(check_condition(e, &names));
                    }
                    self.script_errors(f, text, &place("playable"), errors);
                    scripts.playable = expr;
                }
                for (field, kind) in [
                    ("effect", ScriptKind::Event),
                    ("combat", ScriptKind::Combat),
                ] {
                    let src = if field == "effect" {
                        &card.effect
                    } else {
                        &card.combat
                    };
                    let Some(src) = src else { continue };
                    let parsed = syntax::parse(src);
                    let mut errors = parsed.errors;
                    errors.extend(check_stmts(&parsed.stmts, kind, &names));
                    self.script_errors(f, text, &place(field), errors);
                    if field == "effect" {
                        scripts.effect = Some(parsed.stmts);
                    } else {
                        scripts.combat = Some(parsed.stmts);
                    }
                }
                content.scripts.insert(card.id.clone(), scripts);
            }
        }
        if let Some(f) = &files.game {
            let text = &sources.get(f.file).text;
            for (p, phase) in f.data.sequence.iter().enumerate() {
                for (s, step) in phase.steps.iter().enumerate() {
                    let place = format!("/sequence/{p}/steps/{s}");
                    match step {
                        Step::Script { effect, .. } => {
                            let parsed = syntax::parse(effect);
                            let mut errors = parsed.errors;
                            errors.extend(check_stmts(&parsed.stmts, ScriptKind::Event, &names));
                            self.script_errors(f, text, &format!("{place}/Script/effect"), errors);
                            content.sequence.steps.insert((p, s), parsed.stmts);
                        }
                        Step::ActionRounds(rounds) => {
                            for (a, action) in rounds.free_actions.iter().enumerate() {
                                let at = format!("{place}/ActionRounds/free_actions/{a}");
                                let condition = action.playable.as_ref().and_then(|src| {
                                    let (expr, mut errors) = syntax::parse_expr(src);
                                    if let Some(e) = &expr {
                                        errors.extend(check_condition(e, &names));
                                    }
                                    self.script_errors(f, text, &format!("{at}/playable"), errors);
                                    expr
                                });
                                let parsed = syntax::parse(&action.effect);
                                let mut errors = parsed.errors;
                                errors.extend(check_stmts(
                                    &parsed.stmts,
                                    ScriptKind::Event,
                                    &names,
                                ));
                                self.script_errors(f, text, &format!("{at}/effect"), errors);
                                content.sequence.actions.insert(
                                    (p, s, a),
                                    crate::script::FreeActionScripts {
                                        playable: condition,
                                        effect: parsed.stmts,
                                    },
                                );
                            }
                        }
                        Step::Impulses(imp) => {
                            self.impulse_scripts(f, text, &names, &place, imp, content);
                        }
                        _ => {}
                    }
                }
            }
            if let Some(play) = &f.data.play {
                let space = [("space", Type::Entity(Kind::Space))];
                let mut conditions: Vec<ScriptPlace> = Vec::new();
                let mut effects: Vec<ScriptPlace> = Vec::new();
                if let Some(e) = &play.entrench {
                    conditions.push(("/play/entrench/playable".into(), &e.playable, &space));
                    effects.push(("/play/entrench/effect".into(), &e.effect, &space));
                }
                for (i, a) in play.victory.automatic.iter().enumerate() {
                    if let Some(c) = &a.when {
                        let at = format!("/play/victory/automatic/{i}/when");
                        conditions.push((at, c, &[]));
                    }
                }
                for (i, m) in play.sr_markers.iter().enumerate() {
                    conditions.push((format!("/play/sr_markers/{i}/to"), &m.to, &space));
                }
                for (i, pool) in play.replacements.iter().enumerate() {
                    if let Some(c) = &pool.less_one_unless {
                        let at = format!("/play/replacements/{i}/less_one_unless");
                        conditions.push((at, c, &[]));
                    }
                }
                self.keep_scripts((f, text), &names, conditions, effects, content);
            }
            self.hook_scripts(f, text, &names, content);
        }
    }

    /// Checks the conditions and scripts of a sequence step's operations in impulses, and
    /// keeps them by their JSON pointer.
    fn impulse_scripts(
        &mut self,
        f: &Parsed<GameFile>,
        text: &str,
        names: &Names,
        place: &str,
        imp: &crate::model::Impulses,
        content: &mut Content,
    ) {
        let at = format!("{place}/Impulses");
        let combat = [
            ("attackers", Type::set(Type::Entity(Kind::Unit))),
            ("defenders", Type::set(Type::Entity(Kind::Unit))),
            ("defending_space", Type::Entity(Kind::Space)),
        ];
        let space = [("space", Type::Entity(Kind::Space)), ("level", Type::Int)];
        let mut conditions: Vec<ScriptPlace> = Vec::new();
        for (i, r) in imp.reactions.iter().enumerate() {
            conditions.push((format!("{at}/reactions/{i}/when"), &r.when, &combat));
        }
        let unit_only = [("u", Type::Entity(Kind::Unit))];
        for (i, o) in imp.orders.iter().enumerate() {
            if !o.exempt.is_empty() {
                conditions.push((format!("{at}/orders/{i}/exempt"), &o.exempt, &unit_only));
            }
        }
        let mut effects: Vec<ScriptPlace> = vec![(format!("{at}/end_test"), &imp.end_test, &[])];
        let idle = [("u", Type::Entity(Kind::Unit))];
        if !imp.idle.is_empty() {
            effects.push((format!("{at}/idle"), &imp.idle, &idle));
        }
        if !imp.combat.into_closed.is_empty() {
            let src = &imp.combat.into_closed;
            effects.push((format!("{at}/combat/into_closed"), src, &idle));
        }
        if let Some(city) = &imp.city {
            for (i, d) in city.drms.iter().enumerate() {
                conditions.push((format!("{at}/city/drms/{i}/when"), &d.when, &combat));
            }
            effects.push((format!("{at}/city/on_abandon"), &city.on_abandon, &space));
            if !city.on_progress.is_empty() {
                effects.push((format!("{at}/city/on_progress"), &city.on_progress, &space));
            }
        }
        self.keep_scripts((f, text), names, conditions, effects, content);
    }

    /// Checks conditions and effects of `game.ron` at their places, reports their problems
    /// there, and keeps them by their JSON pointer.
    fn keep_scripts(
        &mut self,
        (f, text): (&Parsed<GameFile>, &str),
        names: &Names,
        conditions: Vec<ScriptPlace>,
        effects: Vec<ScriptPlace>,
        content: &mut Content,
    ) {
        for (at, src, given) in conditions {
            let (expr, mut errors) = syntax::parse_expr(src);
            if let Some(e) = &expr {
                errors.extend(check_condition_with(e, names, given));
            }
            self.script_errors(f, text, &at, errors);
            if let Some(e) = expr {
                content.sequence.conditions.insert(at, e);
            }
        }
        for (at, src, given) in effects {
            let parsed = syntax::parse(src);
            let mut errors = parsed.errors;
            errors.extend(check_stmts_with(
                &parsed.stmts,
                ScriptKind::Event,
                names,
                given,
            ));
            self.script_errors(f, text, &at, errors);
            content.sequence.effects.insert(at, parsed.stmts);
        }
    }

    /// Reports problems found inside a script at their place in the content file.
    fn script_errors<T>(
        &mut self,
        f: &Parsed<T>,
        text: &str,
        pointer: &str,
        errors: Vec<ScriptError>,
    ) {
        if errors.is_empty() {
            return;
        }
        let (start, end) = f.spans.value(pointer);
        let literal = crate::ron_syntax::string_at(text, start);
        // A script of thousands of bad statements gets its first problems only: the report
        // stays short, and its cost linear.
        let more = errors.len().saturating_sub(MAX_SCRIPT_ERRORS);
        for (i, e) in errors.into_iter().take(MAX_SCRIPT_ERRORS).enumerate() {
            let span = match &literal {
                Some(lit) => Span::new(
                    f.file,
                    lit.file_offset(e.range.start as usize),
                    lit.file_offset(e.range.end as usize),
                ),
                None => Span::new(f.file, start, end),
            };
            let mut d = Diagnostic::error(e.code, span, e.message);
            if let Some(h) = e.hint {
                d = d.with_hint(h);
            }
            if more > 0 && i + 1 == MAX_SCRIPT_ERRORS {
                d = d.with_hint(format!("{more} more problems in this script are not shown"));
            }
            self.diags.push(d);
        }
    }
}

impl Checker<'_> {
    fn game(&mut self, f: &Parsed<GameFile>) {
        let g = &f.data;
        self.ids.sides = self.declare(f, "side", ids("/sides", &g.sides, |x| &x.id));
        self.ids.nations = self.declare(f, "nation", ids("/nations", &g.nations, |x| &x.id));
        self.ids.regions = self.declare(f, "region", ids("/regions", &g.regions, |x| &x.id));
        self.ids.terrains = self.declare(f, "terrain", ids("/terrains", &g.terrains, |x| &x.id));
        self.ids.features = self.declare(f, "feature", ids("/features", &g.features, |x| &x.id));
        self.ids.connection_kinds = self.declare(
            f,
            "connection kind",
            ids("/connection_kinds", &g.connection_kinds, |x| &x.id),
        );
        self.declare(f, "property", ids("/properties", &g.properties, |x| &x.id));
        self.ids.properties = g.properties.iter().map(|p| (p.id.clone(), p.ty)).collect();
        self.declare(f, "stat", ids("/stats", &g.stats, |x| &x.id));
        self.ids.stat_count = Some(g.stats.len());
        self.ids.unit_types =
            self.declare(f, "unit type", ids("/unit_types", &g.unit_types, |x| &x.id));
        self.ids.sizes = self.declare(f, "unit size", ids("/sizes", &g.sizes, |x| &x.id));
        self.ids.counter_flags = self.declare(
            f,
            "counter flag",
            ids("/counter_flags", &g.counter_flags, |x| &x.id),
        );
        self.ids.markers = self.declare(f, "marker", ids("/markers", &g.markers, |x| &x.id));
        self.ids.flags = self.declare(f, "flag", ids("/flags", &g.flags, |x| &x.id));
        self.ids.tracks = self.declare(f, "track", ids("/tracks", &g.tracks, |x| &x.id));
        self.ids.boxes = self.declare(f, "box", ids("/boxes", &g.boxes, |x| &x.id));
        self.declare(f, "deck", ids("/decks", &g.decks, |x| &x.id));
        for (i, deck) in g.decks.iter().enumerate() {
            let groups = self.declare(
                f,
                "deck group",
                ids(&format!("/decks/{i}/groups"), &deck.groups, |x| &x.id),
            );
            self.ids.decks.insert(deck.id.clone(), groups);
        }
        self.ids.card_kinds =
            self.declare(f, "card kind", ids("/card_kinds", &g.card_kinds, |x| &x.id));
        self.ids.card_values = self.declare(
            f,
            "card value",
            ids("/card_values", &g.card_values, |x| &x.id),
        );
        self.ids.seasons = self.declare(f, "season", ids("/seasons", &g.seasons, |x| &x.id));

        let sides = self.ids.sides.clone();
        let regions = self.ids.regions.clone();
        let nations = self.ids.nations.clone();
        for (i, n) in g.nations.iter().enumerate() {
            if let Some(side) = &n.side {
                self.reference(f, &format!("/nations/{i}/side"), "side", side, &sides);
            }
            self.references(
                f,
                &format!("/nations/{i}/home"),
                "region",
                &n.home,
                &regions,
            );
        }
        for (i, r) in g.regions.iter().enumerate() {
            self.references(
                f,
                &format!("/regions/{i}/within"),
                "region",
                &r.within,
                &regions,
            );
        }
        self.region_cycles(f);
        for (i, t) in g.terrains.iter().enumerate() {
            self.color(f, &format!("/terrains/{i}/color"), t.color.as_deref());
        }
        for (i, k) in g.connection_kinds.iter().enumerate() {
            self.color(
                f,
                &format!("/connection_kinds/{i}/color"),
                k.color.as_deref(),
            );
        }
        let kinds = self.ids.connection_kinds.clone();
        self.reference(
            f,
            "/default_connection_kind",
            "connection kind",
            &g.default_connection_kind,
            &kinds,
        );
        for (i, m) in g.markers.iter().enumerate() {
            if let Some(side) = &m.side {
                self.reference(f, &format!("/markers/{i}/side"), "side", side, &sides);
            }
            if m.levels == 0 {
                self.error(
                    f.at(&format!("/markers/{i}/levels")),
                    "E0207",
                    "a marker has at least one level".into(),
                );
            }
        }
        for (i, t) in g.tracks.iter().enumerate() {
            if t.min > t.max {
                self.error(
                    f.at(&format!("/tracks/{i}")),
                    "E0207",
                    format!("track `{}` has min {} above max {}", t.id, t.min, t.max),
                );
            }
            if let Some(side) = &t.side {
                self.reference(f, &format!("/tracks/{i}/side"), "side", side, &sides);
            }
        }
        for (i, b) in g.boxes.iter().enumerate() {
            if let Some(side) = &b.side {
                self.reference(f, &format!("/boxes/{i}/side"), "side", side, &sides);
            }
        }
        for (i, d) in g.decks.iter().enumerate() {
            if let Some(side) = &d.side {
                self.reference(f, &format!("/decks/{i}/side"), "side", side, &sides);
            }
        }
        if g.dice.faces < 2 {
            self.error(
                f.at("/dice/faces"),
                "E0207",
                "a die has at least two faces".into(),
            );
        }
        let seasons = self.ids.seasons.clone();
        for (i, t) in g.turns.iter().enumerate() {
            if t.number != i as u32 + 1 {
                self.error(
                    f.at(&format!("/turns/{i}/number")),
                    "E0207",
                    format!(
                        "turn {} is listed in place {}; turns are numbered 1, 2, 3 ... in order",
                        t.number,
                        i + 1
                    ),
                );
            }
            self.ids.turns.insert(t.number);
            if let Some(season) = &t.season {
                self.reference(f, &format!("/turns/{i}/season"), "season", season, &seasons);
            }
        }
        for (i, a) in g.stacking.apart.iter().enumerate() {
            self.references(
                f,
                &format!("/stacking/apart/{i}/nations"),
                "nation",
                &a.nations,
                &nations,
            );
            self.references(
                f,
                &format!("/stacking/apart/{i}/from"),
                "nation",
                &a.from,
                &nations,
            );
            self.references(
                f,
                &format!("/stacking/apart/{i}/except"),
                "region",
                &a.except,
                &regions,
            );
        }
        for (i, l) in g.stacking.limits.iter().enumerate() {
            let at = format!("/stacking/limits/{i}");
            self.references(f, &format!("{at}/nations"), "nation", &l.nations, &nations);
            self.references(f, &format!("{at}/within"), "region", &l.within, &regions);
            self.references(f, &format!("{at}/except"), "region", &l.except, &regions);
            if l.limit == 0 {
                self.error(
                    f.at(&format!("{at}/limit")),
                    "E0207",
                    "a stacking limit of 0 allows none of these pieces where it holds".into(),
                );
            }
        }
        if g.stacking.limit == Some(0) {
            self.error(
                f.at("/stacking/limit"),
                "E0207",
                "a stacking limit of 0 allows no piece anywhere".into(),
            );
        }
        let stats: BTreeSet<String> = g.stats.iter().map(|x| x.id.clone()).collect();
        for (p, phase) in g.sequence.iter().enumerate() {
            for (i, step) in phase.steps.iter().enumerate() {
                let at = format!("/sequence/{p}/steps/{i}");
                match step {
                    Step::Script { side, .. } => {
                        let sides = self.ids.sides.clone();
                        self.reference(f, &format!("{at}/Script/side"), "side", side, &sides);
                    }
                    Step::Impulses(imp) => {
                        self.impulse_refs(f, &format!("{at}/Impulses"), imp, &stats)
                    }
                    Step::TraceSupply(z) => self.supply_refs(f, &format!("{at}/TraceSupply"), z),
                    _ => {}
                }
            }
        }
    }

    /// The ids the parameters of operations in impulses name.
    fn impulse_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        imp: &crate::model::Impulses,
        stats: &BTreeSet<String>,
    ) {
        let ids = std::mem::take(&mut self.ids);
        for (i, x) in imp.impulses.iter().enumerate() {
            let p = format!("{at}/impulses/{i}");
            self.reference(f, &format!("{p}/side"), "side", &x.side, &ids.sides);
            self.references(
                f,
                &format!("{p}/nations"),
                "nation",
                &x.nations,
                &ids.nations,
            );
        }
        if imp.impulses.is_empty() {
            self.error(
                f.at(&format!("{at}/impulses")),
                "E0207",
                "operations need at least one impulse".into(),
            );
        }
        for (i, m) in imp.more_units.iter().enumerate() {
            self.reference(
                f,
                &format!("{at}/more_units/{i}/flag"),
                "flag",
                &m.flag,
                &ids.flags,
            );
        }
        self.reference(f, &format!("{at}/strength"), "stat", &imp.strength, stats);
        self.reference(f, &format!("{at}/movement"), "stat", &imp.movement, stats);
        self.reference(f, &format!("{at}/track"), "track", &imp.track, &ids.tracks);
        self.reference(
            f,
            &format!("{at}/end_flag"),
            "flag",
            &imp.end_flag,
            &ids.flags,
        );
        for (i, &k) in imp.pass_ends.iter().enumerate() {
            if k >= imp.impulses.len() {
                self.error(
                    f.at(&format!("{at}/pass_ends/{i}")),
                    "E0201",
                    format!("there is no impulse {k} (impulses count from 0)"),
                );
            }
        }
        let m = &imp.movement_rules;
        for (i, b) in m.barred.iter().enumerate() {
            let p = format!("{at}/movement_rules/barred/{i}");
            self.references(
                f,
                &format!("{p}/kinds"),
                "connection kind",
                &b.kinds,
                &ids.connection_kinds,
            );
            self.references(
                f,
                &format!("{p}/nations"),
                "nation",
                &b.nations,
                &ids.nations,
            );
        }
        self.references(
            f,
            &format!("{at}/movement_rules/closed_markers"),
            "marker",
            &m.closed_markers,
            &ids.markers,
        );
        self.references(
            f,
            &format!("{at}/movement_rules/enter_hostile_in"),
            "region",
            &m.enter_hostile_in,
            &ids.regions,
        );
        if let Some(t) = &m.move_test {
            let p = format!("{at}/movement_rules/move_test");
            self.references(
                f,
                &format!("{p}/nations"),
                "nation",
                &t.nations,
                &ids.nations,
            );
            if !ids.properties.contains_key(&t.property) {
                self.error(
                    f.at(&format!("{p}/property")),
                    "E0201",
                    format!("unknown property `{}`", t.property),
                );
            }
            for (i, l) in t.lifted_by.iter().enumerate() {
                self.reference(
                    f,
                    &format!("{p}/lifted_by/{i}/flag"),
                    "flag",
                    &l.flag,
                    &ids.flags,
                );
                self.references(
                    f,
                    &format!("{p}/lifted_by/{i}/nations"),
                    "nation",
                    &l.nations,
                    &ids.nations,
                );
            }
        }
        for (i, c) in m.ignore_costs.iter().enumerate() {
            let p = format!("{at}/movement_rules/ignore_costs/{i}");
            self.reference(f, &format!("{p}/flag"), "flag", &c.flag, &ids.flags);
            self.references(
                f,
                &format!("{p}/kinds"),
                "connection kind",
                &c.kinds,
                &ids.connection_kinds,
            );
        }
        let c = &imp.combat;
        self.references(
            f,
            &format!("{at}/combat/not_into"),
            "region",
            &c.not_into,
            &ids.regions,
        );
        self.references(
            f,
            &format!("{at}/combat/not_across"),
            "connection kind",
            &c.not_across,
            &ids.connection_kinds,
        );
        self.references(
            f,
            &format!("{at}/combat/retreat_lower"),
            "nation",
            &c.retreat_lower,
            &ids.nations,
        );
        if !ids.properties.contains_key(&c.retreat_by) {
            self.error(
                f.at(&format!("{at}/combat/retreat_by")),
                "E0201",
                format!("unknown property `{}`", c.retreat_by),
            );
        }
        if let Some(city) = &imp.city {
            let p = format!("{at}/city");
            self.reference(
                f,
                &format!("{p}/region"),
                "region",
                &city.region,
                &ids.regions,
            );
            self.references(
                f,
                &format!("{p}/besiegers"),
                "nation",
                &city.besiegers,
                &ids.nations,
            );
            self.reference(
                f,
                &format!("{p}/marker"),
                "marker",
                &city.marker,
                &ids.markers,
            );
            if !ids.properties.contains_key(&city.garrison) {
                self.error(
                    f.at(&format!("{p}/garrison")),
                    "E0201",
                    format!("unknown property `{}`", city.garrison),
                );
            }
            for (i, x) in city.support.iter().enumerate() {
                self.reference(
                    f,
                    &format!("{p}/support/{i}/side"),
                    "side",
                    &x.side,
                    &ids.sides,
                );
                self.reference(
                    f,
                    &format!("{p}/support/{i}/track"),
                    "track",
                    &x.track,
                    &ids.tracks,
                );
            }
        }
        let cohesion = &imp.cohesion;
        self.references(
            f,
            &format!("{at}/cohesion"),
            "nation",
            cohesion,
            &ids.nations,
        );
        for (i, o) in imp.orders.iter().enumerate() {
            let p = format!("{at}/orders/{i}");
            self.reference(f, &format!("{p}/flag"), "flag", &o.flag, &ids.flags);
            let types = &o.prefer_types;
            self.references(
                f,
                &format!("{p}/prefer_types"),
                "unit type",
                types,
                &ids.unit_types,
            );
            if o.impulse >= imp.impulses.len() {
                self.error(
                    f.at(&format!("{p}/impulse")),
                    "E0201",
                    format!("there is no impulse {} (impulses count from 0)", o.impulse),
                );
            }
        }
        self.references(
            f,
            &format!("{at}/evade_flags"),
            "flag",
            &imp.evade_flags,
            &ids.flags,
        );
        self.references(
            f,
            &format!("{at}/move_and_attack"),
            "flag",
            &imp.move_and_attack,
            &ids.flags,
        );
        self.references(
            f,
            &format!("{at}/capturers"),
            "nation",
            &imp.capturers,
            &ids.nations,
        );
        if let Some(e) = &imp.end_move {
            self.references(
                f,
                &format!("{at}/end_move/not_into"),
                "region",
                &e.not_into,
                &ids.regions,
            );
        }
        self.ids = ids;
    }

    /// The ids a supply step names.
    fn supply_refs(&mut self, f: &Parsed<GameFile>, at: &str, z: &crate::model::ZoneSupply) {
        let ids = std::mem::take(&mut self.ids);
        self.references(
            f,
            &format!("{at}/blocked_by_other_sides"),
            "nation",
            &z.blocked_by_other_sides,
            &ids.nations,
        );
        self.references(
            f,
            &format!("{at}/closed_markers"),
            "marker",
            &z.closed_markers,
            &ids.markers,
        );
        self.references(
            f,
            &format!("{at}/not_across"),
            "connection kind",
            &z.not_across,
            &ids.connection_kinds,
        );
        for (i, a) in z.always.iter().enumerate() {
            self.references(
                f,
                &format!("{at}/always/{i}/nations"),
                "nation",
                &a.nations,
                &ids.nations,
            );
            self.reference(
                f,
                &format!("{at}/always/{i}/region"),
                "region",
                &a.region,
                &ids.regions,
            );
        }
        self.ids = ids;
    }

    fn color(&mut self, f: &dyn At, pointer: &str, color: Option<&str>) {
        if let Some(c) = color {
            let ok = c.len() == 7
                && c.starts_with('#')
                && c[1..].chars().all(|ch| ch.is_ascii_hexdigit());
            if !ok {
                self.error(f.at(pointer), "E0207", format!("`{c}` is not a colour"))
                    .hints
                    .push("write colours as `#rrggbb`".into());
            }
        }
    }

    fn region_cycles(&mut self, f: &Parsed<GameFile>) {
        let within: BTreeMap<&str, &[String]> = f
            .data
            .regions
            .iter()
            .map(|r| (r.id.as_str(), r.within.as_slice()))
            .collect();
        for (i, r) in f.data.regions.iter().enumerate() {
            let mut stack: Vec<&str> = r.within.iter().map(String::as_str).collect();
            let mut seen = BTreeSet::new();
            while let Some(next) = stack.pop() {
                if next == r.id {
                    self.error(
                        f.at(&format!("/regions/{i}/within")),
                        "E0202",
                        format!("region `{}` lies within itself", r.id),
                    );
                    break;
                }
                if seen.insert(next) {
                    stack.extend(
                        within
                            .get(next)
                            .into_iter()
                            .flat_map(|w| w.iter().map(String::as_str)),
                    );
                }
            }
        }
    }

    fn counters(&mut self, f: &Parsed<CountersFile>) {
        self.ids.counters =
            self.declare(f, "counter", ids("/counters", &f.data.counters, |x| &x.id));
        let stats = self.ids.stat_count;
        let (nations, sides, types, sizes, flags) = (
            self.ids.nations.clone(),
            self.ids.sides.clone(),
            self.ids.unit_types.clone(),
            self.ids.sizes.clone(),
            self.ids.counter_flags.clone(),
        );
        for (i, c) in f.data.counters.iter().enumerate() {
            let p = format!("/counters/{i}");
            self.reference(f, &format!("{p}/nation"), "nation", &c.nation, &nations);
            if let Some(side) = &c.side {
                self.reference(f, &format!("{p}/side"), "side", side, &sides);
            }
            self.reference(
                f,
                &format!("{p}/unit_type"),
                "unit type",
                &c.unit_type,
                &types,
            );
            if let Some(t) = &c.back_type {
                self.reference(f, &format!("{p}/back_type"), "unit type", t, &types);
            }
            self.reference(f, &format!("{p}/size"), "unit size", &c.size, &sizes);
            self.references(f, &format!("{p}/flags"), "counter flag", &c.flags, &flags);
            if let Some(n) = stats {
                for (step, values) in [("front", Some(&c.front)), ("back", c.back.as_ref())] {
                    if let Some(values) = values.filter(|v| v.len() != n) {
                        self.error(
                            f.at(&format!("{p}/{step}")),
                            "E0208",
                            format!(
                                "`{}` has {} numbers on its {step}; the game's counters print {n}",
                                c.id,
                                values.len()
                            ),
                        );
                    }
                }
            }
            if c.count == 0 {
                self.error(
                    f.at(&format!("{p}/count")),
                    "E0207",
                    "a counter entry needs a count of at least 1".into(),
                );
            }
        }
    }

    fn map(&mut self, f: &Parsed<MapFile>, game: Option<&GameFile>) -> MapGraph {
        let mut graph = MapGraph::default();
        let m = &f.data;
        let default_kind = game
            .map(|g| g.default_connection_kind.clone())
            .unwrap_or_default();
        // Spaces listed explicitly (including listed hexes).
        let mut hex_of: BTreeMap<(i32, i32), usize> = BTreeMap::new();
        for (i, s) in m.spaces.iter().enumerate() {
            let p = format!("/spaces/{i}");
            let mut space = s.clone();
            if let Some(cell) = s.hex {
                match &m.hex_grid {
                    None => {
                        self.error(
                            f.at(&format!("{p}/hex")),
                            "E0203",
                            format!("space `{}` names a hex but the map has no hex grid", s.id),
                        )
                        .hints
                        .push("add a `hex_grid` to map.ron, or remove `hex`".into());
                    }
                    Some(grid) if !grid.contains(cell) => {
                        self.error(
                            f.at(&format!("{p}/hex")),
                            "E0203",
                            format!(
                                "hex ({}, {}) of `{}` is not on the grid",
                                cell.0, cell.1, s.id
                            ),
                        )
                        .hints
                        .push(format!(
                            "the grid has columns {}..{} and rows {}..{}, less its holes",
                            grid.first.0,
                            grid.first.0 + grid.columns - 1,
                            grid.first.1,
                            grid.first.1 + grid.rows - 1
                        ));
                    }
                    Some(grid) => {
                        space.terrain = space.terrain.or_else(|| Some(grid.terrain.clone()));
                        space.pos = Some(grid.centre(cell));
                    }
                }
            } else if s.pos.is_none() {
                self.diags.push(
                    Diagnostic::warning(
                        "W0002",
                        f.at_key(&format!("{p}/id")),
                        format!("space `{}` has no position", s.id),
                    )
                    .with_hint("add `pos: Some((x: .., y: ..))` so the editor can draw it"),
                );
            }
            if s.terrain.is_none() && s.hex.is_none() {
                self.error(
                    f.at(&p),
                    "E0100",
                    format!("space `{}` has no terrain", s.id),
                );
            }
            match graph.add_space(space) {
                Some(index) => {
                    if let Some(cell) = s.hex {
                        if hex_of.insert(cell, index).is_some() {
                            self.error(
                                f.at(&format!("{p}/hex")),
                                "E0200",
                                format!("hex ({}, {}) is listed twice", cell.0, cell.1),
                            );
                        }
                    }
                }
                None => {
                    self.error(
                        f.at(&format!("{p}/id")),
                        "E0200",
                        format!("duplicate space id `{}`", s.id),
                    );
                }
            }
            self.space_fields(f, &p, s);
        }
        // Cells of the hex grid not listed as spaces.
        if let Some(grid) = &m.hex_grid {
            let terrains = self.ids.terrains.clone();
            self.reference(f, "/hex_grid/terrain", "terrain", &grid.terrain, &terrains);
            if grid.columns <= 0 || grid.rows <= 0 || grid.size <= 0.0 {
                self.error(
                    f.at("/hex_grid"),
                    "E0207",
                    "a hex grid needs positive columns, rows and size".into(),
                );
            }
            for (i, hole) in grid.holes.iter().enumerate() {
                let (c0, r0) = grid.first;
                if !(c0..c0 + grid.columns).contains(&hole.0)
                    || !(r0..r0 + grid.rows).contains(&hole.1)
                {
                    self.error(
                        f.at(&format!("/hex_grid/holes/{i}")),
                        "E0203",
                        format!("hole ({}, {}) is outside the grid", hole.0, hole.1),
                    );
                }
            }
            for cell in grid.cells().collect::<Vec<_>>() {
                if hex_of.contains_key(&cell) {
                    continue;
                }
                let space = Space {
                    id: HexGrid::cell_id(cell),
                    name: HexGrid::cell_id(cell),
                    hex: Some(cell),
                    terrain: Some(grid.terrain.clone()),
                    country: None,
                    regions: vec![],
                    features: vec![],
                    vp: 0,
                    supply: vec![],
                    props: BTreeMap::new(),
                    adjacent: vec![],
                    pos: Some(grid.centre(cell)),
                    notes: String::new(),
                    provenance: Provenance::Printed,
                };
                match graph.add_space(space) {
                    Some(index) => {
                        hex_of.insert(cell, index);
                    }
                    None => {
                        self.error(
                            f.at("/hex_grid"),
                            "E0200",
                            format!(
                                "a listed space already has the id `{}` of hex ({}, {})",
                                HexGrid::cell_id(cell),
                                cell.0,
                                cell.1
                            ),
                        );
                    }
                }
            }
            // Derived adjacency: each pair once.
            for (&cell, &a) in &hex_of {
                for n in grid.neighbours(cell) {
                    if let Some(&b) = hex_of.get(&n) {
                        if a < b {
                            graph.add_edge(a, b, vec![default_kind.clone()]);
                        }
                    }
                }
            }
            let kinds = self.ids.connection_kinds.clone();
            for (i, side) in grid.hexsides.iter().enumerate() {
                let p = format!("/hex_grid/hexsides/{i}");
                self.references(
                    f,
                    &format!("{p}/kinds"),
                    "connection kind",
                    &side.kinds,
                    &kinds,
                );
                let Some(other) = grid.step(side.hex, side.side) else {
                    self.error(
                        f.at(&format!("{p}/side")),
                        "E0203",
                        format!(
                            "{:?} is not a side of a {:?} hex",
                            side.side, grid.orientation
                        ),
                    )
                    .hints
                    .push(format!("the sides are {:?}", grid.directions()));
                    continue;
                };
                match (hex_of.get(&side.hex), hex_of.get(&other)) {
                    (Some(&a), Some(&b)) => {
                        if let Some(e) = graph.edge_between(a, b) {
                            let edge = &mut graph.edges[e];
                            edge.kinds.retain(|k| *k != default_kind);
                            for k in &side.kinds {
                                if !edge.kinds.contains(k) {
                                    edge.kinds.push(k.clone());
                                }
                            }
                        }
                    }
                    _ => {
                        self.error(
                            f.at(&format!("{p}/hex")),
                            "E0203",
                            format!("hexside {:?} of ({}, {}) does not lie between two hexes of the grid", side.side, side.hex.0, side.hex.1),
                        );
                    }
                }
            }
        }
        // Point-to-point connections.
        let kinds = self.ids.connection_kinds.clone();
        let mut pairs: BTreeMap<(usize, usize), String> = BTreeMap::new();
        for (i, c) in m.connections.iter().enumerate() {
            let p = format!("/connections/{i}");
            self.references(
                f,
                &format!("{p}/kinds"),
                "connection kind",
                &c.kinds,
                &kinds,
            );
            let a = self.space_ref(f, &format!("{p}/a"), &c.a, &graph);
            let b = self.space_ref(f, &format!("{p}/b"), &c.b, &graph);
            let (Some(a), Some(b)) = (a, b) else { continue };
            if a == b {
                self.error(
                    f.at(&p),
                    "E0202",
                    format!("connection joins `{}` to itself", c.a),
                );
                continue;
            }
            let key = (a.min(b), a.max(b));
            if let Some(first) = pairs.get(&key) {
                self.error(
                    f.at(&p),
                    "E0202",
                    format!("`{}` and `{}` are already connected ({first})", c.a, c.b),
                );
                continue;
            }
            if graph.edge_between(a, b).is_some() {
                self.error(
                    f.at(&p),
                    "E0202",
                    format!(
                        "`{}` and `{}` are already neighbours on the hex grid",
                        c.a, c.b
                    ),
                )
                .hints
                .push("use a hexside to give the edge between two hexes a kind".into());
                continue;
            }
            pairs.insert(key, format!("connection {}", i + 1));
            let kinds = if c.kinds.is_empty() {
                vec![default_kind.clone()]
            } else {
                c.kinds.clone()
            };
            graph.add_edge(a, b, kinds);
        }
        // Zone-style adjacency listed on spaces.
        for (i, s) in m.spaces.iter().enumerate() {
            let Some(a) = graph.index_of(&s.id) else {
                continue;
            };
            for (j, adj) in s.adjacent.iter().enumerate() {
                let p = format!("/spaces/{i}/adjacent/{j}");
                self.references(
                    f,
                    &format!("{p}/kinds"),
                    "connection kind",
                    &adj.kinds,
                    &kinds,
                );
                let Some(b) = self.space_ref(f, &format!("{p}/to"), &adj.to, &graph) else {
                    continue;
                };
                if a == b {
                    self.error(
                        f.at(&p),
                        "E0202",
                        format!("zone `{}` lists itself as adjacent", s.id),
                    );
                    continue;
                }
                let edge_kinds = if adj.kinds.is_empty() {
                    vec![default_kind.clone()]
                } else {
                    adj.kinds.clone()
                };
                match graph.edge_between(a, b) {
                    None => {
                        pairs.insert((a.min(b), a.max(b)), format!("adjacency of `{}`", s.id));
                        graph.add_edge(a, b, edge_kinds);
                    }
                    Some(e) => {
                        let existing = &graph.edges[e];
                        let mut x = existing.kinds.clone();
                        let mut y = edge_kinds;
                        x.sort();
                        y.sort();
                        let listed_back = graph.spaces[b].adjacent.iter().any(|r| r.to == s.id);
                        if x != y || !listed_back {
                            self.error(
                                f.at(&p),
                                "E0202",
                                format!(
                                    "`{}` and `{}` are already joined, with kinds {:?}",
                                    s.id, adj.to, graph.edges[e].kinds
                                ),
                            )
                            .hints
                            .push(
                                "list an edge once, or list it on both zones with the same kinds"
                                    .into(),
                            );
                        }
                    }
                }
            }
        }
        graph
    }

    fn space_ref(
        &mut self,
        f: &dyn At,
        pointer: &str,
        id: &str,
        graph: &MapGraph,
    ) -> Option<usize> {
        let found = graph.index_of(id);
        if found.is_none() && !self.broken.contains(&FileKind::Map) {
            let suggestion =
                did_you_mean(id, graph.spaces.iter().map(|s| s.id.as_str())).map(str::to_string);
            let d = self.error(f.at(pointer), "E0201", format!("unknown space `{id}`"));
            if let Some(s) = suggestion {
                d.hints.push(format!("did you mean `{s}`?"));
            }
        }
        found
    }

    fn space_fields(&mut self, f: &Parsed<MapFile>, p: &str, s: &Space) {
        let ids = std::mem::take(&mut self.ids);
        if let Some(t) = &s.terrain {
            self.reference(f, &format!("{p}/terrain"), "terrain", t, &ids.terrains);
        }
        if let Some(country) = &s.country {
            self.reference(f, &format!("{p}/country"), "region", country, &ids.regions);
        }
        self.references(
            f,
            &format!("{p}/regions"),
            "region",
            &s.regions,
            &ids.regions,
        );
        self.references(
            f,
            &format!("{p}/features"),
            "feature",
            &s.features,
            &ids.features,
        );
        for (j, source) in s.supply.iter().enumerate() {
            let q = format!("{p}/supply/{j}");
            self.references(
                f,
                &format!("{q}/nations"),
                "nation",
                &source.nations,
                &ids.nations,
            );
            if let Some(flag) = &source.flag {
                self.reference(f, &format!("{q}/flag"), "flag", flag, &ids.flags);
            }
        }
        for (key, value) in &s.props {
            let q = format!("{p}/props/{}", crate::ron_syntax::pointer_segment(key));
            match ids.properties.get(key) {
                None if self.broken.contains(&FileKind::Game) => {}
                None => {
                    let known: BTreeSet<String> = ids.properties.keys().cloned().collect();
                    let span = f.at_key(&q);
                    let suggestion =
                        did_you_mean(key, known.iter().map(String::as_str)).map(str::to_string);
                    let d = self.error(span, "E0201", format!("unknown property `{key}`"));
                    d.hints.push(match suggestion {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "declare it in game.ron under `properties`".into(),
                    });
                }
                Some(ty) => {
                    let ok = matches!(
                        (ty, value),
                        (PropertyType::Int, PropertyValue::Int(_))
                            | (PropertyType::Bool, PropertyValue::Bool(_))
                            | (PropertyType::Text, PropertyValue::Text(_))
                    );
                    if !ok {
                        self.error(
                            f.at(&q),
                            "E0100",
                            format!("property `{key}` holds a {ty:?} value"),
                        );
                    }
                }
            }
        }
        self.ids = ids;
    }

    fn tables(&mut self, f: &Parsed<TablesFile>, faces: u32) {
        self.declare(f, "table", ids("/tables", &f.data.tables, |x| &x.id));
        for (i, t) in f.data.tables.iter().enumerate() {
            self.table(f, &format!("/tables/{i}"), t, faces);
        }
    }

    fn table(&mut self, f: &Parsed<TablesFile>, p: &str, t: &Table, faces: u32) {
        let width = match &t.columns {
            Columns::Single => 1,
            Columns::Bands(bands) => {
                if bands.is_empty() || bands.windows(2).any(|w| w[0] >= w[1]) {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!("table `{}`: strength bands must ascend strictly", t.id),
                    );
                }
                bands.len()
            }
            Columns::Odds(odds) => {
                let bad_ratio = odds.iter().any(|&(a, d)| a == 0 || d == 0);
                let ascending = odds.windows(2).all(|w| {
                    u64::from(w[0].0) * u64::from(w[1].1) < u64::from(w[1].0) * u64::from(w[0].1)
                });
                if odds.is_empty() || bad_ratio || !ascending {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!(
                            "table `{}`: odds columns must be positive ratios in ascending order",
                            t.id
                        ),
                    );
                }
                odds.len()
            }
            Columns::Named(names) => {
                let set: BTreeSet<&String> = names.iter().collect();
                if names.is_empty() || set.len() != names.len() {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!(
                            "table `{}`: column names must be present and distinct",
                            t.id
                        ),
                    );
                }
                names.len()
            }
        };
        // Row keys: what they must cover.
        let range = match &t.rows_by {
            RowsBy::Dice { count, clamp } => {
                let natural = (*count as i32, (*count * faces) as i32);
                if *count == 0 {
                    self.error(
                        f.at(&format!("{p}/rows_by")),
                        "E0207",
                        format!("table `{}` rolls no dice", t.id),
                    );
                }
                Some(clamp.unwrap_or(natural))
            }
            RowsBy::Number { from, to } => Some((*from, *to)),
            RowsBy::Name => None,
        };
        let mut covered: BTreeMap<i32, usize> = BTreeMap::new();
        let mut names: BTreeSet<&str> = BTreeSet::new();
        for (r, row) in t.rows.iter().enumerate() {
            let rp = format!("{p}/rows/{r}");
            match (&row.key, range) {
                (RowKey::Name(name), None) => {
                    if !names.insert(name) {
                        self.error(
                            f.at(&format!("{rp}/key")),
                            "E0204",
                            format!("table `{}`: row `{name}` is given twice", t.id),
                        );
                    }
                }
                (RowKey::One(_) | RowKey::Range(..), Some((lo, hi))) => {
                    let (a, b) = match row.key {
                        RowKey::One(n) => (n, n),
                        RowKey::Range(a, b) => (a, b),
                        RowKey::Name(_) => unreachable!(),
                    };
                    if a > b {
                        self.error(
                            f.at(&format!("{rp}/key")),
                            "E0204",
                            format!("table `{}`: row range ({a}, {b}) is backwards", t.id),
                        );
                        continue;
                    }
                    for n in a..=b {
                        if n < lo || n > hi {
                            self.error(
                                f.at(&format!("{rp}/key")),
                                "E0204",
                                format!("table `{}`: row {n} lies outside {lo} to {hi}", t.id),
                            );
                            break;
                        }
                        if let Some(other) = covered.insert(n, r) {
                            self.error(
                                f.at(&format!("{rp}/key")),
                                "E0204",
                                format!(
                                    "table `{}`: {n} is covered by row {} and row {}",
                                    t.id,
                                    other + 1,
                                    r + 1
                                ),
                            );
                            break;
                        }
                    }
                }
                (RowKey::Name(_), Some(_)) => {
                    self.error(
                        f.at(&format!("{rp}/key")),
                        "E0204",
                        format!(
                            "table `{}`: rows are selected by number; this key is a name",
                            t.id
                        ),
                    );
                }
                (_, None) => {
                    self.error(
                        f.at(&format!("{rp}/key")),
                        "E0204",
                        format!(
                            "table `{}`: rows are selected by name; this key is a number",
                            t.id
                        ),
                    );
                }
            }
            if row.cells.len() != width {
                self.error(
                    f.at(&format!("{rp}/cells")),
                    "E0204",
                    format!(
                        "table `{}`: row {} has {} cells for {width} columns",
                        t.id,
                        r + 1,
                        row.cells.len()
                    ),
                );
            }
            for (c, cell) in row.cells.iter().enumerate() {
                self.cell(f, &format!("{rp}/cells/{c}"), &t.id, &t.result, cell);
            }
        }
        if let Some((lo, hi)) = range {
            let missing: Vec<i32> = (lo..=hi).filter(|n| !covered.contains_key(n)).collect();
            if !missing.is_empty() && hi - lo < 1000 {
                self.error(
                    f.at(&format!("{p}/rows")),
                    "E0204",
                    format!(
                        "table `{}` is incomplete: no row for {}",
                        t.id,
                        list(&missing)
                    ),
                )
                .hints
                .push(format!("the rows must cover {lo} to {hi} exactly"));
            }
        }
    }

    fn cell(&mut self, f: &Parsed<TablesFile>, p: &str, table: &str, ty: &ResultType, cell: &Cell) {
        let scalar_ok = |field: &FieldType, s: &Scalar| match (field, s) {
            (FieldType::Int, Scalar::Int(_)) | (FieldType::Bool, Scalar::Bool(_)) => Ok(()),
            (FieldType::Symbol(allowed), Scalar::Symbol(x)) if allowed.contains(x) => Ok(()),
            (FieldType::Symbol(allowed), Scalar::Symbol(x)) => {
                Err(format!("`{x}` is not one of {}", allowed.join(", ")))
            }
            (field, s) => Err(format!(
                "expected {}, found {}",
                field_name(field),
                scalar_name(s)
            )),
        };
        match (ty, cell) {
            (ResultType::Int, Cell::Scalar(s)) => {
                if let Err(e) = scalar_ok(&FieldType::Int, s) {
                    self.error(f.at(p), "E0204", format!("table `{table}`: {e}"));
                }
            }
            (ResultType::Symbol(symbols), Cell::Scalar(s)) => {
                if let Err(e) = scalar_ok(&FieldType::Symbol(symbols.clone()), s) {
                    self.error(f.at(p), "E0204", format!("table `{table}`: {e}"));
                }
            }
            (ResultType::Record(fields), Cell::Record(values)) => {
                for (key, value) in values {
                    let q = format!("{p}/{}", crate::ron_syntax::pointer_segment(key));
                    match fields.iter().find(|d| d.name == *key) {
                        None => {
                            self.error(
                                f.at_key(&q),
                                "E0204",
                                format!("table `{table}`: no field `{key}` in its results"),
                            );
                        }
                        Some(decl) => {
                            if let Err(e) = scalar_ok(&decl.ty, value) {
                                self.error(
                                    f.at(&q),
                                    "E0204",
                                    format!("table `{table}`: field `{key}`: {e}"),
                                );
                            }
                        }
                    }
                }
                for decl in fields {
                    if decl.default.is_none() && !values.contains_key(&decl.name) {
                        self.error(f.at(p), "E0204", format!("table `{table}`: the cell has no `{}` and the field has no default", decl.name));
                    }
                }
            }
            (ResultType::Record(_), Cell::Scalar(_)) => {
                self.error(
                    f.at(p),
                    "E0204",
                    format!("table `{table}`: cells are records such as {{\"field\": 1}}"),
                );
            }
            (_, Cell::Record(_)) => {
                self.error(
                    f.at(p),
                    "E0204",
                    format!("table `{table}`: cells are single values, not records"),
                );
            }
        }
    }

    fn cards(&mut self, files: &[Parsed<CardsFile>]) {
        let decks: BTreeSet<String> = self.ids.decks.keys().cloned().collect();
        let (kinds, values) = (self.ids.card_kinds.clone(), self.ids.card_values.clone());
        let mut seen_ids: BTreeSet<String> = BTreeSet::new();
        let mut seen_decks: BTreeSet<String> = BTreeSet::new();
        for f in files {
            let deck = &f.data.deck;
            self.reference(f, "/deck", "deck", deck, &decks);
            if !seen_decks.insert(deck.clone()) {
                self.error(
                    f.at("/deck"),
                    "E0200",
                    format!("deck `{deck}` has cards in two files"),
                );
            }
            let groups = self.ids.decks.get(deck).cloned().unwrap_or_default();
            let mut numbers = BTreeSet::new();
            for (i, card) in f.data.cards.iter().enumerate() {
                let p = format!("/cards/{i}");
                self.ids
                    .card_decks
                    .entry(card.id.clone())
                    .or_insert_with(|| deck.clone());
                if !seen_ids.insert(card.id.clone()) {
                    self.error(
                        f.at(&format!("{p}/id")),
                        "E0200",
                        format!("duplicate card id `{}`", card.id),
                    );
                }
                if !numbers.insert(card.number) {
                    self.error(
                        f.at(&format!("{p}/number")),
                        "E0200",
                        format!("deck `{deck}` has two cards numbered {}", card.number),
                    );
                }
                if let Some(g) = &card.group {
                    self.reference(f, &format!("{p}/group"), "deck group", g, &groups);
                }
                self.reference(f, &format!("{p}/kind"), "card kind", &card.kind, &kinds);
                for key in card.values.keys() {
                    let q = format!("{p}/values/{}", crate::ron_syntax::pointer_segment(key));
                    if !values.contains(key) && !self.broken.contains(&FileKind::Game) {
                        let suggestion = did_you_mean(key, values.iter().map(String::as_str))
                            .map(str::to_string);
                        let d = self.error(
                            f.at_key(&q),
                            "E0201",
                            format!("unknown card value `{key}`"),
                        );
                        if let Some(s) = suggestion {
                            d.hints.push(format!("did you mean `{s}`?"));
                        }
                    }
                }
            }
        }
        self.ids.cards = seen_ids;
    }

    fn declare_files(&mut self, files: &[Parsed<ScenarioFile>]) {
        let mut set = BTreeSet::new();
        for f in files {
            if !set.insert(f.data.id.clone()) {
                self.error(
                    f.at("/id"),
                    "E0200",
                    format!("duplicate scenario id `{}`", f.data.id),
                );
            }
        }
    }

    fn scenario(
        &mut self,
        f: &Parsed<ScenarioFile>,
        graph: &MapGraph,
        counters: &[Counter],
        game: Option<&GameFile>,
    ) {
        let s = &f.data;
        let ids = std::mem::take(&mut self.ids);
        for (field, turn) in [("first_turn", s.first_turn), ("last_turn", s.last_turn)] {
            if !ids.turns.is_empty() && !ids.turns.contains(&turn) {
                self.error(
                    f.at(&format!("/{field}")),
                    "E0201",
                    format!("turn {turn} is not on the turn record track"),
                );
            }
        }
        if s.first_turn > s.last_turn {
            self.error(
                f.at("/last_turn"),
                "E0207",
                format!(
                    "the scenario ends (turn {}) before it begins (turn {})",
                    s.last_turn, s.first_turn
                ),
            );
        }
        for (i, c) in s.control.iter().enumerate() {
            let p = format!("/control/{i}");
            if let Some(side) = &c.side {
                self.reference(f, &format!("{p}/side"), "side", side, &ids.sides);
            }
            self.references(
                f,
                &format!("{p}/regions"),
                "region",
                &c.regions,
                &ids.regions,
            );
            for (j, space) in c.spaces.iter().enumerate() {
                self.space_ref(f, &format!("{p}/spaces/{j}"), space, graph);
            }
        }
        let by_id: BTreeMap<&str, &Counter> = counters.iter().map(|c| (c.id.as_str(), c)).collect();
        let mut used: BTreeMap<&str, u32> = BTreeMap::new();
        let mut stacks: BTreeMap<usize, Vec<(usize, &Counter, u32)>> = BTreeMap::new();
        for (i, pl) in s.setup.iter().enumerate() {
            let p = format!("/setup/{i}");
            self.reference(
                f,
                &format!("{p}/counter"),
                "counter",
                &pl.counter,
                &ids.counters,
            );
            let space = self.location(f, &format!("{p}/at"), &pl.at, graph, &ids);
            if let Some(flag) = &pl.when {
                self.reference(f, &format!("{p}/when"), "flag", flag, &ids.flags);
            }
            if pl.count == 0 {
                self.error(
                    f.at(&format!("{p}/count")),
                    "E0207",
                    "a placement of no pieces".into(),
                );
            }
            let Some(counter) = by_id.get(pl.counter.as_str()) else {
                continue;
            };
            if pl.reduced && counter.back.is_none() {
                self.error(
                    f.at(&format!("{p}/reduced")),
                    "E0207",
                    format!("`{}` has no reduced step", counter.id),
                );
            }
            let total = used.entry(counter.id.as_str()).or_default();
            *total += pl.count;
            if *total > counter.count {
                self.error(
                    f.at(&format!("{p}/count")),
                    "E0206",
                    format!(
                        "more `{}` placed ({}) than the countersheet has ({})",
                        counter.id, total, counter.count
                    ),
                )
                .hints
                .push("raise the counter's `count` in counters.ron, or place fewer".into());
            }
            if let (Some(space), None) = (space, &pl.when) {
                stacks
                    .entry(space)
                    .or_default()
                    .push((i, counter, pl.count));
            }
        }
        if let Some(game) = game {
            self.stacking(f, game, &stacks, graph);
        }
        let limits: BTreeMap<&str, (&MarkerKind, u32)> = game
            .map(|g| g.markers.iter().map(|m| (m.id.as_str(), (m, 0))).collect())
            .unwrap_or_default();
        let mut limits = limits;
        for (i, m) in s.markers.iter().enumerate() {
            let p = format!("/markers/{i}");
            self.reference(f, &format!("{p}/marker"), "marker", &m.marker, &ids.markers);
            self.location(f, &format!("{p}/at"), &m.at, graph, &ids);
            if let Some((kind, placed)) = limits.get_mut(m.marker.as_str()) {
                *placed += 1;
                if m.level == 0 || m.level > kind.levels {
                    self.error(
                        f.at(&format!("{p}/level")),
                        "E0207",
                        format!("marker `{}` has levels 1 to {}", kind.id, kind.levels),
                    );
                }
                if let Some(limit) = kind.limit.filter(|&l| *placed > l) {
                    self.error(
                        f.at(&p),
                        "E0206",
                        format!(
                            "more `{}` markers ({placed}) than the game provides ({limit})",
                            kind.id
                        ),
                    );
                }
            }
        }
        let tracks: BTreeMap<&str, &Track> = game
            .map(|g| g.tracks.iter().map(|t| (t.id.as_str(), t)).collect())
            .unwrap_or_default();
        for (i, t) in s.tracks.iter().enumerate() {
            let p = format!("/tracks/{i}");
            self.reference(f, &format!("{p}/track"), "track", &t.track, &ids.tracks);
            if let Some(track) = tracks.get(t.track.as_str()) {
                if t.value < track.min || t.value > track.max {
                    self.error(
                        f.at(&format!("{p}/value")),
                        "E0207",
                        format!(
                            "{} is off the `{}` track ({} to {})",
                            t.value, track.id, track.min, track.max
                        ),
                    );
                }
            }
        }
        self.references(f, "/flags", "flag", &s.flags, &ids.flags);
        let decks: BTreeSet<String> = ids.decks.keys().cloned().collect();
        for (i, d) in s.decks.iter().enumerate() {
            let p = format!("/decks/{i}");
            self.reference(f, &format!("{p}/deck"), "deck", &d.deck, &decks);
            if let Some(groups) = ids.decks.get(&d.deck) {
                self.references(f, &format!("{p}/groups"), "deck group", &d.groups, groups);
            }
        }
        for (i, h) in s.hands.iter().enumerate() {
            let p = format!("/hands/{i}");
            self.reference(f, &format!("{p}/side"), "side", &h.side, &ids.sides);
            self.reference(f, &format!("{p}/deck"), "deck", &h.deck, &decks);
            self.references(
                f,
                &format!("{p}/choose_one_of"),
                "card",
                &h.choose_one_of,
                &ids.cards,
            );
        }
        self.scenario_start(f, &ids);
        self.declare(f, "optional rule", ids_of_options(&s.options));
        self.declare(
            f,
            "special rule",
            s.special_rules
                .iter()
                .enumerate()
                .map(|(i, r)| (format!("/special_rules/{i}/id"), r.id.as_str())),
        );
        self.ids = ids;
    }

    /// Checks a location and returns the space it names, if it is one.
    fn location(
        &mut self,
        f: &Parsed<ScenarioFile>,
        p: &str,
        at: &Location,
        graph: &MapGraph,
        ids: &Ids,
    ) -> Option<usize> {
        match at {
            Location::Space(space) => self.space_ref(f, &format!("{p}/Space"), space, graph),
            Location::Box(b) => {
                self.reference(f, &format!("{p}/Box"), "box", b, &ids.boxes);
                None
            }
            Location::Region(r) => {
                self.reference(f, &format!("{p}/Region"), "region", r, &ids.regions);
                None
            }
        }
    }

    fn stacking(
        &mut self,
        f: &Parsed<ScenarioFile>,
        game: &GameFile,
        stacks: &BTreeMap<usize, Vec<(usize, &Counter, u32)>>,
        graph: &MapGraph,
    ) {
        let (rules, types) = (&game.stacking, &game.unit_types);
        let exempt: BTreeSet<&str> = types
            .iter()
            .filter(|t| t.no_stacking)
            .map(|t| t.id.as_str())
            .collect();
        for (&space, pieces) in stacks {
            let name = &graph.spaces[space].id;
            let last = pieces.last().map_or(0, |p| p.0);
            let at = f.at(&format!("/setup/{last}"));
            let counted: u32 = pieces
                .iter()
                .filter(|(_, c, _)| !exempt.contains(c.unit_type.as_str()))
                .map(|p| p.2)
                .sum();
            if let Some(limit) = rules.limit.filter(|&l| counted > l) {
                self.error(
                    at,
                    "E0205",
                    format!("{counted} units in `{name}` break the stacking limit of {limit}"),
                );
            }
            let here = &graph.spaces[space];
            for l in rules.limits.iter().filter(|l| l.applies(game, here)) {
                let n: u32 = pieces
                    .iter()
                    .filter(|(_, c, _)| {
                        !exempt.contains(c.unit_type.as_str()) && l.counts(&c.nation)
                    })
                    .map(|p| p.2)
                    .sum();
                if n > l.limit {
                    let whose = if l.nations.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", l.nations.join("/"))
                    };
                    self.error(
                        at,
                        "E0205",
                        format!(
                            "{n} units{whose} in `{name}` break the stacking limit of {}",
                            l.limit
                        ),
                    );
                }
            }
            let nations: BTreeSet<&str> =
                pieces.iter().map(|(_, c, _)| c.nation.as_str()).collect();
            let lies_in = |r: &String| crate::model::space_lies_in(game, here, r);
            for apart in rules.apart.iter().filter(|a| !a.except.iter().any(lies_in)) {
                let these: Vec<&str> = nations
                    .iter()
                    .copied()
                    .filter(|n| apart.nations.iter().any(|a| a == n))
                    .collect();
                let others: Vec<&str> = nations
                    .iter()
                    .copied()
                    .filter(|n| !apart.nations.iter().any(|a| a == n))
                    .filter(|n| apart.from.is_empty() || apart.from.iter().any(|x| x == n))
                    .collect();
                if !these.is_empty() && !others.is_empty() {
                    self.error(
                        at,
                        "E0205",
                        format!(
                            "in `{name}`, {} units may not stack with {} units",
                            these.join("/"),
                            others.join("/")
                        ),
                    );
                }
            }
            let pieces_here: u32 = pieces.iter().map(|p| p.2).sum();
            for alone in &rules.alone {
                if pieces.iter().any(|(_, c, _)| c.id == *alone) && pieces_here > 1 {
                    self.error(
                        at,
                        "E0205",
                        format!("`{alone}` may not stack with any other unit (in `{name}`)"),
                    );
                }
            }
        }
    }
}

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
