//! 32-bit Arm (armv7) backend: 4-block NEON batches written with `asm!` (see
//! [`neon`]), used when the CPU reports NEON in `AT_HWCAP`.
//!
//! The round function lives in the assembly, not in [`super::generic`]: NEON vectors
//! cannot be Rust values on this target without the unstable intrinsics, so the
//! `Lanes` form does not apply. What stays shared is the contract: full batches, then
//! the remainder as one batch, the partial vector finished over an overlapping window.

mod neon;

use self::neon::{Frame, batch4};
use crate::state::State;

/// `HWCAP_NEON` in the Linux `AT_HWCAP` word for 32-bit Arm.
pub(crate) const HWCAP_NEON: u32 = 1 << 12;

/// Whether an `AT_HWCAP` word reports NEON. A pure function of the word, so tests can
/// feed it words of CPUs they do not run on.
pub(crate) fn neon_in_hwcap(hwcap: u32) -> bool {
    hwcap & HWCAP_NEON != 0
}

/// The running CPU's `AT_HWCAP` word, read once per process (Linux with `std`).
#[cfg(all(feature = "std", target_os = "linux"))]
pub(crate) fn hwcap() -> u32 {
    use core::sync::atomic::{AtomicU32, Ordering};
    /// The word plus `READ`; 0 until first read. 32-bit Arm's hwcap bits stop well
    /// below bit 31.
    static HWCAP: AtomicU32 = AtomicU32::new(0);
    const READ: u32 = 1 << 31;
    match HWCAP.load(Ordering::Relaxed) {
        0 => {
            // SAFETY: `getauxval` only reads the process's auxiliary vector.
            let word = unsafe { libc::getauxval(libc::AT_HWCAP) } as u32 & !READ;
            HWCAP.store(word | READ, Ordering::Relaxed);
            word
        }
        n => n & !READ,
    }
}

/// Without `std` (or off Linux) there is no run-time check: NEON counts as present
/// only if the build enables it (`-C target-feature=+neon`, which stable Rust does not
/// report to `cfg` on Arm today, so in practice the portable backend is used).
#[cfg(not(all(feature = "std", target_os = "linux")))]
pub(crate) fn hwcap() -> u32 {
    if cfg!(target_feature = "neon") {
        HWCAP_NEON
    } else {
        0
    }
}

/// Bytes in one 4-block batch.
const BATCH: usize = 256;

/// XORs keystream blocks `counter, counter + 1, …` into `len` bytes: 4-block batches,
/// the last one taking whatever remains (1 ..= 256 bytes) with its partial vector
/// finished over the message's last 16 bytes. Only a message shorter than 16 bytes
/// goes through a 16-byte buffer.
///
/// # Safety
/// The CPU has NEON; `input` is readable and `output` writable for `len` bytes, equal
/// or disjoint.
pub(crate) unsafe fn neon(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    if len == 0 {
        return;
    }
    let w = &state.words;
    let mut frame = Frame([0; 44]);
    frame.0[..12].copy_from_slice(&w[..12]);
    frame.0[20] = w[14];
    frame.0[21] = w[15];
    let rounds = state.double_rounds;
    debug_assert!(rounds >= 1);
    // SAFETY: the CPU has NEON (caller). Every call gets `1 ..= 256` bytes of the
    // message; a partial last vector's window (the message's last 16 bytes) lies in
    // the message because the message is at least 16 bytes long, and the bytes of it
    // before this call's range were written, final, by the earlier calls. The short
    // message case runs the kernel on a 16-byte buffer of our own.
    unsafe {
        if len < 16 {
            let mut buf = [0u8; 16];
            core::ptr::copy_nonoverlapping(input, buf.as_mut_ptr(), len);
            set_counter(&mut frame, w[13], counter);
            batch4(&mut frame, buf.as_ptr(), buf.as_mut_ptr(), 16, rounds);
            core::ptr::copy_nonoverlapping(buf.as_ptr(), output, len);
            core::ptr::write_volatile(&mut buf, [0; 16]);
        } else {
            let mut done = 0;
            let mut counter = counter;
            while done < len {
                let n = (len - done).min(BATCH);
                set_counter(&mut frame, w[13], counter);
                batch4(&mut frame, input.add(done), output.add(done), n, rounds);
                done += n;
                counter = counter.wrapping_add(4);
            }
        }
        // The frame held the key words and keystream.
        core::ptr::write_volatile(&mut frame, Frame([0; 44]));
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Words 12 and 13 of blocks `counter .. counter + 4` into the frame: the low half of
/// each block counter, and `word13` plus its high half (the 64-bit counter's carry).
#[inline(always)]
fn set_counter(frame: &mut Frame, word13: u32, counter: u64) {
    for i in 0..4 {
        let block = counter.wrapping_add(i as u64);
        frame.0[12 + i] = block as u32;
        frame.0[16 + i] = word13.wrapping_add((block >> 32) as u32);
    }
}
