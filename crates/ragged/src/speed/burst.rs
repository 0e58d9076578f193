//! Bursts: many packets sealed, opened or XORed in one call (`chacha20-poly1305-burst`,
//! `chacha20-poly1305-open-burst`, `chacha20-burst`).
//!
//! A case is a burst: `count` packets of one length, or the IMIX mix (per 12 packets:
//! 7 of 64 bytes, 4 of 576, 1 of 1500). Its row reads `bytes+count` for a burst of
//! `count` equal packets (`1024+16`: 16 packets of 64 bytes) and `bytes-count` for an
//! IMIX burst (`17008-48`); MB/s counts message bytes (no tags). The columns:
//! `ragged` (the burst call), `ragged-looped` (ragged's single-message API in a loop
//! over the same packets), and each peer in a loop (RustCrypto, ring — AEADs only —,
//! OpenSSL with the `openssl` feature, libsodium with `sodium`; the peers as `aead.rs`
//! calls them: keyed once, libsodium taking the key every call). With `--backends`,
//! the burst call per ragged backend.
//!
//! Each call seals every packet in place under a fresh nonce (the call's number and
//! the packet's index) with empty AAD, its tag after it; opening, each call opens
//! every packet of the burst in place, going round `cycle.rs`'s cycle (no copy of the
//! burst back between calls), each call first writing its tags after the packets (the
//! same for every column). `chacha20-burst` XORs each packet with the keystream of its own nonce from
//! its own block counter (QUIC header protection's shape, one block a packet in its
//! `2048+32` row).

use std::hint::black_box;

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use ragged_chacha::burst::{OpenItem, SealItem, XorItem};
use ragged_chacha::variant::Ietf;
use ragged_chacha::{Backend, Burst, ChaCha20, ChaCha20Poly1305};

use super::cycle::OpeningCycle;
use super::registry::{Buffer, Case, Implementation, KEY, Role, Runner, Selection};

/// Packet lengths of the default rows (bursts of 16 and of 64 of each).
pub const PACKETS: &[usize] = &[64, 256, 576, 1420];
/// Packets in a burst of the default rows.
const COUNTS: [usize; 2] = [16, 64];
/// Packets in the IMIX row: four times the 12-packet mix.
const IMIX_COUNT: usize = 48;

/// The IMIX lengths for `count` packets (a multiple of 12).
fn imix(count: usize) -> Vec<usize> {
    let twelve = [64, 64, 576, 64, 64, 576, 1500, 64, 576, 64, 64, 576];
    twelve.iter().copied().cycle().take(count).collect()
}

/// The cases of a burst primitive for packet lengths `sizes`: bursts of 16 and 64 of
/// each, the IMIX burst, and for `chacha20-burst` 32 one-block packets first.
pub fn cases(name: &str, sizes: &[usize]) -> Vec<Case> {
    let mut cases = Vec::new();
    if name == "chacha20-burst" {
        cases.push(uniform(32, 64));
    }
    for count in COUNTS {
        for &size in sizes {
            cases.push(uniform(count, size));
        }
    }
    let lens = imix(IMIX_COUNT);
    cases.push(Case {
        size: lens.iter().sum(),
        offset: -(IMIX_COUNT as isize),
    });
    cases
}

fn uniform(count: usize, size: usize) -> Case {
    Case {
        size: count * size,
        offset: count as isize,
    }
}

/// The packet lengths of a case (see [`cases`]).
fn lengths(case: Case) -> Vec<usize> {
    let count = case.offset.unsigned_abs();
    if case.offset < 0 {
        imix(count)
    } else {
        vec![case.size / count; count]
    }
}

/// The implementations of burst primitive `name`.
pub fn implementations(name: &'static str, selection: Selection) -> Vec<Box<dyn Implementation>> {
    let mut list: Vec<Box<dyn Implementation>> = vec![Box::new(Column {
        name,
        who: Who::Burst(None),
    })];
    if selection.backends {
        for b in Backend::available() {
            list.push(Box::new(Column {
                name,
                who: Who::Burst(Some(b)),
            }));
        }
    }
    list.push(Box::new(Column {
        name,
        who: Who::Looped,
    }));
    list.push(Box::new(Column {
        name,
        who: Who::RustCrypto,
    }));
    if name != "chacha20-burst" {
        list.push(Box::new(Column {
            name,
            who: Who::Ring,
        }));
    }
    #[cfg(feature = "openssl")]
    list.push(Box::new(Column {
        name,
        who: Who::OpenSsl,
    }));
    #[cfg(feature = "sodium")]
    list.push(Box::new(Column {
        name,
        who: Who::Sodium,
    }));
    list
}

/// Who does the work of a column.
#[derive(Clone, Copy)]
enum Who {
    /// ragged's burst call, on the detected backend or the one named.
    Burst(Option<Backend>),
    /// ragged's single-message API in a loop.
    Looped,
    RustCrypto,
    Ring,
    #[cfg(feature = "openssl")]
    OpenSsl,
    #[cfg(feature = "sodium")]
    Sodium,
}

struct Column {
    name: &'static str,
    who: Who,
}

impl Implementation for Column {
    fn name(&self) -> String {
        match self.who {
            Who::Burst(None) => "ragged".into(),
            Who::Burst(Some(b)) => format!("ragged-{}", b.name()),
            Who::Looped => "ragged-looped".into(),
            Who::RustCrypto => "rustcrypto".into(),
            Who::Ring => "ring".into(),
            #[cfg(feature = "openssl")]
            Who::OpenSsl => "openssl".into(),
            #[cfg(feature = "sodium")]
            Who::Sodium => "libsodium".into(),
        }
    }

    fn role(&self) -> Role {
        match self.who {
            Who::Burst(None) => Role::Ragged,
            Who::Burst(Some(_)) | Who::Looped => Role::RaggedBackend,
            _ => Role::Peer,
        }
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        let lens = lengths(case);
        let total: usize = lens.iter().map(|l| l + 16).sum();
        let buf = Buffer::message(Case {
            size: total,
            offset: 0,
        });
        let mut runner = BurstRunner {
            who: self.who,
            op: match self.name {
                "chacha20-poly1305-burst" => Op::Seal,
                "chacha20-poly1305-open-burst" => Op::Open,
                _ => Op::Xor,
            },
            lens,
            buf,
            tags: OpeningCycle::new(Vec::new(), Vec::new()),
            n: 0,
            aead: ChaCha20Poly1305::new(&KEY),
            burst: Burst::new(),
            rustcrypto: chacha20poly1305::ChaCha20Poly1305::new(&KEY.into()),
            ring: ring::aead::LessSafeKey::new(
                ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &KEY)
                    .expect("a 32-byte key"),
            ),
            #[cfg(feature = "openssl")]
            openssl: None,
            #[cfg(feature = "sodium")]
            sodium: None,
        };
        if let Who::Burst(Some(b)) = self.who {
            let aead = ChaCha20Poly1305::new(&KEY).with_backend(b);
            runner.aead = aead.expect("only available backends are listed");
            runner.burst = Burst::new().with_backend(b).expect("available");
        }
        #[cfg(feature = "openssl")]
        if let Who::OpenSsl = self.who {
            use super::openssl::{Use, context};
            runner.openssl = Some(context(match runner.op {
                Op::Seal => Use::Seal,
                Op::Open => Use::Open,
                Op::Xor => Use::Keystream,
            }));
        }
        #[cfg(feature = "sodium")]
        if let Who::Sodium = self.who {
            runner.sodium = Some(super::sodium::init());
        }
        if runner.op == Op::Open {
            // Sealed once, by ragged's single calls, under the nonces of call
            // `u64::MAX`, which every opening call then uses; then the sealed packets
            // sealed again under the same nonces, which gives back the plaintexts and
            // their tags as ciphertexts.
            let plain = runner.buf.to_vec();
            let mut sealer = runner.clone_for_sealing();
            sealer.n = u64::MAX - 1;
            sealer.run();
            runner.buf.copy_from_slice(&sealer.buf);
            let sealed_tags = slot_tags(&sealer.buf, &runner.lens);
            sealer.n = u64::MAX - 1;
            sealer.run();
            runner.tags = OpeningCycle::new(sealed_tags, slot_tags(&sealer.buf, &runner.lens));
            let messages = |buf: &[u8]| {
                packets_of(buf, &runner.lens)
                    .map(|(msg, _)| msg.to_vec())
                    .collect::<Vec<_>>()
            };
            assert!(
                messages(&sealer.buf) == messages(&plain),
                "sealing the ciphertexts gives the plaintexts back"
            );
            runner.n = u64::MAX;
        }
        Box::new(runner)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    Seal,
    Open,
    Xor,
}

struct BurstRunner {
    who: Who,
    op: Op,
    lens: Vec<usize>,
    /// Every packet followed by its 16-byte tag.
    buf: Buffer,
    /// Opening: the tags of the two bursts `buf` holds in turn (the sealed packets',
    /// then the plaintexts' as the ciphertexts of the sealed ones), one a packet.
    tags: OpeningCycle<Vec<[u8; 16]>>,
    n: u64,
    aead: ChaCha20Poly1305,
    burst: Burst,
    rustcrypto: chacha20poly1305::ChaCha20Poly1305,
    ring: ring::aead::LessSafeKey,
    #[cfg(feature = "openssl")]
    openssl: Option<openssl::cipher_ctx::CipherCtx>,
    /// libsodium's proof of initialisation, for its column.
    #[cfg(feature = "sodium")]
    sodium: Option<super::sodium::Ready>,
}

impl BurstRunner {
    /// A runner over the same packets for sealing them once (opening's setup).
    fn clone_for_sealing(&self) -> BurstRunner {
        let total: usize = self.lens.iter().map(|l| l + 16).sum();
        BurstRunner {
            who: Who::Looped,
            op: Op::Seal,
            lens: self.lens.clone(),
            buf: Buffer::message(Case {
                size: total,
                offset: 0,
            }),
            tags: OpeningCycle::new(Vec::new(), Vec::new()),
            n: 0,
            aead: ChaCha20Poly1305::new(&KEY),
            burst: Burst::new(),
            rustcrypto: chacha20poly1305::ChaCha20Poly1305::new(&KEY.into()),
            ring: ring::aead::LessSafeKey::new(
                ring::aead::UnboundKey::new(&ring::aead::CHACHA20_POLY1305, &KEY)
                    .expect("a 32-byte key"),
            ),
            #[cfg(feature = "openssl")]
            openssl: None,
            #[cfg(feature = "sodium")]
            sodium: None,
        }
    }
}

/// Packet `i`'s nonce in call `n`.
fn nonce(n: u64, i: usize) -> [u8; 12] {
    let mut nonce = [0; 12];
    nonce[..8].copy_from_slice(&n.to_le_bytes());
    nonce[8..].copy_from_slice(&(i as u32).to_le_bytes());
    nonce
}

/// The packets of `buf` (each followed by its tag) as (message, tag) pairs, to read.
fn packets_of<'a>(
    mut buf: &'a [u8],
    lens: &'a [usize],
) -> impl Iterator<Item = (&'a [u8], &'a [u8])> {
    lens.iter().map(move |&len| {
        let (packet, rest) = buf.split_at(len + 16);
        buf = rest;
        packet.split_at(len)
    })
}

/// The tags after the packets of `buf`.
fn slot_tags(buf: &[u8], lens: &[usize]) -> Vec<[u8; 16]> {
    packets_of(buf, lens)
        .map(|(_, tag)| tag.try_into().expect("16 bytes"))
        .collect()
}

/// The packets of `buf` (each followed by its tag) as (message, tag) pairs.
fn packets<'a>(mut buf: &'a mut [u8], lens: &[usize]) -> Vec<(&'a mut [u8], &'a mut [u8])> {
    let mut out = Vec::with_capacity(lens.len());
    for &len in lens {
        let (packet, rest) = buf.split_at_mut(len + 16);
        let (msg, tag) = packet.split_at_mut(len);
        out.push((msg, tag));
        buf = rest;
    }
    out
}

impl Runner for BurstRunner {
    #[inline(never)]
    fn run(&mut self) {
        if self.op == Op::Open {
            let mut rest = &mut self.buf[..];
            for (&len, tag) in self.lens.iter().zip(self.tags.next()) {
                let (packet, more) = rest.split_at_mut(len + 16);
                packet[len..].copy_from_slice(tag);
                rest = more;
            }
        } else {
            self.n = self.n.wrapping_add(1);
        }
        let n = self.n;
        let (op, who) = (self.op, self.who);
        if let (Op::Open, Who::Ring) = (op, who) {
            // ring opens each ciphertext with its tag after it, in place.
            let mut rest = black_box(&mut self.buf[..]);
            for (i, &len) in self.lens.iter().enumerate() {
                let (packet, more) = rest.split_at_mut(len + 16);
                let opened = self.ring.open_in_place(
                    ring::aead::Nonce::assume_unique_for_key(nonce(n, i)),
                    ring::aead::Aad::empty(),
                    packet,
                );
                assert!(opened.is_ok(), "a sealed packet opens");
                rest = more;
            }
            black_box(&mut self.buf);
            return;
        }
        let mut pkts = packets(black_box(&mut self.buf[..]), &self.lens);
        match (op, who) {
            (Op::Seal, Who::Burst(_)) => {
                let mut items: Vec<_> = pkts
                    .iter_mut()
                    .enumerate()
                    .map(|(i, (msg, _))| SealItem::new(nonce(n, i), b"", msg))
                    .collect();
                self.aead.seal_burst(&mut items).expect("short packets");
                let tags: Vec<[u8; 16]> = items.iter().map(|it| it.tag).collect();
                drop(items);
                for ((_, tag), t) in pkts.iter_mut().zip(&tags) {
                    tag.copy_from_slice(t);
                }
            }
            (Op::Open, Who::Burst(_)) => {
                let mut items: Vec<_> = pkts
                    .iter_mut()
                    .enumerate()
                    .map(|(i, (msg, tag))| {
                        let t: [u8; 16] = (&**tag).try_into().expect("16 bytes");
                        OpenItem::new(nonce(n, i), b"", msg, t)
                    })
                    .collect();
                let mut verdicts = vec![Ok(()); items.len()];
                self.aead
                    .open_burst(&mut items, &mut verdicts)
                    .expect("sealed packets open");
            }
            (Op::Xor, Who::Burst(_)) => {
                let mut items: Vec<_> = pkts
                    .iter_mut()
                    .enumerate()
                    .map(|(i, (msg, _))| XorItem::<Ietf<20>>::new(&KEY, nonce(n, i), i as u32, msg))
                    .collect();
                self.burst.xor(&mut items).expect("short packets");
            }
            (Op::Seal, _) => {
                for (i, (msg, tag)) in pkts.iter_mut().enumerate() {
                    let nonce = nonce(n, i);
                    let t: [u8; 16] = match who {
                        Who::RustCrypto => self
                            .rustcrypto
                            .encrypt_inout_detached(&nonce.into(), b"", (&mut **msg).into())
                            .expect("short")
                            .into(),
                        Who::Ring => self
                            .ring
                            .seal_in_place_separate_tag(
                                ring::aead::Nonce::assume_unique_for_key(nonce),
                                ring::aead::Aad::empty(),
                                msg,
                            )
                            .expect("short")
                            .as_ref()
                            .try_into()
                            .expect("16 bytes"),
                        #[cfg(feature = "openssl")]
                        Who::OpenSsl => super::openssl::seal(
                            self.openssl.as_ref().expect("prepared"),
                            &nonce,
                            msg,
                        ),
                        #[cfg(feature = "sodium")]
                        Who::Sodium => {
                            let mut t = [0u8; 16];
                            self.sodium.expect("prepared").seal(
                                ragged_chacha::AeadKind::ChaCha20Poly1305,
                                msg,
                                &mut t,
                                &nonce,
                                &KEY,
                            );
                            t
                        }
                        _ => self
                            .aead
                            .encrypt_in_place_detached(&nonce, b"", msg)
                            .expect("short"),
                    };
                    tag.copy_from_slice(&t);
                }
            }
            (Op::Open, _) => {
                for (i, (msg, tag)) in pkts.iter_mut().enumerate() {
                    let nonce = nonce(n, i);
                    let t: [u8; 16] = (&**tag).try_into().expect("16 bytes");
                    let ok = match who {
                        Who::RustCrypto => self
                            .rustcrypto
                            .decrypt_inout_detached(
                                &nonce.into(),
                                b"",
                                (&mut **msg).into(),
                                &t.into(),
                            )
                            .is_ok(),
                        #[cfg(feature = "openssl")]
                        Who::OpenSsl => super::openssl::open(
                            self.openssl.as_ref().expect("prepared"),
                            &nonce,
                            msg,
                            &t,
                        ),
                        #[cfg(feature = "sodium")]
                        Who::Sodium => self.sodium.expect("prepared").open(
                            ragged_chacha::AeadKind::ChaCha20Poly1305,
                            msg,
                            &t,
                            &nonce,
                            &KEY,
                        ),
                        _ => self
                            .aead
                            .decrypt_in_place_detached(&nonce, b"", msg, &t)
                            .is_ok(),
                    };
                    assert!(ok, "a sealed packet opens");
                }
            }
            (Op::Xor, _) => {
                for (i, (msg, _)) in pkts.iter_mut().enumerate() {
                    let nonce = nonce(n, i);
                    match who {
                        Who::RustCrypto => {
                            let mut c = chacha20::ChaCha20::new(&KEY.into(), &nonce.into());
                            c.seek(64 * i as u64);
                            c.apply_keystream(msg);
                        }
                        #[cfg(feature = "openssl")]
                        Who::OpenSsl => {
                            let mut iv = [0u8; 16];
                            iv[..4].copy_from_slice(&(i as u32).to_le_bytes());
                            iv[4..].copy_from_slice(&nonce);
                            super::openssl::xor(self.openssl.as_ref().expect("prepared"), &iv, msg)
                        }
                        #[cfg(feature = "sodium")]
                        Who::Sodium => self
                            .sodium
                            .expect("prepared")
                            .chacha20_xor_ic(msg, &nonce, i as u32, &KEY),
                        _ => ChaCha20::with_counter(&KEY, &nonce, i as u32).apply_keystream(msg),
                    }
                }
            }
        }
        black_box(&mut self.buf);
    }

    fn output(&self) -> &[u8] {
        &self.buf
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every column of every burst primitive produces the same bytes, call after call
    /// (fresh nonces), on uniform, odd-length and IMIX bursts.
    #[test]
    fn every_column_agrees() {
        for name in [
            "chacha20-poly1305-burst",
            "chacha20-poly1305-open-burst",
            "chacha20-burst",
        ] {
            let columns = implementations(name, Selection { backends: true });
            for case in cases(name, &[64, 100, 1420]) {
                let mut runners: Vec<_> = columns.iter().map(|c| c.prepare(case)).collect();
                for call in 0..2 {
                    runners.iter_mut().for_each(|r| r.run());
                    let first = runners[0].output().to_vec();
                    for (r, c) in runners.iter().zip(&columns).skip(1) {
                        assert!(
                            r.output() == first,
                            "{name} {case:?} call {call}: {}",
                            c.name()
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn imix_is_the_twelve_packet_mix() {
        let lens = imix(12);
        assert_eq!(lens.iter().filter(|&&l| l == 64).count(), 7);
        assert_eq!(lens.iter().filter(|&&l| l == 576).count(), 4);
        assert_eq!(lens.iter().filter(|&&l| l == 1500).count(), 1);
        assert_eq!(
            lengths(cases("chacha20-burst", &[64]).pop().unwrap()),
            imix(48)
        );
    }
}
