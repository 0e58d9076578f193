//! `rep movsb`: the string-move instruction, which CPUs reporting ERMS (and FSRM) run
//! with internal wide moves. There is no intrinsic for it, hence the one `asm!`.

use core::arch::asm;

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
