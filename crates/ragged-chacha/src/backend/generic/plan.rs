//! The batch plan: how a message of any length is cut into batches.
//!
//! ```text
//! xor_keystream(len):
//!     with a ninth block: batches of W::BLOCKS + 1 blocks first (ninth_block_batches)
//!     while a whole W batch remains: a full W batch           (full_batches)
//!     with FUSE_REMAINDER, a rest of up to 3 row sets after a full batch:
//!         that batch and the rest together                     (fused_batch)
//!     else the rest, if any, as ONE batch:                     (one_batch)
//!         up to 3 row sets of H::ROW_BLOCKS (with the row form), else
//!         the narrowest of N, M, W that holds it               (vertical_rest)
//! ```
//!
//! No double round at all (a 0-round variant) goes to [`no_rounds`] before any batch.

#[cfg(lane_simd)]
use super::fused::{fused_batch, max_fused_blocks};
use super::lanes::Lanes;
#[cfg(lane_simd)]
use super::lanes::Rows;
use super::rounds::BatchExtras;
#[cfg(lane_simd)]
use super::rounds::Beside;
#[cfg(lane_simd)]
use super::rows::{MAX_ROW_SETS, rows_batch};
#[cfg(lane_simd)]
use super::vertical::batch_pair;
use super::vertical::{CounterRows, batch, batch_nine, full_batch};
use crate::backend::portable::Word;
use crate::state::State;

/// A backend's plan for the batches of a long message (a const parameter of the
/// kernels; one per entry point).
pub(crate) mod bulk {
    /// Full batches, the schedule's nine-block batches among them where it has them
    /// ([`Schedule::NINTH_BLOCK`](crate::backend::schedule::Schedule::NINTH_BLOCK)).
    pub(crate) const FULL: u8 = 0;
    /// The batches of a long message two at a time, side by side (`pair_batches`), for
    /// cores whose vertical rounds alone leave the vector pipes idle; an AEAD's first
    /// batch fused with row sets where that saves batches (`wide_pays`). (Only the
    /// row-form targets have such a backend.)
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    pub(crate) const WIDE: u8 = 1;
    /// Full batches, and nine-block batches only to round out a remainder of a few
    /// blocks (`plain_round_out`), for cores whose integer units share their ports
    /// with the vector ones, so that a ninth block beside the rounds slows them, yet
    /// less than a fused row set does for one to three blocks (Intel's,
    /// docs/tuning.md).
    pub(crate) const PLAIN: u8 = 2;
}

/// One batch of `len` bytes (`0 < len <= 64 * W::BLOCKS`, one block less with a key
/// block): in the row form where its blocks fit in up to `MAX_ROW_SETS` sets, else a
/// vertical batch of the narrowest of `W`, `M`, `N` that holds them.
///
/// # Safety
/// As for [`batch`] with `W`, `M`, `N` and `H`.
#[cfg(lane_simd)]
#[inline(always)]
pub(super) unsafe fn one_batch<W: Lanes, M: Lanes, N: Lanes, H: Rows, E: BatchExtras>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut E,
) {
    let blocks = len.div_ceil(64) + usize::from(E::KEY_BLOCK);
    // SAFETY: forwarded; each batch type holds `blocks` blocks.
    unsafe {
        if blocks <= H::ROW_BLOCKS {
            rows_batch::<H, 1, false>(state, counter, input, output, len, before, extras);
        } else if blocks <= 2 * H::ROW_BLOCKS {
            rows_batch::<H, 2, false>(state, counter, input, output, len, before, extras);
        } else if H::SCALAR_BLOCK
            && !matches!(E::BESIDE, Beside::Mac)
            && blocks == 2 * H::ROW_BLOCKS + 1
        {
            rows_batch::<H, 2, true>(state, counter, input, output, len, before, extras);
        } else if blocks <= MAX_ROW_SETS * H::ROW_BLOCKS {
            rows_batch::<H, 3, false>(state, counter, input, output, len, before, extras);
        } else {
            vertical_rest::<W, M, N, _>(state, counter, input, output, len, before, extras);
        }
    }
}

/// The kernel contract: XOR keystream blocks `counter, counter + 1, …` into `len`
/// bytes in one pass — full batches of the widest type `W`, then the remainder as a
/// single batch of the narrowest of `W`, `M`, `N` that holds it.
///
/// # Safety
/// The CPU has the features of `W`, `M` and `N`; `input` is readable and `output`
/// writable for `len` bytes; they are the same pointer or do not overlap.
#[inline(always)]
pub(crate) unsafe fn xor_keystream<W: Lanes, M: Lanes, N: Lanes>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: forwarded; the remainder gets exactly its own range and counter.
    unsafe {
        let (counter, done) =
            full_batches::<W, { bulk::FULL }, false>(state, counter, input, output, len, 0, 0);
        if len > done {
            let (i, o) = (input.add(done), output.add(done));
            vertical_rest::<W, M, N, _>(state, counter, i, o, len - done, done, &mut ())
        }
    }
}

/// As [`xor_keystream`], with a remainder of up to `MAX_ROW_SETS * H::ROW_BLOCKS`
/// blocks done in the row form (one to three interleaved sets), which is faster for a
/// few blocks; with [`Schedule::FUSE_REMAINDER`], inside the last full batch's round
/// loop where there is one. `BULK` is the plan for the batches before: with
/// [`bulk::WIDE`] a long message runs in pair batches ([`pair_batches`]) first;
/// [`bulk::PLAIN`] runs nine-block batches only to round out a
/// remainder of at most [`plain_round_out`]`(false)` blocks.
///
/// [`Schedule::FUSE_REMAINDER`]: crate::backend::schedule::Schedule::FUSE_REMAINDER
///
/// # Safety
/// As for [`xor_keystream`], and the CPU has the features of `H`.
#[cfg(lane_simd)]
#[inline(always)]
pub(crate) unsafe fn xor_keystream_rows<W: Lanes, M: Lanes, N: Lanes, H: Rows, const BULK: u8>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: forwarded.
    unsafe { keystream_rows::<W, M, N, H, BULK, false>(state, counter, input, output, len) }
}

/// The most blocks of remainder that [`bulk::PLAIN`] rounds out with nine-block
/// batches (so many of them, each a block more than a full batch), for the rest of an
/// AEAD message (`aead`) or a keystream call; a longer remainder is fused into the
/// last full batch. Why: a fused row set takes the vector ports for four blocks'
/// work however few it holds, a ninth block the integer units that share those ports
/// on Intel; which costs less for a given remainder was measured for each kind
/// (docs/tuning.md, "ChaCha backends").
#[inline(always)]
const fn plain_round_out(aead: bool) -> usize {
    if aead { 3 } else { 1 }
}

/// [`xor_keystream_rows`] for a keystream call or (`AEAD`) the rest of an AEAD message
/// after its key batch: [`bulk::PLAIN`]'s nine-block batches round out a remainder of
/// at most [`plain_round_out`]`(AEAD)` blocks.
///
/// # Safety
/// As for [`xor_keystream_rows`].
#[cfg(lane_simd)]
#[inline(always)]
pub(super) unsafe fn keystream_rows<
    W: Lanes,
    M: Lanes,
    N: Lanes,
    H: Rows,
    const BULK: u8,
    const AEAD: bool,
>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    let fuse = if W::FUSE_REMAINDER {
        64 * max_fused_blocks::<H>()
    } else {
        0
    };
    // SAFETY: forwarded; each branch gets exactly the remainder's range and counter
    // (the fused batch: the last full batch and the remainder after it).
    // (No closures here: they would not inherit the caller's target features.)
    unsafe {
        let (counter, start) =
            if BULK == bulk::WIDE && W::FUSE_REMAINDER && state.double_rounds != 0 {
                pair_batches::<W, H>(state, counter, input, output, len)
            } else {
                (counter, 0)
            };
        let (counter, done) =
            full_batches::<W, BULK, AEAD>(state, counter, input, output, len, fuse, start);
        // (`W::FUSE_REMAINDER` first: the compiler cannot tell that without it
        // `full_batches` never leaves more than a batch, and would emit the fused
        // batch's code anyway.)
        if W::FUSE_REMAINDER && len - done > 64 * W::BLOCKS {
            let (i, o) = (input.add(done), output.add(done));
            fused_batch::<W, H, _>(state, counter, i, o, len - done, done, &mut ());
        } else if len > done {
            let (i, o) = (input.add(done), output.add(done));
            one_batch::<W, M, N, H, _>(state, counter, i, o, len - done, done, &mut ());
        }
    }
}

/// The wide bulk ([`bulk::WIDE`]): pair batches ([`batch_pair`], two vertical batches
/// side by side) while more blocks are left than a fused batch holds (`W::BLOCKS +
/// max_fused_blocks`), the last one partial where fewer than a pair's are left; the
/// plan's own batches for the rest. On the core that takes this plan (Zen 5) a
/// 16-lane batch's rounds are bound by the latency of their operations and leave the
/// vector pipes idle, so a second batch beside them costs less than a fused batch's
/// row sets do for their blocks (figures in docs/tuning.md, "ChaCha backends").
/// Returns the counter and byte offset of what it leaves.
///
/// # Safety
/// As for [`xor_keystream_rows`]; the state has at least one double round.
#[cfg(lane_simd)]
#[inline(always)]
unsafe fn pair_batches<W: Lanes, H: Rows>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) -> (u64, usize) {
    let fused_most = W::BLOCKS + max_fused_blocks::<H>();
    let mut done = 0;
    if len.div_ceil(64) > fused_most {
        // SAFETY: the CPU has W's features.
        let mut rows = unsafe { CounterRows::<W>::at(state, counter) };
        while (len - done).div_ceil(64) > fused_most {
            let this = (len - done).min(128 * W::BLOCKS);
            // SAFETY: bytes `done..done + this` of the message, more than one batch's
            // (`fused_most >= W::BLOCKS` blocks are left), at most two, with the
            // `done` bytes before them in the same message and their own counters.
            unsafe {
                batch_pair::<W>(state, rows, input.add(done), output.add(done), this, done);
            }
            done += this;
            // SAFETY: the CPU has W's features.
            rows = unsafe { rows.advanced(2 * W::BLOCKS) };
        }
    }
    // Whole blocks before `done`, unless the last pair ended the message (then
    // nothing is left for the counter to start).
    (counter.wrapping_add((done / 64) as u64), done)
}

/// Whether a message of `blocks` blocks (more to come after them) takes fewer
/// batches starting with a whole wide batch (`W::BLOCKS + max_fused_blocks` blocks,
/// the most a fused batch holds) than in the plan's own full batches and fused last
/// one. Where the counts are equal the plan runs them: fused batches with few blocks
/// beside them measured slower than plain and ninth-block ones. Where it holds, the
/// message has more than `2 * W::BLOCKS + max_fused_blocks` blocks: more than
/// `W::BLOCKS` are left after the wide batch.
#[cfg(lane_simd)]
#[inline(always)]
pub(super) fn wide_pays<W: Lanes, H: Rows>(blocks: usize) -> bool {
    let most = W::BLOCKS + max_fused_blocks::<H>();
    let wide = blocks.div_ceil(most);
    let plain = 1 + blocks.saturating_sub(most).div_ceil(W::BLOCKS);
    wide > 1 && wide < plain
}

/// The keystream of a state with no double round at all (a 0-round variant): the
/// one-block batch on one-word lanes ([`Word`]), block by block, whose round loop then
/// runs no pass. Its own cold function, checked for in [`full_batches`] before the
/// 8-block batches (and by the 32-bit Arm kernel, whose asm loops run at least one
/// double round), so that they can take at least one double round as given: the
/// compiler then drops the path around their round loop, and with it ten reloads of
/// the state a batch (0e01922). Checked before the nine-block batches as well, it
/// made their loop spill more (0e01922).
///
/// # Safety
/// As for [`xor_keystream`].
#[cold]
#[inline(never)]
pub(crate) unsafe fn no_rounds(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    let (mut done, mut counter) = (0, counter);
    while done < len {
        let this = (len - done).min(64);
        // SAFETY: one block of the message, `this` bytes from `done`, with the `done`
        // bytes before it; `Word` needs no CPU feature.
        unsafe {
            let (i, o) = (input.add(done), output.add(done));
            batch::<Word>(state, counter, i, o, this, done, &mut ());
        }
        done += this;
        counter = counter.wrapping_add(1);
    }
}

/// How many batches of `blocks + 1` whole blocks start a `len`-byte message, so that
/// whole `blocks`-block batches cover the rest exactly (the last one may be partial):
/// the most `n` with `n = ceil(len / 64) mod blocks` (mod `blocks`) that leave the
/// partial last block, if any, to a `blocks`-block batch; 0 where there is none
/// (short messages). As many nine-block batches as fit, and the rest as a remainder,
/// measured slower (6caf1d5).
#[inline(always)]
fn ninth_block_batches(blocks: usize, len: usize) -> usize {
    let total = len.div_ceil(64);
    let whole = len / 64;
    let first = total % blocks;
    if (blocks + 1) * first > whole {
        return 0;
    }
    first + blocks * ((whole - (blocks + 1) * first) / (blocks * (blocks + 1)))
}

/// Runs full batches of `W` (with [`Schedule::NINTH_BLOCK`], nine-block ones first:
/// as many as [`ninth_block_batches`] gives, or with [`bulk::PLAIN`] only those that
/// round out a remainder of at most [`plain_round_out`]`(AEAD)` blocks) from
/// byte `start` while a whole batch remains; returns the counter and byte offset of the remainder
/// (`0 <= len - offset < 64 * W::BLOCKS`; with no double round, [`no_rounds`] takes
/// what the nine-block batches leave, and the offset is `len`). With a remainder of
/// at most `fuse` bytes after at least one full batch, it leaves the last full batch
/// too, for the caller's fused batch (`len - offset` then exceeds `64 * W::BLOCKS`). A message that ends
/// with a whole batch runs it here too, not as the remainder batch, whose code (a copy
/// of the batch inlined for partial lengths) is colder (ec529e9).
///
/// # Safety
/// As for [`xor_keystream`] for `W`.
///
/// [`Schedule::NINTH_BLOCK`]: crate::backend::schedule::Schedule::NINTH_BLOCK
#[inline(always)]
unsafe fn full_batches<W: Lanes, const BULK: u8, const AEAD: bool>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    fuse: usize,
    start: usize,
) -> (u64, usize) {
    let wide = 64 * W::BLOCKS;
    let mut done = start;
    let mut counter = counter;
    // SAFETY: each batch covers `input/output[done..done + wide]` with
    // `done + wide <= len` (a nine-block one `done + nine <= len`), and the `done` bytes
    // before it belong to the same message; `no_rounds` gets the rest of the message.
    unsafe {
        // Each loop builds its counter rows only where it runs: built before the
        // checks, they stayed live into the fused batch after them, whose scalar block
        // then spilled more (docs/tuning.md, "ChaCha backends").
        let nine = if W::NINTH_BLOCK {
            let nine = ninth_block_batches(W::BLOCKS, len - start);
            let rounding_out = nine % W::BLOCKS;
            match BULK {
                bulk::PLAIN if rounding_out <= plain_round_out(AEAD) => rounding_out,
                bulk::PLAIN => 0,
                _ => nine,
            }
        } else {
            0
        };
        if nine > 0 {
            let mut rows = CounterRows::<W>::at(state, counter);
            for _ in 0..nine {
                batch_nine::<W>(state, counter, rows, input.add(done), output.add(done));
                done += 64 * (W::BLOCKS + 1);
                counter = counter.wrapping_add(W::BLOCKS as u64 + 1);
                rows = rows.advanced(W::BLOCKS + 1);
            }
        }
        if state.double_rounds == 0 {
            no_rounds(
                state,
                counter,
                input.add(done),
                output.add(done),
                len - done,
            );
            return (counter, len);
        }
        let rest = (len - done) % wide;
        let keep = if rest != 0 && rest <= fuse && len - done > wide {
            wide
        } else {
            0
        };
        if len - done >= wide + keep {
            let mut rows = CounterRows::<W>::at(state, counter);
            while len - done >= wide + keep {
                full_batch::<W>(state, rows, input.add(done), output.add(done));
                done += wide;
                counter = counter.wrapping_add(W::BLOCKS as u64);
                rows = rows.advanced(W::BLOCKS);
            }
        }
    }
    (counter, done)
}

/// The remainder as one vertical batch of the narrowest type that holds its blocks
/// (the key block included, where `extras` takes one).
///
/// # Safety
/// As for [`batch`] with `len <= 64 * W::BLOCKS` (one block less with a key block).
#[inline(always)]
unsafe fn vertical_rest<W: Lanes, M: Lanes, N: Lanes, E: BatchExtras>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut E,
) {
    let blocks = len.div_ceil(64) + usize::from(E::KEY_BLOCK);
    // SAFETY: forwarded; each batch type holds `blocks` blocks.
    unsafe {
        if blocks <= N::BLOCKS {
            batch::<N>(state, counter, input, output, len, before, extras);
        } else if blocks <= M::BLOCKS {
            batch::<M>(state, counter, input, output, len, before, extras);
        } else {
            batch::<W>(state, counter, input, output, len, before, extras);
        }
    }
}
