//! Planes and half-spaces, and the ray cast against a convex polyhedron given by its faces'
//! half-spaces (Cyrus–Beck clipping, Ericson RTCD §5.3.8).

use super::types::{valid_max_t, Ray, RayHit};
use crate::error::{serde_via_new, ShapeError};
use crate::math::{finite_only, is_finite_point, is_finite_vector, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The plane `normal · x = offset` (world space, metres), with `normal` unit length. It bounds
/// the solid half-space `normal · x ≤ offset`: the normal points **out of** the solid.
///
/// Invariant (checked by the constructors): finite, `|normal| = 1`.
///
/// Deserialising validates (and normalises) it again.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "PlaneParts", into = "PlaneParts"))]
pub struct Plane {
    normal: Vector,
    offset: Real,
}

serde_via_new! { Plane, PlaneParts { normal: Vector, offset: Real } }

impl Plane {
    /// A plane from any non-zero finite normal and an offset; both are scaled so the stored
    /// normal is unit length (the plane is unchanged).
    pub fn new(normal: Vector, offset: Real) -> Result<Self, ShapeError> {
        if !is_finite_vector(&normal) {
            return Err(ShapeError::NonFinite("plane normal"));
        }
        if !offset.is_finite() {
            return Err(ShapeError::NonFinite("plane offset"));
        }
        let len = normal.norm();
        if !(len >= Real::MIN_POSITIVE && len.is_finite()) {
            return Err(ShapeError::Degenerate("plane normal is zero or too long"));
        }
        Ok(Self {
            normal: normal / len,
            offset: offset / len,
        })
    }

    /// The plane through `point` with outward normal `normal` (any non-zero length).
    pub fn from_point_normal(point: &Point, normal: Vector) -> Result<Self, ShapeError> {
        if !is_finite_point(point) {
            return Err(ShapeError::NonFinite("plane point"));
        }
        let n = Self::new(normal, 0.0)?.normal;
        Self::new(n, n.dot(&point.coords))
    }

    /// Unit outward normal.
    #[inline]
    pub fn normal(&self) -> Vector {
        self.normal
    }

    /// Offset: the plane is `normal · x = offset`.
    #[inline]
    pub fn offset(&self) -> Real {
        self.offset
    }

    /// Signed distance of `p` to the plane (metres), positive outside the solid side.
    #[inline]
    pub fn signed_distance(&self, p: &Point) -> Real {
        self.normal.dot(&p.coords) - self.offset
    }
}

/// Ray against the convex polyhedron `∩ {x : n_i · x ≤ d_i}` (world space; may be unbounded;
/// an empty list is all of space). Cyrus–Beck clipping (RTCD §5.3.8): each plane either moves
/// the entry time up (front-facing) or the exit time down (back-facing). The hit normal is the
/// entering plane's normal. Origin inside or on the solid → `t = 0` (see [`RayHit`]).
pub fn ray_convex_polyhedron(ray: &Ray, planes: &[Plane], max_t: Real) -> Option<RayHit> {
    finite_only(RayHit::is_finite, || {
        if !valid_max_t(max_t) {
            return None;
        }
        let (o, d) = (ray.origin(), ray.dir());
        let mut t_first: Real = 0.0;
        let mut t_last = max_t;
        let mut entering: Option<Vector> = None;
        for plane in planes {
            let denom = plane.normal.dot(&d);
            let dist = plane.offset - plane.normal.dot(&o.coords);
            if denom.abs() < Real::MIN_POSITIVE {
                // Parallel to the plane: outside it means never inside.
                if dist < 0.0 {
                    return None;
                }
            } else {
                let t = dist / denom;
                if denom < 0.0 {
                    if t >= t_first && dist <= 0.0 {
                        // The origin is outside (or on) this plane: entering here.
                        t_first = t;
                        entering = Some(plane.normal);
                    }
                } else if t < t_last {
                    t_last = t;
                }
            }
            if t_first > t_last {
                return None;
            }
        }
        Some(match entering {
            Some(n) => RayHit::at(ray, t_first, n),
            None => RayHit::inside(ray),
        })
    })
}
