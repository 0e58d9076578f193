//! The Poly1305 backends: which exist, which this CPU can run, and the dispatch.
//!
//! The seam is deliberately narrow — a backend absorbs *full* 16-byte blocks into a
//! [`MacState`]; buffering, the padded final block and the final reduction stay in
//! the portable code. A multi-block SIMD backend (AVX2 with 26-bit limbs, AVX-512
//! IFMA with 52-bit limbs) slots in here as one more variant: it converts `h` to its
//! radix on entry and back on exit, and keeps its table of powers of `r` beside the
//! state. Detection goes through the same `cpu_has!` as the ChaCha backends.

pub(crate) mod portable;

pub(crate) use portable::MacState;

use crate::error::Error;

/// A Poly1305 implementation for one instruction-set level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Poly1305Backend {
    /// Plain Rust, 64-bit limbs with 128-bit products, one block at a time; every
    /// target.
    Portable,
}

/// Every Poly1305 backend compiled for this target, slowest first.
const ALL: &[Poly1305Backend] = &[Poly1305Backend::Portable];

impl Poly1305Backend {
    /// Every backend compiled into this build, slowest first.
    pub fn all() -> &'static [Poly1305Backend] {
        ALL
    }

    /// The backends this CPU can run, slowest first.
    pub fn available() -> impl Iterator<Item = Poly1305Backend> {
        ALL.iter().copied().filter(|b| b.is_available())
    }

    /// The fastest backend this CPU can run.
    #[inline]
    pub fn detect() -> Poly1305Backend {
        Poly1305Backend::Portable
    }

    /// Whether this CPU has what the backend needs.
    pub fn is_available(self) -> bool {
        match self {
            Poly1305Backend::Portable => true,
        }
    }

    /// The short lowercase name used by the CLI and benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Poly1305Backend::Portable => "portable",
        }
    }

    /// The backend called `name`, if compiled in.
    pub fn from_name(name: &str) -> Option<Poly1305Backend> {
        ALL.iter().copied().find(|b| b.name() == name)
    }

    /// `Ok(self)` if the CPU can run it, else [`Error::BackendUnavailable`].
    pub(crate) fn checked(self) -> Result<Self, Error> {
        if self.is_available() {
            Ok(self)
        } else {
            Err(Error::BackendUnavailable {
                backend: self.name(),
            })
        }
    }

    /// Absorbs the full 16-byte blocks of `data` (a multiple of 16 bytes long).
    #[inline]
    pub(crate) fn blocks(self, state: &mut MacState, data: &[u8]) {
        match self {
            Poly1305Backend::Portable => state.blocks(data, 1),
        }
    }
}
