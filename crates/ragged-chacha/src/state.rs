//! The 16-word ChaCha input state shared by every variant and backend.

use crate::wipe::wipe;
use zeroize::ZeroizeOnDrop;

/// "expand 32-byte k" as four little-endian words.
pub(crate) const SIGMA: [u32; 4] = [0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574];

/// The cipher input of one key and nonce, in the form every backend consumes.
/// (Public only so the sealed variant trait can name it; not reachable outside.)
///
/// `words[12]` is always 0: the backend writes the low half of each block counter
/// there. The backend adds the high half of the block counter to `words[13]`, which
/// holds the first nonce word for RFC 8439 (where the caller guarantees the high half
/// is 0 for every block it uses) and 0 for the 64-bit-counter variants (where the
/// addition is the carry from word 12 into word 13).
#[derive(Clone)]
pub struct State {
    pub(crate) words: [u32; 16],
    pub(crate) double_rounds: u32,
}

impl State {
    /// Builds the state from a key, the words 13..16 (nonce, or counter-high + nonce) and
    /// the number of double rounds (see [`double_rounds`]).
    pub(crate) fn new(key: &[u8; 32], tail: [u32; 3], double_rounds: u32) -> Self {
        let mut words = [0u32; 16];
        Self::write_words(key, tail, &mut words);
        State {
            words,
            double_rounds,
        }
    }

    /// Word `i`, read on its own: one 4-byte load, never merged with its neighbours'.
    ///
    /// A kernel mostly reads a state its caller has just built with stores of 4 to 16
    /// bytes. A load that lies within one store is forwarded from it; left to itself,
    /// LLVM reads neighbouring words as one 8-byte load, and where that load spans two
    /// stores it waits until both have reached the cache, delaying the batch that
    /// needs it (measured in the commit that added this; docs/tuning.md). A volatile
    /// read is neither merged nor widened.
    #[inline(always)]
    pub(crate) fn word(&self, i: usize) -> u32 {
        // SAFETY: a reference to an initialised, aligned word of `self`.
        unsafe { core::ptr::read_volatile(&self.words[i]) }
    }

    /// The words of [`State::new`] into `words`.
    #[inline(always)]
    pub(crate) fn write_words(key: &[u8; 32], tail: [u32; 3], words: &mut [u32; 16]) {
        words[..4].copy_from_slice(&SIGMA);
        let key_words = &mut words[4..12];
        if cfg!(target_endian = "little") {
            // The key's bytes are its words: one 32-byte copy, where the loop below
            // compiles to eight loads and eight stores (a burst's lane refill writes
            // a state a job).
            // SAFETY: `key_words` is 8 writable words (32 bytes, any bytes a valid
            // word) and `key` 32 readable bytes; a shared and a unique borrow do not
            // overlap.
            unsafe {
                core::ptr::copy_nonoverlapping(
                    key.as_ptr(),
                    key_words.as_mut_ptr().cast::<u8>(),
                    32,
                )
            };
        } else {
            for (w, chunk) in key_words.iter_mut().zip(key.chunks_exact(4)) {
                *w = le_word(chunk);
            }
        }
        words[12] = 0;
        words[13..16].copy_from_slice(&tail);
    }
}

impl Drop for State {
    fn drop(&mut self) {
        wipe(&mut self.words);
    }
}

impl ZeroizeOnDrop for State {}

/// The double rounds of an `R`-round ChaCha. An odd `R` does not compile: the rounds run
/// in column-and-diagonal pairs, so an odd count would silently lose its last round.
pub(crate) const fn double_rounds<const R: u32>() -> u32 {
    const {
        assert!(
            R.is_multiple_of(2),
            "ChaCha runs whole double rounds: the round count must be even"
        )
    };
    R / 2
}

/// Reads a little-endian word from the first four bytes of `bytes`.
#[inline(always)]
pub(crate) fn le_word(bytes: &[u8]) -> u32 {
    u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}
