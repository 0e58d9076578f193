//! Known-answer tests: every vector in `ragged_chacha::kat` on every backend this CPU
//! has, every vector checked against RustCrypto's `chacha20` (so a transcription slip
//! shows up as a disagreement with an independent implementation), and proof that the
//! checker rejects a corrupted vector.

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use ragged_chacha::kat::{
    self, HCHACHA_VECTORS, HChaChaVector, KatFailure, MAX_LEN, Mode, Problem, STREAM_VECTORS,
    StreamVector,
};
use ragged_chacha::{Backend, CipherKind};

/// Panics listing every failure, so one run shows the whole picture.
fn assert_no_failures(what: &str, failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{what}: {} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_stream_vector_on_every_available_backend() {
    let backends: Vec<Backend> = Backend::available().collect();
    assert!(backends.contains(&Backend::Portable));
    let mut failures = Vec::new();
    for &backend in &backends {
        for v in STREAM_VECTORS {
            if let Err(f) = kat::check_stream(v, backend) {
                failures.push(f.to_string());
            }
        }
    }
    assert_no_failures("stream known answers", &failures);
}

#[test]
fn every_hchacha_vector() {
    let failures: Vec<String> = HCHACHA_VECTORS
        .iter()
        .filter_map(|v| kat::check_hchacha(v).err())
        .map(|f| f.to_string())
        .collect();
    assert_no_failures("HChaCha known answers", &failures);
}

#[test]
fn check_all_counts_every_vector() {
    for backend in Backend::available() {
        assert_eq!(
            kat::check_all(backend),
            Ok(STREAM_VECTORS.len() + HCHACHA_VECTORS.len()),
            "{}",
            backend.name()
        );
    }
}

/// RustCrypto's answer for `v`: its plaintext XORed with the keystream from block
/// `v.counter`.
fn rustcrypto(v: &StreamVector<'_>) -> Vec<u8> {
    fn run<C: KeyIvInit + StreamCipher + StreamCipherSeek>(v: &StreamVector<'_>) -> Vec<u8> {
        let mut cipher = C::new_from_slices(&v.key, v.nonce)
            .unwrap_or_else(|_| panic!("{}: bad key or nonce length", v.source));
        cipher.seek(v.counter * 64);
        let mut buf = v.plaintext.to_vec();
        cipher.apply_keystream(&mut buf);
        buf
    }
    match v.kind {
        CipherKind::ChaCha20 => run::<chacha20::ChaCha20>(v),
        CipherKind::ChaCha12 => run::<chacha20::ChaCha12>(v),
        CipherKind::ChaCha8 => run::<chacha20::ChaCha8>(v),
        CipherKind::ChaCha20Legacy => run::<chacha20::ChaCha20Legacy>(v),
        CipherKind::XChaCha20 => run::<chacha20::XChaCha20>(v),
        CipherKind::XChaCha12 => run::<chacha20::XChaCha12>(v),
        other => panic!("{}: no RustCrypto counterpart for {other:?}", v.source),
    }
}

#[test]
fn every_stream_vector_agrees_with_rustcrypto() {
    let mut failures = Vec::new();
    for v in STREAM_VECTORS {
        let theirs = rustcrypto(v);
        if let Some(i) = theirs.iter().zip(v.ciphertext).position(|(a, b)| a != b) {
            failures.push(format!(
                "{}: RustCrypto differs from the vector first at offset {i}: vector {:#04x}, RustCrypto {:#04x}",
                v.source, v.ciphertext[i], theirs[i]
            ));
        } else if theirs.len() != v.ciphertext.len() {
            failures.push(format!("{}: length differs", v.source));
        }
    }
    assert_no_failures("cross-check against RustCrypto", &failures);
}

#[test]
fn every_hchacha_vector_agrees_with_rustcrypto() {
    for v in HCHACHA_VECTORS {
        let key = v.key.into();
        let input = v.input.into();
        let theirs: [u8; 32] = match v.rounds {
            20 => chacha20::hchacha::<chacha20::R20>(&key, &input).into(),
            12 => chacha20::hchacha::<chacha20::R12>(&key, &input).into(),
            r => panic!("{}: unexpected round count {r}", v.source),
        };
        assert_eq!(theirs, v.output, "{}", v.source);
    }
}

/// The coverage the design asks for is there, and every vector is well formed.
#[test]
fn vector_coverage() {
    let count = |kind| STREAM_VECTORS.iter().filter(|v| v.kind == kind).count();
    for kind in CipherKind::ALL {
        assert!(count(kind) >= 1, "no vector for {kind:?}");
    }
    assert!(count(CipherKind::ChaCha8) >= 2);
    assert!(count(CipherKind::ChaCha12) >= 2);
    assert!(count(CipherKind::ChaCha20Legacy) >= 2);
    for v in STREAM_VECTORS {
        assert_eq!(v.nonce.len(), v.kind.nonce_len(), "{}", v.source);
        assert_eq!(v.plaintext.len(), v.ciphertext.len(), "{}", v.source);
        assert!(v.plaintext.len() <= MAX_LEN, "{}", v.source);
        assert!(!v.source.is_empty());
    }
    // Sources are unique, so a failure names exactly one vector.
    let mut sources: Vec<&str> = STREAM_VECTORS.iter().map(|v| v.source).collect();
    sources.extend(HCHACHA_VECTORS.iter().map(|v| v.source));
    let n = sources.len();
    sources.sort_unstable();
    sources.dedup();
    assert_eq!(sources.len(), n, "duplicate source names");
}

/// Offsets worth corrupting in a message of `len` bytes: both ends, and around the
/// first block boundary.
fn corruption_points(len: usize) -> Vec<usize> {
    let mut points: Vec<usize> = [0, 1, 63, 64, 65, len / 2, len - 1]
        .into_iter()
        .filter(|&i| i < len)
        .collect();
    points.sort_unstable();
    points.dedup();
    points
}

#[test]
fn a_corrupted_ciphertext_byte_is_found_exactly() {
    let backend = Backend::detect();
    for v in STREAM_VECTORS {
        for i in corruption_points(v.ciphertext.len()) {
            let mut bad = v.ciphertext.to_vec();
            bad[i] ^= 0x01;
            let corrupted = StreamVector {
                ciphertext: &bad,
                ..*v
            };
            let failure = kat::check_stream(&corrupted, backend)
                .expect_err("a corrupted vector must not pass");
            assert_eq!(
                failure,
                KatFailure {
                    source: v.source,
                    backend: Some(backend),
                    mode: Mode::InPlace,
                    problem: Problem::Mismatch {
                        index: i,
                        expected: bad[i],
                        actual: v.ciphertext[i],
                    },
                },
                "{}",
                v.source
            );
            let message = failure.to_string();
            assert!(message.contains(v.source), "{message}");
            assert!(message.contains(&format!("offset {i}")), "{message}");
        }
    }
}

#[test]
fn corrupted_inputs_are_detected() {
    let backend = Backend::detect();
    for v in STREAM_VECTORS {
        let mut key = v.key;
        key[31] ^= 0x80;
        let mut nonce = v.nonce.to_vec();
        *nonce.last_mut().unwrap() ^= 0x01;
        let mut plaintext = v.plaintext.to_vec();
        *plaintext.last_mut().unwrap() ^= 0x01;
        let variants = [
            StreamVector { key, ..*v },
            StreamVector {
                nonce: &nonce,
                ..*v
            },
            StreamVector {
                counter: v.counter + 1,
                ..*v
            },
            StreamVector {
                plaintext: &plaintext,
                ..*v
            },
        ];
        for bad in &variants {
            assert!(
                kat::check_stream(bad, backend).is_err(),
                "{}: a corrupted key, nonce, counter or plaintext passed",
                v.source
            );
        }
    }
}

#[test]
fn a_corrupted_hchacha_vector_is_detected() {
    for v in HCHACHA_VECTORS {
        for i in [0, 15, 16, 31] {
            let mut output = v.output;
            output[i] ^= 0x40;
            let failure = kat::check_hchacha(&HChaChaVector { output, ..*v })
                .expect_err("a corrupted vector must not pass");
            assert_eq!(failure.mode, Mode::Subkey);
            assert_eq!(
                failure.problem,
                Problem::Mismatch {
                    index: i,
                    expected: output[i],
                    actual: v.output[i],
                }
            );
        }
        let mut input = v.input;
        input[0] ^= 1;
        assert!(kat::check_hchacha(&HChaChaVector { input, ..*v }).is_err());
    }
}

#[test]
fn unusable_vectors_are_refused_not_passed() {
    let v = &STREAM_VECTORS[0];
    let short = StreamVector {
        ciphertext: &v.ciphertext[..v.ciphertext.len() - 1],
        ..*v
    };
    assert!(matches!(
        kat::check_stream(&short, Backend::Portable),
        Err(KatFailure {
            problem: Problem::BadVector(_),
            ..
        })
    ));
    let too_long = vec![0; MAX_LEN + 1];
    let long = StreamVector {
        plaintext: &too_long,
        ciphertext: &too_long,
        ..*v
    };
    assert!(matches!(
        kat::check_stream(&long, Backend::Portable),
        Err(KatFailure {
            problem: Problem::BadVector(_),
            ..
        })
    ));
    let wrong_nonce = StreamVector {
        nonce: &[0; 7],
        ..*v
    };
    assert!(matches!(
        kat::check_stream(&wrong_nonce, Backend::Portable),
        Err(KatFailure {
            problem: Problem::Refused(_),
            ..
        })
    ));
    let eight_rounds = HChaChaVector {
        rounds: 8,
        ..HCHACHA_VECTORS[0]
    };
    assert!(matches!(
        kat::check_hchacha(&eight_rounds),
        Err(KatFailure {
            problem: Problem::BadVector(_),
            ..
        })
    ));
}

#[test]
fn unavailable_backends_are_refused() {
    for &backend in Backend::all() {
        if !backend.is_available() {
            assert!(matches!(
                kat::check_stream(&STREAM_VECTORS[0], backend),
                Err(KatFailure {
                    problem: Problem::Refused(_),
                    ..
                })
            ));
        }
    }
}
