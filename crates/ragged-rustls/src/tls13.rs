//! TLS 1.3 record protection for `TLS13_CHACHA20_POLY1305_SHA256` (RFC 8446 §5.2).

use ragged_chacha::ChaCha20Poly1305;
use ragged_chacha::aead::TAG_LEN;
use rustls::ConnectionTrafficSecrets;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    Nonce, OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload, Tls13AeadAlgorithm,
    UnsupportedOperationError, make_tls13_aad,
};
use rustls::{ContentType, Error, ProtocolVersion};

use crate::aead_for;

/// ChaCha20-Poly1305 as a TLS 1.3 record AEAD, on ragged.
///
/// The suite from [`crate::tls13_chacha20_poly1305_sha256`] uses it; it is public so
/// that a provider of one's own can build a `Tls13CipherSuite` around it (with its own
/// hash and HKDF).
#[derive(Debug, Clone, Copy, Default)]
pub struct Tls13ChaCha20Poly1305;

impl Tls13AeadAlgorithm for Tls13ChaCha20Poly1305 {
    fn encrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Tls13Encrypter {
            aead: aead_for(&key),
            iv,
        })
    }

    fn decrypter(&self, key: AeadKey, iv: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Tls13Decrypter {
            aead: aead_for(&key),
            iv,
        })
    }

    fn key_len(&self) -> usize {
        32
    }

    fn extract_keys(
        &self,
        key: AeadKey,
        iv: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        // kTLS and friends take the same key and IV whoever computed the records.
        Ok(ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv })
    }

    fn fips(&self) -> bool {
        false
    }
}

struct Tls13Encrypter {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

struct Tls13Decrypter {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

impl MessageEncrypter for Tls13Encrypter {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        seq: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let total_len = self.encrypted_payload_len(msg.payload.len());
        // The one copy rustls's API requires: the plaintext chunks into the record
        // buffer (which already has room for the 5-byte header in front). Everything
        // after that happens in place in this buffer.
        let mut payload = PrefixedPayload::with_capacity(total_len);
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&msg.typ.to_array());
        let nonce = Nonce::new(&self.iv, seq).0;
        let aad = make_tls13_aad(total_len);
        let tag = self
            .aead
            .encrypt_in_place_detached(&nonce, &aad, payload.as_mut())
            .map_err(|_| Error::EncryptError)?;
        payload.extend_from_slice(&tag);
        // All TLS 1.3 records carry the legacy type application_data and version 1.2
        // (RFC 8446 §5.2).
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }

    fn encrypted_payload_len(&self, payload_len: usize) -> usize {
        payload_len + 1 + TAG_LEN
    }
}

impl MessageDecrypter for Tls13Decrypter {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        seq: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let payload = &mut msg.payload;
        // The AAD is the record header as received: its length counts the tag.
        let aad = make_tls13_aad(payload.len());
        let body_len =
            crate::open_in_place(&self.aead, &Nonce::new(&self.iv, seq).0, &aad, payload)?;
        payload.truncate(body_len);
        // rustls checks the inner plaintext's length, padding and content type.
        msg.into_tls13_unpadded_message()
    }
}
