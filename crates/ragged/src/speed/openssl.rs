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
        let mut ctx = CipherCtx::new().expect("an OpenSSL cipher context");
        ctx.encrypt_init(Some(Cipher::chacha20()), Some(&KEY), Some(&[0; 16]))
            .expect("OpenSSL ChaCha20 with a 32-byte key and a 16-byte IV");
        let len = c_int::try_from(case.size).expect("OpenSSL takes at most 2^31 - 1 bytes a call");
        Box::new(ChaCha20Runner {
            ctx,
            buf: Buffer::message(case),
            len,
            iv: [0; 16],
            n: 0,
        })
    }
}

struct ChaCha20Runner {
    ctx: CipherCtx,
    buf: Buffer,
    len: c_int,
    /// OpenSSL's ChaCha20 IV: the 32-bit little-endian block counter (0 here), then
    /// the RFC 8439 12-byte nonce.
    iv: [u8; 16],
    n: u64,
}

impl Runner for ChaCha20Runner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.iv[4..], &mut self.n);
        let ctx = self.ctx.as_ptr();
        let iv = black_box(&self.iv);
        let buf = black_box(&mut self.buf[..]).as_mut_ptr();
        let mut written: c_int = 0;
        // SAFETY: `ctx` is a live context set up for ChaCha20 encryption with a key in
        // `prepare`; with no cipher and no key given, `EVP_EncryptInit_ex` only reads
        // the 16-byte IV `iv` points to.
        let reset = unsafe {
            ffi::EVP_EncryptInit_ex(ctx, ptr::null(), ptr::null_mut(), ptr::null(), iv.as_ptr())
        };
        // SAFETY: a stream cipher writes exactly `len` bytes for `len` bytes in; input
        // and output are the same `len` bytes of the message buffer (its length, set in
        // `prepare`), which OpenSSL allows.
        let update = unsafe { ffi::EVP_EncryptUpdate(ctx, buf, &mut written, buf, self.len) };
        assert!(
            reset == 1 && update == 1 && written == self.len,
            "OpenSSL ChaCha20 failed"
        );
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `EVP_CTRL_AEAD_GET_TAG` from OpenSSL's `evp.h`: the same value as the GCM-named
/// constant `openssl-sys` exports (`EVP_CTRL_GCM_GET_TAG`), which OpenSSL aliases.
const EVP_CTRL_AEAD_GET_TAG: c_int = ffi::EVP_CTRL_GCM_GET_TAG;

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
        let mut ctx = CipherCtx::new().expect("an OpenSSL cipher context");
        ctx.encrypt_init(
            Some(Cipher::chacha20_poly1305()),
            Some(&KEY),
            Some(&[0; 12]),
        )
        .expect("OpenSSL ChaCha20-Poly1305 with a 32-byte key and a 12-byte nonce");
        let len = c_int::try_from(case.size).expect("OpenSSL takes at most 2^31 - 1 bytes a call");
        // The message plus 16 bytes for the tag, as the other AEAD implementations.
        let buf = Buffer::message(Case {
            size: case.size + 16,
            offset: case.offset,
        });
        Box::new(ChaCha20Poly1305Runner {
            ctx,
            buf,
            len,
            nonce: [0; 12],
            n: 0,
        })
    }
}

struct ChaCha20Poly1305Runner {
    ctx: CipherCtx,
    /// The message followed by room for the 16-byte tag.
    buf: Buffer,
    len: c_int,
    nonce: [u8; 12],
    n: u64,
}

impl Runner for ChaCha20Poly1305Runner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        let ctx = self.ctx.as_ptr();
        let nonce = black_box(&self.nonce);
        let buf = black_box(&mut self.buf[..]).as_mut_ptr();
        let len = self.len;
        let (mut written, mut fin): (c_int, c_int) = (0, 0);
        // SAFETY: `ctx` is a live context set up for ChaCha20-Poly1305 encryption with
        // a key in `prepare`; with no cipher and no key, `EVP_EncryptInit_ex` only reads
        // the 12-byte nonce `nonce` points to.
        let reset = unsafe {
            ffi::EVP_EncryptInit_ex(
                ctx,
                ptr::null(),
                ptr::null_mut(),
                ptr::null(),
                nonce.as_ptr(),
            )
        };
        // SAFETY: the AEAD writes exactly `len` bytes for `len` bytes in, here in place
        // over the message's `len` bytes; `buf` holds `len + 16` bytes.
        let update = unsafe { ffi::EVP_EncryptUpdate(ctx, buf, &mut written, buf, len) };
        // SAFETY: a stream AEAD writes nothing at the end (`fin` is 0); `buf + len` is
        // within the buffer (the tag's place) either way.
        let finish = unsafe { ffi::EVP_EncryptFinal_ex(ctx, buf.add(len as usize), &mut fin) };
        // SAFETY: GET_TAG copies the 16-byte tag to the 16 bytes after the message.
        let tag = unsafe {
            ffi::EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, buf.add(len as usize).cast())
        };
        assert!(
            reset == 1 && update == 1 && written == len && finish == 1 && fin == 0 && tag == 1,
            "OpenSSL ChaCha20-Poly1305 failed"
        );
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
}
