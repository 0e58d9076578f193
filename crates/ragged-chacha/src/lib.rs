//! The ChaCha family of stream ciphers, Poly1305 and the ChaCha20-Poly1305 AEADs, fast
//! on the lengths real traffic brings.
//!
//! Every backend takes a message of any length in one multi-block pass: full batches
//! of the widest vector the CPU has (16 blocks with AVX-512, 8 with AVX2, 4 with
//! SSE2 or NEON), then the remainder as one narrower batch, and the last partial
//! vector with a masked or overlapping store — never a loop of single blocks or a copy
//! through a stack buffer.
//!
//! # Stream ciphers
//!
//! ```
//! use ragged_chacha::ChaCha20;
//!
//! let key = [0x42; 32];
//! let nonce = [0x24; 12];
//! let mut packet = *b"a packet of any length at all";
//! ChaCha20::new(&key, &nonce).apply_keystream(&mut packet);
//! ChaCha20::new(&key, &nonce).apply_keystream(&mut packet);
//! assert_eq!(&packet, b"a packet of any length at all");
//! ```
//!
//! Counters follow the variant: the RFC 8439 ciphers ([`ChaCha20`], [`ChaCha12`],
//! [`ChaCha8`]) use a 32-bit block counter and can use every block up to and including
//! block 0xffffffff; [`ChaCha20Legacy`] and the XChaCha ciphers use 64 bits, carrying
//! from the low word into the high one. A request for keystream past the end is refused
//! before anything is written. The backend is picked once per process
//! ([`Backend::detect`]); without the `std` feature only the instruction sets enabled
//! at compile time are used.
//!
//! Many short messages at once — a burst of packets — go through [`burst`]: the AEADs'
//! `seal_burst` and `open_burst`, [`Burst`] for items with their own keys, and
//! [`ChaCha::xor_burst`]; on the SIMD backends each vector lane then holds a block of a
//! different message.
//!
//! # AEADs
//!
//! [`ChaCha20Poly1305`] (RFC 8439, 12-byte nonce) and [`XChaCha20Poly1305`] (24-byte
//! nonce, draft-irtf-cfrg-xchacha-03), in place with a detached tag:
//!
//! ```
//! use ragged_chacha::{ChaCha20Poly1305, Error};
//!
//! let aead = ChaCha20Poly1305::new(&[0x42; 32]);
//! let nonce = [0x24; 12]; // never use a nonce twice with one key
//! let mut packet = *b"a WireGuard-sized payload";
//! let tag = aead.encrypt_in_place_detached(&nonce, b"header", &mut packet)?;
//! assert_ne!(&packet, b"a WireGuard-sized payload");
//!
//! aead.decrypt_in_place_detached(&nonce, b"header", &mut packet, &tag)?;
//! assert_eq!(&packet, b"a WireGuard-sized payload");
//!
//! // A wrong tag (or AAD, nonce, ciphertext) is refused, and the buffer is zeroed.
//! let mut forged = packet;
//! let bad = [0u8; 16];
//! assert_eq!(
//!     aead.decrypt_in_place_detached(&nonce, b"header", &mut forged, &bad),
//!     Err(Error::AuthenticationFailed)
//! );
//! assert_eq!(forged, [0u8; 25]);
//! # Ok::<(), Error>(())
//! ```
//!
//! # Features
//!
//! - `std` (default): run-time CPU detection; implies `alloc`.
//! - `alloc`: the `Vec`-returning `encrypt` / `decrypt`.
//! - `rustcrypto-traits`: the `cipher` 0.5 and `aead` 0.6 traits, so code generic over
//!   RustCrypto's traits takes these types.
//!
//! # Security
//!
//! Not audited. Tags are compared in constant time, and the kernels are checked for
//! secret-dependent branches and memory addresses under Valgrind (the project's
//! `scripts/ct-check`, on every backend Valgrind can run: not the AVX-512 ones). Keys
//! and keystream are wiped on drop; copies the compiler leaves in registers or its own spill slots are not.
//! Never encrypt two messages under one key and nonce: with a 12-byte nonce use a
//! counter, with random nonces use the 24-byte XChaCha forms.
#![no_std]
// Every panic a caller can cause is documented, and every refusal explained: the
// panicking forms have `try_` twins whose errors the caller can handle instead.
#![warn(clippy::missing_panics_doc, clippy::missing_errors_doc)]
#![cfg_attr(docsrs, feature(doc_cfg))]

#[cfg(feature = "alloc")]
extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod aead;
mod any_aead;
mod backend;
pub mod burst;
mod burst_chacha20;
mod chacha;
mod cipher;
mod error;
mod hchacha;
pub mod kat;
pub mod poly1305;
#[cfg(feature = "rustcrypto-traits")]
#[cfg_attr(docsrs, doc(cfg(feature = "rustcrypto-traits")))]
pub mod rustcrypto;
mod state;
pub mod variant;
mod wipe;

pub use aead::ChaChaPoly1305;
pub use any_aead::{AeadKind, AnyAead};
pub use backend::Backend;
pub use backend::poly1305::Poly1305Backend;
pub use burst::Burst;
pub use chacha::ChaCha;
pub use cipher::{AnyCipher, CipherKind};
pub use error::Error;
pub use hchacha::{hchacha, hchacha12, hchacha20};
pub use poly1305::{Poly1305, poly1305};

/// ChaCha20 (RFC 8439): 12-byte nonce, 32-bit block counter.
pub type ChaCha20 = ChaCha<variant::Ietf<20>>;
/// ChaCha12 with the RFC 8439 nonce and counter layout.
pub type ChaCha12 = ChaCha<variant::Ietf<12>>;
/// ChaCha8 with the RFC 8439 nonce and counter layout.
pub type ChaCha8 = ChaCha<variant::Ietf<8>>;
/// The original ChaCha20: 8-byte nonce, 64-bit block counter.
pub type ChaCha20Legacy = ChaCha<variant::Legacy<20>>;
/// XChaCha20 (draft-irtf-cfrg-xchacha-03): 24-byte nonce, 64-bit block counter.
pub type XChaCha20 = ChaCha<variant::XChaCha<20>>;
/// XChaCha12: 24-byte nonce, 64-bit block counter, 12 rounds.
pub type XChaCha12 = ChaCha<variant::XChaCha<12>>;

/// ChaCha20-Poly1305 (RFC 8439 §2.8): 12-byte nonce, 16-byte tag.
pub type ChaCha20Poly1305 = ChaChaPoly1305<variant::Ietf<20>>;
/// XChaCha20-Poly1305 (draft-irtf-cfrg-xchacha-03): 24-byte nonce, 16-byte tag.
pub type XChaCha20Poly1305 = ChaChaPoly1305<variant::XChaCha<20>>;
