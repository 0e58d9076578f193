//! Poly1305 across messages: the AEAD MACs of a burst, one message per vector lane.
//!
//! A short message's MAC is a chain of dependent multiplications, one per 16-byte
//! block, which leaves the vector units idle; the multi-block backends ([`super::avx2`],
//! [`super::ifma`]) shorten the chain with powers of `r`, which a short message does
//! not repay. Here each lane holds a message of its own — its own `r` and `s`, its own
//! accumulator — so one vector multiplication advances `LANES` messages by a block each
//! and no powers of `r` are needed:
//!
//! ```text
//! tags(jobs):
//!     lane l takes job j: h_l = 0, r_l = its clamped r; its blocks are the AEAD's MAC
//!         input as runs: whole AAD blocks, the padded AAD tail, whole ciphertext
//!         blocks, the padded ciphertext tail and the lengths block (the last two
//!         side by side in the lane's own 48-byte pad)
//!     loop:
//!         k = the fewest blocks left in any busy lane's current run
//!         k steps: h_l = (h_l + m_l) · r_l for every lane, m_l its run's next block
//!         lanes whose run ended move to their next run; lanes whose message ended
//!             give their h (one store of the vectors), finished with s into the tag,
//!             and take the next job
//! ```
//!
//! Every AEAD MAC block is a whole 16-byte block with the 2^128 bit (the padding sees
//! to that), so the lanes never need the final partial block's other form. A free lane
//! (no job left) keeps stepping on a zero block, its result never read. The arithmetic
//! of a step is each instruction set's [`MacLanes`]; this driver, the runs and the
//! refills are written once.
//!
//! Constant time: the branches and indices depend on the lengths only; the per-lane
//! arithmetic is the fixed-latency vector code of the single-message backends.

// Only x86-64 has lane types ([`super::avx2_lanes`], [`super::ifma_lanes`]); elsewhere
// every burst MAC is `tags_portable`'s.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use super::Poly1305Backend;
use super::portable::{MacState, tail_words};
use crate::wipe::wipe;

/// One AEAD MAC of a burst: its one-time key (keystream block 0, of which the MAC uses
/// the first 32 bytes: `r`, then `s`), the AAD and the ciphertext.
#[derive(Clone, Copy)]
pub(crate) struct MacJob<'a> {
    pub(crate) key: &'a [u8; 64],
    pub(crate) aad: &'a [u8],
    pub(crate) ciphertext: &'a [u8],
}

/// The vector arithmetic of one instruction set: `LANES` accumulators (at most 8),
/// each with its own multiplier.
///
/// # Safety
/// Implementations use instructions the CPU may lack: every method is `unsafe`, and
/// callers call them only where the CPU has the features the implementation names.
pub(crate) unsafe trait MacLanes: Sized {
    /// Messages side by side.
    const LANES: usize;
    /// Every lane at `h = 0`, `r = 0`.
    unsafe fn new() -> Self;
    /// Lane `lane` starts a message under the clamped key `r` (two 64-bit halves), its
    /// accumulator at zero.
    unsafe fn start(&mut self, lane: usize, r: [u64; 2]);
    /// One block for every lane: `h = (h + m) · r`, `m` the 16 bytes at `blocks[lane]`
    /// with the 2^128 bit.
    unsafe fn step(&mut self, blocks: &[*const u8; 8]);
    /// The accumulators of the lanes whose bits are set in `which`, in the portable
    /// form (64-bit limbs, the top one at most 4), into `out`.
    unsafe fn accumulators(&self, which: u8, out: &mut [[u64; 3]; 8]);
    /// Overwrites every accumulator and multiplier.
    fn wipe(&mut self);
}

/// A zero block, where a lane without a message steps.
static ZERO: [u8; 16] = [0; 16];

/// The block streams of the lanes: for each, the run of blocks it is in and the runs
/// after it, array by array (no lane's state is moved around as a whole).
struct Streams {
    /// Each lane's job index; `usize::MAX` for a free lane.
    job: [usize; 8],
    /// Each lane's next block, and the blocks left in its run.
    at: [*const u8; 8],
    left: [usize; 8],
    /// Each lane's runs (first block, blocks): whole AAD blocks, the padded AAD tail,
    /// whole ciphertext blocks, then the padded ciphertext tail and the lengths block;
    /// and the index of the run after the current one.
    runs: [[(*const u8, usize); 4]; 8],
    next: [usize; 8],
    /// Each lane's padded partial blocks and lengths block (the runs point into it).
    pads: [[[u8; 16]; 3]; 8],
}

/// `w` as the 16 little-endian bytes of a block.
#[inline(always)]
fn block_bytes(w: [u64; 2]) -> [u8; 16] {
    (u128::from(w[0]) | (u128::from(w[1]) << 64)).to_le_bytes()
}

impl Streams {
    /// Lane `lane` takes `jobs[index]`.
    #[inline(always)]
    fn open(&mut self, lane: usize, jobs: &[MacJob<'_>], index: usize) {
        let MacJob {
            aad, ciphertext, ..
        } = jobs[index];
        let (aad_whole, ct_whole) = (aad.len() / 16, ciphertext.len() / 16);
        let aad_tail = !aad.len().is_multiple_of(16);
        let ct_tail = !ciphertext.len().is_multiple_of(16);
        let pad = &mut self.pads[lane];
        if aad_tail {
            pad[0] = block_bytes(tail_words(&aad[16 * aad_whole..]));
        }
        if ct_tail {
            pad[1] = block_bytes(tail_words(&ciphertext[16 * ct_whole..]));
        }
        pad[2] = block_bytes([aad.len() as u64, ciphertext.len() as u64]);
        self.runs[lane] = [
            (aad.as_ptr(), aad_whole),
            (pad[0].as_ptr(), usize::from(aad_tail)),
            (ciphertext.as_ptr(), ct_whole),
            (
                pad[1 + usize::from(!ct_tail)].as_ptr(),
                1 + usize::from(ct_tail),
            ),
        ];
        self.job[lane] = index;
        self.next[lane] = 0;
        self.advance(lane);
    }

    /// Moves lane `lane` to its next run with blocks; `false` if there is none (its
    /// message ended).
    #[inline(always)]
    fn advance(&mut self, lane: usize) -> bool {
        while self.next[lane] < 4 {
            let (at, blocks) = self.runs[lane][self.next[lane]];
            self.next[lane] += 1;
            if blocks != 0 {
                (self.at[lane], self.left[lane]) = (at, blocks);
                return true;
            }
        }
        false
    }
}

/// Blocks of `job`'s MAC input.
#[inline(always)]
pub(crate) fn blocks(job: &MacJob<'_>) -> usize {
    job.aad.len().div_ceil(16) + job.ciphertext.len().div_ceil(16) + 1
}

/// Whether the refilled lanes beat the portable code for `jobs`: at least four
/// messages, of `long` blocks or more on average. Shorter ones spend more on each lane's
/// setup, run changes and finish than on their few steps, and the portable chain per
/// block costs less than a vector step (timed in the commit that set each `long`;
/// figures in `docs/tuning.md`).
#[inline(always)]
pub(crate) fn refilled_lanes_pay(jobs: &[MacJob<'_>], long: usize) -> bool {
    jobs.len() >= 4 && jobs.iter().map(blocks).sum::<usize>() >= long * jobs.len()
}

/// Clamped `r` of a one-time key, as the portable code reads it.
#[inline(always)]
fn clamped_r(key: &[u8; 64]) -> [u64; 2] {
    let (r, _) = key.split_first_chunk::<16>().expect("64 bytes");
    MacState::new(r).r
}

/// Writes each job's tag to `tags` (as long as `jobs`), `L::LANES` messages at a time.
///
/// # Safety
/// The CPU has the features `L` requires.
#[inline(always)]
pub(crate) unsafe fn tags<L: MacLanes>(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    assert_eq!(jobs.len(), tags.len(), "a tag for every job");
    let mut streams = Streams {
        job: [usize::MAX; 8],
        at: [ZERO.as_ptr(); 8],
        left: [0; 8],
        runs: [[(ZERO.as_ptr(), 0); 4]; 8],
        next: [4; 8],
        pads: [[[0; 16]; 3]; 8],
    };
    // SAFETY: the CPU has L's features (the caller's), for every call below.
    let mut lanes = unsafe { L::new() };
    let mut taken = 0;
    for lane in 0..L::LANES.min(jobs.len()) {
        streams.open(lane, jobs, taken);
        // SAFETY: as above.
        unsafe { lanes.start(lane, clamped_r(jobs[taken].key)) };
        taken += 1;
    }
    let mut h = [[0u64; 3]; 8];
    loop {
        // The steps every busy lane can take without leaving its run.
        let mut k = usize::MAX;
        let mut stride = [0usize; 8];
        for (lane, stride) in stride.iter_mut().enumerate().take(L::LANES) {
            if streams.job[lane] != usize::MAX {
                k = k.min(streams.left[lane]);
                *stride = 16;
            }
        }
        if k == usize::MAX {
            break;
        }
        let mut at = streams.at;
        for _ in 0..k {
            // SAFETY: as above; every pointer is a busy lane's next block within its
            // run (`k` at most the blocks left in it), or the zero block.
            unsafe { lanes.step(&at) };
            for lane in 0..L::LANES {
                at[lane] = at[lane].wrapping_add(stride[lane]);
            }
        }
        streams.at = at;
        let mut ended = 0u8;
        for lane in 0..L::LANES {
            if streams.job[lane] != usize::MAX {
                streams.left[lane] -= k;
                if streams.left[lane] == 0 && !streams.advance(lane) {
                    ended |= 1 << lane;
                }
            }
        }
        if ended == 0 {
            continue;
        }
        // SAFETY: as above.
        unsafe { lanes.accumulators(ended, &mut h) };
        for (lane, h) in h.iter().enumerate().take(L::LANES) {
            if ended & (1 << lane) == 0 {
                continue;
            }
            let job = streams.job[lane];
            let s: &[u8; 16] = jobs[job].key[16..32].try_into().expect("16 bytes");
            tags[job] = MacState::finish_h(h, s);
            if taken < jobs.len() {
                streams.open(lane, jobs, taken);
                // SAFETY: as above.
                unsafe { lanes.start(lane, clamped_r(jobs[taken].key)) };
                taken += 1;
            } else {
                streams.job[lane] = usize::MAX;
                streams.at[lane] = ZERO.as_ptr();
            }
        }
    }
    wipe(&mut h);
    lanes.wipe();
}

/// The same one job at a time on the portable code: the AEAD MAC as
/// [`crate::poly1305::AeadMac`] computes it.
pub(crate) fn tags_portable(jobs: &[MacJob<'_>], tags: &mut [[u8; 16]]) {
    tags_one_by_one(Poly1305Backend::Portable, jobs, tags);
}

/// The same one job at a time, each run of whole blocks absorbed as the single-message
/// MAC absorbs it on `backend` ([`Poly1305Backend::blocks`]: a long run on its vector
/// code with powers of `r`, a short one on the portable code).
pub(crate) fn tags_one_by_one(
    backend: Poly1305Backend,
    jobs: &[MacJob<'_>],
    tags: &mut [[u8; 16]],
) {
    assert_eq!(jobs.len(), tags.len(), "a tag for every job");
    for (job, out) in jobs.iter().zip(tags) {
        let (r, _) = job.key.split_first_chunk::<16>().expect("64 bytes");
        let mut state = MacState::new(r);
        for data in [job.aad, job.ciphertext] {
            let whole = data.len() & !15;
            backend.blocks(&mut state, &data[..whole]);
            if whole != data.len() {
                state.block_words(tail_words(&data[whole..]), 1);
            }
        }
        state.block_words([job.aad.len() as u64, job.ciphertext.len() as u64], 1);
        *out = state.finish(job.key[16..32].try_into().expect("16 bytes"));
        state.wipe();
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use std::vec;
    use std::vec::Vec;

    use super::super::Poly1305Backend;
    use super::*;
    use poly1305::universal_hash::KeyInit;

    /// Deterministic pseudo-random numbers (xorshift64).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        /// A length up to `most`, three in four on or next to a 16-byte block edge.
        fn length(&mut self, most: usize) -> usize {
            if self.below(4) == 0 {
                self.below(most + 1)
            } else {
                (16 * self.below(most / 16 + 1) + self.below(3))
                    .saturating_sub(1)
                    .min(most)
            }
        }
        fn bytes(&mut self, n: usize) -> Vec<u8> {
            (0..n).map(|_| self.next() as u8).collect()
        }
    }

    /// RustCrypto's Poly1305 over the AEAD's MAC input (RFC 8439 §2.8).
    fn reference(key: &[u8; 64], aad: &[u8], ciphertext: &[u8]) -> [u8; 16] {
        let mut input = Vec::new();
        for data in [aad, ciphertext] {
            input.extend_from_slice(data);
            input.resize(input.len().next_multiple_of(16), 0);
        }
        input.extend_from_slice(&(aad.len() as u64).to_le_bytes());
        input.extend_from_slice(&(ciphertext.len() as u64).to_le_bytes());
        let key: &[u8; 32] = key[..32].try_into().unwrap();
        poly1305::Poly1305::new(key.into())
            .compute_unpadded(&input)
            .into()
    }

    /// Every MAC backend this CPU has gives `jobs` the reference tags (`what` names the
    /// case in a failure).
    fn assert_tags_match_reference(jobs: &[MacJob<'_>], what: &str) {
        let want: Vec<[u8; 16]> = jobs
            .iter()
            .map(|j| reference(j.key, j.aad, j.ciphertext))
            .collect();
        for backend in Poly1305Backend::available() {
            let mut got = vec![[0u8; 16]; jobs.len()];
            backend.aead_tags(jobs, &mut got);
            assert_eq!(got, want, "{} {what}", backend.name());
        }
        // IFMA's refilled lanes for every job, whichever way this core's bursts go.
        #[cfg(target_arch = "x86_64")]
        if Poly1305Backend::Avx512Ifma.is_available() {
            let mut got = vec![[0u8; 16]; jobs.len()];
            // SAFETY: the CPU has IFMA's features (checked just above).
            unsafe { super::super::ifma_lanes::refilled_tags(jobs, &mut got) };
            assert_eq!(got, want, "IFMA refilled lanes {what}");
        }
        // The one-at-a-time form on every backend.
        for backend in Poly1305Backend::available() {
            let mut got = vec![[0u8; 16]; jobs.len()];
            tags_one_by_one(backend, jobs, &mut got);
            assert_eq!(got, want, "{} one by one {what}", backend.name());
        }
    }

    /// Random sets of 1 to 40 messages, one set in eight of up to 140 (more than one
    /// IFMA chunk), with AAD 0..=80 bytes and ciphertext 0..=4096, biased to block
    /// edges, and keys random, all-0xff or all-zero; more messages than lanes so that
    /// lanes are refilled at every phase and run idle at the end; their shapes (AAD
    /// and ciphertext lengths) drawn from one, two, three or many, so that the sets of
    /// one shape in lockstep and the refilled lanes both run, side by side: each
    /// backend's tags are RustCrypto's.
    #[test]
    fn every_backend_matches_the_reference() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..240 {
            let n = 1 + rng.below(if round % 8 == 7 { 140 } else { 40 });
            let shapes: Vec<(usize, usize)> = (0..[1, 2, 3, 40][round % 4])
                .map(|_| (rng.length(80), rng.length([600, 4096][round / 4 % 2])))
                .collect();
            let keys: Vec<[u8; 64]> = (0..n)
                .map(|i| match (round + i) % 7 {
                    0 => [0xff; 64],
                    1 => [0; 64],
                    _ => rng.bytes(64).try_into().unwrap(),
                })
                .collect();
            let data: Vec<(Vec<u8>, Vec<u8>)> = (0..n)
                .map(|_| {
                    let (aad, ct) = shapes[rng.below(shapes.len())];
                    (rng.bytes(aad), rng.bytes(ct))
                })
                .collect();
            let jobs: Vec<MacJob<'_>> = keys
                .iter()
                .zip(&data)
                .map(|(key, (aad, ct))| MacJob {
                    key,
                    aad,
                    ciphertext: ct,
                })
                .collect();
            assert_tags_match_reference(&jobs, &std::format!("on set {round} of {n}"));
        }
    }

    /// An accumulator that ends in `[p, 2^130)`, where the tag is `h - p + s` (the
    /// final reduction's other branch, which random messages never reach): `r = 1`, so
    /// `h` is the sum of the blocks with their 2^128 bits, `3·2^128 + m1 + m2 + lengths`
    /// with the ciphertext's first block `2^128 - 3 - lengths` and its second zero:
    /// `h = 2^130 - 3`. Eight such messages (a set in lockstep), the same with each `s`
    /// all-0xff (the carry out of `+ s`), and single ones of other shapes beside them
    /// (the refilled lanes).
    #[test]
    fn accumulators_between_p_and_2_130_match_the_reference() {
        let lengths = 32u128 << 64;
        let first = (u128::MAX - 2 - lengths).to_le_bytes();
        let mut ciphertext = [0u8; 32];
        ciphertext[..16].copy_from_slice(&first);
        let mut keys = [[0u8; 64]; 2];
        keys[0][0] = 1;
        keys[1][0] = 1;
        keys[1][16..32].fill(0xff);
        let other = [0x5au8; 100];
        for key in &keys {
            let mut jobs: Vec<MacJob<'_>> = (0..8)
                .map(|_| MacJob {
                    key,
                    aad: &[],
                    ciphertext: &ciphertext,
                })
                .collect();
            for n in [1, 17, 40] {
                jobs.push(MacJob {
                    key,
                    aad: &other[..n % 7],
                    ciphertext: &other[..n],
                });
            }
            assert_tags_match_reference(&jobs, "");
        }
    }

    /// The largest values a lane meets: all-0xff messages under the largest clamped
    /// `r`, every length 0..=40 blocks and one byte less, so that each lane ends on
    /// every step of the others.
    #[test]
    fn all_ones_messages_match_the_reference() {
        let key = [0xff; 64];
        let data = vec![0xff; 16 * 41];
        let lens: Vec<usize> = (0usize..=40)
            .flat_map(|b| [16 * b, (16 * b).saturating_sub(1)])
            .collect();
        let jobs: Vec<MacJob<'_>> = lens
            .iter()
            .map(|&n| MacJob {
                key: &key,
                aad: &data[..n % 32],
                ciphertext: &data[..n],
            })
            .collect();
        assert_tags_match_reference(&jobs, "");
        // The same in sets of one shape (eight of each length): on IFMA each lane's
        // message as two chains in `r²`, which meet the largest values as well.
        for &n in &lens {
            let jobs = [MacJob {
                key: &key,
                aad: &data[..n % 32],
                ciphertext: &data[..n],
            }; 8];
            assert_tags_match_reference(&jobs, &std::format!("a set of {n} bytes"));
        }
    }
}
