//! The builtins that read the game: turn, tracks, flags, cards, spaces and units, supply,
//! the map, sets and numbers.

use super::*;

impl Eval<'_> {
    /// Runs a builtin of this group; `None` when the name is not one of them.
    pub(super) fn query(&mut self, c: &Call) -> Res<Option<Value>> {
        let (name, range, args) = (c.name, c.range, c.args);
        let pos = |i: usize| c.pos(i);
        let named = |key: &str| c.named(key);
        Ok(Some(match name {
            "impulse" => Value::Int(i64::from(self.state.flow.impulse)),
            "flag_unit" | "unit_flag" | "clear_unit_flag" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, format!("`{name}` wants a unit"));
                };
                let flag = self.id(pos(1)?)?;
                if name == "unit_flag" {
                    Value::Bool(self.state.unit_flag(u, &flag))
                } else if name == "clear_unit_flag" {
                    if self.state.unit_flag(u, &flag) {
                        self.state
                            .to_mut()
                            .unit_flags
                            .retain(|(x, f, _)| !(*x == u && *f == flag));
                    }
                    Value::Void
                } else {
                    let until = match named("until") {
                        Some(e) => self.id(e)?,
                        None => "end_of_round".into(),
                    };
                    self.state
                        .to_mut()
                        .unit_flags
                        .push((u, flag.to_string(), until.to_string()));
                    Value::Void
                }
            }
            "hand" => {
                let side = self.id(pos(0)?)?;
                let mut cards: Vec<Value> = self
                    .state
                    .hands
                    .get(side.as_str())
                    .into_iter()
                    .flatten()
                    .map(|c| Value::Id(Kind::Card, c.as_str().into()))
                    .collect();
                cards.sort();
                cards.dedup();
                Value::Set(cards.into())
            }
            "pick_random" => {
                let n = self.int(pos(0)?)?;
                let Value::Set(items) = self.expr(pos(1)?)? else {
                    return fail(range, "expected a set");
                };
                let mut items = std::sync::Arc::unwrap_or_clone(items);
                // Each pick shifts the rest of the set.
                let picks = n.clamp(0, items.len() as i64) as u64;
                self.charge(range, picks.saturating_mul(items.len() as u64))?;
                let mut picked = Vec::new();
                for _ in 0..n.max(0) {
                    if items.is_empty() {
                        break;
                    }
                    let i = self.state.to_mut().random_index(items.len());
                    picked.push(items.remove(i));
                }
                picked.sort();
                Value::Set(picked.into())
            }
            "clear_control" => {
                let space = self.id(pos(0)?)?;
                self.state.to_mut().set_control(&space, None);
                Value::Void
            }
            "marker_level" => {
                let (space, marker) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let level = self
                    .state
                    .markers
                    .iter()
                    .filter(|m| m.space == space && m.marker == marker)
                    .map(|m| m.level)
                    .max()
                    .unwrap_or(0);
                Value::Int(i64::from(level))
            }
            "distance" | "path" => {
                let (a, b) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let way = self.way(&a, &b);
                if name == "distance" {
                    Value::Int(way.as_ref().map_or(-1, |w| w.len() as i64 - 1))
                } else {
                    let mut spaces: Vec<Value> = way
                        .unwrap_or_default()
                        .into_iter()
                        .map(|s| Value::Id(Kind::Space, s.into()))
                        .collect();
                    spaces.sort();
                    spaces.dedup();
                    Value::Set(spaces.into())
                }
            }
            "supply_level" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a unit");
                };
                Value::Int(if self.supplied(u, true) {
                    2
                } else if self.supplied(u, false) {
                    1
                } else {
                    0
                })
            }
            "mp_left" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "expected a unit");
                };
                Value::Int(self.mp_left(u))
            }
            "connected_by" => {
                let (a, b, kind) = (self.id(pos(0)?)?, self.id(pos(1)?)?, self.id(pos(2)?)?);
                let g = &self.content.graph;
                let joined = match (g.index_of(a), g.index_of(b)) {
                    (Some(x), Some(y)) => g
                        .neighbours(x)
                        .iter()
                        .any(|&(n, e)| n == y && g.edges[e].kinds.iter().any(|x| *x == kind)),
                    _ => false,
                };
                Value::Bool(joined)
            }
            "out_of_supply" | "activated" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, format!("`{name}` wants a unit"));
                };
                let flow = &self.state.flow;
                Value::Bool(if name == "activated" {
                    flow.activated.contains(&u)
                } else {
                    flow.oos.contains(&u)
                })
            }
            "set_out_of_supply" => {
                let Value::Unit(u) = self.expr(pos(0)?)? else {
                    return fail(range, "`set_out_of_supply` wants a unit");
                };
                self.state.to_mut().flow.oos.insert(u);
                Value::Void
            }
            "set_marker_level" => {
                let (marker, space) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let Value::Int(level) = self.expr(pos(2)?)? else {
                    return fail(range, "`set_marker_level` wants a number");
                };
                crate::state::set_marker_level(self.state.to_mut(), &marker, &space, level);
                Value::Void
            }
            "end_game" => {
                let winner = match named("winner") {
                    Some(e) => self.id(e)?,
                    None => String::new().into(),
                };
                let turn = self.state.turn;
                self.state.to_mut().flow.result = Some(crate::rules::GameResult {
                    winner: winner.to_string(),
                    how: "end_of_game".into(),
                    turn,
                });
                Value::Void
            }
            "season" | "year" => {
                let turn = self
                    .content
                    .game
                    .as_ref()
                    .and_then(|g| g.turns.iter().find(|t| t.number == self.state.turn));
                if name == "season" {
                    Value::Id(
                        Kind::Season,
                        turn.and_then(|t| t.season.clone())
                            .unwrap_or_default()
                            .into(),
                    )
                } else {
                    Value::Int(i64::from(turn.and_then(|t| t.year).unwrap_or(0)))
                }
            }
            "available" => {
                let c = self.id(pos(0)?)?;
                Value::Int(
                    self.state
                        .units
                        .iter()
                        .filter(|u| u.counter == c && u.at == Loc::Unplaced)
                        .count() as i64,
                )
            }
            "hand_size" => {
                let s = self.id(pos(0)?)?;
                Value::Int(self.state.hands.get(s.as_str()).map_or(0, Vec::len) as i64)
            }
            "needed_for_supply" => {
                let (marker, space) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                Value::Bool(crate::rules::supply::marker_needed(
                    self.content,
                    &self.state,
                    &marker,
                    &space,
                ))
            }
            "pile_cards" => {
                let deck = self.id(pos(0)?)?;
                let mut cards: Vec<String> = [&self.state.draw_piles, &self.state.discards]
                    .iter()
                    .filter_map(|piles| piles.get(deck.as_str()))
                    .flatten()
                    .cloned()
                    .collect();
                cards.sort();
                Value::Set(std::sync::Arc::new(
                    cards
                        .into_iter()
                        .map(|c| Value::Id(Kind::Card, c.into()))
                        .collect(),
                ))
            }
            "spaces" => self.spaces(args, range)?,
            "units" => self.units(args)?,
            "controller" => {
                let s = self.id(pos(0)?)?;
                match self.state.control.get(&s) {
                    Some(side) => Value::Id(Kind::Side, *side),
                    None => return fail(range, format!("`{s}` is neutral: no side controls it")),
                }
            }
            "union" => {
                let (Value::Set(a), Value::Set(b)) = (self.expr(pos(0)?)?, self.expr(pos(1)?)?)
                else {
                    return fail(range, "expected two sets");
                };
                let mut a = std::sync::Arc::unwrap_or_clone(a);
                a.extend(b.iter().cloned());
                Self::set(a)
            }
            "full_supply_at" => {
                let (s, nation) = (self.id(pos(0)?)?, self.id(pos(1)?)?);
                let side = crate::Id::new(crate::rules::supply::nation_side(self.content, &nation));
                Value::Bool(self.traces_supply(s, nation, side, true))
            }
            _ => return Ok(None),
        }))
    }
}
