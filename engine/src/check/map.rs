//! `map.ron`'s meaning: the graph (explicit connections, zones, hexes), each space's fields.

use super::*;

/// The most cells a hex grid may have: far more than any printed map, few enough to load fast.
const MAX_HEX_CELLS: i64 = 1_000_000;

impl Checker<'_> {
    pub(super) fn map(&mut self, f: &Parsed<MapFile>, game: Option<&GameFile>) -> MapGraph {
        let mut graph = MapGraph::default();
        let m = &f.data;
        // A hex grid's cells (listed or not) have six neighbours at most; other maps few.
        match &m.hex_grid {
            Some(grid) => {
                let area = i64::from(grid.columns.max(0)) * i64::from(grid.rows.max(0));
                let cells = usize::try_from(area.min(MAX_HEX_CELLS)).unwrap_or(0);
                graph.reserve(cells.max(m.spaces.len()), 6);
            }
            None => graph.reserve(m.spaces.len(), 0),
        }
        let default_kind = game
            .map(|g| g.default_connection_kind.clone())
            .unwrap_or_default();
        // Spaces listed explicitly (including listed hexes).
        let mut hex_of: BTreeMap<(i32, i32), usize> = BTreeMap::new();
        let ids = std::mem::take(&mut self.ids);
        // The grid's holes in a set: a large map has hundreds, asked of every listed hex.
        let grid_cells = m.hex_grid.as_ref().map(HexGrid::cells);
        for (i, s) in m.spaces.iter().enumerate() {
            let p = || format!("/spaces/{i}");
            let mut space = s.clone();
            if let Some(cell) = s.hex {
                match &m.hex_grid {
                    None => {
                        self.error(
                            f.at(&format!("{}/hex", p())),
                            "E0203",
                            format!("space `{}` names a hex but the map has no hex grid", s.id),
                        )
                        .hints
                        .push("add a `hex_grid` to map.ron, or remove `hex`".into());
                    }
                    Some(grid) if !grid_cells.as_ref().is_some_and(|c| c.contains(cell)) => {
                        self.error(
                            f.at(&format!("{}/hex", p())),
                            "E0203",
                            format!(
                                "hex ({}, {}) of `{}` is not on the grid",
                                cell.0, cell.1, s.id
                            ),
                        )
                        .hints
                        .push(format!(
                            "the grid has columns {}..{} and rows {}..{}, less its holes",
                            grid.first.0,
                            grid.first.0 + grid.columns - 1,
                            grid.first.1,
                            grid.first.1 + grid.rows - 1
                        ));
                    }
                    Some(grid) => {
                        space.terrain = space.terrain.or_else(|| Some(grid.terrain.clone()));
                        space.pos = Some(grid.centre(cell));
                    }
                }
            } else if s.pos.is_none() {
                self.diags.push(
                    Diagnostic::warning(
                        "W0002",
                        f.at_key(&format!("{}/id", p())),
                        format!("space `{}` has no position", s.id),
                    )
                    .with_hint("add `pos: Some((x: .., y: ..))` so the editor can draw it"),
                );
            }
            if s.terrain.is_none() && s.hex.is_none() {
                self.error(
                    f.at(&p()),
                    "E0100",
                    format!("space `{}` has no terrain", s.id),
                );
            }
            match graph.add_space(space) {
                Some(index) => {
                    if let Some(cell) = s.hex {
                        if hex_of.insert(cell, index).is_some() {
                            self.error(
                                f.at(&format!("{}/hex", p())),
                                "E0200",
                                format!("hex ({}, {}) is listed twice", cell.0, cell.1),
                            );
                        }
                    }
                }
                None => {
                    self.error(
                        f.at(&format!("{}/id", p())),
                        "E0200",
                        format!("duplicate space id `{}`", s.id),
                    );
                }
            }
            self.space_fields(f, &p, s, &ids);
        }
        self.ids = ids;
        // Cells of the hex grid not listed as spaces.
        'grid: {
            let Some(grid) = &m.hex_grid else { break 'grid };
            let terrains = self.ids.terrains.clone();
            self.reference(f, "/hex_grid/terrain", "terrain", &grid.terrain, &terrains);
            if grid.columns <= 0 || grid.rows <= 0 || grid.size <= 0.0 {
                self.error(
                    f.at("/hex_grid"),
                    "E0207",
                    "a hex grid needs positive columns, rows and size".into(),
                );
            }
            let area = i64::from(grid.columns.max(0)) * i64::from(grid.rows.max(0));
            if area > MAX_HEX_CELLS {
                self.error(
                    f.at("/hex_grid"),
                    "E0207",
                    format!(
                        "a hex grid of {} columns and {} rows has more than {MAX_HEX_CELLS} \
                         cells",
                        grid.columns, grid.rows
                    ),
                )
                .hints
                .push("the largest printed maps have tens of thousands of hexes".into());
                break 'grid;
            }
            for (i, hole) in grid.holes.iter().enumerate() {
                let (c0, r0) = grid.first;
                if !(c0..c0 + grid.columns).contains(&hole.0)
                    || !(r0..r0 + grid.rows).contains(&hole.1)
                {
                    self.error(
                        f.at(&format!("/hex_grid/holes/{i}")),
                        "E0203",
                        format!("hole ({}, {}) is outside the grid", hole.0, hole.1),
                    );
                }
            }
            let Some(cells) = &grid_cells else {
                break 'grid;
            };
            for cell in cells.iter() {
                if hex_of.contains_key(&cell) {
                    continue;
                }
                let space = Space {
                    id: HexGrid::cell_id(cell).into(),
                    name: HexGrid::cell_id(cell),
                    hex: Some(cell),
                    terrain: Some(grid.terrain.clone()),
                    country: None,
                    regions: vec![],
                    features: vec![],
                    vp: 0,
                    supply: vec![],
                    props: BTreeMap::new(),
                    adjacent: vec![],
                    pos: Some(grid.centre(cell)),
                    notes: String::new(),
                    provenance: Provenance::Printed,
                };
                match graph.add_space(space) {
                    Some(index) => {
                        hex_of.insert(cell, index);
                    }
                    None => {
                        self.error(
                            f.at("/hex_grid"),
                            "E0200",
                            format!(
                                "a listed space already has the id `{}` of hex ({}, {})",
                                HexGrid::cell_id(cell),
                                cell.0,
                                cell.1
                            ),
                        );
                    }
                }
            }
            // Derived adjacency: each pair once. The spaces of the grid's cells are looked up in
            // a table over its rectangle.
            let (c0, r0) = grid.first;
            let slot = |(c, r): (i32, i32)| {
                let inside =
                    (c0..c0 + grid.columns).contains(&c) && (r0..r0 + grid.rows).contains(&r);
                inside.then(|| (c - c0) as usize * grid.rows as usize + (r - r0) as usize)
            };
            let mut by_cell = vec![None; usize::try_from(area).unwrap_or(0)];
            for (&cell, &a) in &hex_of {
                if let Some(i) = slot(cell).filter(|_| cells.contains(cell)) {
                    by_cell[i] = Some(a);
                }
            }
            for (&cell, &a) in &hex_of {
                for d in grid.directions() {
                    let b = grid.step(cell, d).and_then(slot).and_then(|i| by_cell[i]);
                    if let Some(b) = b.filter(|&b| a < b) {
                        graph.add_edge(a, b, vec![default_kind.clone()]);
                    }
                }
            }
            let kinds = self.ids.connection_kinds.clone();
            for (i, side) in grid.hexsides.iter().enumerate() {
                let p = format!("/hex_grid/hexsides/{i}");
                self.references(
                    f,
                    &|| format!("{p}/kinds"),
                    "connection kind",
                    &side.kinds,
                    &kinds,
                );
                let Some(other) = grid.step(side.hex, side.side) else {
                    self.error(
                        f.at(&format!("{p}/side")),
                        "E0203",
                        format!(
                            "{:?} is not a side of a {:?} hex",
                            side.side, grid.orientation
                        ),
                    )
                    .hints
                    .push(format!("the sides are {:?}", grid.directions()));
                    continue;
                };
                match (hex_of.get(&side.hex), hex_of.get(&other)) {
                    (Some(&a), Some(&b)) => {
                        if let Some(e) = graph.edge_between(a, b) {
                            let edge = &mut graph.edges[e];
                            edge.kinds.retain(|k| *k != default_kind);
                            for k in &side.kinds {
                                if !edge.kinds.contains(k) {
                                    edge.kinds.push(k.clone());
                                }
                            }
                        }
                    }
                    _ => {
                        self.error(
                            f.at(&format!("{p}/hex")),
                            "E0203",
                            format!("hexside {:?} of ({}, {}) does not lie between two hexes of the grid", side.side, side.hex.0, side.hex.1),
                        );
                    }
                }
            }
        }
        // Point-to-point connections.
        let kinds = self.ids.connection_kinds.clone();
        let mut pairs: BTreeMap<(usize, usize), Joined> = BTreeMap::new();
        for (i, c) in m.connections.iter().enumerate() {
            let p = || format!("/connections/{i}");
            self.references(
                f,
                &|| format!("{}/kinds", p()),
                "connection kind",
                &c.kinds,
                &kinds,
            );
            let a = self.space_ref(f, &|| format!("{}/a", p()), &c.a, &graph);
            let b = self.space_ref(f, &|| format!("{}/b", p()), &c.b, &graph);
            let (Some(a), Some(b)) = (a, b) else { continue };
            if a == b {
                self.error(
                    f.at(&p()),
                    "E0202",
                    format!("connection joins `{}` to itself", c.a),
                );
                continue;
            }
            let key = (a.min(b), a.max(b));
            if let Some(first) = pairs.get(&key) {
                self.error(
                    f.at(&p()),
                    "E0202",
                    format!("`{}` and `{}` are already connected ({first})", c.a, c.b),
                );
                continue;
            }
            if graph.edge_between(a, b).is_some() {
                self.error(
                    f.at(&p()),
                    "E0202",
                    format!(
                        "`{}` and `{}` are already neighbours on the hex grid",
                        c.a, c.b
                    ),
                )
                .hints
                .push("use a hexside to give the edge between two hexes a kind".into());
                continue;
            }
            pairs.insert(key, Joined::Connection(i + 1));
            let kinds = if c.kinds.is_empty() {
                vec![default_kind.clone()]
            } else {
                c.kinds.clone()
            };
            graph.add_edge(a, b, kinds);
        }
        // Zone-style adjacency listed on spaces.
        for (i, s) in m.spaces.iter().enumerate() {
            let Some(a) = graph.index_of(s.id) else {
                continue;
            };
            for (j, adj) in s.adjacent.iter().enumerate() {
                let p = || format!("/spaces/{i}/adjacent/{j}");
                self.references(
                    f,
                    &|| format!("{}/kinds", p()),
                    "connection kind",
                    &adj.kinds,
                    &kinds,
                );
                let Some(b) = self.space_ref(f, &|| format!("{}/to", p()), &adj.to, &graph) else {
                    continue;
                };
                if a == b {
                    self.error(
                        f.at(&p()),
                        "E0202",
                        format!("zone `{}` lists itself as adjacent", s.id),
                    );
                    continue;
                }
                let edge_kinds = if adj.kinds.is_empty() {
                    vec![default_kind.clone()]
                } else {
                    adj.kinds.clone()
                };
                match graph.edge_between(a, b) {
                    None => {
                        pairs.insert((a.min(b), a.max(b)), Joined::Adjacency(&s.id));
                        graph.add_edge(a, b, edge_kinds);
                    }
                    Some(e) => {
                        let existing = &graph.edges[e];
                        let mut x = existing.kinds.clone();
                        let mut y = edge_kinds;
                        x.sort();
                        y.sort();
                        let listed_back = graph.spaces[b].adjacent.iter().any(|r| r.to == s.id);
                        if x != y || !listed_back {
                            self.error(
                                f.at(&p()),
                                "E0202",
                                format!(
                                    "`{}` and `{}` are already joined, with kinds {:?}",
                                    s.id, adj.to, graph.edges[e].kinds
                                ),
                            )
                            .hints
                            .push(
                                "list an edge once, or list it on both zones with the same kinds"
                                    .into(),
                            );
                        }
                    }
                }
            }
        }
        graph
    }

    pub(super) fn space_ref(
        &mut self,
        f: &dyn At,
        pointer: &(impl Pointer + ?Sized),
        id: &str,
        graph: &MapGraph,
    ) -> Option<usize> {
        let found = graph.index_of(id);
        if found.is_none() && !self.broken.contains(&FileKind::Map) {
            let suggestion =
                did_you_mean(id, graph.spaces.iter().map(|s| s.id.as_str())).map(str::to_string);
            let d = self.error(
                f.at(&pointer.write()),
                "E0201",
                format!("unknown space `{id}`"),
            );
            if let Some(s) = suggestion {
                d.hints.push(format!("did you mean `{s}`?"));
            }
        }
        found
    }

    pub(super) fn space_fields(
        &mut self,
        f: &Parsed<MapFile>,
        p: &dyn Fn() -> String,
        s: &Space,
        ids: &Ids,
    ) {
        if let Some(t) = &s.terrain {
            self.reference(
                f,
                &|| format!("{}/terrain", p()),
                "terrain",
                t,
                &ids.terrains,
            );
        }
        if let Some(country) = &s.country {
            let at = || format!("{}/country", p());
            self.reference(f, &at, "region", country, &ids.regions);
        }
        let at = || format!("{}/regions", p());
        self.references(f, &at, "region", &s.regions, &ids.regions);
        let at = || format!("{}/features", p());
        self.references(f, &at, "feature", &s.features, &ids.features);
        for (j, source) in s.supply.iter().enumerate() {
            let q = || format!("{}/supply/{j}", p());
            let at = || format!("{}/nations", q());
            self.references(f, &at, "nation", &source.nations, &ids.nations);
            if let Some(flag) = &source.flag {
                self.reference(f, &|| format!("{}/flag", q()), "flag", flag, &ids.flags);
            }
        }
        for (key, value) in &s.props {
            let q = || format!("{}/props/{}", p(), crate::ron_syntax::pointer_segment(key));
            match ids.properties.get(key) {
                None if self.broken.contains(&FileKind::Game) => {}
                None => {
                    let known: BTreeSet<String> = ids.properties.keys().cloned().collect();
                    let span = f.at_key(&q());
                    let suggestion =
                        did_you_mean(key, known.iter().map(String::as_str)).map(str::to_string);
                    let d = self.error(span, "E0201", format!("unknown property `{key}`"));
                    d.hints.push(match suggestion {
                        Some(s) => format!("did you mean `{s}`?"),
                        None => "declare it in game.ron under `properties`".into(),
                    });
                }
                Some(ty) => {
                    let ok = matches!(
                        (ty, value),
                        (PropertyType::Int, PropertyValue::Int(_))
                            | (PropertyType::Bool, PropertyValue::Bool(_))
                            | (PropertyType::Text, PropertyValue::Text(_))
                    );
                    if !ok {
                        self.error(
                            f.at(&q()),
                            "E0100",
                            format!("property `{key}` holds a {ty:?} value"),
                        );
                    }
                }
            }
        }
    }
}

/// What first joined two spaces, named when a second entry joins them again.
enum Joined<'a> {
    /// The connection of that number, from 1.
    Connection(usize),
    /// A zone's list of adjacent zones.
    Adjacency(&'a str),
}

impl std::fmt::Display for Joined<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Joined::Connection(n) => write!(f, "connection {n}"),
            Joined::Adjacency(zone) => write!(f, "adjacency of `{zone}`"),
        }
    }
}
