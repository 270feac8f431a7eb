//! Combat: one procedure for every game. A combat is a task on the stack that runs through the
//! same stages whoever started it (an action round's attack, an impulse's attack):
//!
//! 1. **designate** the attackers (committed one by one, or picked together);
//! 2. **support**: a city assault's extra support point, where the game has one;
//! 3. **cards**: each side in turn, the attacker first, plays the combat cards it may;
//! 4. **resolve**: by fire tables (each side fires, the results are loss numbers) or by odds
//!    (one roll, the results are step losses, a retreat, a city's progress);
//! 5. **losses**: against loss factors, chosen by the side that takes them, or spread one step
//!    at a time over the defenders;
//! 6. **retreat**: a length set by the winning margin (with the choice to hold by losing a
//!    step), or the one space the table asks;
//! 7. **advance**: a pursuit (mechanized units further), or into the emptied space with
//!    reserves following.
//!
//! Which form each stage takes is read from the game's data when the combat starts (a
//! [`How`]); every stage asks the same hooks (`MayAttack`, `Strength`, `Drm`, `Shift`, `Loss`,
//! `MayRetreat`, `MayAdvance`, `AfterRetreat`, `AfterCombat`) through [`super::battle`] and
//! [`super::movement`].

use std::collections::BTreeMap;

use super::losses::eliminate;
mod advance;
mod cards;
mod casualties;
mod designate;
mod fire;
mod odds;
mod retreats;

use super::action::Word::{Text, Unit};
pub use super::losses::{lose_step, loss_options};
use super::procedures::{
    discard, enemy_in, enter, leave_stand_fast, may_enter, may_operate, may_stack, offensive_made,
    SupplyCache,
};
use super::supply::Level;
use super::{battle, hooks, movement, retreat, Action, Prompt, Rules, Task, Word};
use crate::model::{Cell, HookPoint, Scalar};
use crate::script::eval::{self, Combat, Context, Outcome};
use crate::state::{space_in_region, Loc, Modifier, ModifierEffect, State};
use crate::tables::{ColumnInput, RowInput};
pub use designate::{may_fight, targets};
pub use fire::terrain_rows;
use fire::*;
pub(in crate::rules) use odds::printed as odds_printed;
pub use retreats::retreat_options;

/// How a combat is fought: the form each stage takes, read from the game's data where the
/// combat starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct How {
    pub designate: Designate,
    pub cards: Cards,
    pub resolve: Resolve,
    pub losses: Losses,
    pub retreat: Retreat,
    pub advance: Advance,
    /// The sequence step whose parameters the combat reads (an operations phase's), if any.
    pub at: Option<(usize, usize)>,
}

/// How the attackers are designated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Designate {
    /// One at a time (`with UNIT`) from the spaces marked for combat, then `fight`.
    Commit,
    /// All at once from the units the turn allows (`choose UNIT...`).
    Pick,
}

/// Which combat cards the sides may play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cards {
    /// Any held card whose combat script would change this combat; several, then `no_card`.
    Hand,
    /// One card the operations' reactions allow, whose script may ask.
    Reactions,
}

/// How the combat is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolve {
    /// Each side fires on the fire table of its strength; the results are loss numbers.
    Fire,
    /// One roll on the odds table; the results are step losses and a retreat.
    Odds,
    /// One roll on a city's table; the results are step losses and the city's progress.
    City,
}

/// How losses are taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Losses {
    /// Against loss factors, the side that takes them choosing, the defender first.
    Numbers,
    /// One step at a time, every unit losing one before any loses a second.
    Spread,
}

/// How the loser retreats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Retreat {
    /// The winner by one retreats one space, by more the game's maximum; defenders may hold
    /// by losing a step where the terrain or a card allows.
    Margin,
    /// One space when the table says so; with nowhere to go, another step is lost.
    OneSpace,
    /// No retreat.
    None,
}

/// How the winner advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Advance {
    /// Into the emptied space; mechanized units on up to the game's pursuit distance.
    Pursuit,
    /// Into the emptied space, at least one unit; reserves may follow those who advanced.
    Emptied,
    /// No advance.
    None,
}

impl How {
    /// An action round's combat: committed attackers, cards from the hand, fire tables.
    pub const FIRE: How = How {
        designate: Designate::Commit,
        cards: Cards::Hand,
        resolve: Resolve::Fire,
        losses: Losses::Numbers,
        retreat: Retreat::Margin,
        advance: Advance::Pursuit,
        at: None,
    };

    /// An operations phase's combat by odds (in a city, on the city's table).
    pub fn odds(at: (usize, usize), city: bool) -> How {
        How {
            designate: Designate::Pick,
            cards: Cards::Reactions,
            resolve: if city { Resolve::City } else { Resolve::Odds },
            losses: Losses::Spread,
            retreat: if city {
                Retreat::None
            } else {
                Retreat::OneSpace
            },
            advance: if city {
                Advance::None
            } else {
                Advance::Emptied
            },
            at: Some(at),
        }
    }
}

/// A combat under way.
#[derive(Debug, Clone, PartialEq)]
pub struct CombatTask {
    /// The attacking side.
    pub side: String,
    pub target: String,
    pub how: How,
    pub attackers: Vec<usize>,
    pub defenders: Vec<usize>,
    /// Units in the attacked space that stand by without defending it.
    pub bystanders: Vec<usize>,
    /// The units that may be picked to attack; the reserves that may follow an advance.
    pub pool: Vec<usize>,
    pub reserves: Vec<usize>,
    pub stage: Stage,
    /// Combat cards played, by side; the sides offered theirs; a card whose script is asking,
    /// with its player and the answers so far.
    pub cards: Vec<(String, String)>,
    pub offered: Vec<String>,
    pub card: Option<(String, String, Vec<Vec<String>>)>,
    /// Modifiers the combat cards gave this combat.
    pub modifiers: Vec<Modifier>,
    /// A city assault's extra support point, once asked.
    pub extra: Option<bool>,
    /// The losses each side inflicted: on the defender, on the attacker.
    pub on_defender: u32,
    pub on_attacker: u32,
    /// Loss still to take in the current losses stage.
    pub remaining: u32,
    /// Steps taken in this combat, by unit, and how many were taken in turn by the sides.
    pub taken: BTreeMap<usize, u32>,
    pub turn: usize,
    /// The retreat's length (0: none).
    pub retreat: u32,
    /// Units still to retreat, and the spaces left for the one retreating.
    pub retreating: Vec<usize>,
    pub retreat_left: u32,
    /// The spaces retreating units went through and left, beyond the defending space.
    pub vacated: Vec<String>,
    /// Spaces each advancing unit may still advance; how many advanced; the spaces the
    /// attackers attacked from; the reserves that followed.
    pub advance: BTreeMap<usize, u32>,
    pub advanced: u32,
    pub from: Vec<String>,
    pub followed: Vec<usize>,
    /// The steps of the attackers and of the defenders when they began to fight.
    pub steps_before: (u32, u32),
    /// The table the defender chose, where the game gives a choice.
    pub table: Option<String>,
    /// Units that supported the attack from a distance.
    pub supporters: Vec<usize>,
    /// Printed strength the attacker still has to lose in an exchange.
    pub exchange: u32,
    /// Whether the attackers retreat after the losses; the units still to retreat are
    /// `retreating`.
    pub attacker_retreat: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    Designate,
    Support,
    Cards(String),
    /// Losses of the attackers (`true`) or of the defenders.
    Losses(bool),
    NoRetreat,
    Retreat,
    Advance,
}

impl CombatTask {
    /// An action round's combat (fire tables).
    pub fn new(side: &str, target: &str) -> CombatTask {
        CombatTask::with(side, target, How::FIRE)
    }

    pub fn with(side: &str, target: &str, how: How) -> CombatTask {
        CombatTask {
            side: side.to_string(),
            target: target.to_string(),
            how,
            attackers: Vec::new(),
            defenders: Vec::new(),
            bystanders: Vec::new(),
            pool: Vec::new(),
            reserves: Vec::new(),
            stage: Stage::Designate,
            cards: Vec::new(),
            offered: Vec::new(),
            card: None,
            modifiers: Vec::new(),
            extra: None,
            on_defender: 0,
            on_attacker: 0,
            remaining: 0,
            taken: BTreeMap::new(),
            turn: 0,
            retreat: 0,
            retreating: Vec::new(),
            retreat_left: 0,
            vacated: Vec::new(),
            advance: BTreeMap::new(),
            advanced: 0,
            from: Vec::new(),
            followed: Vec::new(),
            steps_before: (0, 0),
            table: None,
            supporters: Vec::new(),
            exchange: 0,
            attacker_retreat: false,
        }
    }
}

fn put(state: &mut State, c: CombatTask) {
    if let Some(Task::Combat(top)) = state.flow.tasks.last_mut() {
        **top = c;
    }
}

/// Runs the combat on: a prompt, or an automatic step.
pub(super) fn step(rules: &Rules, state: &mut State, c: CombatTask) -> Option<Prompt> {
    match c.stage {
        Stage::Designate => designate::step(rules, state, c),
        Stage::Support => cards::support_step(rules, state, c),
        Stage::Cards(_) => cards::step(rules, state, c),
        Stage::Losses(_) => casualties::step(rules, state, c),
        Stage::NoRetreat | Stage::Retreat => retreats::step(rules, state, c),
        Stage::Advance => advance::step(rules, state, c),
    }
}

/// Performs a combat action.
pub(super) fn act(
    rules: &Rules,
    state: &mut State,
    c: CombatTask,
    prompt: &Prompt,
    action: &Action,
) -> Result<(), String> {
    match c.stage {
        Stage::Designate => designate::act(rules, state, c, action),
        Stage::Support | Stage::Cards(_) => cards::act(rules, state, c, prompt, action),
        Stage::Losses(_) => casualties::act(rules, state, c, action),
        Stage::NoRetreat | Stage::Retreat => retreats::act(rules, state, c, action),
        Stage::Advance => advance::act(rules, state, c, action),
    }
}

/// The action does not fit the stage.
fn misfit(action: &Action) -> Result<(), String> {
    Err(format!("`{action}` does not fit this step"))
}

fn alive(state: &State, units: &[usize]) -> Vec<usize> {
    units
        .iter()
        .copied()
        .filter(|&u| matches!(state.units[u].at, Loc::Space(_)))
        .collect()
}

/// Resolves the combat the way its data says, then takes the defender's losses first.
fn resolve(rules: &Rules, state: &mut State, c: &mut CombatTask) {
    let told = state.flow.messages.len();
    match c.how.resolve {
        Resolve::Fire => fire::resolve(rules, state, c),
        Resolve::Odds | Resolve::City => odds::resolve(rules, state, c),
    }
    state.record.last_combat = state.flow.messages[told..].to_vec();
    c.stage = Stage::Losses(false);
}

/// Ends the combat: the task leaves the stack, the turn that gave it learns who fought, and
/// the `AfterCombat` hooks are due.
fn finish(rules: &Rules, state: &mut State, c: &CombatTask) {
    state.end("this_combat");
    state.flow.tasks.pop();
    if c.how.at.is_some() {
        super::impulses::zone::fought(rules, state, (&c.attackers, &c.followed, &c.supporters));
    }
    let fight = fight_of(c);
    battle::after_combat(rules, state, &fight, c.steps_before);
}

fn fight_of(c: &CombatTask) -> battle::Fight<'_> {
    battle::Fight {
        attacker: &c.side,
        attackers: &c.attackers,
        defenders: &c.defenders,
        space: &c.target,
    }
}
