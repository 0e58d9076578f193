//! 128-bit lanes (4 blocks, or 1 block in the row form): SSE2, or SSSE3 byte shuffles
//! for the 8- and 16-bit rotations and the tail, selected by the marker type `L`
//! ([`Sse2`] or [`Ssse3`]).

use core::arch::x86_64::*;

use core::marker::PhantomData;

use crate::backend::generic::{Lanes, Rows};
use crate::backend::schedule::Schedule;

/// An instruction-set level of [`Xmm`]: what its methods may use.
pub(crate) trait Level: Copy {
    /// Whether SSSE3's byte shuffle (`pshufb`) is there, for the 8- and 16-bit
    /// rotations and the tail.
    const PSHUFB: bool;
}

/// SSE2 only (every x86-64 CPU).
#[derive(Clone, Copy)]
pub(crate) struct Sse2;

impl Level for Sse2 {
    const PSHUFB: bool = false;
}

/// SSSE3: byte shuffles for the 8- and 16-bit rotations and the tail.
#[derive(Clone, Copy)]
pub(crate) struct Ssse3;

impl Level for Ssse3 {
    const PSHUFB: bool = true;
}

/// Four blocks' worth of one state word. `L` is the instruction-set level the
/// methods may use: [`Sse2`] or [`Ssse3`].
#[derive(Clone, Copy)]
pub(crate) struct Xmm<L: Level>(pub(crate) __m128i, PhantomData<L>);

/// A `pshufb` pattern, aligned for a plain vector load.
#[repr(align(16))]
struct Pattern([u8; 16]);

/// `pshufb` pattern rotating each 32-bit lane left by 16 bits.
static ROT16: Pattern = Pattern([2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13]);
/// `pshufb` pattern rotating each 32-bit lane left by 8 bits.
static ROT8: Pattern = Pattern([3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14]);
/// Loaded at offset `rem`, a `pshufb` pattern moving bytes `0..rem` to the top
/// `rem` positions and zeroing the rest (0x80 selects zero).
const SLIDE: [u8; 32] = [
    0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
];

/// Loads a shuffle pattern through an address the optimizer cannot see into, at each
/// use, so each byte rotation stays one `pshufb` with a memory operand (see the
/// 256-bit twin in `ymm.rs` for what happens otherwise).
///
/// # Safety
/// The CPU has SSE2.
#[inline(always)]
unsafe fn opaque_load(pattern: &Pattern) -> __m128i {
    // SAFETY: 16 readable bytes, aligned for the vector type; SSE2 per the caller.
    unsafe { core::ptr::read_volatile((&raw const pattern.0).cast::<__m128i>()) }
}

/// Rotates each 32-bit lane of `v` left by `$n` with two shifts and an or.
macro_rules! rotl_shift {
    ($v:expr, $n:literal) => {
        _mm_or_si128(_mm_slli_epi32::<$n>($v), _mm_srli_epi32::<{ 32 - $n }>($v))
    };
}

/// The first step of every vertical transpose: for each word group `g` (state words
/// `4g..4g+4`), the 4x4 transpose of 32-bit elements within each 128-bit lane, so
/// `rows[g][k]` holds words `4g..4g+4` of block `k` of each lane's four blocks.
/// `$lo32` … are the unpack intrinsics of the register width at hand; must be used
/// where they are callable (an `unsafe` block with the features enabled).
macro_rules! transpose_groups {
    ($x:expr, $lo32:ident, $hi32:ident, $lo64:ident, $hi64:ident) => {{
        let x = $x;
        let mut rows = [[x[0].0; 4]; 4];
        for (g, row) in rows.iter_mut().enumerate() {
            let (a, b, c, d) = (x[4 * g].0, x[4 * g + 1].0, x[4 * g + 2].0, x[4 * g + 3].0);
            let t0 = $lo32(a, b);
            let t1 = $hi32(a, b);
            let t2 = $lo32(c, d);
            let t3 = $hi32(c, d);
            *row = [$lo64(t0, t2), $hi64(t0, t2), $lo64(t1, t3), $hi64(t1, t3)];
        }
        rows
    }};
}
pub(crate) use transpose_groups;

impl<L: Level> Xmm<L> {
    /// The vector `v` at this level.
    #[inline(always)]
    pub(crate) fn v(v: __m128i) -> Self {
        Xmm(v, PhantomData)
    }

    /// Shifts the low `rem` bytes of `self` to the top of the vector, zero below
    /// (SSE2 has no variable byte shift, so one arm per amount).
    #[inline(always)]
    unsafe fn slide_up(self, rem: usize) -> __m128i {
        let v = self.0;
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            match 16 - rem {
                1 => _mm_slli_si128::<1>(v),
                2 => _mm_slli_si128::<2>(v),
                3 => _mm_slli_si128::<3>(v),
                4 => _mm_slli_si128::<4>(v),
                5 => _mm_slli_si128::<5>(v),
                6 => _mm_slli_si128::<6>(v),
                7 => _mm_slli_si128::<7>(v),
                8 => _mm_slli_si128::<8>(v),
                9 => _mm_slli_si128::<9>(v),
                10 => _mm_slli_si128::<10>(v),
                11 => _mm_slli_si128::<11>(v),
                12 => _mm_slli_si128::<12>(v),
                13 => _mm_slli_si128::<13>(v),
                14 => _mm_slli_si128::<14>(v),
                _ => _mm_slli_si128::<15>(v),
            }
        }
    }
}

// SAFETY: methods use SSE2 always and SSSE3 only when `L::PSHUFB`; callers of
// `Xmm<L>` guarantee those features.
unsafe impl<L: Level> Lanes for Xmm<L>
where
    Self: Schedule,
{
    const BLOCKS: usize = 4;

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { _mm_set1_epi32(x as i32) })
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { _mm_setr_epi32(0, 1, 2, 3) })
    }
    #[inline(always)]
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self) {
        // SAFETY: SSE2.
        unsafe {
            let lo = _mm_add_epi32(lo.0, step.0);
            // A lane's low half wrapped exactly when it ends below the step (unsigned
            // compare, made signed by flipping the top bit); the mask is -1 there.
            let sign = _mm_set1_epi32(i32::MIN);
            let carry = _mm_cmplt_epi32(_mm_xor_si128(lo, sign), _mm_xor_si128(step.0, sign));
            (Xmm::v(lo), Xmm::v(_mm_sub_epi32(hi.0, carry)))
        }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { _mm_add_epi32(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { _mm_xor_si128(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn rotl16(self) -> Self {
        // SAFETY: each arm uses only the features its level guarantees.
        Xmm::v(unsafe {
            if L::PSHUFB {
                _mm_shuffle_epi8(self.0, opaque_load(&ROT16))
            } else {
                _mm_shufflehi_epi16::<0b10_11_00_01>(_mm_shufflelo_epi16::<0b10_11_00_01>(self.0))
            }
        })
    }
    #[inline(always)]
    unsafe fn rotl12(self) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { rotl_shift!(self.0, 12) })
    }
    #[inline(always)]
    unsafe fn rotl8(self) -> Self {
        // SAFETY: each arm uses only the features its level guarantees.
        Xmm::v(unsafe {
            if L::PSHUFB {
                _mm_shuffle_epi8(self.0, opaque_load(&ROT8))
            } else {
                rotl_shift!(self.0, 8)
            }
        })
    }
    #[inline(always)]
    unsafe fn rotl7(self) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe { rotl_shift!(self.0, 7) })
    }
    #[inline(always)]
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16] {
        // SAFETY: SSE2.
        let rows = unsafe {
            transpose_groups!(
                x,
                _mm_unpacklo_epi32,
                _mm_unpackhi_epi32,
                _mm_unpacklo_epi64,
                _mm_unpackhi_epi64
            )
        };
        let mut out = x;
        // rows[g][k] is words 4g..4g+4 of block k: bytes 64k + 16g.
        for (g, group) in rows.into_iter().enumerate() {
            for (k, row) in group.into_iter().enumerate() {
                out[4 * k + g] = Xmm::v(row);
            }
        }
        out
    }
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes.
        Xmm::v(unsafe { _mm_loadu_si128(src.cast()) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes.
        unsafe { _mm_storeu_si128(dst.cast(), self.0) }
    }
    #[inline(always)]
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, before: usize) {
        // SAFETY: the window form
        // touches `16 - rem` bytes before the tail, which the caller guarantees are
        // part of the message and already final in `output`; it rewrites them with
        // the values it loaded. The byte loop touches exactly `rem` bytes.
        unsafe {
            if before + rem >= 16 {
                let back = 16 - rem;
                let data = _mm_loadu_si128(input.sub(back).cast());
                let done = _mm_loadu_si128(output.sub(back).cast());
                let (keystream, mask) = if L::PSHUFB {
                    let pattern = _mm_loadu_si128(SLIDE.as_ptr().add(rem).cast());
                    // Pattern bytes that select (0..16) are the tail; 0x80 are not.
                    let mask = _mm_cmpgt_epi8(pattern, _mm_set1_epi8(-1));
                    (_mm_shuffle_epi8(self.0, pattern), mask)
                } else {
                    let ones = Xmm::<L>::v(_mm_set1_epi8(-1));
                    (self.slide_up(rem), ones.slide_up(rem))
                };
                let fresh = _mm_xor_si128(_mm_and_si128(mask, data), keystream);
                let merged = _mm_or_si128(_mm_andnot_si128(mask, done), fresh);
                _mm_storeu_si128(output.sub(back).cast(), merged);
            } else {
                let mut ks = [0u8; 16];
                _mm_storeu_si128(ks.as_mut_ptr().cast(), self.0);
                for (i, k) in ks.iter().enumerate().take(rem) {
                    *output.add(i) = *input.add(i) ^ k;
                }
            }
        }
    }
}

/// The `pshufd` immediate that rotates the four words of a lane left by `n`.
pub(crate) const fn rotate_words_imm(n: i32) -> i32 {
    let n = n as usize;
    ((n % 4) | (((n + 1) % 4) << 2) | (((n + 2) % 4) << 4) | (((n + 3) % 4) << 6)) as i32
}

// SAFETY: SSE2 only; callers of `Xmm<L>` guarantee at least that.
unsafe impl<L: Level> Rows for Xmm<L>
where
    Self: Schedule,
{
    #[inline(always)]
    unsafe fn row(words: &[u32; 16], r: usize) -> Self {
        // SAFETY: SSE2; `r < 4`, so the 16 bytes read are within `words`.
        Xmm::v(unsafe { _mm_loadu_si128(words.as_ptr().add(4 * r).cast()) })
    }
    #[inline(always)]
    unsafe fn counter_row(tail: [u32; 3], counter: u64) -> Self {
        let high = tail[0].wrapping_add((counter >> 32) as u32);
        // SAFETY: SSE2.
        Xmm::v(unsafe {
            _mm_setr_epi32(
                counter as u32 as i32,
                high as i32,
                tail[1] as i32,
                tail[2] as i32,
            )
        })
    }
    #[inline(always)]
    unsafe fn rotate_words<const N: i32>(self) -> Self {
        // SAFETY: SSE2.
        Xmm::v(unsafe {
            match N {
                1 => _mm_shuffle_epi32::<{ rotate_words_imm(1) }>(self.0),
                2 => _mm_shuffle_epi32::<{ rotate_words_imm(2) }>(self.0),
                _ => _mm_shuffle_epi32::<{ rotate_words_imm(3) }>(self.0),
            }
        })
    }
    #[inline(always)]
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4] {
        // One block: its rows are its 16-byte pieces in order.
        rows
    }
}
