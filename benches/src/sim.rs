//! One interface over the two kinds of scene the runner steps: a dynamics [`World`](tumble::World)
//! (every scene but `gas`) and the collision-only `gas`.

use crate::measure::EndState;
use crate::scenes::{stage_names, BuiltScene, GasWorld, SceneError, SceneKind};
use std::time::{Duration, Instant};
use tumble::{Stage, WorldConfig};

/// A scene ready to be stepped.
pub enum Sim {
    /// A dynamics world (boxed, like the gas: both are large and built once).
    World(Box<BuiltScene>),
    /// The collision-only gas.
    Gas(Box<GasWorld>),
}

/// The stages the gas reports (the only ones its timed call runs).
const GAS_STAGES: [Stage; 3] = [
    Stage::UpdateBroadPhase,
    Stage::FindPairs,
    Stage::NarrowPhase,
];

impl Sim {
    /// Builds the scene `kind` with `n` bodies, recipe seeded with `seed`, world made with
    /// `config` (the gas uses only its broad phase).
    pub fn new(
        kind: SceneKind,
        n: usize,
        seed: u64,
        config: WorldConfig,
    ) -> Result<Self, SceneError> {
        Ok(match kind {
            SceneKind::Gas => Sim::Gas(Box::new(GasWorld::new(n, seed, &config)?)),
            _ => Sim::World(Box::new(BuiltScene::new(kind, n, seed, config)?)),
        })
    }

    /// Names of the stages whose times [`Sim::step`] returns, in order.
    pub fn stage_names(&self) -> Vec<&'static str> {
        match self {
            Sim::World(_) => stage_names(),
            Sim::Gas(_) => GAS_STAGES.iter().map(|s| s.name()).collect(),
        }
    }

    /// What the timed part of a step calls (the JSON's `api`).
    pub fn api(&self) -> &'static str {
        match self {
            Sim::World(_) => "World::step",
            Sim::Gas(_) => "CollisionWorld::update",
        }
    }

    /// One step; returns the time of the engine call and the engine's stage times. The
    /// velocities of a turning kinematic group are set first, outside the timed call
    /// ([`BuiltScene::drive_kinematic`]).
    pub fn step(&mut self) -> Result<(Duration, Vec<Duration>), SceneError> {
        match self {
            Sim::World(s) => {
                s.drive_kinematic()?;
                let start = Instant::now();
                s.world.step();
                let total = start.elapsed();
                let stages = s.world.stage_times().iter().map(|(_, d)| d).collect();
                Ok((total, stages))
            }
            Sim::Gas(g) => {
                let total = g.step()?;
                let times = g.world.stage_times();
                Ok((total, GAS_STAGES.iter().map(|s| times.get(*s)).collect()))
            }
        }
    }

    /// Counts and statistics after the last step.
    pub fn end_state(&self) -> EndState {
        match self {
            Sim::World(s) => s.end_state(),
            Sim::Gas(g) => g.end_state(),
        }
    }
}

/// The broad phases by their command-line names, in the order the help text lists them.
pub const BROAD_PHASES: [(&str, tumble::BroadPhaseKind); 4] = [
    ("grid", tumble::BroadPhaseKind::Grid),
    ("sap", tumble::BroadPhaseKind::SweepAndPrune),
    ("bvh", tumble::BroadPhaseKind::Bvh),
    ("brute", tumble::BroadPhaseKind::BruteForce),
];

/// The command-line name of a broad phase (`grid`, `sap`, `bvh`, `brute`).
pub fn broad_phase_name(kind: tumble::BroadPhaseKind) -> &'static str {
    BROAD_PHASES
        .iter()
        .find(|(_, k)| *k == kind)
        .map_or("unknown", |(name, _)| name)
}
