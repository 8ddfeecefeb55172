//! Axis-aligned bounding boxes, the currency of the broad phase.

use crate::error::ShapeError;
use crate::math::{is_finite_point, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// An axis-aligned box `[mins, maxs]` in world space (metres). Closed: boxes that share a face
/// overlap. Invariant: `mins <= maxs` component-wise and all coordinates finite (checked by
/// [`Aabb::new`]; [`Aabb::new_unchecked`] is for hot paths that already know it holds).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Aabb {
    /// Minimum corner.
    pub mins: Point,
    /// Maximum corner.
    pub maxs: Point,
}

impl Aabb {
    /// A validated box: errors on non-finite coordinates or `mins > maxs` on any axis.
    /// A zero-thickness box (a point or a flat plate) is allowed.
    pub fn new(mins: Point, maxs: Point) -> Result<Self, ShapeError> {
        if !is_finite_point(&mins) {
            return Err(ShapeError::NonFinite("Aabb mins"));
        }
        if !is_finite_point(&maxs) {
            return Err(ShapeError::NonFinite("Aabb maxs"));
        }
        if mins.x > maxs.x || mins.y > maxs.y || mins.z > maxs.z {
            return Err(ShapeError::Inverted);
        }
        Ok(Self { mins, maxs })
    }

    /// A box from corners the caller guarantees are finite and ordered.
    #[inline]
    pub const fn new_unchecked(mins: Point, maxs: Point) -> Self {
        Self { mins, maxs }
    }

    /// The box centred at `center` with half-sizes `half_extents` (validated).
    pub fn from_center_half_extents(
        center: Point,
        half_extents: Vector,
    ) -> Result<Self, ShapeError> {
        Self::new(center - half_extents, center + half_extents)
    }

    /// The smallest box holding every point (None for an empty slice or a non-finite point).
    pub fn from_points(points: &[Point]) -> Option<Self> {
        // (min/max skip a NaN, so the final validity check alone would miss one.)
        if !points.iter().all(is_finite_point) {
            return None;
        }
        let first = points.first()?;
        let mut b = Self::new_unchecked(*first, *first);
        for p in &points[1..] {
            b.mins = b.mins.inf(p);
            b.maxs = b.maxs.sup(p);
        }
        b.is_valid().then_some(b)
    }

    /// True when the invariant holds (finite, `mins <= maxs`).
    pub fn is_valid(&self) -> bool {
        is_finite_point(&self.mins)
            && is_finite_point(&self.maxs)
            && self.mins.x <= self.maxs.x
            && self.mins.y <= self.maxs.y
            && self.mins.z <= self.maxs.z
    }

    /// Centre of the box.
    #[inline]
    pub fn center(&self) -> Point {
        nalgebra::center(&self.mins, &self.maxs)
    }

    /// Half-sizes along x, y, z.
    #[inline]
    pub fn half_extents(&self) -> Vector {
        (self.maxs - self.mins) * 0.5
    }

    /// Overlap test (closed intervals: touching counts), with an early exit per axis.
    #[inline]
    pub fn intersects(&self, other: &Aabb) -> bool {
        self.mins.x <= other.maxs.x
            && other.mins.x <= self.maxs.x
            && self.mins.y <= other.maxs.y
            && other.mins.y <= self.maxs.y
            && self.mins.z <= other.maxs.z
            && other.mins.z <= self.maxs.z
    }

    /// The first axis (0 = x, 1 = y, 2 = z) on which the boxes are apart, or None if they overlap.
    pub fn separating_axis(&self, other: &Aabb) -> Option<usize> {
        (0..3).find(|&i| self.mins[i] > other.maxs[i] || other.mins[i] > self.maxs[i])
    }

    /// True when `other` lies entirely inside `self` (boundaries included).
    #[inline]
    pub fn contains(&self, other: &Aabb) -> bool {
        self.mins.x <= other.mins.x
            && self.mins.y <= other.mins.y
            && self.mins.z <= other.mins.z
            && self.maxs.x >= other.maxs.x
            && self.maxs.y >= other.maxs.y
            && self.maxs.z >= other.maxs.z
    }

    /// True when the point lies inside or on the box.
    #[inline]
    pub fn contains_point(&self, p: &Point) -> bool {
        self.mins.x <= p.x
            && p.x <= self.maxs.x
            && self.mins.y <= p.y
            && p.y <= self.maxs.y
            && self.mins.z <= p.z
            && p.z <= self.maxs.z
    }

    /// The smallest box holding both.
    #[inline]
    pub fn merged(&self, other: &Aabb) -> Aabb {
        Aabb::new_unchecked(self.mins.inf(&other.mins), self.maxs.sup(&other.maxs))
    }

    /// The box grown by `margin` (metres, ≥ 0) on every side.
    #[inline]
    pub fn loosened(&self, margin: Real) -> Aabb {
        let m = Vector::repeat(margin);
        Aabb::new_unchecked(self.mins - m, self.maxs + m)
    }

    /// Surface area (m²), the cost measure of the surface area heuristic.
    #[inline]
    pub fn surface_area(&self) -> Real {
        let d = self.maxs - self.mins;
        2.0 * (d.x * d.y + d.y * d.z + d.z * d.x)
    }

    /// Volume (m³).
    #[inline]
    pub fn volume(&self) -> Real {
        let d = self.maxs - self.mins;
        d.x * d.y * d.z
    }

    /// Distance between the two boxes, metres: the length of the gap between them on each axis
    /// (0 when they overlap or touch). A lower bound of the distance between anything inside
    /// one and anything inside the other.
    #[inline]
    pub fn distance(&self, other: &Aabb) -> Real {
        (self.mins - other.maxs)
            .sup(&(other.mins - self.maxs))
            .sup(&Vector::zeros())
            .norm()
    }

    /// Squared distance from a point to the box (0 inside).
    #[inline]
    pub fn distance_squared_to_point(&self, p: &Point) -> Real {
        let mut d2 = 0.0;
        for i in 0..3 {
            let v = p[i];
            if v < self.mins[i] {
                d2 += (self.mins[i] - v) * (self.mins[i] - v);
            } else if v > self.maxs[i] {
                d2 += (v - self.maxs[i]) * (v - self.maxs[i]);
            }
        }
        d2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ericson's worked case: [0,2]³ and [1,3]×[2.5,4]×[0,1] are separated on y.
    #[test]
    fn ericson_boxes_separated_on_y() {
        let a = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(2.0, 2.0, 2.0)).unwrap();
        let b = Aabb::new(Point::new(1.0, 2.5, 0.0), Point::new(3.0, 4.0, 1.0)).unwrap();
        assert!(!a.intersects(&b));
        assert_eq!(a.separating_axis(&b), Some(1));
    }

    #[test]
    fn rejects_bad_input() {
        let o = Point::origin();
        assert_eq!(
            Aabb::new(Point::new(1.0, 0.0, 0.0), o),
            Err(ShapeError::Inverted)
        );
        assert!(matches!(
            Aabb::new(Point::new(Real::NAN, 0.0, 0.0), o),
            Err(ShapeError::NonFinite(_))
        ));
    }

    #[test]
    fn touching_boxes_overlap_and_merge_contains_both() {
        let a = Aabb::new(Point::new(0.0, 0.0, 0.0), Point::new(1.0, 1.0, 1.0)).unwrap();
        let b = Aabb::new(Point::new(1.0, 0.0, 0.0), Point::new(2.0, 1.0, 1.0)).unwrap();
        assert!(a.intersects(&b));
        let m = a.merged(&b);
        assert!(m.contains(&a) && m.contains(&b));
        assert_eq!(m.surface_area(), 2.0 * (2.0 + 1.0 + 2.0));
    }
}
