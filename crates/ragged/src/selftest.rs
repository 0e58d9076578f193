//! `ragged selftest`: the known-answer vectors, and a cross-check against the portable
//! backend, on every backend this CPU has.

use std::process::ExitCode;

use ragged_chacha::kat::{self, HCHACHA_VECTORS, STREAM_VECTORS};
use ragged_chacha::{AnyCipher, Backend, CipherKind};

/// Prints a table backend x cipher -> ok / FAIL; exit status 1 on any failure.
pub fn run() -> ExitCode {
    let backends: Vec<Backend> = Backend::available().collect();
    let mut failures = Vec::new();

    print!("{:<20}", "cipher");
    for b in &backends {
        print!("{:>10}", b.name());
    }
    println!();
    for kind in CipherKind::ALL {
        let vectors: Vec<_> = STREAM_VECTORS.iter().filter(|v| v.kind == kind).collect();
        print!("{:<20}", format!("{} ({})", kind.name(), vectors.len()));
        for &backend in &backends {
            let mut ok = true;
            for v in &vectors {
                if let Err(failure) = kat::check_stream(v, backend) {
                    failures.push(format!("{}: {failure}", backend.name()));
                    ok = false;
                }
            }
            if let Err(failure) = matches_portable(kind, backend) {
                failures.push(format!("{}: {failure}", backend.name()));
                ok = false;
            }
            print!("{:>10}", if ok { "ok" } else { "FAIL" });
        }
        println!();
    }
    let hchacha_ok = HCHACHA_VECTORS.iter().all(|v| match kat::check_hchacha(v) {
        Ok(()) => true,
        Err(failure) => {
            failures.push(failure.to_string());
            false
        }
    });
    println!(
        "{:<20}{:>10}",
        format!("hchacha ({})", HCHACHA_VECTORS.len()),
        if hchacha_ok { "ok" } else { "FAIL" }
    );

    if failures.is_empty() {
        println!("all known answers and cross-checks passed");
        ExitCode::SUCCESS
    } else {
        for f in &failures {
            eprintln!("FAIL {f}");
        }
        ExitCode::FAILURE
    }
}

/// Every length 0..=1100 plus ragged large ones, this backend against the portable one.
fn matches_portable(kind: CipherKind, backend: Backend) -> Result<(), String> {
    let key = [0x5c; 32];
    let nonce = vec![0xa3; kind.nonce_len()];
    for len in (0..=1100).chain([1420, 1500, 4097]) {
        let data: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
        let run = |b: Backend| {
            let mut out = vec![0u8; len];
            AnyCipher::new(kind, &key, &nonce, 7)
                .and_then(|c| c.with_backend(b))
                .and_then(|mut c| c.try_apply_keystream_b2b(&data, &mut out))
                .map(|()| out)
                .map_err(|e| e.to_string())
        };
        if run(backend)? != run(Backend::Portable)? {
            return Err(format!(
                "{} differs from portable at length {len}",
                kind.name()
            ));
        }
    }
    Ok(())
}
