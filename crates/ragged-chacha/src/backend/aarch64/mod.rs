//! aarch64 backend: the generic kernel instantiated with NEON lanes under
//! `target_feature(enable = "neon")`.

pub(crate) mod neon;

pub(super) use self::neon::Neon;
