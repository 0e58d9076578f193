//! TLS 1.3 record protection through rustls, in memory: a client writes application
//! data in 1420-byte or 16 KiB writes, a server reads it; MB/s of application data
//! with the ragged provider against rustls's *ring* and *aws-lc-rs* providers, both
//! ends of each pair on the same provider and on `TLS13_CHACHA20_POLY1305_SHA256`.
//! (*aws-lc-rs* is a dev-dependency: the library itself builds on *ring* alone.)
//!
//! The method is `ragged speed`'s: one process, the implementations interleaved
//! (A B C A B C …) over warm connections, the median of many short samples. A third
//! row runs rustls with a no-op AEAD (copies the record, writes a zero tag): rustls's
//! own per-record work alone, the floor under every provider's time, so
//! `time(ring) / time(no-op)` is the best ratio any AEAD could reach against *ring*.
//!
//! ```text
//! cargo run --release -p ragged-rustls --example tls_speed            # about 30 s
//! cargo run --release -p ragged-rustls --example tls_speed -- --quick # about 4 s
//! ```
//!
//! For a profiler, `-- --profile PEER SIZE [MIB]` moves MIB MiB (default 256) in
//! SIZE-byte writes over one peer's pair alone, all in `Pair::transfer` (for
//! callgrind's `--toggle-collect`), and prints its MB/s.

use std::io::{Read, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::crypto::CryptoProvider;
use rustls::crypto::cipher::{
    AeadKey, InboundOpaqueMessage, InboundPlainMessage, Iv, MessageDecrypter, MessageEncrypter,
    OutboundOpaqueMessage, OutboundPlainMessage, PrefixedPayload, Tls13AeadAlgorithm,
    UnsupportedOperationError,
};
use rustls::pki_types::{CertificateDer, PrivatePkcs8KeyDer, ServerName};
use rustls::{
    ClientConfig, ClientConnection, ConnectionTrafficSecrets, ContentType, Error, ProtocolVersion,
    RootCertStore, ServerConfig, ServerConnection, SupportedCipherSuite, Tls13CipherSuite,
};

/// Application data per sample: enough records that a sample takes about a millisecond
/// or more, few enough that many samples fit.
const SAMPLE_BYTES: usize = 1 << 20;

/// Builds one column's provider (only the column profiled, with `--profile`).
type MakeProvider = fn() -> CryptoProvider;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    let budget = Duration::from_secs(if quick { 4 } else { 30 });
    let profile = args.iter().position(|a| a == "--profile").map(|i| {
        let arg = |k: usize| args.get(i + k).map(String::as_str);
        let usage = "--profile PEER SIZE [MIB]";
        let peer = arg(1).expect(usage).to_string();
        let size: usize = arg(2).and_then(|a| a.parse().ok()).expect(usage);
        let mib: usize = arg(3).map_or(256, |a| a.parse().expect(usage));
        assert!((1..=16384).contains(&size), "SIZE is 1..=16384");
        (peer, size, mib)
    });

    let providers: [(&str, MakeProvider); 4] = [
        ("ragged", || chacha_only(ragged_rustls::provider())),
        ("ring", || {
            chacha_only(rustls::crypto::ring::default_provider())
        }),
        ("aws-lc-rs", || {
            chacha_only(rustls::crypto::aws_lc_rs::default_provider())
        }),
        ("no-op AEAD", noop_provider),
    ];
    let (roots, chain, key) = pki();
    let pair = |make: MakeProvider| Pair::new(make(), &roots, &chain, &key);
    let sizes = [1420usize, 16384];
    let data = vec![0x5au8; 16384];

    if let Some((name, size, mib)) = profile {
        let (_, make) = providers
            .iter()
            .find(|(n, _)| *n == name)
            .expect("PEER is one of ragged, ring, aws-lc-rs, no-op AEAD");
        let took = pair(*make).transfer(&data[..size], mib << 20);
        let mbps = (mib << 20) as f64 / took.as_secs_f64() / 1e6;
        println!("{name}, {size}-byte writes, {mib} MiB: {mbps:.0} MB/s");
        return;
    }
    let mut peers: Vec<(&str, Pair)> = providers
        .iter()
        .map(|&(name, make)| (name, pair(make)))
        .collect();

    // Interleaved rounds: every (size, peer) once per round, until the budget is spent.
    let mut samples = vec![vec![Vec::new(); peers.len()]; sizes.len()];
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < 5 || (start.elapsed() < budget && rounds < 10_000) {
        for (s, &size) in sizes.iter().enumerate() {
            for (p, (_, pair)) in peers.iter_mut().enumerate() {
                samples[s][p].push(pair.transfer(&data[..size], SAMPLE_BYTES));
            }
        }
        rounds += 1;
    }

    println!("TLS 1.3 ChaCha20-Poly1305 through rustls in memory, client writes -> server reads");
    println!(
        "{rounds} interleaved rounds of {} KiB per sample; median MB/s of application data",
        SAMPLE_BYTES >> 10
    );
    println!();
    print!("{:>10}", "write size");
    for (name, _) in &peers {
        print!("{name:>14}");
    }
    println!(
        "{:>14}{:>14}{:>14}",
        "ragged/ring", "ragged/aws", "no-op/ring"
    );
    for (s, &size) in sizes.iter().enumerate() {
        let mbps: Vec<f64> = samples[s]
            .iter_mut()
            .map(|t| SAMPLE_BYTES as f64 / median(t).as_secs_f64() / 1e6)
            .collect();
        print!("{size:>10}");
        for m in &mbps {
            print!("{m:>14.0}");
        }
        println!(
            "{:>13.2}x{:>13.2}x{:>13.2}x",
            mbps[0] / mbps[1],
            mbps[0] / mbps[2],
            mbps[3] / mbps[1]
        );
    }
    println!();
    println!("no-op/ring bounds ragged/ring: rustls's own per-record work (framing, copies,");
    println!("buffering) is all the no-op row does; the rest of ring's time is its AEAD.");
}

fn median(t: &mut [Duration]) -> Duration {
    t.sort();
    t[t.len() / 2]
}

/// A connected client and server, with the buffers a transfer reuses.
struct Pair {
    client: ClientConnection,
    server: ServerConnection,
    wire: Vec<u8>,
    sink: Vec<u8>,
}

impl Pair {
    fn new(
        provider: CryptoProvider,
        roots: &RootCertStore,
        chain: &[CertificateDer<'static>],
        key: &PrivatePkcs8KeyDer<'static>,
    ) -> Pair {
        let provider = Arc::new(provider);
        let cc = ClientConfig::builder_with_provider(provider.clone())
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_root_certificates(roots.clone())
            .with_no_client_auth();
        let sc = ServerConfig::builder_with_provider(provider)
            .with_protocol_versions(&[&rustls::version::TLS13])
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain.to_vec(), key.clone_key().into())
            .unwrap();
        let mut pair = Pair {
            client: ClientConnection::new(Arc::new(cc), ServerName::try_from("localhost").unwrap())
                .unwrap(),
            server: ServerConnection::new(Arc::new(sc)).unwrap(),
            wire: Vec::with_capacity(1 << 21),
            sink: vec![0u8; 1 << 16],
        };
        for _ in 0..10 {
            pair.client_to_server();
            pair.server_to_client();
        }
        assert!(!pair.client.is_handshaking() && !pair.server.is_handshaking());
        pair.transfer(&[1u8; 16384], 1 << 20); // warm up
        pair
    }

    fn client_to_server(&mut self) -> usize {
        self.wire.clear();
        while self.client.wants_write() {
            self.client.write_tls(&mut self.wire).unwrap();
        }
        let mut fed = 0;
        let mut got = 0;
        while fed < self.wire.len() {
            fed += self.server.read_tls(&mut &self.wire[fed..]).unwrap();
            self.server.process_new_packets().unwrap();
            loop {
                match self.server.reader().read(&mut self.sink) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                    Err(e) => panic!("{e}"),
                }
            }
        }
        got
    }

    fn server_to_client(&mut self) {
        self.wire.clear();
        while self.server.wants_write() {
            self.server.write_tls(&mut self.wire).unwrap();
        }
        let mut wire = &self.wire[..];
        while !wire.is_empty() {
            self.client.read_tls(&mut wire).unwrap();
            self.client.process_new_packets().unwrap();
        }
    }

    /// `total` bytes in writes of `chunk`, carried over and read by the server every
    /// 64 KiB or so (as a socket buffer would); the time it took. Never inlined, so
    /// that a profiler can count from its entry.
    #[inline(never)]
    fn transfer(&mut self, chunk: &[u8], total: usize) -> Duration {
        let start = Instant::now();
        let (mut written, mut read, mut pending) = (0, 0, 0);
        while written < total {
            let want = chunk.len().min(total - written);
            let n = self.client.writer().write(&chunk[..want]).unwrap();
            written += n;
            pending += n;
            // rustls holds at most 64 KiB of records by default: carry them over when
            // that is reached (a short write) as well.
            if pending >= 1 << 16 || n < want || written >= total {
                read += self.client_to_server();
                pending = 0;
            }
        }
        let elapsed = start.elapsed();
        assert_eq!(read, written);
        elapsed
    }
}

fn chacha_only(mut p: CryptoProvider) -> CryptoProvider {
    p.cipher_suites
        .retain(|s| s.suite() == rustls::CipherSuite::TLS13_CHACHA20_POLY1305_SHA256);
    p
}

fn pki() -> (
    RootCertStore,
    Vec<CertificateDer<'static>>,
    PrivatePkcs8KeyDer<'static>,
) {
    let ca_key = rcgen::KeyPair::generate().unwrap();
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let key = rcgen::KeyPair::generate().unwrap();
    let cert = rcgen::CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&key, &ca, &ca_key)
        .unwrap();
    let mut roots = RootCertStore::empty();
    roots.add(ca.der().clone()).unwrap();
    (
        roots,
        vec![cert.der().clone()],
        PrivatePkcs8KeyDer::from(key.serialize_der()),
    )
}

// The no-op AEAD: TLS 1.3 framing without cryptography, so the handshake and the
// records go through all of rustls's own work and none of an AEAD's. Never for use
// outside a measurement.

fn noop_provider() -> CryptoProvider {
    static SUITE: std::sync::LazyLock<Tls13CipherSuite> = std::sync::LazyLock::new(|| {
        let SupportedCipherSuite::Tls13(ring) =
            rustls::crypto::ring::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256
        else {
            unreachable!()
        };
        Tls13CipherSuite {
            common: rustls::CipherSuiteCommon {
                suite: ring.common.suite,
                hash_provider: ring.common.hash_provider,
                confidentiality_limit: ring.common.confidentiality_limit,
            },
            hkdf_provider: ring.hkdf_provider,
            aead_alg: &NoopAead,
            quic: None,
        }
    });
    let mut p = rustls::crypto::ring::default_provider();
    p.cipher_suites = vec![SupportedCipherSuite::Tls13(&SUITE)];
    p
}

struct NoopAead;
struct Noop;

impl Tls13AeadAlgorithm for NoopAead {
    fn encrypter(&self, _: AeadKey, _: Iv) -> Box<dyn MessageEncrypter> {
        Box::new(Noop)
    }
    fn decrypter(&self, _: AeadKey, _: Iv) -> Box<dyn MessageDecrypter> {
        Box::new(Noop)
    }
    fn key_len(&self) -> usize {
        32
    }
    fn extract_keys(
        &self,
        _: AeadKey,
        _: Iv,
    ) -> Result<ConnectionTrafficSecrets, UnsupportedOperationError> {
        Err(UnsupportedOperationError)
    }
}

impl MessageEncrypter for Noop {
    fn encrypt(
        &mut self,
        msg: OutboundPlainMessage<'_>,
        _: u64,
    ) -> Result<OutboundOpaqueMessage, Error> {
        let mut payload =
            PrefixedPayload::with_capacity(self.encrypted_payload_len(msg.payload.len()));
        payload.extend_from_chunks(&msg.payload);
        payload.extend_from_slice(&msg.typ.to_array());
        payload.extend_from_slice(&[0u8; 16]);
        Ok(OutboundOpaqueMessage::new(
            ContentType::ApplicationData,
            ProtocolVersion::TLSv1_2,
            payload,
        ))
    }
    fn encrypted_payload_len(&self, len: usize) -> usize {
        len + 1 + 16
    }
}

impl MessageDecrypter for Noop {
    fn decrypt<'a>(
        &mut self,
        mut msg: InboundOpaqueMessage<'a>,
        _: u64,
    ) -> Result<InboundPlainMessage<'a>, Error> {
        let len = msg
            .payload
            .len()
            .checked_sub(16)
            .ok_or(Error::DecryptError)?;
        msg.payload.truncate(len);
        msg.into_tls13_unpadded_message()
    }
}
