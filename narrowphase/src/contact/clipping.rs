//! Sutherland–Hodgman clipping of a small convex polygon against planes, and the reduction of
//! a clipped polygon to at most four contact points (Ericson, RTCD §8.3.4; Box2D's
//! `b2ClipPolygons` does the 2D version of the same).
//!
//! Every vertex carries a feature `id` so that the same features touching frame after frame
//! give the same ids (for warm starting): corners keep the id they were given, and a point
//! made where an edge crosses a plane gets an id mixed from its edge's start vertex and the
//! plane's tag.

use crate::math::{Real, Vector};
use nalgebra::{RealField, Vector3};

/// Most vertices a clipped polygon can hold: a quad clipped by four planes.
pub const MAX_CLIP_VERTICES: usize = 8;

/// A vertex of a polygon being clipped by [`clip_polygon_vec`] (in whatever frame the caller
/// works in), whose scalar `S` may be `f64` (see there why).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipVertex<S: RealField + Copy = Real> {
    /// Position.
    pub p: Vector3<S>,
    /// Feature key (see the module docs).
    pub id: u32,
}

/// A convex polygon of at most [`MAX_CLIP_VERTICES`] vertices, in order around its boundary,
/// each a point in four lanes (three coordinates in whatever frame and order the caller
/// chooses, lane 3 carried along unread) with its feature id. The lane form lets a crossing
/// point be one lane-wise `p + (q − p) s`, and the caller pick the coordinate a plane tests
/// with a constant index.
#[derive(Clone, Copy, Debug)]
pub struct ClipPolygon {
    /// Points; slot [`MAX_CLIP_VERTICES`] is a spill slot that a push onto a full polygon
    /// writes to and never counts.
    p: [[Real; 4]; MAX_CLIP_VERTICES + 1],
    id: [u32; MAX_CLIP_VERTICES + 1],
    len: usize,
}

impl Default for ClipPolygon {
    fn default() -> Self {
        Self {
            p: [[0.0; 4]; MAX_CLIP_VERTICES + 1],
            id: [0; MAX_CLIP_VERTICES + 1],
            len: 0,
        }
    }
}

impl ClipPolygon {
    /// A quadrilateral: corners `p` in order, with ids 0, 1, 2, 3.
    pub fn quad(p: [[Real; 4]; 4]) -> Self {
        let mut poly = Self::default();
        poly.p[..4].copy_from_slice(&p);
        poly.id[..4].copy_from_slice(&[0, 1, 2, 3]);
        poly.len = 4;
        poly
    }

    /// A triangle: corners `p` in order, with ids 0, 1, 2.
    pub fn triangle(p: [[Real; 4]; 3]) -> Self {
        let mut poly = Self::default();
        poly.p[..3].copy_from_slice(&p);
        poly.id[..3].copy_from_slice(&[0, 1, 2]);
        poly.len = 3;
        poly
    }

    /// Writes `(p, id)` after the last vertex (into the spill slot when the polygon is full)
    /// and counts it when `keep` holds and the polygon is not full (vertices beyond the
    /// capacity are dropped). The write is unconditional so that the clipping loop has no
    /// data-dependent branch: a vertex not kept is overwritten by the next one, or lies past
    /// the end.
    #[inline(always)]
    fn put(&mut self, p: [Real; 4], id: u32, keep: bool) {
        let at = self.len.min(MAX_CLIP_VERTICES);
        self.p[at] = p;
        self.id[at] = id;
        self.len = (at + keep as usize).min(MAX_CLIP_VERTICES);
    }

    /// Number of vertices.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the polygon has no vertex.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Vertex `k` (`k < len()`) and its id.
    #[inline(always)]
    pub fn get(&self, k: usize) -> ([Real; 4], u32) {
        (self.p[k], self.id[k])
    }

    /// Overwrites slot `k` (`k < len()`; the length is unchanged) with `p` and `id`: lets a
    /// caller filter the vertices in place.
    #[inline(always)]
    pub fn set(&mut self, k: usize, p: [Real; 4], id: u32) {
        (self.p[k], self.id[k]) = (p, id);
    }

    /// The points (see the type's docs for the lanes).
    #[inline]
    pub fn points(&self) -> &[[Real; 4]] {
        &self.p[..self.len]
    }

    /// The feature ids of [`ClipPolygon::points`], in the same order.
    #[inline]
    pub fn ids(&self) -> &[u32] {
        &self.id[..self.len]
    }

    /// The part of the polygon where `dist(p) ≤ 0`, `dist` being the signed distance to the
    /// clipping plane (any affine function of the position). `tag` names the plane in the ids
    /// of the new vertices.
    #[inline(always)]
    pub fn clip(&self, dist: impl Fn(&[Real; 4]) -> Real, tag: u32) -> ClipPolygon {
        let mut out = ClipPolygon::default();
        self.clip_into(dist, tag, &mut out);
        out
    }

    /// [`ClipPolygon::clip`] writing into `out` (emptied first): no zeroing and no copy of a
    /// fresh polygon, for the hot loops that ping-pong between two buffers.
    #[inline(always)]
    pub fn clip_into(&self, dist: impl Fn(&[Real; 4]) -> Real, tag: u32, out: &mut ClipPolygon) {
        out.len = 0;
        let n = self.len.min(MAX_CLIP_VERTICES);
        if n == 0 {
            return;
        }
        let (mut prev, mut prev_id) = (self.p[n - 1], self.id[n - 1]);
        let mut dp = dist(&prev);
        for k in 0..n {
            let (cur, cur_id) = (self.p[k], self.id[k]);
            let dc = dist(&cur);
            // Where the edge prev → cur crosses the plane, kept when it does cross. Computed
            // for every edge (`s` is then meaningless, possibly NaN, and the point dropped)
            // so that no branch depends on the data: which edges cross is unpredictable, and
            // a mispredicted branch costs more than the division.
            let s = dp / (dp - dc);
            let at = [0, 1, 2, 3].map(|c| prev[c] + (cur[c] - prev[c]) * s);
            out.put(at, mix_id(prev_id, tag), (dp <= 0.0) != (dc <= 0.0));
            out.put(cur, cur_id, dc <= 0.0);
            (prev, prev_id, dp) = (cur, cur_id, dc);
        }
    }

    /// True when every vertex has `dist(p) ≤ 0`: clipping would give the polygon back
    /// unchanged (same points, same ids), so it can be skipped.
    #[inline(always)]
    pub fn inside(&self, dist: impl Fn(&[Real; 4]) -> Real) -> bool {
        self.points().iter().all(|p| dist(p) <= 0.0)
    }
}

/// Clips the convex polygon `input` (vertices in order) to the side where `dist(p) ≤ 0`,
/// appending the result to `out` (cleared first). The unbounded form of
/// [`ClipPolygon::clip`], for polyhedron faces with many corners, generic over the scalar so
/// that callers facing ill-conditioned planes can clip in `f64`.
///
/// Precision: a crossing point lies on its input edge (a convex combination of its ends), but
/// only within the rounding of `dist` of the plane. Near a corner of angle θ between two
/// clipping planes, a point within ε of both planes can lie ε / sin θ beyond the corner
/// (the needle tip of a sliver face: θ = 10⁻⁴ rad and f32 rounding give millimetres), so
/// such callers pass `f64` vertices.
pub fn clip_polygon_vec<S: RealField + Copy>(
    input: &[ClipVertex<S>],
    dist: impl Fn(&Vector3<S>) -> S,
    tag: u32,
    out: &mut Vec<ClipVertex<S>>,
) {
    out.clear();
    let Some(&last) = input.last() else {
        return;
    };
    let zero = S::zero();
    let mut prev = last;
    let mut dp = dist(&prev.p);
    for &cur in input {
        let dc = dist(&cur.p);
        if (dp <= zero) != (dc <= zero) {
            let s = dp / (dp - dc);
            out.push(ClipVertex {
                p: prev.p + (cur.p - prev.p) * s,
                id: mix_id(prev.id, tag),
            });
        }
        if dc <= zero {
            out.push(cur);
        }
        prev = cur;
        dp = dc;
    }
}

/// The id of a point made where the edge starting at a vertex of id `start` crosses plane
/// `tag`.
#[inline(always)]
fn mix_id(start: u32, tag: u32) -> u32 {
    (start.wrapping_mul(0x9E37) ^ (tag + 1).wrapping_mul(0x85EB)) & 0xFFFF | 0x8
}

/// Picks at most four of `n` contact candidates to keep, returned as indices: the deepest, the
/// one farthest from it, then the two spanning the largest areas on either side of the line
/// through those two (measured around `normal`). This keeps the manifold's area (what holds a
/// resting box up) while dropping points that add little.
pub fn reduce_to_four(points: &[Vector], depths: &[Real], normal: &Vector) -> ([usize; 4], usize) {
    let n = points.len();
    let mut keep = [0usize; 4];
    if n <= 4 {
        for (k, slot) in keep.iter_mut().enumerate().take(n) {
            *slot = k;
        }
        return (keep, n);
    }
    let mut i0 = 0;
    for k in 1..n {
        if depths[k] > depths[i0] {
            i0 = k;
        }
    }
    let mut i1 = usize::MAX;
    let mut best = -1.0;
    for k in 0..n {
        let d = (points[k] - points[i0]).norm_squared();
        if k != i0 && d > best {
            best = d;
            i1 = k;
        }
    }
    let e = points[i1] - points[i0];
    let (mut i2, mut i3) = (usize::MAX, usize::MAX);
    let (mut amax, mut amin) = (0.0, 0.0);
    for k in 0..n {
        if k == i0 || k == i1 {
            continue;
        }
        let a = e.cross(&(points[k] - points[i0])).dot(normal);
        if i2 == usize::MAX || a > amax {
            amax = a;
            i2 = k;
        }
        if i3 == usize::MAX || a < amin {
            amin = a;
            i3 = k;
        }
    }
    keep[0] = i0;
    keep[1] = i1;
    keep[2] = i2;
    if i3 == i2 {
        return (keep, 3);
    }
    keep[3] = i3;
    (keep, 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(h: Real) -> ClipPolygon {
        ClipPolygon::quad([
            [h, h, 0.0, 0.0],
            [-h, h, 0.0, 0.0],
            [-h, -h, 0.0, 0.0],
            [h, -h, 0.0, 0.0],
        ])
    }

    #[test]
    fn clipping_a_turned_square_gives_an_octagon() {
        // A square of half-size 1 turned 45° (a diamond of reach √2) clipped to |x|, |y| ≤ 1.
        let r = std::f32::consts::FRAC_1_SQRT_2;
        let mut poly = square(1.0);
        for p in poly.p.iter_mut().take(4) {
            *p = [r * (p[0] - p[1]), r * (p[0] + p[1]), 0.0, 0.0];
        }
        let poly = poly
            .clip(|p| p[0] - 1.0, 0)
            .clip(|p| -p[0] - 1.0, 1)
            .clip(|p| p[1] - 1.0, 2)
            .clip(|p| -p[1] - 1.0, 3);
        assert_eq!(poly.points().len(), 8);
        for p in poly.points() {
            assert!(p[0].abs() <= 1.0 + 1e-6 && p[1].abs() <= 1.0 + 1e-6);
        }
        let ids: std::collections::HashSet<u32> = poly.ids().iter().copied().collect();
        assert_eq!(ids.len(), 8, "ids must be distinct");
        let pts: Vec<Vector> = poly
            .points()
            .iter()
            .map(|p| Vector::new(p[0], p[1], p[2]))
            .collect();
        let depths = vec![0.0; 8];
        let (keep, len) = reduce_to_four(&pts, &depths, &Vector::z());
        assert_eq!(len, 4);
        let set: std::collections::HashSet<usize> = keep.iter().copied().collect();
        assert_eq!(set.len(), 4);
    }

    /// The lane polygon's branch-free clip against the plain one over `ClipVertex`es (the
    /// textbook loop): the same points, bit for bit, and the same ids, through chains of four
    /// random planes that often cut every vertex, none or some, and with full polygons.
    #[test]
    fn lane_clip_matches_the_plain_loop_bit_for_bit() {
        use rand::{Rng, SeedableRng};
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut cut = 0;
        for case in 0..20_000 {
            // A random quad (convex or not: both loops must agree on anything).
            let mut poly = square(1.0);
            for p in poly.p.iter_mut().take(4) {
                *p = [0, 1, 2, 3].map(|_| r.gen_range(-2.0..2.0));
            }
            let mut plain: Vec<ClipVertex> = (0..4)
                .map(|k| ClipVertex {
                    p: Vector::new(poly.p[k][0], poly.p[k][1], poly.p[k][2]),
                    id: poly.id[k],
                })
                .collect();
            let mut lane_w: Vec<Real> = (0..4).map(|k| poly.p[k][3]).collect();
            for tag in 0..4 {
                let (c, o) = (r.gen_range(0..3), r.gen_range(-1.5..1.5));
                let sgn: Real = if r.gen() { 1.0 } else { -1.0 };
                let before = poly.len();
                poly = poly.clip(|p| sgn * p[c] - o, tag);
                let mut out = Vec::new();
                clip_polygon_vec(&plain, |p| sgn * p[c] - o, tag, &mut out);
                // The plain loop has no capacity: the lane polygon keeps its first eight.
                out.truncate(MAX_CLIP_VERTICES);
                // Lane 3 follows the same affine interpolation: track it separately.
                let mut w = Vec::new();
                let n = plain.len();
                for k in 0..n {
                    let (pv, cv) = (plain[(k + n - 1) % n].p, plain[k].p);
                    let (dp, dc) = (sgn * pv[c] - o, sgn * cv[c] - o);
                    let (wp, wc) = (lane_w[(k + n - 1) % n], lane_w[k]);
                    if (dp <= 0.0) != (dc <= 0.0) {
                        w.push(wp + (wc - wp) * (dp / (dp - dc)));
                    }
                    if dc <= 0.0 {
                        w.push(wc);
                    }
                }
                w.truncate(MAX_CLIP_VERTICES);
                assert_eq!(poly.len(), out.len(), "case {case}, plane {tag}");
                for (k, v) in out.iter().enumerate() {
                    let (p, id) = poly.get(k);
                    let bits = |x: [Real; 4]| x.map(Real::to_bits);
                    assert_eq!(
                        bits(p),
                        bits([v.p.x, v.p.y, v.p.z, w[k]]),
                        "case {case}, plane {tag}, vertex {k}"
                    );
                    assert_eq!(id, v.id, "case {case}, plane {tag}, vertex {k}");
                }
                cut += (before != 0 && poly.len() != before) as usize;
                (plain, lane_w) = (out, w);
            }
        }
        assert!(cut > 10_000, "only {cut} clips changed the polygon");
    }

    #[test]
    fn clipping_away_everything_leaves_nothing() {
        let poly = square(1.0).clip(|p| 5.0 - p[0], 0);
        assert!(poly.points().is_empty());
    }
}
