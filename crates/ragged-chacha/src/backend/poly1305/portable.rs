//! Poly1305 in plain Rust: the 130-bit accumulator in three 64-bit limbs, the clamped
//! key `r` in two, and 64 x 64 -> 128-bit products. Every target has it; every other
//! Poly1305 backend is tested against it.
//!
//! Constant time: the code has no branch and no memory index that depends on the key
//! or the message — only on the message *length*, which is public. The one
//! data-dependent choice (the final reduction) is a mask select through `subtle`.
//! 128-bit multiplication is a single `mul` on 64-bit targets and a fixed sequence
//! of 32-bit multiplies elsewhere, neither of which branches on its operands.

use subtle::{Choice, ConditionallySelectable};

use crate::wipe::wipe;

/// `r`'s clamp (RFC 8439 §2.5): the top four bits of every 32-bit word and the
/// bottom two bits of words 1..3 cleared, split into its two 64-bit halves.
pub(super) const CLAMP: [u64; 2] = [0x0fff_fffc_0fff_ffff, 0x0fff_fffc_0fff_fffc];

/// The running state of one MAC: accumulator `h` and key `r`.
///
/// Invariant between blocks: `h = h[0] + h[1]·2^64 + h[2]·2^128` with `h[2] <= 4`,
/// so `h < 5·2^128 < 2p`; the accumulator is only partly reduced until `finish`.
#[derive(Clone)]
pub(crate) struct MacState {
    pub(crate) h: [u64; 3],
    pub(crate) r: [u64; 2],
}

impl MacState {
    /// Overwrites the accumulator and the key with zeros.
    #[inline(always)]
    pub(crate) fn wipe(&mut self) {
        wipe(&mut self.h);
        wipe(&mut self.r);
    }
}

#[inline(always)]
fn le64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[..8]);
    u64::from_le_bytes(word)
}

#[inline(always)]
fn mul(a: u64, b: u64) -> u128 {
    u128::from(a) * u128::from(b)
}

/// `h · r + m mod p` for `h[2] <= 7` (so `h2·r0 < 2^63`) and a block `m` below
/// 2^129, partly reduced: the result's top limb is at most 6, and at most 4 for
/// `m = 0`. `s1 = r1 + r1/4`; see [`MacState::blocks`] for the columns.
///
/// The block is added to the product's low limbs while the top limb is still being
/// folded, and the fold's carry goes through the sum: one carry chain after the fold
/// instead of two (the fold's, then the next block's addition), so the next block's
/// multiplication starts sooner (ae44934; figures in `docs/tuning.md`).
#[inline(always)]
fn mul_r_plus(
    [h0, h1, h2]: [u64; 3],
    r0: u64,
    r1: u64,
    s1: u64,
    [m0, m1, m2]: [u64; 3],
) -> [u64; 3] {
    let d0 = mul(h0, r0) + mul(h1, s1);
    let d1 = mul(h0, r1) + mul(h1, r0) + mul(h2, s1) + (d0 >> 64);
    let top = h2 * r0 + (d1 >> 64) as u64;

    // fold: top = 4c + (top & 3), and c·2^130 ≡ 5c = 4c + c, which is an and, a shift
    // and an add (shorter on the per-block dependency chain than a multiplication).
    // No overflow: top < 2^63 + 2^61, so 5c <= 1.25·top < 2^64.
    let fold = (top & !3) + (top >> 2);
    // The block, onto the low limbs and the two bits of `top` kept (at most 5 there).
    let t = u128::from(d0 as u64) + u128::from(m0);
    let y0 = t as u64;
    let t = u128::from(d1 as u64) + u128::from(m1) + (t >> 64);
    let y1 = t as u64;
    let y2 = (top & 3) + m2 + (t >> 64) as u64;
    // Then the fold, with one carry chain.
    let t = u128::from(y0) + u128::from(fold);
    let h0 = t as u64;
    let t = u128::from(y1) + (t >> 64);
    [h0, t as u64, y2 + (t >> 64) as u64]
}

/// The three limbs of a 16-byte block, with `hibit` at 2^128.
#[inline(always)]
fn block_limbs(block: &[u8], hibit: u64) -> [u64; 3] {
    [le64(&block[..8]), le64(&block[8..16]), hibit]
}

/// `h + m` for a block `m` below 2^129: the top limb grows by at most 2.
#[inline(always)]
fn add_block([h0, h1, h2]: [u64; 3], [m0, m1, m2]: [u64; 3]) -> [u64; 3] {
    let t = u128::from(h0) + u128::from(m0);
    let x0 = t as u64;
    let t = u128::from(h1) + u128::from(m1) + (t >> 64);
    [x0, t as u64, h2 + m2 + (t >> 64) as u64]
}

/// The first `tail.len()` (below 16) bytes of a block from `tail`, the rest zero, as
/// two little-endian words: built in registers from at most two loads a word, so
/// the MAC's last partial block costs no copy into a zeroed buffer (a `memcpy` call,
/// then loads that must wait for its stores). Branches on the length only.
#[inline(always)]
pub(crate) fn tail_words(tail: &[u8]) -> [u64; 2] {
    let n = tail.len();
    assert!(n < 16, "a partial block");
    // The bytes of `tail[at..at + len]` (len <= 8) as a little-endian word, from two
    // overlapping loads of the largest power of two that fits.
    let word = |at: usize, len: usize| -> u64 {
        let bytes = &tail[at..at + len];
        if len >= 4 {
            let low = u64::from(u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes")));
            let high = u32::from_le_bytes(bytes[len - 4..].try_into().expect("4 bytes"));
            // `high` holds bytes len-4..len; the first 8-len of them are in `low`.
            low | ((u64::from(high) >> (8 * (8 - len))) << 32)
        } else {
            bytes
                .iter()
                .enumerate()
                .fold(0, |w, (i, &b)| w | (u64::from(b) << (8 * i)))
        }
    };
    if n >= 8 {
        [le64(&tail[..8]), word(8, n - 8)]
    } else {
        [word(0, n), 0]
    }
}

impl MacState {
    /// A fresh accumulator for the (unclamped) key half `r`.
    pub(crate) fn new(r: &[u8; 16]) -> Self {
        MacState {
            h: [0; 3],
            r: [le64(&r[..8]) & CLAMP[0], le64(&r[8..]) & CLAMP[1]],
        }
    }

    /// Absorbs every 16-byte block of `data` (whose length is a multiple of 16), each
    /// with `hibit` (1 for a full message block, 0 for the padded final one) added at
    /// bit 128.
    ///
    /// Each step is `h = (h + m) · r mod 2^130 - 5`, partly reduced. Because the
    /// clamp leaves `r1` divisible by 4, `r1 · 2^128 = (r1/4) · 2^130 ≡ 5·r1/4
    /// = r1 + r1/4 (mod p)`; calling that `s1`, the product needs only four 64-bit
    /// multiplications into two 128-bit column sums, plus one small one:
    ///
    /// ```text
    /// d0 = h0·r0 + h1·s1            (< 2^126: r0 < 2^60, s1 < 2^61)
    /// d1 = h0·r1 + h1·r0 + h2·s1    (< 2^125)
    /// d2 = h2·r0                    (< 2^63: h2 <= 6 after adding a block)
    /// ```
    ///
    /// then the bits from 2^130 up are folded back in times 5 (`2^130 ≡ 5`).
    ///
    /// The loop runs one step behind: `x = h + m1`, then `x = x·r + m` for each next
    /// block (see [`mul_r_plus`]), and `h = x·r` at the end.
    #[inline(always)]
    pub(crate) fn blocks(&mut self, data: &[u8], hibit: u64) {
        debug_assert_eq!(data.len() % 16, 0);
        self.absorb_limbs(data.chunks_exact(16).map(|b| block_limbs(b, hibit)));
    }

    /// Absorbs one block given as two little-endian words, with `hibit` at bit 128.
    #[inline(always)]
    pub(crate) fn block_words(&mut self, [m0, m1]: [u64; 2], hibit: u64) {
        self.absorb_limbs(core::iter::once([m0, m1, hibit]));
    }

    /// The loop of [`Self::blocks`] over blocks given as limbs (each below 2^129).
    #[inline(always)]
    fn absorb_limbs(&mut self, mut blocks: impl Iterator<Item = [u64; 3]>) {
        let [r0, r1] = self.r;
        let s1 = r1 + (r1 >> 2);
        let Some(first) = blocks.next() else {
            return;
        };
        // x = h + m1 (with the 2^128 bit): top limb at most 4 + 1 + 1.
        let mut x = add_block(self.h, first);
        for block in blocks {
            x = mul_r_plus(x, r0, r1, s1, block);
        }
        self.h = mul_r_plus(x, r0, r1, s1, [0; 3]);
    }

    /// `h · r mod p`, partly reduced to the accumulator's invariant (`[2] <= 4`), for
    /// any `h` with `h[2] <= 7`: how the SIMD backends build their powers of `r`.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn times_r(&self, h: [u64; 3]) -> [u64; 3] {
        let [r0, r1] = self.r;
        mul_r_plus(h, r0, r1, r1 + (r1 >> 2), [0; 3])
    }

    /// The tag: `h` fully reduced mod p, plus `s`, mod 2^128, little-endian.
    pub(crate) fn finish(&self, s: &[u8; 16]) -> [u8; 16] {
        Self::finish_h(&self.h, s)
    }

    /// [`MacState::finish`] of an accumulator `h` held elsewhere (the burst MAC's lanes).
    #[inline(always)]
    pub(crate) fn finish_h(&[h0, h1, h2]: &[u64; 3], s: &[u8; 16]) -> [u8; 16] {
        // g = h + 5 - 2^130; since h < 2p, h mod p is g when g >= 0 (bit 130 of h + 5
        // set) and h otherwise.
        let t = u128::from(h0) + 5;
        let g0 = t as u64;
        let t = u128::from(h1) + (t >> 64);
        let g1 = t as u64;
        let g2 = h2 + (t >> 64) as u64;
        let use_g = Choice::from((g2 >> 2) as u8 & 1);
        let f0 = u64::conditional_select(&h0, &g0, use_g);
        let f1 = u64::conditional_select(&h1, &g1, use_g);

        let t = u128::from(f0) + u128::from(le64(&s[..8]));
        let t0 = t as u64;
        let t1 = f1
            .wrapping_add(le64(&s[8..]))
            .wrapping_add((t >> 64) as u64);
        let mut tag = [0u8; 16];
        tag[..8].copy_from_slice(&t0.to_le_bytes());
        tag[8..].copy_from_slice(&t1.to_le_bytes());
        tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every length below 16, from every position of a longer buffer: the words of
    /// the bytes copied into a zeroed block.
    #[test]
    fn tail_words_are_the_zero_padded_block() {
        let src: [u8; 32] = core::array::from_fn(|i| (0x81 + 7 * i) as u8);
        for n in 0..16 {
            for at in 0..=32 - n {
                let mut block = [0u8; 16];
                block[..n].copy_from_slice(&src[at..at + n]);
                let want = [le64(&block[..8]), le64(&block[8..])];
                assert_eq!(tail_words(&src[at..at + n]), want, "{n} bytes at {at}");
            }
        }
    }
}
