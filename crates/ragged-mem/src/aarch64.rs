//! The aarch64 strategy: the shared vector algorithm over 16-byte NEON registers —
//! overlapping scalar and 16-byte head/tail accesses for small and medium sizes, then
//! a loop of unaligned loads and aligned stores, four registers per step.
//!
//! Unaligned access is cheap on every aarch64 core, so no word merging is needed. The
//! algorithm itself is the one x86-64 runs with SSE2 (see `vector.rs`), which is how
//! it is tested on an x86-64 host; this file only supplies the register type.

use core::arch::aarch64::{uint8x16_t, vdupq_n_u8, vld1q_u8, vst1q_u8};

use crate::vector::{self, Vector};
use crate::word::forward_is_safe;

/// One NEON register.
#[derive(Clone, Copy)]
pub(crate) struct Neon(uint8x16_t);

impl Vector for Neon {
    const SIZE: usize = 16;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantee (16 readable bytes); `vld1q_u8` has no alignment
        // requirement beyond a byte.
        Neon(unsafe { vld1q_u8(p) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: caller guarantee (16 writable bytes).
        unsafe { vst1q_u8(p, v.0) }
    }
    #[inline(always)]
    unsafe fn store_aligned(p: *mut u8, v: Self) {
        // SAFETY: caller guarantee; the same instruction serves both alignments.
        unsafe { vst1q_u8(p, v.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        #[allow(unused_unsafe)]
        // SAFETY: NEON is enabled (this module is compiled only when it is).
        Neon(unsafe { vdupq_n_u8(b) })
    }
}

/// Copies `n` bytes between disjoint buffers.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; no overlap.
#[inline]
pub(crate) unsafe fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; NEON enabled.
    unsafe { vector::copy_forward::<Neon, Neon, false>(dst, src, n) }
}

/// Copies `n` bytes between buffers that may overlap.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes.
#[inline]
pub(crate) unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
    // The size classes' stores in ascending order (`MOVE` false): the x86-64 moves'
    // order (`vector::high_first`) is unmeasured on Arm cores.
    // SAFETY: both branches: caller guarantee; direction chosen by the overlap.
    unsafe {
        if forward_is_safe(dst, src, n) {
            vector::copy_forward::<Neon, Neon, false>(dst, src, n)
        } else {
            vector::copy_backward::<Neon, Neon>(dst, src, n)
        }
    }
}

/// Sets `n` bytes to `byte`.
///
/// # Safety
/// `dst` valid for writing `n` bytes.
#[inline]
pub(crate) unsafe fn memset(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: caller guarantee; NEON enabled.
    unsafe { vector::set::<Neon, Neon>(dst, byte, n) }
}
