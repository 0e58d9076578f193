//! libsodium (cargo feature `sodium`, against the system's library found through
//! pkg-config by `build.rs`): ChaCha20 (IETF), XChaCha20, ChaCha20-Poly1305 and
//! XChaCha20-Poly1305 (IETF, seal and open) and Poly1305.
//!
//! Called as a C caller would, through the few functions declared here: libsodium's
//! API is one stateless call per message with the key passed each time (there is no
//! key object to keep), so that one call is the fastest way it allows. The AEADs use
//! the `_detached` forms, which write the tag apart from the ciphertext, as the other
//! implementations do; every call works in place, which libsodium allows (its
//! documentation: the output may be the input's own buffer).

use std::ffi::{CStr, c_char, c_int, c_uchar, c_ulonglong};
use std::hint::black_box;
use std::ptr;
use std::sync::OnceLock;

use ragged_chacha::AeadKind;

use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, next_nonce};

// Declarations from libsodium's headers (sodium/core.h, sodium/version.h,
// sodium/crypto_stream_chacha20.h, sodium/crypto_stream_xchacha20.h,
// sodium/crypto_aead_chacha20poly1305.h, sodium/crypto_aead_xchacha20poly1305.h,
// sodium/crypto_onetimeauth_poly1305.h), stable since 1.0.12.
unsafe extern "C" {
    fn sodium_init() -> c_int;
    fn sodium_version_string() -> *const c_char;
    fn crypto_stream_chacha20_ietf_xor(
        c: *mut c_uchar,
        m: *const c_uchar,
        mlen: c_ulonglong,
        n: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_stream_chacha20_ietf_xor_ic(
        c: *mut c_uchar,
        m: *const c_uchar,
        mlen: c_ulonglong,
        n: *const c_uchar,
        ic: u32,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_stream_xchacha20_xor(
        c: *mut c_uchar,
        m: *const c_uchar,
        mlen: c_ulonglong,
        n: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_aead_chacha20poly1305_ietf_encrypt_detached(
        c: *mut c_uchar,
        mac: *mut c_uchar,
        maclen_p: *mut c_ulonglong,
        m: *const c_uchar,
        mlen: c_ulonglong,
        ad: *const c_uchar,
        adlen: c_ulonglong,
        nsec: *const c_uchar,
        npub: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_aead_xchacha20poly1305_ietf_encrypt_detached(
        c: *mut c_uchar,
        mac: *mut c_uchar,
        maclen_p: *mut c_ulonglong,
        m: *const c_uchar,
        mlen: c_ulonglong,
        ad: *const c_uchar,
        adlen: c_ulonglong,
        nsec: *const c_uchar,
        npub: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_aead_chacha20poly1305_ietf_decrypt_detached(
        m: *mut c_uchar,
        nsec: *mut c_uchar,
        c: *const c_uchar,
        clen: c_ulonglong,
        mac: *const c_uchar,
        ad: *const c_uchar,
        adlen: c_ulonglong,
        npub: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_aead_xchacha20poly1305_ietf_decrypt_detached(
        m: *mut c_uchar,
        nsec: *mut c_uchar,
        c: *const c_uchar,
        clen: c_ulonglong,
        mac: *const c_uchar,
        ad: *const c_uchar,
        adlen: c_ulonglong,
        npub: *const c_uchar,
        k: *const c_uchar,
    ) -> c_int;
    fn crypto_onetimeauth_poly1305(
        out: *mut c_uchar,
        m: *const c_uchar,
        mlen: c_ulonglong,
        k: *const c_uchar,
    ) -> c_int;
}

/// Proof that `sodium_init` has run in this process ([`init`]): every call into
/// libsodium here is a method of it, so none can run first. `sodium_init` picks
/// libsodium's implementations for this CPU; a message that another thread's first
/// `sodium_init` overtakes can start on one implementation and end on another (a
/// wrong tag), and one timed before it would time libsodium's reference code.
#[derive(Clone, Copy)]
pub struct Ready(());

/// `sodium_init`, once per process.
pub fn init() -> Ready {
    static INIT: OnceLock<c_int> = OnceLock::new();
    // SAFETY: no precondition; libsodium makes repeated calls safe, OnceLock makes one.
    let status = *INIT.get_or_init(|| unsafe { sodium_init() });
    assert!(status >= 0, "sodium_init failed");
    Ready(())
}

/// The linked library's version, e.g. `1.0.18`.
pub fn version() -> String {
    init();
    // SAFETY: returns a pointer to a static NUL-terminated string.
    let text = unsafe { CStr::from_ptr(sodium_version_string()) };
    text.to_string_lossy().into_owned()
}

/// The message length as libsodium takes it.
fn len(bytes: &[u8]) -> c_ulonglong {
    c_ulonglong::try_from(bytes.len()).expect("a length fits in 64 bits")
}

impl Ready {
    /// XORs the ChaCha20 (IETF, `x` false: 12-byte nonce) or XChaCha20 (`x` true: 24-byte
    /// nonce) keystream from block 0 into `buf`, in place.
    fn stream_xor(self, x: bool, buf: &mut [u8], nonce: &[u8], key: &[u8; 32]) {
        assert_eq!(nonce.len(), if x { 24 } else { 12 });
        let f = if x {
            crypto_stream_xchacha20_xor
        } else {
            crypto_stream_chacha20_ietf_xor
        };
        let p = buf.as_mut_ptr();
        // SAFETY: `p` is valid for `buf.len()` bytes, read and written in place (allowed);
        // the nonce holds the length asserted above and the key 32 bytes.
        let status = unsafe { f(p, p, len(buf), nonce.as_ptr(), key.as_ptr()) };
        assert_eq!(status, 0, "libsodium stream xor failed");
    }

    /// XORs the ChaCha20 (IETF) keystream from block `counter` into `buf`, in place.
    pub fn chacha20_xor_ic(self, buf: &mut [u8], nonce: &[u8; 12], counter: u32, key: &[u8; 32]) {
        let p = buf.as_mut_ptr();
        // SAFETY: `p` is valid for `buf.len()` bytes, read and written in place (allowed);
        // the nonce is 12 bytes and the key 32.
        let status = unsafe {
            crypto_stream_chacha20_ietf_xor_ic(
                p,
                p,
                len(buf),
                nonce.as_ptr(),
                counter,
                key.as_ptr(),
            )
        };
        assert_eq!(status, 0, "libsodium stream xor failed");
    }

    /// Seals `msg` in place under `kind`, writing the 16-byte tag to `tag`; no AAD.
    pub fn seal(
        self,
        kind: AeadKind,
        msg: &mut [u8],
        tag: &mut [u8; 16],
        nonce: &[u8],
        key: &[u8; 32],
    ) {
        assert_eq!(nonce.len(), kind.nonce_len());
        let f = match kind {
            AeadKind::XChaCha20Poly1305 => crypto_aead_xchacha20poly1305_ietf_encrypt_detached,
            _ => crypto_aead_chacha20poly1305_ietf_encrypt_detached,
        };
        let p = msg.as_mut_ptr();
        let mut maclen: c_ulonglong = 0;
        // SAFETY: `p` is valid for `msg.len()` bytes, encrypted in place (allowed); `tag`
        // takes the 16-byte MAC; no AAD (null, 0); `nsec` is unused and null; the nonce
        // has the AEAD's length (asserted) and the key 32 bytes.
        let status = unsafe {
            f(
                p,
                tag.as_mut_ptr(),
                &mut maclen,
                p,
                len(msg),
                ptr::null(),
                0,
                ptr::null(),
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        assert!(status == 0 && maclen == 16, "libsodium seal failed");
    }

    /// Opens `msg` (ciphertext) in place under `kind` if `tag` is right for it; no AAD.
    /// `false` on a wrong tag, after which libsodium has zeroed `msg` (its output).
    pub fn open(
        self,
        kind: AeadKind,
        msg: &mut [u8],
        tag: &[u8; 16],
        nonce: &[u8],
        key: &[u8; 32],
    ) -> bool {
        assert_eq!(nonce.len(), kind.nonce_len());
        let f = match kind {
            AeadKind::XChaCha20Poly1305 => crypto_aead_xchacha20poly1305_ietf_decrypt_detached,
            _ => crypto_aead_chacha20poly1305_ietf_decrypt_detached,
        };
        let p = msg.as_mut_ptr();
        // SAFETY: `p` is valid for `msg.len()` bytes, decrypted in place (allowed); the tag
        // is 16 bytes; no AAD; `nsec` unused and null; nonce and key as for `seal`.
        let status = unsafe {
            f(
                p,
                ptr::null_mut(),
                p,
                len(msg),
                tag.as_ptr(),
                ptr::null(),
                0,
                nonce.as_ptr(),
                key.as_ptr(),
            )
        };
        status == 0
    }

    /// The Poly1305 tag of `msg` under the one-time key `key`.
    fn poly1305(self, msg: &[u8], key: &[u8; 32]) -> [u8; 16] {
        let mut tag = [0u8; 16];
        // SAFETY: `tag` takes the 16-byte output, `msg` is valid for its length, the key is
        // 32 bytes.
        let status = unsafe {
            crypto_onetimeauth_poly1305(tag.as_mut_ptr(), msg.as_ptr(), len(msg), key.as_ptr())
        };
        assert_eq!(status, 0, "libsodium poly1305 failed");
        tag
    }
}

/// `libsodium` in the `chacha20` (`x` false) or `xchacha20` (`x` true) table: one
/// `crypto_stream_*_xor` per message, under a fresh nonce, in place.
pub struct Stream {
    /// XChaCha20 (24-byte nonce) rather than ChaCha20 (12-byte).
    pub x: bool,
}

impl Implementation for Stream {
    fn name(&self) -> String {
        "libsodium".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(StreamRunner {
            sodium: init(),
            x: self.x,
            buf: Buffer::message(case),
            nonce: vec![0; if self.x { 24 } else { 12 }],
            n: 0,
        })
    }
}

struct StreamRunner {
    sodium: Ready,
    x: bool,
    buf: Buffer,
    nonce: Vec<u8>,
    n: u64,
}

impl Runner for StreamRunner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        self.sodium.stream_xor(
            self.x,
            black_box(&mut self.buf[..]),
            black_box(&self.nonce),
            black_box(&KEY),
        );
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `libsodium` in the `chacha20-poly1305` and `xchacha20-poly1305` tables: one
/// `crypto_aead_*_ietf_encrypt_detached` per message, fresh nonce, in place, no AAD.
pub struct Seal(pub AeadKind);

impl Implementation for Seal {
    fn name(&self) -> String {
        "libsodium".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(SealRunner {
            sodium: init(),
            kind: self.0,
            buf: Buffer::message(Case {
                size: case.size + 16,
                offset: case.offset,
            }),
            nonce: vec![0; self.0.nonce_len()],
            n: 0,
        })
    }
}

struct SealRunner {
    sodium: Ready,
    kind: AeadKind,
    /// The message followed by room for the 16-byte tag.
    buf: Buffer,
    nonce: Vec<u8>,
    n: u64,
}

impl Runner for SealRunner {
    #[inline(never)]
    fn run(&mut self) {
        next_nonce(&mut self.nonce, &mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        let tag: &mut [u8; 16] = tag.try_into().expect("16 bytes");
        self.sodium.seal(
            self.kind,
            black_box(msg),
            tag,
            black_box(&self.nonce),
            black_box(&KEY),
        );
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

/// `libsodium` in the `poly1305` table: `crypto_onetimeauth_poly1305` under a fresh
/// one-time key per message (see `poly1305.rs`), the tag after the message.
pub struct Poly1305;

impl Implementation for Poly1305 {
    fn name(&self) -> String {
        "libsodium".into()
    }

    fn role(&self) -> Role {
        Role::Peer
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(Poly1305Runner {
            sodium: init(),
            buf: super::poly1305::buffer(case),
            n: 0,
        })
    }
}

struct Poly1305Runner {
    sodium: Ready,
    buf: Buffer,
    n: u64,
}

impl Runner for Poly1305Runner {
    #[inline(never)]
    fn run(&mut self) {
        let key = super::poly1305::next_key(&mut self.n);
        let len = self.buf.len() - 16;
        let (msg, tag) = self.buf.split_at_mut(len);
        tag.copy_from_slice(&self.sodium.poly1305(black_box(msg), black_box(&key)));
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speed::registry::Selection;

    const SIZES: [usize; 11] = [0, 1, 15, 16, 17, 64, 65, 255, 1420, 1500, 16384];

    /// libsodium's output equals ragged's, message after message (fresh nonces or
    /// keys), at packet and odd sizes, for every primitive it is a peer in.
    #[test]
    fn libsodium_matches_ragged() {
        let none = Selection { backends: false };
        let pairs: Vec<(Box<dyn Implementation>, Box<dyn Implementation>)> = vec![
            (
                crate::speed::chacha::chacha20(none).remove(0),
                Box::new(Stream { x: false }),
            ),
            (
                crate::speed::chacha::xchacha20(none).remove(0),
                Box::new(Stream { x: true }),
            ),
            (
                crate::speed::aead::aead(AeadKind::ChaCha20Poly1305, none).remove(0),
                Box::new(Seal(AeadKind::ChaCha20Poly1305)),
            ),
            (
                crate::speed::aead::aead(AeadKind::XChaCha20Poly1305, none).remove(0),
                Box::new(Seal(AeadKind::XChaCha20Poly1305)),
            ),
            (
                crate::speed::poly1305::poly1305(none).remove(0),
                Box::new(Poly1305),
            ),
        ];
        for (ragged, sodium) in &pairs {
            for size in SIZES {
                let case = Case { size, offset: 0 };
                let (mut ours, mut theirs) = (ragged.prepare(case), sodium.prepare(case));
                for _ in 0..3 {
                    ours.run();
                    theirs.run();
                    assert_eq!(ours.output(), theirs.output(), "size {size}");
                }
            }
        }
    }

    /// What libsodium seals, ragged opens, and libsodium opens its own; a wrong tag is
    /// refused, with no plaintext left in the buffer.
    #[test]
    fn libsodium_and_ragged_open_each_others_messages() {
        let sodium = init();
        for kind in AeadKind::ALL {
            let nonce = vec![9u8; kind.nonce_len()];
            for size in SIZES {
                let plain = Buffer::message(Case { size, offset: 0 }).to_vec();
                let mut msg = plain.clone();
                let mut tag = [0u8; 16];
                sodium.seal(kind, &mut msg, &mut tag, &nonce, &KEY);
                let mut theirs = msg.clone();
                ragged_chacha::AnyAead::new(kind, &KEY)
                    .decrypt_in_place_detached(&nonce, b"", &mut theirs, &tag)
                    .expect("ragged opens libsodium's message");
                assert_eq!(theirs, plain, "{} {size}", kind.name());

                let mut bad = tag;
                bad[0] ^= 1;
                let mut refused = msg.clone();
                assert!(!sodium.open(kind, &mut refused, &bad, &nonce, &KEY));
                assert!(refused.iter().all(|&b| b == 0), "no plaintext left");
                let mut sealed = msg.clone();
                assert!(sodium.open(kind, &mut sealed, &tag, &nonce, &KEY));
                assert_eq!(sealed, plain);
            }
        }
    }

    #[test]
    fn the_version_is_a_dotted_number() {
        let v = version();
        assert!(v.split('.').all(|p| p.parse::<u32>().is_ok()), "{v}");
    }
}
