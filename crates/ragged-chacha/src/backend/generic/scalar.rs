//! One block in the general-purpose registers, run beside the vector rounds: the ninth
//! block of a vertical batch, and the extra block of a row-form batch.

use super::rounds::{BatchExtras, Beside, quarter_round_pair, unpark, wipe_parked};
use crate::backend::portable::Word;
use crate::state::State;

/// One block in the general-purpose registers beside a vector batch: the ninth block of
/// a [`batch_nine`] and the extra block of a [`rows_batch`] with `SCALAR`. Its sixteen
/// words are one-word lanes (the portable backend's), run pair by pair between the
/// vector pairs with the same [`quarter_round_pair`]. Like the vector rows, two of words 8 ..= 11 wait in memory
/// while the quarter rounds that do not use them run (`parked`, volatile): that frees
/// registers, and since volatile accesses keep their order, it pins each scalar pair
/// next to its vector pair, where the compiler otherwise gathered all of them after the
/// vector code.
///
/// [`batch_nine`]: super::vertical::batch_nine
/// [`rows_batch`]: super::rows::rows_batch
pub(super) struct ScalarBlock {
    x: [Word; 16],
    parked: [Word; 4],
}

impl ScalarBlock {
    /// The block at `counter` of `state`, its initial words as `initial` lays them out
    /// (counter in words 12 and 13). Built as plain integers: through `initial::<Word>`
    /// the call measured slower (8287e4d).
    #[inline(always)]
    pub(super) fn new(state: &State, counter: u64) -> Self {
        let words = Self::initial(state, counter).map(Word);
        ScalarBlock {
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
    pub(super) fn keystream(&mut self, state: &State, counter: u64) -> [u32; 16] {
        unpark(&mut self.x, &self.parked);
        // SAFETY: one-word lanes need no CPU feature.
        unsafe { wipe_parked(&mut self.parked) };
        let init = Self::initial(state, counter);
        core::array::from_fn(|i| self.x[i].0.wrapping_add(init[i]))
    }
}

impl BatchExtras for ScalarBlock {
    const BESIDE: Beside = Beside::Block;

    /// The same two quarter rounds the vector pair runs next, and the same words
    /// parked as the vector rows.
    #[inline(always)]
    fn between_pairs(&mut self, pair: usize) {
        // SAFETY: one-word lanes need no CPU feature.
        unsafe { quarter_round_pair::<Word, true>(&mut self.x, &mut self.parked, pair, true) }
    }
}
