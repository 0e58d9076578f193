//! How the integration tests start the `ragged` binary.

use std::process::Command;

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
