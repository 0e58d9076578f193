//! The tuning choices of every entry point, on one screen: how each instruction set
//! schedules the one algorithm in `generic/`. The lane traits (`generic::Lanes`,
//! `generic::Rows`) say what the registers can do; a [`Schedule`] says how the batches
//! use them. Each choice names the commit that measured it; the figures (what was
//! compared, on which machine) are in `docs/tuning.md`, "ChaCha backends".
//!
//! | entry point | spill two rows | ninth block | pair one by one | scalar row block | MAC between rounds | fused remainder |
//! |---|---|---|---|---|---|---|
//! | portable    | – | – | – | (no row form) | (no fused AEAD) | (no row form) |
//! | x86-64 SSE2 | – | – | – | yes | yes | – |
//! | x86-64 SSSE3 | yes | – | – | yes | yes | – |
//! | x86-64 AVX2 | yes | yes | yes | yes | yes | – |
//! | x86-64 AVX-512 | – | yes (`avx512-plain`: no) | – | – | – | yes (nine blocks: two sets and a scalar block; `avx512-wide`: every batch of a long message) |
//! | aarch64 NEON | – | – | – | – | – | – |
//!
//! 32-bit Arm NEON runs its own `asm!` round loops (`arm/asm.rs`) and has no
//! `Schedule`: its plan (4-block batches, a remainder of one or two blocks in the row
//! form) is in `arm/neon.rs`, its register use in `arm/asm.rs`. The portable and
//! 32-bit Arm backends seal and open in two passes (`two_pass.rs`).
//!
//! A schedule is keyed by the lane type, as each entry point has exactly one
//! (`x86_64::sse2` `Xmm<Sse2>`, `ssse3` `Xmm<Ssse3>`, `avx2` `Ymm`, `avx512` `Zmm`,
//! `aarch64::neon` `Neon`, the portable kernel `Word`).

use super::portable::Word;

/// How the generic kernel schedules batches of one lane type. Every const defaults to
/// the plain choice; an instruction set overrides what measured faster on it.
pub(crate) trait Schedule {
    /// The order in which a full batch stores its keystream vectors: the order the
    /// lane type's `transpose` finishes them in, so few are live at once.
    const STORE_ORDER: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];
    /// Whether the AEAD seal runs the scalar Poly1305 between the double rounds of these
    /// batches (see `generic::seal`), rather than as a pass after the keystream.
    // Only the fused AEAD (x86-64 and aarch64) reads it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    const INTERLEAVE_MAC: bool = false;
    /// Whether the vertical rounds keep two of the sixteen state rows in memory, for
    /// instruction sets with sixteen vector registers (see `rounds_interleaved`).
    const SPILL_TWO_ROWS: bool = false;
    /// Whether full batches compute one block more in the general-purpose registers,
    /// its quarter rounds placed between the vector ones (see `ScalarBlock`): the
    /// vector rounds are latency-bound, so the integer units are idle beside them.
    const NINTH_BLOCK: bool = false;
    /// Whether the [`Schedule::SPILL_TWO_ROWS`] rounds run the two quarter rounds of
    /// each pair one after the other rather than step by step, in batches with nothing
    /// on the integer units beside them (see `vector_pair`).
    const PAIR_ONE_BY_ONE: bool = false;
    /// Whether a row-form batch of two sets and one block more computes that block in
    /// the general-purpose registers beside the two sets (see `rows_batch`) rather than
    /// as a third set. The row form is bound by the vector units (its shifts and
    /// shuffles share few vector pipes), while the integer units idle beside it; beside
    /// a single set the scalar block measured slower than a second set, so it only
    /// replaces a third one (edb40b4).
    // Only the row form (x86-64 and aarch64) reads it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    const SCALAR_BLOCK: bool = false;
    /// Whether a message of more than one full batch computes its remainder (up to
    /// `MAX_ROW_SETS` row sets) in the row form inside its last full batch's round
    /// loop (`generic/fused.rs`) rather than as a batch of its own after it; the
    /// AEAD without [`Schedule::INTERLEAVE_MAC`] likewise fuses a remainder into its
    /// first batch, the one with the key block.
    // Only the row form (x86-64 and aarch64) reads it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    const FUSE_REMAINDER: bool = false;
    /// Whether a fused remainder ([`Schedule::FUSE_REMAINDER`]) of one block more than
    /// two row sets computes that block in the general-purpose registers beside the
    /// two sets rather than as a third set (a third set's rows do not fit the vector
    /// registers beside the vertical batch's).
    // Only the fused batch (x86-64 and aarch64) reads it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    const FUSED_SCALAR_BLOCK: bool = false;
}

/// The portable kernel: one block at a time, nothing to schedule.
impl Schedule for Word {}

#[cfg(target_arch = "x86_64")]
mod x86_64 {
    use super::Schedule;
    use crate::backend::x86_64::{Sse2, Ssse3, Xmm, Ymm, Zmm};

    /// `x86_64::sse2`.
    impl Schedule for Xmm<Sse2> {
        // The transpose finishes word group by word group.
        const STORE_ORDER: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
        // The scalar and vector units work side by side instead of one pass after the
        // other (3011005).
        const INTERLEAVE_MAC: bool = true;
        // Not parked: SSE2's shift rotations each need a temporary register, and
        // parking measured slower here (028e4a1).
        const SPILL_TWO_ROWS: bool = false;
        // Three blocks as two sets and a scalar block rather than three sets (edb40b4).
        const SCALAR_BLOCK: bool = true;
    }

    /// `x86_64::ssse3`.
    impl Schedule for Xmm<Ssse3> {
        // As for SSE2.
        const STORE_ORDER: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
        // As for SSE2 (3011005).
        const INTERLEAVE_MAC: bool = true;
        // One byte shuffle a rotation (a memory operand), so parking two rows frees
        // registers (028e4a1).
        const SPILL_TWO_ROWS: bool = true;
        // As for SSE2 (edb40b4).
        const SCALAR_BLOCK: bool = true;
    }

    /// `x86_64::avx2`.
    impl Schedule for Ymm {
        // The transpose finishes half by half.
        const STORE_ORDER: [usize; 16] = [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15];
        // As for SSE2/SSSE3 (3011005).
        const INTERLEAVE_MAC: bool = true;
        // Left to itself, the compiler spilled about twice as many rows (0f7baa5).
        const SPILL_TWO_ROWS: bool = true;
        // The integer units idle beside the latency-bound vector rounds; the ninth block
        // fills them at about the same loop time (7e74aad).
        const NINTH_BLOCK: bool = true;
        // One after the other, the plain 8-block loop spills one row a double round
        // instead of three (7e52fba).
        const PAIR_ONE_BY_ONE: bool = true;
        // Five blocks as two sets and a scalar block rather than three sets (edb40b4).
        const SCALAR_BLOCK: bool = true;
    }

    /// `x86_64::avx512`: thirty-two registers and native rotates, nothing to park.
    impl Schedule for Zmm {
        // The transpose finishes row index by row index.
        const STORE_ORDER: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
        // Thirty-two registers hold the sixteen rows and three row sets (563a0a6).
        const FUSE_REMAINDER: bool = true;
        // Two sets and a scalar block for nine blocks of remainder, not three sets.
        const FUSED_SCALAR_BLOCK: bool = true;
        // As for AVX2: the integer units idle beside the vector rounds (docs/tuning.md,
        // "ChaCha backends").
        const NINTH_BLOCK: bool = true;
    }
}

/// `aarch64::neon`: thirty-two registers, nothing to park; no scalar work beside the
/// rounds (untuned).
#[cfg(aarch64_neon)]
impl Schedule for super::aarch64::Neon {
    // The transpose finishes one word group (four 16-byte pieces, one per block) at a
    // time; storing in that order keeps few vectors live.
    const STORE_ORDER: [usize; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
}
