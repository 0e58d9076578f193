//! Every kernel the host can run, against `copy_from_slice` / `copy_within` / `fill`:
//! every (length 0..=300, source offset 0..16, destination offset 0..16), overlapping
//! moves at every distance 1..=64 in both directions, fills at every length and
//! offset, then larger and random cases. The x86-64 kernels with 64-byte vectors (and
//! the dispatcher, which uses them on AVX-512 CPUs) also get every (length
//! 0..=1100, source offset 0..64, destination offset 0..64) and moves at every
//! distance up to 130 and every alignment, against `copy_from_slice` and the portable
//! word kernel. Guard bytes around every region are checked. A kernel the host cannot
//! run is skipped with a note on stderr (`--nocapture` shows it).

mod common;

use common::{
    Aligned, CopyBench, GUARD, MAX_OFFSET, Rng, available_kernels, check_move, check_set, runs_here,
};
use ragged_mem::strategy::Kernel;

const MAX_LEN: usize = 300;

/// Collects failures (up to a handful) so one report shows the pattern.
struct Failures(Vec<String>, &'static str);

impl Failures {
    fn new(kernel: Kernel) -> Self {
        Failures(Vec::new(), kernel.name())
    }
    fn record(&mut self, r: Result<(), String>) {
        if let Err(e) = r {
            if self.0.len() < 8 {
                self.0.push(e);
            } else if self.0.len() == 8 {
                self.0.push("…".into());
            }
        }
    }
    fn assert_none(self) {
        assert!(
            self.0.is_empty(),
            "kernel {}:\n{}",
            self.1,
            self.0.join("\n")
        );
    }
}

fn copy_every_length_and_offset(kernel: Kernel) {
    if !runs_here(kernel, module_path!()) {
        return;
    }
    let mut bench = CopyBench::new(MAX_LEN);
    // SAFETY: the bench passes disjoint in-bounds regions.
    let f = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memcpy(d, s, n) };
    let mut failures = Failures::new(kernel);
    for len in 0..=MAX_LEN {
        for src_off in 0..16 {
            for dst_off in 0..16 {
                let seed = len * 256 + src_off * 16 + dst_off;
                failures.record(bench.check_copy(&f, len, src_off, dst_off, seed));
            }
        }
    }
    failures.assert_none();
}

fn move_every_distance(kernel: Kernel) {
    if !runs_here(kernel, module_path!()) {
        return;
    }
    let mut buf = Aligned::new(GUARD + 16 + 64 + MAX_LEN + GUARD);
    // SAFETY: `check_move` passes in-bounds regions of one buffer.
    let f = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memmove(d, s, n) };
    let mut failures = Failures::new(kernel);
    for dist in 0..=64 {
        for len in 0..=MAX_LEN {
            let at = (len * 7 + dist) % 16;
            let seed = dist * 1000 + len;
            // Destination below the source (a forward copy must be used) …
            failures.record(check_move(&mut buf, &f, len, at + dist, at, seed));
            // … and above it (backward).
            failures.record(check_move(&mut buf, &f, len, at, at + dist, seed + 1));
        }
    }
    // Every alignment of the pair, on a spread of lengths around the size classes.
    let lens = (0..=40).chain([
        47, 48, 49, 63, 64, 65, 127, 128, 129, 255, 256, 257, 299, 300,
    ]);
    for len in lens {
        for dist in 1..=64 {
            for at in 0..16 {
                let seed = len * 4096 + dist * 16 + at;
                failures.record(check_move(&mut buf, &f, len, at + dist, at, seed));
                failures.record(check_move(&mut buf, &f, len, at, at + dist, seed + 7));
            }
        }
    }
    failures.assert_none();
}

fn set_every_length_and_offset(kernel: Kernel) {
    if !runs_here(kernel, module_path!()) {
        return;
    }
    let mut buf = Aligned::new(GUARD + 16 + MAX_LEN + GUARD);
    // SAFETY: `check_set` passes in-bounds regions.
    let f = |d: *mut u8, b: u8, n: usize| unsafe { kernel.memset(d, b, n) };
    let mut failures = Failures::new(kernel);
    for len in 0..=MAX_LEN {
        for off in 0..16 {
            let byte = (len * 16 + off) as u8;
            failures.record(check_set(&mut buf, &f, len, off, byte, len * 31 + off));
        }
    }
    failures.assert_none();
}

/// Sizes around the vector loop, page and threshold boundaries, at a few offset
/// pairs, plus overlapping moves of the same sizes.
fn large(kernel: Kernel) {
    if !runs_here(kernel, module_path!()) {
        return;
    }
    // Each size around the `rep movsb` thresholds; the full-width AVX-512 one is also a move
    // distance (below).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let thresholds = {
        let t = ragged_mem::strategy::REP_MOVSB_MIN;
        let z = ragged_mem::strategy::ZMM_LOOP_MAX;
        [t - 1, t, t + 1, z - 1, z, z + 1, 2 * z + 5]
    };
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let thresholds: [usize; 0] = [];
    let sizes: Vec<usize> = [
        511, 512, 513, 1420, 1500, 4095, 4096, 4097, 16383, 16384, 16385, 65535, 65536, 65537,
        100_003,
    ]
    .into_iter()
    .chain(thresholds)
    .collect();
    let max = *sizes.iter().max().unwrap();
    let mut bench = CopyBench::new(max);
    // SAFETY: the bench passes disjoint in-bounds regions.
    let copy = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memcpy(d, s, n) };
    // SAFETY: `check_move` passes in-bounds regions of one buffer.
    let mv = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memmove(d, s, n) };
    let mut buf = Aligned::new(GUARD + 32 + 2 * max + GUARD);
    let mut failures = Failures::new(kernel);
    for (i, &len) in sizes.iter().enumerate() {
        for (src_off, dst_off) in [(0, 0), (1, 0), (0, 1), (3, 5), (15, 7), (8, 0)] {
            failures.record(bench.check_copy(&copy, len, src_off, dst_off, i * 977 + src_off));
        }
        for dist in [
            1,
            7,
            31,
            32,
            33,
            64,
            100,
            4096,
            len / 2,
            len - 1,
            len,
            len + 3,
        ]
        .into_iter()
        .chain(thresholds.iter().map(|&t| t.min(len)))
        {
            let at = (i + dist) % 16;
            failures.record(check_move(&mut buf, &mv, len, at + dist, at, i + dist));
            failures.record(check_move(&mut buf, &mv, len, at, at + dist, i * 3 + dist));
        }
    }
    failures.assert_none();
}

/// Random lengths, offsets and overlaps.
fn random(kernel: Kernel) {
    if !runs_here(kernel, module_path!()) {
        return;
    }
    const MAX: usize = 5000;
    let mut rng = Rng::new(kernel as u64 + 1);
    let mut bench = CopyBench::new(MAX);
    // SAFETY: the bench passes disjoint in-bounds regions.
    let copy = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memcpy(d, s, n) };
    // SAFETY: `check_move` passes in-bounds regions of one buffer.
    let mv = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memmove(d, s, n) };
    let mut buf = Aligned::new(GUARD + 2 * MAX + GUARD);
    let mut failures = Failures::new(kernel);
    for i in 0..1500 {
        let len = if rng.below(2) == 0 {
            rng.below(MAX + 1)
        } else {
            rng.below(600)
        };
        failures.record(bench.check_copy(&copy, len, rng.below(16), rng.below(16), i));
        let (a, b) = (rng.below(MAX + 1 - len), rng.below(MAX + 1 - len));
        failures.record(check_move(&mut buf, &mv, len, a, b, i));
    }
    failures.assert_none();
}

/// Lengths where a 64-byte-vector copy changes shape (one, two, eight vectors, the
/// loop, the loop's step), and a page, each with its neighbours.
const WIDE_EDGES: &[usize] = &[
    63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 513, 575, 576, 577, 767, 768, 769, 1023,
    1024, 1025, 1420, 1500, 2047, 2048, 2049, 4095, 4096, 4097,
];

/// Every length up to `WIDE_MAX` at every pair of source and destination offsets
/// 0..64, against `copy_from_slice` and against the word kernel's bytes.
const WIDE_MAX: usize = 1100;

fn copy_every_length_and_wide_offset(kernel: Kernel) {
    if !wide_runs_here(kernel, module_path!()) {
        return;
    }
    let max = *WIDE_EDGES.iter().max().unwrap();
    let mut bench = CopyBench::new(max);
    let mut reference = CopyBench::new(max);
    // SAFETY: the bench passes disjoint in-bounds regions.
    let f = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memcpy(d, s, n) };
    // SAFETY: as above; the word kernel runs everywhere.
    let word = |d: *mut u8, s: *const u8, n: usize| unsafe { Kernel::WordLittle.memcpy(d, s, n) };
    let mut failures = Failures::new(kernel);
    let lens = (0..=WIDE_MAX).chain(WIDE_EDGES.iter().copied().filter(|&n| n > WIDE_MAX));
    for len in lens {
        for src_off in 0..MAX_OFFSET {
            for dst_off in 0..MAX_OFFSET {
                let seed = len * 4096 + src_off * 64 + dst_off;
                failures.record(bench.check_copy(&f, len, src_off, dst_off, seed));
                // The same copy by the portable kernel must leave the same bytes
                // (the check above already compares with `copy_from_slice`; this
                // makes the two kernels' outputs agree, guard bytes included).
                if len % 64 == 0 && src_off % 8 == 0 {
                    failures.record(reference.check_copy(&word, len, src_off, dst_off, seed));
                    if bench.dst_bytes() != reference.dst_bytes() {
                        failures.record(Err(format!(
                            "len {len} src_off {src_off} dst_off {dst_off}: differs from word-le"
                        )));
                    }
                }
            }
        }
    }
    failures.assert_none();
}

/// Overlapping moves in both directions at every distance up to 130 bytes (past two
/// 64-byte vectors), every length up to `WIDE_MAX`; then every alignment 0..64 of the
/// pair at the edge lengths, with distances around the vector and loop-step sizes.
fn move_every_distance_and_wide_alignment(kernel: Kernel) {
    if !wide_runs_here(kernel, module_path!()) {
        return;
    }
    let max = *WIDE_EDGES.iter().max().unwrap();
    let mut buf = Aligned::new(GUARD + MAX_OFFSET + 2 * max + 4 + GUARD);
    // SAFETY: `check_move` passes in-bounds regions of one buffer.
    let f = |d: *mut u8, s: *const u8, n: usize| unsafe { kernel.memmove(d, s, n) };
    let mut failures = Failures::new(kernel);
    for dist in 0..=130 {
        for len in 0..=WIDE_MAX {
            let at = (len * 7 + dist * 3) % MAX_OFFSET;
            let seed = dist * 10_000 + len;
            failures.record(check_move(&mut buf, &f, len, at + dist, at, seed));
            failures.record(check_move(&mut buf, &f, len, at, at + dist, seed + 1));
        }
    }
    for &len in WIDE_EDGES {
        let dists = (1..=130).chain([
            191,
            192,
            193,
            255,
            256,
            257,
            511,
            512,
            513,
            len.saturating_sub(1),
            len,
            len + 1,
        ]);
        for dist in dists {
            for at in 0..MAX_OFFSET {
                let seed = len * 65_536 + dist * 64 + at;
                failures.record(check_move(&mut buf, &f, len, at + dist, at, seed));
                failures.record(check_move(&mut buf, &f, len, at, at + dist, seed + 7));
            }
        }
    }
    failures.assert_none();
}

/// Fills at every length up to `WIDE_MAX` and every offset 0..64.
fn set_every_length_and_wide_offset(kernel: Kernel) {
    if !wide_runs_here(kernel, module_path!()) {
        return;
    }
    let mut buf = Aligned::new(GUARD + MAX_OFFSET + WIDE_MAX + GUARD);
    // SAFETY: `check_set` passes in-bounds regions.
    let f = |d: *mut u8, b: u8, n: usize| unsafe { kernel.memset(d, b, n) };
    let mut failures = Failures::new(kernel);
    for len in 0..=WIDE_MAX {
        for off in 0..MAX_OFFSET {
            let byte = (len * 64 + off) as u8;
            failures.record(check_set(&mut buf, &f, len, off, byte, len * 67 + off));
        }
    }
    failures.assert_none();
}

/// `true` if the wide tests should run `kernel`: a 64-byte kernel the CPU has, or the
/// dispatcher where it uses one (elsewhere the narrow tests cover it, at a fraction of
/// the cost, which matters under QEMU).
fn wide_runs_here(kernel: Kernel, test: &str) -> bool {
    if kernel == Kernel::Auto && !Kernel::Avx512.is_available() {
        eprintln!("note: {test}: the dispatcher has no 64-byte path on this CPU; skipped");
        return false;
    }
    runs_here(kernel, test)
}

/// The wide tests, for the kernels with 64-byte vectors and the dispatcher.
macro_rules! wide_kernel {
    ($($module:ident => $kernel:expr),* $(,)?) => {$(
        mod $module {
            use super::*;
            #[test]
            fn copy_every_length_and_wide_offset() {
                super::copy_every_length_and_wide_offset($kernel);
            }
            #[test]
            fn move_every_distance_and_wide_alignment() {
                super::move_every_distance_and_wide_alignment($kernel);
            }
            #[test]
            fn set_every_length_and_wide_offset() {
                super::set_every_length_and_wide_offset($kernel);
            }
        }
    )*};
}

wide_kernel! {
    wide_auto => Kernel::Auto,
    wide_avx512 => Kernel::Avx512,
    wide_avx512_zmm => Kernel::Avx512Zmm,
    wide_nontemporal_avx512 => Kernel::NonTemporalAvx512,
    wide_nontemporal_pages_avx512 => Kernel::NonTemporalPagesAvx512,
}

macro_rules! per_kernel {
    ($($module:ident => $kernel:expr),* $(,)?) => {$(
        mod $module {
            use super::*;
            #[test]
            fn copy_every_length_and_offset() {
                super::copy_every_length_and_offset($kernel);
            }
            #[test]
            fn move_every_distance() {
                super::move_every_distance($kernel);
            }
            #[test]
            fn set_every_length_and_offset() {
                super::set_every_length_and_offset($kernel);
            }
            #[test]
            fn large() {
                super::large($kernel);
            }
            #[test]
            fn random() {
                super::random($kernel);
            }
        }
    )*};
}

per_kernel! {
    auto => Kernel::Auto,
    auto_without_avx2 => Kernel::AutoWithoutAvx2,
    auto_without_avx512 => Kernel::AutoWithoutAvx512,
    word_little => Kernel::WordLittle,
    word_big => Kernel::WordBig,
    sse2 => Kernel::Sse2,
    avx2 => Kernel::Avx2,
    avx512 => Kernel::Avx512,
    avx512_zmm => Kernel::Avx512Zmm,
    rep_movsb => Kernel::RepMovsb,
    nontemporal_sse2 => Kernel::NonTemporalSse2,
    nontemporal_avx2 => Kernel::NonTemporalAvx2,
    nontemporal_avx512 => Kernel::NonTemporalAvx512,
    nontemporal_pages_avx2 => Kernel::NonTemporalPagesAvx2,
    nontemporal_pages_avx512 => Kernel::NonTemporalPagesAvx512,
    neon => Kernel::Neon,
}

/// The per-kernel tests skip kernels the host cannot run; this makes sure the ones it
/// can run are not skipped by a wrong detection.
#[test]
fn kernels_the_host_supports_are_available() {
    let available = available_kernels();
    for k in [Kernel::Auto, Kernel::WordLittle, Kernel::WordBig] {
        assert!(available.contains(&k), "{} missing", k.name());
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        for k in [
            Kernel::AutoWithoutAvx2,
            Kernel::AutoWithoutAvx512,
            Kernel::Sse2,
            Kernel::RepMovsb,
            Kernel::NonTemporalSse2,
        ] {
            assert!(available.contains(&k), "{} missing", k.name());
        }
        let avx2 = std::is_x86_feature_detected!("avx2");
        assert_eq!(Kernel::Avx2.is_available(), avx2);
        assert_eq!(Kernel::NonTemporalAvx2.is_available(), avx2);
        assert_eq!(Kernel::NonTemporalPagesAvx2.is_available(), avx2);
        let found = ragged_mem::strategy::x86_64_features();
        assert_eq!(found.avx2, avx2);
        assert_eq!(found.erms, std::is_x86_feature_detected!("ermsb"));
        let avx512 = avx2
            && std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("bmi2");
        assert_eq!(found.avx512, avx512);
        for k in [
            Kernel::Avx512,
            Kernel::Avx512Zmm,
            Kernel::NonTemporalAvx512,
            Kernel::NonTemporalPagesAvx512,
        ] {
            assert_eq!(k.is_available(), avx512, "{}", k.name());
        }
        if !avx512 {
            eprintln!("note: this CPU has no AVX-512F/BW: the AVX-512 copy tests were skipped");
        }
        assert!(!Kernel::Neon.is_available());
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    assert!(available.contains(&Kernel::Neon));
}

/// One copy above the non-temporal threshold through the public dispatcher (the
/// per-kernel tests run the non-temporal loop directly at small sizes).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[test]
fn auto_copy_above_nontemporal_threshold() {
    let len = ragged_mem::strategy::NONTEMPORAL_MIN + 4099;
    let mut rng = Rng::new(77);
    let mut src = vec![0u8; len + 3];
    for chunk in src.chunks_mut(8) {
        let v = rng.next().to_le_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
    let mut dst = vec![0x55u8; len + 64];
    ragged_mem::copy(&mut dst[5..5 + len], &src[3..]);
    assert!(dst[..5].iter().all(|&b| b == 0x55));
    assert!(dst[5 + len..].iter().all(|&b| b == 0x55));
    assert!(dst[5..5 + len] == src[3..], "non-temporal copy differs");
}
