//! Every copy strategy this CPU can run (`Kernel::ALL` that `is_available`, the word
//! strategy in both byte orders among them), at random lengths up to 64 KiB, offsets,
//! overlaps and directions, against std's `copy_from_slice`, `copy_within` and `fill`:
//! identical bytes, guard zones around the destination untouched, and (under the
//! sanitizer) no read past an exactly-sized source. The safe API's range checks are
//! compared with the arithmetic rule they implement.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use ragged_fuzz::{Guarded, pseudo_random};
use ragged_mem::Error;
use ragged_mem::strategy::Kernel;

/// A length, mostly small (where the branchy head/tail code lives), up to 64 KiB.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Len {
    /// 0 ..= 64.
    Small(u8),
    /// 0 ..= 4096.
    Medium(u16),
    /// 0 ..= 65536.
    Large(u32),
}

impl Len {
    fn get(self) -> usize {
        match self {
            Len::Small(n) => usize::from(n) % 65,
            Len::Medium(n) => usize::from(n) % 4097,
            Len::Large(n) => n as usize % 65537,
        }
    }
}

#[derive(Arbitrary, Debug)]
enum Op {
    /// `memcpy` between two buffers, each at its own alignment.
    Copy {
        len: Len,
        src_shift: u8,
        dst_shift: u8,
    },
    /// `memmove` inside one buffer, `distance` bytes apart (overlapping when it is
    /// below `len`), copying down or up.
    Move {
        len: Len,
        shift: u8,
        distance: u16,
        upward: bool,
    },
    /// `memset`.
    Fill { len: Len, shift: u8, byte: u8 },
    /// The safe `try_copy_within` with arbitrary (possibly invalid) bounds.
    CopyWithin {
        buf_len: u16,
        start: u16,
        end: u16,
        dest: u16,
    },
    /// The safe `try_copy` with lengths that may differ.
    SafeCopy { dst_len: u16, src_len: u16 },
}

#[derive(Arbitrary, Debug)]
struct Input {
    seed: u64,
    ops: Vec<Op>,
}

const MAX_OPS: usize = 3;

fuzz_target!(|input: Input| {
    let kernels: Vec<Kernel> = Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect();
    for (n, op) in input.ops.iter().take(MAX_OPS).enumerate() {
        let seed = input.seed ^ ((n as u64) << 56);
        match *op {
            Op::Copy {
                len,
                src_shift,
                dst_shift,
            } => {
                let len = len.get();
                let shift = usize::from(src_shift % 64);
                // Exactly sized: a read past the source's end is a sanitizer error.
                let src = pseudo_random(seed, shift + len).into_boxed_slice();
                let src = &src[shift..];
                // Every destination byte starts as the complement of the byte meant for
                // it, so a byte the copy skips cannot already be right.
                let poison: Vec<u8> = src.iter().map(|b| !b).collect();
                for &kernel in &kernels {
                    let mut dst = Guarded::new(&poison, dst_shift.into(), 0x5A);
                    // SAFETY: `src` and the region are distinct allocations of `len`
                    // bytes each; the kernel is available (filtered above).
                    unsafe { kernel.memcpy(dst.region_mut().as_mut_ptr(), src.as_ptr(), len) };
                    dst.assert_guards(&(kernel, op));
                    check_bytes(kernel, op, dst.region(), src);
                }
            }
            Op::Move {
                len,
                shift,
                distance,
                upward,
            } => {
                let len = len.get();
                // Overlapping (distance below len) and disjoint moves alike.
                let distance = usize::from(distance) % (len + 65);
                let (src_at, dst_at) = if upward { (0, distance) } else { (distance, 0) };
                let contents = pseudo_random(seed, len + distance);
                let mut expected = contents.clone();
                expected.copy_within(src_at..src_at + len, dst_at);
                for &kernel in &kernels {
                    let mut buf = Guarded::new(&contents, shift.into(), 0x5A);
                    let base = buf.region_mut().as_mut_ptr();
                    // SAFETY: `src_at + len` and `dst_at + len` are both at most
                    // `len + distance`, the region's length, so both ranges lie inside
                    // it; `memmove` allows the overlap; the kernel is available.
                    unsafe { kernel.memmove(base.add(dst_at), base.add(src_at), len) };
                    buf.assert_guards(&(kernel, op));
                    check_bytes(kernel, op, buf.region(), &expected);
                }
            }
            Op::Fill { len, shift, byte } => {
                let len = len.get();
                let mut contents = pseudo_random(seed, len);
                // No byte already holds the fill value.
                for b in &mut contents {
                    if *b == byte {
                        *b = !byte;
                    }
                }
                let expected = vec![byte; len];
                for &kernel in &kernels {
                    let mut buf = Guarded::new(&contents, shift.into(), 0x5A);
                    let region = buf.region_mut();
                    // SAFETY: the region is writable for `len` bytes; the kernel is
                    // available.
                    unsafe { kernel.memset(region.as_mut_ptr(), byte, len) };
                    buf.assert_guards(&(kernel, op));
                    check_bytes(kernel, op, buf.region(), &expected);
                }
                let mut buf = Guarded::new(&contents, shift.into(), 0x5A);
                ragged_mem::fill(buf.region_mut(), byte);
                buf.assert_guards(&op);
                assert_eq!(buf.region(), &expected[..], "fill");
            }
            Op::CopyWithin {
                buf_len,
                start,
                end,
                dest,
            } => {
                let len = usize::from(buf_len) % 4097;
                let (start, end, dest) = (usize::from(start), usize::from(end), usize::from(dest));
                // Small bounds often, so the valid case is common.
                let (start, end, dest) = if buf_len & 0x8000 == 0 {
                    (start % (len + 2), end % (len + 2), dest % (len + 2))
                } else {
                    (start, end, dest)
                };
                let contents = pseudo_random(seed, len);
                let mut buf = Guarded::new(&contents, 0, 0x5A);
                let result = ragged_mem::try_copy_within(buf.region_mut(), start..end, dest);
                buf.assert_guards(&op);
                let rule = if start > end {
                    Err(Error::SourceRangeInverted { start, end })
                } else if end > len {
                    Err(Error::SourceOutOfBounds { end, len })
                } else if dest + (end - start) > len {
                    Err(Error::DestinationOutOfBounds {
                        dest,
                        count: end - start,
                        len,
                    })
                } else {
                    Ok(())
                };
                assert_eq!(result, rule, "{op:?}");
                let mut expected = contents;
                if rule.is_ok() {
                    expected.copy_within(start..end, dest);
                }
                assert_eq!(buf.region(), &expected[..], "{op:?}");
            }
            Op::SafeCopy { dst_len, src_len } => {
                let (dst_len, src_len) = (usize::from(dst_len) % 4097, usize::from(src_len) % 4097);
                // Equal lengths half the time.
                let src_len = if src_len & 1 == 0 { dst_len } else { src_len };
                let src = pseudo_random(seed, src_len);
                let poison = vec![0xC3; dst_len];
                let mut dst = Guarded::new(&poison, 0, 0x5A);
                let result = ragged_mem::try_copy(dst.region_mut(), &src);
                dst.assert_guards(&op);
                if dst_len == src_len {
                    assert_eq!(result, Ok(()));
                    assert_eq!(dst.region(), &src[..]);
                } else {
                    assert_eq!(result, Err(Error::LengthMismatch { dst_len, src_len }));
                    assert_eq!(dst.region(), &poison[..]);
                }
            }
        }
    }
});

/// Panics with the first differing offset if `got` is not `expected`.
fn check_bytes(kernel: Kernel, op: &Op, got: &[u8], expected: &[u8]) {
    if got != expected {
        let first = got.iter().zip(expected).position(|(a, b)| a != b);
        panic!(
            "{} on {op:?}: first wrong byte at {first:?} of {}",
            kernel.name(),
            expected.len()
        );
    }
}
