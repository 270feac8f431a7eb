//! Agents that play through the prompt interface. The random agent picks uniformly among the
//! legal actions with its own seeded generator, so a game between random agents is a function
//! of the two seeds.

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::rules::Prompt;

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

    /// A legal action for the prompt, in its text form.
    pub fn act(&mut self, prompt: &Prompt) -> String {
        match prompt.pick {
            None => prompt.options[self.below(prompt.options.len())].clone(),
            Some((min, max)) => {
                let max = max.min(prompt.options.len());
                let min = min.min(max);
                let count = min + self.below(max - min + 1);
                let mut pool: Vec<&String> = prompt.options.iter().collect();
                let mut picked = Vec::new();
                for _ in 0..count {
                    let i = self.below(pool.len());
                    picked.push(pool.remove(i).as_str());
                }
                format!("choose {}", picked.join(" "))
                    .trim_end()
                    .to_string()
            }
        }
    }
}
