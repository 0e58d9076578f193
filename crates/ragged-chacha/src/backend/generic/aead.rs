//! The fused one-pass AEAD: the Poly1305 key block computed in the same batch as the
//! first message blocks, and, where the schedule asks for it, the MAC of one batch's
//! ciphertext run on the integer units between the double rounds of the next.

use super::Absorb;
use super::fused::{fused_batch, fused_sets, max_fused_blocks};
use super::lanes::{Lanes, Rows};
use super::plan::{bulk, keystream_rows, one_batch, wide_pays};
use super::rounds::{BatchExtras, Beside};
use super::rows::{MAX_ROW_SETS, rows_batch};
use crate::state::State;
use crate::wipe::wipe;

/// The extras of an AEAD's first batch: the key block goes to `key`, and as soon as it
/// is there the MAC is keyed, so that its setup overlaps the batch's stores (sealing;
/// opening wraps it in [`AbsorbOnKey`]).
struct KeyToMac<'a, A: Absorb> {
    key: &'a mut [u8; 64],
    mac: &'a mut A,
}

impl<A: Absorb> BatchExtras for KeyToMac<'_, A> {
    const KEY_BLOCK: bool = true;

    #[inline(always)]
    fn key_block(&mut self) -> Option<&mut [u8; 64]> {
        Some(self.key)
    }

    #[inline(always)]
    fn key_ready(&mut self) {
        self.mac.key(self.key);
    }
}

/// The AEAD's seal: keystream block 0 goes to `mac.key`, blocks 1, 2, … are XORed
/// into the `len` message bytes, and every whole 16-byte block of the resulting
/// ciphertext goes to the MAC (the caller absorbs the last partial one).
///
/// The key block is computed in the same batch as the first message blocks, not as
/// a batch of its own: a message of up to `MAX_ROW_SETS * H::ROW_BLOCKS - 1` blocks
/// (320 bytes on AVX2) is a single row-form batch, key included; a longer one starts
/// with a wide batch of the key and `W::BLOCKS - 1` message blocks. Then, where
/// [`Schedule::INTERLEAVE_MAC`] is set, one batch after another (the last in the row form
/// where it fits), each absorbing the ciphertext of the batch before it between its
/// double rounds with `mac.absorb_scalar`; `mac.absorb` takes what the last batch
/// wrote. Elsewhere the usual kernel from block `W::BLOCKS`, then `mac.absorb` over
/// all of it.
///
/// # Safety
/// The CPU has the features of `W` and `H`; `input` is readable and `output` writable
/// for `len` bytes; they are the same pointer or do not overlap; for RFC 8439 states,
/// `1 + ceil(len / 64) <= 2^32`.
///
/// [`Schedule::INTERLEAVE_MAC`]: crate::backend::schedule::Schedule::INTERLEAVE_MAC
#[inline(always)]
pub(crate) unsafe fn seal<W: Lanes, H: Rows, A: Absorb, const BULK: u8>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    let mut key = [0u8; 64];
    // SAFETY: every batch below gets a range of the message with the bytes before it
    // (`before`) in the same message, and its own counters; the key buffer is ours.
    // The MAC reads the ciphertext after it is all written.
    unsafe {
        // A message that a row-form batch with the key and one more row-form batch
        // hold starts with the former: the latter then hosts its MAC work.
        let rows_first = 64 * (MAX_ROW_SETS * H::ROW_BLOCKS - 1);
        let first = if W::INTERLEAVE_MAC && len <= rows_first + 64 * MAX_ROW_SETS * H::ROW_BLOCKS {
            len.min(rows_first)
        } else {
            len.min(64 * (W::BLOCKS - 1))
        };
        let mut on_key = KeyToMac {
            key: &mut key,
            mac: &mut *mac,
        };
        if !W::INTERLEAVE_MAC {
            key_batch_and_rest::<W, H, _, BULK>(state, input, output, len, first, &mut on_key);
            mac.absorb(core::slice::from_raw_parts(output, len & !15));
        } else {
            one_batch::<W, W, W, H, _>(state, 0, input, output, first, 0, &mut on_key);
            let counter = 1 + (first / 64) as u64;
            let absorbed = interleaved_batches::<W, H, A, true>(
                state, input, output, len, first, counter, mac,
            );
            mac.absorb(core::slice::from_raw_parts(
                output.add(absorbed),
                (len & !15) - absorbed,
            ));
        }
    }
    // Last: the wipe's compiler fence would otherwise send the MAC's state through
    // memory between its keying and its first block.
    wipe(&mut key);
}

/// The AEAD's open: keystream block 0 goes to `mac.key`, every whole 16-byte block of
/// the ciphertext in `input` to the MAC (the caller absorbs the last partial one, which
/// it must copy first when opening in place), and blocks 1, 2, … are XORed into the
/// `len` bytes.
///
/// Interleaving ([`Schedule::INTERLEAVE_MAC`]) a message longer than one row-form batch:
/// the key block is a row-form batch of its own (the MAC needs it before any
/// ciphertext), then each batch absorbs its own input between its double rounds,
/// before it writes its output; no MAC work is left after the last batch. Otherwise
/// the key block comes from the first batch, as sealing, and once it is stored,
/// before the batch writes the message, the MAC absorbs all the ciphertext; then the
/// usual kernel for the rest. (Starting long messages like that too, then
/// interleaving, measured far slower than the key batch: 3f3a0d0.)
///
/// # Safety
/// As for [`seal`].
///
/// [`Schedule::INTERLEAVE_MAC`]: crate::backend::schedule::Schedule::INTERLEAVE_MAC
#[inline(always)]
pub(crate) unsafe fn open<W: Lanes, H: Rows, A: Absorb, const BULK: u8>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    mac: &mut A,
) {
    let mut key = [0u8; 64];
    let whole = len & !15;
    // SAFETY: the key batch has the key buffer; every message batch gets a range of
    // the message with the bytes before it (`before`) in the same message and its own
    // counters; each absorbs only ciphertext no batch has written yet (`AbsorbOnKey`:
    // before the first batch's stores; `AbsorbBetween`: its own input, between its
    // rounds).
    unsafe {
        if W::INTERLEAVE_MAC && 1 + len.div_ceil(64) > MAX_ROW_SETS * H::ROW_BLOCKS {
            let kp = key.as_mut_ptr();
            rows_batch::<H, 1, false>(state, 0, kp, kp, 64, 0, &mut ());
            mac.key(&key);
            wipe(&mut key);
            interleaved_batches::<W, H, A, false>(state, input, output, len, 0, 1, mac);
            return;
        }
        let first = len.min(64 * (W::BLOCKS - 1));
        let mut on_key = AbsorbOnKey {
            on_key: KeyToMac { key: &mut key, mac },
            ciphertext: input,
            len: whole,
        };
        key_batch_and_rest::<W, H, _, BULK>(state, input, output, len, first, &mut on_key);
        wipe(&mut key);
    }
}

/// The message as its first batch, with the key block (`extras`), of `first` bytes
/// and the usual kernel for the rest, from block `1 + first / 64`; or, where
/// [`Schedule::FUSE_REMAINDER`] is set and the rest is short enough, both as one
/// fused batch: the full key batch, the rest in row sets beside its rounds.
///
/// # Safety
/// As for [`seal`]; `first` is `len`, or the message bytes of a full batch of `W`
/// with the key block.
///
/// [`Schedule::FUSE_REMAINDER`]: crate::backend::schedule::Schedule::FUSE_REMAINDER
#[inline(always)]
unsafe fn key_batch_and_rest<W: Lanes, H: Rows, E: BatchExtras, const BULK: u8>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    first: usize,
    extras: &mut E,
) {
    // SAFETY: forwarded; the key batch gets bytes `0..first`, the rest `first..len`
    // from the block after them (or the fused batch all of `0..len`).
    unsafe {
        let beside = 64 * max_fused_blocks::<H>();
        if W::FUSE_REMAINDER && first < len && len - first <= beside {
            fused_batch::<W, H, _>(state, 0, input, output, len, 0, extras);
            return;
        }
        // The wide bulk's first batch holds the key block too.
        let first = if BULK == bulk::WIDE
            && W::FUSE_REMAINDER
            && wide_pays::<W, H>(1 + len.div_ceil(64))
        {
            let first = first + beside;
            fused_sets::<W, H, MAX_ROW_SETS, false, _>(state, 0, input, output, first, 0, extras);
            first
        } else {
            one_batch::<W, W, W, H, _>(state, 0, input, output, first, 0, extras);
            first
        };
        if first < len {
            let (i, o) = (input.add(first), output.add(first));
            let counter = 1 + (first / 64) as u64;
            keystream_rows::<W, W, W, H, BULK, true>(state, counter, i, o, len - first);
        }
    }
}

/// The interleaved part of the AEAD: batches from byte `start` (block `counter`) to
/// the end of the `len`-byte message — wide ones, the last in the row form where it
/// fits — each absorbing whole blocks of ciphertext with `mac.absorb_scalar` between
/// its double rounds. Sealing (`SEAL`), a batch absorbs what the batch before it wrote
/// (the first one: bytes `0..start`); opening, its own input, before it decrypts it.
/// Returns where the whole blocks not yet absorbed start: sealing, the last batch's
/// output; opening, the end of the whole blocks (all absorbed).
///
/// # Safety
/// As for [`seal`]; the MAC is keyed.
#[inline(always)]
unsafe fn interleaved_batches<W: Lanes, H: Rows, A: Absorb, const SEAL: bool>(
    state: &State,
    input: *const u8,
    output: *mut u8,
    len: usize,
    start: usize,
    counter: u64,
    mac: &mut A,
) -> usize {
    let (wide, whole) = (64 * W::BLOCKS, len & !15);
    let (mut done, mut counter, mut absorbed) = (start, counter, 0);
    while done < len {
        let this = wide.min(len - done);
        // Sealing: the previous batch's output; opening: this batch's own whole blocks.
        let (from, to) = if SEAL {
            (absorbed, done)
        } else {
            (done, whole.min(done + this))
        };
        // SAFETY: each batch gets its own range of the message with the bytes before
        // it (`before`) in the same message and its own counters; what it absorbs is
        // whole blocks of ciphertext no store touches while it runs (sealing: written
        // by the batch before; opening: its own input, absorbed before its stores).
        unsafe {
            let src = if SEAL { output.cast_const() } else { input };
            let mut between =
                AbsorbBetween::new(mac, src.add(from), to - from, state.double_rounds);
            let (i, o) = (input.add(done), output.add(done));
            one_batch::<W, W, W, H, _>(state, counter, i, o, this, done, &mut between);
        }
        absorbed = to;
        done += this;
        counter = counter.wrapping_add(W::BLOCKS as u64);
    }
    absorbed
}

/// The extras of an open's first batch: the key block goes to `key`, and as soon as
/// it is there, before the batch writes anything, the MAC is keyed and absorbs `len`
/// bytes of ciphertext (whole blocks) — which opening in place the batch then
/// overwrites with plaintext.
struct AbsorbOnKey<'a, A: Absorb> {
    on_key: KeyToMac<'a, A>,
    ciphertext: *const u8,
    len: usize,
}

impl<A: Absorb> BatchExtras for AbsorbOnKey<'_, A> {
    const KEY_BLOCK: bool = true;

    #[inline(always)]
    fn key_block(&mut self) -> Option<&mut [u8; 64]> {
        self.on_key.key_block()
    }

    #[inline(always)]
    fn key_ready(&mut self) {
        self.on_key.key_ready();
        // SAFETY: the open's contract: `len` readable bytes of message that no batch
        // has written yet; the slice lives only for this call.
        let ciphertext = unsafe { core::slice::from_raw_parts(self.ciphertext, self.len) };
        self.on_key.mac.absorb(ciphertext);
    }
}

/// Absorbs whole blocks of ciphertext between the double rounds of a batch, spread
/// evenly: `len / 16` blocks over `double_rounds` rounds, all of them absorbed by the
/// end of the last round (so before the batch stores anything). Sealing, they are the
/// previous batch's output; opening, the batch's own input, which it then decrypts
/// in place: hence a pointer, not a slice held across the batch's stores.
struct AbsorbBetween<'a, A: Absorb> {
    mac: &'a mut A,
    /// The next block to absorb.
    next: *const u8,
    /// Blocks every round absorbs; the first `extra` rounds one more.
    per_round: usize,
    extra: usize,
}

impl<'a, A: Absorb> AbsorbBetween<'a, A> {
    /// # Safety
    /// `blocks` is readable for `len` bytes (a multiple of 16) and not written until
    /// the batch's rounds are over.
    #[inline(always)]
    unsafe fn new(mac: &'a mut A, blocks: *const u8, len: usize, double_rounds: u32) -> Self {
        let (count, rounds) = (len / 16, double_rounds as usize);
        AbsorbBetween {
            mac,
            next: blocks,
            per_round: count / rounds,
            extra: count % rounds,
        }
    }
}

impl<A: Absorb> BatchExtras for AbsorbBetween<'_, A> {
    const BESIDE: Beside = Beside::Mac;

    #[inline(always)]
    fn after_double_round(&mut self, round: u32) {
        let n = 16 * (self.per_round + usize::from((round as usize) < self.extra));
        // SAFETY: `new`'s contract: the `n` bytes from `next` are within the blocks
        // given there (the rounds absorb exactly `len / 16` of them in all), readable
        // and not written while this borrow lives.
        unsafe {
            self.mac
                .absorb_scalar(core::slice::from_raw_parts(self.next, n));
            self.next = self.next.add(n);
        }
    }
}
