//! Three-lane arithmetic for the SAT kernels (the boolean tests, and the axis search of the
//! box–box contact): the one place of the crate with SIMD.
//!
//! A kernel (e.g. [`super::box_box::overlap_poses`]) is written once, generic over [`Lanes`],
//! and runs on one of two backends:
//! - [`Scalar`], three `Real`s: the reference, and what runs on targets other than x86_64;
//! - `Sse` (x86_64 only), one `__m128` whose lanes 0..3 hold the three values (lane 3 is
//!   ignored). SSE2 is part of the x86_64 baseline: no run-time detection is needed.
//!
//! Both backends do the same IEEE operation per lane in the same order (no fused
//! multiply-add: SSE2 has none and Rust never contracts `a * b + c`), and `>` is false on NaN
//! in both, so a kernel gives bit-identical results on either; the tests of each kernel check
//! it on random inputs.
//!
//! Lane permutations are named after where lane `j` reads from: [`Lanes::next1`] puts lane
//! `(j + 1) % 3` in lane `j`, [`Lanes::next2`] lane `(j + 2) % 3`.

use crate::math::{Isometry, Point, Real, Vector};

/// Three values processed together (see the module docs).
pub(crate) trait Lanes: Copy {
    /// The result of a lane-wise comparison.
    type Mask: Copy;
    /// Lanes `(x, y, z)`.
    fn new(x: Real, y: Real, z: Real) -> Self;
    /// Lanes `(x, y, z)`, `w` kept where no result reads it (SSE: lane 3), so that four
    /// values next to each other in memory (a quaternion) load in one instruction.
    fn new_w(x: Real, y: Real, z: Real, w: Real) -> Self;
    /// `b.translation − a.translation`: on SSE two loads of four values (the last quaternion
    /// entry and the translation), one subtraction and one shuffle.
    fn translation_difference(a: &Isometry, b: &Isometry) -> Self;
    /// The dot product of the two poses' rotation quaternions as 4-vectors, in every lane,
    /// summed as `(i i' + k k') + (j j' + w w')` (on SSE one product, two shuffles, two sums).
    fn rotation_dot(a: &Isometry, b: &Isometry) -> Self;
    /// `v` in every lane.
    fn splat(v: Real) -> Self;
    /// Lane-wise `self + o`.
    fn add(self, o: Self) -> Self;
    /// Lane-wise `self − o`.
    fn sub(self, o: Self) -> Self;
    /// Lane-wise `self · o`.
    fn mul(self, o: Self) -> Self;
    /// Lane-wise `self / o` (IEEE division, as the scalar `/`).
    fn div(self, o: Self) -> Self;
    /// Lane-wise square root (IEEE, as [`Real::sqrt`]).
    fn sqrt(self) -> Self;
    /// Lanes 0, 1, 2 as an array.
    fn to_array(self) -> [Real; 3];
    /// Lane-wise `|self|`.
    fn abs(self) -> Self;
    /// Lane-wise `−self` (the sign bit flipped).
    fn neg(self) -> Self;
    /// Lane-wise `if self < o { self } else { o }` (SSE `minps`; `o` when either is NaN).
    fn min(self, o: Self) -> Self;
    /// Lane-wise `if self > o { self } else { o }` (SSE `maxps`; `o` when either is NaN).
    fn max(self, o: Self) -> Self;
    /// Lane 0, lane 1 and lane 2, each in every lane.
    fn splats(self) -> [Self; 3];
    /// Lane 0 of `a`, of `b` and of `c`, in lanes 0, 1, 2.
    fn firsts(a: Self, b: Self, c: Self) -> Self;
    /// Three points `v`, each in lanes x, y, z (on SSE three loads and one shuffle).
    fn points(v: &[Point; 3]) -> [Self; 3];
    /// The 3 × 3 transpose: lane `j` of result `k` is lane `k` of `v[j]` (from three vectors,
    /// each in lanes x, y, z, to their x's, y's and z's, each in lanes 0, 1, 2, the layout in
    /// which a kernel works on three points at once; and back).
    fn transpose(v: [Self; 3]) -> [Self; 3];
    /// Lane `j` gets lane `(j + 1) % 3`.
    fn next1(self) -> Self;
    /// Lane `j` gets lane `(j + 2) % 3`.
    fn next2(self) -> Self;
    /// Lane-wise `self > o` (false on NaN).
    fn gt(self, o: Self) -> Self::Mask;
    /// Lane-wise OR of two masks.
    fn or(a: Self::Mask, b: Self::Mask) -> Self::Mask;
    /// True when some lane of the mask is set.
    fn any(m: Self::Mask) -> bool;

    /// `self × o` as 3-vectors (lanes x, y, z).
    #[inline(always)]
    fn cross(self, o: Self) -> Self {
        self.next1().mul(o.next2()).sub(self.next2().mul(o.next1()))
    }
}

/// The pose of B in A's frame, `A⁻¹ B`, as a quaternion `(s, w)` (vector part in lanes) and a
/// translation: `q = conj(q_a) q_b = (w_a v_b − w_b v_a − v_a × v_b, w_a w_b + v_a · v_b)`,
/// `t = conj(q_a) (t_b − t_a) = d + 2 (v_a × c − w_a c)` with `c = v_a × d`, `d = t_b − t_a`
/// (Rodrigues' form for a unit quaternion).
#[inline(always)]
pub(crate) fn relative_pose<L: Lanes>(pose_a: &Isometry, pose_b: &Isometry) -> (L, Real, L) {
    let (qa, qb) = (&pose_a.rotation, &pose_b.rotation);
    let w = qa.w * qb.w + (qa.i * qb.i + qa.j * qb.j + qa.k * qb.k);
    let (s, va, wa, d) = relative_parts::<L>(pose_a, pose_b);
    let c = va.cross(d);
    let t = d.add(L::splat(2.0).mul(va.cross(c).sub(wa.mul(c))));
    (s, w, t)
}

/// [`relative_pose`] with the quaternion's scalar part in every lane, summed as
/// [`Lanes::rotation_dot`] does, and the translation summed as
/// `(d − 2 w_a c) + v_a × 2c` with `2c = v_a × 2d` (one step shorter than [`relative_pose`]'s
/// order): on lanes without moving the parts to scalars and back. Either may differ from
/// [`relative_pose`]'s in the last bit.
#[inline(always)]
pub(crate) fn relative_pose_lanes<L: Lanes>(pose_a: &Isometry, pose_b: &Isometry) -> (L, L, L) {
    let (s, va, wa, d) = relative_parts::<L>(pose_a, pose_b);
    let c2 = va.cross(d.add(d));
    let t = d.sub(wa.mul(c2)).add(va.cross(c2));
    (s, L::rotation_dot(pose_a, pose_b), t)
}

/// The parts of [`relative_pose`] both forms share: the vector part `s` of the relative
/// quaternion, `A`'s vector part `v_a`, `w_a` in every lane, and `d = t_b − t_a`.
#[inline(always)]
fn relative_parts<L: Lanes>(pose_a: &Isometry, pose_b: &Isometry) -> (L, L, L, L) {
    let (qa, qb) = (&pose_a.rotation, &pose_b.rotation);
    let va = L::new_w(qa.i, qa.j, qa.k, qa.w);
    let vb = L::new_w(qb.i, qb.j, qb.k, qb.w);
    let wa = L::splat(qa.w);
    let s = wa.mul(vb).sub(L::splat(qb.w).mul(va)).sub(va.cross(vb));
    (s, va, wa, L::translation_difference(pose_a, pose_b))
}

/// The rotation matrix `R` of the unit quaternion `(s, w)` (vector part in lanes, `w` in every
/// lane) as its three wrapped diagonals `[d, p, q]`: lane `r` of `d`, `p`, `q` holds `R[r][r]`,
/// `R[r][r+1]`, `R[r][r+2]` (indices mod 3), so that `R v = d v + p v.next1() + q v.next2()`
/// ([`transform_diagonals`]) takes no shuffle of `R`. From `R = (w² − |s|²) I + 2 s sᵀ + 2w[s]×`
/// and `|s|² + w² = 1`: `d = (s · 2s − 1) + w · 2w`, `p = s · (2s).next1() − w (2s).next2()`,
/// `q = s · (2s).next2() + w (2s).next1()`. `w` arrives before `s` (it takes fewer steps),
/// so `w · 2w` is ready when `s · 2s − 1` is, and no step of `d` permutes lanes.
#[inline(always)]
pub(crate) fn rotation_diagonals<L: Lanes>(s: L, w: L) -> [L; 3] {
    let s2 = s.add(s);
    let (s2n1, s2n2) = (s2.next1(), s2.next2());
    let d = s.mul(s2).sub(L::splat(1.0)).add(w.mul(w.add(w)));
    let p = s.mul(s2n1).sub(w.mul(s2n2));
    let q = s.mul(s2n2).add(w.mul(s2n1));
    [d, p, q]
}

/// `R v + t` for `R` given by [`rotation_diagonals`] and `v`, `t` in lanes x, y, z, summed as
/// `(p v.next1() + q v.next2()) + (d v + t)` (two sums deep after the products; `d` and `t`
/// come last).
#[inline(always)]
pub(crate) fn transform_diagonals<L: Lanes>([d, p, q]: [L; 3], v: L, t: L) -> L {
    p.mul(v.next1()).add(q.mul(v.next2())).add(d.mul(v).add(t))
}

/// A vector's `x, y, z` in lanes.
#[inline(always)]
pub(crate) fn vector<L: Lanes>(v: &Vector) -> L {
    L::new(v.x, v.y, v.z)
}

/// The scalar backend: plain `Real`s, the reference of every kernel. On x86_64 only the
/// tests run it (against [`Fast`]); elsewhere it is [`Fast`].
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scalar(pub [Real; 3]);

#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
impl Scalar {
    #[inline(always)]
    fn map(self, f: impl Fn(Real) -> Real) -> Self {
        Scalar(self.0.map(f))
    }

    #[inline(always)]
    fn zip(self, o: Self, f: impl Fn(Real, Real) -> Real) -> Self {
        let (a, b) = (self.0, o.0);
        Scalar([f(a[0], b[0]), f(a[1], b[1]), f(a[2], b[2])])
    }
}

impl Lanes for Scalar {
    type Mask = [bool; 3];
    #[inline(always)]
    fn new(x: Real, y: Real, z: Real) -> Self {
        Scalar([x, y, z])
    }
    #[inline(always)]
    fn new_w(x: Real, y: Real, z: Real, _w: Real) -> Self {
        Scalar([x, y, z])
    }
    #[inline(always)]
    fn translation_difference(a: &Isometry, b: &Isometry) -> Self {
        let (a, b) = (&a.translation.vector, &b.translation.vector);
        Scalar([b.x - a.x, b.y - a.y, b.z - a.z])
    }
    #[inline(always)]
    fn rotation_dot(a: &Isometry, b: &Isometry) -> Self {
        let (a, b) = (&a.rotation, &b.rotation);
        Scalar([(a.i * b.i + a.k * b.k) + (a.j * b.j + a.w * b.w); 3])
    }
    #[inline(always)]
    fn splat(v: Real) -> Self {
        Scalar([v; 3])
    }
    #[inline(always)]
    fn add(self, o: Self) -> Self {
        self.zip(o, |a, b| a + b)
    }
    #[inline(always)]
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a - b)
    }
    #[inline(always)]
    fn mul(self, o: Self) -> Self {
        self.zip(o, |a, b| a * b)
    }
    #[inline(always)]
    fn div(self, o: Self) -> Self {
        self.zip(o, |a, b| a / b)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        self.map(Real::sqrt)
    }
    #[inline(always)]
    fn to_array(self) -> [Real; 3] {
        self.0
    }
    #[inline(always)]
    fn abs(self) -> Self {
        self.map(Real::abs)
    }
    #[inline(always)]
    fn neg(self) -> Self {
        self.map(|a| -a)
    }
    #[inline(always)]
    fn min(self, o: Self) -> Self {
        self.zip(o, |a, b| if a < b { a } else { b })
    }
    #[inline(always)]
    fn max(self, o: Self) -> Self {
        self.zip(o, |a, b| if a > b { a } else { b })
    }
    #[inline(always)]
    fn splats(self) -> [Self; 3] {
        self.0.map(|a| Scalar([a; 3]))
    }
    #[inline(always)]
    fn firsts(a: Self, b: Self, c: Self) -> Self {
        Scalar([a.0[0], b.0[0], c.0[0]])
    }
    #[inline(always)]
    fn points(v: &[Point; 3]) -> [Self; 3] {
        v.map(|c| Scalar([c.x, c.y, c.z]))
    }
    #[inline(always)]
    fn transpose(v: [Self; 3]) -> [Self; 3] {
        [0, 1, 2].map(|k| Scalar([v[0].0[k], v[1].0[k], v[2].0[k]]))
    }
    #[inline(always)]
    fn next1(self) -> Self {
        let a = self.0;
        Scalar([a[1], a[2], a[0]])
    }
    #[inline(always)]
    fn next2(self) -> Self {
        let a = self.0;
        Scalar([a[2], a[0], a[1]])
    }
    #[inline(always)]
    fn gt(self, o: Self) -> [bool; 3] {
        let (a, b) = (self.0, o.0);
        [a[0] > b[0], a[1] > b[1], a[2] > b[2]]
    }
    #[inline(always)]
    fn or(a: [bool; 3], b: [bool; 3]) -> [bool; 3] {
        [a[0] | b[0], a[1] | b[1], a[2] | b[2]]
    }
    #[inline(always)]
    fn any(m: [bool; 3]) -> bool {
        m[0] | m[1] | m[2]
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use sse::Sse;

/// The x86_64 backend: SSE/SSE2 intrinsics on one `__m128`.
#[cfg(target_arch = "x86_64")]
mod sse {
    use super::Lanes;
    use crate::math::{Isometry, Point, Real};
    use std::arch::x86_64::*;

    /// Three lanes in an SSE register (lane 3 ignored).
    #[derive(Clone, Copy, Debug)]
    pub(crate) struct Sse(__m128);

    // Every `unsafe` block below calls one SSE or SSE2 intrinsic on register values only (no
    // pointer). SAFETY, for all of them: SSE and SSE2 are baseline features of the x86_64
    // target, so every x86_64 processor executes these instructions.
    impl Lanes for Sse {
        type Mask = __m128;
        #[inline(always)]
        fn new(x: Real, y: Real, z: Real) -> Self {
            // SAFETY: SSE baseline on x86_64 (see the note above the impl).
            Sse(unsafe { _mm_setr_ps(x, y, z, 0.0) })
        }
        #[inline(always)]
        fn new_w(x: Real, y: Real, z: Real, w: Real) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_setr_ps(x, y, z, w) })
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
                // SAFETY: SSE baseline on x86_64; the pointer comes from a reference to the
                // whole isometry, and the 16 bytes read, from byte 12 to byte 28, lie inside it
                // (its size is 28, asserted above); `loadu` needs no alignment.
                unsafe { _mm_loadu_ps((p as *const Isometry as *const Real).add(3)) }
            };
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe {
                let d = _mm_sub_ps(tail(b), tail(a));
                _mm_shuffle_ps::<0b00_11_10_01>(d, d)
            })
        }
        #[inline(always)]
        fn rotation_dot(a: &Isometry, b: &Isometry) -> Self {
            // The quaternion (i, j, k, w) is the first four `Real`s of an isometry (see
            // `translation_difference`).
            let q = |p: &Isometry| {
                // SAFETY: SSE baseline on x86_64; the 16 bytes read lie inside the isometry
                // (28 bytes, asserted in `translation_difference`); `loadu` needs no alignment.
                unsafe { _mm_loadu_ps(p as *const Isometry as *const Real) }
            };
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe {
                let p = _mm_mul_ps(q(a), q(b));
                // (ii' + kk', jj' + ww', kk' + ii', ww' + jj'), then each lane plus its neighbour.
                let h = _mm_add_ps(p, _mm_shuffle_ps::<0b01_00_11_10>(p, p));
                _mm_add_ps(h, _mm_shuffle_ps::<0b10_11_00_01>(h, h))
            })
        }
        #[inline(always)]
        fn splat(v: Real) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_set1_ps(v) })
        }
        #[inline(always)]
        fn add(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sub(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_sub_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn mul(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn div(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn sqrt(self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_sqrt_ps(self.0) })
        }
        #[inline(always)]
        fn to_array(self) -> [Real; 3] {
            let mut v = [0.0; 4];
            // SAFETY: SSE baseline on x86_64; `v` is a local array of four `Real`s, the 16
            // bytes `storeu` writes (it needs no alignment).
            unsafe { _mm_storeu_ps(v.as_mut_ptr(), self.0) };
            [v[0], v[1], v[2]]
        }
        #[inline(always)]
        fn abs(self) -> Self {
            // Clear the sign bits.
            // SAFETY: SSE/SSE2 baseline on x86_64.
            Sse(unsafe { _mm_and_ps(self.0, _mm_castsi128_ps(_mm_set1_epi32(0x7fff_ffff))) })
        }
        #[inline(always)]
        fn neg(self) -> Self {
            // Flip the sign bits.
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_xor_ps(self.0, _mm_set1_ps(-0.0)) })
        }
        #[inline(always)]
        fn min(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_min_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn max(self, o: Self) -> Self {
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_max_ps(self.0, o.0) })
        }
        #[inline(always)]
        fn splats(self) -> [Self; 3] {
            // SAFETY: SSE baseline on x86_64.
            unsafe {
                [
                    Sse(_mm_shuffle_ps::<0b00_00_00_00>(self.0, self.0)),
                    Sse(_mm_shuffle_ps::<0b01_01_01_01>(self.0, self.0)),
                    Sse(_mm_shuffle_ps::<0b10_10_10_10>(self.0, self.0)),
                ]
            }
        }
        #[inline(always)]
        fn firsts(a: Self, b: Self, c: Self) -> Self {
            // (a0, b0, a1, b1), then its low half with c's: (a0, b0, c0, c1).
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_movelh_ps(_mm_unpacklo_ps(a.0, b.0), c.0) })
        }
        #[inline(always)]
        fn points(v: &[Point; 3]) -> [Self; 3] {
            // Three points are nine `Real`s in a row, x, y, z each (checked below at compile
            // time): three loads of four (lane 3 of the first two is the next point's x), the
            // last one shifted by a shuffle (z1 x2 y2 z2 -> x2 y2 z2 z1).
            const _: () = assert!(
                std::mem::size_of::<[Point; 3]>() == 9 * 4
                    && std::mem::offset_of!(Point, coords) == 0
            );
            let p = v as *const [Point; 3] as *const Real;
            // SAFETY: SSE baseline on x86_64; `p` comes from a reference to the nine `Real`s
            // (size asserted above) and the loads read `Real`s 0..4, 3..7 and 5..9 of them;
            // `loadu` needs no alignment.
            unsafe {
                let c = _mm_loadu_ps(p.add(5));
                [
                    Sse(_mm_loadu_ps(p)),
                    Sse(_mm_loadu_ps(p.add(3))),
                    Sse(_mm_shuffle_ps::<0b00_11_10_01>(c, c)),
                ]
            }
        }
        #[inline(always)]
        fn transpose(v: [Self; 3]) -> [Self; 3] {
            // Five shuffles; lane 3 of each result repeats a lane of the 3 × 3 block.
            // SAFETY: SSE baseline on x86_64.
            unsafe {
                let [a, b, c] = v.map(|s| s.0);
                let lo = _mm_unpacklo_ps(a, b); // a0 b0 a1 b1
                let hi = _mm_unpackhi_ps(a, b); // a2 b2 a3 b3
                [
                    Sse(_mm_movelh_ps(lo, c)),                   // a0 b0 c0 c1
                    Sse(_mm_shuffle_ps::<0b01_01_11_10>(lo, c)), // a1 b1 c1 c1
                    Sse(_mm_shuffle_ps::<0b10_10_01_00>(hi, c)), // a2 b2 c2 c2
                ]
            }
        }
        #[inline(always)]
        fn next1(self) -> Self {
            // Lanes (1, 2, 0, 3).
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b11_00_10_01>(self.0, self.0) })
        }
        #[inline(always)]
        fn next2(self) -> Self {
            // Lanes (2, 0, 1, 3).
            // SAFETY: SSE baseline on x86_64.
            Sse(unsafe { _mm_shuffle_ps::<0b11_01_00_10>(self.0, self.0) })
        }
        #[inline(always)]
        fn gt(self, o: Self) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_cmpgt_ps(self.0, o.0) }
        }
        #[inline(always)]
        fn or(a: __m128, b: __m128) -> __m128 {
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_or_ps(a, b) }
        }
        #[inline(always)]
        fn any(m: __m128) -> bool {
            // Lanes 0..3 only.
            // SAFETY: SSE baseline on x86_64.
            unsafe { _mm_movemask_ps(m) & 0b111 != 0 }
        }
    }
}

/// The backend the kernels run on for this target.
#[cfg(target_arch = "x86_64")]
pub(crate) type Fast = Sse;
/// The backend the kernels run on for this target.
#[cfg(not(target_arch = "x86_64"))]
pub(crate) type Fast = Scalar;
