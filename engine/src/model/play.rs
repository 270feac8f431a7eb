//! The play rules of `game.ron`: the names and numbers the general procedures read.

use super::*;

/// The parameters of the general procedures of play.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayRules {
    /// The stat that is a unit's combat strength.
    pub strength: String,
    /// The stat that is a unit's loss factor (the loss a step absorbs).
    pub loss_factor: String,
    /// The stat that is a unit's movement allowance.
    pub movement: String,
    /// The card value that gives a card's operations and SR points.
    pub ops_value: String,
    /// The operations value of an action taken without a card.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_ops: Option<u32>,
    /// Connection kinds a unit may move, retreat and advance across.
    pub move_kinds: Vec<String>,
    /// Connection kinds strategic redeployment may cross; `sea_kinds` among them only small
    /// units may cross, and they stop there.
    pub sr_kinds: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sea_kinds: Vec<String>,
    /// The markers that activate a space for movement and for combat.
    pub move_marker: crate::Id,
    pub combat_marker: crate::Id,
    /// Unit types that are mechanized (move then attack, advance further).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mechanized: Vec<String>,
    /// The fire tables: a side fires on the first whose size is among its units (a table
    /// with no size fits any force).
    pub fire_tables: Vec<FireTable>,
    /// The terrain effects table: a row per terrain, trench level (`<marker>_<level>`) or
    /// feature, with the fields attacker_shift, defender_shift, no_retreat, mech_stop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terrain_table: Option<String>,
    /// Markers that fortify a space (trenches); their row is `<marker>_<level>` or `<marker>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trench_markers: Vec<String>,
    /// Column shift of a side's fire when any of its units in the combat is out of supply.
    #[serde(default, skip_serializing_if = "is_default")]
    pub oos_shift: i32,
    /// Retreat length: one space when the loss numbers differ by one, else this many.
    pub max_retreat: u32,
    /// Combat cards played from the hand are kept face up by the side that wins the combat,
    /// to be used again in later combats (each once in a side's action round), until it loses
    /// a combat with them or the turn ends; else every card played is discarded (7.64).
    #[serde(default, skip_serializing_if = "is_default")]
    pub combat_cards_kept: bool,
    /// How far mechanized units may advance after a combat (non-mechanized: into the
    /// defender's space only).
    pub mech_advance: u32,
    /// Unit types that advance at most one space.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_advance: Vec<String>,
    /// SR points it costs to redeploy a unit of each size.
    pub sr_costs: Vec<SizeCost>,
    /// Replacement point pools: the track that holds them, the card value that fills them,
    /// the nations they rebuild.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacements: Vec<ReplacementPool>,
    /// Half replacement points a step costs, by unit size.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rp_half_costs: Vec<SizeCost>,
    /// Which small unit replaces a large unit that is eliminated from its reduced step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub step_down: Vec<StepDown>,
    /// The size of unit that steps down to a smaller one when eliminated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub large_size: Option<String>,
    /// The counter flag of units that may not be rebuilt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub non_replaceable: Option<String>,
    /// The feature of a fort: it fortifies its space (the terrain table's row of that name)
    /// and keeps control of it through attrition.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fort: Option<String>,
    /// Spaces a side may not enter or attack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_entry: Vec<NoEntry>,
    /// Spaces a side may not attack until a flag is set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_bans: Vec<AttackBan>,
    /// Hand size: a side's hand-limit track and the table of its minimum and maximum by turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hands: Vec<HandRule>,
    /// Stand Fast orders: units may leave a space holding this marker only at a price in
    /// victory points, unless they retreat, advance, or first enter an enemy-controlled space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stand_fast: Option<StandFast>,
    /// Mandated offensives: while its flag is set a side owes an attack, or the capture of a
    /// space, by units of the nations named; the flag clears as soon as one is made.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub offensives: Vec<Offensive>,
    /// Markers that hinder one side where they stand (partisans): supply traced through the
    /// space is only Limited; strategic redeployment may not enter, leave or cross it; a
    /// retreat avoids it when it can and halts there when it cannot (11.44).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hindering_markers: Vec<HinderingMarker>,
    /// Extra activation costs of particular units (PanzerArmee Afrika outside Libya).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub activation_extra: Vec<ActivationExtra>,
    /// On the listed turns, units of these nations that retreat the full length may not end
    /// their retreat next to the space they defended (B2B 4.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat_away: Vec<RetreatAway>,
    /// Entrenchment: in a space activated for movement, a unit of some nations and sizes may
    /// try to entrench instead of moving; the try is made when movement ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrench: Option<Entrench>,
    /// While a flag is set, units of some nations in a region are at best in Limited Supply
    /// (Winter 42, 15.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub limited_while: Vec<Demechanized>,
    /// Units of some nations always in Full Supply: in their home regions, or anywhere.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always_supplied: Vec<AlwaysSupplied>,
    /// Defenders of some nations that keep only their trenches' benefits: while a flag is set,
    /// in a region, or in a space with a marker (Winter 42, 15.2; partisans, 16.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrain_lost: Vec<TerrainLost>,
    /// Where else the defenders may cancel a retreat by losing a step, besides the terrain
    /// table's `no_retreat` (Antwerp if Allied controlled; an attack solely across the
    /// Skagerrak, 11.42): a condition with `defending_space`, `attackers` and `defenders`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub hold_also: String,
    /// Counters that must take their side's first step loss when they attack, if they can
    /// (the Soviet Southwest Front, 11.32).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_first_loss: Vec<String>,
    /// Defenders of these nations out of supply receive no benefit from trench markers in their
    /// space (13.42).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub trenches_need_supply: Vec<String>,
    /// Markers that move by strategic redeployment (Stalin, 5.5): the side, the SR points it
    /// costs, and a condition on the destination (named `space`), read before the marker moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sr_markers: Vec<SrMarker>,
    /// Where units of some nations or counters (of some sizes) also enter from a box,
    /// redeployed out of the reserve or rebuilt, besides the capitals, urban centres and own
    /// supply sources of their home regions: the spaces a condition on `space` allows; or the
    /// only spaces where they enter. The space must still be the side's, in Full Supply
    /// (unless the entry asks less) and with room.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub box_entries: Vec<BoxEntry>,
    /// Neutral spaces a side's strategic redeployment may cross and end in while a flag is set;
    /// each neutral space the route crosses becomes the side's (Axis SR into Tunis via
    /// Syracuse, and into Marseilles, once Vichy France is at war, 17.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sr_neutrals: Vec<SrNeutral>,
    /// Theatres of war: where a unit was eliminated, by the supply sources it traced to, and
    /// so where it may be rebuilt (the Western Allies' Mediterranean and Northwest Europe,
    /// 14.2, 14.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub theatres: Vec<Theatre>,
    /// Neutral spaces of some regions that either side may enter (and so take) once a flag is
    /// set (Vichy France once it is in the war, 17.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub open_neutrals: Vec<OpenNeutral>,
    /// The marker that records a fort destroyed: a fort whose space changes hands gets one,
    /// and no longer fortifies its space nor holds it through attrition (10.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fort_destroyed: Option<String>,
    /// Markers that are supply sources for some nations where they stand (beach heads): Full
    /// Supply within `full_within` spaces of the marker, Limited beyond (13.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marker_sources: Vec<MarkerSource>,
    /// Markers captured with their space: when a side takes control of a space holding one,
    /// the marker comes off and the victory track moves by `vp` (Stalin, 5.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub captured_markers: Vec<CapturedMarker>,
    /// How many cards a side may play for replacement points in a turn, on some turns.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rp_card_limits: Vec<RpCardLimit>,
    /// How many steps of some units may be rebuilt in a turn (German Panzers, 14.52).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replacement_caps: Vec<ReplacementCap>,
    /// While a flag is set, units of some nations in a region are not mechanized (Winter 42).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub demechanized: Vec<Demechanized>,
    /// Large units eliminated out of supply wait on the turn track for this many turns before
    /// they reach the eliminated box, and take a small unit of theirs from the reserve with
    /// them (or leave the game when there is none) (13.44).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oos_delay: Option<OosDelay>,
    /// Where units may operate: a unit a rule names may move, retreat, advance and be
    /// redeployed only into the rule's regions (national restrictions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operate_in: Vec<OperateIn>,
    pub victory: Victory,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Entrench {
    pub side: String,
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// A condition in the effect language on the space (named `space`): may a unit there try?
    pub playable: String,
    /// What a try does, in the effect language (`space` is the space).
    pub effect: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MarkerSource {
    pub marker: String,
    pub nations: Vec<crate::Id>,
    pub full_within: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CapturedMarker {
    pub marker: String,
    /// The side whose taking the space captures it.
    pub by: String,
    /// The change of the victory track.
    pub vp: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RpCardLimit {
    pub side: String,
    /// From turn `from` to turn `to`, both included.
    pub from: u32,
    pub to: u32,
    pub max: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementCap {
    pub nations: Vec<crate::Id>,
    pub types: Vec<crate::Id>,
    /// Steps a turn ...
    pub steps: u32,
    /// ... or this many from the turn after a card's event was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after_card: Option<(String, u32)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OpenNeutral {
    pub regions: Vec<String>,
    pub flag: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SrMarker {
    pub marker: String,
    pub side: String,
    pub cost: u32,
    /// Where it may go: a condition in the effect language with the destination `space`.
    pub to: String,
}

/// Spaces where units of some nations or counters enter from a box besides their home
/// country; or, with `only`, the only spaces where they do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BoxEntry {
    /// Units of these nations ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<String>,
    /// ... or of these counters ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<String>,
    /// ... of these sizes (any if none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// Where they may enter: a condition in the effect language with the space `space`.
    pub to: String,
    /// At most this many units enter a space by SR out of the box in one action round where
    /// only such limited entries open it (one German SCU a Wehrkreis space, 12.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_round: Option<u32>,
    /// Only for units rebuilt out of the eliminated box, not for units redeployed out of the
    /// reserve.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rebuilt: bool,
    /// The units it names enter only where this entry (or another `only` entry for them)
    /// allows: not in their home country, nor where other entries allow.
    #[serde(default, skip_serializing_if = "is_default")]
    pub only: bool,
    /// The least supply the space must have: `Full`, or `Limited` for any supply at all.
    #[serde(default, skip_serializing_if = "is_default")]
    pub supply: SupplyLevel,
    /// The rule it follows, for the designer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// Where an SR route may go into neutral spaces (see `PlayRules::sr_neutrals`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SrNeutral {
    pub sides: Vec<String>,
    /// Only while this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// A condition with the spaces `from` and `to`: the route may cross from `from` into the
    /// neutral space `to` (once in a neutral space it goes on only into neutral spaces).
    pub enter: String,
    /// A condition on `space`: the neutral spaces the route may end in.
    pub end: String,
    /// The rule it follows, for the designer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// A theatre of war: where a unit was eliminated says where it may be rebuilt. A unit of the
/// theatre's nations (and sizes) eliminated while it traces supply to a source whose space
/// fits `sources` belongs to it; one that traces to sources of several theatres, or to none
/// (eliminated out of supply, or waiting on a turn track as if it were), belongs to each
/// theatre that names it, and its side chooses among them when it rebuilds it. A rebuilt unit
/// enters only in spaces that fit `places` of one of its theatres, among those it may enter
/// from the box.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Theatre {
    pub id: String,
    pub name: String,
    pub nations: Vec<String>,
    /// Only units of these sizes (any if none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// The supply sources of the theatre: a condition in the effect language on the source's
    /// space (`space`), a space with a source of the map or a marker that is one.
    pub sources: String,
    /// Where its units are rebuilt: a condition in the effect language with the space `space`.
    pub places: String,
    /// The rule it follows, for the designer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainLost {
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub marker: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlwaysSupplied {
    pub nations: Vec<crate::Id>,
    /// Anywhere, not only in their home regions.
    #[serde(default, skip_serializing_if = "is_default")]
    pub anywhere: bool,
}

/// A rule in force while a flag is set, for units of some nations in a region.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Demechanized {
    pub flag: String,
    pub nations: Vec<crate::Id>,
    pub region: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OosDelay {
    pub turns: u32,
    /// Nations whose large units go to the eliminated box at once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_nations: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HinderingMarker {
    pub marker: crate::Id,
    /// The side it hinders.
    pub side: crate::Id,
    #[serde(default, skip_serializing_if = "is_default")]
    pub limits_supply: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub blocks_sr: bool,
    /// A retreat of the side enters its space only when no other is open, and stops there.
    #[serde(default, skip_serializing_if = "is_default")]
    pub halts_retreat: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActivationExtra {
    /// A space holding a unit of one of these counters, or of these nations and sizes, costs
    /// more to activate ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<crate::Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<crate::Id>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<crate::Id>,
    /// ... when it lies outside this region (anywhere, if none) ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
    /// ... or inside this one ...
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub within: Option<String>,
    /// ... and, if this is set, only when that unit is not in Full Supply ...
    #[serde(default, skip_serializing_if = "is_default")]
    pub unless_full_supply: bool,
    /// ... and, if these are given, only when its supply traces through one of these spaces
    /// (it would trace less without them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tracing_through: Vec<String>,
    /// The cost: once for the space, or once for each such unit ...
    pub cost: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub per_unit: bool,
    /// ... up to this much for the space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RetreatAway {
    pub nations: Vec<String>,
    pub turns: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StandFast {
    pub marker: String,
    /// Victory points the owning side pays to leave such a space by a move.
    pub exit_vp: u32,
    /// After this card's event, units of these nations pay each, and the marker stays (the
    /// Bomb Plot, 8.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_unit_after: Option<(String, Vec<String>)>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Offensive {
    /// Set (by the orders script) while the offensive is owed.
    pub flag: String,
    pub side: String,
    /// Units of these nations meet it.
    pub nations: Vec<String>,
    /// If given, only attacks by units of these sizes count (captures by any unit do).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attack_sizes: Vec<String>,
    /// If given, the attack or the capture must be outside this region.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outside: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OperateIn {
    /// The units the rule binds: of these nations, or these counters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counters: Vec<String>,
    /// Only units of these sizes (all sizes if empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sizes: Vec<String>,
    /// Counters the rule does not bind (a unit with a rule of its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except_counters: Vec<String>,
    /// The regions they may be in (anywhere, if empty and no `spaces` are given) ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// ... or these spaces besides (beaches off a region's coast) ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
    /// ... and the regions they may not be in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_regions: Vec<String>,
    /// The rule is lifted while this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
    /// The rule's number, for messages.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FireTable {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    pub table: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SizeCost {
    pub size: crate::Id,
    pub cost: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReplacementPool {
    pub track: String,
    /// The card value that adds to the pool (defaults to the track's id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    pub nations: Vec<crate::Id>,
    /// The pool fills only while this flag is set (U.S. RPs while the U.S. is at war).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// A condition in the effect language: while it does not hold, each card fills the pool
    /// by one point less (Moscow, 14.55).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub less_one_unless: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepDown {
    /// Large units of these nations (and, if given, unit types) ...
    pub nations: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    /// ... are replaced by a small unit of one of these nations and types.
    pub by_nations: Vec<String>,
    pub by_types: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoEntry {
    pub side: crate::Id,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub terrains: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<crate::Id>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackBan {
    pub side: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<String>,
    /// The ban is lifted when this flag is set.
    pub until_flag: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct HandRule {
    pub side: String,
    /// The track that holds the side's hand size.
    pub track: String,
    /// A table by turn with the columns `min` and `max`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<String>,
}

/// How the game is won.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Victory {
    /// The victory point track, and the side whose gains raise it.
    pub track: String,
    pub raised_by: String,
    /// Automatic victories checked at the end of a turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub automatic: Vec<AutomaticVictory>,
    /// Who wins when the last turn ends without an automatic victory.
    pub at_end: String,
    /// Spaces whose victory points count for another side than their controller's while a
    /// marker stands there and a condition holds (partisans on a VP space).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub counts_as: Vec<CountsAs>,
}

/// A space's victory points count for `side` while `marker` stands there and `when` (a
/// condition in the effect language with the space `space`) holds, whoever controls it. The
/// victory track follows at once, both ways.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CountsAs {
    pub side: String,
    pub marker: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// The rule it follows, for the designer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AutomaticVictory {
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_least: Option<i32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<i32>,
    /// Won when this condition (in the effect language) holds at the end of one of the side's
    /// actions (the Allies holding every Axis supply source in Germany, 5.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub when: Option<String>,
    /// No such victory once this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unless_flag: Option<String>,
}
