//! The safe, stateful stream cipher: key, nonce, position, and unused keystream.

use core::fmt;
use core::marker::PhantomData;

use zeroize::ZeroizeOnDrop;

use crate::backend::{Backend, Route};
use crate::error::Error;
use crate::state::State;
use crate::variant::Variant;
use crate::variant::sealed::Sealed;
use crate::wipe::wipe;

/// A ChaCha stream cipher of variant `V`; see the aliases [`crate::ChaCha20`] and
/// friends.
///
/// Splitting a message across calls at any points gives the bytes of one call: the
/// cipher keeps its byte position, and recomputes the keystream block a call stopped
/// in only when the next call needs it, so a one-shot message pays for no extra block.
pub struct ChaCha<V: Variant> {
    state: State,
    /// The backend, and for a detected one the lengths this CPU runs faster on the
    /// portable path.
    route: Route,
    /// Absolute keystream position in bytes (block `pos / 64`, byte `pos % 64`).
    pos: u128,
    /// Keystream of block `buffered_block`, when that is `Some`.
    buffer: [u8; 64],
    /// Which block `buffer` holds. The buffer is used only for the block the position
    /// is in, checked on every use: a position and a buffer can never disagree, however
    /// calls and seeks are interleaved (a flag that meant "the buffer is the current
    /// block's" once went stale when a call ended on a block edge and a seek then moved
    /// inside the next block, which XORed the previous block's keystream again).
    buffered_block: Option<u64>,
    /// Whether `buffer` has ever held keystream (else it is still all zeros and drop
    /// need not wipe it: a one-shot message never pays for the wipe).
    buffer_used: bool,
    variant: PhantomData<V>,
}

impl<V: Variant> ChaCha<V> {
    /// The cipher for this key and nonce, at block 0, on the fastest backend the CPU has
    /// — and, on CPUs measured to run them faster there, calls shorter than a few
    /// blocks on a narrower path and long calls on another plan of the same
    /// instruction set (the choice is made once per process).
    pub fn new(key: &[u8; 32], nonce: &V::Nonce) -> Self {
        ChaCha {
            state: <V as Sealed>::state(key, nonce.as_ref()),
            route: Route::detect(),
            pos: 0,
            buffer: [0; 64],
            buffered_block: None,
            buffer_used: false,
            variant: PhantomData,
        }
    }

    /// The cipher for this key and nonce, starting at block `counter`.
    pub fn with_counter(key: &[u8; 32], nonce: &V::Nonce, counter: V::Counter) -> Self {
        let mut cipher = Self::new(key, nonce);
        // A counter of the variant's own width is always within (or exactly at the
        // end of) its keystream, so this cannot fail.
        cipher.pos = u128::from(counter.into()) * 64;
        cipher
    }

    /// The same cipher running on `backend`, for every length.
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_backend(mut self, backend: Backend) -> Result<Self, Error> {
        if !backend.is_available() {
            return Err(Error::BackendUnavailable {
                backend: backend.name(),
            });
        }
        self.route = Route::pinned(backend);
        Ok(self)
    }

    /// Switches to `route`, whose backend the caller has already checked is available.
    pub(crate) fn set_route(&mut self, route: Route) {
        debug_assert!(route.backend().is_available());
        self.route = route;
    }

    /// The backend this cipher runs on (a detected one may leave short calls to the
    /// portable path, and long ones to another plan; see [`ChaCha::new`] and
    /// [`ChaCha::backend_for`]).
    pub fn backend(&self) -> Backend {
        self.route.backend()
    }

    /// The backend a call of `len` bytes runs on: [`ChaCha::backend`], or where this
    /// core's measured crossovers say so, a faster one for short or long calls.
    pub fn backend_for(&self, len: usize) -> Backend {
        self.route.xor_backend(len)
    }

    /// XORs the keystream into `buf` in place.
    ///
    /// # Panics
    /// If `buf` needs keystream past the end of the block counter (nothing is written
    /// then). Use [`ChaCha::try_apply_keystream`] to get an error instead.
    pub fn apply_keystream(&mut self, buf: &mut [u8]) {
        if let Err(e) = self.try_apply_keystream(buf) {
            panic!("{} {e}", V::NAME);
        }
    }

    /// XORs the keystream into `buf` in place.
    ///
    /// # Errors
    /// [`Error::KeystreamExhausted`] if `buf` needs keystream past the end of the block
    /// counter; nothing is written and the position is unchanged then.
    pub fn try_apply_keystream(&mut self, buf: &mut [u8]) -> Result<(), Error> {
        self.check_remaining(buf.len())?;
        let len = buf.len();
        let ptr = buf.as_mut_ptr();
        // SAFETY: in place: input and output are the same `len` bytes of `buf`.
        unsafe { self.xor_unchecked(ptr, ptr, len) };
        Ok(())
    }

    /// Writes `input` XOR keystream to `output`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] (writing nothing) if the lengths differ.
    ///
    /// # Panics
    /// If the message needs keystream past the end of the block counter (nothing is
    /// written then). Use [`ChaCha::try_apply_keystream_b2b`] to get an error instead.
    pub fn apply_keystream_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Error> {
        match self.try_apply_keystream_b2b(input, output) {
            Err(e @ Error::KeystreamExhausted { .. }) => panic!("{} {e}", V::NAME),
            other => other,
        }
    }

    /// Writes `input` XOR keystream to `output`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] if the lengths differ, [`Error::KeystreamExhausted`] if
    /// the message needs keystream past the end of the block counter; nothing is
    /// written and the position is unchanged then.
    pub fn try_apply_keystream_b2b(
        &mut self,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<(), Error> {
        if input.len() != output.len() {
            return Err(Error::LengthMismatch {
                input: input.len(),
                output: output.len(),
            });
        }
        self.check_remaining(input.len())?;
        // SAFETY: `input` and `output` are distinct borrows (so disjoint) of `len` bytes.
        unsafe { self.xor_unchecked(input.as_ptr(), output.as_mut_ptr(), input.len()) };
        Ok(())
    }

    /// The current keystream position in bytes from the start of block 0.
    pub fn current_pos(&self) -> u128 {
        self.pos
    }

    /// Bytes of keystream left before the block counter's end.
    pub fn remaining(&self) -> u128 {
        V::BLOCKS * 64 - self.pos
    }

    /// Moves to keystream byte `pos` (the end of the keystream itself is allowed).
    ///
    /// # Panics
    /// If `pos` is beyond the end; see [`ChaCha::try_seek`].
    pub fn seek(&mut self, pos: u128) {
        if let Err(e) = self.try_seek(pos) {
            panic!("{} {e}", V::NAME);
        }
    }

    /// Moves to keystream byte `pos` (the end of the keystream itself is allowed).
    ///
    /// # Errors
    /// [`Error::SeekOutOfRange`] if `pos` is beyond the end; the position is unchanged.
    pub fn try_seek(&mut self, pos: u128) -> Result<(), Error> {
        let end = V::BLOCKS * 64;
        if pos > end {
            return Err(Error::SeekOutOfRange { position: pos, end });
        }
        // The buffer stays: it names its block, so it is reused only if the new
        // position falls inside that block.
        self.pos = pos;
        Ok(())
    }

    fn check_remaining(&self, len: usize) -> Result<(), Error> {
        let remaining = self.remaining();
        if len as u128 > remaining {
            return Err(Error::KeystreamExhausted {
                requested: len as u128,
                remaining,
            });
        }
        Ok(())
    }

    /// XORs keystream from the current position into `len` bytes and advances.
    ///
    /// # Safety
    /// `input` readable and `output` writable for `len` bytes, equal or disjoint;
    /// `len <= self.remaining()`.
    unsafe fn xor_unchecked(&mut self, input: *const u8, output: *mut u8, len: usize) {
        let mut done = 0;
        let offset = (self.pos % 64) as usize;
        if offset != 0 && len != 0 {
            // Mid-block, so the block exists and its index fits in u64.
            let block = (self.pos / 64) as u64;
            if self.buffered_block != Some(block) {
                self.fill_buffer(block);
            }
            let take = len.min(64 - offset);
            for i in 0..take {
                // SAFETY: `i < take <= len`, within both buffers.
                unsafe { *output.add(i) = *input.add(i) ^ self.buffer[offset + i] };
            }
            done = take;
            self.pos += take as u128;
        }
        if done < len {
            // `pos` is block-aligned here and before the end, so the block index fits
            // in u64; the remaining check keeps every block within the counter's range.
            let counter = (self.pos / 64) as u64;
            // SAFETY: the caller's contract, offset by `done < len` bytes; the backend
            // was checked available when chosen; the range check above bounds the blocks.
            unsafe {
                self.route.xor_keystream(
                    &self.state,
                    counter,
                    input.add(done),
                    output.add(done),
                    len - done,
                )
            };
            self.pos += (len - done) as u128;
        }
    }

    /// Computes the keystream of `block` into `buffer`.
    fn fill_buffer(&mut self, block: u64) {
        self.buffer = [0; 64];
        let ptr = self.buffer.as_mut_ptr();
        // SAFETY: in place on the 64-byte buffer; the caller passes the block the
        // position is in, mid-block, so the block is before the end of the keystream.
        unsafe { self.route.xor_keystream(&self.state, block, ptr, ptr, 64) };
        self.buffered_block = Some(block);
        self.buffer_used = true;
    }
}

impl<V: Variant> Clone for ChaCha<V> {
    fn clone(&self) -> Self {
        ChaCha {
            state: self.state.clone(),
            route: self.route,
            pos: self.pos,
            buffer: self.buffer,
            buffered_block: self.buffered_block,
            buffer_used: self.buffer_used,
            variant: PhantomData,
        }
    }
}

impl<V: Variant> fmt::Debug for ChaCha<V> {
    /// Shows the variant, backend and position; never key material.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChaCha")
            .field("variant", &V::NAME)
            .field("backend", &self.route.backend())
            .field("pos", &self.pos)
            .finish_non_exhaustive()
    }
}

impl<V: Variant> Drop for ChaCha<V> {
    fn drop(&mut self) {
        if self.buffer_used {
            wipe(&mut self.buffer);
        }
    }
}

impl<V: Variant> ZeroizeOnDrop for ChaCha<V> {}
