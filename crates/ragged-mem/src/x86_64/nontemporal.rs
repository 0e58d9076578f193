//! Copies far larger than the cache: non-temporal stores, which write whole lines to
//! memory without first reading them into the cache and without evicting the working
//! set of the rest of the program.
//!
//! The loop is the plain one: a software prefetch 1 KiB ahead (`prefetchnta`) or
//! 4 KiB ahead (`prefetcht0`) made it slower on copies of hundreds of megabytes, and
//! copying two or four 4 KiB pages interleaved, line by line, slower still (0917404).

use core::arch::x86_64::_mm_sfence;

use super::vectors::Stream;
use crate::vector::{Vector, copy_forward};

/// A cache line on every current x86-64 CPU.
const LINE: usize = 64;

/// Copies `n` bytes with non-temporal stores, ending with `sfence` so the bytes are
/// ordered before any later store of the caller. Short copies (below one loop step
/// plus a line) use the ordinary vector copy.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; the buffers must not
/// overlap; `H` and `V` enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy<H: Vector, V: Stream>(dst: *mut u8, src: *const u8, n: usize) {
    let step = 4 * V::SIZE;
    if n < step + LINE {
        // SAFETY: caller guarantee.
        return unsafe { copy_forward::<H, V>(dst, src, n) };
    }
    // Bring the destination to a line boundary with ordinary stores, so every
    // streamed store fills whole lines (partial lines make the write-combining buffer
    // read the line back from memory).
    let skip = dst.addr().wrapping_neg() & (LINE - 1);
    // SAFETY: `skip < LINE < n`; disjoint buffers.
    unsafe { copy_forward::<H, V>(dst, src, skip) };
    // SAFETY: `skip < n`.
    let (mut d, mut s) = unsafe { (dst.add(skip), src.add(skip)) };
    let mut left = n - skip;
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
    unsafe { copy_forward::<H, V>(d, s, left) };
}
