//! The burst plan: lanes across messages. Each 32-bit lane of a vertical batch holds a
//! block of its own job (its key, nonce and counter rows, its own destination), so a
//! burst of short messages fills the vector units that one short message leaves idle.
//!
//! ```text
//! xor_burst(jobs):
//!     lane l holds job j: its sixteen initial words in blocks[l]
//!     loop:
//!         every lane whose job is done takes the next job with work (refill)
//!         no lane busy: done
//!         a source that holds (Jobs::HOLDS), every busy lane waiting with its key
//!             block written: the source releases them (an opening checks their
//!             tags); those it keeps go on to their messages, the others are
//!             dropped; back to the refill
//!         after refills: each busy lane's counter words into blocks[l];
//!                        rows = untranspose(blocks) (one transpose)
//!         otherwise:     the counter row + 1 (every busy lane moved one block on)
//!         x = rows; rounds(x); x += rows; transpose
//!         lane l's block is ks[l * 64 / BYTES ..] (constant indices: registers):
//!             XORed into its job's destination, whole vectors, then the ISA's tail
//!             trick for a partial last block
//! ```
//!
//! A lane refilled from the next job as soon as its own ends keeps every lane busy
//! through a burst of mixed lengths; only the burst's last blocks run with lanes idle.
//! The jobs come from a [`Jobs`] source one at a time as lanes free up, each writing its
//! initial state straight into its lane's row of `blocks`: no array of states or jobs
//! is built up front.

use super::lanes::Lanes;
use super::rounds::rounds;
use crate::wipe::wipe;

/// One message of a burst for the kernel: `len` bytes from `input` XORed with the
/// keystream from block `counter` into `output`. With a `key`, block `counter` is
/// written there whole instead (the AEAD's one-time key) and the message takes the
/// blocks after it.
#[derive(Clone, Copy)]
pub(crate) struct Job {
    pub(crate) counter: u64,
    pub(crate) input: *const u8,
    pub(crate) output: *mut u8,
    pub(crate) len: usize,
    /// 64 writable bytes for the job's first block, or null.
    pub(crate) key: *mut u8,
}

/// The jobs of a burst, handed to the kernel one at a time as its lanes free up.
pub(crate) trait Jobs {
    /// The next job, with its initial state's sixteen words (counter words as
    /// [`crate::state::State`] has them) written to `words`; `None` once every job was
    /// handed out. A job may be empty (`len == 0`, no `key`): the kernel skips it.
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job>;

    /// Whether each job's message waits, once its key block is written, for
    /// [`Jobs::release`], and runs only if [`Jobs::keep`] says so. An opening checks
    /// its tags between the key blocks and the messages this way, in one kernel call
    /// whose lanes go on from the key block to the message without a second refill.
    /// A constant, so that the sources that never hold compile to the kernel without
    /// it.
    const HOLDS: bool = false;

    /// Called (with [`Jobs::HOLDS`]) when every busy lane waits: the key block of every
    /// job handed out so far is written, and no lane can go on until the source has
    /// looked at them. [`Jobs::keep`] then answers for each waiting job.
    #[inline(always)]
    fn release(&mut self) {}

    /// After [`Jobs::release`]: whether the waiting job whose key block is at `key`
    /// goes on to its message (else it is dropped, its message untouched).
    #[inline(always)]
    fn keep(&mut self, _key: *mut u8) -> bool {
        true
    }
}

/// What one lane is doing: the rest of its job.
#[derive(Clone, Copy)]
#[cfg_attr(not(lane_simd), allow(dead_code))]
struct Lane {
    input: *const u8,
    output: *mut u8,
    /// Where the lane's next block goes whole, before its message (or null).
    key: *mut u8,
    /// Bytes of the job still to XOR (0 with no `key`: the lane is free).
    left: usize,
    /// Bytes of the job already written (the `before` of the tail trick).
    done: usize,
    counter: u64,
}

#[cfg_attr(not(lane_simd), allow(dead_code))]
const FREE: Lane = Lane {
    input: core::ptr::null(),
    output: core::ptr::null_mut(),
    key: core::ptr::null_mut(),
    left: 0,
    done: 0,
    counter: 0,
};

/// XORs every job's keystream into its destination, `V::BLOCKS` lanes across jobs,
/// each lane refilled with the next job's blocks as its own job ends.
///
/// # Safety
/// The CPU has the features `V` requires; every job's `input` is readable and `output`
/// writable for its `len` bytes, the two equal or disjoint, its `key` (if any) writable
/// for 64 bytes, and no job's bytes overlap another's; for RFC 8439 states the job's
/// blocks (its key's, then `ceil(len / 64)`) end at or below 2^32; every state has
/// `double_rounds` double rounds.
// The 32-bit Arm and portable backends loop over their single-message kernel instead.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn xor_burst<V: Lanes, J: Jobs>(jobs: &mut J, double_rounds: u32) {
    // `blocks[l]`: lane `l`'s initial state, with its counter words brought up to date
    // before each `V::untranspose` (word 13 of the state in `word13`, for the high half
    // of the counter to be added to).
    let mut blocks = core::mem::MaybeUninit::<Aligned>::uninit();
    // SAFETY: the CPU has V's features; `Aligned` is all 32-bit words, any bytes valid,
    // and `zero_rows` writes every one of them before the reference is made.
    let blocks = unsafe {
        zero_rows::<V>(blocks.as_mut_ptr(), 16);
        &mut (*blocks.as_mut_ptr()).0
    };
    let mut word13 = [0u32; 16];
    let mut lanes = [FREE; 16];
    // With `J::HOLDS`: the written key block of each lane that waits for the source
    // (null where none). Such a lane is busy, but its keystream is neither written
    // nor moved on. (Without, never read: compiled out.)
    let mut held = [core::ptr::null_mut::<u8>(); 16];
    // Whether the source may still have jobs.
    let mut more = true;
    // Whether `rows` must be rebuilt from `blocks`: a lane took a new job, or a lane's
    // counter carried into its high half (64-bit counters only), which the plain
    // increment of the counter row does not do.
    let mut rebuild = true;
    // SAFETY: the CPU has V's features.
    let (mut rows, one): ([V; 16], V) = unsafe { ([V::splat(0); 16], V::splat(1)) };
    loop {
        let (mut busy, mut waiting) = (0, 0);
        for (l, lane) in lanes.iter_mut().enumerate().take(V::BLOCKS) {
            let waits = J::HOLDS && !held[l].is_null();
            while more && lane.left == 0 && lane.key.is_null() && !waits {
                let Some(job) = jobs.next(&mut blocks[l]) else {
                    more = false;
                    break;
                };
                if job.len != 0 || !job.key.is_null() {
                    word13[l] = blocks[l][13];
                    *lane = Lane {
                        input: job.input,
                        output: job.output,
                        key: job.key,
                        left: job.len,
                        done: 0,
                        counter: job.counter,
                    };
                    rebuild = true;
                }
            }
            busy += usize::from(lane.left != 0 || !lane.key.is_null() || waits);
            waiting += usize::from(waits);
        }
        if busy == 0 {
            break;
        }
        if J::HOLDS && waiting == busy {
            jobs.release();
            for (lane, key) in lanes.iter_mut().zip(held.iter_mut()).take(V::BLOCKS) {
                if !key.is_null() {
                    if !jobs.keep(*key) {
                        lane.left = 0;
                    }
                    *key = core::ptr::null_mut();
                }
            }
            // The dropped lanes take new jobs; the kept ones go on from their counter,
            // which the counter row already has (no batch ran while they waited).
            continue;
        }
        // SAFETY: the CPU has V's features; `blocks` holds `16 * V::BYTES` bytes (its
        // first `V::BLOCKS` lanes). Each busy lane writes at most its job's next 64
        // bytes, within the job (`left`), with the job's `done` bytes before them
        // already final (the tail trick's `before`).
        unsafe {
            if rebuild {
                for (l, lane) in lanes.iter().enumerate().take(V::BLOCKS) {
                    blocks[l][12] = lane.counter as u32;
                    blocks[l][13] = word13[l].wrapping_add((lane.counter >> 32) as u32);
                }
                let flat = blocks.as_ptr().cast::<u8>();
                // Written out: an array built by a closure is a call outside the
                // target features.
                macro_rules! loaded {
                    ($($i:literal),*) => { [$(V::load(flat.add($i * V::BYTES))),*] };
                }
                rows = V::untranspose(loaded!(
                    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
                ));
                rebuild = false;
            } else {
                rows[12] = rows[12].add(one);
            }
            let mut x = rows;
            rounds(&mut x, double_rounds);
            for i in 0..16 {
                x[i] = x[i].add(rows[i]);
            }
            let ks = V::transpose(x);
            // Lane by lane with constant indices into `ks`, so that every vector is
            // named by a constant and stays in its register (a loop over the lanes
            // indexed `ks` at run time, through a copy on the stack).
            macro_rules! write_lanes {
                ($($l:literal),*) => {
                    $(
                        if $l < V::BLOCKS {
                            if J::HOLDS && !held[$l].is_null() {
                                // The counter row moved on without the waiting lane.
                                rebuild = true;
                            } else {
                                let key = lanes[$l].key;
                                rebuild |= write_lane::<V>(&mut lanes[$l], &ks, $l);
                                if J::HOLDS {
                                    held[$l] = key;
                                }
                            }
                        }
                    )*
                };
            }
            write_lanes!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        }
    }
    // The key words of the last jobs (only the first `V::BLOCKS` rows were written).
    // SAFETY: the CPU has V's features; `blocks` is an `Aligned`'s array.
    unsafe { zero_rows::<V>(blocks.as_mut_ptr().cast::<Aligned>(), V::BLOCKS) };
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    wipe(&mut word13);
}

/// Zeroes the first `rows` lane rows at `blocks` with volatile whole-vector stores: a
/// few stores where a zeroed array and [`wipe`] compiled to calls of `memset` and
/// `memcpy` (the wipe's zeros built on the stack, then copied) on every kernel call.
///
/// # Safety
/// The CPU has the features `V` requires; `blocks` is valid for writes and aligned;
/// `rows <= 16`.
#[inline(always)]
unsafe fn zero_rows<V: Lanes>(blocks: *mut Aligned, rows: usize) {
    const { assert!(core::mem::size_of::<V>() == V::BYTES) };
    let base = blocks.cast::<u8>();
    // SAFETY: the caller's; each store writes `V::BYTES` bytes at a multiple of
    // `V::BYTES` (V's size, a multiple of its alignment, at most 64) from a 64-byte
    // boundary, within the first `rows` rows of 64 bytes.
    unsafe {
        let zero = V::splat(0);
        for i in 0..rows * 64 / V::BYTES {
            core::ptr::write_volatile(base.add(i * V::BYTES).cast::<V>(), zero);
        }
    }
}

/// The lanes' initial states on 64-byte boundaries: each lane's row one cache line, so
/// that its vector stores and the rebuild's vector loads are never split across two.
#[repr(C, align(64))]
struct Aligned([[u32; 16]; 16]);

/// Writes lane `l`'s block of keystream (`ks[l * 64 / BYTES ..]`) to its job's key, or
/// XORs it into the job's next bytes, and moves the lane one block on; returns whether
/// its counter's low half wrapped. A free lane is left as it is.
///
/// # Safety
/// The CPU has the features `V` requires; `l < V::BLOCKS`; the lane's job is readable
/// and writable for its `left` bytes, its `done` bytes before them final.
#[inline(always)]
unsafe fn write_lane<V: Lanes>(lane: &mut Lane, ks: &[V; 16], l: usize) -> bool {
    let per_block = 64 / V::BYTES;
    if !lane.key.is_null() {
        for m in 0..per_block {
            // SAFETY: the caller's (64 writable bytes at `key`, the job's contract).
            unsafe { ks[l * per_block + m].store(lane.key.add(m * V::BYTES)) };
        }
        lane.key = core::ptr::null_mut();
        lane.counter = lane.counter.wrapping_add(1);
        return lane.counter as u32 == 0;
    }
    if lane.left == 0 {
        return false;
    }
    let n = lane.left.min(64);
    // SAFETY: the caller's; every access is within the lane's next `n <= left` bytes.
    unsafe {
        let (input, output) = (lane.input, lane.output);
        if n == 64 {
            for m in 0..per_block {
                let at = m * V::BYTES;
                ks[l * per_block + m]
                    .xor(V::load(input.add(at)))
                    .store(output.add(at));
            }
        } else {
            for m in 0..per_block {
                let at = m * V::BYTES;
                let v = ks[l * per_block + m];
                if n >= at + V::BYTES {
                    v.xor(V::load(input.add(at))).store(output.add(at));
                } else {
                    if n > at {
                        v.xor_tail(input.add(at), output.add(at), n - at, lane.done + at);
                    }
                    break;
                }
            }
        }
        lane.input = input.add(n);
        lane.output = output.add(n);
    }
    lane.left -= n;
    lane.done += n;
    lane.counter = lane.counter.wrapping_add(1);
    lane.counter as u32 == 0
}
