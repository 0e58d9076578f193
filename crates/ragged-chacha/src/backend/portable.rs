//! Plain Rust, one block at a time: runs everywhere and is the reference every other
//! backend is tested against. It is the generic algorithm instantiated with a single
//! 32-bit word per lane, so it shares the round function with the SIMD backends.

use super::generic::{self, Lanes};
use super::two_pass;
use crate::state::State;

/// One state word of one block.
#[derive(Clone, Copy)]
pub(crate) struct Word(pub(crate) u32);

// SAFETY: plain integer arithmetic; no method needs any CPU feature, and memory is
// only touched through the pointers the caller vouches for.
unsafe impl Lanes for Word {
    const BLOCKS: usize = 1;

    #[inline(always)]
    unsafe fn splat(x: u32) -> Self {
        Word(x)
    }
    #[inline(always)]
    unsafe fn lane_index() -> Self {
        Word(0)
    }
    #[inline(always)]
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self) {
        let (lo, wrapped) = lo.0.overflowing_add(step.0);
        (Word(lo), Word(hi.0.wrapping_add(u32::from(wrapped))))
    }
    #[inline(always)]
    unsafe fn add(self, other: Self) -> Self {
        Word(self.0.wrapping_add(other.0))
    }
    #[inline(always)]
    unsafe fn xor(self, other: Self) -> Self {
        Word(self.0 ^ other.0)
    }
    #[inline(always)]
    unsafe fn rotl16(self) -> Self {
        Word(self.0.rotate_left(16))
    }
    #[inline(always)]
    unsafe fn rotl12(self) -> Self {
        Word(self.0.rotate_left(12))
    }
    #[inline(always)]
    unsafe fn rotl8(self) -> Self {
        Word(self.0.rotate_left(8))
    }
    #[inline(always)]
    unsafe fn rotl7(self) -> Self {
        Word(self.0.rotate_left(7))
    }
    #[inline(always)]
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16] {
        x
    }
    #[inline(always)]
    unsafe fn load(src: *const u8) -> Self {
        // SAFETY: the caller guarantees 4 readable bytes at `src`.
        Word(u32::from_le(unsafe { src.cast::<u32>().read_unaligned() }))
    }
    #[inline(always)]
    unsafe fn store(self, dst: *mut u8) {
        // SAFETY: the caller guarantees 4 writable bytes at `dst`.
        unsafe { dst.cast::<u32>().write_unaligned(self.0.to_le()) }
    }
    #[inline(always)]
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, _before: usize) {
        let ks = self.0.to_le_bytes();
        for (i, k) in ks.iter().enumerate().take(rem) {
            // SAFETY: `i < rem`, and the caller guarantees `rem` bytes at both pointers.
            unsafe { *output.add(i) = *input.add(i) ^ k };
        }
    }
}

/// XORs keystream into `len` bytes, one block at a time.
///
/// # Safety
/// `input` is readable and `output` writable for `len` bytes; they are the same
/// pointer or do not overlap.
pub(crate) unsafe fn xor_keystream(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: `Word` needs no CPU feature; the pointer contract is forwarded.
    unsafe { generic::xor_keystream::<Word, Word, Word>(state, counter, input, output, len) }
}

two_pass::entry_points!();

/// The ChaCha permutation without the final addition, as HChaCha needs it.
pub(crate) fn permute(words: [u32; 16], double_rounds: u32) -> [u32; 16] {
    let mut x = words.map(Word);
    // SAFETY: `Word` needs no CPU feature.
    unsafe { generic::rounds(&mut x, double_rounds) };
    x.map(|w| w.0)
}
