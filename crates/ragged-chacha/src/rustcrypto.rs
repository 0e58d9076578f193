//! The RustCrypto traits (feature `rustcrypto-traits`): `cipher` 0.5 for the stream
//! ciphers and `aead` 0.6 for the AEADs, so code written against those traits takes
//! ragged's types by a change of type name.
//!
//! The trait methods go through the same checked paths as the inherent ones: a
//! keystream request past the end is refused with [`StreamCipherError`] before
//! anything is written, and a failed decryption returns [`aead::Error`] with the
//! output overwritten by zeros.
//!
//! Some trait methods share a name with an inherent method of a different signature
//! (`new`, `seek`, `try_seek`, `current_pos`, …). Generic code sees only the trait;
//! on a concrete type the inherent method wins, so call the trait's form by path,
//! e.g. `StreamCipherSeek::try_seek(&mut cipher, 64u64)`.
//!
//! Limits follow ragged, which in three places allows more than RustCrypto's
//! `chacha20` 0.10: the last block of the counter is usable, a seek may land exactly on
//! the end of the keystream (where any further byte is refused), and the XChaCha
//! ciphers have a 64-bit counter (RustCrypto's stop after 2^32 blocks; the keystream
//! is the same up to there).
//!
//! ```
//! use cipher::{KeyIvInit, StreamCipher, StreamCipherSeek};
//!
//! fn encrypt<C: KeyIvInit + StreamCipher + StreamCipherSeek>(buf: &mut [u8]) {
//!     let mut cipher = C::new(&Default::default(), &Default::default());
//!     cipher.seek(64u64);
//!     cipher.apply_keystream(buf);
//! }
//!
//! let mut packet = *b"any length";
//! encrypt::<ragged_chacha::ChaCha20>(&mut packet);
//! encrypt::<ragged_chacha::ChaCha20>(&mut packet);
//! assert_eq!(&packet, b"any length");
//! ```

/// The `aead` crate these impls are for (0.6), so callers name the same traits.
pub use ::aead;
/// The `cipher` crate these impls are for (0.5), so callers name the same traits.
pub use ::cipher;

use ::aead::{AeadCore, AeadInOut, Nonce, Tag, TagPosition};
use ::cipher::array::Array;
use ::cipher::consts::{U8, U12, U16, U24, U32};
use ::cipher::{
    InOutBuf, IvSizeUser, KeyInit, KeyIvInit, KeySizeUser, SeekNum, StreamCipher,
    StreamCipherError, StreamCipherSeek,
};

use crate::aead::{AeadVariant, ChaChaPoly1305, MAX_PLAINTEXT_LEN};
use crate::chacha::ChaCha;
use crate::variant::{Ietf, Legacy, Variant, XChaCha};

impl<V: Variant> KeySizeUser for ChaCha<V> {
    type KeySize = U32;
}

/// `IvSizeUser` and `KeyIvInit` for one family of variants (one nonce length).
macro_rules! key_iv_init {
    ($variant:ident, $iv_size:ty) => {
        impl<const R: u32> IvSizeUser for ChaCha<$variant<R>> {
            type IvSize = $iv_size;
        }

        impl<const R: u32> KeyIvInit for ChaCha<$variant<R>> {
            /// The cipher at block 0, on the fastest backend the CPU has; the same as
            /// the inherent [`ChaCha::new`].
            fn new(key: &Array<u8, U32>, iv: &Array<u8, $iv_size>) -> Self {
                ChaCha::new(&key.0, &iv.0)
            }
        }
    };
}

key_iv_init!(Ietf, U12);
key_iv_init!(Legacy, U8);
key_iv_init!(XChaCha, U24);

impl<V: Variant> StreamCipher for ChaCha<V> {
    fn check_remaining(&self, data_len: usize) -> Result<(), StreamCipherError> {
        if data_len as u128 > self.remaining() {
            return Err(StreamCipherError);
        }
        Ok(())
    }

    /// XORs the keystream into `buf`.
    ///
    /// Out of place, the input is first copied to the output and then encrypted
    /// there; in place (the common case) there is no copy.
    ///
    /// # Panics
    /// If the request runs past the end of the keystream (the caller was to check
    /// [`StreamCipher::check_remaining`]); nothing is written then.
    fn unchecked_apply_keystream_inout(&mut self, buf: InOutBuf<'_, '_, u8>) {
        // Refuse before the copy, so a panic leaves the output untouched.
        if let Err(e) = self.check_remaining(buf.len()) {
            panic!("{} {e}", V::NAME);
        }
        self.apply_keystream(buf.into_out_with_copied_in());
    }

    /// Writes the keystream itself into `buf`.
    ///
    /// # Panics
    /// As [`StreamCipher::unchecked_apply_keystream_inout`].
    fn unchecked_write_keystream(&mut self, buf: &mut [u8]) {
        if let Err(e) = self.check_remaining(buf.len()) {
            panic!("{} {e}", V::NAME);
        }
        buf.fill(0);
        self.apply_keystream(buf);
    }

    fn try_apply_keystream_inout(
        &mut self,
        buf: InOutBuf<'_, '_, u8>,
    ) -> Result<(), StreamCipherError> {
        self.check_remaining(buf.len())?;
        self.try_apply_keystream(buf.into_out_with_copied_in())
            .map_err(|_| StreamCipherError)
    }
}

impl<V: Variant> StreamCipherSeek for ChaCha<V> {
    /// The byte position, or [`cipher::OverflowError`] if `T` cannot hold it.
    fn try_current_pos<T: SeekNum>(&self) -> Result<T, ::cipher::OverflowError> {
        // `SeekNum` converts only through (block, byte, block size); with a block size
        // of 1 the "block" is the byte position itself (byte 1 of 1 = the block's end).
        T::from_block_byte::<u128>(self.current_pos(), 1, 1)
    }

    /// Moves to byte `pos`; refused (position unchanged) for a negative position or
    /// one past the end of the keystream.
    fn try_seek<T: SeekNum>(&mut self, pos: T) -> Result<(), StreamCipherError> {
        let (pos, _) = pos.into_block_byte::<u128>(1)?;
        ChaCha::try_seek(self, pos).map_err(|_| StreamCipherError)
    }
}

impl<V: AeadVariant> KeySizeUser for ChaChaPoly1305<V> {
    type KeySize = U32;
}

impl<V: AeadVariant> KeyInit for ChaChaPoly1305<V> {
    /// The AEAD on the fastest backends the CPU has; the same as the inherent
    /// [`ChaChaPoly1305::new`].
    fn new(key: &Array<u8, U32>) -> Self {
        ChaChaPoly1305::new(&key.0)
    }
}

/// `AeadCore` and `AeadInOut` for one AEAD (one nonce length).
macro_rules! aead_in_out {
    ($variant:ty, $nonce_size:ty) => {
        impl AeadCore for ChaChaPoly1305<$variant> {
            type NonceSize = $nonce_size;
            type TagSize = U16;
            const TAG_POSITION: TagPosition = TagPosition::Postfix;
        }

        impl AeadInOut for ChaChaPoly1305<$variant> {
            /// Encrypts into the output half of `buffer` and returns the tag; an error
            /// (nothing written) past [`MAX_PLAINTEXT_LEN`].
            fn encrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
            ) -> ::aead::Result<Tag<Self>> {
                check_len(buffer.len())?;
                let out = buffer.into_out_with_copied_in();
                self.encrypt_in_place_detached(&nonce.0, associated_data, out)
                    .map(Array)
                    .map_err(|_| ::aead::Error)
            }

            /// Checks `tag`, then decrypts into the output half of `buffer`. On a
            /// mismatch the output is overwritten with zeros; past
            /// [`MAX_PLAINTEXT_LEN`] nothing is written.
            fn decrypt_inout_detached(
                &self,
                nonce: &Nonce<Self>,
                associated_data: &[u8],
                buffer: InOutBuf<'_, '_, u8>,
                tag: &Tag<Self>,
            ) -> ::aead::Result<()> {
                check_len(buffer.len())?;
                let out = buffer.into_out_with_copied_in();
                self.decrypt_in_place_detached(&nonce.0, associated_data, out, &tag.0)
                    .map_err(|_| ::aead::Error)
            }
        }
    };
}

aead_in_out!(Ietf<20>, U12);
aead_in_out!(XChaCha<20>, U24);

/// Refuses a payload longer than the AEADs take before anything is copied.
fn check_len(len: usize) -> ::aead::Result<()> {
    if len as u64 > MAX_PLAINTEXT_LEN {
        return Err(::aead::Error);
    }
    Ok(())
}
