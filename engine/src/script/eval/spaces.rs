//! The `spaces` query: its filters worked out once for the whole map, then asked of the
//! spaces they leave (a space's neighbours, the spaces a set marks, or every space in id
//! order); sets of the map alone, or of control and the pieces by their stamps, kept. Split
//! from [`super::shared`].

use super::*;

impl Eval<'_> {
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
