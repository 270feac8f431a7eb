//! Hex maps drawn as hexes, and the small map other panels show.

use super::*;

/// A hex grid drawn as hexes in their terrain's colour; a click selects a hex or a hexside, a
/// right click on a hole of the grid adds a hex there.
pub(super) fn hex_map(app: &mut EditorApp, ui: &mut Ui, file: &str) {
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
                g.spaces[e.a].id.to_string(),
                g.spaces[e.b].id.to_string(),
            ));
            return;
        }
        let nearest = (0..g.spaces.len())
            .map(|i| (i, at(g.pos(i)).distance(click)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, d)| *d <= grid.size * scale);
        app.map.selected = nearest.map(|(i, _)| Selected::Space(g.spaces[i].id.to_string()));
    }
    // A right click (or a double click) on a hole of the grid, a cell with no hex, adds a hex
    // there.
    if let Some(click) = response
        .interact_pointer_pos()
        .filter(|_| response.secondary_clicked() || response.double_clicked())
    {
        let hole = grid
            .holes
            .iter()
            .map(|&cell| (cell, at(grid.centre(cell)).distance(click)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .filter(|(_, d)| *d <= grid.size * scale * 0.9)
            .map(|(cell, _)| cell);
        if let Some(cell) = hole {
            edits::add_hex(app, file, cell);
        }
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
