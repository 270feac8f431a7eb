//! How the content's scripts can be remembered (see `rules::hook_memo`): what each hook's
//! condition and number, each part of a hook's condition, each point's modifier hooks
//! together, each play rule's condition and each card's `playable` condition read, found once
//! per content, each with its number among the remembered scripts.

use super::Content;

impl Content {
    /// How the `which`th script (0 the condition, 1 the number or `May` condition) of the
    /// hook at `index` in `game.ron`'s `hooks` can be remembered, with its number among the
    /// remembered scripts.
    pub(crate) fn hook_memo(
        &self,
        index: usize,
        which: usize,
    ) -> (usize, Option<&crate::script::reads::Memo>) {
        let all = self.hook_reads.get_or_init(|| {
            let hooks = &self.sequence.hooks;
            let mut all = vec![None; hooks.iter().map(|h| h.index * 2 + 2).max().unwrap_or(0)];
            for h in hooks {
                for (which, e) in [&h.when, &h.value].into_iter().enumerate() {
                    all[h.index * 2 + which] = e.as_ref().and_then(crate::script::reads::memo);
                }
            }
            all
        });
        let script = index * 2 + which;
        (script, all.get(script).and_then(Option::as_ref))
    }

    /// What each part of hook `index`'s condition reads (each of its chain of `and`s, in the
    /// order `reads::conjuncts` gives them), found once: a procedure asking a point's hooks
    /// step by step keeps each part's results by step (`rules::hooks::StepVerdicts`).
    pub(crate) fn hook_part_memos(&self, index: usize) -> &[Option<crate::script::reads::Memo>] {
        let all = self.part_reads.get_or_init(|| {
            self.by_hook_part(|parts| parts.map(crate::script::reads::memo).collect())
        });
        all.get(index).map_or(&[], Vec::as_slice)
    }

    /// The kinds of marker hook `index`'s condition needs on the map: each of its chain of
    /// `and`s that is `has_marker(s, m)` with `m` a marker of the content, found once. While
    /// no marker of such a kind is on the map, the condition does not hold, whatever else it
    /// reads (`rules::hooks` asks no further), unless the hook's point gives a name `m`.
    pub(crate) fn hook_needs(&self, index: usize) -> &[crate::Id] {
        let all = self.hook_needs.get_or_init(|| {
            self.by_hook_part(|parts| parts.filter_map(|e| self.marker_needed(e)).collect())
        });
        all.get(index).map_or(&[], Vec::as_slice)
    }

    /// What `of` makes of each hook's condition's chain of `and`s (`reads::conjuncts`, in its
    /// order), by the hook's place in `game.ron`'s `hooks` (empty for a hook without one).
    fn by_hook_part<T>(
        &self,
        of: impl Fn(&mut dyn Iterator<Item = &crate::script::syntax::Expr>) -> Vec<T>,
    ) -> Vec<Vec<T>> {
        let hooks = &self.sequence.hooks;
        let mut all: Vec<Vec<T>> = (0..hooks.iter().map(|h| h.index + 1).max().unwrap_or(0))
            .map(|_| Vec::new())
            .collect();
        for h in hooks {
            if let Some(w) = &h.when {
                all[h.index] = of(&mut crate::script::reads::conjuncts(w).into_iter());
            }
        }
        all
    }

    /// The marker kind `e` needs on the map when it is `has_marker(s, m)`, its second argument
    /// a name the checker found to be an id of the content, and a marker's.
    fn marker_needed(&self, e: &crate::script::syntax::Expr) -> Option<crate::Id> {
        use crate::script::syntax::{Binding, ExprKind};
        let ExprKind::Call { name, args } = &e.kind else {
            return None;
        };
        let [space, marker] = args.as_slice() else {
            return None;
        };
        let ExprKind::Name(m) = marker.value.kind else {
            return None;
        };
        let found = matches!(marker.value.found.get(), Some(Binding::Content { .. }));
        let is_marker =
            (self.game.as_ref()).is_some_and(|g| g.markers.iter().any(|k| k.id == m.as_str()));
        (name.name == "has_marker"
            && space.name.is_none()
            && marker.name.is_none()
            && found
            && is_marker)
            .then_some(m)
    }

    /// What the hooks at a point read together, when every condition and number of theirs can
    /// be remembered wholly: the value they make of a number is then a function of those reads
    /// and the number (the running `value` each hook sees is made from them). Numbered among
    /// the remembered scripts after the cards' conditions.
    pub(crate) fn point_memo(
        &self,
        at: crate::model::HookPoint,
    ) -> Option<(usize, &[crate::script::reads::Read])> {
        use crate::script::reads::{Memo, Read};
        let all = self.point_reads.get_or_init(|| {
            let hooks = &self.sequence.hooks;
            let mut points: Vec<crate::model::HookPoint> = hooks.iter().map(|h| h.at).collect();
            points.sort();
            points.dedup();
            let value = crate::Id::new("value");
            let first = usize::MAX / 8 * 7;
            let mut all = Vec::new();
            'point: for (k, at) in points.into_iter().enumerate() {
                // A bare name the point does not give is an id of the content (the checker
                // types it so), the same every time: not read (`armor` in `u.type == armor`).
                let given = |name: &crate::Id| {
                    matches!(name.as_str(), "me" | "enemy" | "space")
                        || at.names().iter().any(|(n, _)| *n == name.as_str())
                };
                let mut reads: Vec<Read> = Vec::new();
                for h in hooks.iter().filter(|h| h.at == at) {
                    for which in [0, 1] {
                        let script = [&h.when, &h.value][which];
                        if script.is_none() {
                            continue;
                        }
                        let Some(Memo::Whole(own)) = self.hook_memo(h.index, which).1 else {
                            continue 'point;
                        };
                        for r in own {
                            match r {
                                Read::Name { name, .. } if *name == value || !given(name) => {}
                                // A name read by several hooks, through several fields, makes
                                // one word: read once, wholly if any reads it so.
                                Read::Name {
                                    name,
                                    fields,
                                    whole,
                                } => {
                                    let known = reads.iter_mut().find_map(|x| match x {
                                        Read::Name {
                                            name: n,
                                            fields,
                                            whole,
                                        } if n == name => Some((fields, whole)),
                                        _ => None,
                                    });
                                    match known {
                                        Some((known, w)) => {
                                            *w |= *whole;
                                            for f in fields {
                                                if !known.contains(f) {
                                                    known.push(f.clone());
                                                }
                                            }
                                        }
                                        None => reads.push(r.clone()),
                                    }
                                }
                                _ if !reads.contains(r) => reads.push(r.clone()),
                                _ => {}
                            }
                        }
                    }
                }
                all.push((at, first + k, reads));
            }
            all
        });
        all.iter()
            .find(|(point, _, _)| *point == at)
            .map(|(_, script, reads)| (*script, reads.as_slice()))
    }

    /// How the play rules' condition at `pointer` can be remembered, with its number among the
    /// remembered scripts (after the hooks').
    pub(crate) fn condition_memo(
        &self,
        pointer: &str,
    ) -> Option<(usize, &crate::script::reads::Memo)> {
        let all = self.condition_reads.get_or_init(|| {
            // After every hook's two scripts, whatever their number.
            let first = usize::MAX / 2;
            self.sequence
                .conditions
                .iter()
                .enumerate()
                .filter_map(|(i, (at, e))| {
                    Some((at.clone(), (first + i, crate::script::reads::memo(e)?)))
                })
                .collect()
        });
        all.get(pointer).map(|(i, memo)| (*i, memo))
    }

    /// How a card's `playable` condition can be remembered, with its number among the
    /// remembered scripts (after the play rules' conditions).
    pub(crate) fn playable_memo(&self, card: &str) -> (usize, Option<&crate::script::reads::Memo>) {
        let all = self.card_reads.get_or_init(|| {
            let first = usize::MAX / 4 * 3;
            self.scripts
                .iter()
                .enumerate()
                .filter_map(|(i, (card, s))| {
                    let memo = crate::script::reads::memo(s.playable.as_ref()?)?;
                    Some((card.clone(), (first + i, memo)))
                })
                .collect()
        });
        match all.get(card) {
            Some((i, memo)) => (*i, Some(memo)),
            None => (usize::MAX, None),
        }
    }
}
