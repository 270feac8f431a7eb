//! Activation: which units a side may set to work, and what that costs. The two hook points of
//! this chapter, `MayActivate` and `ActivationCost`, are asked the same way whatever gives the
//! players their turns: an action round activates a space's units for movement or combat and
//! pays operations points; an impulse activates units one by one against its allowance.

use super::hooks;
use super::Rules;
use crate::model::HookPoint;
use crate::script::eval::Context;
use crate::state::State;

/// What is being activated: a side's units on a space, for combat or for movement.
pub struct Activation<'a> {
    pub side: &'a str,
    pub space: crate::Id,
    pub units: &'a [usize],
    pub for_combat: bool,
}

impl Activation<'_> {
    fn names(&self) -> hooks::Names {
        vec![
            hooks::units("units", self.units),
            hooks::space("space", self.space),
            hooks::flag("for_combat", self.for_combat),
        ]
    }

    /// Whether the game's `MayActivate` hooks allow it.
    pub fn allowed(&self, rules: &Rules, state: &State) -> bool {
        hooks::may(
            rules.content,
            state,
            HookPoint::MayActivate,
            self.side,
            || self.names(),
        )
    }

    /// Its cost: `base` (what the procedure charges by its own rules) changed by the game's
    /// `ActivationCost` hooks, never below zero.
    pub fn cost(&self, rules: &Rules, state: &State, base: u32) -> u32 {
        let cost = hooks::modify(
            rules.content,
            state,
            HookPoint::ActivationCost,
            self.side,
            i64::from(base),
            || self.names(),
        );
        points(cost)
    }

    /// Its cost if it is allowed, else `None`.
    pub fn offered(&self, rules: &Rules, state: &State, base: u32) -> Option<u32> {
        self.allowed(rules, state)
            .then(|| self.cost(rules, state, base))
    }

    /// [`Activation::offered`] for movement and for combat (whatever `for_combat` says), asked
    /// in one context of the hooks' names: an action round asks both of every space. `kept`
    /// keeps that context from one space to the next of a side's prompt, of one state (empty
    /// at first; the names of the space and its units are changed in place), with what
    /// [`Kept`] tells of the points' hooks.
    pub fn offered_both(
        &self,
        rules: &Rules,
        state: &State,
        base: u32,
        kept: &mut Option<Kept>,
    ) -> [Option<u32>; 2] {
        let content = rules.content;
        let (may, costs) = (
            hooks::any_at(content, HookPoint::MayActivate),
            hooks::any_at(content, HookPoint::ActivationCost),
        );
        if !may && !costs {
            return [Some(base); 2];
        }
        let hooked = [HookPoint::MayActivate, HookPoint::ActivationCost];
        let Kept { ctx, apart, asked } = match kept {
            Some(kept) => {
                if kept.asked {
                    // In the places `names` gives them (rebuilding all costs 1% of a campaign).
                    hooks::set_units(&mut kept.ctx.names[0].1, self.units);
                    kept.ctx.names[1] = hooks::space("space", self.space);
                }
                kept
            }
            None => {
                let ctx = hooks::context_for(content, self.side, self.names());
                let apart = hooked
                    .into_iter()
                    .any(|at| hooks::any_names(content, at, &[crate::Id::of_static("for_combat")]));
                let asked =
                    (hooked.iter()).any(|&at| hooks::any_may_apply(content, state, at, &ctx));
                kept.insert(Kept { ctx, apart, asked })
            }
        };
        // Nothing to ask while no hook may apply (each needs a kind of marker not on the map).
        if !*asked {
            return [Some(base); 2];
        }
        let apart = *apart;
        let mut offer = |for_combat: bool| {
            ctx.names[2] = hooks::flag("for_combat", for_combat);
            let allowed = !may || hooks::may_in(content, state, HookPoint::MayActivate, ctx);
            allowed.then(|| {
                let at = HookPoint::ActivationCost;
                points(hooks::modify_in(
                    content,
                    state,
                    at,
                    (i64::from(base), 1),
                    ctx,
                    None,
                ))
            })
        };
        if apart {
            [offer(false), offer(true)]
        } else {
            [offer(false); 2]
        }
    }
}

/// The hooks' context kept by [`Activation::offered_both`] from one space to the next of a
/// prompt, of one state.
pub struct Kept {
    ctx: Context,
    /// Whether a hook of either point names `for_combat`: when none does, both modes are asked
    /// once, since no hook can tell them apart.
    apart: bool,
    /// Whether a hook of either point may apply ([`hooks::any_may_apply`]): when none may, the
    /// cost is the base and the space is offered, with nothing asked.
    asked: bool,
}

/// A cost the hooks worked out, in points: never below zero.
fn points(cost: i64) -> u32 {
    u32::try_from(cost.max(0)).unwrap_or(u32::MAX)
}
