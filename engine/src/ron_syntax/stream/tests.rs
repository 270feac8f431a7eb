//! The text's reader against the tree's, on texts written to reach each of its paths.

use serde::Deserialize;

use super::from_text;
use crate::ron_syntax::{from_tree, parse};

#[derive(Debug, PartialEq, Deserialize)]
enum Shape {
    Dot,
    Size(i64),
    Pair(i64, i64),
    Named { a: i64, b: Option<String> },
}

#[derive(Debug, PartialEq, Deserialize)]
struct Sample {
    shape: Shape,
    maybe: Option<Shape>,
    #[serde(default)]
    list: Vec<Option<i64>>,
    #[serde(default)]
    map: std::collections::BTreeMap<String, f64>,
}

/// What the tree gives, or that it refuses.
fn by_tree(text: &str) -> Option<Sample> {
    from_tree(&parse(text).ok()?).ok()
}

#[test]
fn texts_read_as_their_trees_read() {
    for text in [
        "(shape: Dot, maybe: None)",
        "(shape: \"Dot\", maybe: Some(Size(3)))",
        "(shape: Size(3,), maybe: Some(Some(Dot)), list: [Some(1), None, 2])",
        "(shape: Pair(1, 2), maybe: (), list: [],)",
        "(shape: Named(a: 1, b: Some(\"x\")), maybe: Some(Named(a: 2, b: None)))",
        "(shape: (Size: 4), maybe: Some({\"Pair\": [5, 6]}))",
        "// a comment\n(shape: /* here */ Dot, maybe: None, map: {\"k\": 1.5, \"l\": 2})",
        "(shape: Pair([1, 2]), maybe: None)",
        "(shape: r#\"Dot\"#, maybe: None)",
        "(shape: Dot, maybe: Some(Size(-7)), list: [1_000])",
    ] {
        let tree = by_tree(text).unwrap_or_else(|| panic!("the tree reads {text}"));
        let read: Sample = from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(read, tree, "{text}");
    }
}

#[test]
fn texts_the_tree_refuses_are_refused() {
    for text in [
        "(shape: Dot, shape: Dot, maybe: None)",
        "(shape: Dot, maybe: None, map: (k: 1.0, k: 2.0))",
        "(shape: Dot, maybe: None) trailing",
        "(shape: Dot maybe: None)",
        "(shape: Size(), maybe: None)",
        "(shape: (Size: 4, Dot: ()), maybe: None)",
        "(shape: Dot, maybe: Some)",
        "(shape: Dot, maybe: None, list: [1 2])",
        "#![enable(implicit_some)]\n(shape: Dot, maybe: None)",
        "(shape: Dot, maybe: None, map: {1: 2.0})",
        "(shape: Dot, maybe: None, ignored: (x: 1, x: 2))",
    ] {
        assert!(by_tree(text).is_none(), "the tree reads {text}");
        assert!(from_text::<Sample>(text).is_err(), "{text} is read");
    }
}
