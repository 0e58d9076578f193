//! The bursts whose executed instructions `scripts/burst-insn-count` counts under
//! Callgrind (x86-64) and `scripts/chacha-insn-count burst` under QEMU (aarch64,
//! armv7): a noise-free cross-check of `ragged speed`'s burst rows on a shared machine,
//! and the only one on emulated targets.
//!
//! Each row of `ragged speed chacha20-poly1305-burst chacha20-poly1305-open-burst
//! chacha20-burst` (and a few small bursts it does not time) is two functions here, the
//! burst call and the single-message API in a loop over the same packets, each built
//! as the speed harness builds them (the item vectors included). Every function has
//! its own symbol (`measured::<row>::burst`, `measured::<row>::looped`) and runs `REPS`
//! times (`BURST_INSNS_REPS` in the environment overrides it); Callgrind's inclusive
//! count of that symbol over `REPS` is the row's cost, harness included. Under QEMU,
//! `scripts/lib/insn-count.sh` counts the instructions between the markers
//! [`ragged_insn_begin`] and [`ragged_insn_end`], which enclose only the library calls:
//! the burst call, or the loop of single-message calls. For that count the program
//! prints, before each function's `REPS` measurements,
//!
//! ```text
//! cell <row> <burst|looped> <packets> <bytes> <reps>
//! ```
//!
//! Every burst's output is checked against the loop's.
//!
//! `cargo run --release -p ragged-chacha --example burst_insns [ROW]` runs it natively
//! (the checks only); with a row's name, only that row (for a profile of one row).

use std::hint::black_box;

use ragged_chacha::burst::{OpenItem, SealItem, XorItem};
use ragged_chacha::variant::Ietf;
use ragged_chacha::{ChaCha20, ChaCha20Poly1305};

#[path = "../../../scripts/lib/insn_markers.rs"]
mod insn_markers;
use insn_markers::{ragged_insn_begin, ragged_insn_end};

/// Calls of each measured function, unless `BURST_INSNS_REPS` says otherwise.
const REPS: usize = 20;

/// Calls of each measured function.
fn reps() -> usize {
    std::env::var("BURST_INSNS_REPS")
        .ok()
        .map_or(REPS, |r| r.parse().expect("BURST_INSNS_REPS: a number"))
}
const KEY: [u8; 32] = [0x42; 32];

/// Packet `i`'s nonce.
fn nonce(i: usize) -> [u8; 12] {
    let mut nonce = [7; 12];
    nonce[8..].copy_from_slice(&(i as u32).to_le_bytes());
    nonce
}

/// The packets of `buf` (each followed by its 16-byte tag) as (message, tag) pairs.
fn packets<'a>(mut buf: &'a mut [u8], lens: &[usize]) -> Vec<(&'a mut [u8], &'a mut [u8])> {
    let mut out = Vec::with_capacity(lens.len());
    for &len in lens {
        let (packet, rest) = buf.split_at_mut(len + 16);
        let (msg, tag) = packet.split_at_mut(len);
        out.push((msg, tag));
        buf = rest;
    }
    out
}

#[inline(always)]
fn seal_burst(aead: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let mut pkts = packets(black_box(buf), lens);
    let mut items: Vec<_> = pkts
        .iter_mut()
        .enumerate()
        .map(|(i, (msg, _))| SealItem::new(nonce(i), b"", msg))
        .collect();
    ragged_insn_begin();
    let sealed = aead.seal_burst(&mut items);
    ragged_insn_end();
    sealed.expect("short packets");
    let tags: Vec<[u8; 16]> = items.iter().map(|it| it.tag).collect();
    drop(items);
    for ((_, tag), t) in pkts.iter_mut().zip(&tags) {
        tag.copy_from_slice(t);
    }
}

#[inline(always)]
fn seal_looped(aead: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let pkts = packets(black_box(buf), lens);
    ragged_insn_begin();
    for (i, (msg, tag)) in pkts.into_iter().enumerate() {
        let t = aead
            .encrypt_in_place_detached(&nonce(i), b"", msg)
            .expect("short");
        tag.copy_from_slice(&t);
    }
    ragged_insn_end();
}

#[inline(always)]
fn open_burst(aead: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let mut pkts = packets(black_box(buf), lens);
    let mut items: Vec<_> = pkts
        .iter_mut()
        .enumerate()
        .map(|(i, (msg, tag))| {
            let t: [u8; 16] = (&**tag).try_into().expect("16 bytes");
            OpenItem::new(nonce(i), b"", msg, t)
        })
        .collect();
    let mut verdicts = vec![Ok(()); items.len()];
    ragged_insn_begin();
    let opened = aead.open_burst(&mut items, &mut verdicts);
    ragged_insn_end();
    opened.expect("sealed packets open");
}

#[inline(always)]
fn open_looped(aead: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let pkts = packets(black_box(buf), lens);
    ragged_insn_begin();
    for (i, (msg, tag)) in pkts.into_iter().enumerate() {
        let t: [u8; 16] = (&*tag).try_into().expect("16 bytes");
        aead.decrypt_in_place_detached(&nonce(i), b"", msg, &t)
            .expect("sealed packets open");
    }
    ragged_insn_end();
}

#[inline(always)]
fn xor_burst(_: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let mut pkts = packets(black_box(buf), lens);
    let mut items: Vec<_> = pkts
        .iter_mut()
        .enumerate()
        .map(|(i, (msg, _))| XorItem::<Ietf<20>>::new(&KEY, nonce(i), i as u32, msg))
        .collect();
    ragged_insn_begin();
    let xored = ChaCha20::xor_burst(&mut items);
    ragged_insn_end();
    xored.expect("short packets");
}

#[inline(always)]
fn xor_looped(_: &ChaCha20Poly1305, buf: &mut [u8], lens: &[usize]) {
    let pkts = packets(black_box(buf), lens);
    ragged_insn_begin();
    for (i, (msg, _)) in pkts.into_iter().enumerate() {
        ChaCha20::with_counter(&KEY, &nonce(i), i as u32).apply_keystream(msg);
    }
    ragged_insn_end();
}

type Run = fn(&ChaCha20Poly1305, &mut [u8], &[usize]);

/// The IMIX lengths for `count` packets (a multiple of 12), as `ragged speed` has them.
fn imix(count: usize) -> Vec<usize> {
    let twelve = [64, 64, 576, 64, 64, 576, 1500, 64, 576, 64, 64, 576];
    twelve.iter().copied().cycle().take(count).collect()
}

/// Runs one row: `burst` `reps` times, then `looped` `reps` times, each on a copy of
/// one buffer, and checks they wrote the same bytes (opening: the buffer is sealed
/// first, outside the markers).
fn row(name: &str, op: &str, lens: &[usize], burst: Run, looped: Run) {
    if std::env::args().nth(1).is_some_and(|only| only != name) {
        return;
    }
    let aead = ChaCha20Poly1305::new(&KEY);
    let total: usize = lens.iter().map(|l| l + 16).sum();
    let mut plain: Vec<u8> = (0..total).map(|i| (i * 131 + 7) as u8).collect();
    if op == "open" {
        for (i, (msg, tag)) in packets(&mut plain, lens).into_iter().enumerate() {
            let t = aead.encrypt_in_place_detached(&nonce(i), b"", msg);
            tag.copy_from_slice(&t.expect("short"));
        }
    }
    let (packets, bytes) = (lens.len(), lens.iter().sum::<usize>());
    let reps = reps();
    println!("row {name} {op} {packets} {bytes}");
    let (mut a, mut b) = (plain.clone(), plain.clone());
    println!("cell {name} burst {packets} {bytes} {reps}");
    for _ in 0..reps {
        a.copy_from_slice(&plain);
        burst(black_box(&aead), &mut a, lens);
    }
    println!("cell {name} looped {packets} {bytes} {reps}");
    for _ in 0..reps {
        b.copy_from_slice(&plain);
        looped(black_box(&aead), &mut b, lens);
    }
    assert!(a == b, "{name}: the burst differs from the loop");
}

/// Defines `measured::<row>::{burst, looped}` for each row and `rows()` running them all.
macro_rules! rows {
    ($(($row:ident, $op:ident, $burst:ident, $looped:ident, $lens:expr)),* $(,)?) => {
        mod measured {
            use super::*;
            $(
                pub(super) mod $row {
                    use super::*;
                    #[inline(never)]
                    pub(in crate) fn burst(a: &ChaCha20Poly1305, b: &mut [u8], l: &[usize]) {
                        // Distinct bodies: identical ones would be merged into one symbol.
                        black_box(stringify!($row));
                        $burst(a, b, l)
                    }
                    #[inline(never)]
                    pub(in crate) fn looped(a: &ChaCha20Poly1305, b: &mut [u8], l: &[usize]) {
                        black_box(stringify!($row));
                        $looped(a, b, l)
                    }
                }
            )*
        }
        fn rows() {
            $(
                row(
                    stringify!($row),
                    stringify!($op),
                    &$lens,
                    measured::$row::burst,
                    measured::$row::looped,
                );
            )*
        }
    };
}

rows! {
    (seal_4x64, seal, seal_burst, seal_looped, [64; 4]),
    (seal_8x64, seal, seal_burst, seal_looped, [64; 8]),
    (seal_4x256, seal, seal_burst, seal_looped, [256; 4]),
    (seal_16x64, seal, seal_burst, seal_looped, [64; 16]),
    (seal_16x256, seal, seal_burst, seal_looped, [256; 16]),
    (seal_16x576, seal, seal_burst, seal_looped, [576; 16]),
    (seal_16x1420, seal, seal_burst, seal_looped, [1420; 16]),
    (seal_64x64, seal, seal_burst, seal_looped, [64; 64]),
    (seal_64x256, seal, seal_burst, seal_looped, [256; 64]),
    (seal_64x1420, seal, seal_burst, seal_looped, [1420; 64]),
    (seal_imix48, seal, seal_burst, seal_looped, imix(48)),
    (open_16x64, open, open_burst, open_looped, [64; 16]),
    (open_64x256, open, open_burst, open_looped, [256; 64]),
    (open_16x1420, open, open_burst, open_looped, [1420; 16]),
    (open_imix48, open, open_burst, open_looped, imix(48)),
    (xor_4x64, xor, xor_burst, xor_looped, [64; 4]),
    (xor_32x64, xor, xor_burst, xor_looped, [64; 32]),
    (xor_16x256, xor, xor_burst, xor_looped, [256; 16]),
    (xor_16x1420, xor, xor_burst, xor_looped, [1420; 16]),
    (xor_imix48, xor, xor_burst, xor_looped, imix(48)),
}

fn main() {
    println!("reps {}", reps());
    rows();
}
