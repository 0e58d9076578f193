//! The x86-64 strategy. Up to 64 B: overlapping scalar and SSE2 accesses, inlined into
//! the caller, no runtime check. Above that, one indirect jump to the entry chosen for
//! this CPU on the first such copy (`entry.rs`): on a CPU with AVX-512F/BW, 65–128 B
//! are two overlapping 64-byte vectors; above that, on a core with full-width 512-bit
//! accesses (Zen 5, Intel from Ice Lake on), 64-byte vectors and `rep movsb` in a
//! window of sizes ([`ZMM_LOOP_MAX`]), on other AVX-512 cores (Zen 4) the
//! AVX2 path (see [`memcpy_resolve`] for why the two differ); on an AVX2 CPU, eight
//! SSE2 vectors up to 128 B, overlapping AVX2 accesses up to 256 B, then the AVX2
//! loop; without AVX2, the SSE2 copy, or `rep movsb` where the CPU reports ERMS and it
//! measured faster. Non-temporal stores for copies far larger than the last-level
//! cache.
//!
//! The thresholds were measured on the development machine with
//! `examples/thresholds.rs`; they are machine-specific, and that program is how to
//! re-measure them. `docs/tuning.md` names the machine and holds the figures.

pub(crate) mod cpu;
mod entry;
mod nontemporal;
mod rep;
pub(crate) mod vectors;

use crate::vector::{self, copy_medium, copy_upto8v_from1v, copy_upto16};
use crate::word::forward_is_safe;
use entry::{Entry, Slot};
use vectors::{Avx2, Avx512, Sse2};

/// Sizes up to this are copied by code inlined into the caller: two to four SSE2 or
/// scalar accesses, no call and no feature check.
pub(crate) const INLINE_MAX: usize = 64;

/// Sizes above [`INLINE_MAX`] up to this are copied out of line with eight SSE2
/// vectors and no feature test, which beat the AVX2 entry (one more jump, 256-bit
/// accesses, `vzeroupper`) at 65 and 128 B (f48f54f, figures restated in 1c924d4).
pub(crate) const SSE2_MAX: usize = 128;
// `memcpy_avx2` relies on everything above `SSE2_MAX` being at least four AVX2 vectors.
const _: () = assert!(SSE2_MAX == 4 * 32);

/// From this size on, a non-overlapping copy on a CPU with ERMS but without AVX2 uses
/// `rep movsb`: it beat the SSE2 loop from 4 KiB to 16 KiB and was level beyond, but
/// never beat the AVX2 loop, so with AVX2 it is not used at all (0917404).
pub(crate) const REP_MOVSB_MIN: usize = 4096;

/// `rep movsb` collapsed when the destination's page offset was 1 to 31 bytes ahead
/// of the source's, and was still slower at 48 and 63 (0917404): within this distance
/// the vector loop is used instead.
const REP_MOVSB_BAD_DISTANCE: usize = 64;

/// From this size on, a non-overlapping copy uses non-temporal stores: on a machine
/// with a 32 MiB L3 they drew level with the AVX2 loop where source and destination
/// together fill the L3, and pulled ahead of it and of `rep movsb` beyond (0917404).
pub(crate) const NONTEMPORAL_MIN: usize = 16 << 20;

/// On a core with full-width 512-bit accesses ([`cpu::ZMM`]), a disjoint copy of more
/// than this many bytes (below [`NONTEMPORAL_MIN`]), and a downward move whose destination starts more than this
/// many bytes below its source, use `rep movsb` rather than the 64-byte loop (outside
/// `rep movsb`'s bad distance): once the destination bytes that are not also source
/// bytes no longer fit the L1 data cache beside the source, the loop fell far behind
/// the string move; below, it was far ahead (4a49ecd). A move up by more than this
/// many bytes takes the AVX2 backward loop, which ran ahead of the 64-byte one there
/// (41651e1).
pub(crate) const ZMM_LOOP_MAX: usize = 24 << 10;

/// Where [`memcpy`] goes above [`INLINE_MAX`]: [`memcpy_avx512`], [`memcpy_above64_avx2`]
/// or [`memcpy_above64`], chosen by [`memcpy_resolve`] on the first such copy.
static MEMCPY_ABOVE64: Slot = Slot::new(memcpy_resolve);

/// Where [`memmove`] goes above [`INLINE_MAX`], like [`MEMCPY_ABOVE64`].
static MEMMOVE_ABOVE64: Slot = Slot::new(memmove_resolve);

/// Copies `n` bytes between disjoint buffers.
///
/// The size tests are nested so that 33–64 B and the jump to the out-of-line entry
/// are reached without a taken branch, at the price of one for 16 B and below: with
/// the tests in size order, 65–128 B went through three taken branches and lost to
/// glibc's one indirect call by more than the small sizes gained (16be6c6).
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; no overlap.
#[inline(always)]
pub(crate) unsafe fn memcpy(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: all branches: caller guarantee; each callee's size range is checked;
    // the slot holds an entry with `memcpy`'s contract for `n > INLINE_MAX`.
    unsafe {
        if n > 32 {
            if n > INLINE_MAX {
                MEMCPY_ABOVE64.get()(dst, src, n);
            } else {
                copy_upto8v_from1v::<Sse2, false>(dst, src, n);
            }
        } else if n > 16 {
            copy_upto8v_from1v::<Sse2, false>(dst, src, n);
        } else {
            copy_upto16(dst, src, n);
        }
    }
}

/// Copies `n` bytes between buffers that may overlap; the size tests as in [`memcpy`].
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes.
#[inline(always)]
pub(crate) unsafe fn memmove(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: all branches: caller guarantee; the small classes load everything
    // before storing, so they are overlap-safe; the slot holds an entry with
    // `memmove`'s contract for `n > INLINE_MAX`.
    unsafe {
        if n > 32 {
            if n > INLINE_MAX {
                MEMMOVE_ABOVE64.get()(dst, src, n);
            } else {
                copy_upto8v_from1v::<Sse2, true>(dst, src, n);
            }
        } else if n > 16 {
            copy_upto8v_from1v::<Sse2, true>(dst, src, n);
        } else {
            copy_upto16(dst, src, n);
        }
    }
}

/// Sets `n` bytes to `byte`.
///
/// # Safety
/// `dst` valid for writing `n` bytes.
#[inline(always)]
pub(crate) unsafe fn memset(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: both branches: caller guarantee.
    unsafe {
        if n <= INLINE_MAX {
            vector::set::<Sse2, Sse2>(dst, byte, n);
        } else {
            memset_large(dst, byte, n);
        }
    }
}

/// The out-of-line part of [`memset`].
///
/// # Safety
/// As for [`memset`].
#[inline(never)]
unsafe fn memset_large(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: all branches: caller guarantee; AVX2 only when the CPU reported it.
    unsafe {
        if n <= SSE2_MAX {
            vector::set::<Sse2, Sse2>(dst, byte, n);
        } else if cpu::has(cpu::AVX2) {
            set_avx2(dst, byte, n);
        } else {
            set_sse2(dst, byte, n);
        }
    }
}

/// The first entry of [`MEMCPY_ABOVE64`]: detects the CPU, stores the entry for it
/// and runs the copy there.
///
/// The AVX-512 entry is chosen per core. Zen 4 splits each 512-bit access in two, and
/// there 64-byte vectors above 128 B lost to the AVX2 classes and loop (0b9182b, and
/// through the dispatcher four vectors at 129–256 B and eight at 257–512 B again,
/// ba1a756), so it takes `ZMM = false`, and so does Skylake-SP, which slows its clock
/// for 512-bit work. Zen 5 runs them at full width, and there they won (4a49ecd), as
/// they did on an Intel Xeon with AVX-512 and AMX, with the Zen 5 thresholds (d20108b;
/// `cpu::ZMM`). Figures in docs/tuning.md.
///
/// # Safety
/// As for [`memcpy`], with `n > INLINE_MAX`.
unsafe fn memcpy_resolve(dst: *mut u8, src: *const u8, n: usize) {
    let features = cpu::features();
    let entry: Entry = if features & cpu::ZMM != 0 {
        memcpy_avx512::<true>
    } else if features & cpu::AVX512 != 0 {
        memcpy_avx512::<false>
    } else if features & cpu::AVX2 != 0 {
        memcpy_above64_avx2
    } else {
        memcpy_above64
    };
    // SAFETY: each entry copies `n > INLINE_MAX` bytes between disjoint buffers, and
    // needs only the features the CPU reported; the call has the caller's guarantee.
    unsafe {
        MEMCPY_ABOVE64.set(entry);
        entry(dst, src, n)
    }
}

/// [`memcpy`] above [`INLINE_MAX`] on an AVX2 CPU without AVX-512: up to [`SSE2_MAX`]
/// eight SSE2 vectors here, outside any AVX2 function so they stay 16-byte accesses
/// without `vzeroupper` (see [`SSE2_MAX`]), above it a tail call to [`memcpy_avx2`].
///
/// # Safety
/// As for [`memcpy`], with `n > INLINE_MAX`; the CPU must support AVX2.
unsafe fn memcpy_above64_avx2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee (disjoint buffers, AVX2); the size ranges are checked.
    unsafe {
        if n <= SSE2_MAX {
            copy_medium::<Sse2, Sse2, false>(dst, src, n)
        } else {
            memcpy_avx2(dst, src, n)
        }
    }
}

/// [`memcpy`] above [`INLINE_MAX`] on a CPU without AVX2.
///
/// # Safety
/// As for [`memcpy`], with `n > INLINE_MAX`.
unsafe fn memcpy_above64(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee (disjoint buffers); the size range is checked.
    unsafe {
        if n <= SSE2_MAX {
            copy_medium::<Sse2, Sse2, false>(dst, src, n)
        } else {
            memcpy_without_avx2(dst, src, n, cpu::features())
        }
    }
}

/// Disjoint copy of more than [`SSE2_MAX`] bytes on an AVX2 CPU: eight overlapping
/// vectors up to 256 B, the AVX2 loop, or non-temporal stores when large. The size
/// classes below 129 B are not tested again (two to five fewer branches at 129–256 B).
/// `rep movsb` never beat the AVX2 loop in measurements; see [`REP_MOVSB_MIN`].
///
/// Never inlined, so never compiled inside an AVX-512 function: there LLVM merged
/// neighbouring pairs of its 32-byte accesses into 64-byte ones, and the AVX-512
/// entry ran 129–256 B and the moves slower than with this function as it is
/// (d967783).
///
/// # Safety
/// As for [`memcpy`], with `n > SSE2_MAX`; the CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn memcpy_avx2(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n > SSE2_MAX);
    // SAFETY: caller guarantee; `SSE2_MAX == 4 * 32`, so `n <= 256` is the class of
    // `copy_upto8v`, and `n > 256` that of the loop; AVX2 is enabled in this function.
    unsafe {
        if n <= 8 * 32 {
            vector::copy_upto8v::<Avx2, false>(dst, src, n)
        } else if n < NONTEMPORAL_MIN {
            vector::loop_forward::<Avx2>(dst, src, n)
        } else {
            nontemporal::copy::<Sse2, Avx2>(dst, src, n, cpu::has(cpu::NT_PAGES))
        }
    }
}

/// Disjoint copy of any size on a CPU without AVX2: non-temporal SSE2 stores when
/// large, `rep movsb` (if `features` has ERMS, from [`REP_MOVSB_MIN`], outside the bad
/// distance window), otherwise the SSE2 vector copy. Reachable on an AVX2 host as
/// [`Kernel::AutoWithoutAvx2`](crate::strategy::Kernel::AutoWithoutAvx2), so the
/// choice itself is tested here.
///
/// # Safety
/// As for [`memcpy`].
pub(crate) unsafe fn memcpy_without_avx2(dst: *mut u8, src: *const u8, n: usize, features: u8) {
    // SAFETY: caller guarantee (disjoint buffers); `rep movsb` only with ERMS.
    unsafe {
        if n >= NONTEMPORAL_MIN {
            nontemporal::copy::<Sse2, Sse2>(dst, src, n, false)
        } else if n >= REP_MOVSB_MIN && features & cpu::ERMS != 0 && rep_distance_ok(dst, src) {
            rep::copy(dst, src, n)
        } else {
            vector::copy_forward::<Sse2, Sse2, false>(dst, src, n)
        }
    }
}

/// Copy of any size between possibly overlapping buffers on a CPU without AVX2:
/// disjoint ones as [`memcpy_without_avx2`], overlapping ones with the SSE2 copy in the
/// safe direction.
///
/// # Safety
/// As for [`memmove`].
pub(crate) unsafe fn memmove_without_avx2(dst: *mut u8, src: *const u8, n: usize, features: u8) {
    // SAFETY: caller guarantee; the direction matches the overlap.
    unsafe {
        if disjoint(dst, src, n) {
            memcpy_without_avx2(dst, src, n, features)
        } else if forward_is_safe(dst, src, n) {
            vector::copy_forward::<Sse2, Sse2, true>(dst, src, n)
        } else {
            vector::copy_backward::<Sse2, Sse2>(dst, src, n)
        }
    }
}

/// `false` when the destination's offset in its 4 KiB page is just ahead of the
/// source's, where `rep movsb` collapsed (see [`REP_MOVSB_BAD_DISTANCE`]).
#[inline(always)]
fn rep_distance_ok(dst: *const u8, src: *const u8) -> bool {
    let ahead = dst.addr().wrapping_sub(src.addr()) & 4095;
    ahead == 0 || ahead >= REP_MOVSB_BAD_DISTANCE
}

/// The first entry of [`MEMMOVE_ABOVE64`], like [`memcpy_resolve`].
///
/// # Safety
/// As for [`memmove`], with `n > INLINE_MAX`.
unsafe fn memmove_resolve(dst: *mut u8, src: *const u8, n: usize) {
    let features = cpu::features();
    let entry: Entry = if features & cpu::ZMM != 0 {
        memmove_avx512::<true>
    } else if features & cpu::AVX512 != 0 {
        memmove_avx512::<false>
    } else if features & cpu::AVX2 != 0 {
        memmove_above64_avx2
    } else {
        memmove_above64
    };
    // SAFETY: each entry moves `n > INLINE_MAX` bytes between possibly overlapping
    // buffers, and needs only the features the CPU reported; the call has the
    // caller's guarantee.
    unsafe {
        MEMMOVE_ABOVE64.set(entry);
        entry(dst, src, n)
    }
}

/// [`memmove`] above [`INLINE_MAX`] on an AVX2 CPU without AVX-512, shaped like
/// [`memcpy_above64_avx2`] (the SSE2 classes load everything before they store, so
/// any overlap is fine).
///
/// # Safety
/// As for [`memmove`], with `n > INLINE_MAX`; the CPU must support AVX2.
unsafe fn memmove_above64_avx2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee (AVX2); the size ranges are checked.
    unsafe {
        if n <= SSE2_MAX {
            copy_medium::<Sse2, Sse2, true>(dst, src, n)
        } else {
            memmove_avx2(dst, src, n)
        }
    }
}

/// [`memmove`] above [`INLINE_MAX`] on a CPU without AVX2.
///
/// # Safety
/// As for [`memmove`], with `n > INLINE_MAX`.
unsafe fn memmove_above64(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; the size range is checked.
    unsafe {
        if n <= SSE2_MAX {
            copy_medium::<Sse2, Sse2, true>(dst, src, n)
        } else {
            memmove_without_avx2(dst, src, n, cpu::features())
        }
    }
}

/// Move of more than [`SSE2_MAX`] bytes on an AVX2 CPU: up to 256 B the eight
/// overlapping vectors, which load everything before they store (no overlap test);
/// above that disjoint buffers as [`memcpy_avx2`], overlapping ones with the AVX2 loop
/// in the direction that reads each source byte before it is overwritten. Never
/// inlined, like [`memcpy_avx2`].
///
/// # Safety
/// As for [`memmove`], with `n > SSE2_MAX`; the CPU must support AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn memmove_avx2(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n > SSE2_MAX);
    // SAFETY: caller guarantee; `SSE2_MAX == 4 * 32`, so `n <= 256` is the class of
    // `copy_upto8v`; `memcpy_avx2` gets disjoint buffers of more than `SSE2_MAX`
    // bytes; the loops' direction matches the overlap; AVX2 is enabled here.
    unsafe {
        if n <= 8 * 32 {
            vector::copy_upto8v::<Avx2, true>(dst, src, n)
        } else if disjoint(dst, src, n) {
            memcpy_avx2(dst, src, n)
        } else if forward_is_safe(dst, src, n) {
            vector::loop_forward::<Avx2>(dst, src, n)
        } else {
            vector::loop_backward::<Avx2>(dst, src, n)
        }
    }
}

/// Disjoint copy of more than [`INLINE_MAX`] bytes on an AVX-512 CPU: two overlapping
/// 64-byte vectors up to 128 B; above that a tail call to [`memcpy_avx2`], or if
/// `ZMM` (see [`memcpy_resolve`]) up to eight overlapping 64-byte vectors, the
/// 64-byte loop with masked ends up to [`ZMM_LOOP_MAX`], then `rep movsb` (the loop
/// within its bad distance), and non-temporal stores when large.
///
/// # Safety
/// As for [`memcpy`], with `n > INLINE_MAX`; the CPU must support AVX-512F, AVX-512BW
/// and BMI2.
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
unsafe fn memcpy_avx512<const ZMM: bool>(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n > INLINE_MAX);
    // SAFETY: caller guarantee (disjoint buffers, `n > 64`); each callee's size range
    // is checked (`memcpy_avx2` gets `n > 128 = SSE2_MAX`, the eight-vector class
    // `128 < n <= 512`; the masked loop, `rep movsb` and the non-temporal copy take any
    // `n` between disjoint buffers); the features are enabled here (AVX-512F implies
    // AVX2).
    unsafe {
        if n <= 2 * 64 {
            copy_upto8v_from1v::<Avx512, false>(dst, src, n)
        } else if !ZMM {
            memcpy_avx2(dst, src, n)
        } else if n <= 8 * 64 {
            vector::copy_upto8v_from1v::<Avx512, false>(dst, src, n)
        } else if n <= ZMM_LOOP_MAX {
            vector::loop_forward_masked::<Avx512>(dst, src, n)
        } else if n >= NONTEMPORAL_MIN {
            nontemporal::copy::<Sse2, Avx512>(dst, src, n, cpu::has(cpu::NT_PAGES))
        } else if rep_distance_ok(dst, src) {
            rep::copy(dst, src, n)
        } else {
            vector::loop_forward_masked::<Avx512>(dst, src, n)
        }
    }
}

/// Move of more than [`INLINE_MAX`] bytes on an AVX-512 CPU: two overlapping 64-byte
/// vectors up to 128 B; above that a tail call to [`memmove_avx2`], or if `ZMM` up
/// to eight 64-byte vectors, all loaded before any is stored (no overlap test), then
/// disjoint buffers as [`memcpy_avx512`], overlapping ones with the masked loop in the
/// safe direction, or for a move by more than [`ZMM_LOOP_MAX`], `rep movsb` down and
/// the AVX2 loop up.
///
/// # Safety
/// As for [`memmove`], with `n > INLINE_MAX`; the CPU must support AVX-512F,
/// AVX-512BW and BMI2.
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
unsafe fn memmove_avx512<const ZMM: bool>(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n > INLINE_MAX);
    // SAFETY: caller guarantee; the overlap-safe classes by their size ranges;
    // `memmove_avx2` with `n > 128 = SSE2_MAX`; `memcpy_avx512` only for disjoint
    // buffers of more than `INLINE_MAX` bytes; the backward loops (the AVX2 one for
    // any `n`) only where a forward copy is not safe, so `dst >= src` and `dst - src`
    // does not wrap; the forward loop and `rep movsb` (which copies upwards, with
    // `dst <= src` allowed to overlap) only where it is, so `src - dst` does not wrap;
    // the features are enabled here (AVX-512F implies AVX2).
    unsafe {
        if n <= 2 * 64 {
            copy_upto8v_from1v::<Avx512, true>(dst, src, n)
        } else if !ZMM {
            memmove_avx2(dst, src, n)
        } else if n <= 8 * 64 {
            vector::copy_upto8v_from1v::<Avx512, true>(dst, src, n)
        } else if disjoint(dst, src, n) {
            memcpy_avx512::<ZMM>(dst, src, n)
        } else if !forward_is_safe(dst, src, n) {
            if dst.addr() - src.addr() > ZMM_LOOP_MAX {
                // Up by more than that, the AVX2 loop ran ahead of the 64-byte one
                // (see `ZMM_LOOP_MAX`).
                copy_backward_avx2(dst, src, n)
            } else {
                vector::loop_backward_masked::<Avx512>(dst, src, n)
            }
        } else if src.addr() - dst.addr() > ZMM_LOOP_MAX && rep_distance_ok(dst, src) {
            // The destination bytes below the source are as many as a copy's that
            // takes `rep movsb`, and they are not in the cache either.
            rep::copy(dst, src, n)
        } else {
            vector::loop_forward_masked::<Avx512>(dst, src, n)
        }
    }
}

/// The AVX-512 copy of `n > 64` bytes: two overlapping 64-byte vectors up to
/// 128 B, then (see [`memcpy_resolve`]) 64-byte vectors if `ZMM`, the AVX2
/// copy (out of line) if not; in the loop lowest address first if `FORWARD`, highest
/// first if not.
///
/// Up to 128 B the second vector overlaps the first rather than being masked to the
/// bytes past it: the mask (`bzhi`, `kmov`) cost more than the overlap saves, and a
/// later load of bytes a masked store wrote is not forwarded from that store, so a
/// move by 64 within 128 B ran at about half glibc's speed (ba1a756).
///
/// # Safety
/// `n > 64`; `n` bytes valid at each pointer; overlap only with `dst <= src` if
/// `FORWARD`, only with `dst >= src` if not; the features enabled in the caller.
#[inline(always)]
unsafe fn copy_above64_avx512<const ZMM: bool, const FORWARD: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    debug_assert!(n > 64);
    // SAFETY: caller guarantee; each callee's size range is checked (`n > 64` for the
    // AVX-512 classes, any `n` for the AVX2 copies, `n > 8 * w` for the loops); the
    // loops' direction is the caller's; every class up to eight vectors loads
    // everything before it stores; AVX-512F (enabled in the caller) implies AVX2.
    unsafe {
        if n <= 2 * 64 {
            copy_upto8v_from1v::<Avx512, true>(dst, src, n)
        } else if !ZMM {
            if FORWARD {
                copy_forward_avx2(dst, src, n)
            } else {
                copy_backward_avx2(dst, src, n)
            }
        } else if n <= 8 * 64 {
            vector::copy_upto8v_from1v::<Avx512, true>(dst, src, n)
        } else if FORWARD {
            vector::loop_forward_masked::<Avx512>(dst, src, n)
        } else {
            vector::loop_backward_masked::<Avx512>(dst, src, n)
        }
    }
}

/// The AVX-512 vector copy for any `n`: the dispatcher's inlined small sizes, then
/// the AVX-512 path (64-byte vectors above 128 B if `ZMM`), without non-temporal
/// stores; the loop runs lowest address first if `FORWARD`, else highest first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src` if `FORWARD`, with
/// `dst >= src` otherwise; the CPU must support AVX-512F, AVX-512BW and BMI2.
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
pub(crate) unsafe fn copy_avx512<const ZMM: bool, const FORWARD: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    // SAFETY: caller guarantee; size ranges checked (the small classes are
    // overlap-safe in either direction); features enabled here.
    unsafe {
        if n <= 16 {
            copy_upto16(dst, src, n)
        } else if n <= INLINE_MAX {
            copy_medium::<Sse2, Sse2, true>(dst, src, n)
        } else {
            copy_above64_avx512::<ZMM, FORWARD>(dst, src, n)
        }
    }
}

/// The AVX-512 fill (not used by the dispatcher, whose fill stays AVX2: unmeasured).
///
/// # Safety
/// `n` bytes valid at `dst`; the CPU must support AVX-512F (and BW, BMI2, as checked
/// together).
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
pub(crate) unsafe fn set_avx512(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: caller guarantee; the features are enabled in this function.
    unsafe { vector::set::<Sse2, Avx512>(dst, byte, n) }
}

/// Non-temporal copy with AVX-512 stores, the plain loop or (`interleave`) four pages
/// interleaved.
///
/// # Safety
/// `n` bytes valid at each pointer; no overlap; the CPU must support AVX-512F (and
/// BW, BMI2).
#[target_feature(enable = "avx512f,avx512bw,bmi2")]
pub(crate) unsafe fn memcpy_nontemporal_avx512(
    dst: *mut u8,
    src: *const u8,
    n: usize,
    interleave: bool,
) {
    // SAFETY: caller guarantee; the features are enabled in this function.
    unsafe { nontemporal::copy::<Sse2, Avx512>(dst, src, n, interleave) }
}

/// A copy of any size as the dispatcher makes it with `entry` in its slot: the
/// inlined part's classes up to [`INLINE_MAX`], `entry` above. With `entry` one of
/// the `memmove` entries (and `MOVE`: the small classes' stores in a move's order),
/// the buffers may overlap (the small classes load everything before they store).
///
/// # Safety
/// As for [`memcpy`] (or [`memmove`] with a `memmove` entry); the CPU must support
/// the features `entry` needs.
#[inline(always)]
unsafe fn through<const MOVE: bool>(entry: Entry, dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; each class's size range checked; `entry` gets
    // `n > INLINE_MAX`, as in its slot.
    unsafe {
        if n <= 16 {
            copy_upto16(dst, src, n)
        } else if n <= INLINE_MAX {
            copy_medium::<Sse2, Sse2, MOVE>(dst, src, n)
        } else {
            entry(dst, src, n)
        }
    }
}

/// Disjoint copy of any size as the dispatcher makes it on a CPU without AVX-512
/// (with this CPU's other features): the AVX2 entry above [`SSE2_MAX`] if the CPU has
/// AVX2. Reachable on an AVX-512 host as
/// [`Kernel::AutoWithoutAvx512`](crate::strategy::Kernel::AutoWithoutAvx512).
///
/// # Safety
/// As for [`memcpy`].
pub(crate) unsafe fn memcpy_without_avx512(dst: *mut u8, src: *const u8, n: usize, features: u8) {
    let entry: Entry = if features & cpu::AVX2 != 0 {
        memcpy_above64_avx2
    } else {
        memcpy_above64
    };
    // SAFETY: caller guarantee; AVX2 only when the CPU reported it.
    unsafe { through::<false>(entry, dst, src, n) }
}

/// Move of any size as the dispatcher makes it on a CPU without AVX-512, like
/// [`memcpy_without_avx512`].
///
/// # Safety
/// As for [`memmove`].
pub(crate) unsafe fn memmove_without_avx512(dst: *mut u8, src: *const u8, n: usize, features: u8) {
    let entry: Entry = if features & cpu::AVX2 != 0 {
        memmove_above64_avx2
    } else {
        memmove_above64
    };
    // SAFETY: caller guarantee; AVX2 only when the CPU reported it.
    unsafe { through::<true>(entry, dst, src, n) }
}

/// Disjoint copy of any size as the dispatcher makes it on a core with full-width
/// 512-bit accesses ([`cpu::ZMM`]), on any CPU with
/// AVX-512 (so the tests run it everywhere they can). Reachable as
/// [`Kernel::Avx512Zmm`](crate::strategy::Kernel::Avx512Zmm).
///
/// # Safety
/// As for [`memcpy`]; the CPU must support AVX-512F, AVX-512BW and BMI2.
pub(crate) unsafe fn memcpy_zmm(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee, with the features `memcpy_avx512` needs.
    unsafe { through::<false>(memcpy_avx512::<true>, dst, src, n) }
}

/// Move of any size as the dispatcher makes it on a core with full-width 512-bit
/// accesses, like [`memcpy_zmm`].
///
/// # Safety
/// As for [`memmove`]; the CPU must support AVX-512F, AVX-512BW and BMI2.
pub(crate) unsafe fn memmove_zmm(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee, with the features `memmove_avx512` needs.
    unsafe { through::<true>(memmove_avx512::<true>, dst, src, n) }
}

/// `true` when the `n`-byte ranges at `a` and `b` share no byte.
#[inline(always)]
pub(crate) fn disjoint(a: *const u8, b: *const u8, n: usize) -> bool {
    a.addr().wrapping_sub(b.addr()) >= n && b.addr().wrapping_sub(a.addr()) >= n
}

/// The SSE2 vector copy, lowest address first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src`.
pub(crate) unsafe fn copy_forward_sse2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; SSE2 is baseline.
    unsafe { vector::copy_forward::<Sse2, Sse2, true>(dst, src, n) }
}

/// The SSE2 vector copy, highest address first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst >= src`.
pub(crate) unsafe fn copy_backward_sse2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; SSE2 is baseline.
    unsafe { vector::copy_backward::<Sse2, Sse2>(dst, src, n) }
}

/// The SSE2 fill.
///
/// # Safety
/// `n` bytes valid at `dst`.
pub(crate) unsafe fn set_sse2(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: caller guarantee; SSE2 is baseline.
    unsafe { vector::set::<Sse2, Sse2>(dst, byte, n) }
}

/// The AVX2 vector copy, lowest address first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src`; the CPU must
/// support AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn copy_forward_avx2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; AVX2 is enabled in this function.
    unsafe { vector::copy_forward::<Sse2, Avx2, true>(dst, src, n) }
}

/// The AVX2 vector copy, highest address first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst >= src`; the CPU must
/// support AVX2.
#[target_feature(enable = "avx2")]
#[inline(never)]
pub(crate) unsafe fn copy_backward_avx2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; AVX2 is enabled in this function.
    unsafe { vector::copy_backward::<Sse2, Avx2>(dst, src, n) }
}

/// The AVX2 fill.
///
/// # Safety
/// `n` bytes valid at `dst`; the CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn set_avx2(dst: *mut u8, byte: u8, n: usize) {
    // SAFETY: caller guarantee; AVX2 is enabled in this function.
    unsafe { vector::set::<Sse2, Avx2>(dst, byte, n) }
}

/// `rep movsb` on an aligned destination, for any size.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src`.
pub(crate) unsafe fn copy_rep_movsb(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee.
    unsafe { rep::copy(dst, src, n) }
}

/// Non-temporal copy with SSE2 stores.
///
/// # Safety
/// `n` bytes valid at each pointer; no overlap.
pub(crate) unsafe fn memcpy_nontemporal_sse2(dst: *mut u8, src: *const u8, n: usize) {
    // SAFETY: caller guarantee; SSE2 is baseline.
    unsafe { nontemporal::copy::<Sse2, Sse2>(dst, src, n, false) }
}

/// Non-temporal copy with AVX2 stores, the plain loop or (`interleave`) four pages
/// interleaved.
///
/// # Safety
/// `n` bytes valid at each pointer; no overlap; the CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn memcpy_nontemporal_avx2(
    dst: *mut u8,
    src: *const u8,
    n: usize,
    interleave: bool,
) {
    // SAFETY: caller guarantee; AVX2 is enabled in this function.
    unsafe { nontemporal::copy::<Sse2, Avx2>(dst, src, n, interleave) }
}

#[cfg(test)]
mod tests {
    use super::rep_distance_ok;

    #[test]
    fn rep_movsb_is_avoided_only_just_ahead_of_the_source_page_offset() {
        let src = 0x10_0000 as *const u8;
        let at = |k: usize| src.wrapping_add(k);
        assert!(rep_distance_ok(at(0), src));
        for ahead in 1..64 {
            assert!(!rep_distance_ok(at(ahead), src), "{ahead}");
            assert!(!rep_distance_ok(at(8 * 4096 + ahead), src), "{ahead}");
        }
        for ahead in [64, 65, 100, 2048, 4095, 4096, 3 * 4096 + 64] {
            assert!(rep_distance_ok(at(ahead), src), "{ahead}");
        }
        // The destination below the source (in page offset) is fine.
        assert!(rep_distance_ok(src, at(1)));
    }
}
