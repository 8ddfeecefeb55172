//! Each joint kind as rows (see `rows`): which rows it solves, their position errors, and the
//! order — springs, motors, limits, then the rows that hold the joint together, so that the
//! last word in each pass is the joint's integrity (Box2D v3's order in `revolute_joint.c`).
//!
//! Angles: the hinge angle is `atan2((p_a × p_b)·a, p_a·p_b)` of the two reference
//! perpendiculars about A's axis `a`; the twist is the twist part of the relative rotation
//! `F_a⁻¹·F_b` about the axis (swing–twist decomposition), `2·atan2(q·a, q_w)`; the cone angle
//! is the angle between A's axis and B's copy. Their rates are taken about A's axis (the hinge),
//! the mean axis (the twist) and the common normal `a × b` (the cone).

use super::constraint::{wrap, Geometry, JointConstraint};
use super::rows::{
    solve_pair, solve_point, solve_rotation, solve_row, Ctx, Masses, Mode, Row, Vel,
};
use crate::joint::{JointImpulses, JointKind, Motor};
use crate::solver::params::Softness;
use tumble_narrowphase::math::{Real, Vector};

/// The rotation vector of the relative rotation error `F_b·F_a⁻¹` (world frame, radians):
/// the step's start value plus how far B turned beyond A since (first order).
#[inline]
fn rotation_error(jc: &JointConstraint, g: &Geometry) -> Vector {
    jc.rot_err0 + (g.theta_b - g.theta_a)
}

/// The rows on a free coordinate with value `x` and rate row `row`: the spring (whose error is
/// `spring_error`), the motor, the lower and upper limits.
#[allow(clippy::too_many_arguments)]
fn free_coordinate(
    imp: &mut JointImpulses,
    spring: Softness,
    vel: &mut Vel,
    m: &Masses,
    row: &Row,
    x: Real,
    limits: Option<[Real; 2]>,
    motor: Option<Motor>,
    spring_error: Option<Real>,
    ctx: &Ctx,
) {
    if let Some(c) = spring_error {
        solve_row(vel, m, row, c, Mode::Spring(spring), &mut imp.spring, ctx);
    }
    if let Some(mo) = motor {
        let mode = Mode::Motor {
            speed: mo.target_speed,
            max_impulse: mo.max_force * ctx.h,
        };
        solve_row(vel, m, row, 0.0, mode, &mut imp.motor, ctx);
    }
    if let Some([lo, hi]) = limits {
        solve_row(vel, m, row, x - lo, Mode::Lower, &mut imp.lower, ctx);
        let neg = Row {
            lin: -row.lin,
            ang_a: -row.ang_a,
            ang_b: -row.ang_b,
        };
        solve_row(vel, m, &neg, hi - x, Mode::Lower, &mut imp.upper, ctx);
    }
}

/// The anchor-point block of `jc` (the rows that keep its anchors together).
fn hold_point(jc: &mut JointConstraint, g: &Geometry, vel: &mut Vel, ctx: &Ctx) {
    let m = Masses { a: &jc.a, b: &jc.b };
    let (k, acc) = (&mut jc.point_k_inv, &mut jc.imp.linear);
    solve_point(vel, &m, &g.ra, &g.rb, &g.d, k, acc, ctx);
}

/// One pass of joint `jc` with its bodies at `g`, velocities `vel`.
pub(crate) fn solve_kind(jc: &mut JointConstraint, g: &Geometry, vel: &mut Vel, ctx: &Ctx) {
    let m = Masses { a: &jc.a, b: &jc.b };
    match jc.kind {
        JointKind::Fixed => {
            let c = rotation_error(jc, g);
            let k = jc.rot_k_inv;
            solve_rotation(vel, &m, &c, &k, &mut jc.imp.angular, ctx);
            hold_point(jc, g, vel, ctx);
        }
        JointKind::Revolute {
            limits,
            motor,
            spring,
            spring_target,
        } => {
            let a = g.on_a(&jc.axis_a);
            let e1 = g.on_a(&jc.perp_a);
            if limits.is_some() || motor.is_some() || spring.is_some() {
                let pb = g.on_b(&jc.perp_b);
                let angle = e1.cross(&pb).dot(&a).atan2(e1.dot(&pb));
                // The spring's error the short way round.
                let err = spring.map(|_| wrap(angle - spring_target));
                let row = Row::angular(a);
                free_coordinate(
                    &mut jc.imp,
                    jc.spring,
                    vel,
                    &m,
                    &row,
                    angle,
                    limits,
                    motor,
                    err,
                    ctx,
                );
            }
            let e2 = a.cross(&e1);
            let b = g.on_b(&jc.axis_b);
            let ab = a.cross(&b);
            let rows = [Row::angular(e1), Row::angular(e2)];
            let mut acc = [jc.imp.angular.x, jc.imp.angular.y];
            solve_pair(vel, &m, &rows, [ab.dot(&e1), ab.dot(&e2)], &mut acc, ctx);
            jc.imp.angular.x = acc[0];
            jc.imp.angular.y = acc[1];
            hold_point(jc, g, vel, ctx);
        }
        JointKind::Prismatic {
            limits,
            motor,
            spring,
            spring_target,
        } => {
            let a = g.on_a(&jc.axis_a);
            let e1 = g.on_a(&jc.perp_a);
            // A's lever reaches B's anchor, so that the rows see where the bodies meet.
            let ra = g.ra + g.d;
            if limits.is_some() || motor.is_some() || spring.is_some() {
                let row = Row::linear(a, &ra, &g.rb);
                let x = a.dot(&g.d);
                let err = spring.map(|_| x - spring_target);
                free_coordinate(
                    &mut jc.imp,
                    jc.spring,
                    vel,
                    &m,
                    &row,
                    x,
                    limits,
                    motor,
                    err,
                    ctx,
                );
            }
            let c = rotation_error(jc, g);
            let k = jc.rot_k_inv;
            solve_rotation(vel, &m, &c, &k, &mut jc.imp.angular, ctx);
            let e2 = a.cross(&e1);
            let rows = [Row::linear(e1, &ra, &g.rb), Row::linear(e2, &ra, &g.rb)];
            let mut acc = [jc.imp.linear.x, jc.imp.linear.y];
            solve_pair(vel, &m, &rows, [e1.dot(&g.d), e2.dot(&g.d)], &mut acc, ctx);
            jc.imp.linear.x = acc[0];
            jc.imp.linear.y = acc[1];
        }
        JointKind::Spherical { cone, twist } => {
            let a = g.on_a(&jc.axis_a);
            let b = g.on_b(&jc.axis_b);
            if let Some(cone) = cone {
                let n = a.cross(&b);
                let len = n.norm();
                let n = if len > 1e-6 {
                    n / len
                } else {
                    g.on_a(&jc.perp_a)
                };
                let angle = (a.dot(&b) / (a.norm() * b.norm())).clamp(-1.0, 1.0).acos();
                let row = Row::angular(-n);
                solve_row(
                    vel,
                    &m,
                    &row,
                    cone - angle,
                    Mode::Lower,
                    &mut jc.imp.lower,
                    ctx,
                );
            }
            if let Some([lo, hi]) = twist {
                // Twist of B relative to A about the mean axis: the start value plus how far
                // B turned beyond A about it since.
                let mid = a + b;
                let t = if mid.norm() > 1e-6 {
                    mid.normalize()
                } else {
                    a
                };
                let psi = wrap(jc.twist0 + t.dot(&(g.theta_b - g.theta_a)));
                let row = Row::angular(t);
                solve_row(vel, &m, &row, psi - lo, Mode::Lower, &mut jc.imp.motor, ctx);
                let row = Row::angular(-t);
                solve_row(
                    vel,
                    &m,
                    &row,
                    hi - psi,
                    Mode::Lower,
                    &mut jc.imp.spring,
                    ctx,
                );
            }
            hold_point(jc, g, vel, ctx);
        }
        JointKind::Distance {
            length,
            min,
            max,
            rigid,
            spring,
        } => {
            let len = g.d.norm();
            if len.is_nan() || len <= 1e-6 {
                // The anchors coincide: no direction to push along.
                return;
            }
            let u = g.d / len;
            let row = Row::linear(u, &g.ra, &g.rb);
            if spring.is_some() {
                let soft = jc.spring;
                solve_row(
                    vel,
                    &m,
                    &row,
                    len - length,
                    Mode::Spring(soft),
                    &mut jc.imp.spring,
                    ctx,
                );
            } else if rigid {
                let mut acc = jc.imp.linear.x;
                solve_row(vel, &m, &row, len - length, Mode::Equality, &mut acc, ctx);
                jc.imp.linear.x = acc;
                return;
            }
            if min > 0.0 {
                solve_row(
                    vel,
                    &m,
                    &row,
                    len - min,
                    Mode::Lower,
                    &mut jc.imp.lower,
                    ctx,
                );
            }
            if max.is_finite() {
                let neg = Row::linear(-u, &g.ra, &g.rb);
                solve_row(
                    vel,
                    &m,
                    &neg,
                    max - len,
                    Mode::Lower,
                    &mut jc.imp.upper,
                    ctx,
                );
            }
        }
    }
}
