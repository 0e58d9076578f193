//! How the integration tests start the `ragged` binary.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A `Command` for the `ragged` binary under test.
///
/// When the tests run a binary built for another architecture (`scripts/cross-test`
/// runs them under QEMU user-mode), the binary cannot be executed directly: cargo's
/// target runner only wraps the test executables, not the programs they spawn. The
/// runner is then named in `RAGGED_TEST_RUNNER` (a program and its arguments, split at
/// whitespace) and put in front of the binary.
pub fn ragged_command() -> Command {
    let exe = env!("CARGO_BIN_EXE_ragged");
    let runner = std::env::var("RAGGED_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut command = Command::new(program);
            command.args(words).arg(exe);
            command
        }
        None => Command::new(exe),
    }
}

/// Runs `ragged args…` with `stdin` as its input and collects its output.
pub fn ragged(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = ragged_command()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ragged");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The child may exit early on an error; a broken pipe is then expected.
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}
