//! What the game's rules say of each counter by its type and size, worked out once when the
//! rules are made: whether it counts for stacking, is mechanized, is large, exerts a zone of
//! control. The procedures ask these of a piece at every step of a search; each was a walk of
//! a list comparing texts.

use super::Rules;
use crate::model::{Counter, GameFile, PlayRules, UnitType, ZonesOfControl};
use crate::state::Unit;

/// What the rules say of one counter (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Facts {
    /// It counts for stacking: its type is not one the game marks `no_stacking`.
    pub counts: bool,
    /// Its type is one of the play rules' `mechanized` (whatever the weather).
    pub mech: bool,
    /// Its size is the play rules' `large_size`.
    pub large: bool,
    /// It exerts a zone of control: the game has none, or its type is not one that does not.
    pub zone: bool,
}

impl Facts {
    /// What the rules say of a counter of type `ty` and size `size`.
    pub(crate) fn of(game: &GameFile, play: &PlayRules, (ty, size): (&str, &str)) -> Facts {
        Facts::by_lists(
            (&game.unit_types, game.zones_of_control.as_ref()),
            play,
            (ty, size),
        )
    }

    /// [`Facts::of`], from the game's lists it reads.
    fn by_lists(
        (types, zoc): (&[UnitType], Option<&ZonesOfControl>),
        play: &PlayRules,
        (ty, size): (&str, &str),
    ) -> Facts {
        Facts {
            counts: !types.iter().any(|t| t.no_stacking && t.id == ty),
            mech: play.mechanized.iter().any(|t| t == ty),
            large: play.large_size.as_deref() == Some(size),
            zone: zoc.is_none_or(|z| !z.not_exerted_by.iter().any(|t| t == ty)),
        }
    }
}

/// Every counter's [`Facts`], in the content's order of counters.
pub(crate) fn all(game: &GameFile, play: &PlayRules, counters: &[Counter]) -> Vec<Facts> {
    counters
        .iter()
        .map(|c| Facts::of(game, play, (&c.unit_type, &c.size)))
        .collect()
}

impl Rules<'_> {
    /// What the rules say of a piece's counter: found by the piece's hint when it names its
    /// counter (nearly always), else worked out.
    pub(crate) fn facts(&self, unit: &Unit) -> Facts {
        let counters = &self.content.counters;
        match (counters.get(unit.hint), self.facts.get(unit.hint)) {
            (Some(c), Some(&f)) if c.id == unit.counter => f,
            _ => match self.counter(unit) {
                Some(c) => Facts::of(self.game, self.play, (&c.unit_type, &c.size)),
                // A counter of no type and no size.
                None => Facts::of(self.game, self.play, ("", "")),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_counters_facts_follow_its_type_and_size_as_the_rules_list_them() {
        let types = [UnitType {
            id: "hq".into(),
            name: "HQ".into(),
            no_stacking: true,
            notes: String::new(),
        }];
        let play = PlayRules {
            mechanized: vec!["panzer".into()],
            large_size: Some("army".into()),
            ..Default::default()
        };
        let of = |zoc, ty, size| Facts::by_lists((&types, zoc), &play, (ty, size));
        let f = of(None, "panzer", "army");
        assert!(f.counts && f.mech && f.large && f.zone);
        let f = of(None, "hq", "corps");
        assert!(!f.counts && !f.mech && !f.large && f.zone);
        let zoc = ZonesOfControl {
            not_exerted_by: vec!["hq".into()],
            ..Default::default()
        };
        assert!(!of(Some(&zoc), "hq", "corps").zone);
        assert!(of(Some(&zoc), "panzer", "corps").zone);
    }
}
