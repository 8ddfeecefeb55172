//! Four-lane floats for the contact solver, which solves four constraints of one colour at
//! once (as Box2D v3's `contact_solver.c` does with its `b2FloatW`, and rapier with its
//! `SimdReal`).
//!
//! Two implementations of one API: [`scalar`], plain arrays, and on x86-64 [`sse`], SSE2
//! intrinsics (part of the x86-64 baseline, so no run-time detection is needed). This module is
//! the only place of the solver with SIMD. Both give bit-for-bit the same lanes: every
//! operation is one IEEE operation per lane (no fused multiply-add, no reassociation), and
//! `max`/`min` follow SSE's rule `max(a, b) = if a > b { a } else { b }` in both (so a NaN or
//! a ±0 tie gives `b`). A test compares the two on awkward inputs.

#[cfg(test)]
use crate::math::Matrix;
use crate::math::{Real, Vector};
use std::ops::{Add, Sub};

/// Number of lanes: constraints solved together.
pub(crate) const LANES: usize = 4;

/// The plain-array implementation (the reference, and the one used off x86-64).
#[allow(dead_code)]
pub(crate) mod scalar {
    use super::{Real, LANES};
    use std::ops::{Add, Mul, Neg, Sub};

    /// Four independent `Real`s, one per lane.
    #[derive(Clone, Copy, Debug, Default)]
    #[repr(C, align(16))]
    pub(crate) struct F4([Real; LANES]);

    /// Four booleans, one per lane (the result of a lane-wise comparison).
    #[derive(Clone, Copy, Debug, Default)]
    pub(crate) struct M4([bool; LANES]);

    impl F4 {
        pub const ZERO: F4 = F4([0.0; LANES]);

        #[inline(always)]
        pub fn splat(x: Real) -> F4 {
            F4([x; LANES])
        }
        #[inline(always)]
        pub fn from_array(a: [Real; LANES]) -> F4 {
            F4(a)
        }
        #[inline(always)]
        pub fn to_array(self) -> [Real; LANES] {
            self.0
        }
        #[cfg(test)]
        #[inline(always)]
        pub fn set_lane(&mut self, l: usize, x: Real) {
            self.0[l] = x;
        }
        #[inline(always)]
        pub fn max(self, o: F4) -> F4 {
            F4(std::array::from_fn(|l| {
                if self.0[l] > o.0[l] {
                    self.0[l]
                } else {
                    o.0[l]
                }
            }))
        }
        #[inline(always)]
        pub fn min(self, o: F4) -> F4 {
            F4(std::array::from_fn(|l| {
                if self.0[l] < o.0[l] {
                    self.0[l]
                } else {
                    o.0[l]
                }
            }))
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            F4(self.0.map(Real::sqrt))
        }
        #[inline(always)]
        pub fn div(self, o: F4) -> F4 {
            F4(std::array::from_fn(|l| self.0[l] / o.0[l]))
        }
        #[inline(always)]
        pub fn gt(self, o: F4) -> M4 {
            M4(std::array::from_fn(|l| self.0[l] > o.0[l]))
        }
        #[inline(always)]
        pub fn eq(self, o: F4) -> M4 {
            M4(std::array::from_fn(|l| self.0[l] == o.0[l]))
        }
    }

    /// `[r0, r1, r2, r3]` (rows) to their columns.
    #[inline(always)]
    pub fn transpose(r: [F4; LANES]) -> [F4; LANES] {
        std::array::from_fn(|c| F4(std::array::from_fn(|l| r[l].0[c])))
    }

    impl M4 {
        #[inline(always)]
        pub fn from_array(a: [bool; LANES]) -> M4 {
            M4(a)
        }
        #[inline(always)]
        pub fn select(self, a: F4, b: F4) -> F4 {
            F4(std::array::from_fn(
                |l| if self.0[l] { a.0[l] } else { b.0[l] },
            ))
        }
        #[inline(always)]
        pub fn or(self, o: M4) -> M4 {
            M4(std::array::from_fn(|l| self.0[l] | o.0[l]))
        }
        #[inline(always)]
        pub fn and(self, o: M4) -> M4 {
            M4(std::array::from_fn(|l| self.0[l] & o.0[l]))
        }
        #[inline(always)]
        pub fn not(self) -> M4 {
            M4(self.0.map(|b| !b))
        }
        #[inline(always)]
        pub fn any(self) -> bool {
            self.0.iter().any(|&b| b)
        }
        #[inline(always)]
        pub fn all(self) -> bool {
            self.0.iter().all(|&b| b)
        }
    }

    macro_rules! binop {
        ($tr:ident, $f:ident, $op:tt) => {
            impl $tr for F4 {
                type Output = F4;
                #[inline(always)]
                fn $f(self, o: F4) -> F4 {
                    F4(std::array::from_fn(|l| self.0[l] $op o.0[l]))
                }
            }
        };
    }
    binop!(Add, add, +);
    binop!(Sub, sub, -);
    binop!(Mul, mul, *);

    impl Neg for F4 {
        type Output = F4;
        #[inline(always)]
        fn neg(self) -> F4 {
            F4(self.0.map(|x| -x))
        }
    }
}

/// The SSE2 implementation.
#[cfg(target_arch = "x86_64")]
pub(crate) mod sse {
    use super::{Real, LANES};
    use std::arch::x86_64::*;
    use std::ops::{Add, Mul, Neg, Sub};

    // SAFETY (every `unsafe` block of this module): the intrinsics used are SSE and SSE2
    // arithmetic, comparison, logic and shuffle operations on values in registers, which every
    // x86-64 processor has (they are in the target's baseline feature set); none takes a
    // pointer. `transmute` only converts between `__m128` and `[f32; 4]`, which have the same
    // size and for which every bit pattern is valid.

    /// Four independent `Real`s, one per lane.
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub(crate) struct F4(__m128);

    /// Per lane all ones (true) or all zeros (false).
    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub(crate) struct M4(__m128);

    impl Default for F4 {
        #[inline(always)]
        fn default() -> F4 {
            F4::ZERO
        }
    }

    impl F4 {
        // SAFETY: see the module note.
        pub const ZERO: F4 = F4(unsafe { std::mem::transmute::<[f32; 4], __m128>([0.0; 4]) });

        #[inline(always)]
        pub fn splat(x: Real) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_set1_ps(x) })
        }
        #[inline(always)]
        pub fn from_array(a: [Real; LANES]) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { std::mem::transmute::<[f32; 4], __m128>(a) })
        }
        #[inline(always)]
        pub fn to_array(self) -> [Real; LANES] {
            // SAFETY: see the module note.
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
        #[inline(always)]
        pub fn max(self, o: F4) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn min(self, o: F4) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn sqrt(self) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_sqrt_ps(self.0) })
        }
        #[inline(always)]
        pub fn div(self, o: F4) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn gt(self, o: F4) -> M4 {
            // SAFETY: see the module note.
            M4(unsafe { _mm_cmpgt_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn eq(self, o: F4) -> M4 {
            // SAFETY: see the module note.
            M4(unsafe { _mm_cmpeq_ps(self.0, o.0) })
        }
    }

    /// `[r0, r1, r2, r3]` (rows) to their columns (`_MM_TRANSPOSE4_PS`).
    #[inline(always)]
    pub fn transpose(r: [F4; LANES]) -> [F4; LANES] {
        // SAFETY: see the module note.
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

    impl M4 {
        #[inline(always)]
        pub fn from_array(a: [bool; LANES]) -> M4 {
            let bits = a.map(|b| if b { u32::MAX } else { 0 });
            // SAFETY: see the module note.
            M4(unsafe { std::mem::transmute::<[u32; 4], __m128>(bits) })
        }
        #[inline(always)]
        pub fn select(self, a: F4, b: F4) -> F4 {
            // SAFETY: see the module note.
            F4(unsafe { _mm_or_ps(_mm_and_ps(self.0, a.0), _mm_andnot_ps(self.0, b.0)) })
        }
        #[inline(always)]
        pub fn or(self, o: M4) -> M4 {
            // SAFETY: see the module note.
            M4(unsafe { _mm_or_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn and(self, o: M4) -> M4 {
            // SAFETY: see the module note.
            M4(unsafe { _mm_and_ps(self.0, o.0) })
        }
        #[inline(always)]
        pub fn not(self) -> M4 {
            // SAFETY: see the module note.
            M4(unsafe { _mm_xor_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(-1))) })
        }
        #[inline(always)]
        pub fn any(self) -> bool {
            // SAFETY: see the module note.
            unsafe { _mm_movemask_ps(self.0) != 0 }
        }
        #[inline(always)]
        pub fn all(self) -> bool {
            // SAFETY: see the module note.
            unsafe { _mm_movemask_ps(self.0) == 0b1111 }
        }
    }

    macro_rules! binop {
        ($tr:ident, $f:ident, $intr:ident) => {
            impl $tr for F4 {
                type Output = F4;
                #[inline(always)]
                fn $f(self, o: F4) -> F4 {
                    // SAFETY: see the module note.
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
            // SAFETY: see the module note.
            F4(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
        }
    }
}

/// Asks the processor to start loading every cache line of `*p` (a hint with no effect on
/// results: the build reads contact pairs and bodies in colour order, which the hardware
/// prefetcher cannot guess). SSE `prefetcht0` on x86-64; nothing elsewhere.
#[inline(always)]
pub(crate) fn prefetch<T>(p: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        const LINE: usize = 64;
        let start = (p as *const T).cast::<i8>();
        let size = std::mem::size_of::<T>();
        // Every 64 bytes from the start, then the last byte (the value need not start a line);
        // the sizes are constants, so this unrolls into a few instructions.
        let mut offset = 0;
        while offset < size {
            // SAFETY: `prefetcht0` (SSE, in the x86-64 baseline) is a hint that never faults
            // and does not read memory architecturally; the address is only computed with
            // wrapping arithmetic, never dereferenced.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(offset)) };
            offset += LINE;
        }
        if size > 0 {
            // SAFETY: as above.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_add(size - 1)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[cfg(target_arch = "x86_64")]
pub(crate) use sse::{transpose, F4, M4};

#[cfg(not(target_arch = "x86_64"))]
pub(crate) use scalar::{transpose, F4, M4};

impl M4 {
    /// `a` in the lanes where the mask is true, `b` elsewhere, for vectors.
    #[inline(always)]
    pub fn select_v(self, a: V4, b: V4) -> V4 {
        V4 {
            x: self.select(a.x, b.x),
            y: self.select(a.y, b.y),
            z: self.select(a.z, b.z),
        }
    }
}

/// Four 3-vectors, stored by component (structure of arrays).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct V4 {
    pub x: F4,
    pub y: F4,
    pub z: F4,
}

impl V4 {
    pub const ZERO: V4 = V4 {
        x: F4::ZERO,
        y: F4::ZERO,
        z: F4::ZERO,
    };

    /// The vectors `f(0)`, …, `f(3)` in lanes 0 to 3.
    #[inline(always)]
    pub fn from_lanes(f: impl Fn(usize) -> Vector) -> V4 {
        let v: [Vector; LANES] = std::array::from_fn(f);
        V4 {
            x: F4::from_array(v.map(|v| v.x)),
            y: F4::from_array(v.map(|v| v.y)),
            z: F4::from_array(v.map(|v| v.z)),
        }
    }

    /// Lane-wise cross product `self × o`, with nalgebra's operations in nalgebra's order
    /// (`(y·z' − z·y', z·x' − x·z', x·y' − y·x')`), so that each lane equals `Vector::cross`.
    #[inline(always)]
    pub fn cross(&self, o: &V4) -> V4 {
        V4 {
            x: self.y * o.z - self.z * o.y,
            y: self.z * o.x - self.x * o.z,
            z: self.x * o.y - self.y * o.x,
        }
    }

    /// The vector of lane `l`.
    #[inline(always)]
    pub fn lane(&self, l: usize) -> Vector {
        Vector::new(
            self.x.to_array()[l],
            self.y.to_array()[l],
            self.z.to_array()[l],
        )
    }

    /// Lane-wise dot product, `x·x' + y·y' + z·z'` summed left to right (as nalgebra does).
    #[inline(always)]
    pub fn dot(&self, o: &V4) -> F4 {
        self.x * o.x + self.y * o.y + self.z * o.z
    }

    /// Every lane's vector scaled by that lane's `s`.
    #[inline(always)]
    pub fn scale(&self, s: F4) -> V4 {
        V4 {
            x: self.x * s,
            y: self.y * s,
            z: self.z * s,
        }
    }
}

/// Four 3×3 matrices, one per lane, stored by entry (`m[i][j]` holds entry `(i, j)` of the
/// four matrices).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct M3W {
    pub m: [[F4; 3]; 3],
}

impl M3W {
    /// The matrices `f(0)`, …, `f(3)` in lanes 0 to 3.
    #[cfg(test)]
    #[inline(always)]
    pub fn from_lanes(f: impl Fn(usize) -> Matrix) -> M3W {
        let v: [Matrix; LANES] = std::array::from_fn(f);
        M3W {
            m: std::array::from_fn(|i| {
                std::array::from_fn(|j| F4::from_array(std::array::from_fn(|l| v[l][(i, j)])))
            }),
        }
    }

    /// Lane-wise `m·v` for upper-triangular matrices (entries below the diagonal are taken as
    /// zero and not read): `(m00·x + m01·y + m02·z, m11·y + m12·z, m22·z)`, summed left to
    /// right.
    #[inline(always)]
    pub fn mul_upper_vec(&self, v: &V4) -> V4 {
        let m = &self.m;
        V4 {
            x: m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z,
            y: m[1][1] * v.y + m[1][2] * v.z,
            z: m[2][2] * v.z,
        }
    }
}

impl Add for V4 {
    type Output = V4;
    #[inline(always)]
    fn add(self, o: V4) -> V4 {
        V4 {
            x: self.x + o.x,
            y: self.y + o.y,
            z: self.z + o.z,
        }
    }
}

impl Sub for V4 {
    type Output = V4;
    #[inline(always)]
    fn sub(self, o: V4) -> V4 {
        V4 {
            x: self.x - o.x,
            y: self.y - o.y,
            z: self.z - o.z,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Awkward values: signed zeros, NaN, infinities, denormals, ties.
    const AWKWARD: [Real; 12] = [
        0.0,
        -0.0,
        Real::NAN,
        Real::INFINITY,
        Real::NEG_INFINITY,
        1.0e-40,
        -1.0e-40,
        1.5,
        -2.25,
        3.0e7,
        1.0,
        1.0,
    ];

    fn quads() -> Vec<[Real; LANES]> {
        let mut out = Vec::new();
        for i in 0..AWKWARD.len() {
            out.push(std::array::from_fn(|l| {
                AWKWARD[(i + 5 * l) % AWKWARD.len()]
            }));
        }
        out
    }

    fn same(x: [Real; LANES], y: [Real; LANES]) -> bool {
        x.iter().zip(&y).all(|(a, b)| a.to_bits() == b.to_bits())
    }

    /// The SIMD lanes and the scalar twin agree bit for bit, and the scalar twin is the
    /// scalar operation per lane.
    #[test]
    fn simd_matches_scalar_twin() {
        use scalar::F4 as S;
        for a in quads() {
            for b in quads() {
                let (fa, fb, sa, sb) = (
                    F4::from_array(a),
                    F4::from_array(b),
                    S::from_array(a),
                    S::from_array(b),
                );
                let pairs = [
                    ((fa + fb).to_array(), (sa + sb).to_array()),
                    ((fa - fb).to_array(), (sa - sb).to_array()),
                    ((fa * fb).to_array(), (sa * sb).to_array()),
                    (fa.div(fb).to_array(), sa.div(sb).to_array()),
                    (fa.max(fb).to_array(), sa.max(sb).to_array()),
                    (fa.min(fb).to_array(), sa.min(sb).to_array()),
                    (fa.sqrt().to_array(), sa.sqrt().to_array()),
                    ((-fa).to_array(), (-sa).to_array()),
                    (
                        fa.gt(fb).select(fa, fb).to_array(),
                        sa.gt(sb).select(sa, sb).to_array(),
                    ),
                    (
                        fa.eq(fb).not().select(fa, fb).to_array(),
                        sa.eq(sb).not().select(sa, sb).to_array(),
                    ),
                ];
                for (i, (x, y)) in pairs.into_iter().enumerate() {
                    assert!(same(x, y), "op {i}: {a:?} {b:?}: {x:?} vs {y:?}");
                }
                let scalar_sum: [Real; LANES] = std::array::from_fn(|l| a[l] + b[l]);
                assert!(same((sa + sb).to_array(), scalar_sum));
                assert_eq!(fa.gt(fb).any(), sa.gt(sb).any());
                assert_eq!(fa.eq(fb).all(), sa.eq(sb).all());
            }
        }
        let rows = quads();
        let cols = transpose([0, 1, 2, 3].map(|i| F4::from_array(rows[i])));
        let twin = scalar::transpose([0, 1, 2, 3].map(|i| S::from_array(rows[i])));
        for c in 0..LANES {
            let mut set = F4::ZERO;
            let mut set_twin = S::ZERO;
            for (l, &x) in rows[c].iter().enumerate() {
                set.set_lane(l, x);
                set_twin.set_lane(l, x);
            }
            assert!(same(set.to_array(), rows[c]) && same(set_twin.to_array(), rows[c]));
            assert!(same(cols[c].to_array(), twin[c].to_array()));
            assert!(same(
                cols[c].to_array(),
                std::array::from_fn(|l| rows[l][c])
            ));
        }
    }

    #[test]
    fn vectors_match_nalgebra() {
        let u = V4::from_lanes(|l| Vector::new(l as Real, 1.0, -2.0 * l as Real));
        let v = V4::from_lanes(|l| Vector::new(0.5, l as Real + 0.25, 3.0));
        for l in 0..LANES {
            assert_eq!(u.dot(&v).to_array()[l], u.lane(l).dot(&v.lane(l)));
            assert_eq!((u - v).lane(l), u.lane(l) - v.lane(l));
            assert_eq!((u + v).lane(l), u.lane(l) + v.lane(l));
            assert_eq!(u.cross(&v).lane(l), u.lane(l).cross(&v.lane(l)));
        }
        // Upper triangular; the entries below the diagonal are ignored.
        let m = M3W::from_lanes(|l| {
            Matrix::new(
                1.5 + l as Real,
                -0.25,
                3.0e-3,
                9.0,
                2.0 + l as Real,
                -7.5,
                9.0,
                9.0,
                -1.1,
            )
        });
        for l in 0..LANES {
            let ml = Matrix::from_fn(|i, j| if i > j { 0.0 } else { m.m[i][j].to_array()[l] });
            assert_eq!(m.mul_upper_vec(&v).lane(l), ml * v.lane(l));
        }
    }
}
