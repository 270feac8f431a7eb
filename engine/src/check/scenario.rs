//! The scenarios: their references, placements, counts and stacking.

use super::*;

impl Checker<'_> {
    pub(super) fn declare_files(&mut self, files: &[Parsed<ScenarioFile>]) {
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

    pub(super) fn scenario(
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
            self.control_ref(f, &format!("/control/{i}"), c, graph, &ids);
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
        for (i, o) in s.options.iter().enumerate() {
            let Some(turn) = o.first_turn else { continue };
            let at = || f.at(&format!("/options/{i}/first_turn"));
            if !ids.turns.is_empty() && !ids.turns.contains(&turn) {
                self.error(
                    at(),
                    "E0201",
                    format!("turn {turn} is not on the turn record track"),
                );
            } else if turn > s.last_turn {
                self.error(
                    at(),
                    "E0207",
                    format!(
                        "with `{}` the scenario would begin (turn {turn}) after it ends (turn {})",
                        o.id, s.last_turn
                    ),
                );
            }
        }
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
    pub(super) fn location(
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

    pub(super) fn stacking(
        &mut self,
        f: &Parsed<ScenarioFile>,
        game: &GameFile,
        stacks: &BTreeMap<usize, Vec<(usize, &Counter, u32)>>,
        graph: &MapGraph,
    ) {
        let (rules, types) = (&game.stacking, &game.unit_types);
        let f_flags = &f.data.flags;
        let exempt: BTreeSet<&str> = types
            .iter()
            .filter(|t| t.no_stacking)
            .map(|t| t.id.as_str())
            .collect();
        for (&space, pieces) in stacks {
            let name = &graph.spaces[space].id;
            let last = pieces.last().map_or(0, |p| p.0);
            // The setup's last entry in the space, placed only for a problem.
            let at = || f.at(&format!("/setup/{last}"));
            let counted: u32 = pieces
                .iter()
                .filter(|(_, c, _)| !exempt.contains(c.unit_type.as_str()))
                .map(|p| p.2)
                .sum();
            if let Some(limit) = rules.limit.filter(|&l| counted > l) {
                self.error(
                    at(),
                    "E0205",
                    format!("{counted} units in `{name}` break the stacking limit of {limit}"),
                );
            }
            let here = &graph.spaces[space];
            let flag_set = |f: crate::Id| f_flags.iter().any(|x| *x == *f);
            for l in rules
                .limits
                .iter()
                .filter(|l| l.applies(game, here) && l.in_force(flag_set))
            {
                let n: u32 = pieces
                    .iter()
                    .filter(|(_, c, _)| {
                        !exempt.contains(c.unit_type.as_str()) && l.counts(c.nation)
                    })
                    .map(|p| p.2 * l.weight(p.1.size))
                    .sum();
                if n > l.limit {
                    let whose = if l.nations.is_empty() {
                        String::new()
                    } else {
                        format!(" of {}", l.nations.join("/"))
                    };
                    self.error(
                        at(),
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
                        at(),
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
                        at(),
                        "E0205",
                        format!("`{alone}` may not stack with any other unit (in `{name}`)"),
                    );
                }
            }
        }
    }

    /// A control setting's side, regions and spaces (a scenario's, an example's).
    pub(super) fn control_ref(
        &mut self,
        f: &dyn At,
        p: &str,
        c: &ControlSetting,
        graph: &MapGraph,
        ids: &Ids,
    ) {
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
}

impl Checker<'_> {
    /// The flags free set-ups wait for: a flag of game.ron or an optional rule of a scenario.
    pub(super) fn deploy_flags(
        &mut self,
        game: &Parsed<GameFile>,
        scenarios: &[Parsed<ScenarioFile>],
    ) {
        let mut flags = self.ids.flags.clone();
        flags.extend(
            scenarios
                .iter()
                .flat_map(|s| &s.data.options)
                .map(|o| o.id.clone()),
        );
        for (p, phase) in game.data.sequence.iter().enumerate() {
            for (i, step) in phase.steps.iter().enumerate() {
                if let crate::model::Step::Deploy(d) = step {
                    if let Some(flag) = &d.while_flag {
                        let at = format!("/sequence/{p}/steps/{i}/Deploy/while_flag");
                        self.reference(game, &at, "flag", flag, &flags);
                    }
                }
            }
        }
    }
}
