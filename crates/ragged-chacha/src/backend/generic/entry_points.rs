//! The one shape of a lane backend's entry points: an instruction set supplies its
//! lane types and target features, and this instantiates the kernel's three entry
//! points for it (`x86_64::{sse2, ssse3, avx2, avx512}`, `aarch64::neon`).

/// Defines one backend's entry points, the same four every backend exports
/// (`<name>::xor_keystream`, `<name>::seal`, `<name>::open`, `<name>::xor_burst`): the generic kernel
/// instantiated with the given lane types (wide, middle, narrow vertical; row form)
/// and bulk plan (`bulk`: `FULL`, `WIDE` or `PLAIN`, one of `generic::bulk`'s, see
/// [`generic::xor_keystream_rows`](super::xor_keystream_rows)) under `target_feature`. The lane types must be in
/// scope where it is invoked.
macro_rules! entry_points {
    (
        $(#[$doc:meta])* $name:ident, $features:literal, $wide:ty, $mid:ty, $narrow:ty, $rows:ty,
        bulk: $bulk:ident
    ) => {
        $(#[$doc])*
        pub(crate) mod $name {
            use super::*;
            use $crate::backend::generic::{self, Absorb};
            use $crate::state::State;

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
                    generic::xor_keystream_rows::<$wide, $mid, $narrow, $rows, { generic::bulk::$bulk }>(
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
                unsafe {
                    generic::seal::<$wide, $rows, A, { generic::bulk::$bulk }>(
                        state, input, output, len, mac,
                    )
                }
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
                unsafe {
                    generic::open::<$wide, $rows, A, { generic::bulk::$bulk }>(
                        state, input, output, len, mac,
                    )
                }
            }

            $crate::backend::generic::burst_entry_point!(bulk: $bulk, $features, $wide);
        }
    };
}
pub(crate) use entry_points;

/// `entry_points!`'s `xor_burst`, which a backend with another bulk plan than `FULL`
/// leaves out: its bursts run the kernel of its `FULL` twin (see `Backend::xor_burst`),
/// so that the burst kernels, the largest code in the crate, are compiled once.
macro_rules! burst_entry_point {
    (bulk: WIDE, $features:literal, $wide:ty) => {};
    (bulk: PLAIN, $features:literal, $wide:ty) => {};
    (bulk: FULL, $features:literal, $wide:ty) => {
        /// The burst kernel ([`generic::xor_burst`]) on this backend: the wide
        /// lanes across the jobs.
        ///
        /// # Safety
        /// The CPU has the features named in `target_feature`; the contract of
        /// [`generic::xor_burst`].
        #[target_feature(enable = $features)]
        pub(crate) unsafe fn xor_burst<J: generic::Jobs>(jobs: &mut J, double_rounds: u32) {
            // SAFETY: as for `xor_keystream`.
            unsafe { generic::xor_burst::<$wide, J>(jobs, double_rounds) }
        }
    };
}
pub(crate) use burst_entry_point;
