//! The Poly1305 implementations: ragged (dispatched and, with `--backends`, per
//! Poly1305 backend), RustCrypto's `poly1305` and libsodium (feature `sodium`).
//!
//! Each call computes the tag of the whole message under a fresh one-time key (the
//! message counter in its first bytes, as an AEAD would derive one per nonce), so the
//! per-key setup is part of the cost, and writes the tag over the buffer's last 16
//! bytes (outside the message). ring keeps its Poly1305 private, so it is not a peer.

use std::hint::black_box;

use poly1305::universal_hash::KeyInit;
use ragged_chacha::{Poly1305, Poly1305Backend};

use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, Selection};

/// The implementations of `poly1305`.
pub fn poly1305(selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list: Vec<Box<dyn Implementation>> = vec![Box::new(Ragged(None))];
    if selection.backends {
        for backend in Poly1305Backend::available() {
            list.push(Box::new(Ragged(Some(backend))));
        }
    }
    list.push(Box::new(RustCrypto));
    #[cfg(feature = "sodium")]
    list.push(Box::new(super::sodium::Poly1305));
    list
}

/// The message plus 16 bytes for the tag.
pub(super) fn buffer(case: Case) -> Buffer {
    Buffer::message(Case {
        size: case.size + 16,
        offset: case.offset,
    })
}

/// The key for message `n`: the shared benchmark key with `n` in its first 8 bytes.
pub(super) fn next_key(n: &mut u64) -> [u8; 32] {
    *n += 1;
    let mut key = KEY;
    key[..8].copy_from_slice(&n.to_le_bytes());
    key
}

struct Ragged(Option<Poly1305Backend>);

impl Implementation for Ragged {
    fn name(&self) -> String {
        match self.0 {
            None => "ragged".into(),
            Some(b) => format!("ragged-{}", b.name()),
        }
    }

    fn role(&self) -> Role {
        match self.0 {
            None => Role::Ragged,
            Some(_) => Role::RaggedBackend,
        }
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(RaggedRunner {
            backend: self.0.unwrap_or_else(Poly1305Backend::detect),
            buf: buffer(case),
            n: 0,
        })
    }
}

struct RaggedRunner {
    backend: Poly1305Backend,
    buf: Buffer,
    n: u64,
}

impl Runner for RaggedRunner {
    #[inline(never)]
    fn run(&mut self) {
        let key = next_key(&mut self.n);
        let mut mac = Poly1305::new(black_box(&key))
            .with_backend(self.backend)
            .expect("only available backends are listed");
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        mac.update(black_box(msg));
        tag.copy_from_slice(&mac.finalize());
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// RustCrypto's `poly1305`, keyed per message.
struct RustCrypto;

impl Implementation for RustCrypto {
    fn name(&self) -> String {
        "rustcrypto".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(RustCryptoRunner {
            buf: buffer(case),
            n: 0,
        })
    }
}

struct RustCryptoRunner {
    buf: Buffer,
    n: u64,
}

impl Runner for RustCryptoRunner {
    #[inline(never)]
    fn run(&mut self) {
        let key = next_key(&mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        let t = poly1305::Poly1305::new(black_box(&key).into()).compute_unpadded(black_box(msg));
        tag.copy_from_slice(&t);
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}
