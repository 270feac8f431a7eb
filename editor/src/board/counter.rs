//! A unit drawn as a wargame counter: its nation's colour, a NATO-style unit-type symbol with
//! the size above it, the strength factors of its current step below, and a reduced unit
//! marked by a band across it. The playtest's map and the Counters panel draw the same image.

use egui::{Color32, FontId, Painter, Pos2, Rect, Stroke, Vec2};
use sandtable_engine::content::Content;
use sandtable_engine::model::Counter;

/// What a counter shows: its counter, whether reduced, and the side it serves (for its colour
/// when its nation has none).
pub struct Face<'a> {
    pub counter: &'a Counter,
    pub reduced: bool,
}

/// A nation's colour: a shade of its side's, lighter or darker by its place among the side's
/// nations, so the German and the Finnish counters of one side differ.
pub fn nation_color(content: &Content, nation: &str) -> Color32 {
    let Some(game) = content.game.as_ref() else {
        return Color32::from_gray(150);
    };
    let side = game
        .nations
        .iter()
        .find(|n| n.id == nation)
        .and_then(|n| n.side.as_deref());
    let side_index = side
        .and_then(|s| game.sides.iter().position(|x| x.id == s))
        .unwrap_or(usize::MAX);
    let base = match side_index {
        usize::MAX => Color32::from_rgb(170, 170, 150),
        i => SIDE_COUNTERS[i % SIDE_COUNTERS.len()],
    };
    let mates: Vec<&str> = game
        .nations
        .iter()
        .filter(|n| n.side.as_deref() == side)
        .map(|n| n.id.as_str())
        .collect();
    let k = mates.iter().position(|n| *n == nation).unwrap_or(0);
    // The first nation of a side keeps the side's colour; the others step lighter or darker.
    let shift = [0.0, 0.25, -0.22, 0.42, -0.38, 0.55][k % 6];
    shade(base, shift)
}

/// The counter colours of the sides, in `game.ron`'s order: field grey, red-brown, khaki,
/// blue-grey.
const SIDE_COUNTERS: [Color32; 4] = [
    Color32::from_rgb(122, 130, 112),
    Color32::from_rgb(168, 74, 52),
    Color32::from_rgb(176, 150, 96),
    Color32::from_rgb(96, 120, 150),
];

/// A colour made lighter (`by` > 0) or darker (`by` < 0).
fn shade(c: Color32, by: f32) -> Color32 {
    let f = |x: u8| {
        let x = f32::from(x);
        let y = if by >= 0.0 {
            x + (255.0 - x) * by
        } else {
            x * (1.0 + by)
        };
        y.round().clamp(0.0, 255.0) as u8
    };
    Color32::from_rgb(f(c.r()), f(c.g()), f(c.b()))
}

/// Black or white, whichever reads on a colour.
fn ink_on(c: Color32) -> Color32 {
    let light = 0.299 * f32::from(c.r()) + 0.587 * f32::from(c.g()) + 0.114 * f32::from(c.b());
    if light > 140.0 {
        Color32::from_gray(20)
    } else {
        Color32::from_gray(240)
    }
}

/// The NATO symbol a unit type reads as, from the words of its id and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Symbol {
    Infantry,
    Armour,
    Mechanised,
    Cavalry,
    Artillery,
    Airborne,
    Air,
    Supply,
    Headquarters,
    Other,
}

/// The symbol of a unit type (`armored_infantry` is mechanised; `panzer` armour).
pub fn symbol_of(content: &Content, unit_type: &str) -> Symbol {
    let name = content
        .game
        .as_ref()
        .and_then(|g| g.unit_types.iter().find(|t| t.id == unit_type))
        .map_or(String::new(), |t| t.name.to_lowercase());
    let words = format!("{} {name}", unit_type.to_lowercase());
    let has = |keys: &[&str]| keys.iter().any(|k| words.contains(k));
    let armour = has(&["armo", "panzer", "tank"]);
    if armour && has(&["infantry", "grenadier"]) || has(&["mechani", "motor"]) {
        Symbol::Mechanised
    } else if armour {
        Symbol::Armour
    } else if has(&["para", "airborne", "fallschirm"]) {
        Symbol::Airborne
    } else if has(&["air", "luftwaffe", "aviation"]) {
        Symbol::Air
    } else if has(&["supply", "logistic"]) {
        Symbol::Supply
    } else if has(&["cavalry", "cav"]) {
        Symbol::Cavalry
    } else if has(&["artillery", "art"]) {
        Symbol::Artillery
    } else if has(&["hq", "headquarter", "leader", "command"]) {
        Symbol::Headquarters
    } else if has(&[
        "infantry", "rifle", "shock", "partisan", "guards", "army", "corps",
    ]) {
        Symbol::Infantry
    } else {
        Symbol::Other
    }
}

/// The size marks over the symbol (`XX` a division, `XXX` a corps, `XXXX` an army).
pub fn size_marks(content: &Content, size: &str) -> &'static str {
    let name = content
        .game
        .as_ref()
        .and_then(|g| g.sizes.iter().find(|s| s.id == size))
        .map_or(String::new(), |s| s.name.to_lowercase());
    let words = format!("{} {name}", size.to_lowercase());
    let has = |k: &str| words.contains(k);
    if has("front") || has("army group") {
        "XXXXX"
    } else if has("army") || has("lcu") {
        "XXXX"
    } else if has("corps") || has("scu") {
        "XXX"
    } else if has("division") {
        "XX"
    } else if has("brigade") {
        "X"
    } else if has("regiment") {
        "III"
    } else {
        ""
    }
}

/// The unit-type symbol in its box.
pub fn draw_symbol(painter: &Painter, r: Rect, symbol: Symbol, ink: Color32) {
    let stroke = Stroke::new((r.height() / 9.0).clamp(0.8, 2.0), ink);
    painter.rect_stroke(r, 0.0, stroke, egui::StrokeKind::Inside);
    let cross = |p: &Painter| {
        p.line_segment([r.left_top(), r.right_bottom()], stroke);
        p.line_segment([r.left_bottom(), r.right_top()], stroke);
    };
    let oval = |p: &Painter| {
        let inner = r.shrink2(Vec2::new(r.width() * 0.2, r.height() * 0.25));
        p.rect_stroke(
            inner,
            inner.height() / 2.0,
            stroke,
            egui::StrokeKind::Inside,
        );
    };
    match symbol {
        Symbol::Infantry => cross(painter),
        Symbol::Armour => oval(painter),
        Symbol::Mechanised => {
            cross(painter);
            oval(painter);
        }
        Symbol::Cavalry => {
            painter.line_segment([r.left_bottom(), r.right_top()], stroke);
        }
        Symbol::Artillery => {
            painter.circle_filled(r.center(), r.height() / 6.0, ink);
        }
        Symbol::Airborne => {
            cross(painter);
            let c = r.center_bottom() - Vec2::new(0.0, r.height() * 0.2);
            painter.circle_stroke(c, r.height() / 6.0, stroke);
        }
        Symbol::Air => {
            let (c, w) = (r.center(), r.width() * 0.3);
            painter.line_segment([c - Vec2::new(w, 0.0), c + Vec2::new(w, 0.0)], stroke);
            painter.circle_stroke(c - Vec2::new(w * 0.5, 0.0), r.height() * 0.18, stroke);
            painter.circle_stroke(c + Vec2::new(w * 0.5, 0.0), r.height() * 0.18, stroke);
        }
        Symbol::Supply => {
            let y = r.bottom() - r.height() * 0.3;
            painter.line_segment([Pos2::new(r.left(), y), Pos2::new(r.right(), y)], stroke);
        }
        Symbol::Headquarters => {
            let x = r.left() + r.width() * 0.15;
            painter.line_segment([Pos2::new(x, r.bottom()), Pos2::new(x, r.top())], stroke);
        }
        Symbol::Other => {}
    }
}

/// Draws a counter in `r` (a square): colour, symbol, size, factors; a reduced unit's back
/// factors with a band across. Small counters show colour and symbol only.
pub fn draw(
    painter: &Painter,
    content: &Content,
    r: Rect,
    face: &Face,
    highlight: Option<Color32>,
) {
    let c = face.counter;
    let fill = nation_color(content, &c.nation);
    let ink = ink_on(fill);
    let round = r.width() * 0.08;
    painter.rect_filled(
        r.translate(Vec2::splat(r.width() * 0.05)),
        round,
        Color32::from_black_alpha(120),
    );
    painter.rect_filled(r, round, fill);
    let border = highlight.map_or(Stroke::new(1.0, shade(fill, -0.5)), |h| Stroke::new(2.5, h));
    painter.rect_stroke(r, round, border, egui::StrokeKind::Outside);
    let w = r.width();
    let symbol_box = Rect::from_center_size(
        Pos2::new(r.center().x, r.top() + w * 0.42),
        Vec2::new(w * 0.56, w * 0.34),
    );
    draw_symbol(painter, symbol_box, symbol_of(content, &c.unit_type), ink);
    if w < 22.0 {
        return;
    }
    let marks = size_marks(content, &c.size);
    if !marks.is_empty() {
        painter.text(
            Pos2::new(r.center().x, symbol_box.top() - 1.0),
            egui::Align2::CENTER_BOTTOM,
            marks,
            FontId::proportional((w * 0.13).max(6.0)),
            ink,
        );
    }
    let factors = if face.reduced {
        c.back.as_ref().unwrap_or(&c.front)
    } else {
        &c.front
    };
    let text: Vec<String> = factors.iter().map(i32::to_string).collect();
    painter.text(
        Pos2::new(r.center().x, r.bottom() - w * 0.05),
        egui::Align2::CENTER_BOTTOM,
        text.join("-"),
        FontId::proportional((w * 0.24).clamp(7.0, 20.0)),
        ink,
    );
    if face.reduced {
        // The reduced side: a band across the top corner.
        let band = [
            r.left_top() + Vec2::new(w * 0.62, 0.0),
            r.right_top(),
            r.right_top() + Vec2::new(0.0, w * 0.38),
        ];
        painter.add(egui::Shape::convex_polygon(
            band.to_vec(),
            Color32::from_rgba_unmultiplied(255, 255, 255, 150),
            Stroke::NONE,
        ));
    }
}

/// A counter's image in a list or a form: `side` points square, both sides when it has a
/// back. The same image the playtest's board draws.
pub fn image(ui: &mut egui::Ui, content: &Content, counter: &Counter, side: f32) -> egui::Response {
    ui.horizontal(|ui| {
        let faces = if counter.back.is_some() { 2 } else { 1 };
        for reduced in [false, true].into_iter().take(faces) {
            let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), egui::Sense::hover());
            draw(
                ui.painter(),
                content,
                rect.shrink(side * 0.08),
                &Face { counter, reduced },
                None,
            );
        }
    })
    .response
}
