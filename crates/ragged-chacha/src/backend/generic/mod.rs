//! The ChaCha block function and the batch/tail driver, written once over [`Lanes`].
//!
//! A `Lanes` value holds one 32-bit state word for `BLOCKS` consecutive blocks
//! ("vertical" layout), so sixteen of them are `BLOCKS` whole ChaCha states. Each
//! instruction set supplies only the lane operations, the transpose back to message
//! order, and its trick for the final partial vector.
//!
//! ```text
//! xor_keystream(state, counter, message):                        plan.rs
//!     full batches of W::BLOCKS blocks (a ninth block beside)    vertical.rs, scalar.rs
//!     the remainder as ONE batch: row form or a narrower W       rows.rs, vertical.rs
//!     or in row sets inside the last full batch's rounds          fused.rs
//! batch:  x = initial(counter); rounds(x); x += initial          rounds.rs
//!         transpose; XOR whole vectors; the ISA's tail trick     lanes.rs (per ISA)
//! seal/open: the key block inside the first batch, the MAC       aead.rs
//!            between the rounds of the next
//! bursts: one block of a different message in each lane,        burst.rs
//!         lanes refilled from the next message as theirs end
//! ```
//!
//! One file a concern: `lanes` the operations each instruction set provides, `rounds`
//! the double rounds and what runs between them, `vertical` the batch of one block a
//! lane, `scalar` a block in the general-purpose registers beside it, `rows` the row
//! form, `fused` the row form inside the last full batch, `plan` how a message is cut into batches, `aead` the fused seal and open, `burst`
//! the batches of lanes across messages,
//! `entry_points` the three functions each instruction set instantiates (the last four
//! on x86-64 and aarch64 only: `cfg(lane_simd)`, named in `build.rs`). The schedule
//! each entry point chose is in `backend/schedule.rs`.

// In reading order, which is also the order the compiler meets them in: the code
// LLVM makes depends on that order, so it is kept as it was in one file (hence the
// blank lines, which keep rustfmt from sorting these).
mod lanes;

mod rounds;

mod vertical;

mod scalar;

#[cfg(lane_simd)]
mod rows;

#[cfg(lane_simd)]
mod fused;

mod plan;

#[cfg(lane_simd)]
mod aead;

#[cfg(lane_simd)]
mod entry_points;

mod burst;

#[cfg(lane_simd)]
pub(crate) use self::aead::{open, seal};
#[cfg(lane_simd)]
pub(crate) use self::burst::xor_burst;
pub(crate) use self::burst::{Job, Jobs};
#[cfg(lane_simd)]
pub(crate) use self::entry_points::{burst_entry_point, entry_points};
pub(crate) use self::lanes::Lanes;
#[cfg(lane_simd)]
pub(crate) use self::lanes::Rows;
#[cfg(lane_simd)]
pub(crate) use self::plan::bulk;
#[cfg(arm_neon)]
pub(crate) use self::plan::no_rounds;
pub(crate) use self::plan::xor_keystream;
#[cfg(lane_simd)]
pub(crate) use self::plan::xor_keystream_rows;
pub(crate) use self::rounds::rounds;

/// Where the sealing kernel sends its results: the AEAD's Poly1305.
pub(crate) trait Absorb {
    /// Receives keystream block 0 (the one-time key), before any ciphertext.
    fn key(&mut self, block0: &[u8; 64]);
    /// Absorbs `blocks`, whole 16-byte blocks of ciphertext in message order.
    fn absorb(&mut self, blocks: &[u8]);
    /// As [`Absorb::absorb`], on the integer units only (no vector instructions): for
    /// interleaving with the rounds of a keystream batch.
    // Only the fused AEAD (x86-64 and aarch64) calls it.
    #[cfg_attr(not(lane_simd), allow(dead_code))]
    fn absorb_scalar(&mut self, blocks: &[u8]);
}
