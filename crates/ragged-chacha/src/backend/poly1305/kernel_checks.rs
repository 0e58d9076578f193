//! Unit-test checks shared by the SIMD Poly1305 kernels ([`super::avx2`],
//! [`super::ifma`]): each converts the portable accumulator to its own radix, absorbs
//! many blocks at once and converts back, and both must agree with the portable code
//! at the extremes of every value involved.

use super::portable::MacState;

/// The fully reduced value of a portable-form accumulator (its tag with `s = 0`).
pub(super) fn reduced(state: &MacState) -> [u8; 16] {
    state.finish(&[0; 16])
}

/// Deterministic pseudo-random bytes (xorshift).
pub(super) fn pattern(seed: u64, len: usize) -> impl Iterator<Item = u8> {
    let mut s = seed | 1;
    (0..len).map(move |_| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 32) as u8
    })
}

/// Runs `kernel` (which absorbs the whole blocks of `data` into the state, as the
/// backend's multi-block loop does) on every run length in `block_counts`, from
/// extreme accumulator states (`h` up to `5·2^128 - 1`, the most the portable form
/// allows, and `p` itself), with the largest and smallest `r` and all-0xff, all-zero
/// and mixed blocks, and checks it against the portable code block for block. The run
/// sits between bytes that must not count.
pub(super) fn kernel_matches_portable_from_extreme_states(
    block_counts: impl Iterator<Item = usize> + Clone,
    kernel: impl Fn(&mut MacState, &[u8]),
) {
    let starts = [
        [0, 0, 0],
        [u64::MAX, u64::MAX, 4],
        [u64::MAX, u64::MAX, 3],
        [0xffff_ffff_ffff_fffa, u64::MAX, 3], // p itself
        [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210, 2],
    ];
    let mut mixed = [0u8; 16];
    mixed
        .iter_mut()
        .zip(pattern(3, 16))
        .for_each(|(b, x)| *b = x);
    /// Room for the longest run checked, with a block of bystanders either side.
    const ROOM: usize = 48;
    let most = block_counts.clone().max().unwrap_or(0);
    assert!(most + 2 <= ROOM, "runs of up to {} blocks only", ROOM - 2);
    for r in [[0xff; 16], [0; 16], mixed] {
        for h in starts {
            for blocks in block_counts.clone() {
                for fill in [Some(0xff), Some(0), None] {
                    let mut buf = [0x5au8; ROOM * 16];
                    let data = &mut buf[16..16 + blocks * 16];
                    match fill {
                        Some(b) => data.fill(b),
                        None => data
                            .iter_mut()
                            .zip(pattern(blocks as u64, blocks * 16))
                            .for_each(|(b, x)| *b = x),
                    }
                    let data = &*data;
                    let mut want = MacState::new(&r);
                    want.h = h;
                    let mut got = want.clone();
                    want.blocks(data, 1);
                    kernel(&mut got, data);
                    assert!(got.h[2] <= 4, "top limb {} out of range", got.h[2]);
                    assert_eq!(
                        reduced(&got),
                        reduced(&want),
                        "r {r:02x?}, h {h:x?}, {blocks} blocks of {fill:?}"
                    );
                }
            }
        }
    }
}

/// A radix conversion (`split` into `N` limbs of `bits` bits, `join` back, fully
/// carried) round-trips below 2^130 (p included) and folds above; and column sums as
/// large as the kernel's lane sums can make them (every column at 2^62 - 1) still
/// carry to the right value — built independently with the portable multiply by
/// `r = 2^bits` (the clamp allows it for 26 and 44 bits).
pub(super) fn radix_round_trips_at_the_extremes<const N: usize>(
    split: fn([u64; 3]) -> [u64; N],
    join: fn([u64; N]) -> [u64; 3],
    bits: usize,
) {
    for h in [
        [0, 0, 0],
        [1, 1 << 63, 2],
        [0xffff_ffff_ffff_fffa, u64::MAX, 3],
    ] {
        assert_eq!(join(split(h)), h);
    }
    assert_eq!(join(split([u64::MAX, u64::MAX, 4])), [4, 0, 1]);

    let t = [(1u64 << 62) - 1; N];
    let mut got = MacState::new(&[0; 16]);
    got.h = join(t);
    assert!(got.h[2] <= 4);
    let mut r = [0u8; 16];
    r[bits / 8] = 1 << (bits % 8);
    let step = MacState::new(&r);
    let mut want = [0u64; 3];
    for &col in t.iter().rev() {
        want = step.times_r(want);
        let (lo, c) = want[0].overflowing_add(col);
        let (mid, c2) = want[1].overflowing_add(u64::from(c));
        want = [lo, mid, want[2] + u64::from(c2)];
    }
    let mut want_state = MacState::new(&[0; 16]);
    want_state.h = want;
    assert_eq!(reduced(&got), reduced(&want_state));
}
