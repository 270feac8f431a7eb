//! Property tests: the loader never panics whatever the bytes, and the canonical writer and the
//! reader agree (writing then reading gives back the same value).

use std::collections::BTreeMap;

use proptest::prelude::*;
use sandtable_engine::load::{load, MemSource};
use sandtable_engine::ron_syntax::{self, Node, Payload, StrLit, Value};

fn fixture_files() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let dir = crate::root().join("tests/fixtures/zone-mini");
    for name in [
        "game.ron",
        "map.ron",
        "counters.ron",
        "scenarios/standard.ron",
    ] {
        files.insert(
            name.to_string(),
            std::fs::read_to_string(dir.join(name)).unwrap(),
        );
    }
    files
}

/// An edit of a text: delete, insert or replace characters at a position.
#[derive(Debug, Clone)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, char),
    Replace(usize, char),
}

fn edit() -> impl Strategy<Value = Edit> {
    let glyph = prop::sample::select(vec![
        '(', ')', '[', ']', '{', '}', ',', ':', '"', '#', 'r', '-', '1', '.', 'x', ' ', '\n', '/',
        '*', '\\', 'é',
    ]);
    prop_oneof![
        (any::<usize>(), 1usize..40).prop_map(|(p, n)| Edit::Delete(p, n)),
        (any::<usize>(), glyph.clone()).prop_map(|(p, c)| Edit::Insert(p, c)),
        (any::<usize>(), glyph).prop_map(|(p, c)| Edit::Replace(p, c)),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return text.to_string();
    }
    match *edit {
        Edit::Delete(p, n) => {
            let p = p % chars.len();
            let end = (p + n).min(chars.len());
            chars.drain(p..end);
        }
        Edit::Insert(p, c) => chars.insert(p % (chars.len() + 1), c),
        Edit::Replace(p, c) => {
            let p = p % chars.len();
            chars[p] = c;
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn loading_mutated_content_never_panics_and_reports_places_inside_files(
        file in 0usize..4,
        edits in prop::collection::vec(edit(), 1..6),
    ) {
        let mut files = fixture_files();
        let name = files.keys().nth(file).unwrap().clone();
        let text = edits.iter().fold(files[&name].clone(), |t, e| apply(&t, e));
        files.insert(name, text);
        let loaded = load(&MemSource { name: "mutated".into(), files });
        for d in &loaded.diagnostics {
            if let sandtable_engine::diag::Place::Span(span) = d.place {
                let len = loaded.sources.get(span.file).text.len() as u32;
                prop_assert!(span.start <= len && span.end <= len, "{d:?}");
            }
            let rendered = loaded.sources.render(d);
            prop_assert!(rendered.starts_with("mutated/"), "{rendered}");
        }
    }

    #[test]
    fn writing_then_reading_ron_gives_back_the_same_value(node in node_strategy()) {
        let text = ron_syntax::write_canonical(&node);
        let back = ron_syntax::parse(&text).map_err(|e| TestCaseError::fail(format!("{e:?}\n{text}")))?;
        prop_assert_eq!(ron_syntax::to_json(&back).unwrap(), ron_syntax::to_json(&node).unwrap());
        // Writing is idempotent.
        prop_assert_eq!(ron_syntax::write_canonical(&back), text);
    }
}

fn node(value: Value) -> Node {
    Node {
        value,
        start: 0,
        end: 0,
    }
}

fn string() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9 _\"\\\\\n#é-]{0,30}"
}

fn ident() -> impl Strategy<Value = String> {
    "[a-z][a-z0-9_]{0,8}"
}

fn node_strategy() -> impl Strategy<Value = Node> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(|b| node(Value::Bool(b))),
        any::<i32>().prop_map(|i| node(Value::Int(i64::from(i)))),
        (-1.0e6f64..1.0e6).prop_map(|f| node(Value::Float(f))),
        string().prop_map(|s| node(Value::Str(StrLit {
            value: s,
            content_start: 0,
            offsets: vec![]
        }))),
        "[A-Z][a-zA-Z]{0,6}"
            .prop_filter("not Some/None", |s| s != "Some" && s != "None")
            .prop_map(|n| node(Value::Enum(n, Payload::None))),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(|v| node(Value::List(v))),
            prop::collection::vec(inner.clone(), 2..4).prop_map(|v| node(Value::Tuple(v))),
            prop::collection::btree_map(ident(), inner.clone(), 1..5).prop_map(|m| {
                node(Value::Struct(
                    m.into_iter()
                        .map(|(name, value)| ron_syntax::Field {
                            name,
                            name_start: 0,
                            name_end: 0,
                            value,
                        })
                        .collect(),
                ))
            }),
            prop::collection::btree_map(string(), inner.clone(), 0..4).prop_map(|m| {
                node(Value::Map(
                    m.into_iter()
                        .map(|(k, v)| {
                            (
                                node(Value::Str(StrLit {
                                    value: k,
                                    content_start: 0,
                                    offsets: vec![],
                                })),
                                v,
                            )
                        })
                        .collect(),
                ))
            }),
            inner
                .clone()
                .prop_map(|v| node(Value::Option(Some(Box::new(v))))),
            ("[A-Z][a-zA-Z]{0,6}", prop::collection::vec(inner, 1..3))
                .prop_filter("not Some/None", |(n, _)| n != "Some" && n != "None")
                .prop_map(|(n, v)| node(Value::Enum(n, Payload::Tuple(v)))),
        ]
    })
}

/// Every card script of the bundled content, mutated at random; whatever still parses is checked
/// and, if it checks, run against the campaign's opening state with arbitrary answers. Nothing
/// may panic, and a failed run leaves the state as it was.
mod scripts {
    use proptest::prelude::*;
    use sandtable_engine::script::check::{check_stmts, Names, ScriptKind};
    use sandtable_engine::script::eval::{self, Context, Outcome};
    use sandtable_engine::script::syntax::parse;

    fn scripts() -> Vec<String> {
        crate::cards::b2b()
            .cards()
            .flat_map(|(_, c)| [c.effect.clone(), c.combat.clone()])
            .flatten()
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 150, ..ProptestConfig::default() })]

        #[test]
        fn running_mutated_card_scripts_never_panics(
            pick in any::<usize>(),
            edits in prop::collection::vec(super::edit(), 0..4),
            answers in prop::collection::vec(prop::collection::vec("[a-z_0-9.]{1,12}", 0..5), 0..4),
        ) {
            let all = scripts();
            let text = edits.iter().fold(all[pick % all.len()].clone(), |t, e| super::apply(&t, e));
            let parsed = parse(&text);
            let names = Names::from_content(crate::cards::b2b());
            for kind in [ScriptKind::Event, ScriptKind::Combat] {
                if !parsed.errors.is_empty() || !check_stmts(&parsed.stmts, kind, &names).is_empty() {
                    continue;
                }
                let mut state = crate::cards::campaign();
                let before = state.clone();
                let ctx = Context { me: "axis".into(), enemy: "allied".into(), card: None, combat: None, space: None, names: Vec::new() };
                match eval::run(&parsed.stmts, crate::cards::b2b(), &mut state, &ctx, &answers) {
                    Ok((Outcome::Done, _)) => {}
                    Ok((Outcome::Asks(_), _)) | Err(_) => prop_assert_eq!(&state, &before),
                }
            }
        }
    }
}

/// Reads a file into `T` three ways: from its text (`from_text`, what loading does first),
/// from its tree (`from_tree`) and through its JSON (`to_json`, then serde_json: what loading
/// falls back on for diagnostics).
fn read_all<T>(text: &str, node: &Node, path: &str)
where
    T: serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let json = ron_syntax::to_json(node).expect("converts");
    let through_json: T = serde_json::from_value(json).expect("reads through JSON");
    let from_tree: T =
        ron_syntax::from_tree(node).unwrap_or_else(|e| panic!("{path}: read from the tree: {e}"));
    assert!(
        from_tree == through_json,
        "{path}: the tree and the JSON read differently"
    );
    let from_text: T =
        ron_syntax::from_text(text).unwrap_or_else(|e| panic!("{path}: read from the text: {e}"));
    assert!(
        from_text == through_json,
        "{path}: the text and the JSON read differently"
    );
}

#[test]
fn every_bundled_file_reads_from_its_text_and_its_tree_as_through_its_json() {
    use sandtable_engine::model::*;
    use sandtable_engine::schema::FileKind;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    let mut read = 0;
    for game in std::fs::read_dir(&root).expect("content/") {
        let game = game.expect("a game folder").path();
        let source = sandtable_engine::load::DirSource::new(&game);
        use sandtable_engine::load::ContentSource;
        for relative in source.list().expect("listed") {
            let Some(kind) = FileKind::of_path(&relative) else {
                continue;
            };
            let text = source.read(&relative).expect("readable");
            let node = ron_syntax::parse(&text).expect("parses");
            let path = format!("{}/{relative}", game.display());
            match kind {
                FileKind::Game => read_all::<GameFile>(&text, &node, &path),
                FileKind::Map => read_all::<MapFile>(&text, &node, &path),
                FileKind::Counters => read_all::<CountersFile>(&text, &node, &path),
                FileKind::Tables => read_all::<TablesFile>(&text, &node, &path),
                FileKind::Cards => read_all::<CardsFile>(&text, &node, &path),
                FileKind::Scenario => read_all::<ScenarioFile>(&text, &node, &path),
                FileKind::Example => read_all::<ExampleFile>(&text, &node, &path),
            }
            read += 1;
        }
    }
    assert!(read > 40, "only {read} files read");
}

proptest! {
    #[test]
    fn any_tree_written_out_reads_from_its_text_as_its_json(node in node_strategy()) {
        let text = ron_syntax::write_canonical(&node);
        let from_text: serde_json::Value = ron_syntax::from_text(&text)
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let json = ron_syntax::to_json(&node).map_err(|e| TestCaseError::fail(e.message))?;
        prop_assert_eq!(from_text, json);
    }

    /// The text reader refuses what the tree's reader refuses: a text changed at random that it
    /// reads must parse, and read as its tree's JSON.
    #[test]
    fn a_changed_text_reads_from_its_text_only_as_its_tree_reads(
        node in node_strategy(),
        at in any::<prop::sample::Index>(),
        change in prop_oneof![
            Just(None),
            prop::sample::select(vec!['(', ')', '[', ']', '{', '}', ',', ':', '"', ' ', 'S', '/'])
                .prop_map(Some),
        ],
    ) {
        let mut text = ron_syntax::write_canonical(&node);
        let boundaries: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        let i = boundaries[at.index(boundaries.len())];
        match change {
            None if i < text.len() => {
                text.remove(i);
            }
            None => {}
            Some(c) => text.insert(i, c),
        }
        if let Ok(value) = ron_syntax::from_text::<serde_json::Value>(&text) {
            let tree = ron_syntax::parse(&text)
                .map_err(|e| TestCaseError::fail(format!("read, but does not parse: {}", e.message)))?;
            let json = ron_syntax::to_json(&tree).map_err(|e| TestCaseError::fail(e.message))?;
            prop_assert_eq!(value, json);
        }
    }

    #[test]
    fn any_tree_reads_straight_as_its_json(node in node_strategy()) {
        let straight: serde_json::Value = ron_syntax::from_tree(&node)
            .map_err(|e| TestCaseError::fail(format!("{e}")))?;
        let json = ron_syntax::to_json(&node).map_err(|e| TestCaseError::fail(e.message))?;
        prop_assert_eq!(straight, json);
    }
}

#[test]
fn content_fingerprint_changes_with_any_rule_file_and_not_with_an_example() {
    let fingerprint = |files: BTreeMap<String, String>| {
        load(&MemSource {
            name: "mini".into(),
            files,
        })
        .content
        .hash
    };
    let files = fixture_files();
    let first = fingerprint(files.clone());
    assert_eq!(first.len(), 16, "{first}");
    assert!(first.chars().all(|c| c.is_ascii_hexdigit()), "{first}");
    // The same files give the same fingerprint.
    assert_eq!(fingerprint(files.clone()), first);
    // One character more in any file, or one file's text moved into another's place, is
    // another content.
    for name in files.keys() {
        let mut changed = files.clone();
        changed.get_mut(name).unwrap().push(' ');
        assert_ne!(fingerprint(changed), first, "{name}");
    }
    // (game.ron's last characters made map.ron's first: the same characters in the same order.)
    let mut moved = files.clone();
    let game = moved.get_mut("game.ron").unwrap();
    let tail = game.split_off(game.len() - 10);
    moved.get_mut("map.ron").unwrap().insert_str(0, &tail);
    assert_ne!(fingerprint(moved), first);
    // The rulebook's examples are not the rules.
    let mut with_example = files;
    with_example.insert("examples/note.ron".into(), "(id: \"note\")".into());
    assert_eq!(fingerprint(with_example), first);
}
