//! Helpers shared by the fuzz targets: deterministic filler bytes, buffers with guard
//! zones, and a from-the-RFC ChaCha block function for the keystream blocks the
//! independent implementation cannot reach (RustCrypto stops one block before the
//! counter's end; ragged uses that last block too).

/// Fills `buf` with xorshift bytes from `seed`: message contents only need to differ
/// between inputs, and deriving them from a seed keeps the fuzz inputs short.
pub fn fill_pseudo_random(seed: u64, buf: &mut [u8]) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for chunk in buf.chunks_mut(8) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let word = s.to_le_bytes();
        chunk.copy_from_slice(&word[..chunk.len()]);
    }
}

/// `len` bytes from [`fill_pseudo_random`].
pub fn pseudo_random(seed: u64, len: usize) -> Vec<u8> {
    let mut v = vec![0; len];
    fill_pseudo_random(seed, &mut v);
    v
}

/// Bytes kept on each side of a region under test, so a write outside it shows.
pub const GUARD: usize = 64;

/// A region of `len` bytes at offset `GUARD + shift` inside a larger buffer whose
/// other bytes all hold `guard`: the shift moves the region's alignment, the guard
/// bytes reveal any write before or after it.
pub struct Guarded {
    storage: Vec<u8>,
    start: usize,
    len: usize,
    guard: u8,
}

impl Guarded {
    /// A region holding `contents`, shifted by `shift` bytes (any value; it is taken
    /// modulo 64), surrounded by `guard` bytes.
    pub fn new(contents: &[u8], shift: usize, guard: u8) -> Self {
        let start = GUARD + shift % 64;
        let mut storage = vec![guard; start + contents.len() + GUARD];
        storage[start..start + contents.len()].copy_from_slice(contents);
        Guarded {
            storage,
            start,
            len: contents.len(),
            guard,
        }
    }

    /// The region.
    pub fn region(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }

    /// The region, writable.
    pub fn region_mut(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }

    /// Panics with `what` if any byte outside the region changed.
    pub fn assert_guards(&self, what: &dyn core::fmt::Debug) {
        let before = &self.storage[..self.start];
        let after = &self.storage[self.start + self.len..];
        if let Some(i) = before.iter().position(|&b| b != self.guard) {
            panic!("{what:?}: wrote {} bytes before the region", self.start - i);
        }
        if let Some(i) = after.iter().position(|&b| b != self.guard) {
            panic!("{what:?}: wrote byte {i} past the region");
        }
    }
}

#[path = "../../crates/ragged-chacha/tests/common/rfc_block.rs"]
mod rfc_block;

/// The ChaCha block function of RFC 8439 §2.3, written from the RFC: the 64-byte
/// keystream block for `key`, state words 12..16 `tail` (counter and nonce words in
/// the variant's layout) and `rounds` rounds.
pub fn chacha_block(key: &[u8; 32], tail: [u32; 4], rounds: u32) -> [u8; 64] {
    let mut input = [0u32; 16];
    input[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for (word, bytes) in input[4..12].iter_mut().zip(key.chunks_exact(4)) {
        *word = u32::from_le_bytes(bytes.try_into().expect("4-byte chunk"));
    }
    input[12..].copy_from_slice(&tail);

    rfc_block::reference_block(input, rounds)
}

/// Little-endian word `i` of `bytes`.
pub fn le_word(bytes: &[u8], i: usize) -> u32 {
    u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().expect("4 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 §2.3.2: the block function's test vector.
    #[test]
    fn rfc8439_block_vector() {
        let key: [u8; 32] = core::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let block = chacha_block(
            &key,
            [
                1,
                le_word(&nonce, 0),
                le_word(&nonce, 1),
                le_word(&nonce, 2),
            ],
            20,
        );
        assert_eq!(
            &block[..16],
            &[
                0x10, 0xf1, 0xe7, 0xe4, 0xd1, 0x3b, 0x59, 0x15, 0x50, 0x0f, 0xdd, 0x1f, 0xa3, 0x20,
                0x71, 0xc4
            ]
        );
        // The whole block against RustCrypto's keystream at byte 64 (block 1).
        use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
        let mut rc = chacha20::ChaCha20::new(&key.into(), &nonce.into());
        rc.seek(64u32);
        let mut expected = [0u8; 64];
        rc.apply_keystream(&mut expected);
        assert_eq!(block, expected);
    }
}
