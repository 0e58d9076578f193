//! Proof that the AddressSanitizer run (`scripts/asan-test`, which sets
//! `--cfg ragged_asan`) can see the bug the word strategy is built to avoid: loading the
//! whole aligned word that holds a buffer's last byte. If the sanitizer were not really
//! on, or did not check partly addressable words, the ASan run of the other suites would
//! pass without proving anything; this test fails then.
//!
//! The bad read happens in a child process (this test binary run again), because
//! AddressSanitizer aborts the process that makes it.
#![cfg(ragged_asan)]

use std::process::Command;

/// Set in the child's environment: only there does the bad read run.
const CHILD: &str = "RAGGED_ASAN_CANARY_CHILD";

/// In the child only: reads the aligned 8-byte word holding the last byte of a 9-byte
/// heap buffer — 7 bytes past its end.
#[test]
fn child_reads_an_aligned_word_past_the_end() {
    if std::env::var_os(CHILD).is_none() {
        return;
    }
    let buf = vec![0xA5u8; 9].into_boxed_slice();
    let last = buf.as_ptr().wrapping_add(buf.len() - 1);
    let word = (last as usize & !7) as *const u64;
    // SAFETY: deliberately NOT sound — this is the out-of-bounds read AddressSanitizer
    // must abort on before the value is used. It runs only in the child process that
    // `asan_reports_a_word_read_past_the_end` starts under ASan; the word lies inside
    // the allocator's 16-byte granule of `buf`, so even unsanitized it cannot fault.
    let value = unsafe { word.read_volatile() };
    panic!("AddressSanitizer let an out-of-bounds read through (read {value:#x})");
}

#[test]
fn asan_reports_a_word_read_past_the_end() {
    if std::env::var_os(CHILD).is_some() {
        return;
    }
    let me = std::env::current_exe().expect("the test binary's path");
    let out = Command::new(me)
        .args(["--exact", "child_reads_an_aligned_word_past_the_end"])
        .args(["--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .expect("the test binary runs again");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "the child passed:\n{stderr}");
    assert!(
        stderr.contains("AddressSanitizer: heap-buffer-overflow"),
        "the child failed, but not by an AddressSanitizer report:\n{stderr}"
    );
}
