//! `ragged selftest`: the known-answer vectors, and a cross-check against the portable
//! backend, on every backend this CPU has; and ragged-mem's copies, moves and fills on
//! every copy kernel this CPU has, against std's copies.

use ragged_chacha::kat::aead::{
    self as aead_kat, AEAD_VECTORS, ONE_TIME_KEY_VECTORS, POLY1305_VECTORS,
};
use ragged_chacha::kat::{self, HCHACHA_VECTORS, STREAM_VECTORS};
use ragged_chacha::{AeadKind, AnyAead, AnyCipher, Backend, CipherKind, Poly1305Backend};
use ragged_mem::strategy::Kernel;

use crate::out;

/// Prints a table backend x cipher -> ok / FAIL, a row as soon as it is known; on any
/// failure, a `FAIL …` line each on stderr and an error (exit status 1).
pub fn run() -> Result<(), String> {
    let backends: Vec<Backend> = Backend::available().collect();
    let mut failures = Vec::new();
    let mut out = out::stdout();

    write!(out, "{:<24}", "cipher")?;
    for b in &backends {
        // One space at least before each name, however long (`avx512-plain` fills the
        // width).
        write!(out, " {:>12}", b.name())?;
    }
    writeln!(out)?;
    for kind in CipherKind::ALL {
        let vectors: Vec<_> = STREAM_VECTORS.iter().filter(|v| v.kind == kind).collect();
        write!(
            out,
            "{:<24}",
            format!("{} ({})", kind.name(), vectors.len())
        )?;
        for &backend in &backends {
            let mut ok = true;
            for v in &vectors {
                if let Err(failure) = kat::check_stream(v, backend) {
                    failures.push(format!("{}: {failure}", backend.name()));
                    ok = false;
                }
            }
            if let Err(failure) = matches_portable(kind, backend) {
                failures.push(format!("{}: {failure}", backend.name()));
                ok = false;
            }
            write!(out, " {:>12}", if ok { "ok" } else { "FAIL" })?;
        }
        writeln!(out)?;
    }
    let hchacha_ok = HCHACHA_VECTORS.iter().all(|v| match kat::check_hchacha(v) {
        Ok(()) => true,
        Err(failure) => {
            failures.push(failure.to_string());
            false
        }
    });
    writeln!(
        out,
        "{:<24} {:>12}",
        format!("hchacha ({})", HCHACHA_VECTORS.len()),
        if hchacha_ok { "ok" } else { "FAIL" }
    )?;

    for kind in AeadKind::ALL {
        let vectors: Vec<_> = AEAD_VECTORS.iter().filter(|v| v.kind == kind).collect();
        write!(
            out,
            "{:<24}",
            format!("{} ({})", kind.name(), vectors.len())
        )?;
        for &backend in &backends {
            let mut ok = true;
            for mac in Poly1305Backend::available() {
                for v in &vectors {
                    if let Err(failure) = aead_kat::check_aead(v, backend, mac) {
                        failures.push(format!("{}/{}: {failure}", backend.name(), mac.name()));
                        ok = false;
                    }
                }
                if let Err(failure) = aead_matches_portable(kind, backend, mac) {
                    failures.push(format!("{}/{}: {failure}", backend.name(), mac.name()));
                    ok = false;
                }
            }
            write!(out, " {:>12}", if ok { "ok" } else { "FAIL" })?;
        }
        writeln!(out)?;
    }
    write!(
        out,
        "{:<24}",
        format!("one-time key ({})", ONE_TIME_KEY_VECTORS.len())
    )?;
    for &backend in &backends {
        let mut ok = true;
        for v in ONE_TIME_KEY_VECTORS {
            if let Err(failure) = aead_kat::check_one_time_key(v, backend) {
                failures.push(failure.to_string());
                ok = false;
            }
        }
        write!(out, " {:>12}", if ok { "ok" } else { "FAIL" })?;
    }
    writeln!(out)?;
    for mac in Poly1305Backend::available() {
        let mut ok = true;
        for v in POLY1305_VECTORS {
            if let Err(failure) = aead_kat::check_poly1305(v, mac) {
                failures.push(format!("poly1305 {}: {failure}", mac.name()));
                ok = false;
            }
        }
        writeln!(
            out,
            "{:<24} {:>12} on the {} Poly1305 backend",
            format!("poly1305 ({})", POLY1305_VECTORS.len()),
            if ok { "ok" } else { "FAIL" },
            mac.name()
        )?;
    }

    for kernel in Kernel::ALL.into_iter().filter(|k| k.is_available()) {
        let (cases, ok) = match mem_matches_bytes(kernel) {
            Ok(cases) => (cases, true),
            Err(failure) => {
                failures.push(format!("copy kernel {}: {failure}", kernel.name()));
                (0, false)
            }
        };
        writeln!(
            out,
            "{:<24} {:>12} on the {} copy kernel",
            format!("copies ({cases})"),
            if ok { "ok" } else { "FAIL" },
            kernel.name()
        )?;
    }

    if failures.is_empty() {
        writeln!(out, "all known answers and cross-checks passed")?;
        return out.flush();
    }
    out.flush()?;
    let mut err = out::stderr();
    for f in &failures {
        writeln!(err, "FAIL {f}")?;
    }
    Err(format!(
        "self-test failed: {} known answers or cross-checks (FAIL lines above)",
        failures.len()
    ))
}

/// The lengths the backend cross-checks run: every one to 1100 and ragged large ones
/// (among them a remainder of one, two and three row sets fused into a last 16-block
/// batch or a key batch, and of two sets and a scalar block).
fn checked_lengths() -> impl Iterator<Item = usize> {
    (0..=1100).chain([1420, 1500, 1537, 1600, 1728, 1792, 2111, 4097])
}

/// Every length 0..=1100 plus ragged large ones (among them a remainder of one, two and
/// three row sets fused into a last 16-block batch, and of two sets and a scalar
/// block), this backend against the portable one.
fn matches_portable(kind: CipherKind, backend: Backend) -> Result<(), String> {
    let key = [0x5c; 32];
    let nonce = vec![0xa3; kind.nonce_len()];
    for len in checked_lengths() {
        let data: Vec<u8> = (0..len).map(|i| (i * 31 + len) as u8).collect();
        let run = |b: Backend| {
            let mut out = vec![0u8; len];
            AnyCipher::new(kind, &key, &nonce, 7)
                .and_then(|c| c.with_backend(b))
                .and_then(|mut c| c.try_apply_keystream_b2b(&data, &mut out))
                .map(|()| out)
                .map_err(|e| e.to_string())
        };
        if run(backend)? != run(Backend::Portable)? {
            return Err(format!(
                "{} differs from portable at length {len}",
                kind.name()
            ));
        }
    }
    Ok(())
}

/// Every length 0..=1100 plus ragged large ones (a rest of one, two and three row sets,
/// or two sets and a scalar block, fused into a 16-block key batch among them): sealing on this backend pair gives
/// the bytes and tag of the portable pair, and opens again.
fn aead_matches_portable(
    kind: AeadKind,
    backend: Backend,
    mac: Poly1305Backend,
) -> Result<(), String> {
    let key = [0x3c; 32];
    let nonce = vec![0x9a; kind.nonce_len()];
    let aad = b"selftest";
    let seal = |b: Backend, m: Poly1305Backend, data: &[u8]| {
        let aead = AnyAead::new(kind, &key)
            .with_backend(b)
            .and_then(|a| a.with_mac_backend(m))
            .map_err(|e| e.to_string())?;
        let mut buf = data.to_vec();
        let tag = aead
            .encrypt_in_place_detached(&nonce, aad, &mut buf)
            .map_err(|e| e.to_string())?;
        let mut opened = buf.clone();
        aead.decrypt_in_place_detached(&nonce, aad, &mut opened, &tag)
            .map_err(|e| format!("{} does not open its own output: {e}", kind.name()))?;
        if opened != data {
            return Err(format!("{} does not decrypt to the plaintext", kind.name()));
        }
        Ok::<_, String>((buf, tag))
    };
    for len in checked_lengths() {
        let data: Vec<u8> = (0..len).map(|i| (i * 13 + len) as u8).collect();
        if seal(backend, mac, &data)? != seal(Backend::Portable, Poly1305Backend::Portable, &data)?
        {
            return Err(format!(
                "{} differs from portable at length {len}",
                kind.name()
            ));
        }
    }
    Ok(())
}

/// Bytes of pattern kept on each side of a copy's destination, checked untouched.
const GUARD: usize = 64;

/// Lengths across every size class of the copy kernels (up to eight 64-byte vectors,
/// the loops, their steps); short enough for the emulated CPU.
fn mem_lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain([383, 384, 385, 511, 512, 513, 767, 1420, 4097])
}

/// `len + 64` pattern bytes, and the index of the first 64-byte aligned one.
fn aligned_pattern(len: usize, seed: usize) -> (Vec<u8>, usize) {
    let bytes: Vec<u8> = (0..len + 64)
        .map(|i| (i * 167 + seed * 31 + 7) as u8)
        .collect();
    let start = bytes.as_ptr().align_offset(64);
    (bytes, start)
}

/// `kernel`'s memcpy, memmove (both directions, overlapping and not) and memset at
/// [`mem_lengths`] and a spread of alignments, each against std's `copy_from_slice`,
/// `copy_within` and `fill`, with every byte around the destination checked
/// untouched. The number of cases, or the first failure.
fn mem_matches_bytes(kernel: Kernel) -> Result<usize, String> {
    let mut cases = 0;
    for len in mem_lengths() {
        // Copies: the source `so` and the destination `dof` bytes past a 64-byte
        // boundary, the destination between two guards.
        for (so, dof) in [(0, 0), (1, 0), (0, 1), (63, 5), (5, 63)] {
            let (src, s0) = aligned_pattern(so + len, len);
            let (mut dst, d0) = aligned_pattern(GUARD + dof + len + GUARD, len + 1);
            let (s_at, d_at) = (s0 + so, d0 + GUARD + dof);
            let mut want = dst.clone();
            want[d_at..d_at + len].copy_from_slice(&src[s_at..s_at + len]);
            // SAFETY: `src[s_at ..]` and `dst[d_at ..]` hold at least `len` bytes each;
            // two separate allocations.
            unsafe { kernel.memcpy(dst.as_mut_ptr().add(d_at), src.as_ptr().add(s_at), len) };
            if dst != want {
                return Err(format!(
                    "memcpy of {len} bytes (offsets {so}/{dof}) differs"
                ));
            }
            cases += 1;
        }
        // Moves inside one buffer: down and up by 1, 63, 64, 65 and half the length.
        for dist in [1, 63, 64, 65, len / 2] {
            for up in [false, true] {
                let (from, to) = if up { (0, dist) } else { (dist, 0) };
                let (mut buf, b0) = aligned_pattern(GUARD + 7 + len + dist + GUARD, len + dist);
                let at = b0 + GUARD + (len + dist) % 7;
                let mut want = buf.clone();
                want.copy_within(at + from..at + from + len, at + to);
                let base = buf.as_mut_ptr();
                // SAFETY: both ranges lie inside `buf` (`at + dist + len` plus a
                // guard); `memmove` allows the overlap.
                unsafe { kernel.memmove(base.add(at + to), base.add(at + from), len) };
                if buf != want {
                    let way = if up { "up" } else { "down" };
                    return Err(format!("memmove of {len} bytes {dist} {way} differs"));
                }
                cases += 1;
            }
        }
        // Fills at a few offsets.
        for off in [0, 1, 63] {
            let byte = (len + off) as u8 ^ 0xa5;
            let (mut buf, b0) = aligned_pattern(GUARD + off + len + GUARD, len + 2);
            let at = b0 + GUARD + off;
            let mut want = buf.clone();
            want[at..at + len].fill(byte);
            // SAFETY: `buf[at ..]` holds at least `len` bytes.
            unsafe { kernel.memset(buf.as_mut_ptr().add(at), byte, len) };
            if buf != want {
                return Err(format!("memset of {len} bytes (offset {off}) differs"));
            }
            cases += 1;
        }
    }
    Ok(cases)
}
