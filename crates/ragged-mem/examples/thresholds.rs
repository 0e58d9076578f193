//! Hand-run measurement for the x86-64 thresholds (`rep movsb`, non-temporal stores)
//! and a quick look at the word strategy. Not a benchmark harness (that is
//! `ragged speed`): it exists to find where one kernel overtakes another on the
//! machine at hand.
//!
//! ```text
//! cargo run --release -p ragged-mem --example thresholds            # x86-64 tiers
//! cargo run --release -p ragged-mem --example thresholds -- tiers 65536,1048576
//! cargo run --release -p ragged-mem --example thresholds -- word    # word strategy
//! cargo run --release -p ragged-mem --example thresholds -- small   # ≤ 4 KiB tiers
//! cargo run --release -p ragged-mem --example thresholds -- avx512  # AVX-512 shapes
//! cargo run --release -p ragged-mem --example thresholds -- entry cp 65+0,100+1
//! cargo run --release -p ragged-mem --example thresholds -- entry mv 128-64,256+128
//! ```
//!
//! Implementations are run interleaved (A B C A B C …) on the same warm buffers; each
//! cell is the median of several samples, in MB/s (10^6 bytes per second). `entry`
//! is the exception: see [`entry`].

use std::hint::black_box;
use std::time::Instant;

use ragged_mem::strategy::Kernel;

/// One implementation: a name and a copy with the `memcpy` contract.
struct Imp {
    name: &'static str,
    copy: Box<dyn Fn(*mut u8, *const u8, usize)>,
}

fn kernel(k: Kernel) -> Option<Imp> {
    k.is_available().then(|| Imp {
        name: k.name(),
        // SAFETY: `run` passes disjoint in-bounds buffers.
        copy: Box::new(move |d, s, n| unsafe { k.memcpy(d, s, n) }),
    })
}

/// The public `memcpy`, inlined into the closure as it would be into a caller.
fn ragged() -> Imp {
    Imp {
        name: "ragged",
        // SAFETY: `run` passes disjoint in-bounds buffers.
        copy: Box::new(|d, s, n| unsafe { ragged_mem::memcpy(d, s, n) }),
    }
}

fn glibc() -> Imp {
    Imp {
        name: "glibc",
        copy: Box::new(|d, s, n| {
            // SAFETY: `run` passes disjoint in-bounds buffers.
            let (d, s) = unsafe {
                (
                    std::slice::from_raw_parts_mut(d, n),
                    std::slice::from_raw_parts(s, n),
                )
            };
            d.copy_from_slice(s);
        }),
    }
}

/// Median MB/s of each implementation copying `n` bytes from `src_off` to `dst_off`
/// (offsets from 4096-aligned buffers).
fn run(imps: &[&Imp], n: usize, src_off: usize, dst_off: usize, samples: usize) -> Vec<f64> {
    let mut src = vec![0u8; n + 8192];
    let mut dst = vec![0u8; n + 8192];
    for (i, b) in src.iter_mut().enumerate() {
        *b = (i * 131 + 7) as u8;
    }
    let s = src
        .as_ptr()
        .wrapping_add(src.as_ptr().align_offset(4096) + src_off);
    let d = dst
        .as_mut_ptr()
        .wrapping_add(dst.as_mut_ptr().align_offset(4096) + dst_off);
    // Enough repetitions for a sample of several milliseconds.
    let reps = (64 << 20) / n.max(1);
    let reps = reps.clamp(1, 200_000);
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); imps.len()];
    for round in 0..=samples {
        for (i, imp) in imps.iter().enumerate() {
            // Untimed copies first: the previous implementation may have left the
            // destination out of the cache (non-temporal stores evict it); one copy
            // was not enough to recover at 8–12 MiB.
            for _ in 0..reps.min(4) {
                (imp.copy)(black_box(d), black_box(s), black_box(n));
            }
            let start = Instant::now();
            for _ in 0..reps {
                (imp.copy)(black_box(d), black_box(s), black_box(n));
            }
            let t = start.elapsed().as_secs_f64();
            // Round 0 warms the caches and the page tables.
            if round > 0 {
                times[i].push(t);
            }
        }
    }
    // SAFETY: `d` points into `dst`, which holds `n` bytes from it.
    let copied = unsafe { std::slice::from_raw_parts(d, n) };
    // SAFETY: likewise for `s` in `src`.
    assert!(copied == unsafe { std::slice::from_raw_parts(s, n) });
    times
        .into_iter()
        .map(|mut t| {
            t.sort_by(f64::total_cmp);
            (n * reps) as f64 / t[t.len() / 2] / 1e6
        })
        .collect()
}

fn table(imps: &[Imp], sizes: &[usize], offsets: &[(usize, usize)], samples: usize) {
    // `SKIP=name,name` leaves implementations out of any mode.
    let skip = std::env::var("SKIP").unwrap_or_default();
    let kept: Vec<&Imp> = imps
        .iter()
        .filter(|i| !skip.split(',').any(|s| s == i.name))
        .collect();
    let imps = &kept[..];
    // `OFFSETS=src/dst,src/dst,…` overrides the offset pairs of any mode.
    let custom: Option<Vec<(usize, usize)>> = std::env::var("OFFSETS").ok().map(|v| {
        v.split(',')
            .map(|pair| {
                let (a, b) = pair.split_once('/').expect("src/dst");
                (a.parse().expect("offset"), b.parse().expect("offset"))
            })
            .collect()
    });
    let offsets = custom.as_deref().unwrap_or(offsets);
    // `SIZES=n,n,…` overrides the sizes of any mode.
    let custom: Option<Vec<usize>> = std::env::var("SIZES")
        .ok()
        .map(|v| v.split(',').map(|n| n.parse().expect("size")).collect());
    let sizes = custom.as_deref().unwrap_or(sizes);
    print!("{:>12} {:>7}", "bytes", "src/dst");
    for imp in imps {
        print!(" {:>10}", imp.name);
    }
    println!();
    for &n in sizes {
        for &(so, dof) in offsets {
            let mbs = run(imps, n, so, dof, samples);
            print!("{n:>12} {:>7}", format!("{so}/{dof}"));
            for v in mbs {
                print!(" {v:>10.0}");
            }
            println!();
        }
    }
}

fn main() {
    let mode = std::env::args().nth(1).unwrap_or_default();
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        let f = ragged_mem::strategy::x86_64_features();
        println!(
            "cpu: avx2 {} avx512 {} zmm {} erms {} fsrm {}",
            f.avx2, f.avx512, f.zmm, f.erms, f.fsrm
        );
        println!(
            "current thresholds: rep movsb from {} B, non-temporal from {} B",
            ragged_mem::strategy::REP_MOVSB_MIN,
            ragged_mem::strategy::NONTEMPORAL_MIN
        );
    }
    match mode.as_str() {
        "word" => {
            let imps: Vec<Imp> = [Kernel::WordLittle, Kernel::WordBig]
                .into_iter()
                .filter_map(kernel)
                .chain([ragged(), glibc()])
                .collect();
            table(
                &imps,
                &[64, 256, 1420, 4096, 65536],
                &[(0, 0), (1, 0), (3, 0), (5, 0)],
                7,
            );
        }
        "distance" => {
            // `rep movsb` against the vector loop as the destination's page offset
            // moves ahead of the source's.
            let imps: Vec<Imp> = [Kernel::Avx2, Kernel::RepMovsb]
                .into_iter()
                .filter_map(kernel)
                .collect();
            let ks = [
                1, 2, 8, 16, 31, 32, 48, 63, 64, 65, 96, 127, 128, 192, 256, 512, 1024, 2048, 3072,
                4032, 4095,
            ];
            let offsets: Vec<(usize, usize)> = ks.iter().map(|&k| (0, k)).collect();
            table(&imps, &[65536, 1 << 20], &offsets, 5);
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        "nt" => {
            // Variants of the non-temporal loop, against `rep movsb` and the library.
            let imps: Vec<Imp> = [Kernel::RepMovsb, Kernel::NonTemporalAvx2]
                .into_iter()
                .filter_map(kernel)
                .chain([
                    nt_variant("nt-nopf", nt::plain::<0>),
                    nt_variant("nt-pf4k", nt::plain::<4096>),
                    nt_variant("nt-2page", nt::pages::<2>),
                    nt_variant("nt-4page", nt::pages::<4>),
                ])
                .collect();
            table(
                &imps,
                &[16 << 20, 32 << 20, 128 << 20, 400_000_000],
                &[(0, 0), (1, 0), (0, 64)],
                7,
            );
        }
        "sse2" => {
            // For CPUs without AVX2: the 16-byte loop against `rep movsb`.
            let imps: Vec<Imp> = [Kernel::Sse2, Kernel::RepMovsb, Kernel::Avx2]
                .into_iter()
                .filter_map(kernel)
                .collect();
            let sizes = [
                1024,
                2048,
                4096,
                8192,
                16384,
                32768,
                65536,
                262144,
                1 << 20,
                4 << 20,
                8 << 20,
            ];
            table(&imps, &sizes, &[(0, 0), (1, 0), (0, 64)], 7);
        }
        "alias" => {
            // One buffer, source at its start, destination `gap` bytes later: does the
            // distance between the buffers matter (the page offsets stay equal)?
            let imps: Vec<Imp> = [Kernel::Avx2]
                .into_iter()
                .filter_map(kernel)
                .chain([glibc()])
                .collect();
            let n = 65536;
            let mut buf = vec![0u8; 8 << 20];
            let base = buf
                .as_mut_ptr()
                .wrapping_add(buf.as_ptr().align_offset(1 << 20));
            for gap in [
                65536,
                69632,
                73728,
                77824,
                81920,
                98304,
                131072,
                135168,
                262144,
                1 << 20,
                2 << 20,
                3 << 20,
            ] {
                let mut cells = Vec::new();
                for imp in &imps {
                    let reps = 2000;
                    let mut best = f64::MAX;
                    for _ in 0..5 {
                        let t = Instant::now();
                        for _ in 0..reps {
                            (imp.copy)(black_box(base.wrapping_add(gap)), black_box(base), n);
                        }
                        best = best.min(t.elapsed().as_secs_f64());
                    }
                    cells.push(format!(
                        "{} {:.0}",
                        imp.name,
                        (n * reps) as f64 / best / 1e6
                    ));
                }
                println!("gap {gap:>8}: {}", cells.join("  "));
            }
        }
        "avx512" => {
            // The two AVX-512 entries (split cores' and full-width ones') against the AVX2
            // dispatch, `rep movsb`, the dispatcher and the library.
            let imps: Vec<Imp> = [ragged()]
                .into_iter()
                .chain(
                    [
                        Kernel::Avx512,
                        Kernel::Avx512Zmm,
                        Kernel::AutoWithoutAvx512,
                        Kernel::RepMovsb,
                    ]
                    .into_iter()
                    .filter_map(kernel),
                )
                .chain([glibc()])
                .collect();
            table(
                &imps,
                &[
                    65, 100, 128, 129, 200, 256, 300, 512, 513, 700, 1420, 4096, 16384, 65536,
                    262144,
                ],
                &[(0, 0), (1, 0), (0, 1), (2048, 0), (2049, 0)],
                7,
            );
        }
        "entry" => {
            let args: Vec<String> = std::env::args().skip(2).collect();
            entry::main(args.first().map_or("cp", String::as_str), args.get(1));
        }
        "small" => {
            let imps: Vec<Imp> = [ragged()]
                .into_iter()
                .chain([Kernel::Avx2, Kernel::Sse2].into_iter().filter_map(kernel))
                .chain([glibc()])
                .collect();
            table(
                &imps,
                &[16, 33, 64, 65, 128, 255, 256, 257, 1420, 4096],
                &[(0, 0), (1, 0)],
                7,
            );
        }
        _ => {
            // The non-temporal kernels run last: their stores leave the destination out
            // of the cache, which slowed whichever implementation came next.
            let imps: Vec<Imp> = [
                Kernel::Auto,
                Kernel::Avx2,
                Kernel::Avx512Zmm,
                Kernel::RepMovsb,
            ]
            .into_iter()
            .filter_map(kernel)
            .chain([glibc()])
            .chain(kernel(Kernel::NonTemporalAvx2))
            .chain(kernel(Kernel::NonTemporalPagesAvx2))
            .collect();
            let sizes: Vec<usize> = match std::env::args().nth(2) {
                Some(list) => list
                    .split(',')
                    .map(|v| v.parse().expect("size in bytes"))
                    .collect(),
                None => vec![
                    4 << 10,
                    8 << 10,
                    16 << 10,
                    32 << 10,
                    64 << 10,
                    128 << 10,
                    256 << 10,
                    1 << 20,
                    4 << 20,
                    8 << 20,
                    12 << 20,
                    16 << 20,
                    24 << 20,
                    32 << 20,
                    64 << 20,
                    128 << 20,
                    400_000_000,
                ],
            };
            let offsets: &[(usize, usize)] = match std::env::args().nth(3).as_deref() {
                Some("all") => &[(0, 0), (1, 0), (0, 1), (1, 1), (5, 3), (0, 32), (32, 0)],
                Some("large") => &[(0, 0), (1, 0), (0, 64)],
                _ => &[(0, 0), (1, 0), (0, 1)],
            };
            table(&imps, &sizes, offsets, 9);
        }
    }
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
fn nt_variant(name: &'static str, f: unsafe fn(*mut u8, *const u8, usize)) -> Imp {
    assert!(std::is_x86_feature_detected!("avx2"));
    Imp {
        name,
        copy: Box::new(move |d, s, n| {
            // SAFETY: `run` passes disjoint in-bounds buffers; AVX2 checked above.
            unsafe { f(d, s, n) }
        }),
    }
}

/// Experimental non-temporal loops (AVX2), to compare shapes before choosing one.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod nt {
    use std::arch::x86_64::*;

    /// 128 bytes per step, destination 64-aligned by a plain head copy, optional
    /// prefetch `PF` bytes ahead.
    #[target_feature(enable = "avx2")]
    pub unsafe fn plain<const PF: usize>(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: the caller passes disjoint buffers of `n` bytes; every access below
        // stays inside them (`left` counts what remains), streamed stores are 32-byte
        // aligned after the head, and the prefetch never faults.
        unsafe {
            let skip = dst.addr().wrapping_neg() & 63;
            ragged_mem::memcpy(dst, src, skip);
            let (mut d, mut s, mut left) = (dst.add(skip), src.add(skip), n - skip);
            while left >= 128 {
                if PF > 0 {
                    _mm_prefetch::<_MM_HINT_T0>(s.wrapping_add(PF).cast());
                }
                let a = _mm256_loadu_si256(s.cast());
                let b = _mm256_loadu_si256(s.add(32).cast());
                let c = _mm256_loadu_si256(s.add(64).cast());
                let e = _mm256_loadu_si256(s.add(96).cast());
                _mm256_stream_si256(d.cast(), a);
                _mm256_stream_si256(d.add(32).cast(), b);
                _mm256_stream_si256(d.add(64).cast(), c);
                _mm256_stream_si256(d.add(96).cast(), e);
                d = d.add(128);
                s = s.add(128);
                left -= 128;
            }
            _mm_sfence();
            ragged_mem::memcpy(d, s, left);
        }
    }

    /// `P` pages of 4 KiB at a time, one line of each in turn, with each page's next
    /// lines prefetched.
    #[target_feature(enable = "avx2")]
    pub unsafe fn pages<const P: usize>(dst: *mut u8, src: *const u8, n: usize) {
        // SAFETY: as in `plain`; each block of `P` pages is inside both buffers.
        unsafe {
            let skip = dst.addr().wrapping_neg() & 63;
            ragged_mem::memcpy(dst, src, skip);
            let (mut d, mut s, mut left) = (dst.add(skip), src.add(skip), n - skip);
            let block = P * 4096;
            while left >= block {
                for line in (0..4096).step_by(64) {
                    for p in 0..P {
                        let sp = s.add(p * 4096 + line);
                        _mm_prefetch::<_MM_HINT_T0>(sp.wrapping_add(4 * 64).cast());
                        let a = _mm256_loadu_si256(sp.cast());
                        let b = _mm256_loadu_si256(sp.add(32).cast());
                        let dp = d.add(p * 4096 + line);
                        _mm256_stream_si256(dp.cast(), a);
                        _mm256_stream_si256(dp.add(32).cast(), b);
                    }
                }
                d = d.add(block);
                s = s.add(block);
                left -= block;
            }
            _mm_sfence();
            ragged_mem::memcpy(d, s, left);
        }
    }
}

/// `entry`: the public API as a caller gets it, against the platform's `memcpy` and
/// `memmove`, for the short copies where the way into the kernel (the inlined part,
/// the branches, the jump to the out-of-line entry) is most of the cost.
///
/// Each implementation is called through its own `#[inline(never)]` function of the
/// shape the `ragged speed` runners have (`ragged_mem::copy` / `copy_within` against
/// `copy_from_slice` / `<[u8]>::copy_within`); rows are `size+offset` (memcpy: the
/// source `offset` bytes past the destination's page offset plus half a page) or
/// `size±distance` (memmove: `dst - src`, within one buffer), laid out as in
/// `ragged speed`. Every row and implementation is sampled in every round, the order
/// rotated, and the cell is a low quantile (`Q`, default 0.1) of the per-call times:
/// on a machine shared with other work the upper samples measure the neighbours.
/// Layout matters at this scale (the stack's page offset, code placement), so run the
/// program several times and compare the spread of the ratios, not one run.
mod entry {
    use std::hint::black_box;
    use std::time::Instant;

    #[inline(never)]
    fn ragged_copy(dst: &mut [u8], src: &[u8]) {
        ragged_mem::copy(dst, src);
    }

    #[inline(never)]
    fn platform_copy(dst: &mut [u8], src: &[u8]) {
        dst.copy_from_slice(src);
    }

    #[inline(never)]
    fn ragged_move(buf: &mut [u8], src: usize, dst: usize, n: usize) {
        ragged_mem::copy_within(buf, src..src + n, dst);
    }

    #[inline(never)]
    fn platform_move(buf: &mut [u8], src: usize, dst: usize, n: usize) {
        buf.copy_within(src..src + n, dst);
    }

    /// One row: its buffer, the source and destination offsets in it, and the size.
    struct Row {
        name: String,
        buf: Vec<u8>,
        src: usize,
        dst: usize,
        n: usize,
        /// Calls per sample.
        calls: usize,
    }

    const PAGE: usize = 4096;

    fn row(copy: bool, spec: &str) -> Row {
        let (n, offset): (usize, isize) = match spec.find(['+', '-']) {
            Some(at) => {
                let off: isize = spec[at..].parse().expect("offset");
                (spec[..at].parse().expect("size"), off)
            }
            None => (spec.parse().expect("size"), 0),
        };
        let span = (n + offset.unsigned_abs()).div_ceil(PAGE) * PAGE;
        let mut buf = vec![0u8; 3 * PAGE + 3 * span];
        for (i, b) in buf.iter_mut().enumerate() {
            *b = (i * 131 + 7) as u8;
        }
        // A page boundary with `span` bytes below it (a move's source may start there)
        // and room for a copy's source above it.
        let page = buf.as_ptr().align_offset(PAGE) + PAGE + span;
        let (src, dst) = if copy {
            assert!(offset >= 0, "memcpy rows are size+offset");
            (page + span + PAGE / 2 + offset as usize, page)
        } else {
            // The destination on a page boundary, the source `offset` below it.
            (page.checked_add_signed(-offset).expect("offset"), page)
        };
        Row {
            name: spec.into(),
            buf,
            src,
            dst,
            n,
            calls: (32768 / n.max(1)).clamp(4, 1000),
        }
    }

    fn quantile(mut v: Vec<f64>, q: f64) -> f64 {
        v.sort_by(f64::total_cmp);
        v[((v.len() - 1) as f64 * q) as usize]
    }

    pub fn main(what: &str, rows: Option<&String>) {
        let copy = match what {
            "cp" => true,
            "mv" => false,
            _ => panic!("entry cp|mv [rows]"),
        };
        let default = if copy {
            "16+0,64+0,65+0,100+1,128+0,256+1,1420+1,4096+1"
        } else {
            "64-1,65-1,100+50,128-64,128+64,256-128,4096+2048,65536-1"
        };
        let rounds: usize = std::env::var("ROUNDS").map_or(400, |v| v.parse().expect("ROUNDS"));
        let q: f64 = std::env::var("Q").map_or(0.1, |v| v.parse().expect("Q"));
        let mut rows: Vec<Row> = rows
            .map_or(default, String::as_str)
            .split(',')
            .map(|spec| row(copy, spec))
            .collect();
        // Both implementations give the same bytes (memmove: from the same start).
        for r in &mut rows {
            let (s, d, n) = (r.src, r.dst, r.n);
            let start = r.buf.clone();
            let mut outs = Vec::new();
            for imp in 0..2 {
                r.buf.copy_from_slice(&start);
                run(r, imp, copy, 1);
                outs.push(r.buf[d..d + n].to_vec());
            }
            assert_eq!(outs[0], outs[1], "{}", r.name);
            if copy {
                assert_eq!(outs[0], r.buf[s..s + n], "{}", r.name);
            }
        }
        let mut times = vec![[Vec::new(), Vec::new()]; rows.len()];
        for round in 0..rounds {
            for (r, t) in rows.iter_mut().zip(&mut times) {
                for k in 0..2 {
                    let imp = (k + round) % 2;
                    run(r, imp, copy, 1);
                    let start = Instant::now();
                    run(r, imp, copy, r.calls);
                    t[imp].push(start.elapsed().as_secs_f64() * 1e9 / r.calls as f64);
                }
            }
        }
        println!(
            "{} ns per call, quantile {q} of {rounds} samples",
            if copy { "memcpy" } else { "memmove" }
        );
        println!(
            "{:>12} {:>9} {:>9} {:>16}",
            "row", "ragged", "platform", "platform/ragged"
        );
        for (r, t) in rows.iter().zip(times) {
            let [ours, theirs] = t.map(|v| quantile(v, q));
            println!(
                "{:>12} {ours:>9.2} {theirs:>9.2} {:>16.3}",
                r.name,
                theirs / ours
            );
        }
    }

    /// `calls` calls of implementation `imp` (0 ragged, 1 the platform) on `r`.
    fn run(r: &mut Row, imp: usize, copy: bool, calls: usize) {
        let (s, d, n) = (r.src, r.dst, r.n);
        if copy {
            let (low, high) = r.buf.split_at_mut(s);
            let f = [ragged_copy, platform_copy][imp];
            for _ in 0..calls {
                f(black_box(&mut low[d..d + n]), black_box(&high[..n]));
            }
        } else {
            let f = [ragged_move, platform_move][imp];
            for _ in 0..calls {
                f(
                    black_box(&mut r.buf),
                    black_box(s),
                    black_box(d),
                    black_box(n),
                );
            }
        }
    }
}
