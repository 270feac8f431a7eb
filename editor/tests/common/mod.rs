//! What the editor's GUI tests share.

/// Copies a folder and everything in it.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    sandtable_engine::format::copy_folder(from, to).unwrap();
}

/// A copy of the bundled game in a fresh temporary folder (removed when dropped).
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn copy_of_bundled() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&sandtable_editor::bundled_content(), dir.path());
    dir
}

/// Presses and releases the mouse at one point of the window.
#[allow(dead_code)] // not every test binary that shares this module uses it
pub fn click_at(
    h: &mut egui_kittest::Harness<'static, sandtable_editor::EditorApp>,
    at: egui::Pos2,
) {
    h.hover_at(at);
    h.run_steps(1);
    h.drag_at(at);
    h.run_steps(1);
    h.drop_at(at);
    h.run_steps(2);
}
