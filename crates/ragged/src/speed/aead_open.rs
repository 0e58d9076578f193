//! `chacha20-poly1305-open`: opening a sealed message in place (decrypt and verify the
//! tag), the receiving half of a packet's trip. Implementations: ragged (dispatched and
//! per ChaCha backend), RustCrypto's `chacha20poly1305`, ring, OpenSSL (feature
//! `openssl`) and libsodium (feature `sodium`).
//!
//! Every implementation opens the same sealed message (ragged's seal under the
//! benchmark key and one fixed nonce, empty AAD). Rather than copy the sealed message
//! back before every call (a copy as long as the message, timed with the opening),
//! the calls go round `cycle.rs`'s cycle: every second call opens the plaintext back
//! into the sealed message. Only the tag's 16 bytes are written before a call.
//! Each implementation is keyed once and opens every message with that key object,
//! as a receiver keeps its session key.

use std::hint::black_box;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use ragged_chacha::{Backend, ChaCha20Poly1305};

use super::cycle::OpeningCycle;
use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, Selection};

/// The nonce every sealed benchmark message is made under.
const NONCE: [u8; 12] = [7; 12];

/// The implementations of `chacha20-poly1305-open`.
pub fn open(selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list: Vec<Box<dyn Implementation>> = vec![Box::new(Opener::Ragged(None))];
    if selection.backends {
        for backend in Backend::available() {
            list.push(Box::new(Opener::Ragged(Some(backend))));
        }
    }
    list.push(Box::new(Opener::RustCrypto));
    list.push(Box::new(Opener::Ring));
    #[cfg(feature = "openssl")]
    list.push(Box::new(Opener::OpenSsl));
    #[cfg(feature = "sodium")]
    list.push(Box::new(Opener::Sodium));
    list
}

/// Who opens.
#[derive(Clone, Copy)]
enum Opener {
    /// ragged, on the detected backend or the one named.
    Ragged(Option<Backend>),
    /// RustCrypto's `chacha20poly1305`.
    RustCrypto,
    /// ring.
    Ring,
    /// OpenSSL, on a decryption context keyed once.
    #[cfg(feature = "openssl")]
    OpenSsl,
    /// libsodium, which takes the key with every call (no key object).
    #[cfg(feature = "sodium")]
    Sodium,
}

impl Implementation for Opener {
    fn name(&self) -> String {
        match self {
            Opener::Ragged(None) => "ragged".into(),
            Opener::Ragged(Some(b)) => format!("ragged-{}", b.name()),
            Opener::RustCrypto => "rustcrypto".into(),
            Opener::Ring => "ring".into(),
            #[cfg(feature = "openssl")]
            Opener::OpenSsl => "openssl".into(),
            #[cfg(feature = "sodium")]
            Opener::Sodium => "libsodium".into(),
        }
    }

    fn role(&self) -> Role {
        match self {
            Opener::Ragged(None) => Role::Ragged,
            Opener::Ragged(Some(_)) => Role::RaggedBackend,
            _ => Role::Peer,
        }
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        let mut buf = Buffer::message(Case {
            size: case.size + 16,
            offset: case.offset,
        });
        let (msg, slot) = buf.split_at_mut(case.size);
        let sealer = ChaCha20Poly1305::new(&KEY);
        let plain = msg.to_vec();
        let sealed_tag = sealer
            .encrypt_in_place_detached(&NONCE, b"", msg)
            .expect("a benchmark message is short");
        slot.copy_from_slice(&sealed_tag);
        let mut back = msg.to_vec();
        let plain_tag = sealer
            .encrypt_in_place_detached(&NONCE, b"", &mut back)
            .expect("a benchmark message is short");
        assert_eq!(
            back, plain,
            "sealing the ciphertext gives the plaintext back"
        );
        let key = match *self {
            Opener::Ragged(None) => Keyed::Ragged(ChaCha20Poly1305::new(&KEY)),
            Opener::Ragged(Some(b)) => Keyed::Ragged(
                ChaCha20Poly1305::new(&KEY)
                    .with_backend(b)
                    .expect("only available backends are listed"),
            ),
            Opener::RustCrypto => {
                Keyed::RustCrypto(chacha20poly1305::ChaCha20Poly1305::new(&KEY.into()))
            }
            Opener::Ring => Keyed::Ring(ring::aead::LessSafeKey::new(
                ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &KEY)
                    .expect("a 32-byte key"),
            )),
            #[cfg(feature = "openssl")]
            Opener::OpenSsl => Keyed::OpenSsl(super::openssl::context(super::openssl::Use::Open)),
            #[cfg(feature = "sodium")]
            Opener::Sodium => Keyed::Sodium(super::sodium::init()),
        };
        Box::new(OpenRunner {
            key,
            tags: OpeningCycle::new(sealed_tag, plain_tag),
            buf,
        })
    }
}

/// An opener's key object, made once and kept across messages.
#[allow(
    clippy::large_enum_variant,
    reason = "one per runner, made once; boxing ring's key would add a pointer chase to its column only"
)]
enum Keyed {
    Ragged(ChaCha20Poly1305),
    RustCrypto(chacha20poly1305::ChaCha20Poly1305),
    Ring(ring::aead::LessSafeKey),
    #[cfg(feature = "openssl")]
    OpenSsl(openssl::cipher_ctx::CipherCtx),
    #[cfg(feature = "sodium")]
    Sodium(super::sodium::Ready),
}

struct OpenRunner {
    key: Keyed,
    /// The tags of the two messages the buffer holds in turn: the sealed message's,
    /// and the plaintext's as the ciphertext of the sealed one (see the module's doc).
    tags: OpeningCycle<[u8; 16]>,
    /// The message with the room for its tag after it.
    buf: Buffer,
}

impl Runner for OpenRunner {
    #[inline(never)]
    fn run(&mut self) {
        let len = self.buf.len() - 16;
        let (msg, slot) = self.buf.split_at_mut(len);
        slot.copy_from_slice(self.tags.next());
        let tag: &[u8; 16] = (&*slot).try_into().expect("16 bytes");
        let opened = match &self.key {
            Keyed::Ragged(aead) => aead
                .decrypt_in_place_detached(black_box(&NONCE), b"", black_box(msg), tag)
                .is_ok(),
            Keyed::RustCrypto(aead) => aead
                .decrypt_inout_detached(
                    black_box(&NONCE).into(),
                    b"",
                    black_box(msg).into(),
                    tag.into(),
                )
                .is_ok(),
            Keyed::Ring(key) => key
                .open_in_place(
                    ring::aead::Nonce::assume_unique_for_key(*black_box(&NONCE)),
                    ring::aead::Aad::empty(),
                    black_box(&mut self.buf[..]),
                )
                .is_ok(),
            #[cfg(feature = "openssl")]
            Keyed::OpenSsl(ctx) => {
                super::openssl::open(ctx, black_box(&NONCE), black_box(msg), tag)
            }
            #[cfg(feature = "sodium")]
            Keyed::Sodium(sodium) => sodium.open(
                ragged_chacha::AeadKind::ChaCha20Poly1305,
                black_box(msg),
                tag,
                black_box(&NONCE),
                black_box(&KEY),
            ),
        };
        assert!(opened, "a sealed benchmark message opens");
        black_box(&mut self.buf);
    }

    /// The message the last call opened to: the plaintext after an odd number of
    /// calls, the sealed message after an even one (the tag's room is left out).
    fn output(&self) -> &[u8] {
        &self.buf[..self.buf.len() - 16]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every implementation opens the sealed message to the same plaintext, which is
    /// the message that was sealed; the next call opens it back to the sealed message
    /// and the one after to the plaintext again (every call's tag matches: `run`
    /// asserts it).
    #[test]
    fn every_opener_recovers_the_message() {
        let sealer = ChaCha20Poly1305::new(&KEY);
        for size in [0, 1, 15, 16, 17, 64, 65, 255, 1420, 1500, 16384] {
            let case = Case { size, offset: 0 };
            let plain = Buffer::message(case);
            let mut sealed = plain.to_vec();
            sealer
                .encrypt_in_place_detached(&NONCE, b"", &mut sealed)
                .expect("short");
            for opener in open(Selection { backends: true }) {
                let mut runner = opener.prepare(case);
                for call in 1..=3 {
                    runner.run();
                    let want = if call % 2 == 1 { &plain[..] } else { &sealed };
                    assert_eq!(
                        runner.output(),
                        want,
                        "{} at {size}, call {call}",
                        opener.name()
                    );
                }
            }
        }
    }
}
