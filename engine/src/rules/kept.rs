//! What a prompt or a script worked out, kept in the flow for the next one while what it
//! depends on cannot have changed: derived data, so two flows that differ only in it are the
//! same (`PartialEq` holds), and it prints as nothing.

/// What the last run of a sequence script, a free action's or an event's read before the
/// question it asks (`eval::Replay`), with the task it belongs to: its place on the stack and
/// how many answers it had. Its next run, with one answer more, takes those values. Any other
/// act drops it. Derived data: two flows that differ only in it are the same, and it prints as
/// nothing.
#[derive(Clone, Default)]
pub struct KeptReplay(pub(crate) Option<(ReplayKey, std::sync::Arc<crate::script::eval::Replay>)>);

/// Whose a kept replay is: the content's number, the task's place on the stack, and how many
/// answers it had.
pub(crate) type ReplayKey = (u64, usize, usize);

/// Derived data: two holders that differ only in it are the same (`PartialEq` always holds),
/// and it prints as nothing (`..`).
macro_rules! derived_data {
    ($t:ty) => {
        impl PartialEq for $t {
            fn eq(&self, _: &$t) -> bool {
                true
            }
        }

        impl std::fmt::Debug for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("..")
            }
        }
    };
}
pub(crate) use derived_data;

derived_data!(KeptReplay);

/// The activation costs an Activate prompt worked out (each space's, for movement and for
/// combat), kept for the side's next Activate prompt of the same operations: activating a
/// space changes only where the activation markers lie, and when nothing that decides a cost
/// reads those markers the others' costs stand (`procedures::operations`); they are kept with
/// the number of the content that worked them out. Derived data:
/// two tasks that differ only in it are the same, and it prints as nothing.
#[derive(Clone, Default)]
pub struct KeptCosts(pub(crate) Option<(u64, std::sync::Arc<Vec<SpaceCosts>>)>);

/// A space's activation costs, for movement and for combat (none where it is not allowed).
pub(crate) type SpaceCosts = (crate::Id, [Option<u32>; 2]);

derived_data!(KeptCosts);

/// The stamps at which the victory track was last brought up to date with the `counts_as`
/// rules (`control::settle_counted_vp`), when their conditions read only the state's stamped
/// parts: while the state's are the same, settling again would change nothing. With them,
/// the rules' own markers then (marker, space), when their conditions read no marker: while
/// those stand, other markers' comings and goings change nothing either. Derived data: two
/// states that differ only in it are the same, and it prints as nothing.
#[derive(Clone, Default)]
pub struct KeptSettled(
    pub(crate) Option<super::control::SettledAt>,
    pub(crate) smallvec::SmallVec<[(crate::Id, crate::Id); 4]>,
);

derived_data!(KeptSettled);
