//! The safe API: results equal the standard library's, errors and panics name the
//! bad argument, and nothing is written when an argument is rejected.

use ragged_mem::{Error, copy, copy_within, fill, try_copy, try_copy_within};

#[test]
fn copy_matches_copy_from_slice() {
    let src: Vec<u8> = (0..=255).collect();
    for len in [0, 1, 15, 16, 17, 64, 65, 200, 256] {
        let mut ours = vec![0u8; len];
        copy(&mut ours, &src[..len]);
        assert_eq!(ours, &src[..len]);
    }
}

#[test]
fn try_copy_rejects_unequal_lengths_without_writing() {
    let mut dst = [9u8; 4];
    assert_eq!(
        try_copy(&mut dst, &[1, 2, 3]),
        Err(Error::LengthMismatch {
            dst_len: 4,
            src_len: 3
        })
    );
    assert_eq!(dst, [9; 4]);
    assert_eq!(try_copy(&mut dst, &[1, 2, 3, 4]), Ok(()));
    assert_eq!(dst, [1, 2, 3, 4]);
}

#[test]
#[should_panic(expected = "destination length (4) does not match source length (3)")]
fn copy_panics_on_unequal_lengths() {
    copy(&mut [0u8; 4], &[1, 2, 3]);
}

#[test]
fn copy_within_matches_the_standard_library() {
    let original: Vec<u8> = (0..100).collect();
    let cases: [(core::ops::Range<usize>, usize); 6] = [
        (0..50, 1),
        (1..51, 0),
        (10..90, 3),
        (3..83, 10),
        (0..100, 0),
        (40..40, 99),
    ];
    for (range, dest) in cases {
        let mut ours = original.clone();
        let mut std = original.clone();
        copy_within(&mut ours, range.clone(), dest);
        std.copy_within(range.clone(), dest);
        assert_eq!(ours, std, "{range:?} -> {dest}");
    }
    let mut ours = original.clone();
    let mut std = original.clone();
    copy_within(&mut ours, ..=9, 90);
    std.copy_within(..=9, 90);
    assert_eq!(ours, std);
    copy_within(&mut ours, 95.., 0);
    std.copy_within(95.., 0);
    assert_eq!(ours, std);
}

#[test]
fn try_copy_within_names_each_bad_argument() {
    let mut buf = [7u8; 10];
    let bounds = (core::ops::Bound::Excluded(4), core::ops::Bound::Included(5));
    assert_eq!(try_copy_within(&mut buf, bounds, 0), Ok(()));
    #[allow(clippy::reversed_empty_ranges)]
    let inverted = try_copy_within(&mut buf, 5..3, 0);
    assert_eq!(
        inverted,
        Err(Error::SourceRangeInverted { start: 5, end: 3 })
    );
    assert_eq!(
        try_copy_within(&mut buf, 2..11, 0),
        Err(Error::SourceOutOfBounds { end: 11, len: 10 })
    );
    assert_eq!(
        try_copy_within(&mut buf, ..=usize::MAX, 0),
        Err(Error::SourceOutOfBounds {
            end: usize::MAX,
            len: 10
        })
    );
    assert_eq!(
        try_copy_within(&mut buf, 0..4, 7),
        Err(Error::DestinationOutOfBounds {
            dest: 7,
            count: 4,
            len: 10
        })
    );
    assert_eq!(
        try_copy_within(&mut buf, 0..4, usize::MAX),
        Err(Error::DestinationOutOfBounds {
            dest: usize::MAX,
            count: 4,
            len: 10
        })
    );
    // An empty range may sit at the very end.
    assert_eq!(try_copy_within(&mut buf, 10..10, 10), Ok(()));
    assert_eq!(buf, [7; 10]);
}

#[test]
#[should_panic(expected = "destination 7 .. 7 + 4 is past the end of the buffer (length 10)")]
fn copy_within_panics_on_a_destination_past_the_end() {
    copy_within(&mut [0u8; 10], 0..4, 7);
}

#[test]
#[should_panic(expected = "source range end (11) is past the end of the buffer (length 10)")]
fn copy_within_panics_on_a_source_past_the_end() {
    copy_within(&mut [0u8; 10], 2..11, 0);
}

#[test]
fn errors_display_their_numbers_and_are_std_errors() {
    let e: Box<dyn std::error::Error> = Box::new(Error::SourceRangeInverted { start: 5, end: 3 });
    assert_eq!(e.to_string(), "source range starts at 5 but ends at 3");
}

#[test]
fn fill_sets_every_byte_and_nothing_else() {
    for len in [0, 1, 7, 16, 33, 100, 1000] {
        let mut buf = vec![1u8; len + 2];
        fill(&mut buf[1..=len], 0xab);
        assert_eq!(buf[0], 1);
        assert_eq!(buf[len + 1], 1);
        assert!(buf[1..=len].iter().all(|&b| b == 0xab));
    }
}

#[test]
fn raw_functions_accept_zero_lengths_with_dangling_pointers() {
    let p = core::ptr::NonNull::<u8>::dangling().as_ptr();
    // SAFETY: with `n == 0` the pointers are documented not to be used.
    unsafe {
        ragged_mem::memcpy(p, p, 0);
        ragged_mem::memmove(p, p, 0);
        ragged_mem::memset(p, 0, 0);
    }
}

#[test]
fn baseline_copies_copy_every_length_and_offset() {
    // The yardsticks of `ragged speed memcpy` and the instruction counts must copy too.
    let src: Vec<u8> = (0..200u32).map(|i| (i * 7 + 3) as u8).collect();
    for n in 0..=100 {
        for so in 0..16 {
            for dof in 0..16 {
                let mut a = vec![0u8; 140];
                let mut b = vec![0u8; 140];
                ragged_mem::baseline::coaligned_only(&mut a[dof..dof + n], &src[so..so + n]);
                ragged_mem::baseline::bytewise(&mut b[dof..dof + n], &src[so..so + n]);
                let mut want = vec![0u8; 140];
                want[dof..dof + n].copy_from_slice(&src[so..so + n]);
                assert_eq!(a, want, "coaligned_only n {n} src +{so} dst +{dof}");
                assert_eq!(b, want, "bytewise n {n} src +{so} dst +{dof}");
            }
        }
    }
}

#[test]
fn baseline_move_matches_copy_within_both_ways() {
    // The byte-loop yardstick of `ragged speed memmove`: every overlap, up and down.
    let start: Vec<u8> = (0..80u32).map(|i| (i * 7 + 3) as u8).collect();
    for n in 0..=40 {
        for from in 0..=40 {
            for dest in 0..=40 {
                let mut ours = start.clone();
                let mut std = start.clone();
                ragged_mem::baseline::bytewise_within(&mut ours, from..from + n, dest);
                std.copy_within(from..from + n, dest);
                assert_eq!(ours, std, "n {n} from {from} to {dest}");
            }
        }
    }
}

#[test]
#[should_panic(expected = "must lie inside")]
fn baseline_move_refuses_a_destination_past_the_end() {
    ragged_mem::baseline::bytewise_within(&mut [0u8; 8], 0..4, 5);
}
