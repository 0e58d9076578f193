//! The error of the fallible copies: which argument was wrong, with the numbers.

use core::fmt;

/// Why a [`try_copy`](crate::try_copy) or [`try_copy_within`](crate::try_copy_within)
/// did not copy. Nothing has been written when it is returned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The destination and source slices differ in length.
    LengthMismatch {
        /// Length of the destination slice.
        dst_len: usize,
        /// Length of the source slice.
        src_len: usize,
    },
    /// The source range starts after it ends.
    SourceRangeInverted {
        /// First index of the range.
        start: usize,
        /// One past its last index.
        end: usize,
    },
    /// The source range reaches past the end of the buffer. An inclusive range ending
    /// at `usize::MAX` is reported with `end == usize::MAX`.
    SourceOutOfBounds {
        /// One past the last index of the range.
        end: usize,
        /// Length of the buffer.
        len: usize,
    },
    /// The destination (`dest .. dest + count`) reaches past the end of the buffer.
    DestinationOutOfBounds {
        /// First destination index.
        dest: usize,
        /// Bytes to copy (the length of the source range).
        count: usize,
        /// Length of the buffer.
        len: usize,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::LengthMismatch { dst_len, src_len } => write!(
                f,
                "destination length ({dst_len}) does not match source length ({src_len})"
            ),
            Error::SourceRangeInverted { start, end } => {
                write!(f, "source range starts at {start} but ends at {end}")
            }
            Error::SourceOutOfBounds { end, len } => write!(
                f,
                "source range end ({end}) is past the end of the buffer (length {len})"
            ),
            Error::DestinationOutOfBounds { dest, count, len } => write!(
                f,
                "destination {dest} .. {dest} + {count} is past the end of the buffer (length {len})"
            ),
        }
    }
}

impl core::error::Error for Error {}
