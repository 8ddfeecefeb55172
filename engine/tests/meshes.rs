//! Triangle meshes and heightfields as the shapes of static and kinematic bodies: sliding and
//! rolling across seams, the two forms of one surface, refusal on dynamic bodies, snapshots
//! and determinism.

mod common;
use common::*;
use std::sync::Arc;
use tumble::math::{Isometry, Point, Real, Vector};
use tumble::narrowphase::mesh::{HeightField, TriMesh};
use tumble::narrowphase::ray::Ray;
use tumble::{BodyBuilder, BodyHandle, Shape, World, WorldConfig, WorldError};

const G: Real = 9.81;

/// A flat square grid in the plane y = 0: `cells × cells` cells of side `side` metres starting
/// at (x0, z0), two triangles per cell (normals +y), so seams run along x, along z and along
/// each cell's diagonal.
fn flat_grid(cells: usize, side: Real, x0: Real, z0: Real) -> TriMesh {
    let n = cells + 1;
    let mut v = Vec::new();
    for j in 0..n {
        for i in 0..n {
            v.push(Point::new(
                x0 + i as Real * side,
                0.0,
                z0 + j as Real * side,
            ));
        }
    }
    let at = |i: usize, j: usize| (j * n + i) as u32;
    let mut t = Vec::new();
    for j in 0..cells {
        for i in 0..cells {
            t.push([at(i, j), at(i, j + 1), at(i + 1, j)]);
            t.push([at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]);
        }
    }
    TriMesh::new(&v, &t).unwrap()
}

/// A wavy heightfield of 17 × 17 samples over 16 m × 16 m centred on the origin (heights up
/// to about ±0.4 m).
fn wavy_heightfield() -> HeightField {
    let n = 17;
    let mut h = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (x, z) = (i as Real - 8.0, j as Real - 8.0);
            h.push(0.3 * (x / 3.0).sin() * (z / 4.0).cos() + 0.1 * (x / 2.0 + z / 5.0).sin());
        }
    }
    HeightField::new(n, n, &h, Vector::new(16.0, 1.0, 16.0)).unwrap()
}

fn fixed(shape: Shape) -> BodyBuilder {
    BodyBuilder::fixed(shape)
}

/// A box sliding across a flat mesh of 0.5 m cells (a seam every 0.5 m along its path, and
/// the cells' diagonals) neither hops nor catches: its vertical speed stays below 1 mm/s at
/// every step, and it slows exactly as Coulomb friction says, `v(t) = v₀ − μ·g·t`.
#[test]
fn box_slides_across_seams_without_hops_or_drag() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let mu: Real = 0.2;
    let mesh = flat_grid(60, 0.5, -5.0, -15.0);
    w.insert(fixed(Shape::from(mesh)).friction(mu)).unwrap();
    let he = Vector::new(0.3, 0.2, 0.3);
    let b = w
        .insert(cuboid(he, Vector::new(0.1, he.y, 0.13)).friction(mu))
        .unwrap();
    // Settle on the mesh first.
    for _ in 0..30 {
        w.step();
    }
    let v0: Real = 4.0;
    w.set_linvel(b, Vector::new(v0, 0.0, 0.0)).unwrap();
    let dt = w.config().dt;
    let steps = 90; // 1.5 s: 4 m/s slows to about 1.06 m/s over some 3.8 m (7 or more seams)
    let x_start = w.body(b).unwrap().translation().x;
    for k in 1..=steps {
        w.step();
        let body = w.body(b).unwrap();
        let v = body.linvel();
        assert!(
            v.y.abs() < 1e-3,
            "step {k}: vertical speed {} m/s at x = {}",
            v.y,
            body.translation().x
        );
        let expected = v0 - mu * G * dt * k as Real;
        assert!(
            (v.x - expected).abs() < 1e-2,
            "step {k}: speed {} m/s, friction alone gives {expected}",
            v.x
        );
        assert!(v.z.abs() < 1e-3, "step {k}: sideways speed {}", v.z);
    }
    let travelled = w.body(b).unwrap().translation().x - x_start;
    assert!(travelled > 3.5, "travelled {travelled} m");
}

/// A ball rolling across the cells of a flat heightfield (diagonally, so it crosses row,
/// column and diagonal seams) keeps its speed within 1 % over 3 s.
#[test]
fn ball_rolls_across_heightfield_cells_keeping_its_speed() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let hf = HeightField::new(41, 41, &[0.0; 41 * 41], Vector::new(40.0, 1.0, 40.0)).unwrap();
    w.insert(fixed(Shape::from(hf)).friction(0.5)).unwrap();
    let r = 0.5;
    let b = w
        .insert(ball(r, Vector::new(-6.0, r, -4.3)).friction(0.5))
        .unwrap();
    for _ in 0..20 {
        w.step();
    }
    let v = Vector::new(3.0, 0.0, 2.0);
    w.set_linvel(b, v).unwrap();
    // Rolling without slipping: the contact point's velocity v + ω × (−r·y) is zero.
    w.set_angvel(b, Vector::new(v.z / r, 0.0, -v.x / r))
        .unwrap();
    let speed = v.norm();
    for k in 0..180 {
        w.step();
        let body = w.body(b).unwrap();
        let s = body.linvel().norm();
        assert!(
            (s - speed).abs() < 0.01 * speed,
            "step {k}: speed {s} m/s (started at {speed}) at {:?}",
            body.translation()
        );
        assert!(body.linvel().y.abs() < 1e-2, "step {k}: bounced");
    }
    let t = w.body(b).unwrap().translation();
    assert!(t.x > 2.0, "rolled to {t:?}");
}

/// The world of `resting_on_heightfield_and_trimesh_ends_at_the_same_height`: the ground, then a
/// box and a ball dropped on its slopes.
fn dropped_on(ground: Shape) -> (World, [BodyHandle; 2]) {
    let mut w = World::new(WorldConfig::default()).unwrap();
    w.insert(fixed(ground).friction(0.8)).unwrap();
    let cube = w
        .insert(cuboid(Vector::new(0.4, 0.3, 0.5), Vector::new(1.3, 1.2, -2.1)).friction(0.8))
        .unwrap();
    let ball = w
        .insert(ball(0.4, Vector::new(-2.2, 1.1, 1.7)).friction(0.8))
        .unwrap();
    (w, [cube, ball])
}

/// A box and a ball dropped on a wavy heightfield and on the triangle mesh of the same
/// triangles ([`HeightField::to_trimesh`]) end at the same place and height (the box at rest):
/// the mesh's ids and triangles are the heightfield's, so the two worlds step alike.
#[test]
fn resting_on_heightfield_and_trimesh_ends_at_the_same_height() {
    let hf = wavy_heightfield();
    let mesh = hf.to_trimesh().unwrap();
    let (mut a, ha) = dropped_on(Shape::from(hf.clone()));
    let (mut b, hb) = dropped_on(Shape::from(mesh));
    for _ in 0..240 {
        a.step();
        b.step();
    }
    for (x, y) in ha.iter().zip(&hb) {
        let (pa, pb) = (a.body(*x).unwrap(), b.body(*y).unwrap());
        let d = (pa.translation() - pb.translation()).norm();
        assert!(d < 1e-4, "{:?} vs {:?}", pa.translation(), pb.translation());
        assert!((pa.linvel() - pb.linvel()).norm() < 1e-4);
        assert!(
            pa.translation().y > -0.5,
            "fell through: {:?}",
            pa.translation()
        );
    }
    // Both lie on the surface: the ball's centre a radius above it, the box's centre between
    // its half-height and its half-diagonal.
    for (h, lo, hi) in [(ha[0], 0.29, 0.72), (ha[1], 0.39, 0.41)] {
        let t = a.body(h).unwrap().translation();
        let down = Ray::new(Point::new(t.x, 10.0, t.z), -Vector::y()).unwrap();
        let hit = hf.cast_ray(&Isometry::identity(), &down, 20.0).unwrap();
        let above = t.y - hit.hit.point.y;
        assert!((lo..hi).contains(&above), "{above} m above the surface");
    }
}

/// A mesh or heightfield is refused on a dynamic body with the typed error, and accepted on
/// static and kinematic ones, which make no pairs among themselves.
#[test]
fn dynamic_mesh_body_is_refused() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let mesh = Arc::new(flat_grid(2, 1.0, 0.0, 0.0));
    let hf = Arc::new(HeightField::new(2, 2, &[0.0; 4], Vector::new(1.0, 1.0, 1.0)).unwrap());
    for shape in [Shape::from(mesh.clone()), Shape::from(hf.clone())] {
        let before = w.len();
        assert_eq!(
            w.insert(BodyBuilder::dynamic(shape.clone())).unwrap_err(),
            WorldError::DynamicMesh
        );
        assert_eq!(w.len(), before);
        w.insert(BodyBuilder::fixed(shape.clone())).unwrap();
        w.insert(BodyBuilder::kinematic(shape).linvel(Vector::new(0.0, 1.0, 0.0)))
            .unwrap();
    }
    assert_eq!(w.len(), 4);
    // The four overlap, but mesh against mesh (static or kinematic) is never a pair.
    let report = w.step();
    assert_eq!(report.unsupported_pairs, 0);
    assert_eq!(w.contact_count(), 0);
    w.validate().unwrap();
}

/// A kinematic flat mesh rising at 0.5 m/s lifts a box resting on it at its own speed.
#[test]
fn kinematic_mesh_lifts_a_dynamic_box() {
    let mut w = World::new(WorldConfig::default()).unwrap();
    let lift = w
        .insert(
            BodyBuilder::kinematic(Shape::from(flat_grid(8, 0.5, -2.0, -2.0)))
                .linvel(Vector::new(0.0, 0.5, 0.0)),
        )
        .unwrap();
    let b = w
        .insert(cuboid(
            Vector::new(0.3, 0.3, 0.3),
            Vector::new(0.2, 0.3, 0.1),
        ))
        .unwrap();
    for _ in 0..120 {
        w.step();
    }
    let (floor, body) = (w.body(lift).unwrap(), w.body(b).unwrap());
    assert!((floor.translation().y - 1.0).abs() < 1e-4);
    assert!((body.linvel().y - 0.5).abs() < 1e-2, "{:?}", body.linvel());
    let gap = body.translation().y - 0.3 - floor.translation().y;
    assert!(gap.abs() < 0.01, "box {gap} m off the lift");
}

/// A world with a heightfield, a tilted static triangle mesh, a kinematic mesh and a pile of
/// boxes and balls falling on them.
fn mesh_world() -> World {
    let mut w = World::new(WorldConfig::default()).unwrap();
    w.insert(
        fixed(Shape::from(wavy_heightfield()))
            .friction(0.6)
            .restitution(0.2),
    )
    .unwrap();
    w.insert(
        fixed(Shape::from(flat_grid(6, 0.5, -1.5, -1.5)))
            .translation(Vector::new(4.0, 1.0, 0.0))
            .rotation(tumble::math::Rotation::from_euler_angles(0.0, 0.0, 0.3)),
    )
    .unwrap();
    w.insert(
        BodyBuilder::kinematic(Shape::from(flat_grid(4, 0.5, -1.0, -1.0)))
            .translation(Vector::new(-4.0, 0.2, 0.0))
            .linvel(Vector::new(0.0, 0.2, 0.0))
            .angvel(Vector::new(0.0, 0.5, 0.0)),
    )
    .unwrap();
    for i in 0..60 {
        let at = Vector::new(
            -5.0 + (i % 10) as Real * 1.1,
            2.0 + (i / 10) as Real * 1.1,
            ((i * 7) % 5) as Real * 0.6 - 1.2,
        );
        let body = if i % 3 == 0 {
            ball(0.35, at)
        } else {
            cuboid(Vector::new(0.3, 0.25, 0.35), at).rotation(
                tumble::math::Rotation::from_euler_angles(0.1 * i as Real, 0.3, 0.0),
            )
        };
        w.insert(body.friction(0.6).restitution(0.2)).unwrap();
    }
    w
}

/// A snapshot of a world with mesh bodies restores to the same state and steps on
/// bit-identically.
#[cfg(feature = "serde")]
#[test]
fn snapshots_with_meshes_restore_and_step_on_bit_identically() {
    let mut a = mesh_world();
    for _ in 0..90 {
        a.step();
    }
    let bytes = a.snapshot();
    let mut b = World::restore(&bytes).unwrap();
    b.validate().unwrap();
    assert_eq!(a.state_hash(), b.state_hash());
    for _ in 0..90 {
        a.step();
        b.step();
        assert_eq!(a.state_hash(), b.state_hash());
    }
    assert!(a.contact_count() > 0);
}

/// The same world run on one thread and on two reaches the same state bit for bit.
#[test]
fn meshes_give_the_same_result_on_one_and_two_threads() {
    let run = || {
        let mut w = mesh_world();
        for _ in 0..180 {
            w.step();
        }
        w.validate().unwrap();
        w.state_hash()
    };
    let h1 = in_pool(1, run);
    let h2 = in_pool(2, run);
    assert_eq!(h1, h2);
}

/// A small ball fired at 150 m/s onto a heightfield and onto a triangle mesh, continuous
/// collision on, is stopped at the surface: the sweep runs triangle by triangle.
#[test]
fn fast_ball_does_not_tunnel_through_meshes() {
    let hf = HeightField::new(9, 9, &[0.0; 81], Vector::new(8.0, 1.0, 8.0)).unwrap();
    let mesh = flat_grid(8, 1.0, -4.0, -4.0);
    for ground in [Shape::from(hf), Shape::from(mesh)] {
        let mut w = World::new(WorldConfig {
            ccd: true,
            ..WorldConfig::default()
        })
        .unwrap();
        w.insert(fixed(ground)).unwrap();
        let b = w
            .insert(
                ball(0.05, Vector::new(0.3, 2.0, -0.2))
                    .linvel(Vector::new(0.0, -150.0, 0.0))
                    .ccd(true),
            )
            .unwrap();
        for k in 0..30 {
            w.step();
            let y = w.body(b).unwrap().translation().y;
            assert!(y > 0.0, "step {k}: the ball went through, y = {y}");
        }
    }
}
