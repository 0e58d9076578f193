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
//! Two sets of 16 lanes (Zen 5) either take jobs of their own, or run paired
//! ([`Jobs::PAIRED`]): the second set's lane `l` computes the block after the first
//! set's lane `l`, from the same rows with the counter row plus one, both counter rows
//! moving on two blocks a batch, and each lane writes its two blocks in order. A
//! paired source that holds computes a job's first message block beside its key
//! block, and keeps it aside (not written) until the release.
//!
//! A lane refilled from the next job as soon as its own ends keeps every lane busy
//! through a burst of mixed lengths; only the burst's last blocks run with lanes idle.
//! The jobs come from a [`Jobs`] source one at a time as lanes free up, each writing its
//! initial state straight into its lane's row of `blocks`: no array of states or jobs
//! is built up front.

use super::lanes::Lanes;
use super::rounds::{rounds, rounds_side_by_side};
#[cfg(doc)]
use crate::backend::burst_split::{lane_sets, two_sets_pay};
use crate::state::SIGMA;
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
    /// goes on to its message (else it is dropped, its message untouched). A source
    /// may have new jobs after a release (the rest of a kept message, in a lane of its
    /// own).
    #[inline(always)]
    fn keep(&mut self, _key: *mut u8) -> bool {
        true
    }

    /// Whether a second set of `lanes` lanes ([`lane_sets`]) pays for these jobs: only
    /// while both sets have work (see [`two_sets_pay`]).
    fn two_sets(&self, lanes: usize) -> bool;

    /// Sets of lanes the kernel runs these jobs on: 1, or 2 where the vector registers
    /// hold two sets' state (16 lanes a set). A constant, so that each kernel is
    /// compiled for one: with both in one function, the one-set kernel ran slower
    /// (measured in the commit that added the second set; figures in
    /// `docs/tuning.md`). `crate::burst`'s sources run on two sets wrapped in its
    /// `Sets`.
    const SETS: usize = 1;

    /// With [`Jobs::SETS`] of 2: whether each job runs in the same lane of both sets,
    /// the second set one block ahead of the first (two blocks of each job a batch),
    /// rather than the sets taking jobs of their own. Jobs that fit one set then run
    /// in half its batches, with no second refill a job. A constant, like `SETS`.
    /// With [`Jobs::HOLDS`], the block after a key block is kept aside while the job
    /// waits, and written (XORed into the message) only if the job is kept. Paired
    /// jobs keep their blocks within the high half of their first counter (as every
    /// RFC 8439 job does): the second set's counter row is the first's plus one, with
    /// no carry.
    const PAIRED: bool = false;
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
/// each lane refilled with the next job's blocks as its own job ends; with
/// [`Jobs::SETS`] of 2 (16-lane batches only), two sets of them side by side.
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
    // SAFETY: forwarded.
    unsafe {
        if V::BLOCKS == 16 && J::SETS == 2 {
            xor_burst_sets::<V, J, 2>(jobs, double_rounds);
        } else {
            xor_burst_sets::<V, J, 1>(jobs, double_rounds);
        }
    }
}

/// [`xor_burst`] on `S` sets of `V::BLOCKS` lanes: lane `l` of set `s` is the burst's
/// lane `s · V::BLOCKS + l`. The sets' rounds run interleaved, as independent chains,
/// while more than one set is busy (with two sets: 32 registers of state, so only
/// where the instruction set has them).
///
/// # Safety
/// As for [`xor_burst`]; `S` is 1, or 2 with 32 vector registers.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
unsafe fn xor_burst_sets<V: Lanes, J: Jobs, const S: usize>(jobs: &mut J, double_rounds: u32) {
    // `blocks[s][l]`: lane `l`'s initial state in set `s`, with its counter words
    // brought up to date before each `V::untranspose` (word 13 of the state in
    // `word13`, for the high half of the counter to be added to).
    let mut blocks = core::mem::MaybeUninit::<[Aligned; S]>::uninit();
    // SAFETY: the CPU has V's features; `Aligned` is all 32-bit words, any bytes valid,
    // and `zero_rows` writes every one of them before the reference is made.
    let blocks = unsafe {
        let first = blocks.as_mut_ptr().cast::<Aligned>();
        for s in 0..S {
            zero_rows::<V>(first.add(s), 16);
        }
        &mut *blocks.as_mut_ptr()
    };
    let mut word13 = [[0u32; 16]; S];
    let mut lanes = [[FREE; 16]; S];
    // With `J::HOLDS`: the written key block of each lane that waits for the source
    // (null where none). Such a lane is busy, but its keystream is neither written
    // nor moved on. (Without, never read: compiled out.)
    let mut held = [[core::ptr::null_mut::<u8>(); 16]; S];
    // With `J::HOLDS` and paired sets: each waiting lane's block after its key block
    // (the second set's, laid out as a batch's keystream), written at the release if
    // its job is kept.
    // SAFETY: the CPU has V's features.
    let mut held_blocks = unsafe { [V::splat(0); 16] };
    // Whether the source may still have jobs.
    let mut more = true;
    // Whether a set's `rows` must be rebuilt from its `blocks`: a lane took a new job,
    // or a lane's counter carried into its high half (64-bit counters only), which
    // the plain increment of the counter row does not do.
    let mut rebuild = [true; S];
    // SAFETY: the CPU has V's features.
    let (mut rows, one): ([[V; 16]; S], V) = unsafe { ([[V::splat(0); 16]; S], V::splat(1)) };
    // Paired sets ([`Jobs::PAIRED`]): only the first set's lanes take jobs; the second
    // runs each of them one block ahead, and both counter rows move on two blocks a
    // batch.
    let paired = S == 2 && J::PAIRED;
    // SAFETY: the CPU has V's features.
    let step = unsafe { V::splat(if paired { 2 } else { 1 }) };
    let taking = if paired { 1 } else { S };
    loop {
        let (mut busy, mut waiting) = ([0; S], 0);
        for s in 0..taking {
            for (l, lane) in lanes[s].iter_mut().enumerate().take(V::BLOCKS) {
                let waits = J::HOLDS && !held[s][l].is_null();
                while more && lane.left == 0 && lane.key.is_null() && !waits {
                    let Some(job) = jobs.next(&mut blocks[s].0[l]) else {
                        more = false;
                        break;
                    };
                    if job.len != 0 || !job.key.is_null() {
                        debug_assert_eq!(blocks[s].0[l][..4], SIGMA, "a state's constants");
                        debug_assert!(
                            !J::PAIRED
                                || u64::from(job.counter as u32)
                                    + u64::from(!job.key.is_null())
                                    + job.len.div_ceil(64) as u64
                                    <= 1 << 32,
                            "a paired job crosses into another high counter half"
                        );
                        word13[s][l] = blocks[s].0[l][13];
                        *lane = Lane {
                            input: job.input,
                            output: job.output,
                            key: job.key,
                            left: job.len,
                            done: 0,
                            counter: job.counter,
                        };
                        rebuild[s] = true;
                    }
                }
                busy[s] += usize::from(lane.left != 0 || !lane.key.is_null() || waits);
                waiting += usize::from(waits);
            }
        }
        // The lanes that take jobs: with paired sets, the second set's follow the
        // first's.
        let taking_busy: usize = busy[..taking].iter().sum();
        if paired {
            busy[S - 1] = busy[0];
        }
        if taking_busy == 0 {
            break;
        }
        if J::HOLDS && waiting == taking_busy {
            jobs.release();
            for (lanes, held) in lanes.iter_mut().zip(held.iter_mut()) {
                for (l, (lane, key)) in lanes
                    .iter_mut()
                    .zip(held.iter_mut())
                    .enumerate()
                    .take(V::BLOCKS)
                {
                    if !key.is_null() {
                        if !jobs.keep(*key) {
                            lane.left = 0;
                        } else if paired {
                            // SAFETY: the CPU has V's features; the lane's job is as
                            // it was when its first message block was kept aside
                            // (nothing of it written since).
                            rebuild[0] |= unsafe { write_lane::<V>(lane, &held_blocks, l) };
                        }
                        *key = core::ptr::null_mut();
                    }
                }
            }
            // The dropped lanes take new jobs; the kept ones go on from their counter,
            // which the counter row already has (no batch ran while they waited; with
            // paired sets, the block kept aside is the one the second set computed,
            // and the row moves on two blocks).
            more = true;
            continue;
        }
        // SAFETY: the CPU has V's features; each set's `blocks` holds `16 * V::BYTES`
        // bytes (its first `V::BLOCKS` lanes). Each busy lane writes at most its job's
        // next 64 bytes, within the job (`left`), with the job's `done` bytes before
        // them already final (the tail trick's `before`).
        unsafe {
            for s in 0..S {
                if busy[s] == 0 {
                    continue;
                }
                if paired && s == 1 {
                    // The first set's rows, each lane's counter one block on (the low
                    // half: no job's blocks cross into another high half).
                    rows[1] = rows[0];
                    rows[1][12] = rows[0][12].add(one);
                } else if rebuild[s] {
                    for (l, lane) in lanes[s].iter().enumerate().take(V::BLOCKS) {
                        blocks[s].0[l][12] = lane.counter as u32;
                        blocks[s].0[l][13] = word13[s][l].wrapping_add((lane.counter >> 32) as u32);
                    }
                    let flat = blocks[s].0.as_ptr().cast::<u8>();
                    // Written out: an array built by a closure is a call outside the
                    // target features.
                    macro_rules! loaded {
                        ($($i:literal),*) => { [$(V::load(flat.add($i * V::BYTES))),*] };
                    }
                    rows[s] = V::untranspose(loaded!(
                        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
                    ));
                    // Every lane's first four words are the constants: their rows are
                    // splats, so the shuffles that only fed them fall away.
                    for (row, word) in rows[s].iter_mut().zip(SIGMA) {
                        *row = V::splat(word);
                    }
                    rebuild[s] = false;
                } else {
                    rows[s][12] = rows[s][12].add(step);
                }
            }
            if paired {
                let (mut x, mut y) = (rows[0], rows[1]);
                rounds_side_by_side(&mut x, &mut y, double_rounds);
                let (lanes, held) = (&mut lanes[0], &mut held[0]);
                rebuild[0] |= finish_pair::<V, J>(x, y, &rows, lanes, held, &mut held_blocks);
            } else if S == 2 && busy[0] != 0 && busy[1] != 0 {
                let (mut x, mut y) = (rows[0], rows[1]);
                rounds_side_by_side(&mut x, &mut y, double_rounds);
                let (first, last) = lanes.split_at_mut(1);
                let (first, last) = (&mut first[0], &mut last[0]);
                finish_batch::<V, J>(x, &rows[0], first, &mut held[0], &mut rebuild[0]);
                let held = &mut held[1];
                finish_batch::<V, J>(y, &rows[1], last, held, &mut rebuild[1]);
            } else {
                for s in 0..S {
                    if busy[s] != 0 {
                        let mut x = rows[s];
                        rounds(&mut x, double_rounds);
                        let held = &mut held[s];
                        finish_batch::<V, J>(x, &rows[s], &mut lanes[s], held, &mut rebuild[s]);
                    }
                }
            }
        }
    }
    // The key words of the last jobs (only the first `V::BLOCKS` rows of a set were
    // written), and any keystream kept aside.
    // SAFETY: the CPU has V's features; each `blocks[s]` is an `Aligned`.
    unsafe {
        for set in blocks.iter_mut() {
            zero_rows::<V>(set, V::BLOCKS);
        }
        if J::HOLDS && J::PAIRED {
            let zero = V::splat(0);
            for block in held_blocks.iter_mut() {
                core::ptr::write_volatile(block, zero);
            }
        }
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    wipe(&mut word13);
}

/// A batch's end: the rounds' output `x` plus the initial `rows`, transposed into
/// keystream, each busy lane's block written (see [`write_lane`]); a lane waiting for
/// its source ([`Jobs::HOLDS`]) is passed over, and the set's rows marked for a
/// rebuild (its counter row moves on without it).
///
/// # Safety
/// As for the batch in [`xor_burst_sets`].
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
unsafe fn finish_batch<V: Lanes, J: Jobs>(
    mut x: [V; 16],
    rows: &[V; 16],
    lanes: &mut [Lane; 16],
    held: &mut [*mut u8; 16],
    rebuild: &mut bool,
) {
    // SAFETY: the caller's.
    unsafe {
        for i in 0..16 {
            x[i] = x[i].add(rows[i]);
        }
        let ks = V::transpose(x);
        // Lane by lane with constant indices into `ks`, so that every vector is named
        // by a constant and stays in its register (a loop over the lanes indexed `ks`
        // at run time, through a copy on the stack).
        macro_rules! write_lanes {
            ($($l:literal),*) => {
                $(
                    if $l < V::BLOCKS {
                        if J::HOLDS && !held[$l].is_null() {
                            *rebuild = true;
                        } else {
                            let key = lanes[$l].key;
                            *rebuild |= write_lane::<V>(&mut lanes[$l], &ks, $l);
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

/// A paired batch's end ([`Jobs::PAIRED`]): both sets' keystream, and each busy lane's
/// two blocks written in order, the first set's then the second's (see
/// [`write_lane`]). With [`Jobs::HOLDS`], a lane whose first block is its key block
/// keeps its second in `held_blocks` and waits (its key in `held`), and a waiting
/// lane is passed over. Returns whether the rows need a rebuild: a lane's counter
/// wrapped, or a lane waits (the counter row moves on without it).
///
/// # Safety
/// As for the batch in [`xor_burst_sets`]; `V::BLOCKS` is 16.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
unsafe fn finish_pair<V: Lanes, J: Jobs>(
    mut x: [V; 16],
    mut y: [V; 16],
    rows: &[[V; 16]],
    lanes: &mut [Lane; 16],
    held: &mut [*mut u8; 16],
    held_blocks: &mut [V; 16],
) -> bool {
    let mut rebuild = false;
    // SAFETY: the caller's.
    unsafe {
        for i in 0..16 {
            x[i] = x[i].add(rows[0][i]);
            y[i] = y[i].add(rows[1][i]);
        }
        let (first, second) = (V::transpose(x), V::transpose(y));
        // Constant lane indices, as in `finish_batch`.
        let per_block = 64 / V::BYTES;
        macro_rules! write_lanes {
            ($($l:literal),*) => {
                $(
                    let lane = &mut lanes[$l];
                    if J::HOLDS && !held[$l].is_null() {
                        rebuild = true;
                    } else {
                        let key = lane.key;
                        rebuild |= write_lane::<V>(lane, &first, $l);
                        if J::HOLDS && !key.is_null() {
                            held[$l] = key;
                            for m in 0..per_block {
                                held_blocks[$l * per_block + m] = second[$l * per_block + m];
                            }
                        } else {
                            rebuild |= write_lane::<V>(lane, &second, $l);
                        }
                    }
                )*
            };
        }
        write_lanes!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    }
    rebuild
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
