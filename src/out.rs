//! What every command shares: writing to stdout and stderr without panicking, the exit codes,
//! and reading the folders and files it is given.
//!
//! Exit codes, the same for every command: 0 success; 1 the content, or an actions file, has
//! problems (diagnostics, an illegal or unreadable action, a file not in the canonical layout,
//! a stale schema); 2 a usage or I/O problem (a bad argument, an unknown scenario, optional
//! rule, table or agent, a folder that is missing or is a file, a file that cannot be read or
//! written). A closed output pipe (`sandtable sim … | head`) ends the command quietly with 0.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use sandtable_engine::load::{read_text, ReadError, MAX_FILE_BYTES};

/// The content (or the actions) has problems.
pub const PROBLEMS: u8 = 1;
/// A usage or I/O problem.
pub const USAGE: u8 = 2;

/// Writes one line to stdout. When the reader has gone (a closed pipe), the command ends
/// quietly: nobody is left to read the rest.
pub fn line(args: std::fmt::Arguments) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.write_all(b"\n")) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        let _ = writeln!(std::io::stderr(), "error: cannot write the output: {e}");
        std::process::exit(i32::from(USAGE));
    }
}

/// Writes one line to stderr; a closed stderr is ignored (there is nowhere left to say so).
pub fn err_line(args: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{args}");
}

/// `println!` that never panics on a closed pipe.
macro_rules! outln {
    () => { $crate::out::line(format_args!("")) };
    ($($t:tt)*) => { $crate::out::line(format_args!($($t)*)) };
}

/// `eprintln!` that never panics on a closed pipe.
macro_rules! errln {
    () => { $crate::out::err_line(format_args!("")) };
    ($($t:tt)*) => { $crate::out::err_line(format_args!($($t)*)) };
}

pub(crate) use {errln, outln};

/// A usage or I/O error: the message on stderr, exit code 2.
pub fn usage(message: impl std::fmt::Display) -> ExitCode {
    errln!("error: {message}");
    ExitCode::from(USAGE)
}

/// A problem of the content or the actions: the message on stderr, exit code 1.
pub fn problem(message: impl std::fmt::Display) -> ExitCode {
    errln!("error: {message}");
    ExitCode::from(PROBLEMS)
}

/// Checks that a game folder exists and is a folder (exit code 2 otherwise).
pub fn game_folder(dir: &Path) -> Result<(), ExitCode> {
    match std::fs::metadata(dir) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => Err(usage(format_args!(
            "`{}` is a file, not a game folder",
            dir.display()
        ))),
        Err(e) => Err(usage(format_args!(
            "cannot open the game folder `{}`: {e}",
            dir.display()
        ))),
    }
}

/// Reads a file the command was given (actions, a schema), at most [`MAX_FILE_BYTES`]: a file
/// that cannot be read is exit code 2; one that is too long or not text is a problem of its
/// contents, exit code 1, reported at `path:line:col` when it has a place.
pub fn read_input(path: &Path) -> Result<String, ExitCode> {
    read_input_up_to(path, MAX_FILE_BYTES)
}

/// [`read_input`] with another limit (a shard of a large batch is larger than a content file).
pub fn read_input_up_to(path: &Path, limit: u64) -> Result<String, ExitCode> {
    match read_text(path, limit) {
        Ok(text) => Ok(text),
        Err(e @ ReadError::NotText { line, column, .. }) => {
            errln!("{}:{line}:{column}: error: {e}", path.display());
            Err(ExitCode::from(PROBLEMS))
        }
        Err(e @ ReadError::TooLarge(_)) => {
            errln!("{}: error: {e}; nothing more was read", path.display());
            Err(ExitCode::from(PROBLEMS))
        }
        Err(e) => Err(usage(format_args!("cannot read `{}`: {e}", path.display()))),
    }
}
