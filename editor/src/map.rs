//! The Map panel: the map graph drawn with egui_graphs (point-to-point and zone maps) or as
//! hexes (hex grids), with selection, dragging, adding and deleting spaces and connections,
//! an inspector for every property, find by name, fit and zoom.
//!
//! The egui_graphs graph is a view: it is rebuilt from the checked content whenever the
//! document changes, and every change made on it (a drag ended, a connection drawn) becomes an
//! edit of `map.ron` through [`EditorApp::edit`].

use egui::{Color32, Pos2, RichText, Shape, Stroke, Ui, Vec2};
use egui_graphs::{
    DefaultNodeShape, DisplayEdge, DisplayNode, DrawContext, EdgeProps, GraphChange, GraphView,
    Layout, LayoutState, MetadataFrame, Node, SettingsInteraction, SettingsNavigation,
    SettingsStyle,
};
use petgraph::stable_graph::{DefaultIx, EdgeIndex, IndexType, NodeIndex};
use petgraph::{EdgeType, Undirected};
use sandtable_engine::content::Content;
use sandtable_engine::model::{Connection, LineStyle, MapFile, Pos, Provenance, Space};
use sandtable_engine::schema::FileKind;

use crate::{parse_color, EditorApp};

/// The id egui_graphs keeps the view's zoom and pan under.
pub const VIEW_ID: &str = "sandtable-map";

/// How a connection is drawn: from its first kind's colour and line.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ConnStyle {
    pub color: Color32,
    pub line: LineStyle,
}

/// A connection's line: straight, in its kind's colour, solid, dotted or dashed.
#[derive(Debug, Clone)]
pub struct ConnLine {
    style: ConnStyle,
    selected: bool,
}

impl From<EdgeProps<ConnStyle>> for ConnLine {
    fn from(props: EdgeProps<ConnStyle>) -> Self {
        ConnLine {
            style: props.payload,
            selected: props.selected,
        }
    }
}

impl<N, Ty, Ix, D> DisplayEdge<N, ConnStyle, Ty, Ix, D> for ConnLine
where
    N: Clone,
    Ty: EdgeType,
    Ix: IndexType,
    D: DisplayNode<N, ConnStyle, Ty, Ix>,
{
    fn shapes(
        &mut self,
        start: &Node<N, ConnStyle, Ty, Ix, D>,
        end: &Node<N, ConnStyle, Ty, Ix, D>,
        ctx: &DrawContext,
    ) -> Vec<Shape> {
        let a = ctx.meta.canvas_to_screen_pos(start.location());
        let b = ctx.meta.canvas_to_screen_pos(end.location());
        let (color, width) = if self.selected {
            (Color32::YELLOW, 3.0)
        } else {
            (self.style.color, 1.5)
        };
        let stroke = Stroke::new(width, color);
        match self.style.line {
            LineStyle::Solid => vec![Shape::line_segment([a, b], stroke)],
            LineStyle::Dashed => Shape::dashed_line(&[a, b], stroke, 6.0, 4.0),
            LineStyle::Dotted => Shape::dotted_line(&[a, b], color, 5.0, width * 0.8),
        }
    }

    fn update(&mut self, state: &EdgeProps<ConnStyle>) {
        self.style = state.payload;
        self.selected = state.selected;
    }

    fn is_inside(
        &self,
        start: &Node<N, ConnStyle, Ty, Ix, D>,
        end: &Node<N, ConnStyle, Ty, Ix, D>,
        pos: Pos2,
    ) -> bool {
        distance_to_segment(pos, start.location(), end.location()) <= 3.0
    }
}

fn distance_to_segment(p: Pos2, a: Pos2, b: Pos2) -> f32 {
    let ab = b - a;
    let t = if ab.length_sq() > 0.0 {
        ((p - a).dot(ab) / ab.length_sq()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    p.distance(a + ab * t)
}

/// A layout that leaves every space where the content puts it.
#[derive(Debug, Default, Clone, serde::Serialize, serde::Deserialize)]
pub struct FixedState;

impl LayoutState for FixedState {}

#[derive(Debug, Default)]
pub struct Fixed;

impl Layout<FixedState> for Fixed {
    fn from_state(_: FixedState) -> impl Layout<FixedState> {
        Fixed
    }

    fn next<N, E, Ty, Ix, Dn, De>(
        &mut self,
        _: &mut egui_graphs::Graph<N, E, Ty, Ix, Dn, De>,
        _: &Ui,
    ) where
        N: Clone,
        E: Clone,
        Ty: EdgeType,
        Ix: IndexType,
        Dn: DisplayNode<N, E, Ty, Ix>,
        De: DisplayEdge<N, E, Ty, Ix, Dn>,
    {
    }

    fn state(&self) -> FixedState {
        FixedState
    }
}

pub type MapGraphView =
    egui_graphs::Graph<String, ConnStyle, Undirected, DefaultIx, DefaultNodeShape, ConnLine>;

/// What the inspector shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selected {
    Space(String),
    Connection(String, String),
}

#[derive(Default)]
pub struct MapView {
    graph: Option<MapGraphView>,
    built: Option<u64>,
    pub selected: Option<Selected>,
    /// Text to find a space by.
    pub find: String,
    /// Fit the whole map in the view on the next frame.
    pub fit: bool,
    /// Drawing a connection from this space: the next space clicked is its other end.
    pub linking: Option<String>,
    /// The id typed for a new space.
    pub new_id: String,
    /// Where the graph was drawn last (screen), for centring and tests.
    pub rect: Option<egui::Rect>,
    /// A space to bring to the middle of the view on the next frame.
    centre_on: Option<String>,
    /// How the hex renderer last mapped map units to the screen: the screen point of the map's
    /// `origin`, and the scale.
    hex_frame: Option<(Pos2, Pos2, f32)>,
}

impl MapView {
    /// Where the hex renderer drew a hex's centre on the screen (for tests and tools).
    pub fn hex_screen_pos(&self, content: &Content, id: &str) -> Option<Pos2> {
        let (origin, lo, scale) = self.hex_frame?;
        let g = &content.graph;
        let p = g.pos(g.index_of(id)?);
        Some(origin + (Pos2::new(p.x, p.y) - lo) * scale)
    }

    /// Selects the thing a JSON pointer into `map.ron` names (`/spaces/4/terrain`).
    pub fn select_pointer(&mut self, content: &Content, parts: &[&str]) {
        let index = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
        match parts.first() {
            Some(&"spaces") => {
                if let Some(s) = index(1).and_then(|i| content.map.spaces.get(i)) {
                    self.selected = Some(Selected::Space(s.id.clone()));
                    self.centre_on = Some(s.id.clone());
                }
            }
            Some(&"connections") => {
                if let Some(c) = index(1).and_then(|i| content.map.connections.get(i)) {
                    self.selected = Some(Selected::Connection(c.a.clone(), c.b.clone()));
                }
            }
            _ => {}
        }
    }

    /// Where a space is drawn on screen now (after a frame has drawn the map).
    pub fn screen_pos(&self, ctx: &egui::Context, space: &str) -> Option<Pos2> {
        let g = self.graph.as_ref()?;
        let rect = self.rect?;
        let (_, node) = g.nodes_iter().find(|(_, n)| n.payload() == space)?;
        let meta = ctx.data_mut(|d| {
            // egui_graphs keeps it under an id made from the frame's id.
            d.get_persisted::<MetadataFrame>(egui::Id::new(
                MetadataFrame::new(Some(VIEW_ID.into())).get_id(),
            ))
        })?;
        Some(meta.canvas_to_screen_pos(node.location()) + rect.left_top().to_vec2())
    }

    fn node_of(&self, space: &str) -> Option<NodeIndex> {
        self.graph
            .as_ref()?
            .nodes_iter()
            .find(|(_, n)| n.payload() == space)
            .map(|(i, _)| i)
    }
}

/// The colour a space is filled with: its terrain's.
fn terrain_color(content: &Content, terrain: Option<&str>) -> Color32 {
    content
        .game
        .as_ref()
        .and_then(|g| g.terrains.iter().find(|t| Some(t.id.as_str()) == terrain))
        .and_then(|t| parse_color(t.color.as_deref()))
        .unwrap_or(Color32::from_gray(150))
}

fn conn_style(content: &Content, kinds: &[String]) -> ConnStyle {
    let kind = content.game.as_ref().and_then(|g| {
        let id = kinds
            .first()
            .map_or(g.default_connection_kind.as_str(), String::as_str);
        g.connection_kinds.iter().find(|k| k.id == id)
    });
    ConnStyle {
        color: kind
            .and_then(|k| parse_color(k.color.as_deref()))
            .map(|c| {
                // Dark lines on the dark canvas are lightened to stay visible.
                if c.r() < 80 && c.g() < 80 && c.b() < 80 {
                    Color32::from_gray(170)
                } else {
                    c
                }
            })
            .unwrap_or(Color32::from_gray(170)),
        line: kind.map_or(LineStyle::Solid, |k| k.line),
    }
}

fn build_graph(content: &Content) -> MapGraphView {
    let g = &content.graph;
    let mut view = MapGraphView::new();
    let nodes: Vec<NodeIndex> = g
        .spaces
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let p = g.pos(i);
            let color = terrain_color(content, s.terrain.as_deref());
            view.add_node_custom(s.id.clone(), |n| {
                n.set_location(Pos2::new(p.x, p.y));
                n.set_label(s.name.clone());
                n.set_color(color);
                n.display_mut().radius = 6.0;
            })
        })
        .collect();
    for e in &g.edges {
        view.add_edge(nodes[e.a], nodes[e.b], conn_style(content, &e.kinds));
    }
    view
}

/// Draws the Map panel.
pub fn show(app: &mut EditorApp, ui: &mut Ui) {
    let Some(file) = app.file_of(FileKind::Map) else {
        ui.label("The folder has no map.ron.");
        return;
    };
    if app.map.built != Some(app.doc.generation) || app.map.graph.is_none() {
        app.map.graph = Some(build_graph(&app.loaded.content));
        app.map.built = Some(app.doc.generation);
    }
    toolbar(app, ui, &file);
    egui::Panel::right("inspector")
        .default_size(300.0)
        .show(ui, |ui| {
            egui::ScrollArea::vertical().show(ui, |ui| inspector(app, ui, &file));
        });
    if app.loaded.content.map.hex_grid.is_some() {
        hex_map(app, ui);
    } else {
        graph_view(app, ui, &file);
    }
}

fn toolbar(app: &mut EditorApp, ui: &mut Ui, file: &str) {
    ui.horizontal(|ui| {
        ui.label("Find:");
        ui.add(egui::TextEdit::singleline(&mut app.map.find).desired_width(140.0));
        if ui
            .button("Fit")
            .on_hover_text("Show the whole map")
            .clicked()
        {
            app.map.fit = true;
        }
        ui.separator();
        ui.label("New space id:");
        ui.add(egui::TextEdit::singleline(&mut app.map.new_id).desired_width(100.0));
        let id = app.map.new_id.trim().to_string();
        if ui
            .add_enabled(!id.is_empty(), egui::Button::new("Add space"))
            .clicked()
        {
            add_space(app, file, &id);
        }
        if let Some(from) = &app.map.linking {
            ui.label(
                RichText::new(format!("Click the space to connect {from} to"))
                    .color(Color32::YELLOW),
            );
            if ui.button("Cancel connecting").clicked() {
                app.map.linking = None;
            }
        }
        ui.label(
            RichText::new("Drag to move; wheel with Ctrl to zoom; drag the background to pan")
                .weak(),
        );
    });
    let needle = app.map.find.trim().to_lowercase();
    if needle.is_empty() {
        return;
    }
    let found: Vec<(String, String)> = app
        .loaded
        .content
        .graph
        .spaces
        .iter()
        .filter(|s| s.name.to_lowercase().contains(&needle) || s.id.contains(&needle))
        .take(12)
        .map(|s| (s.id.clone(), s.name.clone()))
        .collect();
    ui.horizontal_wrapped(|ui| {
        if found.is_empty() {
            ui.label("No space by that name.");
        }
        for (id, name) in found {
            if ui.button(format!("Go to {name}")).clicked() {
                app.map.selected = Some(Selected::Space(id.clone()));
                app.map.centre_on = Some(id);
            }
        }
    });
}

fn add_space(app: &mut EditorApp, file: &str, id: &str) {
    // A new space goes in the middle of the others, where the designer will see it.
    let g = &app.loaded.content.graph;
    let n = g.spaces.len().max(1) as f32;
    let (sx, sy) = (0..g.spaces.len())
        .map(|i| g.pos(i))
        .fold((0.0, 0.0), |(x, y), p| (x + p.x, y + p.y));
    let pos = Pos {
        x: (sx / n).round(),
        y: (sy / n).round(),
    };
    let terrain = app
        .loaded
        .content
        .game
        .as_ref()
        .and_then(|g| g.terrains.first())
        .map(|t| t.id.clone());
    let id = id.to_string();
    let added = app.edit::<MapFile>(file, &format!("add space {id}"), |m| {
        if m.spaces.iter().any(|s| s.id == id) {
            return Err(format!("a space `{id}` already exists"));
        }
        m.spaces.push(Space {
            id: id.clone(),
            name: id.clone(),
            hex: None,
            terrain,
            country: None,
            regions: Vec::new(),
            features: Vec::new(),
            vp: 0,
            supply: Vec::new(),
            props: Default::default(),
            adjacent: Vec::new(),
            pos: Some(pos),
            notes: String::new(),
            provenance: Default::default(),
        });
        Ok(())
    });
    if added {
        app.map.selected = Some(Selected::Space(id.clone()));
        app.map.centre_on = Some(id);
        app.map.new_id.clear();
    }
}

fn graph_view(app: &mut EditorApp, ui: &mut Ui, file: &str) {
    let Some(graph) = app.map.graph.as_mut() else {
        return;
    };
    // Mirror the selection into the view.
    let selected_nodes: Vec<NodeIndex> = match &app.map.selected {
        Some(Selected::Space(id)) => graph
            .nodes_iter()
            .filter(|(_, n)| n.payload() == id)
            .map(|(i, _)| i)
            .collect(),
        _ => Vec::new(),
    };
    let edges: Vec<(EdgeIndex, bool)> = graph
        .edges_iter()
        .map(|(i, _)| {
            let on = match (&app.map.selected, graph.edge_endpoints(i)) {
                (Some(Selected::Connection(a, b)), Some((x, y))) => {
                    let (x, y) = (
                        graph.node(x).map(|n| n.payload().as_str()),
                        graph.node(y).map(|n| n.payload().as_str()),
                    );
                    (x == Some(a) && y == Some(b)) || (x == Some(b) && y == Some(a))
                }
                _ => false,
            };
            (i, on)
        })
        .collect();
    for n in graph.g_mut().node_weights_mut() {
        let on = selected_nodes.contains(&n.id());
        n.set_selected(on);
    }
    for (i, on) in edges {
        if let Some(e) = graph.edge_mut(i) {
            e.set_selected(on);
        }
    }
    let interactions = SettingsInteraction::new()
        .with_dragging_enabled(true)
        .with_hover_enabled(true)
        .with_node_clicking_enabled(true)
        .with_edge_clicking_enabled(true);
    let navigation = SettingsNavigation::new()
        .with_zoom_and_pan_enabled(true)
        .with_fit_to_screen_enabled(std::mem::take(&mut app.map.fit))
        .with_fit_to_screen_padding(0.05);
    let style = SettingsStyle::new().with_labels_always(false);
    let response = GraphView::<FixedState, Fixed>::new()
        .with_interactions(&interactions)
        .with_navigations(&navigation)
        .with_styles(&style)
        .with_id(Some(VIEW_ID.into()))
        .show(ui, graph);
    app.map.rect = Some(response.response.rect);
    if let Some(id) = app.map.centre_on.take() {
        centre_on(app, ui, &id);
    }
    for change in response.changes {
        match change {
            GraphChange::NodeClicked { node } => {
                let Some(id) = app
                    .map
                    .graph
                    .as_ref()
                    .and_then(|g| g.node(node))
                    .map(|n| n.payload().clone())
                else {
                    continue;
                };
                match app.map.linking.take() {
                    Some(from) if from != id => connect(app, file, &from, &id),
                    _ => app.map.selected = Some(Selected::Space(id)),
                }
            }
            GraphChange::EdgeClicked { edge } => {
                let Some(g) = app.map.graph.as_ref() else {
                    continue;
                };
                if let Some((a, b)) = g.edge_endpoints(edge) {
                    if let (Some(a), Some(b)) = (g.node(a), g.node(b)) {
                        app.map.selected = Some(Selected::Connection(
                            a.payload().clone(),
                            b.payload().clone(),
                        ));
                    }
                }
            }
            GraphChange::NodeDragEnded { node } => {
                let Some(n) = app.map.graph.as_ref().and_then(|g| g.node(node)) else {
                    continue;
                };
                let (id, at) = (n.payload().clone(), n.location());
                move_space(app, file, &id, at);
            }
            _ => {}
        }
    }
}

/// Brings a space to the middle of the view.
fn centre_on(app: &EditorApp, ui: &mut Ui, id: &str) {
    let (Some(node), Some(rect), Some(g)) =
        (app.map.node_of(id), app.map.rect, app.map.graph.as_ref())
    else {
        return;
    };
    let Some(n) = g.node(node) else { return };
    let mut meta = MetadataFrame::new(Some(VIEW_ID.into())).load(ui);
    let zoom = meta.zoom.max(1.0);
    meta.zoom = zoom;
    meta.pan = rect.size() / 2.0 - n.location().to_vec2() * zoom;
    meta.save(ui);
}

/// Sets a space's drawing position (a drag ended on it).
pub fn move_space(app: &mut EditorApp, file: &str, id: &str, at: Pos2) {
    let name = app
        .loaded
        .content
        .graph
        .space(id)
        .map_or(id.to_string(), |s| s.name.clone());
    let at = Pos {
        x: at.x.round(),
        y: at.y.round(),
    };
    app.edit::<MapFile>(file, &format!("move space {name}"), |m| {
        let s = m
            .spaces
            .iter_mut()
            .find(|s| s.id == id)
            .ok_or_else(|| format!("no space `{id}` in the file"))?;
        if s.hex.is_some() {
            return Err("a hex's place is its cell on the grid".into());
        }
        s.pos = Some(at);
        Ok(())
    });
}

/// Adds a connection of the default kind between two spaces.
pub fn connect(app: &mut EditorApp, file: &str, a: &str, b: &str) {
    let (a, b) = (a.to_string(), b.to_string());
    let done = app.edit::<MapFile>(file, &format!("connect {a} and {b}"), |m| {
        let joined = m
            .connections
            .iter()
            .any(|c| (c.a == a && c.b == b) || (c.a == b && c.b == a))
            || m.spaces.iter().any(|s| {
                (s.id == a && s.adjacent.iter().any(|x| x.to == b))
                    || (s.id == b && s.adjacent.iter().any(|x| x.to == a))
            });
        if joined {
            return Err(format!("`{a}` and `{b}` are already connected"));
        }
        m.connections.push(Connection {
            a: a.clone(),
            b: b.clone(),
            kinds: Vec::new(),
            notes: String::new(),
            provenance: Default::default(),
        });
        Ok(())
    });
    if done {
        app.map.selected = Some(Selected::Connection(a, b));
    }
}

/// The kinds of the connection between two spaces, wherever the file lists it (a connection,
/// or a zone's adjacency on either side), for reading or changing.
fn with_kinds<R>(
    m: &mut MapFile,
    a: &str,
    b: &str,
    mut f: impl FnMut(&mut Vec<String>) -> R,
) -> Option<R> {
    let mut out = None;
    for c in &mut m.connections {
        if (c.a == a && c.b == b) || (c.a == b && c.b == a) {
            out = Some(f(&mut c.kinds));
        }
    }
    for s in &mut m.spaces {
        let other = if s.id == a {
            b
        } else if s.id == b {
            a
        } else {
            continue;
        };
        for adj in &mut s.adjacent {
            if adj.to == other {
                out = Some(f(&mut adj.kinds));
            }
        }
    }
    out
}

/// The kinds printed on the hexside between two hexes of the grid: `None` when they are not
/// neighbours. With `create`, a side with no entry gets one (which the change then fills).
fn with_hexside<R>(
    m: &mut MapFile,
    a: (i32, i32),
    b: (i32, i32),
    create: bool,
    mut f: impl FnMut(&mut Vec<String>) -> R,
) -> Option<R> {
    let grid = m.hex_grid.as_mut()?;
    let dirs = grid.directions();
    let towards = |from: (i32, i32), to: (i32, i32)| {
        dirs.iter()
            .copied()
            .find(|d| grid.step(from, *d) == Some(to))
    };
    let dir = towards(a, b)?;
    let found = grid.hexsides.iter().position(|h| {
        (h.hex == a && grid.step(a, h.side) == Some(b))
            || (h.hex == b && grid.step(b, h.side) == Some(a))
    });
    let i = match found {
        Some(i) => i,
        None if create => {
            grid.hexsides.push(sandtable_engine::model::Hexside {
                hex: a,
                side: dir,
                kinds: Vec::new(),
            });
            grid.hexsides.len() - 1
        }
        None => return Some(f(&mut Vec::new())),
    };
    let out = f(&mut grid.hexsides[i].kinds);
    grid.hexsides.retain(|h| !h.kinds.is_empty());
    Some(out)
}

/// Removes the connection between two spaces, wherever it is listed.
pub fn disconnect(app: &mut EditorApp, file: &str, a: &str, b: &str) {
    let done = app.edit::<MapFile>(file, &format!("delete connection {a} to {b}"), |m| {
        let before = m.connections.len();
        m.connections
            .retain(|c| !((c.a == a && c.b == b) || (c.a == b && c.b == a)));
        let mut removed = before - m.connections.len();
        for s in &mut m.spaces {
            let other = if s.id == a {
                b
            } else if s.id == b {
                a
            } else {
                continue;
            };
            let n = s.adjacent.len();
            s.adjacent.retain(|x| x.to != other);
            removed += n - s.adjacent.len();
        }
        if removed == 0 {
            return Err(
                "that connection is not in the file (a hex grid's sides come from the grid)".into(),
            );
        }
        Ok(())
    });
    if done {
        app.map.selected = None;
    }
}

/// Removes a space and every connection to it.
pub fn delete_space(app: &mut EditorApp, file: &str, id: &str) {
    let done = app.edit::<MapFile>(file, &format!("delete space {id}"), |m| {
        let before = m.spaces.len();
        m.spaces.retain(|s| s.id != id);
        if m.spaces.len() == before {
            return Err(format!("no space `{id}` in the file"));
        }
        m.connections.retain(|c| c.a != id && c.b != id);
        for s in &mut m.spaces {
            s.adjacent.retain(|x| x.to != id);
        }
        Ok(())
    });
    if done {
        app.map.selected = None;
        let refs = app.loaded.errors().count();
        if refs > 0 {
            app.status = format!(
                "Deleted {id}: {refs} problems now (references to it); see Problems, or undo."
            );
        }
    }
}

/// Changes one space through a closure, as one undoable edit named `label`.
fn edit_space(
    app: &mut EditorApp,
    file: &str,
    id: &str,
    label: &str,
    change: impl FnOnce(&mut Space),
) {
    let hex = app.loaded.content.graph.space(id).and_then(|s| s.hex);
    app.edit::<MapFile>(file, label, |m| {
        if !m.spaces.iter().any(|s| s.id == id) {
            // A hex the grid made: it becomes a listed space to carry the change.
            let Some(hex) = hex else {
                return Err(format!("no space `{id}` in the file"));
            };
            m.spaces.push(Space {
                id: id.to_string(),
                name: id.to_string(),
                hex: Some(hex),
                terrain: None,
                country: None,
                regions: Vec::new(),
                features: Vec::new(),
                vp: 0,
                supply: Vec::new(),
                props: Default::default(),
                adjacent: Vec::new(),
                pos: None,
                notes: String::new(),
                provenance: Default::default(),
            });
        }
        if let Some(s) = m.spaces.iter_mut().find(|s| s.id == id) {
            change(s);
        }
        Ok(())
    });
}

fn inspector(app: &mut EditorApp, ui: &mut Ui, file: &str) {
    match app.map.selected.clone() {
        None => {
            ui.heading("Inspector");
            ui.label("Click a space or a connection to see and edit it.");
            legend(app, ui);
            ui.separator();
            crate::fields::every_field::<MapFile>(
                app,
                ui,
                "The whole map file (hex grid, hexsides, notes)",
                file,
                FileKind::Map,
                &[],
            );
        }
        Some(Selected::Space(id)) => space_inspector(app, ui, file, &id),
        Some(Selected::Connection(a, b)) => connection_inspector(app, ui, file, &a, &b),
    }
}

/// The space's supply sources: for each, the nations that trace to it, its level and the flags
/// it depends on; sources can be added and removed.
fn supply_sources(
    app: &mut EditorApp,
    ui: &mut Ui,
    file: &str,
    id: &str,
    space: &sandtable_engine::model::Space,
    game: &sandtable_engine::model::GameFile,
) {
    use sandtable_engine::model::{SupplyLevel, SupplySource};
    ui.horizontal(|ui| {
        ui.label(RichText::new("Supply sources").strong());
        if ui.button("Add source").clicked() {
            edit_space(app, file, id, &format!("supply of {id}"), |s| {
                s.supply.push(SupplySource {
                    nations: Vec::new(),
                    level: SupplyLevel::Full,
                    flag: None,
                    unless_flag: None,
                })
            });
        }
    });
    for (i, source) in space.supply.iter().enumerate() {
        let label = format!("supply of {id}");
        ui.push_id(("supply", i), |ui| {
            egui::Frame::group(ui.style()).show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(format!("Source {}", i + 1));
                    let mut level = source.level;
                    ui.selectable_value(&mut level, SupplyLevel::Full, "Full");
                    ui.selectable_value(&mut level, SupplyLevel::Limited, "Limited");
                    if level != source.level {
                        edit_space(app, file, id, &label, |s| {
                            if let Some(x) = s.supply.get_mut(i) {
                                x.level = level
                            }
                        });
                    }
                    if ui.button("Remove source").clicked() {
                        edit_space(app, file, id, &label, |s| {
                            if i < s.supply.len() {
                                s.supply.remove(i);
                            }
                        });
                    }
                });
                let nations = game
                    .nations
                    .iter()
                    .map(|n| (n.id.as_str(), n.name.as_str()));
                if let Some((nid, on)) = crate::ticks(ui, nations, &source.nations) {
                    edit_space(app, file, id, &label, |s| {
                        if let Some(x) = s.supply.get_mut(i) {
                            crate::set_member(&mut x.nations, nid, on)
                        }
                    });
                }
                for (which, value) in [
                    ("Only while flag", &source.flag),
                    ("Not while flag", &source.unless_flag),
                ] {
                    let mut text = value.clone().unwrap_or_default();
                    ui.horizontal(|ui| {
                        ui.label(which);
                        if ui.text_edit_singleline(&mut text).changed() {
                            let v = text.trim().to_string();
                            let v = (!v.is_empty()).then_some(v);
                            let only = which.starts_with("Only");
                            edit_space(app, file, id, &label, |s| {
                                if let Some(x) = s.supply.get_mut(i) {
                                    if only {
                                        x.flag = v.clone();
                                    } else {
                                        x.unless_flag = v.clone();
                                    }
                                }
                            });
                        }
                    });
                }
            });
        });
    }
}

/// Whether the space is printed in the rulebook or reconstructed, and why.
fn provenance(app: &mut EditorApp, ui: &mut Ui, file: &str, id: &str, now: &Provenance) {
    let mut reconstructed = matches!(now, Provenance::Reconstructed(_));
    let label = format!("provenance of {id}");
    if ui
        .checkbox(
            &mut reconstructed,
            "Reconstructed (not printed in the rulebook)",
        )
        .changed()
    {
        let value = if reconstructed {
            Provenance::Reconstructed(String::new())
        } else {
            Provenance::Printed
        };
        edit_space(app, file, id, &label, |s| s.provenance = value.clone());
    }
    if let Provenance::Reconstructed(why) = now {
        let mut text = why.clone();
        ui.label("How it was reconstructed");
        if ui.text_edit_multiline(&mut text).changed() {
            edit_space(app, file, id, &label, |s| {
                s.provenance = Provenance::Reconstructed(text.clone())
            });
        }
    }
}

/// The connection kinds and terrains, as they are drawn.
fn legend(app: &EditorApp, ui: &mut Ui) {
    let Some(g) = app.loaded.content.game.as_ref() else {
        return;
    };
    ui.separator();
    ui.label(RichText::new("Connections").strong());
    for k in &g.connection_kinds {
        let style = conn_style(&app.loaded.content, std::slice::from_ref(&k.id));
        ui.horizontal(|ui| {
            let (r, p) = ui.allocate_painter(Vec2::new(40.0, 12.0), egui::Sense::hover());
            let (a, b) = (r.rect.left_center(), r.rect.right_center());
            let stroke = Stroke::new(1.5, style.color);
            match style.line {
                LineStyle::Solid => {
                    p.line_segment([a, b], stroke);
                }
                LineStyle::Dashed => {
                    p.extend(Shape::dashed_line(&[a, b], stroke, 6.0, 4.0));
                }
                LineStyle::Dotted => {
                    p.extend(Shape::dotted_line(&[a, b], style.color, 5.0, 1.2));
                }
            }
            ui.label(&k.name);
        });
    }
    ui.label(RichText::new("Terrain").strong());
    for t in &g.terrains {
        ui.horizontal(|ui| {
            let (r, p) = ui.allocate_painter(Vec2::new(12.0, 12.0), egui::Sense::hover());
            p.circle_filled(
                r.rect.center(),
                5.0,
                terrain_color(&app.loaded.content, Some(&t.id)),
            );
            ui.label(&t.name);
        });
    }
}

fn space_inspector(app: &mut EditorApp, ui: &mut Ui, file: &str, id: &str) {
    let Some(space) = app.loaded.content.graph.space(id).cloned() else {
        ui.label(format!("No space `{id}`."));
        return;
    };
    let Some(game) = app.loaded.content.game.clone() else {
        ui.label("The folder has no game.ron.");
        return;
    };
    ui.heading(&space.name);
    ui.label(RichText::new(format!("id {id}")).weak());
    ui.horizontal(|ui| {
        if ui.button("Connect to…").clicked() {
            app.map.linking = Some(id.to_string());
        }
        if ui.button("Delete space").clicked() {
            delete_space(app, file, id);
        }
    });
    let mut name = space.name.clone();
    ui.horizontal(|ui| {
        ui.label("Name");
        if ui.text_edit_singleline(&mut name).changed() {
            edit_space(app, file, id, &format!("rename {id}"), |s| {
                s.name = name.clone()
            });
        }
    });
    let mut terrain = space.terrain.clone().unwrap_or_default();
    egui::ComboBox::from_label("Terrain")
        .selected_text(terrain.clone())
        .show_ui(ui, |ui| {
            for t in &game.terrains {
                if ui
                    .selectable_value(&mut terrain, t.id.clone(), &t.name)
                    .changed()
                {
                    let value = terrain.clone();
                    edit_space(app, file, id, &format!("terrain of {id}"), |s| {
                        s.terrain = Some(value)
                    });
                }
            }
        });
    let mut country = space.country.clone().unwrap_or_default();
    ui.horizontal(|ui| {
        ui.label("Country");
        if ui.text_edit_singleline(&mut country).changed() {
            let value = country.trim().to_string();
            edit_space(app, file, id, &format!("country of {id}"), |s| {
                s.country = (!value.is_empty()).then_some(value)
            });
        }
    });
    let mut vp = space.vp;
    ui.horizontal(|ui| {
        ui.label("Victory points");
        if ui
            .add(egui::DragValue::new(&mut vp).range(0..=99))
            .changed()
        {
            edit_space(app, file, id, &format!("VP of {id}"), |s| s.vp = vp);
        }
    });
    if space.hex.is_none() {
        let mut pos = space.pos.unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label("Position");
            let x = ui.add(egui::DragValue::new(&mut pos.x).prefix("x "));
            let y = ui.add(egui::DragValue::new(&mut pos.y).prefix("y "));
            if x.changed() || y.changed() {
                edit_space(app, file, id, &format!("move space {}", space.name), |s| {
                    s.pos = Some(pos)
                });
            }
        });
    } else if let Some((c, r)) = space.hex {
        ui.label(format!("Hex column {c}, row {r}"));
    }
    ui.label(RichText::new("Regions").strong());
    let regions = game
        .regions
        .iter()
        .map(|r| (r.id.as_str(), r.name.as_str()));
    if let Some((rid, on)) = crate::ticks(ui, regions, &space.regions) {
        edit_space(app, file, id, &format!("regions of {id}"), |s| {
            crate::set_member(&mut s.regions, rid, on)
        });
    }
    ui.label(RichText::new("Features").strong());
    let features = game
        .features
        .iter()
        .map(|f| (f.id.as_str(), f.name.as_str()));
    if let Some((fid, on)) = crate::ticks(ui, features, &space.features) {
        edit_space(app, file, id, &format!("features of {id}"), |s| {
            crate::set_member(&mut s.features, fid, on)
        });
    }
    supply_sources(app, ui, file, id, &space, &game);
    for p in &game.properties {
        let mut text = space
            .props
            .get(&p.id)
            .map(|v| serde_json::to_string(v).unwrap_or_default())
            .unwrap_or_default();
        ui.horizontal(|ui| {
            ui.label(&p.name);
            if ui.text_edit_singleline(&mut text).changed() {
                let parsed = serde_json::from_str(text.trim());
                let key = p.id.clone();
                match parsed {
                    Ok(v) => edit_space(app, file, id, &format!("{key} of {id}"), |s| {
                        s.props.insert(key.clone(), v);
                    }),
                    Err(_) if text.trim().is_empty() => {
                        edit_space(app, file, id, &format!("{key} of {id}"), |s| {
                            s.props.remove(&key);
                        })
                    }
                    Err(_) => {
                        app.status =
                            format!("{}: not a value (a number, true/false or \"text\")", p.name)
                    }
                }
            }
        });
    }
    provenance(app, ui, file, id, &space.provenance);
    let mut notes = space.notes.clone();
    ui.label("Notes");
    if ui.text_edit_multiline(&mut notes).changed() {
        edit_space(app, file, id, &format!("notes of {id}"), |s| {
            s.notes = notes.clone()
        });
    }
    ui.separator();
    ui.label(RichText::new("Connections").strong());
    let neighbours: Vec<(String, String)> = app
        .loaded
        .content
        .graph
        .index_of(id)
        .map(|i| {
            let g = &app.loaded.content.graph;
            g.neighbours(i)
                .iter()
                .map(|&(n, e)| {
                    (
                        g.spaces[n].id.clone(),
                        format!("{} ({})", g.spaces[n].name, g.edges[e].kinds.join(", ")),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    for (other, label) in neighbours {
        if ui.link(label).clicked() {
            app.map.selected = Some(Selected::Connection(id.to_string(), other));
        }
    }
}

fn connection_inspector(app: &mut EditorApp, ui: &mut Ui, file: &str, a: &str, b: &str) {
    let names: Vec<(String, String)> = [a, b]
        .iter()
        .map(|id| {
            let g = &app.loaded.content.graph;
            (
                id.to_string(),
                g.space(id).map_or(id.to_string(), |s| s.name.clone()),
            )
        })
        .collect();
    let name = |id: &str| {
        names
            .iter()
            .find(|(x, _)| x == id)
            .map_or(id.to_string(), |(_, n)| n.clone())
    };
    ui.heading(format!("{} – {}", name(a), name(b)));
    let Ok(listed) = app.doc.parsed::<MapFile>(file) else {
        ui.label("map.ron does not read; fix it in Problems.");
        return;
    };
    // The lookups below are shared with the edits, which change the file.
    let mut map = (*listed).clone();
    let cell = |id: &str| app.loaded.content.graph.space(id).and_then(|s| s.hex);
    let cells = cell(a).zip(cell(b));
    let Some(kinds) = with_kinds(&mut map, a, b, |k| k.clone()).or_else(|| {
        cells.and_then(|(ca, cb)| with_hexside(&mut map, ca, cb, false, |k| k.clone()))
    }) else {
        ui.label("These two spaces are not connected in the file.");
        return;
    };
    if cells.is_some() {
        ui.label(RichText::new("A hexside: what is printed on it").weak());
    }
    let Some(game) = app.loaded.content.game.clone() else {
        ui.label("The folder has no game.ron.");
        return;
    };
    ui.label(format!(
        "Kinds (none ticked: {})",
        game.default_connection_kind
    ));
    let all = game
        .connection_kinds
        .iter()
        .map(|k| (k.id.as_str(), k.name.as_str()));
    if let Some((kid, on)) = crate::ticks(ui, all, &kinds) {
        app.edit::<MapFile>(file, &format!("kinds of {a} to {b}"), |m| {
            let mut change = |kinds: &mut Vec<String>| crate::set_member(kinds, kid.clone(), on);
            let listed = with_kinds(m, a, b, &mut change);
            if listed.is_none() {
                let (ca, cb) = cells.ok_or("the two spaces are not connected")?;
                with_hexside(m, ca, cb, true, &mut change)
                    .ok_or("the two hexes are not neighbours")?;
            }
            Ok(())
        });
    }
    ui.horizontal(|ui| {
        if ui.button(format!("Open {}", name(a))).clicked() {
            app.map.selected = Some(Selected::Space(a.to_string()));
        }
        if ui.button(format!("Open {}", name(b))).clicked() {
            app.map.selected = Some(Selected::Space(b.to_string()));
        }
    });
    if ui.button("Delete connection").clicked() {
        disconnect(app, file, a, b);
    }
}

/// A hex grid drawn as hexes in their terrain's colour; a click selects a hex.
fn hex_map(app: &mut EditorApp, ui: &mut Ui) {
    let content = &app.loaded.content;
    let Some(grid) = content.map.hex_grid.as_ref() else {
        return;
    };
    let g = &content.graph;
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 0.0, Color32::from_gray(24));
    let (mut lo, mut hi) = (Pos2::new(f32::MAX, f32::MAX), Pos2::new(f32::MIN, f32::MIN));
    for i in 0..g.spaces.len() {
        let p = g.pos(i);
        lo = lo.min(Pos2::new(p.x, p.y));
        hi = hi.max(Pos2::new(p.x, p.y));
    }
    let pad = grid.size * 1.2;
    let span = (hi - lo) + Vec2::splat(2.0 * pad);
    let scale = (rect.width() / span.x.max(1.0)).min(rect.height() / span.y.max(1.0));
    let at = |p: Pos| rect.left_top() + (Pos2::new(p.x, p.y) - lo + Vec2::splat(pad)) * scale;
    app.map.hex_frame = Some((rect.left_top() + Vec2::splat(pad) * scale, lo, scale));
    let flat = matches!(
        grid.orientation,
        sandtable_engine::model::HexOrientation::FlatTop
    );
    let corner = |c: Pos2, k: usize| {
        let angle = std::f32::consts::PI / 3.0 * k as f32
            + if flat {
                0.0
            } else {
                std::f32::consts::PI / 6.0
            };
        c + Vec2::angled(angle) * grid.size * scale
    };
    let selected = match &app.map.selected {
        Some(Selected::Space(id)) => Some(id.clone()),
        _ => None,
    };
    for (i, s) in g.spaces.iter().enumerate() {
        let c = at(g.pos(i));
        let points: Vec<Pos2> = (0..6).map(|k| corner(c, k)).collect();
        let stroke = if selected.as_deref() == Some(s.id.as_str()) {
            Stroke::new(2.5, Color32::YELLOW)
        } else {
            Stroke::new(0.5, Color32::from_gray(40))
        };
        painter.add(Shape::convex_polygon(
            points,
            terrain_color(content, s.terrain.as_deref()),
            stroke,
        ));
        if s.vp > 0 || s.name != s.id {
            painter.text(
                c,
                egui::Align2::CENTER_CENTER,
                &s.name,
                egui::FontId::proportional((grid.size * scale * 0.35).clamp(6.0, 14.0)),
                Color32::BLACK,
            );
        }
    }
    for e in &g.edges {
        if e.kinds.iter().any(|k| {
            k != &content
                .game
                .as_ref()
                .map_or(String::new(), |g| g.default_connection_kind.clone())
        }) {
            let style = conn_style(content, &e.kinds);
            let (a, b) = (at(g.pos(e.a)), at(g.pos(e.b)));
            // A hexside feature: drawn on the side between the two hexes.
            let mid = a + (b - a) / 2.0;
            let side = (b - a).rot90().normalized() * grid.size * scale * 0.5;
            painter.line_segment([mid - side, mid + side], Stroke::new(3.0, style.color));
        }
    }
    if let Some(Selected::Connection(a, b)) = &app.map.selected {
        if let (Some(ia), Some(ib)) = (g.index_of(a), g.index_of(b)) {
            let (pa, pb) = (at(g.pos(ia)), at(g.pos(ib)));
            let mid = pa + (pb - pa) / 2.0;
            let side = (pb - pa).rot90().normalized() * grid.size * scale * 0.55;
            painter.line_segment([mid - side, mid + side], Stroke::new(4.0, Color32::YELLOW));
        }
    }
    if let Some(click) = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())
    {
        // Near the middle of a hexside: the side; elsewhere the hex under the pointer.
        let side = g
            .edges
            .iter()
            .map(|e| {
                (
                    e,
                    (at(g.pos(e.a)) + (at(g.pos(e.b)) - at(g.pos(e.a))) / 2.0).distance(click),
                )
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, d)| *d <= grid.size * scale * 0.3);
        if let Some((e, _)) = side {
            app.map.selected = Some(Selected::Connection(
                g.spaces[e.a].id.clone(),
                g.spaces[e.b].id.clone(),
            ));
            return;
        }
        let nearest = (0..g.spaces.len())
            .map(|i| (i, at(g.pos(i)).distance(click)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, d)| *d <= grid.size * scale);
        app.map.selected = nearest.map(|(i, _)| Selected::Space(g.spaces[i].id.clone()));
    }
}

/// The colour of the side with this index (in `game.ron`'s order).
pub fn side_color(side: usize) -> Color32 {
    const PALETTE: [Color32; 4] = [
        Color32::from_rgb(120, 120, 130),
        Color32::from_rgb(190, 70, 60),
        Color32::from_rgb(70, 130, 190),
        Color32::from_rgb(90, 160, 90),
    ];
    PALETTE[side % PALETTE.len()]
}

/// Where a small overview map put the spaces.
#[derive(Debug, Clone, Copy)]
pub struct MiniMap {
    origin: Pos2,
    lo: Pos2,
    scale: f32,
}

impl MiniMap {
    /// The screen position of a space.
    pub fn at(&self, g: &sandtable_engine::content::MapGraph, i: usize) -> Pos2 {
        let p = g.pos(i);
        self.origin + (Pos2::new(p.x, p.y) - self.lo) * self.scale
    }

    /// The space nearest a screen position, within a few points.
    pub fn nearest(&self, g: &sandtable_engine::content::MapGraph, at: Pos2) -> Option<usize> {
        (0..g.spaces.len())
            .map(|i| (i, self.at(g, i).distance(at)))
            .filter(|(_, d)| *d <= 8.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }
}

/// A small overview map of every space and connection, filled by `fill`, ringed by `ring`, with
/// a number beside spaces holding more than one piece. It senses clicks (and drops).
pub fn mini_map(
    ui: &mut Ui,
    g: &sandtable_engine::content::MapGraph,
    height: f32,
    fill: impl Fn(usize) -> Color32,
    counts: &[u32],
    ring: impl Fn(usize) -> Option<Color32>,
) -> (egui::Response, MiniMap) {
    let (mut lo, mut hi) = (Pos2::new(f32::MAX, f32::MAX), Pos2::new(f32::MIN, f32::MIN));
    for i in 0..g.spaces.len() {
        let p = g.pos(i);
        lo = lo.min(Pos2::new(p.x, p.y));
        hi = hi.max(Pos2::new(p.x, p.y));
    }
    let width = ui.available_width().max(200.0);
    let (rect, response) = ui.allocate_exact_size(Vec2::new(width, height), egui::Sense::click());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(24));
    let span = (hi - lo).max(Vec2::new(1.0, 1.0));
    let scale = ((rect.width() - 20.0) / span.x).min((rect.height() - 20.0) / span.y);
    let mini = MiniMap {
        origin: rect.left_top() + Vec2::new(10.0, 10.0),
        lo,
        scale,
    };
    for e in &g.edges {
        painter.line_segment(
            [mini.at(g, e.a), mini.at(g, e.b)],
            Stroke::new(0.5, Color32::from_gray(70)),
        );
    }
    for i in 0..g.spaces.len() {
        let n = counts.get(i).copied().unwrap_or(0);
        let radius = if n > 0 { 3.5 } else { 2.0 };
        let c = mini.at(g, i);
        painter.circle_filled(c, radius, fill(i));
        if let Some(color) = ring(i) {
            painter.circle_stroke(c, radius + 1.5, Stroke::new(1.0, color));
        }
        if n > 1 {
            painter.text(
                c + Vec2::new(4.0, -4.0),
                egui::Align2::LEFT_BOTTOM,
                n.to_string(),
                egui::FontId::proportional(9.0),
                Color32::WHITE,
            );
        }
    }
    (response, mini)
}
