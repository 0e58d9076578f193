//! OpenSSL's ChaCha20 through the `openssl` crate (cargo feature `openssl`).
//!
//! Called the fastest way its public API allows: one cipher context per case, set up
//! with the key once; per message only the IV is re-set (`EVP_EncryptInit_ex` with no
//! cipher and no key), then one in-place `EVP_CipherUpdate`. Creating a context per
//! message would cost it 2–7x at small sizes and flatter ragged.

use std::hint::black_box;

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
            .expect("OpenSSL ChaCha20 with a 32-byte key");
        Box::new(ChaCha20Runner {
            ctx,
            buf: Buffer::message(case),
            iv: [0; 16],
            n: 0,
        })
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
        self.ctx
            .encrypt_init(None, None, Some(black_box(&self.iv)))
            .expect("re-setting the IV");
        let len = self.buf.len();
        let written = self
            .ctx
            .cipher_update_inplace(black_box(&mut self.buf[..]), len)
            .expect("OpenSSL ChaCha20 update");
        debug_assert_eq!(written, len);
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}
