//! Triangle against box: 13 axes, in the box's frame (Akenine-Möller, "Fast 3D
//! Triangle-Box Overlap Testing", 2001; Ericson, RTCD §5.2.9).
//!
//! With the triangle's corners `v0, v1, v2` in the box's frame (box centred at the origin,
//! half-extents `e`), the candidates are, in this order (0-based index):
//! - `0..3`: the box's face normals (the triangle's AABB against the box), `FaceB(j)`;
//! - `3`: the triangle's normal, tried as each of `nᵢ = fᵢ₊₂ × fᵢ`, `i = 0, 1, 2` (the cross
//!   product of the two edges at corner `i`), `FaceA(0)` (plane against box);
//! - `4 + 3i + j`: triangle edge `fᵢ = v(i+1) − vᵢ` × box axis `j`, `EdgeEdge(i, j)`.
//!
//! The tests run on the unit box: every corner is first multiplied, entry by entry, by
//! `k = (1 − 2⁻²⁰) / e` (one division per call; on the pose path `k` scales the rows of the
//! rotation matrix and the translation instead). A diagonal scaling maps
//! the box's face normals to themselves, the triangle's normal and the edge × box-axis
//! directions to those of the scaled triangle, so the 13 candidates of the scaled pair are the
//! images of the original ones and the test is the same test; but the box's radius on an axis
//! `a` becomes `Σ |aₖ|`, with no product by a half-extent (nine fewer multiplications and no
//! lane broadcasts of `e`). As `1/k ≥ e (1 − 2⁻²⁰)⁻¹ (1 − u) > e (1 + 0.9·10⁻⁶)` (`u` = 2⁻²⁴),
//! the unit box is the box widened by at least `0.9·10⁻⁶` relative, which covers the rounding
//! of the radii's sums (at most three roundings, `3u < 2·10⁻⁷` relative), so rounding cannot
//! shrink a radius below the box's true one: a pair a hair apart (within about `10⁻⁶ e`) may
//! be reported touching. The scaling itself moves each corner by a relative `u` per entry,
//! the order of the pose's own rounding.
//!
//! On an edge axis `a = uⱼ × fᵢ` two corners project to the same value, so only two
//! projections are needed, and the unit box's radius is `r = Σ |aₖ|` (each `aₖ` is a single
//! entry of `fᵢ`). Corner `i` projects to `P = a · vᵢ = (fᵢ × vᵢ)ⱼ`; corner `i + 2` to
//! `P + a · (vᵢ₊₂ − vᵢ) = P + (fᵢ₊₂ × fᵢ)ⱼ = P + (nᵢ)ⱼ` (as `vᵢ₊₂ − vᵢ = −fᵢ₊₂`), an entry of
//! the normal the plane test computes anyway. The interval `[P, P + nⱼ]` misses `[−r, r]`
//! exactly when its centre is farther than the two half-widths: `|2P + nⱼ| − |nⱼ| > 2r`. With
//! the doubled edge `2fᵢ = fᵢ + fᵢ` (exact), `2P = (2fᵢ × vᵢ)ⱼ` and `2r = Σ |2aₖ|` come
//! exactly doubled at no extra multiplication, and `|nⱼ|` is the plane radius's: four
//! operations after the projection (a sum, an absolute value, a difference, a comparison)
//! instead of five for `min`, `max`, a negation, `max` and the comparison.
//! That rounds differently from projecting `vᵢ₊₂` directly: the entries of `a` are entries of
//! `fᵢ`, so `P` and `(nᵢ)ⱼ` round by a few `u |a| (|vᵢ| + |fᵢ₊₂|)` (`u` = 2⁻²⁴), and the sum
//! `2P + nⱼ` and the difference with `|nⱼ|` add one rounding each of at most
//! `u (|2P| + |nⱼ|)`, the same order: the corners move by a few `u (|vᵢ| + |fᵢ₊₂|)` metres
//! along the axis. (Corner `i + 1` projects as corner `i` up to `a · (vᵢ₊₁ − vᵢ − fᵢ)`, the
//! rounding of the edge, `≤ 2u |fᵢ|²`.) So a pair whose gap on that axis is within that rounding
//! may be reported touching, and an overlapping pair is reported apart only when its overlap
//! is within it (the property tests compare with the report path and oracles at 10⁻⁴
//! relative). An edge parallel to a box axis gives `a = 0`, all projections 0 and radius 0:
//! it cannot report a gap.
//!
//! The normal: `f × g` rounds each entry by about `u |f| |g|` while `|f × g|` is twice the
//! area, so the turn of the rounded normal is about `u |f| |g| / (2 area)`; the two shorter
//! edges make it smallest (they meet at the largest angle, ≥ 60° unless the corners are nearly
//! collinear). With the two long edges of a sliver (one edge 6·10⁻⁵ m, two of 6 m: fuzz input
//! `cuboid_triangle_sliver_depth_minus_tol_separates`) the turn is up to ~10⁻² rad, and a test
//! that projected only `v0` and took the triangle as flat along that turned normal reported a
//! gap inside a 1.8 m overlap. So the plane is tried as each of the three normals
//! `nᵢ = fᵢ₊₂ × fᵢ` (the cross product of the two edges at corner `i`; free on lanes: lane `i`
//! tries `nᵢ`), which includes the one from the two shorter edges, and each is a plain SAT
//! axis whose test accounts for the triangle's thickness along it: lane `i` projects corner `i`
//! only, `p = nᵢ · vᵢ`, and bounds how far the other two corners can lie from `p` along the
//! rounded `ñ = fl(a × f)` (`a = fᵢ₊₂`, `f = fᵢ`, both as rounded). As `(a × f) · f = 0`,
//! `ñ · f = δ · f` with `δ` the cross product's rounding, `|δₖ| ≤ γ₂ (|a_k₁ f_k₂| + |a_k₂ f_k₁|)`
//! (`γ₂ = 2u/(1 − 2u)`), so `|ñ · f| ≤ γ₂ · 2 Σₖ |aₖ| |fₖ₊₁| |fₖ₊₂| ≤ γ₂ A F² / 2` with the
//! 1-norms `A = ‖a‖₁`, `F = ‖f‖₁`; the edge's own rounding (`vᵢ₊₁ − vᵢ = f + ε`,
//! `|εₖ| ≤ u |fₖ|`) adds `|ñ · ε| ≤ u (1 + γ₂) A F² / 2`. So corner `i + 1` lies within
//! `1.5 u A F² (1 + O(u))` of `p` along `ñ`, and corner `i + 2` within `1.5 u F A² (1 + O(u))`
//! likewise: all three within `S = 1.5 u A F max(A, F) (1 + O(u))`. The test is
//! `|p| > Σ |ñₖ| + B` with `B = 2⁻²⁶ · 2A · 2F · max(2A, 2F) = 2u A F max(A, F)` from the
//! doubled edges' 1-norms (their `|2fₖ|` serve the edge radii), which covers `S` and the
//! rounding of the 1-norms, of `B` and of the sum with the radius (the box's widening covers
//! the radius's). So it cannot report a gap the axis `ñ` does not show, up to the rounding of
//! `p` itself, a few `u |ñ| |vᵢ|` (barring underflow of the products, for triangles under
//! ~10⁻¹⁸ m). `B` costs some sharpness: on the normal from the two shorter edges `S / |ñ|`
//! is a few `u` times the triangle's size over the sine of its largest angle, the order of
//! the rounded normal's turn itself (for an equilateral triangle of side `L`, at most
//! `12 u L`, under 10⁻⁶ m per metre); on the other lanes it may be large, and those lanes only
//! rarely separate. Projecting all three
//! corners instead took two more projections, three lane permutations and an interval.
//! Each lane computes the scalar line of `separates` below (same operations, same order).
//!
//! The box's faces read "the triangle's interval `[lo, hi]` on the axis misses the unit box's
//! `[−1, 1]`" as `max(lo, −hi) > 1`, one comparison.

use super::pose::{relative_pose, scaled_rotation_diagonals, transform_diagonals};
use super::{AxisReport, SeparatingAxis};
use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::Obb;
use crate::simd::{vector, Fast, Lanes};

/// How many candidate axes the triangle–cuboid test has.
pub const AXIS_COUNT: u16 = 13;

/// `1 − 2⁻²⁰` (exact; about `(1 + 10⁻⁶)⁻¹`): the corners are scaled by `WIDEN / e`, which
/// widens the box by about `10⁻⁶` relative (module docs).
const WIDEN: Real = 1.0 - 1.0 / (1u32 << 20) as Real;

/// `B = SPREAD · ‖2fᵢ‖₁ ‖2fᵢ₊₂‖₁ max(‖2fᵢ‖₁, ‖2fᵢ₊₂‖₁)` bounds how far the corners lie from
/// corner `i`'s projection on the rounded normal `nᵢ` (module docs): `2⁻²⁶ · 8 = 2u`.
const SPREAD: Real = 1.0 / (1u32 << 26) as Real;

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

/// `if a < b { a } else { b }`: SSE `minps`'s choice (`b` on NaN), as [`Lanes::min`].
#[inline(always)]
fn min(a: Real, b: Real) -> Real {
    if a < b {
        a
    } else {
        b
    }
}

/// `if a > b { a } else { b }`: SSE `maxps`'s choice (`b` on NaN), as [`Lanes::max`].
#[inline(always)]
fn max(a: Real, b: Real) -> Real {
    if a > b {
        a
    } else {
        b
    }
}

/// True when candidate `index` separates the triangle `v` (corners scaled to the unit box,
/// see [`unit_corners`]) from the unit box.
///
/// Box faces: the triangle's interval `[lo, hi]` misses `[−1, 1]`, `max(lo, −hi) > 1`.
/// The plane (normal `nᵢ`, `i = 0, 1, 2`): `|nᵢ · vᵢ| > Σ |nᵢₖ| + B`, `B` bounding the other
/// corners' offsets along the rounded normal. Edge `i` × box axis `j`: the interval's centre
/// against its half-width plus the radius, `|2P + nⱼ| − |nⱼ| > 2r`. See the module docs.
#[inline(always)]
fn separates(index: u16, v: &[Vector; 3]) -> bool {
    match index {
        0..=2 => {
            let k = index as usize;
            let (a, b, c) = (v[0][k], v[1][k], v[2][k]);
            let (lo, hi) = (min(c, min(a, b)), max(c, max(b, a)));
            max(lo, -hi) > 1.0
        }
        3 => {
            // Lane i of [`overlap_with`]: nᵢ = f(i+2) × fᵢ, corner i projected, summed x, y, z.
            (0..3).any(|i| {
                let (n, c) = (normal(v, i), v[i]);
                let p = n.x * c.x + n.y * c.y + n.z * c.z;
                let r = n.x.abs() + n.y.abs() + n.z.abs();
                let (g, h) = (doubled_norm1(v, i), doubled_norm1(v, (i + 2) % 3));
                let b = (g * h) * (max(g, h) * SPREAD);
                p.abs() > r + b
            })
        }
        _ => {
            let (i, j) = (((index - 4) / 3) as usize, ((index - 4) % 3) as usize);
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let f = v[(i + 1) % 3] - v[i];
            let g = f + f;
            // a = uⱼ × f = (aⱼ = 0, a_j1 = −f_j2, a_j2 = f_j1), written out: multiplying by
            // the zero and unit entries cannot be folded away in floating point. Corner i
            // projects to P = (f × vᵢ)ⱼ, here doubled; corner i + 2 to P + nⱼ (module docs).
            let va = v[i];
            let n = normal(v, i)[j];
            let c = (g[j1] * va[j2] - g[j2] * va[j1]) + n;
            c.abs() - n.abs() > g[j1].abs() + g[j2].abs()
        }
    }
}

/// The scale `k = WIDEN / e` (lane-wise) that maps the box, widened by `10⁻⁶`, to the unit box.
#[inline(always)]
fn unit_scale<L: Lanes>(e: &Vector) -> L {
    L::splat(WIDEN).div(vector(e))
}

/// The corners `v` (box frame) scaled to the unit box: `vₖ · k` entry by entry (lane-wise in
/// [`overlap`]).
fn unit_corners(v: &[Vector; 3], e: &Vector) -> [Vector; 3] {
    let k = Vector::new(WIDEN / e.x, WIDEN / e.y, WIDEN / e.z);
    v.map(|c| c.component_mul(&k))
}

/// `‖2fₖ‖₁` summed x, y, z, with `2fₖ = fₖ + fₖ`, `fₖ = v(k+1) − vₖ` (lane `k` of
/// [`overlap_with`]'s doubled edges).
#[inline(always)]
fn doubled_norm1(v: &[Vector; 3], k: usize) -> Real {
    let f = v[(k + 1) % 3] - v[k];
    let g = f + f;
    g.x.abs() + g.y.abs() + g.z.abs()
}

/// The triangle's normal at corner `i`, `nᵢ = f(i+2) × fᵢ` with `fₖ = v(k+1) − vₖ` (lane `i`
/// of [`overlap_with`]).
#[inline(always)]
fn normal(v: &[Vector; 3], i: usize) -> Vector {
    let f = |k: usize| v[(k + 1) % 3] - v[k];
    f((i + 2) % 3).cross(&f(i))
}

/// The first of the 13 candidates separating the triangle with corners `v` (in the box's
/// frame, metres) from the box of half-extents `e` centred at the origin; None when they
/// overlap or touch (or are apart by less than about `10⁻⁶ e`: module docs).
#[inline]
pub fn first_separating_axis(v: &[Vector; 3], e: &Vector) -> Option<u16> {
    let v = &unit_corners(v, e);
    // The 13 tests written out with constant indices, each exiting early.
    macro_rules! try_axes {
        ($($k:literal)*) => {
            $(if separates($k, v) {
                return Some($k);
            })*
        };
    }
    try_axes!(0 1 2 3 4 5 6 7 8 9 10 11 12);
    None
}

/// True when none of the 13 candidates separates the triangle from the box: exactly
/// [`first_separating_axis`]`(v, e).is_none()` on the same corners, the 13 axes computed together
/// without early exit, on the fastest lane backend of the target.
#[inline]
pub fn overlap(v: &[Vector; 3], e: &Vector) -> bool {
    let k = unit_scale::<Fast>(e);
    overlap_with(v.map(|c| vector::<Fast>(&c).mul(k)))
}

/// True when the triangle `tri` (local corners) at `pose_t` and the box of half-extents `e`
/// at `pose_b` overlap or touch: the corners are brought into the box's frame scaled to the
/// unit box on lanes (one quaternion product, its rotation matrix as three wrapped diagonals
/// with the rows scaled by `k`, then each corner rotated with three products and no shuffle on
/// the pose's path), then [`overlap`]'s test runs. No data-dependent branch.
#[inline]
pub fn overlap_poses(pose_t: &Isometry, tri: &[Point; 3], pose_b: &Isometry, e: &Vector) -> bool {
    overlap_poses_with::<Fast>(pose_t, tri, pose_b, e)
}

/// [`overlap_poses`] on a chosen [`Lanes`] backend.
#[inline(always)]
pub(crate) fn overlap_poses_with<L: Lanes>(
    pose_t: &Isometry,
    tri: &[Point; 3],
    pose_b: &Isometry,
    e: &Vector,
) -> bool {
    let k = unit_scale::<L>(e);
    let (s, w, t) = relative_pose::<L>(pose_b, pose_t);
    let m = scaled_rotation_diagonals(s, w, k);
    let t = t.mul(k);
    overlap_with(L::points(tri).map(|c| transform_diagonals(m, c, t)))
}

/// Edge × box axis `j` for the three edges at once (lane `i`: edge `i`), given the entries
/// `j1 = j + 1`, `j2 = j + 2` of the doubled edges `g = 2f`, of their absolute values `ag` and of
/// the edges' first corners `va`, entry `j` of the normals `n` (lane `i`: `f(i+2) × fᵢ`) and its
/// absolute value `an`: the line of [`separates`] for that axis, `|2P + nⱼ| − |nⱼ| > 2r`.
#[inline(always)]
fn edge_axis<L: Lanes>(g: [L; 2], ag: [L; 2], va: [L; 2], n: L, an: L) -> L::Mask {
    let c = g[0].mul(va[1]).sub(g[1].mul(va[0])).add(n);
    c.abs().sub(an).gt(ag[0].add(ag[1]))
}

/// The lane kernel, on the corners `v` (each in lanes x, y, z) scaled to the unit box. Every
/// axis family is lane-wise, with few lane permutations (the previous layout, lanes = box axes
/// for everything, needed ~80 shuffles per call, all on one execution port, and took 10 % more
/// time per call in the micro benchmark with its pairs in cache):
/// - box faces (lane k): the corners' min and max on axis k, on the corners as given;
/// - then the corners transposed ([`Lanes::transpose`]: `x` holds the x's of corners
///   0, 1, 2 in lanes 0, 1, 2; so lane `i` of a lane permutation `next1` / `next2` is corner
///   `i + 1` / `i + 2`);
/// - edge `i` × box axis `j`: lane `i`, one call of `edge_axis` per `j`;
/// - the plane: lane `i` tests the normal `nᵢ = f(i+2) × fᵢ`.
///
/// Each lane computes the scalar line of its axis in [`separates`] (same operations, same
/// order), so the two agree bit for bit.
#[inline(always)]
pub(crate) fn overlap_with<L: Lanes>(v: [L; 3]) -> bool {
    // Box faces (lane k): the corners' extent on axis k against [−1, 1].
    let [v0, v1, v2] = v;
    let (lo, hi) = (v2.min(v0.min(v1)), v2.max(v1.max(v0)));
    let mut sep = lo.max(hi.neg()).gt(L::splat(1.0));
    let [x, y, z] = L::transpose(v);
    // Lane i: the edge fᵢ = corner i + 1 − corner i, doubled (exact), and f(i+2).
    let (fx, fy, fz) = (x.next1().sub(x), y.next1().sub(y), z.next1().sub(z));
    let (gx, gy, gz) = (fx.add(fx), fy.add(fy), fz.add(fz));
    let (agx, agy, agz) = (gx.abs(), gy.abs(), gz.abs());
    let (ax, ay, az) = (fx.next2(), fy.next2(), fz.next2());
    // The triangle's plane (lane i): nᵢ = f(i+2) × fᵢ; corner i's projection against the
    // radius Σ |nₖ| plus the bound B on the other corners' offsets.
    let nx = ay.mul(fz).sub(az.mul(fy));
    let ny = az.mul(fx).sub(ax.mul(fz));
    let nz = ax.mul(fy).sub(ay.mul(fx));
    let (anx, any, anz) = (nx.abs(), ny.abs(), nz.abs());
    let p = nx.mul(x).add(ny.mul(y)).add(nz.mul(z));
    let g1 = agx.add(agy).add(agz);
    let h1 = g1.next2();
    let b = g1.mul(h1).mul(g1.max(h1).mul(L::splat(SPREAD)));
    sep = L::or(sep, edge_axis([gy, gz], [agy, agz], [y, z], nx, anx));
    sep = L::or(sep, edge_axis([gz, gx], [agz, agx], [z, x], ny, any));
    sep = L::or(sep, edge_axis([gx, gy], [agx, agy], [x, y], nz, anz));
    sep = L::or(sep, p.abs().gt(anx.add(any).add(anz).add(b)));
    !L::any(sep)
}

/// Like [`first_separating_axis`], trying candidate `cached` (0..13) first.
#[inline]
pub fn first_separating_axis_cached(v: &[Vector; 3], e: &Vector, cached: u16) -> Option<u16> {
    let v = &unit_corners(v, e);
    if cached < AXIS_COUNT && separates(cached, v) {
        return Some(cached);
    }
    (0..AXIS_COUNT).find(|&k| k != cached && separates(k, v))
}

fn to_box_frame(tri: &[Point; 3], obb: &Obb) -> [Vector; 3] {
    let at = obb.axes().transpose();
    tri.map(|p| at * (p - obb.center()))
}

/// The first axis separating a world-space triangle from an oriented box (triangle = A,
/// box = B), or None when they overlap or touch (or are apart by less than about `10⁻⁶` of the
/// half-extents: the box is widened by that much, see the module docs).
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
    AxisReport::of_index(index, AXIS_COUNT, axis_of_index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rotation, Translation};
    use crate::simd::Scalar;
    use crate::test_util::random_vector as vector;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn rotation(r: &mut ChaCha8Rng) -> Rotation {
        Rotation::from_quaternion(nalgebra::Quaternion::new(
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
            r.gen_range(-1.0..1.0),
        ))
    }

    /// Corners in the box frame around the touching distance; a quarter of the triangles
    /// get an edge parallel to a box axis or lie in a box-aligned plane.
    fn corners(r: &mut ChaCha8Rng) -> [Vector; 3] {
        let centre = vector(r, -1.0, 1.0).normalize() * r.gen_range(0.0..2.5);
        let mut v = [0; 3].map(|_| centre + vector(r, -1.0, 1.0));
        match r.gen_range(0..8) {
            0 => v[1] = v[0] + Vector::x() * r.gen_range(0.1..1.0),
            1 => v.iter_mut().for_each(|c| c.z = centre.z),
            _ => {}
        }
        v
    }

    /// The lane kernel (both backends) says "overlap" exactly when the report API finds no
    /// separating axis, on the same corners.
    #[test]
    fn overlap_is_first_separating_axis_none() {
        let mut r = ChaCha8Rng::seed_from_u64(9);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let v = corners(&mut r);
            let e = vector(&mut r, 0.1, 1.0);
            let want = first_separating_axis(&v, &e).is_none();
            seen[want as usize] += 1;
            assert_eq!(overlap(&v, &e), want, "case {k}");
            let scale = unit_scale::<Scalar>(&e);
            let lanes = v.map(|c| Scalar([c.x, c.y, c.z]).mul(scale));
            assert_eq!(overlap_with(lanes), want, "case {k} (scalar)");
        }
        assert!(seen[0] > 20_000 && seen[1] > 20_000, "{seen:?}");
    }

    /// The largest gap, in metres, that any of the 13 axes shows between the triangle `v` and
    /// the box `e`, in `f64` with the exact normal and all three corners projected (negative:
    /// overlap by that much on the least-overlapping axis).
    fn gap_f64(v: &[Vector; 3], e: &Vector) -> f64 {
        let v = v.map(|c| c.cast::<f64>());
        let e = e.cast::<f64>();
        let f = [0, 1, 2].map(|i| v[(i + 1) % 3] - v[i]);
        let mut axes = vec![f[2].cross(&f[0])];
        for j in 0..3 {
            axes.push(nalgebra::Vector3::ith(j, 1.0));
            for fi in &f {
                axes.push(nalgebra::Vector3::ith(j, 1.0).cross(fi));
            }
        }
        axes.iter()
            .filter(|a| a.norm() > 0.0)
            .map(|a| {
                let p = v.map(|c| a.dot(&c));
                let (lo, hi) = (p[0].min(p[1]).min(p[2]), p[0].max(p[1]).max(p[2]));
                let r = e.x * a.x.abs() + e.y * a.y.abs() + e.z * a.z.abs();
                (lo.max(-hi) - r) / a.norm()
            })
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// Against an independent `f64` SAT, on fair triangles and on slivers like the fuzz input
    /// `cuboid_triangle_sliver_depth_minus_tol_separates` (one edge 10⁻⁶..10⁻³ m, two up to
    /// 6 m, a third of them along a box axis) near touching: "apart" only for pairs that do
    /// not overlap by more than `10⁻⁶` of their size (rounding), "touching" only for pairs
    /// within `10⁻⁵` of it (the fuzz oracle allows `10⁻⁴`; these cases all pass at `10⁻⁶`);
    /// the plane's bound on the corners' offsets along the rounded normal is what this checks
    /// on the slivers.
    #[test]
    fn overlap_matches_an_f64_sat_on_fair_and_sliver_triangles() {
        let mut r = ChaCha8Rng::seed_from_u64(11);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let e = vector(&mut r, 0.05, 1.0);
            let v = if k % 2 == 0 {
                corners(&mut r)
            } else {
                let inside = vector(&mut r, -1.2, 1.2).component_mul(&e);
                let far = vector(&mut r, -1.0, 1.0).normalize() * r.gen_range(0.5..6.0);
                let dir = match r.gen_range(0..3) {
                    0 => Vector::ith(r.gen_range(0..3), 1.0),
                    _ => vector(&mut r, -1.0, 1.0).normalize(),
                };
                let tiny = (10.0 as Real).powf(r.gen_range(-6.0..-3.0));
                [far, inside, inside + dir * tiny]
            };
            // Only triangles `Triangle::new` accepts (twice the area above 10⁻⁶ × the longest
            // edge).
            let longest = (0..3)
                .map(|i| (v[(i + 1) % 3] - v[i]).norm())
                .fold(0.0, Real::max);
            if (v[1] - v[0]).cross(&(v[2] - v[0])).norm() <= 1e-6 * longest {
                continue;
            }
            let size = v.iter().map(|c| c.abs().max()).fold(e.max(), Real::max) as f64;
            let (apart, gap) = (!overlap(&v, &e), gap_f64(&v, &e));
            seen[apart as usize] += 1;
            if apart {
                assert!(
                    gap > -1e-6 * size,
                    "case {k}: apart, but overlapping by {}",
                    -gap
                );
            } else {
                assert!(gap < 1e-5 * size, "case {k}: touching, but apart by {gap}");
            }
        }
        assert!(seen[0] > 20_000 && seen[1] > 20_000, "{seen:?}");
    }

    /// The pose path: same bits on both backends, and the report API's answer on nalgebra's
    /// corners except for pairs within rounding of touching.
    #[test]
    fn overlap_poses_backends_agree_and_match_report() {
        let mut r = ChaCha8Rng::seed_from_u64(10);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let tri = [0; 3].map(|_| Point::from(vector(&mut r, -1.0, 1.0)));
            let e = vector(&mut r, 0.2, 1.0);
            let tb = vector(&mut r, -50.0, 50.0);
            let tt = tb + vector(&mut r, -1.0, 1.0).normalize() * r.gen_range(0.0..2.5);
            let pose_t = Isometry::from_parts(Translation::from(tt), rotation(&mut r));
            let pose_b = Isometry::from_parts(Translation::from(tb), rotation(&mut r));
            let fast = overlap_poses(&pose_t, &tri, &pose_b, &e);
            assert_eq!(
                fast,
                overlap_poses_with::<Scalar>(&pose_t, &tri, &pose_b, &e),
                "case {k}: SIMD vs scalar"
            );
            let rel = pose_b.inv_mul(&pose_t);
            let v = tri.map(|c| (rel * c).coords);
            if fast != first_separating_axis(&v, &e).is_none() {
                let (lo, hi) = (e * (1.0 - 1e-4), e * (1.0 + 1e-4));
                assert!(
                    first_separating_axis(&v, &lo).is_some()
                        && first_separating_axis(&v, &hi).is_none(),
                    "case {k}: pose path {fast} vs report API, not a touching pair"
                );
            }
            seen[fast as usize] += 1;
        }
        assert!(seen[0] > 20_000 && seen[1] > 20_000, "{seen:?}");
    }
}
