//! The out-of-line half of `memcpy` and `memmove`: a function pointer each, which the
//! inlined half jumps through for every copy above `INLINE_MAX` bytes.
//!
//! A slot starts out holding a resolver. The first copy that reaches it detects the
//! CPU, stores the entry chosen for it and runs the copy there; every later copy jumps
//! straight to that entry. That is one indirect jump a call, like the one glibc's
//! ifunc-resolved `memcpy` costs its callers, where testing a cached feature byte
//! and then jumping to the entry cost two taken branches more (16be6c6).

use core::sync::atomic::{AtomicPtr, Ordering};

/// An out-of-line copy: `n` bytes from the second pointer to the first, with the
/// contract of the slot it sits in.
pub(super) type Entry = unsafe fn(*mut u8, *const u8, usize);

/// A function pointer that may be replaced while other threads call through it.
pub(super) struct Slot(AtomicPtr<()>);

impl Slot {
    /// A slot holding `first` (which needs no CPU feature beyond the target's).
    pub(super) const fn new(first: Entry) -> Slot {
        Slot(AtomicPtr::new(first as *mut ()))
    }

    /// The entry now in the slot. A thread may still see the resolver after another
    /// has replaced it; it then resolves again and stores the same entry.
    #[inline(always)]
    pub(super) fn get(&self) -> Entry {
        let p = self.0.load(Ordering::Relaxed);
        // SAFETY: the slot only ever holds an `Entry` cast to a pointer (by `new` and
        // `set`), and on x86-64 function and data pointers have one size and
        // representation, so the cast back gives that function.
        unsafe { core::mem::transmute::<*mut (), Entry>(p) }
    }

    /// Replaces the entry.
    ///
    /// # Safety
    /// `entry` must have the slot's contract, and this CPU must have every feature
    /// `entry` needs: from now on any thread may call it.
    pub(super) unsafe fn set(&self, entry: Entry) {
        self.0.store(entry as *mut (), Ordering::Relaxed)
    }
}
