//! The parts of a side's view of the map that supply lines run through, worked out once per
//! view for all the nations traced on it.
//!
//! A trace whose reach is the whole map ([`super::trace`]'s first case) reaches, from each
//! source it may run on from, every space of that source's part (the spaces a line may run on
//! from, joined by the connections it may cross) and every space one open connection beyond
//! them. Which spaces a line runs on from and which connections it crosses depend only on the
//! view and on the pass (Full, then Limited), not on the nation: so the parts are found once,
//! and each nation's trace only marks what the parts of its sources reach. A side's prompt
//! traces its nations one after another on the same view (seven traces a view in a B2B
//! campaign), each a search of the whole map before.
//!
//! **Invariant:** the levels are those the searches give (`tests/it/supply_search.rs` compares
//! both at states of random campaigns, on whole views and on views with spaces closed).

use std::cell::{OnceCell, RefCell};
use std::collections::VecDeque;
use std::rc::Rc;

use super::SideView;
use crate::content::Content;
use crate::model::TraceSupply;

thread_local! {
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every trace made by searching the map, no parts used: to show that the parts
/// change no level.
pub fn without_parts<R>(f: impl FnOnce() -> R) -> R {
    crate::rules::hook_memo::switched_on(&OFF, f)
}

/// Whether traces use the parts on this thread.
pub(super) fn on() -> bool {
    !OFF.with(std::cell::Cell::get)
}

/// A view's parts, found when first asked: taken from the parts a thread kept for a view that
/// read the same (the same bits, [`SideView::bits`]), else worked out. A copy of the view
/// (made to be changed) finds its own, and views are the same whether found or not.
#[derive(Default)]
pub(super) struct Kept(OnceCell<Passes>);

/// The parts of the Full pass, then of the Limited one, shared by the views that read the same.
type Passes = Rc<[Pass; 2]>;

/// How many views' parts a thread keeps: a prompt traces its side's nations on one view, and
/// views of the same bits are made again and again (the pieces moved within the side's own
/// spaces).
const VIEWS: usize = 8;

thread_local! {
    static KEPT: RefCell<VecDeque<(u64, Vec<u64>, Passes)>> =
        const { RefCell::new(VecDeque::new()) };
}

impl Clone for Kept {
    fn clone(&self) -> Kept {
        Kept::default()
    }
}

crate::rules::kept::derived_data!(Kept);

impl Kept {
    /// The view's parts for the Full pass (`full`) or the Limited one.
    pub(super) fn pass<'v>(&'v self, content: &Content, view: &SideView, full: bool) -> &'v Pass {
        let passes = self.0.get_or_init(|| found(content, view));
        &passes[usize::from(!full)]
    }

    /// Forgets the parts found (the view was changed).
    pub(super) fn forget(&mut self) {
        self.0 = OnceCell::new();
    }
}

/// The parts of a view: kept by its bits, but for a view with spaces closed (whose bits do not
/// tell it from the whole view), worked out each time.
fn found(content: &Content, view: &SideView) -> Passes {
    let work = || {
        Rc::new([
            Pass::new(content, view, true),
            Pass::new(content, view, false),
        ])
    };
    if view.closed {
        return work();
    }
    let of = content.memo_id();
    let kept = KEPT.with(|k| {
        (k.borrow().iter().rev())
            .find(|(c, bits, _)| *c == of && *bits == view.bits)
            .map(|(_, _, parts)| Rc::clone(parts))
    });
    if let Some(parts) = kept {
        return parts;
    }
    let parts = work();
    KEPT.with(|k| {
        let mut k = k.borrow_mut();
        if k.len() >= VIEWS {
            k.pop_front();
        }
        k.push_back((of, view.bits.clone(), Rc::clone(&parts)));
    });
    parts
}

/// The parts of one pass.
pub(super) struct Pass {
    /// Each space's part, `NONE` where a line does not run on from it.
    part: Vec<u32>,
    /// Where each part's spaces reached begin in `reached`, and where the last ends.
    starts: Vec<u32>,
    /// Each part's spaces reached: its own, and those one open connection beyond.
    reached: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Pass {
    fn new(content: &Content, view: &SideView, full: bool) -> Pass {
        let g = &content.graph;
        let edges = &content.supply_index().edges;
        let n = g.spaces.len();
        // A line runs on from a friendly space; in the Full pass, not from a hindered one.
        let runs_on = |i: usize| view.friendly[i] && !(full && view.hindered[i]);
        // The same test as a search's: into a hindered space only in the Limited pass.
        let open = |e: usize, m: usize| {
            let trace = edges[e];
            !(trace == TraceSupply::Blocked
                || (full && (trace == TraceSupply::Limited || view.hindered[m])))
        };
        let mut pass = Pass {
            part: vec![NONE; n],
            starts: Vec::new(),
            reached: Vec::new(),
        };
        // The part whose reached list last took each space, so that a list holds it once.
        let mut listed = vec![NONE; n];
        let mut stack = Vec::new();
        for first in 0..n {
            if pass.part[first] != NONE || !runs_on(first) {
                continue;
            }
            let part = pass.starts.len() as u32;
            pass.starts.push(pass.reached.len() as u32);
            pass.part[first] = part;
            listed[first] = part;
            pass.reached.push(first as u32);
            stack.push(first);
            while let Some(i) = stack.pop() {
                for &(m, e) in g.neighbours(i) {
                    if listed[m] == part || !open(e, m) {
                        continue;
                    }
                    listed[m] = part;
                    pass.reached.push(m as u32);
                    if runs_on(m) {
                        pass.part[m] = part;
                        stack.push(m);
                    }
                }
            }
        }
        pass.starts.push(pass.reached.len() as u32);
        pass
    }

    /// The part a line runs through from space `i`, if it runs on from there.
    pub(super) fn part_of(&self, i: usize) -> Option<usize> {
        let p = *self.part.get(i)?;
        (p != NONE).then_some(p as usize)
    }

    /// How many parts there are.
    pub(super) fn parts(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The spaces a part reaches (graph indexes).
    pub(super) fn reached(&self, part: usize) -> impl Iterator<Item = usize> + '_ {
        let (from, to) = (self.starts[part] as usize, self.starts[part + 1] as usize);
        self.reached[from..to].iter().map(|&i| i as usize)
    }
}
