//! 512-bit lanes (16 blocks): AVX-512 F + BW, with native rotates and masked tails.

use core::arch::x86_64::*;

use super::xmm::transpose4;
use crate::backend::generic::Lanes;

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
    unsafe fn counters(counter: u64) -> (Self, Self) {
        // SAFETY: AVX-512F.
        unsafe {
            let base = _mm512_set1_epi32(counter as u32 as i32);
            let index = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
            let lo = _mm512_add_epi32(base, index);
            // Lanes whose low half wrapped carry one into the high half.
            let carried = _mm512_cmplt_epu32_mask(lo, base);
            let hi = _mm512_set1_epi32((counter >> 32) as u32 as i32);
            let hi = _mm512_mask_add_epi32(hi, carried, hi, _mm512_set1_epi32(1));
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
        let mut rows = [[x[0].0; 4]; 4];
        for (g, row) in rows.iter_mut().enumerate() {
            // SAFETY: AVX-512F.
            *row = unsafe {
                transpose4!(
                    _mm512_unpacklo_epi32,
                    _mm512_unpackhi_epi32,
                    _mm512_unpacklo_epi64,
                    _mm512_unpackhi_epi64,
                    x[4 * g].0,
                    x[4 * g + 1].0,
                    x[4 * g + 2].0,
                    x[4 * g + 3].0
                )
            };
        }
        let mut out = x;
        for k in 0..4 {
            // A 4x4 transpose of 128-bit lanes gathers lane L of rows[0..4][k], which
            // is all of block 4L + k.
            // SAFETY: AVX-512F.
            unsafe {
                let r = [rows[0][k], rows[1][k], rows[2][k], rows[3][k]];
                let lanes01_of_r01 = _mm512_shuffle_i32x4::<0b01_00_01_00>(r[0], r[1]);
                let lanes23_of_r01 = _mm512_shuffle_i32x4::<0b11_10_11_10>(r[0], r[1]);
                let lanes01_of_r23 = _mm512_shuffle_i32x4::<0b01_00_01_00>(r[2], r[3]);
                let lanes23_of_r23 = _mm512_shuffle_i32x4::<0b11_10_11_10>(r[2], r[3]);
                out[k] = Zmm(_mm512_shuffle_i32x4::<0b10_00_10_00>(
                    lanes01_of_r01,
                    lanes01_of_r23,
                ));
                out[4 + k] = Zmm(_mm512_shuffle_i32x4::<0b11_01_11_01>(
                    lanes01_of_r01,
                    lanes01_of_r23,
                ));
                out[8 + k] = Zmm(_mm512_shuffle_i32x4::<0b10_00_10_00>(
                    lanes23_of_r01,
                    lanes23_of_r23,
                ));
                out[12 + k] = Zmm(_mm512_shuffle_i32x4::<0b11_01_11_01>(
                    lanes23_of_r01,
                    lanes23_of_r23,
                ));
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
