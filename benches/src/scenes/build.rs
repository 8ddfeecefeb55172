//! Handing a scene to the engine: every f64 value of the recipe is cast to f32 here, once.

use super::{BodySpec, Gas, Motion, Region, Scene, SceneKind, ShapeSpec};
use crate::measure::{fnv1a_f32, EndState};
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

    /// Dynamic bodies whose centre lies outside the scene's region (or is not finite).
    pub fn escaped(&self) -> usize {
        count_escaped(&self.scene.inside, &self.dynamic_centres())
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
        }
    }
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
        }
    }
}

/// The names of the engine's stages, in step order.
pub fn stage_names() -> Vec<&'static str> {
    Stage::all().iter().map(|s| s.name()).collect()
}
