//! Move and slide: the loop of casts, the turning of the motion along what it hits, the ground
//! probe and the snap to ground.

use super::{CharacterCollision, CharacterController, CharacterMove};
use crate::error::{check_finite, check_isometry, check_vector, WorldError};
use crate::handle::BodyHandle;
use crate::query::{QueryFilter, ShapeHit};
use crate::world::World;
use tumble_narrowphase::math::{Isometry, Real, Vector};
use tumble_narrowphase::shape::Shape;
use tumble_narrowphase::sweep::CastOptions;

/// Motions shorter than this (metres) are done.
const DONE: Real = 1e-6;

/// Ground under the character: the body and the surface's unit normal (world frame).
type Ground = (BodyHandle, Vector);

/// Most casts of the snap to ground.
const SNAP_CASTS: usize = 4;

/// After a slide, the motion is turned this fraction of its length away from the surface, so
/// that rounding cannot leave it closing on the surface it slides along (which the next cast
/// would report as a hit at its start, wasting an iteration).
const NUDGE: Real = 1e-4;

/// `r` without its part going into the surface of unit normal `n` (unchanged when it moves
/// away from the surface or along it).
#[inline]
fn without_inward(r: Vector, n: &Vector) -> Vector {
    let d = r.dot(n);
    if d < 0.0 {
        r - n * d
    } else {
        r
    }
}

/// `pose` moved by `t`.
#[inline]
pub(super) fn moved(pose: &Isometry, t: &Vector) -> Isometry {
    let mut p = *pose;
    p.translation.vector += t;
    p
}

impl CharacterController {
    /// The options of every cast of a move: stop `offset` short, let the shape move away from
    /// (or along) what it starts within the offset of.
    pub(super) fn cast_options(&self) -> CastOptions {
        CastOptions {
            t_max: 1.0,
            skin: self.offset,
            stop_at_penetration: false,
            tolerance: (0.25 * self.offset).min(1e-4),
        }
    }

    /// The first body hit by `shape` at `pose` moved by `motion` (cast as a displacement over
    /// `t ∈ [0, 1]`).
    pub(super) fn cast(
        &self,
        world: &World,
        shape: &Shape,
        pose: &Isometry,
        motion: &Vector,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<ShapeHit>, WorldError> {
        world.cast_shape_with(shape, pose, motion, &self.cast_options(), filter)
    }

    /// The ground under `shape` at `pose`: a walkable surface within `max(2·offset,
    /// offset + 1 mm)` below, as (body, unit normal).
    pub(super) fn ground_probe(
        &self,
        world: &World,
        shape: &Shape,
        pose: &Isometry,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<Ground>, WorldError> {
        let reach = (2.0 * self.offset).max(self.offset + 1e-3);
        let options = CastOptions {
            t_max: 1.0,
            skin: 0.0,
            stop_at_penetration: true,
            tolerance: (0.25 * self.offset).min(1e-4),
        };
        let hit = world.cast_shape_with(shape, pose, &(-self.up * reach), &options, filter)?;
        Ok(hit
            .filter(|h| self.is_walkable(&h.normal))
            .map(|h| (h.body, h.normal)))
    }

    /// The rest `r` of a motion after a hit on a surface of unit normal `n` (see the module
    /// docs of [`crate::character`]): along ground (without the fall into ground gentler than
    /// the slide angle), stopped horizontally by a wall and sliding down it.
    pub(super) fn slide(&self, r: Vector, n: &Vector) -> Vector {
        let up = self.up;
        let cos_n = n.dot(&up);
        let out = if self.is_walkable(n) {
            let mut r = r;
            if cos_n >= self.min_slope_slide_angle.cos() {
                // Too gentle to slide down: a downward motion just stops on it.
                r -= up * r.dot(&up).min(0.0);
            }
            without_inward(r, n)
        } else {
            // A wall: its horizontal normal stops the horizontal motion into it, and what
            // still goes into it (a fall onto a steep slope) slides along it.
            let horizontal = n - up * cos_n;
            let r = match horizontal.try_normalize(1e-6) {
                Some(h) => without_inward(r, &h),
                None => r,
            };
            without_inward(r, n)
        };
        if out.norm() <= DONE {
            return Vector::zeros();
        }
        out + n * (NUDGE * out.norm())
    }

    /// The snap to ground from `end`: a fall of at most `reach` metres, sliding off what is not
    /// ground (the rounded bottom of a shape leaving a ledge meets its edge first) for a few
    /// casts; the fall and the ground it lands on, or `None` when it lands on no ground.
    fn snap(
        &self,
        world: &World,
        shape: &Shape,
        end: &Isometry,
        reach: Real,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<(Vector, Ground)>, WorldError> {
        let mut fall = Vector::zeros();
        let mut rest = -self.up * reach;
        for _ in 0..SNAP_CASTS {
            let Some(hit) = self.cast(world, shape, &moved(end, &fall), &rest, filter)? else {
                return Ok(None);
            };
            fall += rest * hit.toi;
            if self.is_walkable(&hit.normal) {
                return Ok(Some((fall, (hit.body, hit.normal))));
            }
            rest = self.slide(rest * (1.0 - hit.toi), &hit.normal);
            if rest.norm() <= DONE {
                break;
            }
        }
        Ok(None)
    }

    /// Moves `shape` from `pose` (world frame) by as much of `desired` (world frame, metres:
    /// the motion wanted over the frame, input and gravity times `dt`) as it can, sliding along
    /// what it meets, climbing steps and snapping to the ground as set (see the module docs of
    /// [`crate::character`]). `dt` (seconds, > 0) only turns motions into velocities for the
    /// pushes. Queries see the bodies `filter` accepts: exclude the character's own body, if it
    /// has one. The bodies run into are written into `collisions` (cleared first), in the order
    /// they were met.
    ///
    /// Returns the translation to apply and whether the character ends on the ground. Errors on
    /// invalid settings ([`CharacterController::validate`]), a non-finite `dt`, pose or motion,
    /// or a non-finite shape; `collisions` is then empty.
    #[allow(clippy::too_many_arguments)]
    pub fn move_shape(
        &self,
        world: &World,
        dt: Real,
        shape: &Shape,
        pose: &Isometry,
        desired: Vector,
        filter: &QueryFilter<'_>,
        collisions: &mut Vec<CharacterCollision>,
    ) -> Result<CharacterMove, WorldError> {
        collisions.clear();
        self.validate()?;
        check_finite("character dt", dt)?;
        if dt <= 0.0 {
            return Err(WorldError::NonPositive("character dt", dt));
        }
        check_isometry("character pose", pose)?;
        check_vector("desired translation", &desired)?;
        crate::state::validate_shape(shape)
            .map_err(|_| WorldError::NonFinite("character shape"))?;

        let grounded_before = self.ground_probe(world, shape, pose, filter)?.is_some();
        let mut on_ground = grounded_before;
        let mut translation = Vector::zeros();
        let mut remaining = desired;
        let mut stepped = false;
        for _ in 0..self.max_iterations {
            if remaining.norm() <= DONE {
                break;
            }
            let here = moved(pose, &translation);
            let Some(hit) = self.cast(world, shape, &here, &remaining, filter)? else {
                translation += remaining;
                break;
            };
            let done = remaining * hit.toi;
            translation += done;
            let left = remaining - done;
            collisions.push(CharacterCollision {
                body: hit.body,
                translation_applied: translation,
                translation_remaining: left,
                normal: hit.normal,
                witness_character: hit.witness_shape,
                witness_body: hit.witness_body,
                velocity: remaining / dt,
            });
            if self.is_walkable(&hit.normal) {
                on_ground = true;
            } else if on_ground {
                let at = moved(pose, &translation);
                let walking = desired.dot(&self.up) <= 0.0;
                let step = if walking {
                    self.try_step(world, shape, &at, &left, &hit, filter)?
                } else {
                    None
                };
                if let Some(step) = step {
                    translation += step;
                    stepped = true;
                    break;
                }
            }
            remaining = self.slide(left, &hit.normal);
        }

        let end = moved(pose, &translation);
        let mut ground = self.ground_probe(world, shape, &end, filter)?;
        let mut snapped = 0.0;
        if let (Some(reach), None) = (self.snap_to_ground, ground) {
            // Only when walking (not jumping) off ground it stood on.
            if grounded_before && desired.dot(&self.up) <= 0.0 && reach > 0.0 {
                if let Some((drop, g)) = self.snap(world, shape, &end, reach, filter)? {
                    translation += drop;
                    snapped = -drop.dot(&self.up);
                    ground = Some(g);
                }
            }
        }
        Ok(CharacterMove {
            translation,
            grounded: ground.is_some(),
            ground: ground.map(|g| g.0),
            ground_normal: ground.map(|g| g.1),
            stepped,
            snapped,
        })
    }
}
