//! Poly1305 across messages on AVX-512 IFMA: eight messages, one per 64-bit lane, with
//! the 44/44/42-bit limbs and 52-bit multiplies of [`super::ifma`] (its `mul`, `carry`
//! and the bounds stated there: a lane's multiplier is its own `r`, below the powers of
//! `r` that backend multiplies by, and its accumulator is carried after every step
//! exactly as there).

use core::arch::x86_64::*;

use super::ifma::{Limbs, Mult, add, carry, join44, limbs, mul, split44};
use super::lanes::{MacJob, MacLanes};

/// Eight accumulators (carried) and their multipliers `r`, `20·r1`, `20·r2`.
pub(super) struct IfmaLanes {
    h: Limbs,
    r: Mult,
}

// SAFETY: AVX-512F, IFMA and AVX2 only; `tags` below is the one caller, with those
// features.
unsafe impl MacLanes for IfmaLanes {
    const LANES: usize = 8;

    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: AVX-512F, per the caller.
        let zero = unsafe { _mm512_setzero_si512() };
        IfmaLanes {
            h: [zero; 3],
            r: [zero; 5],
        }
    }

    #[inline(always)]
    unsafe fn start(&mut self, lane: usize, [r0, r1]: [u64; 2]) {
        let [b0, b1, b2] = split44([r0, r1, 0]);
        let values = [b0, b1, b2, 20 * b1, 20 * b2];
        let bit: __mmask8 = 1 << lane;
        // SAFETY: AVX-512F, per the caller.
        unsafe {
            for (v, x) in self.r.iter_mut().zip(values) {
                *v = _mm512_mask_set1_epi64(*v, bit, x as i64);
            }
            for v in &mut self.h {
                *v = _mm512_mask_set1_epi64(*v, bit, 0);
            }
        }
    }

    #[inline(always)]
    unsafe fn step(&mut self, p: &[*const u8; 8]) {
        // SAFETY: AVX-512F, IFMA and AVX2, per the caller; 16 readable bytes at each pointer
        // (the trait's contract).
        unsafe {
            macro_rules! pair {
                ($a:expr, $b:expr) => {
                    _mm256_inserti128_si256::<1>(
                        _mm256_castsi128_si256(_mm_loadu_si128($a.cast())),
                        _mm_loadu_si128($b.cast()),
                    )
                };
            }
            // Blocks 0, 2, 4, 6 in one vector and 1, 3, 5, 7 in the other: unpacking
            // their 64-bit halves within each 128-bit lane puts block `l` in lane `l`.
            let even = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(pair!(p[0], p[2])),
                pair!(p[4], p[6]),
            );
            let odd = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(pair!(p[1], p[3])),
                pair!(p[5], p[7]),
            );
            let m = limbs(
                _mm512_unpacklo_epi64(even, odd),
                _mm512_unpackhi_epi64(even, odd),
                0xff,
            );
            self.h = carry(mul(&add(&self.h, &m), &self.r));
        }
    }

    #[inline(always)]
    unsafe fn accumulators(&self, which: u8, out: &mut [[u64; 3]; 8]) {
        let mut t = [[0u64; 8]; 3];
        // SAFETY: AVX-512F, per the caller; each store writes one row of `t`.
        unsafe {
            for (row, v) in t.iter_mut().zip(&self.h) {
                _mm512_storeu_si512(row.as_mut_ptr().cast(), *v);
            }
        }
        for (lane, h) in out.iter_mut().enumerate() {
            if which & (1 << lane) != 0 {
                *h = join44([t[0][lane], t[1][lane], t[2][lane]]);
            }
        }
        crate::wipe::wipe(&mut t);
    }

    #[inline(always)]
    fn wipe(&mut self) {
        // SAFETY: a valid, exclusively borrowed value; all-zero vectors are valid.
        unsafe { core::ptr::write_volatile(self, core::mem::zeroed()) };
    }
}

/// [`super::lanes::tags`] on IFMA.
///
/// # Safety
/// The CPU has AVX-512F, AVX-512 IFMA and AVX2 (what
/// [`super::Poly1305Backend::Avx512Ifma`] requires).
#[target_feature(enable = "avx512f,avx512ifma,avx2")]
pub(crate) unsafe fn tags(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    // SAFETY: the features `IfmaLanes` needs, per the caller.
    unsafe { super::lanes::tags::<IfmaLanes>(jobs, tags) }
}
