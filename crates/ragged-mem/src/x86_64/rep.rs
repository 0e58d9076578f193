//! `rep movsb`: the string-move instruction, which CPUs reporting ERMS (and FSRM) run
//! with internal wide moves. There is no intrinsic for it, hence the one `asm!`.
//!
//! [`copy`] first aligns the destination to 64 bytes with one unaligned vector copy
//! of the head, the setup vendors recommend for fast strings. Measured, it made no
//! visible difference either way, and it does not avoid the one real hazard found:
//! with the destination's page offset 1 to 31 bytes ahead of the source's, `rep movsb`
//! ran many times slower than the vector loop at every size from 4 KiB up (glibc's
//! `memcpy` collapses the same way; 0917404, 05e0249). The dispatcher therefore checks
//! that distance before choosing it.

use core::arch::asm;

use super::vectors::Sse2;
use crate::vector::Vector;

/// Alignment given to the destination before the string move.
const ALIGN: usize = 64;

/// Copies `n` bytes with `rep movsb` on a 64-byte aligned destination (the bytes
/// below the first aligned address are copied with four SSE2 vectors).
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; overlap only with
/// `dst <= src` (the string move runs upwards, and the head is loaded before it and
/// stored after it, so its source bytes cannot have been overwritten).
#[inline]
pub(crate) unsafe fn copy(dst: *mut u8, src: *const u8, n: usize) {
    if n < ALIGN {
        // SAFETY: caller guarantee.
        return unsafe { rep_movsb(dst, src, n) };
    }
    let skip = dst.addr().wrapping_neg() & (ALIGN - 1);
    // SAFETY: `n >= 64`: the first 64 bytes are inside both buffers; `skip < 64`.
    unsafe {
        let a = Sse2::load(src);
        let b = Sse2::load(src.add(16));
        let c = Sse2::load(src.add(32));
        let e = Sse2::load(src.add(48));
        rep_movsb(dst.add(skip), src.add(skip), n - skip);
        Sse2::store(dst, a);
        Sse2::store(dst.add(16), b);
        Sse2::store(dst.add(32), c);
        Sse2::store(dst.add(48), e);
    }
}

/// Copies `n` bytes from `src` to `dst` with `rep movsb` (lowest address first).
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; overlap only with
/// `dst <= src` (the instruction is defined as a forward byte loop).
#[inline]
pub(crate) unsafe fn rep_movsb(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee on the ranges. The direction flag is clear on entry to
    // any function by the System V and Windows x64 ABIs, so the copy runs upwards. The
    // three registers are consumed (marked clobbered); no stack is used; flags are not
    // changed by `rep movsb`. Memory is not marked `nomem`/`readonly`, so the compiler
    // treats it as read and written.
    unsafe {
        asm!(
            "rep movsb",
            inout("rcx") n => _,
            inout("rdi") dst => _,
            inout("rsi") src => _,
            options(nostack, preserves_flags),
        );
    }
}
