//! SSE2 (16-byte), AVX2 (32-byte) and AVX-512 (64-byte) registers as [`Vector`]s,
//! plus their non-temporal stores, and the AVX-512 masked accesses ([`Masked`]).
//!
//! SSE2 is part of the x86-64 baseline. The AVX2 methods may only run inside a function
//! compiled with `#[target_feature(enable = "avx2")]`, the AVX-512 ones inside one
//! compiled with `#[target_feature(enable = "avx512f,avx512bw,bmi2")]`, each after the
//! runtime check.

use core::arch::x86_64::{
    __m128i, __m256i, __m512i, _bzhi_u64, _mm_loadu_si128, _mm_set1_epi8, _mm_store_si128,
    _mm_storeu_si128, _mm_stream_si128, _mm256_loadu_si256, _mm256_set1_epi8, _mm256_store_si256,
    _mm256_storeu_si256, _mm256_stream_si256, _mm512_loadu_si512, _mm512_mask_storeu_epi8,
    _mm512_maskz_loadu_epi8, _mm512_set1_epi8, _mm512_store_si512, _mm512_stream_si512,
};

use crate::vector::{Masked, Vector};

/// One SSE2 register.
#[derive(Clone, Copy)]
pub(crate) struct Sse2(__m128i);

/// One AVX2 register.
#[derive(Clone, Copy)]
pub(crate) struct Avx2(__m256i);

/// One AVX-512 register (the byte-masked accesses need AVX-512BW, the mask from the
/// length BMI2's `bzhi`).
#[derive(Clone, Copy)]
pub(crate) struct Avx512(__m512i);

/// A [`Vector`] that also has a non-temporal (cache-bypassing) store.
pub(crate) trait Stream: Vector {
    /// Stores `v` to `p` without bringing the line into the cache. Weakly ordered:
    /// the caller must issue `sfence` before the stored bytes may be relied upon.
    ///
    /// # Safety
    /// `p` valid for `SIZE` bytes and aligned to `SIZE`; the instruction set enabled.
    unsafe fn stream(p: *mut u8, v: Self);
}

impl Vector for Sse2 {
    const SIZE: usize = 16;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantee (16 readable bytes); SSE2 is baseline.
        Sse2(unsafe { _mm_loadu_si128(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: caller guarantee (16 writable bytes); SSE2 is baseline.
        unsafe { _mm_storeu_si128(p.cast(), v.0) }
    }
    #[inline(always)]
    unsafe fn store_aligned(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(16));
        // SAFETY: caller guarantee (16 writable bytes, 16-aligned); SSE2 is baseline.
        unsafe { _mm_store_si128(p.cast(), v.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // Safe to call in newer Rust, where SSE2 is statically enabled.
        #[allow(unused_unsafe)]
        // SAFETY: SSE2 is baseline on x86-64.
        Sse2(unsafe { _mm_set1_epi8(b as i8) })
    }
}

impl Stream for Sse2 {
    #[inline(always)]
    unsafe fn stream(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(16));
        // SAFETY: caller guarantee (16 writable bytes, 16-aligned).
        unsafe { _mm_stream_si128(p.cast(), v.0) }
    }
}

impl Vector for Avx2 {
    const SIZE: usize = 32;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantee (32 readable bytes, AVX2 enabled).
        Avx2(unsafe { _mm256_loadu_si256(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // SAFETY: caller guarantee (32 writable bytes, AVX2 enabled).
        unsafe { _mm256_storeu_si256(p.cast(), v.0) }
    }
    #[inline(always)]
    unsafe fn store_aligned(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(32));
        // SAFETY: caller guarantee (32 writable bytes, 32-aligned, AVX2 enabled).
        unsafe { _mm256_store_si256(p.cast(), v.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: caller guarantee (AVX2 enabled).
        Avx2(unsafe { _mm256_set1_epi8(b as i8) })
    }
}

impl Stream for Avx2 {
    #[inline(always)]
    unsafe fn stream(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(32));
        // SAFETY: caller guarantee (32 writable bytes, 32-aligned, AVX2 enabled).
        unsafe { _mm256_stream_si256(p.cast(), v.0) }
    }
}

impl Vector for Avx512 {
    const SIZE: usize = 64;

    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: caller guarantee (64 readable bytes, AVX-512F enabled).
        Avx512(unsafe { _mm512_loadu_si512(p.cast()) })
    }
    #[inline(always)]
    unsafe fn store(p: *mut u8, v: Self) {
        // Not `_mm512_storeu_si512`: that is a `write_unaligned`, which unoptimised is
        // a call to `memcpy` (under `c-symbols`, to this crate's own); the store with
        // every byte in its mask is a plain store once optimised.
        // SAFETY: caller guarantee (64 writable bytes, AVX-512F and BW enabled).
        unsafe { _mm512_mask_storeu_epi8(p.cast(), u64::MAX, v.0) }
    }
    #[inline(always)]
    unsafe fn store_aligned(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(64));
        // SAFETY: caller guarantee (64 writable bytes, 64-aligned, AVX-512F enabled).
        unsafe { _mm512_store_si512(p.cast(), v.0) }
    }
    #[inline(always)]
    unsafe fn splat(b: u8) -> Self {
        // SAFETY: caller guarantee (AVX-512F enabled).
        Avx512(unsafe { _mm512_set1_epi8(b as i8) })
    }
}

/// The mask of the first `k <= 64` bytes of a 64-byte vector: `bzhi` clears the bits
/// from index `k` up, and leaves its source whole for `k == 64`.
///
/// # Safety
/// BMI2 enabled in the caller.
#[inline(always)]
unsafe fn first(k: usize) -> u64 {
    debug_assert!(k <= 64);
    // SAFETY: caller guarantee (BMI2 enabled); `bzhi` has no other precondition.
    unsafe { _bzhi_u64(u64::MAX, k as u32) }
}

impl Masked for Avx512 {
    #[inline(always)]
    unsafe fn load_first(p: *const u8, k: usize) -> Self {
        debug_assert!(k <= 64);
        // SAFETY: caller guarantee (`k` readable bytes at `p`; AVX-512BW and BMI2
        // enabled). A masked-off byte is neither read nor able to fault.
        Avx512(unsafe { _mm512_maskz_loadu_epi8(first(k), p.cast()) })
    }
    #[inline(always)]
    unsafe fn store_first(p: *mut u8, v: Self, k: usize) {
        debug_assert!(k <= 64);
        // SAFETY: caller guarantee (`k` writable bytes at `p`; AVX-512BW and BMI2
        // enabled). A masked-off byte is neither written nor able to fault.
        unsafe { _mm512_mask_storeu_epi8(p.cast(), first(k), v.0) }
    }
}

impl Stream for Avx512 {
    #[inline(always)]
    unsafe fn stream(p: *mut u8, v: Self) {
        debug_assert!(p.addr().is_multiple_of(64));
        // SAFETY: caller guarantee (64 writable bytes, 64-aligned, AVX-512F enabled).
        unsafe { _mm512_stream_si512(p.cast(), v.0) }
    }
}
