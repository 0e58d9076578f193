//! The ChaCha family as a runtime choice, for callers that pick a cipher by name
//! (the CLI, the self-test, benchmarks).

use crate::backend::Backend;
use crate::error::Error;
use crate::{ChaCha8, ChaCha12, ChaCha20, ChaCha20Legacy, XChaCha12, XChaCha20};

/// One member of the ChaCha family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CipherKind {
    /// [`ChaCha20`]: RFC 8439.
    ChaCha20,
    /// [`ChaCha12`].
    ChaCha12,
    /// [`ChaCha8`].
    ChaCha8,
    /// [`ChaCha20Legacy`]: 64-bit nonce and counter.
    ChaCha20Legacy,
    /// [`XChaCha20`].
    XChaCha20,
    /// [`XChaCha12`].
    XChaCha12,
}

impl CipherKind {
    /// Every member, in a stable order.
    pub const ALL: [CipherKind; 6] = [
        CipherKind::ChaCha20,
        CipherKind::ChaCha12,
        CipherKind::ChaCha8,
        CipherKind::ChaCha20Legacy,
        CipherKind::XChaCha20,
        CipherKind::XChaCha12,
    ];

    /// The CLI name: `chacha20`, `chacha12`, `chacha8`, `chacha20-legacy`, `xchacha20`,
    /// `xchacha12`.
    pub fn name(self) -> &'static str {
        match self {
            CipherKind::ChaCha20 => "chacha20",
            CipherKind::ChaCha12 => "chacha12",
            CipherKind::ChaCha8 => "chacha8",
            CipherKind::ChaCha20Legacy => "chacha20-legacy",
            CipherKind::XChaCha20 => "xchacha20",
            CipherKind::XChaCha12 => "xchacha12",
        }
    }

    /// The member called `name` (see [`CipherKind::name`]).
    pub fn from_name(name: &str) -> Option<CipherKind> {
        CipherKind::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Nonce length in bytes: 12, 8 or 24.
    pub fn nonce_len(self) -> usize {
        match self {
            CipherKind::ChaCha20 | CipherKind::ChaCha12 | CipherKind::ChaCha8 => 12,
            CipherKind::ChaCha20Legacy => 8,
            CipherKind::XChaCha20 | CipherKind::XChaCha12 => 24,
        }
    }

    /// Whether the block counter is 64 bits wide (else 32).
    pub fn wide_counter(self) -> bool {
        self.nonce_len() != 12
    }
}

/// A cipher of any [`CipherKind`], keyed and positioned.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum AnyCipher {
    /// See [`ChaCha20`].
    ChaCha20(ChaCha20),
    /// See [`ChaCha12`].
    ChaCha12(ChaCha12),
    /// See [`ChaCha8`].
    ChaCha8(ChaCha8),
    /// See [`ChaCha20Legacy`].
    ChaCha20Legacy(ChaCha20Legacy),
    /// See [`XChaCha20`].
    XChaCha20(XChaCha20),
    /// See [`XChaCha12`].
    XChaCha12(XChaCha12),
}

/// Runs the same expression on whichever cipher the enum holds.
macro_rules! each {
    ($self:expr, $c:ident => $e:expr) => {
        match $self {
            AnyCipher::ChaCha20($c) => $e,
            AnyCipher::ChaCha12($c) => $e,
            AnyCipher::ChaCha8($c) => $e,
            AnyCipher::ChaCha20Legacy($c) => $e,
            AnyCipher::XChaCha20($c) => $e,
            AnyCipher::XChaCha12($c) => $e,
        }
    };
}

/// `nonce` as the array a variant takes, or [`Error::NonceLength`]: the length check
/// and the conversion are one step, so no unreachable panic is left behind.
fn nonce_array<const N: usize>(nonce: &[u8]) -> Result<&[u8; N], Error> {
    nonce.try_into().map_err(|_| Error::NonceLength {
        expected: N,
        actual: nonce.len(),
    })
}

impl AnyCipher {
    /// The cipher `kind` for this key and nonce, starting at block `counter`.
    ///
    /// # Errors
    /// [`Error::NonceLength`] for a nonce of the wrong length, [`Error::SeekOutOfRange`]
    /// for a counter past a 32-bit counter's end.
    pub fn new(
        kind: CipherKind,
        key: &[u8; 32],
        nonce: &[u8],
        counter: u64,
    ) -> Result<Self, Error> {
        let mut cipher = match kind {
            CipherKind::ChaCha20 => AnyCipher::ChaCha20(ChaCha20::new(key, nonce_array(nonce)?)),
            CipherKind::ChaCha12 => AnyCipher::ChaCha12(ChaCha12::new(key, nonce_array(nonce)?)),
            CipherKind::ChaCha8 => AnyCipher::ChaCha8(ChaCha8::new(key, nonce_array(nonce)?)),
            CipherKind::ChaCha20Legacy => {
                AnyCipher::ChaCha20Legacy(ChaCha20Legacy::new(key, nonce_array(nonce)?))
            }
            CipherKind::XChaCha20 => AnyCipher::XChaCha20(XChaCha20::new(key, nonce_array(nonce)?)),
            CipherKind::XChaCha12 => AnyCipher::XChaCha12(XChaCha12::new(key, nonce_array(nonce)?)),
        };
        cipher.try_seek(u128::from(counter) * 64)?;
        Ok(cipher)
    }

    /// Which member this is.
    pub fn kind(&self) -> CipherKind {
        match self {
            AnyCipher::ChaCha20(_) => CipherKind::ChaCha20,
            AnyCipher::ChaCha12(_) => CipherKind::ChaCha12,
            AnyCipher::ChaCha8(_) => CipherKind::ChaCha8,
            AnyCipher::ChaCha20Legacy(_) => CipherKind::ChaCha20Legacy,
            AnyCipher::XChaCha20(_) => CipherKind::XChaCha20,
            AnyCipher::XChaCha12(_) => CipherKind::XChaCha12,
        }
    }

    /// The same cipher on `backend`; see [`crate::ChaCha::with_backend`].
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_backend(self, backend: Backend) -> Result<Self, Error> {
        Ok(match self {
            AnyCipher::ChaCha20(c) => AnyCipher::ChaCha20(c.with_backend(backend)?),
            AnyCipher::ChaCha12(c) => AnyCipher::ChaCha12(c.with_backend(backend)?),
            AnyCipher::ChaCha8(c) => AnyCipher::ChaCha8(c.with_backend(backend)?),
            AnyCipher::ChaCha20Legacy(c) => AnyCipher::ChaCha20Legacy(c.with_backend(backend)?),
            AnyCipher::XChaCha20(c) => AnyCipher::XChaCha20(c.with_backend(backend)?),
            AnyCipher::XChaCha12(c) => AnyCipher::XChaCha12(c.with_backend(backend)?),
        })
    }

    /// See [`crate::ChaCha::try_apply_keystream`].
    ///
    /// # Errors
    /// [`Error::KeystreamExhausted`], with nothing written.
    pub fn try_apply_keystream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        each!(self, c => c.try_apply_keystream(buf))
    }

    /// See [`crate::ChaCha::try_apply_keystream_b2b`].
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] or [`Error::KeystreamExhausted`], with nothing written.
    pub fn try_apply_keystream_b2b(
        &mut self,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        each!(self, c => c.try_apply_keystream_b2b(input, output))
    }

    /// See [`crate::ChaCha::try_seek`].
    ///
    /// # Errors
    /// [`Error::SeekOutOfRange`], with the position unchanged.
    pub fn try_seek(&mut self, pos: u128) -> Result<(), Error> {
        each!(self, c => c.try_seek(pos))
    }

    /// See [`crate::ChaCha::current_pos`].
    pub fn current_pos(&self) -> u128 {
        each!(self, c => c.current_pos())
    }

    /// See [`crate::ChaCha::remaining`].
    pub fn remaining(&self) -> u128 {
        each!(self, c => c.remaining())
    }

    /// See [`crate::ChaCha::backend`].
    pub fn backend(&self) -> Backend {
        each!(self, c => c.backend())
    }
}
