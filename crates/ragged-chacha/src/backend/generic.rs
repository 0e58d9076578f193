//! The ChaCha block function and the batch/tail driver, written once over [`Lanes`].
//!
//! A `Lanes` value holds one 32-bit state word for `BLOCKS` consecutive blocks
//! ("vertical" layout), so sixteen of them are `BLOCKS` whole ChaCha states. Each
//! instruction set supplies only the lane operations, the transpose back to message
//! order, and its trick for the final partial vector.

use crate::state::State;

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

/// One quarter round on four independent column or diagonal sets at once, written as
/// four interleaved quarter rounds so the dependency chains run side by side.
#[inline(always)]
unsafe fn quarter_rounds<V: Lanes>(
    x: &mut [V; 16],
    a: [usize; 4],
    b: [usize; 4],
    c: [usize; 4],
    d: [usize; 4],
) {
    // SAFETY: the caller upholds the `Lanes` contract (the CPU has V's features).
    unsafe {
        for i in 0..4 {
            x[a[i]] = x[a[i]].add(x[b[i]]);
        }
        for i in 0..4 {
            x[d[i]] = x[d[i]].xor(x[a[i]]).rotl16();
        }
        for i in 0..4 {
            x[c[i]] = x[c[i]].add(x[d[i]]);
        }
        for i in 0..4 {
            x[b[i]] = x[b[i]].xor(x[c[i]]).rotl12();
        }
        for i in 0..4 {
            x[a[i]] = x[a[i]].add(x[b[i]]);
        }
        for i in 0..4 {
            x[d[i]] = x[d[i]].xor(x[a[i]]).rotl8();
        }
        for i in 0..4 {
            x[c[i]] = x[c[i]].add(x[d[i]]);
        }
        for i in 0..4 {
            x[b[i]] = x[b[i]].xor(x[c[i]]).rotl7();
        }
    }
}

/// `double_rounds` ChaCha double rounds (a column round, then a diagonal round).
///
/// # Safety
/// The CPU has the features `V` requires.
#[inline(always)]
pub(crate) unsafe fn rounds<V: Lanes>(x: &mut [V; 16], double_rounds: u32) {
    for _ in 0..double_rounds {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            quarter_rounds(
                x,
                [0, 1, 2, 3],
                [4, 5, 6, 7],
                [8, 9, 10, 11],
                [12, 13, 14, 15],
            );
            quarter_rounds(
                x,
                [0, 1, 2, 3],
                [5, 6, 7, 4],
                [10, 11, 8, 9],
                [15, 12, 13, 14],
            );
        }
    }
}

/// Computes `V::BLOCKS` keystream blocks starting at block `counter` and XORs the
/// first `len` bytes (`0 < len <= 64 * V::BLOCKS`) of them into the message.
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
) {
    // SAFETY: the CPU has V's features; the pointer ranges are as this function requires,
    // and every access below stays within `len` bytes (the tail within `before + len`).
    unsafe {
        let w = &state.words;
        let (lo, hi) = V::counters(counter);
        let init = [
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
        ];
        let mut x = init;
        rounds(&mut x, state.double_rounds);
        for i in 0..16 {
            x[i] = x[i].add(init[i]);
        }
        let ks = V::transpose(x);

        // Unrolled so that every keystream vector is addressed by a constant index and
        // stays in a register.
        macro_rules! chunk {
            ($i:literal) => {
                let at = $i * V::BYTES;
                if len >= at + V::BYTES {
                    ks[$i].xor(V::load(input.add(at))).store(output.add(at));
                } else {
                    if len > at {
                        ks[$i].xor_tail(input.add(at), output.add(at), len - at, before + at);
                    }
                    return;
                }
            };
        }
        chunk!(0);
        chunk!(1);
        chunk!(2);
        chunk!(3);
        chunk!(4);
        chunk!(5);
        chunk!(6);
        chunk!(7);
        chunk!(8);
        chunk!(9);
        chunk!(10);
        chunk!(11);
        chunk!(12);
        chunk!(13);
        chunk!(14);
        chunk!(15);
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
    let wide = 64 * W::BLOCKS;
    let mut done = 0;
    let mut counter = counter;
    // SAFETY: each batch covers `input/output[done..done + n]` with `done + n <= len`,
    // and the `done` bytes before it belong to the same message.
    unsafe {
        while len - done > wide {
            batch::<W>(
                state,
                counter,
                input.add(done),
                output.add(done),
                wide,
                done,
            );
            done += wide;
            counter = counter.wrapping_add(W::BLOCKS as u64);
        }
        let rest = len - done;
        let (i, o) = (input.add(done), output.add(done));
        if rest == 0 {
        } else if rest <= 64 * N::BLOCKS {
            batch::<N>(state, counter, i, o, rest, done);
        } else if rest <= 64 * M::BLOCKS {
            batch::<M>(state, counter, i, o, rest, done);
        } else {
            batch::<W>(state, counter, i, o, rest, done);
        }
    }
}
