//! GJK (Gilbert–Johnson–Keerthi) distance and intersection for convex shapes given by their
//! support maps (Ericson, RTCD §9.5; van den Bergen, *Collision Detection in Interactive 3D
//! Environments*, ch. 4).
//!
//! The distance between convex A and B is the distance of the origin to their Minkowski
//! difference `A − B`. GJK walks a simplex (1 to 4 points of `A − B`) towards the origin: find
//! the point `v` of the simplex closest to the origin (keeping only the corners it needs, by
//! Voronoi regions as in Ericson §5.1), ask `A − B` for its farthest point `w` along `−v`,
//! and stop when `w` gets no closer than `v` (up to a relative tolerance). Each step only
//! needs one support point of each shape, so its cost grows with the number of corners, not
//! with the number of edge pairs as SAT does: polyhedra with many faces use it (see
//! [`crate::sat`]).
//!
//! Spheres and capsules are handled as their core (a point, a segment) plus a radius: GJK
//! gives the distance of the cores, and the radii are subtracted by the caller.

mod simplex;

use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::{ConvexPolyhedron, Cuboid, Triangle};
use simplex::Simplex;

/// A point of the Minkowski difference, in the simplex's `f64`.
type W = simplex::Vector;

/// A convex set described by its support function, in its local frame.
pub trait SupportMap {
    /// A point of the set farthest along `dir` (local frame; `dir` need not be unit).
    fn local_support(&self, dir: &Vector) -> Point;
}

impl SupportMap for Cuboid {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        let e = self.half_extents();
        Point::new(
            if dir.x < 0.0 { -e.x } else { e.x },
            if dir.y < 0.0 { -e.y } else { e.y },
            if dir.z < 0.0 { -e.z } else { e.z },
        )
    }
}

impl SupportMap for Triangle {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        let c = self.corners();
        let d = [
            c[0].coords.dot(dir),
            c[1].coords.dot(dir),
            c[2].coords.dot(dir),
        ];
        if d[0] >= d[1] && d[0] >= d[2] {
            c[0]
        } else if d[1] >= d[2] {
            c[1]
        } else {
            c[2]
        }
    }
}

impl SupportMap for ConvexPolyhedron {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        self.support(dir).1
    }
}

/// A segment between two points (the core of a capsule), local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Segment {
    /// First end.
    pub a: Point,
    /// Second end.
    pub b: Point,
}

impl SupportMap for Segment {
    #[inline]
    fn local_support(&self, dir: &Vector) -> Point {
        if self.a.coords.dot(dir) >= self.b.coords.dot(dir) {
            self.a
        } else {
            self.b
        }
    }
}

/// A single point (the core of a sphere), local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinglePoint(pub Point);

impl SupportMap for SinglePoint {
    #[inline]
    fn local_support(&self, _dir: &Vector) -> Point {
        self.0
    }
}

/// The outcome of [`distance`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GjkResult {
    /// The shapes overlap or touch (distance 0 within tolerance).
    Intersecting,
    /// The shapes are apart.
    Separated {
        /// Distance between them, metres (> 0).
        distance: Real,
        /// Closest point of A, world space.
        point_a: Point,
        /// Closest point of B, world space.
        point_b: Point,
        /// Unit direction from A to B (world space): the direction of the shortest segment
        /// between them, taken from the Minkowski difference itself (more accurate than
        /// `point_b − point_a`).
        normal: Vector,
    },
}

/// Distance, relative to the largest vertex of the simplex, under which [`distance`] calls
/// the shapes touching: 16 roundings of a coordinate, the accuracy of the Minkowski
/// difference's points themselves.
const TOUCH: Real = 16.0 * Real::EPSILON;

/// Most GJK iterations before giving up with the best answer so far.
const MAX_ITERATIONS: usize = 64;

/// The Minkowski difference `A − B` in A's frame.
struct Difference<'a, A: ?Sized, B: ?Sized> {
    a: &'a A,
    b: &'a B,
    rel: Isometry,
}

impl<'s, A: SupportMap + ?Sized, B: SupportMap + ?Sized> Difference<'s, A, B> {
    /// The difference of `a` at `pose_a` and `b` at `pose_b`.
    #[inline]
    fn new(pose_a: &Isometry, a: &'s A, pose_b: &Isometry, b: &'s B) -> Self {
        Self {
            a,
            b,
            rel: pose_a.inv_mul(pose_b),
        }
    }

    /// The first simplex: the support point against the offset of B's origin from A's (+x
    /// when they coincide).
    #[inline]
    fn first_simplex(&self) -> Simplex {
        let mut dir = self.rel.translation.vector;
        if dir.norm_squared() == 0.0 {
            dir = Vector::x();
        }
        let (w, pa, pb) = self.support(&-dir);
        Simplex::new(w, pa, pb)
    }

    /// (w = pa − pb, pa, pb), all in A's frame; `w` exact in `f64`.
    #[inline]
    fn support(&self, d: &Vector) -> (W, Point, Point) {
        let pa = self.a.local_support(d);
        let db = self.rel.rotation.inverse_transform_vector(&-d);
        let pb = self.rel * self.b.local_support(&db);
        (pa.coords.cast::<f64>() - pb.coords.cast::<f64>(), pa, pb)
    }
}

/// Distance between convex `a` at `pose_a` and `b` at `pose_b`, with the closest points when
/// they are apart. Stops when the duality gap `|v|² − v·w` falls under 10⁻⁶ of `|v|²`, or when
/// no support point improves on the simplex; the answer is then within a few roundings of the
/// Minkowski difference's coordinates (`u` times the shapes' extent), slivers included, and
/// the same in either order of the arguments. Distances under 16 such roundings of the
/// simplex's largest vertex are reported as [`GjkResult::Intersecting`].
pub fn distance<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    pose_a: &Isometry,
    a: &A,
    pose_b: &Isometry,
    b: &B,
) -> GjkResult {
    let diff = Difference::new(pose_a, a, pose_b, b);
    let mut s = diff.first_simplex();
    let mut best = f64::INFINITY;
    let touch = TOUCH as f64;
    // The reduced simplex of the closest point so far, which is the answer: when rounding
    // makes a step go back (a degenerate simplex, e.g. nearly collinear points), not the worse
    // simplex that step produced.
    let mut kept = s;
    for _ in 0..MAX_ITERATIONS {
        let v = s.reduce_closest();
        let vv = v.norm_squared();
        let scale = s.max_norm_squared().max(f64::MIN_POSITIVE);
        if s.is_full() || vv <= touch * touch * scale {
            return GjkResult::Intersecting;
        }
        // Stop when the distance stops decreasing (rounding) or w gets no closer than v.
        if vv >= best {
            break;
        }
        best = vv;
        kept = s;
        let (w, pa, pb) = diff.support(&-v.cast::<Real>());
        if vv - v.dot(&w) <= 1e-6 * vv || s.contains(&w) {
            break;
        }
        s.push(w, pa, pb);
    }
    let v = kept.reduce_closest();
    let (pa, pb) = kept.witnesses();
    let d = v.norm();
    if d.is_nan() || (d as Real) <= 0.0 {
        return GjkResult::Intersecting;
    }
    GjkResult::Separated {
        distance: d as Real,
        point_a: pose_a * pa,
        point_b: pose_a * pb,
        normal: pose_a.rotation * (-v / d).cast::<Real>(),
    }
}

/// True when `a` at `pose_a` and `b` at `pose_b` overlap or touch: GJK stopped as soon as a
/// separating plane shows up (`v · w > 0`), so it is cheaper than [`distance`] on apart pairs.
pub fn intersects<A: SupportMap + ?Sized, B: SupportMap + ?Sized>(
    pose_a: &Isometry,
    a: &A,
    pose_b: &Isometry,
    b: &B,
) -> bool {
    let diff = Difference::new(pose_a, a, pose_b, b);
    let mut s = diff.first_simplex();
    for _ in 0..MAX_ITERATIONS {
        let v = s.reduce_closest();
        let vv = v.norm_squared();
        if s.is_full() || vv <= 1e-10 * s.max_norm_squared().max(f64::MIN_POSITIVE) {
            return true;
        }
        let (w, pa, pb) = diff.support(&-v.cast::<Real>());
        if v.dot(&w) > 0.0 {
            return false;
        }
        if vv - v.dot(&w) <= 1e-6 * vv || s.contains(&w) {
            // Converged to a distance of √vv > 0 without finding a separating plane: touching
            // within rounding.
            return vv <= 1e-8 * s.max_norm_squared();
        }
        s.push(w, pa, pb);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_distance_along_an_axis() {
        let c = Cuboid::new(Vector::repeat(1.0)).unwrap();
        let pa = Isometry::identity();
        let pb = Isometry::translation(3.5, 0.2, -0.1);
        match distance(&pa, &c, &pb, &c) {
            GjkResult::Separated {
                distance,
                point_a,
                point_b,
                ..
            } => {
                assert!((distance - 1.5).abs() < 1e-5, "{distance}");
                assert!((point_a.x - 1.0).abs() < 1e-5 && (point_b.x - 2.5).abs() < 1e-5);
            }
            r => panic!("{r:?}"),
        }
        assert!(!intersects(&pa, &c, &pb, &c));
        let pb = Isometry::translation(1.9, 0.2, -0.1);
        assert_eq!(distance(&pa, &c, &pb, &c), GjkResult::Intersecting);
        assert!(intersects(&pa, &c, &pb, &c));
    }

    #[test]
    fn segment_to_point() {
        let s = Segment {
            a: Point::new(-1.0, 0.0, 0.0),
            b: Point::new(1.0, 0.0, 0.0),
        };
        let p = SinglePoint(Point::origin());
        let pb = Isometry::translation(0.5, 2.0, 0.0);
        match distance(&Isometry::identity(), &s, &pb, &p) {
            GjkResult::Separated {
                distance, point_a, ..
            } => {
                assert!((distance - 2.0).abs() < 1e-6);
                assert!((point_a.x - 0.5).abs() < 1e-6);
            }
            r => panic!("{r:?}"),
        }
    }
}
