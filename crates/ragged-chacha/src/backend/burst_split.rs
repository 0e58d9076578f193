//! Which items of a burst go through the lanes across messages, and which take the
//! single-message path.
//!
//! A lane batch costs the same whichever of its lanes are busy, so the lanes pay only
//! when they are kept full: a few items, or one item much longer than the others,
//! leave lanes idle for whole batches, while the single-message path computes only
//! the blocks each message needs, in full batches of its own for a long one. What the
//! lanes save is the single path's fixed cost per message (its state setup, and the
//! latency of a short message's few blocks). So, counting in blocks:
//!
//! ```text
//! lanes:  width · batches,   batches = max(longest job, ceil(blocks / width))
//! single: blocks + fixed · items
//! ```
//!
//! and the lanes take the items of at most `limit` blocks for the `limit` that saves
//! the most, or none if no `limit` saves anything. (`fixed` and the fewest items are
//! measured per kind of burst; the figures are in `docs/tuning.md`.)

/// The most blocks any kind of burst lets an item take the lanes with.
const MOST_BLOCKS: usize = 64;

/// What a kind of burst costs on each path, in blocks.
#[derive(Clone, Copy)]
pub(crate) struct Costs {
    /// Items of more message blocks than this (at most 64) take the single path
    /// whatever the others: its own batches are as full as the lanes', and a lane's
    /// write costs a little more per block than a full batch's.
    pub(crate) most: usize,
    /// Jobs a lane item adds besides its message: 1 for the AEAD's key block (a job of
    /// its own, beside the message's), 0 for keystream items.
    pub(crate) key_blocks: usize,
    /// The single path's fixed cost per item, in blocks.
    pub(crate) fixed: usize,
    /// The fewest items worth the lanes' own fixed cost (the group's setup, the MAC's).
    pub(crate) fewest: usize,
}

/// The most message blocks an item may have and take the lanes (of `width` blocks a
/// batch), given each item's message blocks in `blocks`; `None` if the single path is
/// faster for every item.
pub(crate) fn lane_limit(
    width: usize,
    costs: Costs,
    blocks: impl Iterator<Item = usize>,
) -> Option<usize> {
    // Items by message blocks, and the range of block counts present.
    let mut count = [0usize; MOST_BLOCKS + 1];
    let (mut least, mut most) = (MOST_BLOCKS, 0);
    for b in blocks {
        if b <= costs.most.min(MOST_BLOCKS) {
            count[b] += 1;
            (least, most) = (least.min(b), most.max(b));
        }
    }
    let (mut items, mut total) = (0, 0);
    let mut best = None;
    let mut best_saving = 0;
    for (limit, &n) in count.iter().enumerate().take(most + 1).skip(least) {
        if n == 0 {
            continue;
        }
        items += n;
        total += n * (limit + costs.key_blocks);
        let batches = limit.max(costs.key_blocks).max(total.div_ceil(width));
        let single = total + costs.fixed * items;
        let saving = single.saturating_sub(width * batches);
        if items >= costs.fewest && saving > best_saving {
            (best, best_saving) = (Some(limit), saving);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    const XOR: Costs = Costs {
        most: 64,
        key_blocks: 0,
        fixed: 5,
        fewest: 3,
    };

    #[test]
    fn full_lanes_take_everything_and_a_few_items_take_nothing() {
        // Sixteen one-block items fill a 16-lane batch.
        assert_eq!(lane_limit(16, XOR, [1; 16].into_iter()), Some(1));
        // Two fill an eighth of it: the single path is faster.
        assert_eq!(lane_limit(16, XOR, [1; 2].into_iter()), None);
        // Eight items of 23 blocks (1420 bytes) fill half the lanes for 23 batches.
        assert_eq!(lane_limit(16, XOR, [23; 8].into_iter()), None);
        // Sixteen of them fill them all.
        assert_eq!(lane_limit(16, XOR, [23; 16].into_iter()), Some(23));
        // Longer than `most`: never.
        assert_eq!(lane_limit(16, XOR, [65; 64].into_iter()), None);
        let short = Costs { most: 16, ..XOR };
        assert_eq!(lane_limit(16, short, [17; 64].into_iter()), None);
        assert_eq!(lane_limit(16, short, [16; 64].into_iter()), Some(16));
    }

    #[test]
    fn one_long_item_is_left_to_the_single_path() {
        // Thirty one-block items and one of 24 blocks: the long one would keep a lane
        // busy for 24 batches while the others need two.
        let blocks = [1; 30].into_iter().chain([24]);
        assert_eq!(lane_limit(16, XOR, blocks), Some(1));
    }
}
