//! The stream API as a sequence of calls: a decoder from raw bytes to a sequence of
//! calls on one cipher, and a runner that drives a subject through it and checks every
//! call against a model.
//!
//! Shared by the property test (`tests/stream_sequences.rs`), the RustCrypto trait
//! test (`tests/rustcrypto_traits.rs`) and the `stream_sequence` fuzz target, which
//! includes this file by path: both feed it bytes, so what the fuzzer finds replays in
//! the property test's terms and the other way round.
//!
//! Why sequences: a single call cannot show state carried between calls. The classic
//! case is a call that ends exactly on a 64-byte block edge followed by a seek inside
//! the next block; the cipher must not pair the new position with the previous
//! block's buffered keystream. So the decoder is biased toward block edges: lengths
//! that end a call on an edge (± a few bytes), seeks to edges ± a few bytes, zero
//! lengths, and starts near the end of the counter.
//!
//! The model of each call:
//! - bytes: `input XOR keystream[pos .. pos + len]`, the keystream taken from a fresh
//!   cipher on the portable backend started at block `pos / 64` and applied once
//!   (no state of the subject involved), and, while the range is one RustCrypto's
//!   `chacha20` serves, from a RustCrypto cipher driven through the same calls;
//! - refusals: a request past the end of the keystream, a seek beyond it, an
//!   out-of-place call with unequal lengths: the exact error, nothing written, the
//!   position unchanged;
//! - `current_pos` and `remaining` after every call.
#![allow(dead_code)]

use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use ragged_chacha::{
    AnyCipher, Backend, ChaCha, ChaCha8, ChaCha12, ChaCha20, ChaCha20Legacy, CipherKind, Error,
    XChaCha12, XChaCha20,
};

/// The longest single call: several batches of the widest backend and their tail.
pub const MAX_LEN: usize = 1200;
/// The most calls one sequence makes.
pub const MAX_OPS: usize = 32;

/// How the subject is started.
#[derive(Clone, Copy, Debug)]
pub enum Start {
    /// `new`: block 0.
    New,
    /// `with_counter` (or, where the API has no such constructor, a seek to the
    /// block's first byte).
    Block(u64),
}

/// Which form of an apply call is used.
#[derive(Clone, Copy, Debug)]
pub enum Form {
    /// `apply_keystream` (panics past the end; used only where it must succeed).
    InPlace,
    /// `try_apply_keystream`.
    TryInPlace,
    /// `apply_keystream_b2b` (panics past the end; used only where it must succeed).
    B2b,
    /// `try_apply_keystream_b2b`.
    TryB2b,
    /// `try_apply_keystream_b2b` with an output one byte longer: refused.
    Mismatch,
}

/// How long an apply call is.
#[derive(Clone, Copy, Debug)]
pub enum Len {
    /// To the next block edge (0 when already on one), then `blocks` whole blocks,
    /// then `delta` bytes (clamped at 0).
    ToEdge { blocks: u8, delta: i8 },
    /// Exactly this many bytes.
    Exact(u16),
    /// Everything that is left, plus `over` bytes (so `over > 0` is refused).
    ToEnd { over: u8 },
}

/// Where a seek goes.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The first byte of the block `blocks` after (or before) the current one, plus
    /// `delta` bytes (clamped at 0).
    Edge { blocks: i8, delta: i8 },
    /// `back` bytes before the end of the keystream (after it when negative).
    FromEnd(i16),
    /// An absolute byte position.
    Absolute(u16),
}

/// One call on the cipher.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// An apply call of the given form and length.
    Apply(Form, Len),
    /// `try_seek` (or `seek` when `panicking` and the target is in range).
    Seek { target: Target, panicking: bool },
    /// Replace the cipher by a clone of itself (the clone must carry the state).
    Clone,
}

/// A whole sequence: the cipher, its key material, how it starts, the calls.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub kind: CipherKind,
    pub key: [u8; 32],
    pub nonce: Vec<u8>,
    pub start: Start,
    pub data_seed: u64,
    pub ops: Vec<Op>,
}

/// Reads bytes, as zeros once they run out (so every input decodes).
struct Bytes<'a>(core::slice::Iter<'a, u8>);

impl Bytes<'_> {
    fn u8(&mut self) -> u8 {
        self.0.next().copied().unwrap_or(0)
    }
    fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    fn is_empty(&self) -> bool {
        self.0.len() == 0
    }
}

impl Sequence {
    /// The sequence `data` describes. Any byte string decodes to some sequence.
    ///
    /// The layout spends the bytes on the calls, so a fuzzer's short early inputs are
    /// already sequences of several calls: one byte for the cipher and its start (and
    /// one more for some starts), then each call as a tag byte and one or two
    /// parameter bytes. Key, nonce and message contents do not steer the state
    /// machine, so they come from a hash of the whole input.
    pub fn decode(data: &[u8]) -> Sequence {
        let hash = fnv1a(data);
        let mut b = Bytes(data.iter());
        let head = b.u8();
        let kind = CipherKind::ALL[usize::from(head & 7) % CipherKind::ALL.len()];
        let mut key = [0u8; 32];
        fill(hash, &mut key);
        let mut nonce = vec![0u8; kind.nonce_len()];
        fill(hash ^ 0x006e_6f6e_6365, &mut nonce);
        let end_block = blocks(kind);
        let start = match (head >> 3) % 6 {
            0 | 1 => Start::New,
            2 => Start::Block(u64::from(b.u8() % 8)),
            // The last few blocks of the counter (the very end itself included).
            3 => Start::Block(clamp_block(end_block - u128::from(b.u8() % 4))),
            // Just below the carry from word 12 into word 13 (the 64-bit counters).
            4 => Start::Block((1 << 32) - u64::from(b.u8() % 4)),
            _ => Start::Block(u64::from(b.u16())),
        };
        let data_seed = hash.rotate_left(17);
        let mut ops = Vec::new();
        while !b.is_empty() && ops.len() < MAX_OPS {
            let tag = b.u8();
            let form = match tag >> 4 & 7 {
                0 | 1 => Form::TryInPlace,
                2 => Form::InPlace,
                3 | 4 => Form::TryB2b,
                5 => Form::B2b,
                6 => Form::Mismatch,
                _ => Form::TryInPlace,
            };
            let panicking = tag & 0x80 != 0;
            let op = match tag % 10 {
                0..=2 => {
                    let p = b.u8();
                    Op::Apply(
                        form,
                        Len::ToEdge {
                            blocks: p & 3,
                            delta: small_delta(p >> 2),
                        },
                    )
                }
                3 => Op::Apply(form, Len::Exact(b.u16() % (MAX_LEN as u16 + 1))),
                4 => Op::Apply(form, Len::ToEnd { over: b.u8() % 3 }),
                5 | 6 => {
                    let p = b.u8();
                    Op::Seek {
                        target: Target::Edge {
                            // The current block half the time, else -2 ..= 2.
                            blocks: if p & 1 == 0 {
                                0
                            } else {
                                ((p >> 1) & 3) as i8 - 2
                            },
                            delta: small_delta(p >> 3),
                        },
                        panicking,
                    }
                }
                7 => Op::Seek {
                    target: Target::FromEnd(i16::from(b.u8()) - 8),
                    panicking,
                },
                8 => Op::Seek {
                    target: Target::Absolute(b.u16() % 4096),
                    panicking,
                },
                _ => Op::Clone,
            };
            ops.push(op);
        }
        Sequence {
            kind,
            key,
            nonce,
            start,
            data_seed,
            ops,
        }
    }
}

/// A small signed offset, -4 ..= 4, from a byte: 0 (exactly on the edge) half the time.
fn small_delta(p: u8) -> i8 {
    if p & 1 == 0 {
        0
    } else {
        (p >> 1) as i8 % 9 - 4
    }
}

/// FNV-1a over `data`: a seed that differs between inputs at no cost in input bytes.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Blocks of keystream a cipher of `kind` has.
pub fn blocks(kind: CipherKind) -> u128 {
    if kind.wide_counter() {
        1 << 64
    } else {
        1 << 32
    }
}

/// A block index as a start counter: the end itself (2^64) does not fit in u64, so the
/// 64-bit ciphers start one block before it instead.
fn clamp_block(block: u128) -> u64 {
    u64::try_from(block).unwrap_or(u64::MAX)
}

/// xorshift bytes from `seed`: keys, nonces and message contents.
pub fn fill(seed: u64, buf: &mut [u8]) {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for byte in buf {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        *byte = (s >> 24) as u8;
    }
}

/// A refusal as the subject reports it: ragged's own error, or only the fact of a
/// refusal where the API's error type says no more (RustCrypto's traits).
#[derive(Debug, PartialEq)]
pub struct Refused(pub Option<Error>);

impl From<Error> for Refused {
    fn from(e: Error) -> Self {
        Refused(Some(e))
    }
}

/// A stream cipher under test: one of ragged's APIs over one cipher.
pub trait Subject {
    fn apply(&mut self, buf: &mut [u8]);
    fn try_apply(&mut self, buf: &mut [u8]) -> Result<(), Refused>;
    fn apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused>;
    fn try_apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused>;
    fn seek(&mut self, pos: u128);
    fn try_seek(&mut self, pos: u128) -> Result<(), Refused>;
    fn current_pos(&self) -> u128;
    fn remaining(&self) -> u128;
    fn boxed_clone(&self) -> Box<dyn Subject>;
}

impl Subject for AnyCipher {
    // The by-name API has only the `try_` forms.
    fn apply(&mut self, buf: &mut [u8]) {
        self.try_apply_keystream(buf).unwrap();
    }
    fn try_apply(&mut self, buf: &mut [u8]) -> Result<(), Refused> {
        Ok(self.try_apply_keystream(buf)?)
    }
    fn apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        Ok(self.try_apply_keystream_b2b(input, output)?)
    }
    fn try_apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        Ok(self.try_apply_keystream_b2b(input, output)?)
    }
    fn seek(&mut self, pos: u128) {
        self.try_seek(pos).unwrap();
    }
    fn try_seek(&mut self, pos: u128) -> Result<(), Refused> {
        Ok(AnyCipher::try_seek(self, pos)?)
    }
    fn current_pos(&self) -> u128 {
        AnyCipher::current_pos(self)
    }
    fn remaining(&self) -> u128 {
        AnyCipher::remaining(self)
    }
    fn boxed_clone(&self) -> Box<dyn Subject> {
        Box::new(self.clone())
    }
}

impl<V: ragged_chacha::variant::Variant + 'static> Subject for ChaCha<V> {
    fn apply(&mut self, buf: &mut [u8]) {
        self.apply_keystream(buf);
    }
    fn try_apply(&mut self, buf: &mut [u8]) -> Result<(), Refused> {
        Ok(self.try_apply_keystream(buf)?)
    }
    fn apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        Ok(self.apply_keystream_b2b(input, output)?)
    }
    fn try_apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        Ok(self.try_apply_keystream_b2b(input, output)?)
    }
    fn seek(&mut self, pos: u128) {
        ChaCha::seek(self, pos);
    }
    fn try_seek(&mut self, pos: u128) -> Result<(), Refused> {
        Ok(ChaCha::try_seek(self, pos)?)
    }
    fn current_pos(&self) -> u128 {
        ChaCha::current_pos(self)
    }
    fn remaining(&self) -> u128 {
        ChaCha::remaining(self)
    }
    fn boxed_clone(&self) -> Box<dyn Subject> {
        Box::new(self.clone())
    }
}

/// A ragged cipher driven only through RustCrypto's `cipher` traits, called by path
/// (on the concrete type the inherent methods of the same names would win).
#[cfg(feature = "rustcrypto-traits")]
pub struct ViaTraits<V: ragged_chacha::variant::Variant>(pub ChaCha<V>);

#[cfg(feature = "rustcrypto-traits")]
impl<V: ragged_chacha::variant::Variant + 'static> Subject for ViaTraits<V> {
    fn apply(&mut self, buf: &mut [u8]) {
        ragged_chacha::rustcrypto::cipher::StreamCipher::apply_keystream(&mut self.0, buf);
    }
    fn try_apply(&mut self, buf: &mut [u8]) -> Result<(), Refused> {
        ragged_chacha::rustcrypto::cipher::StreamCipher::try_apply_keystream(&mut self.0, buf)
            .map_err(|_| Refused(None))
    }
    fn apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        ragged_chacha::rustcrypto::cipher::StreamCipher::apply_keystream_b2b(
            &mut self.0,
            input,
            output,
        );
        Ok(())
    }
    fn try_apply_b2b(&mut self, input: &[u8], output: &mut [u8]) -> Result<(), Refused> {
        ragged_chacha::rustcrypto::cipher::StreamCipher::try_apply_keystream_b2b(
            &mut self.0,
            input,
            output,
        )
        .map_err(|_| Refused(None))
    }
    fn seek(&mut self, pos: u128) {
        ragged_chacha::rustcrypto::cipher::StreamCipherSeek::seek(&mut self.0, pos);
    }
    fn try_seek(&mut self, pos: u128) -> Result<(), Refused> {
        ragged_chacha::rustcrypto::cipher::StreamCipherSeek::try_seek(&mut self.0, pos)
            .map_err(|_| Refused(None))
    }
    fn current_pos(&self) -> u128 {
        ragged_chacha::rustcrypto::cipher::StreamCipherSeek::current_pos(&self.0)
    }
    fn remaining(&self) -> u128 {
        self.0.remaining()
    }
    fn boxed_clone(&self) -> Box<dyn Subject> {
        Box::new(ViaTraits(self.0.clone()))
    }
}

/// The typed cipher for `seq` on `backend`, driven through RustCrypto's traits.
#[cfg(feature = "rustcrypto-traits")]
pub fn trait_cipher(seq: &Sequence, backend: Backend) -> Box<dyn Subject> {
    typed(seq, backend, true)
}

/// The by-name cipher for `seq` on `backend`, started as `seq.start` says.
pub fn any_cipher(seq: &Sequence, backend: Backend) -> Box<dyn Subject> {
    let block = match seq.start {
        Start::New => 0,
        Start::Block(b) => b,
    };
    let c = AnyCipher::new(seq.kind, &seq.key, &seq.nonce, block)
        .and_then(|c| c.with_backend(backend))
        .expect("start blocks are within every counter");
    Box::new(c)
}

/// The typed cipher for `seq` on `backend` (`new`, or `with_counter` where the block
/// fits the variant's counter type, else `new` and a seek).
pub fn typed_cipher(seq: &Sequence, backend: Backend) -> Box<dyn Subject> {
    typed(seq, backend, false)
}

fn typed(seq: &Sequence, backend: Backend, via_traits: bool) -> Box<dyn Subject> {
    macro_rules! make {
        ($t:ty) => {{
            let nonce = seq.nonce.as_slice().try_into().unwrap();
            let c = match seq.start {
                Start::New => <$t>::new(&seq.key, nonce),
                Start::Block(b) => match b.try_into() {
                    Ok(counter) => <$t>::with_counter(&seq.key, nonce, counter),
                    Err(_) => {
                        let mut c = <$t>::new(&seq.key, nonce);
                        ChaCha::seek(&mut c, u128::from(b) * 64);
                        c
                    }
                },
            };
            let c = c.with_backend(backend).unwrap();
            #[cfg(feature = "rustcrypto-traits")]
            if via_traits {
                return Box::new(ViaTraits(c));
            }
            assert!(!via_traits, "built without the rustcrypto-traits feature");
            Box::new(c)
        }};
    }
    match seq.kind {
        CipherKind::ChaCha20 => make!(ChaCha20),
        CipherKind::ChaCha12 => make!(ChaCha12),
        CipherKind::ChaCha8 => make!(ChaCha8),
        CipherKind::ChaCha20Legacy => make!(ChaCha20Legacy),
        CipherKind::XChaCha20 => make!(XChaCha20),
        CipherKind::XChaCha12 => make!(XChaCha12),
        other => panic!("no typed cipher for {other:?}"),
    }
}

/// Every API over the cipher of `seq` on `backend`, named: the by-name, the typed, and
/// (with the feature) the typed one through RustCrypto's traits.
pub fn subjects(seq: &Sequence, backend: Backend) -> Vec<(&'static str, Box<dyn Subject>)> {
    #[cfg_attr(not(feature = "rustcrypto-traits"), allow(unused_mut))]
    let mut all = vec![
        ("by-name", any_cipher(seq, backend)),
        ("typed", typed_cipher(seq, backend)),
    ];
    #[cfg(feature = "rustcrypto-traits")]
    all.push(("cipher traits", trait_cipher(seq, backend)));
    all
}

/// Runs `seq` through every API on every backend the CPU has; the first difference,
/// naming the API and backend.
pub fn run_everywhere(seq: &Sequence) -> Result<(), String> {
    for backend in Backend::available() {
        for (api, subject) in subjects(seq, backend) {
            run(seq, subject).map_err(|e| format!("{api} {:?} on {backend:?}: {e}", seq.kind))?;
        }
    }
    Ok(())
}

/// RustCrypto's cipher, seekable by u128 and fallible, as one object-safe type.
trait Shadow {
    fn seek_to(&mut self, pos: u128) -> bool;
    fn apply(&mut self, buf: &mut [u8]) -> bool;
}

impl<C: StreamCipher + StreamCipherSeek> Shadow for C {
    fn seek_to(&mut self, pos: u128) -> bool {
        self.try_seek(pos).is_ok()
    }
    fn apply(&mut self, buf: &mut [u8]) -> bool {
        self.try_apply_keystream(buf).is_ok()
    }
}

fn shadow(seq: &Sequence) -> Option<Box<dyn Shadow>> {
    let (key, nonce) = (&seq.key.into(), seq.nonce.as_slice());
    Some(match seq.kind {
        CipherKind::ChaCha20 => Box::new(chacha20::ChaCha20::new(key, nonce.try_into().ok()?)),
        CipherKind::ChaCha12 => Box::new(chacha20::ChaCha12::new(key, nonce.try_into().ok()?)),
        CipherKind::ChaCha8 => Box::new(chacha20::ChaCha8::new(key, nonce.try_into().ok()?)),
        CipherKind::ChaCha20Legacy => {
            Box::new(chacha20::ChaCha20Legacy::new(key, nonce.try_into().ok()?))
        }
        CipherKind::XChaCha20 => Box::new(chacha20::XChaCha20::new(key, nonce.try_into().ok()?)),
        CipherKind::XChaCha12 => Box::new(chacha20::XChaCha12::new(key, nonce.try_into().ok()?)),
        _ => return None,
    })
}

/// The highest byte position RustCrypto is asked about: one block short of the 32-bit
/// counter's end (its ciphers stop there; ragged's go on, and the fresh cipher checks
/// those bytes).
const SHADOW_END: u128 = ((1 << 32) - 1) * 64;

/// `len` bytes of keystream from byte `pos`: a fresh cipher on the portable backend,
/// started at block `pos / 64` and applied once.
pub fn fresh_keystream(seq: &Sequence, pos: u128, len: usize) -> Vec<u8> {
    if len == 0 {
        return Vec::new();
    }
    let skip = (pos % 64) as usize;
    let block = u64::try_from(pos / 64).expect("a byte before the end has a u64 block");
    let mut c = AnyCipher::new(seq.kind, &seq.key, &seq.nonce, block)
        .and_then(|c| c.with_backend(Backend::Portable))
        .unwrap();
    let mut ks = vec![0u8; skip + len];
    c.try_apply_keystream(&mut ks).unwrap();
    ks.split_off(skip)
}

/// Runs `seq` on `subject`, checking every call; the first difference from the model
/// is returned as a message naming the call.
pub fn run(seq: &Sequence, mut subject: Box<dyn Subject>) -> Result<(), String> {
    let end = blocks(seq.kind) * 64;
    let mut pos = match seq.start {
        Start::New => 0,
        Start::Block(b) => u128::from(b) * 64,
    };
    // RustCrypto follows only while its state is known to be the same as ragged's.
    let mut shadow = shadow(seq).filter(|_| pos < SHADOW_END);
    if let Some(s) = shadow.as_mut()
        && !s.seek_to(pos)
    {
        return Err(format!("RustCrypto refused the start {pos}"));
    }
    let mut data_seed = seq.data_seed;
    let check_pos = |subject: &dyn Subject, pos: u128, step: usize, op: &Op| {
        if subject.current_pos() != pos || subject.remaining() != end - pos {
            return Err(format!(
                "call {step} ({op:?}): position {} remaining {}, expected {pos} and {}",
                subject.current_pos(),
                subject.remaining(),
                end - pos
            ));
        }
        Ok(())
    };
    check_pos(&*subject, pos, 0, &Op::Clone)?;
    for (step, op) in seq.ops.iter().enumerate() {
        match *op {
            Op::Clone => subject = subject.boxed_clone(),
            Op::Seek { target, panicking } => {
                let to = resolve_target(target, pos, end);
                let ok = to <= end;
                if panicking && ok {
                    subject.seek(to);
                } else {
                    let got = subject.try_seek(to);
                    let expected = if ok {
                        Ok(())
                    } else {
                        Err(Refused(Some(Error::SeekOutOfRange { position: to, end })))
                    };
                    same_refusal(&got, &expected)
                        .map_err(|e| format!("call {step} ({op:?}) at {pos} to {to}: {e}"))?;
                }
                if ok {
                    pos = to;
                    if let Some(s) = shadow.as_mut()
                        && (pos >= SHADOW_END || !s.seek_to(pos))
                    {
                        shadow = None;
                    }
                }
            }
            Op::Apply(form, len) => {
                let len = resolve_len(len, pos, end);
                data_seed = data_seed.wrapping_add(1);
                let mut input = vec![0u8; len];
                fill(data_seed, &mut input);
                let fits = len as u128 <= end - pos;
                let result = apply(&mut *subject, form, fits, &input);
                let (got, refusal) = match result {
                    Ok(out) => (out, Ok(())),
                    Err((out, refusal)) => (out, Err(refusal)),
                };
                let expected_refusal = match form {
                    Form::Mismatch => Err(Refused(Some(Error::LengthMismatch {
                        input: len,
                        output: len + 1,
                    }))),
                    _ if !fits => Err(Refused(Some(Error::KeystreamExhausted {
                        requested: len as u128,
                        remaining: end - pos,
                    }))),
                    _ => Ok(()),
                };
                same_refusal(&refusal, &expected_refusal)
                    .map_err(|e| format!("call {step} ({op:?}) of {len} bytes at {pos}: {e}"))?;
                if expected_refusal.is_err() {
                    if got != untouched(form, &input) {
                        return Err(format!(
                            "call {step} ({op:?}) of {len} bytes at {pos}: refused, but the output was written"
                        ));
                    }
                } else {
                    let ks = fresh_keystream(seq, pos, len);
                    let expected: Vec<u8> = input.iter().zip(&ks).map(|(a, b)| a ^ b).collect();
                    if got != expected {
                        let first = got.iter().zip(&expected).position(|(a, b)| a != b);
                        return Err(format!(
                            "call {step} ({op:?}) of {len} bytes at {pos}: wrong bytes, first at {first:?}"
                        ));
                    }
                    if let Some(s) = shadow.as_mut() {
                        let mut theirs = input.clone();
                        if pos + len as u128 > SHADOW_END || !s.apply(&mut theirs) {
                            shadow = None;
                        } else if theirs != expected {
                            return Err(format!(
                                "call {step} ({op:?}) of {len} bytes at {pos}: RustCrypto disagrees"
                            ));
                        }
                    }
                    pos += len as u128;
                }
            }
        }
        check_pos(&*subject, pos, step, op)?;
    }
    Ok(())
}

/// The output of a refused call: the input in place, the filler out of place.
fn untouched(form: Form, input: &[u8]) -> Vec<u8> {
    match form {
        Form::InPlace | Form::TryInPlace => input.to_vec(),
        Form::B2b | Form::TryB2b => vec![OUTPUT_FILLER; input.len()],
        Form::Mismatch => vec![OUTPUT_FILLER; input.len() + 1],
    }
}

/// What an out-of-place output holds before the call.
const OUTPUT_FILLER: u8 = 0xA5;

/// Makes the call; returns the output buffer, with the refusal if there was one. A
/// panicking form is used only where the call fits (else its `try_` twin).
fn apply(
    subject: &mut dyn Subject,
    form: Form,
    fits: bool,
    input: &[u8],
) -> Result<Vec<u8>, (Vec<u8>, Refused)> {
    let mut buf;
    let result = match form {
        Form::InPlace if fits => {
            buf = input.to_vec();
            subject.apply(&mut buf);
            Ok(())
        }
        Form::InPlace | Form::TryInPlace => {
            buf = input.to_vec();
            subject.try_apply(&mut buf)
        }
        Form::B2b if fits => {
            buf = vec![OUTPUT_FILLER; input.len()];
            subject.apply_b2b(input, &mut buf)
        }
        Form::B2b | Form::TryB2b => {
            buf = vec![OUTPUT_FILLER; input.len()];
            subject.try_apply_b2b(input, &mut buf)
        }
        Form::Mismatch => {
            buf = vec![OUTPUT_FILLER; input.len() + 1];
            subject.try_apply_b2b(input, &mut buf)
        }
    };
    match result {
        Ok(()) => Ok(buf),
        Err(r) => Err((buf, r)),
    }
}

/// Whether a refusal matches the expected one (only its presence, when the subject's
/// API carries no details).
fn same_refusal(got: &Result<(), Refused>, expected: &Result<(), Refused>) -> Result<(), String> {
    match (got, expected) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(Refused(None)), Err(_)) => Ok(()),
        (Err(g), Err(e)) if g == e => Ok(()),
        _ => Err(format!("got {got:?}, expected {expected:?}")),
    }
}

fn resolve_len(len: Len, pos: u128, end: u128) -> usize {
    let to_edge = (64 - pos % 64) % 64;
    let n = match len {
        Len::ToEdge { blocks, delta } => {
            (to_edge as i128 + 64 * i128::from(blocks) + i128::from(delta)).max(0) as u128
        }
        Len::Exact(n) => u128::from(n),
        Len::ToEnd { over } => (end - pos) + u128::from(over),
    };
    // Bounded by MAX_LEN except to reach just past the end of the keystream.
    n.min(MAX_LEN as u128 + 64) as usize
}

fn resolve_target(target: Target, pos: u128, end: u128) -> u128 {
    match target {
        Target::Edge { blocks, delta } => {
            let edge = (pos / 64) as i128 + i128::from(blocks);
            (edge * 64 + i128::from(delta)).max(0) as u128
        }
        Target::FromEnd(back) => (end as i128 - i128::from(back)) as u128,
        Target::Absolute(p) => u128::from(p),
    }
}
