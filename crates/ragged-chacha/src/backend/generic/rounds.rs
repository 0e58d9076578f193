//! The rounds: the quarter round over lanes, the parking of two rows in memory where
//! sixteen vector registers cannot hold the state, and the interleaving of scalar work
//! (a block in the general-purpose registers, or the AEAD's Poly1305) between the
//! vector rounds, steered by [`BatchExtras`]; and the rounds of two independent
//! batches side by side (a burst's two sets of lanes, a long message's pair batches).

use super::lanes::Lanes;
#[cfg(doc)]
use crate::backend::schedule::Schedule;

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

/// What a batch runs on the integer units beside its vector rounds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Beside {
    /// Nothing: the general-purpose registers are free (a plain batch, or an AEAD
    /// batch whose MAC runs before or after it).
    Nothing,
    /// A ChaCha block, pair by pair in [`BatchExtras::between_pairs`] (`ScalarBlock`).
    Block,
    /// Row sets of the message's remainder, step by step in
    /// [`BatchExtras::between_pairs`] (`fused.rs`): more vector work, none on the
    /// integer units.
    // Only the row form (x86-64 and aarch64) has it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    Rows,
    /// The AEAD's Poly1305 in [`BatchExtras::after_double_round`] (`AbsorbBetween`):
    /// it takes the general-purpose registers, so no block is computed there (see
    /// [`Schedule::SCALAR_BLOCK`]).
    // Only the fused AEAD (x86-64 and aarch64) has it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    Mac,
}

/// What a keystream batch does besides XORing keystream into the message.
pub(crate) trait BatchExtras {
    /// Whether [`BatchExtras::key_block`] gives a key block (the batch then computes
    /// one block more than the message takes).
    const KEY_BLOCK: bool = false;

    /// What the batch runs on the integer units beside its vector rounds; the
    /// schedule's choices depend on it (see [`vector_pair`] and `one_batch`).
    const BESIDE: Beside = Beside::Nothing;

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
    /// 2, 3: the diagonals) in the [`Schedule::SPILL_TWO_ROWS`] form, each after the
    /// parking of the rows the pair before used, and after each round (0 and 1,
    /// then 2 and 3) otherwise. For scalar work finer-grained than a double round.
    /// (Before rather than after its pair: faster for the ninth block, febf200.)
    #[inline(always)]
    fn between_pairs(&mut self, _pair: usize) {}
}

/// A plain keystream batch.
impl BatchExtras for () {}

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
/// first use, after the pair's first `d` rotation (loaded right after pairs 0 and 2
/// park theirs, the compiler held the two sets of `c` rows at once and spilled two
/// more rows a double round: 7e52fba). Without it, as beside the AEAD's interleaved
/// Poly1305, they take them back right after that parking: there the late loads made
/// the seal slower (42ddc85).
///
/// The vector rounds and the scalar ninth block ([`ScalarBlock`]) both run it; the
/// vectors interleave the pair's two quarter rounds step by step, the scalar block runs
/// them one after the other (`ONE_BY_ONE`; interleaved it measured slower, 8287e4d).
///
/// # Safety
/// The CPU has the features `V` requires.
///
/// [`ScalarBlock`]: super::scalar::ScalarBlock
#[inline(always)]
pub(super) unsafe fn quarter_round_pair<V: Lanes, const ONE_BY_ONE: bool>(
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
/// one after the other where [`Schedule::PAIR_ONE_BY_ONE`] asks for it and `E` does no
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
        if !V::PAIR_ONE_BY_ONE || !matches!(E::BESIDE, Beside::Nothing) {
            let late_back = !matches!(E::BESIDE, Beside::Mac);
            quarter_round_pair::<V, false>(x, parked, pair, late_back);
        } else {
            quarter_round_pair::<V, true>(x, parked, pair, true);
        }
    }
}

/// Takes back the rows still parked after the last double round (10 and 11; with no
/// round at all, `parked` holds their initial values).
#[inline(always)]
pub(super) fn unpark<V: Lanes>(x: &mut [V; 16], parked: &[V; 4]) {
    x[10] = parked[2];
    x[11] = parked[3];
}

/// Zeroes the four slots of `parked` with volatile stores, once [`unpark`] has taken
/// the last rows back. At the end of a batch they hold key-derived rows: slots 2 and 3
/// rows 10 and 11 before the feed-forward, which with known plaintext give key words 6
/// and 7 (keystream minus row), slots 0 and 1 rows 8 and 9 from the last double round.
/// Every batch that parks (the vector rounds, and the scalar [`ScalarBlock`]) wipes its
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
///
/// [`ScalarBlock`]: super::scalar::ScalarBlock
/// [`wipe`]: crate::wipe::wipe
#[inline(always)]
pub(super) unsafe fn wipe_parked<V: Lanes>(parked: &mut [V; 4]) {
    // SAFETY: V's features (the caller's contract).
    let zero = unsafe { V::splat(0) };
    for slot in parked {
        // SAFETY: a valid, aligned, exclusively borrowed element.
        unsafe { core::ptr::write_volatile(slot, zero) };
    }
}

/// [`rounds`], with `extras.after_double_round` run after each double round.
///
/// With [`Schedule::SPILL_TWO_ROWS`], each round runs as two pairs of quarter rounds, and
/// the two `c` rows the running pair does not use wait in memory: rows 10 and 11
/// while the columns 0 and 1 run, rows 8 and 9 while the diagonals starting at words 2
/// and 3 run; two stores after pairs 0 and 2, two loads in pairs 1 and 3 (or right
/// after those stores: see [`quarter_round_pair`]), four of each a double round.
/// Sixteen state rows and the rotations' temporaries do not fit in sixteen
/// registers; left to itself, the compiler spilled and reloaded about twice as many
/// rows, and the loop was slower (0f7baa5).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
pub(super) unsafe fn rounds_interleaved<V: Lanes, E: BatchExtras>(
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

/// The double rounds of two independent sets of sixteen word vectors, step by step
/// across the sets (and the four quarter rounds of a column or diagonal), so that
/// their dependency chains run side by side: where one set's chain is bound by the
/// latency of its vector operations, the other fills the idle pipes. Every vector
/// stays in a register only with 32 of them.
///
/// # Safety
/// The CPU has the features `V` requires.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
pub(super) unsafe fn rounds_side_by_side<V: Lanes>(
    x: &mut [V; 16],
    y: &mut [V; 16],
    double_rounds: u32,
) {
    // SAFETY: the caller's (the CPU has V's features).
    unsafe {
        for _ in 0..double_rounds {
            quarter_rounds_side_by_side(
                x,
                y,
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [8, 9, 10, 11],
                [12, 13, 14, 15],
            );
            quarter_rounds_side_by_side(
                x,
                y,
                [0, 1, 2, 3],
                [5, 6, 7, 4],
                [10, 11, 8, 9],
                [15, 12, 13, 14],
            );
        }
    }
}

/// The four quarter rounds on columns or diagonals `a`, `b`, `c`, `d` of both sets,
/// step by step.
///
/// # Safety
/// The CPU has the features `V` requires.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
unsafe fn quarter_rounds_side_by_side<V: Lanes>(
    x: &mut [V; 16],
    y: &mut [V; 16],
    a: [usize; 4],
    b: [usize; 4],
    c: [usize; 4],
    d: [usize; 4],
) {
    // One step, `v[to] = rotate(v[to] op v[from])`, of the four quarter rounds of
    // both sets.
    macro_rules! step {
        ($op:ident, $to:ident, $from:ident $(, $rotl:ident)?) => {
            for i in 0..4 {
                x[$to[i]] = x[$to[i]].$op(x[$from[i]])$(.$rotl())?;
                y[$to[i]] = y[$to[i]].$op(y[$from[i]])$(.$rotl())?;
            }
        };
    }
    // SAFETY: the caller's (the CPU has V's features).
    unsafe {
        step!(add, a, b);
        step!(xor, d, a, rotl16);
        step!(add, c, d);
        step!(xor, b, c, rotl12);
        step!(add, a, b);
        step!(xor, d, a, rotl8);
        step!(add, c, d);
        step!(xor, b, c, rotl7);
    }
}
