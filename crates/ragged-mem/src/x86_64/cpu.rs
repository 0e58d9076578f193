//! The one runtime check on x86-64: which of AVX2, AVX-512 (F, BW, with BMI2), ERMS
//! and FSRM this CPU has, and whether its core runs 512-bit loads and stores at full
//! width (whose best copy shapes differ), read with `cpuid` once and cached in an
//! atomic.
//!
//! No `std` is needed (the crate is `no_std`, and under `c-symbols` it may be the
//! `memcpy` of a binary without an operating-system runtime). Features enabled at
//! compile time (`-C target-feature=+avx2`, `+ermsb`) count without asking.

use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
use core::sync::atomic::{AtomicU8, Ordering};

/// 256-bit integer vectors are usable: the CPU has AVX2 and the OS saves the registers.
pub(crate) const AVX2: u8 = 1 << 0;
/// Enhanced `rep movsb`/`rep stosb`: string moves fast for large sizes.
pub(crate) const ERMS: u8 = 1 << 1;
/// Fast short `rep movsb`: string moves fast from small sizes on.
pub(crate) const FSRM: u8 = 1 << 2;
/// 512-bit vectors with byte masks are usable: the CPU has AVX-512F, AVX-512BW and
/// BMI2 (for `bzhi`, which makes the masks), the OS saves the opmask and all 512-bit
/// registers, and [`AVX2`] is set too.
pub(crate) const AVX512: u8 = 1 << 3;
/// [`AVX512`] on a core that runs 512-bit loads and stores at full width, where Zen 4
/// splits them in two: an AMD Zen 5 (family 1Ah), or an Intel core from Ice Lake on.
/// The copy's size classes and loop are chosen for these apart (see
/// `super::memcpy_resolve`).
pub(crate) const ZMM: u8 = 1 << 4;
/// [`AVX2`] on an Intel core: its non-temporal copies interleave four 4 KiB pages
/// (`super::nontemporal`), which ran ahead of the plain loop there (the commit that
/// set it; figures in docs/tuning.md) and behind it on Zen 3.
pub(crate) const NT_PAGES: u8 = 1 << 5;
/// Set once the other bits are valid, so the cache is never zero after the first look.
const KNOWN: u8 = 1 << 7;

static FEATURES: AtomicU8 = AtomicU8::new(0);

/// The feature bits of this CPU (`AVX2 | AVX512 | ERMS | FSRM | ZMM | NT_PAGES`
/// subset). The first call runs `cpuid`; later calls are one relaxed load. Two threads racing on the first call both
/// compute the same value, so relaxed ordering is enough.
#[inline]
pub(crate) fn features() -> u8 {
    let cached = FEATURES.load(Ordering::Relaxed);
    if cached != 0 {
        return cached;
    }
    let fresh = detect() | KNOWN;
    FEATURES.store(fresh, Ordering::Relaxed);
    fresh
}

/// `true` when the cached bits include every bit of `want`.
#[inline]
pub(crate) fn has(want: u8) -> bool {
    features() & want == want
}

#[cold]
fn detect() -> u8 {
    let mut bits = 0;
    if cfg!(target_feature = "avx2") {
        bits |= AVX2;
    }
    if cfg!(target_feature = "ermsb") {
        bits |= ERMS;
    }
    if cfg!(all(
        target_feature = "avx2",
        target_feature = "avx512f",
        target_feature = "avx512bw",
        target_feature = "bmi2"
    )) {
        bits |= AVX512;
    }
    // `cpuid` exists on every x86-64 CPU; `__cpuid` became a safe function in newer
    // Rust, so the `unsafe` blocks are only needed by older compilers.
    #[allow(unused_unsafe)]
    // SAFETY: `cpuid` is always available on x86-64 and has no memory effects.
    let vendor = unsafe { __cpuid(0) };
    let max_leaf = vendor.eax;
    if max_leaf < 7 {
        return bits;
    }
    #[allow(unused_unsafe)]
    // SAFETY: as above; leaf 1 exists because `max_leaf >= 7`.
    let leaf1 = unsafe { __cpuid(1) };
    #[allow(unused_unsafe)]
    // SAFETY: as above; leaf 7 exists because `max_leaf >= 7`.
    let leaf7 = unsafe { __cpuid_count(7, 0) };
    if leaf7.ebx & (1 << 9) != 0 {
        bits |= ERMS;
    }
    if leaf7.edx & (1 << 4) != 0 {
        bits |= FSRM;
    }
    let osxsave = leaf1.ecx & (1 << 27) != 0;
    let avx = leaf1.ecx & (1 << 28) != 0;
    if leaf7.ebx & (1 << 5) != 0 && avx && osxsave {
        // SAFETY: OSXSAVE says the OS has enabled `xgetbv`.
        let xcr0 = unsafe { xgetbv0() };
        // The OS must save both the SSE (bit 1) and AVX (bit 2) register state.
        if xcr0 & 0b110 == 0b110 {
            bits |= AVX2;
            let vendor = Vendor::of(vendor.ebx, vendor.edx, vendor.ecx);
            if vendor == Vendor::Intel {
                bits |= NT_PAGES;
            }
            // AVX-512F (bit 16), AVX-512BW (bit 30), BMI2 (bit 8); and the OS must
            // also save the opmask registers (XCR0 bit 5), the upper halves of
            // zmm0-15 (bit 6) and zmm16-31 (bit 7).
            let want = (1 << 16) | (1 << 30) | (1 << 8);
            if leaf7.ebx & want == want && xcr0 & 0b1110_0000 == 0b1110_0000 {
                bits |= AVX512;
                if full_width_zmm(vendor, leaf1.eax) {
                    bits |= ZMM;
                }
            }
        }
    }
    bits
}

/// The makers whose cores [`full_width_zmm`] tells apart.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Vendor {
    Amd,
    Intel,
    Other,
}

impl Vendor {
    /// The maker from `cpuid` leaf 0's `ebx`, `edx`, `ecx` (its name, twelve bytes).
    fn of(ebx: u32, edx: u32, ecx: u32) -> Vendor {
        match (ebx, edx, ecx) {
            // "AuthenticAMD".
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) => Vendor::Amd,
            // "GenuineIntel".
            (0x756e_6547, 0x4965_6e69, 0x6c65_746e) => Vendor::Intel,
            _ => Vendor::Other,
        }
    }
}

/// Whether a CPU with AVX-512 (F and BW) runs 512-bit loads and stores at full width
/// and without a clock penalty worth avoiding, from its maker and `cpuid` leaf 1 `eax`
/// (family and model with their extended fields), so tests can name CPUs they do not
/// run on: an AMD of family 1Ah (Zen 5), or an Intel core of family 6 other than
/// model 55h (Skylake-SP, Cascade Lake and Cooper Lake, which lower their clock for
/// 512-bit work; later cores much less). Zen 4 (family 19h) splits each access in two.
fn full_width_zmm(vendor: Vendor, eax: u32) -> bool {
    let base_family = (eax >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((eax >> 20) & 0xff)
    } else {
        base_family
    };
    let model = if base_family == 0x6 || base_family == 0xf {
        ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4)
    } else {
        (eax >> 4) & 0xf
    };
    match vendor {
        Vendor::Amd => family == 0x1a,
        Vendor::Intel => family == 0x6 && model != 0x55,
        Vendor::Other => false,
    }
}

/// Reads XCR0.
///
/// # Safety
/// The CPU must report OSXSAVE (CPUID.1:ECX bit 27).
#[target_feature(enable = "xsave")]
unsafe fn xgetbv0() -> u64 {
    // SAFETY: caller guarantee: `xgetbv` is enabled; XCR0 always exists.
    unsafe { _xgetbv(0) }
}

#[cfg(test)]
mod tests {
    use super::{Vendor, full_width_zmm};

    #[test]
    fn full_width_zmm_is_zen5_and_intel_from_ice_lake() {
        // `cpuid` leaf 1 `eax` (stepping 0): Zen 5 Turin 1Ah/02h and Granite Ridge
        // 1Ah/44h; Zen 3 Milan 19h/01h, Zen 4 Genoa 19h/11h and Raphael 19h/61h.
        assert!(full_width_zmm(Vendor::Amd, 0x00b0_0f20));
        assert!(full_width_zmm(Vendor::Amd, 0x00b4_0f40));
        for eax in [0x00a0_0f10, 0x00a1_0f10, 0x00a6_0f10] {
            assert!(!full_width_zmm(Vendor::Amd, eax), "{eax:#x}");
        }
        // Intel family 6: Ice Lake-SP 6Ah, Sapphire Rapids 8Fh, Rocket Lake A7h,
        // Granite Rapids ADh; not Skylake-SP/Cascade Lake 55h.
        for eax in [0x0006_06a0, 0x0008_06f0, 0x000a_0670, 0x000a_06d0] {
            assert!(full_width_zmm(Vendor::Intel, eax), "{eax:#x}");
        }
        assert!(!full_width_zmm(Vendor::Intel, 0x0005_0650));
        // Another maker: none, whatever the signature.
        assert!(!full_width_zmm(Vendor::Other, 0x00b0_0f20));
        assert!(!full_width_zmm(Vendor::Other, 0x0008_06f0));
        // The vendor strings.
        assert!(Vendor::of(0x6874_7541, 0x6974_6e65, 0x444d_4163) == Vendor::Amd);
        assert!(Vendor::of(0x756e_6547, 0x4965_6e69, 0x6c65_746e) == Vendor::Intel);
        assert!(Vendor::of(0, 0, 0) == Vendor::Other);
    }
}
