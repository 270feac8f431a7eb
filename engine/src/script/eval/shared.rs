//! The work several builtins share: steps lost, decisions answered, places and boxes, cards
//! discarded, markers placed, modifiers made, the `spaces`, `units` and `lookup` queries, ways
//! along the map, movement points left, supply.

use super::*;

impl Eval<'_> {
    /// A unit loses a step: a full-strength unit with a reduced side flips; a reduced unit (or
    /// one with a single step) goes to its side's eliminated box.
    pub(super) fn lose_step(&mut self, u: usize) {
        let single_step = self
            .content
            .counter(&self.state.units[u].counter)
            .is_some_and(|c| c.back.is_none());
        if self.state.units[u].reduced || single_step {
            let to = self.eliminated_box(u);
            crate::rules::theatres::record(self.content, self.state.to_mut(), u, false);
            self.state.to_mut().units[u].at = to;
            self.state.to_mut().units[u].reduced = false;
        } else {
            self.state.to_mut().units[u].reduced = true;
        }
    }

    pub(super) fn answer(&mut self, decision: Decision, range: Range) -> Res<Answer> {
        let Some(answer) = self.answers.get(self.next_answer) else {
            return Err(Stop::Ask(Box::new(decision)));
        };
        self.next_answer += 1;
        let valid = answer.iter().all(|a| decision.options.contains(a))
            && (decision.min..=decision.max).contains(&answer.len())
            && answer.iter().collect::<BTreeSet<_>>().len() == answer.len();
        if !valid {
            return fail(
                range,
                format!(
                    "the answer {answer:?} does not fit: {} from {}",
                    decision.question,
                    decision.options.join(", ")
                ),
            );
        }
        Ok(answer.clone())
    }

    pub(super) fn text(&self, v: &Value) -> String {
        match v {
            Value::Unit(i) => self.state.units[*i].name(self.content),
            Value::Id(_, id) => id.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            Value::Text(t) => t.clone(),
            Value::Set(_) | Value::Void => String::new(),
        }
    }

    pub(super) fn unit(&mut self, e: &Expr) -> Res<usize> {
        match self.expr(e)? {
            Value::Unit(u) => Ok(u),
            _ => fail(e.range, "expected a unit"),
        }
    }

    pub(super) fn place_of(&mut self, e: &Expr) -> Res<Loc> {
        let id = self.id(e)?;
        Ok(if self.content.graph.space(id).is_some() {
            Loc::Space(id)
        } else {
            Loc::Box(id)
        })
    }

    /// The eliminated-units box of a unit's side (the box with that role), else out of the game.
    pub(super) fn eliminated_box(&self, unit: usize) -> Loc {
        let side = self.side_of(unit);
        let boxes = self
            .content
            .game
            .as_ref()
            .map(|g| g.boxes.as_slice())
            .unwrap_or_default();
        boxes
            .iter()
            .filter(|b| b.side.as_deref() == Some(&side))
            .find(|b| b.role == Some(crate::model::BoxRole::Eliminated))
            .map_or(Loc::Removed, |b| Loc::Box(b.id.as_str().into()))
    }

    pub(super) fn discarded(&mut self, deck: &str, card: String) {
        match self.content.game.as_ref() {
            Some(g) => self.state.to_mut().put_discarded(g, deck, card),
            None => self
                .state
                .to_mut()
                .discards
                .entry(deck.to_string())
                .or_default()
                .push(card),
        }
    }

    pub(super) fn deck_of(&self, side: &str) -> String {
        self.content
            .game
            .as_ref()
            .and_then(|g| crate::model::deck_of(g, side))
            .map(|d| d.id.clone())
            .unwrap_or_default()
    }

    pub(super) fn place_marker(
        &mut self,
        marker: &str,
        space: &str,
        level: u32,
        until: Option<String>,
        range: Range,
    ) -> Res<()> {
        let kind = self
            .content
            .game
            .as_ref()
            .and_then(|g| g.markers.iter().find(|m| m.id == marker));
        if let Some(existing) = self
            .state
            .to_mut()
            .markers
            .iter_mut()
            .find(|x| x.marker == marker && x.space == space)
        {
            let max = kind.map_or(1, |k| k.levels);
            existing.level = existing.level.saturating_add(level).min(max);
            return Ok(());
        }
        if let Some(limit) = kind.and_then(|k| k.limit) {
            let used = self
                .state
                .markers
                .iter()
                .filter(|x| x.marker == marker)
                .count() as u32;
            if used >= limit {
                return fail(range, format!("all {limit} `{marker}` markers are in use"));
            }
        }
        self.state.to_mut().markers.push(MarkerOnMap {
            marker: marker.into(),
            space: space.into(),
            level,
            until,
        });
        Ok(())
    }

    pub(super) fn modifier(
        &mut self,
        effect: ModifierEffect,
        side: String,
        args: &[Arg],
        until: String,
    ) -> Res<()> {
        let mut m = Modifier {
            effect,
            side,
            attacker: None,
            defender: None,
            attacker_nation: None,
            defender_nation: None,
            region: None,
            space: None,
            attacker_counter: None,
            except_defender_nation: None,
            from_turn: None,
            until,
            card: self.ctx.card.clone(),
        };
        for a in args {
            let Some(n) = &a.name else { continue };
            let slot = match n.name.as_str() {
                "attacker" => &mut m.attacker,
                "defender" => &mut m.defender,
                "attacker_nation" => &mut m.attacker_nation,
                "defender_nation" => &mut m.defender_nation,
                "in" => &mut m.region,
                "at" => &mut m.space,
                "attacker_counter" => &mut m.attacker_counter,
                "except_defender_nation" => &mut m.except_defender_nation,
                _ => continue,
            };
            *slot = Some(match self.expr(&a.value)? {
                Value::Id(_, id) => id.to_string(),
                _ => return fail(a.value.range, "expected a name"),
            });
        }
        if let Some(a) = args
            .iter()
            .find(|a| a.name.as_ref().is_some_and(|n| n.name == "from_turn"))
        {
            m.from_turn = Some(self.int(&a.value)?.clamp(0, i64::from(u32::MAX)) as u32);
        }
        if self.ctx.combat.is_some() && m.until == "this_combat" {
            self.combat_modifiers.push(m);
        } else {
            self.state.to_mut().modifiers.push(m);
        }
        Ok(())
    }

    pub(super) fn spaces(&mut self, args: &[Arg], range: Range) -> Res<Value> {
        // A space's neighbours, asked of every space of a set over and over, are the same set
        // each time.
        if let [Arg {
            name: Some(key),
            value,
        }] = args
        {
            if key.name.as_str() == "adjacent_to" {
                if let Value::Id(_, y) = self.expr(value)? {
                    let near = self.content.graph.index_of(y);
                    if let Some(set) = near.and_then(|y| neighbour_set(self.content, y)) {
                        return Ok(Value::Set(set));
                    }
                }
                return Ok(Value::Set(Default::default()));
            }
        }
        let mut out = Vec::new();
        let mut filters: Vec<(crate::Id, Value)> = Vec::new();
        for a in args {
            let Some(n) = &a.name else {
                return fail(range, "filters of `spaces` are named");
            };
            filters.push((n.name, self.expr(&a.value)?));
        }
        // Filters of the map alone give the same set every time: made once per content. With
        // filters of control and of where the pieces stand too, the same set while the table
        // of control and the pieces keep their stamps.
        let stamps = kept_by(&filters, &self.state);
        if let Some(stamps) = stamps {
            if let Some(set) = kept_set(self.content, stamps, &filters, None) {
                return Ok(Value::Set(set));
            }
        }
        // Each filter worked out once for the whole map, then asked of each space by index.
        let g = &self.content.graph;
        let n = g.spaces.len();
        // The spaces marked, and their list (with repeats), to look at only them.
        let mark = |(at, list): &mut (Vec<bool>, Vec<usize>), space: &str| {
            if let Some(i) = g.index_of(space) {
                at[i] = true;
                list.push(i);
            }
        };
        let mut fewest: Option<Vec<usize>> = None;
        let mut keep_fewest = |list: Vec<usize>| {
            if fewest.as_ref().is_none_or(|f| list.len() < f.len()) {
                fewest = Some(list);
            }
        };
        let mut tests: Vec<Filter> = Vec::with_capacity(filters.len());
        for (key, v) in &filters {
            let (the, id) = match v {
                Value::Id(_, id) => (*id, id.as_str()),
                _ => (crate::Id::default(), ""),
            };
            tests.push(match key.as_str() {
                "country" => match self.content.country_index().get(id) {
                    Some(members) => Filter::Listed(members),
                    None => Filter::Country(id),
                },
                "region" => match self.content.region_index().get(id) {
                    Some(members) => Filter::Listed(members),
                    None => Filter::Region(id),
                },
                // Looked up space by space, after the filters that cost less.
                "controlled_by" => {
                    Filter::Controlled(the, self.state.control.by_index(self.content))
                }
                "occupied_by" | "empty" => {
                    let mut at = (vec![false; n], Vec::new());
                    for (u, unit) in self.state.units.iter().enumerate() {
                        if let Loc::Space(sp) = &unit.at {
                            if key == "empty" || self.side_of(u) == the {
                                mark(&mut at, sp);
                            }
                        }
                    }
                    match key.as_str() {
                        "empty" => Filter::Empty(at.0, *v == Value::Bool(true)),
                        _ => {
                            keep_fewest(at.1);
                            Filter::Marked(at.0)
                        }
                    }
                }
                "terrain" => Filter::Terrain(id),
                "feature" => Filter::Feature(id),
                "adjacent_to" => Filter::Adjacent(g.index_of(id)),
                // Next to any space of a set (each member's neighbours marked: adjacency goes
                // both ways), or where any unit of a set stands.
                "next_to" | "holding" => {
                    let mut at = (vec![false; n], Vec::new());
                    let members = match v {
                        Value::Set(members) => &members[..],
                        _ => &[],
                    };
                    for m in members {
                        match m {
                            Value::Id(_, id) if key == "next_to" => {
                                for &(near, _) in
                                    g.index_of(*id).map_or(&[][..], |y| g.neighbours(y))
                                {
                                    at.0[near] = true;
                                    at.1.push(near);
                                }
                            }
                            Value::Unit(u) if key == "holding" => {
                                if let Some(Loc::Space(sp)) =
                                    self.state.units.get(*u).map(|x| &x.at)
                                {
                                    mark(&mut at, sp);
                                }
                            }
                            _ => {}
                        }
                    }
                    keep_fewest(at.1);
                    Filter::Marked(at.0)
                }
                "marker" => {
                    let mut at = (vec![false; n], Vec::new());
                    for m in self.state.markers.iter().filter(|m| m.marker == the) {
                        mark(&mut at, &m.space);
                    }
                    keep_fewest(at.1);
                    Filter::Marked(at.0)
                }
                _ => Filter::Any,
            });
        }
        tests.sort_by_key(|t| matches!(t, Filter::Controlled(..)));
        // In the order of the spaces' ids, so that the set is sorted as it is gathered: every
        // space, only a space's neighbours when the spaces must be next to it, or only the
        // spaces a filter marked.
        let near = tests.iter().find_map(|t| match t {
            Filter::Adjacent(y) => Some(*y),
            _ => None,
        });
        let mut listed: Vec<usize>;
        let candidates: &[usize] = match (near, fewest) {
            // Only the spaces a filter marked (occupied, holding a marker), in their ids' order.
            (None, Some(mut marked)) => {
                let ranks = self.content.space_ranks();
                marked.sort_unstable_by_key(|&i| ranks[i]);
                marked.dedup();
                listed = marked;
                &listed
            }
            (None, None) => self.content.spaces_by_id(),
            (Some(y), _) => {
                listed = y.map_or(Vec::new(), |y| {
                    g.neighbours(y).iter().map(|&(n, _)| n).collect()
                });
                listed.sort_unstable_by(|&a, &b| g.spaces[a].id.cmp(&g.spaces[b].id));
                listed.dedup();
                &listed
            }
        };
        'space: for &i in candidates {
            let s = &g.spaces[i];
            for test in &tests {
                let ok = match test {
                    Filter::Country(id) => {
                        s.country.as_deref() == Some(*id)
                            || region_contains(self.content, s.country.as_deref(), id)
                    }
                    Filter::Region(id) => {
                        crate::content::space_index_in_region(self.content, i, id)
                    }
                    Filter::Listed(members) => members[i],
                    Filter::Controlled(side, holders) => holders[i] == Some(*side),
                    Filter::Terrain(id) => s.terrain.as_deref() == Some(*id),
                    Filter::Feature(id) => s.features.iter().any(|f| f == id),
                    Filter::Adjacent(y) => y.is_some_and(|y| g.edge_between(i, y).is_some()),
                    Filter::Marked(at) => at[i],
                    Filter::Empty(occupied, wanted) => occupied[i] != *wanted,
                    Filter::Any => true,
                };
                if !ok {
                    continue 'space;
                }
            }
            out.push(Value::Id(Kind::Space, s.id));
        }
        out.dedup();
        let set = std::sync::Arc::new(out);
        if let Some(stamps) = stamps {
            kept_set(self.content, stamps, &filters, Some(&set));
        }
        Ok(Value::Set(set))
    }

    pub(super) fn units(&mut self, args: &[Arg]) -> Res<Value> {
        // Each filter's name read once per call, not again for every unit.
        let mut filters: Vec<(UnitFilter, crate::Id, Value)> = Vec::with_capacity(args.len());
        for a in args {
            if let Some(n) = &a.name {
                let v = self.expr(&a.value)?;
                let id = match &v {
                    Value::Id(_, id) => *id,
                    _ => crate::Id::default(),
                };
                filters.push((UnitFilter::named(n.name.as_str()), id, v));
            }
        }
        // The units of a space come from an index of the pieces by space.
        let space = filters.iter().find_map(|(key, _, v)| match (key, v) {
            (UnitFilter::In, Value::Id(_, id)) => Some(*id),
            _ => None,
        });
        // Without a `box` filter, only units on the map.
        let boxed = filters.iter().any(|(key, ..)| *key == UnitFilter::Box);
        let state = &*self.state;
        let on = space.map(|space| state.units.on_id(space));
        let candidates: &mut dyn Iterator<Item = usize> = match on {
            Some(on) => &mut on.iter().copied(),
            None => &mut (0..state.units.len()),
        };
        // A space's pieces are few: room for all of them at once.
        let mut out = Vec::with_capacity(on.map_or(0, <[usize]>::len));
        'unit: for u in candidates {
            let unit = &state.units[u];
            if !boxed && !matches!(unit.at, Loc::Space(_)) {
                continue;
            }
            let counter = self.content.counter_of(unit);
            for (key, id, v) in &filters {
                let id = *id;
                let ok = match key {
                    UnitFilter::Side => self.side_of(u) == id,
                    UnitFilter::Nation => counter.is_some_and(|c| c.nation == id),
                    UnitFilter::Type => counter.is_some_and(|c| match c.back_type {
                        Some(back) if unit.reduced => back == id,
                        _ => c.unit_type == id,
                    }),
                    UnitFilter::Size => counter.is_some_and(|c| c.size == id),
                    UnitFilter::Counter => unit.counter == id,
                    UnitFilter::In => matches!(&unit.at, Loc::Space(s) if *s == id),
                    UnitFilter::Box => matches!(&unit.at, Loc::Box(b) if *b == id),
                    UnitFilter::Region => {
                        matches!(&unit.at, Loc::Space(s) if space_in_region(self.content, s, &id))
                    }
                    UnitFilter::Reduced => *v == Value::Bool(unit.reduced),
                    UnitFilter::Other => true,
                };
                if !ok {
                    continue 'unit;
                }
            }
            out.push(Value::Unit(u));
        }
        Ok(Self::set(out))
    }

    pub(super) fn lookup(&mut self, args: &[Arg], range: Range) -> Res<Value> {
        let table_id = match args.first() {
            Some(a) if a.name.is_none() => self.id(&a.value)?,
            _ => return fail(range, "`lookup` needs a table"),
        };
        let get = |this: &mut Self, key: &str| -> Res<Option<Value>> {
            match args
                .iter()
                .find(|a| a.name.as_ref().is_some_and(|n| n.name == key))
            {
                Some(a) => this.expr(&a.value).map(Some),
                None => Ok(None),
            }
        };
        let int = |v: Option<Value>| match v {
            Some(Value::Int(n)) => Some(n),
            _ => None,
        };
        let text = |v: Option<Value>| match v {
            Some(Value::Text(t)) => Some(t),
            _ => None,
        };
        let roll = int(get(self, "roll")?);
        let number = int(get(self, "number")?);
        let row_name = text(get(self, "row")?);
        let strength = int(get(self, "strength")?);
        let attacker = int(get(self, "attacker")?);
        let defender = int(get(self, "defender")?);
        let column_name = text(get(self, "column")?);
        let shift = int(get(self, "shift")?).unwrap_or(0);
        let drm = int(get(self, "drm")?).unwrap_or(0);
        let Some(table) = self.content.table(&table_id) else {
            return fail(range, format!("no table `{table_id}`"));
        };
        let column = match (strength, attacker, defender, column_name.as_deref()) {
            (Some(s), ..) => ColumnInput::Strength(narrow(s)),
            (_, Some(a), Some(d), _) => ColumnInput::Odds {
                attacker: narrow(a).max(0) as u32,
                defender: narrow(d).max(0) as u32,
            },
            (_, _, _, Some(c)) => ColumnInput::Name(c),
            _ => ColumnInput::Single,
        };
        // A roll on the table takes the roll modifiers the player has on it (roll_modifier).
        let turn = self.state.turn;
        let standing: i64 = self
            .state
            .modifiers
            .iter()
            .filter(|m| m.side == self.ctx.me && m.from_turn.is_none_or(|t| turn >= t))
            .filter_map(|m| match &m.effect {
                ModifierEffect::RollDrm { table, amount } if *table == table_id => Some(*amount),
                _ => None,
            })
            .fold(0i64, i64::saturating_add);
        let row = match (roll, number, row_name.as_deref()) {
            (Some(r), ..) => RowInput::Roll {
                roll: narrow(r),
                drm: narrow(drm.saturating_add(standing)),
            },
            (_, Some(n), _) => RowInput::Number(narrow(n)),
            (_, _, Some(name)) => RowInput::Name(name),
            _ => return fail(range, "`lookup` needs `roll`, `number` or `row`"),
        };
        let faces = self.content.game.as_ref().map_or(6, |g| g.dice.faces);
        let result = table.lookup(column, narrow(shift), row, faces);
        if let (Ok(cell), Some(_), Ok(c)) = (&result, roll, table.column(column)) {
            let c = table.shift(c, narrow(shift));
            self.state
                .to_mut()
                .record
                .roll(&table_id, c, cell.to_string());
        }
        match result {
            Ok(Cell::Scalar(Scalar::Int(n))) => Ok(Value::Int(*n)),
            Ok(Cell::Scalar(Scalar::Symbol(s))) => Ok(Value::Text(s.clone())),
            Ok(other) => fail(
                range,
                format!("the table gave {other}, which a script cannot use"),
            ),
            Err(e) => fail(range, e.to_string()),
        }
    }

    /// Supply: a path through spaces the unit's side controls, free of enemy units, to a supply
    /// source of the unit's nation that its side controls (and whose flag, if any, is set).
    /// `full` forbids tracing across connections of a kind whose id names the sea.
    /// The spaces of a shortest way along the map from `a` to `b`, in order.
    pub(super) fn way(&self, a: &str, b: &str) -> Option<Vec<String>> {
        let g = &self.content.graph;
        let (from, to) = (g.index_of(a)?, g.index_of(b)?);
        let mut before = vec![usize::MAX; g.spaces.len()];
        before[from] = from;
        let mut queue = std::collections::VecDeque::from([from]);
        while let Some(i) = queue.pop_front() {
            if i == to {
                break;
            }
            for &(n, _) in g.neighbours(i) {
                if before[n] == usize::MAX {
                    before[n] = i;
                    queue.push_back(n);
                }
            }
        }
        if before[to] == usize::MAX {
            return None;
        }
        let mut way = vec![to];
        let mut at = to;
        while at != from {
            at = before[at];
            way.push(at);
        }
        way.reverse();
        Some(
            way.into_iter()
                .map(|i| g.spaces[i].id.to_string())
                .collect(),
        )
    }

    /// A unit's whole movement points left: what the impulse under way allows it, else its
    /// allowance less what it moved in the action under way.
    pub(super) fn mp_left(&self, unit: usize) -> i64 {
        use crate::rules::Task;
        for t in self.state.flow.tasks.iter().rev() {
            if let Task::Impulses(t) = t {
                if let (Some(a), Some(used)) = (t.allowed.get(&unit), t.used.get(&unit)) {
                    return i64::from(a.saturating_sub(*used) / 2);
                }
            }
        }
        let Some(game) = self.content.game.as_ref() else {
            return 0;
        };
        let u = &self.state.units[unit];
        let stat = game.play.as_ref().map(|p| p.movement.as_str()).or_else(|| {
            game.sequence
                .iter()
                .flat_map(|p| &p.steps)
                .find_map(|s| match s {
                    crate::model::Step::Impulses(i) => Some(i.movement.as_str()),
                    _ => None,
                })
        });
        let Some(i) = stat.and_then(|id| game.stats.iter().position(|s| s.id == id)) else {
            return 0;
        };
        let printed = self.content.counter_of(u).map_or(0, |c| {
            let values = if u.reduced {
                c.back.as_ref().unwrap_or(&c.front)
            } else {
                &c.front
            };
            values.get(i).copied().unwrap_or(0)
        });
        let side = self.side_of(unit);
        let ma = crate::rules::hooks::modify(
            self.content,
            &self.state,
            crate::model::HookPoint::Movement,
            &side,
            i64::from(printed),
            || vec![crate::rules::hooks::unit("u", unit)],
        );
        let used = i64::from(self.state.flow.marks.moved.get(&unit).copied().unwrap_or(0));
        (ma.saturating_mul(2) - used).max(0) / 2
    }

    pub(super) fn supplied(&self, unit: usize, full: bool) -> bool {
        let u = &self.state.units[unit];
        let Loc::Space(start) = &u.at else {
            return false;
        };
        let Some(nation) = self.content.counter_of(u).map(|c| c.nation) else {
            return false;
        };
        self.traces_supply(*start, nation, self.side_of(unit), full)
    }

    /// Whether a piece of `nation` serving `side` in `start` traces supply. Each nation and
    /// side is charged one trace the first time it is asked, as if traced (see
    /// [`crate::rules::supply::SupplyCache`]).
    pub(super) fn traces_supply(
        &self,
        start: crate::Id,
        nation: crate::Id,
        side: crate::Id,
        full: bool,
    ) -> bool {
        let Some(space) = self.content.graph.index_of(start) else {
            return false;
        };
        let mut cache = self.supply.borrow_mut();
        let (levels, first) = cache.levels(self.content, &self.state, nation, side);
        if first {
            self.traced.set(self.traced.get() + self.trace_cost());
        }
        let level = levels[space];
        if full {
            level == crate::rules::supply::Level::Full
        } else {
            level != crate::rules::supply::Level::Out
        }
    }
}

/// A filter of `units`, by its name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum UnitFilter {
    Side,
    Nation,
    Type,
    Size,
    Counter,
    In,
    Box,
    Region,
    Reduced,
    /// A name the checker refused; it filters nothing.
    Other,
}

impl UnitFilter {
    fn named(name: &str) -> UnitFilter {
        match name {
            "side" => UnitFilter::Side,
            "nation" => UnitFilter::Nation,
            "type" => UnitFilter::Type,
            "size" => UnitFilter::Size,
            "counter" => UnitFilter::Counter,
            "in" => UnitFilter::In,
            "box" => UnitFilter::Box,
            "region" => UnitFilter::Region,
            "reduced" => UnitFilter::Reduced,
            _ => UnitFilter::Other,
        }
    }
}

/// The neighbours of the space of graph index `y`, as `spaces(adjacent_to: y)` gives them
/// (the spaces an edge joins to it, sorted by id): one set per space, made once per content
/// and thread and shared.
fn neighbour_set(content: &Content, y: usize) -> Option<std::sync::Arc<Vec<Value>>> {
    type Sets = (u64, Vec<std::sync::Arc<Vec<Value>>>);
    thread_local! {
        static SETS: std::cell::RefCell<Sets> = const { std::cell::RefCell::new((u64::MAX, Vec::new())) };
    }
    SETS.with(|sets| {
        let mut sets = sets.borrow_mut();
        if sets.0 != content.memo_id() {
            let g = &content.graph;
            let of = |y: usize| {
                let mut near: Vec<usize> = g.neighbours(y).iter().map(|&(n, _)| n).collect();
                near.retain(|&n| g.edge_between(n, y).is_some());
                near.sort_unstable_by(|&a, &b| g.spaces[a].id.cmp(&g.spaces[b].id));
                near.dedup();
                let set = near
                    .into_iter()
                    .map(|n| Value::Id(Kind::Space, g.spaces[n].id));
                std::sync::Arc::new(set.collect())
            };
            *sets = (content.memo_id(), (0..g.spaces.len()).map(of).collect());
        }
        sets.1.get(y).cloned()
    })
}

/// What a set of `spaces(...)` with these filters depends on besides the content, when it can
/// be kept: the stamp of the table of control (with a `controlled_by` filter) and of the
/// pieces (with `occupied_by` or `empty`), 0 for what it does not read; none with a filter
/// of anything else (markers, a space's neighbours).
fn kept_by(filters: &[(crate::Id, Value)], state: &State) -> Option<(u64, u64)> {
    let (mut control, mut pieces) = (0, 0);
    for (key, v) in filters {
        match (key.as_str(), v) {
            ("country" | "region" | "terrain" | "feature", Value::Id(..)) => {}
            ("controlled_by", Value::Id(..)) => control = state.control.stamp(),
            ("occupied_by", Value::Id(..)) | ("empty", Value::Bool(_)) => {
                pieces = state.units.stamp();
            }
            _ => return None,
        }
    }
    Some((control, pieces))
}

/// How many sets that depend on the state a thread keeps (a few per prompt are asked again).
const KEPT_STAMPED: usize = 16;

/// The set of `spaces(...)` with these filters, kept for the content and the stamps
/// ([`kept_by`]): found (`made` none), or kept (`made`). Sets of the map alone are kept for
/// the content (a bounded number), sets that depend on the state the last [`KEPT_STAMPED`].
fn kept_set(
    content: &Content,
    stamps: (u64, u64),
    filters: &[(crate::Id, Value)],
    made: Option<&std::sync::Arc<Vec<Value>>>,
) -> Option<std::sync::Arc<Vec<Value>>> {
    type Sets = Vec<(
        (u64, u64),
        Vec<(crate::Id, Value)>,
        std::sync::Arc<Vec<Value>>,
    )>;
    thread_local! {
        static KEPT: std::cell::RefCell<(u64, Sets, Sets)> =
            const { std::cell::RefCell::new((u64::MAX, Vec::new(), Vec::new())) };
    }
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.0 != content.memo_id() {
            *kept = (content.memo_id(), Vec::new(), Vec::new());
        }
        // Bounded, should a script name many regions in turn; the state's sets, the last few.
        let (_, of_map, of_state) = &mut *kept;
        let (sets, most) = if stamps == (0, 0) {
            (of_map, 256)
        } else {
            (of_state, KEPT_STAMPED)
        };
        match made {
            Some(set) => {
                if sets.len() >= most {
                    sets.remove(0);
                }
                sets.push((stamps, filters.to_vec(), std::sync::Arc::clone(set)));
                None
            }
            None => sets
                .iter()
                .rev()
                .find(|(at, f, _)| *at == stamps && f.as_slice() == filters)
                .map(|(_, _, set)| std::sync::Arc::clone(set)),
        }
    })
}

/// A filter of `spaces(...)`, worked out for the map before the spaces are asked.
enum Filter<'v, 'c> {
    Country(&'v str),
    /// A region the content's table does not list.
    Region(&'v str),
    Terrain(&'v str),
    Feature(&'v str),
    Adjacent(Option<usize>),
    /// The spaces of a region or a country (by graph index) as the content's tables list them.
    Listed(&'c Vec<bool>),
    /// The spaces a side controls, and the controller of each space by graph index.
    Controlled(crate::Id, crate::state::ControlByIndex),
    /// The spaces marked (occupied by the side, holding the marker).
    Marked(Vec<bool>),
    /// The spaces occupied, and whether empty ones are wanted.
    Empty(Vec<bool>, bool),
    Any,
}
