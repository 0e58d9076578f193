//! QUIC packet protection (RFC 9001 §5.3) and ChaCha20 header protection (§5.4.4) for
//! the `TLS_CHACHA20_POLY1305_SHA256` suite.

use ragged_chacha::aead::TAG_LEN;
use ragged_chacha::{ChaCha20, ChaCha20Poly1305};
use rustls::Error;
use rustls::crypto::cipher::{AeadKey, Iv, Nonce};
use rustls::quic;
use zeroize::Zeroizing;

use crate::aead_for;

/// The header-protection sample length (RFC 9001 §5.4.2).
const SAMPLE_LEN: usize = 16;

/// ChaCha20-Poly1305 as QUIC's packet protection and ChaCha20 as its header
/// protection, on ragged.
///
/// The TLS 1.3 suite from [`crate::tls13_chacha20_poly1305_sha256`] carries it, so a
/// quinn endpoint configured with [`crate::provider`] uses it without further setup.
#[derive(Debug, Clone, Copy, Default)]
pub struct QuicChaCha20Poly1305;

impl quic::Algorithm for QuicChaCha20Poly1305 {
    fn packet_key(&self, key: AeadKey, iv: Iv) -> Box<dyn quic::PacketKey> {
        Box::new(PacketKey {
            aead: aead_for(&key),
            iv,
        })
    }

    fn header_protection_key(&self, key: AeadKey) -> Box<dyn quic::HeaderProtectionKey> {
        let mut hp = Zeroizing::new([0u8; 32]);
        hp.copy_from_slice(key.as_ref());
        Box::new(HeaderProtectionKey { key: hp })
    }

    fn aead_key_len(&self) -> usize {
        32
    }

    fn fips(&self) -> bool {
        false
    }
}

struct PacketKey {
    aead: ChaCha20Poly1305,
    iv: Iv,
}

impl PacketKey {
    fn seal(&self, nonce: Nonce, header: &[u8], payload: &mut [u8]) -> Result<quic::Tag, Error> {
        let tag = self
            .aead
            .encrypt_in_place_detached(&nonce.0, header, payload)
            .map_err(|_| Error::EncryptError)?;
        Ok(quic::Tag::from(&tag[..]))
    }

    fn open<'a>(
        &self,
        nonce: Nonce,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        let body_len = crate::open_in_place(&self.aead, &nonce.0, header, payload)?;
        Ok(&payload[..body_len])
    }
}

impl quic::PacketKey for PacketKey {
    fn encrypt_in_place(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn encrypt_in_place_for_path(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &mut [u8],
    ) -> Result<quic::Tag, Error> {
        self.seal(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn decrypt_in_place<'a>(
        &self,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(Nonce::new(&self.iv, packet_number), header, payload)
    }

    fn decrypt_in_place_for_path<'a>(
        &self,
        path_id: u32,
        packet_number: u64,
        header: &[u8],
        payload: &'a mut [u8],
    ) -> Result<&'a [u8], Error> {
        self.open(
            Nonce::for_path(path_id, &self.iv, packet_number),
            header,
            payload,
        )
    }

    fn tag_len(&self) -> usize {
        TAG_LEN
    }

    fn confidentiality_limit(&self) -> u64 {
        // RFC 9001 §6.6: more than the 2^62 packets a connection can number.
        u64::MAX
    }

    fn integrity_limit(&self) -> u64 {
        // RFC 9001 §6.6: 2^36 forged packets for ChaCha20-Poly1305.
        1 << 36
    }
}

struct HeaderProtectionKey {
    key: Zeroizing<[u8; 32]>,
}

impl HeaderProtectionKey {
    /// The five mask bytes for `sample` (RFC 9001 §5.4.4): the ChaCha20 keystream at
    /// block counter `sample[0..4]` (little endian) under nonce `sample[4..16]`.
    fn mask(&self, sample: &[u8]) -> Result<[u8; 5], Error> {
        let sample: &[u8; SAMPLE_LEN] = sample
            .try_into()
            .map_err(|_| Error::General("sample of invalid length".into()))?;
        let (counter, nonce) = sample.split_at(4);
        let counter = u32::from_le_bytes([counter[0], counter[1], counter[2], counter[3]]);
        let nonce: &[u8; 12] = nonce.try_into().map_err(|_| Error::EncryptError)?;
        let mut mask = [0u8; 5];
        // Five bytes at any 32-bit counter, block 0xffffffff included, are within the
        // keystream, so this cannot fail; mapped to an error all the same.
        ChaCha20::with_counter(&self.key, nonce, counter)
            .try_apply_keystream(&mut mask)
            .map_err(|_| Error::General("header protection keystream".into()))?;
        Ok(mask)
    }

    /// RFC 9001 §5.4.1's "Header Protection Application"; `masked` says whether
    /// `first` arrives protected (then the packet number length is read after
    /// unmasking it) or not (before). On an error nothing has been changed.
    fn xor_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
        masked: bool,
    ) -> Result<(), Error> {
        let mask = self.mask(sample)?;
        let (first_mask, pn_mask) = (mask[0], &mask[1..]);
        if packet_number.len() > pn_mask.len() {
            return Err(Error::General("packet number too long".into()));
        }
        // Long header (form bit set): 4 bits protected; short header: 5 bits.
        let bits = if *first & 0x80 != 0 { 0x0f } else { 0x1f };
        let first_plain = if masked {
            *first ^ (first_mask & bits)
        } else {
            *first
        };
        let pn_len = usize::from(first_plain & 0x03) + 1;
        *first ^= first_mask & bits;
        for (byte, m) in packet_number.iter_mut().zip(pn_mask).take(pn_len) {
            *byte ^= m;
        }
        Ok(())
    }
}

impl quic::HeaderProtectionKey for HeaderProtectionKey {
    fn encrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_in_place(sample, first, packet_number, false)
    }

    fn decrypt_in_place(
        &self,
        sample: &[u8],
        first: &mut u8,
        packet_number: &mut [u8],
    ) -> Result<(), Error> {
        self.xor_in_place(sample, first, packet_number, true)
    }

    fn sample_len(&self) -> usize {
        SAMPLE_LEN
    }
}
