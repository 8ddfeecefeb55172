//! The triangle.

use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{is_finite_point, Isometry, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Relative tolerance of the degenerate-triangle check: refused when
/// `|(b − a) × (c − a)| ≤ DEGENERATE_TOLERANCE · (longest edge)²`.
pub const DEGENERATE_TOLERANCE: Real = 1e-6;

/// A triangle with corners `a`, `b`, `c` in its local frame (metres). Its normal is
/// `(b − a) × (c − a)`, normalised (counter-clockwise corners seen from the front); it has no
/// thickness and collides on both sides. Edge `i` runs from corner `i` to corner `i + 1 mod 3`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "[Point; 3]", into = "[Point; 3]"))]
pub struct Triangle {
    corners: [Point; 3],
}

impl TryFrom<[Point; 3]> for Triangle {
    type Error = ShapeError;
    fn try_from(c: [Point; 3]) -> Result<Self, ShapeError> {
        Triangle::new(c[0], c[1], c[2])
    }
}

impl From<Triangle> for [Point; 3] {
    fn from(t: Triangle) -> Self {
        t.corners
    }
}

impl Triangle {
    /// A triangle; errors on non-finite corners and on degenerate ones (repeated or collinear
    /// corners, see [`DEGENERATE_TOLERANCE`]).
    pub fn new(a: Point, b: Point, c: Point) -> Result<Self, ShapeError> {
        if !(is_finite_point(&a) && is_finite_point(&b) && is_finite_point(&c)) {
            return Err(ShapeError::NonFinite("triangle corner"));
        }
        let longest = (b - a)
            .norm_squared()
            .max((c - b).norm_squared())
            .max((a - c).norm_squared());
        if longest == 0.0 {
            return Err(ShapeError::Degenerate("triangle corners are repeated"));
        }
        if !longest.is_finite() {
            return Err(ShapeError::Degenerate(
                "triangle too large: its squared edge length overflows f32",
            ));
        }
        // A NaN (an overflowing cross product) is refused too.
        let twice_area = (b - a).cross(&(c - a)).norm();
        if twice_area.is_nan() || twice_area <= DEGENERATE_TOLERANCE * longest {
            return Err(ShapeError::Degenerate(
                "triangle corners are collinear or repeated",
            ));
        }
        Ok(Self { corners: [a, b, c] })
    }

    /// A triangle from corners the caller has already checked with [`Triangle::new`] (the
    /// triangle meshes validate every triangle once, at construction).
    #[inline]
    pub(crate) const fn new_unchecked(a: Point, b: Point, c: Point) -> Self {
        Self { corners: [a, b, c] }
    }

    /// The corners, local frame.
    #[inline]
    pub fn corners(&self) -> &[Point; 3] {
        &self.corners
    }

    /// Corner `i` (0, 1, 2), local frame.
    #[inline]
    pub fn corner(&self, i: usize) -> Point {
        self.corners[i]
    }

    /// The unit normal `(b − a) × (c − a) / |…|`, local frame.
    pub fn normal(&self) -> Vector {
        let [a, b, c] = self.corners;
        // Scaled to a largest component of 1 first: the cross product of tiny edges would
        // underflow (a zero normal), of huge ones overflow.
        let (e1, e2) = (b - a, c - a);
        let s = e1.amax().max(e2.amax());
        (e1 / s).cross(&(e2 / s)).normalize()
    }

    /// The corners in world space at `pose`.
    #[inline]
    pub fn world_corners(&self, pose: &Isometry) -> [Point; 3] {
        [
            pose * self.corners[0],
            pose * self.corners[1],
            pose * self.corners[2],
        ]
    }

    /// World-space AABB at `pose` (exact).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        let [a, b, c] = self.world_corners(pose);
        Aabb::new_unchecked(a.inf(&b).inf(&c), a.sup(&b).sup(&c))
    }
}
