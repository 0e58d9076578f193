//! Bursts against the single-message API on every backend this CPU has, and against
//! RustCrypto's `chacha20poly1305` and `chacha20`: random bursts of 1 to 100 items,
//! lengths 0 to 4096 biased to block edges, random AAD, one key and a key per item,
//! in place; tampered items (exactly those) fail and are zeroed; invalid bursts are
//! refused with nothing written.

mod common;

use chacha20poly1305::aead::{AeadInOut, KeyInit};
use common::bytes;
use proptest::prelude::*;
use ragged_chacha::aead::AeadVariant;
use ragged_chacha::burst::{Keyed, OpenItem, SealItem, XorItem};
use ragged_chacha::variant::{Ietf, Legacy, Variant, XChaCha};
use ragged_chacha::{Backend, Burst, ChaCha, ChaChaPoly1305, CipherKind, Error, Poly1305Backend};

/// One item of a random AEAD burst.
#[derive(Clone, Debug)]
struct Spec {
    len: usize,
    aad_len: usize,
    seed: u64,
    /// Whether (and how) opening gets an altered input: 0 the tag, 1 the
    /// ciphertext, 2 the AAD (each falling back to the tag where there is nothing).
    tamper: Option<u8>,
}

/// Lengths 0 ..= 4096, three in four on or next to a 64-byte edge.
fn length() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => (0usize..=64, 0usize..=2).prop_map(|(k, d)| (64 * k + d).saturating_sub(1).min(4096)),
        1 => 0usize..=4096,
    ]
}

fn aad_length() -> impl Strategy<Value = usize> {
    prop_oneof![Just(0usize), 0usize..=40, Just(16), Just(13)]
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        length(),
        aad_length(),
        any::<u64>(),
        prop::option::weighted(0.2, 0u8..3),
    )
        .prop_map(|(len, aad_len, seed, tamper)| Spec {
            len,
            aad_len,
            seed,
            tamper,
        })
}

/// RustCrypto's ciphertext and tag for `V`.
fn reference<V: AeadVariant>(
    key: &[u8; 32],
    nonce: &[u8],
    aad: &[u8],
    plaintext: &[u8],
) -> (Vec<u8>, [u8; 16]) {
    let mut buf = plaintext.to_vec();
    let tag = match V::AEAD_NAME {
        "chacha20-poly1305" => chacha20poly1305::ChaCha20Poly1305::new(key.into())
            .encrypt_inout_detached(nonce.try_into().unwrap(), aad, buf.as_mut_slice().into()),
        "xchacha20-poly1305" => chacha20poly1305::XChaCha20Poly1305::new(key.into())
            .encrypt_inout_detached(nonce.try_into().unwrap(), aad, buf.as_mut_slice().into()),
        other => panic!("no reference for {other}"),
    }
    .unwrap();
    (buf, tag.into())
}

/// The materials of one item.
struct Material<V: AeadVariant> {
    key: [u8; 32],
    nonce: V::Nonce,
    aad: Vec<u8>,
    plaintext: Vec<u8>,
    expected: (Vec<u8>, [u8; 16]),
}

fn materials<V: AeadVariant>(specs: &[Spec], one_key: &[u8; 32], keyed: bool) -> Vec<Material<V>>
where
    V::Nonce: for<'a> TryFrom<&'a [u8], Error = core::array::TryFromSliceError>,
{
    specs
        .iter()
        .map(|s| {
            let key = if keyed {
                bytes(s.seed ^ 0x1111, 32).try_into().unwrap()
            } else {
                *one_key
            };
            let nonce_bytes = bytes(s.seed ^ 0x2222, 24);
            let nonce_len = if V::AEAD_NAME == "chacha20-poly1305" {
                12
            } else {
                24
            };
            let nonce_bytes = &nonce_bytes[..nonce_len];
            let aad = bytes(s.seed ^ 0x3333, s.aad_len);
            let plaintext = bytes(s.seed ^ 0x4444, s.len);
            let expected = reference::<V>(&key, nonce_bytes, &aad, &plaintext);
            Material {
                key,
                nonce: V::Nonce::try_from(nonce_bytes).unwrap(),
                aad,
                plaintext,
                expected,
            }
        })
        .collect()
}

/// Seals the burst on `backend`/`mac` (one key or keyed), checks every item against
/// RustCrypto and the single-message API, then opens it with the tampering of `specs`
/// and checks the verdicts, the zeroing and the plaintexts.
fn seal_and_open<V: AeadVariant>(
    specs: &[Spec],
    m: &[Material<V>],
    one_key: &[u8; 32],
    keyed: bool,
    backend: Backend,
    mac: Poly1305Backend,
) where
    V::Nonce: Copy,
{
    let what = |i: usize| {
        format!(
            "{} burst of {} on {}/{}, keyed {keyed}: item {i} ({} bytes, {} of AAD)",
            V::AEAD_NAME,
            specs.len(),
            backend.name(),
            mac.name(),
            specs[i].len,
            specs[i].aad_len
        )
    };
    let aead = ChaChaPoly1305::<V>::new(one_key)
        .with_backend(backend)
        .and_then(|a| a.with_mac_backend(mac))
        .unwrap();
    let burst = Burst::new()
        .with_backend(backend)
        .and_then(|b| b.with_mac_backend(mac))
        .unwrap();

    // Seal.
    let mut bufs: Vec<Vec<u8>> = m.iter().map(|x| x.plaintext.clone()).collect();
    let tags: Vec<[u8; 16]> = if keyed {
        let mut items: Vec<_> = m
            .iter()
            .zip(bufs.iter_mut())
            .map(|(x, b)| Keyed::new(&x.key, SealItem::<V>::new(x.nonce, &x.aad, b)))
            .collect();
        burst.seal(&mut items).unwrap();
        items.iter().map(|k| k.item.tag).collect()
    } else {
        let mut items: Vec<_> = m
            .iter()
            .zip(bufs.iter_mut())
            .map(|(x, b)| SealItem::<V>::new(x.nonce, &x.aad, b))
            .collect();
        aead.seal_burst(&mut items).unwrap();
        items.iter().map(|k| k.tag).collect()
    };
    for (i, x) in m.iter().enumerate() {
        assert!(bufs[i] == x.expected.0, "ciphertext differs: {}", what(i));
        assert_eq!(tags[i], x.expected.1, "tag differs: {}", what(i));
        let single = ChaChaPoly1305::<V>::new(&x.key)
            .with_backend(backend)
            .and_then(|a| a.with_mac_backend(mac))
            .unwrap();
        let mut one = x.plaintext.clone();
        let tag = single
            .encrypt_in_place_detached(&x.nonce, &x.aad, &mut one)
            .unwrap();
        assert!(
            one == bufs[i] && tag == tags[i],
            "single differs: {}",
            what(i)
        );
    }

    // Tamper and open.
    let mut tags = tags;
    let mut aads: Vec<Vec<u8>> = m.iter().map(|x| x.aad.clone()).collect();
    for (i, s) in specs.iter().enumerate() {
        let bit = (s.seed >> 8) as usize;
        match s.tamper {
            None => {}
            Some(1) if !bufs[i].is_empty() => {
                let n = bufs[i].len();
                bufs[i][bit % n] ^= 1 << (bit % 8);
            }
            Some(2) if !aads[i].is_empty() => {
                let n = aads[i].len();
                aads[i][bit % n] ^= 1 << (bit % 8);
            }
            Some(_) => tags[i][bit % 16] ^= 1 << (bit % 8),
        }
    }
    let mut verdicts = vec![Ok(()); specs.len()];
    let result = if keyed {
        let mut items: Vec<_> = m
            .iter()
            .zip(bufs.iter_mut())
            .zip(aads.iter().zip(&tags))
            .map(|((x, b), (aad, tag))| {
                Keyed::new(&x.key, OpenItem::<V>::new(x.nonce, aad, b, *tag))
            })
            .collect();
        burst.open(&mut items, &mut verdicts)
    } else {
        let mut items: Vec<_> = m
            .iter()
            .zip(bufs.iter_mut())
            .zip(aads.iter().zip(&tags))
            .map(|((x, b), (aad, tag))| OpenItem::<V>::new(x.nonce, aad, b, *tag))
            .collect();
        aead.open_burst(&mut items, &mut verdicts)
    };
    let any_tampered = specs.iter().any(|s| s.tamper.is_some());
    assert_eq!(result.is_err(), any_tampered, "burst verdict: {}", what(0));
    if any_tampered {
        assert_eq!(result, Err(Error::AuthenticationFailed));
    }
    for (i, s) in specs.iter().enumerate() {
        if s.tamper.is_some() {
            assert_eq!(
                verdicts[i],
                Err(Error::AuthenticationFailed),
                "accepted: {}",
                what(i)
            );
            assert!(bufs[i].iter().all(|&b| b == 0), "not zeroed: {}", what(i));
        } else {
            assert_eq!(verdicts[i], Ok(()), "refused: {}", what(i));
            assert!(bufs[i] == m[i].plaintext, "did not decrypt: {}", what(i));
        }
    }
}

fn every_backend<V: AeadVariant>(specs: &[Spec], keyed: bool, key_seed: u64)
where
    V::Nonce: Copy + for<'a> TryFrom<&'a [u8], Error = core::array::TryFromSliceError>,
{
    let one_key: [u8; 32] = bytes(key_seed, 32).try_into().unwrap();
    let m = materials::<V>(specs, &one_key, keyed);
    for backend in Backend::available() {
        seal_and_open::<V>(
            specs,
            &m,
            &one_key,
            keyed,
            backend,
            Poly1305Backend::detect(),
        );
    }
    for mac in Poly1305Backend::available() {
        seal_and_open::<V>(specs, &m, &one_key, keyed, Backend::detect(), mac);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn chacha20_poly1305_bursts_match(specs in prop::collection::vec(spec(), 1..=100), keyed: bool, key_seed: u64) {
        every_backend::<Ietf<20>>(&specs, keyed, key_seed);
    }

    #[test]
    fn xchacha20_poly1305_bursts_match(specs in prop::collection::vec(spec(), 1..=100), keyed: bool, key_seed: u64) {
        every_backend::<XChaCha<20>>(&specs, keyed, key_seed);
    }

    /// Bursts whose items are all at most a block long (QUIC ACKs, keepalives): the
    /// openings that take each item's keystream block beside its key block (Zen 5)
    /// and XOR in only the item's own bytes; bursts of more such items than the two
    /// sets' 32 lanes in groups of a set's width.
    #[test]
    fn one_block_bursts_match(specs in prop::collection::vec(short_spec(), 1..=80), keyed: bool, key_seed: u64) {
        every_backend::<Ietf<20>>(&specs, keyed, key_seed);
        every_backend::<XChaCha<20>>(&specs, keyed, key_seed);
    }
}

/// An item of at most one block.
fn short_spec() -> impl Strategy<Value = Spec> {
    (spec(), 0usize..=64).prop_map(|(spec, len)| Spec { len, ..spec })
}

/// Bursts of items of one length (the opening's waves of one lane batch each, a wave's
/// tags checked between its key blocks and its messages), with forged items in the
/// first wave, a later one, every one, or none: a forged item's lane is dropped and
/// takes the next item while the others of its wave go on.
#[test]
fn uniform_bursts_with_forgeries_in_any_wave() {
    for (count, len) in [
        (16, 64),
        (17, 64),
        (40, 100),
        (64, 1),
        (64, 0),
        // More one-block items than the two sets' lanes: opened in groups of a set's
        // width on Zen 5 (the last group of one item, or of half a set).
        (33, 17),
        (40, 64),
        (70, 256),
        (33, 1420),
        // Fewer items than two sets of 16 lanes, long enough to be split in halves
        // where the core has the second set (Zen 5): the key blocks, then the tags,
        // then the messages in halves, a forged item's never run.
        (16, 1420),
        (24, 1025),
        // Halves that fit one set (from a shorter length), and too short for halves.
        (8, 576),
        (12, 576),
        // More than half a set's items: on Zen 5 each item in the same lane of both
        // sets, two blocks a batch (the opening's messages too, from 6 blocks: so
        // also 12 × 576 B above, 16 × 576 B and 11 × 400 B here).
        (14, 1100),
        (16, 576),
        (11, 400),
        (9, 64),
        // Too few for their length: the whole group on the single path (Zen 5).
        (10, 1100),
        (20, 1420),
        // More than a set of one length, too few for two: halves on both sets, the
        // opening's too (Zen 5).
        (17, 704),
    ] {
        for forged in [
            &(|_| false) as &dyn Fn(usize) -> bool,
            &|i| i == 0,
            &|i| i == count - 3,
            &|i| i % 7 == 3,
            &|_| true,
        ] {
            let specs: Vec<Spec> = (0..count)
                .map(|i| Spec {
                    len,
                    aad_len: [0, 13][i % 2],
                    seed: (count * 1000 + i) as u64,
                    tamper: forged(i).then_some((i % 3) as u8),
                })
                .collect();
            for keyed in [false, true] {
                every_backend::<Ietf<20>>(&specs, keyed, count as u64);
            }
            every_backend::<XChaCha<20>>(&specs, false, len as u64);
        }
    }
}

/// One item of a random keystream burst: its length and counter (clamped so the item
/// is valid), and a seed.
#[derive(Clone, Debug)]
struct XorSpec {
    len: usize,
    counter: u64,
    seed: u64,
}

/// Counters near 0, near the 32-bit end (the last usable block of RFC 8439, and the
/// carry into the high word of the 64-bit ones), near the 64-bit end, and anywhere.
fn counter() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..=8,
        0xffff_ffc0u64..=0x1_0000_0008,
        (u64::MAX - 70)..=u64::MAX,
        any::<u64>(),
    ]
}

fn xor_spec() -> impl Strategy<Value = XorSpec> {
    (length(), counter(), any::<u64>()).prop_map(|(len, counter, seed)| XorSpec {
        len,
        counter,
        seed,
    })
}

/// An item's key, nonce, counter and data.
type XorMaterial = ([u8; 32], Vec<u8>, u64, Vec<u8>);

/// The items of `specs` as `V` takes them: counters reduced to the variant's width and
/// lengths cut so every item fits before the counter's end.
fn xor_materials<V: Variant>(specs: &[XorSpec]) -> Vec<XorMaterial> {
    let nonce_len = V::NAME_NONCE_LEN;
    specs
        .iter()
        .map(|s| {
            let counter = if V::BLOCKS == 1 << 32 {
                s.counter & 0xffff_ffff
            } else {
                s.counter
            };
            let left = V::BLOCKS * 64 - u128::from(counter) * 64;
            let len = (s.len as u128).min(left) as usize;
            (
                bytes(s.seed, 32).try_into().unwrap(),
                bytes(s.seed ^ 0x5555, nonce_len),
                counter,
                bytes(s.seed ^ 0x6666, len),
            )
        })
        .collect()
}

/// The nonce length of a variant, from its name (the tests' own table).
trait NonceLen {
    const NAME_NONCE_LEN: usize;
}
impl<V: Variant> NonceLen for V {
    const NAME_NONCE_LEN: usize = if V::BLOCKS == 1 << 32 {
        12
    } else if V::NAME.as_bytes()[0] == b'x' {
        24
    } else {
        8
    };
}

fn xor_every_backend<V: Variant>(kind: CipherKind, specs: &[XorSpec])
where
    V::Nonce: for<'a> TryFrom<&'a [u8], Error = core::array::TryFromSliceError>,
    V::Counter: TryFrom<u64>,
    <V::Counter as TryFrom<u64>>::Error: core::fmt::Debug,
{
    let m = xor_materials::<V>(specs);
    for backend in Backend::available() {
        let mut bufs: Vec<Vec<u8>> = m.iter().map(|x| x.3.clone()).collect();
        let mut items: Vec<_> = m
            .iter()
            .zip(bufs.iter_mut())
            .map(|(x, b)| {
                XorItem::<V>::new(
                    &x.0,
                    V::Nonce::try_from(&x.1[..]).unwrap(),
                    V::Counter::try_from(x.2).unwrap(),
                    b,
                )
            })
            .collect();
        Burst::new()
            .with_backend(backend)
            .unwrap()
            .xor(&mut items)
            .unwrap();
        for (i, x) in m.iter().enumerate() {
            let what = || {
                format!(
                    "{} burst of {} on {}: item {i} ({} bytes from block {:#x})",
                    kind.name(),
                    m.len(),
                    backend.name(),
                    x.3.len(),
                    x.2
                )
            };
            let nonce = V::Nonce::try_from(&x.1[..]).unwrap();
            let mut single = x.3.clone();
            ChaCha::<V>::with_counter(&x.0, &nonce, V::Counter::try_from(x.2).unwrap())
                .with_backend(backend)
                .unwrap()
                .apply_keystream(&mut single);
            assert!(
                bufs[i] == single,
                "differs from the single call: {}",
                what()
            );
            // RustCrypto's counters are 32 bits wide but for the legacy variant, whose
            // byte position is a u64; it refuses the last block: compared where it
            // reaches (beyond, the single call is the reference).
            let blocks = x.3.len().div_ceil(64) as u64;
            let reach = if kind == CipherKind::ChaCha20Legacy {
                1 << 57
            } else {
                u64::from(u32::MAX)
            };
            if x.2.saturating_add(blocks) < reach {
                let rc = common::reference(kind, &x.0, &x.1, x.2 * 64, &x.3);
                let upto = rc.len();
                assert!(
                    bufs[i][..upto] == rc[..upto],
                    "differs from RustCrypto: {}",
                    what()
                );
            }
        }
    }
}

/// Keystream bursts of one length with items enough to keep two sets of 16 lanes busy
/// where the core has them (Zen 5), counters from 0 and across the carry into the
/// 64-bit counters' high word (an IETF counter is cut to 32 bits, and the item to
/// what fits before its end).
#[test]
fn uniform_xor_bursts_that_fill_two_sets() {
    for (count, len) in [(32, 64), (33, 1), (64, 256), (48, 576), (40, 130)] {
        for start in [0u64, 0xffff_fff0] {
            let specs: Vec<XorSpec> = (0..count)
                .map(|i| XorSpec {
                    len,
                    counter: start + i as u64,
                    seed: (count * 100 + i) as u64,
                })
                .collect();
            xor_every_backend::<Ietf<20>>(CipherKind::ChaCha20, &specs);
            xor_every_backend::<Legacy<20>>(CipherKind::ChaCha20Legacy, &specs);
            xor_every_backend::<XChaCha<20>>(CipherKind::XChaCha20, &specs);
        }
    }
}

/// Keystream bursts of mixed lengths in more than one group of items (the lanes take
/// each group longest first): IMIX orders of 100 and 130 items, and groups with no
/// item for the lanes before, between and after groups with some.
#[test]
fn mixed_xor_bursts_over_several_groups() {
    let imix = [64, 64, 576, 64, 64, 576, 1500, 64, 576, 64, 64, 576];
    let mixed = [64, 192, 130, 64, 700, 1];
    let layouts: Vec<Vec<usize>> = vec![
        imix.iter().copied().cycle().take(100).collect(),
        imix.iter().copied().cycle().take(130).collect(),
        [
            vec![2000; 64],
            mixed.iter().copied().cycle().take(40).collect(),
        ]
        .concat(),
        [
            mixed.iter().copied().cycle().take(64).collect(),
            vec![3000; 64],
            mixed.iter().copied().cycle().take(70).collect(),
        ]
        .concat(),
        [
            mixed.iter().copied().cycle().take(40).collect(),
            vec![2000; 90],
        ]
        .concat(),
    ];
    for (n, lens) in layouts.iter().enumerate() {
        let specs: Vec<XorSpec> = lens
            .iter()
            .enumerate()
            .map(|(i, &len)| XorSpec {
                len,
                counter: (i % 5) as u64,
                seed: (n * 1000 + i) as u64,
            })
            .collect();
        xor_every_backend::<Ietf<20>>(CipherKind::ChaCha20, &specs);
        xor_every_backend::<XChaCha<20>>(CipherKind::XChaCha20, &specs);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn chacha20_xor_bursts_match(specs in prop::collection::vec(xor_spec(), 1..=100)) {
        xor_every_backend::<Ietf<20>>(CipherKind::ChaCha20, &specs);
    }

    #[test]
    fn chacha12_xor_bursts_match(specs in prop::collection::vec(xor_spec(), 1..=60)) {
        xor_every_backend::<Ietf<12>>(CipherKind::ChaCha12, &specs);
    }

    #[test]
    fn legacy_xor_bursts_match(specs in prop::collection::vec(xor_spec(), 1..=60)) {
        xor_every_backend::<Legacy<20>>(CipherKind::ChaCha20Legacy, &specs);
    }

    #[test]
    fn xchacha20_xor_bursts_match(specs in prop::collection::vec(xor_spec(), 1..=60)) {
        xor_every_backend::<XChaCha<20>>(CipherKind::XChaCha20, &specs);
    }

    /// A burst with invalid items (a request past the counter's end) is refused whole,
    /// naming the first, and no buffer is touched.
    #[test]
    fn invalid_xor_bursts_are_refused_untouched(
        specs in prop::collection::vec(xor_spec(), 1..=40),
        bad in prop::collection::vec(any::<prop::sample::Index>(), 1..3),
        over in 1usize..200,
    ) {
        let m = xor_materials::<Ietf<20>>(&specs);
        let bad: Vec<usize> = bad.iter().map(|b| b.index(m.len())).collect();
        let first = *bad.iter().min().unwrap();
        for backend in Backend::available() {
            let mut bufs: Vec<Vec<u8>> = m.iter().map(|x| x.3.clone()).collect();
            let mut counters: Vec<u32> = m.iter().map(|x| x.2 as u32).collect();
            for &b in &bad {
                // Put the item in the last blocks and ask `over` bytes more.
                counters[b] = u32::MAX - (b as u32 % 3);
                let room = (((1u64 << 32) - u64::from(counters[b])) * 64) as usize;
                bufs[b] = bytes(b as u64, room + over);
            }
            let before = bufs.clone();
            let mut items: Vec<_> = m
                .iter()
                .zip(bufs.iter_mut())
                .zip(&counters)
                .map(|((x, buf), &c)| {
                    XorItem::<Ietf<20>>::new(&x.0, x.1[..].try_into().unwrap(), c, buf)
                })
                .collect();
            let err = Burst::new().with_backend(backend).unwrap().xor(&mut items);
            let room = (((1u64 << 32) - u64::from(counters[first])) * 64) as u128;
            prop_assert_eq!(
                err,
                Err(Error::InvalidBurstItem {
                    index: first,
                    requested: before[first].len() as u128,
                    allowed: room,
                })
            );
            prop_assert!(bufs == before, "a refused burst wrote on {}", backend.name());
        }
    }
}

#[test]
fn open_with_the_wrong_number_of_verdicts_is_refused_untouched() {
    let aead = ragged_chacha::ChaCha20Poly1305::new(&[3; 32]);
    let mut a = bytes(1, 100);
    let before = a.clone();
    let mut items = [OpenItem::new([0; 12], b"", &mut a, [0; 16])];
    let mut verdicts = [Ok(()), Ok(())];
    assert_eq!(
        aead.open_burst(&mut items, &mut verdicts),
        Err(Error::LengthMismatch {
            input: 1,
            output: 2
        })
    );
    assert_eq!(verdicts, [Ok(()), Ok(())]);
    assert_eq!(a, before);
}

#[test]
fn empty_bursts_and_empty_items() {
    let aead = ragged_chacha::ChaCha20Poly1305::new(&[3; 32]);
    aead.seal_burst(&mut []).unwrap();
    aead.open_burst(&mut [], &mut []).unwrap();
    ChaCha::<Ietf<20>>::xor_burst(&mut []).unwrap();
    // An empty item at the very end of the keystream is valid; one byte more is not.
    let key = [1; 32];
    let (mut e, mut one) = ([0u8; 0], [0u8; 1]);
    let mut items = [XorItem::<Ietf<20>>::new(&key, [0; 12], u32::MAX, &mut e)];
    ChaCha::<Ietf<20>>::xor_burst(&mut items).unwrap();
    let mut items = [
        XorItem::<Ietf<20>>::new(&key, [0; 12], u32::MAX, &mut e),
        XorItem::<Ietf<20>>::new(&key, [0; 12], u32::MAX, &mut one),
    ];
    ChaCha::<Ietf<20>>::xor_burst(&mut items).unwrap();
    // The last block itself is usable (64 bytes from block 0xffffffff); 65 are not.
    let mut block = [0u8; 65];
    let mut items = [XorItem::<Ietf<20>>::new(
        &key,
        [0; 12],
        u32::MAX,
        &mut block,
    )];
    assert_eq!(
        ChaCha::<Ietf<20>>::xor_burst(&mut items),
        Err(Error::InvalidBurstItem {
            index: 0,
            requested: 65,
            allowed: 64
        })
    );
    assert_eq!(block, [0; 65]);
}

/// A burst found by `burst_differential` (fuzz) whose forged one-byte item was opened as
/// authentic on Zen 5 with the IFMA MAC, where its long items took the opening's
/// keystream-alone plan: every tampered item must be refused on every backend and MAC
/// backend. The fuzz input's key, lengths, seeds and tampering, with its generator.
#[test]
fn a_forged_short_item_among_long_ones_is_refused() {
    let fill = |seed: u64, len: usize| -> Vec<u8> {
        let mut v = vec![0u8; len];
        let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for chunk in v.chunks_mut(8) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            chunk.copy_from_slice(&s.to_le_bytes()[..chunk.len()]);
        }
        v
    };
    let key: [u8; 32] = [
        0, 0, 223, 255, 72, 0, 0, 8, 27, 0, 0, 151, 35, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0,
        1, 23, 23, 23, 35,
    ];
    // (message length, AAD length, seed, tamper: the fuzz target's rule below).
    let shape: [(usize, usize, u64, u8); 12] = [
        (1964, 7, 4160223223, 247),
        (1964, 7, 4160223223, 247),
        (1799, 7, 117901063, 7),
        (1799, 7, 117901063, 7),
        (1, 0, 4294967041, 7),
        (1799, 19, 3426429755, 7),
        (1799, 7, 117901063, 7),
        (1799, 2, 117901063, 7),
        (1799, 7, 117901063, 107),
        (2893, 11, 1802201963, 107),
        (1899, 7, 117901063, 255),
        (3252, 4, 117901063, 0),
    ];
    let nonces: Vec<[u8; 12]> = shape
        .iter()
        .map(|s| fill(s.2 ^ 0x4e4f, 12).try_into().unwrap())
        .collect();
    let plain: Vec<Vec<u8>> = shape.iter().map(|s| fill(s.2, s.0)).collect();
    for backend in Backend::available() {
        for mac in Poly1305Backend::available() {
            let aead = ragged_chacha::ChaCha20Poly1305::new(&key)
                .with_backend(backend)
                .unwrap()
                .with_mac_backend(mac)
                .unwrap();
            let mut aads: Vec<Vec<u8>> = shape.iter().map(|s| fill(s.2 ^ 0x4141, s.1)).collect();
            let mut bufs = plain.clone();
            let mut tags = Vec::new();
            for (i, buf) in bufs.iter_mut().enumerate() {
                tags.push(
                    aead.encrypt_in_place_detached(&nonces[i], &aads[i], buf)
                        .unwrap(),
                );
            }
            // A bit of the ciphertext, the AAD or the tag, as the fuzz target flips it.
            for (i, s) in shape.iter().enumerate() {
                if s.3 == 0 {
                    continue;
                }
                let (at, bit) = (usize::from(s.3), 1u8 << (s.3 % 8));
                let target: &mut [u8] = match s.3 % 3 {
                    1 if !bufs[i].is_empty() => &mut bufs[i],
                    2 if !aads[i].is_empty() => &mut aads[i],
                    _ => &mut tags[i],
                };
                let n = target.len();
                target[at % n] ^= bit;
            }
            let mut verdicts = vec![Ok(()); shape.len()];
            let mut items: Vec<_> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| OpenItem::new(nonces[i], &aads[i], b, tags[i]))
                .collect();
            assert!(aead.open_burst(&mut items, &mut verdicts).is_err());
            for (i, s) in shape.iter().enumerate() {
                assert_eq!(
                    verdicts[i].is_ok(),
                    s.3 == 0,
                    "{backend:?}/{mac:?} item {i}"
                );
            }
        }
    }
}
