//! The frame a pair's kernel computes in: world axes, origin moved next to the pair.
//!
//! A kernel that places its shapes in the frame it is handed (capsule segments, posed
//! corners, support points, face planes) rounds every coordinate to `f32` at the scale of
//! that coordinate: `X · 2⁻²⁴` at a distance `X` from the frame's origin, 1/128 m at 10⁵ m.
//! Moved to an origin next to the pair, its coordinates are of the pair's own size, and the
//! answers are as exact far from the world's origin as next to it. Only the translations
//! move, so normals and depths are unchanged and contact points are moved back by adding the
//! origin (rounded once, at the scale of the world coordinate they are reported in).
//!
//! Two origins are used:
//! - [`Frame::between`] two poses: the midpoint `0.5 tₐ + 0.5 t_b` of their translations.
//!   Floating-point addition commutes, so swapping A and B gives the same origin bit for bit
//!   and the kernels see the same two poses: a query keeps the symmetry it has in the world
//!   frame (`intersection_test(A, B) = intersection_test(B, A)`), which an origin at A's
//!   position would break. Each translation's difference from the midpoint is exact in `f32`
//!   when the two are within a factor 2 of each other coordinate by coordinate (Sterbenz's
//!   lemma; the midpoint lies between them), so a nearby pair far from the origin keeps every
//!   bit of its relative position.
//! - [`Frame::at`] one pose: its translation, for a mesh or a compound, whose parts are stored
//!   in its local frame (so they are computed as exactly as when it sits at the origin), and
//!   for a ray cast, whose origin is taken relative to the shape.
//!
//! Bullet's `btGjkPairDetector` moves both shapes by the mean of their positions the same
//! way; Jolt computes contacts relative to a base offset at the first body.
//!
//! The frame at a zero translation is the world's own and changes nothing, bit for bit: the
//! poses lose `+0` (which leaves `−0` as it is) and the points are not moved (adding `+0`
//! would turn `−0` into `+0`).

use super::closest::ClosestPoints;
use crate::contact::Manifold;
use crate::math::{Isometry, Point, Vector};

/// A frame with the world's axes and its origin at `origin` (world space, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frame {
    origin: Vector,
    /// False when the origin is zero (the world's own frame): nothing is moved then.
    moved: bool,
}

impl Frame {
    /// The frame at the midpoint of the translations of `pose_a` and `pose_b` (the same with
    /// the two swapped, see the module docs).
    #[inline]
    pub(crate) fn between(pose_a: &Isometry, pose_b: &Isometry) -> Self {
        Self {
            origin: pose_a.translation.vector * 0.5 + pose_b.translation.vector * 0.5,
            moved: true,
        }
    }

    /// The world's own frame (origin zero: changes nothing).
    #[inline]
    pub(crate) fn world() -> Self {
        Self {
            origin: Vector::zeros(),
            moved: false,
        }
    }

    /// The frame at `pose`'s translation; the world's own frame, bit for bit, when that is
    /// zero (a mesh at the origin is collided exactly as its triangles are stored).
    #[inline]
    pub(crate) fn at(pose: &Isometry) -> Self {
        let t = pose.translation.vector;
        // Compared component by component: nalgebra's `==` walks an iterator.
        if t.x == 0.0 && t.y == 0.0 && t.z == 0.0 {
            Self::world()
        } else {
            Self {
                origin: t,
                moved: true,
            }
        }
    }

    /// `pose` (world) in this frame: its translation minus the origin, its rotation unchanged.
    #[inline]
    pub(crate) fn pose(&self, pose: &Isometry) -> Isometry {
        // Subtracting the world frame's `+0` leaves every coordinate as it was, `−0` included.
        Isometry::from_parts(
            (pose.translation.vector - self.origin).into(),
            pose.rotation,
        )
    }

    /// The point `p` of this frame in world space.
    #[inline]
    pub(crate) fn world_point(&self, p: &Point) -> Point {
        if self.moved {
            p + self.origin
        } else {
            *p
        }
    }

    /// Brings a manifold computed in this frame into world space: its points moved by the
    /// origin, normal, depths and ids unchanged.
    #[inline]
    pub(crate) fn manifold_to_world(&self, m: &mut Manifold) {
        if self.moved {
            m.translate(&self.origin);
        }
    }

    /// Closest points computed in this frame, in world space.
    #[inline]
    pub(crate) fn world_closest(&self, c: ClosestPoints) -> ClosestPoints {
        ClosestPoints {
            point_a: self.world_point(&c.point_a),
            point_b: self.world_point(&c.point_b),
            ..c
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rotation, Translation};

    fn at(x: f32, y: f32, z: f32) -> Isometry {
        Isometry::from_parts(
            Translation::new(x, y, z),
            Rotation::from_euler_angles(0.3, -0.2, 1.1),
        )
    }

    /// The midpoint frame is the same either way round, and far from the origin it keeps the
    /// pair's relative position exactly.
    #[test]
    fn midpoint_is_symmetric_and_keeps_the_relative_position() {
        let (a, b) = (
            at(1e5 + 79.0 / 128.0, -70_000.25, 0.031_25),
            at(99_999.5, -70_000.875, 0.5),
        );
        let (f, g) = (Frame::between(&a, &b), Frame::between(&b, &a));
        assert_eq!(f, g);
        let (pa, pb) = (f.pose(&a), f.pose(&b));
        assert_eq!(
            pb.translation.vector - pa.translation.vector,
            b.translation.vector - a.translation.vector
        );
        assert!(pa.translation.vector.amax() < 1.0 && pb.translation.vector.amax() < 1.0);
        assert_eq!(pa.rotation, a.rotation);
        assert_eq!(
            f.world_point(&Point::from(pa.translation.vector)),
            Point::from(a.translation.vector)
        );
    }

    /// At the world's origin nothing moves, signed zeros included.
    #[test]
    fn a_frame_at_the_origin_changes_no_bit() {
        let a = at(-0.0, 0.0, -0.0);
        let f = Frame::at(&a);
        let p = Point::new(-0.0, 1.5, -0.0);
        let q = f.pose(&a).translation.vector;
        assert_eq!(q.map(f32::to_bits), a.translation.vector.map(f32::to_bits));
        assert_eq!(
            f.world_point(&p).coords.map(f32::to_bits),
            p.coords.map(f32::to_bits)
        );
    }
}
