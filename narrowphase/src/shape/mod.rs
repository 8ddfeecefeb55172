//! Shapes in their local frame. A shape plus an [`Isometry`] (its pose)
//! places it in the world. Every shape has a validating constructor that returns
//! [`ShapeError`](crate::ShapeError) on bad input.
//!
//! [`Shape`] is the closed set of shapes Tumble collides, owned (boxed or shared where
//! large). The general entry points ([`crate::query::intersection_test`],
//! [`crate::query::contact`]) take a [`ShapeRef`], a borrowed view of the same set that a
//! `&Shape` or a reference to a concrete shape (`&Cuboid`, `&Ball`, …) converts into, and
//! dispatch on its kind.
//!
//! A body made of several convex shapes is one [`Shape::Compound`] ([`Compound`]: children
//! each under its own pose).

mod ball;
mod capsule;
mod compound;
mod cuboid;
mod hull;
mod mass;
mod obb;
mod polyhedron;
mod triangle;
mod view;

pub use ball::Ball;
pub use capsule::Capsule;
pub use compound::{compound_feature_id, Compound, MAX_COMPOUND_CHILDREN};
pub use cuboid::Cuboid;
pub use hull::MAX_HULL_VERTICES;
pub use mass::MassProperties;
pub use obb::{Obb, ORTHONORMAL_TOLERANCE};
pub use polyhedron::{ConvexPolyhedron, PolyFace};
pub use triangle::{Triangle, DEGENERATE_TOLERANCE};
pub use view::ShapeRef;

use crate::bounding::Aabb;
use crate::math::Isometry;
use crate::mesh::{HeightField, TriMesh};
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Any shape Tumble can collide, in its local frame.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A sphere centred at the local origin.
    Ball(Ball),
    /// A box centred at the local origin, edges along the local axes.
    Cuboid(Cuboid),
    /// A capsule along the local y axis.
    Capsule(Capsule),
    /// A triangle (two-sided, no thickness), boxed so that `Shape` stays 16 bytes (the
    /// size of a box's variant): pair lists stream through the cache in the hot loops.
    Triangle(Box<Triangle>),
    /// A convex polyhedron, shared (cheap to clone, keeps `Shape` small).
    Convex(#[serde(with = "arc_polyhedron")] Arc<ConvexPolyhedron>),
    /// A static triangle mesh, shared (see [`crate::mesh`]). Concave and without volume (mass
    /// 0): only for bodies that contacts do not move (a world refuses it on a dynamic body).
    /// Written as its vertices and triangles, rebuilt and validated when read back.
    TriMesh(#[serde(with = "arc_mesh")] Arc<TriMesh>),
    /// A heightfield, shared (see [`crate::mesh`]); like [`Shape::TriMesh`], massless and only
    /// for bodies that contacts do not move. Written as its samples and scale, rebuilt and
    /// validated when read back.
    HeightField(#[serde(with = "arc_mesh")] Arc<HeightField>),
    /// Several convex shapes, each under its own pose in the compound's frame, shared (see
    /// [`Compound`]). A solid with mass (the union of its children's), for any kind of body.
    /// Written as its children, rebuilt and validated when read back.
    Compound(#[serde(with = "arc_mesh")] Arc<Compound>),
}

/// Serde for the shared polyhedron: as the polyhedron itself (rebuilt from its corners).
mod arc_polyhedron {
    use super::ConvexPolyhedron;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(p: &Arc<ConvexPolyhedron>, s: S) -> Result<S::Ok, S::Error> {
        p.as_ref().serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Arc<ConvexPolyhedron>, D::Error> {
        ConvexPolyhedron::deserialize(d).map(Arc::new)
    }
}

/// Serde for the shared meshes and compounds: as the shape itself (whose own serde rebuilds and
/// validates it).
mod arc_mesh {
    use serde::de::DeserializeOwned;
    use serde::{Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<T: Serialize, S: Serializer>(m: &Arc<T>, s: S) -> Result<S::Ok, S::Error> {
        m.as_ref().serialize(s)
    }

    pub fn deserialize<'de, T: DeserializeOwned, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Arc<T>, D::Error> {
        T::deserialize(d).map(Arc::new)
    }
}

impl Shape {
    /// True for the concave, massless kinds ([`Shape::TriMesh`], [`Shape::HeightField`]),
    /// which only static and kinematic bodies may have.
    pub fn is_mesh(&self) -> bool {
        matches!(self, Shape::TriMesh(_) | Shape::HeightField(_))
    }

    /// The world-space AABB of the shape at `pose` (tight for balls and boxes).
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        match self {
            Shape::Ball(b) => b.aabb(pose),
            Shape::Cuboid(c) => c.aabb(pose),
            Shape::Capsule(c) => c.aabb(pose),
            Shape::Triangle(t) => t.aabb(pose),
            Shape::Convex(p) => p.aabb(pose),
            Shape::TriMesh(m) => m.aabb(pose),
            Shape::HeightField(h) => h.aabb(pose),
            Shape::Compound(c) => c.aabb(pose),
        }
    }

    /// A [`Shape::Compound`] of `children`, each `(pose in the compound's frame, shape)`: a
    /// body of several convex shapes, as rapier's `SharedShape::compound` makes one. Errors as
    /// [`Compound::new`].
    ///
    /// ```
    /// use tumble_narrowphase::math::{Isometry, Vector};
    /// use tumble_narrowphase::shape::{Cuboid, Shape};
    ///
    /// let plank = Cuboid::new(Vector::new(1.0, 0.1, 0.5)).unwrap();
    /// let post = Cuboid::new(Vector::new(0.1, 0.5, 0.1)).unwrap();
    /// let t = Shape::compound([
    ///     (Isometry::translation(0.0, 0.6, 0.0), plank.into()),
    ///     (Isometry::identity(), post.into()),
    /// ])
    /// .unwrap();
    /// assert!(matches!(t, Shape::Compound(_)));
    /// ```
    pub fn compound(
        children: impl IntoIterator<Item = (Isometry, Shape)>,
    ) -> Result<Shape, crate::ShapeError> {
        Compound::new(children.into_iter().collect()).map(Shape::from)
    }
}

impl From<Ball> for Shape {
    fn from(b: Ball) -> Self {
        Shape::Ball(b)
    }
}

impl From<Cuboid> for Shape {
    fn from(c: Cuboid) -> Self {
        Shape::Cuboid(c)
    }
}

impl From<Capsule> for Shape {
    fn from(c: Capsule) -> Self {
        Shape::Capsule(c)
    }
}

impl From<Triangle> for Shape {
    fn from(t: Triangle) -> Self {
        Shape::Triangle(Box::new(t))
    }
}

impl From<ConvexPolyhedron> for Shape {
    fn from(p: ConvexPolyhedron) -> Self {
        Shape::Convex(Arc::new(p))
    }
}

impl From<TriMesh> for Shape {
    fn from(m: TriMesh) -> Self {
        Shape::TriMesh(Arc::new(m))
    }
}

impl From<Arc<TriMesh>> for Shape {
    fn from(m: Arc<TriMesh>) -> Self {
        Shape::TriMesh(m)
    }
}

impl From<HeightField> for Shape {
    fn from(h: HeightField) -> Self {
        Shape::HeightField(Arc::new(h))
    }
}

impl From<Arc<HeightField>> for Shape {
    fn from(h: Arc<HeightField>) -> Self {
        Shape::HeightField(h)
    }
}

impl From<Compound> for Shape {
    fn from(c: Compound) -> Self {
        Shape::Compound(Arc::new(c))
    }
}

impl From<Arc<Compound>> for Shape {
    fn from(c: Arc<Compound>) -> Self {
        Shape::Compound(c)
    }
}

impl From<Arc<ConvexPolyhedron>> for Shape {
    fn from(p: Arc<ConvexPolyhedron>) -> Self {
        Shape::Convex(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_stays_small() {
        assert!(
            std::mem::size_of::<Shape>() <= 16,
            "{}",
            std::mem::size_of::<Shape>()
        );
    }
}
