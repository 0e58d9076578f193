//! QUIC: RFC 9001 Appendix A.5 (the ChaCha20-Poly1305 short-header packet) exactly,
//! through the provider's packet and header protection keys; and those keys against
//! *ring*'s on many packets.

use rustls::crypto::cipher::{AeadKey, Iv};
use rustls::crypto::tls13::OkmBlock;
use rustls::quic::Algorithm;

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// HKDF-Expand-Label(secret, label, "", len) with the suite's own HKDF (RFC 8446
/// §7.1, the "tls13 " prefix; RFC 9001 §5.1).
fn expand_label(
    suite: &rustls::Tls13CipherSuite,
    secret: &[u8],
    label: &[u8],
    len: usize,
) -> Vec<u8> {
    let expander = suite.hkdf_provider.expander_for_okm(&OkmBlock::new(secret));
    let mut out = vec![0u8; len];
    let full_len = (6 + label.len()) as u8;
    expander
        .expand_slice(
            &[
                &(len as u16).to_be_bytes(),
                &[full_len],
                b"tls13 ",
                label,
                &[0],
            ],
            &mut out,
        )
        .unwrap();
    out
}

fn ragged_quic() -> (&'static rustls::Tls13CipherSuite, &'static dyn Algorithm) {
    let suite = ragged_rustls::tls13_chacha20_poly1305_sha256()
        .tls13()
        .unwrap();
    (suite, suite.quic.unwrap())
}

fn key32(bytes: &[u8]) -> AeadKey {
    AeadKey::from(<[u8; 32]>::try_from(bytes).unwrap())
}

#[test]
fn rfc9001_a5_chacha20_poly1305_short_header_packet() {
    let (suite, quic) = ragged_quic();
    let secret = hex("9ac312a7f877468ebe69422748ad00a15443f18203a07d6060f688f30f21632b");
    let key = expand_label(suite, &secret, b"quic key", 32);
    let iv = expand_label(suite, &secret, b"quic iv", 12);
    let hp = expand_label(suite, &secret, b"quic hp", 32);
    let ku = expand_label(suite, &secret, b"quic ku", 32);
    assert_eq!(
        key,
        hex("c6d98ff3441c3fe1b2182094f69caa2ed4b716b65488960a7a984979fb23e1c8")
    );
    assert_eq!(iv, hex("e0459b3474bdd0e44a41c144"));
    assert_eq!(
        hp,
        hex("25a282b9e82f06f21f488917a4fc8f1b73573685608597d0efcb076b0ab7a7a4")
    );
    assert_eq!(
        ku,
        hex("1223504755036d556342ee9361d253421a826c9ecdf3c7148684b36b714881f9")
    );
    assert_eq!(quic.aead_key_len(), 32);

    let packet_key = quic.packet_key(key32(&key), Iv::new(iv.clone().try_into().unwrap()));
    let hp_key = quic.header_protection_key(key32(&hp));
    assert_eq!(packet_key.tag_len(), 16);
    assert_eq!(hp_key.sample_len(), 16);
    assert_eq!(packet_key.integrity_limit(), 1 << 36);

    // Packet number 654360564, encoded in 3 bytes (0xbff4 with 0x00 in front).
    let pn = 654_360_564u64;
    let header = hex("4200bff4");
    let mut packet = header.clone();
    packet.push(0x01); // a PING frame
    let (hdr, payload) = packet.split_at_mut(4);
    let tag = packet_key.encrypt_in_place(pn, hdr, payload).unwrap();
    packet.extend_from_slice(tag.as_ref());
    assert_eq!(packet, hex("4200bff4 65 5e5cd55c41f69080575d7999c25a5bfb"));

    // The sample starts 4 bytes past the packet number's offset (1).
    let sample = packet[5..21].to_vec();
    assert_eq!(sample, hex("5e5cd55c41f69080575d7999c25a5bfb"));
    let (first, rest) = packet.split_first_mut().unwrap();
    hp_key
        .encrypt_in_place(&sample, first, &mut rest[..3])
        .unwrap();
    assert_eq!(packet, hex("4cfe4189655e5cd55c41f69080575d7999c25a5bfb"));
    // The mask was aefefe7d03: 0x42 ^ (0xae & 0x1f), 00bff4 ^ fefe7d.

    // And back: header protection off, then the payload opens to the PING frame.
    let (first, rest) = packet.split_first_mut().unwrap();
    hp_key
        .decrypt_in_place(&sample, first, &mut rest[..3])
        .unwrap();
    assert_eq!(&packet[..4], &header[..]);
    let (hdr, payload) = packet.split_at_mut(4);
    let plain = packet_key.decrypt_in_place(pn, hdr, payload).unwrap();
    assert_eq!(plain, [0x01]);

    // A flipped bit anywhere fails, with rustls's error.
    let protected = hex("4200bff4655e5cd55c41f69080575d7999c25a5bfb");
    for bit in 0..protected.len() * 8 {
        let mut p = protected.clone();
        p[bit / 8] ^= 1 << (bit % 8);
        let (hdr, payload) = p.split_at_mut(4);
        let r = packet_key.decrypt_in_place(pn, hdr, payload).map(|_| ());
        assert_eq!(r, Err(rustls::Error::DecryptError), "bit {bit}");
    }
    let mut short = protected[..4 + 15].to_vec();
    let (hdr, payload) = short.split_at_mut(4);
    assert_eq!(
        packet_key.decrypt_in_place(pn, hdr, payload).map(|_| ()),
        Err(rustls::Error::DecryptError)
    );
    // A sample of the wrong length is an error that changes nothing.
    let (mut first, mut pn_bytes) = (0x42u8, [0u8, 0xbf, 0xf4]);
    assert!(
        hp_key
            .encrypt_in_place(&sample[..15], &mut first, &mut pn_bytes)
            .is_err()
    );
    assert_eq!((first, pn_bytes), (0x42, [0, 0xbf, 0xf4]));
}

/// ragged's packet and header protection equal *ring*'s: every payload length to
/// 1500 and more, packet numbers near the edges, multipath nonces, long and short
/// headers, and samples whose counter word is 0 or 0xffffffff.
#[test]
fn packet_and_header_protection_match_ring() {
    let (_, ours) = ragged_quic();
    let ring_suite = rustls::crypto::ring::cipher_suite::TLS13_CHACHA20_POLY1305_SHA256;
    let theirs = ring_suite.tls13().unwrap().quic.unwrap();
    let key: Vec<u8> = (0..32u8).map(|k| k.wrapping_mul(29)).collect();
    let iv: [u8; 12] = core::array::from_fn(|k| (k as u8) ^ 0xa5);
    let (pa, pb) = (
        ours.packet_key(key32(&key), Iv::new(iv)),
        theirs.packet_key(key32(&key), Iv::new(iv)),
    );
    let (ha, hb) = (
        ours.header_protection_key(key32(&key)),
        theirs.header_protection_key(key32(&key)),
    );
    let header = [0x41u8, 1, 2, 3, 4, 5, 6, 7, 8];
    let mut x = 1u32;
    for len in (0..=1500).chain([2000, 4096, 16384, 65527]) {
        let pn = [0, 1, 1 << 31, (1 << 62) - 1][len % 4] + len as u64;
        let body: Vec<u8> = (0..len).map(|k| (k * 13 + len) as u8).collect();
        let (mut a, mut b) = (body.clone(), body.clone());
        let ta = pa.encrypt_in_place(pn, &header, &mut a).unwrap();
        let tb = pb.encrypt_in_place(pn, &header, &mut b).unwrap();
        assert_eq!((&a, ta.as_ref()), (&b, tb.as_ref()), "len {len}");
        let (mut a, mut b) = (body.clone(), body.clone());
        let ta = pa
            .encrypt_in_place_for_path(7, pn, &header, &mut a)
            .unwrap();
        let tb = pb
            .encrypt_in_place_for_path(7, pn, &header, &mut b)
            .unwrap();
        assert_eq!((&a, ta.as_ref()), (&b, tb.as_ref()), "path, len {len}");
        a.extend_from_slice(ta.as_ref());
        assert_eq!(
            pa.decrypt_in_place_for_path(7, pn, &header, &mut a)
                .unwrap(),
            &body[..]
        );

        // Header protection with a sample from this ciphertext, and edge samples.
        let mut sample = [0u8; 16];
        for s in sample.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *s = x as u8;
        }
        match len % 3 {
            0 => sample[..4].fill(0xff),
            1 => sample[..4].fill(0),
            _ => {}
        }
        for first in [0x40u8 | (len as u8 & 3), 0xc0 | (len as u8 & 3)] {
            let (mut fa, mut fb) = (first, first);
            let (mut na, mut nb) = ([0x11u8, 0x22, 0x33, 0x44], [0x11u8, 0x22, 0x33, 0x44]);
            ha.encrypt_in_place(&sample, &mut fa, &mut na).unwrap();
            hb.encrypt_in_place(&sample, &mut fb, &mut nb).unwrap();
            assert_eq!((fa, na), (fb, nb));
            ha.decrypt_in_place(&sample, &mut fa, &mut na).unwrap();
            assert_eq!((fa, na), (first, [0x11, 0x22, 0x33, 0x44]));
        }
    }
}
