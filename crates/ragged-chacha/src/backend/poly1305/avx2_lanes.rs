//! Poly1305 across messages on AVX2: four messages, one per 64-bit lane, with the
//! 26-bit limbs and `vpmuludq` products of [`super::avx2`] (its `mul`, `carry` and the
//! bounds stated there: a lane's multiplier is its own `r`, below the powers of `r`
//! that backend multiplies by).
//!
//! As there, every operand of every multiply must be visibly below 2^32 to LLVM
//! inside the step, or it emulates a wider multiply: the accumulators are kept as the
//! uncarried column sums and carried at the top of the next step, and the
//! multipliers are reloaded every step, zero-extended, from a table the optimizer
//! cannot see into (see `super::avx2::blocks4`).

use core::arch::x86_64::*;

use super::avx2::{Limbs, add, carry, join26, limbs, load_rows, mul, split26};
use super::lanes::{MacJob, MacLanes};
use crate::wipe::wipe;

/// The average blocks a message from which the AVX2 lanes take a burst's MACs
/// ([`super::lanes::refilled_lanes_pay`]).
pub(super) const LONG: usize = 32;

/// Four accumulators (uncarried column sums) and the table of their multipliers: row
/// `i < 5` holds limb `i` of each lane's `r`, rows `5..9` limbs `1..5` of `5·r`, a
/// 32-bit word a lane.
pub(super) struct Avx2Lanes {
    d: Limbs,
    rows: [[u32; 4]; 9],
}

// SAFETY: AVX2 only; `tags` below is the one caller, with that feature.
unsafe impl MacLanes for Avx2Lanes {
    const LANES: usize = 4;

    #[inline(always)]
    unsafe fn new() -> Self {
        // SAFETY: AVX2, per the caller.
        let zero = unsafe { _mm256_setzero_si256() };
        Avx2Lanes {
            d: [zero; 5],
            rows: [[0; 4]; 9],
        }
    }

    #[inline(always)]
    unsafe fn start(&mut self, lane: usize, [r0, r1]: [u64; 2]) {
        let r = split26([r0, r1, 0]);
        for (i, limb) in r.iter().enumerate() {
            self.rows[i][lane] = *limb as u32;
            if i > 0 {
                self.rows[4 + i][lane] = 5 * *limb as u32;
            }
        }
        // SAFETY: AVX2, per the caller.
        unsafe {
            let this = _mm256_cmpeq_epi64(
                _mm256_set1_epi64x(lane as i64),
                _mm256_setr_epi64x(0, 1, 2, 3),
            );
            for v in &mut self.d {
                *v = _mm256_andnot_si256(this, *v);
            }
        }
    }

    #[inline(always)]
    unsafe fn step(&mut self, p: &[*const u8; 8]) {
        // SAFETY: AVX2, per the caller; 16 readable bytes at each of the first four
        // pointers (the trait's contract); the table has its 9 rows.
        unsafe {
            macro_rules! pair {
                ($a:expr, $b:expr) => {
                    _mm256_inserti128_si256::<1>(
                        _mm256_castsi128_si256(_mm_loadu_si128($a.cast())),
                        _mm_loadu_si128($b.cast()),
                    )
                };
            }
            // Blocks 0, 2 in one vector and 1, 3 in the other: unpacking their 64-bit
            // halves within each 128-bit lane puts block `l` in lane `l`.
            let (even, odd) = (pair!(p[0], p[2]), pair!(p[1], p[3]));
            let m = limbs(
                _mm256_unpacklo_epi64(even, odd),
                _mm256_unpackhi_epi64(even, odd),
            );
            let table = core::hint::black_box(self.rows.as_ptr()).cast::<[u64; 2]>();
            let (b, b5) = load_rows(table);
            self.d = mul(&add(&carry(self.d), &m), &b, &b5);
        }
    }

    #[inline(always)]
    unsafe fn accumulators(&self, which: u8, out: &mut [[u64; 3]; 8]) {
        let mut t = [[0u64; 4]; 5];
        // SAFETY: AVX2, per the caller; each store writes one row of `t`.
        unsafe {
            for (row, v) in t.iter_mut().zip(&self.d) {
                _mm256_storeu_si256(row.as_mut_ptr().cast(), *v);
            }
        }
        for (lane, h) in out.iter_mut().enumerate().take(4) {
            if which & (1 << lane) != 0 {
                *h = join26([t[0][lane], t[1][lane], t[2][lane], t[3][lane], t[4][lane]]);
            }
        }
        wipe(&mut t);
    }

    #[inline(always)]
    fn wipe(&mut self) {
        wipe(&mut self.rows);
        // SAFETY: a valid, exclusively borrowed array; all-zero vectors are valid.
        unsafe { core::ptr::write_volatile(&mut self.d, core::mem::zeroed()) };
    }
}

/// [`super::lanes::tags`] on AVX2.
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn tags(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    // SAFETY: the feature `Avx2Lanes` needs, per the caller.
    unsafe { super::lanes::tags::<Avx2Lanes>(jobs, tags) }
}
