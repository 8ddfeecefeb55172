//! Cuboid against cuboid: the 15-axis SAT ([`crate::sat::cuboid_cuboid`]) for the boolean test, and a real
//! contact manifold for the contact query.
//!
//! Contact (Ericson RTCD §5.2.1 for the axes, the reference/incident face scheme of Box2D's
//! `b2CollidePolygons` and Gregorius' "Robust contact creation for physics simulations",
//! GDC 2013, lifted to 3D):
//! 1. on the same 15 axes, find the one of **largest separation** (least penetration), with
//!    edge × edge axes normalised and skipped only when the edges are parallel to within the
//!    rounding of `R` ([`SINE_FLOOR`]; nearly parallel ones take their radii explicitly,
//!    [`IDENTITY_SINE`]); face axes win ties within a small scale-aware tolerance (they give
//!    stabler manifolds);
//! 2. face axis: the box owning it gives the *reference face* (the face whose normal is that
//!    axis, turned towards the other box), the other box's face most anti-parallel to it is
//!    the *incident face*; the incident quad is clipped (Sutherland–Hodgman) by the four side
//!    planes of the reference face; clipped points below the reference face (or within
//!    `prediction` above it) are kept, at most four ([`reduce_to_four`]);
//! 3. edge × edge axis: one point, midway between the closest points of the two edges; when
//!    the edges do not cross seen along the axis, the axis is dropped and the next best one
//!    taken if it separates the boxes as little, within the tolerance (see `edge_contact`);
//!    otherwise the points are clamped to the edges. An edge axis within 0.1 rad of the best
//!    face axis ([`FACE_COS`]) belongs to two nearly aligned boxes touching face to face: the
//!    contact keeps its normal and depth, with the points of step 2 (Jolt and Gregorius
//!    likewise take a manifold's points from the faces that support the axis).
//!
//! Depth is the separation on that axis, negated: for two boxes the minimal translation is
//! always along one of the 15 axes (they hold all face normals of the Minkowski difference).

use crate::contact::clipping::{reduce_to_four, ClipPolygon, MAX_CLIP_VERTICES};
use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Matrix, Point, Real, Vector};
use crate::sat::cuboid_cuboid::overlap_poses;
use crate::simd::{vector, Fast, Lanes};

/// Edge pairs whose cross product is shorter than this (sine of their angle) are skipped by
/// the contact query. The entries of `R` are accurate to a few `f32::EPSILON` (≈ 10⁻⁶ at
/// worst: two rotation matrices, each a few ulps from orthonormal, multiplied), so below this
/// floor the axis's direction is rounding noise. Nothing is lost by skipping: an axis `θ`
/// from parallel lies within about `θ` of the plane ⟂ the edges, where the face axes already
/// bound the separation, so it can beat the best face axis by only about
/// `θ · (Σ half-extents)`, less than the face preference `tol` (≥ `10⁻⁵ ×` the larger box's
/// longest half-extent) for `θ` below this floor and boxes of any size.
pub(super) const SINE_FLOOR: Real = 1e-6;

/// Edge axes at least this long (sine of the edges' angle) take B's projection radius from
/// the identities `|L · bⱼ₊₁| = |Rᵢⱼ₊₂|`, `|L · bⱼ₊₂| = |Rᵢⱼ₊₁|`, which hold for an orthonormal
/// `R` only: with `R` off by `δ` (a few `f32::EPSILON`) they are off by `δ`, and the
/// separation, divided by the axis length, by `δ (bⱼ₊₁ + bⱼ₊₂) / sin θ` — below `tol / 10` for
/// `sin θ ≥ 0.1`. Shorter axes take the radius explicitly, `Σₖ bₖ |L · R̃ₖ|` with the computed
/// columns `R̃ₖ`, which is exact for the box `R̃` describes (itself within `δ Σb` metres of the
/// true box): no `1 / sin θ` amplification, so those axes are accurate down to [`SINE_FLOOR`].
const IDENTITY_SINE: Real = 0.1;
/// True when box A (half-extents `ea`, pose `pose_a`) and box B overlap or touch.
#[inline]
pub fn intersection_cuboid_cuboid(
    pose_a: &Isometry,
    ea: &Vector,
    pose_b: &Isometry,
    eb: &Vector,
) -> bool {
    overlap_poses(pose_a, ea, pose_b, eb)
}

/// The best face axis found by the contact query's SAT: face axis `i` of box A
/// (`of_b = false`) or of box B.
#[derive(Clone, Copy, Debug)]
struct Face {
    of_b: bool,
    i: usize,
}

/// The contact manifold of box A against box B when their separation is at most `prediction`
/// metres (see the module docs and [`crate::contact`] for conventions). Up to four points;
/// ids are stable while the same features touch.
pub fn contact_cuboid_cuboid(
    pose_a: &Isometry,
    ea: &Vector,
    pose_b: &Isometry,
    eb: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let a = BoxFrame::of(pose_a);
    let b = BoxFrame::of(pose_b);
    contact_cuboid_cuboid_frames(&a, ea, &b, eb, prediction)
}

/// A box's pose as a rotation matrix (columns: the box's axes, world frame) and its centre
/// (world, metres): the form the cuboid–cuboid contact works in. Callers that test one box against
/// several others build it once ([`BoxFrame::of`]) rather than once per pair.
///
/// Stored as the three rows of the rotation, each padded with one coordinate of the centre
/// (48 bytes, one or two cache lines): the layout in which the relative rotation of two boxes
/// is a few whole-row operations (see [`contact_cuboid_cuboid_frames`]; the lanes ignore the
/// padding), and which holds the rotation once. The default is all zeros.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoxFrame {
    /// Row k: `[rot[(k, 0)], rot[(k, 1)], rot[(k, 2)], centre[k]]`.
    rows: [[Real; 4]; 3],
}

impl BoxFrame {
    /// The frame of a box at `pose`.
    #[inline]
    pub fn of(pose: &Isometry) -> Self {
        let rot = pose.rotation.to_rotation_matrix().into_inner();
        let c = pose.translation.vector;
        Self {
            rows: [0, 1, 2].map(|k| [rot[(k, 0)], rot[(k, 1)], rot[(k, 2)], c[k]]),
        }
    }

    /// Rotation from the box's frame to the world frame.
    #[inline(always)]
    pub fn rot(&self) -> Matrix {
        let [r0, r1, r2] = &self.rows;
        Matrix::new(
            r0[0], r0[1], r0[2], r1[0], r1[1], r1[2], r2[0], r2[1], r2[2],
        )
    }

    /// The box's axis `i` (column `i` of its rotation), world frame.
    #[inline(always)]
    fn axis(&self, i: usize) -> Vector {
        let [r0, r1, r2] = &self.rows;
        Vector::new(r0[i], r1[i], r2[i])
    }

    /// Centre of the box, world frame, metres.
    #[inline(always)]
    pub fn centre(&self) -> Vector {
        Vector::new(self.rows[0][3], self.rows[1][3], self.rows[2][3])
    }
}

/// `x + y`, lane-wise.
#[inline(always)]
pub(super) fn plus(x: [Real; 4], y: [Real; 4]) -> [Real; 4] {
    [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]]
}

/// `x − y`, lane-wise.
#[inline(always)]
pub(super) fn minus(x: [Real; 4], y: [Real; 4]) -> [Real; 4] {
    [x[0] - y[0], x[1] - y[1], x[2] - y[2], x[3] - y[3]]
}

/// What the 15-axis search of the contact finds (A's frame): the best face axis and its
/// separation (faces of A preferred within [`face_tolerance`]), the separation of every edge
/// axis `eᵢ × bⱼ` at `3i + j` (−∞ where the edges are parallel to within [`SINE_FLOOR`]) and
/// the best of them, and `R`, `t` for the contact builders.
struct Axes {
    /// `R = Raᵀ Rb`: B's rotation in A's frame.
    r: Matrix,
    /// B's centre in A's frame, metres.
    t: Vector,
    face: Face,
    face_sep: Real,
    edge_seps: [Real; 9],
    edge: usize,
    edge_sep: Real,
}

/// The size of a pair of boxes that its tolerances scale with: the sum of their largest
/// half-extents, metres.
#[inline(always)]
fn pair_scale(ea: &Vector, eb: &Vector) -> Real {
    ea.max() + eb.max()
}

/// How much better than a face axis of A a face axis of B, or an edge axis than the best face
/// axis, must separate two shapes of size `scale` ([`pair_scale`]) to be taken (metres): face
/// axes give stabler manifolds.
#[inline(always)]
pub(super) fn face_tolerance(scale: Real) -> Real {
    1e-5 * scale
}

/// The cosine of the largest angle between an edge × edge axis and the best face axis for
/// which two boxes count as touching face to face: `cos(0.1 rad)`. Such an edge axis comes
/// from an edge of one box crossing a nearly perpendicular edge of the other, and lies within
/// the boxes' relative turn of the face axis; it may separate them by less (boxes resting in
/// a pyramid, turned by a few tenths of a milliradian: 10–70 µm less; boxes sunk 1–2 cm into
/// each other in a loaded pile and turned by a few degrees: several millimetres less). Its one
/// point is not where such boxes touch: the contact keeps the edge axis's normal and depth
/// (the minimal translation) and takes its points from the faces ([`face_supported`]), as
/// Jolt builds every manifold from the two supporting faces. A one-point edge manifold there,
/// switching with the face manifold from step to step, lets a pyramid creep and a box wedged
/// in a settled pile rock and pop out at 1 m/s. Within 0.1 rad the face's points, measured
/// along the edge axis, stay within 0.5 % of their depth along the face normal; boxes that
/// cross at larger angles keep their one-point edge contact.
pub(super) const FACE_COS: Real = 0.995;

/// Whether an edge contact with unit normal `edge_normal` lies within 0.1 rad ([`FACE_COS`])
/// of the face axis `face_axis` (unit, either sign): the boxes touch face to face.
#[inline(always)]
pub(super) fn nearly_face(edge_normal: &Vector, face_axis: &Vector) -> bool {
    edge_normal.dot(face_axis).abs() >= FACE_COS
}

/// The first index of the largest of `seps` (strictly larger than the ones before it, and than
/// −∞; NaN never wins), and that value.
#[inline(always)]
pub(super) fn first_max(seps: &[Real]) -> (usize, Real) {
    let (mut best, mut at) = (Real::NEG_INFINITY, 0);
    for (k, &s) in seps.iter().enumerate() {
        if s > best {
            (best, at) = (s, k);
        }
    }
    (at, best)
}

/// Step 1 of the contact (see the module docs): the separations of the boxes on all 15 axes,
/// or `None` when one of them exceeds `prediction` (which one does not matter).
///
/// Lanes ([`Lanes`], SSE on x86_64): `R` is built a column at a time,
/// `R[·][j] = Σₖ Rb[k][j] · (row k of Ra)` (lane i: `R[i][j] = aᵢ · bⱼ`), with the bits of
/// nalgebra's `tr_mul` (same products, summed in the order k = 0, 1, 2); then the three face
/// axes of A are one lane-wise expression (lane i), the three of B another (lane j, on rows of
/// `R`), and the three edge axes `eᵢ × bⱼ` of one `j` a third (lane i). Only the choice of the
/// best axes and the rare nearly parallel edge axes leave the lanes.
#[inline(always)]
fn best_axes<L: Lanes>(
    fa: &BoxFrame,
    ea: &Vector,
    fb: &BoxFrame,
    eb: &Vector,
    prediction: Real,
) -> Option<Axes> {
    // A row of the rotation in one load; lane 3 (a coordinate of the centre) is never read.
    let load = |r: &[Real; 4]| L::new_w(r[0], r[1], r[2], r[3]);
    let (rows_a, rows_b) = (fa.rows.each_ref().map(load), fb.rows.each_ref().map(load));
    // Σₖ s[k] · rows[k], summed in the order k = 0, 1, 2.
    let combine = |rows: &[L; 3], s: [L; 3]| {
        rows[0]
            .mul(s[0])
            .add(rows[1].mul(s[1]))
            .add(rows[2].mul(s[2]))
    };
    // A box's radius on lane-wise face axes: `e + Σₖ |R|[k] · other[k]`, summed in the order
    // k = 0, 1, 2 after `e`.
    let radius = |e: L, abs: &[L; 3], other: [L; 3]| {
        e.add(abs[0].mul(other[0]))
            .add(abs[1].mul(other[1]))
            .add(abs[2].mul(other[2]))
    };
    let (a, b) = (vector::<L>(ea), vector::<L>(eb));
    let limit = L::splat(prediction);
    let d = fb.centre() - fa.centre();
    // t = Raᵀ (cb − ca), lane i.
    let t = combine(&rows_a, [L::splat(d.x), L::splat(d.y), L::splat(d.z)]);
    let splats_b = rows_b.map(L::splats);
    let cols = [0, 1, 2].map(|j| combine(&rows_a, [0, 1, 2].map(|k| splats_b[k][j])));
    let abs_cols = cols.map(L::abs);

    // Faces of A, lane i: |tᵢ| − (aᵢ + Σₖ bₖ |R[i][k]|), summed in the order k = 0, 1, 2.
    let bs = b.splats();
    let rad_a = radius(a, &abs_cols, bs);
    let sep_a = t.abs().sub(rad_a);
    if L::any(sep_a.gt(limit)) {
        return None;
    }
    // Faces of B, lane j: |Σₖ tₖ R[k][j]| − (bⱼ + Σₖ aₖ |R[k][j]|), summed in the order
    // k = 0, 1, 2, on the rows of R.
    let row = |m: &[L; 3], k: usize| {
        let f = |v: L| [v, v.next1(), v.next2()][k];
        L::firsts(f(m[0]), f(m[1]), f(m[2]))
    };
    let rows_r = [0, 1, 2].map(|i| row(&cols, i));
    let abs_rows = rows_r.map(L::abs);
    let tb = combine(&rows_r, t.splats());
    let rad_b = radius(b, &abs_rows, a.splats());
    let sep_b = tb.abs().sub(rad_b);
    if L::any(sep_b.gt(limit)) {
        return None;
    }
    // Edge i of A × edge j of B, lane i (i1, i2 = i + 1, i + 2 mod 3; likewise j1, j2): with
    // L = eᵢ × bⱼ (A's frame: L[i1] = −R[i2][j], L[i2] = R[i1][j]), |L|² = R[i1][j]² +
    // R[i2][j]², A's radius aᵢ₁ |R[i2][j]| + aᵢ₂ |R[i1][j]|, B's radius bⱼ₁ |R[i][j2]| +
    // bⱼ₂ |R[i][j1]| and t · L = tᵢ₂ R[i1][j] − tᵢ₁ R[i2][j]; the separation is
    // (|t · L| − A's − B's) / |L|.
    let mut by_j = [L::splat(0.0); 3];
    let mut apart = sep_a.gt(limit);
    for j in 0..3 {
        let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
        let (c, ac) = (cols[j], abs_cols[j]);
        let (c1, c2) = (c.next1(), c.next2());
        let len2 = c1.mul(c1).add(c2.mul(c2));
        let ra = a.next1().mul(ac.next2()).add(a.next2().mul(ac.next1()));
        let rb = abs_cols[j2].mul(bs[j1]).add(abs_cols[j1].mul(bs[j2]));
        let tl = t.next2().mul(c1).sub(t.next1().mul(c2));
        by_j[j] = tl.abs().sub(ra).sub(rb).div(len2.sqrt());
        if L::any(L::splat(IDENTITY_SINE * IDENTITY_SINE).gt(len2)) {
            // Rare: nearly parallel edges (see `IDENTITY_SINE` and `SINE_FLOOR`).
            by_j[j] = nearly_parallel_edges(&cols, &b, len2, tl, ra, by_j[j], j);
        }
        apart = L::or(apart, by_j[j].gt(limit));
    }
    if L::any(apart) {
        return None;
    }
    let by_j = by_j.map(L::to_array);
    let edge_seps: [Real; 9] = std::array::from_fn(|k| by_j[k % 3][k / 3]);

    let tol = face_tolerance(pair_scale(ea, eb));
    let (i, mut face_sep) = first_max(&sep_a.to_array());
    let mut face = Face { of_b: false, i };
    let (j, best_b) = first_max(&sep_b.to_array());
    if best_b > face_sep + tol {
        (face, face_sep) = (Face { of_b: true, i: j }, best_b);
    }
    let (edge, edge_sep) = first_max(&edge_seps);
    let [r0, r1, r2] = rows_r.map(L::to_array);
    let t = t.to_array();
    Some(Axes {
        r: Matrix::new(
            r0[0], r0[1], r0[2], r1[0], r1[1], r1[2], r2[0], r2[1], r2[2],
        ),
        t: Vector::new(t[0], t[1], t[2]),
        face,
        face_sep,
        edge_seps,
        edge,
        edge_sep,
    })
}

/// The edge axes `eᵢ × bⱼ` of one `j` (lane i) where some are nearly parallel: the lanes of
/// `seps` (the separations as computed with the identities) are redone with B's radius taken
/// explicitly where `|L|² = len2` is below `IDENTITY_SINE²`, and set to −∞ (skipped) where it
/// is below `SINE_FLOOR²`. `tl`, `ra`: `t · L` and A's radius, lane i.
#[cold]
#[inline(never)]
fn nearly_parallel_edges<L: Lanes>(
    cols: &[L; 3],
    b: &L,
    len2: L,
    tl: L,
    ra: L,
    seps: L,
    j: usize,
) -> L {
    let (cols, b) = (cols.map(L::to_array), b.to_array());
    let (len2, tl, ra, mut seps) = (
        len2.to_array(),
        tl.to_array(),
        ra.to_array(),
        seps.to_array(),
    );
    for i in 0..3 {
        if len2[i] < SINE_FLOOR * SINE_FLOOR {
            seps[i] = Real::NEG_INFINITY;
        } else if len2[i] < IDENTITY_SINE * IDENTITY_SINE {
            let rb = edge_radius_b(&cols, &b, i, j);
            seps[i] = (tl[i].abs() - ra[i] - rb) / len2[i].sqrt();
        }
    }
    L::new(seps[0], seps[1], seps[2])
}

/// B's projection radius on the edge axis `eᵢ × bⱼ` taken explicitly, for axes shorter than
/// [`IDENTITY_SINE`]: `Σ bₖ |L · R̃ₖ|` over k = j1, j2, with `L = eᵢ × R̃ⱼ` (`L · R̃ⱼ` is 0).
/// `cols[k][m]` is `R[m][k]`; `b` B's half-extents.
fn edge_radius_b(cols: &[[Real; 3]; 3], b: &[Real; 3], i: usize, j: usize) -> Real {
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
    // L[i1] = −R[i2][j], L[i2] = R[i1][j].
    let dot = |k: usize| cols[j][i1] * cols[k][i2] - cols[j][i2] * cols[k][i1];
    b[j1] * dot(j1).abs() + b[j2] * dot(j2).abs()
}

/// [`contact_cuboid_cuboid`] for boxes given by their [`BoxFrame`]s: the same manifold (it is
/// what that function runs).
pub fn contact_cuboid_cuboid_frames(
    fa: &BoxFrame,
    ea: &Vector,
    fb: &BoxFrame,
    eb: &Vector,
    prediction: Real,
) -> Option<Manifold> {
    let Axes {
        r,
        t,
        face,
        face_sep,
        mut edge_seps,
        mut edge,
        mut edge_sep,
    } = best_axes::<Fast>(fa, ea, fb, eb, prediction)?;
    let tol = face_tolerance(pair_scale(ea, eb));
    // 2. The contact on the best axis. An edge axis whose edges do not cross (seen along
    //    it) is not where the boxes touch: in exact arithmetic another axis then separates
    //    them as little (see `edge_contact`), so the next best axis is tried.
    loop {
        if edge_sep > face_sep + tol {
            let (i, j) = (edge / 3, edge % 3);
            let dropped_edge = edge;
            if let Some(m) = edge_contact(&r, &t, ea, eb, i, j, edge_sep, tol, fa) {
                let axis = if face.of_b { fb } else { fa }.axis(face.i);
                if !nearly_face(&m.normal, &axis) {
                    return Some(m);
                }
                let faces = best_face_contact(&r, &t, ea, eb, face, face_sep, prediction, fa, fb);
                return Some(faces.and_then(|f| face_supported(&m, &f)).unwrap_or(m));
            }
            let dropped = edge_sep;
            edge_seps[edge] = Real::NEG_INFINITY;
            edge_sep = Real::NEG_INFINITY;
            for (k, &s) in edge_seps.iter().enumerate() {
                if s > edge_sep {
                    edge_sep = s;
                    edge = k;
                }
            }
            if edge_sep.max(face_sep) < dropped - tol {
                // For penetrating boxes, in exact arithmetic the next best axis separates
                // them exactly as little; one worse by more than the tolerance means either
                // that rounding misled the crossing test (nearly parallel edges, whose
                // lines' closest points are ill-conditioned; fuzz: depth 2.5 mm for 0.03 mm
                // on 6 m boxes) or that the boxes are apart (within `prediction`), where no
                // such tie holds. Keep the dropped axis, its points clamped to the edges.
                let (i, j) = (dropped_edge / 3, dropped_edge % 3);
                return edge_contact(&r, &t, ea, eb, i, j, dropped, Real::INFINITY, fa);
            }
            continue;
        }
        return best_face_contact(&r, &t, ea, eb, face, face_sep, prediction, fa, fb);
    }
}

/// The contact on the best face axis `face` (separation `face_sep`): [`face_contact`] with the
/// box owning it as the reference box.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn best_face_contact(
    r: &Matrix,
    t: &Vector,
    ea: &Vector,
    eb: &Vector,
    face: Face,
    face_sep: Real,
    prediction: Real,
    fa: &BoxFrame,
    fb: &BoxFrame,
) -> Option<Manifold> {
    match face {
        Face { of_b: false, i } => face_contact(r, t, ea, eb, i, face_sep, prediction, false, fa),
        Face { of_b: true, i } => {
            // Work in B's frame, with B as the reference box.
            let rt = r.transpose();
            let tb = -(rt * t);
            face_contact(&rt, &tb, eb, ea, i, face_sep, prediction, true, fb)
        }
    }
}

/// The contact of two boxes touching face to face on an edge axis ([`FACE_COS`]): the edge
/// contact `edge`'s normal and depth (the minimal translation), and the points of the face
/// contact `faces` (their feature ids, which stay the same while the faces touch), none deeper
/// than that depth. `None` when the two normals are more than 0.1 rad apart ([`FACE_COS`]):
/// boxes that are not nearly aligned.
pub(super) fn face_supported(edge: &Manifold, faces: &Manifold) -> Option<Manifold> {
    if edge.normal.dot(&faces.normal) < FACE_COS {
        return None;
    }
    let mut m = faces.map_points(edge.normal, |p| ContactPoint {
        depth: p.depth.min(edge.depth()),
        ..*p
    });
    m.set_depth(edge.depth());
    Some(m)
}

/// Reference face `i` of the reference box against the incident box. `r`, `t`: incident
/// box's rotation and centre in the reference box's frame; `e_ref`, `e_inc` half-extents.
/// `face_sep`: the separation on this axis (negative when penetrating).
/// `flipped`: the reference box is B (the normal is then negated to point from A to B).
#[allow(clippy::too_many_arguments)]
fn face_contact(
    r: &Matrix,
    t: &Vector,
    e_ref: &Vector,
    e_inc: &Vector,
    i: usize,
    face_sep: Real,
    prediction: Real,
    flipped: bool,
    frame_ref: &BoxFrame,
) -> Option<Manifold> {
    let s = if t[i] < 0.0 { -1.0 } else { 1.0 };
    // Reference normal in the incident box's frame: s × row i of r.
    let mut k = 0;
    let mut best = -1.0;
    for c in 0..3 {
        let v = r[(i, c)].abs();
        if v > best {
            best = v;
            k = c;
        }
    }
    let sk = if r[(i, k)] * s > 0.0 { -1.0 } else { 1.0 };
    let (k1, k2) = ((k + 1) % 3, (k + 2) % 3);
    // The incident face, in *face coordinates*: a point p of the reference box's frame is
    // `[p[i1], p[i2], p[i], 0]`, so the side planes test lanes 0 and 1 and the depth is lane 2
    // (every coordinate gets the same operations as in the reference frame, only placed
    // differently).
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let face = |p: Vector| to_face(i, &p);
    let fc = face(t + r.column(k) * (sk * e_inc[k]));
    let u = face(r.column(k1) * e_inc[k1]);
    let v = face(r.column(k2) * e_inc[k2]);
    let poly = ClipPolygon::quad([
        plus(plus(fc, u), v),
        plus(minus(fc, u), v),
        minus(minus(fc, u), v),
        minus(plus(fc, u), v),
    ]);
    let (h1, h2) = (e_ref[i1], e_ref[i2]);
    // Sutherland–Hodgman against the four side planes, ping-ponging between two buffers; a
    // plane that has the whole polygon inside leaves it as it is.
    let mut bufs = [poly, ClipPolygon::default()];
    let cur = clip_to_rectangle(&mut bufs, h1, h2);

    // Kept: the points below the reference face or within `prediction` above it, moved half
    // their separation along the normal (`s` along axis i: face coordinates `[0, 0, s, 0]`,
    // each lane with the operations of `p − normal · (sep / 2)` in the reference frame),
    // compacted in place.
    let poly = &mut bufs[cur];
    let along = [0.0, 0.0, s, 0.0];
    let mut n = 0;
    for k in 0..poly.len() {
        let (p, id) = poly.get(k);
        let sep = s * p[2] - e_ref[i];
        let h = 0.5 * sep;
        let q = [0, 1, 2, 3].map(|c| p[c] - along[c] * h);
        poly.set(n, [q[0], q[1], q[2], -sep], id);
        n += (sep <= prediction) as usize;
    }
    if n == 0 {
        return None;
    }
    let face_ids = (flipped as u32) << 31
        | ((2 * i + (s > 0.0) as usize) as u32) << 24
        | ((2 * k + (sk > 0.0) as usize) as u32) << 16;
    let (m_ref, o_ref) = (frame_ref.rot(), frame_ref.centre());
    let mut normal = Vector::zeros();
    normal[i] = s;
    let world_normal = m_ref * normal;
    let mut m = Manifold::new(if flipped { -world_normal } else { world_normal });
    m.set_depth(-face_sep);
    let mut push = |p: &[Real; 4], id: u32| {
        m.push(ContactPoint {
            point: Point::from(m_ref * from_face(i, p) + o_ref),
            depth: p[3],
            id: face_ids | (id & 0xFFFF),
        });
    };
    if n <= 4 {
        for k in 0..n {
            let (p, id) = poly.get(k);
            push(&p, id);
        }
    } else {
        // More than four: keep four (in the reference frame, where `reduce_to_four` works).
        let mut pts = [Vector::zeros(); MAX_CLIP_VERTICES];
        let mut depths = [0.0; MAX_CLIP_VERTICES];
        for k in 0..n {
            let p = poly.get(k).0;
            (pts[k], depths[k]) = (from_face(i, &p), p[3]);
        }
        let (keep, len) = reduce_to_four(&pts[..n], &depths[..n], &normal);
        for &q in &keep[..len] {
            let (p, id) = poly.get(q);
            push(&p, id);
        }
    }
    Some(m)
}

/// Face coordinates of face axis `i` ([`face_contact`]): `[p[i1], p[i2], p[i], 0]`
/// (i1, i2 = i + 1, i + 2 mod 3).
#[inline(always)]
pub(super) fn to_face(i: usize, p: &Vector) -> [Real; 4] {
    match i {
        0 => [p.y, p.z, p.x, 0.0],
        1 => [p.z, p.x, p.y, 0.0],
        _ => [p.x, p.y, p.z, 0.0],
    }
}

/// The point of the reference box's frame at face coordinates `f` of face axis `i` (lane 3
/// ignored): the inverse of [`to_face`].
#[inline(always)]
pub(super) fn from_face(i: usize, f: &[Real; 4]) -> Vector {
    match i {
        0 => Vector::new(f[2], f[0], f[1]),
        1 => Vector::new(f[1], f[2], f[0]),
        _ => Vector::new(f[0], f[1], f[2]),
    }
}

/// Clips `bufs[0]` (face coordinates, [`to_face`]) by the four side planes `|lane 0| ≤ h1`,
/// `|lane 1| ≤ h2` of a box face (tags 0–3), ping-ponging between the two buffers; returns
/// the index of the buffer holding the result.
#[inline(always)]
pub(super) fn clip_to_rectangle(bufs: &mut [ClipPolygon; 2], h1: Real, h2: Real) -> usize {
    let mut cur = 0;
    clip_step(bufs, &mut cur, |p| p[0] - h1, 0);
    clip_step(bufs, &mut cur, |p| -p[0] - h1, 1);
    clip_step(bufs, &mut cur, |p| p[1] - h2, 2);
    clip_step(bufs, &mut cur, |p| -p[1] - h2, 3);
    cur
}

/// One Sutherland–Hodgman step of [`face_contact`]: clips `bufs[*cur]` by the plane `dist ≤ 0`
/// (tag `tag`) into the other buffer and makes that one current, unless the whole polygon is
/// inside the plane.
#[inline(always)]
pub(super) fn clip_step(
    bufs: &mut [ClipPolygon; 2],
    cur: &mut usize,
    dist: impl Fn(&[Real; 4]) -> Real,
    tag: u32,
) {
    if bufs[*cur].inside(&dist) {
        return;
    }
    let [b0, b1] = bufs;
    let (from, to) = if *cur == 0 { (b0, b1) } else { (b1, b0) };
    from.clip_into(dist, tag, to);
    *cur = 1 - *cur;
}

/// Edge `i` of A × edge `j` of B, separation `sep` along that axis (A's frame): one point,
/// midway between the closest points of the two edges. `None` when the edges do not cross
/// seen along the axis: the closest points of their lines lie beyond an end of an edge by
/// more than `slack` metres. The axis is then not a face of the boxes' Minkowski difference
/// (Gregorius, GDC 2013: the edges' arcs on the Gauss map do not cross there), so in exact
/// arithmetic another of the 15 axes separates the boxes as little, and the caller tries the
/// next best; clamping to the ends instead would put the point beside the boxes.
#[allow(clippy::too_many_arguments)]
fn edge_contact(
    r: &Matrix,
    t: &Vector,
    ea: &Vector,
    eb: &Vector,
    i: usize,
    j: usize,
    sep: Real,
    slack: Real,
    frame_a: &BoxFrame,
) -> Option<Manifold> {
    let db: Vector = r.column(j).into();
    let mut l = Vector::ith(i, 1.0).cross(&db).normalize();
    if l.dot(t) < 0.0 {
        l = -l;
    }
    // A's edge: the support of A along l, with coordinate i free.
    let mut pa = Vector::zeros();
    let mut bits = 0u32;
    for c in 0..3 {
        if c != i {
            let sgn = if l[c] < 0.0 { -1.0 } else { 1.0 };
            pa[c] = sgn * ea[c];
            bits |= ((sgn > 0.0) as u32) << c;
        }
    }
    // B's edge: the support of B along −l, with B's coordinate j free.
    let lb = r.tr_mul(&l);
    let mut pb = *t;
    for c in 0..3 {
        if c != j {
            let sgn = if lb[c] > 0.0 { -1.0 } else { 1.0 };
            pb += r.column(c) * (sgn * eb[c]);
            bits |= ((sgn > 0.0) as u32) << (4 + c);
        }
    }
    let da = Vector::ith(i, 1.0);
    let (ca, cb) = closest_on_crossing_segments(&pa, &da, ea[i], &pb, &db, eb[j], slack)?;
    let rot_a = frame_a.rot();
    let mut m = Manifold::new(rot_a * l);
    m.push(ContactPoint {
        point: Point::from(rot_a * ((ca + cb) * 0.5) + frame_a.centre()),
        depth: -sep,
        id: 1 << 30 | ((3 * i + j) as u32) << 8 | bits,
    });
    Some(m)
}

/// Closest points of segments `pa + s·da` (|s| ≤ ha) and `pb + u·db` (|u| ≤ hb), `da`, `db`
/// unit and not parallel (Ericson §5.1.9, centred form, with clamping of each parameter);
/// `None` when the closest points of the two lines lie beyond an end by more than `slack`.
pub(super) fn closest_on_crossing_segments(
    pa: &Vector,
    da: &Vector,
    ha: Real,
    pb: &Vector,
    db: &Vector,
    hb: Real,
    slack: Real,
) -> Option<(Vector, Vector)> {
    let w = pa - pb;
    let b = da.dot(db);
    let d = da.dot(&w);
    let e = db.dot(&w);
    let denom = 1.0 - b * b;
    let mut s = if denom > Real::EPSILON {
        let s_line = (b * e - d) / denom;
        if s_line.abs() > ha + slack || (e + s_line * b).abs() > hb + slack {
            return None;
        }
        s_line.clamp(-ha, ha)
    } else {
        0.0
    };
    let u = (e + s * b).clamp(-hb, hb);
    s = (u * b - d).clamp(-ha, ha);
    Some((pa + da * s, pb + db * u))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Rotation, Translation};
    use crate::simd::Scalar;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use crate::test_util::unit_quaternion;

    /// The bits of everything [`best_axes`] finds (empty when it finds the boxes apart).
    fn axes_bits<L: Lanes>(
        fa: &BoxFrame,
        ea: &Vector,
        fb: &BoxFrame,
        eb: &Vector,
        pred: Real,
    ) -> Vec<u32> {
        let Some(x) = best_axes::<L>(fa, ea, fb, eb, pred) else {
            return Vec::new();
        };
        let mut v: Vec<u32> = x.r.iter().chain(x.t.iter()).map(|c| c.to_bits()).collect();
        v.extend(x.edge_seps.iter().map(|s| s.to_bits()));
        v.extend([x.face_sep.to_bits(), x.edge_sep.to_bits()]);
        v.extend([x.face.of_b as u32, x.face.i as u32, x.edge as u32]);
        v
    }

    #[test]
    fn axis_search_lanes_match_the_scalar_twin_bit_for_bit() {
        let mut r = ChaCha8Rng::seed_from_u64(5);
        let mut found = 0;
        for k in 0..100_000 {
            let s: Real = [1.0, 1e-3, 1e3][k % 3];
            let e = |r: &mut ChaCha8Rng| {
                Vector::new(
                    r.gen_range(0.05..1.0),
                    r.gen_range(0.05..1.0),
                    r.gen_range(0.05..1.0),
                ) * s
            };
            let (ea, eb) = (e(&mut r), e(&mut r));
            let c = Vector::new(
                r.gen_range(-1.5..1.5),
                r.gen_range(-1.5..1.5),
                r.gen_range(-1.5..1.5),
            ) * s;
            let qa = unit_quaternion(&mut r);
            // Every fourth pair nearly parallel: the explicit-radius edge axes.
            let qb = if k % 4 == 0 {
                qa * Rotation::from_scaled_axis(Vector::new(1e-3, -2e-3, 5e-4) * r.gen::<Real>())
            } else {
                unit_quaternion(&mut r)
            };
            let pa = Isometry::from_parts(Translation::identity(), qa);
            let pb = Isometry::from_parts(Translation::from(c), qb);
            let (fa, fb) = (BoxFrame::of(&pa), BoxFrame::of(&pb));
            let pred = [0.0, 0.05 * s][k % 2];
            let fast = axes_bits::<Fast>(&fa, &ea, &fb, &eb, pred);
            assert_eq!(
                fast,
                axes_bits::<Scalar>(&fa, &ea, &fb, &eb, pred),
                "case {k}"
            );
            found += !fast.is_empty() as usize;
        }
        assert!(found > 20_000, "{found} pairs within the prediction");
    }
}
