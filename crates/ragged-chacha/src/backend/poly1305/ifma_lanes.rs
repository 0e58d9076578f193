//! Poly1305 across messages on AVX-512 IFMA: eight messages, one per 64-bit lane, with
//! the 44/44/42-bit limbs and 52-bit multiplies of [`super::ifma`] (its `mul`, `carry`
//! and the bounds stated there: a lane's multiplier is its own `r`, or `r²` carried (a
//! lone set's two chains, [`set_tags`]), among the powers of `r` that backend
//! multiplies by, and its accumulator is carried after every step exactly as there).

use core::arch::x86_64::*;

use super::Poly1305Backend;
use super::ifma::{Limbs, MASK42, MASK44, Mult, add, carry, join44, limbs, mul, mult, split44};
use super::lanes::{MacJob, MacLanes};
use super::portable::CLAMP;
use crate::backend::route::Core;

/// Eight accumulators (carried) and their multipliers `r`, `20·r1`, `20·r2`.
pub(super) struct IfmaLanes {
    h: Limbs,
    r: Mult,
}

// SAFETY: AVX-512F, IFMA, BW, VL and AVX2 only; `tags` below is the one caller, with
// those features.
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
        // SAFETY: AVX-512F, IFMA and AVX2, per the caller; 16 readable bytes at each
        // pointer (the trait's contract).
        unsafe { self.h = step(self.h, load8(p, 0), &self.r) };
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

/// The 16 bytes at `p[l] + at` for each lane `l`, as their low and high 64-bit halves
/// (lane `l` of each vector is lane `l`'s block): two 512-bit vectors of four blocks
/// (0, 2, 4, 6 and 1, 3, 5, 7) whose 64-bit halves unpack lane by lane. With `mask`
/// below `0xffff`, only the bytes it selects are read, the others zero (a padded tail).
///
/// # Safety
/// AVX-512F, AVX-512BW and VL, AVX2; the selected bytes readable at each `p[l] + at`.
#[inline(always)]
unsafe fn load8(p: &[*const u8; 8], at: usize) -> (__m512i, __m512i) {
    // SAFETY: the caller's.
    unsafe { load8_masked(p, at, 0xffff) }
}

/// [`load8`] reading only the bytes of `mask`.
///
/// # Safety
/// As for [`load8`].
#[inline(always)]
unsafe fn load8_masked(p: &[*const u8; 8], at: usize, mask: __mmask16) -> (__m512i, __m512i) {
    // SAFETY: the caller's; a masked-off byte is not read and cannot fault.
    unsafe {
        macro_rules! block {
            ($l:literal) => {
                if mask == 0xffff {
                    _mm_loadu_si128(p[$l].wrapping_add(at).cast())
                } else {
                    _mm_maskz_loadu_epi8(mask, p[$l].wrapping_add(at).cast())
                }
            };
        }
        macro_rules! pair {
            ($a:literal, $b:literal) => {
                _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(block!($a)), block!($b))
            };
        }
        let even = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(pair!(0, 2)), pair!(4, 6));
        let odd = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(pair!(1, 3)), pair!(5, 7));
        (
            _mm512_unpacklo_epi64(even, odd),
            _mm512_unpackhi_epi64(even, odd),
        )
    }
}

/// One block for every lane: `(h + m) · r`, carried; `m` given as its 64-bit halves,
/// with its 2^128 bit.
///
/// # Safety
/// AVX-512F and IFMA.
#[inline(always)]
unsafe fn step(h: Limbs, (lo, hi): (__m512i, __m512i), r: &Mult) -> Limbs {
    // SAFETY: the caller's.
    unsafe { carry(mul(&add(&h, &limbs(lo, hi, 0xff)), r)) }
}

/// The multipliers of eight one-time keys (at `key[l]`): `r`, clamped, in 44-bit limbs,
/// with `20·r1` and `20·r2` (below 2^49: a 52-bit multiply's low half).
///
/// # Safety
/// AVX-512F, IFMA, BW, VL, AVX2; 16 readable bytes at each `key[l]`.
#[inline(always)]
unsafe fn multipliers(key: &[*const u8; 8]) -> Mult {
    // SAFETY: the caller's.
    unsafe {
        let m44 = _mm512_set1_epi64(MASK44 as i64);
        let (lo, hi) = load8(key, 0);
        let lo = _mm512_and_si512(lo, _mm512_set1_epi64(CLAMP[0] as i64));
        let hi = _mm512_and_si512(hi, _mm512_set1_epi64(CLAMP[1] as i64));
        let r1 = _mm512_and_si512(
            _mm512_or_si512(_mm512_srli_epi64::<44>(lo), _mm512_slli_epi64::<20>(hi)),
            m44,
        );
        let r2 = _mm512_srli_epi64::<24>(hi);
        let (zero, twenty) = (_mm512_setzero_si512(), _mm512_set1_epi64(20));
        [
            _mm512_and_si512(lo, m44),
            r1,
            r2,
            _mm512_madd52lo_epu64(zero, r1, twenty),
            _mm512_madd52lo_epu64(zero, r2, twenty),
        ]
    }
}

/// The eight tags (their low and high 64-bit words) of the carried accumulators `h`
/// with the keys' `s` (bytes 16..32 at `key[l]`): `h mod p`, as `join44` and
/// `MacState::finish` compute it lane by lane — carried twice (limbs below 2^44, 2^44
/// and at most 2^42), then g = h + 5, and where g reaches 2^130, `h mod p` is
/// g - 2^130 — plus `s`, mod 2^128.
///
/// # Safety
/// As for [`multipliers`], with 32 readable bytes at each `key[l]`.
#[inline(always)]
unsafe fn finish(h: Limbs, key: &[*const u8; 8]) -> (__m512i, __m512i) {
    // SAFETY: the caller's.
    unsafe {
        let m44 = _mm512_set1_epi64(MASK44 as i64);
        let m42 = _mm512_set1_epi64(MASK42 as i64);
        let [t0, t1, t2] = h;
        let c = _mm512_srli_epi64::<44>(t0);
        let (t0, t1) = (_mm512_and_si512(t0, m44), _mm512_add_epi64(t1, c));
        let c = _mm512_srli_epi64::<44>(t1);
        let (t1, t2) = (_mm512_and_si512(t1, m44), _mm512_add_epi64(t2, c));
        let c = _mm512_srli_epi64::<42>(t2);
        let t2 = _mm512_and_si512(t2, m42);
        let t0 = _mm512_add_epi64(t0, _mm512_add_epi64(c, _mm512_slli_epi64::<2>(c)));
        let c = _mm512_srli_epi64::<44>(t0);
        let (t0, t1) = (_mm512_and_si512(t0, m44), _mm512_add_epi64(t1, c));
        let c = _mm512_srli_epi64::<44>(t1);
        let (t1, t2) = (_mm512_and_si512(t1, m44), _mm512_add_epi64(t2, c));
        let g0 = _mm512_add_epi64(t0, _mm512_set1_epi64(5));
        let g1 = _mm512_add_epi64(t1, _mm512_srli_epi64::<44>(g0));
        let g2 = _mm512_add_epi64(t2, _mm512_srli_epi64::<44>(g1));
        let wraps = _mm512_test_epi64_mask(g2, _mm512_set1_epi64(1 << 42));
        let f0 = _mm512_mask_blend_epi64(wraps, t0, _mm512_and_si512(g0, m44));
        let f1 = _mm512_mask_blend_epi64(wraps, t1, _mm512_and_si512(g1, m44));
        let f2 = _mm512_mask_blend_epi64(wraps, t2, _mm512_and_si512(g2, m42));
        // The low 128 bits in two 64-bit words, plus s (mod 2^128).
        let w0 = _mm512_or_si512(f0, _mm512_slli_epi64::<44>(f1));
        let w1 = _mm512_or_si512(_mm512_srli_epi64::<20>(f1), _mm512_slli_epi64::<24>(f2));
        let (s0, s1) = load8(key, 16);
        let w0 = _mm512_add_epi64(w0, s0);
        let carried = _mm512_cmplt_epu64_mask(w0, s0);
        let w1 = _mm512_add_epi64(w1, s1);
        (
            w0,
            _mm512_mask_add_epi64(w1, carried, w1, _mm512_set1_epi64(1)),
        )
    }
}

/// The tags of up to `8·S` messages of one shape (the same AAD and ciphertext
/// lengths), one a lane in lockstep: `jobs[set[l]]` in lane `l` for `l < count`, the
/// other lanes repeating lane 0's message (their results unused). A set needs no
/// per-lane bookkeeping: every lane reads its block at the same offset, the padded
/// tails are masked loads, the lengths block is the same for all, and the keys, the
/// final reduction and `+ s` are vector code for all eight lanes at once. Two sets
/// (`S = 2`) step side by side: each step is a chain of dependent multiplies, and the
/// other set's fills its waits.
///
/// One set (`S = 1`) runs each lane's message as two chains side by side instead
/// (`CHAINS = 2`): the blocks at even and odd places of its MAC input, each multiplied
/// by `r²` (a carried power, as the single-message backend's), so that a step waits on
/// the one two blocks back. With the input read as `n` blocks after `z` zero blocks
/// (`n + z` even; the zeros change nothing), the first chain ends `r²`-multiplied, the
/// second's last block (the lengths) is multiplied by `r` alone, and their sum is the
/// accumulator one chain in `r` gives, `Σ mᵢ·r^(n−i+1)`. Two sets do not split their
/// chains: the other set's steps already fill each step's wait (docs/tuning.md,
/// "Bursts").
///
/// # Safety
/// AVX-512F, IFMA, AVX-512BW and VL, AVX2; `1 <= count <= 8·S`, `S <= 2`,
/// `1 <= CHAINS <= 2`, `set[..]` indices into `jobs` of one shape.
#[inline(always)]
unsafe fn set_tags<const S: usize, const CHAINS: usize>(
    jobs: &[MacJob<'_>],
    set: &[usize; 16],
    count: usize,
    tags: &mut [[u8; 16]],
) {
    let (aad_len, ct_len) = (jobs[set[0]].aad.len(), jobs[set[0]].ciphertext.len());
    let mut key = [[core::ptr::null::<u8>(); 8]; S];
    let mut aad = key;
    let mut ct = key;
    for l in 0..8 * S {
        let job = &jobs[set[if l < count { l } else { 0 }]];
        debug_assert_eq!((job.aad.len(), job.ciphertext.len()), (aad_len, ct_len));
        let (k, l) = (l / 8, l % 8);
        (key[k][l], aad[k][l], ct[k][l]) =
            (job.key.as_ptr(), job.aad.as_ptr(), job.ciphertext.as_ptr());
    }
    let tail_mask = |len: usize| ((1u32 << (len % 16)) - 1) as __mmask16;
    let blocks = super::lanes::blocks(&jobs[set[0]]);
    // SAFETY: the caller's features; every load reads within its lane's key (64
    // bytes), AAD or ciphertext (whole blocks below the length, the tail masked);
    // every store writes one 16-byte tag of `tags`.
    unsafe {
        let zero = _mm512_setzero_si512();
        // Each set's `r`, and what every step but the last multiplies by: `r^CHAINS`.
        let mut r = [[zero; 5]; S];
        let mut r_step = [[zero; 5]; S];
        for k in 0..S {
            r[k] = multipliers(&key[k]);
            r_step[k] = r[k];
            if CHAINS == 2 {
                let [b0, b1, b2, _, _] = r[k];
                r_step[k] = mult(carry(mul(&[b0, b1, b2], &r[k])));
            }
        }
        let mut h = [[[zero; 3]; CHAINS]; S];
        // The chain that takes the next block: the first real one follows the zeros.
        let mut next = (CHAINS - blocks % CHAINS) % CHAINS;
        // Block `m` of set `k` into chain `next`, indexed by constants (an index
        // known only at run time would keep the accumulators in memory).
        macro_rules! step_next {
            ($k:expr, $m:expr) => {
                if next == 0 {
                    h[$k][0] = step(h[$k][0], $m, &r_step[$k]);
                } else {
                    h[$k][CHAINS - 1] = step(h[$k][CHAINS - 1], $m, &r_step[$k]);
                }
            };
        }
        for (data, len) in [(&aad, aad_len), (&ct, ct_len)] {
            let whole = len / 16;
            let mut i = 0;
            // One block at a time up to the first chain, then a block for every chain
            // a round, then what is left one at a time.
            while next != 0 && i < whole {
                for k in 0..S {
                    step_next!(k, load8(&data[k], 16 * i));
                }
                (i, next) = (i + 1, (next + 1) % CHAINS);
            }
            while i + CHAINS <= whole {
                for k in 0..S {
                    for (c, chain) in h[k].iter_mut().enumerate() {
                        *chain = step(*chain, load8(&data[k], 16 * (i + c)), &r_step[k]);
                    }
                }
                i += CHAINS;
            }
            while i < whole {
                for k in 0..S {
                    step_next!(k, load8(&data[k], 16 * i));
                }
                (i, next) = (i + 1, (next + 1) % CHAINS);
            }
            if len % 16 != 0 {
                for k in 0..S {
                    step_next!(k, load8_masked(&data[k], 16 * whole, tail_mask(len)));
                }
                next = (next + 1) % CHAINS;
            }
        }
        debug_assert_eq!(next, CHAINS - 1, "the lengths block ends the last chain");
        let lengths = (
            _mm512_set1_epi64(aad_len as i64),
            _mm512_set1_epi64(ct_len as i64),
        );
        for k in 0..S {
            h[k][CHAINS - 1] = step(h[k][CHAINS - 1], lengths, &r[k]);
            let mut sum = h[k][0];
            if CHAINS == 2 {
                sum = carry(add(&h[k][0], &h[k][1]));
            }
            let (w0, w1) = finish(sum, &key[k]);
            // Each 128-bit lane of `even` is the tag (low word, high word: its
            // little-endian bytes) of lane 0, 2, 4 or 6; of `odd`, of lane 1, 3, 5 or 7.
            // Stored straight from the vectors: through a stack array read word by
            // word, the tags' loads waited on its vector stores (docs/tuning.md,
            // Bursts).
            let (even, odd) = (_mm512_unpacklo_epi64(w0, w1), _mm512_unpackhi_epi64(w0, w1));
            macro_rules! store_tag {
                ($l:literal, $v:ident, $quarter:literal) => {
                    if 8 * k + $l < count {
                        let tag = _mm512_extracti32x4_epi32::<$quarter>($v);
                        let out = &mut tags[set[8 * k + $l]];
                        _mm_storeu_si128(out.as_mut_ptr().cast(), tag);
                    }
                };
            }
            store_tag!(0, even, 0);
            store_tag!(1, odd, 0);
            store_tag!(2, even, 1);
            store_tag!(3, odd, 1);
            store_tag!(4, even, 2);
            store_tag!(5, odd, 2);
            store_tag!(6, even, 3);
            store_tag!(7, odd, 3);
        }
    }
}

/// Whether `count` messages of `blocks` blocks run as a set in lockstep
/// ([`set_tags`]): a full set always; a partial one where its steps are enough to
/// repay the set's fixed cost (keys, final reduction) over the portable code; the
/// others share the refilled lanes with the other shapes or go to the portable code.
#[inline(always)]
fn as_a_set(count: usize, blocks: usize) -> bool {
    count >= 8 || (count >= 3 && count * blocks >= 64)
}

/// The average blocks a message from which the refilled lanes take the messages left
/// out of sets ([`super::lanes::refilled_lanes_pay`]), where [`rest_one_by_one`] does
/// not hold.
const LONG: usize = 24;

/// Whether the messages left out of sets take the single-message MAC one at a time
/// (its IFMA code with powers of `r` for runs long enough, the portable code for the
/// rest) instead of the refilled lanes: on Zen 5, where a refilled lane waits on each
/// of its message's dependent steps and the single-message code's powers of `r` do not
/// (the comparison in docs/tuning.md, "Bursts"). Elsewhere the refilled lanes from
/// [`LONG`] blocks, the rule chosen there against the portable code.
#[inline(always)]
fn rest_one_by_one() -> bool {
    Core::this() == Core::Zen5
}

/// The refilled lanes alone over `jobs`, for the tests on the cores whose bursts do
/// not take them ([`rest_one_by_one`]).
///
/// # Safety
/// As for [`tags`].
#[cfg(test)]
#[target_feature(enable = "avx512f,avx512ifma,avx512bw,avx512vl,avx2")]
pub(super) unsafe fn refilled_tags(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    // SAFETY: the features `IfmaLanes` needs, enabled here (the caller's contract).
    unsafe { super::lanes::tags::<IfmaLanes>(jobs, tags) };
}

/// Messages [`tags`] forms sets from at a time: as many as an AEAD burst's group, so
/// that a mixed burst's shapes are not split between two calls into smaller sets (and
/// left-overs for the portable code).
const CHUNK: usize = 64;

/// The tags of up to [`CHUNK`] messages: the sets of one shape in lockstep, the rest in
/// the refilled lanes or on the portable code.
///
/// # Safety
/// As for [`tags`].
#[inline(always)]
unsafe fn chunk_tags(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    let n = jobs.len();
    debug_assert!(n <= CHUNK);
    let mut placed = 0u64;
    // The messages left out of sets and their indices in `jobs`: only the first `left`
    // are written (and read), so a burst all in sets does not pay for a chunk of each.
    let mut rest = [core::mem::MaybeUninit::<MacJob<'_>>::uninit(); CHUNK];
    let mut rows = [0u8; CHUNK];
    let mut left = 0;
    for i in 0..n {
        if placed & (1 << i) != 0 {
            continue;
        }
        let shape = (jobs[i].aad.len(), jobs[i].ciphertext.len());
        let mut set = [i; 16];
        let mut count = 1;
        for (j, job) in jobs.iter().enumerate().skip(i + 1) {
            if count == 16 {
                break;
            }
            if placed & (1 << j) == 0 && (job.aad.len(), job.ciphertext.len()) == shape {
                set[count] = j;
                count += 1;
                placed |= 1 << j;
            }
        }
        if as_a_set(count, super::lanes::blocks(&jobs[i])) {
            // SAFETY: the caller's features; `set` holds `count` indices of one shape.
            unsafe {
                if count > 8 {
                    set_tags::<2, 1>(jobs, &set, count, tags);
                } else {
                    set_tags::<1, 2>(jobs, &set, count, tags);
                }
            }
        } else {
            for &j in &set[..count] {
                rest[left].write(jobs[j]);
                rows[left] = j as u8;
                left += 1;
            }
        }
    }
    if left == 0 {
        return;
    }
    // SAFETY: the first `left` elements of `rest` were written above; `MaybeUninit<T>`
    // has `T`'s layout.
    let rest = unsafe { &*(&raw const rest[..left] as *const [MacJob<'_>]) };
    let mut out = [[0u8; 16]; CHUNK];
    if rest_one_by_one() {
        super::lanes::tags_one_by_one(Poly1305Backend::Avx512Ifma, rest, &mut out[..left]);
    } else if super::lanes::refilled_lanes_pay(rest, LONG) {
        // SAFETY: the features `IfmaLanes` needs, the caller's.
        unsafe { super::lanes::tags::<IfmaLanes>(rest, &mut out[..left]) };
    } else {
        super::lanes::tags_portable(rest, &mut out[..left]);
    }
    for (tag, &row) in out.iter().zip(&rows).take(left) {
        tags[usize::from(row)] = *tag;
    }
    out[..left].iter_mut().for_each(crate::wipe::wipe);
}

/// The AEAD tags of a burst's messages on IFMA, `tags[i]` that of `jobs[i]`: messages
/// of one shape in sets of eight in lockstep ([`set_tags`]), the others one a lane in
/// the refilled lanes of [`super::lanes::tags`].
///
/// # Safety
/// The CPU has AVX-512F, IFMA, BW, VL and AVX2 (what
/// [`super::Poly1305Backend::Avx512Ifma`] requires).
#[target_feature(enable = "avx512f,avx512ifma,avx512bw,avx512vl,avx2")]
pub(crate) unsafe fn tags(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    assert_eq!(jobs.len(), tags.len(), "a tag for every job");
    for (jobs, tags) in jobs.chunks(CHUNK).zip(tags.chunks_mut(CHUNK)) {
        // SAFETY: the features, per the caller.
        unsafe { chunk_tags(jobs, tags) };
    }
}
