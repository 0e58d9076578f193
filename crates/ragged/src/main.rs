//! `ragged`: keystream XOR of stdin, a self-test of every backend, CPU info, and the
//! side-by-side benchmark against the peers.

mod info;
mod keys;
mod seal;
mod selftest;
mod speed;
mod xor;

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
    /// stderr, and nothing on stdout. The whole message is held in memory (at most 1 GiB).
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
    let cli = Cli::parse();
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
        Command::Selftest => return selftest::run(),
        Command::Info => {
            info::run();
            Ok(())
        }
        Command::Speed(args) => speed::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("ragged: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, so a closed stdout makes `println!` panic; a command-line tool
/// should instead end quietly when its reader goes away (`ragged speed | head`).
fn restore_default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called once at the start of `main`, before any other thread exists;
    // setting a signal's action to its default has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
