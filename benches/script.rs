//! The interpreter's own cost: tests a designer writes, each asked of every space a side
//! controls at the opening of Barbarossa to Berlin's campaign. On tests this light the walk
//! (the call's builtin found, its arguments evaluated and dropped, the names looked up) costs
//! more than the builtins' own work; in play the builtins a test calls cost most, and tests
//! compiled for their set, measured with this bench, did not pay (README, Performance).
//!
//! Run: `cargo bench --bench script`.

mod common;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use sandtable_engine::script::eval::{number, Context};
use sandtable_engine::state::State;

/// The expressions, each a number: the set alone, then the same set with tests of growing
/// weight, and the Orders Phase's pattern of a test within a test.
const EXPRESSIONS: [(&str, &str); 5] = [
    ("the_set_alone", "count(spaces(controlled_by: axis))"),
    (
        "a_test_of_true",
        "count(filter(spaces(controlled_by: axis), |s| true))",
    ),
    (
        "a_comparison_with_a_content_id",
        "count(filter(spaces(controlled_by: axis), |s| s == courland))",
    ),
    (
        "a_builtin_called",
        "count(filter(spaces(controlled_by: axis), |s| controls(axis, s)))",
    ),
    (
        "a_test_within_a_test",
        "count(filter(spaces(controlled_by: allied), |s| any(spaces(adjacent_to: s), |t| controls(axis, t))))",
    ),
];

fn bench_script(c: &mut Criterion) {
    let content = common::load("barbarossa-to-berlin");
    let scenario = content.scenario("campaign").expect("the campaign");
    let state = State::new(&content, scenario, 7).expect("the campaign sets up");
    let ctx = Context {
        me: "axis".into(),
        enemy: "allied".into(),
        ..Context::default()
    };
    let mut group = c.benchmark_group("script_tests_of_the_campaign_opening");
    for (name, text) in EXPRESSIONS {
        let (expr, errors) = sandtable_engine::script::syntax::parse_expr(text);
        let expr = expr.expect("parses");
        assert!(errors.is_empty(), "{name}: {errors:?}");
        let checked = sandtable_engine::script::check::check_number_with(
            &expr,
            &sandtable_engine::script::check::Names::from_content(&content),
            &[],
        );
        assert!(checked.is_empty(), "{name}: {checked:?}");
        group.bench_with_input(BenchmarkId::from_parameter(name), &expr, |b, expr| {
            b.iter(|| number(expr, &content, &state, &ctx).expect("evaluates"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_script);
criterion_main!(benches);
