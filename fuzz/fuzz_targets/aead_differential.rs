//! ChaCha20-Poly1305 and XChaCha20-Poly1305 on every (ChaCha, Poly1305) backend pair
//! this CPU has, against RustCrypto's `chacha20poly1305` and, for the RFC 8439 AEAD,
//! `ring`: sealing gives the same ciphertext and tag; opening after random changes to
//! the key, nonce, AAD, ciphertext or tag succeeds exactly when the bytes are still the
//! sealed ones, never panics, and on failure leaves the buffer all zeros.
#![no_main]

use arbitrary::Arbitrary;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use libfuzzer_sys::fuzz_target;
use ragged_chacha::{AeadKind, AnyAead, Backend, Error, Poly1305Backend};
use ragged_fuzz::pseudo_random;

#[derive(Arbitrary, Debug)]
enum Change {
    Key { index: u8, mask: u8 },
    Nonce { index: u8, mask: u8 },
    Aad { index: u16, mask: u8 },
    Ciphertext { index: u16, mask: u8 },
    Tag { index: u8, mask: u8 },
    TruncateAad(u16),
    ExtendAad(u8),
    TruncateCiphertext(u16),
    ExtendCiphertext(u8),
}

#[derive(Arbitrary, Debug)]
struct Input {
    xchacha: bool,
    key: [u8; 32],
    nonce: [u8; 24],
    aad_len: u16,
    len: u16,
    seed: u64,
    changes: Vec<Change>,
}

const MAX_AAD: usize = 300;
const MAX_LEN: usize = 4200;
const MAX_CHANGES: usize = 4;

/// What an opener sees: the message as sealed, or after changes.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Sealed {
    key: [u8; 32],
    nonce: Vec<u8>,
    aad: Vec<u8>,
    ciphertext: Vec<u8>,
    tag: [u8; 16],
}

/// Flips `mask` into the byte at `index` (modulo the length) of a non-empty `bytes`.
fn flip(bytes: &mut [u8], index: usize, mask: u8) {
    if !bytes.is_empty() {
        let i = index % bytes.len();
        bytes[i] ^= mask;
    }
}

fn apply(change: &Change, s: &mut Sealed) {
    match *change {
        Change::Key { index, mask } => flip(&mut s.key, index.into(), mask),
        Change::Nonce { index, mask } => flip(&mut s.nonce, index.into(), mask),
        Change::Aad { index, mask } => flip(&mut s.aad, index.into(), mask),
        Change::Ciphertext { index, mask } => flip(&mut s.ciphertext, index.into(), mask),
        Change::Tag { index, mask } => flip(&mut s.tag, index.into(), mask),
        Change::TruncateAad(n) => s.aad.truncate(usize::from(n) % (s.aad.len() + 1)),
        Change::ExtendAad(b) => s.aad.push(b),
        Change::TruncateCiphertext(n) => s
            .ciphertext
            .truncate(usize::from(n) % (s.ciphertext.len() + 1)),
        Change::ExtendCiphertext(b) => s.ciphertext.push(b),
    }
}

/// Every backend pair this CPU can run.
fn backend_pairs() -> Vec<(Backend, Poly1305Backend)> {
    Backend::available()
        .flat_map(|b| Poly1305Backend::available().map(move |m| (b, m)))
        .collect()
}

fn ours(kind: AeadKind, key: &[u8; 32], pair: (Backend, Poly1305Backend)) -> AnyAead {
    AnyAead::new(kind, key)
        .with_backend(pair.0)
        .and_then(|a| a.with_mac_backend(pair.1))
        .expect("available backends")
}

/// RustCrypto's seal of `plaintext`: ciphertext and tag.
fn rustcrypto_seal(kind: AeadKind, s: &Sealed, plaintext: &[u8]) -> (Vec<u8>, [u8; 16]) {
    let mut buf = plaintext.to_vec();
    let tag = match kind {
        AeadKind::ChaCha20Poly1305 => chacha20poly1305::ChaCha20Poly1305::new(&s.key.into())
            .encrypt_inout_detached(
                <&[u8; 12]>::try_from(&s.nonce[..]).unwrap().into(),
                &s.aad,
                (&mut buf[..]).into(),
            ),
        _ => chacha20poly1305::XChaCha20Poly1305::new(&s.key.into()).encrypt_inout_detached(
            <&[u8; 24]>::try_from(&s.nonce[..]).unwrap().into(),
            &s.aad,
            (&mut buf[..]).into(),
        ),
    }
    .expect("RustCrypto seals");
    (buf, tag.into())
}

/// Whether RustCrypto accepts `s`, and the plaintext if so.
fn rustcrypto_open(kind: AeadKind, s: &Sealed) -> Option<Vec<u8>> {
    let mut buf = s.ciphertext.clone();
    let ok = match kind {
        AeadKind::ChaCha20Poly1305 => chacha20poly1305::ChaCha20Poly1305::new(&s.key.into())
            .decrypt_inout_detached(
                <&[u8; 12]>::try_from(&s.nonce[..]).unwrap().into(),
                &s.aad,
                (&mut buf[..]).into(),
                &s.tag.into(),
            ),
        _ => chacha20poly1305::XChaCha20Poly1305::new(&s.key.into()).decrypt_inout_detached(
            <&[u8; 24]>::try_from(&s.nonce[..]).unwrap().into(),
            &s.aad,
            (&mut buf[..]).into(),
            &s.tag.into(),
        ),
    }
    .is_ok();
    ok.then_some(buf)
}

fn ring_key(key: &[u8; 32]) -> ring::aead::LessSafeKey {
    ring::aead::LessSafeKey::new(
        ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, key).expect("32-byte key"),
    )
}

fn ring_nonce(nonce: &[u8]) -> ring::aead::Nonce {
    ring::aead::Nonce::try_assume_unique_for_key(nonce).expect("12-byte nonce")
}

fuzz_target!(|input: Input| {
    let kind = if input.xchacha {
        AeadKind::XChaCha20Poly1305
    } else {
        AeadKind::ChaCha20Poly1305
    };
    let aad = pseudo_random(input.seed, usize::from(input.aad_len) % (MAX_AAD + 1));
    let plaintext = pseudo_random(!input.seed, usize::from(input.len) % (MAX_LEN + 1));
    let nonce = input.nonce[..kind.nonce_len()].to_vec();
    let pairs = backend_pairs();

    // Seal on every backend pair: one ciphertext and tag.
    let mut sealed: Option<Sealed> = None;
    for &pair in &pairs {
        let mut buf = plaintext.clone();
        let tag = ours(kind, &input.key, pair)
            .encrypt_in_place_detached(&nonce, &aad, &mut buf)
            .expect("a short message seals");
        let this = Sealed {
            key: input.key,
            nonce: nonce.clone(),
            aad: aad.clone(),
            ciphertext: buf,
            tag,
        };
        match &sealed {
            None => sealed = Some(this),
            Some(first) => assert!(&this == first, "{pair:?} seals differently"),
        }
    }
    let sealed = sealed.expect("the portable pair is always available");

    // The independent implementations seal the same bytes.
    let (ct, tag) = rustcrypto_seal(kind, &sealed, &plaintext);
    assert!(ct == sealed.ciphertext, "RustCrypto's ciphertext differs");
    assert_eq!(tag, sealed.tag, "RustCrypto's tag");
    if kind == AeadKind::ChaCha20Poly1305 {
        let mut buf = plaintext.clone();
        let tag = ring_key(&sealed.key)
            .seal_in_place_separate_tag(ring_nonce(&nonce), ring::aead::Aad::from(&aad), &mut buf)
            .expect("ring seals");
        assert!(buf == sealed.ciphertext, "ring's ciphertext differs");
        assert_eq!(tag.as_ref(), &sealed.tag, "ring tag");
    }

    // The opener's view after the changes: authentic exactly when nothing differs.
    let mut received = sealed.clone();
    for change in input.changes.iter().take(MAX_CHANGES) {
        apply(change, &mut received);
    }
    let authentic = received == sealed;

    for &pair in &pairs {
        let aead = ours(kind, &received.key, pair);
        let mut buf = received.ciphertext.clone();
        let result =
            aead.decrypt_in_place_detached(&received.nonce, &received.aad, &mut buf, &received.tag);
        if authentic {
            assert_eq!(result, Ok(()), "{pair:?} refused an authentic message");
            assert!(buf == plaintext, "{pair:?} decrypted wrongly");
        } else {
            assert_eq!(
                result,
                Err(Error::AuthenticationFailed),
                "{pair:?} accepted a forgery"
            );
            assert!(
                buf.iter().all(|&b| b == 0),
                "{pair:?} left bytes after a failed open"
            );
        }

        // The combined form: ciphertext ‖ tag in, plaintext out (or nothing).
        let mut combined = received.ciphertext.clone();
        combined.extend_from_slice(&received.tag);
        let opened = match &aead {
            AnyAead::ChaCha20Poly1305(a) => a.decrypt(
                received.nonce[..].try_into().unwrap(),
                &received.aad,
                &combined,
            ),
            AnyAead::XChaCha20Poly1305(a) => a.decrypt(
                received.nonce[..].try_into().unwrap(),
                &received.aad,
                &combined,
            ),
            _ => unreachable!("two AEADs"),
        };
        if authentic {
            assert!(opened.as_deref() == Ok(&plaintext[..]), "{pair:?} decrypt");
        } else {
            assert!(
                opened == Err(Error::AuthenticationFailed),
                "{pair:?} decrypt of a forgery"
            );
        }
        // Shorter than a tag: refused, without panicking.
        let short = &combined[..combined.len().min(15)];
        let opened = match &aead {
            AnyAead::ChaCha20Poly1305(a) => {
                a.decrypt(received.nonce[..].try_into().unwrap(), &received.aad, short)
            }
            AnyAead::XChaCha20Poly1305(a) => {
                a.decrypt(received.nonce[..].try_into().unwrap(), &received.aad, short)
            }
            _ => unreachable!("two AEADs"),
        };
        assert_eq!(opened, Err(Error::AuthenticationFailed));
    }

    // A nonce of the wrong length is refused before the buffer is touched.
    let mut buf = received.ciphertext.clone();
    let wrong = &input.nonce[..kind.nonce_len() - 1];
    assert_eq!(
        AnyAead::new(kind, &received.key).decrypt_in_place_detached(
            wrong,
            &received.aad,
            &mut buf,
            &received.tag
        ),
        Err(Error::NonceLength {
            expected: kind.nonce_len(),
            actual: kind.nonce_len() - 1
        })
    );
    assert!(
        buf == received.ciphertext,
        "a refused nonce changed the buffer"
    );

    // The independent implementations decide the same way.
    let theirs = rustcrypto_open(kind, &received);
    assert_eq!(theirs.is_some(), authentic, "RustCrypto's decision");
    if let Some(p) = theirs {
        assert!(p == plaintext, "RustCrypto decrypted differently");
    }
    if kind == AeadKind::ChaCha20Poly1305 {
        let mut buf = received.ciphertext.clone();
        buf.extend_from_slice(&received.tag);
        let opened = ring_key(&received.key)
            .open_in_place(
                ring_nonce(&received.nonce),
                ring::aead::Aad::from(&received.aad),
                &mut buf,
            )
            .map(|p| p.to_vec());
        assert_eq!(opened.is_ok(), authentic, "ring's decision");
    }
});
