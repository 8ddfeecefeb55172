//! The compound shape: several convex shapes under their own poses, collided and queried as
//! one. What it is, its frames and its queries are described on [`Compound`]; the queries
//! themselves live in `query/compound.rs`.

use super::{Shape, ShapeRef};
use crate::bounding::Aabb;
use crate::error::ShapeError;
use crate::math::{is_finite_vector, Isometry, Real};
use crate::mesh::bvh::Bvh;
#[cfg(feature = "serde")]
use serde::{de, Deserialize, Deserializer, Serialize, Serializer};

/// The most children a [`Compound`] may have (2¹⁶): child indices fit the contact feature ids
/// ([`compound_feature_id`]) and the hierarchy's depth stays small.
pub const MAX_COMPOUND_CHILDREN: usize = 1 << 16;

/// Largest departure of a child rotation's squared norm from 1 that [`Compound::new`] accepts
/// (the tolerance of the crate's pose checks).
const UNIT_TOLERANCE: Real = 1e-3;

/// Up to this many children, the world box of a compound is the union of its children's world
/// boxes (tight); beyond, its box in its own frame, rotated (cheaper, looser when rotated).
const EXACT_AABB_CHILDREN: usize = 16;

/// Several convex shapes ("children"), each placed by its own pose in the compound's frame,
/// collided and queried as one shape — parry's `Compound`, rapier's `SharedShape::compound`,
/// Box2D's several shapes on one body. Shared in a [`Shape`] as `Shape::Compound(Arc<Compound>)`.
///
/// **Children.** Balls, cuboids, capsules, triangles and convex polyhedra: the shapes the
/// crate's pair kernels take whole. A triangle mesh, a heightfield or another compound is
/// refused ([`ShapeError::CompoundChild`]): a compound of meshes would need a mesh–mesh
/// algorithm, and one level of nesting keeps every query a loop over convex children. At
/// least one child and at most [`MAX_COMPOUND_CHILDREN`] ([`ShapeError::CompoundSize`]).
/// Children may overlap; the compound is their union.
///
/// **Frames.** Each child's pose maps the child's local frame into the compound's; the
/// compound's pose maps that into the world. The compound's origin is wherever its children
/// were placed from: it need not be the centre of mass ([`Shape::mass_properties`] gives the
/// centre of mass of the union of the children at a uniform density, in the compound's frame).
///
/// **Queries.** Every query runs on the children — convex, so the crate's pair kernels take
/// them — and combines their answers. The children tried are those whose box meets the other
/// shape's box taken into the compound's frame (grown by the prediction distance, or swept by
/// the relative motion), found in a bounding volume hierarchy over the children's boxes (the
/// binned-SAH tree of the meshes, [`crate::mesh`]). Ties go to the lower child index, so every
/// answer is deterministic. Each query computes with both poses moved so that the compound's
/// position is the origin, its children placed there by the compound's rotation and their own
/// poses, and its points moved back to world space: a compound far from the origin is
/// collided as exactly as at it.
///
/// | query | per child | combined |
/// |---|---|---|
/// | boolean test ([`Compound::intersection_test`]) | [`crate::query::intersects_any`] | any child |
/// | contact ([`Compound::contact`]) | [`crate::query::contact_any`] | one manifold of ≤ 4 points: a single child's as it is, several reduced by [`crate::mesh::reduce_parts`] (one normal, the deepest child's); ids [`compound_feature_id`] |
/// | distance, closest points | [`crate::query::distance`], [`crate::query::closest_points`] | the least signed distance (children tried nearest box first, stopped once a box is farther than the best) |
/// | ray ([`Compound::cast_ray`]) | [`crate::ray::ray_shape`] at the child's pose | the least `t` |
/// | [`crate::sweep::cast_shape`] | the cast of the child | the earliest time of impact |
/// | [`crate::sweep::time_of_impact`] | the time of impact of the child | the earliest; none when a child starts within `slop` (the discrete solver's case, as for a single shape) |
///
/// A compound against a compound takes A's children against B whole, and B's children against
/// each of A's (culled by that child's box): child pairs are culled by boxes on both sides, and
/// each point's feature id mixes both child indices.
///
/// **Limits.** The contact of a compound has one normal (a world keeps one manifold per pair of
/// bodies): a child whose own contact faces away from the deepest child's normal is dropped
/// (see [`crate::mesh::reduce`](mod@crate::mesh::reduce)), so a compound gripping a shape
/// between two of its children is held from one side at a time. For overlapping shapes, the
/// closest points and signed distance are those of the most deeply penetrating child: their
/// depth is that child's, a lower bound of the translation that separates the whole compound.
/// A child and a mesh have no distance algorithm, so neither does a compound and a mesh.
///
/// ```
/// use tumble_narrowphase::math::{Isometry, Vector};
/// use tumble_narrowphase::shape::{Ball, Compound, Cuboid, Shape};
///
/// // A dumbbell: a bar along x with a ball at each end.
/// let bar = Cuboid::new(Vector::new(0.5, 0.05, 0.05)).unwrap();
/// let ball = Ball::new(0.15).unwrap();
/// let dumbbell = Compound::new(vec![
///     (Isometry::identity(), bar.into()),
///     (Isometry::translation(-0.5, 0.0, 0.0), ball.into()),
///     (Isometry::translation(0.5, 0.0, 0.0), ball.into()),
/// ])
/// .unwrap();
/// assert_eq!(dumbbell.len(), 3);
/// let aabb = dumbbell.local_aabb();
/// assert!((aabb.maxs.x - 0.65).abs() < 1e-6 && (aabb.maxs.y - 0.15).abs() < 1e-6);
/// // A compound is not a child of another.
/// let nested = Compound::new(vec![(Isometry::identity(), Shape::from(dumbbell))]);
/// assert!(nested.is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Compound {
    /// Each child's pose (compound frame) and shape, in the order given.
    children: Vec<(Isometry, Shape)>,
    /// Each child's box in the compound's frame (exact: the child's own box at its pose).
    aabbs: Vec<Aabb>,
    /// The union of `aabbs`.
    local_aabb: Aabb,
    /// The hierarchy over `aabbs`, each grown by `pad`.
    bvh: Bvh,
    /// The growth of the children's boxes in the culling tests (metres, 10⁻⁵ of the compound's
    /// extent from its origin, as the meshes' boxes): rounding in the other shape's box, taken
    /// into the compound's frame, cannot lose a child that touches it.
    pad: Real,
}

impl Compound {
    /// A compound of `children`, each `(pose, shape)` with the pose mapping the child's frame
    /// into the compound's (metres). Each rotation is renormalised. Errors:
    /// [`ShapeError::CompoundSize`] for no child or more than [`MAX_COMPOUND_CHILDREN`];
    /// [`ShapeError::CompoundChild`] (naming the child) for a child that is not convex (a
    /// triangle mesh, a heightfield, a compound), a pose that is not finite or whose rotation
    /// is not a unit quaternion (squared norm more than 10⁻³ from 1), a ball or cuboid of
    /// non-positive size, or a box that is not finite.
    pub fn new(children: Vec<(Isometry, Shape)>) -> Result<Self, ShapeError> {
        Self::build(children, true)
    }

    /// [`Compound::new`], renormalising the rotations or not (a compound read back keeps the
    /// rotations it was written with, so it answers every query bit for bit as the one
    /// written).
    fn build(mut children: Vec<(Isometry, Shape)>, renormalise: bool) -> Result<Self, ShapeError> {
        let count = children.len();
        if count == 0 || count > MAX_COMPOUND_CHILDREN {
            return Err(ShapeError::CompoundSize {
                count,
                max: MAX_COMPOUND_CHILDREN,
            });
        }
        let mut aabbs = Vec::with_capacity(count);
        for (index, (pose, shape)) in children.iter_mut().enumerate() {
            let refuse = |reason| ShapeError::CompoundChild { index, reason };
            check_child(shape).map_err(refuse)?;
            let q = pose.rotation.coords;
            if !(is_finite_vector(&pose.translation.vector) && q.iter().all(|c| c.is_finite())) {
                return Err(refuse("its pose is not finite"));
            }
            if (q.norm_squared() - 1.0).abs() > UNIT_TOLERANCE {
                return Err(refuse("its rotation is not a unit quaternion"));
            }
            if renormalise {
                pose.rotation.renormalize();
            }
            let b = shape.aabb(pose);
            if !b.is_valid() {
                return Err(refuse("its box is not finite"));
            }
            aabbs.push(b);
        }
        let local_aabb = aabbs[1..].iter().fold(aabbs[0], |u, b| u.merged(b));
        if !local_aabb.is_valid() {
            return Err(ShapeError::NonFinite("compound box"));
        }
        let scale = local_aabb
            .mins
            .coords
            .amax()
            .max(local_aabb.maxs.coords.amax());
        let pad = crate::mesh::box_pad(scale);
        let bvh = Bvh::build(&aabbs, pad);
        Ok(Self {
            children,
            aabbs,
            local_aabb,
            bvh,
            pad,
        })
    }

    /// The children, `(pose in the compound's frame, shape)`, in the order given.
    #[inline]
    pub fn children(&self) -> &[(Isometry, Shape)] {
        &self.children
    }

    /// Number of children (at least 1).
    #[inline]
    pub fn len(&self) -> usize {
        self.children.len()
    }

    /// Always false: a compound has at least one child.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.children.is_empty()
    }

    /// Child `i`'s pose (compound frame) and shape, `None` out of range.
    #[inline]
    pub fn child(&self, i: usize) -> Option<&(Isometry, Shape)> {
        self.children.get(i)
    }

    /// Each child's box in the compound's frame, in child order.
    #[inline]
    pub fn child_aabbs(&self) -> &[Aabb] {
        &self.aabbs
    }

    /// The box of the whole compound in its own frame (the union of the children's boxes).
    #[inline]
    pub fn local_aabb(&self) -> Aabb {
        self.local_aabb
    }

    /// The world box of the compound placed by `pose`: the union of the children's world boxes
    /// (tight for balls and boxes) up to 16 children, the local box rotated beyond.
    pub fn aabb(&self, pose: &Isometry) -> Aabb {
        if self.children.len() > EXACT_AABB_CHILDREN {
            return crate::mesh::world_aabb(&self.local_aabb, pose);
        }
        let (p0, s0) = &self.children[0];
        self.children[1..]
            .iter()
            .fold(s0.aabb(&(pose * p0)), |u, (p, s)| {
                u.merged(&s.aabb(&(pose * p)))
            })
    }

    /// Child `i` viewed, with its world pose under the compound's pose `pose`.
    #[inline]
    pub(crate) fn placed(&self, i: u32, pose: &Isometry) -> (Isometry, ShapeRef<'_>) {
        let (p, s) = &self.children[i as usize];
        (pose * p, s.view())
    }

    /// Calls `f` with the index of every child whose (padded) box overlaps `q` (compound
    /// frame), in the hierarchy's order (fixed by the children: callers that keep one child
    /// break ties by the lower index), until `f` returns false.
    #[inline]
    pub(crate) fn visit(&self, q: &Aabb, mut f: impl FnMut(u32) -> bool) {
        let q = q.loosened(self.pad);
        self.bvh
            .visit_aabb(&q, |i| !self.aabbs[i as usize].intersects(&q) || f(i));
    }

    /// The hierarchy over the children's boxes (for the ray casts).
    #[inline]
    pub(crate) fn bvh(&self) -> &Bvh {
        &self.bvh
    }

    /// Checks again what [`Compound::new`] checks (the child count; each child convex, of
    /// positive size, with a finite unit pose and a finite box), as a world does for a decoded
    /// snapshot. The boxes and the hierarchy are private and built from the children, so they
    /// always agree with them.
    pub fn validate(&self) -> Result<(), ShapeError> {
        Self::build(self.children.clone(), false).map(|_| ())
    }
}

/// Why `shape` cannot be a compound's child, if it cannot.
fn check_child(shape: &Shape) -> Result<(), &'static str> {
    match shape {
        Shape::Ball(b) => super::Ball::new(b.radius())
            .map(|_| ())
            .map_err(|_| "its radius is not finite and positive"),
        Shape::Cuboid(c) => super::Cuboid::new(c.half_extents())
            .map(|_| ())
            .map_err(|_| "its half-extents are not finite and positive"),
        Shape::Capsule(_) | Shape::Triangle(_) | Shape::Convex(_) => Ok(()),
        Shape::TriMesh(_) => Err("a triangle mesh is not convex (make it a body of its own)"),
        Shape::HeightField(_) => Err("a heightfield is not convex (make it a body of its own)"),
        Shape::Compound(_) => Err("a compound cannot be nested (list its children instead)"),
    }
}

/// The feature id of point `id` of child `child`'s manifold in a reduced compound manifold
/// ([`crate::mesh::reduce_parts`]): the point's id rotated by 7 bits, xor the child index times
/// an odd constant (Murmur3's), so the same child and feature keep the same id from step to
/// step and two children's points differ. Unlike [`crate::mesh::mesh_feature_id`] it is not
/// symmetric in its two layers, so a point of child `a` of one compound against child `b` of
/// another keeps an id apart from child `b` against child `a`.
#[inline]
pub fn compound_feature_id(child: u32, id: u32) -> u32 {
    id.rotate_left(7) ^ child.wrapping_mul(0x85EB_CA6B)
}

impl PartialEq for Compound {
    /// Two compounds are equal when their children are (the rest is built from them).
    fn eq(&self, other: &Self) -> bool {
        self.children == other.children
    }
}

/// Written as the list of children (pose, shape); read back through the constructor's checks
/// (a corrupt input is a decoding error naming the [`ShapeError`]), without renormalising the
/// rotations, so the compound read back is the one written, bit for bit.
#[cfg(feature = "serde")]
impl Serialize for Compound {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.children.serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> Deserialize<'de> for Compound {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let children = Vec::<(Isometry, Shape)>::deserialize(d)?;
        Self::build(children, false).map_err(de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point, Rotation, Vector};
    use crate::shape::{Ball, Capsule, Cuboid, Triangle};
    use std::sync::Arc;

    fn unit_box() -> Shape {
        Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap().into()
    }

    #[test]
    fn refuses_what_it_must() {
        assert_eq!(
            Compound::new(vec![]).unwrap_err(),
            ShapeError::CompoundSize {
                count: 0,
                max: MAX_COMPOUND_CHILDREN
            }
        );
        let mesh = crate::mesh::TriMesh::new(
            &[
                Point::origin(),
                Point::new(1.0, 0.0, 0.0),
                Point::new(0.0, 0.0, 1.0),
            ],
            &[[0, 1, 2]],
        )
        .unwrap();
        let ok = (Isometry::identity(), unit_box());
        for (bad, index) in [
            (Shape::from(mesh), 1),
            (
                Shape::Compound(Arc::new(Compound::new(vec![ok.clone()]).unwrap())),
                1,
            ),
        ] {
            let e = Compound::new(vec![ok.clone(), (Isometry::identity(), bad)]).unwrap_err();
            assert!(
                matches!(e, ShapeError::CompoundChild { index: i, .. } if i == index),
                "{e}"
            );
        }
        let mut nan = Isometry::identity();
        nan.translation.vector.x = Real::NAN;
        let mut skew = Isometry::identity();
        skew.rotation = Rotation::new_unchecked(nalgebra::Quaternion::new(1.1, 0.0, 0.0, 0.0));
        for pose in [nan, skew] {
            let e = Compound::new(vec![ok.clone(), ok.clone(), (pose, unit_box())]).unwrap_err();
            assert!(
                matches!(e, ShapeError::CompoundChild { index: 2, .. }),
                "{e}"
            );
        }
        let far = Isometry::translation(Real::MAX, 0.0, 0.0);
        let huge = Shape::from(Cuboid::new(Vector::repeat(1e38)).unwrap());
        assert!(Compound::new(vec![(far, huge)]).is_err());
        let too_many = vec![ok.clone(); MAX_COMPOUND_CHILDREN + 1];
        assert!(matches!(
            Compound::new(too_many),
            Err(ShapeError::CompoundSize { .. })
        ));
        // Every convex kind is a child.
        let tri = Triangle::new(
            Point::origin(),
            Point::new(1.0, 0.0, 0.0),
            Point::new(0.0, 1.0, 0.0),
        )
        .unwrap();
        let all = vec![
            (Isometry::identity(), Shape::from(Ball::new(0.5).unwrap())),
            (Isometry::translation(1.0, 0.0, 0.0), unit_box()),
            (
                Isometry::translation(2.0, 0.0, 0.0),
                Capsule::new(0.5, 0.2).unwrap().into(),
            ),
            (Isometry::translation(3.0, 0.0, 0.0), tri.into()),
            (
                Isometry::translation(4.0, 0.0, 0.0),
                crate::test_util::right_triangle_hull().into(),
            ),
        ];
        assert_eq!(Compound::new(all).unwrap().len(), 5);
    }

    /// The boxes: each child's own at its pose; the world box tight below the threshold and
    /// containing every child's beyond it.
    #[test]
    fn boxes_hold_every_child() {
        let rot = Rotation::from_euler_angles(0.3, -0.7, 1.1);
        for n in [3usize, 40] {
            let children: Vec<_> = (0..n)
                .map(|i| {
                    let p = Isometry::from_parts(
                        Vector::new(i as Real * 0.3, (i % 3) as Real, 0.0).into(),
                        Rotation::from_euler_angles(i as Real, 0.0, 0.5),
                    );
                    (p, unit_box())
                })
                .collect();
            let c = Compound::new(children).unwrap();
            let pose = Isometry::from_parts(Vector::new(1.0, -2.0, 3.0).into(), rot);
            let world = c.aabb(&pose);
            for (k, (p, s)) in c.children().iter().enumerate() {
                assert_eq!(c.child_aabbs()[k], s.aabb(p));
                let w = s.aabb(&(pose * p));
                assert!(world.loosened(1e-5).contains(&w));
            }
            // Visiting a box far away finds nothing; the whole box finds everyone once.
            let mut seen = Vec::new();
            c.visit(&c.local_aabb(), |i| {
                seen.push(i);
                true
            });
            seen.sort_unstable();
            assert_eq!(seen, (0..n as u32).collect::<Vec<_>>());
            seen.clear();
            let away =
                Aabb::new_unchecked(Point::new(50.0, 50.0, 50.0), Point::new(51.0, 51.0, 51.0));
            c.visit(&away, |i| {
                seen.push(i);
                true
            });
            assert!(seen.is_empty());
        }
    }

    /// Serde writes the children and reads them back bit for bit (no renormalisation), and a
    /// bad child read back is an error, not a broken compound.
    #[test]
    #[cfg(feature = "serde")]
    fn serde_round_trip_is_exact() {
        let q = Rotation::from_euler_angles(0.1, 0.2, 0.3);
        let c = Compound::new(vec![
            (
                Isometry::from_parts(Vector::new(0.1, 0.2, 0.3).into(), q),
                unit_box(),
            ),
            (
                Isometry::translation(1.0, 0.0, 0.0),
                Ball::new(0.25).unwrap().into(),
            ),
        ])
        .unwrap();
        let json = serde_json::to_string(&c).unwrap();
        let back: Compound = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
        for (a, b) in back.children().iter().zip(c.children()) {
            for (x, y) in a.0.rotation.coords.iter().zip(b.0.rotation.coords.iter()) {
                assert_eq!(x.to_bits(), y.to_bits());
            }
        }
        assert_eq!(back.child_aabbs(), c.child_aabbs());
        back.validate().unwrap();
        let bad = json.replace("0.25", "-0.25");
        assert!(serde_json::from_str::<Compound>(&bad).is_err());
        assert!(serde_json::from_str::<Compound>("[]").is_err());
    }
}
