//! 128-bit NEON lanes for aarch64: 4 blocks per batch in the vertical form, 1 block
//! per register set in the row form, and the final partial vector finished with a
//! `tbl` byte permutation over an overlapping 16-byte window.
//!
//! Only little-endian aarch64 is supported (the byte loads below reinterpret bytes as
//! little-endian words); `mod.rs` compiles this file only there.

use core::arch::aarch64::*;

use crate::backend::generic::{Lanes, Rows};

/// Four blocks' worth of one state word (vertical form), or one row of one block
/// (row form). Methods need NEON.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint32x4_t);

/// The lane offsets of a vertical batch: block `counter + i` in lane `i`.
const LANE_INDEX: [u32; 4] = [0, 1, 2, 3];

/// Loaded at offset `rem`, a `tbl` pattern moving bytes `0..rem` to the top `rem`
/// positions; the other indices are out of range (≥ 16), which `tbl` turns into zero.
const SLIDE: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
];

/// The `tbl` pattern rotating each little-endian 32-bit word left by 8 bits: byte `i`
/// of a word takes byte `i - 1`, byte 0 the word's top byte.
const ROTL8: [u8; 16] = [3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14];

/// Rotates each 32-bit lane left by `$n`: a shift left, then `sri` inserts the bits
/// shifted out at the bottom (two instructions, no separate `orr`).
macro_rules! rotl {
    ($v:expr, $n:literal) => {
        vsriq_n_u32::<{ 32 - $n }>(vshlq_n_u32::<$n>($v), $v)
    };
}

// SAFETY: every method uses only NEON (and plain loads and stores through the caller's
// pointers); callers of `Neon` guarantee the CPU has NEON.
unsafe impl Lanes for Neon {
    const BLOCKS: usize = 4;

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vdupq_n_u32(x) })
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        // SAFETY: NEON; `LANE_INDEX` is 16 readable bytes.
        Neon(unsafe { vld1q_u32(LANE_INDEX.as_ptr()) })
    }
    #[inline(always)]
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self) {
        // SAFETY: NEON.
        unsafe {
            let lo = vaddq_u32(lo.0, step.0);
            // A lane's low half wrapped exactly when it ends below the step; the
            // compare gives all ones (-1) there, so subtracting it adds the carry.
            let carry = vcltq_u32(lo, step.0);
            (Neon(lo), Neon(vsubq_u32(hi.0, carry)))
        }
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { vaddq_u32(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { veorq_u32(self.0, other.0) })
    }
    #[inline(always)]
    unsafe fn rotl16(self) -> Self {
        // Swapping the two halfwords of each word is one `rev32`.
        // SAFETY: NEON.
        Neon(unsafe { vreinterpretq_u32_u16(vrev32q_u16(vreinterpretq_u16_u32(self.0))) })
    }
    #[inline(always)]
    unsafe fn rotl12(self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { rotl!(self.0, 12) })
    }
    #[inline(always)]
    unsafe fn rotl8(self) -> Self {
        // A whole-byte rotation is one `tbl` byte permutation, where the shift pair
        // takes two dependent instructions (3f85a82).
        // SAFETY: NEON; `ROTL8` is 16 readable bytes.
        Neon(unsafe {
            let bytes = vqtbl1q_u8(vreinterpretq_u8_u32(self.0), vld1q_u8(ROTL8.as_ptr()));
            vreinterpretq_u32_u8(bytes)
        })
    }
    #[inline(always)]
    unsafe fn rotl7(self) -> Self {
        // SAFETY: NEON.
        Neon(unsafe { rotl!(self.0, 7) })
    }
    #[inline(always)]
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16] {
        let mut out = x;
        for g in 0..4 {
            let (a, b, c, d) = (x[4 * g].0, x[4 * g + 1].0, x[4 * g + 2].0, x[4 * g + 3].0);
            // SAFETY: NEON. A 4x4 transpose of 32-bit elements: interleave words, then
            // interleave the resulting 64-bit pairs.
            let rows = unsafe {
                let t0 = vreinterpretq_u64_u32(vzip1q_u32(a, b));
                let t1 = vreinterpretq_u64_u32(vzip2q_u32(a, b));
                let t2 = vreinterpretq_u64_u32(vzip1q_u32(c, d));
                let t3 = vreinterpretq_u64_u32(vzip2q_u32(c, d));
                [
                    vreinterpretq_u32_u64(vzip1q_u64(t0, t2)),
                    vreinterpretq_u32_u64(vzip2q_u64(t0, t2)),
                    vreinterpretq_u32_u64(vzip1q_u64(t1, t3)),
                    vreinterpretq_u32_u64(vzip2q_u64(t1, t3)),
                ]
            };
            // rows[k] is words 4g..4g+4 of block k: bytes 64k + 16g.
            for (k, row) in rows.into_iter().enumerate() {
                out[4 * k + g] = Neon(row);
            }
        }
        out
    }
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 16 readable bytes; `ld1` of bytes needs no
        // alignment, and on little-endian the words are the message's LE words.
        Neon(unsafe { vreinterpretq_u32_u8(vld1q_u8(src)) })
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 16 writable bytes.
        unsafe { vst1q_u8(dst, vreinterpretq_u8_u32(self.0)) }
    }
    #[inline(always)]
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, before: usize) {
        // SAFETY: the window form touches the `16 - rem` bytes before the tail, which
        // the caller guarantees are part of the message and already final in
        // `output`; it rewrites them with the values it loaded from `output`. The
        // byte loop touches exactly `rem` bytes.
        unsafe {
            let ks = vreinterpretq_u8_u32(self.0);
            if before + rem >= 16 {
                // The last 16 bytes of the message: `16 - rem` already-finished bytes,
                // then the tail. Slide the keystream's first `rem` bytes up under the
                // tail and select, byte by byte, fresh bytes there and old ones below.
                let back = 16 - rem;
                let data = vld1q_u8(input.sub(back));
                let done = vld1q_u8(output.sub(back));
                let pattern = vld1q_u8(SLIDE.as_ptr().add(rem));
                let keystream = vqtbl1q_u8(ks, pattern);
                let tail = vcltq_u8(pattern, vdupq_n_u8(16));
                let merged = vbslq_u8(tail, veorq_u8(data, keystream), done);
                vst1q_u8(output.sub(back), merged);
            } else {
                // A message shorter than one vector: there is no window to use.
                let mut bytes = [0u8; 16];
                vst1q_u8(bytes.as_mut_ptr(), ks);
                for (i, k) in bytes.iter().enumerate().take(rem) {
                    *output.add(i) = *input.add(i) ^ k;
                }
            }
        }
    }
}

// SAFETY: NEON only; callers of `Neon` guarantee it.
unsafe impl Rows for Neon {
    #[inline(always)]
    unsafe fn row(words: &[u32; 16], r: usize) -> Self {
        // SAFETY: NEON; `r < 4`, so the 16 bytes read are within `words`.
        Neon(unsafe { vld1q_u32(words.as_ptr().add(4 * r)) })
    }
    #[inline(always)]
    unsafe fn counter_row(tail: [u32; 3], counter: u64) -> Self {
        let high = tail[0].wrapping_add((counter >> 32) as u32);
        let row = [counter as u32, high, tail[1], tail[2]];
        // SAFETY: NEON; `row` is 16 readable bytes.
        Neon(unsafe { vld1q_u32(row.as_ptr()) })
    }
    #[inline(always)]
    unsafe fn rotate_words<const N: i32>(self) -> Self {
        // `ext` of a vector with itself by N words: word i takes word i + N mod 4.
        // SAFETY: NEON.
        Neon(unsafe {
            match N {
                1 => vextq_u32::<1>(self.0, self.0),
                2 => vextq_u32::<2>(self.0, self.0),
                _ => vextq_u32::<3>(self.0, self.0),
            }
        })
    }
    #[inline(always)]
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4] {
        // One block: its rows are its 16-byte pieces in order.
        rows
    }
}
