//! What `--help` and `info` tell a user, and the exit status contract: 0 success, 1 a
//! command that ran and failed, 2 a command line refused before anything ran (an
//! unknown cipher, AEAD or primitive name included).

mod common;
use common::ragged;
use ragged_chacha::{AeadKind, CipherKind};

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// stdout of `ragged args…`, which must succeed.
fn help(args: &[&str]) -> String {
    let out = ragged(args, b"");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The help text of one option: from its line up to the next option's.
fn option_help<'a>(text: &'a str, option: &str) -> &'a str {
    let start = text
        .find(&format!("  {option} "))
        .unwrap_or_else(|| panic!("no {option} in {text}"));
    let rest = &text[start + option.len() + 2..];
    let end = rest.find("\n      --").unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn xor_help_lists_every_cipher_name() {
    let text = help(&["xor", "--help"]);
    let cipher = option_help(&text, "--cipher");
    for kind in CipherKind::ALL {
        assert!(
            cipher.contains(kind.name()),
            "{} missing: {cipher}",
            kind.name()
        );
    }
}

#[test]
fn seal_and_open_help_list_the_aeads_and_only_seal_warns_about_nonces() {
    let seal = help(&["seal", "--help"]);
    let open = help(&["open", "--help"]);
    for text in [&seal, &open] {
        let aead = option_help(text, "--aead");
        for kind in AeadKind::ALL {
            assert!(aead.contains(kind.name()), "{aead}");
        }
    }
    assert!(option_help(&seal, "--nonce").contains("Never seal two messages"));
    assert!(!open.contains("Never seal"), "{open}");
    assert!(option_help(&open, "--nonce").contains("sealed with"));
}

#[test]
fn counter_help_says_a_block_is_64_bytes() {
    let text = help(&["xor", "--help"]);
    assert!(
        option_help(&text, "--counter").contains("64 bytes"),
        "{text}"
    );
}

#[test]
fn key_help_warns_about_ps_and_points_to_key_file() {
    for sub in ["xor", "seal", "open"] {
        let text = help(&[sub, "--help"]);
        let key = option_help(&text, "--key");
        assert!(
            key.contains("`ps`") && key.contains("--key-file"),
            "{sub}: {key}"
        );
    }
}

#[test]
fn a_missing_key_names_both_ways_to_give_one() {
    let nonce = "00".repeat(12);
    for args in [
        &["xor", "--cipher", "chacha20", "--nonce", &nonce][..],
        &["seal", "--aead", "chacha20-poly1305", "--nonce", &nonce],
        &["open", "--aead", "chacha20-poly1305", "--nonce", &nonce],
    ] {
        let out = ragged(args, b"x");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        let usage = err
            .lines()
            .find(|l| l.starts_with("Usage: "))
            .unwrap_or_else(|| panic!("no usage line: {err}"));
        assert!(
            usage.contains("--key <HEX>") && usage.contains("--key-file <PATH>"),
            "{usage}"
        );
    }
}

#[test]
fn both_key_flags_at_once_are_refused() {
    let out = ragged(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key",
            KEY,
            "--key-file",
            "/dev/null",
            "--nonce",
            &"00".repeat(12),
        ],
        b"x",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

/// Exit status 2, clap's `error: …` first and nothing on stdout, for names that are not
/// in the lists; 1 with one `ragged: …` line for a command that ran and failed.
#[test]
fn exit_status_contract() {
    let nonce = "00".repeat(12);
    let usage_errors: [&[&str]; 5] = [
        &[
            "xor", "--cipher", "chacha9", "--key", KEY, "--nonce", &nonce,
        ],
        &["seal", "--aead", "aes-gcm", "--key", KEY, "--nonce", &nonce],
        &["open", "--aead", "aes-gcm", "--key", KEY, "--nonce", &nonce],
        &["speed", "nosuchprimitive"],
        &["nosuchcommand"],
    ];
    for args in usage_errors {
        let out = ragged(args, b"x");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
    let failures: [&[&str]; 2] = [
        &[
            "xor", "--cipher", "chacha20", "--key", "xyz", "--nonce", &nonce,
        ],
        &[
            "open",
            "--aead",
            "chacha20-poly1305",
            "--key",
            KEY,
            "--nonce",
            &nonce,
        ],
    ];
    for args in failures {
        let out = ragged(args, b"not a sealed message");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.starts_with("ragged: ") && err.lines().count() == 1,
            "{err}"
        );
    }
    // The contract is written where a user finds it.
    for args in [&["--help"][..], &["xor", "--help"], &["seal", "--help"]] {
        let text = help(args);
        assert!(
            text.contains("Exit status:") && text.contains("2  the command line was refused"),
            "{args:?}: {text}"
        );
    }
}

#[test]
fn info_lists_the_optional_features_and_the_peers_versions() {
    let text = help(&["info"]);
    let build = text
        .lines()
        .find(|l| l.starts_with("build "))
        .unwrap_or_else(|| panic!("no build line: {text}"));
    for (feature, built) in [
        ("openssl", cfg!(feature = "openssl")),
        ("sodium", cfg!(feature = "sodium")),
    ] {
        assert!(build.contains(feature), "{build}");
        let not_built = build
            .split_once("not built in:")
            .is_some_and(|(_, rest)| rest.contains(feature));
        assert_eq!(not_built, !built, "{build}");
    }
    let peer = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().take(2).eq(["peer", name]))
            .unwrap_or_else(|| panic!("no {name} peer line: {text}"))
    };
    assert!(peer("rustcrypto").contains("chacha20 0."), "{text}");
    assert!(peer("ring").contains("0."), "{text}");
    if cfg!(feature = "openssl") {
        assert!(peer("openssl").contains("OpenSSL"), "{text}");
    } else {
        assert!(peer("openssl").contains("cargo feature openssl"), "{text}");
    }
    if cfg!(feature = "sodium") {
        assert!(peer("libsodium").contains("1."), "{text}");
    } else {
        assert!(peer("libsodium").contains("cargo feature sodium"), "{text}");
    }
}
