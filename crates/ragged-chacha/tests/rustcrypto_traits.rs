//! The RustCrypto trait impls (feature `rustcrypto-traits`): one generic function per
//! job, written against `cipher` 0.5 / `aead` 0.6 only, run over RustCrypto's
//! `chacha20` / `chacha20poly1305` types and over ragged's; the bytes must agree.
#![cfg(feature = "rustcrypto-traits")]

use aead::{AeadCore, AeadInOut, KeyInit, Nonce, Tag};
use cipher::typenum::Unsigned;
use cipher::{InOutBuf, KeyIvInit, StreamCipher, StreamCipherSeek};

/// The message lengths every comparison runs over.
const LENS: [usize; 7] = [0, 1, 63, 64, 65, 1420, 4097];

/// `len` deterministic, non-repeating-looking bytes.
fn bytes(seed: u8, len: usize) -> Vec<u8> {
    (0..len)
        .map(|i| (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[1] ^ seed)
        .collect()
}

/// Everything a stream cipher's traits can say about one key and IV, as bytes:
/// one-shot in place, out of place, the keystream itself, the same message split at
/// awkward points, and keystream after seeks (both up and down, mid-block and on
/// block boundaries), with the positions reported along the way.
fn keystream<C: KeyIvInit + StreamCipher + StreamCipherSeek>(key: &[u8], iv: &[u8]) -> Vec<u8> {
    let new = || C::new_from_slices(key, iv).expect("key and IV lengths");
    let mut out = Vec::new();
    for len in LENS {
        let msg = bytes(len as u8, len);

        let mut in_place = msg.clone();
        let mut c = new();
        c.apply_keystream(&mut in_place);
        assert_eq!(c.current_pos::<u64>(), len as u64);

        let mut b2b = vec![0xAA; len];
        new().apply_keystream_b2b(&msg, &mut b2b);
        assert_eq!(b2b, in_place, "out of place, length {len}");

        let mut ks = vec![0x55; len];
        new().write_keystream(&mut ks);
        let xored: Vec<u8> = msg.iter().zip(&ks).map(|(m, k)| m ^ k).collect();
        assert_eq!(xored, in_place, "keystream, length {len}");

        let mut split = msg.clone();
        let mut c = new();
        let mut at = 0;
        for step in [1, 62, 2, 64, 129, 7].iter().cycle() {
            let end = (at + step).min(len);
            let mut inout = InOutBuf::from(&mut split[at..end]);
            c.try_apply_keystream_inout(inout.reborrow()).unwrap();
            at = end;
            if at == len {
                break;
            }
        }
        assert_eq!(split, in_place, "split, length {len}");

        out.extend_from_slice(&in_place);
        out.extend_from_slice(&ks);
    }

    let mut c = new();
    for pos in [4097u64, 0, 1, 63, 64, 65, 1419, 128, 1 << 20, (1 << 32) - 3] {
        c.seek(pos);
        assert_eq!(c.current_pos::<u64>(), pos);
        assert_eq!(c.current_pos::<u128>(), u128::from(pos));
        let mut block = [0u8; 100];
        c.apply_keystream(&mut block);
        assert_eq!(c.current_pos::<u64>(), pos + 100);
        out.extend_from_slice(&block);
    }
    c.seek(70u32);
    assert_eq!(c.current_pos::<u32>(), 70);
    assert_eq!(c.current_pos::<usize>(), 70);
    assert_eq!(c.current_pos::<i32>(), 70);
    out
}

/// Keystream after a seek past 2^32 blocks, and a position a `u32` cannot hold.
///
/// Only for `ChaCha20Legacy`: the one cipher whose counter is 64 bits in both crates
/// (RustCrypto's XChaCha keeps the RFC 8439 32-bit counter, ragged's carries into the
/// zero word 13 — the same keystream for the first 2^32 blocks).
fn far_keystream<C: KeyIvInit + StreamCipher + StreamCipherSeek>(key: &[u8], iv: &[u8]) -> Vec<u8> {
    let mut c = C::new_from_slices(key, iv).unwrap();
    let mut out = Vec::new();
    for pos in [
        (1u128 << 32) * 64 - 30,
        (1u128 << 32) * 64 + 1,
        (1u128 << 40) * 64 + 63,
        (1u128 << 64) * 64 - 64 * 3 - 5,
    ] {
        c.seek(pos);
        assert_eq!(c.current_pos::<u128>(), pos);
        assert!(c.try_current_pos::<u32>().is_err());
        let mut buf = vec![0u8; 130];
        c.apply_keystream(&mut buf);
        out.extend_from_slice(&buf);
    }
    out
}

/// The end of a 32-bit counter's keystream: a request that would run past it is
/// refused, with the buffer and the position untouched.
fn refused_at_end<C: KeyIvInit + StreamCipher + StreamCipherSeek>(key: &[u8], iv: &[u8]) {
    let mut c = C::new_from_slices(key, iv).unwrap();
    let pos = (1u64 << 32) * 64 - 64 - 10;
    c.seek(pos);
    let mut buf = [0x77u8; 100];
    assert!(c.try_apply_keystream(&mut buf).is_err());
    assert_eq!(buf, [0x77; 100], "nothing written");
    let mut out = [0x66u8; 100];
    assert!(c.try_apply_keystream_b2b(&buf, &mut out).is_err());
    assert_eq!(out, [0x66; 100], "nothing written out of place");
    assert!(c.try_write_keystream(&mut out).is_err());
    assert_eq!(out, [0x66; 100], "no keystream written");
    assert_eq!(c.current_pos::<u64>(), pos);
    // Ten bytes before the last block are there to use.
    let mut ten = [0u8; 10];
    c.apply_keystream(&mut ten);
    assert_eq!(c.current_pos::<u64>(), pos + 10);
}

fn same_stream<A, B>(key_len: usize, iv_len: usize)
where
    A: KeyIvInit + StreamCipher + StreamCipherSeek,
    B: KeyIvInit + StreamCipher + StreamCipherSeek,
{
    for seed in [0u8, 0x5a] {
        let key = bytes(seed ^ 1, key_len);
        let iv = bytes(seed ^ 2, iv_len);
        assert_eq!(
            keystream::<A>(&key, &iv),
            keystream::<B>(&key, &iv),
            "seed {seed}"
        );
    }
}

#[test]
fn stream_ciphers_match_rustcrypto() {
    same_stream::<chacha20::ChaCha20, ragged_chacha::ChaCha20>(32, 12);
    same_stream::<chacha20::ChaCha12, ragged_chacha::ChaCha12>(32, 12);
    same_stream::<chacha20::ChaCha8, ragged_chacha::ChaCha8>(32, 12);
    same_stream::<chacha20::ChaCha20Legacy, ragged_chacha::ChaCha20Legacy>(32, 8);
    same_stream::<chacha20::XChaCha20, ragged_chacha::XChaCha20>(32, 24);
    same_stream::<chacha20::XChaCha12, ragged_chacha::XChaCha12>(32, 24);
}

#[test]
fn far_seeks_match_rustcrypto() {
    let key = bytes(9, 32);
    assert_eq!(
        far_keystream::<chacha20::ChaCha20Legacy>(&key, &bytes(3, 8)),
        far_keystream::<ragged_chacha::ChaCha20Legacy>(&key, &bytes(3, 8)),
    );
}

#[test]
fn end_of_keystream_refused_by_both() {
    let (key, iv) = (bytes(1, 32), bytes(2, 12));
    refused_at_end::<chacha20::ChaCha20>(&key, &iv);
    refused_at_end::<ragged_chacha::ChaCha20>(&key, &iv);
}

#[test]
fn ragged_keeps_its_own_limits_through_the_traits() {
    // ragged lets the last block of the 32-bit counter be used, and a seek land on the
    // very end; past that, the trait methods refuse as the inherent ones do.
    let end = (1u64 << 32) * 64;
    let mut c = <ragged_chacha::ChaCha20 as KeyIvInit>::new(&[7; 32].into(), &[8; 12].into());
    StreamCipherSeek::seek(&mut c, end - 64);
    let mut last = [0u8; 64];
    StreamCipher::apply_keystream(&mut c, &mut last);
    let mut inherent = [0u8; 64];
    ragged_chacha::ChaCha20::with_counter(&[7; 32], &[8; 12], u32::MAX)
        .apply_keystream(&mut inherent);
    assert_eq!(last, inherent);
    assert_eq!(StreamCipherSeek::current_pos::<u64>(&c), end);
    let mut one = [0u8; 1];
    assert!(StreamCipher::try_apply_keystream(&mut c, &mut one).is_err());
    assert!(StreamCipherSeek::try_seek(&mut c, end + 1).is_err());
    assert!(StreamCipherSeek::try_seek(&mut c, end).is_ok());
    assert!(StreamCipherSeek::try_current_pos::<u32>(&c).is_err());

    // Positions of any `SeekNum` type; a negative one is refused, moving nothing.
    StreamCipherSeek::seek(&mut c, 70i32);
    assert!(StreamCipherSeek::try_seek(&mut c, -1i32).is_err());
    assert_eq!(StreamCipherSeek::current_pos::<i32>(&c), 70);
    assert_eq!(StreamCipherSeek::current_pos::<usize>(&c), 70);
    StreamCipherSeek::seek(&mut c, u128::from(end));
    assert!(StreamCipherSeek::try_current_pos::<i32>(&c).is_err());
    assert_eq!(StreamCipherSeek::current_pos::<u128>(&c), u128::from(end));
}

/// Seals `msg` in place and out of place (which must agree) and returns ciphertext
/// and tag; then opens both ways and checks the plaintext comes back.
fn seal<A: KeyInit + AeadInOut>(key: &[u8], nonce: &[u8], aad: &[u8], msg: &[u8]) -> Vec<u8> {
    let aead = A::new_from_slice(key).expect("key length");
    let nonce = Nonce::<A>::try_from(nonce).expect("nonce length");

    let mut sealed = msg.to_vec();
    let tag = aead
        .encrypt_inout_detached(&nonce, aad, sealed.as_mut_slice().into())
        .unwrap();
    let mut b2b = vec![0xAA; msg.len()];
    let tag2 = aead
        .encrypt_inout_detached(&nonce, aad, InOutBuf::new(msg, &mut b2b).unwrap())
        .unwrap();
    assert_eq!((&b2b, &tag2), (&sealed, &tag), "out of place");

    let mut opened = sealed.clone();
    aead.decrypt_inout_detached(&nonce, aad, opened.as_mut_slice().into(), &tag)
        .unwrap();
    assert_eq!(opened, msg);
    let mut opened = vec![0xAA; msg.len()];
    aead.decrypt_inout_detached(
        &nonce,
        aad,
        InOutBuf::new(&sealed, &mut opened).unwrap(),
        &tag,
    )
    .unwrap();
    assert_eq!(opened, msg, "opened out of place");

    sealed.extend_from_slice(&tag);
    sealed
}

/// Opens `sealed` (ciphertext ‖ tag) in place; `None` if it is refused, after
/// checking what the implementation left in the buffer is not the plaintext.
fn open<A: KeyInit + AeadInOut>(
    key: &[u8],
    nonce: &[u8],
    aad: &[u8],
    sealed: &[u8],
) -> (Option<Vec<u8>>, Vec<u8>) {
    let aead = A::new_from_slice(key).unwrap();
    let nonce = Nonce::<A>::try_from(nonce).unwrap();
    let (ct, tag) = sealed.split_at(sealed.len() - 16);
    let tag = Tag::<A>::try_from(tag).unwrap();
    let mut buf = ct.to_vec();
    match aead.decrypt_inout_detached(&nonce, aad, buf.as_mut_slice().into(), &tag) {
        Ok(()) => (Some(buf.clone()), buf),
        Err(aead::Error) => (None, buf),
    }
}

fn same_aead<A, B>(nonce_len: usize)
where
    A: KeyInit + AeadInOut,
    B: KeyInit + AeadInOut,
{
    assert_eq!(A::TagSize::USIZE, B::TagSize::USIZE);
    assert_eq!(A::NonceSize::USIZE, nonce_len);
    assert_eq!(B::NonceSize::USIZE, nonce_len);
    assert_eq!(A::TAG_POSITION, B::TAG_POSITION);
    for len in LENS {
        for aad_len in [0, 1, 13, 16, 17] {
            let key = bytes(len as u8, 32);
            let nonce = bytes(aad_len as u8 ^ 0x33, nonce_len);
            let aad = bytes(0x44, aad_len);
            let msg = bytes(0x55, len);
            let sealed = seal::<A>(&key, &nonce, &aad, &msg);
            assert_eq!(
                sealed,
                seal::<B>(&key, &nonce, &aad, &msg),
                "length {len}, aad {aad_len}"
            );

            // Forgeries: a flipped ciphertext or tag bit, altered AAD, another nonce.
            let mut forged_ct = sealed.clone();
            forged_ct[len / 2] ^= 0x01;
            let mut forged_tag = sealed.clone();
            forged_tag[len + 15] ^= 0x80;
            let mut other_nonce = nonce.clone();
            other_nonce[0] ^= 1;
            let cases = [
                (&nonce, &aad[..], &forged_ct),
                (&nonce, &aad[..], &forged_tag),
                (&nonce, &b"not the aad"[..], &sealed),
                (&other_nonce, &aad[..], &sealed),
            ];
            for (case, (n, a, s)) in cases.into_iter().enumerate() {
                if case == 0 && len == 0 {
                    continue; // no ciphertext bit to flip
                }
                let (theirs, _) = open::<A>(&key, n, a, s);
                let (ours, left) = open::<B>(&key, n, a, s);
                assert_eq!(theirs, None, "length {len}, aad {aad_len}, case {case}");
                assert_eq!(ours, None, "length {len}, aad {aad_len}, case {case}");
                assert!(left.iter().all(|&b| b == 0), "ragged zeroes the buffer");
            }
            assert_eq!(open::<B>(&key, &nonce, &aad, &sealed).0, Some(msg));
        }
    }
}

/// The zeroing on a failed decryption also holds out of place: the output is
/// zeros, whatever it held before.
fn failed_open_out_of_place_zeroes<A: KeyInit + AeadInOut>(nonce_len: usize) {
    let aead = A::new_from_slice(&[1; 32]).unwrap();
    let nonce = Nonce::<A>::try_from(&bytes(2, nonce_len)[..]).unwrap();
    let ct = bytes(3, 1420);
    let mut out = vec![0xAA; ct.len()];
    let tag = Tag::<A>::default();
    let r = aead.decrypt_inout_detached(&nonce, b"", InOutBuf::new(&ct, &mut out).unwrap(), &tag);
    assert_eq!(r, Err(aead::Error));
    assert!(out.iter().all(|&b| b == 0));
}

#[test]
fn aeads_match_rustcrypto() {
    same_aead::<chacha20poly1305::ChaCha20Poly1305, ragged_chacha::ChaCha20Poly1305>(12);
    same_aead::<chacha20poly1305::XChaCha20Poly1305, ragged_chacha::XChaCha20Poly1305>(24);
}

#[test]
fn ragged_failed_open_zeroes_out_of_place() {
    failed_open_out_of_place_zeroes::<ragged_chacha::ChaCha20Poly1305>(12);
    failed_open_out_of_place_zeroes::<ragged_chacha::XChaCha20Poly1305>(24);
}

#[test]
fn trait_types_are_ragged_types() {
    // The re-exported crates are the ones RustCrypto's types implement, so a single
    // generic bound takes both (this is a compile-time check).
    fn takes<A: ragged_chacha::rustcrypto::aead::AeadInOut + AeadCore>() {}
    takes::<chacha20poly1305::ChaCha20Poly1305>();
    takes::<ragged_chacha::ChaCha20Poly1305>();
    fn takes_stream<C: ragged_chacha::rustcrypto::cipher::StreamCipher>() {}
    takes_stream::<chacha20::ChaCha20>();
    takes_stream::<ragged_chacha::ChaCha20>();
}
