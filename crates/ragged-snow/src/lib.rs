//! A [snow] (Noise Protocol Framework) crypto resolver whose `ChaChaPoly` — and
//! `XChaChaPoly`, with the `xchachapoly` feature (on by default) — run on ragged.
//!
//! Noise sends every transport message through its AEAD, and most of them are short
//! (WireGuard's are a packet each): the lengths where ragged's one-pass kernels pay
//! off. Everything else (Diffie-Hellman, hashes, randomness, AES-GCM) resolves through
//! snow's [`DefaultResolver`], so [`RaggedResolver`] is a drop-in for snow's default.
//!
//! ```
//! use ragged_snow::RaggedResolver;
//!
//! let params: snow::params::NoiseParams = "Noise_NN_25519_ChaChaPoly_BLAKE2s".parse().unwrap();
//! let builder = || snow::Builder::with_resolver(params.clone(), Box::new(RaggedResolver::new()));
//! let mut initiator = builder().build_initiator().unwrap();
//! let mut responder = builder().build_responder().unwrap();
//!
//! let (mut buf, mut msg) = ([0u8; 1024], [0u8; 1024]);
//! let len = initiator.write_message(&[], &mut msg).unwrap();
//! responder.read_message(&msg[..len], &mut buf).unwrap();
//! let len = responder.write_message(&[], &mut msg).unwrap();
//! initiator.read_message(&msg[..len], &mut buf).unwrap();
//!
//! let (mut initiator, mut responder) =
//!     (initiator.into_transport_mode().unwrap(), responder.into_transport_mode().unwrap());
//! let len = initiator.write_message(b"a packet", &mut msg).unwrap();
//! let len = responder.read_message(&msg[..len], &mut buf).unwrap();
//! assert_eq!(&buf[..len], b"a packet");
//! ```
//!
//! The wire format is the Noise specification's (§12.3 ChaChaPoly: the 64-bit counter
//! little endian after four zero bytes; XChaChaPoly: after sixteen zero bytes, as
//! snow's own resolver does), so either end can use either resolver.

use ragged_chacha::aead::TAG_LEN;
use ragged_chacha::{ChaCha20Poly1305, XChaCha20Poly1305};
use snow::params::{CipherChoice, DHChoice, HashChoice};
use snow::resolvers::{CryptoResolver, DefaultResolver};
use snow::types::{Cipher, Dh, Hash, Random};

/// The Noise cipher key length.
const KEY_LEN: usize = 32;

/// Resolves `ChaChaPoly` (and `XChaChaPoly`) to ragged and every other choice through
/// snow's [`DefaultResolver`].
#[derive(Default)]
pub struct RaggedResolver {
    fallback: DefaultResolver,
}

impl RaggedResolver {
    /// The resolver, falling back to snow's default one.
    pub fn new() -> Self {
        Self::default()
    }
}

impl CryptoResolver for RaggedResolver {
    fn resolve_rng(&self) -> Option<Box<dyn Random>> {
        self.fallback.resolve_rng()
    }

    fn resolve_dh(&self, choice: &DHChoice) -> Option<Box<dyn Dh>> {
        self.fallback.resolve_dh(choice)
    }

    fn resolve_hash(&self, choice: &HashChoice) -> Option<Box<dyn Hash>> {
        self.fallback.resolve_hash(choice)
    }

    fn resolve_cipher(&self, choice: &CipherChoice) -> Option<Box<dyn Cipher>> {
        match choice {
            CipherChoice::ChaChaPoly => Some(Box::new(ChaChaPoly::default())),
            #[cfg(feature = "xchachapoly")]
            CipherChoice::XChaChaPoly => Some(Box::new(XChaChaPoly::default())),
            _ => self.fallback.resolve_cipher(choice),
        }
    }
}

/// snow's `ChaChaPoly` on ragged's ChaCha20-Poly1305.
#[derive(Default)]
pub struct ChaChaPoly {
    aead: Option<ChaCha20Poly1305>,
}

/// snow's `XChaChaPoly` on ragged's XChaCha20-Poly1305.
#[derive(Default)]
pub struct XChaChaPoly {
    aead: Option<XChaCha20Poly1305>,
}

/// The Noise nonce for counter `n` in an AEAD nonce of `N` bytes: zeros, then `n` as
/// 64-bit little endian in the last eight bytes.
fn noise_nonce<const N: usize>(n: u64) -> [u8; N] {
    let mut nonce = [0u8; N];
    nonce[N - 8..].copy_from_slice(&n.to_le_bytes());
    nonce
}

/// Implements snow's `Cipher` for one of ragged's AEAD types.
macro_rules! noise_cipher {
    ($ty:ident, $aead:ident, $name:literal, $nonce_len:literal) => {
        impl Cipher for $ty {
            fn name(&self) -> &'static str {
                $name
            }

            fn set(&mut self, key: &[u8; KEY_LEN]) {
                // The previous AEAD wipes its key as it drops.
                self.aead = Some($aead::new(key));
            }

            /// Writes `ciphertext ‖ tag` to `out`, which snow sizes to at least
            /// `plaintext.len() + 16` bytes; encrypts there in place.
            fn encrypt(
                &self,
                nonce: u64,
                authtext: &[u8],
                plaintext: &[u8],
                out: &mut [u8],
            ) -> usize {
                let aead = self
                    .aead
                    .as_ref()
                    .expect("snow sets a key before encrypting");
                let len = plaintext.len();
                let (body, rest) = out.split_at_mut(len);
                body.copy_from_slice(plaintext);
                // snow's messages are at most 65535 bytes, far below the AEAD's limit,
                // and snow's `Cipher::encrypt` has no error to give back.
                let tag = aead
                    .encrypt_in_place_detached(&noise_nonce::<$nonce_len>(nonce), authtext, body)
                    .expect("a Noise message is within the AEAD's length limit");
                rest[..TAG_LEN].copy_from_slice(&tag);
                len + TAG_LEN
            }

            /// Checks and decrypts `ciphertext ‖ tag` into `out`. On a forgery the
            /// error comes back and the bytes written to `out` are zeros.
            fn decrypt(
                &self,
                nonce: u64,
                authtext: &[u8],
                ciphertext: &[u8],
                out: &mut [u8],
            ) -> Result<usize, snow::Error> {
                let aead = self.aead.as_ref().ok_or(snow::Error::Decrypt)?;
                let len = ciphertext
                    .len()
                    .checked_sub(TAG_LEN)
                    .ok_or(snow::Error::Decrypt)?;
                let (body, tag) = ciphertext.split_at(len);
                let tag: &[u8; TAG_LEN] = tag.try_into().map_err(|_| snow::Error::Decrypt)?;
                let out = out.get_mut(..len).ok_or(snow::Error::Decrypt)?;
                out.copy_from_slice(body);
                aead.decrypt_in_place_detached(
                    &noise_nonce::<$nonce_len>(nonce),
                    authtext,
                    out,
                    tag,
                )
                .map_err(|_| snow::Error::Decrypt)?;
                Ok(len)
            }
        }
    };
}

noise_cipher!(ChaChaPoly, ChaCha20Poly1305, "ChaChaPoly", 12);
noise_cipher!(XChaChaPoly, XChaCha20Poly1305, "XChaChaPoly", 24);

// `rekey` is snow's default (Noise §4.2: encrypt 32 zero bytes at nonce 2^64 - 1 and
// take the first 32 bytes as the new key); it goes through `encrypt` and `set` above,
// so it runs on ragged too.
