//! The canonical layout of content files, shared by `sandtable fmt` and the editor's saves.
//!
//! Canonical text is a function of the typed model alone: a file is read into its type, written
//! by serde into RON, read back as a tree and laid out by [`ron_syntax::write_canonical`]. So
//! field order follows the types, defaults are omitted, and two designers' saves of the same
//! content are byte-identical. Comments do not survive (notes live in `notes` fields).

use std::path::Path;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::diag::{Diagnostic, FileId};
use crate::load::parse_file;
use crate::model::{CardsFile, CountersFile, GameFile, MapFile, ScenarioFile, TablesFile};
use crate::ron_syntax;
use crate::schema::FileKind;

/// The canonical text of a value of any content type.
pub fn canonical<T: Serialize>(value: &T) -> Result<String, String> {
    let compact = ron::to_string(value).map_err(|e| e.to_string())?;
    let node = ron_syntax::parse(&compact).map_err(|e| e.message)?;
    Ok(ron_syntax::write_canonical(&node))
}

fn reformat<T: DeserializeOwned + Serialize>(
    kind: FileKind,
    file: FileId,
    text: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<String> {
    let parsed = parse_file::<T>(kind, file, text, diags)?;
    match canonical(&parsed.data) {
        Ok(text) => Some(text),
        Err(e) => {
            diags.push(Diagnostic::error(
                "E0100",
                crate::diag::Span::new(file, 0, 0),
                format!("cannot write the file back: {e}"),
            ));
            None
        }
    }
}

/// The canonical text of one content file, or the problems that stop it being formatted
/// (a file must at least parse and match its schema).
pub fn format_text(kind: FileKind, file: FileId, text: &str) -> Result<String, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let out = match kind {
        FileKind::Game => reformat::<GameFile>(kind, file, text, &mut diags),
        FileKind::Map => reformat::<MapFile>(kind, file, text, &mut diags),
        FileKind::Counters => reformat::<CountersFile>(kind, file, text, &mut diags),
        FileKind::Tables => reformat::<TablesFile>(kind, file, text, &mut diags),
        FileKind::Cards => reformat::<CardsFile>(kind, file, text, &mut diags),
        FileKind::Scenario => reformat::<ScenarioFile>(kind, file, text, &mut diags),
        FileKind::Example => reformat::<crate::model::ExampleFile>(kind, file, text, &mut diags),
    };
    out.ok_or(diags)
}

/// Writes a file atomically: a temporary file beside it, then a rename, so a crash or a full
/// disk never leaves a half-written content file.
///
/// A symbolic link is written through: the temporary file goes beside the link's final target
/// and is renamed onto it, so the link stays a link. An existing file keeps its permissions (the
/// temporary file gets them before the rename).
pub fn write_atomic(path: &Path, text: &str) -> std::io::Result<()> {
    let target = match std::fs::canonicalize(path) {
        Ok(target) => target,
        // A new file, or a dangling link: write where the path says.
        Err(_) => path.to_path_buf(),
    };
    let existing = std::fs::metadata(&target).ok();
    if existing.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        return Err(std::io::Error::other(format!(
            "`{}` is a folder, not a file",
            path.display()
        )));
    }
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.sandtable-tmp"));
    // A temporary file left by a crash is stale: start afresh.
    let _ = std::fs::remove_file(&tmp);
    write_new(&tmp, text, existing.as_ref())
        .and_then(|()| std::fs::rename(&tmp, &target))
        .inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
}

/// Creates `tmp` with the permissions of the file it will replace (from its creation, so a
/// private file is never readable by others on the way), writes `text` and syncs it to disk
/// before it is renamed over the file.
fn write_new(tmp: &Path, text: &str, existing: Option<&std::fs::Metadata>) -> std::io::Result<()> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if let Some(meta) = existing {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        options.mode(meta.permissions().mode() & 0o7777);
    }
    let mut file = options.open(tmp)?;
    file.write_all(text.as_bytes())?;
    if let Some(meta) = existing {
        // The umask may have cleared bits the file had.
        file.set_permissions(meta.permissions())?;
    }
    file.sync_all()
}

/// Copies a folder tree (a game folder) into `to`, creating it.
pub fn copy_folder(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_folder(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}
