//! Seals one message size many times with one implementation, for instruction
//! counting under Valgrind's callgrind (repeatable on a loaded machine, unlike a
//! clock):
//!
//! ```sh
//! cargo build --release -p ragged --example seal_count
//! valgrind --tool=callgrind --toggle-collect='seal_count::seal_*' \
//!     target/release/examples/seal_count ragged 1420 1000
//! ```
//!
//! Instructions per seal = the total collected / the count. `ragged` uses the
//! detected backends; `ragged-portable-mac` pins Poly1305 to the portable code.

use std::hint::black_box;

use ragged_chacha::{ChaCha20Poly1305, Poly1305Backend};

const KEY: [u8; 32] = [0x42; 32];

/// As `ragged speed` calls it: one seal with an AEAD keyed once (as ring's
/// `LessSafeKey` below).
#[inline(never)]
fn seal_ragged(aead: &ChaCha20Poly1305, nonce: &[u8; 12], buf: &mut [u8]) -> [u8; 16] {
    aead.encrypt_in_place_detached(nonce, b"", buf)
        .expect("short message")
}

#[inline(never)]
fn seal_ring(key: &ring::aead::LessSafeKey, nonce: [u8; 12], buf: &mut [u8]) -> [u8; 16] {
    let tag = key
        .seal_in_place_separate_tag(
            ring::aead::Nonce::assume_unique_for_key(nonce),
            ring::aead::Aad::empty(),
            buf,
        )
        .expect("short message");
    tag.as_ref().try_into().expect("16 bytes")
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let which = args.get(1).map_or("ragged", String::as_str);
    let size: usize = args.get(2).map_or(1420, |s| s.parse().expect("a size"));
    let count: u64 = args.get(3).map_or(1000, |s| s.parse().expect("a count"));
    let mut buf = vec![0x5au8; size];
    let mut nonce = [0u8; 12];
    let mut acc = 0u8;
    match which {
        "ragged" | "ragged-portable-mac" => {
            let mut aead = ChaCha20Poly1305::new(&KEY);
            if which == "ragged-portable-mac" {
                aead = aead
                    .with_mac_backend(Poly1305Backend::Portable)
                    .expect("the portable backend");
            }
            for n in 0..count {
                nonce[..8].copy_from_slice(&n.to_le_bytes());
                acc ^= seal_ragged(black_box(&aead), &nonce, black_box(&mut buf))[0];
            }
        }
        "ring" => {
            let key = ring::aead::LessSafeKey::new(
                ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &KEY)
                    .expect("a 32-byte key"),
            );
            for n in 0..count {
                nonce[..8].copy_from_slice(&n.to_le_bytes());
                acc ^= seal_ring(black_box(&key), nonce, black_box(&mut buf))[0];
            }
        }
        other => panic!("unknown implementation {other}"),
    }
    println!("{which} {size} x{count}: {acc:02x}");
}
