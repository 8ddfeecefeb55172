//! The peer scenes `terrain` and `terrain_mesh` (shared/peers/rapier-bench/README.md, section
//! "Scenes terrain and terrain_mesh", normative): balls and cubes dropped on a wavy static
//! ground, given as a heightfield (`terrain`) or as the triangle mesh of the same triangles
//! (`terrain_mesh`).
//!
//! Surface: `h(x, z) = 2·sin(x/7)·cos(z/5) + 0.5·sin(x/2.3 + z/3.1)` (radians, f64). Samples at
//! the corners `(i, j)`, `i, j = 0..256`: `x_i = −100 + 200·i/256`, `z_j = −100 + 200·j/256`,
//! `y_ij = h(x_i, z_j)`. Cell `(i, j)` is split by the diagonal from corner `(i, j+1)` to
//! corner `(i+1, j)` into the triangles `(i, j), (i, j+1), (i+1, j)` and
//! `(i, j+1), (i+1, j+1), (i+1, j)` (normals +y). The heightfield has rows along z and columns
//! along x, scale (200, 1, 200), at the origin (Tumble's [`HeightField`] has this layout and
//! this split); the mesh has vertex `(i, j)` at index `j·257 + i` and its triangles cell by
//! cell, `j` then `i`. Static, friction 0.5, restitution 0.5.
//!
//! Bodies: the `balls` recipe's indexing and draws on the `boxes` lattice, raised:
//! `s = lattice_side(N)`, spacing 1.8, `ix = i mod s`, `iz = (i div s) mod s`, `iy = i div s²`,
//! centre `((ix − (s−1)/2)·1.8 + jx, 5.0 + iy·1.8 + jy, (iz − (s−1)/2)·1.8 + jz)`. Even `i`: a
//! ball of radius 0.5; odd `i`: a unit cube (half-extents 0.5) with a random rotation. Draws
//! per body: jx, jy, jz = uniform(−0.05, 0.05); for odd `i` only u1, u2, u3 (rotation); vx,
//! vy, vz = uniform(−1, 1). Density 1, friction 0.5, restitution 0.5. No walls.
//!
//! Reported: `escaped_bodies` (|x| > 100 or |z| > 100, or y < h(x, z) − 1 with the analytic
//! h), `min_height_above_surface` (the smallest y − h(x, z) over the bodies), `ground`.

use super::lattice::add;
use super::{BodySpec, Motion, Region, Scene, SceneKind, ShapeSpec};
use crate::recipe::{lattice_side, Recipe};
use tumble::math::{Point, Real, Vector};
use tumble::narrowphase::mesh::{HeightField, TriMesh};
use tumble::narrowphase::MeshError;

/// Samples per side of the terrain grid (257 × 257 corners, 256 × 256 cells).
pub const TERRAIN_SAMPLES: usize = 257;

/// Half the side of the square the terrain covers, metres: x and z in `[−100, 100]`.
pub const TERRAIN_HALF: f64 = 100.0;

/// Height of the first lattice layer's sites, metres (the surface reaches 2.5).
pub const TERRAIN_DROP_HEIGHT: f64 = 5.0;

/// Lattice spacing of the terrain scenes, metres (cubes need it).
pub const TERRAIN_SPACING: f64 = 1.8;

/// Which form the ground takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ground {
    /// A [`HeightField`] of the samples (`terrain`).
    HeightField,
    /// A [`TriMesh`] of the same vertices and triangles (`terrain_mesh`).
    TriMesh,
}

impl Ground {
    /// The name the JSON line reports: "heightfield" or "trimesh".
    pub fn name(self) -> &'static str {
        match self {
            Ground::HeightField => "heightfield",
            Ground::TriMesh => "trimesh",
        }
    }
}

/// The analytic surface height at `(x, z)`, metres (world frame, y up).
pub fn terrain_height(x: f64, z: f64) -> f64 {
    2.0 * (x / 7.0).sin() * (z / 5.0).cos() + 0.5 * (x / 2.3 + z / 3.1).sin()
}

/// The coordinate of sample `k` along x or z, metres: `−100 + 200·k/256`.
pub fn terrain_coordinate(k: usize) -> f64 {
    -TERRAIN_HALF + 2.0 * TERRAIN_HALF * k as f64 / (TERRAIN_SAMPLES - 1) as f64
}

/// The sample heights, row-major: sample `(i, j)` (column `i` along x, row `j` along z) at
/// `j·257 + i`, `h(x_i, z_j)` in metres (f64, as drawn).
pub fn terrain_heights() -> Vec<f64> {
    let n = TERRAIN_SAMPLES;
    let mut h = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            h.push(terrain_height(terrain_coordinate(i), terrain_coordinate(j)));
        }
    }
    h
}

/// The heightfield of `terrain`: 257 × 257 samples cast to f32, scale (200, 1, 200).
pub fn terrain_heightfield() -> Result<HeightField, MeshError> {
    let heights: Vec<Real> = terrain_heights().iter().map(|&y| y as Real).collect();
    let side = 2.0 * TERRAIN_HALF as Real;
    HeightField::new(
        TERRAIN_SAMPLES,
        TERRAIN_SAMPLES,
        &heights,
        Vector::new(side, 1.0, side),
    )
}

/// The vertices and triangles of `terrain_mesh`: vertex `(i, j)` at index `j·257 + i`, at
/// `(x_i, y_ij, z_j)` cast to f32; per cell `(i, j)`, `j` then `i`, the triangles
/// `(i, j), (i, j+1), (i+1, j)` and `(i, j+1), (i+1, j+1), (i+1, j)`.
pub fn terrain_mesh_data() -> (Vec<Point>, Vec<[u32; 3]>) {
    let n = TERRAIN_SAMPLES;
    let heights = terrain_heights();
    let mut vertices = Vec::with_capacity(n * n);
    for j in 0..n {
        for i in 0..n {
            vertices.push(Point::new(
                terrain_coordinate(i) as Real,
                heights[j * n + i] as Real,
                terrain_coordinate(j) as Real,
            ));
        }
    }
    let at = |i: usize, j: usize| (j * n + i) as u32;
    let mut indices = Vec::with_capacity(2 * (n - 1) * (n - 1));
    for j in 0..n - 1 {
        for i in 0..n - 1 {
            indices.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            indices.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    (vertices, indices)
}

/// The triangle mesh of `terrain_mesh` ([`terrain_mesh_data`]).
pub fn terrain_trimesh() -> Result<TriMesh, MeshError> {
    let (v, i) = terrain_mesh_data();
    TriMesh::new(&v, &i)
}

/// The `terrain` scene: `n` bodies falling on the heightfield, recipe seeded with `seed`.
pub fn terrain(n: usize, seed: u64) -> Scene {
    terrain_scene(n, seed, Ground::HeightField)
}

/// The `terrain_mesh` scene: `terrain` with the ground as a triangle mesh.
pub fn terrain_mesh(n: usize, seed: u64) -> Scene {
    terrain_scene(n, seed, Ground::TriMesh)
}

fn terrain_scene(n: usize, seed: u64, ground: Ground) -> Scene {
    let s = lattice_side(n).max(1);
    let half = (s as f64 - 1.0) / 2.0;
    let mut rng = Recipe::new(seed);
    let mut bodies: Vec<BodySpec> = (0..n)
        .map(|i| {
            let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
            let site = [
                (ix as f64 - half) * TERRAIN_SPACING,
                TERRAIN_DROP_HEIGHT + iy as f64 * TERRAIN_SPACING,
                (iz as f64 - half) * TERRAIN_SPACING,
            ];
            let jitter = rng.uniform3(-0.05, 0.05);
            let (shape, rotation) = if i % 2 == 0 {
                (ShapeSpec::Ball { radius: 0.5 }, super::IDENTITY_ROTATION)
            } else {
                let cube = ShapeSpec::Cuboid {
                    half_extents: [0.5; 3],
                };
                (cube, rng.rotation())
            };
            let linvel = rng.uniform3(-1.0, 1.0);
            BodySpec {
                rotation,
                linvel,
                ..BodySpec::dynamic(shape, add(site, jitter))
            }
        })
        .collect();
    bodies.push(BodySpec {
        motion: Motion::Static,
        ..BodySpec::dynamic(ShapeSpec::Terrain { ground }, [0.0; 3])
    });
    let kind = match ground {
        Ground::HeightField => SceneKind::Terrain,
        Ground::TriMesh => SceneKind::TerrainMesh,
    };
    Scene {
        kind,
        joints: Vec::new(),
        bodies,
        inside: Region {
            min: [-TERRAIN_HALF, f64::NEG_INFINITY, -TERRAIN_HALF],
            max: [TERRAIN_HALF, f64::INFINITY, TERRAIN_HALF],
        },
        spin: None,
        container: None,
        wants_ccd: false,
    }
}

/// Centres that escaped the terrain: outside `|x| ≤ 100`, `|z| ≤ 100`, or more than 1 m below
/// the analytic surface (`y < h(x, z) − 1`), or not finite.
pub fn terrain_escaped(centres: &[[f64; 3]]) -> usize {
    centres
        .iter()
        .filter(|c| {
            !c.iter().all(|x| x.is_finite())
                || c[0].abs() > TERRAIN_HALF
                || c[2].abs() > TERRAIN_HALF
                || c[1] < terrain_height(c[0], c[2]) - 1.0
        })
        .count()
}

/// The smallest height of a centre above the analytic surface, `min (y − h(x, z))`, metres
/// (`None` without a centre).
pub fn min_height_above_surface(centres: &[[f64; 3]]) -> Option<f64> {
    centres
        .iter()
        .map(|c| c[1] - terrain_height(c[0], c[2]))
        .fold(None, |m: Option<f64>, d| Some(m.map_or(d, |m| m.min(d))))
}
