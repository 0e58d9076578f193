//! Build facts for `ragged info` and `ragged speed --json`, and the libsodium link.
//!
//! - `RAGGED_GIT_COMMIT`: the commit the binary was built from, when it was built from a
//!   git checkout with `git` on the path; empty otherwise (a source tarball, no git).
//! - `RAGGED_PEER_VERSIONS`: `name=version` pairs (`;`-separated) of the Rust peers
//!   `ragged speed` measures, read from the workspace's `Cargo.lock`; empty when there
//!   is none (the crate built outside its workspace).
//! - with feature `sodium`: the system's libsodium, found through pkg-config, as the
//!   `openssl` feature finds libssl (through `openssl-sys`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// The crates whose versions `info` shows (the Rust peers of `ragged speed`).
const PEERS: &[&str] = &["chacha20", "chacha20poly1305", "poly1305", "ring"];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    println!(
        "cargo:rustc-env=RAGGED_GIT_COMMIT={}",
        git_commit(&manifest)
    );
    println!(
        "cargo:rustc-env=RAGGED_PEER_VERSIONS={}",
        peer_versions(&manifest)
    );
    #[cfg(feature = "sodium")]
    sodium();
}

/// `git rev-parse HEAD` in the crate's directory, and the files that change with it
/// marked for a rerun; empty when there is no git or no checkout.
fn git_commit(dir: &Path) -> String {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    let Some(commit) = git(&["rev-parse", "HEAD"]) else {
        return String::new();
    };
    // HEAD itself (a checkout of another branch), the branch it points at (a commit),
    // and packed-refs (where a branch's ref may live instead); paths as git resolves
    // them, so a linked worktree works too.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &name]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    commit
}

/// `name=version;…` for [`PEERS`] from the `Cargo.lock` above `dir`.
fn peer_versions(dir: &Path) -> String {
    let Some(lock) = dir
        .ancestors()
        .map(|d| d.join("Cargo.lock"))
        .find(|p| p.is_file())
    else {
        return String::new();
    };
    println!("cargo:rerun-if-changed={}", lock.display());
    let Ok(text) = std::fs::read_to_string(&lock) else {
        return String::new();
    };
    let mut found: Vec<(String, String)> = Vec::new();
    let mut name: Option<&str> = None;
    for line in text.lines() {
        let value = |key: &str| {
            line.strip_prefix(key)
                .and_then(|rest| rest.trim().strip_prefix('='))
                .map(|v| v.trim().trim_matches('"'))
        };
        if line.starts_with("[[package]]") {
            name = None;
        } else if let Some(n) = value("name") {
            name = Some(n);
        } else if let (Some(n), Some(v)) = (name, value("version"))
            && PEERS.contains(&n)
        {
            match found.iter_mut().find(|(f, _)| f == n) {
                // Two versions of one crate in the lock: both, as "a/b".
                Some((_, versions)) => {
                    versions.push('/');
                    versions.push_str(v);
                }
                None => found.push((n.to_string(), v.to_string())),
            }
        }
    }
    found
        .iter()
        .map(|(n, v)| format!("{n}={v}"))
        .collect::<Vec<_>>()
        .join(";")
}

/// Links the system's libsodium, found by pkg-config. 1.0.12 is the first release with
/// XChaCha20-Poly1305 (IETF) and `crypto_stream_xchacha20`.
#[cfg(feature = "sodium")]
fn sodium() {
    if let Err(e) = pkg_config::Config::new()
        .atleast_version("1.0.12")
        .probe("libsodium")
    {
        panic!(
            "feature `sodium` needs libsodium 1.0.12 or later and pkg-config \
             (Debian/Ubuntu: apt-get install libsodium-dev pkg-config): {e}"
        );
    }
}
