//! The sequence of play in `game.ron`: phases and their steps, operations in impulses, action
//! rounds.

use super::*;

/// A phase of the sequence of play: steps run in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    pub id: String,
    pub name: String,
    /// The rule that describes it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
    pub steps: Vec<Step>,
    /// Turns on which the phase is skipped (the first turn's Orders Phase).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skip_turns: Vec<u32>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// One step of a phase: a general procedure with its parameters, or a script.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum Step {
    /// Action rounds: the sides take one action each, in this order, `rounds` times.
    ActionRounds(ActionRounds),
    /// Statements in the effect language, run for a side (its `me`).
    Script { side: String, effect: String },
    /// A side's units out of supply are eliminated, and its spaces that could not trace
    /// supply pass to the enemy (spaces with a friendly fort excepted).
    Attrition(String),
    /// A side spends the replacement points it gathered this turn; what is left is lost.
    Replacements(String),
    /// A side may discard cards, then draws up to its hand size.
    Draw(String),
    /// Automatic victory by the victory track, or the end of the scenario.
    CheckVictory,
    /// Durations that last the turn end, and the turn marker advances.
    EndTurn,
    /// Operations in impulses (a zone game's Operations Phase): in each impulse a side
    /// activates some of its units in movement, combat or reserve mode; the phase repeats until
    /// its end test says so. See [`Impulses`].
    Impulses(Box<Impulses>),
    /// Which units can trace supply, by the rules given: the others are out of supply until
    /// the next such step (their strength halved, their movement limited, as the impulse rules
    /// say).
    TraceSupply(ZoneSupply),
    /// A free set-up: on the scenario's first turn a side takes up its units in a region and
    /// sets each of them up again wherever it likes in the region. See [`Deploy`].
    Deploy(Deploy),
}

/// A side's free deployment within a region, on the first turn of play (the turn the scenario
/// starts on). Each of the side's units on the map in the region is taken up, then the side
/// puts them back one at a time on any space of the region it could move into and stop in
/// (no enemy unit, the stacking limits, where it may operate, the `MayMove` and `MayStop`
/// hooks with the space as both ends), the space it was set up on offered first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Deploy {
    pub side: String,
    pub region: String,
    /// Only while this flag is set (the optional rule that allows it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub while_flag: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// The parameters of operations in impulses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Impulses {
    /// The impulses of one operations phase, in order.
    pub impulses: Vec<Impulse>,
    /// How many units an impulse may activate.
    pub units: u32,
    /// More units while a flag is set (an event chit).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more_units: Vec<FlagUnits>,
    /// The stats of strength and movement.
    pub strength: String,
    pub movement: String,
    /// The stat of defence strength, where it differs from `strength` (which then attacks).
    #[serde(default, skip_serializing_if = "is_default")]
    pub defence: String,
    /// The track that counts the operations phases of the turn (set to 1 when they start).
    pub track: String,
    /// Run after each operations phase (the end-of-phase test), for the first impulse's side:
    /// the phases end when it sets `end_flag` (which is then cleared).
    pub end_test: String,
    pub end_flag: String,
    /// Impulses (counted from 0) which, when all are passed in one phase, end the operations
    /// after that phase whatever the test (4.1.5).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pass_ends: Vec<usize>,
    /// Most operations phases in a turn (a guard; the end test normally ends them sooner).
    pub max_phases: u32,
    pub movement_rules: ImpulseMovement,
    pub combat: OddsCombat,
    /// Combat inside contested spaces that cannot be attacked from outside (a city).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<CityCombat>,
    /// Nations whose counters of several pieces (a Soviet army's two) must keep their pieces
    /// in one space or next to each other: a piece apart from the others when its impulse
    /// begins may only be activated to move, and only towards them, until it rejoins (7.3.1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cohesion: Vec<String>,
    /// Orders a side must obey in an impulse while a flag is set (Hitler's counter-attacks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub orders: Vec<AttackOrder>,
    /// Cards a side may play in a combat, before the die is rolled, with their combat script.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reactions: Vec<Reaction>,
    /// While one of these flags is set when a combat is resolved, the defenders retreat before
    /// combat without losses and the attackers advance (Heinrici).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evade_flags: Vec<String>,
    /// While one of these flags is set, units activated in movement mode may also attack
    /// after moving (an event's trucks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub move_and_attack: Vec<String>,
    /// Nations whose units entering a space with victory points give it to their side, until
    /// a unit of a hostile nation enters it (7.3.4).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub capturers: Vec<String>,
    /// Whether a unit entering a space gives it to its side from whoever held it (the last
    /// side to pass a unit through a space holds it: a city's points, the spaces behind a
    /// side's front), rather than by `capturers`.
    #[serde(default, skip_serializing_if = "is_default")]
    pub last_through_holds: bool,
    /// Run at the end of an impulse for each unit activated in it that neither moved nor
    /// fought, for its side, with the unit as `u` (the shelling of Berlin, 10.2.1).
    #[serde(default, skip_serializing_if = "is_default")]
    pub idle: String,
    /// Units that must leave where they stand, or may only be activated to leave it (a unit
    /// forced across a line, among units it may not stand with, into a closed space).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leave: Vec<LeaveRule>,
    /// After the last phase, every unit not activated this turn and in supply may move one
    /// space, impulse by impulse, but not into these regions; the movement test's restriction
    /// holds without a roll on the turns the test may fail (5.1, 7.2.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_move: Option<EndMove>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// An order to attack: while `flag` is set, in impulse `impulse` (counted from 0) the side must
/// activate in combat mode, and attack with, `units` of its units able to attack (fewer if fewer
/// can), one of them of the `prefer_types` if one can; units for which `exempt` holds (a
/// condition on `u`) are not bound. The flag is cleared when that impulse ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackOrder {
    pub flag: String,
    pub impulse: usize,
    pub units: u32,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefer_types: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub exempt: String,
    /// When none of the units it binds can attack, as many of those that can reach a space
    /// next to a hostile unit must be activated in movement mode and moved there (one of the
    /// `prefer_types` if one can), 2.3.2.
    #[serde(default, skip_serializing_if = "is_default")]
    pub approach: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// A card that may be played in a combat: by the attacking side or a defending side that
/// holds it, when the condition (about `attackers`, `defenders`, `defending_space`) holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Reaction {
    pub card: String,
    pub by: CombatRole,
    pub when: String,
}

/// Where a unit may not stay: when an impulse begins, a unit of its nations for which `when`
/// holds (a condition on `u`) may only be activated in movement mode, and then only to step
/// into a space where `to` holds (a condition on `u` and `to`), crossing connections of the
/// kinds in `crossing` that its nation is otherwise barred from; it stops there. With `must`,
/// it has to: its side activates it first, in the first impulse it can, and may not pass or end
/// the move before it has left (when it can).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LeaveRule {
    pub when: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub must: bool,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub crossing: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// One impulse: the side that acts, with the units of these nations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Impulse {
    pub name: String,
    pub side: String,
    pub nations: Vec<String>,
    /// A phase of a player-turn (IGO-UGO) rather than an impulse: every unit of the side and
    /// nations on the map is activated in this mode without being asked, whatever `units`
    /// allows and whether it was activated before this turn (the `MayActivate` hooks still
    /// apply). `Move`: a phase of movement, each unit its whole allowance; `Combat`: a phase of
    /// combat, each unit one attack, each space attacked once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<PhaseMode>,
    /// Supply traced again, as a `TraceSupply` step would, when the impulse begins (before its
    /// units are activated): a unit whose line was reopened since the last trace is in supply
    /// again and may move in this phase, and one out of supply since its side's last trace
    /// that is in supply now is no longer eliminated by a later trace with `eliminate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply: Option<ZoneSupply>,
}

/// The mode every unit of a phase of a player-turn is activated in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum PhaseMode {
    Move,
    Combat,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagUnits {
    pub flag: String,
    pub units: u32,
}

/// How units move in impulses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpulseMovement {
    /// Connection kinds that units of some nations may not cross (the Oder-Neisse line for
    /// the Germans, the front boundary and the nexus for the Soviets).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub barred: Vec<Barred>,
    /// Spaces holding one of these markers are closed to every unit (US control).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_markers: Vec<String>,
    /// Units may enter a space held by a hostile nation only in these regions (a city).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enter_hostile_in: Vec<String>,
    /// A die test a unit activated to move must pass to move freely; failed, it may not enter
    /// a space whose property is lower than where it started (7.2.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_test: Option<MoveTest>,
    /// While a flag is set, crossing connections of these kinds costs nothing extra (an
    /// event that bridges a river).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ignore_costs: Vec<FlagKinds>,
    /// Overrun: moving onto hostile units much weaker than the unit, which are destroyed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrun: Option<Overrun>,
    /// Movement by rail, instead of a unit's own movement in an impulse.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rail: Option<Rail>,
    /// Connections crossed only slowly (a strait): in a phase of a player-turn.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub slow_crossings: Vec<SlowCrossing>,
    /// Ways off the map: units of these nations in a region may leave it, into a box.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exits: Vec<MapExit>,
}

/// A unit of `nations` standing in a space of `region` may leave the map, in place of the rest
/// of its move, into the box `to` (`exit UNIT`); it does not come back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MapExit {
    pub nations: Vec<String>,
    pub region: String,
    pub to: String,
    /// Only while this flag is set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// A connection of these kinds is crossed only as the whole move of a phase of movement, by a
/// unit that has stayed put in its side's last `rest` phases of movement, and it stays put in
/// the next `rest` after (the Kerch Straits: five phases in all with `rest: 1`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SlowCrossing {
    pub kinds: Vec<String>,
    pub rest: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// Movement by rail: in the impulses listed, a unit of the types they allow that has not yet
/// moved in the impulse, and stands in no hostile zone of control, may move up to `spaces`
/// spaces instead of its own movement, whatever the terrain, through and into spaces its side
/// controls that hold no hostile unit and lie in no hostile zone of control.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rail {
    pub spaces: u32,
    pub impulses: Vec<RailImpulse>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// An impulse (counted from 0) in which units may move by rail: those of `types` (empty: any)
/// but those of `except`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RailImpulse {
    pub impulse: usize,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
}

/// Overrun: a unit of these types in supply moves onto a space held only by hostile units
/// whose defence strength times `ratio` is at most its attack strength (both as in combat, so
/// the terrain counts), paying `cost` movement points more than the step, with no minimum
/// move and within the stacking limits; they are destroyed and it moves no further.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Overrun {
    pub types: Vec<String>,
    pub ratio: u32,
    pub cost: u32,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagKinds {
    pub flag: String,
    pub kinds: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Barred {
    pub kinds: Vec<String>,
    pub nations: Vec<String>,
    /// A retreat with nowhere else to go may cross it all the same (a unit forced over a line
    /// it may not cross of its own will, 7.3.2).
    #[serde(default, skip_serializing_if = "is_default")]
    pub forced: bool,
}

/// A movement test: roll on `table` (row by the die, column by the turn); a result other
/// than `pass` restricts the unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MoveTest {
    pub nations: Vec<String>,
    pub table: String,
    pub pass: String,
    /// The space property that must not fall (the zone index).
    pub property: String,
    /// Flags that lift the test for some nations (Planned Retreat).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lifted_by: Vec<FlagNations>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagNations {
    pub flag: String,
    pub nations: Vec<String>,
}

/// Combat by odds: the attackers' strength against the defenders', rounded for the
/// defender, read on a table; strengths, die-roll modifiers and shifts are hooks (`Strength`,
/// `Drm`, `Shift`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OddsCombat {
    /// The table, with an odds column and a record result: `attacker` and `defender` step
    /// losses, `retreat` (the defenders retreat), and where a game has them
    /// `attacker_eliminated` and `defender_eliminated` (every unit of that side in the combat),
    /// `attacker_retreat` (the attackers retreat) and `exchange` (the defenders are eliminated
    /// and the attacker loses units of at least their defence strength in printed strength,
    /// choosing which).
    pub table: String,
    /// Tables the defender chooses among before the die is rolled (`table` is then the one a
    /// defender who cannot choose fights on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub defender_chooses: Vec<String>,
    /// Attack supply: a unit attacks only within reach of one of its side's supply units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attack_supply: Option<AttackSupply>,
    /// Units that support an attack from a distance instead of joining it from next door.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub support: Vec<RangedSupport>,
    /// Nations whose retreats may not end in an empty space next to a hostile unit that exerts
    /// a zone of control (the game's `zones_of_control`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat_blocked_by_zones: Vec<String>,
    /// Unit types that may not retreat: a retreat eliminates them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_retreat_types: Vec<String>,
    /// Whether advancing after combat is up to the attacker (else at least one unit must).
    #[serde(default, skip_serializing_if = "is_default")]
    pub advance_optional: bool,
    /// Spaces in these regions may not be attacked from outside.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_into: Vec<String>,
    /// Connection kinds attacks may not cross.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_across: Vec<String>,
    /// The space property that orders retreats (8.3.2): these nations retreat first towards
    /// lower or equal values, the others towards higher or equal values (none: no order).
    #[serde(default, skip_serializing_if = "is_default")]
    pub retreat_by: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retreat_lower: Vec<String>,
    /// Run for a unit that retreats into a space closed by one of the movement rules'
    /// markers, with the unit as `u`; such a retreat is allowed only when no other is, and
    /// only when this script is given (a retreat into an American zone, 2.2.7 and 2.2.8). A
    /// unit in a closed space may not attack.
    #[serde(default, skip_serializing_if = "is_default")]
    pub into_closed: String,
    /// A retreat with no space next to the unit to end in may pass through a full space of the
    /// unit's own group into a space next to that one (8.3.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub through_full: bool,
    /// Units in the attacked space for which this holds (a condition on `u`) do not defend it:
    /// no strength, no losses; they are eliminated when the defenders retreat and leave them
    /// alone there (a Soviet unit forced among the other camp's units, 7.3.3).
    #[serde(default, skip_serializing_if = "is_default")]
    pub bystanders: String,
}

/// Attack supply: an attacking unit (but one of the `exempt` types) must be within `reach`
/// connections of a unit of the `sources` types of its side, along a line its general supply
/// could follow (the `SupplyReach` hooks may shorten it: they are given `attack` true). With
/// `used_up`, every source that supplied an attack leaves the map at the end of the phase of
/// combat, back to the counter mix (not yet in play: a later reinforcement may bring the piece
/// in again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttackSupply {
    pub sources: Vec<String>,
    pub reach: Vec<NationsReach>,
    /// Nations whose lines an empty space in a hostile zone of control blocks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones_block: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exempt: Vec<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub used_up: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationsReach {
    pub nations: Vec<String>,
    pub spaces: u32,
}

/// Units of these types add `strength` to one attack a phase whose attackers stand within
/// `within` connections of them, without moving or taking part in its results; at most one
/// such unit an attack.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RangedSupport {
    pub types: Vec<String>,
    pub within: u32,
    pub strength: i32,
    /// Another strength while a flag is set (the first that is).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub while_flag: Vec<FlagStrength>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FlagStrength {
    pub flag: String,
    pub strength: i32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum CombatRole {
    Attackers,
    Defenders,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatDrm {
    pub drm: i32,
    pub when: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// Combat inside the spaces of a region that cannot be attacked from outside: units in such
/// a space attack the hostile units (or its garrison) there on their own table, and the
/// besiegers' progress is a marker's level.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CityCombat {
    pub region: String,
    /// The table: odds columns, a record result of `attacker`, `defender` and `progress`.
    pub table: String,
    /// The nations that besiege (raise the level); the others defend.
    pub besiegers: Vec<String>,
    /// The marker whose level is the besiegers' progress; from `control_level` on the space
    /// is the besieging side's.
    pub marker: String,
    pub control_level: u32,
    /// The space property added to the defenders' strength (their only strength when none is
    /// there).
    pub garrison: String,
    /// A flag under which every garrison is this value instead (Speer and Heinrici).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub garrison_override: Option<(String, i32)>,
    /// Each side's track of support points: a besieger's roll costs one, and one more buys a
    /// +1 die-roll modifier.
    pub support: Vec<SideTrack>,
    /// Die-roll modifiers of the besiegers' rolls, conditions as in the odds combat.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub drms: Vec<CombatDrm>,
    /// Defenders attacking may bring in units from one adjacent space outside the region.
    #[serde(default, skip_serializing_if = "is_default")]
    pub helpers_from_outside: bool,
    /// Run when the besiegers leave a space they contested or held (for the side that left,
    /// with the `space`; `level` is its level before it returns to 0, 9.1.5).
    pub on_abandon: String,
    /// Run when a side first raises a space's level (with the `space`).
    #[serde(default, skip_serializing_if = "is_default")]
    pub on_progress: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideTrack {
    pub side: String,
    pub track: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EndMove {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_into: Vec<String>,
}

/// Supply traced through a zone map: from a space whose supply sources list the unit's
/// nation, through spaces free of hostile units and not next to them when empty.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZoneSupply {
    /// Nations whose lines are also blocked by units of the same group serving another side
    /// (the other Soviet camp, 3.1.2).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_by_other_sides: Vec<String>,
    /// Spaces holding these markers block every line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub closed_markers: Vec<String>,
    /// Nations always in supply within a region (German units in Berlin).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always: Vec<NationsIn>,
    /// Connection kinds a line may not cross.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_across: Vec<String>,
    /// The sides whose units are traced (empty: every side); the others keep their marks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<String>,
    /// Nations whose lines an empty space next to a hostile unit blocks (empty: every
    /// nation's). Where the game has `zones_of_control`, only units that exert one block.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zones_block: Vec<String>,
    /// Unit types that are supply sources for their own side's units, wherever they stand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub source_units: Vec<String>,
    /// Units out of supply at the side's previous trace and still out now are eliminated (out
    /// of supply for a whole player-turn).
    #[serde(default, skip_serializing_if = "is_default")]
    pub eliminate: bool,
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NationsIn {
    pub nations: Vec<String>,
    pub region: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionRounds {
    /// Who acts in each round, in order.
    pub sides: Vec<String>,
    pub rounds: u32,
    /// The game's first turn (the first of `turns`) has this many rounds instead, when the
    /// scenario starts there and gives no `opening` of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_turn_rounds: Option<u32>,
    /// What each side may do on the game's first turn, when it may not do everything (when
    /// the scenario starts there and gives no `opening` of its own).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub first_turn_actions: Vec<AllowedActions>,
    /// Rounds (counted from 1) in which a side may not play a card for its OPS, in a season.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_ops_rounds: Vec<SeasonRounds>,
    /// Sides whose attrition segment is played as soon as their action of the last round
    /// ends, before the next side's (the Axis Attrition Segment between the sixth rounds,
    /// 6.C), rather than by an `Attrition` step after the rounds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attrition_after_last: Vec<String>,
    /// Actions a side may take instead of playing a card, written as scripts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub free_actions: Vec<FreeAction>,
}

/// An action taken without a card: its text form is its id; it may be taken when its
/// condition holds, and it runs its effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FreeAction {
    pub id: String,
    /// The sides that may take it.
    pub sides: Vec<String>,
    pub name: String,
    /// A condition in the effect language (always, if none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub playable: Option<String>,
    /// What the action does, in the effect language.
    pub effect: String,
    /// Taken at the start of a round, before the side's action (a declaration of war), rather
    /// than as its action.
    #[serde(default, skip_serializing_if = "is_default")]
    pub before_action: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
}

/// The actions a side may take.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AllowedActions {
    pub side: String,
    pub actions: Vec<ActionKind>,
    /// Only these cards may be played (all when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeasonRounds {
    pub season: String,
    pub rounds: Vec<u32>,
}

/// The ways to take an action in an action round.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum ActionKind {
    /// Play a card for its operations value.
    Ops,
    /// Play a card for strategic redeployment.
    Sr,
    /// Play a card for its replacement points.
    Rp,
    /// Play a card's event.
    Event,
    /// Operations of the automatic value, without a card.
    AutoOps,
    /// One of the action rounds' free actions (written as scripts).
    Free,
}
