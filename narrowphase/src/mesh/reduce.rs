//! One manifold for a whole mesh or compound pair: the per-part manifolds (a mesh's triangles, a
//! compound's children) reduced to at most [`MAX_MANIFOLD_POINTS`] points sharing one normal.
//!
//! A shape resting on a mesh touches several triangles (two on a seam, up to eight where it
//! covers a vertex), a table standing on the ground touches it with four legs, each part with
//! a manifold of its own. A world's contact cache keeps one manifold of at most four points per
//! pair of bodies, so the points of all the parts are reduced the way Gregorius describes ("Robust Contact Creation for Physics Simulations", GDC 2015;
//! Box2D and rapier reduce polygon manifolds in the same spirit):
//!
//! 1. **Normal.** The normal of the part holding the deepest point (ties: the earliest part). Every other point's depth is taken along it: a point of depth `d` on a
//!    triangle of normal `nᵢ` is `d·(nᵢ·n)` deep along `n`, since the two surfaces are `d`
//!    apart along `nᵢ`. Points of triangles facing away from `n` (`nᵢ·n ≤ 0.1`) are dropped:
//!    they cannot hold the shape along `n`. (A mean of the normals weighted by penetration
//!    turns more smoothly, but measured on the `terrain` scene it let bodies under the pile
//!    sink 9 cm into the ground where the deepest triangle's normal lets them sink 2 cm: the
//!    mean tilts away from the triangle that carries the load.)
//! 2. **Points.** (a) the deepest point; (b) the point farthest from it; (c) the point making
//!    the largest triangle with those two, measured across `n`; (d) the point adding the most
//!    area outside that triangle (the most negative signed area against one of its edges). A
//!    point within [`MERGE_DISTANCE`] of one already kept is not kept again (a ball on a seam
//!    has the same point on both triangles). Ties go to the earlier point (triangles in id
//!    order, each one's points in its own order), so the choice is deterministic.
//!
//! Each kept point's feature id mixes the part's id with the point's own id ([`mesh_feature_id`]
//! for a mesh's triangles, [`crate::shape::compound_feature_id`] for a compound's children), so
//! the same part and feature keep the same id from step to step and warm starting matches them.
//! [`reduce`] is the mesh's reduction; [`reduce_parts`] the same for any parts, the mixing of
//! ids given.
//!
//! **One normal per pair.** Parts whose normal turns away from the chosen one are dropped (step
//! 1): a compound gripping a ball between two children, or a mesh pinching a box in a narrow
//! crease, keeps only the side holding the deepest point, and the other side is met again only
//! once it becomes the deepest. This is the price of one manifold per pair of bodies; a cache
//! of several manifolds per pair (one per part or per normal cluster, as rapier keeps per
//! sub-shape pair) would lift it.
//!
//! The depth of the reduced manifold ([`Manifold::depth`]) is the largest depth along `n` over
//! every candidate point, kept or not.

use super::query::MeshContact;
use crate::contact::{ContactPoint, Manifold, MAX_MANIFOLD_POINTS};
use crate::math::Real;
#[cfg(test)]
use crate::math::Vector;

/// Points closer than this (metres) count as one when reducing.
pub const MERGE_DISTANCE: Real = 1e-3;

/// Smallest cosine between a part's normal and the reduced normal for the part's points to be
/// kept.
const MIN_COSINE: Real = 0.1;

/// The feature id of point `point_id` of triangle `triangle` in a reduced mesh manifold: the
/// triangle id times an odd constant (Knuth's multiplicative hash), xor the point's id, so
/// ids of the same triangle and feature are the same every step and ids of neighbouring
/// triangles differ.
#[inline]
pub fn mesh_feature_id(triangle: u32, point_id: u32) -> u32 {
    triangle.wrapping_mul(0x9E37_79B1) ^ point_id
}

/// One part's manifold among those [`reduce_parts`] reduces: a mesh's triangle
/// ([`MeshContact`]) or a compound's child
/// ([`CompoundContact`](crate::query::CompoundContact)).
pub trait PartManifold {
    /// The part's id (a triangle id, a child index), mixed into its points' feature ids.
    fn part(&self) -> u32;
    /// The part's manifold (world space, normal from the many-part shape to the other one).
    fn manifold(&self) -> &Manifold;
}

impl PartManifold for MeshContact {
    #[inline]
    fn part(&self) -> u32 {
        self.triangle
    }
    #[inline]
    fn manifold(&self) -> &Manifold {
        &self.manifold
    }
}

/// Reduces the per-triangle manifolds `contacts` (as [`super::TriMesh::contacts`] gives them:
/// world space, normals from the mesh to the other shape) to one manifold of at most
/// [`MAX_MANIFOLD_POINTS`] points (see the [module docs](self)). `None` when no triangle has a
/// point. Feature ids are [`mesh_feature_id`]s.
pub fn reduce(contacts: &[MeshContact]) -> Option<Manifold> {
    reduce_parts(contacts, mesh_feature_id)
}

/// Reduces the per-part manifolds `parts` (in the order ties should favour: by part id) to one
/// manifold of at most [`MAX_MANIFOLD_POINTS`] points (see the [module docs](self)), each
/// kept point's id `feature_id(part, point id)`. `None` when no part has a point.
pub fn reduce_parts<P: PartManifold>(
    parts: &[P],
    feature_id: impl Fn(u32, u32) -> u32,
) -> Option<Manifold> {
    // The normal: that of the deepest point's part.
    let mut best: Option<(Real, usize)> = None;
    for (k, c) in parts.iter().enumerate() {
        for p in c.manifold().points() {
            if best.is_none_or(|(d, _)| p.depth > d) {
                best = Some((p.depth, k));
            }
        }
    }
    let (_, k) = best?;
    let n = parts[k].manifold().normal;
    let mut out = Manifold::new(n);
    // Candidates along n; small on the stack for the common cases.
    let mut cands = buf::Buf::new();
    let mut deepest = Real::NEG_INFINITY;
    for c in parts {
        let m = c.manifold();
        let cos = m.normal.dot(&n);
        if cos <= MIN_COSINE {
            continue;
        }
        for p in m.points() {
            let depth = p.depth * cos;
            deepest = deepest.max(depth);
            cands.push(ContactPoint {
                point: p.point,
                depth,
                id: feature_id(c.part(), p.id),
            });
        }
    }
    let cands = cands.as_slice();
    if cands.is_empty() {
        return None;
    }
    let mut kept: [usize; MAX_MANIFOLD_POINTS] = [0; MAX_MANIFOLD_POINTS];
    let mut len = 0;
    let far_from_kept = |i: usize, kept: &[usize]| {
        kept.iter().all(|&j| {
            (cands[i].point - cands[j].point).norm_squared() > MERGE_DISTANCE * MERGE_DISTANCE
        })
    };
    // (a) deepest.
    let a = argmax(cands.len(), |i| Some(cands[i].depth))?;
    kept[len] = a;
    len += 1;
    let pa = cands[a].point;
    // (b) farthest from a.
    if let Some(b) = argmax(cands.len(), |i| {
        far_from_kept(i, &kept[..len]).then(|| (cands[i].point - pa).norm_squared())
    }) {
        kept[len] = b;
        len += 1;
        let pb = cands[b].point;
        // (c) largest triangle with a and b, across n.
        let area = |p: &crate::math::Point, q: &crate::math::Point, r: &crate::math::Point| {
            (q - p).cross(&(r - p)).dot(&n)
        };
        if let Some(c) = argmax(cands.len(), |i| {
            let s = area(&pa, &pb, &cands[i].point).abs();
            (far_from_kept(i, &kept[..len]) && s > 0.0).then_some(s)
        }) {
            kept[len] = c;
            len += 1;
            let pc = cands[c].point;
            // Orient (a, b, c) counter-clockwise about n; (d) the most area outside it.
            let (pb, pc) = if area(&pa, &pb, &pc) > 0.0 {
                (pb, pc)
            } else {
                (pc, pb)
            };
            if let Some(d) = argmax(cands.len(), |i| {
                let q = cands[i].point;
                let outside = -area(&pa, &pb, &q)
                    .min(area(&pb, &pc, &q))
                    .min(area(&pc, &pa, &q));
                (far_from_kept(i, &kept[..len]) && outside > 0.0).then_some(outside)
            }) {
                kept[len] = d;
                len += 1;
            }
        }
    }
    // Kept in candidate order, so that the manifold's order is stable for the same features.
    let kept = &mut kept[..len];
    kept.sort_unstable();
    for &i in kept.iter() {
        out.push(cands[i]);
    }
    out.set_depth(deepest);
    Some(out)
}

/// The first index in `0..n` of the largest `Some` value of `f` (None when every value is
/// `None`).
fn argmax(n: usize, f: impl Fn(usize) -> Option<Real>) -> Option<usize> {
    let mut best: Option<(Real, usize)> = None;
    for i in 0..n {
        if let Some(v) = f(i) {
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, i));
            }
        }
    }
    best.map(|(_, i)| i)
}

/// A buffer of candidate points that lives on the stack up to [`INLINE`](buf::INLINE)
/// points and spills to the heap beyond.
mod buf {
    use crate::contact::ContactPoint;
    use crate::math::Point;

    pub(super) const INLINE: usize = 32;

    pub(super) struct Buf {
        inline: [ContactPoint; INLINE],
        len: usize,
        heap: Vec<ContactPoint>,
    }

    impl Buf {
        pub(super) fn new() -> Self {
            let zero = ContactPoint {
                point: Point::origin(),
                depth: 0.0,
                id: 0,
            };
            Self {
                inline: [zero; INLINE],
                len: 0,
                heap: Vec::new(),
            }
        }

        pub(super) fn push(&mut self, c: ContactPoint) {
            if self.len < INLINE {
                self.inline[self.len] = c;
                self.len += 1;
            } else {
                if self.heap.is_empty() {
                    self.heap.extend_from_slice(&self.inline);
                }
                self.heap.push(c);
            }
        }

        pub(super) fn as_slice(&self) -> &[ContactPoint] {
            if self.heap.is_empty() {
                &self.inline[..self.len]
            } else {
                &self.heap
            }
        }
    }
}

/// The direction `v` is (nearly) unit: used by the tests.
#[cfg(test)]
fn unit(v: &Vector) -> bool {
    (v.norm() - 1.0).abs() < 1e-5
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Point;

    fn mc(triangle: u32, normal: Vector, pts: &[([Real; 3], Real, u32)]) -> MeshContact {
        let mut m = Manifold::new(normal);
        for &(p, depth, id) in pts {
            m.push(ContactPoint {
                point: Point::new(p[0], p[1], p[2]),
                depth,
                id,
            });
        }
        MeshContact {
            triangle,
            manifold: m,
        }
    }

    /// A box face on two triangles of a flat seam: eight points (four per triangle, two
    /// pairs shared on the seam) reduce to the four corners, deepest first in the choice,
    /// with ids mixing triangle and feature.
    #[test]
    fn box_on_a_seam_keeps_its_four_corners() {
        let y = Vector::y();
        let c = [
            ([-0.5, 0.0, -0.5], 0.01, 0),
            ([0.5, 0.0, -0.5], 0.02, 1),
            ([0.5, 0.0, 0.5], 0.01, 2),
            ([-0.5, 0.0, 0.5], 0.01, 3),
        ];
        let a = mc(4, y, &c);
        let b = mc(5, y, &c);
        let m = reduce(&[a, b]).unwrap();
        assert!(unit(&m.normal));
        assert_eq!(m.len(), 4);
        let ids: Vec<u32> = m.points().iter().map(|p| p.id).collect();
        // All from triangle 4 (the earlier candidates win ties).
        for (k, id) in ids.iter().enumerate() {
            assert_eq!(*id, mesh_feature_id(4, k as u32));
        }
        assert_eq!(m.depth(), 0.02);
    }

    /// A ball on a seam: the same point on both triangles is kept once.
    #[test]
    fn ball_on_a_seam_keeps_one_point() {
        let y = Vector::y();
        let a = mc(0, y, &[([0.5, 0.0, 0.5], 0.05, 0)]);
        let b = mc(1, y, &[([0.5, 0.0, 0.5], 0.05, 0)]);
        let m = reduce(&[a, b]).unwrap();
        assert_eq!(m.len(), 1);
        assert_eq!(m.points()[0].id, mesh_feature_id(0, 0));
        assert!(reduce(&[]).is_none());
    }

    /// Points of a tilted triangle are taken along the deepest triangle's normal; a triangle
    /// facing away is dropped.
    #[test]
    fn depths_are_projected_on_the_chosen_normal() {
        let y = Vector::y();
        let tilt = Vector::new(0.6, 0.8, 0.0);
        let a = mc(0, y, &[([0.0, 0.0, 0.0], 0.1, 0)]);
        let b = mc(1, tilt, &[([1.0, 0.0, 0.0], 0.05, 0)]);
        let away = mc(2, -y, &[([2.0, 0.0, 0.0], 0.5 * 0.1, 0)]);
        let m = reduce(&[a, b, away]).unwrap();
        assert_eq!(m.normal, y);
        assert_eq!(m.len(), 2);
        assert!((m.points()[1].depth - 0.05 * 0.8).abs() < 1e-7);
    }

    /// Many points (a large flat contact over many triangles) give four, spanning the area.
    #[test]
    fn many_points_give_four_spread_ones() {
        let y = Vector::y();
        let mut cs = Vec::new();
        for t in 0..20u32 {
            let x = t as Real * 0.1;
            cs.push(mc(
                t,
                y,
                &[
                    ([x, 0.0, 0.0], 0.01, 0),
                    ([x, 0.0, 1.0], 0.01 + x * 1e-3, 1),
                ],
            ));
        }
        let m = reduce(&cs).unwrap();
        assert_eq!(m.len(), 4);
        let xs: Vec<Real> = m.points().iter().map(|p| p.point.x).collect();
        let zs: Vec<Real> = m.points().iter().map(|p| p.point.z).collect();
        let span = |v: &[Real]| {
            v.iter().copied().fold(Real::MIN, Real::max)
                - v.iter().copied().fold(Real::MAX, Real::min)
        };
        assert!(span(&xs) > 1.8, "{xs:?}");
        assert_eq!(span(&zs), 1.0);
    }
}
