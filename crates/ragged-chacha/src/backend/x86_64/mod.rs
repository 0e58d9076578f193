//! x86-64 backends: thin entry points that instantiate the generic kernel with the
//! lane types of each instruction-set level, under the matching `target_feature`.

mod xmm;
mod ymm;
mod zmm;

pub(super) use self::xmm::{Sse2, Ssse3, Xmm};
pub(super) use self::ymm::Ymm;
pub(super) use self::zmm::Zmm;
use super::generic;
use super::generic::Absorb;
use crate::state::State;

/// Defines one backend's entry points, the same three for every instruction set
/// (`<name>::xor_keystream`, `<name>::seal`, `<name>::open`): the generic kernel
/// instantiated with the given lane types (wide, middle, narrow vertical; row form)
/// under `target_feature`.
macro_rules! entry_points {
    ($(#[$doc:meta])* $name:ident, $features:literal, $wide:ty, $mid:ty, $narrow:ty, $rows:ty) => {
        $(#[$doc])*
        pub(crate) mod $name {
            use super::*;

            /// The kernel contract ([`generic::xor_keystream_rows`]) on this backend.
            ///
            /// # Safety
            /// The CPU has the features named in `target_feature`; `input` is readable
            /// and `output` writable for `len` bytes, equal or disjoint.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn xor_keystream(
                state: &State,
                counter: u64,
                input: *const u8,
                output: *mut u8,
                len: usize,
            ) {
                // SAFETY: the lane types need only the features enabled for this
                // function; the pointer contract is forwarded.
                unsafe {
                    generic::xor_keystream_rows::<$wide, $mid, $narrow, $rows>(
                        state, counter, input, output, len,
                    )
                }
            }

            /// The one-pass AEAD seal ([`generic::seal`]) on this backend.
            ///
            /// # Safety
            /// The CPU has the features named in `target_feature`; the pointer and
            /// length contract of [`generic::seal`].
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn seal<A: Absorb>(
                state: &State,
                input: *const u8,
                output: *mut u8,
                len: usize,
                mac: &mut A,
            ) {
                // SAFETY: as for `xor_keystream`.
                unsafe { generic::seal::<$wide, $rows, A>(state, input, output, len, mac) }
            }

            /// The AEAD open ([`generic::open`]) on this backend.
            ///
            /// # Safety
            /// As for `seal`.
            #[target_feature(enable = $features)]
            pub(crate) unsafe fn open<A: Absorb>(
                state: &State,
                input: *const u8,
                output: *mut u8,
                len: usize,
                mac: &mut A,
            ) {
                // SAFETY: as for `xor_keystream`.
                unsafe { generic::open::<$wide, $rows, A>(state, input, output, len, mac) }
            }
        }
    };
}

entry_points!(
    /// 4-block batches with SSE2 only; up to 3 blocks in the row form.
    sse2, "sse2", Xmm<Sse2>, Xmm<Sse2>, Xmm<Sse2>, Xmm<Sse2>
);
entry_points!(
    /// 4-block batches with SSSE3 byte-shuffle rotations; up to 3 blocks in the row form.
    ssse3, "ssse3", Xmm<Ssse3>, Xmm<Ssse3>, Xmm<Ssse3>, Xmm<Ssse3>
);
entry_points!(
    /// 8-block AVX2 batches; a remainder of up to 6 blocks in the row form (one to
    /// three sets of 2 blocks). BMI2 (every AVX2 CPU has it, but a hypervisor may
    /// mask it) gives the AEAD seal's interleaved scalar Poly1305 `mulx`, whose free
    /// choice of registers saves a third of its instructions.
    avx2, "avx2,bmi2", Ymm, Ymm, Ymm, Ymm
);
entry_points!(
    /// 16-block AVX-512 batches with native rotates; a remainder of up to 12 blocks in
    /// the row form (one to three sets of 4 blocks); partial vectors with AVX-512BW
    /// masks.
    avx512, "avx512f,avx512bw,avx512vl", Zmm, Zmm, Zmm, Zmm
);
