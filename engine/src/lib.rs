//! # Tumble
//!
//! A deterministic, fixed-step rigid-body physics engine. This crate is the one users depend on;
//! it re-exports the narrow phase ([`narrowphase`]) and the broad phase ([`broadphase`]).
//!
//! Units are SI (metres, seconds, kilograms, radians), every vector is in the world frame
//! unless its doc says otherwise, and contact normals point from the lower body handle to the
//! higher one.
//!
//! Each frame, hand the real elapsed time to [`World::advance`]: it runs as many fixed steps of
//! [`WorldConfig::dt`] as fit in its accumulator and returns the blend factor `alpha` with which
//! [`World::render_pose`] interpolates between the last two states (Fiedler, "Fix Your
//! Timestep!"). A step runs the stages of [`Stage`] in order, each timed ([`World::stage_times`]).
//!
//! ```
//! use tumble::math::Vector;
//! use tumble::{BodyBuilder, World, WorldConfig};
//! use tumble::narrowphase::shape::{Ball, Cuboid};
//!
//! let mut world = World::new(WorldConfig::default()).unwrap();
//! // A floor whose top face is at y = 0, and a ball of radius 0.5 dropped from y = 2.
//! world
//!     .insert(BodyBuilder::fixed(Cuboid::new(Vector::new(5.0, 0.5, 5.0)).unwrap())
//!         .translation(Vector::new(0.0, -0.5, 0.0)))
//!     .unwrap();
//! let ball = world
//!     .insert(BodyBuilder::dynamic(Ball::new(0.5).unwrap())
//!         .translation(Vector::new(0.0, 2.0, 0.0))
//!         .restitution(0.0))
//!     .unwrap();
//! for _ in 0..120 {
//!     world.advance(1.0 / 60.0).unwrap(); // two seconds of 60 Hz frames
//! }
//! let y = world.body(ball).unwrap().translation().y;
//! assert!((y - 0.5).abs() < 0.02, "the ball rests on the floor, y = {y}");
//! let drawn = world.render_pose(ball).unwrap(); // blend of the last two states
//! assert!((drawn.translation.vector.y - y).abs() < 0.02);
//! ```
//!
//! ## Cargo features
//!
//! Both are on by default; a single-threaded or wasm embedder can turn them off
//! (`default-features = false`).
//!
//! - `serde`: `Serialize`/`Deserialize` for the public types (here and in the narrow and broad
//!   phases), and snapshots: [`World::snapshot`], [`World::restore`], [`World::restore_from`],
//!   [`snapshot_checksum`] and [`SNAPSHOT_VERSION`] (bincode).
//! - `parallel`: a step's stages, the broad phase and the collision-only world split their work
//!   between the threads of the current rayon pool. Without it everything runs on the calling
//!   thread, and the results are bit-for-bit those of the `parallel` build (which gives the
//!   same results on any number of threads); [`WorldConfig::keep_pool_awake`] then changes
//!   nothing.

#![warn(missing_docs)]

pub use tumble_broadphase as broadphase;
pub use tumble_narrowphase as narrowphase;
pub use tumble_narrowphase::math;

pub use broadphase::BroadPhaseKind;
pub use narrowphase::mesh::{HeightField, TriMesh};
pub use narrowphase::shape::{Ball, Capsule, Compound, ConvexPolyhedron, Cuboid, Shape, Triangle};

mod body;
pub mod character;
mod collision_world;
mod config;
mod contact;
mod error;
mod events;
mod handle;
pub mod island;
pub mod joint;
mod joints_api;
mod material;
mod parallel;
mod pose;
mod proxies;
mod query;
#[cfg(feature = "serde")]
mod snapshot;
mod solver;
mod stage;
mod state;
mod step;
mod world;

pub use body::{mass_properties, BodyBuilder, BodyKind, BodyView};
pub use character::{Autostep, CharacterCollision, CharacterController, CharacterMove};
pub use collision_world::{ColliderContact, ColliderHandle, CollisionWorld};
pub use config::{
    WorldConfig, DEFAULT_MAX_PAIRS, MAX_DT, MAX_FRAME_TIME, MAX_PAIRS, MAX_PREDICTION_DISTANCE,
    MAX_STEPS_PER_FRAME, MIN_DT,
};
pub use contact::ContactInfo;
pub use error::WorldError;
pub use events::{Advance, Event, StepReport};
pub use handle::BodyHandle;
pub use joint::{JointBuilder, JointHandle, JointKind, JointView, Motor, Spring};
pub use material::{CombineRule, Material};
pub use pose::interpolate_pose;
pub use query::{
    project_point_on_shape, ray_shape, ColliderFilter, ContactsOf, PointProjection, QueryFilter,
    RayCastHit, SensorMode, ShapeHit,
};
#[cfg(feature = "serde")]
pub use snapshot::{snapshot_checksum, SNAPSHOT_VERSION};
pub use stage::{Stage, StageTimes};
pub use state::MAX_COORDINATE;
pub use world::World;

/// The README's embedding example, compiled and run as a doctest so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
