//! Valgrind client requests, written out for x86-64 (no C compiler, no headers).
//!
//! A client request is a marker instruction sequence that does nothing on a real CPU
//! and that Valgrind's core recognises while translating: rotate `rdi` by 3, 13, 61
//! and 51 bits (128 in all, so back where it was), then `xchg rbx, rbx`. `rax` points
//! to six words — the request number and five arguments — and the answer comes back
//! in `rdx`, which keeps the caller's default when no Valgrind is there. The numbers
//! below are the ones `valgrind.h` and `memcheck.h` (Debian package `valgrind`) define.
//!
//! Elsewhere than x86-64 every request answers its default, so the program still
//! builds and runs (it then reports that it is not under Valgrind).

/// Memcheck's requests are numbered up from `'M' 'C'` in the top two bytes.
const MEMCHECK_BASE: usize = (b'M' as usize) << 24 | (b'C' as usize) << 16;
/// `VALGRIND_MAKE_MEM_UNDEFINED(addr, len)`.
const MAKE_MEM_UNDEFINED: usize = MEMCHECK_BASE + 1;
/// `VALGRIND_MAKE_MEM_DEFINED(addr, len)`.
const MAKE_MEM_DEFINED: usize = MEMCHECK_BASE + 2;
/// `VALGRIND_GET_VBITS(addr, vbits, len)`: one validity byte per byte (0 = defined).
const GET_VBITS: usize = MEMCHECK_BASE + 8;
/// `RUNNING_ON_VALGRIND`: the nesting depth, 0 natively.
const RUNNING_ON_VALGRIND: usize = 0x1001;
/// `VALGRIND_COUNT_ERRORS`: errors reported so far (suppressed ones excluded).
const COUNT_ERRORS: usize = 0x1201;

/// Performs one client request; `default` natively.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn request(default: usize, request: usize, args: [usize; 5]) -> usize {
    let block = [request, args[0], args[1], args[2], args[3], args[4]];
    let result;
    // SAFETY: natively the sequence changes only `rdi` (declared clobbered, though the
    // four rotations total 128 bits and restore it) and the flags (not preserved by
    // default); `xchg rbx, rbx` is a no-op. `rax` points to `block`, which lives
    // across the asm. Under Valgrind the core reads `block` and carries out the
    // request: every request this module makes only reads or changes the shadow state
    // of, or writes validity bytes into, ranges the safe wrappers below borrow for
    // their full length, and the default memory clobber makes the compiler reload them.
    unsafe {
        core::arch::asm!(
            "rol rdi, 3",
            "rol rdi, 13",
            "rol rdi, 61",
            "rol rdi, 51",
            "xchg rbx, rbx",
            in("rax") block.as_ptr(),
            inout("rdx") default => result,
            out("rdi") _,
            options(nostack),
        );
    }
    result
}

/// Without the x86-64 sequence there is no request to make: the default answer.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn request(default: usize, _request: usize, _args: [usize; 5]) -> usize {
    default
}

/// Whether this build can talk to Valgrind at all.
pub fn supported() -> bool {
    cfg!(target_arch = "x86_64")
}

/// Whether the program runs under Valgrind.
pub fn running_on_valgrind() -> bool {
    request(0, RUNNING_ON_VALGRIND, [0; 5]) != 0
}

/// Errors Valgrind has reported so far (0 natively).
pub fn error_count() -> usize {
    request(0, COUNT_ERRORS, [0; 5])
}

/// Marks `bytes` as secret: memcheck treats them as undefined from here on, so any
/// branch, or address, computed from them is reported.
///
/// Takes `&mut` so the compiler cannot keep using values it knew before the call.
pub fn conceal(bytes: &mut [u8]) {
    request(
        0,
        MAKE_MEM_UNDEFINED,
        [bytes.as_mut_ptr() as usize, bytes.len(), 0, 0, 0],
    );
}

/// Marks `bytes` as public again (defined), so the program can compare results
/// without its own branches being reported.
pub fn reveal(bytes: &mut [u8]) {
    request(
        0,
        MAKE_MEM_DEFINED,
        [bytes.as_mut_ptr() as usize, bytes.len(), 0, 0, 0],
    );
}

/// Whether every byte of `bytes` carries at least one undefined bit, i.e. the secrets
/// reached all of it; `None` when not under Valgrind.
pub fn fully_tainted(bytes: &[u8]) -> Option<bool> {
    let mut vbits = vec![0u8; bytes.len()];
    let answer = request(
        0,
        GET_VBITS,
        [
            bytes.as_ptr() as usize,
            vbits.as_mut_ptr() as usize,
            bytes.len(),
            0,
            0,
        ],
    );
    match answer {
        1 => Some(vbits.iter().all(|&v| v != 0)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Natively (as under `cargo test`) every request is a no-op with its default
    /// answer; the bytes are untouched.
    #[test]
    fn requests_are_no_ops_without_valgrind() {
        if running_on_valgrind() {
            return;
        }
        assert_eq!(error_count(), 0);
        let mut bytes = [1u8, 2, 3];
        conceal(&mut bytes);
        reveal(&mut bytes);
        assert_eq!(bytes, [1, 2, 3]);
        assert_eq!(fully_tainted(&bytes), None);
    }
}
