//! Triangle against box: 13 axes, in the box's frame (Akenine-Möller, "Fast 3D
//! Triangle-Box Overlap Testing", 2001; Ericson, RTCD §5.2.9).
//!
//! With the triangle's corners `v0, v1, v2` in the box's frame (box centred at the origin,
//! half-extents `e`), the candidates are, in this order (0-based index):
//! - `0..3`: the box's face normals (the triangle's AABB against the box), `FaceB(j)`;
//! - `3`: the triangle's normal `n = f0 × f1`, `FaceA(0)` (plane against box);
//! - `4 + 3i + j`: triangle edge `fᵢ = v(i+1) − vᵢ` × box axis `j`, `EdgeEdge(i, j)`.
//!
//! On an edge axis `a = uⱼ × fᵢ` two corners project to the same value, so only two
//! projections are needed, and the box's radius is `Σ eₖ |aₖ|` (each `aₖ` is a single entry of
//! `fᵢ`). An edge parallel to a box axis gives `a = 0`, all projections 0 and radius 0: it
//! cannot report a gap. The radius is widened by a relative `10⁻⁶` so rounding on a
//! near-parallel edge cannot fake one either.

use super::{AxisReport, SeparatingAxis};
use crate::math::{Point, Real, Vector};
use crate::shape::Obb;

/// How many candidate axes the triangle–box test has.
pub const AXIS_COUNT: u16 = 13;

const REL_EPS: Real = 1e-6;

/// The axis kind of candidate `index` (0..13).
pub fn axis_of_index(index: u16) -> SeparatingAxis {
    match index {
        0..=2 => SeparatingAxis::FaceB(index),
        3 => SeparatingAxis::FaceA(0),
        _ => SeparatingAxis::EdgeEdge((index - 4) / 3, (index - 4) % 3),
    }
}

/// The index (0..13) of an axis kind, or None when it is not a candidate of this test.
pub fn index_of_axis(axis: SeparatingAxis) -> Option<u16> {
    match axis {
        SeparatingAxis::FaceB(j) if j < 3 => Some(j),
        SeparatingAxis::FaceA(0) => Some(3),
        SeparatingAxis::EdgeEdge(i, j) if i < 3 && j < 3 => Some(4 + 3 * i + j),
        _ => None,
    }
}

/// True when candidate `index` separates the triangle `v` (box frame) from the box `e`.
#[inline(always)]
fn separates(index: u16, v: &[Vector; 3], e: &Vector) -> bool {
    match index {
        0..=2 => {
            let k = index as usize;
            let (a, b, c) = (v[0][k], v[1][k], v[2][k]);
            // Plain selects (SSE min/max), not the NaN-aware `f32::min`.
            let (lo, hi) = if a < b { (a, b) } else { (b, a) };
            let lo = if c < lo { c } else { lo };
            let hi = if c > hi { c } else { hi };
            hi < -e[k] || lo > e[k]
        }
        3 => {
            let n = (v[1] - v[0]).cross(&(v[2] - v[0]));
            let p = n.dot(&v[0]);
            let r = e.x * n.x.abs() + e.y * n.y.abs() + e.z * n.z.abs();
            p.abs() > r * (1.0 + REL_EPS)
        }
        _ => {
            let (i, j) = (((index - 4) / 3) as usize, ((index - 4) % 3) as usize);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let f = v[(i + 1) % 3] - v[i];
            // a = uⱼ × f = (aⱼ = 0, a_j1 = −f_j2, a_j2 = f_j1), written out: multiplying by
            // the zero and unit entries cannot be folded away in floating point.
            let (va, vc) = (v[i], v[(i + 2) % 3]);
            let p0 = f[j1] * va[j2] - f[j2] * va[j1];
            let p2 = f[j1] * vc[j2] - f[j2] * vc[j1];
            let r = (e[j1] * f[j2].abs() + e[j2] * f[j1].abs()) * (1.0 + REL_EPS);
            let (lo, hi) = if p0 < p2 { (p0, p2) } else { (p2, p0) };
            lo > r || hi < -r
        }
    }
}

/// The first of the 13 candidates separating the triangle with corners `v` (in the box's
/// frame, metres) from the box of half-extents `e` centred at the origin; None when they
/// overlap or touch.
#[inline]
pub fn first_separating_axis(v: &[Vector; 3], e: &Vector) -> Option<u16> {
    // The 13 tests written out with constant indices, each exiting early.
    macro_rules! try_axes {
        ($($k:literal)*) => {
            $(if separates($k, v, e) {
                return Some($k);
            })*
        };
    }
    try_axes!(0 1 2 3 4 5 6 7 8 9 10 11 12);
    None
}

/// Like [`first_separating_axis`], trying candidate `cached` (0..13) first.
#[inline]
pub fn first_separating_axis_cached(v: &[Vector; 3], e: &Vector, cached: u16) -> Option<u16> {
    if cached < AXIS_COUNT && separates(cached, v, e) {
        return Some(cached);
    }
    (0..AXIS_COUNT).find(|&k| k != cached && separates(k, v, e))
}

fn to_box_frame(tri: &[Point; 3], obb: &Obb) -> [Vector; 3] {
    let at = obb.axes().transpose();
    tri.map(|p| at * (p - obb.center()))
}

/// The first axis separating a world-space triangle from an oriented box (triangle = A,
/// box = B), or None when they overlap or touch.
pub fn triangle_obb(tri: &[Point; 3], obb: &Obb) -> Option<AxisReport> {
    first_separating_axis(&to_box_frame(tri, obb), &obb.half_extents()).map(report)
}

/// Like [`triangle_obb`], trying `last` first.
pub fn triangle_obb_cached(
    tri: &[Point; 3],
    obb: &Obb,
    last: Option<SeparatingAxis>,
) -> Option<AxisReport> {
    let cached = last.and_then(index_of_axis).unwrap_or(AXIS_COUNT);
    first_separating_axis_cached(&to_box_frame(tri, obb), &obb.half_extents(), cached).map(report)
}

fn report(index: u16) -> AxisReport {
    AxisReport {
        axis: axis_of_index(index),
        index,
        count: AXIS_COUNT,
    }
}
