//! The lane vocabulary: the operations each instruction set provides, nothing else.
//!
//! [`Lanes`] is the vertical form (one 32-bit state word of `BLOCKS` blocks in a
//! vector); [`Rows`] the row form (one row of a block in each 128-bit lane). How the
//! batches use them, each instruction set's tuning, is its [`Schedule`]
//! (`backend/schedule.rs`).

use crate::backend::schedule::Schedule;

/// The lane operations a backend provides.
///
/// # Safety
///
/// Implementations may use instructions the CPU lacks. Every method is `unsafe`, and
/// callers must only call them on a CPU that has the instruction-set extensions the
/// implementing type documents (the backend's entry point checks this once).
pub(crate) unsafe trait Lanes: Copy + Schedule {
    /// Blocks processed side by side: the number of 32-bit lanes.
    const BLOCKS: usize;
    /// Bytes in one vector: `4 * BLOCKS`.
    const BYTES: usize = 4 * Self::BLOCKS;

    /// Every lane set to `x`.
    unsafe fn splat(x: u32) -> Self;
    /// Lane `i` holds `i`.
    unsafe fn lane_index() -> Self;
    /// 64-bit counters split in halves, moved on by `step`: `step` added to the low
    /// halves `lo`, and one to the high half `hi` of each lane whose low half wrapped.
    unsafe fn add_carry(lo: Self, hi: Self, step: Self) -> (Self, Self);
    /// Lane `i` holds the low and the high half of `counter + i` (wrapping).
    #[inline(always)]
    unsafe fn counters(counter: u64) -> (Self, Self) {
        // SAFETY: the caller upholds the CPU features.
        unsafe {
            let (lo, hi) = (
                Self::splat(counter as u32),
                Self::splat((counter >> 32) as u32),
            );
            Self::add_carry(lo, hi, Self::lane_index())
        }
    }
    /// The counter rows of `blocks` blocks later, from those of [`Lanes::counters`]
    /// (`hi` may have a word added to every lane). In the vectors only, so a loop of
    /// batches carries its counter rows from one batch to the next instead of
    /// broadcasting the scalar counter into them at the head of every batch.
    #[inline(always)]
    unsafe fn advance_counters(lo: Self, hi: Self, blocks: u32) -> (Self, Self) {
        // SAFETY: the caller upholds the CPU features.
        unsafe { Self::add_carry(lo, hi, Self::splat(blocks)) }
    }
    /// Lane-wise wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Lane-wise exclusive or.
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane-wise rotate left by 16 bits.
    unsafe fn rotl16(self) -> Self;
    /// Lane-wise rotate left by 12 bits.
    unsafe fn rotl12(self) -> Self;
    /// Lane-wise rotate left by 8 bits.
    unsafe fn rotl8(self) -> Self;
    /// Lane-wise rotate left by 7 bits.
    unsafe fn rotl7(self) -> Self;
    /// Turns sixteen word vectors (word `w` of each block) into sixteen vectors of
    /// keystream in message order: vector `i` is keystream bytes `i*BYTES..(i+1)*BYTES`.
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16];
    /// The inverse of [`Lanes::transpose`]: sixteen vectors of whole blocks in message
    /// order (vector `i` is bytes `i*BYTES..(i+1)*BYTES` of `BLOCKS` consecutive
    /// 16-word blocks) into sixteen word vectors (vector `w` holds word `w` of every
    /// block). The burst kernel loads each lane's own initial state this way.
    ///
    /// `transpose` is a fixed permutation of 32-bit words: with `n = BLOCKS` words a
    /// vector and `P = 64 / BYTES` vectors a block, it moves word `b` of input vector
    /// `n·q + j` (word `n·q + j` of block `b`) to word `j` of output vector `P·b + q`.
    /// The same shuffles undo it once the vectors are renamed on both sides: block
    /// vector `P·b + q` goes in as vector `n·q + b`, and output vector `P·c + q` is word
    /// vector `n·q + c`. The renaming is free (the vectors stay in registers), so this
    /// costs one transpose (with 16 lanes, `n = 16` and `P = 1`, no renaming at all).
    #[inline(always)]
    unsafe fn untranspose(blocks: [Self; 16]) -> [Self; 16] {
        // The renaming `i -> P·(i mod n) + i / n`, written out (an array built by a
        // closure is a call outside the caller's target features).
        macro_rules! renamed {
            ($v:expr, [$($i:literal),*]) => {
                [$($v[64 / Self::BYTES * ($i % Self::BLOCKS) + $i / Self::BLOCKS]),*]
            };
        }
        // SAFETY: the caller upholds the CPU features.
        let t = unsafe {
            Self::transpose(renamed!(
                blocks,
                [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
            ))
        };
        renamed!(t, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
    }
    /// Unaligned load of `BYTES` bytes.
    unsafe fn load(src: *const u8) -> Self;
    /// Unaligned store of `BYTES` bytes.
    unsafe fn store(self, dst: *mut u8);
    /// XORs the first `rem` bytes of this keystream vector (`0 < rem < BYTES`) into
    /// `input[..rem]`, writing `output[..rem]`, touching no byte outside the message.
    ///
    /// `before` is how many bytes of the same message precede `input` / `output`;
    /// they are readable, and in `output` they already hold their final value, so a
    /// backend may load and store a window that overlaps them as long as it rewrites
    /// those bytes with what they already hold.
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, before: usize);
}

/// The "horizontal" form for short messages: each 128-bit lane of a vector holds one
/// row (four words) of one block, so four vectors are `Lanes::BYTES / 16` whole blocks.
/// For one to a few blocks this beats the vertical form: it computes only the blocks
/// needed and needs no transpose (the diagonal round rotates words within rows).
///
/// # Safety
/// As for [`Lanes`]: callers guarantee the CPU features of the implementing type.
#[cfg(lane_simd)]
pub(crate) unsafe trait Rows: Lanes {
    /// Blocks in one set of four row vectors: one per 128-bit lane.
    const ROW_BLOCKS: usize = Self::BYTES / 16;

    /// Row `r` (words `4r..4r+4`) of `words` in every 128-bit lane.
    unsafe fn row(words: &[u32; 16], r: usize) -> Self;
    /// Row 3 of a state whose words 13, 14 and 15 are `tail`, for blocks
    /// `counter + lane` in lane `lane`: the low counter half in word 12, the high half
    /// added to word 13 (wrapping).
    unsafe fn counter_row(tail: [u32; 3], counter: u64) -> Self;
    /// Rotates the words of each 128-bit lane left by `N` (word `i` takes word
    /// `i + N mod 4`).
    unsafe fn rotate_words<const N: i32>(self) -> Self;
    /// Reorders the rows `[a, b, c, d]` of the blocks into keystream vectors in
    /// message order (vector `i` is bytes `i * BYTES..`).
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4];
    /// Vector `i` (`i < 64 / BYTES`) of a block given as its sixteen keystream words:
    /// bytes `i * BYTES..` of the block, in message order.
    #[inline(always)]
    unsafe fn block_vector(words: &[u32; 16], i: usize) -> Self {
        let mut bytes = [0u8; 64];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        // SAFETY: `i * BYTES + BYTES <= 64`; the caller upholds the CPU features.
        unsafe { Self::load(bytes.as_ptr().add(i * Self::BYTES)) }
    }
}
