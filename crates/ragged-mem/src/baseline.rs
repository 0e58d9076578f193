//! The copies the word strategy's shift-merge replaces, kept as yardsticks.
//!
//! Not for use: they exist so that `ragged speed memcpy` / `memmove` and the
//! instruction-count example (`examples/copy_insns.rs`) measure the same comparison
//! copies.
//!
//! - [`coaligned_only`] uses whole words only when source and destination are
//!   co-aligned modulo the word size, and bytes otherwise;
//! - [`bytewise`] copies one byte at a time;
//! - [`bytewise_within`] moves bytes inside one buffer one at a time, in the direction
//!   an overlap needs.
//!
//! Their loads and stores are volatile, so the compiler can neither turn a loop into a
//! `memcpy` call nor widen or vectorise it: they run as written on every target.

use core::mem::size_of;
use core::ops::Range;
use core::ptr;

const WORD: usize = size_of::<usize>();

/// Words (`usize`, four per loop step) when `dst` and `src` are co-aligned modulo the
/// word size, bytes otherwise.
///
/// # Panics
/// If the two slices differ in length.
#[inline(always)]
pub fn coaligned_only(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    let n = src.len();
    let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
    if n < 2 * WORD || !(d as usize ^ s as usize).is_multiple_of(WORD) {
        return bytes(dst, src);
    }
    // Bytes up to the first aligned destination word (fewer than `WORD` < n).
    let head = (WORD - d as usize % WORD) % WORD;
    bytes(&mut dst[..head], &src[..head]);
    let mut i = head;
    // SAFETY (all word accesses below): `i + k * WORD <= n` for every word touched, so
    // each lies inside both slices; `d + i` is word aligned (the head aligned it, and
    // `i` grows by whole words) and `s + i` too, as `s ≡ d (mod WORD)`.
    while i + 4 * WORD <= n {
        for k in 0..4 {
            let at = i + k * WORD;
            // SAFETY: see above.
            unsafe {
                let w = ptr::read_volatile(s.add(at).cast::<usize>());
                ptr::write_volatile(d.add(at).cast::<usize>(), w);
            }
        }
        i += 4 * WORD;
    }
    while i + WORD <= n {
        // SAFETY: see above.
        unsafe {
            let w = ptr::read_volatile(s.add(i).cast::<usize>());
            ptr::write_volatile(d.add(i).cast::<usize>(), w);
        }
        i += WORD;
    }
    bytes(&mut dst[i..], &src[i..]);
}

/// One byte at a time.
///
/// # Panics
/// If the two slices differ in length.
#[inline(always)]
pub fn bytewise(dst: &mut [u8], src: &[u8]) {
    assert_eq!(dst.len(), src.len());
    bytes(dst, src);
}

/// Copies `buf[src]` to `buf[dest ..]` one byte at a time, like `<[u8]>::copy_within`:
/// lowest address first when the destination starts at or below the source, highest
/// first otherwise, so every byte is read before the copy overwrites it.
///
/// # Panics
/// If `src` is inverted or reaches past the end of `buf`, or the destination
/// `dest .. dest + src.len()` does.
#[inline(always)]
pub fn bytewise_within(buf: &mut [u8], src: Range<usize>, dest: usize) {
    assert!(
        src.start <= src.end && src.end <= buf.len() && dest <= buf.len() - src.len(),
        "ranges {src:?} and {dest}.. must lie inside {} bytes",
        buf.len()
    );
    let base = buf.as_mut_ptr();
    let step = |i: usize| {
        // SAFETY: `i < src.len()`, and both ranges lie inside `buf` (asserted above),
        // which is held mutably; bytes need no alignment.
        unsafe {
            ptr::write_volatile(
                base.add(dest + i),
                ptr::read_volatile(base.add(src.start + i)),
            )
        }
    };
    if dest <= src.start {
        (0..src.len()).for_each(step);
    } else {
        (0..src.len()).rev().for_each(step);
    }
}

/// A byte loop with volatile loads and stores over the shorter of the two slices.
#[inline(always)]
fn bytes(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        // SAFETY: both come from live references, so they are valid and aligned.
        unsafe { ptr::write_volatile(d, ptr::read_volatile(s)) }
    }
}
