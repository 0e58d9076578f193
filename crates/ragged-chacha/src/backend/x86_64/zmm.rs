//! 512-bit lanes (16 blocks): AVX-512 F + BW, with native rotates and masked tails.

use core::arch::x86_64::*;

use super::xmm::{rotate_words_imm, transpose_groups};
use crate::backend::generic::{Lanes, Rows};

/// Sixteen blocks' worth of one state word; needs AVX-512 F and BW.
#[derive(Clone, Copy)]
pub(crate) struct Zmm(pub(crate) __m512i);

// SAFETY: methods use AVX-512 F and BW only; callers of `Zmm` guarantee them.
unsafe impl Lanes for Zmm {
    const BLOCKS: usize = 16;

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_set1_epi32(x as i32) })
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15) })
    }
    #[inline(always)]
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self) {
        // SAFETY: AVX-512F.
        unsafe {
            let lo = _mm512_add_epi32(lo.0, step.0);
            // A lane's low half wrapped exactly when it ends below the step.
            let carried = _mm512_cmplt_epu32_mask(lo, step.0);
            let hi = _mm512_mask_add_epi32(hi.0, carried, hi.0, _mm512_set1_epi32(1));
            (Zmm(lo), Zmm(hi))
        }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_xor_si512(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn rotl16(self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_rol_epi32::<16>(self.0) })
    }
    #[inline(always)]
    unsafe fn rotl12(self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_rol_epi32::<12>(self.0) })
    }
    #[inline(always)]
    unsafe fn rotl8(self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_rol_epi32::<8>(self.0) })
    }
    #[inline(always)]
    unsafe fn rotl7(self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe { _mm512_rol_epi32::<7>(self.0) })
    }
    #[inline(always)]
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16] {
        // After the per-lane transpose of word group g, rows[g][k] holds words
        // 4g..4g+4 of blocks k, k + 4, k + 8, k + 12 in its four 128-bit lanes.
        // SAFETY: AVX-512F.
        let rows = unsafe {
            transpose_groups!(
                x,
                _mm512_unpacklo_epi32,
                _mm512_unpackhi_epi32,
                _mm512_unpacklo_epi64,
                _mm512_unpackhi_epi64
            )
        };
        let mut out = x;
        for k in 0..4 {
            // A 4x4 transpose of 128-bit lanes gathers lane L of rows[0..4][k], which
            // is all of block 4L + k.
            // SAFETY: AVX-512F.
            let blocks =
                unsafe { transpose_lanes([rows[0][k], rows[1][k], rows[2][k], rows[3][k]]) };
            for (l, block) in blocks.into_iter().enumerate() {
                out[4 * l + k] = Zmm(block);
            }
        }
        out
    }
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 64 readable bytes.
        Zmm(unsafe { _mm512_loadu_si512(src.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 64 writable bytes.
        unsafe { _mm512_storeu_si512(dst.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, _before: usize) {
        // SAFETY: AVX-512BW; masked-off bytes are neither read nor written and cannot
        // fault, so only the `rem` bytes the caller vouches for are touched.
        unsafe {
            let mask: __mmask64 = (1u64 << rem) - 1;
            let data = _mm512_maskz_loadu_epi8(mask, input.cast());
            _mm512_mask_storeu_epi8(output.cast(), mask, _mm512_xor_si512(data, self.0));
        }
    }
}

/// Transposes four vectors viewed as 4x4 matrices of 128-bit lanes: lane `l` of
/// result `k` is lane `k` of input `l`.
///
/// # Safety
/// The CPU has AVX-512F.
#[inline(always)]
unsafe fn transpose_lanes(r: [__m512i; 4]) -> [__m512i; 4] {
    // SAFETY: AVX-512F, as the caller guarantees.
    unsafe {
        let lanes01_of_r01 = _mm512_shuffle_i32x4::<0b01_00_01_00>(r[0], r[1]);
        let lanes23_of_r01 = _mm512_shuffle_i32x4::<0b11_10_11_10>(r[0], r[1]);
        let lanes01_of_r23 = _mm512_shuffle_i32x4::<0b01_00_01_00>(r[2], r[3]);
        let lanes23_of_r23 = _mm512_shuffle_i32x4::<0b11_10_11_10>(r[2], r[3]);
        [
            _mm512_shuffle_i32x4::<0b10_00_10_00>(lanes01_of_r01, lanes01_of_r23),
            _mm512_shuffle_i32x4::<0b11_01_11_01>(lanes01_of_r01, lanes01_of_r23),
            _mm512_shuffle_i32x4::<0b10_00_10_00>(lanes23_of_r01, lanes23_of_r23),
            _mm512_shuffle_i32x4::<0b11_01_11_01>(lanes23_of_r01, lanes23_of_r23),
        ]
    }
}

// SAFETY: AVX-512F only; callers of `Zmm` guarantee it.
unsafe impl Rows for Zmm {
    #[inline(always)]
    unsafe fn row(words: &[u32; 16], r: usize) -> Self {
        // SAFETY: AVX-512F; `r < 4`, so the 16 bytes read are within `words`.
        Zmm(unsafe { _mm512_broadcast_i32x4(_mm_loadu_si128(words.as_ptr().add(4 * r).cast())) })
    }
    #[inline(always)]
    unsafe fn counter_row(tail: [u32; 3], counter: u64) -> Self {
        let lane = |i: u64| {
            let c = counter.wrapping_add(i);
            [
                c as u32 as i32,
                tail[0].wrapping_add((c >> 32) as u32) as i32,
            ]
        };
        let (w14, w15) = (tail[1] as i32, tail[2] as i32);
        let [l0, l1, l2, l3] = [lane(0), lane(1), lane(2), lane(3)];
        // SAFETY: AVX-512F.
        Zmm(unsafe {
            _mm512_setr_epi32(
                l0[0], l0[1], w14, w15, l1[0], l1[1], w14, w15, l2[0], l2[1], w14, w15, l3[0],
                l3[1], w14, w15,
            )
        })
    }
    #[inline(always)]
    unsafe fn rotate_words<const N: i32>(self) -> Self {
        // SAFETY: AVX-512F.
        Zmm(unsafe {
            match N {
                1 => _mm512_shuffle_epi32::<{ rotate_words_imm(1) }>(self.0),
                2 => _mm512_shuffle_epi32::<{ rotate_words_imm(2) }>(self.0),
                _ => _mm512_shuffle_epi32::<{ rotate_words_imm(3) }>(self.0),
            }
        })
    }
    #[inline(always)]
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4] {
        // Lane l of every row belongs to block l: gather each block's four rows.
        // SAFETY: AVX-512F.
        unsafe { transpose_lanes(rows.map(|r| r.0)).map(Zmm) }
    }
}
