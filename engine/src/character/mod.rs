//! A kinematic character controller: moves a shape through the world by its own rules rather
//! than by forces — it slides along what it meets, climbs slopes up to an angle and treats
//! steeper ones as walls, steps onto stairs, sticks to the ground when walking down, and pushes
//! the dynamic bodies it walks into.
//!
//! The character is a shape and a pose the caller keeps (or a kinematic body moved with
//! [`World::set_next_kinematic_pose`](crate::World::set_next_kinematic_pose), excluded from
//! the queries by the filter). Each frame [`CharacterController::move_shape`] takes the
//! translation the game wants (input and gravity times `dt`) and returns the translation it
//! may make:
//!
//! 1. **Move and slide** (`slide.rs`): the shape is cast along what is left of the motion,
//!    stopping [`offset`](CharacterController::offset) short of the first body hit
//!    ([`World::cast_shape_with`](crate::World::cast_shape_with) with the offset as its skin);
//!    the rest of the motion is turned along the surface hit, and cast again, at most
//!    [`max_iterations`](CharacterController::max_iterations) times. A surface whose normal
//!    makes at most [`max_slope_climb_angle`](CharacterController::max_slope_climb_angle) with
//!    [`up`](CharacterController::up) is ground: walking into it climbs it, and below
//!    [`min_slope_slide_angle`](CharacterController::min_slope_slide_angle) gravity does not
//!    slide the character down it. A steeper surface is a wall: it stops the horizontal part of
//!    the motion (so the character cannot walk up it) and the rest slides down it.
//! 2. **Autostep** (`stairs.rs`): when a grounded character walks into a wall, the shape is
//!    cast up by the step's maximal height, forward, and down; if it lands on ground at least
//!    [`min_width`](Autostep::min_width) deep, it moves there.
//! 3. **Snap to ground**: a character that was on the ground and is not moving up is cast
//!    down by at most [`snap_to_ground`](CharacterController::snap_to_ground) after the move,
//!    so it follows a ramp or a small step down instead of flying off it.
//! 4. **Pushes** (`push.rs`): [`CharacterController::apply_pushes`] gives each dynamic body
//!    the character ran into the impulse of an inelastic collision with a body of the
//!    character's [`mass`](CharacterController::mass).
//!
//! The idea and the parameters follow rapier's `KinematicCharacterController` (offset, slope
//! angles, autostep, snap to ground) and Jolt's `CharacterVirtual` (a shape swept by repeated
//! casts, contacts reported to the game, impulses to dynamic bodies); the code is Tumble's own.
//!
//! Since every cast stops at the offset (within its tolerance of `offset / 4`), the character
//! never moves into a body it does not start in, at any speed: the casts sweep the whole
//! motion, there is no tunnelling.

mod push;
mod slide;
mod stairs;

use crate::error::WorldError;
use crate::handle::BodyHandle;
use tumble_narrowphase::math::{Point, Real, Vector};

/// Stepping onto stairs: see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Autostep {
    /// Highest step climbed, metres (> 0): the rise from the floor the character stands on to
    /// the step's top.
    pub max_height: Real,
    /// Smallest depth of a step's top, metres (≥ 0): the shape must find ground this far
    /// beyond the riser (or as far as the motion, when longer).
    pub min_width: Real,
    /// Whether dynamic bodies count as steps (false: the character pushes them instead).
    pub include_dynamic: bool,
}

/// The settings of a kinematic character; the controller keeps no state between moves. See
/// the module docs for what each does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterController {
    /// Unit vector pointing up, world frame (against gravity).
    pub up: Vector,
    /// The gap kept between the character's shape and everything else, metres (> 0, finite):
    /// each cast stops this far from what it hits. Small against the shape (1 cm for a
    /// person-sized capsule).
    pub offset: Real,
    /// Steepest slope walked up, radians in `[0, π/2]`, measured between the surface normal and
    /// [`up`](Self::up). Steeper surfaces are walls.
    pub max_slope_climb_angle: Real,
    /// Gentlest slope the character slides down under a downward motion, radians in
    /// `[0, π/2]`; below, it stands still on the slope.
    pub min_slope_slide_angle: Real,
    /// Climbing steps; `None` disables it.
    pub autostep: Option<Autostep>,
    /// Largest drop, metres (≥ 0), that the character is pulled down after a move to stay on
    /// the ground; `None` disables it.
    pub snap_to_ground: Option<Real>,
    /// Most casts of the move-and-slide loop (≥ 1): the motion still left after them is
    /// dropped.
    pub max_iterations: usize,
    /// The character's mass for pushing dynamic bodies, kg (> 0, finite).
    pub mass: Real,
}

impl Default for CharacterController {
    /// `up = +y`, offset 1 cm, climbs slopes up to 45°, slides down from 30°, no autostep,
    /// snaps down 20 cm, 8 iterations, 80 kg.
    fn default() -> Self {
        Self {
            up: Vector::y(),
            offset: 0.01,
            max_slope_climb_angle: std::f32::consts::FRAC_PI_4,
            min_slope_slide_angle: std::f32::consts::FRAC_PI_6,
            autostep: None,
            snap_to_ground: Some(0.2),
            max_iterations: 8,
            mass: 80.0,
        }
    }
}

/// One body the character ran into during a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterCollision {
    /// The body hit.
    pub body: BodyHandle,
    /// The character's translation from the start of the move to the hit, world frame, metres.
    pub translation_applied: Vector,
    /// What was left of the motion at the hit (before sliding), world frame, metres.
    pub translation_remaining: Vector,
    /// Unit normal of the hit, world frame, pointing out of the body toward the character.
    pub normal: Vector,
    /// The character's point nearest the body at the hit, world frame, metres.
    pub witness_character: Point,
    /// The body's point nearest the character at the hit, world frame, metres.
    pub witness_body: Point,
    /// The velocity the character had toward the body: the motion leg that hit it divided by
    /// the move's `dt`, world frame, m/s (what [`CharacterController::apply_pushes`] uses).
    pub velocity: Vector,
}

/// What a move did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterMove {
    /// The translation to apply to the character, world frame, metres.
    pub translation: Vector,
    /// True when the character ends the move standing on ground (a walkable surface within
    /// twice the offset below it, at least 1 mm).
    pub grounded: bool,
    /// The body it stands on, when grounded (to carry the character along with a moving
    /// platform, add that body's motion).
    pub ground: Option<BodyHandle>,
    /// The unit normal of the ground, world frame, when grounded.
    pub ground_normal: Option<Vector>,
    /// True when the move climbed a step (autostep).
    pub stepped: bool,
    /// Metres the character was pulled down by the snap to ground (0 when it was not).
    pub snapped: Real,
}

impl CharacterController {
    /// Checks every field against the range documented on it.
    pub fn validate(&self) -> Result<(), WorldError> {
        crate::error::check_vector("character up", &self.up)?;
        if (self.up.norm() - 1.0).abs() > 1e-3 {
            return Err(WorldError::OutOfRange {
                what: "character up (length)",
                value: self.up.norm(),
                min: 0.999,
                max: 1.001,
            });
        }
        if !(self.offset.is_finite() && self.offset > 0.0) {
            return Err(WorldError::NonPositive("character offset", self.offset));
        }
        let half_pi = std::f32::consts::FRAC_PI_2;
        for (what, a) in [
            ("max_slope_climb_angle", self.max_slope_climb_angle),
            ("min_slope_slide_angle", self.min_slope_slide_angle),
        ] {
            if !(0.0..=half_pi).contains(&a) {
                return Err(WorldError::OutOfRange {
                    what,
                    value: a,
                    min: 0.0,
                    max: half_pi,
                });
            }
        }
        if let Some(s) = &self.autostep {
            if !(s.max_height.is_finite() && s.max_height > 0.0) {
                return Err(WorldError::NonPositive("autostep max_height", s.max_height));
            }
            if !(s.min_width.is_finite() && s.min_width >= 0.0) {
                return Err(WorldError::Negative("autostep min_width", s.min_width));
            }
        }
        if let Some(d) = self.snap_to_ground {
            if !(d.is_finite() && d >= 0.0) {
                return Err(WorldError::Negative("snap_to_ground", d));
            }
        }
        if self.max_iterations == 0 {
            return Err(WorldError::NonPositive("character max_iterations", 0.0));
        }
        if !(self.mass.is_finite() && self.mass > 0.0) {
            return Err(WorldError::NonPositive("character mass", self.mass));
        }
        Ok(())
    }

    /// True when a surface of unit normal `n` is ground (no steeper than the climb angle).
    #[inline]
    pub fn is_walkable(&self, n: &Vector) -> bool {
        // A small allowance so that a slope of exactly the climb angle counts as ground.
        n.dot(&self.up) >= self.max_slope_climb_angle.cos() - 1e-5
    }
}
