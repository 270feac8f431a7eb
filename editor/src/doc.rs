//! The open game folder as the editor holds it: the text of every content file, what is on
//! disk, the edits made since, and their undo and redo.
//!
//! Every edit the editor's panels make goes through [`Document::edit`]: the file's text is read
//! into its type, changed, and written back in the canonical layout of `sandtable fmt`, so a
//! save is always canonical and an undo is a swap of two texts. The checked content the panels
//! show is loaded from these texts (not from disk), so diagnostics follow unsaved edits.
//!
//! Invariants: `saved` is the text the file had on disk when last read or written; a file is
//! unsaved when its text differs from it; a file changed on disk while it had unsaved edits is
//! a conflict, and stays one until the designer keeps one side ([`Document::resolve`]). Nothing
//! is written except by [`Document::save`], and then atomically.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use sandtable_engine::diag::FileId;
use sandtable_engine::format::{canonical, write_atomic};
use sandtable_engine::load::{parse_file, ContentSource, DirSource, MemSource};
use sandtable_engine::schema::FileKind;

/// One content file: its text now, and on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBuf {
    /// The text on disk, as last read or written by the editor.
    pub saved: String,
    /// The text with the edits made since.
    pub text: String,
}

impl FileBuf {
    pub fn is_dirty(&self) -> bool {
        self.saved != self.text
    }
}

/// One undoable edit: a file's text before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// What the designer did, as the Undo button says it (`move space Kiev`).
    pub label: String,
    pub file: String,
    pub before: String,
    pub after: String,
}

/// What a look at the disk found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiskChange {
    /// Files taken from disk (they had no unsaved edits).
    pub taken: Vec<String>,
    /// Files changed on disk that also have unsaved edits: now conflicts.
    pub conflicts: Vec<String>,
}

impl DiskChange {
    pub fn is_empty(&self) -> bool {
        self.taken.is_empty() && self.conflicts.is_empty()
    }
}

#[derive(Debug, Clone)]
pub struct Document {
    pub folder: PathBuf,
    /// Content files by path relative to the folder (`cards/axis.ron`).
    pub files: BTreeMap<String, FileBuf>,
    /// Files changed on disk while they had unsaved edits, with the text now on disk.
    pub conflicts: BTreeMap<String, Option<String>>,
    undo: Vec<Edit>,
    redo: Vec<Edit>,
    /// Counts every change of any text; views rebuild what they derive when it moves.
    pub generation: u64,
    /// Files read into their types, kept until the generation moves (see [`Document::parsed`]).
    parsed: ParseCache,
}

/// A file read into some type, with the generation it was read at.
type Parsed = (u64, std::rc::Rc<dyn std::any::Any>);

/// (file, type) → the file read into the type.
#[derive(Default)]
struct ParseCache(std::cell::RefCell<BTreeMap<(String, std::any::TypeId), Parsed>>);

impl Clone for ParseCache {
    fn clone(&self) -> ParseCache {
        ParseCache::default()
    }
}

impl std::fmt::Debug for ParseCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ParseCache")
    }
}

impl Document {
    /// Reads every content file of a folder (an unreadable folder gives an empty document; the
    /// checker then reports it).
    pub fn read(folder: impl Into<PathBuf>) -> Document {
        let folder = folder.into();
        let files = read_disk(&folder)
            .into_iter()
            .map(|(path, text)| {
                (
                    path,
                    FileBuf {
                        saved: text.clone(),
                        text,
                    },
                )
            })
            .collect();
        Document {
            folder,
            files,
            conflicts: BTreeMap::new(),
            undo: Vec::new(),
            redo: Vec::new(),
            generation: 0,
            parsed: ParseCache::default(),
        }
    }

    /// The texts as a source the loader reads, named as the folder on disk would be (so
    /// diagnostics read the same as `sandtable validate`'s).
    pub fn source(&self) -> MemSource {
        MemSource {
            name: DirSource::new(&self.folder).root(),
            files: self
                .files
                .iter()
                .map(|(k, f)| (k.clone(), f.text.clone()))
                .collect(),
        }
    }

    pub fn text(&self, file: &str) -> Option<&str> {
        self.files.get(file).map(|f| f.text.as_str())
    }

    /// The files with unsaved edits.
    pub fn dirty(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|(_, f)| f.is_dirty())
            .map(|(k, _)| k.clone())
            .collect()
    }

    pub fn is_dirty(&self) -> bool {
        self.files.values().any(FileBuf::is_dirty)
    }

    /// What Undo would take back.
    pub fn undo_label(&self) -> Option<&str> {
        self.undo.last().map(|e| e.label.as_str())
    }

    pub fn redo_label(&self) -> Option<&str> {
        self.redo.last().map(|e| e.label.as_str())
    }

    /// Replaces a file's text as one undoable edit. Consecutive edits with the same label on
    /// the same file (typing in one field) are one step of undo.
    pub fn set_text(&mut self, file: &str, label: &str, text: String) {
        let Some(buf) = self.files.get_mut(file) else {
            return;
        };
        if buf.text == text {
            return;
        }
        let before = std::mem::replace(&mut buf.text, text.clone());
        self.redo.clear();
        self.generation += 1;
        if let Some(last) = self.undo.last_mut() {
            if last.label == label && last.file == file {
                last.after = text;
                return;
            }
        }
        self.undo.push(Edit {
            label: label.to_string(),
            file: file.to_string(),
            before,
            after: text,
        });
    }

    /// Reads a file into its type once per generation: the panels call this every frame.
    pub fn parsed<T: DeserializeOwned + 'static>(
        &self,
        file: &str,
    ) -> Result<std::rc::Rc<T>, String> {
        let key = (file.to_string(), std::any::TypeId::of::<T>());
        if let Some((g, value)) = self.parsed.0.borrow().get(&key) {
            if *g == self.generation {
                if let Ok(v) = value.clone().downcast::<T>() {
                    return Ok(v);
                }
            }
        }
        let value = std::rc::Rc::new(self.parse::<T>(file)?);
        self.parsed
            .0
            .borrow_mut()
            .insert(key, (self.generation, value.clone()));
        Ok(value)
    }

    /// Reads a file into its type.
    pub fn parse<T: DeserializeOwned>(&self, file: &str) -> Result<T, String> {
        let kind = FileKind::of_path(file).ok_or_else(|| format!("`{file}` is not content"))?;
        let text = self.text(file).ok_or_else(|| format!("no file `{file}`"))?;
        let mut diags = Vec::new();
        parse_file::<T>(kind, FileId(0), text, &mut diags)
            .map(|p| p.data)
            .ok_or_else(|| {
                format!(
                    "`{file}` does not read as a {} file: {}",
                    kind.name(),
                    diags
                        .first()
                        .map_or("unknown problem".to_string(), |d| d.message.clone())
                )
            })
    }

    /// Changes a file through its type and writes it back in the canonical layout, as one
    /// undoable edit. `change` may refuse (an id that is taken); nothing changes then.
    pub fn edit<T: DeserializeOwned + Serialize>(
        &mut self,
        file: &str,
        label: &str,
        change: impl FnOnce(&mut T) -> Result<(), String>,
    ) -> Result<(), String> {
        let mut data: T = self.parse(file)?;
        change(&mut data)?;
        let text = canonical(&data)?;
        self.set_text(file, label, text);
        Ok(())
    }

    /// Takes back the last edit; returns what it was.
    pub fn undo(&mut self) -> Option<String> {
        let edit = self.undo.pop()?;
        if let Some(buf) = self.files.get_mut(&edit.file) {
            buf.text = edit.before.clone();
        }
        self.generation += 1;
        let label = edit.label.clone();
        self.redo.push(edit);
        Some(label)
    }

    pub fn redo(&mut self) -> Option<String> {
        let edit = self.redo.pop()?;
        if let Some(buf) = self.files.get_mut(&edit.file) {
            buf.text = edit.after.clone();
        }
        self.generation += 1;
        let label = edit.label.clone();
        self.undo.push(edit);
        Some(label)
    }

    /// Writes every unsaved file atomically (a conflict is written only once resolved).
    /// Returns the files written.
    pub fn save(&mut self) -> Result<Vec<String>, String> {
        let mut written = Vec::new();
        for (name, buf) in &mut self.files {
            if !buf.is_dirty() || self.conflicts.contains_key(name) {
                continue;
            }
            let path = self.folder.join(name);
            write_atomic(&path, &buf.text)
                .map_err(|e| format!("cannot save {}: {e}", path.display()))?;
            buf.saved = buf.text.clone();
            written.push(name.clone());
        }
        Ok(written)
    }

    /// Looks at the disk: a file changed there is taken when it has no unsaved edits, and is
    /// a conflict when it has; new files are added; files gone from disk are dropped when
    /// they have no unsaved edits.
    pub fn sync_from_disk(&mut self) -> DiskChange {
        let disk = read_disk(&self.folder);
        let mut change = DiskChange::default();
        let names: BTreeSet<String> = self.files.keys().chain(disk.keys()).cloned().collect();
        for name in names {
            let on_disk = disk.get(&name);
            let Some(buf) = self.files.get_mut(&name) else {
                let text = on_disk.cloned().unwrap_or_default();
                self.files.insert(
                    name.clone(),
                    FileBuf {
                        saved: text.clone(),
                        text,
                    },
                );
                change.taken.push(name);
                continue;
            };
            if on_disk == Some(&buf.saved) {
                continue;
            }
            if !buf.is_dirty() {
                match on_disk {
                    Some(text) => {
                        buf.saved = text.clone();
                        buf.text = text.clone();
                    }
                    None => {
                        self.files.remove(&name);
                    }
                }
                change.taken.push(name);
            } else if self.conflicts.get(&name) != Some(&on_disk.cloned()) {
                self.conflicts.insert(name.clone(), on_disk.cloned());
                change.conflicts.push(name);
            }
        }
        if !change.taken.is_empty() {
            self.generation += 1;
        }
        change
    }

    /// Ends a conflict: keep the editor's text (the next save overwrites the disk) or take the
    /// disk's (the unsaved edits of that file are dropped, with their undo).
    pub fn resolve(&mut self, file: &str, keep_mine: bool) {
        let Some(on_disk) = self.conflicts.remove(file) else {
            return;
        };
        if keep_mine {
            if let Some(buf) = self.files.get_mut(file) {
                buf.saved = on_disk.unwrap_or_default();
            }
            return;
        }
        match on_disk {
            Some(text) => {
                if let Some(buf) = self.files.get_mut(file) {
                    buf.saved = text.clone();
                    buf.text = text;
                }
            }
            None => {
                self.files.remove(file);
            }
        }
        self.undo.retain(|e| e.file != file);
        self.redo.retain(|e| e.file != file);
        self.generation += 1;
    }
}

/// The `.ron` files of a folder on disk, by relative path.
fn read_disk(folder: &Path) -> BTreeMap<String, String> {
    let source = DirSource::new(folder);
    let Ok(list) = source.list() else {
        return BTreeMap::new();
    };
    list.into_iter()
        .filter(|p| p.ends_with(".ron"))
        .filter_map(|p| source.read(&p).ok().map(|t| (p, t)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_engine::model::TablesFile;

    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("sandtable-doc-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("tables.ron"),
            "(tables: [(id: \"t\", name: \"T\", rows_by: Name, columns: Single, result: Int, rows: [(key: \"a\", cells: [1])])])\n",
        )
        .unwrap();
        dir
    }

    fn set_cell(doc: &mut Document, value: i64) {
        doc.edit::<TablesFile>("tables.ron", "edit cell", |t| {
            t.tables[0].rows[0].cells[0] =
                serde_json::from_value(serde_json::json!(value)).map_err(|e| e.to_string())?;
            Ok(())
        })
        .unwrap();
    }

    #[test]
    fn an_edit_is_written_canonically_and_undone_and_redone() {
        let dir = folder("undo");
        let mut doc = Document::read(&dir);
        set_cell(&mut doc, 5);
        assert!(doc.is_dirty());
        assert!(doc.text("tables.ron").unwrap().contains("cells: [5]"));
        assert_eq!(doc.undo().as_deref(), Some("edit cell"));
        assert!(!doc.is_dirty());
        doc.redo();
        assert!(doc.text("tables.ron").unwrap().contains("cells: [5]"));
        // Typing in one field is one step of undo.
        set_cell(&mut doc, 6);
        doc.undo();
        assert!(!doc.is_dirty());
    }

    #[test]
    fn save_writes_unsaved_files_atomically_and_marks_them_saved() {
        let dir = folder("save");
        let mut doc = Document::read(&dir);
        set_cell(&mut doc, 7);
        assert_eq!(doc.save().unwrap(), ["tables.ron"]);
        assert!(!doc.is_dirty());
        let disk = std::fs::read_to_string(dir.join("tables.ron")).unwrap();
        assert_eq!(disk, doc.text("tables.ron").unwrap());
        assert!(!dir.join(".tables.ron.sandtable-tmp").exists());
    }

    #[test]
    fn save_keeps_the_file_mode_and_writes_through_a_symlink_to_its_target() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        // A plain file keeps its mode.
        let dir = folder("mode");
        let file = dir.join("tables.ron");
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut doc = Document::read(&dir);
        set_cell(&mut doc, 7);
        assert_eq!(doc.save().unwrap(), ["tables.ron"]);
        assert_eq!(mode(&file), 0o755);
        // A link stays a link; its target gets the text and keeps its mode.
        let dir = folder("link");
        let target = dir.join("shared-tables.txt");
        std::fs::rename(dir.join("tables.ron"), &target).unwrap();
        std::os::unix::fs::symlink(&target, dir.join("tables.ron")).unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).unwrap();
        let mut doc = Document::read(&dir);
        set_cell(&mut doc, 8);
        assert_eq!(doc.save().unwrap(), ["tables.ron"]);
        let link = std::fs::symlink_metadata(dir.join("tables.ron")).unwrap();
        assert!(link.file_type().is_symlink());
        assert!(std::fs::read_to_string(&target)
            .unwrap()
            .contains("cells: [8]"));
        assert_eq!(mode(&target), 0o600);
    }

    #[test]
    fn a_file_changed_on_disk_is_taken_when_clean_and_a_conflict_when_edited() {
        let dir = folder("conflict");
        let mut doc = Document::read(&dir);
        let other = "(tables: [])\n";
        std::fs::write(dir.join("tables.ron"), other).unwrap();
        assert_eq!(doc.sync_from_disk().taken, ["tables.ron"]);
        assert_eq!(doc.text("tables.ron"), Some(other));

        std::fs::write(dir.join("tables.ron"), folder_text()).unwrap();
        doc.sync_from_disk();
        set_cell(&mut doc, 9);
        std::fs::write(dir.join("tables.ron"), other).unwrap();
        assert_eq!(doc.sync_from_disk().conflicts, ["tables.ron"]);
        // Saving leaves a conflict alone; the edits are still there.
        assert!(doc.save().unwrap().is_empty());
        assert!(doc.text("tables.ron").unwrap().contains("cells: [9]"));
        doc.resolve("tables.ron", true);
        assert_eq!(doc.save().unwrap(), ["tables.ron"]);
        assert!(std::fs::read_to_string(dir.join("tables.ron"))
            .unwrap()
            .contains("cells: [9]"));

        set_cell(&mut doc, 10);
        std::fs::write(dir.join("tables.ron"), other).unwrap();
        doc.sync_from_disk();
        doc.resolve("tables.ron", false);
        assert_eq!(doc.text("tables.ron"), Some(other));
        assert!(!doc.is_dirty());
        assert_eq!(doc.undo_label(), None);
    }

    fn folder_text() -> &'static str {
        "(tables: [(id: \"t\", name: \"T\", rows_by: Name, columns: Single, result: Int, rows: [(key: \"a\", cells: [1])])])\n"
    }
}
