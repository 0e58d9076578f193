//! The one place that knows which backends exist, detects the CPU, and dispatches.

#[cfg(aarch64_neon)]
mod aarch64;
#[cfg(arm_neon)]
mod arm;
pub(crate) mod burst_split;
mod detected;
pub(crate) mod generic;
pub(crate) mod portable;
mod route;
mod schedule;
#[cfg(target_arch = "x86_64")]
mod x86_64;

/// Whether the running CPU has an x86 feature: at run time with `std`, otherwise only
/// what the build enables with `-C target-feature`.
#[cfg(target_arch = "x86_64")]
macro_rules! cpu_has {
    ($feature:tt) => {{
        #[cfg(feature = "std")]
        {
            std::is_x86_feature_detected!($feature)
        }
        #[cfg(not(feature = "std"))]
        {
            cfg!(target_feature = $feature)
        }
    }};
}

/// Whether the running CPU has an aarch64 feature: at run time with `std`, otherwise
/// only what the build enables with `-C target-feature`.
#[cfg(aarch64_neon)]
macro_rules! cpu_has {
    ($feature:tt) => {{
        #[cfg(feature = "std")]
        {
            std::arch::is_aarch64_feature_detected!($feature)
        }
        #[cfg(not(feature = "std"))]
        {
            cfg!(target_feature = $feature)
        }
    }};
}

pub(crate) mod poly1305;

mod two_pass;

/// Calls `$backend`'s entry point `$f` (`xor_keystream`, `seal` or `open`), which every
/// backend module exports with the same signature: `x86_64::{sse2, ssse3, avx2,
/// avx512}`, `aarch64::neon`, `arm::neon`, `portable`.
macro_rules! entry_point {
    ($backend:expr, $f:ident($($arg:expr),*)) => {
        entry_point!($backend, $f($($arg),*), avx512_plans_as: (avx512_wide, avx512_plain))
    };
    // `avx512_plans_as`: the modules whose entry points `Backend::Avx512Wide` and
    // `Backend::Avx512Plain` call.
    ($backend:expr, $f:ident($($arg:expr),*), avx512_plans_as: ($wide:ident, $plain:ident)) => {
        match $backend {
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => x86_64::sse2::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Ssse3 => x86_64::ssse3::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => x86_64::avx2::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 => x86_64::avx512::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Wide => x86_64::$wide::$f($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512Plain => x86_64::$plain::$f($($arg),*),
            #[cfg(aarch64_neon)]
            Backend::Neon => aarch64::neon::$f($($arg),*),
            #[cfg(arm_neon)]
            Backend::Neon => arm::neon::$f($($arg),*),
            _ => portable::$f($($arg),*),
        }
    };
}

use self::detected::Detected;
pub(crate) use self::route::{Core, MacRoute, Route};
use crate::state::State;

/// A ChaCha implementation for one instruction-set level.
///
/// [`Backend::detect`] picks the fastest one the CPU has; the others can be named for
/// tests and benchmarks through the cipher types' `with_backend` constructors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Backend {
    /// Plain Rust, one block at a time; every target.
    Portable,
    /// x86-64 SSE2, 4 blocks per batch.
    Sse2,
    /// x86-64 SSSE3, 4 blocks per batch with byte-shuffle rotations.
    Ssse3,
    /// x86-64 AVX2, 8 blocks per batch.
    Avx2,
    /// x86-64 AVX-512 F/BW/VL, 16 blocks per batch with masked tails.
    Avx512,
    /// x86-64 AVX-512 F/BW/VL as [`Backend::Avx512`], with 28 blocks per batch in
    /// long messages: 16 in the vertical form and 12 in the row form inside the same
    /// round loop. Faster only on cores whose 16-block batch alone leaves the vector
    /// units idle; [`Backend::detect`] never picks it, a cipher's detected route does
    /// on such a core.
    Avx512Wide,
    /// x86-64 AVX-512 F/BW/VL as [`Backend::Avx512`], with a seventeenth block in the
    /// general-purpose registers beside a 16-block batch only where a few such batches
    /// round out a message's last blocks (long messages run plain 16-block batches).
    /// Faster only on cores whose integer units share their ports with the vector units (Intel's);
    /// [`Backend::detect`] never picks it, a cipher's detected route does on such a core.
    Avx512Plain,
    /// NEON, 4 blocks per batch with byte-table tails: aarch64 (intrinsics, `tbl`) and
    /// 32-bit Arm (`asm!`, `vtbl`; detected from `AT_HWCAP`).
    Neon,
}

/// Every backend compiled for this target, slowest first (the one [`Backend::detect`]
/// prefers last; `Avx512Wide` and `Avx512Plain` are before `Avx512`, which is the faster
/// on most cores).
const ALL: &[Backend] = &[
    Backend::Portable,
    #[cfg(target_arch = "x86_64")]
    Backend::Sse2,
    #[cfg(target_arch = "x86_64")]
    Backend::Ssse3,
    #[cfg(target_arch = "x86_64")]
    Backend::Avx2,
    #[cfg(target_arch = "x86_64")]
    Backend::Avx512Wide,
    #[cfg(target_arch = "x86_64")]
    Backend::Avx512Plain,
    #[cfg(target_arch = "x86_64")]
    Backend::Avx512,
    #[cfg(any(aarch64_neon, arm_neon))]
    Backend::Neon,
];

/// `detect()`'s answer.
static DETECTED: Detected = Detected::new();

impl Backend {
    /// Every backend compiled into this build, slowest first, whether or not the CPU
    /// running it has the features.
    pub fn all() -> &'static [Backend] {
        ALL
    }

    /// The backends this CPU can run, slowest first.
    pub fn available() -> impl Iterator<Item = Backend> {
        ALL.iter().copied().filter(|b| b.is_available())
    }

    /// The fastest backend this CPU can run; detected once per process.
    #[inline]
    pub fn detect() -> Backend {
        DETECTED.get(ALL, || Backend::fastest(Backend::is_available))
    }

    /// The last (fastest) backend in `ALL` for which `has` holds; portable if none.
    fn fastest(has: impl Fn(Backend) -> bool) -> Backend {
        ALL.iter()
            .copied()
            .filter(|b| has(*b))
            .last()
            .unwrap_or(Backend::Portable)
    }

    /// Whether a 32-bit Arm CPU whose `AT_HWCAP` word is `hwcap` can run the backend:
    /// [`Backend::is_available`] with the word as a parameter, so tests can give it
    /// words of CPUs without NEON.
    #[cfg(arm_neon)]
    fn runs_with_hwcap(self, hwcap: u32) -> bool {
        match self {
            Backend::Portable => true,
            Backend::Neon => arm::neon_in_hwcap(hwcap),
            _ => false,
        }
    }

    /// Whether this CPU has the instruction-set extensions the backend needs.
    // Without `std` the checks are compile-time constants that clippy sees as trivial.
    #[cfg_attr(not(feature = "std"), allow(clippy::eq_op, clippy::nonminimal_bool))]
    pub fn is_available(self) -> bool {
        match self {
            Backend::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Sse2 => true,
            #[cfg(target_arch = "x86_64")]
            Backend::Ssse3 => cpu_has!("ssse3"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx2 => cpu_has!("avx2") && cpu_has!("bmi2"),
            #[cfg(target_arch = "x86_64")]
            Backend::Avx512 | Backend::Avx512Wide | Backend::Avx512Plain => {
                cpu_has!("avx512f") && cpu_has!("avx512bw") && cpu_has!("avx512vl")
            }
            #[cfg(aarch64_neon)]
            Backend::Neon => cpu_has!("neon"),
            #[cfg(arm_neon)]
            Backend::Neon => self.runs_with_hwcap(arm::hwcap()),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// The short lowercase name used by the CLI and benchmarks (`"avx2"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Backend::Portable => "portable",
            Backend::Sse2 => "sse2",
            Backend::Ssse3 => "ssse3",
            Backend::Avx2 => "avx2",
            Backend::Avx512 => "avx512",
            Backend::Avx512Wide => "avx512-wide",
            Backend::Avx512Plain => "avx512-plain",
            Backend::Neon => "neon",
        }
    }

    /// The backend called `name` (see [`Backend::name`]), if compiled in.
    pub fn from_name(name: &str) -> Option<Backend> {
        ALL.iter().copied().find(|b| b.name() == name)
    }

    /// XORs keystream blocks `counter, counter + 1, …` into `len` bytes.
    ///
    /// # Safety
    /// `self.is_available()`; `input` readable and `output` writable for `len` bytes,
    /// equal or disjoint; for RFC 8439 states, `counter + ceil(len / 64) <= 2^32`.
    #[inline]
    pub(crate) unsafe fn xor_keystream(
        self,
        state: &State,
        counter: u64,
        input: *const u8,
        output: *mut u8,
        len: usize,
    ) {
        // SAFETY: forwarded; `self.is_available()` means the entry point's target
        // features are present.
        unsafe { entry_point!(self, xor_keystream(state, counter, input, output, len)) }
    }

    /// The AEAD's seal: keystream block 0 to `mac.key`, blocks 1.. XORed into the
    /// `len` bytes, and the whole 16-byte blocks of the ciphertext to `mac.absorb`
    /// (see [`generic::seal`]). The x86-64 and aarch64 NEON backends do it in one pass;
    /// the portable and 32-bit Arm NEON ones in two (the key block, then the message,
    /// then the MAC).
    ///
    /// # Safety
    /// As for [`Backend::xor_keystream`] with the message at block 1:
    /// `1 + ceil(len / 64) <= 2^32` for RFC 8439 states.
    #[inline]
    pub(crate) unsafe fn seal<A: generic::Absorb>(
        self,
        state: &State,
        input: *const u8,
        output: *mut u8,
        len: usize,
        mac: &mut A,
    ) {
        // SAFETY: forwarded; `self.is_available()` means the entry point's target
        // features are present.
        unsafe { entry_point!(self, seal(state, input, output, len, mac)) }
    }

    /// The AEAD's open: the Poly1305 key (keystream block 0) to `mac.key`, the whole
    /// 16-byte blocks of the ciphertext in `input` to the MAC, and the keystream from
    /// block 1 XORed into `len` bytes (see [`generic::open`]). The caller absorbs the
    /// last partial block, which in place it must copy before this call. The SSE2,
    /// SSSE3 and AVX2 backends absorb each batch's ciphertext between its rounds; the
    /// others absorb it all first.
    ///
    /// # Safety
    /// As for [`Backend::seal`].
    #[inline]
    pub(crate) unsafe fn open<A: generic::Absorb>(
        self,
        state: &State,
        input: *const u8,
        output: *mut u8,
        len: usize,
        mac: &mut A,
    ) {
        // SAFETY: forwarded; `self.is_available()` means the entry point's target
        // features are present.
        unsafe { entry_point!(self, open(state, input, output, len, mac)) }
    }
}

impl Backend {
    /// Whether the backend runs bursts with lanes across messages (the lane backends
    /// of x86-64 and aarch64); the others loop over their single-message kernels.
    #[inline]
    pub(crate) fn has_lane_bursts(self) -> bool {
        self != Backend::Portable && (self != Backend::Neon || cfg!(aarch64_neon))
    }

    /// Blocks one lane batch of a burst holds (one per lane); 1 where bursts loop
    /// over the single-message kernel.
    #[inline]
    pub(crate) fn lane_width(self) -> usize {
        match self {
            _ if !self.has_lane_bursts() => 1,
            Backend::Avx512 | Backend::Avx512Wide | Backend::Avx512Plain => 16,
            Backend::Avx2 => 8,
            _ => 4,
        }
    }

    /// XORs every job's keystream into its destination: lanes across the jobs on the
    /// lane backends, else one job after the other (see [`generic::xor_burst`]).
    ///
    /// # Safety
    /// `self.is_available()`; the contract of [`generic::xor_burst`].
    #[inline]
    pub(crate) unsafe fn xor_burst<J: generic::Jobs>(self, jobs: &mut J, double_rounds: u32) {
        // SAFETY: forwarded; `self.is_available()` means the entry point's target
        // features are present (`avx512`'s are `avx512-wide`'s and `avx512-plain`'s).
        // Those two differ from `avx512` only in their plans for long messages, so
        // their bursts run `avx512`'s kernel: one copy of it compiled, not three.
        unsafe {
            entry_point!(
                self,
                xor_burst(jobs, double_rounds),
                avx512_plans_as: (avx512, avx512)
            )
        }
    }
}

#[cfg(all(test, arm_neon))]
mod arm_detection {
    use super::{Backend, arm};

    #[test]
    fn detection_follows_the_hwcap_neon_bit() {
        // A CPU without NEON (every other bit set, so only bit 12 matters): portable.
        let without = !arm::HWCAP_NEON;
        assert_eq!(
            Backend::fastest(|b| b.runs_with_hwcap(0)),
            Backend::Portable
        );
        assert_eq!(
            Backend::fastest(|b| b.runs_with_hwcap(without)),
            Backend::Portable
        );
        assert!(!Backend::Neon.runs_with_hwcap(without));
        // With NEON: the NEON backend.
        let with = arm::HWCAP_NEON;
        assert_eq!(Backend::fastest(|b| b.runs_with_hwcap(with)), Backend::Neon);
        assert_eq!(
            Backend::fastest(|b| b.runs_with_hwcap(u32::MAX >> 1)),
            Backend::Neon
        );
    }

    #[test]
    #[cfg(all(feature = "std", target_os = "linux"))]
    fn this_cpu_reports_neon() {
        // The tests run under QEMU (and on armv7 hardware) with NEON; its hwcap word is
        // what `detect` reads, and it must say NEON, or the NEON tests run nothing.
        let word = arm::hwcap();
        assert!(arm::neon_in_hwcap(word), "AT_HWCAP {word:#x} lacks NEON");
        assert_eq!(Backend::detect(), Backend::Neon);
        assert!(Backend::available().any(|b| b == Backend::Neon));
    }
}
