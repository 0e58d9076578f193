//! Poly1305 on AVX-512 IFMA: eight blocks at a time, 52-bit multiplies on 44/44/42-bit
//! limbs in the eight 64-bit lanes of a `zmm` register.
//!
//! # The math
//!
//! The same lane split as [`super::avx2`], eight wide: for `n = 8K` blocks, lane `j`
//! carries the Horner chain in `r⁸` of blocks `j, j+8, j+16, …` (`h` added to block 0),
//! and at the end lane `j` is multiplied by `r^(8-j)` and the lanes are summed:
//!
//! ```text
//! h' = h·r^n + Σ_i m_i·r^(n-i) = Σ_j r^(8-j) · A_j,   A_j = Σ_k m_(8k+j)·r^(8(K-1-k))
//! ```
//!
//! One step of that chain (a multiply, its carry and the next group's add) is a chain
//! of dependent multiplies several times longer than the step's share of the IFMA
//! ports, so the groups run as two chains in `r¹⁶` side by side, one taking the even
//! groups and one the odd: `A_j = E_j·r^8 + O_j` where the odd chain ends with the last
//! group (`K` even), or `E_j + O_j·r^8` where the even one does (`K` odd). Each chain
//! fills the other's waits.
//!
//! A run whose length is not a multiple of eight blocks is padded *in front* with
//! `pad = -n mod 8` zero blocks (no 2^128 bit either): a zero block adds nothing to
//! `Σ m_i·r^(n-i)`, and `h` goes into the lane of the first real block, whose exponent
//! is exactly `n`. The padding is a masked load (the masked-off lanes are never read),
//! so every block of the run is absorbed here, in one pass, and nothing is left for
//! the portable code.
//!
//! # Limbs
//!
//! `vpmadd52luq` / `vpmadd52huq` multiply the low 52 bits of two lanes into a 104-bit
//! product and add its low or high 52 bits to a 64-bit accumulator. A 130-bit number is
//! three limbs `x = x0 + x1·2^44 + x2·2^88` (44, 44 and 42 bits when carried). The
//! columns of `a·b` at `2^132 = 4·2^130 ≡ 20` fold down as `20·b`:
//!
//! ```text
//! d0 = a0·b0 + a1·20b2 + a2·20b1      (at 2^0)
//! d1 = a0·b1 + a1·b0   + a2·20b2      (at 2^44)
//! d2 = a0·b2 + a1·b1   + a2·b0        (at 2^88)
//! ```
//!
//! Each column is accumulated as a low half `dk_lo` (the products' bits 0..52) and a
//! high half `dk_hi` (bits 52..104). The high half of column `k` sits at
//! `2^(44k + 52)`: `2^8` above column `k + 1` for `k = 0, 1`, and for `k = 2` at
//! `2^140 = 2^10·2^130 ≡ 5·2^10`. So the three uncarried column sums are
//!
//! ```text
//! t0 = d0_lo + 5·(d2_hi << 10),   t1 = d1_lo + (d0_hi << 8),   t2 = d2_lo + (d1_hi << 8)
//! ```
//!
//! Bounds (why nothing overflows or loses bits): every multiplier is a power of `r`
//! as [`powers`] leaves it: from the portable code (top 64-bit limb at most 4, so below
//! `5·2^128`: limbs below `2^44`, `2^44`, `2^42.4`) or carried by [`carry`] (limbs below
//! `2^44 + 2^15`, `2^44`, `2^42 + 2^11`); so `20·b1 < 2^48.4` and `20·b2 < 2^46.8` — all
//! inside the multiplier's 52 bits. The accumulator after [`carry`] has limbs below
//! `2^44 + 2^15`, `2^44` and `2^42 + 2^11`; a message block adds at most `2^44`,
//! `2^44`, `2^41`, so the multiplicands are below `2^45.1` (the powers multiplied in
//! [`powers`] are smaller still). Each product is below `2^93.5` (inside
//! 104 bits), its low half below `2^52`, its high half below `2^41.5`; so
//! `dk_lo < 2^53.6`, `dk_hi < 2^43.1`, `t0 < 2^56`, `t1, t2 < 2^54`. The two chains'
//! sum (one carried accumulator with a message block, the other carried and multiplied
//! by `r⁸`, carried) has limbs below `2^45.6`, so the final multiply's products stay
//! below `2^94.1`, `dk_hi < 2^43.6`, `t0 < 2^56.5`, and the final sums of eight lanes
//! below `2^59.5` (`join44` takes up to `2^62`).
//!
//! # Hand-off
//!
//! As for AVX2: the portable state (`h` in 64-bit limbs, top limb ≤ 4) is split into
//! 44-bit limbs on entry and, after the lanes are summed, carried and reassembled on
//! exit, so the backends can take turns on one MAC at any block boundary.
//!
//! Constant time: the only branches, masks and indices depend on the length of the
//! input; the multiplies are fixed-latency.

use core::arch::x86_64::*;

use super::portable::MacState;

/// Runs of fewer blocks than this go to the AVX2 backend (and, below its own threshold,
/// the portable code). The same as AVX2's threshold, so no run goes to AVX2 from here:
/// since the powers are built mostly in registers (aa021af), IFMA is ahead of the
/// portable code on Zen 4 from that threshold (20 blocks) on, and of AVX2 at every
/// length (measured in the commit that set it; docs/tuning.md, Poly1305). Other IFMA
/// cores are not measured.
pub(crate) const MIN_BLOCKS: usize = 20;

/// `2^44 - 1`.
pub(super) const MASK44: u64 = (1 << 44) - 1;
/// `2^42 - 1`.
pub(super) const MASK42: u64 = (1 << 42) - 1;

/// The block of a group (0..8) that lands in each 64-bit lane: the two 512-bit loads
/// hold blocks 0..4 and 4..8, and unpacking their low and high 64-bit halves
/// interleaves them.
const BLOCK_OF_LANE: [usize; 8] = [0, 4, 1, 5, 2, 6, 3, 7];

/// The lane of [`powers`]' table (lane `k` holds `r^(k+1)`) that holds each lane's
/// final multiplier, `r^(8 - block)` for the block in it.
const POWER_OF_LANE: [i64; 8] = {
    let mut of_lane = [0; 8];
    let mut lane = 0;
    while lane < 8 {
        of_lane[lane] = 7 - BLOCK_OF_LANE[lane] as i64;
        lane += 1;
    }
    of_lane
};

/// A 130-bit number in 64-bit limbs (top limb at most 7) split into 44/44/42-bit limbs;
/// the top one keeps whatever is above bit 88.
#[inline(always)]
pub(super) fn split44([h0, h1, h2]: [u64; 3]) -> [u64; 3] {
    [
        h0 & MASK44,
        ((h0 >> 44) | (h1 << 20)) & MASK44,
        (h1 >> 24) | (h2 << 40),
    ]
}

/// Three radix-2^44 column sums (each below `2^62`) carried into the portable form:
/// 64-bit limbs with the top one at most 4.
#[inline(always)]
pub(super) fn join44([mut t0, mut t1, mut t2]: [u64; 3]) -> [u64; 3] {
    // First pass: t0, t1 below 2^44, t2 below 2^42, the carry out of the top (below
    // 2^20) folded back ×5 into t0 (now below 2^44 + 2^23).
    t1 += t0 >> 44;
    t0 &= MASK44;
    t2 += t1 >> 44;
    t1 &= MASK44;
    t0 += 5 * (t2 >> 42);
    t2 &= MASK42;
    // Second pass: carries of at most 1, so t2 <= 2^42 and the top 64-bit limb,
    // t2 >> 40, is at most 4.
    t1 += t0 >> 44;
    t0 &= MASK44;
    t2 += t1 >> 44;
    t1 &= MASK44;
    debug_assert!(t2 <= 1 << 42);
    [t0 | (t1 << 44), (t1 >> 20) | (t2 << 24), t2 >> 40]
}

/// Absorbs the full blocks of `data` (a multiple of 16 bytes): runs of at least
/// [`MIN_BLOCKS`] with IFMA, all of them; shorter runs through [`super::avx2::blocks`].
///
/// # Safety
/// The CPU has AVX-512F, IFMA and AVX2 (what [`super::Poly1305Backend::Avx512Ifma`]
/// requires), and `data` holds at least [`super::avx2::MIN_BLOCKS`] blocks: the
/// dispatcher decides once, and this does not check again.
// Out of line: the dispatcher is inlined into every MAC, and its short-run path
// should not carry this function's frame.
#[inline(never)]
pub(crate) unsafe fn blocks(state: &mut MacState, data: &[u8]) {
    debug_assert_eq!(data.len() % 16, 0);
    if data.len() / 16 < MIN_BLOCKS {
        // SAFETY: the IFMA backend requires AVX2 too; the length is forwarded.
        unsafe { super::avx2::blocks(state, data) };
        return;
    }
    // SAFETY: the CPU has AVX-512F and IFMA (the caller's guarantee); `data` is a
    // non-empty multiple of 16 bytes (at least MIN_BLOCKS blocks).
    unsafe { blocks8(&mut state.h, state.r, data) };
}

/// Three limb vectors: lane `l` of `[i]` is limb (or column) `i` of lane `l`'s number.
pub(super) type Limbs = [__m512i; 3];

// The helpers below are `#[inline(always)]` without `target_feature`, called only from
// the entry point `blocks8`, so their intrinsics inline into its AVX-512 code. No
// closures: a closure is a function of its own, without the entry point's features.

/// A multiplier's five vectors: its three limbs, then `20·b1` and `20·b2`, lane by lane.
pub(super) type Mult = [__m512i; 5];

/// The multiplier form of `b` (limbs below `2^52 / 20`, as every carried power is).
#[inline(always)]
pub(super) unsafe fn mult([b0, b1, b2]: Limbs) -> Mult {
    // SAFETY: AVX-512F, per the caller.
    unsafe { [b0, b1, b2, times20(b1), times20(b2)] }
}

#[inline(always)]
unsafe fn times20(x: __m512i) -> __m512i {
    // SAFETY: AVX-512F, per the caller.
    unsafe { _mm512_add_epi64(_mm512_slli_epi64::<4>(x), _mm512_slli_epi64::<2>(x)) }
}

/// Each lane of `a`, or of `b` where `k` has the lane's bit.
#[inline(always)]
unsafe fn blend(k: __mmask8, a: &Limbs, b: &Limbs) -> Limbs {
    // SAFETY: AVX-512F, per the caller.
    unsafe {
        [
            _mm512_mask_blend_epi64(k, a[0], b[0]),
            _mm512_mask_blend_epi64(k, a[1], b[1]),
            _mm512_mask_blend_epi64(k, a[2], b[2]),
        ]
    }
}

/// Lane `idx[l]` of `a` in each lane `l`.
#[inline(always)]
unsafe fn permute(idx: __m512i, a: &Limbs) -> Limbs {
    // SAFETY: AVX-512F, per the caller.
    unsafe {
        [
            _mm512_permutexvar_epi64(idx, a[0]),
            _mm512_permutexvar_epi64(idx, a[1]),
            _mm512_permutexvar_epi64(idx, a[2]),
        ]
    }
}

/// `r, r², …, r⁸` in lanes 0..8: `r..r⁴` from the portable code (three scalar
/// multiplications, in registers) in lanes 0..4 and again in 4..8, where one lane-wise
/// multiplication by `r⁴` makes them `r⁵..r⁸` (carried). Seven scalar multiplications
/// one after the other, through a stack table that then had to be transposed and
/// wiped, made the setup a quarter of a 1420-byte message's MAC (docs/tuning.md,
/// Poly1305: `ifma::powers`).
#[inline(always)]
unsafe fn powers(r: [u64; 2]) -> Limbs {
    // SAFETY: AVX-512F and IFMA, per the caller.
    unsafe {
        let state = MacState { h: [0; 3], r };
        let r1 = [r[0], r[1], 0];
        let r2 = state.times_r(r1);
        let r3 = state.times_r(r2);
        let r4 = state.times_r(r3);
        let low = [r1, r2, r3, r4].map(split44);
        let r4 = split44(r4);
        let zero = _mm512_setzero_si512();
        let one = [_mm512_set1_epi64(1), zero, zero];
        let r4 = [
            _mm512_set1_epi64(r4[0] as i64),
            _mm512_set1_epi64(r4[1] as i64),
            _mm512_set1_epi64(r4[2] as i64),
        ];
        let twice = [twice4(&low, 0), twice4(&low, 1), twice4(&low, 2)];
        carry(mul(&twice, &mult(blend(0b1111_0000, &one, &r4))))
    }
}

/// Limb `i` of `p[0..4]` in lanes 0..4 and again in lanes 4..8.
#[inline(always)]
unsafe fn twice4(p: &[[u64; 3]; 4], i: usize) -> __m512i {
    let [a, b, c, d] = [p[0][i], p[1][i], p[2][i], p[3][i]].map(|x| x as i64);
    // SAFETY: AVX-512F, per the caller.
    unsafe { _mm512_setr_epi64(a, b, c, d, a, b, c, d) }
}

/// The uncarried column sums `t0, t1, t2` of `a·b mod p` (see the module comment),
/// lane by lane.
#[inline(always)]
pub(super) unsafe fn mul(a: &Limbs, b: &Mult) -> Limbs {
    let [a0, a1, a2] = *a;
    let [b0, b1, b2, s1, s2] = *b;
    // SAFETY: AVX-512F and IFMA, per the caller.
    unsafe {
        macro_rules! col {
            ($f:ident, $x:expr, $y:expr, $z:expr) => {
                $f($f($f(_mm512_setzero_si512(), a0, $x), a1, $y), a2, $z)
            };
        }
        let d0_lo = col!(_mm512_madd52lo_epu64, b0, s2, s1);
        let d0_hi = col!(_mm512_madd52hi_epu64, b0, s2, s1);
        let d1_lo = col!(_mm512_madd52lo_epu64, b1, b0, s2);
        let d1_hi = col!(_mm512_madd52hi_epu64, b1, b0, s2);
        let d2_lo = col!(_mm512_madd52lo_epu64, b2, b1, b0);
        let d2_hi = col!(_mm512_madd52hi_epu64, b2, b1, b0);
        // 5·(d2_hi << 10): the ×5 as a 52-bit multiply (5·d2_hi < 2^45.5 is all in the
        // low half), then the shift. Written as two shifts and an add, LLVM merges them
        // into a 64-bit multiply by 5·2^10, which AVX-512F lacks (no AVX512DQ
        // `vpmullq`) and emulates with two `vpmuludq`, shifts and adds.
        let wrap = _mm512_slli_epi64::<10>(_mm512_madd52lo_epu64(
            _mm512_setzero_si512(),
            d2_hi,
            _mm512_set1_epi64(5),
        ));
        [
            _mm512_add_epi64(d0_lo, wrap),
            _mm512_add_epi64(d1_lo, _mm512_slli_epi64::<8>(d0_hi)),
            _mm512_add_epi64(d2_lo, _mm512_slli_epi64::<8>(d1_hi)),
        ]
    }
}

/// Partly carries column sums (`t0 < 2^56`, `t1, t2 < 2^54`) back to limbs for the next
/// multiplication, in two short parallel chains (0→1 with 2→0 (×5), then 1→2): limbs
/// below `2^44 + 2^15`, `2^44` and `2^42 + 2^11`.
#[inline(always)]
pub(super) unsafe fn carry([t0, t1, t2]: Limbs) -> Limbs {
    // SAFETY: AVX-512F, per the caller.
    unsafe {
        let m44 = _mm512_set1_epi64(MASK44 as i64);
        let m42 = _mm512_set1_epi64(MASK42 as i64);
        let c0 = _mm512_srli_epi64::<44>(t0);
        let c2 = _mm512_srli_epi64::<42>(t2);
        let t0 = _mm512_and_si512(t0, m44);
        let t2 = _mm512_and_si512(t2, m42);
        let t1 = _mm512_add_epi64(t1, c0);
        let t0 = _mm512_add_epi64(t0, _mm512_add_epi64(c2, _mm512_slli_epi64::<2>(c2)));
        let c1 = _mm512_srli_epi64::<44>(t1);
        let t1 = _mm512_and_si512(t1, m44);
        let t2 = _mm512_add_epi64(t2, c1);
        [t0, t1, t2]
    }
}

/// The limbs of the eight blocks whose halves `lo` and `hi` (the two 64-bit words of
/// each, lane by lane) hold, with the 2^128 bit in the lanes of `real` (the others are
/// padding: zero, and they stay zero).
#[inline(always)]
pub(super) unsafe fn limbs(lo: __m512i, hi: __m512i, real: __mmask8) -> Limbs {
    // SAFETY: AVX-512F, per the caller.
    unsafe {
        let m44 = _mm512_set1_epi64(MASK44 as i64);
        [
            _mm512_and_si512(lo, m44),
            _mm512_and_si512(
                _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
                m44,
            ),
            // Bits 88..128, and the 2^128 bit at bit 40.
            _mm512_or_si512(
                _mm512_srli_epi64::<24>(hi),
                _mm512_maskz_set1_epi64(real, 1 << 40),
            ),
        ]
    }
}

/// Eight whole blocks at `p` as limbs, blocks 0..8 in the lanes of [`BLOCK_OF_LANE`].
///
/// # Safety
/// AVX-512F; 128 readable bytes at `p`.
#[inline(always)]
unsafe fn load8(p: *const u8) -> Limbs {
    // SAFETY: AVX-512F and the 128 bytes, per the caller; unaligned loads.
    unsafe {
        let v0 = _mm512_loadu_si512(p.cast());
        let v1 = _mm512_loadu_si512(p.add(64).cast());
        limbs(
            _mm512_unpacklo_epi64(v0, v1),
            _mm512_unpackhi_epi64(v0, v1),
            0xff,
        )
    }
}

#[inline(always)]
pub(super) unsafe fn add(a: &Limbs, b: &Limbs) -> Limbs {
    // SAFETY: AVX-512F, per the caller.
    unsafe {
        [
            _mm512_add_epi64(a[0], b[0]),
            _mm512_add_epi64(a[1], b[1]),
            _mm512_add_epi64(a[2], b[2]),
        ]
    }
}

/// Absorbs `data` (a non-empty multiple of 16 bytes) into `h`, eight blocks at a time
/// (the first group padded in front to make the count a multiple of eight).
///
/// # Safety
/// The CPU has AVX-512F and AVX-512 IFMA.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn blocks8(h: &mut [u64; 3], r: [u64; 2], data: &[u8]) {
    let n = data.len() / 16;
    assert!(
        n != 0 && data.len().is_multiple_of(16),
        "a non-empty run of whole blocks"
    );
    // The first group holds `8 - pad` real blocks, in its last positions.
    let pad = n.wrapping_neg() % 8;
    let groups = (n + pad) / 8;
    // Lanes holding real blocks of the first group, and the lane of its first one.
    let mut real: __mmask8 = 0;
    let mut h_lane: __mmask8 = 0;
    for (lane, &block) in BLOCK_OF_LANE.iter().enumerate() {
        real |= u8::from(block >= pad) << lane;
        h_lane |= u8::from(block == pad) << lane;
    }
    // The first group's qwords 2·pad..16 are real: bits of a 16-bit mask, split over
    // the two loads.
    let words = (0xffff_u32 << (2 * pad)) as u16;
    let base = data.as_ptr().wrapping_sub(16 * pad);
    // SAFETY: AVX-512F and IFMA per the caller. The masked loads read only the qwords
    // whose mask bit is set: those of the real blocks, `data[0 .. 16·(8 - pad)]`
    // (masked-off lanes are not accessed, so `base` may point before `data`). The
    // loop reads the remaining `groups - 1` whole 128-byte groups, which end exactly
    // at the end of `data`.
    unsafe {
        let v0 = _mm512_maskz_loadu_epi64(words as u8, base.cast());
        let v1 = _mm512_maskz_loadu_epi64((words >> 8) as u8, base.wrapping_add(64).cast());
        let first = limbs(
            _mm512_unpacklo_epi64(v0, v1),
            _mm512_unpackhi_epi64(v0, v1),
            real,
        );
        let [h0, h1, h2] = split44(*h);
        let h44 = [
            _mm512_maskz_set1_epi64(h_lane, h0 as i64),
            _mm512_maskz_set1_epi64(h_lane, h1 as i64),
            _mm512_maskz_set1_epi64(h_lane, h2 as i64),
        ];
        let mut acc = add(&first, &h44);

        let powers = powers(r);
        // r⁸ (lane 7) in every lane: a group's step.
        let r8 = permute(_mm512_set1_epi64(7), &powers);
        let step = mult(r8);
        let mut p = data.as_ptr().add(16 * (8 - pad));
        if groups > 1 {
            // Two Horner chains in r¹⁶ side by side (see the module comment): `acc`
            // takes groups 0, 2, 4, …, `odd` groups 1, 3, 5, ….
            let mut odd = load8(p);
            p = p.add(128);
            if groups > 2 {
                let step2 = mult(carry(mul(&r8, &step)));
                for _ in 0..(groups - 2) / 2 {
                    acc = add(&carry(mul(&acc, &step2)), &load8(p));
                    odd = add(&carry(mul(&odd, &step2)), &load8(p.add(128)));
                    p = p.add(256);
                }
                if groups % 2 == 1 {
                    acc = add(&carry(mul(&acc, &step2)), &load8(p));
                }
            }
            // The chain without the last group is one step short: once more by r⁸.
            let (short, last) = if groups % 2 == 1 {
                (odd, acc)
            } else {
                (acc, odd)
            };
            acc = add(&carry(mul(&short, &step)), &last);
        }

        // Each lane's final multiplier, r^(8 - block) for the block in it.
        let last_of_lane = _mm512_loadu_si512(POWER_OF_LANE.as_ptr().cast());
        let last = mult(permute(last_of_lane, &powers));
        let [t0, t1, t2] = mul(&acc, &last);
        *h = join44([
            _mm512_reduce_add_epi64(t0) as u64,
            _mm512_reduce_add_epi64(t1) as u64,
            _mm512_reduce_add_epi64(t2) as u64,
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::kernel_checks::{
        kernel_matches_portable_from_extreme_states, radix_round_trips_at_the_extremes,
    };
    use super::*;

    /// `blocks8` on every run length 1..=41 blocks (every padding of the first group,
    /// one to six groups). Skipped where the CPU lacks IFMA (run it under
    /// `scripts/avx512-emu`).
    #[test]
    fn ifma_blocks8_matches_portable_from_extreme_states() {
        if !(cpu_has!("avx512f") && cpu_has!("avx512ifma")) {
            return;
        }
        kernel_matches_portable_from_extreme_states(1..=41, |state, data| {
            // SAFETY: AVX-512F and IFMA checked above; `data` is a non-empty multiple
            // of 16 bytes.
            unsafe { blocks8(&mut state.h, state.r, data) };
        });
    }

    #[test]
    fn ifma_split_and_join_round_trip_at_the_extremes() {
        radix_round_trips_at_the_extremes(split44, join44, 44);
    }
}
