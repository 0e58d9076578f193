//! aarch64 backend: the generic kernel instantiated with NEON lanes ([`lanes`]) under
//! `target_feature(enable = "neon")`.

mod lanes;

pub(super) use self::lanes::Neon;
use super::generic;

generic::entry_points!(
    /// 4-block NEON batches; a remainder of up to 3 blocks in the row form (one to
    /// three single-block sets, `MAX_ROW_SETS`), else one more 4-block batch; the
    /// partial vector with a `tbl` permutation over an overlapping window.
    neon, "neon", Neon, Neon, Neon, Neon, bulk: FULL
);
