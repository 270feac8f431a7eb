//! `game.ron`'s meaning: its declarations, the impulses' and supply's references, colours,
//! the region tree; and the countersheet.

use super::*;

impl Checker<'_> {
    pub(super) fn game(&mut self, f: &Parsed<GameFile>) {
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
            for (key, flag) in [
                ("while_flag", &l.while_flag),
                ("unless_flag", &l.unless_flag),
            ] {
                if let Some(flag) = flag {
                    let flags = self.ids.flags.clone();
                    self.reference(f, &format!("{at}/{key}"), "flag", flag, &flags);
                }
            }
            for (k, w) in l.weights.iter().enumerate() {
                let sizes = self.ids.sizes.clone();
                let p = format!("{at}/weights/{k}/size");
                self.reference(f, &p, "unit size", &w.size, &sizes);
            }
            if l.limit == 0 {
                self.error(
                    f.at(&format!("{at}/limit")),
                    "E0207",
                    "a stacking limit of 0 allows none of these pieces where it holds".into(),
                );
            }
        }
        if let Some(play) = &g.play {
            let markers = self.ids.markers.clone();
            let flags = self.ids.flags.clone();
            for (i, n) in play.sr_neutrals.iter().enumerate() {
                let at = format!("/play/sr_neutrals/{i}");
                self.references(f, &format!("{at}/sides"), "side", &n.sides, &sides);
                if let Some(flag) = &n.flag {
                    self.reference(f, &format!("{at}/flag"), "flag", flag, &flags);
                }
            }
            for (i, c) in play.victory.counts_as.iter().enumerate() {
                let at = format!("/play/victory/counts_as/{i}");
                self.reference(f, &format!("{at}/side"), "side", &c.side, &sides);
                self.reference(f, &format!("{at}/marker"), "marker", &c.marker, &markers);
            }
            self.entries_and_theatres(f, play);
        }
        if let Some(z) = &g.zones_of_control {
            let types = self.ids.unit_types.clone();
            let at = "/zones_of_control";
            self.references(
                f,
                &format!("{at}/not_exerted_by"),
                "unit type",
                &z.not_exerted_by,
                &types,
            );
            for (key, costs) in [("enter", &z.enter), ("leave", &z.leave)] {
                for (i, c) in costs.iter().enumerate() {
                    let place = format!("{at}/{key}/{i}/types");
                    self.references(f, &place, "unit type", &c.types, &types);
                }
            }
        }
        if g.stacking.limit == Some(0) {
            self.error(
                f.at("/stacking/limit"),
                "E0207",
                "a stacking limit of 0 allows no piece anywhere".into(),
            );
        }
        let stats: BTreeSet<String> = g.stats.iter().map(|x| x.id.to_string()).collect();
        for (p, phase) in g.sequence.iter().enumerate() {
            for (i, step) in phase.steps.iter().enumerate() {
                let at = format!("/sequence/{p}/steps/{i}");
                match step {
                    Step::Script { side, .. } => {
                        let sides = self.ids.sides.clone();
                        self.reference(f, &format!("{at}/Script/side"), "side", side, &sides);
                    }
                    Step::ActionRounds(r) => {
                        let sides: BTreeSet<String> = r.sides.iter().cloned().collect();
                        self.references(
                            f,
                            &format!("{at}/ActionRounds/attrition_after_last"),
                            "side acting in these rounds",
                            &r.attrition_after_last,
                            &sides,
                        );
                    }
                    Step::Impulses(imp) => {
                        self.impulse_refs(f, &format!("{at}/Impulses"), imp, &stats)
                    }
                    Step::TraceSupply(z) => self.supply_refs(f, &format!("{at}/TraceSupply"), z),
                    Step::Deploy(d) => {
                        let (sides, regions) = (self.ids.sides.clone(), self.ids.regions.clone());
                        self.reference(f, &format!("{at}/Deploy/side"), "side", &d.side, &sides);
                        let region = format!("{at}/Deploy/region");
                        self.reference(f, &region, "region", &d.region, &regions);
                    }
                    _ => {}
                }
            }
        }
    }

    /// The play rules `box_entries` and `theatres`: the nations and sizes they name, each
    /// entry names some units, each theatre has an id of its own (the counters entries name
    /// are checked once the countersheet is known).
    fn entries_and_theatres(&mut self, f: &Parsed<GameFile>, play: &crate::model::PlayRules) {
        let (nations, sizes) = (self.ids.nations.clone(), self.ids.sizes.clone());
        for (i, e) in play.box_entries.iter().enumerate() {
            let at = format!("/play/box_entries/{i}");
            self.references(f, &format!("{at}/nations"), "nation", &e.nations, &nations);
            self.references(f, &format!("{at}/sizes"), "unit size", &e.sizes, &sizes);
            if e.nations.is_empty() && e.counters.is_empty() {
                self.error(
                    f.at(&at),
                    "E0207",
                    "a box entry names no nation and no counter: it opens no space to any unit"
                        .into(),
                );
            }
        }
        self.ids.theatres = self.declare(
            f,
            "theatre",
            ids("/play/theatres", &play.theatres, |x| &x.id),
        );
        for (i, t) in play.theatres.iter().enumerate() {
            let at = format!("/play/theatres/{i}");
            self.references(f, &format!("{at}/nations"), "nation", &t.nations, &nations);
            self.references(f, &format!("{at}/sizes"), "unit size", &t.sizes, &sizes);
        }
    }

    /// The ids the parameters of operations in impulses name.
    pub(super) fn impulse_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        imp: &crate::model::Impulses,
        stats: &BTreeSet<String>,
    ) {
        for (i, x) in imp.impulses.iter().enumerate() {
            if let Some(z) = &x.supply {
                self.supply_refs(f, &format!("{at}/impulses/{i}/supply"), z);
            }
        }
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
        if let Some(o) = &m.overrun {
            let p = format!("{at}/movement_rules/overrun/types");
            self.references(f, &p, "unit type", &o.types, &ids.unit_types);
        }
        for (i, x) in m.exits.iter().enumerate() {
            self.map_exit_refs(f, &format!("{at}/movement_rules/exits/{i}"), x, &ids);
        }
        for (i, c) in m.slow_crossings.iter().enumerate() {
            let p = format!("{at}/movement_rules/slow_crossings/{i}/kinds");
            let kinds = ids.connection_kinds.clone();
            self.references(f, &p, "connection kind", &c.kinds, &kinds);
        }
        if let Some(r) = &m.rail {
            self.rail_refs(
                f,
                &format!("{at}/movement_rules/rail"),
                r,
                &ids,
                imp.impulses.len(),
            );
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
        self.odds_combat_refs(f, at, c, &ids);
        if let Some(d) = (!imp.defence.is_empty()).then_some(&imp.defence) {
            self.reference(f, &format!("{at}/defence"), "stat", d, stats);
        }
        if !c.retreat_by.is_empty() && !ids.properties.contains_key(&c.retreat_by) {
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
        for (i, l) in imp.leave.iter().enumerate() {
            self.references(
                f,
                &format!("{at}/leave/{i}/crossing"),
                "connection kind",
                &l.crossing,
                &ids.connection_kinds,
            );
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
    pub(super) fn supply_refs(
        &mut self,
        f: &Parsed<GameFile>,
        at: &str,
        z: &crate::model::ZoneSupply,
    ) {
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
        self.zone_supply_refs(f, at, z, &ids);
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

    pub(super) fn color(&mut self, f: &dyn At, pointer: &str, color: Option<&str>) {
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

    pub(super) fn region_cycles(&mut self, f: &Parsed<GameFile>) {
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

    pub(super) fn counters(&mut self, f: &Parsed<CountersFile>) {
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
            if !c.breaks_into.is_empty() || c.combine_when.is_some() {
                let counters = self.ids.counters.clone();
                for (i, part) in c.breaks_into.iter().enumerate() {
                    let q = format!("{p}/breaks_into/{i}/counter");
                    self.reference(f, &q, "counter", &part.counter, &counters);
                }
                if let Some(flag) = &c.combine_when {
                    let flags = self.ids.flags.clone();
                    self.reference(f, &format!("{p}/combine_when"), "flag", flag, &flags);
                }
            }
            if let Some(other) = &c.eliminated_as {
                let counters = self.ids.counters.clone();
                self.reference(
                    f,
                    &format!("{p}/eliminated_as"),
                    "counter",
                    other,
                    &counters,
                );
            }
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
}
