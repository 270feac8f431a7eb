//! A scenario's start: laid out (turn, tracks, control, pieces, markers: the same for every
//! seed), then dealt (its decks shuffled by the seeded dice, the hands drawn), and the start's
//! choice of a card. Split from [`super`], the state.

use super::*;

impl State {
    /// The state at the start of a scenario, with a seed for its dice. Pieces set up "anywhere
    /// in a region" go to the first empty space of the region, in map order (until the session
    /// asks the owner); a hand's `choose_one_of` is its owner's first decision when play
    /// starts, and the hand is drawn after it.
    pub fn new(content: &Content, scenario: &ScenarioFile, seed: u64) -> Result<State, SetupError> {
        State::laid_out(content, scenario)?.dealt(content, scenario, seed)
    }

    /// The start of a scenario before any die is rolled: its turn, tracks, flags, control,
    /// pieces and markers, the same for every seed (so a batch of games lays it out once, see
    /// [`crate::rules::Rules`]). The decks are not yet shuffled nor the hands dealt:
    /// [`Self::dealt`] does it.
    pub(crate) fn laid_out(
        content: &Content,
        scenario: &ScenarioFile,
    ) -> Result<State, SetupError> {
        let game = content
            .game
            .as_ref()
            .ok_or_else(|| SetupError("no game.ron".into()))?;
        let mut state = State {
            scenario: scenario.id.clone(),
            turn: scenario.first_turn,
            round: 1,
            tracks: BTreeMap::new(),
            flags: Shared::from(
                scenario
                    .flags
                    .iter()
                    .map(crate::Id::from)
                    .collect::<BTreeSet<_>>(),
            ),
            timed_flags: Vec::new(),
            unit_flags: Vec::new(),
            control: Control::default(),
            units: Units::default(),
            markers: Shared::default(),
            played: Shared::default(),
            played_this_turn: Shared::default(),
            hands: Shared::default(),
            draw_piles: Shared::default(),
            discards: Shared::default(),
            set_aside: Shared::default(),
            kept_cards: Shared::default(),
            revealed: Shared::default(),
            revealed_cards: Shared::default(),
            modifiers: Vec::new(),
            delayed: BTreeMap::new(),
            still: BTreeMap::new(),
            resting: BTreeMap::new(),
            theatres: BTreeMap::new(),
            vp_counted: BTreeMap::new(),
            vp_settled: Default::default(),
            forced_dice: Vec::new(),
            flow: crate::rules::Flow::default(),
            record: Shared::default(),
            rng: ChaCha8Rng::seed_from_u64(0),
        };
        for t in &game.tracks {
            state
                .tracks
                .insert(t.id.as_str().into(), i64::from(t.min.max(0).min(t.max)));
        }
        for t in &scenario.tracks {
            state
                .tracks
                .insert(t.track.as_str().into(), i64::from(t.value));
        }
        for setting in &scenario.control {
            // Each region's members found once, then asked of every space by its index.
            let index = content.region_index();
            let regions: Vec<(&str, Option<&Vec<bool>>)> = setting
                .regions
                .iter()
                .map(|r| (r.as_str(), index.get(r.as_str())))
                .collect();
            for (i, s) in content.graph.spaces.iter().enumerate() {
                let in_region = regions.iter().any(|&(r, members)| match members {
                    Some(members) => members[i],
                    None => crate::content::space_index_in_region(content, i, r),
                });
                if in_region || setting.spaces.iter().any(|x| s.id == *x) {
                    match &setting.side {
                        Some(side) => state.control.insert(s.id, side.into()),
                        None => state.control.remove(&*s.id),
                    };
                }
            }
        }
        for (hint, c) in content.counters.iter().enumerate() {
            for piece in 0..c.count {
                state.units.push(Unit {
                    counter: c.id,
                    piece,
                    at: Loc::Unplaced,
                    reduced: false,
                    serves: None,
                    hint,
                });
            }
        }
        for p in scenario.setup.iter().filter(|p| p.when.is_none()) {
            state.place_setup(content, p, None)?;
        }
        for m in &scenario.markers {
            if let Location::Space(s) = &m.at {
                state.markers.push(MarkerOnMap {
                    marker: m.marker.as_str().into(),
                    space: s.as_str().into(),
                    level: m.level,
                    until: None,
                });
            }
        }
        Ok(state)
    }

    /// A laid-out start ([`Self::laid_out`]) with the seed of its dice, its decks shuffled by
    /// them and the hands dealt.
    pub(crate) fn dealt(
        self,
        content: &Content,
        scenario: &ScenarioFile,
        seed: u64,
    ) -> Result<State, SetupError> {
        let game = content
            .game
            .as_ref()
            .ok_or_else(|| SetupError("no game.ron".into()))?;
        let mut state = self;
        state.rng = ChaCha8Rng::seed_from_u64(seed);
        for d in &scenario.decks {
            let deck_cards = content
                .decks
                .iter()
                .filter(|f| f.deck == d.deck)
                .flat_map(|f| f.cards.iter());
            let (mut pile, aside): (Vec<_>, Vec<_>) =
                deck_cards.partition(|c| c.group.as_ref().is_none_or(|g| d.groups.contains(g)));
            pile.sort_by(|a, b| a.id.cmp(&b.id));
            let mut pile: Vec<String> = pile.into_iter().map(|c| c.id.clone()).collect();
            state.shuffle(&mut pile);
            state.draw_piles.insert(d.deck.clone(), pile);
            state.set_aside.insert(
                d.deck.clone(),
                aside.into_iter().map(|c| c.id.clone()).collect(),
            );
        }
        state.place_start_cards(content, scenario, game);
        let mut choices = Vec::new();
        for h in &scenario.hands {
            let before = state.hands.entry(h.side.clone()).or_default().clone();
            // The cards to choose from are each in the deck once: out of it until the choice.
            let pile = state.draw_piles.entry(h.deck.clone()).or_default();
            pile.retain(|c| !h.choose_one_of.contains(c));
            // The first card is taken for now and the hand drawn; with a real choice, the
            // owner makes it when play starts and the hand is drawn again after it.
            if let Some(first) = h.choose_one_of.first() {
                state.take_start_card((&h.side, &h.deck), &h.choose_one_of, first, h.draw);
            } else {
                state.deal(&h.side, &h.deck, h.draw);
            }
            if h.choose_one_of.len() > 1 {
                let hand = &state.hands[&h.side];
                choices.push(crate::rules::Task::StartCard {
                    side: (&h.side).into(),
                    deck: h.deck.clone(),
                    cards: h.choose_one_of.clone(),
                    draw: h.draw,
                    dealt: hand[before.len()..].to_vec(),
                });
            }
        }
        // The first hand's choice is asked first (a position put elsewhere drops the
        // choices: the hands dealt stand).
        choices.reverse();
        state.flow.tasks.extend(choices);
        Ok(state)
    }

    /// The start's choice of a card made when play starts: the hand dealt for now (`dealt`)
    /// goes back into the deck, then the chosen card is taken and the hand drawn again.
    pub(crate) fn redo_start_card(
        &mut self,
        (side, deck): (&str, &str),
        (cards, dealt): (&[String], &[String]),
        chosen: &str,
        draw: u32,
    ) {
        let hand = self.hands.entry(side.to_string()).or_default();
        let back: Vec<String> = dealt
            .iter()
            .filter(|c| hand.contains(c) && !cards.contains(c))
            .cloned()
            .collect();
        hand.retain(|c| !dealt.contains(c));
        self.draw_piles
            .entry(deck.to_string())
            .or_default()
            .extend(back);
        self.take_start_card((side, deck), cards, chosen, draw);
    }

    /// A side takes one of some cards into its hand at the start of play (`choose_one_of`); the
    /// others go into the deck's draw pile, which is shuffled, and the hand's draw follows.
    pub(crate) fn take_start_card(
        &mut self,
        (side, deck): (&str, &str),
        cards: &[String],
        chosen: &str,
        draw: u32,
    ) {
        let pile = self.draw_piles.entry(deck.to_string()).or_default();
        pile.retain(|c| !cards.contains(c));
        self.hands
            .entry(side.to_string())
            .or_default()
            .push(chosen.to_string());
        let pile = self.draw_piles.entry(deck.to_string()).or_default();
        pile.extend(cards.iter().filter(|c| *c != chosen).cloned());
        self.deal(side, deck, draw);
    }

    /// Shuffles a deck's draw pile and deals a side this many cards from it.
    fn deal(&mut self, side: &str, deck: &str, draw: u32) {
        self.draw_piles.entry(deck.to_string()).or_default();
        let mut pile = std::mem::take(self.draw_piles.entry(deck.to_string()).or_default());
        self.shuffle(&mut pile);
        let take = (draw as usize).min(pile.len());
        let drawn: Vec<String> = pile.drain(..take).collect();
        self.hands
            .entry(side.to_string())
            .or_default()
            .extend(drawn);
        self.draw_piles.insert(deck.to_string(), pile);
    }

    /// Takes the cards a scenario places out of the draw piles and the cards set aside, then
    /// puts them in the hands, on the discard piles or out of the game, and records those
    /// played as events (on the turn given, else the turn before the scenario's first).
    fn place_start_cards(
        &mut self,
        content: &Content,
        scenario: &ScenarioFile,
        game: &crate::model::GameFile,
    ) {
        let placed: BTreeSet<&String> = scenario
            .hands
            .iter()
            .flat_map(|h| &h.cards)
            .chain(scenario.played.iter().map(|p| &p.card))
            .chain(&scenario.discarded)
            .chain(&scenario.removed)
            .collect();
        if placed.is_empty() {
            return;
        }
        for pile in self
            .draw_piles
            .values_mut()
            .chain(self.set_aside.values_mut())
        {
            pile.retain(|c| !placed.contains(c));
        }
        for h in &scenario.hands {
            let hand = self.hands.entry(h.side.clone()).or_default();
            hand.extend(h.cards.iter().cloned());
        }
        let before = scenario.first_turn.saturating_sub(1);
        let discarded = scenario.played.iter().map(|p| (&p.card, true));
        let discarded = discarded.chain(scenario.discarded.iter().map(|c| (c, false)));
        for (card, as_event) in discarded {
            let found = content.card(card);
            if as_event {
                let turn = scenario
                    .played
                    .iter()
                    .find(|p| p.card == *card)
                    .and_then(|p| p.turn);
                self.played.insert(card.into(), turn.unwrap_or(before));
                if found.is_some_and(|(_, c)| c.remove) {
                    continue;
                }
            }
            if let Some((deck, _)) = found {
                self.put_discarded(game, deck, card.clone());
            }
        }
    }

    /// Puts the pieces of a setup line on the map or in a box. A line placed "anywhere in a
    /// region" takes the first empty space of the region, in map order. Pieces placed to serve
    /// a side (a neutral's, entering the war) go to that side's box of the same role.
    pub fn place_setup(
        &mut self,
        content: &Content,
        p: &Placement,
        serves: Option<usize>,
    ) -> Result<(), SetupError> {
        let game = content
            .game
            .as_ref()
            .ok_or_else(|| SetupError("no game.ron".into()))?;
        let limit = game.stacking.limit.unwrap_or(u32::MAX) as usize;
        let side = serves
            .and_then(|i| game.sides.get(i))
            .map(|s| s.id.as_str());
        for _ in 0..p.count {
            let at = match &p.at {
                Location::Space(s) => Loc::Space(s.into()),
                Location::Box(b) => {
                    let role = game.boxes.iter().find(|x| x.id == *b).and_then(|x| x.role);
                    let theirs = side.and_then(|side| {
                        game.boxes.iter().find(|x| {
                            x.side.as_deref() == Some(side) && x.role == role && role.is_some()
                        })
                    });
                    Loc::Box(theirs.map_or_else(|| b.into(), |x| x.id.as_str().into()))
                }
                Location::Region(r) => {
                    let region: Vec<&crate::model::Space> = content
                        .graph
                        .spaces
                        .iter()
                        .filter(|s| s.country.as_ref() == Some(r) || s.regions.contains(r))
                        .collect();
                    // The first empty space; else, where the game stacks any number, the one
                    // holding the fewest units, all of the piece's own nation.
                    let nation = content.counter(&p.counter).map(|c| c.nation.as_str());
                    let own_only = |s: &&&crate::model::Space| {
                        self.units_at(&s.id).all(|(_, u)| {
                            content.counter_of(u).map(|c| c.nation.as_str()) == nation
                        })
                    };
                    region
                        .iter()
                        .find(|s| self.units_at(&s.id).count() < limit.min(1))
                        .or_else(|| {
                            region
                                .iter()
                                .filter(|_| game.stacking.limit.is_none())
                                .filter(own_only)
                                .min_by_key(|s| self.units_at(&s.id).count())
                        })
                        .map(|s| Loc::Space(s.id))
                        .ok_or_else(|| {
                            SetupError(format!("no room in region `{r}` for `{}`", p.counter))
                        })?
                }
            };
            let unit = self
                .units
                .iter_mut()
                .find(|u| u.counter == p.counter && u.at == Loc::Unplaced)
                .ok_or_else(|| SetupError(format!("no piece of `{}` left to set up", p.counter)))?;
            unit.at = at;
            unit.reduced = p.reduced;
            if serves.is_some() {
                unit.serves = serves;
            }
        }
        Ok(())
    }
}
