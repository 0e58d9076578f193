//! Helpers shared by the integration tests: an independent reference (RustCrypto's
//! `chacha20`) and deterministic test data.
#![allow(dead_code)]

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use ragged_chacha::CipherKind;

/// `len` bytes of keystream-XOR from RustCrypto's implementation of `kind`, starting at
/// keystream byte `pos`.
pub fn reference(kind: CipherKind, key: &[u8; 32], nonce: &[u8], pos: u64, data: &[u8]) -> Vec<u8> {
    let mut out = data.to_vec();
    macro_rules! run {
        ($t:ty) => {{
            let mut c = <$t>::new(key.into(), nonce.try_into().unwrap());
            c.seek(pos);
            c.apply_keystream(&mut out);
        }};
    }
    match kind {
        CipherKind::ChaCha20 => run!(chacha20::ChaCha20),
        CipherKind::ChaCha12 => run!(chacha20::ChaCha12),
        CipherKind::ChaCha8 => run!(chacha20::ChaCha8),
        CipherKind::ChaCha20Legacy => run!(chacha20::ChaCha20Legacy),
        CipherKind::XChaCha20 => run!(chacha20::XChaCha20),
        CipherKind::XChaCha12 => run!(chacha20::XChaCha12),
        other => panic!("no reference for {other:?}"),
    }
    out
}

/// Deterministic pseudo-random bytes (xorshift), so failures reproduce.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..len)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 24) as u8
        })
        .collect()
}

/// A 32-byte key and a nonce of `kind`'s length derived from `seed`.
pub fn key_nonce(kind: CipherKind, seed: u64) -> ([u8; 32], Vec<u8>) {
    let key: [u8; 32] = bytes(seed, 32).try_into().unwrap();
    (key, bytes(seed ^ 0xABCD, kind.nonce_len()))
}

/// The lengths every backend is checked at: all of 0..=1100 and the ragged large ones.
pub fn lengths() -> impl Iterator<Item = usize> {
    (0..=1100).chain([1420, 1500, 4095, 4096, 4097, 65537])
}
