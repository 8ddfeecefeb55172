//! Box against box: the 15-axis SAT ([`crate::sat::box_box`]) for the boolean test, and a real
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
//!    otherwise the points are clamped to the edges.
//!
//! Depth is the separation on that axis, negated: for two boxes the minimal translation is
//! always along one of the 15 axes (they hold all face normals of the Minkowski difference).

use crate::contact::clipping::{reduce_to_four, ClipPolygon, ClipVertex};
use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Matrix, Point, Real, Vector};
use crate::sat::box_box::overlap_poses;

/// Edge pairs whose cross product is shorter than this (sine of their angle) are skipped by
/// the contact query. The entries of `R` are accurate to a few `f32::EPSILON` (≈ 10⁻⁶ at
/// worst: two rotation matrices, each a few ulps from orthonormal, multiplied), so below this
/// floor the axis's direction is rounding noise. Nothing is lost by skipping: an axis `θ`
/// from parallel lies within about `θ` of the plane ⟂ the edges, where the face axes already
/// bound the separation, so it can beat the best face axis by only about
/// `θ · (Σ half-extents)`, less than the face preference `tol` (≥ `10⁻⁵ ×` the larger box's
/// longest half-extent) for `θ` below this floor and boxes of any size.
const SINE_FLOOR: Real = 1e-6;

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
/// (world, metres): the form the box–box contact works in. Callers that test one box against
/// several others build it once ([`BoxFrame::of`]) rather than once per pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoxFrame {
    /// Rotation from the box's frame to the world frame.
    pub rot: Matrix,
    /// The rows of `rot`, each padded with a zero: the layout in which the relative rotation
    /// of two boxes is a few whole-row operations (see [`contact_cuboid_cuboid_frames`]).
    pub rows: [[Real; 4]; 3],
    /// Centre of the box, world frame.
    pub centre: Vector,
}

impl BoxFrame {
    /// The frame of a box at `pose`.
    #[inline]
    pub fn of(pose: &Isometry) -> Self {
        let rot = pose.rotation.to_rotation_matrix().into_inner();
        Self {
            rot,
            rows: [0, 1, 2].map(|k| [rot[(k, 0)], rot[(k, 1)], rot[(k, 2)], 0.0]),
            centre: pose.translation.vector,
        }
    }
}

/// `x · s`, lane-wise.
#[inline(always)]
fn scaled(x: &[Real; 4], s: Real) -> [Real; 4] {
    [x[0] * s, x[1] * s, x[2] * s, x[3] * s]
}

/// `x + y`, lane-wise.
#[inline(always)]
fn plus(x: [Real; 4], y: [Real; 4]) -> [Real; 4] {
    [x[0] + y[0], x[1] + y[1], x[2] + y[2], x[3] + y[3]]
}

/// `Σₖ s[k] · rows[k]`, summed in the order `k = 0, 1, 2`: the order of nalgebra's 3-vector
/// dot product, so that entry `j` has the bits of `(s₀ rows₀ⱼ + s₁ rows₁ⱼ) + s₂ rows₂ⱼ`.
#[inline(always)]
fn combine(rows: &[[Real; 4]; 3], s: [Real; 3]) -> [Real; 4] {
    plus(
        plus(scaled(&rows[0], s[0]), scaled(&rows[1], s[1])),
        scaled(&rows[2], s[2]),
    )
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
    // B's rotation and centre in A's frame: R = Raᵀ Rb, t = Raᵀ (cb − ca), a row at a time
    // (row i of R is Σₖ Ra[k][i] · row k of Rb; t is Σₖ dₖ · row k of Ra), with the bits of
    // nalgebra's `tr_mul` (same products, same order). Row i of R is built only when face
    // axis i of A is tested: about half of the pairs the broad phase finds in a pile of
    // boxes are apart beyond `prediction` on a face axis of A, and most of those leave
    // before all of R is built.
    let (rows_a, rows_b) = (&fa.rows, &fb.rows);
    let d = fb.centre - fa.centre;
    let t4 = combine(rows_a, [d.x, d.y, d.z]);
    let tt = [t4[0], t4[1], t4[2]];
    let (a, b) = ([ea.x, ea.y, ea.z], [eb.x, eb.y, eb.z]);
    // Plain arrays in the hot loops (rows of R and |R|).
    let mut rr = [[0.0; 3]; 3];
    let mut ar = [[0.0; 3]; 3];
    // The same rows, padded, for the faces of B.
    let mut rows_r = [[0.0; 4]; 3];
    let mut abs_rows = [[0.0; 4]; 3];

    // 1. Face axes of A, then of B, then edge × edge; stop on a gap beyond `prediction`.
    let mut face_sep = Real::NEG_INFINITY;
    let mut face = Face { of_b: false, i: 0 };
    for i in 0..3 {
        let row = combine(rows_b, [rows_a[0][i], rows_a[1][i], rows_a[2][i]]);
        rr[i] = [row[0], row[1], row[2]];
        ar[i] = rr[i].map(Real::abs);
        (rows_r[i], abs_rows[i]) = (row, row.map(Real::abs));
        let s = tt[i].abs() - (a[i] + b[0] * ar[i][0] + b[1] * ar[i][1] + b[2] * ar[i][2]);
        if s > prediction {
            return None;
        }
        if s > face_sep {
            face_sep = s;
            face = Face { of_b: false, i };
        }
    }
    let tol = 1e-5 * (ea.max() + eb.max());
    let mut best_b = Real::NEG_INFINITY;
    let mut face_b = 0;
    // The three at once, lane j: tⱼ = Σₖ tₖ R[k][j] and the radius bⱼ + Σₖ aₖ |R[k][j]|, each
    // summed in the order k = 0, 1, 2 (whole rows of R).
    let tb = combine(&rows_r, tt);
    let rad = plus(
        plus(
            plus([b[0], b[1], b[2], 0.0], scaled(&abs_rows[0], a[0])),
            scaled(&abs_rows[1], a[1]),
        ),
        scaled(&abs_rows[2], a[2]),
    );
    for j in 0..3 {
        let s = tb[j].abs() - rad[j];
        if s > prediction {
            return None;
        }
        if s > best_b {
            best_b = s;
            face_b = j;
        }
    }
    if best_b > face_sep + tol {
        face_sep = best_b;
        face = Face {
            of_b: true,
            i: face_b,
        };
    }
    // Separation on each edge × edge axis `3i + j` (−∞ where skipped), and the best one.
    let mut edge_seps = [Real::NEG_INFINITY; 9];
    let mut edge_sep = Real::NEG_INFINITY;
    let mut edge = 0;
    // Edge i of A × edge j of B, written out for the 9 pairs with constant indices
    // (i1, i2 = i + 1, i + 2 and j1, j2 = j + 1, j + 2, mod 3): loops with `% 3` indices cost
    // more than the tests themselves.
    macro_rules! edge_axis {
        ($i:literal $i1:literal $i2:literal, $j:literal $j1:literal $j2:literal) => {
            // |eᵢ × bⱼ|² = R[i1][j]² + R[i2][j]².
            let len2 = rr[$i1][$j] * rr[$i1][$j] + rr[$i2][$j] * rr[$i2][$j];
            if len2 >= SINE_FLOOR * SINE_FLOOR {
                let ra = a[$i1] * ar[$i2][$j] + a[$i2] * ar[$i1][$j];
                let rb = if len2 >= IDENTITY_SINE * IDENTITY_SINE {
                    b[$j1] * ar[$i][$j2] + b[$j2] * ar[$i][$j1]
                } else {
                    // L = eᵢ × R̃ⱼ has L[i1] = −R[i2][j], L[i2] = R[i1][j] (L · R̃ⱼ is 0).
                    let dot = |k: usize| rr[$i1][$j] * rr[$i2][k] - rr[$i2][$j] * rr[$i1][k];
                    b[$j1] * dot($j1).abs() + b[$j2] * dot($j2).abs()
                };
                let tl = tt[$i2] * rr[$i1][$j] - tt[$i1] * rr[$i2][$j];
                let s = (tl.abs() - ra - rb) / len2.sqrt();
                if s > prediction {
                    return None;
                }
                edge_seps[3 * $i + $j] = s;
                if s > edge_sep {
                    edge_sep = s;
                    edge = 3 * $i + $j;
                }
            }
        };
    }
    edge_axis!(0 1 2, 0 1 2);
    edge_axis!(0 1 2, 1 2 0);
    edge_axis!(0 1 2, 2 0 1);
    edge_axis!(1 2 0, 0 1 2);
    edge_axis!(1 2 0, 1 2 0);
    edge_axis!(1 2 0, 2 0 1);
    edge_axis!(2 0 1, 0 1 2);
    edge_axis!(2 0 1, 1 2 0);
    edge_axis!(2 0 1, 2 0 1);

    let r = Matrix::new(
        rr[0][0], rr[0][1], rr[0][2], rr[1][0], rr[1][1], rr[1][2], rr[2][0], rr[2][1], rr[2][2],
    );
    let t = Vector::new(tt[0], tt[1], tt[2]);

    // 2. The contact on the best axis. An edge axis whose edges do not cross (seen along
    //    it) is not where the boxes touch: in exact arithmetic another axis then separates
    //    them as little (see `edge_contact`), so the next best axis is tried.
    loop {
        if edge_sep > face_sep + tol {
            let (i, j) = (edge / 3, edge % 3);
            let dropped_edge = edge;
            if let Some(m) = edge_contact(&r, &t, ea, eb, i, j, edge_sep, tol, fa) {
                return Some(m);
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
        return match face {
            Face { of_b: false, i } => {
                face_contact(&r, &t, ea, eb, i, face_sep, prediction, false, fa)
            }
            Face { of_b: true, i } => {
                // Work in B's frame, with B as the reference box.
                let rt = r.transpose();
                let tb = -(rt * t);
                face_contact(&rt, &tb, eb, ea, i, face_sep, prediction, true, fb)
            }
        };
    }
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
    let fc = t + r.column(k) * (sk * e_inc[k]);
    let u = r.column(k1) * e_inc[k1];
    let v = r.column(k2) * e_inc[k2];
    let quad = [fc + u + v, fc - u + v, fc - u - v, fc + u - v];
    let mut poly = ClipPolygon::from_vertices(&[
        ClipVertex { p: quad[0], id: 0 },
        ClipVertex { p: quad[1], id: 1 },
        ClipVertex { p: quad[2], id: 2 },
        ClipVertex { p: quad[3], id: 3 },
    ]);
    let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
    let (h1, h2) = (e_ref[i1], e_ref[i2]);
    let mut tmp = ClipPolygon::default();
    poly.clip_into(|p| p[i1] - h1, 0, &mut tmp);
    tmp.clip_into(|p| -p[i1] - h1, 1, &mut poly);
    poly.clip_into(|p| p[i2] - h2, 2, &mut tmp);
    tmp.clip_into(|p| -p[i2] - h2, 3, &mut poly);

    let mut normal = Vector::zeros();
    normal[i] = s;
    let mut pts = [Vector::zeros(); 8];
    let mut depths = [0.0; 8];
    let mut ids = [0u32; 8];
    let mut n = 0;
    for cv in poly.vertices() {
        let sep = s * cv.p[i] - e_ref[i];
        if sep <= prediction {
            pts[n] = cv.p - normal * (0.5 * sep);
            depths[n] = -sep;
            ids[n] = cv.id;
            n += 1;
        }
    }
    if n == 0 {
        return None;
    }
    let face_ids = (flipped as u32) << 31
        | ((2 * i + (s > 0.0) as usize) as u32) << 24
        | ((2 * k + (sk > 0.0) as usize) as u32) << 16;
    let (m_ref, o_ref) = (frame_ref.rot, frame_ref.centre);
    let world_normal = m_ref * normal;
    let mut m = Manifold::new(if flipped { -world_normal } else { world_normal });
    m.set_depth(-face_sep);
    let (keep, len) = reduce_to_four(&pts[..n], &depths[..n], &normal);
    for &q in &keep[..len] {
        m.push(ContactPoint {
            point: Point::from(m_ref * pts[q] + o_ref),
            depth: depths[q],
            id: face_ids | (ids[q] & 0xFFFF),
        });
    }
    Some(m)
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
    let mut m = Manifold::new(frame_a.rot * l);
    m.push(ContactPoint {
        point: Point::from(frame_a.rot * ((ca + cb) * 0.5) + frame_a.centre),
        depth: -sep,
        id: 1 << 30 | ((3 * i + j) as u32) << 8 | bits,
    });
    Some(m)
}

/// Closest points of segments `pa + s·da` (|s| ≤ ha) and `pb + u·db` (|u| ≤ hb), `da`, `db`
/// unit and not parallel (Ericson §5.1.9, centred form, with clamping of each parameter);
/// `None` when the closest points of the two lines lie beyond an end by more than `slack`.
fn closest_on_crossing_segments(
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
