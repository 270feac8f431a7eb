//! The three ways of authoring a map load into one graph model.

use sandtable_engine::load::load_dir;

#[test]
fn hex_grid_and_zone_maps_load_into_the_same_graph_model() {
    let hex = load_dir(crate::root().join("tests/fixtures/hex-mini"));
    let zone = load_dir(crate::root().join("tests/fixtures/zone-mini"));
    assert!(!hex.has_errors() && !zone.has_errors());
    let (hex, zone) = (&hex.content.graph, &zone.content.graph);

    // Hex grid: 5 x 4 cells less one hole; adjacency derived from the grid.
    assert_eq!(hex.spaces.len(), 19);
    assert_eq!(
        hex.neighbour_ids("capital"),
        ["0202", "0301", "0303", "0402", "0403", "wood"]
    );
    assert!(hex.space("0504").is_none(), "a hole is not a space");
    assert_eq!(hex.neighbour_ids("0101"), ["0102", "0201", "0202"]);
    let kinds = |g: &sandtable_engine::content::MapGraph, a: &str, b: &str| {
        let e = g
            .edge_between(g.index_of(a).unwrap(), g.index_of(b).unwrap())
            .unwrap();
        g.edges[e].kinds.clone()
    };
    assert_eq!(
        kinds(hex, "capital", "0303"),
        ["river"],
        "hexside feature on S"
    );
    assert_eq!(
        kinds(hex, "capital", "0403"),
        ["river"],
        "hexside feature on SE"
    );
    assert_eq!(kinds(hex, "capital", "0402"), ["open"]);
    assert_eq!(
        hex.space("wood").unwrap().terrain.as_deref(),
        Some("forest")
    );
    assert_eq!(hex.space("0101").unwrap().terrain.as_deref(), Some("clear"));

    // Zones: adjacency listed on the zones, with edge attributes.
    assert_eq!(zone.spaces.len(), 5);
    assert_eq!(zone.edges.len(), 5);
    assert_eq!(zone.neighbour_ids("z4"), ["city", "z2", "z3"]);
    assert_eq!(kinds(zone, "z3", "z4"), ["river", "road"]);
    assert_eq!(kinds(zone, "z1", "z2"), ["plain"]);
}

#[test]
fn barbarossa_to_berlin_map_is_one_connected_graph() {
    let loaded = load_dir(crate::b2b());
    let g = &loaded.content.graph;
    let mut seen = vec![false; g.spaces.len()];
    let mut stack = vec![0];
    while let Some(i) = stack.pop() {
        if !std::mem::replace(&mut seen[i], true) {
            stack.extend(g.neighbours(i).iter().map(|&(n, _)| n));
        }
    }
    let unreached: Vec<&str> = g
        .spaces
        .iter()
        .zip(&seen)
        .filter(|(_, s)| !**s)
        .map(|(s, _)| s.id.as_str())
        .collect();
    assert!(
        unreached.is_empty(),
        "not connected to the rest: {unreached:?}"
    );
}

#[test]
fn a_hex_grid_of_more_than_a_million_cells_is_refused_at_its_place() {
    use sandtable_engine::load::{load, ContentSource, DirSource, MemSource};
    let source = DirSource::new(crate::root().join("tests/fixtures/hex-mini"));
    let mut mem = MemSource {
        name: "hex-mini".into(),
        ..MemSource::default()
    };
    for relative in source.list().expect("listed") {
        let text = source.read(&relative).expect("readable");
        let text = match relative.as_str() {
            "map.ron" => text.replace("columns: 5,", "columns: 2000000,"),
            _ => text,
        };
        mem.files.insert(relative, text);
    }
    let loaded = load(&mem);
    let e = loaded
        .errors()
        .find(|d| d.code == "E0207")
        .expect("the grid's size is an error");
    assert!(
        e.message.contains("more than 1000000 cells"),
        "{}",
        e.message
    );
    let (path, line, _) = loaded.sources.locate(&e.place);
    assert!(path.ends_with("map.ron"), "{path}");
    let text = &mem.files["map.ron"];
    let grid_line = text.lines().position(|l| l.contains("hex_grid")).unwrap() + 1;
    assert_eq!(line, grid_line, "at the grid");
}

#[test]
fn a_space_lies_in_every_region_its_country_and_regions_lie_within_in_each_bundled_game() {
    for game in ["barbarossa-to-berlin", "berlin-1945", "spi-barbarossa"] {
        let loaded = load_dir(crate::root().join("content").join(game));
        let content = &loaded.content;
        let Some(g) = content.game.as_ref() else {
            panic!("{game} has no game.ron");
        };
        let mut members = 0;
        for r in &g.regions {
            for s in &content.graph.spaces {
                let walked = sandtable_engine::model::space_lies_in(g, s, &r.id);
                let indexed = sandtable_engine::state::space_in_region(content, &s.id, &r.id);
                assert_eq!(indexed, walked, "{game}: {} in {}", s.id, r.id);
                members += usize::from(walked);
            }
        }
        assert!(members > 0, "{game}: no space lies in any region");
    }
}
