//! The CLI never panics. Random argument vectors (the real subcommands and flags mixed
//! with junk), malformed hex, empty, closed and large stdin, and a closed, full
//! (`/dev/full`) or null stdout must each end in a clean exit status, with a one-line
//! message on stderr on failure. Every subcommand is also run with stdout on
//! `/dev/full`, where it must report the failed write, and with stdin and stdout
//! closed; and with stderr on `/dev/full`, where the message itself cannot be written.
//!
//! Clean outcomes, and why:
//! - exit 0;
//! - exit 1 with `ragged: <what is wrong>` as the last line on stderr (main's errors;
//!   usually the only line, but `speed --json -` puts its tables on stderr first);
//! - exit 2 with a first line `error: <what is wrong>` on stderr: clap's usage errors,
//!   which go on to print a usage hint, so they are not one line, but their first is;
//!   or, for no subcommand at all, clap's help on stderr, which is what `ragged` alone
//!   is meant to show;
//! - death by SIGPIPE, only when stdout is a pipe nobody reads: `main` restores the
//!   default SIGPIPE action on purpose, so `ragged … | head` ends quietly the way `cat`
//!   does, rather than reporting an error about a reader that has gone away;
//! - with stderr on `/dev/full`, where no message can be read: exit 0, 1 or 2 (the
//!   code is all that is left to judge), or SIGPIPE as above.
//!
//! Anything else fails the test: exit 101 or "panicked" on stderr (a panic), another
//! signal (an abort, a crash), any other code, or a run that does not end within
//! [`TIMEOUT`]. A truly closed descriptor (`<&-`, `>&-`) is not tried: the Rust runtime
//! reopens closed standard descriptors on `/dev/null` before `main`, so that is the
//! same as `Stdio::null()`, which is tried.

// Non-UTF-8 arguments and signal exit statuses are Unix notions; so is SIGPIPE.
#![cfg(unix)]

use std::ffi::OsString;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStringExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

mod common;
use common::ragged_command;

/// Longest any one run may take; the slowest legitimate one (a self-test, or seal of a
/// few MiB) takes well under a second.
const TIMEOUT: Duration = Duration::from_secs(20);

/// SIGPIPE's number, the same on every Unix this project targets.
const SIGPIPE: i32 = 13;

/// How many random argument vectors to try: about five seconds here. Under an
/// emulator (`RAGGED_TEST_RUNNER`, see `common`) every run starts QEMU, so fewer.
fn random_runs() -> usize {
    if std::env::var_os("RAGGED_TEST_RUNNER").is_some() {
        200
    } else {
        1200
    }
}

/// The seed: fixed, so every run of the test tries the same cases and a failure
/// reproduces.
const SEED: u64 = 0x5eed_0f7a_99ed;

/// A 32-byte key and nonces of every length the CLI takes, as hex.
const KEY: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
const NONCE_8: &str = "0001020304050607";
const NONCE_12: &str = "000102030405060708090a0b";
const NONCE_24: &str = "000102030405060708090a0b0c0d0e0f1011121314151617";

/// splitmix64: small, fast, and the same on every platform.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<T: Clone>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())].clone()
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

/// What the child reads.
#[derive(Clone, Debug)]
enum Input {
    /// `/dev/null`.
    Null,
    /// A pipe whose write end is closed before the child starts: immediate end of file.
    ClosedPipe,
    /// These bytes through a pipe, written by a thread while the child runs (a child
    /// that exits early breaks the pipe; the writer ignores that).
    Bytes(Vec<u8>),
}

/// Where the child writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Output {
    /// A pipe the test drains.
    Read,
    /// A pipe whose read end is closed before the child starts: every write fails.
    Closed,
    /// `/dev/full`: every write fails with "no space left on device", and no SIGPIPE
    /// comes to end the process quietly.
    Full,
    /// `/dev/null`: every write succeeds and goes nowhere (also what a closed stdout
    /// becomes, see the module docs).
    Null,
}

/// Where the child's stderr goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Errors {
    /// A pipe the test drains, so the message can be judged.
    Read,
    /// `/dev/full`: the message cannot be written either.
    Full,
}

struct Run {
    args: Vec<OsString>,
    input: Input,
    output: Output,
    errors: Errors,
}

/// `/dev/full` opened for writing, for a child's stdout or stderr.
fn dev_full() -> Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full (the test runs on Linux, or under QEMU with the host's /dev)")
        .into()
}

struct Outcome {
    status: ExitStatus,
    stderr: Vec<u8>,
}

/// Reads everything from `reader` on a thread.
fn drain(mut reader: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut data = Vec::new();
        let _ = reader.read_to_end(&mut data);
        data
    })
}

/// Runs the binary as `run` says, in `dir` (junk that lands in a file name, such as
/// `--plot -`, must not litter the source tree); `None` if it had to be killed after
/// [`TIMEOUT`].
fn execute(run: &Run, dir: &Path) -> Option<Outcome> {
    let mut command = ragged_command();
    command.args(&run.args).current_dir(dir);
    match run.errors {
        Errors::Read => command.stderr(Stdio::piped()),
        Errors::Full => command.stderr(dev_full()),
    };
    match &run.input {
        Input::Null => command.stdin(Stdio::null()),
        Input::ClosedPipe => {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(writer);
            command.stdin(reader)
        }
        Input::Bytes(_) => command.stdin(Stdio::piped()),
    };
    match run.output {
        Output::Read => command.stdout(Stdio::piped()),
        Output::Closed => {
            let (reader, writer) = std::io::pipe().expect("a pipe");
            drop(reader);
            command.stdout(writer)
        }
        Output::Full => command.stdout(dev_full()),
        Output::Null => command.stdout(Stdio::null()),
    };
    let mut child = command.spawn().expect("run ragged");
    // The command holds our copies of the pipe ends given to the child; close them.
    drop(command);

    let writer = match (&run.input, child.stdin.take()) {
        (Input::Bytes(data), Some(mut stdin)) => {
            let data = data.clone();
            Some(std::thread::spawn(move || {
                let _ = stdin.write_all(&data);
            }))
        }
        _ => None,
    };
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);

    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for ragged") {
            break Some(status);
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    if let Some(writer) = writer {
        writer.join().expect("the stdin writer");
    }
    if let Some(stdout) = stdout {
        stdout.join().expect("the stdout reader");
    }
    let stderr = stderr
        .map(|s| s.join().expect("the stderr reader"))
        .unwrap_or_default();
    status.map(|status| Outcome { status, stderr })
}

/// `Ok` for a clean outcome (see the module docs), else what was wrong with it.
fn judge(run: &Run, outcome: &Outcome) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&outcome.stderr);
    if stderr.contains("panicked") || stderr.contains("RUST_BACKTRACE") {
        return Err(format!("panicked: {}", excerpt(&stderr)));
    }
    let lines: Vec<&str> = stderr.lines().collect();
    if run.errors == Errors::Full {
        return match (outcome.status.code(), outcome.status.signal()) {
            (Some(0..=2), _) => Ok(()),
            (None, Some(SIGPIPE)) if run.output == Output::Closed => Ok(()),
            _ => Err(format!(
                "unclean end {:?} with stderr on /dev/full",
                outcome.status
            )),
        };
    }
    match (outcome.status.code(), outcome.status.signal()) {
        (Some(0), _) => Ok(()),
        (Some(1), _) => match lines.last() {
            Some(line) if line.len() > "ragged: ".len() && line.starts_with("ragged: ") => Ok(()),
            _ => Err(format!(
                "exit 1 without a one-line 'ragged: …' message last: {}",
                excerpt(&stderr)
            )),
        },
        (Some(2), _) => match lines.first() {
            Some(line) if line.len() > "error: ".len() && line.starts_with("error: ") => Ok(()),
            _ if lines.contains(&"Usage: ragged <COMMAND>") => Ok(()),
            _ => Err(format!(
                "exit 2 without an 'error: …' first line: {}",
                excerpt(&stderr)
            )),
        },
        (None, Some(SIGPIPE)) if run.output == Output::Closed => Ok(()),
        _ => Err(format!(
            "unclean end {:?}: {}",
            outcome.status,
            excerpt(&stderr)
        )),
    }
}

/// The start of `text`, enough to recognise a failure.
fn excerpt(text: &str) -> String {
    format!("{:?}", text.chars().take(400).collect::<String>())
}

/// `args` for a failure report, with long tokens abbreviated.
fn describe(args: &[OsString]) -> String {
    let shown: Vec<String> = args
        .iter()
        .map(|a| {
            let s = a.to_string_lossy();
            if s.chars().count() > 80 {
                format!(
                    "<{} bytes: {}…>",
                    a.len(),
                    s.chars().take(16).collect::<String>()
                )
            } else {
                format!("{s:?}")
            }
        })
        .collect();
    format!("[{}]", shown.join(", "))
}

/// Files the key-file and output-path flags can point at, removed when dropped.
struct Scratch {
    dir: PathBuf,
}

impl Scratch {
    /// A directory of its own for the test `name` (the tests run in parallel).
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("ragged-no-panic-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("key.raw"), [0x42; 32]).unwrap();
        std::fs::write(dir.join("key.hex"), format!("{KEY}\n")).unwrap();
        std::fs::write(dir.join("junk.bin"), [0xff, 0xfe, 0x00, 0x80].repeat(25)).unwrap();
        std::fs::write(dir.join("big.txt"), "0".repeat(100_000)).unwrap();
        Scratch { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The values each kind of flag is given: good ones first, then bad ones.
struct Pools {
    hex: Vec<OsString>,
    cipher: Vec<OsString>,
    aead: Vec<OsString>,
    counter: Vec<OsString>,
    key_file: Vec<OsString>,
    primitive: Vec<OsString>,
    sizes: Vec<OsString>,
    rounds: Vec<OsString>,
    out_path: Vec<OsString>,
    junk: Vec<OsString>,
}

fn os(items: &[&str]) -> Vec<OsString> {
    items.iter().map(OsString::from).collect()
}

impl Pools {
    fn new(scratch: &Scratch) -> Pools {
        let mut hex = os(&[
            KEY,
            NONCE_8,
            NONCE_12,
            NONCE_24,
            &KEY.to_uppercase(),
            "",
            "0",
            "abc",
            &KEY[..63],
            &KEY[..62],
            &format!("{KEY}00"),
            &"zz".repeat(32),
            &format!("0x{}", &KEY[2..]),
            &format!(" {}", &KEY[1..]),
            "00\n00",
            &"é".repeat(32),
            "🦀🦀🦀🦀",
            &"ab".repeat(50_000),
            &"a".repeat(100_001),
        ]);
        hex.push(OsString::from_vec(vec![0xff, 0xfe, 0x30, 0x30]));
        let cipher_names = [
            "chacha20",
            "chacha12",
            "chacha8",
            "chacha20-legacy",
            "xchacha20",
            "xchacha12",
            "CHACHA20",
            "chacha",
            "",
            "xchacha20-poly1305",
        ];
        let sizes = [
            "16",
            "65,1",
            "0",
            "",
            "1.5K",
            "99999999999G",
            "18446744073709551615",
            "2G",
            "x",
            "16,16",
            "-1",
            ",",
            "1K,",
        ];
        let rounds = ["1", "0", "-1", "4294967296", "x", ""];
        let mut junk = os(&[
            "",
            "-",
            "--",
            "---",
            "-x",
            "--nope",
            "=",
            "--key=",
            "--cipher=chacha20",
            "--counter=-1",
            "\u{7f}",
            "a\tb",
            "a\nb",
            "🦀",
            "-h",
            "--help",
            "-V",
            "--version",
            "help",
            "xor",
            "seal",
            "open",
        ]);
        junk.push(OsString::from_vec(vec![0xff, 0xfe]));
        junk.push(OsString::from("x".repeat(10_000)));
        Pools {
            hex,
            cipher: os(&cipher_names),
            aead: os(&[
                "chacha20-poly1305",
                "xchacha20-poly1305",
                "chacha20",
                "",
                "aes-gcm",
            ]),
            counter: os(&[
                "0",
                "1",
                "4294967295",
                "4294967296",
                "4294967297",
                "18446744073709551615",
                "18446744073709551616",
                "-1",
                "0x10",
                " 1",
                "1e3",
                "",
            ]),
            key_file: vec![
                OsString::from(scratch.path("key.raw")),
                OsString::from(scratch.path("key.hex")),
                OsString::from(scratch.path("junk.bin")),
                OsString::from(scratch.path("big.txt")),
                OsString::from(scratch.path("missing")),
                OsString::from("/dev/null"),
                OsString::from("/dev/zero"),
                OsString::from("/dev/stdin"),
                OsString::from("/"),
                OsString::from(""),
            ],
            primitive: os(&[
                "chacha20",
                "xchacha20",
                "chacha20-poly1305",
                "xchacha20-poly1305",
                "poly1305",
                "memcpy",
                "chacha8",
                "",
            ]),
            sizes: os(&sizes),
            rounds: os(&rounds),
            out_path: vec![
                OsString::from("-"),
                OsString::from(scratch.path("out.json")),
                OsString::from(scratch.path("chart.svg")),
                OsString::from("/nonexistent/dir/out"),
                OsString::from("/"),
                OsString::from(""),
            ],
            junk,
        }
    }
}

/// A subcommand's flags, each with the pool its value comes from (`None`: a switch).
fn flags<'p>(sub: &str, p: &'p Pools) -> Vec<(&'static str, Option<&'p [OsString]>)> {
    match sub {
        "xor" => vec![
            ("--cipher", Some(&p.cipher[..])),
            ("--key", Some(&p.hex[..])),
            ("--key-file", Some(&p.key_file[..])),
            ("--nonce", Some(&p.hex[..])),
            ("--counter", Some(&p.counter[..])),
        ],
        "seal" | "open" => vec![
            ("--aead", Some(&p.aead[..])),
            ("--key", Some(&p.hex[..])),
            ("--key-file", Some(&p.key_file[..])),
            ("--nonce", Some(&p.hex[..])),
            ("--aad", Some(&p.hex[..])),
        ],
        "speed" => vec![
            ("--sizes", Some(&p.sizes[..])),
            ("--rounds", Some(&p.rounds[..])),
            ("--json", Some(&p.out_path[..])),
            ("--plot", Some(&p.out_path[..])),
            ("--quick", None),
            ("--backends", None),
            ("--plot-log-y", None),
            ("--plot-linear-y", None),
        ],
        _ => Vec::new(),
    }
}

/// A value for `flag`: usually a plausible one (so runs get past parsing into the
/// commands themselves), otherwise anything from its pool.
fn value(rng: &mut Rng, flag: &str, pool: &[OsString], sub: &str) -> OsString {
    if rng.percent(85) {
        // The pools list their good values first: this many.
        let good_in_pool = match flag {
            "--cipher" => 6,
            "--aead" | "--key-file" => 2,
            "--counter" | "--json" | "--plot" => 3,
            _ => 0,
        };
        if good_in_pool > 0 {
            return rng.pick(&pool[..good_in_pool]);
        }
        let good = match (flag, sub) {
            ("--key", _) => Some(KEY.to_string()),
            ("--nonce", "xor") => Some(rng.pick(&[NONCE_8, NONCE_12, NONCE_24]).to_string()),
            ("--nonce", _) => Some(rng.pick(&[NONCE_12, NONCE_24]).to_string()),
            ("--aad", _) => Some("00ff".into()),
            ("--sizes", _) => Some("16".into()),
            ("--rounds", _) => Some("1".into()),
            _ => None,
        };
        if let Some(good) = good {
            return good.into();
        }
    }
    rng.pick(pool)
}

/// One random argument vector.
fn arguments(rng: &mut Rng, pools: &Pools) -> Vec<OsString> {
    // The self-test takes a few hundred milliseconds, so it is drawn rarely.
    let sub = if rng.percent(1) {
        "selftest"
    } else {
        rng.pick(&[
            "xor", "xor", "xor", "xor", "seal", "seal", "seal", "open", "open", "open", "speed",
            "speed", "info", "help", "",
        ])
    };
    let flags = flags(sub, pools);
    let mut args: Vec<OsString> = Vec::new();
    if !sub.is_empty() {
        args.push(sub.into());
    }
    if rng.percent(75) {
        // Nearly right: every flag once (--key and --key-file rarely both), in a random
        // order, then a few mutations.
        let mut order: Vec<usize> = (0..flags.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let skip_key_file = rng.percent(80);
        for i in order {
            let (flag, pool) = flags[i];
            if flag == "--key-file" && skip_key_file || flag == "--key" && !skip_key_file {
                continue;
            }
            args.push(flag.into());
            if let Some(pool) = pool {
                args.push(value(rng, flag, pool, sub));
            }
        }
        if sub == "speed" {
            args.insert(1, rng.pick(&pools.primitive));
        }
        let mutations = if rng.percent(65) { 0 } else { 1 + rng.below(2) };
        for _ in 0..mutations {
            let at = rng.below(args.len() + 1);
            match rng.below(3) {
                // Speed keeps its --rounds and --sizes: without them a run takes a minute.
                0 if sub != "speed" && at < args.len() => drop(args.remove(at)),
                1 if !args.is_empty() => {
                    let token = rng.pick(&args);
                    args.insert(at, token);
                }
                _ => args.insert(at, rng.pick(&pools.junk)),
            }
        }
    } else {
        // Soup: flags, values and junk in any order.
        for _ in 0..rng.below(9) {
            let token = match rng.below(3) {
                0 if !flags.is_empty() => {
                    let (flag, pool) = rng.pick(&flags);
                    match pool {
                        Some(pool) if rng.percent(70) => {
                            args.push(flag.into());
                            rng.pick(pool)
                        }
                        _ => flag.into(),
                    }
                }
                1 => rng.pick(&pools.hex),
                _ => rng.pick(&pools.junk),
            };
            args.push(token);
        }
        if sub == "speed" {
            args.extend(os(&["--rounds", "1", "--sizes", "16"]));
        }
    }
    args
}

/// Random stdin: mostly small, sometimes empty or closed, sometimes several MiB.
fn input(rng: &mut Rng) -> Input {
    match rng.below(20) {
        0..=3 => Input::Null,
        4..=6 => Input::ClosedPipe,
        7 => Input::Bytes(rng.bytes(16)),
        8 => Input::Bytes(rng.bytes(15)),
        9 => {
            let len = (3 << 20) + rng.below(2 << 20);
            Input::Bytes(rng.bytes(len))
        }
        _ => {
            let len = rng.below(200);
            Input::Bytes(rng.bytes(len))
        }
    }
}

/// `len` bytes of a fixed pattern.
fn big(len: usize) -> Input {
    Input::Bytes((0..len).map(|i| (i * 7 + 1) as u8).collect())
}

fn run(args: &[&str], input: Input, output: Output) -> Run {
    Run {
        args: os(args),
        input,
        output,
        errors: Errors::Read,
    }
}

/// A valid `xor` invocation, then `extra`.
fn xor<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "xor", "--cipher", "chacha20", "--key", KEY, "--nonce", NONCE_12,
    ];
    args.extend_from_slice(extra);
    args
}

/// A valid `seal` or `open` invocation, then `extra`.
fn aead<'a>(sub: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        sub,
        "--aead",
        "chacha20-poly1305",
        "--key",
        KEY,
        "--nonce",
        NONCE_12,
    ];
    args.extend_from_slice(extra);
    args
}

/// Hand-picked cases that must be tried whatever the random draw.
fn fixed_runs(scratch: &Scratch) -> Vec<Run> {
    let key_file = scratch.path("key.hex");
    let mut runs = vec![
        // Large input into a closed stdout, for each command that writes it.
        run(&xor(&[]), big(6 << 20), Output::Closed),
        run(&aead("seal", &[]), big(6 << 20), Output::Closed),
        run(&aead("seal", &[]), big(6 << 20), Output::Read),
        run(&aead("open", &[]), big(6 << 20), Output::Read),
        // Empty and closed input.
        run(&xor(&[]), Input::Null, Output::Read),
        run(&xor(&[]), Input::ClosedPipe, Output::Closed),
        run(&aead("seal", &[]), Input::ClosedPipe, Output::Read),
        run(&aead("open", &[]), Input::Null, Output::Read),
        run(&aead("open", &[]), big(15), Output::Read),
        run(&aead("open", &[]), big(16), Output::Closed),
        // Key files that are not keys, including an endless one.
        run(
            &[
                "xor",
                "--cipher",
                "chacha20",
                "--key-file",
                "/dev/zero",
                "--nonce",
                NONCE_12,
            ],
            big(10),
            Output::Read,
        ),
        run(
            &[
                "seal",
                "--aead",
                "chacha20-poly1305",
                "--key-file",
                &key_file,
                "--nonce",
                NONCE_12,
            ],
            big(10),
            Output::Closed,
        ),
        // Counters at and past the end of a 32-bit keystream.
        run(&xor(&["--counter", "4294967295"]), big(65), Output::Read),
        run(&xor(&["--counter", "4294967296"]), big(1), Output::Read),
        run(
            &xor(&["--counter", "18446744073709551615"]),
            big(1),
            Output::Read,
        ),
        // Commands that only write, into a closed stdout.
        run(&["info"], Input::Null, Output::Closed),
        run(&["selftest"], Input::Null, Output::Closed),
        run(&["--help"], Input::Null, Output::Closed),
        run(&["--version"], Input::Null, Output::Closed),
        run(&[], Input::Null, Output::Read),
        // speed: bad arguments, and one tiny run whose output cannot be written.
        run(
            &["speed", "--sizes", "18446744073709551615"],
            Input::Null,
            Output::Read,
        ),
        run(
            &["speed", "--sizes", "9999999999G"],
            Input::Null,
            Output::Read,
        ),
        run(&["speed", "--rounds", "0"], Input::Null, Output::Read),
        run(&["speed", "nonsense"], Input::Null, Output::Read),
        run(
            &[
                "speed", "chacha20", "--rounds", "1", "--sizes", "16", "--json", "-",
            ],
            Input::Null,
            Output::Closed,
        ),
        run(
            &[
                "speed",
                "poly1305",
                "--rounds",
                "1",
                "--sizes",
                "16",
                "--json",
                "/nonexistent/dir/out.json",
            ],
            Input::Null,
            Output::Read,
        ),
    ];
    // Every malformed hex value as key, nonce and AAD.
    let not_hex = "zz".repeat(32);
    let huge = "ab".repeat(50_000);
    let bad_hex = ["", "0", "abc", &KEY[..63], &not_hex, &huge, "🦀"];
    for bad in bad_hex {
        for which in ["--key", "--nonce", "--aad"] {
            let mut args = aead("seal", &[]);
            match args.iter().position(|a| *a == which) {
                Some(i) => args[i + 1] = bad,
                None => args.extend([which, bad]),
            }
            runs.push(run(&args, big(32), Output::Read));
        }
    }
    runs
}

#[test]
fn no_argument_vector_or_io_condition_makes_the_cli_panic() {
    let scratch = Scratch::new("random");
    let pools = Pools::new(&scratch);
    let mut rng = Rng(SEED);
    let mut runs = fixed_runs(&scratch);
    for _ in 0..random_runs() {
        let args = arguments(&mut rng, &pools);
        let input = input(&mut rng);
        let output = match rng.below(20) {
            0..=4 => Output::Closed,
            5..=6 => Output::Full,
            7 => Output::Null,
            _ => Output::Read,
        };
        let errors = if rng.percent(3) {
            Errors::Full
        } else {
            Errors::Read
        };
        runs.push(Run {
            args,
            input,
            output,
            errors,
        });
    }

    let mut failures = Vec::new();
    // How often each clean outcome happened: if the generator stopped reaching past
    // argument parsing, or never hit a closed pipe, the test would prove little.
    let (mut ok, mut refused, mut usage, mut sigpipe) = (0, 0, 0, 0);
    for run in &runs {
        let what = || {
            let input = match &run.input {
                Input::Bytes(b) => format!("{} bytes", b.len()),
                other => format!("{other:?}"),
            };
            format!(
                "{} (stdin {input}, stdout {:?}, stderr {:?})",
                describe(&run.args),
                run.output,
                run.errors
            )
        };
        let Some(outcome) = execute(run, &scratch.dir) else {
            failures.push(format!("{}: still running after {TIMEOUT:?}", what()));
            continue;
        };
        match judge(run, &outcome) {
            Ok(()) => match (outcome.status.code(), outcome.status.signal()) {
                (Some(0), _) => ok += 1,
                (Some(1), _) => refused += 1,
                (Some(2), _) => usage += 1,
                _ => sigpipe += 1,
            },
            Err(why) => failures.push(format!("{}: {why}", what())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} runs ended badly:\n{}",
        failures.len(),
        runs.len(),
        failures.join("\n")
    );
    let summary = format!(
        "{ok} succeeded, {refused} refused, {usage} usage errors, {sigpipe} ended by SIGPIPE"
    );
    eprintln!("{} runs: {summary}", runs.len());
    let share = |n: usize, percent: usize| n * 100 >= runs.len() * percent;
    assert!(
        share(ok, 5) && share(refused, 5) && share(usage, 5) && share(sigpipe, 2),
        "too little variety: {summary}"
    );
}

/// Every subcommand once, each as a valid invocation that succeeds and writes to
/// stdout when stdout is a readable pipe, with stdin giving `input`.
fn every_subcommand() -> Vec<(Vec<&'static str>, Input)> {
    let speed = vec![
        "speed", "chacha20", "poly1305", "--quick", "--rounds", "1", "--sizes", "16,64",
    ];
    vec![
        (vec!["info"], Input::Null),
        (vec!["selftest"], Input::Null),
        (speed.clone(), Input::Null),
        ([&speed[..], &["--json", "-"]].concat(), Input::Null),
        ([&speed[..], &["--plot", "-"]].concat(), Input::Null),
        (
            [&speed[..], &["--plot", "-", "--plot-log-y"]].concat(),
            Input::Null,
        ),
        (vec!["--help"], Input::Null),
        (vec!["xor", "--help"], Input::Null),
        (vec!["help", "open"], Input::Null),
        (vec!["help"], Input::Null),
        (vec!["help", "seal"], Input::Null),
        (vec!["speed", "--help"], Input::Null),
        (vec!["--version"], Input::Null),
        (vec!["-V"], Input::Null),
        (xor(&[]), big(100)),
        (aead("seal", &[]), big(100)),
        (aead("seal", &[]), Input::Null),
    ]
}

#[test]
fn every_subcommand_reports_a_full_stdout_and_takes_a_closed_one() {
    let scratch = Scratch::new("every");
    let mut failures = Vec::new();
    let mut check = |run: &Run, expect: &dyn Fn(&Outcome, &str) -> Result<(), String>| {
        let what = format!(
            "{} (stdout {:?}, stderr {:?})",
            describe(&run.args),
            run.output,
            run.errors
        );
        let Some(outcome) = execute(run, &scratch.dir) else {
            failures.push(format!("{what}: still running after {TIMEOUT:?}"));
            return;
        };
        let stderr = String::from_utf8_lossy(&outcome.stderr).into_owned();
        if let Err(why) = judge(run, &outcome).and_then(|()| expect(&outcome, &stderr)) {
            failures.push(format!("{what}: {why}"));
        }
    };
    // A sealed message, so that `open` has something to write.
    let sealed = {
        let out = common::ragged(&aead("seal", &[]), b"a message to open");
        assert!(out.status.success(), "seal for open's input");
        out.stdout
    };
    let mut commands = every_subcommand();
    commands.push((aead("open", &[]), Input::Bytes(sealed)));

    for (args, input) in commands {
        let mut full = run(&args, input.clone(), Output::Full);
        // stdout on /dev/full: the failed write is reported, never swallowed (exit 0)
        // and never a panic (exit 101).
        check(&full, &|outcome, stderr| {
            let last = stderr.lines().last().unwrap_or_default();
            if outcome.status.code() == Some(1)
                && last.starts_with("ragged: ")
                && last.contains("stdout: ")
            {
                Ok(())
            } else {
                Err(format!(
                    "expected exit 1 and 'ragged: … stdout: …', got {:?}: {}",
                    outcome.status,
                    excerpt(stderr)
                ))
            }
        });
        // stderr on /dev/full too: nothing can be said, the status still tells.
        full.errors = Errors::Full;
        check(&full, &|outcome, _| match outcome.status.code() {
            Some(1) => Ok(()),
            _ => Err(format!("expected exit 1, got {:?}", outcome.status)),
        });
        // stdin and stdout closed (see the module docs: that is /dev/null for both).
        let closed = run(&args, Input::Null, Output::Null);
        let refuses_empty_input = args[0] == "open";
        check(
            &closed,
            &|outcome, stderr| match (outcome.status.code(), refuses_empty_input) {
                (Some(0), false) => Ok(()),
                (Some(1), true) if stderr == "ragged: authentication failed\n" => Ok(()),
                _ => Err(format!(
                    "unexpected {:?}: {}",
                    outcome.status,
                    excerpt(stderr)
                )),
            },
        );
    }
    // A failure whose message cannot be written: still exit 1, quietly.
    let mut refused = run(
        &xor(&["--counter", "4294967297"]),
        Input::Null,
        Output::Read,
    );
    refused.errors = Errors::Full;
    check(&refused, &|outcome, _| match outcome.status.code() {
        Some(1) => Ok(()),
        _ => Err(format!("expected exit 1, got {:?}", outcome.status)),
    });
    assert!(
        failures.is_empty(),
        "{} runs ended badly:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
