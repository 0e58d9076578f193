//! The `memmove` implementations: an overlapping copy inside one buffer, what
//! `copy_within` and C's `memmove` do, in both directions.
//!
//! A case's offset is the signed distance from the source to the destination,
//! `dst - src` in bytes: negative moves the bytes down (the destination starts below
//! the source, so a copy may run lowest address first), positive moves them up (a copy
//! must start from the highest address). Each size is moved one byte down and up, where
//! source and destination share all but one byte, so no word or vector can be stored
//! before the bytes it covers have been read, and half its size down and up. The row
//! `1420-1` is a 1420-byte move one byte down, `1420+710` one 710 bytes up.
//!
//! The destination starts on a page boundary and the source `offset` bytes below it,
//! the same for every implementation (see [`Moves`]).
//!
//! Every call repeats the same move in the same buffer: the same addresses, length and
//! direction for every implementation. A move overwrites part of its own source, so the
//! bytes drift from call to call (the window slides by the distance each time); none
//! of these copies runs differently on different bytes, so the source is not restored
//! between calls, which would add a second copy to every timed call. The sampler's
//! cross-check compares the whole buffer, the bytes around both ranges included,
//! after each implementation's first call from the same starting bytes.

use std::hint::black_box;
use std::marker::PhantomData;
use std::ops::Range;

use super::memcpy::{Bytewise, Glibc, Named, OwnRunner, Owned, PAGE, Ragged, RaggedWord};
use super::memcpy::{WORD_KERNEL, pattern};
use super::registry::{ALIGN, Case, Implementation, Runner};

/// The `memmove` implementations.
pub fn memmove() -> Vec<Box<dyn Implementation>> {
    vec![
        Owned::<Moves<Ragged>>::boxed(),
        Owned::<Moves<RaggedWord>>::boxed(),
        Owned::<Moves<Glibc>>::boxed(),
        Owned::<Moves<Bytewise>>::boxed(),
    ]
}

/// The distances (`dst - src`) measured at `size`: one byte down and up, then half the
/// size down and up (left out below 4 bytes, where half the size is at most 1).
pub fn distances(size: usize) -> Vec<isize> {
    let half = isize::try_from(size / 2).expect("sizes are at most 1 GiB");
    let mut list = vec![-1, 1];
    if half > 1 {
        list.extend([-half, half]);
    }
    list
}

/// One way to copy `buf[src]` to `buf[dest ..]`, the two possibly overlapping.
trait Mover: Named {
    fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize);
}

/// `ragged_mem::copy_within`: the dispatched strategy, inlined into the caller.
impl Mover for Ragged {
    #[inline(always)]
    fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
        ragged_mem::copy_within(buf, src, dest);
    }
}

/// The word strategy's `memmove`, forced: shift-merged words, backwards for an upward
/// move.
impl Mover for RaggedWord {
    #[inline(always)]
    fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
        assert!(src.start <= src.end && src.end <= buf.len() && dest <= buf.len() - src.len());
        let base = buf.as_mut_ptr();
        // SAFETY: both ranges lie inside `buf` (asserted), which we hold mutably;
        // `memmove` allows them to overlap; the word kernel runs on every target.
        unsafe { WORD_KERNEL.memmove(base.add(dest), base.add(src.start), src.len()) }
    }
}

/// `<[u8]>::copy_within`, which calls the platform's (glibc's) `memmove`.
impl Mover for Glibc {
    #[inline(always)]
    fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
        buf.copy_within(src, dest);
    }
}

/// One volatile byte load and store at a time, in the direction the overlap needs
/// ([`ragged_mem::baseline::bytewise_within`]).
impl Mover for Bytewise {
    #[inline(always)]
    fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
        ragged_mem::baseline::bytewise_within(buf, src, dest);
    }
}

/// One case of one implementation: a buffer in which the same move is made each call.
struct Moves<M> {
    storage: Vec<u8>,
    /// The buffer the move works in, `storage[start .. start + len]`: everything the
    /// cross-check compares.
    start: usize,
    len: usize,
    /// The source and the destination, relative to `start`.
    src: usize,
    dst: usize,
    size: usize,
    mover: PhantomData<M>,
}

impl<M: Mover> OwnRunner for Moves<M> {
    type Of = M;

    /// The buffer starts on a page boundary and holds pattern bytes: `|offset|` rounded
    /// up to a page (the room an upward move's source needs below the destination),
    /// then the destination, then `|offset|` bytes (a downward move's source reaches
    /// that far past it) and `ALIGN` more, so a stray write on either side shows in
    /// the output.
    fn new(case: Case) -> Self {
        let reach = case.offset.unsigned_abs();
        let lead = reach.div_ceil(PAGE) * PAGE;
        let len = lead + case.size + reach + ALIGN;
        let mut storage = vec![0u8; PAGE + len];
        let start = storage.as_ptr().align_offset(PAGE);
        pattern(&mut storage[start..start + len], 0x2545_f491_4f6c_dd1d);
        Moves {
            storage,
            start,
            len,
            src: lead
                .checked_add_signed(-case.offset)
                .expect("within the lead"),
            dst: lead,
            size: case.size,
            mover: PhantomData,
        }
    }
}

impl<M: Mover> Runner for Moves<M> {
    #[inline(never)]
    fn run(&mut self) {
        let buf = &mut self.storage[self.start..self.start + self.len];
        M::move_within(
            black_box(buf),
            black_box(self.src..self.src + self.size),
            black_box(self.dst),
        );
        black_box(&mut self.storage);
    }

    fn output(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The move as the definition says: through a separate copy of the source.
    fn reference(buf: &mut [u8], src: Range<usize>, dest: usize) {
        let bytes = buf[src.clone()].to_vec();
        buf[dest..dest + src.len()].copy_from_slice(&bytes);
    }

    /// Checks `M`'s move of `buf[src]` to `dest` in a copy of `start` against `want`.
    fn check<M: Mover>(start: &[u8], src: Range<usize>, dest: usize, want: &[u8]) {
        let mut buf = start.to_vec();
        M::move_within(&mut buf, src.clone(), dest);
        assert_eq!(buf, want, "{}: {src:?} to {dest}", M::NAME);
    }

    #[test]
    fn every_mover_moves_exactly_its_range_both_ways() {
        let mut start = vec![0u8; 200];
        pattern(&mut start, 0x9e37_79b9_7f4a_7c15);
        for size in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100] {
            for from in [0, 1, 3, 8, 40, 50] {
                for dest in [0, 1, 2, 5, 9, 39, 40, 41, 47, 90] {
                    let range = from..from + size;
                    let mut want = start.clone();
                    reference(&mut want, range.clone(), dest);
                    check::<Ragged>(&start, range.clone(), dest, &want);
                    check::<RaggedWord>(&start, range.clone(), dest, &want);
                    check::<Glibc>(&start, range.clone(), dest, &want);
                    check::<Bytewise>(&start, range, dest, &want);
                }
            }
        }
    }

    #[test]
    fn distances_are_one_byte_and_half_the_size_both_ways() {
        assert_eq!(distances(1420), [-1, 1, -710, 710]);
        assert_eq!(distances(16), [-1, 1, -8, 8]);
        assert_eq!(distances(4), [-1, 1, -2, 2]);
        for size in 1..4 {
            assert_eq!(distances(size), [-1, 1], "{size}");
        }
    }

    #[test]
    fn runners_agree_with_the_reference_and_repeat_the_same_move() {
        for size in [1, 16, 1420, 5000] {
            for offset in distances(size) {
                let case = Case { size, offset };
                let mut runners: Vec<Box<dyn Runner>> =
                    memmove().iter().map(|imp| imp.prepare(case)).collect();
                let mut want = Moves::<Glibc>::new(case);
                // The destination on a page boundary, the source `offset` below it.
                let dst = want.storage.as_ptr() as usize + want.start + want.dst;
                assert_eq!(dst % PAGE, 0);
                assert_eq!(want.dst as isize - want.src as isize, offset);
                for _ in 0..2 {
                    let (src, dst) = (want.src, want.dst);
                    let buf = &mut want.storage[want.start..want.start + want.len];
                    reference(buf, src..src + size, dst);
                    for runner in &mut runners {
                        runner.run();
                        assert_eq!(runner.output(), want.output(), "{size}{offset:+}");
                    }
                }
            }
        }
    }
}
