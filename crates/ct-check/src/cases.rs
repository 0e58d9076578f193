//! What runs on concealed secrets: every primitive, on every backend given, over
//! lengths that reach each batch size and tail path. Each case returns a digest of
//! its (revealed) outputs so the caller can check that all backends agreed — a sign
//! that the backend named really ran, not a test of correctness (the test suites do
//! that).

use ragged_chacha::aead::{AeadVariant, TAG_LEN};
use ragged_chacha::burst::{OpenItem, SealItem};
use ragged_chacha::variant::Ietf;
use ragged_chacha::variant::Variant;
use ragged_chacha::{
    Backend, ChaCha, ChaCha20Poly1305, ChaChaPoly1305, Error, Poly1305, Poly1305Backend, hchacha20,
};

use crate::memcheck::{conceal, fully_tainted, reveal};

/// What a case yields: a digest of its outputs, or what went wrong.
pub type Outcome = Result<u64, String>;

/// Stream lengths: every length up to past one AVX2 batch of 8 blocks plus its largest
/// remainder (so every batch choice and every tail length on every backend), then
/// a few larger ones around multiples of 4, 8 and 16 blocks.
fn stream_lengths() -> impl Iterator<Item = usize> {
    (0..=1100)
        .filter(|&n| n <= 640 || n % 64 <= 1 || n % 64 == 63)
        .chain([1420, 4097])
}

/// MAC lengths: every length over the first few blocks, then around the AVX2 backend's
/// 20-block threshold and its 4-block lanes.
const MAC_LENGTHS: &[usize] = &[
    0, 1, 2, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 303, 304, 319, 320, 321, 335, 336,
    337, 383, 384, 400, 511, 512, 513, 1024, 1420, 4097,
];

/// AEAD payload lengths: empty, short, around one block, and packet sizes.
const AEAD_LENGTHS: &[usize] = &[0, 1, 15, 16, 17, 63, 64, 65, 129, 255, 320, 321, 1420, 4097];

/// Deterministic filler bytes (splitmix64): no secret needs to be random here, only
/// varied.
pub fn bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ len as u64;
    let mut out = Vec::with_capacity(len + 8);
    while out.len() < len {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        out.extend_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out.truncate(len);
    out
}

/// `len` filler bytes, concealed.
fn secret(seed: u64, len: usize) -> Vec<u8> {
    let mut v = bytes(seed, len);
    conceal(&mut v);
    v
}

/// A 32-byte key, concealed.
fn secret_key(seed: u64) -> [u8; 32] {
    let mut key: [u8; 32] = bytes(seed, 32).try_into().expect("32 bytes");
    conceal(&mut key);
    key
}

/// Folds revealed output into a running FNV-1a digest.
fn fold(digest: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *digest = (*digest ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

/// The start of every digest (FNV-1a's offset basis).
const DIGEST_START: u64 = 0xcbf2_9ce4_8422_2325;

/// Makes an output public for the check's own comparisons, first confirming that the
/// secrets reached every byte of it (under Valgrind): a fully defined output would
/// mean the marking was lost and the case proved nothing.
fn publish(what: &str, bytes: &mut [u8]) -> Result<(), String> {
    if fully_tainted(bytes) == Some(false) {
        return Err(format!(
            "{what}: some output bytes are defined, so the secrets did not reach them"
        ));
    }
    reveal(bytes);
    Ok(())
}

/// Turns a library error into the case's failure text.
fn failed(what: &str) -> impl Fn(Error) -> String + '_ {
    move |e| format!("{what}: {e}")
}

/// A ChaCha variant on `backend`: key and plaintext secret; in place in one call, and
/// out of place in two calls (so the buffered keystream carries across a call).
pub fn stream<V: Variant>(backend: Backend, nonce: &V::Nonce) -> Outcome {
    let mut digest = DIGEST_START;
    for len in stream_lengths() {
        let seed = len as u64;
        let key = secret_key(seed);
        let mut in_place = secret(seed + 1, len);
        let mut cipher = ChaCha::<V>::new(&key, nonce)
            .with_backend(backend)
            .map_err(failed("with_backend"))?;
        cipher.apply_keystream(&mut in_place);

        let input = secret(seed + 1, len);
        let mut out = vec![0u8; len];
        let cut = len / 3;
        let mut cipher = ChaCha::<V>::new(&key, nonce)
            .with_backend(backend)
            .map_err(failed("with_backend"))?;
        cipher
            .apply_keystream_b2b(&input[..cut], &mut out[..cut])
            .map_err(failed("apply_keystream_b2b"))?;
        cipher
            .apply_keystream_b2b(&input[cut..], &mut out[cut..])
            .map_err(failed("apply_keystream_b2b"))?;

        publish("in-place output", &mut in_place)?;
        publish("out-of-place output", &mut out)?;
        if in_place != out {
            return Err(format!(
                "{len} bytes: in place and split out of place differ"
            ));
        }
        fold(&mut digest, &out);
    }
    Ok(digest)
}

/// HChaCha20 (portable only; it has no backends): the key secret, the input public as
/// the nonce it comes from is.
pub fn hchacha() -> Outcome {
    let mut digest = DIGEST_START;
    for seed in 0..32 {
        let key = secret_key(seed);
        let input: [u8; 16] = bytes(seed + 1000, 16).try_into().expect("16 bytes");
        let mut subkey = hchacha20(&key, &input);
        publish("subkey", &mut subkey)?;
        fold(&mut digest, &subkey);
    }
    Ok(digest)
}

/// Poly1305 on `backend`: one-time key and message secret; one-shot and in three
/// pieces, then `verify` against the right tag and a wrong one (both secret).
pub fn poly1305(backend: Poly1305Backend) -> Outcome {
    let mut digest = DIGEST_START;
    for &len in MAC_LENGTHS {
        let seed = len as u64 + 5000;
        let key = secret_key(seed);
        let message = secret(seed + 1, len);
        let mac = Poly1305::new(&key)
            .with_backend(backend)
            .map_err(failed("with_backend"))?;

        let mut whole = mac.clone();
        whole.update(&message);
        let mut tag = whole.finalize();

        let mut pieces = mac.clone();
        let (a, b) = (len / 3, 2 * len / 3);
        pieces.update(&message[..a]);
        pieces.update(&message[a..b]);
        pieces.update(&message[b..]);
        let mut tag_in_pieces = pieces.finalize();

        publish("tag", &mut tag)?;
        publish("tag in pieces", &mut tag_in_pieces)?;
        if tag != tag_in_pieces {
            return Err(format!("{len} bytes: one-shot and piecewise tags differ"));
        }
        fold(&mut digest, &tag);

        let mut right = tag;
        conceal(&mut right);
        let mut checker = mac.clone();
        checker.update(&message);
        if checker.verify(&right).is_err() {
            return Err(format!("{len} bytes: verify refused the right tag"));
        }
        let mut wrong = tag;
        wrong[len % TAG_LEN] ^= 0x10;
        conceal(&mut wrong);
        let mut checker = mac;
        checker.update(&message);
        if checker.verify(&wrong).is_ok() {
            return Err(format!("{len} bytes: verify accepted a wrong tag"));
        }
    }
    Ok(digest)
}

/// An AEAD on the ChaCha `backend` and the Poly1305 `mac_backend`: key and plaintext
/// secret; seal, then open the ciphertext and tag (secret too: open must not branch on
/// them beyond the one verdict), then open with a flipped tag bit and with a flipped
/// ciphertext bit, which must fail and leave zeros.
pub fn aead<V: AeadVariant>(
    backend: Backend,
    mac_backend: Poly1305Backend,
    nonce: &V::Nonce,
) -> Outcome {
    let aad = bytes(42, 21);
    let mut digest = DIGEST_START;
    for &len in AEAD_LENGTHS {
        let seed = len as u64 + 9000;
        let key = secret_key(seed);
        let aead = ChaChaPoly1305::<V>::new(&key)
            .with_backend(backend)
            .and_then(|a| a.with_mac_backend(mac_backend))
            .map_err(failed("with_backend"))?;

        let mut sealed = secret(seed + 1, len);
        let mut tag = aead
            .encrypt_in_place_detached(nonce, &aad, &mut sealed)
            .map_err(failed("seal"))?;
        publish("ciphertext", &mut sealed)?;
        publish("tag", &mut tag)?;
        fold(&mut digest, &sealed);
        fold(&mut digest, &tag);

        let mut opened = sealed.clone();
        let mut given = tag;
        conceal(&mut opened);
        conceal(&mut given);
        aead.decrypt_in_place_detached(nonce, &aad, &mut opened, &given)
            .map_err(failed("open"))?;
        publish("opened plaintext", &mut opened)?;
        if opened != bytes(seed + 1, len) {
            return Err(format!("{len} bytes: open did not give the plaintext back"));
        }

        let mut forged_tag = tag;
        forged_tag[len % TAG_LEN] ^= 0x01;
        forgery(&aead, nonce, &aad, sealed.clone(), forged_tag, "tag")?;
        if len > 0 {
            let mut forged = sealed.clone();
            forged[len / 2] ^= 0x80;
            forgery(&aead, nonce, &aad, forged, tag, "ciphertext")?;
        }
    }
    Ok(digest)
}

/// The bursts [`aead_burst`] runs: one item of each AEAD length (the lanes take the
/// short ones, the single path the others, one at a time on the MAC), and sixteen of
/// 576 bytes (key block and message one lane job each; the MAC's lanes).
pub const BURSTS: [(&str, &[usize]); 2] = [("mixed", AEAD_LENGTHS), ("16 x 576 B", &[576; 16])];

/// The one-key ChaCha20-Poly1305 burst of items of `lengths` on `backend` and
/// `mac_backend`, key and plaintexts secret; the burst sealed, then opened with the
/// ciphertexts and tags concealed and every third item's tag flipped: exactly those
/// fail, zeroed, and the others give their plaintexts back. The per-item verdicts and
/// the burst's own are read (branched on) here, so they must be defined: each comes
/// through the one declassification point.
pub fn aead_burst(backend: Backend, mac_backend: Poly1305Backend, lengths: &[usize]) -> Outcome {
    let aad = bytes(43, 13);
    let aead = ChaCha20Poly1305::new(&secret_key(7000))
        .with_backend(backend)
        .and_then(|a| a.with_mac_backend(mac_backend))
        .map_err(failed("with_backend"))?;
    let plaintext = |len: usize| secret(len as u64 + 7100, len);
    let mut bufs: Vec<Vec<u8>> = lengths.iter().map(|&len| plaintext(len)).collect();
    let nonces: Vec<[u8; 12]> = (0..bufs.len()).map(|i| [i as u8; 12]).collect();
    let mut items: Vec<SealItem<'_, Ietf<20>>> = bufs
        .iter_mut()
        .zip(&nonces)
        .map(|(buf, nonce)| SealItem::new(*nonce, &aad, buf))
        .collect();
    aead.seal_burst(&mut items).map_err(failed("seal_burst"))?;
    let mut tags: Vec<[u8; TAG_LEN]> = items.iter().map(|item| item.tag).collect();
    drop(items);
    let mut digest = DIGEST_START;
    for (buf, tag) in bufs.iter_mut().zip(tags.iter_mut()) {
        publish("burst ciphertext", buf)?;
        publish("burst tag", tag)?;
        fold(&mut digest, buf);
        fold(&mut digest, tag);
    }

    let forged = |i: usize| i % 3 == 1;
    let mut given: Vec<[u8; TAG_LEN]> = tags.clone();
    for (i, tag) in given.iter_mut().enumerate() {
        if forged(i) {
            tag[i % TAG_LEN] ^= 0x01;
        }
    }
    for (buf, tag) in bufs.iter_mut().zip(given.iter_mut()) {
        conceal(buf);
        conceal(tag);
    }
    let mut verdicts = vec![Ok(()); bufs.len()];
    let mut items: Vec<OpenItem<'_, Ietf<20>>> = bufs
        .iter_mut()
        .zip(&nonces)
        .zip(&given)
        .map(|((buf, nonce), tag)| OpenItem::new(*nonce, &aad, buf, *tag))
        .collect();
    let overall = aead.open_burst(&mut items, &mut verdicts);
    drop(items);
    if overall != Err(Error::AuthenticationFailed) {
        return Err(format!("open_burst with forged items gave {overall:?}"));
    }
    for (i, (buf, &len)) in bufs.iter_mut().zip(lengths).enumerate() {
        if forged(i) {
            reveal(buf);
            if verdicts[i] != Err(Error::AuthenticationFailed) {
                return Err(format!(
                    "burst item {i} ({len} bytes), forged: {:?}",
                    verdicts[i]
                ));
            }
            if buf.iter().any(|&b| b != 0) {
                return Err(format!("burst item {i} ({len} bytes), forged: not wiped"));
            }
        } else {
            publish("burst opened plaintext", buf)?;
            if verdicts[i] != Ok(()) || *buf != bytes(len as u64 + 7100, len) {
                return Err(format!(
                    "burst item {i} ({len} bytes): {:?}, or not the plaintext",
                    verdicts[i]
                ));
            }
        }
    }
    Ok(digest)
}

/// Opens a forgery (ciphertext and tag concealed first): it must be refused, with the
/// buffer wiped.
fn forgery<V: AeadVariant>(
    aead: &ChaChaPoly1305<V>,
    nonce: &V::Nonce,
    aad: &[u8],
    mut buf: Vec<u8>,
    mut tag: [u8; TAG_LEN],
    flipped: &str,
) -> Result<(), String> {
    conceal(&mut buf);
    conceal(&mut tag);
    let verdict = aead.decrypt_in_place_detached(nonce, aad, &mut buf, &tag);
    // The wiped buffer is defined (zeros written after the verdict); reveal it anyway
    // in case it is not, so the check below is not itself reported.
    reveal(&mut buf);
    if verdict != Err(Error::AuthenticationFailed) {
        return Err(format!(
            "{} bytes, flipped {flipped} bit: open gave {verdict:?}",
            buf.len()
        ));
    }
    if buf.iter().any(|&b| b != 0) {
        return Err(format!(
            "{} bytes, flipped {flipped} bit: the buffer was not wiped",
            buf.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ragged_chacha::variant::{Ietf, XChaCha};

    /// Natively the markings are no-ops, so every case must pass its own checks and
    /// every backend must give the portable backend's digest.
    #[test]
    fn every_case_passes_natively_and_backends_agree() {
        let nonce12 = [7u8; 12];
        let nonce24 = [9u8; 24];
        let expected = stream::<Ietf<20>>(Backend::Portable, &nonce12).unwrap();
        let expected_x = stream::<XChaCha<20>>(Backend::Portable, &nonce24).unwrap();
        for b in Backend::available() {
            assert_eq!(stream::<Ietf<20>>(b, &nonce12), Ok(expected), "{b:?}");
            assert_eq!(stream::<XChaCha<20>>(b, &nonce24), Ok(expected_x), "{b:?}");
        }
        hchacha().unwrap();
        let mac = poly1305(Poly1305Backend::Portable).unwrap();
        let sealed =
            aead::<Ietf<20>>(Backend::Portable, Poly1305Backend::Portable, &nonce12).unwrap();
        let bursts = BURSTS.map(|(_, lengths)| {
            aead_burst(Backend::Portable, Poly1305Backend::Portable, lengths).unwrap()
        });
        for m in Poly1305Backend::available() {
            assert_eq!(poly1305(m), Ok(mac), "{m:?}");
            for b in Backend::available() {
                assert_eq!(aead::<Ietf<20>>(b, m, &nonce12), Ok(sealed), "{b:?} {m:?}");
                aead::<XChaCha<20>>(b, m, &nonce24).unwrap();
                for ((name, lengths), burst) in BURSTS.iter().zip(bursts) {
                    let got = aead_burst(b, m, lengths);
                    assert_eq!(got, Ok(burst), "burst {name} {b:?} {m:?}");
                }
            }
        }
    }

    /// Backends that disagree would show in the digest: it depends on every output
    /// byte.
    #[test]
    fn the_digest_sees_every_byte() {
        let mut a = DIGEST_START;
        let mut b = DIGEST_START;
        fold(&mut a, &[1, 2, 3]);
        fold(&mut b, &[1, 2, 4]);
        assert_ne!(a, b);
    }
}
