//! The rigid-body scenes of `shared/peers/rapier-bench/README.md`, built in rapier in the order
//! the definitions give (dynamic bodies in recipe order, then the static ground or container),
//! and the figures each one reports after the last step.

use crate::world::{pose, v3, World, IDENTITY};
use crate::Bench;
use rapier3d::parry::utils::Array2;
use rapier3d::prelude::*;
use std::time::Duration;
use tumble_peers::json::Line;
use tumble_peers::recipe::{lattice_side, square_side, Recipe};

/// One dynamic body of a lattice scene as the recipe draws it (f64).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drawn {
    /// Centre, world space.
    pub centre: [f64; 3],
    /// Orientation `[x, y, z, w]` (identity when not drawn).
    pub rotation: [f64; 4],
    /// Linear velocity.
    pub linvel: [f64; 3],
}

/// The jittered lattice shared by `balls`, `boxes`, `terrain` and `tumbler`: body i sits at
/// (ix, iy, iz) = (i mod s, i div s², (i div s) mod s), spacing `h`, first layer at `y0`;
/// per body, draws jx, jy, jz = uniform(−0.05, 0.05), then (if `rotated(i)`) u1, u2, u3,
/// then vx, vy, vz = uniform(−1, 1).
pub fn lattice(
    n: usize,
    seed: u64,
    h: f64,
    y0: f64,
    rotated: impl Fn(usize) -> bool,
) -> Vec<Drawn> {
    let s = lattice_side(n);
    let mid = (s as f64 - 1.0) / 2.0;
    let mut r = Recipe::new(seed);
    (0..n)
        .map(|i| {
            let (ix, iz, iy) = (i % s, (i / s) % s, i / (s * s));
            let j = r.uniform3(-0.05, 0.05);
            let rotation = if rotated(i) { r.rotation() } else { IDENTITY };
            let linvel = r.uniform3(-1.0, 1.0);
            let centre = [
                (ix as f64 - mid) * h + j[0],
                y0 + iy as f64 * h + j[1],
                (iz as f64 - mid) * h + j[2],
            ];
            Drawn {
                centre,
                rotation,
                linvel,
            }
        })
        .collect()
}

/// Friction and restitution shared by every collider of a scene.
#[derive(Clone, Copy)]
struct Material {
    friction: f32,
    restitution: f32,
}

const PEER_MATERIAL: Material = Material {
    friction: 0.5,
    restitution: 0.5,
};
const CUBE_MATERIAL: Material = Material {
    friction: 0.6,
    restitution: 0.0,
};
const NET_MATERIAL: Material = Material {
    friction: 0.5,
    restitution: 0.0,
};

impl Material {
    fn on(self, c: ColliderBuilder) -> ColliderBuilder {
        c.friction(self.friction).restitution(self.restitution)
    }
}

fn ball(radius: f64, m: Material) -> ColliderBuilder {
    m.on(ColliderBuilder::ball(radius as f32).density(1.0))
}

fn cuboid(he: [f64; 3], m: Material) -> ColliderBuilder {
    m.on(ColliderBuilder::cuboid(he[0] as f32, he[1] as f32, he[2] as f32).density(1.0))
}

/// A unit cube at rest, axis-aligned, centred at `c`: its handle and start centre recorded.
fn add_unit_cube(
    world: &mut World,
    c: [f64; 3],
    handles: &mut Vec<RigidBodyHandle>,
    start: &mut Vec<[f64; 3]>,
) {
    handles.push(world.add_dynamic(
        pose(c, IDENTITY),
        Vector::ZERO,
        cuboid([0.5; 3], CUBE_MATERIAL),
    ));
    start.push(c);
}

fn static_cuboid(he: [f64; 3], centre: [f64; 3], m: Material) -> ColliderBuilder {
    cuboid(he, m).translation(v3(centre))
}

/// Adds the drawn bodies with the collider `shape(i)` each; returns their handles.
fn add_drawn(
    world: &mut World,
    drawn: &[Drawn],
    shape: impl Fn(usize) -> ColliderBuilder,
) -> Vec<RigidBodyHandle> {
    drawn
        .iter()
        .enumerate()
        .map(|(i, d)| world.add_dynamic(pose(d.centre, d.rotation), v3(d.linvel), shape(i)))
        .collect()
}

/// The figures every rigid-body scene reports first, `pairs_last_step` to `max_body_y`.
fn common_fields(world: &World, escaped: usize, line: &mut Line) {
    let c = world.contact_counts();
    line.int("pairs_last_step", c.pairs as u64)
        .int("contacts_last_step", c.contacts as u64)
        .int("bp_pairs_last_step", c.bp_pairs as u64)
        .int("manifold_points_last_step", c.manifold_points as u64)
        .int("penetrating_points_last_step", c.penetrating_points as u64)
        .int("awake_bodies_last_step", world.awake_bodies() as u64)
        .int("escaped_bodies", escaped as u64)
        .num("max_body_y", world.max_body_y(), 4);
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt()
}

/// The largest distance between a body's centre now and at t = 0.
fn max_displacement(world: &World, handles: &[RigidBodyHandle], start: &[[f64; 3]]) -> f64 {
    handles
        .iter()
        .zip(start)
        .map(|(&h, &s)| distance(world.centre(h), s))
        .fold(0.0, f64::max)
}

// ----- balls, boxes, settle -----------------------------------------------------------------

/// `balls`, `boxes` and `settle`: a jittered lattice falling into a static open box.
pub struct Lattice {
    world: World,
    handles: Vec<RigidBodyHandle>,
    side: usize,
    half_width: f64,
}

impl Lattice {
    /// `boxes` (and `settle`) when `cubes`, `balls` otherwise.
    pub fn new(n: usize, seed: u64, cubes: bool, sleep: bool) -> (Self, Vec<Drawn>) {
        let h = if cubes { 1.8 } else { 1.1 };
        let s = lattice_side(n);
        let layers = n.div_ceil(s * s);
        let drawn = lattice(n, seed, h, 1.0, |_| cubes);
        let mut world = World::new(sleep);
        let a = add_container(&mut world, s, h, layers);
        let handles = add_drawn(&mut world, &drawn, |_| {
            if cubes {
                cuboid([0.5; 3], PEER_MATERIAL)
            } else {
                ball(0.5, PEER_MATERIAL)
            }
        });
        let scene = Self {
            world,
            handles,
            side: s,
            half_width: a,
        };
        (scene, drawn)
    }
}

impl Bench for Lattice {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let a = self.half_width;
        let escaped = self
            .handles
            .iter()
            .map(|&h| self.world.centre(h))
            .filter(|c| c[0].abs() > a || c[2].abs() > a || c[1] < 0.0)
            .count();
        common_fields(&self.world, escaped, line);
        line.int("lattice_side", self.side as u64)
            .bool("sleep", self.world.sleep);
    }
}

/// The open box of `balls` and `boxes` (static, created before the bodies): inner side
/// W = s·h + 2, half-width a = W/2, walls 1 m thick and H = 2·(1 + (layers − 1)·h) + 10 high;
/// ground, then the −x, −z, +x, +z walls. Returns a.
fn add_container(world: &mut World, s: usize, h: f64, layers: usize) -> f64 {
    let a = (s as f64 * h + 2.0) / 2.0;
    let height = 2.0 * (1.0 + (layers as f64 - 1.0) * h) + 10.0;
    let (w, hh) = (a + 0.5, height / 2.0);
    world.add_static(static_cuboid(
        [a + 1.0, 0.5, a + 1.0],
        [0.0, -0.5, 0.0],
        PEER_MATERIAL,
    ));
    for side in [-w, w] {
        world.add_static(static_cuboid(
            [0.5, hh, a + 1.0],
            [side, hh, 0.0],
            PEER_MATERIAL,
        ));
        world.add_static(static_cuboid(
            [a + 1.0, hh, 0.5],
            [0.0, hh, side],
            PEER_MATERIAL,
        ));
    }
    a
}

// ----- pyramid --------------------------------------------------------------------------------

/// `pyramid`: a square pyramid of unit cubes of base side b on the ground.
pub struct Pyramid {
    world: World,
    handles: Vec<RigidBodyHandle>,
    start: Vec<[f64; 3]>,
    base: usize,
    half_width: f64,
}

impl Pyramid {
    pub fn new(b: usize, sleep: bool) -> Self {
        let mut world = World::new(sleep);
        let a = b as f64 + 10.0;
        world.add_static(static_cuboid([a, 0.5, a], [0.0, -0.5, 0.0], CUBE_MATERIAL));
        let mut handles = Vec::new();
        let mut start = Vec::new();
        for k in 0..b {
            let side = b - k;
            let mid = (side as f64 - 1.0) / 2.0;
            for iz in 0..side {
                for ix in 0..side {
                    let c = [
                        (ix as f64 - mid) * 1.01,
                        0.5 + k as f64,
                        (iz as f64 - mid) * 1.01,
                    ];
                    add_unit_cube(&mut world, c, &mut handles, &mut start);
                }
            }
        }
        Self {
            world,
            handles,
            start,
            base: b,
            half_width: a,
        }
    }
}

/// Cubes below y = 0 or beyond |x| = a or |z| = a.
fn escaped_from_ground(world: &World, handles: &[RigidBodyHandle], a: f64) -> usize {
    handles
        .iter()
        .map(|&h| world.centre(h))
        .filter(|c| c[1] < 0.0 || c[0].abs() > a || c[2].abs() > a)
        .count()
}

impl Bench for Pyramid {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let w = &self.world;
        common_fields(
            w,
            escaped_from_ground(w, &self.handles, self.half_width),
            line,
        );
        let top = w.centre(*self.handles.last().expect("b ≥ 1"));
        line.num(
            "max_displacement",
            max_displacement(w, &self.handles, &self.start),
            4,
        )
        .num("top_drop", (self.base as f64 - 0.5) - top[1], 4)
        .int("bodies", self.handles.len() as u64)
        .bool("sleep", w.sleep);
    }
}

// ----- stacks ---------------------------------------------------------------------------------

/// `stacks`: 10 × 10 towers of h unit cubes, 3 m apart.
pub struct Stacks {
    world: World,
    handles: Vec<RigidBodyHandle>,
    start: Vec<[f64; 3]>,
    height: usize,
    half_width: f64,
}

impl Stacks {
    pub fn new(h: usize, sleep: bool) -> Self {
        let mut world = World::new(sleep);
        let a = 15.0 + h as f64;
        world.add_static(static_cuboid([a, 0.5, a], [0.0, -0.5, 0.0], CUBE_MATERIAL));
        let mut handles = Vec::new();
        let mut start = Vec::new();
        for tz in 0..10 {
            for tx in 0..10 {
                let (x, z) = ((tx as f64 - 4.5) * 3.0, (tz as f64 - 4.5) * 3.0);
                for k in 0..h {
                    let c = [x, 0.5 + k as f64, z];
                    add_unit_cube(&mut world, c, &mut handles, &mut start);
                }
            }
        }
        Self {
            world,
            handles,
            start,
            height: h,
            half_width: a,
        }
    }
}

impl Bench for Stacks {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let w = &self.world;
        let h = self.height;
        common_fields(
            w,
            escaped_from_ground(w, &self.handles, self.half_width),
            line,
        );
        let (mut drop, mut fallen) = (0.0, 0usize);
        for t in 0..100 {
            let top = h * t + h - 1;
            let (now, then) = (w.centre(self.handles[top]), self.start[top]);
            drop += (h as f64 - 0.5) - now[1];
            if ((now[0] - then[0]).powi(2) + (now[2] - then[2]).powi(2)).sqrt() > 0.5 {
                fallen += 1;
            }
        }
        line.num(
            "max_displacement",
            max_displacement(w, &self.handles, &self.start),
            4,
        )
        .num("top_drop", drop / 100.0, 4)
        .int("fallen", fallen as u64)
        .int("towers", 100u32)
        .int("bodies", self.handles.len() as u64)
        .bool("sleep", w.sleep);
    }
}

// ----- joint_grid -----------------------------------------------------------------------------

/// `joint_grid`: an s × s net of balls hanging from its fixed top row by spherical joints.
pub struct JointGrid {
    world: World,
    side: usize,
    /// Handles by row j, then column i.
    grid: Vec<RigidBodyHandle>,
    /// (body 1, local anchor 1, body 2, local anchor 2) of every joint.
    joints: Vec<(RigidBodyHandle, Vector, RigidBodyHandle, Vector)>,
}

impl JointGrid {
    pub fn new(n: usize, sleep: bool) -> Self {
        let s = square_side(n);
        let mut world = World::new(sleep);
        let net_ball = || ball(0.25, NET_MATERIAL);
        let mut grid = Vec::with_capacity(s * s);
        for j in 0..s {
            for i in 0..s {
                let c = [i as f64, 100.0 - j as f64, 0.0];
                grid.push(if j == 0 {
                    world.add_body(RigidBodyBuilder::fixed().translation(v3(c)), net_ball())
                } else {
                    world.add_dynamic(pose(c, IDENTITY), Vector::ZERO, net_ball())
                });
            }
        }
        let mut joints = Vec::new();
        let (right, left) = (Vector::new(0.5, 0.0, 0.0), Vector::new(-0.5, 0.0, 0.0));
        let (down, up) = (Vector::new(0.0, -0.5, 0.0), Vector::new(0.0, 0.5, 0.0));
        for j in 0..s {
            for i in 0..s {
                let b1 = grid[j * s + i];
                let mut link = |b2: RigidBodyHandle, a1: Vector, a2: Vector| {
                    let joint = SphericalJointBuilder::new()
                        .local_anchor1(a1)
                        .local_anchor2(a2)
                        .contacts_enabled(false);
                    world.joints.insert(b1, b2, joint, true);
                    joints.push((b1, a1, b2, a2));
                };
                if j >= 1 && i + 1 < s {
                    link(grid[j * s + i + 1], right, left);
                }
                if j + 1 < s {
                    link(grid[(j + 1) * s + i], down, up);
                }
            }
        }
        Self {
            world,
            side: s,
            grid,
            joints,
        }
    }
}

impl Bench for JointGrid {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let (w, s) = (&self.world, self.side);
        let sf = s as f64;
        let escaped = self.grid[s..]
            .iter()
            .map(|&h| w.centre(h))
            .filter(|c| {
                !(-1.0..=sf).contains(&c[0])
                    || !(100.0 - sf..=101.0).contains(&c[1])
                    || !(-1.0..=1.0).contains(&c[2])
            })
            .count();
        common_fields(w, escaped, line);
        let errors: Vec<f64> = self
            .joints
            .iter()
            .map(|&(b1, a1, b2, a2)| {
                let p1 = *w.bodies[b1].position() * a1;
                let p2 = *w.bodies[b2].position() * a2;
                (p1 - p2).length() as f64
            })
            .collect();
        let max_error = errors.iter().copied().fold(0.0, f64::max);
        let mean_error = errors.iter().sum::<f64>() / errors.len().max(1) as f64;
        let bottom = &self.grid[(s - 1) * s..];
        let start_y = 100.0 - (sf - 1.0);
        let drop = bottom
            .iter()
            .map(|&h| start_y - w.centre(h)[1])
            .sum::<f64>()
            / s as f64;
        line.num("max_joint_error", max_error, 4)
            .num("mean_joint_error", mean_error, 4)
            .num("bottom_row_drop", drop, 4)
            .int("joints", self.joints.len() as u64)
            .int("grid_side", s as u64)
            .int("bodies", (s * (s - 1)) as u64)
            .bool("sleep", w.sleep);
    }
}

// ----- terrain, terrain_mesh ------------------------------------------------------------------

/// The terrain's analytic surface, in f64.
pub fn terrain_height(x: f64, z: f64) -> f64 {
    2.0 * (x / 7.0).sin() * (z / 5.0).cos() + 0.5 * (x / 2.3 + z / 3.1).sin()
}

/// Samples per side of the terrain grid (256 cells).
const TERRAIN_SAMPLES: usize = 257;

/// Coordinate of sample k along x or z: −100 + 200·k/256.
fn terrain_coord(k: usize) -> f64 {
    -100.0 + 200.0 * k as f64 / (TERRAIN_SAMPLES - 1) as f64
}

/// The ground of `terrain`: a heightfield; of `terrain_mesh`: the same surface as a mesh.
fn terrain_ground(mesh: bool) -> ColliderBuilder {
    let n = TERRAIN_SAMPLES;
    let y = |i: usize, j: usize| terrain_height(terrain_coord(i), terrain_coord(j)) as f32;
    let ground = if mesh {
        // Vertex (i, j) at index j·257 + i; cells in the order j, then i; each cell split
        // along its (i, j+1)–(i+1, j) diagonal.
        let mut vertices = Vec::with_capacity(n * n);
        for j in 0..n {
            for i in 0..n {
                vertices.push(Vector::new(
                    terrain_coord(i) as f32,
                    y(i, j),
                    terrain_coord(j) as f32,
                ));
            }
        }
        let id = |i: usize, j: usize| (j * n + i) as u32;
        let mut triangles = Vec::with_capacity(2 * (n - 1) * (n - 1));
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                triangles.push([id(i, j), id(i, j + 1), id(i + 1, j)]);
                triangles.push([id(i, j + 1), id(i + 1, j + 1), id(i + 1, j)]);
            }
        }
        ColliderBuilder::trimesh(vertices, triangles).expect("the terrain mesh is valid")
    } else {
        // Rows along z, columns along x; column-major storage: element (row j, column i)
        // at index j + i·257.
        let mut heights = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                heights.push(y(i, j));
            }
        }
        ColliderBuilder::heightfield(Array2::new(n, n, heights), Vector::new(200.0, 1.0, 200.0))
    };
    PEER_MATERIAL.on(ground)
}

/// `terrain` and `terrain_mesh`: balls and cubes falling on a sine terrain.
pub struct Terrain {
    world: World,
    handles: Vec<RigidBodyHandle>,
    side: usize,
    mesh: bool,
}

impl Terrain {
    pub fn new(n: usize, seed: u64, mesh: bool, sleep: bool) -> (Self, Vec<Drawn>) {
        let drawn = lattice(n, seed, 1.8, 5.0, |i| i % 2 == 1);
        let mut world = World::new(sleep);
        world.add_static(terrain_ground(mesh));
        let handles = add_drawn(&mut world, &drawn, |i| {
            if i % 2 == 0 {
                ball(0.5, PEER_MATERIAL)
            } else {
                cuboid([0.5; 3], PEER_MATERIAL)
            }
        });
        let scene = Self {
            world,
            handles,
            side: lattice_side(n),
            mesh,
        };
        (scene, drawn)
    }
}

impl Bench for Terrain {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let w = &self.world;
        let mut escaped = 0;
        let mut min_height = f64::INFINITY;
        for &h in &self.handles {
            let c = w.centre(h);
            let above = c[1] - terrain_height(c[0], c[2]);
            min_height = min_height.min(above);
            if c[0].abs() > 100.0 || c[2].abs() > 100.0 || above < -1.0 {
                escaped += 1;
            }
        }
        common_fields(w, escaped, line);
        line.num("min_height_above_surface", min_height, 4)
            .int("lattice_side", self.side as u64)
            .str("ground", if self.mesh { "trimesh" } else { "heightfield" })
            .int("bodies", self.handles.len() as u64)
            .bool("sleep", w.sleep);
    }
}

// ----- tumbler --------------------------------------------------------------------------------

/// Largest N whose lattice fits the tumbler (s = 21).
pub const TUMBLER_MAX_N: usize = 21 * 21 * 21;

/// The box's centre.
const TUMBLER_CENTRE: [f64; 3] = [0.0, 15.0, 0.0];

/// `tumbler`: small cubes inside a closed box turning about z at 0.25 rad/s.
pub struct Tumbler {
    world: World,
    drum: RigidBodyHandle,
    handles: Vec<RigidBodyHandle>,
    side: usize,
}

impl Tumbler {
    pub fn new(n: usize, seed: u64, sleep: bool) -> (Self, Vec<Drawn>) {
        let mut world = World::new(sleep);
        let drum_body = RigidBodyBuilder::kinematic_velocity_based()
            .translation(v3(TUMBLER_CENTRE))
            .angvel(Vector::new(0.0, 0.0, 0.25));
        let drum = world.bodies.insert(drum_body);
        let walls: [([f64; 3], [f64; 3]); 6] = [
            ([0.5, 11.0, 11.0], [-10.5, 0.0, 0.0]),
            ([0.5, 11.0, 11.0], [10.5, 0.0, 0.0]),
            ([11.0, 0.5, 11.0], [0.0, -10.5, 0.0]),
            ([11.0, 0.5, 11.0], [0.0, 10.5, 0.0]),
            ([11.0, 11.0, 0.5], [0.0, 0.0, -10.5]),
            ([11.0, 11.0, 0.5], [0.0, 0.0, 10.5]),
        ];
        for (he, at) in walls {
            world.colliders.insert_with_parent(
                static_cuboid(he, at, CUBE_MATERIAL),
                drum,
                &mut world.bodies,
            );
        }
        let drawn = lattice(n, seed, 0.9, 5.5, |_| true);
        let handles = add_drawn(&mut world, &drawn, |_| cuboid([0.25; 3], CUBE_MATERIAL));
        let scene = Self {
            world,
            drum,
            handles,
            side: lattice_side(n),
        };
        (scene, drawn)
    }
}

impl Bench for Tumbler {
    fn step(&mut self) -> Duration {
        self.world.step()
    }

    fn report(&self, line: &mut Line) {
        let w = &self.world;
        let drum = *w.bodies[self.drum].position();
        let to_box = drum.inverse();
        let escaped = self
            .handles
            .iter()
            .map(|&h| to_box * w.bodies[h].translation())
            .filter(|p| p.x.abs() > 11.0 || p.y.abs() > 11.0 || p.z.abs() > 11.0)
            .count();
        common_fields(w, escaped, line);
        let q = drum.rotation;
        let xyz = ((q.x as f64).powi(2) + (q.y as f64).powi(2) + (q.z as f64).powi(2)).sqrt();
        let angle = 2.0 * xyz.atan2((q.w as f64).abs());
        let t = drum.translation;
        let drift = distance([t.x as f64, t.y as f64, t.z as f64], TUMBLER_CENTRE);
        line.num("box_angle_rad", angle, 4)
            .num("box_centre_drift", drift, 4)
            .int("lattice_side", self.side as u64)
            .int("bodies", self.handles.len() as u64)
            .bool("sleep", w.sleep);
    }
}
