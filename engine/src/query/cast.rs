//! Shape casts: the first body a shape meets while translating along a straight line.
//!
//! The candidates are the bodies whose broad-phase box overlaps the box swept by the shape
//! (its box at the start and at `max_toi`, grown by the skin); each is cast against with
//! [`tumble_narrowphase::sweep::cast_shape`] (closed forms for balls, conservative
//! advancement on GJK distances otherwise), each search limited to the best time found so far.
//! The shape does not rotate.

use super::filter::QueryFilter;
use crate::error::{check_isometry, check_vector, WorldError};
use crate::handle::BodyHandle;
use crate::world::World;
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::sweep::{CastOptions, CastStatus};
use tumble_narrowphase::Aabb;

/// The first body a cast shape meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeHit {
    /// The body hit.
    pub body: BodyHandle,
    /// Time of impact, in the units of the velocity's time (seconds for a velocity in m/s; a
    /// fraction of the motion for a velocity given as a whole displacement), in `[0, max_toi]`:
    /// the shape then sits at `pose` moved by `velocity · toi`.
    pub toi: Real,
    /// Unit normal of the hit, world frame, pointing **out of the body toward the cast shape**
    /// (the direction that moves the shape away from the body).
    pub normal: Vector,
    /// The cast shape's point closest to the body at `toi`, world frame, metres.
    pub witness_shape: Point,
    /// The body's point closest to the cast shape at `toi`, world frame, metres.
    pub witness_body: Point,
    /// How the time was found: [`CastStatus::StartedWithin`] when the shape starts closer to
    /// the body than the skin (possibly overlapping it; `toi = 0`),
    /// [`CastStatus::OutOfIterations`] when the search gave up (`toi` is then a time before the
    /// impact, never after it).
    pub status: CastStatus,
}

/// Checks the options of a cast as the narrow phase would, with the engine's typed errors.
fn check_options(o: &CastOptions) -> Result<(), WorldError> {
    if !o.t_max.is_finite() {
        return Err(WorldError::NonFinite("cast max_toi"));
    }
    if o.t_max < 0.0 {
        return Err(WorldError::Negative("cast max_toi", o.t_max));
    }
    if !o.skin.is_finite() {
        return Err(WorldError::NonFinite("cast skin"));
    }
    if o.skin < 0.0 {
        return Err(WorldError::Negative("cast skin", o.skin));
    }
    if !(o.tolerance.is_finite() && o.tolerance > 0.0) {
        return Err(WorldError::NonPositive("cast tolerance", o.tolerance));
    }
    Ok(())
}

/// Checks a cast's input (pose, velocity, options, shape) with the engine's typed errors and
/// returns the box it sweeps over `[0, t_max]`, grown by the skin and the tolerance: where the
/// broad phase finds its candidates. Shared by the world's and the collision world's casts.
pub(crate) fn checked_swept_box(
    shape: &Shape,
    pose: &Isometry,
    velocity: &Vector,
    options: &CastOptions,
) -> Result<Aabb, WorldError> {
    check_isometry("cast pose", pose)?;
    check_vector("cast velocity", velocity)?;
    check_options(options)?;
    crate::state::validate_shape(shape).map_err(|_| WorldError::NonFinite("cast shape"))?;
    let motion = velocity * options.t_max;
    check_vector("cast displacement (velocity × max_toi)", &motion)?;
    let start = shape.aabb(pose);
    let mut end_pose = *pose;
    end_pose.translation.vector += motion;
    let end = shape.aabb(&end_pose);
    let swept = Aabb::new_unchecked(start.mins.inf(&end.mins), start.maxs.sup(&end.maxs))
        .loosened(options.skin + options.tolerance);
    if !swept.is_valid() {
        return Err(WorldError::NonFinite("cast swept box"));
    }
    Ok(swept)
}

impl World {
    /// The first body accepted by `filter` that `shape`, starting at `pose` (world frame) and
    /// translating at `velocity` (world frame), touches within `t ∈ [0, max_toi]`; ties go to
    /// the lower handle. A shape that starts touching or overlapping a body hits it at
    /// `toi = 0` ([`CastStatus::StartedWithin`] when overlapping). See
    /// [`World::cast_shape_with`] for a skin and for letting a shape slide away from what it
    /// touches. Pairs the narrow phase has no algorithm for are skipped.
    ///
    /// Errors: a non-finite or non-unit pose, a non-finite velocity or shape, a negative or
    /// non-finite `max_toi`. A zero velocity is allowed (it reports what the shape touches
    /// now).
    pub fn cast_shape(
        &self,
        shape: &Shape,
        pose: &Isometry,
        velocity: &Vector,
        max_toi: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeHit>, WorldError> {
        self.cast_shape_with(
            shape,
            pose,
            velocity,
            &CastOptions::with_t_max(max_toi),
            filter,
        )
    }

    /// [`World::cast_shape`] with every option of the narrow phase's cast: `options.t_max` the
    /// latest time, `options.skin` the distance (metres) at which the shape counts as touching,
    /// `options.stop_at_penetration = false` to report a body the shape starts within the skin
    /// of only when the motion closes on it (a character resting on a floor can walk on it),
    /// `options.tolerance` the accuracy (metres). Errors as [`World::cast_shape`], and on
    /// options out of the ranges documented on [`CastOptions`].
    pub fn cast_shape_with(
        &self,
        shape: &Shape,
        pose: &Isometry,
        velocity: &Vector,
        options: &CastOptions,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeHit>, WorldError> {
        let swept = checked_swept_box(shape, pose, velocity, options)?;
        let mut best: Option<ShapeHit> = None;
        let zero = Vector::zeros();
        self.for_each_candidate(&swept, filter, |h, b| {
            let opts = CastOptions {
                t_max: best.map_or(options.t_max, |x| x.toi),
                ..*options
            };
            let hit = tumble_narrowphase::sweep::cast_shape(
                pose,
                velocity,
                shape,
                &b.shape_pose(),
                &zero,
                &b.shape,
                &opts,
            );
            // Unsupported pairs (and, never for valid bodies, bad input) are skipped.
            let Ok(Some(hit)) = hit else { return };
            // Candidates come in handle order: a tie keeps the lower handle.
            if best.is_none_or(|x| hit.toi < x.toi) {
                best = Some(ShapeHit {
                    body: h,
                    toi: hit.toi,
                    normal: -hit.normal,
                    witness_shape: hit.witness_a,
                    witness_body: hit.witness_b,
                    status: hit.status,
                });
            }
        });
        Ok(best)
    }
}
