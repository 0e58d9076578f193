//! The burst call against the single-message calls in a loop over the same items, for
//! tuning the burst split on a busy machine: each shape's two ways alternate in short
//! samples, and the fastest sample of each is kept (a sample another process
//! interrupted is only slower), so the ratio holds up where `ragged speed`'s medians
//! do not.
//!
//! `cargo run --release -p ragged-chacha --example burst_tune -- [SECONDS] [packed] [sweep | seal|open|xor:N:LEN[+N:LEN…]…]`
//!
//! With no shapes, `ragged speed`'s burst rows; with `sweep`, a grid of shapes (6–64
//! items of 64–1500 bytes, and mixes, each kind) of which only those where the burst
//! is slower are printed, then a count: the check to run before and after a change to
//! the burst plan, whose table rows alone hid bursts slower than looped. Prints, per
//! shape, ns a call each way and looped / burst (above 1: the burst call is faster).
//! Each packet is its own allocation, or with `packed` all in one buffer, 16 bytes
//! apart, as in `ragged speed`.

use std::hint::black_box;
use std::time::Instant;

use ragged_chacha::burst::{OpenItem, SealItem, XorItem};
use ragged_chacha::{ChaCha20, ChaCha20Poly1305};

const KEY: [u8; 32] = [7; 32];

/// One way of doing a shape's work, timed as calls of a closure.
fn fastest(mut call: impl FnMut(), calls: usize, samples: usize) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..samples {
        let start = Instant::now();
        for _ in 0..calls {
            call();
        }
        best = best.min(start.elapsed().as_nanos() as f64 / calls as f64);
    }
    best
}

fn nonce(i: usize) -> [u8; 12] {
    let mut n = [0u8; 12];
    n[..8].copy_from_slice(&(i as u64).to_le_bytes());
    n
}

/// The lengths of a shape: `N:LEN` groups joined by `+`.
fn lengths(spec: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for group in spec.split('+') {
        let (n, len) = group.split_once(':').expect("N:LEN");
        let (n, len): (usize, usize) = (n.parse().expect("N"), len.parse().expect("LEN"));
        out.extend(std::iter::repeat_n(len, n));
    }
    out
}

/// Where a shape's packets live: each its own allocation, or (`packed`) one after the
/// other in one buffer with 16 bytes (a tag's room) after each, as `ragged speed`'s
/// burst rows lay them out.
fn packets<'a>(
    own: &'a mut Vec<Vec<u8>>,
    one: &'a mut Vec<u8>,
    lens: &[usize],
    packed: bool,
) -> Vec<&'a mut [u8]> {
    if !packed {
        *own = lens.iter().map(|&l| vec![1u8; l]).collect();
        return own.iter_mut().map(Vec::as_mut_slice).collect();
    }
    *one = vec![1u8; lens.iter().map(|l| l + 16).sum()];
    let mut rest = one.as_mut_slice();
    let mut out = Vec::new();
    for &len in lens {
        let (packet, after) = rest.split_at_mut(len);
        out.push(packet);
        rest = &mut after[16..];
    }
    out
}

/// ns a call: burst, looped.
fn time(kind: &str, lens: &[usize], seconds: f64, packed: bool) -> (f64, f64) {
    let aead = ChaCha20Poly1305::new(&KEY);
    let (mut own, mut one) = (Vec::new(), Vec::new());
    let mut bufs = packets(&mut own, &mut one, lens, packed);
    let mut tags: Vec<[u8; 16]> = vec![[0; 16]; lens.len()];
    for (i, (b, t)) in bufs.iter_mut().zip(tags.iter_mut()).enumerate() {
        *t = aead.encrypt_in_place_detached(&nonce(i), b"", b).unwrap();
    }
    let sealed: Vec<Vec<u8>> = bufs.iter().map(|b| b.to_vec()).collect();
    let bytes: usize = lens.iter().sum();
    // About 100 µs a sample.
    let calls = (100_000 / (bytes / 4 + 200)).max(1);
    let burst = |bufs: &mut Vec<&mut [u8]>| match kind {
        "seal" => {
            let mut items: Vec<SealItem<'_, _>> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| SealItem::new(nonce(i), b"", b))
                .collect();
            aead.seal_burst(&mut items).unwrap();
            black_box(&items[0].tag);
        }
        "open" => {
            for (b, c) in bufs.iter_mut().zip(&sealed) {
                b.copy_from_slice(c);
            }
            let mut items: Vec<OpenItem<'_, _>> = bufs
                .iter_mut()
                .zip(&tags)
                .enumerate()
                .map(|(i, (b, t))| OpenItem::new(nonce(i), b"", b, *t))
                .collect();
            let mut verdicts = vec![Ok(()); items.len()];
            aead.open_burst(&mut items, &mut verdicts).unwrap();
        }
        "xor" => {
            let mut items: Vec<XorItem<'_, _>> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| XorItem::new(&KEY, nonce(i), i as u32, b))
                .collect();
            ChaCha20::xor_burst(&mut items).unwrap();
        }
        _ => panic!("seal, open or xor"),
    };
    let looped = |bufs: &mut Vec<&mut [u8]>| match kind {
        "seal" => {
            for (i, b) in bufs.iter_mut().enumerate() {
                black_box(aead.encrypt_in_place_detached(&nonce(i), b"", b).unwrap());
            }
        }
        "open" => {
            for (b, c) in bufs.iter_mut().zip(&sealed) {
                b.copy_from_slice(c);
            }
            for (i, (b, t)) in bufs.iter_mut().zip(&tags).enumerate() {
                aead.decrypt_in_place_detached(&nonce(i), b"", b, t)
                    .unwrap();
            }
        }
        "xor" => {
            for (i, b) in bufs.iter_mut().enumerate() {
                ChaCha20::with_counter(&KEY, &nonce(i), i as u32).apply_keystream(b);
            }
        }
        _ => panic!("seal, open or xor"),
    };
    let (mut b, mut l) = (f64::MAX, f64::MAX);
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds {
        b = b.min(fastest(|| burst(&mut bufs), calls, 5));
        l = l.min(fastest(|| looped(&mut bufs), calls, 5));
    }
    (b, l)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let seconds = match args.first().and_then(|a| a.parse::<f64>().ok()) {
        Some(s) => {
            args.remove(0);
            s
        }
        None => 1.0,
    };
    let packed = args.first().is_some_and(|a| a == "packed");
    if packed {
        args.remove(0);
    }
    let sweep = args.first().is_some_and(|a| a == "sweep");
    if sweep {
        args = sweep_shapes();
    } else if args.is_empty() {
        for kind in ["seal", "open", "xor"] {
            for shape in [
                "16:64", "64:64", "16:256", "64:256", "16:576", "16:1420", "64:1420",
            ] {
                args.push(format!("{kind}:{shape}"));
            }
            args.push(format!("{kind}:28:64+16:576+4:1500"));
        }
        args.push("xor:32:64".into());
    }
    let (mut slower, mut below_95) = (0, 0);
    for arg in &args {
        let (kind, spec) = arg.split_once(':').expect("KIND:N:LEN");
        let lens = lengths(spec);
        let (burst, looped) = time(kind, &lens, seconds, packed);
        let ratio = looped / burst;
        slower += usize::from(ratio < 1.0);
        below_95 += usize::from(ratio < 0.95);
        if !sweep || ratio < 1.0 {
            println!(
                "{kind:4} {spec:20} burst {burst:8.0} ns  looped {looped:8.0} ns  {ratio:.3}x"
            );
        }
    }
    if sweep {
        println!(
            "{} shapes: {slower} with the burst slower, {below_95} below 0.95x",
            args.len()
        );
    }
}

/// The shapes of `sweep`: counts around one and two sets of lanes and beyond, lengths
/// from one block to a full-size packet, and mixes of long and short.
fn sweep_shapes() -> Vec<String> {
    let mut shapes = Vec::new();
    for kind in ["seal", "open", "xor"] {
        for n in [6, 8, 9, 10, 12, 14, 16, 17, 20, 24, 28, 32, 40, 48, 64] {
            for len in [64, 200, 576, 1024, 1420, 1500] {
                shapes.push(format!("{kind}:{n}:{len}"));
            }
        }
        for mix in [
            "1:1420+15:64",
            "4:1420+12:64",
            "8:1420+8:64",
            "12:1420+4:64",
            "16:1420+16:64",
            "20:1420+10:64",
            "2:1500+40:64",
            "8:1024+8:576",
            "10:1420+10:576",
            "28:64+16:576+4:1500",
        ] {
            shapes.push(format!("{kind}:{mix}"));
        }
    }
    shapes
}
