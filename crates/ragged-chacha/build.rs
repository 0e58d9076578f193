//! Names for the groups of targets the ChaCha backends are written for, so each
//! `cfg` says which group it means instead of repeating the target conditions.

fn main() {
    cfg_aliases::cfg_aliases! {
        // aarch64 NEON through `core::arch` intrinsics (little-endian: the lane code
        // reads message bytes as little-endian words).
        aarch64_neon: { all(target_arch = "aarch64", target_endian = "little") },
        // 32-bit Arm NEON through `asm!`.
        arm_neon: { all(target_arch = "arm", target_endian = "little") },
        // The targets whose SIMD backends are the generic kernel over Rust lane types,
        // with the row form and the one-pass AEAD: x86-64 and aarch64 NEON.
        lane_simd: { any(target_arch = "x86_64", aarch64_neon) },
    }
}
