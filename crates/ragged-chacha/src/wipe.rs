//! Wiping secrets: one volatile store of the whole array.

/// Overwrites `array` with zeros (its elements' defaults) in a way the optimizer keeps:
/// one volatile store of the whole array, which compiles to a few wide stores, then a
/// compiler fence so the wipe is not moved before the array's last use.
///
/// Not `zeroize`, which stores element by element (volatile stores are never merged):
/// 32 byte stores for a key. A 64-byte AEAD seal wiped about 70 elements that way;
/// whole-array stores made short seals and opens measurably faster (0162fb8; figures
/// in `docs/tuning.md`).
#[inline(always)]
pub(crate) fn wipe<E: Copy + Default, const N: usize>(array: &mut [E; N]) {
    // SAFETY: a valid, aligned, exclusively borrowed array.
    unsafe { core::ptr::write_volatile(array, [E::default(); N]) };
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wipes_every_element() {
        let mut bytes = [0xa5u8; 64];
        wipe(&mut bytes);
        assert_eq!(bytes, [0; 64]);
        let mut rows = [[u64::MAX; 2]; 9];
        wipe(&mut rows);
        assert_eq!(rows, [[0; 2]; 9]);
    }
}
