//! Handing a scene to the engine: every f64 value of the recipe is cast to f32 here, once.

use super::resting::{pyramid_body_count, STACKS_SIDE, TUMBLER_MAX_SIDE};
use super::{BodySpec, Gas, Motion, Region, Scene, SceneKind, ShapeSpec, MAX_SCENE_BODIES};
use crate::measure::{fnv1a_f32, EndState, Fidelity};
use crate::recipe::lattice_side;
use nalgebra::{Quaternion, UnitQuaternion, Vector3};
use std::fmt;
use std::time::{Duration, Instant};
use tumble::math::{Isometry, Real, Rotation, Translation, Vector};
use tumble::narrowphase::ShapeError;
use tumble::{Ball, Cuboid, Shape};
use tumble::{BodyBuilder, BodyHandle, CollisionWorld, Stage, World, WorldConfig, WorldError};

/// Why a scene could not be built.
#[derive(Debug)]
pub enum SceneError {
    /// A shape of the recipe was refused (non-positive size).
    Shape(ShapeError),
    /// The world refused its configuration or a body.
    World(WorldError),
    /// The request itself makes no sense (e.g. zero bodies).
    Invalid(String),
}

impl fmt::Display for SceneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SceneError::Shape(e) => write!(f, "bad shape in the scene: {e}"),
            SceneError::World(e) => write!(f, "the world refused the scene: {e}"),
            SceneError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for SceneError {}

impl From<ShapeError> for SceneError {
    fn from(e: ShapeError) -> Self {
        SceneError::Shape(e)
    }
}

impl From<WorldError> for SceneError {
    fn from(e: WorldError) -> Self {
        SceneError::World(e)
    }
}

fn vector(v: [f64; 3]) -> Vector {
    Vector::new(v[0] as Real, v[1] as Real, v[2] as Real)
}

/// The rotation `(x, y, z, w)` cast to f32 and renormalised.
fn rotation(q: [f64; 4]) -> Rotation {
    Rotation::from_quaternion(nalgebra::Quaternion::new(
        q[3] as Real,
        q[0] as Real,
        q[1] as Real,
        q[2] as Real,
    ))
}

impl ShapeSpec {
    /// The engine's shape, sizes cast to f32.
    pub fn to_shape(&self) -> Result<Shape, ShapeError> {
        Ok(match *self {
            ShapeSpec::Ball { radius } => Shape::from(Ball::new(radius as Real)?),
            ShapeSpec::Cuboid { half_extents } => Shape::from(Cuboid::new(vector(half_extents))?),
        })
    }
}

impl BodySpec {
    /// The pose (centre and rotation) cast to f32.
    pub fn pose(&self) -> Isometry {
        Isometry::from_parts(
            Translation::from(vector(self.translation)),
            rotation(self.rotation),
        )
    }

    /// The engine's builder for this body, values cast to f32.
    pub fn to_builder(&self) -> Result<BodyBuilder, ShapeError> {
        let shape = self.shape.to_shape()?;
        let builder = match self.motion {
            Motion::Dynamic => BodyBuilder::dynamic(shape),
            Motion::Static => BodyBuilder::fixed(shape),
            Motion::Kinematic => BodyBuilder::kinematic(shape),
        };
        Ok(builder
            .translation(vector(self.translation))
            .rotation(rotation(self.rotation))
            .linvel(vector(self.linvel))
            .angvel(vector(self.angvel))
            .density(self.density as Real)
            .friction(self.friction as Real)
            .restitution(self.restitution as Real)
            .ccd(self.ccd))
    }
}

/// A scene inside a [`World`]: `handles[i]` is the handle of `scene.bodies[i]`.
pub struct BuiltScene {
    /// The world holding the scene.
    pub world: World,
    /// One handle per body of the scene, in the scene's order (dynamic bodies first).
    pub handles: Vec<BodyHandle>,
    /// The scene it was built from.
    pub scene: Scene,
}

impl Scene {
    /// `config` with what the scene needs on top (continuous collision for `projectiles`).
    pub fn adjust_config(&self, mut config: WorldConfig) -> WorldConfig {
        if self.wants_ccd {
            config.ccd = true;
        }
        config
    }

    /// Builds the scene into a new world made with `config` (adjusted by
    /// [`Scene::adjust_config`]).
    pub fn build(self, config: WorldConfig) -> Result<BuiltScene, SceneError> {
        let mut world = World::new(self.adjust_config(config))?;
        let mut handles = Vec::with_capacity(self.bodies.len());
        for b in &self.bodies {
            handles.push(world.insert(b.to_builder()?)?);
        }
        for j in &self.joints {
            let (Some(&a), Some(&b)) = (handles.get(j.a), handles.get(j.b)) else {
                return Err(SceneError::Invalid(format!(
                    "joint between bodies {} and {}, beyond the scene's {}",
                    j.a,
                    j.b,
                    handles.len()
                )));
            };
            world.insert_joint(
                tumble::JointBuilder::spherical(a, b)
                    .local_anchor_a(vector(j.anchor_a))
                    .local_anchor_b(vector(j.anchor_b)),
            )?;
        }
        Ok(BuiltScene {
            world,
            handles,
            scene: self,
        })
    }
}

impl BuiltScene {
    /// The scene of `kind` with `n` dynamic bodies (seeded with `seed`) in a world made with
    /// `config`. `gas` has no bodies: use [`GasWorld`].
    pub fn new(
        kind: SceneKind,
        n: usize,
        seed: u64,
        config: WorldConfig,
    ) -> Result<Self, SceneError> {
        if n == 0 {
            return Err(SceneError::Invalid(
                "a scene needs at least one body".into(),
            ));
        }
        check_size(kind, n)?;
        kind.scene(n, seed)
            .ok_or_else(|| {
                SceneError::Invalid(format!("{kind} is a collision-only scene (use GasWorld)"))
            })?
            .build(config)
    }

    /// Handles and specs of the dynamic bodies.
    fn dynamic(&self) -> impl Iterator<Item = BodyHandle> + '_ {
        self.scene
            .bodies
            .iter()
            .zip(&self.handles)
            .filter(|(b, _)| b.motion == Motion::Dynamic)
            .map(|(_, h)| *h)
    }

    /// Centres of the dynamic bodies (metres, world space), in scene order.
    pub fn dynamic_centres(&self) -> Vec<[f64; 3]> {
        self.dynamic()
            .filter_map(|h| self.world.body(h))
            .map(|b| {
                let t = b.pose().translation.vector;
                [f64::from(t.x), f64::from(t.y), f64::from(t.z)]
            })
            .collect()
    }

    /// Dynamic bodies whose centre lies outside the scene's region (or is not finite). With a
    /// [`Spin`](super::Spin), the centres are taken into the frame of the turning group first.
    pub fn escaped(&self) -> usize {
        let centres = self.dynamic_centres();
        match self.group_pose() {
            Some((rotation, centre)) => {
                let inverse = rotation.inverse();
                let local: Vec<[f64; 3]> = centres
                    .iter()
                    .map(|c| (inverse * (Vector3::from(*c) - centre)).into())
                    .collect();
                count_escaped(&self.scene.inside, &local)
            }
            None => count_escaped(&self.scene.inside, &centres),
        }
    }

    /// Handles and specs of the kinematic bodies.
    fn kinematic(&self) -> impl Iterator<Item = (&BodySpec, BodyHandle)> + '_ {
        self.scene
            .bodies
            .iter()
            .zip(&self.handles)
            .filter(|(b, _)| b.motion == Motion::Kinematic)
            .map(|(b, h)| (b, *h))
    }

    /// The pose of the turning kinematic group of a scene with a [`Spin`](super::Spin): the
    /// rotation it has turned through since t = 0 (read from its first body) and its centre
    /// (the mean of its bodies' centres minus their mean at t = 0, plus the spin's centre);
    /// `None` without a spin.
    pub fn group_pose(&self) -> Option<(UnitQuaternion<f64>, Vector3<f64>)> {
        let spin = self.scene.spin?;
        let (first, h) = self.kinematic().next()?;
        let turned = rotation_f64(self.world.body(h)?.rotation()) * spec_rotation(first).inverse();
        let (mut now, mut start, mut count) = (Vector3::zeros(), Vector3::zeros(), 0.0);
        for (spec, h) in self.kinematic() {
            now += translation_f64(self.world.body(h)?.translation());
            start += Vector3::from(spec.translation);
            count += 1.0;
        }
        let centre = Vector3::from(spin.centre) + (now - start) / count;
        Some((turned, centre))
    }

    /// Gives every kinematic body of a scene with a [`Spin`](super::Spin) the linear velocity
    /// that moves its centre, in one step of the world, to where the rotation of the group puts
    /// it: with R the rotation the group has turned through so far (read from the body's own
    /// rotation), c₀ its centre at t = 0 and o the spin's centre, the target is
    /// `o + R_step · R · (c₀ − o)` with `R_step` the rotation by `ω·dt`, and the velocity is
    /// `(target − c) / dt`. Within O((ω·dt)²) this is ω × (c − o), the velocity of a point of a
    /// rigid body turning about o; unlike that tangent velocity, which a step moves along a
    /// straight line and so off the circle, it keeps the group's bodies exactly where one
    /// rigid body turning about o would hold them. Does nothing for a scene without a spin.
    /// Call it before each step (the runner does, outside the timed engine call).
    pub fn drive_kinematic(&mut self) -> Result<(), SceneError> {
        let Some(spin) = self.scene.spin else {
            return Ok(());
        };
        let dt = f64::from(self.world.config().dt);
        let o = Vector3::from(spin.centre);
        let step = UnitQuaternion::from_scaled_axis(Vector3::from(spin.angvel) * dt);
        let mut velocities = Vec::new();
        for (spec, h) in self.kinematic() {
            let Some(body) = self.world.body(h) else {
                continue;
            };
            let turned = rotation_f64(body.rotation()) * spec_rotation(spec).inverse();
            let target = o + step * (turned * (Vector3::from(spec.translation) - o));
            let v = (target - translation_f64(body.translation())) / dt;
            velocities.push((h, v));
        }
        for (h, v) in velocities {
            self.world
                .set_linvel(h, Vector::new(v.x as Real, v.y as Real, v.z as Real))?;
        }
        Ok(())
    }

    /// The scene's own figures after the last step, for the scenes that report them
    /// ([`SceneKind::reports_fidelity`]); empty otherwise.
    pub fn fidelity(&self) -> Fidelity {
        let kind = self.scene.kind;
        if !kind.reports_fidelity() {
            return Fidelity::default();
        }
        let starts: Vec<[f64; 3]> = self
            .scene
            .bodies
            .iter()
            .filter(|b| b.motion == Motion::Dynamic)
            .map(|b| b.translation)
            .collect();
        let ends = self.dynamic_centres();
        let awake = self
            .dynamic()
            .filter_map(|h| self.world.body(h))
            .filter(|b| !b.is_frozen() && !b.is_sleeping())
            .count();
        let mut f = Fidelity {
            bodies: Some(starts.len()),
            awake: Some(awake),
            sleep: Some(self.world.config().sleep),
            ..Fidelity::default()
        };
        let displacement = || {
            starts
                .iter()
                .zip(&ends)
                .map(|(a, b)| distance(*a, *b))
                .fold(0.0, f64::max)
        };
        match kind {
            SceneKind::Pyramid => {
                f.max_displacement = Some(displacement());
                f.top_drop = match (starts.last(), ends.last()) {
                    (Some(a), Some(b)) => Some(a[1] - b[1]),
                    _ => None,
                };
            }
            SceneKind::Stacks => {
                f.max_displacement = Some(displacement());
                let towers = STACKS_SIDE * STACKS_SIDE;
                let h = starts.len() / towers;
                let (mut drop, mut fallen) = (0.0, 0);
                for t in 0..towers {
                    let top = t * h + h - 1;
                    let (a, b) = (starts[top], ends[top]);
                    drop += a[1] - b[1];
                    if (b[0] - a[0]).hypot(b[2] - a[2]) > 0.5 {
                        fallen += 1;
                    }
                }
                f.top_drop = Some(drop / towers as f64);
                f.fallen = Some(fallen);
                f.towers = Some(towers);
            }
            SceneKind::Tumbler => {
                if let (Some((rotation, centre)), Some(spin)) = (self.group_pose(), self.scene.spin)
                {
                    let axis = Vector3::from(spin.angvel);
                    let axis = axis / axis.norm();
                    let q = rotation.quaternion();
                    f.box_angle_rad = Some(2.0 * q.imag().dot(&axis).atan2(q.w));
                    f.box_centre_drift = Some((centre - Vector3::from(spin.centre)).norm());
                }
            }
            SceneKind::JointGrid => {
                let (mut worst, mut sum, mut count) = (0.0f64, 0.0, 0usize);
                for (_, j) in self.world.joints() {
                    let (Some(a), Some(b)) =
                        (self.world.body(j.body_a()), self.world.body(j.body_b()))
                    else {
                        continue;
                    };
                    let pa = a.pose() * tumble::math::Point::from(j.local_anchor_a());
                    let pb = b.pose() * tumble::math::Point::from(j.local_anchor_b());
                    let e = f64::from((pb - pa).norm());
                    worst = worst.max(e);
                    sum += e;
                    count += 1;
                }
                f.max_joint_error = Some(worst);
                f.mean_joint_error = Some(if count > 0 { sum / count as f64 } else { 0.0 });
                f.joints = Some(count);
                let side = super::grid_side(self.scene.bodies.len());
                f.grid_side = Some(side);
                let bottom = (side - 1) * side..side * side;
                let drop: f64 = bottom
                    .clone()
                    .filter_map(|i| {
                        let start = self.scene.bodies.get(i)?.translation[1];
                        let now = self.world.body(*self.handles.get(i)?)?.translation().y;
                        Some(start - f64::from(now))
                    })
                    .sum();
                f.bottom_row_drop = Some(drop / side as f64);
            }
            _ => {}
        }
        f
    }

    /// The highest dynamic centre (metres); 0 when there is no dynamic body.
    pub fn max_body_y(&self) -> f64 {
        self.dynamic_centres()
            .iter()
            .map(|c| c[1])
            .fold(None, |m: Option<f64>, y| Some(m.map_or(y, |m| m.max(y))))
            .unwrap_or(0.0)
    }

    /// Counts and statistics after the last step.
    pub fn end_state(&self) -> EndState {
        EndState {
            bp_pairs: self.world.pair_count(),
            pairs: self.world.contact_pair_count(),
            contacts: self.world.contact_count(),
            escaped: self.escaped(),
            max_body_y: self.max_body_y(),
            hash: self.world.state_hash(),
            fidelity: self.fidelity(),
        }
    }
}

/// Refuses a size whose scene would hold more than [`MAX_SCENE_BODIES`] dynamic bodies
/// (`pyramid`: base side; `stacks`: tower height) or, for `tumbler`, more cubes than fit in
/// the box (lattice side above [`TUMBLER_MAX_SIDE`]).
fn check_size(kind: SceneKind, n: usize) -> Result<(), SceneError> {
    let bodies = match kind {
        SceneKind::Pyramid => n
            .checked_mul(n + 1)
            .and_then(|x| x.checked_mul(2 * n + 1))
            .map_or(usize::MAX, |_| pyramid_body_count(n)),
        SceneKind::Stacks => n.saturating_mul(STACKS_SIDE * STACKS_SIDE),
        SceneKind::Tumbler => {
            let side = lattice_side(n);
            if side > TUMBLER_MAX_SIDE {
                return Err(SceneError::Invalid(format!(
                    "tumbler: n = {n} needs a lattice of side {side}; at most {} cubes fit \
                     (side {TUMBLER_MAX_SIDE})",
                    TUMBLER_MAX_SIDE.pow(3)
                )));
            }
            n
        }
        SceneKind::JointGrid if n <= MAX_SCENE_BODIES => {
            let side = super::grid_side(n);
            side * side
        }
        _ => n,
    };
    if bodies > MAX_SCENE_BODIES {
        return Err(SceneError::Invalid(format!(
            "{kind} with n = {n} would hold {bodies} bodies; at most {MAX_SCENE_BODIES}"
        )));
    }
    Ok(())
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    (Vector3::from(a) - Vector3::from(b)).norm()
}

fn translation_f64(t: Vector) -> Vector3<f64> {
    Vector3::new(f64::from(t.x), f64::from(t.y), f64::from(t.z))
}

fn rotation_f64(q: Rotation) -> UnitQuaternion<f64> {
    UnitQuaternion::from_quaternion(Quaternion::new(
        f64::from(q.w),
        f64::from(q.i),
        f64::from(q.j),
        f64::from(q.k),
    ))
}

/// The spec's rotation `(x, y, z, w)` as a unit quaternion in f64.
fn spec_rotation(b: &BodySpec) -> UnitQuaternion<f64> {
    let q = b.rotation;
    UnitQuaternion::from_quaternion(Quaternion::new(q[3], q[0], q[1], q[2]))
}

/// Centres outside `region`, non-finite ones included.
pub fn count_escaped(region: &Region, centres: &[[f64; 3]]) -> usize {
    centres
        .iter()
        .filter(|c| !c.iter().all(|x| x.is_finite()) || !region.contains(**c))
        .count()
}

/// The `gas` scene in the engine's collision-only world.
pub struct GasWorld {
    /// The recipe's state (f64 positions, constant velocities).
    pub gas: Gas,
    /// The collision-only world holding one ball per gas particle.
    pub world: CollisionWorld,
    /// One handle per ball, in recipe order.
    pub handles: Vec<tumble::ColliderHandle>,
    /// The step (seconds), 1/60.
    pub dt: f64,
}

impl GasWorld {
    /// The gas of `n` balls (seeded with `seed`) in a collision-only world using `config`'s
    /// broad phase.
    pub fn new(n: usize, seed: u64, config: &WorldConfig) -> Result<Self, SceneError> {
        if n == 0 {
            return Err(SceneError::Invalid(
                "a scene needs at least one body".into(),
            ));
        }
        let gas = Gas::new(n, seed);
        let ball = Shape::from(Ball::new(super::gas::GAS_RADIUS as Real)?);
        let mut world = CollisionWorld::new(config.broad_phase, 0.0)?;
        let mut handles = Vec::with_capacity(n);
        for (i, p) in gas.positions_f32().iter().enumerate() {
            let pose = Isometry::translation(p[0], p[1], p[2]);
            handles.push(world.insert(ball.clone(), pose, i as u64)?);
        }
        Ok(Self {
            gas,
            world,
            handles,
            dt: 1.0 / 60.0,
        })
    }

    /// One step of the recipe: move and wrap (untimed), hand the f32 positions to the world
    /// (untimed), then broad + narrow phase (timed). Returns the timed part.
    pub fn step(&mut self) -> Result<Duration, SceneError> {
        self.gas.advance(self.dt);
        for (h, p) in self.handles.iter().zip(self.gas.positions_f32()) {
            self.world
                .set_pose(*h, Isometry::translation(p[0], p[1], p[2]))?;
        }
        let start = Instant::now();
        self.world.update();
        Ok(start.elapsed())
    }

    /// Counts after the last step; `pairs` = pairs with centre distance < 1 (the engine's
    /// answer), the hash is FNV-1a over the f32 positions handed to the engine.
    pub fn end_state(&self) -> EndState {
        let positions = self.gas.positions_f32();
        EndState {
            bp_pairs: self.world.broad_phase_pair_count(),
            pairs: self.world.intersecting_pair_count(),
            contacts: self
                .world
                .contacts()
                .iter()
                .flat_map(|c| c.manifold.points())
                .filter(|p| p.depth >= 0.0)
                .count(),
            escaped: 0,
            max_body_y: positions
                .iter()
                .map(|p| f64::from(p[1]))
                .fold(0.0, f64::max),
            hash: fnv1a_f32(positions.iter().flatten().copied()),
            fidelity: Fidelity::default(),
        }
    }
}

/// The names of the engine's stages, in step order.
pub fn stage_names() -> Vec<&'static str> {
    Stage::all().iter().map(|s| s.name()).collect()
}
