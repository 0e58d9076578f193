//! Copy, move and fill bytes, fast for any length and any pair of alignments.
//!
//! Network stacks copy at awkward offsets all the time: a 14-byte Ethernet header puts
//! every IP payload two bytes off word alignment. Copies that use wide words only when
//! source and destination share an alignment fall back to bytes for exactly those
//! copies. This crate does not:
//!
//! - where unaligned access is cheap (x86-64, aarch64) it uses wide unaligned vector
//!   loads, aligned stores, and overlapping first/last accesses instead of byte tails;
//!   on x86-64 also 64-byte AVX-512 vectors for 65–128 bytes, non-temporal stores for
//!   copies far larger than the cache, and `rep movsb` on CPUs without AVX2, chosen
//!   once per process for the CPU;
//! - everywhere else it aligns the destination, reads aligned source words and merges
//!   each neighbouring pair with shifts, so a mismatched copy still moves whole words
//!   instead of falling back to bytes — without ever reading a byte outside either
//!   buffer.
//!
//! The safe API: [`copy`] / [`try_copy`] (like `<[u8]>::copy_from_slice`),
//! [`copy_within`] / [`try_copy_within`] (overlap-safe, like `<[u8]>::copy_within`) and
//! [`fill`]. For callers holding raw pointers: [`memcpy`], [`memmove`], [`memset`].
//! With the `c-symbols` feature the crate also exports unmangled C `memcpy`,
//! `memmove` and `memset` for no-std binaries.
//!
//! ```
//! let packet = [7u8; 1500];
//! let mut frame = [0u8; 1514];
//! ragged_mem::copy(&mut frame[14..], &packet);
//! ragged_mem::copy_within(&mut frame, 14..114, 0);
//! ragged_mem::fill(&mut frame[100..], 0);
//! assert_eq!(frame[..100], [7u8; 100]);
//!
//! // Unequal lengths: `copy` panics, `try_copy` returns an error and writes nothing.
//! assert!(ragged_mem::try_copy(&mut frame[..10], &packet[..11]).is_err());
//! ```
//!
//! # Features
//!
//! - `c-symbols`: export `memcpy`, `memmove` and `memset` as unmangled `extern "C"`
//!   symbols, for no-std binaries that link no C library. Never enable it in a program
//!   that links one.

#![no_std]
// Every panic a caller can cause is documented, and every refusal explained: the
// panicking forms have `try_` twins whose errors the caller can handle instead.
#![warn(clippy::missing_panics_doc, clippy::missing_errors_doc)]
// With `c-symbols` this crate *is* `memcpy`: the optimizer must not turn any of its
// loops into calls to `memcpy`/`memset`, which would recurse.
#![cfg_attr(feature = "c-symbols", no_builtins)]

#[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
mod aarch64;
#[doc(hidden)]
pub mod baseline;
#[cfg(feature = "c-symbols")]
mod c_symbols;
mod error;
#[doc(hidden)]
pub mod strategy;
#[cfg(any(
    all(target_arch = "x86_64", target_feature = "sse2"),
    all(target_arch = "aarch64", target_feature = "neon")
))]
mod vector;
#[doc(hidden)]
pub mod word;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod x86_64;

use core::ops::{Bound, RangeBounds};

pub use error::Error;

/// Copies all of `src` into `dst`.
///
/// # Panics
/// If the two slices differ in length, like `<[u8]>::copy_from_slice`.
#[inline]
#[track_caller]
pub fn copy(dst: &mut [u8], src: &[u8]) {
    if let Err(e) = try_copy(dst, src) {
        fail(e)
    }
}

/// Copies all of `src` into `dst`.
///
/// # Errors
/// [`Error::LengthMismatch`] (having written nothing) if the two slices differ in
/// length.
#[inline]
pub fn try_copy(dst: &mut [u8], src: &[u8]) -> Result<(), Error> {
    if dst.len() != src.len() {
        return Err(Error::LengthMismatch {
            dst_len: dst.len(),
            src_len: src.len(),
        });
    }
    // SAFETY: both slices are valid for `src.len()` bytes, and a `&mut` slice cannot
    // overlap a shared one.
    unsafe { strategy::memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) };
    Ok(())
}

/// Copies `buf[src]` to `buf[dest ..]` inside one buffer; the two parts may overlap.
///
/// # Panics
/// If `src` is not a range inside `buf`, or the destination `dest .. dest + src.len()`
/// reaches past its end, like `<[u8]>::copy_within`.
#[inline]
#[track_caller]
pub fn copy_within<R: RangeBounds<usize>>(buf: &mut [u8], src: R, dest: usize) {
    let len = buf.len();
    let (start, end) = bounds(&src, len);
    if !move_within(buf, start, end, dest) {
        fail_within(len, start, end, dest)
    }
}

/// Copies `buf[src]` to `buf[dest ..]` inside one buffer, the two parts possibly
/// overlapping.
///
/// # Errors
/// Having written nothing: [`Error::SourceRangeInverted`] if `src` starts after it
/// ends, [`Error::SourceOutOfBounds`] if it reaches past the end of `buf` (or a bound
/// overflows `usize`), [`Error::DestinationOutOfBounds`] if
/// `dest .. dest + src.len()` does.
#[inline]
pub fn try_copy_within<R: RangeBounds<usize>>(
    buf: &mut [u8],
    src: R,
    dest: usize,
) -> Result<(), Error> {
    let len = buf.len();
    let (start, end) = bounds(&src, len);
    if move_within(buf, start, end, dest) {
        Ok(())
    } else {
        Err(within_error(len, start, end, dest))
    }
}

/// The first and one-past-last index of `src` in a buffer of `len` bytes; `None` for
/// a bound that overflows `usize`.
#[inline(always)]
fn bounds<R: RangeBounds<usize>>(src: &R, len: usize) -> (Option<usize>, Option<usize>) {
    let start = match src.start_bound() {
        Bound::Included(&s) => Some(s),
        Bound::Excluded(&s) => s.checked_add(1),
        Bound::Unbounded => Some(0),
    };
    let end = match src.end_bound() {
        Bound::Included(&e) => e.checked_add(1),
        Bound::Excluded(&e) => Some(e),
        Bound::Unbounded => Some(len),
    };
    (start, end)
}

/// Moves `buf[start .. end]` to `buf[dest ..]` and returns `true` if both ranges lie
/// inside `buf`; returns `false` having written nothing otherwise. One combined test
/// before the copy: which bound failed is worked out out of line ([`within_error`]),
/// so the error paths do not sit in the copy's way.
#[inline(always)]
fn move_within(buf: &mut [u8], start: Option<usize>, end: Option<usize>, dest: usize) -> bool {
    let len = buf.len();
    if let (Some(start), Some(end)) = (start, end)
        && start <= end
        && end <= len
        && dest <= len - (end - start)
    {
        let base = buf.as_mut_ptr();
        // SAFETY: `start <= end <= len` and `dest + (end - start) <= len` (checked
        // above), so both ranges lie inside `buf`, which we hold mutably; `memmove`
        // allows the overlap.
        unsafe { strategy::memmove(base.add(dest), base.add(start), end - start) };
        return true;
    }
    false
}

/// Which bound of a [`try_copy_within`] call failed, in the order its `# Errors`
/// lists them; `None` for a bound that overflows `usize`.
#[cold]
#[inline(never)]
fn within_error(len: usize, start: Option<usize>, end: Option<usize>, dest: usize) -> Error {
    // A bound that overflows `usize` lies past any buffer.
    let (Some(start), Some(end)) = (start, end) else {
        return Error::SourceOutOfBounds {
            end: usize::MAX,
            len,
        };
    };
    if start > end {
        return Error::SourceRangeInverted { start, end };
    }
    if end > len {
        return Error::SourceOutOfBounds { end, len };
    }
    Error::DestinationOutOfBounds {
        dest,
        count: end - start,
        len,
    }
}

/// Sets every byte of `buf` to `byte`.
#[inline]
pub fn fill(buf: &mut [u8], byte: u8) {
    // SAFETY: `buf` is valid for writing `buf.len()` bytes.
    unsafe { strategy::memset(buf.as_mut_ptr(), byte, buf.len()) }
}

/// Copies `n` bytes from `src` to `dst`; the regions must not overlap.
///
/// # Safety
/// - `src` must be valid for reading `n` bytes and `dst` for writing `n` bytes;
/// - the two regions must not overlap (use [`memmove`] if they may);
/// - no alignment is required; when `n` is 0 the pointers are not used at all (they
///   may be null or dangling).
#[inline]
pub unsafe fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded caller guarantee.
    unsafe { strategy::memcpy(dst, src, n) }
}

/// Copies `n` bytes from `src` to `dst`; the regions may overlap in any way, and the
/// result is as if the source had first been copied to a temporary buffer.
///
/// # Safety
/// - `src` must be valid for reading `n` bytes and `dst` for writing `n` bytes;
/// - no alignment is required; when `n` is 0 the pointers are not used at all.
#[inline]
pub unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: forwarded caller guarantee.
    unsafe { strategy::memmove(dst, src, n) }
}

/// Sets `n` bytes at `dst` to `byte`.
///
/// # Safety
/// - `dst` must be valid for writing `n` bytes;
/// - no alignment is required; when `n` is 0 the pointer is not used at all.
#[inline]
pub unsafe fn memset(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: forwarded caller guarantee.
    unsafe { strategy::memset(dst, byte, n) }
}

/// The panic of [`copy`], kept out of line so the inlined fast path stays small.
#[cold]
#[inline(never)]
#[track_caller]
fn fail(e: Error) -> ! {
    panic!("ragged_mem: {e}")
}

/// The panic of [`copy_within`]: works out which bound failed here, out of line, so
/// the inlined fast path builds no error (and needs no stack frame for one).
#[cold]
#[inline(never)]
#[track_caller]
fn fail_within(len: usize, start: Option<usize>, end: Option<usize>, dest: usize) -> ! {
    fail(within_error(len, start, end, dest))
}
