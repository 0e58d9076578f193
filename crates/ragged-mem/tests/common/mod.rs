//! Shared checking code: every check returns `Err(description)` instead of panicking,
//! so a test can also assert that a deliberately broken copy is caught.
#![allow(dead_code)] // each test file uses a different part of this module

use std::sync::OnceLock;

use ragged_mem::strategy::Kernel;

/// Bytes of untouched buffer kept on each side of every region under test.
pub const GUARD: usize = 64;

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Random bytes, and their complements. Source buffers are windows of the first;
/// destination buffers are windows of the second chosen so that every destination
/// byte starts as the complement of the byte that should land on it: a byte that the
/// copy fails to write can never already hold the right value.
pub struct Pool {
    pub bytes: Vec<u8>,
    pub inverted: Vec<u8>,
}

pub const POOL_LEN: usize = 1 << 20;

pub fn pool() -> &'static Pool {
    static POOL: OnceLock<Pool> = OnceLock::new();
    POOL.get_or_init(|| {
        let mut rng = Rng::new(0x5eed);
        let bytes: Vec<u8> = (0..POOL_LEN).map(|_| rng.next() as u8).collect();
        let inverted = bytes.iter().map(|b| !b).collect();
        Pool { bytes, inverted }
    })
}

/// A zeroed buffer of `len` bytes whose start is aligned to 64.
pub struct Aligned {
    storage: Vec<u8>,
    start: usize,
    len: usize,
}

impl Aligned {
    pub fn new(len: usize) -> Self {
        let storage = vec![0u8; len + 64];
        let start = storage.as_ptr().align_offset(64);
        Aligned {
            storage,
            start,
            len,
        }
    }
    pub fn bytes(&self) -> &[u8] {
        &self.storage[self.start..self.start + self.len]
    }
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.storage[self.start..self.start + self.len]
    }
    pub fn ptr(&mut self) -> *mut u8 {
        self.bytes_mut().as_mut_ptr()
    }
}

/// A copy under test: `(dst, src, n)` with the contract of `memcpy`.
pub type CopyFn<'a> = &'a dyn Fn(*mut u8, *const u8, usize);

/// Offsets from a 64-aligned start are below this: every alignment a 64-byte vector
/// can see.
pub const MAX_OFFSET: usize = 64;

/// Reusable buffers for [`check_copy`], sized for copies up to `max_len`.
pub struct CopyBench {
    src: Aligned,
    dst: Aligned,
    total: usize,
}

impl CopyBench {
    pub fn new(max_len: usize) -> Self {
        let total = GUARD + MAX_OFFSET + max_len + MAX_OFFSET + GUARD;
        CopyBench {
            src: Aligned::new(total),
            dst: Aligned::new(total),
            total,
        }
    }

    /// The whole destination buffer (guards included) as the last check left it.
    pub fn dst_bytes(&self) -> &[u8] {
        self.dst.bytes()
    }

    /// Copies `len` bytes from offset `src_off` of a 64-aligned source to offset
    /// `dst_off` of a 64-aligned destination (both past a guard), then checks the
    /// destination region, every other destination byte, and the whole source.
    /// `seed` picks the data.
    pub fn check_copy(
        &mut self,
        copy: CopyFn<'_>,
        len: usize,
        src_off: usize,
        dst_off: usize,
        seed: usize,
    ) -> Result<(), String> {
        assert!(
            src_off < MAX_OFFSET
                && dst_off < MAX_OFFSET
                && GUARD + MAX_OFFSET + len + MAX_OFFSET + GUARD <= self.total
        );
        let p = pool();
        let k = MAX_OFFSET + seed % (POOL_LEN - self.total - 2 * MAX_OFFSET);
        let total = self.total;
        self.src.bytes_mut().copy_from_slice(&p.bytes[k..k + total]);
        let shift = k + src_off - dst_off;
        self.dst
            .bytes_mut()
            .copy_from_slice(&p.inverted[shift..shift + total]);
        let s_at = GUARD + src_off;
        let d_at = GUARD + dst_off;
        // SAFETY: both regions lie inside their own buffers (asserted above), and the
        // buffers are distinct allocations.
        copy(
            unsafe { self.dst.ptr().add(d_at) },
            unsafe { self.src.ptr().add(s_at) },
            len,
        );
        let what = || format!("len {len} src_off {src_off} dst_off {dst_off}");
        let d = self.dst.bytes();
        let init = &p.inverted[shift..shift + total];
        if d[..d_at] != init[..d_at] {
            return Err(format!("{}: wrote below the destination", what()));
        }
        if d[d_at + len..] != init[d_at + len..] {
            return Err(format!("{}: wrote above the destination", what()));
        }
        if d[d_at..d_at + len] != self.src.bytes()[s_at..s_at + len] {
            let bad = (0..len)
                .find(|&i| d[d_at + i] != self.src.bytes()[s_at + i])
                .unwrap();
            return Err(format!("{}: wrong byte at {bad}", what()));
        }
        if self.src.bytes() != &p.bytes[k..k + total] {
            return Err(format!("{}: the source changed", what()));
        }
        Ok(())
    }
}

/// A move under test: `(dst, src, n)` with the contract of `memmove`.
pub type MoveFn<'a> = &'a dyn Fn(*mut u8, *const u8, usize);

/// Moves `len` bytes inside one buffer from `GUARD + src_at` to `GUARD + dst_at`
/// (`align` bytes past a 64-aligned base) and compares the whole buffer with what
/// `<[u8]>::copy_within` produces.
pub fn check_move(
    buf: &mut Aligned,
    mv: MoveFn<'_>,
    len: usize,
    src_at: usize,
    dst_at: usize,
    seed: usize,
) -> Result<(), String> {
    let total = buf.bytes().len();
    assert!(GUARD + src_at.max(dst_at) + len + GUARD <= total);
    let p = pool();
    let k = seed % (POOL_LEN - total);
    buf.bytes_mut().copy_from_slice(&p.bytes[k..k + total]);
    let base = buf.ptr();
    // SAFETY: both ranges lie inside `buf` (asserted above).
    mv(
        unsafe { base.add(GUARD + dst_at) },
        unsafe { base.add(GUARD + src_at) },
        len,
    );
    let mut expected = p.bytes[k..k + total].to_vec();
    expected.copy_within(GUARD + src_at..GUARD + src_at + len, GUARD + dst_at);
    if buf.bytes() != &expected[..] {
        let bad = (0..total).find(|&i| buf.bytes()[i] != expected[i]).unwrap();
        return Err(format!(
            "len {len} src_at {src_at} dst_at {dst_at}: wrong byte at buffer index {bad} \
             (region starts at {})",
            GUARD + dst_at
        ));
    }
    Ok(())
}

/// A fill under test: `(dst, byte, n)` with the contract of `memset`.
pub type SetFn<'a> = &'a dyn Fn(*mut u8, u8, usize);

/// Fills `len` bytes at offset `off` past a guard and checks them and every other byte.
pub fn check_set(
    buf: &mut Aligned,
    set: SetFn<'_>,
    len: usize,
    off: usize,
    byte: u8,
    seed: usize,
) -> Result<(), String> {
    let total = buf.bytes().len();
    assert!(GUARD + off + len + GUARD <= total);
    let p = pool();
    let k = seed % (POOL_LEN - total);
    buf.bytes_mut().copy_from_slice(&p.bytes[k..k + total]);
    let at = GUARD + off;
    // Start the region as the complement, so a byte left unset is always wrong.
    buf.bytes_mut()[at..at + len].fill(!byte);
    // SAFETY: the range lies inside `buf` (asserted above).
    set(unsafe { buf.ptr().add(at) }, byte, len);
    let b = buf.bytes();
    if b[..at] != p.bytes[k..k + at] || b[at + len..] != p.bytes[k + at + len..k + total] {
        return Err(format!("len {len} off {off}: wrote outside the region"));
    }
    if let Some(i) = b[at..at + len].iter().position(|&x| x != byte) {
        return Err(format!("len {len} off {off}: byte {i} not set"));
    }
    Ok(())
}

/// `true` if the host can run `kernel`; if not, says so on stderr (shown with
/// `--nocapture`) so a skipped kernel is visible rather than silently passing.
pub fn runs_here(kernel: Kernel, test: &str) -> bool {
    let available = kernel.is_available();
    if !available {
        eprintln!(
            "note: {test}: kernel {} skipped, not available on this CPU",
            kernel.name()
        );
    }
    available
}

/// The kernels this host can run.
pub fn available_kernels() -> Vec<Kernel> {
    Kernel::ALL
        .into_iter()
        .filter(|k| k.is_available())
        .collect()
}
