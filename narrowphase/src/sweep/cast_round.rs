//! The closed forms of [`super::cast_shape`]: a ball against a ball, a box, a capsule or a
//! triangle. In the frame of the other shape (the obstacle) the ball's centre moves along the
//! relative displacement over `[0, t_max]`, and the shapes come within `skin` exactly when
//! that centre enters the obstacle grown by `radius + skin` — the ray casts of the sphere
//! sweeps ([`super::sweep_sphere_sphere`], [`super::sweep_sphere_cuboid`],
//! [`super::sweep_sphere_capsule`], [`super::sweep_sphere_triangle`]; Ericson RTCD §5.5.3 to
//! §5.5.7).

use super::cast::{CastHit, CastOptions, CastStatus};
use super::toi::Toi;
use super::{
    sweep_sphere_capsule, sweep_sphere_cuboid, sweep_sphere_sphere, sweep_sphere_triangle,
};
use crate::math::{Isometry, Point, Real, Vector};
use crate::shape::ShapeRef;

/// The sphere sweep of a ball of radius `r` with centre `c0` moving by `motion`, against the
/// obstacle `s` at `pose` (which does not move): `None` when `s` has no sphere sweep.
fn sweep_against(
    c0: &Point,
    motion: &Vector,
    r: Real,
    pose: &Isometry,
    s: ShapeRef,
) -> Option<Option<Toi>> {
    let c1 = c0 + motion;
    Some(match s {
        ShapeRef::Ball(b) => {
            let centre = Point::from(pose.translation.vector);
            sweep_sphere_sphere(c0, &c1, r, &centre, &centre, b.radius())
        }
        ShapeRef::Cuboid(c) => sweep_sphere_cuboid(c0, &c1, r, pose, &c.half_extents()),
        ShapeRef::Capsule(c) => {
            let (a, b) = c.segment(pose);
            sweep_sphere_capsule(c0, &c1, r, &a, &b, c.radius())
        }
        ShapeRef::Triangle(t) => {
            let [a, b, c] = t.world_corners(pose);
            sweep_sphere_triangle(c0, &c1, r, &a, &b, &c)
        }
        _ => return None,
    })
}

/// The closed-form cast of the pair, if one of the two is a ball and the other has a sphere
/// sweep (`None`: no closed form; `Some(None)`: no hit). The shapes are known to start farther
/// apart than `skin`.
pub(crate) fn cast_round(
    pose_a: &Isometry,
    vel_a: &Vector,
    a: ShapeRef,
    pose_b: &Isometry,
    vel_b: &Vector,
    b: ShapeRef,
    options: &CastOptions,
) -> Option<Option<CastHit>> {
    let t_max = options.t_max;
    let centre = |p: &Isometry| Point::from(p.translation.vector);
    if let ShapeRef::Ball(ball) = a {
        // A is the mover; the normal of the sweep points from B toward A.
        let (c0, r) = (centre(pose_a), ball.radius());
        let toi = sweep_against(&c0, &((vel_a - vel_b) * t_max), r + options.skin, pose_b, b)?;
        return Some(toi.map(|h| {
            let t = h.t * t_max;
            let normal = -h.normal;
            CastHit {
                toi: t,
                normal,
                witness_a: c0 + vel_a * t + normal * r,
                witness_b: h.point + vel_b * t,
                status: CastStatus::Converged,
            }
        }));
    }
    if let ShapeRef::Ball(ball) = b {
        // B is the mover; the normal of the sweep points from A toward B.
        let (c0, r) = (centre(pose_b), ball.radius());
        let toi = sweep_against(&c0, &((vel_b - vel_a) * t_max), r + options.skin, pose_a, a)?;
        return Some(toi.map(|h| {
            let t = h.t * t_max;
            CastHit {
                toi: t,
                normal: h.normal,
                witness_a: h.point + vel_a * t,
                witness_b: c0 + vel_b * t - h.normal * r,
                status: CastStatus::Converged,
            }
        }));
    }
    None
}
