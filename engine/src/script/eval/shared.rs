//! The work several builtins share: steps lost, decisions answered, places and boxes, cards
//! discarded, markers placed, modifiers made, the `units` and `lookup` queries, ways along the
//! map, movement points left, supply. The `spaces` query is [`super::spaces`].

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
