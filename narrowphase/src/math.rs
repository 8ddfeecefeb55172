//! The one math layer of Tumble: every file imports its scalar and vector types from here.
//!
//! All quantities are in SI units unless a doc says otherwise (metres, seconds, kilograms,
//! radians). `Real` is `f32`: it is what game engines hand over and what keeps the hot loops
//! narrow. Swapping it for `f64` means changing this file only.

/// The scalar type of the whole engine.
pub type Real = f32;
/// A 3D vector (a direction or displacement), in whatever frame its doc names.
pub type Vector = nalgebra::Vector3<Real>;
/// A 3D point (a position), in whatever frame its doc names.
pub type Point = nalgebra::Point3<Real>;
/// A 3×3 matrix (rotation matrices, inertia tensors).
pub type Matrix = nalgebra::Matrix3<Real>;
/// A rotation, stored as a unit quaternion.
pub type Rotation = nalgebra::UnitQuaternion<Real>;
/// A unit-length 3D vector.
pub type UnitVector = nalgebra::Unit<Vector>;
/// A rigid transform (rotation then translation): maps a shape's local frame into world space.
pub type Isometry = nalgebra::Isometry3<Real>;
/// A translation.
pub type Translation = nalgebra::Translation3<Real>;

/// A 2D vector, used by the [`crate::planar`] module.
pub type Vector2 = nalgebra::Vector2<Real>;
/// A 2D point, used by the [`crate::planar`] module.
pub type Point2 = nalgebra::Point2<Real>;

/// Machine epsilon of [`Real`].
pub const EPSILON: Real = Real::EPSILON;

/// True when every component of `v` is finite (neither NaN nor infinite).
#[inline]
pub fn is_finite_vector(v: &Vector) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

/// True when every component of `p` is finite.
#[inline]
pub fn is_finite_point(p: &Point) -> bool {
    is_finite_vector(&p.coords)
}

/// Runs `body` and keeps its result only if `finite` holds for it: every public ray cast and
/// sweep returns through this (`finite` = `RayHit::is_finite` or `Toi::is_finite`), so no NaN
/// or infinity escapes.
#[inline(always)]
pub(crate) fn finite_only<T>(
    finite: fn(&T) -> bool,
    body: impl FnOnce() -> Option<T>,
) -> Option<T> {
    body().filter(finite)
}
