//! The benchmark scenes against the normative peer README (shared/peers/rapier-bench/README.md):
//! recipe draws recomputed here independently from `rand_chacha` (not through
//! `tumble_benches::recipe`), container formulas worked by hand, and properties of the extra
//! scenes checked over several seeds.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble_benches::scenes::{
    balls, boxes, brute_force_pairs, gas_box_side, mixed, projectiles, pyramid_cubes, BodySpec,
    Container, Gas, LatticeParams, Motion, SceneKind, ShapeSpec,
};

/// The README's `unit()`, written out again: `(next_u64() >> 11) · 2⁻⁵³`.
fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / 9_007_199_254_740_992.0
}

fn uniform(rng: &mut ChaCha8Rng, a: f64, b: f64) -> f64 {
    a + (b - a) * unit(rng)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * (1.0 + a.abs().max(b.abs()))
}

fn assert_close3(got: [f64; 3], want: [f64; 3], what: &str) {
    for k in 0..3 {
        assert!(
            close(got[k], want[k]),
            "{what}[{k}]: got {}, want {}",
            got[k],
            want[k]
        );
    }
}

#[test]
fn balls_bodies_follow_the_recipe_draw_for_draw() {
    let n = 1000;
    let scene = balls(n, 42);
    assert_eq!(scene.bodies.len(), n + 5);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    // s = 10, h = 1.1: body i sits at ix = i mod 10, iz = (i div 10) mod 10, iy = i div 100.
    for (i, body) in scene.bodies.iter().take(n).enumerate() {
        let j: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -0.05, 0.05)).collect();
        let v: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -1.0, 1.0)).collect();
        let (ix, iz, iy) = ((i % 10) as f64, ((i / 10) % 10) as f64, (i / 100) as f64);
        let centre = [
            (ix - 4.5) * 1.1 + j[0],
            1.0 + iy * 1.1 + j[1],
            (iz - 4.5) * 1.1 + j[2],
        ];
        assert_close3(body.translation, centre, &format!("ball {i} centre"));
        assert_eq!(body.linvel, [v[0], v[1], v[2]], "ball {i} velocity");
        assert_eq!(body.angvel, [0.0; 3]);
        assert_eq!(body.motion, Motion::Dynamic);
        assert_eq!(body.shape, ShapeSpec::Ball { radius: 0.5 });
        assert_eq!(
            (body.density, body.friction, body.restitution),
            (1.0, 0.5, 0.5)
        );
    }
    // Worked by hand: body 0 is the lattice corner (−4.95, 1, −4.95) plus its jitter, body 111
    // is one step along every axis from it.
    let c0 = scene.bodies[0].translation;
    assert!((c0[0] + 4.95).abs() <= 0.05 && (c0[1] - 1.0).abs() <= 0.05);
    let c111 = scene.bodies[111].translation;
    assert!((c111[0] + 3.85).abs() <= 0.05 && (c111[1] - 2.1).abs() <= 0.05);
}

#[test]
fn boxes_draw_jitter_then_rotation_then_velocity() {
    let n = 30;
    let scene = boxes(n, 42);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let s = 4.0; // lattice_side(30) = 4
    for (i, body) in scene.bodies.iter().take(n).enumerate() {
        let j: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -0.05, 0.05)).collect();
        let (u1, u2, u3) = (unit(&mut rng), unit(&mut rng), unit(&mut rng));
        let v: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -1.0, 1.0)).collect();
        let tau = std::f64::consts::TAU;
        let q = [
            (1.0 - u1).sqrt() * (tau * u2).sin(),
            (1.0 - u1).sqrt() * (tau * u2).cos(),
            u1.sqrt() * (tau * u3).sin(),
            u1.sqrt() * (tau * u3).cos(),
        ];
        for (got, want) in body.rotation.iter().zip(q) {
            assert!((got - want).abs() < 1e-12, "box {i} rotation");
        }
        let norm: f64 = body.rotation.iter().map(|x| x * x).sum();
        assert!((norm - 1.0).abs() < 1e-12);
        let i_f = i as f64;
        let (ix, iz, iy) = (i_f % s, (i_f / s).floor() % s, (i_f / (s * s)).floor());
        let centre = [
            (ix - 1.5) * 1.8 + j[0],
            1.0 + iy * 1.8 + j[1],
            (iz - 1.5) * 1.8 + j[2],
        ];
        assert_close3(body.translation, centre, &format!("box {i} centre"));
        assert_eq!(body.linvel, [v[0], v[1], v[2]]);
        assert_eq!(
            body.shape,
            ShapeSpec::Cuboid {
                half_extents: [0.5; 3]
            }
        );
    }
}

/// The five container cuboids of a lattice, checked against the README formulas.
fn check_container(bodies: &[BodySpec], a: f64, height: f64) {
    assert_eq!(bodies.len(), 5);
    for b in bodies {
        assert_eq!(b.motion, Motion::Static);
        assert_eq!((b.friction, b.restitution), (0.5, 0.5));
    }
    let he = |b: &BodySpec| match b.shape {
        ShapeSpec::Cuboid { half_extents } => half_extents,
        other => panic!("container part is {other:?}"),
    };
    let ground = &bodies[0];
    assert_close3(he(ground), [a + 1.0, 0.5, a + 1.0], "ground half-extents");
    assert_close3(ground.translation, [0.0, -0.5, 0.0], "ground centre");
    assert!(
        close(ground.translation[1] + he(ground)[1], 0.0),
        "ground top at y = 0"
    );
    let mut inner_faces = Vec::new();
    for wall in &bodies[1..] {
        let h = he(wall);
        assert!(close(wall.translation[1], height / 2.0) && close(h[1], height / 2.0));
        // The thin axis is the one with half-extent 0.5; its inner face is at ±a.
        let axis = if close(h[0], 0.5) { 0 } else { 2 };
        assert!(close(h[2 - axis], a + 1.0));
        let c = wall.translation[axis];
        assert!(close(c.abs(), a + 0.5));
        inner_faces.push(c - c.signum() * 0.5);
    }
    inner_faces.sort_by(f64::total_cmp);
    for (got, want) in inner_faces.iter().zip([-a, -a, a, a]) {
        assert!(close(*got, want), "inner face {got} should be at {want}");
    }
}

#[test]
fn containers_match_the_readme_formulas_worked_by_hand() {
    // balls N=1000: s = 10, 10 layers, W = 10·1.1 + 2 = 13, H = 2·(1 + 9·1.1) + 10 = 31.8.
    check_container(&balls(1000, 42).bodies[1000..], 6.5, 31.8);
    // balls N=10000: s = 22, 21 layers, W = 26.2, H = 2·(1 + 20·1.1) + 10 = 56.
    check_container(&balls(10_000, 42).bodies[10_000..], 13.1, 56.0);
    // boxes N=10000: W = 22·1.8 + 2 = 41.6, H = 2·(1 + 20·1.8) + 10 = 84.
    check_container(&boxes(10_000, 42).bodies[10_000..], 20.8, 84.0);
    let lp = LatticeParams::new(50_000, 1.1);
    assert_eq!((lp.side, lp.layers), (37, 37));
    let c = Container::for_lattice(37, 1.1, 37);
    assert!(close(c.half_width, (37.0 * 1.1 + 2.0) / 2.0));
}

#[test]
fn lattice_scenes_start_inside_and_apart() {
    for kind in [SceneKind::Balls, SceneKind::Boxes, SceneKind::Mixed] {
        for (n, seed) in [(1, 1), (7, 2), (64, 3), (500, 42)] {
            let scene = kind.scene(n, seed).expect("a body scene");
            assert_eq!(scene.dynamic_count(), n);
            let dynamic = &scene.bodies[..n];
            for (i, a) in dynamic.iter().enumerate() {
                assert!(
                    scene.inside.contains(a.translation),
                    "{kind} body {i} starts outside"
                );
                let ra = a.shape.bounding_radius();
                for b in &dynamic[i + 1..] {
                    let d: f64 = (0..3)
                        .map(|k| (a.translation[k] - b.translation[k]).powi(2))
                        .sum::<f64>()
                        .sqrt();
                    // Balls and mixed shapes never overlap at t = 0; boxes may by a hair
                    // (README: jitter can bring corners within 1.7 < 2·0.866).
                    if kind != SceneKind::Boxes {
                        assert!(
                            d >= ra + b.shape.bounding_radius() - 1e-9,
                            "{kind} n={n} overlap"
                        );
                    } else {
                        assert!(d >= 1.7 - 1e-9);
                    }
                }
            }
        }
    }
}

#[test]
fn gas_box_side_and_recipe_match_the_readme() {
    assert!((gas_box_side(10_000) - 47.1349).abs() < 1e-4);
    assert!((gas_box_side(100_000) - 101.5491).abs() < 1e-4);
    let gas = Gas::new(5, 42);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let l = gas_box_side(5);
    for i in 0..5 {
        let p: Vec<f64> = (0..3).map(|_| uniform(&mut rng, 0.0, l)).collect();
        let v: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -5.0, 5.0)).collect();
        assert_eq!(gas.positions[i], [p[0], p[1], p[2]]);
        assert_eq!(gas.velocities[i], [v[0], v[1], v[2]]);
    }
}

#[test]
fn gas_wraps_positions_into_the_box_and_moves_by_v_dt() {
    let mut gas = Gas::new(200, 7);
    let l = gas.side;
    let start = gas.clone();
    let dt = 1.0 / 60.0;
    gas.advance(dt);
    for (i, (p, q)) in gas.positions.iter().zip(&start.positions).enumerate() {
        for k in 0..3 {
            let moved = q[k] + start.velocities[i][k] * dt;
            // Either moved straight, or wrapped by exactly one box side.
            let d = p[k] - moved;
            assert!(d.abs() < 1e-9 || (d.abs() - l).abs() < 1e-9);
        }
    }
    for _ in 0..2000 {
        gas.advance(dt);
    }
    assert!(gas.positions.iter().flatten().all(|x| (0.0..l).contains(x)));
}

#[test]
fn brute_force_pairs_counts_worked_cases() {
    let p = [
        [0.0, 0.0, 0.0],
        [0.99, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.0, 0.6, 0.6],
    ];
    // (0,1) at 0.99 and (2,3) at 0.849 are closer than 1; the others are not.
    assert_eq!(brute_force_pairs(&p), 2);
    assert_eq!(brute_force_pairs(&[[0.0; 3], [1.0, 0.0, 0.0]]), 0);
}

#[test]
fn pyramid_cubes_layers_are_squares_stacked_face_on_face() {
    let scene = pyramid_cubes(14); // 9 + 4 + 1
    assert_eq!(scene.dynamic_count(), 14);
    let ys: Vec<f64> = scene.bodies[..14]
        .iter()
        .map(|b| b.translation[1])
        .collect();
    assert_eq!(ys.iter().filter(|&&y| y == 0.5).count(), 9);
    assert_eq!(ys.iter().filter(|&&y| y == 1.5).count(), 4);
    assert_eq!(ys.iter().filter(|&&y| y == 2.5).count(), 1);
    let top = scene.bodies[13].translation;
    assert!(top[0].abs() < 1e-12 && top[2].abs() < 1e-12, "apex centred");
    // A partial top layer: 5 + 4 = 9 < 10 ≤ 14, so n = 10 gives 9 + 1.
    assert_eq!(pyramid_cubes(10).dynamic_count(), 10);
    let plate = scene.bodies.last().unwrap();
    assert_eq!(plate.motion, Motion::Static);
}

#[test]
fn projectiles_are_small_fast_and_ask_for_ccd() {
    let scene = projectiles(50, 42);
    assert!(scene.wants_ccd);
    for b in &scene.bodies[..50] {
        assert_eq!(b.shape, ShapeSpec::Ball { radius: 0.02 });
        assert!(b.ccd && b.linvel[0] == 300.0 && b.translation[0] == -3.0);
        assert!(scene.inside.contains(b.translation));
    }
    let ShapeSpec::Cuboid { half_extents } = scene.bodies[50].shape else {
        panic!("the wall is a cuboid");
    };
    assert_eq!(half_extents[0], 0.025, "5 cm thick");
    assert_eq!(scene.bodies[50].motion, Motion::Static);
}

#[test]
fn mixed_is_seeded_and_holds_both_shapes() {
    let a = mixed(300, 5);
    assert_eq!(a, mixed(300, 5));
    assert_ne!(a, mixed(300, 6));
    let balls = a.bodies[..300]
        .iter()
        .filter(|b| matches!(b.shape, ShapeSpec::Ball { .. }))
        .count();
    assert!((100..200).contains(&balls), "about half balls, got {balls}");
}

/// `terrain` and `terrain_mesh` against the README, value by value: the first bodies (even i a
/// ball, odd i a rotated unit cube; jitter, rotation for odd i only, velocity), the ground body,
/// the surface samples worked by hand and recomputed from h(x, z), and the mesh's vertices and
/// triangles in the README's order.
#[test]
fn terrain_bodies_and_samples_follow_the_readme() {
    use tumble_benches::scenes::{
        terrain, terrain_coordinate, terrain_height, terrain_heightfield, terrain_heights,
        terrain_mesh, terrain_mesh_data, Ground,
    };
    let n = 10_000;
    for (scene, ground) in [
        (terrain(n, 42), Ground::HeightField),
        (terrain_mesh(n, 42), Ground::TriMesh),
    ] {
        assert_eq!(scene.bodies.len(), n + 1);
        let mut rng = ChaCha8Rng::seed_from_u64(42);
        // s = 22: ix = i mod 22, iz = (i div 22) mod 22, iy = i div 484; (s − 1)/2 = 10.5.
        for (i, body) in scene.bodies.iter().take(600).enumerate() {
            let j: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -0.05, 0.05)).collect();
            let (shape, rotation) = if i % 2 == 0 {
                (ShapeSpec::Ball { radius: 0.5 }, [0.0, 0.0, 0.0, 1.0])
            } else {
                let (u1, u2, u3) = (unit(&mut rng), unit(&mut rng), unit(&mut rng));
                let tau = std::f64::consts::TAU;
                let q = [
                    (1.0 - u1).sqrt() * (tau * u2).sin(),
                    (1.0 - u1).sqrt() * (tau * u2).cos(),
                    u1.sqrt() * (tau * u3).sin(),
                    u1.sqrt() * (tau * u3).cos(),
                ];
                let cube = ShapeSpec::Cuboid {
                    half_extents: [0.5; 3],
                };
                (cube, q)
            };
            let v: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -1.0, 1.0)).collect();
            let (ix, iz, iy) = ((i % 22) as f64, ((i / 22) % 22) as f64, (i / 484) as f64);
            let centre = [
                (ix - 10.5) * 1.8 + j[0],
                5.0 + iy * 1.8 + j[1],
                (iz - 10.5) * 1.8 + j[2],
            ];
            assert_close3(
                body.translation,
                centre,
                &format!("terrain body {i} centre"),
            );
            assert_eq!(body.shape, shape, "terrain body {i} shape");
            for (got, want) in body.rotation.iter().zip(rotation) {
                assert!((got - want).abs() < 1e-12, "terrain body {i} rotation");
            }
            assert_eq!(body.linvel, [v[0], v[1], v[2]], "terrain body {i} velocity");
            assert_eq!(body.motion, Motion::Dynamic);
            assert_eq!(
                (body.density, body.friction, body.restitution),
                (1.0, 0.5, 0.5)
            );
        }
        // Body 0 is the lattice corner (−18.9, 5, −18.9) plus its jitter.
        let c0 = scene.bodies[0].translation;
        assert!((c0[0] + 18.9).abs() <= 0.05 && (c0[1] - 5.0).abs() <= 0.05);
        let g = scene.bodies[n];
        assert_eq!(g.motion, Motion::Static);
        assert_eq!(g.shape, ShapeSpec::Terrain { ground });
        assert_eq!(g.translation, [0.0; 3]);
        assert_eq!(g.rotation, [0.0, 0.0, 0.0, 1.0]);
        assert_eq!((g.friction, g.restitution), (0.5, 0.5));
    }
    // Samples: x_i = −100 + 200·i/256 (multiples of 0.78125), h worked by hand at the centre
    // and at a corner.
    assert_eq!(terrain_coordinate(0), -100.0);
    assert_eq!(terrain_coordinate(1), -99.21875);
    assert_eq!(terrain_coordinate(128), 0.0);
    assert_eq!(terrain_coordinate(256), 100.0);
    assert_eq!(terrain_height(0.0, 0.0), 0.0);
    let want = 2.0 * (-100.0f64 / 7.0).sin() * (-100.0f64 / 5.0).cos()
        + 0.5 * (-100.0f64 / 2.3 - 100.0 / 3.1).sin();
    assert_eq!(terrain_height(-100.0, -100.0), want);
    let heights = terrain_heights();
    assert_eq!(heights.len(), 257 * 257);
    for (i, j) in [(0, 0), (1, 0), (0, 1), (128, 128), (200, 17), (256, 256)] {
        let (x, z) = (
            -100.0 + 200.0 * i as f64 / 256.0,
            -100.0 + 200.0 * j as f64 / 256.0,
        );
        let h = 2.0 * (x / 7.0).sin() * (z / 5.0).cos() + 0.5 * (x / 2.3 + z / 3.1).sin();
        assert_eq!(heights[j * 257 + i], h, "sample ({i}, {j})");
    }
    // The heightfield's vertex (i, j) is the mesh's vertex j·257 + i, both (x_i, y_ij, z_j)
    // in f32; the mesh's triangles go cell by cell, j then i, split by the (i, j+1)–(i+1, j)
    // diagonal.
    let hf = terrain_heightfield().unwrap();
    let (vertices, indices) = terrain_mesh_data();
    assert_eq!((vertices.len(), indices.len()), (66_049, 131_072));
    for (i, j) in [(0, 0), (5, 3), (128, 200), (256, 256)] {
        let v = vertices[j * 257 + i];
        assert_eq!(hf.point(j, i), v, "vertex ({i}, {j})");
        assert_eq!(
            [v.x, v.y, v.z],
            [
                terrain_coordinate(i) as f32,
                heights[j * 257 + i] as f32,
                terrain_coordinate(j) as f32
            ]
        );
    }
    let at = |i: u32, j: u32| j * 257 + i;
    assert_eq!(indices[0], [at(0, 0), at(0, 1), at(1, 0)]);
    assert_eq!(indices[1], [at(0, 1), at(1, 1), at(1, 0)]);
    let (i, j) = (7u32, 3u32);
    let cell = (j * 256 + i) as usize;
    assert_eq!(indices[2 * cell], [at(i, j), at(i, j + 1), at(i + 1, j)]);
    assert_eq!(
        indices[2 * cell + 1],
        [at(i, j + 1), at(i + 1, j + 1), at(i + 1, j)]
    );
    for id in [0u32, 1, 2 * cell as u32, 2 * cell as u32 + 1, 131_071] {
        let c = indices[id as usize].map(|k| vertices[k as usize]);
        assert_eq!(*hf.triangle(id).unwrap().corners(), c, "triangle {id}");
    }
}

/// Escaped bodies and the height above the surface are counted with the analytic h.
#[test]
fn terrain_escape_rule_uses_the_analytic_surface() {
    use tumble_benches::scenes::{min_height_above_surface, terrain_escaped, terrain_height};
    let h = terrain_height(3.0, -7.0);
    let centres = [
        [3.0, h + 0.5, -7.0],
        [3.0, h - 0.99, -7.0],
        [3.0, h - 1.01, -7.0],
        [100.5, 10.0, 0.0],
        [0.0, 10.0, -100.5],
        [f64::NAN, 1.0, 0.0],
    ];
    assert_eq!(terrain_escaped(&centres), 4);
    let m = min_height_above_surface(&centres[..2]).unwrap();
    assert!((m + 0.99).abs() < 1e-12);
    assert_eq!(min_height_above_surface(&[]), None);
}
