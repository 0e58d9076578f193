//! `ragged seal` / `ragged open`: one AEAD message from stdin to stdout.
//!
//! Both hold the whole message in memory: `open` must see the tag, at the end of the
//! input, before it may release a single byte of plaintext, and `seal` keeps the same
//! shape. Input is capped at [`MAX_INPUT`] so a runaway pipe fails cleanly instead of
//! exhausting memory.

use std::io::{self, Read};

use ragged_chacha::{AeadKind, AnyAead, Error};
use zeroize::Zeroizing;

use crate::out;

/// The largest input `seal` and `open` accept: 1 GiB.
pub const MAX_INPUT: u64 = 1 << 30;

/// The shape of [`seal`] and [`open`]: AEAD, key, nonce, AAD.
pub type Run = fn(AeadKind, &[u8; 32], &[u8], &[u8]) -> Result<(), String>;

/// Encrypts stdin and writes ciphertext ‖ tag to stdout.
pub fn seal(kind: AeadKind, key: &[u8; 32], nonce: &[u8], aad: &[u8]) -> Result<(), String> {
    check_nonce(kind, nonce)?;
    let aead = AnyAead::new(kind, key);
    let mut buf = read_limited(io::stdin().lock(), MAX_INPUT)?;
    let tag = aead
        .encrypt_in_place_detached(nonce, aad, &mut buf)
        .map_err(|e| e.to_string())?;
    buf.extend_from_slice(&tag);
    write_output(&buf)
}

/// Checks and decrypts stdin (ciphertext ‖ tag) and writes the plaintext to stdout —
/// or, if anything is wrong with the input, writes nothing and says
/// "authentication failed".
pub fn open(kind: AeadKind, key: &[u8; 32], nonce: &[u8], aad: &[u8]) -> Result<(), String> {
    check_nonce(kind, nonce)?;
    let aead = AnyAead::new(kind, key);
    let mut buf = read_limited(io::stdin().lock(), MAX_INPUT)?;
    let Some(body_len) = buf.len().checked_sub(16) else {
        return Err(Error::AuthenticationFailed.to_string());
    };
    let mut tag = [0u8; 16];
    tag.copy_from_slice(&buf[body_len..]);
    buf.truncate(body_len);
    aead.decrypt_in_place_detached(nonce, aad, &mut buf, &tag)
        .map_err(|e| e.to_string())?;
    write_output(&buf)
}

/// Refuses a nonce of the wrong length before any input is read.
fn check_nonce(kind: AeadKind, nonce: &[u8]) -> Result<(), String> {
    if nonce.len() != kind.nonce_len() {
        return Err(Error::NonceLength {
            expected: kind.nonce_len(),
            actual: nonce.len(),
        }
        .to_string());
    }
    Ok(())
}

/// All of `input` (stdin), or an error once it has given more than `limit` bytes: at
/// most `limit + 1` bytes are ever read. The limit is a parameter so a test can reach
/// the refusal without a gigabyte of input.
fn read_limited(input: impl Read, limit: u64) -> Result<Zeroizing<Vec<u8>>, String> {
    let mut buf = Zeroizing::new(Vec::new());
    input
        .take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| format!("reading stdin: {e}"))?;
    if buf.len() as u64 > limit {
        return Err(format!(
            "input larger than {}: seal and open hold the whole message in memory",
            size_text(limit)
        ));
    }
    Ok(buf)
}

/// `limit` in MiB when it is a whole number of them (the real limit), else in bytes.
fn size_text(limit: u64) -> String {
    if limit >= 1 << 20 && limit.is_multiple_of(1 << 20) {
        format!("{} MiB", limit >> 20)
    } else {
        format!("{limit} bytes")
    }
}

fn write_output(data: &[u8]) -> Result<(), String> {
    let mut out = out::stdout();
    out.write_all(data)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that never ends, counting what it hands out.
    struct Endless(u64);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(0x61);
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
    }

    #[test]
    fn input_up_to_the_limit_is_read_whole() {
        assert_eq!(read_limited(&[][..], 10).unwrap().len(), 0);
        assert_eq!(*read_limited(&[7u8; 10][..], 10).unwrap(), [7u8; 10]);
    }

    #[test]
    fn input_past_the_limit_is_refused_after_one_byte_more() {
        let err = read_limited(&[7u8; 11][..], 10).unwrap_err();
        assert_eq!(
            err,
            "input larger than 10 bytes: seal and open hold the whole message in memory"
        );
        let mut endless = Endless(0);
        let err = read_limited(&mut endless, 3 << 20).unwrap_err();
        assert!(err.starts_with("input larger than 3 MiB:"), "{err}");
        // `take` stops the reads at limit + 1 (a read may be cut short, never longer).
        assert_eq!(endless.0, (3 << 20) + 1);
    }

    #[test]
    fn the_real_limit_reads_as_one_gib() {
        assert_eq!(size_text(MAX_INPUT), "1024 MiB");
    }
}
