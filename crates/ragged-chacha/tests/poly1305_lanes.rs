//! Edge cases of the multi-block Poly1305 backends, on every backend this CPU has,
//! against RustCrypto's `poly1305`: lengths around multiples of 4 and 8 blocks and
//! around the AVX2 threshold (where the lane combine and the portable remainder
//! meet), all-0xff messages and keys (the largest limb values), and messages fed in
//! pieces cut at every block boundary up to 8 blocks and from 16 to 28 (the AVX2
//! backend takes runs of 20 blocks or more), so the state crosses between the
//! portable and the SIMD code in both directions, at every lane phase. The same
//! for the AVX-512 IFMA backend from its threshold (20 blocks, as AVX2's) to six
//! groups of eight lanes (the first group padded in front), where the CPU has IFMA.

mod common;

use common::bytes;
use poly1305::universal_hash::KeyInit;
use ragged_chacha::{Poly1305, Poly1305Backend};

fn reference(key: &[u8; 32], message: &[u8]) -> [u8; 16] {
    poly1305::Poly1305::new(key.into())
        .compute_unpadded(message)
        .into()
}

/// The tag of `message` fed as the pieces between `cuts` (ascending byte offsets).
fn tag_in_pieces(
    backend: Poly1305Backend,
    key: &[u8; 32],
    message: &[u8],
    cuts: &[usize],
) -> [u8; 16] {
    let mut mac = Poly1305::new(key).with_backend(backend).unwrap();
    let mut at = 0;
    for &cut in cuts {
        let cut = cut.min(message.len());
        mac.update(&message[at..cut]);
        at = cut;
    }
    mac.update(&message[at..]);
    mac.finalize()
}

/// Three kinds of key: pseudo-random, all 0xff (the largest clamped `r`, and `s` whose
/// addition carries through every byte), and `r` = 1-ish (all but one limb zero).
fn keys(seed: u64) -> [[u8; 32]; 3] {
    let random: [u8; 32] = bytes(seed, 32).try_into().unwrap();
    let mut small = [0u8; 32];
    small[0] = 1;
    small[16..].fill(0xff);
    [random, [0xff; 32], small]
}

/// Three kinds of message: pseudo-random, all 0xff (every limb at its largest), and
/// zeros.
fn messages(seed: u64, len: usize) -> [Vec<u8>; 3] {
    [bytes(seed, len), vec![0xff; len], vec![0; len]]
}

#[test]
fn lengths_around_the_lane_boundaries() {
    let mut checked = 0;
    for blocks in [
        1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 19, 20, 21, 24, 31, 32, 33, 37, 40, 47, 63, 64, 65, 127,
        128, 129,
    ] {
        for delta in [-1i64, 0, 1] {
            let len = (blocks * 16) as i64 + delta;
            let len = len as usize;
            for key in keys(len as u64) {
                for message in messages(len as u64 ^ 0x5a5a, len) {
                    let expected = reference(&key, &message);
                    for backend in Poly1305Backend::available() {
                        assert_eq!(
                            tag_in_pieces(backend, &key, &message, &[]),
                            expected,
                            "{} bytes ({:02x}…) on {}",
                            len,
                            message.first().copied().unwrap_or(0),
                            backend.name()
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 26 * 3 * 9);
}

/// Piece lengths in blocks: every one up to 8 (portable), and 16 to 28 (either side
/// of the AVX2 threshold, at every phase mod 4 and 8).
fn piece_blocks() -> impl Iterator<Item = usize> + Clone {
    (0..=8).chain(16..=28)
}

#[test]
fn cuts_at_every_block_boundary_up_to_8_blocks_and_from_16_to_28() {
    // Two cuts, at a and a + b blocks, or one byte past them, so the first two pieces
    // go to the portable code or the SIMD code depending on their length, and the
    // state is handed across in both directions at every lane phase; the rest of the
    // message (at least 4 blocks) takes either path after that.
    let mut checked = 0;
    for total_blocks in [60, 129] {
        let len = total_blocks * 16 + 5;
        for key in keys(total_blocks as u64) {
            for message in messages(total_blocks as u64 + 99, len) {
                let expected = reference(&key, &message);
                for backend in Poly1305Backend::available() {
                    for a in piece_blocks() {
                        for b in piece_blocks() {
                            for skew in [0, 1] {
                                let cuts = [a * 16 + skew, (a + b) * 16 + skew];
                                assert_eq!(
                                    tag_in_pieces(backend, &key, &message, &cuts),
                                    expected,
                                    "{len} bytes cut at {cuts:?} on {}",
                                    backend.name()
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 2 * 3 * 3 * 22 * 22 * 2);
}

#[test]
fn cuts_either_side_of_the_ifma_threshold() {
    // A first piece of 0..=9 blocks (portable), then one of 16..=41 blocks (portable
    // below 20, then AVX2 or IFMA where the CPU has it, IFMA at every padding of the
    // first group of eight and one to six groups), then the rest; each cut on a block
    // boundary or one byte past it.
    let mut checked = 0;
    let total_blocks = 100;
    let len = total_blocks * 16 + 9;
    for key in keys(41) {
        for message in messages(4141, len) {
            let expected = reference(&key, &message);
            for backend in Poly1305Backend::available() {
                for a in 0..=9 {
                    for b in 16..=41 {
                        for skew in [0, 1] {
                            let cuts = [a * 16 + skew, (a + b) * 16 + skew];
                            assert_eq!(
                                tag_in_pieces(backend, &key, &message, &cuts),
                                expected,
                                "{len} bytes cut at {cuts:?} on {}",
                                backend.name()
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked >= 3 * 3 * 10 * 26 * 2);
}

#[test]
fn repeated_simd_runs_on_one_mac() {
    // Many SIMD-sized pieces in a row (the power table is built once and reused),
    // with odd bytes between them.
    // Pieces of 22 blocks (AVX2) and of 38 (IFMA, first group padded by 2).
    for piece in [22 * 16, 38 * 16] {
        for backend in Poly1305Backend::available() {
            for key in keys(7) {
                let message = bytes(0xfeed, 420 * 16 + 3);
                let expected = reference(&key, &message);
                let cuts: Vec<usize> = (1..11).map(|i| i * piece + (i % 3)).collect();
                assert_eq!(
                    tag_in_pieces(backend, &key, &message, &cuts),
                    expected,
                    "pieces of {piece} bytes on {}",
                    backend.name()
                );
            }
        }
    }
}
