//! Flipping any single bit of the ciphertext, the tag, the AAD or the nonce makes
//! decryption fail with `AuthenticationFailed` and leaves the buffer all zeros; for
//! long messages the ciphertext bits are sampled (the first and last 64 bytes, and a
//! spread in between).

mod common;

use common::bytes;
use ragged_chacha::{AeadKind, AnyAead, Error};

/// Opens `ciphertext` with one input altered and checks the refusal and the zeroing.
fn must_refuse(
    aead: &AnyAead,
    nonce: &[u8],
    aad: &[u8],
    ciphertext: &[u8],
    tag: &[u8; 16],
    what: &str,
) {
    let mut buf = ciphertext.to_vec();
    assert_eq!(
        aead.decrypt_in_place_detached(nonce, aad, &mut buf, tag),
        Err(Error::AuthenticationFailed),
        "{what} was accepted"
    );
    assert!(buf.iter().all(|&b| b == 0), "{what}: buffer not zeroed");
}

/// The ciphertext bit positions to flip: all of them for short messages, else every
/// bit of the first and last 64 bytes and every bit of every 97th byte.
fn ciphertext_bits(len: usize) -> Vec<usize> {
    if len <= 256 {
        return (0..len * 8).collect();
    }
    (0..len)
        .filter(|&i| i < 64 || i >= len - 64 || i % 97 == 0)
        .flat_map(|i| (0..8).map(move |b| i * 8 + b))
        .collect()
}

fn flip(data: &[u8], bit: usize) -> Vec<u8> {
    let mut out = data.to_vec();
    out[bit / 8] ^= 1 << (bit % 8);
    out
}

#[test]
fn any_single_bit_flip_is_refused_and_zeroes_the_buffer() {
    for kind in AeadKind::ALL {
        for len in [0, 1, 15, 16, 17, 63, 64, 65, 255, 1420] {
            for aad_len in [0, 1, 16, 21] {
                let seed = (len * 100 + aad_len) as u64;
                let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
                let nonce = bytes(seed + 1, kind.nonce_len());
                let aad = bytes(seed + 2, aad_len);
                let aead = AnyAead::new(kind, &key);
                let mut ciphertext = bytes(seed + 3, len);
                let tag = aead
                    .encrypt_in_place_detached(&nonce, &aad, &mut ciphertext)
                    .unwrap();
                let id = format!("{} len {len} aad {aad_len}", kind.name());

                for bit in ciphertext_bits(len) {
                    let what = format!("{id}: ciphertext bit {bit} flipped");
                    must_refuse(&aead, &nonce, &aad, &flip(&ciphertext, bit), &tag, &what);
                }
                for bit in 0..128 {
                    let forged: [u8; 16] = flip(&tag, bit).try_into().unwrap();
                    let what = format!("{id}: tag bit {bit} flipped");
                    must_refuse(&aead, &nonce, &aad, &ciphertext, &forged, &what);
                }
                for bit in 0..aad_len * 8 {
                    let what = format!("{id}: AAD bit {bit} flipped");
                    must_refuse(&aead, &nonce, &flip(&aad, bit), &ciphertext, &tag, &what);
                }
                for bit in 0..nonce.len() * 8 {
                    let what = format!("{id}: nonce bit {bit} flipped");
                    must_refuse(&aead, &flip(&nonce, bit), &aad, &ciphertext, &tag, &what);
                }
                // Unaltered, it opens.
                let mut buf = ciphertext.clone();
                aead.decrypt_in_place_detached(&nonce, &aad, &mut buf, &tag)
                    .unwrap_or_else(|e| panic!("{id}: {e}"));
            }
        }
    }
}

#[test]
fn a_wrong_key_is_refused() {
    let aead = AnyAead::new(AeadKind::ChaCha20Poly1305, &[1; 32]);
    let mut buf = *b"secret message";
    let tag = aead
        .encrypt_in_place_detached(&[2; 12], b"", &mut buf)
        .unwrap();
    let other = AnyAead::new(AeadKind::ChaCha20Poly1305, &[3; 32]);
    must_refuse(&other, &[2; 12], b"", &buf, &tag, "wrong key");
}

#[test]
fn a_nonce_of_the_wrong_length_is_refused_before_touching_the_buffer() {
    let aead = AnyAead::new(AeadKind::XChaCha20Poly1305, &[1; 32]);
    let mut buf = *b"untouched";
    assert_eq!(
        aead.encrypt_in_place_detached(&[0; 12], b"", &mut buf),
        Err(Error::NonceLength {
            expected: 24,
            actual: 12
        })
    );
    assert_eq!(
        aead.decrypt_in_place_detached(&[0; 12], b"", &mut buf, &[0; 16]),
        Err(Error::NonceLength {
            expected: 24,
            actual: 12
        })
    );
    assert_eq!(&buf, b"untouched");
}

#[cfg(feature = "alloc")]
#[test]
fn the_vec_forms_round_trip_and_refuse_short_or_forged_input() {
    use ragged_chacha::{ChaCha20Poly1305, XChaCha20Poly1305};
    let aead = ChaCha20Poly1305::new(&[9; 32]);
    let sealed = aead.encrypt(&[1; 12], b"aad", b"hello").unwrap();
    assert_eq!(sealed.len(), 5 + 16);
    assert_eq!(aead.decrypt(&[1; 12], b"aad", &sealed).unwrap(), b"hello");
    assert_eq!(
        aead.decrypt(&[1; 12], b"aad", &sealed[..15]),
        Err(Error::AuthenticationFailed)
    );
    assert_eq!(
        aead.decrypt(&[1; 12], b"aaD", &sealed),
        Err(Error::AuthenticationFailed)
    );
    let x = XChaCha20Poly1305::new(&[9; 32]);
    let sealed = x.encrypt(&[1; 24], b"", b"").unwrap();
    assert_eq!(x.decrypt(&[1; 24], b"", &sealed).unwrap(), b"");
}
