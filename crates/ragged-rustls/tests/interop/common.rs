//! Shared by the integration tests: certificates, configs for each side, and an
//! in-memory pipe between two rustls connections.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::sync::Arc;

use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, RootCertStore, ServerConfig, ServerConnection,
    SupportedCipherSuite,
};

/// A CA and a `localhost` / 127.0.0.1 certificate it signed, with the certificate's key.
pub struct Pki {
    pub ca: CertificateDer<'static>,
    pub chain: Vec<CertificateDer<'static>>,
    pub key: PrivatePkcs8KeyDer<'static>,
}

impl Pki {
    /// ECDSA P-256 throughout (rcgen on *ring* cannot make RSA keys; the RSA suite is
    /// covered against OpenSSL with an OpenSSL-made key).
    pub fn ecdsa() -> Pki {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        ca_params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "ragged test CA");
        let ca = ca_params.self_signed(&ca_key).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let params =
            rcgen::CertificateParams::new(vec!["localhost".to_string(), "127.0.0.1".to_string()])
                .unwrap();
        let cert = params.signed_by(&key, &ca, &ca_key).unwrap();
        Pki {
            ca: ca.der().clone(),
            chain: vec![cert.der().clone()],
            key: PrivatePkcs8KeyDer::from(key.serialize_der()),
        }
    }

    pub fn roots(&self) -> RootCertStore {
        let mut roots = RootCertStore::empty();
        roots.add(self.ca.clone()).unwrap();
        roots
    }
}

/// Which implementation a side runs, and which suites it offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// `ragged_rustls::provider()`, its suites cut down to ragged's ChaCha20-Poly1305.
    Ragged,
    /// rustls's own *ring* provider, cut down to its ChaCha20-Poly1305 suites.
    Ring,
}

/// The provider for `side`, offering only the ChaCha20-Poly1305 suites with IANA
/// value `suite` (so a connection can negotiate nothing else).
pub fn provider(side: Side, suite: rustls::CipherSuite) -> CryptoProvider {
    let mut p = match side {
        Side::Ragged => ragged_rustls::provider(),
        Side::Ring => rustls::crypto::ring::default_provider(),
    };
    p.cipher_suites.retain(|s| s.suite() == suite);
    assert_eq!(p.cipher_suites.len(), 1);
    assert_eq!(
        ragged_rustls::is_ragged_suite(&p.cipher_suites[0]),
        side == Side::Ragged
    );
    p
}

fn versions(suite: rustls::CipherSuite) -> &'static [&'static rustls::SupportedProtocolVersion] {
    static TLS13: [&rustls::SupportedProtocolVersion; 1] = [&rustls::version::TLS13];
    static TLS12: [&rustls::SupportedProtocolVersion; 1] = [&rustls::version::TLS12];
    if suite == rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256 {
        &TLS13
    } else {
        &TLS12
    }
}

pub fn client_config(side: Side, suite: rustls::CipherSuite, roots: RootCertStore) -> ClientConfig {
    let mut c = ClientConfig::builder_with_provider(Arc::new(provider(side, suite)))
        .with_protocol_versions(versions(suite))
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    c.enable_secret_extraction = true;
    c
}

pub fn server_config(
    side: Side,
    suite: rustls::CipherSuite,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> ServerConfig {
    let mut c = ServerConfig::builder_with_provider(Arc::new(provider(side, suite)))
        .with_protocol_versions(versions(suite))
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    c.enable_secret_extraction = true;
    c
}

/// A connected client and server (handshake done), `client` and `server` choosing
/// their providers.
pub fn connected_pair(
    pki: &Pki,
    client: Side,
    server: Side,
    suite: rustls::CipherSuite,
) -> (ClientConnection, ServerConnection) {
    let cc = client_config(client, suite, pki.roots());
    let sc = server_config(server, suite, pki.chain.clone(), pki.key.clone_key().into());
    let mut c =
        ClientConnection::new(Arc::new(cc), ServerName::try_from("localhost").unwrap()).unwrap();
    let mut s = ServerConnection::new(Arc::new(sc)).unwrap();
    let mut rounds = 0;
    while c.is_handshaking() || s.is_handshaking() {
        rounds += 1;
        assert!(rounds < 20, "handshake did not finish");
        pump(&mut c, &mut s).unwrap();
        pump(&mut s, &mut c).unwrap();
    }
    // Flush whatever the last flight left (TLS 1.3 session tickets).
    pump(&mut s, &mut c).unwrap();
    for (conn, side) in [(&c as &dyn SuiteOf, client), (&s as &dyn SuiteOf, server)] {
        let negotiated = conn.suite().unwrap();
        assert_eq!(negotiated.suite(), suite);
        assert_eq!(
            ragged_rustls::is_ragged_suite(&negotiated),
            side == Side::Ragged
        );
    }
    (c, s)
}

/// The negotiated suite of either kind of connection.
pub trait SuiteOf {
    fn suite(&self) -> Option<SupportedCipherSuite>;
}
impl SuiteOf for ClientConnection {
    fn suite(&self) -> Option<SupportedCipherSuite> {
        self.negotiated_cipher_suite()
    }
}
impl SuiteOf for ServerConnection {
    fn suite(&self) -> Option<SupportedCipherSuite> {
        self.negotiated_cipher_suite()
    }
}

/// Moves every TLS byte `from` has queued into `to`, then lets `to` process them.
pub fn pump(
    from: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
    to: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
) -> Result<usize, rustls::Error> {
    let mut wire = Vec::new();
    while from.wants_write() {
        from.write_tls(&mut wire).unwrap();
    }
    feed(to, &wire)?;
    Ok(wire.len())
}

/// Hands `wire` to `to` and processes it; the first error rustls reports comes back.
pub fn feed(
    to: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
    mut wire: &[u8],
) -> Result<(), rustls::Error> {
    while !wire.is_empty() {
        let n = to.read_tls(&mut wire).unwrap();
        assert!(n > 0);
        to.process_new_packets()?;
    }
    Ok(())
}

/// Writes `data` on `from`, carries it over, and checks `to` reads exactly `data`.
pub fn send_and_check(
    from: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
    to: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
    data: &[u8],
) {
    let mut got = Vec::with_capacity(data.len());
    let mut sent = 0;
    let mut buf = vec![0u8; 64 * 1024];
    let (mut wire, mut fed) = (Vec::new(), 0);
    // Both ends buffer a bounded amount of plaintext: write, carry and read in turns.
    let mut turns = 0;
    while got.len() < data.len() || sent < data.len() || fed < wire.len() {
        turns += 1;
        assert!(turns < 10_000, "transfer stalled");
        if sent < data.len() {
            sent += from.writer().write(&data[sent..]).unwrap();
        }
        while from.wants_write() {
            from.write_tls(&mut wire).unwrap();
        }
        // `read_tls` refuses more once its plaintext buffer is full: read, then retry.
        while fed < wire.len() {
            match to.read_tls(&mut &wire[fed..]) {
                Ok(n) => fed += n,
                Err(_) => break,
            }
            to.process_new_packets().unwrap();
            drain(to, &mut got, &mut buf);
        }
        drain(to, &mut got, &mut buf);
    }
    assert!(
        got == data,
        "{} bytes arrived as something else",
        data.len()
    );
}

fn drain(
    to: &mut impl std::ops::DerefMut<Target = rustls::ConnectionCommon<impl rustls::SideData>>,
    got: &mut Vec<u8>,
    buf: &mut [u8],
) {
    loop {
        match to.reader().read(buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
            Err(e) => panic!("read: {e}"),
        }
    }
}

/// Deterministic bytes, different for each `seed`.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    let mut x = 0x9E37_79B9u32 ^ u32::from(seed);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}

/// The sizes the interop tests carry each way.
pub const SIZES: [usize; 7] = [0, 1, 1419, 1420, 16383, 16384, 1 << 20];
