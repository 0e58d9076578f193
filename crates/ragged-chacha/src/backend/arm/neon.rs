//! The NEON entry points on 32-bit Arm, the same three as every backend's:
//! [`xor_keystream`] drives the [`asm`](super::asm) kernels over a message; [`seal`]
//! and [`open`] are the AEAD in two passes ([`two_pass`]), since no kernel here runs
//! Poly1305 between its rounds.

use super::asm::{Frame, batch_rows, batch4};
use crate::backend::generic;
use crate::backend::two_pass;
use crate::state::State;

/// Bytes in one 4-block batch.
const BATCH: usize = 256;

/// XORs keystream blocks `counter, counter + 1, …` into `len` bytes: 4-block batches
/// while more than one batch remains, then the rest (1 ..= 256 bytes) as one batch —
/// in the row form if it is one or two blocks, else a 4-block one — with its partial
/// vector finished over the message's last 16 bytes. Only a message shorter than 16
/// bytes goes through a 16-byte buffer.
///
/// # Safety
/// The CPU has NEON; `input` is readable and `output` writable for `len` bytes, equal
/// or disjoint.
pub(crate) unsafe fn xor_keystream(
    state: &State,
    counter: u64,
    input: *const u8,
    output: *mut u8,
    len: usize,
) {
    if len == 0 {
        return;
    }
    let rounds = state.double_rounds;
    if rounds == 0 {
        // The asm kernels run at least one double round (their loops test at the
        // bottom): a 0-round variant takes the generic path.
        // SAFETY: forwarded; the same contract.
        unsafe { generic::no_rounds(state, counter, input, output, len) };
        return;
    }
    let w = &state.words;
    let mut frame = Frame::new(w);
    // SAFETY: the CPU has NEON (caller). Every kernel call gets its own range of the
    // message (at most 256 bytes, at most 128 for the row form) and the frame filled
    // for its blocks; a partial last vector's window (the message's last 16 bytes)
    // lies in the message because the message is at least 16 bytes long, and the part
    // of it before the last call's range was written, final, by the earlier calls.
    // A shorter message runs the kernel on a 16-byte buffer of our own.
    unsafe {
        if len < 16 {
            let mut buf = [0u8; 16];
            core::ptr::copy_nonoverlapping(input, buf.as_mut_ptr(), len);
            set_rows(&mut frame, w, counter);
            batch_rows(&mut frame, buf.as_ptr(), buf.as_mut_ptr(), 16, rounds);
            core::ptr::copy_nonoverlapping(buf.as_ptr(), output, len);
            core::ptr::write_volatile(&mut buf, [0; 16]);
        } else {
            let mut done = 0;
            let mut counter = counter;
            set_columns_tail(&mut frame, w);
            while len - done > BATCH {
                set_columns(&mut frame, w[13], counter);
                batch4(&mut frame, input.add(done), output.add(done), BATCH, rounds);
                done += BATCH;
                counter = counter.wrapping_add(4);
            }
            let (i, o, rest) = (input.add(done), output.add(done), len - done);
            if rest <= 128 {
                set_rows(&mut frame, w, counter);
                batch_rows(&mut frame, i, o, rest, rounds);
            } else {
                set_columns(&mut frame, w[13], counter);
                batch4(&mut frame, i, o, rest, rounds);
            }
        }
    }
    // The frame held the key words and keystream.
    frame.wipe();
}

/// [`batch4`]'s words 20 and 21: state words 14 and 15.
#[inline(always)]
fn set_columns_tail(frame: &mut Frame, w: &[u32; 16]) {
    frame.input[20] = w[14];
    frame.input[21] = w[15];
}

/// [`batch4`]'s words 12..20 for blocks `counter .. counter + 4`: word 12 of each
/// block (the low half of its counter), then word 13 (`word13` plus the high half: the
/// 64-bit counter's carry).
#[inline(always)]
fn set_columns(frame: &mut Frame, word13: u32, counter: u64) {
    for i in 0..4 {
        let block = counter.wrapping_add(i as u64);
        frame.input[12 + i] = block as u32;
        frame.input[16 + i] = word13.wrapping_add((block >> 32) as u32);
    }
}

/// [`batch_rows`]'s words 12..20: row d (words 12..16) of blocks `counter` and
/// `counter + 1`.
#[inline(always)]
fn set_rows(frame: &mut Frame, w: &[u32; 16], counter: u64) {
    for i in 0..2 {
        let block = counter.wrapping_add(i as u64);
        let row = 12 + 4 * i;
        frame.input[row] = block as u32;
        frame.input[row + 1] = w[13].wrapping_add((block >> 32) as u32);
        frame.input[row + 2] = w[14];
        frame.input[row + 3] = w[15];
    }
}

two_pass::entry_points!();
