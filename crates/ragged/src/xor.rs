//! `ragged xor`: stdin XOR keystream to stdout, in constant memory.

use std::io::{self, ErrorKind, Read, Write};

use ragged_chacha::{AnyCipher, CipherKind, Error};
use zeroize::Zeroizing;

/// Bytes read and written at a time.
const CHUNK: usize = 64 * 1024;

/// Streams stdin through the cipher. A chunk the cipher refuses (keystream exhausted)
/// is not written; everything before it was.
pub fn run(kind: CipherKind, key: &[u8; 32], nonce: &[u8], counter: u64) -> Result<(), String> {
    let mut cipher = AnyCipher::new(kind, key, nonce, counter).map_err(|e| match e {
        // The library speaks of byte positions; the command line gave a block counter.
        Error::SeekOutOfRange { end, .. } => format!(
            "counter {counter} is beyond the end of the {} keystream (its last block is {})",
            kind.name(),
            end / 64 - 1
        ),
        other => other.to_string(),
    })?;
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut buf = Zeroizing::new(vec![0u8; CHUNK]);
    loop {
        let filled = fill(&mut input, &mut buf).map_err(|e| format!("reading stdin: {e}"))?;
        if filled == 0 {
            break;
        }
        cipher
            .try_apply_keystream(&mut buf[..filled])
            .map_err(|e| e.to_string())?;
        match output.write_all(&buf[..filled]) {
            Err(e) if e.kind() == ErrorKind::BrokenPipe => return Ok(()),
            other => other.map_err(|e| format!("writing stdout: {e}"))?,
        }
        if filled < buf.len() {
            break;
        }
    }
    output.flush().map_err(|e| format!("writing stdout: {e}"))
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}
