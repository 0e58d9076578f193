//! `ragged seal` / `ragged open`: one AEAD message from stdin to stdout.
//!
//! Both hold the whole message in memory: `open` must see the tag, at the end of the
//! input, before it may release a single byte of plaintext, and `seal` keeps the same
//! shape. Input is capped at [`MAX_INPUT`] so a runaway pipe fails cleanly instead of
//! exhausting memory.

use std::io::{self, ErrorKind, Read, Write};

use ragged_chacha::{AeadKind, AnyAead, Error};
use zeroize::Zeroizing;

/// The largest input `seal` and `open` accept: 1 GiB.
pub const MAX_INPUT: u64 = 1 << 30;

/// The shape of [`seal`] and [`open`]: AEAD, key, nonce, AAD.
pub type Run = fn(AeadKind, &[u8; 32], &[u8], &[u8]) -> Result<(), String>;

/// Encrypts stdin and writes ciphertext ‖ tag to stdout.
pub fn seal(kind: AeadKind, key: &[u8; 32], nonce: &[u8], aad: &[u8]) -> Result<(), String> {
    check_nonce(kind, nonce)?;
    let aead = AnyAead::new(kind, key);
    let mut buf = read_input()?;
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
    let mut buf = read_input()?;
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

/// All of stdin, up to [`MAX_INPUT`] bytes.
fn read_input() -> Result<Zeroizing<Vec<u8>>, String> {
    let mut buf = Zeroizing::new(Vec::new());
    io::stdin()
        .lock()
        .take(MAX_INPUT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| format!("reading stdin: {e}"))?;
    if buf.len() as u64 > MAX_INPUT {
        return Err(format!(
            "input larger than {} MiB: seal and open hold the whole message in memory",
            MAX_INPUT >> 20
        ));
    }
    Ok(buf)
}

fn write_output(data: &[u8]) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(data).and_then(|()| out.flush()) {
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| format!("writing stdout: {e}")),
    }
}
