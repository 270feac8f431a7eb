//! Remembered results of hooks' conditions and numbers that read only what a few words can
//! say: a prompt's options ask the same hooks about the same steps over and over (every unit's
//! every step, at every prompt of a phase), and most hooks read only the unit's counter, the
//! spaces' fixed data, flags and the turn.
//!
//! A script is remembered only when everything it reads is known beforehand
//! ([`analyse`]): the names its point gives it (a unit through the fields its counter fixes,
//! a space, a side, a number, a truth value), `flag(some_flag)`, the turn and the round, the
//! cards played (`played`, `played_this_turn`, `turn_played` of a card named), control
//! (`controls` of a side and a space named; `spaces(controlled_by: ...)`, by the stamp of the
//! control table, which no table with other contents had), and builtins that read only the
//! content (the map, regions, features). Its result is then a function of those values, which
//! make the key; anything else (a unit's space, a set, the units on the map, a track) and the
//! script is evaluated each time. A condition that is a chain of `and`s and cannot be
//! remembered whole is remembered by its longest first part that can be: when that part is
//! false, so is the whole, and only otherwise is the whole evaluated (`u.nation == su and
//! u.size == lcu and count(units(in: moscow)) > 2`). The play rules'
//! conditions (`/play/box_entries/0/to` and the like, asked of every space) are remembered the
//! same way (`Rules::condition`), and so are the cards' `playable` conditions (asked of every
//! card in a hand at every action prompt). The number the modifier hooks of a point make of a
//! value (a step's cost, a supply line's reach) is remembered whole when every script of theirs
//! can be, by what they read together, the value and its scale ([`modified`]). The table
//! belongs to one loaded content (content is not changed after loading) and to the thread
//! asking; a key hashes only the words its script uses.
//!
//! **Invariant:** a remembered result is the one evaluation gives for the same key, so play
//! is the same with or without the table.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::content::Content;
use crate::script::eval::{Asker, Context, Value};
pub use crate::script::reads::{analyse, Memo, Played, Read};
use crate::script::syntax::Expr;
use crate::script::types::Kind;
use crate::state::State;

/// Most words a key holds.
const WORDS: usize = 10;

#[derive(Debug, Clone, Copy)]
struct Key {
    script: usize,
    len: usize,
    words: [u64; WORDS],
}

impl PartialEq for Key {
    /// The script and the words it uses (the rest are zero): a key of two words compares
    /// two, not ten.
    fn eq(&self, other: &Key) -> bool {
        self.script == other.script
            && self.len == other.len
            && self.words[..self.len] == other.words[..other.len]
    }
}

impl Eq for Key {}

impl std::hash::Hash for Key {
    /// The script and the words it uses (the rest are zero).
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_usize(self.script);
        for w in &self.words[..self.len] {
            h.write_u64(*w);
        }
    }
}

type Table = HashMap<Key, Option<i64>, BuildHasherDefault<Mix>>;

/// Most results a table keeps before it starts again.
const MOST: usize = 1 << 18;

/// The tables of results by step, by their keys (see [`step_table`]).
type StepTables = HashMap<Key, StepTable, BuildHasherDefault<Mix>>;

/// The tables of numbers by step, by their keys (see [`PointKey::by_step`]).
type NumberTables = HashMap<Key, std::rc::Rc<RefCell<Vec<u64>>>, BuildHasherDefault<Mix>>;

/// Most tables of numbers by step a thread keeps before it starts again: a table holds a word
/// for each way of each connection (some 90 KB for SPI Barbarossa's 5,564), and a game asks a
/// few dozen (a unit's kind and the weather make its key).
const MOST_NUMBER_TABLES: usize = 256;

/// Most tables of results by step a thread keeps before it starts again.
const MOST_STEP_TABLES: usize = 1 << 12;

thread_local! {
    static TABLE: RefCell<(u64, Table)> = RefCell::new((0, Table::default()));
    static STEPS: RefCell<(u64, StepTables)> = RefCell::new((0, StepTables::default()));
    static NUMBERS: RefCell<(u64, NumberTables)> = RefCell::new((0, NumberTables::default()));
    static OFF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with every hook's script evaluated each time, none remembered: to show that the
/// table changes nothing in play, and what it saves.
pub fn without_table<R>(f: impl FnOnce() -> R) -> R {
    switched_on(&OFF, f)
}

/// Runs `f` with a thread's switch on, and puts it back as it was however `f` ends: what
/// keeps results (this table, the supply levels kept) is turned off this way, to show that it
/// changes nothing.
pub(crate) fn switched_on<R>(
    switch: &'static std::thread::LocalKey<std::cell::Cell<bool>>,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore(&'static std::thread::LocalKey<std::cell::Cell<bool>>, bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            self.0.with(|o| o.set(self.1));
        }
    }
    let _restore = Restore(switch, switch.with(|o| o.replace(true)));
    f()
}

/// The result of a script (numbered `script` among the content's remembered scripts) with
/// these reads, in this context: from the table, or worked out by `eval` and kept.
pub fn remembered(
    content: &Content,
    state: &State,
    (script, reads): (usize, &[Read]),
    ctx: &Context,
    eval: impl FnOnce() -> Option<i64>,
) -> Option<i64> {
    recall(content, key(content, state, (script, reads), ctx), eval)
}

/// The number the hooks at a point make of `value` (`modify` of `eval`), remembered by what
/// they read together ([`Content::point_memo`]), `value` and `scale`: one key for all of them,
/// where each hook's condition and number would make a key of its own.
pub(crate) fn modified(
    content: &Content,
    state: &State,
    (at, value, scale): (crate::model::HookPoint, i64, i64),
    ctx: &mut Context,
    modify: impl FnOnce(&mut Context) -> i64,
) -> i64 {
    gives_only_its_names(at, ctx);
    let key = content.point_memo(at).and_then(|(script, reads)| {
        let mut key = key(content, state, (script, reads), ctx)?;
        // Their bits as they are: the key is only compared and hashed.
        key.push(value as u64)?;
        key.push(scale as u64)?;
        Some(key)
    });
    recall(content, key, || Some(modify(ctx))).unwrap_or(value)
}

/// The part of a point's key ([`modified`]) that stays the same while only the names
/// `varying` change (a unit's steps: `from` and `to`), read once; the reads of those names
/// are read at each question ([`modified_step`]). None when the point's hooks cannot be
/// remembered or what is read cannot be put in words.
pub(crate) struct PointKey {
    at: crate::model::HookPoint,
    key: Key,
    later: Vec<Read>,
}

/// Added to a point's number in a key made by [`PointKey`], whose words come in another
/// order than [`key`] puts them: the points are numbered from `usize::MAX / 8 * 7` (see
/// `Content::point_memo`), so these numbers lie past every other script's, and no key of one
/// order is taken for one of the other.
const STEP_ORDER: usize = usize::MAX / 16;

/// The [`PointKey`] of point `at` in `ctx`, while only the names `varying` change.
pub(crate) fn point_key(
    content: &Content,
    state: &State,
    at: crate::model::HookPoint,
    ctx: &Context,
    varying: &[crate::Id],
) -> Option<PointKey> {
    let (script, reads) = content.point_memo(at)?;
    let mut key = Key::new(script.wrapping_add(STEP_ORDER));
    let mut later = Vec::new();
    for r in reads {
        if names_any(r, varying) {
            later.push(r.clone());
        } else if let Some(w) = read_word(content, state, ctx, r)? {
            key.push(w)?;
        }
    }
    Some(PointKey { at, key, later })
}

/// [`modified`], with the key's part that does not change read already (`fixed`: none when
/// the point cannot be remembered); `ctx` names the question's varying names.
pub(crate) fn modified_step(
    content: &Content,
    state: &State,
    (fixed, value, scale): (Option<&PointKey>, i64, i64),
    ctx: &mut Context,
    modify: impl FnOnce(&mut Context) -> i64,
) -> i64 {
    let key = fixed.and_then(|p| {
        gives_only_its_names(p.at, ctx);
        let mut key = p.key;
        for r in &p.later {
            if let Some(w) = read_word(content, state, ctx, r)? {
                key.push(w)?;
            }
        }
        key.push(value as u64)?;
        key.push(scale as u64)?;
        Some(key)
    });
    recall(content, key, || Some(modify(ctx))).unwrap_or(value)
}

/// The point's reads leave out the names it does not give (see `Content::point_memo`): so a
/// context at it must give no other.
fn gives_only_its_names(at: crate::model::HookPoint, ctx: &Context) {
    debug_assert!(
        ctx.names
            .iter()
            .all(|(n, _)| at.names().iter().any(|(m, _)| *m == n.as_str())),
        "a context at {at:?} gives a name the point does not"
    );
}

/// The result kept under `key`, or worked out by `eval` and kept; `eval` each time when there
/// is no key (what was read cannot be put in words) or the table is off.
fn recall(content: &Content, key: Option<Key>, eval: impl FnOnce() -> Option<i64>) -> Option<i64> {
    if OFF.with(std::cell::Cell::get) {
        return eval();
    }
    let Some(key) = key else {
        return eval();
    };
    let id = content.memo_id();
    let found = TABLE.with(|t| {
        let t = t.borrow();
        (t.0 == id).then(|| t.1.get(&key).copied()).flatten()
    });
    if let Some(v) = found {
        return v;
    }
    let v = eval();
    TABLE.with(|t| {
        let mut t = t.borrow_mut();
        if t.0 != id || t.1.len() >= MOST {
            t.0 = id;
            t.1.clear();
        }
        t.1.insert(key, v);
    });
    v
}

/// Whether a condition (numbered `script` among the remembered scripts) holds, remembered as
/// its memo allows: wholly, or by its first part (false when that part is); evaluated each
/// time when it has no memo. One that cannot be evaluated does not hold.
pub(crate) fn condition(
    content: &Content,
    state: &State,
    script: (usize, Option<&Memo>),
    e: &Expr,
    ctx: &Context,
) -> bool {
    let key = memo_key(content, state, script, ctx);
    condition_by(content, (script.1, e), key, |parts| {
        crate::script::eval::all_hold(parts, content, state, ctx)
    })
}

/// [`condition`], asked through an [`Asker`] that shares its work between questions.
pub(crate) fn condition_asked(
    content: &Content,
    state: &State,
    script: (usize, Option<&Memo>),
    e: &Expr,
    asker: &mut Asker,
) -> bool {
    let key = memo_key(content, state, script, asker.ctx());
    condition_by(content, (script.1, e), key, |parts| {
        parts.iter().all(|p| asker.condition(p).unwrap_or(false))
    })
}

/// The number among the remembered scripts of part `part` of hook `index` asked apart from
/// the rest (`hooks::still_asked`, `hooks::StepVerdicts`): 0 its `May`'s condition, 1 and on
/// each of its condition's chain of `and`s (see `Content::hook_part_memos`). From
/// `usize::MAX / 4`, past the hooks' own scripts (numbered from 0, two a hook) and before the
/// play rules' conditions (from `usize::MAX / 2`). None past the room each hook has.
pub(crate) fn part_number(index: usize, part: usize) -> Option<usize> {
    const PARTS: usize = 1 << 16;
    let number = index.checked_mul(PARTS)?.checked_add(part)?;
    (part < PARTS && number < usize::MAX / 4).then(|| usize::MAX / 4 + number)
}

/// The key of a condition's memo (of the whole or of its first part) in a context.
fn memo_key(
    content: &Content,
    state: &State,
    (script, memo): (usize, Option<&Memo>),
    ctx: &Context,
) -> Option<Key> {
    let reads = match memo? {
        Memo::Whole(reads) | Memo::Guard { reads, .. } => reads,
    };
    key(content, state, (script, reads), ctx)
}

/// [`condition`], with its memo's key worked out, and `holds` to ask whether every one of
/// some parts of the condition holds (the whole is its one part).
fn condition_by(
    content: &Content,
    (memo, e): (Option<&Memo>, &Expr),
    key: Option<Key>,
    mut holds: impl FnMut(&[&Expr]) -> bool,
) -> bool {
    let mut eval = |parts: &[&Expr]| Some(i64::from(holds(parts)));
    match memo {
        Some(Memo::Whole(_)) => recall(content, key, || eval(&[e])) == Some(1),
        // Once its guard holds, a chain of `and`s holds when the parts after it do: the guard
        // is not asked again.
        Some(Memo::Guard { depth, .. }) => {
            let (guard, after) = crate::script::reads::split_guard(e, *depth);
            recall(content, key, || eval(&[guard])) == Some(1) && eval(&after) == Some(1)
        }
        None => eval(&[e]) == Some(1),
    }
}

/// The key of a script's reads in a context, if every value read can be put in words.
fn key(
    content: &Content,
    state: &State,
    (script, reads): (usize, &[Read]),
    ctx: &Context,
) -> Option<Key> {
    let mut key = Key::new(script);
    // The reads that find a yes or a no share one word, a bit each in the order of the reads
    // (the same for every key of the script): a card's long list of cards played this turn
    // fits.
    let (mut bits, mut set) = (0u64, 0u32);
    for r in reads {
        if let Some(w) = read_word(content, state, ctx, r)? {
            if r.is_yes_or_no() && set < u64::BITS {
                bits |= w << set;
                set += 1;
            } else {
                key.push(w)?;
            }
        }
    }
    if set > 0 {
        key.push(bits)?;
    }
    Some(key)
}

impl Key {
    /// The key of script `script`, without words yet.
    fn new(script: usize) -> Key {
        Key {
            script,
            len: 0,
            words: [0; WORDS],
        }
    }

    /// Adds a word; none when the key is full.
    fn push(&mut self, w: u64) -> Option<()> {
        *self.words.get_mut(self.len)? = w;
        self.len += 1;
        Some(())
    }
}

/// What one read finds, in a word: none (the outer) when it cannot be put in one, none (the
/// inner) when it reads an id of the content, the same every time.
#[inline]
fn read_word(content: &Content, state: &State, ctx: &Context, r: &Read) -> Option<Option<u64>> {
    Some(Some(match r {
        Read::Flag(f) => u64::from(state.flags.contains(f)),
        Read::Turn => u64::from(state.turn),
        Read::Round => u64::from(state.round),
        Read::Marker { space, marker } => {
            let (space, marker) = (named(ctx, *space)?, named(ctx, *marker)?);
            u64::from(
                state
                    .markers
                    .iter()
                    .any(|m| m.space == space && m.marker == marker),
            )
        }
        Read::Played { card, how } => {
            let card = named(ctx, *card)?;
            match how {
                Played::Ever => u64::from(state.played.contains_key(&card)),
                Played::ThisTurn => u64::from(state.played_this_turn.contains(&card)),
                Played::Turn => u64::from(state.played.get(&card).copied().unwrap_or(0)),
            }
        }
        Read::Control => state.control.stamp(),
        Read::Controls { side, space } => {
            let (side, space) = (named(ctx, *side)?, named(ctx, *space)?);
            u64::from(state.control.get(&space) == Some(&side))
        }
        Read::Name { name, whole, .. } => return given(content, state, ctx, (*name, *whole)),
    }))
}

/// A condition's results kept by step, for a question asked of many steps that differ only
/// in the names `varying` (an SR route's connections, `from` and `to`): the table kept for
/// what the condition (numbered `script`, remembered wholly, with these reads) reads besides
/// those names, with `steps` places, each 0 until a result is put there. None when it reads
/// something else of the varying names than the names themselves (a marker on `from`), when
/// what it reads cannot be put in words, or when the tables are off.
///
/// **Invariant:** a result kept is the one evaluation gives for its step in any context whose
/// other names read the same: the condition is remembered wholly, so its result is a
/// function of its reads, and a step fixes the varying names.
pub(crate) fn step_table(
    content: &Content,
    state: &State,
    (script, reads): (usize, &[Read]),
    ctx: &Context,
    (varying, steps): (&[crate::Id], usize),
) -> Option<(StepTable, usize)> {
    if OFF.with(std::cell::Cell::get) {
        return None;
    }
    let mut key = Key::new(script);
    for r in reads {
        match r {
            Read::Name { name, .. } if varying.contains(name) => continue,
            // What else reads a varying name reads something of the step besides the name.
            _ if names_any(r, varying) => return None,
            _ => {}
        }
        if let Some(w) = read_word(content, state, ctx, r)? {
            key.push(w)?;
        }
    }
    let (id, words) = (content.memo_id(), key.len);
    STEPS.with(|t| {
        let mut t = t.borrow_mut();
        if t.0 != id || t.1.len() >= MOST_STEP_TABLES {
            t.0 = id;
            t.1.clear();
        }
        let table =
            t.1.entry(key)
                .or_insert_with(|| std::rc::Rc::new(RefCell::new(vec![0; steps])));
        let fits = table.borrow().len() == steps;
        fits.then(|| (std::rc::Rc::clone(table), words))
    })
}

/// Whether a read names any of `names`: as a name, or as a marker's space, a card played, a
/// side or a space controlled written as a name.
fn names_any(r: &Read, names: &[crate::Id]) -> bool {
    match r {
        Read::Name { name, .. } => names.contains(name),
        Read::Marker { space, marker } => names.contains(space) || names.contains(marker),
        Read::Played { card, .. } => names.contains(card),
        Read::Controls { side, space } => names.contains(side) || names.contains(space),
        Read::Flag(_) | Read::Turn | Read::Round | Read::Control => false,
    }
}

/// A condition's results by step (see [`step_table`]).
pub(crate) type StepTable = std::rc::Rc<RefCell<Vec<u8>>>;

/// The numbers a point's modifier hooks made by step (see [`PointKey::by_step`]): at each
/// step, the value last asked there and the number made of it, in one word (32 bits each).
pub(crate) struct NumberTable(std::rc::Rc<RefCell<Vec<u64>>>);

impl PointKey {
    /// The numbers kept by step for this key's fixed part and `scale`, in a table of `steps`
    /// places (a unit's steps, numbered by `hooks::step_number`): shared by every question whose fixed part reads the
    /// same, in this prompt or a later one. None when the tables are off, or when what is
    /// read at each step is more than the varying names themselves (a marker on `to`): then
    /// the number is not a function of the step, the value and the fixed part.
    ///
    /// **Invariant:** a number kept at a step for a value is the one [`modified_step`] gives
    /// for that step and value with this key: the hooks are remembered wholly, so the number
    /// is a function of what they read, the value and the scale, and a step fixes the varying
    /// names (spaces, whose fields are the content's).
    pub(crate) fn by_step(
        &self,
        content: &Content,
        scale: i64,
        steps: usize,
    ) -> Option<NumberTable> {
        if OFF.with(std::cell::Cell::get)
            || !self.later.iter().all(|r| matches!(r, Read::Name { .. }))
        {
            return None;
        }
        let mut key = self.key;
        key.push(scale as u64)?;
        let id = content.memo_id();
        NUMBERS.with(|t| {
            let mut t = t.borrow_mut();
            if t.0 != id || t.1.len() >= MOST_NUMBER_TABLES {
                t.0 = id;
                t.1.clear();
            }
            let table = (t.1.entry(key))
                .or_insert_with(|| std::rc::Rc::new(RefCell::new(vec![NO_NUMBER; steps])));
            let fits = table.borrow().len() == steps;
            fits.then(|| NumberTable(std::rc::Rc::clone(table)))
        })
    }
}

/// A place of a [`NumberTable`] where no number was kept.
const NO_NUMBER: u64 = u64::MAX;

impl NumberTable {
    /// The number kept at `step` for `value`, if any.
    pub(crate) fn get(&self, step: usize, value: i64) -> Option<i64> {
        let word = *self.0.borrow().get(step)?;
        let half = |w: u64| i64::from(w as u32 as i32);
        (word != NO_NUMBER && half(word >> 32) == value).then(|| half(word))
    }

    /// Keeps at `step` the number made of `value` (replacing what was kept there); nothing
    /// when either does not fit in 32 bits.
    pub(crate) fn put(&self, step: usize, value: i64, number: i64) {
        let (Ok(v), Ok(n)) = (i32::try_from(value), i32::try_from(number)) else {
            return;
        };
        let word = u64::from(v as u32) << 32 | u64::from(n as u32);
        // Both -1 would read as no number: not kept, asked again.
        if word != NO_NUMBER {
            if let Some(place) = self.0.borrow_mut().get_mut(step) {
                *place = word;
            }
        }
    }
}

const TAG: u32 = 56;

/// The id a bare name stands for, as the script's evaluation finds it (see `Eval::given`): a
/// name the point gives (none when it gives something else than an id), `space`, `me`,
/// `enemy`, else the content's id so spelt. None in a combat, whose names are not remembered.
fn named(ctx: &Context, id: crate::Id) -> Option<crate::Id> {
    if ctx.combat.is_some() {
        return None;
    }
    if let Some((_, v)) = ctx.names.iter().rev().find(|(n, _)| *n == id) {
        return match v {
            Value::Id(_, x) => Some(*x),
            _ => None,
        };
    }
    let [space, me, enemy] = point_names();
    Some(match &ctx.space {
        Some(at) if id == *space => *at,
        _ if id == *me => ctx.me,
        _ if id == *enemy => ctx.enemy,
        _ => id,
    })
}

/// A name's value in a word, found as the script's evaluation finds it (see `Eval::given`):
/// none (the outer) when it cannot be put in one, none (the inner) when the point does not
/// give the name (it is then an id of the content, the same every time). A combat's names
/// (sets of units) make a script not remembered.
fn given(
    content: &Content,
    state: &State,
    ctx: &Context,
    (id, whole): (crate::Id, bool),
) -> Option<Option<u64>> {
    if ctx.combat.is_some() {
        return None;
    }
    if let Some((_, v)) = ctx.names.iter().rev().find(|(n, _)| *n == id) {
        return word(content, state, v, whole).map(Some);
    }
    let side = |id: crate::Id| {
        let sides = &content.game.as_ref()?.sides;
        Some(6 << TAG | sides.iter().position(|s| s.id == id)? as u64)
    };
    // The names compared by address.
    let [space, me, enemy] = point_names();
    match &ctx.space {
        Some(at) if id == *space => Some(Some(space_word(*at)?)),
        _ if id == *me => side(ctx.me).map(Some),
        _ if id == *enemy => side(ctx.enemy).map(Some),
        _ => Some(None),
    }
}

/// `space`, `me` and `enemy` as ids.
fn point_names() -> &'static [crate::Id; 3] {
    static NAMES: std::sync::OnceLock<[crate::Id; 3]> = std::sync::OnceLock::new();
    NAMES.get_or_init(|| ["space", "me", "enemy"].map(crate::Id::new))
}

/// A value in one word, as far as the fields read of it need: a unit by its counter, its
/// step and the side it serves (what its fields but `space` depend on); a space or a side by
/// its place; a number; a truth value.
fn word(content: &Content, state: &State, v: &Value, whole: bool) -> Option<u64> {
    match v {
        Value::Bool(b) => Some(1 << TAG | u64::from(*b)),
        Value::Int(n) if (0..1 << 40).contains(n) => Some(2 << TAG | *n as u64),
        Value::Int(n) if (-(1 << 40)..0).contains(n) => Some(3 << TAG | n.unsigned_abs()),
        Value::Unit(u) => {
            if whole {
                return None;
            }
            let unit = state.units.get(*u)?;
            let counter = content
                .counters
                .get(unit.hint)
                .filter(|c| c.id == unit.counter)
                .map(|_| unit.hint)
                .or_else(|| content.counters.iter().position(|c| c.id == unit.counter))?;
            let serves = unit.serves.map_or(0, |s| s as u64 + 1);
            Some(4 << TAG | (counter as u64) << 24 | serves << 1 | u64::from(unit.reduced))
        }
        Value::Id(Kind::Space, id) => space_word(*id),
        Value::Id(Kind::Side, id) => {
            let sides = &content.game.as_ref()?.sides;
            Some(6 << TAG | sides.iter().position(|s| s.id == *id)? as u64)
        }
        _ => None,
    }
}

/// A space in a word: its id's address, the same for the same text (the key is only compared
/// and hashed, so no order depends on it).
fn space_word(id: crate::Id) -> Option<u64> {
    let addr = id.addr() as u64;
    (addr < 1 << TAG).then_some(5 << TAG | addr)
}

/// A hasher for keys of whole words (the table is never iterated, so the hash changes the
/// order of nothing).
#[derive(Default)]
pub struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_kept_by_step_is_found_only_for_the_value_it_was_made_of() {
        let table = NumberTable(std::rc::Rc::new(RefCell::new(vec![NO_NUMBER; 4])));
        assert_eq!(table.get(0, 2), None, "nothing kept yet");
        table.put(0, 2, 5);
        table.put(1, -3, -7);
        assert_eq!(table.get(0, 2), Some(5));
        assert_eq!(table.get(0, 3), None, "another value");
        assert_eq!(table.get(1, -3), Some(-7), "negative numbers come back");
        table.put(0, 4, 9);
        assert_eq!(
            (table.get(0, 2), table.get(0, 4)),
            (None, Some(9)),
            "replaced"
        );
        table.put(2, -1, -1);
        assert_eq!(
            table.get(2, -1),
            None,
            "the word that means nothing is not kept"
        );
        table.put(3, 1 << 40, 1);
        assert_eq!(table.get(3, 1 << 40), None, "too large for the word");
        table.put(9, 1, 1);
        assert_eq!(table.get(9, 1), None, "no such step");
    }
}
