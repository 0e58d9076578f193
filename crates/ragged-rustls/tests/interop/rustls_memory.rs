//! rustls with the ragged provider against rustls with its own *ring* provider, in
//! memory: every ChaCha20-Poly1305 suite that needs no RSA key, both directions, the
//! interop sizes, and TLS 1.3 key updates from either side.

use crate::common::{Pki, SIZES, Side, connected_pair, pattern, send_and_check};
use rustls::CipherSuite;

const TLS13: CipherSuite = CipherSuite::TLS13_CHACHA20_POLY1305_SHA256;
const TLS12_ECDSA: CipherSuite = CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;

fn exchange_all_sizes(client: Side, server: Side, suite: CipherSuite) {
    let pki = Pki::ecdsa();
    let (mut c, mut s) = connected_pair(&pki, client, server, suite);
    for (k, &len) in SIZES.iter().enumerate() {
        send_and_check(&mut c, &mut s, &pattern(len, k as u8));
        send_and_check(&mut s, &mut c, &pattern(len, 100 + k as u8));
    }
    // Ragged lengths around the record and block edges, each way.
    for len in [15, 16, 17, 63, 64, 65, 255, 16385, 3 * 16384 + 1] {
        send_and_check(&mut c, &mut s, &pattern(len, 7));
        send_and_check(&mut s, &mut c, &pattern(len, 8));
    }
}

#[test]
fn tls13_ragged_client_ring_server() {
    exchange_all_sizes(Side::Ragged, Side::Ring, TLS13);
}

#[test]
fn tls13_ring_client_ragged_server() {
    exchange_all_sizes(Side::Ring, Side::Ragged, TLS13);
}

#[test]
fn tls12_ecdsa_ragged_client_ring_server() {
    exchange_all_sizes(Side::Ragged, Side::Ring, TLS12_ECDSA);
}

#[test]
fn tls12_ecdsa_ring_client_ragged_server() {
    exchange_all_sizes(Side::Ring, Side::Ragged, TLS12_ECDSA);
}

/// Key updates (RFC 8446 §4.6.3) from each side in turn, data both ways under every
/// generation of keys: each update makes both ends build fresh ragged encrypters or
/// decrypters from the next traffic secret.
fn key_updates(client: Side, server: Side) {
    let pki = Pki::ecdsa();
    let (mut c, mut s) = connected_pair(&pki, client, server, TLS13);
    for round in 0..6u8 {
        if round % 2 == 0 {
            c.refresh_traffic_keys().unwrap();
        } else {
            s.refresh_traffic_keys().unwrap();
        }
        // The update goes out ahead of the data; the peer answers with its own
        // (update_requested), which goes back ahead of its data.
        for len in [1usize, 1420, 16384, 40_000] {
            send_and_check(&mut c, &mut s, &pattern(len, round));
            send_and_check(&mut s, &mut c, &pattern(len, round ^ 0x80));
        }
    }
    // The updates took: record sequence numbers restart at 0 under each new key, so
    // each side has sent only the last round's few records under its current keys
    // (about 40 since the handshake), and both ends hold the same current keys.
    let (c, s) = (
        c.dangerous_extract_secrets().unwrap(),
        s.dangerous_extract_secrets().unwrap(),
    );
    assert!(
        c.tx.0 <= 8 && s.tx.0 <= 8,
        "sequence numbers {} and {}",
        c.tx.0,
        s.tx.0
    );
    assert_eq!((c.tx.0, s.tx.0), (s.rx.0, c.rx.0));
    assert_eq!(key_of(&c.tx.1), key_of(&s.rx.1));
    assert_eq!(key_of(&s.tx.1), key_of(&c.rx.1));
}

fn key_of(secrets: &rustls::ConnectionTrafficSecrets) -> Vec<u8> {
    match secrets {
        rustls::ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv } => {
            [key.as_ref(), iv.as_ref()].concat()
        }
        _ => panic!("not ChaCha20-Poly1305"),
    }
}

#[test]
fn tls13_key_updates_ragged_client_ring_server() {
    key_updates(Side::Ragged, Side::Ring);
}

#[test]
fn tls13_key_updates_ring_client_ragged_server() {
    key_updates(Side::Ring, Side::Ragged);
}

/// Both ends ragged, for completeness (the interop cases above are the evidence).
#[test]
fn tls13_and_tls12_ragged_both_ends() {
    exchange_all_sizes(Side::Ragged, Side::Ragged, TLS13);
    exchange_all_sizes(Side::Ragged, Side::Ragged, TLS12_ECDSA);
    key_updates(Side::Ragged, Side::Ragged);
}
