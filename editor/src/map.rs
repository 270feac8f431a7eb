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
use sandtable_engine::model::{Connection, HexGrid, LineStyle, MapFile, Pos, Provenance, Space};
use sandtable_engine::schema::FileKind;

use crate::{parse_color, EditorApp};

mod edits;
mod hex;
mod inspector;

pub use edits::*;
pub use hex::*;
use inspector::*;

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

    /// Where a cell of the hex grid is drawn on screen, hex or hole (after a frame drew it).
    pub fn hex_cell_screen_pos(&self, content: &Content, cell: (i32, i32)) -> Option<Pos2> {
        let (origin, lo, scale) = self.hex_frame?;
        let p = content.map.hex_grid.as_ref()?.centre(cell);
        Some(origin + (Pos2::new(p.x, p.y) - lo) * scale)
    }

    /// Selects the thing a JSON pointer into `map.ron` names (`/spaces/4/terrain`).
    pub fn select_pointer(&mut self, content: &Content, parts: &[&str]) {
        let index = |i: usize| parts.get(i).and_then(|p| p.parse::<usize>().ok());
        match parts.first() {
            Some(&"spaces") => {
                if let Some(s) = index(1).and_then(|i| content.map.spaces.get(i)) {
                    self.selected = Some(Selected::Space(s.id.to_string()));
                    self.centre_on = Some(s.id.to_string());
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
pub(crate) fn terrain_color(content: &Content, terrain: Option<&str>) -> Color32 {
    content
        .game
        .as_ref()
        .and_then(|g| g.terrains.iter().find(|t| Some(t.id.as_str()) == terrain))
        .and_then(|t| parse_color(t.color.as_deref()))
        .unwrap_or(Color32::from_gray(150))
}

/// The colour a connection of these kinds is drawn in.
pub(crate) fn connection_color(content: &Content, kinds: &[String]) -> Color32 {
    conn_style(content, kinds).color
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
            view.add_node_custom(s.id.to_string(), |n| {
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
        hex_map(app, ui, &file);
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
        if app.loaded.content.map.hex_grid.is_some() {
            ui.label(RichText::new("Right-click an empty cell to add a hex").weak());
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
        .map(|s| (s.id.to_string(), s.name.clone()))
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

fn graph_view(app: &mut EditorApp, ui: &mut Ui, file: &str) {
    // Under the graph: each country's tint, where the view stood last frame.
    if let Some(rect) = app.map.rect {
        tint_countries(app, ui, rect);
    }
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
    name_spaces(app, ui, response.response.rect);
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

/// Where each space of the graph view is on screen, by its index in the content's graph, and
/// the view's zoom.
fn on_screen(app: &EditorApp, ui: &Ui, rect: egui::Rect) -> Option<(Vec<Pos2>, f32)> {
    let g = app.map.graph.as_ref()?;
    let meta = MetadataFrame::new(Some(VIEW_ID.into())).load(ui);
    let located: std::collections::HashMap<&str, Pos2> = g
        .nodes_iter()
        .map(|(_, n)| (n.payload().as_str(), n.location()))
        .collect();
    let spaces = &app.loaded.content.graph.spaces;
    let at = spaces
        .iter()
        .map(|s| match located.get(s.id.as_str()) {
            Some(loc) => rect.left_top() + meta.canvas_to_screen_pos(*loc).to_vec2(),
            None => Pos2::new(f32::MAX, f32::MAX),
        })
        .collect();
    Some((at, meta.zoom))
}

/// Each country's tint under its spaces.
fn tint_countries(app: &EditorApp, ui: &mut Ui, rect: egui::Rect) {
    let Some((at, zoom)) = on_screen(app, ui, rect) else {
        return;
    };
    let painter = ui.painter_at(rect);
    for (s, c) in app.loaded.content.graph.spaces.iter().zip(at) {
        if let Some(country) = &s.country {
            painter.circle_filled(c, 14.0 * zoom, crate::board::tint(country));
        }
    }
}

/// The spaces' worth (victory points, capitals) and names over the graph, at a size that grows
/// with the zoom, the important first and none over another (see
/// [`crate::board::place_names`]).
fn name_spaces(app: &EditorApp, ui: &mut Ui, rect: egui::Rect) {
    let Some((at, zoom)) = on_screen(app, ui, rect) else {
        return;
    };
    let content = &app.loaded.content;
    let painter = ui.painter_at(rect);
    for (s, c) in content.graph.spaces.iter().zip(&at) {
        crate::board::mark_worth(&painter, s, *c, 9.0 * zoom);
    }
    let below = |i: usize| at[i] + Vec2::new(0.0, 6.0 * zoom);
    crate::board::place_names(
        &painter,
        content,
        rect,
        (zoom * 9.0).min(16.0),
        below,
        |_| false,
    );
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
