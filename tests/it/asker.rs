//! A condition asked of every space through one `Asker` (a play rule's condition: where a
//! marker moved by SR may go, where a unit enters from a box): the parts that do not name
//! `space` are asked once, and every space gets the answer the condition asked whole gives.

use sandtable_engine::script::check::{check_condition_with, Names};
use sandtable_engine::script::eval::{self, Asker};
use sandtable_engine::script::syntax::parse_expr;
use sandtable_engine::script::types::{Kind, Type};

use crate::cards::{b2b, campaign};
use crate::script_builtins::axis;

#[test]
fn a_condition_asked_of_every_space_asks_its_parts_without_space_once_and_answers_as_asked_whole() {
    let (content, mut state) = (b2b(), campaign());
    // Moscow holds a Stalin marker, as B2B's Stalin rule (5.5) asks about it.
    state.markers.push(sandtable_engine::state::MarkerOnMap {
        marker: "stalin".into(),
        space: "moscow".into(),
        level: 0,
        until: None,
    });
    let conditions = [
        // B2B's Stalin marker: where it may go by SR (5.5).
        "space.country == soviet_union and controls(allied, space) and not has_marker(space, stalin) and (not has_marker(moscow, stalin) or space == kuibishev or not (controls(allied, kuibishev) and full_supply_at(kuibishev, su)))",
        // A part without `space` first, then one with it, each way round.
        "controls(axis, warsaw) and controls(axis, space)",
        "controls(allied, space) or controls(axis, moscow)",
        "not (controls(allied, moscow) and space == moscow) and has_feature(space, urban)",
        // Parts without `space` only: asked once, the same for every space.
        "controls(allied, moscow) and not flag(okw_offensive)",
    ];
    for text in conditions {
        let (expr, mut errors) = parse_expr(text);
        let expr = expr.expect("an expression");
        let space = [("space", Type::Entity(Kind::Space))];
        errors.extend(check_condition_with(
            &expr,
            &Names::from_content(content),
            &space,
        ));
        assert!(errors.is_empty(), "{text}: {errors:?}");
        let mut asker = Asker::new(content, &state, axis());
        let mut held = 0;
        for s in &content.graph.spaces {
            asker.set_space(s.id);
            let ctx = eval::Context {
                space: Some(s.id),
                ..axis()
            };
            let whole = eval::condition(&expr, content, &state, &ctx).unwrap();
            assert_eq!(asker.condition(&expr).unwrap(), whole, "{text} at {}", s.id);
            held += usize::from(whole);
        }
        // Each holds somewhere: a space's answer is not always the first space's.
        assert!(held > 0, "{text} holds nowhere");
    }
}
