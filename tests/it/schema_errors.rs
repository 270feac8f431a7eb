//! A schema error inside a nested block names the field at fault, at its place, and never
//! prints the block's JSON (issue 16).

/// The rendered errors of a copy of Barbarossa to Berlin with one replacement in game.ron.
fn errors_with(from: &str, to: &str) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    crate::copy_tree(&crate::b2b(), dir.path());
    let game = dir.path().join("game.ron");
    let text = std::fs::read_to_string(&game).unwrap();
    assert!(text.contains(from), "game.ron holds {from}");
    std::fs::write(&game, text.replacen(from, to, 1)).unwrap();
    let loaded = sandtable_engine::load::load_dir(dir.path());
    loaded.errors().map(|d| loaded.sources.render(d)).collect()
}

fn assert_one_error_naming(errors: &[String], field: &str, says: &str) {
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert!(e.contains(field), "names {field}: {e}");
    assert!(e.contains(says), "says {says}: {e}");
    assert!(!e.contains('{'), "no JSON dump: {e}");
}

#[test]
fn a_wrong_type_deep_in_a_sequence_step_names_its_field() {
    let errors = errors_with(
        "                        rounds: 6,",
        "                        rounds: \"6\",",
    );
    assert_one_error_naming(
        &errors,
        "`sequence › 2 › steps › 0 › ActionRounds › rounds`",
        "expected integer, found \"6\"",
    );
}

#[test]
fn an_unknown_field_deep_in_a_sequence_step_names_it_at_its_name() {
    let errors = errors_with("first_turn_rounds: Some(1),", "first_turn_roundz: Some(1),");
    assert_one_error_naming(&errors, "unknown field `first_turn_roundz`", "ActionRounds");
    assert!(errors[0].contains("^^^^^^^^^^^^^^^^^"), "{}", errors[0]);
}

#[test]
fn a_wrong_variant_deep_inside_lists_the_forms_the_value_may_take() {
    let errors = errors_with("actions: [Event],", "actions: [Evnt],");
    assert_one_error_naming(
        &errors,
        "`sequence › 2 › steps › 0 › ActionRounds › first_turn_actions › 0 › actions › 0`",
        "(one of: Ops, Sr, Rp, Event, AutoOps, Free)",
    );
    let errors = errors_with(
        "                ActionRounds(",
        "                ActionRoundz(",
    );
    assert_one_error_naming(
        &errors,
        "`sequence › 2 › steps › 0`",
        "ActionRounds(…), Script(…)",
    );
}

/// Every file of a bundled game broken in turn, by its syntax and by its schema: the one error
/// shown is the cause, in that file; nothing that refers into it cascades.
#[test]
fn a_file_that_fails_to_load_is_the_only_error_shown() {
    for game in ["barbarossa-to-berlin", "berlin-1945"] {
        let root = crate::root().join("content").join(game);
        let mut files = Vec::new();
        for sub in ["", "cards", "scenarios", "examples"] {
            let Ok(entries) = std::fs::read_dir(root.join(sub)) else {
                continue;
            };
            for entry in entries {
                let path = entry.unwrap().path();
                if path.extension().is_some_and(|e| e == "ron") {
                    files.push(path.strip_prefix(&root).unwrap().to_path_buf());
                }
            }
        }
        assert!(files.len() >= 6, "{files:?}");
        for file in &files {
            for (how, break_it) in [
                (
                    "syntax",
                    (|t: &str| format!("{t}(oops: ")) as fn(&str) -> String,
                ),
                ("schema", |t: &str| t.replacen("\n(", "\n(zzz: 1, ", 1)),
            ] {
                let dir = tempfile::tempdir().unwrap();
                crate::copy_tree(&root, dir.path());
                let path = dir.path().join(file);
                let text = std::fs::read_to_string(&path).unwrap();
                let broken = break_it(&format!("\n{text}"));
                assert_ne!(broken, format!("\n{text}"), "{file:?} {how}");
                std::fs::write(&path, broken).unwrap();
                let loaded = sandtable_engine::load::load_dir(dir.path());
                let errors: Vec<String> = loaded
                    .errors()
                    .map(|d| loaded.sources.render_line(d))
                    .collect();
                let name = file.to_string_lossy().to_string();
                assert_eq!(errors.len(), 1, "{game}/{name} ({how}): {errors:#?}");
                assert!(
                    errors[0].contains(&name),
                    "{game}/{name} ({how}): {errors:#?}"
                );
            }
        }
    }
}
