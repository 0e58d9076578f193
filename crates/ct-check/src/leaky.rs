//! `--leaky-demo`: code that leaks a secret on purpose, to show the check is live —
//! under Valgrind memcheck must report both leaks, and `scripts/ct-check` fails if it
//! does not.

use std::hint::black_box;

use crate::memcheck::{conceal, error_count, reveal};

/// A branch on a secret byte and a table lookup indexed by one; returns how many
/// errors memcheck reported for them (0 natively).
pub fn run() -> usize {
    let before = error_count();
    let mut secret = [0u8; 2];
    secret.copy_from_slice(&crate::cases::bytes(7, 2));
    conceal(&mut secret);

    // A loop whose trip count is the secret: its exit test is a conditional jump on
    // secret data ("Conditional jump or move depends on uninitialised value(s)").
    let mut steps = 0u32;
    for _ in 0..(secret[0] & 7) {
        steps = black_box(steps + 1);
    }

    // A lookup at a secret index: the load address comes from secret data ("Use of
    // uninitialised value of size 8").
    let table: [u8; 256] = core::array::from_fn(|i| (i as u8).wrapping_mul(31));
    let mut looked_up = [black_box(&table)[usize::from(secret[1])]];

    let mut steps = steps.to_le_bytes();
    reveal(&mut steps);
    reveal(&mut looked_up);
    println!(
        "leaky demo: looped {} times, looked up {:#04x}",
        u32::from_le_bytes(steps),
        looked_up[0]
    );
    error_count() - before
}
