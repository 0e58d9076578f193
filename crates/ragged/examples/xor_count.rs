//! Encrypts one message size many times with one ChaCha20 backend, for instruction
//! counting where a clock means nothing — under an emulator — or is blurred by a
//! loaded machine. On another architecture, under QEMU user mode, one instruction per
//! translation block makes the exec log one line per guest instruction:
//!
//! ```sh
//! qemu-arm -one-insn-per-tb -d exec,nochain -D log xor_count neon 1420 1
//! qemu-arm -one-insn-per-tb -d exec,nochain -D log xor_count neon 1420 101
//! ```
//!
//! Instructions per call = (the second log's `Trace` lines − the first's) / 100, which
//! leaves out start-up and exit. On the host, `valgrind --tool=callgrind
//! --toggle-collect='xor_count::xor_*'` counts the same calls.

use std::hint::black_box;

use ragged_chacha::{Backend, ChaCha20};

/// As `ragged speed` calls it: the cipher constructed per message, then one XOR in
/// place.
#[inline(never)]
fn xor_ragged(key: &[u8; 32], nonce: &[u8; 12], backend: Backend, buf: &mut [u8]) {
    ChaCha20::new(key, nonce)
        .with_backend(backend)
        .expect("an available backend")
        .apply_keystream(buf);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("portable", String::as_str);
    let size: usize = args.get(2).map_or(1420, |s| s.parse().expect("a size"));
    let count: u64 = args.get(3).map_or(1000, |s| s.parse().expect("a count"));
    let Some(backend) = Backend::from_name(name).filter(|b| b.is_available()) else {
        let names: Vec<_> = Backend::available().map(Backend::name).collect();
        eprintln!("xor_count: backend {name:?} unavailable; this CPU has {names:?}");
        std::process::exit(2);
    };
    let key = [0x42u8; 32];
    let mut nonce = [0u8; 12];
    let mut buf = vec![0x5au8; size];
    for i in 0..count {
        nonce[..8].copy_from_slice(&i.to_le_bytes());
        xor_ragged(
            black_box(&key),
            black_box(&nonce),
            backend,
            black_box(&mut buf),
        );
    }
    println!("{:02x}", buf.iter().fold(0, |acc, b| acc ^ b));
}
