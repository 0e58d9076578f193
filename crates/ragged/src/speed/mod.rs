//! `ragged speed`: every implementation of a primitive timed side by side in one
//! process, interleaved, over warm buffers; the median MB/s per size and ragged's
//! ratio to the best peer.
//!
//! - `registry.rs` — primitives, cases (size, offset) and the implementation traits
//! - `chacha.rs` — the ChaCha implementations: ragged and its peers
//! - `openssl.rs`, `sodium.rs` — the optional peers OpenSSL and libsodium (cargo
//!   features `openssl` and `sodium`), in every table they have a primitive for
//! - `aead.rs` — the AEAD implementations: ragged, RustCrypto and ring
//! - `burst.rs` — bursts: many packets a call, ragged's burst call against loops
//! - `poly1305.rs` — the MAC alone: ragged (per Poly1305 backend) and RustCrypto
//! - `memcpy.rs` — the copy implementations: ragged, its word strategy and the peers
//! - `memmove.rs` — the overlapping moves, by the same implementations as `memcpy.rs`
//! - `timing.rs` — the interleaved sampler (knows nothing of any primitive)
//! - `progress.rs` — the progress bar on stderr, whose failed draws are reported
//! - `report.rs`, `plot.rs` — tables, JSON and SVG; `output.rs` — where JSON and SVG go
//! - `sizes.rs` — the default sizes and the `--sizes` parser

mod aead;
mod aead_open;
mod burst;
mod chacha;
mod cycle;
mod memcpy;
mod memmove;
#[cfg(feature = "openssl")]
mod openssl;
mod output;
mod plot;
mod poly1305;
mod progress;
mod registry;
mod report;
mod sizes;
#[cfg(feature = "sodium")]
pub mod sodium;
mod timing;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use crate::out;
use clap::builder::PossibleValuesParser;
use output::Sink;
use progress::Progress;
use registry::{Primitive, Selection};
use sizes::SizeList;
use timing::Plan;

/// The default run: ~2 ms samples, as many rounds as fit in about 50 s (at least 15).
const BUDGET: Duration = Duration::from_secs(50);
const SAMPLE: Duration = Duration::from_millis(2);
const MIN_ROUNDS: usize = 15;
/// `--quick`: ~0.5 ms samples, about 2.5 s (at least 5 rounds).
const QUICK_BUDGET: Duration = Duration::from_millis(2500);
const QUICK_SAMPLE: Duration = Duration::from_micros(500);
const QUICK_MIN_ROUNDS: usize = 5;

/// The `speed` subcommand's arguments.
#[derive(clap::Args, Debug)]
#[command(after_help = "\
Sizes: a comma list of byte counts; the suffixes K, M and G (either case) are binary: \
4K = 4096, 64K = 65536, 400M = 419430400; at most 1G.

memcpy measures every size at source offsets 0, 1, 3 and 5 against a 64-byte aligned \
destination ('size+offset' rows); above 4 MiB it leaves out coaligned-only and \
bytewise ('-').

memmove moves bytes inside one buffer, the destination overlapping the source; its \
rows read 'size+offset' with offset the signed distance dst - src: '1420-1' moves 1420 \
bytes one byte down (destination below the source), '1420+710' moves them 710 bytes up. \
Each size is moved 1 and size/2 bytes (size/2 only from 4 bytes on) down and up; \
above 4 MiB it leaves out bytewise ('-').

Every implementation of a primitive runs in this one process, interleaved: each round \
times every implementation once per size (the order rotated between rounds), each \
sample batching enough calls to last about 2 ms, and the median over the rounds \
(as many as fit in about 50 s, at least 15) is reported in MB/s (10^6 bytes per second). 'ragged / best peer' is the dispatched \
ragged backend's rate over the fastest non-ragged implementation's. The default run \
takes about a minute; these machines are noisy, so compare ratios within one run, never \
absolute figures across runs.")]
pub struct SpeedArgs {
    /// Primitives to measure (default: all).
    #[arg(value_parser = PossibleValuesParser::new(registry::NAMES))]
    primitives: Vec<String>,
    /// Message sizes, e.g. `16,65,1420,4K,64K` [default: 16,64,65,128,192,255,256,
    /// 512,1024,1420,1500,4096,16384,65536; memcpy: 16,64,256,1420,4096,65536,
    /// 400000000; memmove: 16,64,256,1420,4096,65536].
    #[arg(long, value_parser = sizes::parse_list, value_name = "LIST")]
    sizes: Option<SizeList>,
    /// Also measure every ragged backend this CPU has, by name (ragged-avx2, …).
    #[arg(long)]
    backends: bool,
    /// Rounds to take the median over [default: as many ~2 ms samples as fit in about
    /// 50 s, at least 15; with --quick ~0.5 ms samples in about 2.5 s, at least 5].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    rounds: Option<u32>,
    /// A few seconds in all (fewer rounds, shorter samples, no default size above
    /// 1 MiB): a smoke run.
    #[arg(long)]
    quick: bool,
    /// Also write the results as JSON to PATH (`-` for stdout; the tables then go to
    /// stderr).
    #[arg(long, value_name = "PATH|-")]
    json: Option<PathBuf>,
    /// Also draw MB/s against size as an SVG chart at PATH (`-` for stdout; the tables
    /// then go to stderr): a panel per primitive, in a grid that fits a 1920x1080
    /// screen; memcpy and memmove with a line per implementation and offset.
    #[arg(long, value_name = "PATH.svg|-")]
    plot: Option<PathBuf>,
    /// The chart's y axis (MB/s) on a log scale in every panel [default: log where a
    /// panel's rates span more than 10x, linear from 0 otherwise].
    #[arg(long, requires = "plot", conflicts_with = "plot_linear_y")]
    plot_log_y: bool,
    /// The chart's y axis linear from 0 in every panel.
    #[arg(long, requires = "plot")]
    plot_linear_y: bool,
}

/// The backend (or copy strategy) ragged dispatches each of the primitives `names` to
/// on this CPU.
fn backends(names: &[&str]) -> BTreeMap<&'static str, String> {
    let chacha = ragged_chacha::Backend::detect().name();
    let mac = ragged_chacha::Poly1305Backend::detect().name();
    registry::NAMES
        .iter()
        .filter(|name| names.contains(name))
        .map(|&name| {
            let backend = match name {
                "chacha20" | "xchacha20" => chacha.to_string(),
                "poly1305" => mac.to_string(),
                "memcpy" | "memmove" => crate::info::copy_strategy(),
                _ => format!("chacha {chacha}, poly1305 {mac}"),
            };
            (name, backend)
        })
        .collect()
}

/// The peers a cargo feature adds, and whether this build has each.
pub fn optional_peers() -> [registry::OptionalPeer; 2] {
    [registry::OPENSSL, registry::SODIUM]
}

/// Runs the benchmark and writes the report.
pub fn run(args: SpeedArgs) -> Result<(), String> {
    let started = Instant::now();
    let names: Vec<&str> = if args.primitives.is_empty() {
        registry::NAMES.to_vec()
    } else {
        let mut names: Vec<&str> = Vec::new();
        for name in &args.primitives {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
        }
        names
    };
    let selection = Selection {
        backends: args.backends,
    };
    let mut primitives: Vec<Primitive> = Vec::new();
    for name in &names {
        let sizes = match &args.sizes {
            Some(SizeList(list)) => list.clone(),
            None => registry::default_sizes(name)
                .iter()
                .copied()
                .filter(|&s| !args.quick || s <= sizes::QUICK_MAX)
                .collect(),
        };
        let parts = registry::build(name, &sizes, selection)
            .ok_or_else(|| format!("unknown primitive '{name}'"))?;
        primitives.extend(parts);
    }

    let mut json = args
        .json
        .as_deref()
        .map(|p| Sink::open(p, "JSON"))
        .transpose()?;
    let mut chart = args
        .plot
        .as_deref()
        .map(|p| Sink::open(p, "chart"))
        .transpose()?;
    let to_stdout = |s: &Option<Sink>| s.as_ref().is_some_and(Sink::is_stdout);
    if to_stdout(&json) && to_stdout(&chart) {
        return Err("--json and --plot cannot both write to stdout ('-')".into());
    }
    let tables_to_stderr = to_stdout(&json) || to_stdout(&chart);

    let cells = timing::cells(&primitives);
    let mut plan = if args.quick {
        Plan::for_budget(QUICK_BUDGET, QUICK_SAMPLE, cells, QUICK_MIN_ROUNDS)
    } else {
        Plan::for_budget(BUDGET, SAMPLE, cells, MIN_ROUNDS)
    };
    if let Some(rounds) = args.rounds {
        plan.rounds = rounds as usize;
        plan.min_rounds = plan.rounds;
        plan.deadline = None;
    }

    let progress = Progress::on_stderr();
    let results = timing::run(&primitives, plan, progress.bar());
    // Reported last (see `progress`): the results go out first, wherever they can.
    let drawn = progress.finish(results.is_ok());
    let run = results?;
    let results = &run.measurements;

    let cpu = crate::info::cpu_name();
    let meta = report::Meta {
        ragged_version: env!("CARGO_PKG_VERSION"),
        git_commit: crate::info::git_commit(),
        features: registry::features(),
        target: format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS),
        cpu: cpu.clone(),
        cpu_features: crate::info::features(),
        backends: backends(&names),
        peers: crate::info::peer_versions().into_iter().collect(),
        rounds: run.rounds,
        mean_sample_ms: (run.mean_sample.as_secs_f64() * 1e6).round() / 1e3,
    };
    let mut text = report::tables(&cpu, &run);
    text.push_str(&format!(
        "\nmeasured in {:.1} s\n",
        started.elapsed().as_secs_f64()
    ));
    if tables_to_stderr {
        out::stderr().write_all(text.as_bytes())?;
    } else {
        let mut stdout = out::stdout();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    if let Some(sink) = &mut json {
        sink.write(report::json(&meta, results).as_bytes(), "JSON")?;
    }
    if let Some(sink) = &mut chart {
        let scale = match (args.plot_log_y, args.plot_linear_y) {
            (true, _) => plot::YScale::Log,
            (_, true) => plot::YScale::Linear,
            _ => plot::YScale::Auto,
        };
        sink.write(plot::svg(&cpu, results, scale)?.as_bytes(), "chart")?;
        writeln!(out::stderr(), "chart written to {}", sink.describe())?;
    }
    drawn
}
