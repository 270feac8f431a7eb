//! Agents that play through the prompt interface.
//!
//! The random agent picks uniformly among the legal actions with its own seeded generator, so a
//! game between random agents is a function of the seeds. The Monte Carlo agent tries each
//! legal action (up to [`MonteCarloAgent::WIDTH`] of them) in a fixed number of random
//! playouts of bounded length and takes the one whose playouts end best for its side: a won
//! game, else the victory points of the spaces it holds against the enemy's and the steps it
//! has on the map. It is bounded by playouts, never by time, so its games are deterministic.

use std::str::FromStr;

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::{self, Action, Choice, Prompt, Rules};
use crate::state::{Loc, State};

/// Something that answers prompts.
pub trait Agent {
    /// A legal action for the state's prompt, typed (its text form is only for logs and
    /// people). `None` when the game is over.
    fn choose(&mut self, rules: &Rules, state: &State) -> Option<Action>;

    /// [`Agent::choose`] as a [`Choice`]: an agent that picks one of the prompt's options
    /// names it by its place, and the rules need not look for it among them
    /// ([`rules::act_choice`]).
    fn choose_option(&mut self, rules: &Rules, state: &State) -> Option<Choice> {
        self.choose(rules, state).map(Choice::Action)
    }
}

/// Which agent plays a side, as the command line and the editor name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum AgentKind {
    /// Uniform over the legal actions.
    Random,
    /// Flat Monte Carlo: `playouts` random playouts per decision, each at most `depth`
    /// actions long.
    MonteCarlo { playouts: u32, depth: u32 },
}

impl AgentKind {
    pub fn make(self, seed: u64) -> Box<dyn Agent> {
        match self {
            AgentKind::Random => Box::new(RandomAgent::new(seed)),
            AgentKind::MonteCarlo { playouts, depth } => {
                Box::new(MonteCarloAgent::new(seed, playouts, depth))
            }
        }
    }
}

impl std::fmt::Display for AgentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AgentKind::Random => f.write_str("random"),
            AgentKind::MonteCarlo { playouts, depth } => write!(f, "mc:{playouts}:{depth}"),
        }
    }
}

impl FromStr for AgentKind {
    type Err = String;

    /// `random`, or `mc[:PLAYOUTS[:DEPTH]]` (defaults 32 playouts of 60 actions).
    fn from_str(s: &str) -> Result<AgentKind, String> {
        let mut parts = s.trim().split(':');
        let number = |p: Option<&str>, default: u32, what: &str| -> Result<u32, String> {
            match p {
                None => Ok(default),
                Some(t) => t
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .ok_or_else(|| format!("`{t}` is not a number of {what} (1 or more)")),
            }
        };
        match parts.next() {
            Some("random") if parts.next().is_none() => Ok(AgentKind::Random),
            Some("mc") => {
                let playouts = number(parts.next(), 32, "playouts")?;
                let depth = number(parts.next(), 60, "actions per playout")?;
                if parts.next().is_some() {
                    return Err(format!("`{s}`: write mc:PLAYOUTS:DEPTH"));
                }
                Ok(AgentKind::MonteCarlo { playouts, depth })
            }
            _ => Err(format!(
                "no agent `{s}`: the agents are `random` and `mc[:PLAYOUTS[:DEPTH]]`"
            )),
        }
    }
}

/// Picks legal actions at random.
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n.max(1) as u64) as usize
    }

    /// A legal action for the prompt.
    pub fn act(&mut self, prompt: &Prompt) -> Action {
        match self.pick(prompt) {
            Choice::Option(i) => prompt.actions[i].clone(),
            Choice::Action(a) => a,
        }
    }

    /// [`RandomAgent::act`] as a [`Choice`]: one of the options by its place, or the picks
    /// of a multiple choice (the same draws either way).
    pub fn pick(&mut self, prompt: &Prompt) -> Choice {
        let options = &prompt.actions;
        match prompt.pick {
            None => Choice::Option(self.below(options.len())),
            Some((min, max)) => {
                let max = max.min(options.len());
                let min = min.min(max);
                let count = min + self.below(max - min + 1);
                let mut pool: Vec<&Action> = options.iter().collect();
                let mut picked = Action::new("choose");
                for _ in 0..count {
                    let i = self.below(pool.len());
                    picked = picked.and(pool.remove(i).words()[0]);
                }
                Choice::Action(picked)
            }
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, _rules: &Rules, state: &State) -> Option<Action> {
        state.flow.prompt.as_ref().map(|p| self.act(p))
    }

    fn choose_option(&mut self, _rules: &Rules, state: &State) -> Option<Choice> {
        state.flow.prompt.as_ref().map(|p| self.pick(p))
    }
}

/// Flat Monte Carlo over the legal actions (see the module's documentation).
pub struct MonteCarloAgent {
    rng: ChaCha8Rng,
    playouts: u32,
    depth: u32,
}

impl MonteCarloAgent {
    /// The most actions of one prompt that are tried; the rest are left out at random.
    pub const WIDTH: usize = 12;

    pub fn new(seed: u64, playouts: u32, depth: u32) -> MonteCarloAgent {
        MonteCarloAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
            playouts: playouts.max(1),
            depth,
        }
    }

    fn playout(&mut self, rules: &Rules, state: &State, action: &Action, me: &str) -> f64 {
        let mut s = state.clone();
        s.reseed(self.rng.next_u64());
        if rules::act_unguarded(rules, &mut s, action).is_err() {
            return -1.0;
        }
        let mut random = RandomAgent::new(self.rng.next_u64());
        for _ in 0..self.depth {
            let Some(p) = &s.flow.prompt else {
                break;
            };
            let choice = random.pick(p);
            if rules::act_choice(rules, &mut s, &choice).is_err() {
                break;
            }
        }
        evaluate(rules, &s, me)
    }
}

impl Agent for MonteCarloAgent {
    fn choose(&mut self, rules: &Rules, state: &State) -> Option<Action> {
        let prompt = state.flow.prompt.as_ref()?;
        let mut random = RandomAgent::new(self.rng.next_u64());
        if prompt.pick.is_some() || prompt.actions.len() <= 1 {
            return Some(random.act(prompt));
        }
        let mut candidates: Vec<&Action> = prompt.actions.iter().collect();
        while candidates.len() > Self::WIDTH {
            let i = random.below(candidates.len());
            candidates.remove(i);
        }
        let per = (self.playouts as usize / candidates.len()).max(1);
        let me = prompt.side;
        let mut best: Option<(f64, &Action)> = None;
        for a in candidates {
            let total: f64 = (0..per).map(|_| self.playout(rules, state, a, &me)).sum();
            let mean = total / per as f64;
            if best.is_none_or(|(b, _)| mean > b) {
                best = Some((mean, a));
            }
        }
        best.map(|(_, a)| a.clone())
    }
}

/// How good a state is for a side, from 0 (lost) to 1 (won): the game's result if it has
/// ended, else the victory points of the spaces each side holds and the steps each has on the
/// map, each as a share.
pub fn evaluate(rules: &Rules, state: &State, me: &str) -> f64 {
    if let Some(r) = &state.flow.result {
        return if r.winner == me { 1.0 } else { 0.0 };
    }
    let (mut vp_mine, mut vp_all) = (0.0, 0.0);
    for s in &rules.content.graph.spaces {
        if s.vp <= 0 {
            continue;
        }
        if let Some(side) = state.control.get(&s.id) {
            vp_all += s.vp as f64;
            if side == me {
                vp_mine += s.vp as f64;
            }
        }
    }
    let (mut steps_mine, mut steps_all) = (0.0, 0.0);
    for u in &state.units {
        if matches!(u.at, Loc::Space(_)) {
            let steps = rules.steps(u) as f64;
            steps_all += steps;
            if rules.side(u) == me {
                steps_mine += steps;
            }
        }
    }
    let share = |a: f64, b: f64| if b > 0.0 { a / b } else { 0.5 };
    0.05 + 0.9 * (0.6 * share(vp_mine, vp_all) + 0.4 * share(steps_mine, steps_all))
}
