//! Incremental Poly1305 fed in random pieces (plain and `update_padded`), on every
//! backend this CPU has: the tag equals the one-shot tag of the same bytes on the
//! portable backend and RustCrypto's `poly1305`, and `verify` accepts exactly that tag.
#![no_main]

use ::poly1305::universal_hash::KeyInit;
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ragged_chacha::{Error, Poly1305, Poly1305Backend};
use ragged_fuzz::fill_pseudo_random;

/// The key, biased toward the largest limb values.
#[derive(Arbitrary, Debug)]
enum Key {
    Raw([u8; 32]),
    /// All 0xff: the largest clamped `r`, and an `s` whose addition carries throughout.
    AllOnes,
    /// `r` with one small limb, `s` all 0xff.
    SmallR(u8),
}

/// The contents of one piece.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Fill {
    Random,
    /// Every limb of the block at its largest.
    Ones,
    Zeros,
}

#[derive(Arbitrary, Debug)]
enum Piece {
    Update {
        len: u16,
        fill: Fill,
    },
    /// `update_padded`: the piece, then zeros to the next multiple of 16 of the
    /// message so far.
    Padded {
        len: u16,
        fill: Fill,
    },
}

#[derive(Arbitrary, Debug)]
struct Input {
    key: Key,
    seed: u64,
    pieces: Vec<Piece>,
    /// A byte of the tag to flip for the negative `verify` (mask made non-zero).
    flip: (u8, u8),
}

/// Per piece: past the AVX2 backend's 20-block threshold several times over.
const MAX_PIECE: usize = 1100;
const MAX_TOTAL: usize = 8 * 1024;
const MAX_PIECES: usize = 24;

fuzz_target!(|input: Input| {
    let key = match input.key {
        Key::Raw(k) => k,
        Key::AllOnes => [0xff; 32],
        Key::SmallR(r) => {
            let mut k = [0u8; 32];
            k[0] = r;
            k[16..].fill(0xff);
            k
        }
    };

    // The pieces and the message they make (with the pad zeros `update_padded` adds).
    let mut pieces: Vec<(bool, Vec<u8>)> = Vec::new();
    let mut message = Vec::new();
    let mut total = 0;
    for (n, piece) in input.pieces.iter().take(MAX_PIECES).enumerate() {
        let (padded, len, fill) = match *piece {
            Piece::Update { len, fill } => (false, len, fill),
            Piece::Padded { len, fill } => (true, len, fill),
        };
        let len = (usize::from(len) % (MAX_PIECE + 1)).min(MAX_TOTAL - total);
        total += len;
        let mut bytes = vec![0; len];
        match fill {
            Fill::Random => fill_pseudo_random(input.seed ^ n as u64, &mut bytes),
            Fill::Ones => bytes.fill(0xff),
            Fill::Zeros => {}
        }
        message.extend_from_slice(&bytes);
        if padded {
            message.resize(message.len().next_multiple_of(16), 0);
        }
        pieces.push((padded, bytes));
    }

    let reference: [u8; 16] = ::poly1305::Poly1305::new(&key.into())
        .compute_unpadded(&message)
        .into();
    let mut one_shot = Poly1305::new(&key)
        .with_backend(Poly1305Backend::Portable)
        .unwrap();
    one_shot.update(&message);
    assert_eq!(one_shot.finalize(), reference, "portable one-shot");
    assert_eq!(
        ragged_chacha::poly1305(&key, &message),
        reference,
        "the detected backend, one-shot"
    );

    let mut wrong = reference;
    wrong[usize::from(input.flip.0) % 16] ^= input.flip.1.max(1);

    for backend in Poly1305Backend::available() {
        let feed = || {
            let mut mac = Poly1305::new(&key).with_backend(backend).unwrap();
            for (padded, bytes) in &pieces {
                if *padded {
                    mac.update_padded(bytes);
                } else {
                    mac.update(bytes);
                }
            }
            mac
        };
        assert_eq!(
            feed().finalize(),
            reference,
            "{backend:?} in pieces {:?}",
            input.pieces
        );
        assert_eq!(feed().verify(&reference), Ok(()), "{backend:?} verify");
        assert_eq!(
            feed().verify(&wrong),
            Err(Error::AuthenticationFailed),
            "{backend:?} verify of a wrong tag"
        );
    }
});
