//! The checked content of one game: the model as authored plus what the checker derived from
//! it (the map graph and id indexes).
//!
//! Invariant: a `Content` comes only from [`crate::load`]; when loading reported no error, every
//! reference in it resolves and the graph has no stray edge, so later stages may index without
//! checking again. With errors it is still as complete as the checker could make it (the editor
//! shows it), but rules must not run on it.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

mod memos;
pub mod names;
pub mod supply_index;

use crate::diag::FileId;
use crate::model::{Card, CardsFile, Counter, GameFile, MapFile, Pos, ScenarioFile, Space, Table};
use crate::schema::FileKind;

/// One file of the content folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContentFile {
    pub kind: FileKind,
    /// Path relative to the game folder, with `/` separators.
    pub relative: String,
    pub id: FileId,
}

/// A fast hash for the short ids the indexes look up, eight bytes at a time (they are never
/// iterated, so the hash cannot change the order of anything in play).
#[derive(Default)]
pub struct IdHash(u64);

impl IdHash {
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for IdHash {
    fn finish(&self) -> u64 {
        // The product's high bits folded into the low ones that pick the bucket.
        self.0 ^ (self.0 >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.mix(word_at(c, 0));
        }
        let rest = chunks.remainder();
        let n = rest.len();
        if n > 0 {
            // The last bytes read in fixed-size pieces (which may overlap), not copied one by
            // one: the length tells apart texts whose pieces agree.
            let word = match n {
                4.. => half_at(rest, 0) | half_at(rest, n - 4) << 32,
                _ => {
                    u64::from(rest[0]) | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1]) << 16
                }
            };
            self.mix(word ^ (n as u64) << 59);
        }
    }

    fn write_u8(&mut self, b: u8) {
        self.mix(u64::from(b) | 1 << 63);
    }
}

/// The eight bytes of `bytes` from `at`, as a little-endian number.
fn word_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

/// The four bytes of `bytes` from `at`, as a little-endian number.
fn half_at(bytes: &[u8], at: usize) -> u64 {
    let mut half = [0u8; 4];
    half.copy_from_slice(&bytes[at..at + 4]);
    u64::from(u32::from_le_bytes(half))
}

/// A hash of an address (an interned id's): one multiplication, folded.
#[derive(Default)]
pub struct AddrHash(u64);

impl Hasher for AddrHash {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_usize(&mut self, n: usize) {
        // Allocations are aligned: fold the product's high bits into the low ones that pick
        // the bucket.
        let x = (n as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = x ^ (x >> 29);
    }
}

/// A map from ids, for lookups only.
pub type IdMap<V> = HashMap<crate::id::Id, V, BuildHasherDefault<IdHash>>;

/// A worked example as loaded: its data, and the places of its id and of each step, so a run
/// that diverges is reported where the step is written.
#[derive(Debug, Clone)]
pub struct ExampleEntry {
    pub data: crate::model::ExampleFile,
    pub file: crate::diag::FileId,
    /// Where its values are in its file, worked out when a failure is to be placed.
    pub spans: crate::ron_syntax::SpanMap,
    /// The conditions of its `Holds` steps, parsed and checked, by step.
    pub conditions: std::collections::BTreeMap<usize, crate::script::syntax::Expr>,
}

impl ExampleEntry {
    /// Where the example is: its id.
    pub fn at(&self) -> crate::diag::Span {
        let (start, end) = self.spans.value("/id");
        crate::diag::Span::new(self.file, start, end)
    }

    /// Where its step `i` is (its id, for a step it does not have).
    pub fn step(&self, i: usize) -> crate::diag::Span {
        if i >= self.data.steps.len() {
            return self.at();
        }
        let (start, end) = self.spans.value(&format!("/steps/{i}"));
        crate::diag::Span::new(self.file, start, end)
    }
}

/// The play rules' conditions that can be remembered: pointer → (script number, reads).
type ConditionReads = std::collections::BTreeMap<String, (usize, crate::script::reads::Memo)>;

/// A game's content after loading and checking.
#[derive(Debug, Clone, Default)]
pub struct Content {
    pub game: Option<GameFile>,
    pub map: MapFile,
    pub counters: Vec<Counter>,
    pub tables: Vec<Table>,
    pub decks: Vec<CardsFile>,
    pub scenarios: Vec<ScenarioFile>,
    /// The rulebook's worked examples (`examples/*.ron`), with where each step is written.
    pub examples: Vec<ExampleEntry>,
    pub graph: MapGraph,
    pub files: Vec<ContentFile>,
    /// The cards' scripts, parsed (those that checked, and those that did not, as far as they
    /// could be read).
    pub scripts: crate::script::Scripts,
    /// The scripts of the sequence of play, parsed.
    pub sequence: crate::script::SequenceScripts,
    /// A fingerprint of the files it was loaded from (see [`crate::load`]).
    pub hash: String,
    /// For each scenario that sets rules of `game.ron` for itself, the content it is played
    /// on: the game with those rules, checked (see `scenario_rules.rs`).
    pub scenario_rules: std::collections::BTreeMap<String, std::sync::Arc<Content>>,
    /// Counter id to its index in `counters` (never iterated).
    pub(crate) counter_index: IdMap<usize>,
    /// The supply index, built on first use (content is not changed after loading).
    supply: std::sync::OnceLock<supply_index::SupplyIndex>,
    /// For each region of the game, whether each space (by graph index) lies in it; built on
    /// first use.
    regions: std::sync::OnceLock<IdMap<Vec<bool>>>,
    /// For each region of the game, whether each space's country is it or lies directly
    /// within it (what `spaces(country: ...)` selects); built on first use.
    countries: std::sync::OnceLock<IdMap<Vec<bool>>>,
    /// What moving across each edge costs, in half movement points, and whether a kind of it
    /// sets the whole cost (a road); then the extra cost of each space's terrain. Built on
    /// first use.
    move_costs: std::sync::OnceLock<MoveCosts>,
    /// What each hook's condition and number read, for the table of remembered results (see
    /// `rules::hook_memo`), built on first use: two entries per hook, by its place in
    /// `game.ron`'s `hooks`.
    hook_reads: std::sync::OnceLock<Vec<Option<crate::script::reads::Memo>>>,
    /// What each part of each hook's condition reads (see [`Content::hook_part_memos`]),
    /// built on first use.
    part_reads: std::sync::OnceLock<Vec<Vec<Option<crate::script::reads::Memo>>>>,
    /// The kinds of marker each hook's condition needs on the map (see
    /// [`Content::hook_needs`]), built on first use.
    hook_needs: std::sync::OnceLock<Vec<Vec<crate::Id>>>,
    /// How the play rules' conditions can be remembered, by their place (a JSON pointer), each
    /// with its number among the remembered scripts.
    condition_reads: std::sync::OnceLock<ConditionReads>,
    /// How the cards' `playable` conditions can be remembered, by card id, each with its
    /// number among the remembered scripts.
    card_reads: std::sync::OnceLock<ConditionReads>,
    /// For each hook point, what all its modifier hooks read, when each of their scripts can be
    /// remembered wholly (see `Content::point_memo`); built on first use.
    point_reads: std::sync::OnceLock<PointReads>,
    /// Each counter's id and side (its own, else its nation's: one of `game.ron`'s sides, or
    /// none), side by side so that a unit's side is read without the counter's record.
    counter_sides: std::sync::OnceLock<Vec<(crate::Id, Option<crate::Id>)>>,
    /// For each `operate_in` play rule, whether its nations, counters and sizes name each
    /// counter, and whether it allows each space (see `rules::stacking`).
    operate_binds: std::sync::OnceLock<OperateTable>,
    /// This content's own number, which the tables of remembered results go by.
    memo: MemoId,
    /// The names of its ids, for people (see [`names::Names`]); built on first use.
    names: std::sync::OnceLock<names::Names>,
    /// Each card's place in `decks` (deck, card) by its id, the first of an id; built on
    /// first use, and checked against the card's id when used.
    card_index: std::sync::OnceLock<HashMap<String, (usize, usize), BuildHasherDefault<IdHash>>>,
    /// The spaces' graph indexes in the order of their ids, and each space's place in it.
    space_order: std::sync::OnceLock<(Vec<usize>, Vec<u32>)>,
    /// The hook points at which some hook acts, a bit each; built on first use.
    hook_points: std::sync::OnceLock<u64>,
}

/// For each `operate_in` play rule (by index): whether it allows each space (by graph index);
/// for each counter (by index), the rules that name it.
#[derive(Debug, Clone, Default)]
pub(crate) struct OperateTable {
    pub naming: Vec<Vec<usize>>,
    pub allows: Vec<Vec<bool>>,
}

/// A number of its own for each content loaded, and for each copy of one.
#[derive(Debug)]
struct MemoId(u64);

impl Default for MemoId {
    fn default() -> Self {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        MemoId(NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed))
    }
}

impl Clone for MemoId {
    fn clone(&self) -> Self {
        MemoId::default()
    }
}

/// The hook points with what their hooks read together, each with its number among the
/// remembered scripts.
type PointReads = Vec<(
    crate::model::HookPoint,
    usize,
    Vec<crate::script::reads::Read>,
)>;

/// Each edge's movement cost in half points and whether it is the whole cost; each space's
/// terrain cost in half points.
type MoveCosts = (Vec<(u32, bool)>, Vec<u32>);

impl Content {
    /// This content's own number (see `rules::hook_memo`).
    pub(crate) fn memo_id(&self) -> u64 {
        self.memo.0
    }

    /// The side of the counter at index `i` (its own, else its nation's), if its id is
    /// `counter` and its side one of the game's sides.
    #[inline]
    pub(crate) fn counter_side(&self, i: usize, counter: crate::Id) -> Option<crate::Id> {
        match self.counter_sides().get(i) {
            Some(&(id, side)) if id == counter => side,
            _ => None,
        }
    }

    #[inline]
    fn counter_sides(&self) -> &[(crate::Id, Option<crate::Id>)] {
        self.counter_sides.get_or_init(|| {
            let sides = self.game.as_ref().map_or(&[][..], |g| g.sides.as_slice());
            self.counters
                .iter()
                .map(|c| {
                    let side = match &c.side {
                        Some(s) => s.as_str(),
                        None => supply_index::nation_side(self, &c.nation),
                    };
                    (c.id, sides.iter().find(|s| s.id == side).map(|s| s.id))
                })
                .collect()
        })
    }

    /// The spaces' graph indexes in the order of their ids (as a script's sets order them): a
    /// set of spaces gathered in this order is sorted already.
    pub(crate) fn spaces_by_id(&self) -> &[usize] {
        &self.space_order().0
    }

    /// Each space's place (by graph index) in [`Content::spaces_by_id`]: a few spaces sorted
    /// by it are in the order of their ids.
    pub(crate) fn space_ranks(&self) -> &[u32] {
        &self.space_order().1
    }

    fn space_order(&self) -> &(Vec<usize>, Vec<u32>) {
        self.space_order.get_or_init(|| {
            let spaces = &self.graph.spaces;
            let mut order: Vec<usize> = (0..spaces.len()).collect();
            order.sort_by(|&a, &b| spaces[a].id.cmp(&spaces[b].id));
            let mut ranks = vec![0u32; spaces.len()];
            for (rank, &i) in order.iter().enumerate() {
                ranks[i] = rank as u32;
            }
            (order, ranks)
        })
    }

    /// The table of which `operate_in` rules name which counters and allow which spaces,
    /// built by `build` on first use.
    pub(crate) fn operate_binds(&self, build: impl FnOnce() -> OperateTable) -> &OperateTable {
        self.operate_binds.get_or_init(build)
    }

    pub fn counter(&self, id: &str) -> Option<&Counter> {
        self.counter_index
            .get(id)
            .and_then(|&i| self.counters.get(i))
            .filter(|c| c.id == id)
            .or_else(|| self.counters.iter().find(|c| c.id == id))
    }

    /// What moving across an edge of the graph costs, in half movement points (see
    /// [`crate::model::move_cost_halves`]), whatever the terrain entered.
    pub fn edge_move_cost(&self, edge: usize) -> u32 {
        self.move_costs().0.get(edge).map_or(2, |c| c.0)
    }

    /// What moving across an edge into the space `to` (a graph index) costs, in half movement
    /// points: the connection's cost, plus the terrain's unless a kind of the connection sets
    /// the whole cost.
    pub fn enter_cost(&self, edge: usize, to: usize) -> u32 {
        let (cost, whole) = self.move_costs().0.get(edge).copied().unwrap_or((2, false));
        if whole {
            return cost;
        }
        cost + self.terrain_cost(to)
    }

    /// The half movement points more that entering a space (a graph index) costs for its
    /// terrain.
    pub fn terrain_cost(&self, space: usize) -> u32 {
        self.move_costs().1.get(space).copied().unwrap_or(0)
    }

    fn move_costs(&self) -> &MoveCosts {
        self.move_costs.get_or_init(|| {
            let Some(g) = self.game.as_ref() else {
                return (Vec::new(), Vec::new());
            };
            let edges = self
                .graph
                .edges
                .iter()
                .map(|e| crate::model::move_cost_parts(g, &e.kinds))
                .collect();
            let terrains = self
                .graph
                .spaces
                .iter()
                .map(|s| {
                    let t = s.terrain.as_ref();
                    let extra = t
                        .and_then(|t| g.terrains.iter().find(|x| x.id == *t))
                        .map_or(0.0, |t| t.move_cost);
                    (extra * 2.0).round().max(0.0) as u32
                })
                .collect();
            (edges, terrains)
        })
    }

    /// Whether any hook acts at a point (asked before nearly every question the rules put to
    /// the hooks), found in a mask made once instead of by walking the hooks.
    pub fn hooks_at(&self, at: crate::model::HookPoint) -> bool {
        let bit = |p: crate::model::HookPoint| 1u64.checked_shl(p as u32).unwrap_or(0);
        let mask = *self.hook_points.get_or_init(|| {
            let points = self.sequence.hooks.iter().map(|h| h.at);
            points.fold(0, |m, p| m | bit(p))
        });
        match bit(at) {
            // More points than the mask has bits: asked of the hooks themselves.
            0 => self.sequence.hooks.iter().any(|h| h.at == at),
            b => mask & b != 0,
        }
    }

    /// What the content says about supply, indexed.
    pub fn supply_index(&self) -> &supply_index::SupplyIndex {
        self.supply
            .get_or_init(|| supply_index::SupplyIndex::new(self))
    }

    /// For each region of the game, which spaces lie in it.
    pub fn region_index(&self) -> &IdMap<Vec<bool>> {
        self.regions.get_or_init(|| {
            // Each space marked in every region its country and its regions lie within, the
            // regions each lies within found once per region named.
            let regions = self.game.as_ref().map_or(&[][..], |g| g.regions.as_slice());
            let n = self.graph.spaces.len();
            let mut index: IdMap<Vec<bool>> = (regions.iter())
                .map(|r| (r.id.as_str().into(), vec![false; n]))
                .collect();
            let mut within: HashMap<&str, Vec<&str>> = HashMap::new();
            for (i, s) in self.graph.spaces.iter().enumerate() {
                for start in s.country.iter().chain(&s.regions) {
                    let lies_in = within
                        .entry(start.as_str())
                        .or_insert_with(|| crate::model::regions_within(regions, start));
                    for r in lies_in.iter() {
                        if let Some(members) = index.get_mut(*r) {
                            members[i] = true;
                        }
                    }
                }
            }
            index
        })
    }

    /// For each region of the game, which spaces have it as their country or have a country
    /// that lies directly within it (`spaces(country: r)`).
    pub fn country_index(&self) -> &IdMap<Vec<bool>> {
        self.countries.get_or_init(|| {
            let regions = self.game.as_ref().map_or(&[][..], |g| g.regions.as_slice());
            self.by_region(|i, r| {
                let country = self.graph.spaces[i].country.as_deref();
                country == Some(r)
                    || country.is_some_and(|c| {
                        regions
                            .iter()
                            .find(|x| x.id == c)
                            .is_some_and(|x| x.within.iter().any(|w| w == r))
                    })
            })
        })
    }

    /// For each region of the game, whether `member` holds of each space (by graph index).
    fn by_region(&self, member: impl Fn(usize, &str) -> bool) -> IdMap<Vec<bool>> {
        let regions = self.game.as_ref().map_or(&[][..], |g| g.regions.as_slice());
        regions
            .iter()
            .map(|r| {
                let members = (0..self.graph.spaces.len())
                    .map(|i| member(i, &r.id))
                    .collect();
                (r.id.as_str().into(), members)
            })
            .collect()
    }

    /// Indexes the counters by id (after `counters` is set).
    pub(crate) fn index_counters(&mut self) {
        self.counter_index = self
            .counters
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id, i))
            .collect();
    }

    pub fn table(&self, id: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.id == id)
    }

    pub fn scenario(&self, id: &str) -> Option<&ScenarioFile> {
        self.scenarios.iter().find(|s| s.id == id)
    }

    /// Every card of every deck, in file order.
    pub fn cards(&self) -> impl Iterator<Item = (&str, &Card)> {
        self.decks
            .iter()
            .flat_map(|d| d.cards.iter().map(move |c| (d.deck.as_str(), c)))
    }

    /// The card with an id, and its deck: the first of [`Content::cards`] with it.
    pub fn card(&self, id: &str) -> Option<(&str, &Card)> {
        let index = self.card_index.get_or_init(|| {
            let mut index = HashMap::default();
            for (d, file) in self.decks.iter().enumerate() {
                for (c, card) in file.cards.iter().enumerate() {
                    index.entry(card.id.clone()).or_insert((d, c));
                }
            }
            index
        });
        let indexed = index.get(id).and_then(|&(d, c)| {
            let file = self.decks.get(d)?;
            Some((
                file.deck.as_str(),
                file.cards.get(c).filter(|x| x.id == id)?,
            ))
        });
        // A content whose decks changed after the index was made finds its cards by looking.
        indexed.or_else(|| self.cards().find(|(_, c)| c.id == id))
    }
}

/// The map as one graph, whichever way it was authored.
#[derive(Debug, Clone, Default)]
pub struct MapGraph {
    /// Every space, area, zone and hex, with defaults filled in (a hex's terrain and position).
    pub spaces: Vec<Space>,
    pub edges: Vec<Edge>,
    /// Space id to index (a hash map: looked up on every move and supply trace, never
    /// iterated, so its order cannot leak into play).
    index: IdMap<usize>,
    /// The same, by the address of the interned id (see [`MapGraph::index_at`]).
    by_addr: HashMap<usize, usize, BuildHasherDefault<AddrHash>>,
    /// For each space, its neighbours and the edge that joins them.
    neighbours: Vec<Vec<(usize, usize)>>,
    /// The room made for each new space's neighbours ([`MapGraph::reserve`]).
    room: usize,
}

/// What a space is looked up by: its id as text, or interned.
pub trait SpaceKey {
    fn index_in(self, g: &MapGraph) -> Option<usize>;
}

impl SpaceKey for &str {
    /// By the address of the text when it is a space's id's own (as the rules nearly always
    /// ask: an id read as text), else by the text.
    #[inline(always)]
    fn index_in(self, g: &MapGraph) -> Option<usize> {
        let own = g.by_addr.get(&(self.as_ptr() as usize)).copied();
        // Kept texts are never freed: the same address and length is the same text.
        own.filter(|&i| g.spaces.get(i).is_some_and(|s| s.id.len() == self.len()))
            .or_else(|| g.index.get(self).copied())
    }
}

impl SpaceKey for &&str {
    fn index_in(self, g: &MapGraph) -> Option<usize> {
        (*self).index_in(g)
    }
}

impl SpaceKey for &String {
    fn index_in(self, g: &MapGraph) -> Option<usize> {
        g.index.get(self.as_str()).copied()
    }
}

impl SpaceKey for crate::Id {
    fn index_in(self, g: &MapGraph) -> Option<usize> {
        g.by_addr.get(&self.addr()).copied()
    }
}

impl SpaceKey for &crate::Id {
    fn index_in(self, g: &MapGraph) -> Option<usize> {
        (*self).index_in(g)
    }
}

/// An edge of the map graph, with its kinds (never empty: the default kind is filled in).
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub a: usize,
    pub b: usize,
    pub kinds: Vec<String>,
}

impl MapGraph {
    /// Room for `spaces` more spaces, each with `neighbours` neighbours, so that building a
    /// large map does not copy what it built so far as it grows.
    pub(crate) fn reserve(&mut self, spaces: usize, neighbours: usize) {
        self.spaces.reserve(spaces);
        self.neighbours.reserve(spaces);
        self.edges.reserve(spaces * neighbours / 2);
        self.index.reserve(spaces);
        self.by_addr.reserve(spaces);
        self.room = neighbours;
    }

    pub(crate) fn add_space(&mut self, space: Space) -> Option<usize> {
        if self.index.contains_key(&space.id) {
            return None;
        }
        let i = self.spaces.len();
        self.index.insert(space.id, i);
        self.by_addr.insert(space.id.addr(), i);
        self.spaces.push(space);
        self.neighbours.push(Vec::with_capacity(self.room));
        Some(i)
    }

    pub(crate) fn add_edge(&mut self, a: usize, b: usize, kinds: Vec<String>) -> usize {
        let e = self.edges.len();
        self.edges.push(Edge { a, b, kinds });
        self.neighbours[a].push((b, e));
        self.neighbours[b].push((a, e));
        e
    }

    /// The edge between two spaces, if any.
    pub fn edge_between(&self, a: usize, b: usize) -> Option<usize> {
        self.neighbours
            .get(a)?
            .iter()
            .find(|&&(n, _)| n == b)
            .map(|&(_, e)| e)
    }

    /// The index of a space by its id: an interned [`crate::Id`] is found by its address,
    /// a text by its hash.
    pub fn index_of(&self, id: impl SpaceKey) -> Option<usize> {
        id.index_in(self)
    }

    pub fn space(&self, id: impl SpaceKey) -> Option<&Space> {
        self.index_of(id).map(|i| &self.spaces[i])
    }

    /// Neighbours of a space with the joining edge, in the order the edges were authored.
    pub fn neighbours(&self, space: usize) -> &[(usize, usize)] {
        self.neighbours.get(space).map_or(&[], Vec::as_slice)
    }

    /// Ids of the neighbours of a space, sorted.
    pub fn neighbour_ids(&self, id: &str) -> Vec<&str> {
        let mut ids: Vec<&str> = self
            .index_of(id)
            .map(|i| {
                self.neighbours(i)
                    .iter()
                    .map(|&(n, _)| self.spaces[n].id.as_str())
                    .collect()
            })
            .unwrap_or_default();
        ids.sort_unstable();
        ids
    }

    /// The drawing position of a space (origin when it has none).
    pub fn pos(&self, space: usize) -> Pos {
        self.spaces[space].pos.unwrap_or_default()
    }
}

/// Whether a space lies in a region (its country, its further regions, or regions those lie in).
pub fn space_in_region(content: &Content, space: &str, region: &str) -> bool {
    let Some(i) = content.graph.index_of(space) else {
        return false;
    };
    space_at_in_region(content, i, region)
}

/// Whether the space at a graph index lies in `region`, for a caller asking it of many spaces:
/// the region's members found once (a region the index does not hold is walked each time).
pub fn in_region<'c>(content: &'c Content, region: &'c str) -> impl Fn(usize) -> bool + 'c {
    let members = content.region_index().get(region);
    move |space| match members {
        Some(members) => members[space],
        None => space_index_in_region(content, space, region),
    }
}

/// [`space_in_region`] for the space at a graph index.
pub fn space_at_in_region(content: &Content, space: usize, region: &str) -> bool {
    in_region(content, region)(space)
}

/// Whether the space at a graph index lies in a region, found by walking the region tree.
pub(crate) fn space_index_in_region(content: &Content, space: usize, region: &str) -> bool {
    content
        .game
        .as_ref()
        .is_some_and(|g| crate::model::space_lies_in(g, &content.graph.spaces[space], region))
}

#[cfg(test)]
mod tests {
    use super::IdHash;
    use std::hash::{Hash, Hasher};

    fn hash(text: &str) -> u64 {
        let mut h = IdHash::default();
        text.hash(&mut h);
        h.finish()
    }

    #[test]
    fn the_ids_hash_tells_apart_texts_that_differ_in_a_byte_or_in_length() {
        let mut seen = std::collections::HashSet::new();
        let letters = "abcdefghijklmnopqrstuvwxyz_";
        for a in letters.chars() {
            for b in letters.chars() {
                for stem in ["", "soviet_union_", "beach_"] {
                    assert!(seen.insert(hash(&format!("{stem}{a}{b}"))));
                }
            }
        }
        assert_ne!(hash("ab"), hash("ab\0"));
        assert_ne!(hash("abcdefgh"), hash("abcdefgh\0"));
        assert_eq!(hash("moscow"), hash(&String::from("moscow")));
    }
}
