//! The rulebook examples (`examples/*.ron`): every name they use resolves (scenario, optional
//! rules, phase, sides, units, places, markers, tracks, flags, cards, tables and their
//! columns), so a run fails only where play differs from the print.

use super::*;
use crate::content::ExampleEntry;
use crate::model::{ExampleFile, ExampleStep};

impl Checker<'_> {
    pub(super) fn examples(
        &mut self,
        files: &[Parsed<ExampleFile>],
        sources: &Sources,
        content: &Content,
    ) -> Vec<ExampleEntry> {
        let names = crate::script::check::Names::from_content(content);
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for f in files {
            if !seen.insert(f.data.id.clone()) {
                self.error(
                    f.at("/id"),
                    "E0200",
                    format!("duplicate example id `{}`", f.data.id),
                );
            }
            self.example(f, content);
            let mut conditions = std::collections::BTreeMap::new();
            for (i, step) in f.data.steps.iter().enumerate() {
                let ExampleStep::Holds(src) = step else {
                    continue;
                };
                let (expr, mut errors) = syntax::parse_expr(src);
                if let Some(e) = &expr {
                    errors.extend(check_condition(e, &names));
                }
                // With a file that did not load, the names it declares are unknown: only the
                // condition's syntax is worth reporting (as for every script).
                if self.broken.iter().any(|&k| k != FileKind::Example) {
                    errors.retain(|e| matches!(e.code, "E0301" | "E0302"));
                }
                let text = &sources.get(f.file).text;
                let ok = errors.is_empty();
                self.script_errors(f, text, &format!("/steps/{i}/Holds"), errors);
                if let (Some(e), true) = (expr, ok) {
                    conditions.insert(i, e);
                }
            }
            out.push(ExampleEntry {
                data: f.data.clone(),
                file: f.file,
                spans: f.spans.clone(),
                conditions,
            });
        }
        out
    }

    fn example(&mut self, f: &Parsed<ExampleFile>, content: &Content) {
        let e = &f.data;
        let ids = std::mem::take(&mut self.ids);
        let scenarios: BTreeSet<String> = content.scenarios.iter().map(|s| s.id.clone()).collect();
        self.reference(f, "/scenario", "scenario", &e.scenario, &scenarios);
        if let Some(s) = content.scenario(&e.scenario) {
            let options: BTreeSet<String> = s.options.iter().map(|o| o.id.clone()).collect();
            self.references(f, "/options", "optional rule", &e.options, &options);
        }
        if let Some(game) = &content.game {
            let faces = i64::from(game.dice.faces.max(1));
            for (i, d) in e.dice.iter().enumerate() {
                if !(1..=faces).contains(d) {
                    self.error(
                        f.at(&format!("/dice/{i}")),
                        "E0207",
                        format!("die result {d} is not a face of the game's die (1 to {faces})"),
                    );
                }
            }
        }
        let p = &e.position;
        if let (Some(at), Some(game)) = (&p.at, &content.game) {
            let phases: BTreeSet<String> = game.sequence.iter().map(|x| x.id.clone()).collect();
            self.reference(f, "/position/at/phase", "phase", &at.phase, &phases);
            if let Some(side) = &at.side {
                self.reference(f, "/position/at/side", "side", side, &ids.sides);
            }
        }
        for (i, space) in p.clear.iter().enumerate() {
            self.space_ref(f, &format!("/position/clear/{i}"), space, &content.graph);
        }
        for (i, u) in p.units.iter().enumerate() {
            let q = format!("/position/units/{i}");
            self.unit_name(f, &format!("{q}/unit"), &u.unit, content);
            self.place_ref(f, &format!("{q}/at"), &u.at, content, &ids);
            if let Some(side) = &u.serves {
                self.reference(f, &format!("{q}/serves"), "side", side, &ids.sides);
            }
            let at = format!("{q}/theatres");
            self.references(f, &at, "theatre", &u.theatres, &ids.theatres);
        }
        for (i, c) in p.control.iter().enumerate() {
            self.control_ref(
                f,
                &format!("/position/control/{i}"),
                c,
                &content.graph,
                &ids,
            );
        }
        self.references(
            f,
            "/position/clear_markers",
            "marker",
            &p.clear_markers,
            &ids.markers,
        );
        for (i, m) in p.markers.iter().enumerate() {
            let q = format!("/position/markers/{i}");
            self.reference(f, &format!("{q}/marker"), "marker", &m.marker, &ids.markers);
            self.space_ref(f, &format!("{q}/space"), &m.space, &content.graph);
        }
        for (i, t) in p.tracks.iter().enumerate() {
            let q = format!("/position/tracks/{i}/track");
            self.reference(f, &q, "track", &t.track, &ids.tracks);
        }
        self.references(f, "/position/flags", "flag", &p.flags, &ids.flags);
        self.references(
            f,
            "/position/clear_flags",
            "flag",
            &p.clear_flags,
            &ids.flags,
        );
        for (i, h) in p.hands.iter().enumerate() {
            let q = format!("/position/hands/{i}");
            self.reference(f, &format!("{q}/side"), "side", &h.side, &ids.sides);
            self.references(f, &format!("{q}/cards"), "card", &h.cards, &ids.cards);
        }
        for (i, h) in p.kept.iter().enumerate() {
            let q = format!("/position/kept/{i}");
            self.reference(f, &format!("{q}/side"), "side", &h.side, &ids.sides);
            self.references(f, &format!("{q}/cards"), "card", &h.cards, &ids.cards);
        }
        self.references(f, "/position/played", "card", &p.played, &ids.cards);
        for (i, c) in p.played_on.iter().enumerate() {
            let q = format!("/position/played_on/{i}/card");
            self.reference(f, &q, "card", &c.card, &ids.cards);
        }
        if e.steps.is_empty() {
            self.error(f.at("/steps"), "E0207", "an example with no steps".into());
        }
        for (i, step) in e.steps.iter().enumerate() {
            self.example_step(f, i, step, content, &ids);
        }
        self.ids = ids;
    }

    fn example_step(
        &mut self,
        f: &Parsed<ExampleFile>,
        i: usize,
        step: &ExampleStep,
        content: &Content,
        ids: &Ids,
    ) {
        let q = format!("/steps/{i}");
        match step {
            ExampleStep::Prompt(p) => {
                if let Some(side) = &p.side {
                    self.reference(f, &format!("{q}/Prompt/side"), "side", side, &ids.sides);
                }
            }
            ExampleStep::Unit(u) => {
                self.unit_name(f, &format!("{q}/Unit/unit"), &u.unit, content);
                if let Some(at) = &u.at {
                    let at = at.strip_prefix("not:").unwrap_or(at);
                    self.place_ref(f, &format!("{q}/Unit/at"), at, content, ids);
                }
                if let Some(theatres) = &u.theatres {
                    let at = format!("{q}/Unit/theatres");
                    self.references(f, &at, "theatre", theatres, &ids.theatres);
                }
            }
            ExampleStep::Control(c) => {
                self.control_ref(f, &format!("{q}/Control"), c, &content.graph, ids);
            }
            ExampleStep::Track(t) => {
                self.reference(
                    f,
                    &format!("{q}/Track/track"),
                    "track",
                    &t.track,
                    &ids.tracks,
                );
            }
            ExampleStep::Marker(m) => {
                let q = format!("{q}/Marker");
                self.reference(f, &format!("{q}/marker"), "marker", &m.marker, &ids.markers);
                self.space_ref(f, &format!("{q}/space"), &m.space, &content.graph);
            }
            ExampleStep::Roll(r) => {
                let tables: BTreeSet<String> =
                    content.tables.iter().map(|t| t.id.clone()).collect();
                let q = format!("{q}/Roll");
                self.reference(f, &format!("{q}/table"), "table", &r.table, &tables);
                if let Some(t) = content.tables.iter().find(|t| t.id == r.table) {
                    let labels: Vec<String> = (0..t.width()).map(|c| t.column_label(c)).collect();
                    if !labels.contains(&r.column) {
                        self.error(
                            f.at(&format!("{q}/column")),
                            "E0201",
                            format!("table `{}` has no column `{}`", t.id, r.column),
                        )
                        .hints
                        .push(format!("its columns: {}", labels.join(", ")));
                    }
                }
            }
            ExampleStep::Flag(x) => {
                self.reference(f, &format!("{q}/Flag/flag"), "flag", &x.flag, &ids.flags);
            }
            ExampleStep::Card(c) => {
                self.reference(f, &format!("{q}/Card/card"), "card", &c.card, &ids.cards);
                let at = c.at.strip_prefix("not:").unwrap_or(&c.at);
                let places = ["hand", "draw", "discard", "set_aside", "kept", "out"];
                if !places.contains(&at) {
                    self.error(
                        f.at(&format!("{q}/Card/at")),
                        "E0201",
                        format!("a card is in no place `{at}`"),
                    )
                    .hints
                    .push(format!("a card's places: {}", places.join(", ")));
                }
                if let Some(side) = &c.side {
                    let mut whose = ids.sides.clone();
                    whose.extend(ids.decks.keys().cloned());
                    self.reference(f, &format!("{q}/Card/side"), "side", side, &whose);
                }
            }
            ExampleStep::Winner(side) if !side.is_empty() => {
                self.reference(f, &format!("{q}/Winner"), "side", side, &ids.sides);
            }
            _ => {}
        }
    }

    /// A piece as the prompts name it: a counter's id, with `.N` for one of several pieces.
    fn unit_name(&mut self, f: &Parsed<ExampleFile>, p: &str, name: &str, content: &Content) {
        if self.broken.contains(&FileKind::Counters) {
            return;
        }
        let (id, piece) = match name.rsplit_once('.') {
            Some((id, n)) if n.parse::<u32>().is_ok() => (id, n.parse::<u32>().ok()),
            _ => (name, None),
        };
        let Some(c) = content.counter(id) else {
            let known = content.counters.iter().map(|c| c.id.as_str());
            let suggestion = did_you_mean(id, known).map(str::to_string);
            let d = self.error(f.at(p), "E0201", format!("unknown unit `{name}`"));
            if let Some(s) = suggestion {
                d.hints.push(format!("did you mean `{s}`?"));
            }
            return;
        };
        let fits = match piece {
            None => c.count <= 1,
            Some(n) => c.count > 1 && n >= 1 && n <= c.count,
        };
        if !fits {
            let hint = if c.count > 1 {
                format!(
                    "`{id}` has {} pieces: `{id}.1` to `{id}.{}`",
                    c.count, c.count
                )
            } else {
                format!("`{id}` is a single piece: name it `{id}`")
            };
            self.error(f.at(p), "E0201", format!("no piece `{name}`"))
                .hints
                .push(hint);
        }
    }

    /// A space, a box, `removed` or `unplaced`. Boxes are game.ron's: with it broken, a place
    /// that is no space is not reported (it may be one of its boxes).
    fn place_ref(
        &mut self,
        f: &Parsed<ExampleFile>,
        p: &str,
        at: &str,
        content: &Content,
        ids: &Ids,
    ) {
        // Boxes are declared in game.ron: when it did not load, a box's name is not an error.
        if matches!(at, "removed" | "unplaced")
            || self.broken.contains(&FileKind::Game)
            || ids.boxes.contains(at)
            || content.graph.index_of(at).is_some()
            || self.broken.contains(&FileKind::Game)
        {
            return;
        }
        self.space_ref(f, p, at, &content.graph);
    }
}
