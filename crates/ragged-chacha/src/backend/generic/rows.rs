//! The row form for short messages and remainders: one to three sets of row vectors
//! interleaved, optionally with a block in the general-purpose registers beside them.

use super::lanes::Rows;
use super::rounds::BatchExtras;
use super::scalar::ScalarBlock;
use super::vertical::{split_key_block, write_keystream};
use crate::backend::route::fresh_row_sets;
use crate::state::State;

/// One ChaCha round on row vectors: the quarter round applied to all four columns (or,
/// after `diagonalize`, all four diagonals) of every block at once.
#[inline(always)]
unsafe fn row_round<R: Rows>(a: &mut R, b: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.add(*b);
        *d = d.xor(*a).rotl16();
        *c = c.add(*d);
        *b = b.xor(*c).rotl12();
        *a = a.add(*b);
        *d = d.xor(*a).rotl8();
        *c = c.add(*d);
        *b = b.xor(*c).rotl7();
    }
}

/// Shifts rows so the diagonals line up as columns: rows a, c, d move and b stays,
/// which keeps the shuffles off the `b` dependency chain (b feeds the next step).
#[inline(always)]
unsafe fn diagonalize<R: Rows>(a: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.rotate_words::<3>();
        *c = c.rotate_words::<1>();
        *d = d.rotate_words::<2>();
    }
}

/// Undoes [`diagonalize`].
#[inline(always)]
unsafe fn undiagonalize<R: Rows>(a: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.rotate_words::<1>();
        *c = c.rotate_words::<3>();
        *d = d.rotate_words::<2>();
    }
}

/// The most row-vector sets [`rows_batch`] interleaves: twelve vectors of state, which
/// leaves registers for the temporaries on every backend.
pub(super) const MAX_ROW_SETS: usize = 3;

/// `SETS` (1 to [`MAX_ROW_SETS`]) independent sets of row vectors, the blocks
/// `counter, counter + 1, …` in lane order: the state of a row-form batch, stepped
/// through its double rounds by [`RowSets::step`], interleaved set by set so their
/// dependency chains overlap. A row-form batch runs it alone ([`rows_batch`]); the last
/// full vertical batch of a message runs it beside its own rounds for the message's
/// remainder (`fused.rs`).
pub(super) struct RowSets<R: Rows, const SETS: usize> {
    x: [[R; 4]; SETS],
    /// Rows 0 to 2 at the start, the same in every set.
    abc0: [R; 3],
    /// Row 3 of each set at the start: its own counters, `R::ROW_BLOCKS` blocks after
    /// the set before's.
    d0: [R; SETS],
}

impl<R: Rows, const SETS: usize> RowSets<R, SETS> {
    /// The initial rows of blocks `counter ..` of `state`; with `fresh`, words 13 to
    /// 15 read one by one ([`State::word`]), for the loads to be forwarded from the
    /// stores that just wrote them (a short message's only batch, whose wait is not
    /// hidden behind other work), else plainly.
    ///
    /// # Safety
    /// The CPU has the features `R` requires.
    #[inline(always)]
    pub(super) unsafe fn new(state: &State, counter: u64, fresh: bool) -> Self {
        const { assert!(SETS >= 1 && SETS <= MAX_ROW_SETS) };
        // SAFETY: R's features, as the caller guarantees.
        unsafe {
            let w = &state.words;
            let (a0, b0, c0) = (R::row(w, 0), R::row(w, 1), R::row(w, 2));
            let tail = if fresh {
                [state.word(13), state.word(14), state.word(15)]
            } else {
                [w[13], w[14], w[15]]
            };
            let mut d0 = [a0; SETS];
            for (s, d) in d0.iter_mut().enumerate() {
                *d = R::counter_row(tail, counter.wrapping_add((s * R::ROW_BLOCKS) as u64));
            }
            let mut x = [[a0, b0, c0, a0]; SETS];
            for (set, d) in x.iter_mut().zip(d0) {
                set[3] = d;
            }
            RowSets {
                x,
                abc0: [a0, b0, c0],
                d0,
            }
        }
    }

    /// Step `step` of a double round on every set: 0 the column round, 1 the
    /// diagonalization, 2 the diagonal round, 3 the undiagonalization.
    ///
    /// # Safety
    /// The CPU has the features `R` requires.
    #[inline(always)]
    pub(super) unsafe fn step(&mut self, step: usize) {
        // SAFETY: R's features, as the caller guarantees.
        unsafe {
            match step {
                0 | 2 => {
                    for [a, b, c, d] in self.x.iter_mut() {
                        row_round(a, b, c, d);
                    }
                }
                1 => {
                    for [a, _, c, d] in self.x.iter_mut() {
                        diagonalize(a, c, d);
                    }
                }
                _ => {
                    for [a, _, c, d] in self.x.iter_mut() {
                        undiagonalize(a, c, d);
                    }
                }
            }
        }
    }

    /// After the rounds: the keystream of the sets in message order (vector `i` is
    /// bytes `i * R::BYTES..`), in the first `4 * SETS` of the array; the rest is
    /// room for a scalar block's vectors.
    ///
    /// # Safety
    /// The CPU has the features `R` requires.
    #[inline(always)]
    pub(super) unsafe fn keystream(self) -> [R; 4 * MAX_ROW_SETS + 4] {
        // SAFETY: R's features, as the caller guarantees.
        unsafe {
            let [a0, b0, c0] = self.abc0;
            let mut ks = [a0; 4 * MAX_ROW_SETS + 4];
            for (s, ([a, b, c, d], d0)) in self.x.into_iter().zip(self.d0).enumerate() {
                let message = R::rows_to_message([a.add(a0), b.add(b0), c.add(c0), d.add(d0)]);
                ks[4 * s..4 * s + 4].copy_from_slice(&message);
            }
            ks
        }
    }
}

/// XORs the first `vectors` keystream vectors of `ks` (message order) into the first
/// `len` bytes (`len <= vectors * R::BYTES`), with the ISA's tail for a partial one.
///
/// # Safety
/// As for [`batch`](super::vertical::batch): the CPU has R's features; `input`
/// readable and `output` writable for `len` bytes, with the `before` bytes before them.
#[inline(always)]
pub(super) unsafe fn write_rows<R: Rows>(
    ks: &[R; 4 * MAX_ROW_SETS + 4],
    vectors: usize,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
) {
    // SAFETY: forwarded; `write_keystream!` touches only the first `len` bytes (and
    // rewrites, at most, the `before` bytes with what they hold).
    unsafe {
        match vectors {
            4 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3]);
            }
            5 | 6 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3, 4, 5]);
            }
            7 | 8 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3, 4, 5, 6, 7]);
            }
            9 | 10 => {
                write_keystream!(
                    R,
                    ks,
                    input,
                    output,
                    len,
                    before,
                    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                );
            }
            _ => {
                write_keystream!(
                    R,
                    ks,
                    input,
                    output,
                    len,
                    before,
                    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
                );
            }
        }
    }
}

/// Keystream for up to `MAX_ROW_SETS * R::ROW_BLOCKS` blocks in the row form: `SETS`
/// (1 to 3) independent sets of row vectors ([`RowSets`]), and with `SCALAR` one block
/// more after them in the general-purpose registers (a [`ScalarBlock`], its quarter
/// rounds placed between the vector rounds), XORed into the first `len` bytes
/// (`0 < len <= 64 * (SETS * R::ROW_BLOCKS + SCALAR)`). `extras` as for [`batch`]
/// (with a key block, one block less).
///
/// # Safety
/// As for [`batch`].
///
/// [`batch`]: super::vertical::batch
#[inline(always)]
pub(super) unsafe fn rows_batch<R: Rows, const SETS: usize, const SCALAR: bool>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut impl BatchExtras,
) {
    // SAFETY: as for `batch`: the CPU has R's features, and every access stays within
    // `len` bytes (the tail within `before + len`).
    unsafe {
        // One set reads fresh on every core; more sets of 512-bit rows (the only ones
        // measured on the core that prefers it) where `fresh_row_sets` says so.
        let fresh = SETS == 1 || (R::BYTES == 64 && fresh_row_sets());
        let mut sets = RowSets::<R, SETS>::new(state, counter, fresh);
        let last = counter.wrapping_add((SETS * R::ROW_BLOCKS) as u64);
        let mut scalar = ScalarBlock::new(state, last);
        for round in 0..state.double_rounds {
            if SCALAR {
                scalar.between_pairs(0);
            }
            sets.step(0);
            if SCALAR {
                scalar.between_pairs(1);
            }
            sets.step(1);
            if SCALAR {
                scalar.between_pairs(2);
            }
            sets.step(2);
            if SCALAR {
                scalar.between_pairs(3);
            }
            sets.step(3);
            extras.after_double_round(round);
        }
        let mut ks = sets.keystream();
        let per_block = 64 / R::BYTES;
        let vectors = 4 * SETS + if SCALAR { per_block } else { 0 };
        if SCALAR {
            let words = scalar.keystream(state, last);
            for i in 0..per_block {
                ks[4 * SETS + i] = R::block_vector(&words, i);
            }
        }
        split_key_block(&mut ks, extras);
        write_rows(&ks, vectors, input, output, len, before);
    }
}
