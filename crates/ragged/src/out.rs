//! Every byte the CLI writes to stdout or stderr goes through here.
//!
//! `println!` and `eprintln!` panic when a write fails (`ragged info > /dev/full`, a
//! terminal that has gone away), and the CLI promises never to panic. Here a failed
//! write is an error like any other: it comes back to `main`, which prints one
//! `ragged: …` line on stderr and exits 1. A reader that goes away from a pipe is not
//! seen here: `main` restores the default SIGPIPE action, which ends the process
//! quietly first. Where EPIPE does arrive (SIGPIPE blocked by the parent) it is an
//! error too, as for `cat`: output was cut short, and exit 0 would hide it.

use std::fmt;
use std::io::{self, Write};

/// A standard stream, locked, whose writes return the CLI's error message.
pub struct Out<W> {
    inner: W,
    /// "stdout" or "stderr", for the message.
    name: &'static str,
}

/// Stdout, locked for as long as the `Out` lives (stdout's own line buffering stays:
/// call [`Out::flush`] before returning, or the last partial line's fate is unknown).
pub fn stdout() -> Out<io::StdoutLock<'static>> {
    Out {
        inner: io::stdout().lock(),
        name: "stdout",
    }
}

/// Stderr, locked for as long as the `Out` lives.
pub fn stderr() -> Out<io::StderrLock<'static>> {
    Out {
        inner: io::stderr().lock(),
        name: "stderr",
    }
}

impl<W: Write> Out<W> {
    /// The target of `write!` and `writeln!`: `writeln!(out, "…")?` in a function that
    /// returns `Result<_, String>`.
    pub fn write_fmt(&mut self, args: fmt::Arguments<'_>) -> Result<(), String> {
        let result = self.inner.write_fmt(args);
        self.check(result)
    }

    /// Writes all of `bytes`.
    pub fn write_all(&mut self, bytes: &[u8]) -> Result<(), String> {
        let result = self.inner.write_all(bytes);
        self.check(result)
    }

    /// Writes out what the stream still buffers: the error of a last write that only
    /// reached the buffer shows here.
    pub fn flush(&mut self) -> Result<(), String> {
        let result = self.inner.flush();
        self.check(result)
    }

    fn check(&self, result: io::Result<()>) -> Result<(), String> {
        result.map_err(|e| format!("writing {}: {e}", self.name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that takes `room` bytes, then fails as a full disk does.
    struct Full {
        room: usize,
        taken: Vec<u8>,
    }

    impl Write for Full {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.room == 0 {
                return Err(io::Error::from_raw_os_error(28));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_is_the_message_main_prints() {
        let mut out = Out {
            inner: Full {
                room: 4,
                taken: Vec::new(),
            },
            name: "stdout",
        };
        assert_eq!(writeln!(out, "ok"), Ok(()));
        let err = writeln!(out, "{} more", 1).unwrap_err();
        assert!(err.starts_with("writing stdout: "), "{err}");
        assert_eq!(out.inner.taken, b"ok\n1");
        assert!(out.write_all(b"x").is_err());
        assert_eq!(out.flush(), Ok(()));
    }
}
