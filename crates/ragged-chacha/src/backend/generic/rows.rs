//! The row form for short messages and remainders: one to three sets of row vectors
//! interleaved, optionally with a block in the general-purpose registers beside them.

use super::lanes::Rows;
use super::rounds::BatchExtras;
use super::scalar::ScalarBlock;
use super::vertical::{split_key_block, write_keystream};
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

/// Keystream for up to `MAX_ROW_SETS * R::ROW_BLOCKS` blocks in the row form: `SETS`
/// (1 to 3) independent sets of row vectors, interleaved so their dependency chains
/// overlap, and with `SCALAR` one block more after them in the general-purpose
/// registers (a [`ScalarBlock`], its quarter rounds placed between the vector rounds),
/// XORed into the first `len` bytes
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
    const { assert!(SETS >= 1 && SETS <= MAX_ROW_SETS) };
    // SAFETY: as for `batch`: the CPU has R's features, and every access stays within
    // `len` bytes (the tail within `before + len`).
    unsafe {
        let w = &state.words;
        let (a0, b0, c0) = (R::row(w, 0), R::row(w, 1), R::row(w, 2));
        // Row 3 of each set: its own counters, ROW_BLOCKS blocks after the last set's.
        let mut d0 = [a0; SETS];
        for (s, d) in d0.iter_mut().enumerate() {
            *d = R::counter_row(w, counter.wrapping_add((s * R::ROW_BLOCKS) as u64));
        }
        let mut x = [[a0, b0, c0, a0]; SETS];
        for (set, d) in x.iter_mut().zip(d0) {
            set[3] = d;
        }
        let last = counter.wrapping_add((SETS * R::ROW_BLOCKS) as u64);
        let mut scalar = ScalarBlock::new(state, last);
        for round in 0..state.double_rounds {
            if SCALAR {
                scalar.between_pairs(0);
            }
            for [a, b, c, d] in x.iter_mut() {
                row_round(a, b, c, d);
            }
            if SCALAR {
                scalar.between_pairs(1);
            }
            for [a, _, c, d] in x.iter_mut() {
                diagonalize(a, c, d);
            }
            if SCALAR {
                scalar.between_pairs(2);
            }
            for [a, b, c, d] in x.iter_mut() {
                row_round(a, b, c, d);
            }
            if SCALAR {
                scalar.between_pairs(3);
            }
            for [a, _, c, d] in x.iter_mut() {
                undiagonalize(a, c, d);
            }
            extras.after_double_round(round);
        }
        let mut ks = [a0; 4 * MAX_ROW_SETS + 4];
        for (s, ([a, b, c, d], d0)) in x.into_iter().zip(d0).enumerate() {
            let message = R::rows_to_message([a.add(a0), b.add(b0), c.add(c0), d.add(d0)]);
            ks[4 * s..4 * s + 4].copy_from_slice(&message);
        }
        let per_block = 64 / R::BYTES;
        let vectors = 4 * SETS + if SCALAR { per_block } else { 0 };
        if SCALAR {
            let words = scalar.keystream(state, last);
            for i in 0..per_block {
                ks[4 * SETS + i] = R::block_vector(&words, i);
            }
        }
        split_key_block(&mut ks, extras);
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
