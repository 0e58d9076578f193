//! The portable word strategy: aligned machine words, shift-merged when the source and
//! destination alignments differ.
//!
//! This is the copy for cores where an unaligned word access is slow, trapped and
//! emulated, or not allowed at all (RISC-V, 32-bit Arm, s390x and anything else not known
//! to be cheap). It never issues a word access that is not word aligned and never
//! touches a byte outside the two buffers (on x86-64, where it is only a forced
//! strategy, the compiler vectorises the shift-merge with 16-byte loads that start on a
//! word boundary; see `RELOAD_NEIGHBOUR` in the source):
//!
//! 1. copies shorter than [`SHORT`] go byte by byte;
//! 2. otherwise the destination is first brought to word alignment with single bytes;
//! 3. if the source is now word aligned too ("co-aligned"), whole words are copied in
//!    an unrolled loop;
//! 4. if not, the source is read as the aligned words that cover it, and each output
//!    word is merged from two neighbours with a pair of shifts. The first and last
//!    source words stick out of the buffer, so only their in-buffer bytes are read,
//!    with narrower aligned loads (4, 2, 1 bytes) — an aligned word straddling the end
//!    of a buffer is never loaded whole;
//! 5. the last `< WORD` bytes go byte by byte.
//!
//! Backward variants mirror each step from the top end, for `memmove` with the
//! destination above an overlapping source.
//!
//! The direction of the merge shifts depends on byte order, so byte order is a type
//! parameter ([`ByteOrder`]): [`Little`] and [`Big`] both work on any host, the
//! non-native one swapping bytes in its loads and stores. That is how the big-endian
//! merge is tested on a little-endian machine. [`Native`] is the one real code uses.
//!
//! The loops are written so that the optimizer cannot recognise them as `memcpy` or
//! `memset` idioms (they are unrolled by hand, remainders are handled with branches
//! rather than loops): otherwise this strategy would quietly become a call to the
//! platform `memcpy`, and, under the `c-symbols` feature, to itself.

use core::mem::{MaybeUninit, size_of};

/// Bytes in a machine word: the unit of every aligned load and store here.
pub const WORD: usize = size_of::<usize>();

/// Copies shorter than this are done byte by byte: two words, so that after aligning
/// the destination (at most `WORD - 1` bytes) at least one whole word remains.
pub const SHORT: usize = 2 * WORD;

/// How the word strategy reads and writes memory, and in which byte order it
/// interprets the words it reads.
///
/// Every memory access of this module goes through these functions, which lets a test
/// substitute an implementation that checks each address (see the crate's tests).
/// Loads of `u16`, `u32` and words are always aligned to their size.
pub trait ByteOrder {
    /// `true` when the byte at the lowest address is the most significant one.
    const BIG_ENDIAN: bool;

    /// Loads an aligned word, interpreting its bytes in this byte order.
    ///
    /// # Safety
    /// `p` must be valid for reading a `usize` and aligned to `WORD`.
    unsafe fn load_word(p: *const usize) -> usize;

    /// Stores `w` as an aligned word, laying its bytes out in this byte order.
    ///
    /// # Safety
    /// `p` must be valid for writing a `usize` and aligned to `WORD`.
    unsafe fn store_word(p: *mut usize, w: usize);

    /// Loads an aligned `u32` in this byte order.
    ///
    /// # Safety
    /// `p` must be valid for reading 4 bytes and aligned to 4.
    unsafe fn load_u32(p: *const u32) -> u32;

    /// Loads an aligned `u16` in this byte order.
    ///
    /// # Safety
    /// `p` must be valid for reading 2 bytes and aligned to 2.
    unsafe fn load_u16(p: *const u16) -> u16;

    /// Loads one byte.
    ///
    /// # Safety
    /// `p` must be valid for reading one byte.
    unsafe fn load_u8(p: *const u8) -> u8;

    /// Stores one byte.
    ///
    /// # Safety
    /// `p` must be valid for writing one byte.
    unsafe fn store_u8(p: *mut u8, v: u8);
}

/// Little-endian words: native on x86-64, aarch64, riscv; byte-swapped elsewhere.
#[derive(Clone, Copy, Debug)]
pub struct Little;

/// Big-endian words: native on s390x; byte-swapped on a little-endian host.
#[derive(Clone, Copy, Debug)]
pub struct Big;

/// The byte order of the target: the form the library itself uses.
#[cfg(target_endian = "little")]
pub type Native = Little;
/// The byte order of the target: the form the library itself uses.
#[cfg(target_endian = "big")]
pub type Native = Big;

/// Implements [`ByteOrder`] for a marker type with the std conversions of one byte
/// order (`from_le`/`to_le` or `from_be`/`to_be`).
macro_rules! byte_order {
    ($order:ty, $big:literal, $from:ident, $to:ident) => {
        impl ByteOrder for $order {
            const BIG_ENDIAN: bool = $big;

            #[inline(always)]
            unsafe fn load_word(p: *const usize) -> usize {
                // SAFETY: the caller guarantees `p` is valid and aligned for a usize read.
                usize::$from(unsafe { p.read() })
            }
            #[inline(always)]
            unsafe fn store_word(p: *mut usize, w: usize) {
                // SAFETY: the caller guarantees `p` is valid and aligned for a usize write.
                unsafe { p.write(w.$to()) }
            }
            #[inline(always)]
            unsafe fn load_u32(p: *const u32) -> u32 {
                // SAFETY: the caller guarantees `p` is valid and aligned for a u32 read.
                u32::$from(unsafe { p.read() })
            }
            #[inline(always)]
            unsafe fn load_u16(p: *const u16) -> u16 {
                // SAFETY: the caller guarantees `p` is valid and aligned for a u16 read.
                u16::$from(unsafe { p.read() })
            }
            #[inline(always)]
            unsafe fn load_u8(p: *const u8) -> u8 {
                // SAFETY: the caller guarantees `p` is valid for a one-byte read.
                unsafe { p.read() }
            }
            #[inline(always)]
            unsafe fn store_u8(p: *mut u8, v: u8) {
                // SAFETY: the caller guarantees `p` is valid for a one-byte write.
                unsafe { p.write(v) }
            }
        }
    };
}

byte_order!(Little, false, from_le, to_le);
byte_order!(Big, true, from_be, to_be);

/// Copies `n` bytes from `src` to `dst`, lowest address first.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing `n` bytes. The regions may
/// overlap only if `dst <= src` (the bytes still to be read are never overwritten).
#[inline]
pub unsafe fn copy_forward<O: ByteOrder>(dst: *mut u8, src: *const u8, n: usize) {
    if n < SHORT {
        // SAFETY: forwarded caller guarantee; `n < SHORT <= 16`.
        unsafe { bytes_forward::<O>(dst, src, n) };
        return;
    }
    let head = dst.addr().wrapping_neg() & (WORD - 1);
    // SAFETY: `head < WORD < n`, so all of this stays inside both buffers; forward
    // byte order is overlap-safe because `dst <= src`.
    unsafe { bytes_forward::<O>(dst, src, head) };
    // SAFETY: `head < n`: both pointers stay inside their buffers.
    let (d, s) = unsafe { (dst.add(head), src.add(head)) };
    let rest = n - head;
    let words = rest / WORD;
    let off = s.addr() & (WORD - 1);
    if off != 0 {
        // SAFETY: `d` is word aligned and `s` is not; `rest > WORD` (n >= 2 * WORD and
        // head < WORD) bytes remain in both buffers; `dst <= src` if they overlap.
        unsafe { mismatched_forward::<O>(d, s, rest) };
        return;
    }
    // SAFETY: `d` and `s` are word aligned and `words * WORD <= rest` bytes remain in
    // both buffers.
    unsafe { aligned_forward::<O>(d.cast(), s.cast(), words) };
    let done = words * WORD;
    // SAFETY: `done + (rest % WORD) == rest`: the tail lies inside both buffers.
    unsafe { bytes_forward::<O>(d.add(done), s.add(done), rest % WORD) };
}

/// The rest of a forward copy whose source is not word aligned once the destination
/// is: the shift-merge loop, then the last `< WORD` bytes.
///
/// Out of line, so that the co-aligned path (and every copy inlined into a caller)
/// does not pay for saving the registers the merge loop needs.
///
/// # Safety
/// `d` word aligned, `s` not; `rest > WORD` bytes valid at each; overlap only with
/// `d <= s`.
#[inline(never)]
unsafe fn mismatched_forward<O: ByteOrder>(d: *mut u8, s: *const u8, rest: usize) {
    let words = rest / WORD;
    let off = s.addr() & (WORD - 1);
    // SAFETY: `d` is word aligned, `words >= 1` (rest > WORD), `s - off` is the aligned
    // word holding `s`, and `merge_forward` reads only bytes from `s` to
    // `s + words * WORD`.
    unsafe { merge_forward::<O>(d.cast(), s.wrapping_sub(off).cast(), off, words) };
    let done = words * WORD;
    // SAFETY: `done + (rest % WORD) == rest`: the tail lies inside both buffers.
    unsafe { bytes_forward::<O>(d.add(done), s.add(done), rest % WORD) };
}

/// Copies `n` bytes from `src` to `dst`, highest address first.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing `n` bytes. The regions may
/// overlap only if `dst >= src`.
#[inline]
pub unsafe fn copy_backward<O: ByteOrder>(dst: *mut u8, src: *const u8, n: usize) {
    if n < SHORT {
        // SAFETY: forwarded caller guarantee; `n < SHORT <= 16`.
        unsafe { bytes_backward::<O>(dst, src, n) };
        return;
    }
    // SAFETY: one-past-the-end pointers of the two buffers.
    let (dst_end, src_end) = unsafe { (dst.add(n), src.add(n)) };
    let tail = dst_end.addr() & (WORD - 1);
    // SAFETY: `tail < WORD < n`, so both pointers stay inside their buffers.
    let (de, se) = unsafe { (dst_end.sub(tail), src_end.sub(tail)) };
    // SAFETY: the top `tail` bytes of both buffers; backward order is overlap-safe
    // because `dst >= src`.
    unsafe { bytes_backward::<O>(de, se, tail) };
    let rest = n - tail;
    let words = rest / WORD;
    let off = se.addr() & (WORD - 1);
    if off != 0 {
        // SAFETY: `de` is word aligned and `se` is not; `rest > WORD` bytes lie below
        // them in both buffers; `dst >= src` if they overlap.
        unsafe { mismatched_backward::<O>(de, se, rest) };
        return;
    }
    // SAFETY: `de` and `se` are word aligned and `words * WORD <= rest` bytes lie below
    // them in both buffers.
    unsafe { aligned_backward::<O>(de.cast(), se.cast(), words) };
    // SAFETY: the lowest `rest % WORD` bytes of both buffers.
    unsafe { bytes_backward::<O>(dst, src, rest % WORD) };
}

/// The rest of a backward copy whose source end is not word aligned once the
/// destination end is: the mirror of [`mismatched_forward`].
///
/// # Safety
/// `de` word aligned, `se` not; `rest > WORD` bytes valid below each; overlap only
/// with `de >= se`.
#[inline(never)]
unsafe fn mismatched_backward<O: ByteOrder>(de: *mut u8, se: *const u8, rest: usize) {
    let words = rest / WORD;
    let off = se.addr() & (WORD - 1);
    // SAFETY: `de` is word aligned, `words >= 1`, `se - off` is the aligned word
    // holding the byte at `se`, and `merge_backward` reads only the bytes from
    // `se - words * WORD` to `se`.
    unsafe { merge_backward::<O>(de.cast(), se.wrapping_sub(off).cast(), off, words) };
    // SAFETY: the lowest `rest % WORD` bytes of both buffers lie `rest` bytes below
    // the ends.
    unsafe { bytes_backward::<O>(de.sub(rest), se.sub(rest), rest % WORD) };
}

/// Copies `n` bytes from `src` to `dst`, which may overlap in any way.
///
/// # Safety
/// `src` must be valid for reading and `dst` for writing `n` bytes.
#[inline]
pub unsafe fn memmove<O: ByteOrder>(dst: *mut u8, src: *const u8, n: usize) {
    if forward_is_safe(dst, src, n) {
        // SAFETY: caller guarantee; `dst <= src` or the regions are disjoint.
        unsafe { copy_forward::<O>(dst, src, n) }
    } else {
        // SAFETY: caller guarantee; `dst > src` here.
        unsafe { copy_backward::<O>(dst, src, n) }
    }
}

/// `true` when copying lowest address first cannot overwrite a source byte before it
/// is read: the destination starts below the source, or at or past its end.
#[inline(always)]
pub(crate) fn forward_is_safe(dst: *const u8, src: *const u8, n: usize) -> bool {
    dst.addr().wrapping_sub(src.addr()) >= n
}

/// Sets `n` bytes at `dst` to `byte`.
///
/// # Safety
/// `dst` must be valid for writing `n` bytes.
#[inline]
pub unsafe fn memset<O: ByteOrder>(dst: *mut u8, byte: u8, n: usize) {
    if n < SHORT {
        // SAFETY: caller guarantee; `n < SHORT <= 16`.
        unsafe { set_bytes::<O>(dst, byte, n) };
        return;
    }
    let head = dst.addr().wrapping_neg() & (WORD - 1);
    // SAFETY: `head < WORD < n`.
    unsafe { set_bytes::<O>(dst, byte, head) };
    // SAFETY: `head < n`.
    let d = unsafe { dst.add(head) };
    let rest = n - head;
    let words = rest / WORD;
    // Every byte of the word is `byte`, so the pattern reads the same in any byte order.
    let pattern = (usize::MAX / 0xff) * usize::from(byte);
    let dw = d.cast::<usize>();
    let mut i = 0;
    while words - i >= 4 {
        // SAFETY: words `i .. i + 4` lie inside the buffer; `dw` is word aligned.
        unsafe {
            O::store_word(dw.add(i), pattern);
            O::store_word(dw.add(i + 1), pattern);
            O::store_word(dw.add(i + 2), pattern);
            O::store_word(dw.add(i + 3), pattern);
        }
        i += 4;
    }
    let left = words - i;
    if left & 2 != 0 {
        // SAFETY: at least two words remain.
        unsafe {
            O::store_word(dw.add(i), pattern);
            O::store_word(dw.add(i + 1), pattern);
        }
        i += 2;
    }
    if left & 1 != 0 {
        // SAFETY: one word remains.
        unsafe { O::store_word(dw.add(i), pattern) };
    }
    // SAFETY: the last `rest % WORD` bytes of the buffer.
    unsafe { set_bytes::<O>(d.add(words * WORD), byte, rest % WORD) };
}

/// Word loop for a word-aligned source and destination, lowest address first.
///
/// Eight words a step, then four, two and one as the count's bits say. The loop steps
/// two pointers and compares one of them with its end (three instructions of overhead
/// per eight words on riscv64, where an index would cost address additions too).
///
/// # Safety
/// Both pointers aligned, `words` words valid at each; overlap only with `dst <= src`.
#[inline(always)]
unsafe fn aligned_forward<O: ByteOrder>(dst: *mut usize, src: *const usize, words: usize) {
    let (mut d, mut s) = (dst, src);
    let octets_end = dst.wrapping_add(words & !7);
    while d != octets_end {
        // SAFETY: `d` is below `octets_end`, a multiple of eight words into the
        // destination, so words `d .. d + 8` and the matching `s .. s + 8` are inside
        // both buffers. All eight are loaded before any is stored, so a destination
        // just below the source is fine.
        unsafe {
            let w0 = O::load_word(s);
            let w1 = O::load_word(s.add(1));
            let w2 = O::load_word(s.add(2));
            let w3 = O::load_word(s.add(3));
            let w4 = O::load_word(s.add(4));
            let w5 = O::load_word(s.add(5));
            let w6 = O::load_word(s.add(6));
            let w7 = O::load_word(s.add(7));
            O::store_word(d, w0);
            O::store_word(d.add(1), w1);
            O::store_word(d.add(2), w2);
            O::store_word(d.add(3), w3);
            O::store_word(d.add(4), w4);
            O::store_word(d.add(5), w5);
            O::store_word(d.add(6), w6);
            O::store_word(d.add(7), w7);
            d = d.add(8);
            s = s.add(8);
        }
    }
    if words & 4 != 0 {
        // SAFETY: at least four words remain; all four are loaded before any store.
        unsafe {
            let a = O::load_word(s);
            let b = O::load_word(s.add(1));
            let c = O::load_word(s.add(2));
            let e = O::load_word(s.add(3));
            O::store_word(d, a);
            O::store_word(d.add(1), b);
            O::store_word(d.add(2), c);
            O::store_word(d.add(3), e);
            d = d.add(4);
            s = s.add(4);
        }
    }
    if words & 2 != 0 {
        // SAFETY: at least two words remain.
        unsafe {
            let a = O::load_word(s);
            let b = O::load_word(s.add(1));
            O::store_word(d, a);
            O::store_word(d.add(1), b);
            d = d.add(2);
            s = s.add(2);
        }
    }
    if words & 1 != 0 {
        // SAFETY: one word remains.
        unsafe { O::store_word(d, O::load_word(s)) };
    }
}

/// Word loop for word-aligned end pointers, highest address first: the mirror of
/// [`aligned_forward`].
///
/// # Safety
/// Both end pointers aligned, `words` words valid below each; overlap only with
/// `dst >= src`.
#[inline(always)]
unsafe fn aligned_backward<O: ByteOrder>(dst_end: *mut usize, src_end: *const usize, words: usize) {
    let (mut d, mut s) = (dst_end, src_end);
    let octets_end = dst_end.wrapping_sub(words & !7);
    while d != octets_end {
        // SAFETY: `d` is above `octets_end`, a multiple of eight words below the
        // destination's end, so the eight words below `d` and below the matching `s`
        // are inside both buffers; all eight are loaded before any is stored.
        unsafe {
            let w1 = O::load_word(s.sub(1));
            let w2 = O::load_word(s.sub(2));
            let w3 = O::load_word(s.sub(3));
            let w4 = O::load_word(s.sub(4));
            let w5 = O::load_word(s.sub(5));
            let w6 = O::load_word(s.sub(6));
            let w7 = O::load_word(s.sub(7));
            let w8 = O::load_word(s.sub(8));
            O::store_word(d.sub(1), w1);
            O::store_word(d.sub(2), w2);
            O::store_word(d.sub(3), w3);
            O::store_word(d.sub(4), w4);
            O::store_word(d.sub(5), w5);
            O::store_word(d.sub(6), w6);
            O::store_word(d.sub(7), w7);
            O::store_word(d.sub(8), w8);
            d = d.sub(8);
            s = s.sub(8);
        }
    }
    if words & 4 != 0 {
        // SAFETY: at least four words remain; all four are loaded before any store.
        unsafe {
            let a = O::load_word(s.sub(1));
            let b = O::load_word(s.sub(2));
            let c = O::load_word(s.sub(3));
            let e = O::load_word(s.sub(4));
            O::store_word(d.sub(1), a);
            O::store_word(d.sub(2), b);
            O::store_word(d.sub(3), c);
            O::store_word(d.sub(4), e);
            d = d.sub(4);
            s = s.sub(4);
        }
    }
    if words & 2 != 0 {
        // SAFETY: at least two words remain.
        unsafe {
            let a = O::load_word(s.sub(1));
            let b = O::load_word(s.sub(2));
            O::store_word(d.sub(1), a);
            O::store_word(d.sub(2), b);
            d = d.sub(2);
            s = s.sub(2);
        }
    }
    if words & 1 != 0 {
        // SAFETY: one word remains.
        unsafe { O::store_word(d.sub(1), O::load_word(s.sub(1))) };
    }
}

/// Joins the top `WORD - off` bytes of `lo` (the aligned source word at the lower
/// address) with the bottom `off` bytes of `hi` (the next one): the word that starts
/// `off` bytes into `lo`. "Top" and "bottom" are by address, so which way each value
/// shifts depends on byte order.
#[inline(always)]
fn merge<O: ByteOrder>(lo: usize, hi: usize, off: usize) -> usize {
    debug_assert!(off > 0 && off < WORD);
    let down = (8 * off) as u32;
    let up = (8 * (WORD - off)) as u32;
    if O::BIG_ENDIAN {
        (lo << down) | (hi >> up)
    } else {
        (lo >> down) | (hi << up)
    }
}

/// Places a `size`-byte value read at byte `pos` of a word where the whole word's load
/// would have put it.
#[inline(always)]
fn place<O: ByteOrder>(v: usize, pos: usize, size: usize) -> usize {
    if O::BIG_ENDIAN {
        v << (8 * (WORD - pos - size))
    } else {
        v << (8 * pos)
    }
}

/// Reads bytes `off .. WORD` of the aligned word at `word` (the rest are zero), with
/// aligned loads of increasing width: the bytes below `off` are never touched.
///
/// # Safety
/// Bytes `word + off .. word + WORD` must be readable; `word` aligned; `0 < off < WORD`.
#[inline(always)]
unsafe fn partial_high<O: ByteOrder>(word: *const usize, off: usize) -> usize {
    let base = word.cast::<u8>();
    let mut w = 0;
    let mut p = off;
    if p & 1 != 0 {
        // SAFETY: `p >= off`: inside the readable part.
        w |= place::<O>(
            usize::from(unsafe { O::load_u8(base.wrapping_add(p)) }),
            p,
            1,
        );
        p += 1;
    }
    if WORD > 2 && p & 2 != 0 {
        // SAFETY: `p` is even, so the u16 at `p` is aligned and lies in `off .. WORD`.
        let v = unsafe { O::load_u16(base.wrapping_add(p).cast()) };
        w |= place::<O>(usize::from(v), p, 2);
        p += 2;
    }
    if WORD > 4 && p & 4 != 0 {
        // SAFETY: `p` is a multiple of 4: an aligned u32 inside `off .. WORD`.
        let v = unsafe { O::load_u32(base.wrapping_add(p).cast()) };
        w |= place::<O>(v as usize, p, 4);
        p += 4;
    }
    debug_assert_eq!(p, WORD);
    w
}

/// Reads bytes `0 .. len` of the aligned word at `word` (the rest are zero), with
/// aligned loads of decreasing width: the bytes from `len` on are never touched.
///
/// # Safety
/// Bytes `word .. word + len` must be readable; `word` aligned; `0 < len < WORD`.
#[inline(always)]
unsafe fn partial_low<O: ByteOrder>(word: *const usize, len: usize) -> usize {
    let base = word.cast::<u8>();
    let mut w = 0;
    let mut p = 0;
    if WORD > 4 && len & 4 != 0 {
        // SAFETY: bytes 0..4 of an aligned word, all below `len`.
        let v = unsafe { O::load_u32(base.cast()) };
        w |= place::<O>(v as usize, 0, 4);
        p = 4;
    }
    if WORD > 2 && len & 2 != 0 {
        // SAFETY: `p` is 0 or 4: an aligned u16 ending at or below `len`.
        let v = unsafe { O::load_u16(base.wrapping_add(p).cast()) };
        w |= place::<O>(usize::from(v), p, 2);
        p += 2;
    }
    if len & 1 != 0 {
        // SAFETY: `p == len - 1`.
        w |= place::<O>(
            usize::from(unsafe { O::load_u8(base.wrapping_add(p)) }),
            p,
            1,
        );
        p += 1;
    }
    debug_assert_eq!(p, len);
    w
}

/// The shift-merge loop, lowest address first: `words` aligned destination words from
/// the source that starts `off` bytes into the aligned word `src_word`.
///
/// Each source word is loaded once and kept in a register for the next merge (twice,
/// where [`RELOAD_NEIGHBOUR`] says vector shifts pay for it); the loop does eight words
/// a step (then four, two and one as the count's bits say), stepping two pointers and
/// comparing one with its end.
///
/// # Safety
/// `dst` aligned and valid for `words` words; `src_word` aligned; the source bytes
/// `src_word + off .. src_word + off + words * WORD` readable; `0 < off < WORD`;
/// `words >= 1`; overlap only with the destination below the source.
#[inline(always)]
unsafe fn merge_forward<O: ByteOrder>(
    dst: *mut usize,
    src_word: *const usize,
    off: usize,
    words: usize,
) {
    // Source word `k` is `src_word + k`. Word 0 and word `words` stick out of the
    // buffer at the bottom and top; words `1 .. words` lie wholly inside it.
    // Destination word `k` merges source words `k` and `k + 1`: the first `words - 1`
    // of them take their upper half from a whole word, the last from word `words`.
    // SAFETY: bytes `off .. WORD` of word 0 are the first source bytes.
    let mut prev = unsafe { partial_high::<O>(src_word, off) };
    let mut whole = words - 1;
    let (mut d, mut s) = (dst, src_word.wrapping_add(1));
    if RELOAD_NEIGHBOUR && whole != 0 {
        // The first step carries `prev`: the word below it is word 0, never loaded
        // whole. Every later step's lower neighbour is a whole word.
        // SAFETY: one word of the `whole` count: valid in both buffers.
        prev = unsafe { merge_up::<O, 1, false>(d, s, prev, off) };
        (d, s) = (d.wrapping_add(1), s.wrapping_add(1));
        whole -= 1;
    }
    let octets_end = d.wrapping_add(whole & !7);
    // SAFETY (every step): destination words `d ..` of the step are among the first
    // `whole` (the loop stops at a multiple of eight, the smaller steps follow the
    // remaining count's bits), so valid, and their source words (`s` is always
    // `d - dst + 1` words into the source) are below word `words`, so whole.
    while d != octets_end {
        // SAFETY: 8 words of the count remain in both buffers (see above).
        unsafe {
            prev = merge_up::<O, 8, RELOAD_NEIGHBOUR>(d, s, prev, off);
            (d, s) = (d.add(8), s.add(8));
        }
    }
    if whole & 4 != 0 {
        // SAFETY: 4 words of the count remain in both buffers (see above).
        unsafe {
            prev = merge_up::<O, 4, RELOAD_NEIGHBOUR>(d, s, prev, off);
            (d, s) = (d.add(4), s.add(4));
        }
    }
    if whole & 2 != 0 {
        // SAFETY: 2 words of the count remain in both buffers (see above).
        unsafe {
            prev = merge_up::<O, 2, RELOAD_NEIGHBOUR>(d, s, prev, off);
            (d, s) = (d.add(2), s.add(2));
        }
    }
    if whole & 1 != 0 {
        // SAFETY: 1 word of the count remains in both buffers (see above).
        prev = unsafe { merge_up::<O, 1, RELOAD_NEIGHBOUR>(d, s, prev, off) };
        d = d.wrapping_add(1);
    }
    // SAFETY: bytes `0 .. off` of word `words` are the last source bytes this loop
    // needs (`src_word + off + words * WORD` is the end of what it reads).
    let last = unsafe { partial_low::<O>(src_word.wrapping_add(words), off) };
    // SAFETY: `d` is destination word `words - 1`, which is valid.
    unsafe { O::store_word(d, merge::<O>(prev, last, off)) };
}

/// The shift-merge loop, highest address first: `words` aligned destination words
/// ending at `dst_end`, from the source that ends `off` bytes into the aligned word
/// `src_word`. The mirror of [`merge_forward`].
///
/// # Safety
/// `dst_end` aligned with `words` valid words below it; `src_word` aligned; the source
/// bytes `src_word + off - words * WORD .. src_word + off` readable; `0 < off < WORD`;
/// `words >= 1`; overlap only with the destination above the source.
#[inline(always)]
unsafe fn merge_backward<O: ByteOrder>(
    dst_end: *mut usize,
    src_word: *const usize,
    off: usize,
    words: usize,
) {
    // Source word `-k` is `src_word - k`; word 0 sticks out at the top and word
    // `-words` at the bottom; words `-(words - 1) ..= -1` lie wholly inside.
    // Destination word `-k` (counting down from `dst_end`) merges source words `-k`
    // and `-(k - 1)`: the top `words - 1` take their lower half from a whole word, the
    // bottom one from word `-words`.
    // SAFETY: bytes `0 .. off` of word 0 are the last source bytes.
    let mut next = unsafe { partial_low::<O>(src_word, off) };
    let mut whole = words - 1;
    let (mut d, mut s) = (dst_end, src_word);
    if RELOAD_NEIGHBOUR && whole != 0 {
        // The first step carries `next`: the word above it is word 0, never loaded
        // whole. Every later step's upper neighbour is a whole word.
        // SAFETY: one word of the `whole` count: valid in both buffers.
        next = unsafe { merge_down::<O, 1, false>(d, s, next, off) };
        (d, s) = (d.wrapping_sub(1), s.wrapping_sub(1));
        whole -= 1;
    }
    let octets_end = d.wrapping_sub(whole & !7);
    // SAFETY (every step): the step's destination words below `d` are among the top
    // `whole`, so valid, and the source words below `s` (`s` is always as many words
    // below `src_word` as `d` is below `dst_end`) are above word `-words`, so whole.
    while d != octets_end {
        // SAFETY: 8 words of the count remain in both buffers (see above).
        unsafe {
            next = merge_down::<O, 8, RELOAD_NEIGHBOUR>(d, s, next, off);
            (d, s) = (d.sub(8), s.sub(8));
        }
    }
    if whole & 4 != 0 {
        // SAFETY: 4 words of the count remain in both buffers (see above).
        unsafe {
            next = merge_down::<O, 4, RELOAD_NEIGHBOUR>(d, s, next, off);
            (d, s) = (d.sub(4), s.sub(4));
        }
    }
    if whole & 2 != 0 {
        // SAFETY: 2 words of the count remain in both buffers (see above).
        unsafe {
            next = merge_down::<O, 2, RELOAD_NEIGHBOUR>(d, s, next, off);
            (d, s) = (d.sub(2), s.sub(2));
        }
    }
    if whole & 1 != 0 {
        // SAFETY: 1 word of the count remains in both buffers (see above).
        next = unsafe { merge_down::<O, 1, RELOAD_NEIGHBOUR>(d, s, next, off) };
        d = d.wrapping_sub(1);
    }
    // SAFETY: bytes `off .. WORD` of word `-words` are the first source bytes needed.
    let first = unsafe { partial_high::<O>(src_word.wrapping_sub(words), off) };
    // SAFETY: `d - 1` is destination word `-words`, which is valid.
    unsafe { O::store_word(d.sub(1), merge::<O>(first, next, off)) };
}

/// Whether the loop steps of the shift-merge reload each word's neighbour from memory
/// instead of carrying it over from the step's previous word.
///
/// Reloaded, every destination word is a function of two loads and nothing else, so
/// the compiler turns a step into vector loads, shifts and stores, which on SSE2 is
/// much faster than the carried form on mismatched copies (aa4ef70). On a scalar core
/// the reload would be one more load a step, so there the neighbour is carried.
/// Targets with other vector units (NEON) keep the carried form until it is measured
/// there.
const RELOAD_NEIGHBOUR: bool = cfg!(target_feature = "sse2");

/// An uninitialised word: the element the merge steps build their word arrays from.
///
/// The arrays are filled word by word, never initialised as a whole: where the step's
/// loops are not unrolled (opt-level `s` and `z`), an initialiser such as `[0; N]`
/// stays a `memset` call, and under `c-symbols` that `memset` is this crate's own
/// (`scripts/c-symbols-check` looks for such calls).
const UNINIT: MaybeUninit<usize> = MaybeUninit::uninit();

/// One step of the forward shift-merge: loads the `N` whole source words from `s`,
/// then stores `N` destination words from `d`, each merging a word with the one after
/// it. The word below `s` comes from `prev`, or, with `RELOAD`, from memory — and the
/// same for the neighbours inside the step. Returns the last word loaded: the next
/// step's `prev`.
///
/// # Safety
/// `N` aligned words valid at each pointer; with `RELOAD` also the aligned word below
/// `s`.
#[inline(always)]
unsafe fn merge_up<O: ByteOrder, const N: usize, const RELOAD: bool>(
    d: *mut usize,
    s: *const usize,
    prev: usize,
    off: usize,
) -> usize {
    // Uninitialised, filled word by word (see `UNINIT`).
    let mut hi = [UNINIT; N];
    let mut lo = [UNINIT; N];
    // SAFETY: the caller's `N` valid words at each pointer (and the one below `s` with
    // `RELOAD`); every load comes before the first store. Every element of `hi` and
    // `lo` is written by the first two loops before any is read.
    unsafe {
        for (i, w) in hi.iter_mut().enumerate() {
            w.write(O::load_word(s.add(i)));
        }
        for (i, w) in lo.iter_mut().enumerate() {
            w.write(if RELOAD {
                O::load_word(s.wrapping_add(i).wrapping_sub(1))
            } else if i > 0 {
                hi[i - 1].assume_init()
            } else {
                prev
            });
        }
        for i in 0..N {
            let (l, h) = (lo[i].assume_init(), hi[i].assume_init());
            O::store_word(d.add(i), merge::<O>(l, h, off));
        }
        hi[N - 1].assume_init()
    }
}

/// One step of the backward shift-merge: the mirror of [`merge_up`], below `s` and
/// `d`, with `next` (or, with `RELOAD`, the word at `s`) the upper neighbour of the
/// highest word. Returns the lowest word loaded.
///
/// # Safety
/// `N` aligned words valid below each pointer; with `RELOAD` also the aligned word at
/// `s`.
#[inline(always)]
unsafe fn merge_down<O: ByteOrder, const N: usize, const RELOAD: bool>(
    d: *mut usize,
    s: *const usize,
    next: usize,
    off: usize,
) -> usize {
    // Uninitialised, filled word by word (see `UNINIT`).
    let mut lo = [UNINIT; N];
    let mut hi = [UNINIT; N];
    // SAFETY: the caller's `N` valid words below each pointer (and the one at `s` with
    // `RELOAD`); every load comes before the first store. Every element of `lo` and
    // `hi` is written by the first two loops before any is read.
    unsafe {
        for (i, w) in lo.iter_mut().enumerate() {
            w.write(O::load_word(s.sub(i + 1)));
        }
        for (i, w) in hi.iter_mut().enumerate() {
            w.write(if RELOAD {
                O::load_word(s.wrapping_sub(i))
            } else if i > 0 {
                lo[i - 1].assume_init()
            } else {
                next
            });
        }
        for i in 0..N {
            let (l, h) = (lo[i].assume_init(), hi[i].assume_init());
            O::store_word(d.sub(i + 1), merge::<O>(l, h, off));
        }
        lo[N - 1].assume_init()
    }
}

/// Copies `K` bytes one at a time, lowest first.
///
/// # Safety
/// `K` bytes valid at each pointer; overlap only with `dst <= src`.
#[inline(always)]
unsafe fn bytes_fixed_forward<O: ByteOrder, const K: usize>(dst: *mut u8, src: *const u8) {
    for j in 0..K {
        // SAFETY: `j < K`.
        unsafe { O::store_u8(dst.add(j), O::load_u8(src.add(j))) };
    }
}

/// Copies `K` bytes one at a time, highest first.
///
/// # Safety
/// `K` bytes valid at each pointer; overlap only with `dst >= src`.
#[inline(always)]
unsafe fn bytes_fixed_backward<O: ByteOrder, const K: usize>(dst: *mut u8, src: *const u8) {
    for j in (0..K).rev() {
        // SAFETY: `j < K`.
        unsafe { O::store_u8(dst.add(j), O::load_u8(src.add(j))) };
    }
}

/// Copies `n < 16` bytes byte by byte, lowest first, in straight-line blocks of
/// 8, 4, 2 and 1 chosen by the bits of `n` (no loop for the optimizer to turn into a
/// call).
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst <= src`.
#[inline(always)]
unsafe fn bytes_forward<O: ByteOrder>(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n < 16);
    let mut i = 0;
    // SAFETY: all four blocks: `i` plus the block size never exceeds `n`, and the
    // blocks go up in address order.
    unsafe {
        if n & 8 != 0 {
            bytes_fixed_forward::<O, 8>(dst, src);
            i = 8;
        }
        if n & 4 != 0 {
            bytes_fixed_forward::<O, 4>(dst.add(i), src.add(i));
            i += 4;
        }
        if n & 2 != 0 {
            bytes_fixed_forward::<O, 2>(dst.add(i), src.add(i));
            i += 2;
        }
        if n & 1 != 0 {
            bytes_fixed_forward::<O, 1>(dst.add(i), src.add(i));
        }
    }
}

/// Copies `n < 16` bytes byte by byte, highest first.
///
/// # Safety
/// `n` bytes valid at each pointer; overlap only with `dst >= src`.
#[inline(always)]
unsafe fn bytes_backward<O: ByteOrder>(dst: *mut u8, src: *const u8, n: usize) {
    debug_assert!(n < 16);
    let mut i = n;
    // SAFETY: all four blocks: `i` minus the block size never goes below 0, and the
    // blocks go down in address order.
    unsafe {
        if n & 1 != 0 {
            i -= 1;
            bytes_fixed_backward::<O, 1>(dst.add(i), src.add(i));
        }
        if n & 2 != 0 {
            i -= 2;
            bytes_fixed_backward::<O, 2>(dst.add(i), src.add(i));
        }
        if n & 4 != 0 {
            i -= 4;
            bytes_fixed_backward::<O, 4>(dst.add(i), src.add(i));
        }
        if n & 8 != 0 {
            i -= 8;
            bytes_fixed_backward::<O, 8>(dst.add(i), src.add(i));
        }
    }
    debug_assert_eq!(i, 0);
}

/// Sets `n < 16` bytes one at a time.
///
/// # Safety
/// `n` bytes valid at `dst`.
#[inline(always)]
unsafe fn set_bytes<O: ByteOrder>(dst: *mut u8, byte: u8, n: usize) {
    debug_assert!(n < 16);
    let mut i = 0;
    // SAFETY: all blocks: `i` plus the block size never exceeds `n`.
    unsafe {
        if n & 8 != 0 {
            for j in 0..8 {
                O::store_u8(dst.add(j), byte);
            }
            i = 8;
        }
        if n & 4 != 0 {
            for j in 0..4 {
                O::store_u8(dst.add(i + j), byte);
            }
            i += 4;
        }
        if n & 2 != 0 {
            O::store_u8(dst.add(i), byte);
            O::store_u8(dst.add(i + 1), byte);
            i += 2;
        }
        if n & 1 != 0 {
            O::store_u8(dst.add(i), byte);
        }
    }
}
