//! Structured fuzz input: bounded, finite numbers, poses and shapes built from raw bytes with
//! [`arbitrary`]. Every value here is finite by construction, so the oracles downstream can
//! reason about exact answers; raw (possibly NaN or huge) floats are fed to the constructors
//! separately by `super::shapes`.
//!
//! Coordinates are drawn either from a continuous range or from a coarse grid (multiples of
//! 1/4 m): the grid makes touching faces, parallel edges and coincident corners common, which
//! is where geometric code breaks.

use arbitrary::{Arbitrary, Result, Unstructured};
use tumble::math::{Isometry, Point, Real, Rotation, Translation, Vector};
use tumble::narrowphase::shape::{Ball, Capsule, ConvexPolyhedron, Cuboid, Shape, Triangle};

/// A finite number in `[lo, hi]` from 16 bits; with `grid`, snapped to multiples of 1/4.
pub fn real_in(u: &mut Unstructured<'_>, lo: Real, hi: Real, grid: bool) -> Result<Real> {
    let raw = u16::arbitrary(u)?;
    let x = lo + (hi - lo) * (raw as Real / u16::MAX as Real);
    Ok(if grid {
        ((x * 4.0).round() / 4.0).clamp(lo, hi)
    } else {
        x
    })
}

/// A vector with each component in `[-r, r]`.
pub fn vector_in(u: &mut Unstructured<'_>, r: Real, grid: bool) -> Result<Vector> {
    Ok(Vector::new(
        real_in(u, -r, r, grid)?,
        real_in(u, -r, r, grid)?,
        real_in(u, -r, r, grid)?,
    ))
}

/// A rotation: identity, a multiple of 90° about a coordinate axis (exactly parallel faces),
/// or a general one from a normalised quaternion.
pub fn rotation(u: &mut Unstructured<'_>) -> Result<Rotation> {
    Ok(match u.int_in_range(0u8..=3)? {
        0 => Rotation::identity(),
        1 => {
            let axis = [Vector::x_axis(), Vector::y_axis(), Vector::z_axis()][u.choose_index(3)?];
            let quarter = u.int_in_range(1u8..=3)? as Real;
            Rotation::from_axis_angle(&axis, quarter * std::f32::consts::FRAC_PI_2)
        }
        _ => {
            let q = quaternion(
                real_in(u, -1.0, 1.0, false)?,
                real_in(u, -1.0, 1.0, false)?,
                real_in(u, -1.0, 1.0, false)?,
                real_in(u, -1.0, 1.0, false)?,
            );
            q.unwrap_or_else(Rotation::identity)
        }
    })
}

/// The unit quaternion `(w, i, j, k)` normalised, or None when it is too short to normalise.
fn quaternion(w: Real, i: Real, j: Real, k: Real) -> Option<Rotation> {
    let raw = nalgebra::Quaternion::new(w, i, j, k);
    (raw.norm() > 0.1).then(|| Rotation::new_normalize(raw))
}

/// A pose with translation components in `[-r, r]`.
pub fn pose(u: &mut Unstructured<'_>, r: Real, grid: bool) -> Result<Isometry> {
    let t = vector_in(u, r, grid)?;
    Ok(Isometry::from_parts(Translation::from(t), rotation(u)?))
}

/// The recipe of a shape with bounded, valid parameters (sizes in `[0.05, 3]` m), so that the
/// constructor accepts it unless the points are degenerate.
#[derive(Clone, Debug)]
pub enum ShapeRecipe {
    /// A ball of this radius.
    Ball(Real),
    /// A cuboid of these half-extents.
    Cuboid(Vector),
    /// A capsule (half-height, radius).
    Capsule(Real, Real),
    /// A triangle from three corners.
    Triangle([Point; 3]),
    /// The convex hull of these points (4 to 8).
    Hull(Vec<Point>),
}

impl ShapeRecipe {
    /// Draws a recipe; `grid` snaps sizes and corners to quarter metres.
    pub fn draw(u: &mut Unstructured<'_>, grid: bool) -> Result<Self> {
        let size = |u: &mut Unstructured<'_>| real_in(u, 0.05, 3.0, grid).map(|x| x.max(0.05));
        let point = |u: &mut Unstructured<'_>| vector_in(u, 2.0, grid).map(Point::from);
        Ok(match u.int_in_range(0u8..=4)? {
            0 => ShapeRecipe::Ball(size(u)?),
            1 => ShapeRecipe::Cuboid(Vector::new(size(u)?, size(u)?, size(u)?)),
            2 => ShapeRecipe::Capsule(size(u)?, size(u)?),
            3 => ShapeRecipe::Triangle([point(u)?, point(u)?, point(u)?]),
            _ => {
                let n = u.int_in_range(4usize..=8)?;
                ShapeRecipe::Hull((0..n).map(|_| point(u)).collect::<Result<_>>()?)
            }
        })
    }

    /// The shape, or None when the constructor refuses it (degenerate triangle or hull).
    pub fn build(&self) -> Option<Shape> {
        match self {
            ShapeRecipe::Ball(r) => Ball::new(*r).ok().map(Shape::from),
            ShapeRecipe::Cuboid(he) => Cuboid::new(*he).ok().map(Shape::from),
            ShapeRecipe::Capsule(h, r) => Capsule::new(*h, *r).ok().map(Shape::from),
            ShapeRecipe::Triangle([a, b, c]) => Triangle::new(*a, *b, *c).ok().map(Shape::from),
            ShapeRecipe::Hull(points) => {
                ConvexPolyhedron::from_points(points).ok().map(Shape::from)
            }
        }
    }
}

/// The largest extent of a shape from its local origin (metres): the scale of its tolerances.
pub fn shape_size(s: &Shape) -> Real {
    let aabb = s.aabb(&Isometry::identity());
    aabb.mins
        .coords
        .abs()
        .max()
        .max(aabb.maxs.coords.abs().max())
}
