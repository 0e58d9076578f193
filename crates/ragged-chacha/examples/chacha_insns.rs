//! The ChaCha20 messages whose executed instructions `scripts/chacha-insn-count`
//! counts under QEMU.
//!
//! Every measured message sits between a call of [`ragged_insn_begin`] and one of
//! [`ragged_insn_end`]; the script runs this program under `qemu-aarch64` with one
//! instruction per translation block and an execution trace, and counts the trace lines
//! between those two symbols. A message is what `ragged speed` times: construct the
//! cipher for the message's key and nonce, then XOR the keystream over the buffer in
//! place. Each cell (implementation, size) is measured `REPS` times; the first cell,
//! `empty`, calls a function that does nothing in the same way, so its count is the
//! fixed overhead of a measurement, which the script subtracts.
//!
//! Implementations: `neon` and `portable` are ragged's `ChaCha20` pinned to a backend
//! with `with_backend`; `rustcrypto` is the `chacha20` crate (a peer, as in `ragged
//! speed`). A backend this CPU lacks is left out (on x86-64 hosts: `neon`).
//!
//! For each cell the program prints one line, in the order of the measurements:
//!
//! ```text
//! cell <implementation> 0 <size> <reps>
//! ```
//!
//! (the 0 is the buffer offset, kept for the same format as `copy_insns`). Every
//! output is checked against the portable backend's.
//!
//! `cargo run --release -p ragged-chacha --example chacha_insns` runs it natively.

use std::hint::black_box;

use chacha20::cipher::{KeyIvInit, StreamCipher};
use ragged_chacha::{Backend, ChaCha20};

#[path = "../../../scripts/lib/insn_markers.rs"]
mod insn_markers;
use insn_markers::{ragged_insn_begin, ragged_insn_end};

const REPS: usize = 3;
const SIZES: [usize; 5] = [64, 65, 255, 1420, 4096];
const KEY: [u8; 32] = [0x42; 32];
const NONCE: [u8; 12] = [0x24; 12];

type Message = fn(&mut [u8]);

/// One message with ragged's `ChaCha20` on `backend`.
#[inline(always)]
fn ragged(backend: Backend, buf: &mut [u8]) {
    ChaCha20::new(black_box(&KEY), black_box(&NONCE))
        .with_backend(backend)
        .expect("an available backend")
        .apply_keystream(buf);
}

#[inline(never)]
fn neon(buf: &mut [u8]) {
    ragged(Backend::Neon, buf);
}

#[inline(never)]
fn portable(buf: &mut [u8]) {
    ragged(Backend::Portable, buf);
}

/// One message with RustCrypto's `chacha20`.
#[inline(never)]
fn rustcrypto(buf: &mut [u8]) {
    let mut c = chacha20::ChaCha20::new(black_box(&KEY.into()), black_box(&NONCE.into()));
    c.apply_keystream(buf);
}

/// Does nothing: the overhead of a measurement.
#[inline(never)]
fn empty(buf: &mut [u8]) {
    black_box(buf);
}

/// One measured message: the only code between the two markers is this call of `f`.
#[inline(never)]
fn measure(f: Message, buf: &mut [u8]) {
    ragged_insn_begin();
    f(buf);
    ragged_insn_end();
}

fn cell(name: &str, f: Message, n: usize) {
    let plain: Vec<u8> = (0..n).map(|i| (i * 131 + 7) as u8).collect();
    let mut expected = plain.clone();
    portable(&mut expected);
    println!("cell {name} 0 {n} {REPS}");
    for _ in 0..REPS {
        let mut buf = plain.clone();
        measure(black_box(f), black_box(&mut buf));
        if name != "empty" {
            assert!(buf == expected, "{name} {n}");
        }
    }
}

fn main() {
    cell("empty", empty, 0);
    let mut imps: Vec<(&str, Message)> = Vec::new();
    if Backend::Neon.is_available() {
        imps.push(("neon", neon));
    }
    imps.push(("portable", portable));
    imps.push(("rustcrypto", rustcrypto));
    for n in SIZES {
        for &(name, f) in &imps {
            cell(name, f, n);
        }
    }
}
