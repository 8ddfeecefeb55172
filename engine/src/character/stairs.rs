//! Autostep: climbing a step the character walks into.
//!
//! From where the character stopped against the riser, three casts: up by at most the step's
//! maximal height (less under a ceiling), forward over the step by the motion's horizontal
//! part (at least the step's minimal width, and the whole way free), and down onto the step's
//! top, which must be ground (walkable). A fourth cast, down from the end of the actual
//! forward motion, places the character on the step; when it meets the riser's edge instead
//! (a rounded shape not yet over the top), the character goes forward by the probe's length,
//! at most the step's minimal width. Any failure leaves the wall a wall.

use super::slide::moved;
use super::CharacterController;
use crate::error::WorldError;
use crate::query::{QueryFilter, ShapeHit};
use crate::world::World;
use tumble_narrowphase::math::{Isometry, Vector};
use tumble_narrowphase::shape::Shape;

impl CharacterController {
    /// The translation that puts the character, stopped at `at` by `hit` with the motion
    /// `left` still to go, on top of a step; `None` when there is no step to climb. Called
    /// only for a character walking (its motion not going up) on ground.
    pub(super) fn try_step(
        &self,
        world: &World,
        shape: &Shape,
        at: &Isometry,
        left: &Vector,
        hit: &ShapeHit,
        filter: &QueryFilter<'_>,
    ) -> Result<Option<Vector>, WorldError> {
        let Some(step) = self.autostep else {
            return Ok(None);
        };
        let up = self.up;
        if !step.include_dynamic
            && world
                .body(hit.body)
                .is_some_and(|b| b.kind() == crate::body::BodyKind::Dynamic)
        {
            return Ok(None);
        }
        let horizontal = left - up * left.dot(&up);
        let length = horizontal.norm();
        let Some(dir) = horizontal.try_normalize(1e-6) else {
            return Ok(None);
        };
        // Up.
        let rise = up * step.max_height;
        let lift = match self.cast(world, shape, at, &rise, filter)? {
            Some(h) => rise * h.toi,
            None => rise,
        };
        if lift.norm() <= self.offset {
            return Ok(None);
        }
        let top = moved(at, &lift);
        // Forward, over the whole probe length, free.
        let probe = dir * length.max(step.min_width);
        if self.cast(world, shape, &top, &probe, filter)?.is_some() {
            return Ok(None);
        }
        // Down at the probe's end: the step's top must be ground.
        let drop = -lift;
        match self.cast(world, shape, &moved(&top, &probe), &drop, filter)? {
            Some(h) if h.toi > 0.0 && self.is_walkable(&h.normal) => {}
            _ => return Ok(None),
        }
        // The actual motion: forward by the horizontal motion left, then down onto the step;
        // when that lands on the riser's edge rather than on the top (a rounded shape that
        // has not reached over the top yet), forward by the probe's length, whose landing
        // was found to be ground.
        for forward in [dir * length, probe] {
            let over = moved(&top, &forward);
            if let Some(h) = self.cast(world, shape, &over, &drop, filter)? {
                if self.is_walkable(&h.normal) {
                    return Ok(Some(lift + forward + drop * h.toi));
                }
            }
        }
        Ok(None)
    }
}
