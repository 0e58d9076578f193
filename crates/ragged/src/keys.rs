//! Parsing keys and nonces from the command line.

use std::io::Read;
use std::path::Path;

use zeroize::Zeroizing;

/// Reads the key (from hex or a file) and decodes the nonce, or says what is wrong.
pub fn load(
    key_hex: Option<&str>,
    key_file: Option<&Path>,
    nonce_hex: &str,
) -> Result<(Zeroizing<[u8; 32]>, Vec<u8>), String> {
    let key = match (key_hex, key_file) {
        (Some(hex), _) => decode("key", hex)?,
        (None, Some(path)) => {
            let raw = read_key_file(path)?;
            if raw.len() == 32 {
                raw
            } else {
                let text = std::str::from_utf8(&raw).map_err(|_| {
                    format!(
                        "key file {} is neither 32 raw bytes nor hex",
                        path.display()
                    )
                })?;
                decode("key file", text.trim())?
            }
        }
        (None, None) => return Err("a key is required: --key HEX or --key-file PATH".into()),
    };
    let key: [u8; 32] = key.as_slice().try_into().map_err(|_| {
        format!(
            "key must be 32 bytes (64 hex digits), got {} bytes",
            key.len()
        )
    })?;
    Ok((Zeroizing::new(key), decode("nonce", nonce_hex)?.to_vec()))
}

/// The most a key file may hold: 64 hex digits with generous room for whitespace.
const KEY_FILE_MAX: u64 = 4096;

/// Reads at most [`KEY_FILE_MAX`] bytes of the key file, so that a wrong path such as
/// `/dev/zero` or a large file is refused at once instead of filling memory.
fn read_key_file(path: &Path) -> Result<Zeroizing<Vec<u8>>, String> {
    let cannot = |e: std::io::Error| format!("cannot read key file {}: {e}", path.display());
    let mut raw = Zeroizing::new(Vec::new());
    std::fs::File::open(path)
        .and_then(|file| file.take(KEY_FILE_MAX + 1).read_to_end(&mut raw))
        .map_err(cannot)?;
    if raw.len() as u64 > KEY_FILE_MAX {
        return Err(format!(
            "key file {} is larger than a key file can be ({KEY_FILE_MAX} bytes)",
            path.display()
        ));
    }
    Ok(raw)
}

fn decode(what: &str, text: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    hex::decode(text)
        .map(Zeroizing::new)
        .map_err(|e| format!("{what} is not valid hex: {e}"))
}

/// Decodes a hex command-line argument (`what` names it in the error).
pub fn hex_arg(what: &str, text: &str) -> Result<Vec<u8>, String> {
    hex::decode(text).map_err(|e| format!("{what} is not valid hex: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file in the temporary directory holding `data`, removed by the caller.
    fn temp_file(name: &str, data: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("ragged-{}-{name}", std::process::id()));
        std::fs::write(&path, data).unwrap();
        path
    }

    #[test]
    fn an_oversized_key_file_is_refused_without_reading_it_all() {
        let path = temp_file("big-key", &[b'0'; KEY_FILE_MAX as usize + 1]);
        let err = load(None, Some(&path), "").unwrap_err();
        std::fs::remove_file(&path).unwrap();
        assert!(err.contains("larger than a key file can be"), "{err}");

        // An endless file: refused after KEY_FILE_MAX + 1 bytes, not read forever.
        #[cfg(unix)]
        {
            let err = load(None, Some(Path::new("/dev/zero")), "").unwrap_err();
            assert!(err.contains("larger than a key file can be"), "{err}");
        }
    }

    #[test]
    fn a_key_file_at_the_limit_is_read() {
        let mut text = vec![b' '; KEY_FILE_MAX as usize - 64];
        text.extend_from_slice(&[b'a'; 64]);
        let path = temp_file("padded-key", &text);
        let result = load(None, Some(&path), "00");
        std::fs::remove_file(&path).unwrap();
        let (key, nonce) = result.unwrap();
        assert_eq!(*key, [0xaa; 32]);
        assert_eq!(nonce, [0]);
    }
}
