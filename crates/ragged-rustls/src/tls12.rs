//! TLS 1.2 record protection for the ECDHE ChaCha20-Poly1305 suites (RFC 7905).

use ragged_chacha::ChaCha20Poly1305;
use ragged_chacha::aead::TAG_LEN;
use rustls::ConnectionTrafficSecrets;
use rustls::Error;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, KeyBlockShape, MessageDecrypter,
    MessageEncrypter, NONCE_LEN, Nonce, OutboundOpaqueMessage, OutboundPlainMessage,
    PrefixedPayload, Tls12AeadAlgorithm, UnsupportedOperationError, make_tls12_aad,
};

use crate::aead_for;

/// The longest TLS plaintext fragment, 2^14 bytes (RFC 5246 §6.2.1).
const MAX_FRAGMENT_LEN: usize = 16384;

/// ChaCha20-Poly1305 as a TLS 1.2 record AEAD (RFC 7905), on ragged.
///
/// The two ECDHE suites from [`crate::tls_ecdhe_ecdsa_with_chacha20_poly1305_sha256`]
/// and [`crate::tls_ecdhe_rsa_with_chacha20_poly1305_sha256`] use it; it is public so
/// that a provider of one's own can build a `Tls12CipherSuite` around it.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tls12ChaCha20Poly1305;

impl Tls12AeadAlgorithm for Tls12ChaCha20Poly1305 {
    fn encrypter(&self, key: AeadKey, iv: &[u8], _explicit: &[u8]) -> Box<dyn MessageEncrypter> {
        Box::new(Tls12Encrypter {
            aead: aead_for(&key),
            iv: Iv::copy(iv),
        })
    }

    fn decrypter(&self, key: AeadKey, iv: &[u8]) -> Box<dyn MessageDecrypter> {
        Box::new(Tls12Decrypter {
            aead: aead_for(&key),
            iv: Iv::copy(iv),
        })
    }

    fn key_block_shape(&self) -> KeyBlockShape {
        // RFC 7905 §2: a 12-byte fixed IV XORed with the sequence number, as in TLS 1.3;
        // no explicit nonce on the wire.
        KeyBlockShape {
            enc_key_len: 32,
            fixed_iv_len: NONCE_LEN,
            explicit_nonce_len: 0,
        }
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: &[u8],
        _explicit: &[u8],
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        let iv = <[u8; NONCE_LEN]>::try_from(iv).map_err(|_| UnsupportedOperationError)?;
        Ok(ConnectionTrafficSecrets::Chacha20Poly1305 {
            key,
            iv: Iv::new(iv),
        })
    }

    fn fips(&self) -> bool {
        false
    }
}

struct Tls12Encrypter {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

struct Tls12Decrypter {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

impl MessageEncrypter for Tls12Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        // The one copy rustls's API requires (plaintext chunks into the record buffer);
        // the rest is in place.
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, msg.payload.len());
        let tag = self
            .aead
            .encrypt_in_place_detached(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        Ok(OutboundOpaqueMessage::new(msg.typ, msg.version, payload))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + TAG_LEN
    }
}

impl MessageDecrypter for Tls12Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        // The AAD carries the plaintext length; a record shorter than a tag has none,
        // and fails as a forgery would.
        let plain_len = payload
            .len()
            .checked_sub(TAG_LEN)
            .ok_or(Error::DecryptError)?;
        let aad = make_tls12_aad(seq, msg.typ, msg.version, plain_len);
        let body_len =
            crate::open_in_place(&self.aead, &Nonce::new(&self.iv, seq).0, &aad, payload)?;
        // As rustls's own providers do: an authentic record may still be too long.
        if body_len > MAX_FRAGMENT_LEN {
            return Err(Error::PeerSentOversizedRecord);
        }
        payload.truncate(body_len);
        Ok(msg.into_plain_message())
    }
}
