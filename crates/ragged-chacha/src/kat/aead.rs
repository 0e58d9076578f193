//! Known answers for Poly1305, the AEADs' one-time key, and the AEADs themselves, and
//! checkers that run them on chosen backends.
//!
//! Transcribed from RFC 8439 (§2.5.2, §2.6.2, §2.8.2, A.3, A.4, A.5) and
//! draft-irtf-cfrg-xchacha-03 (A.3.1); every vector names its origin in `source`. The
//! crate's tests also run every vector through RustCrypto's `poly1305` and
//! `chacha20poly1305`, so a transcription slip shows up as a disagreement. The
//! checkers do not allocate.
//!
//! ```
//! use ragged_chacha::{kat, Backend, Poly1305Backend};
//!
//! for backend in Backend::available() {
//!     for mac in Poly1305Backend::available() {
//!         kat::aead::check_all(backend, mac).unwrap();
//!     }
//! }
//! ```

use super::{
    A5_CIPHERTEXT, GUARD, IETF_CONTRIBUTION, INTERNET_DRAFTS, JABBERWOCKY, KEY_1C92, KEY_80,
    KEY_ONE, KEY_ZERO, KatFailure, MAX_LEN, Mode, Problem, SUNSCREEN, compare, first_difference,
    unhex, usable_lengths,
};
use crate::{AeadKind, AnyAead, Backend, Error, Poly1305, Poly1305Backend};

/// One Poly1305 known answer: `tag` is Poly1305 of `message` under `key`.
#[derive(Clone, Copy, Debug)]
pub struct Poly1305Vector {
    /// Where the vector comes from, precise enough to find it again.
    pub source: &'static str,
    /// The one-time key `r ‖ s`.
    pub key: [u8; 32],
    /// The message, at most [`MAX_LEN`] bytes.
    pub message: &'static [u8],
    /// The expected tag.
    pub tag: [u8; 16],
}

/// One one-time-key known answer: the first 32 bytes of ChaCha20 keystream block 0
/// for `key` and `nonce` (RFC 8439 §2.6).
#[derive(Clone, Copy, Debug)]
pub struct OneTimeKeyVector {
    /// Where the vector comes from, precise enough to find it again.
    pub source: &'static str,
    /// The AEAD key.
    pub key: [u8; 32],
    /// The 12-byte nonce.
    pub nonce: [u8; 12],
    /// The expected Poly1305 key.
    pub one_time_key: [u8; 32],
}

/// One AEAD known answer: sealing `plaintext` with `aad` under `key` and `nonce` gives
/// `ciphertext` and `tag`.
#[derive(Clone, Copy, Debug)]
pub struct AeadVector {
    /// Where the vector comes from, precise enough to find it again.
    pub source: &'static str,
    /// The AEAD it is for.
    pub kind: AeadKind,
    /// The 256-bit key.
    pub key: [u8; 32],
    /// The nonce, of [`AeadKind::nonce_len`] bytes.
    pub nonce: &'static [u8],
    /// The associated data.
    pub aad: &'static [u8],
    /// The plaintext, at most [`MAX_LEN`] bytes.
    pub plaintext: &'static [u8],
    /// The expected ciphertext, as long as `plaintext`.
    pub ciphertext: &'static [u8],
    /// The expected tag.
    pub tag: [u8; 16],
}

/// How [`check_poly1305`] cuts messages: the first piece's length, then the step.
/// Pieces of 1, 15, 16 and 17 bytes catch buffering slips at the block boundary.
pub const CHUNKINGS: [(usize, usize); 6] = [(0, 1), (1, 15), (15, 16), (16, 17), (17, 3), (7, 64)];

/// Runs `v` on `backend`: one-shot, in the pieces of every [`CHUNKINGS`] entry, and
/// through [`Poly1305::verify`] (which must accept the tag and refuse it with one bit
/// flipped).
///
/// # Errors
/// A [`KatFailure`] naming the first mode that went wrong.
pub fn check_poly1305(v: &Poly1305Vector, backend: Poly1305Backend) -> Result<(), KatFailure> {
    let fail = |mode, problem| KatFailure {
        source: v.source,
        backend: None,
        mode,
        problem,
    };
    let fresh = || {
        Poly1305::new(&v.key)
            .with_backend(backend)
            .map_err(|e| fail(Mode::InPlace, Problem::Refused(e)))
    };
    let expect = |mode, tag: [u8; 16]| match first_difference(&tag, &v.tag) {
        None => Ok(()),
        Some(index) => Err(fail(
            mode,
            Problem::Mismatch {
                index,
                expected: v.tag[index],
                actual: tag[index],
            },
        )),
    };

    let mut mac = fresh()?;
    mac.update(v.message);
    expect(Mode::InPlace, mac.finalize())?;

    for (first, step) in CHUNKINGS {
        let mode = Mode::Chunked { first, step };
        let mut mac = fresh()?;
        let (head, mut rest) = v.message.split_at(first.min(v.message.len()));
        mac.update(head);
        while !rest.is_empty() {
            let (piece, tail) = rest.split_at(step.min(rest.len()));
            mac.update(piece);
            rest = tail;
        }
        expect(mode, mac.finalize())?;
    }

    let mut mac = fresh()?;
    mac.update(v.message);
    mac.clone()
        .verify(&v.tag)
        .map_err(|e| fail(Mode::Open, Problem::Refused(e)))?;
    let mut forged = v.tag;
    forged[15] ^= 0x80;
    match mac.verify(&forged) {
        Err(Error::AuthenticationFailed) => Ok(()),
        Err(e) => Err(fail(Mode::Forgery, Problem::Refused(e))),
        Ok(()) => Err(fail(Mode::Forgery, Problem::ForgeryAccepted)),
    }
}

/// Checks the AEAD's one-time key derivation for `v` on `backend`.
///
/// # Errors
/// A [`KatFailure`] for the first differing byte, or for a refused backend.
pub fn check_one_time_key(v: &OneTimeKeyVector, backend: Backend) -> Result<(), KatFailure> {
    let fail = |problem| KatFailure {
        source: v.source,
        backend: Some(backend),
        mode: Mode::OneTimeKey,
        problem,
    };
    let key = AnyAead::new(AeadKind::ChaCha20Poly1305, &v.key)
        .with_backend(backend)
        .and_then(|a| a.one_time_key(&v.nonce))
        .map_err(|e| fail(Problem::Refused(e)))?;
    match first_difference(&key, &v.one_time_key) {
        None => Ok(()),
        Some(index) => Err(fail(Problem::Mismatch {
            index,
            expected: v.one_time_key[index],
            actual: key[index],
        })),
    }
}

/// Runs `v` with its keystream on `backend` and its MAC on `mac`: sealing in place
/// must give exactly the ciphertext and tag, opening must give the plaintext back,
/// and opening with one tag bit flipped must be refused with the message zeroed.
/// Bytes past the message must stay untouched throughout.
///
/// # Errors
/// A [`KatFailure`] naming the first mode that went wrong, or the vector itself when it
/// is unusable (unequal lengths, longer than [`MAX_LEN`], a nonce of the wrong length).
pub fn check_aead(
    v: &AeadVector,
    backend: Backend,
    mac: Poly1305Backend,
) -> Result<(), KatFailure> {
    let fail = |mode, problem| KatFailure {
        source: v.source,
        backend: Some(backend),
        mode,
        problem,
    };
    let len = v.plaintext.len();
    usable_lengths(v.plaintext, v.ciphertext).map_err(|problem| fail(Mode::Seal, problem))?;
    let aead = AnyAead::new(v.kind, &v.key)
        .with_backend(backend)
        .and_then(|a| a.with_mac_backend(mac))
        .map_err(|e| fail(Mode::Seal, Problem::Refused(e)))?;
    let mut buf = [GUARD; MAX_LEN];

    buf[..len].copy_from_slice(v.plaintext);
    let tag = aead
        .encrypt_in_place_detached(v.nonce, v.aad, &mut buf[..len])
        .map_err(|e| fail(Mode::Seal, Problem::Refused(e)))?;
    compare(&buf, v.ciphertext).map_err(|p| fail(Mode::Seal, p))?;
    if let Some(index) = first_difference(&tag, &v.tag) {
        return Err(fail(
            Mode::Seal,
            Problem::Mismatch {
                index: len + index,
                expected: v.tag[index],
                actual: tag[index],
            },
        ));
    }

    aead.decrypt_in_place_detached(v.nonce, v.aad, &mut buf[..len], &v.tag)
        .map_err(|e| fail(Mode::Open, Problem::Refused(e)))?;
    compare(&buf, v.plaintext).map_err(|p| fail(Mode::Open, p))?;

    buf[..len].copy_from_slice(v.ciphertext);
    let mut forged = v.tag;
    forged[0] ^= 1;
    match aead.decrypt_in_place_detached(v.nonce, v.aad, &mut buf[..len], &forged) {
        Err(Error::AuthenticationFailed) => {}
        Err(e) => return Err(fail(Mode::Forgery, Problem::Refused(e))),
        Ok(()) => return Err(fail(Mode::Forgery, Problem::ForgeryAccepted)),
    }
    if let Some(index) = buf[..len].iter().position(|&b| b != 0) {
        return Err(fail(Mode::Forgery, Problem::NotZeroed { index }));
    }
    compare(&buf, &[0; MAX_LEN][..len]).map_err(|p| fail(Mode::Forgery, p))
}

/// Runs every vector of this module: the Poly1305 ones on `mac`, the one-time-key ones
/// on `backend`, the AEAD ones on both; returns how many were checked.
///
/// # Errors
/// The first [`KatFailure`].
pub fn check_all(backend: Backend, mac: Poly1305Backend) -> Result<usize, KatFailure> {
    for v in POLY1305_VECTORS {
        check_poly1305(v, mac)?;
    }
    for v in ONE_TIME_KEY_VECTORS {
        check_one_time_key(v, backend)?;
    }
    for v in AEAD_VECTORS {
        check_aead(v, backend, mac)?;
    }
    Ok(POLY1305_VECTORS.len() + ONE_TIME_KEY_VECTORS.len() + AEAD_VECTORS.len())
}

/// RFC 8439 §2.5.2's message.
const CFRG: &[u8] = b"Cryptographic Forum Research Group";

/// Every Poly1305 vector: RFC 8439 §2.5.2 and A.3 #1–#11 (A.3 #5–#11 are the edge
/// cases of the reduction: results at and just below p, carries across limbs, and a
/// tag that wraps past 2^128 when `s` is added).
pub const POLY1305_VECTORS: &[Poly1305Vector] = &[
    Poly1305Vector {
        source: "RFC 8439 2.5.2",
        key: unhex(
            "85 d6 be 78 57 55 6d 33 7f 44 52 fe 42 d5 06 a8
             01 03 80 8a fb 0d b2 fd 4a bf f6 af 41 49 f5 1b",
        ),
        message: CFRG,
        tag: unhex("a8 06 1d c1 30 51 36 c6 c2 2b 8b af 0c 01 27 a9"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #1",
        key: KEY_ZERO,
        message: &[0; 64],
        tag: [0; 16],
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #2 (r = 0: the tag is s)",
        key: unhex(
            "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             36 e5 f6 b5 c5 e0 60 70 f0 ef ca 96 22 7a 86 3e",
        ),
        message: IETF_CONTRIBUTION,
        tag: unhex("36 e5 f6 b5 c5 e0 60 70 f0 ef ca 96 22 7a 86 3e"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #3",
        key: unhex(
            "36 e5 f6 b5 c5 e0 60 70 f0 ef ca 96 22 7a 86 3e
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: IETF_CONTRIBUTION,
        tag: unhex("f3 47 7e 7c d9 54 17 af 89 a6 b8 79 4c 31 0c f0"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #4",
        key: KEY_1C92,
        message: JABBERWOCKY,
        tag: unhex("45 41 66 9a 7e aa ee 61 e7 08 dc 7c bc c5 eb 62"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #5 (partially reduced result not fully reduced)",
        key: unhex(
            "02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!("FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF"),
        tag: unhex("03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #6 (adding s overflows 2^128)",
        key: unhex(
            "02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF",
        ),
        message: hex!("02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
        tag: unhex("03 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #7 (all-ones limb with a carry from below)",
        key: unhex(
            "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!(
            "FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF
             F0 FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF
             11 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
        ),
        tag: unhex("05 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #8 (result exactly 2^130 - 5)",
        key: unhex(
            "01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!(
            "FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF
             FB FE FE FE FE FE FE FE FE FE FE FE FE FE FE FE
             01 01 01 01 01 01 01 01 01 01 01 01 01 01 01 01"
        ),
        tag: unhex("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #9 (result exactly 2^130 - 6)",
        key: unhex(
            "02 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!("FD FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF"),
        tag: unhex("FA FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #10 (5*H+L reduction with a 131-bit intermediate)",
        key: unhex(
            "01 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!(
            "E3 35 94 D7 50 5E 43 B9 00 00 00 00 00 00 00 00
             33 94 D7 50 5E 43 79 CD 01 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00
             01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
        ),
        tag: unhex("14 00 00 00 00 00 00 00 55 00 00 00 00 00 00 00"),
    },
    Poly1305Vector {
        source: "RFC 8439 A.3 #11 (5*H+L reduction with a 131-bit final result)",
        key: unhex(
            "01 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00",
        ),
        message: hex!(
            "E3 35 94 D7 50 5E 43 B9 00 00 00 00 00 00 00 00
             33 94 D7 50 5E 43 79 CD 01 00 00 00 00 00 00 00
             00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
        ),
        tag: unhex("13 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"),
    },
];

/// Every one-time-key vector: RFC 8439 §2.6.2 and A.4 #1–#3, and the keys printed
/// inside the §2.8.2 and A.5 AEAD walk-throughs.
pub const ONE_TIME_KEY_VECTORS: &[OneTimeKeyVector] = &[
    OneTimeKeyVector {
        source: "RFC 8439 2.6.2",
        key: KEY_80,
        nonce: unhex("00 00 00 00 00 01 02 03 04 05 06 07"),
        one_time_key: unhex(
            "8a d5 a0 8b 90 5f 81 cc 81 50 40 27 4a b2 94 71
             a8 33 b6 37 e3 fd 0d a5 08 db b8 e2 fd d1 a6 46",
        ),
    },
    OneTimeKeyVector {
        source: "RFC 8439 A.4 #1",
        key: KEY_ZERO,
        nonce: [0; 12],
        one_time_key: unhex(
            "76 b8 e0 ad a0 f1 3d 90 40 5d 6a e5 53 86 bd 28
             bd d2 19 b8 a0 8d ed 1a a8 36 ef cc 8b 77 0d c7",
        ),
    },
    OneTimeKeyVector {
        source: "RFC 8439 A.4 #2",
        key: KEY_ONE,
        nonce: unhex("00 00 00 00 00 00 00 00 00 00 00 02"),
        one_time_key: unhex(
            "ec fa 25 4f 84 5f 64 74 73 d3 cb 14 0d a9 e8 76
             06 cb 33 06 6c 44 7b 87 bc 26 66 dd e3 fb b7 39",
        ),
    },
    OneTimeKeyVector {
        source: "RFC 8439 A.4 #3",
        key: KEY_1C92,
        nonce: unhex("00 00 00 00 00 00 00 00 00 00 00 02"),
        one_time_key: unhex(
            "96 5e 3b c6 f9 ec 7e d9 56 08 08 f4 d2 29 f9 4b
             13 7f f2 75 ca 9b 3f cb dd 59 de aa d2 33 10 ae",
        ),
    },
    OneTimeKeyVector {
        source: "RFC 8439 2.8.2 (one-time key of the AEAD example)",
        key: KEY_80,
        nonce: unhex("07 00 00 00 40 41 42 43 44 45 46 47"),
        one_time_key: unhex(
            "7b ac 2b 25 2d b4 47 af 09 b6 7a 55 a4 e9 55 84
             0a e1 d6 73 10 75 d9 eb 2a 93 75 78 3e d5 53 ff",
        ),
    },
    OneTimeKeyVector {
        source: "RFC 8439 A.5 (one-time key of the decryption example)",
        key: KEY_1C92,
        nonce: unhex("00 00 00 00 01 02 03 04 05 06 07 08"),
        one_time_key: unhex(
            "bd f0 4a a9 5c e4 de 89 95 b1 4b b6 a1 8f ec af
             26 47 8f 50 c0 54 f5 63 db c0 a2 1e 26 15 72 aa",
        ),
    },
];

/// The AAD of RFC 8439 §2.8.2 and draft-irtf-cfrg-xchacha-03 A.3.1.
const AAD_5051: &[u8] = hex!("50 51 52 53 c0 c1 c2 c3 c4 c5 c6 c7");

/// Every AEAD vector: RFC 8439 §2.8.2 and A.5, draft-irtf-cfrg-xchacha-03 A.3.1.
pub const AEAD_VECTORS: &[AeadVector] = &[
    AeadVector {
        source: "RFC 8439 2.8.2",
        kind: AeadKind::ChaCha20Poly1305,
        key: KEY_80,
        nonce: hex!("07 00 00 00 40 41 42 43 44 45 46 47"),
        aad: AAD_5051,
        plaintext: SUNSCREEN,
        ciphertext: hex!(
            "d3 1a 8d 34 64 8e 60 db 7b 86 af bc 53 ef 7e c2
             a4 ad ed 51 29 6e 08 fe a9 e2 b5 a7 36 ee 62 d6
             3d be a4 5e 8c a9 67 12 82 fa fb 69 da 92 72 8b
             1a 71 de 0a 9e 06 0b 29 05 d6 a5 b6 7e cd 3b 36
             92 dd bd 7f 2d 77 8b 8c 98 03 ae e3 28 09 1b 58
             fa b3 24 e4 fa d6 75 94 55 85 80 8b 48 31 d7 bc
             3f f4 de f0 8e 4b 7a 9d e5 76 d2 65 86 ce c6 4b
             61 16"
        ),
        tag: unhex("1a e1 0b 59 4f 09 e2 6a 7e 90 2e cb d0 60 06 91"),
    },
    AeadVector {
        source: "RFC 8439 A.5",
        kind: AeadKind::ChaCha20Poly1305,
        key: KEY_1C92,
        nonce: hex!("00 00 00 00 01 02 03 04 05 06 07 08"),
        aad: hex!("f3 33 88 86 00 00 00 00 00 00 4e 91"),
        plaintext: INTERNET_DRAFTS,
        ciphertext: A5_CIPHERTEXT,
        tag: unhex("ee ad 9d 67 89 0c bb 22 39 23 36 fe a1 85 1f 38"),
    },
    AeadVector {
        source: "draft-irtf-cfrg-xchacha-03 A.3.1",
        kind: AeadKind::XChaCha20Poly1305,
        key: KEY_80,
        nonce: hex!("40 41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50 51 52 53 54 55 56 57"),
        aad: AAD_5051,
        plaintext: SUNSCREEN,
        ciphertext: hex!(
            "bd 6d 17 9d 3e 83 d4 3b 95 76 57 94 93 c0 e9 39
             57 2a 17 00 25 2b fa cc be d2 90 2c 21 39 6c bb
             73 1c 7f 1b 0b 4a a6 44 0b f3 a8 2f 4e da 7e 39
             ae 64 c6 70 8c 54 c2 16 cb 96 b7 2e 12 13 b4 52
             2f 8c 9b a4 0d b5 d9 45 b1 1b 69 b9 82 c1 bb 9e
             3f 3f ac 2b c3 69 48 8f 76 b2 38 35 65 d3 ff f9
             21 f9 66 4c 97 63 7d a9 76 88 12 f6 15 c6 8b 13
             b5 2e"
        ),
        tag: unhex("c0 87 59 24 c1 c7 98 79 47 de af d8 78 0a cf 49"),
    },
];

// Every AEAD vector fits the checker's buffer, has matching lengths and a nonce of
// its AEAD's length; every Poly1305 message fits too: checked when the crate compiles.
const _: () = {
    let mut i = 0;
    while i < AEAD_VECTORS.len() {
        let v = &AEAD_VECTORS[i];
        assert!(
            v.plaintext.len() == v.ciphertext.len(),
            "kat: length mismatch"
        );
        assert!(
            v.plaintext.len() <= MAX_LEN,
            "kat: vector longer than MAX_LEN"
        );
        let nonce_len = match v.kind {
            AeadKind::ChaCha20Poly1305 => 12,
            AeadKind::XChaCha20Poly1305 => 24,
        };
        assert!(v.nonce.len() == nonce_len, "kat: wrong nonce length");
        i += 1;
    }
    let mut i = 0;
    while i < POLY1305_VECTORS.len() {
        assert!(
            POLY1305_VECTORS[i].message.len() <= MAX_LEN,
            "kat: message longer than MAX_LEN"
        );
        i += 1;
    }
};
