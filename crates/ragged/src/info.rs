//! `ragged info`: what the CPU offers and what ragged picks.

use ragged_chacha::{AeadKind, Backend, Poly1305Backend};

use crate::out;

/// Prints the CPU features seen, the backend per primitive, the build's optional
/// features, and the versions of ragged and of the peers of `ragged speed`.
pub fn run() -> Result<(), String> {
    let mut out = out::stdout();
    match git_commit() {
        Some(commit) => writeln!(
            out,
            "ragged {} (commit {commit})",
            env!("CARGO_PKG_VERSION")
        )?,
        None => writeln!(out, "ragged {}", env!("CARGO_PKG_VERSION"))?,
    }
    writeln!(
        out,
        "target      {}-{}",
        std::env::consts::ARCH,
        std::env::consts::OS
    )?;
    writeln!(out, "cpu         {}", cpu_name())?;
    writeln!(out, "features    {}", features().join(" "))?;
    let available: Vec<_> = Backend::available().map(|b| b.name()).collect();
    let compiled: Vec<_> = Backend::all().iter().map(|b| b.name()).collect();
    // A new cipher's route may run long messages on another plan of the detected
    // instruction set, by this core's row in the library's table.
    let routed = ragged_chacha::ChaCha20::new(&[0; 32], &[0; 12]).backend_for(1 << 20);
    let long = if routed == Backend::detect() {
        String::new()
    } else {
        format!("long messages on {} on this core; ", routed.name())
    };
    writeln!(
        out,
        "chacha      backend {} ({long}available: {}; compiled: {})",
        Backend::detect().name(),
        available.join(", "),
        compiled.join(", ")
    )?;
    let mac_available: Vec<_> = Poly1305Backend::available().map(|b| b.name()).collect();
    let mac_compiled: Vec<_> = Poly1305Backend::all().iter().map(|b| b.name()).collect();
    writeln!(
        out,
        "poly1305    backend {} (available: {}; compiled: {})",
        Poly1305Backend::detect().name(),
        mac_available.join(", "),
        mac_compiled.join(", ")
    )?;
    let aeads: Vec<_> = AeadKind::ALL.iter().map(|a| a.name()).collect();
    writeln!(
        out,
        "aead        {} (chacha {} + poly1305 {})",
        aeads.join(", "),
        Backend::detect().name(),
        Poly1305Backend::detect().name()
    )?;
    writeln!(out, "memcpy      {}", copy_strategy())?;
    let optional = crate::speed::optional_peers();
    let built: Vec<_> = optional
        .iter()
        .filter(|p| p.built)
        .map(|p| p.feature)
        .collect();
    let missing: Vec<_> = optional
        .iter()
        .filter(|p| !p.built)
        .map(|p| p.feature)
        .collect();
    writeln!(
        out,
        "build       optional features: {}{}",
        if built.is_empty() {
            "none".to_string()
        } else {
            built.join(", ")
        },
        if missing.is_empty() {
            String::new()
        } else {
            format!(" (not built in: {})", missing.join(", "))
        }
    )?;
    for (peer, version) in peer_versions() {
        writeln!(out, "peer        {peer:<11} {version}")?;
    }
    for peer in optional.iter().filter(|p| !p.built) {
        writeln!(
            out,
            "peer        {:<11} not built in (cargo feature {})",
            peer.name, peer.feature
        )?;
    }
    out.flush()
}

/// The commit this binary was built from, when it was built from a git checkout.
pub fn git_commit() -> Option<&'static str> {
    Some(env!("RAGGED_GIT_COMMIT")).filter(|c| !c.is_empty())
}

/// The version of a Rust peer crate, from the `Cargo.lock` this binary was built with.
fn crate_version(name: &str) -> &'static str {
    env!("RAGGED_PEER_VERSIONS")
        .split(';')
        .filter_map(|pair| pair.split_once('='))
        .find(|(n, _)| *n == name)
        .map_or("(version unknown)", |(_, v)| v)
}

/// The peers of `ragged speed` built into this binary, each with the version of the
/// library measured: the Rust crates' from the build's `Cargo.lock`, the system
/// libraries' as they report themselves at run time.
pub fn peer_versions() -> Vec<(&'static str, String)> {
    let mut peers = vec![
        (
            "rustcrypto",
            format!(
                "chacha20 {}, chacha20poly1305 {}, poly1305 {}",
                crate_version("chacha20"),
                crate_version("chacha20poly1305"),
                crate_version("poly1305")
            ),
        ),
        ("ring", crate_version("ring").to_string()),
    ];
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        // SAFETY: returns a pointer to a static NUL-terminated string.
        let version = unsafe { std::ffi::CStr::from_ptr(libc::gnu_get_libc_version()) };
        peers.push(("glibc", version.to_string_lossy().into_owned()));
    }
    #[cfg(feature = "openssl")]
    peers.push(("openssl", openssl::version::version().to_string()));
    #[cfg(feature = "sodium")]
    peers.push(("libsodium", crate::speed::sodium::version()));
    peers
}

/// The copy strategy ragged-mem uses on this target and CPU.
pub fn copy_strategy() -> String {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use ragged_mem::strategy::{NONTEMPORAL_MIN, REP_MOVSB_MIN, ZMM_LOOP_MAX, x86_64_features};
        let f = x86_64_features();
        let vectors = if f.zmm {
            "avx512 (full width: 64-byte vectors and loop)"
        } else if f.avx512 {
            "avx512 (65-128 B) + avx2"
        } else if f.avx2 {
            "avx2"
        } else {
            "sse2"
        };
        let rep = if f.zmm {
            format!("above {ZMM_LOOP_MAX} B")
        } else if f.avx2 || !f.erms {
            "never".to_string()
        } else {
            format!("from {REP_MOVSB_MIN} B")
        };
        let pages = if f.nt_pages {
            " (four pages interleaved)"
        } else {
            ""
        };
        format!(
            "x86-64 {vectors} vectors (erms {}, fsrm {}); rep movsb: {rep}; non-temporal stores from {} MiB{pages}",
            f.erms,
            f.fsrm,
            NONTEMPORAL_MIN >> 20
        )
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon"))]
    {
        "aarch64 neon vectors".to_string()
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", target_feature = "sse2"),
        all(target_arch = "aarch64", target_feature = "neon")
    )))]
    {
        "word (aligned words, shift-merge for mismatched alignment)".to_string()
    }
}

/// The model name the OS reports, where it does.
pub fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

/// The SIMD features ragged cares about that this CPU has.
pub fn features() -> Vec<&'static str> {
    let mut seen = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($f:tt),*) => {
                $(if std::is_x86_feature_detected!($f) { seen.push($f); })*
            };
        }
        probe!(
            "sse2",
            "ssse3",
            "sse4.1",
            "avx",
            "avx2",
            "bmi2",
            "avx512f",
            "avx512bw",
            "avx512vl",
            "avx512ifma",
            "vaes"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            seen.push("neon");
        }
    }
    #[cfg(all(target_arch = "arm", target_os = "linux"))]
    {
        // std has no stable NEON check for 32-bit Arm: HWCAP_NEON (bit 12) of AT_HWCAP,
        // the word ragged-chacha's detection reads too.
        // SAFETY: `getauxval` only reads the process's auxiliary vector.
        let hwcap = unsafe { libc::getauxval(libc::AT_HWCAP) };
        if hwcap & (1 << 12) != 0 {
            seen.push("neon");
        }
    }
    if seen.is_empty() {
        seen.push("(none detected)");
    }
    seen
}
