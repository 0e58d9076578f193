//! The Poly1305, one-time-key and AEAD known answers of `ragged_chacha::kat::aead` on
//! every backend pair this CPU has; every vector also checked against RustCrypto's
//! `poly1305`, `chacha20` and `chacha20poly1305`, so a transcription slip shows up as a
//! disagreement with an independent implementation; and proof that the checkers
//! reject a corrupted vector.

use chacha20::cipher::{KeyIvInit, StreamCipher};
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use ragged_chacha::kat::aead::{
    self, AEAD_VECTORS, AeadVector, ONE_TIME_KEY_VECTORS, POLY1305_VECTORS, Poly1305Vector,
};
use ragged_chacha::kat::{Mode, Problem};
use ragged_chacha::{AeadKind, Backend, Poly1305Backend};

fn assert_no_failures(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_poly1305_vector_on_every_available_backend() {
    let mut failures = Vec::new();
    for mac in Poly1305Backend::available() {
        for v in POLY1305_VECTORS {
            if let Err(f) = aead::check_poly1305(v, mac) {
                failures.push(format!("{}: {f}", mac.name()));
            }
        }
    }
    assert_no_failures("Poly1305 known answers", &failures);
}

#[test]
fn every_one_time_key_and_aead_vector_on_every_backend_pair() {
    let mut failures = Vec::new();
    for backend in Backend::available() {
        for v in ONE_TIME_KEY_VECTORS {
            if let Err(f) = aead::check_one_time_key(v, backend) {
                failures.push(f.to_string());
            }
        }
        for mac in Poly1305Backend::available() {
            for v in AEAD_VECTORS {
                if let Err(f) = aead::check_aead(v, backend, mac) {
                    failures.push(format!("mac {}: {f}", mac.name()));
                }
            }
        }
    }
    assert_no_failures("AEAD known answers", &failures);
}

#[test]
fn check_all_counts_every_vector() {
    let total = POLY1305_VECTORS.len() + ONE_TIME_KEY_VECTORS.len() + AEAD_VECTORS.len();
    for backend in Backend::available() {
        for mac in Poly1305Backend::available() {
            assert_eq!(aead::check_all(backend, mac), Ok(total));
        }
    }
}

#[test]
fn the_documents_vectors_are_all_there() {
    // §2.5.2 and A.3 #1-#11; §2.6.2, A.4 #1-#3 and the two walk-through keys;
    // §2.8.2, A.5 and the XChaCha draft's A.3.1.
    assert_eq!(POLY1305_VECTORS.len(), 12);
    assert_eq!(ONE_TIME_KEY_VECTORS.len(), 6);
    assert_eq!(AEAD_VECTORS.len(), 3);
}

#[test]
fn every_poly1305_vector_agrees_with_rustcrypto() {
    for v in POLY1305_VECTORS {
        let theirs = poly1305::Poly1305::new((&v.key).into()).compute_unpadded(v.message);
        assert_eq!(theirs.as_slice(), &v.tag, "{}", v.source);
    }
}

#[test]
fn every_one_time_key_vector_agrees_with_rustcrypto() {
    for v in ONE_TIME_KEY_VECTORS {
        let mut block = [0u8; 32];
        chacha20::ChaCha20::new((&v.key).into(), (&v.nonce).into()).apply_keystream(&mut block);
        assert_eq!(block, v.one_time_key, "{}", v.source);
    }
}

/// RustCrypto's ciphertext and tag for `v`.
fn rustcrypto_seal(v: &AeadVector) -> (Vec<u8>, [u8; 16]) {
    let mut buf = v.plaintext.to_vec();
    let tag = match v.kind {
        AeadKind::ChaCha20Poly1305 => chacha20poly1305::ChaCha20Poly1305::new((&v.key).into())
            .encrypt_inout_detached(
                v.nonce.try_into().unwrap(),
                v.aad,
                buf.as_mut_slice().into(),
            ),
        AeadKind::XChaCha20Poly1305 => chacha20poly1305::XChaCha20Poly1305::new((&v.key).into())
            .encrypt_inout_detached(
                v.nonce.try_into().unwrap(),
                v.aad,
                buf.as_mut_slice().into(),
            ),
        other => panic!("no reference for {other:?}"),
    }
    .unwrap();
    (buf, tag.into())
}

#[test]
fn every_aead_vector_agrees_with_rustcrypto() {
    for v in AEAD_VECTORS {
        let (ciphertext, tag) = rustcrypto_seal(v);
        assert_eq!(ciphertext, v.ciphertext, "{}", v.source);
        assert_eq!(tag, v.tag, "{}", v.source);
    }
}

#[test]
fn a_corrupted_poly1305_vector_is_reported() {
    let mut v: Poly1305Vector = POLY1305_VECTORS[0];
    v.tag[3] ^= 0x10;
    let failure = aead::check_poly1305(&v, Poly1305Backend::Portable).unwrap_err();
    assert_eq!(failure.mode, Mode::InPlace);
    assert!(matches!(
        failure.problem,
        Problem::Mismatch { index: 3, .. }
    ));
}

#[test]
fn a_corrupted_aead_vector_is_reported() {
    let mut v = AEAD_VECTORS[0];
    v.tag = [0; 16];
    let failure = aead::check_aead(&v, Backend::Portable, Poly1305Backend::Portable).unwrap_err();
    assert_eq!(failure.mode, Mode::Seal);
    assert!(matches!(failure.problem, Problem::Mismatch { .. }));
}
