//! Every ChaCha backend this CPU has, run in lockstep through a random sequence of
//! in-place and out-of-place calls and seeks from a start counter biased toward the
//! 32-bit and 64-bit ends, against RustCrypto's `chacha20` (and, for the blocks it
//! cannot reach, a block function written from the RFC): identical bytes, identical
//! positions, and refusals exactly where the counter arithmetic says — with nothing
//! written when a call is refused.
#![no_main]

use arbitrary::Arbitrary;
use chacha20::cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
use libfuzzer_sys::fuzz_target;
use ragged_chacha::{AnyCipher, Backend, CipherKind, Error};
use ragged_fuzz::{Guarded, chacha_block, fill_pseudo_random, le_word};

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Kind {
    ChaCha20,
    ChaCha12,
    ChaCha8,
    ChaCha20Legacy,
    XChaCha20,
    XChaCha12,
}

/// The starting block counter, mostly near an edge: the end of a 32-bit counter (and,
/// for the 64-bit ones, the carry from word 12 into word 13), the end of a 64-bit one.
#[derive(Arbitrary, Debug)]
enum Start {
    Low(u16),
    /// `2^32 + 2 - (n % 24)`.
    Edge32(u8),
    /// `u64::MAX - (n % 24)`.
    Edge64(u8),
    Any(u64),
}

#[derive(Arbitrary, Debug)]
enum Op {
    /// `try_apply_keystream` on `len` bytes at `shift` inside a guarded buffer.
    InPlace { len: u16, shift: u8 },
    /// `try_apply_keystream_b2b` from an exactly-sized input to a guarded output.
    OutOfPlace { len: u16, shift: u8 },
    /// `try_apply_keystream_b2b` with lengths that differ: refused, nothing written.
    Mismatch { len: u16, longer_by: u8 },
    /// `try_seek` relative to the current position.
    SeekBy(i16),
    /// `try_seek` to `end - back` (beyond the end when `back` is negative).
    SeekFromEnd(i16),
}

#[derive(Arbitrary, Debug)]
struct Input {
    kind: Kind,
    key: [u8; 32],
    nonce: [u8; 24],
    start: Start,
    start_byte: u8,
    data_seed: u64,
    ops: Vec<Op>,
}

/// Per-call and per-input byte budgets: enough for several batches of the widest
/// backend and its tail, small enough to keep thousands of inputs a second.
const MAX_LEN: usize = 4200;
const MAX_TOTAL: usize = 16 * 1024;
const MAX_OPS: usize = 12;

impl Kind {
    fn cipher_kind(self) -> CipherKind {
        match self {
            Kind::ChaCha20 => CipherKind::ChaCha20,
            Kind::ChaCha12 => CipherKind::ChaCha12,
            Kind::ChaCha8 => CipherKind::ChaCha8,
            Kind::ChaCha20Legacy => CipherKind::ChaCha20Legacy,
            Kind::XChaCha20 => CipherKind::XChaCha20,
            Kind::XChaCha12 => CipherKind::XChaCha12,
        }
    }

    fn rounds(self) -> u32 {
        match self {
            Kind::ChaCha12 | Kind::XChaCha12 => 12,
            Kind::ChaCha8 => 8,
            _ => 20,
        }
    }

    /// How many blocks ragged's counter addresses: blocks `0 .. blocks()` are usable.
    fn blocks(self) -> u128 {
        if self.cipher_kind().wide_counter() {
            1 << 64
        } else {
            1 << 32
        }
    }
}

/// RustCrypto's cipher for the same keystream. Its counter is one block shorter than
/// ragged's (it never produces the block whose successor would wrap), and its XChaCha
/// has a 32-bit counter, so XChaCha20 past the first 2^31 blocks is checked as
/// RustCrypto's 64-bit-counter ChaCha20Legacy under RustCrypto's HChaCha20 subkey —
/// the construction ragged's XChaCha uses.
enum Reference {
    ChaCha20(chacha20::ChaCha20),
    ChaCha12(chacha20::ChaCha12),
    ChaCha8(chacha20::ChaCha8),
    Legacy(chacha20::ChaCha20Legacy),
    XChaCha20(chacha20::XChaCha20),
    XChaCha12(chacha20::XChaCha12),
}

macro_rules! each_reference {
    ($r:expr, $c:ident => $e:expr) => {
        match $r {
            Reference::ChaCha20($c) => $e,
            Reference::ChaCha12($c) => $e,
            Reference::ChaCha8($c) => $e,
            Reference::Legacy($c) => $e,
            Reference::XChaCha20($c) => $e,
            Reference::XChaCha12($c) => $e,
        }
    };
}

impl Reference {
    fn new(kind: Kind, key: &[u8; 32], nonce: &[u8; 24], start_counter: u64) -> Self {
        let k = key.into();
        match kind {
            Kind::ChaCha20 => Reference::ChaCha20(chacha20::ChaCha20::new(
                k,
                <&[u8; 12]>::try_from(&nonce[..12]).unwrap().into(),
            )),
            Kind::ChaCha12 => Reference::ChaCha12(chacha20::ChaCha12::new(
                k,
                <&[u8; 12]>::try_from(&nonce[..12]).unwrap().into(),
            )),
            Kind::ChaCha8 => Reference::ChaCha8(chacha20::ChaCha8::new(
                k,
                <&[u8; 12]>::try_from(&nonce[..12]).unwrap().into(),
            )),
            Kind::ChaCha20Legacy => Reference::Legacy(chacha20::ChaCha20Legacy::new(
                k,
                <&[u8; 8]>::try_from(&nonce[..8]).unwrap().into(),
            )),
            Kind::XChaCha20 if start_counter >= 1 << 31 => {
                let prefix: [u8; 16] = nonce[..16].try_into().unwrap();
                let subkey = chacha20::hchacha::<chacha20::R20>(k, &prefix.into());
                Reference::Legacy(chacha20::ChaCha20Legacy::new(
                    &subkey,
                    <&[u8; 8]>::try_from(&nonce[16..]).unwrap().into(),
                ))
            }
            Kind::XChaCha20 => Reference::XChaCha20(chacha20::XChaCha20::new(k, nonce.into())),
            Kind::XChaCha12 => Reference::XChaCha12(chacha20::XChaCha12::new(k, nonce.into())),
        }
    }

    /// The largest block counter value RustCrypto's counter holds; it produces blocks
    /// `0 .. max_counter()` only.
    fn max_counter(&self) -> u128 {
        match self {
            Reference::Legacy(_) => u64::MAX.into(),
            _ => u32::MAX.into(),
        }
    }

    /// Seeks to `pos`, checking RustCrypto's own rule for when a seek is possible.
    fn seek(&mut self, pos: u128) -> bool {
        let (block, byte) = (pos / 64, pos % 64);
        let allowed = block < self.max_counter() || (block == self.max_counter() && byte == 0);
        let done = each_reference!(self, c => c.try_seek(pos).is_ok());
        assert_eq!(done, allowed, "RustCrypto seek to {pos}");
        done
    }

    /// XORs keystream into `buf` from the current position if RustCrypto can produce
    /// all of it; checks that its refusal follows its counter rule.
    fn apply(&mut self, pos: u128, buf: &mut [u8]) -> bool {
        let allowed = pos + buf.len() as u128 <= self.max_counter() * 64;
        let before = buf.to_vec();
        let done = each_reference!(self, c => c.try_apply_keystream(buf).is_ok());
        assert_eq!(done, allowed, "RustCrypto at {pos} for {} bytes", buf.len());
        if !done {
            assert_eq!(buf, &before[..], "RustCrypto wrote while refusing");
        }
        done
    }
}

/// The expected output of XORing keystream from byte `pos` into `data`.
struct Model {
    kind: Kind,
    key: [u8; 32],
    nonce: [u8; 24],
    reference: Reference,
    /// RustCrypto's position, when it has one that matches a past request.
    reference_pos: Option<u128>,
}

impl Model {
    /// State words 12..16 of block `block`, in the variant's layout.
    fn tail(&self, block: u128) -> [u32; 4] {
        let n = &self.nonce;
        match self.kind {
            Kind::ChaCha20 | Kind::ChaCha12 | Kind::ChaCha8 => {
                [block as u32, le_word(n, 0), le_word(n, 1), le_word(n, 2)]
            }
            Kind::ChaCha20Legacy => [
                block as u32,
                (block >> 32) as u32,
                le_word(n, 0),
                le_word(n, 1),
            ],
            Kind::XChaCha20 | Kind::XChaCha12 => [
                block as u32,
                (block >> 32) as u32,
                le_word(n, 4),
                le_word(n, 5),
            ],
        }
    }

    /// The key the block function runs under: the HChaCha subkey for XChaCha,
    /// computed by RustCrypto.
    fn block_key(&self) -> [u8; 32] {
        let prefix: [u8; 16] = self.nonce[..16].try_into().unwrap();
        match self.kind {
            Kind::XChaCha20 => {
                chacha20::hchacha::<chacha20::R20>(&self.key.into(), &prefix.into()).into()
            }
            Kind::XChaCha12 => {
                chacha20::hchacha::<chacha20::R12>(&self.key.into(), &prefix.into()).into()
            }
            _ => self.key,
        }
    }

    /// `data` XOR keystream from byte `pos`; the caller has checked the request lies
    /// within ragged's keystream.
    fn expected(&mut self, pos: u128, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        if self.reference_pos != Some(pos) {
            self.reference_pos = self.reference.seek(pos).then_some(pos);
        }
        if self.reference_pos.is_some() && self.reference.apply(pos, &mut out) {
            self.reference_pos = Some(pos + data.len() as u128);
            return out;
        }
        // RustCrypto cannot produce these bytes (they touch its counter's last value,
        // or lie beyond its XChaCha12's 32-bit counter): use the RFC block function.
        let key = self.block_key();
        let mut at = pos;
        let mut done = 0;
        while done < out.len() {
            let block = chacha_block(&key, self.tail(at / 64), self.kind.rounds());
            let offset = (at % 64) as usize;
            let take = (64 - offset).min(out.len() - done);
            for i in 0..take {
                out[done + i] ^= block[offset + i];
            }
            done += take;
            at += take as u128;
        }
        out
    }
}

fn start_counter(start: &Start) -> u64 {
    match *start {
        Start::Low(n) => n.into(),
        Start::Edge32(n) => (1u64 << 32) + 2 - u64::from(n % 24),
        Start::Edge64(n) => u64::MAX - u64::from(n % 24),
        Start::Any(n) => n,
    }
}

fuzz_target!(|input: Input| {
    let kind = input.kind.cipher_kind();
    let nonce = &input.nonce[..kind.nonce_len()];
    let end = input.kind.blocks() * 64;
    let counter = start_counter(&input.start);

    // Construction at a block counter: refused exactly when the counter lies past the
    // end (the end itself, an empty keystream, is allowed).
    let made = AnyCipher::new(kind, &input.key, nonce, counter);
    let start_pos = u128::from(counter) * 64;
    if start_pos > end {
        assert_eq!(
            made.unwrap_err(),
            Error::SeekOutOfRange {
                position: start_pos,
                end
            }
        );
        return;
    }
    let base = made.expect("counter within range");
    let mut ciphers: Vec<AnyCipher> = Backend::available()
        .map(|b| base.clone().with_backend(b).unwrap())
        .collect();
    let mut model = Model {
        kind: input.kind,
        key: input.key,
        nonce: input.nonce,
        reference: Reference::new(input.kind, &input.key, &input.nonce, counter),
        reference_pos: None,
    };

    let mut pos = start_pos;
    // A mid-block start, so the first call begins inside a block.
    let first = start_pos + u128::from(input.start_byte % 64);
    seek_all(&mut ciphers, &mut pos, first, end);

    let mut budget = MAX_TOTAL;
    for (n, op) in input.ops.iter().take(MAX_OPS).enumerate() {
        let seed = input.data_seed ^ n as u64;
        match *op {
            Op::InPlace { len, shift } => {
                let len = (usize::from(len) % (MAX_LEN + 1)).min(budget);
                budget -= len;
                let mut data = vec![0; len];
                fill_pseudo_random(seed, &mut data);
                let allowed = pos + len as u128 <= end;
                let expected = allowed.then(|| model.expected(pos, &data));
                for c in &mut ciphers {
                    let mut buf = Guarded::new(&data, shift.into(), 0xA5);
                    let result = c.try_apply_keystream(buf.region_mut());
                    buf.assert_guards(&(c.backend(), op));
                    check_call(c, result, pos, len, end, &data, buf.region(), &expected);
                }
                if allowed {
                    pos += len as u128;
                }
            }
            Op::OutOfPlace { len, shift } => {
                let len = (usize::from(len) % (MAX_LEN + 1)).min(budget);
                budget -= len;
                // An exactly-sized input allocation: a read past it is a sanitizer error.
                let mut data = vec![0; len].into_boxed_slice();
                fill_pseudo_random(seed, &mut data);
                let allowed = pos + len as u128 <= end;
                let expected = allowed.then(|| model.expected(pos, &data));
                let poison: Vec<u8> = data.iter().map(|b| !b).collect();
                for c in &mut ciphers {
                    let mut out = Guarded::new(&poison, shift.into(), 0x3C);
                    let result = c.try_apply_keystream_b2b(&data, out.region_mut());
                    out.assert_guards(&(c.backend(), op));
                    check_call(c, result, pos, len, end, &poison, out.region(), &expected);
                }
                if allowed {
                    pos += len as u128;
                }
            }
            Op::Mismatch { len, longer_by } => {
                let len = usize::from(len) % (MAX_LEN + 1);
                let other = len + usize::from(longer_by % 64) + 1;
                // The output longer than the input, or (high bit set) the other way.
                let (il, ol) = if longer_by & 0x80 == 0 {
                    (len, other)
                } else {
                    (other, len)
                };
                let data = vec![0x11; il];
                for c in &mut ciphers {
                    let mut out = vec![0x22; ol];
                    let result = c.try_apply_keystream_b2b(&data, &mut out);
                    assert_eq!(
                        result,
                        Err(Error::LengthMismatch {
                            input: il,
                            output: ol
                        })
                    );
                    assert!(
                        out.iter().all(|&b| b == 0x22),
                        "{:?} wrote on a mismatch",
                        c.backend()
                    );
                    assert_eq!(c.current_pos(), pos);
                }
            }
            Op::SeekBy(delta) => {
                let target = if delta < 0 {
                    pos.saturating_sub(u128::from(delta.unsigned_abs()))
                } else {
                    pos + delta as u128
                };
                seek_all(&mut ciphers, &mut pos, target, end);
            }
            Op::SeekFromEnd(back) => {
                let target = if back < 0 {
                    end + u128::from(back.unsigned_abs())
                } else {
                    end - back as u128
                };
                seek_all(&mut ciphers, &mut pos, target, end);
            }
        }
    }
});

/// Seeks every cipher to `target`: refused exactly past `end`, position unchanged then.
fn seek_all(ciphers: &mut [AnyCipher], pos: &mut u128, target: u128, end: u128) {
    for c in ciphers.iter_mut() {
        let result = c.try_seek(target);
        if target > end {
            assert_eq!(
                result,
                Err(Error::SeekOutOfRange {
                    position: target,
                    end
                })
            );
            assert_eq!(c.current_pos(), *pos);
        } else {
            assert_eq!(result, Ok(()));
            assert_eq!(c.current_pos(), target);
        }
        assert_eq!(c.remaining(), end - c.current_pos());
    }
    if target <= end {
        *pos = target;
    }
}

/// Checks one keystream call: accepted exactly when `pos + len` stays within `end`,
/// with the expected bytes and position; refused with the exact error, the output
/// still `before` and the position unchanged, otherwise.
#[allow(clippy::too_many_arguments)]
fn check_call(
    c: &AnyCipher,
    result: Result<(), Error>,
    pos: u128,
    len: usize,
    end: u128,
    before: &[u8],
    output: &[u8],
    expected: &Option<Vec<u8>>,
) {
    let backend = c.backend();
    match expected {
        Some(expected) => {
            assert_eq!(result, Ok(()), "{backend:?} at {pos} for {len} bytes");
            if output != &expected[..] {
                let first = output.iter().zip(expected).position(|(a, b)| a != b);
                panic!("{backend:?} at {pos} for {len} bytes: first wrong byte {first:?}");
            }
            assert_eq!(c.current_pos(), pos + len as u128);
        }
        None => {
            assert_eq!(
                result,
                Err(Error::KeystreamExhausted {
                    requested: len as u128,
                    remaining: end - pos
                }),
                "{backend:?} at {pos} for {len} bytes"
            );
            assert_eq!(output, before, "{backend:?} wrote while refusing");
            assert_eq!(c.current_pos(), pos);
        }
    }
    assert_eq!(c.remaining(), end - c.current_pos());
}
