//! ChaCha20-Poly1305 (RFC 8439 §2.8) and XChaCha20-Poly1305
//! (draft-irtf-cfrg-xchacha-03 §2): the generic construction over a ChaCha variant.

use core::fmt;
use core::marker::PhantomData;

use zeroize::ZeroizeOnDrop;

use crate::backend::poly1305::Poly1305Backend;
use crate::backend::poly1305::portable::tail_words;
use crate::backend::{Backend, MacRoute, Route};
use crate::chacha::ChaCha;
use crate::error::Error;
pub use crate::poly1305::TAG_LEN;
use crate::poly1305::{AeadMac, tag_verdict, tags_equal};
use crate::state::State;
use crate::variant::{self, Variant};
use crate::wipe::wipe;

/// The longest plaintext (and ciphertext, tag excluded) the AEADs take:
/// (2^32 - 1) × 64 = 274,877,906,880 bytes. The payload starts at block 1 of a
/// 32-bit counter (block 0 is the one-time key), so one byte more would wrap it.
///
/// XChaCha20-Poly1305 has the same limit: the draft defines it as ChaCha20-Poly1305
/// under the HChaCha subkey, with the same 32-bit counter.
pub const MAX_PLAINTEXT_LEN: u64 = ((1 << 32) - 1) * 64;

/// A ChaCha variant that has a standard AEAD; implemented for ChaCha20 (12-byte
/// nonce) and XChaCha20 (24-byte nonce) only.
pub trait AeadVariant: Variant + sealed::Sealed {
    /// The AEAD's name, such as `"chacha20-poly1305"`.
    const AEAD_NAME: &'static str;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::variant::Ietf<20> {}
    impl Sealed for crate::variant::XChaCha<20> {}
}

impl AeadVariant for variant::Ietf<20> {
    const AEAD_NAME: &'static str = "chacha20-poly1305";
}
impl AeadVariant for variant::XChaCha<20> {
    const AEAD_NAME: &'static str = "xchacha20-poly1305";
}

/// The ChaCha-Poly1305 AEAD over variant `V`; see the aliases
/// [`crate::ChaCha20Poly1305`] and [`crate::XChaCha20Poly1305`].
///
/// Per message, keystream block 0 for the nonce gives the one-time Poly1305 key (its
/// first 32 bytes), the payload is XORed with the keystream from block 1, and the tag
/// is Poly1305 over `aad ‖ pad16 ‖ ciphertext ‖ pad16 ‖ len(aad) ‖ len(ciphertext)`
/// (lengths as 64-bit little-endian). A nonce must never repeat under one key.
///
/// ```
/// use ragged_chacha::ChaCha20Poly1305;
///
/// let aead = ChaCha20Poly1305::new(&[0x42; 32]);
/// let nonce = [0x24; 12];
/// let mut packet = *b"a packet of any length";
/// let tag = aead.encrypt_in_place_detached(&nonce, b"header", &mut packet).unwrap();
/// aead.decrypt_in_place_detached(&nonce, b"header", &mut packet, &tag).unwrap();
/// assert_eq!(&packet, b"a packet of any length");
///
/// packet[0] ^= 1; // a forgery: refused, and nothing of the plaintext is left
/// assert!(aead.decrypt_in_place_detached(&nonce, b"header", &mut packet, &tag).is_err());
/// assert_eq!(packet, [0; 22]);
/// ```
pub struct ChaChaPoly1305<V: AeadVariant> {
    key: [u8; 32],
    route: Route,
    mac_route: MacRoute,
    variant: PhantomData<V>,
}

impl<V: AeadVariant> ChaChaPoly1305<V> {
    /// The AEAD for `key`, on the fastest ChaCha and Poly1305 backends the CPU has —
    /// and, on CPUs measured to run them faster there, short messages and short MAC
    /// runs on the portable path (the choice is made once per process).
    pub fn new(key: &[u8; 32]) -> Self {
        ChaChaPoly1305 {
            key: *key,
            route: Route::detect(),
            mac_route: MacRoute::detect(),
            variant: PhantomData,
        }
    }

    /// The same AEAD with its keystream on `backend`, for every length.
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

    /// The same AEAD with its MAC on `backend`, for every run it takes.
    ///
    /// Where the ChaCha backend seals in one interleaved pass (SSE2, SSSE3, AVX2), the
    /// ciphertext absorbed between its rounds goes through the portable Poly1305
    /// whatever `backend` is: there it runs beside the vector work. `backend` takes
    /// the rest (the last batch's ciphertext, and everything when opening).
    ///
    /// # Errors
    /// [`Error::BackendUnavailable`] if the CPU lacks the backend's features.
    pub fn with_mac_backend(mut self, backend: Poly1305Backend) -> Result<Self, Error> {
        self.mac_route = MacRoute::pinned(backend.checked()?);
        Ok(self)
    }

    /// The key, for the bursts.
    pub(crate) fn key(&self) -> &[u8; 32] {
        &self.key
    }

    /// The ChaCha and Poly1305 routes, for the bursts.
    pub(crate) fn routes(&self) -> (Route, MacRoute) {
        (self.route, self.mac_route)
    }

    /// The ChaCha backend in use.
    pub fn backend(&self) -> Backend {
        self.route.backend()
    }

    /// The Poly1305 backend in use.
    pub fn mac_backend(&self) -> Poly1305Backend {
        self.mac_route.backend()
    }

    /// Encrypts `buf` in place and returns the tag.
    ///
    /// # Errors
    /// [`Error::MessageTooLong`] (with `buf` untouched) past [`MAX_PLAINTEXT_LEN`].
    pub fn encrypt_in_place_detached(
        &self,
        nonce: &V::Nonce,
        aad: &[u8],
        buf: &mut [u8],
    ) -> Result<[u8; TAG_LEN], Error> {
        check_len(buf.len())?;
        let state = <V as variant::sealed::Sealed>::state(&self.key, nonce.as_ref());
        Ok(seal_checked(self.route, self.mac_route, &state, aad, buf))
    }

    /// Decrypts `buf` in place and checks `tag` over `aad` and the ciphertext, in one
    /// pass where the backend interleaves the two.
    ///
    /// The tag is compared in constant time; unless it matches, the decrypted bytes
    /// are overwritten before this returns, so they are never released.
    ///
    /// # Errors
    /// On a mismatch, [`Error::AuthenticationFailed`] and `buf` overwritten with
    /// zeros: the caller never holds unauthenticated bytes.
    /// [`Error::MessageTooLong`] (with `buf` untouched) past [`MAX_PLAINTEXT_LEN`].
    pub fn decrypt_in_place_detached(
        &self,
        nonce: &V::Nonce,
        aad: &[u8],
        buf: &mut [u8],
        tag: &[u8; TAG_LEN],
    ) -> Result<(), Error> {
        check_len(buf.len())?;
        let state = <V as variant::sealed::Sealed>::state(&self.key, nonce.as_ref());
        open_checked(self.route, self.mac_route, &state, aad, buf, tag)
    }

    /// Encrypts `plaintext` into a new vector: the ciphertext followed by the 16-byte
    /// tag.
    ///
    /// # Errors
    /// [`Error::MessageTooLong`] past [`MAX_PLAINTEXT_LEN`], before anything is
    /// allocated.
    #[cfg(feature = "alloc")]
    pub fn encrypt(
        &self,
        nonce: &V::Nonce,
        aad: &[u8],
        plaintext: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        check_len(plaintext.len())?;
        let mut out = alloc::vec::Vec::with_capacity(plaintext.len() + TAG_LEN);
        out.extend_from_slice(plaintext);
        let tag = self.encrypt_in_place_detached(nonce, aad, &mut out)?;
        out.extend_from_slice(&tag);
        Ok(out)
    }

    /// Decrypts `sealed` (ciphertext followed by the 16-byte tag) into a new vector.
    ///
    /// # Errors
    /// [`Error::AuthenticationFailed`] for a tag mismatch or an input shorter than a
    /// tag; no plaintext is returned or left behind then. [`Error::MessageTooLong`]
    /// for a ciphertext longer than [`MAX_PLAINTEXT_LEN`].
    #[cfg(feature = "alloc")]
    pub fn decrypt(
        &self,
        nonce: &V::Nonce,
        aad: &[u8],
        sealed: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let Some(body_len) = sealed.len().checked_sub(TAG_LEN) else {
            return Err(Error::AuthenticationFailed);
        };
        let (body, tag) = sealed.split_at(body_len);
        let tag: &[u8; TAG_LEN] = tag.try_into().map_err(|_| Error::AuthenticationFailed)?;
        let mut out = body.to_vec();
        self.decrypt_in_place_detached(nonce, aad, &mut out, tag)?;
        Ok(out)
    }

    /// The one-time Poly1305 key for `nonce`: the first 32 bytes of keystream block 0
    /// (RFC 8439 §2.6). Exposed for known-answer tests; the AEAD uses it internally.
    pub fn one_time_key(&self, nonce: &V::Nonce) -> [u8; 32] {
        let mut block0 = take_block0(&mut self.cipher(nonce));
        let mut key = [0u8; 32];
        key.copy_from_slice(&block0[..32]);
        wipe(&mut block0);
        key
    }

    fn cipher(&self, nonce: &V::Nonce) -> ChaCha<V> {
        let mut cipher = ChaCha::<V>::new(&self.key, nonce);
        cipher.set_route(self.route);
        cipher
    }
}

/// The single-message seal of `buf` in place under `state` (a message's initial state),
/// returning the tag; the one body of [`ChaChaPoly1305::encrypt_in_place_detached`]
/// and of the bursts' loop over items.
///
/// The caller has checked `buf` against [`MAX_PLAINTEXT_LEN`] and `backend` and
/// `mac_backend` available (as every value of them held by a cipher is).
pub(crate) fn seal_checked(
    route: Route,
    mac_route: MacRoute,
    state: &State,
    aad: &[u8],
    buf: &mut [u8],
) -> [u8; TAG_LEN] {
    debug_assert!(check_len(buf.len()).is_ok() && route.backend().is_available());
    let mut mac = AeadMac::new(aad, mac_route);
    let (ptr, len) = (buf.as_mut_ptr(), buf.len());
    // SAFETY: in place over `buf`; the backend is available (caller); the caller's
    // length check keeps the payload within blocks 1..2^32.
    unsafe { route.seal(state, ptr, ptr, len, &mut mac) };
    mac.finish(buf)
}

/// The single-message open of `buf` in place under `state`, checking `tag`: the one
/// body of [`ChaChaPoly1305::decrypt_in_place_detached`] and of the bursts' loop. On
/// a mismatch `buf` is zeroed and the error is [`Error::AuthenticationFailed`].
///
/// The caller's checks are as for [`seal_checked`].
pub(crate) fn open_checked(
    route: Route,
    mac_route: MacRoute,
    state: &State,
    aad: &[u8],
    buf: &mut [u8],
    tag: &[u8; TAG_LEN],
) -> Result<(), Error> {
    debug_assert!(check_len(buf.len()).is_ok() && route.backend().is_available());
    let mut mac = AeadMac::new(aad, mac_route);
    let (ptr, len) = (buf.as_mut_ptr(), buf.len());
    // The kernel decrypts in place: the ciphertext's last partial block is kept
    // for the MAC first.
    let tail = tail_words(&buf[len & !15..]);
    // SAFETY: in place over `buf`; the backend is available (caller); the caller's
    // length check keeps the payload within blocks 1..2^32.
    unsafe { route.open(state, ptr, ptr, len, &mut mac) };
    let mut expected = mac.finish_tail(tail, len);
    let equal = tags_equal(&expected, tag);
    wipe(&mut expected);
    tag_verdict(equal, buf)
}

/// Refuses payloads the 32-bit block counter cannot cover.
pub(crate) fn check_len(len: usize) -> Result<(), Error> {
    let length = len as u64;
    if length > MAX_PLAINTEXT_LEN {
        return Err(Error::MessageTooLong {
            length,
            max: MAX_PLAINTEXT_LEN,
        });
    }
    Ok(())
}

/// Keystream block 0 from `cipher` (leaving it at block 1): the one-time Poly1305 key
/// in its first 32 bytes. The caller wipes it.
fn take_block0<V: Variant>(cipher: &mut ChaCha<V>) -> [u8; 64] {
    let mut block = [0u8; 64];
    cipher.apply_keystream(&mut block);
    block
}

impl<V: AeadVariant> Clone for ChaChaPoly1305<V> {
    fn clone(&self) -> Self {
        ChaChaPoly1305 {
            key: self.key,
            route: self.route,
            mac_route: self.mac_route,
            variant: PhantomData,
        }
    }
}

impl<V: AeadVariant> fmt::Debug for ChaChaPoly1305<V> {
    /// Shows the AEAD and backends; never the key.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChaChaPoly1305")
            .field("aead", &V::AEAD_NAME)
            .field("backend", &self.backend())
            .field("mac_backend", &self.mac_backend())
            .finish_non_exhaustive()
    }
}

impl<V: AeadVariant> Drop for ChaChaPoly1305<V> {
    fn drop(&mut self) {
        wipe(&mut self.key);
    }
}

impl<V: AeadVariant> ZeroizeOnDrop for ChaChaPoly1305<V> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_limit_is_exactly_rfc_8439s() {
        assert_eq!(MAX_PLAINTEXT_LEN, 274_877_906_880);
        assert_eq!(check_len(0), Ok(()));
        #[cfg(target_pointer_width = "64")]
        {
            assert_eq!(check_len(MAX_PLAINTEXT_LEN as usize), Ok(()));
            assert_eq!(
                check_len(MAX_PLAINTEXT_LEN as usize + 1),
                Err(Error::MessageTooLong {
                    length: MAX_PLAINTEXT_LEN + 1,
                    max: MAX_PLAINTEXT_LEN
                })
            );
        }
    }
}
