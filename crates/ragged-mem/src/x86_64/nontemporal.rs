//! Copies far larger than the cache: non-temporal stores, which write whole lines to
//! memory without first reading them into the cache and without evicting the working
//! set of the rest of the program.
//!
//! The loop is the plain one, or (`interleave`, chosen per core) [`PAGES`] 4 KiB pages
//! at a time, interleaved four vectors of each at a turn: on an Intel core the
//! interleaved loop ran ahead of the plain one (e1c83a5; see `super::cpu::NT_PAGES`),
//! on Zen 3 it ran slower, and there a software prefetch (`prefetchnta`, `prefetcht0`)
//! made the plain loop slower too (0917404). Figures in docs/tuning.md.

use core::arch::x86_64::_mm_sfence;

use super::vectors::Stream;
use crate::vector::{Vector, copy_forward};

/// A cache line on every current x86-64 CPU.
const LINE: usize = 64;

/// The pages of an interleaved turn are this long.
const PAGE: usize = 4096;

/// Pages copied side by side in the interleaved loop.
const PAGES: usize = 4;

/// Copies `n` bytes with non-temporal stores, ending with `sfence` so the bytes are
/// ordered before any later store of the caller: with `interleave`, first as many
/// runs of [`PAGES`] whole pages as fit ([`pages_interleaved`]), then the plain loop.
/// Short copies (below one loop step plus a line) use the ordinary vector copy.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; the buffers must not
/// overlap; `H` and `V` enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy<H: Vector, V: Stream>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
    interleave: bool,
) {
    let step = 4 * V::SIZE;
    if n < step + LINE {
        // SAFETY: caller guarantee.
        return unsafe { copy_forward::<H, V, false>(dst, src, n) };
    }
    // Bring the destination to a line boundary with ordinary stores, so every
    // streamed store fills whole lines (partial lines make the write-combining buffer
    // read the line back from memory).
    let skip = dst.addr().wrapping_neg() & (LINE - 1);
    // SAFETY: `skip < LINE < n`; disjoint buffers.
    unsafe { copy_forward::<H, V, false>(dst, src, skip) };
    // SAFETY: `skip < n`.
    let (mut d, mut s) = unsafe { (dst.add(skip), src.add(skip)) };
    let mut left = n - skip;
    if interleave {
        while left >= PAGES * PAGE {
            // SAFETY: `PAGES * PAGE <= left` bytes remain at both pointers; `d` is line
            // aligned.
            unsafe {
                pages_interleaved::<V>(d, s);
                d = d.add(PAGES * PAGE);
                s = s.add(PAGES * PAGE);
            }
            left -= PAGES * PAGE;
        }
    }
    while left >= step {
        // SAFETY: `step <= left` bytes remain at both pointers; `d` is line aligned
        // and `step` a multiple of `V::SIZE`, so each streamed store is aligned.
        unsafe {
            let a = V::load(s);
            let b = V::load(s.add(V::SIZE));
            let c = V::load(s.add(2 * V::SIZE));
            let e = V::load(s.add(3 * V::SIZE));
            V::stream(d, a);
            V::stream(d.add(V::SIZE), b);
            V::stream(d.add(2 * V::SIZE), c);
            V::stream(d.add(3 * V::SIZE), e);
            d = d.add(step);
            s = s.add(step);
        }
        left -= step;
    }
    // Non-temporal stores are weakly ordered; the fence makes them globally visible
    // before anything the caller stores next.
    #[allow(unused_unsafe)]
    // SAFETY: `sfence` is baseline on x86-64 and has no preconditions.
    unsafe {
        _mm_sfence()
    };
    // SAFETY: the last `left` bytes of both buffers.
    unsafe { copy_forward::<H, V, false>(d, s, left) };
}

/// Copies [`PAGES`] consecutive 4 KiB pages from `s` to `d` with non-temporal stores,
/// a turn at a time: four vectors of each page loaded, then stored, the next turn four
/// vectors further into every page (so the loads and the write-combined lines run in
/// [`PAGES`] streams side by side, glibc's large-copy shape).
///
/// # Safety
/// `PAGES * PAGE` bytes readable at `s` and writable at `d`, not overlapping; `d` aligned
/// to a line (so every streamed store is aligned to `V::SIZE`); `V` enabled in the caller.
#[inline(always)]
unsafe fn pages_interleaved<V: Stream>(d: *mut u8, s: *const u8) {
    // Sixteen named vectors, not an array: moving an array of vectors is a `memcpy`
    // call at opt-level 0, and this is the exported `memcpy`.
    macro_rules! turn {
        ($at:expr; $($page:literal: $v0:ident $v1:ident $v2:ident $v3:ident),*) => {
            $(
                let from = s.add($page * PAGE + $at);
                let ($v0, $v1) = (V::load(from), V::load(from.add(V::SIZE)));
                let ($v2, $v3) = (V::load(from.add(2 * V::SIZE)), V::load(from.add(3 * V::SIZE)));
            )*
            $(
                let to = d.add($page * PAGE + $at);
                V::stream(to, $v0);
                V::stream(to.add(V::SIZE), $v1);
                V::stream(to.add(2 * V::SIZE), $v2);
                V::stream(to.add(3 * V::SIZE), $v3);
            )*
        };
    }
    const { assert!(PAGES == 4 && PAGE.is_multiple_of(4 * LINE)) };
    let turn = 4 * V::SIZE;
    let mut at = 0;
    while at < PAGE {
        // SAFETY: `at + turn <= PAGE` (`PAGE` is a multiple of every `turn`), so each
        // access is within page 0..4 of the caller's range; every store address is
        // `d` plus a multiple of `V::SIZE`, and `d` is line aligned.
        unsafe {
            turn!(at; 0: a0 a1 a2 a3, 1: b0 b1 b2 b3, 2: c0 c1 c2 c3, 3: e0 e1 e2 e3);
        }
        at += turn;
    }
}
