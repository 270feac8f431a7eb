//! Follows the game folder on disk: a content file changed by the editor's save or by any other
//! program reloads the editor (and replays a running playtest).
//!
//! Only changes count: opening or reading a file is not one. (The reload reads every file of
//! the folder; were reads events, each reload would cause the next.) The events of one save
//! (a temporary file written, then renamed) are batched into one change, reported once no
//! event has come for [`Watch::DEBOUNCE`].

use std::cell::Cell;
use std::path::Path;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use notify::{Event, EventKind, RecursiveMode, Watcher as _};

pub struct Watch {
    _watcher: notify::RecommendedWatcher,
    events: Receiver<notify::Result<Event>>,
    /// When the last change of a content file came, while it is not reported yet.
    pending: Cell<Option<Instant>>,
}

impl Watch {
    pub const DEBOUNCE: Duration = Duration::from_millis(50);

    /// Starts watching a folder and everything below it.
    pub fn folder(folder: &Path) -> Result<Watch, String> {
        let (tx, events) = std::sync::mpsc::channel();
        let mut watcher = notify::recommended_watcher(move |e| {
            // A closed channel means the editor is closing; nothing to tell.
            let _ = tx.send(e);
        })
        .map_err(|e| e.to_string())?;
        watcher
            .watch(folder, RecursiveMode::Recursive)
            .map_err(|e| e.to_string())?;
        Ok(Watch {
            _watcher: watcher,
            events,
            pending: Cell::new(None),
        })
    }

    /// Whether a content file changed since the last call that said so, and the changes have
    /// settled.
    pub fn changed(&self) -> bool {
        while let Ok(event) = self.events.try_recv() {
            if event.is_ok_and(|e| is_change(&e)) {
                self.pending.set(Some(Instant::now()));
            }
        }
        match self.pending.get() {
            Some(at) if at.elapsed() >= Self::DEBOUNCE => {
                self.pending.set(None);
                true
            }
            _ => false,
        }
    }
}

/// A change of a `.ron` file's content or existence (not a read, not an open).
fn is_change(e: &Event) -> bool {
    !matches!(e.kind, EventKind::Access(_))
        && e.paths
            .iter()
            .any(|p| p.extension().is_some_and(|x| x == "ron"))
}
