//! Convex polyhedron against convex polyhedron (boxes and triangles included, as
//! [`ConvexPolyhedron`]s): separating axes and clipping.
//!
//! Which algorithm:
//! - The boolean test is the full SAT up to [`SAT_MAX_FACES`] faces, GJK
//!   ([`crate::gjk::intersects`]) beyond (see [`intersection_convex_convex`]).
//! - The contact, up to [`SAT_MAX_FACES`] faces on both sides, takes the deepest axis of the
//!   full SAT of [`crate::sat::convex`] (every face normal, every edge direction pair, by
//!   projecting all corners): the exact minimal translation, at O(E_A·E_B·(V_A + V_B)) cost
//!   (about 760 k instructions for two 12-point hulls). The Gauss-map SAT below was tried for
//!   small hulls too (33× fewer instructions) but the fuzzer found its depth not minimal on
//!   near-degenerate small hulls (18 of 46 inputs of one run, all passing on the full SAT), so
//!   exactness wins there.
//! - Beyond [`SAT_MAX_FACES`] faces the contact first asks GJK for the distance, so pairs
//!   farther apart than `prediction` cost only that. Otherwise the deepest axis comes from the
//!   Gauss-map SAT of [`crate::sat::gauss_map`] (face normals, plus only the edge pairs whose
//!   Gauss-map arcs cross): exact minimal translation for penetrating pairs. For apart pairs
//!   within `prediction`, that axis is used when it realises GJK's distance (the closest
//!   features are a face, or two crossing edges); corner-to-corner and corner-to-edge gaps keep
//!   GJK's single point between the closest points.
//!
//! Contact: the axis of largest separation (faces preferred within a small tolerance). A face
//! axis makes that face the *reference face*; the other shape's face most anti-parallel to it
//! is the *incident face*, clipped against the side planes of the reference face
//! (Sutherland–Hodgman, in f64: see `face_manifold`); points below the reference plane (or
//! within `prediction`) are kept, at most four. An edge × edge axis, or a face axis no face faces, gives one point where the
//! two support features meet ([`crate::contact::features`]).

use crate::contact::clipping::{clip_polygon_vec, reduce_to_four, ClipVertex};
use crate::contact::closest::closest_points_segments;
use crate::contact::features::{overlap_point, support_slice};
use crate::contact::{ContactPoint, Manifold};
use crate::gjk::{self, GjkResult};
use crate::math::{Isometry, Point, Real, Vector};
use crate::sat::convex::{DeepestAxis, Posed, SAT_MAX_FACES};
use crate::sat::gauss_map;
use crate::sat::SeparatingAxis;
use crate::shape::ConvexPolyhedron;
use nalgebra::Vector3;

/// A size of the pair, metres, for scale-aware tolerances.
fn pair_scale(a: &Posed, b: &Posed) -> Real {
    let size = |p: &Posed| {
        p.shape
            .vertices()
            .iter()
            .map(|v| (v - p.shape.centroid()).norm())
            .fold(0.0, Real::max)
    };
    size(a).max(size(b))
}

/// True when the two polyhedra overlap or touch: the full SAT of [`crate::sat::convex`] up to
/// [`SAT_MAX_FACES`] faces on both sides, GJK ([`crate::gjk::intersects`]) beyond.
///
/// GJK at every size was tried (3.7 times fewer instructions on two 12-point hulls) but a
/// 300 s fuzz run found it answering "apart" for ~70 small-hull pairs that still overlap by
/// about the fuzz tolerance (1 mm; slivers and repeated points stall its simplex), so small
/// pairs keep the exact test.
pub fn intersection_convex_convex(
    pose_a: &Isometry,
    a: &ConvexPolyhedron,
    pose_b: &Isometry,
    b: &ConvexPolyhedron,
) -> bool {
    if a.faces().len() > SAT_MAX_FACES || b.faces().len() > SAT_MAX_FACES {
        return gjk::intersects(pose_a, a, pose_b, b);
    }
    crate::sat::convex::convex_convex(&Posed::new(a, pose_a), &Posed::new(b, pose_b)).is_none()
}

/// Contact manifold of two polyhedra whose separation is at most `prediction` metres
/// (conventions of [`crate::contact`]): the full SAT for the axis up to [`SAT_MAX_FACES`]
/// faces; beyond, the Gauss-map SAT, with GJK for the distance of pairs it finds apart (see
/// the module docs).
pub fn contact_convex_convex(
    pose_a: &Isometry,
    a: &ConvexPolyhedron,
    pose_b: &Isometry,
    b: &ConvexPolyhedron,
    prediction: Real,
) -> Option<Manifold> {
    let pa = Posed::new(a, pose_a);
    let pb = Posed::new(b, pose_b);
    let tol = 1e-5 * pair_scale(&pa, &pb);
    if a.faces().len() <= SAT_MAX_FACES && b.faces().len() <= SAT_MAX_FACES {
        let best = crate::sat::convex::deepest_axis(&pa, &pb, tol)?;
        if best.separation > prediction {
            return None;
        }
        return Some(manifold_from_axis(&pa, &pb, &best, prediction));
    }
    // An axis separating by more than `prediction` means the distance is too.
    let best = gauss_map::deepest_axis_within(&pa, &pb, tol, prediction)?;
    // No axis separates: penetrating or touching, and `best` is the exact minimal
    // translation. (Two flat shapes, whose in-plane axes the Gauss map lacks, never get
    // here: they have two faces each and take the full SAT above.)
    if best.separation > 0.0 {
        if let GjkResult::Separated {
            distance,
            point_a,
            point_b,
            normal,
        } = gjk::distance(pose_a, a, pose_b, b)
        {
            // GJK's distance can overshoot in f32 when one shape is much larger than the gap
            // (a 5 cm hull 5 m from a wall 800 m wide: 5.02 for 4.96). The separation along
            // its normal, from the corners, is a true lower bound of the distance.
            let along = pb.project(&normal).0 - pa.project(&normal).1;
            let distance = along.min(distance);
            if distance > prediction {
                return None;
            }
            // Every axis's separation is at most the distance; when the Gauss-map axis falls
            // short of GJK's, it does not face the closest features (corner to corner or
            // corner to edge): one point between the closest points.
            if best.separation < distance - 10.0 * tol {
                let mut m = Manifold::new(normal);
                m.push(ContactPoint {
                    point: point_a + (point_b - point_a) * 0.5,
                    depth: -distance,
                    id: 0,
                });
                return Some(m);
            }
        }
    }
    Some(manifold_from_axis(&pa, &pb, &best, prediction))
}

/// Builds the manifold once the axis is known (`best.normal` from A to B).
pub(crate) fn manifold_from_axis(
    a: &Posed,
    b: &Posed,
    best: &DeepestAxis,
    prediction: Real,
) -> Manifold {
    let n = best.normal;
    // A face *direction* is tested both ways, so the axis may be the normal of a face on one
    // side of a shape only (a wedge's base tested upwards, towards its ridge): then the other
    // shape's face may face it, or neither does and the support points make the contact.
    let m = match best.axis {
        SeparatingAxis::FaceA(_) => face_manifold(a, b, &n, false, prediction)
            .or_else(|| face_manifold(b, a, &-n, true, prediction)),
        SeparatingAxis::FaceB(_) => face_manifold(b, a, &-n, true, prediction)
            .or_else(|| face_manifold(a, b, &n, false, prediction)),
        SeparatingAxis::EdgeEdge(i, j) => Some(edge_manifold(a, b, i, j, best)),
        _ => None,
    };
    let mut m = m.unwrap_or_else(|| support_manifold(a, b, best));
    m.set_depth(-best.separation);
    m
}

/// The face of `p` whose world normal is most aligned with `dir`, and that normal.
pub(crate) fn face_towards(p: &Posed, dir: &Vector) -> (usize, Vector) {
    let local = p.pose.rotation.inverse_transform_vector(dir);
    let mut best = 0;
    let mut bv = Real::NEG_INFINITY;
    for (k, f) in p.shape.faces().iter().enumerate() {
        let d = f.normal.dot(&local);
        if d > bv {
            bv = d;
            best = k;
        }
    }
    (best, p.pose.rotation * p.shape.faces()[best].normal)
}

/// Sine of the largest angle between the SAT's axis and a reference face's normal: face
/// directions are merged within 10⁻⁵ (`ConvexPolyhedron`), rotations add rounding; beyond
/// 10⁻⁴ the face is another face, and points measured along its normal would not match the
/// axis's depth (by up to the angle times the size of the pair).
const FACE_ALIGNED_SINE: Real = 1e-4;

/// Reference face of `rf` facing `dir` (from `rf` towards `inc`), incident face of `inc`;
/// None when no face of `rf` faces `dir` (within [`FACE_ALIGNED_SINE`]).
/// `flipped`: `rf` is shape B (the manifold normal is then `−dir`).
fn face_manifold(
    rf: &Posed,
    inc: &Posed,
    dir: &Vector,
    flipped: bool,
    prediction: Real,
) -> Option<Manifold> {
    let (ref_face, nr) = face_towards(rf, dir);
    if nr.cross(dir).norm() > FACE_ALIGNED_SINE || nr.dot(dir) <= 0.0 {
        // No face of `rf` faces `dir`: its depth and the points' would disagree.
        return None;
    }
    let (inc_face, _) = face_towards(inc, &-nr);
    // Clipped in f64 (see [`clip_polygon_vec`]): a needle reference face has corners whose
    // side planes meet at angles of 10⁻⁴ rad, and f32 rounding there put points millimetres
    // beyond the tip (outside the reference shape). Corners are taken to world space in f64
    // too, from the shapes' f32 local corners and poses, which are the exact input.
    let (pose_r, pose_i) = (rf.pose.cast::<f64>(), inc.pose.cast::<f64>());
    let n64 = nr.cast::<f64>();
    let ref_loop: Vec<Vector3<f64>> = rf
        .shape
        .face_loop(&rf.shape.faces()[ref_face])
        .iter()
        .map(|&i| (pose_r * rf.shape.vertices()[i as usize].cast::<f64>()).coords)
        .collect();
    let mut poly: Vec<ClipVertex<f64>> = inc
        .shape
        .face_loop(&inc.shape.faces()[inc_face])
        .iter()
        .enumerate()
        .map(|(k, &i)| ClipVertex {
            p: (pose_i * inc.shape.vertices()[i as usize].cast::<f64>()).coords,
            id: k as u32,
        })
        .collect();
    let mut out = Vec::with_capacity(poly.len() + ref_loop.len());
    for k in 0..ref_loop.len() {
        let v0 = ref_loop[k];
        let v1 = ref_loop[(k + 1) % ref_loop.len()];
        let side = (v1 - v0).cross(&n64);
        clip_polygon_vec(&poly, |p| side.dot(&(p - v0)), k as u32, &mut out);
        std::mem::swap(&mut poly, &mut out);
        if poly.is_empty() {
            return None;
        }
    }
    let v0 = ref_loop[0];
    let mut pts = Vec::new();
    let mut depths = Vec::new();
    let mut ids = Vec::new();
    for cv in &poly {
        let sep = n64.dot(&(cv.p - v0));
        if sep <= f64::from(prediction) {
            pts.push((cv.p - n64 * (0.5 * sep)).cast::<Real>());
            depths.push(-sep as Real);
            ids.push(cv.id);
        }
    }
    if pts.is_empty() {
        return None;
    }
    let face_key = (flipped as u32) << 31
        | ((ref_face as u32) & 0x7FF) << 20
        | ((inc_face as u32) & 0x7FF) << 9;
    let mut m = Manifold::new(if flipped { -nr } else { nr });
    let (keep, len) = reduce_to_four(&pts, &depths, &nr);
    for &q in &keep[..len] {
        m.push(ContactPoint {
            point: Point::from(pts[q]),
            depth: depths[q],
            id: face_key ^ (ids[q] & 0xFFFF),
        });
    }
    Some(m)
}

/// The edge of `p` with direction index `dir_index` farthest along `n` (world), as its two
/// world end points and its index.
pub(crate) fn support_edge(p: &Posed, dir_index: u16, n: &Vector) -> (Point, Point, usize) {
    let local = p.pose.rotation.inverse_transform_vector(n);
    let v = p.shape.vertices();
    let mut best = 0;
    let mut bv = Real::NEG_INFINITY;
    for (k, (e, &d)) in p
        .shape
        .edges()
        .iter()
        .zip(p.shape.edge_direction_of())
        .enumerate()
    {
        if d == dir_index {
            let s = (v[e[0] as usize].coords + v[e[1] as usize].coords).dot(&local);
            if s > bv {
                bv = s;
                best = k;
            }
        }
    }
    let e = p.shape.edges()[best];
    (p.pose * v[e[0] as usize], p.pose * v[e[1] as usize], best)
}

/// The slice of `p` (world space) within `band` of its extreme along `dir` (world), see
/// [`support_slice`].
fn slice_of(p: &Posed, dir: &Vector, band: Real) -> Vec<Point> {
    let corners: Vec<Point> = p.shape.vertices().iter().map(|v| p.pose * v).collect();
    support_slice(&corners, p.shape.edges(), dir, band)
}

/// One point where A's support feature along `n` meets B's along `−n` (see
/// [`crate::contact::features`]): on both shapes when they touch or penetrate along `n`, not
/// at the first of several corners or parallel edges at one height, which on slivers can lie
/// metres beside the other shape.
///
/// The features are the shapes' slices ([`support_slice`]) as thick as the penetration
/// `depth` along `n` (at least `1e-5` of the pair's size, as the face preference): A ∩ B
/// lies in that slab, so the two slices seen along `n` overlap over it even when the
/// extreme corners alone do not (a face tilted by 10⁻⁴ rad against a nearly coplanar face
/// of B touches it metres from its top corner).
///
/// Conversely, slices that do not overlap seen along `n` prove A ∩ B empty: the shapes are
/// apart, though the axis says they overlap by up to the rounding of its direction times the
/// pair's size (two needles touching at a corner, their overlap on an edge × edge axis
/// 3·10⁻⁶ m from a merged edge direction 10⁻⁵ rad off, while another axis separates them by
/// 10⁻⁵ m: the slab held A's far end and B's near end, 1.5 m apart). The point is then the
/// midpoint of the shapes' closest points ([`closest_points`]), not of the slices' nearest
/// approach, a point of neither shape.
fn meeting_point_of(a: &Posed, b: &Posed, n: &Vector, depth: Real) -> Point {
    let band = (1e-5 * pair_scale(a, b)).max(depth);
    let (fa, fb) = (slice_of(a, n, band), slice_of(b, &-n, band));
    overlap_point(&fa, &fb, n).unwrap_or_else(|| {
        let (pa, pb) = closest_points(a, b);
        pa + (pb - pa) * 0.5
    })
}

/// The closest points of two disjoint (or touching) polyhedra, world space, by brute force:
/// the closest pair of two convex polytopes is realised by two edges or by a corner and a
/// face (Ericson, RTCD §9.1), so the nearest of the edge × edge closest points
/// ([`closest_points_segments`]) and of the corners' projections that fall inside the other's
/// faces is exact. O(E_A·E_B + V_A·F_B + V_B·F_A): only for the rare case of
/// [`meeting_point_of`] (GJK, whose tolerance is about 10⁻⁵ m at the metre scale, calls the
/// needles there touching and gives no points).
fn closest_points(a: &Posed, b: &Posed) -> (Point, Point) {
    let world =
        |p: &Posed| -> Vec<Point> { p.shape.vertices().iter().map(|v| p.pose * v).collect() };
    let (wa, wb) = (world(a), world(b));
    let mut best = (Real::INFINITY, wa[0], wb[0]);
    let mut offer = |pa: Point, pb: Point| {
        let d = (pb - pa).norm_squared();
        if d < best.0 {
            best = (d, pa, pb);
        }
    };
    for ea in a.shape.edges() {
        for eb in b.shape.edges() {
            let (ca, cb, _, _) = closest_points_segments(
                &wa[ea[0] as usize],
                &wa[ea[1] as usize],
                &wb[eb[0] as usize],
                &wb[eb[1] as usize],
            );
            offer(ca, cb);
        }
    }
    // A corner of `from` against every face of `to` it projects into; `flip` orders the pair.
    let mut corner_face = |from: &[Point], to: &Posed, corners_to: &[Point], flip: bool| {
        for f in to.shape.faces() {
            let nf = to.pose.rotation * f.normal;
            let lp = to.shape.face_loop(f);
            for q in from {
                let inside = (0..lp.len()).all(|k| {
                    let v0 = corners_to[lp[k] as usize];
                    let v1 = corners_to[lp[(k + 1) % lp.len()] as usize];
                    (v1 - v0).cross(&(q - v0)).dot(&nf) >= 0.0
                });
                if inside {
                    let foot = q - nf * nf.dot(&(q - corners_to[lp[0] as usize]));
                    if flip {
                        offer(foot, *q);
                    } else {
                        offer(*q, foot);
                    }
                }
            }
        }
    };
    corner_face(&wa, b, &wb, false);
    corner_face(&wb, a, &wa, true);
    (best.1, best.2)
}

/// One point for an edge × edge axis: where the supporting features meet; the id names the
/// supporting edges of the two directions.
fn edge_manifold(a: &Posed, b: &Posed, i: u16, j: u16, best: &DeepestAxis) -> Manifold {
    let n = best.normal;
    let (_, _, ka) = support_edge(a, i, &n);
    let (_, _, kb) = support_edge(b, j, &-n);
    let mut m = Manifold::new(n);
    m.push(ContactPoint {
        point: meeting_point_of(a, b, &n, -best.separation),
        depth: -best.separation,
        id: 1 << 30 | ((ka as u32) & 0x7FFF) << 15 | (kb as u32) & 0x7FFF,
    });
    m
}

/// One point where the support features of A along `n` and of B along `−n` meet (fallback
/// when no face faces the axis).
fn support_manifold(a: &Posed, b: &Posed, best: &DeepestAxis) -> Manifold {
    let n = best.normal;
    let mut m = Manifold::new(n);
    m.push(ContactPoint {
        point: meeting_point_of(a, b, &n, -best.separation),
        depth: -best.separation,
        id: 1 << 29,
    });
    m
}
