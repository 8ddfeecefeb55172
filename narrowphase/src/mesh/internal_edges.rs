//! Internal edges: why a body sliding over a mesh must not catch on the seams between its
//! triangles, and the normal correction that prevents it.
//!
//! Each triangle is collided on its own, as a convex shape. A box resting across the shared
//! edge of two coplanar triangles overlaps one of them by a sliver only; the separating-axis
//! contact of that pair is then the cheapest way to push the box off *that triangle alone*:
//! sideways, across the edge (a "ghost" or "internal-edge" collision). The mesh as a whole
//! has no edge there, so the normal must not point that way.
//!
//! The rule is a Voronoi-region argument, the idea of D. Gregorius's "Contacts for triangle
//! meshes", of Box2D's ghost vertices for chains of segments and of parry's
//! `FIX_INTERNAL_EDGES`: seen across one of its edges, a triangle may only push along normals
//! between its own face normal `f` and its neighbour's face normal `m`, both taken on the side
//! of the mesh the other body is on.
//!
//! - **Convex edge** (the neighbour bends away, `m` leans outwards over the edge): the allowed
//!   normals are the arc from `f` to `m`. A normal leaning over the edge by more than `m` does
//!   is clamped to `m`.
//! - **Flat or concave edge** (`m` within [`FLAT_ANGLE`] of `f`, or leaning back inwards): no
//!   normal may lean over the edge; the neighbour owns that region. Such a normal is replaced by
//!   `f`.
//! - **Boundary edge** (no neighbour, or more than two triangles share it): any normal.
//!
//! A normal leaning over two edges at once (a corner's region) is checked against each edge
//! on its own; a flat or concave edge among them wins (`f`), else the convex edge it exceeds
//! most clamps it: an approximation of the corner's exact cone (spanned by the normals of all
//! the triangles around the corner).
//!
//! A corrected contact is not rescaled from the old one (a sideways depth of 1 mm says
//! nothing about the vertical one): the pair is measured again along the new normal — its
//! separation is the gap between the triangle's and the body's projections on it, and the
//! points are those of the body's support feature, clipped to the triangle for polyhedra
//! ([`crate::query`]'s reference-face clipping; for a box, its face most anti-parallel to the
//! normal clipped by the triangle's side planes). Projections on one direction only bound a
//! gap from below: a triangle the old contact found apart by `g` (its axis separates them)
//! stays at least `g` apart, so that a triangle beside the body never pushes it.
//!
//! Triangles are two-sided: which side the body is on is the sign of the contact normal
//! against `f` when the normal is within 60° of `±f`, else the side of the body's centre (a
//! normal near the triangle's plane — the sideways ghost normal itself, or one across a fold —
//! has a small vertical part of either sign). On the back side the roles swap (`−f`,
//! `−m`; a convex edge seen from below is concave).

use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Point, Real, Vector};
use crate::query::{contact_triangle_cuboid_along, manifold_from_axis};
use crate::sat::convex::{DeepestAxis, Posed};
use crate::sat::SeparatingAxis;
use crate::shape::{ConvexPolyhedron, ShapeRef, Triangle};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Below this angle (radians) between a triangle's normal and its neighbour's, their shared
/// edge counts as flat: no normal may lean over it.
pub const FLAT_ANGLE: Real = 1e-4;

/// A contact normal may lean over an edge by this much more than the edge allows (radians)
/// before it is corrected.
const LEAN_TOLERANCE: Real = 1e-4;

/// The "no neighbour" entry of a triangle's edge table.
pub(crate) const NO_NEIGHBOUR: u32 = u32::MAX;
/// Flag bit of an edge-table entry: the neighbour runs along the shared edge in the same
/// direction (its winding disagrees with this triangle's, so its normal is negated).
pub(crate) const FLIPPED: u32 = 1 << 31;

/// A multiplicative hash of a packed vertex pair (Knuth's golden-ratio constant): the keys are
/// small integers, for which the default SipHash is several times slower.
#[derive(Default)]
struct PairHasher(u64);

impl Hasher for PairHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u64(&mut self, v: u64) {
        let x = (v ^ (v >> 29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        // Fold the well-mixed high half into the low bits the table indexes by.
        self.0 = x ^ (x >> 32);
    }
}

/// For every triangle and each of its edges `k` (corner `k` to corner `k + 1`), the triangle
/// across that edge (`NO_NEIGHBOUR` when the edge is on the boundary or shared by more than two
/// triangles), with [`FLIPPED`] set when the two windings disagree. Edges are matched in one
/// pass by a hash map keyed by the sorted vertex pair.
pub(crate) fn edge_neighbours(indices: &[[u32; 3]]) -> Vec<[u32; 3]> {
    // One entry per edge: the first two (triangle, edge) seen on it and how many there are.
    struct Seen {
        first: (u32, u8),
        second: (u32, u8),
        count: u32,
    }
    let mut map: HashMap<u64, Seen, BuildHasherDefault<PairHasher>> =
        HashMap::with_capacity_and_hasher(indices.len() * 3 / 2 + 1, Default::default());
    for (t, tri) in indices.iter().enumerate() {
        for k in 0..3 {
            let (a, b) = (tri[k], tri[(k + 1) % 3]);
            let key = (u64::from(a.min(b)) << 32) | u64::from(a.max(b));
            let here = (t as u32, k as u8);
            map.entry(key)
                .and_modify(|e| {
                    if e.count == 1 {
                        e.second = here;
                    }
                    e.count += 1;
                })
                .or_insert(Seen {
                    first: here,
                    second: here,
                    count: 1,
                });
        }
    }
    let mut out = vec![[NO_NEIGHBOUR; 3]; indices.len()];
    for e in map.values() {
        if e.count != 2 {
            continue;
        }
        let ((t0, k0), (t1, k1)) = (e.first, e.second);
        // Same direction along the shared edge: the windings disagree.
        let start = |(t, k): (u32, u8)| indices[t as usize][k as usize];
        let flag = if start(e.first) == start(e.second) {
            FLIPPED
        } else {
            0
        };
        out[t0 as usize][k0 as usize] = t1 | flag;
        out[t1 as usize][k1 as usize] = t0 | flag;
    }
    out
}

/// A triangle's unit normal from its corners (the same arithmetic for every source, so a
/// heightfield and the mesh of its samples agree to the bit).
#[inline]
pub(crate) fn face_normal(c: &[Point; 3]) -> Vector {
    Triangle::new_unchecked(c[0], c[1], c[2]).normal()
}

/// What the correction decided for one contact normal (mesh-local frame).
#[derive(Debug, PartialEq)]
enum Verdict {
    Keep,
    Replace(Vector),
}

/// Checks the local contact normal `n` (from the triangle toward the body) against the edges
/// of the triangle `c` of unit normal `f`, whose edge `k` has the neighbour normal
/// `neighbours[k]` (oriented as `f` would be across a flat edge). `side` is the signed
/// distance of the body's centre from the triangle's plane along `f`.
fn judge(
    c: &[Point; 3],
    f: &Vector,
    neighbours: &[Option<Vector>; 3],
    n: &Vector,
    side: Real,
) -> Verdict {
    let nf = n.dot(f);
    // The normal's side when it clearly faces one (within 60° of ±f), else the body
    // centre's: a normal near the plane (the sideways ghost normal, or one across a fold)
    // says little about the side, and its small vertical part can have either sign.
    let below = if nf.abs() > 0.5 || side == 0.0 {
        nf < 0.0
    } else {
        side < 0.0
    };
    let s: Real = if below { -1.0 } else { 1.0 };
    let fs = f * s;
    let mut clamp: Option<(Real, Vector)> = None;
    for k in 0..3 {
        let Some(m) = neighbours[k] else { continue };
        let Some(e) = (c[(k + 1) % 3] - c[k]).try_normalize(Real::MIN_POSITIVE) else {
            continue;
        };
        // Outward normal of edge k in the triangle's plane (for counter-clockwise corners
        // seen from +f, e × f points away from the opposite corner).
        let o = e.cross(f);
        let lean = n.dot(&o).atan2(n.dot(&fs));
        if lean <= LEAN_TOLERANCE {
            continue;
        }
        let ms = m * s;
        let allowed = ms.dot(&o).atan2(ms.dot(&fs));
        if allowed <= FLAT_ANGLE {
            // Flat or concave from this side: the neighbour owns the region.
            return Verdict::Replace(fs);
        }
        if lean > allowed + LEAN_TOLERANCE {
            let excess = lean - allowed;
            if clamp.is_none_or(|(e, _)| excess > e) {
                clamp = Some((excess, ms));
            }
        }
    }
    match clamp {
        Some((_, ms)) => Verdict::Replace(ms),
        None => Verdict::Keep,
    }
}

/// Applies the internal-edge rule to the manifold `m` of the triangle `tri` (local corners,
/// placed by `mesh_pose`) against `other` at `other_pose`; `neighbours` as in [`judge`].
/// Returns the manifold unchanged, a manifold measured again along the corrected normal, or
/// None when along that normal the pair is farther apart than `prediction`.
pub(crate) fn correct(
    m: Manifold,
    tri: &Triangle,
    neighbours: &[Option<Vector>; 3],
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
) -> Option<Manifold> {
    if neighbours.iter().all(Option::is_none) {
        return Some(m);
    }
    let c = tri.corners();
    let f = tri.normal();
    let n_local = mesh_pose.rotation.inverse_transform_vector(&m.normal);
    let centre = mesh_pose.inverse_transform_point(&Point::from(other_pose.translation.vector));
    let side = (centre - c[0]).dot(&f);
    let Verdict::Replace(n_new) = judge(c, &f, neighbours, &n_local, side) else {
        return Some(m);
    };
    let n = mesh_pose.rotation * n_new;
    let gap = -m.depth();
    let corrected = measured_along(
        tri, mesh_pose, other_pose, other, n, n_new, f, prediction, m,
    )?;
    if gap > 0.0 {
        // The pair is apart by at least `gap` (the contact's axis separates the shapes), but
        // their projections on the corrected normal may overlap (one direction only bounds
        // the gap from below): the points keep the gap, so an apart triangle never pushes.
        let mut c = corrected.map_points(corrected.normal, |p| ContactPoint {
            depth: p.depth.min(-gap),
            ..*p
        });
        c.set_depth(corrected.depth().min(-gap));
        return Some(c);
    }
    Some(corrected)
}

/// The contact of `other` with the triangle measured along the corrected normal `n` (world;
/// `n_new` in the mesh's frame; `f` the triangle's normal there); `m` is the uncorrected
/// contact.
#[allow(clippy::too_many_arguments)]
fn measured_along(
    tri: &Triangle,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    n: Vector,
    n_new: Vector,
    f: Vector,
    prediction: Real,
    m: Manifold,
) -> Option<Manifold> {
    // The triangle's extent along n (world), which the round bodies are measured against.
    let top = || {
        tri.world_corners(mesh_pose)
            .iter()
            .map(|p| p.coords.dot(&n))
            .fold(Real::NEG_INFINITY, Real::max)
    };
    match other {
        ShapeRef::Ball(b) => round_manifold(
            &n,
            top(),
            &[Point::from(other_pose.translation.vector)],
            b.radius(),
            prediction,
        ),
        ShapeRef::Capsule(cap) => {
            let (a, b) = cap.segment(other_pose);
            // Both ends when the core lies (nearly) level along n, else the lower one.
            let (da, db) = (a.coords.dot(&n), b.coords.dot(&n));
            let band = 1e-3 * (b - a).norm().max(cap.radius());
            let cores: &[Point] = if (da - db).abs() <= band {
                &[a, b]
            } else if da < db {
                &[a]
            } else {
                &[b]
            };
            round_manifold(&n, top(), cores, cap.radius(), prediction)
        }
        ShapeRef::Cuboid(cb) => contact_triangle_cuboid_along(
            mesh_pose,
            tri,
            other_pose,
            &cb.half_extents(),
            &n,
            prediction,
        ),
        ShapeRef::Triangle(t) => poly_manifold(
            tri,
            mesh_pose,
            &ConvexPolyhedron::from_triangle(t),
            other_pose,
            &n,
            &n_new,
            &f,
            prediction,
        ),
        ShapeRef::Convex(p) => {
            poly_manifold(tri, mesh_pose, p, other_pose, &n, &n_new, &f, prediction)
        }
        // A mesh against a mesh has no contact (the queries refuse the pair before this); a
        // compound meets a mesh child by child (the queries take it apart before this).
        ShapeRef::TriMesh(_) | ShapeRef::HeightField(_) | ShapeRef::Compound(_) => Some(m),
    }
}

/// The manifold along the world normal `n` of a round body (cores `cores`, radius `r`)
/// against a triangle whose highest point along `n` is `top`: one point per core, on the
/// body's surface pushed back halfway by its depth.
fn round_manifold(
    n: &Vector,
    top: Real,
    cores: &[Point],
    r: Real,
    prediction: Real,
) -> Option<Manifold> {
    let mut m = Manifold::new(*n);
    let mut deepest = Real::NEG_INFINITY;
    for (k, core) in cores.iter().enumerate() {
        let low = core - n * r;
        let depth = top - low.coords.dot(n);
        deepest = deepest.max(depth);
        if -depth <= prediction {
            m.push(ContactPoint {
                point: low + n * (0.5 * depth),
                depth,
                id: k as u32,
            });
        }
    }
    (!m.is_empty()).then(|| {
        m.set_depth(deepest);
        m
    })
}

/// The manifold along the world normal `n` (local `n_local`) of a polyhedral body against the
/// triangle: the separation of their projections, and the reference-face clipping of
/// [`crate::query`] when `n` is the triangle's face normal (`f`, either side), else one point
/// where the two support features meet.
#[allow(clippy::too_many_arguments)]
fn poly_manifold(
    tri: &Triangle,
    mesh_pose: &Isometry,
    body: &ConvexPolyhedron,
    body_pose: &Isometry,
    n: &Vector,
    n_local: &Vector,
    f: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let tri_poly = ConvexPolyhedron::from_triangle(tri);
    let a = Posed::new(&tri_poly, mesh_pose);
    let b = Posed::new(body, body_pose);
    let separation = b.project(n).0 - a.project(n).1;
    if separation > prediction || separation.is_nan() {
        return None;
    }
    let axis = if n_local.dot(f).abs() >= 1.0 - 1e-6 {
        // The face of the two back to back that faces n.
        let (face, _) = crate::query::face_towards(&a, n);
        SeparatingAxis::FaceA(face as u16)
    } else {
        // Not a face axis of the triangle: the support-feature point.
        SeparatingAxis::InPlaneA(0)
    };
    let best = DeepestAxis {
        separation,
        normal: *n,
        axis,
    };
    Some(manifold_from_axis(&a, &b, &best, prediction))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: Real, y: Real, z: Real) -> Point {
        Point::new(x, y, z)
    }

    /// Two triangles sharing an edge, wound consistently: linked both ways, not flipped;
    /// boundary edges have no neighbour.
    #[test]
    fn adjacency_links_shared_edges() {
        let idx = [[0, 1, 2], [2, 1, 3]];
        let nb = edge_neighbours(&idx);
        assert_eq!(nb[0], [NO_NEIGHBOUR, 1, NO_NEIGHBOUR]);
        assert_eq!(nb[1], [0, NO_NEIGHBOUR, NO_NEIGHBOUR]);
        // Inconsistent winding: the neighbour is flagged.
        let nb = edge_neighbours(&[[0, 1, 2], [1, 2, 3]]);
        assert_eq!(nb[0][1], 1 | FLIPPED);
        // An edge of three triangles is a boundary.
        let nb = edge_neighbours(&[[0, 1, 2], [1, 0, 3], [0, 1, 4]]);
        assert!(nb.iter().all(|t| t[0] == NO_NEIGHBOUR));
    }

    /// Flat neighbour across edge 0 (along z at x = 0, outward −x): a sideways normal leaning over it is replaced by the face normal; one leaning the other
    /// way (over a boundary edge) is kept.
    #[test]
    fn judge_flat_and_convex_edges() {
        // Triangle in the xz plane with normal +y: corners counter-clockwise seen from +y.
        let c = [p(0.0, 0.0, 0.0), p(0.0, 0.0, 1.0), p(1.0, 0.0, 0.0)];
        let f = face_normal(&c);
        assert!((f - Vector::y()).norm() < 1e-6);
        // Edge 0 runs along +z at x = 0; its outward normal is −x.
        let flat = [Some(Vector::y()), None, None];
        assert_eq!(
            judge(&c, &f, &flat, &-Vector::x(), 1.0),
            Verdict::Replace(Vector::y())
        );
        assert_eq!(judge(&c, &f, &flat, &Vector::x(), 1.0), Verdict::Keep);
        assert_eq!(judge(&c, &f, &flat, &Vector::y(), 1.0), Verdict::Keep);
        // From below, the same sideways normal is replaced by −y.
        assert_eq!(
            judge(&c, &f, &flat, &-Vector::x(), -1.0),
            Verdict::Replace(-Vector::y())
        );
        // A convex edge bending down by 45° beyond x = 0: normals up to 45° over it are kept,
        // beyond are clamped to the neighbour's normal.
        let m = Vector::new(-1.0, 1.0, 0.0).normalize();
        let convex = [Some(m), None, None];
        let n30 = Vector::new(-0.5, 0.75f32.sqrt(), 0.0);
        assert_eq!(judge(&c, &f, &convex, &n30, 1.0), Verdict::Keep);
        assert_eq!(
            judge(&c, &f, &convex, &-Vector::x(), 1.0),
            Verdict::Replace(m)
        );
        // Seen from below that edge is concave: any lean over it goes to −y.
        let below = Vector::new(-0.5, -(0.75f32.sqrt()), 0.0);
        assert_eq!(
            judge(&c, &f, &convex, &below, -1.0),
            Verdict::Replace(-Vector::y())
        );
    }
}
