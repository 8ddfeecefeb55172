//! A rapier world stepped by `PhysicsPipeline::step`, and what the scenes read from it after
//! the last step.

use rapier3d::prelude::*;
use std::time::{Duration, Instant};

/// Casts an f64 triple to the engine's vector.
pub fn v3(p: [f64; 3]) -> Vector {
    Vector::new(p[0] as f32, p[1] as f32, p[2] as f32)
}

/// The quaternion `[x, y, z, w]` cast to f32 and normalised again in f32 (divided by its
/// norm √((x² + z²) + (y² + w²))), as Tumble's scene builder does, so that both engines get
/// the same bits.
pub fn rotation(q: [f64; 4]) -> Rotation {
    let [x, y, z, w] = q.map(|c| c as f32);
    let norm = ((x * x + z * z) + (y * y + w * w)).sqrt();
    Rotation::from_xyzw(x / norm, y / norm, z / norm, w / norm)
}

/// A pose from a centre and a quaternion `[x, y, z, w]` (both f64, cast to f32).
pub fn pose(centre: [f64; 3], q: [f64; 4]) -> Pose {
    Pose::from_parts(v3(centre), rotation(q))
}

/// The identity quaternion `[x, y, z, w]`.
pub const IDENTITY: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

/// Everything `PhysicsPipeline::step` works on.
pub struct World {
    pub bodies: RigidBodySet,
    pub colliders: ColliderSet,
    pub joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    islands: IslandManager,
    broad_phase: BroadPhaseBvh,
    pub narrow_phase: NarrowPhase,
    ccd: CCDSolver,
    pipeline: PhysicsPipeline,
    params: IntegrationParameters,
    gravity: Vector,
    /// Whether dynamic bodies may fall asleep (`--no-sleep` clears it).
    pub sleep: bool,
}

/// Counts over the narrow phase's contact pairs after a step.
#[derive(Clone, Copy, Debug, Default)]
pub struct ContactCounts {
    /// Pairs with at least one solver contact.
    pub pairs: usize,
    /// Solver contacts of those pairs (after contact clustering).
    pub contacts: usize,
    /// Every pair the broad phase handed to the narrow phase.
    pub bp_pairs: usize,
    /// Points of every contact manifold.
    pub manifold_points: usize,
    /// Manifold points with a distance ≤ 0.
    pub penetrating_points: usize,
}

impl World {
    /// An empty world: `IntegrationParameters::default()` with dt = 1/60 and gravity
    /// (0, −9.81, 0).
    pub fn new(sleep: bool) -> Self {
        let params = IntegrationParameters {
            dt: 1.0 / 60.0,
            ..IntegrationParameters::default()
        };
        Self {
            bodies: RigidBodySet::new(),
            colliders: ColliderSet::new(),
            joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            ccd: CCDSolver::new(),
            pipeline: PhysicsPipeline::new(),
            params,
            gravity: Vector::new(0.0, -9.81, 0.0),
            sleep,
        }
    }

    /// Adds a dynamic body with one collider; returns its handle.
    pub fn add_dynamic(
        &mut self,
        pose: Pose,
        linvel: Vector,
        collider: ColliderBuilder,
    ) -> RigidBodyHandle {
        let body = RigidBodyBuilder::dynamic()
            .pose(pose)
            .linvel(linvel)
            .can_sleep(self.sleep);
        self.add_body(body, collider)
    }

    /// Adds a body built by `body` with one collider at its origin; returns its handle.
    pub fn add_body(
        &mut self,
        body: RigidBodyBuilder,
        collider: ColliderBuilder,
    ) -> RigidBodyHandle {
        let handle = self.bodies.insert(body);
        self.colliders
            .insert_with_parent(collider, handle, &mut self.bodies);
        handle
    }

    /// Adds a static collider (no parent body: rapier treats it as fixed).
    pub fn add_static(&mut self, collider: ColliderBuilder) {
        self.colliders.insert(collider);
    }

    /// One step; returns the time of the `PhysicsPipeline::step` call alone.
    pub fn step(&mut self) -> Duration {
        let start = Instant::now();
        self.pipeline.step(
            self.gravity,
            &self.params,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
        start.elapsed()
    }

    /// The narrow phase's pair and contact counts.
    pub fn contact_counts(&self) -> ContactCounts {
        let mut c = ContactCounts::default();
        for pair in self.narrow_phase.contact_pairs() {
            c.bp_pairs += 1;
            if pair.has_any_active_contact() {
                c.pairs += 1;
                c.contacts += pair
                    .solver_manifolds()
                    .iter()
                    .map(|m| m.data.solver_contacts.len())
                    .sum::<usize>();
            }
            for m in pair.manifolds() {
                c.manifold_points += m.points.len();
                c.penetrating_points += m.points.iter().filter(|p| p.dist <= 0.0).count();
            }
        }
        c
    }

    /// The dynamic bodies, in insertion order.
    pub fn dynamic_bodies(&self) -> impl Iterator<Item = &RigidBody> {
        self.bodies
            .iter()
            .map(|(_, b)| b)
            .filter(|b| b.is_dynamic())
    }

    /// Dynamic bodies not asleep.
    pub fn awake_bodies(&self) -> usize {
        self.dynamic_bodies().filter(|b| !b.is_sleeping()).count()
    }

    /// Highest centre of a dynamic body (−∞ when there is none).
    pub fn max_body_y(&self) -> f64 {
        self.dynamic_bodies()
            .map(|b| b.translation().y as f64)
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The centre of a body, in f64.
    pub fn centre(&self, handle: RigidBodyHandle) -> [f64; 3] {
        let t = self.bodies[handle].translation();
        [t.x as f64, t.y as f64, t.z as f64]
    }
}
