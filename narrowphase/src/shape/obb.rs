//! The oriented box in world space.

use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{
    is_finite_point, is_finite_vector, Isometry, Matrix, Point, Real, Rotation, Vector,
};
use crate::shape::Cuboid;

/// Tolerance on `|aᵢ · aⱼ − δᵢⱼ|` accepted by [`Obb::new`] (dimensionless).
pub const ORTHONORMAL_TOLERANCE: Real = 1e-4;

/// A box in world space: centre, three orthonormal axes (the columns of `axes`) and the
/// half-sizes along them (metres). A [`Cuboid`] under a pose is the same thing; this type is
/// for code that works in world space (the SAT tests, conversions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    center: Point,
    axes: Matrix,
    half_extents: Vector,
}

impl Obb {
    /// A box from its centre, three axes and half-sizes. Errors on non-finite input,
    /// non-positive half-sizes, or axes not orthonormal within [`ORTHONORMAL_TOLERANCE`].
    pub fn new(center: Point, axes: [Vector; 3], half_extents: Vector) -> Result<Self, ShapeError> {
        if !is_finite_point(&center) {
            return Err(ShapeError::NonFinite("Obb centre"));
        }
        if !axes.iter().all(is_finite_vector) {
            return Err(ShapeError::NonFinite("Obb axes"));
        }
        check_half_extents(&half_extents)?;
        for i in 0..3 {
            for j in i..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                if (axes[i].dot(&axes[j]) - want).abs() > ORTHONORMAL_TOLERANCE {
                    return Err(ShapeError::NotOrthonormal(ORTHONORMAL_TOLERANCE));
                }
            }
        }
        Ok(Self {
            center,
            axes: Matrix::from_columns(&axes),
            half_extents,
        })
    }

    /// A box from its centre, a rotation (its axes are the rotated x, y, z) and half-sizes.
    /// Errors on non-finite input, non-positive half-sizes, or a rotation whose quaternion is
    /// not of unit length within [`ORTHONORMAL_TOLERANCE`] (one built with `new_unchecked`
    /// from an arbitrary quaternion would give axes that are not orthonormal, or overflow).
    pub fn from_rotation(
        center: Point,
        rotation: &Rotation,
        half_extents: Vector,
    ) -> Result<Self, ShapeError> {
        if !is_finite_point(&center) {
            return Err(ShapeError::NonFinite("Obb centre"));
        }
        if !rotation.coords.iter().all(|c| c.is_finite()) {
            return Err(ShapeError::NonFinite("Obb rotation"));
        }
        // |q|² − 1 in f64: the squares of huge finite components must not overflow.
        let norm2: f64 = rotation
            .coords
            .iter()
            .map(|&c| f64::from(c) * f64::from(c))
            .sum();
        if (norm2 - 1.0).abs() > f64::from(ORTHONORMAL_TOLERANCE) {
            return Err(ShapeError::NotOrthonormal(ORTHONORMAL_TOLERANCE));
        }
        check_half_extents(&half_extents)?;
        Ok(Self {
            center,
            axes: rotation.to_rotation_matrix().into_inner(),
            half_extents,
        })
    }

    /// The box a [`Cuboid`] occupies at `pose` (infallible: both are already valid).
    pub fn from_cuboid(cuboid: &Cuboid, pose: &Isometry) -> Self {
        Self {
            center: pose.translation.vector.into(),
            axes: pose.rotation.to_rotation_matrix().into_inner(),
            half_extents: cuboid.half_extents(),
        }
    }

    /// The same box as an AABB (axes = world axes). Errors on a flat AABB (zero thickness).
    pub fn from_aabb(aabb: &Aabb) -> Result<Self, ShapeError> {
        Self::new(
            aabb.center(),
            [Vector::x(), Vector::y(), Vector::z()],
            aabb.half_extents(),
        )
    }

    /// Centre, world space.
    #[inline]
    pub fn center(&self) -> Point {
        self.center
    }

    /// The axes as the columns of a matrix (unit, orthonormal, world space).
    #[inline]
    pub fn axes(&self) -> Matrix {
        self.axes
    }

    /// Axis `i` (0, 1, 2), world space.
    #[inline]
    pub fn axis(&self, i: usize) -> Vector {
        self.axes.column(i).into()
    }

    /// Half-sizes along the axes, metres.
    #[inline]
    pub fn half_extents(&self) -> Vector {
        self.half_extents
    }

    /// Corner `k` (0..8): bit `i` of `k` set means `+eᵢ` along axis `i`, clear means `−eᵢ`.
    pub fn corner(&self, k: usize) -> Point {
        let mut p = self.center;
        for i in 0..3 {
            let s = if k >> i & 1 == 1 { 1.0 } else { -1.0 };
            p += self.axis(i) * (s * self.half_extents[i]);
        }
        p
    }

    /// The 8 corners, in the order of [`Obb::corner`].
    pub fn corners(&self) -> [Point; 8] {
        std::array::from_fn(|k| self.corner(k))
    }

    /// The point of the box closest to `p` (p itself when inside), world space.
    pub fn closest_point(&self, p: &Point) -> Point {
        let d = p - self.center;
        let mut q = self.center;
        for i in 0..3 {
            let e = self.half_extents[i];
            q += self.axis(i) * self.axis(i).dot(&d).clamp(-e, e);
        }
        q
    }

    /// Squared distance from `p` to the box (0 inside), m².
    pub fn distance_squared_to_point(&self, p: &Point) -> Real {
        (p - self.closest_point(p)).norm_squared()
    }

    /// True when the two boxes overlap or touch (15-axis SAT, [`crate::sat::cuboid_cuboid`]).
    pub fn intersects(&self, other: &Obb) -> bool {
        crate::sat::cuboid_cuboid::obb_obb(self, other).is_none()
    }

    /// The tight world-space AABB.
    pub fn aabb(&self) -> Aabb {
        let ext = self.axes.abs() * self.half_extents;
        Aabb::new_unchecked(self.center - ext, self.center + ext)
    }
}

impl TryFrom<&Aabb> for Obb {
    type Error = ShapeError;
    fn try_from(aabb: &Aabb) -> Result<Self, ShapeError> {
        Obb::from_aabb(aabb)
    }
}

fn check_half_extents(he: &Vector) -> Result<(), ShapeError> {
    if !is_finite_vector(he) {
        return Err(ShapeError::NonFinite("Obb half-extents"));
    }
    for i in 0..3 {
        if he[i] <= 0.0 {
            return Err(ShapeError::NonPositive("Obb half-extent", he[i]));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_bad_input() {
        let o = Point::origin();
        let ax = [Vector::x(), Vector::y(), Vector::z()];
        let he = Vector::repeat(1.0);
        assert!(Obb::new(o, ax, he).is_ok());
        assert!(matches!(
            Obb::new(
                o,
                [Vector::x(), Vector::new(0.1, 1.0, 0.0), Vector::z()],
                he
            ),
            Err(ShapeError::NotOrthonormal(_))
        ));
        assert!(matches!(
            Obb::new(o, [Vector::x() * 2.0, Vector::y(), Vector::z()], he),
            Err(ShapeError::NotOrthonormal(_))
        ));
        assert!(matches!(
            Obb::new(o, ax, Vector::new(1.0, 0.0, 1.0)),
            Err(ShapeError::NonPositive(..))
        ));
        assert!(matches!(
            Obb::new(Point::new(Real::NAN, 0.0, 0.0), ax, he),
            Err(ShapeError::NonFinite(_))
        ));
        let flat = Aabb::new(o, Point::new(1.0, 0.0, 1.0)).unwrap();
        assert!(Obb::from_aabb(&flat).is_err());
    }

    #[test]
    fn from_aabb_keeps_corners() {
        let a = Aabb::new(Point::new(0.0, 1.0, 2.0), Point::new(1.0, 3.0, 5.0)).unwrap();
        let b = Obb::from_aabb(&a).unwrap();
        assert_eq!(b.aabb(), a);
        assert_eq!(b.corner(0), a.mins);
        assert_eq!(b.corner(7), a.maxs);
    }
}
