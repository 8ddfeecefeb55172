//! Tumble's own scenes beyond the peer README: `pyramid_cubes` (stacking), `mixed` (sizes and shapes
//! side by side), `projectiles` (continuous collision). Their recipes are written here, draw
//! for draw, so that they are as reproducible as the peer scenes.

use super::lattice::{add, in_container};
use super::{BodySpec, Region, Scene, SceneKind, ShapeSpec};
use crate::recipe::Recipe;

/// Horizontal gap between neighbouring cubes of the pyramid (metres), so that they do not
/// start in side contact.
pub const PYRAMID_GAP: f64 = 0.02;

/// The number of layers of a square pyramid holding at least `n` cubes: the smallest `L` with
/// 1² + 2² + … + L² ≥ n.
pub fn pyramid_layers(n: usize) -> usize {
    let (mut layers, mut total) = (0usize, 0usize);
    while total < n {
        layers += 1;
        total += layers * layers;
    }
    layers
}

/// A square pyramid of `n` unit cubes (half-extents 0.5) resting on a static ground plate whose
/// top face is at y = 0. Layer j (0 at the bottom) is a (L−j)×(L−j) square of cubes spaced
/// `1 + PYRAMID_GAP` apart horizontally, centres at y = 0.5 + j, stacked face on face; the first
/// `n` cubes bottom-up are kept, so the top is incomplete unless `n` is a sum of squares.
/// No randomness. Escaped: a centre off the plate or below its top.
pub fn pyramid_cubes(n: usize) -> Scene {
    let layers = pyramid_layers(n);
    let pitch = 1.0 + PYRAMID_GAP;
    let cube = ShapeSpec::Cuboid {
        half_extents: [0.5; 3],
    };
    let mut bodies = Vec::with_capacity(n + 1);
    'fill: for j in 0..layers {
        let side = layers - j;
        let half = (side as f64 - 1.0) / 2.0;
        for iz in 0..side {
            for ix in 0..side {
                if bodies.len() == n {
                    break 'fill;
                }
                let centre = [
                    (ix as f64 - half) * pitch,
                    0.5 + j as f64,
                    (iz as f64 - half) * pitch,
                ];
                bodies.push(BodySpec::dynamic(cube, centre));
            }
        }
    }
    let plate = layers as f64 * pitch / 2.0 + 2.0;
    bodies.push(BodySpec::static_cuboid(
        [plate, 0.5, plate],
        [0.0, -0.5, 0.0],
    ));
    Scene {
        kind: SceneKind::PyramidCubes,
        joints: Vec::new(),
        bodies,
        inside: Region {
            min: [-plate, 0.0, -plate],
            max: [plate, f64::INFINITY, plate],
        },
        container: None,
        spin: None,
        wants_ccd: false,
    }
}

/// Balls and boxes of random sizes on the `boxes` lattice (spacing 1.8) falling into the peer
/// container. Draw order per body: `k = unit()` (a ball when k < 0.5); a ball then draws its
/// radius `uniform(0.2, 0.6)`, a box its half-extents (3 × `uniform(0.15, 0.5)`) and rotation
/// (u1, u2, u3); then both draw jitter (3 × `uniform(−0.05, 0.05)`) and velocity
/// (3 × `uniform(−1, 1)`). Every shape fits in a sphere of radius 0.87 < 0.9 − 0.05, so no two
/// bodies overlap at t = 0. Density 1, friction 0.5, restitution 0.5.
pub fn mixed(n: usize, seed: u64) -> Scene {
    let lattice = super::LatticeParams::new(n, 1.8);
    let mut rng = Recipe::new(seed);
    let bodies = (0..n)
        .map(|i| {
            let (shape, rotation) = if rng.unit() < 0.5 {
                let radius = rng.uniform(0.2, 0.6);
                (ShapeSpec::Ball { radius }, super::IDENTITY_ROTATION)
            } else {
                let half_extents = rng.uniform3(0.15, 0.5);
                (ShapeSpec::Cuboid { half_extents }, rng.rotation())
            };
            let jitter = rng.uniform3(-0.05, 0.05);
            let linvel = rng.uniform3(-1.0, 1.0);
            BodySpec {
                rotation,
                linvel,
                ..BodySpec::dynamic(shape, add(lattice.site(i), jitter))
            }
        })
        .collect();
    in_container(SceneKind::Mixed, bodies, lattice.container())
}

/// Radius of a projectile (metres): 4 cm across.
pub const PROJECTILE_RADIUS: f64 = 0.02;
/// Speed of a projectile along +x (m/s): 5 m per 1/60 s step, 100 times the wall's thickness.
pub const PROJECTILE_SPEED: f64 = 300.0;
/// Half the thickness of the wall (metres): 5 cm thick.
pub const WALL_HALF_THICKNESS: f64 = 0.025;

/// `n` small fast balls fired at a thin static wall, continuous collision on for each.
/// The projectiles sit on a square grid (side `s = ceil(√n)`, pitch 0.1 m) in the plane
/// x = −3: projectile i at `(−3, 1 + (i div s)·0.1, ((i mod s) − (s−1)/2)·0.1)`, velocity
/// `(300, vy, vz)` with vy, vz = `uniform(−1, 1)` drawn in that order. The wall (5 cm thick)
/// stands at x = 0 on a ground plate whose top is at y = 0. Escaped: a centre past the wall's
/// mid-plane (x > 0), i.e. a projectile that tunnelled.
pub fn projectiles(n: usize, seed: u64) -> Scene {
    let side = (1..).find(|s| s * s >= n).unwrap_or(1);
    let pitch = 0.1;
    let half = (side as f64 - 1.0) / 2.0;
    let mut rng = Recipe::new(seed);
    let mut bodies: Vec<BodySpec> = (0..n)
        .map(|i| {
            let vy = rng.uniform(-1.0, 1.0);
            let vz = rng.uniform(-1.0, 1.0);
            let centre = [
                -3.0,
                1.0 + (i / side) as f64 * pitch,
                ((i % side) as f64 - half) * pitch,
            ];
            BodySpec {
                linvel: [PROJECTILE_SPEED, vy, vz],
                ccd: true,
                ..BodySpec::dynamic(
                    ShapeSpec::Ball {
                        radius: PROJECTILE_RADIUS,
                    },
                    centre,
                )
            }
        })
        .collect();
    let extent = side as f64 * pitch / 2.0 + 1.0;
    let height = side as f64 * pitch + 2.0;
    bodies.push(BodySpec::static_cuboid(
        [WALL_HALF_THICKNESS, height / 2.0, extent],
        [0.0, height / 2.0, 0.0],
    ));
    bodies.push(BodySpec::static_cuboid(
        [8.0, 0.5, extent],
        [0.0, -0.5, 0.0],
    ));
    Scene {
        kind: SceneKind::Projectiles,
        joints: Vec::new(),
        bodies,
        inside: Region {
            min: [f64::NEG_INFINITY; 3],
            max: [0.0, f64::INFINITY, f64::INFINITY],
        },
        container: None,
        spin: None,
        wants_ccd: true,
    }
}
