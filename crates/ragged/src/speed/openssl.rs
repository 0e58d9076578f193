//! OpenSSL's ChaCha20 (cargo feature `openssl`, against the system's libssl).
//!
//! Called the fastest way its API allows: one cipher context per case, keyed once
//! through the `openssl` crate; per message only the IV is re-set
//! (`EVP_EncryptInit_ex` with no cipher and no key), then one in-place
//! `EVP_EncryptUpdate` — both called directly through `openssl-sys`, as a C caller
//! would: the crate's safe wrappers add checks that cost 5–10% at 64–1420 bytes here.
//! Creating a context per message would cost OpenSSL 2–7x at small sizes.

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
