//! The general entry points: any shape against any other, each under a pose. These are
//! what the engine and the `micro` benchmark call; they dispatch on the kinds of the two shapes
//! at run time, to one file per shape pair.
//!
//! Both take each shape as `impl Into<`[`ShapeRef`]`>`: a `&Shape` (what the engine stores), a
//! reference to a concrete shape (`&Cuboid`, `&Ball`, `&Capsule`, `&Triangle`,
//! `&ConvexPolyhedron`, `&Compound`, the way parry takes `&dyn Shape`), or a [`ShapeRef`]
//! itself:
//!
//! ```
//! use tumble_narrowphase::math::{Isometry, Vector};
//! use tumble_narrowphase::query;
//! use tumble_narrowphase::shape::{Ball, Cuboid, Shape};
//!
//! let cube = Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap();
//! let ball = Shape::from(Ball::new(0.25).unwrap());
//! let (pa, pb) = (Isometry::identity(), Isometry::translation(0.7, 0.0, 0.0));
//! assert!(query::intersection_test(&pa, &cube, &pb, &ball).unwrap());
//! assert!(!query::intersection_test(&pa, &cube, &Isometry::translation(0.8, 0.0, 0.0), &ball).unwrap());
//! ```
//!
//! Distances and closest points ([`distance`], [`signed_distance`], [`closest_points`]) take
//! the same arguments: closed forms for ball–ball, ball–cuboid, capsule–ball and
//! capsule–capsule, GJK on the shapes' cores for every other convex pair, the contact routine's
//! minimal translation for the depth of overlapping pairs (see [`ClosestPoints`]); a compound
//! by the least over its children; a mesh or heightfield by the least over the triangles near
//! the other shape ([`crate::mesh::distance`](mod@crate::mesh::distance)); a mesh against a
//! mesh has none (`Unsupported`).
//!
//! | pair | boolean test | contact |
//! |---|---|---|
//! | ball–ball | squared distance | one point |
//! | ball–cuboid | closest point in the box frame, squared distance | one point (nearest face when inside) |
//! | cuboid–cuboid | 15-axis SAT on the relative rotation (`sat::cuboid_cuboid`) | SAT + reference/incident face clipping, ≤ 4 points; edge–edge one point |
//! | triangle–cuboid | 13-axis SAT in the box frame (`sat::triangle_cuboid`) | the same 13 axes in the box frame + reference/incident face clipping, ≤ 4 points; edge–edge one point |
//! | triangle–triangle | 11-axis SAT, 17 when parallel (`sat::triangle_triangle`) | generic SAT + clipping (polyhedron path) |
//! | capsule–ball, capsule–capsule | closest points of the cores | one point (two for parallel capsules) |
//! | capsule–polyhedron (box, triangle, hull) | GJK distance of the core | GJK while apart, segment SAT once the core penetrates; two points on a face |
//! | ball–polyhedron (triangle, hull) | GJK distance of the centre | one point |
//! | mesh or heightfield–any convex shape | each candidate triangle's test ([`crate::mesh`]) | the triangles' manifolds reduced to one of ≤ 4 points ([`crate::mesh::reduce`](mod@crate::mesh::reduce)) |
//! | mesh or heightfield–mesh or heightfield | unsupported | unsupported |
//! | compound–any shape (mesh, heightfield and compound included) | any child's test, children culled by boxes ([`Compound`](crate::shape::Compound)) | the children's manifolds: one as it is, several reduced to one of ≤ 4 points ([`crate::mesh::reduce_parts`], ids mixed by [`compound_feature_id`](crate::shape::compound_feature_id)); one normal per pair (see [`Compound`](crate::shape::Compound)) |
//! | polyhedron–polyhedron | generic SAT (`sat::convex`) up to `SAT_MAX_FACES` faces, GJK beyond | generic SAT for the axis up to `SAT_MAX_FACES` faces; beyond, Gauss-map SAT (`sat::gauss_map`) for the axis, GJK distance for apart pairs; clipping |
//!
//! ## The frame of computation
//!
//! Every query is as exact with the pair 10⁵ m from the origin as with it next to the origin:
//! - ball–ball, ball–cuboid and cuboid–cuboid, and the boolean tests of triangle–cuboid and
//!   triangle–triangle, work on the pose of one shape relative to the other (the difference
//!   of the two translations, exact for a nearby pair);
//! - every other convex pair runs with both poses moved so that the midpoint of their
//!   translations is the origin (`query/frame.rs`; the midpoint is the same either way round,
//!   so swapping A and B gives the same answer), its contact points moved back to world space;
//! - a mesh or heightfield pair runs with the mesh's position as the origin ([`crate::mesh`]),
//!   a compound pair with the compound's ([`Compound`](crate::shape::Compound)), each part
//!   then through the queries above;
//! - [`closest_points`], [`distance`] and [`signed_distance`] run every pair in the
//!   midpoint frame, as do [`crate::sweep::cast_shape`] and [`crate::sweep::time_of_impact`]
//!   (the whole motion), and [`crate::ray::ray_shape`] casts from the ray's origin taken
//!   relative to the shape's position.
//!
//! The per-pair functions exported here (`contact_convex_capsule`, `contact_capsule_ball`,
//! ...) compute in whatever frame their poses and points are given in: called directly with
//! world coordinates far from the origin, they round at the scale of those coordinates.

mod ball_ball;
mod ball_cuboid;
mod capsule_round;
mod closest;
mod closest_gjk;
mod closest_round;
pub(crate) mod compound;
mod convex_ball;
mod convex_capsule;
mod convex_convex;
mod cuboid_cuboid;
mod either_order;
mod frame;
mod triangle_cuboid;
mod triangle_triangle;

pub use ball_ball::{contact_ball_ball, intersection_ball_ball};
pub use ball_cuboid::{
    contact_cuboid_ball, intersection_ball_aabb, intersection_ball_obb, intersection_cuboid_ball,
};
pub use capsule_round::{
    contact_capsule_ball, contact_capsule_capsule, intersection_capsule_ball,
    intersection_capsule_capsule, CapsuleCore,
};
pub(crate) use closest::{check_pose, closest_points_in_frame};
pub use closest::{closest_points, distance, signed_distance, ClosestPoints, QueryError};
pub use closest_round::{
    closest_points_ball_ball, closest_points_capsule_ball, closest_points_capsule_capsule,
    closest_points_cuboid_ball,
};
pub use compound::{CompoundContact, CompoundRayHit};
pub use convex_ball::{contact_convex_ball, intersection_convex_ball};
pub use convex_capsule::{contact_convex_capsule, intersection_convex_capsule};
pub use convex_convex::{contact_convex_convex, intersection_convex_convex};
pub(crate) use convex_convex::{face_towards, manifold_from_axis};
pub use cuboid_cuboid::{
    contact_cuboid_cuboid, contact_cuboid_cuboid_frames, intersection_cuboid_cuboid, BoxFrame,
};
pub use either_order::{contact_any, intersects_any};
pub use triangle_cuboid::{contact_triangle_cuboid, intersection_triangle_cuboid};
pub(crate) use triangle_cuboid::{contact_triangle_cuboid_along, contact_triangle_cuboid_seen};
pub use triangle_triangle::intersection_triangle_triangle;

use crate::contact::Manifold;
use crate::math::{Isometry, Point, Real};
use crate::shape::{Ball, ConvexPolyhedron, Cuboid, ShapeRef};
pub(crate) use frame::Frame;
use std::borrow::Cow;
use std::fmt;

/// A pair of shapes for which the crate has no algorithm (a typed error, never a panic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnsupportedPair {
    /// Name of shape A's kind.
    pub a: &'static str,
    /// Name of shape B's kind.
    pub b: &'static str,
}

impl fmt::Display for UnsupportedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no collision algorithm for {} against {}",
            self.a, self.b
        )
    }
}

impl std::error::Error for UnsupportedPair {}

/// A round shape: a core (point or segment) plus a radius.
enum Round {
    Ball(Point, Real),
    Capsule(CapsuleCore),
}

fn round(pose: &Isometry, s: ShapeRef) -> Option<Round> {
    match s {
        ShapeRef::Ball(b) => Some(Round::Ball(pose.translation.vector.into(), b.radius())),
        ShapeRef::Capsule(c) => {
            let (a, b) = c.segment(pose);
            Some(Round::Capsule(CapsuleCore {
                a,
                b,
                radius: c.radius(),
            }))
        }
        _ => None,
    }
}

/// A mesh among the shape kinds: its pairs go to the mesh's own queries ([`crate::mesh`]).
#[derive(Clone, Copy)]
enum Mesh<'a> {
    Tri(&'a crate::mesh::TriMesh),
    Height(&'a crate::mesh::HeightField),
}

impl<'a> Mesh<'a> {
    fn of(s: ShapeRef<'a>) -> Option<Self> {
        match s {
            ShapeRef::TriMesh(m) => Some(Mesh::Tri(m)),
            ShapeRef::HeightField(h) => Some(Mesh::Height(h)),
            _ => None,
        }
    }

    fn intersection_test(
        self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
    ) -> Result<bool, UnsupportedPair> {
        match self {
            Mesh::Tri(m) => m.intersection_test(mesh_pose, other_pose, other),
            Mesh::Height(h) => h.intersection_test(mesh_pose, other_pose, other),
        }
    }

    fn contact(
        self,
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        match self {
            Mesh::Tri(m) => m.contact(mesh_pose, other_pose, other, prediction),
            Mesh::Height(h) => h.contact(mesh_pose, other_pose, other, prediction),
        }
    }
}

/// The shape as a polyhedron (boxes and triangles are converted, hulls borrowed).
fn polyhedral(s: ShapeRef<'_>) -> Option<Cow<'_, ConvexPolyhedron>> {
    match s {
        ShapeRef::Cuboid(c) => Some(Cow::Owned(ConvexPolyhedron::from_cuboid(c))),
        ShapeRef::Triangle(t) => Some(Cow::Owned(ConvexPolyhedron::from_triangle(t))),
        ShapeRef::Convex(p) => Some(Cow::Borrowed(p)),
        _ => None,
    }
}

/// True when shape `a` at `pose_a` and shape `b` at `pose_b` overlap or touch. See the module
/// docs for the algorithm of each pair and for what `a` and `b` may be.
#[inline(always)]
pub fn intersection_test<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
) -> Result<bool, UnsupportedPair> {
    intersection_test_views(pose_a, a.into(), pose_b, b.into())
}

/// [`intersection_test`] on the two views: the dispatch on their kinds.
///
/// The match compiles to compare-and-branch instructions on the two kinds (one fused
/// micro-op each on x86-64): triangle–cuboid is reached after 2, cuboid–ball and
/// triangle–triangle after 3, ball–ball and cuboid–cuboid after 4, ball–cuboid and
/// cuboid–triangle after 5. An exhaustive search over decision trees of one-instruction tests
/// (either kind against a constant: `==`, `<`, bit test; the two kinds against each other:
/// `==`, `<`, `&`), under every numbering of the kinds, finds none that shortens ball–ball,
/// triangle–cuboid, cuboid–ball or triangle–triangle without lengthening another pair: a pair
/// needs tests that pin both kinds, and only one path of a tree is two tests long. Ball–ball
/// in 3 would cost cuboid–ball a fourth test; in 2, triangle–cuboid a third.
#[inline(always)]
fn intersection_test_views(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<bool, UnsupportedPair> {
    Ok(match (a, b) {
        (ShapeRef::Ball(ba), ShapeRef::Ball(bb)) => {
            ball_ball::intersection_ball_ball_poses(pose_a, ba.radius(), pose_b, bb.radius())
        }
        (ShapeRef::Cuboid(ca), ShapeRef::Cuboid(cb)) => {
            intersection_cuboid_cuboid(pose_a, &ca.half_extents(), pose_b, &cb.half_extents())
        }
        (ShapeRef::Cuboid(c), ShapeRef::Ball(b)) => cuboid_ball_test(pose_a, c, pose_b, b),
        (ShapeRef::Ball(b), ShapeRef::Cuboid(c)) => cuboid_ball_test(pose_b, c, pose_a, b),
        (ShapeRef::Triangle(t), ShapeRef::Cuboid(c)) => {
            intersection_triangle_cuboid(pose_a, t, pose_b, &c.half_extents())
        }
        (ShapeRef::Cuboid(c), ShapeRef::Triangle(t)) => {
            intersection_triangle_cuboid(pose_b, t, pose_a, &c.half_extents())
        }
        (ShapeRef::Triangle(ta), ShapeRef::Triangle(tb)) => {
            intersection_triangle_triangle(pose_a, ta, pose_b, tb)
        }
        _ => return generic_intersection(pose_a, a, pose_b, b),
    })
}

/// [`intersection_cuboid_ball`] on the views: box `c` at `pose_c`, ball `b` at `pose_b` (the
/// dispatch's two orders of the pair share it).
#[inline(always)]
fn cuboid_ball_test(pose_c: &Isometry, c: &Cuboid, pose_b: &Isometry, b: &Ball) -> bool {
    let center = pose_b.translation.vector.into();
    intersection_cuboid_ball(pose_c, &c.half_extents(), &center, b.radius())
}

/// The pairs of [`intersection_test`] without a relative-pose kernel: a mesh pair (in the
/// mesh's frame), else [`convex_intersection`] with both poses moved to their midpoint.
fn generic_intersection(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<bool, UnsupportedPair> {
    if let Some(r) = compound::intersection_pair(pose_a, a, pose_b, b) {
        return r;
    }
    match (Mesh::of(a), Mesh::of(b)) {
        (Some(_), Some(_)) => return Err(unsupported(a, b)),
        (Some(m), None) => return m.intersection_test(pose_a, pose_b, b),
        (None, Some(m)) => return m.intersection_test(pose_b, pose_a, a),
        (None, None) => {}
    }
    let f = Frame::between(pose_a, pose_b);
    convex_intersection(&f.pose(pose_a), a, &f.pose(pose_b), b)
}

/// The typed error of the pair of kinds of `a` and `b`.
fn unsupported(a: ShapeRef, b: ShapeRef) -> UnsupportedPair {
    UnsupportedPair {
        a: a.kind_name(),
        b: b.kind_name(),
    }
}

/// The boolean test of two convex shapes (no mesh) on the poses as given.
fn convex_intersection(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Result<bool, UnsupportedPair> {
    let unsupported = || unsupported(a, b);
    Ok(match (round(pose_a, a), round(pose_b, b)) {
        (Some(Round::Ball(ca, ra)), Some(Round::Ball(cb, rb))) => {
            intersection_ball_ball(&ca, ra, &cb, rb)
        }
        (Some(Round::Capsule(c)), Some(Round::Ball(p, r)))
        | (Some(Round::Ball(p, r)), Some(Round::Capsule(c))) => {
            intersection_capsule_ball(&c, &p, r)
        }
        (Some(Round::Capsule(ca)), Some(Round::Capsule(cb))) => {
            intersection_capsule_capsule(&ca, &cb)
        }
        (None, Some(rb)) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            intersection_poly_round(pose_a, &pa, &rb)
        }
        (Some(ra), None) => {
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            intersection_poly_round(pose_b, &pb, &ra)
        }
        (None, None) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            intersection_convex_convex(pose_a, &pa, pose_b, &pb)
        }
    })
}

fn intersection_poly_round(pose: &Isometry, p: &ConvexPolyhedron, r: &Round) -> bool {
    match r {
        Round::Ball(c, rad) => intersection_convex_ball(pose, p, c, *rad),
        Round::Capsule(c) => intersection_convex_capsule(pose, p, c),
    }
}

/// The contact manifold of `a` at `pose_a` against `b` at `pose_b`, if the shapes penetrate or
/// are closer than `prediction` metres (≥ 0). Normal from A to B, world space; depth positive
/// when penetrating. See [`crate::contact`] for the conventions and the module docs for the
/// algorithm of each pair and for what `a` and `b` may be.
#[inline(always)]
pub fn contact<'a, 'b>(
    pose_a: &Isometry,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    b: impl Into<ShapeRef<'b>>,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    contact_views::<true>(pose_a, a.into(), pose_b, b.into(), prediction)
}

/// [`contact`] on poses already in the frame the caller computes in (a sweep's, a closest-point
/// query's): no pair is moved to another origin, and the points are in that frame.
pub(crate) fn contact_in_frame(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    contact_views::<false>(pose_a, a, pose_b, b, prediction)
}

/// [`contact`] on the two views: the dispatch on their kinds. `PAIR_FRAME`: whether the pairs
/// without a relative-pose kernel move to the midpoint of their poses ([`Frame::between`], the
/// public entry points) or take the poses as given (a caller already in a frame next to the
/// pair, as a sweep is). A constant, so that the hot pairs' path takes no extra argument.
fn contact_views<const PAIR_FRAME: bool>(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    Ok(match (a, b) {
        (ShapeRef::Ball(ba), ShapeRef::Ball(bb)) => contact_ball_ball(
            &pose_a.translation.vector.into(),
            ba.radius(),
            &pose_b.translation.vector.into(),
            bb.radius(),
            prediction,
        ),
        (ShapeRef::Cuboid(ca), ShapeRef::Cuboid(cb)) => contact_cuboid_cuboid(
            pose_a,
            &ca.half_extents(),
            pose_b,
            &cb.half_extents(),
            prediction,
        ),
        (ShapeRef::Cuboid(c), ShapeRef::Ball(b)) => {
            cuboid_ball_contact(pose_a, c, pose_b, b, prediction)
        }
        (ShapeRef::Ball(b), ShapeRef::Cuboid(c)) => {
            cuboid_ball_contact(pose_b, c, pose_a, b, prediction).map(|m| m.flipped())
        }
        _ => return generic_contact::<PAIR_FRAME>(pose_a, a, pose_b, b, prediction),
    })
}

/// [`contact_cuboid_ball`] on the views: box `c` at `pose_c` (A), ball `b` at `pose_b` (B)
/// (the dispatch's two orders of the pair share it).
#[inline(always)]
fn cuboid_ball_contact(
    pose_c: &Isometry,
    c: &Cuboid,
    pose_b: &Isometry,
    b: &Ball,
    prediction: Real,
) -> Option<Manifold> {
    let center = pose_b.translation.vector.into();
    contact_cuboid_ball(pose_c, &c.half_extents(), &center, b.radius(), prediction)
}

/// The pairs of [`contact`] without a relative-pose kernel: a compound or mesh pair (in its
/// own frame), else [`convex_contact`] in the frame `PAIR_FRAME` says ([`contact_views`]), its
/// points brought to world space.
fn generic_contact<const PAIR_FRAME: bool>(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    if let Some(r) = compound::contact_pair(pose_a, a, pose_b, b, prediction) {
        return r;
    }
    match (Mesh::of(a), Mesh::of(b)) {
        (Some(_), Some(_)) => return Err(unsupported(a, b)),
        (Some(m), None) => return m.contact(pose_a, pose_b, b, prediction),
        (None, Some(m)) => {
            return m
                .contact(pose_b, pose_a, a, prediction)
                .map(|c| c.map(|c| c.flipped()))
        }
        (None, None) => {}
    }
    let f = if PAIR_FRAME {
        Frame::between(pose_a, pose_b)
    } else {
        Frame::world()
    };
    let mut m = convex_contact(&f.pose(pose_a), a, &f.pose(pose_b), b, prediction);
    if let Ok(Some(m)) = &mut m {
        f.manifold_to_world(m);
    }
    m
}

/// The contact of two convex shapes (no mesh) on the poses as given, points in their frame.
#[inline(always)]
fn convex_contact(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    let unsupported = || unsupported(a, b);
    Ok(match (round(pose_a, a), round(pose_b, b)) {
        (Some(Round::Ball(ca, ra)), Some(Round::Ball(cb, rb))) => {
            contact_ball_ball(&ca, ra, &cb, rb, prediction)
        }
        (Some(Round::Capsule(c)), Some(Round::Ball(p, r))) => {
            contact_capsule_ball(&c, &p, r, prediction)
        }
        (Some(Round::Ball(p, r)), Some(Round::Capsule(c))) => {
            contact_capsule_ball(&c, &p, r, prediction).map(|m| m.flipped())
        }
        (Some(Round::Capsule(ca)), Some(Round::Capsule(cb))) => {
            contact_capsule_capsule(&ca, &cb, prediction)
        }
        (None, Some(rb)) => {
            let pa = polyhedral(a).ok_or_else(unsupported)?;
            contact_poly_round(pose_a, &pa, &rb, prediction)
        }
        (Some(ra), None) => {
            let pb = polyhedral(b).ok_or_else(unsupported)?;
            contact_poly_round(pose_b, &pb, &ra, prediction).map(|m| m.flipped())
        }
        (None, None) => match (a, b) {
            (ShapeRef::Triangle(t), ShapeRef::Cuboid(c)) => {
                contact_triangle_cuboid(pose_a, t, pose_b, &c.half_extents(), prediction)
            }
            (ShapeRef::Cuboid(c), ShapeRef::Triangle(t)) => {
                contact_triangle_cuboid(pose_b, t, pose_a, &c.half_extents(), prediction)
                    .map(|m| m.flipped())
            }
            _ => {
                let pa = polyhedral(a).ok_or_else(unsupported)?;
                let pb = polyhedral(b).ok_or_else(unsupported)?;
                contact_convex_convex(pose_a, &pa, pose_b, &pb, prediction)
            }
        },
    })
}

fn contact_poly_round(
    pose: &Isometry,
    p: &ConvexPolyhedron,
    r: &Round,
    prediction: Real,
) -> Option<Manifold> {
    match r {
        Round::Ball(c, rad) => contact_convex_ball(pose, p, c, *rad, prediction),
        Round::Capsule(c) => contact_convex_capsule(pose, p, c, prediction),
    }
}

/// True when `(value, part)` comes before the best so far: a smaller value, or the same value
/// on a lower part (a compound's child, a mesh's triangle), so that the least over the parts
/// does not depend on the order they are asked in.
#[inline]
pub(crate) fn better(value: Real, part: u32, best: Option<(Real, u32)>) -> bool {
    best.is_none_or(|(v, c)| value < v || (value == v && part < c))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rotation, Translation, Vector};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn pose(r: &mut ChaCha8Rng) -> Isometry {
        let v = Vector::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        let q = nalgebra::Quaternion::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        );
        Isometry::from_parts(Translation::from(v), Rotation::from_quaternion(q))
    }

    /// The entry points give the same answers (bit for bit, errors included) whether a shape
    /// comes as a `&Shape`, as a reference to the concrete shape or as a `ShapeRef`, for every
    /// pair of kinds in both orders.
    #[test]
    fn concrete_views_match_shapes() {
        let one = crate::test_util::OneOfEach::new();
        let (shapes, views) = (one.shapes(), one.views());
        let (ball, cuboid, tri) = (&one.ball, &one.cuboid, &one.tri);
        let mut r = ChaCha8Rng::seed_from_u64(11);
        let mut hits = 0;
        for _ in 0..40 {
            let (pa, pb) = (pose(&mut r), pose(&mut r));
            for (sa, va) in shapes.iter().zip(views) {
                for (sb, vb) in shapes.iter().zip(views) {
                    let t = intersection_test(&pa, sa, &pb, sb);
                    assert_eq!(t, intersection_test(&pa, va, &pb, vb));
                    hits += t.unwrap_or(false) as usize;
                    let c = contact(&pa, sa, &pb, sb, 0.05);
                    assert_eq!(c, contact(&pa, va, &pb, vb, 0.05));
                }
            }
        }
        // The two typed calls as a user writes them, without a `Shape` anywhere.
        let near = Isometry::translation(0.8, 0.0, 0.0);
        assert!(intersection_test(&Isometry::identity(), cuboid, &near, ball).unwrap());
        assert!(contact(&Isometry::identity(), tri, &near, cuboid, 0.0)
            .unwrap()
            .is_some());
        assert!(hits > 0, "no pair overlapped: the poses are too far apart");
    }
}
