//! OpenSSL's ChaCha20 and ChaCha20-Poly1305 (cargo feature `openssl`, against the
//! system's libssl).
//!
//! Called the fastest way its API allows: one cipher context per case, keyed once
//! through the `openssl` crate; per message only the IV is re-set
//! (`EVP_EncryptInit_ex` with no cipher and no key), then one in-place
//! `EVP_EncryptUpdate` — both called directly through `openssl-sys`, as a C caller
//! would: the crate's safe wrappers add checks that measurably slowed it (40a8d72).
//! A context per message would dominate the cost at small sizes (cffde68). Figures:
//! `docs/tuning.md`.

use std::ffi::c_int;
use std::hint::black_box;
use std::ptr;

use foreign_types::ForeignTypeRef;
use openssl::cipher::Cipher;
use openssl::cipher_ctx::CipherCtx;

use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, next_nonce};

/// `openssl` in the `chacha20` table.
pub struct ChaCha20;

impl Implementation for ChaCha20 {
    fn name(&self) -> String {
        "openssl".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(ChaCha20Runner {
            ctx: context(Use::Keystream),
            buf: Buffer::message(case),
            iv: [0; 16],
            n: 0,
        })
    }
}

/// What a context is keyed for.
#[derive(Clone, Copy)]
pub enum Use {
    /// ChaCha20 (`xor`).
    Keystream,
    /// ChaCha20-Poly1305 encryption (`seal`).
    Seal,
    /// ChaCha20-Poly1305 decryption (`open`).
    Open,
}

/// A cipher context keyed once with the benchmark key for `what`; each message then
/// only re-sets its IV or nonce.
pub fn context(what: Use) -> CipherCtx {
    let mut ctx = CipherCtx::new().expect("an OpenSSL cipher context");
    match what {
        Use::Keystream => ctx.encrypt_init(Some(Cipher::chacha20()), Some(&KEY), Some(&[0; 16])),
        Use::Seal => ctx.encrypt_init(
            Some(Cipher::chacha20_poly1305()),
            Some(&KEY),
            Some(&[0; 12]),
        ),
        Use::Open => ctx.decrypt_init(
            Some(Cipher::chacha20_poly1305()),
            Some(&KEY),
            Some(&[0; 12]),
        ),
    }
    .expect("OpenSSL ChaCha20 (-Poly1305) with a 32-byte key");
    ctx
}

/// A message's length as OpenSSL takes it.
fn c_len(msg: &[u8]) -> c_int {
    c_int::try_from(msg.len()).expect("OpenSSL takes at most 2^31 - 1 bytes a call")
}

/// Re-sets the IV (or nonce) of a keyed context, for encryption or decryption: the
/// init call with no cipher and no key, which reads only the IV. Whether it succeeded.
///
/// # Safety
/// `ctx` is a live context keyed by [`context`]; `iv` points at the IV length its
/// cipher takes (16 bytes for ChaCha20, 12 for ChaCha20-Poly1305).
unsafe fn reset_iv(ctx: *mut ffi::EVP_CIPHER_CTX, iv: *const u8, encrypt: bool) -> bool {
    let init = if encrypt {
        ffi::EVP_EncryptInit_ex
    } else {
        ffi::EVP_DecryptInit_ex
    };
    // SAFETY: the caller's.
    unsafe { init(ctx, ptr::null(), ptr::null_mut(), ptr::null(), iv) == 1 }
}

/// XORs the ChaCha20 keystream into `msg` in place on a [`Use::Keystream`] context:
/// the IV (the 32-bit little-endian block counter, then the RFC 8439 nonce) re-set,
/// then one update.
pub fn xor(ctx: &CipherCtx, iv: &[u8; 16], msg: &mut [u8]) {
    let (ctx, len, buf) = (ctx.as_ptr(), c_len(msg), msg.as_mut_ptr());
    let mut written: c_int = 0;
    // SAFETY: `ctx` is a live ChaCha20 encryption context with a key (`context`); with
    // no cipher and no key, `EVP_EncryptInit_ex` only reads the 16-byte IV; a stream
    // cipher writes exactly `len` bytes, here in place over `msg` (OpenSSL allows it).
    let ok = unsafe {
        reset_iv(ctx, iv.as_ptr(), true)
            && ffi::EVP_EncryptUpdate(ctx, buf, &mut written, buf, len) == 1
    };
    assert!(ok && written == len, "OpenSSL ChaCha20 failed");
}

/// Seals `msg` in place under `nonce` on a [`Use::Seal`] context (no AAD): the nonce
/// re-set (which also restarts the MAC), one update, the final call (which writes
/// nothing for a stream AEAD) and the tag through `EVP_CTRL_AEAD_GET_TAG`.
pub fn seal(ctx: &CipherCtx, nonce: &[u8; 12], msg: &mut [u8]) -> [u8; 16] {
    let (ctx, len, buf) = (ctx.as_ptr(), c_len(msg), msg.as_mut_ptr());
    let (mut written, mut fin): (c_int, c_int) = (0, 0);
    let mut tag = [0u8; 16];
    // SAFETY: `ctx` is a live ChaCha20-Poly1305 encryption context with a key
    // (`context`); the reset reads the 12-byte nonce; the update writes `len` bytes in
    // place over `msg`; the final call may write up to a block into `tag` (16 bytes;
    // a stream AEAD writes none); GET_TAG copies 16 bytes into `tag`.
    let ok = unsafe {
        reset_iv(ctx, nonce.as_ptr(), true)
            && ffi::EVP_EncryptUpdate(ctx, buf, &mut written, buf, len) == 1
            && ffi::EVP_EncryptFinal_ex(ctx, tag.as_mut_ptr(), &mut fin) == 1
            && ffi::EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag.as_mut_ptr().cast())
                == 1
    };
    assert!(
        ok && written == len && fin == 0,
        "OpenSSL ChaCha20-Poly1305 failed"
    );
    tag
}

/// Opens `msg` in place under `nonce` on a [`Use::Open`] context if `tag` is right
/// for it: the nonce re-set, the expected tag set (`EVP_CTRL_AEAD_SET_TAG`), one
/// update, and the final call, which checks the tag.
pub fn open(ctx: &CipherCtx, nonce: &[u8; 12], msg: &mut [u8], tag: &[u8; 16]) -> bool {
    let (ctx, len, buf) = (ctx.as_ptr(), c_len(msg), msg.as_mut_ptr());
    let (mut written, mut fin): (c_int, c_int) = (0, 0);
    let (mut expected, mut end) = (*tag, [0u8; 16]);
    // SAFETY: `ctx` is a live ChaCha20-Poly1305 decryption context with a key
    // (`context`); the reset reads the 12-byte nonce; SET_TAG reads 16 bytes from
    // `expected`; the update writes `len` bytes in place over `msg`; the final call
    // writes nothing for a stream AEAD (into `end`, 16 bytes).
    unsafe {
        reset_iv(ctx, nonce.as_ptr(), false)
            && ffi::EVP_CIPHER_CTX_ctrl(
                ctx,
                EVP_CTRL_AEAD_SET_TAG,
                16,
                expected.as_mut_ptr().cast(),
            ) == 1
            && ffi::EVP_DecryptUpdate(ctx, buf, &mut written, buf, len) == 1
            && written == len
            && ffi::EVP_DecryptFinal_ex(ctx, end.as_mut_ptr(), &mut fin) == 1
            && fin == 0
    }
}

struct ChaCha20Runner {
    ctx: CipherCtx,
    buf: Buffer,
    /// OpenSSL's ChaCha20 IV: the 32-bit little-endian block counter (0 here), then
    /// the RFC 8439 12-byte nonce.
    iv: [u8; 16],
    n: u64,
}

impl Runner for ChaCha20Runner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.iv[4..], &mut self.n);
        xor(&self.ctx, black_box(&self.iv), black_box(&mut self.buf[..]));
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `EVP_CTRL_AEAD_GET_TAG` and `EVP_CTRL_AEAD_SET_TAG` from OpenSSL's `evp.h`: the
/// same values as the GCM-named constants `openssl-sys` exports, which OpenSSL aliases.
const EVP_CTRL_AEAD_GET_TAG: c_int = ffi::EVP_CTRL_GCM_GET_TAG;
const EVP_CTRL_AEAD_SET_TAG: c_int = ffi::EVP_CTRL_GCM_SET_TAG;

/// `openssl` in the `chacha20-poly1305` table: `EVP_chacha20_poly1305`, one context
/// keyed once; per message the 12-byte nonce is re-set (`EVP_EncryptInit_ex` with no
/// cipher and no key, which also restarts the MAC), then one in-place
/// `EVP_EncryptUpdate` with no AAD, `EVP_EncryptFinal_ex` and the tag through
/// `EVP_CTRL_AEAD_GET_TAG` — all through `openssl-sys`, as a C caller would.
pub struct ChaCha20Poly1305;

impl Implementation for ChaCha20Poly1305 {
    fn name(&self) -> String {
        "openssl".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        // The message plus 16 bytes for the tag, as the other AEAD implementations.
        let buf = Buffer::message(Case {
            size: case.size + 16,
            offset: case.offset,
        });
        Box::new(ChaCha20Poly1305Runner {
            ctx: context(Use::Seal),
            buf,
            len: case.size,
            nonce: [0; 12],
            n: 0,
        })
    }
}

struct ChaCha20Poly1305Runner {
    ctx: CipherCtx,
    /// The message followed by room for the 16-byte tag.
    buf: Buffer,
    len: usize,
    nonce: [u8; 12],
    n: u64,
}

impl Runner for ChaCha20Poly1305Runner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        let (msg, tag) = black_box(&mut self.buf[..]).split_at_mut(self.len);
        let t = seal(&self.ctx, black_box(&self.nonce), msg);
        tag.copy_from_slice(&t);
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speed::aead::aead;
    use crate::speed::registry::Selection;

    /// OpenSSL's seal (ciphertext and tag) equals ragged's, message after message
    /// (fresh nonces), at packet and odd sizes.
    #[test]
    fn openssl_seal_matches_raggeds() {
        let ragged = aead(
            ragged_chacha::AeadKind::ChaCha20Poly1305,
            Selection { backends: false },
        )
        .remove(0);
        for size in [0, 1, 15, 16, 17, 64, 65, 255, 1420, 1500, 16384] {
            let case = Case { size, offset: 0 };
            let (mut ours, mut theirs) = (ragged.prepare(case), ChaCha20Poly1305.prepare(case));
            for _ in 0..3 {
                ours.run();
                theirs.run();
                assert_eq!(ours.output(), theirs.output(), "size {size}");
            }
        }
    }

    /// OpenSSL opens ragged's seal to the message and refuses it with any tag bit
    /// flipped; its keystream from a block counter is ragged's.
    #[test]
    fn openssl_open_and_counter_keystream_match_raggeds() {
        let ragged = ragged_chacha::ChaCha20Poly1305::new(&KEY);
        let (opener, stream) = (context(Use::Open), context(Use::Keystream));
        for size in [0, 1, 64, 65, 1420] {
            let message: Vec<u8> = (0..size).map(|i| (i * 7 + 1) as u8).collect();
            let nonce = [size as u8; 12];
            let mut sealed = message.clone();
            let tag = ragged
                .encrypt_in_place_detached(&nonce, b"", &mut sealed)
                .expect("short");
            let mut opened = sealed.clone();
            assert!(open(&opener, &nonce, &mut opened, &tag), "size {size}");
            assert_eq!(opened, message, "size {size}");
            for bit in [0, 77, 127] {
                let mut bad = tag;
                bad[bit / 8] ^= 1 << (bit % 8);
                let mut copy = sealed.clone();
                assert!(
                    !open(&opener, &nonce, &mut copy, &bad),
                    "size {size} bit {bit}"
                );
            }
            for counter in [0u32, 1, 9] {
                let mut iv = [0u8; 16];
                iv[..4].copy_from_slice(&counter.to_le_bytes());
                iv[4..].copy_from_slice(&nonce);
                let (mut ours, mut theirs) = (message.clone(), message.clone());
                ragged_chacha::ChaCha20::with_counter(&KEY, &nonce, counter)
                    .apply_keystream(&mut ours);
                xor(&stream, &iv, &mut theirs);
                assert_eq!(ours, theirs, "size {size} counter {counter}");
            }
        }
    }
}
