//! Per-call time of short messages on every backend, for the crossovers in
//! `src/backend/route.rs` (see `docs/tuning.md`, "Per-length routing").
//!
//! `cargo run --release -p ragged-chacha --example crossovers -- <xor|seal|poly> [sizes]`
//!
//! A call is what a packet costs: a new cipher (or AEAD, or MAC), `with_backend` for a
//! pinned column, the call, drop. Each cell is the minimum over 400 samples of 200
//! calls, in ns: on a shared machine the minimum is the figure that survives. Pinned
//! columns pay `with_backend`'s own cost, so compare them with each other; the
//! `detected` column is what `new` gives, routes included.

use ragged_chacha::{Backend, ChaCha20, ChaCha20Poly1305, Poly1305, Poly1305Backend};
use std::hint::black_box;
use std::time::Instant;

/// The least time a call of `f` took, in ns, over `samples` runs of `calls` calls.
fn min_ns(mut f: impl FnMut(), calls: u32, samples: u32) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..samples {
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        let ns = t.elapsed().as_nanos() as f64 / calls as f64;
        if ns < best {
            best = ns;
        }
    }
    best
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let what = args.get(1).map(|s| s.as_str()).unwrap_or("xor");
    if !["xor", "seal", "poly"].contains(&what) {
        eprintln!("usage: crossovers <xor|seal|poly> [comma-separated sizes in bytes]");
        std::process::exit(2);
    }
    let sizes: Vec<usize> = match args.get(2) {
        Some(list) => list
            .split(',')
            .map(|x| x.trim().parse())
            .collect::<Result<_, _>>()
            .unwrap_or_else(|e| {
                eprintln!("crossovers: bad size list {list:?}: {e}");
                std::process::exit(2)
            }),
        None => vec![16, 32, 64, 65, 96, 128, 192, 256, 320, 512],
    };
    let key = [7u8; 32];
    let nonce = [9u8; 12];
    if what == "poly" {
        let pb: Vec<Option<Poly1305Backend>> = std::iter::once(None)
            .chain(Poly1305Backend::available().map(Some))
            .collect();
        print!("{:>6}", "size");
        for b in &pb {
            print!(" {:>10}", b.map(|b| b.name()).unwrap_or("detected"));
        }
        println!();
        for &n in &sizes {
            let buf = vec![3u8; n];
            print!("{n:>6}");
            for b in &pb {
                let ns = min_ns(
                    || {
                        let mut m = Poly1305::new(black_box(&key));
                        if let Some(b) = b {
                            m = m.with_backend(*b).unwrap();
                        }
                        m.update(black_box(&buf));
                        black_box(m.finalize());
                    },
                    200,
                    400,
                );
                print!(" {ns:>10.1}");
            }
            println!();
        }
        return;
    }
    let backends: Vec<Option<Backend>> = std::iter::once(None)
        .chain(Backend::available().map(Some))
        .collect();
    print!("{:>6}", "size");
    for b in &backends {
        print!(" {:>9}", b.map(|b| b.name()).unwrap_or("detected"));
    }
    println!("   (ns a call, min of 400 samples of 200 calls)");
    for &n in &sizes {
        let mut buf = vec![0u8; n];
        print!("{n:>6}");
        for b in &backends {
            let ns = match what {
                "xor" => min_ns(
                    || {
                        let mut c = ChaCha20::new(black_box(&key), black_box(&nonce));
                        if let Some(b) = b {
                            c = c.with_backend(*b).unwrap();
                        }
                        c.apply_keystream(black_box(&mut buf));
                    },
                    200,
                    400,
                ),
                _ => min_ns(
                    || {
                        let mut a = ChaCha20Poly1305::new(black_box(&key));
                        if let Some(b) = b {
                            a = a.with_backend(*b).unwrap();
                        }
                        black_box(
                            a.encrypt_in_place_detached(
                                black_box(&nonce),
                                b"",
                                black_box(&mut buf),
                            )
                            .unwrap(),
                        );
                    },
                    200,
                    400,
                ),
            };
            print!(" {ns:>9.1}");
        }
        println!();
    }
}
