//! Unmangled C `memcpy`, `memmove` and `memset`, for no-std binaries that have no C
//! library to provide them (the compiler emits calls to these for struct copies,
//! array initialisation and `copy_from_slice`).
//!
//! The danger in writing them in Rust is that the optimizer recognises a copy loop and
//! replaces it with a call to `memcpy` — which would now be this function, recursing
//! forever. The crate is therefore compiled `#![no_builtins]` when this feature is on,
//! which stops the optimizer from introducing such calls anywhere in it; on top of
//! that, the loops are written so they do not look like copy idioms (see `word.rs`).
//! `no_builtins` does not cover the calls the compiler emits for the language itself —
//! a whole-array initialiser (`[0; N]`, `[byte; 8]`) or a large copy — so the code
//! behind these symbols has none (`scripts/c-symbols-check` disassembles them at every
//! opt level and fails on any call to a memory routine).

use core::ffi::{c_int, c_void};

/// C `memcpy`: copies `n` bytes from `src` to `dst` and returns `dst`.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes; the regions do not overlap.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memcpy(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: the C contract of `memcpy` is the caller guarantee of `strategy::memcpy`.
    unsafe { crate::strategy::memcpy(dst.cast(), src.cast(), n) };
    dst
}

/// C `memmove`: copies `n` bytes from `src` to `dst`, which may overlap; returns `dst`.
///
/// # Safety
/// `src` valid for reading and `dst` for writing `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memmove(dst: *mut c_void, src: *const c_void, n: usize) -> *mut c_void {
    // SAFETY: the C contract of `memmove` is the caller guarantee of `strategy::memmove`.
    unsafe { crate::strategy::memmove(dst.cast(), src.cast(), n) };
    dst
}

/// C `memset`: sets `n` bytes at `dst` to `c` converted to `unsigned char`; returns
/// `dst`.
///
/// # Safety
/// `dst` valid for writing `n` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn memset(dst: *mut c_void, c: c_int, n: usize) -> *mut c_void {
    // SAFETY: the C contract of `memset` is the caller guarantee of `strategy::memset`.
    unsafe { crate::strategy::memset(dst.cast(), c as u8, n) };
    dst
}
