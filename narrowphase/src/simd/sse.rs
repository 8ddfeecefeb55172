//! The x86-64 backend: SSE and SSE2 intrinsics on one `__m128`. The only file of the project
//! with SIMD intrinsics, and the only `unsafe` that exists for SIMD; `scalar.rs` is its twin.
//!
//! SAFETY, for every `unsafe` block of this file (each says which case it is): the intrinsics
//! used are SSE and SSE2 instructions, which every x86-64 processor executes (they are in the
//! target's baseline feature set, so no run-time detection is needed). Most take values in
//! registers only. The few that touch memory say so in their own note: unaligned loads and
//! stores (`loadu`/`storeu`, which need no alignment) of 16 bytes that lie inside a reference
//! or a local array, and `prefetcht0`, which never faults. `transmute` only converts between
//! `__m128` and `[f32; 4]` or `[u32; 4]`, which have the same size and for which every bit
//! pattern is valid.

use super::{Lanes, LANES};
use crate::math::{Isometry, Point, Real, Vector};
use std::arch::x86_64::*;
use std::ops::{Add, Mul, Neg, Sub};

/// Four independent `Real`s, one per lane.
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct F4(__m128);

/// Per lane all ones (true) or all zeros (false).
#[derive(Clone, Copy, Debug)]
#[repr(transparent)]
pub struct M4(__m128);

impl Default for F4 {
    #[inline(always)]
    fn default() -> F4 {
        F4::ZERO
    }
}

/// Methods `fn f(self, o) -> Out` that are one SSE intrinsic on the two registers, each with
/// its docs and attributes.
macro_rules! lanewise {
    ($($(#[$attr:meta])* fn $f:ident($in:ident) -> $out:ident = $intr:ident;)*) => {$(
        $(#[$attr])*
        #[inline(always)]
        pub fn $f(self, o: $in) -> $out {
            // SAFETY: SSE on registers (see the file's note).
            $out(unsafe { $intr(self.0, o.0) })
        }
    )*};
}

impl F4 {
    /// Zero in every lane.
    // SAFETY: a `transmute` from `[f32; 4]` (see the file's note).
    pub const ZERO: F4 = F4(unsafe { std::mem::transmute::<[f32; 4], __m128>([0.0; 4]) });

    lanewise! {
        /// Lane-wise `if self > o { self } else { o }` (`maxps`).
        fn max(F4) -> F4 = _mm_max_ps;
        /// Lane-wise `if self < o { self } else { o }` (`minps`).
        fn min(F4) -> F4 = _mm_min_ps;
        /// Lane-wise `self / o`.
        #[allow(clippy::should_implement_trait)] // Used as a method, like `max`; not an operator.
        fn div(F4) -> F4 = _mm_div_ps;
        /// Lane-wise `self > o` (false on NaN).
        fn gt(F4) -> M4 = _mm_cmpgt_ps;
        /// Lane-wise `self == o` (false on NaN, true for `0 == −0`).
        fn eq(F4) -> M4 = _mm_cmpeq_ps;
    }

    /// `x` in every lane.
    #[inline(always)]
    pub fn splat(x: Real) -> F4 {
        // SAFETY: SSE on registers (see the file's note).
        F4(unsafe { _mm_set1_ps(x) })
    }
    /// `a[l]` in lane `l`.
    #[inline(always)]
    pub fn from_array(a: [Real; LANES]) -> F4 {
        // SAFETY: a `transmute` from `[f32; 4]` (see the file's note).
        F4(unsafe { std::mem::transmute::<[f32; 4], __m128>(a) })
    }
    /// Lane `l` in `[l]`.
    #[inline(always)]
    pub fn to_array(self) -> [Real; LANES] {
        // SAFETY: a `transmute` to `[f32; 4]` (see the file's note).
        unsafe { std::mem::transmute::<__m128, [f32; 4]>(self.0) }
    }
    /// Sets lane `l` (< 4) to `x`, in place.
    #[cfg(test)]
    #[inline(always)]
    pub fn set_lane(&mut self, l: usize, x: Real) {
        let lanes = (&mut self.0 as *mut __m128).cast::<[f32; 4]>();
        // SAFETY: `__m128` and `[f32; 4]` have the same size, `__m128`'s alignment is
        // larger, and every bit pattern is valid for both; the borrow is exclusive.
        unsafe { (*lanes)[l] = x };
    }
    /// Lane-wise square root.
    #[inline(always)]
    pub fn sqrt(self) -> F4 {
        // SAFETY: SSE on registers (see the file's note).
        F4(unsafe { _mm_sqrt_ps(self.0) })
    }
    /// Lane-wise `|self|` (the sign bits cleared).
    #[inline(always)]
    pub fn abs(self) -> F4 {
        // SAFETY: SSE/SSE2 on registers (see the file's note).
        F4(unsafe { _mm_and_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff))) })
    }
}

/// `[r0, r1, r2, r3]` (rows) to their columns (`_MM_TRANSPOSE4_PS`).
#[inline(always)]
pub fn transpose(r: [F4; LANES]) -> [F4; LANES] {
    // SAFETY: SSE on registers (see the file's note).
    unsafe {
        let t0 = _mm_unpacklo_ps(r[0].0, r[1].0);
        let t1 = _mm_unpacklo_ps(r[2].0, r[3].0);
        let t2 = _mm_unpackhi_ps(r[0].0, r[1].0);
        let t3 = _mm_unpackhi_ps(r[2].0, r[3].0);
        [
            F4(_mm_movelh_ps(t0, t1)),
            F4(_mm_movehl_ps(t1, t0)),
            F4(_mm_movelh_ps(t2, t3)),
            F4(_mm_movehl_ps(t3, t2)),
        ]
    }
}

/// Asks the processor to start loading every cache line of `*p` (a hint with no effect on
/// results: the solver's build reads contact pairs and bodies in colour order, which the
/// hardware prefetcher cannot guess). SSE `prefetcht0`; the scalar twin does nothing.
#[inline(always)]
pub fn prefetch<T>(p: &T) {
    const LINE: usize = 64;
    let start = (p as *const T).cast::<i8>();
    let size = std::mem::size_of::<T>();
    // Every 64 bytes from the start, then the last byte (the value need not start a line);
    // the sizes are constants, so this unrolls into a few instructions.
    let mut offset = 0;
    while offset < size {
        // SAFETY: `prefetcht0` (SSE) is a hint that never faults and does not read memory
        // architecturally; the address is only computed with wrapping arithmetic, never
        // dereferenced.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
        offset += LINE;
    }
    if size > 0 {
        // SAFETY: as above.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(size - 1)) };
    }
}

impl M4 {
    lanewise! {
        /// Lane-wise OR.
        fn or(M4) -> M4 = _mm_or_ps;
        /// Lane-wise AND.
        fn and(M4) -> M4 = _mm_and_ps;
    }
    /// `a[l]` in lane `l`.
    #[inline(always)]
    pub fn from_array(a: [bool; LANES]) -> M4 {
        let bits = a.map(|b| if b { u32::MAX } else { 0 });
        // SAFETY: a `transmute` from `[u32; 4]` (see the file's note).
        M4(unsafe { std::mem::transmute::<[u32; 4], __m128>(bits) })
    }
    /// `a` in the lanes where the mask is true, `b` elsewhere.
    #[inline(always)]
    pub fn select(self, a: F4, b: F4) -> F4 {
        // SAFETY: SSE on registers (see the file's note).
        F4(unsafe { _mm_or_ps(_mm_and_ps(self.0, a.0), _mm_andnot_ps(self.0, b.0)) })
    }
    /// Lane-wise NOT.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)] // Used as a method, like `and`; not an operator.
    pub fn not(self) -> M4 {
        // SAFETY: SSE/SSE2 on registers (see the file's note).
        M4(unsafe { _mm_xor_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(-1))) })
    }
    /// True when some lane is set.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.bits() != 0
    }
    /// True when every lane is set.
    #[inline(always)]
    pub fn all(self) -> bool {
        self.bits() == 0b1111
    }
    /// Bit `l` set when lane `l` is (`movmskps`).
    #[inline(always)]
    fn bits(self) -> i32 {
        // SAFETY: SSE on registers (see the file's note).
        unsafe { _mm_movemask_ps(self.0) }
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $intr:ident) => {
        impl $tr for F4 {
            type Output = F4;
            #[inline(always)]
            fn $f(self, o: F4) -> F4 {
                // SAFETY: SSE on registers (see the file's note).
                F4(unsafe { $intr(self.0, o.0) })
            }
        }
    };
}
binop!(Add, add, _mm_add_ps);
binop!(Sub, sub, _mm_sub_ps);
binop!(Mul, mul, _mm_mul_ps);

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        // SAFETY: SSE on registers (see the file's note).
        F4(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
    }
}

/// Three lanes of an [`F4`] (lane 3 ignored), the SSE [`Lanes`] backend: its arithmetic,
/// comparisons and masks are [`F4`]'s and [`M4`]'s; only the loads and lane permutations
/// below are its own.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sse(F4);

impl Lanes for Sse {
    type Mask = M4;
    #[inline(always)]
    fn new(x: Real, y: Real, z: Real) -> Self {
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe { _mm_setr_ps(x, y, z, 0.0) }))
    }
    #[inline(always)]
    fn load(v: &Vector) -> Self {
        // A vector is three `Real`s in a row (checked below at compile time): x and y in one
        // 8-byte load, z in a 4-byte one, then joined.
        const _: () = assert!(std::mem::size_of::<Vector>() == 3 * 4);
        let p = v as *const Vector as *const Real;
        // SAFETY: SSE/SSE2; `p` comes from a reference to the three `Real`s (size asserted
        // above): `loadu_si64` reads `Real`s 0..2 (it needs no alignment), `load_ss` reads
        // `Real` 2 (aligned as a `Real`).
        Sse(F4(unsafe {
            let xy = _mm_castsi128_ps(_mm_loadu_si64(p.cast::<u8>()));
            _mm_movelh_ps(xy, _mm_load_ss(p.add(2)))
        }))
    }
    #[inline(always)]
    fn new_w(x: Real, y: Real, z: Real, w: Real) -> Self {
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe { _mm_setr_ps(x, y, z, w) }))
    }
    #[inline(always)]
    fn translation_difference(a: &Isometry, b: &Isometry) -> Self {
        // An isometry is the quaternion (i, j, k, w) then the translation (x, y, z),
        // seven `Real`s in a row (checked below at compile time): the four from `w` on
        // are loaded at once, subtracted, and rotated to (x, y, z, w).
        const _: () = assert!(
            std::mem::size_of::<Isometry>() == 7 * 4
                && std::mem::offset_of!(Isometry, rotation) == 0
                && std::mem::offset_of!(Isometry, translation) == 4 * 4
        );
        let tail = |p: &Isometry| {
            // SAFETY: SSE; the pointer comes from a reference to the whole isometry, and the
            // 16 bytes read, from byte 12 to byte 28, lie inside it (its size is 28, asserted
            // above); `loadu` needs no alignment.
            unsafe { _mm_loadu_ps((p as *const Isometry as *const Real).add(3)) }
        };
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe {
            let d = _mm_sub_ps(tail(b), tail(a));
            _mm_shuffle_ps::<0b00_11_10_01>(d, d)
        }))
    }
    #[inline(always)]
    fn rotation_dot(a: &Isometry, b: &Isometry) -> Self {
        // The quaternion (i, j, k, w) is the first four `Real`s of an isometry (see
        // `translation_difference`).
        let q = |p: &Isometry| {
            // SAFETY: SSE; the 16 bytes read lie inside the isometry (28 bytes, asserted in
            // `translation_difference`); `loadu` needs no alignment.
            unsafe { _mm_loadu_ps(p as *const Isometry as *const Real) }
        };
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe {
            let p = _mm_mul_ps(q(a), q(b));
            // (ii' + kk', jj' + ww', kk' + ii', ww' + jj'), then each lane plus its neighbour.
            let h = _mm_add_ps(p, _mm_shuffle_ps::<0b01_00_11_10>(p, p));
            _mm_add_ps(h, _mm_shuffle_ps::<0b10_11_00_01>(h, h))
        }))
    }
    #[inline(always)]
    fn splat(v: Real) -> Self {
        Sse(F4::splat(v))
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        Sse(self.0 + o.0)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        Sse(self.0 - o.0)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        Sse(self.0 * o.0)
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        Sse(self.0.div(o.0))
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Sse(self.0.sqrt())
    }
    #[inline(always)]
    fn to_array(self) -> [Real; 3] {
        let mut v = [0.0; 4];
        // SAFETY: SSE; `v` is a local array of four `Real`s, the 16 bytes `storeu` writes
        // (it needs no alignment).
        unsafe { _mm_storeu_ps(v.as_mut_ptr(), self.0 .0) };
        [v[0], v[1], v[2]]
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Sse(self.0.abs())
    }
    #[inline(always)]
    fn neg(self) -> Self {
        Sse(-self.0)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        Sse(self.0.min(o.0))
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        Sse(self.0.max(o.0))
    }
    #[inline(always)]
    fn splats(self) -> [Self; 3] {
        let a = self.0 .0;
        // SAFETY: SSE on registers (see the file's note).
        unsafe {
            [
                Sse(F4(_mm_shuffle_ps::<0b00_00_00_00>(a, a))),
                Sse(F4(_mm_shuffle_ps::<0b01_01_01_01>(a, a))),
                Sse(F4(_mm_shuffle_ps::<0b10_10_10_10>(a, a))),
            ]
        }
    }
    #[inline(always)]
    fn firsts(a: Self, b: Self, c: Self) -> Self {
        // (a0, b0, a1, b1), then its low half with c's: (a0, b0, c0, c1).
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe {
            _mm_movelh_ps(_mm_unpacklo_ps(a.0 .0, b.0 .0), c.0 .0)
        }))
    }
    #[inline(always)]
    fn points(v: &[Point; 3]) -> [Self; 3] {
        // Three points are nine `Real`s in a row, x, y, z each (checked below at compile
        // time): three loads of four (lane 3 of the first two is the next point's x), the
        // last one shifted by a shuffle (z1 x2 y2 z2 -> x2 y2 z2 z1).
        const _: () = assert!(
            std::mem::size_of::<[Point; 3]>() == 9 * 4 && std::mem::offset_of!(Point, coords) == 0
        );
        let p = v as *const [Point; 3] as *const Real;
        // SAFETY: SSE; `p` comes from a reference to the nine `Real`s (size asserted above)
        // and the loads read `Real`s 0..4, 3..7 and 5..9 of them; `loadu` needs no alignment.
        unsafe {
            let c = _mm_loadu_ps(p.add(5));
            [
                Sse(F4(_mm_loadu_ps(p))),
                Sse(F4(_mm_loadu_ps(p.add(3)))),
                Sse(F4(_mm_shuffle_ps::<0b00_11_10_01>(c, c))),
            ]
        }
    }
    #[inline(always)]
    fn transpose(v: [Self; 3]) -> [Self; 3] {
        // Five shuffles; lane 3 of each result repeats a lane of the 3 × 3 block.
        // SAFETY: SSE on registers (see the file's note).
        unsafe {
            let [a, b, c] = v.map(|s| s.0 .0);
            let lo = _mm_unpacklo_ps(a, b); // a0 b0 a1 b1
            let hi = _mm_unpackhi_ps(a, b); // a2 b2 a3 b3
            [
                Sse(F4(_mm_movelh_ps(lo, c))),                   // a0 b0 c0 c1
                Sse(F4(_mm_shuffle_ps::<0b01_01_11_10>(lo, c))), // a1 b1 c1 c1
                Sse(F4(_mm_shuffle_ps::<0b10_10_01_00>(hi, c))), // a2 b2 c2 c2
            ]
        }
    }
    #[inline(always)]
    fn next1(self) -> Self {
        // Lanes (1, 2, 0, 3).
        let a = self.0 .0;
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe { _mm_shuffle_ps::<0b11_00_10_01>(a, a) }))
    }
    #[inline(always)]
    fn next2(self) -> Self {
        // Lanes (2, 0, 1, 3).
        let a = self.0 .0;
        // SAFETY: SSE on registers (see the file's note).
        Sse(F4(unsafe { _mm_shuffle_ps::<0b11_01_00_10>(a, a) }))
    }
    #[inline(always)]
    fn gt(self, o: Self) -> M4 {
        self.0.gt(o.0)
    }
    #[inline(always)]
    fn or(a: M4, b: M4) -> M4 {
        a.or(b)
    }
    #[inline(always)]
    fn any(m: M4) -> bool {
        // Lanes 0..3 only.
        m.bits() & 0b111 != 0
    }
}
