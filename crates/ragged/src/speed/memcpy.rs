//! The `memcpy` implementations: ragged (dispatched and with the word strategy forced;
//! with `--backends` also its x86-64 AVX2 and AVX-512 paths and the full-width one
//! (Zen 5, Intel) forced, where the CPU has them), the platform `memcpy` (through
//! `copy_from_slice`), a copy that uses words only when source and destination are
//! co-aligned, and a byte loop.
//!
//! Each call copies a separate source buffer into a destination that starts on a
//! page boundary; the case's offset (0, 1, 3, 5) is how far the source starts past
//! a 64-byte boundary, so offset 0 is a co-aligned copy and the others mismatched. The
//! source lies half a page further on than the destination (modulo the page size), the
//! same for every implementation (see [`Pair`]).
//!
//! Above [`LARGE`] bytes the two slow implementations are left out (the byte loop would
//! take about a second per 400 MB call), and every implementation and offset of a size
//! shares one source and one destination buffer, so a 400 MB case holds 800 MB rather
//! than 2 × 400 MB per cell. A shared destination holds only the last call's bytes, so
//! those runners return a fingerprint of their own output instead: 64 windows of 64
//! bytes spread from its first byte to its last, taken right after each call.

use std::cell::RefCell;
use std::hint::black_box;
use std::marker::PhantomData;
use std::rc::Rc;

use ragged_mem::strategy::Kernel;

use super::registry::{ALIGN, Case, Implementation, Role, Runner};

/// The source offsets of every size: 0 (co-aligned with the 64-byte aligned
/// destination) and 1, 3, 5 (mismatched).
pub const OFFSETS: &[isize] = &[0, 1, 3, 5];

/// Above this size only the fast implementations run, on shared buffers.
pub const LARGE: usize = 4 << 20;

/// Pushes to `$list` the `--backends` columns of the pinned kernels this CPU has, each
/// as `PerCase<$runner<…>>` made from `$arg` (`memcpy`'s and `memmove`'s runners).
macro_rules! push_pinned {
    ($list:ident, $runner:ident, $arg:expr) => {
        if RaggedAvx2::KERNEL.is_available() {
            $list.push(PerCase::<$runner<RaggedAvx2>>::boxed($arg));
        }
        if RaggedAvx512::KERNEL.is_available() {
            $list.push(PerCase::<$runner<RaggedAvx512>>::boxed($arg));
        }
        if RaggedAvx512Zmm::KERNEL.is_available() {
            $list.push(PerCase::<$runner<RaggedAvx512Zmm>>::boxed($arg));
        }
    };
}
pub(super) use push_pinned;

/// The `memcpy` implementations for the cases of one part of the primitive: every one
/// for sizes up to [`LARGE`], the fast ones on shared buffers above it; with
/// `backends`, also the pinned ragged paths this CPU has ([`RaggedAvx2`],
/// [`RaggedAvx512`], [`RaggedAvx512Zmm`]).
pub fn memcpy(large: bool, backends: bool) -> Vec<Box<dyn Implementation>> {
    if large {
        let pool = Pool::default();
        let mut list = vec![
            PerCase::<SharedRunner<Ragged>>::boxed(&pool),
            PerCase::<SharedRunner<RaggedWord>>::boxed(&pool),
        ];
        if backends {
            push_pinned!(list, SharedRunner, &pool);
        }
        list.push(PerCase::<SharedRunner<Glibc>>::boxed(&pool));
        list
    } else {
        let mut list = vec![
            PerCase::<OwnedRunner<Ragged>>::boxed(&()),
            PerCase::<OwnedRunner<RaggedWord>>::boxed(&()),
        ];
        if backends {
            push_pinned!(list, OwnedRunner, &());
        }
        list.extend([
            PerCase::<OwnedRunner<Glibc>>::boxed(&()),
            PerCase::<OwnedRunner<CoalignedOnly>>::boxed(&()),
            PerCase::<OwnedRunner<Bytewise>>::boxed(&()),
        ]);
        list
    }
}

/// An implementation's column name and role, given once for the implementations that
/// both copy here and move in `memmove` ([`Ragged`], [`RaggedWord`], [`Glibc`],
/// [`Bytewise`]).
pub(super) trait Named: 'static {
    const NAME: &'static str;
    const ROLE: Role;
}

/// One way to copy `src` into `dst` (equal lengths).
trait Copier: Named {
    fn copy(dst: &mut [u8], src: &[u8]);
}

/// `ragged_mem::copy`: the dispatched strategy, inlined into the caller.
pub(super) struct Ragged;

impl Named for Ragged {
    const NAME: &'static str = "ragged";
    const ROLE: Role = Role::Ragged;
}

impl Copier for Ragged {
    #[inline(always)]
    fn copy(dst: &mut [u8], src: &[u8]) {
        ragged_mem::copy(dst, src);
    }
}

/// ragged's portable word strategy (aligned destination, shift-merged aligned source
/// words), forced on this host, in its own byte order.
pub(super) struct RaggedWord;

pub(super) const WORD_KERNEL: Kernel = if cfg!(target_endian = "big") {
    Kernel::WordBig
} else {
    Kernel::WordLittle
};

impl Named for RaggedWord {
    const NAME: &'static str = "ragged-word";
    const ROLE: Role = Role::RaggedBackend;
}

impl Copier for RaggedWord {
    #[inline(always)]
    fn copy(dst: &mut [u8], src: &[u8]) {
        assert_eq!(dst.len(), src.len());
        // SAFETY: both slices are valid for `src.len()` bytes, and a `&mut` slice
        // cannot overlap a shared one; the word kernel runs on every target.
        unsafe { WORD_KERNEL.memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) }
    }
}

/// A ragged-mem kernel forced by name, called out of line like [`RaggedWord`]: a
/// `--backends` column.
macro_rules! pinned {
    ($(#[$doc:meta])* $name:ident, $column:literal, $kernel:expr) => {
        $(#[$doc])*
        pub(super) struct $name;

        impl $name {
            /// The kernel this column forces.
            pub(super) const KERNEL: Kernel = $kernel;
        }

        impl Named for $name {
            const NAME: &'static str = $column;
            const ROLE: Role = Role::RaggedBackend;
        }

        impl Copier for $name {
            #[inline(always)]
            fn copy(dst: &mut [u8], src: &[u8]) {
                assert_eq!(dst.len(), src.len());
                // SAFETY: both slices are valid for `src.len()` bytes, and a `&mut`
                // slice cannot overlap a shared one; the column exists only where
                // the kernel is available (checked when the list is made; the call
                // asserts it again).
                unsafe { Self::KERNEL.memcpy(dst.as_mut_ptr(), src.as_ptr(), src.len()) }
            }
        }
    };
}

pinned!(
    /// x86-64: the dispatcher's choice as on a CPU without AVX-512 (the AVX2 path on
    /// an AVX2 CPU), forced.
    RaggedAvx2,
    "ragged-avx2",
    Kernel::AutoWithoutAvx512
);

pinned!(
    /// x86-64: the dispatcher's AVX-512 path on Zen 4 and Skylake-SP (without
    /// its non-temporal stores), forced.
    RaggedAvx512,
    "ragged-avx512",
    Kernel::Avx512
);

pinned!(
    /// x86-64: the dispatcher's path on a core with full-width 512-bit accesses (Zen 5,
    /// Intel from Ice Lake on; 64-byte vectors throughout), forced: there the
    /// dispatched column's own kernel, called out of line.
    RaggedAvx512Zmm,
    "ragged-avx512-zmm",
    Kernel::Avx512Zmm
);

/// `<[u8]>::copy_from_slice`, which calls the platform's (glibc's) `memcpy`.
pub(super) struct Glibc;

impl Named for Glibc {
    const NAME: &'static str = "glibc";
    const ROLE: Role = Role::Peer;
}

impl Copier for Glibc {
    #[inline(always)]
    fn copy(dst: &mut [u8], src: &[u8]) {
        dst.copy_from_slice(src);
    }
}

/// Words only when source and destination are co-aligned (mod the word size), bytes
/// otherwise: the technique the shift-merge replaces ([`ragged_mem::baseline`], with
/// volatile accesses, so the compiler can neither turn either loop into a `memcpy`
/// call nor vectorise it).
struct CoalignedOnly;

impl Named for CoalignedOnly {
    const NAME: &'static str = "coaligned-only";
    const ROLE: Role = Role::Peer;
}

impl Copier for CoalignedOnly {
    #[inline(always)]
    fn copy(dst: &mut [u8], src: &[u8]) {
        ragged_mem::baseline::coaligned_only(dst, src);
    }
}

/// One byte at a time, with volatile loads and stores ([`ragged_mem::baseline`]).
pub(super) struct Bytewise;

impl Named for Bytewise {
    const NAME: &'static str = "bytewise";
    const ROLE: Role = Role::Peer;
}

impl Copier for Bytewise {
    #[inline(always)]
    fn copy(dst: &mut [u8], src: &[u8]) {
        ragged_mem::baseline::bytewise(dst, src);
    }
}

/// Where the two buffers of a copy lie: the destination starts on a page (4 KiB)
/// boundary and the source region `SKEW` bytes past a later page boundary, so every
/// implementation of a case sees the same distance between them modulo the page size
/// (on x86-64 that distance decides whether loads falsely wait on earlier stores, "4K
/// aliasing"); half a page keeps that neutral and fixed instead of leaving it to the
/// allocator.
pub(super) const PAGE: usize = 4096;
const SKEW: usize = PAGE / 2;

/// One allocation holding a destination and a source region for one size.
struct Pair {
    storage: Vec<u8>,
    dst: usize,
    src: usize,
    size: usize,
}

impl Pair {
    /// A `size`-byte destination (holding a pattern unlike the source's) and `size +
    /// ALIGN` source pattern bytes, laid out as described at [`PAGE`].
    fn new(size: usize) -> Pair {
        let dst_span = size.div_ceil(PAGE) * PAGE;
        let mut storage = vec![0u8; PAGE + dst_span + SKEW + size + ALIGN];
        let dst = storage.as_ptr().align_offset(PAGE);
        let src = dst + dst_span + SKEW;
        pattern(&mut storage[dst..dst + size], 0x5851_f42d_4c95_7f2d);
        pattern(&mut storage[src..src + size + ALIGN], 0x9e37_79b9_7f4a_7c15);
        Pair {
            storage,
            dst,
            src,
            size,
        }
    }

    /// The destination, and the source `offset` bytes past a 64-byte boundary.
    #[inline(always)]
    fn split(&mut self, offset: usize) -> (&mut [u8], &[u8]) {
        assert!(offset < ALIGN, "offsets are below {ALIGN}");
        let (head, tail) = self.storage.split_at_mut(self.src);
        (
            &mut head[self.dst..self.dst + self.size],
            &tail[offset..offset + self.size],
        )
    }

    #[inline(always)]
    fn dst(&self) -> &[u8] {
        &self.storage[self.dst..self.dst + self.size]
    }
}

/// Fills `buf` with xorshift64 output from `seed` (non-zero).
pub(super) fn pattern(buf: &mut [u8], seed: u64) {
    let mut x = seed;
    for chunk in buf.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
    }
}

/// A runner for one case of implementation `Of`, made from the case and what all the
/// implementation's cases share: nothing (`()`) where each has buffers of its own, a
/// [`Pool`] where the large cases share theirs.
pub(super) trait CaseRunner: Runner + Sized + 'static {
    /// The implementation it runs.
    type Of: Named;
    /// What the implementation hands every case.
    type Shared: Clone + 'static;
    /// The buffers (and whatever else) of `case`.
    fn new(case: Case, shared: &Self::Shared) -> Self;
}

/// An implementation that makes an `R` for each case.
pub(super) struct PerCase<R: CaseRunner>(R::Shared);

impl<R: CaseRunner> PerCase<R> {
    pub(super) fn boxed(shared: &R::Shared) -> Box<dyn Implementation> {
        Box::new(PerCase::<R>(shared.clone()))
    }
}

impl<R: CaseRunner> Implementation for PerCase<R> {
    fn name(&self) -> String {
        R::Of::NAME.into()
    }

    fn role(&self) -> Role {
        R::Of::ROLE
    }

    fn prepare(&self, case: Case) -> Box<dyn Runner> {
        Box::new(R::new(case, &self.0))
    }
}

struct OwnedRunner<C> {
    pair: Pair,
    offset: usize,
    copier: PhantomData<C>,
}

impl<C: Copier> CaseRunner for OwnedRunner<C> {
    type Of = C;
    type Shared = ();

    fn new(case: Case, _: &()) -> Self {
        OwnedRunner {
            pair: Pair::new(case.size),
            offset: case.unsigned_offset(),
            copier: PhantomData,
        }
    }
}

impl<C: Copier> Runner for OwnedRunner<C> {
    #[inline(never)]
    fn run(&mut self) {
        let (dst, src) = self.pair.split(self.offset);
        C::copy(black_box(dst), black_box(src));
        black_box(&mut self.pair.storage);
    }

    fn output(&self) -> &[u8] {
        self.pair.dst()
    }
}

/// The buffers every large case of a size shares, one `T` per size, handed out to
/// every large implementation.
pub(super) struct Pool<T>(SharedBy<Vec<(usize, SharedBy<T>)>>);

/// The buffers of one size, held by every runner of the size.
pub(super) type SharedBy<T> = Rc<RefCell<T>>;

impl<T> Clone for Pool<T> {
    fn clone(&self) -> Self {
        Pool(self.0.clone())
    }
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool(Rc::default())
    }
}

impl<T> Pool<T> {
    /// The buffers of `size`, made by `make` the first time.
    pub(super) fn get(&self, size: usize, make: impl FnOnce() -> T) -> SharedBy<T> {
        let mut list = self.0.borrow_mut();
        if let Some((_, buffers)) = list.iter().find(|(s, _)| *s == size) {
            return buffers.clone();
        }
        let buffers = Rc::new(RefCell::new(make()));
        list.push((size, buffers.clone()));
        buffers
    }
}

struct SharedRunner<C> {
    pair: Rc<RefCell<Pair>>,
    offset: usize,
    /// The fingerprint of this runner's last output.
    print: Vec<u8>,
    copier: PhantomData<C>,
}

impl<C: Copier> CaseRunner for SharedRunner<C> {
    type Of = C;
    type Shared = Pool<Pair>;

    fn new(case: Case, pool: &Pool<Pair>) -> Self {
        SharedRunner {
            pair: pool.get(case.size, || Pair::new(case.size)),
            offset: case.unsigned_offset(),
            print: Vec::new(),
            copier: PhantomData,
        }
    }
}

/// Windows in a fingerprint, and bytes per window.
pub(super) const WINDOWS: usize = 64;
pub(super) const WINDOW: usize = 64;

impl<C: Copier> Runner for SharedRunner<C> {
    #[inline(never)]
    fn run(&mut self) {
        let mut pair = self.pair.borrow_mut();
        let (dst, src) = pair.split(self.offset);
        C::copy(black_box(dst), black_box(src));
        black_box(&mut pair.storage);
        fingerprint(pair.dst(), &mut self.print);
    }

    fn output(&self) -> &[u8] {
        &self.print
    }
}

/// `WINDOWS` windows of `WINDOW` bytes (fewer if `data` is short) spread evenly from
/// the first byte of `data` to its last, into `print`.
pub(super) fn fingerprint(data: &[u8], print: &mut Vec<u8>) {
    print.clear();
    let window = WINDOW.min(data.len());
    let span = data.len() - window;
    for k in 0..WINDOWS {
        let at = span * k / (WINDOWS - 1);
        print.extend_from_slice(&data[at..at + window]);
    }
}

#[cfg(test)]
mod tests {
    use super::super::registry::Buffer;
    use super::*;

    fn copy_with<C: Copier>(size: usize, src_offset: isize, dst_offset: isize) -> Vec<u8> {
        let src = Buffer::message(Case {
            size,
            offset: src_offset,
        });
        let mut dst = Buffer::message(Case {
            size: size + 2,
            offset: dst_offset,
        });
        C::copy(&mut dst[1..size + 1], &src);
        assert_eq!(&dst[1..size + 1], &src[..], "{} {size}", C::NAME);
        dst.to_vec()
    }

    #[test]
    fn every_copier_copies_exactly_its_range() {
        for size in [0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 64, 100, 255, 1420] {
            for src_offset in 0..9 {
                for dst_offset in 0..9 {
                    let want = copy_with::<Glibc>(size, src_offset, dst_offset);
                    assert_eq!(want, copy_with::<Ragged>(size, src_offset, dst_offset));
                    assert_eq!(want, copy_with::<RaggedWord>(size, src_offset, dst_offset));
                    if RaggedAvx2::KERNEL.is_available() {
                        assert_eq!(want, copy_with::<RaggedAvx2>(size, src_offset, dst_offset));
                    }
                    if RaggedAvx512::KERNEL.is_available() {
                        assert_eq!(
                            want,
                            copy_with::<RaggedAvx512>(size, src_offset, dst_offset)
                        );
                    }
                    if RaggedAvx512Zmm::KERNEL.is_available() {
                        assert_eq!(
                            want,
                            copy_with::<RaggedAvx512Zmm>(size, src_offset, dst_offset)
                        );
                    }
                    assert_eq!(
                        want,
                        copy_with::<CoalignedOnly>(size, src_offset, dst_offset)
                    );
                    assert_eq!(want, copy_with::<Bytewise>(size, src_offset, dst_offset));
                }
            }
        }
    }

    #[test]
    fn shared_runners_fingerprint_their_own_output() {
        let pool = Pool::default();
        let size = 100_000;
        let mut runners: Vec<Box<dyn Runner>> = [1, 0]
            .iter()
            .map(|&offset| {
                PerCase::<SharedRunner<Ragged>>::boxed(&pool).prepare(Case { size, offset })
            })
            .collect();
        for runner in &mut runners {
            runner.run();
        }
        // Both share one destination, which now holds the offset-0 copy.
        assert!(Rc::ptr_eq(
            &pool.get(size, || Pair::new(size)),
            &pool.get(size, || Pair::new(size))
        ));
        let (one, zero) = (runners[0].output(), runners[1].output());
        assert_eq!(one.len(), WINDOWS * WINDOW);
        assert_ne!(one, zero);
        let pair = pool.get(size, || Pair::new(size));
        let mut pair = pair.borrow_mut();
        let mut want = Vec::new();
        fingerprint(pair.split(1).1, &mut want);
        assert_eq!(one, want);
        fingerprint(pair.split(0).1, &mut want);
        assert_eq!(zero, want);
    }

    #[test]
    fn pairs_are_laid_out_alike() {
        for size in [16, 4096, 5000] {
            let mut pair = Pair::new(size);
            let (dst, src) = pair.split(3);
            let (d, s) = (dst.as_ptr() as usize, src.as_ptr() as usize);
            assert_eq!(d % PAGE, 0);
            assert_eq!(s % PAGE, SKEW + 3);
            assert!(s >= d + size);
            assert_ne!(&dst[..], src);
        }
    }

    #[test]
    fn fingerprint_covers_both_ends() {
        let data: Vec<u8> = (0..=255).cycle().take(10_000).collect();
        let mut print = Vec::new();
        fingerprint(&data, &mut print);
        assert_eq!(&print[..WINDOW], &data[..WINDOW]);
        assert_eq!(&print[print.len() - WINDOW..], &data[data.len() - WINDOW..]);
        fingerprint(&data[..10], &mut print);
        assert_eq!(&print[..10], &data[..10]);
    }
}
