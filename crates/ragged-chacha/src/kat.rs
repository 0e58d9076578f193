//! Known-answer vectors from the public documents, and a checker that runs them.
//!
//! The data is transcribed from RFC 8439, draft-irtf-cfrg-xchacha-03,
//! draft-strombergson-chacha-test-vectors-01, the Linux kernel's
//! `crypto/testmgr.h` and libsodium's `test/default/xchacha20.c`; every vector
//! names its origin in [`StreamVector::source`] / [`HChaChaVector::source`]. The
//! crate's tests also run every stream vector through an independent implementation,
//! so a transcription slip shows up as a disagreement rather than as a wrong vector.
//!
//! [`check_stream`] runs one vector on one backend in place, out of place, and split
//! across calls at several cut points; [`check_hchacha`] checks one subkey
//! derivation; [`check_all`] runs everything. None of them allocate, so a
//! `no_std` self-test can use them.
//!
//! ```
//! use ragged_chacha::{kat, Backend};
//!
//! for backend in Backend::available() {
//!     let checked = kat::check_all(backend).unwrap();
//!     assert_eq!(checked, kat::STREAM_VECTORS.len() + kat::HCHACHA_VECTORS.len());
//! }
//! ```

use core::fmt;

use crate::{AnyCipher, Backend, CipherKind, Error, hchacha};

/// One stream-cipher known answer: `ciphertext` is `plaintext` XORed with the keystream
/// of `kind` for `key` and `nonce`, starting at block `counter`.
///
/// Keystream vectors (the documents' "block function" tests) have an all-zero
/// plaintext, so the ciphertext is the keystream itself.
///
/// The lifetime lets a test build a corrupted copy from borrowed bytes; the vectors
/// shipped here are all `StreamVector<'static>`.
#[derive(Clone, Copy, Debug)]
pub struct StreamVector<'a> {
    /// Where the vector comes from, precise enough to find it again.
    pub source: &'static str,
    /// The cipher it is for.
    pub kind: CipherKind,
    /// The 256-bit key.
    pub key: [u8; 32],
    /// The nonce, of [`CipherKind::nonce_len`] bytes.
    pub nonce: &'a [u8],
    /// The first keystream block used.
    pub counter: u64,
    /// The input, at most [`MAX_LEN`] bytes.
    pub plaintext: &'a [u8],
    /// The expected output, as long as `plaintext`.
    pub ciphertext: &'a [u8],
}

/// One HChaCha known answer: `output` is HChaCha with `rounds` rounds of `key` and
/// `input`.
#[derive(Clone, Copy, Debug)]
pub struct HChaChaVector {
    /// Where the vector comes from, precise enough to find it again.
    pub source: &'static str,
    /// 20 or 12.
    pub rounds: u32,
    /// The 256-bit key.
    pub key: [u8; 32],
    /// The 128-bit input (the first 16 bytes of an XChaCha nonce).
    pub input: [u8; 16],
    /// The expected 256-bit subkey.
    pub output: [u8; 32],
}

/// The longest message [`check_stream`] takes: the size of its stack buffer.
pub const MAX_LEN: usize = 512;

/// Where [`check_stream`] cuts a message in two (cuts at or past the end are skipped):
/// inside the first block, just before, at and after the first block boundary, and
/// around the second one. The classic streaming bug, a call of exactly 64 bytes that
/// does not advance the counter, shows up at the cut at 64.
pub const SPLIT_POINTS: [usize; 8] = [1, 31, 63, 64, 65, 127, 128, 129];

/// How a check ran when it failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The whole message in one call, in place.
    InPlace,
    /// The whole message in one call, from the plaintext into a separate buffer.
    OutOfPlace,
    /// In place, in two calls: the first `at` bytes, then the rest.
    Split {
        /// Length of the first call.
        at: usize,
    },
    /// In place, one call per piece between consecutive [`SPLIT_POINTS`].
    Pieces,
    /// The HChaCha subkey derivation.
    Subkey,
    /// A MAC or AEAD input fed in pieces: `first` bytes, then the rest in pieces of
    /// `step` bytes (see [`aead::check_poly1305`]).
    Chunked {
        /// Length of the first piece.
        first: usize,
        /// Length of every later piece.
        step: usize,
    },
    /// AEAD encryption in place.
    Seal,
    /// AEAD decryption in place.
    Open,
    /// AEAD decryption of a forgery (one bit of the tag flipped), which must be
    /// refused with the buffer zeroed.
    Forgery,
    /// The AEAD's one-time Poly1305 key derivation.
    OneTimeKey,
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Mode::InPlace => f.write_str("in place"),
            Mode::OutOfPlace => f.write_str("out of place"),
            Mode::Split { at } => write!(f, "split at byte {at}"),
            Mode::Pieces => write!(f, "in pieces cut at {SPLIT_POINTS:?}"),
            Mode::Subkey => f.write_str("subkey"),
            Mode::Chunked { first, step } => {
                write!(f, "in pieces: {first} bytes, then {step} at a time")
            }
            Mode::Seal => f.write_str("seal in place"),
            Mode::Open => f.write_str("open in place"),
            Mode::Forgery => f.write_str("open a forgery"),
            Mode::OneTimeKey => f.write_str("one-time key"),
        }
    }
}

/// What went wrong in a failed check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The output differs from the expected bytes; `index` is the first difference.
    Mismatch {
        /// Offset of the first differing byte.
        index: usize,
        /// The byte the vector expects there.
        expected: u8,
        /// The byte produced.
        actual: u8,
    },
    /// A byte of the buffer past the message end was changed; `index` is its offset.
    Overrun {
        /// Offset of the first changed byte past the end.
        index: usize,
    },
    /// The cipher refused the operation.
    Refused(Error),
    /// The vector itself is unusable (lengths differ, too long, unknown rounds).
    BadVector(&'static str),
    /// A forged AEAD message was accepted.
    ForgeryAccepted,
    /// A refused AEAD message left a non-zero byte in the buffer, at `index`.
    NotZeroed {
        /// Offset of the first non-zero byte.
        index: usize,
    },
}

/// A known-answer check that failed: which vector, where, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KatFailure {
    /// The failing vector's `source`.
    pub source: &'static str,
    /// The backend it ran on (`None` for HChaCha, which has only the portable code).
    pub backend: Option<Backend>,
    /// How it was run.
    pub mode: Mode,
    /// What went wrong.
    pub problem: Problem,
}

impl fmt::Display for KatFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "known answer {}", self.source)?;
        if let Some(backend) = self.backend {
            write!(f, " on the {} backend", backend.name())?;
        }
        write!(f, ", {}: ", self.mode)?;
        match self.problem {
            Problem::Mismatch {
                index,
                expected,
                actual,
            } => write!(
                f,
                "first differing byte at offset {index}: expected {expected:#04x}, got {actual:#04x}"
            ),
            Problem::Overrun { index } => {
                write!(f, "wrote past the end of the message, at offset {index}")
            }
            Problem::Refused(e) => write!(f, "refused: {e}"),
            Problem::BadVector(why) => write!(f, "unusable vector: {why}"),
            Problem::ForgeryAccepted => f.write_str("a forged message was accepted"),
            Problem::NotZeroed { index } => write!(
                f,
                "a refused message left a non-zero byte in the buffer at offset {index}"
            ),
        }
    }
}

impl core::error::Error for KatFailure {}

/// Refuses a vector whose plaintext and ciphertext differ in length or that does not
/// fit the checkers' stack buffer.
pub(crate) fn usable_lengths(plaintext: &[u8], ciphertext: &[u8]) -> Result<(), Problem> {
    if ciphertext.len() != plaintext.len() {
        return Err(Problem::BadVector(
            "plaintext and ciphertext lengths differ",
        ));
    }
    if plaintext.len() > MAX_LEN {
        return Err(Problem::BadVector("longer than kat::MAX_LEN"));
    }
    Ok(())
}

/// Fill for the unused tail of the stack buffer, checked afterwards.
const GUARD: u8 = 0xa5;

/// Runs `v` on `backend` in place, out of place, split in two at each of
/// [`SPLIT_POINTS`] inside the message, and in pieces at all of them; every run must
/// give exactly `v.ciphertext` and leave the rest of the buffer untouched.
///
/// # Errors
/// A [`KatFailure`] naming the first mode that went wrong, or the vector itself when it
/// is unusable (unequal lengths, longer than [`MAX_LEN`], a bad nonce or counter).
pub fn check_stream(v: &StreamVector<'_>, backend: Backend) -> Result<(), KatFailure> {
    let fail = |mode, problem| KatFailure {
        source: v.source,
        backend: Some(backend),
        mode,
        problem,
    };
    let len = v.plaintext.len();
    usable_lengths(v.plaintext, v.ciphertext).map_err(|problem| fail(Mode::InPlace, problem))?;
    let fresh =
        || AnyCipher::new(v.kind, &v.key, v.nonce, v.counter).and_then(|c| c.with_backend(backend));
    let mut buf = [GUARD; MAX_LEN];

    // One call, in place.
    buf[..len].copy_from_slice(v.plaintext);
    fresh()
        .and_then(|mut c| c.try_apply_keystream(&mut buf[..len]))
        .map_err(|e| fail(Mode::InPlace, Problem::Refused(e)))?;
    compare(&buf, v.ciphertext).map_err(|p| fail(Mode::InPlace, p))?;

    // One call, out of place.
    buf = [GUARD; MAX_LEN];
    fresh()
        .and_then(|mut c| c.try_apply_keystream_b2b(v.plaintext, &mut buf[..len]))
        .map_err(|e| fail(Mode::OutOfPlace, Problem::Refused(e)))?;
    compare(&buf, v.ciphertext).map_err(|p| fail(Mode::OutOfPlace, p))?;

    // Two calls, cut at each split point inside the message.
    for at in SPLIT_POINTS.into_iter().filter(|&at| at < len) {
        let mode = Mode::Split { at };
        buf = [GUARD; MAX_LEN];
        buf[..len].copy_from_slice(v.plaintext);
        let (head, tail) = buf[..len].split_at_mut(at);
        fresh()
            .and_then(|mut c| {
                c.try_apply_keystream(head)?;
                c.try_apply_keystream(tail)
            })
            .map_err(|e| fail(mode, Problem::Refused(e)))?;
        compare(&buf, v.ciphertext).map_err(|p| fail(mode, p))?;
    }

    // One call per piece between consecutive split points (pieces of 1, 30, 32, 1, …).
    buf = [GUARD; MAX_LEN];
    buf[..len].copy_from_slice(v.plaintext);
    let mut cipher = fresh().map_err(|e| fail(Mode::Pieces, Problem::Refused(e)))?;
    let mut start = 0;
    for end in SPLIT_POINTS.into_iter().chain([len]) {
        let end = end.min(len);
        if end > start {
            cipher
                .try_apply_keystream(&mut buf[start..end])
                .map_err(|e| fail(Mode::Pieces, Problem::Refused(e)))?;
            start = end;
        }
    }
    compare(&buf, v.ciphertext).map_err(|p| fail(Mode::Pieces, p))
}

/// Checks one HChaCha vector (20 or 12 rounds).
///
/// # Errors
/// A [`KatFailure`] for the first differing byte, or for rounds other than 20 or 12.
pub fn check_hchacha(v: &HChaChaVector) -> Result<(), KatFailure> {
    let fail = |problem| KatFailure {
        source: v.source,
        backend: None,
        mode: Mode::Subkey,
        problem,
    };
    let output = match v.rounds {
        20 => hchacha::<20>(&v.key, &v.input),
        12 => hchacha::<12>(&v.key, &v.input),
        _ => return Err(fail(Problem::BadVector("HChaCha rounds must be 20 or 12"))),
    };
    match first_difference(&output, &v.output) {
        None => Ok(()),
        Some(index) => Err(fail(Problem::Mismatch {
            index,
            expected: v.output[index],
            actual: output[index],
        })),
    }
}

/// Runs every vector in [`STREAM_VECTORS`] on `backend` and every one in
/// [`HCHACHA_VECTORS`]; returns how many were checked.
///
/// # Errors
/// The first [`KatFailure`].
pub fn check_all(backend: Backend) -> Result<usize, KatFailure> {
    for v in STREAM_VECTORS {
        check_stream(v, backend)?;
    }
    for v in HCHACHA_VECTORS {
        check_hchacha(v)?;
    }
    Ok(STREAM_VECTORS.len() + HCHACHA_VECTORS.len())
}

/// `buf` must start with `expected` and hold only [`GUARD`] bytes after it.
fn compare(buf: &[u8; MAX_LEN], expected: &[u8]) -> Result<(), Problem> {
    let (out, rest) = buf.split_at(expected.len());
    if let Some(index) = first_difference(out, expected) {
        return Err(Problem::Mismatch {
            index,
            expected: expected[index],
            actual: out[index],
        });
    }
    match rest.iter().position(|&b| b != GUARD) {
        Some(i) => Err(Problem::Overrun {
            index: expected.len() + i,
        }),
        None => Ok(()),
    }
}

fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    a.iter().zip(b).position(|(x, y)| x != y)
}

// ---------------------------------------------------------------------------------
// Hex in the source, decoded at compile time.
//
// The vectors are written the way the documents print them: hex digit pairs, with
// any whitespace in between. A malformed string (odd digit count, a non-hex
// character, the wrong length for an array) is a compile error.
// ---------------------------------------------------------------------------------

/// The value of one hex digit.
const fn nibble(c: u8) -> u8 {
    match c {
        b'0'..=b'9' => c - b'0',
        b'a'..=b'f' => c - b'a' + 10,
        b'A'..=b'F' => c - b'A' + 10,
        _ => panic!("kat: not a hex digit"),
    }
}

/// How many bytes the hex string `s` (digits and whitespace) encodes.
pub(crate) const fn hex_len(s: &str) -> usize {
    let s = s.as_bytes();
    let (mut i, mut digits) = (0, 0);
    while i < s.len() {
        if !s[i].is_ascii_whitespace() {
            nibble(s[i]);
            digits += 1;
        }
        i += 1;
    }
    assert!(digits % 2 == 0, "kat: odd number of hex digits");
    digits / 2
}

/// Decodes the hex string `s` (digits and whitespace) into exactly `N` bytes.
pub(crate) const fn unhex<const N: usize>(s: &str) -> [u8; N] {
    assert!(hex_len(s) == N, "kat: hex string has the wrong length");
    let s = s.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut n, mut high) = (0, 0, None);
    while i < s.len() {
        if !s[i].is_ascii_whitespace() {
            match high {
                None => high = Some(nibble(s[i])),
                Some(h) => {
                    out[n] = (h << 4) | nibble(s[i]);
                    n += 1;
                    high = None;
                }
            }
        }
        i += 1;
    }
    out
}

/// A `&'static [u8; N]` from a hex string, its length counted at compile time.
macro_rules! hex {
    ($s:expr) => {{
        const S: &str = $s;
        const B: [u8; $crate::kat::hex_len(S)] = $crate::kat::unhex(S);
        &B
    }};
}

// Keys and texts used by more than one vector.

pub(crate) const KEY_SEQ: [u8; 32] = unhex(
    "000102030405060708090a0b0c0d0e0f
     101112131415161718191a1b1c1d1e1f",
);
pub(crate) const KEY_ZERO: [u8; 32] = [0; 32];
pub(crate) const KEY_ONE: [u8; 32] = unhex(
    "00000000000000000000000000000000
     00000000000000000000000000000001",
);
pub(crate) const KEY_1C92: [u8; 32] = unhex(
    "1c 92 40 a5 eb 55 d3 8a f3 33 88 86 04 f6 b5 f0
     47 39 17 c1 40 2b 80 09 9d ca 5c bc 20 70 75 c0",
);
pub(crate) const KEY_80: [u8; 32] = unhex(
    "808182838485868788898a8b8c8d8e8f
     909192939495969798999a9b9c9d9e9f",
);
/// draft-strombergson-chacha-test-vectors-01 TC7 (256-bit key).
const KEY_TC7: [u8; 32] = unhex(
    "00 11 22 33 44 55 66 77 88 99 aa bb cc dd ee ff
     ff ee dd cc bb aa 99 88 77 66 55 44 33 22 11 00",
);
/// draft-strombergson-chacha-test-vectors-01 TC8 (256-bit key).
const KEY_TC8: [u8; 32] = unhex(
    "c4 6e c1 b1 8c e8 a8 78 72 5a 37 e7 80 df b7 35
     1f 68 ed 2e 19 4c 79 fb c6 ae be e1 a6 67 97 5d",
);

pub mod aead;

const NONCE_ZERO_12: &[u8] = &[0; 12];
const NONCE_ZERO_8: &[u8] = &[0; 8];
const NONCE_2: &[u8] = hex!("00 00 00 00 00 00 00 00 00 00 00 02");
const XNONCE_DRAFT: &[u8] = hex!("404142434445464748494a4b4c4d4e4f5051525354555658");

pub(crate) const SUNSCREEN: &[u8] =
    b"Ladies and Gentlemen of the class of '99: If I could offer you \
    only one tip for the future, sunscreen would be it.";
pub(crate) const IETF_CONTRIBUTION: &[u8] =
    b"Any submission to the IETF intended by the Contributor for \
    publication as all or part of an IETF Internet-Draft or RFC and any statement made within \
    the context of an IETF activity is considered an \"IETF Contribution\". Such statements \
    include oral statements in IETF sessions, as well as written and electronic communications \
    made at any time or place, which are addressed to";
pub(crate) const JABBERWOCKY: &[u8] =
    b"'Twas brillig, and the slithy toves\nDid gyre and gimble in the \
    wabe:\nAll mimsy were the borogoves,\nAnd the mome raths outgrabe.";
const DHOLE: &[u8] = b"The dhole (pronounced \"dole\") is also known as the Asiatic wild dog, \
    red dog, and whistling dog. It is about the size of a German shepherd but looks more like \
    a long-legged fox. This highly elusive and skilled jumper is classified with wolves, \
    coyotes, jackals, and foxes in the taxonomic family Canidae.";
/// RFC 8439 A.5's plaintext; its quotation marks are UTF-8 (U+201C, U+201D).
pub(crate) const INTERNET_DRAFTS: &[u8] =
    b"Internet-Drafts are draft documents valid for a maximum of \
    six months and may be updated, replaced, or obsoleted by other documents at any time. It \
    is inappropriate to use Internet-Drafts as reference material or to cite them other than \
    as /\xe2\x80\x9cwork in progress./\xe2\x80\x9d";

/// RFC 8439 A.5: the AEAD example's ciphertext (`INTERNET_DRAFTS` under key `KEY_1C92`,
/// nonce 000000000102030405060708, from block 1); a stream vector and an AEAD vector.
pub(crate) const A5_CIPHERTEXT: &[u8] = hex!(
    "64 a0 86 15 75 86 1a f4 60 f0 62 c7 9b e6 43 bd
             5e 80 5c fd 34 5c f3 89 f1 08 67 0a c7 6c 8c b2
             4c 6c fc 18 75 5d 43 ee a0 9e e9 4e 38 2d 26 b0
             bd b7 b7 3c 32 1b 01 00 d4 f0 3b 7f 35 58 94 cf
             33 2f 83 0e 71 0b 97 ce 98 c8 a8 4a bd 0b 94 81
             14 ad 17 6e 00 8d 33 bd 60 f9 82 b1 ff 37 c8 55
             97 97 a0 6e f4 f0 ef 61 c1 86 32 4e 2b 35 06 38
             36 06 90 7b 6a 7c 02 b0 f9 f6 15 7b 53 c8 67 e4
             b9 16 6c 76 7b 80 4d 46 a5 9b 52 16 cd e7 a4 e9
             90 40 c5 a4 04 33 22 5e e2 82 a1 b0 a0 6c 52 3e
             af 45 34 d7 f8 3f a1 15 5b 00 47 71 8c bc 54 6a
             0d 07 2b 04 b3 56 4e ea 1b 42 22 73 f5 48 27 1a
             0b b2 31 60 53 fa 76 99 19 55 eb d6 31 59 43 4e
             ce bb 4e 46 6d ae 5a 10 73 a6 72 76 27 09 7a 10
             49 e6 17 d9 1d 36 10 94 fa 68 f0 ff 77 98 71 30
             30 5b ea ba 2e da 04 df 99 7b 71 4d 6c 6f 2c 29
             a6 ad 5c b4 02 2b 02 70 9b"
);

/// Every stream-cipher vector: RFC 8439 (ChaCha20), draft-irtf-cfrg-xchacha-03
/// (XChaCha20), draft-strombergson-chacha-test-vectors-01 (ChaCha8, ChaCha12 and
/// ChaCha20Legacy), and the Linux kernel's XChaCha12 vectors.
///
/// Strombergson's vectors use the original layout (64-bit counter, 64-bit nonce).
/// For a counter below 2^32 and a 12-byte nonce whose first 4 bytes are zero the RFC
/// 8439 layout puts the same words in the state, so the 8- and 12-round ones serve
/// as [`CipherKind::ChaCha8`] / [`CipherKind::ChaCha12`] vectors with nonce
/// `00000000 ‖ IV`.
pub const STREAM_VECTORS: &[StreamVector<'static>] = &[
    // ----- RFC 8439, ChaCha20 -----
    StreamVector {
        source: "RFC 8439 2.3.2 (block function, block 1 as keystream)",
        kind: CipherKind::ChaCha20,
        key: KEY_SEQ,
        nonce: hex!("00 00 00 09 00 00 00 4a 00 00 00 00"),
        counter: 1,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "10 f1 e7 e4 d1 3b 59 15 50 0f dd 1f a3 20 71 c4
             c7 d1 f4 c7 33 c0 68 03 04 22 aa 9a c3 d4 6c 4e
             d2 82 64 46 07 9f aa 09 14 c2 d7 05 d9 8b 02 a2
             b5 12 9c d1 de 16 4e b9 cb d0 83 e8 a2 50 3c 4e"
        ),
    },
    StreamVector {
        source: "RFC 8439 2.4.2 (encryption, sunscreen)",
        kind: CipherKind::ChaCha20,
        key: KEY_SEQ,
        nonce: hex!("00 00 00 00 00 00 00 4a 00 00 00 00"),
        counter: 1,
        plaintext: SUNSCREEN,
        ciphertext: hex!(
            "6e 2e 35 9a 25 68 f9 80 41 ba 07 28 dd 0d 69 81
             e9 7e 7a ec 1d 43 60 c2 0a 27 af cc fd 9f ae 0b
             f9 1b 65 c5 52 47 33 ab 8f 59 3d ab cd 62 b3 57
             16 39 d6 24 e6 51 52 ab 8f 53 0c 35 9f 08 61 d8
             07 ca 0d bf 50 0d 6a 61 56 a3 8e 08 8a 22 b6 5e
             52 bc 51 4d 16 cc f8 06 81 8c e9 1a b7 79 37 36
             5a f9 0b bf 74 a3 5b e6 b4 0b 8e ed f2 78 5e 42
             87 4d"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.1 #1 (block function)",
        kind: CipherKind::ChaCha20,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 0,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
             bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7
             da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37
             6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.1 #2 (block function)",
        kind: CipherKind::ChaCha20,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 1,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d
             cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed
             29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5
             31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.1 #3 (block function)",
        kind: CipherKind::ChaCha20,
        key: KEY_ONE,
        nonce: NONCE_ZERO_12,
        counter: 1,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "3a eb 52 24 ec f8 49 92 9b 9d 82 8d b1 ce d4 dd
             83 20 25 e8 01 8b 81 60 b8 22 84 f3 c9 49 aa 5a
             8e ca 00 bb b4 a7 3b da d1 92 b5 c4 2f 73 f2 fd
             4e 27 36 44 c8 b3 61 25 a6 4a dd eb 00 6c 13 a0"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.1 #4 (block function)",
        kind: CipherKind::ChaCha20,
        key: unhex(
            "00 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        nonce: NONCE_ZERO_12,
        counter: 2,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "72 d5 4d fb f1 2e c4 4b 36 26 92 df 94 13 7f 32
             8f ea 8d a7 39 90 26 5e c1 bb be a1 ae 9a f0 ca
             13 b2 5a a2 6c b4 a6 48 cb 9b 9d 1b e6 5b 2c 09
             24 a6 6c 54 d5 45 ec 1b 73 74 f4 87 2e 99 f0 96"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.1 #5 (block function)",
        kind: CipherKind::ChaCha20,
        key: KEY_ZERO,
        nonce: NONCE_2,
        counter: 0,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "c2 c6 4d 37 8c d5 36 37 4a e2 04 b9 ef 93 3f cd
             1a 8b 22 88 b3 df a4 96 72 ab 76 5b 54 ee 27 c7
             8a 97 0e 0e 95 5c 14 f3 a8 8e 74 1b 97 c2 86 f7
             5f 8f c2 99 e8 14 83 62 fa 19 8a 39 53 1b ed 6d"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.2 #1 (encryption)",
        kind: CipherKind::ChaCha20,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 0,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
             bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7
             da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37
             6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.2 #2 (encryption)",
        kind: CipherKind::ChaCha20,
        key: KEY_ONE,
        nonce: NONCE_2,
        counter: 1,
        plaintext: IETF_CONTRIBUTION,
        ciphertext: hex!(
            "a3 fb f0 7d f3 fa 2f de 4f 37 6c a2 3e 82 73 70
             41 60 5d 9f 4f 4f 57 bd 8c ff 2c 1d 4b 79 55 ec
             2a 97 94 8b d3 72 29 15 c8 f3 d3 37 f7 d3 70 05
             0e 9e 96 d6 47 b7 c3 9f 56 e0 31 ca 5e b6 25 0d
             40 42 e0 27 85 ec ec fa 4b 4b b5 e8 ea d0 44 0e
             20 b6 e8 db 09 d8 81 a7 c6 13 2f 42 0e 52 79 50
             42 bd fa 77 73 d8 a9 05 14 47 b3 29 1c e1 41 1c
             68 04 65 55 2a a6 c4 05 b7 76 4d 5e 87 be a8 5a
             d0 0f 84 49 ed 8f 72 d0 d6 62 ab 05 26 91 ca 66
             42 4b c8 6d 2d f8 0e a4 1f 43 ab f9 37 d3 25 9d
             c4 b2 d0 df b4 8a 6c 91 39 dd d7 f7 69 66 e9 28
             e6 35 55 3b a7 6c 5c 87 9d 7b 35 d4 9e b2 e6 2b
             08 71 cd ac 63 89 39 e2 5e 8a 1e 0e f9 d5 28 0f
             a8 ca 32 8b 35 1c 3c 76 59 89 cb cf 3d aa 8b 6c
             cc 3a af 9f 39 79 c9 2b 37 20 fc 88 dc 95 ed 84
             a1 be 05 9c 64 99 b9 fd a2 36 e7 e8 18 b0 4b 0b
             c3 9c 1e 87 6b 19 3b fe 55 69 75 3f 88 12 8c c0
             8a aa 9b 63 d1 a1 6f 80 ef 25 54 d7 18 9c 41 1f
             58 69 ca 52 c5 b8 3f a3 6f f2 16 b9 c1 d3 00 62
             be bc fd 2d c5 bc e0 91 19 34 fd a7 9a 86 f6 e6
             98 ce d7 59 c3 ff 9b 64 77 33 8f 3d a4 f9 cd 85
             14 ea 99 82 cc af b3 41 b2 38 4d d9 02 f3 d1 ab
             7a c6 1d d2 9c 6f 21 ba 5b 86 2f 37 30 e3 7c fd
             c4 fd 80 6c 22 f2 21"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.2 #3 (encryption)",
        kind: CipherKind::ChaCha20,
        key: KEY_1C92,
        nonce: NONCE_2,
        counter: 42,
        plaintext: JABBERWOCKY,
        ciphertext: hex!(
            "62 e6 34 7f 95 ed 87 a4 5f fa e7 42 6f 27 a1 df
             5f b6 91 10 04 4c 0d 73 11 8e ff a9 5b 01 e5 cf
             16 6d 3d f2 d7 21 ca f9 b2 1e 5f b1 4c 61 68 71
             fd 84 c5 4f 9d 65 b2 83 19 6c 7f e4 f6 05 53 eb
             f3 9c 64 02 c4 22 34 e3 2a 35 6b 3e 76 43 12 a6
             1a 55 32 05 57 16 ea d6 96 25 68 f8 7d 3f 3f 77
             04 c6 a8 d1 bc d1 bf 4d 50 d6 15 4b 6d a7 31 b1
             87 b5 8d fd 72 8a fa 36 75 7a 79 7a c1 88 d1"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.4 #1 (Poly1305 key: first 32 bytes of block 0)",
        kind: CipherKind::ChaCha20,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 0,
        plaintext: &[0; 32],
        ciphertext: hex!(
            "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
             bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.4 #2 (Poly1305 key: first 32 bytes of block 0)",
        kind: CipherKind::ChaCha20,
        key: KEY_ONE,
        nonce: NONCE_2,
        counter: 0,
        plaintext: &[0; 32],
        ciphertext: hex!(
            "ec fa 25 4f 84 5f 64 74 73 d3 cb 14 0d a9 e8 76
             06 cb 33 06 6c 44 7b 87 bc 26 66 dd e3 fb b7 39"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.4 #3 (Poly1305 key: first 32 bytes of block 0)",
        kind: CipherKind::ChaCha20,
        key: KEY_1C92,
        nonce: NONCE_2,
        counter: 0,
        plaintext: &[0; 32],
        ciphertext: hex!(
            "96 5e 3b c6 f9 ec 7e d9 56 08 08 f4 d2 29 f9 4b
             13 7f f2 75 ca 9b 3f cb dd 59 de aa d2 33 10 ae"
        ),
    },
    StreamVector {
        source: "RFC 8439 A.5 (AEAD payload, decrypted from block 1)",
        kind: CipherKind::ChaCha20,
        key: KEY_1C92,
        nonce: hex!("00 00 00 00 01 02 03 04 05 06 07 08"),
        counter: 1,
        plaintext: INTERNET_DRAFTS,
        ciphertext: A5_CIPHERTEXT,
    },
    // ----- draft-irtf-cfrg-xchacha-03, XChaCha20 -----
    StreamVector {
        source: "draft-irtf-cfrg-xchacha-03 A.3.2.1 (XChaCha20, block counter 0)",
        kind: CipherKind::XChaCha20,
        key: KEY_80,
        nonce: XNONCE_DRAFT,
        counter: 0,
        plaintext: DHOLE,
        ciphertext: hex!(
            "4559abba4e48c16102e8bb2c05e6947f50a786de162f9b0b7e592a9b53d0d4e9
             8d8d6410d540a1a6375b26d80dace4fab52384c731acbf16a5923c0c48d3575d
             4d0d2c673b666faa731061277701093a6bf7a158a8864292a41c48e3a9b4c0da
             ece0f8d98d0d7e05b37a307bbb66333164ec9e1b24ea0d6c3ffddcec4f68e744
             3056193a03c810e11344ca06d8ed8a2bfb1e8d48cfa6bc0eb4e2464b74814240
             7c9f431aee769960e15ba8b96890466ef2457599852385c661f752ce20f9da0c
             09ab6b19df74e76a95967446f8d0fd415e7bee2a12a114c20eb5292ae7a349ae
             577820d5520a1f3fb62a17ce6a7e68fa7c79111d8860920bc048ef43fe84486c
             cb87c25f0ae045f0cce1e7989a9aa220a28bdd4827e751a24a6d5c62d790a663
             93b93111c1a55dd7421a10184974c7c5"
        ),
    },
    StreamVector {
        source: "draft-irtf-cfrg-xchacha-03 A.3.2.2 (XChaCha20, block counter 1)",
        kind: CipherKind::XChaCha20,
        key: KEY_80,
        nonce: XNONCE_DRAFT,
        counter: 1,
        plaintext: DHOLE,
        ciphertext: hex!(
            "7d0a2e6b7f7c65a236542630294e063b7ab9b555a5d5149aa21e4ae1e4fbce87
             ecc8e08a8b5e350abe622b2ffa617b202cfad72032a3037e76ffdcdc4376ee05
             3a190d7e46ca1de04144850381b9cb29f051915386b8a710b8ac4d027b8b050f
             7cba5854e028d564e453b8a968824173fc16488b8970cac828f11ae53cabd201
             12f87107df24ee6183d2274fe4c8b1485534ef2c5fbc1ec24bfc3663efaa08bc
             047d29d25043532db8391a8a3d776bf4372a6955827ccb0cdd4af403a7ce4c63
             d595c75a43e045f0cce1f29c8b93bd65afc5974922f214a40b7c402cdb91ae73
             c0b63615cdad0480680f16515a7ace9d39236464328a37743ffc28f4ddb324f4
             d0f5bbdc270c65b1749a6efff1fbaa09536175ccd29fb9e6057b307320d31683
             8a9c71f70b5b5907a66f7ea49aadc409"
        ),
    },
    // ----- Linux crypto/testmgr.h, XChaCha12 -----
    StreamVector {
        source: "Linux crypto/testmgr.h xchacha12_tv_template[0] (29 bytes)",
        kind: CipherKind::XChaCha12,
        key: unhex(
            "79 c9 97 98 ac 67 30 0b bb 27 04 c9 5c 34 1e 32
             45 f3 dc b2 17 61 b9 8e 52 ff 45 b2 4f 30 4f c4",
        ),
        nonce: hex!(
            "b3 3f fd 30 96 47 9b cf bc 9a ee 49 41 76 88 a0
             a2 55 4f 8d 95 38 94 19"
        ),
        counter: 0,
        plaintext: &[0; 29],
        ciphertext: hex!(
            "1b 78 7f d7 a1 41 68 ab 3d 3f d1 7b 69 56 b2 d5
             43 ce eb af 36 f0 29 9d 3a fb 18 ae 1b"
        ),
    },
    StreamVector {
        source: "Linux crypto/testmgr.h xchacha12_tv_template[1] (91 bytes)",
        kind: CipherKind::XChaCha12,
        key: unhex(
            "9d 23 bd 41 49 cb 97 9c cf 3c 5c 94 dd 21 7e 98
             08 cb 0e 50 cd 0f 67 81 22 35 ea af 60 1d 62 32",
        ),
        nonce: hex!(
            "c0 47 54 82 66 b7 c3 70 d3 35 66 a2 42 5c bf 30
             d8 2d 1e af 52 94 10 9e"
        ),
        counter: 0,
        plaintext: &[0; 91],
        ciphertext: hex!(
            "fb 32 09 1d 83 05 ae 4c 13 1f 12 71 f2 ca b2 eb
             5b 83 14 7d 83 f6 57 77 2e 40 1f 92 2c f9 ec 35
             34 1f 93 df fb 30 d7 35 03 05 78 c1 20 3b 7a e3
             62 a3 89 dc 11 11 45 a8 82 89 a0 f1 4e c7 0f 11
             69 dd 0c 84 2b 89 5c dc f0 de 01 ef c5 65 79 23
             87 67 d6 50 d9 8d d9 92 54 5b 0e"
        ),
    },
    StreamVector {
        source: "Linux crypto/testmgr.h xchacha12_tv_template[2] (64 bytes)",
        kind: CipherKind::XChaCha12,
        key: KEY_ZERO,
        nonce: hex!(
            "00 00 00 00 00 00 00 00 00 00 00 00 67 c6 69 73
             51 ff 4a ec 29 cd ba ab"
        ),
        counter: 0,
        plaintext: &[0; 64],
        ciphertext: hex!(
            "df 2d c6 21 2a 9d a1 bb c2 77 66 0c 5c 46 ef a7
             79 1b b9 df 55 e2 f9 61 4c 7b a4 52 24 af a2 da
             d1 8f 8f a2 9e 53 4d c4 b8 55 98 08 7c 08 d4 18
             67 8f ef 50 b1 5f a5 77 4c 25 e7 86 26 42 ca 44"
        ),
    },
    StreamVector {
        source: "Linux crypto/testmgr.h xchacha12_tv_template[4] (127 bytes, counter 42)",
        kind: CipherKind::XChaCha12,
        key: KEY_1C92,
        nonce: hex!(
            "00 00 00 00 00 00 00 00 00 00 00 02 76 5a 2e 63
             33 9f c9 9a 66 32 0d b7"
        ),
        counter: 42,
        plaintext: JABBERWOCKY,
        ciphertext: hex!(
            "b9 68 bc 6a 24 bc cc d8 9b 2a 8d 5b 96 af 56 e3
             11 61 e7 a7 9b ce 4e 7d 60 02 48 ac eb d5 3a 26
             9d 77 3b b5 32 13 86 8e 20 82 26 72 ae 64 1b 7e
             2e 01 68 b4 87 45 a1 24 e4 48 40 f0 aa ac ee a9
             fc 31 ad 9d 89 a3 bb d2 e4 25 13 ad 0f 5e df 3c
             27 ab b8 62 46 22 30 48 55 2c 4e 84 78 1d 0d 34
             8d 3c 91 0a 7f 5b 19 9f 97 05 4c a7 62 47 8b c5
             44 2e 20 33 dd a0 82 a9 25 76 37 e6 3c 67 5b"
        ),
    },
    StreamVector {
        source: "Linux crypto/testmgr.h xchacha12_tv_template, last entry \
                 (draft-arciszewski-xchacha-02 A.3.2 input, 12 rounds, block counter 0)",
        kind: CipherKind::XChaCha12,
        key: KEY_80,
        nonce: XNONCE_DRAFT,
        counter: 0,
        plaintext: DHOLE,
        ciphertext: hex!(
            "9f 1a ab 8a 95 f4 7e cd ee 34 c0 39 d6 23 43 94
             f6 01 c1 7f 60 91 a5 23 4a 8a e6 b1 14 8b d7 58
             ee 02 ad ab ce 1e 7d df f9 49 27 69 d0 8d 0c 20
             6e 17 c4 ae 87 7a c6 61 91 e2 8e 0a 1d 61 cc 38
             02 64 43 49 c6 b2 59 59 42 e7 9d 83 00 60 90 d2
             b9 cd 97 6e c7 95 71 bc 23 31 58 07 b3 b4 ac 0b
             87 64 56 e5 e3 ec 63 a1 71 8c 08 48 33 20 29 81
             ea 01 25 20 c3 da e6 ee 6a 03 f6 68 4d 26 a0 91
             9e 44 b8 c1 c0 8f 5a 6a c0 cd bf 24 5e 40 66 d2
             42 24 b5 bf c1 eb 12 60 56 be b1 a6 c4 0f fc 49
             69 9f cc 06 5c e3 26 d7 52 c0 42 e8 b4 76 c3 ee
             b2 97 e3 37 61 29 5a b5 8e e8 8c c5 38 cc cb ec
             64 1a a9 12 5f f7 79 df 64 ca 77 4e bd f9 83 a0
             13 27 3f 31 03 63 30 26 27 0b 3e b3 23 13 61 0b
             70 1d d4 ad 85 1e bf df c6 8e 4d 08 cc 7e 77 bd
             1e 18 77 38 3a fe c0 5d 16 fc f0 a9 2f e9 17 c7
             d3 23 17 18 a3 e6 54 77 6f 1b be 8a 6e 7e ca 97
             08 05 36 76 af 12 7a 42 f7 7a c2 35 c3 b4 93 40
             54 14 90 a0 4d 65 1c 37 50 70 44 29 6d 6e 62 68"
        ),
    },
    // ----- draft-strombergson-chacha-test-vectors-01, 256-bit keys, keystream -----
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC1 (256-bit key, 8 rounds)",
        kind: CipherKind::ChaCha8,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "3e 00 ef 2f 89 5f 40 d6 7f 5b b8 e8 1f 09 a5 a1
             2c 84 0e c3 ce 9a 7f 3b 18 1b e1 88 ef 71 1a 1e
             98 4c e1 72 b9 21 6f 41 9f 44 53 67 45 6d 56 19
             31 4a 42 a3 da 86 b0 01 38 7b fd b8 0e 0c fe 42
             d2 ae fa 0d ea a5 c1 51 bf 0a db 6c 01 f2 a5 ad
             c0 fd 58 12 59 f9 a2 aa dc f2 0f 8f d5 66 a2 6b
             50 32 ec 38 bb c5 da 98 ee 0c 6f 56 8b 87 2a 65
             a0 8a bf 25 1d eb 21 bb 4b 56 e5 d8 82 1e 68 aa"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC7 (256-bit key, 8 rounds)",
        kind: CipherKind::ChaCha8,
        key: KEY_TC7,
        nonce: hex!("00 00 00 00 0f 1e 2d 3c 4b 5a 69 78"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "db 43 ad 9d 1e 84 2d 12 72 e4 53 0e 27 6b 3f 56
             8f 88 59 b3 f7 cf 6d 9d 2c 74 fa 53 80 8c b5 15
             7a 8e bf 46 ad 3d cc 4b 6c 7d ad de 13 17 84 b0
             12 0e 0e 22 f6 d5 f9 ff a7 40 7d 4a 21 b6 95 d9
             c5 dd 30 bf 55 61 2f ab 9b dd 11 89 20 c1 98 16
             47 0c 7f 5d cd 42 32 5d bb ed 8c 57 a5 62 81 c1
             44 cb 0f 03 e8 1b 30 04 62 4e 06 50 a1 ce 5a fa
             f9 a7 cd 81 63 f6 db d7 26 02 25 7d d9 6e 47 1e"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC8 (256-bit key, 8 rounds)",
        kind: CipherKind::ChaCha8,
        key: KEY_TC8,
        nonce: hex!("00 00 00 00 1a da 31 d5 cf 68 82 21"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "83 87 51 b4 2d 8d dd 8a 3d 77 f4 88 25 a2 ba 75
             2c f4 04 7c b3 08 a5 97 8e f2 74 97 3b e3 74 c9
             6a d8 48 06 58 71 41 7b 08 f0 34 e6 81 fe 46 a9
             3f 7d 5c 61 d1 30 66 14 d4 aa f2 57 a7 cf f0 8b
             16 f2 fd a1 70 cc 18 a4 b5 8a 26 67 ed 96 27 74
             af 79 2a 6e 7f 3c 77 99 25 40 71 1a 7a 13 6d 7e
             8a 2f 8d 3f 93 81 67 09 d4 5a 3f a5 f8 ce 72 fd
             e1 5b e7 b8 41 ac ba 3a 2a bd 55 72 28 d9 fe 4f"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC1 (256-bit key, 12 rounds)",
        kind: CipherKind::ChaCha12,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_12,
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "9b f4 9a 6a 07 55 f9 53 81 1f ce 12 5f 26 83 d5
             04 29 c3 bb 49 e0 74 14 7e 00 89 a5 2e ae 15 5f
             05 64 f8 79 d2 7a e3 c0 2c e8 28 34 ac fa 8c 79
             3a 62 9f 2c a0 de 69 19 61 0b e8 2f 41 13 26 be
             0b d5 88 41 20 3e 74 fe 86 fc 71 33 8c e0 17 3d
             c6 28 eb b7 19 bd cb cc 15 15 85 21 4c c0 89 b4
             42 25 8d cd a1 4c f1 11 c6 02 b8 97 1b 8c c8 43
             e9 1e 46 ca 90 51 51 c0 27 44 a6 b0 17 e6 93 16"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC7 (256-bit key, 12 rounds)",
        kind: CipherKind::ChaCha12,
        key: KEY_TC7,
        nonce: hex!("00 00 00 00 0f 1e 2d 3c 4b 5a 69 78"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "7e d1 2a 3a 63 91 2a e9 41 ba 6d 4c 0d 5e 86 2e
             56 8b 0e 55 89 34 69 35 50 5f 06 4b 8c 26 98 db
             f7 d8 50 66 7d 8e 67 be 63 9f 3b 4f 6a 16 f9 2e
             65 ea 80 f6 c7 42 94 45 da 1f c2 c1 b9 36 50 40
             e3 2e 50 c4 10 6f 3b 3d a1 ce 7c cb 1e 71 40 b1
             53 49 3c 0f 3a d9 a9 bc ff 07 7e c4 59 6f 1d 0f
             29 bf 9c ba a5 02 82 0f 73 2a f5 a9 3c 49 ee e3
             3d 1c 4f 12 af 3b 42 97 af 91 fe 41 ea 9e 94 a2"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC8 (256-bit key, 12 rounds)",
        kind: CipherKind::ChaCha12,
        key: KEY_TC8,
        nonce: hex!("00 00 00 00 1a da 31 d5 cf 68 82 21"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "14 82 07 27 84 bc 6d 06 b4 e7 3b dc 11 8b c0 10
             3c 79 76 78 6c a9 18 e0 69 86 aa 25 1f 7e 9c c1
             b2 74 9a 0a 16 ee 83 b4 24 2d 2e 99 b0 8d 7c 20
             09 2b 80 bc 46 6c 87 28 3b 61 b1 b3 9d 0f fb ab
             d9 4b 11 6b c1 eb db 32 9b 9e 4f 62 0d b6 95 54
             4a 8e 3d 9b 68 47 3d 0c 97 5a 46 ad 96 6e d6 31
             e4 2a ff 53 0a d5 ea c7 d8 04 7a df a1 e5 11 3c
             91 f3 e3 b8 83 f1 d1 89 ac 1c 8f e0 7b a5 a4 2b"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC1 (256-bit key, 20 rounds)",
        kind: CipherKind::ChaCha20Legacy,
        key: KEY_ZERO,
        nonce: NONCE_ZERO_8,
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
             bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7
             da 41 59 7c 51 57 48 8d 77 24 e0 3f b8 d8 4a 37
             6a 43 b8 f4 15 18 a1 1c c3 87 b6 69 b2 ee 65 86
             9f 07 e7 be 55 51 38 7a 98 ba 97 7c 73 2d 08 0d
             cb 0f 29 a0 48 e3 65 69 12 c6 53 3e 32 ee 7a ed
             29 b7 21 76 9c e6 4e 43 d5 71 33 b0 74 d8 39 d5
             31 ed 1f 28 51 0a fb 45 ac e1 0a 1f 4b 79 4d 6f"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC7 (256-bit key, 20 rounds)",
        kind: CipherKind::ChaCha20Legacy,
        key: KEY_TC7,
        nonce: hex!("0f 1e 2d 3c 4b 5a 69 78"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "9f ad f4 09 c0 08 11 d0 04 31 d6 7e fb d8 8f ba
             59 21 8d 5d 67 08 b1 d6 85 86 3f ab bb 0e 96 1e
             ea 48 0f d6 fb 53 2b fd 49 4b 21 51 01 50 57 42
             3a b6 0a 63 fe 4f 55 f7 a2 12 e2 16 7c ca b9 31
             fb fd 29 cf 7b c1 d2 79 ed df 25 dd 31 6b b8 84
             3d 6e de e0 bd 1e f1 21 d1 2f a1 7c bc 2c 57 4c
             cc ab 5e 27 51 67 b0 8b d6 86 f8 a0 9d f8 7e c3
             ff b3 53 61 b9 4e bf a1 3f ec 0e 48 89 d1 8d a5"
        ),
    },
    StreamVector {
        source: "draft-strombergson-chacha-test-vectors-01 TC8 (256-bit key, 20 rounds)",
        kind: CipherKind::ChaCha20Legacy,
        key: KEY_TC8,
        nonce: hex!("1a da 31 d5 cf 68 82 21"),
        counter: 0,
        plaintext: &[0; 128],
        ciphertext: hex!(
            "f6 3a 89 b7 5c 22 71 f9 36 88 16 54 2b a5 2f 06
             ed 49 24 17 92 30 2b 00 b5 e8 f8 0a e9 a4 73 af
             c2 5b 21 8f 51 9a f0 fd d4 06 36 2e 8d 69 de 7f
             54 c6 04 a6 e0 0f 35 3f 11 0f 77 1b dc a8 ab 92
             e5 fb c3 4e 60 a1 d9 a9 db 17 34 5b 0a 40 27 36
             85 3b f9 10 b0 60 bd f1 f8 97 b6 29 0f 01 d1 38
             ae 2c 4c 90 22 5b a9 ea 14 d5 18 f5 59 29 de a0
             98 ca 7a 6c cf e6 12 27 05 3c 84 e4 9a 4a 33 32"
        ),
    },
];

/// Every HChaCha vector. All are HChaCha20: no HChaCha12 vector has been published
/// that could be cited (the XChaCha12 stream vectors exercise HChaCha12 indirectly).
pub const HCHACHA_VECTORS: &[HChaChaVector] = &[
    HChaChaVector {
        source: "draft-irtf-cfrg-xchacha-03 2.2.1",
        rounds: 20,
        key: KEY_SEQ,
        input: unhex("00 00 00 09 00 00 00 4a 00 00 00 00 31 41 59 27"),
        output: unhex(
            "82413b42 27b27bfe d30e4250 8a877d73
             a0f9e4d5 8a74a853 c12ec413 26d3ecdc",
        ),
    },
    HChaChaVector {
        source: "libsodium test/default/xchacha20.c tv_hchacha20[0]",
        rounds: 20,
        key: unhex("24f11cce8a1b3d61e441561a696c1c1b7e173d084fd4812425435a8896a013dc"),
        input: unhex("d9660c5900ae19ddad28d6e06e45fe5e"),
        output: unhex("5966b3eec3bff1189f831f06afe4d4e3be97fa9235ec8c20d08acfbbb4e851e3"),
    },
    HChaChaVector {
        source: "libsodium test/default/xchacha20.c tv_hchacha20[1]",
        rounds: 20,
        key: unhex("80a5f6272031e18bb9bcd84f3385da65e7731b7039f13f5e3d475364cd4d42f7"),
        input: unhex("c0eccc384b44c88e92c57eb2d5ca4dfa"),
        output: unhex("6ed11741f724009a640a44fce7320954c46e18e0d7ae063bdbc8d7cf372709df"),
    },
    HChaChaVector {
        source: "libsodium test/default/xchacha20.c tv_hchacha20[2]",
        rounds: 20,
        key: unhex("cb1fc686c0eec11a89438b6f4013bf110e7171dace3297f3a657a309b3199629"),
        input: unhex("fcd49b93e5f8f299227e64d40dc864a3"),
        output: unhex("84b7e96937a1a0a406bb7162eeaad34308d49de60fd2f7ec9dc6a79cbab2ca34"),
    },
];

// Every built-in vector fits the checker's buffer and has matching lengths: checked
// when the crate compiles, not when the vectors first run.
const _: () = {
    let mut i = 0;
    while i < STREAM_VECTORS.len() {
        let v = &STREAM_VECTORS[i];
        assert!(
            v.plaintext.len() == v.ciphertext.len(),
            "kat: length mismatch"
        );
        assert!(
            v.plaintext.len() <= MAX_LEN,
            "kat: vector longer than MAX_LEN"
        );
        i += 1;
    }
};
