//! One burst shape (or its items one call at a time: `single-…`), called in a loop for
//! a profiler (`perf record`), with the time a call printed at the end.
//!
//! `cargo run --release -p ragged-chacha --example burst_profile -- seal|open|xor|single-xor|single-seal N LEN [SECONDS]`

use std::hint::black_box;
use std::time::{Duration, Instant};

use ragged_chacha::burst::{OpenItem, SealItem, XorItem};
use ragged_chacha::{ChaCha20, ChaCha20Poly1305};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "burst_profile seal|open|xor|single-xor|single-seal N LEN [SECONDS]";
    let kind = args.first().expect(usage).clone();
    let n: usize = args.get(1).expect(usage).parse().expect(usage);
    let len: usize = args.get(2).expect(usage).parse().expect(usage);
    let seconds: f64 = args.get(3).map_or(5.0, |s| s.parse().expect(usage));
    let key = [7u8; 32];
    let aead = ChaCha20Poly1305::new(&key);
    let mut bufs = vec![vec![1u8; len]; n];
    let mut tags = vec![[0u8; 16]; n];
    for (b, t) in bufs.iter_mut().zip(tags.iter_mut()) {
        *t = aead.encrypt_in_place_detached(&[3; 12], b"", b).unwrap();
    }
    let sealed = bufs.clone();
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let mut verdicts = vec![Ok(()); n];
    let mut calls = 0u64;
    let start = Instant::now();
    while Instant::now() < deadline {
        for _ in 0..1000 {
            match kind.as_str() {
                "seal" => {
                    let mut items: Vec<SealItem<'_, _>> = bufs
                        .iter_mut()
                        .map(|b| SealItem::new([3; 12], b"", b))
                        .collect();
                    aead.seal_burst(&mut items).unwrap();
                    black_box(&items[0].tag);
                }
                "open" => {
                    // Opens the same ciphertext every time: a failed tag would zero it.
                    let mut items: Vec<OpenItem<'_, _>> = bufs
                        .iter_mut()
                        .zip(&tags)
                        .map(|(b, t)| OpenItem::new([3; 12], b"", b, *t))
                        .collect();
                    black_box(aead.open_burst(&mut items, &mut verdicts)).unwrap();
                    drop(items);
                    // Back to the ciphertext: a copy costs far less than a seal.
                    for (b, c) in bufs.iter_mut().zip(&sealed) {
                        b.copy_from_slice(c);
                    }
                }
                "xor" => {
                    let mut items: Vec<XorItem<'_, _>> = bufs
                        .iter_mut()
                        .map(|b| XorItem::new(&key, [3; 12], 0, b))
                        .collect();
                    ChaCha20::xor_burst(&mut items).unwrap();
                }
                "single-xor" => {
                    for b in bufs.iter_mut() {
                        ChaCha20::new(&key, &[3; 12]).apply_keystream(b);
                    }
                }
                "single-seal" => {
                    for b in bufs.iter_mut() {
                        black_box(aead.encrypt_in_place_detached(&[3; 12], b"", b).unwrap());
                    }
                }
                _ => panic!("{usage}"),
            }
            calls += 1;
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / calls as f64;
    println!("{kind} {n} x {len} B: {ns:.0} ns a call");
}
