//! The editor's frame time with the Barbarossa to Berlin map open: the time to build one frame
//! of the UI (layout, egui_graphs drawing into shapes, hit testing), without the GPU; and the
//! playtest's board with every space, name and counter drawn, whole and zoomed in.
//!
//! Run: `cargo bench -p sandtable-editor --bench frame`.

use criterion::{criterion_group, criterion_main, Criterion};
use egui_kittest::Harness;
use sandtable_editor::{bundled_content, EditorApp, Section};

fn harness(section: Section) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::open(bundled_content());
    app.section = section;
    let mut h = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_ui_state(|ui, app: &mut EditorApp| app.show(ui), app);
    h.run_steps(3);
    h
}

fn bench_frame(c: &mut Criterion) {
    let mut map = harness(Section::Map);
    c.bench_function("frame_b2b_map", |b| b.iter(|| map.step()));
    let mut play = harness(Section::Playtest);
    play.state_mut().start_playtest();
    play.run_steps(2);
    c.bench_function("frame_b2b_playtest", |b| b.iter(|| play.step()));
    // The board zoomed in on the front: counters with their symbols and factors, names.
    play.state_mut().board.zoom = 3.0;
    play.state_mut().board.centre_on = Some("kiev".into());
    play.run_steps(2);
    c.bench_function("frame_b2b_playtest_zoomed", |b| b.iter(|| play.step()));
    let mut cards = harness(Section::Cards);
    cards.state_mut().cards.selected = Some(("cards/axis.ron".into(), 3));
    cards.run_steps(2);
    c.bench_function("frame_b2b_card_editor", |b| b.iter(|| cards.step()));
}

criterion_group!(benches, bench_frame);
criterion_main!(benches);
