//! The one error type of the crate.

use core::fmt;

/// Why a keystream operation was refused. When an operation returns an error,
/// nothing has been written to its output and the cipher's position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The request needs keystream past the last block the counter can address
    /// (block 0xffffffff for the RFC 8439 ciphers, block 2^64 - 1 for the others).
    KeystreamExhausted {
        /// Bytes that were asked for.
        requested: u128,
        /// Bytes of keystream left before the end.
        remaining: u128,
    },
    /// Input and output of an out-of-place operation have different lengths.
    LengthMismatch {
        /// Length of the input slice.
        input: usize,
        /// Length of the output slice.
        output: usize,
    },
    /// A nonce of the wrong length for the chosen cipher.
    NonceLength {
        /// The length the cipher takes.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// The requested backend needs CPU features this machine lacks.
    BackendUnavailable {
        /// The backend's name.
        backend: &'static str,
    },
    /// A seek target lies beyond the end of the keystream.
    SeekOutOfRange {
        /// The byte position asked for.
        position: u128,
        /// The keystream's length in bytes.
        end: u128,
    },
    /// An AEAD tag did not match: the ciphertext, AAD, nonce or tag was altered, or
    /// the key is wrong. The AEADs overwrite the buffer with zeros before returning it.
    AuthenticationFailed,
    /// An AEAD message longer than RFC 8439 allows: (2^32 - 1) blocks of 64 bytes, as
    /// block 0 of the keystream is spent on the one-time Poly1305 key.
    MessageTooLong {
        /// The message length in bytes.
        length: u64,
        /// The longest message allowed, 274,877,906,880 bytes.
        max: u64,
    },
    /// A burst (`seal_burst`, `open_burst`, `xor_burst`, [`crate::Burst`]) was refused
    /// whole, before any item was written, because item `index` is invalid: the first
    /// such item. `requested` is what it asks for, `allowed` the most it may: AEAD
    /// message bytes against the AEAD's limit, or keystream bytes from its counter
    /// against what remains before the counter's end.
    InvalidBurstItem {
        /// The index of the first invalid item in the burst.
        index: usize,
        /// Bytes the item asks for.
        requested: u128,
        /// Bytes the item may ask for at most.
        allowed: u128,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::KeystreamExhausted {
                requested,
                remaining,
            } => write!(
                f,
                "keystream exhausted: {requested} bytes requested but only {remaining} remain before the block counter would wrap"
            ),
            Error::LengthMismatch { input, output } => write!(
                f,
                "input and output lengths differ: input is {input} bytes, output is {output} bytes"
            ),
            Error::NonceLength { expected, actual } => {
                write!(f, "nonce must be {expected} bytes, got {actual}")
            }
            Error::BackendUnavailable { backend } => {
                write!(
                    f,
                    "the {backend} backend needs CPU features this machine lacks"
                )
            }
            Error::SeekOutOfRange { position, end } => write!(
                f,
                "seek position {position} is beyond the end of the keystream ({end} bytes)"
            ),
            Error::AuthenticationFailed => f.write_str("authentication failed"),
            Error::MessageTooLong { length, max } => write!(
                f,
                "message of {length} bytes is longer than the AEAD allows ({max} bytes)"
            ),
            Error::InvalidBurstItem {
                index,
                requested,
                allowed,
            } => write!(
                f,
                "burst refused, nothing written: item {index} asks for {requested} bytes, at most {allowed} are allowed"
            ),
        }
    }
}

impl core::error::Error for Error {}
