//! Where `--json` and `--plot` go: a file, or stdout for `-`. Both are opened before
//! the benchmark starts, so an unwritable path is reported at once instead of after a
//! minute of measuring.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::out;

/// An opened destination for one report.
pub enum Sink {
    Stdout,
    File(File, PathBuf),
}

impl Sink {
    /// Opens `path` for writing (creating or truncating it); `-` means stdout.
    pub fn open(path: &Path, what: &str) -> Result<Sink, String> {
        if path == Path::new("-") {
            return Ok(Sink::Stdout);
        }
        File::create(path)
            .map(|f| Sink::File(f, path.to_owned()))
            .map_err(|e| format!("cannot write the {what} to {}: {e}", path.display()))
    }

    pub fn is_stdout(&self) -> bool {
        matches!(self, Sink::Stdout)
    }

    /// Writes all of `bytes`; `what` names the report in a file's error (stdout's is
    /// the CLI's usual "writing stdout: …").
    pub fn write(&mut self, bytes: &[u8], what: &str) -> Result<(), String> {
        match self {
            Sink::Stdout => {
                let mut stdout = out::stdout();
                stdout.write_all(bytes)?;
                stdout.flush()
            }
            Sink::File(f, path) => f
                .write_all(bytes)
                .map_err(|e| format!("cannot write the {what} to {}: {e}", path.display())),
        }
    }

    /// Where it went, for the closing message.
    pub fn describe(&self) -> String {
        match self {
            Sink::Stdout => "stdout".into(),
            Sink::File(_, path) => path.display().to_string(),
        }
    }
}
