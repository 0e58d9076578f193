//! The word strategy's promise that no access leaves the buffers — not even an aligned
//! word straddling an end, which guard bytes cannot see (it never faults and never
//! writes). Every memory access of the word strategy goes through its `ByteOrder`, so
//! a wrapper that checks each address against the source and destination ranges
//! catches any such read.
//!
//! Also here: the checks can fail. A byte order that lies about its shift direction
//! must produce wrong copies, and the tracker must flag a straddling read.

mod common;

use std::cell::{Cell, RefCell};
use std::marker::PhantomData;

use common::{Aligned, CopyBench, GUARD, check_move, check_set};
use ragged_mem::word::{self, Big, ByteOrder, Little, WORD};

thread_local! {
    /// Allowed `[start, end)` addresses for reads and for writes.
    static READS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    static WRITES: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
    /// The first access outside its range, if any.
    static VIOLATION: RefCell<Option<String>> = const { RefCell::new(None) };
    /// Loads seen, by width: 1, 2, 4 bytes and words.
    static LOADS: Cell<[usize; 4]> = const { Cell::new([0; 4]) };
}

fn note(kind: usize) {
    LOADS.with(|c| {
        let mut v = c.get();
        v[kind] += 1;
        c.set(v);
    });
}

fn check(
    range: &'static std::thread::LocalKey<Cell<(usize, usize)>>,
    what: &str,
    p: usize,
    size: usize,
) {
    let (lo, hi) = range.with(Cell::get);
    if p < lo || p + size > hi {
        VIOLATION.with(|v| {
            v.borrow_mut().get_or_insert_with(|| {
                format!(
                    "{what} of {size} bytes at {:+} outside [0, {})",
                    p as isize - lo as isize,
                    hi - lo
                )
            });
        });
    }
}

/// `O`, with every access checked against the ranges set for the current operation.
struct Tracked<O>(PhantomData<O>);

impl<O: ByteOrder> ByteOrder for Tracked<O> {
    const BIG_ENDIAN: bool = O::BIG_ENDIAN;

    unsafe fn load_word(p: *const usize) -> usize {
        check(&READS, "word read", p.addr(), WORD);
        note(3);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::load_word(p) }
    }
    unsafe fn store_word(p: *mut usize, w: usize) {
        check(&WRITES, "word write", p.addr(), WORD);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::store_word(p, w) }
    }
    unsafe fn load_u32(p: *const u32) -> u32 {
        check(&READS, "u32 read", p.addr(), 4);
        note(2);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::load_u32(p) }
    }
    unsafe fn load_u16(p: *const u16) -> u16 {
        check(&READS, "u16 read", p.addr(), 2);
        note(1);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::load_u16(p) }
    }
    unsafe fn load_u8(p: *const u8) -> u8 {
        check(&READS, "byte read", p.addr(), 1);
        note(0);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::load_u8(p) }
    }
    unsafe fn store_u8(p: *mut u8, v: u8) {
        check(&WRITES, "byte write", p.addr(), 1);
        // SAFETY: forwarded caller guarantee.
        unsafe { O::store_u8(p, v) }
    }
}

/// Runs `op` with reads allowed in `src .. src + n` and writes in `dst .. dst + n`,
/// returning the first access outside them.
fn confined(dst: usize, src: usize, n: usize, op: impl FnOnce()) -> Result<(), String> {
    READS.with(|c| c.set((src, src + n)));
    WRITES.with(|c| c.set((dst, dst + n)));
    VIOLATION.with(|v| v.borrow_mut().take());
    op();
    match VIOLATION.with(|v| v.borrow_mut().take()) {
        None => Ok(()),
        Some(e) => Err(format!(
            "len {n} src%{WORD} {} dst%{WORD} {}: {e}",
            src % WORD,
            dst % WORD
        )),
    }
}

fn copies_stay_inside<O: ByteOrder>() {
    let mut bench = CopyBench::new(300);
    let copy = |d: *mut u8, s: *const u8, n: usize| {
        let r = confined(d.addr(), s.addr(), n, || {
            // SAFETY: the bench passes disjoint in-bounds regions.
            unsafe { word::copy_forward::<Tracked<O>>(d, s, n) }
        });
        r.unwrap();
    };
    for len in 0..=300 {
        for src_off in 0..16 {
            for dst_off in 0..16 {
                bench
                    .check_copy(&copy, len, src_off, dst_off, len + src_off)
                    .unwrap();
            }
        }
    }
}

fn moves_stay_inside<O: ByteOrder>() {
    let mut buf = Aligned::new(GUARD + 16 + 64 + 300 + GUARD);
    let mv = |d: *mut u8, s: *const u8, n: usize| {
        let r = confined(d.addr(), s.addr(), n, || {
            // SAFETY: `check_move` passes in-bounds regions of one buffer.
            unsafe { word::memmove::<Tracked<O>>(d, s, n) }
        });
        r.unwrap();
    };
    for dist in 1..=64 {
        for len in 0..=300 {
            for at in [0, 1, 3, 6] {
                check_move(&mut buf, &mv, len, at + dist, at, len).unwrap();
                check_move(&mut buf, &mv, len, at, at + dist, len).unwrap();
            }
        }
    }
}

fn fills_stay_inside<O: ByteOrder>() {
    let mut buf = Aligned::new(GUARD + 16 + 300 + GUARD);
    let set = |d: *mut u8, b: u8, n: usize| {
        let r = confined(d.addr(), 0, n, || {
            // SAFETY: `check_set` passes in-bounds regions.
            unsafe { word::memset::<Tracked<O>>(d, b, n) }
        });
        r.unwrap();
    };
    for len in 0..=300 {
        for off in 0..16 {
            check_set(&mut buf, &set, len, off, 0xc3, len).unwrap();
        }
    }
}

#[test]
fn little_endian_copies_read_and_write_only_inside_the_buffers() {
    LOADS.with(|c| c.set([0; 4]));
    copies_stay_inside::<Little>();
    // The partial edge words really were read with every width narrower than a word
    // (on 32-bit targets the word is 4 bytes, so there is no separate u32 load).
    let loads = LOADS.with(Cell::get);
    let used = |width: usize, n: usize| width >= WORD || n > 0;
    assert!(
        [1, 2, 4].iter().zip(loads).all(|(&w, n)| used(w, n)) && loads[3] > 0,
        "loads by width (1, 2, 4, word): {loads:?}"
    );
}

#[test]
fn big_endian_copies_read_and_write_only_inside_the_buffers() {
    copies_stay_inside::<Big>();
}

#[test]
fn little_endian_moves_read_and_write_only_inside_the_buffers() {
    moves_stay_inside::<Little>();
}

#[test]
fn big_endian_moves_read_and_write_only_inside_the_buffers() {
    moves_stay_inside::<Big>();
}

#[test]
fn fills_write_only_inside_the_buffer() {
    fills_stay_inside::<Little>();
    fills_stay_inside::<Big>();
}

/// Little-endian loads behind a big-endian shift direction: the merge is wrong, and
/// the copy check must say so for every length that reaches the merge.
struct Liar;

impl ByteOrder for Liar {
    const BIG_ENDIAN: bool = true;

    unsafe fn load_word(p: *const usize) -> usize {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::load_word(p) }
    }
    unsafe fn store_word(p: *mut usize, w: usize) {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::store_word(p, w) }
    }
    unsafe fn load_u32(p: *const u32) -> u32 {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::load_u32(p) }
    }
    unsafe fn load_u16(p: *const u16) -> u16 {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::load_u16(p) }
    }
    unsafe fn load_u8(p: *const u8) -> u8 {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::load_u8(p) }
    }
    unsafe fn store_u8(p: *mut u8, v: u8) {
        // SAFETY: forwarded caller guarantee.
        unsafe { Little::store_u8(p, v) }
    }
}

#[test]
fn a_broken_merge_is_caught() {
    let mut bench = CopyBench::new(300);
    // SAFETY: the bench passes disjoint in-bounds regions.
    let copy = |d: *mut u8, s: *const u8, n: usize| unsafe { word::copy_forward::<Liar>(d, s, n) };
    for len in 2 * WORD..=300 {
        // Destination aligned, source one byte off: the merge runs on every word.
        let r = bench.check_copy(&copy, len, 1, 0, len);
        assert!(
            r.is_err(),
            "a wrong shift direction went unnoticed at len {len}"
        );
        // Co-aligned copies never merge, so they stay right.
        bench.check_copy(&copy, len, 3, 3, len).unwrap();
    }
}

#[test]
fn a_read_past_the_end_is_caught() {
    let buf = Aligned::new(64);
    let base = buf.bytes().as_ptr();
    // A source one byte shorter than a word at an aligned address: loading the whole
    // aligned word there reads a byte past its end, inside the allocation, where no
    // guard can see it.
    // SAFETY: inside the 64-byte buffer.
    let src = unsafe { base.add(WORD) };
    let r = confined(0, src.addr(), WORD - 1, || {
        // SAFETY: the word at `base + WORD` lies inside the 64-byte buffer.
        unsafe { Tracked::<Little>::load_word(src.cast()) };
    });
    assert!(r.is_err(), "a straddling word read went unnoticed");
}
