//! 256-bit lanes (8 blocks, or 2 blocks in the row form) with AVX2.

use core::arch::x86_64::*;

use super::xmm::Ssse3;
use super::xmm::{Xmm, rotate_words_imm, transpose_groups};
use crate::backend::generic::{Lanes, Rows};

/// Eight blocks' worth of one state word; needs AVX2.
#[derive(Clone, Copy)]
pub(crate) struct Ymm(pub(crate) __m256i);

/// A `vpshufb` pattern, aligned for a plain vector load.
#[repr(align(32))]
struct Pattern([u8; 32]);

/// The `vpshufb` patterns rotating each 32-bit lane left by 16 bits ([`ROT16`]) and by
/// 8 bits ([`ROT8`]), per 128-bit half. One static, so one address reaches both:
/// where the general-purpose registers are all taken (the ninth block), the compiler
/// reloaded each pattern's address from the GOT at every use, 8 loads a double round.
static PATTERNS: [Pattern; 2] = [
    Pattern([
        2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9,
        14, 15, 12, 13,
    ]),
    Pattern([
        3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14, 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10,
        15, 12, 13, 14,
    ]),
];
/// Index of the rotate-by-16 pattern in [`PATTERNS`].
const ROT16: usize = 0;
/// Index of the rotate-by-8 pattern in [`PATTERNS`].
const ROT8: usize = 1;

/// Loads a shuffle pattern through an address the optimizer cannot see into, at each
/// use. With a visible constant LLVM rewrites the byte rotations (one `vpshufb` became
/// `vpshuflw` + `vpshufhw`, or two `vpshufb`s around an xor), and with the pattern
/// hoisted into a register it spills state words instead; a memory operand per use
/// measured faster (923bc69).
///
/// # Safety
/// The CPU has AVX.
#[inline(always)]
unsafe fn opaque_load(pattern: &Pattern) -> __m256i {
    // SAFETY: 32 readable bytes; AVX per the caller.
    unsafe { core::ptr::read_volatile((&raw const pattern.0).cast::<__m256i>()) }
}

/// Rotates each 32-bit lane of `v` left by `$n` with two shifts and an or.
macro_rules! rotl_shift {
    ($v:expr, $n:literal) => {
        _mm256_or_si256(
            _mm256_slli_epi32::<$n>($v),
            _mm256_srli_epi32::<{ 32 - $n }>($v),
        )
    };
}

// SAFETY: methods use AVX2 (and so SSSE3 for the 128-bit tail) only; callers of
// `Ymm` guarantee it.
unsafe impl Lanes for Ymm {
    const BLOCKS: usize = 8;

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        // SAFETY: AVX.
        Ymm(unsafe { _mm256_set1_epi32(x as i32) })
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7) })
    }
    #[inline(always)]
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self) {
        // SAFETY: AVX2.
        unsafe {
            let lo = _mm256_add_epi32(lo.0, step.0);
            // A lane's low half wrapped exactly when it ends below the step (unsigned,
            // as a signed compare with the top bits flipped); the mask is -1 there.
            let sign = _mm256_set1_epi32(i32::MIN);
            let carry =
                _mm256_cmpgt_epi32(_mm256_xor_si256(step.0, sign), _mm256_xor_si256(lo, sign));
            (Ymm(lo), Ymm(_mm256_sub_epi32(hi.0, carry)))
        }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { _mm256_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { _mm256_xor_si256(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn rotl16(self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, opaque_load(&PATTERNS[ROT16])) })
    }
    #[inline(always)]
    unsafe fn rotl12(self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { rotl_shift!(self.0, 12) })
    }
    #[inline(always)]
    unsafe fn rotl8(self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { _mm256_shuffle_epi8(self.0, opaque_load(&PATTERNS[ROT8])) })
    }
    #[inline(always)]
    unsafe fn rotl7(self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe { rotl_shift!(self.0, 7) })
    }
    #[inline(always)]
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16] {
        // After the per-half transpose of word group g, rows[g][k] holds words
        // 4g..4g+4 of block k (low half) and of block k + 4 (high half).
        // SAFETY: AVX2.
        let rows = unsafe {
            transpose_groups!(
                x,
                _mm256_unpacklo_epi32,
                _mm256_unpackhi_epi32,
                _mm256_unpacklo_epi64,
                _mm256_unpackhi_epi64
            )
        };
        let mut out = x;
        for k in 0..4 {
            for half in 0..2 {
                let (a, b) = (rows[2 * half][k], rows[2 * half + 1][k]);
                // Output vector 2 * block + half is bytes 64 * block + 32 * half.
                // SAFETY: AVX2.
                unsafe {
                    out[2 * k + half] = Ymm(_mm256_permute2x128_si256::<0x20>(a, b));
                    out[2 * (k + 4) + half] = Ymm(_mm256_permute2x128_si256::<0x31>(a, b));
                }
            }
        }
        out
    }
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 32 readable bytes.
        Ymm(unsafe { _mm256_loadu_si256(src.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 32 writable bytes.
        unsafe { _mm256_storeu_si256(dst.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, before: usize) {
        // SAFETY: the masked form touches only the `rem` selected bytes; otherwise a
        // full 16-byte half is within `rem`, and the 128-bit tail keeps the same
        // contract this method was given (its `before` grows by the 16 bytes done).
        unsafe {
            let low = Xmm::<Ssse3>::v(_mm256_castsi256_si128(self.0));
            let high = Xmm::<Ssse3>::v(_mm256_extracti128_si256::<1>(self.0));
            if rem >= 16 {
                low.xor(Xmm::load(input)).store(output);
                if rem > 16 {
                    high.xor_tail(input.add(16), output.add(16), rem - 16, before + 16);
                }
            } else {
                low.xor_tail(input, output, rem, before);
            }
        }
    }
}

// SAFETY: AVX2 only; callers of `Ymm` guarantee it.
unsafe impl Rows for Ymm {
    #[inline(always)]
    unsafe fn row(words: &[u32; 16], r: usize) -> Self {
        // SAFETY: AVX2; `r < 4`, so the 16 bytes read are within `words`.
        Ymm(unsafe {
            _mm256_broadcastsi128_si256(_mm_loadu_si128(words.as_ptr().add(4 * r).cast()))
        })
    }
    #[inline(always)]
    unsafe fn counter_row(tail: [u32; 3], counter: u64) -> Self {
        let next = counter.wrapping_add(1);
        let high = |c: u64| tail[0].wrapping_add((c >> 32) as u32) as i32;
        let (w14, w15) = (tail[1] as i32, tail[2] as i32);
        // SAFETY: AVX.
        Ymm(unsafe {
            _mm256_setr_epi32(
                counter as u32 as i32,
                high(counter),
                w14,
                w15,
                next as u32 as i32,
                high(next),
                w14,
                w15,
            )
        })
    }
    #[inline(always)]
    unsafe fn rotate_words<const N: i32>(self) -> Self {
        // SAFETY: AVX2.
        Ymm(unsafe {
            match N {
                1 => _mm256_shuffle_epi32::<{ rotate_words_imm(1) }>(self.0),
                2 => _mm256_shuffle_epi32::<{ rotate_words_imm(2) }>(self.0),
                _ => _mm256_shuffle_epi32::<{ rotate_words_imm(3) }>(self.0),
            }
        })
    }
    #[inline(always)]
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4] {
        let [a, b, c, d] = rows.map(|r| r.0);
        // Low lanes are block 0, high lanes block 1; each block is a, b, c, d.
        // SAFETY: AVX2.
        unsafe {
            [
                Ymm(_mm256_permute2x128_si256::<0x20>(a, b)),
                Ymm(_mm256_permute2x128_si256::<0x20>(c, d)),
                Ymm(_mm256_permute2x128_si256::<0x31>(a, b)),
                Ymm(_mm256_permute2x128_si256::<0x31>(c, d)),
            ]
        }
    }
}
