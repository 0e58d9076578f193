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

/// The lengths every backend is checked at: all of 0..=2200 (one and two full
/// batches of every backend with every remainder after them, fused into the last batch
/// or not), the edges of three batches of 16 blocks, and the ragged large ones.
pub fn lengths() -> impl Iterator<Item = usize> {
    (0..=2200).chain([
        2815, 2816, 2817, 3071, 3072, 3073, 4095, 4096, 4097, 65537, 66305,
    ])
}

mod rfc_block;
// Not every test binary that includes `common` uses it.
#[allow(unused_imports)]
pub use rfc_block::reference_block;

/// The input words of the original (64-bit counter) ChaCha for a key, nonce and block.
pub fn legacy_input(key: &[u8; 32], nonce: &[u8; 8], block: u64) -> [u32; 16] {
    let word = |b: &[u8]| u32::from_le_bytes(b[..4].try_into().unwrap());
    let mut w = [0u32; 16];
    w[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
    for i in 0..8 {
        w[4 + i] = word(&key[4 * i..]);
    }
    w[12] = block as u32;
    w[13] = (block >> 32) as u32;
    w[14] = word(&nonce[..4]);
    w[15] = word(&nonce[4..]);
    w
}

/// The input words of RFC 8439 ChaCha for a key, 12-byte nonce and block.
pub fn ietf_input(key: &[u8; 32], nonce: &[u8], block: u32) -> [u32; 16] {
    let word = |b: &[u8]| u32::from_le_bytes(b[..4].try_into().unwrap());
    let mut w = legacy_input(key, &[0; 8], 0);
    w[12] = block;
    w[13] = word(&nonce[..4]);
    w[14] = word(&nonce[4..8]);
    w[15] = word(&nonce[8..12]);
    w
}
