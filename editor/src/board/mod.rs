//! The playtest's board: the map filling the space it has, zoomed with the wheel and panned by
//! dragging; hexes in their terrain's colour or spaces on their connections, tinted by country
//! and ringed by who controls them; names at a size that grows with the zoom, the important
//! ones first and none over another; victory-point spaces and capitals marked; markers; units
//! as counters, stacks fanned (a click spreads one out); the spaces the legal actions name
//! highlighted; and a legend.

use egui::{Color32, FontId, Pos2, Rect, Sense, Stroke, Ui, Vec2};
use sandtable_engine::content::Content;
use sandtable_engine::state::{Loc, State};

pub mod answer;
pub mod counter;
mod legend;

/// The board's view between frames.
#[derive(Debug, Clone)]
pub struct BoardView {
    /// 1 shows the whole map.
    pub zoom: f32,
    /// Screen points the map is moved by.
    pub pan: Vec2,
    /// The space whose stack is spread out.
    pub spread: Option<String>,
    /// The unit picked on the map (its text form): its legal actions are shown, and the
    /// spaces they name highlighted.
    pub unit: Option<String>,
    pub legend: bool,
    /// A space to bring to the middle of the board at the next frame.
    pub centre_on: Option<String>,
    /// Where the last frame drew each counter (its unit's text form) and each space's centre:
    /// what a click is matched against, and what tests click.
    pub counters: Vec<(Rect, String)>,
    pub spaces: Vec<(Pos2, String)>,
}

impl Default for BoardView {
    fn default() -> Self {
        BoardView {
            zoom: 1.0,
            pan: Vec2::ZERO,
            centre_on: None,
            spread: None,
            unit: None,
            legend: false,
            counters: Vec::new(),
            spaces: Vec::new(),
        }
    }
}

/// What a click on the board hit.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BoardClick {
    pub space: Option<String>,
    /// The unit's text form, when a counter was clicked.
    pub unit: Option<String>,
}

/// How world positions become screen positions.
#[derive(Clone, Copy)]
struct Frame {
    centre: Pos2,
    mid: Pos2,
    scale: f32,
}

impl Frame {
    fn at(&self, p: sandtable_engine::model::Pos) -> Pos2 {
        self.centre + (Pos2::new(p.x, p.y) - self.mid) * self.scale
    }
}

/// Draws the board in the space left, `highlight` the spaces to ring; returns what a click hit.
pub fn show(
    ui: &mut Ui,
    content: &Content,
    state: &State,
    view: &mut BoardView,
    highlight: &[String],
) -> BoardClick {
    let g = &content.graph;
    let size = ui.available_size().max(Vec2::new(240.0, 200.0));
    let (rect, response) = ui.allocate_exact_size(size, Sense::click_and_drag());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_rgb(28, 34, 42));
    if g.spaces.is_empty() {
        return BoardClick::default();
    }
    // Zoom about the pointer with the wheel (or a pinch), pan by dragging.
    if response.hovered() {
        let (scroll, pinch) = ui.input(|i| (i.smooth_scroll_delta.y, i.zoom_delta()));
        let factor = pinch * (scroll / 300.0).exp();
        if (factor - 1.0).abs() > 1e-4 {
            let new = (view.zoom * factor).clamp(0.5, 30.0);
            if let Some(p) = response.hover_pos() {
                let from_centre = p - rect.center() - view.pan;
                view.pan -= from_centre * (new / view.zoom - 1.0);
            }
            view.zoom = new;
        }
    }
    if response.dragged() {
        view.pan += response.drag_delta();
    }
    let (mut lo, mut hi) = (Pos2::new(f32::MAX, f32::MAX), Pos2::new(f32::MIN, f32::MIN));
    for i in 0..g.spaces.len() {
        let p = g.pos(i);
        lo = lo.min(Pos2::new(p.x, p.y));
        hi = hi.max(Pos2::new(p.x, p.y));
    }
    let hex = content.map.hex_grid.as_ref();
    let pad = hex.map_or(30.0, |h| h.size * 1.2);
    let span = (hi - lo) + Vec2::splat(2.0 * pad);
    let fit = (rect.width() / span.x.max(1.0)).min(rect.height() / span.y.max(1.0));
    let mid = lo + (hi - lo) / 2.0;
    let scale = fit * view.zoom;
    if let Some(i) = view.centre_on.take().and_then(|s| g.index_of(&s)) {
        let p = g.pos(i);
        view.pan = -(Pos2::new(p.x, p.y) - mid) * scale;
    }
    let frame = Frame {
        centre: rect.center() + view.pan,
        mid,
        scale,
    };
    // How big a space is on screen.
    let radius = match hex {
        Some(h) => h.size * frame.scale,
        None => typical_spacing(content) * frame.scale * 0.32,
    };
    let sides: Vec<&str> = content
        .game
        .as_ref()
        .map(|gm| gm.sides.iter().map(|s| s.id.as_str()).collect())
        .unwrap_or_default();
    let side_color = |side: &str| {
        sides
            .iter()
            .position(|x| *x == side)
            .map_or(Color32::WHITE, crate::map::side_color)
    };
    draw_ground(&painter, content, frame, radius);
    // Control and the highlights.
    for (i, s) in g.spaces.iter().enumerate() {
        let c = frame.at(g.pos(i));
        if !rect.expand(radius * 2.0).contains(c) {
            continue;
        }
        if let Some(side) = state.control.get(&s.id) {
            let (ring, width) = match hex {
                Some(_) => (radius * 0.8, (radius * 0.06).clamp(1.0, 2.0)),
                None => (radius, (radius * 0.12).clamp(1.5, 4.0)),
            };
            let colour = match hex {
                // On a hex map every hex is held by someone: a quieter ring.
                Some(_) => side_color(side).gamma_multiply(0.6),
                None => side_color(side),
            };
            painter.circle_stroke(c, ring, Stroke::new(width, colour));
        }
        if highlight.iter().any(|h| *h == s.id) {
            painter.circle_stroke(
                c,
                radius * 1.05 + 2.0,
                Stroke::new(2.5, Color32::from_rgb(120, 230, 120)),
            );
        }
        mark_worth(&painter, s, c, radius);
    }
    let hit = draw_pieces(&painter, content, state, (frame, radius, rect), view);
    draw_names(&painter, content, state, (frame, radius, rect));
    if view.legend {
        legend::draw(&painter, content, rect);
    }
    view.spaces = (0..g.spaces.len())
        .map(|i| (frame.at(g.pos(i)), g.spaces[i].id.to_string()))
        .filter(|(c, _)| rect.contains(*c))
        .collect();
    view.counters = hit;
    let mut click = BoardClick::default();
    if let Some(p) = response
        .interact_pointer_pos()
        .filter(|_| response.clicked())
    {
        let hit = view.counters.iter().rev().find(|(r, _)| r.contains(p));
        click.unit = hit.map(|(_, u)| u.clone());
        // A counter stands for its space, wherever the counter is drawn (a spread stack).
        let under = hit.and_then(|(_, u)| {
            state
                .units
                .iter()
                .find(|x| x.name(content) == *u)
                .and_then(|x| match &x.at {
                    Loc::Space(s) => Some(s.to_string()),
                    _ => None,
                })
        });
        click.space = under.or_else(|| {
            view.spaces
                .iter()
                .map(|(c, id)| (id, c.distance(p)))
                .filter(|(_, d)| *d <= radius.max(8.0))
                .min_by(|a, b| a.1.total_cmp(&b.1))
                .map(|(id, _)| id.clone())
        });
        if click.unit.is_none() {
            view.spread = None;
        }
    }
    click
}

/// A space's worth: its victory points in a gold disc at its corner, a gold square on a
/// capital. The board and the Map panel mark spaces so.
pub(crate) fn mark_worth(
    painter: &egui::Painter,
    s: &sandtable_engine::model::Space,
    c: Pos2,
    radius: f32,
) {
    let gold = Color32::from_rgb(230, 190, 60);
    if s.vp > 0 {
        let at = c + Vec2::new(-radius * 0.55, -radius * 0.55);
        painter.circle_filled(at, (radius * 0.22).clamp(4.0, 9.0), gold);
        painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            s.vp.to_string(),
            FontId::proportional((radius * 0.28).clamp(7.0, 12.0)),
            Color32::BLACK,
        );
    }
    if s.features.iter().any(|f| f == "capital") {
        let r = Rect::from_center_size(c, Vec2::splat(radius * 0.5));
        painter.rect_stroke(r, 0.0, Stroke::new(2.0, gold), egui::StrokeKind::Outside);
    }
}

/// The average length of a connection, in map units: how far apart spaces are.
fn typical_spacing(content: &Content) -> f32 {
    let g = &content.graph;
    let (mut sum, mut n) = (0.0, 0u32);
    for e in g.edges.iter().take(400) {
        let (a, b) = (g.pos(e.a), g.pos(e.b));
        let d = Pos2::new(a.x, a.y).distance(Pos2::new(b.x, b.y));
        if d > 0.0 {
            sum += d;
            n += 1;
        }
    }
    if n == 0 {
        40.0
    } else {
        sum / n as f32
    }
}

/// The ground: hexes in their terrain's colour, or connections and spaces tinted by country.
fn draw_ground(painter: &egui::Painter, content: &Content, frame: Frame, radius: f32) {
    let g = &content.graph;
    let clip = painter.clip_rect().expand(radius * 2.0);
    if let Some(grid) = content.map.hex_grid.as_ref() {
        let flat = matches!(
            grid.orientation,
            sandtable_engine::model::HexOrientation::FlatTop
        );
        for (i, s) in g.spaces.iter().enumerate() {
            let c = frame.at(g.pos(i));
            if !clip.contains(c) {
                continue;
            }
            let points: Vec<Pos2> = (0..6)
                .map(|k| {
                    let a = std::f32::consts::PI / 3.0 * k as f32
                        + if flat {
                            0.0
                        } else {
                            std::f32::consts::PI / 6.0
                        };
                    c + Vec2::angled(a) * radius
                })
                .collect();
            painter.add(egui::Shape::convex_polygon(
                points,
                crate::map::terrain_color(content, s.terrain.as_deref()),
                Stroke::new(0.5, Color32::from_black_alpha(90)),
            ));
        }
        // Hexside features (rivers and the like) on the side between two hexes.
        let default_kind = content
            .game
            .as_ref()
            .map(|gm| gm.default_connection_kind.as_str());
        for e in &g.edges {
            if e.kinds.iter().all(|k| Some(k.as_str()) == default_kind) {
                continue;
            }
            let (a, b) = (frame.at(g.pos(e.a)), frame.at(g.pos(e.b)));
            if !clip.contains(a) {
                continue;
            }
            let mid = a + (b - a) / 2.0;
            let side = (b - a).rot90().normalized() * radius * 0.5;
            let colour = crate::map::connection_color(content, &e.kinds);
            painter.line_segment(
                [mid - side, mid + side],
                Stroke::new((radius * 0.15).clamp(1.5, 4.0), colour),
            );
        }
        return;
    }
    for e in &g.edges {
        let (a, b) = (frame.at(g.pos(e.a)), frame.at(g.pos(e.b)));
        if !clip.contains(a) && !clip.contains(b) {
            continue;
        }
        let colour = crate::map::connection_color(content, &e.kinds);
        painter.line_segment([a, b], Stroke::new(1.2, colour.gamma_multiply(0.7)));
    }
    for (i, s) in g.spaces.iter().enumerate() {
        let c = frame.at(g.pos(i));
        if !clip.contains(c) {
            continue;
        }
        // The country's tint, then the space in its terrain's colour.
        if let Some(country) = &s.country {
            painter.circle_filled(c, radius * 1.9, tint(country));
        }
        painter.circle_filled(
            c,
            radius * 0.75,
            crate::map::terrain_color(content, s.terrain.as_deref()),
        );
    }
}

/// A faint colour of its own for each country.
pub(crate) fn tint(country: &str) -> Color32 {
    let h = country.bytes().fold(2166136261u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(16777619)
    });
    let hue = (h % 360) as f32 / 360.0;
    let c: Color32 = egui::ecolor::Hsva::new(hue, 0.45, 0.55, 1.0).into();
    Color32::from_rgba_unmultiplied(c.r(), c.g(), c.b(), 38)
}

/// The markers and the units on the map; returns each counter's rectangle with its unit.
fn draw_pieces(
    painter: &egui::Painter,
    content: &Content,
    state: &State,
    (frame, radius, rect): (Frame, f32, Rect),
    view: &BoardView,
) -> Vec<(Rect, String)> {
    let g = &content.graph;
    let mut stacks: Vec<Vec<usize>> = vec![Vec::new(); g.spaces.len()];
    for (u, unit) in state.units.iter().enumerate() {
        if let Loc::Space(s) = &unit.at {
            if let Some(i) = g.index_of(s) {
                stacks[i].push(u);
            }
        }
    }
    let names = content.names();
    let hex_map = content.map.hex_grid.is_some();
    for m in &state.markers {
        let Some(i) = g.index_of(m.space) else {
            continue;
        };
        let c = frame.at(g.pos(i)) + Vec2::new(radius * 0.6, radius * 0.45);
        let text: String = names
            .or_id(&m.marker)
            .split_whitespace()
            .filter_map(|w| w.chars().next())
            .collect();
        let r = Rect::from_center_size(
            c,
            Vec2::new((radius * 0.55).max(12.0), (radius * 0.4).max(9.0)),
        );
        painter.rect_filled(r, 2.0, Color32::from_rgb(240, 210, 70));
        painter.text(
            r.center(),
            egui::Align2::CENTER_CENTER,
            format!(
                "{text}{}",
                if m.level > 1 {
                    m.level.to_string()
                } else {
                    String::new()
                }
            ),
            FontId::proportional((r.height() * 0.7).clamp(6.0, 12.0)),
            Color32::BLACK,
        );
    }
    let side = (radius * if hex_map { 1.05 } else { 1.3 }).clamp(10.0, 72.0);
    let mut hits = Vec::new();
    for (i, stack) in stacks.iter().enumerate() {
        if stack.is_empty() {
            continue;
        }
        let c = frame.at(g.pos(i));
        if !rect.expand(side * 2.0).contains(c) {
            continue;
        }
        let spread = view.spread.as_deref() == Some(g.spaces[i].id.as_str());
        // Fanned: each counter under the top one shows a sliver; spread: in a row.
        let step = if spread {
            Vec2::new(side * 1.1, 0.0)
        } else {
            Vec2::new(side * 0.12, -side * 0.12)
        };
        let shown = if spread {
            stack.len()
        } else {
            stack.len().min(4)
        };
        let first = if spread {
            c - Vec2::new(side * 1.1 * (shown as f32 - 1.0) / 2.0, side * 1.3)
        } else {
            c - step * (shown as f32 - 1.0) / 2.0
        };
        for (k, &u) in stack.iter().take(shown).enumerate() {
            let unit = &state.units[u];
            let Some(counter) = content.counter(&unit.counter) else {
                continue;
            };
            let r = Rect::from_center_size(first + step * k as f32, Vec2::splat(side));
            let name = unit.name(content);
            let picked = view.unit.as_deref() == Some(name.as_str());
            counter::draw(
                painter,
                content,
                r,
                &counter::Face {
                    counter,
                    reduced: unit.reduced,
                },
                picked.then_some(Color32::from_rgb(120, 230, 120)),
            );
            hits.push((r, name));
        }
        if stack.len() > shown {
            let r = Rect::from_center_size(first + step * (shown as f32 - 1.0), Vec2::splat(side));
            painter.text(
                r.right_top() + Vec2::new(2.0, 0.0),
                egui::Align2::LEFT_TOP,
                format!("+{}", stack.len() - shown),
                FontId::proportional((side * 0.3).clamp(8.0, 14.0)),
                Color32::WHITE,
            );
        }
    }
    hits
}

/// Space names where they fit: victory-point spaces and capitals first, then spaces with
/// units, then the rest; at a size that grows with the zoom, and never over another name.
fn draw_names(
    painter: &egui::Painter,
    content: &Content,
    state: &State,
    (frame, radius, rect): (Frame, f32, Rect),
) {
    let g = &content.graph;
    let occupied: std::collections::BTreeSet<&str> = state
        .units
        .iter()
        .filter_map(|u| match &u.at {
            Loc::Space(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let at = |i: usize| frame.at(g.pos(i)) + Vec2::new(0.0, radius * 0.9 + 1.0);
    place_names(painter, content, rect, (radius * 0.42).min(18.0), at, |s| {
        occupied.contains(s)
    });
}

/// Draws the spaces' names below the points `at` gives, in order of importance (capitals,
/// then victory points, then the spaces `busy` says hold something): at `size` points, the
/// important ones at least 10, none where it would cover a name already drawn, none under 8
/// points. The playtest's board and the Map panel both name their spaces so.
pub(crate) fn place_names(
    painter: &egui::Painter,
    content: &Content,
    rect: Rect,
    size: f32,
    at: impl Fn(usize) -> Pos2,
    busy: impl Fn(&str) -> bool,
) {
    let g = &content.graph;
    let mut order: Vec<(i32, usize)> = g
        .spaces
        .iter()
        .enumerate()
        .filter(|(_, s)| s.name != s.id || s.vp > 0)
        .map(|(i, s)| {
            let mut rank = s.vp * 10;
            if s.features.iter().any(|f| f == "capital") {
                rank += 100;
            }
            if busy(&s.id) {
                rank += 5;
            }
            (-rank, i)
        })
        .collect();
    order.sort();
    let mut placed: Vec<Rect> = Vec::new();
    for (rank, i) in order {
        let font = if rank < 0 { size.max(10.0) } else { size };
        if font < 8.0 {
            continue;
        }
        let below = at(i);
        if !rect.contains(below) {
            continue;
        }
        let galley = painter.layout_no_wrap(
            g.spaces[i].name.clone(),
            FontId::proportional(font),
            Color32::WHITE,
        );
        let r = Rect::from_center_size(
            below + Vec2::new(0.0, galley.size().y / 2.0),
            galley.size() + Vec2::new(4.0, 0.0),
        );
        if placed.iter().any(|p| p.intersects(r)) {
            continue;
        }
        painter.rect_filled(r, 2.0, Color32::from_black_alpha(150));
        painter.galley(r.left_top() + Vec2::new(2.0, 0.0), galley, Color32::WHITE);
        placed.push(r);
    }
}
