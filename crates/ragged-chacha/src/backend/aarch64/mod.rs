//! aarch64 backend: the generic kernel instantiated with NEON lanes under
//! `target_feature(enable = "neon")`.

mod neon;

pub(super) use self::neon::Neon;
use super::generic::{self, Absorb};
use crate::state::State;

/// 4-block NEON batches; a remainder of up to 3 blocks in the row form (one to three
/// interleaved single-block sets, `MAX_ROW_SETS`), else one more 4-block batch; the partial vector
/// with a `tbl` permutation over an overlapping window.
///
/// # Safety
/// The CPU has NEON; `input` is readable and `output` writable for `len` bytes, equal
/// or disjoint.
#[target_feature(enable = "neon")]
pub(crate) unsafe fn neon(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: `Neon` needs only the feature enabled for this function; the pointer
    // contract is forwarded.
    unsafe {
        generic::xor_keystream_rows::<Neon, Neon, Neon, Neon>(state, counter, input, output, len)
    }
}

/// The one-pass AEAD seal ([`generic::seal`]) with NEON: the Poly1305 key block in the
/// same batch as the first message blocks.
///
/// # Safety
/// The CPU has NEON; the pointer and length contract of [`generic::seal`].
#[target_feature(enable = "neon")]
pub(crate) unsafe fn neon_seal<A: Absorb>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    // SAFETY: as for `neon`; the contract is forwarded.
    unsafe { generic::seal::<Neon, Neon, A>(state, input, output, len, mac) }
}

/// The AEAD open ([`generic::open`]) on NEON.
///
/// # Safety
/// As for [`neon_seal`].
#[target_feature(enable = "neon")]
pub(crate) unsafe fn neon_open<A: Absorb>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    // SAFETY: as for `neon`; the contract is forwarded.
    unsafe { generic::open::<Neon, Neon, A>(state, input, output, len, mac) }
}
