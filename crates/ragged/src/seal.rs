//! `ragged seal` / `ragged open`: one AEAD message from stdin to stdout.
//!
//! Both hold the whole message in memory: `open` must see the tag, at the end of the
//! input, before it may release a single byte of plaintext, and `seal` keeps the same
//! shape. The message is capped at [`MAX_MESSAGE`] so a runaway pipe fails cleanly
//! instead of exhausting memory; `open` takes that plus the tag, so that whatever
//! `seal` wrote opens again.
//!
//! The input is read into one buffer of its final size where stdin says how long it
//! is (a regular file), and otherwise into buffers that double, each copied into the
//! next and wiped: a `Vec` that grows by reallocation (`read_to_end`) would leave the
//! copies it moved away from behind, unwiped, in freed memory. See [`grown`] for why
//! an input at the limit costs about its own size in memory either way.

use std::io::{self, Read};

use ragged_chacha::{AeadKind, AnyAead, Error};
use zeroize::Zeroizing;

use crate::out;
use crate::xor::fill;

/// The longest message `seal` and `open` take: 1 GiB.
pub const MAX_MESSAGE: u64 = 1 << 30;

/// The AEAD tag after the ciphertext.
const TAG_LEN: usize = 16;

/// The first buffer for an input of unknown length (a pipe), doubled as it fills.
const FIRST_BUFFER: u64 = 64 * 1024;

/// The shape of [`seal`] and [`open`]: AEAD, key, nonce, AAD.
pub type Run = fn(AeadKind, &[u8; 32], &[u8], &[u8]) -> Result<(), String>;

/// Encrypts stdin and writes ciphertext ‖ tag to stdout.
pub fn seal(kind: AeadKind, key: &[u8; 32], nonce: &[u8], aad: &[u8]) -> Result<(), String> {
    check_nonce(kind, nonce)?;
    let aead = AnyAead::new(kind, key);
    let mut buf = read_limited(io::stdin().lock(), stdin_len(), MAX_MESSAGE).map_err(|e| {
        e.message(&format!(
            "message larger than {}: seal and open hold the whole message in memory",
            max_message_text()
        ))
    })?;
    let tag = aead
        .encrypt_in_place_detached(nonce, aad, &mut buf)
        .map_err(|e| e.to_string())?;
    // The tag is written after the buffer, not appended to it: appending to a full
    // buffer would reallocate it.
    let mut out = out::stdout();
    out.write_all(&buf)?;
    out.write_all(&tag)?;
    out.flush()
}

/// Checks and decrypts stdin (ciphertext ‖ tag) and writes the plaintext to stdout —
/// or, if anything is wrong with the input, writes nothing and says
/// "authentication failed".
pub fn open(kind: AeadKind, key: &[u8; 32], nonce: &[u8], aad: &[u8]) -> Result<(), String> {
    check_nonce(kind, nonce)?;
    let aead = AnyAead::new(kind, key);
    let limit = MAX_MESSAGE + TAG_LEN as u64;
    let mut buf = read_limited(io::stdin().lock(), stdin_len(), limit).map_err(|e| {
        e.message(&format!(
            "input larger than a message of {} and its {TAG_LEN}-byte tag: seal and open \
             hold the whole message in memory",
            max_message_text()
        ))
    })?;
    let Some(body_len) = buf.len().checked_sub(TAG_LEN) else {
        return Err(Error::AuthenticationFailed.to_string());
    };
    let mut tag = [0u8; TAG_LEN];
    tag.copy_from_slice(&buf[body_len..]);
    buf.truncate(body_len);
    aead.decrypt_in_place_detached(nonce, aad, &mut buf, &tag)
        .map_err(|e| e.to_string())?;
    let mut out = out::stdout();
    out.write_all(&buf)?;
    out.flush()
}

/// Refuses a nonce of the wrong length before any input is read.
fn check_nonce(kind: AeadKind, nonce: &[u8]) -> Result<(), String> {
    if nonce.len() != kind.nonce_len() {
        return Err(Error::NonceLength {
            expected: kind.nonce_len(),
            actual: nonce.len(),
        }
        .to_string());
    }
    Ok(())
}

/// The bytes stdin still holds when it is a regular file (`< file`): its length less
/// the current offset. `None` for a pipe, a terminal or a device, whose length is not
/// known before they end.
fn stdin_len() -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // A duplicate of the descriptor, as a `File` for its metadata and offset; it
        // shares stdin's offset, which asking for the position leaves where it is.
        let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
        remaining_len(&mut std::fs::File::from(fd))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// What is left to read of `file` from its offset, if it is a regular file.
fn remaining_len(file: &mut std::fs::File) -> Option<u64> {
    use std::io::Seek;
    let meta = file.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let offset = file.stream_position().ok()?;
    Some(meta.len().saturating_sub(offset))
}

/// Why [`read_limited`] returned no buffer.
#[derive(Debug)]
enum ReadError {
    /// More than the limit.
    TooLarge,
    /// The input failed.
    Io(io::Error),
}

impl ReadError {
    /// The CLI's message: `too_large` for [`ReadError::TooLarge`].
    fn message(self, too_large: &str) -> String {
        match self {
            ReadError::TooLarge => too_large.to_string(),
            ReadError::Io(e) => format!("reading stdin: {e}"),
        }
    }
}

/// All of `input`, or [`ReadError::TooLarge`] once it has more than `limit` bytes.
///
/// `len` is what the input says it holds (a regular file's length): more than `limit`
/// is refused before a byte is read, and otherwise the buffer is allocated at that
/// size once. Without it (a pipe), the buffer doubles from [`FIRST_BUFFER`], each
/// time copied into a new one and the old one wiped, never past `limit + 1` bytes: at
/// most `limit + 1` bytes are ever read, and the refusal comes as soon as the limit is
/// passed. `len` is only a hint (a file may grow or shrink while it is read): what
/// the input really gives is what counts. The limit is a parameter so that a test can
/// reach it without a gigabyte of input.
fn read_limited(
    mut input: impl Read,
    len: Option<u64>,
    limit: u64,
) -> Result<Zeroizing<Vec<u8>>, ReadError> {
    let most = limit.saturating_add(1);
    let first = match len {
        Some(len) if len > limit => return Err(ReadError::TooLarge),
        Some(len) => len,
        None => FIRST_BUFFER.min(most),
    };
    let mut buf = zeroed(first)?;
    let mut filled = 0;
    loop {
        filled += fill(&mut input, &mut buf[filled..]).map_err(ReadError::Io)?;
        if filled < buf.len() {
            break; // the input ended
        }
        if filled as u64 > limit {
            return Err(ReadError::TooLarge);
        }
        // Full: the input may have ended exactly here. One byte more says.
        let mut probe = Zeroizing::new([0u8; 1]);
        if fill(&mut input, &mut probe[..]).map_err(ReadError::Io)? == 0 {
            break;
        }
        if filled as u64 == limit {
            return Err(ReadError::TooLarge);
        }
        let mut bigger = zeroed(grown(filled as u64, limit))?;
        bigger[..filled].copy_from_slice(&buf[..filled]);
        bigger[filled] = probe[0];
        filled += 1;
        // The old buffer is wiped as it drops.
        buf = bigger;
    }
    // Shortening keeps the allocation, so the wipe on drop still covers all of it.
    buf.truncate(filled);
    Ok(buf)
}

/// The size of the buffer after a full one of `full` bytes, for an input of at most
/// `limit`: double, but straight to `limit + 1` (the most ever read) once a doubling
/// after this one would pass it.
///
/// What this bounds is the memory in use while a full buffer is copied: the old one
/// and as much of the new one as the copy has written (a new buffer's pages are
/// untouched, so not resident, until written). Plain doubling up to `limit + 1` would
/// copy a buffer of nearly the limit's size whenever the limit is a little past a
/// power of two, as `open`'s is (the message limit and a tag): twice the message in
/// memory. Jumping early, the last copy is of at most half the limit, and the most in
/// use is the final buffer's filled part: about the input.
fn grown(full: u64, limit: u64) -> u64 {
    let most = limit.saturating_add(1);
    if full.saturating_mul(4) > limit {
        most
    } else {
        full.saturating_mul(2).clamp(FIRST_BUFFER.min(most), most)
    }
}

/// A zeroed buffer of `len` bytes. `vec![0; len]` asks the allocator for zeroed memory,
/// which for a large buffer is fresh pages from the OS: not touched, so not resident,
/// until the input is written into them.
fn zeroed(len: u64) -> Result<Zeroizing<Vec<u8>>, ReadError> {
    let len = usize::try_from(len).map_err(|_| ReadError::TooLarge)?;
    Ok(Zeroizing::new(vec![0u8; len]))
}

/// [`MAX_MESSAGE`] as the messages say it.
fn max_message_text() -> String {
    format!("{} MiB", MAX_MESSAGE >> 20)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An input of `data`, handed out at most `chunk` bytes a read, with an
    /// `Interrupted` error before every other read when `interrupt` is set.
    struct Source {
        data: Vec<u8>,
        pos: usize,
        chunk: usize,
        interrupt: bool,
        interrupted: bool,
    }

    impl Source {
        fn new(len: usize) -> Source {
            Source {
                data: pattern(len),
                pos: 0,
                chunk: usize::MAX,
                interrupt: false,
                interrupted: false,
            }
        }
    }

    impl Read for Source {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.interrupt {
                self.interrupted = !self.interrupted;
                if self.interrupted {
                    return Err(io::ErrorKind::Interrupted.into());
                }
            }
            let n = buf.len().min(self.chunk).min(self.data.len() - self.pos);
            buf[..n].copy_from_slice(&self.data[self.pos..self.pos + n]);
            self.pos += n;
            Ok(n)
        }
    }

    fn pattern(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 + i / 251) as u8).collect()
    }

    /// A reader that never ends, counting what it hands out.
    struct Endless(u64);

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            buf.fill(0x61);
            self.0 += buf.len() as u64;
            Ok(buf.len())
        }
    }

    fn too_large(result: Result<Zeroizing<Vec<u8>>, ReadError>) -> bool {
        matches!(result, Err(ReadError::TooLarge))
    }

    #[test]
    fn a_known_length_past_the_limit_is_refused_before_a_byte_is_read() {
        let mut source = Source::new(11);
        assert!(too_large(read_limited(&mut source, Some(11), 10)));
        assert_eq!(source.pos, 0);
        let mut endless = Endless(0);
        assert!(too_large(read_limited(&mut endless, Some(u64::MAX), 10)));
        assert_eq!(endless.0, 0);
    }

    #[test]
    fn a_known_length_is_read_into_one_buffer_of_that_size() {
        for (len, limit) in [(0, 10), (1, 10), (9, 10), (10, 10), (200_003, 1 << 20)] {
            let mut source = Source::new(len);
            source.chunk = 4096;
            let buf = read_limited(&mut source, Some(len as u64), limit).unwrap();
            assert!(*buf == source.data, "{len}");
            // Never grown: the one buffer, exactly the size the input said.
            assert_eq!(buf.capacity(), len, "{len}");
        }
    }

    #[test]
    fn a_file_that_grows_or_shrinks_while_read_is_read_as_it_is() {
        // (length said, length given, limit)
        for (said, given, limit) in [(5, 9, 10), (9, 5, 10), (0, 10, 10), (0, 300_001, 1 << 20)] {
            let mut source = Source::new(given);
            let buf = read_limited(&mut source, Some(said as u64), limit).unwrap();
            assert!(*buf == source.data, "{said} {given}");
        }
        // Said to be at the limit, but longer: refused at the first byte past it.
        let mut source = Source::new(15);
        assert!(too_large(read_limited(&mut source, Some(10), 10)));
        assert_eq!(source.pos, 11);
        let mut source = Source::new(15);
        assert!(too_large(read_limited(&mut source, Some(3), 10)));
        assert_eq!(source.pos, 11);
    }

    #[test]
    fn a_pipe_up_to_the_limit_is_read_whole() {
        let first = FIRST_BUFFER as usize;
        let limit = 3 << 20;
        let lengths = [
            0,
            1,
            first - 1,
            first,
            first + 1,
            2 * first,
            (1 << 20) + 3,
            limit - 1,
            limit,
        ];
        for len in lengths {
            for chunk in [usize::MAX, 4093] {
                let mut source = Source::new(len);
                source.chunk = chunk;
                let buf = read_limited(&mut source, None, limit as u64).unwrap();
                assert!(*buf == source.data, "{len} {chunk}");
                assert!(buf.capacity() <= limit + 1, "{len}: {}", buf.capacity());
            }
        }
        // A small limit, below the first buffer's size.
        for len in 0..=10 {
            let buf = read_limited(Source::new(len), None, 10).unwrap();
            assert_eq!(*buf, pattern(len));
        }
        assert_eq!(read_limited(Source::new(0), None, 0).unwrap().len(), 0);
    }

    #[test]
    fn a_pipe_past_the_limit_is_refused_after_one_byte_more() {
        for limit in [0, 1, 10, FIRST_BUFFER - 1, FIRST_BUFFER, 3 << 20] {
            for extra in [1, 2, 100_000] {
                let mut source = Source::new((limit + extra) as usize);
                source.chunk = 10_007;
                assert!(too_large(read_limited(&mut source, None, limit)));
                assert_eq!(source.pos as u64, limit + 1, "{limit} + {extra}");
            }
            let mut endless = Endless(0);
            assert!(too_large(read_limited(&mut endless, None, limit)));
            assert_eq!(endless.0, limit + 1, "{limit}");
        }
    }

    #[test]
    fn a_growing_buffer_never_copies_more_than_half_the_limit() {
        let mib = 1u64 << 20;
        let limits = [
            0,
            1,
            10,
            FIRST_BUFFER - 1,
            FIRST_BUFFER,
            FIRST_BUFFER + 1,
            3 * mib,
            4 * mib - 1,
            4 * mib,
            4 * mib + 16,
            MAX_MESSAGE,
            MAX_MESSAGE + TAG_LEN as u64,
        ];
        for limit in limits {
            let most = limit + 1;
            let mut size = FIRST_BUFFER.min(most);
            let mut steps = 0;
            while size < most {
                let next = grown(size, limit);
                assert!(next > size, "{limit}: {size} -> {next}");
                // The copy holds the old buffer and its copy at once.
                assert!(
                    2 * size <= limit.max(2 * FIRST_BUFFER),
                    "{limit}: copies {size}"
                );
                size = next;
                steps += 1;
            }
            assert_eq!(size, most, "{limit}");
            assert!(steps <= 15, "{limit}: {steps} steps");
        }
    }

    #[test]
    fn interrupted_reads_are_retried_and_errors_reported() {
        let mut source = Source::new(200_001);
        source.interrupt = true;
        source.chunk = 999;
        let buf = read_limited(&mut source, None, 1 << 20).unwrap();
        assert!(*buf == source.data);

        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let err = read_limited(Broken, None, 10).unwrap_err();
        assert_eq!(err.message("too large"), "reading stdin: disk on fire");
        assert_eq!(ReadError::TooLarge.message("too large"), "too large");
    }

    #[test]
    fn a_regular_file_tells_what_is_left_of_it() {
        use std::io::{Seek, SeekFrom, Write};
        let path = std::env::temp_dir().join(format!("ragged-seal-len-{}", std::process::id()));
        let mut file = std::fs::File::options()
            .create(true)
            .truncate(true)
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        file.write_all(&[1; 100]).unwrap();
        file.seek(SeekFrom::Start(30)).unwrap();
        assert_eq!(remaining_len(&mut file), Some(70));
        // Asking leaves the offset where it was.
        assert_eq!(file.stream_position().unwrap(), 30);
        file.seek(SeekFrom::Start(200)).unwrap();
        assert_eq!(remaining_len(&mut file), Some(0));
        drop(file);
        std::fs::remove_file(&path).unwrap();

        #[cfg(unix)]
        {
            let (reader, _writer) = io::pipe().unwrap();
            let mut pipe = std::fs::File::from(std::os::fd::OwnedFd::from(reader));
            assert_eq!(remaining_len(&mut pipe), None);
        }
    }

    #[test]
    fn the_real_limit_reads_as_one_gib() {
        assert_eq!(max_message_text(), "1024 MiB");
    }
}
