//! Which strategy runs where: the one place that chooses.
//!
//! - x86-64 with SSE2 (every x86-64 target but the soft-float kernel ones, such as
//!   `x86_64-unknown-none`, where vector registers must not be touched): the `x86_64`
//!   strategy (vectors, `rep movsb`, non-temporal stores), with one cached runtime
//!   check for AVX-512, AVX2 and ERMS;
//! - aarch64 with NEON: the `aarch64` strategy (16-byte vectors);
//! - every other target (riscv, arm32, s390x, soft-float x86-64, …): the portable
//!   word strategy in the target's own byte order, because there an unaligned word
//!   access is slow, trapped or not allowed (or, for soft-float targets, the vector
//!   registers are off limits).
//!
//! [`Kernel`] names every strategy (and each x86-64 tier) individually, so tests and
//! measurements can run one of them on purpose rather than the one chosen here.

use crate::word::{self, Big, Little};

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
pub(crate) use crate::aarch64::{memcpy, memmove, memset};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(crate) use crate::x86_64::{memcpy, memmove, memset};
#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
pub(crate) use portable::{memcpy, memmove, memset};

/// The word strategy as the default for targets without a vector strategy.
#[cfg(not(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
)))]
mod portable {
    use crate::word::{self, Native};

    /// # Safety
    /// As for [`crate::memcpy`].
    #[inline]
    pub(crate) unsafe fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: caller guarantee; disjoint buffers satisfy `copy_forward`'s overlap rule.
        unsafe { word::copy_forward::<Native>(dst, src, n) }
    }

    /// # Safety
    /// As for [`crate::memmove`].
    #[inline]
    pub(crate) unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: caller guarantee.
        unsafe { word::memmove::<Native>(dst, src, n) }
    }

    /// # Safety
    /// As for [`crate::memset`].
    #[inline]
    pub(crate) unsafe fn memset(dst: *mut u8, byte: u8, n: usize) {
        // SAFETY: caller guarantee.
        unsafe { word::memset::<Native>(dst, byte, n) }
    }
}

/// x86-64: the size from which a non-overlapping copy uses `rep movsb` (on CPUs with
/// ERMS but without AVX2).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub const REP_MOVSB_MIN: usize = crate::x86_64::REP_MOVSB_MIN;

/// x86-64: the size from which a non-overlapping copy uses non-temporal stores.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub const NONTEMPORAL_MIN: usize = crate::x86_64::NONTEMPORAL_MIN;

/// x86-64, on a core with full-width 512-bit accesses (Zen 5, Intel from Ice Lake on):
/// the size above which a non-overlapping copy uses `rep movsb`
/// instead of the 64-byte loop (up to [`NONTEMPORAL_MIN`]).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub const ZMM_LOOP_MAX: usize = crate::x86_64::ZMM_LOOP_MAX;

/// What the one runtime check found on this x86-64 CPU.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct X86Features {
    /// AVX2 usable (CPU support and OS-saved registers).
    pub avx2: bool,
    /// AVX-512F and AVX-512BW (with BMI2) usable (CPU support and OS-saved registers).
    pub avx512: bool,
    /// Enhanced `rep movsb`.
    pub erms: bool,
    /// Fast short `rep movsb`.
    pub fsrm: bool,
    /// AVX-512 on a core that runs 512-bit loads and stores at full width (an AMD
    /// Zen 5, an Intel core from Ice Lake on): the copy's AVX-512 path uses 64-byte
    /// vectors above 128 bytes, and `rep movsb` above [`ZMM_LOOP_MAX`].
    pub zmm: bool,
    /// An Intel core with AVX2: non-temporal copies interleave four 4 KiB pages.
    pub nt_pages: bool,
}

/// The cached result of the runtime CPU check.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub fn x86_64_features() -> X86Features {
    use crate::x86_64::cpu;
    let f = cpu::features();
    X86Features {
        avx2: f & cpu::AVX2 != 0,
        avx512: f & cpu::AVX512 != 0,
        erms: f & cpu::ERMS != 0,
        fsrm: f & cpu::FSRM != 0,
        zmm: f & cpu::ZMM != 0,
        nt_pages: f & cpu::NT_PAGES != 0,
    }
}

/// One copy strategy, chosen by name instead of by the dispatcher.
///
/// Not a stable API: it exists so the tests can run every strategy on every host that
/// can execute it, and so measurements can compare them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kernel {
    /// What the public functions use: the dispatcher's choice for this target and CPU.
    Auto,
    /// x86-64: the dispatcher's choice as it would be on a CPU without AVX2 (with this
    /// CPU's ERMS bit): SSE2 copies, `rep movsb`, non-temporal SSE2 stores.
    AutoWithoutAvx2,
    /// x86-64: the dispatcher's choice as it would be on a CPU without AVX-512 (with
    /// this CPU's other features): on an AVX2 CPU, the AVX2 copies.
    AutoWithoutAvx512,
    /// The word strategy with little-endian words (byte-swapped on big-endian hosts).
    WordLittle,
    /// The word strategy with big-endian words (byte-swapped on little-endian hosts).
    WordBig,
    /// x86-64: 16-byte SSE2 vectors at every size above 16 bytes.
    Sse2,
    /// x86-64: 32-byte AVX2 vectors above 32 bytes.
    Avx2,
    /// x86-64: the AVX-512 copy as the dispatcher uses it on AVX-512 cores that split
    /// 512-bit accesses or slow their clock for them (Zen 4, Skylake-SP; AVX-512F,
    /// AVX-512BW, BMI2): two overlapping 64-byte vectors at 65–128 bytes, AVX2 vectors
    /// above.
    Avx512,
    /// x86-64: the dispatcher's copy on a core with full-width 512-bit accesses (Zen 5,
    /// Intel from Ice Lake on), runnable on any AVX-512 CPU: 64-byte
    /// vectors above 64 bytes (up to eight overlapping, then the loop with masked
    /// ends), `rep movsb` for large copies and for moves down by a large distance,
    /// the AVX2 loop for moves up by one, non-temporal stores when very large.
    Avx512Zmm,
    /// x86-64: `rep movsb` on a 64-byte aligned destination at every size (memmove:
    /// when copying upwards is safe).
    RepMovsb,
    /// x86-64: non-temporal SSE2 stores (memmove: when the buffers are disjoint).
    NonTemporalSse2,
    /// x86-64: non-temporal AVX2 stores (memmove: when the buffers are disjoint).
    NonTemporalAvx2,
    /// x86-64: non-temporal AVX-512 stores (memmove: when the buffers are disjoint).
    NonTemporalAvx512,
    /// x86-64: non-temporal AVX2 stores, four 4 KiB pages at a time interleaved (the
    /// dispatcher's large copies on an Intel AVX2 core; memmove: when disjoint).
    NonTemporalPagesAvx2,
    /// x86-64: non-temporal AVX-512 stores, four pages interleaved (the dispatcher's
    /// large copies on an Intel AVX-512 core; memmove: when disjoint).
    NonTemporalPagesAvx512,
    /// aarch64: 16-byte NEON vectors.
    Neon,
}

impl Kernel {
    /// Every kernel, available here or not.
    pub const ALL: [Kernel; 16] = [
        Kernel::Auto,
        Kernel::AutoWithoutAvx2,
        Kernel::AutoWithoutAvx512,
        Kernel::WordLittle,
        Kernel::WordBig,
        Kernel::Sse2,
        Kernel::Avx2,
        Kernel::Avx512,
        Kernel::Avx512Zmm,
        Kernel::RepMovsb,
        Kernel::NonTemporalSse2,
        Kernel::NonTemporalAvx2,
        Kernel::NonTemporalAvx512,
        Kernel::NonTemporalPagesAvx2,
        Kernel::NonTemporalPagesAvx512,
        Kernel::Neon,
    ];

    /// A short lowercase name, for test failures and measurement tables.
    pub fn name(self) -> &'static str {
        match self {
            Kernel::Auto => "auto",
            Kernel::AutoWithoutAvx2 => "auto-no-avx2",
            Kernel::AutoWithoutAvx512 => "auto-no-avx512",
            Kernel::WordLittle => "word-le",
            Kernel::WordBig => "word-be",
            Kernel::Sse2 => "sse2",
            Kernel::Avx2 => "avx2",
            Kernel::Avx512 => "avx512",
            Kernel::Avx512Zmm => "avx512-zmm",
            Kernel::RepMovsb => "rep-movsb",
            Kernel::NonTemporalSse2 => "nt-sse2",
            Kernel::NonTemporalAvx2 => "nt-avx2",
            Kernel::NonTemporalAvx512 => "nt-avx512",
            Kernel::NonTemporalPagesAvx2 => "nt-pages-avx2",
            Kernel::NonTemporalPagesAvx512 => "nt-pages-avx512",
            Kernel::Neon => "neon",
        }
    }

    /// `true` when this target and CPU can run the kernel.
    pub fn is_available(self) -> bool {
        match self {
            Kernel::Auto | Kernel::WordLittle | Kernel::WordBig => true,
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::AutoWithoutAvx2
            | Kernel::AutoWithoutAvx512
            | Kernel::Sse2
            | Kernel::NonTemporalSse2 => true,
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx2 | Kernel::NonTemporalAvx2 | Kernel::NonTemporalPagesAvx2 => {
                crate::x86_64::cpu::has(crate::x86_64::cpu::AVX2)
            }
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::Avx512
            | Kernel::Avx512Zmm
            | Kernel::NonTemporalAvx512
            | Kernel::NonTemporalPagesAvx512 => crate::x86_64::cpu::has(crate::x86_64::cpu::AVX512),
            // `rep movsb` works on every x86-64 CPU; ERMS only makes it fast.
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            Kernel::RepMovsb => true,
            #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
            Kernel::Neon => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    /// Copies `n` bytes from `src` to `dst` with this kernel.
    ///
    /// # Safety
    /// As for [`crate::memcpy`].
    ///
    /// # Panics
    /// If the kernel is not available on this target and CPU.
    pub unsafe fn memcpy(self, dst: *mut u8, src: *const u8, n: usize) {
        assert!(
            self.is_available(),
            "kernel {} is not available here",
            self.name()
        );
        // SAFETY: all arms: caller guarantee (disjoint buffers, valid for `n` bytes);
        // every kernel is available, checked above.
        unsafe {
            match self {
                Kernel::Auto => memcpy(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx2 => {
                    crate::x86_64::memcpy_without_avx2(dst, src, n, crate::x86_64::cpu::features())
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx512 => crate::x86_64::memcpy_without_avx512(
                    dst,
                    src,
                    n,
                    crate::x86_64::cpu::features(),
                ),
                Kernel::WordLittle => word::copy_forward::<Little>(dst, src, n),
                Kernel::WordBig => word::copy_forward::<Big>(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Sse2 => crate::x86_64::copy_forward_sse2(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx2 => crate::x86_64::copy_forward_avx2(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512 => crate::x86_64::copy_avx512::<false, true>(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512Zmm => crate::x86_64::memcpy_zmm(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::RepMovsb => crate::x86_64::copy_rep_movsb(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalSse2 => crate::x86_64::memcpy_nontemporal_sse2(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalAvx2 | Kernel::NonTemporalPagesAvx2 => {
                    let pages = self == Kernel::NonTemporalPagesAvx2;
                    crate::x86_64::memcpy_nontemporal_avx2(dst, src, n, pages)
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalAvx512 | Kernel::NonTemporalPagesAvx512 => {
                    let pages = self == Kernel::NonTemporalPagesAvx512;
                    crate::x86_64::memcpy_nontemporal_avx512(dst, src, n, pages)
                }
                #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
                Kernel::Neon => crate::aarch64::memcpy(dst, src, n),
                #[allow(unreachable_patterns)]
                _ => unreachable!(),
            }
        }
    }

    /// Copies `n` bytes from `src` to `dst`, which may overlap, with this kernel.
    /// Kernels that only copy upwards ([`Kernel::RepMovsb`]) or only between disjoint
    /// buffers (the non-temporal ones) hand the other cases to their vector loop.
    ///
    /// # Safety
    /// As for [`crate::memmove`].
    ///
    /// # Panics
    /// If the kernel is not available on this target and CPU.
    pub unsafe fn memmove(self, dst: *mut u8, src: *const u8, n: usize) {
        assert!(
            self.is_available(),
            "kernel {} is not available here",
            self.name()
        );
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let upward = word::forward_is_safe(dst, src, n);
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let disjoint = crate::x86_64::disjoint(dst, src, n);
        // SAFETY: all arms: caller guarantee; each kernel is used only in the overlap
        // case it supports (upward copies only when `forward_is_safe`, non-temporal
        // only when disjoint); availability checked above.
        unsafe {
            match self {
                Kernel::Auto => memmove(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx2 => {
                    crate::x86_64::memmove_without_avx2(dst, src, n, crate::x86_64::cpu::features())
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx512 => crate::x86_64::memmove_without_avx512(
                    dst,
                    src,
                    n,
                    crate::x86_64::cpu::features(),
                ),
                Kernel::WordLittle => word::memmove::<Little>(dst, src, n),
                Kernel::WordBig => word::memmove::<Big>(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalSse2 if disjoint => {
                    crate::x86_64::memcpy_nontemporal_sse2(dst, src, n)
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalAvx2 | Kernel::NonTemporalPagesAvx2 if disjoint => {
                    let pages = self == Kernel::NonTemporalPagesAvx2;
                    crate::x86_64::memcpy_nontemporal_avx2(dst, src, n, pages)
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalAvx512 | Kernel::NonTemporalPagesAvx512 if disjoint => {
                    let pages = self == Kernel::NonTemporalPagesAvx512;
                    crate::x86_64::memcpy_nontemporal_avx512(dst, src, n, pages)
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512 => {
                    if upward {
                        crate::x86_64::copy_avx512::<false, true>(dst, src, n)
                    } else {
                        crate::x86_64::copy_avx512::<false, false>(dst, src, n)
                    }
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512Zmm => crate::x86_64::memmove_zmm(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::NonTemporalAvx512 | Kernel::NonTemporalPagesAvx512 => {
                    if upward {
                        crate::x86_64::copy_avx512::<true, true>(dst, src, n)
                    } else {
                        crate::x86_64::copy_avx512::<true, false>(dst, src, n)
                    }
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::RepMovsb if upward => crate::x86_64::copy_rep_movsb(dst, src, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx2 | Kernel::NonTemporalAvx2 | Kernel::NonTemporalPagesAvx2 => {
                    if upward {
                        crate::x86_64::copy_forward_avx2(dst, src, n)
                    } else {
                        crate::x86_64::copy_backward_avx2(dst, src, n)
                    }
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Sse2 | Kernel::NonTemporalSse2 | Kernel::RepMovsb => {
                    if upward {
                        crate::x86_64::copy_forward_sse2(dst, src, n)
                    } else {
                        crate::x86_64::copy_backward_sse2(dst, src, n)
                    }
                }
                #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
                Kernel::Neon => crate::aarch64::memmove(dst, src, n),
                #[allow(unreachable_patterns)]
                _ => unreachable!(),
            }
        }
    }

    /// Sets `n` bytes at `dst` to `byte` with this kernel. `rep movsb` and the
    /// non-temporal kernels have no fill of their own and use their vector fill.
    ///
    /// # Safety
    /// As for [`crate::memset`].
    ///
    /// # Panics
    /// If the kernel is not available on this target and CPU.
    pub unsafe fn memset(self, dst: *mut u8, byte: u8, n: usize) {
        assert!(
            self.is_available(),
            "kernel {} is not available here",
            self.name()
        );
        // SAFETY: all arms: caller guarantee; availability checked above.
        unsafe {
            match self {
                Kernel::Auto => memset(dst, byte, n),
                Kernel::WordLittle => word::memset::<Little>(dst, byte, n),
                Kernel::WordBig => word::memset::<Big>(dst, byte, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx2
                | Kernel::Sse2
                | Kernel::RepMovsb
                | Kernel::NonTemporalSse2 => crate::x86_64::set_sse2(dst, byte, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::AutoWithoutAvx512 => crate::x86_64::memset(dst, byte, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx2 | Kernel::NonTemporalAvx2 | Kernel::NonTemporalPagesAvx2 => {
                    crate::x86_64::set_avx2(dst, byte, n)
                }
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512 => crate::x86_64::set_avx2(dst, byte, n),
                #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
                Kernel::Avx512Zmm | Kernel::NonTemporalAvx512 | Kernel::NonTemporalPagesAvx512 => {
                    crate::x86_64::set_avx512(dst, byte, n)
                }
                #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
                Kernel::Neon => crate::aarch64::memset(dst, byte, n),
                #[allow(unreachable_patterns)]
                _ => unreachable!(),
            }
        }
    }
}
