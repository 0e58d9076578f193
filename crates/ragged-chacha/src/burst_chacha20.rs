//! ChaCha20's and ChaCha20-Poly1305's bursts, compiled once, in this crate.
//!
//! The burst functions are generic over the variant and the item type, so every crate
//! that calls one compiles the burst kernels again — on every backend, for every plan —
//! the largest code in the crate. The functions here are not generic: the bursts of
//! RFC 8439's ChaCha20 (`Ietf<20>`), which nearly every caller uses, are compiled here
//! alone, and the public functions hand those items to them (see
//! [`crate::variant::sealed::Sealed::IS_CHACHA20`]). The other variants' bursts are
//! compiled where they are called, as before. (What this saves in build time:
//! `docs/tuning.md`, "Build time".)

use crate::backend::{MacRoute, Route};
use crate::burst::{Keyed, OpenItem, SealItem, XorItem, open_items, seal_items, xor_items};
use crate::error::Error;
use crate::variant::Ietf;

/// A ChaCha20-Poly1305 item to seal.
type Sealing<'a> = SealItem<'a, Ietf<20>>;
/// A ChaCha20-Poly1305 item to open.
type Opening<'a> = OpenItem<'a, Ietf<20>>;

/// `items` under their own type's other name: a public burst function's items of its
/// generic variant, as the `Ietf<20>` items the functions below take.
///
/// # Safety
/// `T` is `U`: the callers pass the items of a variant for which `IS_CHACHA20` holds,
/// which is `Ietf<20>` alone, as the same item type of `Ietf<20>`. Lifetimes in `U` are
/// inferred at the call; the functions below take them generically and keep no
/// reference past their return.
#[inline(always)]
pub(crate) unsafe fn same_items<T, U>(items: &mut [T]) -> &mut [U] {
    debug_assert_eq!(size_of::<T>(), size_of::<U>());
    debug_assert_eq!(align_of::<T>(), align_of::<U>());
    // SAFETY: `T` and `U` are one type (the caller's contract), so the slice's
    // elements, length and layout are the same.
    unsafe { &mut *(core::ptr::from_mut(items) as *mut [U]) }
}

/// [`seal_items`] for ChaCha20-Poly1305 under one key (`key`) or the items' own.
#[inline(never)]
pub(crate) fn seal(
    route: Route,
    mac_route: MacRoute,
    key: &[u8; 32],
    items: &mut [Sealing<'_>],
) -> Result<(), Error> {
    seal_items(route, mac_route, Some(key), items)
}

/// [`seal_items`] for keyed ChaCha20-Poly1305 items.
#[inline(never)]
pub(crate) fn seal_keyed(
    route: Route,
    mac_route: MacRoute,
    items: &mut [Keyed<'_, Sealing<'_>>],
) -> Result<(), Error> {
    seal_items(route, mac_route, None, items)
}

/// [`open_items`] for ChaCha20-Poly1305 under one key.
#[inline(never)]
pub(crate) fn open(
    route: Route,
    mac_route: MacRoute,
    key: &[u8; 32],
    items: &mut [Opening<'_>],
    verdicts: &mut [Result<(), Error>],
) -> Result<(), Error> {
    open_items(route, mac_route, Some(key), items, verdicts)
}

/// [`open_items`] for keyed ChaCha20-Poly1305 items.
#[inline(never)]
pub(crate) fn open_keyed(
    route: Route,
    mac_route: MacRoute,
    items: &mut [Keyed<'_, Opening<'_>>],
    verdicts: &mut [Result<(), Error>],
) -> Result<(), Error> {
    open_items(route, mac_route, None, items, verdicts)
}

/// [`xor_items`] for ChaCha20's items.
#[inline(never)]
pub(crate) fn xor(route: Route, items: &mut [XorItem<'_, Ietf<20>>]) -> Result<(), Error> {
    xor_items(route, items)
}
