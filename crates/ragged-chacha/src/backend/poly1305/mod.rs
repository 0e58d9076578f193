//! The Poly1305 backends: which exist, which this CPU can run, and the dispatch.
//!
//! The seam is deliberately narrow — a backend absorbs *full* 16-byte blocks into a
//! [`MacState`]; buffering, the padded final block and the final reduction stay in
//! the portable code. A multi-block SIMD backend is one more variant: it converts `h`
//! to its radix on entry and back (fully carried, in the portable form) on exit, and
//! builds its table of powers of `r` per run. [`avx2`] has 26-bit limbs, four blocks
//! at a time; [`ifma`] (AVX-512 IFMA) 44-bit limbs multiplied 52 bits at a time, eight
//! blocks at a time. Detection goes through the same `cpu_has!` as the ChaCha
//! backends, here in [`Poly1305Backend::is_available`] and nowhere else.

#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx2_lanes;
#[cfg(target_arch = "x86_64")]
pub(crate) mod ifma;
#[cfg(target_arch = "x86_64")]
mod ifma_lanes;
#[cfg(all(test, target_arch = "x86_64"))]
mod kernel_checks;
mod lanes;
pub(crate) mod portable;

pub(crate) use lanes::MacJob;
pub(crate) use portable::MacState;

use super::detected::Detected;
use crate::error::Error;

/// A Poly1305 implementation for one instruction-set level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Poly1305Backend {
    /// Plain Rust, 64-bit limbs with 128-bit products, one block at a time; every
    /// target.
    Portable,
    /// x86-64 AVX2: four blocks at a time with 26-bit limbs, for runs of at least
    /// 20 blocks (shorter runs, and the blocks past the last multiple of 4, take the
    /// portable path).
    Avx2,
    /// x86-64 AVX-512 IFMA (with AVX-512F, BW and VL): eight blocks at a time with
    /// 44-bit limbs and `vpmadd52luq`/`vpmadd52huq`, for runs of at least 20 blocks
    /// (AVX2's threshold), all of whose blocks it takes; shorter runs take the portable
    /// path.
    Avx512Ifma,
}

/// Every Poly1305 backend compiled for this target, slowest first.
const ALL: &[Poly1305Backend] = &[
    Poly1305Backend::Portable,
    #[cfg(target_arch = "x86_64")]
    Poly1305Backend::Avx2,
    #[cfg(target_arch = "x86_64")]
    Poly1305Backend::Avx512Ifma,
];

/// `detect()`'s answer.
static DETECTED: Detected = Detected::new();

impl Poly1305Backend {
    /// Every backend compiled into this build, slowest first.
    pub fn all() -> &'static [Poly1305Backend] {
        ALL
    }

    /// The backends this CPU can run, slowest first.
    pub fn available() -> impl Iterator<Item = Poly1305Backend> {
        ALL.iter().copied().filter(|b| b.is_available())
    }

    /// The fastest backend this CPU can run; detected once per process.
    #[inline]
    pub fn detect() -> Poly1305Backend {
        DETECTED.get(ALL, || {
            Poly1305Backend::available()
                .last()
                .unwrap_or(Poly1305Backend::Portable)
        })
    }

    /// Whether this CPU has what the backend needs.
    // Without `std` the checks are compile-time constants that clippy sees as trivial.
    #[cfg_attr(not(feature = "std"), allow(clippy::eq_op, clippy::nonminimal_bool))]
    pub fn is_available(self) -> bool {
        match self {
            Poly1305Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Poly1305Backend::Avx2 => cpu_has!("avx2"),
            // AVX2 too: its shorter runs take the AVX2 path; BW and VL: the burst MAC's
            // masked loads (every IFMA CPU has all three).
            #[cfg(target_arch = "x86_64")]
            Poly1305Backend::Avx512Ifma => {
                cpu_has!("avx512f")
                    && cpu_has!("avx512ifma")
                    && cpu_has!("avx512bw")
                    && cpu_has!("avx512vl")
                    && cpu_has!("avx2")
            }
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The short lowercase name used by the CLI and benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Poly1305Backend::Portable => "portable",
            Poly1305Backend::Avx2 => "avx2",
            Poly1305Backend::Avx512Ifma => "avx512ifma",
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
    ///
    /// The one place that decides which code absorbs a run: short runs are the portable
    /// code's on every backend (inline, so a packet's few blocks pay no call into a SIMD
    /// backend); longer ones go to the backend, which `self` being constructed only
    /// through the availability checks guarantees this CPU can run.
    #[inline(always)]
    pub(crate) fn blocks(self, state: &mut MacState, data: &[u8]) {
        #[cfg(target_arch = "x86_64")]
        if data.len() >= 16 * avx2::MIN_BLOCKS {
            match self {
                // SAFETY: a backend value in a MAC passed `is_available` (via `checked`
                // or detection), so the CPU has its features; the run is long enough.
                Poly1305Backend::Avx2 => return unsafe { avx2::blocks(state, data) },
                // SAFETY: as above.
                Poly1305Backend::Avx512Ifma => return unsafe { ifma::blocks(state, data) },
                Poly1305Backend::Portable => {}
            }
        }
        state.blocks(data, 1);
    }

    /// The AEAD tags of a burst's messages, `tags[i]` that of `jobs[i]`: one message a
    /// vector lane where that is faster than the portable code (IFMA: sets of eight of
    /// one shape in lockstep, and refilled lanes; AVX2: refilled lanes of four, for
    /// long messages; see [`lanes`]), else one after the other on the portable code.
    #[inline]
    pub(crate) fn aead_tags(self, jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
        match self {
            // SAFETY: a backend value in a MAC passed `is_available` (via `checked` or
            // detection), so the CPU has its features.
            #[cfg(target_arch = "x86_64")]
            Poly1305Backend::Avx512Ifma => unsafe { ifma_lanes::tags(jobs, tags) },
            #[cfg(target_arch = "x86_64")]
            Poly1305Backend::Avx2 if lanes::refilled_lanes_pay(jobs, avx2_lanes::LONG) => {
                // SAFETY: as above.
                unsafe { avx2_lanes::tags(jobs, tags) }
            }
            _ => lanes::tags_portable(jobs, tags),
        }
    }
}
