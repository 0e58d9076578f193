//! `ragged seal` and `ragged open` end to end: agreement with the library, the RFC 8439
//! §2.8.2 vector, and refusals that exit 1 with "authentication failed" and write
//! nothing to stdout.

mod common;
use common::{ragged, ragged_command};
use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::process::{Output, Stdio};

use ragged_chacha::{AeadKind, AnyAead};

const KEY: &str = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f";

fn args<'a>(command: &'a str, kind: AeadKind, nonce: &'a str, aad: &'a str) -> Vec<&'a str> {
    vec![
        command,
        "--aead",
        kind.name(),
        "--key",
        KEY,
        "--nonce",
        nonce,
        "--aad",
        aad,
    ]
}

fn assert_ok(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn assert_auth_failed(out: &Output, what: &str) {
    assert_eq!(out.status.code(), Some(1), "{what}: exit status");
    assert!(
        out.stdout.is_empty(),
        "{what}: wrote {} bytes",
        out.stdout.len()
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("authentication failed"),
        "{what}: stderr {err:?}"
    );
}

#[test]
fn seal_matches_the_library_and_open_reverses_it() {
    let key: [u8; 32] = hex::decode(KEY).unwrap().try_into().unwrap();
    for kind in AeadKind::ALL {
        let nonce = hex::encode(vec![0x5a; kind.nonce_len()]);
        for len in [0, 1, 64, 1420, 200_003] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let sealed = ragged(&args("seal", kind, &nonce, "a1b2c3"), &data);
            assert_ok(&sealed);
            let mut expected = data.clone();
            let tag = AnyAead::new(kind, &key)
                .encrypt_in_place_detached(
                    &hex::decode(&nonce).unwrap(),
                    &[0xa1, 0xb2, 0xc3],
                    &mut expected,
                )
                .unwrap();
            expected.extend_from_slice(&tag);
            assert!(sealed.stdout == expected, "{} {len}", kind.name());

            let opened = ragged(&args("open", kind, &nonce, "a1b2c3"), &sealed.stdout);
            assert_ok(&opened);
            assert!(opened.stdout == data, "{} {len}", kind.name());
        }
    }
}

#[test]
fn rfc8439_2_8_2_through_the_cli() {
    let plaintext = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
    let out = ragged(
        &args(
            "seal",
            AeadKind::ChaCha20Poly1305,
            "070000004041424344454647",
            "50515253c0c1c2c3c4c5c6c7",
        ),
        plaintext,
    );
    assert_ok(&out);
    assert_eq!(out.stdout.len(), plaintext.len() + 16);
    assert_eq!(
        hex::encode(&out.stdout[..16]),
        "d31a8d34648e60db7b86afbc53ef7ec2"
    );
    assert_eq!(
        hex::encode(&out.stdout[plaintext.len()..]),
        "1ae10b594f09e26a7e902ecbd0600691"
    );
}

#[test]
fn any_tampering_is_authentication_failed_with_nothing_on_stdout() {
    for kind in AeadKind::ALL {
        let nonce = hex::encode(vec![0x11; kind.nonce_len()]);
        let sealed = ragged(&args("seal", kind, &nonce, "00ff"), &[0x42; 300]).stdout;
        let open = |aad: &str, input: &[u8]| ragged(&args("open", kind, &nonce, aad), input);

        let mut body = sealed.clone();
        body[7] ^= 0x20;
        assert_auth_failed(&open("00ff", &body), "flipped ciphertext");
        let mut tag = sealed.clone();
        *tag.last_mut().unwrap() ^= 1;
        assert_auth_failed(&open("00ff", &tag), "flipped tag");
        assert_auth_failed(&open("00fe", &sealed), "other AAD");
        assert_auth_failed(&open("", &sealed), "missing AAD");
        assert_auth_failed(&open("00ff", &sealed[..sealed.len() - 1]), "truncated");
        assert_auth_failed(&open("00ff", &sealed[..15]), "shorter than a tag");
        assert_auth_failed(&open("00ff", b""), "empty input");
        assert_ok(&open("00ff", &sealed));
    }
}

#[test]
fn bad_arguments_are_one_clear_error_and_no_output() {
    let refused = |args: &[&str], message: &str| {
        let out = ragged(args, b"data");
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(out.stdout.is_empty(), "{args:?} wrote output");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(message),
            "{args:?}: stderr {err:?} lacks {message:?}"
        );
    };
    let nonce12 = "00".repeat(12);
    refused(
        &args("seal", AeadKind::XChaCha20Poly1305, &nonce12, ""),
        "nonce must be 24 bytes",
    );
    refused(
        &args("open", AeadKind::ChaCha20Poly1305, "0011", ""),
        "nonce must be 12 bytes",
    );
    refused(
        &args("seal", AeadKind::ChaCha20Poly1305, &nonce12, "zz"),
        "aad is not valid hex",
    );
    refused(
        &[
            "seal", "--aead", "aes-gcm", "--key", KEY, "--nonce", &nonce12,
        ],
        "invalid value 'aes-gcm' for '--aead <AEAD>'",
    );
    refused(
        &["seal", "--aead", "chacha20-poly1305", "--nonce", &nonce12],
        "--key",
    );
}

#[test]
fn key_file_works_for_seal_and_open() {
    let dir = std::env::temp_dir().join(format!("ragged-aead-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("raw.key");
    std::fs::write(&file, hex::decode(KEY).unwrap()).unwrap();
    let nonce = "ab".repeat(24);
    let by_arg = ragged(
        &args("seal", AeadKind::XChaCha20Poly1305, &nonce, ""),
        b"some bytes",
    );
    let with_file = |command: &str, input: &[u8]| {
        ragged(
            &[
                command,
                "--aead",
                "xchacha20-poly1305",
                "--key-file",
                file.to_str().unwrap(),
                "--nonce",
                &nonce,
            ],
            input,
        )
    };
    let by_file = with_file("seal", b"some bytes");
    assert_ok(&by_file);
    assert_eq!(by_file.stdout, by_arg.stdout);
    let opened = with_file("open", &by_file.stdout);
    assert_ok(&opened);
    assert_eq!(opened.stdout, b"some bytes");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selftest_and_info_cover_the_aeads() {
    let out = ragged(&["selftest"], b"");
    assert_ok(&out);
    let table = String::from_utf8_lossy(&out.stdout);
    for row in [
        "chacha20-poly1305",
        "xchacha20-poly1305",
        "one-time key",
        "poly1305 (",
    ] {
        assert!(table.contains(row), "selftest lacks {row:?}:\n{table}");
    }
    assert!(!table.contains("FAIL"));
    let info = String::from_utf8_lossy(&ragged(&["info"], b"").stdout).into_owned();
    assert!(
        info.contains("poly1305    backend") && info.contains("xchacha20-poly1305"),
        "{info}"
    );
}

/// The longest message: 1 GiB (`seal`'s limit; `open` takes it and the tag).
const MAX_MESSAGE: u64 = 1 << 30;

/// A file in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    /// A new empty file named after `name`, open for reading and writing.
    fn new(name: &str) -> (TempFile, File) {
        let path =
            std::env::temp_dir().join(format!("ragged-aead-cli-{}-{name}", std::process::id()));
        let file = File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        (TempFile(path), file)
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Runs `ragged args…` with `file` as stdin: the child shares the file's offset, so
/// the offset afterwards shows how much it read.
fn ragged_reading(args: &[&str], file: &File) -> Output {
    ragged_command()
        .args(args)
        .stdin(Stdio::from(file.try_clone().unwrap()))
        .output()
        .unwrap()
}

#[test]
fn a_regular_file_past_the_limit_is_refused_before_it_is_read() {
    let nonce = "00".repeat(12);
    let kind = AeadKind::ChaCha20Poly1305;
    // Sparse files: their length is all that matters, and it costs no disk.
    for (command, len, message) in [
        (
            "seal",
            MAX_MESSAGE + 1,
            "ragged: message larger than 1024 MiB: seal and open hold the whole message in memory\n",
        ),
        (
            "open",
            MAX_MESSAGE + 17,
            "ragged: input larger than a message of 1024 MiB and its 16-byte tag: seal and open hold the whole message in memory\n",
        ),
    ] {
        let (_temp, file) = TempFile::new(command);
        file.set_len(len).unwrap();
        let out = ragged_reading(&args(command, kind, &nonce, ""), &file);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message, "{command}");
        let mut file = file;
        assert_eq!(
            file.stream_position().unwrap(),
            0,
            "{command} read its input"
        );
    }
}

#[test]
fn a_regular_file_on_stdin_seals_and_opens_from_its_offset() {
    let nonce = "00".repeat(12);
    let kind = AeadKind::ChaCha20Poly1305;
    let data: Vec<u8> = (0..100_003u32).map(|i| (i * 11) as u8).collect();
    let by_pipe = ragged(&args("seal", kind, &nonce, "aa"), &data);
    assert_ok(&by_pipe);

    // Ten bytes of something else first, already read by someone: the message is what
    // is left from the offset.
    let (_plain, mut file) = TempFile::new("plain");
    file.write_all(b"0123456789").unwrap();
    file.write_all(&data).unwrap();
    file.seek(SeekFrom::Start(10)).unwrap();
    let by_file = ragged_reading(&args("seal", kind, &nonce, "aa"), &file);
    assert_ok(&by_file);
    assert!(by_file.stdout == by_pipe.stdout);

    let (_sealed, mut file) = TempFile::new("sealed");
    file.write_all(&by_file.stdout).unwrap();
    file.seek(SeekFrom::Start(0)).unwrap();
    let opened = ragged_reading(&args("open", kind, &nonce, "aa"), &file);
    assert_ok(&opened);
    assert!(opened.stdout == data);
}
