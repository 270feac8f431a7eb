//! Types of the effect language and the signatures of its builtins.
//!
//! The builtins are the language's whole vocabulary: queries over the game state, effects that
//! change it, modifiers with a duration, decisions, dice and table lookups. Each is declared once
//! here with its parameters, so the checker can resolve every name against the content and check
//! every call before a game is played, and `docs/effect-language.md` documents the same list.

use std::fmt;

/// The kinds of thing a content id can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Space,
    Unit,
    Counter,
    Nation,
    Side,
    Region,
    Terrain,
    Feature,
    Card,
    Deck,
    Table,
    Track,
    Flag,
    Marker,
    Box,
    UnitType,
    Size,
    Season,
    /// A kind of connection between spaces (river, road ...).
    Connection,
    /// How long a modifier lasts: `this_combat`, `next_combat` (the next combat it applies to),
    /// `end_of_round`, `end_of_turn`, `next_draw`,
    /// `rest_of_game`, `until_cancelled` (by `cancel_effects`).
    Duration,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Space => "space",
            Kind::Unit => "unit",
            Kind::Counter => "counter",
            Kind::Nation => "nation",
            Kind::Side => "side",
            Kind::Region => "region",
            Kind::Terrain => "terrain",
            Kind::Feature => "feature",
            Kind::Card => "card",
            Kind::Deck => "deck",
            Kind::Table => "table",
            Kind::Track => "track",
            Kind::Flag => "flag",
            Kind::Marker => "marker",
            Kind::Box => "box",
            Kind::UnitType => "unit type",
            Kind::Size => "unit size",
            Kind::Season => "season",
            Kind::Connection => "connection kind",
            Kind::Duration => "duration",
        }
    }

    /// Kinds whose values are named by ids in the content (all but units).
    pub const NAMED: [Kind; 19] = [
        Kind::Space,
        Kind::Counter,
        Kind::Nation,
        Kind::Side,
        Kind::Region,
        Kind::Terrain,
        Kind::Feature,
        Kind::Card,
        Kind::Deck,
        Kind::Table,
        Kind::Track,
        Kind::Flag,
        Kind::Marker,
        Kind::Box,
        Kind::UnitType,
        Kind::Size,
        Kind::Season,
        Kind::Connection,
        Kind::Duration,
    ];
}

/// The durations a modifier may have.
pub const DURATIONS: [&str; 7] = [
    "this_combat",
    "next_combat",
    "end_of_round",
    "end_of_turn",
    "next_draw",
    "rest_of_game",
    "until_cancelled",
];

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    Int,
    Bool,
    Text,
    Entity(Kind),
    Set(std::boxed::Box<Type>),
    /// A one-parameter function (only as an argument: `|u| u.nation == ge`).
    Fn(std::boxed::Box<Type>, std::boxed::Box<Type>),
    /// Statements and effects.
    Void,
    /// The type of something already reported as wrong (checking goes on quietly).
    Error,
}

impl Type {
    pub fn set(of: Type) -> Type {
        Type::Set(std::boxed::Box::new(of))
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Int => f.write_str("number"),
            Type::Bool => f.write_str("true/false"),
            Type::Text => f.write_str("text"),
            Type::Entity(k) => f.write_str(k.name()),
            Type::Set(t) => write!(f, "set of {t}"),
            Type::Fn(a, r) => write!(f, "function from {a} to {r}"),
            Type::Void => f.write_str("nothing"),
            Type::Error => f.write_str("?"),
        }
    }
}

/// A parameter type in a signature; `T` is the element type a generic builtin works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum P {
    Int,
    Bool,
    Text,
    E(Kind),
    SetOf(Kind),
    /// Any set; binds `T` to its element type.
    SetT,
    /// A set of the bound `T`.
    SameSet,
    /// A value of the bound `T`.
    T,
    /// A function from `T` to true/false.
    Pred,
    /// A space or a box (where a piece goes).
    Place,
}

/// What a builtin returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum R {
    Int,
    Bool,
    Void,
    E(Kind),
    SetOf(Kind),
    /// The same set type as its set argument.
    SetT,
    /// An element of its set argument.
    T,
    /// A number or a symbol, as the table's results are.
    TableResult,
}

/// Where a builtin may be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    /// Anywhere, conditions included: it only reads.
    Query,
    /// In event and combat scripts: it changes the state or asks a player.
    Effect,
    /// Only in a combat card's script.
    Combat,
}

#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: P,
    /// Named parameters are optional and given as `name: value`.
    pub named: bool,
}

#[derive(Debug, Clone, Copy)]
pub struct Builtin {
    pub name: &'static str,
    pub params: &'static [Param],
    pub ret: R,
    pub ctx: Ctx,
    pub doc: &'static str,
}

const fn p(name: &'static str, ty: P) -> Param {
    Param {
        name,
        ty,
        named: false,
    }
}

const fn n(name: &'static str, ty: P) -> Param {
    Param {
        name,
        ty,
        named: true,
    }
}

use Kind as K;

const UNIT_FILTERS: [Param; 9] = [
    n("side", P::E(K::Side)),
    n("nation", P::E(K::Nation)),
    n("type", P::E(K::UnitType)),
    n("size", P::E(K::Size)),
    n("in", P::E(K::Space)),
    n("region", P::E(K::Region)),
    n("box", P::E(K::Box)),
    n("reduced", P::Bool),
    n("counter", P::E(K::Counter)),
];

const SPACE_FILTERS: [Param; 11] = [
    n("country", P::E(K::Region)),
    n("region", P::E(K::Region)),
    n("controlled_by", P::E(K::Side)),
    n("occupied_by", P::E(K::Side)),
    n("terrain", P::E(K::Terrain)),
    n("feature", P::E(K::Feature)),
    n("adjacent_to", P::E(K::Space)),
    n("next_to", P::SetOf(K::Space)),
    n("holding", P::SetOf(K::Unit)),
    n("marker", P::E(K::Marker)),
    n("empty", P::Bool),
];

const MODIFIER_SCOPE: [Param; 6] = [
    n("attacker", P::E(K::Side)),
    n("defender", P::E(K::Side)),
    n("attacker_nation", P::E(K::Nation)),
    n("defender_nation", P::E(K::Nation)),
    n("in", P::E(K::Region)),
    n("until", P::E(K::Duration)),
];

macro_rules! params {
    ($($x:expr),* $(,)?) => { &[$($x),*] };
}

/// Every builtin of the language.
pub static BUILTINS: &[Builtin] = &[
    // --- the game's clock and records
    Builtin { name: "turn", params: &[], ret: R::Int, ctx: Ctx::Query, doc: "The number of the current turn." },
    Builtin { name: "round", params: &[], ret: R::Int, ctx: Ctx::Query, doc: "The number of the current action round." },
    Builtin { name: "season", params: &[], ret: R::E(K::Season), ctx: Ctx::Query, doc: "The season of the current turn." },
    Builtin { name: "year", params: &[], ret: R::Int, ctx: Ctx::Query, doc: "The year of the current turn." },
    Builtin { name: "track", params: params![p("track", P::E(K::Track))], ret: R::Int, ctx: Ctx::Query, doc: "The value of a track." },
    Builtin { name: "flag", params: params![p("flag", P::E(K::Flag))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a flag is set." },
    Builtin { name: "played", params: params![p("card", P::E(K::Card))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a card has been played as an event in this game." },
    Builtin { name: "turn_played", params: params![p("card", P::E(K::Card))], ret: R::Int, ctx: Ctx::Query, doc: "The turn a card was first played as an event, or 0 if it has not been." },
    Builtin { name: "available", params: params![p("counter", P::E(K::Counter))], ret: R::Int, ctx: Ctx::Query, doc: "How many pieces of a counter are not yet in play." },
    Builtin { name: "played_this_turn", params: params![p("card", P::E(K::Card))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a card has been played as an event this turn." },
    Builtin { name: "pile_cards", params: params![p("deck", P::E(K::Deck))], ret: R::SetOf(K::Card), ctx: Ctx::Query, doc: "The cards of a deck's draw pile and discard pile." },
    Builtin { name: "hand_size", params: params![p("side", P::E(K::Side))], ret: R::Int, ctx: Ctx::Query, doc: "How many cards a side holds." },
    // --- the map
    Builtin { name: "spaces", params: &SPACE_FILTERS, ret: R::SetOf(K::Space), ctx: Ctx::Query, doc: "The spaces that pass every filter given (`next_to`: next to any space of a set; `holding`: where any unit of a set stands)." },
    Builtin { name: "units", params: &UNIT_FILTERS, ret: R::SetOf(K::Unit), ctx: Ctx::Query, doc: "The units in play that pass every filter given." },
    Builtin { name: "controller", params: params![p("space", P::E(K::Space))], ret: R::E(K::Side), ctx: Ctx::Query, doc: "The side that controls a space (an error to ask of a neutral space; test `neutral` first)." },
    Builtin { name: "controls", params: params![p("side", P::E(K::Side)), p("space", P::E(K::Space))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a side controls a space." },
    Builtin { name: "neutral", params: params![p("space", P::E(K::Space))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether no side controls a space." },
    Builtin { name: "adjacent", params: params![p("a", P::E(K::Space)), p("b", P::E(K::Space))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether two spaces are joined by a connection." },
    Builtin { name: "has_marker", params: params![p("space", P::E(K::Space)), p("marker", P::E(K::Marker))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a space holds a marker of a kind." },
    Builtin { name: "has_feature", params: params![p("space", P::E(K::Space)), p("feature", P::E(K::Feature))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a space carries a feature (urban, fort, oil ...)." },
    Builtin { name: "in_region", params: params![p("space", P::E(K::Space)), p("region", P::E(K::Region))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a space lies in a region (or a region within it): `contains(spaces(region: r), s)` without listing the spaces." },
    Builtin { name: "full_supply_at", params: params![p("space", P::E(K::Space)), p("nation", P::E(K::Nation))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a unit of a nation would be in Full Supply in a space (where reinforcements may be placed)." },
    Builtin { name: "needed_for_supply", params: params![p("marker", P::E(K::Marker)), p("space", P::E(K::Space))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether some unit on the map would trace less supply without a marker that is a supply source (a beach head that is a unit's only source)." },
    Builtin { name: "in_supply", params: params![p("unit", P::E(K::Unit))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a unit can trace supply (Full or Limited), as the game's supply procedure decides." },
    Builtin { name: "full_supply", params: params![p("unit", P::E(K::Unit))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a unit is in Full Supply." },
    // --- sets
    Builtin { name: "count", params: params![p("set", P::SetT)], ret: R::Int, ctx: Ctx::Query, doc: "How many things a set holds." },
    Builtin { name: "exists", params: params![p("set", P::SetT)], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a set holds anything." },
    Builtin { name: "any", params: params![p("set", P::SetT), p("test", P::Pred)], ret: R::Bool, ctx: Ctx::Query, doc: "Whether some member of a set passes a test." },
    Builtin { name: "all", params: params![p("set", P::SetT), p("test", P::Pred)], ret: R::Bool, ctx: Ctx::Query, doc: "Whether every member of a set passes a test." },
    Builtin { name: "filter", params: params![p("set", P::SetT), p("test", P::Pred)], ret: R::SetT, ctx: Ctx::Query, doc: "The members of a set that pass a test." },
    Builtin { name: "union", params: params![p("a", P::SetT), p("b", P::SameSet)], ret: R::SetT, ctx: Ctx::Query, doc: "The members of either of two sets." },
    Builtin { name: "contains", params: params![p("set", P::SetT), p("member", P::T)], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a set holds a thing." },
    Builtin { name: "min", params: params![p("a", P::Int), p("b", P::Int)], ret: R::Int, ctx: Ctx::Query, doc: "The smaller of two numbers." },
    Builtin { name: "max", params: params![p("a", P::Int), p("b", P::Int)], ret: R::Int, ctx: Ctx::Query, doc: "The larger of two numbers." },
    // --- dice and tables
    Builtin { name: "roll", params: &[], ret: R::Int, ctx: Ctx::Effect, doc: "Rolls one die (the seeded dice of the session)." },
    Builtin {
        name: "lookup",
        params: params![p("table", P::E(K::Table)), n("roll", P::Int), n("number", P::Int), n("row", P::Text), n("strength", P::Int), n("attacker", P::Int), n("defender", P::Int), n("column", P::Text), n("shift", P::Int), n("drm", P::Int)],
        ret: R::TableResult,
        ctx: Ctx::Query,
        doc: "Reads a table: the row from `roll` (with `drm`), `number` or `row`; the column from `strength`, `attacker` and `defender` (odds) or `column`, moved by `shift`.",
    },
    // --- decisions
    Builtin { name: "choose", params: params![p("how_many", P::Int), p("from", P::SetT), n("by", P::E(K::Side)), n("question", P::Text)], ret: R::SetT, ctx: Ctx::Effect, doc: "A player chooses this many members of a set (all of them if it holds fewer); the card's player unless `by` says otherwise; `question` is what the player is asked." },
    Builtin { name: "choose_up_to", params: params![p("how_many", P::Int), p("from", P::SetT), n("by", P::E(K::Side)), n("question", P::Text)], ret: R::SetT, ctx: Ctx::Effect, doc: "A player chooses up to this many members of a set, one at a time, and may stop." },
    Builtin { name: "choose_one", params: params![p("from", P::SetT), n("by", P::E(K::Side)), n("question", P::Text)], ret: R::T, ctx: Ctx::Effect, doc: "A player chooses one member of a set (an error if it is empty: test `exists` first)." },
    Builtin { name: "ask", params: params![p("question", P::Text), n("by", P::E(K::Side))], ret: R::Bool, ctx: Ctx::Effect, doc: "A player answers yes or no." },
    // --- effects on the records
    Builtin { name: "add", params: params![p("track", P::E(K::Track)), p("amount", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "Moves a track by an amount (kept within the track)." },
    Builtin { name: "set", params: params![p("track", P::E(K::Track)), p("value", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "Sets a track (kept within the track)." },
    Builtin { name: "set_flag", params: params![p("flag", P::E(K::Flag)), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "Sets a flag, for good or until the duration given ends." },
    Builtin { name: "clear_flag", params: params![p("flag", P::E(K::Flag))], ret: R::Void, ctx: Ctx::Effect, doc: "Clears a flag." },
    // --- effects on the map
    Builtin { name: "control", params: params![p("space", P::E(K::Space)), p("side", P::E(K::Side))], ret: R::Void, ctx: Ctx::Effect, doc: "Gives a side control of a space." },
    Builtin { name: "place", params: params![p("counter", P::E(K::Counter)), p("at", P::Place), n("count", P::Int), n("reduced", P::Bool), n("serving", P::E(K::Side))], ret: R::Void, ctx: Ctx::Effect, doc: "Takes pieces of a counter not yet in play and puts them on a space or in a box (serving a side, for a neutral's units)." },
    Builtin { name: "move", params: params![p("unit", P::E(K::Unit)), p("to", P::Place)], ret: R::Void, ctx: Ctx::Effect, doc: "Moves a unit to a space or a box." },
    Builtin { name: "reduce", params: params![p("unit", P::E(K::Unit))], ret: R::Void, ctx: Ctx::Effect, doc: "Flips a full-strength unit to its reduced step (a reduced unit is eliminated)." },
    Builtin { name: "restore", params: params![p("unit", P::E(K::Unit))], ret: R::Void, ctx: Ctx::Effect, doc: "Flips a reduced unit to its full-strength step." },
    Builtin { name: "eliminate", params: params![p("unit", P::E(K::Unit)), n("to", P::E(K::Box))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a unit in its side's eliminated box (or the box given), marked with the theatres it was eliminated in (the play rule `theatres`)." },
    Builtin { name: "to_turn_track", params: params![p("unit", P::E(K::Unit)), p("turns", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a unit on its side's turn track (the box for units that wait) for some turns; then it reaches the eliminated box. It counts as eliminated out of supply for its theatres (the play rule `theatres`)." },
    Builtin { name: "remove_from_game", params: params![p("unit", P::E(K::Unit))], ret: R::Void, ctx: Ctx::Effect, doc: "Removes a unit from the game for good." },
    Builtin { name: "replace", params: params![p("unit", P::E(K::Unit)), p("with", P::E(K::Counter))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a piece of another counter where a unit stands, and removes the unit from the game." },
    Builtin { name: "place_marker", params: params![p("marker", P::E(K::Marker)), p("space", P::E(K::Space)), n("level", P::Int), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a marker on a space (raising its level if one is there); with `until` it comes off when that duration ends." },
    Builtin { name: "place_markers", params: params![p("marker", P::E(K::Marker)), p("spaces", P::SetOf(K::Space))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a marker on each space of a set." },
    Builtin { name: "remove_marker", params: params![p("marker", P::E(K::Marker)), p("space", P::E(K::Space))], ret: R::Void, ctx: Ctx::Effect, doc: "Takes a marker off a space." },
    // --- cards
    Builtin { name: "draw", params: params![p("side", P::E(K::Side)), p("how_many", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "A side draws cards from its draw pile." },
    Builtin { name: "discard_random", params: params![p("side", P::E(K::Side)), p("how_many", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "A side discards cards from its hand at random." },
    Builtin { name: "shuffle_in_set_aside", params: params![p("deck", P::E(K::Deck))], ret: R::Void, ctx: Ctx::Effect, doc: "Shuffles a deck's set-aside cards (a group not yet in play), its discards and its draw pile together into its draw pile." },
    Builtin { name: "reveal_hand", params: params![p("side", P::E(K::Side))], ret: R::Void, ctx: Ctx::Effect, doc: "A side shows its hand to the other until the end of the turn." },
    Builtin { name: "take_card", params: params![p("card", P::E(K::Card)), p("side", P::E(K::Side))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a card into a side's hand from wherever it is (draw pile, discards, set aside)." },
    Builtin { name: "hand_limit", params: params![p("side", P::E(K::Side)), p("change", P::Int), n("from_turn", P::Int), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "Changes a side's hand limit for the next Draw phase (or the duration given; from the turn `from_turn` on if given)." },
    // --- modifiers
    Builtin { name: "drm", params: &FIRE_MODIFIER, ret: R::Void, ctx: Ctx::Effect, doc: "A die-roll modifier to the fire of the card's player (or of the side `fire` names) (in a combat card: this combat; in an event: the attacks that fit the scope, until the duration ends)." },
    Builtin { name: "shift", params: &FIRE_MODIFIER, ret: R::Void, ctx: Ctx::Effect, doc: "A column shift of the card's player's fire, with the same scope and duration as `drm`." },
    Builtin { name: "cancel_no_retreat", params: &MODIFIER_SCOPE, ret: R::Void, ctx: Ctx::Effect, doc: "Defenders in scope may not cancel a retreat by taking a step loss." },
    Builtin { name: "allow_no_retreat", params: &MODIFIER_SCOPE, ret: R::Void, ctx: Ctx::Effect, doc: "Defenders in scope may cancel a retreat by taking a step loss whatever their terrain." },
    Builtin { name: "cancel_effects", params: params![p("card", P::E(K::Card))], ret: R::Void, ctx: Ctx::Effect, doc: "Ends every modifier and timed flag a card made, whatever its duration (a card that cancels another's effect)." },
    Builtin { name: "terrain_as", params: params![p("terrain", P::E(K::Terrain))], ret: R::Void, ctx: Ctx::Combat, doc: "The defending space fights this combat as this terrain (its terrain effects, retreat and advance included)." },
    Builtin { name: "ignore_feature", params: params![p("feature", P::E(K::Feature)), n("at", P::E(K::Space)), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "A feature of the defending space (a fort) has no combat effect: in a combat card for this combat; in an event for the combats at `at` until the duration ends (`next_combat` if none is given)." },
    Builtin { name: "roll_modifier", params: params![p("table", P::E(K::Table)), p("amount", P::Int), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "Every roll of the card's player on a table is modified by an amount (for the rest of the game unless `until` says otherwise)." },
    Builtin { name: "set_hand_limit", params: params![p("side", P::E(K::Side)), p("size", P::Int), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "A side's hand is this many cards at the next Draw phase (or until the duration given), whatever the limits." },
    Builtin { name: "reveal_cards", params: params![p("side", P::E(K::Side)), p("cards", P::SetOf(K::Card))], ret: R::Void, ctx: Ctx::Effect, doc: "A side shows those of these cards it holds, until the end of the turn." },
    Builtin { name: "discard_card", params: params![p("side", P::E(K::Side)), p("card", P::E(K::Card))], ret: R::Void, ctx: Ctx::Effect, doc: "A side discards a card it holds (back into the draw pile for a deck that returns played cards)." },
    Builtin { name: "flag_unit", params: params![p("unit", P::E(K::Unit)), p("flag", P::E(K::Flag)), n("until", P::E(K::Duration))], ret: R::Void, ctx: Ctx::Effect, doc: "Sets a flag on one unit until a duration ends (`end_of_round` if none is given): the army an event chose." },
    Builtin { name: "clear_unit_flag", params: params![p("unit", P::E(K::Unit)), p("flag", P::E(K::Flag))], ret: R::Void, ctx: Ctx::Effect, doc: "Takes a flag off one unit, whatever its duration (a unit no longer where the flag's rule put it)." },
    Builtin { name: "unit_flag", params: params![p("unit", P::E(K::Unit)), p("flag", P::E(K::Flag))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a flag is set on a unit." },
    Builtin { name: "hand", params: params![p("side", P::E(K::Side))], ret: R::SetOf(K::Card), ctx: Ctx::Query, doc: "The cards a side holds." },
    Builtin { name: "pick_random", params: params![p("how_many", P::Int), p("from", P::SetT)], ret: R::SetT, ctx: Ctx::Effect, doc: "This many members of a set drawn at random with the seeded dice (all of them if it holds fewer)." },
    Builtin { name: "clear_control", params: params![p("space", P::E(K::Space))], ret: R::Void, ctx: Ctx::Effect, doc: "No side controls a space any more." },
    Builtin { name: "marker_level", params: params![p("space", P::E(K::Space)), p("marker", P::E(K::Marker))], ret: R::Int, ctx: Ctx::Query, doc: "The level of a marker on a space (0 when none is there)." },
    Builtin { name: "distance", params: params![p("a", P::E(K::Space)), p("b", P::E(K::Space))], ret: R::Int, ctx: Ctx::Query, doc: "How many connections the shortest way along the map from one space to another crosses (0 from a space to itself; -1 when none joins them)." },
    Builtin { name: "path", params: params![p("a", P::E(K::Space)), p("b", P::E(K::Space))], ret: R::SetOf(K::Space), ctx: Ctx::Query, doc: "The spaces of a shortest way along the map from one space to another, both ends included (empty when none joins them)." },
    Builtin { name: "supply_level", params: params![p("unit", P::E(K::Unit))], ret: R::Int, ctx: Ctx::Query, doc: "A unit's supply level as the game's supply procedure traces it: 2 Full, 1 Limited, 0 Out." },
    Builtin { name: "mp_left", params: params![p("unit", P::E(K::Unit))], ret: R::Int, ctx: Ctx::Query, doc: "The whole movement points a unit has left in the movement under way (its allowance, as the `Movement` hooks change it, before it moves)." },
    Builtin { name: "connected_by", params: params![p("a", P::E(K::Space)), p("b", P::E(K::Space)), p("kind", P::E(K::Connection))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether two spaces are joined by a connection of a kind (a river, a defence line)." },
    Builtin { name: "out_of_supply", params: params![p("unit", P::E(K::Unit))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a unit was found out of supply by the last supply step of a zone game (or put out of supply by `set_out_of_supply`)." },
    Builtin { name: "activated", params: params![p("unit", P::E(K::Unit))], ret: R::Bool, ctx: Ctx::Query, doc: "Whether a unit has been activated in an impulse this turn." },
    Builtin { name: "impulse", params: &[], ret: R::Int, ctx: Ctx::Query, doc: "The impulse under way, counted from 1 in its operations phase (0 outside the impulses, or before its side has acted)." },
    Builtin { name: "set_out_of_supply", params: params![p("unit", P::E(K::Unit))], ret: R::Void, ctx: Ctx::Effect, doc: "Puts a unit out of supply until the next supply step (a unit placed out of supply on purpose, a destroyed bridge)." },
    Builtin { name: "set_marker_level", params: params![p("marker", P::E(K::Marker)), p("space", P::E(K::Space)), p("level", P::Int)], ret: R::Void, ctx: Ctx::Effect, doc: "Sets the level of a marker on a space (0 takes it off)." },
    Builtin { name: "end_game", params: params![n("winner", P::E(K::Side))], ret: R::Void, ctx: Ctx::Effect, doc: "Ends the game at once: won by `winner`, or lost by every side when none is named." },
    Builtin { name: "step_loss", params: params![p("unit", P::E(K::Unit))], ret: R::Void, ctx: Ctx::Combat, doc: "A unit in this combat loses a step before combat is resolved." },
];

/// A modifier of fire (`drm`, `shift`): the amount, whose fire, and the combats it applies to.
const FIRE_MODIFIER: [Param; 11] = [
    p("amount", P::Int),
    n("at", P::E(K::Space)),
    n("attacker_counter", P::E(K::Counter)),
    n("except_defender_nation", P::E(K::Nation)),
    n("fire", P::E(K::Side)),
    n("attacker", P::E(K::Side)),
    n("defender", P::E(K::Side)),
    n("attacker_nation", P::E(K::Nation)),
    n("defender_nation", P::E(K::Nation)),
    n("in", P::E(K::Region)),
    n("until", P::E(K::Duration)),
];

/// The builtin of a name.
pub fn builtin(name: &str) -> Option<&'static Builtin> {
    type ByName = std::collections::HashMap<
        &'static str,
        &'static Builtin,
        std::hash::BuildHasherDefault<crate::content::IdHash>,
    >;
    static BY_NAME: std::sync::OnceLock<ByName> = std::sync::OnceLock::new();
    BY_NAME
        .get_or_init(|| BUILTINS.iter().rev().map(|b| (b.name, b)).collect())
        .get(name)
        .copied()
}

/// Fields of values, by the kind of the value: name, type. A unit has the game's stats as
/// fields, a space the game's space properties (`props`, with their types).
pub fn field(kind: Kind, name: &str, stats: &[String], props: &[(String, Type)]) -> Option<Type> {
    use Type::*;
    if kind == Kind::Space {
        if let Some((_, t)) = props.iter().find(|(p, _)| p == name) {
            return Some(t.clone());
        }
    }
    Some(match (kind, name) {
        (Kind::Unit, "nation") => Entity(Kind::Nation),
        (Kind::Unit, "side") => Entity(Kind::Side),
        (Kind::Unit, "type") => Entity(Kind::UnitType),
        (Kind::Unit, "size") => Entity(Kind::Size),
        (Kind::Unit, "counter") => Entity(Kind::Counter),
        (Kind::Unit, "space") => Entity(Kind::Space),
        (Kind::Unit, "reduced") => Bool,
        (Kind::Unit, stat) if stats.iter().any(|s| s == stat) => Int,
        (Kind::Space, "country") => Entity(Kind::Region),
        (Kind::Space, "terrain") => Entity(Kind::Terrain),
        (Kind::Space, "vp") => Int,
        (Kind::Counter, "nation") => Entity(Kind::Nation),
        (Kind::Counter, "type") => Entity(Kind::UnitType),
        (Kind::Counter, "size") => Entity(Kind::Size),
        (Kind::Counter, "pieces") => Int,
        (Kind::Card, "ops") => Int,
        _ => return None,
    })
}
