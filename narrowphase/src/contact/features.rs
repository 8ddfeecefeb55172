//! Where two support features meet, seen along a contact normal: the single point of the
//! fallback contacts (no face faces the axis, or an edge × edge axis).
//!
//! The *support feature* of a polytope along `n` is the set of its corners within a small band
//! of its extreme along `n`: a corner, an edge or (nearly) a face. Two touching or slightly
//! penetrating shapes meet where the features of A (along `n`) and B (along `−n`) overlap once
//! projected on the plane ⟂ `n`. Taking one corner of each instead (the first of several at
//! the same height) can put the point metres beside the other shape on slivers; an edge of a
//! given direction can be the wrong one of several parallel edges at nearly one height.
//!
//! [`meeting_point`] projects both features on the plane ⟂ `n`, takes their 2D convex hulls
//! (Andrew's monotone chain, de Berg et al., *Computational Geometry*, §1.1) and returns, lifted
//! midway between the two features' heights along `n`:
//! - when the hulls overlap, the mean of the corners of their overlap (corners of either hull
//!   inside the other, crossings of their boundaries): a point of both features;
//! - otherwise the midpoint of the closest points of the two hulls' boundaries (segments,
//!   Ericson RTCD §5.1.9).
//!
//! Cost: O(k log k + k_A·k_B) for features of k corners (a handful).

use crate::contact::closest::closest_points_segments;
use crate::math::{Point, Point2, Real, Vector, Vector2};

/// The corners among `corners` (world space) within `band` metres of the extreme along `dir`
/// (need not be unit, but `band` is measured along it as given).
pub fn support_feature(corners: &[Point], dir: &Vector, band: Real) -> Vec<Point> {
    let top = corners
        .iter()
        .map(|p| dir.dot(&p.coords))
        .fold(Real::NEG_INFINITY, Real::max);
    corners
        .iter()
        .filter(|p| dir.dot(&p.coords) >= top - band)
        .copied()
        .collect()
}

/// The slice of a polytope (corners `corners`, edges `edges` as index pairs, world space) in
/// the slab of thickness `band` metres below its extreme along the unit `dir`: the corners
/// in the slab and the points where edges cross its bottom plane. Its convex hull is the
/// polytope cut by the slab, so, seen along `dir`, it covers every point of the polytope
/// within `band` of the extreme — unlike the corners alone ([`support_feature`]), which miss
/// the part of a slightly tilted face that lies past its top corner.
pub fn support_slice(
    corners: &[Point],
    edges: &[[u32; 2]],
    dir: &Vector,
    band: Real,
) -> Vec<Point> {
    let h: Vec<Real> = corners.iter().map(|p| dir.dot(&p.coords)).collect();
    let floor = h.iter().copied().fold(Real::NEG_INFINITY, Real::max) - band;
    let mut out: Vec<Point> = corners
        .iter()
        .zip(&h)
        .filter(|(_, &hk)| hk >= floor)
        .map(|(p, _)| *p)
        .collect();
    for &[i, j] in edges {
        let (i, j) = (i as usize, j as usize);
        if (h[i] >= floor) != (h[j] >= floor) {
            // One end above the floor, one below: the crossing of the floor plane.
            let t = (floor - h[i]) / (h[j] - h[i]);
            out.push(corners[i] + (corners[j] - corners[i]) * t);
        }
    }
    out
}

/// A world point where feature `fa` (of A, extreme along the unit normal `n`) and feature `fb`
/// (of B, extreme along `−n`) meet seen along `n`, midway between their heights along `n`
/// (see the module docs). Both features must be non-empty.
pub fn meeting_point(fa: &[Point], fb: &[Point], n: &Vector) -> Point {
    let (frame, overlap, nearest) = meeting(fa, fb, n);
    frame.lift(&overlap.unwrap_or(nearest))
}

/// Like [`meeting_point`], but None when the two features, seen along `n`, do not overlap
/// or touch (then `meeting_point` gives the midpoint of their nearest approach, a point of
/// neither).
pub fn overlap_point(fa: &[Point], fb: &[Point], n: &Vector) -> Option<Point> {
    let (frame, overlap, _) = meeting(fa, fb, n);
    overlap.map(|c| frame.lift(&c))
}

/// The plane ⟂ `n` seen from above, and the height at which points are lifted back.
struct Frame {
    u: Vector,
    v: Vector,
    n: Vector,
    height: Real,
}

impl Frame {
    fn lift(&self, c: &Vector2) -> Point {
        Point::from(self.u * c.x + self.v * c.y + self.n * self.height)
    }
}

/// The frame, the mean of the corners of the overlap of the two features' hulls seen along
/// `n` (None when they neither overlap nor touch), and the midpoint of their nearest approach.
fn meeting(fa: &[Point], fb: &[Point], n: &Vector) -> (Frame, Option<Vector2>, Vector2) {
    let helper = if n.x.abs() < 0.6 {
        Vector::x()
    } else {
        Vector::y()
    };
    let u = n.cross(&helper).normalize();
    let v = n.cross(&u);
    let flat = |p: &Point| Point2::new(u.dot(&p.coords), v.dot(&p.coords));
    let ha = hull_2d(fa.iter().map(flat).collect());
    let hb = hull_2d(fb.iter().map(flat).collect());
    let top_a = fa
        .iter()
        .map(|p| n.dot(&p.coords))
        .fold(Real::NEG_INFINITY, Real::max);
    let bottom_b = fb
        .iter()
        .map(|p| n.dot(&p.coords))
        .fold(Real::INFINITY, Real::min);

    // The corners of the overlap of the two hulls: corners of either inside the other, and
    // crossings of their boundaries. Their mean lies in the overlap (convex).
    let mut sum = Vector2::zeros();
    let mut count = 0;
    for (p, other) in ha
        .iter()
        .map(|p| (p, &hb))
        .chain(hb.iter().map(|p| (p, &ha)))
    {
        if contains(other, p) {
            sum += p.coords;
            count += 1;
        }
    }
    let (nearest, crossings) = boundary_approach(&ha, &hb);
    let overlap = (count + crossings.len() > 0)
        .then(|| (sum + crossings.iter().sum::<Vector2>()) / (count + crossings.len()) as Real);
    let frame = Frame {
        u,
        v,
        n: *n,
        height: 0.5 * (top_a + bottom_b),
    };
    (frame, overlap, nearest)
}

/// 2D convex hull, counter-clockwise, without repeated or collinear corners (one or two
/// corners when the points are all equal or collinear).
fn hull_2d(mut pts: Vec<Point2>) -> Vec<Point2> {
    pts.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    pts.dedup();
    if pts.len() <= 2 {
        return pts;
    }
    let turn = |o: &Point2, a: &Point2, b: &Point2| (a - o).perp(&(b - o));
    let mut hull: Vec<Point2> = Vec::with_capacity(2 * pts.len());
    // Lower chain left to right, then upper chain right to left; `floor` keeps the chain
    // already built.
    let lower = pts.iter();
    let upper = pts.iter().rev().skip(1);
    let mut floor = 2;
    for (k, p) in lower.chain(upper).enumerate() {
        if k == pts.len() {
            floor = hull.len() + 1;
        }
        while hull.len() >= floor && turn(&hull[hull.len() - 2], &hull[hull.len() - 1], p) <= 0.0 {
            hull.pop();
        }
        hull.push(*p);
    }
    hull.pop(); // the first corner, closed again by the upper chain
    hull
}

/// True when `p` lies in the convex polygon `poly` (counter-clockwise, at least three
/// corners) or on its boundary.
fn contains(poly: &[Point2], p: &Point2) -> bool {
    poly.len() >= 3
        && (0..poly.len()).all(|k| {
            let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
            (b - a).perp(&(p - a)) >= 0.0
        })
}

/// The midpoint of the closest points of the boundaries of two hulls (a corner, a segment or
/// a polygon each), and the points where the boundaries cross or touch (within rounding).
fn boundary_approach(ha: &[Point2], hb: &[Point2]) -> (Vector2, Vec<Vector2>) {
    let lift = |p: &Point2| Point::new(p.x, p.y, 0.0);
    let edges = |h: &[Point2]| -> Vec<(Point, Point)> {
        match h.len() {
            0 => Vec::new(),
            1 => vec![(lift(&h[0]), lift(&h[0]))],
            2 => vec![(lift(&h[0]), lift(&h[1]))],
            k => (0..k)
                .map(|i| (lift(&h[i]), lift(&h[(i + 1) % k])))
                .collect(),
        }
    };
    let scale = ha
        .iter()
        .chain(hb)
        .map(|p| p.coords.amax())
        .fold(Real::MIN_POSITIVE, Real::max);
    let touch = (4.0 * Real::EPSILON * scale).powi(2);
    let (ea, eb) = (edges(ha), edges(hb));
    let mut best = (Real::INFINITY, Vector2::zeros());
    let mut crossings = Vec::new();
    for (a0, a1) in &ea {
        for (b0, b1) in &eb {
            let (ca, cb, _, _) = closest_points_segments(a0, a1, b0, b1);
            let d = (cb - ca).norm_squared();
            let m = ca + (cb - ca) * 0.5;
            let m = Vector2::new(m.x, m.y);
            if d <= touch {
                crossings.push(m);
            }
            if d < best.0 {
                best = (d, m);
            }
        }
    }
    (best.1, crossings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hull_of_a_square_with_inner_and_repeated_points() {
        let pts = vec![
            Point2::new(0.0, 0.0),
            Point2::new(1.0, 0.0),
            Point2::new(0.5, 0.5),
            Point2::new(1.0, 1.0),
            Point2::new(0.0, 1.0),
            Point2::new(1.0, 0.0),
            Point2::new(0.5, 0.0),
        ];
        let h = hull_2d(pts);
        assert_eq!(h.len(), 4);
        assert!(contains(&h, &Point2::new(0.5, 0.5)));
        assert!(contains(&h, &Point2::new(1.0, 0.5)));
        assert!(!contains(&h, &Point2::new(1.01, 0.5)));
        assert_eq!(hull_2d(vec![Point2::new(2.0, 3.0); 3]).len(), 1);
        assert_eq!(
            hull_2d(vec![
                Point2::new(0.0, 0.0),
                Point2::new(1.0, 1.0),
                Point2::new(2.0, 2.0)
            ])
            .len(),
            2
        );
    }

    /// A box's top face (z = 1) against an edge lying across it from above (z = 1.1), and
    /// against a corner above its interior: the point is over the overlap, midway in height.
    #[test]
    fn meeting_point_lies_over_both_features() {
        let face = [
            Point::new(-1.0, -1.0, 1.0),
            Point::new(1.0, -1.0, 1.0),
            Point::new(1.0, 1.0, 1.0),
            Point::new(-1.0, 1.0, 1.0),
        ];
        let n = Vector::z();
        // An edge crossing the face's x range at y = 0.5, from x = 3 to x = 0.
        let edge = [Point::new(3.0, 0.5, 1.1), Point::new(0.0, 0.5, 1.1)];
        let p = meeting_point(&face, &edge, &n);
        assert!((p - Point::new(0.5, 0.5, 1.05)).norm() < 1e-5, "{p:?}");
        // A corner above the face's interior.
        let corner = [Point::new(0.2, -0.3, 0.9)];
        let p = meeting_point(&face, &corner, &n);
        assert!((p - Point::new(0.2, -0.3, 0.95)).norm() < 1e-5, "{p:?}");
        // Features that miss each other: the midpoint of the nearest approach.
        let far = [Point::new(3.0, 0.0, 1.0)];
        let p = meeting_point(&face, &far, &n);
        assert!((p - Point::new(2.0, 0.0, 1.0)).norm() < 1e-5, "{p:?}");
        // Band: corners within it count, the others do not.
        let f = support_feature(
            &[
                Point::new(0.0, 0.0, 1.0),
                Point::new(1.0, 0.0, 0.99999),
                Point::new(0.0, 0.0, 0.0),
            ],
            &n,
            1e-4,
        );
        assert_eq!(f.len(), 2);
    }
}
