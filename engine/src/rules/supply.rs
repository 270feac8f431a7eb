//! Supply: which spaces a piece of a nation, serving a side, traces supply from.
//!
//! A piece is supplied when a path leads from its space to a supply source of its nation that
//! its side controls (and whose flag, if any, is set), every space between being controlled by
//! its side and free of enemy pieces. The path is Full when it crosses no connection whose kind
//! gives only Limited supply, Limited otherwise; connections of a kind that blocks supply are
//! never crossed. One breadth-first search from the sources gives the level of every space at
//! once, so a rule that asks about many pieces pays for one search per nation.

pub(in crate::rules) mod attack;
mod cache;
mod kept;
mod parts;
pub(in crate::rules) mod zones;

pub(crate) use cache::SupplyCache;
pub(crate) use kept::kept_off;
pub use kept::{levels_kept, levels_kept_reaching, view_kept, without_kept};
pub use parts::without_parts;

pub use crate::content::supply_index::{edge_trace, nation_side, SupplyIndex};
use crate::content::Content;
use crate::model::{HookPoint, SupplyLevel, TraceSupply};
use crate::state::State;

/// The supply a space offers a piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Out,
    Limited,
    Full,
}

/// The map as one side sees it for tracing supply: which spaces hold enemy pieces, which it
/// controls free of them, and which hinder its supply (a partisan marker).
#[derive(Debug, Clone)]
pub struct SideView {
    side: crate::Id,
    friendly: Vec<bool>,
    hindered: Vec<bool>,
    /// The spaces the side controls, enemy pieces in them or not.
    controlled: Vec<bool>,
    /// Whether spaces were closed ([`SideView::close`]): the view is then no longer the side's
    /// whole view, and its traces are not kept.
    closed: bool,
    /// `friendly`, `hindered` and `controlled` as bits, one row after the other: what a trace
    /// reads of the view, for the key of the levels kept ([`kept`]).
    bits: Vec<u64>,
    /// The parts supply lines run through, found at the first trace on the view ([`parts`]).
    parts: parts::Kept,
    /// A number no view with other spaces had: taken afresh when a view is made or looked at
    /// again with a change, kept by a copy (see [`kept`]).
    stamp: u64,
}

/// Views compare by what they hold, not by their stamps: a view made anew holds what a view
/// kept holds.
impl PartialEq for SideView {
    fn eq(&self, other: &SideView) -> bool {
        let SideView {
            side,
            friendly,
            hindered,
            controlled,
            closed,
            bits,
            parts,
            stamp: _,
        } = self;
        *side == other.side
            && *friendly == other.friendly
            && *hindered == other.hindered
            && *controlled == other.controlled
            && *closed == other.closed
            && *bits == other.bits
            && *parts == other.parts
    }
}

impl SideView {
    pub fn new(content: &Content, state: &State, side: &str) -> SideView {
        let g = &content.graph;
        let n = g.spaces.len();
        let mut enemy = vec![false; n];
        let side_id = crate::Id::new(side);
        for u in &state.units {
            if let crate::state::Loc::Space(s) = &u.at {
                // A space already known to hold an enemy piece needs no more asking.
                if let Some(i) = g.index_of(s).filter(|&i| !enemy[i]) {
                    enemy[i] = u.side(content) != side_id;
                }
            }
        }
        let mut friendly = vec![false; n];
        let mut controlled = vec![false; n];
        for (i, holder) in state.control.by_index(content).iter().enumerate() {
            if *holder == Some(side_id) {
                friendly[i] = !enemy[i];
                controlled[i] = true;
            }
        }
        // Spaces whose markers let the side trace only Limited supply through them.
        let mut hindered = vec![false; n];
        for m in hindering(content, state, side) {
            if let Some(i) = g.index_of(m.space) {
                hindered[i] = true;
            }
        }
        let bits = [&friendly, &hindered, &controlled]
            .into_iter()
            .flat_map(|row| {
                row.chunks(64)
                    .map(|c| c.iter().rev().fold(0u64, |w, &b| w << 1 | u64::from(b)))
            })
            .collect();
        SideView {
            side: side_id,
            friendly,
            hindered,
            controlled,
            closed: false,
            bits,
            parts: parts::Kept::default(),
            stamp: crate::state::fresh_stamp(),
        }
    }

    pub fn side(&self) -> &str {
        &self.side
    }

    /// The view's stamp: two views with the same stamp hold the same spaces.
    pub(crate) fn stamp(&self) -> u64 {
        self.stamp
    }

    /// Whether the side controls the space of graph index `i` free of enemy pieces.
    pub fn friendly(&self, i: usize) -> bool {
        self.friendly.get(i).copied().unwrap_or(false)
    }

    /// This view after pieces moved (or changed sides) with the control of the map and the
    /// hindering markers as they were: the `spaces` (graph indexes) they left or entered
    /// looked at again. None when none of them changed: this view is the view still (a piece
    /// moving within its side's spaces), and what was found on it, its parts, holds.
    pub(crate) fn looked_again(
        &self,
        content: &Content,
        state: &State,
        spaces: &[usize],
    ) -> Option<SideView> {
        let side_id = self.side;
        let friendly_now = |i: usize| {
            let id = &content.graph.spaces[i].id;
            let enemy = state.units_at(id).any(|(_, u)| u.side(content) != side_id);
            self.controlled.get(i) == Some(&true) && !enemy
        };
        // A few spaces (the pieces that changed are few): kept on the stack.
        let changed: smallvec::SmallVec<[(usize, bool); 16]> = (spaces.iter())
            .map(|&i| (i, friendly_now(i)))
            .filter(|&(i, f)| self.friendly.get(i) != Some(&f))
            .collect();
        if changed.is_empty() {
            return None;
        }
        let mut view = self.clone();
        view.stamp = crate::state::fresh_stamp();
        let words = self.friendly.len().div_ceil(64);
        for (i, friendly) in changed {
            view.friendly[i] = friendly;
            // The friendly row comes first in the bits, 64 spaces to a word.
            if let Some(word) = view.bits.get_mut(i / 64).filter(|_| i / 64 < words) {
                *word = *word & !(1 << (i % 64)) | u64::from(friendly) << (i % 64);
            }
        }
        Some(view)
    }

    /// Supply may not be traced through a space (to ask what a trace depends on).
    pub fn close(&mut self, space: usize) {
        self.closed = true;
        self.parts.forget();
        if let Some(f) = self.friendly.get_mut(space) {
            *f = false;
        }
        if let Some(h) = self.hindered.get_mut(space) {
            *h = true;
        }
    }
}

/// The markers on the map that let `side` trace only Limited supply through their spaces (the
/// play rule `hindering_markers`).
pub(crate) fn hindering<'s>(
    content: &'s Content,
    state: &'s State,
    side: &'s str,
) -> impl Iterator<Item = &'s crate::state::MarkerOnMap> {
    let play = content.game.as_ref().and_then(|g| g.play.as_ref());
    play.into_iter()
        .flat_map(|p| &p.hindering_markers)
        .filter(move |h| h.limits_supply && h.side == side)
        .flat_map(move |h| {
            // The marker's id, compared by address with each marker on the map.
            let marker = crate::Id::new(&h.marker);
            state.markers.iter().filter(move |m| m.marker == marker)
        })
}

/// Whether tracing supply reads where markers of a kind lie: a marker that is a source, that
/// marks a fort destroyed or that hinders a side's supply.
pub(crate) fn reads_marker(content: &Content, marker: crate::Id) -> bool {
    let play = content.game.as_ref().and_then(|g| g.play.as_ref());
    kept::read_by_traces(content, marker)
        || play.is_some_and(|p| p.hindering_markers.iter().any(|h| h.marker == marker))
}

/// Whether a space holds a fort that still stands (no fort-destroyed marker on it).
pub fn intact_fort(content: &Content, state: &State, space: &str) -> bool {
    content
        .graph
        .index_of(space)
        .is_some_and(|i| intact_fort_at(content, state, i))
}

/// [`intact_fort`] of the space of graph index `i`.
pub fn intact_fort_at(content: &Content, state: &State, i: usize) -> bool {
    let Some(play) = content.game.as_ref().and_then(|g| g.play.as_ref()) else {
        return false;
    };
    let Some(fort) = &play.fort else {
        return false;
    };
    let Some(s) = content.graph.spaces.get(i) else {
        return false;
    };
    s.features.contains(fort)
        && !play.fort_destroyed.as_ref().is_some_and(|d| {
            state
                .markers
                .iter()
                .any(|m| m.marker == *d && m.space == s.id)
        })
}

/// The supply level of every space (by graph index) for a piece of `nation` serving `side`.
pub fn levels(content: &Content, state: &State, nation: &str, side: &str) -> std::rc::Rc<[Level]> {
    levels_kept(content, state, &view_kept(content, state, side), nation)
}

/// The supply level of every space for a piece of `nation`, on a side's view of the map.
pub fn levels_seen(content: &Content, state: &State, view: &SideView, nation: &str) -> Vec<Level> {
    let reach = max_reach(content, state, nation, &view.side);
    levels_seen_reaching(content, state, view, (nation, reach))
}

/// [`levels_seen`] for a nation whose reach ([`max_reach`]) is known.
pub(crate) fn levels_seen_reaching(
    content: &Content,
    state: &State,
    view: &SideView,
    (nation, reach): (&str, u32),
) -> Vec<Level> {
    let mut out = lines(content, state, view, (nation, reach), &mut |_| true);
    // With no supply line, a unit in a friendly intact fort is in Limited Supply (13.1): only
    // the forts looked at.
    for &i in &content.supply_index().forts {
        if out[i] == Level::Out && view.friendly[i] && intact_fort_at(content, state, i) {
            out[i] = Level::Limited;
        }
    }
    // Rules that allow at best Limited Supply somewhere while their flag is set, and nations
    // always supplied at home or anywhere.
    if let Some(play) = content.game.as_ref().and_then(|g| g.play.as_ref()) {
        for always in play
            .always_supplied
            .iter()
            .filter(|a| a.nations.iter().any(|n| n == nation))
        {
            let homes: Vec<&Vec<bool>> = content
                .game
                .iter()
                .flat_map(|g| g.nations.iter().filter(|n| n.id == nation))
                .flat_map(|n| n.home.iter())
                .filter_map(|h| content.region_index().get(h.as_str()))
                .collect();
            for (i, level) in out.iter_mut().enumerate() {
                if always.anywhere || homes.iter().any(|h| h[i]) {
                    *level = Level::Full;
                }
            }
        }
        for cap in play.limited_while.iter().filter(|c| {
            state.flags.contains(c.flag.as_str()) && c.nations.iter().any(|n| n == nation)
        }) {
            if let Some(members) = content.region_index().get(cap.region.as_str()) {
                for (level, inside) in out.iter_mut().zip(members) {
                    if *inside && *level == Level::Full {
                        *level = Level::Limited;
                    }
                }
            }
        }
    }
    out
}

/// Everything [`levels_seen`] reads of a nation: two nations of a side with the same signature
/// have the same supply levels, so a question traces them once.
#[derive(Debug, PartialEq)]
pub(crate) struct Signature<'c> {
    sources: &'c [crate::content::supply_index::Source],
    reach: u32,
    /// The marker sources (by index) that supply it.
    markers: &'c [usize],
    /// Its own id when a rule supplies it always (at home, or anywhere): then no other nation
    /// shares its levels.
    always: Option<crate::Id>,
    /// The `limited_while` rules (by index) in force for it.
    limited: smallvec::SmallVec<[usize; 4]>,
}

impl Signature<'_> {
    /// The nation's reach ([`max_reach`]).
    pub(crate) fn reach(&self) -> u32 {
        self.reach
    }
}

pub(crate) fn signature<'c>(
    content: &'c Content,
    state: &State,
    nation: crate::Id,
    side: &str,
) -> Signature<'c> {
    let index = content.supply_index();
    // The play rules that name the nation, found once per content.
    let rules = index.rules_of(nation);
    Signature {
        sources: index.sources_of(nation),
        reach: max_reach(content, state, &nation, side),
        markers: &rules.markers,
        always: rules.always.then_some(nation),
        limited: (rules.limited.iter())
            .filter(|(_, flag)| state.flags.contains(flag))
            .map(|&(i, _)| i)
            .collect(),
    }
}

/// The supply lines of a piece of `nation` on a side's view of the map: the level of every
/// space reached from the sources (of the map, and markers that are sources) whose space
/// `keep` accepts (asked of each source's space by its graph index).
fn lines(
    content: &Content,
    state: &State,
    view: &SideView,
    (nation, reach): (&str, u32),
    keep: &mut dyn FnMut(usize) -> bool,
) -> Vec<Level> {
    let g = &content.graph;
    let index = content.supply_index();
    let n = g.spaces.len();
    let (friendly, hindered) = (&view.friendly, &view.hindered);
    let sources = index.sources_of(crate::Id::new(nation));
    let mut out = vec![Level::Out; n];
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    for full in [true, false] {
        let level = if full { Level::Full } else { Level::Limited };
        seen.iter_mut().for_each(|x| *x = false);
        stack.clear();
        for src in sources {
            let i = src.space;
            let open = (!full || src.level == SupplyLevel::Full)
                && src
                    .flag
                    .as_ref()
                    .is_none_or(|f| state.flags.contains(f.as_str()))
                && src
                    .unless_flag
                    .as_ref()
                    .is_none_or(|f| !state.flags.contains(f.as_str()));
            if open
                && !seen[i]
                && keep(i)
                && (friendly[i] || view.controlled[i])
                && !(full && hindered[i])
            {
                seen[i] = true;
                if friendly[i] {
                    stack.push(i);
                }
            }
        }
        if reach as usize >= n && parts::on() {
            // The whole map in reach: what the parts of the sources reach (see [`parts`]).
            let pass = view.parts.pass(content, view, full);
            let mut marked = vec![false; pass.parts()];
            for i in sources.iter().map(|s| s.space).filter(|&i| seen[i]) {
                raise(&mut out[i], level);
                let Some(p) = pass.part_of(i).filter(|&p| !marked[p]) else {
                    continue;
                };
                marked[p] = true;
                pass.reached(p).for_each(|m| raise(&mut out[m], level));
            }
            continue;
        }
        let open_edge = |e: usize, m: usize| {
            let trace = index.edges[e];
            !(trace == TraceSupply::Blocked
                || (full && (trace == TraceSupply::Limited || hindered[m])))
        };
        trace(
            content,
            (&mut seen, std::mem::take(&mut stack)),
            reach,
            |m| friendly[m],
            open_edge,
        );
        for i in 0..n {
            if seen[i] {
                raise(&mut out[i], level);
            }
        }
    }
    from_markers(content, state, view, nation, &mut out, keep);
    out
}

/// Raises a space's level to `level`, never lowers it.
fn raise(at: &mut Level, level: Level) {
    if *at < level {
        *at = level;
    }
}

/// Whether a piece of `nation` in a space (by graph index) traces supply, at any level, to a
/// source (of the map, or a marker) whose space `keep` accepts.
pub fn traces_to(
    content: &Content,
    state: &State,
    view: &SideView,
    (nation, space): (&str, usize),
    keep: &mut dyn FnMut(usize) -> bool,
) -> bool {
    let reach = max_reach(content, state, nation, &view.side);
    lines(content, state, view, (nation, reach), keep)
        .get(space)
        .is_some_and(|&l| l != Level::Out)
}

/// How many connections a supply line of `nation` (commanded by `side`) may run: the number
/// of spaces, unless the `SupplyReach` hooks say less.
pub fn max_reach(content: &Content, state: &State, nation: &str, side: &str) -> u32 {
    let n = content.graph.spaces.len() as i64;
    reach_from(content, state, (nation, side), n, false)
}

/// A supply line's reach as the `SupplyReach` hooks change `base` (`attack`: a line of attack
/// supply), kept within the number of spaces.
pub fn reach_from(
    content: &Content,
    state: &State,
    (nation, side): (&str, &str),
    base: i64,
    attack: bool,
) -> u32 {
    let n = content.graph.spaces.len() as i64;
    let reach = super::hooks::modify(content, state, HookPoint::SupplyReach, side, base, || {
        vec![
            (
                crate::Id::of_static("nation"),
                crate::script::eval::Value::Id(crate::script::types::Kind::Nation, nation.into()),
            ),
            super::hooks::flag("attack", attack),
        ]
    });
    reach.clamp(0, n) as u32
}

/// The spaces within `reach` connections of any of `from` (graph indexes), whatever stands
/// between.
pub fn within(content: &Content, from: &[usize], reach: u32) -> Vec<bool> {
    let mut seen = vec![false; content.graph.spaces.len()];
    for &f in from {
        seen[f] = true;
    }
    trace(
        content,
        (&mut seen, from.to_vec()),
        reach,
        |_| true,
        |_, _| true,
    );
    seen
}

/// The toolkit's supply trace: from the spaces already `seen` and queued in `starts`, a
/// breadth-first search along the connections `open(edge, to)` allows, at most `reach`
/// connections long, passing on only from spaces that `passes`; marks every space reached.
pub fn trace(
    content: &Content,
    (seen, starts): (&mut [bool], Vec<usize>),
    reach: u32,
    passes: impl Fn(usize) -> bool,
    open: impl Fn(usize, usize) -> bool,
) {
    let g = &content.graph;
    if reach as usize >= g.spaces.len() {
        // No shortest line is as long as the map has spaces, so the reach never stops one:
        // the spaces reached are the same in any order, and a stack finds them.
        let mut stack = starts;
        while let Some(i) = stack.pop() {
            for &(m, e) in g.neighbours(i) {
                if seen[m] || !open(e, m) {
                    continue;
                }
                seen[m] = true;
                if passes(m) {
                    stack.push(m);
                }
            }
        }
        return;
    }
    let mut queue: std::collections::VecDeque<(usize, u32)> =
        starts.into_iter().map(|i| (i, 0)).collect();
    while let Some((i, d)) = queue.pop_front() {
        if d >= reach {
            continue;
        }
        for &(m, e) in g.neighbours(i) {
            if seen[m] || !open(e, m) {
                continue;
            }
            seen[m] = true;
            if passes(m) {
                queue.push_back((m, d + 1));
            }
        }
    }
}

/// Supply from markers that are sources (beach heads): a breadth-first search from each, through
/// the side's spaces, Full within the marker's range and Limited beyond.
/// How far each space lies from some starting spaces for a side's supply trace: through the
/// side's own spaces (the starts themselves pass it on), never across a blocked connection.
fn reach(content: &Content, view: &SideView, starts: impl Iterator<Item = usize>) -> Vec<u32> {
    let g = &content.graph;
    let index = content.supply_index();
    let mut dist = vec![u32::MAX; g.spaces.len()];
    let mut queue = std::collections::VecDeque::new();
    for i in starts {
        dist[i] = 0;
        queue.push_back(i);
    }
    while let Some(i) = queue.pop_front() {
        if dist[i] > 0 && !view.friendly[i] {
            continue;
        }
        for &(m, e) in g.neighbours(i) {
            if dist[m] != u32::MAX || index.edges[e] == TraceSupply::Blocked {
                continue;
            }
            dist[m] = dist[i] + 1;
            queue.push_back(m);
        }
    }
    dist
}

/// The markers that are supply sources of a side to which none of the side's units of the
/// source's nations can trace (a beach head no Allied unit uses, 6.C): (marker, space).
pub fn unused_marker_sources(
    content: &Content,
    state: &State,
    side: &str,
) -> Vec<(String, String)> {
    let Some(play) = content.game.as_ref().and_then(|g| g.play.as_ref()) else {
        return Vec::new();
    };
    let g = &content.graph;
    // The side's view, made (or found kept) only when a source marker lies on the map.
    let mut view: Option<std::rc::Rc<SideView>> = None;
    let mut out = Vec::new();
    let ours = |n: &crate::Id| nation_side(content, n) == side;
    // Sides compared as ids, by address, not as texts.
    let side_id = crate::Id::new(side);
    for source in play
        .marker_sources
        .iter()
        .filter(|s| s.nations.iter().any(ours))
    {
        for m in state.markers.iter().filter(|m| m.marker == source.marker) {
            let Some(start) = g.index_of(m.space) else {
                continue;
            };
            let view = view.get_or_insert_with(|| view_kept(content, state, side));
            let dist = reach(content, view, std::iter::once(start));
            let used = state.units.iter().any(|u| {
                u.side(content) == side_id
                    && content
                        .counter_of(u)
                        .is_some_and(|c| source.nations.contains(&c.nation))
                    && matches!(&u.at, crate::state::Loc::Space(s)
                        if g.index_of(s).is_some_and(|i| dist[i] != u32::MAX))
            });
            if !used {
                out.push((m.marker.to_string(), m.space.to_string()));
            }
        }
    }
    out
}

/// Whether some unit on the map would trace less supply without a marker (a beach head that is
/// some unit's only source may not be removed, 7.63).
pub fn marker_needed(content: &Content, state: &State, marker: &str, space: &str) -> bool {
    let mut without = state.clone();
    without
        .markers
        .retain(|m| !(m.marker == marker && m.space == space));
    let g = &content.graph;
    let mut seen: Vec<(String, String)> = Vec::new();
    for u in &state.units {
        if !matches!(u.at, crate::state::Loc::Space(_)) {
            continue;
        }
        let Some(c) = content.counter_of(u) else {
            continue;
        };
        let key = (c.nation.to_string(), u.side(content).to_string());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        let with = levels(content, state, &key.0, &key.1);
        let less = levels(content, &without, &key.0, &key.1);
        let hurt = state.units.iter().any(|v| {
            v.side(content) == key.1
                && content.counter_of(v).is_some_and(|c| c.nation == key.0)
                && matches!(&v.at, crate::state::Loc::Space(s)
                    if g.index_of(s).is_some_and(|i| less[i] < with[i]))
        });
        if hurt {
            return true;
        }
    }
    false
}

fn from_markers(
    content: &Content,
    state: &State,
    view: &SideView,
    nation: &str,
    out: &mut [Level],
    keep: &mut dyn FnMut(usize) -> bool,
) {
    let Some(play) = content.game.as_ref().and_then(|g| g.play.as_ref()) else {
        return;
    };
    let g = &content.graph;
    for source in play
        .marker_sources
        .iter()
        .filter(|m| m.nations.iter().any(|n| n == nation))
    {
        let starts = state
            .markers
            .iter()
            .filter(|m| m.marker == source.marker)
            .filter_map(|m| g.index_of(m.space))
            .filter(|&i| keep(i));
        let dist = reach(content, view, starts);
        for (i, d) in dist.iter().enumerate() {
            let level = match *d {
                u32::MAX => continue,
                d if d <= source.full_within && !view.hindered[i] => Level::Full,
                _ => Level::Limited,
            };
            if out[i] < level {
                out[i] = level;
            }
        }
    }
}

/// The supply level of one space for a piece of `nation` serving `side`.
pub fn level_at(content: &Content, state: &State, space: &str, nation: &str, side: &str) -> Level {
    match content.graph.index_of(space) {
        Some(i) => levels(content, state, nation, side)[i],
        None => Level::Out,
    }
}
