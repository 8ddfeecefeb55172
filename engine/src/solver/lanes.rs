//! Four-lane vectors and matrices for the contact solver, which solves four constraints of one
//! colour at once (as Box2D v3's `contact_solver.c` does with its `b2FloatW`, and rapier with
//! its `SimdReal`).
//!
//! Safe compositions only: the four-lane floats [`F4`] and masks [`M4`] they are built on, with
//! their SSE2 implementation, scalar twin and agreement tests, live in the project's one SIMD
//! module, `tumble_narrowphase::simd`; no intrinsic and no `unsafe` here. Every operation below
//! is a fixed sequence of lane-wise IEEE operations, so it gives the same bits on either
//! backend.

use std::ops::{Add, Sub};
#[cfg(test)]
use tumble_narrowphase::math::Real;
use tumble_narrowphase::math::{Matrix, Vector};
pub(crate) use tumble_narrowphase::simd::{prefetch, transpose, F4, LANES, M4};

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

    /// `a` in the lanes where `m` is true, `b` elsewhere ([`M4::select`] for vectors).
    #[inline(always)]
    pub fn select(m: M4, a: V4, b: V4) -> V4 {
        V4 {
            x: m.select(a.x, b.x),
            y: m.select(a.y, b.y),
            z: m.select(a.z, b.z),
        }
    }

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

impl M3W {
    /// Lane-wise `m·v`, each row `m[i][0]·x + m[i][1]·y + m[i][2]·z` summed left to right (as
    /// nalgebra's product sums).
    #[inline(always)]
    pub fn mul_vec(&self, v: &V4) -> V4 {
        let r = |i: usize| self.m[i][0] * v.x + self.m[i][1] * v.y + self.m[i][2] * v.z;
        V4 {
            x: r(0),
            y: r(1),
            z: r(2),
        }
    }

    /// Lane-wise `mᵀ·v`, column `j` as `m[0][j]·x + m[1][j]·y + m[2][j]·z` summed left to
    /// right (nalgebra's `tr_mul` of a vector).
    #[inline(always)]
    pub fn tr_mul_vec(&self, v: &V4) -> V4 {
        let c = |j: usize| self.m[0][j] * v.x + self.m[1][j] * v.y + self.m[2][j] * v.z;
        V4 {
            x: c(0),
            y: c(1),
            z: c(2),
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
