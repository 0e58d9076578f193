//! The stateful API: splitting, seeking, and the exact behaviour at the end of the
//! block counter, on every backend the CPU has.

mod common;

use common::{bytes, ietf_input, key_nonce, legacy_input, reference, reference_block};
use proptest::prelude::*;
use ragged_chacha::{AnyCipher, Backend, ChaCha20, ChaCha20Legacy, CipherKind, Error, XChaCha20};

fn cipher(kind: CipherKind, backend: Backend, seed: u64, counter: u64) -> AnyCipher {
    let (key, nonce) = key_nonce(kind, seed);
    AnyCipher::new(kind, &key, &nonce, counter)
        .unwrap()
        .with_backend(backend)
        .unwrap()
}

/// Applies the keystream to `data` in pieces cut at `cuts` (sorted positions).
fn split_apply(c: &mut AnyCipher, data: &[u8], cuts: &[usize]) -> Vec<u8> {
    let mut out = data.to_vec();
    let mut start = 0;
    for &cut in cuts.iter().chain(std::iter::once(&data.len())) {
        let cut = cut.clamp(start, data.len());
        c.try_apply_keystream(&mut out[start..cut]).unwrap();
        start = cut;
    }
    out
}

#[test]
fn pieces_of_exactly_64_bytes_advance_the_counter() {
    for backend in Backend::available() {
        let data = bytes(1, 64 * 5);
        let one_shot = split_apply(&mut cipher(CipherKind::ChaCha20, backend, 1, 0), &data, &[]);
        let cuts: Vec<usize> = (1..5).map(|i| 64 * i).collect();
        let pieces = split_apply(
            &mut cipher(CipherKind::ChaCha20, backend, 1, 0),
            &data,
            &cuts,
        );
        assert_eq!(pieces, one_shot, "{backend:?}");
    }
}

#[test]
fn fixed_split_patterns_match_one_shot() {
    let patterns: &[&[usize]] = &[
        &[1],
        &[63],
        &[65],
        &[1, 2, 3],
        &[63, 127, 191],
        &[64, 65, 129],
        &[10, 300, 301, 1000],
        &[0, 0, 5, 5],
        &[255, 256, 257, 1024, 1025],
    ];
    for kind in CipherKind::ALL {
        for backend in Backend::available() {
            let data = bytes(9, 1500);
            let (key, nonce) = key_nonce(kind, 2);
            let expected = reference(kind, &key, &nonce, 0, &data);
            for cuts in patterns {
                let got = split_apply(&mut cipher(kind, backend, 2, 0), &data, cuts);
                assert_eq!(got, expected, "{kind:?} {backend:?} cuts {cuts:?}");
            }
        }
    }
}

#[test]
fn seek_and_current_pos() {
    for backend in Backend::available() {
        let data = bytes(4, 3000);
        let (key, nonce) = key_nonce(CipherKind::XChaCha20, 4);
        let expected = reference(CipherKind::XChaCha20, &key, &nonce, 0, &data);
        for pos in [0usize, 1, 63, 64, 65, 700, 1024, 2999, 3000] {
            let mut c = XChaCha20::new(&key, nonce.as_slice().try_into().unwrap())
                .with_backend(backend)
                .unwrap();
            c.seek(pos as u128);
            assert_eq!(c.current_pos(), pos as u128);
            let mut tail = data[pos..].to_vec();
            c.apply_keystream(&mut tail);
            assert_eq!(tail, expected[pos..], "{backend:?} seek {pos}");
            assert_eq!(c.current_pos(), 3000);
        }
    }
}

#[test]
fn seeking_back_mid_block_recomputes_the_buffered_block() {
    let (key, nonce) = key_nonce(CipherKind::ChaCha20, 5);
    let data = bytes(5, 200);
    let expected = reference(CipherKind::ChaCha20, &key, &nonce, 0, &data);
    let mut c = ChaCha20::new(&key, nonce.as_slice().try_into().unwrap());
    let mut first = data.clone();
    c.apply_keystream(&mut first[..100]);
    assert_eq!(first[..100], expected[..100]);
    let mut again = data.clone();
    c.seek(30);
    c.apply_keystream(&mut again[30..50]);
    c.seek(150);
    c.apply_keystream(&mut again[150..170]);
    assert_eq!(again[30..50], expected[30..50]);
    assert_eq!(again[150..170], expected[150..170]);
}

#[test]
fn rfc8439_counter_end_every_backend() {
    for backend in Backend::available() {
        // Start at 0xfffffffe: two blocks remain.
        let mut c = cipher(CipherKind::ChaCha20, backend, 6, 0xffff_fffe);
        let mut buf = vec![0u8; 128];
        c.try_apply_keystream(&mut buf).unwrap();
        let (key, nonce) = key_nonce(CipherKind::ChaCha20, 6);
        // RustCrypto refuses the last block of the 32-bit counter, so the expected
        // keystream comes from the test's own RFC 8439 block function.
        let mut expected = reference_block(ietf_input(&key, &nonce, 0xffff_fffe), 20).to_vec();
        expected.extend(reference_block(ietf_input(&key, &nonce, 0xffff_ffff), 20));
        assert_eq!(buf, expected, "{backend:?}");
        assert_eq!(c.remaining(), 0);

        // The very last block is usable…
        let mut c = cipher(CipherKind::ChaCha20, backend, 6, 0xffff_ffff);
        let mut last = vec![0u8; 64];
        c.try_apply_keystream(&mut last).unwrap();
        assert_eq!(last, expected[64..]);
        // …and not one byte after it, with nothing written and the position kept.
        let mut more = [0xAAu8; 1];
        assert_eq!(
            c.try_apply_keystream(&mut more),
            Err(Error::KeystreamExhausted {
                requested: 1,
                remaining: 0
            })
        );
        assert_eq!(more, [0xAA]);

        // 65 bytes from the last block: refused whole, output untouched.
        let mut c = cipher(CipherKind::ChaCha20, backend, 6, 0xffff_ffff);
        let mut buf = [0x11u8; 65];
        assert!(matches!(
            c.try_apply_keystream(&mut buf),
            Err(Error::KeystreamExhausted { .. })
        ));
        assert_eq!(buf, [0x11; 65]);
        let mut out = [0x22u8; 65];
        assert!(matches!(
            c.try_apply_keystream_b2b(&[0u8; 65], &mut out),
            Err(Error::KeystreamExhausted { .. })
        ));
        assert_eq!(out, [0x22; 65]);
        assert_eq!(c.current_pos(), 0xffff_ffff * 64);

        // Mid-block near the end: the remaining 64 - 10 bytes, then nothing.
        let mut c = cipher(CipherKind::ChaCha20, backend, 6, 0xffff_ffff);
        let mut head = [0u8; 10];
        c.try_apply_keystream(&mut head).unwrap();
        let mut rest = [0u8; 55];
        assert!(c.try_apply_keystream(&mut rest).is_err());
        assert_eq!(rest, [0; 55]);
        c.try_apply_keystream(&mut rest[..54]).unwrap();
        assert_eq!(rest[..54], expected[64 + 10..]);
    }
}

#[test]
#[should_panic(expected = "keystream exhausted")]
fn non_try_form_panics_at_the_end() {
    let mut c = ChaCha20::with_counter(&[0; 32], &[0; 12], 0xffff_ffff);
    c.apply_keystream(&mut [0u8; 65]);
}

#[test]
fn seek_past_the_end_is_refused() {
    let mut c = ChaCha20::new(&[0; 32], &[0; 12]);
    assert!(c.try_seek(1u128 << 38).is_ok());
    assert_eq!(c.remaining(), 0);
    assert!(matches!(
        c.try_seek((1u128 << 38) + 1),
        Err(Error::SeekOutOfRange { .. })
    ));
    let mut x = ChaCha20Legacy::new(&[0; 32], &[0; 8]);
    assert!(x.try_seek(1u128 << 70).is_ok());
    assert!(x.try_seek((1u128 << 70) + 1).is_err());
}

#[test]
fn length_mismatch_is_an_error_and_writes_nothing() {
    let mut c = ChaCha20::new(&[1; 32], &[2; 12]);
    let mut out = [7u8; 10];
    assert_eq!(
        c.apply_keystream_b2b(&[0u8; 11], &mut out),
        Err(Error::LengthMismatch {
            input: 11,
            output: 10
        })
    );
    assert_eq!(out, [7; 10]);
    assert_eq!(c.current_pos(), 0);
}

/// Batches of every shape across the carry from word 12 into word 13: long messages
/// (wide batches, then a remainder; 34 blocks are two nine-block batches with 16 lanes,
/// 71 several plain ones, whose loop carries its counter rows from batch to batch), and
/// the row-form sizes, whose blocks after two sets may be a scalar block beside them (5
/// blocks with AVX2, 3 with SSE2/SSSE3), each started so that the carry falls on every
/// block of the message in turn.
#[test]
fn legacy_counter_carries_into_the_high_word() {
    for backend in Backend::available() {
        for len in [
            64 * 71 + 5,
            64 * 34,
            64 * 33 + 5,
            64 * 5,
            64 * 4 + 1,
            64 * 3,
            64 * 2 + 7,
        ] {
            let blocks = (len as u64).div_ceil(64);
            let starts = (1..=blocks).map(|k| (1 << 32) - k).chain([0x1_ffff_fffe]);
            for start in starts.chain([0xffff_fff0]) {
                let (key, nonce) = key_nonce(CipherKind::ChaCha20Legacy, 8);
                let data = bytes(8, len);
                let expected =
                    reference(CipherKind::ChaCha20Legacy, &key, &nonce, start * 64, &data);
                let mut c = cipher(CipherKind::ChaCha20Legacy, backend, 8, start);
                let mut buf = data.clone();
                c.try_apply_keystream(&mut buf).unwrap();
                assert_eq!(buf, expected, "{backend:?} {len} bytes from {start:#x}");
            }
        }
    }
}

#[test]
fn legacy_last_block_before_2_pow_64() {
    let key = [0x33; 32];
    let nonce = [0x44; 8];
    let last = reference_block(legacy_input(&key, &nonce, u64::MAX), 20);
    let before = reference_block(legacy_input(&key, &nonce, u64::MAX - 1), 20);
    for backend in Backend::available() {
        let mut c = ChaCha20Legacy::with_counter(&key, &nonce, u64::MAX - 1)
            .with_backend(backend)
            .unwrap();
        let mut buf = [0u8; 128];
        c.try_apply_keystream(&mut buf).unwrap();
        assert_eq!(buf[..64], before, "{backend:?}");
        assert_eq!(buf[64..], last, "{backend:?}");
        let mut one = [0x5u8; 1];
        assert!(c.try_apply_keystream(&mut one).is_err());
        assert_eq!(one, [0x5]);

        // A partial final block at the very end (the batch lanes past it wrap).
        let mut c = ChaCha20Legacy::with_counter(&key, &nonce, u64::MAX)
            .with_backend(backend)
            .unwrap();
        let mut part = [0u8; 33];
        c.try_apply_keystream(&mut part).unwrap();
        assert_eq!(part, last[..33], "{backend:?}");
        let mut too_many = [0u8; 32];
        assert!(c.try_apply_keystream(&mut too_many).is_err());
        c.try_apply_keystream(&mut too_many[..31]).unwrap();
        assert_eq!(too_many[..31], last[33..]);
    }
}

#[test]
fn wrong_nonce_length_is_an_error() {
    assert_eq!(
        AnyCipher::new(CipherKind::XChaCha20, &[0; 32], &[0; 12], 0).err(),
        Some(Error::NonceLength {
            expected: 24,
            actual: 12
        })
    );
    assert!(AnyCipher::new(CipherKind::ChaCha20, &[0; 32], &[0; 12], 1 << 32).is_ok());
    assert!(AnyCipher::new(CipherKind::ChaCha20, &[0; 32], &[0; 12], (1 << 32) + 1).is_err());
}

/// The by-name constructor is the one a CLI feeds with user input: every wrong nonce
/// length and every counter past the end must come back as an error naming the
/// numbers, for every kind, never as a panic.
#[test]
fn by_name_construction_refuses_every_bad_nonce_and_counter() {
    let nonce = [0x5a; 40];
    for kind in CipherKind::ALL {
        for len in (0..=nonce.len()).filter(|&len| len != kind.nonce_len()) {
            assert_eq!(
                AnyCipher::new(kind, &[1; 32], &nonce[..len], 0).err(),
                Some(Error::NonceLength {
                    expected: kind.nonce_len(),
                    actual: len
                }),
                "{kind:?} with a {len}-byte nonce"
            );
        }
        let good = &nonce[..kind.nonce_len()];
        let result = AnyCipher::new(kind, &[1; 32], good, u64::MAX);
        if kind.wide_counter() {
            assert_eq!(result.unwrap().remaining(), 64, "{kind:?}");
        } else {
            assert_eq!(
                result.err(),
                Some(Error::SeekOutOfRange {
                    position: u128::from(u64::MAX) * 64,
                    end: 1 << 38
                }),
                "{kind:?}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_splits_match_one_shot(
        kind_index in 0usize..6,
        len in 0usize..2500,
        mut cuts in proptest::collection::vec(0usize..2500, 0..8),
        seed in any::<u64>(),
    ) {
        let kind = CipherKind::ALL[kind_index];
        cuts.sort_unstable();
        let data = bytes(seed, len);
        let (key, nonce) = key_nonce(kind, seed);
        let expected = reference(kind, &key, &nonce, 0, &data);
        for backend in Backend::available() {
            let got = split_apply(&mut cipher(kind, backend, seed, 0), &data, &cuts);
            prop_assert_eq!(&got, &expected, "{:?} {:?}", backend, cuts);
        }
    }

    #[test]
    fn random_seeks_match_the_one_shot_keystream(pos in 0usize..4000, len in 0usize..600, seed in any::<u64>()) {
        let (key, nonce) = key_nonce(CipherKind::ChaCha20, seed);
        let zeros = vec![0u8; 4600];
        let expected = reference(CipherKind::ChaCha20, &key, &nonce, 0, &zeros);
        for backend in Backend::available() {
            let mut c = cipher(CipherKind::ChaCha20, backend, seed, 0);
            c.try_seek(pos as u128).unwrap();
            let mut buf = vec![0u8; len];
            c.try_apply_keystream(&mut buf).unwrap();
            prop_assert_eq!(&buf[..], &expected[pos..pos + len]);
        }
    }
}
