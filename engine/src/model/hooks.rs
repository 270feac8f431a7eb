//! Hooks: rules written into the general procedures of play.
//!
//! Every procedure of the toolkit (movement, combat, losses, retreat, advance, supply, control)
//! calls the same hook points, whatever the way the game gives players their turns (action
//! rounds, impulses, phases). A hook is a condition (may this happen here), a modifier (a
//! number the procedure uses, changed) or an after-effect (a script run once it happened),
//! each written in the effect language over the names its point gives, and each naming the
//! rule it comes from.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::is_default;

/// One rule hooked into a procedure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hook {
    pub id: String,
    /// The rule it comes from (a rule number or a name): play's messages cite it.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
    /// The point of the procedure it acts at.
    pub at: HookPoint,
    /// When it applies: a condition over the names its point gives (empty: always).
    #[serde(default, skip_serializing_if = "is_default")]
    pub when: String,
    /// What it does there.
    pub then: HookEffect,
    #[serde(default, skip_serializing_if = "is_default")]
    pub notes: String,
}

/// Zones of control, a rule of the movement toolkit: the spaces next to a unit (a hex's six
/// neighbours) are its zone. A unit entering a space in an enemy zone pays more, and more again
/// to leave one, cumulatively (from one such space straight into another pays both); a unit
/// may still always move one space (the minimum move). The zone reaches into spaces where the
/// mover's own units stand.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZonesOfControl {
    /// Unit types that exert no zone (support units).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_exerted_by: Vec<String>,
    /// The extra movement points to enter a space in an enemy zone: the first entry whose
    /// `types` hold the mover's unit type (an entry with none holds every type).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub enter: Vec<ZocCost>,
    /// The extra movement points to leave a space in an enemy zone, found the same way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub leave: Vec<ZocCost>,
    /// The rule's number, for the designer.
    #[serde(default, skip_serializing_if = "is_default")]
    pub rule: String,
}

/// Extra movement points for units of some types (every type when none are named).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ZocCost {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<String>,
    pub cost: u32,
}

/// The places in the general procedures where hooks act. Each gives its scripts some names
/// besides `me` (the side acting) and `enemy`; a modifier's current number is `value`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
pub enum HookPoint {
    /// May `units` (a space's units, or one unit) in `space` be activated, `for_combat` or for
    /// movement? (`May` or `Forbid`)
    MayActivate,
    /// May unit `u` move from space `from` into space `to`? (`May` or `Forbid`)
    MayMove,
    /// May unit `u`, in space `from`, attack `defending_space`? (`May` or `Forbid`)
    MayAttack,
    /// May unit `u` retreat from `from` into `to`? (`May` or `Forbid`)
    MayRetreat,
    /// May unit `u` advance from `from` into `to`? (`May` or `Forbid`)
    MayAdvance,
    /// May unit `u` end its move in `space`? (`May` or `Forbid`; it may still pass through a
    /// space where it may not stop, when it can go on to one where it may.)
    MayStop,
    /// May unit `u`, redeploying strategically from `origin`, cross from `from` into `to`?
    /// (`May` or `Forbid`; asked of every connection its route may take.)
    MayRedeploy,
    /// May side `me` lose control of `space` for its being out of supply (attrition)?
    /// (`May` or `Forbid`)
    MayLoseControl,
    /// What activating `units` in `space` costs (`value`: the operations points of a space, or
    /// one of an impulse's activations per unit); `for_combat` as at `MayActivate`.
    ActivationCost,
    /// The movement allowance `value` of unit `u` when it starts to move.
    Movement,
    /// The movement points `value` unit `u` pays to move from `from` into `to` (whole points,
    /// half points rounded up; `Add` and `Set` count whole points).
    MoveCost,
    /// The combat strength `value` of unit `u` in a combat at `defending_space`; `attacking`
    /// says on which side it fights.
    Strength,
    /// The die-roll modifier `value` of a side's roll in a combat (`me` rolls; `attacking`
    /// says whether it is the attacker), with `attackers`, `defenders`, `defending_space`.
    Drm,
    /// The column shift `value` of a side's roll in a combat, with the names of `Drm`.
    Shift,
    /// The loss `value` a combat inflicts on one side (`attacking`: on the attacker; a loss
    /// number or steps, as the game's combat table gives), with the names of `Drm`.
    Loss,
    /// How many spaces `value` unit `u` may advance after the combat at `defending_space` (one
    /// into the emptied space; a pursuit's length; none at zero).
    Advance,
    /// How many connections supply of `nation` (commanded by `me`) may be traced along; its
    /// `value` is the number of spaces on the map when nothing limits it.
    SupplyReach,
    /// After unit `u` moved from `from` into `to` (`Run`).
    AfterMove,
    /// After a combat at `defending_space`: `attackers` and `defenders` still in play,
    /// `attacker_steps_lost`, `defender_steps_lost`; `me` attacked (`Run`).
    AfterCombat,
    /// After unit `u` retreated from `from` into `to` (`Run`).
    AfterRetreat,
    /// After side `me` took control of `space` (`Run`).
    AfterCapture,
}

/// What a hook does at its point.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub enum HookEffect {
    /// A condition point: allowed only where this condition holds.
    May(String),
    /// A condition point: not allowed (where `when` holds).
    Forbid,
    /// A modifier: this many more (an expression of the point's names; negative for less).
    Add(String),
    /// A modifier: this value instead.
    Set(String),
    /// A modifier: at least this much.
    AtLeast(String),
    /// A modifier: at most this much.
    AtMost(String),
    /// A modifier: halved, rounded up.
    Half,
    /// A modifier: doubled.
    Double,
    /// An after-effect: this script (it may change the game and ask players).
    Run(String),
}

/// What a point is: a condition, a modifier or an after-effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointKind {
    Condition,
    Modifier,
    After,
}

impl HookPoint {
    pub const ALL: [HookPoint; 21] = [
        HookPoint::MayActivate,
        HookPoint::MayMove,
        HookPoint::MayStop,
        HookPoint::MayAttack,
        HookPoint::MayRetreat,
        HookPoint::MayAdvance,
        HookPoint::MayRedeploy,
        HookPoint::MayLoseControl,
        HookPoint::ActivationCost,
        HookPoint::Movement,
        HookPoint::MoveCost,
        HookPoint::Strength,
        HookPoint::Drm,
        HookPoint::Shift,
        HookPoint::Loss,
        HookPoint::Advance,
        HookPoint::SupplyReach,
        HookPoint::AfterMove,
        HookPoint::AfterCombat,
        HookPoint::AfterRetreat,
        HookPoint::AfterCapture,
    ];

    pub fn kind(self) -> PointKind {
        use HookPoint::*;
        match self {
            MayActivate | MayMove | MayStop | MayAttack | MayRetreat | MayAdvance | MayRedeploy
            | MayLoseControl => PointKind::Condition,
            ActivationCost | Movement | MoveCost | Strength | Drm | Shift | Loss | Advance
            | SupplyReach => PointKind::Modifier,
            AfterMove | AfterCombat | AfterRetreat | AfterCapture => PointKind::After,
        }
    }

    /// The names a hook's scripts see at this point besides `me` and `enemy`, with what they
    /// are: `unit`, `space`, `units` (a set of units), `int`, `bool` or `nation`.
    pub fn names(self) -> &'static [(&'static str, &'static str)] {
        use HookPoint::*;
        const STEP: &[(&str, &str)] = &[("u", "unit"), ("from", "space"), ("to", "space")];
        const COMBAT: &[(&str, &str)] = &[
            ("attackers", "units"),
            ("defenders", "units"),
            ("defending_space", "space"),
            ("attacking", "bool"),
            ("value", "int"),
        ];
        match self {
            MayActivate => &[
                ("units", "units"),
                ("space", "space"),
                ("for_combat", "bool"),
            ],
            ActivationCost => &[
                ("units", "units"),
                ("space", "space"),
                ("for_combat", "bool"),
                ("value", "int"),
            ],
            MayMove | MayRetreat | MayAdvance | AfterMove | AfterRetreat => STEP,
            MayRedeploy => &[
                ("u", "unit"),
                ("origin", "space"),
                ("from", "space"),
                ("to", "space"),
            ],
            MayStop => &[("u", "unit"), ("space", "space")],
            MayAttack => &[
                ("u", "unit"),
                ("from", "space"),
                ("defending_space", "space"),
            ],
            Movement => &[("u", "unit"), ("value", "int")],
            MoveCost => &[
                ("u", "unit"),
                ("from", "space"),
                ("to", "space"),
                ("value", "int"),
            ],
            Strength => &[
                ("u", "unit"),
                ("defending_space", "space"),
                ("attacking", "bool"),
                ("attackers", "units"),
                ("value", "int"),
            ],
            Drm | Shift | Loss => COMBAT,
            Advance => &[
                ("u", "unit"),
                ("defending_space", "space"),
                ("value", "int"),
            ],
            SupplyReach => &[("nation", "nation"), ("attack", "bool"), ("value", "int")],
            AfterCombat => &[
                ("attackers", "units"),
                ("defenders", "units"),
                ("defending_space", "space"),
                ("attacker_steps_lost", "int"),
                ("defender_steps_lost", "int"),
            ],
            AfterCapture | MayLoseControl => &[("space", "space")],
        }
    }
}

impl HookEffect {
    /// The expression or script it holds, if any.
    pub fn script(&self) -> Option<&str> {
        match self {
            HookEffect::May(s)
            | HookEffect::Add(s)
            | HookEffect::Set(s)
            | HookEffect::AtLeast(s)
            | HookEffect::AtMost(s)
            | HookEffect::Run(s) => Some(s),
            HookEffect::Forbid | HookEffect::Half | HookEffect::Double => None,
        }
    }

    /// Whether it fits a point of this kind.
    pub fn fits(&self, kind: PointKind) -> bool {
        match self {
            HookEffect::May(_) | HookEffect::Forbid => kind == PointKind::Condition,
            HookEffect::Run(_) => kind == PointKind::After,
            _ => kind == PointKind::Modifier,
        }
    }

    /// The name of its variant, as written in a file.
    pub fn variant(&self) -> &'static str {
        match self {
            HookEffect::May(_) => "May",
            HookEffect::Forbid => "Forbid",
            HookEffect::Add(_) => "Add",
            HookEffect::Set(_) => "Set",
            HookEffect::AtLeast(_) => "AtLeast",
            HookEffect::AtMost(_) => "AtMost",
            HookEffect::Half => "Half",
            HookEffect::Double => "Double",
            HookEffect::Run(_) => "Run",
        }
    }
}
