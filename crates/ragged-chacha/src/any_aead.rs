//! The AEADs as a runtime choice, for callers that pick one by name (the CLI, the
//! self-test, the known-answer checker, benchmarks).

use crate::aead::TAG_LEN;
use crate::backend::Backend;
use crate::backend::poly1305::Poly1305Backend;
use crate::error::Error;
use crate::{ChaCha20Poly1305, XChaCha20Poly1305};

/// One of the AEADs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum AeadKind {
    /// [`ChaCha20Poly1305`]: RFC 8439, 12-byte nonce.
    ChaCha20Poly1305,
    /// [`XChaCha20Poly1305`]: draft-irtf-cfrg-xchacha-03, 24-byte nonce.
    XChaCha20Poly1305,
}

impl AeadKind {
    /// Every AEAD, in a stable order.
    pub const ALL: [AeadKind; 2] = [AeadKind::ChaCha20Poly1305, AeadKind::XChaCha20Poly1305];

    /// The CLI name: `chacha20-poly1305` or `xchacha20-poly1305`.
    pub fn name(self) -> &'static str {
        match self {
            AeadKind::ChaCha20Poly1305 => "chacha20-poly1305",
            AeadKind::XChaCha20Poly1305 => "xchacha20-poly1305",
        }
    }

    /// The AEAD called `name` (see [`AeadKind::name`]).
    pub fn from_name(name: &str) -> Option<AeadKind> {
        AeadKind::ALL.into_iter().find(|a| a.name() == name)
    }

    /// Nonce length in bytes: 12 or 24.
    pub fn nonce_len(self) -> usize {
        match self {
            AeadKind::ChaCha20Poly1305 => 12,
            AeadKind::XChaCha20Poly1305 => 24,
        }
    }
}

/// A keyed AEAD of any [`AeadKind`], taking nonces as slices.
///
/// For a choice made at run time (the CLI, the self-test). Per packet in a hot loop,
/// prefer the typed [`ChaCha20Poly1305`] or [`XChaCha20Poly1305`]: every call through
/// this enum takes the nonce as a slice and checks its length, and the compiler reads
/// the byte-aligned enum in pieces. That is a small fixed cost per call, visible on
/// short messages, and larger when an `AnyAead` is made per message.
// Measured in 04df652; the figures are in docs/tuning.md (AEAD).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyAead {
    /// See [`ChaCha20Poly1305`].
    ChaCha20Poly1305(ChaCha20Poly1305),
    /// See [`XChaCha20Poly1305`].
    XChaCha20Poly1305(XChaCha20Poly1305),
}

/// Runs `$e` with `$a` bound to the AEAD and `$n` to the nonce as the right array.
macro_rules! with_nonce {
    ($self:expr, $nonce:expr, $a:ident, $n:ident => $e:expr) => {
        match $self {
            AnyAead::ChaCha20Poly1305($a) => {
                let $n = nonce_array::<12>($nonce)?;
                $e
            }
            AnyAead::XChaCha20Poly1305($a) => {
                let $n = nonce_array::<24>($nonce)?;
                $e
            }
        }
    };
}

fn nonce_array<const N: usize>(nonce: &[u8]) -> Result<[u8; N], Error> {
    nonce.try_into().map_err(|_| Error::NonceLength {
        expected: N,
        actual: nonce.len(),
    })
}

impl AnyAead {
    /// The AEAD `kind` for `key`, on the fastest backends the CPU has.
    pub fn new(kind: AeadKind, key: &[u8; 32]) -> AnyAead {
        match kind {
            AeadKind::ChaCha20Poly1305 => AnyAead::ChaCha20Poly1305(ChaCha20Poly1305::new(key)),
            AeadKind::XChaCha20Poly1305 => AnyAead::XChaCha20Poly1305(XChaCha20Poly1305::new(key)),
        }
    }

    /// Which AEAD this is.
    pub fn kind(&self) -> AeadKind {
        match self {
            AnyAead::ChaCha20Poly1305(_) => AeadKind::ChaCha20Poly1305,
            AnyAead::XChaCha20Poly1305(_) => AeadKind::XChaCha20Poly1305,
        }
    }

    /// See [`crate::ChaChaPoly1305::with_backend`].
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_backend(self, backend: Backend) -> Result<Self, Error> {
        Ok(match self {
            AnyAead::ChaCha20Poly1305(a) => AnyAead::ChaCha20Poly1305(a.with_backend(backend)?),
            AnyAead::XChaCha20Poly1305(a) => AnyAead::XChaCha20Poly1305(a.with_backend(backend)?),
        })
    }

    /// See [`crate::ChaChaPoly1305::with_mac_backend`].
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_mac_backend(self, backend: Poly1305Backend) -> Result<Self, Error> {
        Ok(match self {
            AnyAead::ChaCha20Poly1305(a) => AnyAead::ChaCha20Poly1305(a.with_mac_backend(backend)?),
            AnyAead::XChaCha20Poly1305(a) => {
                AnyAead::XChaCha20Poly1305(a.with_mac_backend(backend)?)
            }
        })
    }

    /// See [`crate::ChaChaPoly1305::encrypt_in_place_detached`].
    ///
    /// # Errors
    /// As there, and [`Error::NonceLength`] (with `buf` untouched) for a nonce of the
    /// wrong length.
    pub fn encrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        with_nonce!(self, nonce, a, n => a.encrypt_in_place_detached(&n, aad, buf))
    }

    /// See [`crate::ChaChaPoly1305::decrypt_in_place_detached`].
    ///
    /// # Errors
    /// As there, and [`Error::NonceLength`] (with `buf` untouched) for a nonce of the
    /// wrong length.
    pub fn decrypt_in_place_detached(
        &self,
        nonce: &[u8],
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        with_nonce!(self, nonce, a, n => a.decrypt_in_place_detached(&n, aad, buf, tag))
    }

    /// See [`crate::ChaChaPoly1305::one_time_key`].
    ///
    /// # Errors
    /// [`Error::NonceLength`] for a nonce of the wrong length.
    pub fn one_time_key(&self, nonce: &[u8]) -> Result<[u8; 32], Error> {
        with_nonce!(self, nonce, a, n => Ok(a.one_time_key(&n)))
    }
}
