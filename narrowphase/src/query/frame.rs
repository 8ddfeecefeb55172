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
//! - [`Frame::at`] one pose: its translation, for a mesh, whose triangles are stored in its
//!   local frame (so they are computed as exactly as when the mesh sits at the origin).
//!
//! Bullet's GJK pair detector moves both shapes by the mean of their positions the same way;
//! Jolt computes contacts relative to a base offset at the first body.
//!
//! A frame whose origin is zero changes nothing, bit for bit: neither the poses nor the points
//! are moved then (subtracting `−0` or adding `+0` would turn a coordinate `−0` into `+0`).

use super::closest::ClosestPoints;
use crate::contact::Manifold;
use crate::math::{Isometry, Point, Vector};

/// A frame with the world's axes and its origin at `origin` (world space, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Frame {
    origin: Vector,
}

impl Frame {
    /// The frame at the midpoint of the translations of `pose_a` and `pose_b` (the same with
    /// the two swapped, see the module docs).
    #[inline]
    pub(crate) fn between(pose_a: &Isometry, pose_b: &Isometry) -> Self {
        Self {
            origin: pose_a.translation.vector * 0.5 + pose_b.translation.vector * 0.5,
        }
    }

    /// The frame at `pose`'s translation.
    #[inline]
    pub(crate) fn at(pose: &Isometry) -> Self {
        Self {
            origin: pose.translation.vector,
        }
    }

    /// True when the origin is the world's (the frame changes nothing).
    #[inline]
    fn is_world(&self) -> bool {
        self.origin == Vector::zeros()
    }

    /// `pose` (world) in this frame: its translation minus the origin, its rotation unchanged.
    #[inline]
    pub(crate) fn pose(&self, pose: &Isometry) -> Isometry {
        let mut p = *pose;
        if !self.is_world() {
            p.translation.vector -= self.origin;
        }
        p
    }

    /// The point `p` of this frame in world space.
    #[inline]
    pub(crate) fn world_point(&self, p: &Point) -> Point {
        if self.is_world() {
            *p
        } else {
            p + self.origin
        }
    }

    /// A manifold computed in this frame, in world space: its points moved by the origin,
    /// normal, depths and ids unchanged.
    #[inline]
    pub(crate) fn world_manifold(&self, m: Manifold) -> Manifold {
        if self.is_world() {
            m
        } else {
            m.translated(&self.origin)
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
