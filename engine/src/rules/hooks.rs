//! The hook points of the general procedures: every procedure asks here whether a step is
//! allowed, what a number becomes, and which after-effects follow, so a rule written as a hook
//! in `game.ron` acts the same way in every game, whatever gives the players their turns.

use super::{Rules, Task};
use crate::content::Content;
use crate::model::{HookEffect, HookPoint};
use crate::script::eval::{self, Context, Value};
use crate::script::reads::Memo;
use crate::script::syntax::Expr;
use crate::script::HookScripts;
use crate::state::State;

mod steps;
pub use steps::{step_number, StepVerdicts};

/// The names a hook point gives its scripts (besides `me` and `enemy`).
pub type Names = Vec<(crate::Id, Value)>;

/// A unit, for a hook's names.
pub fn unit(name: &'static str, u: usize) -> (crate::Id, Value) {
    (crate::Id::of_static(name), Value::Unit(u))
}

/// A space, for a hook's names.
pub fn space(name: &'static str, id: impl Into<crate::Id>) -> (crate::Id, Value) {
    (
        crate::Id::of_static(name),
        Value::Id(crate::script::types::Kind::Space, id.into()),
    )
}

/// A set of units, for a hook's names.
pub fn units(name: &'static str, us: &[usize]) -> (crate::Id, Value) {
    let mut set = Value::Set(Default::default());
    set_units(&mut set, us);
    (crate::Id::of_static(name), set)
}

/// Makes `value` the set of units `us`, in the place it holds when that place is its own (a
/// context changed in place from one question to the next allocates nothing).
pub fn set_units(value: &mut Value, us: &[usize]) {
    let mut sorted: smallvec::SmallVec<[usize; 16]> = us.iter().copied().collect();
    sorted.sort_unstable();
    sorted.dedup();
    let members = sorted.into_iter().map(Value::Unit);
    if let Value::Set(set) = value {
        if let Some(set) = std::sync::Arc::get_mut(set) {
            set.clear();
            set.extend(members);
            return;
        }
    }
    *value = Value::Set(std::sync::Arc::new(members.collect()));
}

pub fn int(name: &'static str, n: i64) -> (crate::Id, Value) {
    (crate::Id::of_static(name), Value::Int(n))
}

pub fn flag(name: &'static str, b: bool) -> (crate::Id, Value) {
    (crate::Id::of_static(name), Value::Bool(b))
}

/// Whether any hook acts at a point (so a procedure builds its names only when one does).
pub fn any_at(content: &Content, at: HookPoint) -> bool {
    content.hooks_at(at)
}

/// Whether a hook at a point names any of `names` in its condition or its script's number or
/// `May` condition (see [`crate::script::reads::names_any`]): a hook that names none of them
/// cannot tell apart questions that differ in them only.
pub fn any_names(content: &Content, at: HookPoint, names: &[crate::Id]) -> bool {
    at_point(content, at).any(|h| {
        [&h.when, &h.value]
            .into_iter()
            .flatten()
            .any(|e| crate::script::reads::names_any(e, names))
    })
}

fn at_point(content: &Content, at: HookPoint) -> impl Iterator<Item = &HookScripts> {
    content.sequence.hooks.iter().filter(move |h| h.at == at)
}

fn context(content: &Content, me: &str, names: Names) -> Context {
    let sides = content.game.as_ref().map_or(&[][..], |g| &g.sides[..]);
    let enemy = sides.iter().find(|s| s.id != me).map(|s| s.id);
    Context {
        me: sides
            .iter()
            .find(|s| s.id == me)
            .map_or_else(|| me.into(), |s| s.id),
        enemy: enemy.unwrap_or_default(),
        names,
        ..Context::default()
    }
}

fn applies(content: &Content, state: &State, h: &HookScripts, ctx: &Context) -> bool {
    h.when
        .as_ref()
        .is_none_or(|w| needs_met(content, state, h, ctx) && holds(content, state, (h, 0, w), ctx))
}

/// Whether any hook at a point may apply in this context: one whose condition needs no kind
/// of marker that is not on the map ([`needs_met`]). When none may, the point's hooks change
/// no number and forbid nothing, and a caller need not name its question's values.
pub fn any_may_apply(content: &Content, state: &State, at: HookPoint, ctx: &Context) -> bool {
    at_point(content, at).any(|h| needs_met(content, state, h, ctx))
}

/// Whether every kind of marker a hook's condition needs on the map ([`Content::hook_needs`])
/// is there: when one is not, the condition does not hold, and it is not asked. A kind the
/// context names is not looked for (the name is then the context's).
fn needs_met(content: &Content, state: &State, h: &HookScripts, ctx: &Context) -> bool {
    content.hook_needs(h.index).iter().all(|kind| {
        ctx.names.iter().any(|(n, _)| n == kind) || state.markers.iter().any(|m| m.marker == *kind)
    })
}

/// A hook's condition (`which` 0) or `May` condition (1), remembered when it can be (see
/// [`super::hook_memo`]); one that cannot be evaluated does not hold.
fn holds(
    content: &Content,
    state: &State,
    (h, which, e): (&HookScripts, usize, &Expr),
    ctx: &Context,
) -> bool {
    super::hook_memo::condition(content, state, content.hook_memo(h.index, which), e, ctx)
}

/// A modifier hook's number, remembered when it can be; none when it cannot be evaluated.
fn number(
    content: &Content,
    state: &State,
    (h, e): (&HookScripts, &Expr),
    ctx: &Context,
) -> Option<i64> {
    let eval = || eval::number(e, content, state, ctx).ok();
    match content.hook_memo(h.index, 1) {
        (script, Some(Memo::Whole(reads))) => {
            super::hook_memo::remembered(content, state, (script, reads), ctx, eval)
        }
        _ => eval(),
    }
}

/// Whether the hooks at a condition point allow a step (every hook that applies must).
pub fn may(
    content: &Content,
    state: &State,
    at: HookPoint,
    me: &str,
    names: impl FnOnce() -> Names,
) -> bool {
    if !any_at(content, at) {
        return true;
    }
    may_in(content, state, at, &context(content, me, names()))
}

/// The context a hook's scripts see (`me`, `enemy`, the point's names): for a procedure that
/// asks one point many times (a route's every connection), built once and changed in place.
pub fn context_for(content: &Content, me: &str, names: Names) -> Context {
    context(content, me, names)
}

/// [`may`] in a context already built (see [`context_for`]).
pub fn may_in(content: &Content, state: &State, at: HookPoint, ctx: &Context) -> bool {
    may_by(content, state, at_point(content, at), ctx)
}

/// [`may_in`] by the hooks `hooks` (those at the point, or those of them still asked).
fn may_by<'h>(
    content: &Content,
    state: &State,
    mut hooks: impl Iterator<Item = &'h HookScripts>,
    ctx: &Context,
) -> bool {
    hooks.all(|h| !says_no(content, state, h, ctx))
}

/// The hooks at a point asked many questions of one state that differ only in some names (a
/// prompt's every unit, every space a unit's move may end in): the context is built once and
/// the varying names changed in it from one question to the next, and the hooks left out once
/// that cannot apply to any of them ([`still_asked`]: `played(tito) and ...`, `flag(mud) and
/// ...`). When none is left, a question costs nothing.
///
/// **Invariant:** it answers as [`may`] and [`modify_scaled`] answer, asked one question at a
/// time.
pub struct Gate<'c> {
    at: HookPoint,
    ctx: Context,
    still: Vec<&'c HookScripts>,
}

impl<'c> Gate<'c> {
    /// The hooks at `at` for a side `me`, in a context of `names` of which `varying` (by name)
    /// change from one question to the next; none are left out when the game has no hook there.
    pub fn new(
        content: &'c Content,
        state: &State,
        (at, me): (HookPoint, &str),
        names: Names,
        varying: &[crate::Id],
    ) -> Gate<'c> {
        let ctx = context(content, me, names);
        let still = if any_at(content, at) {
            still_asked(content, state, at, &ctx, varying)
        } else {
            Vec::new()
        };
        Gate { at, ctx, still }
    }

    /// Whether no hook is left to ask: every question answers as if the point had none.
    pub fn is_empty(&self) -> bool {
        self.still.is_empty()
    }

    /// Whether the hooks allow, with the names `name` sets (by their place in the names).
    pub fn may(&mut self, content: &Content, state: &State, name: &[(usize, Value)]) -> bool {
        if self.still.is_empty() {
            return true;
        }
        self.rename(name);
        may_by(content, state, self.still.iter().copied(), &self.ctx)
    }

    /// The number the hooks make of `value` (counted in parts of `scale`), with the names
    /// `name` sets, remembered as [`modify_scaled`] remembers it.
    pub fn modify(
        &mut self,
        content: &Content,
        state: &State,
        (value, scale): (i64, i64),
        name: &[(usize, Value)],
    ) -> i64 {
        if self.still.is_empty() {
            return value;
        }
        self.rename(name);
        let still = &self.still;
        let at = self.at;
        super::hook_memo::modified(content, state, (at, value, scale), &mut self.ctx, |ctx| {
            modify_by(
                content,
                state,
                still.iter().copied(),
                (value, scale),
                ctx,
                None,
            )
        })
    }

    fn rename(&mut self, name: &[(usize, Value)]) {
        for (k, v) in name {
            self.ctx.names[*k].1 = v.clone();
        }
    }
}

/// The hooks at a condition point that may still forbid a step while only some of a
/// context's names change from one question to the next (an SR route's `from` and `to`,
/// asked of every connection it may cross). A hook with a part of its condition (the whole,
/// or one of a chain of `and`s) that names none of them and does not hold now cannot apply
/// to any of those questions, and is left out: a condition that cannot be evaluated does not
/// hold either, so leaving it out changes no answer. A part that names a modifier's `value`
/// is never asked here (the value changes from hook to hook). Ask the rest with
/// [`StepVerdicts`], a [`Gate`], or the point's hooks as before.
///
/// Each part asked is remembered by what it reads, as a hook's condition is
/// ([`super::hook_memo::condition`]): a unit's moves ask this of every unit at every prompt,
/// and its parts (`u.nation == ge`, `flag(mud)`) read the same from one prompt to the next.
pub fn still_asked<'c>(
    content: &'c Content,
    state: &State,
    at: HookPoint,
    ctx: &Context,
    varying: &[crate::Id],
) -> Vec<&'c HookScripts> {
    let hooks = &content.sequence.hooks;
    let fixed = fixed_parts(content, at, varying);
    (fixed.iter())
        .filter_map(|(place, fixed)| hooks.get(*place).map(|h| (h, fixed)))
        .filter(|(h, fixed)| {
            let memos = content.hook_part_memos(h.index);
            let mut k = 0;
            h.when.as_ref().is_none_or(|w| {
                crate::script::reads::all_conjuncts(w, &mut |part| {
                    let (i, memo) = (k, memos.get(k).and_then(Option::as_ref));
                    k += 1;
                    !fixed.get(i).copied().unwrap_or(false)
                        // The condition's parts come after the `May`'s, as `StepVerdicts` numbers them.
                        || match super::hook_memo::part_number(h.index, i + 1) {
                            Some(number) => super::hook_memo::condition(
                                content,
                                state,
                                (number, memo),
                                part,
                                ctx,
                            ),
                            None => eval::condition(part, content, state, ctx).unwrap_or(false),
                        }
                })
            })
        })
        .map(|(h, _)| h)
        .collect()
}

/// The hooks at a point, each (by its place in the content's hooks) with which parts of its
/// condition's chain of `and`s name none of `varying` nor a modifier's `value` (those
/// [`still_asked`] asks). Found once per content, point and names, and kept by the thread: a
/// unit's moves ask it of every unit at every prompt, and walking each part anew cost more
/// than asking most of them.
type FixedParts = std::rc::Rc<Vec<(usize, Vec<bool>)>>;

/// How many [`FixedParts`] a thread keeps.
const KEPT_PARTS: usize = 32;

fn fixed_parts(content: &Content, at: HookPoint, varying: &[crate::Id]) -> FixedParts {
    type Key = (u64, HookPoint, smallvec::SmallVec<[crate::Id; 4]>);
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<(Key, FixedParts)>> =
            const { std::cell::RefCell::new(Vec::new()) };
    }
    let same = |k: &Key| k.0 == content.memo_id() && k.1 == at && k.2[..] == *varying;
    let found = KEPT.with(|kept| {
        let kept = kept.borrow();
        kept.iter().find(|(k, _)| same(k)).map(|(_, f)| f.clone())
    });
    found.unwrap_or_else(|| {
        // A modifier's `value` is named only as its hooks are asked, one after another.
        let mut names: smallvec::SmallVec<[crate::Id; 4]> = varying.iter().copied().collect();
        names.push(crate::Id::of_static("value"));
        let hooks = content.sequence.hooks.iter().enumerate();
        let parts: Vec<(usize, Vec<bool>)> = (hooks.filter(|(_, h)| h.at == at))
            .map(|(place, h)| {
                let parts = h.when.as_ref().map_or(Vec::new(), |w| {
                    crate::script::reads::conjuncts(w)
                        .into_iter()
                        .map(|part| !crate::script::reads::names_any(part, &names))
                        .collect()
                });
                (place, parts)
            })
            .collect();
        let parts = std::rc::Rc::new(parts);
        KEPT.with(|kept| {
            let mut kept = kept.borrow_mut();
            // A content's few points and names, for the last few contents (a comparison of
            // variants plays two on one thread): the oldest goes.
            if kept.len() >= KEPT_PARTS {
                kept.remove(0);
            }
            let key = (content.memo_id(), at, varying.iter().copied().collect());
            kept.push((key, parts.clone()));
        });
        parts
    })
}

/// The hooks at a condition point that forbid a step (by their place in `game.ron`'s
/// `hooks`): what `--why` cites.
pub fn forbidding(
    content: &Content,
    state: &State,
    at: HookPoint,
    me: &str,
    names: Names,
) -> std::collections::BTreeSet<usize> {
    let ctx = context(content, me, names);
    at_point(content, at)
        .filter(|h| says_no(content, state, h, &ctx))
        .map(|h| h.index)
        .collect()
}

/// Whether a hook at a condition point applies and forbids: a `Forbid`, or a `May` whose
/// condition does not hold.
fn says_no(content: &Content, state: &State, h: &HookScripts, ctx: &Context) -> bool {
    let Some(game) = content.game.as_ref() else {
        return false;
    };
    if !applies(content, state, h, ctx) {
        return false;
    }
    match game.hooks.get(h.index).map(|x| &x.then) {
        Some(HookEffect::Forbid) => true,
        Some(HookEffect::May(_)) => !h
            .value
            .as_ref()
            .is_some_and(|v| holds(content, state, (h, 1, v), ctx)),
        _ => false,
    }
}

/// A number changed by the hooks at a modifier point, in the order they are written; each
/// sees the number so far as `value`.
pub fn modify(
    content: &Content,
    state: &State,
    at: HookPoint,
    me: &str,
    value: i64,
    names: impl FnOnce() -> Names,
) -> i64 {
    modify_scaled(content, state, at, me, (value, 1), names)
}

/// [`modify`] for a number counted in parts (movement in half points: `scale` 2): the hooks see
/// and give whole numbers (`value` rounded up), halving and doubling act on the parts.
pub fn modify_scaled(
    content: &Content,
    state: &State,
    at: HookPoint,
    me: &str,
    (value, scale): (i64, i64),
    names: impl FnOnce() -> Names,
) -> i64 {
    if !any_at(content, at) {
        return value;
    }
    let mut ctx = context(content, me, names());
    super::hook_memo::modified(content, state, (at, value, scale), &mut ctx, |ctx| {
        modify_in(content, state, at, (value, scale), ctx, None)
    })
}

/// [`modify_scaled`], and the hooks (by their place in `game.ron`) that acted.
pub fn modify_noted(
    content: &Content,
    state: &State,
    at: HookPoint,
    me: &str,
    (value, scale): (i64, i64),
    names: impl FnOnce() -> Names,
) -> (i64, Vec<usize>) {
    let mut acted = Vec::new();
    if !any_at(content, at) {
        return (value, acted);
    }
    let mut ctx = context(content, me, names());
    let value = modify_in(
        content,
        state,
        at,
        (value, scale),
        &mut ctx,
        Some(&mut acted),
    );
    (value, acted)
}

/// [`modify_scaled`] in a context already built (see [`context_for`]), noting in `acted` the
/// hooks that acted; the context is given back as it was.
pub fn modify_in(
    content: &Content,
    state: &State,
    at: HookPoint,
    (value, scale): (i64, i64),
    ctx: &mut Context,
    acted: Option<&mut Vec<usize>>,
) -> i64 {
    modify_by(
        content,
        state,
        at_point(content, at),
        (value, scale),
        ctx,
        acted,
    )
}

/// [`modify_in`] by the hooks `hooks` (those at the point, or those of them still asked).
fn modify_by<'h>(
    content: &Content,
    state: &State,
    hooks: impl Iterator<Item = &'h HookScripts>,
    (value, scale): (i64, i64),
    ctx: &mut Context,
    mut acted: Option<&mut Vec<usize>>,
) -> i64 {
    let Some(game) = content.game.as_ref() else {
        return value;
    };
    let scale = scale.max(1);
    let whole = |v: i64| (v + scale - 1).div_euclid(scale);
    ctx.names.push(int("value", whole(value)));
    let slot = ctx.names.len() - 1;
    let mut value = value;
    for h in hooks {
        ctx.names[slot].1 = Value::Int(whole(value));
        if !applies(content, state, h, ctx) {
            continue;
        }
        if let Some(acted) = acted.as_deref_mut() {
            acted.push(h.index);
        }
        let number = || {
            h.value
                .as_ref()
                .and_then(|v| number(content, state, (h, v), ctx))
                .map(|n| n.saturating_mul(scale))
        };
        value = match game.hooks.get(h.index).map(|x| &x.then) {
            Some(HookEffect::Add(_)) => number().map_or(value, |n| value.saturating_add(n)),
            Some(HookEffect::Set(_)) => number().unwrap_or(value),
            Some(HookEffect::AtLeast(_)) => number().map_or(value, |n| value.max(n)),
            Some(HookEffect::AtMost(_)) => number().map_or(value, |n| value.min(n)),
            Some(HookEffect::Half) => value - value / 2,
            Some(HookEffect::Double) => value.saturating_mul(2),
            _ => value,
        };
    }
    ctx.names.truncate(slot);
    value
}

/// What a hook's question is asked for: its rule, else its id.
fn source(content: &Content, index: usize) -> String {
    content
        .game
        .as_ref()
        .and_then(|g| g.hooks.get(index))
        .map_or(String::new(), |h| match h.rule.as_str() {
            "" => h.id.clone(),
            rule => rule.to_string(),
        })
}

/// The hooks that acted, for a person: ` (hooks: id (rule), …)`, or nothing.
pub fn cited(content: &Content, acted: &std::collections::BTreeSet<usize>) -> String {
    let Some(game) = content.game.as_ref() else {
        return String::new();
    };
    let named: Vec<String> = acted
        .iter()
        .filter_map(|&i| game.hooks.get(i))
        .map(|h| match h.rule.as_str() {
            "" => h.id.clone(),
            rule => format!("{} ({rule})", h.id),
        })
        .collect();
    if named.is_empty() {
        String::new()
    } else {
        format!(" (hooks: {})", named.join(", "))
    }
}

/// Queues the after-effects that apply at a point, to run before play goes on (each may ask
/// players; the first written runs first).
pub fn after(rules: &Rules, state: &mut State, at: HookPoint, me: &str, names: Names) {
    let content = rules.content;
    if !any_at(content, at) {
        return;
    }
    let ctx = context(content, me, names);
    let due: Vec<usize> = at_point(content, at)
        .filter(|h| applies(content, state, h, &ctx))
        .map(|h| h.index)
        .collect();
    for index in due {
        state.flow.hooks_due.push(Task::Hook {
            side: me.into(),
            hook: index,
            names: ctx.names.clone(),
            answers: Vec::new(),
        });
    }
}

/// Runs a queued after-effect: asks its next decision, or finishes. A script that fails is
/// reported (with the hook's rule) and skipped.
pub(super) fn run(
    rules: &Rules,
    state: &mut State,
    (side, hook, names): (&str, usize, &Names),
    answers: &[Vec<String>],
) -> Option<super::Prompt> {
    let content = rules.content;
    let Some(h) = content.sequence.hooks.iter().find(|h| h.index == hook) else {
        state.flow.tasks.pop();
        return None;
    };
    let ctx = context(content, side, names.clone());
    match eval::run(&h.run, content, state, &ctx, answers) {
        Ok((eval::Outcome::Asks(d), _)) => {
            Some(super::Prompt::decision(d, &source(content, h.index)))
        }
        Ok((eval::Outcome::Done, _)) => {
            state.flow.tasks.pop();
            None
        }
        Err(e) => {
            state.flow.tasks.pop();
            let (id, rule) = rules
                .game
                .hooks
                .get(hook)
                .map_or(("", ""), |x| (x.id.as_str(), x.rule.as_str()));
            state.flow.messages.push(format!(
                "the hook `{id}` (rule {rule}) could not be carried out: {}",
                e.message
            ));
            None
        }
    }
}
