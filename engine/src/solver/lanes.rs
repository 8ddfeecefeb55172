//! Four-lane floats for the contact solver, which solves four constraints of one colour at
//! once (as Box2D v3's `contact_solver.c` does with its `b2FloatW`, and rapier with its
//! `SimdReal`).
//!
//! Written in plain safe Rust: each operation is the same scalar operation on each lane, in
//! the same order as the scalar code would do it, so a lane gives bit-for-bit the result of
//! the scalar formula (no fused multiply-add, no reassociation). LLVM's SLP vectoriser turns
//! the lane-by-lane expressions into SSE instructions (`addps`, `mulps`, `sqrtps`, ...); the
//! same source is therefore both the SIMD version and its scalar twin, with no `unsafe`.

use crate::math::{Real, Vector};
use std::ops::{Add, Mul, Neg, Sub};

/// Number of lanes: constraints solved together.
pub(crate) const LANES: usize = 4;

/// Four independent `Real`s, one per lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C, align(16))]
pub(crate) struct F4(pub [Real; LANES]);

/// Four booleans, one per lane (the result of a lane-wise comparison).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct M4(pub [bool; LANES]);

macro_rules! lanes {
    (|$l:ident| $e:expr) => {
        [
            {
                let $l = 0;
                $e
            },
            {
                let $l = 1;
                $e
            },
            {
                let $l = 2;
                $e
            },
            {
                let $l = 3;
                $e
            },
        ]
    };
}

impl F4 {
    pub const ZERO: F4 = F4([0.0; LANES]);

    /// The same value in every lane.
    #[inline(always)]
    pub fn splat(x: Real) -> F4 {
        F4([x; LANES])
    }

    /// Lane-wise `f32::max` (same NaN rule as the scalar code).
    #[inline(always)]
    pub fn max(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l].max(o.0[l])))
    }

    /// Lane-wise `f32::min`.
    #[inline(always)]
    pub fn min(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l].min(o.0[l])))
    }

    /// Lane-wise square root.
    #[inline(always)]
    pub fn sqrt(self) -> F4 {
        F4(lanes!(|l| self.0[l].sqrt()))
    }

    /// Lane-wise quotient.
    #[inline(always)]
    pub fn div(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l] / o.0[l]))
    }

    /// Lane-wise `self > o`.
    #[inline(always)]
    pub fn gt(self, o: F4) -> M4 {
        M4(lanes!(|l| self.0[l] > o.0[l]))
    }

    /// Lane-wise `self == o`.
    #[inline(always)]
    pub fn eq(self, o: F4) -> M4 {
        M4(lanes!(|l| self.0[l] == o.0[l]))
    }
}

impl M4 {
    /// `a` in the lanes where the mask is true, `b` elsewhere.
    #[inline(always)]
    pub fn select(self, a: F4, b: F4) -> F4 {
        F4(lanes!(|l| if self.0[l] { a.0[l] } else { b.0[l] }))
    }

    /// `a` in the lanes where the mask is true, `b` elsewhere, for vectors.
    #[inline(always)]
    pub fn select_v(self, a: V4, b: V4) -> V4 {
        V4 {
            x: self.select(a.x, b.x),
            y: self.select(a.y, b.y),
            z: self.select(a.z, b.z),
        }
    }

    /// Lane-wise or.
    #[inline(always)]
    pub fn or(self, o: M4) -> M4 {
        M4(lanes!(|l| self.0[l] | o.0[l]))
    }

    /// Lane-wise and.
    #[inline(always)]
    pub fn and(self, o: M4) -> M4 {
        M4(lanes!(|l| self.0[l] & o.0[l]))
    }

    /// Lane-wise not.
    #[inline(always)]
    pub fn not(self) -> M4 {
        M4(lanes!(|l| !self.0[l]))
    }

    /// True when some lane is true.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0.iter().any(|&b| b)
    }
}

impl Add for F4 {
    type Output = F4;
    #[inline(always)]
    fn add(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l] + o.0[l]))
    }
}

impl Sub for F4 {
    type Output = F4;
    #[inline(always)]
    fn sub(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l] - o.0[l]))
    }
}

impl Mul for F4 {
    type Output = F4;
    #[inline(always)]
    fn mul(self, o: F4) -> F4 {
        F4(lanes!(|l| self.0[l] * o.0[l]))
    }
}

impl Neg for F4 {
    type Output = F4;
    #[inline(always)]
    fn neg(self) -> F4 {
        F4(lanes!(|l| -self.0[l]))
    }
}

/// Four 3-vectors, stored by component (structure of arrays).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
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
        let v: [Vector; LANES] = lanes!(|l| f(l));
        V4 {
            x: F4(lanes!(|l| v[l].x)),
            y: F4(lanes!(|l| v[l].y)),
            z: F4(lanes!(|l| v[l].z)),
        }
    }

    /// The vector of lane `l`.
    #[inline(always)]
    pub fn lane(&self, l: usize) -> Vector {
        Vector::new(self.x.0[l], self.y.0[l], self.z.0[l])
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

    #[test]
    fn lanes_match_scalar_arithmetic() {
        let a = F4([1.5, -2.0, 0.0, 3.25]);
        let b = F4([0.5, 4.0, -0.0, -1.0]);
        for l in 0..LANES {
            assert_eq!((a + b).0[l], a.0[l] + b.0[l]);
            assert_eq!((a - b).0[l], a.0[l] - b.0[l]);
            assert_eq!((a * b).0[l], a.0[l] * b.0[l]);
            assert_eq!(a.max(b).0[l], a.0[l].max(b.0[l]));
            assert_eq!(a.min(b).0[l], a.0[l].min(b.0[l]));
            assert_eq!(a.gt(b).0[l], a.0[l] > b.0[l]);
        }
        let u = V4::from_lanes(|l| Vector::new(l as Real, 1.0, -2.0 * l as Real));
        let v = V4::from_lanes(|l| Vector::new(0.5, l as Real, 3.0));
        for l in 0..LANES {
            assert_eq!(u.dot(&v).0[l], u.lane(l).dot(&v.lane(l)));
            assert_eq!((u - v).lane(l), u.lane(l) - v.lane(l));
        }
        let m = a.gt(b);
        assert_eq!(m.select(a, b), a.max(b));
    }
}
