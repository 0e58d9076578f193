//! The copies whose executed instructions `scripts/riscv-insn-count` counts under QEMU.
//!
//! Every measured call sits between a call of [`ragged_insn_begin`] and one of
//! [`ragged_insn_end`]; the script runs this program under `qemu-riscv64` with one
//! instruction per translation block and an execution trace, and counts the trace lines
//! between those two symbols. Each cell of the table (copier, source offset, size) is
//! measured `REPS` times; the first cell, `empty`, calls a function that does nothing
//! in the same way, so its count is the fixed overhead of a measurement (the call
//! through a function pointer and the marker calls), which the script subtracts.
//!
//! For each cell the program prints one line, in the order of the measurements:
//!
//! ```text
//! cell <copier> <source offset> <size> <reps>
//! ```
//!
//! The destination starts on a 4 KiB boundary; the source `offset` bytes past a 64-byte
//! boundary half a page further on (as in `ragged speed memcpy`). Offset 0 is a
//! co-aligned copy, 1, 3 and 5 mismatched ones. Every copy is checked afterwards.
//!
//! `cargo run --release -p ragged-mem --example copy_insns` runs it natively (the
//! markers are then plain empty calls).

use std::hint::black_box;

use ragged_mem::baseline;
use ragged_mem::word::{self, Native};

#[path = "../../../scripts/lib/insn_markers.rs"]
mod insn_markers;
use insn_markers::{ragged_insn_begin, ragged_insn_end};

/// Measurements of each cell: all must give the same count (the script checks).
const REPS: usize = 3;
const SIZES: [usize; 3] = [64, 1420, 65536];
const OFFSETS: [usize; 4] = [0, 1, 3, 5];
const PAGE: usize = 4096;

type Copy = unsafe fn(*mut u8, *const u8, usize);

/// The word strategy as the library runs it on targets without a vector strategy
/// (`ragged_mem::memcpy` on riscv64 is exactly this), in the target's byte order.
#[inline(never)]
unsafe fn word_copy(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: caller guarantee (disjoint buffers valid for `n` bytes).
    unsafe { word::copy_forward::<Native>(d, s, n) }
}

/// Words only when co-aligned, bytes otherwise.
#[inline(never)]
unsafe fn coaligned_only(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: caller guarantee (disjoint buffers valid for `n` bytes).
    let (d, s) = unsafe {
        (
            std::slice::from_raw_parts_mut(d, n),
            std::slice::from_raw_parts(s, n),
        )
    };
    baseline::coaligned_only(d, s);
}

/// One byte at a time.
#[inline(never)]
unsafe fn bytewise(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: caller guarantee (disjoint buffers valid for `n` bytes).
    let (d, s) = unsafe {
        (
            std::slice::from_raw_parts_mut(d, n),
            std::slice::from_raw_parts(s, n),
        )
    };
    baseline::bytewise(d, s);
}

/// Does nothing: the overhead of a measurement.
#[inline(never)]
unsafe fn empty(d: *mut u8, s: *const u8, n: usize) {
    black_box((d, s, n));
}

/// One measured call: the only code between the two markers is this call of `f`.
#[inline(never)]
fn measure(f: Copy, d: *mut u8, s: *const u8, n: usize) {
    ragged_insn_begin();
    // SAFETY: the caller passes disjoint buffers valid for `n` bytes.
    unsafe { f(d, s, n) };
    ragged_insn_end();
}

/// Measures `REPS` copies of `n` bytes with `f` at source offset `offset`, and checks
/// the result.
fn cell(name: &str, f: Copy, offset: usize, n: usize) {
    let mut dst = vec![0u8; n + 2 * PAGE];
    let mut src = vec![0u8; n + 2 * PAGE];
    let d = dst.as_mut_ptr().align_offset(PAGE);
    let s = src.as_ptr().align_offset(PAGE) + PAGE / 2 + offset;
    for (i, b) in src[s..s + n].iter_mut().enumerate() {
        *b = (i * 131 + 7) as u8;
    }
    println!("cell {name} {offset} {n} {REPS}");
    for _ in 0..REPS {
        dst[d..d + n].fill(0);
        measure(
            black_box(f),
            black_box(dst[d..].as_mut_ptr()),
            black_box(src[s..].as_ptr()),
            black_box(n),
        );
        if name != "empty" {
            assert!(dst[d..d + n] == src[s..s + n], "{name} {offset} {n}");
        }
    }
}

fn main() {
    cell("empty", empty, 0, 0);
    let copiers: [(&str, Copy); 3] = [
        ("word", word_copy),
        ("coaligned-only", coaligned_only),
        ("bytewise", bytewise),
    ];
    for n in SIZES {
        for (name, f) in copiers {
            for offset in OFFSETS {
                cell(name, f, offset, n);
            }
        }
    }
}
