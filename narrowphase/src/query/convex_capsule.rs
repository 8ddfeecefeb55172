//! Convex polyhedron (boxes and triangles included) against capsule.
//!
//! While the core segment is outside the polyhedron, GJK gives the distance and closest points
//! (the capsule's surface is its core pushed out by the radius), checked by a certificate,
//! with an exact brute-force answer when the certificate fails (see `core_distance`). Once the core
//! penetrates, a SAT between the segment and the polyhedron gives the least-penetration axis:
//! its candidates are the polyhedron's face normals and the segment's direction crossed with
//! each of its edge directions (the face normals of their Minkowski difference), and, for a
//! flat polyhedron (a triangle), the in-plane directions of [`in_plane_axes`].
//! When the normal is a face normal of the polyhedron (a capsule lying on a face), the core is
//! clipped by the face's side planes and both ends become points, so the capsule does not rock.

use super::capsule_round::{without_component, CapsuleCore};
use super::convex_ball::{point_separation, CERTIFICATE};
use super::convex_convex::face_towards;
use crate::contact::closest::closest_points_segments;
use crate::contact::features::{meeting_point, support_slice};
use crate::contact::{ContactPoint, Manifold};
use crate::gjk::{self, GjkResult, Segment};
use crate::math::{Isometry, Point, Real, Vector};
use crate::sat::convex::Posed;
use crate::shape::ConvexPolyhedron;

/// Cosine above which a contact normal counts as a face normal (two-point manifold).
const FACE_ALIGNED: Real = 0.999;

/// Sine of the largest angle between a SAT face axis and the face taken as facing it (as
/// `convex_convex`'s `FACE_ALIGNED_SINE`): face directions are merged within 10⁻⁵, rotations
/// add rounding; beyond this it is another face.
const FACE_AXIS_SINE: Real = 1e-4;

/// True when the polyhedron at `pose` and the capsule overlap or touch.
pub fn intersection_convex_capsule(
    pose: &Isometry,
    poly: &ConvexPolyhedron,
    cap: &CapsuleCore,
) -> bool {
    match core_distance(&Posed::new(poly, pose), cap) {
        None => true,
        Some((distance, ..)) => distance <= cap.radius,
    }
}

/// Contact of a polyhedron (A) against a capsule (B), gap at most `prediction` metres.
///
/// The depth is always `radius − sep(n)`, the overlap along the reported normal `n`. A nearby
/// face normal replaces `n` (two points, so the capsule does not rock) only when its
/// separation is as large within the certificate's tolerance, i.e. when it is a least-depth
/// direction too.
pub fn contact_convex_capsule(
    pose: &Isometry,
    poly: &ConvexPolyhedron,
    cap: &CapsuleCore,
    prediction: Real,
) -> Option<Manifold> {
    let posed = Posed::new(poly, pose);
    let Some((sep_n, n, core_point)) = core_distance(&posed, cap) else {
        return penetrating(&posed, cap, prediction);
    };
    if sep_n > cap.radius + prediction {
        return None;
    }
    let tol = CERTIFICATE * scale_of(&posed, cap);
    let (_, nf) = face_towards(&posed, &n);
    let sep_f = core_separation(&posed, cap, &nf);
    if sep_f >= sep_n - tol {
        if let Some(mut m) = face_points(&posed, cap, &nf, prediction) {
            m.set_depth(cap.radius - sep_f);
            return Some(m);
        }
    }
    let depth = cap.radius - sep_n;
    let mut m = Manifold::new(n);
    m.push(ContactPoint {
        // Midway between the polyhedron's surface and the capsule's.
        point: core_point - n * (0.5 * (sep_n + cap.radius)),
        depth,
        id: 0,
    });
    Some(m)
}

/// The largest absolute coordinate of the corners and the core's ends, in the frame the pair
/// is given in: the scale of the certificate's tolerance, that of the coordinates' rounding.
/// Through [`super::contact`] and [`super::intersection_test`] the frame's origin is the
/// pair's midpoint (see [`super`], "The frame of computation"), so this is the pair's own
/// size, wherever the pair is.
fn scale_of(posed: &Posed, cap: &CapsuleCore) -> Real {
    posed
        .shape
        .vertices()
        .iter()
        .map(|v| (posed.pose * v).coords.amax())
        .fold(cap.a.coords.amax().max(cap.b.coords.amax()), Real::max)
}

/// When the core is apart from the polyhedron: its distance, the unit direction from the
/// polyhedron to the core that realises it (world), and the core's closest point. None when
/// they intersect.
///
/// GJK's answer is kept when certified: its distance `d` is an upper bound of the true one and
/// the separation of the core along its normal `n` a lower bound, so `d − sep(n) ≤
/// CERTIFICATE · scale` (as for the sphere, [`super::convex_ball::CERTIFICATE`]) proves `n`.
/// Otherwise (GJK stopped early: long thin Minkowski differences round its simplex badly) the
/// exact segment–polytope answer of [`exact_core_distance`] is used.
fn core_distance(posed: &Posed, cap: &CapsuleCore) -> Option<(Real, Vector, Point)> {
    let seg = Segment { a: cap.a, b: cap.b };
    match gjk::distance(posed.pose, posed.shape, &Isometry::identity(), &seg) {
        GjkResult::Intersecting => None,
        GjkResult::Separated {
            distance,
            point_b,
            normal,
            ..
        } => {
            let sep = core_separation(posed, cap, &normal);
            if distance - sep <= CERTIFICATE * scale_of(posed, cap) {
                Some((sep, normal, point_b))
            } else {
                exact_core_distance(posed, cap)
            }
        }
    }
}

/// The exact distance of a segment to a convex polyhedron, by brute force (the slow path of
/// [`core_distance`]). The segment–polytope SAT (faces, edges × segment) proves the two apart
/// or intersecting (None). When apart, the closest pair is an end of the segment and the
/// polyhedron, or a point of the segment and a point of an edge (a face parallel to the
/// segment also has an end among its closest pairs, or a pair across one of the face's
/// edges); so the nearest of the pairs (each end and its closest point of the polytope,
/// [`super::convex_ball::point_separation`]; the segment and each edge) is a closest pair, and
/// its point of the core is returned. The returned direction and distance are the candidate
/// direction (each pair's direction, exactly across both when the closest points are inside
/// both, and the SAT's best axis) along which the core's separation is largest, and that
/// separation: along any unit axis it is a lower bound of the distance, and along the closest
/// pair's direction it reaches it. Choosing the direction of the nearest pair instead fails
/// on near ties: a pair a few µm apart (GJK's uncertified case) has a direction made of
/// rounding, an edge nearly parallel to the core has an ill-conditioned cross product, and a
/// corner 0.2 mm beside the closest point of a face is as near within f32 rounding while
/// its direction is turned by 2.7·10⁻⁴ rad (fuzz input
/// `box_capsule_depth_minus_tol_separates`). The depth `radius − sep` is so never below the
/// true one.
fn exact_core_distance(posed: &Posed, cap: &CapsuleCore) -> Option<(Real, Vector, Point)> {
    let d = cap.b - cap.a;
    let (sat, sat_axis) = segment_sat(posed, cap);
    if sat <= 0.0 {
        return None;
    }
    // The core's point comes from the nearest pair: parallel edges give the same direction
    // and separation, but only the nearest one's pair holds the core's closest point. The
    // direction is the one that separates the core most: a corner a fraction of a millimetre
    // beside the closest point of a face is as near to within rounding (its distance exceeds
    // the true one by the square of that offset), but its direction is turned by the offset
    // over the distance, and along it the far side of a long polyhedron rises by that angle
    // times its length. Every unit direction's separation is a lower bound of the distance and
    // the closest pair's reaches it, so the largest is the right one.
    // (distance, the core's point), (separation, direction)
    let mut nearest = (Real::INFINITY, cap.a);
    let mut widest = (sat, sat_axis);
    let mut consider = |dist: Real, n: Vector, on_core: Point| {
        if dist < nearest.0 {
            nearest = (dist, on_core);
        }
        let sep = core_separation(posed, cap, &n);
        if sep > widest.0 {
            widest = (sep, n);
        }
    };
    for end in [cap.a, cap.b] {
        let local = posed.pose.inverse_transform_point(&end);
        let (dist, n) = point_separation(posed.shape, &local);
        consider(dist, posed.pose.rotation * n, end);
    }
    let verts = posed.shape.vertices();
    for &[i, j] in posed.shape.edges() {
        let (p, q) = (
            posed.pose * verts[i as usize],
            posed.pose * verts[j as usize],
        );
        let (ce, cs, s, t) = closest_points_segments(&p, &q, &cap.a, &cap.b);
        let between = cs - ce;
        let (inside_e, inside_s) = (s > 0.0 && s < 1.0, t > 0.0 && t < 1.0);
        let n = match (q - p).cross(&d).try_normalize(0.0) {
            Some(c) if inside_e && inside_s => c * c.dot(&between).signum(),
            _ if inside_e => without_component(&between, &(q - p)),
            _ if inside_s => without_component(&between, &d),
            _ => between,
        };
        if let Some(n) = n.try_normalize(0.0) {
            consider(between.norm(), n, cs);
        }
    }
    let ((_, core_point), (sep, n)) = (nearest, widest);
    Some((sep, n, core_point))
}

/// The SAT of the core segment against the polyhedron: the core's largest separation over
/// the polyhedron's face normals and the segment's direction crossed with each edge
/// direction (both ways), and the unit axis (world, from the polyhedron to the core) giving
/// it. Every unit axis gives a lower bound of the distance (an upper bound of the depth), so
/// an edge nearly parallel to the core is kept unless the cross product vanishes: its
/// direction is rounded, but it is measured exactly, and skipping it lost the thin faces of
/// the Minkowski sum that give the least depth of a core lying along an edge.
fn segment_sat(posed: &Posed, cap: &CapsuleCore) -> (Real, Vector) {
    let du = (cap.b - cap.a).try_normalize(0.0).unwrap_or_else(Vector::y);
    let faces = posed
        .shape
        .face_normals()
        .iter()
        .map(|n| posed.pose.rotation * n);
    let edges = posed
        .shape
        .edge_directions()
        .iter()
        .filter_map(|e| du.cross(&(posed.pose.rotation * e)).try_normalize(0.0));
    let mut best = (Real::NEG_INFINITY, Vector::y());
    for l in faces.chain(edges).chain(in_plane_axes(posed, &du)) {
        for l in [l, -l] {
            let s = core_separation(posed, cap, &l);
            if s > best.0 {
                best = (s, l);
            }
        }
    }
    best
}

/// How far the capsule's core lies beyond the polyhedron along the unit `n` (world):
/// `min(a · n, b · n) − h(n)`, negative when they overlap on `n`.
fn core_separation(posed: &Posed, cap: &CapsuleCore, n: &Vector) -> Real {
    let (_, pmax) = posed.project(n);
    n.dot(&cap.a.coords).min(n.dot(&cap.b.coords)) - pmax
}

/// The extra SAT candidates of a flat polyhedron (a triangle; world frame, unit, either sign):
/// the in-plane normals `n × e` of its edges and the in-plane perpendicular `n × du` of the
/// core's direction `du`; nothing for a solid polyhedron.
///
/// A triangle and a segment are both degenerate polytopes: when the core lies in (or within
/// rounding of) the triangle's plane, every `du × e` is parallel to the normal `n`, and a
/// core passing beside the triangle in its plane is separated only by one of these in-plane
/// directions (fuzz input `capsule_triangle_coplanar_depth_not_minimal`: a core 4.8 mm beside
/// a 3 mm triangle in its plane got the full radius as depth). Like every candidate, they are
/// measured exactly by projection, so they can only bring the separation closer to the true
/// one.
fn in_plane_axes<'a>(posed: &'a Posed, du: &Vector) -> impl Iterator<Item = Vector> + 'a {
    // A flat polyhedron has its two faces back to back; `n` is unused otherwise.
    let flat = posed.shape.is_flat();
    let n = match posed.shape.face_normals().first() {
        Some(n) if flat => posed.pose.rotation * n,
        _ => Vector::zeros(),
    };
    let du = *du;
    posed
        .shape
        .edge_directions()
        .iter()
        .filter(move |_| flat)
        .map(move |e| n.cross(&(posed.pose.rotation * e)))
        .chain(std::iter::once(n.cross(&du)).filter(move |_| flat))
        .filter_map(|l| l.try_normalize(0.0))
}

/// The core penetrates: SAT between the segment and the polyhedron.
fn penetrating(posed: &Posed, cap: &CapsuleCore, prediction: Real) -> Option<Manifold> {
    let d = cap.b - cap.a;
    let dl = d.norm();
    let du = if dl > 0.0 { d / dl } else { Vector::y() };
    let seg_proj = |l: &Vector| {
        let (x, y) = (l.dot(&cap.a.coords), l.dot(&cap.b.coords));
        (x.min(y), x.max(y))
    };
    let sep_on = |l: &Vector| {
        let (pmin, pmax) = posed.project(l);
        let (smin, smax) = seg_proj(l);
        let (f, b) = (smin - pmax, pmin - smax);
        if f >= b {
            (f, *l)
        } else {
            (b, -l)
        }
    };
    let mut best_face = (Real::NEG_INFINITY, Vector::y());
    for n in posed.shape.face_normals() {
        let l = posed.pose.rotation * n;
        let (s, dir) = sep_on(&l);
        if s > best_face.0 {
            best_face = (s, dir);
        }
    }
    let mut best_edge = (Real::NEG_INFINITY, Vector::y(), 0u16);
    for (j, e) in posed.shape.edge_directions().iter().enumerate() {
        // Kept however nearly parallel (see `segment_sat`).
        let Some(c) = du.cross(&(posed.pose.rotation * e)).try_normalize(0.0) else {
            continue;
        };
        let (s, dir) = sep_on(&c);
        if s > best_edge.0 {
            best_edge = (s, dir, j as u16);
        }
    }
    // A flat polyhedron's in-plane directions compete as edge axes (a point contact); their
    // feature ids follow the edges'.
    let edges = posed.shape.edge_directions().len();
    for (k, l) in in_plane_axes(posed, &du).enumerate() {
        let (s, dir) = sep_on(&l);
        if s > best_edge.0 {
            best_edge = (s, dir, (edges + k) as u16);
        }
    }
    let size = posed
        .shape
        .vertices()
        .iter()
        .map(|v| (v - posed.shape.centroid()).norm())
        .fold(dl, Real::max);
    let tol = 1e-5 * size;
    let depth_of = |s: Real| cap.radius - s;
    if best_edge.0 > best_face.0 + tol {
        let (s, n, j) = best_edge;
        if s - cap.radius > prediction {
            return None;
        }
        let point = meeting_point_of(posed, cap, &n, depth_of(s).max(tol));
        let mut m = Manifold::new(n);
        m.push(ContactPoint {
            point,
            depth: depth_of(s),
            id: 1 << 30 | j as u32,
        });
        return Some(m);
    }
    let (s, n) = best_face;
    if s - cap.radius > prediction {
        return None;
    }
    // A face direction is tested both ways: the polyhedron may have no face facing `n` (then
    // the nearest face's normal would disagree with the depth measured along `n`).
    let (_, nf) = face_towards(posed, &n);
    let facing = nf.dot(&n) > 0.0 && nf.cross(&n).norm() <= FACE_AXIS_SINE;
    let clipped = if facing {
        face_points(posed, cap, &n, prediction)
    } else {
        None
    };
    let mut m = clipped.unwrap_or_else(|| {
        // One point, where the two shapes meet: under a facing face whose clipping left
        // nothing (the core lies on one of its side planes), or when no face faces `n` (the
        // deepest end of the core can be metres beside the polyhedron when the core lies
        // along it).
        let mut m = Manifold::new(n);
        m.push(ContactPoint {
            point: meeting_point_of(posed, cap, &n, depth_of(s).max(tol)),
            depth: depth_of(s),
            id: 0,
        });
        m
    });
    m.set_depth(depth_of(s));
    Some(m)
}

/// Where the polyhedron's slice along `n` (from it to the capsule) meets the capsule's
/// surface feature along `−n` (its core pushed out by the radius), both as thick as `band`
/// metres, the penetration depth ([`support_slice`]): not the first of several parallel edges
/// at one height, nor the deepest end of a core lying along a face, which on slivers can lie
/// metres from the other shape.
fn meeting_point_of(posed: &Posed, cap: &CapsuleCore, n: &Vector, band: Real) -> Point {
    let corners: Vec<Point> = posed
        .shape
        .vertices()
        .iter()
        .map(|v| posed.pose * v)
        .collect();
    let surface = [cap.a - n * cap.radius, cap.b - n * cap.radius];
    meeting_point(
        &support_slice(&corners, posed.shape.edges(), n, band),
        &support_slice(&surface, &[[0, 1]], &-n, band),
        n,
    )
}

/// When `n` (from the polyhedron to the capsule) is a face normal: the core clipped by that
/// face's side planes, each remaining end one point (ids 1, 2). None otherwise.
fn face_points(posed: &Posed, cap: &CapsuleCore, n: &Vector, prediction: Real) -> Option<Manifold> {
    let (f, nf) = face_towards(posed, n);
    if nf.dot(n) < FACE_ALIGNED {
        return None;
    }
    let shape = posed.shape;
    let lp: Vec<Point> = shape
        .face_loop(&shape.faces()[f])
        .iter()
        .map(|&i| posed.pose * shape.vertices()[i as usize])
        .collect();
    let (mut t0, mut t1) = (0.0, 1.0);
    let d = cap.b - cap.a;
    for k in 0..lp.len() {
        let side = (lp[(k + 1) % lp.len()] - lp[k]).cross(&nf);
        let s0 = side.dot(&(cap.a - lp[k]));
        let sd = side.dot(&d);
        // Keep s0 + t·sd ≤ 0.
        if sd.abs() <= Real::EPSILON * side.norm() * d.norm() {
            if s0 > 0.0 {
                return None;
            }
        } else if sd > 0.0 {
            t1 = Real::min(t1, -s0 / sd);
        } else {
            t0 = Real::max(t0, -s0 / sd);
        }
        if t0 > t1 {
            return None;
        }
    }
    let mut m = Manifold::new(nf);
    for (k, t) in [t0, t1].into_iter().enumerate() {
        if k == 1 && (t1 - t0) * d.norm() <= 1e-6 * d.norm() {
            break;
        }
        let p = cap.a + d * t;
        let sep = nf.dot(&(p - lp[0])) - cap.radius;
        if sep <= prediction {
            let sb = p - nf * cap.radius;
            m.push(ContactPoint {
                point: sb - nf * (0.5 * sep),
                depth: -sep,
                id: 1 + k as u32,
            });
        }
    }
    (!m.is_empty()).then_some(m)
}
