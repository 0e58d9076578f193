//! A [rustls] `CryptoProvider` whose ChaCha20-Poly1305 cipher suites run on ragged.
//!
//! rustls (and through it quinn, hyper, reqwest, tonic) takes its record protection
//! from a `CryptoProvider`. This crate's [`provider()`] is rustls's own *ring*
//! provider with its three ChaCha20-Poly1305 suites swapped for ragged's:
//!
//! - `TLS13_CHACHA20_POLY1305_SHA256` — TLS 1.3 records, and for QUIC the packet
//!   protection and ChaCha20 header protection (RFC 9001 §5.4.4);
//! - `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256` and
//!   `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256` — TLS 1.2 records (RFC 7905).
//!
//! Only the record (and packet) protection changes hands. Key exchange, signatures,
//! certificate verification, hashes, HKDF and the PRF, randomness and the AES-GCM
//! suites stay *ring*'s, so the provider is complete with one call, and what ragged
//! does is the part it is fast at: the AEAD over each record, in place in the
//! record buffer rustls hands over.
//!
//! ```
//! use std::sync::Arc;
//!
//! // A client that offers only ragged's suites (drop the `retain` to keep *ring*'s
//! // AES-GCM suites as well, in *ring*'s preference order).
//! let mut provider = ragged_rustls::provider();
//! provider.cipher_suites.retain(ragged_rustls::is_ragged_suite);
//! let config = rustls::ClientConfig::builder_with_provider(Arc::new(provider))
//!     .with_safe_default_protocol_versions()
//!     .unwrap()
//!     .with_root_certificates(rustls::RootCertStore::empty())
//!     .with_no_client_auth();
//! assert_eq!(config.crypto_provider().cipher_suites.len(), 3);
//! ```
//!
//! A provider of one's own (another key exchange, a hardware signer, aws-lc-rs) gets
//! ragged's suites with [`add_suites`]; quinn picks up the QUIC half through the TLS 1.3
//! suite with no further setup:
//!
//! ```
//! let mut provider = rustls::crypto::ring::default_provider();
//! ragged_rustls::add_suites(&mut provider);
//! assert_eq!(provider.cipher_suites.iter().filter(|s| ragged_rustls::is_ragged_suite(s)).count(), 3);
//!
//! let suite = ragged_rustls::tls13_chacha20_poly1305_sha256();
//! assert!(suite.tls13().unwrap().quic.is_some());
//! ```
//!
//! The record AEADs are also public ([`Tls13ChaCha20Poly1305`],
//! [`Tls12ChaCha20Poly1305`], [`QuicChaCha20Poly1305`]) for building cipher suites
//! around other hash and HKDF providers.
//!
//! A record that fails authentication (a flipped bit, a truncated tag) fails with
//! rustls's `Error::DecryptError`, as with *ring*, and ragged overwrites the failed
//! record's bytes before returning, so no unauthenticated plaintext stays behind in
//! rustls's buffer.

use std::sync::LazyLock;

use ragged_chacha::ChaCha20Poly1305;
use ragged_chacha::aead::TAG_LEN;
use rustls::crypto::CryptoProvider;
use rustls::crypto::cipher::AeadKey;
use rustls::crypto::ring::cipher_suite as ring_suites;
use rustls::{
    CipherSuite, CipherSuiteCommon, Error, SupportedCipherSuite, Tls12CipherSuite, Tls13CipherSuite,
};

mod quic;
mod tls12;
mod tls13;

pub use quic::QuicChaCha20Poly1305;
pub use tls12::Tls12ChaCha20Poly1305;
pub use tls13::Tls13ChaCha20Poly1305;

/// *ring*'s default provider with its ChaCha20-Poly1305 suites replaced by ragged's
/// (same places in the preference order).
///
/// ```
/// let provider = ragged_rustls::provider();
/// let chacha = provider
///     .cipher_suites
///     .iter()
///     .find(|s| s.suite() == rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256)
///     .unwrap();
/// assert!(ragged_rustls::is_ragged_suite(chacha));
/// ```
pub fn provider() -> CryptoProvider {
    let mut provider = rustls::crypto::ring::default_provider();
    add_suites(&mut provider);
    provider
}

/// Puts ragged's three ChaCha20-Poly1305 suites into `provider`: each replaces the
/// suite with the same IANA value where `provider` has one, keeping its place in the
/// preference order, and is appended (least preferred) where it has none.
///
/// The suites' hashes, HKDF and TLS 1.2 PRF are *ring*'s, whatever `provider` uses for
/// the rest: a cipher suite names its hash, and any correct SHA-256 gives the same
/// key schedule.
pub fn add_suites(provider: &mut CryptoProvider) {
    for ours in cipher_suites() {
        match provider
            .cipher_suites
            .iter_mut()
            .find(|s| s.suite() == ours.suite())
        {
            Some(theirs) => *theirs = ours,
            None => provider.cipher_suites.push(ours),
        }
    }
}

/// ragged's three suites: TLS 1.3 first, then the TLS 1.2 ECDSA and RSA suites.
pub fn cipher_suites() -> [SupportedCipherSuite; 3] {
    [
        tls13_chacha20_poly1305_sha256(),
        tls_ecdhe_ecdsa_with_chacha20_poly1305_sha256(),
        tls_ecdhe_rsa_with_chacha20_poly1305_sha256(),
    ]
}

/// Whether `suite` is one of ragged's (not merely a suite with the same IANA value):
/// for asserting, or logging, which implementation a connection negotiated.
pub fn is_ragged_suite(suite: &SupportedCipherSuite) -> bool {
    match suite {
        SupportedCipherSuite::Tls13(s) => core::ptr::eq(*s, &*TLS13_CHACHA20_POLY1305_SHA256),
        SupportedCipherSuite::Tls12(s) => {
            core::ptr::eq(*s, &*TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)
                || core::ptr::eq(*s, &*TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256)
        }
    }
}

/// `TLS13_CHACHA20_POLY1305_SHA256` with ragged's record and QUIC protection.
pub fn tls13_chacha20_poly1305_sha256() -> SupportedCipherSuite {
    SupportedCipherSuite::Tls13(&TLS13_CHACHA20_POLY1305_SHA256)
}

/// `TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256` with ragged's record protection.
pub fn tls_ecdhe_ecdsa_with_chacha20_poly1305_sha256() -> SupportedCipherSuite {
    SupportedCipherSuite::Tls12(&TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256)
}

/// `TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256` with ragged's record protection.
pub fn tls_ecdhe_rsa_with_chacha20_poly1305_sha256() -> SupportedCipherSuite {
    SupportedCipherSuite::Tls12(&TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256)
}

// The suites are *ring*'s with the AEAD swapped. *ring*'s hash, HKDF and PRF objects
// are private to rustls and reachable only through its suite statics, at run time,
// hence the lazy statics (and accessor functions instead of `pub static`s).

static TLS13_CHACHA20_POLY1305_SHA256: LazyLock<Tls13CipherSuite> = LazyLock::new(|| {
    let ring = ring_tls13(&ring_suites::TLS13_CHACHA20_POLY1305_SHA256);
    Tls13CipherSuite {
        common: common(&ring.common),
        hkdf_provider: ring.hkdf_provider,
        aead_alg: &Tls13ChaCha20Poly1305,
        quic: Some(&QuicChaCha20Poly1305),
    }
});

static TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: LazyLock<Tls12CipherSuite> =
    LazyLock::new(|| tls12_from(&ring_suites::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256));

static TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: LazyLock<Tls12CipherSuite> =
    LazyLock::new(|| tls12_from(&ring_suites::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256));

fn ring_tls13(suite: &SupportedCipherSuite) -> &'static Tls13CipherSuite {
    match *suite {
        SupportedCipherSuite::Tls13(s) => s,
        SupportedCipherSuite::Tls12(_) => unreachable!("a TLS 1.3 suite of rustls's ring provider"),
    }
}

fn tls12_from(ring: &SupportedCipherSuite) -> Tls12CipherSuite {
    let SupportedCipherSuite::Tls12(ring) = *ring else {
        unreachable!("a TLS 1.2 suite of rustls's ring provider")
    };
    Tls12CipherSuite {
        common: common(&ring.common),
        prf_provider: ring.prf_provider,
        kx: ring.kx,
        sign: ring.sign,
        aead_alg: &Tls12ChaCha20Poly1305,
    }
}

fn common(ring: &CipherSuiteCommon) -> CipherSuiteCommon {
    debug_assert!(matches!(
        ring.suite,
        CipherSuite::TLS13_CHACHA20_POLY1305_SHA256
            | CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256
            | CipherSuite::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256
    ));
    CipherSuiteCommon {
        suite: ring.suite,
        hash_provider: ring.hash_provider,
        confidentiality_limit: ring.confidentiality_limit,
    }
}

/// The AEAD for a 32-byte key from rustls (every algorithm here says `key_len` 32).
fn aead_for(key: &AeadKey) -> ChaCha20Poly1305 {
    let key: &[u8; 32] = key
        .as_ref()
        .try_into()
        .expect("rustls hands over keys of the length the algorithm asked for: 32 bytes");
    ChaCha20Poly1305::new(key)
}

/// Opens `ciphertext ‖ tag` in place and returns the plaintext's length. Anything
/// that does not authenticate — a record shorter than a tag included — is
/// `Error::DecryptError`, and ragged has overwritten the bytes it decrypted.
fn open_in_place(
    aead: &ChaCha20Poly1305,
    nonce: &[u8; 12],
    aad: &[u8],
    payload: &mut [u8],
) -> Result<usize, Error> {
    let body_len = payload
        .len()
        .checked_sub(TAG_LEN)
        .ok_or(Error::DecryptError)?;
    let (body, tag) = payload.split_at_mut(body_len);
    let tag: &[u8; TAG_LEN] = (&*tag).try_into().map_err(|_| Error::DecryptError)?;
    aead.decrypt_in_place_detached(nonce, aad, body, tag)
        .map_err(|_| Error::DecryptError)?;
    Ok(body_len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(p: &CryptoProvider) -> Vec<CipherSuite> {
        p.cipher_suites.iter().map(|s| s.suite()).collect()
    }

    #[test]
    fn provider_is_rings_with_the_chacha_suites_swapped_in_place() {
        let ring = rustls::crypto::ring::default_provider();
        let ours = provider();
        assert_eq!(ids(&ours), ids(&ring));
        for (a, b) in ours.cipher_suites.iter().zip(&ring.cipher_suites) {
            let chacha = cipher_suites().iter().any(|s| s.suite() == a.suite());
            assert_eq!(is_ragged_suite(a), chacha, "{:?}", a.suite());
            assert!(!is_ragged_suite(b));
        }
        assert_eq!(ours.kx_groups.len(), ring.kx_groups.len());
    }

    #[test]
    fn add_suites_appends_what_is_missing_and_is_idempotent() {
        let mut p = rustls::crypto::ring::default_provider();
        p.cipher_suites
            .retain(|s| !cipher_suites().iter().any(|c| c.suite() == s.suite()));
        let before = ids(&p);
        add_suites(&mut p);
        add_suites(&mut p);
        let after = ids(&p);
        assert_eq!(after.len(), before.len() + 3);
        assert_eq!(&after[..before.len()], &before[..]);
        assert!(p.cipher_suites[before.len()..].iter().all(is_ragged_suite));
    }

    fn common_of(s: &SupportedCipherSuite) -> &'static CipherSuiteCommon {
        match *s {
            SupportedCipherSuite::Tls13(s) => &s.common,
            SupportedCipherSuite::Tls12(s) => &s.common,
        }
    }

    #[test]
    fn suites_keep_rings_hash_and_limits() {
        for (ours, ring) in cipher_suites().iter().zip([
            ring_suites::TLS13_CHACHA20_POLY1305_SHA256,
            ring_suites::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
            ring_suites::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        ]) {
            assert_eq!(ours.suite(), ring.suite());
            let (a, b) = (common_of(ours), common_of(&ring));
            assert_eq!(a.hash_provider.algorithm(), b.hash_provider.algorithm());
            assert_eq!(a.confidentiality_limit, b.confidentiality_limit);
            assert_eq!(ours.version(), ring.version());
            assert!(!ours.fips());
        }
    }
}
