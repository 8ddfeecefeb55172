//! The peer scenes `balls` and `boxes` (shared/peers/rapier-bench/README.md, normative).
//!
//! `s = lattice_side(N)`, `layers = ceil(N / s²)`. Body i: `ix = i mod s`,
//! `iz = (i div s) mod s`, `iy = i div s²`; centre
//! `((ix − (s−1)/2)·h + jx, 1.0 + iy·h + jy, (iz − (s−1)/2)·h + jz)`.
//! Draw order per body — balls: jx, jy, jz, vx, vy, vz; boxes: jx, jy, jz, u1, u2, u3, vx, vy, vz
//! with jitter `uniform(−0.05, 0.05)` and velocity `uniform(−1, 1)`. Spacing h = 1.1 (balls,
//! radius 0.5) or 1.8 (boxes, half-extents 0.5); density 1, friction 0.5, restitution 0.5.

use super::{BodySpec, Container, Scene, SceneKind, ShapeSpec};
use crate::recipe::{lattice_side, Recipe};

/// The lattice of a peer scene with `n` bodies at spacing `h`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatticeParams {
    /// Bodies per row, `lattice_side(n)`.
    pub side: usize,
    /// Number of layers, `ceil(n / side²)`.
    pub layers: usize,
    /// Spacing between lattice sites (metres).
    pub spacing: f64,
}

impl LatticeParams {
    /// The lattice holding `n` bodies at spacing `spacing`.
    pub fn new(n: usize, spacing: f64) -> Self {
        let side = lattice_side(n).max(1);
        Self {
            side,
            layers: n.div_ceil(side * side),
            spacing,
        }
    }

    /// The undisturbed site of body `i` (before jitter), metres.
    pub fn site(&self, i: usize) -> [f64; 3] {
        let s = self.side;
        let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
        let half = (s as f64 - 1.0) / 2.0;
        [
            (ix as f64 - half) * self.spacing,
            1.0 + iy as f64 * self.spacing,
            (iz as f64 - half) * self.spacing,
        ]
    }

    /// The container of the peer README around this lattice.
    pub fn container(&self) -> Container {
        Container::for_lattice(self.side, self.spacing, self.layers)
    }
}

pub(super) fn add(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// Puts the container's five cuboids after the dynamic bodies and wraps up the scene.
pub(super) fn in_container(
    kind: SceneKind,
    mut bodies: Vec<BodySpec>,
    container: Container,
) -> Scene {
    bodies.extend(container.colliders());
    Scene {
        kind,
        joints: Vec::new(),
        bodies,
        inside: container.inside(),
        container: Some(container),
        spin: None,
        wants_ccd: false,
    }
}

/// The `balls` scene with `n` balls, recipe seeded with `seed` (42 for the peer figures).
pub fn balls(n: usize, seed: u64) -> Scene {
    let lattice = LatticeParams::new(n, 1.1);
    let mut rng = Recipe::new(seed);
    let bodies = (0..n)
        .map(|i| {
            let jitter = rng.uniform3(-0.05, 0.05);
            let linvel = rng.uniform3(-1.0, 1.0);
            BodySpec {
                linvel,
                ..BodySpec::dynamic(
                    ShapeSpec::Ball { radius: 0.5 },
                    add(lattice.site(i), jitter),
                )
            }
        })
        .collect();
    in_container(SceneKind::Balls, bodies, lattice.container())
}

/// The `boxes` scene with `n` unit cubes, recipe seeded with `seed` (42 for the peer figures).
pub fn boxes(n: usize, seed: u64) -> Scene {
    let lattice = LatticeParams::new(n, 1.8);
    let mut rng = Recipe::new(seed);
    let bodies = (0..n)
        .map(|i| {
            let jitter = rng.uniform3(-0.05, 0.05);
            let rotation = rng.rotation();
            let linvel = rng.uniform3(-1.0, 1.0);
            BodySpec {
                rotation,
                linvel,
                ..BodySpec::dynamic(
                    ShapeSpec::Cuboid {
                        half_extents: [0.5; 3],
                    },
                    add(lattice.site(i), jitter),
                )
            }
        })
        .collect();
    in_container(SceneKind::Boxes, bodies, lattice.container())
}
