//! The [`Ray`] and [`RayHit`] types shared by every ray cast.

use crate::error::{serde_via_new, ShapeError};
use crate::math::{is_finite_point, is_finite_vector, Isometry, Point, Real, Vector};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// A half-line `origin + t · dir`, `t ≥ 0`, in world space (metres). `dir` need not be unit
/// length: every `t` reported against a ray is **in units of `dir`** (so with `dir` = a
/// displacement over one step, `t ∈ [0, 1]` is a fraction of the step).
///
/// Invariant (checked by [`Ray::new`]): origin and direction finite, `|dir|²` a positive normal
/// float (neither zero nor overflowing).
///
/// Deserialising validates the invariant again.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
#[cfg_attr(feature = "serde", serde(try_from = "RayParts", into = "RayParts"))]
pub struct Ray {
    origin: Point,
    dir: Vector,
}

serde_via_new! { Ray, RayParts { origin: Point, dir: Vector } }

impl Ray {
    /// A validated ray: errors on non-finite input or a zero (or overflowing) direction.
    pub fn new(origin: Point, dir: Vector) -> Result<Self, ShapeError> {
        if !is_finite_point(&origin) {
            return Err(ShapeError::NonFinite("ray origin"));
        }
        if !is_finite_vector(&dir) {
            return Err(ShapeError::NonFinite("ray direction"));
        }
        let n2 = dir.norm_squared();
        if !(n2 >= Real::MIN_POSITIVE && n2.is_finite()) {
            return Err(ShapeError::Degenerate(
                "ray direction is zero, too short or too long",
            ));
        }
        Ok(Self { origin, dir })
    }

    /// A ray the caller knows satisfies the invariant (used by the sweeps).
    #[inline]
    pub(crate) const fn new_unchecked(origin: Point, dir: Vector) -> Self {
        Self { origin, dir }
    }

    /// Start point (world space).
    #[inline]
    pub fn origin(&self) -> Point {
        self.origin
    }

    /// Direction (world space, not necessarily unit).
    #[inline]
    pub fn dir(&self) -> Vector {
        self.dir
    }

    /// The point `origin + t · dir`.
    #[inline]
    pub fn point_at(&self, t: Real) -> Point {
        self.origin + self.dir * t
    }

    /// The same ray expressed in the local frame of `pose` (parameters `t` are unchanged).
    #[inline]
    pub fn inverse_transformed(&self, pose: &Isometry) -> Ray {
        Ray {
            origin: pose.inverse_transform_point(&self.origin),
            dir: pose.inverse_transform_vector(&self.dir),
        }
    }

    /// The same ray with its origin moved by `offset` (parameters `t` are unchanged): the ray
    /// in a frame whose origin is at `−offset`.
    #[inline]
    pub(crate) fn translated(&self, offset: &Vector) -> Ray {
        Ray {
            origin: self.origin + offset,
            dir: self.dir,
        }
    }

    /// The unit vector against the ray, `−dir / |dir|`.
    #[inline]
    pub fn back_normal(&self) -> Vector {
        -self.dir / self.dir.norm()
    }
}

/// Where a ray first meets a shape.
///
/// - `t ≥ 0` is in units of the ray's `dir`, within the caller's `[0, max_t]`;
/// - `normal` is the unit outward normal of the surface at the hit, in world space, facing
///   **against** the ray (`normal · dir ≤ 0`);
/// - `point = origin + t · dir`, world space.
///
/// Solid shapes: a ray starting inside (or on the surface of) a solid reports `t = 0` with
/// `normal = −dir / |dir|` (as Box2D and parry report `t = 0` for solids).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct RayHit {
    /// Ray parameter of the hit, in units of `dir` (≥ 0).
    pub t: Real,
    /// Unit surface normal at the hit, world space, facing against the ray.
    pub normal: Vector,
    /// Hit point, world space (metres).
    pub point: Point,
}

impl RayHit {
    /// True when every field is finite (the casts return no other hit).
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.t.is_finite() && is_finite_vector(&self.normal) && is_finite_point(&self.point)
    }

    /// A hit at `t` with normal `normal` (the caller guarantees unit length).
    #[inline]
    pub(crate) fn at(ray: &Ray, t: Real, normal: Vector) -> Self {
        Self {
            t,
            normal,
            point: ray.point_at(t),
        }
    }

    /// The hit reported when the ray starts inside a solid.
    #[inline]
    pub(crate) fn inside(ray: &Ray) -> Self {
        Self {
            t: 0.0,
            normal: ray.back_normal(),
            point: ray.origin,
        }
    }
}

/// The earlier of two optional hits (the first when tied): the first entry into a union of
/// solids is the earliest entry into any of them.
#[inline]
pub(crate) fn earlier(best: Option<RayHit>, hit: Option<RayHit>) -> Option<RayHit> {
    match (best, hit) {
        (Some(b), Some(h)) if h.t < b.t => Some(h),
        (None, h) => h,
        (b, _) => b,
    }
}

/// True when `max_t` is a usable bound (not NaN, not negative; +∞ allowed).
#[inline]
pub(crate) fn valid_max_t(max_t: Real) -> bool {
    max_t >= 0.0
}
