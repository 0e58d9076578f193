//! What can be measured: primitives, their cases, and the implementations of each.
//!
//! The timing code only sees this module's traits. A new primitive (a copy with source
//! offsets, an AEAD seal) adds a [`Primitive`] in [`all`] with its own cases and
//! implementations; the sampler, the report and the plot need no change.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// One point to measure: `size` bytes per call, and an `offset` whose meaning belongs
/// to the primitive (0 for the ciphers; the source misalignment of `memcpy`; the
/// signed distance from source to destination of `memmove`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Case {
    /// Bytes processed by one call.
    pub size: usize,
    /// Primitive-specific; 0 where it means nothing. Signed for `memmove`, whose
    /// destination may lie below its source.
    pub offset: isize,
}

impl Case {
    /// The offset of a primitive whose offsets are never negative (a misalignment).
    ///
    /// # Panics
    /// If the offset is negative.
    pub fn unsigned_offset(self) -> usize {
        usize::try_from(self.offset).expect("this primitive's offsets are not negative")
    }
}

/// Whose code an implementation is: ragged's own, or a peer it is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The dispatched ragged backend: the one compared against the peers.
    Ragged,
    /// A named ragged backend (`--backends`): shown, but neither ragged nor a peer.
    RaggedBackend,
    /// Another library.
    Peer,
}

/// One way of doing a primitive's work.
pub trait Implementation {
    /// The column name, e.g. `ragged`, `ragged-avx2`, `rustcrypto`, `openssl`.
    fn name(&self) -> String;
    /// Ours or a peer's.
    fn role(&self) -> Role;
    /// Buffers (filled by [`Buffer::message`]) and whatever else a call needs for `case`.
    fn prepare(&self, case: Case) -> Box<dyn Runner>;
}

/// A prepared case of one implementation.
pub trait Runner {
    /// Does the work of one call (one message) on the prepared buffers; the result
    /// must go through [`std::hint::black_box`] so the call cannot be optimised away.
    fn run(&mut self);
    /// What the last call produced (the message buffer for the in-place ciphers).
    /// Every implementation of a case must produce the same bytes from the same
    /// calls; the sampler checks this once before timing.
    fn output(&self) -> &[u8];
}

/// A primitive with the cases to measure and every implementation of it.
pub struct Primitive {
    /// The name on the command line and in the JSON, e.g. `chacha20`.
    pub name: &'static str,
    /// The points to measure, in the order of the report.
    pub cases: Vec<Case>,
    /// Every implementation, ragged's first.
    pub implementations: Vec<Box<dyn Implementation>>,
}

impl fmt::Debug for Primitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<_> = self.implementations.iter().map(|i| i.name()).collect();
        f.debug_struct("Primitive")
            .field("name", &self.name)
            .field("cases", &self.cases)
            .field("implementations", &names)
            .finish()
    }
}

/// Which implementations to build.
#[derive(Clone, Copy, Debug)]
pub struct Selection {
    /// Also every ragged backend this CPU has, by name.
    pub backends: bool,
}

/// The names of every primitive, in the order they are run.
pub const NAMES: &[&str] = &[
    "chacha20",
    "xchacha20",
    "chacha20-poly1305",
    "xchacha20-poly1305",
    "chacha20-poly1305-open",
    "poly1305",
    "memcpy",
    "memmove",
    "chacha20-poly1305-burst",
    "chacha20-poly1305-open-burst",
    "chacha20-burst",
];

/// A peer that a cargo feature adds (it links a system library), and whether this
/// build has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionalPeer {
    /// The column name.
    pub name: &'static str,
    /// The cargo feature of the `ragged` crate that adds it.
    pub feature: &'static str,
    /// Built into this binary.
    pub built: bool,
}

/// OpenSSL's libcrypto (`openssl.rs`).
pub const OPENSSL: OptionalPeer = OptionalPeer {
    name: "openssl",
    feature: "openssl",
    built: cfg!(feature = "openssl"),
};

/// libsodium (`sodium.rs`).
pub const SODIUM: OptionalPeer = OptionalPeer {
    name: "libsodium",
    feature: "sodium",
    built: cfg!(feature = "sodium"),
};

/// The cargo features of this build that add peers, e.g. `["openssl"]`.
pub fn features() -> Vec<&'static str> {
    [OPENSSL, SODIUM]
        .iter()
        .filter(|p| p.built)
        .map(|p| p.feature)
        .collect()
}

/// The optional peers of primitive `name`, built in or not.
pub fn optional_peers(name: &str) -> &'static [OptionalPeer] {
    match name {
        "chacha20" | "chacha20-poly1305" => &[OPENSSL, SODIUM],
        "xchacha20" | "xchacha20-poly1305" | "chacha20-poly1305-open" | "poly1305" => &[SODIUM],
        _ => &[],
    }
}

/// The sizes `name` is measured at when `--sizes` is not given.
pub fn default_sizes(name: &str) -> &'static [usize] {
    match name {
        "memcpy" => super::sizes::MEMCPY,
        "memmove" => super::sizes::MEMMOVE,
        n if n.ends_with("-burst") => super::burst::PACKETS,
        _ => super::sizes::DEFAULT,
    }
}

/// The offsets `name` is measured at for `size`.
fn offsets(name: &str, size: usize) -> Vec<isize> {
    match name {
        "memcpy" => super::memcpy::OFFSETS.to_vec(),
        "memmove" => super::memmove::distances(size),
        _ => vec![0],
    }
}

/// The primitive called `name` with a case per size and offset, or `None` if unknown.
///
/// A primitive may come in parts, each a [`Primitive`] of the same name with some of
/// the cases and the implementations that run them: `memcpy` and `memmove` leave their
/// slow peers out above [`super::memcpy::LARGE`] bytes. The report joins the parts into one table
/// (a `-` where an implementation did not run).
pub fn build(name: &str, sizes: &[usize], selection: Selection) -> Option<Vec<Primitive>> {
    let name: &'static str = NAMES.iter().find(|n| **n == name)?;
    let cases: Vec<Case> = sizes
        .iter()
        .flat_map(|&size| {
            offsets(name, size)
                .into_iter()
                .map(move |offset| Case { size, offset })
        })
        .collect();
    let part = |cases: Vec<Case>, implementations| Primitive {
        name,
        cases,
        implementations,
    };
    let parts = match name {
        "chacha20" => vec![part(cases, super::chacha::chacha20(selection))],
        "xchacha20" => vec![part(cases, super::chacha::xchacha20(selection))],
        "chacha20-poly1305" => vec![part(
            cases,
            super::aead::aead(ragged_chacha::AeadKind::ChaCha20Poly1305, selection),
        )],
        "xchacha20-poly1305" => vec![part(
            cases,
            super::aead::aead(ragged_chacha::AeadKind::XChaCha20Poly1305, selection),
        )],
        "chacha20-poly1305-open" => vec![part(cases, super::aead_open::open(selection))],
        "poly1305" => vec![part(cases, super::poly1305::poly1305(selection))],
        n if n.ends_with("-burst") => vec![part(
            super::burst::cases(name, sizes),
            super::burst::implementations(name, selection),
        )],
        "memcpy" | "memmove" => {
            let (small, large): (Vec<Case>, Vec<Case>) = cases
                .into_iter()
                .partition(|c| c.size <= super::memcpy::LARGE);
            let implementations = match name {
                "memcpy" => super::memcpy::memcpy,
                _ => super::memmove::memmove,
            };
            vec![
                part(small, implementations(false, selection.backends)),
                part(large, implementations(true, selection.backends)),
            ]
        }
        _ => return None,
    };
    Some(parts.into_iter().filter(|p| !p.cases.is_empty()).collect())
}

/// Where a buffer starts: this many bytes past a 64-byte (cache line) boundary, plus
/// the case's offset, so every implementation sees the same alignment.
pub const ALIGN: usize = 64;

/// A message buffer: `len` bytes starting `offset` bytes past a 64-byte boundary,
/// holding the same pattern for every implementation of a case.
pub struct Buffer {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl Buffer {
    /// The message of a case: `case.size` pattern bytes at `case.offset` past a
    /// 64-byte boundary.
    pub fn message(case: Case) -> Buffer {
        let offset = case.unsigned_offset();
        let mut storage = vec![0u8; case.size + offset + ALIGN];
        let start = storage.as_ptr().align_offset(ALIGN) + offset;
        let mut x: u32 = 0x9e37_79b9;
        for byte in &mut storage[start..start + case.size] {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *byte = x as u8;
        }
        Buffer {
            storage,
            start,
            len: case.size,
        }
    }
}

impl Deref for Buffer {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
}

impl DerefMut for Buffer {
    fn deref_mut(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }
}

/// The key every cipher implementation uses.
pub const KEY: [u8; 32] = [
    0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f,
    0x90, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0x9b, 0x9c, 0x9d, 0x9e, 0x9f,
];

/// Writes message number `n` into the first bytes of a nonce, so every call uses a
/// fresh nonce (as real traffic does) and no setup can be hoisted out of the loop.
pub fn next_nonce(nonce: &mut [u8], n: &mut u64) {
    *n = n.wrapping_add(1);
    nonce[..8].copy_from_slice(&n.to_le_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_share_bytes_and_alignment() {
        for offset in [0, 1, 7, 63] {
            let case = Case { size: 100, offset };
            let (a, b) = (Buffer::message(case), Buffer::message(case));
            assert_eq!(&a[..], &b[..]);
            assert_eq!(a.len(), 100);
            assert_eq!(a.as_ptr() as usize % ALIGN, case.unsigned_offset());
        }
        let short = Buffer::message(Case {
            size: 10,
            offset: 0,
        });
        assert_eq!(
            &short[..],
            &Buffer::message(Case {
                size: 100,
                offset: 0
            })[..10]
        );
    }
}
