//! x86-64 backends: thin entry points that instantiate the generic kernel with the
//! lane types of each instruction-set level, under the matching `target_feature`.

mod xmm;
mod ymm;
mod zmm;

use self::xmm::Xmm;
use self::ymm::Ymm;
use self::zmm::Zmm;
use super::generic;
use crate::state::State;

/// Lane-type level: SSE2 only (every x86-64 CPU).
pub(crate) const SSE2: u8 = 0;
/// Lane-type level: SSSE3 byte shuffles for the 8- and 16-bit rotations and the tail.
pub(crate) const SSSE3: u8 = 1;

/// 4-block batches with SSE2 only.
///
/// # Safety
/// `input` readable and `output` writable for `len` bytes, equal or disjoint.
#[target_feature(enable = "sse2")]
pub(crate) unsafe fn sse2(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: SSE2 is enabled for this function; the pointer contract is forwarded.
    unsafe {
        generic::xor_keystream_rows::<Xmm<SSE2>, Xmm<SSE2>, Xmm<SSE2>, Xmm<SSE2>>(
            state, counter, input, output, len,
        )
    }
}

/// 4-block batches with SSSE3 shuffles.
///
/// # Safety
/// The CPU has SSSE3; `input` readable and `output` writable for `len` bytes, equal or
/// disjoint.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn ssse3(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: SSSE3 is enabled for this function; the pointer contract is forwarded.
    unsafe {
        generic::xor_keystream_rows::<Xmm<SSSE3>, Xmm<SSSE3>, Xmm<SSSE3>, Xmm<SSSE3>>(
            state, counter, input, output, len,
        )
    }
}

/// 8-block AVX2 batches; a remainder of up to 4 blocks runs as one 128-bit batch.
///
/// # Safety
/// The CPU has AVX2; `input` readable and `output` writable for `len` bytes, equal or
/// disjoint.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: AVX2 (and so SSSE3) is enabled for this function; the pointer contract
    // is forwarded.
    unsafe { generic::xor_keystream_rows::<Ymm, Ymm, Ymm, Ymm>(state, counter, input, output, len) }
}

/// 16-block AVX-512 batches; a remainder of up to 8 or 4 blocks runs as one 256- or
/// 128-bit batch with AVX-512VL rotates; partial vectors use AVX-512BW masks.
///
/// # Safety
/// The CPU has AVX-512 F, BW and VL; `input` readable and `output` writable for `len`
/// bytes, equal or disjoint.
#[target_feature(enable = "avx512f,avx512bw,avx512vl")]
pub(crate) unsafe fn avx512(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: AVX-512 F/BW/VL are enabled for this function; the pointer contract is
    // forwarded.
    unsafe { generic::xor_keystream_rows::<Zmm, Zmm, Zmm, Zmm>(state, counter, input, output, len) }
}
