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

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use ragged_chacha::{AeadKind, CipherKind};
use zeroize::Zeroizing;

/// The exit status contract, shown under `ragged --help` and each subcommand's help.
const EXIT_STATUS: &str = "\
Exit status:
  0  success.
  1  the command ran and failed: a key, nonce or AAD that is not valid hex or has the
     wrong length, an unreadable key file, authentication failed (open), the keystream
     exhausted (xor), a self-test failure, an output that could not be written. One
     'ragged: ...' line on stderr.
  2  the command line was refused before anything ran: an unknown subcommand or option,
     an unknown cipher, AEAD or primitive name, a missing option, a number or size that
     does not parse. clap's 'error: ...' and a usage line on stderr.";

#[derive(Parser)]
#[command(
    name = "ragged",
    version,
    about = "Byte-stream kernels that stay fast on ragged lengths",
    after_help = EXIT_STATUS
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// XOR stdin with a ChaCha keystream and write the result to stdout (encrypts and
    /// decrypts alike), streaming in fixed-size chunks.
    #[command(after_help = EXIT_STATUS)]
    Xor {
        /// The cipher: chacha20, chacha12 and chacha8 (RFC 8439: 12-byte nonce, 32-bit
        /// block counter), chacha20-legacy (8-byte nonce, 64-bit counter), xchacha20
        /// and xchacha12 (24-byte nonce, 64-bit counter).
        #[arg(long, value_parser = cipher_parser())]
        cipher: CipherKind,
        #[command(flatten)]
        key: KeyArgs,
        /// The nonce in hex: 12 bytes (chacha20/12/8), 8 (chacha20-legacy) or 24 (xchacha).
        #[arg(long)]
        nonce: String,
        /// The starting block counter. A block is 64 bytes of keystream: counter N
        /// starts at keystream byte 64 * N. At most the cipher's last block: 2^32 - 1
        /// for the 12-byte-nonce ciphers, 2^64 - 1 for chacha20-legacy and xchacha.
        // u128, so that a start past a 64-bit counter's end is refused with the same
        // message as one past a 32-bit counter's, not as a number too large to parse.
        #[arg(long, default_value_t = 0)]
        counter: u128,
    },
    /// Encrypt and authenticate stdin with an AEAD; stdout gets the ciphertext followed
    /// by the 16-byte tag. The whole message is held in memory (at most 1 GiB).
    #[command(
        after_help = EXIT_STATUS,
        mut_arg("nonce", |a| a.help(
            "The nonce in hex: 12 bytes (chacha20-poly1305) or 24 (xchacha20-poly1305). \
             Never seal two messages with the same key and nonce: a repeated nonce \
             reveals the XOR of the plaintexts and lets the tag be forged."
        ))
    )]
    Seal(AeadArgs),
    /// Check and decrypt stdin (ciphertext followed by the 16-byte tag); stdout gets
    /// the plaintext. On any mismatch: exit status 1, "authentication failed" on
    /// stderr, and nothing on stdout. The whole message is held in memory (at most 1 GiB,
    /// so the input is at most 1 GiB and the tag: whatever seal wrote).
    #[command(after_help = EXIT_STATUS)]
    Open(AeadArgs),
    /// Run the known-answer vectors on every backend this CPU has; exit 1 on any failure.
    Selftest,
    /// Show the CPU features seen, the backend chosen for each primitive, the optional
    /// features this build has (the speed peers openssl and sodium), and the versions
    /// of ragged and of the peers' libraries.
    Info,
    /// Time ragged against its peers in one run, interleaved; MB/s per size and the
    /// ratio to the best peer.
    Speed(speed::SpeedArgs),
}

/// The key, inline or from a file: the same two flags for `xor`, `seal` and `open`,
/// one of them required (the usage line shows both).
#[derive(clap::Args)]
#[group(required = true, multiple = false)]
struct KeyArgs {
    /// The 32-byte key as 64 hex digits. A command-line argument is visible to other
    /// users of this machine (in `ps`, /proc/PID/cmdline) and may land in the shell's
    /// history: prefer --key-file.
    #[arg(long, value_name = "HEX")]
    key: Option<String>,
    /// A file holding the key: 32 raw bytes, or 64 hex digits (surrounding whitespace
    /// ignored).
    #[arg(long, value_name = "PATH")]
    key_file: Option<PathBuf>,
}

/// The arguments `seal` and `open` share.
#[derive(clap::Args)]
struct AeadArgs {
    /// The AEAD: chacha20-poly1305 (12-byte nonce) or xchacha20-poly1305 (24-byte).
    #[arg(long, value_parser = aead_parser())]
    aead: AeadKind,
    #[command(flatten)]
    key: KeyArgs,
    /// The nonce in hex: 12 bytes (chacha20-poly1305) or 24 (xchacha20-poly1305), the
    /// one the message was sealed with.
    // `seal` replaces this help with its own, which adds the nonce-reuse warning.
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

/// `--aead`: one of the AEAD names, which `--help` lists; another is a usage error
/// (exit status 2).
fn aead_parser() -> impl clap::builder::TypedValueParser<Value = AeadKind> {
    let names: Vec<&'static str> = AeadKind::ALL.iter().map(|a| a.name()).collect();
    PossibleValuesParser::new(names)
        .map(|name| AeadKind::from_name(&name).expect("one of the listed names"))
}

/// `--cipher`: one of the cipher names, which `--help` lists; another is a usage error
/// (exit status 2).
fn cipher_parser() -> impl clap::builder::TypedValueParser<Value = CipherKind> {
    let names: Vec<&'static str> = CipherKind::ALL.iter().map(|c| c.name()).collect();
    PossibleValuesParser::new(names)
        .map(|name| CipherKind::from_name(&name).expect("one of the listed names"))
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
