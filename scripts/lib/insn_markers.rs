//! The two marker functions between which `scripts/lib/insn-count.sh` counts a
//! measured call's instructions in QEMU's execution trace (it matches their symbol
//! names). Included by path into the counting examples (`chacha_insns`, `copy_insns`,
//! `burst_insns`), so the programs and the script share one definition of the
//! protocol.

use std::hint::black_box;
use std::sync::atomic::{AtomicU8, Ordering};

/// Written by the markers, so that their bodies differ (the compiler merges identical
/// functions into one symbol, and the trace must tell the two apart) and so that their
/// calls stay (`black_box` makes the store observable).
static MARK: AtomicU8 = AtomicU8::new(0);

/// Marks the start of a measured call (the trace shows its symbol).
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn ragged_insn_begin() {
    black_box(&MARK).store(1, Ordering::Relaxed);
}

/// Marks the end of a measured call.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn ragged_insn_end() {
    black_box(&MARK).store(2, Ordering::Relaxed);
}
