//! The AEAD implementations: ragged (dispatched and per ChaCha backend), RustCrypto's
//! `chacha20poly1305`, ring and OpenSSL (feature `openssl`; ChaCha20-Poly1305 only:
//! neither has XChaCha20-Poly1305), and libsodium (feature `sodium`, both AEADs).
//!
//! Each call seals the message in place under a fresh nonce with empty AAD and writes
//! the 16-byte tag after it. Every implementation is keyed once and seals every message
//! with that key object, as a sender keeps its session key: ragged's and RustCrypto's
//! typed AEADs (`ChaCha20Poly1305::new` and the like), ring's `LessSafeKey`, OpenSSL's
//! context with only the nonce re-set per message (see `openssl.rs`). libsodium has no
//! key object: its one call per message takes the key (see `sodium.rs`).
//!
//! Not through ragged's `AnyAead`, the runtime choice of AEAD for the CLI, which adds
//! a small cost per call (see its documentation; 04df652): a caller of the typed API
//! never pays that.

use std::hint::black_box;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use ragged_chacha::aead::AeadVariant;
use ragged_chacha::variant::{Ietf, XChaCha};
use ragged_chacha::{AeadKind, Backend, ChaChaPoly1305};

use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, Selection, next_nonce};

/// The implementations of `chacha20-poly1305` or `xchacha20-poly1305`.
pub fn aead(kind: AeadKind, selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list: Vec<Box<dyn Implementation>> = vec![Box::new(Ragged {
        kind,
        backend: None,
    })];
    if selection.backends {
        for backend in Backend::available() {
            list.push(Box::new(Ragged {
                kind,
                backend: Some(backend),
            }));
        }
    }
    list.push(Box::new(RustCrypto(kind)));
    if kind == AeadKind::ChaCha20Poly1305 {
        list.push(Box::new(Ring));
        #[cfg(feature = "openssl")]
        list.push(Box::new(super::openssl::ChaCha20Poly1305));
    }
    #[cfg(feature = "sodium")]
    list.push(Box::new(super::sodium::Seal(kind)));
    list
}

/// The message plus 16 bytes for the tag.
fn message_and_tag(case: Case) -> Buffer {
    Buffer::message(Case {
        size: case.size + 16,
        offset: case.offset,
    })
}

/// The message plus 16 bytes for the tag, and a nonce of `kind`'s length.
fn buffers(case: Case, nonce_len: usize) -> (Buffer, Vec<u8>) {
    (message_and_tag(case), vec![0; nonce_len])
}

struct Ragged {
    kind: AeadKind,
    backend: Option<Backend>,
}

impl Implementation for Ragged {
    fn name(&self) -> String {
        match self.backend {
            None => "ragged".into(),
            Some(b) => format!("ragged-{}", b.name()),
        }
    }

    fn role(&self) -> Role {
        match self.backend {
            None => Role::Ragged,
            Some(_) => Role::RaggedBackend,
        }
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        match self.kind {
            AeadKind::XChaCha20Poly1305 => RaggedRunner::<XChaCha<20>>::boxed(self.backend, case),
            _ => RaggedRunner::<Ietf<20>>::boxed(self.backend, case),
        }
    }
}

/// ragged's AEAD over variant `V` through the typed API: `new`, and `with_backend` only
/// for a column that names a backend.
struct RaggedRunner<V: AeadVariant> {
    aead: ChaChaPoly1305<V>,
    buf: Buffer,
    nonce: V::Nonce,
    n: u64,
}

impl<V: AeadVariant + 'static> RaggedRunner<V>
where
    V::Nonce: AsMut<[u8]> + Default,
{
    fn boxed(backend: Option<Backend>, case: Case) -> Box<dyn Runner> {
        let aead = ChaChaPoly1305::<V>::new(&KEY);
        let aead = match backend {
            None => aead,
            Some(b) => aead
                .with_backend(b)
                .expect("only available backends are listed"),
        };
        Box::new(RaggedRunner::<V> {
            aead,
            buf: message_and_tag(case),
            nonce: V::Nonce::default(),
            n: 0,
        })
    }
}

impl<V: AeadVariant> Runner for RaggedRunner<V>
where
    V::Nonce: AsMut<[u8]>,
{
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(self.nonce.as_mut(), &mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        let t = self
            .aead
            .encrypt_in_place_detached(black_box(&self.nonce), b"", black_box(msg))
            .expect("a benchmark message is short");
        tag.copy_from_slice(&t);
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// RustCrypto's `chacha20poly1305`.
struct RustCrypto(AeadKind);

impl Implementation for RustCrypto {
    fn name(&self) -> String {
        "rustcrypto".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        let (buf, nonce) = buffers(case, self.0.nonce_len());
        let aead = match self.0 {
            AeadKind::XChaCha20Poly1305 => {
                RustCryptoAead::X(chacha20poly1305::XChaCha20Poly1305::new(&KEY.into()))
            }
            _ => RustCryptoAead::Ietf(chacha20poly1305::ChaCha20Poly1305::new(&KEY.into())),
        };
        Box::new(RustCryptoRunner {
            aead,
            buf,
            nonce,
            n: 0,
        })
    }
}

/// RustCrypto's AEAD of either kind.
enum RustCryptoAead {
    Ietf(chacha20poly1305::ChaCha20Poly1305),
    X(chacha20poly1305::XChaCha20Poly1305),
}

struct RustCryptoRunner {
    aead: RustCryptoAead,
    buf: Buffer,
    nonce: Vec<u8>,
    n: u64,
}

impl Runner for RustCryptoRunner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        let t = match &self.aead {
            RustCryptoAead::X(aead) => aead.encrypt_inout_detached(
                self.nonce[..].try_into().expect("24 bytes"),
                b"",
                black_box(msg).into(),
            ),
            RustCryptoAead::Ietf(aead) => aead.encrypt_inout_detached(
                self.nonce[..].try_into().expect("12 bytes"),
                b"",
                black_box(msg).into(),
            ),
        }
        .expect("a benchmark message is short");
        tag.copy_from_slice(&t);
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// ring's ChaCha20-Poly1305 with one `LessSafeKey` kept across messages.
struct Ring;

impl Implementation for Ring {
    fn name(&self) -> String {
        "ring".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        let (buf, nonce) = buffers(case, 12);
        let key = ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &KEY)
            .expect("a 32-byte key");
        Box::new(RingRunner {
            key: ring::aead::LessSafeKey::new(key),
            buf,
            nonce: nonce.try_into().expect("12 bytes"),
            n: 0,
        })
    }
}

struct RingRunner {
    key: ring::aead::LessSafeKey,
    buf: Buffer,
    nonce: [u8; 12],
    n: u64,
}

impl Runner for RingRunner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        let t = self
            .key
            .seal_in_place_separate_tag(
                ring::aead::Nonce::assume_unique_for_key(self.nonce),
                ring::aead::Aad::empty(),
                black_box(msg),
            )
            .expect("a benchmark message is short");
        tag.copy_from_slice(t.as_ref());
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}
