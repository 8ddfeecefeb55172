//! Convex polygon A against each planar shape B: the candidate axes of each pair, fed to the
//! shared separating-axis test ([`super::sat`]).

use super::convex::ConvexPolygon;
use super::sat::{max_edge_separation, sat, Axis, SatResult};
use super::shapes::{Circle, Line, Rect, Segment};
use crate::math::{Point2, Real};

/// Polygon against polygon: the outward edge normals of A against B's corners, then of B
/// against A's (Box2D `b2CollidePolygons`' separating-axis stage); ties go to A. Normal from A
/// toward B.
pub fn polygon_polygon(a: &ConvexPolygon, b: &ConvexPolygon) -> SatResult {
    let (sep_a, i) = max_edge_separation(a, b);
    let (sep_b, j) = max_edge_separation(b, a);
    if sep_b > sep_a {
        SatResult {
            separation: sep_b,
            normal: -b.normals()[j],
            axis: Axis::EdgeOfB(j),
        }
    } else {
        SatResult {
            separation: sep_a,
            normal: a.normals()[i],
            axis: Axis::EdgeOfA(i),
        }
    }
}

/// Polygon against oriented rectangle: A's edge normals and the rectangle's **two** axes
/// (its four edge normals are two lines; each line is tested once, both ways).
pub fn polygon_rect(a: &ConvexPolygon, b: &Rect) -> SatResult {
    let [u, v] = b.axes();
    sat(a, b, true, [(u, Axis::EdgeOfB(0)), (v, Axis::EdgeOfB(1))])
}

/// Polygon against segment (a two-corner polygon): A's edge normals and the segment's normal.
/// The Minkowski difference of a polygon and a segment has no other edge directions.
pub fn polygon_segment(a: &ConvexPolygon, b: &Segment) -> SatResult {
    sat(a, b, true, [(b.normal(), Axis::EdgeOfB(0))])
}

/// Polygon against circle: A's edge normals and the unit axis from A's corner nearest the
/// centre to the centre (RTCD §5.2.8's Voronoi argument: that corner is the only one whose
/// region can hold the centre when no edge separates). A centre exactly on a corner gives no
/// corner axis; the pair then touches (separation ≤ 0 on every edge). Normal from A toward
/// the circle.
pub fn polygon_circle(a: &ConvexPolygon, b: &Circle) -> SatResult {
    let c = b.center();
    let (k, nearest) = nearest_corner(a, &c);
    let corner_axis = (c - nearest)
        .try_normalize(Real::MIN_POSITIVE)
        .map(|axis| (axis, Axis::CornerOfA(k)));
    sat(a, b, true, corner_axis)
}

/// Polygon against infinite line: the only axis is the line's normal. Separation = distance
/// from the polygon to the line (positive) or, when the line cuts it, minus the smaller
/// distance the polygon must move to clear it; normal from the polygon toward the line.
pub fn polygon_line(a: &ConvexPolygon, b: &Line) -> SatResult {
    sat(a, b, false, [(b.normal(), Axis::EdgeOfB(0))])
}

/// Index and position of the corner of `a` nearest `p`.
fn nearest_corner(a: &ConvexPolygon, p: &Point2) -> (usize, Point2) {
    let mut best = (0, a.corners()[0]);
    let mut best_d2 = Real::INFINITY;
    for (i, c) in a.corners().iter().enumerate() {
        let d2 = (c - p).norm_squared();
        if d2 < best_d2 {
            best_d2 = d2;
            best = (i, *c);
        }
    }
    best
}
