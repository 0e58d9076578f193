//! `ct-check`: evidence that ragged-chacha's kernels run in constant time.
//!
//! The "ctgrind" technique: keys, plaintexts and tags are marked *undefined* for
//! Valgrind memcheck, which then reports every conditional jump, and every memory
//! address, computed from them — exactly the two ways code leaks a secret through
//! timing or the cache. Run under `valgrind --tool=memcheck` (see `scripts/ct-check`);
//! natively the markings are no-ops and the cases run as a plain smoke test.
//!
//! ```text
//! ct-check               every primitive on every backend this CPU has
//! ct-check --leaky-demo  a deliberate secret-dependent branch and lookup, which
//!                        memcheck must report (shows the check is live)
//! ```

mod cases;
mod leaky;
mod memcheck;

use std::process::ExitCode;

use ragged_chacha::aead::AeadVariant;
use ragged_chacha::variant::{Ietf, XChaCha};
use ragged_chacha::{Backend, Poly1305Backend};

use cases::Outcome;

const USAGE: &str = "usage: ct-check [--leaky-demo]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        [] => check(),
        ["--leaky-demo"] => leaky_demo(),
        ["-h" | "--help"] => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Says whether the markings mean anything in this run; `false` when this build
/// cannot talk to Valgrind at all.
fn preamble() -> bool {
    if !memcheck::supported() {
        println!(
            "ct-check: Valgrind client requests are written for x86-64 only; \
             nothing to check on {}",
            std::env::consts::ARCH
        );
        return false;
    }
    if memcheck::running_on_valgrind() {
        println!("ct-check: under Valgrind; secrets are marked undefined");
    } else {
        println!(
            "ct-check: not under Valgrind, so nothing is checked (a smoke run); \
             scripts/ct-check runs it under memcheck"
        );
    }
    true
}

fn leaky_demo() -> ExitCode {
    if !preamble() {
        return ExitCode::SUCCESS;
    }
    let errors = leaky::run();
    println!(
        "leaky demo: memcheck reported {errors} errors \
         (a live check reports the branch and the lookup)"
    );
    // Under Valgrind, silence here means the markings do nothing and every clean
    // report of `ct-check` proves nothing.
    if memcheck::running_on_valgrind() && errors < 2 {
        println!("leaky demo: FAILED: memcheck missed a deliberate leak");
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// The tally of a run.
#[derive(Default)]
struct Tally {
    cases: usize,
    /// Cases in which memcheck reported an error.
    flagged: usize,
    /// Cases that memcheck flagged or that failed their own checks.
    failed: usize,
    /// Backends whose outputs differed from the first backend's.
    disagreements: usize,
}

impl Tally {
    /// Runs one case, printing its line: memcheck's error count over it, and its
    /// outcome. Returns the digest when the case succeeded.
    fn run(&mut self, name: &str, case: impl FnOnce() -> Outcome) -> Option<u64> {
        let before = memcheck::error_count();
        let outcome = case();
        let errors = memcheck::error_count() - before;
        self.cases += 1;
        if errors != 0 {
            self.flagged += 1;
        }
        if errors != 0 || outcome.is_err() {
            self.failed += 1;
        }
        let verdict = match &outcome {
            Ok(_) if errors == 0 => "ok".to_string(),
            Ok(_) => format!("{errors} memcheck errors"),
            Err(e) => format!("FAILED: {e} ({errors} memcheck errors)"),
        };
        println!("  {name:<48} {verdict}");
        outcome.ok()
    }

    /// Records backends disagreeing.
    fn disagree(&mut self, what: &str) {
        self.disagreements += 1;
        println!("  FAILED: {what}");
    }
}

/// Every backend's digest must be the first one's.
fn agree(tally: &mut Tally, what: &str, digests: &[(String, Option<u64>)]) {
    let Some((first, Some(expected))) = digests.first() else {
        return;
    };
    for (name, digest) in &digests[1..] {
        if let Some(d) = digest
            && d != expected
        {
            tally.disagree(&format!("{what}: {name} disagrees with {first}"));
        }
    }
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &'static str) -> String {
    let list: Vec<&str> = items.iter().map(name).collect();
    if list.is_empty() {
        "none".to_string()
    } else {
        list.join(" ")
    }
}

fn check() -> ExitCode {
    if !preamble() {
        return ExitCode::SUCCESS;
    }
    let chacha: Vec<Backend> = Backend::available().collect();
    let chacha_missing: Vec<Backend> = Backend::all()
        .iter()
        .copied()
        .filter(|b| !b.is_available())
        .collect();
    let mac: Vec<Poly1305Backend> = Poly1305Backend::available().collect();
    let mac_missing: Vec<Poly1305Backend> = Poly1305Backend::all()
        .iter()
        .copied()
        .filter(|b| !b.is_available())
        .collect();
    println!(
        "ChaCha backends: {} (not available here, so not checked: {})",
        names(&chacha, |b| b.name()),
        names(&chacha_missing, |b| b.name())
    );
    println!(
        "Poly1305 backends: {} (not available here, so not checked: {})",
        names(&mac, |b| b.name()),
        names(&mac_missing, |b| b.name())
    );

    let mut tally = Tally::default();
    let nonce12 = [0x24u8; 12];
    let nonce24: [u8; 24] = core::array::from_fn(|i| i as u8);

    println!("stream ciphers (key and plaintext secret):");
    let digests: Vec<_> = chacha
        .iter()
        .map(|&b| {
            let name = format!("chacha20 {}", b.name());
            let d = tally.run(&name, || cases::stream::<Ietf<20>>(b, &nonce12));
            (name, d)
        })
        .collect();
    agree(&mut tally, "chacha20", &digests);
    let digests: Vec<_> = chacha
        .iter()
        .map(|&b| {
            let name = format!("xchacha20 {}", b.name());
            let d = tally.run(&name, || cases::stream::<XChaCha<20>>(b, &nonce24));
            (name, d)
        })
        .collect();
    agree(&mut tally, "xchacha20", &digests);
    tally.run("hchacha20 (portable; no backends)", cases::hchacha);

    println!("poly1305 (one-time key and message secret; verify with a secret tag):");
    let digests: Vec<_> = mac
        .iter()
        .map(|&m| {
            let name = format!("poly1305 {}", m.name());
            let d = tally.run(&name, || cases::poly1305(m));
            (name, d)
        })
        .collect();
    agree(&mut tally, "poly1305", &digests);

    println!("AEADs (key and plaintext secret; seal, open, and two failing opens):");
    aead_cases::<Ietf<20>>(&mut tally, "chacha20-poly1305", &chacha, &mac, &nonce12);
    aead_cases::<XChaCha<20>>(&mut tally, "xchacha20-poly1305", &chacha, &mac, &nonce24);

    println!("AEAD bursts (one key; seal, then open with every third tag forged):");
    for (burst, lengths) in cases::BURSTS {
        let mut digests = Vec::new();
        for &b in &chacha {
            for &m in &mac {
                let name = format!(
                    "chacha20-poly1305 burst ({burst}) {} + poly1305 {}",
                    b.name(),
                    m.name()
                );
                let d = tally.run(&name, || cases::aead_burst(b, m, lengths));
                digests.push((name, d));
            }
        }
        agree(
            &mut tally,
            &format!("chacha20-poly1305 burst ({burst})"),
            &digests,
        );
    }

    println!(
        "ct-check: {} cases, {} with memcheck errors, {} backend disagreements",
        tally.cases, tally.flagged, tally.disagreements
    );
    println!(
        "ct-check: {} passed, {} failed",
        tally.cases - tally.failed,
        tally.failed + tally.disagreements
    );
    if tally.failed == 0 && tally.disagreements == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// One AEAD on every pair of ChaCha and Poly1305 backends.
fn aead_cases<V: AeadVariant>(
    tally: &mut Tally,
    what: &str,
    chacha: &[Backend],
    mac: &[Poly1305Backend],
    nonce: &V::Nonce,
) {
    let mut digests = Vec::new();
    for &b in chacha {
        for &m in mac {
            let name = format!("{what} {} + poly1305 {}", b.name(), m.name());
            let d = tally.run(&name, || cases::aead::<V>(b, m, nonce));
            digests.push((name, d));
        }
    }
    agree(tally, what, &digests);
}
