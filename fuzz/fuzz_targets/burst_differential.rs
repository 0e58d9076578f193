//! Bursts on every ChaCha backend this CPU has, against ragged's single-message calls
//! and RustCrypto: a burst of items with fuzzer-chosen lengths (0 to 4100 bytes), AAD
//! lengths, nonces, keys (one for the burst, or one an item) and counters seals to
//! exactly the single-message ciphertexts and tags (ChaCha20-Poly1305 also RustCrypto's);
//! opening it after tampering with some items fails exactly those, zeroed, and opens
//! the rest; an `xor_burst` of the same items gives the single-call keystream; and a
//! burst made invalid (an item past its counter's end) is refused naming the first
//! bad item, with nothing written. The Poly1305 backend is the input's choice among those
//! the CPU has (the burst MAC's lanes differ by backend).
#![no_main]

use arbitrary::Arbitrary;
use chacha20poly1305::aead::{AeadInOut, KeyInit};
use libfuzzer_sys::fuzz_target;
use ragged_chacha::burst::{Keyed, OpenItem, SealItem, XorItem};
use ragged_chacha::variant::Ietf;
use ragged_chacha::{Backend, Burst, ChaCha20, ChaCha20Poly1305, Error, Poly1305Backend};
use ragged_fuzz::pseudo_random;

#[derive(Arbitrary, Debug)]
struct Item {
    len: u16,
    aad_len: u8,
    seed: u32,
    counter: u32,
    /// Opening: 0 leaves the item alone; otherwise the byte (tag, then ciphertext,
    /// then AAD, by its value) gets this bit flipped.
    tamper: u8,
    /// `xor_burst`: whether this item asks for one block past its counter's end.
    past_end: bool,
}

#[derive(Arbitrary, Debug)]
struct Input {
    keyed: bool,
    key: [u8; 32],
    /// The Poly1305 backend (of those this CPU has) for every burst of the input.
    mac: u8,
    items: Vec<Item>,
}

const MAX_ITEMS: usize = 80;
const MAX_LEN: usize = 4100;

fuzz_target!(|input: Input| {
    let items = &input.items[..input.items.len().min(MAX_ITEMS)];
    let key_of = |it: &Item| -> [u8; 32] {
        if input.keyed {
            pseudo_random(u64::from(it.seed) ^ 0x4b45, 32)
                .try_into()
                .unwrap()
        } else {
            input.key
        }
    };
    let keys: Vec<[u8; 32]> = items.iter().map(key_of).collect();
    let nonces: Vec<[u8; 12]> = items
        .iter()
        .map(|it| {
            pseudo_random(u64::from(it.seed) ^ 0x4e4f, 12)
                .try_into()
                .unwrap()
        })
        .collect();
    let aads: Vec<Vec<u8>> = items
        .iter()
        .map(|it| pseudo_random(u64::from(it.seed) ^ 0x4141, usize::from(it.aad_len) % 48))
        .collect();
    let plain: Vec<Vec<u8>> = items
        .iter()
        .map(|it| pseudo_random(u64::from(it.seed), usize::from(it.len) % (MAX_LEN + 1)))
        .collect();
    // The expected ciphertexts and tags: RustCrypto, equal to ragged's single calls.
    let expected: Vec<(Vec<u8>, [u8; 16])> = (0..items.len())
        .map(|i| {
            let mut buf = plain[i].clone();
            let tag = chacha20poly1305::ChaCha20Poly1305::new(&keys[i].into())
                .encrypt_inout_detached(&nonces[i].into(), &aads[i], buf.as_mut_slice().into())
                .unwrap();
            let mut single = plain[i].clone();
            let t = ChaCha20Poly1305::new(&keys[i])
                .encrypt_in_place_detached(&nonces[i], &aads[i], &mut single)
                .unwrap();
            assert!(
                single == buf && t == <[u8; 16]>::from(tag),
                "single call differs"
            );
            (buf, tag.into())
        })
        .collect();

    let macs: Vec<Poly1305Backend> = Poly1305Backend::available().collect();
    let mac = macs[usize::from(input.mac) % macs.len()];
    for backend in Backend::available() {
        let burst = Burst::new()
            .with_backend(backend)
            .unwrap()
            .with_mac_backend(mac)
            .unwrap();
        let aead = ChaCha20Poly1305::new(&input.key)
            .with_backend(backend)
            .unwrap()
            .with_mac_backend(mac)
            .unwrap();
        // Seal.
        let mut bufs = plain.clone();
        let tags: Vec<[u8; 16]> = if input.keyed {
            let mut it: Vec<_> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| {
                    Keyed::new(&keys[i], SealItem::<Ietf<20>>::new(nonces[i], &aads[i], b))
                })
                .collect();
            burst.seal(&mut it).unwrap();
            it.iter().map(|k| k.item.tag).collect()
        } else {
            let mut it: Vec<_> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| SealItem::new(nonces[i], &aads[i], b))
                .collect();
            aead.seal_burst(&mut it).unwrap();
            it.iter().map(|k| k.tag).collect()
        };
        for i in 0..items.len() {
            assert!(bufs[i] == expected[i].0, "{backend:?} item {i}: ciphertext");
            assert_eq!(tags[i], expected[i].1, "{backend:?} item {i}: tag");
        }
        // Tamper and open.
        let mut tags = tags;
        let mut aads = aads.clone();
        for (i, it) in items.iter().enumerate() {
            if it.tamper == 0 {
                continue;
            }
            let (at, bit) = (usize::from(it.tamper), 1u8 << (it.tamper % 8));
            let target: &mut [u8] = match it.tamper % 3 {
                1 if !bufs[i].is_empty() => &mut bufs[i],
                2 if !aads[i].is_empty() => &mut aads[i],
                _ => &mut tags[i],
            };
            let n = target.len();
            target[at % n] ^= bit;
        }
        let mut verdicts = vec![Ok(()); items.len()];
        let result = if input.keyed {
            let mut it: Vec<_> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| {
                    Keyed::new(
                        &keys[i],
                        OpenItem::<Ietf<20>>::new(nonces[i], &aads[i], b, tags[i]),
                    )
                })
                .collect();
            burst.open(&mut it, &mut verdicts)
        } else {
            let mut it: Vec<_> = bufs
                .iter_mut()
                .enumerate()
                .map(|(i, b)| OpenItem::new(nonces[i], &aads[i], b, tags[i]))
                .collect();
            aead.open_burst(&mut it, &mut verdicts)
        };
        let any = items.iter().any(|it| it.tamper != 0);
        assert_eq!(result.is_err(), any, "{backend:?}: burst verdict");
        for (i, it) in items.iter().enumerate() {
            if it.tamper != 0 {
                assert_eq!(
                    verdicts[i],
                    Err(Error::AuthenticationFailed),
                    "{backend:?} item {i}"
                );
                assert!(
                    bufs[i].iter().all(|&b| b == 0),
                    "{backend:?} item {i}: not zeroed"
                );
            } else {
                assert_eq!(verdicts[i], Ok(()), "{backend:?} item {i}");
                assert!(bufs[i] == plain[i], "{backend:?} item {i}: plaintext");
            }
        }
        // Keystream: the counters as given (valid items cut to fit), some pushed past
        // the end.
        let mut bufs = plain.clone();
        let mut counters: Vec<u32> = items.iter().map(|it| it.counter).collect();
        let mut first_bad = None;
        for (i, it) in items.iter().enumerate() {
            let room = ((1u64 << 32) - u64::from(counters[i])) * 64;
            if it.past_end {
                counters[i] = u32::MAX;
                bufs[i] = pseudo_random(u64::from(it.seed), 65 + bufs[i].len() % 64);
                first_bad.get_or_insert(i);
            } else if bufs[i].len() as u64 > room {
                bufs[i].truncate(room as usize);
            }
        }
        let before = bufs.clone();
        let mut it: Vec<_> = bufs
            .iter_mut()
            .enumerate()
            .map(|(i, b)| XorItem::<Ietf<20>>::new(&keys[i], nonces[i], counters[i], b))
            .collect();
        let result = burst.xor(&mut it);
        drop(it);
        match first_bad {
            Some(index) => {
                assert_eq!(
                    result,
                    Err(Error::InvalidBurstItem {
                        index,
                        requested: before[index].len() as u128,
                        allowed: 64,
                    }),
                    "{backend:?}"
                );
                assert!(bufs == before, "{backend:?}: a refused burst wrote");
            }
            None => {
                result.unwrap();
                for i in 0..items.len() {
                    let mut single = before[i].clone();
                    ChaCha20::with_counter(&keys[i], &nonces[i], counters[i])
                        .with_backend(backend)
                        .unwrap()
                        .apply_keystream(&mut single);
                    assert!(bufs[i] == single, "{backend:?} item {i}: keystream");
                }
            }
        }
    }
});
