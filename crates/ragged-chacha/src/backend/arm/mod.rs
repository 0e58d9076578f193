//! 32-bit Arm (armv7) backend: NEON batches written with `asm!` ([`asm`]) — four
//! blocks in the vertical form, or one or two in the row form for a short remainder —
//! behind the same entry points as every other backend ([`neon`]), used when the CPU
//! reports NEON in `AT_HWCAP` (read here).
//!
//! The round function lives in the assembly, not in [`super::generic`]: NEON vectors
//! cannot be Rust values on this target without the unstable intrinsics, so the
//! `Lanes` form does not apply. What stays shared is the contract: full batches, then
//! the remainder as one batch, the partial vector finished over an overlapping window.

mod asm;
pub(crate) mod neon;

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
            let word = unsafe { libc::getauxval(libc::AT_HWCAP) } & !READ;
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
