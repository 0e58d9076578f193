//! Every backend the CPU has against the portable backend and against RustCrypto's
//! `chacha20`, over every length 0..=1100 and the ragged large ones, in place and out of
//! place, at source and destination offsets 0..16.

mod common;

use common::{bytes, key_nonce, legacy_input, lengths, reference};
use ragged_chacha::variant::Legacy;
use ragged_chacha::{AnyCipher, Backend, ChaCha, CipherKind};

/// Encrypts `data` (at keystream byte 0) with `backend`, out of place, the input at
/// `src_off` and the output at `dst_off` within larger buffers whose guard bytes must
/// stay untouched.
fn out_of_place(
    kind: CipherKind,
    backend: Backend,
    key: &[u8; 32],
    nonce: &[u8],
    data: &[u8],
    src_off: usize,
    dst_off: usize,
) -> Vec<u8> {
    let mut src = vec![0xEE; data.len() + 32];
    src[src_off..src_off + data.len()].copy_from_slice(data);
    let mut dst = vec![0x5A; data.len() + 32];
    let mut c = AnyCipher::new(kind, key, nonce, 0)
        .unwrap()
        .with_backend(backend)
        .unwrap();
    c.try_apply_keystream_b2b(
        &src[src_off..src_off + data.len()],
        &mut dst[dst_off..dst_off + data.len()],
    )
    .unwrap();
    assert!(
        dst[..dst_off].iter().all(|&b| b == 0x5A),
        "{backend:?} wrote before the output"
    );
    assert!(
        dst[dst_off + data.len()..].iter().all(|&b| b == 0x5A),
        "{backend:?} wrote past the output"
    );
    dst[dst_off..dst_off + data.len()].to_vec()
}

/// Encrypts `data` in place at offset `off` of a guarded buffer.
fn in_place(
    kind: CipherKind,
    backend: Backend,
    key: &[u8; 32],
    nonce: &[u8],
    data: &[u8],
    off: usize,
) -> Vec<u8> {
    let mut buf = vec![0xC3; data.len() + 32];
    buf[off..off + data.len()].copy_from_slice(data);
    let mut c = AnyCipher::new(kind, key, nonce, 0)
        .unwrap()
        .with_backend(backend)
        .unwrap();
    c.try_apply_keystream(&mut buf[off..off + data.len()])
        .unwrap();
    assert!(
        buf[..off].iter().all(|&b| b == 0xC3),
        "{backend:?} wrote before the buffer"
    );
    assert!(
        buf[off + data.len()..].iter().all(|&b| b == 0xC3),
        "{backend:?} wrote past the buffer"
    );
    buf[off..off + data.len()].to_vec()
}

#[test]
fn every_backend_every_length_and_offset_chacha20() {
    let kind = CipherKind::ChaCha20;
    let (key, nonce) = key_nonce(kind, 1);
    for len in lengths() {
        let data = bytes(len as u64, len);
        let expected = reference(kind, &key, &nonce, 0, &data);
        let offsets: &[usize] = if len > 4096 {
            &[0, 1, 7]
        } else {
            &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
        };
        for backend in Backend::available() {
            for &off in offsets {
                // The destination offset varies independently of the source one.
                let dst_off = (off * 7 + 3) % 16;
                assert_eq!(
                    out_of_place(kind, backend, &key, &nonce, &data, off, dst_off),
                    expected,
                    "{backend:?} len {len} src offset {off} dst offset {dst_off}"
                );
                assert_eq!(
                    in_place(kind, backend, &key, &nonce, &data, off),
                    expected,
                    "{backend:?} in place len {len} offset {off}"
                );
            }
        }
    }
}

#[test]
fn every_backend_every_cipher_against_portable_and_rustcrypto() {
    for kind in CipherKind::ALL {
        let (key, nonce) = key_nonce(kind, 7);
        for len in lengths() {
            let data = bytes(len as u64 ^ 0x77, len);
            let expected = reference(kind, &key, &nonce, 0, &data);
            assert_eq!(
                in_place(kind, Backend::Portable, &key, &nonce, &data, 0),
                expected,
                "portable {kind:?} len {len}"
            );
            for backend in Backend::available() {
                assert_eq!(
                    out_of_place(kind, backend, &key, &nonce, &data, 0, 0),
                    expected,
                    "{backend:?} {kind:?} len {len}"
                );
            }
        }
    }
}

/// Every block count from 32 to 130, each as a whole number of blocks and one byte
/// less and more: the long messages whose batches a plan spreads over its batch
/// shapes (the wide bulk runs pair batches of 32 blocks while more than 28 are left,
/// the nine-block batches come in runs of 16, so each count ends its message in a
/// different shape).
fn long_lengths() -> impl Iterator<Item = usize> {
    (32..=130).flat_map(|blocks: usize| [64 * blocks - 1, 64 * blocks, 64 * blocks + 1])
}

#[test]
fn every_backend_every_long_block_count() {
    let kind = CipherKind::ChaCha20;
    let (key, nonce) = key_nonce(kind, 5);
    for len in long_lengths() {
        let data = bytes(len as u64 ^ 0x55, len);
        let expected = reference(kind, &key, &nonce, 0, &data);
        for backend in Backend::available() {
            assert_eq!(
                out_of_place(kind, backend, &key, &nonce, &data, 3, 0),
                expected,
                "{backend:?} len {len}"
            );
            assert_eq!(
                in_place(kind, backend, &key, &nonce, &data, 1),
                expected,
                "{backend:?} in place len {len}"
            );
        }
    }
}

#[test]
fn every_backend_every_start_block_within_a_batch() {
    // Start counters that put the 32-bit boundary of the 64-bit variants inside a
    // batch at every lane, and plain ones.
    let kind = CipherKind::ChaCha20Legacy;
    let (key, nonce) = key_nonce(kind, 3);
    let data = bytes(3, 64 * 40 + 17);
    for start in (0u64..20).chain((0..20).map(|i| (1u64 << 32) - i)) {
        let expected = reference(kind, &key, &nonce, start * 64, &data);
        for backend in Backend::available() {
            let mut c = AnyCipher::new(kind, &key, &nonce, start)
                .unwrap()
                .with_backend(backend)
                .unwrap();
            let mut out = data.clone();
            c.try_apply_keystream(&mut out).unwrap();
            assert_eq!(out, expected, "{backend:?} start block {start:#x}");
        }
    }
}

#[test]
fn every_backend_with_no_double_round() {
    // A 0-round variant: each keystream block is its input words doubled (the
    // feed-forward adds them to themselves).
    let key: [u8; 32] = core::array::from_fn(|i| (i * 7 + 1) as u8);
    let nonce: [u8; 8] = core::array::from_fn(|i| (i * 13 + 5) as u8);
    for len in lengths() {
        let data = bytes(len as u64 ^ 0x0f, len);
        let mut expected = data.clone();
        for (block, chunk) in expected.chunks_mut(64).enumerate() {
            let words = legacy_input(&key, &nonce, block as u64);
            for (i, byte) in chunk.iter_mut().enumerate() {
                *byte ^= (words[i / 4].wrapping_mul(2) >> (8 * (i % 4))) as u8;
            }
        }
        for backend in Backend::available() {
            let mut zero = data.clone();
            ChaCha::<Legacy<0>>::new(&key, &nonce)
                .with_backend(backend)
                .unwrap()
                .apply_keystream(&mut zero);
            assert_eq!(zero, expected, "{backend:?} 0 rounds len {len}");
        }
    }
}

#[test]
fn every_backend_is_checked() {
    // Guards the tests above against silently running on nothing but portable.
    let available: Vec<_> = Backend::available().collect();
    assert!(available.contains(&Backend::Portable));
    #[cfg(target_arch = "x86_64")]
    assert!(available.contains(&Backend::Sse2));
    // NEON is baseline on aarch64 Linux (and QEMU reports it): a missing Neon means
    // detection is broken.
    #[cfg(all(target_arch = "aarch64", target_endian = "little"))]
    assert!(available.contains(&Backend::Neon));
    // On 32-bit Arm the tests run where AT_HWCAP reports NEON (QEMU's default CPU
    // does): a missing Neon means the hwcap check is broken.
    #[cfg(all(
        target_arch = "arm",
        target_endian = "little",
        target_os = "linux",
        feature = "std"
    ))]
    assert!(available.contains(&Backend::Neon));
    for b in Backend::all() {
        assert_eq!(Backend::from_name(b.name()), Some(*b));
    }
    assert!(available.contains(&Backend::detect()));
}
