//! What a condition or number reads, found from its text: for hooks (and the play rules' and
//! the cards' conditions) whose results can be remembered by what they read (see
//! `rules::hook_memo`).

use super::syntax::{BinaryOp, Expr, ExprKind};

/// What a script reads, in a fixed order: the key's parts.
#[derive(Debug, Clone, PartialEq)]
pub enum Read {
    /// A name, through these fields only (none: the name itself).
    Name {
        name: crate::id::Id,
        fields: Vec<String>,
        /// Whether it is read wholly or through its `space` (of a unit: more than its counter
        /// fixes), worked out once from `fields`.
        whole: bool,
    },
    Flag(crate::id::Id),
    /// `has_marker(space, marker)` with both written as names: whether that marker lies on
    /// that space.
    Marker {
        space: crate::id::Id,
        marker: crate::id::Id,
    },
    Turn,
    Round,
    /// `played(card)`, `played_this_turn(card)` or `turn_played(card)` with the card written
    /// as a name: whether it was played (this turn), or the turn it was first played.
    Played {
        card: crate::id::Id,
        how: Played,
    },
    /// Who controls every space (`spaces(controlled_by: side)`): the control table's stamp,
    /// which no other table with other contents had.
    Control,
    /// `controls(side, space)` with both written as names: whether that side controls it.
    Controls {
        side: crate::id::Id,
        space: crate::id::Id,
    },
}

impl Read {
    /// Whether what it finds is a yes or a no (a flag, a marker, a card played, control of a
    /// space), which a memo's key holds in one bit.
    pub fn is_yes_or_no(&self) -> bool {
        match self {
            Read::Flag(_) | Read::Marker { .. } | Read::Controls { .. } => true,
            Read::Played { how, .. } => *how != Played::Turn,
            Read::Name { .. } | Read::Turn | Read::Round | Read::Control => false,
        }
    }
}

/// What a [`Read::Played`] asks of a card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Played {
    /// Whether it has been played as an event in this game.
    Ever,
    /// Whether it has been played as an event this turn.
    ThisTurn,
    /// The turn it was first played (0 if it has not been).
    Turn,
}

/// Builtins whose result depends on their arguments and the content only (`season` and
/// `year` on the turn, read as [`Read::Turn`]).
const PURE: &[&str] = &[
    "connected_by",
    "in_region",
    "has_feature",
    "adjacent",
    "distance",
    "min",
    "max",
    "contains",
    "count",
    "exists",
    "union",
];

/// The filters of `spaces(...)` that read the map only: a call with no other reads the
/// content alone.
const MAP_FILTERS: &[&str] = &["region", "country", "terrain", "feature", "adjacent_to"];

/// How a script's result can be remembered.
#[derive(Debug, Clone, PartialEq)]
pub enum Memo {
    /// Wholly, by what it reads.
    Whole(Vec<Read>),
    /// A condition by its first part only: the `and`s `depth` steps down its left side, which
    /// reads these. When that part is false, so is the whole; else the whole is evaluated.
    Guard { depth: usize, reads: Vec<Read> },
}

/// How a script can be remembered, if it can: wholly, or a chain of `and`s by the longest
/// first part that can be.
pub fn memo(e: &Expr) -> Option<Memo> {
    if let Some(reads) = analyse(e) {
        return Some(Memo::Whole(reads));
    }
    let (mut at, mut depth) = (e, 0);
    while let ExprKind::Binary {
        op: BinaryOp::And,
        left,
        ..
    } = &at.kind
    {
        depth += 1;
        if let Some(reads) = analyse(left) {
            return Some(Memo::Guard { depth, reads });
        }
        at = left;
    }
    None
}

/// Whether `test` holds of every part of a chain of `and`s ([`conjuncts`]), asked first to
/// last and stopping at the first that fails (the cheap guards come first, as a designer
/// writes them: `me == axis and ... and count(...) >= 2`); without making their list.
pub fn all_conjuncts(e: &Expr, test: &mut impl FnMut(&Expr) -> bool) -> bool {
    match &e.kind {
        ExprKind::Binary {
            op: BinaryOp::And,
            left,
            right,
        } => all_conjuncts(left, test) && test(right),
        _ => test(e),
    }
}

/// The parts of a chain of `and`s, first to last: `a and b and c` is `a`, `b`, `c`; an
/// expression that is no such chain is its one part.
pub fn conjuncts(e: &Expr) -> Vec<&Expr> {
    let mut parts = Vec::new();
    let mut at = e;
    while let ExprKind::Binary {
        op: BinaryOp::And,
        left,
        right,
    } = &at.kind
    {
        parts.push(&**right);
        at = left;
    }
    parts.push(at);
    parts.reverse();
    parts
}

/// Whether an expression names any of `names` anywhere in it: as a variable, a name its
/// place gives, a lambda's parameter or a content id spelt the same. Whatever the name stands
/// for there, an expression that names none of them cannot depend on their values.
pub fn names_any(e: &Expr, names: &[crate::id::Id]) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Text(_) | ExprKind::Error => false,
        ExprKind::Name(n) => names.contains(n),
        ExprKind::Field { target, .. } => names_any(target, names),
        ExprKind::Unary { operand, .. } => names_any(operand, names),
        ExprKind::Binary { left, right, .. } => names_any(left, names) || names_any(right, names),
        ExprKind::Call { args, .. } => args.iter().any(|a| names_any(&a.value, names)),
        ExprKind::Lambda { param, body } => names.contains(&param.name) || names_any(body, names),
        ExprKind::List(items) => items.iter().any(|x| names_any(x, names)),
    }
}

/// A chain of `and`s as its guard, its first part `depth` steps down its left side, and the
/// parts after it, first to last: `a and b and c` at depth 2 is `a`, then `b`, `c`.
pub fn split_guard(e: &Expr, depth: usize) -> (&Expr, smallvec::SmallVec<[&Expr; 8]>) {
    let mut rest = smallvec::SmallVec::new();
    let mut at = e;
    for _ in 0..depth {
        match &at.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                left,
                right,
            } => {
                rest.push(&**right);
                at = left;
            }
            _ => break,
        }
    }
    rest.reverse();
    (at, rest)
}

/// What a script reads, if it reads nothing else (see the module's notes).
pub fn analyse(e: &Expr) -> Option<Vec<Read>> {
    let mut reads = Vec::new();
    walk(e, &mut reads).then_some(reads)
}

fn walk(e: &Expr, reads: &mut Vec<Read>) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Text(_) => true,
        ExprKind::Name(n) => {
            note(reads, n, None);
            true
        }
        ExprKind::Field { target, field } => match &target.kind {
            ExprKind::Name(n) => {
                note(reads, n, Some(&field.name));
                true
            }
            _ => false,
        },
        ExprKind::Unary { operand, .. } => walk(operand, reads),
        ExprKind::Binary { left, right, .. } => walk(left, reads) && walk(right, reads),
        ExprKind::Call { name, args } => {
            let positional = args.iter().all(|a| a.name.is_none());
            match name.name.as_str() {
                "flag" => match bare_names(args) {
                    Some([f]) => {
                        push_new(reads, Read::Flag(f));
                        // The flag's name could be a name the point gives: read it too.
                        note(reads, &f, None);
                        true
                    }
                    None => false,
                },
                "has_marker" | "controls" => match bare_names(args) {
                    Some([a, b]) => {
                        push_new(
                            reads,
                            match name.name.as_str() {
                                "has_marker" => Read::Marker {
                                    space: a,
                                    marker: b,
                                },
                                _ => Read::Controls { side: a, space: b },
                            },
                        );
                        true
                    }
                    None => false,
                },
                "played" | "played_this_turn" | "turn_played" => match bare_names(args) {
                    Some([card]) => {
                        let how = match name.name.as_str() {
                            "played" => Played::Ever,
                            "played_this_turn" => Played::ThisTurn,
                            _ => Played::Turn,
                        };
                        push_new(reads, Read::Played { card, how });
                        true
                    }
                    None => false,
                },
                "turn" | "season" | "year" => {
                    if !reads.contains(&Read::Turn) {
                        reads.push(Read::Turn);
                    }
                    args.is_empty()
                }
                "round" => {
                    if !reads.contains(&Read::Round) {
                        reads.push(Read::Round);
                    }
                    args.is_empty()
                }
                "spaces" => args.iter().all(|a| {
                    let Some(filter) = a.name.as_ref().map(|n| n.name.as_str()) else {
                        return false;
                    };
                    if filter == "controlled_by" {
                        push_new(reads, Read::Control);
                    } else if !MAP_FILTERS.contains(&filter) {
                        return false;
                    }
                    walk(&a.value, reads)
                }),
                builtin if PURE.contains(&builtin) => {
                    positional && args.iter().all(|a| walk(&a.value, reads))
                }
                _ => false,
            }
        }
        ExprKind::Lambda { .. } | ExprKind::List(_) | ExprKind::Error => false,
    }
}

/// The builtins that read no piece beyond those given them as values: what they read of the
/// state besides (flags, markers, control, cards, the turn) is the state's, not a piece's.
const NO_OTHER_PIECES: &[&str] = &[
    "turn",
    "round",
    "season",
    "year",
    "track",
    "flag",
    "played",
    "turn_played",
    "played_this_turn",
    "pile_cards",
    "hand_size",
    "hand",
    "controller",
    "controls",
    "neutral",
    "adjacent",
    "has_marker",
    "has_feature",
    "in_region",
    "count",
    "exists",
    "any",
    "all",
    "filter",
    "union",
    "contains",
    "min",
    "max",
    "unit_flag",
    "marker_level",
    "distance",
    "path",
    "connected_by",
    "out_of_supply",
    "activated",
    "impulse",
    "mp_left",
];

/// Whether a script reads no piece but those its names give it (a hook's `u`, `attackers`,
/// and the members of sets made of them): it finds no pieces by where they stand (`units`,
/// `spaces(occupied_by: ...)`) and traces no supply (which every piece on the map may change).
/// What else it reads of the state is the state's, not a piece's. Used to keep a unit's moves
/// from one prompt to the next while the pieces that changed are far from it.
pub fn reads_only_given_pieces(e: &Expr) -> bool {
    every_call(e, &|name, args| match name {
        "spaces" => spaces_by_the_map(args),
        other => NO_OTHER_PIECES.contains(&other),
    })
}

/// Whether a call of `spaces` finds its spaces by the map alone: its filters, its markers and
/// who controls it, never by the pieces on it.
fn spaces_by_the_map(args: &[super::syntax::Arg]) -> bool {
    args.iter().all(|a| {
        a.name
            .as_ref()
            .map(|n| n.name.as_str())
            .is_some_and(|f| MAP_FILTERS.contains(&f) || matches!(f, "controlled_by" | "marker"))
    })
}

/// Whether a condition asked of a space (`space`) reads no piece but those standing in it: it
/// finds pieces only by `units(in: space, ...)`, never by `spaces(occupied_by: ...)` or a
/// supply trace, and names no test's member `space`. Used to leave a space's answer as it was
/// while no piece came to the space or left it.
pub fn reads_pieces_only_in_space(e: &Expr) -> bool {
    let in_space = |a: &super::syntax::Arg| {
        a.name.as_ref().is_some_and(|n| n.name.as_str() == "in")
            && matches!(&a.value.kind, ExprKind::Name(n) if n.as_str() == "space")
    };
    !rebinds_space(e)
        && every_call(e, &|name, args| match name {
            "units" => args.iter().any(in_space),
            "spaces" => spaces_by_the_map(args),
            other => NO_OTHER_PIECES.contains(&other),
        })
}

/// Whether a script reads no marker: no `has_marker`, `marker_level` or
/// `needed_for_supply`, no `spaces(marker: ...)`, and no supply trace (which markers may open
/// or close). Used to leave the `counts_as` rules' answers as they were while only markers
/// that are not theirs came or went.
pub fn reads_no_markers(e: &Expr) -> bool {
    every_call(e, &|name, args| match name {
        "spaces" => {
            !(args.iter()).any(|a| a.name.as_ref().is_some_and(|n| n.name.as_str() == "marker"))
        }
        "has_marker" | "marker_level" | "needed_for_supply" => false,
        other => STAMPED.contains(&other),
    })
}

/// Whether a test within a script names its member `space`, hiding the space asked about.
fn rebinds_space(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Text(_) | ExprKind::Name(_) => false,
        ExprKind::Error => true,
        ExprKind::Field { target, .. } => rebinds_space(target),
        ExprKind::Unary { operand, .. } => rebinds_space(operand),
        ExprKind::Binary { left, right, .. } => rebinds_space(left) || rebinds_space(right),
        ExprKind::Lambda { param, body } => param.name.as_str() == "space" || rebinds_space(body),
        ExprKind::List(items) => items.iter().any(rebinds_space),
        ExprKind::Call { args, .. } => args.iter().any(|a| rebinds_space(&a.value)),
    }
}

/// The builtins whose answers follow from the content, their arguments and the parts of the
/// state that take a fresh stamp at every change: the pieces (where they stand, their steps,
/// whom they serve), the markers, control and the flags; with the turn and the round.
const STAMPED: &[&str] = &[
    "units",
    "spaces",
    "controls",
    "controller",
    "neutral",
    "has_marker",
    "flag",
    "turn",
    "round",
    "season",
    "year",
    "exists",
    "count",
    "contains",
    "union",
    "filter",
    "any",
    "all",
    "min",
    "max",
    "adjacent",
    "has_feature",
    "in_region",
    "connected_by",
    "distance",
];

/// Whether a script reads nothing of the state but its stamped parts (see [`STAMPED`]), the
/// turn and the round: asked again with the same names while those stamps, the turn and the
/// round are the same, it answers the same. No supply (which hooks may make read anything),
/// no track, no card.
pub fn reads_only_stamped_parts(e: &Expr) -> bool {
    every_call(e, &|name, _| STAMPED.contains(&name))
}

/// Whether every call a script makes, in its arguments and tests too, passes `allowed`
/// (asked of its builtin's name and its arguments); a part that did not check passes none.
fn every_call(e: &Expr, allowed: &impl Fn(&str, &[super::syntax::Arg]) -> bool) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Bool(_) | ExprKind::Text(_) | ExprKind::Name(_) => true,
        ExprKind::Error => false,
        ExprKind::Field { target, .. } => every_call(target, allowed),
        ExprKind::Unary { operand, .. } => every_call(operand, allowed),
        ExprKind::Binary { left, right, .. } => {
            every_call(left, allowed) && every_call(right, allowed)
        }
        ExprKind::Lambda { body, .. } => every_call(body, allowed),
        ExprKind::List(items) => items.iter().all(|x| every_call(x, allowed)),
        ExprKind::Call { name, args } => {
            allowed(name.name.as_str(), args) && args.iter().all(|a| every_call(&a.value, allowed))
        }
    }
}

/// The arguments of a call, when there are `N` and each is a name written bare, without its
/// parameter's name.
fn bare_names<const N: usize>(args: &[super::syntax::Arg]) -> Option<[crate::id::Id; N]> {
    let names: Vec<crate::id::Id> = args
        .iter()
        .map(|a| match (&a.name, &a.value.kind) {
            (None, ExprKind::Name(n)) => Some(*n),
            _ => None,
        })
        .collect::<Option<_>>()?;
    names.try_into().ok()
}

/// Adds a read the list does not hold yet.
fn push_new(reads: &mut Vec<Read>, read: Read) {
    if !reads.contains(&read) {
        reads.push(read);
    }
}

/// Notes that a name is read, wholly (`field` none) or through a field.
fn note(reads: &mut Vec<Read>, name: &str, field: Option<&str>) {
    let at = reads
        .iter()
        .position(|r| matches!(r, Read::Name { name: n, .. } if *n == name));
    let i = at.unwrap_or_else(|| {
        reads.push(Read::Name {
            name: name.into(),
            fields: Vec::new(),
            whole: false,
        });
        reads.len() - 1
    });
    if let Read::Name { fields, whole, .. } = &mut reads[i] {
        *whole |= field.is_none_or(|f| f == "space");
        match field {
            Some(f) => {
                if !fields.iter().any(|x| x == f) {
                    fields.push(f.to_string());
                }
            }
            // Read wholly: marked by an empty field.
            None => {
                if !fields.iter().any(String::is_empty) {
                    fields.push(String::new());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::syntax::{parse_expr, print_expr};

    fn expr(text: &str) -> Expr {
        parse_expr(text).0.expect("the test's expression parses")
    }

    #[test]
    fn a_chain_of_ands_is_its_guard_then_the_parts_after_it_in_order() {
        let e = expr("turn() > 1 and played(a) and flag(b) and count(units()) > 2");
        let printed = |parts: &[&Expr]| parts.iter().map(|p| print_expr(p)).collect::<Vec<_>>();
        for (depth, guarded, rest) in [
            (
                0,
                "turn() > 1 and played(a) and flag(b) and count(units()) > 2",
                vec![],
            ),
            (
                1,
                "turn() > 1 and played(a) and flag(b)",
                vec!["count(units()) > 2"],
            ),
            (
                2,
                "turn() > 1 and played(a)",
                vec!["flag(b)", "count(units()) > 2"],
            ),
            (
                3,
                "turn() > 1",
                vec!["played(a)", "flag(b)", "count(units()) > 2"],
            ),
            // Past the chain's first part: the first part, and every part after it.
            (
                5,
                "turn() > 1",
                vec!["played(a)", "flag(b)", "count(units()) > 2"],
            ),
        ] {
            let (guard, after) = split_guard(&e, depth);
            assert_eq!(print_expr(guard), guarded, "depth {depth}");
            assert_eq!(printed(&after), rest, "depth {depth}");
            // The guard's parts and the parts after it are the chain's parts.
            let whole: Vec<&Expr> = conjuncts(guard).into_iter().chain(after).collect();
            assert_eq!(printed(&whole), printed(&conjuncts(&e)));
        }
        assert!(split_guard(&expr("played(a) or flag(b)"), 2).1.is_empty());
    }

    /// Asks `analysis` of each script: it holds of every one of `yes` and of none of `no`.
    fn sorts(analysis: fn(&Expr) -> bool, yes: &[&str], no: &[&str]) {
        for text in yes {
            assert!(analysis(&expr(text)), "{text}");
        }
        for text in no {
            assert!(!analysis(&expr(text)), "{text}");
        }
    }

    #[test]
    fn a_script_that_finds_pieces_by_where_they_stand_or_traces_supply_reads_other_pieces() {
        sorts(
            reads_only_given_pieces,
            &[
                "(u.type == armor or u.type == armored_infantry) and to.terrain == rough",
                "all(attackers, |a| connected_by(a.space, defending_space, river))",
                "any(spaces(adjacent_to: defending_space), |s| not in_region(s, ussr))",
                "not contains(spaces(controlled_by: axis, region: berlin), to) and flag(frozen)",
                "attacking and out_of_supply(u) and mp_left(u) > 2",
            ],
            &[
                "exists(units(in: to, side: axis))",
                "count(filter(attackers, |a| in_supply(a))) > 1",
                "contains(spaces(occupied_by: axis), to)",
                "full_supply(u)",
                "available(ge_panzer_army) > 0",
            ],
        );
    }

    #[test]
    fn a_script_of_pieces_markers_control_flags_and_the_turn_reads_only_stamped_parts() {
        sorts(
            reads_only_stamped_parts,
            &[
                "not exists(units(in: space, side: axis))",
                "has_marker(space, partisan) and controls(allied, space) and flag(f)",
                "count(filter(spaces(region: r, occupied_by: axis), |s| s.vp > 0)) > turn()",
                "any(units(side: axis), |u| u.space == space and not u.reduced)",
            ],
            &[
                "in_supply(u)",
                "full_supply_at(space, ge)",
                "track(vp) > 3",
                "played(partisans) and not exists(units(in: space))",
                "available(ge_panzer_army) > 0",
            ],
        );
    }

    #[test]
    fn a_counts_as_condition_that_finds_pieces_only_in_its_space_reads_no_other_piece() {
        // 16.3: a Partisan space counts for the Allies unless an Axis unit occupies it.
        sorts(
            reads_pieces_only_in_space,
            &[
                "not exists(units(in: space, side: axis))",
                "count(units(in: space, nation: ge)) < 2 and controls(allied, space)",
                "has_marker(space, partisan) and count(spaces(region: r, controlled_by: axis)) > 3",
            ],
            &[
                "not exists(units(side: axis))",
                "not exists(units(in: moscow, side: axis))",
                "any(units(side: axis), |u| u.space == space)",
                "count(spaces(occupied_by: axis, adjacent_to: space)) == 0",
                "any(spaces(adjacent_to: space), |space| exists(units(in: space)))",
                "in_supply(u)",
            ],
        );
    }

    #[test]
    fn a_counts_as_condition_that_names_no_marker_reads_no_marker() {
        // 16.3: whether a Partisan space counts for the Allies does not hang on other markers.
        sorts(
            reads_no_markers,
            &[
                "not exists(units(in: space, side: axis))",
                "controls(allied, space) and count(spaces(controlled_by: axis)) > 3",
            ],
            &[
                "has_marker(space, move) or not exists(units(in: space, side: axis))",
                "marker_level(space, partisan) > 1",
                "count(spaces(marker: partisan)) > 2",
                "in_supply(u)",
            ],
        );
    }

    #[test]
    fn a_chain_of_ands_splits_into_its_parts_in_order() {
        let e = expr("me == axis and turn() <= 4 and (from.country == su or to.country == su)");
        let parts: Vec<String> = conjuncts(&e).into_iter().map(print_expr).collect();
        assert_eq!(
            parts,
            [
                "me == axis",
                "turn() <= 4",
                "from.country == su or to.country == su"
            ]
        );
        assert_eq!(conjuncts(&expr("a or b and c")).len(), 1);
    }

    #[test]
    fn a_name_is_found_in_fields_calls_lambdas_and_lists_but_not_in_argument_names() {
        let names = [crate::Id::new("from"), crate::Id::new("to")];
        for named in [
            "from.terrain == desert",
            "connected_by(from, x, sea)",
            "any(spaces(adjacent_to: to), |s| s.country == yu)",
            "any(units, |to| to.size == lcu)",
            "contains([a, from], b)",
            "not to.country == turkey",
        ] {
            assert!(names_any(&expr(named), &names), "{named}");
        }
        for not_named in [
            "u.nation == su and controls(axis, moscow)",
            "count(units(side: axis, from_box: x)) >= 2",
            "me == axis and turn() <= 4",
        ] {
            assert!(!names_any(&expr(not_named), &names), "{not_named}");
        }
    }
}
