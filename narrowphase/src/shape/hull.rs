//! 3D convex hull of a point cloud, incremental (Ericson RTCD §12.4.2 "incremental hull";
//! O'Rourke, *Computational Geometry in C*, ch. 4): start from a tetrahedron of extreme
//! points, then add the points one at a time. A point beyond some faces deletes every face it
//! sees and is joined to the *horizon* (the edges between seen and unseen faces). Finally,
//! adjacent coplanar triangles are merged into polygon faces, so a box comes out with six
//! quads and three distinct face normals.
//!
//! Robustness, in three parts:
//!
//! - **Which faces a point sees is decided exactly** ([`orient`]: Shewchuk's adaptive
//!   orientation predicate, "Adaptive precision floating-point arithmetic and fast robust
//!   geometric predicates", 1997 — a filtered f64 determinant, and when the filter cannot
//!   decide, the exact sum of the determinant's terms as a floating-point expansion). With
//!   exact visibility the seen faces always form a disk and the horizon a simple loop, so the
//!   triangle mesh is always a closed convex surface. A tolerance-based visibility test can
//!   see two faces but not the one between them, which leaves edges used by four faces,
//!   corners outside faces, or a point 1.7·10⁻³ outside the hull of a 10 m cloud.
//! - **A tolerance `ε = 10⁻⁶ · (bounding-box diagonal) + 4 f32 ulps of the largest
//!   coordinate` decides what is worth adding**: a point within ε of the hull so far (the
//!   true distance, to the nearest face it sees — not the distances to the face planes, which
//!   near a knife edge can be far smaller) is skipped, so no edge is shorter than ε and f32 edge
//!   directions of the result stay accurate. The same ε refuses clouds that are one point,
//!   collinear or coplanar within ε.
//! - **Coplanar merging grows each face from one seed plane**: a neighbouring triangle joins
//!   only when all its corners are within ε of the *seed's* plane, so a gently curved surface
//!   cannot chain into one non-planar face (pairwise tests could).
//!
//! Points beyond ±[`MAX_COORDINATE`] are refused (their differences and the products of
//! differences that every later f32 computation makes would overflow), as are clouds smaller
//! than [`MIN_HULL_SIZE`] (squared f32 edge lengths would underflow to zero).
//! O(n·F) time, F at most 2·`BUILD_VERTEX_LIMIT` − 4 while building: a collision hull has at
//! most [`MAX_HULL_VERTICES`] corners.

use crate::contact::closest::closest_on_triangle_regions;
use crate::error::ShapeError;
use crate::math::{is_finite_point, Point, Real};
use crate::planar::MAX_COORDINATE;
use nalgebra::Vector3;
// Ordered collections only: the hull must come out the same on every run (determinism).
use std::collections::{BTreeMap, BTreeSet};

type V = Vector3<f64>;

/// The smallest bounding-box diagonal of a cloud with a hull (metres): edges are at least
/// 10⁻⁶ of it, and a squared f32 edge length below ~10⁻³⁸ underflows.
pub(crate) const MIN_HULL_SIZE: Real = 1.0e-12;

/// The most vertices a hull keeps: Jolt (`ConvexHullShape::cMaxPointsInHull`) and Box3D
/// (`B3_HULL_MAX_COUNT`) allow 256, PhysX 255. A collision hull's queries cost time in its
/// vertex and edge counts (support points, Gauss-map edge pairs), and the face and edge
/// direction indices of [`ConvexPolyhedron`](super::ConvexPolyhedron) are `u16`; points inside
/// the hull cost nothing, so a cloud of any size whose hull has at most this many corners is
/// fine. With at most 256 vertices a hull has at most 508 faces and 762 edges.
pub const MAX_HULL_VERTICES: usize = 256;

/// While the hull is built, the hull of the points added so far may have this many vertices
/// before the cloud is refused (intermediate hulls can have corners that later points cover,
/// so the limit is looser than [`MAX_HULL_VERTICES`]; it bounds the build at
/// O(n · `BUILD_VERTEX_LIMIT`) for any cloud).
const BUILD_VERTEX_LIMIT: usize = 4 * MAX_HULL_VERTICES;

/// The hull of `points`: its vertices and its faces as counter-clockwise (seen from outside)
/// loops of indices into those vertices. Errors also on a hull of more than
/// [`MAX_HULL_VERTICES`] corners.
pub(crate) fn convex_hull(points: &[Point]) -> Result<(Vec<Point>, Vec<Vec<u32>>), ShapeError> {
    if points.len() < 4 {
        return Err(ShapeError::TooFewPoints(points.len(), 4));
    }
    if !points.iter().all(is_finite_point) {
        return Err(ShapeError::NonFinite("hull point"));
    }
    if points.iter().any(|q| q.coords.abs().max() > MAX_COORDINATE) {
        return Err(ShapeError::Degenerate(
            "hull point beyond ±1e15 m: differences of coordinates would overflow f32",
        ));
    }
    let p: Vec<V> = points
        .iter()
        .map(|q| V::new(q.x as f64, q.y as f64, q.z as f64))
        .collect();
    let (mut lo, mut hi) = (p[0], p[0]);
    for q in &p {
        lo = lo.inf(q);
        hi = hi.sup(q);
    }
    let diag = (hi - lo).norm();
    let max_abs = lo.abs().max().max(hi.abs().max());
    let eps = 1e-6 * diag + 4.0 * (Real::EPSILON as f64) * max_abs;
    if diag == 0.0 {
        return Err(ShapeError::Degenerate("all hull points are the same"));
    }
    if diag < MIN_HULL_SIZE as f64 {
        return Err(ShapeError::Degenerate(
            "hull points span less than 1e-12 m: f32 edge lengths would underflow",
        ));
    }

    // Initial tetrahedron of extreme points, each farther than ε from what the others span.
    let i0 = (0..p.len())
        .min_by(|&a, &b| p[a].x.total_cmp(&p[b].x))
        .unwrap_or(0);
    let i1 = argmax(&p, |q| (q - p[i0]).norm_squared());
    if (p[i1] - p[i0]).norm() <= eps {
        return Err(ShapeError::Degenerate("hull points are repeated"));
    }
    let d01 = (p[i1] - p[i0]).normalize();
    let line_dist = |q: &V| (q - p[i0]).cross(&d01).norm();
    let i2 = argmax(&p, line_dist);
    if line_dist(&p[i2]) <= eps {
        return Err(ShapeError::Degenerate("hull points are collinear"));
    }
    let n012 = (p[i1] - p[i0]).cross(&(p[i2] - p[i0])).normalize();
    let plane_dist = |q: &V| (q - p[i0]).dot(&n012).abs();
    let i3 = argmax(&p, plane_dist);
    if plane_dist(&p[i3]) <= eps {
        return Err(ShapeError::Degenerate("hull points are coplanar"));
    }

    let mut faces: Vec<Tri> = Vec::new();
    for (f, opposite) in [
        ([i0, i1, i2], i3),
        ([i0, i1, i3], i2),
        ([i0, i2, i3], i1),
        ([i1, i2, i3], i0),
    ] {
        // The opposite corner is more than ε off this face's plane: exactly below it.
        let f = if orient(&p[f[0]], &p[f[1]], &p[f[2]], &p[opposite]) > 0 {
            [f[0], f[2], f[1]]
        } else {
            f
        };
        faces.push(Tri::new(&p, f));
    }

    // Alive triangles: a closed triangulated surface of V corners has 2V − 4 of them.
    let mut alive = faces.len();
    for (k, q) in p.iter().enumerate() {
        if k == i0 || k == i1 || k == i2 || k == i3 {
            continue;
        }
        if alive > 2 * BUILD_VERTEX_LIMIT - 4 {
            return Err(ShapeError::TooManyVertices(MAX_HULL_VERTICES));
        }
        let visible: Vec<usize> = (0..faces.len())
            .filter(|&f| {
                let v = faces[f].v;
                faces[f].alive && orient(&p[v[0]], &p[v[1]], &p[v[2]], q) > 0
            })
            .collect();
        // Inside or on the hull; or outside by no more than ε (skipped: keeps every edge
        // longer than ε, and the point is still inside within the tolerance). "By no more
        // than ε" is the true distance to the hull — the nearest of the faces it sees — not
        // the distances to their planes: near a knife edge of dihedral angle θ, a point
        // within ε of both planes can be ε / sin(θ/2) away (2.1 mm for ε = 7.9 µm).
        if visible.is_empty()
            || visible.iter().any(|&f| {
                let v = faces[f].v;
                (closest_on_triangle_regions(q, &p[v[0]], &p[v[1]], &p[v[2]]) - q).norm() <= eps
            })
        {
            continue;
        }
        let mut seen = BTreeSet::new();
        for &f in &visible {
            let v = faces[f].v;
            for e in 0..3 {
                seen.insert((v[e], v[(e + 1) % 3]));
            }
        }
        for &f in &visible {
            faces[f].alive = false;
        }
        let horizon: Vec<(usize, usize)> = seen
            .iter()
            .copied()
            .filter(|&(a, b)| !seen.contains(&(b, a)))
            .collect();
        alive = alive + horizon.len() - visible.len();
        for (a, b) in horizon {
            faces.push(Tri::new(&p, [a, b, k]));
        }
        if faces.len() > 64 && faces.iter().filter(|f| !f.alive).count() * 2 > faces.len() {
            faces.retain(|f| f.alive);
        }
    }
    faces.retain(|f| f.alive);

    let loops = merge_coplanar(&p, &faces, eps);

    // Keep only the vertices the faces use, renumbered.
    let mut remap = BTreeMap::new();
    let mut verts = Vec::new();
    let loops = loops
        .into_iter()
        .map(|l| {
            l.into_iter()
                .map(|i| {
                    *remap.entry(i).or_insert_with(|| {
                        verts.push(points[i]);
                        (verts.len() - 1) as u32
                    })
                })
                .collect()
        })
        .collect();
    if verts.len() > MAX_HULL_VERTICES {
        return Err(ShapeError::TooManyVertices(MAX_HULL_VERTICES));
    }
    Ok((verts, loops))
}

fn argmax(p: &[V], f: impl Fn(&V) -> f64) -> usize {
    let mut best = 0;
    let mut bv = f64::NEG_INFINITY;
    for (k, q) in p.iter().enumerate() {
        let v = f(q);
        if v > bv {
            bv = v;
            best = k;
        }
    }
    best
}

/// A hull triangle: counter-clockwise from outside, with its plane (f64, for distances and
/// merging; which side a point is on is decided by [`orient`]).
struct Tri {
    v: [usize; 3],
    n: V,
    d: f64,
    alive: bool,
}

impl Tri {
    fn new(p: &[V], v: [usize; 3]) -> Self {
        let c = (p[v[1]] - p[v[0]]).cross(&(p[v[2]] - p[v[0]]));
        let len = c.norm();
        let n = if len > 0.0 { c / len } else { V::zeros() };
        Tri {
            v,
            n,
            d: n.dot(&p[v[0]]),
            alive: true,
        }
    }

    /// Signed distance of `q` above the plane.
    fn dist(&self, q: &V) -> f64 {
        self.n.dot(q) - self.d
    }

    /// Twice the area.
    fn area2(&self, p: &[V]) -> f64 {
        let v = self.v;
        (p[v[1]] - p[v[0]]).cross(&(p[v[2]] - p[v[0]])).norm()
    }
}

/// The side of the plane through `a, b, c` that `q` is on: `+1` above (where
/// `(b − a) × (c − a)` points), `−1` below, `0` on it. Exact for coordinates that are f32
/// values (widened to f64), whatever their magnitudes.
///
/// Fast path: the f64 determinant with Shewchuk's forward error bound (`orient3d` error bound
/// A, 1997, §4.3: `(7 + 56ε)ε` times the permanent; taken here with a margin as `10⁻¹⁴`).
/// Slow path: the 24 products `x·y·z` of the 4×4 determinant (each exact as two f64: the product
/// of two f32 is exact in f64, and `two_product` splits the third factor's product) summed
/// exactly by [`Expansion`].
pub(crate) fn orient(a: &V, b: &V, c: &V, q: &V) -> i8 {
    let (u, v, w) = (b - a, c - a, q - a);
    let det = u.x * (v.y * w.z - v.z * w.y)
        + u.y * (v.z * w.x - v.x * w.z)
        + u.z * (v.x * w.y - v.y * w.x);
    let permanent = (u.x * v.y).abs() * w.z.abs()
        + (u.x * v.z).abs() * w.y.abs()
        + (u.y * v.z).abs() * w.x.abs()
        + (u.y * v.x).abs() * w.z.abs()
        + (u.z * v.x).abs() * w.y.abs()
        + (u.z * v.y).abs() * w.x.abs();
    let bound = 1.0e-14 * permanent;
    if det > bound {
        return 1;
    }
    if det < -bound {
        return -1;
    }
    orient_exact(a, b, c, q)
}

/// [`orient`] without the filter: `(b − a)·((c − a) × (q − a)) = M(b,c,q) − M(a,c,q) +
/// M(a,b,q) − M(a,b,c)`, where `M(r,s,t)` is the 3×3 determinant of the raw coordinates.
fn orient_exact(a: &V, b: &V, c: &V, q: &V) -> i8 {
    let mut sum = Expansion::default();
    for (sign, r, s, t) in [
        (1.0, b, c, q),
        (-1.0, a, c, q),
        (1.0, a, b, q),
        (-1.0, a, b, c),
    ] {
        // r · (s × t), six triple products.
        for (k, x, y, z) in [
            (1.0, r.x, s.y, t.z),
            (-1.0, r.x, s.z, t.y),
            (1.0, r.y, s.z, t.x),
            (-1.0, r.y, s.x, t.z),
            (1.0, r.z, s.x, t.y),
            (-1.0, r.z, s.y, t.x),
        ] {
            // x·y is exact: two 24-bit significands, no underflow for f32 inputs.
            let (hi, lo) = two_product(sign * k * x * y, z);
            sum.add(hi);
            sum.add(lo);
        }
    }
    sum.sign()
}

/// `a·b = hi + lo` exactly (the fused multiply-add gives the rounding error).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let hi = a * b;
    (hi, a.mul_add(b, -hi))
}

/// `a + b = s + e` exactly (Knuth's two-sum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// An exact sum of f64 values as a non-overlapping expansion, smallest component first
/// (Shewchuk 1997, GROW-EXPANSION with zero elimination).
#[derive(Default)]
struct Expansion(Vec<f64>);

impl Expansion {
    fn add(&mut self, b: f64) {
        let mut q = b;
        let mut out = Vec::with_capacity(self.0.len() + 1);
        for &e in &self.0 {
            let (s, h) = two_sum(q, e);
            if h != 0.0 {
                out.push(h);
            }
            q = s;
        }
        if q != 0.0 {
            out.push(q);
        }
        self.0 = out;
    }

    /// The sign of the sum: that of the largest (last non-zero) component.
    fn sign(&self) -> i8 {
        match self.0.last() {
            Some(&x) if x > 0.0 => 1,
            Some(&x) if x < 0.0 => -1,
            _ => 0,
        }
    }
}

/// Merges adjacent triangles lying in one plane (within `eps`) into polygon loops. Each group
/// grows from a seed (the largest triangle not yet grouped) and takes a neighbour only when all
/// its corners are within `eps` of the seed's plane and it faces the same way, so every
/// merged face is planar within `eps`. A group whose boundary is not one simple loop stays
/// as triangles.
fn merge_coplanar(p: &[V], tris: &[Tri], eps: f64) -> Vec<Vec<usize>> {
    let mut edge_owner = BTreeMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for e in 0..3 {
            edge_owner.insert((tri.v[e], tri.v[(e + 1) % 3]), t);
        }
    }
    let mut order: Vec<usize> = (0..tris.len()).collect();
    let area: Vec<f64> = tris.iter().map(|t| t.area2(p)).collect();
    order.sort_by(|&a, &b| area[b].total_cmp(&area[a]).then(a.cmp(&b)));
    let mut group = vec![usize::MAX; tris.len()];
    let mut loops = Vec::new();
    for &seed in &order {
        if group[seed] != usize::MAX {
            continue;
        }
        group[seed] = seed;
        let plane = &tris[seed];
        let mut members = vec![seed];
        let mut k = 0;
        while k < members.len() {
            let tri = &tris[members[k]];
            k += 1;
            for e in 0..3 {
                let (a, b) = (tri.v[e], tri.v[(e + 1) % 3]);
                let Some(&u) = edge_owner.get(&(b, a)) else {
                    continue;
                };
                let other = &tris[u];
                // Facing the same way: its area projected on the seed's plane is not negative
                // (a sliver's own normal may be too inaccurate to compare).
                let (o0, o1, o2) = (p[other.v[0]], p[other.v[1]], p[other.v[2]]);
                let (e1, e2) = (o1 - o0, o2 - o0);
                let facing = e1.cross(&e2).dot(&plane.n) >= -1e-12 * e1.norm() * e2.norm();
                if group[u] == usize::MAX
                    && facing
                    && other.v.iter().all(|&w| plane.dist(&p[w]).abs() <= eps)
                {
                    group[u] = seed;
                    members.push(u);
                }
            }
        }
        members.sort_unstable();
        if members.len() == 1 {
            loops.push(tris[seed].v.to_vec());
            continue;
        }
        match boundary_loop(tris, &members) {
            Some(l) => loops.push(l),
            None => loops.extend(members.iter().map(|&t| tris[t].v.to_vec())),
        }
    }
    loops
}

/// The boundary of a group of triangles forming a disk, as one loop (None otherwise).
fn boundary_loop(tris: &[Tri], members: &[usize]) -> Option<Vec<usize>> {
    let mut inner = BTreeSet::new();
    for &t in members {
        let v = tris[t].v;
        for e in 0..3 {
            inner.insert((v[e], v[(e + 1) % 3]));
        }
    }
    let mut next = BTreeMap::new();
    for &(a, b) in &inner {
        if !inner.contains(&(b, a)) && next.insert(a, b).is_some() {
            return None;
        }
    }
    let start = *next.keys().min()?;
    let mut l = vec![start];
    let mut cur = next[&start];
    while cur != start {
        if l.len() > next.len() {
            return None;
        }
        l.push(cur);
        cur = *next.get(&cur)?;
    }
    (l.len() == next.len()).then_some(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The exact predicate against exact integer arithmetic on small integer coordinates
    /// scaled by powers of two (exact in f32), where the f64 filter is often undecided.
    #[test]
    fn orient_matches_integer_determinant() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % 7) as i64 - 3
        };
        for round in 0..20_000 {
            let pts: Vec<[i64; 3]> = (0..4).map(|_| [next(), next(), next()]).collect();
            let sub = |a: [i64; 3], b: [i64; 3]| [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
            let (u, v, w) = (
                sub(pts[1], pts[0]),
                sub(pts[2], pts[0]),
                sub(pts[3], pts[0]),
            );
            let det = u[0] * (v[1] * w[2] - v[2] * w[1])
                + u[1] * (v[2] * w[0] - v[0] * w[2])
                + u[2] * (v[0] * w[1] - v[1] * w[0]);
            // Scale (exact) and shift by a large offset that f64 differences still keep exact
            // at f32 precision: 2^20 + small integers are f32 values.
            let scale = [1.0, 2f64.powi(-60), 2f64.powi(40)][round % 3];
            let offset = [0.0, 1048576.0][round / 3 % 2];
            let f = |a: [i64; 3]| {
                V::new(
                    (a[0] as f64 + offset) * scale,
                    (a[1] as f64 + offset) * scale,
                    (a[2] as f64 + offset) * scale,
                )
            };
            let got = orient(&f(pts[0]), &f(pts[1]), &f(pts[2]), &f(pts[3]));
            assert_eq!(
                got,
                det.signum() as i8,
                "{pts:?} scale {scale} offset {offset}"
            );
            let got = orient_exact(&f(pts[0]), &f(pts[1]), &f(pts[2]), &f(pts[3]));
            assert_eq!(got, det.signum() as i8, "exact {pts:?}");
        }
    }
}
