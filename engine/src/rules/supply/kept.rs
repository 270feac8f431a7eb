//! Supply levels kept from one question to the next. A trace ([`super::levels_seen`]) is a
//! function of what it reads: the side's view of the map (the spaces it holds free of enemy
//! pieces, the spaces whose markers hinder it), the spaces it controls (its sources must be),
//! the markers on the map (marker sources, destroyed forts), the flags that open or shut
//! sources and rules (`SupplyIndex::traced_flags`: no other flag changes a level) and the
//! nation's reach (the `SupplyReach` hooks' answer). A question whose reads are those of an
//! earlier one takes the earlier one's levels. Play asks for supply at nearly every prompt,
//! and most actions change none of what it reads: a unit moving within its side's spaces, a
//! card played, a unit activated, a flag of another rule set.
//!
//! The levels are kept per thread, the last [`MOST`] traces, each with everything it read in
//! full (no hash stands for a key), and belong to one loaded content. The last few questions
//! answered are also kept by the stamps of what they read (the view's, the markers', the
//! flags'): a question asked again of the same view, markers and flags (the next prompt after
//! a card played, a space activated, a unit moved within its side's spaces) is answered by
//! comparing a few numbers, not everything read.
//!
//! **Invariant:** the levels kept for a key are the ones a trace gives for it, so play is the
//! same with or without them (`examples/determinism.rs` checks every state of the recorded
//! games).

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::{levels_seen, levels_seen_reaching, max_reach, Level, SideView};
use crate::content::Content;
use crate::state::State;
use crate::Id;

/// How many traces a thread keeps: a prompt asks for a few nations of each side.
const MOST: usize = 64;

/// Everything a trace reads of the state, with the content it belongs to.
struct Key {
    content: u64,
    nation: Id,
    side: Id,
    reach: u32,
    /// The view's spaces (friendly, hindered, controlled) as bits.
    view: Vec<u64>,
    markers: Vec<(Id, Id)>,
    flags: Vec<Id>,
}

/// Whether a trace reads where markers of a kind lie: a marker that is a source, or that marks
/// a fort destroyed (a marker that hinders supply is read through the view).
pub(super) fn read_by_traces(content: &Content, marker: Id) -> bool {
    content.supply_index().traced_markers.contains(&marker)
}

/// Everything a side's view ([`SideView::new`]) reads of the state: where each piece is, its
/// counter and whom it serves (its side), by the stamp of the pieces; the control of the map,
/// by its table's stamp; and the markers that hinder the side's supply (the same while the
/// markers keep their stamp).
struct ViewReads {
    content: u64,
    side: Id,
    control: u64,
    units: u64,
    markers: u64,
    hindering: Vec<(Id, Id)>,
}

/// How many pieces may have changed for a view to be made from an earlier one: their spaces,
/// where they stood and where they stand, are looked at again (the pieces' journal,
/// [`crate::state::Units::changed_since`], names them; a piece counts whatever changed in it).
const MOST_CHANGED: usize = 32;

/// The levels of every space (by graph index), shared.
type Levels = Rc<[Level]>;

/// How many views a thread keeps: a prompt asks for its side's, a script sometimes the other.
const VIEWS: usize = 4;

/// How many questions a thread keeps by their stamps: a side's few nations, and the other
/// side's.
const BY_STAMPS: usize = 16;

/// A question answered, by what it read: the nation, its side and reach, and the stamps of the
/// view ([`SideView`]'s), the markers and the flags. Two questions with the same stamps read
/// the same, since every change takes a fresh stamp.
///
/// Compared field by field in the order written: the view's stamp first, which tells most
/// kept questions apart at once.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamps {
    view: u64,
    nation: Id,
    markers: u64,
    flags: u64,
    reach: u32,
    side: Id,
    content: u64,
}

thread_local! {
    static KEPT: RefCell<VecDeque<(u64, Key, Levels)>> = const { RefCell::new(VecDeque::new()) };
    static KEPT_VIEWS: RefCell<VecDeque<(ViewReads, Rc<SideView>)>> =
        const { RefCell::new(VecDeque::new()) };
    static BY: RefCell<VecDeque<(Stamps, Levels)>> = const { RefCell::new(VecDeque::new()) };
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every supply question traced anew, none kept, and every SR route's spaces
/// asked anew: to show that keeping them changes nothing in play.
pub fn without_kept<R>(f: impl FnOnce() -> R) -> R {
    crate::rules::hook_memo::switched_on(&OFF, f)
}

/// Whether what is kept from one question to the next is switched off ([`without_kept`]):
/// the SR routes' spaces (`procedures::sr_route`) follow it too.
pub(crate) fn kept_off() -> bool {
    OFF.with(std::cell::Cell::get)
}

/// [`levels_seen`] on a side's whole view (as [`SideView::new`] makes it), from the levels
/// kept when an earlier trace read the same; a view with spaces closed is traced each time.
pub fn levels_kept(content: &Content, state: &State, view: &SideView, nation: &str) -> Rc<[Level]> {
    let reach = max_reach(content, state, nation, &view.side);
    levels_kept_reaching(content, state, view, nation, reach)
}

/// [`levels_kept`] for a nation whose reach ([`max_reach`]) is known.
pub fn levels_kept_reaching(
    content: &Content,
    state: &State,
    view: &SideView,
    nation: &str,
    reach: u32,
) -> Rc<[Level]> {
    if view.closed || OFF.with(std::cell::Cell::get) {
        return levels_seen(content, state, view, nation).into();
    }
    let (nation, side) = (Id::new(nation), view.side);
    let stamps = Stamps {
        content: content.memo_id(),
        nation,
        side,
        reach,
        view: view.stamp,
        markers: state.markers.stamp(),
        flags: state.flags.stamp(),
    };
    let found = BY.with(|k| {
        (k.borrow().iter().rev())
            .find(|(s, _)| *s == stamps)
            .map(|(_, levels)| Rc::clone(levels))
    });
    if let Some(levels) = found {
        return levels;
    }
    let levels = levels_by_reads(content, state, view, (nation, reach));
    keep(&BY, BY_STAMPS, (stamps, Rc::clone(&levels)));
    levels
}

/// [`levels_kept_reaching`] of a question not found by its stamps: found by what it read, or
/// traced.
fn levels_by_reads(
    content: &Content,
    state: &State,
    view: &SideView,
    (nation, reach): (Id, u32),
) -> Levels {
    let side = view.side;
    let markers = || {
        state
            .markers
            .iter()
            .filter(|m| read_by_traces(content, m.marker))
            .map(|m| (m.marker, m.space))
    };
    // Of the flags, only those a trace reads: a flag set or cleared for another rule leaves
    // the levels as they were.
    let traced = &content.supply_index().traced_flags;
    let reads = Reads {
        content: content.memo_id(),
        nation,
        side,
        reach,
        view: &view.bits,
        flags: (traced.iter().copied())
            .filter(|f| state.flags.contains(f))
            .collect(),
    };
    let print = reads.print(markers());
    // The newest first: a question most often reads as one asked a little before it.
    let found = KEPT.with(|k| {
        k.borrow()
            .iter()
            .rev()
            .find(|(p, x, _)| *p == print && reads.is(x, markers()))
            .map(|(_, _, levels)| Rc::clone(levels))
    });
    if let Some(levels) = found {
        return levels;
    }
    let levels: Rc<[Level]> =
        levels_seen_reaching(content, state, view, (nation.as_str(), reach)).into();
    let key = Key {
        content: reads.content,
        nation,
        side,
        reach,
        view: view.bits.clone(),
        markers: markers().collect(),
        flags: reads.flags.to_vec(),
    };
    keep(&KEPT, MOST, (print, key, Rc::clone(&levels)));
    levels
}

/// Keeps `item` newest in a thread's list of at most `most`, the oldest let go.
fn keep<T: 'static>(
    list: &'static std::thread::LocalKey<RefCell<VecDeque<T>>>,
    most: usize,
    item: T,
) {
    list.with(|k| {
        let mut k = k.borrow_mut();
        if k.len() >= most {
            k.pop_front();
        }
        k.push_back(item);
    });
}

/// What a trace reads, borrowed from the state: a [`Key`] to look for without making one.
struct Reads<'v> {
    content: u64,
    nation: Id,
    side: Id,
    reach: u32,
    view: &'v [u64],
    /// The flags set that a trace reads, in the order of the content's list of them.
    flags: smallvec::SmallVec<[Id; 8]>,
}

impl Reads<'_> {
    /// A number that two keys with the same reads share, to pass over most kept traces
    /// without comparing their reads in full.
    fn print(&self, markers: impl Iterator<Item = (Id, Id)>) -> u64 {
        let mix = |h: u64, word: u64| (h.rotate_left(5) ^ word).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let words = [
            self.content,
            self.nation.addr() as u64,
            self.side.addr() as u64,
            u64::from(self.reach),
        ];
        let mut h = words.iter().chain(self.view).fold(0, |h, &w| mix(h, w));
        for (marker, space) in markers {
            h = mix(mix(h, marker.addr() as u64), space.addr() as u64);
        }
        self.flags
            .iter()
            .fold(h, |h, flag| mix(h, flag.addr() as u64))
    }

    /// Whether a kept key read the same, with these markers.
    fn is(&self, key: &Key, markers: impl Iterator<Item = (Id, Id)>) -> bool {
        key.content == self.content
            && key.nation == self.nation
            && key.side == self.side
            && key.reach == self.reach
            && key.view == self.view
            && key.markers.iter().copied().eq(markers)
            && key.flags.iter().eq(self.flags.iter())
    }
}

/// A side's whole view of the map ([`SideView::new`]), the one built before when the state
/// reads the same for it (a prompt after an action that moved no piece and took no space).
pub fn view_kept(content: &Content, state: &State, side: &str) -> Rc<SideView> {
    if OFF.with(std::cell::Cell::get) {
        return Rc::new(SideView::new(content, state, side));
    }
    let (of, side_id) = (content.memo_id(), Id::new(side));
    // The hindering markers, compared where they lie in the state (a view kept is found
    // without making their list).
    let hindering_now = || super::hindering(content, state, side).map(|m| (m.marker, m.space));
    let same = |r: &ViewReads| {
        r.content == of
            && r.side == side_id
            && r.control == state.control.stamp()
            && r.units == state.units.stamp()
            && (r.markers == state.markers.stamp()
                || r.hindering.iter().copied().eq(hindering_now()))
    };
    let found = KEPT_VIEWS.with(|k| {
        k.borrow()
            .iter()
            .find(|(r, _)| same(r))
            .map(|(_, v)| Rc::clone(v))
    });
    if let Some(view) = found {
        return view;
    }
    let hindering: Vec<(Id, Id)> = hindering_now().collect();
    // From the side's last view with the same control and hindering markers, when only a
    // few pieces changed since: their spaces looked at again.
    let g = &content.graph;
    let earlier = KEPT_VIEWS.with(|k| {
        k.borrow()
            .iter()
            .rev()
            .find(|(r, _)| {
                r.content == of
                    && r.side == side_id
                    && r.control == state.control.stamp()
                    && r.hindering == hindering
            })
            .and_then(|(r, v)| {
                let changed = state.units.changed_since(r.units, MOST_CHANGED)?;
                let mut spaces: smallvec::SmallVec<[usize; 16]> = Default::default();
                for (i, was) in changed {
                    let now = match &state.units[i].at {
                        crate::state::Loc::Space(s) => Some(*s),
                        _ => None,
                    };
                    spaces.extend(
                        [was, now]
                            .into_iter()
                            .flatten()
                            .filter_map(|s| g.index_of(s)),
                    );
                }
                Some((Rc::clone(v), spaces))
            })
    });
    let view = match earlier {
        Some((before, spaces)) => match before.looked_again(content, state, &spaces) {
            Some(view) => Rc::new(view),
            None => before,
        },
        None => Rc::new(SideView::new(content, state, side)),
    };
    let reads = ViewReads {
        content: of,
        side: side_id,
        control: state.control.stamp(),
        units: state.units.stamp(),
        markers: state.markers.stamp(),
        hindering,
    };
    keep(&KEPT_VIEWS, VIEWS, (reads, Rc::clone(&view)));
    view
}
