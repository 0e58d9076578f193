//! `ragged xor`: stdin XOR keystream to stdout, in constant memory.

use std::io::{self, ErrorKind, Read};

use ragged_chacha::{AnyCipher, CipherKind};
use zeroize::Zeroizing;

use crate::out;

/// Bytes read and written at a time.
const CHUNK: usize = 64 * 1024;

/// Streams stdin through the cipher. A chunk the cipher refuses (keystream exhausted)
/// is not written; everything before it was.
pub fn run(kind: CipherKind, key: &[u8; 32], nonce: &[u8], counter: u128) -> Result<(), String> {
    let mut cipher = start(kind, key, nonce, counter)?;
    let mut input = io::stdin().lock();
    let mut output = out::stdout();
    let mut buf = Zeroizing::new(vec![0u8; CHUNK]);
    loop {
        let filled = fill(&mut input, &mut buf).map_err(|e| format!("reading stdin: {e}"))?;
        if filled == 0 {
            break;
        }
        cipher
            .try_apply_keystream(&mut buf[..filled])
            .map_err(|e| e.to_string())?;
        output.write_all(&buf[..filled])?;
        if filled < buf.len() {
            break;
        }
    }
    output.flush()
}

/// The cipher positioned at block `counter`, or the refusal of a start with no
/// keystream after it. The library accepts a start at the very end (one past the last
/// block, where only an empty input fits), but a start there is as wrong as any
/// further one: refusing it up front, whatever the input, gives one message for every
/// start past the last block instead of a different one depending on whether any
/// input arrives.
fn start(
    kind: CipherKind,
    key: &[u8; 32],
    nonce: &[u8],
    counter: u128,
) -> Result<AnyCipher, String> {
    let mut cipher = AnyCipher::new(kind, key, nonce, 0).map_err(|e| e.to_string())?;
    // At block 0 the whole keystream remains: its length in blocks.
    let blocks = cipher.remaining() / 64;
    if counter >= blocks {
        return Err(format!(
            "counter {counter} is beyond the end of the {} keystream (its last block is {})",
            kind.name(),
            blocks - 1
        ));
    }
    cipher.try_seek(counter * 64).map_err(|e| e.to_string())?;
    Ok(cipher)
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
pub fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
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
