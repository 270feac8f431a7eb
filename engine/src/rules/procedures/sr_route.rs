//! The route of a strategic redeployment: through the side's own spaces along the SR
//! connections (a sea connection ends it; large units never cross one), as the `MayRedeploy`
//! hooks allow; and, under a play rule `sr_neutrals`, on into neutral spaces, each of which the
//! route then takes for the side.

use std::collections::{BTreeMap, VecDeque};

use super::*;
use crate::rules::hooks;
use crate::rules::stacking::may_enter_among;
use crate::script::eval::Value;
use crate::script::types::Kind;

/// Where a unit's SR may reach from its space.
pub(super) struct Reach {
    /// The space it starts from (graph index).
    pub start: usize,
    /// The side's spaces the route reaches.
    pub seen: Vec<bool>,
    /// The neutral spaces it reaches under `sr_neutrals`, each with the space it comes from
    /// (the route crossing the fewest neutral spaces, first in the map's order).
    pub neutral: BTreeMap<usize, usize>,
    /// The neutral spaces it reaches by land and may go on from, each with the space its land
    /// route comes from (a route reaching one across a sea line stops there).
    through: BTreeMap<usize, usize>,
}

/// The routes of unit `unit`'s SR from space `at`; none when it may not leave. With a space
/// `until` (a graph index), the search stops once its route reaches that space through the
/// side's own: the rest is then not worked out, nor the neutral spaces.
pub(super) fn reach(
    rules: &Rules,
    state: &State,
    unit: usize,
    (at, until): (&str, Option<usize>),
) -> Option<Reach> {
    let g = &rules.content.graph;
    let u = &state.units[unit];
    let side = rules.side(u);
    let large = rules.is_large(u);
    let start = g.index_of(at)?;
    let holders = state.control.by_index(rules.content);
    // The side's spaces free of enemy pieces: its view of the map for supply, kept from the
    // prompt before (the unit's choice) while no piece moved.
    let view = supply::view_kept(rules.content, state, &side);
    // Which spaces a route may enter, kept from the route before while the view, control,
    // markers and flags are the same.
    let mut spaces = Spaces::kept(rules, state, &side, &view);
    let blocked = |spaces: &Spaces, i: usize| spaces.blocked[i];
    if blocked(&spaces, start) {
        return None;
    }
    // The game's `MayRedeploy` hooks, asked of each connection a route may cross, in one
    // context whose `from` and `to` change; those that cannot apply to this unit on any
    // connection (`u.nation == yu and ...`) are left out once, here.
    let hooked = hooks::any_at(rules.content, HookPoint::MayRedeploy);
    let mut asked = hooked.then(|| {
        let names = vec![
            hooks::unit("u", unit),
            hooks::space("origin", at),
            hooks::space("from", at),
            hooks::space("to", at),
        ];
        let ctx = hooks::context_for(rules.content, &side, names);
        let varying = [crate::Id::new("from"), crate::Id::new("to")];
        let still =
            hooks::still_asked(rules.content, state, HookPoint::MayRedeploy, &ctx, &varying);
        // A connection crossed one way or the other: its verdicts kept by step.
        let steps = g.edges.len() * 2;
        // The parts that read `origin` are asked of each route; the verdicts of the rest
        // are kept for the routes from every space.
        let routed = [crate::Id::new("origin")];
        let verdicts = hooks::StepVerdicts::new(
            rules.content,
            state,
            still,
            &ctx,
            (&varying, steps),
            Some(&routed),
        );
        (ctx, verdicts)
    });
    let mut may_cross = |i: usize, n: usize, e: usize| {
        let Some((ctx, verdicts)) = asked.as_mut() else {
            return true;
        };
        if verdicts.is_empty() {
            return true;
        }
        // Named only when a hook's part is asked, not when every result is kept.
        let name = |ctx: &mut Context| {
            ctx.names[2].1 = Value::Id(Kind::Space, g.spaces[i].id);
            ctx.names[3].1 = Value::Id(Kind::Space, g.spaces[n].id);
        };
        verdicts.may(
            rules.content,
            state,
            (ctx, name),
            hooks::step_number(e, i, n),
        )
    };
    // A connection's kinds: whether SR may use it at all, and whether it is a sea crossing
    // (which ends the route, and which large units may not take).
    let classes = edge_classes(rules);
    let crossing = |e: usize| -> Option<bool> {
        match classes.get(e).copied().unwrap_or(Crossing::No) {
            Crossing::No => None,
            Crossing::Land => Some(false),
            Crossing::Sea => (!large).then_some(true),
        }
    };
    let mut seen = vec![false; g.spaces.len()];
    seen[start] = true;
    // The spaces the route reaches by land, which it may go on from: a space reached first
    // across a sea line (where a unit must stop) is gone on from once a land route reaches it.
    let mut landed = vec![false; g.spaces.len()];
    landed[start] = true;
    // Whether a route may enter each space, whichever way it comes (0 not yet asked, 1 yes,
    // 2 no): asked once of each space, however many of its neighbours the route reaches.
    let mut may_enter_space = |n: usize| {
        if spaces.open[n] == 0 {
            let open = view.friendly(n)
                && may_enter_among(rules, state, &side, (n, &holders))
                && !spaces.blocked[n];
            spaces.open[n] = if open { 1 } else { 2 };
        }
        spaces.open[n] == 1
    };
    // Room for a route over much of a side's map from the start.
    let mut expanded = Vec::with_capacity(128);
    expanded.push(start);
    let mut stack = Vec::with_capacity(64);
    stack.push(start);
    while let Some(i) = stack.pop() {
        for &(n, e) in g.neighbours(i) {
            // Most neighbours were reached by land already: passed over first.
            if landed[n] {
                continue;
            }
            let Some(sea) = crossing(e).filter(|&sea| !(sea && seen[n])) else {
                continue;
            };
            if !may_enter_space(n) || !may_cross(i, n, e) {
                continue;
            }
            seen[n] = true;
            if until == Some(n) {
                return Some(Reach {
                    start,
                    seen,
                    neutral: BTreeMap::new(),
                    through: BTreeMap::new(),
                });
            }
            if !sea {
                landed[n] = true;
                stack.push(n);
                expanded.push(n);
            }
        }
    }
    // On into neutral spaces, level by level from the spaces the route may go on from.
    let (mut neutral, mut through) = (BTreeMap::new(), BTreeMap::new());
    let open: Vec<usize> = open_rules(rules, state, &side).collect();
    if !open.is_empty() {
        expanded.sort_unstable();
        let mut queue: VecDeque<usize> = expanded.into_iter().collect();
        while let Some(i) = queue.pop_front() {
            for &(n, e) in g.neighbours(i) {
                let id = &g.spaces[n].id;
                let Some(sea) = crossing(e) else {
                    continue;
                };
                if n == start
                    || through.contains_key(&n)
                    || sea && neutral.contains_key(&n)
                    || holders[n].is_some()
                    || enemy_in(rules, state, id, side)
                    || !may_enter_among(rules, state, &side, (n, &holders))
                    || blocked(&spaces, n)
                    || !open
                        .iter()
                        .any(|&r| may_go(rules, state, (&side, r), (i, n)))
                    || !may_cross(i, n, e)
                {
                    continue;
                }
                neutral.entry(n).or_insert(i);
                if !sea {
                    through.insert(n, i);
                    queue.push_back(n);
                }
            }
        }
    }
    Some(Reach {
        start,
        seen,
        neutral,
        through,
    })
}

/// What a side's routes may enter, by space: kept per thread for the next route (the next
/// unit's SR) while what it reads is the same, so a route asks only the spaces no route
/// before it reached. Put back in the thread's keeping when dropped.
struct Spaces {
    key: SpacesKey,
    /// Whether a route may enter each space, whichever way it comes: 0 not yet asked, 1 yes,
    /// 2 no (the side's free of enemy pieces, open to it, not blocked).
    open: Vec<u8>,
    /// The spaces whose markers block the side's SR.
    blocked: Vec<bool>,
    /// Whether it goes back in the thread's keeping (not while [`supply::without_kept`]).
    keep: bool,
}

/// What [`Spaces`] reads: the content and scenario, the side, its view of the map (the
/// spaces free of enemy pieces, by the view's stamp), the control of the map, the markers and
/// the flags (neutral spaces open under a flag), by their stamps.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SpacesKey {
    view: u64,
    control: u64,
    markers: u64,
    flags: u64,
    side: crate::Id,
    content: u64,
    scenario: usize,
}

/// How many [`Spaces`] a thread keeps: a side's, and the other side's.
const KEPT_SPACES: usize = 4;

/// [`Spaces`] in the thread's keeping: its parts, without the guard that puts them back.
type KeptSpaces = (SpacesKey, Vec<u8>, Vec<bool>);

thread_local! {
    static SPACES: std::cell::RefCell<Vec<KeptSpaces>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

impl Spaces {
    /// The side's spaces as the last route that read the same left them, or asked anew.
    fn kept(rules: &Rules, state: &State, side: &str, view: &supply::SideView) -> Spaces {
        let key = SpacesKey {
            view: view.stamp(),
            control: state.control.stamp(),
            markers: state.markers.stamp(),
            flags: state.flags.stamp(),
            side: crate::Id::new(side),
            content: rules.content.memo_id(),
            scenario: std::ptr::from_ref(rules.scenario) as usize,
        };
        let keep = !supply::kept_off();
        let found = SPACES.with(|k| {
            let mut k = k.borrow_mut();
            if !keep {
                return None;
            }
            let i = k.iter().position(|s| s.0 == key)?;
            let (_, open, blocked) = k.swap_remove(i);
            Some(Spaces {
                key,
                open,
                blocked,
                keep,
            })
        });
        found.unwrap_or_else(|| {
            let g = &rules.content.graph;
            let mut blocked = vec![false; g.spaces.len()];
            for h in rules.play.hindering_markers.iter() {
                if h.blocks_sr && h.side == side {
                    // The marker's id, compared by address with each marker on the map.
                    let marker = crate::Id::new(&h.marker);
                    for m in state.markers.iter().filter(|m| m.marker == marker) {
                        if let Some(i) = g.index_of(m.space) {
                            blocked[i] = true;
                        }
                    }
                }
            }
            Spaces {
                key,
                open: vec![0; g.spaces.len()],
                blocked,
                keep,
            }
        })
    }
}

impl Drop for Spaces {
    fn drop(&mut self) {
        if !self.keep {
            return;
        }
        let spaces = (
            self.key,
            std::mem::take(&mut self.open),
            std::mem::take(&mut self.blocked),
        );
        // Not kept when the thread is ending.
        let _ = SPACES.try_with(|k| {
            let mut k = k.borrow_mut();
            if k.len() >= KEPT_SPACES {
                k.remove(0);
            }
            k.push(spaces);
        });
    }
}

/// What an SR may make of a connection, by its kinds.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Crossing {
    /// A kind SR may not use.
    No,
    Land,
    /// A sea crossing: it ends the route, and a large unit may not take it.
    Sea,
}

/// Each connection's [`Crossing`] (by edge index), worked out once per content and thread.
fn edge_classes(rules: &Rules) -> std::rc::Rc<Vec<Crossing>> {
    type Kept = std::cell::RefCell<(u64, std::rc::Rc<Vec<Crossing>>)>;
    thread_local! {
        static KEPT: Kept = std::cell::RefCell::new((u64::MAX, Default::default()));
    }
    let content = rules.content;
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        if kept.0 != content.memo_id() {
            let play = &rules.play;
            let class = |kinds: &[String]| {
                if !kinds.iter().all(|k| play.sr_kinds.contains(k)) {
                    Crossing::No
                } else if kinds.iter().any(|k| play.sea_kinds.contains(k)) {
                    Crossing::Sea
                } else {
                    Crossing::Land
                }
            };
            let classes = content.graph.edges.iter().map(|e| class(&e.kinds));
            *kept = (content.memo_id(), std::rc::Rc::new(classes.collect()));
        }
        std::rc::Rc::clone(&kept.1)
    })
}

/// The `sr_neutrals` rules of a side in force now (their flags set), by index.
fn open_rules<'a>(
    rules: &'a Rules,
    state: &'a State,
    side: &'a str,
) -> impl Iterator<Item = usize> + 'a {
    rules
        .play
        .sr_neutrals
        .iter()
        .enumerate()
        .filter(move |(_, r)| {
            r.sides.iter().any(|s| s == side)
                && r.flag
                    .as_ref()
                    .is_none_or(|f| state.flags.contains(f.as_str()))
        })
        .map(|(i, _)| i)
}

/// Whether rule `r` lets a route cross from space `from` into the neutral space `to`.
fn may_go(
    rules: &Rules,
    state: &State,
    (side, r): (&str, usize),
    (from, to): (usize, usize),
) -> bool {
    let g = &rules.content.graph;
    let at = format!("/play/sr_neutrals/{r}/enter");
    let ctx = hooks::context_for(
        rules.content,
        side,
        vec![
            hooks::space("from", g.spaces[from].id),
            hooks::space("to", g.spaces[to].id),
        ],
    );
    rules.condition(state, &at, &ctx) == Some(true)
}

/// Whether a side's SR may end in the neutral space `space`.
pub(super) fn may_end(rules: &Rules, state: &State, side: &str, space: &str) -> bool {
    open_rules(rules, state, side).any(|r| {
        let at = format!("/play/sr_neutrals/{r}/end");
        let ctx = Context {
            space: Some(space.into()),
            ..side_context(rules, side)
        };
        rules.condition(state, &at, &ctx) == Some(true)
    })
}

/// The neutral spaces a route to the neutral space `to` crosses before it, nearest first:
/// they become the side's as the unit passes. The route goes on from each of them by land.
pub(super) fn crossed(reach: &Reach, to: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut at = reach.neutral.get(&to).copied();
    while let Some(i) = at {
        if !reach.neutral.contains_key(&i) {
            break;
        }
        out.push(i);
        at = reach.through.get(&i).copied();
    }
    out.reverse();
    out
}
