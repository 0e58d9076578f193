//! x86-64 backends: thin entry points that instantiate the generic kernel with the
//! lane types of each instruction-set level, under the matching `target_feature`.

mod xmm;
mod ymm;
mod zmm;

pub(super) use self::xmm::{Sse2, Ssse3, Xmm};
pub(super) use self::ymm::Ymm;
pub(super) use self::zmm::Zmm;
use super::generic;

generic::entry_points!(
    /// 4-block batches with SSE2 only; up to 3 blocks in the row form.
    sse2, "sse2", Xmm<Sse2>, Xmm<Sse2>, Xmm<Sse2>, Xmm<Sse2>, bulk: FULL
);
generic::entry_points!(
    /// 4-block batches with SSSE3 byte-shuffle rotations; up to 3 blocks in the row form.
    ssse3, "ssse3", Xmm<Ssse3>, Xmm<Ssse3>, Xmm<Ssse3>, Xmm<Ssse3>, bulk: FULL
);
generic::entry_points!(
    /// 8-block AVX2 batches; a remainder of up to 6 blocks in the row form (one to
    /// three sets of 2 blocks). BMI2 (every AVX2 CPU has it, but a hypervisor may
    /// mask it) gives the AEAD seal's interleaved scalar Poly1305 `mulx`, whose free
    /// choice of registers spares the moves around `mul`'s fixed `rdx:rax` (3011005).
    avx2, "avx2,bmi2", Ymm, Ymm, Ymm, Ymm, bulk: FULL
);
generic::entry_points!(
    /// 16-block AVX-512 batches with native rotates; a remainder of up to 12 blocks in
    /// the row form (one to three sets of 4 blocks); partial vectors with AVX-512BW
    /// masks.
    avx512, "avx512f,avx512bw,avx512vl", Zmm, Zmm, Zmm, Zmm, bulk: FULL
);
generic::entry_points!(
    /// As `avx512`, with every batch of a long message 28 blocks: the 16-block batch
    /// and three row sets of 4 blocks inside its round loop (`generic::xor_keystream_rows`'s
    /// wide bulk), for the cores where the table in `backend/route.rs` says so.
    avx512_wide, "avx512f,avx512bw,avx512vl", Zmm, Zmm, Zmm, Zmm, bulk: WIDE
);
generic::entry_points!(
    /// As `avx512`, with nine-block batches (`Schedule::NINTH_BLOCK`) only where they
    /// round out a short remainder (`generic::bulk::PLAIN`), for the cores where the
    /// table in `backend/route.rs` says so.
    avx512_plain, "avx512f,avx512bw,avx512vl", Zmm, Zmm, Zmm, Zmm, bulk: PLAIN
);
