//! The burst plan: lanes across messages. Each 32-bit lane of a vertical batch holds a
//! block of its own job (its key, nonce and counter rows, its own destination), so a
//! burst of short messages fills the vector units that one short message leaves idle.
//!
//! ```text
//! xor_burst(jobs):
//!     lane l holds job j: its sixteen initial words in blocks[l]
//!     loop:
//!         every lane whose job is done takes the next non-empty job (refill)
//!         no lane busy: done
//!         counter rows of each lane from its own counter
//!         after refills: rows = untranspose(blocks) (the inverse of the transpose)
//!         x = rows with each lane's counter words; rounds(x); x += that; transpose
//!         lane l's block is ks[l * 64 / BYTES ..]: XORed into its job's destination,
//!             whole vectors, then the ISA's tail trick for a partial last block
//!         each busy lane: one block on (pointers, counter)
//! ```
//!
//! A lane refilled from the next job as soon as its own ends keeps every lane busy
//! through a burst of mixed lengths; only the burst's last blocks run with lanes idle.

use super::lanes::Lanes;
use super::rounds::rounds;
use crate::state::State;
use crate::wipe::wipe;

/// One message of a burst for the kernel: `len` bytes from `input` XORed with the
/// keystream of `state` from block `counter` into `output`.
#[derive(Clone, Copy)]
pub(crate) struct Job<'a> {
    pub(crate) state: &'a State,
    pub(crate) counter: u64,
    pub(crate) input: *const u8,
    pub(crate) output: *mut u8,
    pub(crate) len: usize,
}

/// What one lane is doing: the rest of its job.
#[derive(Clone, Copy)]
#[cfg_attr(not(lane_simd), allow(dead_code))]
struct Lane {
    input: *const u8,
    output: *mut u8,
    /// Bytes of the job still to XOR (0: the lane is free).
    left: usize,
    /// Bytes of the job already written (the `before` of the tail trick).
    done: usize,
    counter: u64,
}

#[cfg_attr(not(lane_simd), allow(dead_code))]
const FREE: Lane = Lane {
    input: core::ptr::null(),
    output: core::ptr::null_mut(),
    left: 0,
    done: 0,
    counter: 0,
};

/// XORs every job's keystream into its destination, `V::BLOCKS` lanes across jobs,
/// each lane refilled with the next job's blocks as its own job ends.
///
/// # Safety
/// The CPU has the features `V` requires; every job's `input` is readable and `output`
/// writable for its `len` bytes, the two equal or disjoint, and no job's bytes overlap
/// another's; for RFC 8439 states `counter + ceil(len / 64) <= 2^32`; every state has
/// `double_rounds` double rounds.
// The 32-bit Arm and portable backends loop over their single-message kernel instead.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
pub(crate) unsafe fn xor_burst<V: Lanes>(jobs: &[Job<'_>], double_rounds: u32) {
    // `blocks[l]`: lane `l`'s initial state, turned into word rows (`V::untranspose`)
    // after a batch's refills; its counter words come from `lo` and `hi` each batch
    // (word 13 of the state in `word13`, for the high half to be added to).
    let mut blocks = [[0u32; 16]; 16];
    let (mut lo, mut hi, mut word13) = ([0u32; 16], [0u32; 16], [0u32; 16]);
    let mut lanes = [FREE; 16];
    let mut next = 0;
    // SAFETY: the CPU has V's features.
    let mut rows: [V; 16] = unsafe { core::array::from_fn(|_| V::splat(0)) };
    loop {
        let (mut busy, mut refilled) = (false, false);
        for (l, lane) in lanes.iter_mut().enumerate().take(V::BLOCKS) {
            if lane.left == 0 {
                while next < jobs.len() && jobs[next].len == 0 {
                    next += 1;
                }
                if next < jobs.len() {
                    let job = &jobs[next];
                    debug_assert_eq!(job.state.double_rounds, double_rounds);
                    blocks[l] = job.state.words;
                    word13[l] = job.state.words[13];
                    *lane = Lane {
                        input: job.input,
                        output: job.output,
                        left: job.len,
                        done: 0,
                        counter: job.counter,
                    };
                    next += 1;
                    refilled = true;
                }
            }
            busy |= lane.left != 0;
            lo[l] = lane.counter as u32;
            hi[l] = word13[l].wrapping_add((lane.counter >> 32) as u32);
        }
        if !busy {
            break;
        }
        // SAFETY: the CPU has V's features; `blocks` holds `16 * V::BYTES` bytes (its
        // first `V::BLOCKS` lanes), `lo` and `hi` at least `V::BYTES`. Each busy lane
        // writes at most its job's next 64 bytes, within the job (`left`), with the
        // job's `done` bytes before them already final (the tail trick's `before`).
        unsafe {
            if refilled {
                let flat = blocks.as_ptr().cast::<u8>();
                rows = V::untranspose(core::array::from_fn(|i| V::load(flat.add(i * V::BYTES))));
            }
            let mut init = rows;
            init[12] = V::load(lo.as_ptr().cast());
            init[13] = V::load(hi.as_ptr().cast());
            let mut x = init;
            rounds(&mut x, double_rounds);
            for i in 0..16 {
                x[i] = x[i].add(init[i]);
            }
            let ks = V::transpose(x);
            let per_block = 64 / V::BYTES;
            for (l, lane) in lanes.iter_mut().enumerate().take(V::BLOCKS) {
                if lane.left == 0 {
                    continue;
                }
                let n = lane.left.min(64);
                for m in 0..per_block {
                    let at = m * V::BYTES;
                    let v = ks[l * per_block + m];
                    if n >= at + V::BYTES {
                        v.xor(V::load(lane.input.add(at)))
                            .store(lane.output.add(at));
                    } else {
                        if n > at {
                            let (i, o) = (lane.input.add(at), lane.output.add(at));
                            v.xor_tail(i, o, n - at, lane.done + at);
                        }
                        break;
                    }
                }
                lane.input = lane.input.add(n);
                lane.output = lane.output.add(n);
                lane.left -= n;
                lane.done += n;
                lane.counter = lane.counter.wrapping_add(1);
            }
        }
    }
    // The key words of the last jobs.
    wipe(&mut blocks);
    wipe(&mut word13);
}
