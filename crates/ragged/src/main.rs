//! `ragged`: keystream XOR of stdin, a self-test of every backend, CPU info, and the
//! side-by-side benchmark against the peers.

mod info;
mod keys;
mod out;
mod seal;
mod selftest;
mod speed;
mod xor;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ragged_chacha::{AeadKind, CipherKind};
use zeroize::Zeroizing;

#[derive(Parser)]
#[command(
    name = "ragged",
    version,
    about = "Byte-stream kernels that stay fast on ragged lengths"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// XOR stdin with a ChaCha keystream and write the result to stdout (encrypts and
    /// decrypts alike), streaming in fixed-size chunks.
    Xor {
        /// The cipher.
        #[arg(long, value_parser = parse_cipher)]
        cipher: CipherKind,
        #[command(flatten)]
        key: KeyArgs,
        /// The nonce in hex: 12 bytes (chacha20/12/8), 8 (chacha20-legacy) or 24 (xchacha).
        #[arg(long)]
        nonce: String,
        /// The starting block counter: at most the cipher's last block, 2^32 - 1 for
        /// the 12-byte-nonce ciphers, 2^64 - 1 for chacha20-legacy and xchacha.
        // u128, so that a start past a 64-bit counter's end is refused with the same
        // message as one past a 32-bit counter's, not as a number too large to parse.
        #[arg(long, default_value_t = 0)]
        counter: u128,
    },
    /// Encrypt and authenticate stdin with an AEAD; stdout gets the ciphertext followed
    /// by the 16-byte tag. The whole message is held in memory (at most 1 GiB).
    Seal(AeadArgs),
    /// Check and decrypt stdin (ciphertext followed by the 16-byte tag); stdout gets
    /// the plaintext. On any mismatch: exit status 1, "authentication failed" on
    /// stderr, and nothing on stdout. The whole message is held in memory (at most 1 GiB,
    /// so the input is at most 1 GiB and the tag: whatever seal wrote).
    Open(AeadArgs),
    /// Run the known-answer vectors on every backend this CPU has; exit 1 on any failure.
    Selftest,
    /// Show the CPU features seen, the backend chosen for each primitive, and versions.
    Info,
    /// Time ragged against its peers in one run, interleaved; MB/s per size and the
    /// ratio to the best peer.
    Speed(speed::SpeedArgs),
}

/// The key, inline or from a file: the same two flags for `xor`, `seal` and `open`.
#[derive(clap::Args)]
struct KeyArgs {
    /// The 32-byte key as 64 hex digits.
    #[arg(
        long,
        required_unless_present = "key_file",
        conflicts_with = "key_file"
    )]
    key: Option<String>,
    /// A file holding the key: 32 raw bytes, or 64 hex digits.
    #[arg(long)]
    key_file: Option<PathBuf>,
}

/// The arguments `seal` and `open` share.
#[derive(clap::Args)]
struct AeadArgs {
    /// The AEAD: chacha20-poly1305 or xchacha20-poly1305.
    #[arg(long, value_parser = parse_aead)]
    aead: AeadKind,
    #[command(flatten)]
    key: KeyArgs,
    /// The nonce in hex: 12 bytes (chacha20-poly1305) or 24 (xchacha20-poly1305).
    /// Never seal two messages with the same key and nonce.
    #[arg(long)]
    nonce: String,
    /// Associated data in hex: authenticated, not encrypted, not output.
    #[arg(long, default_value = "")]
    aad: String,
}

impl AeadArgs {
    /// Parses the key, nonce and AAD and runs `f` with them.
    fn run(self, f: seal::Run) -> Result<(), String> {
        let (key, nonce) = self.key.load(&self.nonce)?;
        let aad = keys::hex_arg("aad", &self.aad)?;
        f(self.aead, &key, &nonce, &aad)
    }
}

impl KeyArgs {
    /// The key, and `nonce_hex` decoded (see [`keys::load`]).
    fn load(&self, nonce_hex: &str) -> Result<(Zeroizing<[u8; 32]>, Vec<u8>), String> {
        keys::load(self.key.as_deref(), self.key_file.as_deref(), nonce_hex)
    }
}

fn parse_aead(name: &str) -> Result<AeadKind, String> {
    AeadKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = AeadKind::ALL.iter().map(|a| a.name()).collect();
        format!("unknown AEAD '{name}' (one of: {})", names.join(", "))
    })
}

fn parse_cipher(name: &str) -> Result<CipherKind, String> {
    CipherKind::from_name(name).ok_or_else(|| {
        let names: Vec<_> = CipherKind::ALL.iter().map(|c| c.name()).collect();
        format!("unknown cipher '{name}' (one of: {})", names.join(", "))
    })
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    let result = match cli.command {
        Command::Xor {
            cipher,
            key,
            nonce,
            counter,
        } => key
            .load(&nonce)
            .and_then(|(key, nonce)| xor::run(cipher, &key, &nonce, counter)),
        Command::Seal(args) => args.run(seal::seal),
        Command::Open(args) => args.run(seal::open),
        Command::Selftest => selftest::run(),
        Command::Info => info::run(),
        Command::Speed(args) => speed::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

/// Says `message` on stderr, as `ragged: …`, and gives exit status 1. When stderr
/// cannot take the message either, the status is all that is left: exit 1 quietly.
fn fail(message: &str) -> ExitCode {
    let _ = writeln!(io::stderr(), "ragged: {message}");
    ExitCode::FAILURE
}

/// What `Cli::parse` does with what clap reports instead of a command line (help,
/// version, a usage error), except that a failed write is not swallowed: clap's own
/// exit ignores it, so `ragged --help > /dev/full` would exit 0 having shown nothing.
/// Help and version go to stdout, and failing to write them is the CLI's usual error
/// (exit 1); a usage error goes to stderr with status 2, which stays 2 if stderr fails
/// too, as there is nowhere left to say more.
fn clap_exit(e: &clap::Error) -> ExitCode {
    match e.print().and_then(|()| io::stdout().flush()) {
        Err(write) if !e.use_stderr() => fail(&format!("writing stdout: {write}")),
        _ => ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1)),
    }
}

/// Rust ignores SIGPIPE, so a closed stdout would make every write fail with EPIPE and
/// the CLI report an error; a command-line tool should instead end quietly when its
/// reader goes away (`ragged speed | head`).
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at the start of `main`, before any other thread exists;
    // setting a signal's action to its default has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
