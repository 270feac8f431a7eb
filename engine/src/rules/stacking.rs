//! Where a unit may stand, the toolkit's rule every procedure asks: spaces a side may enter,
//! national restrictions (where a unit may operate), the stacking limits.

use super::Rules;
use crate::model::{Apart, PassThrough};
use crate::state::{State, Unit};

/// Where each of the game's stacking rules that depend on where a space lies holds, by graph
/// index, worked out once when the rules are made: the rules ask it at every step of every
/// search, and each question looked up the rule's regions by their texts.
pub(crate) struct Tables {
    /// For each of the `limits` (by index), whether it holds in each space: in one of its
    /// `within` regions (or it names none) and in none of its `except` regions.
    limits: Vec<Vec<bool>>,
    /// For each of the `apart` rules (by index), whether each space lies in one of the regions
    /// where the nations it keeps apart may be together (`except`).
    together: Vec<Vec<bool>>,
    /// For each of the play rules' `no_entry` rules, its side and whether it closes each space
    /// (listed, or of a terrain it names): asked of every space a search reaches.
    closed: Vec<(crate::Id, Vec<bool>)>,
}

impl Tables {
    pub(crate) fn new(
        content: &crate::content::Content,
        (st, play): (&crate::model::Stacking, &crate::model::PlayRules),
    ) -> Tables {
        let n = content.graph.spaces.len();
        let closes = |rule: &crate::model::NoEntry, s: &crate::model::Space| {
            rule.spaces.contains(&s.id)
                || s.terrain
                    .as_ref()
                    .is_some_and(|t| rule.terrains.contains(t))
        };
        let any_in = |regions: &[String], i: usize| {
            (regions.iter()).any(|r| crate::content::space_at_in_region(content, i, r))
        };
        Tables {
            limits: (st.limits.iter())
                .map(|l| {
                    (0..n)
                        .map(|i| {
                            (l.within.is_empty() || any_in(&l.within, i)) && !any_in(&l.except, i)
                        })
                        .collect()
                })
                .collect(),
            together: (st.apart.iter())
                .map(|ap| (0..n).map(|i| any_in(&ap.except, i)).collect())
                .collect(),
            closed: (play.no_entry.iter())
                .map(|rule| {
                    let spaces = content.graph.spaces.iter();
                    (rule.side, spaces.map(|s| closes(rule, s)).collect())
                })
                .collect(),
        }
    }
}

/// Whether a side may ever enter a space (terrain and spaces it may not enter; neutral
/// territory stays closed until its country enters the war).
pub fn may_enter(rules: &Rules, state: &State, side: &str, space: usize) -> bool {
    may_enter_among(
        rules,
        state,
        side,
        (space, &state.control.by_index(rules.content)),
    )
}

/// [`may_enter`] with the controller of each space (by graph index) found already: a search
/// asks it of every space it reaches.
pub(super) fn may_enter_among(
    rules: &Rules,
    state: &State,
    side: &str,
    (space, holders): (usize, &[Option<crate::Id>]),
) -> bool {
    let Some(s) = rules.content.graph.spaces.get(space) else {
        return false;
    };
    if holders.get(space).is_none_or(|h| h.is_none()) {
        // A neutral space, open only under a rule whose flag is set.
        return rules.play.open_neutrals.iter().any(|o| {
            state.flags.contains(o.flag.as_str())
                && o.regions
                    .iter()
                    .any(|r| crate::state::space_in_region(rules.content, &s.id, r))
        });
    }
    !closed_to(rules, side, space)
}

/// Whether a `no_entry` rule closes a space (by graph index) to a side, whoever holds it: it
/// may neither enter nor attack it.
pub(super) fn closed_to(rules: &Rules, side: &str, space: usize) -> bool {
    // The side compared by the address of its text first (the rules pass a side's own id).
    let is_side = |by: &crate::Id| std::ptr::eq(by.as_str(), side) || by.as_str() == side;
    (rules.stack.closed.iter()).any(|(by, closed)| is_side(by) && closed.get(space) == Some(&true))
}

/// Whether a unit may operate in a space: every national restriction that binds it allows
/// the space (a rule lifted by its flag binds no one).
pub fn may_operate(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    if rules.play.operate_in.is_empty() {
        return true;
    }
    let table = rules.content.operate_binds(|| operate_table(rules));
    let operate = &rules.play.operate_in;
    match rules.content.graph.index_of(space) {
        Some(i) => binding(rules, state, unit)
            .iter()
            .all(|&k| table.allows[k][i]),
        // Off the map: no region holds it; only the spaces listed by id.
        None => binding(rules, state, unit).iter().all(|&k| {
            let r = &operate[k];
            r.regions.is_empty() && r.spaces.is_empty() || r.spaces.iter().any(|s| s == space)
        }),
    }
}

/// The national restrictions (`operate_in`, by index) that bind a unit now: those that name
/// it, unless lifted by their flag.
fn binding(rules: &Rules, state: &State, unit: usize) -> smallvec::SmallVec<[usize; 4]> {
    let u = &state.units[unit];
    let table = rules.content.operate_binds(|| operate_table(rules));
    let operate = &rules.play.operate_in;
    let binds = |k: &usize| {
        (operate[*k].unless_flag.as_ref()).is_none_or(|f| !state.flags.contains(f.as_str()))
    };
    match (rules.content.counters.get(u.hint)).filter(|c| c.id == u.counter) {
        // Only the rules that name the counter can bind it.
        Some(_) => table.naming[u.hint].iter().copied().filter(binds).collect(),
        None => (0..operate.len())
            .filter(|&k| {
                rules
                    .counter(u)
                    .is_some_and(|c| names_counter(&operate[k], c))
            })
            .filter(binds)
            .collect(),
    }
}

/// Which `operate_in` rules name each counter, and allow which spaces (in a region or
/// listed, and in none of the regions they rule out).
fn operate_table(rules: &Rules) -> crate::content::OperateTable {
    let content = rules.content;
    let spaces = &content.graph.spaces;
    let in_region = |i: usize, reg: &String| crate::content::space_at_in_region(content, i, reg);
    let operate = &rules.play.operate_in;
    crate::content::OperateTable {
        naming: content
            .counters
            .iter()
            .map(|c| {
                (operate.iter().enumerate())
                    .filter(|(_, r)| names_counter(r, c))
                    .map(|(k, _)| k)
                    .collect()
            })
            .collect(),
        allows: operate
            .iter()
            .map(|r| {
                (0..spaces.len())
                    .map(|i| {
                        let within = |regions: &[String]| regions.iter().any(|g| in_region(i, g));
                        (r.regions.is_empty() && r.spaces.is_empty()
                            || within(&r.regions)
                            || r.spaces.iter().any(|s| *s == spaces[i].id))
                            && !within(&r.not_regions)
                    })
                    .collect()
            })
            .collect(),
    }
}

/// Whether a national restriction names a counter (by its nation, its id or its size).
fn names_counter(r: &crate::model::OperateIn, c: &crate::model::Counter) -> bool {
    (r.nations.iter().any(|x| *x == c.nation) || r.counters.iter().any(|x| *x == c.id))
        && !r.except_counters.iter().any(|x| *x == c.id)
        && (r.sizes.is_empty() || r.sizes.iter().any(|x| *x == c.size))
}

/// Whether a unit may end its move in a space: where it may operate, without breaking the
/// stacking rules.
pub(super) fn may_stack(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    let side = rules.side(&state.units[unit]);
    // The space's pieces looked up once, for the enemy and for the stacking rules.
    may_operate(rules, state, unit, space)
        && stands_among(
            rules,
            state,
            (unit, side),
            Here::id(space),
            Others::at(state, unit, space, &[]),
        )
}

/// [`may_stack`] once the unit may operate in the space, among the space's other pieces,
/// `others`: no enemy piece there, and the stacking rules allow it.
fn stands_among(
    rules: &Rules,
    state: &State,
    (unit, side): (usize, crate::Id),
    space: Here,
    others: Others,
) -> bool {
    !others.iter().any(|x| rules.side(x) != side)
        && allowed_among(rules, state, unit, space, (others, false))
}

/// Whether the game's stacking rules (limits by nation and region, units that must stay
/// apart or alone) let a unit stand in a space with the units already there.
pub(super) fn stacking_allows(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    stacking_allows_with(rules, state, unit, space, false)
}

/// [`stacking_allows`] for the end of a retreat, which may break the rules that keep nations
/// apart where they say a retreat may (`retreat`), when `in_retreat`.
pub(super) fn stacking_allows_with(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: &str,
    in_retreat: bool,
) -> bool {
    let others = Others::at(state, unit, space, &[]);
    allowed_among(rules, state, unit, Here::id(space), (others, in_retreat))
}

/// [`stacking_allows`] as if the units `gone` were not there (units about to be overrun).
pub(super) fn allows_without(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: &str,
    gone: &[usize],
) -> bool {
    let others = Others::at(state, unit, space, gone);
    allowed_among(rules, state, unit, Here::id(space), (others, false))
}

/// Whether the stacking rules let a unit stand in a space among `others`: the limits, and the
/// rules that keep pieces alone or nations apart (some of which a retreat may break).
fn allowed_among(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: Here,
    (others, in_retreat): (Others, bool),
) -> bool {
    within_limits(rules, state, unit, space, others)
        && may_be_together(rules, state, unit, space, (others, in_retreat))
}

/// A space asked about: its id, and its graph index when the caller knows it (else it is
/// looked up, only by a rule that depends on where the space lies).
#[derive(Clone, Copy)]
struct Here<'a> {
    id: &'a str,
    index: Option<usize>,
}

impl<'a> Here<'a> {
    fn id(id: &'a str) -> Here<'a> {
        Here { id, index: None }
    }

    fn index(self, rules: &Rules) -> Option<usize> {
        self.index.or_else(|| rules.content.graph.index_of(self.id))
    }
}

/// The stacking rules asked of one unit in many spaces (the spaces a move's or an SR's search
/// reaches), each by its graph index: the national restrictions that bind the unit found
/// once, and no space looked up by its id but for the pieces on it. Each answers as the
/// function of the same name.
pub(crate) struct UnitStack<'r, 'c> {
    rules: &'r Rules<'c>,
    unit: usize,
    side: crate::Id,
    /// The `operate_in` rules that bind the unit (see [`binding`]).
    binding: smallvec::SmallVec<[usize; 4]>,
    /// Whether the unit alone in a space is within every stacking rule, wherever the space
    /// lies and whatever the flags (see [`alone_fits`]): then a space with no other piece
    /// needs no more asking.
    alone_fits: bool,
}

/// Whether a unit with no other piece beside it is within the stacking rules in any space:
/// it counts for no limit it alone would break (a limit of none, a limit by nation and
/// region its own weight passes, whatever the region and flags). The rules that keep pieces
/// alone or nations apart never bind a piece by itself.
fn alone_fits(rules: &Rules, u: &Unit) -> bool {
    if !counts(rules, u) {
        return true;
    }
    let st = &rules.game.stacking;
    let nation = rules.nation_id(u);
    st.limit != Some(0)
        && !(st.limits.iter()).any(|l| l.counts(nation) && l.weight(rules.size_id(u)) > l.limit)
}

impl<'r, 'c> UnitStack<'r, 'c> {
    pub(crate) fn new(rules: &'r Rules<'c>, state: &State, unit: usize) -> UnitStack<'r, 'c> {
        let binding = if rules.play.operate_in.is_empty() {
            smallvec::SmallVec::new()
        } else {
            binding(rules, state, unit)
        };
        let u = &state.units[unit];
        UnitStack {
            rules,
            unit,
            side: rules.side(u),
            binding,
            alone_fits: alone_fits(rules, u),
        }
    }

    /// The space of graph index `space` with its other pieces, looked up once, and whether the
    /// unit would stand there alone where being alone fits the stacking rules (then every
    /// stacking question there is answered yes).
    fn among<'s>(&self, state: &'s State, space: usize) -> Option<(Here<'r>, Others<'s>, bool)> {
        let here = self.here(space)?;
        let id = self.rules.content.graph.spaces[space].id;
        let others = Others {
            state,
            on: state.units.on_id(id),
            unit: self.unit,
            gone: &[],
        };
        Some((here, others, self.alone_fits && others.is_empty()))
    }

    /// [`may_operate`] in the space of graph index `space`.
    pub(crate) fn may_operate(&self, space: usize) -> bool {
        if self.binding.is_empty() {
            return true;
        }
        let table = (self.rules.content).operate_binds(|| operate_table(self.rules));
        (self.binding.iter()).all(|&k| table.allows[k].get(space) == Some(&true))
    }

    /// [`may_stack`] in the space of graph index `space`.
    pub(crate) fn may_stack(&self, state: &State, space: usize) -> bool {
        self.may_operate(space)
            && self
                .among(state, space)
                .is_some_and(|(here, others, alone)| {
                    alone || stands_among(self.rules, state, (self.unit, self.side), here, others)
                })
    }

    /// [`stacking_allows`] in the space of graph index `space`.
    pub(crate) fn allows(&self, state: &State, space: usize) -> bool {
        self.among(state, space)
            .is_some_and(|(here, others, alone)| {
                alone || allowed_among(self.rules, state, self.unit, here, (others, false))
            })
    }

    /// [`may_pass`] through the space of graph index `space`.
    pub(crate) fn may_pass(&self, state: &State, space: usize) -> bool {
        // A game that lets units pass anywhere asks nothing of the space.
        self.rules.game.stacking.pass_through == PassThrough::Always
            || self
                .among(state, space)
                .is_some_and(|(here, others, alone)| {
                    alone || passes_among(self.rules, state, self.unit, here, others)
                })
    }

    fn here(&self, space: usize) -> Option<Here<'r>> {
        let s = self.rules.content.graph.spaces.get(space)?;
        Some(Here {
            id: s.id.as_str(),
            index: Some(space),
        })
    }
}

/// Whether a moving unit may pass through a space, stopping there or not: the stacking rules
/// that hold at each step of a move, by the game's `pass_through` (all of them, those that
/// keep pieces apart or alone, or none). Where it may stop is [`stacking_allows`].
pub(super) fn may_pass(rules: &Rules, state: &State, unit: usize, space: &str) -> bool {
    // A game that lets units pass anywhere asks nothing of the space.
    rules.game.stacking.pass_through == PassThrough::Always
        || passes_among(
            rules,
            state,
            unit,
            Here::id(space),
            Others::at(state, unit, space, &[]),
        )
}

/// [`may_pass`] among the space's other pieces, `others`.
fn passes_among(rules: &Rules, state: &State, unit: usize, space: Here, others: Others) -> bool {
    match rules.game.stacking.pass_through {
        PassThrough::Never => allowed_among(rules, state, unit, space, (others, false)),
        PassThrough::OverLimits => may_be_together(rules, state, unit, space, (others, false)),
        PassThrough::Always => true,
    }
}

/// Whether the game lets a moving unit pass through spaces where it may not stop.
pub(super) fn passes_through(rules: &Rules) -> bool {
    rules.game.stacking.pass_through != PassThrough::Never
}

/// The other units in a space than the one asked about (and those `gone`), walked where they
/// are listed, never copied: the stacking rules ask it of every space a search reaches.
#[derive(Clone, Copy)]
struct Others<'s> {
    state: &'s State,
    on: &'s [usize],
    unit: usize,
    gone: &'s [usize],
}

impl<'s> Others<'s> {
    fn at(state: &'s State, unit: usize, space: &str, gone: &'s [usize]) -> Others<'s> {
        Others {
            state,
            on: state.units.on(space),
            unit,
            gone,
        }
    }

    fn iter(self) -> impl Iterator<Item = &'s Unit> {
        (self.on.iter())
            .filter(move |&&i| i != self.unit && !self.gone.contains(&i))
            .map(move |&i| &self.state.units[i])
    }

    fn is_empty(self) -> bool {
        self.iter().next().is_none()
    }
}

/// Whether a unit counts for stacking.
fn counts(rules: &Rules, x: &Unit) -> bool {
    rules.facts(x).counts
}

/// Whether a unit in a space with `others` stays within the stacking limits (`limit`, and the
/// `limits` by nation and region).
fn within_limits(rules: &Rules, state: &State, unit: usize, space: Here, others: Others) -> bool {
    let u = &state.units[unit];
    if !counts(rules, u) {
        return true;
    }
    let st = &rules.game.stacking;
    if let Some(limit) = st.limit {
        if others.iter().filter(|x| counts(rules, x)).count() as u32 >= limit {
            return false;
        }
    }
    if st.limits.is_empty() {
        return true;
    }
    let Some(here) = space.index(rules) else {
        return true;
    };
    let nation = rules.nation_id(u);
    let applies = &rules.stack.limits;
    // The flags looked up last: only for a limit the stack would break.
    !st.limits.iter().enumerate().any(|(k, l)| {
        l.counts(nation)
            && applies[k][here]
            && others
                .iter()
                .filter(|x| counts(rules, x) && l.counts(rules.nation_id(x)))
                .map(|x| l.weight(rules.size_id(x)))
                .sum::<u32>()
                + l.weight(rules.size_id(u))
                > l.limit
            && l.in_force(|f| state.flags.contains(&f))
    })
}

/// Whether a unit may be in a space with `others` by the rules that keep pieces alone or
/// nations apart (in a retreat, those that say a retreat may break them do not hold).
fn may_be_together(
    rules: &Rules,
    state: &State,
    unit: usize,
    space: Here,
    (others, in_retreat): (Others, bool),
) -> bool {
    let u = &state.units[unit];
    let st = &rules.game.stacking;
    if st.alone.contains(&u.counter) && !others.is_empty()
        || others.iter().any(|o| st.alone.contains(&o.counter))
    {
        return false;
    }
    if st.apart.is_empty() || others.is_empty() {
        return true;
    }
    // The space itself, only for the exceptions that depend on where it lies.
    let here = if st.apart.iter().any(|a| !a.except.is_empty()) {
        space.index(rules)
    } else {
        None
    };
    let together = &rules.stack.together;
    let holds =
        |k: usize, ap: &Apart| !(here.is_some_and(|h| together[k][h]) || in_retreat && ap.retreat);
    // Ids compared by address.
    let clash = |a: crate::Id, b: crate::Id| {
        st.apart.iter().enumerate().any(|(k, ap)| {
            holds(k, ap)
                && ap.nations.contains(&a)
                && !ap.nations.contains(&b)
                && (ap.from.is_empty() || ap.from.contains(&b))
        })
    };
    let nation = rules.nation_id(u);
    !others.iter().any(|x| {
        let n = rules.nation_id(x);
        clash(nation, n) || clash(n, nation)
    })
}
