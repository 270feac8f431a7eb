//! A phase of movement's prompt made from the prompt before: each unit's moves kept while
//! nothing near it changed.
//!
//! The moves prompt offers every activated unit's steps, and a step of one unit changes the
//! moves of few others: a hex game asks them again for dozens of units after every step. A
//! unit's moves read its own piece and entries in the impulse (points used and allowed ...),
//! the pieces in the spaces next to it and next to those (where it may stop, the zones of
//! control it enters), and the rest of the state (flags, markers, control, the task's other
//! parts). So they are kept from the last prompt of the same phase when
//!
//! - the state is the same but for the pieces and the units' entries in the task
//!   ([`crate::state::Snapshot`], [`same_but_pieces`]);
//! - the unit's own piece and entries are unchanged, and every piece that changed (moved, was
//!   eliminated, had its entries changed) stood and stands more than [`NEAR`] connections from
//!   it;
//! - its moves did not search farther than that: a step into a space where it may only pass
//!   through searches on, a piece apart from its army looks for the rest of it, a unit that
//!   must leave its space or approach the enemy under an order looks beyond its neighbours;
//! - the game's movement hooks read no pieces but those their point gives them
//!   ([`reads_only_given_pieces`]): a hook that counts the units of a region could see a
//!   change anywhere.
//!
//! **Invariant:** the moves kept are the ones worked out anew, so play is the same with or
//! without them (`examples/determinism.rs` checks every state of the recorded games;
//! [`without_kept_moves`] turns them off for the tests that compare).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::*;
use crate::model::HookPoint;
use crate::script::reads::reads_only_given_pieces;
use crate::state::Unit;

/// How many connections from a unit its moves read: its neighbours (where it may step and
/// stop), and theirs (the zones of control it would enter there). One more is kept as a
/// margin.
const NEAR: usize = 3;

/// How many units a prompt must move for their moves to be kept: a few units' moves are
/// worked out again in less than it takes to tell whether they may be kept (Berlin 1945's
/// impulses activate two or three units, close together; SPI Barbarossa's phases of movement
/// a side's dozens).
const FEWEST: usize = 8;

/// The hook points a unit's moves ask.
const POINTS: [HookPoint; 5] = [
    HookPoint::Movement,
    HookPoint::MoveCost,
    HookPoint::MayMove,
    HookPoint::MayStop,
    HookPoint::Strength,
];

/// The last moves prompt's units' moves, with what they were worked out from.
struct Kept {
    content: u64,
    mode: Mode,
    /// The state but for its pieces (they are `units`).
    state: crate::state::Snapshot,
    task: ImpulseTask,
    units: Arc<Vec<Unit>>,
    /// Each unit's moves (in the order of the task's units of the mode), none where they may
    /// not be kept.
    moves: Vec<Option<Vec<Action>>>,
    /// The spaces the prompt's overruns by several units were asked of (by graph index), each
    /// with whether it was offered (see [`Carried`]).
    overruns: Vec<(usize, bool)>,
}

/// What a moves prompt's overruns by several units may take from the prompt before: the
/// spaces near a change (none when nothing may be taken), and the spaces asked last time with
/// their answers. Whether a space may be overrun reads only the units next to it and in it
/// (who could join, with their points, costs and hooks; the stack they would make; the odds),
/// so a space more than [`NEAR`] connections from every change is asked and answered as before.
pub(super) struct Carried {
    pub(super) near: Option<Vec<bool>>,
    pub(super) overruns: Vec<(usize, bool)>,
}

thread_local! {
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
    /// Whether the content's movement hooks read only the pieces given them, by content.
    static LOCAL: Cell<(u64, bool)> = const { Cell::new((u64::MAX, false)) };
    static OFF: Cell<bool> = const { Cell::new(false) };
    static TAKEN: Cell<u64> = const { Cell::new(0) };
    static OVERRUNS_TAKEN: Cell<u64> = const { Cell::new(0) };
}

/// How many units' moves this thread's prompts have kept from the prompt before so far.
pub fn moves_kept() -> u64 {
    TAKEN.with(Cell::get)
}

/// How many answers to an overrun by several units (whether a space may be overrun) this
/// thread's prompts have kept from the prompt before so far.
pub fn overruns_kept() -> u64 {
    OVERRUNS_TAKEN.with(Cell::get)
}

/// Counts the answers to overruns a prompt kept (see [`overruns_kept`]).
pub(super) fn count_overruns_kept(n: usize) {
    OVERRUNS_TAKEN.with(|t| t.set(t.get() + n as u64));
}

/// Runs `f` with every unit's moves worked out anew at every prompt: to show that keeping
/// them changes nothing in play.
pub fn without_kept_moves<R>(f: impl FnOnce() -> R) -> R {
    crate::rules::hook_memo::switched_on(&OFF, f)
}

/// Whether a unit's moves worked out now may be kept for the next prompt: they read nothing
/// beyond [`NEAR`] (see the module's notes; `searched`: a step's search went on past the
/// neighbours).
pub(super) fn keepable(t: &ImpulseTask, u: usize, searched: bool) -> bool {
    let looks_farther = searched
        || t.apart.contains(&u)
        || leave::leaving(t, u).is_some()
        || t.approach && t.ordered.contains(&u);
    !looks_farther
}

/// The moves of the task's units of `mode`, in their order: each kept from the last prompt
/// where it may be (see the module's notes), else worked out by `moves` (which says whether
/// they may be kept).
pub(super) fn each_unit(
    rules: &Rules,
    state: &State,
    t: &ImpulseTask,
    mode: Mode,
    mut moves: impl FnMut(usize) -> (Vec<Action>, bool),
) -> (Vec<Action>, Option<Carried>) {
    let content = rules.content.memo_id();
    let units = t.units.iter().filter(|(_, m)| *m == mode).count();
    let on = units >= FEWEST && !OFF.with(Cell::get) && hooks_local(rules);
    let kept = if on {
        KEPT.with(|k| k.borrow_mut().take())
    } else {
        None
    };
    let near = kept
        .as_ref()
        .filter(|k| k.content == content && k.mode == mode)
        .and_then(|k| near_changes(rules, state, t, k));
    let (old, overruns) = kept.map(|k| (k.moves, k.overruns)).unwrap_or_default();
    let mut old = old.into_iter();
    let mut out = Vec::new();
    let mut now = Vec::new();
    for &(u, _) in t.units.iter().filter(|(_, m)| *m == mode) {
        // Kept when it stands far from every change (a unit that changed stands near one).
        let far = |near: &Vec<bool>| placed(rules, state, u).is_some_and(|(_, at)| !near[at]);
        let before = old
            .next()
            .flatten()
            .filter(|_| near.as_ref().is_some_and(far));
        let (list, keep) = match before {
            Some(list) => {
                TAKEN.with(|n| n.set(n.get() + 1));
                (list, true)
            }
            None => moves(u),
        };
        out.extend(list.iter().cloned());
        now.push(keep.then_some(list));
    }
    if !on {
        return (out, None);
    }
    let kept = Kept {
        content,
        mode,
        state: state.snapshot(),
        task: t.clone(),
        units: state.units.shared_list(),
        moves: now,
        overruns: Vec::new(),
    };
    KEPT.with(|k| *k.borrow_mut() = Some(kept));
    (out, Some(Carried { near, overruns }))
}

/// Keeps the overruns by several units this prompt asked, for the next (after [`each_unit`]
/// kept its units' moves, when it carried something).
pub(super) fn keep_overruns(asked: Vec<(usize, bool)>) {
    KEPT.with(|k| {
        if let Some(k) = k.borrow_mut().as_mut() {
            k.overruns = asked;
        }
    });
}

/// Whether every hook of the points a unit's moves ask reads only the pieces given it.
fn hooks_local(rules: &Rules) -> bool {
    let content = rules.content.memo_id();
    let (of, local) = LOCAL.with(Cell::get);
    if of == content {
        return local;
    }
    let local = rules
        .content
        .sequence
        .hooks
        .iter()
        .filter(|h| POINTS.contains(&h.at))
        .all(|h| {
            [&h.when, &h.value]
                .into_iter()
                .flatten()
                .all(reads_only_given_pieces)
                && h.run.is_empty()
        });
    LOCAL.with(|l| l.set((content, local)));
    local
}

/// The spaces (by graph index) within [`NEAR`] of a piece that changed since the kept prompt,
/// the pieces' own spaces first; none when more than the pieces changed.
fn near_changes(rules: &Rules, state: &State, t: &ImpulseTask, k: &Kept) -> Option<Vec<bool>> {
    let same_top = |top: &Task| match top {
        Task::Impulses(now) => same_but_pieces(&k.task, now),
        _ => false,
    };
    if !same_but_pieces(&k.task, t)
        || k.units.len() != state.units.len()
        || !k.state.same_but_pieces(state, same_top)
    {
        return None;
    }
    let mut changed = BTreeSet::new();
    for (i, (a, b)) in k.units.iter().zip(state.units.iter()).enumerate() {
        if a != b {
            changed.insert(i);
        }
    }
    let (a, b) = (&k.task, t);
    changed_entries(&a.used, &b.used, &mut changed);
    changed_entries(&a.allowed, &b.allowed, &mut changed);
    changed_entries(&a.restricted, &b.restricted, &mut changed);
    for (x, y) in [
        (&a.fought, &b.fought),
        (&a.acted, &b.acted),
        (&a.rail, &b.rail),
        (&a.end_moved, &b.end_moved),
        (&a.sources_used, &b.sources_used),
        (&a.supported, &b.supported),
    ] {
        changed.extend(x.symmetric_difference(y).copied());
    }
    let g = &rules.content.graph;
    let mut spaces: Vec<usize> = changed
        .iter()
        .flat_map(|&i| [&k.units[i], &state.units[i]])
        .filter_map(|unit| match &unit.at {
            Loc::Space(at) => g.index_of(at),
            _ => None,
        })
        .collect();
    spaces.sort_unstable();
    spaces.dedup();
    let near = crate::rules::supply::within(rules.content, &spaces, NEAR as u32);
    Some(near)
}

/// The units whose entries differ between two maps of the task (points used, allowed ...).
fn changed_entries<V: PartialEq>(
    a: &BTreeMap<usize, V>,
    b: &BTreeMap<usize, V>,
    changed: &mut BTreeSet<usize>,
) {
    let (mut x, mut y) = (a.iter().peekable(), b.iter().peekable());
    loop {
        match (x.peek(), y.peek()) {
            (None, None) => break,
            (Some((i, _)), None) => {
                changed.insert(**i);
                x.next();
            }
            (None, Some((j, _))) => {
                changed.insert(**j);
                y.next();
            }
            (Some((i, v)), Some((j, w))) => {
                if i < j {
                    changed.insert(**i);
                    x.next();
                } else if j < i {
                    changed.insert(**j);
                    y.next();
                } else {
                    if v != w {
                        changed.insert(**i);
                    }
                    x.next();
                    y.next();
                }
            }
        }
    }
}

/// Whether two tasks of an impulse are the same but for the units' entries (points used and
/// allowed, the units that acted ..., which [`near_changes`] compares unit by unit) and the
/// unit that moved last (which no unit's moves read). Every other part is compared: a part
/// added to the task is compared too, or this does not build.
fn same_but_pieces(a: &ImpulseTask, b: &ImpulseTask) -> bool {
    let ImpulseTask {
        at,
        impulse,
        passes,
        stage,
        units,
        spent,
        used: _,
        allowed: _,
        restricted: _,
        attacked,
        fought: _,
        acted: _,
        apart,
        ordered,
        order_need,
        approach,
        leaving,
        held,
        end_moved: _,
        passing,
        window,
        last_mover: _,
        rail: _,
        sources_used: _,
        supported: _,
        overrunning,
    } = a;
    *at == b.at
        && *impulse == b.impulse
        && *stage == b.stage
        && *spent == b.spent
        && *passing == b.passing
        && *order_need == b.order_need
        && *approach == b.approach
        && *passes == b.passes
        && *units == b.units
        && *attacked == b.attacked
        && *apart == b.apart
        && *ordered == b.ordered
        && *leaving == b.leaving
        && *held == b.held
        && *window == b.window
        && *overrunning == b.overrunning
}
