//! Validated convex polygons.

use crate::error::ShapeError;
use crate::math::{Point2, Real, Vector2};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The 2D cross product `u.x v.y − u.y v.x` (positive when `v` turns left of `u`).
#[inline]
pub(crate) fn cross(u: &Vector2, v: &Vector2) -> Real {
    u.x * v.y - u.y * v.x
}

/// The turn `a → b → c`: `+1` left, `−1` right, `0` straight (within a relative `1e-6` of the
/// edge lengths, so nearly collinear corners count as collinear).
#[inline]
pub(crate) fn turn(a: &Point2, b: &Point2, c: &Point2) -> i8 {
    let u = b - a;
    let v = c - a;
    let c2 = cross(&u, &v);
    let tol = 1.0e-6 * u.norm() * v.norm();
    if c2 > tol {
        1
    } else if c2 < -tol {
        -1
    } else {
        0
    }
}

/// Twice the signed area (positive for counter-clockwise corners): a fan about the first
/// corner, summed in f64. The shoelace sum over absolute coordinates cancels for a small
/// polygon far from the origin: it can give a valid polygon an area of 0.
pub(crate) fn twice_signed_area(corners: &[Point2]) -> Real {
    let Some(o) = corners.first() else {
        return 0.0;
    };
    let rel = |p: &Point2| (p.x as f64 - o.x as f64, p.y as f64 - o.y as f64);
    let sum: f64 = corners
        .windows(2)
        .skip(1)
        .map(|w| {
            let ((ax, ay), (bx, by)) = (rel(&w[0]), rel(&w[1]));
            ax * by - ay * bx
        })
        .sum();
    sum as Real
}

/// The largest corner coordinate magnitude accepted (metres): products of coordinate
/// differences must stay far from `Real::MAX`.
pub const MAX_COORDINATE: Real = 1.0e15;

/// Serialises a polygon type as its corner list and deserialises it only through its checking
/// constructor: `TryFrom<Vec<Point2>>` calls `new(&corners)`, `From<_> for Vec<Point2>` gives
/// the `corners` field back. The type carries
/// `#[serde(try_from = "Vec<Point2>", into = "Vec<Point2>")]`.
macro_rules! serde_as_corners {
    ($ty:ident) => {
        impl TryFrom<Vec<Point2>> for $ty {
            type Error = ShapeError;
            fn try_from(corners: Vec<Point2>) -> Result<Self, ShapeError> {
                Self::new(&corners)
            }
        }

        impl From<$ty> for Vec<Point2> {
            fn from(p: $ty) -> Self {
                p.corners
            }
        }
    };
}
pub(crate) use serde_as_corners;

/// Checks the corner list shared by convex and concave polygons: at least 3, finite and
/// within ±[`MAX_COORDINATE`], no two consecutive corners equal, no three consecutive corners
/// collinear.
pub(crate) fn check_corners(corners: &[Point2]) -> Result<(), ShapeError> {
    let n = corners.len();
    if n < 3 {
        return Err(ShapeError::TooFewPoints(n, 3));
    }
    if !corners.iter().all(|p| p.x.is_finite() && p.y.is_finite()) {
        return Err(ShapeError::NonFinite("polygon corner"));
    }
    if corners
        .iter()
        .any(|p| p.x.abs() > MAX_COORDINATE || p.y.abs() > MAX_COORDINATE)
    {
        return Err(ShapeError::Degenerate("polygon corner beyond ±1e15 m"));
    }
    for i in 0..n {
        let (a, b, c) = (&corners[i], &corners[(i + 1) % n], &corners[(i + 2) % n]);
        if a == b {
            return Err(ShapeError::Degenerate("repeated polygon corner"));
        }
        if turn(a, b, c) == 0 {
            return Err(ShapeError::Degenerate("collinear polygon corners"));
        }
    }
    Ok(())
}

/// A convex polygon in the plane (metres), stored counter-clockwise with one unit outward
/// normal per edge; edge `i` runs from corner `i` to corner `i + 1` (cyclically).
///
/// Invariant (checked by [`ConvexPolygon::new`]): at least 3 finite corners, no repeated
/// corners, no three consecutive corners collinear, and every corner strictly on the inner
/// side of every edge it is not on (so the polygon is convex and simple — a pentagram's
/// corner list, whose turns all agree, is refused).
///
/// Serialised as its corner list; deserialising validates it again.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "Vec<Point2>", into = "Vec<Point2>")
)]
pub struct ConvexPolygon {
    corners: Vec<Point2>,
    normals: Vec<Vector2>,
}

serde_as_corners!(ConvexPolygon);

impl ConvexPolygon {
    /// A validated polygon from corners in either winding (clockwise input is reversed).
    /// Errors: [`ShapeError::TooFewPoints`], [`ShapeError::NonFinite`],
    /// [`ShapeError::Degenerate`] (repeated or collinear corners), [`ShapeError::NotConvex`].
    pub fn new(corners: &[Point2]) -> Result<Self, ShapeError> {
        check_corners(corners)?;
        let n = corners.len();
        let mut sign = 0;
        for i in 0..n {
            let (a, b) = (&corners[i], &corners[(i + 1) % n]);
            for j in (0..n).filter(|&j| j != i && j != (i + 1) % n) {
                let t = turn(a, b, &corners[j]);
                if t == 0 {
                    return Err(ShapeError::Degenerate("collinear polygon corners"));
                }
                if sign == 0 {
                    sign = t;
                } else if t != sign {
                    return Err(ShapeError::NotConvex);
                }
            }
        }
        let mut corners = corners.to_vec();
        if sign < 0 {
            corners.reverse();
        }
        Ok(Self::from_ccw(corners))
    }

    /// Builds the normals of corners already known to be convex and counter-clockwise.
    pub(crate) fn from_ccw(corners: Vec<Point2>) -> Self {
        let n = corners.len();
        let normals = (0..n)
            .map(|i| {
                let e = corners[(i + 1) % n] - corners[i];
                Vector2::new(e.y, -e.x).normalize()
            })
            .collect();
        Self { corners, normals }
    }

    /// Corners, counter-clockwise (metres).
    #[inline]
    pub fn corners(&self) -> &[Point2] {
        &self.corners
    }

    /// Unit outward normal of each edge; `normals()[i]` belongs to the edge from corner `i`
    /// to corner `i + 1`.
    #[inline]
    pub fn normals(&self) -> &[Vector2] {
        &self.normals
    }

    /// Area (m²).
    pub fn area(&self) -> Real {
        0.5 * twice_signed_area(&self.corners)
    }

    /// True when `p` is inside or on the boundary: `p` is on the inner side of (or on) every
    /// edge — the sign-agreement test, with a tolerance of a relative `1e-6` of the polygon's
    /// size so points computed on an edge count as inside.
    pub fn contains_point(&self, p: &Point2) -> bool {
        let tol = 1.0e-6 * self.extent();
        self.corners
            .iter()
            .zip(&self.normals)
            .all(|(c, n)| n.dot(&(p - c)) <= tol)
    }

    /// The interval `[min, max]` of the corners' projections on `axis`.
    #[inline]
    pub fn project(&self, axis: &Vector2) -> (Real, Real) {
        self.corners
            .iter()
            .map(|c| c.coords.dot(axis))
            .fold((Real::INFINITY, Real::NEG_INFINITY), |(lo, hi), d| {
                (lo.min(d), hi.max(d))
            })
    }

    /// The largest coordinate magnitude among the corners, plus 1 (a length scale for
    /// tolerances).
    pub(crate) fn extent(&self) -> Real {
        1.0 + self
            .corners
            .iter()
            .map(|c| c.x.abs().max(c.y.abs()))
            .fold(0.0, Real::max)
    }
}
