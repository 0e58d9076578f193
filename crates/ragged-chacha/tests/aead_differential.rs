//! The AEADs and Poly1305 against RustCrypto's `chacha20poly1305` and `poly1305`:
//! plaintext lengths 0..=1800, 2047..=2049 and 65537 × AAD lengths 0..=40, on every
//! backend pair this CPU has; incremental Poly1305 in random pieces against the
//! one-shot reference.

mod common;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use common::bytes;
use ragged_chacha::{AeadKind, AnyAead, Backend, Poly1305, Poly1305Backend};

/// Plaintext lengths: every one up to 1800 (the key batch of every backend with every
/// remainder after it, fused into it or not) and odd large sizes.
fn lengths() -> impl Iterator<Item = usize> {
    (0..=1800).chain([2047, 2048, 2049, 65537])
}

/// RustCrypto's ciphertext and tag.
fn reference(
    kind: AeadKind,
    key: &[u8; 32],
    nonce: &[u8],
    aad: &[u8],
    plaintext: &[u8],
) -> (Vec<u8>, [u8; 16]) {
    let mut buf = plaintext.to_vec();
    let tag = match kind {
        AeadKind::ChaCha20Poly1305 => chacha20poly1305::ChaCha20Poly1305::new(key.into())
            .encrypt_inout_detached(nonce.try_into().unwrap(), aad, buf.as_mut_slice().into()),
        AeadKind::XChaCha20Poly1305 => chacha20poly1305::XChaCha20Poly1305::new(key.into())
            .encrypt_inout_detached(nonce.try_into().unwrap(), aad, buf.as_mut_slice().into()),
        other => panic!("no reference for {other:?}"),
    }
    .unwrap();
    (buf, tag.into())
}

/// Seals with ragged on `backend`/`mac`, checks against `expected`, opens again.
#[allow(clippy::too_many_arguments)]
fn seal_and_open(
    kind: AeadKind,
    backend: Backend,
    mac: Poly1305Backend,
    key: &[u8; 32],
    nonce: &[u8],
    aad: &[u8],
    plaintext: &[u8],
    expected: &(Vec<u8>, [u8; 16]),
) {
    let aead = AnyAead::new(kind, key)
        .with_backend(backend)
        .and_then(|a| a.with_mac_backend(mac))
        .unwrap();
    let what = || {
        format!(
            "{} on {}/{}, {} bytes, {} bytes of AAD",
            kind.name(),
            backend.name(),
            mac.name(),
            plaintext.len(),
            aad.len()
        )
    };
    let mut buf = plaintext.to_vec();
    let tag = aead
        .encrypt_in_place_detached(nonce, aad, &mut buf)
        .unwrap();
    assert!(buf == expected.0, "ciphertext differs: {}", what());
    assert_eq!(tag, expected.1, "tag differs: {}", what());
    aead.decrypt_in_place_detached(nonce, aad, &mut buf, &tag)
        .unwrap_or_else(|e| panic!("{e}: {}", what()));
    assert!(buf == plaintext, "did not decrypt: {}", what());
}

#[test]
fn every_length_and_aad_length_matches_rustcrypto_on_the_detected_backends() {
    for kind in AeadKind::ALL {
        for len in lengths() {
            let plaintext = bytes(len as u64, len);
            // The 64 KiB message with a spread of AAD lengths, the others with all.
            let step = if len > 2000 { 7 } else { 1 };
            for aad_len in (0..=40).step_by(step) {
                let seed = (len * 41 + aad_len) as u64;
                let key: [u8; 32] = bytes(seed ^ 0x1111, 32).try_into().unwrap();
                let nonce = bytes(seed ^ 0x2222, kind.nonce_len());
                let aad = bytes(seed ^ 0x3333, aad_len);
                let expected = reference(kind, &key, &nonce, &aad, &plaintext);
                seal_and_open(
                    kind,
                    Backend::detect(),
                    Poly1305Backend::detect(),
                    &key,
                    &nonce,
                    &aad,
                    &plaintext,
                    &expected,
                );
            }
        }
    }
}

#[test]
fn every_length_matches_rustcrypto_on_every_backend_pair() {
    for kind in AeadKind::ALL {
        for len in lengths() {
            let plaintext = bytes(len as u64 ^ 0x77, len);
            for aad_len in [0, 13, 16] {
                let seed = (len * 7 + aad_len) as u64;
                let key: [u8; 32] = bytes(seed ^ 0x4444, 32).try_into().unwrap();
                let nonce = bytes(seed ^ 0x5555, kind.nonce_len());
                let aad = bytes(seed ^ 0x6666, aad_len);
                let expected = reference(kind, &key, &nonce, &aad, &plaintext);
                for backend in Backend::available() {
                    for mac in Poly1305Backend::available() {
                        seal_and_open(
                            kind, backend, mac, &key, &nonce, &aad, &plaintext, &expected,
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn long_block_counts_match_rustcrypto_on_every_backend() {
    // Past the fused key batch (27 message blocks on AVX-512), every block count that
    // leaves the bulk plans a different split, whole and one byte short.
    let kind = AeadKind::ChaCha20Poly1305;
    for blocks in 27..=140usize {
        for len in [64 * blocks - 1, 64 * blocks] {
            let plaintext = bytes(len as u64 ^ 0x99, len);
            let key: [u8; 32] = bytes(len as u64 ^ 0x4444, 32).try_into().unwrap();
            let nonce = bytes(len as u64 ^ 0x5555, kind.nonce_len());
            let aad = bytes(len as u64 ^ 0x6666, 13);
            let expected = reference(kind, &key, &nonce, &aad, &plaintext);
            for backend in Backend::available() {
                let mac = Poly1305Backend::detect();
                seal_and_open(
                    kind, backend, mac, &key, &nonce, &aad, &plaintext, &expected,
                );
            }
        }
    }
}

/// A small deterministic generator for cut points.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn incremental_poly1305_in_random_pieces_matches_rustcrypto() {
    use poly1305::universal_hash::KeyInit as _;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for mac in Poly1305Backend::available() {
        for len in lengths() {
            let key: [u8; 32] = bytes(len as u64 ^ 0xABCD, 32).try_into().unwrap();
            let message = bytes(len as u64 ^ 0x1234, len);
            let expected = poly1305::Poly1305::new((&key).into()).compute_unpadded(&message);
            assert_eq!(
                ragged_chacha::poly1305(&key, &message),
                expected.as_slice(),
                "one-shot, {len} bytes"
            );
            // Three random splittings per length: pieces of 0..=40 bytes (empty
            // pieces included), or of 0..=200 for the longer messages.
            for round in 0..3 {
                let max_piece = if len > 1100 {
                    4096
                } else if round == 0 {
                    40
                } else {
                    200
                };
                let mut state = Poly1305::new(&key).with_backend(mac).unwrap();
                let mut rest = &message[..];
                while !rest.is_empty() {
                    let (piece, tail) = rest.split_at(rng.below(max_piece + 1).min(rest.len()));
                    state.update(piece);
                    rest = tail;
                }
                assert_eq!(
                    state.finalize(),
                    expected.as_slice(),
                    "{} bytes in random pieces (round {round}) on {}",
                    len,
                    mac.name()
                );
            }
        }
    }
}

#[test]
fn update_padded_matches_rustcrypto_update_padded() {
    use poly1305::universal_hash::{KeyInit as _, UniversalHash};
    for a in 0..=40 {
        for b in [0, 1, 15, 16, 17, 100] {
            let key: [u8; 32] = bytes((a * 101 + b) as u64, 32).try_into().unwrap();
            let (x, y) = (bytes(a as u64, a), bytes(b as u64 + 999, b));
            let mut theirs = poly1305::Poly1305::new((&key).into());
            theirs.update_padded(&x);
            theirs.update_padded(&y);
            let mut ours = Poly1305::new(&key);
            ours.update_padded(&x);
            ours.update_padded(&y);
            assert_eq!(
                ours.finalize(),
                theirs.finalize().as_slice(),
                "{a} + {b} bytes"
            );
        }
    }
}
