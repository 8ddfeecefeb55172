//! Bounding spheres and their cheap constructors: centroid + farthest point, and Ritter's
//! two-pass approximation (J. Ritter, "An efficient bounding sphere", Graphics Gems, 1990).
//! The exact minimal sphere is in [`super::welzl`].

use super::aabb::Aabb;
use crate::error::ShapeError;
use crate::math::{is_finite_point, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A sphere `{x : |x − center| ≤ radius}` in world space (metres). Closed: points on the
/// surface are contained, spheres that touch intersect.
///
/// Invariant (checked by [`BoundingSphere::new`]): finite centre, finite `radius ≥ 0`.
/// Constructors from points pad the radius by a few ulps so that every input point passes
/// [`BoundingSphere::contains_point`] despite rounding.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct BoundingSphere {
    /// Centre, world space.
    pub center: Point,
    /// Radius, metres (≥ 0).
    pub radius: Real,
}

/// The smallest radius about `center` holding every point, rounded up so that
/// `|p − center|² ≤ radius²` holds in floating point for each of them.
pub(crate) fn enclosing_radius(center: &Point, points: &[Point]) -> Real {
    let r2 = points
        .iter()
        .map(|p| (p - center).norm_squared())
        .fold(0.0, Real::max);
    pad(r2.sqrt())
}

/// `r` grown by a few ulps (relative), so `r'² ≥ r²` survives rounding.
#[inline]
pub(crate) fn pad(r: Real) -> Real {
    r * (1.0 + 4.0 * Real::EPSILON) + Real::MIN_POSITIVE
}

/// The sphere if its centre and radius came out finite (coordinates near `Real::MAX` can
/// overflow on the way).
pub(crate) fn finite_sphere(center: Point, radius: Real) -> Option<BoundingSphere> {
    (is_finite_point(&center) && radius.is_finite()).then_some(BoundingSphere { center, radius })
}

/// True when every point is finite and there is at least one.
fn usable(points: &[Point]) -> bool {
    !points.is_empty() && points.iter().all(is_finite_point)
}

impl BoundingSphere {
    /// A validated sphere: errors on a non-finite centre or radius, or a negative radius.
    pub fn new(center: Point, radius: Real) -> Result<Self, ShapeError> {
        if !is_finite_point(&center) {
            return Err(ShapeError::NonFinite("sphere centre"));
        }
        if !radius.is_finite() {
            return Err(ShapeError::NonFinite("sphere radius"));
        }
        if radius < 0.0 {
            return Err(ShapeError::NonPositive("sphere radius", radius));
        }
        Ok(Self { center, radius })
    }

    /// Centred at the points' mean, radius to the farthest point. One pass for the mean, one
    /// for the radius; never smaller than the minimal sphere, at most twice its radius. None
    /// for an empty slice, a non-finite point
    /// or an overflowing result.
    pub fn from_points_centroid(points: &[Point]) -> Option<Self> {
        if !usable(points) {
            return None;
        }
        let sum = points.iter().fold(Vector::zeros(), |s, p| s + p.coords);
        let center = Point::from(sum / points.len() as Real);
        finite_sphere(center, enclosing_radius(&center, points))
    }

    /// Ritter's sphere: start from the diameter between a far pair (the point farthest from the
    /// first point, and the point farthest from that), then, in one more pass, grow the sphere
    /// just enough to take in each point left outside, moving its centre toward that point.
    /// Typically 5–20 % larger than the minimal sphere. None for an empty slice or a
    /// non-finite point or an overflowing result.
    pub fn from_points_ritter(points: &[Point]) -> Option<Self> {
        if !usable(points) {
            return None;
        }
        let farthest = |from: &Point| -> Point {
            let mut best = (*from, 0.0);
            for p in points {
                let d2 = (p - from).norm_squared();
                if d2 > best.1 {
                    best = (*p, d2);
                }
            }
            best.0
        };
        let y = farthest(&points[0]);
        let z = farthest(&y);
        let mut center = nalgebra::center(&y, &z);
        let mut radius = (z - y).norm() * 0.5;
        for p in points {
            // Compare squared distances; take the root only for the few points outside.
            let d2 = (p - center).norm_squared();
            if d2 > radius * radius {
                let d = d2.sqrt();
                let new_radius = (radius + d) * 0.5;
                center += (p - center) * ((new_radius - radius) / d);
                radius = new_radius;
            }
        }
        // Rounding in the updates may leave a point a hair outside: refit to the final centre.
        finite_sphere(center, enclosing_radius(&center, points).max(radius))
    }

    /// True when `p` lies inside or on the sphere: `|p − center|² ≤ radius²`.
    #[inline]
    pub fn contains_point(&self, p: &Point) -> bool {
        (p - self.center).norm_squared() <= self.radius * self.radius
    }

    /// True when `other` lies entirely inside `self` (surfaces may touch).
    #[inline]
    pub fn contains(&self, other: &BoundingSphere) -> bool {
        (other.center - self.center).norm() + other.radius <= self.radius
    }

    /// True when the spheres overlap or touch.
    #[inline]
    pub fn intersects(&self, other: &BoundingSphere) -> bool {
        let r = self.radius + other.radius;
        (other.center - self.center).norm_squared() <= r * r
    }

    /// The smallest sphere holding both (exact up to the ulp padding): one of them if it holds
    /// the other, else the sphere spanning their far sides along the line of centres.
    pub fn merged(&self, other: &BoundingSphere) -> BoundingSphere {
        if self.contains(other) {
            return *self;
        }
        if other.contains(self) {
            return *other;
        }
        let d_vec = other.center - self.center;
        let d = d_vec.norm();
        let radius = (d + self.radius + other.radius) * 0.5;
        let center = self.center + d_vec * ((radius - self.radius) / d);
        BoundingSphere {
            center,
            radius: pad(radius),
        }
    }

    /// The AABB of the sphere.
    #[inline]
    pub fn aabb(&self) -> Aabb {
        let r = Vector::repeat(self.radius);
        Aabb::new_unchecked(self.center - r, self.center + r)
    }
}
