//! The world: owns the bodies, the broad phase, the contact cache, the accumulator and every
//! scratch buffer a step needs. See [`crate::step`] for the stages of a step.
//!
//! Invariants (checked by [`World::validate`]):
//! - a slot is free iff its index is in the free list, each free index once;
//! - every live body has a finite pose with a unit rotation, finite velocities, a valid
//!   material, and `inv_mass > 0` iff it is dynamic (`0` otherwise);
//! - every live body lies within `±MAX_COORDINATE` (its extent: shape AABB grown by half the
//!   prediction distance) and has exactly one broad-phase proxy whose user data is its slot
//!   index and whose AABB is exactly the body's `broad_aabb` (which contains the shape): a
//!   pure function of the body and the configuration, so a restored snapshot rebuilds the same
//!   broad phase;
//! - the contact cache and the sensor-overlap list are sorted strictly by `(a.index, b.index)`
//!   with `a.index < b.index`;
//! - the accumulator lies in `[0, dt)` (so one [`World::advance`] runs a bounded number of
//!   steps);
//! - the sleep state is consistent: see [`crate::island`] for its invariants (sleeping bodies
//!   dynamic, at rest, listed in their island; islands listing only their sleeping bodies).

use crate::body::{Body, BodyBuilder, BodyKind, BodyView};
use crate::config::WorldConfig;
use crate::contact::{validate_manifold, ContactInfo};
use crate::error::{check_isometry, check_vector, WorldError};
use crate::events::{Advance, Event, StepReport};
use crate::handle::BodyHandle;
use crate::island;
use crate::material::{CombineRule, Material};
use crate::pose::interpolate_pose;
use crate::proxies::BodyProxies;
use crate::stage::StageTimes;
use crate::state::{broad_aabb, validate_body, Slot, State};
use crate::step::{self, Scratch, StepContext, StepOutput};
use tumble_broadphase::{BroadPhase, ProxyHandle};
use tumble_narrowphase::math::{Isometry, Point, Real, Vector};

/// A simulated world: bodies, their contacts, and the clock. See the crate docs for an example.
///
/// Snapshots: whatever state a world reaches through its public calls (inserts, setters,
/// steps, freezes), [`World::snapshot`] of it restores with [`World::restore`] (same
/// validation rules for live calls, step results and restore: see
/// [`MAX_COORDINATE`](crate::MAX_COORDINATE) and [`World::validate`]), to a world with the same [`state_hash`](World::state_hash) that steps
/// on bit-identically.
///
/// Handles: a [`BodyHandle`] names a slot and its generation, not a world; a handle of one
/// world used with another names that world's body in the same slot, if any (see
/// [`BodyHandle`] for why).
pub struct World {
    pub(crate) state: State,
    /// The broad phase, one proxy per body.
    pub(crate) proxies: BodyProxies,
    pub(crate) scratch: Scratch,
    /// Stage times, events and counts of the last step.
    pub(crate) out: StepOutput,
    /// The events of every step of the last [`World::step`] or [`World::advance`] call, in
    /// order (what [`World::events`] shows).
    pub(crate) events: Vec<Event>,
    /// The contact cache's pairs grouped by their body `b`, built by the first
    /// [`World::contacts_of`] after a step (emptied by every step and restore).
    pub(crate) contact_index: std::sync::OnceLock<crate::contact::ContactIndex>,
}

impl std::fmt::Debug for World {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("World")
            .field("bodies", &self.state.len)
            .field("steps", &self.state.step_count)
            .field("contact_pairs", &self.state.contacts.len())
            .finish()
    }
}

impl World {
    /// An empty world; errors naming the first invalid field of `config`.
    pub fn new(config: WorldConfig) -> Result<World, WorldError> {
        config.validate()?;
        let proxies = BodyProxies::new(config.broad_phase, config.max_pairs);
        Ok(World {
            state: State {
                config,
                slots: Vec::new(),
                free: Vec::new(),
                len: 0,
                accumulator: 0.0,
                alpha: 0.0,
                step_count: 0,
                contacts: Vec::new(),
                sensor_pairs: Vec::new(),
                joints: Vec::new(),
                joint_free: Vec::new(),
                joint_pairs: Vec::new(),
                sleeping: Default::default(),
            },
            proxies,
            scratch: Scratch::default(),
            out: StepOutput::default(),
            events: Vec::new(),
            contact_index: std::sync::OnceLock::new(),
        })
    }

    /// The configuration the world was made with (gravity may have changed since).
    pub fn config(&self) -> &WorldConfig {
        &self.state.config
    }

    /// Sets gravity (world frame, m/s²); errors on a non-finite vector. Wakes every sleeping
    /// island. With continuous collision on, the broad-phase boxes of CCD bodies (whose margin
    /// covers the velocity gravity adds in one step) are refreshed now: O(bodies).
    pub fn set_gravity(&mut self, g: Vector) -> Result<(), WorldError> {
        check_vector("gravity", &g)?;
        self.scratch.disturb();
        self.state.config.gravity = g;
        let mut woken = Vec::new();
        island::wake_all(&mut self.state, &mut woken);
        self.refresh_ccd_boxes()
    }

    /// Sets the fixed step `dt` (seconds), checked as [`WorldConfig::validate`] checks it (in
    /// `[MIN_DT, MAX_DT]` and at most `max_frame_time`); nothing changes on error. Wakes every
    /// sleeping island. Unsimulated time in the accumulator is kept while shorter than the new
    /// step, else cut to just under it, and [`World::alpha`] follows; the broad-phase boxes of
    /// CCD bodies (whose margin is a step's motion) are refreshed: O(bodies).
    pub fn set_dt(&mut self, dt: Real) -> Result<(), WorldError> {
        let mut config = self.state.config.clone();
        config.dt = dt;
        config.validate()?;
        self.scratch.disturb();
        self.state.config = config;
        let step = dt as f64;
        if self.state.accumulator >= step {
            // The largest f64 below `step`: the accumulator stays in `[0, dt)`.
            self.state.accumulator = f64::from_bits(step.to_bits() - 1);
        }
        self.state.alpha = ((self.state.accumulator / step) as Real).clamp(0.0, 1.0);
        let mut woken = Vec::new();
        island::wake_all(&mut self.state, &mut woken);
        self.refresh_ccd_boxes()
    }

    /// With continuous collision on, puts every body's current broad-phase box into its proxy
    /// (the margins of CCD bodies depend on gravity and `dt`).
    fn refresh_ccd_boxes(&mut self) -> Result<(), WorldError> {
        if self.state.config.ccd {
            let mut updates = Vec::new();
            for (i, s) in self.state.slots.iter().enumerate() {
                if let Some(b) = &s.body {
                    if let Some(aabb) = broad_aabb(&self.state.config, b) {
                        updates.push((self.proxies.of_body[i], aabb));
                    }
                }
            }
            self.proxies
                .broad
                .update_batch(&updates)
                .map_err(WorldError::BroadPhase)?;
        }
        Ok(())
    }

    /// Wakes the sleeping island of body `h`, and with `touching` the islands of every body
    /// with a cached contact pair with it (see [`crate::island`]); the woken bodies' proxies
    /// take their awake boxes.
    fn wake_around(&mut self, h: BodyHandle, touching: bool) {
        self.scratch.disturb();
        let mut woken = Vec::new();
        if touching {
            island::wake_touching(&mut self.state, h.index(), &mut woken);
        } else {
            island::wake_island(&mut self.state, h.index(), &mut woken);
        }
        self.refresh_woken(&woken);
    }

    /// Puts the current boxes of the bodies in slots `woken` into their proxies (a box changes
    /// only for a body with continuous collision, whose margin a sleeping body does not have).
    fn refresh_woken(&mut self, woken: &[u32]) {
        for &w in woken {
            let Some(b) = self.state.slots[w as usize].body.as_ref() else {
                continue;
            };
            let proxy = self.proxies.of_body[w as usize];
            if let Some(aabb) = broad_aabb(&self.state.config, b) {
                if self.proxies.broad.aabb(proxy).ok() != Some(aabb) {
                    // The proxy is live (checked by `aabb`) and the box finite: cannot fail.
                    let _ = self.proxies.broad.update(proxy, aabb);
                }
            }
        }
    }

    /// Wakes body `h`'s island (see [`crate::island`]): its bodies move again from the next
    /// step. Nothing happens to an awake body. Errors on a stale handle.
    pub fn wake_up(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        self.get(h)?;
        self.wake_around(h, false);
        Ok(())
    }

    /// Puts body `h`'s island asleep now (see [`crate::island`]): the dynamic bodies connected
    /// to it by touching contacts in the contact cache (and the sleeping islands they touch)
    /// stop, their velocities zero, until something wakes them. Links that only a step knows
    /// of (joints) are not followed. O(contact pairs). Errors: a stale handle
    /// ([`WorldError::StaleHandle`]); a body that is not dynamic or is frozen
    /// ([`WorldError::NotDynamic`]); sleeping off, or a body of the island that may not sleep
    /// ([`WorldError::Config`]). Nothing changes on error.
    pub fn sleep(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let b = self.get(h)?;
        if !b.is_dynamic_kind() {
            return Err(WorldError::NotDynamic(h));
        }
        if !self.state.config.sleep {
            return Err(WorldError::Config(
                "a body cannot be put to sleep in a world without sleeping".into(),
            ));
        }
        if b.is_sleeping() {
            return Ok(());
        }
        let slept = island::sleep_now(&mut self.state, h.index())
            .map_err(|e| WorldError::Config(e.into()))?;
        self.scratch.disturb();
        // Their continuous-collision margins are gone.
        self.refresh_woken(&slept);
        Ok(())
    }

    /// Number of sleeping bodies.
    pub fn sleeping_body_count(&self) -> usize {
        self.state.sleeping.values().map(Vec::len).sum()
    }

    /// Puts the [`broad_aabb`](World::broad_aabb) of body `h` into its proxy, after a call
    /// changed something its margin depends on (velocity, frozen flag) but not its pose.
    /// Leaves the broad phase untouched when the box is unchanged (bodies without CCD).
    fn refresh_proxy(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let b = self.get(h)?;
        let proxy = self.proxies.of_body[h.index() as usize];
        let Some(aabb) = broad_aabb(&self.state.config, b) else {
            // The pose did not change, and it was within the limits.
            return Err(WorldError::NonFinite(
                "body AABB (pose beyond MAX_COORDINATE)",
            ));
        };
        let bp = WorldError::BroadPhase;
        if self.proxies.broad.aabb(proxy).map_err(bp)? != aabb {
            self.proxies.broad.update(proxy, aabb).map_err(bp)?;
        }
        Ok(())
    }

    /// Number of live bodies.
    pub fn len(&self) -> usize {
        self.state.len
    }

    /// True when the world holds no body.
    pub fn is_empty(&self) -> bool {
        self.state.len == 0
    }

    /// Fixed steps run since the world was made.
    pub fn step_count(&self) -> u64 {
        self.state.step_count
    }

    /// Unsimulated time in the accumulator, seconds.
    pub fn accumulator(&self) -> Real {
        self.state.accumulator as Real
    }

    /// The blend factor of the last [`advance`](World::advance) (1 after a bare [`step`](World::step)).
    pub fn alpha(&self) -> Real {
        self.state.alpha
    }

    /// Adds a body; validates every field of the builder. Returns its handle. A body built
    /// [`sleeping`](BodyBuilder::sleeping) is inserted asleep, as an island of its own; that
    /// needs [`WorldConfig::sleep`] on ([`WorldError::Config`] otherwise). A static body wakes
    /// the sleeping islands whose boxes its box overlaps (an awake or kinematic body meets them
    /// in the next step, and wakes them if it touches them).
    /// A dynamic body with a triangle mesh or heightfield is refused with
    /// [`WorldError::DynamicMesh`]; static and kinematic ones may have them.
    pub fn insert(&mut self, builder: BodyBuilder) -> Result<BodyHandle, WorldError> {
        let asleep = builder.sleeping;
        if asleep && !self.state.config.sleep {
            return Err(WorldError::Config(
                "a body cannot be inserted asleep in a world without sleeping".into(),
            ));
        }
        let body = builder.build()?;
        self.scratch.disturb();
        let Some(aabb) = broad_aabb(&self.state.config, &body) else {
            return Err(WorldError::NonFinite(
                "body AABB (pose or size beyond MAX_COORDINATE)",
            ));
        };
        let index = match self.state.free.last() {
            Some(&i) => i,
            None => {
                if self.state.slots.len() >= (u32::MAX - 1) as usize {
                    return Err(WorldError::Config("too many bodies".into()));
                }
                self.state.slots.len() as u32
            }
        };
        let proxy = self
            .proxies
            .broad
            .insert(aabb, index as u64)
            .map_err(WorldError::BroadPhase)?;
        if self.state.free.pop().is_none() {
            self.state.slots.push(Slot {
                generation: 0,
                body: None,
            });
            self.proxies.of_body.push(ProxyHandle::invalid());
        }
        let slot = &mut self.state.slots[index as usize];
        slot.body = Some(body);
        let generation = slot.generation;
        self.proxies.of_body[index as usize] = proxy;
        self.proxies.set_body_of_proxy(proxy, index);
        self.state.len += 1;
        if asleep {
            island::sleep_alone(&mut self.state, index);
        } else if self.state.slots[index as usize]
            .body
            .as_ref()
            .is_some_and(|b| b.kind == BodyKind::Static)
            && !self.state.sleeping.is_empty()
        {
            // A static body is never active: the sleeping bodies its box overlaps would not
            // meet it until something woke them.
            let mut found = Vec::new();
            self.proxies.broad.query_aabb(&aabb, &mut found);
            let mut woken = Vec::new();
            for p in found {
                if let Some(&i) = self.proxies.body_of_proxy.get(p.index() as usize) {
                    island::wake_island(&mut self.state, i, &mut woken);
                }
            }
            self.refresh_woken(&woken);
        }
        Ok(BodyHandle::new(index, generation))
    }

    /// Removes a body and its joints, and returns the handles of the joints removed with it
    /// (in handle order). Its contacts end with [`Event::ContactStopped`] (and sensor overlaps
    /// with [`Event::SensorExit`]) at the next step. Wakes its island, the islands of every
    /// body it has a cached contact with, and those of the bodies its joints held.
    pub fn remove(&mut self, h: BodyHandle) -> Result<Vec<crate::handle::JointHandle>, WorldError> {
        self.get(h)?;
        self.wake_around(h, true);
        let joints = self.remove_joints_of(h);
        let i = h.index() as usize;
        let proxy = self.proxies.of_body[i];
        self.proxies
            .broad
            .remove(proxy)
            .map_err(WorldError::BroadPhase)?;
        if let Some(p) = self.proxies.body_of_proxy.get_mut(proxy.index() as usize) {
            *p = u32::MAX;
        }
        self.proxies.of_body[i] = ProxyHandle::invalid();
        let slot = &mut self.state.slots[i];
        slot.body = None;
        slot.generation = slot.generation.wrapping_add(1);
        self.state.free.push(h.index());
        self.state.len -= 1;
        Ok(joints)
    }

    pub(crate) fn get(&self, h: BodyHandle) -> Result<&Body, WorldError> {
        match self.state.slots.get(h.index() as usize) {
            Some(Slot {
                generation,
                body: Some(b),
            }) if *generation == h.generation() => Ok(b),
            _ => Err(WorldError::StaleHandle(h)),
        }
    }

    /// The body `h`, to be changed: the next step runs in full ([`Scratch::disturb`]).
    pub(crate) fn get_mut(&mut self, h: BodyHandle) -> Result<&mut Body, WorldError> {
        self.scratch.disturb();
        match self.state.slots.get_mut(h.index() as usize) {
            Some(Slot {
                generation,
                body: Some(b),
            }) if *generation == h.generation() => Ok(b),
            _ => Err(WorldError::StaleHandle(h)),
        }
    }

    /// True when `h` names a live body.
    pub fn contains(&self, h: BodyHandle) -> bool {
        self.get(h).is_ok()
    }

    /// A read-only view of a body, or None for a stale handle.
    pub fn body(&self, h: BodyHandle) -> Option<BodyView<'_>> {
        self.get(h).ok().map(|body| BodyView {
            body,
            alpha: self.state.alpha,
        })
    }

    /// Every live body, in handle order.
    pub fn bodies(&self) -> impl Iterator<Item = (BodyHandle, BodyView<'_>)> + '_ {
        self.state.slots.iter().enumerate().filter_map(|(i, s)| {
            s.body.as_ref().map(|body| {
                let view = BodyView {
                    body,
                    alpha: self.state.alpha,
                };
                (BodyHandle::new(i as u32, s.generation), view)
            })
        })
    }

    /// The pose to draw: the last two stored poses blended by the last `alpha` (translation
    /// lerped, rotation slerped; see [`interpolate_pose`]). None for a stale handle.
    pub fn render_pose(&self, h: BodyHandle) -> Option<Isometry> {
        let b = self.get(h).ok()?;
        Some(interpolate_pose(&b.prev_pose, &b.pose, self.state.alpha))
    }

    /// The body's pose at the start of the last step (the "previous" state of interpolation).
    pub fn previous_pose(&self, h: BodyHandle) -> Option<Isometry> {
        self.get(h).ok().map(|b| b.prev_pose)
    }

    /// Teleports a body: sets its pose (body frame, world) and its previous pose too, so it is
    /// not interpolated across the jump. Wakes its island and those of the bodies it had a
    /// cached contact with. Errors on a non-finite pose or a stale handle.
    pub fn set_pose(&mut self, h: BodyHandle, pose: Isometry) -> Result<(), WorldError> {
        check_isometry("pose", &pose)?;
        let mut pose = pose;
        pose.rotation.renormalize();
        let config = self.state.config.clone();
        let b = self.get_mut(h)?;
        let old = (b.pose, b.prev_pose);
        b.pose = pose;
        b.prev_pose = pose;
        let Some(aabb) = broad_aabb(&config, b) else {
            let b = self.get_mut(h)?;
            (b.pose, b.prev_pose) = old;
            return Err(WorldError::NonFinite(
                "body AABB (pose beyond MAX_COORDINATE)",
            ));
        };
        let proxy = self.proxies.of_body[h.index() as usize];
        if let Err(e) = self.proxies.broad.update(proxy, aabb) {
            let b = self.get_mut(h)?;
            (b.pose, b.prev_pose) = old;
            return Err(WorldError::BroadPhase(e));
        }
        self.wake_around(h, true);
        Ok(())
    }

    /// Teleports a body to a new position of its frame's origin (world, metres), keeping its rotation.
    pub fn set_translation(&mut self, h: BodyHandle, t: Vector) -> Result<(), WorldError> {
        let mut pose = self.get(h)?.pose;
        pose.translation.vector = t;
        self.set_pose(h, pose)
    }

    fn movable(&mut self, h: BodyHandle) -> Result<&mut Body, WorldError> {
        let b = self.get_mut(h)?;
        if b.kind == BodyKind::Static {
            return Err(WorldError::NotDynamic(h));
        }
        Ok(b)
    }

    fn dynamic(&mut self, h: BodyHandle) -> Result<&mut Body, WorldError> {
        let b = self.get_mut(h)?;
        if b.kind != BodyKind::Dynamic {
            return Err(WorldError::NotDynamic(h));
        }
        Ok(b)
    }

    /// Sets the linear velocity of the centre of mass (world, m/s) of a dynamic or kinematic
    /// body; wakes its island (a kinematic body: the islands it has a cached contact with).
    pub fn set_linvel(&mut self, h: BodyHandle, v: Vector) -> Result<(), WorldError> {
        check_vector("linear velocity", &v)?;
        let kinematic = self.movable(h)?.kind == BodyKind::Kinematic;
        self.movable(h)?.linvel = v;
        self.wake_around(h, kinematic);
        self.refresh_proxy(h)
    }

    /// Drives kinematic body `h` to `pose` (body frame, world) over the next step: sets its
    /// linear and angular velocities so that the step's integration of a kinematic body
    /// (centre of mass moved by `dt·v`, rotation turned by `ω·dt`) ends at `pose`, up to
    /// rounding. The body moves through the step like any other (contacts see its velocity,
    /// [`World::render_pose`] blends from its previous pose), unlike [`World::set_pose`],
    /// which teleports. The velocities stay after the step: call this every step with the next
    /// target (with the current pose to stop). Errors on a non-finite or non-unit pose, a
    /// stale handle, a body that is not kinematic ([`WorldError::NotKinematic`]), or velocities
    /// that would not be finite. Wakes the sleeping islands the body has a cached contact with,
    /// as [`World::set_linvel`] does.
    pub fn set_next_kinematic_pose(
        &mut self,
        h: BodyHandle,
        pose: Isometry,
    ) -> Result<(), WorldError> {
        check_isometry("kinematic target pose", &pose)?;
        let dt = self.state.config.dt;
        let b = self.get(h)?;
        if b.kind != BodyKind::Kinematic {
            return Err(WorldError::NotKinematic(h));
        }
        let mut target = pose;
        target.rotation.renormalize();
        let com_target = target.translation.vector + target.rotation * b.com_local;
        let v = (com_target - b.com()) / dt;
        // The turn from the current rotation to the target's, as an angular velocity over dt.
        // The integrator turns small steps (ω·dt < 0.1) to first order, `q + dt/2·(0, ω)·q`
        // normalised, which turns by 2·atan(|ω|·dt/2): ask it for 2·tan(θ/2)/dt there.
        let delta = target.rotation * b.pose.rotation.inverse();
        let (axis, angle) = delta
            .axis_angle()
            .map_or((Vector::zeros(), 0.0), |(a, t)| (a.into_inner(), t));
        let first_order = 2.0 * (0.5 * angle).tan();
        let w = if first_order < 0.1 {
            axis * (first_order / dt)
        } else {
            axis * (angle / dt)
        };
        check_vector("kinematic velocity", &v)?;
        check_vector("kinematic angular velocity", &w)?;
        let b = self.get_mut(h)?;
        b.linvel = v;
        b.angvel = w;
        self.wake_around(h, true);
        self.refresh_proxy(h)
    }

    /// Sets a body's collision groups from the next step on: two bodies interact when
    /// `a.memberships & b.filter != 0` and `b.memberships & a.filter != 0`. Contacts with bodies
    /// it no longer interacts with end (with [`Event::ContactStopped`]) at the next step.
    pub fn set_collision_groups(
        &mut self,
        h: BodyHandle,
        memberships: u32,
        filter: u32,
    ) -> Result<(), WorldError> {
        let b = self.get_mut(h)?;
        b.memberships = memberships;
        b.filter = filter;
        self.wake_around(h, true);
        Ok(())
    }

    /// Makes a body a sensor (it reports overlaps and takes no contact response) or a solid
    /// body, from the next step on. Wakes its island and those of the bodies it has a cached
    /// contact with.
    pub fn set_sensor(&mut self, h: BodyHandle, sensor: bool) -> Result<(), WorldError> {
        self.get_mut(h)?.sensor = sensor;
        self.wake_around(h, true);
        Ok(())
    }

    /// Changes a body's kind from the next step on. Its mass properties become those of the
    /// new kind (a dynamic body's from its shape, density and offset, as [`World::insert`]
    /// computes them; none for static and kinematic bodies). A body made static loses its
    /// velocity and its accumulated force and torque; one made kinematic keeps its velocity
    /// (it moves on at it); one made dynamic starts from its current velocity. Wakes its
    /// island and those of the bodies it has a cached contact with.
    ///
    /// Errors, changing nothing: a stale handle; a dynamic kind for a mesh or heightfield
    /// ([`WorldError::DynamicMesh`]) or a shape without usable mass; a body whose joint would
    /// be left without a dynamic body ([`WorldError::Joint`]: remove the joint first).
    pub fn set_body_kind(&mut self, h: BodyHandle, kind: BodyKind) -> Result<(), WorldError> {
        let b = self.get(h)?;
        if b.kind == kind {
            return Ok(());
        }
        let props =
            crate::body::MassProps::of(kind, &b.shape, b.material.density, &b.local_offset)?;
        if kind != BodyKind::Dynamic {
            let dynamic =
                |o: BodyHandle| o != h && self.get(o).is_ok_and(|b| b.kind == BodyKind::Dynamic);
            let stranded = self
                .state
                .joints
                .iter()
                .filter_map(|s| s.joint.as_ref())
                .any(|j| (j.a == h || j.b == h) && !dynamic(if j.a == h { j.b } else { j.a }));
            if stranded {
                return Err(WorldError::Joint(
                    "the body is the only dynamic body of a joint: remove the joint first",
                ));
            }
        }
        // Woken first: a sleeping island is woken as a whole, with the body still in it.
        self.wake_around(h, true);
        let b = self.get_mut(h)?;
        b.kind = kind;
        b.com_local = props.com_local;
        b.mass = props.mass;
        b.inv_mass = props.inv_mass;
        b.inv_inertia_local = props.inv_inertia_local;
        b.sleep_time = 0.0;
        if kind == BodyKind::Static {
            b.linvel = Vector::zeros();
            b.angvel = Vector::zeros();
            b.force = Vector::zeros();
            b.torque = Vector::zeros();
        }
        // The continuous-collision margin depends on the kind.
        self.refresh_proxy(h)
    }

    /// Turns contacts with static and kinematic bodies on or off for a body, from the next step
    /// on (see [`BodyBuilder::kinematic_contacts`]); contacts that end this way end with
    /// [`Event::ContactStopped`] at the next step.
    pub fn set_kinematic_contacts(&mut self, h: BodyHandle, on: bool) -> Result<(), WorldError> {
        self.get_mut(h)?.kinematic_contacts = on;
        self.scratch.disturb();
        Ok(())
    }

    /// Sets the user data a body carries (any `u64`: an entity id, an index).
    pub fn set_user_data(&mut self, h: BodyHandle, data: u64) -> Result<(), WorldError> {
        self.get_mut(h)?.user_data = data;
        Ok(())
    }

    /// Sets a body's friction coefficient (dimensionless, ≥ 0) from the next step on. Errors on
    /// a negative or non-finite value or a stale handle, changing nothing.
    pub fn set_friction(&mut self, h: BodyHandle, friction: Real) -> Result<(), WorldError> {
        self.set_surface(h, |m| m.friction = friction)
    }

    /// Sets a body's restitution (in `[0, 1]`) from the next step on. Errors on a value outside
    /// `[0, 1]` or a stale handle, changing nothing.
    pub fn set_restitution(&mut self, h: BodyHandle, restitution: Real) -> Result<(), WorldError> {
        self.set_surface(h, |m| m.restitution = restitution)
    }

    /// Sets how a body's friction and restitution combine with another's (see
    /// [`CombineRule`]), from the next step on.
    pub fn set_combine_rules(
        &mut self,
        h: BodyHandle,
        friction: CombineRule,
        restitution: CombineRule,
    ) -> Result<(), WorldError> {
        self.set_surface(h, |m| {
            m.friction_combine = friction;
            m.restitution_combine = restitution;
        })
    }

    /// Changes body `h`'s material by `change`, if the result is valid; wakes its island and
    /// those of the bodies it has a cached contact with (friction and restitution change how
    /// they rest).
    fn set_surface(
        &mut self,
        h: BodyHandle,
        change: impl FnOnce(&mut Material),
    ) -> Result<(), WorldError> {
        let b = self.get_mut(h)?;
        let mut m = b.material;
        change(&mut m);
        m.validate()?;
        b.material = m;
        self.wake_around(h, true);
        Ok(())
    }

    /// Sets the angular velocity (world, rad/s) of a dynamic or kinematic body; wakes its
    /// island (a kinematic body: the islands it has a cached contact with).
    pub fn set_angvel(&mut self, h: BodyHandle, w: Vector) -> Result<(), WorldError> {
        check_vector("angular velocity", &w)?;
        let kinematic = self.movable(h)?.kind == BodyKind::Kinematic;
        self.movable(h)?.angvel = w;
        self.wake_around(h, kinematic);
        Ok(())
    }

    /// Adds a force (world frame, N) at the centre of mass of a dynamic body; wakes its island.
    /// Forces persist: they act during every step until [`clear_forces`](World::clear_forces)
    /// (a sleeping body keeps its force without being woken by it again).
    pub fn apply_force(&mut self, h: BodyHandle, f: Vector) -> Result<(), WorldError> {
        self.accumulate(h, f, ["force", "accumulated force"], |b| &mut b.force)
    }

    /// Adds a torque (world frame, N·m) to a dynamic body; persists like forces and wakes its
    /// island.
    pub fn apply_torque(&mut self, h: BodyHandle, t: Vector) -> Result<(), WorldError> {
        self.accumulate(h, t, ["torque", "accumulated torque"], |b| &mut b.torque)
    }

    /// Adds `v` to the accumulator `acc` of the dynamic body `h`. Refuses, changing nothing, a
    /// non-finite `v` or sum (named by `names[0]` and `names[1]`) or a body that is not dynamic.
    fn accumulate(
        &mut self,
        h: BodyHandle,
        v: Vector,
        names: [&'static str; 2],
        acc: fn(&mut Body) -> &mut Vector,
    ) -> Result<(), WorldError> {
        check_vector(names[0], &v)?;
        let slot = acc(self.dynamic(h)?);
        let sum = *slot + v;
        check_vector(names[1], &sum)?;
        *slot = sum;
        self.wake_around(h, false);
        Ok(())
    }

    /// Removes every force and torque from a body; wakes its island.
    pub fn clear_forces(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let b = self.get_mut(h)?;
        b.force = Vector::zeros();
        b.torque = Vector::zeros();
        self.wake_around(h, false);
        Ok(())
    }

    /// Applies an impulse (world frame, N·s) at the centre of mass of a dynamic body: its
    /// velocity changes now by `j / m`; wakes its island.
    pub fn apply_impulse(&mut self, h: BodyHandle, j: Vector) -> Result<(), WorldError> {
        check_vector("impulse", &j)?;
        let b = self.dynamic(h)?;
        let v = b.linvel + j * b.inv_mass;
        check_vector("velocity after impulse", &v)?;
        b.linvel = v;
        self.wake_around(h, false);
        self.refresh_proxy(h)
    }

    /// Applies an impulse (world frame, N·s) at a world point (metres) of a dynamic body: it
    /// changes both the linear and the angular velocity; wakes its island.
    pub fn apply_impulse_at_point(
        &mut self,
        h: BodyHandle,
        j: Vector,
        point: Point,
    ) -> Result<(), WorldError> {
        check_vector("impulse", &j)?;
        check_vector("impulse point", &point.coords)?;
        let b = self.dynamic(h)?;
        let r = point.coords - b.com();
        let v = b.linvel + j * b.inv_mass;
        let w = b.angvel + b.inv_inertia_world() * r.cross(&j);
        check_vector("velocity after impulse", &v)?;
        check_vector("angular velocity after impulse", &w)?;
        b.linvel = v;
        b.angvel = w;
        self.wake_around(h, false);
        self.refresh_proxy(h)
    }

    /// Makes a frozen body dynamic again (at rest). Errors on a stale handle.
    pub fn unfreeze(&mut self, h: BodyHandle) -> Result<(), WorldError> {
        let b = self.get_mut(h)?;
        b.frozen = false;
        b.linvel = Vector::zeros();
        b.angvel = Vector::zeros();
        b.force = Vector::zeros();
        b.torque = Vector::zeros();
        self.refresh_proxy(h)
    }

    /// Advances the clock by a real frame time (seconds, finite, ≥ 0): adds
    /// `min(frame_seconds, max_frame_time)` to the accumulator, runs as many fixed steps as fit
    /// (at most [`max_steps_per_frame`](WorldConfig::max_steps_per_frame); the time of the steps
    /// beyond is dropped and reported in [`Advance::dropped_seconds`]), and sets
    /// `alpha = accumulator / dt` for [`render_pose`](World::render_pose)
    /// (Fiedler, "Fix Your Timestep!"). Afterwards the accumulator lies in `[0, dt)`.
    pub fn advance(&mut self, frame_seconds: Real) -> Result<Advance, WorldError> {
        crate::error::check_finite("frame time", frame_seconds)?;
        if frame_seconds < 0.0 {
            return Err(WorldError::Negative("frame time", frame_seconds));
        }
        let frame = frame_seconds.min(self.state.config.max_frame_time) as f64;
        let dt = self.state.config.dt as f64;
        let max_steps = self.state.config.max_steps_per_frame;
        self.state.accumulator += frame;
        let mut out = Advance::default();
        self.events.clear();
        while out.steps < max_steps && self.state.accumulator >= dt {
            let r = self.step_now();
            out.report.merge(r);
            self.state.accumulator -= dt;
            out.steps += 1;
        }
        if self.state.accumulator >= dt {
            // More steps were due than allowed: keep only the part of a step.
            let kept = self.state.accumulator % dt;
            out.dropped_seconds = (self.state.accumulator - kept) as Real;
            self.state.accumulator = kept;
        }
        self.state.alpha = ((self.state.accumulator / dt) as Real).clamp(0.0, 1.0);
        out.alpha = self.state.alpha;
        Ok(out)
    }

    /// One step over the world's parts (see [`crate::step`]); appends its events to those of
    /// the current call.
    fn step_now(&mut self) -> StepReport {
        let report = step::step(StepContext {
            state: &mut self.state,
            proxies: &mut self.proxies,
            scratch: &mut self.scratch,
            out: &mut self.out,
        });
        self.events.extend_from_slice(&self.out.events);
        step::shrink_sparse(&mut self.events);
        self.contact_index = std::sync::OnceLock::new();
        report
    }

    /// Runs one fixed step of `dt` now, outside the accumulator; afterwards the render pose is
    /// the current pose (`alpha = 1`). Never panics on a validated world.
    pub fn step(&mut self) -> StepReport {
        self.events.clear();
        let r = self.step_now();
        self.state.alpha = 1.0;
        r
    }

    /// Time spent in each stage of the last step.
    pub fn stage_times(&self) -> &StageTimes {
        &self.out.times
    }

    /// Pairs the broad phase handed to the narrow phase in the last step (after filtering).
    pub fn pair_count(&self) -> usize {
        self.out.counts.pairs
    }

    /// Contact points (touching and speculative) of the last step.
    pub fn contact_count(&self) -> usize {
        self.out.counts.contacts
    }

    /// Pairs with at least one contact point (touching or speculative) in the last step.
    pub fn contact_pair_count(&self) -> usize {
        self.out.counts.contact_pairs
    }

    /// Pairs touching (penetrating deeper than `−linear_slop`) after the last step.
    pub fn touching_pair_count(&self) -> usize {
        self.out.counts.touching_pairs
    }

    /// The events of the last [`step`](World::step) or [`advance`](World::advance) call: those
    /// of its one step, or of every step the advance ran, concatenated in the order the steps
    /// ran (within a step, the deterministic order documented on [`Event`]). Each event is
    /// shown by exactly one call, so reading `events()` after every call sees each once: driving
    /// a world with `step()` or with `advance` of any frame times gives the same sequence. An
    /// `advance` that runs no step leaves the list empty. Other calls (insert, remove, setters,
    /// queries) leave it as it is; a removed body's contacts end at the next step.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The contact pairs of the last step, in pair order.
    pub fn contacts(&self) -> impl Iterator<Item = ContactInfo<'_>> + '_ {
        self.state.contacts.iter().map(|c| ContactInfo {
            a: c.a,
            b: c.b,
            manifold: &c.manifold,
            touching: c.touching,
        })
    }

    /// Sum of the normal impulses (N·s) between two bodies during the last step (0 if none).
    pub fn normal_impulse(&self, a: BodyHandle, b: BodyHandle) -> Real {
        let (a, b) = if a.index() < b.index() {
            (a, b)
        } else {
            (b, a)
        };
        self.state
            .contacts
            .binary_search_by_key(&(a.index(), b.index()), |c| (c.a.index(), c.b.index()))
            .ok()
            .map(|i| &self.state.contacts[i])
            .filter(|c| c.a == a && c.b == b)
            .map(|c| {
                c.impulses[..c.manifold.len()]
                    .iter()
                    .map(|p| p.normal)
                    .sum()
            })
            .unwrap_or(0.0)
    }

    /// FNV-1a 64 over the f32 bit patterns (little-endian bytes) of every live body's position
    /// (x, y, z), rotation quaternion (i, j, k, w), linear velocity and angular velocity, in
    /// handle order. Equal states hash equal; used by the determinism tests.
    pub fn state_hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut feed = |x: Real| {
            for byte in x.to_bits().to_le_bytes() {
                h ^= byte as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        for s in &self.state.slots {
            if let Some(b) = &s.body {
                let t = b.pose.translation.vector;
                let q = b.pose.rotation.quaternion();
                for x in [t.x, t.y, t.z, q.i, q.j, q.k, q.w] {
                    feed(x);
                }
                for x in b.linvel.iter().chain(b.angvel.iter()) {
                    feed(*x);
                }
            }
        }
        h
    }

    /// Checks every invariant listed in the module docs; `Err` names the first one broken.
    pub fn validate(&self) -> Result<(), String> {
        let st = &self.state;
        st.config.validate().map_err(|e| e.to_string())?;
        let mut is_free = vec![false; st.slots.len()];
        for &f in &st.free {
            let f = f as usize;
            if f >= st.slots.len() {
                return Err(format!(
                    "free list holds {f}, beyond {} slots",
                    st.slots.len()
                ));
            }
            if is_free[f] {
                return Err(format!("slot {f} is twice in the free list"));
            }
            is_free[f] = true;
            if st.slots[f].body.is_some() {
                return Err(format!("slot {f} is in the free list but holds a body"));
            }
        }
        let mut live = 0;
        if self.proxies.of_body.len() != st.slots.len() {
            return Err("proxy table and slots differ in length".into());
        }
        for (i, s) in st.slots.iter().enumerate() {
            let Some(b) = &s.body else {
                if !is_free[i] {
                    return Err(format!("slot {i} is empty but not in the free list"));
                }
                continue;
            };
            live += 1;
            validate_body(b).map_err(|e| format!("body {i}: {e}"))?;
            let proxy = self.proxies.of_body[i];
            let ud = self
                .proxies
                .broad
                .user_data(proxy)
                .map_err(|e| format!("body {i}: proxy missing from the broad phase: {e}"))?;
            if ud != i as u64 {
                return Err(format!("body {i}: proxy user data is {ud}"));
            }
            if self.proxies.body_of_proxy.get(proxy.index() as usize) != Some(&(i as u32)) {
                return Err(format!("body {i}: proxy-to-body table is wrong"));
            }
            let stored = self
                .proxies
                .broad
                .aabb(proxy)
                .map_err(|e| format!("body {i}: {e}"))?;
            // Exactly the box `broad_aabb` gives (which contains the shape): what a restore
            // rebuilds, so a snapshot restores to the same broad phase.
            match broad_aabb(&st.config, b) {
                None => {
                    return Err(format!(
                        "body {i}: AABB not finite or beyond MAX_COORDINATE"
                    ))
                }
                Some(aabb) if aabb != stored => {
                    return Err(format!(
                        "body {i}: broad-phase AABB {stored:?} is not the body's {aabb:?}"
                    ))
                }
                Some(_) => {}
            }
        }
        if live != st.len {
            return Err(format!("len is {} but {live} bodies live", st.len));
        }
        if self.proxies.broad.len() != live {
            return Err(format!(
                "broad phase holds {} proxies for {live} bodies",
                self.proxies.broad.len()
            ));
        }
        self.proxies.broad.validate()?;
        crate::island::validate(st)?;
        let sorted = |keys: &mut dyn Iterator<Item = (u32, u32)>| -> bool {
            let mut last: Option<(u32, u32)> = None;
            for k in keys {
                if k.0 >= k.1 || last.is_some_and(|l| l >= k) {
                    return false;
                }
                last = Some(k);
            }
            true
        };
        if !sorted(&mut st.contacts.iter().map(|c| (c.a.index(), c.b.index()))) {
            return Err("contact cache not strictly sorted by (a, b) with a < b".into());
        }
        if !sorted(&mut st.sensor_pairs.iter().map(|(a, b)| (a.index(), b.index()))) {
            return Err("sensor overlaps not strictly sorted by (a, b) with a < b".into());
        }
        for c in &st.contacts {
            validate_manifold(&c.manifold)?;
            for p in &c.impulses {
                if !(p.normal.is_finite()
                    && p.normal >= 0.0
                    && tumble_narrowphase::math::is_finite_vector(&p.tangent))
                {
                    return Err("contact impulse not finite or negative".into());
                }
            }
        }
        if !(st.accumulator >= 0.0 && st.accumulator < st.config.dt as f64) {
            return Err(format!(
                "accumulator is {} s, outside [0, dt = {} s)",
                st.accumulator, st.config.dt
            ));
        }
        if !(0.0..=1.0).contains(&st.alpha) {
            return Err(format!("alpha is {}", st.alpha));
        }
        self.validate_joints()
    }
}
