//! The stateful stream API as a sequence of calls: the fuzz input decodes (by the same
//! decoder as the property test `stream_sequences`) into a cipher, a start and calls
//! biased toward block edges and the counter's end; every API (by name, typed,
//! RustCrypto's traits) on every backend this CPU has is driven through them, and each
//! call's bytes, refusals and positions are checked against a fresh cipher's one-shot
//! keystream and RustCrypto's `chacha20` driven through the same calls.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../crates/ragged-chacha/tests/sequence/mod.rs"]
mod sequence;

fuzz_target!(|data: &[u8]| {
    let seq = sequence::Sequence::decode(data);
    if let Err(e) = sequence::run_everywhere(&seq) {
        panic!("{e}\n{seq:?}");
    }
});
