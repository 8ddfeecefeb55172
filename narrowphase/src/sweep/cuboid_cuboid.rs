//! Translating box against a static box: swept separating-axis test.
//!
//! Two convex polytopes translating without rotation touch exactly when no axis separates
//! them. For two boxes the candidate axes are the 3 + 3 face normals and the 9 edge cross
//! products (Ericson RTCD §4.4.1); on each axis `L` the projected gap is
//! `|s + t v| − (r_A + r_B)` with `s` the centre offset, `v` the relative motion and `r` the
//! projected radii, so the axis separates outside one time interval. The boxes touch during
//! the intersection of those intervals over all axes; its start is the time of impact and the
//! axis that set it is the contact normal (the moving-AABB test of RTCD §5.5.8, generalised).

use super::closest::closest_on_box_local;
use super::toi::{against, is_box_ok, Toi};
use crate::math::{finite_only, Isometry, Matrix, Point, Real, Vector};

/// First contact of box A (half-sizes `half_a`, pose `pose_a` at `t = 0`) translating by
/// `motion_a` (world space, metres, over `t ∈ [0, 1]`, no rotation) against the static box B
/// (`half_b`, `pose_b`). For two moving boxes pass the relative motion `motion_a − motion_b`.
/// Exact for pure translation.
///
/// Normal: unit, world space, from B toward A (the separating axis that was last to close).
/// Point, at time `t`: a touching corner when either box touches with a single corner (exact);
/// otherwise A's touching feature's centroid moved onto B's surface (an estimate for
/// edge–edge, edge–face and face–face contacts; the contact manifold is the narrow phase's
/// job once the boxes are advanced to `t`).
/// Overlapping at the start → `t = 0` with the axis of least penetration.
pub fn sweep_cuboid_cuboid(
    pose_a: &Isometry,
    half_a: &Vector,
    motion_a: &Vector,
    pose_b: &Isometry,
    half_b: &Vector,
) -> Option<Toi> {
    finite_only(Toi::is_finite, || {
        if !is_box_ok(pose_a, half_a) || !is_box_ok(pose_b, half_b) {
            return None;
        }
        if !crate::math::is_finite_vector(motion_a) {
            return None;
        }
        let ra: Matrix = pose_a.rotation.to_rotation_matrix().into_inner();
        let rb: Matrix = pose_b.rotation.to_rotation_matrix().into_inner();
        let s = pose_a.translation.vector - pose_b.translation.vector;
        let project = |m: &Matrix, h: &Vector, l: &Vector| -> Real {
            (0..3).map(|i| h[i] * m.column(i).dot(l).abs()).sum()
        };
        let mut axes: [Vector; 15] = [Vector::zeros(); 15];
        for i in 0..3 {
            axes[i] = ra.column(i).into_owned();
            axes[3 + i] = rb.column(i).into_owned();
            for j in 0..3 {
                axes[6 + 3 * i + j] = ra.column(i).cross(&rb.column(j));
            }
        }
        let mut t_first: Real = 0.0;
        let mut t_last: Real = 1.0;
        let mut entry_axis: Option<Vector> = None;
        // For the overlap case: the axis of least penetration.
        let mut least = (Real::INFINITY, Vector::zeros());
        for raw in &axes {
            // Nearly parallel edge pairs give no new axis; the face axes cover them.
            let Some(l) = raw.try_normalize(1.0e-3) else {
                continue;
            };
            let reach = project(&ra, half_a, &l) + project(&rb, half_b, &l);
            let sl = s.dot(&l);
            let vl = motion_a.dot(&l);
            let pen = reach - sl.abs();
            if pen < least.0 {
                least = (pen, if sl < 0.0 { -l } else { l });
            }
            // Times at which |sl + t vl| <= reach.
            if vl.abs() < Real::MIN_POSITIVE {
                if sl.abs() > reach {
                    return None;
                }
                continue;
            }
            let mut t0 = (-reach - sl) / vl;
            let mut t1 = (reach - sl) / vl;
            if t0 > t1 {
                std::mem::swap(&mut t0, &mut t1);
            }
            if t0 > t_first {
                t_first = t0;
                entry_axis = Some(if sl + t0 * vl < 0.0 { -l } else { l });
            }
            t_last = t_last.min(t1);
            if t_first > t_last {
                return None;
            }
        }
        let normal = match entry_axis {
            Some(n) => n,
            None => {
                if least.1 == Vector::zeros() {
                    against(motion_a)
                } else {
                    least.1
                }
            }
        };
        let t = t_first;
        // The touching features: A's corners lowest along the normal, B's highest.
        let centre_a = Point::from(pose_a.translation.vector + motion_a * t);
        let centre_b = Point::from(pose_b.translation.vector);
        let (feature_a, count_a) = support_feature(&centre_a, &ra, half_a, &-normal);
        let (feature_b, count_b) = support_feature(&centre_b, &rb, half_b, &normal);
        let point = if count_a == 1 {
            feature_a
        } else if count_b == 1 {
            feature_b
        } else {
            let local = pose_b.inverse_transform_point(&feature_a);
            pose_b * closest_on_box_local(&local, half_b).0
        };
        Some(Toi { t, normal, point })
    })
}

/// The centroid and corner count of a box's feature farthest along `dir` (a corner, an edge
/// or a face), for the box of centre `centre`, rotation `rot` and half-sizes `h`: in the box
/// frame, an axis nearly perpendicular to `dir` (its two corner layers within `1e-4` relative
/// of each other along `dir`) leaves the feature free along it, any other axis picks the
/// side facing `dir`.
fn support_feature(centre: &Point, rot: &Matrix, h: &Vector, dir: &Vector) -> (Point, usize) {
    let tol = 1.0e-4 * (1.0 + h.norm());
    let local = rot.transpose() * dir;
    let mut offset = Vector::zeros();
    let mut count = 1;
    for i in 0..3 {
        if 2.0 * h[i] * local[i].abs() <= tol {
            count *= 2;
        } else {
            offset[i] = h[i].copysign(local[i]);
        }
    }
    (centre + rot * offset, count)
}
