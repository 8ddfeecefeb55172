//! The peer scenes of resting contact and a moving container — `pyramid`, `stacks`, `tumbler`,
//! `settle` — against the formulas of shared/peers/rapier-bench/README.md: body counts, order,
//! poses, materials and draws recomputed here independently, the tumbler's walls turning as
//! one rigid box, and the runner's fidelity figures at t = 0. Checks of the recipe, not of the
//! physics.

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tumble::WorldConfig;
use tumble_benches::measure::{Report, RunInfo, Timeline};
use tumble_benches::scenes::{
    boxes, pyramid, pyramid_body_count, settle, stacks, tumbler, BodySpec, BuiltScene, Motion,
    SceneKind, ShapeSpec, IDENTITY_ROTATION,
};
use tumble_benches::sim::Sim;

fn unit(rng: &mut ChaCha8Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 / 9_007_199_254_740_992.0
}

fn uniform(rng: &mut ChaCha8Rng, a: f64, b: f64) -> f64 {
    a + (b - a) * unit(rng)
}

const UNIT_CUBE: ShapeSpec = ShapeSpec::Cuboid {
    half_extents: [0.5; 3],
};

/// A unit cube of the resting scenes at rest at `centre`.
fn assert_resting_cube(b: &BodySpec, centre: [f64; 3], what: &str) {
    assert_eq!(b.motion, Motion::Dynamic, "{what}");
    assert_eq!(b.shape, UNIT_CUBE, "{what}");
    assert_eq!(b.translation, centre, "{what} centre");
    assert_eq!(b.rotation, IDENTITY_ROTATION, "{what}");
    assert_eq!((b.linvel, b.angvel), ([0.0; 3], [0.0; 3]), "{what}");
    assert_eq!(
        (b.density, b.friction, b.restitution),
        (1.0, 0.6, 0.0),
        "{what}"
    );
}

fn assert_ground(b: &BodySpec, a: f64) {
    assert_eq!(b.motion, Motion::Static);
    assert_eq!(
        b.shape,
        ShapeSpec::Cuboid {
            half_extents: [a, 0.5, a]
        }
    );
    assert_eq!(b.translation, [0.0, -0.5, 0.0]);
    assert_eq!((b.friction, b.restitution), (0.6, 0.0));
}

/// The first report of a run of no step (the figures at t = 0).
fn report_at_start(built: &BuiltScene) -> Report {
    let info = RunInfo {
        scene: built.scene.kind.name(),
        n: built.scene.dynamic_count(),
        warmup: 0,
        threads: 1,
        broadphase: "grid".into(),
        seed: 42,
        setup_ms: 0.0,
        api: "World::step",
    };
    Report::new(&info, &Timeline::new(vec![]), &built.end_state())
}

#[test]
fn pyramid_is_b_layers_of_squares_in_layer_iz_ix_order() {
    let b = 4;
    let scene = pyramid(b);
    assert_eq!(pyramid_body_count(b), 30);
    assert_eq!(pyramid_body_count(20), 2870);
    assert_eq!(pyramid_body_count(30), 9455);
    assert_eq!(scene.kind, SceneKind::Pyramid);
    assert_eq!(scene.dynamic_count(), b * (b + 1) * (2 * b + 1) / 6);
    assert_eq!(scene.bodies.len(), 30 + 1);
    let mut i = 0;
    for k in 0..b {
        let side = b - k;
        let half = (side as f64 - 1.0) / 2.0;
        for iz in 0..side {
            for ix in 0..side {
                let centre = [
                    (ix as f64 - half) * 1.01,
                    0.5 + k as f64,
                    (iz as f64 - half) * 1.01,
                ];
                assert_resting_cube(&scene.bodies[i], centre, &format!("cube {i}"));
                i += 1;
            }
        }
    }
    // Worked by hand: the first cube is the bottom layer's corner, the top cube is the last
    // dynamic body, centred at y = b − 0.5.
    assert_eq!(scene.bodies[0].translation, [-1.5 * 1.01, 0.5, -1.5 * 1.01]);
    assert_eq!(scene.bodies[29].translation, [0.0, 3.5, 0.0]);
    // Layers rest exactly on each other; side faces 0.01 apart.
    assert_eq!(
        scene.bodies[16].translation[1] - scene.bodies[0].translation[1],
        1.0
    );
    let gap = scene.bodies[1].translation[0] - scene.bodies[0].translation[0] - 1.0;
    assert!((gap - 0.01).abs() < 1e-12);
    assert_ground(&scene.bodies[30], 14.0);
    assert_eq!(scene.inside.min, [-14.0, 0.0, -14.0]);
    assert_eq!(scene.inside.max[0], 14.0);
}

#[test]
fn stacks_are_a_hundred_towers_in_tz_tx_k_order() {
    let h = 5;
    let scene = stacks(h);
    assert_eq!(scene.kind, SceneKind::Stacks);
    assert_eq!(scene.dynamic_count(), 100 * h);
    assert_eq!(scene.bodies.len(), 100 * h + 1);
    let mut i = 0;
    for tz in 0..10 {
        for tx in 0..10 {
            let (x, z) = ((tx as f64 - 4.5) * 3.0, (tz as f64 - 4.5) * 3.0);
            for k in 0..h {
                let what = format!("tower ({tx}, {tz}) cube {k}");
                assert_resting_cube(&scene.bodies[i], [x, 0.5 + k as f64, z], &what);
                i += 1;
            }
        }
    }
    // Worked by hand: tower (1, 0) starts at body h, 3 m along x from tower (0, 0).
    assert_eq!(scene.bodies[0].translation, [-13.5, 0.5, -13.5]);
    assert_eq!(scene.bodies[h].translation, [-10.5, 0.5, -13.5]);
    assert_eq!(scene.bodies[10 * h].translation, [-13.5, 0.5, -10.5]);
    assert_eq!(scene.bodies[100 * h - 1].translation, [13.5, 4.5, 13.5]);
    assert_ground(&scene.bodies[100 * h], 20.0);
}

#[test]
fn tumbler_cubes_follow_the_boxes_draws_on_the_halved_lattice() {
    let n = 64; // s = 4
    let scene = tumbler(n, 42);
    assert_eq!(scene.kind, SceneKind::Tumbler);
    assert_eq!(scene.dynamic_count(), n);
    assert_eq!(scene.bodies.len(), n + 6);
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    for (i, b) in scene.bodies[..n].iter().enumerate() {
        let j: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -0.05, 0.05)).collect();
        let (u1, u2, u3) = (unit(&mut rng), unit(&mut rng), unit(&mut rng));
        let v: Vec<f64> = (0..3).map(|_| uniform(&mut rng, -1.0, 1.0)).collect();
        let (ix, iz, iy) = ((i % 4) as f64, ((i / 4) % 4) as f64, (i / 16) as f64);
        let centre = [
            (ix - 1.5) * 0.9 + j[0],
            5.5 + iy * 0.9 + j[1],
            (iz - 1.5) * 0.9 + j[2],
        ];
        for (got, want) in b.translation.iter().zip(centre) {
            assert!((got - want).abs() < 1e-12, "cube {i}");
        }
        let tau = std::f64::consts::TAU;
        let q = [
            (1.0 - u1).sqrt() * (tau * u2).sin(),
            (1.0 - u1).sqrt() * (tau * u2).cos(),
            u1.sqrt() * (tau * u3).sin(),
            u1.sqrt() * (tau * u3).cos(),
        ];
        for (got, want) in b.rotation.iter().zip(q) {
            assert!((got - want).abs() < 1e-12, "cube {i} rotation");
        }
        assert_eq!(b.linvel, [v[0], v[1], v[2]], "cube {i} velocity");
        assert_eq!(b.motion, Motion::Dynamic);
        assert_eq!(
            b.shape,
            ShapeSpec::Cuboid {
                half_extents: [0.25; 3]
            }
        );
        assert_eq!((b.density, b.friction, b.restitution), (1.0, 0.6, 0.0));
    }
    // The six walls, in the order −x, +x, −y, +y, −z, +z, each turning at 0.25 rad/s about z
    // with its centre's velocity ω × (c − (0, 15, 0)).
    let walls = [
        ([0.5, 11.0, 11.0], [-10.5, 0.0, 0.0]),
        ([0.5, 11.0, 11.0], [10.5, 0.0, 0.0]),
        ([11.0, 0.5, 11.0], [0.0, -10.5, 0.0]),
        ([11.0, 0.5, 11.0], [0.0, 10.5, 0.0]),
        ([11.0, 11.0, 0.5], [0.0, 0.0, -10.5]),
        ([11.0, 11.0, 0.5], [0.0, 0.0, 10.5]),
    ];
    for (b, (he, c)) in scene.bodies[n..].iter().zip(walls) {
        assert_eq!(b.motion, Motion::Kinematic);
        assert_eq!(b.shape, ShapeSpec::Cuboid { half_extents: he });
        assert_eq!(b.translation, [c[0], 15.0 + c[1], c[2]]);
        assert_eq!(b.rotation, IDENTITY_ROTATION);
        assert_eq!(b.angvel, [0.0, 0.0, 0.25]);
        assert_eq!(b.linvel, [-0.25 * c[1], 0.25 * c[0], 0.0]);
        assert_eq!((b.friction, b.restitution), (0.6, 0.0));
    }
    // s = 21 fits, s = 22 is refused.
    assert!(BuiltScene::new(SceneKind::Tumbler, 9262, 42, WorldConfig::default()).is_err());
}

#[test]
fn tumbler_walls_turn_as_one_rigid_box_about_its_centre() {
    let n = 64;
    let mut sim = Sim::new(SceneKind::Tumbler, n, 42, WorldConfig::default()).expect("builds");
    let steps = 40;
    for _ in 0..steps {
        sim.step().expect("steps");
    }
    let Sim::World(built) = &sim else {
        panic!("the tumbler is a dynamics world")
    };
    let angle = 0.25 * steps as f64 / 60.0;
    let (sin, cos) = angle.sin_cos();
    for (spec, h) in built.scene.bodies[n..].iter().zip(&built.handles[n..]) {
        let body = built.world.body(*h).expect("a wall");
        let r = [spec.translation[0], spec.translation[1] - 15.0];
        let want = [cos * r[0] - sin * r[1], 15.0 + sin * r[0] + cos * r[1], 0.0];
        let t = body.translation();
        for k in 0..3 {
            let got = f64::from(t[k]);
            let want = if k == 2 { spec.translation[2] } else { want[k] };
            assert!(
                (got - want).abs() < 1e-4,
                "wall centre[{k}]: {got} vs {want}"
            );
        }
        let q = body.rotation();
        let want = [0.0, 0.0, (angle / 2.0).sin(), (angle / 2.0).cos()];
        for (got, want) in [q.i, q.j, q.k, q.w].into_iter().zip(want) {
            assert!((f64::from(got) - want).abs() < 1e-4, "wall rotation");
        }
    }
    let report = report_at_start(built);
    let drift = report.box_centre_drift.expect("reported");
    assert!(drift < 1e-4, "box centre drift {drift}");
    let turned = report.box_angle_rad.expect("reported");
    assert!(
        (turned - angle).abs() < 1e-4,
        "box angle {turned} vs {angle}"
    );
    assert_eq!(report.bodies, Some(n));
    assert_eq!(report.awake_bodies_last_step, Some(n));
    assert_eq!(report.escaped_bodies, 0);
}

#[test]
fn settle_is_boxes_under_another_name_with_600_warm_up_steps() {
    let n = 500;
    let a = settle(n, 42);
    let b = boxes(n, 42);
    assert_eq!(a.kind, SceneKind::Settle);
    assert_eq!(
        (a.bodies, a.container, a.inside),
        (b.bodies, b.container, b.inside)
    );
    assert_eq!(SceneKind::Settle.default_warmup(), 600);
    assert_eq!(SceneKind::Boxes.default_warmup(), 30);
    let mut sims = [SceneKind::Settle, SceneKind::Boxes]
        .map(|k| Sim::new(k, n, 42, WorldConfig::default()).expect("builds"));
    for sim in &mut sims {
        for _ in 0..3 {
            sim.step().expect("steps");
        }
    }
    let [settle_end, boxes_end] = sims.map(|s| s.end_state());
    assert_eq!(settle_end.hash, boxes_end.hash);
    assert_eq!(settle_end.fidelity.bodies, Some(n));
    assert_eq!(settle_end.fidelity.awake, Some(n));
    assert_eq!(boxes_end.fidelity, Default::default());
}

#[test]
fn figures_at_rest_before_any_step_and_only_for_the_resting_scenes() {
    let pyramid = BuiltScene::new(SceneKind::Pyramid, 4, 42, WorldConfig::default()).unwrap();
    let r = report_at_start(&pyramid);
    assert_eq!((r.bodies, r.escaped_bodies), (Some(30), 0));
    assert_eq!((r.max_displacement, r.top_drop), (Some(0.0), Some(0.0)));
    assert_eq!(r.sleep, Some(true), "sleeping is on by default");
    let line = r.to_json_line();
    assert!(line.contains("\"bodies\":30,"), "{line}");
    assert!(line.contains("\"awake_bodies_last_step\":30,"), "{line}");
    assert!(!line.contains("fallen"), "{line}");

    let stacks = BuiltScene::new(SceneKind::Stacks, 5, 42, WorldConfig::default()).unwrap();
    let r = report_at_start(&stacks);
    assert_eq!(
        (r.fallen, r.towers, r.bodies),
        (Some(0), Some(100), Some(500))
    );
    assert_eq!(r.top_drop, Some(0.0));

    let boxes = BuiltScene::new(SceneKind::Boxes, 8, 42, WorldConfig::default()).unwrap();
    let line = report_at_start(&boxes).to_json_line();
    for field in ["bodies", "awake_bodies_last_step", "sleep", "top_drop"] {
        assert!(
            !line.contains(&format!("\"{field}\"")),
            "boxes reports no {field}"
        );
    }
    assert!(BuiltScene::new(SceneKind::Pyramid, 200, 42, WorldConfig::default()).is_err());
}
