//! The peer scenes of resting contact and a moving container (shared/peers/rapier-bench/README.md,
//! "Scenes of resting contact, joints, terrain and a moving container", normative):
//! `pyramid`, `stacks`, `tumbler` and `settle`.
//!
//! *Unit cube*: half-extents (0.5, 0.5, 0.5), density 1, friction 0.6, restitution 0.
//! *Ground*: static cuboid with half-extents (a, 0.5, a) centred (0, −0.5, 0) (top face at
//! y = 0), friction 0.6, restitution 0. Every collider of one of these scenes has the same
//! friction and restitution. Bodies are listed in the order the README states (it fixes the
//! solver's order); the dynamic bodies come first, so body `i` of the recipe is handle `i`.

use super::lattice::add;
use super::{boxes, BodySpec, Motion, Region, Scene, SceneKind, ShapeSpec, Spin};
use crate::recipe::{lattice_side, Recipe};

/// The largest number of dynamic bodies a scene of this module may have (the runner's `--n`
/// limit): a larger `pyramid` or `stacks` is refused by [`super::BuiltScene::new`].
pub const MAX_SCENE_BODIES: usize = 1_000_000;

/// Friction of every collider of `pyramid`, `stacks` and `tumbler`.
const FRICTION: f64 = 0.6;
/// Restitution of every collider of `pyramid`, `stacks` and `tumbler`.
const RESTITUTION: f64 = 0.0;
/// Horizontal distance between the centres of neighbouring pyramid cubes (metres): a gap of
/// 0.01 between side faces.
const PYRAMID_PITCH: f64 = 1.01;

/// Towers per side of the `stacks` grid (10 × 10 towers).
pub const STACKS_SIDE: usize = 10;
/// Distance between neighbouring towers of `stacks` (metres).
pub const STACKS_PITCH: f64 = 3.0;

/// The centre of the tumbler's box at t = 0, which stays put (metres).
pub const TUMBLER_CENTRE: [f64; 3] = [0.0, 15.0, 0.0];
/// The tumbler's angular velocity about its centre (rad/s), about +z.
pub const TUMBLER_SPIN: f64 = 0.25;
/// Half the inner side of the tumbler's box (metres): inner faces at ±10 in its frame.
pub const TUMBLER_HALF: f64 = 10.0;
/// The largest lattice side that fits in the tumbler (21³ = 9261 cubes).
pub const TUMBLER_MAX_SIDE: usize = 21;
/// Spacing of the tumbler's lattice (metres): the `boxes` lattice halved.
const TUMBLER_SPACING: f64 = 0.9;
/// Half-extent of a tumbler cube (metres).
const TUMBLER_CUBE: f64 = 0.25;

fn unit_cube(centre: [f64; 3]) -> BodySpec {
    BodySpec::dynamic(
        ShapeSpec::Cuboid {
            half_extents: [0.5; 3],
        },
        centre,
    )
    .with_material(FRICTION, RESTITUTION)
}

/// The static ground of half-width `a`, with its region: a centre below y = 0 or beyond
/// |x| = a or |z| = a has escaped.
fn ground(a: f64) -> (BodySpec, Region) {
    let plate =
        BodySpec::static_cuboid([a, 0.5, a], [0.0, -0.5, 0.0]).with_material(FRICTION, RESTITUTION);
    let region = Region {
        min: [-a, 0.0, -a],
        max: [a, f64::INFINITY, a],
    };
    (plate, region)
}

/// The number of cubes of a pyramid of base side `b`: b(b+1)(2b+1)/6.
pub fn pyramid_body_count(b: usize) -> usize {
    b * (b + 1) * (2 * b + 1) / 6
}

/// The `pyramid` of base side `b`: layer k = 0..b−1 (0 at the bottom) is a (b−k)×(b−k) square
/// of unit cubes, axis-aligned, at rest; cube (ix, iz) of layer k has its centre at
/// ((ix − (b−k−1)/2)·1.01, 0.5 + k, (iz − (b−k−1)/2)·1.01). Order: layer k, then iz, then ix
/// (the top cube is the last dynamic body); then the ground of half-width b + 10. No random
/// draws.
pub fn pyramid(b: usize) -> Scene {
    let mut bodies = Vec::with_capacity(pyramid_body_count(b) + 1);
    for k in 0..b {
        let side = b - k;
        let half = (side as f64 - 1.0) / 2.0;
        for iz in 0..side {
            for ix in 0..side {
                bodies.push(unit_cube([
                    (ix as f64 - half) * PYRAMID_PITCH,
                    0.5 + k as f64,
                    (iz as f64 - half) * PYRAMID_PITCH,
                ]));
            }
        }
    }
    let (plate, inside) = ground(b as f64 + 10.0);
    bodies.push(plate);
    Scene {
        kind: SceneKind::Pyramid,
        joints: Vec::new(),
        bodies,
        inside,
        container: None,
        spin: None,
        wants_ccd: false,
    }
}

/// The `stacks` of tower height `h`: 10 × 10 towers, tower (tx, tz) at
/// x = (tx − 4.5)·3, z = (tz − 4.5)·3; its cube k = 0..h−1 has its centre at (x, 0.5 + k, z),
/// axis-aligned, at rest, faces touching. Order: tz, then tx, then k bottom-up (tower t holds
/// dynamic bodies t·h .. t·h + h − 1); then the ground of half-width 15 + h. No random draws.
pub fn stacks(h: usize) -> Scene {
    let mut bodies = Vec::with_capacity(STACKS_SIDE * STACKS_SIDE * h + 1);
    let half = (STACKS_SIDE as f64 - 1.0) / 2.0;
    for tz in 0..STACKS_SIDE {
        for tx in 0..STACKS_SIDE {
            let x = (tx as f64 - half) * STACKS_PITCH;
            let z = (tz as f64 - half) * STACKS_PITCH;
            for k in 0..h {
                bodies.push(unit_cube([x, 0.5 + k as f64, z]));
            }
        }
    }
    let (plate, inside) = ground(15.0 + h as f64);
    bodies.push(plate);
    Scene {
        kind: SceneKind::Stacks,
        joints: Vec::new(),
        bodies,
        inside,
        container: None,
        spin: None,
        wants_ccd: false,
    }
}

/// The six walls of the tumbler's box in its frame (origin at its centre), as
/// (half-extents, centre), in the order −x, +x, −y, +y, −z, +z: walls of thickness 1 around an
/// inner cube of side 20 (inner faces at ±10).
pub fn tumbler_walls() -> [([f64; 3], [f64; 3]); 6] {
    let (a, o) = (TUMBLER_HALF + 1.0, TUMBLER_HALF + 0.5);
    [
        ([0.5, a, a], [-o, 0.0, 0.0]),
        ([0.5, a, a], [o, 0.0, 0.0]),
        ([a, 0.5, a], [0.0, -o, 0.0]),
        ([a, 0.5, a], [0.0, o, 0.0]),
        ([a, a, 0.5], [0.0, 0.0, -o]),
        ([a, a, 0.5], [0.0, 0.0, o]),
    ]
}

/// The `tumbler` with `n` cubes, recipe seeded with `seed` (42 for the peer figures).
///
/// Cubes of half-extent 0.25 (density 1, friction 0.6, restitution 0) on the `boxes` lattice
/// halved: s = lattice_side(n), spacing 0.9, centre
/// ((ix − (s−1)/2)·0.9 + jx, 5.5 + iy·0.9 + jy, (iz − (s−1)/2)·0.9 + jz), indices and draws
/// exactly as `boxes` (jx, jy, jz = uniform(−0.05, 0.05), u1, u2, u3, vx, vy, vz =
/// uniform(−1, 1)). Then the box: the README's one kinematic body with six colliders is built
/// as six kinematic cuboids (order −x, +x, −y, +y, −z, +z) that turn together about
/// (0, 15, 0) at (0, 0, 0.25) rad/s (the scene's [`Spin`]); each starts with that angular
/// velocity and the linear velocity ω × (c − (0, 15, 0)) of its centre c. Escaped: a cube
/// centre beyond ±11 on any axis of the box's frame. At most 21³ = 9261 cubes fit; a larger
/// `n` is refused by [`super::BuiltScene::new`].
pub fn tumbler(n: usize, seed: u64) -> Scene {
    let s = lattice_side(n).max(1);
    let half = (s as f64 - 1.0) / 2.0;
    let floor = TUMBLER_CENTRE[1] - TUMBLER_HALF + 0.5;
    let mut rng = Recipe::new(seed);
    let mut bodies: Vec<BodySpec> = (0..n)
        .map(|i| {
            let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
            let site = [
                (ix as f64 - half) * TUMBLER_SPACING,
                floor + iy as f64 * TUMBLER_SPACING,
                (iz as f64 - half) * TUMBLER_SPACING,
            ];
            let jitter = rng.uniform3(-0.05, 0.05);
            let rotation = rng.rotation();
            let linvel = rng.uniform3(-1.0, 1.0);
            BodySpec {
                rotation,
                linvel,
                ..BodySpec::dynamic(
                    ShapeSpec::Cuboid {
                        half_extents: [TUMBLER_CUBE; 3],
                    },
                    add(site, jitter),
                )
                .with_material(FRICTION, RESTITUTION)
            }
        })
        .collect();
    let w = [0.0, 0.0, TUMBLER_SPIN];
    for (half_extents, local) in tumbler_walls() {
        // ω × r for ω = (0, 0, w_z): (−w_z r_y, w_z r_x, 0).
        let linvel = [-w[2] * local[1], w[2] * local[0], 0.0];
        bodies.push(BodySpec {
            motion: Motion::Kinematic,
            linvel,
            angvel: w,
            ..BodySpec::static_cuboid(half_extents, add(TUMBLER_CENTRE, local))
                .with_material(FRICTION, RESTITUTION)
        });
    }
    let grown = TUMBLER_HALF + 1.0;
    Scene {
        kind: SceneKind::Tumbler,
        joints: Vec::new(),
        bodies,
        inside: Region {
            min: [-grown; 3],
            max: [grown; 3],
        },
        container: None,
        spin: Some(Spin {
            centre: TUMBLER_CENTRE,
            angvel: w,
        }),
        wants_ccd: false,
    }
}

/// The `settle` scene: exactly [`boxes`] with `n` cubes (same lattice, draws and container),
/// named `settle`; the runner gives it 600 warm-up steps.
pub fn settle(n: usize, seed: u64) -> Scene {
    Scene {
        kind: SceneKind::Settle,
        ..boxes(n, seed)
    }
}
