//! The ChaCha20 and XChaCha20 implementations: ragged (dispatched and per backend),
//! RustCrypto, OpenSSL (feature `openssl`, ChaCha20 only) and libsodium (feature
//! `sodium`).
//!
//! Each call XORs the keystream into the message in place under a fresh nonce. ragged
//! and RustCrypto construct their cipher per message, as real use with a new nonce
//! does; OpenSSL keeps one context and re-sets only its IV (see `openssl.rs`).

use std::hint::black_box;
use std::marker::PhantomData;

use chacha20::cipher::{Iv, Key, KeyIvInit, StreamCipher};
use ragged_chacha::variant::{self, Variant};
use ragged_chacha::{Backend, ChaCha};

use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, Selection, next_nonce};

/// The implementations of `chacha20`.
pub fn chacha20(selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list = ragged::<variant::Ietf<20>>(selection);
    list.push(Box::new(RustCrypto::<chacha20::ChaCha20>(PhantomData)));
    #[cfg(feature = "openssl")]
    list.push(Box::new(super::openssl::ChaCha20));
    #[cfg(feature = "sodium")]
    list.push(Box::new(super::sodium::Stream { x: false }));
    list
}

/// The implementations of `xchacha20`.
pub fn xchacha20(selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list = ragged::<variant::XChaCha<20>>(selection);
    list.push(Box::new(RustCrypto::<chacha20::XChaCha20>(PhantomData)));
    #[cfg(feature = "sodium")]
    list.push(Box::new(super::sodium::Stream { x: true }));
    list
}

/// `ragged` on the dispatched backend, then (with `--backends`) every backend this CPU
/// has by name.
fn ragged<V: Variant + 'static>(selection: Selection) -> Vec<Box<dyn Implementation>>
where
    V::Nonce: Default + AsMut<[u8]>,
{
    let mut list: Vec<Box<dyn Implementation>> = vec![Box::new(Ragged::<V> {
        backend: None,
        variant: PhantomData,
    })];
    if selection.backends {
        for backend in Backend::available() {
            list.push(Box::new(Ragged::<V> {
                backend: Some(backend),
                variant: PhantomData,
            }));
        }
    }
    list
}

/// ragged's `ChaCha<V>`: `new` per message, `with_backend` when a backend is named.
struct Ragged<V> {
    backend: Option<Backend>,
    variant: PhantomData<V>,
}

impl<V: Variant + 'static> Implementation for Ragged<V>
where
    V::Nonce: Default + AsMut<[u8]>,
{
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
        match self.backend {
            None => Box::new(RaggedRunner::<V> {
                buf: Buffer::message(case),
                nonce: V::Nonce::default(),
                n: 0,
            }),
            Some(backend) => Box::new(RaggedBackendRunner::<V> {
                backend,
                buf: Buffer::message(case),
                nonce: V::Nonce::default(),
                n: 0,
            }),
        }
    }
}

struct RaggedRunner<V: Variant> {
    buf: Buffer,
    nonce: V::Nonce,
    n: u64,
}

impl<V: Variant> Runner for RaggedRunner<V>
where
    V::Nonce: AsMut<[u8]>,
{
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(self.nonce.as_mut(), &mut self.n);
        let mut cipher = ChaCha::<V>::new(black_box(&KEY), black_box(&self.nonce));
        cipher.apply_keystream(black_box(&mut self.buf[..]));
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

struct RaggedBackendRunner<V: Variant> {
    backend: Backend,
    buf: Buffer,
    nonce: V::Nonce,
    n: u64,
}

impl<V: Variant> Runner for RaggedBackendRunner<V>
where
    V::Nonce: AsMut<[u8]>,
{
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(self.nonce.as_mut(), &mut self.n);
        let mut cipher = ChaCha::<V>::new(black_box(&KEY), black_box(&self.nonce))
            .with_backend(self.backend)
            .expect("only available backends are listed");
        cipher.apply_keystream(black_box(&mut self.buf[..]));
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// A RustCrypto stream cipher (`chacha20` crate), constructed per message.
struct RustCrypto<C>(PhantomData<C>);

impl<C: KeyIvInit + StreamCipher + 'static> Implementation for RustCrypto<C> {
    fn name(&self) -> String {
        "rustcrypto".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(RustCryptoRunner::<C> {
            buf: Buffer::message(case),
            key: Key::<C>::try_from(&KEY[..]).expect("a 32-byte key"),
            iv: Iv::<C>::default(),
            n: 0,
            cipher: PhantomData,
        })
    }
}

struct RustCryptoRunner<C: KeyIvInit> {
    buf: Buffer,
    key: Key<C>,
    iv: Iv<C>,
    n: u64,
    cipher: PhantomData<C>,
}

impl<C: KeyIvInit + StreamCipher> Runner for RustCryptoRunner<C> {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.iv, &mut self.n);
        let mut cipher = C::new(black_box(&self.key), black_box(&self.iv));
        cipher.apply_keystream(black_box(&mut self.buf[..]));
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}
