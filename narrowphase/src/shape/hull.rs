//! 3D convex hull of a point cloud, incremental (Ericson RTCD §12.4.2 "incremental hull";
//! O'Rourke, *Computational Geometry in C*, ch. 4): start from a tetrahedron of extreme
//! points, then add the points one at a time. A point beyond some faces deletes every face it
//! sees and is joined to the *horizon* (the edges between seen and unseen faces). Finally,
//! adjacent coplanar triangles are merged into polygon faces, so a box comes out with six
//! quads and three distinct face normals.
//!
//! Computed in f64 with a tolerance `ε = 10⁻⁶ · (bounding-box diagonal)` (plus the f32
//! resolution of the coordinates): a point within ε of the hull counts as inside, so the
//! output has no sliver faces. O(n·F) time, for the few hundred points a collision hull has.

use crate::error::ShapeError;
use crate::math::{is_finite_point, Point, Real};
use nalgebra::Vector3;
// Ordered collections only: the hull must come out the same on every run (determinism).
use std::collections::{BTreeMap, BTreeSet};

type V = Vector3<f64>;

/// The hull of `points`: its vertices and its faces as counter-clockwise (seen from outside)
/// loops of indices into those vertices.
pub(crate) fn convex_hull(points: &[Point]) -> Result<(Vec<Point>, Vec<Vec<u32>>), ShapeError> {
    if points.len() < 4 {
        return Err(ShapeError::TooFewPoints(points.len(), 4));
    }
    if !points.iter().all(is_finite_point) {
        return Err(ShapeError::NonFinite("hull point"));
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

    // Initial tetrahedron of extreme points.
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
    let inside = (p[i0] + p[i1] + p[i2] + p[i3]) / 4.0;

    let mut faces: Vec<Tri> = Vec::new();
    for f in [[i0, i1, i2], [i0, i1, i3], [i0, i2, i3], [i1, i2, i3]] {
        let mut t = Tri::new(&p, f);
        if t.dist(&inside) > 0.0 {
            t = Tri::new(&p, [f[0], f[2], f[1]]);
        }
        faces.push(t);
    }

    for (k, q) in p.iter().enumerate() {
        if k == i0 || k == i1 || k == i2 || k == i3 {
            continue;
        }
        let visible: Vec<usize> = (0..faces.len())
            .filter(|&f| faces[f].alive && faces[f].dist(q) > eps)
            .collect();
        if visible.is_empty() {
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

/// A hull triangle: counter-clockwise from outside, with its plane.
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
}

/// Merges adjacent triangles lying in one plane (within `eps`) into polygon loops.
fn merge_coplanar(p: &[V], tris: &[Tri], eps: f64) -> Vec<Vec<usize>> {
    let mut edge_owner = BTreeMap::new();
    for (t, tri) in tris.iter().enumerate() {
        for e in 0..3 {
            edge_owner.insert((tri.v[e], tri.v[(e + 1) % 3]), t);
        }
    }
    // Union-find over triangles.
    let mut parent: Vec<usize> = (0..tris.len()).collect();
    fn find(parent: &mut [usize], mut x: usize) -> usize {
        while parent[x] != x {
            parent[x] = parent[parent[x]];
            x = parent[x];
        }
        x
    }
    for (t, tri) in tris.iter().enumerate() {
        for e in 0..3 {
            let (a, b) = (tri.v[e], tri.v[(e + 1) % 3]);
            if let Some(&u) = edge_owner.get(&(b, a)) {
                let other = &tris[u];
                let coplanar = tri.n.dot(&other.n) > 0.999
                    && other.v.iter().all(|&w| tri.dist(&p[w]).abs() <= eps)
                    && tri.v.iter().all(|&w| other.dist(&p[w]).abs() <= eps);
                if coplanar {
                    let (ra, rb) = (find(&mut parent, t), find(&mut parent, u));
                    parent[ra] = rb;
                }
            }
        }
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for t in 0..tris.len() {
        let r = find(&mut parent, t);
        groups.entry(r).or_default().push(t);
    }
    let mut roots: Vec<usize> = groups.keys().copied().collect();
    roots.sort_unstable();
    let mut loops = Vec::new();
    for r in roots {
        let members = &groups[&r];
        if members.len() == 1 {
            loops.push(tris[members[0]].v.to_vec());
            continue;
        }
        match boundary_loop(tris, members) {
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
