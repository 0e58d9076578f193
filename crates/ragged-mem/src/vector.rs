//! The copy and fill algorithm for targets where unaligned access is cheap (x86-64,
//! aarch64), written once over a vector type.
//!
//! Shape, by size `n`:
//!
//! - `n <= 16`: two overlapping scalar accesses (first and last 8, 4, 2 bytes, or 1);
//! - `n <= 32`: the first and last 16 bytes;
//! - `n < V` (only with 64-byte vectors): the first and last 32 bytes, as 16-byte
//!   pairs;
//! - `n <= 2V`, `4V`, `8V` (`V` the vector width): the first and last half of the
//!   size class, as 2, 4 or 8 unaligned vectors;
//! - above that, a loop of four vectors per step with unaligned loads and aligned
//!   stores, after the first vector (unaligned) has covered the bytes below the first
//!   aligned destination address, and before the last four (unaligned) cover the end.
//!
//! Every size class loads everything it needs before storing anything, so all of them
//! are correct for overlapping buffers in either direction; only the loop has a
//! direction, and the backward loop mirrors the forward one.
//!
//! A vector with byte-masked accesses ([`Masked`], AVX-512BW) can replace overlapping
//! first/last accesses with masked ones: the loop's bytes below the first aligned
//! destination address and above the last one are then one masked access each, and
//! every other store is aligned ([`loop_forward_masked`], [`loop_backward_masked`]).
//! Whether that is faster is a property of the core; the instruction-set module says
//! which it uses where.
//!
//! All of it is `#[inline(always)]`: each instruction-set module instantiates it inside
//! one `#[target_feature]` entry point, where the vector intrinsics inline fully.

use core::mem::size_of;

/// A vector register as the copy sees it: unaligned loads, stores of either alignment.
pub(crate) trait Vector: Copy {
    /// Bytes in one vector.
    const SIZE: usize;

    /// Loads `SIZE` bytes from `p`, which need not be aligned.
    ///
    /// # Safety
    /// `p` must be valid for reading `SIZE` bytes, and the instruction set must be
    /// enabled in the calling function.
    unsafe fn load(p: *const u8) -> Self;

    /// Stores to `p`, which need not be aligned.
    ///
    /// # Safety
    /// `p` must be valid for writing `SIZE` bytes; instruction set as for `load`.
    unsafe fn store(p: *mut u8, v: Self);

    /// Stores to `p`, which must be aligned to `SIZE`.
    ///
    /// # Safety
    /// As for `store`, and `p` aligned to `SIZE`.
    unsafe fn store_aligned(p: *mut u8, v: Self);

    /// A vector with every byte equal to `b`.
    ///
    /// # Safety
    /// The instruction set must be enabled in the calling function.
    unsafe fn splat(b: u8) -> Self;
}

/// A vector whose loads and stores can be limited to its first `k` bytes: the others
/// are neither read nor written, and cannot fault.
// Only x86-64 (AVX-512BW) has byte masks so far; so the masked copies below, too.
#[cfg(target_arch = "x86_64")]
pub(crate) trait Masked: Vector {
    /// Loads the first `k <= SIZE` bytes at `p`; the other bytes of the result are
    /// zero.
    ///
    /// # Safety
    /// `k <= SIZE`; `p` valid for reading `k` bytes (any `p` when `k` is 0); the
    /// instruction set enabled in the calling function.
    unsafe fn load_first(p: *const u8, k: usize) -> Self;

    /// Stores the first `k <= SIZE` bytes of `v` to `p`.
    ///
    /// # Safety
    /// `k <= SIZE`; `p` valid for writing `k` bytes (any `p` when `k` is 0); the
    /// instruction set as for `load_first`.
    unsafe fn store_first(p: *mut u8, v: Self, k: usize);
}

/// Loads a `T` from a possibly unaligned address.
///
/// # Safety
/// `p` valid for reading `size_of::<T>()` bytes.
#[inline(always)]
unsafe fn ld<T: Copy>(p: *const u8) -> T {
    // SAFETY: caller guarantee; `read_unaligned` has no alignment requirement.
    unsafe { p.cast::<T>().read_unaligned() }
}

/// Stores a `T` to a possibly unaligned address.
///
/// # Safety
/// `p` valid for writing `size_of::<T>()` bytes.
#[inline(always)]
unsafe fn st<T: Copy>(p: *mut u8, v: T) {
    // SAFETY: caller guarantee; `write_unaligned` has no alignment requirement.
    unsafe { p.cast::<T>().write_unaligned(v) }
}

/// Copies the first and last `size_of::<T>()` bytes, both loaded before either is
/// stored: covers every `n` from `size_of::<T>()` to twice that, overlap-safe.
///
/// # Safety
/// `size_of::<T>() <= n`; `n` bytes valid at each pointer.
#[inline(always)]
unsafe fn ends<T: Copy>(dst: *mut u8, src: *const u8, n: usize) {
    let k = size_of::<T>();
    // SAFETY: `k <= n`, so `0 .. k` and `n - k .. n` are inside both buffers.
    unsafe {
        let a = ld::<T>(src);
        let b = ld::<T>(src.add(n - k));
        st(dst, a);
        st(dst.add(n - k), b);
    }
}

/// Copies `n <= 16` bytes with two overlapping scalar accesses; overlap-safe.
///
/// # Safety
/// `n <= 16`; `n` bytes valid at each pointer.
#[inline(always)]
pub(crate) unsafe fn copy_upto16(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n <= 16);
    // SAFETY: each branch's access width is at most `n`.
    unsafe {
        if n >= 8 {
            ends::<u64>(dst, src, n);
        } else if n >= 4 {
            ends::<u32>(dst, src, n);
        } else if n >= 2 {
            ends::<u16>(dst, src, n);
        } else if n == 1 {
            *dst = *src;
        }
    }
}

/// Whether a size class stores its vectors highest address first: in a move
/// (`MOVE`) down, to a destination below the source. The order does not matter for
/// correctness (every load comes first) but for the next access to those bytes: a
/// load that overlaps stores still in flight waits for them, and when the same bytes
/// are moved again, as a buffer compacted or a queue shifted in steps does, the
/// source's low bytes are the destination's high ones just stored. Storing those
/// first lets the next move's first loads go sooner (measured in the commit that
/// added it; figures in `docs/tuning.md`). A copy between disjoint buffers (`MOVE`
/// false) keeps the ascending order, and no compare.
#[inline(always)]
fn high_first<const MOVE: bool>(dst: *mut u8, src: *const u8) -> bool {
    MOVE && dst.addr() < src.addr()
}

/// Marks the stores of a move down as the branch taken, so that the ascending order
/// (copies, moves up) keeps the straight path it had before [`high_first`].
#[cold]
#[inline(always)]
fn moves_down() {}

/// Stores each `(offset, vector)` at `dst + offset`: in the order written, or where
/// `high_first` (see [`high_first`]) in the reverse order. A macro rather than a
/// function taking arrays: unoptimised, an array passed by value is a `memcpy` call,
/// which the exported `memcpy` cannot make (`scripts/c-symbols-check`). The caller's
/// `unsafe` block covers the stores (each within its destination, the vector type
/// enabled).
macro_rules! store_in_order {
    ($v:ty, $dst:expr, $high_first:expr; $(($at:expr, $x:expr)),+ $(,)?) => {
        if !$high_first {
            $(<$v>::store($dst.add($at), $x);)+
        } else {
            moves_down();
            store_in_order!(@reversed $v, $dst; [$(($at, $x))+] []);
        }
    };
    (@reversed $v:ty, $dst:expr; [] [$(($at:expr, $x:expr))*]) => {
        $(<$v>::store($dst.add($at), $x);)*
    };
    (@reversed $v:ty, $dst:expr; [($at:expr, $x:expr) $($rest:tt)*] [$($done:tt)*]) => {
        store_in_order!(@reversed $v, $dst; [$($rest)*] [($at, $x) $($done)*])
    };
}

/// Copies `16 < n <= 8 * V::SIZE` bytes: every load before any store; overlap-safe.
///
/// # Safety
/// `16 < n <= 8 * V::SIZE`; `n` bytes valid at each pointer; `H` and `V` enabled.
#[inline(always)]
pub(crate) unsafe fn copy_medium<H: Vector, V: Vector, const MOVE: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    debug_assert!(H::SIZE == 16 && n > 16 && n <= 8 * V::SIZE);
    let w = V::SIZE;
    // SAFETY: in each branch the accesses are the first and last `k` bytes with
    // `k <= n`, and all loads come before all stores.
    unsafe {
        if n <= 32 {
            // Two vectors in ascending order, as in `copy_upto8v_from1v`.
            let a = H::load(src);
            let b = H::load(src.add(n - 16));
            H::store(dst, a);
            H::store(dst.add(n - 16), b);
        } else if n < w {
            // Only with 64-byte vectors: the first and last 32 bytes.
            let a = H::load(src);
            let b = H::load(src.add(16));
            let c = H::load(src.add(n - 32));
            let e = H::load(src.add(n - 16));
            let high_first = high_first::<MOVE>(dst, src);
            store_in_order!(H, dst, high_first; (0, a), (16, b), (n - 32, c), (n - 16, e));
        } else {
            copy_upto8v_from1v::<V, MOVE>(dst, src, n);
        }
    }
}

/// Copies `V::SIZE <= n <= 8 * V::SIZE` bytes as the first and last 1, 2 or 4
/// vectors (the size classes `2V`, `4V`, `8V`), all loaded before any is stored;
/// overlap-safe; a move (`MOVE`) stores in [`high_first`]'s order.
///
/// # Safety
/// `V::SIZE <= n <= 8 * V::SIZE`; `n` bytes valid at each pointer; `V` enabled.
#[inline(always)]
pub(crate) unsafe fn copy_upto8v_from1v<V: Vector, const MOVE: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    let w = V::SIZE;
    debug_assert!(n >= w && n <= 8 * w);
    // SAFETY: in each branch the accesses are the first and last `k` bytes with
    // `k <= n`, and all loads come before all stores.
    unsafe {
        if n <= 2 * w {
            // Two vectors stay in ascending order: reversed, some moves down gained
            // and others lost as much (docs/tuning.md, memcpy / memmove).
            let a = V::load(src);
            let b = V::load(src.add(n - w));
            V::store(dst, a);
            V::store(dst.add(n - w), b);
        } else if n <= 4 * w {
            let high_first = high_first::<MOVE>(dst, src);
            let a = V::load(src);
            let b = V::load(src.add(w));
            let c = V::load(src.add(n - 2 * w));
            let e = V::load(src.add(n - w));
            store_in_order!(V, dst, high_first; (0, a), (w, b), (n - 2 * w, c), (n - w, e));
        } else {
            copy_upto8v::<V, MOVE>(dst, src, n);
        }
    }
}

/// Copies `4 * V::SIZE <= n <= 8 * V::SIZE` bytes as the first and last four vectors,
/// all loaded before any is stored; overlap-safe; a move (`MOVE`) stores in
/// [`high_first`]'s order. Also the direct entry for callers that already know the
/// size is in this class.
///
/// # Safety
/// `4 * V::SIZE <= n <= 8 * V::SIZE`; `n` bytes valid at each pointer; `V` enabled.
#[inline(always)]
pub(crate) unsafe fn copy_upto8v<V: Vector, const MOVE: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    let w = V::SIZE;
    debug_assert!(n >= 4 * w && n <= 8 * w);
    // SAFETY: `4w <= n`, so `0 .. 4w` and `n - 4w .. n` lie inside both buffers.
    unsafe {
        let a = V::load(src);
        let b = V::load(src.add(w));
        let c = V::load(src.add(2 * w));
        let e = V::load(src.add(3 * w));
        let f = V::load(src.add(n - 4 * w));
        let g = V::load(src.add(n - 3 * w));
        let h = V::load(src.add(n - 2 * w));
        let i = V::load(src.add(n - w));
        store_in_order!(V, dst, high_first::<MOVE>(dst, src);
            (0, a), (w, b), (2 * w, c), (3 * w, e),
            (n - 4 * w, f), (n - 3 * w, g), (n - 2 * w, h), (n - w, i),
        );
    }
}

/// Copies any `n`, lowest address first in the loop; a move (`MOVE`) orders the size
/// classes' stores as [`high_first`] says.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src`; `H` (16-byte) and
/// `V` enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy_forward<H: Vector, V: Vector, const MOVE: bool>(
    dst: *mut u8,
    src: *const u8,
    n: usize,
) {
    if n <= 16 {
        // SAFETY: caller guarantee.
        return unsafe { copy_upto16(dst, src, n) };
    }
    if n <= 8 * V::SIZE {
        // SAFETY: caller guarantee; size class checked.
        return unsafe { copy_medium::<H, V, MOVE>(dst, src, n) };
    }
    // SAFETY: caller guarantee, `n > 8 * V::SIZE`.
    unsafe { loop_forward::<V>(dst, src, n) }
}

/// Copies any `n`, highest address first in the loop. Its size classes keep the
/// ascending store order: a move this way has its destination above its source,
/// where [`high_first`] is false anyway.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst >= src`; `H` and `V`
/// enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn copy_backward<H: Vector, V: Vector>(dst: *mut u8, src: *const u8, n: usize) {
    if n <= 16 {
        // SAFETY: caller guarantee.
        return unsafe { copy_upto16(dst, src, n) };
    }
    if n <= 8 * V::SIZE {
        // SAFETY: caller guarantee; size class checked.
        return unsafe { copy_medium::<H, V, false>(dst, src, n) };
    }
    // SAFETY: caller guarantee, `n > 8 * V::SIZE`.
    unsafe { loop_backward::<V>(dst, src, n) }
}

/// The forward loop for `n > 8 * V::SIZE`.
///
/// # Safety
/// As for [`copy_forward`], with `n > 8 * V::SIZE`.
#[inline(always)]
pub(crate) unsafe fn loop_forward<V: Vector>(dst: *mut u8, src: *const u8, n: usize) {
    let w = V::SIZE;
    debug_assert!(n > 8 * w);
    // SAFETY: `n > 8w`: every access below is inside both buffers. The head and the
    // last four vectors are loaded before the loop, so stores that overlap their source
    // bytes cannot change them; each step loads its four vectors before storing them,
    // and with `dst <= src` a store never reaches source bytes a later step reads.
    unsafe {
        let head = V::load(src);
        let t0 = V::load(src.add(n - 4 * w));
        let t1 = V::load(src.add(n - 3 * w));
        let t2 = V::load(src.add(n - 2 * w));
        let t3 = V::load(src.add(n - w));
        // First aligned destination address above `dst` (`head` covers the bytes
        // below it); `skip` is in `1 ..= w`.
        let skip = w - (dst.addr() & (w - 1));
        let mut d = dst.add(skip);
        let mut s = src.add(skip);
        let d_end = dst.add(n - 4 * w);
        while d < d_end {
            let a = V::load(s);
            let b = V::load(s.add(w));
            let c = V::load(s.add(2 * w));
            let e = V::load(s.add(3 * w));
            V::store_aligned(d, a);
            V::store_aligned(d.add(w), b);
            V::store_aligned(d.add(2 * w), c);
            V::store_aligned(d.add(3 * w), e);
            d = d.add(4 * w);
            s = s.add(4 * w);
        }
        V::store(d_end, t0);
        V::store(d_end.add(w), t1);
        V::store(d_end.add(2 * w), t2);
        V::store(d_end.add(3 * w), t3);
        V::store(dst, head);
    }
}

/// The backward loop for `n > 8 * V::SIZE`.
///
/// # Safety
/// As for [`copy_backward`], with `n > 8 * V::SIZE`.
#[inline(always)]
pub(crate) unsafe fn loop_backward<V: Vector>(dst: *mut u8, src: *const u8, n: usize) {
    let w = V::SIZE;
    debug_assert!(n > 8 * w);
    // SAFETY: mirror of `loop_forward`: the tail vector and the first four are loaded
    // before the loop, each step loads before it stores, and with `dst >= src` a store
    // never reaches source bytes a later step reads.
    unsafe {
        let tail = V::load(src.add(n - w));
        let h0 = V::load(src);
        let h1 = V::load(src.add(w));
        let h2 = V::load(src.add(2 * w));
        let h3 = V::load(src.add(3 * w));
        // Offset of the last aligned destination address at or below the end; `tail`
        // covers the bytes above it.
        let mut k = n - (dst.add(n).addr() & (w - 1));
        while k > 4 * w {
            k -= 4 * w;
            let d = dst.add(k);
            let s = src.add(k);
            let a = V::load(s.add(3 * w));
            let b = V::load(s.add(2 * w));
            let c = V::load(s.add(w));
            let e = V::load(s);
            V::store_aligned(d.add(3 * w), a);
            V::store_aligned(d.add(2 * w), b);
            V::store_aligned(d.add(w), c);
            V::store_aligned(d, e);
        }
        V::store(dst, h0);
        V::store(dst.add(w), h1);
        V::store(dst.add(2 * w), h2);
        V::store(dst.add(3 * w), h3);
        V::store(dst.add(n - w), tail);
    }
}

/// The forward loop with masked ends, for any `n`: the bytes below the first aligned
/// destination address and the last `n mod V::SIZE`-or-so bytes above the last full
/// aligned vector are one masked access each, every other store is aligned, and no
/// byte is stored twice.
///
/// # Safety
/// As for [`copy_forward`] (overlap only with `dst <= src`), with `V` masked.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn loop_forward_masked<V: Masked>(dst: *mut u8, src: *const u8, n: usize) {
    let w = V::SIZE;
    // Bytes below the first aligned destination address, capped at `n`.
    let skip = (dst.addr().wrapping_neg() & (w - 1)).min(n);
    // SAFETY: every access lies inside `0 .. n` of both buffers: the head covers
    // `0 .. skip`, the loops advance `d` and `s` together while at least a step's
    // bytes are `left`, and the last masked access covers the final `left < w` bytes.
    // Each source byte is loaded before the store that writes its destination byte,
    // in increasing order, so with `dst <= src` no store reaches a source byte still
    // to be loaded. The aligned stores are at `dst + skip + k * w`, aligned by the
    // choice of `skip` (or `skip == n` and the loops do not run).
    unsafe {
        // A masked access with no byte in its mask measured slow (0b9182b), so it is
        // skipped.
        if skip != 0 {
            let head = V::load_first(src, skip);
            V::store_first(dst, head, skip);
        }
        let mut d = dst.add(skip);
        let mut s = src.add(skip);
        let mut left = n - skip;
        while left >= 4 * w {
            let a = V::load(s);
            let b = V::load(s.add(w));
            let c = V::load(s.add(2 * w));
            let e = V::load(s.add(3 * w));
            V::store_aligned(d, a);
            V::store_aligned(d.add(w), b);
            V::store_aligned(d.add(2 * w), c);
            V::store_aligned(d.add(3 * w), e);
            d = d.add(4 * w);
            s = s.add(4 * w);
            left -= 4 * w;
        }
        while left >= w {
            V::store_aligned(d, V::load(s));
            d = d.add(w);
            s = s.add(w);
            left -= w;
        }
        if left != 0 {
            let tail = V::load_first(s, left);
            V::store_first(d, tail, left);
        }
    }
}

/// The backward loop with masked ends, mirroring [`loop_forward_masked`].
///
/// # Safety
/// As for [`copy_backward`] (overlap only with `dst >= src`), with `V` masked.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) unsafe fn loop_backward_masked<V: Masked>(dst: *mut u8, src: *const u8, n: usize) {
    let w = V::SIZE;
    // Bytes above the last aligned destination address at or below the end, capped.
    let above = (dst.addr().wrapping_add(n) & (w - 1)).min(n);
    // SAFETY: mirror of `loop_forward_masked`: the tail covers `n - above .. n`, the
    // loops step `k` down while a step's bytes remain below it, the head covers
    // `0 .. k` with `k < w`. Source bytes are loaded before the stores of their
    // destination bytes, in decreasing order, so with `dst >= src` no store reaches a
    // source byte still to be loaded. `dst + k` is aligned after the tail (or
    // `above == n`, `k == 0` and the loops do not run).
    unsafe {
        let mut k = n - above;
        if above != 0 {
            let tail = V::load_first(src.add(k), above);
            V::store_first(dst.add(k), tail, above);
        }
        while k >= 4 * w {
            k -= 4 * w;
            let d = dst.add(k);
            let s = src.add(k);
            let a = V::load(s.add(3 * w));
            let b = V::load(s.add(2 * w));
            let c = V::load(s.add(w));
            let e = V::load(s);
            V::store_aligned(d.add(3 * w), a);
            V::store_aligned(d.add(2 * w), b);
            V::store_aligned(d.add(w), c);
            V::store_aligned(d, e);
        }
        while k >= w {
            k -= w;
            V::store_aligned(dst.add(k), V::load(src.add(k)));
        }
        if k != 0 {
            let head = V::load_first(src, k);
            V::store_first(dst, head, k);
        }
    }
}

/// Sets `n` bytes to `byte`.
///
/// # Safety
/// `n` bytes valid at `dst`; `H` (16-byte) and `V` enabled in the caller.
#[inline(always)]
pub(crate) unsafe fn set<H: Vector, V: Vector>(dst: *mut u8, byte: u8, n: usize) {
    let w = V::SIZE;
    // SAFETY: as in the copies, each branch writes the first and last `k <= n` bytes,
    // and the loop stays between them.
    unsafe {
        if n <= 16 {
            // Every byte is `byte`, so the product reads the same in any byte order. Not
            // `from_ne_bytes([byte; 8])`: unoptimised, that array is a `memset` call —
            // under `c-symbols`, a call to the function being defined.
            let p8 = 0x0101_0101_0101_0101 * u64::from(byte);
            if n >= 8 {
                st(dst, p8);
                st(dst.add(n - 8), p8);
            } else if n >= 4 {
                st(dst, p8 as u32);
                st(dst.add(n - 4), p8 as u32);
            } else if n >= 2 {
                st(dst, p8 as u16);
                st(dst.add(n - 2), p8 as u16);
            } else if n == 1 {
                *dst = byte;
            }
        } else if n <= 32 {
            let v = H::splat(byte);
            H::store(dst, v);
            H::store(dst.add(n - 16), v);
        } else if n < w {
            // Only with 64-byte vectors: the first and last 32 bytes.
            let v = H::splat(byte);
            H::store(dst, v);
            H::store(dst.add(16), v);
            H::store(dst.add(n - 32), v);
            H::store(dst.add(n - 16), v);
        } else if n <= 2 * w {
            let v = V::splat(byte);
            V::store(dst, v);
            V::store(dst.add(n - w), v);
        } else if n <= 4 * w {
            let v = V::splat(byte);
            V::store(dst, v);
            V::store(dst.add(w), v);
            V::store(dst.add(n - 2 * w), v);
            V::store(dst.add(n - w), v);
        } else {
            let v = V::splat(byte);
            V::store(dst, v);
            let mut d = dst.add(w - (dst.addr() & (w - 1)));
            let d_end = dst.add(n - 4 * w);
            while d < d_end {
                V::store_aligned(d, v);
                V::store_aligned(d.add(w), v);
                V::store_aligned(d.add(2 * w), v);
                V::store_aligned(d.add(3 * w), v);
                d = d.add(4 * w);
            }
            V::store(d_end, v);
            V::store(d_end.add(w), v);
            V::store(d_end.add(2 * w), v);
            V::store(d_end.add(3 * w), v);
        }
    }
}
