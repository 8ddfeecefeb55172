//! Borrowed views of shapes: what the general entry points take, so a caller can pass a
//! concrete shape (`&Cuboid`, `&Ball`, `&Triangle`, …) without building a [`Shape`] first.

use super::{Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Shape, Triangle};
use crate::bounding::Aabb;
use crate::math::Isometry;
use crate::mesh::{HeightField, TriMesh};

/// A borrowed shape of any kind, in its local frame: the argument of
/// [`crate::query::intersection_test`] and [`crate::query::contact`] (both take
/// `impl Into<ShapeRef>`, so `&Shape`, `&Cuboid`, `&Ball`, `&Capsule`, `&Triangle` and
/// `&ConvexPolyhedron` can be passed as they are).
///
/// It plays the part of parry's `&dyn Shape`: two words (the kind and a pointer to the shape),
/// and the entry points dispatch on the kinds of both views at run time. Unlike [`Shape`] it
/// owns nothing, so pairs of concrete shapes can be stored inline (a box pair of two poses and
/// two [`Cuboid`]s is 80 bytes, no pointer to chase for a triangle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeRef<'a> {
    /// A sphere centred at the local origin.
    Ball(&'a Ball),
    /// A box centred at the local origin, edges along the local axes.
    Cuboid(&'a Cuboid),
    /// A capsule along the local y axis.
    Capsule(&'a Capsule),
    /// A two-sided triangle.
    Triangle(&'a Triangle),
    /// A convex polyhedron.
    Convex(&'a ConvexPolyhedron),
    /// A static triangle mesh (collided one triangle at a time, see [`crate::mesh`]).
    TriMesh(&'a TriMesh),
    /// A heightfield (collided one triangle at a time, see [`crate::mesh`]).
    HeightField(&'a HeightField),
    /// Several convex shapes under their own poses (collided one child at a time, see
    /// [`Compound`]).
    Compound(&'a Compound),
}

impl ShapeRef<'_> {
    /// The name of the shape's kind ("ball", "cuboid", "capsule", "triangle",
    /// "convex polyhedron", "triangle mesh", "heightfield", "compound"), as
    /// [`crate::query::UnsupportedPair`] reports it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            ShapeRef::Ball(_) => "ball",
            ShapeRef::Cuboid(_) => "cuboid",
            ShapeRef::Capsule(_) => "capsule",
            ShapeRef::Triangle(_) => "triangle",
            ShapeRef::Convex(_) => "convex polyhedron",
            ShapeRef::TriMesh(_) => "triangle mesh",
            ShapeRef::HeightField(_) => "heightfield",
            ShapeRef::Compound(_) => "compound",
        }
    }

    /// The world-space AABB of the shape at `pose`, as [`Shape::aabb`].
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        match self {
            ShapeRef::Ball(b) => b.aabb(pose),
            ShapeRef::Cuboid(c) => c.aabb(pose),
            ShapeRef::Capsule(c) => c.aabb(pose),
            ShapeRef::Triangle(t) => t.aabb(pose),
            ShapeRef::Convex(p) => p.aabb(pose),
            ShapeRef::TriMesh(m) => m.aabb(pose),
            ShapeRef::HeightField(h) => h.aabb(pose),
            ShapeRef::Compound(c) => c.aabb(pose),
        }
    }

    /// An owned copy (a polyhedron, mesh or compound cloned into a new `Arc`).
    pub fn to_shape(&self) -> Shape {
        match *self {
            ShapeRef::Ball(b) => Shape::from(*b),
            ShapeRef::Cuboid(c) => Shape::from(*c),
            ShapeRef::Capsule(c) => Shape::from(*c),
            ShapeRef::Triangle(t) => Shape::from(*t),
            ShapeRef::Convex(p) => Shape::from(p.clone()),
            ShapeRef::TriMesh(m) => Shape::from(m.clone()),
            ShapeRef::HeightField(h) => Shape::from(h.clone()),
            ShapeRef::Compound(c) => Shape::from(c.clone()),
        }
    }
}

impl Shape {
    /// A borrowed view of this shape (what [`From<&Shape>`](ShapeRef) gives).
    #[inline]
    pub fn view(&self) -> ShapeRef<'_> {
        match self {
            Shape::Ball(b) => ShapeRef::Ball(b),
            Shape::Cuboid(c) => ShapeRef::Cuboid(c),
            Shape::Capsule(c) => ShapeRef::Capsule(c),
            Shape::Triangle(t) => ShapeRef::Triangle(t),
            Shape::Convex(p) => ShapeRef::Convex(p),
            Shape::TriMesh(m) => ShapeRef::TriMesh(m),
            Shape::HeightField(h) => ShapeRef::HeightField(h),
            Shape::Compound(c) => ShapeRef::Compound(c),
        }
    }
}

impl<'a> From<&'a Shape> for ShapeRef<'a> {
    #[inline]
    fn from(s: &'a Shape) -> Self {
        s.view()
    }
}

/// `From<&Concrete>` for [`ShapeRef`], one impl per `Concrete => Variant`: a concrete shape
/// is viewed without building a [`Shape`].
macro_rules! view_of_concrete {
    ($($concrete:ty => $variant:ident),+ $(,)?) => {$(
        impl<'a> From<&'a $concrete> for ShapeRef<'a> {
            #[inline]
            fn from(s: &'a $concrete) -> Self {
                ShapeRef::$variant(s)
            }
        }
    )+};
}

view_of_concrete! {
    Ball => Ball,
    Cuboid => Cuboid,
    Capsule => Capsule,
    Triangle => Triangle,
    ConvexPolyhedron => Convex,
    TriMesh => TriMesh,
    HeightField => HeightField,
    Compound => Compound,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_is_two_words() {
        assert_eq!(
            std::mem::size_of::<ShapeRef>(),
            2 * std::mem::size_of::<usize>()
        );
    }

    /// A view of a `Shape` and a view of the concrete shape inside it are equal, and
    /// `to_shape` gives the shape back.
    #[test]
    fn views_of_shape_and_concrete_agree() {
        let one = crate::test_util::OneOfEach::new();
        let (shapes, views) = (one.shapes(), one.views());
        let pose = Isometry::translation(1.0, -2.0, 0.5);
        for (s, v) in shapes.iter().zip(views) {
            assert_eq!(s.view(), v);
            assert_eq!(ShapeRef::from(s).kind_name(), v.kind_name());
            assert_eq!(s.aabb(&pose), v.aabb(&pose));
            assert_eq!(&v.to_shape(), s);
        }
    }
}
