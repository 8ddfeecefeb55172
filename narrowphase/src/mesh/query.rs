//! The queries shared by [`TriMesh`](super::TriMesh) and [`HeightField`](super::HeightField):
//! each finds the candidate triangles (the hierarchy's or the grid's cells under a box), runs
//! the crate's per-pair kernel on each one, and keeps what the query asks for.
//!
//! Each query computes in the mesh's own frame, translated: both poses are moved so that the
//! mesh's position is the origin ([`Frame::at`]), the triangles are placed by the mesh's
//! rotation alone, and the points are moved back to world space at the end. A mesh far from
//! the origin is so collided bit for bit as the same mesh at the origin (when the difference
//! of the two positions is exact, as for a shape near the mesh), and each of its triangles
//! exactly as [`contact_any`] collides that triangle on its own at the moved poses.

use super::internal_edges::correct;
use crate::bounding::Aabb;
use crate::contact::Manifold;
use crate::math::{is_finite_vector, Isometry, Point, Real, Vector};
use crate::query::{
    contact_any, contact_triangle_cuboid_seen, intersects_any, Frame, UnsupportedPair,
};
use crate::ray::{ray_triangle, Ray, RayHit};
use crate::shape::{ShapeRef, Triangle};
use crate::sweep::{sweep_sphere_triangle, time_of_impact, Toi};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// One triangle's contact with the other shape.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MeshContact {
    /// The triangle's id: its position in the index slice of a [`TriMesh`](super::TriMesh),
    /// or [`HeightField::triangle_index`](super::HeightField::triangle_index).
    pub triangle: u32,
    /// The contact, with the conventions of [`crate::contact`]: world space, normal unit and
    /// pointing **from the mesh (A) to the other shape (B)**, depth in metres, positive when
    /// penetrating. Normals are corrected at internal edges (see
    /// [`internal_edges`](super::internal_edges)).
    pub manifold: Manifold,
}

/// The first triangle a ray meets.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MeshRayHit {
    /// The triangle's id (as [`MeshContact::triangle`]).
    pub triangle: u32,
    /// The hit, world space, `t` in units of the ray's direction (see [`RayHit`]).
    pub hit: RayHit,
}

/// The first triangle a moving shape touches.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct MeshToi {
    /// The triangle's id (as [`MeshContact::triangle`]).
    pub triangle: u32,
    /// Time of impact, normal from the triangle toward the moving shape, contact point on the
    /// triangle; world space (see [`Toi`]).
    pub toi: Toi,
}

/// What the queries need from a mesh: its candidate triangles and their edge neighbours, all
/// in the mesh's local frame.
pub(crate) trait TriangleSource {
    /// Calls `f` with (at least) every triangle whose box overlaps `q`, until it returns false.
    fn visit(&self, q: &Aabb, f: &mut dyn FnMut(u32) -> bool);
    /// The box of every triangle.
    fn bounds(&self) -> Aabb;
    /// Triangle `id` (valid ids only).
    fn tri(&self, id: u32) -> Triangle;
    /// The unit normals of the triangles across edges 0, 1, 2 of triangle `id`, oriented as the
    /// triangle's own normal would be across a flat edge; None on boundary edges.
    fn neighbour_normals(&self, id: u32) -> [Option<Vector>; 3];
    /// First hit of the local ray within `max_t` among the triangles (id, local hit).
    fn local_ray(&self, ray: &Ray, max_t: Real) -> Option<(u32, RayHit)>;
}

/// True when every coordinate of the pose is finite.
pub(crate) fn pose_ok(p: &Isometry) -> bool {
    is_finite_vector(&p.translation.vector) && p.rotation.coords.iter().all(|c| c.is_finite())
}

/// The other shape's box in the local frame of a mesh (or a compound) at `mesh_pose`, or None
/// for a non-finite pose or box.
pub(crate) fn local_box(
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
) -> Option<Aabb> {
    if !pose_ok(mesh_pose) || !pose_ok(other_pose) {
        return None;
    }
    let b = other.aabb(&mesh_pose.inv_mul(other_pose));
    b.is_valid().then_some(b)
}

/// The box of the parts a contact query tries: the other shape's box in the local frame of a
/// mesh (or a compound) at `mesh_pose`, grown by `prediction`; None for a NaN or negative
/// `prediction` or a non-finite pose or box (the query then has no contact).
pub(crate) fn contact_box(
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
) -> Option<Aabb> {
    if prediction.is_nan() || prediction < 0.0 {
        return None;
    }
    let q = local_box(mesh_pose, other_pose, other)?.loosened(prediction);
    q.is_valid().then_some(q)
}

/// The contact of triangle `id` with the internal-edge correction, world space.
pub(crate) fn triangle_contact<S: TriangleSource + ?Sized>(
    src: &S,
    id: u32,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    let f = Frame::at(mesh_pose);
    let q = InMesh::new(&f.pose(mesh_pose), &f.pose(other_pose), other, prediction);
    let m = q.triangle_contact(src, id)?;
    Ok(m.map(|mut m| {
        f.manifold_to_world(&mut m);
        m
    }))
}

/// One contact query of a shape against a mesh's triangles, worked in the mesh's frame: the
/// poses, the shape, the prediction, and for a box its view from the mesh (the transform into
/// the box's frame, its half-extents, and those grown by `prediction`: the rejection test's
/// box), made once for every triangle the query tries.
struct InMesh<'a> {
    mesh_pose: Isometry,
    other_pose: Isometry,
    other: ShapeRef<'a>,
    prediction: Real,
    boxed: Option<(Isometry, Vector, Vector)>,
}

impl<'a> InMesh<'a> {
    /// The query of `other` at `other_pose` against a mesh at `mesh_pose` (both in the mesh's
    /// frame).
    fn new(
        mesh_pose: &Isometry,
        other_pose: &Isometry,
        other: ShapeRef<'a>,
        prediction: Real,
    ) -> Self {
        let boxed = match other {
            ShapeRef::Cuboid(c) => Some((
                other_pose.inv_mul(mesh_pose),
                c.half_extents(),
                c.half_extents().add_scalar(prediction),
            )),
            _ => None,
        };
        Self {
            mesh_pose: *mesh_pose,
            other_pose: *other_pose,
            other,
            prediction,
            boxed,
        }
    }

    /// The contact of triangle `id` of `src` with the internal-edge correction, points in the
    /// mesh's frame. For a box: a triangle that misses the box grown by `prediction` on every
    /// side (the 13-axis test of `sat::triangle_cuboid`, in the box's frame) is farther than
    /// `prediction` from it and gets no contact; one that passes goes to the triangle–cuboid
    /// kernel with its corners already in the box's frame.
    fn triangle_contact<S: TriangleSource + ?Sized>(
        &self,
        src: &S,
        id: u32,
    ) -> Result<Option<Manifold>, UnsupportedPair> {
        let (mesh_pose, other_pose, prediction) =
            (&self.mesh_pose, &self.other_pose, self.prediction);
        let tri = &src.tri(id);
        let m = match (self.other, &self.boxed) {
            (ShapeRef::Ball(b), _) => {
                ball_triangle(tri, mesh_pose, other_pose, b.radius(), prediction)
            }
            (_, Some((to_box, e, grown))) => {
                let v = tri.corners().map(|p| (to_box * p).coords);
                if !crate::sat::triangle_cuboid::overlap(&v, grown) {
                    return Ok(None);
                }
                let n = to_box.rotation * tri.normal();
                contact_triangle_cuboid_seen(v, n, other_pose, e, prediction)
            }
            (other, None) => contact_any(mesh_pose, tri, other_pose, other, prediction)?,
        };
        Ok(m.and_then(|m| {
            correct(
                m,
                tri,
                &src.neighbour_normals(id),
                mesh_pose,
                other_pose,
                self.other,
                prediction,
            )
        }))
    }
}

/// The contact of a ball (centre at `ball_pose`, radius `r`) with the triangle `tri` placed by
/// `mesh_pose`, from the closest point of the triangle to the centre (Ericson, RTCD §5.1.5),
/// worked in the mesh's frame: normal from the triangle to the centre (the side of the centre
/// for a centre in the triangle's plane within 10⁻⁶ of the scale, +normal exactly on it), one
/// point midway between the surfaces, depth `r − distance`. None when the gap exceeds
/// `prediction`.
fn ball_triangle(
    tri: &Triangle,
    mesh_pose: &Isometry,
    ball_pose: &Isometry,
    r: Real,
    prediction: Real,
) -> Option<Manifold> {
    let c = mesh_pose.inverse_transform_point(&Point::from(ball_pose.translation.vector));
    let [a, b, cc] = *tri.corners();
    let q = closest_on_triangle(&c, &a, &b, &cc);
    let d = c - q;
    let dist = d.norm();
    let scale = c.coords.amax().max(a.coords.amax()).max(r);
    let n = if dist > 1e-6 * scale {
        d / dist
    } else {
        let f = tri.normal();
        if d.dot(&f) < 0.0 {
            -f
        } else {
            f
        }
    };
    let depth = r - dist;
    if -depth > prediction || !depth.is_finite() {
        return None;
    }
    let mid = q + n * (0.5 * (dist - r));
    let mut m = Manifold::new(mesh_pose.rotation * n);
    m.push(crate::contact::ContactPoint {
        point: mesh_pose * mid,
        depth,
        id: 0,
    });
    Some(m)
}

/// The point of triangle `abc` closest to `p` (Ericson, RTCD §5.1.5: Voronoi regions of the
/// corners, then the edges, then the face). The mesh's triangles are never degenerate, so this
/// skips the degenerate case of `contact::closest::closest_point_on_triangle`; it also scales
/// by one reciprocal of the denominator where that divides twice, and the ball–mesh contacts,
/// and so the `terrain` scenes' trajectories, are pinned to these roundings.
fn closest_on_triangle(p: &Point, a: &Point, b: &Point, c: &Point) -> Point {
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return *a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return *b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return *c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// The per-triangle contacts of `other` appended to `out`, world space (see
/// [`TriMesh::contacts`](super::TriMesh::contacts)).
pub(crate) fn contacts<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
    out: &mut Vec<MeshContact>,
) -> Result<(), UnsupportedPair> {
    let start = out.len();
    let f = Frame::at(mesh_pose);
    let (mesh_pose, other_pose) = (&f.pose(mesh_pose), &f.pose(other_pose));
    contacts_in_frame(src, mesh_pose, other_pose, other, prediction, out)?;
    for c in &mut out[start..] {
        f.manifold_to_world(&mut c.manifold);
    }
    Ok(())
}

/// [`contacts`] on the poses in the mesh's frame, points in that frame.
fn contacts_in_frame<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
    out: &mut Vec<MeshContact>,
) -> Result<(), UnsupportedPair> {
    let Some(q) = contact_box(mesh_pose, other_pose, other, prediction) else {
        return Ok(());
    };
    let query = InMesh::new(mesh_pose, other_pose, other, prediction);
    let start = out.len();
    let mut err = None;
    src.visit(&q, &mut |id| {
        let m = query.triangle_contact(src, id);
        match m {
            Ok(Some(manifold)) => out.push(MeshContact {
                triangle: id,
                manifold,
            }),
            Ok(None) => {}
            Err(e) => {
                err = Some(e);
                return false;
            }
        }
        true
    });
    if let Some(e) = err {
        out.truncate(start);
        return Err(e);
    }
    out[start..].sort_unstable_by_key(|c| c.triangle);
    Ok(())
}

/// The per-triangle contacts of `other` reduced to one manifold ([`super::reduce`](mod@super::reduce)), on a
/// per-thread buffer so that no call allocates once it has grown.
pub(crate) fn reduced_contact<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
    prediction: Real,
) -> Result<Option<Manifold>, UnsupportedPair> {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<MeshContact>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with(|buf| {
        // A re-entrant call (none today) gets a buffer of its own rather than a panic.
        let mut own = Vec::new();
        let mut guard = buf.try_borrow_mut();
        let out = match guard.as_deref_mut() {
            Ok(v) => v,
            Err(_) => &mut own,
        };
        out.clear();
        let f = Frame::at(mesh_pose);
        contacts_in_frame(
            src,
            &f.pose(mesh_pose),
            &f.pose(other_pose),
            other,
            prediction,
            out,
        )?;
        Ok(super::reduce::reduce(out).map(|mut m| {
            f.manifold_to_world(&mut m);
            m
        }))
    })
}

pub(crate) fn intersection_test<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    other_pose: &Isometry,
    other: ShapeRef,
) -> Result<bool, UnsupportedPair> {
    let Some(q) = local_box(mesh_pose, other_pose, other) else {
        return Ok(false);
    };
    let f = Frame::at(mesh_pose);
    let (mesh_pose, other_pose) = (&f.pose(mesh_pose), &f.pose(other_pose));
    let mut hit = false;
    let mut err = None;
    src.visit(&q, &mut |id| {
        match intersects_any(mesh_pose, &src.tri(id), other_pose, other) {
            Some(true) => hit = true,
            Some(false) => {}
            None => {
                err = Some(UnsupportedPair {
                    a: "triangle",
                    b: other.kind_name(),
                })
            }
        }
        !hit && err.is_none()
    });
    match err {
        Some(e) => Err(e),
        None => Ok(hit),
    }
}

pub(crate) fn cast_ray<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    ray: &Ray,
    max_t: Real,
) -> Option<MeshRayHit> {
    if max_t.is_nan() || max_t < 0.0 || !pose_ok(mesh_pose) {
        return None;
    }
    let local = ray.inverse_transformed(mesh_pose);
    let local = Ray::new(local.origin(), local.dir()).ok()?;
    let (id, h) = src.local_ray(&local, max_t)?;
    let hit = RayHit {
        t: h.t,
        normal: mesh_pose.rotation * h.normal,
        point: ray.point_at(h.t),
    };
    hit.is_finite().then_some(MeshRayHit { triangle: id, hit })
}

/// The first hit of `ray` (local) on triangle `id` within `max_t`.
#[inline]
pub(crate) fn ray_on(src_tri: &Triangle, ray: &Ray, max_t: Real) -> Option<RayHit> {
    let [a, b, c] = src_tri.corners();
    ray_triangle(ray, a, b, c, max_t)
}

/// Time of impact of `shape` (at `pose0`, translating by `motion` over `t ∈ [0, 1]`) against
/// the triangle `tri` placed by `mesh_pose`, both poses in the mesh's frame, the point in that
/// frame; see [`MeshToi`] and the mesh types' `cast_shape`.
fn triangle_toi(
    tri: &Triangle,
    mesh_pose: &Isometry,
    pose0: &Isometry,
    shape: ShapeRef,
    motion: &Vector,
    slop: Real,
) -> Option<Toi> {
    if let ShapeRef::Ball(b) = shape {
        let [a, bb, c] = tri.world_corners(mesh_pose);
        let c0 = Point::from(pose0.translation.vector);
        return sweep_sphere_triangle(&c0, &(c0 + motion), b.radius(), &a, &bb, &c);
    }
    // Within slop at the start: an impact at t = 0.
    let t = match contact_any(mesh_pose, tri, pose0, shape, slop).ok()? {
        Some(m) if m.depth() >= -slop => 0.0,
        _ => time_of_impact(tri, mesh_pose, &Vector::zeros(), shape, pose0, motion, slop)?,
    };
    let mut at = *pose0;
    at.translation.vector += motion * t;
    // The contact at that time gives the normal (triangle → shape) and the point.
    let m = contact_any(mesh_pose, tri, &at, shape, 2.0 * slop + 1e-6).ok()?;
    let (normal, point) = match m {
        Some(m) if !m.is_empty() => {
            let deepest = m.points().iter().copied().fold(m.points()[0], |a, p| {
                if p.depth > a.depth {
                    p
                } else {
                    a
                }
            });
            (m.normal, deepest.point + m.normal * (0.5 * deepest.depth))
        }
        _ => {
            let n = -motion.try_normalize(Real::MIN_POSITIVE)?;
            (n, Point::from(at.translation.vector))
        }
    };
    let toi = Toi { t, normal, point };
    toi.is_finite().then_some(toi)
}

pub(crate) fn cast_shape<S: TriangleSource + ?Sized>(
    src: &S,
    mesh_pose: &Isometry,
    pose0: &Isometry,
    shape: ShapeRef,
    motion: &Vector,
    slop: Real,
) -> Option<MeshToi> {
    if !is_finite_vector(motion) || !slop.is_finite() || slop < 0.0 {
        return None;
    }
    let start = local_box(mesh_pose, pose0, shape)?;
    let f = Frame::at(mesh_pose);
    let (mesh_pose, pose0) = (&f.pose(mesh_pose), &f.pose(pose0));
    let local_motion = mesh_pose.rotation.inverse_transform_vector(motion);
    let end = Aabb::new_unchecked(start.mins + local_motion, start.maxs + local_motion);
    let q = start.merged(&end).loosened(slop);
    if !q.is_valid() {
        return None;
    }
    let mut best: Option<MeshToi> = None;
    src.visit(&q, &mut |id| {
        if let Some(toi) = triangle_toi(&src.tri(id), mesh_pose, pose0, shape, motion, slop) {
            let better = match best {
                None => true,
                Some(b) => toi.t < b.toi.t || (toi.t == b.toi.t && id < b.triangle),
            };
            if better {
                best = Some(MeshToi { triangle: id, toi });
            }
        }
        true
    });
    best.map(|b| MeshToi {
        toi: Toi {
            point: f.world_point(&b.toi.point),
            ..b.toi
        },
        ..b
    })
    .filter(|b| b.toi.is_finite())
}

/// The world box of the local box `b` at `pose` (centre and `|R|`-rotated half-extents,
/// RTCD §4.2.6).
pub(crate) fn world_aabb(b: &Aabb, pose: &Isometry) -> Aabb {
    let r = pose.rotation.to_rotation_matrix().into_inner().abs();
    let h = r * b.half_extents();
    let c = pose * b.center();
    Aabb::new_unchecked(c - h, c + h)
}
