//! The progress bar on stderr while the benchmark runs.
//!
//! Its position and length are milliseconds (elapsed, and elapsed plus predicted; see
//! `timing.rs`), so the ETA it shows is the length less the position, not indicatif's
//! estimate from the rate of the first ticks. A run that completes leaves the bar at
//! 100% above the results; a run that fails clears it.
//!
//! Drawn only when stderr is a terminal (and `TERM` is not `dumb`), as indicatif's own
//! stderr target does: nothing of it reaches a pipe or a file. That target drops the errors of its draws; this one keeps the
//! first and hands it to `main` once the run is over, so a terminal that fails mid-run
//! is reported like any other failed write. It is reported after the report is
//! written, not instead of it: the tables may still reach a redirected stdout. After a
//! failed draw nothing more is drawn.

use std::fmt;
use std::io;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use console::Term;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle, TermLike};

/// indicatif's own rate for a terminal.
const REFRESH_HZ: u8 = 20;

/// The first failed draw's message, shared by the bar's target and [`Progress`].
type Failure = Arc<Mutex<Option<String>>>;

/// A progress bar whose failed draws are kept.
pub struct Progress {
    bar: ProgressBar,
    failure: Failure,
}

impl Progress {
    /// A bar on stderr, hidden unless stderr is a terminal.
    pub fn on_stderr() -> Progress {
        let term = Term::buffered_stderr();
        let failure = Failure::default();
        let target = if term.is_term() && !console::is_dumb() {
            let recording = Recording {
                term,
                failure: Arc::clone(&failure),
            };
            ProgressDrawTarget::term_like_with_hz(Box::new(recording), REFRESH_HZ)
        } else {
            ProgressDrawTarget::hidden()
        };
        Progress::to(target, failure)
    }

    fn to(target: ProgressDrawTarget, failure: Failure) -> Progress {
        let style = ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {percent:>3}% eta {left} {msg}",
        )
        .expect("a valid template")
        .with_key("left", |state: &ProgressState, w: &mut dyn fmt::Write| {
            let _ = match state.len() {
                Some(len) => w.write_str(&duration(Duration::from_millis(
                    len.saturating_sub(state.pos()),
                ))),
                None => w.write_str("?"),
            };
        })
        .progress_chars("=> ");
        Progress {
            // No length until the run can predict one.
            bar: ProgressBar::with_draw_target(None, target).with_style(style),
            failure,
        }
    }

    /// The bar, for the timing loop to advance.
    pub fn bar(&self) -> &ProgressBar {
        &self.bar
    }

    /// Ends the bar: at 100% and left in view when the run `completed` (the results
    /// follow it), cleared when it did not; then the first draw that failed, if any, as
    /// the CLI's error.
    pub fn finish(self, completed: bool) -> Result<(), String> {
        if completed {
            let length = self.bar.length().unwrap_or(0).max(self.bar.position());
            self.bar.set_length(length.max(1));
            self.bar.set_position(length.max(1));
            self.bar.finish();
        } else {
            self.bar.finish_and_clear();
        }
        match take(&self.failure) {
            Some(message) => Err(message),
            None => Ok(()),
        }
    }
}

/// A remaining time as `7s`, `1m 05s`, `2h 03m`.
fn duration(d: Duration) -> String {
    let s = d.as_secs() + u64::from(d.subsec_millis() >= 500);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s / 60 % 60),
    }
}

/// The recorded failure, if any, taken out.
fn take(failure: &Failure) -> Option<String> {
    // A poisoned lock only means a draw panicked on another thread; the message is
    // still what it was.
    failure
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
}

/// A terminal that records its first failed write and then stops writing.
#[derive(Debug)]
struct Recording<T> {
    term: T,
    failure: Failure,
}

impl<T> Recording<T> {
    /// Runs `draw` unless a draw has failed before; records its failure.
    fn draw(&self, draw: impl FnOnce(&T) -> io::Result<()>) -> io::Result<()> {
        let mut failure = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
        if failure.is_some() {
            return Ok(());
        }
        let result = draw(&self.term);
        if let Err(e) = &result {
            *failure = Some(format!("writing stderr: {e}"));
        }
        result
    }
}

impl<T: TermLike> TermLike for Recording<T> {
    fn width(&self) -> u16 {
        self.term.width()
    }

    fn height(&self) -> u16 {
        self.term.height()
    }

    fn move_cursor_up(&self, n: usize) -> io::Result<()> {
        self.draw(|t| t.move_cursor_up(n))
    }

    fn move_cursor_down(&self, n: usize) -> io::Result<()> {
        self.draw(|t| t.move_cursor_down(n))
    }

    fn move_cursor_right(&self, n: usize) -> io::Result<()> {
        self.draw(|t| t.move_cursor_right(n))
    }

    fn move_cursor_left(&self, n: usize) -> io::Result<()> {
        self.draw(|t| t.move_cursor_left(n))
    }

    fn write_line(&self, s: &str) -> io::Result<()> {
        self.draw(|t| t.write_line(s))
    }

    fn write_str(&self, s: &str) -> io::Result<()> {
        self.draw(|t| t.write_str(s))
    }

    fn clear_line(&self) -> io::Result<()> {
        self.draw(|t| t.clear_line())
    }

    fn flush(&self) -> io::Result<()> {
        self.draw(|t| t.flush())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A terminal whose every write fails, counting the attempts.
    #[derive(Debug, Default)]
    struct Gone {
        attempts: AtomicUsize,
    }

    impl Gone {
        fn fail(&self) -> io::Result<()> {
            self.attempts.fetch_add(1, Ordering::Relaxed);
            Err(io::Error::other("terminal gone"))
        }
    }

    impl TermLike for &'static Gone {
        fn width(&self) -> u16 {
            80
        }
        fn move_cursor_up(&self, _: usize) -> io::Result<()> {
            self.fail()
        }
        fn move_cursor_down(&self, _: usize) -> io::Result<()> {
            self.fail()
        }
        fn move_cursor_right(&self, _: usize) -> io::Result<()> {
            self.fail()
        }
        fn move_cursor_left(&self, _: usize) -> io::Result<()> {
            self.fail()
        }
        fn write_line(&self, _: &str) -> io::Result<()> {
            self.fail()
        }
        fn write_str(&self, _: &str) -> io::Result<()> {
            self.fail()
        }
        fn clear_line(&self) -> io::Result<()> {
            self.fail()
        }
        fn flush(&self) -> io::Result<()> {
            self.fail()
        }
    }

    #[test]
    fn a_failed_draw_is_kept_and_ends_the_drawing() {
        let gone: &'static Gone = Box::leak(Box::default());
        let failure = Failure::default();
        let recording = Recording {
            term: gone,
            failure: Arc::clone(&failure),
        };
        let progress = Progress::to(ProgressDrawTarget::term_like(Box::new(recording)), failure);
        progress.bar().set_length(10);
        for _ in 0..10 {
            progress.bar().inc(1);
        }
        assert_eq!(gone.attempts.load(Ordering::Relaxed), 1);
        assert_eq!(
            progress.finish(true),
            Err("writing stderr: terminal gone".to_string())
        );
    }

    #[test]
    fn a_hidden_bar_finishes_cleanly() {
        for completed in [true, false] {
            let progress = Progress::to(ProgressDrawTarget::hidden(), Failure::default());
            progress.bar().set_length(100);
            progress.bar().inc(57);
            let bar = progress.bar().clone();
            assert_eq!(progress.finish(completed), Ok(()));
            if completed {
                assert_eq!(bar.position(), 100);
                assert_eq!(bar.length(), Some(100));
            }
        }
    }

    #[test]
    fn remaining_times_read_as_a_person_would() {
        let s = Duration::from_secs;
        assert_eq!(duration(Duration::ZERO), "0s");
        assert_eq!(duration(Duration::from_millis(52_600)), "53s");
        assert_eq!(duration(s(65)), "1m 05s");
        assert_eq!(duration(s(7380)), "2h 03m");
    }
}
