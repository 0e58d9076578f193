//! The 32-bit Arm NEON kernels, each one `asm!` block: [`batch4`] computes four
//! ChaCha blocks in the vertical form (q-register `i` holds state word `i` of all four
//! blocks) for up to 256 message bytes; [`batch_rows`] one or two blocks in the row
//! form (a q-register is one row of one block) for up to 128. `core::arch::arm`'s NEON
//! intrinsics are not stable and neither is `#[target_feature(enable = "neon")]` on
//! Arm, so the kernels are written in assembly (`.fpu neon` inside the template) and
//! the caller checks the CPU at run time.
//!
//! Registers in `batch4`: sixteen state words fill q0–q15, and the rotations by 12, 8
//! and 7 need scratch registers, so two words (x10 and x11, or x8 and x9) always live
//! in the frame's spill slots: each round runs its two quarter rounds whose `c` words
//! are x8 and x9 first, swaps the pairs with one store and one load, runs the other
//! two, and swaps back for the last step. Both the column and the diagonal round can
//! be ordered so that their `c` words are x8, x9, x10, x11 in that order, so one
//! assembler macro serves both.
//!
//! Output: `batch4` transposes each 4 x 4 word group in place (`vtrn` + `vswp`),
//! giving one 16-byte piece of each block; the row form's rows already are pieces.
//! Every whole piece is XORed and stored as soon as it is ready, and the partial one
//! (if any) is parked in the frame and finished last, over the message's final 16
//! bytes with a `vtbl` byte permutation — the bytes below the tail are by then final
//! in `output` and are rewritten unchanged.

use core::arch::asm;
use core::mem::MaybeUninit;

/// Loaded at offset `rem`, a `vtbl` pattern moving bytes `0..rem` of a vector to its
/// top `rem` positions; the other indices are out of range (≥ 16), which `vtbl` turns
/// into zero bytes.
static SLIDE: [u8; 32] = [
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
];

/// Joins assembly lines into one template string.
macro_rules! lines {
    ($($line:literal),* $(,)?) => {
        concat!($($line, "\n"),*)
    };
}

/// Defines the assembler macro `piece k, kl, kh, off, s, sl, sh`: message bytes
/// `off..off + 16` with keystream in q`k` (d`kl`, d`kh`) and scratch q`s` (d`sl`,
/// d`sh`). XORs and stores them if the message holds all 16; parks the keystream at
/// `{t2}` if the message ends inside them; does nothing if it ends before. Clobbers
/// `{t1}`; purges itself in [`partial_piece`].
macro_rules! piece_macro {
    () => {
        lines!(
            r".macro piece k, kl, kh, off, s, sl, sh",
            r"cmp {len}, #(\off + 16)",
            "blo 2f",
            r"add {t1}, {input}, #\off",
            r"vld1.8 {{d\sl-d\sh}}, [{t1}]",
            r"veor q\s, q\s, q\k",
            r"add {t1}, {output}, #\off",
            r"vst1.8 {{d\sl-d\sh}}, [{t1}]",
            "b 3f",
            "2:",
            r"cmp {len}, #\off",
            "bls 3f",
            r"vst1.32 {{d\kl-d\kh}}, [{t2}]",
            "3:",
            ".endm",
        )
    };
}

/// The partial piece, after every whole one is stored: the message's last 16 bytes,
/// of which the top `rem = len % 16` take the parked keystream's first `rem` bytes (a
/// `vtbl` with the pattern `SLIDE[rem..]`) and the others keep what `output` already
/// holds. Uses q0–q5, `{rounds}`, `{t1}` and `{t2}`; then purges `piece`. Label `4`.
macro_rules! partial_piece {
    () => {
        lines!(
            "ands {rounds}, {len}, #15",
            "beq 4f",
            "vld1.8 {{d0-d1}}, [{t2}]",
            "add {t1}, {slide}, {rounds}",
            "vld1.8 {{d2-d3}}, [{t1}]",
            "vtbl.8 d4, {{d0-d1}}, d2",
            "vtbl.8 d5, {{d0-d1}}, d3",
            "add {t1}, {input}, {len}",
            "sub {t1}, {t1}, #16",
            "vld1.8 {{d6-d7}}, [{t1}]",
            "add {t2}, {output}, {len}",
            "sub {t2}, {t2}, #16",
            "vld1.8 {{d8-d9}}, [{t2}]",
            "veor q3, q3, q2",
            "vmov.i8 q5, #16",
            "vclt.u8 q5, q1, q5",
            "vbsl q5, q3, q4",
            "vst1.8 {{d10-d11}}, [{t2}]",
            "4:",
            ".purgem piece",
        )
    };
}

/// What the kernels read and write besides the message, as 32-bit words (words 12..22
/// as [`batch4`] reads them; [`batch_rows`] reads two d rows there instead):
///
/// | words  | contents |
/// |--------|----------|
/// | 0..12  | state words 0–11 (splatted by `batch4`; rows a, b, c for `batch_rows`) |
/// | 12..16 | word 12 of the four blocks: the low halves of `counter + i` |
/// | 16..20 | word 13 of the four blocks: state word 13 + the high halves |
/// | 20, 21 | state words 14, 15 |
/// | 24..32 | spill slot for x8, x9 |
/// | 32..40 | spill slot for x10, x11 |
/// | 40..44 | the keystream of the partial 16-byte piece, if any |
///
/// Words 0..24 are `input`; words 24..44 are `slots`, which the kernels write before
/// they read them, so they start uninitialised (no zeroing per call). Holds key
/// material: [`Frame::wipe`] it.
#[repr(C, align(16))]
pub(crate) struct Frame {
    /// Words 0..24: what the kernel reads.
    pub(crate) input: [u32; 24],
    /// Words 24..44: the spill slots and the parked partial piece.
    slots: MaybeUninit<[u32; 20]>,
}

impl Frame {
    /// A frame whose input words 0..12 are `words[..12]` and the others 0.
    #[inline(always)]
    pub(crate) fn new(words: &[u32; 16]) -> Self {
        let w = words;
        Frame {
            input: [
                w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9], w[10], w[11], 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0,
            ],
            slots: MaybeUninit::uninit(),
        }
    }

    /// The start of the 44 words, for the kernels.
    #[inline(always)]
    fn as_mut_ptr(&mut self) -> *mut u32 {
        (self as *mut Frame).cast()
    }

    /// Overwrites all 44 words with zeros in a way the optimizer keeps (word by word:
    /// a volatile store of a whole array becomes a memset and a memcpy call).
    #[inline(always)]
    pub(crate) fn wipe(&mut self) {
        let words = self.as_mut_ptr();
        for i in 0..44 {
            // SAFETY: `Frame` is 44 aligned words (`repr(C)`, no padding: 96 + 80
            // bytes), exclusively borrowed; writing initialises any slot word.
            unsafe { core::ptr::write_volatile(words.add(i), 0) };
        }
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// Four ChaCha blocks (`frame` words 0..22: the input of blocks `counter..counter + 4`)
/// XORed into `len` bytes.
///
/// Out of line, like [`batch_rows`]: a large block that `super::neon::xor_keystream`
/// calls from two places. Nothing in the register declarations depends on that.
///
/// # Safety
/// - the CPU has NEON;
/// - `1 <= len <= 256`, `double_rounds >= 1`;
/// - `input` is readable and `output` writable for `len` bytes; they are the same
///   pointer or do not overlap;
/// - if `len % 16 != 0`, the `16 - len % 16` bytes before the last `len % 16` belong to
///   the same message (within this call's `len`, or before `input`/`output`), are
///   readable in `input` and writable in `output`, and already hold their final value
///   in `output` unless they are within this call's `len`.
#[inline(never)]
pub(crate) unsafe fn batch4(
    frame: &mut Frame,
    input: *const u8,
    output: *mut u8,
    len: usize,
    double_rounds: u32,
) {
    // SAFETY:
    // - NEON: the caller checked the CPU (`.fpu neon` only lets the assembler accept
    //   the instructions).
    // - Memory: the kernel reads `frame` words 0..22 and reads and writes words 24..44
    //   through the exclusive `&mut Frame`; reads `SLIDE[rem..rem + 16]` with
    //   `rem < 16`; reads `input[..len]` and writes `output[..len]` in whole 16-byte
    //   pieces ending at or below `len`, and for a partial piece reads and writes the
    //   message's 16 bytes ending at `len`, whose part below the tail the caller vouches
    //   for (it is rewritten with the value loaded from `output`). In-place works: each
    //   piece loads its input before storing, and no piece overlaps another except the
    //   final window, which uses `output`'s final bytes below the tail.
    // - Registers: general registers are operands; the flags are clobbered (no
    //   `preserves_flags`); the stack is not touched (`nostack`). The kernel writes
    //   all of q0–q15, and every one of their d halves, d0–d31, is declared clobbered:
    //   the compiler saves the callee-saved d8–d15 itself, and keeps none of its own
    //   values in d16–d31 across the block (which matters in a build where it may use
    //   them, `+d32`/`+neon`; without `d32` it never allocates them, and rustc accepts
    //   them as operands either way).
    unsafe {
        asm!(
            ".fpu neon",
            // a += b; d = rotl(d ^ a, 16); c += d; b = rotl(b ^ c, 12); a += b;
            // d = rotl(d ^ a, 8); c += d; b = rotl(b ^ c, 7), on four quarter rounds
            // whose c words are q8, q9, q10, q11. On entry and exit x10 and x11 are in
            // the spill slot at {t2} and q10, q11 are free; {t1} is x8/x9's slot.
            r".macro chacha_round a0, b0, d0, a1, b1, d1, a2, b2, d2, a3, b3, d3",
            r"vadd.i32 q\a0, q\a0, q\b0",
            r"vadd.i32 q\a1, q\a1, q\b1",
            r"vadd.i32 q\a2, q\a2, q\b2",
            r"vadd.i32 q\a3, q\a3, q\b3",
            r"veor q\d0, q\d0, q\a0",
            r"veor q\d1, q\d1, q\a1",
            r"veor q\d2, q\d2, q\a2",
            r"veor q\d3, q\d3, q\a3",
            r"vrev32.16 q\d0, q\d0",
            r"vrev32.16 q\d1, q\d1",
            r"vrev32.16 q\d2, q\d2",
            r"vrev32.16 q\d3, q\d3",
            // the first pair: c in q8, q9; scratch q10, q11
            r"vadd.i32 q8, q8, q\d0",
            r"vadd.i32 q9, q9, q\d1",
            r"veor q10, q\b0, q8",
            r"veor q11, q\b1, q9",
            r"vshl.i32 q\b0, q10, #12",
            r"vshl.i32 q\b1, q11, #12",
            r"vsri.32 q\b0, q10, #20",
            r"vsri.32 q\b1, q11, #20",
            // x8, x9 out, x10, x11 in
            "vst1.32 {{d16-d19}}, [{t1}]",
            "vld1.32 {{d20-d23}}, [{t2}]",
            // the second pair: c in q10, q11; scratch q8, q9
            r"vadd.i32 q10, q10, q\d2",
            r"vadd.i32 q11, q11, q\d3",
            r"veor q8, q\b2, q10",
            r"veor q9, q\b3, q11",
            r"vshl.i32 q\b2, q8, #12",
            r"vshl.i32 q\b3, q9, #12",
            r"vsri.32 q\b2, q8, #20",
            r"vsri.32 q\b3, q9, #20",
            r"vadd.i32 q\a0, q\a0, q\b0",
            r"vadd.i32 q\a1, q\a1, q\b1",
            r"vadd.i32 q\a2, q\a2, q\b2",
            r"vadd.i32 q\a3, q\a3, q\b3",
            r"veor q8, q\d0, q\a0",
            r"veor q9, q\d1, q\a1",
            r"vshl.i32 q\d0, q8, #8",
            r"vshl.i32 q\d1, q9, #8",
            r"vsri.32 q\d0, q8, #24",
            r"vsri.32 q\d1, q9, #24",
            r"veor q8, q\d2, q\a2",
            r"veor q9, q\d3, q\a3",
            r"vshl.i32 q\d2, q8, #8",
            r"vshl.i32 q\d3, q9, #8",
            r"vsri.32 q\d2, q8, #24",
            r"vsri.32 q\d3, q9, #24",
            r"vadd.i32 q10, q10, q\d2",
            r"vadd.i32 q11, q11, q\d3",
            r"veor q8, q\b2, q10",
            r"veor q9, q\b3, q11",
            r"vshl.i32 q\b2, q8, #7",
            r"vshl.i32 q\b3, q9, #7",
            r"vsri.32 q\b2, q8, #25",
            r"vsri.32 q\b3, q9, #25",
            // x10, x11 out, x8, x9 in
            "vst1.32 {{d20-d23}}, [{t2}]",
            "vld1.32 {{d16-d19}}, [{t1}]",
            r"vadd.i32 q8, q8, q\d0",
            r"vadd.i32 q9, q9, q\d1",
            r"veor q10, q\b0, q8",
            r"veor q11, q\b1, q9",
            r"vshl.i32 q\b0, q10, #7",
            r"vshl.i32 q\b1, q11, #7",
            r"vsri.32 q\b0, q10, #25",
            r"vsri.32 q\b1, q11, #25",
            ".endm",
            // In-place 4 x 4 transpose of the words in q(4g)..q(4g+3) = d(8g)..d(8g+7):
            // afterwards q(4g + k) is words 4g..4g+4 of block k.
            r".macro transpose q0, q1, q2, q3, a1, c0, b1, d0",
            r"vtrn.32 q\q0, q\q1",
            r"vtrn.32 q\q2, q\q3",
            r"vswp d\a1, d\c0",
            r"vswp d\b1, d\d0",
            ".endm",
            piece_macro!(),
            // ---- the input: q0..q15 = words 0..15 of the four blocks
            "vld1.32 {{d0[], d1[]}}, [{frame}]!",
            "vld1.32 {{d2[], d3[]}}, [{frame}]!",
            "vld1.32 {{d4[], d5[]}}, [{frame}]!",
            "vld1.32 {{d6[], d7[]}}, [{frame}]!",
            "vld1.32 {{d8[], d9[]}}, [{frame}]!",
            "vld1.32 {{d10[], d11[]}}, [{frame}]!",
            "vld1.32 {{d12[], d13[]}}, [{frame}]!",
            "vld1.32 {{d14[], d15[]}}, [{frame}]!",
            "vld1.32 {{d16[], d17[]}}, [{frame}]!",
            "vld1.32 {{d18[], d19[]}}, [{frame}]!",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vld1.32 {{d24-d27}}, [{frame}]!",
            "vld1.32 {{d28[], d29[]}}, [{frame}]!",
            "vld1.32 {{d30[], d31[]}}, [{frame}]!",
            // {frame} is now frame + 88: the spill slots are at +96 and +128
            "add {t1}, {frame}, #8",
            "add {t2}, {frame}, #40",
            "vst1.32 {{d20-d23}}, [{t2}]",
            "1:",
            "chacha_round 0, 4, 12, 1, 5, 13, 2, 6, 14, 3, 7, 15",
            "chacha_round 2, 7, 13, 3, 4, 14, 0, 5, 15, 1, 6, 12",
            "subs {rounds}, {rounds}, #1",
            "bne 1b",
            // ---- add the input back (x10, x11 still spilled; q10, q11 scratch)
            "sub {frame}, {frame}, #88",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q0, q0, q10",
            "vadd.i32 q1, q1, q11",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q2, q2, q10",
            "vadd.i32 q3, q3, q11",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q4, q4, q10",
            "vadd.i32 q5, q5, q11",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q6, q6, q10",
            "vadd.i32 q7, q7, q11",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q8, q8, q10",
            "vadd.i32 q9, q9, q11",
            "add {frame}, {frame}, #8",
            "vld1.32 {{d20-d23}}, [{frame}]!",
            "vadd.i32 q12, q12, q10",
            "vadd.i32 q13, q13, q11",
            "vld1.32 {{d20[], d21[]}}, [{frame}]!",
            "vld1.32 {{d22[], d23[]}}, [{frame}]!",
            "vadd.i32 q14, q14, q10",
            "vadd.i32 q15, q15, q11",
            // ---- words 0..4 of every block, then the others once x10, x11 are back
            "transpose 0, 1, 2, 3, 1, 4, 3, 6",
            "transpose 4, 5, 6, 7, 9, 12, 11, 14",
            "transpose 12, 13, 14, 15, 25, 28, 27, 30",
            "add {t2}, {frame}, #72",
            "piece 0, 0, 1, 0, 10, 20, 21",
            "piece 1, 2, 3, 64, 11, 22, 23",
            "piece 2, 4, 5, 128, 10, 20, 21",
            "piece 3, 6, 7, 192, 11, 22, 23",
            "add {t1}, {frame}, #40",
            "vld1.32 {{d20-d23}}, [{t1}]",
            "sub {t1}, {frame}, #48",
            "vld1.32 {{d0[], d1[]}}, [{t1}]!",
            "vld1.32 {{d2[], d3[]}}, [{t1}]",
            "vadd.i32 q10, q10, q0",
            "vadd.i32 q11, q11, q1",
            "transpose 8, 9, 10, 11, 17, 20, 19, 22",
            "piece 4, 8, 9, 16, 0, 0, 1",
            "piece 5, 10, 11, 80, 1, 2, 3",
            "piece 6, 12, 13, 144, 0, 0, 1",
            "piece 7, 14, 15, 208, 1, 2, 3",
            "piece 8, 16, 17, 32, 0, 0, 1",
            "piece 9, 18, 19, 96, 1, 2, 3",
            "piece 10, 20, 21, 160, 0, 0, 1",
            "piece 11, 22, 23, 224, 1, 2, 3",
            "piece 12, 24, 25, 48, 0, 0, 1",
            "piece 13, 26, 27, 112, 1, 2, 3",
            "piece 14, 28, 29, 176, 0, 0, 1",
            "piece 15, 30, 31, 240, 1, 2, 3",
            partial_piece!(),
            ".purgem chacha_round",
            ".purgem transpose",
            frame = inout(reg) frame.as_mut_ptr() => _,
            rounds = inout(reg) double_rounds => _,
            input = in(reg) input,
            output = in(reg) output,
            len = in(reg) len,
            slide = in(reg) SLIDE.as_ptr(),
            t1 = out(reg) _,
            t2 = out(reg) _,
            out("d0") _, out("d1") _, out("d2") _, out("d3") _,
            out("d4") _, out("d5") _, out("d6") _, out("d7") _,
            out("d8") _, out("d9") _, out("d10") _, out("d11") _,
            out("d12") _, out("d13") _, out("d14") _, out("d15") _,
            out("d16") _, out("d17") _, out("d18") _, out("d19") _,
            out("d20") _, out("d21") _, out("d22") _, out("d23") _,
            out("d24") _, out("d25") _, out("d26") _, out("d27") _,
            out("d28") _, out("d29") _, out("d30") _, out("d31") _,
            options(nostack),
        );
    }
}

/// One or two ChaCha blocks in the row form (q-register = one row of one block:
/// a, b, c, d in q0–q3 for block `counter`, q4–q7 for block `counter + 1`), XORed into
/// up to 128 message bytes. For a remainder of one or two blocks this computes only
/// those blocks (the 4-block batch would compute four) and needs no transpose: the
/// diagonal round rotates the words of rows a, c and d with `vext` (b stays, so the
/// rotations are off its dependency chain). Two blocks run as two interleaved sets.
///
/// `frame` words 0..12 are state words 0–11 (rows a, b, c); words 12..16 and 16..20
/// are row d of blocks `counter` and `counter + 1`; words 40..44 take the parked
/// partial piece, as in [`batch4`].
///
/// # Safety
/// As for [`batch4`], with `1 <= len <= 128`.
#[inline(never)]
pub(crate) unsafe fn batch_rows(
    frame: &mut Frame,
    input: *const u8,
    output: *mut u8,
    len: usize,
    double_rounds: u32,
) {
    // SAFETY: as for `batch4`: NEON is the caller's check; memory is `frame` words
    // 0..20 (read) and 40..44 (written) through the exclusive `&mut Frame`,
    // `SLIDE[rem..rem + 16]`, and the message's whole 16-byte pieces below `len` plus
    // the final window the caller vouches for. Registers: the kernel writes q0–q14
    // (q0–q7 the two blocks' rows, q8 and q9 scratch, q10–q14 the input rows), and
    // their d halves d0–d29 are declared clobbered; d30 and d31 (q15) are untouched.
    unsafe {
        asm!(
            ".fpu neon",
            // One quarter round on every column of the rows a, b, c, d (scratch t).
            r".macro rows_round a, b, c, d, t",
            r"vadd.i32 q\a, q\a, q\b",
            r"veor q\d, q\d, q\a",
            r"vrev32.16 q\d, q\d",
            r"vadd.i32 q\c, q\c, q\d",
            r"veor q\t, q\b, q\c",
            r"vshl.i32 q\b, q\t, #12",
            r"vsri.32 q\b, q\t, #20",
            r"vadd.i32 q\a, q\a, q\b",
            r"veor q\t, q\d, q\a",
            r"vshl.i32 q\d, q\t, #8",
            r"vsri.32 q\d, q\t, #24",
            r"vadd.i32 q\c, q\c, q\d",
            r"veor q\t, q\b, q\c",
            r"vshl.i32 q\b, q\t, #7",
            r"vsri.32 q\b, q\t, #25",
            ".endm",
            // The same on two independent sets, instruction by instruction.
            r".macro rows_round2 a, b, c, d, t, e, f, g, h, u",
            r"vadd.i32 q\a, q\a, q\b",
            r"vadd.i32 q\e, q\e, q\f",
            r"veor q\d, q\d, q\a",
            r"veor q\h, q\h, q\e",
            r"vrev32.16 q\d, q\d",
            r"vrev32.16 q\h, q\h",
            r"vadd.i32 q\c, q\c, q\d",
            r"vadd.i32 q\g, q\g, q\h",
            r"veor q\t, q\b, q\c",
            r"veor q\u, q\f, q\g",
            r"vshl.i32 q\b, q\t, #12",
            r"vshl.i32 q\f, q\u, #12",
            r"vsri.32 q\b, q\t, #20",
            r"vsri.32 q\f, q\u, #20",
            r"vadd.i32 q\a, q\a, q\b",
            r"vadd.i32 q\e, q\e, q\f",
            r"veor q\t, q\d, q\a",
            r"veor q\u, q\h, q\e",
            r"vshl.i32 q\d, q\t, #8",
            r"vshl.i32 q\h, q\u, #8",
            r"vsri.32 q\d, q\t, #24",
            r"vsri.32 q\h, q\u, #24",
            r"vadd.i32 q\c, q\c, q\d",
            r"vadd.i32 q\g, q\g, q\h",
            r"veor q\t, q\b, q\c",
            r"veor q\u, q\f, q\g",
            r"vshl.i32 q\b, q\t, #7",
            r"vshl.i32 q\f, q\u, #7",
            r"vsri.32 q\b, q\t, #25",
            r"vsri.32 q\f, q\u, #25",
            ".endm",
            // Diagonals to columns: word i of a takes word i + 3, of c i + 1, of d
            // i + 2 (mod 4); `n` = 1, 3 undoes it with the rotations of a and c swapped.
            r".macro rows_shift a, c, d, n, m",
            r"vext.32 q\a, q\a, q\a, #\n",
            r"vext.32 q\c, q\c, q\c, #\m",
            r"vext.32 q\d, q\d, q\d, #2",
            ".endm",
            piece_macro!(),
            // ---- the input rows, kept in q10–q14 for the final addition
            "vld1.32 {{d20-d23}}, [{frame}]!",
            "vld1.32 {{d24-d25}}, [{frame}]!",
            "vld1.32 {{d26-d29}}, [{frame}]!",
            "vmov q0, q10",
            "vmov q1, q11",
            "vmov q2, q12",
            "vmov q3, q13",
            "cmp {len}, #64",
            "bhi 5f",
            // ---- one block
            "1:",
            "rows_round 0, 1, 2, 3, 8",
            "rows_shift 0, 2, 3, 3, 1",
            "rows_round 0, 1, 2, 3, 8",
            "rows_shift 0, 2, 3, 1, 3",
            "subs {rounds}, {rounds}, #1",
            "bne 1b",
            "b 6f",
            // ---- two blocks
            "5:",
            "vmov q4, q10",
            "vmov q5, q11",
            "vmov q6, q12",
            "vmov q7, q14",
            "7:",
            "rows_round2 0, 1, 2, 3, 8, 4, 5, 6, 7, 9",
            "rows_shift 0, 2, 3, 3, 1",
            "rows_shift 4, 6, 7, 3, 1",
            "rows_round2 0, 1, 2, 3, 8, 4, 5, 6, 7, 9",
            "rows_shift 0, 2, 3, 1, 3",
            "rows_shift 4, 6, 7, 1, 3",
            "subs {rounds}, {rounds}, #1",
            "bne 7b",
            "vadd.i32 q4, q4, q10",
            "vadd.i32 q5, q5, q11",
            "vadd.i32 q6, q6, q12",
            "vadd.i32 q7, q7, q14",
            "6:",
            "vadd.i32 q0, q0, q10",
            "vadd.i32 q1, q1, q11",
            "vadd.i32 q2, q2, q12",
            "vadd.i32 q3, q3, q13",
            // ---- the rows are the message's 16-byte pieces in order ({frame} is now
            // frame + 80; the parking slot is at + 160)
            "add {t2}, {frame}, #80",
            "piece 0, 0, 1, 0, 8, 16, 17",
            "piece 1, 2, 3, 16, 9, 18, 19",
            "piece 2, 4, 5, 32, 8, 16, 17",
            "piece 3, 6, 7, 48, 9, 18, 19",
            "piece 4, 8, 9, 64, 8, 16, 17",
            "piece 5, 10, 11, 80, 9, 18, 19",
            "piece 6, 12, 13, 96, 8, 16, 17",
            "piece 7, 14, 15, 112, 9, 18, 19",
            partial_piece!(),
            ".purgem rows_round",
            ".purgem rows_round2",
            ".purgem rows_shift",
            frame = inout(reg) frame.as_mut_ptr() => _,
            rounds = inout(reg) double_rounds => _,
            input = in(reg) input,
            output = in(reg) output,
            len = in(reg) len,
            slide = in(reg) SLIDE.as_ptr(),
            t1 = out(reg) _,
            t2 = out(reg) _,
            out("d0") _, out("d1") _, out("d2") _, out("d3") _,
            out("d4") _, out("d5") _, out("d6") _, out("d7") _,
            out("d8") _, out("d9") _, out("d10") _, out("d11") _,
            out("d12") _, out("d13") _, out("d14") _, out("d15") _,
            out("d16") _, out("d17") _, out("d18") _, out("d19") _,
            out("d20") _, out("d21") _, out("d22") _, out("d23") _,
            out("d24") _, out("d25") _, out("d26") _, out("d27") _,
            out("d28") _, out("d29") _,
            options(nostack),
        );
    }
}
