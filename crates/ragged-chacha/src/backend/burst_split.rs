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

use super::Backend;
use super::route::Core;

/// Sets of `width`-lane batches the burst kernel runs side by side on this core: 2 for
/// 16-lane (AVX-512) batches on AMD family 1Ah (Zen 5), whose 512-bit vector pipes
/// leave one 16-lane batch bound by the latency of its dependent operations (a second
/// batch's rounds run beside it almost for free; measured in the commit that set it,
/// figures in `docs/tuning.md`), else 1 (Zen 4 splits each 512-bit operation over
/// two 256-bit pipes: one batch already fills them).
#[inline]
pub(crate) fn lane_sets(width: usize) -> usize {
    if width == 16 && Core::this() == Core::Zen5 {
        2
    } else {
        1
    }
}

/// Whether an opening burst of one-block items on `width`-lane batches decrypts each
/// message beside its key block in one pass, its ciphertext copied aside for the MAC
/// (`burst.rs` `short_opens`), rather than in waves that stop for the tags between the
/// key blocks and the messages: on Zen 5's two sets of 16 lanes and on an Intel
/// core's one, the cores where it was measured (docs/tuning.md, "Bursts"); elsewhere
/// the waves stay.
#[inline]
pub(crate) fn one_pass_short_opens(width: usize) -> bool {
    width == 16 && matches!(Core::this(), Core::Zen5 | Core::Intel)
}

/// Whether jobs of `blocks` blocks in all, the longest of `longest`, keep two sets of
/// `lanes` lanes busy enough to pay for the second: by their blocks, one and a half
/// sets' worth for as long as the longest job runs. Else (a few items, or a few long
/// ones among short ones) the second set's batches run mostly idle while the long
/// jobs finish, each costing more than a batch of one set.
#[inline]
pub(crate) fn two_sets_pay(lanes: usize, blocks: usize, longest: usize) -> bool {
    2 * blocks >= 3 * lanes * longest
}

/// The lanes a burst kernel call on `backend` has: its batch width times
/// [`lane_sets`].
#[inline]
pub(crate) fn lane_width(backend: Backend) -> usize {
    let width = backend.lane_width();
    width * lane_sets(width)
}

/// The most blocks any kind of burst lets an item take the lanes with.
pub(crate) const MOST_BLOCKS: usize = 32;

/// What a kind of burst costs on each path, in blocks.
#[derive(Clone, Copy)]
pub(crate) struct Costs {
    /// Items of more message blocks than this (at most 32) take the single path
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
    /// Whether fewer items than lanes, with messages of at least [`HALVES_FROM`]
    /// blocks, run as two jobs an item in two lanes side by side (the AEAD on two
    /// sets of lanes: the key block and the first half of the message, then the rest),
    /// so that the longest job is half as long.
    pub(crate) halves: bool,
    /// What the lanes pay per message block besides its keystream, in hundredths of a
    /// block: the AEAD's MAC runs as a pass of its own (after the lanes when sealing,
    /// before them when opening), where the single path interleaves it with its
    /// keystream. 0 for keystream, and on the cores where it was not measured.
    pub(crate) lane_mac_hundredths: usize,
}

/// The fewest message blocks of an item that [`Costs::halves`] splits in two (with
/// fewer, the second job would be as short as the key block's).
pub(crate) const HALVES_FROM: usize = 8;

/// The most message blocks an item may have and take the lanes (of `width` blocks a
/// batch, in `sets` sets side by side: [`lane_sets`]), given each item's message blocks
/// in `blocks`; `None` if the single path is faster for every item.
pub(crate) fn lane_limit(
    width: usize,
    sets: usize,
    costs: Costs,
    blocks: impl Iterator<Item = usize>,
) -> Option<usize> {
    let (count, least, most) = items_by_blocks(costs.most.min(MOST_BLOCKS), blocks);
    let (mut items, mut total, mut message) = (0, 0, 0);
    let mut best = None;
    let mut best_saving = 0;
    for (limit, &n) in count.iter().enumerate().take(most + 1).skip(least) {
        if n == 0 {
            continue;
        }
        let n = n as usize;
        items += n;
        total += n * (limit + costs.key_blocks);
        message += n * limit;
        let halves = sets == 2 && costs.halves && items < 2 * width && limit >= HALVES_FROM;
        // The `n` items of this length go through the lanes in waves among themselves.
        let blocks = limit + costs.key_blocks;
        let whole = uniform_lane_cost(width, sets, n, blocks, false);
        let waves = if halves {
            whole.min(uniform_lane_cost(width, sets, n, blocks, true))
        } else {
            whole
        };
        let lanes = if least == limit {
            waves
        } else {
            // Mixed lengths: a lane freed by a short job takes the next, so the lanes
            // stay busy but for the longest job's tail, and the longest items' waves.
            let longest = limit.max(costs.key_blocks);
            let mut lanes = width * longest.max(total.div_ceil(width));
            if sets == 2 {
                let longest = if halves { blocks.div_ceil(2) } else { longest };
                let batches = longest.max(total.div_ceil(2 * width));
                lanes = lanes.min(TWO_SETS_BATCH * batches);
            }
            lanes.max(waves)
        };
        let lanes = lanes + message * costs.lane_mac_hundredths / 100;
        let single = total + costs.fixed * items;
        let saving = single.saturating_sub(lanes);
        if items >= costs.fewest && saving > best_saving {
            (best, best_saving) = (Some(limit), saving);
        }
    }
    best
}

/// Items by message blocks (`count[b]`: those of `b` blocks), for the items of at most
/// `cap` blocks (`cap <= MOST_BLOCKS`), and the least and most blocks among them
/// (`MOST_BLOCKS` and 0 if there is none). 32-bit counts, saturating (a burst of 2^32
/// items of one length is priced as one of 2^32 - 1): few enough bytes to clear on
/// every call for the compiler to store them in line (64-bit counts of up to 64 blocks
/// were a `memset` call). One count more than lengths: where the empty run before the
/// first item is added (nothing).
#[inline(always)]
fn items_by_blocks(
    cap: usize,
    blocks: impl Iterator<Item = usize>,
) -> ([u32; MOST_BLOCKS + 2], usize, usize) {
    let mut count = [0u32; MOST_BLOCKS + 2];
    let (mut least, mut most) = (MOST_BLOCKS, 0);
    // Items of one length in a row are counted in a register and added when the run
    // ends: a count in memory raised item after item waits on its own store each time
    // (a burst of one length, the common case, is one run).
    let (mut run, mut run_items) = (MOST_BLOCKS + 1, 0u32);
    for b in blocks {
        if b > cap {
            continue;
        }
        if b == run {
            run_items = run_items.saturating_add(1);
        } else {
            count[run] = count[run].saturating_add(run_items);
            (run, run_items) = (b, 1);
            (least, most) = (least.min(b), most.max(b));
        }
    }
    count[run] = count[run].saturating_add(run_items);
    (count, least, most)
}

/// Classes of length [`LongestFirst`] hands items out by: quarters of the longest.
const LENGTH_CLASSES: usize = 4;

/// The items of a group of at most 64 that take the lanes, in the order the lanes take
/// their jobs: longest first, by quarters of the longest item's length, each quarter's
/// items in the group's order.
///
/// The kernel refills a lane as its job ends, so the jobs run in list order, each on
/// the first lane free. Taken in the burst's order, a long job that comes late starts
/// when the others are nearly done, and its lane runs alone after them (an IMIX
/// burst's 576-byte items among its 64-byte ones). Longest first, the long jobs start
/// together and the short ones fill the lanes around them, and the last batches wait
/// on a short job at most. Quarters rather than a sort: the classes are masks, set in
/// one pass that costs an item a table lookup and an OR (a counting sort's increments
/// wait on each other's stores), and handed out with a bit scan; quarters come close
/// to a sort's batches where halves leave more idle (the simulation and the timings
/// are in `docs/tuning.md`).
#[derive(Clone)]
pub(crate) struct LongestFirst {
    /// Bit `i` of `masks[c]`: item `i` is a lane item of class `c` not yet handed out
    /// (class 0 the longest quarter).
    masks: [u64; LENGTH_CLASSES],
    /// The class handed out now: those before it are done.
    class: usize,
}

impl LongestFirst {
    /// The order of the items of at most `limit` blocks (each item's blocks in
    /// `blocks`, at most 64 items), the longest of them of `longest` blocks
    /// (`longest <= limit <= MOST_BLOCKS`).
    #[inline(always)]
    pub(crate) fn new(limit: usize, longest: usize, blocks: impl Iterator<Item = usize>) -> Self {
        debug_assert!(longest <= limit && limit <= MOST_BLOCKS);
        // Each length's class; past `limit`, a class of its own that is never handed
        // out.
        let mut class_of = [LENGTH_CLASSES as u8; MOST_BLOCKS + 2];
        for (b, class) in class_of.iter_mut().enumerate().take(limit + 1) {
            // How many of the quarter marks the length is at or below: 0 for the
            // longest quarter.
            *class = u8::from(4 * b <= 3 * longest)
                + u8::from(4 * b <= 2 * longest)
                + u8::from(4 * b <= longest);
        }
        // Even and odd items in masks of their own: items of one class in a row would
        // otherwise each wait for the one before's OR to be stored.
        let mut masks = [[0u64; LENGTH_CLASSES + 1]; 2];
        let mut bit = 1u64;
        for (i, b) in blocks.enumerate() {
            debug_assert!(i < 64);
            let class = usize::from(class_of[b.min(limit + 1)]);
            masks[i & 1][class] |= bit;
            bit <<= 1;
        }
        let mut both = [0u64; LENGTH_CLASSES];
        for (class, both) in both.iter_mut().enumerate() {
            *both = masks[0][class] | masks[1][class];
        }
        Self {
            masks: both,
            class: 0,
        }
    }
}

/// The items' indices in order.
impl Iterator for LongestFirst {
    type Item = usize;

    #[inline(always)]
    fn next(&mut self) -> Option<usize> {
        while self.class < LENGTH_CLASSES {
            let mask = &mut self.masks[self.class];
            if *mask != 0 {
                let i = mask.trailing_zeros() as usize;
                *mask &= *mask - 1;
                return Some(i);
            }
            self.class += 1;
        }
        None
    }
}

/// What a batch of two sets of 16 lanes costs on Zen 5, in blocks of the single path
/// (one set's batch: 16): about one and a half batches of one set (measured in the
/// commit that set it; figures in `docs/tuning.md`).
const TWO_SETS_BATCH: usize = 24;

/// Splitting long items in halves, where the halves take more than one wave, costs
/// half a block an item for each of its blocks past this many: fitted on Zen 5, whose
/// long halves cost more than the waves alone explain (the cause not isolated; the
/// shapes and figures in `docs/tuning.md`, the commit that set it).
const HALVES_FREE_BLOCKS: usize = 14;

/// What the lanes' batches cost, in blocks of the single path, for `items` jobs of
/// `blocks` blocks each (message and key blocks), all of one length, on `sets` sets of
/// `width` lanes: the jobs go through in waves, every lane refilled as the wave ends;
/// on two sets, jobs that do not fill one and a half sets run on one
/// ([`two_sets_pay`]), and a last wave of at most one set's jobs runs on one. With
/// `halves` (two sets only), each item as two jobs of half its blocks: up to one set
/// of items in one wave of both sets (as paired sets run them), more in waves of
/// half-length jobs that pay for long items ([`HALVES_FREE_BLOCKS`]).
pub(crate) fn uniform_lane_cost(
    width: usize,
    sets: usize,
    items: usize,
    blocks: usize,
    halves: bool,
) -> usize {
    if sets == 1 || (!halves && !two_sets_pay(width, items * blocks, blocks)) {
        return width * blocks * items.div_ceil(width);
    }
    if halves && items <= width {
        return TWO_SETS_BATCH * blocks.div_ceil(2);
    }
    let (jobs, len, extra) = if halves {
        let extra = items * blocks.saturating_sub(HALVES_FREE_BLOCKS) / 2;
        (2 * items, blocks.div_ceil(2), extra)
    } else {
        (items, blocks, 0)
    };
    let (waves, rest) = (jobs / (2 * width), jobs % (2 * width));
    let tail = match rest {
        0 => 0,
        r if r <= width => width,
        _ => TWO_SETS_BATCH,
    };
    len * (waves * TWO_SETS_BATCH + tail) + extra
}

/// Whether `items` items of `blocks` blocks each (message and key blocks), all of one
/// length, cost less on two sets of `width` lanes in halves than whole
/// ([`uniform_lane_cost`]).
pub(crate) fn uniform_halves_pay(width: usize, items: usize, blocks: usize) -> bool {
    uniform_lane_cost(width, 2, items, blocks, true)
        < uniform_lane_cost(width, 2, items, blocks, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const XOR: Costs = Costs {
        most: 32,
        key_blocks: 0,
        fixed: 5,
        fewest: 3,
        halves: false,
        lane_mac_hundredths: 0,
    };

    /// The AEAD's costs on Zen 5, as `crate::burst` has them for a seal (the lanes'
    /// whole reach: without the keystream-alone plan's shorter one).
    const AEAD: Costs = Costs {
        most: 24,
        key_blocks: 1,
        fixed: 6,
        fewest: 6,
        halves: true,
        lane_mac_hundredths: 29,
    };

    #[test]
    fn full_lanes_take_everything_and_a_few_items_take_nothing() {
        // Sixteen one-block items fill a 16-lane batch.
        assert_eq!(lane_limit(16, 1, XOR, [1; 16].into_iter()), Some(1));
        // Two fill an eighth of it: the single path is faster.
        assert_eq!(lane_limit(16, 1, XOR, [1; 2].into_iter()), None);
        // Eight items of 23 blocks (1420 bytes) fill half the lanes for 23 batches.
        assert_eq!(lane_limit(16, 1, XOR, [23; 8].into_iter()), None);
        // Sixteen of them fill them all.
        assert_eq!(lane_limit(16, 1, XOR, [23; 16].into_iter()), Some(23));
        // Longer than `most`: never.
        assert_eq!(lane_limit(16, 1, XOR, [33; 64].into_iter()), None);
        let short = Costs { most: 16, ..XOR };
        assert_eq!(lane_limit(16, 1, short, [17; 64].into_iter()), None);
        assert_eq!(lane_limit(16, 1, short, [16; 64].into_iter()), Some(16));
    }

    #[test]
    fn two_sets_take_long_items_in_halves() {
        let aead = Costs {
            lane_mac_hundredths: 0,
            ..AEAD
        };
        let whole = Costs {
            halves: false,
            ..aead
        };
        // Twelve 1420-byte items: on one set, twelve lanes busy for 24 batches, slower
        // than the single path; on two, halved, 24 lanes for 12 batches of two sets.
        assert_eq!(lane_limit(16, 1, whole, [23; 12].into_iter()), None);
        assert_eq!(lane_limit(16, 2, aead, [23; 12].into_iter()), Some(23));
    }

    #[test]
    fn items_of_one_length_go_through_in_waves() {
        // Seventeen 1420-byte items: in halves, a wave of both sets and one of two
        // jobs on one (12 × (24 + 16)), plus 85 for the long halves and 113 for the
        // MAC; whole, two waves of one set (768): both dearer than 510 alone.
        assert_eq!(uniform_lane_cost(16, 2, 17, 24, true), 565);
        assert_eq!(uniform_lane_cost(16, 2, 17, 24, false), 768);
        assert_eq!(lane_limit(16, 2, AEAD, [23; 17].into_iter()), None);
        // Thirty: whole, one wave of both sets (576 + 200) against 900 alone; halves
        // would take two waves.
        assert!(!uniform_halves_pay(16, 30, 24));
        assert_eq!(lane_limit(16, 2, AEAD, [23; 30].into_iter()), Some(23));
        // Seventeen of 576 bytes: halves (5 × 40 + 44) against 272 alone.
        assert!(uniform_halves_pay(16, 17, 10));
        assert_eq!(lane_limit(16, 2, AEAD, [9; 17].into_iter()), Some(9));
        // Twenty 1420-byte items among ten of 64: the long ones still take their waves
        // (580, and 136 for the MAC, against 680 alone); the short ones the lanes.
        let mixed = [[23; 20].as_slice(), &[1; 10]].concat();
        assert_eq!(lane_limit(16, 2, AEAD, mixed.into_iter()), Some(1));
        // Keystream on one set: seventeen 1024-byte items take two waves (512), more
        // than alone (357).
        assert_eq!(lane_limit(16, 1, XOR, [16; 17].into_iter()), None);
        assert_eq!(lane_limit(16, 1, XOR, [16; 32].into_iter()), Some(16));
    }

    #[test]
    fn the_mac_pass_keeps_long_items_of_a_small_group_single() {
        // Sixteen 1420-byte items: 12 batches of two sets (288) and 0.29 of a block a
        // message block for the MAC (394) against 480 alone.
        assert_eq!(lane_limit(16, 2, AEAD, [23; 16].into_iter()), Some(23));
        // Twelve: the same batches for fewer items (368 against 360).
        assert_eq!(lane_limit(16, 2, AEAD, [23; 12].into_iter()), None);
        // Twelve of 1024 bytes: 9 batches of two sets in halves (271 against 276).
        assert_eq!(lane_limit(16, 2, AEAD, [16; 12].into_iter()), Some(16));
        assert_eq!(lane_limit(16, 2, AEAD, [16; 10].into_iter()), None);
        // Among short items the long ones go alone; the short ones keep the lanes.
        let mixed = [[1; 12].as_slice(), &[23; 2]].concat();
        assert_eq!(lane_limit(16, 2, AEAD, mixed.into_iter()), Some(1));
    }

    #[test]
    fn two_sets_pay_only_while_both_are_busy() {
        // 32 one-block jobs fill both sets for their one batch; 16 fill one.
        assert!(two_sets_pay(16, 32, 1));
        assert!(!two_sets_pay(16, 16, 1));
        // 28 items of two blocks and 16 of ten: the second set would idle while the
        // long ones run.
        assert!(!two_sets_pay(16, 28 * 2 + 16 * 10, 10));
        // 64 items of ten blocks keep both busy.
        assert!(two_sets_pay(16, 64 * 10, 10));
    }

    #[test]
    fn items_are_counted_by_blocks_in_any_order() {
        // Lengths in runs, alone, empty, past the cap, in a pseudo-random order: the
        // counts, least and most are those of a plain count.
        let mut state = 0x2545_f491_u32;
        for cap in [0, 1, 16, MOST_BLOCKS] {
            for n in [0, 1, 2, 7, 64, 300] {
                let blocks: std::vec::Vec<usize> = (0..n)
                    .map(|i| {
                        state ^= state << 13;
                        state ^= state >> 17;
                        state ^= state << 5;
                        // Every third item repeats the one before (runs).
                        if i % 3 == 2 {
                            usize::MAX
                        } else {
                            state as usize % 40
                        }
                    })
                    .collect();
                let blocks: std::vec::Vec<usize> = blocks
                    .iter()
                    .enumerate()
                    .map(|(i, &b)| if b == usize::MAX { blocks[i - 1] } else { b })
                    .collect();
                let mut expected = [0u32; MOST_BLOCKS + 2];
                let (mut least, mut most) = (MOST_BLOCKS, 0);
                for &b in blocks.iter().filter(|&&b| b <= cap) {
                    expected[b] += 1;
                    (least, most) = (least.min(b), most.max(b));
                }
                let got = items_by_blocks(cap, blocks.iter().copied());
                assert_eq!(got, (expected, least, most), "cap {cap}, {blocks:?}");
            }
        }
    }

    /// Every lane item once, longest quarter first, each quarter in the group's order;
    /// no item past the limit; and an IMIX group's long items before its short ones.
    #[test]
    fn longest_first_hands_out_each_lane_item_once_by_quarters() {
        let mut state = 0x9e37_79b9_u32;
        for limit in [0, 1, 2, 5, 9, 24, MOST_BLOCKS] {
            for n in [0, 1, 17, 48, 64] {
                let blocks: std::vec::Vec<usize> = (0..n)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 17;
                        state ^= state << 5;
                        state as usize % (limit + 4)
                    })
                    .collect();
                let longest = blocks.iter().copied().filter(|&b| b <= limit).max();
                let quarter = |b: usize| {
                    let longest = longest.unwrap_or(0);
                    (4 * b <= 3 * longest) as usize
                        + (4 * b <= 2 * longest) as usize
                        + (4 * b <= longest) as usize
                };
                let mut order =
                    LongestFirst::new(limit, longest.unwrap_or(0), blocks.iter().copied());
                let got: std::vec::Vec<usize> = core::iter::from_fn(|| order.next()).collect();
                let mut expected: std::vec::Vec<usize> =
                    (0..n).filter(|&i| blocks[i] <= limit).collect();
                expected.sort_by_key(|&i| (quarter(blocks[i]), i));
                assert_eq!(got, expected, "limit {limit}, {blocks:?}");
                assert_eq!(order.next(), None);
            }
        }
        // The IMIX order: 576-byte items (9 blocks) among 64-byte ones, and 1500-byte
        // ones past the limit.
        let imix = [1, 1, 9, 1, 1, 9, 24, 1, 9, 1, 1, 9];
        let got: std::vec::Vec<usize> = LongestFirst::new(9, 9, imix.into_iter()).collect();
        assert_eq!(got, [2, 5, 8, 11, 0, 1, 3, 4, 7, 9, 10]);
    }

    #[test]
    fn one_long_item_is_left_to_the_single_path() {
        // Thirty one-block items and one of 24 blocks: the long one would keep a lane
        // busy for 24 batches while the others need two.
        let blocks = [1; 30].into_iter().chain([24]);
        assert_eq!(lane_limit(16, 1, XOR, blocks), Some(1));
    }
}
