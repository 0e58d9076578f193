//! Property tests: any buffer, any sub-ranges, any kernel gives what the standard
//! library gives.

use proptest::prelude::*;
use ragged_mem::strategy::Kernel;

fn kernel() -> impl Strategy<Value = Kernel> {
    proptest::sample::select(
        Kernel::ALL
            .into_iter()
            .filter(|k| k.is_available())
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #[test]
    fn copy_equals_copy_from_slice(
        data in proptest::collection::vec(any::<u8>(), 0..3000),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        dst_off in 0usize..64,
        k in kernel(),
    ) {
        let start = a.index(data.len() + 1);
        let end = start + b.index(data.len() - start + 1);
        let src = &data[start..end];
        let n = src.len();
        let mut ours = vec![0x5au8; n + dst_off + 8];
        let mut expect = ours.clone();
        // SAFETY: `ours` has `n` bytes from `dst_off`; `src` is a distinct slice.
        unsafe { k.memcpy(ours.as_mut_ptr().add(dst_off), src.as_ptr(), n) };
        expect[dst_off..dst_off + n].copy_from_slice(src);
        prop_assert_eq!(ours, expect, "kernel {}", k.name());
    }

    #[test]
    fn move_equals_copy_within(
        mut data in proptest::collection::vec(any::<u8>(), 1..3000),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        c in any::<prop::sample::Index>(),
        k in kernel(),
    ) {
        let len = data.len();
        let n = a.index(len + 1);
        let src = b.index(len - n + 1);
        let dst = c.index(len - n + 1);
        let mut expect = data.clone();
        expect.copy_within(src..src + n, dst);
        let base = data.as_mut_ptr();
        // SAFETY: both ranges lie inside `data`.
        unsafe { k.memmove(base.add(dst), base.add(src), n) };
        prop_assert_eq!(data, expect, "kernel {} n {} src {} dst {}", k.name(), n, src, dst);
    }

    #[test]
    fn fill_equals_slice_fill(
        mut data in proptest::collection::vec(any::<u8>(), 0..3000),
        a in any::<prop::sample::Index>(),
        b in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        k in kernel(),
    ) {
        let start = a.index(data.len() + 1);
        let n = b.index(data.len() - start + 1);
        let mut expect = data.clone();
        expect[start..start + n].fill(byte);
        // SAFETY: the range lies inside `data`.
        unsafe { k.memset(data.as_mut_ptr().add(start), byte, n) };
        prop_assert_eq!(data, expect, "kernel {}", k.name());
    }

    #[test]
    fn safe_copy_within_equals_the_standard_library(
        mut data in proptest::collection::vec(any::<u8>(), 0..2000),
        s in 0usize..2100,
        e in 0usize..2100,
        dest in 0usize..2100,
    ) {
        let mut expect = data.clone();
        let ours = ragged_mem::try_copy_within(&mut data, s..e, dest);
        let valid = s <= e && e <= expect.len() && dest + (e - s) <= expect.len();
        prop_assert_eq!(ours.is_ok(), valid);
        if valid {
            expect.copy_within(s..e, dest);
        }
        prop_assert_eq!(data, expect);
    }
}
