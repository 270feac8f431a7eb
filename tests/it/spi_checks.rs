//! What the checker says of SPI Barbarossa's Variable Situations 4 and 5 when their data is
//! wrong: an optional rule's `first_turn` and a free set-up's (`Deploy`) references.

use sandtable_engine::load::load_dir;

/// The errors of a copy of SPI Barbarossa with `from` replaced by `to` in one file, rendered
/// with their places.
fn errors_with(file: &str, from: &str, to: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::root().join("content/spi-barbarossa"), dir.path());
    let path = dir.path().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains(from), "{from}");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let loaded = load_dir(dir.path());
    loaded
        .errors()
        .map(|d| loaded.sources.render_line(d))
        .collect()
}

fn assert_one(errors: &[String], code: &str, place: &str, says: &str) {
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(code) && errors[0].contains(place) && errors[0].contains(says),
        "expected {code} at {place} saying {says}: {errors:?}"
    );
}

#[test]
fn variable_situation_4_an_options_first_turn_must_be_on_the_turn_record_before_the_end() {
    let file = "scenarios/barbarossa.ron";
    let errors = errors_with(file, "first_turn: Some(1)", "first_turn: Some(60)");
    assert_one(&errors, "E0201", file, "turn 60 is not on the turn record");
    let errors = errors_with(file, "first_turn: Some(1)", "first_turn: Some(9)");
    assert_one(
        &errors,
        "E0207",
        file,
        "would begin (turn 9) after it ends (turn 8)",
    );
}

#[test]
fn variable_situation_5_a_free_set_up_names_a_side_a_region_and_a_flag_that_exist() {
    let from = r#"region: "barbarossa_soviet",
                        while_flag"#;
    let to = r#"region: "barbarossa_sovjet",
                        while_flag"#;
    let errors = errors_with("game.ron", from, to);
    assert_one(&errors, "E0201", "game.ron", "barbarossa_sovjet");
    let from = r#"while_flag: Some("vs05_soviet_defence_in_depth")"#;
    let to = r#"while_flag: Some("vs05_defence_in_depth")"#;
    let errors = errors_with("game.ron", from, to);
    assert_one(&errors, "E0201", "game.ron", "vs05_defence_in_depth");
}
