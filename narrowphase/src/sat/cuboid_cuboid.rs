//! Cuboid against cuboid: the 15-axis separating axis test done the fast way (Ericson, RTCD §4.4.1).
//!
//! Everything happens in A's frame. `R[i][j] = aᵢ · bⱼ` is the rotation taking B's frame to
//! A's, `t` is B's centre in A's frame. The radius of a box on an axis `L` is
//! `Σ eᵢ |uᵢ · L|`, and on the 15 candidate axes every `uᵢ · L` is an entry of `R` (or a
//! 2-term combination of them), so each axis costs a handful of multiplications: no corner
//! is ever projected. The absolute values are taken of `R` plus a small [`PARALLEL_EPSILON`],
//! so that when an edge of A is nearly parallel to an edge of B (their cross product nearly
//! zero, all terms of the test nearly zero) rounding cannot report a gap that is not there.
//!
//! **The price: how far apart "touching" boxes can be.** With `|Rᵢⱼ| + ε` (ε =
//! [`PARALLEL_EPSILON`]) every projection radius is too large by ε times the half-extents it
//! multiplies, so each axis can hide a gap up to its slack (`aᵢ`, `bⱼ` the unit axes, `e`, `f`
//! the half-extents of A and B, `i₁, i₂` the other two indices of `i`, likewise `j₁, j₂`):
//!
//! | axis | slack of the separation (metres) |
//! |---|---|
//! | face `aᵢ` | `ε (f₀ + f₁ + f₂)` |
//! | face `bⱼ` | `ε (e₀ + e₁ + e₂)` |
//! | edge `aᵢ × bⱼ` | `ε (e_{i₁} + e_{i₂} + f_{j₁} + f_{j₂}) / sin θᵢⱼ` |
//!
//! The edge axes are not normalised, so their slack is divided by their length
//! `‖aᵢ × bⱼ‖ = sin θᵢⱼ`: millimetres for 6 m boxes with edges 10⁻³ rad from parallel. The test
//! returns `true` ("touching") exactly when no axis separates the boxes by more than its slack.
//! The cuboid–cuboid contact ([`crate::query::contact`]) does not add ε and has no such slack.
//!
//! Candidate order (0-based index): faces of A `0, 1, 2`; faces of B `3, 4, 5`;
//! edge `i` of A × edge `j` of B at `6 + 3i + j`.

use super::pose::{relative_pose, rotation_rows_and_columns};
use super::{AxisReport, SeparatingAxis};
use crate::math::{Isometry, Matrix, Real, Vector};
use crate::shape::Obb;
use crate::simd::{vector, Fast, Lanes};

/// How many candidate axes the cuboid–cuboid test has.
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

/// The index (0..15) of an axis kind, or None when it is not a cuboid–cuboid candidate.
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
        // The sums run cyclically from the diagonal term (k = i, i + 1, i + 2 for a face of
        // A; k = j, j − 1, j − 2 for a face of B), the order in which the lanes of
        // [`overlap_diagonals`] add them, so both give the same bits.
        0..=2 => {
            let i = index as usize;
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            let rb = eb[i] * ar[i][i] + eb[i1] * ar[i][i1] + eb[i2] * ar[i][i2];
            t[i].abs() > ea[i] + rb
        }
        3..=5 => {
            let j = index as usize - 3;
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let ra = ea[j] * ar[j][j] + ea[j2] * ar[j2][j] + ea[j1] * ar[j1][j];
            let tj = t[j] * r[j][j] + t[j2] * r[j2][j] + t[j1] * r[j1][j];
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

/// True when none of the 15 candidates separates the boxes (they overlap or touch): exactly
/// [`first_separating_axis`]`(r, t, ea, eb).is_none()`, arguments as there.
///
/// Runs the lane kernel `overlap_diagonals` on the fastest backend of the target.
#[inline]
pub fn overlap(r: &Matrix, t: &Vector, ea: &Vector, eb: &Vector) -> bool {
    overlap_matrix_with::<Fast>(r, t, ea, eb)
}

/// [`overlap`] on a chosen [`Lanes`] backend.
#[inline(always)]
pub(crate) fn overlap_matrix_with<L: Lanes>(
    r: &Matrix,
    t: &Vector,
    ea: &Vector,
    eb: &Vector,
) -> bool {
    // Wrapped diagonals: R[m][m], R[m][m + 1] and R[m + 1][m] in lane m (indices mod 3).
    let d = [
        L::new(r.m11, r.m22, r.m33),
        L::new(r.m12, r.m23, r.m31),
        L::new(r.m21, r.m32, r.m13),
    ];
    overlap_diagonals(d, vector(t), ea, eb)
}

/// True when box A (half-extents `ea`, pose `pose_a`) and box B overlap or touch: the
/// 15-axis test of [`overlap`] on the relative pose, computed from the two quaternions
/// without building a matrix first.
///
/// Cost on x86_64: about 200 instructions (126 of them vector arithmetic, comparisons, masks
/// and lane permutations), no data-dependent branch. The relative pose and the
/// wrapped diagonals of `R` straight from its quaternion come from the pose helpers
/// (`sat::pose::relative_pose`, which the triangle–cuboid test uses too, and
/// `rotation_rows_and_columns`).
/// Assumes unit quaternions, as [`Isometry`] guarantees. Differs from
/// `overlap(R, t, ..)` with `R`, `t` from nalgebra's `inv_mul` only by rounding in `R` and
/// `t` (a few ulps).
#[inline]
pub fn overlap_poses(pose_a: &Isometry, ea: &Vector, pose_b: &Isometry, eb: &Vector) -> bool {
    overlap_poses_with::<Fast>(pose_a, ea, pose_b, eb)
}

/// [`overlap_poses`] on a chosen [`Lanes`] backend.
#[inline(always)]
pub(crate) fn overlap_poses_with<L: Lanes>(
    pose_a: &Isometry,
    ea: &Vector,
    pose_b: &Isometry,
    eb: &Vector,
) -> bool {
    let (s, w, t) = relative_pose::<L>(pose_a, pose_b);
    overlap_diagonals(rotation_rows_and_columns(s, w), t, ea, eb)
}

/// The 15 axes of [`first_separating_axis`], three at a time, OR-ed without early exit:
/// straight-line code with no data-dependent branch, so a stream of random pairs costs no
/// branch misprediction.
///
/// Measured alternatives (micro benchmark, parry-micro's cuboid pairs, half of them apart):
/// returning early when a face axis separates skips the nine edge axes for many apart pairs
/// (−21 instructions per call on average) but that branch follows random data and mispredicts:
/// 16 % slower per call (median of 9 alternating runs, pairs in cache). With its pairs in
/// cache the test is bound by the vector ports: with the relative pose, 126 vector operations
/// per call (SSE: products and sums, comparisons, masks, lane permutations; register copies
/// are nearly free), 80 of them here. So the kernel is written for the fewest of those. Its
/// arithmetic cannot shrink: every product of the 15 axes is a different one (`eaₖ |Rₘₙ|` and
/// `ebₖ |Rₘₙ|` for each of the 27 pairs of a half-extent and an entry of `R`, in face or edge
/// radii, and `tₖ Rₘₙ` for each of the 27 pairs of the centre), 27 lane products, with the
/// sums, absolute values, comparisons and ORs they need; what is left to cut are the lane
/// permutations.
///
/// `R` comes as three of its wrapped diagonals, `d[0][m] = R[m][m]`, `d[1][m] = R[m][m + 1]`
/// and `d[2][m] = R[m + 1][m]` (indices mod 3, as `sat::pose::rotation_rows_and_columns` makes
/// them: the last two share their products). Write `dₖ[m] = R[m][m + k]` (row `m` in lane `m`)
/// and `cₖ[m] = R[m + k][m]` (column `m` in lane `m`): `d₀ = c₀`, `d₁ = d[1]`, `c₁ = d[2]`,
/// and one permutation each gives the other two, `d₂ = c₁.next2` and `c₂ = d₁.next2`; `c₂`
/// is needed as it is, `d₂` only in `|R| + ε`, which is taken of `d₀`, `d₁`, `c₁` and then
/// permuted. Faces of A and the edge axes `aᵢ × bᵢ` work on rows (lane `i`), faces of B on
/// columns (lane `j`). An edge axis `aᵢ × bⱼ` with `j ≠ i` needs rows for B's radius and
/// columns for A's radius and for the centre term: it is summed on columns (lane `j`), with
/// B's radius made on rows (lane `i = j − k`) and moved to lane `j` by one permutation. So 13
/// permutations in the kernel: three for the diagonals (`c₂`, and `d₂`, `c₂` of `|R| + ε`),
/// two for `t`, three for each half-extent (loading it, then its two other orders) and one
/// for each of the two edge families `j ≠ i`. (Taking `R` as `d₀, d₁, d₂`, as the
/// triangle–cuboid test does, cost two more products in the pose and one more permutation
/// here: 129 uops per call, in cache 4 % slower, median of 8 alternating runs. The layout
/// before that, all on rows, rotated `R` and `|R| + ε` for every edge family: 22
/// permutations, 8 more uops per call again, in cache 4 % slower again.)
///
/// `t`, `ea`, `eb` as in [`first_separating_axis`]. Each lane computes the same expression,
/// in the same order, as the scalar line of its axis in [`first_separating_axis`], so the two
/// agree bit for bit.
#[inline(always)]
pub(crate) fn overlap_diagonals<L: Lanes>(d: [L; 3], t: L, ea: &Vector, eb: &Vector) -> bool {
    let eps = L::splat(PARALLEL_EPSILON);
    // Rows dₖ[m] = R[m][m + k] and columns cₖ[m] = R[m + k][m]; ad, ac the same of |R| + ε.
    let (d0, d1, c1) = (d[0], d[1], d[2]);
    let c2 = d1.next2();
    let [ad0, ad1, ac1] = d.map(|x| x.abs().add(eps));
    let (ad2, ac2) = (ac1.next2(), ad1.next2());
    let ad = [ad0, ad1, ad2];
    // ea1[m] = ea[m + 1], ea2[m] = ea[m + 2]; likewise eb, t. The half-extents are loaded
    // rotated by one lane, (y, z, x), with x in the unused lane 3 too: on SSE one shuffle
    // joins the 8-byte (y, z) and the 4-byte x, and one more makes each other order (lane 3
    // set to 0, as `new` does, took one more for each).
    let ea1 = L::new_w(ea.y, ea.z, ea.x, ea.x);
    let (ea, ea2) = (ea1.next2(), ea1.next1());
    let eb1 = L::new_w(eb.y, eb.z, eb.x, eb.x);
    let (eb, eb2) = (eb1.next2(), eb1.next1());
    let (t1, t2) = (t.next1(), t.next2());
    // Faces of B (lane j): |Σₖ tₖ Rₖⱼ| > Σₖ eaₖ |Rₖⱼ| + ebⱼ, k = j, j + 2, j + 1.
    let ra = ea.mul(ad[0]).add(ea2.mul(ac2)).add(ea1.mul(ac1));
    let tj = t.mul(d0).add(t2.mul(c2)).add(t1.mul(c1));
    let mut sep = tj.abs().gt(ra.add(eb));
    // Edge i of A × edge j of B, with i1, i2 = i + 1, i + 2 and j1, j2 = j + 1, j + 2:
    // |t_i2 R_i1j − t_i1 R_i2j| > (ea_i1 |R_i2j| + ea_i2 |R_i1j|) + (eb_j1 |R_ij2| + eb_j2 |R_ij1|).
    // j = i, lane i: R_i1i = c1, R_i2i = c2, R_ij1 = d₁, R_ij2 = d₂.
    let ra = ea1.mul(ac2).add(ea2.mul(ac1));
    let rb = eb1.mul(ad[2]).add(eb2.mul(ad[1]));
    let tl = t2.mul(c1).sub(t1.mul(c2));
    sep = L::or(sep, tl.abs().gt(ra.add(rb)));
    // Faces of A (lane i): |tᵢ| > eaᵢ + Σₖ ebₖ |Rᵢₖ|, k = i, i + 1, i + 2.
    let rb = eb.mul(ad[0]).add(eb1.mul(ad[1])).add(eb2.mul(ad[2]));
    sep = L::or(sep, t.abs().gt(ea.add(rb)));
    // j = i + 1, lane j (i = j + 2, i1 = j, i2 = j + 1): R_i1j = d₀, R_i2j = c1; B's
    // radius on lane i (R_ij1 = d₂, R_ij2 = d₀), then moved to lane j = i + 1.
    let ra = ea.mul(ac1).add(ea1.mul(ad[0]));
    let rb = eb2.mul(ad[0]).add(eb.mul(ad[2])).next2();
    let tl = t1.mul(d0).sub(t.mul(c1));
    sep = L::or(sep, tl.abs().gt(ra.add(rb)));
    // j = i + 2, lane j (i = j + 1, i1 = j + 2, i2 = j): R_i1j = c2, R_i2j = d₀; B's
    // radius on lane i (R_ij1 = d₀, R_ij2 = d₁), then moved to lane j = i + 2.
    let ra = ea2.mul(ad[0]).add(ea.mul(ac2));
    let rb = eb.mul(ad[1]).add(eb1.mul(ad[0])).next1();
    let tl = t.mul(c2).sub(t2.mul(d0));
    sep = L::or(sep, tl.abs().gt(ra.add(rb)));
    !L::any(sep)
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

    use crate::test_util::unit_quaternion;

    /// Random `R`, `t`, half-extents; a third of the rotations snapped to an axis-aligned or
    /// edge-parallel one (the `|R| + ε` cases), `t` spread around the touching distance.
    fn case(r: &mut ChaCha8Rng) -> (Matrix, Vector, Vector, Vector) {
        let mut q = unit_quaternion(r);
        if r.gen_range(0..3) == 0 {
            let axis = nalgebra::Unit::new_normalize(vector(r, -1.0, 1.0));
            q = Rotation::from_axis_angle(&Vector::z_axis(), std::f32::consts::FRAC_PI_2)
                * Rotation::from_axis_angle(&axis, r.gen_range(-1e-6..1e-6));
        }
        let (ea, eb) = (vector(r, 0.1, 2.0), vector(r, 0.1, 2.0));
        let dir = vector(r, -1.0, 1.0).normalize();
        let t = dir * (ea.norm() + eb.norm()) * r.gen_range(0.3..1.1);
        (q.to_rotation_matrix().into_inner(), t, ea, eb)
    }

    /// The branch-free boolean (either backend) says "overlap" exactly when the report API
    /// finds no separating axis, bit for bit, including the near-parallel cases.
    #[test]
    fn overlap_is_first_separating_axis_none() {
        let mut r = ChaCha8Rng::seed_from_u64(7);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let (m, t, ea, eb) = case(&mut r);
            let want = first_separating_axis(&m, &t, &ea, &eb).is_none();
            seen[want as usize] += 1;
            assert_eq!(overlap(&m, &t, &ea, &eb), want, "case {k}");
            assert_eq!(
                overlap_matrix_with::<Scalar>(&m, &t, &ea, &eb),
                want,
                "case {k} (scalar)"
            );
        }
        assert!(seen[0] > 20_000 && seen[1] > 20_000, "{seen:?}");
    }

    /// Each of the 15 axes, alone: pairs that exactly one candidate separates (by the scalar
    /// lines of [`first_separating_axis`]) are found for every candidate, and the lane kernel
    /// calls all of them apart on both backends. A wrong lane or permutation in one axis
    /// family shows here as that family's axes failing, not as a rare mismatch in the mix.
    #[test]
    fn every_axis_alone_separates_on_both_backends() {
        let mut r = ChaCha8Rng::seed_from_u64(9);
        let mut alone = [0usize; AXIS_COUNT as usize];
        for k in 0..400_000 {
            let (m, t, ea, eb) = case(&mut r);
            let (rows, t3) = (rows(&m), [t.x, t.y, t.z]);
            let (ar, ea3, eb3) = (abs_eps(&rows), [ea.x, ea.y, ea.z], [eb.x, eb.y, eb.z]);
            let mut seps = (0..AXIS_COUNT).filter(|&a| separates(a, &rows, &ar, &t3, &ea3, &eb3));
            let (Some(axis), None) = (seps.next(), seps.next()) else {
                continue;
            };
            alone[axis as usize] += 1;
            assert!(!overlap(&m, &t, &ea, &eb), "case {k}: axis {axis} alone");
            assert!(
                !overlap_matrix_with::<Scalar>(&m, &t, &ea, &eb),
                "case {k}: axis {axis} alone (scalar)"
            );
        }
        assert!(alone.iter().all(|&n| n >= 50), "{alone:?}");
    }

    /// The pose path gives the same bits on the SIMD and scalar backends, and agrees with
    /// the report API on nalgebra's relative pose except within rounding of touching.
    #[test]
    fn overlap_poses_backends_agree_and_match_report() {
        let mut r = ChaCha8Rng::seed_from_u64(8);
        let mut seen = [0usize; 2];
        for k in 0..200_000 {
            let (qa, qb) = (unit_quaternion(&mut r), unit_quaternion(&mut r));
            let (ea, eb) = (vector(&mut r, 0.1, 2.0), vector(&mut r, 0.1, 2.0));
            let ta = vector(&mut r, -50.0, 50.0);
            let dir = vector(&mut r, -1.0, 1.0).normalize();
            let tb = ta + dir * (ea.norm() + eb.norm()) * r.gen_range(0.3..1.1);
            let pa = Isometry::from_parts(Translation::from(ta), qa);
            let pb = Isometry::from_parts(Translation::from(tb), qb);
            let fast = overlap_poses(&pa, &ea, &pb, &eb);
            assert_eq!(
                fast,
                overlap_poses_with::<Scalar>(&pa, &ea, &pb, &eb),
                "case {k}: SIMD vs scalar"
            );
            let rel = pa.inv_mul(&pb);
            let m = rel.rotation.to_rotation_matrix().into_inner();
            let t = rel.translation.vector;
            let reference = first_separating_axis(&m, &t, &ea, &eb).is_none();
            if fast != reference {
                // Only a pair within rounding of touching may flip: shrinking or growing B
                // by 1e-4 (relative) must make the report API agree with both answers.
                let (lo, hi) = (eb * (1.0 - 1e-4), eb * (1.0 + 1e-4));
                assert!(
                    first_separating_axis(&m, &t, &ea, &lo).is_some()
                        && first_separating_axis(&m, &t, &ea, &hi).is_none(),
                    "case {k}: pose path {fast} vs report API {reference}, not a touching pair"
                );
            }
            seen[fast as usize] += 1;
        }
        assert!(seen[0] > 20_000 && seen[1] > 20_000, "{seen:?}");
    }

    /// A NaN in `t` makes the comparisons it enters false on both backends (as in the report
    /// API); the other axes still decide (here face 2 of A separates).
    #[test]
    fn nan_reads_alike_on_both_backends() {
        let (m, t, e) = (
            Matrix::identity(),
            Vector::new(Real::NAN, 5.0, 0.0),
            Vector::repeat(1.0),
        );
        assert!(!overlap(&m, &t, &e, &e));
        assert_eq!(
            overlap(&m, &t, &e, &e),
            overlap_matrix_with::<Scalar>(&m, &t, &e, &e)
        );
        assert_eq!(
            overlap(&m, &t, &e, &e),
            first_separating_axis(&m, &t, &e, &e).is_none()
        );
    }

    #[test]
    fn index_round_trip() {
        for k in 0..AXIS_COUNT {
            assert_eq!(index_of_axis(axis_of_index(k)), Some(k));
        }
        assert_eq!(axis_of_index(7), SeparatingAxis::EdgeEdge(0, 1));
    }
}
