//! The scalar twin of [`super::sse`]: plain arrays of `Real`, one scalar operation per lane.
//! The reference of the tests, and what runs on targets other than x86-64. No `unsafe`.

// On x86-64 only the tests run the twins (against `sse`).
#![cfg_attr(target_arch = "x86_64", allow(dead_code))]

use super::{Lanes, LANES};
use crate::math::{Isometry, Point, Real, Vector};
use std::ops::{Add, Mul, Neg, Sub};

/// Four independent `Real`s, one per lane.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(16))]
pub struct F4([Real; LANES]);

/// Four booleans, one per lane (the result of a lane-wise comparison).
#[derive(Clone, Copy, Debug, Default)]
pub struct M4([bool; LANES]);

impl F4 {
    /// Zero in every lane.
    pub const ZERO: F4 = F4([0.0; LANES]);

    /// `x` in every lane.
    #[inline(always)]
    pub fn splat(x: Real) -> F4 {
        F4([x; LANES])
    }
    /// `a[l]` in lane `l`.
    #[inline(always)]
    pub fn from_array(a: [Real; LANES]) -> F4 {
        F4(a)
    }
    /// Lane `l` in `[l]`.
    #[inline(always)]
    pub fn to_array(self) -> [Real; LANES] {
        self.0
    }
    /// Sets lane `l` (< 4) to `x`, in place.
    #[cfg(test)]
    #[inline(always)]
    pub fn set_lane(&mut self, l: usize, x: Real) {
        self.0[l] = x;
    }
    /// Lane-wise `if self > o { self } else { o }` (SSE's `maxps` rule).
    #[inline(always)]
    pub fn max(self, o: F4) -> F4 {
        self.zip(o, |a, b| if a > b { a } else { b })
    }
    /// Lane-wise `if self < o { self } else { o }` (SSE's `minps` rule).
    #[inline(always)]
    pub fn min(self, o: F4) -> F4 {
        self.zip(o, |a, b| if a < b { a } else { b })
    }
    /// Lane-wise square root.
    #[inline(always)]
    pub fn sqrt(self) -> F4 {
        F4(self.0.map(Real::sqrt))
    }
    /// Lane-wise `|self|` (the sign bit cleared).
    #[inline(always)]
    pub fn abs(self) -> F4 {
        F4(self.0.map(Real::abs))
    }
    /// Lane-wise `self / o`.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)] // A method like its SSE twin's, not an operator.
    pub fn div(self, o: F4) -> F4 {
        self.zip(o, |a, b| a / b)
    }
    /// Lane-wise `self > o` (false on NaN).
    #[inline(always)]
    pub fn gt(self, o: F4) -> M4 {
        M4(std::array::from_fn(|l| self.0[l] > o.0[l]))
    }
    /// Lane-wise `self == o` (false on NaN, true for `0 == −0`).
    #[inline(always)]
    pub fn eq(self, o: F4) -> M4 {
        M4(std::array::from_fn(|l| self.0[l] == o.0[l]))
    }

    #[inline(always)]
    fn zip(self, o: F4, f: impl Fn(Real, Real) -> Real) -> F4 {
        F4(std::array::from_fn(|l| f(self.0[l], o.0[l])))
    }
}

/// `[r0, r1, r2, r3]` (rows) to their columns.
#[inline(always)]
pub fn transpose(r: [F4; LANES]) -> [F4; LANES] {
    std::array::from_fn(|c| F4(std::array::from_fn(|l| r[l].0[c])))
}

/// The twin of [`super::sse::prefetch`], a hint with no effect on results: nothing.
#[inline(always)]
pub fn prefetch<T>(p: &T) {
    let _ = p;
}

impl M4 {
    /// `a[l]` in lane `l`.
    #[inline(always)]
    pub fn from_array(a: [bool; LANES]) -> M4 {
        M4(a)
    }
    /// `a` in the lanes where the mask is true, `b` elsewhere.
    #[inline(always)]
    pub fn select(self, a: F4, b: F4) -> F4 {
        F4(std::array::from_fn(
            |l| if self.0[l] { a.0[l] } else { b.0[l] },
        ))
    }
    /// Lane-wise OR.
    #[inline(always)]
    pub fn or(self, o: M4) -> M4 {
        M4(std::array::from_fn(|l| self.0[l] | o.0[l]))
    }
    /// Lane-wise AND.
    #[inline(always)]
    pub fn and(self, o: M4) -> M4 {
        M4(std::array::from_fn(|l| self.0[l] & o.0[l]))
    }
    /// Lane-wise NOT.
    #[inline(always)]
    #[allow(clippy::should_implement_trait)] // A method like its SSE twin's, not an operator.
    pub fn not(self) -> M4 {
        M4(self.0.map(|b| !b))
    }
    /// True when some lane is set.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }
    /// True when every lane is set.
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
                self.zip(o, |a, b| a $op b)
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

/// Three `Real`s, the scalar [`Lanes`] backend: the reference of every kernel. On x86-64 only
/// the tests run it (against [`super::Fast`]); elsewhere it is [`super::Fast`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Scalar(pub [Real; 3]);

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
    fn load(v: &Vector) -> Self {
        Scalar([v.x, v.y, v.z])
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
