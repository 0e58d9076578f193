//! Poly1305 on AVX2: four blocks at a time, 26-bit limbs in 64-bit lanes.
//!
//! # The math
//!
//! With `p = 2^130 - 5`, absorbing blocks `m_0 … m_{n-1}` (each with its 2^128 bit)
//! into `h` is Horner's rule, `h' = (…((h + m_0)·r + m_1)·r … + m_{n-1})·r`, i.e.
//!
//! ```text
//! h' = h·r^n + Σ_i m_i·r^(n-i)          (mod p)
//! ```
//!
//! For `n = 4K`, write block `i = 4k + j` (lane `j`, step `k`); its exponent is
//! `4(K-1-k) + (4-j)`, so
//!
//! ```text
//! h' = Σ_j r^(4-j) · A_j,   A_j = Σ_k m_(4k+j) · r^(4(K-1-k))   (+ h·r^(4(K-1)) in A_0)
//! ```
//!
//! Each `A_j` is its own Horner chain in `r⁴`: start with `A = (h + m_0, m_1, m_2, m_3)`,
//! then for every further group of four blocks `A ← A·r⁴ + (m_4k, …, m_4k+3)`; finally
//! multiply lane `j` by `r^(4-j)` and add the four lanes. The lanes are independent, so
//! one 256-bit vector carries all four chains and a multiplication costs the same for
//! four blocks as the scalar code pays for one.
//!
//! # Limbs
//!
//! `_mm256_mul_epu32` multiplies the low 32 bits of each 64-bit lane into a 64-bit
//! product, so a 130-bit number is five 26-bit limbs, `x = Σ x_i·2^(26i)`, one vector
//! per limb (lane `j` of vector `i` is limb `i` of lane `j`'s number). A product
//! `a·b` has columns `d_k = Σ_{i+l=k} a_i·b_l`; the columns `k ≥ 5` sit at
//! `2^(130 + 26(k-5))` and `2^130 ≡ 5`, so they fold down as `5·b_l`:
//!
//! ```text
//! d0 = a0·b0 + a1·5b4 + a2·5b3 + a3·5b2 + a4·5b1
//! d1 = a0·b1 + a1·b0  + a2·5b4 + a3·5b3 + a4·5b2
//! d2 = a0·b2 + a1·b1  + a2·b0  + a3·5b4 + a4·5b3
//! d3 = a0·b3 + a1·b2  + a2·b1  + a3·b0  + a4·5b4
//! d4 = a0·b4 + a1·b3  + a2·b2  + a3·b1  + a4·b0
//! ```
//!
//! Bounds (why nothing overflows): the powers of `r` come from the portable code with
//! its top 64-bit limb at most 4, so their 26-bit limbs are below `2^26` except the top
//! one, below `5·2^24`; every `5·b_l < 2^29` fits the multiplier's 32 bits. The
//! accumulator's limbs are below `2^26 + 2^10` after [`carry`] and below `2^27.4` once a
//! message block is added (a block's top limb is below `2^25`; on entry `h`'s top limb is
//! below `5·2^24`). So each product is below `2^27.4 · 2^28.7 < 2^56.1`, a column below
//! `2^58.5`, the four lanes' sum of a column below `2^60.5`: all inside 64 bits.
//!
//! # Layout and hand-off
//!
//! Two 32-byte loads give blocks (0, 1) and (2, 3); interleaving their 64-bit halves
//! puts blocks 0, 2, 1, 3 in lanes 0..4, so the final multipliers are
//! `(r⁴, r², r³, r)` in that lane order. The portable state (`h` in 64-bit limbs, top
//! limb ≤ 4) is split into 26-bit limbs on entry and, after the lanes are summed, fully
//! carried and reassembled on exit — so the portable code and this one can take turns
//! on one MAC at any block boundary, and the tag (a function of `h mod p` only) does
//! not depend on which took which blocks.
//!
//! Constant time: the only branches and indices depend on the length of the input.

use core::arch::x86_64::*;

use super::portable::MacState;
use crate::wipe::wipe;

/// Runs of fewer blocks than this stay on the portable code: building the powers of
/// `r` (three scalar multiplications and the tables, per run), moving `h` in and out
/// and the final lane combine are a fixed cost per run that only a longer run repays.
///
/// 20 is where AVX2 overtook the portable code for the MAC alone (d68dce4). The faster
/// portable loop (`mul_r_plus`) later moved the MAC's own break-even above 20, but the
/// AEAD, this path's main user, sealed slower with 30, so it stays 20 (b678f61).
/// Figures: `docs/tuning.md`.
pub(crate) const MIN_BLOCKS: usize = 20;

/// `2^26 - 1`.
const MASK26: u64 = (1 << 26) - 1;

/// The multipliers `blocks4` needs, built from `r`, `r²`, `r³`, `r⁴` on the stack for
/// each AVX2 run and wiped after it.
///
/// Not cached in the MAC state: the AEAD makes one AVX2 run per message anyway, and
/// a state carrying ~300 bytes of table made every by-value move of a `Poly1305` a
/// `memmove` call, which slowed the short seals that never use the table (08ac101).
/// An incremental MAC fed in large pieces pays the three multiplications per piece
/// instead, small beside a piece of 1 KiB or more.
///
/// Each row is four 32-bit lanes (packed in pairs into `u64`s) that one
/// zero-extending `vpmovzxdq` load turns into a vector of four 64-bit lanes: rows 0..5
/// are limbs 0..5 of the multiplier, rows 5..9 limbs 1..5 of five times it (the `5·b`
/// of the product; each below `2^30`). See [`blocks4`] for why it loads them rather
/// than keeping them in registers.
pub(crate) struct Powers {
    /// `r⁴` in every lane: the Horner step.
    r4: [[u64; 2]; 9],
    /// `(r⁴, r², r³, r)` in lanes 0..4: the final combine (lanes hold blocks 0, 2, 1,
    /// 3 of a group).
    last: [[u64; 2]; 9],
}

impl Powers {
    /// The table for `state`'s `r`.
    fn new(state: &MacState) -> Self {
        let r = [state.r[0], state.r[1], 0];
        let r2 = state.times_r(r);
        let r3 = state.times_r(r2);
        let r4 = state.times_r(r3);
        // Every limb is below 5·2^24 (see the module comment).
        let [r, r2, r3, r4] = [r, r2, r3, r4].map(split26);
        Powers {
            r4: rows([r4; 4]),
            last: rows([r4, r2, r3, r]),
        }
    }
}

impl Drop for Powers {
    fn drop(&mut self) {
        wipe(&mut self.r4);
        wipe(&mut self.last);
    }
}

/// The 9 rows of [`Powers`] for the multipliers `lanes[0..4]` (26-bit limbs), lane by
/// lane.
fn rows(lanes: [[u64; 5]; 4]) -> [[u64; 2]; 9] {
    core::array::from_fn(|row| {
        let limb = |lane: usize| {
            let x = if row < 5 {
                lanes[lane][row]
            } else {
                5 * lanes[lane][row - 4]
            };
            debug_assert!(x < 1 << 30);
            x
        };
        [limb(0) | (limb(1) << 32), limb(2) | (limb(3) << 32)]
    })
}

/// A 130-bit number in 64-bit limbs (top limb small) split into five 26-bit limbs;
/// the top one keeps whatever is above bit 104.
#[inline(always)]
pub(super) fn split26([h0, h1, h2]: [u64; 3]) -> [u64; 5] {
    [
        h0 & MASK26,
        (h0 >> 26) & MASK26,
        ((h0 >> 52) | (h1 << 12)) & MASK26,
        (h1 >> 14) & MASK26,
        (h1 >> 40) | (h2 << 24),
    ]
}

/// Five 26-bit-radix column sums (each below `2^62`) carried into the portable
/// form: 64-bit limbs with the top one at most 4.
#[inline(always)]
pub(super) fn join26(mut t: [u64; 5]) -> [u64; 3] {
    // First pass: every limb below 2^26, the carry out of the top folded back as ×5
    // (it is below 2^36, so t[0] < 2^39).
    for i in 0..4 {
        t[i + 1] += t[i] >> 26;
        t[i] &= MASK26;
    }
    let c = t[4] >> 26;
    t[4] &= MASK26;
    t[0] += c * 5;
    // Second pass: carries of at most 2^13, then at most 1, so t[4] <= 2^26 and the
    // top 64-bit limb, t[4] >> 24, is at most 4.
    for i in 0..4 {
        t[i + 1] += t[i] >> 26;
        t[i] &= MASK26;
    }
    debug_assert!(t[4] <= 1 << 26);
    [
        t[0] | (t[1] << 26) | (t[2] << 52),
        (t[2] >> 12) | (t[3] << 14) | (t[4] << 40),
        t[4] >> 24,
    ]
}

/// Absorbs the full blocks of `data` (a multiple of 16 bytes) four at a time with
/// AVX2; the blocks past the last multiple of four with the portable code.
///
/// # Safety
/// The CPU has AVX2, and `data` holds at least [`MIN_BLOCKS`] blocks: the dispatcher
/// decides once, and this does not check again.
// Out of line: the dispatcher is inlined into every MAC, and its short-run path
// should not carry this function's frame.
#[inline(never)]
pub(crate) unsafe fn blocks(state: &mut MacState, data: &[u8]) {
    debug_assert_eq!(data.len() % 16, 0);
    debug_assert!(data.len() / 16 >= MIN_BLOCKS);
    let vector_len = data.len() & !63;
    let powers = Powers::new(state);
    let (head, tail) = data.split_at(vector_len);
    // SAFETY: the CPU has AVX2 (the caller's guarantee); `head` is a non-empty multiple
    // of 64 bytes (at least MIN_BLOCKS >= 4 blocks, rounded down to a multiple of 4).
    unsafe { blocks4(&mut state.h, &powers, head) };
    drop(powers);
    state.blocks(tail, 1);
}

/// Five limb vectors: lane `j` of `[i]` is limb `i` of lane `j`'s number.
pub(super) type Limbs = [__m256i; 5];

// The helpers below are `#[inline(always)]` without `target_feature`, called only from
// the AVX2 entry point `blocks4`, so their intrinsics inline into AVX2 code. They use
// no closures: a closure is a function of its own, without the entry point's
// features, and would leave its intrinsics as calls.

#[inline(always)]
pub(super) unsafe fn add(a: &Limbs, b: &Limbs) -> Limbs {
    // SAFETY: AVX2, per the caller.
    unsafe {
        [
            _mm256_add_epi64(a[0], b[0]),
            _mm256_add_epi64(a[1], b[1]),
            _mm256_add_epi64(a[2], b[2]),
            _mm256_add_epi64(a[3], b[3]),
            _mm256_add_epi64(a[4], b[4]),
        ]
    }
}

/// A multiplier and five times it from the 9 rows at `rows` (see [`Powers`]).
///
/// # Safety
/// AVX2; `rows` points at 9 readable rows.
#[inline(always)]
pub(super) unsafe fn load_rows(rows: *const [u64; 2]) -> (Limbs, Limbs) {
    // SAFETY: AVX2 and the 9 rows, per the caller.
    unsafe {
        macro_rules! row {
            ($k:literal) => {
                _mm256_cvtepu32_epi64(_mm_loadu_si128(rows.add($k).cast()))
            };
        }
        let b = [row!(0), row!(1), row!(2), row!(3), row!(4)];
        // b5[0] is never used: the columns need 5·b_l for l in 1..5 only.
        let b5 = [b[0], row!(5), row!(6), row!(7), row!(8)];
        (b, b5)
    }
}

/// The column sums of `a·b mod p` (uncarried; see the module comment), lane by lane.
/// `b5` is `5·b`.
#[inline(always)]
pub(super) unsafe fn mul(a: &Limbs, b: &Limbs, b5: &Limbs) -> Limbs {
    macro_rules! m {
        ($x:expr, $y:expr) => {
            _mm256_mul_epu32($x, $y)
        };
    }
    macro_rules! sum5 {
        ($p:expr, $q:expr, $r:expr, $s:expr, $t:expr) => {
            _mm256_add_epi64(
                _mm256_add_epi64(_mm256_add_epi64($p, $q), _mm256_add_epi64($r, $s)),
                $t,
            )
        };
    }
    let [a0, a1, a2, a3, a4] = *a;
    let [b0, b1, b2, b3, b4] = *b;
    let [_, c1, c2, c3, c4] = *b5;
    // SAFETY: AVX2, per the caller.
    unsafe {
        [
            sum5!(m!(a0, b0), m!(a1, c4), m!(a2, c3), m!(a3, c2), m!(a4, c1)),
            sum5!(m!(a0, b1), m!(a1, b0), m!(a2, c4), m!(a3, c3), m!(a4, c2)),
            sum5!(m!(a0, b2), m!(a1, b1), m!(a2, b0), m!(a3, c4), m!(a4, c3)),
            sum5!(m!(a0, b3), m!(a1, b2), m!(a2, b1), m!(a3, b0), m!(a4, c4)),
            sum5!(m!(a0, b4), m!(a1, b3), m!(a2, b2), m!(a3, b1), m!(a4, b0)),
        ]
    }
}

/// Partly carries column sums (each below `2^59`) back to limbs that fit the next
/// multiplication: two interleaved chains, 0→1→2→3 and 3→4→0(×5)→1, leave limbs 0, 2
/// and 3 below `2^26` and limbs 1 and 4 below `2^26 + 2^10`.
#[inline(always)]
pub(super) unsafe fn carry(d: Limbs) -> Limbs {
    // SAFETY: AVX2, per the caller.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK26 as i64);
        macro_rules! hi {
            ($x:expr) => {
                _mm256_srli_epi64::<26>($x)
            };
        }
        macro_rules! lo {
            ($x:expr) => {
                _mm256_and_si256($x, mask)
            };
        }
        let [d0, d1, d2, d3, d4] = d;
        let (d1, d0) = (_mm256_add_epi64(d1, hi!(d0)), lo!(d0));
        let (d4, d3) = (_mm256_add_epi64(d4, hi!(d3)), lo!(d3));
        let (d2, d1) = (_mm256_add_epi64(d2, hi!(d1)), lo!(d1));
        let c = hi!(d4);
        let c5 = _mm256_add_epi64(c, _mm256_slli_epi64::<2>(c));
        let (d0, d4) = (_mm256_add_epi64(d0, c5), lo!(d4));
        let (d3, d2) = (_mm256_add_epi64(d3, hi!(d2)), lo!(d2));
        let (d1, d0) = (_mm256_add_epi64(d1, hi!(d0)), lo!(d0));
        let (d4, d3) = (_mm256_add_epi64(d4, hi!(d3)), lo!(d3));
        [d0, d1, d2, d3, d4]
    }
}

/// Four blocks at `p` (with their 2^128 bits) as limbs, blocks 0, 2, 1, 3 in lanes
/// 0..4.
///
/// # Safety
/// AVX2; 64 readable bytes at `p`.
#[inline(always)]
unsafe fn load4(p: *const u8) -> Limbs {
    // SAFETY: AVX2 and the 64 bytes, per the caller; unaligned loads.
    unsafe {
        let v0 = _mm256_loadu_si256(p.cast());
        let v1 = _mm256_loadu_si256(p.add(32).cast());
        // Low and high 64-bit halves of blocks 0, 2, 1, 3.
        limbs(_mm256_unpacklo_epi64(v0, v1), _mm256_unpackhi_epi64(v0, v1))
    }
}

/// The limbs of the four blocks whose halves `lo` and `hi` (the two 64-bit words of
/// each, lane by lane) hold, with their 2^128 bits.
#[inline(always)]
pub(super) unsafe fn limbs(lo: __m256i, hi: __m256i) -> Limbs {
    // SAFETY: AVX2, per the caller.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK26 as i64);
        [
            _mm256_and_si256(lo, mask),
            _mm256_and_si256(_mm256_srli_epi64::<26>(lo), mask),
            _mm256_and_si256(
                _mm256_or_si256(_mm256_srli_epi64::<52>(lo), _mm256_slli_epi64::<12>(hi)),
                mask,
            ),
            _mm256_and_si256(_mm256_srli_epi64::<14>(hi), mask),
            // Bits 104..128 and the 2^128 bit (bit 24 of this limb).
            _mm256_or_si256(_mm256_srli_epi64::<40>(hi), _mm256_set1_epi64x(1 << 24)),
        ]
    }
}

/// The sum of the four lanes.
#[inline(always)]
unsafe fn lane_sum(v: __m256i) -> u64 {
    // SAFETY: AVX2, per the caller.
    unsafe {
        let x = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_add_epi64(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(x) as u64
    }
}

/// Absorbs `data` (a non-empty multiple of 64 bytes) into `h` four blocks at a time.
///
/// Written so that every operand of every `vpmuludq` is visibly below `2^32` *inside
/// its own basic block*: LLVM's instruction selection knows nothing of the upper
/// halves of vector values from another block (a loop-invariant hoisted out of the
/// loop, a value carried around it), and for an operand it cannot prove small it
/// emulates a 64×32-bit multiply — an extra multiply, two shifts and an add — which
/// once cost 15 of the 25 products in the loop. So the loop
///
/// - carries the *uncarried* column sums `d` from one iteration to the next and
///   carries them at the top of the next (the masks make the limbs visibly small);
/// - reloads `r⁴` and `5·r⁴` every iteration as zero-extending loads through a
///   pointer the optimizer cannot see into (so it cannot hoist them out).
///
/// With both, the loop has one multiply per product, 25 per 64 bytes, and no
/// emulated ones (f7de0df; the instruction counts and speed-up are in
/// `docs/tuning.md`).
///
/// # Safety
/// The CPU has AVX2.
#[target_feature(enable = "avx2")]
unsafe fn blocks4(h: &mut [u64; 3], powers: &Powers, data: &[u8]) {
    let (groups, rest) = data.as_chunks::<64>();
    debug_assert!(rest.is_empty());
    // Panics (rather than reading anything) if there is no group.
    let (last, init) = groups.split_last().expect("at least 4 blocks");
    // SAFETY: AVX2 per the caller; every `load4` reads one 64-byte group of `data`;
    // `powers.r4` and `powers.last` are 9 rows each.
    unsafe {
        // h in lane 0. Its limbs are below 2^26 (the top one below 5·2^24, since
        // h[2] <= 4), so `carry` leaves it as it is: it can start as the loop's "d".
        let h26 = split26(*h);
        debug_assert!(h26[4] < 5 << 24);
        let mut d: Limbs = [
            _mm256_setr_epi64x(h26[0] as i64, 0, 0, 0),
            _mm256_setr_epi64x(h26[1] as i64, 0, 0, 0),
            _mm256_setr_epi64x(h26[2] as i64, 0, 0, 0),
            _mm256_setr_epi64x(h26[3] as i64, 0, 0, 0),
            _mm256_setr_epi64x(h26[4] as i64, 0, 0, 0),
        ];
        for group in init {
            let (r4, r4x5) = load_rows(core::hint::black_box(powers.r4.as_ptr()));
            d = mul(&add(&carry(d), &load4(group.as_ptr())), &r4, &r4x5);
        }
        // The last group: lanes hold its blocks 0, 2, 1, 3, times r⁴, r², r³, r.
        let acc = add(&carry(d), &load4(last.as_ptr()));
        let (b, b5) = load_rows(powers.last.as_ptr());
        let d = mul(&acc, &b, &b5);
        *h = join26([
            lane_sum(d[0]),
            lane_sum(d[1]),
            lane_sum(d[2]),
            lane_sum(d[3]),
            lane_sum(d[4]),
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel_checks::{
        kernel_matches_portable_from_extreme_states, radix_round_trips_at_the_extremes,
    };
    use super::*;

    /// `blocks4` on runs of 4..=44 blocks (a multiple of 4, as the dispatcher gives it).
    #[test]
    fn blocks4_matches_portable_from_extreme_states() {
        if !cpu_has!("avx2") {
            return;
        }
        kernel_matches_portable_from_extreme_states((4..=44).step_by(4), |state, data| {
            let powers = Powers::new(state);
            // SAFETY: AVX2 checked above; `data` is a non-empty multiple of 64 bytes.
            unsafe { blocks4(&mut state.h, &powers, data) };
        });
    }

    #[test]
    fn split_and_join_round_trip_at_the_extremes() {
        radix_round_trips_at_the_extremes(split26, join26, 26);
    }
}
