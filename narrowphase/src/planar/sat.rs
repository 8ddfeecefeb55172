//! The separating axis test shared by every planar pair.
//!
//! Two convex shapes are disjoint iff their projections on some line are disjoint, and it is
//! enough to try the normals of the edges of their Minkowski difference (Ericson RTCD §5.2.1;
//! Box2D `b2CollidePolygons`). On each candidate the gap between the projections is signed:
//! positive apart, negative overlapping. The largest gap over the candidates is the answer:
//! positive → separated by that axis; ≤ 0 → overlapping, and its magnitude is the least
//! translation depth (the minimal translation is that axis times the depth).

use super::convex::ConvexPolygon;
use super::shapes::{Circle, Line, Rect, Segment};
use crate::math::{Real, Vector2};
#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// Which candidate axis gave the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub enum Axis {
    /// The normal of edge `i` of shape A (the polygon).
    EdgeOfA(usize),
    /// The normal of edge `i` of shape B: a polygon's edge, a rectangle's axis (0 = its local
    /// x, 1 = its local y), the normal of a segment or of a line (0).
    EdgeOfB(usize),
    /// The axis from corner `i` of polygon A toward the circle's centre.
    CornerOfA(usize),
}

/// Outcome of a planar separating-axis test of shape A against shape B.
///
/// - `separation` (metres): on the returned axis, the gap between the shapes' projections;
///   positive → separated (a lower bound on their distance, exact for circles; the exact
///   distance is [`super::distance`]); `≤ 0` → intersecting (touching counts), and
///   `−separation` is the penetration depth (exact);
/// - `normal`: unit, pointing **from A toward B** along the axis;
/// - `axis`: which candidate it was.
///
/// For an intersecting pair, moving B by `normal · (−separation + ε)` separates it (the minimal
/// translation).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct SatResult {
    /// Gap along `normal` (metres): positive apart, ≤ 0 overlapping by `−separation`.
    pub separation: Real,
    /// Unit axis from A toward B.
    pub normal: Vector2,
    /// The candidate axis that gave this result.
    pub axis: Axis,
}

impl SatResult {
    /// True when the shapes overlap or touch (`separation ≤ 0`).
    #[inline]
    pub fn intersects(&self) -> bool {
        self.separation <= 0.0
    }

    /// Penetration depth (metres, ≥ 0 when intersecting).
    #[inline]
    pub fn depth(&self) -> Real {
        -self.separation
    }
}

/// A planar shape's projection on a unit axis: the interval `[min, max]`.
pub(crate) trait Project {
    fn project(&self, axis: &Vector2) -> (Real, Real);
}

impl Project for ConvexPolygon {
    #[inline]
    fn project(&self, axis: &Vector2) -> (Real, Real) {
        ConvexPolygon::project(self, axis)
    }
}

impl Project for Rect {
    fn project(&self, axis: &Vector2) -> (Real, Real) {
        let c = self.center().coords.dot(axis);
        let [u, v] = self.axes();
        let h = self.half_extents();
        let r = h.x * u.dot(axis).abs() + h.y * v.dot(axis).abs();
        (c - r, c + r)
    }
}

impl Project for Segment {
    fn project(&self, axis: &Vector2) -> (Real, Real) {
        let [a, b] = self.ends();
        let (p, q) = (a.coords.dot(axis), b.coords.dot(axis));
        (p.min(q), p.max(q))
    }
}

impl Project for Circle {
    fn project(&self, axis: &Vector2) -> (Real, Real) {
        let c = self.center().coords.dot(axis);
        (c - self.radius(), c + self.radius())
    }
}

impl Project for Line {
    /// A point on the line's own normal, the whole axis on any other direction.
    fn project(&self, axis: &Vector2) -> (Real, Real) {
        let along = self.normal().dot(axis);
        if (along.abs() - 1.0).abs() <= 1.0e-6 {
            let d = self.offset() * along;
            (d, d)
        } else {
            (Real::NEG_INFINITY, Real::INFINITY)
        }
    }
}

/// The test of polygon A against shape B. A's edges are checked one-sided, as in Box2D's
/// `b2FindMaxSeparation`: along A's outward normal `n_i` the largest projection of A is its
/// own corner `i`, so the gap is `min(B along n_i) − n_i · a_i` at the cost of B's projection
/// only (the face normals of the Minkowski difference are A's outward normals and B's inward
/// ones, so one side per edge suffices). The `extra` axes (B's own directions) are lines,
/// checked both ways. Keeps the largest gap, the first one on ties.
pub(crate) fn sat<B: Project>(
    a: &ConvexPolygon,
    b: &B,
    with_a_edges: bool,
    extra: impl IntoIterator<Item = (Vector2, Axis)>,
) -> SatResult {
    let mut best = SatResult {
        separation: Real::NEG_INFINITY,
        normal: Vector2::x(),
        axis: Axis::EdgeOfA(0),
    };
    if with_a_edges {
        for (i, (n, corner)) in a.normals().iter().zip(a.corners()).enumerate() {
            let gap = b.project(n).0 - n.dot(&corner.coords);
            if gap > best.separation {
                best = SatResult {
                    separation: gap,
                    normal: *n,
                    axis: Axis::EdgeOfA(i),
                };
            }
        }
    }
    for (axis, label) in extra {
        let (amin, amax) = a.project(&axis);
        let (bmin, bmax) = b.project(&axis);
        let ahead = bmin - amax; // B on the +axis side of A
        let behind = amin - bmax; // B on the −axis side of A
        let (gap, normal) = if ahead >= behind {
            (ahead, axis)
        } else {
            (behind, -axis)
        };
        if gap > best.separation {
            best = SatResult {
                separation: gap,
                normal,
                axis: label,
            };
        }
    }
    best
}

/// The largest one-sided separation of `b` from `a` over `a`'s outward edge normals:
/// `max_i min_j n_i · (b_j − a_i)` and the edge that gives it (Box2D `b2FindMaxSeparation`).
pub(crate) fn max_edge_separation(a: &ConvexPolygon, b: &ConvexPolygon) -> (Real, usize) {
    let mut best = (Real::NEG_INFINITY, 0);
    for (i, (n, corner)) in a.normals().iter().zip(a.corners()).enumerate() {
        let d = n.dot(&corner.coords);
        let mut gap = Real::INFINITY;
        for v in b.corners() {
            gap = gap.min(n.dot(&v.coords) - d);
        }
        if gap > best.0 {
            best = (gap, i);
        }
    }
    best
}
