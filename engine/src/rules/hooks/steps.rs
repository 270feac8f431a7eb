//! Hooks asked about many steps that differ only in some names (an SR route's connections, a
//! unit's moves), their verdicts kept by step. Split from [`super`].

use super::*;
use crate::rules::hook_memo::StepTable;

/// The hooks still asked ([`still_asked`]) about many steps that differ only in some names
/// (an SR route's connections: `from` and `to`). Each part of a hook's condition (each of a
/// chain of `and`s, and a `May`'s condition) that can be remembered wholly keeps its results
/// by step (see [`crate::rules::hook_memo::step_table`]): a step asked again, in this route or in a
/// later one where the names the part reads besides the varying ones read the same, costs a
/// look. By parts, so that `from != origin and from.terrain == desert` keeps its second part
/// once for every route, whatever the origin, and asks the first only of desert spaces.
///
/// A step is numbered by [`step_number`] (a connection crossed one way) by every caller, since
/// the tables of a hook's parts are shared. Each part has a step budget of its own, so only a
/// condition too long for one budget could answer otherwise than asked whole.
///
/// For a caller whose questions share most parts' tables (an SR route's, one for each unit of
/// a side: `routed` given), the hooks' verdict is kept by step too, for every question whose
/// parts keep their results in the same tables ([`Combined`]): a step asked again costs one
/// look, not one per part. The parts that read a name fixed for one question but not for the
/// next (an SR route's `origin`: the `routed` names) are left out of that key; where the
/// verdict turns on them, it is kept as depending on them and asked of the parts each time.
/// (A unit's moves are asked without: their tables differ from one unit to the next more
/// often than not, and a table of verdicts made for each would cost more than it saves.)
pub struct StepVerdicts<'c> {
    hooks: Vec<Asked<'c>>,
    /// The verdicts by step of these hooks' parts that do not read the routed names.
    combined: Option<StepTable>,
}

/// A verdict kept by step that turns on the parts reading the routed names.
const DEPENDS: u8 = 3;

/// The verdicts by step of a list of hooks' parts ([`StepVerdicts`]), kept by the shape of the
/// list (for each hook: a `Forbid` or not, its parts, each routed or not, whether it has a
/// `May`'s condition) and the tables of its parts that are not routed. The tables are held
/// here, so that none is let go (and its place taken by another's) while verdicts made from
/// it are kept. A verdict is made of the parts' results at its step, each a function of what
/// its table's key read; where a routed part could decide it, it is kept as [`DEPENDS`]. So
/// a verdict kept holds wherever the same tables are asked, whatever the routed names are.
struct Combined {
    content: u64,
    shape: Vec<u32>,
    tables: Vec<StepTable>,
    verdicts: StepTable,
}

/// How many lists of hooks' parts a thread keeps the verdicts of: the units of a side ask a
/// few lists (the hooks that bind a nation, a size), in one state after another.
const MOST_COMBINED: usize = 32;

thread_local! {
    static COMBINED: std::cell::RefCell<std::collections::VecDeque<Combined>> =
        const { std::cell::RefCell::new(std::collections::VecDeque::new()) };
}

/// The verdicts kept for `hooks`' parts, or a table made for them; none when a part that is
/// not routed keeps no table.
fn combined(content: &Content, hooks: &[Asked], steps: usize) -> Option<StepTable> {
    let mut shape = Vec::with_capacity(hooks.len() * 3);
    let mut tables = Vec::with_capacity(hooks.len() * 2);
    // A hook's word, then one word for each of its parts: told apart by their high bits.
    const HOOK: u32 = 1 << 4;
    const PART: u32 = 1 << 5;
    for h in hooks {
        shape.push(HOOK | u32::from(h.forbid) << 1 | u32::from(h.may.is_some()));
        for (_, table, routed) in h.when.iter().chain(&h.may) {
            shape.push(PART | u32::from(*routed));
            if !routed {
                tables.push(std::rc::Rc::clone(table.as_ref()?));
            }
        }
    }
    let of = content.memo_id();
    COMBINED.with(|kept| {
        let mut kept = kept.borrow_mut();
        let same = |c: &Combined| {
            c.content == of
                && c.shape == shape
                && c.tables.len() == tables.len()
                && (c.tables.iter().zip(&tables)).all(|(a, b)| std::rc::Rc::ptr_eq(a, b))
                && c.verdicts.borrow().len() == steps
        };
        if let Some(c) = kept.iter().rev().find(|c| same(c)) {
            return Some(std::rc::Rc::clone(&c.verdicts));
        }
        if kept.len() >= MOST_COMBINED {
            kept.pop_front();
        }
        let verdicts = std::rc::Rc::new(std::cell::RefCell::new(vec![0; steps]));
        kept.push_back(Combined {
            content: of,
            shape,
            tables,
            verdicts: std::rc::Rc::clone(&verdicts),
        });
        Some(verdicts)
    })
}

/// A hook as [`StepVerdicts`] asks it: the parts of its condition; whether it is a `Forbid`,
/// else the condition of its `May` (none: the `May` allows nothing); each part with its
/// results by step when it keeps them.
struct Asked<'c> {
    when: Vec<Part<'c>>,
    forbid: bool,
    may: Option<Part<'c>>,
}

/// A part of a condition, with its results by step when it keeps them, and whether it reads a
/// routed name.
type Part<'c> = (&'c Expr, Option<StepTable>, bool);

/// A step's number for [`StepVerdicts`] and the tables kept by step: a connection (by edge
/// index) crossed one way, from graph index `from` to `to`. Every caller at a point numbers
/// steps so, since the tables of a hook's parts are shared.
pub fn step_number(edge: usize, from: usize, to: usize) -> usize {
    edge * 2 + usize::from(from > to)
}

/// A kept result (a step not yet asked keeps 0).
const HOLDS: u8 = 1;
const FAILS: u8 = 2;

impl<'c> StepVerdicts<'c> {
    /// The hooks `still`, asked in `ctx` about `steps` steps that differ in the names
    /// `varying` only; their verdicts kept by step apart from the parts that read the
    /// `routed` names, when these are given.
    #[inline]
    pub fn new(
        content: &'c Content,
        state: &State,
        still: Vec<&'c HookScripts>,
        ctx: &Context,
        (varying, steps): (&[crate::Id], usize),
        routed: Option<&[crate::Id]>,
    ) -> StepVerdicts<'c> {
        let Some(game) = content.game.as_ref() else {
            return StepVerdicts {
                hooks: Vec::new(),
                combined: None,
            };
        };
        // A part, with how widely its results are shared: by how many words its table's
        // key holds (none without a table).
        let part = |e: &'c Expr, number: Option<usize>, memo: Option<&Memo>| -> (Part<'c>, usize) {
            let table = match (number, memo) {
                (Some(number), Some(Memo::Whole(reads))) => crate::rules::hook_memo::step_table(
                    content,
                    state,
                    (number, reads),
                    ctx,
                    (varying, steps),
                ),
                _ => None,
            };
            let shared = table.as_ref().map_or(usize::MAX, |(_, words)| *words);
            let routed = routed.is_some_and(|r| crate::script::reads::names_any(e, r));
            ((e, table.map(|(t, _)| t), routed), shared)
        };
        let hooks = still
            .into_iter()
            .filter_map(|h| {
                // Each part numbered apart from every other: the `May`'s condition first.
                let number = |i: usize| crate::rules::hook_memo::part_number(h.index, i);
                // The parts whose results are shared most are asked first: a chain of `and`s
                // holds when every part does, in any order (a part that cannot be evaluated
                // does not hold, wherever it stands).
                let memos = content.hook_part_memos(h.index);
                let mut when: Vec<(Part, usize)> = h.when.as_ref().map_or(Vec::new(), |w| {
                    let parts = crate::script::reads::conjuncts(w).into_iter().enumerate();
                    parts
                        .map(|(i, e)| part(e, number(i + 1), memos.get(i).and_then(Option::as_ref)))
                        .collect()
                });
                when.sort_by_key(|(_, shared)| *shared);
                let when = when.into_iter().map(|(p, _)| p).collect();
                let (forbid, may) = match game.hooks.get(h.index).map(|x| &x.then) {
                    Some(HookEffect::Forbid) => (true, None),
                    Some(HookEffect::May(_)) => {
                        let memo = content.hook_memo(h.index, 1).1;
                        (false, h.value.as_ref().map(|v| part(v, number(0), memo).0))
                    }
                    // Other hooks never forbid.
                    _ => return None,
                };
                Some(Asked { when, forbid, may })
            })
            .collect::<Vec<_>>();
        let combined = (routed.is_some() && !hooks.is_empty())
            .then(|| combined(content, &hooks, steps))
            .flatten();
        StepVerdicts { hooks, combined }
    }

    /// Whether none of the hooks forbids step `step`, as [`may_in`] would say, asking only
    /// these hooks: in `ctx` once `name` has named the step in it (only when a part must be
    /// asked).
    #[inline]
    pub fn may(
        &self,
        content: &Content,
        state: &State,
        (ctx, name): (&mut Context, impl FnOnce(&mut Context)),
        step: usize,
    ) -> bool {
        let Some(combined) = &self.combined else {
            return self.allows(content, state, (ctx, &mut Some(name)), step);
        };
        // A step asked before, of the same tables: one look.
        let kept = combined.borrow().get(step).copied();
        match kept {
            Some(HOLDS) => true,
            Some(FAILS) => false,
            _ => self.may_asked(content, state, (ctx, name), (combined, step, kept)),
        }
    }

    /// Whether none of the hooks forbids step `step`, asked of their parts (naming the step in
    /// `ctx` with `name`, if not named yet, before the first part asked).
    #[inline]
    fn allows(
        &self,
        content: &Content,
        state: &State,
        (ctx, name): (&mut Context, &mut Option<impl FnOnce(&mut Context)>),
        step: usize,
    ) -> bool {
        let mut holds = |part: &Part| part_holds(content, state, (ctx, &mut *name), part, step);
        // A hook forbids when its condition holds (every part of it), and it is a
        // `Forbid` or its `May`'s condition does not hold: as `says_no` says.
        self.hooks.iter().all(|h| {
            !h.when.iter().all(&mut holds) || !h.forbid && h.may.as_ref().is_some_and(&mut holds)
        })
    }

    /// [`Self::may`] of a step whose verdict the table `combined` does not hold (`kept`: what
    /// it holds for it).
    #[inline(never)]
    fn may_asked(
        &self,
        content: &Content,
        state: &State,
        (ctx, name): (&mut Context, impl FnOnce(&mut Context)),
        (combined, step, kept): (&StepTable, usize, Option<u8>),
    ) -> bool {
        let mut name = Some(name);
        let shared = match kept {
            Some(DEPENDS) => None,
            // Asked first without the routed parts: the verdict for every route, when they
            // cannot change it.
            _ => {
                let shared = self.shared(content, state, (ctx, &mut name), step);
                if let Some(v) = combined.borrow_mut().get_mut(step) {
                    *v = match shared {
                        Some(true) => HOLDS,
                        Some(false) => FAILS,
                        None => DEPENDS,
                    };
                }
                shared
            }
        };
        shared.unwrap_or_else(|| self.allows(content, state, (ctx, &mut name), step))
    }

    /// [`Self::allows`] without the parts that read the routed names: none when the verdict
    /// turns on them.
    fn shared(
        &self,
        content: &Content,
        state: &State,
        (ctx, name): (&mut Context, &mut Option<impl FnOnce(&mut Context)>),
        step: usize,
    ) -> Option<bool> {
        let mut holds = |part: &Part| {
            let routed = part.2;
            (!routed).then(|| part_holds(content, state, (ctx, &mut *name), part, step))
        };
        // A part not asked (routed) leaves open what it decides: in three values, a part that
        // does not hold decides a chain of `and`s whatever the others are.
        let mut allowed = Some(true);
        for h in &self.hooks {
            let mut when = Some(true);
            for part in &h.when {
                match holds(part) {
                    Some(false) => {
                        when = Some(false);
                        break;
                    }
                    Some(true) => {}
                    None => when = None,
                }
            }
            if when == Some(false) {
                continue;
            }
            let forbids_if_applies = match (h.forbid, &h.may) {
                (true, _) | (false, None) => Some(true),
                (false, Some(part)) => holds(part).map(|may| !may),
            };
            match (when, forbids_if_applies) {
                (_, Some(false)) => {}
                (Some(true), Some(true)) => return Some(false),
                _ => allowed = None,
            }
        }
        allowed
    }

    /// Whether no hook is left to ask.
    pub fn is_empty(&self) -> bool {
        self.hooks.is_empty()
    }
}

/// Whether a part holds at step `step`: kept in its table, or asked (the step named in `ctx`
/// first, if not yet) and kept.
#[inline]
fn part_holds(
    content: &Content,
    state: &State,
    (ctx, name): (&mut Context, &mut Option<impl FnOnce(&mut Context)>),
    (e, table, _): &Part,
    step: usize,
) -> bool {
    let kept = table.as_ref().and_then(|t| t.borrow().get(step).copied());
    match kept {
        Some(HOLDS) => return true,
        Some(FAILS) => return false,
        _ => {}
    }
    if let Some(name) = name.take() {
        name(ctx);
    }
    // One that cannot be evaluated does not hold, as in `holds`.
    let holds = eval::condition(e, content, state, ctx).unwrap_or(false);
    if let Some(t) = table {
        if let Some(v) = t.borrow_mut().get_mut(step) {
            *v = if holds { HOLDS } else { FAILS };
        }
    }
    holds
}
