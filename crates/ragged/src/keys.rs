//! Parsing keys and nonces from the command line.

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
            let raw = Zeroizing::new(
                std::fs::read(path)
                    .map_err(|e| format!("cannot read key file {}: {e}", path.display()))?,
            );
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

fn decode(what: &str, text: &str) -> Result<Zeroizing<Vec<u8>>, String> {
    hex::decode(text)
        .map(Zeroizing::new)
        .map_err(|e| format!("{what} is not valid hex: {e}"))
}

/// Decodes a hex command-line argument (`what` names it in the error).
pub fn hex_arg(what: &str, text: &str) -> Result<Vec<u8>, String> {
    hex::decode(text).map_err(|e| format!("{what} is not valid hex: {e}"))
}
