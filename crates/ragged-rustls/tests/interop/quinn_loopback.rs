//! quinn client and server on 127.0.0.1, one side on the ragged provider, the other
//! on rustls's *ring* provider: streams of the interop sizes both ways, and a key
//! update in the middle. Both sides offer only TLS13_CHACHA20_POLY1305_SHA256, so
//! the 1-RTT packets are protected (and their headers masked) by ragged on the
//! ragged side. Initial packets use AES-128-GCM, as RFC 9001 §5.2 requires.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::common::{Pki, SIZES, Side, pattern, provider};
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use rustls::CipherSuite;

const TLS13: CipherSuite = CipherSuite::TLS13_CHACHA20_POLY1305_SHA256;
/// Every await of a test is bounded by this.
const LIMIT: Duration = Duration::from_secs(60);

fn initial_suite() -> rustls::quic::Suite {
    rustls::crypto::ring::cipher_suite::TLS13_AES_128_GCM_SHA256
        .tls13()
        .unwrap()
        .quic_suite()
        .unwrap()
}

fn server_endpoint(pki: &Pki, side: Side) -> quinn::Endpoint {
    let tls = rustls::ServerConfig::builder_with_provider(Arc::new(provider(side, TLS13)))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(pki.chain.clone(), pki.key.clone_key().into())
        .unwrap();
    let quic = QuicServerConfig::with_initial(Arc::new(tls), initial_suite()).unwrap();
    let config = quinn::ServerConfig::with_crypto(Arc::new(quic));
    quinn::Endpoint::server(config, SocketAddr::from(([127, 0, 0, 1], 0))).unwrap()
}

fn client_endpoint(pki: &Pki, side: Side) -> quinn::Endpoint {
    let tls = rustls::ClientConfig::builder_with_provider(Arc::new(provider(side, TLS13)))
        .with_protocol_versions(&[&rustls::version::TLS13])
        .unwrap()
        .with_root_certificates(pki.roots())
        .with_no_client_auth();
    let quic = QuicClientConfig::with_initial(Arc::new(tls), initial_suite()).unwrap();
    let mut endpoint = quinn::Endpoint::client(SocketAddr::from(([127, 0, 0, 1], 0))).unwrap();
    endpoint.set_default_client_config(quinn::ClientConfig::new(Arc::new(quic)));
    endpoint
}

/// Each byte XOR this on the way back, so the answer differs from the request.
const FLIP: u8 = 0xa5;

/// The server: for each stream the client opens, read it all and send it back with
/// every byte flipped.
async fn serve(endpoint: quinn::Endpoint) {
    let conn = endpoint.accept().await.unwrap().await.unwrap();
    for _ in 0..SIZES.len() * 2 {
        let (mut send, mut recv) = conn.accept_bi().await.unwrap();
        let mut got = recv.read_to_end(2 << 20).await.unwrap();
        got.iter_mut().for_each(|b| *b ^= FLIP);
        send.write_all(&got).await.unwrap();
        send.finish().unwrap();
    }
    // Wait for the client to close, so the last answers are not cut off.
    let _ = conn.closed().await;
}

async fn run(client: Side, server: Side) {
    let pki = Pki::ecdsa();
    let server_ep = server_endpoint(&pki, server);
    let addr = server_ep.local_addr().unwrap();
    let server_task = tokio::spawn(serve(server_ep.clone()));

    let client_ep = client_endpoint(&pki, client);
    let conn = client_ep.connect(addr, "localhost").unwrap().await.unwrap();
    for round in 0..2u8 {
        if round == 1 {
            // RFC 9001 §6: fresh 1-RTT packet keys from the next secret, both sides.
            conn.force_key_update();
        }
        for (k, &len) in SIZES.iter().enumerate() {
            let data = pattern(len, k as u8 + round);
            let (mut send, mut recv) = conn.open_bi().await.unwrap();
            send.write_all(&data).await.unwrap();
            send.finish().unwrap();
            let answer = recv.read_to_end(2 << 20).await.unwrap();
            let expected: Vec<u8> = data.iter().map(|b| b ^ FLIP).collect();
            assert!(answer == expected, "{len} bytes came back as other bytes");
        }
    }
    let stats = conn.stats();
    assert!(stats.path.lost_packets < stats.path.sent_packets);
    conn.close(0u32.into(), b"done");
    client_ep.wait_idle().await;
    server_task.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quinn_ragged_client_ring_server() {
    tokio::time::timeout(LIMIT, run(Side::Ragged, Side::Ring))
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quinn_ring_client_ragged_server() {
    tokio::time::timeout(LIMIT, run(Side::Ring, Side::Ragged))
        .await
        .unwrap();
}
