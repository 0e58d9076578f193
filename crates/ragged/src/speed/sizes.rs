//! Message sizes: the default list and the `--sizes` parser.

/// The default sizes: odd ones (65, 255, 1420, 1500) beside powers of two.
pub const DEFAULT: &[usize] = &[
    16, 64, 65, 128, 192, 255, 256, 512, 1024, 1420, 1500, 4096, 16384, 65536,
];

/// The default sizes of `memcpy`: 400 MB is 400,000,000 bytes (not `400M`, which is
/// binary).
pub const MEMCPY: &[usize] = &[16, 64, 256, 1420, 4096, 65536, 400_000_000];

/// The default sizes of `memmove`: `memcpy`'s without the 400 MB one (a move within a
/// buffer measures how an overlap is handled, which the small sizes show).
pub const MEMMOVE: &[usize] = &[16, 64, 256, 1420, 4096, 65536];

/// Under `--quick`, default sizes above this are skipped.
pub const QUICK_MAX: usize = 1 << 20;

/// The largest size `--sizes` takes: 1 GiB. The buffers are allocated up front (two of
/// them, plus padding, for memcpy), so a larger size would overflow the buffer
/// arithmetic or end the process in an allocation failure instead of a clear error.
/// It also keeps every message within what the peers take in one call (OpenSSL's
/// `int` length, the AEADs' limit).
pub const MAX: usize = 1 << 30;

/// A parsed `--sizes` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeList(pub Vec<usize>);

/// Parses a comma list of sizes. Each is a whole number of bytes with an optional
/// suffix `K`, `M` or `G` (either case) meaning 1024, 1024² or 1024³: `4K` is 4096,
/// `64K` 65536, `400M` 419430400. Zero, duplicates and sizes above [`MAX`] are refused.
pub fn parse_list(text: &str) -> Result<SizeList, String> {
    let mut sizes = Vec::new();
    for item in text.split(',') {
        let size = parse_one(item.trim())?;
        if sizes.contains(&size) {
            return Err(format!("size {size} listed twice"));
        }
        sizes.push(size);
    }
    Ok(SizeList(sizes))
}

fn parse_one(item: &str) -> Result<usize, String> {
    let (digits, shift) = match item.as_bytes().last() {
        Some(b'k' | b'K') => (&item[..item.len() - 1], 10),
        Some(b'm' | b'M') => (&item[..item.len() - 1], 20),
        Some(b'g' | b'G') => (&item[..item.len() - 1], 30),
        _ => (item, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "bad size '{item}' (a number of bytes, optionally with K, M or G = 1024^1..3)"
        ));
    }
    let value: usize = digits
        .parse()
        .map_err(|_| format!("size '{item}' is too large"))?;
    let size = value
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("size '{item}' is too large"))?;
    if size == 0 {
        return Err("a size of 0 bytes measures nothing".into());
    }
    if size > MAX {
        return Err(format!("size '{item}' is larger than the 1G maximum"));
    }
    Ok(size)
}

/// A short label for a size: `1420`, `4K`, `64K`, `400M` (binary suffixes, only where
/// exact).
pub fn label(size: usize) -> String {
    for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] {
        if size >= 1 << shift && size.is_multiple_of(1 << shift) {
            return format!("{}{suffix}", size >> shift);
        }
    }
    size.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffixes_are_binary() {
        assert_eq!(
            parse_list("16, 65,4K,64k,400M,1G").unwrap(),
            SizeList(vec![16, 65, 4096, 65536, 400 << 20, 1 << 30])
        );
    }

    #[test]
    fn bad_lists_are_refused() {
        for bad in [
            "",
            "4X",
            "K",
            "-1",
            "0",
            "1,1",
            "1.5K",
            "99999999999999999999G",
            "18446744073709551615",
            "17179869184G",
            "2G",
            "1073741825",
        ] {
            assert!(parse_list(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn labels() {
        assert_eq!(label(1420), "1420");
        assert_eq!(label(4096), "4K");
        assert_eq!(label(65536), "64K");
        assert_eq!(label(1000), "1000");
        assert_eq!(label(400 << 20), "400M");
    }
}
