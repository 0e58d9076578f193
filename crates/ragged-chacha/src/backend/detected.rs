//! The one cache behind `Backend::detect` and `Poly1305Backend::detect`: the CPU is
//! asked once per process, and every later call is one relaxed load.

use core::sync::atomic::{AtomicU8, Ordering};

/// A detected backend as its index in the backend table plus one; 0 until first
/// computed. Racing first calls compute the same answer, so a plain store suffices.
pub(crate) struct Detected(AtomicU8);

impl Detected {
    /// Nothing detected yet.
    pub(crate) const fn new() -> Self {
        Detected(AtomicU8::new(0))
    }

    /// The backend detected before, or `pick()`'s answer, remembered for next time.
    /// `all` is the backend table (at most 255 entries) and contains what `pick` returns.
    #[inline]
    pub(crate) fn get<B: Copy + PartialEq>(&self, all: &[B], pick: impl FnOnce() -> B) -> B {
        match self.0.load(Ordering::Relaxed) {
            0 => {
                let best = pick();
                let index = all.iter().position(|b| *b == best).unwrap_or(0);
                self.0.store(index as u8 + 1, Ordering::Relaxed);
                best
            }
            n => all[usize::from(n) - 1],
        }
    }
}
