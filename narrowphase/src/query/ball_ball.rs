//! Sphere against sphere: on squared distances, no square root unless a contact is built.

use crate::contact::{ContactPoint, Manifold};
use crate::math::{Isometry, Point, Real, Vector};
use crate::simd::{Fast, Lanes};

/// True when spheres (`ca`, `ra`) and (`cb`, `rb`) overlap or touch: `|cb − ca|² ≤ (ra + rb)²`.
#[inline]
pub fn intersection_ball_ball(ca: &Point, ra: Real, cb: &Point, rb: Real) -> bool {
    let r = ra + rb;
    (cb - ca).norm_squared() <= r * r
}

/// [`intersection_ball_ball`] of spheres centred at the translations of `pose_a` and `pose_b`
/// (their rotations are ignored), with the same result bit for bit: the centre difference comes
/// from [`Lanes::translation_difference`] (on SSE two 16-byte loads and one subtraction instead
/// of six scalar loads), then the same squares summed in the same order, `(x² + y²) + z²`.
/// What the general entry point runs for a ball pair.
///
/// Its four loads (the two radii, one per pose) are the fewest possible. A form with one shuffle
/// instead of three (`y, z` from one 8-byte load per pose, `x` scalar: one instruction fewer,
/// two loads more) was no faster in `micro` ball–ball in cache (1–2 % slower, within the
/// benchmark's noise).
#[inline(always)]
pub(crate) fn intersection_ball_ball_poses(
    pose_a: &Isometry,
    ra: Real,
    pose_b: &Isometry,
    rb: Real,
) -> bool {
    poses_on::<Fast>(pose_a, ra, pose_b, rb)
}

/// [`intersection_ball_ball_poses`] on lanes `L` (the tests run both backends).
#[inline(always)]
fn poses_on<L: Lanes>(pose_a: &Isometry, ra: Real, pose_b: &Isometry, rb: Real) -> bool {
    let d = L::translation_difference(pose_a, pose_b);
    let [x, y, z] = d.mul(d).to_array();
    let r = ra + rb;
    (x + y) + z <= r * r
}

/// Contact of two spheres if their gap is at most `prediction` metres. The normal points from
/// A's centre to B's; for coincident centres it is +y by convention. One point, midway between
/// the surfaces.
#[inline]
pub fn contact_ball_ball(
    ca: &Point,
    ra: Real,
    cb: &Point,
    rb: Real,
    prediction: Real,
) -> Option<Manifold> {
    contact_spheres_or(ca, ra, cb, rb, prediction, &Vector::y())
}

/// As [`contact_ball_ball`], with the normal to use when the centres coincide (unit; the
/// capsule pairs pass a direction across their cores, along which the depth is minimal).
pub(crate) fn contact_spheres_or(
    ca: &Point,
    ra: Real,
    cb: &Point,
    rb: Real,
    prediction: Real,
    coincident_normal: &Vector,
) -> Option<Manifold> {
    let d = cb - ca;
    let reach = ra + rb + prediction;
    let d2 = d.norm_squared();
    if d2 > reach * reach {
        return None;
    }
    let dist = d2.sqrt();
    let normal = if dist > Real::EPSILON * reach {
        d / dist
    } else {
        *coincident_normal
    };
    let depth = ra + rb - dist;
    // Midway between A's surface point (ca + ra n) and B's (cb − rb n).
    let point = ca + normal * (ra - 0.5 * depth);
    let mut m = Manifold::new(normal);
    m.push(ContactPoint {
        point,
        depth,
        id: 0,
    });
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ericson's worked case: spheres (0,0,0) r 2 and (3,3,0) r 2 do not touch (18 > 16).
    #[test]
    fn ericson_spheres_apart() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(3.0, 3.0, 0.0);
        assert!(!intersection_ball_ball(&a, 2.0, &b, 2.0));
        assert!(contact_ball_ball(&a, 2.0, &b, 2.0, 0.0).is_none());
    }

    /// The pose form gives the same answer as the point form, on both backends, also on pairs
    /// at the touching distance, where the last bit of the squared distance decides.
    #[test]
    fn poses_match_points() {
        use crate::math::{Rotation, Translation};
        use crate::simd::Scalar;
        use rand::{Rng, SeedableRng};
        let mut r = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut hits = [0usize; 2];
        for _ in 0..100_000 {
            let ca = Point::new(r.gen_range(-9.0..9.0), r.gen_range(-9.0..9.0), 0.5);
            let dir = Vector::new(
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
                r.gen_range(-1.0..1.0),
            );
            let (ra, rb) = (r.gen_range(0.1..2.0), r.gen_range(0.1..2.0));
            // Centre distances within a few ulps of ra + rb.
            let scale = (ra + rb) / dir.norm() * (1.0 + r.gen_range(-4.0..4.0) * Real::EPSILON);
            let cb = ca + dir * scale;
            let q = crate::test_util::unit_quaternion(&mut r);
            let pa = Isometry::from_parts(Translation::from(ca.coords), q);
            let pb = Isometry::from_parts(Translation::from(cb.coords), Rotation::identity());
            let want = intersection_ball_ball(&ca, ra, &cb, rb);
            hits[want as usize] += 1;
            assert_eq!(intersection_ball_ball_poses(&pa, ra, &pb, rb), want);
            assert_eq!(poses_on::<Scalar>(&pa, ra, &pb, rb), want);
        }
        assert!(hits[0] > 1000 && hits[1] > 1000, "{hits:?}");
    }

    #[test]
    fn depth_is_minimal_translation() {
        let a = Point::new(0.0, 0.0, 0.0);
        let b = Point::new(1.5, 0.0, 0.0);
        let m = contact_ball_ball(&a, 1.0, &b, 1.0, 0.0).unwrap();
        let p = m.points()[0];
        assert!((p.depth - 0.5).abs() < 1e-6);
        assert!((m.normal - Vector::x()).norm() < 1e-6);
        let eps = 1e-4;
        let moved = b + m.normal * (p.depth + eps);
        assert!(!intersection_ball_ball(&a, 1.0, &moved, 1.0));
        let moved = b + m.normal * (p.depth - eps);
        assert!(intersection_ball_ball(&a, 1.0, &moved, 1.0));
    }
}
