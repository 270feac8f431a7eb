//! The builtins that change the game or ask: dice and tables, decisions, tracks and flags,
//! control, units and markers, cards and hands, modifiers.

use super::*;

impl Eval<'_> {
    /// Runs a builtin of this group.
    pub(super) fn effect(&mut self, c: &Call) -> Res<Value> {
        let (name, range, args) = (c.name, c.range, c.args);
        let pos = |i: usize| c.pos(i);
        let named = |key: &str| c.named(key);
        let faces = self.content.game.as_ref().map_or(6, |g| g.dice.faces);
        Ok(match name {
            "roll" => Value::Int(self.state.to_mut().roll(faces)),
            "lookup" => self.lookup(args, range)?,
            "choose" | "choose_up_to" | "choose_one" => {
                let (n, set_expr) = if name == "choose_one" {
                    (1, pos(0)?)
                } else {
                    (self.int(pos(0)?)?.max(0) as usize, pos(1)?)
                };
                let Value::Set(items) = self.expr(set_expr)? else {
                    return fail(range, "expected a set");
                };
                let items = std::sync::Arc::unwrap_or_clone(items);
                self.charge(range, items.len() as u64)?;
                let by = match named("by") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me,
                };
                if name == "choose_one" && items.is_empty() {
                    return fail(range, "there is nothing to choose from");
                }
                let (min, max) = match name {
                    "choose" => (n.min(items.len()), n.min(items.len())),
                    "choose_up_to" => (0, n.min(items.len())),
                    _ => (1, 1),
                };
                let chosen = if max == 0 {
                    Vec::new()
                } else if min == items.len() && max == items.len() {
                    items.clone()
                } else {
                    let options: Vec<String> = items.iter().map(|v| self.text(v)).collect();
                    // What is chosen, when the things are all of one kind.
                    let noun = match items.first() {
                        Some(Value::Unit(_))
                            if items.iter().all(|v| matches!(v, Value::Unit(_))) =>
                        {
                            " units"
                        }
                        Some(Value::Id(k, _))
                            if items.iter().all(|v| matches!(v, Value::Id(x, _) if x == k)) =>
                        {
                            match k {
                                Kind::Space => " spaces",
                                Kind::Card => " cards",
                                Kind::Counter => " counters",
                                Kind::Nation => " nations",
                                Kind::Region => " regions",
                                _ => "",
                            }
                        }
                        _ => "",
                    };
                    let how_many = format!(
                        "choose {} of {}{noun}",
                        if min == max {
                            min.to_string()
                        } else {
                            format!("up to {max}")
                        },
                        options.len()
                    );
                    let question = match named("question") {
                        Some(e) => match self.expr(e)? {
                            Value::Text(q) => format!("{q} ({how_many})"),
                            _ => how_many,
                        },
                        None => how_many,
                    };
                    let answer = self.answer(
                        Decision {
                            by: by.to_string(),
                            question,
                            options: options.clone(),
                            min,
                            max,
                        },
                        range,
                    )?;
                    items
                        .into_iter()
                        .zip(options)
                        .filter(|(_, t)| answer.contains(t))
                        .map(|(v, _)| v)
                        .collect()
                };
                if name == "choose_one" {
                    chosen.into_iter().next().unwrap_or(Value::Void)
                } else {
                    Self::set(chosen)
                }
            }
            "ask" => {
                let question = match self.expr(pos(0)?)? {
                    Value::Text(t) => t,
                    _ => String::new(),
                };
                let by = match named("by") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me,
                };
                let options = vec!["yes".to_string(), "no".to_string()];
                let answer = self.answer(
                    Decision {
                        by: by.to_string(),
                        question,
                        options,
                        min: 1,
                        max: 1,
                    },
                    range,
                )?;
                Value::Bool(answer.first().is_some_and(|a| a == "yes"))
            }
            "add" | "set" => {
                let t = self.id(pos(0)?)?;
                let n = self.int(pos(1)?)?;
                let value = if name == "add" {
                    self.state.track(&t).saturating_add(n)
                } else {
                    n
                };
                let (lo, hi) = self
                    .content
                    .game
                    .as_ref()
                    .and_then(|g| g.tracks.iter().find(|x| x.id == t))
                    .map_or((i64::MIN, i64::MAX), |x| {
                        (i64::from(x.min), i64::from(x.max))
                    });
                self.state.to_mut().tracks.insert(t, value.clamp(lo, hi));
                Value::Void
            }
            "set_flag" => {
                let f = self.id(pos(0)?)?;
                let timed = self.state.timed_flags.iter().any(|(x, _, _)| *x == f);
                let set_for_good = self.state.flags.contains(&*f) && !timed;
                match named("until") {
                    // A flag already set for good stays set for good.
                    Some(_) if set_for_good => {}
                    Some(e) => {
                        let until = self.id(e)?;
                        self.state.to_mut().timed_flags.push((
                            f.to_string(),
                            until.to_string(),
                            self.ctx.card.clone(),
                        ));
                    }
                    // Set for good: no duration may clear it any more.
                    None => self.state.to_mut().timed_flags.retain(|(x, _, _)| *x != f),
                }
                if self.state.to_mut().flags.insert(f) {
                    self.place_waiting(&f, range)?;
                }
                Value::Void
            }
            "clear_flag" => {
                let f = self.id(pos(0)?)?;
                self.state.to_mut().clear_flag(&f);
                Value::Void
            }
            "control" => {
                let (s, side) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                self.state.to_mut().set_control(&s, Some(&side));
                Value::Void
            }
            "place" => {
                let counter = self.id(pos(0)?)?;
                let at = self.place_of(pos(1)?)?;
                let count = match named("count") {
                    Some(e) => self.int(e)?.max(0) as usize,
                    None => 1,
                };
                let reduced = match named("reduced") {
                    Some(e) => self.bool(e)?,
                    None => false,
                };
                // A neutral's units serve the side that takes them into the war.
                let serves = match named("serving") {
                    Some(e) => {
                        let side = self.id(e)?;
                        let sides = self.content.game.as_ref().map(|g| g.sides.as_slice());
                        sides.and_then(|s| s.iter().position(|x| x.id == side))
                    }
                    None => None,
                };
                for _ in 0..count {
                    let Some(unit) = self
                        .state
                        .to_mut()
                        .units
                        .iter_mut()
                        .find(|u| u.counter == counter && u.at == Loc::Unplaced)
                    else {
                        return fail(range, format!("no piece of `{counter}` is left to place"));
                    };
                    unit.at = at.clone();
                    unit.reduced = reduced;
                    if serves.is_some() {
                        unit.serves = serves;
                    }
                }
                Value::Void
            }
            "move" => {
                let u = self.unit(pos(0)?)?;
                let at = self.place_of(pos(1)?)?;
                self.state.to_mut().units[u].at = at;
                Value::Void
            }
            "reduce" | "step_loss" => {
                let u = self.unit(pos(0)?)?;
                self.lose_step(u);
                Value::Void
            }
            "restore" => {
                let u = self.unit(pos(0)?)?;
                self.state.to_mut().units[u].reduced = false;
                Value::Void
            }
            "eliminate" => {
                let u = self.unit(pos(0)?)?;
                let to = match named("to") {
                    Some(e) => Loc::Box(self.id(e)?),
                    None => self.eliminated_box(u),
                };
                crate::rules::theatres::record(self.content, self.state.to_mut(), u, false);
                self.state.to_mut().units[u].at = to;
                self.state.to_mut().units[u].reduced = false;
                Value::Void
            }
            "to_turn_track" => {
                let (u, turns) = (self.unit(pos(0)?)?, self.int(pos(1)?)?);
                let side = self.side_of(u);
                let Some(track) = self.content.game.as_ref().and_then(|g| {
                    g.boxes.iter().find(|b| {
                        b.side.as_deref() == Some(&side)
                            && b.role == Some(crate::model::BoxRole::Delayed)
                    })
                }) else {
                    return fail(range, format!("the game has no turn-track box for {side}"));
                };
                let due = self.state.turn.saturating_add(turns.clamp(0, 1000) as u32);
                // Waiting on the turn track, it counts as eliminated out of supply for its
                // theatres (the Western Allies' voluntary elimination, 14.54).
                crate::rules::theatres::record(self.content, self.state.to_mut(), u, true);
                let st = self.state.to_mut();
                st.units[u].at = Loc::Box(track.id.as_str().into());
                st.units[u].reduced = false;
                st.delayed.insert(u, due);
                Value::Void
            }
            "remove_from_game" => {
                let u = self.unit(pos(0)?)?;
                self.state.to_mut().units[u].at = Loc::Removed;
                Value::Void
            }
            "replace" => {
                let u = self.unit(pos(0)?)?;
                let with = self.id(pos(1)?)?;
                let at = self.state.units[u].at.clone();
                let Some(new) = self
                    .state
                    .units
                    .iter()
                    .position(|x| x.counter == with && x.at == Loc::Unplaced)
                else {
                    return fail(range, format!("no piece of `{with}` is left to place"));
                };
                self.state.to_mut().units[new].at = at;
                self.state.to_mut().units[u].at = Loc::Removed;
                Value::Void
            }
            "place_marker" | "remove_marker" => {
                let (m, s) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                if name == "remove_marker" {
                    self.state
                        .to_mut()
                        .markers
                        .retain(|x| !(x.marker == m && x.space == s));
                } else {
                    let level = match named("level") {
                        Some(e) => self.int(e)?.clamp(1, i64::from(u32::MAX)) as u32,
                        None => 1,
                    };
                    let until = match named("until") {
                        Some(e) => Some(self.id(e)?.to_string()),
                        None => None,
                    };
                    self.place_marker(&m, &s, level, until, range)?;
                }
                Value::Void
            }
            "place_markers" => {
                let m = self.id(pos(0)?)?;
                let Value::Set(spaces) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set of spaces");
                };
                for s in spaces.iter() {
                    if let Value::Id(_, s) = *s {
                        self.place_marker(&m, &s, 1, None, range)?;
                    }
                }
                Value::Void
            }
            "draw" => {
                let (side, n) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let deck = self.deck_of(&side);
                for _ in 0..n.max(0) {
                    let Some(card) = self
                        .state
                        .to_mut()
                        .draw_piles
                        .get_mut(&deck)
                        .and_then(|p| (!p.is_empty()).then(|| p.remove(0)))
                    else {
                        break;
                    };
                    self.state
                        .to_mut()
                        .hands
                        .entry(side.to_string())
                        .or_default()
                        .push(card);
                }
                Value::Void
            }
            "discard_random" => {
                let (side, n) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let deck = self.deck_of(&side);
                for _ in 0..n.max(0) {
                    let len = self.state.hands.get(side.as_str()).map_or(0, Vec::len);
                    if len == 0 {
                        break;
                    }
                    let i = self.state.to_mut().random_index(len);
                    let card = self
                        .state
                        .to_mut()
                        .hands
                        .get_mut(side.as_str())
                        .expect("non-empty hand")
                        .remove(i);
                    self.discarded(&deck, card);
                }
                Value::Void
            }
            "discard_card" => {
                let (side, card) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let held = self
                    .state
                    .hands
                    .get(side.as_str())
                    .and_then(|h| h.iter().position(|c| *c == card));
                let Some(i) = held else {
                    return fail(range, format!("{side} does not hold `{card}`"));
                };
                let deck = self.deck_of(&side);
                let card = self
                    .state
                    .to_mut()
                    .hands
                    .get_mut(side.as_str())
                    .expect("held")
                    .remove(i);
                self.discarded(&deck, card);
                Value::Void
            }
            "shuffle_in_set_aside" => {
                let deck = self.id(pos(0)?)?;
                let mut pile = Vec::new();
                let st = self.state.to_mut();
                for piles in [&mut st.draw_piles, &mut st.discards, &mut st.set_aside] {
                    pile.extend(
                        piles
                            .get_mut(deck.as_str())
                            .map(std::mem::take)
                            .unwrap_or_default(),
                    );
                }
                // The order before shuffling is fixed, so the shuffle depends on the seed only.
                pile.sort();
                self.state.to_mut().shuffle(&mut pile);
                self.state
                    .to_mut()
                    .draw_piles
                    .insert(deck.to_string(), pile);
                Value::Void
            }
            "reveal_hand" => {
                let side = self.id(pos(0)?)?;
                self.state.to_mut().revealed.insert(side.to_string());
                Value::Void
            }
            "take_card" => {
                let (card, side) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let st = self.state.to_mut();
                let piles = [&mut st.draw_piles, &mut st.discards, &mut st.set_aside];
                let mut found = false;
                for piles in piles {
                    for pile in piles.values_mut() {
                        if let Some(i) = pile.iter().position(|c| *c == card) {
                            pile.remove(i);
                            found = true;
                        }
                    }
                }
                // The card being played may hand itself over (Heinrici).
                if !found && self.ctx.card.as_deref() != Some(card.as_str()) {
                    return fail(
                        range,
                        format!("`{card}` is not in a draw pile, discard pile or set aside"),
                    );
                }
                self.state
                    .to_mut()
                    .hands
                    .entry(side.to_string())
                    .or_default()
                    .push(card.to_string());
                Value::Void
            }
            "hand_limit" => {
                let (side, change) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "next_draw".into(),
                };
                self.modifier(
                    ModifierEffect::HandLimit(change),
                    side.to_string(),
                    args,
                    until.to_string(),
                )?;
                Value::Void
            }
            "drm" | "shift" | "cancel_no_retreat" | "allow_no_retreat" => {
                let effect = match name {
                    "drm" => ModifierEffect::Drm(self.int(pos(0)?)?),
                    "shift" => ModifierEffect::Shift(self.int(pos(0)?)?),
                    "cancel_no_retreat" => ModifierEffect::CancelNoRetreat,
                    _ => ModifierEffect::AllowNoRetreat,
                };
                let default = if self.ctx.combat.is_some() {
                    "this_combat"
                } else {
                    "end_of_round"
                };
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => default.into(),
                };
                let side = match named("fire") {
                    Some(e) => self.id(e)?,
                    None => self.ctx.me,
                };
                self.modifier(effect, side.to_string(), args, until.to_string())?;
                Value::Void
            }
            "terrain_as" => {
                let terrain = self.id(pos(0)?)?;
                self.modifier(
                    ModifierEffect::Terrain(terrain.to_string()),
                    self.ctx.me.to_string(),
                    args,
                    "this_combat".into(),
                )?;
                Value::Void
            }
            "ignore_feature" => {
                let feature = self.id(pos(0)?)?;
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => {
                        if self.ctx.combat.is_some() {
                            "this_combat".into()
                        } else {
                            "next_combat".into()
                        }
                    }
                };
                self.modifier(
                    ModifierEffect::IgnoreFeature(feature.to_string()),
                    self.ctx.me.to_string(),
                    args,
                    until.to_string(),
                )?;
                Value::Void
            }
            "roll_modifier" => {
                let (table, amount) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "rest_of_game".into(),
                };
                self.modifier(
                    ModifierEffect::RollDrm {
                        table: table.to_string(),
                        amount,
                    },
                    self.ctx.me.to_string(),
                    args,
                    until.to_string(),
                )?;
                Value::Void
            }
            "set_hand_limit" => {
                let (side, size) = (self.id(pos(0)?)?, self.int(pos(1)?)?);
                let until = match named("until") {
                    Some(e) => self.id(e)?,
                    None => "next_draw".into(),
                };
                self.modifier(
                    ModifierEffect::HandSize(size),
                    side.to_string(),
                    args,
                    until.to_string(),
                )?;
                Value::Void
            }
            "reveal_cards" => {
                let side = self.id(pos(0)?)?;
                let Value::Set(cards) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set of cards");
                };
                let hand = self
                    .state
                    .hands
                    .get(side.as_str())
                    .cloned()
                    .unwrap_or_default();
                let shown = self
                    .state
                    .to_mut()
                    .revealed_cards
                    .entry(side.to_string())
                    .or_default();
                for card in cards.iter() {
                    if let Value::Id(_, c) = *card {
                        if hand.iter().any(|x| *x == c) {
                            shown.insert(c.to_string());
                        }
                    }
                }
                Value::Void
            }
            "cancel_effects" => {
                let card = self.id(pos(0)?)?;
                self.state.to_mut().cancel_effects(&card);
                Value::Void
            }
            _ => return fail(range, format!("`{name}` has no implementation")),
        })
    }
}
