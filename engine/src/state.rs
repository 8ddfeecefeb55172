//! The bodies' storage: generational slots with a last-in first-out free list, the coordinate
//! limit every body keeps to, the box each body has in the broad phase, and the checks of one
//! body. [`State`] is everything that determines the future of a world: what a snapshot holds.
//!
//! Invariants (checked by `World::validate`):
//! - a slot is free iff its index is in the free list, each free index once;
//! - every live body has a finite pose with a unit rotation, finite velocities, a valid
//!   material, and `inv_mass > 0` iff it is dynamic (`0` otherwise);
//! - every live body lies within `±MAX_COORDINATE` (its extent: shape AABB grown by half the
//!   prediction distance);
//! - the contact cache and the sensor-overlap list are sorted strictly by `(a.index, b.index)`
//!   with `a.index < b.index`;
//! - the accumulator lies in `[0, dt)`;
//! - the joint slots follow the body slots' free-list rules, every joint names two live bodies
//!   and `joint_pairs` is what `rebuild_joint_pairs` makes of the joints.

use crate::body::{Body, BodyKind, MassProps};
use crate::config::WorldConfig;
use crate::contact::ContactPair;
use crate::handle::BodyHandle;
use crate::joint::JointSlot;
use serde::{Deserialize, Serialize};
use tumble_narrowphase::math::{Isometry, Real, Vector};
use tumble_narrowphase::Aabb;

/// The sleeping islands (see `island`): id (the smallest slot of the island) → its slots,
/// increasing.
pub(crate) type SleepingIslands = std::collections::BTreeMap<u32, Vec<u32>>;

/// Largest absolute world coordinate (metres) a body may reach. f32 resolution there is about
/// a metre, so nothing meaningful is simulated beyond it.
///
/// The rule, the same for [`World::insert`](crate::World::insert),
/// [`World::set_pose`](crate::World::set_pose), the end of every step and
/// [`World::restore`](crate::World::restore): a body's shape AABB grown by half the
/// prediction distance must lie within `±MAX_COORDINATE` on every axis. It depends on the pose and the shape only — never on
/// the velocity, the gravity or continuous collision (whose speculative growth of the
/// broad-phase box is clipped at `±MAX_COORDINATE` instead) — so every state the live world
/// holds also restores. Insert and `set_pose` refuse a pose beyond it; a body that a step takes
/// beyond it is moved back to its pose at the start of the step, frozen and reported in
/// [`StepReport::frozen`](crate::StepReport::frozen) (as a body reached by a NaN is).
pub const MAX_COORDINATE: Real = 1.0e7;

/// True when the box lies within `±MAX_COORDINATE` on every axis (and is valid).
pub(crate) fn within_limits(b: &Aabb) -> bool {
    b.is_valid()
        && b.mins.iter().all(|x| *x >= -MAX_COORDINATE)
        && b.maxs.iter().all(|x| *x <= MAX_COORDINATE)
}

/// A slot of the body arena.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct Slot {
    pub generation: u32,
    pub body: Option<Body>,
}

/// Everything that determines the future of the world: what a snapshot holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct State {
    pub config: WorldConfig,
    pub slots: Vec<Slot>,
    /// Free slot indices, used last-in first-out.
    pub free: Vec<u32>,
    pub len: usize,
    /// Unsimulated time, seconds (f64 so that many small frames add up exactly enough).
    pub accumulator: f64,
    pub alpha: Real,
    pub step_count: u64,
    /// Contact cache, sorted by `(a.index, b.index)`.
    pub contacts: Vec<ContactPair>,
    /// Current sensor overlaps `(a, b)`, `a.index < b.index`, one of them a sensor; sorted.
    pub sensor_pairs: Vec<(BodyHandle, BodyHandle)>,
    /// Joint slots (generational, like the bodies').
    pub joints: Vec<JointSlot>,
    /// Free joint slot indices, used last-in first-out.
    pub joint_free: Vec<u32>,
    /// The body-slot pairs `(a, b)`, `a < b`, that a joint keeps from colliding (joints
    /// without `collide_connected`), sorted, each once: derived from `joints`, rebuilt on
    /// every joint change and on restore.
    #[serde(skip)]
    pub joint_pairs: Vec<(u32, u32)>,
    /// The sleeping islands (see [`crate::island`]).
    pub sleeping: SleepingIslands,
}

impl State {
    /// Rebuilds [`State::joint_pairs`] from the joints.
    pub fn rebuild_joint_pairs(&mut self) {
        self.joint_pairs = Self::joint_pairs_of(&self.joints);
    }

    /// The sorted, deduplicated body-slot pairs that the joints `joints` keep from colliding.
    pub fn joint_pairs_of(joints: &[JointSlot]) -> Vec<(u32, u32)> {
        let mut pairs: Vec<(u32, u32)> = joints
            .iter()
            .filter_map(|s| s.joint.as_ref())
            .filter(|j| !j.collide_connected)
            .map(|j| {
                let (a, b) = (j.a.index(), j.b.index());
                (a.min(b), a.max(b))
            })
            .collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Whether a joint keeps the bodies of slots `a < b` from colliding.
    #[inline]
    pub fn joint_blocks(&self, a: u32, b: u32) -> bool {
        !self.joint_pairs.is_empty() && self.joint_pairs.binary_search(&(a, b)).is_ok()
    }
}

/// Checks one body's own invariants.
pub(crate) fn validate_body(b: &Body) -> Result<(), String> {
    if !b.is_finite() || !b.prev_pose.translation.vector.iter().all(|x| x.is_finite()) {
        return Err("non-finite pose or velocity".into());
    }
    if !b.rest_pose.translation.vector.iter().all(|x| x.is_finite()) {
        return Err("non-finite rest pose".into());
    }
    for (what, q) in [
        ("rotation", b.pose.rotation),
        ("previous rotation", b.prev_pose.rotation),
        ("rest rotation", b.rest_pose.rotation),
        ("offset rotation", b.local_offset.rotation),
    ] {
        if !q.quaternion().coords.iter().all(|c| c.is_finite())
            || (q.quaternion().norm() - 1.0).abs() > 1e-3
        {
            return Err(format!("{what} is not a unit quaternion"));
        }
    }
    if !b
        .local_offset
        .translation
        .vector
        .iter()
        .all(|x| x.is_finite())
    {
        return Err("non-finite local offset".into());
    }
    if !tumble_narrowphase::math::is_finite_vector(&b.com_local) {
        return Err("non-finite centre of mass".into());
    }
    if !tumble_narrowphase::math::is_finite_vector(&b.force)
        || !tumble_narrowphase::math::is_finite_vector(&b.torque)
    {
        return Err("non-finite force or torque".into());
    }
    b.material.validate().map_err(|e| e.to_string())?;
    validate_shape(&b.shape)?;
    let dynamic = b.kind == BodyKind::Dynamic;
    if dynamic != (b.inv_mass > 0.0)
        || !b.inv_mass.is_finite()
        || (dynamic && !(b.mass > 0.0 && b.mass.is_finite()))
    {
        return Err(format!(
            "kind {:?} with inverse mass {}",
            b.kind, b.inv_mass
        ));
    }
    if !b.inv_inertia_local.iter().all(|x| x.is_finite()) {
        return Err("non-finite inverse inertia".into());
    }
    // Mass, inverse mass, inverse inertia and centre of mass are derived from the kind, shape,
    // density and offset: exactly what insert computed (so mass = 1 / inverse mass and the
    // inverse inertia is the shape's, positive definite).
    let expected = MassProps::of(b.kind, &b.shape, b.material.density, &b.local_offset)
        .map_err(|e| format!("mass properties: {e}"))?;
    let stored = MassProps::stored(b);
    if !expected.same_bits(&stored) {
        return Err(format!(
            "stored mass properties {stored:?} are not those of its shape, density and offset \
             {expected:?}"
        ));
    }
    if b.kind == BodyKind::Static && (b.linvel != Vector::zeros() || b.angvel != Vector::zeros()) {
        return Err("static body with a velocity".into());
    }
    Ok(())
}

/// Checks a shape's parameters as its constructor would (for decoded snapshots); a compound's
/// invariants ([`Compound::validate`](tumble_narrowphase::shape::Compound::validate)) and each
/// of its children.
pub(crate) fn validate_shape(s: &tumble_narrowphase::Shape) -> Result<(), String> {
    use tumble_narrowphase::shape::{Ball, Cuboid, Shape};
    match s {
        Shape::Ball(b) => {
            Ball::new(b.radius()).map_err(|e| e.to_string())?;
        }
        Shape::Cuboid(c) => {
            Cuboid::new(c.half_extents()).map_err(|e| e.to_string())?;
        }
        Shape::Compound(c) => {
            c.validate().map_err(|e| e.to_string())?;
            for (i, (_, child)) in c.children().iter().enumerate() {
                validate_shape(child).map_err(|e| format!("compound child {i}: {e}"))?;
            }
        }
        _ => {}
    }
    let aabb = s.aabb(&Isometry::identity());
    if !aabb.is_valid() {
        return Err("shape with a non-finite AABB".into());
    }
    Ok(())
}

/// What the broad phase stores for a body: its shape's world AABB grown by the speculative
/// margin (half the prediction distance plus the CCD margin), clipped to `±MAX_COORDINATE`
/// (so an enormous velocity grows the box to the world's edge, never to infinity). `None`
/// when the body's extent — the shape's AABB grown by half the prediction distance, which
/// depends on the pose and the shape only — is not finite or passes `MAX_COORDINATE` (the
/// rule of [`MAX_COORDINATE`]).
///
/// A pure function of the body and the configuration, both stored in snapshots: every
/// proxy holds exactly this box between calls (checked by `World::validate`), so a
/// restored world rebuilds the same broad phase and steps on bit-identically.
pub(crate) fn broad_aabb(config: &WorldConfig, b: &Body) -> Option<Aabb> {
    let tight = b.shape.aabb(&b.shape_pose());
    if !within_limits(&tight.loosened(0.5 * config.prediction_distance)) {
        return None;
    }
    let fat = tight.loosened(0.5 * config.prediction_distance + ccd_margin(config, b));
    let m = MAX_COORDINATE;
    Some(Aabb::new_unchecked(
        fat.mins.map(|x| x.max(-m)),
        fat.maxs.map(|x| x.min(m)),
    ))
}

/// Extra speculative distance of a fast body: how far it moves in one step (metres), when
/// continuous collision applies to it.
#[inline]
pub(crate) fn ccd_margin(config: &WorldConfig, b: &Body) -> Real {
    if config.ccd && b.ccd && b.is_moving() {
        // Also covers the velocity gravity adds before the next broad phase.
        (b.linvel.norm() + config.gravity.norm() * config.dt) * config.dt
    } else {
        0.0
    }
}
