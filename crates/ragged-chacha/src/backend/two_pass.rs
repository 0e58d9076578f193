//! The AEAD in two passes over the message, for the backends without a one-pass kernel
//! (portable, 32-bit Arm NEON): keystream block 0 as a batch of its own for the
//! Poly1305 key, then the message through the backend's `xor_keystream`, with the MAC
//! absorbing the ciphertext before (open) or after (seal) it.

use super::generic::Absorb;
use crate::state::State;

/// Defines `seal`, `open` and `xor_burst` in the invoking module, the entry points
/// every backend exports beside its `xor_keystream`, as [`seal`] and [`open`] over that
/// `xor_keystream`, and a burst as a loop over it (no lanes across messages here).
macro_rules! entry_points {
    () => {
        /// The AEAD seal in two passes over the message ([`two_pass::seal`]).
        ///
        /// # Safety
        /// The CPU can run this module's `xor_keystream`; the pointer and length
        /// contract of [`two_pass::seal`].
        ///
        /// [`two_pass::seal`]: crate::backend::two_pass::seal
        pub(crate) unsafe fn seal<A: $crate::backend::generic::Absorb>(
            state: &$crate::state::State,
            input: *const u8,
            output: *mut u8,
            len: usize,
            mac: &mut A,
        ) {
            // SAFETY: forwarded; the CPU condition is the caller's.
            unsafe {
                $crate::backend::two_pass::seal(xor_keystream, state, input, output, len, mac)
            }
        }

        /// The AEAD open in two passes over the message ([`two_pass::open`]).
        ///
        /// # Safety
        /// As for [`seal`].
        ///
        /// [`two_pass::open`]: crate::backend::two_pass::open
        pub(crate) unsafe fn open<A: $crate::backend::generic::Absorb>(
            state: &$crate::state::State,
            input: *const u8,
            output: *mut u8,
            len: usize,
            mac: &mut A,
        ) {
            // SAFETY: forwarded; the CPU condition is the caller's.
            unsafe {
                $crate::backend::two_pass::open(xor_keystream, state, input, output, len, mac)
            }
        }

        /// A burst ([`generic::xor_burst`]'s contract) as a loop over
        /// `xor_keystream`, one job after the other.
        ///
        /// # Safety
        /// The CPU can run this module's `xor_keystream`; the contract of
        /// [`generic::xor_burst`].
        ///
        /// [`generic::xor_burst`]: crate::backend::generic::xor_burst
        pub(crate) unsafe fn xor_burst<J: $crate::backend::generic::Jobs>(
            jobs: &mut J,
            double_rounds: u32,
        ) {
            let mut state = $crate::state::State {
                words: [0; 16],
                double_rounds,
            };
            while let Some(job) = jobs.next(&mut state.words) {
                let mut counter = job.counter;
                // SAFETY: forwarded, job by job (the key's 64 bytes zeroed, then the
                // keystream XORed into them); the CPU condition is the caller's.
                unsafe {
                    if !job.key.is_null() {
                        job.key.write_bytes(0, 64);
                        xor_keystream(&state, counter, job.key, job.key, 64);
                        counter = counter.wrapping_add(1);
                        // One job at a time: every key handed out is written.
                        if J::HOLDS {
                            jobs.release();
                            if !jobs.keep(job.key) {
                                continue;
                            }
                        }
                    }
                    if job.len != 0 {
                        xor_keystream(&state, counter, job.input, job.output, job.len);
                    }
                }
            }
        }
    };
}
pub(crate) use entry_points;

/// A backend's `xor_keystream` entry point.
pub(crate) type XorKeystream = unsafe fn(&State, u64, *const u8, *mut u8, usize);

/// Keystream block 0 to `mac.key`.
///
/// # Safety
/// `xor` may be called on this CPU.
#[inline(always)]
unsafe fn key_block<A: Absorb>(xor: XorKeystream, state: &State, mac: &mut A) {
    let mut key = [0u8; 64];
    let kp = key.as_mut_ptr();
    // SAFETY: the 64-byte buffer is ours; the CPU condition is the caller's.
    unsafe { xor(state, 0, kp, kp, 64) };
    mac.key(&key);
    crate::wipe::wipe(&mut key);
}

/// The seal contract of the one-pass kernels ([`super::Backend::seal`]) in two passes:
/// the key block, the keystream from block 1 XORed into the message, then the whole
/// 16-byte blocks of the ciphertext to the MAC.
///
/// # Safety
/// `xor` may be called on this CPU; `input` readable and `output` writable for `len`
/// bytes, equal or disjoint; for RFC 8439 states `1 + ceil(len / 64) <= 2^32`.
#[inline(always)]
pub(crate) unsafe fn seal<A: Absorb>(
    xor: XorKeystream,
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    // SAFETY: forwarded; after `xor` the `len` bytes at `output` are initialised.
    unsafe {
        key_block(xor, state, mac);
        xor(state, 1, input, output, len);
        mac.absorb(core::slice::from_raw_parts(output, len & !15));
    }
}

/// The open contract ([`super::Backend::open`]) in two passes: the key block, the
/// whole 16-byte blocks of the ciphertext to the MAC, then the keystream from block 1.
///
/// # Safety
/// As for [`seal`].
#[inline(always)]
pub(crate) unsafe fn open<A: Absorb>(
    xor: XorKeystream,
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    // SAFETY: forwarded; `input` is readable for `len` bytes.
    unsafe {
        key_block(xor, state, mac);
        mac.absorb(core::slice::from_raw_parts(input, len & !15));
        xor(state, 1, input, output, len);
    }
}
