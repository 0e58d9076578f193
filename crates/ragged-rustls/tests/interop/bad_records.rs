//! Records that must not open: a flipped tag or ciphertext bit, truncations, a
//! replay, and records over the size limits. Each is forged with the real traffic
//! key (taken from the client) and fed to a server on the ragged provider and to one
//! on rustls's *ring* provider: the two must fail identically — with rustls's
//! `DecryptError` wherever authentication fails — release no plaintext, and not panic.

use crate::common::{Pki, Side, connected_pair};
use ragged_chacha::ChaCha20Poly1305;
use rustls::{AlertDescription, CipherSuite, ConnectionTrafficSecrets, Error, ServerConnection};
use std::io::Read;

const TLS13: CipherSuite = CipherSuite::TLS13_CHACHA20_POLY1305_SHA256;
const TLS12: CipherSuite = CipherSuite::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256;

/// Seals records as the client would, from its extracted write key and sequence
/// number (an independent construction: RFC 8446 §5.2 / RFC 7905 by hand).
struct Forger {
    aead: ChaCha20Poly1305,
    iv: [u8; 12],
    seq: u64,
    tls13: bool,
}

impl Forger {
    fn record(&mut self, plaintext: &[u8]) -> Vec<u8> {
        let mut nonce = self.iv;
        for (n, s) in nonce[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *n ^= s;
        }
        let mut body = plaintext.to_vec();
        let aad = if self.tls13 {
            body.push(0x17); // inner content type: application data
            let len = (body.len() + 16) as u16;
            let [hi, lo] = len.to_be_bytes();
            vec![0x17, 3, 3, hi, lo]
        } else {
            let [hi, lo] = (body.len() as u16).to_be_bytes();
            [&self.seq.to_be_bytes()[..], &[0x17, 3, 3, hi, lo]].concat()
        };
        let tag = self
            .aead
            .encrypt_in_place_detached(&nonce, &aad, &mut body)
            .unwrap();
        self.seq += 1;
        let [hi, lo] = ((body.len() + 16) as u16).to_be_bytes();
        [&[0x17, 3, 3, hi, lo][..], &body, &tag].concat()
    }
}

/// Opens the server's records with the client's read key: how the test sees which
/// alert the server sent (alerts are encrypted once the handshake is done).
struct Opener {
    aead: ChaCha20Poly1305,
    iv: [u8; 12],
    seq: u64,
    tls13: bool,
}

impl Opener {
    /// The first record of `wire` as (content type, plaintext).
    fn open(&mut self, wire: &[u8]) -> Option<(u8, Vec<u8>)> {
        let len = usize::from(u16::from_be_bytes([*wire.get(3)?, *wire.get(4)?]));
        let rec = wire.get(..5 + len)?;
        let (body, tag) = rec[5..].split_at(len.checked_sub(16)?);
        let mut nonce = self.iv;
        for (n, s) in nonce[4..].iter_mut().zip(self.seq.to_be_bytes()) {
            *n ^= s;
        }
        let mut body = body.to_vec();
        let aad = if self.tls13 {
            rec[..5].to_vec()
        } else {
            let [hi, lo] = (body.len() as u16).to_be_bytes();
            [&self.seq.to_be_bytes()[..], &[rec[0], 3, 3, hi, lo]].concat()
        };
        self.aead
            .decrypt_in_place_detached(&nonce, &aad, &mut body, tag.try_into().ok()?)
            .ok()?;
        self.seq += 1;
        if self.tls13 {
            while body.last() == Some(&0) {
                body.pop();
            }
            let typ = body.pop()?;
            Some((typ, body))
        } else {
            Some((rec[0], body))
        }
    }
}

/// Rewrites a record's length field to match its (altered) body.
fn fix_len(mut rec: Vec<u8>) -> Vec<u8> {
    let [hi, lo] = ((rec.len() - 5) as u16).to_be_bytes();
    rec[3] = hi;
    rec[4] = lo;
    rec
}

/// What the server made of the bytes: the plaintext it released, then its verdict
/// (`Ok` while the connection still stands), and the alert it queued, if any.
#[derive(Debug, PartialEq)]
struct Outcome {
    released: Vec<u8>,
    verdict: Result<(), Error>,
    alert: Option<AlertDescription>,
}

/// A fresh connection (client on *ring*), the client's write key, then `forge` makes
/// the bytes that reach the server on `server`'s provider, then end of stream if `eof`.
fn run(
    server: Side,
    suite: CipherSuite,
    eof: bool,
    forge: &dyn Fn(&mut Forger) -> Vec<u8>,
) -> Outcome {
    let pki = Pki::ecdsa();
    let (c, mut s) = connected_pair(&pki, Side::Ring, server, suite);
    let secrets = c.dangerous_extract_secrets().unwrap();
    let keys = |(seq, secrets): (u64, ConnectionTrafficSecrets)| {
        let ConnectionTrafficSecrets::Chacha20Poly1305 { key, iv } = secrets else {
            panic!("not ChaCha20-Poly1305")
        };
        let aead = ChaCha20Poly1305::new(key.as_ref().try_into().unwrap());
        (aead, iv.as_ref().try_into().unwrap(), seq)
    };
    let tls13 = suite == TLS13;
    let (aead, iv, seq) = keys(secrets.tx);
    let mut forger = Forger {
        aead,
        iv,
        seq,
        tls13,
    };
    let (aead, iv, seq) = keys(secrets.rx);
    let mut opener = Opener {
        aead,
        iv,
        seq,
        tls13,
    };
    let wire = forge(&mut forger);
    feed_and_read(&mut s, &wire, eof, &mut opener)
}

fn feed_and_read(
    s: &mut ServerConnection,
    mut wire: &[u8],
    eof: bool,
    opener: &mut Opener,
) -> Outcome {
    let mut released = Vec::new();
    let mut buf = vec![0u8; 1 << 16];
    let mut verdict = Ok(());
    let mut rounds = 0;
    loop {
        rounds += 1;
        assert!(rounds < 1000);
        if wire.is_empty() && !eof {
            break;
        }
        let n = s.read_tls(&mut wire).unwrap();
        if let Err(e) = s.process_new_packets() {
            verdict = Err(e);
            break;
        }
        loop {
            match s.reader().read(&mut buf) {
                Ok(0) => break,
                Ok(k) => released.extend_from_slice(&buf[..k]),
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    verdict = Err(Error::General("unexpected eof".into()));
                    break;
                }
                Err(e) => panic!("read: {e}"),
            }
        }
        if n == 0 || verdict.is_err() {
            break;
        }
    }
    // After a fatal error the reader still gives what authentic records before the
    // bad one carried (a replay's first copy), and nothing else.
    if verdict.is_err() {
        while let Ok(k @ 1..) = s.reader().read(&mut buf) {
            released.extend_from_slice(&buf[..k]);
        }
    }
    // The alert the server sends, read back off its wire.
    let mut out = Vec::new();
    while s.wants_write() {
        s.write_tls(&mut out).unwrap();
    }
    let alert = match opener.open(&out) {
        Some((0x15, alert)) if alert.len() == 2 => Some(AlertDescription::from(alert[1])),
        None if out.is_empty() => None,
        other => panic!("not an alert: {other:?}"),
    };
    Outcome {
        released,
        verdict,
        alert,
    }
}

/// Runs `forge` against both servers; they must agree. Returns the ragged outcome.
fn both(suite: CipherSuite, eof: bool, forge: &dyn Fn(&mut Forger) -> Vec<u8>) -> Outcome {
    let ours = run(Side::Ragged, suite, eof, forge);
    let ring = run(Side::Ring, suite, eof, forge);
    assert_eq!(ours, ring, "ragged and ring servers disagree");
    ours
}

fn refused(o: &Outcome) {
    assert_eq!(o.verdict, Err(Error::DecryptError));
    assert!(
        o.released.is_empty(),
        "plaintext released: {} bytes",
        o.released.len()
    );
}

fn cases(suite: CipherSuite) {
    let tls13 = suite == TLS13;
    let msg: Vec<u8> = (0..1420u32).map(|k| (k * 31) as u8).collect();

    // The control: a record forged this way is accepted, byte for byte.
    let ok = both(suite, false, &|f| f.record(&msg));
    assert_eq!((ok.verdict, ok.released.len()), (Ok(()), msg.len()));
    assert_eq!(ok.released, msg);

    // A flipped bit in the tag, in the first and in the last ciphertext byte.
    for at in [1usize, 16, 17, 1420 + 16] {
        let o = both(suite, false, &|f| {
            let mut r = f.record(&msg);
            let i = r.len() - at;
            r[i] ^= 0x80;
            r
        });
        refused(&o);
        // The peer is told: bad_record_mac (RFC 8446 §6.2, RFC 5246 §7.2.2).
        assert_eq!(o.alert, Some(AlertDescription::BadRecordMac));
    }

    // Truncations, with the length field rewritten to match: one byte short, the
    // tag alone, shorter than a tag, and a single byte.
    for keep in [1420 + 15, 16, 15, 1] {
        let o = both(suite, false, &|f| {
            let mut r = f.record(&msg);
            r.truncate(5 + keep + usize::from(tls13));
            fix_len(r)
        });
        refused(&o);
    }

    // A record cut off by the end of the stream: nothing released, an error at EOF.
    let o = both(suite, true, &|f| {
        let mut r = f.record(&msg);
        r.truncate(r.len() - 10);
        r
    });
    assert!(o.released.is_empty() && o.verdict.is_err(), "{o:?}");

    // A replay: the second copy is checked under the next sequence number.
    let o = both(suite, false, &|f| {
        let r = f.record(&msg);
        [r.clone(), r].concat()
    });
    assert_eq!(o.verdict, Err(Error::DecryptError));
    assert_eq!(o.released, msg, "only the first copy is released");

    // Over the limit: an authentic record of 2^14 + 1 plaintext bytes (the limit
    // itself, 2^14, must pass).
    let big = vec![0x33u8; 16385];
    let o = both(suite, false, &|f| f.record(&big[..16384]));
    assert_eq!((o.verdict, o.released.len()), (Ok(()), 16384));
    let o = both(suite, false, &|f| f.record(&big));
    assert_eq!(o.verdict, Err(Error::PeerSentOversizedRecord));
    assert!(o.released.is_empty());
    assert_eq!(o.alert, Some(AlertDescription::RecordOverflow));

    // A ciphertext over the record layer's limit (2^14 + 256 in TLS 1.3, 2^14 + 2048
    // in TLS 1.2) never reaches the AEAD: rustls's framing refuses it first.
    let over = if tls13 {
        16384 + 256 + 1 - 17
    } else {
        16384 + 2048 + 1 - 16
    };
    let huge = vec![0x44u8; over];
    let o = both(suite, false, &|f| f.record(&huge));
    assert!(o.verdict.is_err() && o.released.is_empty(), "{o:?}");
    // (TLS 1.3: the record reaches the AEAD — rustls's framing allows 2^14 + 2048 for
    // either version — and its plaintext is then too long; TLS 1.2: refused as
    // undecodable before decryption. The same as *ring* either way, checked above.)
    println!(
        "over the ciphertext limit: {:?}, alert {:?}",
        o.verdict, o.alert
    );
    assert!(o.alert.is_some());
}

#[test]
fn tls13_bad_records_fail_as_with_ring() {
    cases(TLS13);
}

#[test]
fn tls12_bad_records_fail_as_with_ring() {
    cases(TLS12);
}
