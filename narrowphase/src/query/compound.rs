//! A compound ([`Compound`]) against any shape: every query runs on the compound's children and
//! combines their answers (the table and the limits are on [`Compound`]). The dispatch of
//! [`super::intersection_test`], [`super::contact`], [`super::distance`],
//! [`super::closest_points`], [`crate::sweep::cast_shape`] and [`crate::sweep::time_of_impact`]
//! hands every pair with a compound to the `…_pair` functions here, ahead of the mesh arms, so
//! that a compound meets a mesh child by child.
//!
//! Every query computes in the compound's own frame, translated, as a mesh's do: both poses
//! are moved so that the compound's position is the origin ([`Frame::at`]), each child is
//! placed by the compound's rotation and its own pose, each child pair goes through the
//! crate's queries at those poses, and the points are moved back to world space at the end.
//! A compound far from the origin is so collided as exactly as at it (its children's places
//! are not rounded at the scale of its world position).

use super::closest::{check_pose, ClosestPoints, QueryError};
use super::{better, contact_any, intersects_any, Frame, UnsupportedPair};
use crate::bounding::Aabb;
use crate::contact::Manifold;
use crate::math::{Isometry, Point, Real, Vector};
use crate::mesh::{contact_box, local_box, pose_ok, reduce_parts};
use crate::ray::{ray_shape, Ray, RayHit};
use crate::shape::{compound_feature_id, Compound, ShapeRef};
use crate::sweep::{cast_shape, time_of_impact, CastHit, CastOptions};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};
use std::cell::RefCell;

/// One child's contact with the other shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct CompoundContact {
    /// The child's index in [`Compound::children`].
    pub child: u32,
    /// The contact, with the conventions of [`crate::contact`]: world space, normal unit and
    /// pointing **from the compound (A) to the other shape (B)**, depth in metres, positive
    /// when penetrating; the child's own feature ids.
    pub manifold: Manifold,
}

impl crate::mesh::PartManifold for CompoundContact {
    #[inline]
    fn part(&self) -> u32 {
        self.child
    }
    #[inline]
    fn manifold(&self) -> &Manifold {
        &self.manifold
    }
}

/// The first child a ray meets.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct CompoundRayHit {
    /// The child's index in [`Compound::children`].
    pub child: u32,
    /// The hit, world space, `t` in units of the ray's direction (see [`RayHit`]).
    pub hit: RayHit,
}

/// The box `b` (compound frame) swept by `motion` (compound frame) and grown by `margin`; a
/// box holding everything when that overflows (every child is then tried).
fn swept(b: &Aabb, motion: &Vector, margin: Real) -> Aabb {
    let end = Aabb::new_unchecked(b.mins + motion, b.maxs + motion);
    let q = b.merged(&end).loosened(margin);
    if q.is_valid() {
        q
    } else {
        let inf = Vector::repeat(Real::INFINITY);
        Aabb::new_unchecked(Point::from(-inf), Point::from(inf))
    }
}

thread_local! {
    /// Buffers of per-child contacts, one taken per [`Compound::contact`] in progress (a
    /// compound against a compound nests one call in another), none allocated once grown.
    static BUFFERS: RefCell<Vec<Vec<CompoundContact>>> = const { RefCell::new(Vec::new()) };
}

impl Compound {
    /// True when some child (placed by `pose`, the compound's world pose) overlaps or touches
    /// `other` at `other_pose`. False for a non-finite pose; the error is that of a child's
    /// pair without an algorithm (none today: every convex shape meets every shape).
    pub fn intersection_test<'b>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
    ) -> Result<bool, UnsupportedPair> {
        let other = other.into();
        let Some(q) = local_box(pose, other_pose, other) else {
            return Ok(false);
        };
        let f = Frame::at(pose);
        let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
        let mut hit = false;
        let mut unsupported = None;
        self.visit(&q, |i| {
            let (p, s) = self.placed(i, pose);
            match intersects_any(&p, s, other_pose, other) {
                Some(true) => hit = true,
                Some(false) => {}
                None => {
                    unsupported = Some(UnsupportedPair {
                        a: s.kind_name(),
                        b: other.kind_name(),
                    })
                }
            }
            !hit && unsupported.is_none()
        });
        match unsupported {
            Some(e) => Err(e),
            None => Ok(hit),
        }
    }

    /// Appends to `out` the contact of every child (placed by `pose`) that penetrates `other`
    /// (at `other_pose`) or is closer to it than `prediction` metres (finite and ≥ 0;
    /// otherwise, or for a non-finite pose, nothing is appended), sorted by child. Each follows
    /// [`crate::contact`]: world space, normal from the compound to `other`, depth positive
    /// when penetrating, the child pair's own feature ids. The error is that of a child's pair
    /// without an algorithm (`out` is then left as it was).
    pub fn contacts<'b>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
        out: &mut Vec<CompoundContact>,
    ) -> Result<(), UnsupportedPair> {
        let start = out.len();
        let f = Frame::at(pose);
        let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
        self.contacts_in_frame(pose, other_pose, other.into(), prediction, out)?;
        for c in &mut out[start..] {
            f.manifold_to_world(&mut c.manifold);
        }
        Ok(())
    }

    /// [`Compound::contacts`] on the poses in the compound's frame, points in that frame.
    fn contacts_in_frame(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
        prediction: Real,
        out: &mut Vec<CompoundContact>,
    ) -> Result<(), UnsupportedPair> {
        let Some(q) = contact_box(pose, other_pose, other, prediction) else {
            return Ok(());
        };
        let start = out.len();
        let mut err = None;
        self.visit(&q, |i| {
            let (p, s) = self.placed(i, pose);
            match contact_any(&p, s, other_pose, other, prediction) {
                Ok(Some(manifold)) if !manifold.is_empty() => {
                    out.push(CompoundContact { child: i, manifold })
                }
                Ok(_) => {}
                Err(e) => err = Some(e),
            }
            err.is_none()
        });
        if let Some(e) = err {
            out.truncate(start);
            return Err(e);
        }
        out[start..].sort_unstable_by_key(|c| c.child);
        Ok(())
    }

    /// The contacts of [`Compound::contacts`] as one manifold of at most four points: world
    /// space, normal from the compound to `other`, depth positive when penetrating. One child's
    /// manifold is kept as it is; several are reduced to one normal, the deepest child's
    /// ([`crate::mesh::reduce_parts`]; a child facing away is dropped, see the module docs).
    /// Each point's feature id is [`compound_feature_id`]`(child, the child pair's id)`, stable
    /// from step to step while the same child and feature touch. `Ok(None)` when no child is
    /// within `prediction` metres; the error is that of [`Compound::contacts`].
    pub fn contact<'b>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
        prediction: Real,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        let other = other.into();
        let mut buf = BUFFERS.with(|b| b.borrow_mut().pop()).unwrap_or_default();
        buf.clear();
        let f = Frame::at(pose);
        let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
        let r = self
            .contacts_in_frame(pose, other_pose, other, prediction, &mut buf)
            .map(|()| match buf.as_slice() {
                [] => None,
                [one] => {
                    let mut m = Manifold::new(one.manifold.normal);
                    for p in one.manifold.points() {
                        m.push(crate::contact::ContactPoint {
                            id: compound_feature_id(one.child, p.id),
                            ..*p
                        });
                    }
                    m.set_depth(one.manifold.depth());
                    Some(m)
                }
                many => reduce_parts(many, compound_feature_id),
            })
            .map(|m| {
                m.map(|mut m| {
                    f.manifold_to_world(&mut m);
                    m
                })
            });
        BUFFERS.with(|b| b.borrow_mut().push(buf));
        r
    }

    /// The closest points of the compound (A, at `pose`) and `other` (B, at `other_pose`): those
    /// of the child with the least signed distance (see [`ClosestPoints`] for the frames and
    /// signs, the module docs for overlapping shapes). Errors as [`super::closest_points`].
    pub fn closest_points<'b>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
    ) -> Result<ClosestPoints, QueryError> {
        let other = other.into();
        check_pose(pose, "pose of A")?;
        check_pose(other_pose, "pose of B")?;
        self.closest_points_as(pose, other_pose, other, false)
    }

    /// The distance between the compound (at `pose`) and `other` (at `other_pose`), metres:
    /// the least over the children, 0 when one touches or overlaps. Errors as
    /// [`super::distance`].
    pub fn distance<'b>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: impl Into<ShapeRef<'b>>,
    ) -> Result<Real, QueryError> {
        let other = other.into();
        check_pose(pose, "pose of A")?;
        check_pose(other_pose, "pose of B")?;
        self.distance_as(pose, other_pose, other, false)
    }

    /// The least over the children of `key(query(pair))`, each pair asked child first, or
    /// `other` first when `is_b` (the compound is then B: each answer is that pair's, as it
    /// is), with ties to the lower child. The children are tried in increasing order of the
    /// distance between their world box and `other`'s, a lower bound of their distance to
    /// `other`: once that bound exceeds the best so far (or 0 once the best is a penetration),
    /// no later child can beat it.
    fn least<T: Copy>(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
        is_b: bool,
        query: impl Fn(&Isometry, ShapeRef, &Isometry, ShapeRef) -> Result<T, QueryError>,
        key: impl Fn(&T) -> Real,
    ) -> Result<T, QueryError> {
        let ob = other.aabb(other_pose);
        let mut order: Vec<(Real, u32, Isometry)> = (0..self.len() as u32)
            .map(|i| {
                let (p, s) = self.placed(i, pose);
                (s.aabb(&p).distance(&ob), i, p)
            })
            .collect();
        order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let mut best: Option<(T, u32)> = None;
        for (bound, i, p) in order {
            if best.is_some_and(|(b, _)| bound > key(&b).max(0.0)) {
                break;
            }
            let s = self.children()[i as usize].1.view();
            let c = if is_b {
                query(other_pose, other, &p, s)?
            } else {
                query(&p, s, other_pose, other)?
            };
            if better(key(&c), i, best.map(|(b, j)| (key(&b), j))) {
                best = Some((c, i));
            }
        }
        best.map(|(c, _)| c)
            .filter(|c| key(c).is_finite())
            .ok_or(QueryError::NonFinite("result (the poses are too far out)"))
    }

    /// [`Compound::closest_points`], the compound as A or (when `is_b`) as B.
    fn closest_points_as(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
        is_b: bool,
    ) -> Result<ClosestPoints, QueryError> {
        let query = |pa: &Isometry, a: ShapeRef, pb: &Isometry, b: ShapeRef| {
            super::closest_points(pa, a, pb, b)
        };
        let f = Frame::at(pose);
        let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
        let c = self.least(pose, other_pose, other, is_b, query, |c| c.distance)?;
        Some(f.world_closest(c))
            .filter(ClosestPoints::is_finite)
            .ok_or(QueryError::NonFinite("result (the poses are too far out)"))
    }

    /// [`Compound::distance`], the compound as A or (when `is_b`) as B.
    fn distance_as(
        &self,
        pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef,
        is_b: bool,
    ) -> Result<Real, QueryError> {
        let query =
            |pa: &Isometry, a: ShapeRef, pb: &Isometry, b: ShapeRef| super::distance(pa, a, pb, b);
        let f = Frame::at(pose);
        self.least(
            &f.pose(pose),
            &f.pose(other_pose),
            other,
            is_b,
            query,
            |d| *d,
        )
    }

    /// The first child the world-space `ray` meets within `t ∈ [0, max_t]` (units of the
    /// ray's direction), with the hit in world space (normal unit, facing against the ray; a
    /// ray starting inside a solid child hits it at `t = 0`); ties on `t` go to the lower child.
    /// None when it meets none, or for a NaN or negative `max_t` or a non-finite pose. Each
    /// child is cast at its pose by [`ray_shape`], the ray's origin and the compound's
    /// position both moved by the compound's position (the hit point is taken on the world
    /// ray), so a compound of one child answers as that child at the same pose.
    pub fn cast_ray(&self, pose: &Isometry, ray: &Ray, max_t: Real) -> Option<CompoundRayHit> {
        if max_t.is_nan() || max_t < 0.0 || !pose_ok(pose) {
            return None;
        }
        let local = ray.inverse_transformed(pose);
        let local = Ray::new(local.origin(), local.dir()).ok()?;
        let f = Frame::at(pose);
        let (moved, at) = (ray.translated(&-pose.translation.vector), f.pose(pose));
        let mut best: Option<(RayHit, u32)> = None;
        self.bvh()
            .visit_ray(&local.origin(), &local.dir(), max_t, |i, bound| {
                let (p, s) = &self.children()[i as usize];
                match ray_shape(&moved, &(at * p), s, bound) {
                    Some(h) if better(h.t, i, best.map(|(b, j)| (b.t, j))) => {
                        best = Some((h, i));
                        h.t
                    }
                    _ => bound,
                }
            });
        best.map(|(h, child)| {
            let hit = RayHit {
                point: ray.point_at(h.t),
                ..h
            };
            CompoundRayHit { child, hit }
        })
        .filter(|h| h.hit.is_finite())
    }
}

/// The compound of a pair and its pose, the other shape and its pose, and whether the
/// compound is B (results to be flipped); `None` when neither shape is a compound.
#[allow(clippy::type_complexity)]
fn split<'s, 'a: 's, 'b: 's>(
    pose_a: &'s Isometry,
    a: ShapeRef<'a>,
    pose_b: &'s Isometry,
    b: ShapeRef<'b>,
) -> Option<(&'s Compound, &'s Isometry, ShapeRef<'s>, &'s Isometry, bool)> {
    match (a, b) {
        (ShapeRef::Compound(c), _) => Some((c, pose_a, b, pose_b, false)),
        (_, ShapeRef::Compound(c)) => Some((c, pose_b, a, pose_a, true)),
        _ => None,
    }
}

/// [`super::intersection_test`] when `a` or `b` is a compound; `None` otherwise.
pub(crate) fn intersection_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<Result<bool, UnsupportedPair>> {
    let (c, pose, other, other_pose, _) = split(pose_a, a, pose_b, b)?;
    Some(c.intersection_test(pose, other_pose, other))
}

/// [`super::contact`] when `a` or `b` is a compound (normal from A to B); `None` otherwise.
pub(crate) fn contact_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
    prediction: Real,
) -> Option<Result<Option<Manifold>, UnsupportedPair>> {
    let (c, pose, other, other_pose, flip) = split(pose_a, a, pose_b, b)?;
    let m = c.contact(pose, other_pose, other, prediction);
    Some(if flip {
        m.map(|m| m.map(|m| m.flipped()))
    } else {
        m
    })
}

/// [`super::closest_points`] when `a` or `b` is a compound (normal from A to B); `None`
/// otherwise.
pub(crate) fn closest_points_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<Result<ClosestPoints, QueryError>> {
    let (c, pose, other, other_pose, is_b) = split(pose_a, a, pose_b, b)?;
    Some(c.closest_points_as(pose, other_pose, other, is_b))
}

/// [`super::distance`] when `a` or `b` is a compound; `None` otherwise.
pub(crate) fn distance_pair(
    pose_a: &Isometry,
    a: ShapeRef,
    pose_b: &Isometry,
    b: ShapeRef,
) -> Option<Result<Real, QueryError>> {
    let (c, pose, other, other_pose, is_b) = split(pose_a, a, pose_b, b)?;
    Some(c.distance_as(pose, other_pose, other, is_b))
}

/// [`crate::sweep::cast_shape`] when `a` or `b` is a compound, after the caller checked the
/// poses, velocities and options; `None` otherwise. The compound's children are cast one by
/// one, each search limited to the earliest hit so far.
#[allow(clippy::too_many_arguments)]
pub(crate) fn cast_pair(
    pose_a: &Isometry,
    vel_a: &Vector,
    a: ShapeRef,
    pose_b: &Isometry,
    vel_b: &Vector,
    b: ShapeRef,
    options: &CastOptions,
) -> Option<Result<Option<CastHit>, QueryError>> {
    let (c, pose, other, other_pose, flip) = split(pose_a, a, pose_b, b)?;
    let (vel, other_vel) = if flip { (vel_b, vel_a) } else { (vel_a, vel_b) };
    let Some(start) = local_box(pose, other_pose, other) else {
        return Some(Err(QueryError::NonFinite("pose")));
    };
    let f = Frame::at(pose);
    let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
    // The other shape's motion relative to the compound, in the compound's frame.
    let motion = pose
        .rotation
        .inverse_transform_vector(&((other_vel - vel) * options.t_max));
    let q = swept(&start, &motion, options.skin + options.tolerance);
    let mut best: Option<(CastHit, u32)> = None;
    let mut err = None;
    c.visit(&q, |i| {
        let (p, s) = c.placed(i, pose);
        let opts = CastOptions {
            t_max: best.map_or(options.t_max, |(h, _)| h.toi),
            ..*options
        };
        let hit = if flip {
            cast_shape(other_pose, vel_a, a, &p, vel_b, s, &opts)
        } else {
            cast_shape(&p, vel_a, s, other_pose, vel_b, b, &opts)
        };
        match hit {
            Ok(Some(h)) if better(h.toi, i, best.map(|(b, j)| (b.toi, j))) => best = Some((h, i)),
            Ok(_) => {}
            Err(e) => err = Some(e),
        }
        err.is_none()
    });
    Some(match err {
        Some(e) => Err(e),
        None => Ok(best.and_then(|(h, _)| {
            Some(CastHit {
                witness_a: f.world_point(&h.witness_a),
                witness_b: f.world_point(&h.witness_b),
                ..h
            })
            .filter(CastHit::is_finite)
        })),
    })
}

/// [`crate::sweep::time_of_impact`] when `sa` or `sb` is a compound; `None` otherwise. The
/// earliest time of impact over the children whose box the other shape's box, swept by the
/// relative motion, meets; `Some(None)` when there is none, or when one of them starts within
/// `slop` of the other shape (the discrete solver's case, as for a single shape).
pub(crate) fn time_of_impact_pair(
    sa: ShapeRef,
    pa0: &Isometry,
    da: &Vector,
    sb: ShapeRef,
    pb0: &Isometry,
    db: &Vector,
    slop: Real,
) -> Option<Option<Real>> {
    let (c, pose, other, other_pose, flip) = split(pa0, sa, pb0, sb)?;
    let (d, other_d) = if flip { (db, da) } else { (da, db) };
    let Some(start) = local_box(pose, other_pose, other) else {
        return Some(None);
    };
    let f = Frame::at(pose);
    let (pose, other_pose) = (&f.pose(pose), &f.pose(other_pose));
    let motion = pose.rotation.inverse_transform_vector(&(other_d - d));
    let q = swept(&start, &motion, slop);
    let mut best: Option<(Real, u32)> = None;
    let mut touching = false;
    c.visit(&q, |i| {
        let (p, s) = c.placed(i, pose);
        touching = contact_any(&p, s, other_pose, other, slop)
            .ok()
            .flatten()
            .is_some_and(|m| m.max_depth() >= -slop);
        if touching {
            return false;
        }
        let t = if flip {
            time_of_impact(sa, other_pose, da, s, &p, db, slop)
        } else {
            time_of_impact(s, &p, da, sb, other_pose, db, slop)
        };
        if let Some(t) = t {
            if better(t, i, best) {
                best = Some((t, i));
            }
        }
        true
    });
    Some(if touching { None } else { best.map(|(t, _)| t) })
}
