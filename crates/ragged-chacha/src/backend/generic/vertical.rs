//! Vertical batches: `V::BLOCKS` blocks side by side, one block a lane — the initial
//! state, the rounds, the feed-forward and transpose, and the XOR into the message
//! (whole vectors, then the ISA's tail trick); and the batch with one block more in the
//! general-purpose registers ([`ScalarBlock`]).

use super::lanes::Lanes;
#[cfg(lane_simd)]
use super::rounds::rounds_side_by_side;
use super::rounds::{BatchExtras, rounds_interleaved};
use super::scalar::ScalarBlock;
use crate::state::State;

/// XORs keystream vectors `ks[i]` (message order) into `len` bytes: whole vectors,
/// then the ISA's tail for the partial one. Unrolled over the listed indices so every
/// vector is addressed by a constant and stays in a register. Returns from the
/// enclosing function when the message ends.
macro_rules! write_keystream {
    ($v:ty, $ks:expr, $input:expr, $output:expr, $len:expr, $before:expr, [$($i:literal),*]) => {
        $(
            let at = $i * <$v>::BYTES;
            if $len >= at + <$v>::BYTES {
                $ks[$i].xor(<$v>::load($input.add(at))).store($output.add(at));
            } else {
                if $len > at {
                    $ks[$i].xor_tail($input.add(at), $output.add(at), $len - at, $before + at);
                }
                return;
            }
        )*
    };
}
#[cfg(lane_simd)]
pub(super) use write_keystream;

/// Computes `V::BLOCKS` keystream blocks starting at block `counter` and XORs the
/// first `len` bytes (`0 < len <= 64 * V::BLOCKS`) of them into the message.
///
/// Where `extras` gives a key block, the first block (block `counter`) goes there
/// instead of into the message, which then takes blocks `counter + 1 …`
/// (`len <= 64 * (V::BLOCKS - 1)`). Inlined, so `()` extras cost nothing.
///
/// # Safety
/// The CPU has the features `V` requires; `input` is readable and `output` writable for
/// `len` bytes and for the `before` bytes that precede them; `input` and `output` are
/// either the same pointer or do not overlap.
#[inline(always)]
pub(super) unsafe fn batch<V: Lanes>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut impl BatchExtras,
) {
    // SAFETY: the CPU has V's features; the pointer ranges are as this function requires,
    // and every access below stays within `len` bytes (the tail within `before + len`),
    // and the key's 64 bytes.
    unsafe {
        let mut ks = keystream_vectors::<V>(state, counter, extras);
        if !split_key_block(&mut ks, extras) && len == 64 * V::BLOCKS {
            xor_full_batch(&ks, input, output);
            return;
        }
        xor_vectors(&ks, input, output, len, before);
    }
}

/// XORs keystream vectors `ks` (message order) into the first `len` bytes
/// (`len <= 64 * V::BLOCKS`): whole vectors, then the ISA's tail for a partial one.
///
/// # Safety
/// As for [`batch`].
#[inline(always)]
pub(super) unsafe fn xor_vectors<V: Lanes>(
    ks: &[V; 16],
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
) {
    // SAFETY: forwarded; only the first `len` bytes are touched (the tail may rewrite
    // the `before` bytes with what they hold).
    unsafe {
        write_keystream!(
            V,
            ks,
            input,
            output,
            len,
            before,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
        );
    }
}

/// The counter rows (words 12 and 13) of a vertical batch: the low halves of its
/// blocks' counters, and their high halves plus word 13. A loop of batches carries
/// them from one batch to the next ([`CounterRows::advanced`]): built afresh from the
/// scalar counter, they cost every batch a transfer from the general-purpose registers
/// into the vectors at its head, and measured slower (docs/tuning.md, "ChaCha
/// backends").
#[derive(Clone, Copy)]
pub(super) struct CounterRows<V> {
    lo: V,
    hi: V,
}

impl<V: Lanes> CounterRows<V> {
    /// The rows of the batch that starts at block `counter`.
    ///
    /// # Safety
    /// The CPU has the features `V` requires.
    #[inline(always)]
    pub(super) unsafe fn at(state: &State, counter: u64) -> Self {
        // SAFETY: the CPU has V's features.
        unsafe {
            let (lo, hi) = V::counters(counter);
            CounterRows {
                lo,
                hi: hi.add(V::splat(state.words[13])),
            }
        }
    }

    /// The rows of the batch `blocks` blocks later.
    ///
    /// # Safety
    /// The CPU has the features `V` requires.
    #[inline(always)]
    pub(super) unsafe fn advanced(self, blocks: usize) -> Self {
        // SAFETY: the CPU has V's features.
        let (lo, hi) = unsafe { V::advance_counters(self.lo, self.hi, blocks as u32) };
        CounterRows { lo, hi }
    }
}

/// A full batch of `V::BLOCKS` blocks whose counter rows are `rows`, XORed into
/// `64 * V::BLOCKS` bytes: the loop body of a long message.
///
/// Every batch of the loop reads the state fresh ([`initial`]), though only the first
/// needs to: the volatile reads are not hoisted out of the loop, which measured level
/// at 16 KiB (docs/tuning.md, `State::word`'s row); a first batch of its own would put
/// a second copy of this body in every plan.
///
/// # Safety
/// As for [`batch`] with `len = 64 * V::BLOCKS` and no extras.
#[inline(always)]
pub(super) unsafe fn full_batch<V: Lanes>(
    state: &State,
    rows: CounterRows<V>,
    input: *const u8,
    output: *mut u8,
) {
    // SAFETY: the CPU has V's features; the batch's bytes are the caller's.
    unsafe {
        let ks = keystream_vectors_at::<V, true>(state, rows, &mut ());
        xor_full_batch(&ks, input, output);
    }
}

/// Two vertical batches side by side, the blocks whose counter rows are `rows` and the
/// `V::BLOCKS` after them, their rounds interleaved step by step
/// ([`rounds_side_by_side`]), XORed into `len` bytes (`64 * V::BLOCKS < len <=
/// 128 * V::BLOCKS`): for cores whose vertical rounds alone are bound by the latency
/// of their vector operations, where the second batch's chains fill the pipes the
/// first leaves idle (both states take all 32 vector registers: AVX-512).
///
/// # Safety
/// As for [`batch`] with that `len` and no extras.
#[cfg(lane_simd)]
#[inline(always)]
pub(super) unsafe fn batch_pair<V: Lanes>(
    state: &State,
    rows: CounterRows<V>,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
) {
    let half = 64 * V::BLOCKS;
    debug_assert!(len > half && len <= 2 * half);
    // SAFETY: the CPU has V's features; the first batch covers bytes `0..half`, the
    // second `half..len` with the `before + half` bytes before it in the message.
    unsafe {
        let next = rows.advanced(V::BLOCKS);
        let mut x = initial::<V, true>(state, rows);
        let mut y = x;
        (y[12], y[13]) = (next.lo, next.hi);
        rounds_side_by_side(&mut x, &mut y, state.double_rounds);
        xor_full_batch(&feed_forward(state, rows, x), input, output);
        let (ks, i, o) = (
            feed_forward(state, next, y),
            input.add(half),
            output.add(half),
        );
        if len == 2 * half {
            xor_full_batch(&ks, i, o);
        } else {
            xor_vectors(&ks, i, o, len - half, before + half);
        }
    }
}

/// A full batch of `V::BLOCKS + 1` blocks from block `counter` (whose counter rows are
/// `rows`): `V::BLOCKS` in the vectors and the last one as a [`ScalarBlock`], XORed
/// into `64 * (V::BLOCKS + 1)` bytes.
///
/// # Safety
/// As for [`batch`] with `len = 64 * (V::BLOCKS + 1)`.
#[inline(always)]
pub(super) unsafe fn batch_nine<V: Lanes>(
    state: &State,
    counter: u64,
    rows: CounterRows<V>,
    input: *const u8,
    output: *mut u8,
) {
    // SAFETY: the CPU has V's features; every access is within the batch's
    // `64 * (V::BLOCKS + 1)` bytes.
    unsafe {
        let last = counter.wrapping_add(V::BLOCKS as u64);
        let mut ninth = ScalarBlock::new(state, last);
        let ks = keystream_vectors_at::<V, false>(state, rows, &mut ninth);
        xor_full_batch(&ks, input, output);
        let words = ninth.keystream(state, last);
        // The ninth block, eight bytes at a time.
        let (i9, o9) = (input.add(64 * V::BLOCKS), output.add(64 * V::BLOCKS));
        for k in 0..8 {
            let word = u64::from(words[2 * k]) | (u64::from(words[2 * k + 1]) << 32);
            let src = i9.add(8 * k).cast::<u64>().read_unaligned();
            let out = u64::from_le(src) ^ word;
            o9.add(8 * k).cast::<u64>().write_unaligned(out.to_le());
        }
    }
}

/// The keystream of blocks `counter ..` as `V::BLOCKS` blocks of transposed vectors
/// (`V::BYTES` consecutive bytes each): the initial state, the rounds (with `extras`
/// between them) and the feed-forward.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
pub(super) unsafe fn keystream_vectors<V: Lanes>(
    state: &State,
    counter: u64,
    extras: &mut impl BatchExtras,
) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe { keystream_vectors_at::<V, true>(state, CounterRows::at(state, counter), extras) }
}

/// As [`keystream_vectors`], for the batch whose counter rows are `rows`; `FRESH` as
/// for [`initial`]. Not for [`batch_nine`], whose scalar block reads the same words
/// plainly: read both ways, they crowded its AVX2 round loop into one more spill.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn keystream_vectors_at<V: Lanes, const FRESH: bool>(
    state: &State,
    rows: CounterRows<V>,
    extras: &mut impl BatchExtras,
) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe {
        let mut x = initial::<V, FRESH>(state, rows);
        rounds_interleaved(&mut x, state.double_rounds, extras);
        feed_forward(state, rows, x)
    }
}

/// The keystream of a batch whose rounds left `x`: the initial state (counter rows
/// `rows`, read plainly, see [`initial`]) added back, then transposed into message
/// order.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn feed_forward<V: Lanes>(state: &State, rows: CounterRows<V>, mut x: [V; 16]) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe {
        let init = initial::<V, false>(state, rows);
        for i in 0..16 {
            x[i] = x[i].add(init[i]);
        }
        V::transpose(x)
    }
}

/// Where `extras` takes a key block: stores block 0 (the first 64 bytes of `ks`, in
/// message order) there, moves the vectors after it to the front for the message, and
/// tells `extras` the key is ready. Returns whether it did.
///
/// # Safety
/// The CPU has the features `V` requires; `ks` holds at least one block.
#[inline(always)]
pub(super) unsafe fn split_key_block<V: Lanes, E: BatchExtras, const N: usize>(
    ks: &mut [V; N],
    extras: &mut E,
) -> bool {
    let key = extras.key_block();
    // The batch was sized by `KEY_BLOCK` before this call: it must say what
    // `key_block` does.
    debug_assert_eq!(key.is_some(), E::KEY_BLOCK);
    let Some(key) = key else {
        return false;
    };
    let skip = 64 / V::BYTES;
    for (i, v) in ks[..skip].iter().enumerate() {
        // SAFETY: `i * V::BYTES + V::BYTES <= 64`: inside the key; V's features.
        unsafe { v.store(key.as_mut_ptr().add(i * V::BYTES)) };
    }
    // A new array, not a copy loop or `copy_within`: after inlining the vectors live
    // in registers and this is a renaming, where the others became a `vzeroupper` and
    // a call to `memmove` through the stack on every such seal (`copy_within` with
    // AVX2 and AVX-512, the loop with AVX-512).
    let shifted = *ks;
    *ks = core::array::from_fn(|i| shifted[(i + skip).min(N - 1)]);
    extras.key_ready();
    true
}

/// XORs a full batch of keystream (`ks`, transposed: `V::BYTES` consecutive bytes
/// each) into `64 * V::BLOCKS` bytes, storing in the order the transpose finishes the
/// vectors.
///
/// # Safety
/// The CPU has the features `V` requires; `64 * V::BLOCKS` bytes readable at `input`
/// and writable at `output`.
#[inline(always)]
pub(super) unsafe fn xor_full_batch<V: Lanes>(ks: &[V; 16], input: *const u8, output: *mut u8) {
    macro_rules! store_in_order {
        ($($i:literal),*) => {
            $(
                let at = V::STORE_ORDER[$i] * V::BYTES;
                // SAFETY: `at + V::BYTES <= 64 * V::BLOCKS` (the caller's bytes); the
                // CPU has V's features.
                unsafe { ks[V::STORE_ORDER[$i]].xor(V::load(input.add(at))).store(output.add(at)) };
            )*
        };
    }
    store_in_order!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/// The sixteen initial state vectors of the batch whose counter rows are `rows`.
///
/// `FRESH` for the batch's first read, before its rounds: each word read on its own
/// ([`State::word`]), since the caller may just have written the state. The
/// feed-forward after the rounds reads the words plainly, so that LLVM can take them
/// from memory where it needs them: words kept from the first read through the rounds
/// cost the round loops stack spills (`scripts/codegen-guard`).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn initial<V: Lanes, const FRESH: bool>(state: &State, rows: CounterRows<V>) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe {
        let word = |i: usize| V::splat(if FRESH { state.word(i) } else { state.words[i] });
        [
            word(0),
            word(1),
            word(2),
            word(3),
            word(4),
            word(5),
            word(6),
            word(7),
            word(8),
            word(9),
            word(10),
            word(11),
            rows.lo,
            rows.hi,
            word(14),
            word(15),
        ]
    }
}
