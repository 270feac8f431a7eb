//! What the editor's GUI tests share.

/// Copies a folder and everything in it.
pub fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// A copy of the bundled game in a fresh temporary folder (removed when dropped).
pub fn copy_of_bundled() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(&sandtable_editor::bundled_content(), dir.path());
    dir
}
