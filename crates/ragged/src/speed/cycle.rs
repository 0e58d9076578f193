//! The opening benchmarks' cycle: an opening in place turns the sealed message into
//! its plaintext, and sealing the sealed message again under the same nonce gives
//! that plaintext back with a tag of its own, so the plaintext is itself a sealed
//! message. Openings therefore alternate between the two, each a whole opening whose
//! tag matches, and nothing is copied back between calls.

/// The tags of the two messages an opening's buffer holds in turn (one tag, or one a
/// packet), and which of them it holds now.
pub struct OpeningCycle<T> {
    /// The sealed message's tags, then the plaintext's (as the ciphertext of the
    /// sealed message).
    tags: [T; 2],
    /// The index into `tags` of what the buffer holds now.
    turn: usize,
}

impl<T> OpeningCycle<T> {
    /// A cycle that starts from the sealed message (with `sealed`), then the
    /// plaintext (with `plain`).
    pub fn new(sealed: T, plain: T) -> Self {
        OpeningCycle {
            tags: [sealed, plain],
            turn: 0,
        }
    }

    /// The tags of what the buffer holds for this call; the next call gets the
    /// other message's.
    pub fn next(&mut self) -> &T {
        let turn = self.turn;
        self.turn ^= 1;
        &self.tags[turn]
    }
}
