//! `gas`: collision detection only. N balls of radius 0.5 move in straight lines through a
//! periodic box (positions kept in f64); each step hands the wrapped positions to rapier and
//! times `CollisionPipeline::step` (broad phase + narrow phase, prediction distance 0).

use crate::scenes::Drawn;
use crate::world::{v3, IDENTITY};
use crate::Bench;
use rapier3d::prelude::*;
use std::time::{Duration, Instant};
use tumble_peers::json::Line;
use tumble_peers::recipe::Recipe;

/// How the balls are tested.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum GasMode {
    /// Contact manifolds (a pair counts when a manifold point has dist ≤ 0).
    Contact,
    /// Sensors: boolean intersection tests.
    Sensor,
}

impl GasMode {
    fn name(self) -> &'static str {
        match self {
            GasMode::Contact => "contact",
            GasMode::Sensor => "sensor",
        }
    }
}

/// The side L of the periodic box holding N balls at 5 % volume fraction.
pub fn gas_box_side(n: usize) -> f64 {
    let ball = 4.0 / 3.0 * std::f64::consts::PI * 0.5f64.powi(3);
    (n as f64 * ball / 0.05).cbrt()
}

/// The gas scene.
pub struct Gas {
    mode: GasMode,
    verify: bool,
    side: f64,
    positions: Vec<[f64; 3]>,
    velocities: Vec<[f64; 3]>,
    handles: Vec<ColliderHandle>,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    islands: IslandManager,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    pipeline: CollisionPipeline,
}

const DT: f64 = 1.0 / 60.0;

impl Gas {
    /// Ball i draws px, py, pz = uniform(0, L), then vx, vy, vz = uniform(−5, 5).
    pub fn new(n: usize, seed: u64, mode: GasMode, verify: bool) -> Self {
        let side = gas_box_side(n);
        let mut r = Recipe::new(seed);
        let mut positions = Vec::with_capacity(n);
        let mut velocities = Vec::with_capacity(n);
        for _ in 0..n {
            positions.push(r.uniform3(0.0, side));
            velocities.push(r.uniform3(-5.0, 5.0));
        }
        let mut colliders = ColliderSet::new();
        let handles = positions
            .iter()
            .map(|&p| {
                colliders.insert(
                    ColliderBuilder::ball(0.5)
                        .translation(v3(p))
                        .active_collision_types(ActiveCollisionTypes::all())
                        .sensor(mode == GasMode::Sensor),
                )
            })
            .collect();
        Self {
            mode,
            verify,
            side,
            positions,
            velocities,
            handles,
            bodies: RigidBodySet::new(),
            colliders,
            islands: IslandManager::new(),
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            pipeline: CollisionPipeline::new(),
        }
    }

    /// The initial positions and velocities, as the recipe drew them.
    pub fn drawn(&self) -> Vec<Drawn> {
        self.positions
            .iter()
            .zip(&self.velocities)
            .map(|(&centre, &linvel)| Drawn {
                centre,
                rotation: IDENTITY,
                linvel,
            })
            .collect()
    }

    /// (pairs with centre distance < 1, their contact points, all pairs the broad phase
    /// handed over), as rapier reports them.
    fn counts(&self) -> (usize, usize, usize) {
        match self.mode {
            GasMode::Contact => {
                let (mut pairs, mut points, mut bp) = (0, 0, 0);
                for pair in self.narrow_phase.contact_pairs() {
                    bp += 1;
                    let touching = pair
                        .manifolds()
                        .iter()
                        .flat_map(|m| &m.points)
                        .filter(|p| p.dist <= 0.0)
                        .count();
                    points += touching;
                    pairs += usize::from(touching > 0);
                }
                (pairs, points, bp)
            }
            GasMode::Sensor => {
                let (mut pairs, mut bp) = (0, 0);
                for (_, _, intersecting) in self.narrow_phase.intersection_pairs() {
                    bp += 1;
                    pairs += usize::from(intersecting);
                }
                (pairs, pairs, bp)
            }
        }
    }

    /// Pairs with centre distance < 1 from the f32 positions handed to rapier, counted
    /// independently of it (cells of side 1, every pair of neighbouring cells tested).
    fn reference_pairs(&self) -> usize {
        let p: Vec<[f64; 3]> = self
            .positions
            .iter()
            .map(|&p| v3(p))
            .map(|v| [v.x as f64, v.y as f64, v.z as f64])
            .collect();
        let cells = (self.side.ceil() as i64 + 1).max(1);
        let cell_of = |x: f64| (x.floor() as i64).clamp(0, cells - 1);
        let key = |c: [i64; 3]| ((c[0] * cells + c[1]) * cells + c[2]) as usize;
        let mut start = vec![0usize; (cells * cells * cells) as usize + 1];
        let coords: Vec<[i64; 3]> = p
            .iter()
            .map(|q| [cell_of(q[0]), cell_of(q[1]), cell_of(q[2])])
            .collect();
        for c in &coords {
            start[key(*c) + 1] += 1;
        }
        for k in 1..start.len() {
            start[k] += start[k - 1];
        }
        let mut fill = start.clone();
        let mut order = vec![0usize; p.len()];
        for (i, c) in coords.iter().enumerate() {
            let k = key(*c);
            order[fill[k]] = i;
            fill[k] += 1;
        }
        let mut count = 0;
        for (i, c) in coords.iter().enumerate() {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        let d = [c[0] + dx, c[1] + dy, c[2] + dz];
                        if d.iter().any(|&x| x < 0 || x >= cells) {
                            continue;
                        }
                        let k = key(d);
                        for &j in &order[start[k]..start[k + 1]] {
                            if j > i {
                                let r2 = (0..3).map(|a| (p[i][a] - p[j][a]).powi(2)).sum::<f64>();
                                count += usize::from(r2 < 1.0);
                            }
                        }
                    }
                }
            }
        }
        count
    }
}

impl Bench for Gas {
    fn step(&mut self) -> Duration {
        let l = self.side;
        for ((p, v), &h) in self
            .positions
            .iter_mut()
            .zip(&self.velocities)
            .zip(&self.handles)
        {
            for a in 0..3 {
                let x = p[a] + v[a] * DT;
                p[a] = x - l * (x / l).floor();
            }
            self.colliders[h].set_translation(v3(*p));
        }
        let start = Instant::now();
        self.pipeline.step(
            0.0,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
        start.elapsed()
    }

    fn report(&self, line: &mut Line) {
        let (pairs, contacts, bp) = self.counts();
        line.int("pairs_last_step", pairs as u64)
            .int("contacts_last_step", contacts as u64)
            .int("bp_pairs_last_step", bp as u64);
        if self.verify {
            line.int("brute_force_pairs_last_step", self.reference_pairs() as u64);
        }
        line.num("box_side", self.side, 4)
            .str("gas_mode", self.mode.name());
    }
}
