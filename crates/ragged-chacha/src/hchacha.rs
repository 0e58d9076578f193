//! HChaCha: derives a 256-bit subkey from a key and a 128-bit input (XChaCha's first step).

use crate::backend::portable::permute;
use crate::state::{SIGMA, double_rounds, le_word};
use crate::wipe::wipe;

/// HChaCha with `R` rounds (20 or 12 in practice; an odd `R` does not compile): the
/// ChaCha permutation of constants ‖ key ‖ input, keeping words 0..4 and 12..16 without
/// the final addition.
pub fn hchacha<const R: u32>(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    let mut words = [0u32; 16];
    words[..4].copy_from_slice(&SIGMA);
    for (w, chunk) in words[4..12].iter_mut().zip(key.chunks_exact(4)) {
        *w = le_word(chunk);
    }
    for (w, chunk) in words[12..].iter_mut().zip(input.chunks_exact(4)) {
        *w = le_word(chunk);
    }
    let mut mixed = permute(words, double_rounds::<R>());
    let mut out = [0u8; 32];
    for (i, w) in mixed[..4].iter().chain(&mixed[12..]).enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    wipe(&mut words);
    wipe(&mut mixed);
    out
}

/// HChaCha20 (draft-irtf-cfrg-xchacha-03 §2.2).
pub fn hchacha20(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    hchacha::<20>(key, input)
}

/// HChaCha12, the subkey step of XChaCha12.
pub fn hchacha12(key: &[u8; 32], input: &[u8; 16]) -> [u8; 32] {
    hchacha::<12>(key, input)
}
