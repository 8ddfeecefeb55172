//! Triangle against cuboid: the 13-axis SAT of [`crate::sat::triangle_cuboid`] for the boolean
//! test (in the box's frame, three corner rotations on SIMD lanes, no branch, no allocation),
//! and a contact manifold of its own for the contact query.
//!
//! Contact, in the box's frame (box centred at the origin, axis-aligned; the triangle's corners
//! moved there), on the same 13 axes (Ericson, RTCD §5.2.9), with the reference/incident face
//! scheme of [`super::contact_cuboid_cuboid`] (Box2D's `b2CollidePolygons`, Gregorius'
//! "Robust contact creation for physics simulations", GDC 2013):
//! 1. the separation on every axis, oriented from the triangle to the box: the triangle's
//!    interval `[lo, hi]` on axis `a` against the box's `[−r, r]` gives `max(−hi, lo) − r`,
//!    along `a` when the triangle lies on its negative side, else along `−a`. The triangle has
//!    no thickness and two sides: the side of its plane the box's centre is on wins (a box
//!    sunk past the plane's middle is pushed out through the back, as the general polyhedron
//!    contact does). An edge × box-axis axis counts only when the triangle's edge is the
//!    triangle's support along it (else the axis is no face of the pair's Minkowski
//!    difference: it bounds the separation but never gives the least one alone);
//! 2. the best face axis, the triangle's normal winning ties within the tolerance of
//!    [`super::contact_cuboid_cuboid`]: on the triangle's normal, the box's face most
//!    anti-parallel to it is clipped by the triangle's three side planes; on a box face, the
//!    triangle is clipped by that face's four side planes; points below the reference face,
//!    or within `prediction` above it, are kept, at most four;
//! 3. an edge axis better than the best face axis by more than the tolerance: one point,
//!    midway between the closest points of the triangle's edge and the box's edge; dropped
//!    for the next best axis when the edges do not cross seen along it; when it lies within
//!    0.1 rad of the best face axis (nearly aligned shapes), the contact keeps its normal and
//!    depth with the face's points (as for two boxes).
//!
//! Depth is the separation on the chosen axis, negated: for a triangle and a box the minimal
//! translation is always along one of the 13 axes.

use super::cuboid_cuboid::{
    clip_step, clip_to_rectangle, closest_on_crossing_segments, face_supported, face_tolerance,
    first_max, from_face, nearly_face, to_face, SINE_FLOOR,
};
use crate::contact::clipping::{reduce_to_four, ClipPolygon, MAX_CLIP_VERTICES};
use crate::contact::closest::{closest_point_on_triangle, closest_points_segments};
use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Point, Real, Vector};
use crate::sat::triangle_cuboid::overlap_poses;
use crate::shape::Triangle;

/// Feature-id tag of a point whose reference face is the triangle.
const TRIANGLE_FACE: u32 = 1 << 29;
/// Feature-id tag of a point whose reference face is one of the box's.
const BOX_FACE: u32 = 1 << 28;
/// Feature-id tag of an edge × edge point.
const EDGES: u32 = 1 << 30;

/// True when the triangle at `pose_t` and the cuboid (half-extents `e`) at `pose_b` overlap or
/// touch.
#[inline]
pub fn intersection_triangle_cuboid(
    pose_t: &Isometry,
    tri: &Triangle,
    pose_b: &Isometry,
    e: &Vector,
) -> bool {
    overlap_poses(pose_t, tri.corners(), pose_b, e)
}

/// The contact manifold of the triangle `tri` at `pose_t` (A) against the box of half-extents
/// `e` at `pose_b` (B) when their separation is at most `prediction` metres: normal from the
/// triangle to the box, up to four points midway between the surfaces, in the frame of the
/// poses (see the module docs and [`crate::contact`] for the conventions). Ids are stable
/// while the same features touch.
pub fn contact_triangle_cuboid(
    pose_t: &Isometry,
    tri: &Triangle,
    pose_b: &Isometry,
    e: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let t = InBox::new(pose_t, tri, pose_b);
    let local = contact_in_box(&t, e, prediction)?;
    Some(to_frame(&local, pose_b))
}

/// [`contact_triangle_cuboid`] for a triangle already seen from the box (a mesh's rejection
/// test moved it there): corners `v` and unit normal `n` in the frame of the box at `pose_b`;
/// the manifold in the frame of the poses, as [`contact_triangle_cuboid`] gives it.
pub(crate) fn contact_triangle_cuboid_seen(
    v: [Vector; 3],
    n: Vector,
    pose_b: &Isometry,
    e: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let local = contact_in_box(&InBox::of(v, n), e, prediction)?;
    Some(to_frame(&local, pose_b))
}

/// The triangle in the box's frame: corners `v`, unit normal `n`, edges `f[i] = v[i+1] − v[i]`
/// and their lengths.
struct InBox {
    v: [Vector; 3],
    n: Vector,
    f: [Vector; 3],
    len: [Real; 3],
}

impl InBox {
    /// The triangle `tri` at `pose_t` seen from the box at `pose_b`.
    #[inline(always)]
    fn new(pose_t: &Isometry, tri: &Triangle, pose_b: &Isometry) -> Self {
        let to_box = pose_b.inv_mul(pose_t);
        let v = tri.corners().map(|p| (to_box * p).coords);
        Self::of(v, to_box.rotation * tri.normal())
    }

    /// The triangle of corners `v` and unit normal `n`, both in the box's frame.
    #[inline(always)]
    fn of(v: [Vector; 3], n: Vector) -> Self {
        let f = [v[1] - v[0], v[2] - v[1], v[0] - v[2]];
        InBox {
            v,
            n,
            f,
            len: f.map(|x| x.norm()),
        }
    }

    /// The triangle's highest projection on `d`.
    #[inline(always)]
    fn top(&self, d: &Vector) -> Real {
        let v = &self.v;
        d.dot(&v[0]).max(d.dot(&v[1])).max(d.dot(&v[2]))
    }
}

/// The box's radius along the unit direction `d` (half-extents `e`).
#[inline(always)]
fn radius(e: &Vector, d: &Vector) -> Real {
    e.x * d.x.abs() + e.y * d.y.abs() + e.z * d.z.abs()
}

/// The contact of the triangle `tri` at `pose_t` (A) and the box of half-extents `e` at
/// `pose_b` (B) measured along the given unit `normal` (frame of the poses, from the triangle
/// to the box) instead of the best axis: the internal-edge correction of a mesh's triangle
/// ([`crate::mesh`]), whose normal is the triangle's own or its neighbour's. Depth: the
/// separation of the two projections on `normal`, negated; points: the box's face most
/// anti-parallel to `normal` clipped by the triangle's side planes, each with its own depth
/// along `normal`; when no point of that face lies over the triangle (the box reaches it by
/// an edge or a corner), one point: the middle of the box's support feature along
/// `−normal`, at the pair's depth. `None` when that separation exceeds `prediction`.
pub(crate) fn contact_triangle_cuboid_along(
    pose_t: &Isometry,
    tri: &Triangle,
    pose_b: &Isometry,
    e: &Vector,
    normal: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let t = InBox::new(pose_t, tri, pose_b);
    let d = pose_b.rotation.inverse_transform_vector(normal);
    let sep = -radius(e, &d) - t.top(&d);
    if beyond(sep, prediction) {
        return None;
    }
    let local = triangle_face_contact(&t, &d, e, sep, prediction)
        .unwrap_or_else(|| support_contact(&d, e, sep));
    Some(to_frame(&local, pose_b))
}

/// One point at the middle of the box's support feature along `−d` (the corners within
/// rounding of the lowest), moved back half the separation `sep` along `d`; depth `−sep`.
fn support_contact(d: &Vector, e: &Vector, sep: Real) -> Manifold {
    // Each coordinate of the support feature: the face's side against d, or the middle (0)
    // where d is level with that axis to within rounding.
    let flat = 1e-6 * d.amax();
    let mut p = Vector::zeros();
    let mut id = 0u32;
    for c in 0..3 {
        if d[c].abs() > flat {
            p[c] = -d[c].signum() * e[c];
            id |= (1 + (d[c] < 0.0) as u32) << (2 * c);
        }
    }
    let mut m = Manifold::new(*d);
    m.push(ContactPoint {
        point: Point::from(p - d * (0.5 * sep)),
        depth: -sep,
        id: TRIANGLE_FACE | 1 << 23 | id,
    });
    m
}

/// The box-frame manifold `local` in the frame of the poses (the box at `pose_b`).
fn to_frame(local: &Manifold, pose_b: &Isometry) -> Manifold {
    local.map_points(pose_b.rotation * local.normal, |p| ContactPoint {
        point: pose_b * p.point,
        ..*p
    })
}

/// True when the separation `s` exceeds `prediction` or is NaN (a non-finite pose): no
/// contact.
#[inline(always)]
fn beyond(s: Real, prediction: Real) -> bool {
    s > prediction || s.is_nan()
}

/// The separation `max(−hi, lo) − r` of the interval `[lo, hi]` from `[−r, r]` on axis `a`,
/// with the direction from the interval to the box: `a` when the interval lies on the
/// negative side, else `−a`.
#[inline(always)]
fn oriented(a: Vector, lo: Real, hi: Real, r: Real) -> (Real, Vector) {
    if -hi >= lo {
        (-hi - r, a)
    } else {
        (lo - r, -a)
    }
}

/// The contact of the triangle `t` with the box of half-extents `e`, in the box's frame.
fn contact_in_box(t: &InBox, e: &Vector, prediction: Real) -> Option<Manifold> {
    let scale = e.max() + 0.5 * t.len.iter().copied().fold(0.0, Real::max);
    let tol = face_tolerance(scale);
    let mut bound = (Real::NEG_INFINITY, Vector::zeros());
    let m = axis_contact(t, e, prediction, tol, &mut bound)?;
    let (proven, d) = bound;
    if proven > tol && -m.depth() < proven - tol {
        // Apart by more than the contact's axis says: an axis left out of the choice (an
        // edge axis whose edge is not the triangle's support) proves a larger gap, so the
        // chosen features are not the closest ones.
        return closest_contact(&t.v, e, &d, proven, tol, prediction);
    }
    Some(m)
}

/// The contact on the best of the 13 axes (steps 1–3 of the module docs); `bound` receives
/// the largest separation over all of them and its direction.
fn axis_contact(
    t: &InBox,
    e: &Vector,
    prediction: Real,
    tol: Real,
    bound: &mut (Real, Vector),
) -> Option<Manifold> {
    let (v, n, f) = (&t.v, &t.n, &t.f);
    let mut offer = |s: Real, d: &Vector| {
        if s > bound.0 {
            *bound = (s, *d);
        }
    };

    // 1. The triangle's normal (all three corners projected: the rounded normal is not
    //    exactly normal to every edge).
    let p = v.map(|c| n.dot(&c));
    let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
    let (tri_sep, tri_d) = oriented(*n, lo, hi, radius(e, n));
    if beyond(tri_sep, prediction) {
        return None;
    }
    offer(tri_sep, &tri_d);
    // The box's faces.
    let (mut box_sep, mut box_j, mut box_d) = (Real::NEG_INFINITY, 0, Vector::zeros());
    for j in 0..3 {
        let (lo, hi) = (
            v[0][j].min(v[1][j]).min(v[2][j]),
            v[0][j].max(v[1][j]).max(v[2][j]),
        );
        let (s, d) = oriented(Vector::ith(j, 1.0), lo, hi, e[j]);
        if beyond(s, prediction) {
            return None;
        }
        offer(s, &d);
        if s > box_sep {
            (box_sep, box_j, box_d) = (s, j, d);
        }
    }
    // Triangle edge i × box axis j, at index 3i + j.
    let mut edge_seps = [Real::NEG_INFINITY; 9];
    let mut edge_ds = [Vector::zeros(); 9];
    for i in 0..3 {
        for j in 0..3 {
            let a = Vector::ith(j, 1.0).cross(&f[i]);
            let len = a.norm();
            // Parallel to a box axis: the box's faces bound this direction already.
            if len <= SINE_FLOOR * t.len[i] || len.is_nan() {
                continue;
            }
            let a = a / len;
            let (t_edge, t_other) = (a.dot(&v[i]), a.dot(&v[(i + 2) % 3]));
            let (s, d) = oriented(a, t_edge.min(t_other), t_edge.max(t_other), radius(e, &a));
            if beyond(s, prediction) {
                return None;
            }
            offer(s, &d);
            // The edge must be the triangle's support along d (module docs, step 1).
            if d.dot(&v[(i + 2) % 3]) <= d.dot(&v[i]) + tol {
                (edge_seps[3 * i + j], edge_ds[3 * i + j]) = (s, d);
            }
        }
    }

    // 2. The best face axis: the triangle's unless a box face beats it by the tolerance.
    let face = if box_sep > tri_sep + tol {
        Face::Box(box_j, box_d, box_sep)
    } else {
        Face::Triangle(tri_d, tri_sep)
    };
    let face_sep = face.sep();
    // A face axis whose faces do not overlap seen along it (the pair is apart and its closest
    // features are corners or an edge and a corner, on none of the 13 axes; or rounding
    // cut a touching clip away) gives one point between the closest points.
    let face_contact = |face: Face| {
        match face {
            Face::Triangle(d, sep) => triangle_face_contact(t, &d, e, sep, prediction),
            Face::Box(j, d, sep) => box_face_contact(v, j, &d, e, sep, prediction),
        }
        .or_else(|| closest_contact(v, e, &face.direction(), face.sep(), tol, prediction))
    };
    // 3. An edge axis, when it beats the face axis (see the module docs).
    loop {
        let (k, edge_sep) = first_max(&edge_seps);
        if edge_sep <= face_sep + tol || edge_sep.is_nan() {
            return face_contact(face);
        }
        let (i, j) = (k / 3, k % 3);
        if let Some(m) = edge_contact(t, e, i, j, &edge_ds[k], edge_sep, tol) {
            if !nearly_face(&m.normal, &face.direction()) {
                return Some(m);
            }
            let faces = face_contact(face);
            return Some(faces.and_then(|c| face_supported(&m, &c)).unwrap_or(m));
        }
        edge_seps[k] = Real::NEG_INFINITY;
        let (_, next) = first_max(&edge_seps);
        if next.max(face_sep) < edge_sep - tol {
            // No other axis ties with the dropped one: the shapes are apart (within
            // `prediction`), where no such tie holds and the closest features are not on the
            // axes, or rounding misled the crossing test (nearly parallel edges): keep the
            // dropped axis, its points clamped to the edges.
            if edge_sep > 0.0 {
                return closest_contact(v, e, &edge_ds[k], edge_sep, tol, prediction);
            }
            return edge_contact(t, e, i, j, &edge_ds[k], edge_sep, Real::INFINITY);
        }
    }
}

/// The best face axis: the triangle's normal (direction from the triangle to the box,
/// separation) or box face `j` (same).
#[derive(Clone, Copy)]
enum Face {
    Triangle(Vector, Real),
    Box(usize, Vector, Real),
}

impl Face {
    fn sep(self) -> Real {
        match self {
            Face::Triangle(_, s) | Face::Box(_, _, s) => s,
        }
    }

    fn direction(self) -> Vector {
        match self {
            Face::Triangle(d, _) | Face::Box(_, d, _) => d,
        }
    }
}

/// One point midway between the closest points of the triangle `v` and the box `e` (box
/// frame). The closest pair of two convex polytopes is a corner and a face or two edges
/// (Ericson, RTCD §9.1), so the nearest of each corner's closest point on the other shape and
/// of the edge × edge closest points is exact (for overlapping shapes, some point common to
/// both). Apart on the axis `d` (`sep > 0`) and more than `tol` apart, the contact takes the
/// closest points' direction and distance (the axis's `sep` only bounds the distance from
/// below), `None` beyond `prediction`; otherwise normal `d`, depth `−sep`.
fn closest_contact(
    v: &[Vector; 3],
    e: &Vector,
    d: &Vector,
    sep: Real,
    tol: Real,
    prediction: Real,
) -> Option<Manifold> {
    let pv = v.map(Point::from);
    let mut best = (Real::INFINITY, Point::origin(), Point::origin());
    let mut offer = |a: Point, b: Point| {
        let d2 = (b - a).norm_squared();
        if d2 < best.0 {
            best = (d2, a, b);
        }
    };
    for p in &pv {
        offer(*p, Point::from(p.coords.zip_map(e, |x, h| x.clamp(-h, h))));
    }
    let corner = |k: usize| {
        Point::new(
            if k & 1 == 0 { -e.x } else { e.x },
            if k & 2 == 0 { -e.y } else { e.y },
            if k & 4 == 0 { -e.z } else { e.z },
        )
    };
    for k in 0..8 {
        let c = corner(k);
        offer(closest_point_on_triangle(&c, &pv[0], &pv[1], &pv[2]), c);
    }
    for i in 0..3 {
        for k in 0..8 {
            for axis in 0..3 {
                // Each box edge once: from a corner with bit `axis` clear.
                if k & (1 << axis) == 0 {
                    let (a, b, _, _) = closest_points_segments(
                        &pv[i],
                        &pv[(i + 1) % 3],
                        &corner(k),
                        &corner(k | 1 << axis),
                    );
                    offer(a, b);
                }
            }
        }
    }
    let (_, a, b) = best;
    let dist = (b - a).norm();
    let (normal, depth) = if sep > 0.0 && dist > tol {
        if beyond(dist, prediction) {
            return None;
        }
        ((b - a) / dist, -dist)
    } else {
        (*d, -sep)
    };
    let mut m = Manifold::new(normal);
    m.push(ContactPoint {
        point: a + (b - a) * 0.5,
        depth,
        id: TRIANGLE_FACE | 1 << 22,
    });
    Some(m)
}

/// `[p.x, p.y, p.z, 0]`.
#[inline(always)]
fn lanes(p: &Vector) -> [Real; 4] {
    [p.x, p.y, p.z, 0.0]
}

/// The manifold of the kept points of `poly` (lanes: a point of the box's frame as `to_point`
/// reads it, lane 3 the depth), normal `d`, at most four, each id tagged with `tag`.
fn manifold_of(
    poly: &ClipPolygon,
    n: usize,
    d: &Vector,
    sep: Real,
    tag: u32,
    to_point: impl Fn(&[Real; 4]) -> Vector,
) -> Manifold {
    let mut m = Manifold::new(*d);
    m.set_depth(-sep);
    let mut push = |k: usize| {
        let (p, id) = poly.get(k);
        m.push(ContactPoint {
            point: Point::from(to_point(&p)),
            depth: p[3],
            id: tag | (id & 0xFFFF),
        });
    };
    if n <= 4 {
        (0..n).for_each(&mut push);
    } else {
        let mut pts = [Vector::zeros(); MAX_CLIP_VERTICES];
        let mut depths = [0.0; MAX_CLIP_VERTICES];
        for k in 0..n {
            let p = poly.get(k).0;
            (pts[k], depths[k]) = (to_point(&p), p[3]);
        }
        let (keep, len) = reduce_to_four(&pts[..n], &depths[..n], d);
        keep[..len].iter().for_each(|&k| push(k));
    }
    m
}

/// The triangle as the reference face (direction `d`, `±n`, from the triangle to the box,
/// separation `sep`): the box's face most anti-parallel to `d` clipped by the triangle's side
/// planes; each kept point moved back half its separation along `d`.
fn triangle_face_contact(
    t: &InBox,
    d: &Vector,
    e: &Vector,
    sep: Real,
    prediction: Real,
) -> Option<Manifold> {
    let (v, n, f) = (&t.v, &t.n, &t.f);
    let k = d.iamax();
    let sk: Real = if d[k] > 0.0 { -1.0 } else { 1.0 };
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    let mut c = Vector::zeros();
    c[k] = sk * e[k];
    let (u, w) = (Vector::ith(k1, e[k1]), Vector::ith(k2, e[k2]));
    let quad = ClipPolygon::quad([c + u + w, c - u + w, c - u - w, c + u - w].map(|p| lanes(&p)));
    let mut bufs = [quad, ClipPolygon::default()];
    let mut cur = 0;
    for i in 0..3 {
        // Side plane of edge i, its normal pointing away from the opposite corner.
        let mut o = f[i].cross(n);
        if o.dot(&(v[(i + 2) % 3] - v[i])) > 0.0 {
            o = -o;
        }
        let off = o.dot(&v[i]);
        clip_step(
            &mut bufs,
            &mut cur,
            |p| o.x * p[0] + o.y * p[1] + o.z * p[2] - off,
            i as u32,
        );
    }
    let top = t.top(d);
    let poly = &mut bufs[cur];
    let mut kept = 0;
    for q in 0..poly.len() {
        let (p, id) = poly.get(q);
        let s = d.x * p[0] + d.y * p[1] + d.z * p[2] - top;
        let h = 0.5 * s;
        poly.set(
            kept,
            [p[0] - d.x * h, p[1] - d.y * h, p[2] - d.z * h, -s],
            id,
        );
        kept += (s <= prediction) as usize;
    }
    if kept == 0 {
        return None;
    }
    let tag = TRIANGLE_FACE
        | ((d.dot(n) > 0.0) as u32) << 24
        | ((2 * k + (sk > 0.0) as usize) as u32) << 16;
    Some(manifold_of(poly, kept, d, sep, tag, |p| {
        Vector::new(p[0], p[1], p[2])
    }))
}

/// Box face `j` as the reference face (direction `d`, `±uⱼ`, from the triangle to the box:
/// the face's outward normal is `−d`; separation `sep`): the triangle clipped by the face's
/// four side planes, in face coordinates (as [`super::contact_cuboid_cuboid`]'s); each kept
/// point moved half its separation along `d`.
fn box_face_contact(
    v: &[Vector; 3],
    j: usize,
    d: &Vector,
    e: &Vector,
    sep: Real,
    prediction: Real,
) -> Option<Manifold> {
    let sigma = d[j];
    let (h1, h2) = (e[(j + 1) % 3], e[(j + 2) % 3]);
    let tri = ClipPolygon::triangle(v.map(|p| to_face(j, &p)));
    let mut bufs = [tri, ClipPolygon::default()];
    let cur = clip_to_rectangle(&mut bufs, h1, h2);
    let poly = &mut bufs[cur];
    let mut kept = 0;
    for q in 0..poly.len() {
        let (p, id) = poly.get(q);
        let s = -e[j] - sigma * p[2];
        poly.set(kept, [p[0], p[1], p[2] + sigma * (0.5 * s), -s], id);
        kept += (s <= prediction) as usize;
    }
    if kept == 0 {
        return None;
    }
    let tag = BOX_FACE | ((2 * j + (sigma < 0.0) as usize) as u32) << 16;
    Some(manifold_of(poly, kept, d, sep, tag, |p| from_face(j, p)))
}

/// Triangle edge `i` × box axis `j`, direction `d` from the triangle to the box, separation
/// `sep`: one point, midway between the closest points of the triangle's edge and the box's
/// edge along `j` that supports the box along `−d`. `None` when the edges do not cross seen
/// along `d` by more than `slack` metres (see `cuboid_cuboid`'s edge contact).
fn edge_contact(
    t: &InBox,
    e: &Vector,
    i: usize,
    j: usize,
    d: &Vector,
    sep: Real,
    slack: Real,
) -> Option<Manifold> {
    let mut pb = Vector::zeros();
    let mut bits = 0u32;
    for c in 0..3 {
        if c != j {
            let sgn: Real = if d[c] > 0.0 { -1.0 } else { 1.0 };
            pb[c] = sgn * e[c];
            bits |= ((sgn > 0.0) as u32) << c;
        }
    }
    let (f, len) = (t.f[i], t.len[i]);
    let (pa, da) = (t.v[i] + f * 0.5, f / len);
    let db = Vector::ith(j, 1.0);
    let (ca, cb) = closest_on_crossing_segments(&pa, &da, 0.5 * len, &pb, &db, e[j], slack)?;
    let mut m = Manifold::new(*d);
    m.push(ContactPoint {
        point: Point::from((ca + cb) * 0.5),
        depth: -sep,
        id: EDGES | ((3 * i + j) as u32) << 8 | bits,
    });
    Some(m)
}
