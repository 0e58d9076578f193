//! Which code runs a call of a given length, ChaCha and Poly1305.
//!
//! A SIMD path has a fixed cost of its own: the row form of one ChaCha block is a chain
//! of dependent vector operations, which on some cores retires at about half the rate
//! of the same chain on the integer units; a SIMD Poly1305 run first builds its table of
//! powers of `r`. Where the scalar path wins is a property of the core, not of the
//! instruction set, so the crossovers come from [`table`], keyed by the CPU (vendor,
//! family, model) with one row per core that was measured (`docs/tuning.md`,
//! "Per-length routing"); a row applies only with the backend it was measured against,
//! and every other CPU keeps the backends' own thresholds. Likewise a row may send long
//! messages to another plan of the same instruction set (Zen 5: `Avx512Wide`; Intel:
//! `Avx512Plain`). The core
//! is identified once per process; a call pays two compares.
//!
//! Only detected backends are routed: a backend named with `with_backend` runs every
//! length it takes, so each backend can still be tested and timed alone.

use core::sync::atomic::{AtomicU8, AtomicU32, Ordering};

use super::Backend;
use super::generic::Absorb;
use super::poly1305::{MacState, Poly1305Backend};
use crate::state::State;

/// A backend, the one that runs messages shorter than the crossovers instead, and the
/// one that runs long messages (from [`LONG_FROM`] bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Route {
    backend: Backend,
    /// The backend for short messages (available, like `backend`).
    short: Backend,
    /// The backend for long messages (available, like `backend`).
    long: Backend,
    /// Keystream calls shorter than this many bytes run on `short`.
    xor_short_below: u16,
    /// AEAD messages shorter than this many bytes are sealed and opened on `short`.
    aead_short_below: u16,
}

impl Route {
    /// The fastest backend this CPU has, with this CPU's crossovers: worked out once
    /// per process, then one relaxed load a cipher.
    #[inline]
    pub(crate) fn detect() -> Route {
        /// [`Route::pack`] of the detected route; 0 until first worked out. (32 bits,
        /// so it works on targets without 64-bit atomics.)
        static DETECTED: AtomicU32 = AtomicU32::new(0);
        match DETECTED.load(Ordering::Relaxed) {
            0 => {
                let route = Route::work_out();
                DETECTED.store(route.pack(), Ordering::Relaxed);
                route
            }
            packed => Route::unpack(packed),
        }
    }

    /// The route in 32 bits, never 0: the backend's index in `Backend::all()` plus one
    /// (4 bits), the short and long backends' indices (4 bits each), then the two
    /// crossovers (10 bits each: the table's are at most [`MAX_CROSSOVER`]).
    fn pack(self) -> u32 {
        let index = |b: Backend| Backend::all().iter().position(|&a| a == b).unwrap_or(0) as u32;
        let crossover = |c: u16| u32::from(c.min(MAX_CROSSOVER));
        (index(self.backend) + 1)
            | index(self.short) << 4
            | index(self.long) << 8
            | crossover(self.xor_short_below) << 12
            | crossover(self.aead_short_below) << 22
    }

    /// The route [`Route::pack`] made `packed` of.
    fn unpack(packed: u32) -> Route {
        let all = Backend::all();
        let index = |bits: u32| (bits & 0xf) as usize % all.len();
        Route {
            backend: all[index((packed & 0xf).wrapping_sub(1))],
            short: all[index(packed >> 4)],
            long: all[index(packed >> 8)],
            xor_short_below: ((packed >> 12) as u16) & MAX_CROSSOVER,
            aead_short_below: ((packed >> 22) as u16) & MAX_CROSSOVER,
        }
    }

    /// The detected route, from the CPU and the table.
    #[cold]
    fn work_out() -> Route {
        let detected = Backend::detect();
        match table(Core::this()).chacha {
            Some(row)
                if row.measured == detected
                    && row.long.is_available()
                    && row.short.is_available() =>
            {
                Route {
                    backend: detected,
                    short: row.short,
                    long: row.long,
                    xor_short_below: row.xor_short_below,
                    aead_short_below: row.aead_short_below,
                }
            }
            _ => Route::pinned(detected),
        }
    }

    /// `backend` for every length.
    #[inline]
    pub(crate) fn pinned(backend: Backend) -> Route {
        Route {
            backend,
            short: backend,
            long: backend,
            xor_short_below: 0,
            aead_short_below: 0,
        }
    }

    /// The backend that runs the lengths between the crossovers and [`LONG_FROM`],
    /// and the bursts.
    #[inline]
    pub(crate) fn backend(self) -> Backend {
        self.backend
    }

    /// The backend a keystream call of `len` bytes runs on.
    #[inline]
    pub(crate) fn xor_backend(self, len: usize) -> Backend {
        // (Only x86-64 has the wide backend: elsewhere no compare.)
        let long_from = if cfg!(target_arch = "x86_64") && self.long == Backend::Avx512Wide {
            PAIRS_FROM
        } else {
            LONG_FROM
        };
        self.backend_for(len, self.xor_short_below, long_from)
    }

    /// The backend an AEAD message of `len` bytes is sealed and opened on.
    #[inline]
    pub(crate) fn aead_backend(self, len: usize) -> Backend {
        self.backend_for(len, self.aead_short_below, LONG_FROM)
    }

    /// `short` below `short_below` bytes, `long` from `long_from`, else `backend`.
    #[inline(always)]
    fn backend_for(self, len: usize, short_below: u16, long_from: usize) -> Backend {
        if len < usize::from(short_below) {
            self.short
        } else if len >= long_from {
            self.long
        } else {
            self.backend
        }
    }

    /// [`Backend::xor_keystream`] on the path for `len`.
    ///
    /// # Safety
    /// As for [`Backend::xor_keystream`] on `self.backend()`.
    #[inline]
    pub(crate) unsafe fn xor_keystream(
        self,
        state: &State,
        counter: u64,
        input: *const u8,
        output: *mut u8,
        len: usize,
    ) {
        // SAFETY: forwarded; `short` and `long` were checked available when the route
        // was made.
        unsafe {
            self.xor_backend(len)
                .xor_keystream(state, counter, input, output, len)
        }
    }

    /// [`Backend::seal`] on the path for `len`.
    ///
    /// # Safety
    /// As for [`Backend::seal`] on `self.backend()`.
    #[inline]
    pub(crate) unsafe fn seal<A: Absorb>(
        self,
        state: &State,
        input: *const u8,
        output: *mut u8,
        len: usize,
        mac: &mut A,
    ) {
        // SAFETY: forwarded; `short` and `long` were checked available when the route
        // was made.
        unsafe { self.aead_backend(len).seal(state, input, output, len, mac) }
    }

    /// [`Backend::open`] on the path for `len`.
    ///
    /// # Safety
    /// As for [`Backend::open`] on `self.backend()`.
    #[inline]
    pub(crate) unsafe fn open<A: Absorb>(
        self,
        state: &State,
        input: *const u8,
        output: *mut u8,
        len: usize,
        mac: &mut A,
    ) {
        // SAFETY: forwarded; `short` and `long` were checked available when the route
        // was made.
        unsafe { self.aead_backend(len).open(state, input, output, len, mac) }
    }
}

/// A Poly1305 backend and the run length from which it is given runs; shorter runs are
/// the portable code's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MacRoute {
    backend: Poly1305Backend,
    /// Runs shorter than this many bytes skip the backend (which has a minimum of its
    /// own, below which it also leaves runs to the portable code).
    simd_from: u16,
}

impl MacRoute {
    /// The fastest Poly1305 backend this CPU has, for an AEAD's MAC: with the
    /// backend's own threshold, since the AEAD keys its MAC as the key block arrives
    /// and the SIMD setup overlaps the ChaCha batch's last work (see [`Row::mac`]).
    #[inline]
    pub(crate) fn detect() -> MacRoute {
        MacRoute::pinned(Poly1305Backend::detect())
    }

    /// The fastest Poly1305 backend this CPU has, for a stand-alone MAC: with this
    /// CPU's crossover.
    #[inline]
    pub(crate) fn detect_standalone() -> MacRoute {
        let backend = Poly1305Backend::detect();
        let simd_from = match table(Core::this()).mac {
            Some((measured, blocks)) if measured == backend => 16 * blocks,
            _ => 0,
        };
        MacRoute { backend, simd_from }
    }

    /// `backend` for every run it takes.
    #[inline]
    pub(crate) fn pinned(backend: Poly1305Backend) -> MacRoute {
        MacRoute {
            backend,
            simd_from: 0,
        }
    }

    /// The backend that takes the runs above the crossover.
    #[inline]
    pub(crate) fn backend(self) -> Poly1305Backend {
        self.backend
    }

    /// Absorbs the full 16-byte blocks of `data` (a multiple of 16 bytes long): through
    /// the backend from the crossover on ([`Poly1305Backend::blocks`]), else inline on
    /// the portable code.
    #[inline(always)]
    pub(crate) fn blocks(self, state: &mut MacState, data: &[u8]) {
        if data.len() >= usize::from(self.simd_from) {
            self.backend.blocks(state, data);
        } else {
            state.blocks(data, 1);
        }
    }
}

/// The largest crossover a table row may name (the detected route is cached in 32
/// bits, 10 for each crossover).
const MAX_CROSSOVER: u16 = 0x3ff;

/// Messages from this many bytes on run on a route's `long` backend (keystream calls
/// on the wide one from [`PAIRS_FROM`]). The wide one, [`Backend::Avx512Wide`], seals
/// and opens shorter messages exactly as `Avx512` does (its plan differs from 44
/// blocks and a byte with the key block), but its larger code costs them time; the
/// plain one, [`Backend::Avx512Plain`], differs from 34 blocks (a keystream call's two
/// nine-block batches), and below this length `Avx512` is not slower on Intel
/// (docs/tuning.md, "ChaCha backends").
const LONG_FROM: usize = 64 * 43 + 1;

/// Keystream calls from this many bytes run on [`Backend::Avx512Wide`] where that is a
/// route's `long` backend: from 29 blocks, more than a fused batch holds, `Avx512`
/// runs two batches one after the other where the wide plan runs them as a pair
/// (figures in docs/tuning.md, "ChaCha backends").
const PAIRS_FROM: usize = 64 * 28 + 1;

/// One measured core's choices; `None` where its row keeps the backend's own.
struct Row {
    /// ChaCha.
    chacha: Option<ChaChaRow>,
    /// Stand-alone Poly1305 ([`MacRoute::detect_standalone`]): the backend measured,
    /// and the run length in blocks from which it takes runs. Not the AEADs' MAC,
    /// whose SIMD setup overlaps the ChaCha batch, so that the same crossover made
    /// Intel's seals slower (docs/tuning.md, "Per-length routing").
    mac: Option<(Poly1305Backend, u16)>,
}

/// A core's ChaCha paths, measured against the backend [`Backend::detect`] gives
/// there.
struct ChaChaRow {
    /// The backend detection picks on the core; the row applies only where it still
    /// does.
    measured: Backend,
    /// The backend for messages from [`LONG_FROM`] bytes, keystream calls on the wide
    /// one from [`PAIRS_FROM`] (`measured`, or a different
    /// plan of the same instruction set).
    long: Backend,
    /// The backend for short messages.
    short: Backend,
    /// Keystream calls shorter than this many bytes run on `short`.
    xor_short_below: u16,
    /// AEAD messages shorter than this many bytes run on `short`.
    aead_short_below: u16,
}

/// The crossovers of each measured core: where the AVX-512 row form's fixed cost loses
/// to a narrower backend (Zen 4: AVX2's 128-bit row form, cf8dd37; Zen 5: the scalar
/// block, 8ce1735), where long messages run faster in the wide bulk plan (Zen 5, whose
/// 16-lane rounds alone leave the vector pipes idle) or with fewer ninth blocks (Intel,
/// whose integer units share the vector units' ports) and where a SIMD Poly1305 setup
/// loses to the portable code (Intel's IFMA on short stand-alone MACs; Zen 4's IFMA row,
/// 8ce1735, went when the IFMA setup got cheaper and the backend's own threshold came
/// down to AVX2's). The figures are in docs/tuning.md.
fn table(core: Core) -> Row {
    match core {
        Core::Zen4 => Row {
            chacha: Some(ChaChaRow {
                measured: Backend::Avx512,
                long: Backend::Avx512,
                short: Backend::Avx2,
                xor_short_below: 129,
                aead_short_below: 320,
            }),
            mac: None,
        },
        Core::Zen5 => Row {
            chacha: Some(ChaChaRow {
                measured: Backend::Avx512,
                long: Backend::Avx512Wide,
                short: Backend::Portable,
                xor_short_below: 65,
                aead_short_below: 0,
            }),
            mac: None,
        },
        // Short messages keep the backend's own paths, which led the other backends at
        // the shortest lengths there (7dad73f). Its burst costs are in `burst.rs`.
        Core::Intel => Row {
            chacha: Some(ChaChaRow {
                measured: Backend::Avx512,
                long: Backend::Avx512Plain,
                short: Backend::Avx512,
                xor_short_below: 0,
                aead_short_below: 0,
            }),
            mac: Some((Poly1305Backend::Avx512Ifma, 22)),
        },
        Core::Other => Row {
            chacha: None,
            mac: None,
        },
    }
}

/// Whether a row-form batch of two or three sets (a message of 5 to 12 blocks on
/// AVX-512) reads its state's words 13 to 15 one by one, as a batch of one set always
/// does, so that the loads are forwarded from the stores that just wrote the state: on
/// Zen 5 that measured faster, on Intel slower (cause not found), elsewhere unmeasured,
/// so the plain reads stay (docs/tuning.md, "ChaCha backends"). One cached load and
/// compare a batch; off x86-64 no core has it.
#[cfg_attr(not(lane_simd), allow(dead_code))]
#[inline(always)]
pub(crate) fn fresh_row_sets() -> bool {
    cfg!(all(target_arch = "x86_64", not(target_env = "sgx"))) && Core::this() == Core::Zen5
}

/// [`Core::this`]'s answer plus one; 0 until first asked.
static CORE: AtomicU8 = AtomicU8::new(0);

/// The cores with a row in [`table`] (and with burst costs of their own,
/// `burst_split.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Core {
    /// Anything without a row, including every non-x86 CPU.
    Other,
    /// AMD family 19h, models 10h–1Fh, 60h–7Fh, A0h–AFh.
    Zen4,
    /// AMD family 1Ah.
    Zen5,
    /// Intel family 6 (every Core and Xeon since the Pentium Pro; the costs measured
    /// on one with AVX-512 apply only to the 16-lane backend's bursts).
    Intel,
}

impl Core {
    /// The running CPU's core, identified once per process (`cpuid` can trap to a
    /// hypervisor, so it is not asked per cipher).
    #[inline]
    pub(crate) fn this() -> Core {
        const CORES: [Core; 4] = [Core::Other, Core::Zen4, Core::Zen5, Core::Intel];
        match CORE.load(Ordering::Relaxed) {
            0 => {
                let core = Core::identify();
                CORE.store(core as u8 + 1, Ordering::Relaxed);
                core
            }
            n => CORES[usize::from(n - 1) % CORES.len()],
        }
    }

    /// The core from `cpuid` (which every x86-64 CPU has; not in an SGX enclave).
    #[cfg(all(target_arch = "x86_64", not(target_env = "sgx")))]
    #[cold]
    fn identify() -> Core {
        use core::arch::x86_64::__cpuid;
        #[allow(unused_unsafe)]
        // SAFETY: `cpuid` exists on every x86-64 CPU and only reads identification
        // registers; leaves 0 and 1 always exist. (`__cpuid` is a safe function in
        // newer Rust; the block is for older compilers.)
        let (vendor, signature) = unsafe { (__cpuid(0), __cpuid(1).eax) };
        let maker = match (vendor.ebx, vendor.edx, vendor.ecx) {
            // "AuthenticAMD" in ebx, edx, ecx.
            (0x6874_7541, 0x6974_6e65, 0x444d_4163) => Maker::Amd,
            // "GenuineIntel".
            (0x756e_6547, 0x4965_6e69, 0x6c65_746e) => Maker::Intel,
            _ => Maker::Other,
        };
        Core::from_signature(maker, signature)
    }

    /// Off x86-64 no core has a row yet.
    #[cfg(not(all(target_arch = "x86_64", not(target_env = "sgx"))))]
    #[cold]
    fn identify() -> Core {
        Core::Other
    }

    /// The core of an x86 CPU from its maker and `cpuid` leaf 1 `eax` (family and
    /// model with their extended fields), so tests can name CPUs they do not run on.
    #[cfg_attr(not(any(test, target_arch = "x86_64")), allow(dead_code))]
    fn from_signature(maker: Maker, eax: u32) -> Core {
        let base_family = (eax >> 8) & 0xf;
        let (family, model) = if base_family == 0xf {
            (
                base_family + ((eax >> 20) & 0xff),
                ((eax >> 4) & 0xf) | (((eax >> 16) & 0xf) << 4),
            )
        } else {
            (base_family, (eax >> 4) & 0xf)
        };
        match (maker, family, model) {
            (Maker::Amd, 0x19, 0x10..=0x1f | 0x60..=0x7f | 0xa0..=0xaf) => Core::Zen4,
            (Maker::Amd, 0x1a, _) => Core::Zen5,
            (Maker::Intel, 0x6, _) => Core::Intel,
            _ => Core::Other,
        }
    }
}

/// The makers [`Core::from_signature`] tells apart, from `cpuid` leaf 0's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(any(test, target_arch = "x86_64")), allow(dead_code))]
enum Maker {
    Amd,
    Intel,
    Other,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `cpuid` leaf 1 `eax` for a family and model (stepping 0).
    fn signature(family: u32, model: u32) -> u32 {
        let (base, ext) = if family >= 0xf {
            (0xf, family - 0xf)
        } else {
            (family, 0)
        };
        (ext << 20) | ((model >> 4) << 16) | (base << 8) | ((model & 0xf) << 4)
    }

    #[test]
    fn cores_are_named_by_family_and_model() {
        // Zen 3 (Milan 19h/01h, Vermeer 19h/21h), Zen 4 (Genoa 19h/11h, Raphael
        // 19h/61h, Phoenix 19h/74h, Bergamo 19h/A0h), Zen 5 (Turin 1Ah/02h, Granite
        // Ridge 1Ah/44h); an Intel CPU with a family-19h-like signature is not AMD.
        assert_eq!(
            Core::from_signature(Maker::Amd, signature(0x19, 0x01)),
            Core::Other
        );
        assert_eq!(
            Core::from_signature(Maker::Amd, signature(0x19, 0x21)),
            Core::Other
        );
        for model in [0x11, 0x61, 0x74, 0xa0] {
            assert_eq!(
                Core::from_signature(Maker::Amd, signature(0x19, model)),
                Core::Zen4
            );
        }
        for model in [0x02, 0x44] {
            assert_eq!(
                Core::from_signature(Maker::Amd, signature(0x1a, model)),
                Core::Zen5
            );
        }
        for maker in [Maker::Intel, Maker::Other] {
            assert_eq!(
                Core::from_signature(maker, signature(0x19, 0x11)),
                Core::Other
            );
        }
        // Intel family 6 (Sapphire Rapids 8Fh, Rocket Lake A7h, Alder Lake 97h); not
        // another maker's family 6, nor an Intel family 0Fh (NetBurst).
        for model in [0x8f, 0xa7, 0x97] {
            assert_eq!(
                Core::from_signature(Maker::Intel, signature(6, model)),
                Core::Intel
            );
        }
        assert_eq!(
            Core::from_signature(Maker::Other, signature(6, 0x8f)),
            Core::Other
        );
        assert_eq!(
            Core::from_signature(Maker::Intel, signature(0xf, 0x04)),
            Core::Other
        );
    }

    #[test]
    fn a_packed_route_unpacks_to_itself() {
        for backend in Backend::available() {
            for short in Backend::available() {
                for long in Backend::available() {
                    let route = Route {
                        backend,
                        short,
                        long,
                        xor_short_below: 129,
                        aead_short_below: MAX_CROSSOVER,
                    };
                    assert_eq!(Route::unpack(route.pack()), route);
                }
            }
        }
        for core in [Core::Other, Core::Zen4, Core::Zen5, Core::Intel] {
            if let Some(row) = table(core).chacha {
                assert!(
                    row.xor_short_below <= MAX_CROSSOVER && row.aead_short_below <= MAX_CROSSOVER,
                    "{core:?}"
                );
            }
        }
        assert_eq!(Route::detect(), Route::work_out());
        assert_eq!(Route::detect(), Route::detect());
    }

    #[test]
    fn pinned_routes_run_their_backend_on_every_length() {
        for backend in Backend::available() {
            let route = Route::pinned(backend);
            assert_eq!(
                (
                    route.short,
                    route.long,
                    route.xor_short_below,
                    route.aead_short_below
                ),
                (backend, backend, 0, 0)
            );
            for len in [
                0,
                64,
                PAIRS_FROM - 1,
                PAIRS_FROM,
                LONG_FROM - 1,
                LONG_FROM,
                1 << 20,
            ] {
                assert_eq!(route.xor_backend(len), backend);
                assert_eq!(route.aead_backend(len), backend);
            }
        }
        for backend in Poly1305Backend::available() {
            assert_eq!(MacRoute::pinned(backend).simd_from, 0);
        }
    }

    #[test]
    fn detected_routes_follow_this_cpus_row() {
        let route = Route::detect();
        let row = table(Core::this());
        match row.chacha {
            Some(row) if row.measured == Backend::detect() && row.short.is_available() => {
                assert_eq!(
                    route,
                    Route {
                        backend: Backend::detect(),
                        short: row.short,
                        long: row.long,
                        xor_short_below: row.xor_short_below,
                        aead_short_below: row.aead_short_below,
                    }
                )
            }
            _ => assert_eq!(route, Route::pinned(Backend::detect())),
        }
        assert_eq!(
            MacRoute::detect(),
            MacRoute::pinned(Poly1305Backend::detect())
        );
        let mac = MacRoute::detect_standalone();
        assert_eq!(mac.backend(), Poly1305Backend::detect());
        match row.mac {
            Some((measured, blocks)) if measured == mac.backend() => {
                assert_eq!(mac.simd_from, 16 * blocks)
            }
            _ => assert_eq!(mac.simd_from, 0),
        }
    }

    /// Keystream and AEAD through `routed` equal the same through `pinned`, for every
    /// length up to 400 bytes (on both sides of the crossovers) and around
    /// [`PAIRS_FROM`], [`LONG_FROM`] and the wide bulk's first lengths.
    fn same_output(routed: Route, mac: MacRoute, pinned: Route) {
        use crate::poly1305::AeadMac;
        use crate::variant::Ietf;
        use crate::variant::sealed::Sealed;
        let state = <Ietf<20> as Sealed>::state(&[0x42; 32], &[7; 12]);
        let message: [u8; 4200] = core::array::from_fn(|i| (i * 31 + 5) as u8);
        let around = [
            PAIRS_FROM - 1,
            PAIRS_FROM,
            2048,
            2049,
            LONG_FROM - 1,
            LONG_FROM,
        ];
        for len in (0..=400)
            .chain(around)
            .chain([2816, 2817, 2880, 3000, 4097, 4200])
        {
            let (mut a, mut b) = (message, message);
            // SAFETY: in place over `len <= 4200` bytes of our own buffers; both
            // backends passed `is_available`.
            unsafe {
                routed.xor_keystream(&state, 3, a.as_ptr(), a.as_mut_ptr(), len);
                pinned.xor_keystream(&state, 3, b.as_ptr(), b.as_mut_ptr(), len);
            }
            assert_eq!(a[..len], b[..len], "keystream, {len} bytes");
            let (mut a, mut b) = (message, message);
            let (mut mac_a, mut mac_b) = (
                AeadMac::new(b"aad", mac),
                AeadMac::new(b"aad", MacRoute::pinned(Poly1305Backend::Portable)),
            );
            // SAFETY: as above; a message of at most 4200 bytes is within the counter.
            unsafe {
                routed.seal(&state, a.as_ptr(), a.as_mut_ptr(), len, &mut mac_a);
                pinned.seal(&state, b.as_ptr(), b.as_mut_ptr(), len, &mut mac_b);
            }
            assert_eq!(a[..len], b[..len], "sealed, {len} bytes");
            assert_eq!(
                mac_a.finish(&a[..len]),
                mac_b.finish(&b[..len]),
                "tag, {len} bytes"
            );
        }
    }

    #[test]
    fn routed_lengths_give_the_bytes_of_the_backend() {
        for backend in Backend::available() {
            for short in Backend::available() {
                let routed = Route {
                    backend,
                    short,
                    long: short,
                    xor_short_below: 193,
                    aead_short_below: 129,
                };
                for mac_backend in Poly1305Backend::available() {
                    let mac = MacRoute {
                        backend: mac_backend,
                        simd_from: 16 * 25,
                    };
                    same_output(routed, mac, Route::pinned(backend));
                }
            }
            same_output(Route::detect(), MacRoute::detect(), Route::pinned(backend));
        }
    }
}
