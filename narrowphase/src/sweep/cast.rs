//! [`cast_shape`]: the first time two shapes, each translating at its own constant velocity,
//! come within a target distance of each other, by conservative advancement on GJK distances
//! (Mirtich, "Impulse-based dynamic simulation of rigid body systems", PhD thesis, 1996, §2.3;
//! Ericson, RTCD §5.5.6; van den Bergen 2004, §5.5), or by a closed form when A or B is a ball
//! against a ball, a box, a capsule or a triangle ([`super::cast_round`]).
//!
//! With `d(t)` the distance of the shapes at time `t`, `n` the unit normal of their closest
//! points and `v = v_b − v_a` the relative velocity, the separation of the two shapes along the
//! fixed axis `n` is `d(t) + (t' − t) v·n` at any later `t'`, and it bounds `d(t')` from below.
//! So the shapes cannot come within the skin `s` before
//! `t' = t + (d(t) − s) / (−v·n)`, and the search steps there, recomputes `d` and `n`, and
//! stops when `d ≤ s + tolerance` (a hit), when `−v·n ≤ 0` (the axis `n` separates the shapes
//! for good: no hit) or when `t'` passes `t_max` (no hit). Since `d` is convex in `t` for
//! translating convex shapes, every step lands before the first contact and the steps are
//! Newton's steps on `d − s` from the left: one step for a face meeting a face, a few for
//! curved surfaces. Unlike a step of `(d − s)/|v|`, it does not crawl when the motion is nearly
//! parallel to the surface.
//!
//! The whole search runs with both poses moved to the midpoint of their starting translations
//! ([`crate::query`], "The frame of computation"): the poses are advanced, and the distances
//! measured, in coordinates of the pair's own size, so a cast is as exact far from the origin
//! as next to it; the witnesses are moved back to world space at the end.

use super::cast_round::cast_round;
use crate::math::{is_finite_vector, Isometry, Point, Real, Vector};
use crate::query::{check_pose, closest_points_in_frame, ClosestPoints, Frame, QueryError};
use crate::shape::ShapeRef;

/// Most distance queries of one [`cast_shape`]: the search gives up after this many steps
/// (reporting [`CastStatus::OutOfIterations`]); it never loops longer.
pub const CAST_MAX_ITERATIONS: usize = 64;

/// The options of [`cast_shape`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastOptions {
    /// Latest time searched, in the units of the velocities' time (seconds for velocities in
    /// m/s; `1` with velocities given as the displacement over one step). Finite, `≥ 0`.
    pub t_max: Real,
    /// Target distance, metres (`≥ 0`, finite): the cast reports the first time the shapes
    /// come within `skin` of each other, rather than touching (0).
    pub skin: Real,
    /// What to do when the shapes start within `skin + tolerance` of each other (or
    /// overlapping) at `t = 0`: `true` reports a hit at `t = 0`; `false` reports one only if
    /// the relative velocity closes the shapes along the normal of their closest points
    /// (`(v_b − v_a)·normal < 0`), and no hit when it does not (a shape resting on another can
    /// move away from it, or slide along it).
    pub stop_at_penetration: bool,
    /// Distance accuracy of the hit, metres (finite, `> 0`): at a converged hit the shapes are
    /// between `skin − tolerance` and `skin + tolerance` apart (GJK's own accuracy, about
    /// `10⁻⁶` of the shapes' size and of their distance apart, is below the default).
    pub tolerance: Real,
}

impl Default for CastOptions {
    /// `t_max = 1`, `skin = 0`, `stop_at_penetration = true`, `tolerance = 10⁻⁴` m.
    fn default() -> Self {
        Self {
            t_max: 1.0,
            skin: 0.0,
            stop_at_penetration: true,
            tolerance: 1e-4,
        }
    }
}

impl CastOptions {
    /// The default options with the given `t_max`.
    pub fn with_t_max(t_max: Real) -> Self {
        Self {
            t_max,
            ..Self::default()
        }
    }

    /// Checks the ranges documented on the fields.
    fn check(&self) -> Result<(), QueryError> {
        if !(self.t_max.is_finite() && self.t_max >= 0.0) {
            return Err(QueryError::InvalidOption("t_max (finite, ≥ 0)"));
        }
        if !(self.skin.is_finite() && self.skin >= 0.0) {
            return Err(QueryError::InvalidOption("skin (finite, ≥ 0)"));
        }
        if !(self.tolerance.is_finite() && self.tolerance > 0.0) {
            return Err(QueryError::InvalidOption("tolerance (finite, > 0)"));
        }
        Ok(())
    }
}

/// How a [`CastHit`] was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastStatus {
    /// The shapes are within `skin ± tolerance` of each other at `toi` (`toi > 0`, or `toi = 0`
    /// when they start just that far apart).
    Converged,
    /// The shapes are closer than `skin − tolerance` (possibly overlapping) at `t = 0`; `toi = 0`
    /// and the witnesses and normal are those of [`crate::query::closest_points`] at the start.
    StartedWithin,
    /// [`CAST_MAX_ITERATIONS`] steps were not enough: `toi` is the last time reached, before
    /// any contact (a lower bound of the time of impact, if there is one), and the shapes may
    /// still be farther apart than `skin + tolerance` there.
    OutOfIterations,
}

/// The first time two moving shapes come within the skin of each other.
///
/// - `toi`: the time, in `[0, t_max]`, in the units of the velocities' time;
/// - `normal`: unit, world space, **from A toward B** at `toi` (moving B along it separates
///   them);
/// - `witness_a`, `witness_b`: the closest points of A and B at `toi` (on their surfaces, each
///   shape at its pose moved by its velocity times `toi`), world space, metres;
///   `witness_b ≈ witness_a + normal · skin` at a converged hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Time of impact, in `[0, t_max]`.
    pub toi: Real,
    /// Unit normal from A toward B at `toi`, world space.
    pub normal: Vector,
    /// Closest point of A at `toi`, world space.
    pub witness_a: Point,
    /// Closest point of B at `toi`, world space.
    pub witness_b: Point,
    /// How the hit was found.
    pub status: CastStatus,
}

impl CastHit {
    /// True when every field is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        self.toi.is_finite()
            && is_finite_vector(&self.normal)
            && is_finite_vector(&self.witness_a.coords)
            && is_finite_vector(&self.witness_b.coords)
    }

    fn at(toi: Real, c: &ClosestPoints, status: CastStatus) -> Self {
        Self {
            toi,
            normal: c.normal,
            witness_a: c.point_a,
            witness_b: c.point_b,
            status,
        }
    }

    /// The hit found in `frame`, in world space (witnesses moved back); `None` when a field
    /// is not finite.
    fn in_world(self, frame: &Frame) -> Option<Self> {
        Some(Self {
            witness_a: frame.world_point(&self.witness_a),
            witness_b: frame.world_point(&self.witness_b),
            ..self
        })
        .filter(Self::is_finite)
    }
}

/// `pose` moved by `v · t`.
#[inline]
fn advanced(pose: &Isometry, v: &Vector, t: Real) -> Isometry {
    let mut p = *pose;
    p.translation.vector += v * t;
    p
}

/// First hit of shape `a` (at `pose_a` at time 0, translating at `vel_a`) against shape `b`
/// (at `pose_b`, translating at `vel_b`) over `t ∈ [0, options.t_max]`: the earliest time the
/// two come within `options.skin` of each other. Neither rotates. See [`CastOptions`] for the
/// options, [`CastHit`] for the frames and signs of the result, and the module docs for the
/// method (closed forms when a ball is swept against a ball, box, capsule or triangle;
/// conservative advancement on GJK distances otherwise).
///
/// `Ok(None)` when there is no hit in time (or the shapes start within the skin, move apart
/// and `stop_at_penetration` is false). Errors: [`QueryError::NonFinite`] for a non-finite
/// pose or velocity, [`QueryError::NotUnitRotation`] for a pose whose rotation is not unit,
/// [`QueryError::InvalidOption`] for options out of range,
/// [`QueryError::Unsupported`] for a pair without a distance algorithm. At most
/// [`CAST_MAX_ITERATIONS`] distance queries are made.
///
/// ```
/// use tumble_narrowphase::math::{Isometry, Vector};
/// use tumble_narrowphase::shape::{Ball, Cuboid};
/// use tumble_narrowphase::sweep::{cast_shape, CastOptions};
///
/// // A unit cube at 4 m/s toward a wall whose face is at x = 2.5: its own face at x = 0.5
/// // covers the 2 m in 0.5 s.
/// let cube = Cuboid::new(Vector::new(0.5, 0.5, 0.5)).unwrap();
/// let wall = Cuboid::new(Vector::new(0.5, 5.0, 5.0)).unwrap();
/// let hit = cast_shape(
///     &Isometry::identity(), &Vector::new(4.0, 0.0, 0.0), &cube,
///     &Isometry::translation(3.0, 0.0, 0.0), &Vector::zeros(), &wall,
///     &CastOptions::with_t_max(1.0),
/// ).unwrap().expect("it hits");
/// assert!((hit.toi - 0.5).abs() < 1e-4);
/// assert!((hit.normal - Vector::x()).norm() < 1e-4);
/// ```
#[allow(clippy::too_many_arguments)]
pub fn cast_shape<'a, 'b>(
    pose_a: &Isometry,
    vel_a: &Vector,
    a: impl Into<ShapeRef<'a>>,
    pose_b: &Isometry,
    vel_b: &Vector,
    b: impl Into<ShapeRef<'b>>,
    options: &CastOptions,
) -> Result<Option<CastHit>, QueryError> {
    let (a, b) = (a.into(), b.into());
    options.check()?;
    check_pose(pose_a, "pose of A")?;
    check_pose(pose_b, "pose of B")?;
    if !is_finite_vector(vel_a) {
        return Err(QueryError::NonFinite("velocity of A"));
    }
    if !is_finite_vector(vel_b) {
        return Err(QueryError::NonFinite("velocity of B"));
    }
    let rel = vel_b - vel_a;
    if !is_finite_vector(&rel) {
        return Err(QueryError::NonFinite("relative velocity"));
    }
    if let Some(r) = crate::query::compound::cast_pair(pose_a, vel_a, a, pose_b, vel_b, b, options)
    {
        return r;
    }
    let frame = Frame::between(pose_a, pose_b);
    let hit = cast_in_frame(
        &frame.pose(pose_a),
        vel_a,
        a,
        &frame.pose(pose_b),
        vel_b,
        b,
        options,
    )?;
    Ok(hit.and_then(|h| h.in_world(&frame)))
}

/// [`cast_shape`] on checked input, the poses already moved next to the pair; the hit in
/// their frame.
fn cast_in_frame(
    pose_a: &Isometry,
    vel_a: &Vector,
    a: ShapeRef,
    pose_b: &Isometry,
    vel_b: &Vector,
    b: ShapeRef,
    options: &CastOptions,
) -> Result<Option<CastHit>, QueryError> {
    let rel = vel_b - vel_a;
    let (skin, tol) = (options.skin, options.tolerance);
    let start = closest_points_in_frame(pose_a, a, pose_b, b)?;
    if start.distance <= skin + tol {
        let closing = -rel.dot(&start.normal);
        if !options.stop_at_penetration && closing <= 0.0 {
            return Ok(None);
        }
        let status = if start.distance < skin - tol {
            CastStatus::StartedWithin
        } else {
            CastStatus::Converged
        };
        return Ok(Some(CastHit::at(0.0, &start, status)));
    }
    if let Some(r) = cast_round(pose_a, vel_a, a, pose_b, vel_b, b, options) {
        return Ok(r);
    }
    let mut t: Real = 0.0;
    let mut c = start;
    for _ in 0..CAST_MAX_ITERATIONS {
        let closing = -rel.dot(&c.normal);
        if closing.is_nan() || closing <= 0.0 {
            return Ok(None);
        }
        let next = t + (c.distance - skin) / closing;
        if !next.is_finite() || next > options.t_max {
            return Ok(None);
        }
        // Rounding can leave a step that does not move `t`: the shapes are then as close as
        // the arithmetic can tell, which the tolerance test below accepts or the loop ends.
        t = next;
        c = closest_points_in_frame(
            &advanced(pose_a, vel_a, t),
            a,
            &advanced(pose_b, vel_b, t),
            b,
        )?;
        if c.distance <= skin + tol {
            return Ok(Some(CastHit::at(t, &c, CastStatus::Converged)));
        }
    }
    Ok(Some(CastHit::at(t, &c, CastStatus::OutOfIterations)))
}
