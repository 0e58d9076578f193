//! The members of the ChaCha family: how a key and nonce become the initial state,
//! how many rounds, and how far the block counter reaches.

use crate::hchacha::hchacha;
use crate::state::{State, double_rounds, le_word};
use crate::wipe::wipe;

/// A ChaCha variant; implemented by the marker types of this module only.
pub trait Variant: sealed::Sealed {
    /// The nonce: 12 bytes (RFC 8439), 8 (original) or 24 (XChaCha).
    type Nonce: AsRef<[u8]>;
    /// The type of a starting block counter: `u32` or `u64`.
    type Counter: Copy + Into<u64>;
    /// Rounds of the block function: 20, 12 or 8.
    const ROUNDS: u32;
    /// How many 64-byte blocks the counter can address.
    const BLOCKS: u128;
    /// A short name such as `"chacha20"`.
    const NAME: &'static str;
}

/// Keeps the variants closed, and their state construction private.
pub(crate) mod sealed {
    use crate::state::State;

    pub trait Sealed {
        /// The initial state for this key and nonce (block counter words at zero);
        /// `nonce` has the length of the variant's `Nonce` type.
        fn state(key: &[u8; 32], nonce: &[u8]) -> State;

        /// The same state's words, written straight into `words` (a burst lane's row):
        /// no `State` in between, whose words would be copied out (64-byte loads of
        /// the sixteen word stores just made, which the CPU cannot forward) and wiped.
        #[inline(always)]
        fn write_words(key: &[u8; 32], nonce: &[u8], words: &mut [u32; 16]) {
            *words = Self::state(key, nonce).words;
        }

        /// Whether [`Sealed::write_words`] is cheaper than copying the words out of
        /// another lane's row just written (a copy that waits for those stores): true
        /// where the words are the key and nonce as they are, false where a subkey is
        /// derived (XChaCha's HChaCha).
        const CHEAP_WORDS: bool = true;

        /// Whether this is RFC 8439's ChaCha20 (`Ietf<20>`, and no other type), whose
        /// bursts are compiled once in this crate (`burst_chacha20`): a constant, so
        /// the branch on it leaves the other path out of the caller's code.
        const IS_CHACHA20: bool = false;
    }
}

/// RFC 8439: 96-bit nonce, 32-bit block counter, `R` rounds.
///
/// In every variant `R` must be even (ChaCha runs whole double rounds): an odd count
/// does not compile.
///
/// ```
/// use ragged_chacha::ChaCha;
/// use ragged_chacha::variant::Legacy;
/// let _ = ChaCha::<Legacy<8>>::new(&[0; 32], &[0; 8]);
/// ```
///
/// ```compile_fail
/// use ragged_chacha::ChaCha;
/// use ragged_chacha::variant::Legacy;
/// let _ = ChaCha::<Legacy<7>>::new(&[0; 32], &[0; 8]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Ietf<const R: u32>;

/// The original ChaCha: 64-bit nonce, 64-bit block counter, `R` rounds.
#[derive(Clone, Copy, Debug)]
pub struct Legacy<const R: u32>;

/// XChaCha: 192-bit nonce through an HChaCha subkey, 64-bit block counter, `R` rounds.
#[derive(Clone, Copy, Debug)]
pub struct XChaCha<const R: u32>;

impl<const R: u32> sealed::Sealed for Ietf<R> {
    const IS_CHACHA20: bool = R == 20;

    fn state(key: &[u8; 32], nonce: &[u8]) -> State {
        let n = |i: usize| le_word(&nonce[4 * i..]);
        State::new(key, [n(0), n(1), n(2)], double_rounds::<R>())
    }
    #[inline(always)]
    fn write_words(key: &[u8; 32], nonce: &[u8], words: &mut [u32; 16]) {
        let n = |i: usize| le_word(&nonce[4 * i..]);
        State::write_words(key, [n(0), n(1), n(2)], words);
    }
}
impl<const R: u32> sealed::Sealed for Legacy<R> {
    fn state(key: &[u8; 32], nonce: &[u8]) -> State {
        // Word 13 is the high half of the counter: zero, carried into by the backend.
        State::new(
            key,
            [0, le_word(&nonce[..4]), le_word(&nonce[4..])],
            double_rounds::<R>(),
        )
    }
    #[inline(always)]
    fn write_words(key: &[u8; 32], nonce: &[u8], words: &mut [u32; 16]) {
        State::write_words(key, [0, le_word(&nonce[..4]), le_word(&nonce[4..])], words);
    }
}
impl<const R: u32> sealed::Sealed for XChaCha<R> {
    const CHEAP_WORDS: bool = false;

    fn state(key: &[u8; 32], nonce: &[u8]) -> State {
        let mut prefix = [0u8; 16];
        prefix.copy_from_slice(&nonce[..16]);
        let mut subkey = hchacha::<R>(key, &prefix);
        let state = State::new(
            &subkey,
            [0, le_word(&nonce[16..]), le_word(&nonce[20..])],
            double_rounds::<R>(),
        );
        wipe(&mut subkey);
        state
    }
}

const fn ietf_name(rounds: u32) -> &'static str {
    match rounds {
        20 => "chacha20",
        12 => "chacha12",
        8 => "chacha8",
        _ => "chacha",
    }
}

impl<const R: u32> Variant for Ietf<R> {
    type Nonce = [u8; 12];
    type Counter = u32;
    const ROUNDS: u32 = R;
    const BLOCKS: u128 = 1 << 32;
    const NAME: &'static str = ietf_name(R);
}

impl<const R: u32> Variant for Legacy<R> {
    type Nonce = [u8; 8];
    type Counter = u64;
    const ROUNDS: u32 = R;
    const BLOCKS: u128 = 1 << 64;
    const NAME: &'static str = match R {
        20 => "chacha20-legacy",
        12 => "chacha12-legacy",
        8 => "chacha8-legacy",
        _ => "chacha-legacy",
    };
}

impl<const R: u32> Variant for XChaCha<R> {
    type Nonce = [u8; 24];
    type Counter = u64;
    const ROUNDS: u32 = R;
    const BLOCKS: u128 = 1 << 64;
    const NAME: &'static str = match R {
        20 => "xchacha20",
        12 => "xchacha12",
        8 => "xchacha8",
        _ => "xchacha",
    };
}
