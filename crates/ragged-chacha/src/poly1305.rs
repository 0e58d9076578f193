//! Poly1305 (RFC 8439 §2.5): the one-time authenticator, incremental and one-shot.

use core::fmt;

use subtle::{Choice, ConstantTimeEq};
use zeroize::ZeroizeOnDrop;

use crate::backend::MacRoute;
use crate::backend::generic::Absorb;
use crate::backend::poly1305::portable::tail_words;
use crate::backend::poly1305::{MacState, Poly1305Backend};
use crate::error::Error;
use crate::wipe::wipe;

/// Bytes in a Poly1305 key: `r` (clamped) then `s`.
pub const KEY_LEN: usize = 32;
/// Bytes in a Poly1305 tag.
pub const TAG_LEN: usize = 16;
/// Bytes Poly1305 absorbs at a time.
pub const BLOCK_LEN: usize = 16;

/// An incremental Poly1305 computation: feed the message with [`Poly1305::update`] in
/// pieces of any size, then [`Poly1305::finalize`]. Splitting the message differently
/// gives the same tag.
///
/// A Poly1305 key must authenticate **one** message only; the AEADs derive a fresh one
/// per nonce. The key, accumulator and buffered bytes are wiped on drop.
///
/// ```
/// use ragged_chacha::{poly1305, Poly1305};
///
/// let key = [7u8; 32];
/// let mut mac = Poly1305::new(&key);
/// mac.update(b"split ");
/// mac.update(b"anywhere");
/// assert_eq!(mac.finalize(), poly1305(&key, b"split anywhere"));
/// ```
#[derive(Clone)]
pub struct Poly1305 {
    state: MacState,
    s: [u8; 16],
    /// Message bytes not yet absorbed: `buffer[..buffered]`, fewer than 16.
    buffer: [u8; BLOCK_LEN],
    buffered: usize,
    route: MacRoute,
}

impl Poly1305 {
    /// A MAC keyed with `key` (`r ‖ s`), on the fastest backend the CPU has — and, on
    /// CPUs measured to run them faster there, shorter runs on the portable code.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        let mut r = [0u8; 16];
        let mut s = [0u8; 16];
        r.copy_from_slice(&key[..16]);
        s.copy_from_slice(&key[16..]);
        let state = MacState::new(&r);
        wipe(&mut r);
        Poly1305 {
            state,
            s,
            buffer: [0; BLOCK_LEN],
            buffered: 0,
            route: MacRoute::detect_standalone(),
        }
    }

    /// The same MAC running on `backend`, for every run it takes.
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_backend(mut self, backend: Poly1305Backend) -> Result<Self, Error> {
        self.route = MacRoute::pinned(backend.checked()?);
        Ok(self)
    }

    /// The backend this MAC runs on.
    pub fn backend(&self) -> Poly1305Backend {
        self.route.backend()
    }

    /// Absorbs `data`, continuing the message.
    pub fn update(&mut self, mut data: &[u8]) {
        if self.buffered != 0 {
            let take = data.len().min(BLOCK_LEN - self.buffered);
            self.buffer[self.buffered..self.buffered + take].copy_from_slice(&data[..take]);
            self.buffered += take;
            data = &data[take..];
            if self.buffered < BLOCK_LEN {
                return;
            }
            self.route.blocks(&mut self.state, &self.buffer);
            self.buffered = 0;
        }
        let full = data.len() - data.len() % BLOCK_LEN;
        if full != 0 {
            self.route.blocks(&mut self.state, &data[..full]);
        }
        let rest = &data[full..];
        // Byte by byte: fewer than 16, where `copy_from_slice` of a length known only
        // at run time is a call to `memcpy`.
        for (slot, &byte) in self.buffer.iter_mut().zip(rest) {
            *slot = byte;
        }
        self.buffered = rest.len();
    }

    /// Absorbs `data`, then zero bytes up to the next multiple of 16 of the message
    /// length so far: RFC 8439's `pad16`, as the AEAD uses after the AAD and the
    /// ciphertext.
    pub fn update_padded(&mut self, data: &[u8]) {
        self.update(data);
        if self.buffered != 0 {
            self.buffer[self.buffered..].fill(0);
            self.route.blocks(&mut self.state, &self.buffer);
            self.buffered = 0;
        }
    }

    /// The tag of everything absorbed.
    pub fn finalize(mut self) -> [u8; TAG_LEN] {
        if self.buffered != 0 {
            // The final partial block: a 1 byte after the message, zeros after that,
            // and no 2^128 bit; built in registers (no fill of the buffer).
            let n = self.buffered;
            let [mut w0, mut w1] = tail_words(&self.buffer[..n]);
            if n < 8 {
                w0 |= 1 << (8 * n);
            } else {
                w1 |= 1 << (8 * (n - 8));
            }
            self.state.block_words([w0, w1], 0);
        }
        self.state.finish(&self.s)
    }

    /// Checks the tag of everything absorbed against `expected` in constant time.
    ///
    /// # Errors
    /// [`Error::AuthenticationFailed`] if the tags differ.
    pub fn verify(self, expected: &[u8; TAG_LEN]) -> Result<(), Error> {
        let mut tag = self.finalize();
        let equal = tags_equal(&tag, expected);
        wipe(&mut tag);
        tag_verdict(equal, &mut [])
    }
}

/// Whether two tags are equal, in constant time: their [`tag_difference`] compared
/// with zero by `subtle`'s word comparison. `subtle`'s byte-slice comparison makes each
/// of the 16 bytes a volatile round trip through the stack, one after the other.
#[inline(always)]
pub(crate) fn tags_equal(a: &[u8; TAG_LEN], b: &[u8; TAG_LEN]) -> Choice {
    tag_difference(a, b).ct_eq(&0)
}

/// The bits in which two tags differ, folded into one 64-bit word (zero if and only if
/// they are equal), without a branch: many items' differences OR together into one
/// comparison.
#[inline(always)]
pub(crate) fn tag_difference(a: &[u8; TAG_LEN], b: &[u8; TAG_LEN]) -> u64 {
    let word = |t: &[u8; TAG_LEN], i: usize| {
        u64::from_le_bytes(t[8 * i..8 * i + 8].try_into().expect("8 bytes"))
    };
    (word(a, 0) ^ word(b, 0)) | (word(a, 1) ^ word(b, 1))
}

/// Turns the constant-time tag comparison into the public verdict: `Ok` if the tags
/// matched, else `wipe_on_mismatch` zeroed and [`Error::AuthenticationFailed`].
///
/// This is the crate's one declassification point. Everything up to the comparison
/// runs in constant time, but whether a tag matched must become public — the caller
/// accepts or refuses on it — so this function branches on it, and on nothing else.
/// The branch is kept inside (the wipe cannot be hoisted above it) and the function
/// out of line, so that Valgrind memcheck reports it under this name: the ct-check
/// (`scripts/ct-check`) allows exactly this function's conditional jump and no other.
#[inline(never)]
pub(crate) fn tag_verdict(equal: Choice, wipe_on_mismatch: &mut [u8]) -> Result<(), Error> {
    if bool::from(equal) {
        Ok(())
    } else {
        wipe_on_mismatch.fill(0);
        Err(Error::AuthenticationFailed)
    }
}

/// The AEAD's MAC as the one-pass seal drives it ([`Absorb`]): keyed from keystream
/// block 0, then the padded AAD, then the ciphertext's whole blocks as the kernel
/// finishes them; [`AeadMac::finish`] adds the padded last partial block and the
/// lengths. Every block of the AEAD's MAC input is a whole 16-byte block (the
/// padding sees to that), so no byte buffering is needed. Wiped on drop.
pub(crate) struct AeadMac<'a> {
    state: MacState,
    s: [u8; 16],
    aad: &'a [u8],
    route: MacRoute,
}

impl<'a> AeadMac<'a> {
    /// A MAC over `aad` and then the ciphertext, on `backend` (already checked
    /// available), waiting for its key.
    pub(crate) fn new(aad: &'a [u8], route: MacRoute) -> Self {
        AeadMac {
            state: MacState::new(&[0; 16]),
            s: [0; 16],
            aad,
            route,
        }
    }

    /// Absorbs `data` and the zeros up to its next multiple of 16 (`pad16`).
    #[inline(always)]
    fn absorb_padded(&mut self, data: &[u8]) {
        let whole = data.len() & !15;
        if whole != 0 {
            self.route.blocks(&mut self.state, &data[..whole]);
        }
        if whole != data.len() {
            self.state.block_words(tail_words(&data[whole..]), 1);
        }
    }

    /// The tag, given the whole `ciphertext` (of which the kernel has absorbed the
    /// whole blocks).
    #[inline(always)]
    pub(crate) fn finish(self, ciphertext: &[u8]) -> [u8; TAG_LEN] {
        let len = ciphertext.len();
        self.finish_tail(tail_words(&ciphertext[len & !15..]), len)
    }

    /// The tag of a `len`-byte ciphertext whose whole blocks the kernel has absorbed,
    /// given its last `len % 16` bytes as [`tail_words`] makes them (ignored when
    /// there are none).
    #[inline(always)]
    pub(crate) fn finish_tail(mut self, tail: [u64; 2], len: usize) -> [u8; TAG_LEN] {
        if !len.is_multiple_of(16) {
            self.state.block_words(tail, 1);
        }
        self.state
            .block_words([self.aad.len() as u64, len as u64], 1);
        self.state.finish(&self.s)
    }
}

impl Absorb for AeadMac<'_> {
    #[inline(always)]
    fn key(&mut self, block0: &[u8; 64]) {
        // `r` straight from the key block (the caller wipes it): no copy to wipe.
        let (r, rest) = block0.split_first_chunk::<16>().expect("64 bytes");
        self.state = MacState::new(r);
        self.s.copy_from_slice(&rest[..16]);
        let aad = self.aad;
        self.absorb_padded(aad);
    }

    #[inline(always)]
    fn absorb(&mut self, blocks: &[u8]) {
        self.route.blocks(&mut self.state, blocks);
    }

    #[inline(always)]
    fn absorb_scalar(&mut self, blocks: &[u8]) {
        self.state.blocks(blocks, 1);
    }
}

impl Drop for AeadMac<'_> {
    fn drop(&mut self) {
        self.state.wipe();
        wipe(&mut self.s);
    }
}

/// The Poly1305 tag of `message` under the one-time `key`.
pub fn poly1305(key: &[u8; KEY_LEN], message: &[u8]) -> [u8; TAG_LEN] {
    let mut mac = Poly1305::new(key);
    mac.update(message);
    mac.finalize()
}

impl fmt::Debug for Poly1305 {
    /// Shows the backend and buffer fill; never key material.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Poly1305")
            .field("backend", &self.backend())
            .field("buffered", &self.buffered)
            .finish_non_exhaustive()
    }
}

impl Drop for Poly1305 {
    fn drop(&mut self) {
        self.state.wipe();
        wipe(&mut self.s);
        wipe(&mut self.buffer);
    }
}

impl ZeroizeOnDrop for Poly1305 {}
