//! The benchmark scenes, shared by the `stress` runner, the criterion `step` bench, the examples
//! and the integration tests (STYLE.md habit 11: one set of scenes for every measurement).
//!
//! A scene is first built as plain data ([`Scene`], a list of [`BodySpec`] in f64, exactly as
//! the recipe draws it), then handed to the engine by [`Scene::build`], which casts every value
//! to f32. Keeping the description apart from the engine lets the tests check the recipe
//! value by value, and lets every consumer build the same world.
//!
//! `balls`, `boxes`, `gas`, the scenes of resting contact and a moving container `pyramid`,
//! `stacks`, `tumbler` and `settle`, and the scenes on static ground `terrain` and
//! `terrain_mesh` follow `shared/peers/rapier-bench/README.md` to the letter (it
//! is the normative definition; draw order, container and lattice formulas are quoted in the
//! files below). `pyramid_cubes`, `mixed` and `projectiles` are Tumble's own extra scenes.
//!
//! Frame: world space, metres, +y up, gravity (0, −9.81, 0) except in `gas`.

mod build;
mod container;
mod extra;
mod gas;
mod joints;
mod lattice;
mod resting;
mod terrain;

pub use build::{count_escaped, stage_names, BuiltScene, GasWorld, SceneError};
pub use container::Container;
pub use extra::{mixed, projectiles, pyramid_cubes};
pub use gas::{brute_force_pairs, gas_box_side, Gas};
pub use joints::{grid_side, joint_grid};
pub use lattice::{balls, boxes, LatticeParams};
pub use resting::{
    pyramid, pyramid_body_count, settle, stacks, tumbler, tumbler_walls, MAX_SCENE_BODIES,
    STACKS_PITCH, STACKS_SIDE, TUMBLER_CENTRE, TUMBLER_HALF, TUMBLER_MAX_SIDE, TUMBLER_SPIN,
};
pub use terrain::{
    min_height_above_surface, terrain, terrain_coordinate, terrain_escaped, terrain_height,
    terrain_heightfield, terrain_heights, terrain_mesh, terrain_mesh_data, terrain_trimesh, Ground,
    TERRAIN_DROP_HEIGHT, TERRAIN_HALF, TERRAIN_SAMPLES, TERRAIN_SPACING,
};

use std::fmt;

/// The scenes the runner knows, by their command-line name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum SceneKind {
    /// Balls of radius 0.5 on a jittered lattice falling into a container (peer README).
    Balls,
    /// Unit cubes, randomly rotated, on a jittered lattice falling into a container (peer README).
    Boxes,
    /// Collision detection only: balls moving straight in a periodic box (peer README).
    Gas,
    /// A square pyramid of unit cubes at rest on the ground; `--n` is the base side (peer README).
    Pyramid,
    /// 100 towers of unit cubes at rest on the ground; `--n` is the tower height (peer README).
    Stacks,
    /// Small cubes tumbling in a closed box that turns about its centre (peer README).
    Tumbler,
    /// Exactly `boxes`, run with 600 warm-up steps so that the pile comes to rest (peer README).
    Settle,
    /// A net of balls joined by ball-and-socket joints hanging from a fixed top row; `--n` is
    /// rounded up to a square (peer README).
    #[value(name = "joint_grid")]
    JointGrid,
    /// Balls and cubes dropped on a wavy heightfield, no walls (peer README).
    Terrain,
    /// `terrain` with the ground as the triangle mesh of the same triangles (peer README).
    #[value(name = "terrain_mesh")]
    TerrainMesh,
    /// A square pyramid of `n` unit cubes, 2 cm apart, resting on the ground (stacking stability).
    #[value(name = "pyramid_cubes")]
    PyramidCubes,
    /// A jittered lattice of balls and boxes of random sizes falling into a container.
    Mixed,
    /// Small fast balls (4 cm across, 300 m/s) fired at a thin wall, continuous collision on.
    Projectiles,
}

impl SceneKind {
    /// Every scene, in the order the help text lists them.
    pub fn all() -> [SceneKind; 13] {
        [
            SceneKind::Balls,
            SceneKind::Boxes,
            SceneKind::Gas,
            SceneKind::Pyramid,
            SceneKind::Stacks,
            SceneKind::Tumbler,
            SceneKind::Settle,
            SceneKind::JointGrid,
            SceneKind::Terrain,
            SceneKind::TerrainMesh,
            SceneKind::PyramidCubes,
            SceneKind::Mixed,
            SceneKind::Projectiles,
        ]
    }

    /// The command-line name (`balls`, `boxes`, ...), also used in the JSON line.
    pub fn name(self) -> &'static str {
        match self {
            SceneKind::Balls => "balls",
            SceneKind::Boxes => "boxes",
            SceneKind::Gas => "gas",
            SceneKind::Pyramid => "pyramid",
            SceneKind::Stacks => "stacks",
            SceneKind::Tumbler => "tumbler",
            SceneKind::Settle => "settle",
            SceneKind::JointGrid => "joint_grid",
            SceneKind::Terrain => "terrain",
            SceneKind::TerrainMesh => "terrain_mesh",
            SceneKind::PyramidCubes => "pyramid_cubes",
            SceneKind::Mixed => "mixed",
            SceneKind::Projectiles => "projectiles",
        }
    }

    /// The size `--n` stands for when it is left out: the peer's defaults (`stacks` 20; the
    /// sizes of the peer's reference figures for `pyramid` (b = 20) and `tumbler` (4000)),
    /// 10 000 bodies otherwise.
    pub fn default_n(self) -> usize {
        match self {
            SceneKind::Pyramid | SceneKind::Stacks => 20,
            SceneKind::Tumbler => 4000,
            _ => 10_000,
        }
    }

    /// The warm-up steps of the peer harness when `--warmup` is left out: 600 for `settle`,
    /// 30 otherwise.
    pub fn default_warmup(self) -> usize {
        match self {
            SceneKind::Settle => 600,
            _ => 30,
        }
    }

    /// True for the scenes whose JSON line carries the peer's fidelity figures (`bodies`,
    /// `awake_bodies_last_step` and each scene's own): the scenes of resting contact and a
    /// moving container, and the terrain scenes.
    pub fn reports_fidelity(self) -> bool {
        matches!(
            self,
            SceneKind::Pyramid
                | SceneKind::Stacks
                | SceneKind::Tumbler
                | SceneKind::Settle
                | SceneKind::JointGrid
                | SceneKind::Terrain
                | SceneKind::TerrainMesh
        )
    }

    /// The body scene of this kind of size `n` from the recipe seeded with `seed` (the peer
    /// harness uses 42), or `None` for `gas`, which is built by [`Gas::new`]. `n` counts the
    /// dynamic bodies except in `pyramid` (base side) and `stacks` (tower height).
    pub fn scene(self, n: usize, seed: u64) -> Option<Scene> {
        match self {
            SceneKind::Balls => Some(balls(n, seed)),
            SceneKind::Boxes => Some(boxes(n, seed)),
            SceneKind::Gas => None,
            SceneKind::Pyramid => Some(pyramid(n)),
            SceneKind::Stacks => Some(stacks(n)),
            SceneKind::Tumbler => Some(tumbler(n, seed)),
            SceneKind::Settle => Some(settle(n, seed)),
            SceneKind::JointGrid => Some(joint_grid(n)),
            SceneKind::Terrain => Some(terrain(n, seed)),
            SceneKind::TerrainMesh => Some(terrain_mesh(n, seed)),
            SceneKind::PyramidCubes => Some(pyramid_cubes(n)),
            SceneKind::Mixed => Some(mixed(n, seed)),
            SceneKind::Projectiles => Some(projectiles(n, seed)),
        }
    }
}

impl fmt::Display for SceneKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A shape as the recipe gives it, in f64 (cast to f32 when built).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeSpec {
    /// A ball of this radius (metres).
    Ball {
        /// Radius in metres.
        radius: f64,
    },
    /// A box with these half-extents along its local x, y, z axes (metres).
    Cuboid {
        /// Half-extents in metres.
        half_extents: [f64; 3],
    },
    /// The terrain scenes' ground (the surface of [`terrain_heights`], 200 m square, centred
    /// on the body's origin), as a heightfield or a triangle mesh.
    Terrain {
        /// Which form.
        ground: Ground,
    },
}

impl ShapeSpec {
    /// The largest distance from the shape's centre to its surface (metres).
    pub fn bounding_radius(&self) -> f64 {
        match *self {
            ShapeSpec::Ball { radius } => radius,
            ShapeSpec::Cuboid { half_extents: h } => {
                (h[0] * h[0] + h[1] * h[1] + h[2] * h[2]).sqrt()
            }
            // Half the square's diagonal and the surface's largest height (2.5 m).
            ShapeSpec::Terrain { .. } => (2.0 * TERRAIN_HALF * TERRAIN_HALF + 2.5 * 2.5).sqrt(),
        }
    }
}

/// Whether a body moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Moved by forces and contacts.
    Dynamic,
    /// Never moves (container walls, ground).
    Static,
    /// Moves with the velocity it is given, unaffected by contacts and gravity (the tumbler's
    /// walls).
    Kinematic,
}

/// One body of a scene, world space, f64 as drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodySpec {
    /// Dynamic or static.
    pub motion: Motion,
    /// Its shape, centred at the body's origin.
    pub shape: ShapeSpec,
    /// Centre in world space (metres).
    pub translation: [f64; 3],
    /// Orientation as a unit quaternion `(x, y, z, w)` (the recipe's order).
    pub rotation: [f64; 4],
    /// Linear velocity of the centre (m/s).
    pub linvel: [f64; 3],
    /// Angular velocity, world frame (rad/s).
    pub angvel: [f64; 3],
    /// Density (kg/m³); mass = density · volume.
    pub density: f64,
    /// Coulomb friction coefficient (≥ 0).
    pub friction: f64,
    /// Restitution coefficient in [0, 1].
    pub restitution: f64,
    /// Continuous collision detection asked for this body.
    pub ccd: bool,
}

/// The identity rotation `(x, y, z, w)`.
pub const IDENTITY_ROTATION: [f64; 4] = [0.0, 0.0, 0.0, 1.0];

impl BodySpec {
    /// A dynamic body at rest, identity rotation, density 1, friction 0.5, restitution 0.5
    /// (the peer scenes' material).
    pub fn dynamic(shape: ShapeSpec, translation: [f64; 3]) -> Self {
        Self {
            motion: Motion::Dynamic,
            shape,
            translation,
            rotation: IDENTITY_ROTATION,
            linvel: [0.0; 3],
            angvel: [0.0; 3],
            density: 1.0,
            friction: 0.5,
            restitution: 0.5,
            ccd: false,
        }
    }

    /// A static cuboid with the peer scenes' material (friction 0.5, restitution 0.5).
    pub fn static_cuboid(half_extents: [f64; 3], translation: [f64; 3]) -> Self {
        Self {
            motion: Motion::Static,
            ..Self::dynamic(ShapeSpec::Cuboid { half_extents }, translation)
        }
    }

    /// The same body with friction `friction` and restitution `restitution`.
    pub fn with_material(self, friction: f64, restitution: f64) -> Self {
        Self {
            friction,
            restitution,
            ..self
        }
    }
}

/// A ball-and-socket joint of a scene: bodies `a` and `b` (indices into the scene's bodies)
/// with anchors in each body's frame (metres).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JointSpec {
    /// Body A's index.
    pub a: usize,
    /// Body B's index.
    pub b: usize,
    /// Anchor on A, A's frame.
    pub anchor_a: [f64; 3],
    /// Anchor on B, B's frame.
    pub anchor_b: [f64; 3],
}

/// A rigid rotation that the scene's kinematic bodies follow together, as one body: about the
/// fixed point `centre` at the constant angular velocity `angvel`. Before each step every
/// kinematic body gets the linear velocity that carries its centre to where the rotation of the
/// group puts it one step later (see [`BuiltScene::drive_kinematic`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spin {
    /// The fixed point of the rotation, world space (metres).
    pub centre: [f64; 3],
    /// Angular velocity, world frame (rad/s).
    pub angvel: [f64; 3],
}

/// An axis-aligned region (world space, metres; bounds may be infinite). A dynamic body whose
/// centre leaves it counts as escaped.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Region {
    /// Lower corner.
    pub min: [f64; 3],
    /// Upper corner.
    pub max: [f64; 3],
}

impl Region {
    /// True when `p` lies inside the region (bounds included).
    pub fn contains(&self, p: [f64; 3]) -> bool {
        (0..3).all(|i| p[i] >= self.min[i] && p[i] <= self.max[i])
    }
}

/// A scene as plain data: the bodies in insertion order (dynamic bodies first, body `i` of the
/// recipe is handle `i`), then the static and kinematic ones.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// Which scene.
    pub kind: SceneKind,
    /// Ball-and-socket joints between the scene's bodies, in insertion order (`joint_grid`).
    pub joints: Vec<JointSpec>,
    /// Every body, dynamic ones first.
    pub bodies: Vec<BodySpec>,
    /// Where the dynamic bodies belong; a centre outside it counts as escaped. With a
    /// [`Spin`], the region is in the frame of the turning kinematic group (origin at the
    /// spin's centre, axes turning with the group).
    pub inside: Region,
    /// The rotation the kinematic bodies follow together, for scenes that have one.
    pub spin: Option<Spin>,
    /// The container, for scenes that have one (to draw it, and for the tests).
    pub container: Option<Container>,
    /// Continuous collision should be switched on in the world's configuration.
    pub wants_ccd: bool,
}

impl Scene {
    /// The number of dynamic bodies.
    pub fn dynamic_count(&self) -> usize {
        self.bodies
            .iter()
            .filter(|b| b.motion == Motion::Dynamic)
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::SceneKind;
    use clap::ValueEnum;

    #[test]
    fn command_line_names_are_the_json_names() {
        for kind in SceneKind::all() {
            let value = kind.to_possible_value().expect("every scene is selectable");
            assert_eq!(value.get_name(), kind.name());
        }
        assert_eq!(SceneKind::value_variants().len(), SceneKind::all().len());
    }
}
