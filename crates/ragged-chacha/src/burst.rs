//! Bursts: many messages sealed, opened or XORed in one call.
//!
//! A burst is a slice of items, each a whole message with its own nonce (and, in the
//! keyed forms, its own key), of any mix of lengths, empty ones included. Every item's
//! result is exactly what the single-message call gives for it. The rules:
//!
//! - **all or nothing up front**: every item is checked (AEAD message lengths against
//!   [`MAX_PLAINTEXT_LEN`], keystream requests against the counter's end) before any
//!   item is written; a burst with an invalid item is refused whole with
//!   [`Error::InvalidBurstItem`], naming the first bad index;
//! - **per-item verdicts** when opening: each item's tag is compared in constant time;
//!   an item whose tag fails is zeroed, the others are decrypted, and the verdicts go
//!   to a slice the caller provides (no allocation: `no_std` works);
//! - no allocation, and no limit on the burst's size.
//!
//! The forms: [`ChaChaPoly1305::seal_burst`] and [`ChaChaPoly1305::open_burst`] under
//! the AEAD's one key (a connection's packets); [`Burst::seal`], [`Burst::open`] with a
//! key per item ([`Keyed`]: a burst that spans peers); [`Burst::xor`] (and
//! [`ChaCha::xor_burst`]) for raw keystream, each item with its own key, nonce and
//! starting block counter (QUIC header protection is many one-block items).
//!
//! ```
//! use ragged_chacha::{ChaCha20Poly1305, burst::{OpenItem, SealItem}};
//!
//! let aead = ChaCha20Poly1305::new(&[7; 32]);
//! let (mut a, mut b) = (*b"first packet", *b"second, longer packet");
//! let mut items = [
//!     SealItem::new([1; 12], b"hdr 1", &mut a),
//!     SealItem::new([2; 12], b"", &mut b),
//! ];
//! aead.seal_burst(&mut items).unwrap();
//! let tags = [items[0].tag, items[1].tag];
//!
//! let mut forged = tags[1];
//! forged[0] ^= 1;
//! let mut items = [
//!     OpenItem::new([1; 12], b"hdr 1", &mut a, tags[0]),
//!     OpenItem::new([2; 12], b"", &mut b, forged),
//! ];
//! let mut verdicts = [Ok(()); 2];
//! assert!(aead.open_burst(&mut items, &mut verdicts).is_err());
//! assert_eq!(verdicts, [Ok(()), Err(ragged_chacha::Error::AuthenticationFailed)]);
//! assert_eq!(&a, b"first packet");
//! assert_eq!(b, [0; 21]); // the forged item is zeroed
//! ```

#[cfg(doc)]
use crate::aead::MAX_PLAINTEXT_LEN;
use crate::aead::{AeadVariant, ChaChaPoly1305, TAG_LEN, check_len};
use crate::backend::burst_split::{
    Costs, HALVES_FROM, LongestFirst, MOST_BLOCKS, lane_limit, lane_sets, lane_width,
    one_pass_short_opens, two_sets_pay, uniform_halves_pay,
};
use crate::backend::generic::{Job, Jobs};
use crate::backend::poly1305::{MacJob, Poly1305Backend};
use crate::backend::{Backend, Core, MacRoute, Route};
use crate::burst_chacha20 as chacha20;
use crate::chacha::ChaCha;
use crate::error::Error;
use crate::poly1305::{tag_difference, tag_verdict, tags_equal};
use crate::state::State;
use crate::variant::Variant;
use crate::variant::sealed::Sealed;
use crate::wipe::wipe;
use core::ptr::null;
use subtle::ConstantTimeEq;

/// One message of a sealing burst: sealed in place, its tag written to `tag`.
pub struct SealItem<'a, V: AeadVariant> {
    /// The message's nonce (unique under its key).
    pub nonce: V::Nonce,
    /// The associated data, authenticated but not encrypted.
    pub aad: &'a [u8],
    /// The plaintext, replaced by the ciphertext.
    pub buf: &'a mut [u8],
    /// The tag, written by the seal.
    pub tag: [u8; TAG_LEN],
}

impl<'a, V: AeadVariant> SealItem<'a, V> {
    /// An item to seal `buf` in place under `nonce` with `aad` (its tag still zero).
    pub fn new(nonce: V::Nonce, aad: &'a [u8], buf: &'a mut [u8]) -> Self {
        SealItem {
            nonce,
            aad,
            buf,
            tag: [0; TAG_LEN],
        }
    }
}

/// One message of an opening burst: checked against `tag`, then decrypted in place
/// (or zeroed, if the tag does not match).
pub struct OpenItem<'a, V: AeadVariant> {
    /// The message's nonce.
    pub nonce: V::Nonce,
    /// The associated data.
    pub aad: &'a [u8],
    /// The ciphertext, replaced by the plaintext (or zeros, on a tag mismatch).
    pub buf: &'a mut [u8],
    /// The tag received with the message.
    pub tag: [u8; TAG_LEN],
}

impl<'a, V: AeadVariant> OpenItem<'a, V> {
    /// An item to open `buf` in place under `nonce` with `aad`, checking `tag`.
    pub fn new(nonce: V::Nonce, aad: &'a [u8], buf: &'a mut [u8], tag: [u8; TAG_LEN]) -> Self {
        OpenItem {
            nonce,
            aad,
            buf,
            tag,
        }
    }
}

/// An item with its own key, for the bursts of [`Burst`]: `Keyed<SealItem<_>>`,
/// `Keyed<OpenItem<_>>`.
pub struct Keyed<'a, T> {
    /// The item's key.
    pub key: &'a [u8; 32],
    /// The item itself.
    pub item: T,
}

impl<'a, T> Keyed<'a, T> {
    /// `item` under `key`.
    pub fn new(key: &'a [u8; 32], item: T) -> Self {
        Keyed { key, item }
    }
}

/// One message of a keystream burst: the keystream of `key` and `nonce` from block
/// `counter` XORed into `buf` in place.
pub struct XorItem<'a, V: Variant> {
    /// The item's key.
    pub key: &'a [u8; 32],
    /// The item's nonce.
    pub nonce: V::Nonce,
    /// The first keystream block used (the variant's counter width).
    pub counter: V::Counter,
    /// The bytes to XOR, in place.
    pub buf: &'a mut [u8],
}

impl<'a, V: Variant> XorItem<'a, V> {
    /// The keystream of `key`, `nonce` from block `counter` into `buf`.
    pub fn new(key: &'a [u8; 32], nonce: V::Nonce, counter: V::Counter, buf: &'a mut [u8]) -> Self {
        XorItem {
            key,
            nonce,
            counter,
            buf,
        }
    }
}

/// Bursts whose items carry their own keys, on chosen backends.
///
/// ```
/// use ragged_chacha::burst::{Keyed, SealItem, XorItem};
/// use ragged_chacha::{Burst, ChaCha20, ChaCha20Poly1305};
///
/// let (k1, k2) = ([1; 32], [2; 32]);
/// let (mut a, mut b) = ([0u8; 64], [0u8; 5]);
/// let mut items = [
///     Keyed::new(&k1, SealItem::<ragged_chacha::variant::Ietf<20>>::new([0; 12], b"", &mut a)),
///     Keyed::new(&k2, SealItem::new([9; 12], b"aad", &mut b)),
/// ];
/// Burst::new().seal(&mut items).unwrap();
/// let mut c = [0u8; 5];
/// let tag = ChaCha20Poly1305::new(&k2).encrypt_in_place_detached(&[9; 12], b"aad", &mut c).unwrap();
/// let sealed_tag = items[1].item.tag;
/// assert_eq!((b, sealed_tag), (c, tag));
///
/// // QUIC header protection: one block of keystream per packet, its own counter.
/// let mut masks = [[0u8; 5]; 2];
/// let [m1, m2] = &mut masks;
/// let mut items = [XorItem::new(&k1, [3; 12], 7, m1), XorItem::new(&k2, [4; 12], 9, m2)];
/// ChaCha20::xor_burst(&mut items).unwrap();
/// let mut m = [0u8; 5];
/// ChaCha20::with_counter(&k2, &[4; 12], 9).apply_keystream(&mut m);
/// assert_eq!(masks[1], m);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Burst {
    route: Route,
    mac_route: MacRoute,
}

impl Default for Burst {
    fn default() -> Self {
        Burst::new()
    }
}

impl Burst {
    /// Bursts on the fastest ChaCha and Poly1305 backends the CPU has.
    pub fn new() -> Self {
        Burst {
            route: Route::detect(),
            mac_route: MacRoute::detect(),
        }
    }

    /// The same, with the keystream on `backend`.
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_backend(mut self, backend: Backend) -> Result<Self, Error> {
        if !backend.is_available() {
            return Err(Error::BackendUnavailable {
                backend: backend.name(),
            });
        }
        self.route = Route::pinned(backend);
        Ok(self)
    }

    /// The same, with the MAC on `backend`.
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_mac_backend(mut self, backend: Poly1305Backend) -> Result<Self, Error> {
        self.mac_route = MacRoute::pinned(backend.checked()?);
        Ok(self)
    }

    /// The ChaCha backend in use.
    pub fn backend(&self) -> Backend {
        self.route.backend()
    }

    /// Seals every item in place under its own key, writing each tag.
    ///
    /// # Errors
    /// [`Error::InvalidBurstItem`] for the first item longer than
    /// [`MAX_PLAINTEXT_LEN`]; nothing is written then.
    pub fn seal<V: AeadVariant>(
        &self,
        items: &mut [Keyed<'_, SealItem<'_, V>>],
    ) -> Result<(), Error> {
        if V::IS_CHACHA20 {
            // SAFETY: `IS_CHACHA20`: `V` is `Ietf<20>`, so the item types are one.
            let items = unsafe { chacha20::same_items(items) };
            return chacha20::seal_keyed(self.route, self.mac_route, items);
        }
        seal_items(self.route, self.mac_route, None, items)
    }

    /// Opens every item in place under its own key, writing item `i`'s verdict to
    /// `verdicts[i]`: `Ok(())`, or [`Error::AuthenticationFailed`] with the item zeroed.
    ///
    /// # Errors
    /// [`Error::AuthenticationFailed`] if any item failed (see `verdicts` for which);
    /// [`Error::InvalidBurstItem`] for the first item longer than
    /// [`MAX_PLAINTEXT_LEN`], and [`Error::LengthMismatch`] if `verdicts` is not as
    /// long as `items`: nothing is written then, not even a verdict.
    pub fn open<V: AeadVariant>(
        &self,
        items: &mut [Keyed<'_, OpenItem<'_, V>>],
        verdicts: &mut [Result<(), Error>],
    ) -> Result<(), Error> {
        if V::IS_CHACHA20 {
            // SAFETY: `IS_CHACHA20`: `V` is `Ietf<20>`, so the item types are one.
            let items = unsafe { chacha20::same_items(items) };
            return chacha20::open_keyed(self.route, self.mac_route, items, verdicts);
        }
        open_items(self.route, self.mac_route, None, items, verdicts)
    }

    /// XORs each item's keystream into its buffer in place.
    ///
    /// # Errors
    /// [`Error::InvalidBurstItem`] for the first item that needs keystream past the
    /// end of its block counter; nothing is written then.
    pub fn xor<V: Variant>(&self, items: &mut [XorItem<'_, V>]) -> Result<(), Error> {
        xor_routed(self.route, items)
    }
}

impl<V: AeadVariant> ChaChaPoly1305<V> {
    /// Seals every item in place under this AEAD's key, writing each tag: for each,
    /// what [`ChaChaPoly1305::encrypt_in_place_detached`] gives.
    ///
    /// # Errors
    /// [`Error::InvalidBurstItem`] for the first item longer than
    /// [`MAX_PLAINTEXT_LEN`]; nothing is written then.
    pub fn seal_burst(&self, items: &mut [SealItem<'_, V>]) -> Result<(), Error> {
        let (route, mac_route) = self.routes();
        if V::IS_CHACHA20 {
            // SAFETY: `IS_CHACHA20`: `V` is `Ietf<20>`, so the item types are one.
            let items = unsafe { chacha20::same_items(items) };
            return chacha20::seal(route, mac_route, self.key(), items);
        }
        seal_items(route, mac_route, Some(self.key()), items)
    }

    /// Opens every item in place under this AEAD's key, writing item `i`'s verdict to
    /// `verdicts[i]`: `Ok(())` with the plaintext in its buffer, or
    /// [`Error::AuthenticationFailed`] with its buffer zeroed, as
    /// [`ChaChaPoly1305::decrypt_in_place_detached`] does. Tags are compared in
    /// constant time, each item on its own.
    ///
    /// # Errors
    /// [`Error::AuthenticationFailed`] if any item failed (see `verdicts` for which);
    /// [`Error::InvalidBurstItem`] for the first item longer than
    /// [`MAX_PLAINTEXT_LEN`], and [`Error::LengthMismatch`] if `verdicts` is not as
    /// long as `items`: nothing is written then, not even a verdict.
    pub fn open_burst(
        &self,
        items: &mut [OpenItem<'_, V>],
        verdicts: &mut [Result<(), Error>],
    ) -> Result<(), Error> {
        let (route, mac_route) = self.routes();
        if V::IS_CHACHA20 {
            // SAFETY: `IS_CHACHA20`: `V` is `Ietf<20>`, so the item types are one.
            let items = unsafe { chacha20::same_items(items) };
            return chacha20::open(route, mac_route, self.key(), items, verdicts);
        }
        open_items(route, mac_route, Some(self.key()), items, verdicts)
    }
}

impl<V: Variant> ChaCha<V> {
    /// XORs each item's keystream (its key and nonce, from its block counter) into its
    /// buffer in place, on the fastest backend the CPU has; see [`Burst::xor`] to
    /// choose one.
    ///
    /// # Errors
    /// [`Error::InvalidBurstItem`] for the first item that needs keystream past the
    /// end of its block counter; nothing is written then.
    pub fn xor_burst(items: &mut [XorItem<'_, V>]) -> Result<(), Error> {
        xor_routed(Route::detect(), items)
    }
}

/// [`xor_items`], through the copy compiled in this crate for ChaCha20's items.
#[inline(always)]
fn xor_routed<V: Variant>(route: Route, items: &mut [XorItem<'_, V>]) -> Result<(), Error> {
    if V::IS_CHACHA20 {
        // SAFETY: `IS_CHACHA20`: `V` is `Ietf<20>`, so the item types are one.
        let items = unsafe { chacha20::same_items(items) };
        return chacha20::xor(route, items);
    }
    xor_items(route, items)
}

/// What the AEAD bursts need of an item, keyed or not.
pub(crate) trait AeadItem<V: AeadVariant> {
    /// The item's own key, if it has one.
    fn own_key(&self) -> Option<&[u8; 32]>;
    /// The nonce, AAD, buffer and tag.
    fn parts(&mut self) -> (&V::Nonce, &[u8], &mut [u8], &mut [u8; TAG_LEN]);
    /// The same, read only.
    fn view(&self) -> (&V::Nonce, &[u8], &[u8], &[u8; TAG_LEN]);
    /// The nonce alone (no borrow of the buffer, which a lane may be writing).
    fn nonce(&self) -> &V::Nonce;
    /// The buffer's length.
    fn len(&self) -> usize;
}

macro_rules! aead_item {
    ($item:ident) => {
        impl<V: AeadVariant> AeadItem<V> for $item<'_, V> {
            #[inline(always)]
            fn own_key(&self) -> Option<&[u8; 32]> {
                None
            }
            #[inline(always)]
            fn parts(&mut self) -> (&V::Nonce, &[u8], &mut [u8], &mut [u8; TAG_LEN]) {
                (&self.nonce, self.aad, &mut *self.buf, &mut self.tag)
            }
            #[inline(always)]
            fn view(&self) -> (&V::Nonce, &[u8], &[u8], &[u8; TAG_LEN]) {
                (&self.nonce, self.aad, &*self.buf, &self.tag)
            }
            #[inline(always)]
            fn nonce(&self) -> &V::Nonce {
                &self.nonce
            }
            #[inline(always)]
            fn len(&self) -> usize {
                self.buf.len()
            }
        }

        impl<V: AeadVariant> AeadItem<V> for Keyed<'_, $item<'_, V>> {
            #[inline(always)]
            fn own_key(&self) -> Option<&[u8; 32]> {
                Some(self.key)
            }
            #[inline(always)]
            fn parts(&mut self) -> (&V::Nonce, &[u8], &mut [u8], &mut [u8; TAG_LEN]) {
                self.item.parts()
            }
            #[inline(always)]
            fn view(&self) -> (&V::Nonce, &[u8], &[u8], &[u8; TAG_LEN]) {
                self.item.view()
            }
            #[inline(always)]
            fn nonce(&self) -> &V::Nonce {
                &self.item.nonce
            }
            #[inline(always)]
            fn len(&self) -> usize {
                self.item.buf.len()
            }
        }
    };
}
aead_item!(SealItem);
aead_item!(OpenItem);

/// Checks every item's length against [`MAX_PLAINTEXT_LEN`]: the first too long is the
/// error.
fn check_aead_items<V: AeadVariant>(items: &[impl AeadItem<V>]) -> Result<(), Error> {
    for (index, item) in items.iter().enumerate() {
        if let Err(Error::MessageTooLong { length, max }) = check_len(item.len()) {
            return Err(Error::InvalidBurstItem {
                index,
                requested: u128::from(length),
                allowed: u128::from(max),
            });
        }
    }
    Ok(())
}

/// The initial state words of `item` under its own key, or else `key`, into `words`.
#[inline(always)]
fn item_words<V: AeadVariant>(
    item: &impl AeadItem<V>,
    key: Option<&[u8; 32]>,
    words: &mut [u32; 16],
) {
    let key = item
        .own_key()
        .or(key)
        .expect("a one-key burst passes its key; keyed items have their own");
    let nonce = item.nonce();
    <V as Sealed>::write_words(key, nonce.as_ref(), words);
}

/// The initial state of `item` under its own key, or else `key`.
#[inline(always)]
fn item_state<V: AeadVariant>(item: &impl AeadItem<V>, key: Option<&[u8; 32]>) -> State {
    let key = item
        .own_key()
        .or(key)
        .expect("a one-key burst passes its key; keyed items have their own");
    let nonce = item.nonce();
    <V as Sealed>::state(key, nonce.as_ref())
}

/// A row of 64 bytes for each item of a group, each on a 64-byte boundary: the
/// one-time key blocks, which the kernel stores as whole vectors (they would otherwise
/// be split across two cache lines), or an opening's copies of its one-block
/// ciphertexts, which it loads the same way.
#[repr(C, align(64))]
struct Rows([[u8; 64]; GROUP]);

/// An opening group's states, kept from the key pass for the message pass, each on a
/// 64-byte boundary (copied in and out as whole vectors).
#[repr(C, align(64))]
struct States([[u32; 16]; GROUP]);

/// Items an AEAD burst takes at a time: their one-time key blocks (and, opening, their
/// states) live on the stack for the group, from the keystream pass to the MAC (about
/// 13 KiB with the MAC's job lists; the large arrays are not initialised, so a small
/// burst does not pay for them). Lanes are refilled across the items of a group, and
/// the MAC's sets form within it: 64 rather than 32 keeps an IMIX burst of 48 in one
/// group (measured in the commit that set it; figures in `docs/tuning.md`).
const GROUP: usize = 64;

/// The lanes' and the single path's costs for AEAD items (see [`lane_limit`]): items of
/// up to 24 blocks (1536 bytes; longer ones seal faster alone); the key block is a job
/// of its own; the single seal or open's fixed cost per message (state, key block, MAC
/// setup and finish, a short message's latency) is about six blocks' worth; and fewer
/// than six items do not repay the group's setup and the MAC's (timed in the commit
/// that set them; figures in `docs/tuning.md`).
const AEAD_COSTS: Costs = Costs {
    most: 24,
    key_blocks: 1,
    fixed: 6,
    fewest: 6,
    halves: false,
    lane_mac_hundredths: 0,
};

/// The same on Zen 5 ([`Core::Zen5`]), whose two sets of lanes ([`lane_sets`]) a group
/// of fewer items than lanes fills by splitting its long items in halves; the MAC's
/// own pass priced per message block (without it, groups of long items took the lanes
/// where the single path was faster; fitted in the commit that set it, figures in
/// `docs/tuning.md`).
const AEAD_COSTS_ZEN5: Costs = Costs {
    halves: true,
    lane_mac_hundredths: 29,
    ..AEAD_COSTS
};

/// The same for an opening on Zen 5, whose tags come before its messages (a key pass of
/// its own, the MAC reading the message before the lanes do), so its lanes cost more a
/// message block than a seal's (fitted in the commit that set it; figures in
/// `docs/tuning.md`).
const AEAD_OPEN_COSTS_ZEN5: Costs = Costs {
    lane_mac_hundredths: 45,
    ..AEAD_COSTS_ZEN5
};

/// The same on an Intel core's 16 lanes ([`Core::Intel`], AVX-512): the MAC's own pass
/// priced per message block, as on Zen 5 but with one set of lanes (fitted in the
/// commit that set it, figures in `docs/tuning.md`).
const AEAD_COSTS_INTEL16: Costs = Costs {
    lane_mac_hundredths: 29,
    ..AEAD_COSTS
};

/// The same for an opening on an Intel core's 16 lanes, whose lanes cost more a message
/// block than a seal's, as on Zen 5 (fitted in the commit that set it, figures in
/// `docs/tuning.md`).
const AEAD_OPEN_COSTS_INTEL16: Costs = Costs {
    lane_mac_hundredths: 32,
    ..AEAD_COSTS
};

/// The AEAD's costs on this core, for a seal or (`open`) an opening, on lanes `width`
/// blocks wide.
#[inline(always)]
fn aead_costs(open: bool, width: usize) -> Costs {
    match (Core::this(), open, width) {
        (Core::Zen5, false, _) => AEAD_COSTS_ZEN5,
        (Core::Zen5, true, _) => AEAD_OPEN_COSTS_ZEN5,
        (Core::Intel, false, 16) => AEAD_COSTS_INTEL16,
        (Core::Intel, true, 16) => AEAD_OPEN_COSTS_INTEL16,
        _ => AEAD_COSTS,
    }
}

/// The same for keystream items: up to 16 blocks (1024 bytes: a 1420-byte item was
/// faster alone); a single call's fixed cost is about five blocks' worth; and four
/// items of one block already beat four single calls.
const XOR_COSTS: Costs = Costs {
    most: 16,
    key_blocks: 0,
    fixed: 5,
    fewest: 4,
    halves: false,
    lane_mac_hundredths: 0,
};

/// The same on an Intel core's 16 lanes ([`Core::Intel`], AVX-512): an item of a full
/// batch's blocks ran faster alone than in lanes that were not all busy (fitted in the
/// commit that set it, figures in `docs/tuning.md`).
const XOR_COSTS_INTEL16: Costs = Costs {
    most: 15,
    ..XOR_COSTS
};

/// The keystream items' costs on this core, on lanes `width` blocks wide.
#[inline(always)]
fn xor_costs(width: usize) -> Costs {
    match (Core::this(), width) {
        (Core::Intel, 16) => XOR_COSTS_INTEL16,
        _ => XOR_COSTS,
    }
}

/// The most message blocks (64 bytes each, rounded up) of an AEAD item the lanes take in
/// this group, sealing or (`open`) opening, with the keystream-alone plan's reach where
/// it applies (`alone`); `None`: the whole group takes the single path.
#[inline(always)]
fn aead_limit<V: AeadVariant>(
    route: Route,
    group: &[impl AeadItem<V>],
    open: bool,
    alone: Option<Alone>,
) -> Option<usize> {
    let backend = route.backend();
    if !backend.has_lane_bursts() {
        return None;
    }
    let blocks = group.iter().map(|item| item.len().div_ceil(64));
    let width = backend.lane_width();
    let costs = aead_costs(open, width);
    let most = alone.map_or(costs.most, |alone| costs.most.min(alone.lanes_most));
    lane_limit(width, lane_sets(width), Costs { most, ..costs }, blocks)
}

/// Whether a group's lane items (the longest of at least `from` message blocks) split
/// each in halves ([`Costs::halves`]) under `costs` on `backend`: fewer of them than
/// lanes, and where all are of one length, only if the halves' waves cost less than
/// the whole items' ([`uniform_halves_pay`]).
#[inline(always)]
fn in_halves(backend: Backend, costs: Costs, items: LaneItems, from: usize) -> bool {
    let width = backend.lane_width();
    let blocks = items.longest + costs.key_blocks;
    costs.halves
        && items.count < lane_width(backend)
        && items.longest >= from
        && (!items.uniform() || uniform_halves_pay(width, items.count, blocks))
}

/// Whether `lanes` lane items, the longest of `longest` blocks, run on paired sets
/// ([`Jobs::PAIRED`]): where the core has two sets of `backend`'s lanes, the items
/// fit one set but not half of it (up to half, each item as two jobs of one set pays
/// more: measured in the commit that paired the sets, figures in `docs/tuning.md`),
/// and some item has a second block.
fn pairs(backend: Backend, lanes: usize, longest: usize) -> bool {
    let width = backend.lane_width();
    lane_sets(width) == 2 && 2 * lanes > width && lanes <= width && longest >= 2
}

/// The fewest message blocks an opening group's longest item needs for
/// [`in_halves`] where the halves take both sets of lanes: more than a seal's
/// [`HALVES_FROM`], since an opening with halves takes two passes (the key blocks, the
/// tags, then the messages) where it could take one kernel call in waves. Halves that
/// fit one set pay from [`HALVES_FROM`] (both measured in the commit that moved
/// opening halves to the two passes; figures in `docs/tuning.md`).
const OPEN_HALVES_FROM: usize = 16;

/// The fewest message blocks an opening group's longest item needs to run on paired
/// sets ([`pairs`]): the waves of [`OpenJobs`] paired, each key block's batch
/// computing the message's first block beside it (kept aside until the tag is
/// checked). With fewer, a paired batch, which costs more than a batch of one set,
/// saves too little: the crossover is in docs/tuning.md ("Bursts", 7da214e).
const OPEN_PAIRED_FROM: usize = 3;

/// Whether an item of `len` bytes goes through the lanes under `limit`.
#[inline(always)]
fn in_lanes(limit: usize, len: usize) -> bool {
    len.div_ceil(64) <= limit
}

/// The index of the next item of `items` from `*next` on that goes through the lanes
/// under `limit` (`*next` moved past it); `None` once there is none.
#[inline(always)]
fn next_lane_item<V: AeadVariant>(
    items: &[impl AeadItem<V>],
    limit: usize,
    next: &mut usize,
) -> Option<usize> {
    while let Some(item) = items.get(*next) {
        *next += 1;
        if in_lanes(limit, item.len()) {
            return Some(*next - 1);
        }
    }
    None
}

/// The order a group's lane items take the lanes in: the group's own, or where their
/// lengths differ and they are more than the lanes hold at once, longest first
/// ([`LongestFirst`], which says why).
struct LaneOrder {
    longest_first: Option<LongestFirst>,
    /// In the group's order: the next item to look at.
    next: usize,
}

impl LaneOrder {
    /// The order of `group`'s lane items under `limit` (`items`, as [`lane_items`]
    /// counts them) on `lanes` lanes.
    #[inline(always)]
    fn new<V: AeadVariant>(
        group: &[impl AeadItem<V>],
        limit: usize,
        items: LaneItems,
        lanes: usize,
    ) -> Self {
        let longest_first = (items.count > lanes && !items.uniform()).then(|| {
            let blocks = group.iter().map(|item| item.len().div_ceil(64));
            LongestFirst::new(limit, items.longest, blocks)
        });
        Self {
            longest_first,
            next: 0,
        }
    }

    /// The index of the next lane item of `group` (the group `new` was given) under
    /// `limit`; `None` once there is none.
    #[inline(always)]
    fn next<V: AeadVariant>(&mut self, group: &[impl AeadItem<V>], limit: usize) -> Option<usize> {
        match &mut self.longest_first {
            Some(order) => order.next(),
            None => next_lane_item(group, limit, &mut self.next),
        }
    }
}

/// The items of `group` that go through the lanes under `limit`: how many, the most
/// message blocks of any, and their message blocks in all.
#[inline(always)]
fn lane_items<V: AeadVariant>(group: &[impl AeadItem<V>], limit: usize) -> LaneItems {
    let blocks = group.iter().map(|item| item.len().div_ceil(64));
    blocks.filter(|&b| b <= limit).fold(
        LaneItems {
            count: 0,
            longest: 0,
            blocks: 0,
        },
        |sum, b| LaneItems {
            count: sum.count + 1,
            longest: sum.longest.max(b),
            blocks: sum.blocks + b,
        },
    )
}

/// What [`lane_items`] counts.
#[derive(Clone, Copy)]
struct LaneItems {
    count: usize,
    longest: usize,
    blocks: usize,
}

impl LaneItems {
    /// Whether they are all of one length in blocks.
    #[inline(always)]
    fn uniform(self) -> bool {
        self.blocks == self.count * self.longest
    }

    /// Whether their AEAD jobs pay for a second set of `lanes` lanes: each item's key
    /// block and message as one job, or (`halves`) as two.
    #[inline(always)]
    fn two_sets(self, lanes: usize, halves: bool) -> bool {
        let longest = if halves {
            (self.longest + 1).div_ceil(2)
        } else {
            self.longest + 1
        };
        two_sets_pay(lanes, self.blocks + self.count, longest)
    }
}

/// A source's jobs on two sets of lanes ([`Jobs::SETS`]): each set's lanes taking jobs
/// of their own, or with `PAIRED` ([`Jobs::PAIRED`]) each job in the same lane of both
/// sets, two of its blocks a batch.
struct Sets<'a, J, const PAIRED: bool>(&'a mut J);

impl<J: Jobs, const P: bool> Jobs for Sets<'_, J, P> {
    const HOLDS: bool = J::HOLDS;
    const SETS: usize = 2;
    const PAIRED: bool = P;

    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        self.0.next(words)
    }

    #[inline(always)]
    fn release(&mut self) {
        self.0.release();
    }

    #[inline(always)]
    fn keep(&mut self, key: *mut u8) -> bool {
        self.0.keep(key)
    }

    fn two_sets(&self, lanes: usize) -> bool {
        self.0.two_sets(lanes)
    }
}

/// [`run_jobs`], or with `paired` (from [`pairs`]) the jobs on paired sets. Apart
/// from `run_jobs` so that only the sources that pair compile the paired kernel.
///
/// # Safety
/// As for [`run_jobs`].
#[inline(always)]
unsafe fn run_jobs_or_paired<J: Jobs>(
    backend: Backend,
    jobs: &mut J,
    paired: bool,
    double_rounds: u32,
) {
    // SAFETY: the caller's.
    unsafe {
        if paired {
            backend.xor_burst(&mut Sets::<_, true>(jobs), double_rounds);
        } else {
            run_jobs(backend, jobs, double_rounds);
        }
    }
}

/// Runs `jobs` through `backend`'s burst kernel: on two sets of lanes where the core
/// has them ([`lane_sets`]) and the jobs fill them ([`Jobs::two_sets`]), else on one.
///
/// # Safety
/// `backend` is available; the contract of the kernel (`generic::xor_burst`).
#[inline(always)]
unsafe fn run_jobs<J: Jobs>(backend: Backend, jobs: &mut J, double_rounds: u32) {
    let width = backend.lane_width();
    // SAFETY: the caller's.
    unsafe {
        if lane_sets(width) == 2 && jobs.two_sets(width) {
            backend.xor_burst(&mut Sets::<_, false>(jobs), double_rounds);
        } else {
            backend.xor_burst(jobs, double_rounds);
        }
    }
}

/// The jobs of a sealing group: for each item that goes through the lanes, its key
/// block (block 0, into its row of `keys`) and its message from block 1. With as many
/// items as a set of lanes holds, one job does both (one lane refill an item); with
/// fewer, two jobs, so that they run side by side in two lanes: the key block, then
/// (with [`SealJobs::halves`]) the first half of the message, in one, the rest of the
/// message in the other (fewer batches than one after the other).
struct SealJobs<'k, 'g, V, I> {
    items: &'g mut [I],
    key: Option<&'k [u8; 32]>,
    /// The group's [`aead_limit`].
    limit: usize,
    /// Whether each item is one job.
    fused: bool,
    /// Split items: whether the key block's job takes the first half of the message
    /// (else the key block alone): [`Costs::halves`].
    halves: bool,
    /// The group's lane items.
    lane_items: LaneItems,
    /// `GROUP` key blocks, one per item of the group.
    keys: *mut [u8; 64],
    order: LaneOrder,
    /// Split: the second job of the item whose first job was handed out last, the
    /// item, and (unless it is cheaper to compute again) its state.
    message: Option<Job>,
    pending: usize,
    words: [u32; 16],
    variant: core::marker::PhantomData<V>,
}

impl<V: AeadVariant, I: AeadItem<V>> Jobs for SealJobs<'_, '_, V, I> {
    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        if let Some(job) = self.message.take() {
            if <V as Sealed>::CHEAP_WORDS {
                item_words(&self.items[self.pending], self.key, words);
            } else {
                *words = self.words;
            }
            return Some(job);
        }
        let i = self.order.next(&*self.items, self.limit)?;
        // SAFETY: `i < GROUP`.
        let whole = unsafe { key_and_message(&mut self.items[i], i, self.key, self.keys, words) };
        if self.fused {
            return Some(whole);
        }
        if !<V as Sealed>::CHEAP_WORDS {
            self.words = *words;
        }
        self.pending = i;
        if self.halves {
            let (first, rest) = halves(whole);
            self.message = Some(rest);
            return Some(first);
        }
        self.message = Some(Job {
            counter: 1,
            key: core::ptr::null_mut(),
            ..whole
        });
        Some(Job { len: 0, ..whole })
    }

    fn two_sets(&self, lanes: usize) -> bool {
        // Split without halves: the key blocks beside the messages.
        let halves = self.halves || !self.fused;
        self.lane_items.two_sets(lanes, halves)
    }
}

/// An item's whole lane job (key block, then message) as two: the key block and the
/// first `ceil(blocks / 2) - 1` of the message's blocks, and the rest of the message.
/// The two end within a block of each other.
// Out of line: inlined, it slowed the kernel's refills of the other jobs (measured in
// the commit that split items in halves; figures in `docs/tuning.md`).
#[inline(never)]
fn halves(whole: Job) -> (Job, Job) {
    // Of the item's `m + 1` blocks, `ceil((m + 1) / 2)` in the first job.
    split_job(whole, (whole.len.div_ceil(64) + 2) / 2 - 1)
}

/// A message job (no key block) as two, its first `ceil(blocks / 2)` blocks and the
/// rest, which end within a block of each other. Out of line, as [`halves`].
#[inline(never)]
fn message_halves(job: Job) -> (Job, Job) {
    split_job(job, job.len.div_ceil(64).div_ceil(2))
}

/// `job` as two: its key block (if it has one) and the first `first` blocks of its
/// message, and the rest of the message.
#[inline(always)]
fn split_job(job: Job, first: usize) -> (Job, Job) {
    let first_len = (first * 64).min(job.len);
    let key_blocks = u64::from(!job.key.is_null());
    let rest = Job {
        counter: job.counter + key_blocks + first as u64,
        // SAFETY: `first_len <= len`: within (or one past the end of) the item's
        // buffer.
        input: unsafe { job.input.add(first_len) },
        // SAFETY: as above.
        output: unsafe { job.output.add(first_len) },
        len: job.len - first_len,
        key: core::ptr::null_mut(),
    };
    (
        Job {
            len: first_len,
            ..job
        },
        rest,
    )
}

/// The lane job of item `i` of a group, its key block and then its message in place:
/// its state's words written to `words`, its key block to row `i` of `keys`.
///
/// # Safety
/// `i < GROUP`, and `keys` points at `GROUP` writable rows.
#[inline(always)]
unsafe fn key_and_message<V: AeadVariant>(
    item: &mut impl AeadItem<V>,
    i: usize,
    key: Option<&[u8; 32]>,
    keys: *mut [u8; 64],
    words: &mut [u32; 16],
) -> Job {
    item_words(&*item, key, words);
    let buf = item.parts().2;
    let ptr = buf.as_mut_ptr();
    Job {
        counter: 0,
        input: ptr,
        output: ptr,
        len: buf.len(),
        // SAFETY: `i < GROUP`: within `keys` (the caller's).
        key: unsafe { keys.add(i) }.cast::<u8>(),
    }
}

impl<V, I> Drop for SealJobs<'_, '_, V, I> {
    fn drop(&mut self) {
        wipe(&mut self.words);
    }
}

/// An item opened on the single-message path (its verdict; zeroed if it fails).
fn open_single<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    item: &mut impl AeadItem<V>,
) -> Result<(), Error> {
    let state = item_state(&*item, key);
    let (_, aad, buf, tag) = item.parts();
    let tag = *tag;
    // The verdict is built here from whether it opened (the item's length was checked,
    // so a tag mismatch is the only failure): the callee's 48-byte `Result`, copied
    // whole into the verdicts, was read back before its stores could be forwarded.
    if crate::aead::open_checked(route, mac_route, &state, aad, buf, &tag).is_ok() {
        Ok(())
    } else {
        Err(Error::AuthenticationFailed)
    }
}

/// The AEAD seal of every item (after checking them all).
pub(crate) fn seal_items<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    items: &mut [impl AeadItem<V>],
) -> Result<(), Error> {
    seal_items_split(
        route,
        mac_route,
        key,
        items,
        keystream_alone(mac_route, false),
    )
}

/// [`seal_items`], with the items beyond a group's lane limit sealed with their
/// keystream alone as `alone_plan` has it ([`keystream_alone`]; a parameter so that the
/// tests run that plan on every backend and core).
fn seal_items_split<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    items: &mut [impl AeadItem<V>],
    alone_plan: Option<Alone>,
) -> Result<(), Error> {
    check_aead_items(items)?;
    for group in items.chunks_mut(GROUP) {
        let limit = aead_limit(route, group, false, alone_plan);
        let in_lanes_of = |len| limit.is_some_and(|limit| in_lanes(limit, len));
        let lanes = limit.map(|limit| (limit, lane_items(group, limit)));
        let beyond = group.len() - lanes.map_or(0, |(_, lane_items)| lane_items.count);
        let alone = alone_pays(alone_plan, group, limit, beyond);
        if limit.is_none() && !alone {
            for item in group.iter_mut() {
                let state = item_state(&*item, key);
                let (_, aad, buf, tag) = item.parts();
                *tag = crate::aead::seal_checked(route, mac_route, &state, aad, buf);
            }
            continue;
        }
        // Not initialised: the kernel writes the key block of every lane item, the
        // single path that of every item sealed alone, and only those are read (and
        // wiped).
        let mut keys = core::mem::MaybeUninit::<Rows>::uninit();
        let keys = keys.as_mut_ptr().cast::<[u8; 64]>();
        if let Some((limit, lane_items)) = lanes {
            // SAFETY: `keys` has a row for each of the group's `GROUP` or fewer items.
            unsafe { seal_lane_items(route, key, &mut *group, limit, lane_items, keys) };
        }
        if alone {
            for (i, item) in group.iter_mut().enumerate() {
                if !in_lanes_of(item.len()) {
                    let state = item_state(&*item, key);
                    let (_, _, buf, _) = item.parts();
                    let (ptr, len) = (buf.as_mut_ptr(), buf.len());
                    // SAFETY: `i < GROUP`: a row of `keys`.
                    let mut catch = KeyBlock(unsafe { keys.add(i) });
                    // SAFETY: in place over the item's buffer; the backend is available
                    // (every route a burst holds was checked); the length check keeps
                    // the message within blocks 1..2^32.
                    unsafe { route.seal(&state, ptr, ptr, len, &mut catch) };
                }
            }
        }
        // The items whose tags the MAC's lanes compute: the lane items, and with
        // `alone` every item.
        let mac_limit = if alone {
            usize::MAX
        } else {
            limit.unwrap_or(0)
        };
        let mut tags = core::mem::MaybeUninit::uninit();
        // SAFETY: the key block of every item within `mac_limit` was written above.
        let tags = unsafe { mac_tags(mac_route, group, mac_limit, keys, null(), &mut tags) };
        // SAFETY: as above.
        unsafe { wipe_lane_rows(group, mac_limit, keys) };
        let mut computed = tags.iter();
        for item in group.iter_mut() {
            if in_lanes(mac_limit, item.len()) {
                *item.parts().3 = *computed.next().expect("a tag for every lane item");
            } else {
                let state = item_state(&*item, key);
                let (_, aad, buf, tag) = item.parts();
                *tag = crate::aead::seal_checked(route, mac_route, &state, aad, buf);
            }
        }
        tags.iter_mut().for_each(wipe);
    }
    Ok(())
}

/// The keystream of a sealing group's items within `limit` (`lane_items`) through the
/// lanes, each item's key block into its row of `keys`.
///
/// # Safety
/// `route`'s backend is available; the group's items passed [`check_aead_items`];
/// `keys` points at a writable row for each of the group's items.
unsafe fn seal_lane_items<V: AeadVariant>(
    route: Route,
    key: Option<&[u8; 32]>,
    group: &mut [impl AeadItem<V>],
    limit: usize,
    lane_items: LaneItems,
    keys: *mut [u8; 64],
) {
    let (lanes, longest) = (lane_items.count, lane_items.longest);
    let backend = route.backend();
    let paired = pairs(backend, lanes, longest + 1);
    let halves = !paired
        && in_halves(
            backend,
            aead_costs(false, backend.lane_width()),
            lane_items,
            HALVES_FROM,
        );
    let fused = paired || (lanes >= backend.lane_width() && !halves);
    let order = LaneOrder::new(&*group, limit, lane_items, lane_width(backend));
    let mut jobs = SealJobs {
        items: group,
        key,
        limit,
        fused,
        halves,
        lane_items,
        keys,
        order,
        message: None,
        pending: 0,
        words: [0; 16],
        variant: core::marker::PhantomData,
    };
    // SAFETY: the backend is available (the caller's); each job is in place over its
    // own item's buffer or key block, all disjoint; the length check keeps every
    // message within blocks 1..2^32.
    unsafe { run_jobs_or_paired(backend, &mut jobs, paired, V::ROUNDS / 2) };
}

/// Where a group's items beyond its lane limit are sealed or opened with their
/// keystream alone on the single path (a seal catching each one-time key:
/// [`KeyBlock`]; an opening's key blocks from its key pass) and their tags from the
/// MAC's lanes with the lane items' (the MAC's own pass, one message a vector lane),
/// rather than each by the single seal or open with its MAC interleaved.
#[derive(Clone, Copy)]
struct Alone {
    /// The fewest such items that take the plan.
    fewest: usize,
    /// The most message blocks an item takes the lanes with where the plan applies:
    /// longer items beat the lanes by it.
    lanes_most: usize,
}

/// The keystream-alone plan ([`Alone`]) on this core with `mac_route`, for a seal or
/// (`open`) an opening; `None` where it was not measured faster. On Zen 5 with the
/// IFMA lanes: a seal from one lockstep set of the MAC's lanes, an opening (which pays
/// for a key pass too) from more; the counts and reaches are the crossovers measured
/// there (figures in `docs/tuning.md`). With another MAC the lanes keep their whole
/// reach.
fn keystream_alone(mac_route: MacRoute, open: bool) -> Option<Alone> {
    let ifma = mac_route.backend() == Poly1305Backend::Avx512Ifma;
    (Core::this() == Core::Zen5 && ifma).then_some(if open {
        Alone {
            fewest: 12,
            lanes_most: 18,
        }
    } else {
        Alone {
            fewest: 8,
            lanes_most: 17,
        }
    })
}

/// Whether a group takes the keystream-alone plan `plan`: its `beyond` items past the
/// lane limit (`limit`; `None`: every item) are at least the plan's `fewest`, and as
/// many of them are alike ([`alike_beyond`]). The count first: it is known, and the
/// shapes are read only where it holds.
#[inline(always)]
fn alone_pays<V: AeadVariant>(
    plan: Option<Alone>,
    group: &[impl AeadItem<V>],
    limit: Option<usize>,
    beyond: usize,
) -> bool {
    plan.is_some_and(|plan| beyond >= plan.fewest && alike_beyond(group, limit, plan.fewest))
}

/// Whether at least `fewest` of `group`'s items beyond its lane limit (`None`: every
/// item) share the first such item's shape, its AAD and message lengths: the
/// keystream-alone plan ([`Alone`]) gains where the MAC's lanes take such items in sets
/// of one shape. Items of differing lengths take the MAC one at a time there, as the
/// single path does beside its keystream, so the plan's own bookkeeping is all it adds
/// (docs/tuning.md, "Bursts").
fn alike_beyond<V: AeadVariant>(
    group: &[impl AeadItem<V>],
    limit: Option<usize>,
    fewest: usize,
) -> bool {
    let shape = |item: &&_| {
        let (_, aad, message, _) = AeadItem::<V>::view(*item);
        (aad.len(), message.len())
    };
    let mut beyond = group
        .iter()
        .filter(|item| !limit.is_some_and(|limit| in_lanes(limit, item.len())));
    let Some(first) = beyond.next() else {
        return false;
    };
    let first = shape(&first);
    1 + beyond.filter(|item| shape(item) == first).count() >= fewest
}

/// A MAC that only keeps the one-time key: the single path's seal with it is the
/// keystream alone, block 0 written to the row it points at.
struct KeyBlock(*mut [u8; 64]);

impl crate::backend::generic::Absorb for KeyBlock {
    #[inline(always)]
    fn key(&mut self, block0: &[u8; 64]) {
        // SAFETY: the row is writable (where `KeyBlock` is made).
        unsafe { self.0.write(*block0) };
    }

    #[inline(always)]
    fn absorb(&mut self, _blocks: &[u8]) {}

    #[inline(always)]
    fn absorb_scalar(&mut self, _blocks: &[u8]) {}
}

/// The AEAD tags of the items of `group` that go through the lanes, in their order in
/// the group, from their key blocks (their rows of `keys`) and their ciphertexts (in
/// their buffers, or unless null the first bytes of their rows of `ciphertexts`): all
/// of them together on `mac_route`'s backend, one message a vector lane where it has
/// lanes. Written to the front of `tags` (only that prefix is initialised: a group of
/// 16 does not pay for 64 jobs and tags), which is returned; the caller wipes it.
///
/// # Safety
/// `keys` points at `GROUP` rows, of which those of the items in the lanes are written;
/// so does `ciphertexts` unless null, their first bytes written, as many as the item's
/// buffer holds.
unsafe fn mac_tags<'t, V: AeadVariant>(
    mac_route: MacRoute,
    group: &[impl AeadItem<V>],
    limit: usize,
    keys: *const [u8; 64],
    ciphertexts: *const [u8; 64],
    tags: &'t mut core::mem::MaybeUninit<[[u8; TAG_LEN]; GROUP]>,
) -> &'t mut [[u8; TAG_LEN]] {
    let mut jobs = core::mem::MaybeUninit::<[MacJob<'_>; GROUP]>::uninit();
    let jobs = jobs.as_mut_ptr().cast::<MacJob<'_>>();
    let mut n = 0;
    for (i, item) in group.iter().enumerate() {
        if in_lanes(limit, item.len()) {
            // SAFETY: an item in the lanes: its row is written (the caller's).
            let key = unsafe { &*keys.add(i) };
            let (_, aad, mut ciphertext, _) = item.view();
            if !ciphertexts.is_null() {
                // SAFETY: the item's row, its first `len` bytes written (the caller's).
                ciphertext = unsafe {
                    core::slice::from_raw_parts(ciphertexts.add(i).cast::<u8>(), ciphertext.len())
                };
            }
            // SAFETY: `n <= i < group.len() <= GROUP`: within `jobs`.
            unsafe {
                jobs.add(n).write(MacJob {
                    key,
                    aad,
                    ciphertext,
                })
            };
            n += 1;
        }
    }
    // SAFETY: the first `n` jobs were written just above; the first `n <= GROUP` tags
    // are zeroed before the slice over them is made.
    let (jobs, tags) = unsafe {
        let tags = tags.as_mut_ptr().cast::<[u8; TAG_LEN]>();
        tags.write_bytes(0, n);
        (
            core::slice::from_raw_parts(jobs, n),
            core::slice::from_raw_parts_mut(tags, n),
        )
    };
    mac_route.backend().aead_tags(jobs, tags);
    tags
}

/// Wipes the rows of `group`'s items in the lanes: their key blocks, or the states an
/// opening kept (64 bytes each, with [`wipe_row`]: `wipe` copied each row's zeros from
/// the stack).
///
/// # Safety
/// `rows` points at `GROUP` writable rows of 64 bytes, 8-byte aligned, of which those
/// of the items in the lanes are written.
unsafe fn wipe_lane_rows<V: AeadVariant, R>(
    group: &[impl AeadItem<V>],
    limit: usize,
    rows: *mut R,
) {
    const { assert!(core::mem::size_of::<R>() == 64) };
    let rows = rows.cast::<[u8; 64]>();
    for (i, item) in group.iter().enumerate() {
        if in_lanes(limit, item.len()) {
            // SAFETY: a written row (the caller's), 8-byte aligned.
            unsafe { wipe_row(rows.add(i)) };
        }
    }
}

/// The key-block jobs of an opening group: block 0 of each item through the lanes,
/// into its row of `keys`; with `ciphertexts` (items of at most one block), the
/// message as well, decrypted into its buffer from the copy of its ciphertext that
/// [`KeyJobs::next`] makes in its row of `ciphertexts`, whence the MAC reads it
/// ([`mac_tags`]): the message needs no pass of its own, and its tag is checked after
/// (a failed item is zeroed, as the single open does). Each item's state is kept in
/// `states` (unless null) where the message pass would pay more to compute it again
/// ([`Sealed::CHEAP_WORDS`]).
struct KeyJobs<'k, 'g, V, I> {
    items: &'g mut [I],
    key: Option<&'k [u8; 32]>,
    limit: usize,
    /// `GROUP` rows (not initialised): the kernel writes those of the lane items.
    keys: *mut [u8; 64],
    /// The same for the one-block messages' ciphertexts; null: the key blocks alone.
    ciphertexts: *mut [u8; 64],
    /// The same for the states; null: not kept.
    states: *mut [u32; 16],
    next: usize,
    variant: core::marker::PhantomData<V>,
}

impl<V: AeadVariant, I: AeadItem<V>> Jobs for KeyJobs<'_, '_, V, I> {
    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        let i = next_lane_item(self.items, self.limit, &mut self.next)?;
        item_words(&self.items[i], self.key, words);
        if !<V as Sealed>::CHEAP_WORDS && !self.states.is_null() {
            // SAFETY: `i < GROUP`: within `states`.
            unsafe { self.states.add(i).write(*words) };
        }
        // SAFETY: `i < GROUP`: within `keys`.
        let key = unsafe { self.keys.add(i) }.cast::<u8>();
        if self.ciphertexts.is_null() {
            return Some(Job {
                counter: 0,
                input: core::ptr::null(),
                output: core::ptr::null_mut(),
                len: 0,
                key,
            });
        }
        // SAFETY: `i < GROUP`: within `ciphertexts`.
        let row = unsafe { self.ciphertexts.add(i) }.cast::<u8>();
        let buf = self.items[i].parts().2;
        // SAFETY: the item's own row; the lane items are of at most one block (where
        // `ciphertexts` is set).
        unsafe { copy_block(row, buf) };
        Some(Job {
            counter: 0,
            input: row,
            output: buf.as_mut_ptr(),
            len: buf.len(),
            key,
        })
    }

    fn two_sets(&self, lanes: usize) -> bool {
        let blocks = if self.ciphertexts.is_null() { 1 } else { 2 };
        let count = lane_items(self.items, self.limit).count;
        two_sets_pay(lanes, blocks * count, blocks)
    }
}

/// The message jobs of an opening group: each item through the lanes whose tag
/// matched, from block 1, under its state (computed again, or the one the key pass
/// kept where that is cheaper: [`Sealed::CHEAP_WORDS`]); with `halves`, as two jobs,
/// so that a group of fewer items than lanes fills them.
struct MessageJobs<'k, 'g, V, I> {
    items: &'g mut [I],
    key: Option<&'k [u8; 32]>,
    limit: usize,
    verdicts: &'g [Result<(), Error>],
    /// The key pass's `states` (its rows of the items in the lanes written, where
    /// kept).
    states: *const [u32; 16],
    order: LaneOrder,
    /// Whether each message is two jobs ([`message_halves`]).
    halves: bool,
    /// With `halves`: the second job of the item handed out last, and that item.
    rest: Option<Job>,
    last: usize,
    variant: core::marker::PhantomData<V>,
}

impl<V: AeadVariant, I: AeadItem<V>> MessageJobs<'_, '_, V, I> {
    /// Item `i`'s state words, from block 0.
    #[inline(always)]
    fn words(&self, i: usize, words: &mut [u32; 16]) {
        if <V as Sealed>::CHEAP_WORDS {
            item_words(&self.items[i], self.key, words);
        } else {
            // SAFETY: `i < GROUP`; an item in the lanes: the key pass wrote its row.
            *words = unsafe { self.states.add(i).read() };
        }
    }
}

impl<V: AeadVariant, I: AeadItem<V>> Jobs for MessageJobs<'_, '_, V, I> {
    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        if self.halves
            && let Some(job) = self.rest.take()
        {
            self.words(self.last, words);
            return Some(job);
        }
        while let Some(i) = self.order.next(&*self.items, self.limit) {
            // The failed ones stay zeroed (the long ones are open already).
            if self.verdicts[i].is_err() {
                continue;
            }
            self.words(i, words);
            let buf = self.items[i].parts().2;
            let ptr = buf.as_mut_ptr();
            let job = Job {
                counter: 1,
                input: ptr,
                output: ptr,
                len: buf.len(),
                key: core::ptr::null_mut(),
            };
            if self.halves {
                let (first, rest) = message_halves(job);
                self.rest = (rest.len != 0).then_some(rest);
                self.last = i;
                return Some(first);
            }
            return Some(job);
        }
        None
    }

    fn two_sets(&self, lanes: usize) -> bool {
        let items = lane_items(self.items, self.limit);
        let longest = if self.halves {
            items.longest.div_ceil(2)
        } else {
            items.longest
        };
        two_sets_pay(lanes, items.blocks, longest)
    }
}
/// The jobs of an opening group in one kernel call: each item through the lanes as one
/// job, its key block and then, held until its tag is checked, its message from block
/// 1 in the same lane (the lane's state goes on from the key block: no second refill;
/// on paired sets, block 1 is computed beside the key block and kept aside).
/// The kernel releases the held items a wave at a time, once every busy lane waits:
/// here the wave's tags are computed together on the MAC's lanes and compared, and
/// the items that failed are zeroed and dropped.
struct OpenJobs<'k, 'g, V, I> {
    items: &'g mut [I],
    verdicts: &'g mut [Result<(), Error>],
    key: Option<&'k [u8; 32]>,
    limit: usize,
    mac_route: MacRoute,
    /// `GROUP` key blocks (not initialised), one per item of the group: those of the
    /// items handed out are written by the kernel, read and wiped at the release.
    keys: *mut [u8; 64],
    next: usize,
    /// The items before this one are checked: verdicts written, key blocks wiped.
    checked: usize,
    variant: core::marker::PhantomData<V>,
}

impl<V: AeadVariant, I: AeadItem<V>> Jobs for OpenJobs<'_, '_, V, I> {
    const HOLDS: bool = true;

    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        let i = next_lane_item(&*self.items, self.limit, &mut self.next)?;
        // SAFETY: `i < GROUP`.
        Some(unsafe { key_and_message(&mut self.items[i], i, self.key, self.keys, words) })
    }

    fn release(&mut self) {
        let (from, to) = (self.checked, self.next);
        self.checked = to;
        let wave = &self.items[from..to];
        // SAFETY: `from <= to <= GROUP`; the kernel releases only once the key block
        // of every job handed out is written: the rows of the wave's lane items.
        let keys = unsafe { self.keys.add(from) };
        let mut tags = core::mem::MaybeUninit::uninit();
        // SAFETY: as above.
        let tags = unsafe { mac_tags(self.mac_route, wave, self.limit, keys, null(), &mut tags) };
        // SAFETY: as above.
        unsafe { wipe_lane_rows(wave, self.limit, keys) };
        // The kept items' buffers are still written by the lanes: only the failed
        // ones (dropped, `keep`) are zeroed through a new borrow.
        let (items, verdicts) = (&mut self.items[from..to], &mut self.verdicts[from..to]);
        lane_verdicts(items, self.limit, tags, verdicts);
        tags.iter_mut().for_each(wipe);
    }

    #[inline(always)]
    fn keep(&mut self, key: *mut u8) -> bool {
        // SAFETY: `key` is the row of `keys` that `next` handed out with a held job:
        // within the same array, a whole number of rows from its start.
        let i = unsafe { key.cast::<[u8; 64]>().offset_from(self.keys) };
        self.verdicts[i as usize].is_ok()
    }

    fn two_sets(&self, lanes: usize) -> bool {
        lane_items(self.items, self.limit).two_sets(lanes, false)
    }
}
/// Whether an opening group's lane items go through the lanes in waves ([`OpenJobs`])
/// with no lane waiting long for the others: at most a batch's `width` of them (one
/// wave), or all of one length in blocks (each wave's messages end together). Else a
/// released wave would wait for the longest message of the one before it.
fn waves_fit<V: AeadVariant>(group: &[impl AeadItem<V>], limit: usize, width: usize) -> bool {
    let mut blocks = group
        .iter()
        .filter(|item| in_lanes(limit, item.len()))
        .map(|item| item.len().div_ceil(64));
    let Some(first) = blocks.next() else {
        return true;
    };
    let (mut items, mut same) = (1, true);
    for b in blocks {
        items += 1;
        same &= b == first;
    }
    same || items <= width
}

/// Whether an opening group whose lane items are at most `limit` blocks, `count` of
/// them, opens with block 1 in the key pass ([`OpenPasses::first_blocks`]) and no
/// message pass: items of at most one block, no more than the lanes (more measured
/// slower than waves; a burst of more such items opens in groups of a set's width,
/// [`open_group_len`]), on the cores where that was measured faster
/// ([`one_pass_short_opens`]; elsewhere the waves stay). Not for longer items: on
/// Zen 5 a paired batch costs more than a batch of one set, and block 1's release
/// more than the batch it saves (docs/tuning.md).
#[inline(always)]
fn short_opens(backend: Backend, limit: usize, count: usize) -> bool {
    let width = backend.lane_width();
    limit <= 1 && one_pass_short_opens(width) && count <= lane_width(backend)
}

/// The verdicts of the items of `items` through the lanes under `limit`, from their
/// computed `tags` (in the lanes' order, as [`mac_tags`] gives them): one
/// declassification for them all where every tag matched (making public no more than
/// their verdicts do), else one an item, each failed item zeroed. The other items'
/// verdicts are left as they are.
///
/// Only a failed item's buffer is borrowed again (to zero it): the lanes of an
/// [`OpenJobs`] wave still write the kept ones.
fn lane_verdicts<V: AeadVariant, I: AeadItem<V>>(
    items: &mut [I],
    limit: usize,
    tags: &[[u8; TAG_LEN]],
    verdicts: &mut [Result<(), Error>],
) {
    let lane_item = |item: &&I| in_lanes(limit, item.len());
    let mut difference = 0;
    for (item, expected) in items.iter().filter(lane_item).zip(tags) {
        difference |= tag_difference(expected, item.view().3);
    }
    if tag_verdict(difference.ct_eq(&0), &mut []).is_ok() {
        for (item, verdict) in items.iter().zip(verdicts.iter_mut()) {
            if in_lanes(limit, item.len()) {
                *verdict = Ok(());
            }
        }
        return;
    }
    let mut computed = tags.iter();
    for (item, verdict) in items.iter_mut().zip(verdicts.iter_mut()) {
        if in_lanes(limit, item.len()) {
            let expected = computed.next().expect("a tag for every lane item");
            *verdict = tag_verdict(tags_equal(expected, item.view().3), &mut []);
            if verdict.is_err() {
                item.parts().2.fill(0);
            }
        }
    }
}

/// `buf` (at most a block: an opening's one-block message) copied to `row`'s first
/// bytes, as whole 32-, 16-, 8- or 4-byte moves, overlapping where the length is not
/// one of theirs: a few loads and stores (a copy of a slice of unknown length is a
/// `memcpy` call).
///
/// # Safety
/// `row` is valid for 64 bytes of writes (they need not be initialised).
#[inline(always)]
unsafe fn copy_block(row: *mut u8, buf: &[u8]) {
    /// The first and last `N` bytes of `buf` (`N <= len <= 2N`) copied.
    ///
    /// # Safety
    /// As [`copy_block`]'s, and `buf` is at most 64 bytes.
    #[inline(always)]
    unsafe fn ends<const N: usize>(row: *mut u8, buf: &[u8]) {
        if let (Some(head), Some(tail)) = (buf.first_chunk::<N>(), buf.last_chunk::<N>()) {
            // SAFETY: `N <= len <= 64` bytes from the row's start, and the last `N` of
            // them: within the row (the caller's).
            unsafe {
                row.cast::<[u8; N]>().write_unaligned(*head);
                row.add(buf.len() - N)
                    .cast::<[u8; N]>()
                    .write_unaligned(*tail);
            }
        }
    }
    let len = buf.len();
    assert!(len <= 64, "a one-block message");
    // SAFETY: `len <= 64`, the row the caller's.
    unsafe {
        match len {
            32.. => ends::<32>(row, buf),
            16..=31 => ends::<16>(row, buf),
            8..=15 => ends::<8>(row, buf),
            4..=7 => ends::<4>(row, buf),
            _ => core::ptr::copy_nonoverlapping(buf.as_ptr(), row, len),
        }
    }
}

/// How an opening group's passes run ([`open_in_passes`]).
#[derive(Clone, Copy)]
struct OpenPasses {
    /// The lane items are at most a block long: the key pass decrypts each message
    /// beside its key block ([`KeyJobs::ciphertexts`]), and there is no message pass.
    first_blocks: bool,
    /// The key pass on paired sets ([`Jobs::PAIRED`]).
    keys_paired: bool,
    /// The message pass takes each message as two jobs ([`MessageJobs::halves`]).
    halves: bool,
    /// The group's lane items under the passes' limit, as [`lane_items`] counts them
    /// (the message pass's order, [`LaneOrder`]).
    lane_items: LaneItems,
}

/// The open of a group in passes, each its own kernel call: the key blocks of every
/// lane item (with [`OpenPasses::first_blocks`], and their one-block messages
/// decrypted); all their tags, compared; then the messages of the items that matched.
/// The failed items are zeroed; the rest of the group opens on the single path; with
/// `ALONE`, only its keystream ([`keystream_alone`]): the key blocks and tags of every
/// item of the group come from the passes. A constant, so that the plan without it
/// compiles as it did before it (the short openings ran slower with it a run-time
/// choice). Returns `Err` if any item failed.
fn open_in_passes<V: AeadVariant, const ALONE: bool>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    group: &mut [impl AeadItem<V>],
    verdicts: &mut [Result<(), Error>],
    limit: usize,
    passes: OpenPasses,
) -> Result<(), Error> {
    let backend = route.backend();
    // None of the arrays initialised: the key pass writes the rows of the lane items
    // (their copies, [`KeyJobs::next`]), and only those are read (the key blocks and
    // states wiped).
    let mut keys = core::mem::MaybeUninit::<Rows>::uninit();
    let keys = keys.as_mut_ptr().cast::<[u8; 64]>();
    let mut ciphertexts = core::mem::MaybeUninit::<Rows>::uninit();
    let ciphertexts = if passes.first_blocks {
        ciphertexts.as_mut_ptr().cast::<[u8; 64]>()
    } else {
        core::ptr::null_mut()
    };
    debug_assert!(!passes.first_blocks || (limit <= 1 && !ALONE));
    let messages = !passes.first_blocks;
    // The items whose key blocks and tags the passes compute.
    let mac_limit = if ALONE { usize::MAX } else { limit };
    let mut states = core::mem::MaybeUninit::<States>::uninit();
    let keep_states = !<V as Sealed>::CHEAP_WORDS && messages;
    let states = if keep_states {
        states.as_mut_ptr().cast::<[u32; 16]>()
    } else {
        core::ptr::null_mut()
    };
    let mut jobs = KeyJobs {
        items: &mut *group,
        key,
        limit: mac_limit,
        keys,
        ciphertexts,
        states,
        next: 0,
        variant: core::marker::PhantomData,
    };
    // SAFETY: the backend is available (every route a burst holds was checked); each
    // job writes its own item's row of `keys` and its own buffer, reading its own row
    // of `ciphertexts` (as long as the buffer); two blocks from 0 are within every
    // counter.
    unsafe { run_jobs_or_paired(backend, &mut jobs, passes.keys_paired, V::ROUNDS / 2) };
    let mut tags = core::mem::MaybeUninit::uninit();
    // SAFETY: the key pass wrote the key block of every lane item, and with
    // `ciphertexts` its ciphertext.
    let tags = unsafe { mac_tags(mac_route, group, mac_limit, keys, ciphertexts, &mut tags) };
    // SAFETY: as above.
    unsafe { wipe_lane_rows(group, mac_limit, keys) };
    lane_verdicts(group, mac_limit, tags, verdicts);
    tags.iter_mut().for_each(wipe);
    if messages {
        let order = LaneOrder::new(&*group, limit, passes.lane_items, lane_width(backend));
        let mut jobs = MessageJobs {
            items: &mut *group,
            key,
            limit,
            verdicts: &*verdicts,
            states,
            order,
            halves: passes.halves,
            rest: None,
            last: 0,
            variant: core::marker::PhantomData,
        };
        // SAFETY: the backend is available; each job is in place over its own item's
        // buffer, all disjoint; the length check keeps every message within blocks
        // 1..2^32.
        unsafe { run_jobs(backend, &mut jobs, V::ROUNDS / 2) };
    }
    if keep_states {
        // SAFETY: the key pass wrote the states of the items within `mac_limit`.
        unsafe { wipe_lane_rows(group, mac_limit, states) };
    }
    let mut all = Ok(());
    for (item, verdict) in group.iter_mut().zip(verdicts.iter_mut()) {
        if in_lanes(limit, item.len()) {
            // Opened (or refused and zeroed) by the passes above.
        } else if !ALONE {
            *verdict = open_single(route, mac_route, key, item);
        } else if verdict.is_ok() {
            // Its tag matched in the passes: its keystream alone. One that failed
            // stays as the passes left it, zeroed and refused (opened again from its
            // zeros, it would pass wherever its ciphertext was all zeros).
            let state = item_state(&*item, key);
            let (_, _, buf, _) = item.parts();
            let (ptr, len) = (buf.as_mut_ptr(), buf.len());
            // SAFETY: in place over the item's buffer; the backend is available (every
            // route a burst holds was checked); the length check keeps the message
            // within blocks 1..2^32.
            unsafe { route.xor_keystream(&state, 1, ptr, ptr, len) };
        }
        if verdict.is_err() {
            all = Err(Error::AuthenticationFailed);
        }
    }
    all
}

/// Zeroes a row of keystream with eight volatile word stores ([`wipe`]'s one store
/// of the whole array builds its zeros on the stack and copies them).
///
/// # Safety
/// `row` is valid for writes and 8-byte aligned.
#[inline(always)]
unsafe fn wipe_row(row: *mut [u8; 64]) {
    let words = row.cast::<u64>();
    for w in 0..8 {
        // SAFETY: within the row (the caller's), aligned.
        unsafe { core::ptr::write_volatile(words.add(w), 0) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// The AEAD open of every item (after checking them all), verdicts to `verdicts`.
pub(crate) fn open_items<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    items: &mut [impl AeadItem<V>],
    verdicts: &mut [Result<(), Error>],
) -> Result<(), Error> {
    if verdicts.len() != items.len() {
        return Err(Error::LengthMismatch {
            input: items.len(),
            output: verdicts.len(),
        });
    }
    check_aead_items(items)?;
    let alone = keystream_alone(mac_route, true);
    let group_len = open_group_len(route.backend(), items);
    open_checked_items(route, mac_route, key, items, verdicts, alone, group_len)
}

/// The items an opening group holds: [`GROUP`], but for a burst of more items than
/// the lanes, none longer than a block, where those open in one pass
/// ([`short_opens`], [`one_pass_short_opens`]): one set's width. Each such group opens
/// with one key pass (paired, on Zen 5's two sets), which measured faster than one key
/// pass of all the lanes or waves (figures in `docs/tuning.md`).
#[inline(always)]
fn open_group_len<V: AeadVariant>(backend: Backend, items: &[impl AeadItem<V>]) -> usize {
    let width = backend.lane_width();
    if one_pass_short_opens(width)
        && items.len() > lane_width(backend)
        && items.iter().all(|item| item.len() <= 64)
    {
        width
    } else {
        GROUP
    }
}

/// [`open_items`] after its checks, with [`open_group`]'s `alone`, in groups of
/// `group_len` items ([`open_group_len`]).
#[inline(always)]
fn open_checked_items<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    items: &mut [impl AeadItem<V>],
    verdicts: &mut [Result<(), Error>],
    alone: Option<Alone>,
    group_len: usize,
) -> Result<(), Error> {
    let mut all = Ok(());
    let groups = items
        .chunks_mut(group_len)
        .zip(verdicts.chunks_mut(group_len));
    for (group, verdicts) in groups {
        if open_group(route, mac_route, key, group, verdicts, alone).is_err() {
            all = Err(Error::AuthenticationFailed);
        }
    }
    all
}

/// The AEAD open of one group of a burst ([`open_items`]), with the items beyond its
/// lane limit opened with their keystream alone as `alone` has it
/// ([`keystream_alone`]; a parameter so that the tests run that plan on every
/// backend and core). Returns `Err` if any item failed.
// In line: as a function of its own, short openings ran slower (`docs/tuning.md`).
#[inline(always)]
fn open_group<V: AeadVariant>(
    route: Route,
    mac_route: MacRoute,
    key: Option<&[u8; 32]>,
    group: &mut [impl AeadItem<V>],
    verdicts: &mut [Result<(), Error>],
    alone: Option<Alone>,
) -> Result<(), Error> {
    let limit = aead_limit(route, group, true, alone);
    let lanes = limit.map(|limit| (limit, lane_items(group, limit)));
    let beyond = group.len() - lanes.map_or(0, |(_, lane_items)| lane_items.count);
    if alone_pays(alone, group, limit, beyond) {
        // No limit: the empty items alone (nothing in their messages).
        let (limit, lane_group) = lanes.unwrap_or_else(|| (0, lane_items(group, 0)));
        let passes = OpenPasses {
            first_blocks: false,
            keys_paired: false,
            halves: false,
            lane_items: lane_group,
        };
        return open_in_passes::<V, true>(route, mac_route, key, group, verdicts, limit, passes);
    }
    let mut all = Ok(());
    let Some((limit, lane_group)) = lanes else {
        for (item, verdict) in group.iter_mut().zip(verdicts.iter_mut()) {
            *verdict = open_single(route, mac_route, key, item);
            if verdict.is_err() {
                all = Err(Error::AuthenticationFailed);
            }
        }
        return all;
    };
    let backend = route.backend();
    let short = short_opens(backend, limit, lane_group.count);
    // Halves that fit one set of lanes pay from a seal's length; so do those of
    // more items of one length than a set holds whose whole jobs would not take
    // two sets: their waves would run one set and leave the second wave mostly
    // idle.
    let width = backend.lane_width();
    let count = lane_group.count;
    let from = if 2 * count <= width
        || (lane_group.uniform() && count > width && !lane_group.two_sets(width, false))
    {
        HALVES_FROM
    } else {
        OPEN_HALVES_FROM
    };
    let halves = in_halves(backend, aead_costs(true, width), lane_group, from);
    // Waves on paired sets from `OPEN_PAIRED_FROM` message blocks.
    let paired = pairs(backend, lane_group.count, lane_group.longest)
        && lane_group.longest >= OPEN_PAIRED_FROM;
    let halves = halves && !paired && !short;
    if !short && !halves && (paired || waves_fit(group, limit, lane_width(backend))) {
        // Not initialised: the kernel writes the key block of every lane item, and
        // only those are read (and wiped).
        let mut keys = core::mem::MaybeUninit::<Rows>::uninit();
        let mut jobs = OpenJobs {
            items: &mut *group,
            verdicts: &mut *verdicts,
            key,
            limit,
            mac_route,
            keys: keys.as_mut_ptr().cast::<[u8; 64]>(),
            next: 0,
            checked: 0,
            variant: core::marker::PhantomData,
        };
        // SAFETY: the backend is available; each job is in place over its own
        // item's buffer and key block, all disjoint; the length check keeps every
        // message within blocks 1..2^32.
        unsafe { run_jobs_or_paired(route.backend(), &mut jobs, paired, V::ROUNDS / 2) };
        for (item, verdict) in group.iter_mut().zip(verdicts.iter_mut()) {
            if !in_lanes(limit, item.len()) {
                *verdict = open_single(route, mac_route, key, item);
            }
            if verdict.is_err() {
                all = Err(Error::AuthenticationFailed);
            }
        }
        return all;
    }
    // Else (items of one block, items split in halves, or waves that would wait
    // on each other) in passes.
    let passes = OpenPasses {
        first_blocks: short,
        // Two blocks each.
        keys_paired: short && pairs(backend, lane_group.count, 2),
        halves,
        lane_items: lane_group,
    };
    open_in_passes::<V, false>(route, mac_route, key, group, verdicts, limit, passes)
}

/// The jobs of a keystream burst: every item within the burst's lane limit, in the
/// burst's order.
struct XorJobs<'a, 'b, V: Variant> {
    items: core::slice::IterMut<'a, XorItem<'b, V>>,
    limit: usize,
}

impl<V: Variant> Jobs for XorJobs<'_, '_, V> {
    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        let limit = self.limit;
        let item = self.items.find(|item| in_lanes(limit, item.buf.len()))?;
        Some(xor_job(item, words))
    }

    fn two_sets(&self, lanes: usize) -> bool {
        xor_two_sets(self.items.as_slice(), self.limit, lanes)
    }
}

/// The same longest first within each [`GROUP`] of items ([`LongestFirst`]), for
/// bursts of more items than lanes and more than one length. A source of its own, so
/// that the kernel over [`XorJobs`] keeps its plain walk through the items, with no
/// choice of orders in its refills (docs/tuning.md, the row of the commit that added
/// this source).
struct XorJobsLongestFirst<'a, 'b, V: Variant> {
    items: &'a mut [XorItem<'b, V>],
    /// At most [`MOST_BLOCKS`].
    limit: usize,
    /// The first item of the group being handed out.
    group: usize,
    /// That group's lane items in order (the first `len`), from `at` on not yet
    /// handed out.
    order: [u8; GROUP],
    len: usize,
    at: usize,
}

impl<'a, 'b, V: Variant> XorJobsLongestFirst<'a, 'b, V> {
    /// The jobs of `items` under `limit` (at most [`MOST_BLOCKS`]), the first group
    /// ordered.
    fn new(items: &'a mut [XorItem<'b, V>], limit: usize) -> Self {
        let mut order = [0; GROUP];
        let len = xor_group_order(items, limit, &mut order);
        Self {
            items,
            limit,
            group: 0,
            order,
            len,
            at: 0,
        }
    }
}

impl<V: Variant> Jobs for XorJobsLongestFirst<'_, '_, V> {
    #[inline(always)]
    fn next(&mut self, words: &mut [u32; 16]) -> Option<Job> {
        // A group may have no lane item: on to the next.
        while self.at == self.len {
            self.group += GROUP;
            let rest = self
                .items
                .get(self.group..)
                .filter(|rest| !rest.is_empty())?;
            (self.len, self.at) = (xor_group_order(rest, self.limit, &mut self.order), 0);
        }
        let i = self.group + usize::from(self.order[self.at]);
        self.at += 1;
        Some(xor_job(&mut self.items[i], words))
    }

    fn two_sets(&self, lanes: usize) -> bool {
        xor_two_sets(&self.items[self.group..], self.limit, lanes)
    }
}

/// Writes to `order` the lane items under `limit` of the first [`GROUP`] of `items`,
/// longest first ([`LongestFirst`]); returns how many.
// Out of line: once a group, away from the kernel's refills.
#[inline(never)]
fn xor_group_order<V: Variant>(
    items: &[XorItem<'_, V>],
    limit: usize,
    order: &mut [u8; GROUP],
) -> usize {
    let blocks = items
        .iter()
        .take(GROUP)
        .map(|item| item.buf.len().div_ceil(64));
    let longest_first = LongestFirst::new(limit, limit, blocks);
    let mut len = 0;
    for (place, i) in order.iter_mut().zip(longest_first) {
        *place = i as u8;
        len += 1;
    }
    len
}

/// Whether `blocks` holds more than one value.
fn lengths_differ(mut blocks: impl Iterator<Item = usize>) -> bool {
    let first = blocks.next();
    blocks.any(|b| Some(b) != first)
}

/// A keystream item's job, its state's words to `words`.
#[inline(always)]
fn xor_job<V: Variant>(item: &mut XorItem<'_, V>, words: &mut [u32; 16]) -> Job {
    <V as Sealed>::write_words(item.key, item.nonce.as_ref(), words);
    let ptr = item.buf.as_mut_ptr();
    Job {
        counter: item.counter.into(),
        input: ptr,
        output: ptr,
        len: item.buf.len(),
        key: core::ptr::null_mut(),
    }
}

/// [`Jobs::two_sets`] for the keystream `items` not yet handed out, under `limit`.
fn xor_two_sets<V: Variant>(items: &[XorItem<'_, V>], limit: usize, lanes: usize) -> bool {
    // No count of the blocks (it cost short bursts more than it saved) where the items
    // bound it: with one-block lane items, or too few items to fill one and a half
    // sets whatever their lengths.
    if limit == 1 || 2 * items.len() < 3 * lanes {
        return two_sets_pay(lanes, items.len(), 1);
    }
    let (blocks, longest) = items
        .iter()
        .map(|item| item.buf.len().div_ceil(64))
        .filter(|&b| b <= limit)
        .fold((0, 0), |(all, most), b| (all + b, most.max(b)));
    two_sets_pay(lanes, blocks, longest)
}

/// The keystream XOR of every item (after checking them all).
pub(crate) fn xor_items<V: Variant>(
    route: Route,
    items: &mut [XorItem<'_, V>],
) -> Result<(), Error> {
    let end = V::BLOCKS * 64;
    let mut longest = 0;
    for (index, item) in items.iter().enumerate() {
        longest = longest.max(item.buf.len());
        let start = u128::from(item.counter.into()) * 64;
        let requested = item.buf.len() as u128;
        // A counter of the variant's width is at most the end, so this cannot wrap.
        if requested > end - start {
            return Err(Error::InvalidBurstItem {
                index,
                requested,
                allowed: end - start,
            });
        }
    }
    let backend = route.backend();
    let limit = if backend.has_lane_bursts() {
        // Empty items cost nothing on either path.
        let blocks = items.iter().map(|item| item.buf.len().div_ceil(64));
        // The limit as for one set of lanes: for two it left an IMIX burst's 576-byte
        // items to the single path (measured in the commit that added the second
        // set; figures in `docs/tuning.md`). The kernel still takes the second set
        // where the lane items keep it busy (`XorJobs::two_sets`).
        lane_limit(
            backend.lane_width(),
            1,
            xor_costs(backend.lane_width()),
            blocks.filter(|&b| b != 0),
        )
    } else {
        None
    };
    if let Some(limit) = limit {
        // Another order only where there are more items than lanes, of more than one
        // length: a pass of its own, made only for the bursts that could need it, so
        // that the check above stays a single running maximum for every burst.
        let longest_first = (2..=MOST_BLOCKS).contains(&limit)
            && items.len() > lane_width(backend)
            && lengths_differ(items.iter().map(|item| item.buf.len().div_ceil(64)));
        // SAFETY: the backend is available (every route a burst holds was checked);
        // each job is in place over its own item's buffer, all disjoint; the check
        // above keeps every block of every item within its counter's range.
        unsafe {
            if longest_first {
                let mut jobs = XorJobsLongestFirst::new(&mut *items, limit);
                run_jobs(backend, &mut jobs, V::ROUNDS / 2);
            } else {
                let mut jobs = XorJobs {
                    items: items.iter_mut(),
                    limit,
                };
                run_jobs(backend, &mut jobs, V::ROUNDS / 2);
            }
        }
        if in_lanes(limit, longest) {
            // Every item went through the lanes.
            return Ok(());
        }
    }
    for item in items.iter_mut() {
        // Done in the lanes, or nothing to do.
        if item.buf.is_empty() || limit.is_some_and(|limit| in_lanes(limit, item.buf.len())) {
            continue;
        }
        let state = <V as Sealed>::state(item.key, item.nonce.as_ref());
        let (ptr, len) = (item.buf.as_mut_ptr(), item.buf.len());
        // SAFETY: as for the burst: in place over the item's own buffer, within its
        // counter's range.
        unsafe { route.xor_keystream(&state, item.counter.into(), ptr, ptr, len) };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use crate::variant::Ietf;
    use std::vec::Vec;

    /// An opening's one-block copy at every length it takes: exactly the message's
    /// bytes at the front of the row, nothing after them touched.
    #[test]
    fn one_block_copies_are_exact_at_every_length() {
        let message: Vec<u8> = (1..=64).collect();
        for len in 0..=64 {
            let mut row = [0xee_u8; 64];
            // SAFETY: a 64-byte row.
            unsafe { copy_block(row.as_mut_ptr(), &message[..len]) };
            assert_eq!(&row[..len], &message[..len], "length {len}");
            assert!(row[len..].iter().all(|&b| b == 0xee), "past length {len}");
        }
    }

    /// The Intel 16-lane costs' choices at the shapes that fitted them: 1420-byte items
    /// (23 blocks) on the single path, sealing and opening, 1024-byte ones and shorter
    /// in the lanes; keystream items of 16 blocks on the single path.
    #[test]
    fn intel_costs_leave_full_size_packets_to_the_single_path() {
        let items = |n, blocks| core::iter::repeat_n(blocks, n);
        for costs in [AEAD_COSTS_INTEL16, AEAD_OPEN_COSTS_INTEL16] {
            assert_eq!(lane_limit(16, 1, costs, items(16, 23)), None);
            assert_eq!(lane_limit(16, 1, costs, items(64, 23)), None);
            assert_eq!(lane_limit(16, 1, costs, items(16, 16)), Some(16));
            assert_eq!(lane_limit(16, 1, costs, items(64, 16)), Some(16));
            assert_eq!(lane_limit(16, 1, costs, items(16, 9)), Some(9));
            assert_eq!(lane_limit(16, 1, costs, items(16, 1)), Some(1));
        }
        assert_eq!(lane_limit(16, 1, XOR_COSTS_INTEL16, items(14, 16)), None);
        assert_eq!(lane_limit(16, 1, XOR_COSTS_INTEL16, items(32, 16)), None);
        assert_eq!(lane_limit(16, 1, XOR_COSTS_INTEL16, items(16, 9)), Some(9));
        assert_eq!(lane_limit(16, 1, XOR_COSTS_INTEL16, items(32, 1)), Some(1));
    }

    /// The keystream-alone plan only with the MAC it was measured with: a burst whose
    /// MAC backend is another keeps the lanes' whole reach.
    #[test]
    fn keystream_alone_only_with_the_ifma_lanes() {
        for mac_backend in Poly1305Backend::available() {
            for open in [false, true] {
                let plan = keystream_alone(MacRoute::pinned(mac_backend), open);
                if mac_backend != Poly1305Backend::Avx512Ifma || Core::this() != Core::Zen5 {
                    assert!(plan.is_none(), "{mac_backend:?}");
                } else {
                    let plan = plan.expect("Zen 5 with IFMA");
                    assert!(plan.fewest >= 8 && plan.lanes_most < aead_costs(open, 16).most);
                }
            }
        }
    }

    /// The keystream-alone plan's shape test: enough items past the lane limit alike
    /// (AAD and message lengths) with the first of them; lane items and other shapes
    /// not counted.
    #[test]
    fn alike_beyond_counts_the_first_shape_past_the_limit() {
        let mut bufs: Vec<Vec<u8>> = [64, 1420, 1420, 1500, 1420, 1420]
            .iter()
            .map(|&n| std::vec![0u8; n])
            .collect();
        let aads: [&[u8]; 6] = [b"", b"", b"", b"", b"h", b""];
        let items: Vec<SealItem<'_, Ietf<20>>> = bufs
            .iter_mut()
            .zip(aads)
            .map(|(buf, aad)| SealItem::new([0; 12], aad, buf))
            .collect();
        // Past a limit of one block: three 1420-byte items with empty AAD.
        assert!(alike_beyond(&items, Some(1), 3));
        assert!(!alike_beyond(&items, Some(1), 4));
        // No limit: the 64-byte item first, alone of its shape.
        assert!(alike_beyond(&items, None, 1));
        assert!(!alike_beyond(&items, None, 2));
        // Every item within the limit: none past it.
        assert!(!alike_beyond(&items, Some(24), 1));
    }

    /// RustCrypto's seal of `buf` in place under `key` and `nonce`: its tag.
    fn rustcrypto_seal(key: &[u8; 32], nonce: [u8; 12], aad: &[u8], buf: &mut [u8]) -> [u8; 16] {
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        chacha20poly1305::ChaCha20Poly1305::new(key.into())
            .encrypt_inout_detached(&nonce.into(), aad, buf.into())
            .unwrap()
            .into()
    }

    /// How [`open_test_burst`] opens: through `open_checked_items` with a
    /// keystream-alone plan, one-block items in one pass (`open_in_passes` with
    /// `first_blocks`), or every item through [`OpenJobs`]' waves on paired sets.
    #[derive(Clone, Copy)]
    enum TestOpening {
        Alone(Alone),
        OnePass,
        PairedWaves,
    }

    /// Opens `items` (their keys in them, or else `key`) the way `how` says.
    fn open_test_items<I: AeadItem<Ietf<20>>>(
        route: Route,
        mac_route: MacRoute,
        how: TestOpening,
        key: Option<&[u8; 32]>,
        items: &mut [I],
        verdicts: &mut [Result<(), Error>],
    ) -> Result<(), Error> {
        match how {
            TestOpening::Alone(plan) => {
                open_checked_items(route, mac_route, key, items, verdicts, Some(plan), GROUP)
            }
            TestOpening::OnePass => {
                let passes = OpenPasses {
                    first_blocks: true,
                    keys_paired: false,
                    halves: false,
                    lane_items: lane_items(items, 1),
                };
                open_in_passes::<_, false>(route, mac_route, key, items, verdicts, 1, passes)
            }
            TestOpening::PairedWaves => {
                let mut keys = core::mem::MaybeUninit::<Rows>::uninit();
                let mut jobs = OpenJobs {
                    items: &mut *items,
                    verdicts: &mut *verdicts,
                    key,
                    limit: usize::MAX,
                    mac_route,
                    keys: keys.as_mut_ptr().cast::<[u8; 64]>(),
                    next: 0,
                    checked: 0,
                    variant: core::marker::PhantomData,
                };
                // SAFETY: the backend is available; each job is in place over its own
                // item's buffer and key block, all disjoint; the callers' items keep
                // their messages within blocks 1..2^32.
                unsafe { run_jobs_or_paired(route.backend(), &mut jobs, true, 10) };
                let failed = verdicts.iter().any(Result::is_err);
                if failed {
                    Err(Error::AuthenticationFailed)
                } else {
                    Ok(())
                }
            }
        }
    }

    /// Opens the sealed `bufs` (item `i` under `nonce(i)`, with `aads[i]` and
    /// `tags[i]`) as one burst under `key`, or with `keys` each under its own: the
    /// verdicts and the burst's result.
    #[allow(
        clippy::too_many_arguments,
        reason = "a test's whole burst, spelled out"
    )]
    fn open_test_burst(
        route: Route,
        mac_route: MacRoute,
        how: TestOpening,
        key: &[u8; 32],
        keys: Option<&[[u8; 32]]>,
        nonce: impl Fn(usize) -> [u8; 12],
        aads: &[Vec<u8>],
        bufs: &mut [Vec<u8>],
        tags: &[[u8; 16]],
    ) -> (Vec<Result<(), Error>>, Result<(), Error>) {
        let mut verdicts = std::vec![Ok(()); bufs.len()];
        let mut items: Vec<OpenItem<'_, Ietf<20>>> = bufs
            .iter_mut()
            .zip(aads)
            .enumerate()
            .map(|(i, (buf, aad))| OpenItem::new(nonce(i), aad, buf, tags[i]))
            .collect();
        let all = if let Some(keys) = keys {
            let mut keyed: Vec<Keyed<'_, OpenItem<'_, Ietf<20>>>> = items
                .drain(..)
                .zip(keys)
                .map(|(item, key)| Keyed::new(key, item))
                .collect();
            open_test_items(route, mac_route, how, None, &mut keyed, &mut verdicts)
        } else {
            open_test_items(route, mac_route, how, Some(key), &mut items, &mut verdicts)
        };
        (verdicts, all)
    }

    /// The items of a test burst ([`check_opening`]): item `i` is `message(i)` (of
    /// length `lens[i]`, the lengths cycled) under `nonce(i)` with `aad(i)`, sealed by
    /// RustCrypto under `item_key(i)` or one `key`; every byte of them derived from
    /// `seed`, so that each test's burst differs.
    struct TestItems {
        lens: &'static [usize],
        seed: u8,
    }

    impl TestItems {
        fn key(&self) -> [u8; 32] {
            [self.seed; 32]
        }

        fn item_key(&self, i: usize) -> [u8; 32] {
            [i as u8 ^ self.seed.rotate_left(1); 32]
        }

        fn nonce(&self, i: usize) -> [u8; 12] {
            [i as u8 ^ self.seed.rotate_left(2); 12]
        }

        fn aad(&self, i: usize) -> Vec<u8> {
            let len = (i * 7 + usize::from(self.seed)) % 19;
            (0..len).map(|j| j as u8).collect()
        }

        fn message(&self, i: usize) -> Vec<u8> {
            let len = self.lens[i % self.lens.len()];
            (0..len)
                .map(|j| (j * 13 + i + usize::from(self.seed)) as u8)
                .collect()
        }
    }

    /// What [`check_opening`] does to a burst of `count` items: each under its own key
    /// (`keyed`) or one; the tags of the items in `forged` changed; the items in
    /// `flipped` a ciphertext of zeros (its message the keystream) with one bit changed
    /// (zeroed as refused, they are their authentic ciphertexts again: they must stay
    /// refused).
    #[derive(Clone, Copy)]
    struct TestCase<'a> {
        count: usize,
        keyed: bool,
        forged: &'a [usize],
        flipped: &'a [usize],
    }

    /// Seals `case.count` of `items` with RustCrypto, forges those the case names,
    /// opens them as one burst the way `how` says, and checks that exactly the forged
    /// ones are refused and zeroed and every other opens to its message.
    fn check_opening(
        route: Route,
        mac_route: MacRoute,
        how: TestOpening,
        items: &TestItems,
        case: TestCase<'_>,
    ) {
        let TestCase {
            count,
            keyed,
            forged,
            flipped,
        } = case;
        let aads: Vec<Vec<u8>> = (0..count).map(|i| items.aad(i)).collect();
        let keys: Vec<[u8; 32]> = (0..count).map(|i| items.item_key(i)).collect();
        let key_of = |i: usize| if keyed { keys[i] } else { items.key() };
        let nonce = |i: usize| items.nonce(i);
        let mut bufs: Vec<Vec<u8>> = (0..count).map(|i| items.message(i)).collect();
        let mut tags = Vec::new();
        for (i, buf) in bufs.iter_mut().enumerate() {
            if flipped.contains(&i) {
                buf.fill(0);
                rustcrypto_seal(&key_of(i), nonce(i), &[], buf);
            }
            let mut tag = rustcrypto_seal(&key_of(i), nonce(i), &aads[i], buf);
            if forged.contains(&i) {
                tag[i % 16] ^= 1;
            }
            tags.push(tag);
            if flipped.contains(&i) {
                assert!(buf.iter().all(|&b| b == 0));
                let at = i % buf.len();
                buf[at] ^= 0x80;
            }
        }
        let keys = keyed.then_some(&keys[..]);
        let (verdicts, all) = open_test_burst(
            route,
            mac_route,
            how,
            &items.key(),
            keys,
            nonce,
            &aads,
            &mut bufs,
            &tags,
        );
        let case = std::format!(
            "{:?}/{:?} {count} items",
            route.backend(),
            mac_route.backend()
        );
        let refused = |i: &usize| forged.contains(i) || flipped.contains(i);
        assert_eq!(all.is_err(), (0..count).any(|i| refused(&i)), "{case}");
        assert_verdicts(&bufs, &verdicts, refused, |i| items.message(i), &case);
    }

    /// Each refused item failed and is zeroed; every other opened to `message(i)`.
    fn assert_verdicts(
        bufs: &[Vec<u8>],
        verdicts: &[Result<(), Error>],
        refused: impl Fn(&usize) -> bool,
        message: impl Fn(usize) -> Vec<u8>,
        case: &str,
    ) {
        for (i, (buf, verdict)) in bufs.iter().zip(verdicts).enumerate() {
            if refused(&i) {
                assert_eq!(verdict, &Err(Error::AuthenticationFailed), "{case}: {i}");
                assert!(buf.iter().all(|&b| b == 0), "{case}: {i} zeroed");
            } else {
                assert_eq!(verdict, &Ok(()), "{case}: {i}");
                assert_eq!(buf, &message(i), "{case}: {i}");
            }
        }
    }

    /// Items opened with their keystream alone after their tags from the MAC's lanes (on
    /// Zen 5 with IFMA, groups of at least twelve long items) give what RustCrypto
    /// gives on every backend and MAC backend this CPU has, whatever the core: forged
    /// items refused and zeroed, the others released, beside lane items or with none,
    /// per-item keys or one key.
    #[test]
    fn keystream_alone_opens_match_rustcrypto() {
        const LENS: [usize; 12] = [1420, 0, 64, 1500, 1152, 1, 4096, 63, 1088, 2000, 576, 1419];
        let items = TestItems {
            lens: &LENS,
            seed: 0x24,
        };
        for backend in Backend::available() {
            for mac_backend in Poly1305Backend::available() {
                let (route, mac_route) = (Route::pinned(backend), MacRoute::pinned(mac_backend));
                // `forged`: the tag changed; `flipped`: a ciphertext of zeros (its message
                // the keystream), one bit changed. Zeroed as refused, the latter are their
                // authentic ciphertexts again: they must stay refused.
                for (count, alone_from, keyed, forged, flipped) in [
                    (12, 1, false, &[][..], &[][..]),
                    (20, 1, true, &[0, 3, 6][..], &[][..]),
                    (9, 3, false, &[1, 8][..], &[][..]),
                    (2, 1, true, &[1][..], &[][..]),
                    (14, 1, false, &[][..], &[0, 5, 11][..]),
                    (16, 1, true, &[2][..], &[3, 7][..]),
                ] {
                    let plan = TestOpening::Alone(Alone {
                        fewest: alone_from,
                        lanes_most: 17,
                    });
                    let case = TestCase {
                        count,
                        keyed,
                        forged,
                        flipped,
                    };
                    check_opening(route, mac_route, plan, &items, case);
                }
            }
        }
    }

    /// One-block items opened in one pass (each message decrypted beside its key block,
    /// its ciphertext copied aside for the MAC: `short_opens`, taken on Zen 5 and
    /// Intel) give what RustCrypto gives on every backend with lanes and every MAC
    /// backend this CPU has, whatever the core: empty and partial blocks, one key and
    /// per-item keys, forged items refused and zeroed, the others released.
    #[test]
    fn one_pass_short_opens_match_rustcrypto() {
        const LENS: [usize; 16] = [64, 0, 1, 63, 17, 32, 48, 15, 16, 31, 33, 8, 4, 7, 2, 64];
        let items = TestItems {
            lens: &LENS,
            seed: 0x5a,
        };
        for backend in Backend::available().filter(|b| b.has_lane_bursts()) {
            for mac_backend in Poly1305Backend::available() {
                let (route, mac_route) = (Route::pinned(backend), MacRoute::pinned(mac_backend));
                let lanes = lane_width(backend);
                for (count, keyed, forged) in [
                    (1, false, &[][..]),
                    (3, true, &[1][..]),
                    (lanes, false, &[0, lanes - 1][..]),
                    (lanes, true, &[2][..]),
                    (lanes - 1, false, &[][..]),
                ] {
                    let case = TestCase {
                        count,
                        keyed,
                        forged,
                        flipped: &[],
                    };
                    check_opening(route, mac_route, TestOpening::OnePass, &items, case);
                }
            }
        }
    }

    /// Openings in waves on paired sets (on Zen 5, groups that fit one set of lanes,
    /// each item's block 1 computed beside its key block and kept aside until its tag
    /// is checked) give what RustCrypto gives on every 16-lane backend and every MAC
    /// backend this CPU has, whatever the core: lengths of every block-edge class
    /// (empty, within block 1, ending on it, one byte past it, up to 64 blocks),
    /// forged items refused and zeroed (among them some whose whole message was kept
    /// aside), a wave over fewer items than lanes, more items than lanes (lanes
    /// refilled while others wait), one key or per-item keys.
    #[test]
    fn paired_waves_open_like_rustcrypto() {
        const LENS: [usize; 16] = [
            576, 0, 1, 63, 64, 65, 127, 128, 129, 320, 1000, 4096, 192, 2, 1420, 448,
        ];
        let items = TestItems {
            lens: &LENS,
            seed: 0x3d,
        };
        for backend in Backend::available().filter(|b| b.lane_width() == 16) {
            for mac_backend in Poly1305Backend::available() {
                let (route, mac_route) = (Route::pinned(backend), MacRoute::pinned(mac_backend));
                for (count, keyed, forged) in [
                    (16, false, &[][..]),
                    (16, true, &[0, 2, 3, 11, 15][..]),
                    (9, false, &[4, 5][..]),
                    (1, true, &[][..]),
                    (3, false, &[1][..]),
                    // More than the lanes: refills, waves waiting on longer messages.
                    (24, false, &[3, 17][..]),
                    (40, true, &[0, 20, 21, 39][..]),
                ] {
                    let case = TestCase {
                        count,
                        keyed,
                        forged,
                        flipped: &[],
                    };
                    check_opening(route, mac_route, TestOpening::PairedWaves, &items, case);
                }
            }
        }
    }

    /// Items sealed with their keystream alone and their tags from the MAC's lanes (on
    /// Zen 5 with IFMA, groups of at least eight long items) match RustCrypto on every
    /// backend and MAC backend this CPU has, whatever the core: alone from one item up,
    /// beside lane items or with none (a pinned portable route has no lanes), with and
    /// without AAD, empty messages, and per-item keys.
    #[test]
    fn keystream_alone_seals_match_rustcrypto() {
        use chacha20poly1305::aead::{AeadInOut, KeyInit};
        const LENS: [usize; 12] = [1420, 0, 64, 1500, 1152, 1, 4096, 63, 1088, 2000, 576, 1419];
        let key = [0x42u8; 32];
        let item_key = |i: usize| [i as u8 ^ 0x17; 32];
        let nonce = |i: usize| [i as u8; 12];
        let aad = |i: usize| -> Vec<u8> { (0..(i * 5) % 23).map(|j| j as u8).collect() };
        let message = |i: usize| -> Vec<u8> {
            (0..LENS[i % LENS.len()])
                .map(|j| (j * 31 + i) as u8)
                .collect()
        };
        for backend in Backend::available() {
            for mac_backend in Poly1305Backend::available() {
                let (route, mac_route) = (Route::pinned(backend), MacRoute::pinned(mac_backend));
                for (count, alone_from, keyed) in
                    [(12, 1, false), (20, 1, true), (9, 3, false), (2, 1, true)]
                {
                    let aads: Vec<Vec<u8>> = (0..count).map(aad).collect();
                    let keys: Vec<[u8; 32]> = (0..count).map(item_key).collect();
                    let mut bufs: Vec<Vec<u8>> = (0..count).map(message).collect();
                    let mut items: Vec<SealItem<'_, Ietf<20>>> = bufs
                        .iter_mut()
                        .zip(&aads)
                        .enumerate()
                        .map(|(i, (buf, aad))| SealItem::new(nonce(i), aad, buf))
                        .collect();
                    let mut keyed_items: Vec<Keyed<'_, SealItem<'_, Ietf<20>>>>;
                    if keyed {
                        keyed_items = items
                            .drain(..)
                            .zip(&keys)
                            .map(|(item, key)| Keyed::new(key, item))
                            .collect();
                        seal_items_split(
                            route,
                            mac_route,
                            None,
                            &mut keyed_items,
                            Some(Alone {
                                fewest: alone_from,
                                lanes_most: 17,
                            }),
                        )
                        .unwrap();
                    } else {
                        keyed_items = Vec::new();
                        seal_items_split(
                            route,
                            mac_route,
                            Some(&key),
                            &mut items,
                            Some(Alone {
                                fewest: alone_from,
                                lanes_most: 17,
                            }),
                        )
                        .unwrap();
                    }
                    let tags: Vec<[u8; 16]> = if keyed {
                        keyed_items.iter().map(|k| *k.view().3).collect()
                    } else {
                        items.iter().map(|item| item.tag).collect()
                    };
                    drop(keyed_items);
                    drop(items);
                    for (i, (buf, tag)) in bufs.iter().zip(&tags).enumerate() {
                        let k = if keyed { keys[i] } else { key };
                        let cipher = chacha20poly1305::ChaCha20Poly1305::new(&k.into());
                        let mut expected = message(i);
                        let expected_tag = cipher
                            .encrypt_inout_detached(
                                &nonce(i).into(),
                                &aads[i],
                                expected.as_mut_slice().into(),
                            )
                            .unwrap();
                        assert_eq!(
                            buf, &expected,
                            "{backend:?}/{mac_backend:?} item {i} of {count}"
                        );
                        assert_eq!(tag, &<[u8; 16]>::from(expected_tag), "{backend:?} tag {i}");
                    }
                }
            }
        }
    }

    /// Paired sets (on Zen 5, the plan of a group that fits one set) give every job its
    /// own keystream on each 16-lane backend this CPU has, whatever the core (the
    /// bursts pair only on Zen 5): lengths of every block-edge class and up to 64
    /// blocks, and items ending on the last block of the 32-bit counter, where the
    /// second set's block past the end wraps and is thrown away.
    #[test]
    fn paired_sets_give_each_job_its_keystream() {
        const LENS: [usize; 16] = [
            0, 1, 63, 64, 65, 127, 128, 129, 500, 1000, 1420, 448, 3, 200, 2000, 4096,
        ];
        let counter = |i: usize| match i {
            2 => u32::MAX,
            7 => u32::MAX - 2,
            _ => i as u32 * 3,
        };
        let key = |i: usize| [i as u8 + 1; 32];
        let nonce = |i: usize| [i as u8 ^ 0x5a; 12];
        for backend in Backend::available().filter(|b| b.lane_width() == 16) {
            for count in [9, 12, 16] {
                let message =
                    |i: usize| -> Vec<u8> { (0..LENS[i]).map(|j| (j * 7 + i) as u8).collect() };
                let mut bufs: Vec<Vec<u8>> = (0..count).map(message).collect();
                let keys: Vec<[u8; 32]> = (0..count).map(key).collect();
                let mut items: Vec<XorItem<'_, Ietf<20>>> = bufs
                    .iter_mut()
                    .zip(&keys)
                    .enumerate()
                    .map(|(i, (buf, key))| XorItem::new(key, nonce(i), counter(i), buf))
                    .collect();
                let mut jobs = XorJobs {
                    items: items.iter_mut(),
                    limit: 64,
                };
                // SAFETY: the backend is available; each job is in place over its own
                // buffer; every item's blocks end at or below 2^32 and stay within one
                // high counter half (the counter is 32 bits).
                unsafe { backend.xor_burst(&mut Sets::<_, true>(&mut jobs), 10) };
                drop(items);
                for (i, buf) in bufs.iter().enumerate() {
                    let mut expected = message(i);
                    crate::ChaCha20::with_counter(&key(i), &nonce(i), counter(i))
                        .with_backend(Backend::Portable)
                        .expect("portable")
                        .apply_keystream(&mut expected);
                    assert_eq!(*buf, expected, "{backend:?}, {count} jobs, job {i}");
                }
            }
        }
    }
}
