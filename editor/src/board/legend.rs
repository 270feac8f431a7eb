//! The board's legend: the sides' control colours, the nations' counter colours, the unit-type
//! symbols the game uses, and the map's marks.

use egui::{Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2};
use sandtable_engine::content::Content;

use super::counter;

/// Draws the legend in the board's top-left corner.
pub fn draw(painter: &Painter, content: &Content, board: Rect) {
    let Some(game) = content.game.as_ref() else {
        return;
    };
    let line = 16.0;
    let font = FontId::proportional(12.0);
    let mut rows: Vec<(Swatch, String)> = Vec::new();
    for (i, s) in game.sides.iter().enumerate() {
        rows.push((
            Swatch::Ring(crate::map::side_color(i)),
            format!("controlled by {}", s.name),
        ));
    }
    for n in &game.nations {
        rows.push((
            Swatch::Fill(counter::nation_color(content, &n.id)),
            n.name.clone(),
        ));
    }
    let mut symbols: Vec<(counter::Symbol, String)> = Vec::new();
    for t in &game.unit_types {
        let s = counter::symbol_of(content, &t.id);
        if !symbols.iter().any(|(x, _)| *x == s) {
            symbols.push((s, t.name.clone()));
        }
    }
    rows.extend(
        symbols
            .into_iter()
            .map(|(s, name)| (Swatch::Symbol(s), name)),
    );
    rows.push((Swatch::Vp, "victory points".into()));
    rows.push((Swatch::Capital, "capital".into()));
    rows.push((Swatch::Marker, "marker (initials of its name)".into()));
    let height = line * rows.len() as f32 + 8.0;
    let area = Rect::from_min_size(
        board.left_top() + Vec2::splat(6.0),
        Vec2::new(230.0, height),
    );
    painter.rect_filled(area, 4.0, Color32::from_black_alpha(200));
    for (k, (swatch, text)) in rows.iter().enumerate() {
        let y = area.top() + 4.0 + line * k as f32 + line / 2.0;
        let at = Pos2::new(area.left() + 14.0, y);
        match swatch {
            Swatch::Ring(c) => {
                painter.circle_stroke(at, 5.0, Stroke::new(2.5, *c));
            }
            Swatch::Fill(c) => {
                painter.rect_filled(Rect::from_center_size(at, Vec2::splat(11.0)), 2.0, *c);
            }
            Swatch::Symbol(s) => {
                counter::draw_symbol(
                    painter,
                    Rect::from_center_size(at, Vec2::new(16.0, 10.0)),
                    *s,
                    Color32::WHITE,
                );
            }
            Swatch::Vp => {
                painter.circle_filled(at, 5.0, Color32::from_rgb(230, 190, 60));
            }
            Swatch::Capital => {
                painter.rect_stroke(
                    Rect::from_center_size(at, Vec2::splat(9.0)),
                    0.0,
                    Stroke::new(2.0, Color32::from_rgb(230, 190, 60)),
                    egui::StrokeKind::Outside,
                );
            }
            Swatch::Marker => {
                painter.rect_filled(
                    Rect::from_center_size(at, Vec2::new(14.0, 10.0)),
                    2.0,
                    Color32::from_rgb(240, 210, 70),
                );
            }
        }
        painter.text(
            Pos2::new(area.left() + 30.0, y),
            egui::Align2::LEFT_CENTER,
            text,
            font.clone(),
            Color32::WHITE,
        );
    }
}

enum Swatch {
    Ring(Color32),
    Fill(Color32),
    Symbol(counter::Symbol),
    Vp,
    Capital,
    Marker,
}
