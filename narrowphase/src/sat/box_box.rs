//! Box against box: the 15-axis separating axis test done the fast way (Ericson, RTCD §4.4.1).
//!
//! Everything happens in A's frame. `R[i][j] = aᵢ · bⱼ` is the rotation taking B's frame to
//! A's, `t` is B's centre in A's frame. The radius of a box on an axis `L` is
//! `Σ eᵢ |uᵢ · L|`, and on the 15 candidate axes every `uᵢ · L` is an entry of `R` (or a
//! 2-term combination of them), so each axis costs a handful of multiplications: no corner
//! is ever projected. The absolute values are taken of `R` plus a small [`PARALLEL_EPSILON`],
//! so that when an edge of A is nearly parallel to an edge of B (their cross product nearly
//! zero, all terms of the test nearly zero) rounding cannot report a gap that is not there.
//!
//! Candidate order (0-based index): faces of A `0, 1, 2`; faces of B `3, 4, 5`;
//! edge `i` of A × edge `j` of B at `6 + 3i + j`.

use super::{AxisReport, SeparatingAxis};
use crate::math::{Matrix, Real, Vector};
use crate::shape::Obb;

/// How many candidate axes the box–box test has.
pub const AXIS_COUNT: u16 = 15;

/// Added to every `|Rᵢⱼ|` (dimensionless, `Rᵢⱼ` being a cosine) so near-parallel edges cannot
/// fake a gap. Errs towards "intersecting" by at most about `ε · (size of the boxes)`.
pub const PARALLEL_EPSILON: Real = 1e-6;

/// The axis kind of candidate `index` (0..15) in this test's order.
pub fn axis_of_index(index: u16) -> SeparatingAxis {
    match index {
        0..=2 => SeparatingAxis::FaceA(index),
        3..=5 => SeparatingAxis::FaceB(index - 3),
        _ => SeparatingAxis::EdgeEdge((index - 6) / 3, (index - 6) % 3),
    }
}

/// The index (0..15) of an axis kind, or None when it is not a box–box candidate.
pub fn index_of_axis(axis: SeparatingAxis) -> Option<u16> {
    match axis {
        SeparatingAxis::FaceA(i) if i < 3 => Some(i),
        SeparatingAxis::FaceB(j) if j < 3 => Some(3 + j),
        SeparatingAxis::EdgeEdge(i, j) if i < 3 && j < 3 => Some(6 + 3 * i + j),
        _ => None,
    }
}

/// Rows of `|R| + ε`, as plain arrays for the hot loop.
#[inline(always)]
fn abs_eps(r: &[[Real; 3]; 3]) -> [[Real; 3]; 3] {
    let mut a = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            a[i][j] = r[i][j].abs() + PARALLEL_EPSILON;
        }
    }
    a
}

#[inline(always)]
fn rows(r: &Matrix) -> [[Real; 3]; 3] {
    [
        [r.m11, r.m12, r.m13],
        [r.m21, r.m22, r.m23],
        [r.m31, r.m32, r.m33],
    ]
}

/// True when candidate `index` separates the boxes. `r`, `ar = |r| + ε`, `t`, `ea`, `eb` as in
/// the module docs (A's frame).
#[inline(always)]
fn separates(
    index: u16,
    r: &[[Real; 3]; 3],
    ar: &[[Real; 3]; 3],
    t: &[Real; 3],
    ea: &[Real; 3],
    eb: &[Real; 3],
) -> bool {
    match index {
        0..=2 => {
            let i = index as usize;
            let rb = eb[0] * ar[i][0] + eb[1] * ar[i][1] + eb[2] * ar[i][2];
            t[i].abs() > ea[i] + rb
        }
        3..=5 => {
            let j = index as usize - 3;
            let ra = ea[0] * ar[0][j] + ea[1] * ar[1][j] + ea[2] * ar[2][j];
            let tj = t[0] * r[0][j] + t[1] * r[1][j] + t[2] * r[2][j];
            tj.abs() > ra + eb[j]
        }
        _ => {
            let (i, j) = ((index as usize - 6) / 3, (index as usize - 6) % 3);
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ea[i1] * ar[i2][j] + ea[i2] * ar[i1][j];
            let rb = eb[j1] * ar[i][j2] + eb[j2] * ar[i][j1];
            let tl = t[i2] * r[i1][j] - t[i1] * r[i2][j];
            tl.abs() > ra + rb
        }
    }
}

/// The first of the 15 candidates (in the order of the module docs) that separates two boxes,
/// or None when they overlap or touch.
///
/// `r`: rotation from B's frame to A's (`r[(i, j)] = aᵢ · bⱼ`); `t`: B's centre in A's frame
/// (metres); `ea`, `eb`: half-extents of A and B (metres).
///
/// Straight-line code: the 15 tests written out with constant indices (so each is Ericson's
/// §4.4.1 line after inlining), each exiting early: a pair separated by a face of A costs
/// about 20 flops after `R`.
#[inline]
pub fn first_separating_axis(r: &Matrix, t: &Vector, ea: &Vector, eb: &Vector) -> Option<u16> {
    let r = rows(r);
    let ar = abs_eps(&r);
    let t = [t.x, t.y, t.z];
    let ea = [ea.x, ea.y, ea.z];
    let eb = [eb.x, eb.y, eb.z];
    macro_rules! try_axes {
        ($($k:literal)*) => {
            $(if separates($k, &r, &ar, &t, &ea, &eb) {
                return Some($k);
            })*
        };
    }
    try_axes!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14);
    None
}

/// Like [`first_separating_axis`] but tries candidate `cached` (an index 0..15, e.g. the axis
/// that separated the pair last frame) first. Returns the index of a separating axis: `cached`
/// itself when it still separates.
#[inline]
pub fn first_separating_axis_cached(
    r: &Matrix,
    t: &Vector,
    ea: &Vector,
    eb: &Vector,
    cached: u16,
) -> Option<u16> {
    let r = rows(r);
    let ar = abs_eps(&r);
    let t = [t.x, t.y, t.z];
    let ea = [ea.x, ea.y, ea.z];
    let eb = [eb.x, eb.y, eb.z];
    if cached < AXIS_COUNT && separates(cached, &r, &ar, &t, &ea, &eb) {
        return Some(cached);
    }
    (0..AXIS_COUNT).find(|&k| k != cached && separates(k, &r, &ar, &t, &ea, &eb))
}

/// `R` and `t` of two world-space boxes (see the module docs).
#[inline]
fn relative(a: &Obb, b: &Obb) -> (Matrix, Vector) {
    let at = a.axes().transpose();
    (at * b.axes(), at * (b.center() - a.center()))
}

/// The first axis separating two oriented boxes, or None when they overlap or touch.
pub fn obb_obb(a: &Obb, b: &Obb) -> Option<AxisReport> {
    let (r, t) = relative(a, b);
    first_separating_axis(&r, &t, &a.half_extents(), &b.half_extents()).map(report)
}

/// Like [`obb_obb`], trying `last` (the axis that separated the pair last frame) first.
pub fn obb_obb_cached(a: &Obb, b: &Obb, last: Option<SeparatingAxis>) -> Option<AxisReport> {
    let (r, t) = relative(a, b);
    let cached = last.and_then(index_of_axis).unwrap_or(AXIS_COUNT);
    first_separating_axis_cached(&r, &t, &a.half_extents(), &b.half_extents(), cached).map(report)
}

fn report(index: u16) -> AxisReport {
    AxisReport {
        axis: axis_of_index(index),
        index,
        count: AXIS_COUNT,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip() {
        for k in 0..AXIS_COUNT {
            assert_eq!(index_of_axis(axis_of_index(k)), Some(k));
        }
        assert_eq!(axis_of_index(7), SeparatingAxis::EdgeEdge(0, 1));
    }
}
