//! The stateful stream API as random sequences of calls (see `sequence/mod.rs`), on
//! every variant, every backend the CPU has, through the typed and the by-name API (and
//! RustCrypto's traits with the `rustcrypto-traits` feature).

mod sequence;

use proptest::prelude::*;
use ragged_chacha::{Backend, ChaCha20, CipherKind};
use sequence::{Form, Len, Op, Sequence, Start, Target, run_everywhere};

/// Runs `seq` through every API on every backend; panics with the first difference.
fn check_everywhere(seq: &Sequence) {
    if let Err(e) = run_everywhere(seq) {
        panic!("{e}\n{seq:?}");
    }
}

/// The case from the report: a call that ends exactly on the edge of block 0, then a
/// seek inside block 1, once XORed bytes of block 0's keystream.
#[test]
fn a_call_ending_on_a_block_edge_then_a_seek_into_the_next_block() {
    let key = [7u8; 32];
    let nonce = [9u8; 12];
    for backend in Backend::available() {
        let mut expected = vec![0u8; 200];
        ChaCha20::new(&key, &nonce).apply_keystream(&mut expected);

        let mut c = ChaCha20::new(&key, &nonce).with_backend(backend).unwrap();
        c.seek(1);
        c.apply_keystream(&mut [0u8; 63]);
        c.seek(70);
        let mut buf = [0u8; 100];
        c.apply_keystream(&mut buf);
        assert_eq!(buf[..], expected[70..170], "{backend:?}");
    }
}

/// The same shape for every variant and both APIs, with the edge reached by calls of
/// several lengths and the seek landing at several offsets in the next blocks.
#[test]
fn edge_then_seek_on_every_variant() {
    for kind in CipherKind::ALL {
        for (first, seek) in [(1, 70), (0, 128 + 5), (31, 64 + 63), (5, 64 * 3 + 1)] {
            let mut nonce = vec![3u8; kind.nonce_len()];
            nonce[0] = first as u8;
            let seq = Sequence {
                kind,
                key: [first as u8; 32],
                nonce,
                start: Start::New,
                data_seed: 1,
                ops: vec![
                    Op::Seek {
                        target: Target::Absolute(first),
                        panicking: false,
                    },
                    Op::Apply(
                        Form::InPlace,
                        Len::ToEdge {
                            blocks: 0,
                            delta: 0,
                        },
                    ),
                    Op::Seek {
                        target: Target::Absolute(seek),
                        panicking: true,
                    },
                    Op::Apply(Form::TryB2b, Len::Exact(100)),
                ],
            };
            check_everywhere(&seq);
        }
    }
}

/// Sequences near the end of the counter: calls that end on the last block's edge,
/// seeks to the very end and beyond, refusals with nothing written.
#[test]
fn sequences_at_the_end_of_the_counter() {
    for kind in CipherKind::ALL {
        let last = sequence::blocks(kind) - 2;
        let seq = Sequence {
            kind,
            key: [1; 32],
            nonce: vec![2; kind.nonce_len()],
            start: Start::Block(u64::try_from(last).unwrap()),
            data_seed: 5,
            ops: vec![
                Op::Apply(Form::TryInPlace, Len::Exact(10)),
                Op::Apply(
                    Form::InPlace,
                    Len::ToEdge {
                        blocks: 0,
                        delta: 0,
                    },
                ),
                Op::Seek {
                    target: Target::Edge {
                        blocks: 0,
                        delta: 3,
                    },
                    panicking: false,
                },
                Op::Apply(Form::TryB2b, Len::ToEnd { over: 1 }),
                Op::Apply(Form::TryInPlace, Len::ToEnd { over: 0 }),
                Op::Apply(Form::TryInPlace, Len::Exact(0)),
                Op::Apply(Form::TryInPlace, Len::Exact(1)),
                Op::Seek {
                    target: Target::FromEnd(-1),
                    panicking: false,
                },
                Op::Seek {
                    target: Target::FromEnd(64),
                    panicking: true,
                },
                Op::Clone,
                Op::Apply(Form::B2b, Len::ToEnd { over: 0 }),
                Op::Apply(Form::Mismatch, Len::Exact(0)),
            ],
        };
        check_everywhere(&seq);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Random sequences: the decoder turns any bytes into calls biased toward block
    /// edges, zero lengths and the counter's end.
    #[test]
    fn random_sequences_match_the_model(bytes in proptest::collection::vec(any::<u8>(), 0..160)) {
        check_everywhere(&Sequence::decode(&bytes));
    }
}
