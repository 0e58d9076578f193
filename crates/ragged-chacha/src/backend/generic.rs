//! The ChaCha block function and the batch/tail driver, written once over [`Lanes`].
//!
//! A `Lanes` value holds one 32-bit state word for `BLOCKS` consecutive blocks
//! ("vertical" layout), so sixteen of them are `BLOCKS` whole ChaCha states. Each
//! instruction set supplies only the lane operations, the transpose back to message
//! order, and its trick for the final partial vector.
// Where no SIMD backend exists (32-bit Arm, RISC-V, s390x, …) only the portable lane
// type instantiates this module: the row form and the one-pass AEAD seal have no user.
#![cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_endian = "little")
    )),
    allow(dead_code)
)]

use super::portable::Word;
use crate::state::State;
use crate::wipe::wipe;

/// The lane operations a backend provides.
///
/// # Safety
///
/// Implementations may use instructions the CPU lacks. Every method is `unsafe`, and
/// callers must only call them on a CPU that has the instruction-set extensions the
/// implementing type documents (the backend's entry point checks this once).
pub(crate) unsafe trait Lanes: Copy {
    /// Blocks processed side by side: the number of 32-bit lanes.
    const BLOCKS: usize;
    /// Bytes in one vector: `4 * BLOCKS`.
    const BYTES: usize = 4 * Self::BLOCKS;
    /// The order in which a full batch stores its keystream vectors: the order
    /// [`Lanes::transpose`] finishes them in, so few are live at once.
    const STORE_ORDER: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    /// Whether the AEAD seal runs the scalar Poly1305 between the double rounds of these
    /// batches (see [`seal`]); set where that measured faster than a separate MAC pass.
    const INTERLEAVE_MAC: bool = false;
    /// Whether the vertical rounds keep two of the sixteen state rows in memory, for
    /// instruction sets with sixteen vector registers: see [`rounds_interleaved`].
    const SPILL_TWO_ROWS: bool = false;
    /// Whether full batches compute one block more in the general-purpose registers,
    /// its quarter rounds placed between the vector ones (see [`NinthBlock`]): the
    /// vector rounds are latency-bound, so the integer units are idle beside them.
    const NINTH_BLOCK: bool = false;
    /// Whether the [`Lanes::SPILL_TWO_ROWS`] rounds run the two quarter rounds of each
    /// pair one after the other rather than step by step, where the batch has no
    /// scalar work beside them (see [`vector_pair`]).
    const PAIR_ONE_BY_ONE: bool = false;

    /// Every lane set to `x`.
    unsafe fn splat(x: u32) -> Self;
    /// Lane `i` holds the low and the high half of `counter + i` (wrapping).
    unsafe fn counters(counter: u64) -> (Self, Self);
    /// Lane-wise wrapping addition.
    unsafe fn add(self, other: Self) -> Self;
    /// Lane-wise exclusive or.
    unsafe fn xor(self, other: Self) -> Self;
    /// Lane-wise rotate left by 16 bits.
    unsafe fn rotl16(self) -> Self;
    /// Lane-wise rotate left by 12 bits.
    unsafe fn rotl12(self) -> Self;
    /// Lane-wise rotate left by 8 bits.
    unsafe fn rotl8(self) -> Self;
    /// Lane-wise rotate left by 7 bits.
    unsafe fn rotl7(self) -> Self;
    /// Turns sixteen word vectors (word `w` of each block) into sixteen vectors of
    /// keystream in message order: vector `i` is keystream bytes `i*BYTES..(i+1)*BYTES`.
    unsafe fn transpose(x: [Self; 16]) -> [Self; 16];
    /// Unaligned load of `BYTES` bytes.
    unsafe fn load(src: *const u8) -> Self;
    /// Unaligned store of `BYTES` bytes.
    unsafe fn store(self, dst: *mut u8);
    /// XORs the first `rem` bytes of this keystream vector (`0 < rem < BYTES`) into
    /// `input[..rem]`, writing `output[..rem]`, touching no byte outside the message.
    ///
    /// `before` is how many bytes of the same message precede `input` / `output`;
    /// they are readable, and in `output` they already hold their final value, so a
    /// backend may load and store a window that overlaps them as long as it rewrites
    /// those bytes with what they already hold.
    unsafe fn xor_tail(self, input: *const u8, output: *mut u8, rem: usize, before: usize);
}

/// The "horizontal" form for short messages: each 128-bit lane of a vector holds one
/// row (four words) of one block, so four vectors are `Lanes::BYTES / 16` whole blocks.
/// For one to a few blocks this beats the vertical form: it computes only the blocks
/// needed and needs no transpose (the diagonal round rotates words within rows).
///
/// # Safety
/// As for [`Lanes`]: callers guarantee the CPU features of the implementing type.
pub(crate) unsafe trait Rows: Lanes {
    /// Blocks in one set of four row vectors: one per 128-bit lane.
    const ROW_BLOCKS: usize = Self::BYTES / 16;
    /// Whether a row-form batch of two sets and one block more computes that block in
    /// the general-purpose registers beside the two sets (see [`rows_batch`]) rather
    /// than as a third set. The row form is bound by the vector units (on Zen 3 its
    /// shifts and shuffles share two of the four vector pipes: a round loop measured
    /// 32.3, 37.8 and 41.9 cycles a double round for one, two and three sets), while
    /// the integer units idle beside it. Beside a single set the scalar block measured
    /// slower than a second set (AVX2, Zen 3: ChaCha20 192 B 1409 -> 1357 MB/s), so it
    /// only replaces a third one.
    const SCALAR_BLOCK: bool = false;

    /// Row `r` (words `4r..4r+4`) of `words` in every 128-bit lane.
    unsafe fn row(words: &[u32; 16], r: usize) -> Self;
    /// Row 3 of `words` for blocks `counter + lane` in lane `lane`: the low counter
    /// half in word 12, the high half added to word 13 (wrapping).
    unsafe fn counter_row(words: &[u32; 16], counter: u64) -> Self;
    /// Rotates the words of each 128-bit lane left by `N` (word `i` takes word
    /// `i + N mod 4`).
    unsafe fn rotate_words<const N: i32>(self) -> Self;
    /// Reorders the rows `[a, b, c, d]` of the blocks into keystream vectors in
    /// message order (vector `i` is bytes `i * BYTES..`).
    unsafe fn rows_to_message(rows: [Self; 4]) -> [Self; 4];
    /// Vector `i` (`i < 64 / BYTES`) of a block given as its sixteen keystream words:
    /// bytes `i * BYTES..` of the block, in message order.
    #[inline(always)]
    unsafe fn block_vector(words: &[u32; 16], i: usize) -> Self {
        let mut bytes = [0u8; 64];
        for (chunk, word) in bytes.chunks_exact_mut(4).zip(words) {
            chunk.copy_from_slice(&word.to_le_bytes());
        }
        // SAFETY: `i * BYTES + BYTES <= 64`; the caller upholds the CPU features.
        unsafe { Self::load(bytes.as_ptr().add(i * Self::BYTES)) }
    }
}

/// One quarter round on `N` independent column or diagonal sets at once (all four of
/// a round, or two), written as `N` interleaved quarter rounds so the dependency chains
/// run side by side.
#[inline(always)]
unsafe fn quarter_rounds<V: Lanes, const N: usize>(
    x: &mut [V; 16],
    a: [usize; N],
    b: [usize; N],
    c: [usize; N],
    d: [usize; N],
    parked: Option<&[V; 4]>,
) {
    // SAFETY: the caller upholds the `Lanes` contract (the CPU has V's features).
    unsafe {
        for i in 0..N {
            x[a[i]] = x[a[i]].add(x[b[i]]);
        }
        for i in 0..N {
            x[d[i]] = x[d[i]].xor(x[a[i]]).rotl16();
        }
        if let Some(parked) = parked {
            for i in 0..N {
                // SAFETY: a valid, aligned element.
                x[c[i]] = core::ptr::read_volatile(&parked[c[i] - 8]);
            }
        }
        for i in 0..N {
            x[c[i]] = x[c[i]].add(x[d[i]]);
        }
        for i in 0..N {
            x[b[i]] = x[b[i]].xor(x[c[i]]).rotl12();
        }
        for i in 0..N {
            x[a[i]] = x[a[i]].add(x[b[i]]);
        }
        for i in 0..N {
            x[d[i]] = x[d[i]].xor(x[a[i]]).rotl8();
        }
        for i in 0..N {
            x[c[i]] = x[c[i]].add(x[d[i]]);
        }
        for i in 0..N {
            x[b[i]] = x[b[i]].xor(x[c[i]]).rotl7();
        }
    }
}

/// What a keystream batch does besides XORing keystream into the message.
pub(crate) trait BatchExtras {
    /// Whether [`BatchExtras::key_block`] gives a key block (the batch then computes
    /// one block more than the message takes).
    const KEY_BLOCK: bool = false;

    /// Whether [`BatchExtras::after_double_round`] does integer work of its own (the
    /// AEAD's interleaved Poly1305): the batch then leaves the general-purpose
    /// registers to it rather than computing a block there (see
    /// [`Rows::SCALAR_BLOCK`]).
    const SCALAR_WORK: bool = false;

    /// Whether [`BatchExtras::between_pairs`] does integer work of its own (the ninth
    /// block).
    const SCALAR_BETWEEN_PAIRS: bool = false;

    /// Where the batch's first block goes instead of into the message, if anywhere:
    /// the AEAD's one-time key, from the batch that starts its message.
    #[inline(always)]
    fn key_block(&mut self) -> Option<&mut [u8; 64]> {
        None
    }

    /// Called once the key block is stored, before the batch writes any of the
    /// message: opening in place, the MAC takes the ciphertext here.
    #[inline(always)]
    fn key_ready(&mut self) {}

    /// Called after double round `round` (counting from 0). Scalar work placed here
    /// (the AEAD's Poly1305) keeps the integer units busy while the vector units
    /// compute, where run after the batch it would only add its latency. A trait
    /// method, not a closure, so it is inlined into the round loop.
    #[inline(always)]
    fn after_double_round(&mut self, _round: u32) {}

    /// Called before each pair of vector quarter rounds (`pair` 0, 1: the columns;
    /// 2, 3: the diagonals) in the [`Lanes::SPILL_TWO_ROWS`] form, each after the
    /// parking of the rows the pair before used, and after each round (0 and 1,
    /// then 2 and 3) otherwise. For scalar work finer-grained than a double round.
    /// (Before rather than after its pair: AVX2, Zen 3, the ninth block then measured
    /// 0.97x -> 1.00x of OpenSSL at 16 and 64 KiB, two alternating runs each.)
    #[inline(always)]
    fn between_pairs(&mut self, _pair: usize) {}
}

/// A plain keystream batch.
impl BatchExtras for () {}

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

/// `double_rounds` ChaCha double rounds (a column round, then a diagonal round).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
pub(crate) unsafe fn rounds<V: Lanes>(x: &mut [V; 16], double_rounds: u32) {
    // SAFETY: forwarded.
    unsafe { rounds_interleaved(x, double_rounds, &mut ()) }
}

/// Parks rows `out` (two of rows 8 ..= 11) in their slots of `parked` (slot `i` for
/// row `8 + i`) with volatile stores; the next pair but one takes them back (see
/// [`quarter_round_pair`]).
#[inline(always)]
fn park_rows<V: Lanes>(x: &mut [V; 16], parked: &mut [V; 4], out: [usize; 2]) {
    for r in out {
        // SAFETY: a valid, aligned, exclusively borrowed element.
        unsafe { core::ptr::write_volatile(&mut parked[r - 8], x[r]) };
    }
}

/// Pair `pair` of a double round run as four pairs of quarter rounds (0, 1: the
/// columns; 2, 3: the diagonals) with two of rows 8 ..= 11 parked (see
/// [`rounds_interleaved`]). Pairs 0 and 2 park their `c` rows after them. With
/// `late_back`, pairs 1 and 3 take theirs back with volatile loads just before their
/// first use, after the pair's first `d` rotation (AVX2, Zen 3: loaded right after
/// pairs 0 and 2 park theirs, the compiler held the two sets of `c` rows at once and
/// spilled two more rows a double round). Without it, as beside the AEAD's interleaved
/// Poly1305, they take them back right after that parking: there the late loads cost
/// the seal 1-1.5% at 16 and 64 KiB (AVX2, Zen 3, three alternating runs).
///
/// The vector rounds and the scalar ninth block ([`NinthBlock`]) both run it; the
/// vectors interleave the pair's two quarter rounds step by step, the scalar block runs
/// them one after the other (`ONE_BY_ONE`; interleaved it measured 1–3% slower at 16 and
/// 64 KiB, AVX2, Zen 3).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn quarter_round_pair<V: Lanes, const ONE_BY_ONE: bool>(
    x: &mut [V; 16],
    parked: &mut [V; 4],
    pair: usize,
    late_back: bool,
) {
    // Pairs 1 and 3 take their `c` rows back from `parked` just before they first use
    // them (`late_back`), or else as soon as the pair before has parked its own.
    let back = if late_back && pair % 2 == 1 {
        Some(&*parked)
    } else {
        None
    };
    let [a, b, c, d] = match pair {
        0 => [[0, 1], [4, 5], [8, 9], [12, 13]],
        1 => [[2, 3], [6, 7], [10, 11], [14, 15]],
        2 => [[0, 1], [5, 6], [10, 11], [15, 12]],
        _ => [[2, 3], [7, 4], [8, 9], [13, 14]],
    };
    // SAFETY: forwarded from this function's contract.
    unsafe {
        if ONE_BY_ONE {
            quarter_rounds(x, [a[0]], [b[0]], [c[0]], [d[0]], back);
            quarter_rounds(x, [a[1]], [b[1]], [c[1]], [d[1]], back);
        } else {
            quarter_rounds(x, a, b, c, d, back);
        }
    }
    match pair {
        0 => park_rows(x, parked, [8, 9]),
        2 => park_rows(x, parked, [10, 11]),
        _ => {}
    }
    if !late_back {
        match pair {
            0 => take_rows(x, parked, [10, 11]),
            2 => take_rows(x, parked, [8, 9]),
            _ => {}
        }
    }
}

/// Takes rows `back` (two of rows 8 ..= 11) from their slots of `parked` with volatile
/// loads.
#[inline(always)]
fn take_rows<V: Lanes>(x: &mut [V; 16], parked: &[V; 4], back: [usize; 2]) {
    for r in back {
        // SAFETY: a valid, aligned element.
        x[r] = unsafe { core::ptr::read_volatile(&parked[r - 8]) };
    }
}

/// Pair `pair` of the vector rounds of a batch with extras `E`: its two quarter rounds
/// one after the other where [`Lanes::PAIR_ONE_BY_ONE`] asks for it and `E` does no
/// scalar work beside the rounds, step by step otherwise. The order in the source is
/// the order the compiler schedules from, and so decides what it spills: AVX2, the
/// plain 8-block loop one after the other has one stack store and load a double round
/// besides the parking, against three step by step; beside the ninth block or the
/// interleaved Poly1305, and on SSSE3, step by step measured faster.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn vector_pair<V: Lanes, E: BatchExtras>(x: &mut [V; 16], parked: &mut [V; 4], pair: usize) {
    // SAFETY: forwarded.
    unsafe {
        if !V::PAIR_ONE_BY_ONE || E::SCALAR_WORK || E::SCALAR_BETWEEN_PAIRS {
            quarter_round_pair::<V, false>(x, parked, pair, !E::SCALAR_WORK);
        } else {
            quarter_round_pair::<V, true>(x, parked, pair, true);
        }
    }
}

/// Takes back the rows still parked after the last double round (10 and 11; with no
/// round at all, `parked` holds their initial values).
#[inline(always)]
fn unpark<V: Lanes>(x: &mut [V; 16], parked: &[V; 4]) {
    x[10] = parked[2];
    x[11] = parked[3];
}

/// Zeroes the four slots of `parked` with volatile stores, once [`unpark`] has taken
/// the last rows back. At the end of a batch they hold key-derived rows: slots 2 and 3
/// rows 10 and 11 before the feed-forward, which with known plaintext give key words 6
/// and 7 (keystream minus row), slots 0 and 1 rows 8 and 9 from the last double round.
/// Every batch that parks (the vector rounds, and the scalar [`NinthBlock`]) wipes its
/// own slots before it ends, so none is left holding them when the kernel returns.
/// Slot by slot and without [`wipe`]'s compiler fence: the stores cannot move above
/// the last loads of the same slots anyway, and the fence would also pin the batch's
/// other memory accesses around it (with `wipe`, the AVX2 kernels ran more
/// instructions).
///
/// Only these slots: the rest of the batch's temporaries are the compiler's — the
/// registers, and the stack slots LLVM spills rows, splatted key words or keystream
/// to. Rust gives no way to name those, so they cannot be wiped from here; the same
/// holds for every Rust or C library whose kernels are not written in assembly. We
/// accept it: what this code can reach is wiped, and the keystream itself is in the
/// output.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn wipe_parked<V: Lanes>(parked: &mut [V; 4]) {
    // SAFETY: V's features (the caller's contract).
    let zero = unsafe { V::splat(0) };
    for slot in parked {
        // SAFETY: a valid, aligned, exclusively borrowed element.
        unsafe { core::ptr::write_volatile(slot, zero) };
    }
}

/// [`rounds`], with `extras.after_double_round` run after each double round.
///
/// With [`Lanes::SPILL_TWO_ROWS`], each round runs as two pairs of quarter rounds, and
/// the two `c` rows the running pair does not use wait in memory: rows 10 and 11
/// while the columns 0 and 1 run, rows 8 and 9 while the diagonals starting at words 2
/// and 3 run; two stores after pairs 0 and 2, two loads in pairs 1 and 3 (or right
/// after those stores: see [`quarter_round_pair`]), four of each a double round.
/// Sixteen state rows and the rotations' temporaries do not fit in sixteen
/// registers; left to itself, the compiler spilled and reloaded about twice as many
/// rows (AVX2, Zen 3: 11 stores a double round, and 50.1 -> 48.4 cycles a double
/// round for the loop alone, run in isolation; OpenSSL's, which swaps the same rows,
/// 46.7).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn rounds_interleaved<V: Lanes, E: BatchExtras>(
    x: &mut [V; 16],
    double_rounds: u32,
    extras: &mut E,
) {
    if V::SPILL_TWO_ROWS {
        // Slot `i` holds row `8 + i` while it is out of the registers. Volatile, so the
        // stores and loads stay where they are written and the rows really leave.
        let mut parked = [x[8], x[9], x[10], x[11]];
        for i in 0..double_rounds {
            // SAFETY: forwarded from this function's contract; `parked` is a local
            // array of whole vectors.
            unsafe {
                extras.between_pairs(0);
                vector_pair::<V, E>(x, &mut parked, 0);
                extras.between_pairs(1);
                vector_pair::<V, E>(x, &mut parked, 1);
                extras.between_pairs(2);
                vector_pair::<V, E>(x, &mut parked, 2);
                extras.between_pairs(3);
                vector_pair::<V, E>(x, &mut parked, 3);
            }
            extras.after_double_round(i);
        }
        unpark(x, &parked);
        // SAFETY: forwarded from this function's contract.
        unsafe { wipe_parked(&mut parked) };
        return;
    }
    for i in 0..double_rounds {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            quarter_rounds(
                x,
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [8, 9, 10, 11],
                [12, 13, 14, 15],
                None,
            );
            extras.between_pairs(0);
            extras.between_pairs(1);
            quarter_rounds(
                x,
                [0, 1, 2, 3],
                [5, 6, 7, 4],
                [10, 11, 8, 9],
                [15, 12, 13, 14],
                None,
            );
        }
        extras.between_pairs(2);
        extras.between_pairs(3);
        extras.after_double_round(i);
    }
}

/// XORs keystream vectors `ks[i]` (message order) into `len` bytes: whole vectors,
/// then the ISA's tail for the partial one. Unrolled over the listed indices so every
/// vector is addressed by a constant and stays in a register. Returns from the
/// enclosing function when the message ends.
macro_rules! write_keystream {
    ($v:ty, $ks:expr, $input:expr, $output:expr, $len:expr, $before:expr, [$($i:literal),*]) => {
        $(
            let at = $i * <$v>::BYTES;
            if $len >= at + <$v>::BYTES {
                $ks[$i].xor(<$v>::load($input.add(at))).store($output.add(at));
            } else {
                if $len > at {
                    $ks[$i].xor_tail($input.add(at), $output.add(at), $len - at, $before + at);
                }
                return;
            }
        )*
    };
}

/// Computes `V::BLOCKS` keystream blocks starting at block `counter` and XORs the
/// first `len` bytes (`0 < len <= 64 * V::BLOCKS`) of them into the message.
///
/// Where `extras` gives a key block, the first block (block `counter`) goes there
/// instead of into the message, which then takes blocks `counter + 1 …`
/// (`len <= 64 * (V::BLOCKS - 1)`). Inlined, so `()` extras cost nothing.
///
/// # Safety
/// The CPU has the features `V` requires; `input` is readable and `output` writable for
/// `len` bytes and for the `before` bytes that precede them; `input` and `output` are
/// either the same pointer or do not overlap.
#[inline(always)]
unsafe fn batch<V: Lanes>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut impl BatchExtras,
) {
    // SAFETY: the CPU has V's features; the pointer ranges are as this function requires,
    // and every access below stays within `len` bytes (the tail within `before + len`),
    // and the key's 64 bytes.
    unsafe {
        let mut ks = keystream_vectors::<V>(state, counter, extras);
        if !split_key_block(&mut ks, extras) && len == 64 * V::BLOCKS {
            xor_full_batch(&ks, input, output);
            return;
        }
        write_keystream!(
            V,
            ks,
            input,
            output,
            len,
            before,
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
        );
    }
}

/// The ninth block of a [`batch_nine`] (and the scalar block of a [`rows_batch`]
/// with `SCALAR`): its sixteen words as one-word lanes (the
/// portable backend's), run pair by pair between the vector pairs with the same
/// [`quarter_round_pair`]. Like the vector rows, two of words 8 ..= 11 wait in memory
/// while the quarter rounds that do not use them run (`parked`, volatile): that frees
/// registers, and since volatile accesses keep their order, it pins each scalar pair
/// next to its vector pair, where the compiler otherwise gathered all of them after the
/// vector code.
struct NinthBlock {
    x: [Word; 16],
    parked: [Word; 4],
}

impl NinthBlock {
    /// The block at `counter` of `state`, its initial words as `initial` lays them out
    /// (counter in words 12 and 13). Built as plain integers: through `initial::<Word>`
    /// the call measured 1-2% slower at 16 and 64 KiB (AVX2, Zen 3).
    #[inline(always)]
    fn new(state: &State, counter: u64) -> Self {
        let words = Self::initial(state, counter).map(Word);
        NinthBlock {
            x: words,
            parked: [words[8], words[9], words[10], words[11]],
        }
    }

    /// The initial words of the block at `counter`.
    #[inline(always)]
    fn initial(state: &State, counter: u64) -> [u32; 16] {
        let w = &state.words;
        let mut s = *w;
        s[12] = counter as u32;
        s[13] = w[13].wrapping_add((counter >> 32) as u32);
        s
    }

    /// After the rounds: the block's keystream words (the parked words taken back,
    /// their slots wiped, the initial words of the block at `counter` added). By
    /// reference, so that the wipe zeroes the slots the rounds parked in.
    #[inline(always)]
    fn keystream(&mut self, state: &State, counter: u64) -> [u32; 16] {
        unpark(&mut self.x, &self.parked);
        // SAFETY: one-word lanes need no CPU feature.
        unsafe { wipe_parked(&mut self.parked) };
        let init = Self::initial(state, counter);
        core::array::from_fn(|i| self.x[i].0.wrapping_add(init[i]))
    }
}

impl BatchExtras for NinthBlock {
    const SCALAR_BETWEEN_PAIRS: bool = true;

    /// The same two quarter rounds the vector pair runs next, and the same words
    /// parked as the vector rows.
    #[inline(always)]
    fn between_pairs(&mut self, pair: usize) {
        // SAFETY: one-word lanes need no CPU feature.
        unsafe { quarter_round_pair::<Word, true>(&mut self.x, &mut self.parked, pair, true) }
    }
}

/// A full batch of `V::BLOCKS + 1` blocks from block `counter`: `V::BLOCKS` in the
/// vectors and the last one as a [`NinthBlock`], XORed into `64 * (V::BLOCKS + 1)`
/// bytes.
///
/// # Safety
/// As for [`batch`] with `len = 64 * (V::BLOCKS + 1)`.
#[inline(always)]
unsafe fn batch_nine<V: Lanes>(state: &State, counter: u64, input: *const u8, output: *mut u8) {
    // SAFETY: the CPU has V's features; every access is within the batch's
    // `64 * (V::BLOCKS + 1)` bytes.
    unsafe {
        let last = counter.wrapping_add(V::BLOCKS as u64);
        let mut ninth = NinthBlock::new(state, last);
        let ks = keystream_vectors::<V>(state, counter, &mut ninth);
        xor_full_batch(&ks, input, output);
        let words = ninth.keystream(state, last);
        // The ninth block, eight bytes at a time.
        let (i9, o9) = (input.add(64 * V::BLOCKS), output.add(64 * V::BLOCKS));
        for k in 0..8 {
            let word = u64::from(words[2 * k]) | (u64::from(words[2 * k + 1]) << 32);
            let src = i9.add(8 * k).cast::<u64>().read_unaligned();
            let out = u64::from_le(src) ^ word;
            o9.add(8 * k).cast::<u64>().write_unaligned(out.to_le());
        }
    }
}

/// The keystream of blocks `counter ..` as `V::BLOCKS` blocks of transposed vectors
/// (`V::BYTES` consecutive bytes each): the initial state, the rounds (with `extras`
/// between them) and the feed-forward.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn keystream_vectors<V: Lanes>(
    state: &State,
    counter: u64,
    extras: &mut impl BatchExtras,
) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe {
        let init = initial::<V>(state, counter);
        let mut x = init;
        rounds_interleaved(&mut x, state.double_rounds, extras);
        for i in 0..16 {
            x[i] = x[i].add(init[i]);
        }
        V::transpose(x)
    }
}

/// Where `extras` takes a key block: stores block 0 (the first 64 bytes of `ks`, in
/// message order) there, moves the vectors after it to the front for the message, and
/// tells `extras` the key is ready. Returns whether it did.
///
/// # Safety
/// The CPU has the features `V` requires; `ks` holds at least one block.
#[inline(always)]
unsafe fn split_key_block<V: Lanes, const N: usize>(
    ks: &mut [V; N],
    extras: &mut impl BatchExtras,
) -> bool {
    let Some(key) = extras.key_block() else {
        return false;
    };
    let skip = 64 / V::BYTES;
    for (i, v) in ks[..skip].iter().enumerate() {
        // SAFETY: `i * V::BYTES + V::BYTES <= 64`: inside the key; V's features.
        unsafe { v.store(key.as_mut_ptr().add(i * V::BYTES)) };
    }
    // A new array, not a copy loop or `copy_within`: after inlining the vectors live
    // in registers and this is a renaming, where the others became a `vzeroupper` and
    // a call to `memmove` through the stack on every such seal (`copy_within` with
    // AVX2 and AVX-512, the loop with AVX-512).
    let shifted = *ks;
    *ks = core::array::from_fn(|i| shifted[(i + skip).min(N - 1)]);
    extras.key_ready();
    true
}

/// XORs a full batch of keystream (`ks`, transposed: `V::BYTES` consecutive bytes
/// each) into `64 * V::BLOCKS` bytes, storing in the order the transpose finishes the
/// vectors.
///
/// # Safety
/// The CPU has the features `V` requires; `64 * V::BLOCKS` bytes readable at `input`
/// and writable at `output`.
#[inline(always)]
unsafe fn xor_full_batch<V: Lanes>(ks: &[V; 16], input: *const u8, output: *mut u8) {
    macro_rules! store_in_order {
        ($($i:literal),*) => {
            $(
                let at = V::STORE_ORDER[$i] * V::BYTES;
                // SAFETY: `at + V::BYTES <= 64 * V::BLOCKS` (the caller's bytes); the
                // CPU has V's features.
                unsafe { ks[V::STORE_ORDER[$i]].xor(V::load(input.add(at))).store(output.add(at)) };
            )*
        };
    }
    store_in_order!(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
}

/// The sixteen initial state vectors of blocks `counter ..`.
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
unsafe fn initial<V: Lanes>(state: &State, counter: u64) -> [V; 16] {
    // SAFETY: the CPU has V's features.
    unsafe {
        let w = &state.words;
        let (lo, hi) = V::counters(counter);
        [
            V::splat(w[0]),
            V::splat(w[1]),
            V::splat(w[2]),
            V::splat(w[3]),
            V::splat(w[4]),
            V::splat(w[5]),
            V::splat(w[6]),
            V::splat(w[7]),
            V::splat(w[8]),
            V::splat(w[9]),
            V::splat(w[10]),
            V::splat(w[11]),
            lo,
            hi.add(V::splat(w[13])),
            V::splat(w[14]),
            V::splat(w[15]),
        ]
    }
}

/// One ChaCha round on row vectors: the quarter round applied to all four columns (or,
/// after `diagonalize`, all four diagonals) of every block at once.
#[inline(always)]
unsafe fn row_round<R: Rows>(a: &mut R, b: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.add(*b);
        *d = d.xor(*a).rotl16();
        *c = c.add(*d);
        *b = b.xor(*c).rotl12();
        *a = a.add(*b);
        *d = d.xor(*a).rotl8();
        *c = c.add(*d);
        *b = b.xor(*c).rotl7();
    }
}

/// Shifts rows so the diagonals line up as columns: rows a, c, d move and b stays,
/// which keeps the shuffles off the `b` dependency chain (b feeds the next step).
#[inline(always)]
unsafe fn diagonalize<R: Rows>(a: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.rotate_words::<3>();
        *c = c.rotate_words::<1>();
        *d = d.rotate_words::<2>();
    }
}

/// Undoes [`diagonalize`].
#[inline(always)]
unsafe fn undiagonalize<R: Rows>(a: &mut R, c: &mut R, d: &mut R) {
    // SAFETY: the caller upholds the `Rows` contract.
    unsafe {
        *a = a.rotate_words::<1>();
        *c = c.rotate_words::<3>();
        *d = d.rotate_words::<2>();
    }
}

/// The most row-vector sets [`rows_batch`] interleaves: twelve vectors of state, which
/// leaves registers for the temporaries on every backend.
const MAX_ROW_SETS: usize = 3;

/// Keystream for up to `MAX_ROW_SETS * R::ROW_BLOCKS` blocks in the row form: `SETS`
/// (1 to 3) independent sets of row vectors, interleaved so their dependency chains
/// overlap, and with `SCALAR` one block more after them in the general-purpose
/// registers (a [`NinthBlock`], its quarter rounds placed between the vector rounds),
/// XORed into the first `len` bytes
/// (`0 < len <= 64 * (SETS * R::ROW_BLOCKS + SCALAR)`). `extras` as for [`batch`]
/// (with a key block, one block less).
///
/// # Safety
/// As for [`batch`].
#[inline(always)]
unsafe fn rows_batch<R: Rows, const SETS: usize, const SCALAR: bool>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
    before: usize,
    extras: &mut impl BatchExtras,
) {
    const { assert!(SETS >= 1 && SETS <= MAX_ROW_SETS) };
    // SAFETY: as for `batch`: the CPU has R's features, and every access stays within
    // `len` bytes (the tail within `before + len`).
    unsafe {
        let w = &state.words;
        let (a0, b0, c0) = (R::row(w, 0), R::row(w, 1), R::row(w, 2));
        // Row 3 of each set: its own counters, ROW_BLOCKS blocks after the last set's.
        let mut d0 = [a0; SETS];
        for (s, d) in d0.iter_mut().enumerate() {
            *d = R::counter_row(w, counter.wrapping_add((s * R::ROW_BLOCKS) as u64));
        }
        let mut x = [[a0, b0, c0, a0]; SETS];
        for (set, d) in x.iter_mut().zip(d0) {
            set[3] = d;
        }
        let last = counter.wrapping_add((SETS * R::ROW_BLOCKS) as u64);
        let mut scalar = NinthBlock::new(state, last);
        for round in 0..state.double_rounds {
            if SCALAR {
                scalar.between_pairs(0);
            }
            for [a, b, c, d] in x.iter_mut() {
                row_round(a, b, c, d);
            }
            if SCALAR {
                scalar.between_pairs(1);
            }
            for [a, _, c, d] in x.iter_mut() {
                diagonalize(a, c, d);
            }
            if SCALAR {
                scalar.between_pairs(2);
            }
            for [a, b, c, d] in x.iter_mut() {
                row_round(a, b, c, d);
            }
            if SCALAR {
                scalar.between_pairs(3);
            }
            for [a, _, c, d] in x.iter_mut() {
                undiagonalize(a, c, d);
            }
            extras.after_double_round(round);
        }
        let mut ks = [a0; 4 * MAX_ROW_SETS + 4];
        for (s, ([a, b, c, d], d0)) in x.into_iter().zip(d0).enumerate() {
            let message = R::rows_to_message([a.add(a0), b.add(b0), c.add(c0), d.add(d0)]);
            ks[4 * s..4 * s + 4].copy_from_slice(&message);
        }
        let per_block = 64 / R::BYTES;
        let vectors = 4 * SETS + if SCALAR { per_block } else { 0 };
        if SCALAR {
            let words = scalar.keystream(state, last);
            for i in 0..per_block {
                ks[4 * SETS + i] = R::block_vector(&words, i);
            }
        }
        split_key_block(&mut ks, extras);
        match vectors {
            4 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3]);
            }
            5 | 6 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3, 4, 5]);
            }
            7 | 8 => {
                write_keystream!(R, ks, input, output, len, before, [0, 1, 2, 3, 4, 5, 6, 7]);
            }
            9 | 10 => {
                write_keystream!(
                    R,
                    ks,
                    input,
                    output,
                    len,
                    before,
                    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
                );
            }
            _ => {
                write_keystream!(
                    R,
                    ks,
                    input,
                    output,
                    len,
                    before,
                    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
                );
            }
        }
    }
}

/// One batch of `len` bytes (`0 < len <= 64 * W::BLOCKS`, one block less with a key
/// block): in the row form where its blocks fit in up to `MAX_ROW_SETS` sets, else a
/// vertical batch of the narrowest of `W`, `M`, `N` that holds them.
///
/// # Safety
/// As for [`batch`] with `W`, `M`, `N` and `H`.
#[inline(always)]
unsafe fn one_batch<W: Lanes, M: Lanes, N: Lanes, H: Rows, E: BatchExtras>(
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
        } else if H::SCALAR_BLOCK && !E::SCALAR_WORK && blocks == 2 * H::ROW_BLOCKS + 1 {
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
        let (counter, done) = full_batches::<W>(state, counter, input, output, len);
        if len > done {
            let (i, o) = (input.add(done), output.add(done));
            vertical_rest::<W, M, N, _>(state, counter, i, o, len - done, done, &mut ())
        }
    }
}

/// As [`xor_keystream`], with a remainder of up to `MAX_ROW_SETS * H::ROW_BLOCKS`
/// blocks done in the row form (one to three interleaved sets), which is faster for a
/// few blocks.
///
/// # Safety
/// As for [`xor_keystream`], and the CPU has the features of `H`.
#[inline(always)]
pub(crate) unsafe fn xor_keystream_rows<W: Lanes, M: Lanes, N: Lanes, H: Rows>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    // SAFETY: forwarded; each branch gets exactly the remainder's range and counter.
    // (No closures here: they would not inherit the caller's target features.)
    unsafe {
        let (counter, done) = full_batches::<W>(state, counter, input, output, len);
        if len > done {
            let (i, o) = (input.add(done), output.add(done));
            one_batch::<W, M, N, H, _>(state, counter, i, o, len - done, done, &mut ());
        }
    }
}

/// The keystream of a state with no double round at all (a 0-round variant): the
/// one-block batch on one-word lanes ([`Word`]), block by block, whose round loop then
/// runs no pass. Its own cold function, checked for in [`full_batches`] before the
/// 8-block batches (and by the 32-bit Arm kernel, whose asm loops run at least one
/// double round), so that they can take at least one double round as given: the
/// compiler then drops the path around their round loop, and with it ten reloads of
/// the state a batch (AVX2, Zen 3, against OpenSSL, alternating runs: 4096 B
/// 3123-3135 -> 3144-3156 MB/s; 1420 B 1.27x -> 1.27/1.28x; 16 and 64 KiB unchanged).
/// Checked before the nine-block batches as well, it made their loop spill more (16
/// and 64 KiB 1.03x -> 1.00x).
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
/// measured slower (AVX2, Zen 3, against OpenSSL, two alternating runs each): 4096 B,
/// seven of them and a one-block row batch, 0.96x against 0.97x for eight 8-block
/// batches; 8, 12, 16 and 64 KiB 0.97-0.98x against 0.98-1.01x.
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

/// Runs full batches of `W` (with [`Lanes::NINTH_BLOCK`], nine-block ones first) while
/// a whole batch remains; returns the counter and byte offset of the remainder
/// (`0 <= len - offset < 64 * W::BLOCKS`; with no double round, [`no_rounds`] takes
/// what the nine-block batches leave, and the offset is `len`). A message that ends
/// with a whole batch runs it here too, not as the remainder batch, whose code (a copy
/// of the batch inlined for partial lengths) is colder (AVX2, Zen 3, against OpenSSL, two alternating
/// runs: 512 B 1.21/1.20x -> 1.24/1.23x, 1024 B 1.08x -> 1.11x, 4096 B 0.99x ->
/// 1.00x, 3113/3117 -> 3134/3134 MB/s).
///
/// # Safety
/// As for [`xor_keystream`] for `W`.
#[inline(always)]
unsafe fn full_batches<W: Lanes>(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) -> (u64, usize) {
    let wide = 64 * W::BLOCKS;
    let mut done = 0;
    let mut counter = counter;
    // SAFETY: each batch covers `input/output[done..done + wide]` with
    // `done + wide <= len` (a nine-block one `done + nine <= len`), and the `done` bytes
    // before it belong to the same message; `no_rounds` gets the rest of the message.
    unsafe {
        if W::NINTH_BLOCK {
            for _ in 0..ninth_block_batches(W::BLOCKS, len) {
                batch_nine::<W>(state, counter, input.add(done), output.add(done));
                done += 64 * (W::BLOCKS + 1);
                counter = counter.wrapping_add(W::BLOCKS as u64 + 1);
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
        while len - done >= wide {
            batch::<W>(
                state,
                counter,
                input.add(done),
                output.add(done),
                wide,
                done,
                &mut (),
            );
            done += wide;
            counter = counter.wrapping_add(W::BLOCKS as u64);
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

/// Where the sealing kernel sends its results: the AEAD's Poly1305.
pub(crate) trait Absorb {
    /// Receives keystream block 0 (the one-time key), before any ciphertext.
    fn key(&mut self, block0: &[u8; 64]);
    /// Absorbs `blocks`, whole 16-byte blocks of ciphertext in message order.
    fn absorb(&mut self, blocks: &[u8]);
    /// As [`Absorb::absorb`], on the integer units only (no vector instructions): for
    /// interleaving with the rounds of a keystream batch.
    fn absorb_scalar(&mut self, blocks: &[u8]);
}

/// The AEAD's seal: keystream block 0 goes to `mac.key`, blocks 1, 2, … are XORed
/// into the `len` message bytes, and every whole 16-byte block of the resulting
/// ciphertext goes to the MAC (the caller absorbs the last partial one).
///
/// The key block is computed in the same batch as the first message blocks, not as
/// a batch of its own: a message of up to `MAX_ROW_SETS * H::ROW_BLOCKS - 1` blocks
/// (320 bytes on AVX2) is a single row-form batch, key included; a longer one starts
/// with a wide batch of the key and `W::BLOCKS - 1` message blocks. Then, where
/// [`Lanes::INTERLEAVE_MAC`] is set, one batch after another (the last in the row form
/// where it fits), each absorbing the ciphertext of the batch before it between its
/// double rounds with `mac.absorb_scalar`; `mac.absorb` takes what the last batch
/// wrote. Elsewhere the usual kernel from block `W::BLOCKS`, then `mac.absorb` over
/// all of it.
///
/// # Safety
/// The CPU has the features of `W` and `H`; `input` is readable and `output` writable
/// for `len` bytes; they are the same pointer or do not overlap; for RFC 8439 states,
/// `1 + ceil(len / 64) <= 2^32`.
#[inline(always)]
pub(crate) unsafe fn seal<W: Lanes, H: Rows, A: Absorb>(
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
        one_batch::<W, W, W, H, _>(state, 0, input, output, first, 0, &mut on_key);
        let counter = 1 + (first / 64) as u64;
        if !W::INTERLEAVE_MAC {
            if first < len {
                let (i, o) = (input.add(first), output.add(first));
                xor_keystream_rows::<W, W, W, H>(state, counter, i, o, len - first);
            }
            mac.absorb(core::slice::from_raw_parts(output, len & !15));
        } else {
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
/// Interleaving ([`Lanes::INTERLEAVE_MAC`]) a message longer than one row-form batch:
/// the key block is a row-form batch of its own (the MAC needs it before any
/// ciphertext), then each batch absorbs its own input between its double rounds,
/// before it writes its output; no MAC work is left after the last batch. Otherwise
/// the key block comes from the first batch, as sealing, and once it is stored,
/// before the batch writes the message, the MAC absorbs all the ciphertext; then the
/// usual kernel for the rest. (Starting long messages like that too, then
/// interleaving, measured 0.73x of ring at 512 B against 0.99x with the key batch.)
///
/// # Safety
/// As for [`seal`].
#[inline(always)]
pub(crate) unsafe fn open<W: Lanes, H: Rows, A: Absorb>(
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
        one_batch::<W, W, W, H, _>(state, 0, input, output, first, 0, &mut on_key);
        wipe(&mut key);
        if first < len {
            let (i, o) = (input.add(first), output.add(first));
            let counter = 1 + (first / 64) as u64;
            xor_keystream_rows::<W, W, W, H>(state, counter, i, o, len - first);
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
    const SCALAR_WORK: bool = true;

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
