//! Fixtures shared by the crate's unit tests (compiled for tests only).

use crate::math::{Isometry, Point, Real, Rotation, Vector};
use crate::shape::{Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Shape, ShapeRef, Triangle};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A rotation from a quaternion with coordinates uniform in [−1, 1), normalised (not uniform
/// over rotations, but it reaches every one).
pub(crate) fn unit_quaternion(r: &mut ChaCha8Rng) -> Rotation {
    let q = nalgebra::Quaternion::new(
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
        r.gen_range(-1.0..1.0),
    );
    Rotation::from_quaternion(q)
}

/// A vector with each coordinate uniform in `[lo, hi)`.
pub(crate) fn random_vector(r: &mut ChaCha8Rng, lo: Real, hi: Real) -> Vector {
    Vector::new(
        r.gen_range(lo..hi),
        r.gen_range(lo..hi),
        r.gen_range(lo..hi),
    )
}

/// The hull of the triangle (0, 0, 0), (1, 0, 0), (0, 1, 0): flat, in the plane z = 0.
pub(crate) fn right_triangle_hull() -> ConvexPolyhedron {
    let t = Triangle::new(
        Point::origin(),
        Point::new(1.0, 0.0, 0.0),
        Point::new(0.0, 1.0, 0.0),
    )
    .unwrap();
    ConvexPolyhedron::from_triangle(&t)
}

/// One shape of every kind, all about 1 m across, centred near the local origin.
pub(crate) struct OneOfEach {
    pub ball: Ball,
    pub cuboid: Cuboid,
    pub capsule: Capsule,
    pub tri: Triangle,
    pub hull: ConvexPolyhedron,
    pub compound: Compound,
}

impl OneOfEach {
    pub fn new() -> Self {
        OneOfEach {
            ball: Ball::new(0.4).unwrap(),
            cuboid: Cuboid::new(Vector::new(0.5, 0.3, 0.2)).unwrap(),
            capsule: Capsule::new(0.4, 0.2).unwrap(),
            tri: Triangle::new(
                Point::new(-0.5, 0.0, 0.0),
                Point::new(0.5, -0.2, 0.1),
                Point::new(0.0, 0.6, -0.1),
            )
            .unwrap(),
            hull: ConvexPolyhedron::from_cuboid(&Cuboid::new(Vector::new(0.2, 0.4, 0.3)).unwrap()),
            // A box with a ball on one end and a capsule across the other.
            compound: Compound::new(vec![
                (
                    Isometry::identity(),
                    Cuboid::new(Vector::new(0.3, 0.1, 0.1)).unwrap().into(),
                ),
                (
                    Isometry::translation(0.3, 0.1, 0.0),
                    Ball::new(0.2).unwrap().into(),
                ),
                (
                    Isometry::new(Vector::new(-0.3, 0.0, 0.0), Vector::new(0.0, 0.0, 1.2)),
                    Capsule::new(0.2, 0.1).unwrap().into(),
                ),
            ])
            .unwrap(),
        }
    }

    /// The six as `Shape`s, in the order ball, cuboid, capsule, triangle, hull, compound.
    pub fn shapes(&self) -> [Shape; 6] {
        [
            Shape::from(self.ball),
            Shape::from(self.cuboid),
            Shape::from(self.capsule),
            Shape::from(self.tri),
            Shape::from(self.hull.clone()),
            Shape::from(self.compound.clone()),
        ]
    }

    /// The six as views of the concrete shapes, in the order of [`OneOfEach::shapes`].
    pub fn views(&self) -> [ShapeRef<'_>; 6] {
        [
            ShapeRef::from(&self.ball),
            ShapeRef::from(&self.cuboid),
            ShapeRef::from(&self.capsule),
            ShapeRef::from(&self.tri),
            ShapeRef::from(&self.hull),
            ShapeRef::from(&self.compound),
        ]
    }
}
