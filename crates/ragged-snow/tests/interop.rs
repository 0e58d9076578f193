//! snow's default resolver on one side, ragged's on the other: full Noise handshakes
//! and transport messages in both roles, and forgeries refused.

use ragged_snow::RaggedResolver;
use snow::resolvers::{CryptoResolver, DefaultResolver};
use snow::{Builder, HandshakeState, TransportState};

const XX: &str = "Noise_XX_25519_ChaChaPoly_BLAKE2s";

fn builder(pattern: &str, ragged: bool) -> Builder<'static> {
    let params = pattern.parse().unwrap();
    if ragged {
        Builder::with_resolver(params, Box::new(RaggedResolver::new()))
    } else {
        Builder::with_resolver(params, Box::new(DefaultResolver))
    }
}

fn party(pattern: &str, ragged: bool, initiator: bool) -> HandshakeState {
    let key = builder(pattern, ragged).generate_keypair().unwrap();
    let b = builder(pattern, ragged)
        .local_private_key(&key.private)
        .unwrap();
    if initiator {
        b.build_initiator().unwrap()
    } else {
        b.build_responder().unwrap()
    }
}

/// Runs the handshake to the end, with a payload in every handshake message (XX's
/// second and third messages are encrypted under the handshake's cipher state).
fn handshake(mut i: HandshakeState, mut r: HandshakeState) -> (TransportState, TransportState) {
    let (mut msg, mut buf) = (vec![0u8; 65535], vec![0u8; 65535]);
    let mut turn = 0u8;
    // XX has three messages; bounded in case a pattern never finishes.
    while !(i.is_handshake_finished() && r.is_handshake_finished()) {
        assert!(turn < 8, "handshake did not finish");
        let payload = vec![turn; 100 + usize::from(turn)];
        let (w, rd) = if turn.is_multiple_of(2) {
            (&mut i, &mut r)
        } else {
            (&mut r, &mut i)
        };
        let len = w.write_message(&payload, &mut msg).unwrap();
        let got = rd.read_message(&msg[..len], &mut buf).unwrap();
        assert_eq!(&buf[..got], &payload[..]);
        turn += 1;
    }
    assert_eq!(turn, 3);
    (
        i.into_transport_mode().unwrap(),
        r.into_transport_mode().unwrap(),
    )
}

fn exchange(a: &mut TransportState, b: &mut TransportState) {
    let (mut msg, mut buf) = (vec![0u8; 65535], vec![0u8; 65535]);
    // Short, ragged, block-edge and the longest payload a Noise message carries.
    for len in [0usize, 1, 15, 16, 63, 64, 65, 1419, 1420, 4096, 65535 - 16] {
        let payload: Vec<u8> = (0..len).map(|k| (k * 7 + len) as u8).collect();
        for a_writes in [true, false] {
            let (w, r) = if a_writes {
                (&mut *a, &mut *b)
            } else {
                (&mut *b, &mut *a)
            };
            let n = w.write_message(&payload, &mut msg).unwrap();
            assert_eq!(n, len + 16);
            let got = r.read_message(&msg[..n], &mut buf).unwrap();
            assert_eq!(&buf[..got], &payload[..]);
        }
    }
    // Rekeying goes through the resolver's cipher too; both ends must agree.
    a.rekey_outgoing();
    b.rekey_incoming();
    let n = a.write_message(b"after rekey", &mut msg).unwrap();
    let got = b.read_message(&msg[..n], &mut buf).unwrap();
    assert_eq!(&buf[..got], b"after rekey");
}

fn tamper_refused(a: &mut TransportState, b: &mut TransportState) {
    let (mut msg, mut buf) = (vec![0u8; 1024], vec![0xAAu8; 1024]);
    let payload = [0x5Au8; 300];
    let n = a.write_message(&payload, &mut msg).unwrap();
    for bit in [0usize, 8 * 150 + 3, 8 * (n - 1) + 7] {
        let mut forged = msg[..n].to_vec();
        forged[bit / 8] ^= 1 << (bit % 8);
        buf.fill(0xAA);
        assert!(matches!(
            b.read_message(&forged, &mut buf),
            Err(snow::Error::Decrypt)
        ));
        // Nothing of the plaintext was released into the caller's buffer.
        assert!(!buf.windows(16).any(|w| w == &payload[..16]));
    }
    assert!(
        b.read_message(&msg[..15], &mut buf).is_err(),
        "shorter than a tag"
    );
    // snow keeps the nonce after a failed read, so the genuine message still opens.
    let got = b.read_message(&msg[..n], &mut buf).unwrap();
    assert_eq!(&buf[..got], &payload[..]);
}

fn check(pattern: &str, initiator_ragged: bool, responder_ragged: bool) {
    let i = party(pattern, initiator_ragged, true);
    let r = party(pattern, responder_ragged, false);
    let (mut i, mut r) = handshake(i, r);
    exchange(&mut i, &mut r);
    tamper_refused(&mut i, &mut r);
    tamper_refused(&mut r, &mut i);
}

#[test]
fn xx_ragged_initiator_default_responder() {
    check(XX, true, false);
}

#[test]
fn xx_default_initiator_ragged_responder() {
    check(XX, false, true);
}

#[test]
fn xx_ragged_both_sides() {
    check(XX, true, true);
}

#[cfg(feature = "xchachapoly")]
#[test]
fn xx_xchachapoly_both_roles() {
    let p = "Noise_XX_25519_XChaChaPoly_BLAKE2s";
    check(p, true, false);
    check(p, false, true);
}

#[test]
fn resolves_chacha_to_ragged_and_the_rest_to_snow() {
    use snow::params::{CipherChoice, DHChoice, HashChoice};
    let r = RaggedResolver::new();
    let cipher = r.resolve_cipher(&CipherChoice::ChaChaPoly).unwrap();
    assert_eq!(cipher.name(), "ChaChaPoly");
    assert!(
        r.resolve_cipher(&CipherChoice::AESGCM).is_some(),
        "AES-GCM from snow"
    );
    assert!(r.resolve_dh(&DHChoice::Curve25519).is_some());
    assert!(r.resolve_hash(&HashChoice::Blake2s).is_some());
    assert!(r.resolve_rng().is_some());
}

/// The same key, nonce and AD through both resolvers' ciphers give the same bytes.
#[test]
fn ciphers_agree_byte_for_byte_with_snows() {
    use snow::params::CipherChoice;
    let mut choices = vec![CipherChoice::ChaChaPoly];
    #[cfg(feature = "xchachapoly")]
    choices.push(CipherChoice::XChaChaPoly);
    for choice in choices {
        let mut ours = RaggedResolver::new().resolve_cipher(&choice).unwrap();
        let mut theirs = DefaultResolver.resolve_cipher(&choice).unwrap();
        let key = [0x42u8; 32];
        ours.set(&key);
        theirs.set(&key);
        for (nonce, len) in [
            (0u64, 0usize),
            (1, 1),
            (0x0102_0304_0506_0708, 1420),
            (u64::MAX - 1, 200),
        ] {
            let pt: Vec<u8> = (0..len).map(|k| k as u8).collect();
            let (mut a, mut b) = (vec![0u8; len + 16], vec![0u8; len + 16]);
            assert_eq!(ours.encrypt(nonce, b"ad", &pt, &mut a), len + 16);
            theirs.encrypt(nonce, b"ad", &pt, &mut b);
            assert_eq!(a, b, "{} nonce {nonce:#x} len {len}", ours.name());
        }
        ours.rekey();
        theirs.rekey();
        let (mut a, mut b) = ([0u8; 20], [0u8; 20]);
        ours.encrypt(7, &[], b"abcd", &mut a);
        theirs.encrypt(7, &[], b"abcd", &mut b);
        assert_eq!(a, b, "after rekey");
    }
}
