//! The `ragged` binary end to end: xor against the library, streaming, and errors that
//! write nothing to stdout.

use ragged_chacha::{AnyCipher, Backend, CipherKind};

mod common;
use common::ragged;

const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

#[test]
fn xor_matches_the_library_for_every_cipher_across_chunks() {
    // Larger than the 64 KiB chunk and not a multiple of it or of 64.
    let data: Vec<u8> = (0..200_003u32).map(|i| (i * 7) as u8).collect();
    let key: [u8; 32] = hex::decode(KEY).unwrap().try_into().unwrap();
    for kind in CipherKind::ALL {
        let nonce = vec![0x4a; kind.nonce_len()];
        let out = ragged(
            &[
                "xor",
                "--cipher",
                kind.name(),
                "--key",
                KEY,
                "--nonce",
                &hex::encode(&nonce),
                "--counter",
                "3",
            ],
            &data,
        );
        assert!(
            out.status.success(),
            "{}: {}",
            kind.name(),
            String::from_utf8_lossy(&out.stderr)
        );
        let mut expected = data.clone();
        AnyCipher::new(kind, &key, &nonce, 3)
            .unwrap()
            .try_apply_keystream(&mut expected)
            .unwrap();
        assert_eq!(out.stdout, expected, "{}", kind.name());
    }
}

#[test]
fn rfc8439_2_4_2_through_the_cli() {
    let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let out = ragged(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key",
            KEY,
            "--nonce",
            "000000000000004a00000000",
            "--counter",
            "1",
        ],
        plaintext,
    );
    assert!(out.status.success());
    assert_eq!(
        hex::encode(&out.stdout[..16]),
        "6e2e359a2568f98041ba0728dd0d6981"
    );
}

#[test]
fn key_file_raw_and_hex() {
    let dir = std::env::temp_dir().join(format!("ragged-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let raw = dir.join("raw.key");
    let text = dir.join("hex.key");
    std::fs::write(&raw, hex::decode(KEY).unwrap()).unwrap();
    std::fs::write(&text, format!("{KEY}\n")).unwrap();
    let by_arg = ragged(
        &[
            "xor",
            "--cipher",
            "xchacha20",
            "--key",
            KEY,
            "--nonce",
            &"11".repeat(24),
        ],
        b"some bytes",
    );
    for file in [&raw, &text] {
        let by_file = ragged(
            &[
                "xor",
                "--cipher",
                "xchacha20",
                "--key-file",
                file.to_str().unwrap(),
                "--nonce",
                &"11".repeat(24),
            ],
            b"some bytes",
        );
        assert!(by_file.status.success());
        assert_eq!(by_file.stdout, by_arg.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

fn assert_refused(args: &[&str], stdin: &[u8], message: &str) {
    let out = ragged(args, stdin);
    assert!(!out.status.success(), "{args:?} succeeded");
    assert!(
        out.stdout.is_empty(),
        "{args:?} wrote {} bytes",
        out.stdout.len()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(message),
        "{args:?}: stderr {err:?} lacks {message:?}"
    );
}

#[test]
fn bad_input_is_one_clear_error_and_no_output() {
    let nonce = "00".repeat(12);
    assert_refused(
        &[
            "xor", "--cipher", "chacha20", "--key", "xyz", "--nonce", &nonce,
        ],
        b"x",
        "not valid hex",
    );
    assert_refused(
        &[
            "xor", "--cipher", "chacha20", "--key", "0011", "--nonce", &nonce,
        ],
        b"x",
        "key must be 32 bytes",
    );
    assert_refused(
        &[
            "xor", "--cipher", "chacha20", "--key", KEY, "--nonce", "0011",
        ],
        b"x",
        "nonce must be 12 bytes",
    );
    assert_refused(
        &[
            "xor", "--cipher", "chacha9", "--key", KEY, "--nonce", &nonce,
        ],
        b"x",
        "invalid value 'chacha9' for '--cipher <CIPHER>'",
    );
    assert_refused(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key-file",
            "/nonexistent/key",
            "--nonce",
            &nonce,
        ],
        b"x",
        "cannot read key file",
    );
    assert_refused(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key",
            KEY,
            "--nonce",
            &nonce,
            "--counter",
            "4294967297",
        ],
        b"x",
        "counter 4294967297 is beyond the end of the chacha20 keystream (its last block is 4294967295)",
    );
}

#[test]
fn exhausted_keystream_writes_nothing_for_the_failing_chunk() {
    let nonce = "00".repeat(12);
    // From the last block, 64 bytes are fine…
    let ok = ragged(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key",
            KEY,
            "--nonce",
            &nonce,
            "--counter",
            "4294967295",
        ],
        &[0u8; 64],
    );
    assert!(ok.status.success());
    assert_eq!(ok.stdout.len(), 64);
    // …65 are refused, and the chunk holding them is not written.
    assert_refused(
        &[
            "xor",
            "--cipher",
            "chacha20",
            "--key",
            KEY,
            "--nonce",
            &nonce,
            "--counter",
            "4294967295",
        ],
        &[0u8; 65],
        "keystream exhausted",
    );
}

/// `ragged xor --cipher KIND --counter COUNTER` with an all-`0x11` nonce.
fn xor_from<'a>(kind: CipherKind, nonce: &'a str, counter: &'a str) -> [&'a str; 9] {
    [
        "xor",
        "--cipher",
        kind.name(),
        "--key",
        KEY,
        "--nonce",
        nonce,
        "--counter",
        counter,
    ]
}

#[test]
fn a_start_past_the_last_block_is_refused_up_front_whatever_the_input() {
    // One past the last block, and further: the same message, for every input length
    // (an empty input too: the refusal comes before anything is read).
    let ends = [
        (CipherKind::ChaCha20, "4294967296", "4294967295"),
        (CipherKind::ChaCha20, "4294967297", "4294967295"),
        (CipherKind::ChaCha8, "4294967296", "4294967295"),
        (CipherKind::ChaCha20, "18446744073709551616", "4294967295"),
        (
            CipherKind::ChaCha20Legacy,
            "18446744073709551616",
            "18446744073709551615",
        ),
        (
            CipherKind::XChaCha20,
            "18446744073709551616",
            "18446744073709551615",
        ),
        (
            CipherKind::XChaCha12,
            "340282366920938463463374607431768211455",
            "18446744073709551615",
        ),
    ];
    for (kind, counter, last) in ends {
        let nonce = "11".repeat(kind.nonce_len());
        let message = format!(
            "ragged: counter {counter} is beyond the end of the {} keystream (its last block is {last})\n",
            kind.name()
        );
        for len in [0, 1, 64, 65] {
            let out = ragged(&xor_from(kind, &nonce, counter), &vec![0u8; len]);
            assert_eq!(
                out.status.code(),
                Some(1),
                "{} {counter} {len}",
                kind.name()
            );
            assert!(out.stdout.is_empty(), "{} {counter} {len}", kind.name());
            assert_eq!(
                String::from_utf8_lossy(&out.stderr),
                message,
                "{} {counter}, {len} bytes",
                kind.name()
            );
        }
    }
}

#[test]
fn the_last_block_itself_is_usable_on_both_counter_widths() {
    for (kind, last) in [
        (CipherKind::ChaCha20, "4294967295"),
        (CipherKind::ChaCha20Legacy, "18446744073709551615"),
        (CipherKind::XChaCha20, "18446744073709551615"),
    ] {
        let nonce = "11".repeat(kind.nonce_len());
        for len in [0, 1, 64] {
            let out = ragged(&xor_from(kind, &nonce, last), &vec![0u8; len]);
            assert!(
                out.status.success(),
                "{} {last} {len}: {}",
                kind.name(),
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(out.stdout.len(), len, "{} {last}", kind.name());
        }
        // A byte past the last block is the exhausted keystream, as before.
        assert_refused(
            &xor_from(kind, &nonce, last),
            &[0u8; 65],
            "keystream exhausted",
        );
    }
}

#[test]
fn selftest_and_info_succeed() {
    let out = ragged(&["selftest"], b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("chacha20") && !table.contains("FAIL"));
    // The table's header names every backend this CPU has (NEON under QEMU on aarch64
    // and armv7, too): the binary sees what the library sees.
    let header = table.lines().next().unwrap_or_default();
    for backend in Backend::available() {
        assert!(
            header.split_whitespace().any(|w| w == backend.name()),
            "selftest ran without {}: {header}",
            backend.name()
        );
    }
    let info = ragged(&["info"], b"");
    assert!(info.status.success());
    let info = String::from_utf8_lossy(&info.stdout);
    let chosen = format!("backend {} ", Backend::detect().name());
    assert!(info.contains(&chosen), "{info}");
}
