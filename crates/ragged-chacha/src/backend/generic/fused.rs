//! The remainder fused into the last full batch: a message of more than one full
//! vertical batch computes its last few blocks in the row form *inside* that batch's
//! round loop. Alone, the remainder's row form is bound by the latency of its
//! dependency chains while the vector units idle; beside the vertical rounds, which
//! are bound by throughput, its instructions fill the gaps, and the remainder costs
//! little more than its stores.
//!
//! ```text
//! fused_batch(len = vertical + rest):
//!     x = initial(counter)                    the vertical batch, W::BLOCKS lanes
//!     sets = RowSets(counter + W::BLOCKS)     the rest, 1..=3 row sets (or two
//!                                             sets and a scalar block)
//!     each double round: a vertical round, then a step of the sets (RowsBeside)
//!     write the vertical keystream, then the sets' keystream after it
//! ```

use super::lanes::{Lanes, Rows};
use super::rounds::{BatchExtras, Beside};
use super::rows::{MAX_ROW_SETS, RowSets, write_rows};
use super::scalar::ScalarBlock;
use super::vertical::{keystream_vectors, split_key_block, xor_full_batch, xor_vectors};
use crate::state::State;

/// The most blocks a remainder fused into a batch of `W` with row sets of `H` can have.
#[inline(always)]
pub(super) const fn max_fused_blocks<H: Rows>() -> usize {
    MAX_ROW_SETS * H::ROW_BLOCKS
}

/// Extras that run row sets beside a vertical batch's rounds, one step of theirs
/// between each pair of the batch's vector quarter rounds (after each of its rounds
/// where it parks no rows), with `SCALAR` one block more in the general-purpose
/// registers beside them, and pass everything else on to the batch's own `inner`
/// extras (the AEAD's key block).
struct RowsBeside<'e, R: Rows, const SETS: usize, const SCALAR: bool, E: BatchExtras> {
    sets: RowSets<R, SETS>,
    /// The block after the sets' (used with `SCALAR` only).
    scalar: ScalarBlock,
    inner: &'e mut E,
}

impl<R: Rows, const SETS: usize, const SCALAR: bool, E: BatchExtras> BatchExtras
    for RowsBeside<'_, R, SETS, SCALAR, E>
{
    const KEY_BLOCK: bool = E::KEY_BLOCK;

    const BESIDE: Beside = match E::BESIDE {
        Beside::Mac => Beside::Mac,
        _ => Beside::Rows,
    };

    #[inline(always)]
    fn key_block(&mut self) -> Option<&mut [u8; 64]> {
        self.inner.key_block()
    }

    #[inline(always)]
    fn key_ready(&mut self) {
        self.inner.key_ready();
    }

    #[inline(always)]
    fn after_double_round(&mut self, round: u32) {
        self.inner.after_double_round(round);
    }

    #[inline(always)]
    fn between_pairs(&mut self, pair: usize) {
        self.inner.between_pairs(pair);
        if SCALAR {
            self.scalar.between_pairs(pair);
        }
        // SAFETY: a `RowsBeside` is only built by `fused_sets`, whose caller
        // guarantees R's features.
        unsafe { self.sets.step(pair) };
    }
}

/// A full batch of `W` and a remainder of `len - vertical` bytes (`vertical` the
/// batch's message bytes: `64 * W::BLOCKS`, one block less with a key block) in
/// `SETS` row sets of `H` beside it, from block `counter`, and with `SCALAR` a block
/// after the sets' in the general-purpose registers.
///
/// # Safety
/// As for [`fused_batch`], with `len - vertical <= 64 * (SETS * H::ROW_BLOCKS +
/// SCALAR)`.
#[inline(always)]
pub(super) unsafe fn fused_sets<
    W: Lanes,
    H: Rows,
    const SETS: usize,
    const SCALAR: bool,
    E: BatchExtras,
>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut E,
) {
    let vertical = 64 * W::BLOCKS - if E::KEY_BLOCK { 64 } else { 0 };
    // SAFETY: the CPU has W's and H's features; the vertical batch writes bytes
    // `0..vertical`, the sets `vertical..len` with the `before + vertical` bytes
    // before them in the same message; the key block (if any) goes to `extras`.
    unsafe {
        let rest_counter = counter.wrapping_add(W::BLOCKS as u64);
        let last = rest_counter.wrapping_add((SETS * H::ROW_BLOCKS) as u64);
        let mut beside = RowsBeside::<H, SETS, SCALAR, E> {
            // Fresh reads for one set only: beside the vertical batch, more sets
            // measured level either way (the commit that added `fresh_row_sets`).
            sets: RowSets::new(state, rest_counter, SETS == 1),
            scalar: ScalarBlock::new(state, last),
            inner: extras,
        };
        let mut ks = keystream_vectors::<W>(state, counter, &mut beside);
        if split_key_block(&mut ks, &mut beside) {
            xor_vectors(&ks, input, output, vertical, before);
        } else {
            xor_full_batch(&ks, input, output);
        }
        let mut rest = beside.sets.keystream();
        let per_block = 64 / H::BYTES;
        if SCALAR {
            let words = beside.scalar.keystream(state, last);
            for v in 0..per_block {
                rest[4 * SETS + v] = H::block_vector(&words, v);
            }
        }
        let vectors = 4 * SETS + if SCALAR { per_block } else { 0 };
        let (i, o) = (input.add(vertical), output.add(vertical));
        write_rows(&rest, vectors, i, o, len - vertical, before + vertical);
    }
}

/// One full vertical batch of `W` and the remainder after it, `0 < len - vertical <=
/// 64 * max_fused_blocks::<H>()` bytes (`vertical` as for [`fused_sets`]), in as few
/// row sets of `H` as hold it, run in the batch's round loop; where the schedule says
/// so ([`Schedule::FUSED_SCALAR_BLOCK`]), a remainder of one block more than two sets
/// as two sets and a scalar block rather than a third set.
///
/// [`Schedule::FUSED_SCALAR_BLOCK`]: crate::backend::schedule::Schedule::FUSED_SCALAR_BLOCK
///
/// # Safety
/// As for [`batch`](super::vertical::batch) with `W` and `H`: the CPU has their
/// features; `input` readable and `output` writable for `len` bytes, with the
/// `before` bytes before them; equal or disjoint.
#[inline(always)]
pub(super) unsafe fn fused_batch<W: Lanes, H: Rows, E: BatchExtras>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut E,
) {
    let vertical = 64 * W::BLOCKS - if E::KEY_BLOCK { 64 } else { 0 };
    let rest_blocks = (len - vertical).div_ceil(64);
    // SAFETY: forwarded; the sets chosen hold the remainder's blocks.
    unsafe {
        if rest_blocks <= H::ROW_BLOCKS {
            fused_sets::<W, H, 1, false, E>(state, counter, input, output, len, before, extras);
        } else if rest_blocks <= 2 * H::ROW_BLOCKS {
            fused_sets::<W, H, 2, false, E>(state, counter, input, output, len, before, extras);
        } else if W::FUSED_SCALAR_BLOCK
            && !matches!(E::BESIDE, Beside::Mac)
            && rest_blocks == 2 * H::ROW_BLOCKS + 1
        {
            fused_sets::<W, H, 2, true, E>(state, counter, input, output, len, before, extras);
        } else {
            fused_sets::<W, H, 3, false, E>(state, counter, input, output, len, before, extras);
        }
    }
}
