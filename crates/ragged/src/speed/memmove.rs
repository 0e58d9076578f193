//! The `memmove` implementations: an overlapping copy inside one buffer, what
//! `copy_within` and C's `memmove` do, in both directions.
//!
//! A case's offset is the signed distance from the source to the destination,
//! `dst - src` in bytes: negative moves the bytes down (the destination starts below
//! the source, so a copy may run lowest address first), positive moves them up (a copy
//! must start from the highest address). Each size is moved one byte down and up, where
//! source and destination share all but one byte, so nearly every store overwrites
//! source bytes and only a copy in the right direction works, and half its size down
//! and up. The row `1420-1` is a 1420-byte move one byte down, `1420+710` one 710 bytes
//! up.
//!
//! The destination starts on a page boundary and the source `offset` bytes below it
//! (above it for a negative offset), the same for every implementation (see
//! [`Window`]).
//!
//! Every call repeats the same move in the same buffer: the same addresses, length and
//! direction for every implementation. A move overwrites part of its own source, so the
//! bytes drift from call to call (the window slides by the distance each time); none
//! of these copies runs differently on different bytes, so the source is not restored
//! between calls, which would add a second copy to every timed call. The sampler's
//! cross-check compares the whole buffer, the bytes around both ranges included,
//! after each implementation's first call from the same starting bytes.
//!
//! Above `memcpy`'s `LARGE` size the byte loop is left out, as there, and every
//! implementation and distance of a size shares one buffer (see [`SharedMoves`]).

use std::cell::RefCell;
use std::hint::black_box;
use std::marker::PhantomData;
use std::ops::Range;
use std::rc::Rc;

use super::memcpy::{
    Bytewise, CaseRunner, Glibc, Named, PAGE, PerCase, Pool, Ragged, RaggedAvx2, RaggedAvx512,
    RaggedAvx512Zmm, RaggedWord, push_pinned,
};
use super::memcpy::{WORD_KERNEL, fingerprint, pattern};
use super::registry::{ALIGN, Case, Implementation, Runner};

/// The `memmove` implementations for the cases of one part of the primitive: every one
/// for sizes up to [`super::memcpy::LARGE`], the fast ones on shared buffers above it;
/// with `backends`, also the pinned ragged paths this CPU has, as in `memcpy`.
pub fn memmove(large: bool, backends: bool) -> Vec<Box<dyn Implementation>> {
    if large {
        let pool = Pool::default();
        let mut list = vec![
            PerCase::<SharedMoves<Ragged>>::boxed(&pool),
            PerCase::<SharedMoves<RaggedWord>>::boxed(&pool),
        ];
        if backends {
            push_pinned!(list, SharedMoves, &pool);
        }
        list.push(PerCase::<SharedMoves<Glibc>>::boxed(&pool));
        list
    } else {
        let mut list = vec![
            PerCase::<Moves<Ragged>>::boxed(&()),
            PerCase::<Moves<RaggedWord>>::boxed(&()),
        ];
        if backends {
            push_pinned!(list, Moves, &());
        }
        list.extend([
            PerCase::<Moves<Glibc>>::boxed(&()),
            PerCase::<Moves<Bytewise>>::boxed(&()),
        ]);
        list
    }
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

/// A pinned ragged-mem kernel's `memmove`, like [`RaggedWord`]'s.
macro_rules! pinned_mover {
    ($($name:ident),*) => {$(
        impl Mover for $name {
            #[inline(always)]
            fn move_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
                assert!(
                    src.start <= src.end && src.end <= buf.len() && dest <= buf.len() - src.len()
                );
                let base = buf.as_mut_ptr();
                // SAFETY: both ranges lie inside `buf` (asserted), which we hold
                // mutably; `memmove` allows them to overlap; the kernel's availability
                // is asserted by the call.
                unsafe { $name::KERNEL.memmove(base.add(dest), base.add(src.start), src.len()) }
            }
        }
    )*};
}

pinned_mover!(RaggedAvx2, RaggedAvx512, RaggedAvx512Zmm);

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

/// The buffer moves of `size` bytes by up to `reach` bytes either way are made in, all
/// pattern bytes: it starts on a page boundary with `reach` rounded up to a page (the
/// room an upward move's source needs below the destination), then the destination,
/// then `reach` bytes (a downward move's source reaches that far past it) and `ALIGN`
/// more, so a stray write on either side shows in the output.
struct Window {
    storage: Vec<u8>,
    /// The buffer, `storage[start .. start + len]`.
    start: usize,
    len: usize,
    /// The destination, relative to `start`.
    dst: usize,
    size: usize,
}

impl Window {
    fn new(size: usize, reach: usize) -> Window {
        let lead = reach.div_ceil(PAGE) * PAGE;
        let len = lead + size + reach + ALIGN;
        let storage = vec![0u8; PAGE + len];
        let start = storage.as_ptr().align_offset(PAGE);
        let mut window = Window {
            storage,
            start,
            len,
            dst: lead,
            size,
        };
        window.fill();
        window
    }

    /// Puts the pattern bytes back.
    fn fill(&mut self) {
        pattern(
            &mut self.storage[self.start..self.start + self.len],
            0x2545_f491_4f6c_dd1d,
        );
    }

    /// The source of the move by `offset` (`dst - src`), relative to `start`.
    fn src(&self, offset: isize) -> usize {
        self.dst
            .checked_add_signed(-offset)
            .filter(|src| src + self.size <= self.len)
            .expect("the window reaches this far")
    }

    /// `M`'s move of the bytes at `src` to the destination.
    #[inline(always)]
    fn move_from<M: Mover>(&mut self, src: usize) {
        let buf = &mut self.storage[self.start..self.start + self.len];
        M::move_within(
            black_box(buf),
            black_box(src..src + self.size),
            black_box(self.dst),
        );
        black_box(&mut self.storage);
    }

    fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

/// One case of one implementation: a window of its own in which the same move is made
/// each call; the whole window is its output.
struct Moves<M> {
    window: Window,
    src: usize,
    mover: PhantomData<M>,
}

impl<M: Mover> CaseRunner for Moves<M> {
    type Of = M;
    type Shared = ();

    fn new(case: Case, _: &()) -> Self {
        let window = Window::new(case.size, case.offset.unsigned_abs());
        Moves {
            src: window.src(case.offset),
            window,
            mover: PhantomData,
        }
    }
}

impl<M: Mover> Runner for Moves<M> {
    #[inline(never)]
    fn run(&mut self) {
        self.window.move_from::<M>(self.src);
    }

    fn output(&self) -> &[u8] {
        self.window.bytes()
    }
}

/// One large case of one implementation, in the window every large case of its size
/// shares (room for the longest distance). Its output is a fingerprint of the window
/// taken right after each call (see `memcpy`). Its first call, the one the sampler
/// cross-checks, first puts the pattern back, so every implementation's is checked
/// from the same bytes, whatever moves the others made before; later calls move
/// whatever the window holds, as [`Moves`] does.
struct SharedMoves<M> {
    window: Rc<RefCell<Window>>,
    src: usize,
    /// The fingerprint of this runner's last output.
    print: Vec<u8>,
    called: bool,
    mover: PhantomData<M>,
}

impl<M: Mover> CaseRunner for SharedMoves<M> {
    type Of = M;
    type Shared = Pool<Window>;

    fn new(case: Case, pool: &Pool<Window>) -> Self {
        let reach = distances(case.size).iter().map(|d| d.unsigned_abs()).max();
        let window = pool.get(case.size, || {
            Window::new(case.size, reach.expect("every size has distances"))
        });
        let src = window.borrow().src(case.offset);
        SharedMoves {
            window,
            src,
            print: Vec::new(),
            called: false,
            mover: PhantomData,
        }
    }
}

impl<M: Mover> Runner for SharedMoves<M> {
    #[inline(never)]
    fn run(&mut self) {
        let mut window = self.window.borrow_mut();
        if !self.called {
            window.fill();
            self.called = true;
        }
        window.move_from::<M>(self.src);
        fingerprint(window.bytes(), &mut self.print);
    }

    fn output(&self) -> &[u8] {
        &self.print
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
                    if RaggedAvx2::KERNEL.is_available() {
                        check::<RaggedAvx2>(&start, range.clone(), dest, &want);
                    }
                    if RaggedAvx512::KERNEL.is_available() {
                        check::<RaggedAvx512>(&start, range.clone(), dest, &want);
                    }
                    if RaggedAvx512Zmm::KERNEL.is_available() {
                        check::<RaggedAvx512Zmm>(&start, range.clone(), dest, &want);
                    }
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
                let mut runners: Vec<Box<dyn Runner>> = memmove(false, true)
                    .iter()
                    .map(|imp| imp.prepare(case))
                    .collect();
                let mut want = Window::new(size, offset.unsigned_abs());
                // The destination on a page boundary, the source `offset` below it.
                assert_eq!(want.bytes()[want.dst..].as_ptr() as usize % PAGE, 0);
                let src = want.src(offset);
                assert_eq!(want.dst as isize - src as isize, offset);
                for _ in 0..2 {
                    let dst = want.dst;
                    let len = want.len;
                    let start = want.start;
                    reference(&mut want.storage[start..start + len], src..src + size, dst);
                    for runner in &mut runners {
                        runner.run();
                        assert_eq!(runner.output(), want.bytes(), "{size}{offset:+}");
                    }
                }
            }
        }
    }

    /// Each implementation's first call on the window of its size, made in turn as the
    /// sampler does (after the others moved in it), against the move from the pattern;
    /// `M`'s second call against two moves.
    fn check_shared<M: Mover>(pool: &Pool<Window>, case: Case) -> Rc<RefCell<Window>> {
        let mut want = Window::new(case.size, case.size / 2);
        let (src, dst, start, len) = (want.src(case.offset), want.dst, want.start, want.len);
        let mut runner = SharedMoves::<M>::new(case, pool);
        let mut print = Vec::new();
        for _ in 0..2 {
            reference(
                &mut want.storage[start..start + len],
                src..src + case.size,
                dst,
            );
            fingerprint(want.bytes(), &mut print);
            runner.run();
            assert_eq!(runner.output(), print, "{} {case:?}", M::NAME);
        }
        runner.window
    }

    #[test]
    fn shared_runners_start_from_the_same_bytes_and_then_move_on() {
        let names: Vec<String> = memmove(true, false).iter().map(|imp| imp.name()).collect();
        assert_eq!(names, ["ragged", "ragged-word", "glibc"]);
        let pool = Pool::default();
        let size = 5000;
        let mut windows = Vec::new();
        for offset in distances(size) {
            let case = Case { size, offset };
            windows.push(check_shared::<Ragged>(&pool, case));
            windows.push(check_shared::<RaggedWord>(&pool, case));
            windows.push(check_shared::<Glibc>(&pool, case));
        }
        assert!(windows.iter().all(|w| Rc::ptr_eq(w, &windows[0])));
    }
}
